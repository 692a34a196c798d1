// Bad SNUG_placement data (docs/gltf-extension.md) in otherwise good .glb files: every rule of the format broken
// once (wrong types, out-of-range indices, unknown labels and properties, missing declarations) rejects the load
// with a PlacementError naming the place in the file, so no scene comes out; data that reads well but that the core
// refuses (a non-convex or clockwise polygon, a label cycle, a binding that does not fit or hold, an overlap) makes
// applyPlacement throw and leaves the snug scene and its meshes exactly as they were.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Snug } from '../../wasm/snug.js';
import { EXTENSION, PlacementError, placementFromScene, applyPlacement } from '../../web/gltf/placement.js';
import { wasmBinary } from './support.mjs';
import { buildRoom, disposeRoom, exportGlb, loadGlb, glbJson, glbWithJson, roomFromGltf } from './gltf-support.mjs';

const snug = await Snug.create({ wasmBinary });
const room = buildRoom(snug);
const glb = await exportGlb(room.root, placementFromScene(room.scene, room.bodies));
disposeRoom(room);
const good = glbJson(glb);
const at = (json, name) => json.nodes.findIndex((n) => n.name === name);
const ext = (json, name) => json.nodes[at(json, name)].extensions[EXTENSION];
const root = (json) => json.extensions[EXTENSION];
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

// [what, change to the JSON, the message expected]
const UNREADABLE = [
  ['no label table', (j) => { delete root(j).labels; }, /extensions\.SNUG_placement: the label table "labels" is required/],
  ['labels not an array', (j) => { root(j).labels = 'onFloor'; }, /\.labels: must be an array/],
  ['a label not a string', (j) => { root(j).labels[5] = 7; }, /\.labels\[5\]: must be a non-empty string/],
  ['a label twice', (j) => { root(j).labels.push('onSeat'); }, /\.labels\[7\]: "onSeat" is already labels\[4\]/],
  ['a label too long', (j) => { root(j).labels.push('x'.repeat(32)); }, /longer than 31 UTF-8 bytes/],
  ['65 labels', (j) => { for (let i = 0; i < 58; i++) root(j).labels.push(`l${i}`); }, /\.labels: must have 1\.\.64 items, has 65/],
  ['an order pair naming no label', (j) => { root(j).order[0][1] = 'onMoon'; }, /\.order\[0\]\[1\]: "onMoon" is not in the label table/],
  ['an order pair of one label', (j) => { root(j).order.push(['onSeat', 'onSeat']); }, /\.order\[2\]: pairs a label with itself/],
  ['an order pair of three', (j) => { root(j).order[1].push('onSeat'); }, /\.order\[1\]: must have 2\.\.2 items, has 3/],
  ['a fractional maxSlides', (j) => { root(j).settings.maxSlides = 2.5; }, /\.settings\.maxSlides: must be an integer/],
  ['a zero up', (j) => { root(j).settings.up = [0, 0, 0]; }, /\.settings\.up: must not be the zero vector/],
  ['an unknown root property', (j) => { root(j).lables = []; }, /extensions\.SNUG_placement: unknown property "lables"/],
  ['an unknown node property', (j) => { ext(j, 'table').bindngs = []; }, /nodes\[\d+\]\.extensions\.SNUG_placement: unknown property "bindngs"/],
  ['a node extension not an object', (j) => { j.nodes[at(j, 'lamp')].extensions[EXTENSION] = 5; }, /nodes\[\d+\]\.extensions\.SNUG_placement: must be an object/],
  ['a kind of surface that is not one', (j) => { ext(j, 'table').surfaces[0].kind = 'shelf'; }, /surfaces\[0\]\.kind: must be "offer" or "binding", is "shelf"/],
  ['an unknown label', (j) => { ext(j, 'table').surfaces[0].label = 'onMoon'; }, /surfaces\[0\]\.label: "onMoon" is not in the label table/],
  ['a label index instead of a name', (j) => { ext(j, 'table').surfaces[0].label = 2; }, /surfaces\[0\]\.label: must be a label name/],
  ['a normal of strings', (j) => { ext(j, 'lamp').surfaces[0].normal = ['0', '1', '0']; }, /surfaces\[0\]\.normal\[0\]: must be a finite number/],
  ['a NaN normal (null in JSON)', (j) => { ext(j, 'lamp').surfaces[0].normal[1] = null; }, /surfaces\[0\]\.normal\[1\]: must be a finite number/],
  ['a normal of two numbers', (j) => { ext(j, 'lamp').surfaces[0].normal = [0, 1]; }, /surfaces\[0\]\.normal: must have 3\.\.3 items, has 2/],
  ['a polygon of two vertices', (j) => { ext(j, 'table').surfaces[0].polygon.length = 2; }, /surfaces\[0\]\.polygon: must have 3\.\.32 items, has 2/],
  ['a polygon of 33 vertices', (j) => { const p = ext(j, 'table').surfaces[0].polygon; while (p.length < 33) p.push([...p[0]]); }, /polygon: must have 3\.\.32 items, has 33/],
  ['a vertex of two numbers', (j) => { ext(j, 'table').surfaces[0].polygon[1].pop(); }, /surfaces\[0\]\.polygon\[1\]: must have 3\.\.3 items, has 2/],
  ['surfaces not an array', (j) => { ext(j, 'table').surfaces = {}; }, /\.surfaces: must be an array/],
  ['a binding surface out of range', (j) => { ext(j, 'table').bindings[0].binding = 9; }, /bindings\[0\]\.binding: is 9, out of range \(4 items\)/],
  ['a binding surface that is an offer', (j) => { ext(j, 'table').bindings[0].binding = 0; }, /bindings\[0\]\.binding: surface 0 is an offer/],
  ['a fractional binding index', (j) => { ext(j, 'table').bindings[0].binding = 1.5; }, /bindings\[0\]\.binding: must be an integer >= 0/],
  ['a negative offer index', (j) => { ext(j, 'table').bindings[0].offer = -1; }, /bindings\[0\]\.offer: must be an integer >= 0/],
  ['a supporter out of range', (j) => { ext(j, 'table').bindings[0].supporter = 99; }, /bindings\[0\]\.supporter: is 99, out of range/],
  ['a supporter given by name', (j) => { ext(j, 'table').bindings[0].supporter = 'floor'; }, /bindings\[0\]\.supporter: must be an integer >= 0/],
  ['a node resting on itself', (j) => { ext(j, 'table').bindings[0].supporter = at(j, 'table'); }, /bindings\[0\]\.supporter: a node cannot rest on itself/],
  ['a supporter without surfaces', (j) => { j.nodes.push({ name: 'empty' }); ext(j, 'table').bindings[0].supporter = j.nodes.length - 1; }, /supporter: node \d+ has no SNUG_placement surfaces/],
  ['an offer out of range', (j) => { ext(j, 'table').bindings[0].offer = 5; }, /bindings\[0\]\.offer: is 5, out of range \(1 items\)/],
  ['an offer that is a binding', (j) => { ext(j, 'lamp').bindings[0].offer = 3; }, /bindings\[0\]\.offer: surface 3 of node \d+ is a binding/],
  ['five bindings', (j) => { const b = ext(j, 'chair').bindings; while (b.length < 5) b.push({ ...b[0] }); }, /\.bindings: must have 0\.\.4 items, has 5/],
  ['one binding surface twice', (j) => { const b = ext(j, 'chair').bindings; b[1] = { ...b[0] }; }, /bindings\[1\]\.binding: surface 1 is already bound by bindings\[0\]/],
  ['an orientation without world', (j) => { delete ext(j, 'chair').orientation.world; }, /orientation\.world: must be an array/],
  ['a node extension without the root', (j) => { delete j.extensions; }, /nodes\[\d+\]\.extensions\.SNUG_placement: the root has no extensions\.SNUG_placement/],
  ['a node that three turns into an object with a pivot', (j) => {
    const t = j.nodes[at(j, 'table')];
    t.extras = { pivot: [0.1, 0, 0] };
    t.children = [j.nodes.push({ name: 'inner' }) - 1];
  }, /nodes\[\d+\]: became an object with a pivot/],
  ['not declared used', (j) => { delete j.extensionsUsed; }, /extensionsUsed: must list "SNUG_placement"/],
  ['declared required', (j) => { j.extensionsRequired = [EXTENSION]; }, /extensionsRequired: must not list "SNUG_placement"/],
];

