// The configurator in headless Chromium with real pointer, touch, pen and key events: the catalog (thumbnails,
// insert by click-then-click and by drag), orbit versus drag, selection (click, shift-click, box), Escape, delete,
// duplicate, undo/redo, save/open and the autosave restored on reload, bad files that change nothing, touch and
// pen, a phone layout, the help and stats overlays, the import of a generated .glb, and the outliner. Every test
// opens the page in a fresh context (fresh storage) and ends with no page errors. Screenshots go to build/browser/.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startBrowser, openPage, shot, grabPoint, screenOf, mouseDrag, touchDrag, penDrag, floorPoint, cameraAtRest, SHOTS } from './browser.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { if (env) await env.close(); });

// A page in a fresh context, closed after the test.
async function fresh(t, options) {
  const ctx = await openPage(env, options);
  t.after(() => ctx.context.close());
  return ctx;
}

const app = (page, fn, arg) => page.evaluate(fn, arg);
const snapshot = (page) => app(page, () => window.snugApp.placement.snapshot().sort((a, b) => a.id.localeCompare(b.id)));
const idsOf = (page, item) => app(page, (item) => window.snugApp.placement.ids().filter((id) => window.snugApp.placement.itemOf(id) === item), item);
const pos = (page, id) => app(page, (id) => window.snugApp.placement.poseOf(id).slice(4), id);
const violations = (page) => app(page, () => window.snugApp.placement.violations());
const camera = (page) => app(page, () => {
  const { camera, controls } = window.snugApp.viewport;
  return { position: camera.position.toArray(), target: controls.target.toArray() };
});
const moved = (a, b, eps = 1e-4) => a.some((x, i) => Math.abs(x - b[i]) > eps);
const tile = (item) => `.tile[data-item="${item}"]`;
const statusOf = (page) => app(page, () => ({ kind: document.getElementById('status').dataset.kind, text: document.querySelector('#status .status-text').textContent }));

test('the catalog shows every item with a thumbnail rendered by the app', async (t) => {
  const { page, errors } = await fresh(t);
  await page.evaluate(() => window.snugApp.catalog.loaded);
  await page.waitForFunction(() => window.snugApp.panel.thumbnails.rendered === window.snugApp.catalog.insertable().length, null, { timeout: 60000 });
  const tiles = await app(page, () => [...document.querySelectorAll('.tile')].map((el) => {
    const c = el.querySelector('canvas');
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let drawn = 0;
    for (let i = 3; i < px.length; i += 4) if (px[i] > 0) drawn++;
    return { item: el.dataset.item, size: c.width, drawn: drawn / (c.width * c.height) };
  }));
  const items = await app(page, () => window.snugApp.catalog.insertable().map((it) => it.id));
  assert.ok(items.length >= 18 && items.includes('dragon48k') && !items.includes('wall'), `items: ${items}`);
  assert.deepEqual(tiles.map((x) => x.item).sort(), [...items].sort());
  for (const x of tiles) assert.ok(x.size >= 96 && x.drawn > 0.05, `thumbnail of ${x.item}: ${JSON.stringify(x)}`);
  await shot(page, 'catalog');
  assert.deepEqual(errors, []);
});

test('insert by click-then-click: the lamp lands on the table where it was clicked, not on the floor', async (t) => {
  const { page, errors } = await fresh(t);
  const [table] = await idsOf(page, 'table');
  const before = await snapshot(page);
  await page.click(tile('lamp'));
  assert.equal(await app(page, () => window.snugApp.insertTool.armed), 'lamp');
  // A table lamp does not stand on the floor: no ghost there, and a click says where it goes.
  const floor = await screenOf(page, [-2.0, 0, 1.0]);
  await page.mouse.move(floor.x + 30, floor.y);
  await page.mouse.move(floor.x, floor.y);
  await page.waitForTimeout(100);
  assert.notEqual(await app(page, () => window.snugApp.feedback.ghost?.visible), true, 'no ghost over the floor');
  await page.mouse.click(floor.x, floor.y);
  const status = await statusOf(page);
  assert.equal(status.kind, 'error');
  assert.match(status.text, /^Cannot place the table lamp: point at a table or desk top, a shelf or a seat$/);
  assert.deepEqual(await snapshot(page), before, 'nothing was added');
  assert.equal(await app(page, () => window.snugApp.insertTool.armed), 'lamp', 'the tool stays armed');
  // Over the table top: the ghost shows on it, the top lights up, and the click puts it there.
  const at = await screenOf(page, [1.3, 0.75, -0.5]);
  await page.mouse.move(at.x + 30, at.y);
  await page.mouse.move(at.x, at.y);
  await page.waitForFunction(() => window.snugApp.feedback.ghost?.visible === true);
  assert.deepEqual(await app(page, () => window.snugApp.feedback.offerShown), { id: table, offer: 0 }, 'the table top is lit');
  await shot(page, 'insert-click-ghost');
  await page.mouse.click(at.x, at.y);
  const [lamp] = await idsOf(page, 'lamp').then((ids) => ids.filter((id) => !before.some((r) => r.id === id)));
  assert.ok(lamp, 'a lamp is in the room');
  const centre = await app(page, (id) => {
    const o = window.snugApp.placement.object(id);
    return o.geometry.boundingBox.clone().applyMatrix4(o.matrixWorld).getCenter(o.position.clone()).toArray();
  }, lamp);
  assert.ok(Math.hypot(centre[0] - 1.3, centre[2] + 0.5) < 0.05, `the lamp is where the table was clicked: ${centre}`);
  assert.ok(Math.abs((await pos(page, lamp))[1] - 0.75) < 1e-5, 'standing on the top');
  assert.deepEqual((await app(page, (id) => window.snugApp.placement.record(id), lamp)).bindings, [{ binding: 0, supporter: table, offer: 0 }]);
  assert.deepEqual(await app(page, () => window.snugApp.selection.list()), [lamp]);
  assert.equal(await app(page, () => window.snugApp.insertTool.armed), null, 'the tool is done');
  assert.deepEqual(await violations(page), []);
  await shot(page, 'insert-click');
  assert.deepEqual(errors, []);
});

