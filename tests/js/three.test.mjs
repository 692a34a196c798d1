// The three.js layer (web/snug-three.js, web/helpers.js) in node: meshes from BufferGeometry (indexed or not,
// scaled), surfaces in a scaled mesh's frame, Object3D <-> body poses with parents both ways, and drags through the
// core's mover on the furniture catalog: every Object3D shows its body's pose after each event (the carried ones
// too), the feedback names Object3Ds, a free drag drops onto its candidate, cancel and restore give back poses and
// bindings bit for bit (a bookcase against a wall included), and the helpers' buffers.
import test from 'node:test';
import assert from 'node:assert/strict';
import { BoxGeometry, Group, Mesh, Matrix4, Quaternion, Ray, Vector3 } from 'three';
import { Snug, pose as pose7 } from '../../wasm/snug.js';
import { geometryArrays, meshFromGeometry, poseFromMatrix, matrixFromPose, scaleSurfaces, SnugSync, SnugDrag } from '../../web/snug-three.js';
import { ContactHelper, SurfaceHelper, TriangleHelper, hierarchyBoxes } from '../../web/helpers.js';
import { catalogItems } from '../../web/catalog/furniture.js';
import { wasmBinary, seed, rng } from './support.mjs';

globalThis.performance ??= { now: () => Date.now() };
const snug = await Snug.create({ wasmBinary });
const near = (a, b, eps = 1e-5) => Math.abs(a - b) <= eps;

test('meshFromGeometry: indexed and non-indexed, with scale', () => {
  const g = new BoxGeometry(1, 1, 1);
  for (const geom of [g, g.toNonIndexed()]) {
    const m = meshFromGeometry(snug, geom, { scale: [2, 1, 3] });
    const info = m.info();
    assert.equal(info.triangleCount, 12);
    assert.deepEqual(info.aabbMin, [-1, -0.5, -1.5]);
    assert.deepEqual(info.aabbMax, [1, 0.5, 1.5]);
    m.dispose();
  }
  const { indices } = geometryArrays(g.toNonIndexed());
  assert.equal(indices, null);
  const welded = meshFromGeometry(snug, g.toNonIndexed(), { weld: true });
  assert.equal(welded.info().closed, true, 'welding closes the non-indexed box');
  welded.dispose();
});

test('poseFromMatrix drops scale; matrixFromPose inverts it', () => {
  const r = rng(seed);
  for (let i = 0; i < 50; i++) {
    const q = new Quaternion(r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5).normalize();
    const p = new Vector3(r() * 4 - 2, r() * 4 - 2, r() * 4 - 2);
    const m = new Matrix4().compose(p, q, new Vector3(2, 3, 0.5));
    const pose = poseFromMatrix(m);
    assert.ok(near(Math.hypot(pose[0], pose[1], pose[2], pose[3]), 1));
    assert.ok(near(pose[4], p.x) && near(pose[5], p.y) && near(pose[6], p.z));
    const back = matrixFromPose(pose, new Vector3(2, 3, 0.5));
    back.elements.forEach((v, k) => assert.ok(near(v, m.elements[k], 1e-4), `element ${k}`));
  }
});

function boxes() {
  const root = new Group();
  const parent = new Mesh(new BoxGeometry(1, 1, 1));
  parent.position.set(1, 0.5, 0);
  parent.rotation.y = 0.3;
  const child = new Mesh(new BoxGeometry(0.2, 0.2, 0.2));
  child.position.set(0, 0.6, 0.2);
  parent.add(child);
  const wall = new Mesh(new BoxGeometry(0.2, 2, 6));
  wall.position.set(4, 1, 0);
  root.add(parent, wall);
  root.updateMatrixWorld(true);
  const sync = new SnugSync(snug);
  return { root, parent, child, wall, sync, ep: sync.add(parent), ec: sync.add(child), ew: sync.add(wall, { isStatic: true }) };
}

