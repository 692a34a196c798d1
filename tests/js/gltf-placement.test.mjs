// The SNUG_placement glTF extension (web/gltf/, docs/gltf-extension.md) through three's real GLTFExporter and
// GLTFLoader: a room of catalog items with bindings goes to .glb bytes and back into a second snug scene with the
// same surfaces, labels, order, settings, orientation and bindings, nothing moved beyond float rounding and the
// scene consistent; the same bytes load in a GLTFLoader without the plugin as the same meshes; a file without the
// extension gives no placement; exports that would dangle are refused; scaled and mirrored nodes keep their
// surfaces valid.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Object3D, Quaternion, Vector3 } from 'three';
import { Snug, DEFAULT_LABELS } from '../../wasm/snug.js';
import { catalogItems } from '../../web/catalog/furniture.js';
import {
  EXTENSION, PlacementError, placementFromScene, applyPlacement, scalePlacement, worldScale, readPlacementJson,
} from '../../web/gltf/placement.js';
import { wasmBinary, rng, seed } from './support.mjs';
import {
  buildRoom, disposeRoom, exportGlb, loadGlb, glbJson, roomFromGltf, ROOM_BINDINGS,
} from './gltf-support.mjs';

const snug = await Snug.create({ wasmBinary });
// A placement with objects replaced by their names, to compare two rooms.
function byName(placement) {
  const nodes = {};
  for (const [object, data] of placement.nodes) {
    nodes[object.name] = { ...data, bindings: data.bindings.map((b) => ({ ...b, supporter: b.supporter.name })) };
  }
  return { labels: placement.labels, order: placement.order, settings: placement.settings, nodes };
}

const maxPoseChange = (bodies, before) => Math.max(...[...bodies].map(([object, body]) => {
  const p = body.getPose(), q = before.get(object);
  return Math.max(...p.map((x, i) => Math.abs(x - q[i])));
}));

test('round trip: a room with bindings -> .glb -> GLTFLoader -> a second scene with the same placement', async () => {
  const a = buildRoom(snug);
  assert.deepEqual(a.scene.check(), [], 'the room is consistent before export');
  const placement = placementFromScene(a.scene, a.bodies);
  assert.deepEqual(placement.labels, DEFAULT_LABELS);
  assert.deepEqual(placement.order, [['onStore', 'onWorkspace'], ['onStore', 'onSeat']]);
  assert.deepEqual(placement.settings, { up: [0, 1, 0], skin: 0.002, overhang: 0.05, snapRange: 2, maxSlides: 4 });
  // what the file will hold is the catalog's surfaces in each node's frame (the rug's scale taken out again)
  for (const [name, it] of a.byName) {
    const got = placement.nodes.get(it.object).surfaces;
    assert.equal(got.length, it.surfaces.length, name);
    got.forEach((s, k) => {
      const want = it.surfaces[k];
      assert.equal(s.kind, want.kind);
      assert.equal(s.label, want.label);
      for (let i = 0; i < 3; i++) assert.ok(Math.abs(s.normal[i] - want.normal[i]) < 1e-6, `${name} ${k} normal`);
      s.polygon.forEach((v, j) => v.forEach((x, i) => assert.ok(Math.abs(x - want.polygon[j][i]) < 1e-6, `${name} ${k} vertex ${j}`)));
    });
  }

  const glb = await exportGlb(a.root, placement);
  const json = glbJson(glb);
  assert.deepEqual(json.extensionsUsed, [EXTENSION]);
  assert.equal(json.extensionsRequired, undefined, 'tools without the extension may still load the file');

  const gltf = await loadGlb(glb);
  const loaded = gltf.userData.snugPlacement;
  assert.ok(loaded, 'the loader plugin put the placement on the result');
  assert.deepEqual(byName(loaded), byName(placement), 'labels, order, settings, surfaces, orientation, bindings');
  for (const [object, data] of loaded.nodes) {
    for (const b of data.bindings) assert.ok(b.supporter.parent === gltf.scene, `${object.name}: supporters are the loaded objects`);
  }

  const b = roomFromGltf(snug, gltf);
  const before = new Map([...b.bodies].map(([object, body]) => [object, body.getPose()]));
  applyPlacement(loaded, b.scene, b.bodies);
  assert.deepEqual(b.scene.check(), [], 'the loaded room is consistent');
  const moved = maxPoseChange(b.bodies, before);
  assert.ok(moved < 1e-5, `binding the loaded bodies moved them ${moved} (rounding only)`);
  const names = new Map([...b.bodies].map(([object, body]) => [body, object.name]));
  const edges = [...b.bodies].flatMap(([object, body]) => body.bindings().map((x) =>
    [object.name, x.binding, names.get(x.supporter), x.offer]));
  assert.deepEqual(edges.sort(), [...ROOM_BINDINGS].sort(), 'the binding graph came back');
  assert.deepEqual(b.bodies.get(gltf.scene.getObjectByName('chair')).orientation(), { local: [0, 1, 0], world: [0, 1, 0] });

  // and out again (the loaded objects as the room was: top-level nodes): the extension's JSON is the same, byte for byte
  const again = placementFromScene(b.scene, b.bodies);
  assert.deepEqual(byName(again), byName(placement));
  const json2 = glbJson(await exportGlb(gltf.scene.children, again));
  assert.equal(JSON.stringify(json2.extensions), JSON.stringify(json.extensions));
  assert.equal(JSON.stringify(json2.nodes.map((n) => n.extensions)), JSON.stringify(json.nodes.map((n) => n.extensions)));
  disposeRoom(a);
  disposeRoom(b);
});