test('insert by dragging from the panel onto the table: the chair lands at the nearest free spot, as its ghost showed', async (t) => {
  const { page, errors } = await fresh(t);
  const before = await idsOf(page, 'chair');
  const box = await page.locator(tile('chair')).boundingBox();
  const onTable = await screenOf(page, [1.0, 0.76, -0.4]);
  await mouseDrag(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, onTable, { steps: 20, hold: true });
  await page.waitForFunction(() => window.snugApp.feedback.ghost?.visible === true);
  const ghost = await app(page, () => window.snugApp.feedback.ghost.position.toArray());
  await shot(page, 'insert-drag-ghost');
  await page.mouse.up();
  const added = (await idsOf(page, 'chair')).filter((id) => !before.includes(id));
  assert.equal(added.length, 1, 'one chair was added');
  const at = await pos(page, added[0]);
  assert.ok(!moved(at, ghost, 1e-5), `the chair is where its ghost was: ${at} vs ${ghost}`);
  const table = (await idsOf(page, 'table'))[0];
  assert.equal(await app(page, ([a, b]) => window.snugApp.placement.overlaps(a, b), [added[0], table]), false);
  // The free spot nearest the pointer: beside the table, not across the room.
  assert.ok(Math.hypot(at[0] - 1.0, at[2] + 0.4) < 1.5, `near the drop point: ${at}`);
  assert.deepEqual(await violations(page), []);
  assert.equal(await app(page, () => window.snugApp.feedback.ghost), null, 'the ghost is gone');
  await shot(page, 'insert-drag');
  assert.deepEqual(errors, []);
});

test('orbit versus drag: empty space orbits, an object moves, right-drag pans, the wheel zooms', async (t) => {
  const { page, errors } = await fresh(t);
  const room0 = await snapshot(page);
  await cameraAtRest(page);
  const cam0 = await camera(page);
  const empty = await floorPoint(page);
  await mouseDrag(page, empty, { x: empty.x + 160, y: empty.y - 20 });
  await cameraAtRest(page);
  const cam1 = await camera(page);
  assert.ok(moved(cam1.position, cam0.position, 0.05), 'the camera orbited');
  assert.deepEqual(await snapshot(page), room0, 'no object moved');
  await shot(page, 'orbit');

  const [table] = await idsOf(page, 'table');
  const start = await pos(page, table);
  const g = await grabPoint(page, table);
  await mouseDrag(page, g, await screenOf(page, [g.point[0] - 0.8, g.point[1], g.point[2] + 0.2]));
  await cameraAtRest(page);
  assert.ok(moved(await pos(page, table), start, 0.3), 'the table moved');
  assert.ok(!moved((await camera(page)).position, cam1.position, 0.01), 'the camera did not move with the drag');
  await shot(page, 'drag-object');

  const [sofa] = await idsOf(page, 'sofa');
  const sofa0 = await pos(page, sofa);
  const s = await grabPoint(page, sofa);
  await mouseDrag(page, s, { x: s.x + 120, y: s.y + 40 }, { button: 'right' });
  await cameraAtRest(page);
  const cam2 = await camera(page);
  assert.ok(moved(cam2.target, cam1.target, 0.05), 'right-drag on an object panned the camera');
  assert.ok(!moved(await pos(page, sofa), sofa0, 1e-6), 'the sofa did not move');

  const dist = (c) => Math.hypot(...c.position.map((x, i) => x - c.target[i]));
  await page.mouse.move(empty.x, empty.y);
  await page.mouse.wheel(0, -400);
  await cameraAtRest(page);
  assert.ok(dist(await camera(page)) < dist(cam2) - 0.2, 'the wheel zoomed in');
  assert.deepEqual(errors, []);
});

