// The placement benchmark of issue 17 (part of `make bench`): for each seeded room layout (100 bodies, ~1M
// triangles) and its scripted drag path, every mover replays the path; the time of each event is measured (wasm,
// one thread, node) and after each event the moved body and what moves with it are checked against every other
// body for interpenetration beyond a tolerance (tests/bench/place/state.mjs). Prints a table per layout and
// "ROW {json}" lines for tests/bench/run.mjs. Then issue 18's grouped drag: the first layout with ten of its ornaments
// on one table, that table pushed into its neighbours and turned (the same movers, the same judge).
//   node tests/bench/place/run.mjs [--layouts 4] [--events 1000] [--movers name,...] [--warmup 100] [--repeats 2]
//                                  [--grouped 1]
import { performance } from 'node:perf_hooks';
import { Snug } from '../../../wasm/snug.js';
import { loadMesh } from '../../meshes/load.mjs';
import { ORNAMENT_MESHES } from '../../../web/catalog/ornaments.js';
import { makeKinds, buildRoom, moverRoom, LAYOUT_SEEDS } from './room.mjs';
import { makePath, GROUPED_GESTURES } from './path.mjs';
import { MOVERS } from './movers/index.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const k = args.indexOf(`--${name}`);
  return k >= 0 ? args[k + 1] : fallback;
};
const layouts = Number(opt('layouts', LAYOUT_SEEDS.length));
const eventCount = Number(opt('events', 1000));
const warmup = Number(opt('warmup', 100));
const repeats = Number(opt('repeats', 2));
const only = opt('movers', null)?.split(',');
const grouped = opt('grouped', '1') !== '0';
const movers = MOVERS.filter((m) => !only || only.some((s) => m.name.includes(s)));
if (!(layouts >= 1 && layouts <= LAYOUT_SEEDS.length) || !(eventCount >= 1) || !movers.length) {
  console.error(`usage: node tests/bench/place/run.mjs [--layouts 1..${LAYOUT_SEEDS.length}] [--events n] [--movers ${MOVERS.map((m) => m.name).join('|')}]`);
  process.exit(2);
}

const snug = await Snug.create(); // the judge's context (layouts, paths, interpenetration checks); each mover has its own
const meshes = Object.fromEntries(await Promise.all(ORNAMENT_MESHES.map(async (n) => [n, await loadMesh(n)])));
const kinds = makeKinds(snug, meshes);

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

// One replay of the path on a fresh setup. With `judge`, every event's result is checked for interpenetration, and
// so is the start when the mover settled bodies (setup returned their poses), and a mover with a consistency check
// of its own (event results with violations()) has it counted after every event.
async function replay(mover, room, events, { judge = false } = {}) {
  const m = await mover.create();
  const settled = m.setup(moverRoom(room));
  const state = judge && room.clone();
  const times = new Float64Array(events.length), poses = new Float64Array(7 * events.length);
  const out = { times, poses, blocked: 0, penetrations: 0, penetratingEvents: 0, examples: [], violations: null, violatingEvents: 0 };
  if (judge && settled) {
    for (const [b, pose] of settled) state.setPose(b, pose);
    const pens = state.bodies.flatMap((b, i) => (b.isStatic ? [] : state.penetrations(i)));
    out.penetrations += pens.length;
    if (pens.length) out.examples.push(`setup: ${pens.map(([a, b]) => `${state.bodies[a].name} in ${state.bodies[b].name}`).join(', ')}`);
  }
  for (let k = 0; k < events.length; k++) {
    const e = events[k];
    const t0 = performance.now();
    const r = m.event(e);
    times[k] = performance.now() - t0;
    poses.set(r.pose, 7 * k);
    if (r.blocked) out.blocked++;
    if (!judge) continue;
    if (r.violations) {
      const v = r.violations();
      out.violations += v;
      if (v) out.violatingEvents++;
    }
    state.setPose(e.body, Array.from(r.pose));
    const moved = [e.body];
    for (const [b, pose] of r.moved || []) { state.setPose(b, Array.from(pose)); moved.push(b); }
    const pens = moved.flatMap((b) => state.penetrations(b));
    if (pens.length) {
      out.penetrations += pens.length;
      out.penetratingEvents++;
      if (out.examples.length < 3) out.examples.push(`event ${k} (${e.gesture}): ${pens.map(([a, b]) => `${state.bodies[a].name} in ${state.bodies[b].name}`).join(', ')}`);
    }
  }
  m.dispose();
  return out;
}

