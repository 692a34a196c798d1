// The three.js integration (web/snug-three.js, web/helpers.js) in node: meshes from BufferGeometry (indexed or
// not, scaled), pose sync with parents and children (also mirrored as scene bodies), the drag mover against the
// core's overlap test, and the helpers' buffers.
import test from 'node:test';
import assert from 'node:assert/strict';
import { BoxGeometry, Group, Mesh, Matrix4, Quaternion, Vector3 } from 'three';
import { Snug, pose as pose7 } from '../../wasm/snug.js';
import { geometryArrays, meshFromGeometry, poseFromMatrix, matrixFromPose, SnugSync, DragMover } from '../../web/snug-three.js';
import { ContactHelper, TriangleHelper, hierarchyBoxes } from '../../web/helpers.js';
import { wasmBinary, seed, rng, has } from './support.mjs';

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

function room(withScene) {
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
  const sync = new SnugSync(snug, { scene: withScene && has(snug, 'snug_scene_create') });
  return { root, parent, child, wall, sync, ep: sync.add(parent), ec: sync.add(child), ew: sync.add(wall, { isStatic: true }) };
}

test('SnugSync: child poses follow parents, bodies mirror the hierarchy', () => {
  const { parent, child, sync, ep, ec } = room(true);
  const check = () => {
    const expected = poseFromMatrix(child.matrixWorld);
    ec.pose.forEach((v, k) => assert.ok(near(v, expected[k], 1e-5), `pose ${k}`));
    if (ec.body) ec.body.getPose().forEach((v, k) => assert.ok(near(Math.abs(v), Math.abs(expected[k]), 1e-4), `body pose ${k}`));
  };
  check();
  if (ec.body) assert.equal(ec.body.parent, ep.body);
  const moved = poseFromMatrix(new Matrix4().compose(new Vector3(-2, 0.5, 1), new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 1.2), new Vector3(1, 1, 1)));
  sync.setWorldPose(parent, moved);
  check();
  parent.position.x += 0.5;
  sync.pull();
  check();
  if (ep.body) {
    // Core -> three.js: move the parent body (as a step commit would), push, and the Object3Ds follow.
    ep.body.setPose(pose7([0, 0, 0, 1], [0.25, 0.5, -1]));
    sync.push();
    const wp = parent.getWorldPosition(new Vector3());
    assert.ok(near(wp.x, 0.25) && near(wp.y, 0.5) && near(wp.z, -1), `parent at ${wp.toArray()}`);
    check();
  }
  assert.equal(sync.entries.length, 3);
  sync.remove(child);
  assert.equal(sync.entries.length, 2);
  sync.dispose();
});

test('DragMover: stops before the wall without overlap, then slides along it', { skip: !has(snug, 'snug_mesh_overlap') && 'overlap not in this build yet' }, () => {
  const { parent, sync, ep, ew } = room(false);
  const mover = new DragMover(sync);
  mover.move(ep, new Vector3(5, 0, 0));
  const x = parent.getWorldPosition(new Vector3()).x;
  assert.ok(x < 4 - 0.1 - 0.5 && x > 2.5, `stopped before the wall at x ${x}`);
  assert.equal(snug.overlap(ep.mesh, ep.pose, ew.mesh, ew.pose), false, 'no overlap at the stop');
  assert.ok(mover.blockers.has(ew), 'the wall is the blocker');
  assert.ok(mover.contacts.length > 0);
  const z0 = parent.position.z;
  mover.move(ep, new Vector3(1, 0, 1));
  assert.ok(parent.position.z > z0 + 0.5, `slid along the wall: z ${z0} -> ${parent.position.z}`);
  assert.equal(snug.overlap(ep.mesh, ep.pose, ew.mesh, ew.pose), false);
  sync.dispose();
});

test('helpers: contact and triangle buffers, hierarchy boxes nest', () => {
  const c = new ContactHelper({ capacity: 4 });
  c.set([{ point: [1, 2, 3], normal: [0, 1, 0] }, { point: new Vector3(0, 0, 0), normal: new Vector3(1, 0, 0) }]);
  assert.equal(c.points.geometry.drawRange.count, 2);
  assert.deepEqual(Array.from(c.lines.geometry.attributes.position.array.slice(0, 6)), [1, 2, 3, 1, 2 + c.normalLength, 3]);
  c.set([]);
  assert.equal(c.visible, false);
  const arrays = geometryArrays(new BoxGeometry(1, 1, 1));
  const t = new TriangleHelper({ capacity: 3 });
  t.addTriangles(arrays, [0, 1, 2, 3], new Matrix4().makeTranslation(1, 0, 0));
  assert.equal(t.count, 3, 'capacity respected');
  assert.ok(near(t.geometry.attributes.position.array[0], arrays.positions[3 * arrays.indices[0]] + 1));
  const { boxes, levels } = hierarchyBoxes(geometryArrays(new BoxGeometry(1, 2, 3, 8, 8, 8)), { leafSize: 4 });
  assert.deepEqual(Array.from(boxes.subarray(0, 6)), [-0.5, -1, -1.5, 0.5, 1, 1.5]);
  assert.ok(Math.max(...levels) >= 3);
});

test('hierarchyFromBlob reads the core tree: root box = mesh bounds, children inside parents, depth = info.depth',
  { skip: !has(snug, 'snug_mesh_serialize') && 'serialization not in this build yet' }, async () => {
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

test('DragMover moves a parent with its registered children as one group: a protruding child blocks first',
  { skip: !has(snug, 'snug_mesh_overlap') && 'overlap not in this build yet' }, () => {
    const { parent, child, sync, ep, ec, ew } = room(false);
    parent.rotation.y = 0;
    child.position.set(0.8, 0, 0); // sticks out 0.3 past the parent's +x face
    parent.updateMatrixWorld(true);
    sync.pull();
    const mover = new DragMover(sync);
    mover.move(ep, new Vector3(5, 0, 0));
    const cx = child.getWorldPosition(new Vector3()).x;
    assert.ok(cx + 0.1 <= 3.9 + 1e-3 && cx + 0.1 > 3.8, `the child stops at the wall: child max x ${cx + 0.1}`);
    assert.equal(snug.overlap(ec.mesh, ec.pose, ew.mesh, ew.pose), false);
    assert.ok(mover.contacts.some((c) => c.source === ec), 'the contact is the child\'s');
    sync.dispose();
  });
