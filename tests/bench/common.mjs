// Shared pieces of the JS benchmark scripts: meshes from build/meshes/*.bin, the fixed rays, the pair poses,
// timing with warm-up and repetitions, and result rows ("ROW {json}" lines that tests/bench/run.mjs collects).
// The C programs mirror this in tests/bench/timing.h (same poses, same rays read from the same files).
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { mulberry32 } from '../tools/prng.mjs';

export const BUILD = process.env.BENCH_BUILD || 'build';
export const BENCH_DIR = `${BUILD}/bench`;
export const RAY_COUNT = 10000;

// build/meshes/<name>.bin: "SNUGMSH1", u32 vertex count, u32 triangle count, f32 positions, u32 indices.
export function loadBin(name) {
  const buf = readFileSync(`${BUILD}/meshes/${name}.bin`);
  const v = buf.readUInt32LE(8), t = buf.readUInt32LE(12);
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  const positions = new Float32Array(bytes.slice(16, 16 + 12 * v).buffer);
  const indices = new Uint32Array(bytes.slice(16 + 12 * v, 16 + 12 * v + 12 * t).buffer);
  return { name, positions, indices, vertexCount: v, triangleCount: t };
}

export function bounds(positions) {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3)
    for (let a = 0; a < 3; a++) {
      const x = positions[i + a];
      if (x < lo[a]) lo[a] = x;
      if (x > hi[a]) hi[a] = x;
    }
  const c = [0, 1, 2].map((a) => 0.5 * (lo[a] + hi[a]));
  const diag = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  return { lo, hi, c, diag };
}

// Body B = the mesh rotated `angle` about the Y axis through its AABB centre, then shifted shift x diagonal along X.
// R is row-major; q = (x, y, z, w).
export function pairPose(positions, angle, shift) {
  const { c, diag } = bounds(positions);
  const cs = Math.cos(angle), sn = Math.sin(angle);
  const R = [cs, 0, sn, 0, 1, 0, -sn, 0, cs];
  const t = [0, 1, 2].map((i) => c[i] - (R[3 * i] * c[0] + R[3 * i + 1] * c[1] + R[3 * i + 2] * c[2]));
  t[0] += shift * diag;
  return { R, t, q: [0, Math.sin(angle / 2), 0, Math.cos(angle / 2)], diag };
}

// The mesh-mesh cases: dragon pairs at three shifts, and a torus knot against a near-coincident copy.
export const PAIR_CASES = [
  { mesh: 'dragon11k', angle: 0.3, shift: 0.05, name: 'dragon11k shift 5%' },
  { mesh: 'dragon11k', angle: 0.3, shift: 0.4, name: 'dragon11k shift 40%' },
  { mesh: 'dragon11k', angle: 0.3, shift: 1.5, name: 'dragon11k shift 150%' },
  { mesh: 'dragon48k', angle: 0.3, shift: 0.05, name: 'dragon48k shift 5%' },
  { mesh: 'dragon48k', angle: 0.3, shift: 0.4, name: 'dragon48k shift 40%' },
  { mesh: 'dragon48k', angle: 0.3, shift: 1.5, name: 'dragon48k shift 150%' },
  { mesh: 'torusknot10k', angle: 0.01, shift: 0.001, name: 'torusknot10k near-coincident' },
];
// The far-apart distance cases (issue 15; snug_bench.c and fcl_bench.cpp task far, bench_far_pose in timing.h): a
// teapot at the identity and a torus knot moved so that their bounding spheres are `gap` apart along (1, 1, 1).
export const FAR_CASES = [3, 30, 1000].map((gap) => ({ mesh: 'teapot', gap, name: `teapot x torusknot10k, ${gap} apart on the diagonal` }));
// The pose of B for a far case: B's box's bounding sphere `gap` apart from A's along (1, 1, 1) (bench_far_pose).
export function farPose(positionsA, positionsB, gap) {
  const a = bounds(positionsA), b = bounds(positionsB), step = (a.diag / 2 + b.diag / 2 + gap) / Math.sqrt(3);
  return [0, 0, 0, 1, ...[0, 1, 2].map((i) => a.c[i] - b.c[i] + step)];
}
export const BUILD_MESHES = ['bunny', 'dragon11k', 'dragon48k', 'dragon203k', 'dragon871k', 'torusknot10k'];
// Continuous: the 48k dragon from 150 % to 5 % of the diagonal while turning 0 -> 0.6 rad about Y, static copy.
export const TOI_CASE = { mesh: 'dragon48k', angle0: 0, shift0: 1.5, angle1: 0.6, shift1: 0.05, name: 'dragon48k 150%->5%, 0.6 rad' };

