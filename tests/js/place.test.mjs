// Placement through the JS API: surfaces round-trip, labels, bind, a pointer drag that slides a lamp on a table,
// re-seats it on a second table under the pointer and stops it at a book, a table carrying its lamp, free mode's
// candidate, push-out, the consistency check after every step, and bad input as SnugError.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Snug, SnugError, DEFAULT_LABELS, REASONS, MoveResult } from '../../wasm/snug.js';
import { wasmBinary } from './support.mjs';

const snug = await Snug.create({ wasmBinary });

// Closed boxes [x0, y0, z0, x1, y1, z1] merged, counter-clockwise outward (as tests/c/support/test_furniture.c).
function boxes(parts) {
  const idx = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3];
  const positions = [], indices = [];
  for (const [x0, y0, z0, x1, y1, z1] of parts) {
    const base = positions.length / 3;
    for (let v = 0; v < 8; v++) positions.push((v & 1) ^ ((v >> 1) & 1) ? x1 : x0, v & 2 ? y1 : y0, v & 4 ? z1 : z0);
    for (const i of idx) indices.push(base + i);
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}
const top = (kind, label, x0, x1, y, z0, z1) => ({
  kind, label, normal: [0, 1, 0], polygon: [[x0, y, z0], [x0, y, z1], [x1, y, z1], [x1, y, z0]],
});
const legs = (hx, hz, s, h) => [0, 1, 2, 3].map((i) => {
  const x = i & 1 ? hx - s : -hx, z = i & 2 ? hz - s : -hz;
  return [x, 0, z, x + s, h, z + s];
});

function furniture() {
  const floor = snug.createMesh(boxes([[-3, -0.1, -3, 3, 0, 3]]));
  floor.setSurfaces([top('offer', 'onFloor', -3, 3, 0, -3, 3)]);
  const table = snug.createMesh(boxes([[-0.8, 0.72, -0.45, 0.8, 0.78, 0.45], ...legs(0.77, 0.42, 0.06, 0.72)]));
  table.setSurfaces([top('offer', 'onWorkspace', -0.8, 0.8, 0.78, -0.45, 0.45),
    top('binding', 'onFloor', -0.77, 0.77, 0, -0.42, 0.42)]);
  const lamp = snug.createMesh(boxes([[-0.08, 0, -0.08, 0.08, 0.03, 0.08], [-0.01, 0.03, -0.01, 0.01, 0.38, 0.01],
    [-0.1, 0.38, -0.1, 0.1, 0.5, 0.1]]));
  lamp.setSurfaces([top('binding', 'onStore', -0.08, 0.08, 0, -0.08, 0.08)]);
  const book = snug.createMesh(boxes([[-0.075, 0, -0.11, 0.075, 0.03, 0.11]]));
  book.setSurfaces([top('binding', 'onStore', -0.075, 0.075, 0, -0.11, 0.11)]);
  return { floor, table, lamp, book };
}

function room() {
  const m = furniture();
  const scene = snug.createScene();
  const floor = scene.createBody({ mesh: m.floor, isStatic: true });
  const at = (mesh, x, y, z) => scene.createBody({ mesh, pose: [0, 0, 0, 1, x, y, z] });
  return { m, scene, floor, at, dispose() { scene.dispose(); for (const x of Object.values(m)) x.dispose(); } };
}

