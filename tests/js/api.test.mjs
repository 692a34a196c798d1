// The JS API over the wasm module: meshes, typed-array paths, errors, lifetimes and memory, and every query
// checked against brute force over all triangles (double precision, seeded: SNUG_SEED overrides the seed).
import test from 'node:test';
import assert from 'node:assert/strict';
import { Snug, SnugError, Mesh, RayHits, TriPairs, pose } from '../../wasm/snug.js';
import { S, STATUS } from '../../wasm/internal.js';
import {
  wasmBinary, seed, scale, rng, sphere, soup, randomPose, worldTriangles, bruteRay, bruteClosest, transform,
} from './support.mjs';

const snug = await Snug.create({ wasmBinary });
const tet = { positions: Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]), indices: Uint32Array.from([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]) };
const msg = `seed ${seed}`;

function throwsStatus(fn, status, re) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof SnugError, `expected SnugError, got ${e}`);
    assert.equal(e.status, status, e.message);
    if (re) assert.match(e.message, re);
    return true;
  });
}

test('createMesh: info matches the input (indexed, Uint16 indices, plain arrays, unindexed)', () => {
  const variants = [
    tet,
    { positions: tet.positions, indices: Uint16Array.from(tet.indices) },
    { positions: Array.from(tet.positions), indices: Array.from(tet.indices) },
  ];
  for (const def of variants) {
    const m = snug.createMesh(def);
    const info = m.info();
    assert.equal(info.vertexCount, 4);
    assert.equal(info.triangleCount, 4);
    assert.equal(info.closed, true);
    assert.deepEqual(info.aabbMin, [0, 0, 0]);
    assert.deepEqual(info.aabbMax, [1, 1, 1]);
    assert.ok(Math.abs(info.scale - Math.sqrt(3)) < 1e-6);
    assert.ok(info.nodeCount >= 1 && info.memoryBytes > 0);
    m.dispose();
  }
  // Unindexed: every 3 vertices form a triangle; without welding nothing is shared, so the mesh is open.
  const s = soup(rng(seed), 50);
  const m = snug.createMesh(s);
  const info = m.info();
  assert.equal(info.triangleCount, 50);
  assert.equal(info.vertexCount, 150);
  assert.equal(info.closed, false);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < s.positions.length; i++) { lo[i % 3] = Math.min(lo[i % 3], s.positions[i]); hi[i % 3] = Math.max(hi[i % 3], s.positions[i]); }
  assert.deepEqual(info.aabbMin, lo);
  assert.deepEqual(info.aabbMax, hi);
  m.dispose();
});

test('createMesh: welding and hierarchy settings reach the core', () => {
  // The tetrahedron as an unindexed soup: welding merges the 12 corners back into 4 vertices.
  const flat = new Float32Array(36);
  for (let t = 0; t < 12; t++) flat.set(tet.positions.subarray(3 * tet.indices[t], 3 * tet.indices[t] + 3), 3 * t);
  const welded = snug.createMesh({ positions: flat, weld: true, weldTolerance: 1e-6 });
  assert.equal(welded.info().vertexCount, 4);
  assert.equal(welded.info().closed, true);
  welded.dispose();
  const s = sphere(1, 24, 32);
  const leaf1 = snug.createMesh({ ...s, bvh: { leafSize: 1, splitter: 'median' } });
  const leaf8 = snug.createMesh({ ...s, bvh: { leafSize: 8 } });
  assert.ok(leaf1.info().leafCount > leaf8.info().leafCount, 'leafSize changes the tree');
  assert.equal(leaf1.info().triangleCount, s.indices.length / 3);
  const q = leaf1.quality();
  assert.ok(q.volumeSum > 0 && q.surfaceSum > 0 && q.nodesPerType.aabb === leaf1.info().nodeCount);
  leaf1.dispose();
  leaf8.dispose();
  const d = snug.defaultBvhDef();
  assert.equal(typeof d.bvType, 'string');
  assert.ok(d.leafSize >= 1);
});