test('a file with the extension loads in a GLTFLoader without the plugin: the same meshes', async () => {
  const a = buildRoom(snug);
  const glb = await exportGlb(a.root, placementFromScene(a.scene, a.bodies));
  const withPlugin = await loadGlb(glb);
  const plain = await loadGlb(glb, { plain: true });
  assert.equal(plain.userData.snugPlacement, undefined);
  const meshes = (g) => g.scene.children.map((o) => ({
    name: o.name, type: o.type, matrix: o.matrix.toArray(),
    positions: Array.from(o.geometry.getAttribute('position').array), indices: Array.from(o.geometry.index.array),
  }));
  assert.deepEqual(meshes(plain), meshes(withPlugin));
  // ... which are the room's own
  assert.deepEqual(meshes(plain).map((m) => [m.name, m.positions, m.indices]),
    a.root.children.map((o) => [o.name, Array.from(o.geometry.getAttribute('position').array), Array.from(o.geometry.index.array)]));
  // three keeps an extension it does not know as raw JSON in userData
  const table = plain.scene.getObjectByName('table');
  assert.equal(table.userData.gltfExtensions[EXTENSION].surfaces.length, 4);
  disposeRoom(a);
});

test('a file without the extension gives no placement', async () => {
  const a = buildRoom(snug);
  const gltf = await loadGlb(await exportGlb(a.root, null));
  assert.equal(glbJson(await exportGlb(a.root, null)).extensionsUsed, undefined);
  assert.equal(gltf.userData.snugPlacement, undefined);
  assert.equal(gltf.scene.children.length, a.root.children.length);
  disposeRoom(a);
});

test('export refuses a binding whose supporter is not in the file, and objects with a pivot', async () => {
  const a = buildRoom(snug);
  const placement = placementFromScene(a.scene, a.bodies);
  const lamp = a.byName.get('lamp').object, table = a.byName.get('table').object;
  // the lamp alone: its supporter, the table, is not exported
  await assert.rejects(exportGlb(lamp, placement), (e) => e instanceof PlacementError && /supporter "table" of "lamp" is not part of this export/.test(e.message));
  // the table and the lamp but not the floor the table stands on
  await assert.rejects(exportGlb([table, lamp], placement), /supporter "floor" of "table"/);
  // hidden objects are left out of an export: the same rule
  a.byName.get('floor').object.visible = false;
  await assert.rejects(exportGlb(a.root, placement), /supporter "floor"/);
  a.byName.get('floor').object.visible = true;
  // placementFromScene refuses bodies resting on bodies it was not given
  const some = new Map([...a.bodies].filter(([o]) => o.name !== 'floor'));
  assert.throws(() => placementFromScene(a.scene, some), /"wall" rests on a body that has no object here/);
  // three writes an object with a pivot as two nodes, its geometry in the inner one's frame
  table.pivot = new Vector3(0.1, 0, 0);
  await assert.rejects(exportGlb(a.root, placement), /"table" has a pivot/);
  disposeRoom(a);
});