test('the good file reads (the cases below change one thing each)', async () => {
  assert.ok((await loadGlb(glbWithJson(glb, structuredClone(good)))).userData.snugPlacement);
});

for (const [what, change, message] of UNREADABLE) {
  test(`refused on load: ${what}`, async () => {
    const json = structuredClone(good);
    change(json);
    await assert.rejects(loadGlb(glbWithJson(glb, json)), (e) => {
      assert.ok(e instanceof PlacementError, `a PlacementError, not ${e}`);
      assert.match(e.message, message);
      return true;
    });
  });
}

// The file reads, the core refuses what it says: the scene and its meshes stay as they were.
const REFUSED = [
  ['a non-convex polygon', (j) => {
    const p = ext(j, 'table').surfaces[0].polygon; // the top: a dent pushed into its first edge
    p.splice(1, 0, [(p[0][0] + p[1][0]) / 2, p[0][1], 0.5 * p[0][2]]);
  }, /the surfaces of "table": .*surface 0: not convex/],
  ['a clockwise polygon', (j) => { ext(j, 'table').surfaces[0].polygon.reverse(); }, /the surfaces of "table": .*surface 0: .*(clockwise|convex)/],
  ['a normal that is not unit', (j) => { ext(j, 'lamp').surfaces[0].normal = [0, 2, 0]; }, /the surfaces of "lamp": .*not unit/],
  ['a polygon off its plane', (j) => { ext(j, 'table').surfaces[0].polygon[2][1] += 0.01; }, /the surfaces of "table": .*off the polygon's plane/],
  ['a cycle in the label order', (j) => { root(j).order.push(['onWorkspace', 'onStore']); }, /the label table: .*cycle/],
  ['settings out of range', (j) => { root(j).settings.maxSlides = 20; }, /the settings: .*out of range/],
  ['a binding whose labels do not fit', (j) => { ext(j, 'lamp').surfaces[0].label = 'onWall'; }, /the bindings of "lamp": .*label/],
  ['a binding that does not hold (the lamp 5 cm above its table)', (j) => {
    j.nodes[at(j, 'lamp')].matrix[13] += 0.05;
  }, /the bindings of "lamp": .*plane/],
  ['bodies that overlap (a floor lamp under the table)', (j) => {
    const lamp = j.nodes[at(j, 'floorLamp')], table = j.nodes[at(j, 'table')].matrix ?? IDENTITY; // identity: none written
    lamp.matrix[12] = table[12]; lamp.matrix[14] = table[14]; lamp.matrix[13] = 0;
    ext(j, 'floorLamp').bindings = [{ binding: 0, supporter: at(j, 'floor'), offer: 0 }];
  }, /the consistency check: overlap: ("floorLamp" and "table"|"table" and "floorLamp")/],
];

for (const [what, change, message] of REFUSED) {
  test(`refused when applied, nothing changed: ${what}`, async () => {
    const json = structuredClone(good);
    change(json);
    const gltf = await loadGlb(glbWithJson(glb, json));
    const b = roomFromGltf(snug, gltf);
    const meshes = [...b.bodies.values()].map((body) => body.mesh);
    const before = { state: b.scene.snapshot().bytes, surfaces: meshes.map((m) => m.surfaces()), labels: b.scene.labels() };
    assert.throws(() => applyPlacement(gltf.userData.snugPlacement, b.scene, b.bodies), (e) => {
      assert.match(e.message, message);
      return true;
    });
    assert.deepEqual(b.scene.snapshot().bytes, before.state, 'the scene is as it was');
    assert.deepEqual(meshes.map((m) => m.surfaces()), before.surfaces, 'the meshes are as they were');
    assert.deepEqual(b.scene.labels(), before.labels);
    disposeRoom(b);
  });
}

test('custom labels: a file with its own table applies as a room (replace), not into a scene that lacks them (keep)', async () => {
  const json = structuredClone(good);
  const rename = (x) => (x === 'onStore' ? 'onShelf' : x);
  root(json).labels = root(json).labels.map(rename);
  root(json).order = root(json).order.map((pair) => pair.map(rename));
  for (const n of json.nodes) for (const s of n.extensions?.[EXTENSION]?.surfaces ?? []) s.label = rename(s.label);
  const gltf = await loadGlb(glbWithJson(glb, json));
  const placement = gltf.userData.snugPlacement;
  const kept = roomFromGltf(snug, gltf);
  const state = kept.scene.snapshot().bytes;
  assert.throws(() => applyPlacement(placement, kept.scene, kept.bodies, { labels: 'keep' }),
    /surface 0 of "lamp": the scene has no label "onShelf"/);
  assert.deepEqual(kept.scene.snapshot().bytes, state);
  disposeRoom(kept);
  const replaced = roomFromGltf(snug, gltf);
  applyPlacement(placement, replaced.scene, replaced.bodies);
  assert.ok(replaced.scene.labels().includes('onShelf'));
  assert.ok(replaced.scene.labelFits('onShelf', 'onWorkspace'));
  assert.deepEqual(replaced.scene.check(), []);
  assert.deepEqual(placementFromScene(replaced.scene, replaced.bodies).order, [['onShelf', 'onWorkspace'], ['onShelf', 'onSeat']]);
  disposeRoom(replaced);
});

test('applyPlacement refuses objects without bodies and shared meshes with different surfaces, before any change', async () => {
  const gltf = await loadGlb(glb);
  const placement = gltf.userData.snugPlacement;
  const b = roomFromGltf(snug, gltf);
  const state = b.scene.snapshot().bytes;
  const lamp = gltf.scene.getObjectByName('lamp');
  const without = new Map([...b.bodies].filter(([o]) => o !== lamp));
  assert.throws(() => applyPlacement(placement, b.scene, without), /"lamp" has placement data but no body/);
  // the table's body on the chair's mesh: one mesh, two different lists of surfaces
  const table = gltf.scene.getObjectByName('table'), chair = gltf.scene.getObjectByName('chair');
  const sharing = new Map(b.bodies);
  sharing.set(table, b.scene.createBody({ mesh: b.bodies.get(chair).mesh, pose: [0, 0, 0, 1, 5, 0, 5] }));
  const state2 = b.scene.snapshot().bytes;
  assert.throws(() => applyPlacement(placement, b.scene, sharing), /"(table|chair)" and "(table|chair)" share a snug mesh but not their surfaces/);
  assert.deepEqual(b.scene.snapshot().bytes, state2);
  assert.notDeepEqual(state, state2);
  assert.throws(() => applyPlacement(placement, b.scene, b.bodies, { labels: 'merge' }), /labels must be "replace" or "keep"/);
  disposeRoom(b);
});
