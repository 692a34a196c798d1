// Fixed work on the hot paths through the JS API, to compare two builds of the module (a link or compiler option) by
// instructions, which this machine's timings cannot settle (they swing by up to 1.7x between launches):
//   node tests/bench/hot_paths.mjs compare build/wasm/snug.mjs other/snug.mjs [...]   (make wasm meshes first)
// runs this script under callgrind once per module and prints the instructions of each task and their ratios. Each
// task is one phase of the run: the script calls os.getPriority() between tasks, and callgrind dumps its counts
// before each such call (--dump-before=getpriority). V8 compiles the whole module up front with its optimizing
// tier (no Liftoff, no lazy compilation), so no compilation falls into a task, and runs on one thread with a
// collection before each task: two runs of one module agree within 0.03 % per task.
//   node tests/bench/hot_paths.mjs run build/wasm/snug.mjs       one run: milliseconds per task (a timing look)
// Not part of make bench: that one measures against the anchors; this compares two builds of snug.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, getPriority } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadBin, bounds, FAR_CASES, farPose } from './common.mjs';
import { mulberry32 } from '../tools/prng.mjs';

const V8_FLAGS = ['--single-threaded', '--expose-gc', '--no-liftoff', '--no-wasm-tier-up', '--no-wasm-lazy-compilation'];

// Closed boxes [x0, y0, z0, x1, y1, z1] as one mesh, faces counter-clockwise outward.
function boxes(parts) {
  const faces = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3];
  const positions = [], indices = [];
  for (const [x0, y0, z0, x1, y1, z1] of parts) {
    const base = positions.length / 3;
    for (let v = 0; v < 8; v++) positions.push((v & 1) ^ ((v >> 1) & 1) ? x1 : x0, v & 2 ? y1 : y0, v & 4 ? z1 : z0);
    for (const i of faces) indices.push(base + i);
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}
const rect = (kind, label, x0, x1, y, z0, z1) => ({
  kind, label, normal: [0, 1, 0], polygon: [[x0, y, z0], [x0, y, z1], [x1, y, z1], [x1, y, z0]],
});
const yaw = (a, p) => [0, Math.sin(a / 2), 0, Math.cos(a / 2), ...p];

