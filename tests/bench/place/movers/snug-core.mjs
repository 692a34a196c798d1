// "snug core mover": the place layer's one call per pointer event (body.move, core/src/place), as an application
// would use it. Meshes carry the catalog's authored surfaces, upright items their orientation constraint, and every
// body is bound to what it stands on (the room records it), which lays it onto its offer: the core makes a body the
// child of the supporter of its main binding, so a table carries what stands on it. Per event:
//   carry        pointer input (the event's ray and grab point): the ornament slides on its offer and re-seats
//                onto the offer under the pointer, which is what the gesture asks for;
//   rotate       a turn about the allowed axis by the event's change of yaw, no translation;
//   the rest     target input (the event's position, the body's own rotation): slides in the bindings' plane.
// Each result reports the subtree's poses (the bodies the core moved with it) and the core's own consistency
// check, both read lazily outside the timed call.
import { Snug } from '../../../../wasm/snug.js';
import { yawOf, wrapAngle } from '../pose.mjs';

const UP = [0, 1, 0];
// Turns below this are the float32 pose's rounding, not a gesture.
const TURN_EPSILON = 1e-5;
// Reasons that mean a body (not an offer's edge or a binding) stopped the motion.
const BLOCKED = ['blocked', 'turn-blocked', 'snap-blocked'];

/** Index of the binding surface among `surfaces` that lies on `offer` (its normal is the offer's). */
export function restingBinding(surfaces, offer) {
  return surfaces.findIndex((s) => s.kind === 'binding' && s.normal.every((x, a) => x === offer.normal[a]));
}

/**
 * The room as a placement scene of `snug`: { scene, bodies, meshes, meshOf (kind -> Mesh) }. Meshes carry the
 * catalog's surfaces, upright bodies their orientation, and every body is bound to what it stands on. With prepare,
 * each mesh also builds up front, as a page's worker would while loading, the edge adjacency the sweeps use and the
 * ray tree that pointer input casts into (else the first drag or ray touching a 48k dragon builds it: ~2 ms).
 */
export function buildScene(snug, room, { prepare = true } = {}) {
  const scene = snug.createScene();
  const meshOf = new Map(), bodies = [], meshes = [];
  for (const b of room.bodies) {
    if (!meshOf.has(b.kind)) {
      const mesh = snug.createMesh({ positions: b.arrays.positions, indices: b.arrays.indices, label: b.kind });
      if (prepare) {
        mesh.info();
        snug.raycast(mesh, null, [0, 0, 0], [0, -1, 0]);
      }
      mesh.setSurfaces(b.surfaces);
      meshOf.set(b.kind, mesh);
      meshes.push(mesh);
    }
    bodies.push(scene.createBody({
      mesh: meshOf.get(b.kind), parent: b.parent >= 0 ? bodies[b.parent] : null, isStatic: b.isStatic,
      pose: b.parent >= 0 ? b.local : b.pose,
    }));
  }
  room.bodies.forEach((b, i) => {
    if (b.upright && !b.isStatic) bodies[i].setOrientation(UP, UP);
    if (!b.on) return;
    bodies[i].bind(restingBinding(b.surfaces, room.bodies[b.on.body].surfaces[b.on.offer]), bodies[b.on.body], b.on.offer);
  });
  return { scene, bodies, meshes, meshOf };
}

export default {
  name: 'snug core mover',
  async create() {
    const snug = await Snug.create();
    snug.warmUp(); // as the page does before its first gesture (docs/guide.md, Load snug)
    let scene = null, bodies = [], meshes = [];
    const pose = new Float32Array(7), target = new Float32Array(7);

    // The bodies the core moves with body i (its subtree), with their world poses.
    function subtree(i) {
      const parentOf = new Map(bodies.map((b) => [b, b.parent]));
      const inside = (b) => {
        for (let p = parentOf.get(b); p; p = parentOf.get(p)) if (p === bodies[i]) return true;
        return false;
      };
      const out = [];
      bodies.forEach((b, j) => { if (inside(b)) out.push([j, Array.from(b.getPose())]); });
      return out;
    }

    return {
      name: this.name,
      setup(room) {
        ({ scene, bodies, meshes } = buildScene(snug, room));
        // binding laid each body onto its offer (the room stands them a little above): the poses the path starts from
        return bodies.map((b, i) => [i, Array.from(b.getPose())]);
      },
      event(e) {
        const body = bodies[e.body];
        body.getPose(pose);
        let r;
        if (e.gesture === 'rotate') {
          const angle = wrapAngle(yawOf(e.target) - yawOf(pose));
          r = body.move({ turn: Math.abs(angle) > TURN_EPSILON ? Math.max(-3, Math.min(3, angle)) : 0 });
        } else if (e.gesture === 'carry') {
          r = body.move({ ray: { origin: e.ray.origin, dir: e.ray.direction }, grab: e.grab });
        } else {
          target.set(pose.subarray(0, 4));
          target.set(e.target.slice(4, 7), 4);
          r = body.move({ target });
        }
        return {
          pose: r.pose,
          blocked: r.reasons.some((x) => BLOCKED.includes(x)),
          get moved() { return subtree(e.body); },
          violations: () => scene.check().length,
        };
      },
      dispose() {
        scene.dispose();
        for (const m of meshes) m.dispose();
        snug.dispose();
      },
    };
  },
};
