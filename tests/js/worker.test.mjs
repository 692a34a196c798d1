// Hierarchy build in a worker (node worker_threads running wasm/worker.js): progress events arrive in order, the
// blob comes back and loads into the main thread's context with the same mesh, errors come back as SnugErrors.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Snug, SnugError } from '../../wasm/snug.js';
import { wasmBinary, sphere } from './support.mjs';
import { loadMesh } from '../meshes/load.mjs';

const snug = await Snug.create({ wasmBinary });

test('worker build round trip: progress, blob, same mesh as a local build', async () => {
  const bunny = await loadMesh('bunny');
  const stages = [];
  const mesh = await snug.buildMeshInWorker({ ...bunny, bvh: { leafSize: 2 } }, { onProgress: (s, f) => stages.push([s, f]), label: 'bunny' });
  assert.deepEqual(stages.map((s) => s[0]), ['load', 'build', 'serialize', 'done']);
  for (let i = 1; i < stages.length; i++) assert.ok(stages[i][1] >= stages[i - 1][1], 'progress grows');
  const local = snug.createMesh({ ...bunny, bvh: { leafSize: 2 } });
  const a = mesh.info(), b = local.info();
  for (const k of ['vertexCount', 'triangleCount', 'nodeCount', 'leafCount', 'depth', 'closed', 'edgeCount']) assert.equal(a[k], b[k], k);
  assert.deepEqual(a.aabbMin, b.aabbMin);
  // rays along z through points around the middle of the bunny's box, from either side
  const c = b.aabbMin.map((v, k) => (v + b.aabbMax[k]) / 2);
  let hits = 0;
  for (const [dx, dy, side] of [[0, 0, 1], [0.1, 0.05, -1], [-0.1, -0.1, 1], [0.05, 0.15, -1]]) {
    const o = [c[0] + dx * b.scale, c[1] + dy * b.scale, c[2] + side * b.scale], d = [0, 0, -side];
    const t1 = snug.raycast(local, null, o, d)?.t;
    if (t1 !== undefined) hits++;
    assert.equal(snug.raycast(mesh, null, o, d)?.t, t1, `ray from ${o}`);
  }
  assert.ok(hits >= 3, `rays that hit the bunny: ${hits}`);
  mesh.dispose();
  local.dispose();
});

test('worker build errors come back as SnugError with the core status', async () => {
  await assert.rejects(snug.buildMeshInWorker({ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 7] }),
    (e) => e instanceof SnugError && e.status === 'SNUG_ERR_INDEX_RANGE');
  // A reused worker serves several jobs.
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(new URL('../../wasm/worker.js', import.meta.url));
  const s = sphere(1, 8, 8);
  const [m1, m2] = await Promise.all([snug.buildMeshInWorker(s, { worker }), snug.buildMeshInWorker(sphere(2, 6, 6), { worker })]);
  assert.equal(m1.info().triangleCount, s.indices.length / 3);
  assert.ok(Math.abs(m2.info().aabbMax[1] - 2) < 1e-6);
  await worker.terminate();
  m1.dispose();
  m2.dispose();
});