test('SnugSync: bodies mirror the three.js parents; poses go both ways and children follow', () => {
  const { parent, child, sync, ep, ec } = boxes();
  const check = () => {
    const expected = poseFromMatrix(child.matrixWorld);
    const core = ec.body.getPose();
    expected.forEach((v, k) => assert.ok(near(Math.abs(v), Math.abs(core[k]), 1e-4), `body pose ${k}: ${v} vs ${core[k]}`));
  };
  check();
  assert.equal(ec.body.parent, ep.body);
  // three.js -> core: an object placed through the sync; the child's body moves along in the core.
  sync.setWorldPose(parent, poseFromMatrix(new Matrix4().compose(new Vector3(-2, 0.5, 1), new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 1.2), new Vector3(1, 1, 1))));
  check();
  // The app moved an object: pull reads it.
  parent.position.x += 0.5;
  parent.updateMatrixWorld(true);
  sync.pull();
  check();
  // core -> three.js: a body moved in the core, push shows it.
  ep.body.setPose(pose7([0, 0, 0, 1], [0.25, 0.5, -1]));
  sync.push();
  const wp = parent.getWorldPosition(new Vector3());
  assert.ok(near(wp.x, 0.25) && near(wp.y, 0.5) && near(wp.z, -1), `parent at ${wp.toArray()}`);
  check();
  assert.equal(sync.entryOf(ec.body), ec);
  assert.equal(sync.entries.length, 3);
  sync.remove(child);
  assert.equal(sync.entries.length, 2);
  sync.dispose();
});

test('surfaces go into the frame of a scaled mesh: vertices scaled, normals by the inverse, a mirror reversed', () => {
  const s = [{ kind: 'offer', label: 'onStore', normal: [0, 1, 0], polygon: [[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 0, 0]] },
    { kind: 'binding', label: 'onStore', normal: [0.6, 0.8, 0], polygon: [[0, 0, 0], [-4, 3, 0], [-4, 3, 1]] }];
  const [a, b] = scaleSurfaces(s, [2, 1, 3]);
  assert.deepEqual(a.polygon, [[0, 0, 0], [0, 0, 3], [2, 0, 3], [2, 0, 0]]);
  const n = [0.3, 0.8, 0].map((x) => x / Math.hypot(0.3, 0.8));
  b.normal.forEach((x, k) => assert.ok(near(x, n[k], 1e-12)));
  const mirrored = scaleSurfaces(s, [-1, 1, 1])[0].polygon.map((p) => p.map((x) => x + 0)); // (-0 + 0 is 0)
  assert.deepEqual(mirrored, [[-1, 0, 0], [-1, 0, 1], [0, 0, 1], [0, 0, 0]], 'mirrored and reversed: still counter-clockwise');
  // Set through SnugSync.add on a scaled object: the core holds them scaled (and accepts them).
  const sync = new SnugSync(snug);
  const slab = new Mesh(new BoxGeometry(1, 0.1, 1).translate(0.5, -0.05, 0.5));
  slab.scale.set(2, 1, 3);
  const e = sync.add(slab, { surfaces: [s[0]] });
  assert.deepEqual(e.mesh.surfaces()[0].polygon, [[0, 0, 0], [0, 0, 3], [2, 0, 3], [2, 0, 0]]);
  sync.dispose();
});

// A room of the catalog's furniture with its authored surfaces: a floor, a wall, two tables, a lamp on the first,
// a chair in front of it, a bookcase against the wall with books on a board. Objects are flat in three.js (children
// of one root), the core's hierarchy follows what rests on what.
function catalogRoom() {
  const items = Object.fromEntries(catalogItems().map((it) => [it.id, it]));
  const root = new Group();
  const sync = new SnugSync(snug);
  const add = (id, x, y, z, turn = 0, options) => {
    const made = items[id].make(options);
    const o = new Mesh(made.geometry);
    o.name = id;
    o.position.set(x, y, z);
    o.rotation.y = turn;
    root.add(o);
    root.updateMatrixWorld(true);
    return sync.add(o, { surfaces: made.surfaces, upright: made.upright, isStatic: id === 'floor' || id === 'wall' });
  };
  const index = (e, kind, label, nth = 0) => {
    const list = e.mesh.surfaces().map((s, i) => [s, i]).filter(([s]) => s.kind === kind && s.label === label);
    return list[nth][1];
  };
  const bind = (e, label, on, offerLabel, nth = 0) => e.body.bind(index(e, 'binding', label), on.body, index(on, 'offer', offerLabel, nth));
  const floor = add('floor', 0, 0, 0, 0, { width: 8, depth: 6 });
  const wall = add('wall', 0, 0, -3.06, 0, { width: 8, height: 2.6, thickness: 0.12 });
  const t1 = add('table', -1, 0, 0), t2 = add('table', 1.2, 0, 0);
  const lamp = add('lamp', -1.2, 0.75, 0.1);
  const chair = add('chair', -1, 0, 0.725, Math.PI);
  const bookcase = add('bookcase', 2.5, 0, -2.8);
  const books = add('books', 2.5, 0.47, -2.725);
  // What rests on a body first (an unbound touch counts as an overlap), the bookcase off the wall until it binds.
  bind(lamp, 'onStore', t1, 'onWorkspace');
  bind(books, 'onStore', bookcase, 'onStore', 1);
  for (const t of [t1, t2]) bind(t, 'onFloor', floor, 'onFloor');
  bind(chair, 'onFloor', floor, 'onFloor');
  bind(chair, 'inFrontOfTable', t1, 'inFrontOfTable');
  bind(bookcase, 'onFloor', floor, 'onFloor');
  bind(bookcase, 'onWall', wall, 'onWall');
  sync.push();
  return { root, sync, floor, wall, t1, t2, lamp, chair, bookcase, books, index };
}

