// The plain module against the tools module (Snug.create({ tools: true })): the research variants (builders, the
// DAASD time of impact) are only in the tools module (the research library); the plain one refuses them with a clear
// error and changes nothing, and still loads the blob of a hierarchy they built, which answers as it does there.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Snug, SnugError, SPLITTERS } from '../../wasm/snug.js';
import { wasmBinary, sphere } from './support.mjs';

const plain = await Snug.create({ wasmBinary });
const tools = await Snug.create({ tools: true });
const PRODUCT = ['median', 'sah', 'gottschalk'];
const RESEARCH = ['zachmann', 'kcenter', 'kmeans', 'greedy', 'branch-bound'];
const NAMES = { zachmann: 'Zachmann', kcenter: 'k-center', kmeans: 'k-means', greedy: 'greedy', 'branch-bound': 'branch-and-bound' };

test('every splitter is either a product or a research one', () => {
  assert.deepEqual([...PRODUCT, ...RESEARCH].sort(), [...SPLITTERS].sort());
});

test('the plain module builds the product splitters and refuses the research variants, changing nothing', () => {
  const s = sphere(1, 12, 16);
  for (const splitter of PRODUCT) plain.createMesh({ ...s, bvh: { splitter, branching: 4 } }).dispose();
  const before = plain.allocatedBytes();
  for (const splitter of RESEARCH) {
    assert.throws(() => plain.createMesh({ ...s, bvh: { splitter } }), (e) => e instanceof SnugError &&
      e.status === 'SNUG_ERR_INVALID_ARGUMENT' && e.message.includes(`the ${NAMES[splitter]} splitter is a research variant, not in this build`), splitter);
  }
  assert.throws(() => plain.createMesh({ ...s, bvh: { bottomUp: true } }),
    (e) => e.status === 'SNUG_ERR_INVALID_ARGUMENT' && /the bottom-up builder is a research variant/.test(e.message));
  assert.equal(plain.allocatedBytes(), before, 'a refused build leaves nothing allocated');
});

test('the tools module builds every variant; the plain module loads their blobs and answers the same', () => {
  const s = sphere(1, 12, 16);
  const defs = [...RESEARCH.map((splitter) => ({ splitter, branching: 0 })), { bottomUp: true, bvType: 'sphere' }];
  for (const bvh of defs) {
    const built = tools.createMesh({ ...s, bvh });
    const loaded = plain.meshFromBlob(built.serialize());
    const a = built.info(), b = loaded.info();
    for (const k of ['triangleCount', 'nodeCount', 'leafCount', 'depth', 'bvType']) assert.equal(b[k], a[k], `${JSON.stringify(bvh)}: ${k}`);
    for (const [o, d] of [[[0, 0.1, 3], [0, 0, -1]], [[2, 0.3, 0.2], [-1, 0, 0]], [[0, -3, 0.5], [0, 1, 0]]]) {
      const h1 = tools.raycast(built, null, o, d), t1 = h1 && h1.t;
      const h2 = plain.raycast(loaded, null, o, d);
      assert.equal(h2 && h2.t, t1, `${JSON.stringify(bvh)}: ray from ${o}`);
    }
    built.dispose();
    loaded.dispose();
  }
});

test('the DAASD time of impact is a research variant too: refused by the plain module, run by the tools one', () => {
  const s = sphere(0.5, 10, 12);
  const motion = { start: [0, 0, 0, 1, 3, 0, 0], end: [0, 0, 0, 1, -3, 0, 0] };
  const still = [0, 0, 0, 1, 0, 0, 0];
  const a = plain.createMesh(s), b = tools.createMesh(s);
  assert.equal(plain.toi(a, motion, a, still).hit, true, 'the product modes run');
  assert.throws(() => plain.toi(a, motion, a, still, { mode: 'daasd' }), (e) => e instanceof SnugError &&
    e.status === 'SNUG_ERR_INVALID_ARGUMENT' && /the DAASD mode is a research variant, not in this build/.test(e.message));
  const dynamic = tools.toi(b, motion, b, still, { mode: 'dynamic' }).t;
  const daasd = tools.toi(b, motion, b, still, { mode: 'daasd' });
  assert.equal(daasd.hit, true);
  assert.ok(Math.abs(daasd.t - dynamic) < 0.02, `DAASD t ${daasd.t}, dynamic ${dynamic}`);
  a.dispose();
  b.dispose();
});

test('the tools module runs one thread', async () => {
  await assert.rejects(Snug.create({ tools: true, threads: 2 }),
    (e) => e instanceof SnugError && e.status === 'SNUG_ERR_INVALID_ARGUMENT' && /one thread/.test(e.message));
});
