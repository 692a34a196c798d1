// The benchmark's ground truth of a room: bodies (catalog items at world poses, children moving with their
// parents) and the snug queries that build the layouts and paths and judge the movers: strict overlap, clearance,
// free sweeps, and interpenetration beyond a tolerance. Nothing here is timed.
import { TriPairs } from '../../../wasm/snug.js';
import { compose, inverse, rotate, translated, worldBox, boxesMeet, transformPoint } from './pose.mjs';

// Interpenetration tolerance, relative to the smaller body's size: touching and sub-tolerance contact are not
// interpenetration (a mover that rests a lamp on a table leaves them touching).
export const PENETRATION_TOLERANCE = 1e-4;

/** A catalog item made once per room, shared by every body of that kind (as the meshes of a real scene are). */
export function makeKind(snug, id, category, made) {
  const { geometry, surfaces, upright, color } = made;
  const positions = Float32Array.from(geometry.getAttribute('position').array);
  const indices = Uint32Array.from(geometry.index.array);
  const box = geometry.boundingBox;
  const lo = box.min.toArray(), hi = box.max.toArray();
  const mesh = snug.createMesh({ positions, indices, label: id });
  mesh.info(); // the edge adjacency the sweeps use, built up front
  return {
    id, category, geometry, arrays: { positions, indices }, surfaces, upright, color, lo, hi, mesh,
    diag: Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]), triangles: indices.length / 3,
  };
}

export class RoomState {
  constructor(snug, kinds) {
    this.snug = snug;
    this.kinds = kinds;
    this.bodies = [];
    this._pairs = new TriPairs(64);
  }

  /** A copy with the same kinds and bodies, poses copied. */
  clone() {
    const c = new RoomState(this.snug, this.kinds);
    c.bodies = this.bodies.map((b) => ({ ...b, pose: [...b.pose], local: [...b.local], box: b.box, children: [...b.children] }));
    return c;
  }

  /** on: what the body stands on, { body, offer } (the offer's index among that body's kind's surfaces), or null. */
  add({ name, kind, pose, parent = -1, isStatic = false, on = null }) {
    const i = this.bodies.length;
    const local = parent >= 0 ? compose(inverse(this.bodies[parent].pose), pose) : [...pose];
    this.bodies.push({ name, kind, pose: [...pose], local, parent, isStatic, on, children: [], box: null });
    if (parent >= 0) this.bodies[parent].children.push(i);
    this._box(i);
    return i;
  }

  /** Remove the last body added (a rejected try of the layout generator). */
  pop() {
    const b = this.bodies.pop();
    if (b.parent >= 0) this.bodies[b.parent].children.pop();
  }

  kindOf(i) { return this.kinds.get(this.bodies[i].kind); }

  _box(i) {
    const k = this.kindOf(i);
    this.bodies[i].box = worldBox(this.bodies[i].pose, k.lo, k.hi);
  }

  /** The body and everything that moves with it. */
  group(i) {
    const out = [i];
    for (let k = 0; k < out.length; k++) out.push(...this.bodies[out[k]].children);
    return out;
  }

  /** Set a body's world pose; its children follow. */
  setPose(i, pose) {
    const b = this.bodies[i];
    b.pose = [...pose];
    b.local = b.parent >= 0 ? compose(inverse(this.bodies[b.parent].pose), pose) : [...pose];
    this._box(i);
    for (const c of b.children) this.setPose(c, compose(b.pose, this.bodies[c].local));
  }

  /** Bodies outside `group` (and `except`) whose boxes meet `box` grown by `margin`. */
  near(box, group, margin = 0, except = []) {
    const out = [];
    for (let j = 0; j < this.bodies.length; j++)
      if (!group.includes(j) && !except.includes(j) && boxesMeet(box, this.bodies[j].box, margin)) out.push(j);
    return out;
  }

  overlaps(i, j) {
    return this.snug.overlap(this.kindOf(i).mesh, this.bodies[i].pose, this.kindOf(j).mesh, this.bodies[j].pose);
  }

  /** First body that a member of i's group overlaps (touching counts), or closer than `gap` unless in `loose`. */
  firstConflict(i, { gap = 0, loose = [] } = {}) {
    const group = this.group(i);
    for (const m of group) {
      for (const j of this.near(this.bodies[m].box, group, gap)) {
        if (this.overlaps(m, j)) return j;
        if (gap > 0 && !loose.includes(j) &&
          this.snug.within(this.kindOf(m).mesh, this.bodies[m].pose, this.kindOf(j).mesh, this.bodies[j].pose, gap)) return j;
      }
    }
    return -1;
  }