// Deterministic PRNG so every run uses the same rays.
export const prng = mulberry32;

// 10,000 rays from the bounding sphere (centre = AABB centre, radius = half diagonal) aimed at uniform points of
// the middle half of the AABB; unit directions. Written once to build/bench/rays/<mesh>.bin (6 floats per ray).
export function rays(name, positions) {
  const file = `${BENCH_DIR}/rays/${name}.bin`;
  if (existsSync(file)) return new Float32Array(new Uint8Array(readFileSync(file)).buffer);
  const { lo, hi, c, diag } = bounds(positions);
  const rnd = prng(0x5eed + name.length);
  const out = new Float32Array(6 * RAY_COUNT);
  for (let i = 0; i < RAY_COUNT; i++) {
    const z = 2 * rnd() - 1, phi = 2 * Math.PI * rnd(), s = Math.sqrt(1 - z * z);
    const o = [c[0] + 0.5 * diag * s * Math.cos(phi), c[1] + 0.5 * diag * s * Math.sin(phi), c[2] + 0.5 * diag * z];
    const p = [0, 1, 2].map((a) => c[a] + (rnd() - 0.5) * 0.5 * (hi[a] - lo[a]));
    const d = [p[0] - o[0], p[1] - o[1], p[2] - o[2]];
    const len = Math.hypot(...d);
    out.set([o[0], o[1], o[2], d[0] / len, d[1] / len, d[2] / len], 6 * i);
  }
  mkdirSync(`${BENCH_DIR}/rays`, { recursive: true });
  writeFileSync(file, out);
  return out;
}

// Hit distances of one implementation (Infinity = miss), compared by run.mjs against the brute-force reference.
export function writeAnswers(slug, mesh, ts) {
  mkdirSync(`${BENCH_DIR}/answers`, { recursive: true });
  writeFileSync(`${BENCH_DIR}/answers/${slug}-${mesh}.f32`, Float32Array.from(ts));
}

// Same scheme as timing.h: warm-up, then samples of `inner` calls (about 2 ms each) until minReps and budgetMs;
// a warm-up slower than the whole budget is the only sample.
export function measure(fn, minReps = 5, budgetMs = 1000) {
  let t0 = performance.now();
  fn();
  const first = performance.now() - t0;
  let inner = first < 2 ? Math.min(1e6, Math.floor(2 / Math.max(first, 1e-5)) + 1) : 1;
  if (first > budgetMs) return { med: first, min: first, max: first, n: 1, calls: 1 }; // too slow to repeat
  const samples = [];
  let calls = 0;
  const start = performance.now();
  while (samples.length < 41 && (samples.length < minReps || performance.now() - start < budgetMs)) {
    const a = performance.now();
    for (let i = 0; i < inner; i++) fn();
    samples.push((performance.now() - a) / inner);
    calls += inner;
  }
  samples.sort((x, y) => x - y);
  const n = samples.length;
  const med = n % 2 ? samples[n >> 1] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  return { med, min: samples[0], max: samples[n - 1], n, calls };
}

export function row(sec, cas, impl, stats, status = 'ok', extra = {}) {
  const r = { sec, case: cas, impl, ...(stats || {}), status, ...extra };
  console.log('ROW ' + JSON.stringify(r));
}