test('selection: click, shift-click, box select; Escape cancels a drag; delete and duplicate go through undo', async (t) => {
  const { page, errors } = await fresh(t);
  const chairs = await idsOf(page, 'chair');
  const [table] = await idsOf(page, 'table');
  // Box: shift-drag from empty floor in front of the chairs to behind them; it holds both chairs' centers only.
  const a = await screenOf(page, [0.1, 0, 0.9]), b = await screenOf(page, [1.9, 0.6, 0.2]);
  await page.keyboard.down('Shift');
  await mouseDrag(page, a, b, { hold: true });
  const rect = await app(page, () => !document.getElementById('box-select').hidden);
  await shot(page, 'box-select');
  await page.mouse.up();
  await page.keyboard.up('Shift');
  assert.ok(rect, 'the box shows while dragging');
  assert.deepEqual((await app(page, () => window.snugApp.selection.list())).sort(), [...chairs].sort());
  await shot(page, 'box-selected');

  const tp = await grabPoint(page, table);
  await page.keyboard.down('Shift');
  await page.mouse.click(tp.x, tp.y);
  assert.deepEqual((await app(page, () => window.snugApp.selection.list())).sort(), [...chairs, table].sort(), 'shift-click adds');
  await page.mouse.click(tp.x, tp.y);
  await page.keyboard.up('Shift');
  assert.deepEqual((await app(page, () => window.snugApp.selection.list())).sort(), [...chairs].sort(), 'shift-click again takes out');

  // A drag of one selected chair moves both as one group: tucked in at the table, they slide along its side only
  // (each is bound in front of it) and stop at its end. Escape puts them back exactly.
  const room0 = await snapshot(page);
  const g = await grabPoint(page, chairs[0]);
  await mouseDrag(page, g, await screenOf(page, [g.point[0] - 1.5, g.point[1], g.point[2] + 0.8]), { hold: true });
  const during = await Promise.all(chairs.map((id) => pos(page, id)));
  assert.deepEqual(await violations(page), [], 'the group moved into nothing');
  // Both chairs keep their selection outline; the one carried along glows, the grabbed one does not.
  const marks = () => app(page, (ids) => ids.map((id) => {
    const o = window.snugApp.placement.object(id);
    return { outline: o.children.some((c) => c.name === 'selection'), glow: o.material.emissive.getHex() !== 0 };
  }), chairs);
  assert.deepEqual(await marks(), [{ outline: true, glow: false }, { outline: true, glow: true }]);
  const r0 = room0.filter((r) => chairs.includes(r.id)).map((r) => r.pose.slice(4));
  const d0 = during[0].map((x, i) => x - r0[0][i]), d1 = during[1].map((x, i) => x - r0[1][i]);
  assert.ok(!moved(d0, d1, 1e-4), `as one group: ${d0} vs ${d1}`);
  assert.ok(d0[0] < -0.15, `both slid along the table: ${d0}`);
  assert.ok(Math.abs(d0[1]) < 1e-5 && Math.abs(d0[2]) < 1e-5, `and stayed in front of it: ${d0}`);
  // The first chair's end of its front strip stopped at the table's end (x 0.2), within the 5 % overhang.
  assert.ok(during[0][0] - 0.225 > 0.2 - 0.05 * 0.23 - 1e-3 && during[0][0] - 0.225 < 0.2 + 0.01, `at the table's end: ${during[0]}`);
  const kept = await app(page, (ids) => ids.map((id) => window.snugApp.placement.record(id).bindings), chairs);
  for (const [k, id] of chairs.entries()) assert.deepEqual(kept[k], room0.find((r) => r.id === id).bindings, `${id} is still bound as it was`);
  await shot(page, 'group-drag');
  await page.keyboard.press('Escape');
  await page.mouse.up();
  assert.deepEqual(await snapshot(page), room0, 'Escape put the drag back');
  assert.deepEqual(await marks(), [{ outline: true, glow: false }, { outline: true, glow: false }], 'the glow went with the drag');
  assert.equal(await app(page, () => window.snugApp.history.undos.length), 0, 'a cancelled drag is no undo step');

  await page.keyboard.press('Delete');
  assert.deepEqual(await idsOf(page, 'chair'), [], 'Delete removed the selection');
  await page.click('button[data-action="undo"]');
  assert.deepEqual(await snapshot(page), room0, 'undo brought the chairs back where they were');

  const tp2 = await grabPoint(page, table);
  await page.mouse.click(tp2.x, tp2.y);
  assert.deepEqual(await app(page, () => window.snugApp.selection.list()), [table], 'a click selects one');
  await page.keyboard.press('Control+d');
  const tables = await idsOf(page, 'table');
  assert.equal(tables.length, 2, 'Ctrl+D duplicated the table');
  assert.deepEqual(await app(page, () => window.snugApp.selection.list()), tables.filter((id) => id !== table), 'the copy is selected');
  assert.deepEqual(await violations(page), []);
  await shot(page, 'duplicate');
  await page.click('button[data-action="delete"]');
  assert.equal((await idsOf(page, 'table')).length, 1, 'the Delete button removed the copy');

  // F frames the selection: the camera looks at the table.
  await page.mouse.click(tp2.x, tp2.y);
  await page.keyboard.press('f');
  const target = (await camera(page)).target, tpos = await pos(page, table);
  assert.ok(Math.hypot(target[0] - tpos[0], target[2] - tpos[2]) < 0.2, `framed: target ${target} vs table ${tpos}`);
  await shot(page, 'frame');

  await cameraAtRest(page);
  const empty = await floorPoint(page);
  await page.mouse.click(empty.x, empty.y);
  assert.deepEqual(await app(page, () => window.snugApp.selection.list()), [], 'a click on empty space selects nothing');
  assert.deepEqual(errors, []);
});

