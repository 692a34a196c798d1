// Hierarchy builds through the JS API: the threaded module at 2 threads next to the plain module at 1 thread, in one
// process on the same arrays. Each call is createMesh + dispose, as the C program's build rows time
// snug_mesh_create + destroy; the JS path also copies the arrays into wasm memory
// (15 MB at 871k), which is why the 1-thread row here is printed too and not only the C program's.
// Answer check: the 2-thread tree must serialize to the 1-thread bytes, else the row's status is "wrong".
// Run by tests/bench/run.mjs (task "snug wasm threads build"); prints ROW lines.
import { createHash } from 'node:crypto';
import { Snug } from '../../wasm/snug.js';
import { loadBin, measure, row } from './common.mjs';

// The default tree of the big dragons and the OBB Gottschalk tree of the 48k one (issue 2's two build targets).
const OBB = { bvType: 'obb', splitter: 'gottschalk' };
const CASES = [['dragon203k', 'AABB SAH'], ['dragon871k', 'AABB SAH'], ['dragon48k', 'OBB Gottschalk', OBB]]
  .filter(([name]) => !process.argv.slice(2).length || process.argv.slice(2).includes(name));
const THREADS = 2;
const hash = (bytes) => createHash('sha256').update(bytes).digest('hex');

const plain = await Snug.create();
const mt = await Snug.create({ threads: THREADS });
for (const [name, variant, bvh] of CASES) {
  const { positions, indices, triangleCount } = loadBin(name);
  const def = bvh ? { positions, indices, bvh } : { positions, indices };
  const big = triangleCount > 300000;
  const blob = (snug) => { const m = snug.createMesh(def); const b = m.serialize(); m.dispose(); return hash(b); };
  const same = blob(plain) === blob(mt);
  // Alternate the two so that a change in machine load hits both alike.
  const results = {};
  for (const [label, snug] of [['1', plain], [String(THREADS), mt], ['1b', plain], [`${THREADS}b`, mt]]) {
    results[label] = measure(() => snug.createMesh(def).dispose(), big ? 3 : 5, big ? 2000 : 500);
  }
  const best = (a, b) => (a.med <= b.med ? a : b);
  const note = (n) => `JS API createMesh + dispose (copies the arrays in), ${n}; median of the better of two alternated runs`;
  row('build', name, `snug wasm JS 1 thread ${variant}`, best(results['1'], results['1b']), 'ok', { note: note('plain module') });
  row('build', name, `snug wasm ${THREADS} threads ${variant}`, best(results[String(THREADS)], results[`${THREADS}b`]), same ? 'ok' : 'wrong',
    { note: note(`threaded module, ${THREADS} threads`), check: same ? 'same bytes as 1 thread' : 'tree differs from 1 thread' });
}
mt.dispose();
plain.dispose();
