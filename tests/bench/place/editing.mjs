// Issue 18's editing operations in the benchmark room (part of `make bench`), wasm with one thread, in node:
//   insert      an ornament (48k dragon, dragon, bunny, teapot in turn) inserted at a pointer ray straight down onto a
//               random spot of a table, desk, shelf or seat top: the core finds the nearest free snapped pose on the
//               offer hit. Each insert is timed alone, then checked (the scene's consistency check, which includes
//               interpenetration beyond tolerance between any two bodies) and deleted again, so every insert meets the
//               same room. A pointer that finds no offer with room is the core's clear failure, counted.
//   save        the room's scene file (meshes with their hierarchies and surfaces, bodies, bindings).
//   load        that file into a fresh scene (the hierarchies read from the file), checked by saving it again: the
//               bytes must be the same.
//   rebuild     the same scene from its parts, as without a file: every mesh built from its triangles, surfaces,
//               bodies, orientations and bindings (the setup of the drag benchmark, without what it prepares up front).
// Median (insert: p50, p99, max) of the repeats. Prints a table per layout and "ROW {json}" lines for
// tests/bench/run.mjs; --slow <ms> lists the inserts slower than that on stderr. The same operations natively, for
// profilers: snug_bench native place-edit <room.bin> (after node tests/bench/place/export.mjs).
//   node tests/bench/place/editing.mjs [--layouts 4] [--inserts 100] [--repeats 7] [--slow ms]
import { performance } from 'node:perf_hooks';
import { Snug } from '../../../wasm/snug.js';
import { loadMesh } from '../../meshes/load.mjs';
import { ORNAMENT_MESHES } from '../../../web/catalog/ornaments.js';
import { mulberry32 } from '../../tools/prng.mjs';
import { makeKinds, buildRoom, moverRoom, LAYOUT_SEEDS, ROOM } from './room.mjs';
import { pointOn } from './state.mjs';
import { yawPose } from './pose.mjs';
import { buildScene } from './movers/snug-core.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const k = args.indexOf(`--${name}`);
  return k >= 0 ? Number(args[k + 1]) : fallback;
};
const layouts = opt('layouts', LAYOUT_SEEDS.length), inserts = opt('inserts', 100), repeats = opt('repeats', 7);
const slow = opt('slow', null);
const INSERTED = ['dragon48k', 'dragon', 'bunny', 'teapot'];
const CARRIERS = ['table', 'desk', 'bookcase', 'sofa'];

const snug = await Snug.create(); // the room generator's context
const meshes = Object.fromEntries(await Promise.all(ORNAMENT_MESHES.map(async (n) => [n, await loadMesh(n)])));
const kinds = makeKinds(snug, meshes);

const sortedOf = (xs) => Float64Array.from(xs).sort();
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const median = (xs) => quantile(sortedOf(xs), 0.5);
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
const timed = (f) => {
  const t0 = performance.now();
  const r = f();
  return [performance.now() - t0, r];
};
const rows = [];