test('undo everything gives back the first room; redo everything the last (keys and buttons)', async (t) => {
  const { page, errors } = await fresh(t);
  const states = [await snapshot(page)];
  // 1. insert a plant by click-then-click
  await page.click(tile('plant'));
  const at = await screenOf(page, [-2.6, 0, 0.2]);
  await page.mouse.click(at.x, at.y);
  states.push(await snapshot(page));
  // 2. drag the table
  const [table] = await idsOf(page, 'table');
  const g = await grabPoint(page, table);
  await mouseDrag(page, g, await screenOf(page, [g.point[0] - 0.6, g.point[1], g.point[2] + 0.3]));
  states.push(await snapshot(page));
  // 3. delete the sofa with the button
  const [sofa] = await idsOf(page, 'sofa');
  const s = await grabPoint(page, sofa);
  await page.mouse.click(s.x, s.y);
  await page.click('button[data-action="delete"]');
  states.push(await snapshot(page));
  // 4. duplicate a chair
  const c = await grabPoint(page, (await idsOf(page, 'chair'))[0]);
  await page.mouse.click(c.x, c.y);
  await page.keyboard.press('Control+d');
  states.push(await snapshot(page));
  for (let i = 1; i < states.length; i++) assert.notDeepEqual(states[i], states[i - 1], `step ${i} changed the room`);
  assert.deepEqual(await violations(page), []);

  const undos = ['Control+z', 'button', 'Control+z', 'button'];
  for (let i = 0; i < undos.length; i++) {
    if (undos[i] === 'button') await page.click('button[data-action="undo"]');
    else await page.keyboard.press(undos[i]);
    assert.deepEqual(await snapshot(page), states[states.length - 2 - i], `after undo ${i + 1}`);
  }
  assert.equal(await page.isDisabled('button[data-action="undo"]'), true, 'nothing left to undo');
  await shot(page, 'undo-all');
  const redos = ['Control+Shift+z', 'Control+y', 'button', 'Control+y'];
  for (let i = 0; i < redos.length; i++) {
    if (redos[i] === 'button') await page.click('button[data-action="redo"]');
    else await page.keyboard.press(redos[i]);
    assert.deepEqual(await snapshot(page), states[i + 1], `after redo ${i + 1}`);
  }
  assert.equal(await page.isDisabled('button[data-action="redo"]'), true, 'nothing left to redo');
  await shot(page, 'redo-all');
  assert.deepEqual(errors, []);
});

// The autosave has stored every change so far.
const waitSaved = (page) => page.waitForFunction(() => window.snugApp.autosave.saved > 0 && !window.snugApp.autosave.pending, null, { timeout: 10000 });

test('save, reload, restore: the autosave brings the room back; a downloaded file opens it again', async (t) => {
  const { page, errors } = await fresh(t);
  const [table] = await idsOf(page, 'table');
  const g = await grabPoint(page, table);
  await mouseDrag(page, g, await screenOf(page, [g.point[0] - 0.7, g.point[1], g.point[2] + 0.4]));
  await page.click(tile('lamp'));
  const at = await screenOf(page, [-2.2, 0, 0.3]);
  await page.mouse.click(at.x, at.y);
  const room = await snapshot(page);
  await waitSaved(page);
  await page.reload();
  await page.waitForFunction(() => window.snugApp && window.snugApp.ready, null, { timeout: 60000 });
  assert.deepEqual(await snapshot(page), room, 'the reloaded page shows the room as it was left');
  assert.match((await statusOf(page)).text, /back/);
  await shot(page, 'restored');

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('button[data-action="save"]')]);
  assert.equal(download.suggestedFilename(), 'room.snug.json');
  const text = readFileSync(await download.path());
  await page.click('button[data-action="new"]');
  assert.notDeepEqual(await snapshot(page), room, 'New gave the default room');
  await page.setInputFiles('#file-input', { name: 'room.snug.json', mimeType: 'application/json', buffer: text });
  await page.waitForFunction(() => /Opened/.test(document.querySelector('#status .status-text').textContent));
  assert.deepEqual(await snapshot(page), room, 'the downloaded file opened the same room');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(errors, []);
});

