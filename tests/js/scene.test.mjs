// Scenes through the JS API: bodies, hierarchy (world poses follow parents; cycles rejected), broad-phase pairs
// and boxes against brute force over world boxes, scene rays against per-mesh rays, the collision step, stale
// handles, handles' isValid().
import test from 'node:test';
import assert from 'node:assert/strict';
import { Snug, SnugError, pose } from '../../wasm/snug.js';
import { wasmBinary, seed, scale, rng, sphere, randomPose } from './support.mjs';

const snug = await Snug.create({ wasmBinary });
const msg = `seed ${seed}`;
const staleErr = (e) => e instanceof SnugError && e.status === 'SNUG_ERR_STALE_HANDLE';

test('bodies, hierarchy and poses', () => {
  const mesh = snug.createMesh(sphere(0.5, 8, 8));
  const scene = snug.createScene();
  const parent = scene.createBody({ mesh, pose: pose([0, 0, 0, 1], [1, 0, 0]) });
  const child = scene.createBody({ mesh, parent, pose: pose([0, 0, 0, 1], [0, 2, 0]) });
  assert.deepEqual(Array.from(child.getPose()), [0, 0, 0, 1, 1, 2, 0], 'child world = parent * local');
  assert.equal(child.parent, parent);
  assert.equal(parent.info().childCount, 1);
  parent.setPose(pose([0, 0, Math.SQRT1_2, Math.SQRT1_2], [5, 0, 0])); // 90 degrees about z
  const w = child.getPose();
  assert.ok(Math.abs(w[4] - 3) < 1e-5 && Math.abs(w[5]) < 1e-5, `child follows its parent: ${Array.from(w)}`);
  assert.deepEqual(Array.from(child.getLocalPose()).slice(4), [0, 2, 0]);
  assert.throws(() => parent.setParent(child), (e) => e.status === 'SNUG_ERR_CYCLE');
  child.setParent(null, true);
  assert.equal(child.parent, null);
  assert.ok(Math.abs(child.getPose()[4] - 3) < 1e-5, 'keepWorld keeps the world pose');
  const info = child.info();
  assert.ok(info.aabbMin[0] < 3 && info.aabbMax[0] > 3);
  child.setFilter(2, 0xffff);
  assert.equal(child.info().layer, 2);
  child.setStatic(true);
  assert.equal(child.info().isStatic, true);
  child.setEnabled(false);
  assert.equal(child.info().enabled, false);
  child.dispose();
  assert.throws(() => child.getPose(), staleErr);
  assert.throws(() => scene.createBody({ mesh, parent: child }), staleErr);
  const other = snug.createScene();
  assert.throws(() => other.createBody({ mesh, parent }), staleErr);
  assert.throws(() => parent.setPose([0, 0, 0, 1, NaN, 0, 0]), (e) => e.status === 'SNUG_ERR_NOT_FINITE');
  other.dispose();
  scene.dispose();
  assert.throws(() => parent.getPose(), staleErr);
  assert.throws(() => scene.createBody({ mesh }), staleErr);
  mesh.dispose();
});

test('broad-phase pairs and box queries against brute force over world boxes', () => {
  const r = rng(seed + 7);
  const mesh = snug.createMesh(sphere(0.3, 6, 8));
  const scene = snug.createScene();
  const n = 60 * scale;
  const bodies = [];
  for (let i = 0; i < n; i++) bodies.push(scene.createBody({ mesh, pose: randomPose(r, 3) }));
  const boxes = bodies.map((b) => b.info());
  const key = (a, b) => (a.handle < b.handle ? `${a.handle}:${b.handle}` : `${b.handle}:${a.handle}`);
  const meet = (p, q) => [0, 1, 2].every((k) => p.aabbMin[k] <= q.aabbMax[k] && q.aabbMin[k] <= p.aabbMax[k]);
  const expected = new Set();
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (meet(boxes[i], boxes[j])) expected.add(key(bodies[i], bodies[j]));
  const got = new Set(scene.pairs().map(([a, b]) => key(a, b)));
  assert.deepEqual([...got].sort(), [...expected].sort(), msg);
  const q = { aabbMin: [-1, -1, -1], aabbMax: [1, 1, 1] };
  const inBox = new Set(bodies.filter((_, i) => meet(boxes[i], q)));
  assert.deepEqual(new Set(scene.queryBox(q.aabbMin, q.aabbMax)), inBox);
  scene.dispose();
  mesh.dispose();
});

