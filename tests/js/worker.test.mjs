// Hierarchy build in a worker (node worker_threads running wasm/worker.js): progress events arrive in order, the
// blob comes back and loads into the main thread's context with the same mesh, errors come back as SnugErrors.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Snug, SnugError } from '../../wasm/snug.js';
import { wasmBinary, sphere, has } from './support.mjs';
import { loadMesh } from '../meshes/load.mjs';

const snug = await Snug.create({ wasmBinary });
const ready = has(snug, 'snug_mesh_serialize') && has(snug, 'snug_mesh_deserialize');

test('worker build round trip: progress, blob, same mesh as a local build', { skip: !ready && 'serialization not in this build yet' }, async () => {
  const bunny = await loadMesh('bunny');
  const stages = [];
  const mesh = await snug.buildMeshInWorker({ ...bunny, bvh: { leafSize: 2 } }, { onProgress: (s, f) => stages.push([s, f]), label: 'bunny' });
  assert.deepEqual(stages.map((s) => s[0]), ['load', 'build', 'serialize', 'done']);
  for (let i = 1; i < stages.length; i++) assert.ok(stages[i][1] >= stages[i - 1][1], 'progress grows');
  const local = snug.createMesh({ ...bunny, bvh: { leafSize: 2 } });
  const a = mesh.info(), b = local.info();
  for (const k of ['vertexCount', 'triangleCount', 'nodeCount', 'leafCount', 'depth', 'closed', 'edgeCount']) assert.equal(a[k], b[k], k);
  assert.deepEqual(a.aabbMin, b.aabbMin);
  if (has(snug, 'snug_mesh_raycast')) {
    for (const o of [[0, 0.1, 1], [0.02, 0.12, -1], [-0.05, 0.05, 1]]) {
      const d = [0, 0, -Math.sign(o[2])];
      const h1 = snug.raycast(local, null, o, d);
      const t1 = h1 ? h1.t : null;
      const h2 = snug.raycast(mesh, null, o, d);
      assert.equal(h2 ? h2.t : null, t1);
    }
  }
  mesh.dispose();
  local.dispose();
});

test('worker build errors come back as SnugError with the core status', { skip: !ready && 'serialization not in this build yet' }, async () => {
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