// Every Object3D shows its body's world pose.
function assertInStep(sync) {
  for (const e of sync.entries) {
    const shown = poseFromMatrix(e.object.matrixWorld), core = e.body.getPose();
    const sign = Math.sign(shown[3] * core[3] + shown[0] * core[0] + shown[1] * core[1] + shown[2] * core[2]) || 1;
    shown.forEach((v, k) => assert.ok(near(v, k < 4 ? sign * core[k] : core[k], 2e-6), `${e.label} pose ${k}: shows ${v}, core ${core[k]}`));
  }
}

const down = (x, z) => new Ray(new Vector3(x, 3, z), new Vector3(0, -1, 0));

test('SnugDrag: a lamp slides on its table, stops at the edge, re-seats on the other table; the Object3D follows', () => {
  const r = catalogRoom();
  assert.deepEqual(r.sync.scene.check(), []);
  assert.equal(r.lamp.body.parent, r.t1.body, 'the core made the lamp the table\'s child');
  assert.equal(r.lamp.object.parent, r.root, 'three.js keeps the app\'s graph');
  const drag = new SnugDrag(r.sync, r.lamp.object, new Vector3(-1.15, 1.2, 0.15)); // grabbed at the shade
  assert.deepEqual(drag.grab.map((x) => Math.round(x * 1e6) / 1e6), [0.05, 0.45, 0.05], 'the grab point in the lamp\'s frame');
  // The pointer from a camera above and in front, aimed at (-1.0, 1.2, 0.2): the grabbed point follows it.
  const camera = new Vector3(0.6, 5.4, 7.6);
  let f = drag.move(new Ray(camera, new Vector3(-1.0, 1.2, 0.2).sub(camera).normalize()));
  assertInStep(r.sync);
  assert.equal(f.rests[0].object, r.t1.object);
  assert.equal(f.allowedAxes, 2);
  assert.deepEqual(f.turnAxis, [0, 1, 0]);
  assert.ok(drag.coreMs >= 0);
  const grabbed = new Vector3().fromArray(drag.grab).applyMatrix4(r.lamp.object.matrixWorld);
  assert.ok(grabbed.distanceTo(new Vector3(-1.0, 1.2, 0.2)) < 1e-4, `the grabbed point is under the pointer: ${grabbed.toArray()}`);
  const at = r.lamp.object.position;
  f = drag.move(down(-2.5, 0.2));
  assert.ok(f.reasons.includes('contained'), f.reasons.join());
  assert.ok(at.x > -1.8 && at.x < -1.6, `stopped at the table's edge: x ${at.x}`);
  f = drag.move(down(1.3, -0.1));
  assert.ok(f.reasons.includes('reseated'), f.reasons.join());
  assert.equal(f.rests[0].object, r.t2.object);
  assert.equal(r.lamp.body.parent, r.t2.body);
  assertInStep(r.sync);
  assert.deepEqual(r.sync.scene.check(), []);
  r.sync.dispose();
});

test('SnugSync.insert: a new lamp lands bound on the table top under the pointer, beside the one there; a full top throws and registers nothing', () => {
  const r = catalogRoom();
  const lampItem = catalogItems().find((it) => it.id === 'lamp').make();
  const count = r.sync.entries.length;
  const placed = [];
  let error = null;
  // Ray at the first lamp's spot: each new lamp goes to the nearest free spot, until the top is full.
  for (let i = 0; i < 40 && !error; i++) {
    const o = new Mesh(lampItem.geometry);
    o.name = `lamp ${i}`;
    r.root.add(o);
    try {
      placed.push(r.sync.insert(o, down(-1.2, 0.1), { surfaces: lampItem.surfaces, upright: true }));
    } catch (e) {
      error = e;
      r.root.remove(o);
    }
  }
  assert.ok(placed.length >= 2, `${placed.length} lamps fit`);
  for (const e of placed) {
    assert.equal(e.body.parent, r.t1.body, `${e.label} stands on the table`);
    assert.equal(e.body.bindings()[0].supporter, r.t1.body);
  }
  assert.ok(error && /full|no free/i.test(error.message), `a full top: ${error?.message}`);
  assert.equal(r.sync.entries.length, count + placed.length, 'the failed insert registered nothing');
  assertInStep(r.sync);
  assert.deepEqual(r.sync.scene.check(), []);
  r.sync.dispose();
});