test('a bad room file shows an error and leaves the room and its undo steps as they were', async (t) => {
  const { page, errors } = await fresh(t);
  const good = JSON.parse(await app(page, () => window.snugApp.editor.roomText()));
  const [first, second] = good.items;
  const bad = {
    'garbage.json': 'this is not json {',
    'other.json': JSON.stringify({ format: 'something-else', version: 1, items: [], imported: [] }),
    'newer.json': JSON.stringify({ ...good, version: 99 }),
    'truncated.json': JSON.stringify(good).slice(0, 200),
    'unknown-item.json': JSON.stringify({ ...good, items: [{ ...first, item: 'spaceship' }] }),
    'nan-pose.json': JSON.stringify({ ...good, items: [{ ...first, pose: [0, 0, 0, 1, null, 0, 0] }] }),
    'not-unit.json': JSON.stringify({ ...good, items: [{ ...first, pose: [0, 0, 0, 2, 0, 0, 0] }] }),
    'outside.json': JSON.stringify({ ...good, items: [{ ...first, pose: [0, 0, 0, 1, 9, first.pose[5], 0] }] }),
    'overlap.json': JSON.stringify({ ...good, items: [first, { ...second, pose: first.pose, local: null }] }),
    'local-disagrees.json': JSON.stringify({ ...good, items: [first, { ...second, pose: first.pose }] }),
    'floating.json': JSON.stringify({ ...good, items: [{ ...first, pose: first.pose.map((x, k) => (k === 5 ? x + 0.5 : x)), local: null }] }),
    'unknown-supporter.json': JSON.stringify({ ...good, items: [{ ...first, bindings: [{ ...first.bindings[0], supporter: 'o99' }] }] }),
    'bad-bindings.json': JSON.stringify({ ...good, items: [{ ...first, bindings: [{ binding: -1, supporter: 'floor', offer: 0 }] }] }),
    'duplicate-id.json': JSON.stringify({ ...good, items: [first, { ...second, id: first.id }] }),
    'shell-id.json': JSON.stringify({ ...good, items: [first, { ...second, id: 'floor' }] }),
    'bad-import.json': JSON.stringify({ ...good, imported: [{ id: 'import:x', name: 'x', color: '#ffffff', positions: 'AAAA', indices: null }] }),
  };
  // Something on the undo stack first: it must survive.
  const g = await grabPoint(page, first.id);
  await mouseDrag(page, g, await screenOf(page, [g.point[0] + 0.3, g.point[1], g.point[2] + 0.3]));
  const room = await snapshot(page);
  const undos = await app(page, () => window.snugApp.history.undos.length);
  const catalog = await app(page, () => window.snugApp.catalog.items().length);
  for (const [name, text] of Object.entries(bad)) {
    await page.setInputFiles('#file-input', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction((n) => document.querySelector('#status .status-text').textContent.includes(n), name);
    const status = await statusOf(page);
    assert.equal(status.kind, 'error', `${name}: ${status.text}`);
    assert.match(status.text, /^Cannot open/);
    assert.deepEqual(await snapshot(page), room, `${name} left the room as it was`);
    assert.equal(await app(page, () => window.snugApp.history.undos.length), undos, `${name} left the undo steps`);
    assert.equal(await app(page, () => window.snugApp.catalog.items().length), catalog, `${name} left the catalog`);
    if (name === 'overlap.json') await shot(page, 'bad-file');
  }
  await page.click('button[data-action="undo"]');
  assert.notDeepEqual(await snapshot(page), room, 'the drag before still undoes');
  assert.deepEqual(errors, []);
});

test('touch: one finger drags an object, one finger on empty space orbits, two fingers orbit and pinch; a pen drags', async (t) => {
  const { page, errors } = await fresh(t, { width: 900, height: 700, hasTouch: true });
  const [plant] = await idsOf(page, 'plant');
  const start = await pos(page, plant);
  await cameraAtRest(page);
  const cam0 = await camera(page);
  const g = await grabPoint(page, plant);
  await touchDrag(page, [[g, await screenOf(page, [g.point[0] - 0.8, g.point[1], g.point[2] - 0.3])]]);
  assert.ok(moved(await pos(page, plant), start, 0.4), 'one finger dragged the plant');
  await cameraAtRest(page);
  assert.ok(!moved((await camera(page)).position, cam0.position, 0.01), 'the camera stayed');
  await shot(page, 'touch-drag');

  const [sofa] = await idsOf(page, 'sofa');
  const sofa0 = await pos(page, sofa);
  const sp = await grabPoint(page, sofa);
  await penDrag(page, sp, await screenOf(page, [sp.point[0] + 0.7, sp.point[1], sp.point[2] + 0.4]));
  assert.ok(moved(await pos(page, sofa), sofa0, 0.3), 'the pen dragged the sofa');
  assert.ok(!moved((await camera(page)).position, cam0.position, 0.01), 'the camera stayed');

  const empty = await floorPoint(page);
  await touchDrag(page, [[empty, { x: empty.x + 120, y: empty.y }]]);
  await cameraAtRest(page);
  const cam1 = await camera(page);
  assert.ok(moved(cam1.position, cam0.position, 0.05), 'one finger on empty space orbited');

  // Two fingers, the first landing on the table: the gesture is the camera's and the table stays.
  const room = await snapshot(page);
  const [table] = await idsOf(page, 'table');
  const tp = await grabPoint(page, table);
  const dist = (c) => Math.hypot(...c.position.map((x, i) => x - c.target[i]));
  await touchDrag(page, [[tp, { x: tp.x - 60, y: tp.y }], [{ x: tp.x + 150, y: tp.y + 30 }, { x: tp.x + 330, y: tp.y + 30 }]]);
  await cameraAtRest(page);
  const cam2 = await camera(page);
  assert.deepEqual(await snapshot(page), room, 'no object moved');
  assert.ok(Math.abs(dist(cam2) - dist(cam1)) > 0.1, `two fingers pinched: ${dist(cam1)} -> ${dist(cam2)}`);
  assert.deepEqual(await violations(page), []);
  await shot(page, 'touch-pen');

  assert.deepEqual(errors, []);
});

test('every toolbar button stays in view from a wide window down to a tablet, with the headset buttons too', async (t) => {
  const { page, errors } = await fresh(t, { width: 1440, height: 800 });
  const fits = () => app(page, () => {
    const bar = document.getElementById('toolbar'), box = bar.getBoundingClientRect();
    const out = [...bar.querySelectorAll('button')].filter((b) => b.offsetParent && b.getBoundingClientRect().right > box.right + 0.5);
    return { scroll: bar.scrollWidth, client: bar.clientWidth, out: out.map((b) => b.dataset.action) };
  });
  for (const xr of [false, true]) {
    // a headset offers its sessions: the VR and AR buttons join the toolbar
    await app(page, (xr) => { for (const e of document.querySelectorAll('#toolbar [data-xr], #toolbar [data-xr] button')) e.hidden = !xr; }, xr);
    for (const width of [1440, 1280, 1100, 1000, 900, 721]) {
      await page.setViewportSize({ width, height: 800 });
      const f = await fits();
      assert.ok(f.scroll <= f.client && !f.out.length, `at ${width} px${xr ? ' with VR and AR' : ''}: ${f.scroll} > ${f.client}, past the edge: ${f.out}`);
    }
  }
  await app(page, () => { for (const e of document.querySelectorAll('#toolbar [data-xr], #toolbar [data-xr] button')) e.hidden = true; });
  await page.setViewportSize({ width: 1000, height: 720 });
  assert.equal(await page.isVisible('#toolbar button[data-action="free"] span'), true, 'a small laptop still reads the editing labels');
  await shot(page, 'toolbar-1000');
  assert.deepEqual(errors, []);
});

test('a phone: the catalog is a strip that opens, the toolbar shows icons, tap an item then tap the floor', async (t) => {
  const { page, errors } = await fresh(t, { width: 390, height: 760, hasTouch: true, isMobile: true });
  assert.equal(await page.isVisible('.catalog-list'), false, 'the catalog starts collapsed');
  assert.equal(await page.isVisible('#toolbar button[data-action="undo"] span'), false, 'icons only');
  const bar = await app(page, () => { const t = document.getElementById('toolbar'); return [t.scrollWidth, t.clientWidth]; });
  assert.ok(bar[0] <= bar[1], `every button fits the phone's width: ${bar}`);
  await shot(page, 'phone');
  await page.tap('.catalog-toggle');
  assert.equal(await page.isVisible('.catalog-list'), true);
  await page.tap(tile('plant'));
  const at = await screenOf(page, [-2.6, 0, 0.3]);
  assert.ok(await app(page, ({ x, y }) => window.snugApp.viewport.contains(x, y), at), 'the spot is in the view');
  await page.touchscreen.tap(at.x, at.y);
  assert.equal((await idsOf(page, 'plant')).length, 2, 'a plant was added');
  assert.deepEqual(await violations(page), []);
  await shot(page, 'phone-catalog');
  const { width } = await page.locator('#viewport').boundingBox();
  assert.equal(Math.round(width), 390, 'the view is as wide as the phone');
  assert.deepEqual(errors, []);
});

test('help and stats overlays open and close', async (t) => {
  const { page, errors } = await fresh(t);
  await page.click('button[data-action="help"]');
  assert.equal(await page.isVisible('#help'), true);
  const text = await page.textContent('#help');
  for (const words of ['Shift+drag empty space', 'Right-drag', 'Esc', 'Ctrl']) assert.ok(text.includes(words), words);
  await shot(page, 'help');
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#help'), false, 'Escape closes it');
  await page.keyboard.press('?');
  assert.equal(await page.isVisible('#help'), true, '? opens it');
  await page.click('#help [data-close]');
  assert.equal(await page.isVisible('#help'), false, 'the close button closes it');

  await page.keyboard.press('s');
  assert.equal(await page.isVisible('#stats'), true);
  assert.match(await page.textContent('#stats'), /triangles.*objects/s);
  assert.equal(await page.getAttribute('button[data-action="stats"]', 'aria-pressed'), 'true');
  await shot(page, 'stats');
  await page.click('button[data-action="stats"]');
  assert.equal(await page.isVisible('#stats'), false);
  assert.deepEqual(errors, []);
});

// A .glb made by three.js's GLTFExporter in a page of the same origin (three's modules served from node_modules by
// a route): a torus knot big enough that its hierarchy is built in a worker.
async function makeGlb(context, url) {
  const three = fileURLToPath(new URL('../../node_modules/three/', import.meta.url));
  const page = await context.newPage();
  await page.route(`${url}__gen/**`, (route) => {
    const path = new URL(route.request().url()).pathname.replace(/^\/__gen\//, '');
    if (path === 'index.html') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>gen</title>' });
    // The exporter's bare 'three' import points at the served module.
    const body = readFileSync(`${three}${path}`, 'utf8').replaceAll("from 'three'", "from '/__gen/build/three.module.js'");
    return route.fulfill({ contentType: 'text/javascript', body });
  });
  await page.goto(`${url}__gen/index.html`);
  const b64 = await page.evaluate(async () => {
    const THREE = await import('/__gen/build/three.module.js');
    const { GLTFExporter } = await import('/__gen/examples/jsm/exporters/GLTFExporter.js');
    const mesh = new THREE.Mesh(new THREE.TorusKnotGeometry(0.3, 0.1, 400, 60), new THREE.MeshStandardMaterial({ color: 0xff8800 }));
    mesh.position.set(5, 2, -3); // the importer stands it on the floor and centers it
    const scene = new THREE.Scene();
    scene.add(mesh);
    const glb = await new GLTFExporter().parseAsync(scene, { binary: true });
    let s = '';
    const bytes = new Uint8Array(glb);
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  });
  await page.close();
  return b64;
}

test('import: a dropped .glb becomes a catalog item built in a worker behind a progress bar, lands where dropped, and survives a reload', async (t) => {
  const { page, errors, context } = await fresh(t);
  const glb = await makeGlb(context, env.url);
  const drop = await screenOf(page, [-2.4, 0, -0.6]);
  const files = (name, b64) => page.evaluateHandle(([name, b64]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type: 'model/gltf-binary' }));
    return dt;
  }, [name, b64]);
  // A broken file first (the real one cut short): an error, and nothing changes.
  const room0 = await snapshot(page);
  const items0 = await app(page, () => window.snugApp.catalog.items().length);
  const broken = Buffer.from(glb, 'base64').subarray(0, 1000).toString('base64');
  await page.dispatchEvent('#viewport canvas', 'drop', { dataTransfer: await files('broken.glb', broken), clientX: drop.x, clientY: drop.y });
  await page.waitForFunction(() => document.getElementById('status').dataset.kind === 'error', null, { timeout: 30000 });
  assert.match((await statusOf(page)).text, /^Cannot import: broken\.glb/);
  assert.deepEqual(await snapshot(page), room0);
  assert.equal(await app(page, () => window.snugApp.catalog.items().length), items0);
  await shot(page, 'import-broken');

  // Record every value the progress bar shows.
  await app(page, () => {
    window.progressSeen = [];
    const bar = document.querySelector('#status progress');
    new MutationObserver(() => window.progressSeen.push([bar.value, document.querySelector('#status .status-text').textContent]))
      .observe(bar, { attributes: true, attributeFilter: ['value'] });
  });
  const data = await files('knot.glb', glb);
  await page.dispatchEvent('#viewport canvas', 'dragenter', { dataTransfer: data });
  assert.equal(await page.isVisible('#drop-zone'), true, 'the drop zone shows');
  await page.dispatchEvent('#viewport canvas', 'drop', { dataTransfer: data, clientX: drop.x, clientY: drop.y });
  await page.waitForFunction(() => window.snugApp.placement.ids().some((id) => window.snugApp.placement.itemOf(id).startsWith('import:knot')), null, { timeout: 60000 });
  assert.equal(await page.isVisible('#drop-zone'), false);

  const seen = await app(page, () => window.progressSeen);
  assert.ok(seen.some(([v, label]) => v > 0.4 && v < 1 && /worker/.test(label)), `the bar showed the worker's stages: ${JSON.stringify(seen)}`);
  assert.ok(seen.some(([v]) => v > 0 && v <= 0.3), 'and the bytes read');
  assert.equal(seen.at(-1)[0], 1, 'and the end');
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i][0] >= seen[i - 1][0], 'it only goes forward');

  const item = await app(page, () => window.snugApp.catalog.items().find((it) => it.id.startsWith('import:knot')));
  assert.equal(item.category, 'imported');
  assert.equal(item.name, 'knot');
  const found = await app(page, (id) => window.snugApp.catalog.prototype(id).surfaces.map((s) => `${s.kind} ${s.label}`), item.id);
  assert.ok(found.some((s) => s.startsWith('binding')), `the finder (tools module, in snug's worker) gave it a base to rest on: ${found}`);
  assert.equal(await page.isVisible(tile(item.id)), true, 'its tile is in the catalog');
  // The hierarchy came from the worker, and it is the one this page's threaded core builds from the same triangles.
  const cmp = await app(page, (id) => {
    const { snug, catalog } = window.snugApp;
    const p = catalog.prototype(id);
    const local = snug.createMesh({ positions: p.geometry.getAttribute('position').array, indices: p.geometry.index.array });
    const a = local.serialize(), b = p.blob;
    local.dispose();
    let differ = a.length === b.length ? 0 : -1;
    for (let i = 0; differ === 0 && i < a.length; i++) if (a[i] !== b[i]) differ = i + 1;
    return { triangles: p.geometry.index.count / 3, bytes: a.length, differ, color: p.color.getHex() };
  }, item.id);
  assert.ok(cmp.triangles >= 20000, `big enough for the worker: ${cmp.triangles}`);
  assert.equal(cmp.differ, 0, `the worker's hierarchy is the page's: ${JSON.stringify(cmp)}`);
  assert.equal(cmp.color, 0xff8800);
  const [knot] = await idsOf(page, item.id);
  // The core's insert puts the centre of the surface it stands with (found under the knot: where it touches the
  // floor) at the point dropped on: its area centroid, in world coordinates.
  const { box, centroid } = await app(page, (id) => {
    const { placement } = window.snugApp;
    const o = placement.object(id);
    const poly = placement.surfacesOf(id).find((s) => s.kind === 'binding').polygon.map((p) => o.localToWorld(o.position.clone().fromArray(p)));
    let a = 0, cx = 0, cz = 0;
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i], q = poly[(i + 1) % poly.length], w = p.x * q.z - q.x * p.z;
      a += w; cx += (p.x + q.x) * w; cz += (p.z + q.z) * w;
    }
    return { box: o.geometry.boundingBox.clone().applyMatrix4(o.matrixWorld), centroid: [cx / (3 * a), cz / (3 * a)] };
  }, knot);
  assert.ok(Math.hypot(centroid[0] + 2.4, centroid[1] + 0.6) < 0.05, `it landed where it was dropped: ${centroid}`);
  assert.ok(Math.abs(box.min.y) < 1e-3, `on the floor: ${box.min.y}`);
  assert.deepEqual(await violations(page), []);
  await page.waitForFunction(() => window.snugApp.panel.thumbnails.rendered >= window.snugApp.catalog.insertable().length, null, { timeout: 30000 });
  await page.click('.catalog-list', { position: { x: 5, y: 5 } });
  await page.locator(tile(item.id)).scrollIntoViewIfNeeded();
  await shot(page, 'import');

  const room = await snapshot(page);
  await waitSaved(page);
  await page.reload();
  await page.waitForFunction(() => window.snugApp && window.snugApp.ready, null, { timeout: 60000 });
  assert.deepEqual(await snapshot(page), room, 'the room with the import came back');
  assert.equal(await app(page, (id) => window.snugApp.catalog.has(id), item.id), true, 'and the item is in the catalog');
  assert.deepEqual(errors, []);
});

