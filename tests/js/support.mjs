// Shared pieces of the JS API tests: seeded random numbers, procedural meshes, and brute-force references
// (every triangle, double precision) that the wasm results are checked against.
import { readFileSync } from 'node:fs';
import { mulberry32 } from '../tools/prng.mjs';

export const wasmBinary = readFileSync(new URL('../../build/wasm/snug.wasm', import.meta.url));
export const scale = Number(process.env.SNUG_TEST_SCALE || 1);
export const seed = Number(process.env.SNUG_SEED || 12345);

/** Seeded random numbers in [0, 1), the same on every platform. */
export function rng(s = seed) {
  return mulberry32(s);
}

/** Closed UV sphere. */
export function sphere(radius = 1, rings = 12, segments = 16, center = [0, 0, 0]) {
  const pos = [];
  const idx = [];
  pos.push(center[0], center[1] + radius, center[2]);
  for (let i = 1; i < rings; i++) {
    const th = (Math.PI * i) / rings;
    for (let j = 0; j < segments; j++) {
      const ph = (2 * Math.PI * j) / segments;
      pos.push(center[0] + radius * Math.sin(th) * Math.cos(ph), center[1] + radius * Math.cos(th),
        center[2] + radius * Math.sin(th) * Math.sin(ph));
    }
  }
  pos.push(center[0], center[1] - radius, center[2]);
  const bottom = 1 + (rings - 1) * segments;
  const v = (i, j) => 1 + (i - 1) * segments + (j % segments);
  for (let j = 0; j < segments; j++) idx.push(0, v(1, j + 1), v(1, j));
  for (let i = 1; i < rings - 1; i++) {
    for (let j = 0; j < segments; j++) {
      idx.push(v(i, j), v(i, j + 1), v(i + 1, j));
      idx.push(v(i, j + 1), v(i + 1, j + 1), v(i + 1, j));
    }
  }
  for (let j = 0; j < segments; j++) idx.push(bottom, v(rings - 1, j), v(rings - 1, j + 1));
  return { positions: Float32Array.from(pos), indices: Uint32Array.from(idx) };
}

/** Random triangle soup in a cube of half size `size`. */
export function soup(r, n, size = 1, triSize = 0.2) {
  const p = new Float32Array(9 * n);
  for (let t = 0; t < n; t++) {
    const c = [(2 * r() - 1) * size, (2 * r() - 1) * size, (2 * r() - 1) * size];
    for (let k = 0; k < 3; k++) for (let a = 0; a < 3; a++) p[9 * t + 3 * k + a] = c[a] + (2 * r() - 1) * triSize;
  }
  return { positions: p, indices: null };
}

export function randomUnitQuat(r) {
  // Shoemake's uniform random rotation.
  const u1 = r(), u2 = 2 * Math.PI * r(), u3 = 2 * Math.PI * r();
  const a = Math.sqrt(1 - u1), b = Math.sqrt(u1);
  return [a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)];
}

export function randomPose(r, spread = 1) {
  const q = randomUnitQuat(r);
  return Float32Array.from([...q, (2 * r() - 1) * spread, (2 * r() - 1) * spread, (2 * r() - 1) * spread]);
}

/** Apply pose [qx, qy, qz, qw, px, py, pz] to a point, in double. */
export function transform(pose, v) {
  const [x, y, z, w] = pose;
  const [vx, vy, vz] = v;
  // v + 2w (q x v) + 2 q x (q x v)
  const cx = y * vz - z * vy, cy = z * vx - x * vz, cz = x * vy - y * vx;
  const ccx = y * cz - z * cy, ccy = z * cx - x * cz, ccz = x * cy - y * cx;
  return [vx + 2 * (w * cx + ccx) + pose[4], vy + 2 * (w * cy + ccy) + pose[5], vz + 2 * (w * cz + ccz) + pose[6]];
}

/** World-space triangles of a mesh at a pose: array of [a, b, c]. */
export function worldTriangles(mesh, pose) {
  const { positions, indices } = mesh;
  const n = indices ? indices.length / 3 : positions.length / 9;
  const out = [];
  const vert = (i) => transform(pose, [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]]);
  for (let t = 0; t < n; t++) {
    const i = indices ? [indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]] : [3 * t, 3 * t + 1, 3 * t + 2];
    out.push(i.map(vert));
  }
  return out;
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** Möller-Trumbore in double: t or Infinity. */
export function rayTri(o, d, [a, b, c]) {
  const e1 = sub(b, a), e2 = sub(c, a);
  const p = cross(d, e2);
  const det = dot(e1, p);
  if (Math.abs(det) < 1e-300) return Infinity;
  const inv = 1 / det;
  const s = sub(o, a);
  const u = dot(s, p) * inv;
  if (u < 0 || u > 1) return Infinity;
  const q = cross(s, e1);
  const v = dot(d, q) * inv;
  if (v < 0 || u + v > 1) return Infinity;
  const t = dot(e2, q) * inv;
  return t >= 0 ? t : Infinity;
}

/** Every hit t of a ray against world triangles, sorted, with triangle ids. */
export function bruteRay(tris, o, d, tmax = Infinity) {
  const hits = [];
  tris.forEach((tri, i) => {
    const t = rayTri(o, d, tri);
    if (t !== Infinity && t <= tmax) hits.push({ t, tri: i });
  });
  return hits.sort((x, y) => x.t - y.t);
}

/** Closest point on a triangle (Ericson's region test), double precision. */
export function closestOnTri(p, [a, b, c]) {
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const bp = sub(p, b);
  const d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) { const v = d1 / (d1 - d3); return [a[0] + v * ab[0], a[1] + v * ab[1], a[2] + v * ab[2]]; }
  const cp = sub(p, c);
  const d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) { const w = d2 / (d2 - d6); return [a[0] + w * ac[0], a[1] + w * ac[1], a[2] + w * ac[2]]; }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return [b[0] + w * (c[0] - b[0]), b[1] + w * (c[1] - b[1]), b[2] + w * (c[2] - b[2])];
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom, w = vc * denom;
  return [a[0] + ab[0] * v + ac[0] * w, a[1] + ab[1] * v + ac[1] * w, a[2] + ab[2] * v + ac[2] * w];
}

export function bruteClosest(tris, p) {
  let best = { distance: Infinity, tri: -1 };
  tris.forEach((tri, i) => {
    const c = closestOnTri(p, tri);
    const d = Math.hypot(c[0] - p[0], c[1] - p[1], c[2] - p[2]);
    if (d < best.distance) best = { distance: d, tri: i, point: c };
  });
  return best;
}

