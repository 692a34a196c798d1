// The anchor: what three-mesh-bvh users do for a drag that stops at contact (anchors.md §4). A MeshBVH per
// geometry; per event, for every candidate whose world box meets the swept box, intersectsGeometry (BVH against
// BVH, asked by the geometry with fewer triangles, the faster order) at sub-steps no longer than a tenth of the moving body's smallest extent, then bisection (14 halvings) to
// the last free pose; the contact normal from the first intersecting triangle pair (bvhcast); then the same slide as
// the page's DragMover: the rest of the motion projected onto the blocking plane (kept horizontal), up to three
// times. Turns about up are sub-stepped and bisected the same way (no slide). A candidate the body already
// overlaps at the start is skipped, as DragMover's fallback does, so that nothing is trapped.
import { BufferAttribute, BufferGeometry, Matrix4, Quaternion, Vector3 } from 'three';
import { MeshBVH, SAH } from 'three-mesh-bvh';
import { yawOf, wrapAngle, turnAbout, translated, worldBox, boxesMeet } from '../pose.mjs';

const SUBSTEP = 0.1;      // of the moving body's smallest extent
const HALVINGS = 14;
const MAX_SLIDES = 3;
const TURN_EPSILON = 1e-5; // radians: below it a target's turn is rounding

export default {
  name: 'three-mesh-bvh (anchor)',
  anchor: true,
  async create() {
    let bodies = [];
    const kinds = new Map();
    const m4 = new Matrix4(), rel = new Matrix4(), q = new Quaternion(), v = new Vector3(), one = new Vector3(1, 1, 1);
    const matrixOf = (pose, out) => out.compose(v.set(pose[4], pose[5], pose[6]), q.set(pose[0], pose[1], pose[2], pose[3]), one);

    const group = (i) => {
      const out = [i];
      for (let k = 0; k < out.length; k++) out.push(...bodies[out[k]].children);
      return out;
    };
    const setPose = (b, pose) => {
      b.pose = pose;
      matrixOf(pose, b.matrix);
      b.inverse.copy(b.matrix).invert();
      b.box = worldBox(pose, b.kind.lo, b.kind.hi);
    };
    // Does body b at `pose` intersect body o (at its own pose)? The geometry with fewer triangles asks: with big
    // furniture triangles against a 48k dragon that order takes microseconds, the other one up to 200 ms.
    const intersects = (b, pose, o) => {
      matrixOf(pose, m4);
      if (b.kind.triangles <= o.kind.triangles) return b.kind.bvh.intersectsGeometry(o.kind.geometry, rel.copy(m4).invert().multiply(o.matrix));
      return o.kind.bvh.intersectsGeometry(b.kind.geometry, rel.multiplyMatrices(o.inverse, m4));
    };
    const extent = (box) => Math.min(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]);

    // Largest free fraction of a motion pose(t), t in [0, 1], of b against o; hi: the first blocked t.
    function freeFraction(b, poseAt, o, steps) {
      if (intersects(b, poseAt(0), o)) return { t: 1 };
      let free = 0;
      for (let k = 1; k <= steps; k++) {
        const t = k / steps;
        if (intersects(b, poseAt(t), o)) {
          let lo = free, hi = t;
          for (let i = 0; i < HALVINGS; i++) {
            const mid = (lo + hi) / 2;
            if (intersects(b, poseAt(mid), o)) hi = mid; else lo = mid;
          }
          return { t: lo, hi };
        }
        free = t;
      }
      return { t: 1 };
    }

    // World normal of o's first triangle that b at `pose` intersects (asked in the same order as intersects()).
    function contactNormal(b, pose, o) {
      const n = new Vector3();
      const bAsks = b.kind.triangles <= o.kind.triangles;
      matrixOf(pose, m4);
      const [self, other, toSelf] = bAsks ? [b, o, rel.copy(m4).invert().multiply(o.matrix)] : [o, b, rel.multiplyMatrices(o.inverse, m4)];
      self.kind.bvh.bvhcast(other.kind.bvh, toSelf, {
        intersectsTriangles(t1, t2) {
          if (!t1.intersectsTriangle(t2)) return false;
          (bAsks ? t2 : t1).getNormal(n); // o's triangle, in the asking body's frame
          return true;
        },
      });
      const frame = bAsks ? pose : o.pose;
      return n.applyQuaternion(q.set(frame[0], frame[1], frame[2], frame[3]));
    }

    function firstBlock(members, offset, d) {
      const len = Math.hypot(d[0], d[1], d[2]);
      let best = null;
      for (const i of members) {
        const b = bodies[i];
        const start = translated(b.pose, offset);
        const box = { min: b.box.min.map((x, a) => x + offset[a]), max: b.box.max.map((x, a) => x + offset[a]) };
        const swept = { min: box.min.map((x, a) => Math.min(x, x + d[a])), max: box.max.map((x, a) => Math.max(x, x + d[a])) };
        const steps = Math.max(1, Math.ceil(len / (SUBSTEP * extent(box))));
        const poseAt = (t) => translated(start, [d[0] * t, d[1] * t, d[2] * t]);
        for (let j = 0; j < bodies.length; j++) {
          if (members.includes(j) || !boxesMeet(swept, bodies[j].box)) continue;
          const r = freeFraction(b, poseAt, bodies[j], steps);
          if (r.t < 1 && (!best || r.t < best.t)) best = { t: r.t, b, o: bodies[j], at: poseAt(r.hi) };
        }
      }
      if (best) {
        best.normal = contactNormal(best.b, best.at, best.o);
        if (best.normal.x * d[0] + best.normal.y * d[1] + best.normal.z * d[2] > 0) best.normal.negate();
      }
      return best;
    }

    // Translate the group by d: stop at first contact, slide the rest along the blocking plane (as DragMover).
    function move(members, d) {
      const offset = [0, 0, 0], wanted = [...d];
      let rest = [...d], blocked = false;
      for (let slide = 0; slide <= MAX_SLIDES && rest[0] ** 2 + rest[1] ** 2 + rest[2] ** 2 > 1e-14; slide++) {
        const block = firstBlock(members, offset, rest);
        const t = block ? block.t : 1;
        for (let a = 0; a < 3; a++) offset[a] += rest[a] * t;
        if (!block) break;
        blocked = true;
        rest = rest.map((x) => x * (1 - t));
        const n = [block.normal.x, 0, block.normal.z];
        const l = Math.hypot(n[0], n[2]);
        if (l < 1e-6) break;
        const into = (rest[0] * n[0] + rest[2] * n[2]) / l;
        if (into >= 0) break;
        rest = rest.map((x, a) => (x - (into * n[a]) / l) * 0.999);
        if (rest[0] * wanted[0] + rest[1] * wanted[1] + rest[2] * wanted[2] <= 0) break;
      }
      for (const i of members) setPose(bodies[i], translated(bodies[i].pose, offset));
      return blocked;
    }

    // Turn the group about the vertical axis through the root body's origin; stop at first contact.
    function turn(members, angle) {
      const root = bodies[members[0]], pivot = [root.pose[4], root.pose[5], root.pose[6]];
      let t = 1;
      for (const i of members) {
        const b = bodies[i];
        const r = Math.max(...[b.box.min, b.box.max].flatMap((x) => [b.box.min, b.box.max].map((z) => Math.hypot(x[0] - pivot[0], z[2] - pivot[2]))));
        const swept = { min: [pivot[0] - r, b.box.min[1], pivot[2] - r], max: [pivot[0] + r, b.box.max[1], pivot[2] + r] };
        const steps = Math.max(1, Math.ceil((Math.abs(angle) * r) / (SUBSTEP * extent(b.box))));
        const poseAt = (s) => turnAbout(b.pose, pivot, angle * s);
        for (let j = 0; j < bodies.length; j++) {
          if (members.includes(j) || !boxesMeet(swept, bodies[j].box)) continue;
          t = Math.min(t, freeFraction(b, poseAt, bodies[j], steps).t);
        }
      }
      if (t > 0) for (const i of members) setPose(bodies[i], turnAbout(bodies[i].pose, pivot, angle * t));
      return t < 1;
    }

    return {
      name: this.name,
      setup(room) {
        bodies = room.bodies.map((b) => {
          if (!kinds.has(b.kind)) {
            const geometry = new BufferGeometry();
            geometry.setAttribute('position', new BufferAttribute(b.arrays.positions, 3));
            geometry.setIndex(new BufferAttribute(b.arrays.indices.slice(), 1)); // MeshBVH reorders the index in place
            geometry.computeBoundingBox();
            const bvh = new MeshBVH(geometry, { strategy: SAH });
            geometry.boundsTree = bvh; // intersectsGeometry then runs BVH against BVH
            kinds.set(b.kind, { geometry, bvh, triangles: b.arrays.indices.length / 3, lo: geometry.boundingBox.min.toArray(), hi: geometry.boundingBox.max.toArray() });
          }
          return { kind: kinds.get(b.kind), children: [], matrix: new Matrix4(), inverse: new Matrix4() };
        });
        room.bodies.forEach((b, i) => {
          setPose(bodies[i], [...b.pose]);
          if (b.parent >= 0) bodies[b.parent].children.push(i);
        });
      },
      event(e) {
        const members = group(e.body), root = bodies[e.body];
        let blocked = false;
        const angle = wrapAngle(yawOf(e.target) - yawOf(root.pose));
        if (Math.abs(angle) > TURN_EPSILON) blocked = turn(members, angle);
        const d = [e.target[4] - root.pose[4], e.target[5] - root.pose[5], e.target[6] - root.pose[6]];
        if (d[0] || d[1] || d[2]) blocked = move(members, d) || blocked;
        return { pose: root.pose, blocked };
      },
      dispose() {
        kinds.clear();
        bodies = [];
      },
    };
  },
};
