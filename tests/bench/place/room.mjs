// The benchmark room of issue 17: 100 bodies, about 1M triangles. A 10 x 8 m floor and four walls; 62 pieces from
// the furniture catalog (bookcases, sofas and desks against the walls, pictures and chalkboards on them, tables
// with chairs in front of their long sides, floor lamps and plants, monitors, lamps and books standing on furniture
// as its children); 33 ornaments from the npm meshes (20 of them the 48k dragon) on tables, desks, shelves and
// seats. Each seed gives its own layout. Resting bodies stand CLEAR above what carries them and record it (`on`:
// the supporter's index and the index of its offer among the supporter kind's surfaces, for movers that bind); the
// result is checked to have no overlap at all (snug's test, touching counts). With `loaded` (issue 18's grouped
// drag), that many of the ornaments stand on the first table instead, as its children (a table carrying them).
import { catalogItems } from '../../../web/catalog/furniture.js';
import { ornamentItems } from '../../../web/catalog/ornaments.js';
import { mulberry32 } from '../../tools/prng.mjs';
import { RoomState, makeKind, insideXZ, pointOn } from './state.mjs';
import { compose, yawPose, transformPoint, boxesMeet } from './pose.mjs';

export const LAYOUT_SEEDS = [1701, 1702, 1703, 1704];
export const CLEAR = 1e-4;
export const ROOM = { width: 10, depth: 8, height: 2.6, wall: 0.12 };

const WALL_UNITS = [...Array(6).fill('bookcase'), ...Array(2).fill('sofa'), ...Array(4).fill('desk')];
const WALL_DECOR = [...Array(4).fill('picture'), ...Array(2).fill('chalkboard')];
const CHAIRS_PER_TABLE = [3, 3, 3, 3, 2, 2];
const FREE_STANDING = ['floor-lamp', 'floor-lamp', 'plant', 'plant'];
const ORNAMENTS = [...Array(20).fill('dragon48k'), ...Array(5).fill('dragon'), ...Array(4).fill('bunny'), ...Array(4).fill('teapot')];
// The loaded table's ornaments, taken from ORNAMENTS in this order.
const LOADED = ['dragon48k', 'bunny', 'teapot', 'dragon', 'dragon48k', 'bunny', 'teapot', 'dragon48k', 'dragon', 'dragon48k'];

/** Every kind of body the room uses, made once (meshes: the ornaments' npm meshes by name). */
export function makeKinds(snug, meshes) {
  const kinds = new Map();
  const add = (id, category, made) => kinds.set(id, makeKind(snug, id, category, made));
  const { width: w, depth: d, wall: t } = ROOM;
  for (const it of catalogItems()) {
    if (it.id === 'floor') add('floor', it.category, it.make({ width: w + 2 * t, depth: d + 2 * t }));
    else if (it.id === 'wall') {
      add('wall-long', it.category, it.make({ width: w + 2 * t, height: ROOM.height, thickness: t }));
      add('wall-short', it.category, it.make({ width: d, height: ROOM.height, thickness: t }));
    } else add(it.id, it.category, it.make());
  }
  for (const it of ornamentItems(meshes)) add(it.id, it.category, it.make());
  return kinds;
}

// The walls' inner faces: x = +-5, z = +-4. u runs along the wall (its local x), n points into the room.
const WALLS = [
  { name: 'back wall', kind: 'wall-long', yaw: 0, length: ROOM.width, u: [1, 0, 0], n: [0, 0, 1], front: [0, 0, -ROOM.depth / 2] },
  { name: 'front wall', kind: 'wall-long', yaw: Math.PI, length: ROOM.width, u: [-1, 0, 0], n: [0, 0, -1], front: [0, 0, ROOM.depth / 2] },
  { name: 'left wall', kind: 'wall-short', yaw: Math.PI / 2, length: ROOM.depth, u: [0, 0, -1], n: [1, 0, 0], front: [-ROOM.width / 2, 0, 0] },
  { name: 'right wall', kind: 'wall-short', yaw: -Math.PI / 2, length: ROOM.depth, u: [0, 0, 1], n: [-1, 0, 0], front: [ROOM.width / 2, 0, 0] },
];
const along = (wall, s, off, y) => [0, 1, 2].map((a) => wall.front[a] + wall.u[a] * s + wall.n[a] * off + (a === 1 ? y : 0));