test('surfaces round-trip; labels and their order', () => {
  const { table } = furniture();
  const s = table.surfaces();
  assert.equal(s.length, 2);
  assert.equal(s[0].kind, 'offer');
  assert.equal(s[0].label, 'onWorkspace');
  assert.deepEqual(s[0].normal, [0, 1, 0]);
  assert.ok(Math.abs(s[0].polygon[2][0] - 0.8) < 1e-6);
  // a clockwise polygon is refused and the mesh keeps its surfaces
  assert.throws(() => table.setSurfaces([{ ...s[0], polygon: [...s[0].polygon].reverse() }]),
    (e) => e instanceof SnugError && e.status === 'SNUG_ERR_INVALID_ARGUMENT' && /clockwise/.test(e.message));
  assert.throws(() => table.setSurfaces([{ ...s[0], label: 'onMoon' }]), SnugError);
  assert.equal(table.surfaces().length, 2);
  const scene = snug.createScene();
  assert.deepEqual(scene.labels(), DEFAULT_LABELS);
  assert.equal(scene.labelFits('onStore', 'onWorkspace'), true);
  assert.equal(scene.labelFits('onWorkspace', 'onStore'), false);
  assert.throws(() => scene.setLabels(['a', 'b'], [['a', 'b'], ['b', 'a']]), (e) => e.status === 'SNUG_ERR_CYCLE');
  scene.setLabels(['small', 'shelf', 'desk'], [['small', 'shelf'], ['shelf', 'desk']]);
  assert.equal(scene.labelFits('small', 'desk'), true);
  scene.setPlaceDef({ overhang: 0.1 });
  assert.ok(Math.abs(scene.placeDef().overhang - 0.1) < 1e-7);
  assert.throws(() => scene.setPlaceDef({ skin: -1 }), SnugError);
  scene.dispose();
  table.dispose();
});

test('a pointer drag slides the lamp on its table, re-seats it on another and stops it at a book', () => {
  const r = room();
  const t1 = r.at(r.m.table, -1, 0.2, 0), t2 = r.at(r.m.table, 1, 0.2, 0);
  t1.bind(1, r.floor, 0);
  t2.bind(1, r.floor, 0);
  const lamp = r.at(r.m.lamp, -1, 1, 0);
  lamp.bind(0, t1, 0);
  assert.deepEqual(r.scene.check(), []);
  assert.equal(lamp.parent, t1);
  // the pointer from above the table: the shade's centre (grab) follows the ray on the top's plane
  const grab = [0, 0.44, 0];
  const over = (x, z) => ({ ray: { origin: [x, 3, z], dir: [0, -1, 0] }, grab });
  let res = lamp.move(over(-1.2, 0.1));
  assert.ok(res instanceof MoveResult);
  assert.ok(Math.abs(res.pose[4] + 1.2) < 1e-4 && Math.abs(res.pose[6] - 0.1) < 1e-4, `${res.pose}`);
  assert.equal(res.bindings[0].supporter, t1);
  assert.equal(res.allowedAxes, 2);
  // beyond the edge: contained
  res = lamp.move(over(-1.95, 0.1));
  assert.ok(res.has('contained'), res.reasons.join());
  assert.ok(res.pose[4] >= -1.8 + 0.08 - 0.05 * 0.08 * Math.SQRT2 - 1e-5, `${res.pose[4]}`);
  // over the second table: re-seated in one gesture
  res = lamp.move(over(1.1, 0));
  assert.ok(res.has('reseated'), res.reasons.join());
  assert.equal(res.bindings[0].supporter, t2);
  assert.equal(lamp.parent, t2);
  assert.deepEqual(r.scene.check(), []);
  // a book in the way on the second table
  const book = r.at(r.m.book, 1.4, 1, 0);
  book.bind(0, t2, 0);
  for (let x = 1.1; x <= 1.6; x += 0.02) {
    res = lamp.move(over(x, 0));
    assert.deepEqual(r.scene.check(), [], `at ${x}`);
  }
  assert.ok(res.has('blocked'), res.reasons.join());
  assert.equal(res.blockers[0].body, book);
  assert.ok(res.pose[4] < 1.4 - 0.075 - 0.08 + 1e-4);
  // the table carries the lamp and the book
  const before = lamp.getPose();
  t2.move({ target: [0, 0, 0, 1, 1, 0, 0.5] });
  const after = lamp.getPose();
  assert.ok(Math.abs(after[6] - before[6] - 0.5) < 1e-5);
  assert.deepEqual(r.scene.check(), []);
  r.dispose();
});