test('errors: clear status and message, nothing changed', () => {
  const before = snug.allocatedBytes();
  throwsStatus(() => snug.createMesh({ positions: tet.positions, indices: [0, 1, 9] }), 'SNUG_ERR_INDEX_RANGE', /vertex 9/);
  throwsStatus(() => snug.createMesh({ positions: [0, 0, NaN, 1, 0, 0, 0, 1, 0] }), 'SNUG_ERR_NOT_FINITE');
  throwsStatus(() => snug.createMesh({ positions: [], indices: [] }), 'SNUG_ERR_EMPTY');
  throwsStatus(() => snug.createMesh({ positions: [0, 0] }), 'SNUG_ERR_INVALID_ARGUMENT', /multiple of 3/);
  throwsStatus(() => snug.createMesh({ positions: tet.positions, indices: [0, 1] }), 'SNUG_ERR_INVALID_ARGUMENT');
  throwsStatus(() => snug.createMesh({ positions: [0, 0, 0, 1, 0, 0] }), 'SNUG_ERR_INVALID_ARGUMENT', /whole triangles/);
  throwsStatus(() => snug.createMesh({}), 'SNUG_ERR_INVALID_ARGUMENT');
  throwsStatus(() => snug.createMesh({ ...tet, bvh: { bvType: 'cylinder' } }), 'SNUG_ERR_INVALID_ARGUMENT', /bvType/);
  throwsStatus(() => snug.createMesh({ ...tet, bvh: { leafSize: 0 } }), 'SNUG_ERR_INVALID_ARGUMENT');
  throwsStatus(() => snug.setTraversal('sideways'), 'SNUG_ERR_INVALID_ARGUMENT');
  assert.equal(snug.allocatedBytes(), before, 'failed calls leave no allocation behind');
  const m = snug.createMesh(tet);
  throwsStatus(() => m.setPositions([0, 0, 0]), 'SNUG_ERR_INVALID_ARGUMENT');
  throwsStatus(() => m.setPositions([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, Infinity]), 'SNUG_ERR_NOT_FINITE');
  assert.deepEqual(m.info().aabbMax, [1, 1, 1], 'a failed setPositions changes nothing');
  throwsStatus(() => snug.raycast({}, null, [0, 0, 0], [1, 0, 0]), 'SNUG_ERR_INVALID_ARGUMENT');
  m.dispose();
  m.dispose(); // second dispose is a no-op
  assert.equal(m.disposed, true);
  throwsStatus(() => m.info(), 'SNUG_ERR_STALE_HANDLE');
  throwsStatus(() => m.setPositions(tet.positions), 'SNUG_ERR_STALE_HANDLE');
  throwsStatus(() => m.degenerate(), 'SNUG_ERR_STALE_HANDLE');
  throwsStatus(() => snug.overlap(m, null, m, null), 'SNUG_ERR_STALE_HANDLE');
  throwsStatus(() => snug.raycast(m, null, [0, 0, 0], [1, 0, 0]), 'SNUG_ERR_STALE_HANDLE');
  assert.equal(snug.allocatedBytes(), before);
});

test('handles: a forged or foreign handle is stale in the core, not a crash', async () => {
  const other = await Snug.create({ module: snug.module });
  const mine = snug.createMesh(tet);
  const theirs = other.createMesh(tet);
  throwsStatus(() => snug.raycast(theirs, null, [0, 0, 0], [1, 0, 0]), 'SNUG_ERR_STALE_HANDLE', /another/);
  // Bypass the JS checks: the core itself must reject a forged handle and one of another context.
  assert.equal(snug.module._snug_mesh_destroy(snug._ctx, 0x12345), STATUS.SNUG_ERR_STALE_HANDLE);
  const status = snug.module._snug_mesh_get_info(snug._ctx, theirs.handle, snug._scratch + S.info);
  assert.ok(status === STATUS.SNUG_ERR_STALE_HANDLE || theirs.handle === mine.handle, `core status ${status}`);
  other.dispose();
  assert.equal(theirs.disposed, true, 'disposing a context makes its meshes stale');
  throwsStatus(() => theirs.info(), 'SNUG_ERR_STALE_HANDLE');
  throwsStatus(() => other.createMesh(tet), 'SNUG_ERR_STALE_HANDLE', /disposed/);
  throwsStatus(() => other.allocatedBytes(), 'SNUG_ERR_STALE_HANDLE');
  other.dispose();
  mine.dispose();
});