/** The layout of a seed: a RoomState of 100 bodies. Throws if a piece finds no place (a different seed is needed). */
export function buildRoom(snug, kinds, seed, { loaded = 0 } = {}) {
  const rnd = mulberry32(seed);
  const range = (a, b) => a + (b - a) * rnd();
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const shuffled = (list) => list.map((x) => [rnd(), x]).sort((a, b) => a[0] - b[0]).map((x) => x[1]);
  const room = new RoomState(snug, kinds);
  const floor = room.add({ name: 'floor', kind: 'floor', pose: yawPose(0, [0, 0, 0]), isStatic: true });
  const walls = WALLS.map((w) => room.add({
    name: w.name, kind: w.kind, isStatic: true, pose: yawPose(w.yaw, along(w, 0, -ROOM.wall / 2, 0)),
  }));
  const count = {};
  const name = (kind) => `${kind} ${(count[kind] = (count[kind] || 0) + 1)}`;
  const unadd = () => { count[room.bodies[room.bodies.length - 1].kind]--; room.pop(); };

  // Index of a kind's upward or wall offer with this label at this height (in its own frame; first when null).
  const offerIndex = (kind, label, height = null) => kinds.get(kind).surfaces.findIndex((s) => s.kind === 'offer' &&
    s.label === label && (height === null || (s.normal[1] === 1 && Math.abs(s.polygon[0][1] + CLEAR - height) < 1e-9)));
  const onFloor = { body: floor, offer: offerIndex('floor', 'onFloor') };

  // Try poses until one is free: no overlap with anything, and `gap` clear of everything but `loose`. `on`: what
  // the body stands on, or a function giving it for the pose just tried.
  function place(kind, poses, { parent = -1, gap = 0, loose = [], tries = 400, on = null } = {}) {
    for (let k = 0; k < tries; k++) {
      const pose = poses();
      if (!pose) continue;
      const i = room.add({ name: name(kind), kind, pose, parent, on: typeof on === 'function' ? on() : on });
      if (room.firstConflict(i, { gap, loose }) < 0) return i;
      unadd();
    }
    throw new Error(`room seed ${seed}: no place for a ${kind}`);
  }

  // Wall units with their backs against the walls, a metre clear of the corners (the units on the next wall).
  const units = [];
  for (const kind of shuffled(WALL_UNITS)) {
    const k = kinds.get(kind);
    const half = (k.hi[0] - k.lo[0]) / 2;
    const i = place(kind, () => {
      const wi = Math.floor(rnd() * 4), w = WALLS[wi];
      const s = range(-w.length / 2 + 1 + half, w.length / 2 - 1 - half);
      return yawPose(w.yaw, along(w, s, -k.lo[2] + CLEAR, CLEAR));
    }, { gap: 0.1, loose: [floor, ...walls], on: onFloor });
    units.push(i);
  }
  // Pictures and chalkboards on the walls, above the desks and sofas (not the bookcases), clear of the corners.
  for (const kind of WALL_DECOR) {
    let wi = 0;
    place(kind, () => {
      const w = WALLS[(wi = Math.floor(rnd() * 4))];
      return yawPose(w.yaw, along(w, range(-w.length / 2 + 0.9, w.length / 2 - 0.9), CLEAR, range(1.6, 1.75)));
    }, { gap: 0.15, loose: [...walls], on: () => ({ body: walls[wi], offer: offerIndex(WALLS[wi].kind, 'onWall') }) });
  }
  // Tables with chairs in front of their long sides (the chairs' front strips on the inFrontOfTable offers).
  const tables = [];
  for (const chairs of CHAIRS_PER_TABLE) {
    const sides = shuffled([[1, -0.4], [1, 0.4], [-1, -0.4], [-1, 0.4]]).slice(0, chairs);
    let set = null;
    for (let k = 0; k < 400 && !set; k++) {
      const at = [range(-3.9, 3.9), CLEAR, range(-2.9, 2.9)];
      const table = room.add({ name: name('table'), kind: 'table', pose: yawPose(pick([0, Math.PI / 2]) + range(-0.3, 0.3), at), on: onFloor });
      const members = [table];
      for (const [side, x] of sides) {
        // The chair faces the table: its local +z turned to -side.
        const local = yawPose(side > 0 ? Math.PI : 0, [x, 0, side * (0.5 + 0.225 + CLEAR)]);
        members.push(room.add({ name: name('chair'), kind: 'chair', pose: compose(room.bodies[table].pose, local), on: onFloor }));
      }
      if (members.every((i) => room.firstConflict(i, { gap: 0.25, loose: [floor, ...members] }) < 0)) set = members;
      else for (let k2 = 0; k2 < members.length; k2++) unadd();
    }
    if (!set) throw new Error(`room seed ${seed}: no place for a table with ${chairs} chairs`);
    tables.push(set[0]);
  }
  for (const kind of FREE_STANDING) {
    place(kind, () => yawPose(range(-Math.PI, Math.PI), [range(-4.4, 4.4), CLEAR, range(-3.4, 3.4)]), { gap: 0.2, loose: [floor], on: onFloor });
  }

  // Things standing on furniture, moving with it: monitors and lamps on desks, lamps on tables, books and small
  // plants on bookcase boards.
  const desks = units.filter((i) => room.bodies[i].kind === 'desk');
  const bookcases = units.filter((i) => room.bodies[i].kind === 'bookcase');
  // local() is the pose on the parent; its height tells which of the parent's offers (`label`) it stands on.
  const onTop = (parent, kind, label, local) => {
    let y = 0;
    return place(kind, () => {
      const l = local();
      y = l[5];
      return compose(room.bodies[parent].pose, l);
    }, { parent, gap: 0.01, loose: [parent], tries: 100, on: () => ({ body: parent, offer: offerIndex(room.bodies[parent].kind, label, y) }) });
  };
  // Heights of a kind's upward offers with a label, in its own frame.
  const heights = (kind, label) => kinds.get(kind).surfaces.filter((s) => s.kind === 'offer' && s.label === label && s.normal[1] === 1).map((s) => s.polygon[0][1] + CLEAR);
  const [deskTop] = heights('desk', 'onWorkspace'), [tableTop] = heights('table', 'onWorkspace'), shelves = heights('bookcase', 'onStore');
  for (const desk of desks) {
    const side = pick([-1, 1]);
    onTop(desk, 'monitor', 'onWorkspace', () => yawPose(0, [side * range(0.1, 0.3), deskTop, 0.1])); // in front of the desk's shelf
  }
  for (const desk of desks.slice(0, 2)) onTop(desk, 'lamp', 'onWorkspace', () => yawPose(range(-3, 3), [range(-0.5, 0.5), deskTop, 0.18]));
  for (const table of shuffled(loaded ? tables.slice(1) : tables).slice(0, 2)) onTop(table, 'lamp', 'onWorkspace', () => yawPose(range(-3, 3), [range(-0.6, 0.6), tableTop, range(-0.3, 0.3)]));
  const boards = shelves.filter((h) => h < Math.max(...shelves)); // books stand between boards, not on the top
  for (let k = 0; k < 8; k++) onTop(pick(bookcases), 'books', 'onStore', () => yawPose(0, [range(-0.35, 0.35), pick(boards), 0]));
  for (let k = 0; k < 2; k++) onTop(pick(bookcases), 'plant-small', 'onStore', () => yawPose(range(-3, 3), [range(-0.3, 0.3), pick(shelves), 0]));

  // Ornaments on any offer that takes onStore (shelves, desk and table tops, seats), free to turn about up; the
  // loaded table's first, on its top and as its children.
  const carriers = room.bodies.map((b, i) => i).filter((i) => ['table', 'desk', 'bookcase', 'sofa'].includes(room.bodies[i].kind));
  const offers = carriers.flatMap((i) => room.offers(i)).filter((o) => !loaded || o.body !== tables[0]);
  const ornament = (kind, choices, parent) => {
    const base = kinds.get(kind).surfaces.find((s) => s.kind === 'binding').polygon;
    let o = null;
    place(kind, () => {
      o = pick(choices);
      const pose = yawPose(range(-Math.PI, Math.PI), pointOn(o.polygon, rnd(), rnd()));
      pose[5] = o.height + CLEAR;
      return base.every((p) => insideXZ(o.polygon, transformPoint(pose, p))) ? pose : null;
    }, { parent, gap: 0.01, loose: carriers, tries: 2000, on: () => ({ body: o.body, offer: o.index }) });
  };
  const rest = [...ORNAMENTS];
  if (loaded) {
    const top = room.offers(tables[0]).reduce((a, b) => (b.height > a.height ? b : a));
    for (const kind of LOADED.slice(0, loaded)) {
      rest.splice(rest.indexOf(kind), 1);
      ornament(kind, [top], tables[0]);
    }
  }
  for (const kind of rest) ornament(kind, offers, -1);

  const overlaps = initialOverlaps(room);
  if (overlaps.length) throw new Error(`room seed ${seed}: ${overlaps.length} overlapping pairs, e.g. ${overlaps[0].map((i) => room.bodies[i].name).join(' and ')}`);
  return room;
}

/** What a mover is given: the bodies with their catalog data and poses (copies). */
export function moverRoom(room) {
  return {
    bodies: room.bodies.map((b) => {
      const k = room.kinds.get(b.kind);
      return {
        name: b.name, kind: b.kind, category: k.category, geometry: k.geometry, arrays: k.arrays, surfaces: k.surfaces,
        upright: k.upright, pose: [...b.pose], local: [...b.local], parent: b.parent, isStatic: b.isStatic, on: b.on,
      };
    }),
  };
}

/** Every pair of bodies (not both static) that overlaps, touching included. */
export function initialOverlaps(room) {
  const out = [];
  for (let i = 0; i < room.bodies.length; i++) {
    for (let j = i + 1; j < room.bodies.length; j++) {
      if (room.bodies[i].isStatic && room.bodies[j].isStatic) continue;
      if (boxesMeet(room.bodies[i].box, room.bodies[j].box) && room.overlaps(i, j)) out.push([i, j]);
    }
  }
  return out;
}
