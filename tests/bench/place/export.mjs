// Writes each benchmark room with its drag path to <dir>/<seed>.bin (and the grouped drag's to grouped.bin) for the C benchmark program (snug_bench place:
// the core mover's replay without the JS API, natively for profilers and as wasm), so both replay the same events.
//   node tests/bench/place/export.mjs [dir = build/bench/place] [--events 1000]
// Layout (little endian): "SNUGPLC1", u32 kinds, bodies, events; then per kind u32 vertices, triangles, surfaces,
// f32 positions[3v], u32 indices[3t], per surface u32 kind (0 offer, 1 binding), label (default label index),
// vertex count n, f32 normal[3], vertices[3n]; per body u32 kind, i32 parent, u32 static, upright, i32 on.body,
// on.offer, binding (the binding surface laid on that offer, as the JS mover picks it), f64 pose[7] (local to the
// parent, world for a root); per event u32 body, gesture (index in GESTURES), f64 target[7], ray origin[3], ray
// direction[3], grab[3].
import { mkdirSync, writeFileSync } from 'node:fs';
import { Snug, DEFAULT_LABELS } from '../../../wasm/snug.js';
import { loadMesh } from '../../meshes/load.mjs';
import { ORNAMENT_MESHES } from '../../../web/catalog/ornaments.js';
import { makeKinds, buildRoom, LAYOUT_SEEDS } from './room.mjs';
import { makePath, GROUPED_GESTURES } from './path.mjs';
import { restingBinding } from './movers/snug-core.mjs';

export const GESTURES = ['wall-slide', 'push', 'chair-tuck', 'shelf-slide', 'carry', 'rotate'];

const args = process.argv.slice(2);
const k = args.indexOf('--events');
const eventCount = k >= 0 ? Number(args.splice(k, 2)[1]) : 1000;
const dir = args[0] || 'build/bench/place';
mkdirSync(dir, { recursive: true });

const snug = await Snug.create();
const meshes = Object.fromEntries(await Promise.all(ORNAMENT_MESHES.map(async (n) => [n, await loadMesh(n)])));
const kinds = makeKinds(snug, meshes);

class Writer {
  constructor() { this.parts = []; }
  u32(...v) { this.parts.push(Buffer.from(Uint32Array.from(v).buffer)); }
  i32(...v) { this.parts.push(Buffer.from(Int32Array.from(v).buffer)); }
  f32(v) { this.parts.push(Buffer.from(Float32Array.from(v).buffer)); }
  f64(v) { this.parts.push(Buffer.from(Float64Array.from(v).buffer)); }
  bytes() { return Buffer.concat(this.parts); }
}

// the layouts, then issue 18's grouped drag (run.mjs's fifth case) as grouped.bin
const cases = LAYOUT_SEEDS.map((seed) => ({ seed, file: `${seed}.bin`, room: buildRoom(snug, kinds, seed) }));
cases.push({ seed: LAYOUT_SEEDS[0], file: 'grouped.bin', room: buildRoom(snug, kinds, LAYOUT_SEEDS[0], { loaded: 10 }), grouped: true });
for (const { seed, file, room, grouped } of cases) {
  const table = room.bodies.findIndex((b) => b.kind === 'table');
  const { events } = grouped ? makePath(room, seed, eventCount, { focus: [table], gestures: GROUPED_GESTURES }) : makePath(room, seed, eventCount);
  const used = [...new Set(room.bodies.map((b) => b.kind))];
  const w = new Writer();
  w.parts.push(Buffer.from('SNUGPLC1', 'latin1'));
  w.u32(used.length, room.bodies.length, events.length);
  for (const id of used) {
    const kind = kinds.get(id);
    w.u32(kind.arrays.positions.length / 3, kind.arrays.indices.length / 3, kind.surfaces.length);
    w.f32(kind.arrays.positions);
    w.parts.push(Buffer.from(Uint32Array.from(kind.arrays.indices).buffer));
    for (const s of kind.surfaces) {
      w.u32(s.kind === 'offer' ? 0 : 1, DEFAULT_LABELS.indexOf(s.label), s.polygon.length);
      w.f32([...s.normal, ...s.polygon.flat()]);
    }
  }
  for (const b of room.bodies) {
    const kind = kinds.get(b.kind);
    const binding = b.on ? restingBinding(kind.surfaces, kinds.get(room.bodies[b.on.body].kind).surfaces[b.on.offer]) : -1;
    w.u32(used.indexOf(b.kind));
    w.i32(b.parent);
    w.u32(b.isStatic ? 1 : 0, kind.upright ? 1 : 0);
    w.i32(b.on ? b.on.body : -1, b.on ? b.on.offer : -1, binding);
    w.f64(b.parent >= 0 ? b.local : b.pose);
  }
  for (const e of events) {
    w.u32(e.body, GESTURES.indexOf(e.gesture));
    w.f64([...e.target, ...e.ray.origin, ...e.ray.direction, ...e.grab]);
  }
  writeFileSync(`${dir}/${file}`, w.bytes());
  console.log(`${dir}/${file}: ${room.bodies.length} bodies, ${used.length} kinds, ${events.length} events`);
}
snug.dispose();