test('SnugDrag: a table carries its lamp (the Object3Ds of its subtree follow), a chair in the way blocks', () => {
  const r = catalogRoom();
  // What the drag can change: the table, what it carries, and the chair bound to its front.
  assert.deepEqual(r.sync.reach([r.t1]).map((e) => e.label).sort(), ['chair', 'lamp', 'table']);
  const start = r.sync.capture();
  const drag = new SnugDrag(r.sync, r.t1.object, [-1, 0.75, 0]);
  assert.deepEqual(drag.moved.map((e) => e.label), ['table', 'lamp']);
  const lamp0 = r.lamp.object.position.clone();
  let f = drag.move(new Ray(new Vector3(-1, 3, -0.5), new Vector3(0, -1, 0)));
  assertInStep(r.sync);
  assert.ok(near(r.lamp.object.position.z, lamp0.z - 0.5, 1e-4), `the lamp went along: ${r.lamp.object.position.toArray()}`);
  // The chair's front strip was bound to this table: the core broke that binding as the table left.
  assert.equal(r.chair.body.bindings().length, 1);
  // Into the other table: blocked, the blocker named by its Object3D, with a contact point and a unit normal.
  f = drag.move(down(3.0, -0.5));
  assert.ok(f.reasons.includes('blocked'), f.reasons.join());
  assert.ok(f.blockers.some((b) => b.object === r.t2.object), `blockers: ${f.blockers.map((b) => b.object?.name)}`);
  for (const b of f.blockers) {
    assert.equal(b.point.length, 3);
    assert.ok(near(Math.hypot(...b.normal), 1, 1e-5), `normal ${b.normal}`);
  }
  assert.ok(r.t1.object.position.x < 1.2 - 1.6 + 1e-3, `stopped before the other table: x ${r.t1.object.position.x}`);
  assertInStep(r.sync);
  assert.deepEqual(r.sync.scene.check(), []);
  // Escape: everything back bit for bit, the chair's front binding too.
  drag.cancel();
  for (const [e, want] of start) {
    assert.deepEqual(Array.from(e.body.getPose()), Array.from(want.pose), `${e.label} pose`);
    assert.equal(e.body.bindings().length, want.bindings.length, `${e.label} bindings`);
  }
  assertInStep(r.sync);
  assert.deepEqual(r.sync.scene.check(), []);
  r.sync.dispose();
});

test('SnugDrag carries a selection as one group: both tables move alike, release gives the parents back', () => {
  const r = catalogRoom();
  const drag = new SnugDrag(r.sync, r.t1.object, [-1, 0.75, 0], { carry: [r.t2.object] });
  assert.equal(r.t2.body.parent, r.t1.body, 'carried: a child of the lead in the core for the drag');
  assert.deepEqual(drag.moved.map((e) => e.label).sort(), ['lamp', 'table', 'table']);
  const a0 = r.t1.object.position.clone(), b0 = r.t2.object.position.clone();
  drag.move(down(-1, -0.6));
  assertInStep(r.sync);
  const da = r.t1.object.position.clone().sub(a0), db = r.t2.object.position.clone().sub(b0);
  assert.ok(da.z < -0.5 && da.distanceTo(db) < 1e-5, `as one group: ${da.toArray()} vs ${db.toArray()}`);
  drag.release();
  assert.equal(r.t2.body.parent, r.floor.body, 'released: it rests on the floor again');
  assert.equal(r.t2.body.bindings()[0].supporter, r.floor.body);
  assert.deepEqual(r.sync.scene.check(), []);
  // Cancelled: the carried table's parent and both poses come back.
  const start = r.sync.capture();
  const again = new SnugDrag(r.sync, r.t1.object, [-1, 0.75, -0.6], { carry: [r.t2.object] });
  again.move(down(-1, 0.2));
  again.cancel();
  assert.equal(r.t2.body.parent, r.floor.body);
  for (const [e, want] of start) assert.deepEqual(Array.from(e.body.getPose()), Array.from(want.pose), `${e.label} pose`);
  assertInStep(r.sync);
  r.sync.dispose();
});