test('turns about the allowed axis in angle steps; free mode reports the seat it would take', () => {
  const r = room();
  const table = r.at(r.m.table, 0, 0, 0);
  table.bind(1, r.floor, 0);
  const lamp = r.at(r.m.lamp, 0, 1, 0);
  lamp.bind(0, table, 0);
  const res = lamp.move({ turn: 0.1, angleStep: Math.PI / 12 });
  const yaw = 2 * Math.atan2(res.pose[1], res.pose[3]);
  assert.ok(Math.abs(yaw - Math.PI / 12) < 1e-5, `yaw ${yaw}`);
  assert.deepEqual(Array.from(res.turnAxis), [0, 1, 0]);
  // free mode: the lamp leaves its binding and follows the pointer's plane; the seat it would take is reported
  const free = lamp.move({ mode: 'free', target: [0, 0, 0, 1, 0.3, 1.0, 0] });
  assert.equal(free.bindings.length, 0);
  assert.ok(free.candidate && free.candidate.supporter === table, 'candidate on the table');
  assert.ok(Math.abs(free.candidate.pose[5] - 0.78) < 1e-5);
  assert.equal(lamp.parent, null);
  lamp.bind(free.candidate.binding, free.candidate.supporter, free.candidate.offer);
  assert.deepEqual(r.scene.check(), []);
  r.dispose();
});

test('push-out frees an overlapping book; bad input is a SnugError and changes nothing', () => {
  const r = room();
  const table = r.at(r.m.table, 0, 0, 0);
  table.bind(1, r.floor, 0);
  const a = r.at(r.m.book, 0, 0.5, 0), b = r.at(r.m.book, 0.1, 0.5, 0);
  assert.equal(r.scene.check().filter((v) => v.kind === 'overlap').length, 1);
  const p = b.pushOut();
  assert.ok(p.moved);
  assert.deepEqual(r.scene.check(), []);
  const before = Array.from(table.getPose());
  assert.throws(() => table.move({ target: [0, 0, 0, 1, NaN, 0, 0] }), (e) => e.status === 'SNUG_ERR_NOT_FINITE');
  assert.throws(() => table.move({ mode: 'sideways' }), SnugError);
  assert.throws(() => table.move({ ray: { origin: [0, 1, 0], dir: [0, 0, 0] } }), SnugError);
  assert.deepEqual(Array.from(table.getPose()), before);
  a.dispose();
  assert.throws(() => a.move({}), (e) => e.status === 'SNUG_ERR_STALE_HANDLE');
  assert.equal(REASONS.length, 9);
  r.dispose();
});

test('placement II: groups, gravity, insert, delete, undo by snapshot, scene files', () => {
  const r = room();
  const table = r.at(r.m.table, 0, 0.3, 0);
  assert.equal(table.drop().outcome, 'landed');
  assert.equal(table.bindings()[0].supporter, r.floor);
  const lamp = r.at(r.m.lamp, 0.3, 1.4, 0.1);
  const drop = lamp.drop();
  assert.equal(drop.outcome, 'landed');
  assert.equal(drop.landed.supporter, table);
  assert.deepEqual(table.dependents(), [lamp]);
  assert.deepEqual(lamp.supporters(), [table]);
  assert.deepEqual(table.group(), [table, lamp]);
  const undo = r.scene.snapshot();
  // insert a book by pointing at the lamp's base on the table: it goes next to the lamp, never into it
  const { body: book, binding } = r.scene.insert({ mesh: r.m.book, ray: { origin: [0.3, 3, 0.1], dir: [0, -1, 0] } });
  assert.equal(binding.supporter, table);
  assert.deepEqual(r.scene.check(), []);
  // a scene file round trip, byte for byte, into a second scene
  const file = r.scene.save();
  const other = snug.createScene();
  const loaded = other.load(file);
  assert.equal(loaded.bodies.length, 4);
  assert.deepEqual(Array.from(other.save()), Array.from(file));
  assert.deepEqual(other.check(), []);
  assert.throws(() => other.load(file.slice(0, file.length - 1)), (e) => e.status === 'SNUG_ERR_BLOB_TRUNCATED');
  const bad = file.slice();
  bad[bad.length >> 1] ^= 1;
  assert.throws(() => other.load(bad), (e) => e.status === 'SNUG_ERR_BLOB_CORRUPT');
  assert.equal(other.bodies.length, 4);
  for (const m of loaded.meshes) m.dispose; // the file's meshes belong to the context (disposed with it)
  other.dispose();
  // delete the table, dropping what stands on it: the lamp and the book find no compatible offer below and go too
  const gone = r.scene.delete(table, 'drop');
  assert.deepEqual(gone.map((b) => b.disposed), [true, true, true]);
  assert.equal(gone[0], table);
  assert.deepEqual(r.scene.check(), []);
  // undo: the same Body objects come back with their bindings
  r.scene.restore(undo);
  assert.equal(table.disposed, false);
  assert.equal(lamp.bindings()[0].supporter, table);
  assert.equal(book.disposed, true); // inserted after the snapshot
  assert.deepEqual(r.scene.check(), []);
  r.dispose();
});