test('scene raycast equals the closest per-body raycast', () => {
  const r = rng(seed + 8);
  const mesh = snug.createMesh(sphere(0.4, 10, 12));
  const scene = snug.createScene();
  const bodies = [];
  for (let i = 0; i < 20; i++) bodies.push(scene.createBody({ mesh, pose: randomPose(r, 3) }));
  let hits = 0, misses = 0;
  for (let i = 0; i < 50 * scale; i++) {
    const o = [(2 * r() - 1) * 5, (2 * r() - 1) * 5, (2 * r() - 1) * 5];
    const d = [-o[0] + r() - 0.5, -o[1] + r() - 0.5, -o[2] + r() - 0.5];
    let best = null;
    for (const b of bodies) {
      const h = snug.raycast(mesh, b.getPose(), o, d);
      if (h && (!best || h.t < best.t)) best = { t: h.t, body: b };
    }
    const hit = scene.raycast(o, d);
    if (best === null) {
      misses++;
      assert.equal(hit, null, `ray ${i} (${msg})`);
    } else {
      hits++;
      assert.equal(hit?.body, best.body, `ray ${i} (${msg})`);
      assert.ok(Math.abs(hit.t - best.t) < 1e-5);
    }
  }
  assert.ok(hits > 0 && misses > 0, `${hits} hits, ${misses} misses`);
  scene.dispose();
  mesh.dispose();
});

test('collision step: a registered motion into another body is detected and committed', () => {
  const mesh = snug.createMesh(sphere(0.5, 12, 16));
  const scene = snug.createScene();
  const a = scene.createBody({ mesh, pose: pose([0, 0, 0, 1], [0, 0, 0]) });
  const wall = scene.createBody({ mesh, pose: pose([0, 0, 0, 1], [3, 0, 0]), isStatic: true });
  scene.stepBegin();
  scene.stepMove(a, pose([0, 0, 0, 1], [2.5, 0, 0]));
  const [c] = scene.stepDetect({ mode: 'static' });
  assert.equal(c.group, a);
  assert.equal(c.hit, true);
  assert.throws(() => scene.stepPairs(), (e) => e.status === 'SNUG_ERR_INVALID_ARGUMENT', 'pairs not collected');
  const [again] = scene.stepDetect({ mode: 'static', collectPairs: true });
  assert.equal(again.hit, true);
  const pairs = scene.stepPairs();
  assert.equal(pairs.length, 1);
  assert.deepEqual(new Set(pairs[0]), new Set([a, wall]));
  scene.stepBegin();
  scene.stepMove(a, pose([0, 0, 0, 1], [1, 0, 0]));
  const [free] = scene.stepDetect({ mode: 'static' });
  assert.equal(free.hit, false);
  scene.stepCommit(a, 1);
  assert.ok(Math.abs(a.getPose()[4] - 1) < 1e-6);
  assert.throws(() => scene.stepDetect({ mode: 'sideways' }), (e) => e.status === 'SNUG_ERR_INVALID_ARGUMENT');
  const st = scene.stepStats();
  assert.equal(st.groups, 1);
  assert.equal(st.movedBodies, 1);
  scene.dispose();
  mesh.dispose();
});

test('1e5 body create/dispose cycles and 1e3 scene cycles: no memory growth', () => {
  const mesh = snug.createMesh(sphere(0.5, 6, 6));
  const scene = snug.createScene();
  const keep = scene.createBody({ mesh });
  for (let i = 0; i < 1000; i++) scene.createBody({ mesh, parent: keep }).dispose();
  const bytes = snug.allocatedBytes(), heap = snug.heapBytes;
  for (let i = 0; i < 100000; i++) scene.createBody({ mesh, parent: i & 1 ? keep : null }).dispose();
  assert.equal(snug.allocatedBytes(), bytes);
  assert.equal(snug.heapBytes, heap);
  assert.equal(scene.bodies.length, 1);
  for (let i = 0; i < 1000; i++) { const s = snug.createScene(); s.createBody({ mesh }); s.dispose(); }
  assert.equal(snug.allocatedBytes(), bytes);
  scene.dispose();
  mesh.dispose();
});

test('isValid follows the lifetimes of meshes, scenes, bodies and their context', async () => {
  const own = await Snug.create({ wasmBinary });
  const mesh = own.createMesh(sphere(0.5, 6, 6));
  const scene = own.createScene();
  const a = scene.createBody({ mesh }), b = scene.createBody({ mesh, parent: a });
  assert.deepEqual([mesh.isValid(), scene.isValid(), a.isValid(), b.isValid()], [true, true, true, true]);
  b.dispose();
  assert.deepEqual([a.isValid(), b.isValid()], [true, false]);
  mesh.dispose();
  assert.deepEqual([mesh.isValid(), a.isValid()], [false, true], 'a body outlives its mesh');
  const second = own.createScene();
  const c = second.createBody({ mesh: own.createMesh(sphere(0.5, 6, 6)) });
  scene.dispose();
  assert.deepEqual([scene.isValid(), a.isValid(), second.isValid(), c.isValid()], [false, false, true, true]);
  own.dispose();
  assert.deepEqual([second.isValid(), c.isValid()], [false, false]);
});