test('SnugDrag: a free drag lifts the lamp off, reports the seat under it (a ghost) and drops onto it', () => {
  const r = catalogRoom();
  const drag = new SnugDrag(r.sync, r.lamp.object, [-1.2, 1.2, 0.1]);
  // Towards the camera and over the second table: the lamp floats, the seat it would take is on that table.
  let f;
  for (let x = -1.2; x <= 1.2; x += 0.1) f = drag.move(new Ray(new Vector3(x, 3, 3.5), new Vector3(0, -1.8, -2.9).normalize()), { mode: 'free' });
  assert.equal(r.lamp.body.bindings().length, 0, 'free: no binding');
  assert.ok(f.candidate, `a candidate (reasons ${f.reasons})`);
  assert.equal(f.candidate.object, r.t2.object);
  assert.ok(near(f.candidate.pose[5], 0.75, 1e-5), `the ghost stands on the top: ${f.candidate.pose}`);
  assertInStep(r.sync);
  assert.equal(drag.drop(), true);
  assert.equal(r.lamp.body.bindings()[0].supporter, r.t2.body);
  assert.deepEqual(Array.from(r.lamp.body.getPose()), Array.from(f.candidate.pose), 'it landed where the ghost was');
  assertInStep(r.sync);
  assert.deepEqual(r.sync.scene.check(), []);
  r.sync.dispose();
});

test('SnugDrag: key turns in 15 degree steps and a ring gesture (turnTo); a bookcase against a wall cannot turn', () => {
  const r = catalogRoom();
  const step = Math.PI / 12;
  const yaw = (e) => { const p = e.body.getPose(); return 2 * Math.atan2(p[1], p[3]); };
  const drag = new SnugDrag(r.sync, r.lamp.object, [-1.2, 0.9, 0.1]);
  drag.turn(0.1, { angleStep: step });
  assert.ok(near(yaw(r.lamp), step, 1e-5), `one step: ${yaw(r.lamp)}`);
  assert.equal(drag.turnTo(1.3 * step, { angleStep: step }), null, 'a third of a step on rounds to where it is');
  drag.turnTo(4 * step + 0.05, { angleStep: step });
  assert.ok(near(yaw(r.lamp), 4 * step, 1e-5), `turned to 4 steps: ${yaw(r.lamp)}`);
  drag.turnTo(0.3);
  assert.ok(near(yaw(r.lamp), 0.3, 1e-4), `free angle: ${yaw(r.lamp)}`);
  assertInStep(r.sync);
  const locked = new SnugDrag(r.sync, r.bookcase.object, [2.5, 1, -2.8]);
  const f = locked.turn(step, { angleStep: step });
  assert.equal(f.turnAxis, null);
  assert.ok(f.reasons.includes('turn-locked'), f.reasons.join());
  assert.ok(near(yaw(r.bookcase), 0, 1e-7));
  r.sync.dispose();
});

test('SnugSync.restore: bindings back bit for bit, a bookcase on the floor against a wall with its books included', () => {
  const r = catalogRoom();
  const state = r.sync.capture();
  // Move things about in the core: the bookcase off the wall and turned, the lamp to the other table.
  for (const e of [r.bookcase, r.lamp]) e.body.unbind();
  r.bookcase.body.setPose(pose7([0, Math.sin(0.2), 0, Math.cos(0.2)], [1.5, 0, -1.5]));
  r.lamp.body.setPose(pose7([0, 0, 0, 1], [1.2, 0.75, 0]));
  r.lamp.body.bind(0, r.t2.body, 0);
  assert.deepEqual(r.sync.restore(state), []);
  for (const [e, want] of state) {
    assert.deepEqual(Array.from(e.body.getPose()), Array.from(want.pose), `${e.label} pose`);
    assert.deepEqual(e.body.bindings().map((b) => [b.binding, r.sync.entryOf(b.supporter), b.offer]),
      want.bindings.map((b) => [b.binding, b.supporter, b.offer]), `${e.label} bindings`);
  }
  assertInStep(r.sync);
  assert.deepEqual(r.sync.scene.check(), []);
  // A binding that cannot hold is reported (a table lamp does not go on the floor); the pose is set all the same.
  const wanted = new Map([[r.lamp, { pose: Float32Array.from([0, 0, 0, 1, 0, 0, 2]), bindings: [{ binding: 0, supporter: r.floor, offer: 0 }] }]]);
  const failed = r.sync.restore(wanted);
  assert.equal(failed.length, 1);
  assert.match(failed[0], /^lamp: .*label/);
  // A local pose that does not give the pose asked for (a file edited by hand) is refused; the pose stands.
  const books = r.sync.capture([r.books]).get(r.books);
  const moved = Float32Array.from(books.pose);
  moved[4] += 0.1;
  assert.deepEqual(r.sync.restore(new Map([[r.books, { ...books, pose: moved }]])), ['books: its local pose does not give its pose']);
  assert.deepEqual(Array.from(r.books.body.getPose()), Array.from(moved));
  assert.deepEqual(Array.from(r.lamp.body.getPose()), [0, 0, 0, 1, 0, 0, 2]);
  assert.equal(r.lamp.body.bindings().length, 0);
  assertInStep(r.sync);
  r.sync.dispose();
});