test('degenerate triangles are reported, setPositions refits', () => {
  const positions = Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0]);
  const m = snug.createMesh({ positions, indices: [0, 1, 2, 3, 4, 5, 0, 2, 1] });
  assert.deepEqual(Array.from(m.degenerate()), [1]);
  assert.equal(m.info().degenerateCount, 1);
  const moved = positions.map((v, i) => (i % 3 === 1 ? v + 10 : v));
  m.setPositions(moved);
  assert.deepEqual(m.info().aabbMin, [0, 10, 0]);
  assert.deepEqual(m.info().aabbMax, [4, 11, 0]);
  const clean = snug.createMesh(tet);
  assert.equal(clean.degenerate().length, 0);
  clean.dispose();
  m.dispose();
});

test('memory growth: views are re-acquired, data survives, queries still work', () => {
  const s = sphere(1, 16, 16);
  const m = snug.createMesh(s);
  const heap0 = snug.heapBytes;
  // 2.4M vertices (29 MB) force the heap past its 16 MB start.
  const big = new Float32Array(3 * 2400000);
  const r = rng(seed);
  for (let i = 0; i < big.length; i++) big[i] = r();
  // Few triangles over many vertices: the growth comes from staging and copying, the build stays cheap.
  const bm = snug.createMesh({ positions: big, indices: [0, 1, 2, 2400000 - 3, 2400000 - 2, 2400000 - 1], label: 'big' });
  assert.ok(snug.heapBytes > heap0, 'heap grew');
  assert.equal(bm.info().triangleCount, 2);
  assert.equal(m.info().triangleCount, s.indices.length / 3);
  bm.dispose();
  const hit = snug.raycast(m, null, [0, 0, -5], [0, 0, 1]);
  assert.ok(hit && Math.abs(hit.t - 4) < 0.05, `ray after growth: ${hit && hit.t}`);
  m.dispose();
});

test('out of memory is a clear error and the context stays usable', async () => {
  const s = await Snug.create({ wasmBinary });
  const m = s.createMesh(tet);
  throwsStatus(() => s._stageReserve(4.2e9), 'SNUG_ERR_OUT_OF_MEMORY', /out of memory/);
  assert.equal(m.info().triangleCount, 4);
  const again = s.createMesh(tet);
  assert.equal(again.info().vertexCount, 4);
  s.dispose();
});

test('1e5 mesh create/dispose cycles: no memory growth', () => {
  const s = new Snug(snug.module);
  const cycles = 100000;
  for (let i = 0; i < 100; i++) s.createMesh(tet).dispose();
  const bytes0 = s.allocatedBytes();
  const heap0 = s.heapBytes;
  for (let i = 0; i < cycles; i++) s.createMesh(tet).dispose();
  assert.equal(s.allocatedBytes(), bytes0, 'core allocations return to the baseline');
  assert.equal(s.heapBytes, heap0, 'wasm heap did not grow');
  s.dispose();
});

test('1e4 context create/dispose cycles on one module: no memory growth', () => {
  for (let i = 0; i < 50; i++) { const c = new Snug(snug.module); c.createMesh(tet); c.dispose(); }
  const heap0 = snug.heapBytes;
  const probe = snug.module._malloc(16);
  for (let i = 0; i < 10000; i++) { const c = new Snug(snug.module); c.createMesh(tet); c.dispose(); }
  const probe2 = snug.module._malloc(16);
  assert.equal(snug.heapBytes, heap0);
  assert.ok(Math.abs(probe2 - probe) < 1 << 16, 'malloc watermark unchanged');
  snug.module._free(probe);
  snug.module._free(probe2);
});

