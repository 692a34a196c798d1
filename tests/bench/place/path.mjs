// A scripted drag path through a room: a fixed number of pointer events, each the target world pose of the dragged
// body (2-5 cm or 2-5 degrees from the previous one), in gestures a person furnishing the room would make:
//   wall-slide  a bookcase, sofa or desk slid along its wall while pressed 1-2 cm into it
//   push        a piece on the floor pushed into its nearest neighbour, along it, and back
//   chair-tuck  a chair pulled out from its table and pushed in until it stops
//   shelf-slide an ornament slid over its table, shelf or seat, often into another ornament there
//   carry       an ornament taken from its shelf, table or seat to another one (onto tables, re-seats): pulled out
//               from under whatever is above it, lifted over what is in between, lowered (pressing on arrival)
//   rotate      a piece or an ornament turned about up in 2-5 degree steps, back again if it ends overlapping
// The script is planned on the room's own poses (a RoomState copy), deterministic from the seed: gestures end at
// free poses (or return to where they started), and carries take routes that snug's sweeps find free. Each event
// also carries a pointer ray for movers that take rays, straight down from above the target, and the grabbed
// point in the body's frame (its origin, which lies on the plane it rests with).
import { mulberry32 } from '../../tools/prng.mjs';
import { rotate, translated, turnAbout, transformPoint } from './pose.mjs';
import { insideXZ, pointOn } from './state.mjs';
import { ROOM, CLEAR } from './room.mjs';

const FLOOR_PIECES = ['table', 'chair', 'sofa', 'floor-lamp', 'plant', 'desk', 'bookcase'];
const WALL_UNITS = ['bookcase', 'sofa', 'desk'];
const CARRIERS = ['table', 'desk', 'bookcase', 'sofa'];
// Shares of the events.
const GESTURES = [['wall-slide', 0.15], ['push', 0.2], ['chair-tuck', 0.15], ['shelf-slide', 0.15], ['carry', 0.2], ['rotate', 0.15]];
// Carried ornaments go no higher (their tops stay under the 2.6 m walls' top).
const TRANSIT_CEILING = 2.3;

// Issue 18's grouped drag: one table (with what stands on it) pushed into its neighbours and turned.
export const GROUPED_GESTURES = [['push', 0.75], ['rotate', 0.25]];

/**
 * { events, counts }: `count` events planned on a copy of `room` (a RoomState) from `seed`. focus: the bodies
 * that push and rotate drag (default: any floor piece; rotate also ornaments), gestures: the shares (default GESTURES).
 */