// The tasks: each builds what it needs, then does a fixed amount of work in `work()` (the measured phase).
function tasks(snug) {
  const random = mulberry32(20261125);
  const bunny = loadBin('bunny'), dragon = loadBin('dragon48k');
  const bb = bounds(bunny.positions);
  const pointIn = (b, grow) => [0, 1, 2].map((a) => b.c[a] + (random() - 0.5) * grow * (b.hi[a] - b.lo[a]));
  const rays = (b, n) => {
    const origins = new Float32Array(3 * n), dirs = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) {
      const o = pointIn(b, 3), t = pointIn(b, 0.8), d = t.map((x, a) => x - o[a]), l = Math.hypot(...d);
      origins.set(o, 3 * i);
      dirs.set(d.map((x) => x / l), 3 * i);
    }
    return { origins, dirs };
  };
  const near = (n, spread) => Array.from({ length: n }, () => yaw(random() * 6.3, [0, 1, 2].map(() => (random() - 0.5) * spread * bb.diag)));
  const apart = (n) => Array.from({ length: n }, () => { // 1.05 to 1.5 diagonals away in a random direction
    const d = [0, 1, 2].map(() => random() - 0.5), l = Math.hypot(...d) / (bb.diag * (1.05 + 0.45 * random()));
    return yaw(random() * 6.3, d.map((x) => x / l));
  });
  return [
    ['build AABB SAH, dragon 48k (x3)', () => {
      return () => { for (let i = 0; i < 3; i++) snug.createMesh(dragon).dispose(); };
    }],
    ['build OBB Gottschalk, dragon 48k', () => {
      return () => snug.createMesh({ ...dragon, bvh: { bvType: 'obb', splitter: 'gottschalk' } }).dispose();
    }],
    ['20k single rays, bunny', () => {
      const mesh = snug.createMesh(bunny), { origins, dirs } = rays(bb, 20000);
      const o = Array.from({ length: 20000 }, (_, i) => origins.subarray(3 * i, 3 * i + 3));
      const d = Array.from({ length: 20000 }, (_, i) => dirs.subarray(3 * i, 3 * i + 3));
      snug.raycast(mesh, null, [0, 0, 0], [0, 0, 1]); // the ray tree is built on the first ray
      return () => { for (let i = 0; i < 20000; i++) snug.raycast(mesh, null, o[i], d[i]); };
    }],
    ['batch of 50k rays, dragon 48k', () => {
      const mesh = snug.createMesh(dragon), { origins, dirs } = rays(bounds(dragon.positions), 50000);
      snug.raycast(mesh, null, [0, 0, 0], [0, 0, 1]);
      return () => snug.raycastBatch(mesh, null, origins, dirs);
    }],
    ['4000 overlap tests, bunny pairs', () => {
      const mesh = snug.createMesh(bunny), poses = near(4000, 0.8);
      return () => { for (const p of poses) snug.overlap(mesh, null, mesh, p); };
    }],
    ['60 distances, bunny pairs apart', () => {
      const mesh = snug.createMesh({ ...bunny, bvh: { bvType: 'obb', splitter: 'gottschalk' } });
      const poses = apart(60);
      return () => { for (const p of poses) snug.distance(mesh, null, mesh, p); };
    }],
    ['120 distances, teapot x torus knot 3 / 30 / 1000 apart (the far rows), AABB and OBB', () => {
      const teapot = loadBin('teapot'), knot = loadBin('torusknot10k');
      const trees = [{ hausdorff: false }, { bvType: 'obb', splitter: 'gottschalk', hausdorff: false }];
      const pairs = trees.map((bvh) => [snug.createMesh({ ...teapot, bvh }), snug.createMesh({ ...knot, bvh })]);
      const poses = FAR_CASES.map((c) => farPose(teapot.positions, knot.positions, c.gap));
      return () => {
        for (const [a, b] of pairs) for (const p of poses) for (let i = 0; i < 20; i++) snug.distance(a, null, b, p);
      };
    }],
    ['1000 sweeps, bunny pairs', () => {
      const mesh = snug.createMesh(bunny), poses = near(1000, 2.5);
      snug.sweep(mesh, null, [bb.diag, 0, 0], mesh, poses[0]); // the edge adjacency is built on first use
      return () => { for (const p of poses) snug.sweep(mesh, null, [-p[4], -p[5], -p[6]], mesh, p); };
    }],
    ['200 collision steps, 300 bunnies', () => {
      const mesh = snug.createMesh(bunny), scene = snug.createScene();
      const bodies = Array.from({ length: 300 }, () => scene.createBody({ mesh, pose: yaw(random() * 6.3, pointIn(bb, 12)) }));
      const moves = Array.from({ length: 200 }, () => bodies.map(() => [0, 1, 2].map(() => (random() - 0.5) * 0.05 * bb.diag)));
      return () => {
        for (const step of moves) {
          scene.stepBegin();
          bodies.forEach((b, i) => scene.stepMove(b, [0, 0, 0, 1, ...step[i]], true));
          scene.stepDetect();
        }
      };
    }],
    ['300 pointer moves, a lamp among books on a table', () => {
      const floor = snug.createMesh(boxes([[-3, -0.1, -3, 3, 0, 3]]));
      floor.setSurfaces([rect('offer', 'onFloor', -3, 3, 0, -3, 3)]);
      const legs = [[-0.8, -0.45], [0.74, -0.45], [-0.8, 0.39], [0.74, 0.39]].map(([x, z]) => [x, 0, z, x + 0.06, 0.72, z + 0.06]);
      const table = snug.createMesh(boxes([[-0.8, 0.72, -0.45, 0.8, 0.78, 0.45], ...legs]));
      table.setSurfaces([rect('offer', 'onWorkspace', -0.8, 0.8, 0.78, -0.45, 0.45), rect('binding', 'onFloor', -0.8, 0.8, 0, -0.45, 0.45)]);
      const lamp = snug.createMesh(boxes([[-0.08, 0, -0.08, 0.08, 0.03, 0.08], [-0.01, 0.03, -0.01, 0.01, 0.38, 0.01],
        [-0.1, 0.38, -0.1, 0.1, 0.5, 0.1]]));
      lamp.setSurfaces([rect('binding', 'onStore', -0.08, 0.08, 0, -0.08, 0.08)]);
      const book = snug.createMesh(boxes([[-0.075, 0, -0.11, 0.075, 0.03, 0.11]]));
      book.setSurfaces([rect('binding', 'onStore', -0.075, 0.075, 0, -0.11, 0.11)]);
      const scene = snug.createScene();
      const ground = scene.createBody({ mesh: floor, isStatic: true });
      const desk = scene.createBody({ mesh: table, pose: [0, 0, 0, 1, 0, 0, 0] });
      desk.bind(1, ground, 0);
      for (const [x, z] of [[-0.4, 0.1], [0.1, -0.25], [0.45, 0.2]]) scene.createBody({ mesh: book, pose: [0, 0, 0, 1, x, 0.78, z] }).bind(0, desk, 0);
      const light = scene.createBody({ mesh: lamp, pose: [0, 0, 0, 1, -0.6, 0.78, -0.3] });
      light.bind(0, desk, 0);
      const path = Array.from({ length: 300 }, (_, i) => [0.7 * Math.sin(i / 15), 0.35 * Math.sin(i / 23)]);
      return () => {
        for (const [x, z] of path) light.move({ ray: { origin: [x, 3, z], dir: [0, -1, 0] }, grab: [0, 0.44, 0] });
      };
    }],
  ];
}

