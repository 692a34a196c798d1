// The IConS walkthrough (../shared/research/seed-002-icons.md §9, all 17 steps) in headless Chromium with real
// pointer and key events, with the failures IConS's author reported fixed: the chalkboard binds when clicked onto the
// wall, inserts land bound, deleting the table (or the rug) drops what stood on it, a free drop never lands a couch
// on a chair, and saving keeps the bindings (the lamp re-seated in one gesture is placement.test.mjs's). After every
// step the core's consistency check finds nothing and the bindings are the expected ones; no object takes more than
// two pointer gestures to place (an insert or a drag; clicks that select and keys such as R, Delete and Ctrl+D
// apart). Then the saved file and the exported .glb open as the same room, undo goes back step by step to the room
// it started from, and the first-drag time, the drag events' times and the undo state's sizes in this room are
// printed (reported, not asserted). A screenshot per step goes to build/browser/icons-NN-*.png.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { startBrowser, openPage, shot, grabPoint, screenOf, mouseDrag, cameraAtRest, SHOTS } from './browser.mjs';

let env;
before(async () => { env = await startBrowser(); });
after(async () => { if (env) await env.close(); });

const app = (page, fn, arg) => page.evaluate(fn, arg);
const snapshot = (page) => app(page, () => window.snugApp.placement.snapshot().sort((a, b) => a.id.localeCompare(b.id)));
const idsOf = (page, item) => app(page, (item) => window.snugApp.placement.ids().filter((id) => window.snugApp.placement.itemOf(id) === item), item);
const pos = (page, id) => app(page, (id) => window.snugApp.placement.poseOf(id), id);
const violations = (page) => app(page, () => window.snugApp.placement.violations());
// What each object rests on, as sorted supporter ids: { id: ['floor', 'o3'], ... }.
const restsOn = (page) => app(page, () => {
  const { placement } = window.snugApp;
  return Object.fromEntries(placement.ids().map((id) => [id, placement.record(id).bindings.map((b) => b.supporter).sort()]));
});
// The outliner's tree as { id: parent id } (what the page shows), and the core's graph it is drawn from.
const outlined = (page) => app(page, async () => {
  window.snugApp.outliner.draw();
  return Object.fromEntries([...document.querySelectorAll('#outliner [data-id]')].map((el) => [
    el.dataset.id, el.parentElement.parentElement.closest('li')?.querySelector(':scope > [data-id]')?.dataset.id ?? null]));
});
const statusText = (page) => app(page, () => document.querySelector('#status .status-text').textContent);