test('scaled and mirrored nodes: surfaces scale into a valid mesh frame and back', () => {
  const r = rng(seed);
  console.log(`# seed ${seed}`);
  const items = catalogItems().map((it) => it.make());
  for (let trial = 0; trial < 40; trial++) {
    const s = [0, 1, 2].map(() => (0.3 + 2 * r()) * (r() < 0.3 ? -1 : 1));
    const it = items[trial % items.length];
    const node = { surfaces: it.surfaces, orientation: { local: [0, 1, 0], world: [0, 1, 0] }, bindings: [] };
    const scaled = scalePlacement(node, s);
    // the core takes them on the scaled geometry (planar, convex, counter-clockwise seen from the normal's tip)
    const positions = Float32Array.from(it.geometry.getAttribute('position').array, (x, i) => x * s[i % 3]);
    const mesh = snug.createMesh({ positions, indices: it.geometry.index.array });
    mesh.setSurfaces(scaled.surfaces);
    mesh.dispose();
    const back = scalePlacement(scaled, s.map((x) => 1 / x));
    back.surfaces.forEach((f, k) => {
      const want = it.surfaces[k];
      f.normal.forEach((x, i) => assert.ok(Math.abs(x - want.normal[i]) < 1e-12, `scale ${s}: normal`));
      f.polygon.forEach((v, j) => v.forEach((x, i) => assert.ok(Math.abs(x - want.polygon[j][i]) < 1e-12, `scale ${s}: vertex`)));
    });
    assert.deepEqual(back.orientation.local.map((x) => Math.round(x * 1e12) / 1e12), [0, 1, 0]);
  }
});

test('worldScale reads what three\'s decompose reads, a mirror included', () => {
  const r = rng(seed + 1);
  for (let trial = 0; trial < 20; trial++) {
    const parent = new Object3D(), child = new Object3D();
    parent.add(child);
    for (const o of [parent, child]) {
      o.scale.set(...[0, 1, 2].map(() => (0.5 + r()) * (r() < 0.3 ? -1 : 1)));
      o.quaternion.set(r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5).normalize();
      o.position.set(r(), r(), r());
    }
    // a rotated parent's non-uniform scale shears the child: only the decomposition's convention is compared
    child.updateWorldMatrix(true, false);
    const s = new Vector3();
    child.matrixWorld.decompose(new Vector3(), new Quaternion(), s);
    worldScale(child).forEach((x, i) => assert.ok(Math.abs(x - s.getComponent(i)) < 1e-12));
  }
});

test('the example in docs/gltf-extension.md reads as the spec says', async () => {
  const { readFileSync } = await import('node:fs');
  const doc = readFileSync(new URL('../../docs/gltf-extension.md', import.meta.url), 'utf8');
  const json = JSON.parse(doc.match(/```json\n([\s\S]*?)```/)[1]);
  const data = readPlacementJson(json);
  assert.deepEqual(data.labels, DEFAULT_LABELS);
  assert.deepEqual([...data.nodes.keys()], [0, 1, 2]);
  assert.deepEqual(data.nodes.get(1).bindings, [{ binding: 1, supporter: 0, offer: 0 }]);
  assert.deepEqual(data.nodes.get(2).bindings, [{ binding: 0, supporter: 1, offer: 0 }]);
  assert.deepEqual(data.nodes.get(2).orientation, { local: [0, 1, 0], world: [0, 1, 0] });
});