test('body keys (the core\'s user data) name bodies again after a scene file is loaded; bad keys are refused', () => {
  const r = room();
  const table = r.scene.createBody({ mesh: r.m.table, pose: [0, 0, 0, 1, 0, 0.3, 0], key: 7 });
  table.drop();
  const { body: book } = r.scene.insert({ mesh: r.m.book, ray: { origin: [0.4, 3, 0], dir: [0, -1, 0] }, key: 2 ** 53 - 1 });
  const big = r.scene.createBody({ mesh: r.m.lamp, pose: [0, 0, 0, 1, -2, 0.5, -2], key: (1n << 64n) - 1n });
  assert.deepEqual([r.floor, table, book, big].map((b) => b.info().key), [0, 7, 2 ** 53 - 1, (1n << 64n) - 1n]);
  const keys = (bodies) => bodies.map((b) => b.info().key);
  const before = keys(r.scene.bodies);
  const loaded = r.scene.load(r.scene.save());
  assert.deepEqual(keys(loaded.bodies).sort(), [...before].sort(), 'the loaded bodies carry the keys');
  const loadedTable = loaded.bodies.find((b) => b.info().key === 7);
  assert.equal(loadedTable.bindings()[0].supporter.info().key, 0, 'and their bindings with them');
  const snap = r.scene.snapshot();
  loadedTable.dispose();
  r.scene.restore(snap);
  assert.equal(loadedTable.info().key, 7, 'a snapshot keeps them');
  for (const bad of [-1, 1.5, 2 ** 53, NaN, '3', 1n << 64n]) {
    assert.throws(() => r.scene.createBody({ mesh: r.m.book, key: bad }), SnugError, String(bad));
    assert.throws(() => r.scene.insert({ mesh: r.m.book, ray: { origin: [0.4, 3, 0], dir: [0, -1, 0] }, key: bad }), SnugError);
  }
  assert.equal(r.scene.bodies.length, 4, 'nothing was made');
  for (const m of loaded.meshes) m.dispose();
  r.dispose();
});

test('the warm-up reaches the gestures it is for and leaves nothing behind', () => {
  const s = new Set(snug.warmUp().reasons);
  for (const reason of ['blocked', 'turn-blocked', 'snapped', 'reseated', 'contained', 'constrained']) {
    assert.ok(s.has(reason), `the warm-up met no move reported '${reason}'`);
  }
  const bytes = snug.allocatedBytes(), meshes = snug._meshes.size, scenes = snug._scenes.size;
  const { moves } = snug.warmUp();
  assert.ok(moves >= 30, `${moves} moves`);
  assert.equal(snug.allocatedBytes(), bytes, 'the core frees what the warm-up allocated');
  assert.equal(snug._meshes.size, meshes);
  assert.equal(snug._scenes.size, scenes);
});
