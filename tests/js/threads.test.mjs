// The threaded module (build/wasm/snug-mt.*) through Snug.create({ threads: 2 }): the same trees byte for byte as
// the plain module (the builder's clustered path starts at 100k triangles, so the 203k dragon takes it), the same
// query answers, the usual errors, and dispose() ends the pthread workers so node can exit.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Snug, SnugError } from '../../wasm/snug.js';
import { installNodeWorker } from '../../wasm/node-web-worker.js';
import { wasmBinary, rng, seed } from './support.mjs';
import { loadMesh } from '../meshes/load.mjs';

const plain = await Snug.create({ wasmBinary });
const mt = await Snug.create({ threads: 2 });
const meshes = { bunny: await loadMesh('bunny'), dragon203k: await loadMesh('dragon203k') };
const msg = `seed ${seed}`;

const digest = (bytes) => `${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`;

function throwsStatus(fn, status) {
  assert.throws(fn, (e) => e instanceof SnugError && e.status === status, `expected ${status}`);
}

test('threads: 2 runs on the threaded module with a pool; the default stays one thread on the plain module', () => {
  assert.equal(mt.threads, 2);
  assert.equal(typeof mt.module._snug_task_pool_create, 'function');
  assert.equal(plain.threads, 1);
  assert.equal(plain.module._snug_task_pool_create, undefined);
  assert.ok(mt.heapBytes > 0);
});

for (const name of Object.keys(meshes)) {
  test(`${name}: the default tree built with 2 threads serializes to the plain module's bytes`, () => {
    const a = plain.createMesh(meshes[name]);
    const b = mt.createMesh(meshes[name]);
    try {
      const blobA = a.serialize(), blobB = b.serialize();
      assert.equal(blobA.length > 1000, true);
      // Hashes, not the arrays: a failure prints two lines instead of megabytes.
      assert.equal(digest(blobB), digest(blobA));
    } finally {
      a.dispose();
      b.dispose();
    }
  });
}

test('queries on the threaded context give the plain module\'s answers (rays, overlap)', () => {
  const d = meshes.dragon203k;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < d.positions.length; i++) { lo[i % 3] = Math.min(lo[i % 3], d.positions[i]); hi[i % 3] = Math.max(hi[i % 3], d.positions[i]); }
  const c = lo.map((v, i) => (v + hi[i]) / 2), size = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const a = plain.createMesh(d), b = mt.createMesh(d);
  try {
    const r = rng(seed);
    let hits = 0;
    for (let i = 0; i < 300; i++) {
      const o = [c[0] + (r() - 0.5) * size, c[1] + (r() - 0.5) * size, c[2] + size];
      const dir = [(r() - 0.5) * 0.4, (r() - 0.5) * 0.4, -1];
      const ha = plain.raycast(a, null, o, dir);
      const hb = mt.raycast(b, null, o, dir);
      assert.equal(hb ? `${hb.tri} ${hb.t}` : 'miss', ha ? `${ha.tri} ${ha.t}` : 'miss', `ray ${i}, ${msg}`);
      if (ha) hits++;
    }
    assert.ok(hits > 30, `some rays hit (${hits})`);
    let overlapping = 0;
    for (const shift of [0.05, 0.4, 1.5]) {
      const poseB = [0, Math.sin(0.15), 0, Math.cos(0.15), shift * size, 0, 0];
      const pa = plain.overlap(a, null, a, poseB);
      const pb = mt.overlap(b, null, b, poseB);
      assert.equal(pb, pa, `overlap at shift ${shift}`);
      if (!pa) continue;
      overlapping++;
      assert.deepEqual(Array.from(mt.pair), Array.from(plain.pair), `witness pair at shift ${shift}`);
    }
    assert.ok(overlapping >= 1 && overlapping < 3, `overlapping shifts: ${overlapping}`);
  } finally {
    a.dispose();
    b.dispose();
  }
});

test('bad input on the threaded context throws the usual errors and leaves it usable', () => {
  throwsStatus(() => mt.createMesh({ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 7] }), 'SNUG_ERR_INDEX_RANGE');
  throwsStatus(() => mt.createMesh({ positions: [0, 0, 0, 1, NaN, 0, 0, 1, 0], indices: [0, 1, 2] }), 'SNUG_ERR_NOT_FINITE');
  throwsStatus(() => mt.createMesh({ positions: [], indices: [] }), 'SNUG_ERR_EMPTY');
  const a = plain.createMesh(meshes.bunny), b = mt.createMesh(meshes.bunny);
  assert.equal(digest(b.serialize()), digest(a.serialize()));
  a.dispose();
  b.dispose();
});

test('threads must be an integer from 1 to 64; a page that is not cross-origin isolated gets a clear error', async () => {
  for (const threads of [0, 1.5, 65, '2']) {
    await assert.rejects(Snug.create({ threads }), (e) => e instanceof SnugError && e.status === 'SNUG_ERR_INVALID_ARGUMENT', String(threads));
  }
  globalThis.crossOriginIsolated = false; // what a browser page without COOP/COEP sees
  try {
    await assert.rejects(Snug.create({ threads: 2 }), (e) => e instanceof SnugError && /cross-origin isolated/.test(e.message));
  } finally {
    delete globalThis.crossOriginIsolated;
  }
});

test('a second threaded context on a module whose workers are taken fails clearly instead of waiting', async () => {
  await assert.rejects(Snug.create({ module: mt.module, threads: 2 }), (e) => e instanceof SnugError && /no free pre-started worker/.test(e.message));
  const b = mt.createMesh(meshes.bunny); // the first context is untouched
  assert.equal(b.info().triangleCount, meshes.bunny.indices.length / 3);
  b.dispose();
});

// (The timeouts below only keep a hang, the failure these tests look for, from stalling the run.)
test('dispose() destroys the pool and ends the module\'s workers', { timeout: 60000 }, async () => {
  const live = await installNodeWorker(); // the shim snug.js installed: the same set of live node workers
  const before = new Set(live);
  const s = await Snug.create({ threads: 3 });
  const mine = [...live].filter((w) => !before.has(w));
  assert.equal(mine.length, 2, 'threads - 1 workers started');
  const m = s.createMesh(meshes.bunny);
  s.dispose();
  assert.equal(m.disposed, true);
  assert.equal(s.disposed, true);
  await Promise.all(mine.map((w) => new Promise((resolve) => (live.has(w) ? w.once('exit', resolve) : resolve()))));
  for (const w of mine) assert.equal(live.has(w), false);
  throwsStatus(() => s.createMesh(meshes.bunny), 'SNUG_ERR_STALE_HANDLE');
});

test('a node process that builds with threads: 2 and disposes exits by itself', () => {
  const api = new URL('../../wasm/snug.js', import.meta.url).href;
  const script = `import { Snug } from '${api}';
    const s = await Snug.create({ threads: 2 });
    const m = s.createMesh({ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], indices: [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3] });
    console.log(m.info().triangleCount);
    s.dispose();`;
  const dir = mkdtempSync(join(tmpdir(), 'snug-threads-'));
  writeFileSync(join(dir, 'exit.mjs'), script);
  const res = spawnSync(process.execPath, [join(dir, 'exit.mjs')], { encoding: 'utf8', timeout: 60000 });
  rmSync(dir, { recursive: true, force: true });
  assert.equal(res.signal, null, `the process did not exit by itself (killed by ${res.signal}); stderr: ${res.stderr}`);
  assert.equal(res.status, 0, res.stderr);
  assert.equal(res.stdout.trim(), '4');
});

test.after(() => {
  plain.dispose();
  mt.dispose();
});