test('the IConS walkthrough: 17 steps, each consistent with the expected bindings', async (t) => {
  const { page, errors } = await openPage(env, { width: 1280, height: 800 });
  t.after(() => page.context().close());
  const gestures = new Map(); // object id -> pointer gestures that placed it (inserts and drags)
  const gesture = (id) => gestures.set(id, (gestures.get(id) ?? 0) + 1);
  // The end of IConS step n: the check finds nothing, the bindings are `want` (for the objects named), the outliner shows
  // each object under what it stands on, and a screenshot.
  const step = async (n, name, want = {}) => {
    assert.deepEqual(await violations(page), [], `step ${n} (${name}): the core's check`);
    const rests = await restsOn(page);
    for (const [id, on] of Object.entries(want)) assert.deepEqual(rests[id], [...on].sort(), `step ${n} (${name}): ${id} rests on`);
    const tree = await outlined(page);
    for (const [id, on] of Object.entries(rests)) {
      assert.ok(id in tree, `step ${n}: ${id} is in the outliner`);
      if (on.length) assert.ok(on.includes(tree[id]), `step ${n}: ${id} is under ${tree[id]}, but rests on ${on}`);
    }
    await shot(page, `icons-${String(n).padStart(2, '0')}-${name}`);
    return rests;
  };
  // Insert catalog `item` by click-then-click at world point p; returns its id.
  const insert = async (item, p) => {
    const before = await app(page, () => window.snugApp.placement.ids());
    await page.click(`.tile[data-item="${item}"]`);
    const s = await screenOf(page, p);
    await page.mouse.move(s.x + 20, s.y);
    await page.mouse.click(s.x, s.y);
    const made = (await app(page, () => window.snugApp.placement.ids())).filter((id) => !before.includes(id));
    assert.equal(made.length, 1, `one ${item} inserted at ${p}: ${await statusText(page)}`);
    gesture(made[0]);
    return made[0];
  };
  // Drag object `id` so that its grab point goes to world (x, z) at the grab height.
  const drag = async (id, x, z, options = {}) => {
    const g = await grabPoint(page, id);
    await mouseDrag(page, g, await screenOf(page, [x, g.point[1], z]), { steps: 24, ...options });
    gesture(id);
    return g;
  };
  // A click that selects (not a gesture that places: those are counted).
  const select = async (id) => {
    const g = await grabPoint(page, id);
    await page.mouse.click(g.x, g.y);
  };
  const initial = await snapshot(page);

  // 1. Start: an empty room. A box over the whole view selects everything; Shift+Delete takes it with what stands on
  //    it. The outliner shows only the room's shell.
  const view = await app(page, () => { const r = window.snugApp.viewport.canvas.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; });
  await page.keyboard.down('Shift');
  await mouseDrag(page, { x: view.x + 4, y: view.y + 4 }, { x: view.x + view.w - 4, y: view.y + view.h - 60 });
  await page.keyboard.up('Shift');
  assert.equal((await app(page, () => window.snugApp.selection.list())).length, initial.length, 'the box selected everything');
  await page.keyboard.press('Shift+Delete');
  assert.deepEqual(await app(page, () => window.snugApp.placement.ids()), []);
  assert.deepEqual(Object.keys(await outlined(page)).sort(), ['floor', 'wall-back', 'wall-front', 'wall-left', 'wall-right']);
  await step(1, 'empty');

  // 2. Load the floor: here the room has one; a rug goes onto it, bound where it was clicked.
  const rug = await insert('rug', [-2.4, 0, 1.9]);
  await step(2, 'rug', { [rug]: ['floor'] });

  // 3. Objects back to front: each lands on the floor, bound.
  const bookcase = await insert('bookcase', [3.0, 0, -2.6]);
  const desk = await insert('desk', [-2.0, 0, -2.4]);
  const table = await insert('table', [1.0, 0, -0.4]);
  const floorLamp = await insert('floor-lamp', [-2.0, 0.01, 1.8]); // on the rug, which offers a floor
  await step(3, 'back-to-front', { [bookcase]: ['floor'], [desk]: ['floor'], [table]: ['floor'], [floorLamp]: [rug] });

  // 4. Navigation: a drag on empty floor orbits the camera; nothing in the room moves.
  const room4 = await snapshot(page);
  const cam0 = await app(page, () => window.snugApp.viewport.camera.position.toArray());
  const f0 = await screenOf(page, [-0.5, 0, 2.4]);
  await mouseDrag(page, f0, { x: f0.x + 70, y: f0.y - 10 });
  await cameraAtRest(page);
  const cam1 = await app(page, () => window.snugApp.viewport.camera.position.toArray());
  assert.ok(Math.hypot(...cam1.map((x, i) => x - cam0[i])) > 0.2, 'the view changed');
  assert.deepEqual(await snapshot(page), room4, 'nothing moved');
  await step(4, 'orbit');

  // 5. A chair pushed to the table binds in front of it; Ctrl+D three times gives four chairs.
  const chair = await insert('chair', [1.0, 0, 1.2]);
  await drag(chair, 1.0, 0.2);
  const chairs = [chair];
  for (let k = 0; k < 3; k++) {
    await page.keyboard.press('Control+d');
    const [copy] = await app(page, () => window.snugApp.selection.list());
    assert.ok(copy && !chairs.includes(copy), `copy ${k + 1}: ${await statusText(page)}`);
    chairs.push(copy);
  }
  assert.equal((await idsOf(page, 'chair')).length, 4);
  await step(5, 'chairs', { [chair]: ['floor', table], [chairs[1]]: ['floor'], [chairs[2]]: ['floor'], [chairs[3]]: ['floor'] });

  // 6. A lamp on the table; the view changes again.
  const lamp = await insert('lamp', [1.3, 0.75, -0.6]);
  const f1 = await screenOf(page, [-0.5, 0, 2.4]);
  await mouseDrag(page, f1, { x: f1.x - 50, y: f1.y });
  await cameraAtRest(page);
  await step(6, 'lamp', { [lamp]: [table] });

  // 7. Move and rotate the table with what is grouped to it: the lamp stands on it (its child in the core) and goes
  //    along anyway; the chair held in front of it stands on the floor, so it joins by the selection: a box around
  //    the three, then one drag and R move and turn them as one collision group, each keeping its pose relative to
  //    the table.
  // (the box selects objects whose box centres it holds: a box just around the three centres, 12 pixels out)
  const centres = await app(page, (ids) => ids.map((id) => {
    const { placement, viewport } = window.snugApp;
    const o = placement.object(id);
    return viewport.screenOf(o.geometry.boundingBox.clone().applyMatrix4(o.matrixWorld).getCenter(o.position.clone()));
  }), [table, chair, lamp]);
  const xs = centres.flatMap((c) => [c.x - 12, c.x + 12]), ys = centres.flatMap((c) => [c.y - 12, c.y + 12]);
  await page.keyboard.down('Shift');
  await mouseDrag(page, { x: Math.min(...xs), y: Math.min(...ys) }, { x: Math.max(...xs), y: Math.max(...ys) });
  await page.keyboard.up('Shift');
  assert.deepEqual((await app(page, () => window.snugApp.selection.list())).sort(), [table, chair, lamp].sort(), 'the box selected the table, its chair and lamp');
  const relative = () => app(page, ([t, ids]) => {
    const { placement } = window.snugApp;
    const inv = placement.object(t).matrixWorld.clone().invert();
    return ids.map((id) => inv.clone().multiply(placement.object(id).matrixWorld).elements);
  }, [table, [lamp, chair]]);
  const rel7 = await relative();
  const t0 = await pos(page, table);
  await drag(table, t0[4] + 0.9, t0[6] - 0.1); // away from the other chairs
  const t1 = await pos(page, table);
  assert.ok(Math.hypot(t1[4] - t0[4], t1[6] - t0[6]) > 0.5, `the table moved: ${t0} -> ${t1}`);
  await page.keyboard.press('r'); // R turns the selection 15 degrees about the floor's normal
  const t2 = await pos(page, table);
  const turned = 2 * Math.atan2(t2[1], t2[3]) - 2 * Math.atan2(t1[1], t1[3]);
  assert.ok(Math.abs(Math.abs(turned) - Math.PI / 12) < 1e-3 && Math.abs(t2[0]) < 1e-6 && Math.abs(t2[2]) < 1e-6, `turned 15 degrees about up: ${t2}`);
  const rel = await relative();
  for (const [k, m] of rel.entries()) assert.ok(m.every((x, i) => Math.abs(x - rel7[k][i]) < 1e-5), `${[lamp, chair][k]} kept its pose relative to the table`);
  await step(7, 'table-moved-turned', { [lamp]: [table], [chair]: ['floor', table], [table]: ['floor'] });

  // 8. The chalkboard clicked onto the wall binds to it at once (IConS pushed it up and left it unbound).
  const board = await insert('chalkboard', [0.0, 1.5, -3.0]);
  await step(8, 'chalkboard', { [board]: ['wall-back'] });

  // 9. A lamp inserted onto the desk binds to it.
  const top = await app(page, (id) => {
    const { placement } = window.snugApp;
    const o = placement.object(id), s = placement.surfacesOf(id).find((x) => x.kind === 'offer' && x.label === 'onWorkspace');
    const c = s.polygon.reduce((a, p) => a.map((x, i) => x + p[i] / s.polygon.length), [0, 0, 0]);
    return o.localToWorld(o.position.clone().fromArray(c)).toArray();
  }, desk);
  const deskLamp = await insert('lamp', top);
  await step(9, 'desk-lamp', { [deskLamp]: [desk] });

  // 10. A free drag (Alt) of the last chair: its bindings break while it moves freely; it lands on the floor.
  const free = chairs[3];
  const g10 = await grabPoint(page, free);
  await page.keyboard.down('Alt');
  await mouseDrag(page, g10, await screenOf(page, [g10.point[0] + 0.2, g10.point[1], g10.point[2] + 1.0]), { steps: 24, hold: true });
  const during = (await restsOn(page))[free];
  await page.mouse.up();
  await page.keyboard.up('Alt');
  gesture(free);
  assert.deepEqual(during, [], 'free while dragged');
  await step(10, 'free-chair', { [free]: ['floor'] });

  // 11. Delete the chair at the table; the freed chair takes its place, bound in front of the table.
  const place = await pos(page, chair);
  await select(chair);
  await page.keyboard.press('Delete');
  assert.equal(await app(page, (id) => window.snugApp.placement.has(id), chair), false);
  await drag(free, place[4], place[6]);
  await step(11, 'chair-replaced', { [free]: ['floor', table] });

  // 12. Delete the table: the lamp on it would fall to the next offer below it may rest on; there is none, so it goes
  //     with the table. The chair bound to it stays on the floor. Nothing floats.
  await select(table);
  await page.keyboard.press('Delete');
  const rests12 = await step(12, 'table-deleted', { [free]: ['floor'] });
  assert.equal(table in rests12, false);
  // Below the table lamp (onStore) is only the floor (onFloor), which it may not rest on: it goes with the table.
  assert.equal(lamp in rests12, false, `the table lamp went with the table, not onto ${rests12[lamp]}`);
  //     And the rug: the floor lamp on it falls the rug's 1 cm onto the floor, bound there (IConS left it floating).
  const l12 = await pos(page, floorLamp);
  await select(rug);
  await page.keyboard.press('Delete');
  const l12b = await pos(page, floorLamp);
  assert.ok(Math.abs(l12[5] - l12b[5] - 0.01) < 1e-4 && l12b[4] === l12[4] && l12b[6] === l12[6], `it fell straight down: ${l12} -> ${l12b}`);
  await step(12, 'rug-deleted', { [floorLamp]: ['floor'] });

  // 13. The chairs move and stay bound; the graph mirrors the bindings.
  const c13 = await pos(page, chairs[1]);
  await drag(chairs[1], c13[4] - 0.8, c13[6] + 0.3);
  await step(13, 'chairs-moved', { [chairs[1]]: ['floor'] });

  // 14. The couch with the Free toggle on: an insert still lands bound (IConS's free-mode load floated).
  await page.click('button[data-action="free"]');
  const couch = await insert('sofa', [-0.8, 0, 1.9]);
  await step(14, 'couch', { [couch]: ['floor'] });

  // 15. Pseudo-gravity: a free drag of the couch over a chair, let go there: it lands on the floor beside the chair
  //     (a couch may not rest on a seat), not on it.
  const c15 = await pos(page, chairs[2]);
  await drag(couch, c15[4], c15[6]);
  await step(15, 'couch-dropped', { [couch]: ['floor'] });

  // 16. Constrained mode again: the couch is bound to the floor.
  await page.click('button[data-action="free"]');
  assert.equal(await app(page, () => window.snugApp.input.free), false);
  await step(16, 'constrained', { [couch]: ['floor'] });

  // 17. Rotate: the axis the core allows is the floor's normal (shown by the ring); R turns by 15 degrees.
  const q0 = await pos(page, couch);
  await page.keyboard.press('r');
  const q1 = await pos(page, couch);
  assert.deepEqual(await app(page, () => [window.snugApp.gizmo.id, window.snugApp.gizmo.axes.get(window.snugApp.gizmo.id)?.map((x) => Math.round(x * 1e6) / 1e6)]), [couch, [0, 1, 0]]);
  assert.ok(Math.abs(Math.abs(2 * Math.atan2(q1[1], q1[3]) - 2 * Math.atan2(q0[1], q0[3])) - Math.PI / 12) < 1e-3, `turned: ${q1}`);
  await step(17, 'rotated', { [couch]: ['floor'] });

  for (const [id, k] of gestures) assert.ok(k <= 2, `${id}: ${k} pointer gestures`);

  // Saving keeps the bindings: the downloaded file opened again gives the same room, bound the same.
  const room = await snapshot(page);
  const download = page.waitForEvent('download');
  await page.keyboard.press('Control+s');
  const file = await (await download).path();
  await page.setInputFiles('#file-input', { name: 'icons.snug.json', mimeType: 'application/json', buffer: readFileSync(file) });
  await page.waitForFunction(() => /^Opened/.test(document.querySelector('#status .status-text').textContent));
  assert.deepEqual(await snapshot(page), room, 'the saved room opened again, to the bit');
  assert.deepEqual(await violations(page), []);

  // The drag events' work in this room (reported, not asserted; issue 19's target is <= 2 ms p99): the core's
  // body.move alone and the seam's whole work per event (that call and the scene update, no rendering), over every
  // drag and turn of the walkthrough; and the first drag possible after navigation for this page.
  const stats = await app(page, () => ({ ...window.snugApp.placement.stats, readyMs: window.snugApp.readyMs }));
  const q = (list, f) => { const s = [...list].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(f * s.length) - 1)].toFixed(2); };
  const lines = [
    `first drag possible ${(stats.readyMs / 1000).toFixed(2)} s after navigation (the IConS test's page, the first of its browser)`,
    `drag event in the IConS room over ${stats.pageTimes.length} pointer events: page (body.move + scene update) ` +
    `p50 ${q(stats.pageTimes, 0.5)} ms, p99 ${q(stats.pageTimes, 0.99)} ms, max ${q(stats.pageTimes, 1)} ms; ` +
    `core body.move p50 ${q(stats.coreTimes, 0.5)} ms, p99 ${q(stats.coreTimes, 0.99)} ms, max ${q(stats.coreTimes, 1)} ms`,
  ];
  // What an undo step would keep: the core's whole-scene snapshot, or the records this page's commands keep (a move
  // keeps those of the objects it changed, before and after; the whole room's for a delete or an open).
  lines.push(await app(page, () => {
    const { placement } = window.snugApp;
    const time = (fn) => { const t0 = performance.now(); for (let i = 0; i < 20; i++) fn(); return ((performance.now() - t0) / 20).toFixed(3); };
    const bytes = placement.scene.snapshot().bytes.length, records = JSON.stringify(placement.snapshot()).length;
    const one = JSON.stringify(placement.record(placement.ids()[0])).length;
    const snap = placement.scene.snapshot();
    return `undo state in the IConS room (${placement.ids().length} objects): core scene.snapshot ${bytes} bytes, ` +
      `${time(() => placement.scene.snapshot())} ms to take, ${time(() => placement.scene.restore(snap))} ms to restore; ` +
      `the page's records ${records} characters for the room (${time(() => placement.snapshot())} ms), ${one} for one object`;
  }));
  for (const line of lines) t.diagnostic(line);
  writeFileSync(`${SHOTS}icons-times.txt`, `${lines.join('\n')}\n`);

  // The room exported as a .glb with the placement extension, a new room, and the .glb opened: the same objects at
  // the same poses, bound the same.
  const exported = page.waitForEvent('download');
  await page.keyboard.press('Control+e');
  const glb = readFileSync(await (await exported).path());
  assert.equal(glb.readUInt32LE(0), 0x46546c67, 'a .glb');
  const json = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString());
  assert.ok(json.extensionsUsed.includes('SNUG_placement') && json.nodes.some((node) => node.extensions?.SNUG_placement?.bindings));
  await page.click('button[data-action="new"]');
  assert.notDeepEqual(await snapshot(page), room);
  await page.setInputFiles('#file-input', { name: 'icons.glb', mimeType: 'model/gltf-binary', buffer: glb });
  await page.waitForFunction(() => /^Opened icons\.glb/.test(document.querySelector('#status .status-text').textContent));
  const placed = (records) => records.map(({ id, item, pose, bindings }) => ({ id, item, pose, bindings }));
  assert.deepEqual(placed(await snapshot(page)), placed(room), 'the .glb opened as the same room');
  assert.deepEqual(await violations(page), []);
  await shot(page, 'icons-glb-opened');
  // A tampered .glb (a node of an item the catalog lacks) shows an error and leaves the room and its undo steps.
  const tampered = Buffer.from(glb.toString('latin1').replace('"snugItem":"chair"', '"snugItem":"chaiX"'), 'latin1');
  assert.notDeepEqual(tampered, glb);
  const undos = await app(page, () => window.snugApp.history.undos.length);
  const opened = await snapshot(page);
  await page.setInputFiles('#file-input', { name: 'tampered.glb', mimeType: 'model/gltf-binary', buffer: tampered });
  await page.waitForFunction(() => document.getElementById('status').dataset.kind === 'error');
  assert.match(await statusText(page), /^Cannot open tampered\.glb: .*unknown catalog item "chaiX"/);
  assert.deepEqual(await snapshot(page), opened);
  assert.equal(await app(page, () => window.snugApp.history.undos.length), undos);

  // Undo everything: the room it started from.
  while (await app(page, () => window.snugApp.history.canUndo)) await page.keyboard.press('Control+z');
  assert.deepEqual(await snapshot(page), initial, 'undo everything: the first room');
  assert.deepEqual(errors, []);
});