export function makePath(room, seed, count = 1000, { focus = null, gestures = GESTURES } = {}) {
  const world = room.clone();
  const rnd = mulberry32(seed ^ 0x5bd1e995);
  const range = (a, b) => a + (b - a) * rnd();
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const events = [];
  const bodies = world.bodies.map((b, i) => i);
  const isOrnament = (i) => world.kindOf(i).category === 'ornament';
  const ornaments = bodies.filter(isOrnament);
  const floorPieces = bodies.filter((i) => world.bodies[i].parent < 0 && FLOOR_PIECES.includes(world.bodies[i].kind));
  const pos = (p) => [p[4], p[5], p[6]];
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const len = (a) => Math.hypot(a[0], a[1], a[2]);

  let gesture = '';
  function emit(body, target) {
    const ray = { origin: [target[4], ROOM.height + 0.5, target[6]], direction: [0, -1, 0] };
    events.push({ body, gesture, target: [...target], ray, grab: [0, 0, 0] });
  }
  // Straight from `from` to `to` in steps of 2-5 cm; `press` offsets every event but the last (into a wall).
  function line(body, from, to, press = [0, 0, 0]) {
    const d = sub(pos(to), pos(from)), l = len(d);
    let s = 0;
    while (s < l) {
      s = Math.min(l, s + range(0.02, 0.05));
      const t = translated(from, d.map((x) => (x * s) / l));
      emit(body, s < l ? translated(t, press) : t);
    }
    return to;
  }
  // Turn about the body's own vertical axis by `angle` in steps of 2-5 degrees.
  function turn(body, from, angle) {
    const degree = Math.PI / 180;
    for (let a = 0; a < Math.abs(angle);) {
      a = Math.min(Math.abs(angle), a + range(2, 5) * degree);
      emit(body, turnAbout(from, pos(from), Math.sign(angle) * a));
    }
    return turnAbout(from, pos(from), angle);
  }
  const freeAt = (body, pose, opts) => {
    const old = world.bodies[body].pose;
    world.setPose(body, pose);
    const free = world.firstConflict(body, opts) < 0;
    world.setPose(body, old);
    return free;
  };
  // Ornaments and decor may stand right next to their carriers; 1 cm apart from each other.
  const carriers = bodies.filter((i) => CARRIERS.includes(world.bodies[i].kind));
  const looseFor = (body) => carriers.filter((c) => c !== body);

  // The offer an ornament rests on: its height just below, its polygon around it.
  function offerUnder(body) {
    const p = world.bodies[body].pose;
    for (const c of carriers) {
      for (const o of world.offers(c)) if (Math.abs(o.height + CLEAR - p[5]) < 1e-6 && insideXZ(o.polygon, pos(p))) return o;
    }
    return null;
  }
  const baseOf = (body) => world.kindOf(body).surfaces.find((s) => s.kind === 'binding').polygon;
  const contained = (body, pose, offer) => baseOf(body).every((v) => insideXZ(offer.polygon, transformPoint(pose, v)));

  const plan = {
    'wall-slide'() {
      const units = floorPieces.filter((i) => WALL_UNITS.includes(world.bodies[i].kind));
      const body = pick(units), S = world.bodies[body].pose;
      const n = rotate(S, [0, 0, 1]), u = rotate(S, [1, 0, 0]);
      const D = pick([-1, 1]) * range(0.3, 1.2), push = range(0.01, 0.02);
      const end = translated(S, u.map((x) => x * D));
      const press = n.map((x) => -x * push);
      line(body, S, end, press);
      return freeAt(body, end) ? end : line(body, end, S, press);
    },
    push() {
      const body = pick(focus || floorPieces), S = world.bodies[body].pose;
      const others = floorPieces.filter((j) => j !== body).map((j) => [len(sub(pos(world.bodies[j].pose), pos(S))), j]).sort((a, b) => a[0] - b[0]);
      const [dist, j] = others[0];
      const d = sub(pos(world.bodies[j].pose), pos(S)).map((x, a) => (a === 1 ? 0 : x / dist));
      const A = translated(S, d.map((x) => x * dist * range(0.5, 0.9)));
      const side = range(-0.5, 0.5);
      const B = translated(A, [-d[2] * side, 0, d[0] * side]);
      line(body, S, A);
      line(body, A, B);
      return line(body, B, S);
    },
    'chair-tuck'() {
      const body = pick(floorPieces.filter((i) => world.bodies[i].kind === 'chair')), S = world.bodies[body].pose;
      const f = rotate(S, [0, 0, 1]);
      const out = translated(S, f.map((x) => -x * range(0.2, 0.4)));
      const tuck = translated(S, f.map((x) => x * range(0.2, 0.5)));
      line(body, S, out);
      line(body, out, tuck);
      return line(body, tuck, S);
    },
    'shelf-slide'() {
      const body = pick(ornaments), S = world.bodies[body].pose, offer = offerUnder(body);
      if (!offer) return null;
      const neighbours = bodies.filter((j) => j !== body && Math.abs(world.bodies[j].pose[5] - S[5]) < 1e-6 && insideXZ(offer.polygon, pos(world.bodies[j].pose)));
      let P = null;
      if (neighbours.length && rnd() < 0.5) P = [...S.slice(0, 4), ...pos(world.bodies[pick(neighbours)].pose)];
      for (let k = 0; k < 50 && !P; k++) {
        const q = [...S];
        [q[4], q[6]] = [range(Math.min(...offer.polygon.map((v) => v[0])), Math.max(...offer.polygon.map((v) => v[0]))),
          range(Math.min(...offer.polygon.map((v) => v[2])), Math.max(...offer.polygon.map((v) => v[2])))];
        if (contained(body, q, offer)) P = q;
      }
      if (!P) return null;
      P[5] = S[5];
      line(body, S, P);
      return contained(body, P, offer) && freeAt(body, P, { gap: 0.01, loose: looseFor(body) }) ? P : line(body, P, S);
    },
    carry() {
      const body = pick(ornaments), S = world.bodies[body].pose, from = offerUnder(body);
      if (!from) return null;
      // Another offer within reach (3 m), a table's more often than not.
      const near = (o) => Math.hypot(o.polygon[0][0] - S[4], o.polygon[0][2] - S[6]) < 3;
      const offers = carriers.flatMap((c) => world.offers(c)).filter((o) => (o.body !== from.body || o.height !== from.height) && near(o));
      const toTable = rnd() < 0.6;
      const choices = offers.filter((o) => (toTable ? world.bodies[o.body].kind === 'table' : true));
      if (!choices.length) return null;
      for (let k = 0; k < 40; k++) {
        const to = pick(choices);
        const spot = pointOn(to.polygon, rnd(), rnd());
        const T = [...S.slice(0, 4), spot[0], to.height + CLEAR, spot[2]];
        if (!contained(body, T, to) || !freeAt(body, T, { gap: 0.01, loose: looseFor(body) })) continue;
        const route = carryRoute(body, S, from, T, to);
        if (!route) continue;
        let at = S;
        for (const w of route) at = line(body, at, w);
        emit(body, translated(T, [0, -0.01, 0])); // pressing on arrival
        return T;
      }
      return null;
    },
    rotate() {
      const body = focus ? pick(focus) : rnd() < 0.6 ? pick(floorPieces) : pick(ornaments), S = world.bodies[body].pose;
      const angle = pick([-1, 1]) * range(20, 90) * (Math.PI / 180);
      const end = turn(body, S, angle);
      return freeAt(body, end, isOrnament(body) ? { gap: 0.01, loose: looseFor(body) } : {}) ? end : turn(body, end, -angle);
    },
  };

  // Waypoints (after S) of a carry from S on offer `from` to T on offer `to`: out from under anything above (along
  // the carrier's front), up over what lies between, across, down, and in; null if snug's sweeps find no free route.
  function carryRoute(body, S, from, T, to) {
    const up = (p, y) => [...p.slice(0, 5), y, p[6]];
    const sweepFrom = (p, q) => {
      const old = world.bodies[body].pose;
      world.setPose(body, p);
      const ok = world.sweepFree(body, sub(pos(q), pos(p)));
      world.setPose(body, old);
      return ok;
    };
    const column = (p) => sweepFrom(p, up(p, TRANSIT_CEILING));
    const exit = (p, offer) => {
      if (column(p)) return p;
      const front = rotate(world.bodies[offer.body].pose, [0, 0, 1]);
      for (let d = 0.1; d <= 0.8; d += 0.1) {
        const q = translated(p, [front[0] * d, 0, front[2] * d]);
        if (column(q) && sweepFrom(p, q)) return q;
      }
      return null;
    };
    const P0 = exit(S, from);
    if (!P0) return null;
    const old = world.bodies[body].pose;
    world.setPose(body, T);
    const P1 = exit(T, to);
    world.setPose(body, old);
    if (!P1) return null;
    // Over the tallest thing along the way (the carried body's footprint swept from P0 to P1).
    const k = world.kindOf(body), r = Math.hypot(k.hi[0] - k.lo[0], k.hi[2] - k.lo[2]) / 2 + 0.05;
    const corridor = { min: [Math.min(P0[4], P1[4]) - r, 0, Math.min(P0[6], P1[6]) - r], max: [Math.max(P0[4], P1[4]) + r, ROOM.height, Math.max(P0[6], P1[6]) + r] };
    let H = Math.max(S[5], T[5]) + 0.1;
    for (const j of world.near(corridor, world.group(body))) if (!world.bodies[j].isStatic) H = Math.max(H, world.bodies[j].box.max[1] + 0.05);
    if (H > TRANSIT_CEILING) return null;
    const lifted = up(P0, H), over = up(P1, H);
    if (!sweepFrom(lifted, over)) return null;
    return [P0, lifted, over, P1, T].filter((w, i, all) => i === 0 ? len(sub(pos(w), pos(S))) > 0 : len(sub(pos(w), pos(all[i - 1]))) > 0);
  }

  // Each kind of gesture gets its share of the events: the next one is the kind furthest below its share.
  const done = Object.fromEntries(gestures.map(([g]) => [g, 0]));
  for (let attempts = 0; events.length < count && attempts < 10 * count; attempts++) {
    const deficits = gestures.map(([g, share]) => [share * (events.length + 1) - done[g] + 0.2 * rnd(), g]);
    gesture = deficits.reduce((best, d) => (d[0] > best[0] ? d : best))[1];
    const first = events.length;
    const end = plan[gesture]();
    done[gesture] += events.length - first;
    if (end !== null && events.length > first) world.setPose(events[first].body, end);
  }
  events.length = Math.min(events.length, count);
  const counts = {};
  for (const e of events) counts[e.gesture] = (counts[e.gesture] || 0) + 1;
  return { events, counts };
}