async function run(modulePath, timing) {
  const { Snug } = await import('../../wasm/snug.js');
  const url = pathToFileURL(resolve(modulePath));
  const snug = await Snug.create({
    factory: (await import(url.href)).default,
    wasmBinary: readFileSync(new URL(url.href.replace(/\.mjs$/, '.wasm'))),
  });
  const out = [];
  for (const [name, setup] of tasks(snug)) {
    const work = setup();
    if (globalThis.gc) globalThis.gc(); // the setup's garbage is collected in its own phase
    getPriority(); // callgrind dumps here: the setup above is the previous phase
    const t0 = performance.now();
    work();
    out.push([name, performance.now() - t0]);
    getPriority();
  }
  if (timing) for (const [name, ms] of out) console.log(`${ms.toFixed(1).padStart(9)} ms  ${name}`);
}

// Instructions of each measured phase: the dumps alternate setup, task, setup, task, ... after the start-up dump.
function callgrind(modulePath) {
  const dir = mkdtempSync(join(tmpdir(), 'snug-hot-'));
  try {
    const r = spawnSync('valgrind', ['--tool=callgrind', '--dump-before=getpriority', `--callgrind-out-file=${dir}/cg.%p`,
      process.execPath, ...V8_FLAGS, new URL(import.meta.url).pathname, 'phases', modulePath], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`valgrind failed (${r.status}): ${r.stderr.slice(-2000)}`);
    const counts = readdirSync(dir).filter((f) => /\.\d+$/.test(f))
      .map((f) => [Number(/\.(\d+)$/.exec(f)[1]), Number(/^summary: (\d+)/m.exec(readFileSync(join(dir, f), 'utf8'))?.[1] ?? 0)])
      .sort((a, b) => a[0] - b[0]).map((x) => x[1]);
    return counts.filter((_, i) => i % 2 === 1); // dump k ends phase k: start-up and setup, task, setup, task, ...
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, ...modules] = process.argv.slice(2);
if (mode === 'phases') await run(modules[0], false);
else if (mode === 'run') await run(modules[0], true);
else if (mode === 'compare' && modules.length >= 2) {
  const counts = modules.map(callgrind);
  const names = tasks(null).map((t) => t[0]);
  console.log(`millions of instructions per task; the ratio of each module to the first\n${modules.join(' | ')}`);
  names.forEach((name, i) => {
    const cells = counts.map((c, k) => `${(c[i] / 1e6).toFixed(1).padStart(10)}${k ? ` ${(c[i] / counts[0][i]).toFixed(4)}` : ''}`);
    console.log(`${cells.join(' | ')}  ${name}`);
  });
} else {
  console.error('usage: node tests/bench/hot_paths.mjs compare <a.mjs> <b.mjs> [...] | run <module.mjs>');
  process.exit(2);
}