test('helpers: contact, surface and triangle buffers, hierarchy boxes nest', () => {
  const c = new ContactHelper({ capacity: 4 });
  c.set([{ point: [1, 2, 3], normal: [0, 1, 0] }, { point: new Vector3(0, 0, 0), normal: new Vector3(1, 0, 0) }]);
  assert.equal(c.points.geometry.drawRange.count, 2);
  assert.deepEqual(Array.from(c.lines.geometry.attributes.position.array.slice(0, 6)), [1, 2, 3, 1, 2 + c.normalLength, 3]);
  c.set([]);
  assert.equal(c.visible, false);
  const s = new SurfaceHelper({ lift: 0.01 });
  s.set([[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 0, 0]]);
  assert.equal(s.visible, true);
  assert.equal(s.fill.geometry.drawRange.count, 6, 'two triangles');
  assert.deepEqual(Array.from(s.fill.geometry.index.array.slice(0, 6)), [0, 1, 2, 0, 2, 3], 'a fan');
  assert.deepEqual(Array.from(s.fill.geometry.attributes.position.array.slice(0, 3)), [0, Math.fround(0.01), 0], 'lifted along the normal');
  s.set(null);
  assert.equal(s.visible, false);
  const arrays = geometryArrays(new BoxGeometry(1, 1, 1));
  const t = new TriangleHelper({ capacity: 3 });
  t.addTriangles(arrays, [0, 1, 2, 3], new Matrix4().makeTranslation(1, 0, 0));
  assert.equal(t.count, 3, 'capacity respected');
  assert.ok(near(t.geometry.attributes.position.array[0], arrays.positions[3 * arrays.indices[0]] + 1));
  const { boxes, levels } = hierarchyBoxes(geometryArrays(new BoxGeometry(1, 2, 3, 8, 8, 8)), { leafSize: 4 });
  assert.deepEqual(Array.from(boxes.subarray(0, 6)), [-0.5, -1, -1.5, 0.5, 1, 1.5]);
  assert.ok(Math.max(...levels) >= 3);
});

test('hierarchyFromBlob reads the core tree: root box = mesh bounds, children inside parents, depth = info.depth', async () => {
  const { hierarchyFromBlob } = await import('../../web/helpers.js');
  const { loadMesh } = await import('../meshes/load.mjs');
  const m = snug.createMesh({ ...(await loadMesh('bunny')), bvh: { branching: 4 } });
  const info = m.info();
  const { boxes, levels } = hierarchyFromBlob(m.serialize());
  assert.equal(levels.length, info.nodeCount);
  assert.equal(Math.max(...levels) + 1, info.depth);
  for (let a = 0; a < 3; a++) {
    assert.ok(near(boxes[a], info.aabbMin[a]) && near(boxes[3 + a], info.aabbMax[a]), 'root box');
  }
  // Each node at depth d > 0 lies inside some node at depth d - 1.
  for (let n = 1; n < levels.length; n++) {
    let inside = false;
    for (let p = 0; p < levels.length && !inside; p++) {
      if (levels[p] !== levels[n] - 1) continue;
      inside = [0, 1, 2].every((a) => boxes[6 * p + a] <= boxes[6 * n + a] + 1e-6 && boxes[6 * n + 3 + a] <= boxes[6 * p + 3 + a] + 1e-6);
    }
    assert.ok(inside, `node ${n}`);
  }
  assert.throws(() => hierarchyFromBlob(new Uint8Array(64)), /version 1/);
  m.dispose();
});
