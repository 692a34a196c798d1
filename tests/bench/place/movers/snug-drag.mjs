// "snug JS DragMover": the page's drag mover as it is today (web/snug-three.js: DragMover over the core's sweeps,
// with its own candidate scan and slide loop in JS), on three.js objects mirrored by SnugSync as the page does.
// DragMover only translates; a turn is done here the same way over the core's rotation sweep (sweepRotation
// against every candidate whose box meets the turn's swept box), stopping at first contact.
import { Group, Mesh, Vector3 } from 'three';
import { Snug } from '../../../../wasm/snug.js';
import { SnugSync, DragMover } from '../../../../web/snug-three.js';
import { yawOf, wrapAngle, turnAbout, boxesMeet } from '../pose.mjs';

const UP = [0, 1, 0];
// Turns below this are the float32 pose's rounding, not a gesture.
const TURN_EPSILON = 1e-5;

export default {
  name: 'snug JS DragMover',
  async create() {
    const snug = await Snug.create();
    let sync = null, mover = null, entries = [];
    const delta = new Vector3();

    // The entry and the entries of its descendants (three.js children move with their parent).
    const groupOf = (entry) => sync.entries.filter((e) => {
      for (let o = e.object; o; o = o.parent) if (o === entry.object) return true;
      return false;
    });

    // Sweeps the candidates cheapest first (fewest triangles), each with the turn left free by the ones before: a
    // sofa against a wall then never sweeps the dragon resting on its seat through the full turn (measured: 4 s for
    // 4 degrees in the core's rotation sweep, 0.1 mm above the seat, without a hit).
    function turn(entry, angle) {
      const pivot = [entry.pose[4], entry.pose[5], entry.pose[6]];
      const group = groupOf(entry);
      const pairs = [];
      for (const m of group) {
        const r = Math.max(...[m.worldMin, m.worldMax].flatMap((a) => [m.worldMin, m.worldMax].map((b) => Math.hypot(a.x - pivot[0], b.z - pivot[2]))));
        const swept = { min: [pivot[0] - r, m.worldMin.y, pivot[2] - r], max: [pivot[0] + r, m.worldMax.y, pivot[2] + r] };
        for (const o of sync.entries) {
          if (!group.includes(o) && boxesMeet(swept, { min: o.worldMin.toArray(), max: o.worldMax.toArray() })) pairs.push([m, o, o.arrays.indices.length]);
        }
      }
      pairs.sort((a, b) => a[2] - b[2]);
      let t = 1;
      for (const [m, o] of pairs) {
        if (t === 0) break;
        const res = snug.sweepRotation(m.mesh, m.pose, pivot, UP, angle * t, o.mesh, o.pose);
        if (res.hit) t *= res.safeT;
      }
      if (t > 0) sync.setWorldPose(entry.object, turnAbout(entry.pose, pivot, angle * t));
      return t < 1;
    }

    return {
      name: this.name,
      setup(room) {
        sync = new SnugSync(snug, { scene: true });
        const root = new Group();
        const objects = room.bodies.map((b) => {
          const o = new Mesh(b.geometry);
          o.name = b.name;
          const local = b.parent >= 0 ? b.local : b.pose;
          o.quaternion.set(local[0], local[1], local[2], local[3]);
          o.position.set(local[4], local[5], local[6]);
          return o;
        });
        room.bodies.forEach((b, i) => (b.parent >= 0 ? objects[b.parent] : root).add(objects[i]));
        root.updateMatrixWorld(true);
        entries = objects.map((o, i) => sync.add(o, { isStatic: room.bodies[i].isStatic }));
        for (const e of entries) e.mesh.info(); // the edge adjacency the sweeps use, built up front as the page's worker does
        mover = new DragMover(sync);
      },
      event(e) {
        const entry = entries[e.body];
        let blocked = false;
        const angle = wrapAngle(yawOf(e.target) - yawOf(entry.pose));
        if (Math.abs(angle) > TURN_EPSILON) blocked = turn(entry, Math.max(-3, Math.min(3, angle)));
        delta.set(e.target[4] - entry.pose[4], e.target[5] - entry.pose[5], e.target[6] - entry.pose[6]);
        if (delta.lengthSq() > 0) {
          mover.move(entry, delta);
          blocked = blocked || mover.blockers.size > 0;
        }
        return { pose: entry.pose, blocked };
      },
      dispose() {
        sync.dispose();
        snug.dispose();
      },
    };
  },
};