test('FinalizationRegistry warns about a mesh that was never disposed', async () => {
  assert.equal(typeof gc, 'function', 'the JS tests run with node --expose-gc (tests/js/run.sh)');
  const warnings = [];
  const warn = console.warn;
  console.warn = (...a) => warnings.push(a.join(' '));
  try {
    (() => { snug.createMesh({ ...tet, label: 'forgotten' }); })();
    snug._meshes.clear(); // the context's own set would keep it alive
    for (let i = 0; i < 20 && warnings.length === 0; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    console.warn = warn;
  }
  assert.ok(warnings.some((w) => /forgotten/.test(w) && /dispose/.test(w)), `warnings: ${warnings}`);
});

test('pose() builds the C layout', () => {
  assert.deepEqual(Array.from(pose([0, 0, 0, 1], [1, 2, 3])), [0, 0, 0, 1, 1, 2, 3]);
  const out = new Float32Array(7);
  assert.equal(pose(undefined, undefined, out), out);
});

// ---------------------------------------------------------------------------------------------------- queries

const bunnyMesh = (await import('../meshes/load.mjs')).loadMesh;
const bunny = await bunnyMesh('bunny');

test('raycast / raycastAny / raycastAll / raycastBatch against brute force (bunny, random poses)', () => {
  const r = rng(seed);
  const m = snug.createMesh(bunny);
  const info = m.info();
  const tol = 1e-4 * info.scale;
  const n = 200 * scale;
  const origins = new Float32Array(3 * n), dirs = new Float32Array(3 * n), tmax = new Float32Array(n);
  const p = randomPose(r, 0.05);
  const tris = worldTriangles(bunny, p);
  const expected = [];
  const center = transform(p, info.aabbMin.map((v, i) => (v + info.aabbMax[i]) / 2));
  for (let i = 0; i < n; i++) {
    // Rays from a sphere around the model towards random points near its centre: most hit, some miss.
    const o = [0, 1, 2].map((a) => center[a] + (2 * r() - 1) * info.scale);
    const target = [0, 1, 2].map((a) => center[a] + (2 * r() - 1) * info.scale * 0.4);
    const d = [0, 1, 2].map((a) => target[a] - o[a]);
    origins.set(o, 3 * i); dirs.set(d, 3 * i);
    tmax[i] = i % 4 === 0 ? 0.5 + r() : Infinity;
    const all = bruteRay(tris, Float64Array.from(origins.subarray(3 * i, 3 * i + 3)), Float64Array.from(dirs.subarray(3 * i, 3 * i + 3)), tmax[i]);
    expected.push(all);
  }
  const batch = snug.raycastBatch(m, p, origins, dirs, tmax);
  let hits = 0;
  const all = new RayHits(4);
  for (let i = 0; i < n; i++) {
    const o = origins.subarray(3 * i, 3 * i + 3), d = dirs.subarray(3 * i, 3 * i + 3);
    const exp = expected[i];
    const hit = snug.raycast(m, p, o, d, tmax[i]);
    const any = snug.raycastAny(m, p, o, d, tmax[i]);
    const dlen = Math.hypot(d[0], d[1], d[2]);
    // Grazing hits within tolerance of an edge may go either way; only clear cases must agree.
    const clear = exp.length === 0 || exp[0].t * dlen > tol;
    if (!clear) continue;
    if (exp.length === 0) {
      assert.equal(hit, null, `ray ${i}: expected miss (${msg})`);
      assert.equal(any, false);
      assert.equal(batch.hit(i), false);
      continue;
    }
    hits++;
    assert.ok(hit, `ray ${i}: expected hit at t=${exp[0].t} (${msg})`);
    assert.ok(Math.abs(hit.t - exp[0].t) * dlen < tol, `ray ${i}: t ${hit.t} vs ${exp[0].t} (${msg})`);
    assert.equal(any, true);
    assert.equal(batch.tri(i), hit.tri);
    assert.ok(Math.abs(batch.t(i) - hit.t) * dlen < tol);
    const pt = [0, 1, 2].map((a) => o[a] + hit.t * d[a]);
    for (let a = 0; a < 3; a++) assert.ok(Math.abs(hit.point[a] - pt[a]) < 10 * tol);
    assert.ok(Math.abs(Math.hypot(...hit.normal) - 1) < 1e-4);
    assert.ok(hit.normal[0] * d[0] + hit.normal[1] * d[1] + hit.normal[2] * d[2] <= 1e-6, 'normal faces the ray');
    snug.raycastAll(m, p, o, d, tmax[i], all);
    assert.equal(all.count, exp.length, `ray ${i}: all-hits count (${msg})`);
    for (let k = 1; k < all.count; k++) assert.ok(all.t(k) >= all.t(k - 1), 'sorted by t');
  }
  assert.ok(hits > n / 4, `enough rays hit (${hits})`);
  m.dispose();
});

test('raycast hot path allocates no result objects', () => {
  const m = snug.createMesh(sphere(1, 8, 8));
  const h1 = snug.raycast(m, null, [0, 0, -5], [0, 0, 1]);
  const h2 = snug.raycast(m, null, [0, 0, 5], [0, 0, -1]);
  assert.equal(h1, h2, 'the shared RayHit is reused');
  assert.equal(h1, snug.hit);
  m.dispose();
});

test('closestPoint against brute force', () => {
  const r = rng(seed + 1);
  const m = snug.createMesh(bunny);
  const p = randomPose(r, 0.1);
  const tris = worldTriangles(bunny, p);
  const sc = m.info().scale;
  let apart = 0;
  for (let i = 0; i < 60 * scale; i++) {
    const q = [0, 1, 2].map(() => (2 * r() - 1) * sc);
    const exp = bruteClosest(tris, q);
    const got = snug.closestPoint(m, p, q);
    assert.ok(got, `point ${i} (${msg})`);
    assert.ok(Math.abs(got.distance - exp.distance) < 1e-4 * sc, `point ${i}: ${got.distance} vs ${exp.distance} (${msg})`);
    if (exp.distance <= 1e-3 * sc) continue; // on the surface: half the distance is within tolerance
    apart++;
    assert.equal(snug.closestPoint(m, p, q, exp.distance * 0.5), null, 'nothing within a smaller radius');
  }
  assert.ok(apart > 30 * scale, `points off the surface: ${apart}`);
  m.dispose();
});

test('inside on a closed sphere, NOT_CLOSED on an open soup', () => {
  const s = snug.createMesh(sphere(1, 16, 24));
  const p = pose([0, 0, 0, 1], [3, 0, 0]);
  assert.equal(snug.inside(s, p, [3, 0.2, 0.1]), true);
  assert.equal(snug.inside(s, p, [0, 0, 0]), false);
  assert.equal(snug.inside(s, p, { x: 3.5, y: 0, z: 0 }), true);
  const open = snug.createMesh(soup(rng(seed), 10));
  throwsStatus(() => snug.inside(open, null, [0, 0, 0]), 'SNUG_ERR_NOT_CLOSED');
  s.dispose();
  open.dispose();
});

test('overlap / overlapAll / distance / within: spheres against analytic distances', () => {
  const r = rng(seed + 2);
  const a = snug.createMesh(sphere(1, 16, 24));
  const b = snug.createMesh(sphere(0.5, 12, 16));
  const pairs = new TriPairs(1);
  const cases = { apart: 0, overlapping: 0 };
  for (let i = 0; i < 40 * scale; i++) {
    const gap = (r() - 0.3) * 1.5; // centre distance = 1.5 + gap: some overlapping shells, some apart
    const dir = [r() - 0.5, r() - 0.5, r() - 0.5];
    const len = Math.hypot(...dir);
    const c = dir.map((v) => (v / len) * (1.5 + gap));
    const pa = randomPose(r, 0);
    const pb = Float32Array.from([...randomPose(r, 0).subarray(0, 4), ...c]);
    // Polygonal spheres deviate from the ideal by < 5% of the radius: decide only clear cases.
    if (Math.abs(gap) < 0.08 || 1.5 + gap < 0.6) continue;
    const hit = snug.overlap(a, pa, b, pb);
    assert.equal(hit, gap < 0, `case ${i} gap ${gap} (${msg})`);
    snug.overlapAll(a, pa, b, pb, pairs);
    assert.equal(pairs.count > 0, hit);
    const d = snug.distance(a, pa, b, pb);
    if (hit) {
      cases.overlapping++;
      assert.equal(pairs.count, pairs.total);
      const set = new Set();
      for (let k = 0; k < pairs.count; k++) set.add(`${pairs.pairs[2 * k]},${pairs.pairs[2 * k + 1]}`);
      assert.ok(set.has(`${snug.pair[0]},${snug.pair[1]}`), 'overlap witness is one of all pairs');
      assert.equal(d.distance, 0);
      assert.equal(snug.within(a, pa, b, pb, 0.01), true);
    } else {
      cases.apart++;
      assert.ok(Math.abs(d.distance - gap) < 0.08, `distance ${d.distance} vs ${gap}`);
      const sep = Math.hypot(d.pointA[0] - d.pointB[0], d.pointA[1] - d.pointB[1], d.pointA[2] - d.pointB[2]);
      assert.ok(Math.abs(sep - d.distance) < 1e-4, 'closest points are distance apart');
      assert.equal(snug.within(a, pa, b, pb, gap + 0.1), true);
      assert.equal(snug.within(a, pa, b, pb, gap - 0.1), false);
    }
  }
  assert.ok(cases.apart > 5 * scale && cases.overlapping > 5 * scale, JSON.stringify(cases));
  a.dispose();
  b.dispose();
});

test('lastStats counts the work of the last query', () => {
  const a = snug.createMesh(sphere(1, 16, 24));
  snug.setTraversal('simultaneous');
  snug.overlap(a, null, a, pose([0, 0, 0, 1], [0.5, 0, 0]));
  const st = snug.lastStats();
  assert.ok(st.nodesVisited > 0 && st.primitiveTests > 0);
  assert.equal(st.bvTests.length, 36);
  for (const t of ['one-sided', 'hybrid']) {
    snug.setTraversal(t);
    assert.equal(snug.overlap(a, null, a, pose([0, 0, 0, 1], [0.5, 0, 0])), true);
  }
  snug.setTraversal('simultaneous');
  a.dispose();
});

test('serialize / meshFromBlob round trip; corrupt and foreign blobs rejected', async () => {
  const m = snug.createMesh(bunny);
  const blob = m.serialize();
  assert.ok(blob instanceof Uint8Array && blob.length > 0);
  const other = await Snug.create({ wasmBinary });
  const copy = other.meshFromBlob(blob);
  const a = m.info(), b = copy.info();
  for (const k of ['vertexCount', 'triangleCount', 'nodeCount', 'leafCount', 'depth', 'closed']) assert.equal(b[k], a[k], k);
  assert.deepEqual(b.aabbMin, a.aabbMin);
  const h1 = { ...snug.raycast(m, null, [0, 0.1, 1], [0, 0, -1]) };
  const h2 = other.raycast(copy, null, [0, 0.1, 1], [0, 0, -1]);
  assert.equal(h2.tri, h1.tri);
  assert.equal(h2.t, h1.t);
  const before = other.allocatedBytes();
  const bad = blob.slice();
  bad[bad.length >> 1] ^= 0x55;
  throwsStatus(() => other.meshFromBlob(bad), 'SNUG_ERR_BLOB_CORRUPT');
  throwsStatus(() => other.meshFromBlob(blob.subarray(0, blob.length - 7)), 'SNUG_ERR_BLOB_TRUNCATED');
  throwsStatus(() => other.meshFromBlob(new TextEncoder().encode('definitely not a snug blob at all')), 'SNUG_ERR_BLOB_FOREIGN');
  assert.equal(other.allocatedBytes(), before);
  other.dispose();
  m.dispose();
});