test('the outliner: what stands on what, a click on a line selects, what the core\'s check finds is marked', async (t) => {
  const { page, errors } = await fresh(t);
  const tree = () => app(page, () => {
    window.snugApp.outliner.draw();
    return [...document.querySelectorAll('#outliner [data-id]')].map((el) => ({
      id: el.dataset.id, parent: el.parentElement.parentElement.closest('li')?.querySelector(':scope > [data-id]')?.dataset.id ?? null,
      bad: el.classList.contains('bad'), selected: el.classList.contains('selected'), text: el.textContent,
    }));
  });
  const [desk] = await idsOf(page, 'desk'), [lamp] = await idsOf(page, 'lamp'), chairs = await idsOf(page, 'chair');
  const [table] = await idsOf(page, 'table');
  const lines = await tree();
  assert.equal(lines.find((l) => l.id === lamp).parent, desk, 'the lamp is under the desk it stands on');
  assert.equal(lines.find((l) => l.id === desk).parent, 'floor');
  for (const c of chairs) assert.match(lines.find((l) => l.id === c).text, /^Chair also on table$/);
  assert.deepEqual(lines.filter((l) => l.bad), []);
  await page.click(`#outliner [data-id="${lamp}"]`);
  assert.deepEqual(await app(page, () => window.snugApp.selection.list()), [lamp]);
  assert.equal((await tree()).find((l) => l.id === lamp).selected, true);
  await page.click(`#outliner [data-id="${desk}"]`, { modifiers: ['Shift'] });
  assert.deepEqual((await app(page, () => window.snugApp.selection.list())).sort(), [desk, lamp].sort(), 'shift-click adds');
  // A chair put into the table (through the seam, unbound: no gesture makes an overlap) is marked with the table.
  await app(page, ([c, t]) => {
    const { placement } = window.snugApp;
    const p = placement.poseOf(t);
    placement.put([{ id: c, pose: [0, 0, 0, 1, p[4], 0, p[6]], bindings: [], local: null }]);
  }, [chairs[0], table]);
  const marked = (await tree()).filter((l) => l.bad).map((l) => l.id).sort();
  assert.deepEqual(marked, [chairs[0], table].sort());
  await page.locator('#outliner').screenshot({ path: `${SHOTS}outliner.png` });
  assert.deepEqual(errors, []);
});