// The path replayed `repeats` times (fresh setups; the judge checks the first): the movers are deterministic, so
// every replay does the same work per event, and the per-event minimum filters out time taken by other processes
// on a shared machine. A mover whose replays differ keeps its first replay's times.
async function measure(mover, room, events) {
  if (warmup > 0) await replay(mover, room, events.slice(0, warmup)); // compiled code, then a fresh room
  globalThis.gc?.();
  const first = await replay(mover, room, events, { judge: true });
  let deterministic = true;
  for (let r = 1; r < repeats && deterministic; r++) {
    globalThis.gc?.();
    const again = await replay(mover, room, events);
    deterministic = again.poses.every((x, k) => x === first.poses[k]);
    if (deterministic) for (let k = 0; k < events.length; k++) first.times[k] = Math.min(first.times[k], again.times[k]);
  }
  return { ...first, deterministic };
}

const rows = [];
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
// The cases: each layout with its path; the grouped drag (a table carrying ten ornaments) in the first layout.
const cases = LAYOUT_SEEDS.slice(0, layouts).map((seed) => ({ seed, layout: `layout ${seed}`, room: () => buildRoom(snug, kinds, seed) }));
if (grouped) {
  const seed = LAYOUT_SEEDS[0];
  cases.push({ seed, grouped: true, layout: `grouped drag: layout ${seed}, a table carrying 10 ornaments`, room: () => buildRoom(snug, kinds, seed, { loaded: 10 }) });
}
for (const { seed, layout, room: build, grouped: isGrouped } of cases) {
  const room = build();
  const table = room.bodies.findIndex((b) => b.kind === 'table');
  const { events, counts } = isGrouped ? makePath(room, seed, eventCount, { focus: [table], gestures: GROUPED_GESTURES }) : makePath(room, seed, eventCount);
  if (isGrouped) console.log(`\n${layout}: ${room.bodies[table].name} carries ${room.group(table).length - 1} bodies (${room.group(table).slice(1).map((i) => room.bodies[i].name).join(', ')})`);
  console.log(`\n${layout}: ${room.bodies.length} bodies, ${room.triangleCount().toLocaleString('en-US')} triangles, no initial overlap; ` +
    `path of ${events.length} events (${Object.entries(counts).map(([g, n]) => `${g} ${n}`).join(', ')})`);
  console.log('| mover | p50 ms | p99 ms | max ms | mean ms | blocked events | interpenetrations | anchor p99 ÷ p99 | slowest gesture (p99 ms) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  const results = [];
  for (const mover of movers) {
    process.stderr.write(`[place] ${layout}: ${mover.name} ...\n`);
    const r = await measure(mover, room, events);
    const sorted = Float64Array.from(r.times).sort();
    const stats = { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1], mean: sorted.reduce((s, x) => s + x, 0) / sorted.length };
    const byGesture = {};
    events.forEach((e, k) => (byGesture[e.gesture] ||= []).push(r.times[k]));
    const gestures = Object.entries(byGesture).map(([g, ts]) => [g, quantile(Float64Array.from(ts).sort(), 0.99)]).sort((a, b) => b[1] - a[1]);
    results.push({ mover, r, stats, gestures });
  }
  const anchor = results.find((x) => x.mover.anchor);
  for (const { mover, r, stats, gestures } of results) {
    const ratio = anchor && !mover.anchor ? anchor.stats.p99 / stats.p99 : null;
    console.log(`| ${mover.name} | ${fmt(stats.p50)} | ${fmt(stats.p99)} | ${fmt(stats.max)} | ${fmt(stats.mean)} | ${r.blocked} | ${r.penetrations}${r.penetrations ? ` in ${r.penetratingEvents} events` : ''} | ${ratio ? `${fmt(ratio)}×` : ''} | ${gestures[0][0]} (${fmt(gestures[0][1])}) |`);
    for (const x of r.examples) console.log(`    ${mover.name}: ${x}`);
    if (r.violations !== null) console.log(`    ${mover.name}: its consistency check after every event: ${r.violations} violations${r.violations ? ` in ${r.violatingEvents} events` : ''}`);
    if (!r.deterministic) console.log(`    ${mover.name}: replays differ (not deterministic): times of one replay`);
    rows.push({
      sec: 'place', case: layout, grouped: !!isGrouped, impl: mover.name, med: stats.p50, p99: stats.p99, max: stats.max, min: Math.min(...r.times), mean: stats.mean,
      n: events.length, repeats: r.deterministic ? repeats : 1, blocked: r.blocked, interpenetrations: r.penetrations, anchorRatio: ratio, anchor: !!mover.anchor,
      status: r.penetrations || r.violations ? 'wrong' : 'ok',
      check: `${r.penetrations} interpenetrations${r.violations !== null ? `, ${r.violations} check violations` : ''}`,
      note: `slowest gestures at p99: ${gestures.slice(0, 3).map(([g, t]) => `${g} ${fmt(t)} ms`).join(', ')}`,
    });
  }
}
for (const row of rows) console.log(`ROW ${JSON.stringify(row)}`);
snug.dispose();