for (const seed of LAYOUT_SEEDS.slice(0, layouts)) {
  const room = buildRoom(snug, kinds, seed);
  const view = moverRoom(room);
  const layout = `layout ${seed}`;
  const core = await Snug.create(); // the measured context, as a page's
  core.warmUp(); // as the page does before its first gesture (docs/guide.md, Load snug)
  const { scene, meshOf } = buildScene(core, view);
  const kindMesh = (id) => meshOf.get(id) || core.createMesh({ positions: kinds.get(id).arrays.positions, indices: kinds.get(id).arrays.indices, label: id });
  const insertMeshes = INSERTED.map((id) => {
    const m = kindMesh(id);
    m.setSurfaces(kinds.get(id).surfaces);
    return m;
  });

  // Inserts: the pointer over a random spot of a random carrier's upward offer.
  const rnd = mulberry32(seed ^ 0x18);
  const offers = room.bodies.flatMap((b, i) => (CARRIERS.includes(b.kind) ? room.offers(i) : []));
  const times = [];
  let failed = 0, violations = 0;
  const failures = new Map();
  for (let k = 0; k < inserts; k++) {
    const o = offers[Math.floor(rnd() * offers.length)];
    const spot = pointOn(o.polygon, rnd(), rnd());
    const def = { mesh: insertMeshes[k % insertMeshes.length], ray: { origin: [spot[0], ROOM.height + 0.5, spot[2]], dir: [0, -1, 0] }, pose: yawPose(rnd() * 2 * Math.PI, [0, 0, 0]) };
    const t0 = performance.now();
    let got = null;
    try {
      got = scene.insert(def);
    } catch (e) {
      failed++;
      // the core's reason without handles and numbers, so that equal reasons count together
      const why = String(e.message).replace(/^.*?insert: /, '').replace(/ \(.*?\)/g, '').replace(/offer \d+ of body 0x[0-9a-f]+/, 'the offer');
      failures.set(why, (failures.get(why) || 0) + 1);
    }
    const t = performance.now() - t0;
    times.push(t);
    if (slow !== null && t > slow) {
      console.error(`insert ${k}: ${INSERTED[k % INSERTED.length]} at ${spot.map((x) => x.toFixed(2))} onto ${room.bodies[o.body].name}: ${t.toFixed(1)} ms${got ? '' : ' (refused)'}`);
    }
    if (!got) continue;
    violations += scene.check().length;
    scene.delete(got.body, 'with-dependents');
  }
  const ins = sortedOf(times);
  const insertRow = {
    sec: 'place-edit', case: layout, impl: 'snug insert', med: quantile(ins, 0.5), p99: quantile(ins, 0.99), max: ins[ins.length - 1], min: ins[0],
    n: inserts, failed, status: violations ? 'wrong' : 'ok', check: `${violations} check violations after ${inserts - failed} inserts`,
    note: `${inserts - failed} inserted, ${failed} refused${failed ? ` (${[...failures].map(([w, n]) => `${n}× ${w}`).join('; ')})` : ''}`,
  };

  // Save, load, rebuild.
  const saves = [], loads = [], rebuilds = [];
  let bytes = null, same = true;
  for (let r = 0; r < repeats; r++) {
    const [ts, b] = timed(() => scene.save());
    saves.push(ts);
    bytes = b;
    const fresh = core.createScene();
    const [tl, loaded] = timed(() => fresh.load(bytes));
    loads.push(tl);
    const again = fresh.save();
    same &&= again.length === bytes.length && again.every((x, i) => x === bytes[i]);
    fresh.dispose();
    for (const m of loaded.meshes) m.dispose();
    const [tr, built] = timed(() => buildScene(core, view, { prepare: false }));
    rebuilds.push(tr);
    built.scene.dispose();
    for (const m of built.meshes) m.dispose();
  }
  const load = median(loads), rebuild = median(rebuilds), save = median(saves);
  const fileRow = {
    sec: 'place-edit', case: layout, impl: 'snug scene file', save, load, rebuild, bytes: bytes.length, n: repeats,
    med: load, min: Math.min(...loads), max: Math.max(...loads), ratio: rebuild / load,
    status: same ? 'ok' : 'wrong', check: same ? 'load -> save gives the same bytes' : 'load -> save differs',
    note: `${room.bodies.length} bodies, ${meshOf.size} meshes, ${(bytes.length / 2 ** 20).toFixed(1)} MiB`,
  };
  console.log(`\n${layout}: ${room.bodies.length} bodies, ${room.triangleCount().toLocaleString('en-US')} triangles`);
  console.log(`  insert: p50 ${fmt(insertRow.med)} ms, p99 ${fmt(insertRow.p99)} ms, max ${fmt(insertRow.max)} ms; ${insertRow.note}; ${insertRow.check}`);
  console.log(`  scene file ${fileRow.note}: save ${fmt(save)} ms, load ${fmt(load)} ms, rebuild ${fmt(rebuild)} ms (rebuild ÷ load ${fmt(fileRow.ratio)}×); ${fileRow.check}`);
  rows.push(insertRow, fileRow);
  scene.dispose();
  for (const m of new Set([...meshOf.values(), ...insertMeshes])) m.dispose();
  core.dispose();
}
for (const row of rows) console.log(`ROW ${JSON.stringify(row)}`);
snug.dispose();