  /** Does i's group move by `translation` without touching anything (snug's sweep, from a free start)? */
  sweepFree(i, translation) {
    const group = this.group(i);
    for (const m of group) {
      const b = this.bodies[m].box;
      const swept = { min: b.min.map((x, a) => Math.min(x, x + translation[a])), max: b.max.map((x, a) => Math.max(x, x + translation[a])) };
      for (const j of this.near(swept, group)) {
        const r = this.snug.sweep(this.kindOf(m).mesh, this.bodies[m].pose, translation, this.kindOf(j).mesh, this.bodies[j].pose);
        if (r.hit) return false;
      }
    }
    return true;
  }

  /**
   * Pairs [member, other] where a member of i's group interpenetrates another body by more than the tolerance:
   * they overlap (snug's test: touching counts), and no move by the tolerance along a contact normal (of either
   * side's overlapping triangles, or their sum) separates them.
   */
  penetrations(i) {
    const out = [];
    const group = this.group(i);
    for (const m of group) {
      for (const j of this.near(this.bodies[m].box, group)) if (this.penetrates(m, j)) out.push([m, j]);
    }
    return out;
  }

  penetrates(a, b) {
    const A = this.kindOf(a), B = this.kindOf(b), pa = this.bodies[a].pose, pb = this.bodies[b].pose;
    if (!this.snug.overlap(A.mesh, pa, B.mesh, pb)) return false;
    const tol = PENETRATION_TOLERANCE * Math.min(A.diag, B.diag);
    const pairs = this.snug.overlapAll(A.mesh, pa, B.mesh, pb, this._pairs);
    const dirs = [];
    const addDir = (d) => {
      const l = Math.hypot(d[0], d[1], d[2]);
      if (l < 1e-12) return;
      const u = d.map((x) => x / l);
      if (!dirs.some((v) => v[0] * u[0] + v[1] * u[1] + v[2] * u[2] > 0.999)) dirs.push(u);
    };
    const outOfB = [];
    for (let k = 0; k < Math.min(pairs.count, pairs.pairs.length / 2); k++) {
      const nb = triangleNormal(B, pb, pairs.pairs[2 * k + 1]), na = triangleNormal(A, pa, pairs.pairs[2 * k]);
      addDir(nb);
      addDir(na.map((x) => -x));
      if (!outOfB.some((v) => v[0] * nb[0] + v[1] * nb[1] + v[2] * nb[2] > 0.999)) outOfB.push(nb);
    }
    addDir(outOfB.reduce((s, v) => s.map((x, c) => x + v[c]), [0, 0, 0]));
    for (const d of dirs) {
      if (!this.snug.overlap(A.mesh, translated(pa, d.map((x) => x * tol)), B.mesh, pb)) return false;
    }
    return true;
  }

  /** The horizontal offers of body i in world space: { label, normal, polygon, height, body, index (its surface) }. */
  offers(i) {
    const b = this.bodies[i];
    return this.kindOf(i).surfaces.map((s, index) => ({ s, index })).filter(({ s }) => s.kind === 'offer' && s.normal[1] === 1)
      .map(({ s, index }) => ({
        label: s.label, body: i, index, polygon: s.polygon.map((p) => transformPoint(b.pose, p)),
        height: transformPoint(b.pose, s.polygon[0])[1],
      }));
  }

  triangleCount() {
    return this.bodies.reduce((n, b) => n + this.kinds.get(b.kind).triangles, 0);
  }
}

function triangleNormal(kind, pose, tri) {
  const { positions: p, indices: x } = kind.arrays;
  const v = (c) => [p[3 * x[3 * tri + c]], p[3 * x[3 * tri + c] + 1], p[3 * x[3 * tri + c] + 2]];
  const a = v(0), b = v(1), c = v(2);
  const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  return rotate(pose, [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]]);
}

/** Inside a convex polygon of world points, seen from above (either winding). */
export function insideXZ(polygon, p) {
  let sign = 0;
  for (let k = 0; k < polygon.length; k++) {
    const a = polygon[k], b = polygon[(k + 1) % polygon.length];
    const c = (b[0] - a[0]) * (p[2] - a[2]) - (b[2] - a[2]) * (p[0] - a[0]);
    if (c !== 0) {
      if (sign && Math.sign(c) !== sign) return false;
      sign = Math.sign(c);
    }
  }
  return true;
}

/** A point of a quadrilateral offer from two numbers in [0, 1) (bilinear). */
export function pointOn(polygon, u, v) {
  const [a, b, c, d] = polygon;
  return [0, 1, 2].map((k) => (1 - v) * ((1 - u) * a[k] + u * b[k]) + v * ((1 - u) * d[k] + u * c[k]));
}
