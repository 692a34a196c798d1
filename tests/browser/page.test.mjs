// The page in headless Chromium, collision behaviour: it loads without errors on the threaded module, a drag with
// real mouse events stops an object at contact (the core reports no overlap, the pose is before the obstacle) and
// turns the blocker red only while it blocks, a drag into a wall slides along it, the room is closed on all four
// sides (and the drag event's time on the page is reported), and H walks an object's collision hierarchy.
// Screenshots go to build/browser/.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { startBrowser, openPage, shot, grabPoint, screenOf, mouseDrag, SHOTS } from './browser.mjs';

let env, ctx;
before(async () => {
  env = await startBrowser();
  ctx = await openPage(env, { width: 1100, height: 720 });
});
after(async () => { if (env) await env.close(); });

const idOf = (page, item) => page.evaluate((item) => window.snugApp.placement.ids().find((id) => window.snugApp.placement.itemOf(id) === item), item);
const pos = (page, id) => page.evaluate((id) => window.snugApp.placement.poseOf(id).slice(4), id);
// The exact world extent of an object (its vertices at its pose): { min: [x, y, z], max: [x, y, z] }.
const extent = (page, id) => page.evaluate((id) => {
  const o = window.snugApp.placement.object(id);
  const p = o.geometry.getAttribute('position'), v = o.position.clone();
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.count; i++) {
    v.fromBufferAttribute(p, i).applyMatrix4(o.matrixWorld);
    v.toArray().forEach((x, a) => { min[a] = Math.min(min[a], x); max[a] = Math.max(max[a], x); });
  }
  return { min, max };
}, id);
// Put an object at `pose` standing on the floor only (through the seam, not dragged).
const putOnFloor = (page, id, pose) => page.evaluate(([id, pose]) => {
  const { placement } = window.snugApp;
  placement.put([{ id, pose, bindings: placement.record(id).bindings.filter((b) => b.supporter === 'floor') }]);
}, [id, pose]);
const isRed = (page, id) => page.evaluate((id) => window.snugApp.placement.object(id).material.color.getHex() === 0xe63946, id);

// Drag object `id` so that its grab point goes to world (x, z) at the grab height; { hold } keeps the button down.
async function dragTo(page, id, x, z, options) {
  const g = await grabPoint(page, id);
  const b = await screenOf(page, [x, g.point[1], z]);
  await mouseDrag(page, g, b, options);
  return g;
}

test('the page loads the default room without errors; first drag possible time', async (t) => {
  const { page, errors } = ctx;
  const info = await page.evaluate(() => {
    const { placement, readyMs } = window.snugApp;
    return { items: placement.snapshot().map((r) => r.item), violations: placement.violations(), readyMs,
      triangles: placement.triangleCount(), nav: performance.getEntriesByName('snug-first-drag-possible')[0].startTime };
  });
  for (const item of ['sofa', 'table', 'chair', 'bookcase', 'desk', 'plant']) assert.ok(info.items.includes(item), item);
  assert.deepEqual(info.violations, []);
  assert.ok(info.triangles > 1000, `triangles ${info.triangles}`);
  assert.equal(info.nav, info.readyMs);
  // Reported, not asserted (no timed assertions): from navigation start to the first frame with the room in the
  // core and the input bound, for this first page of a fresh browser and for a second page in a new context.
  await page.waitForFunction(() => window.snugApp.panel.thumbnails.rendered === window.snugApp.catalog.insertable().length, null, { timeout: 60000 });
  const second = await openPage(env, { width: 1100, height: 720 });
  const warmMs = await second.page.evaluate(() => window.snugApp.readyMs);
  await second.context.close();
  const line = `first drag possible ${(info.readyMs / 1000).toFixed(2)} s after navigation (first page of the browser), ` +
    `${(warmMs / 1000).toFixed(2)} s (second page); headless Chromium, SwiftShader`;
  t.diagnostic(line);
  writeFileSync(`${SHOTS}first-drag.txt`, `${line}\n`);
  // And a drag right then works.
  const id = await idOf(page, 'plant');
  const before = await pos(page, id);
  await dragTo(page, id, before[0] - 0.5, before[2] - 0.3);
  const after = await pos(page, id);
  assert.ok(Math.hypot(after[0] - before[0], after[2] - before[2]) > 0.3, `the plant moved: ${before} -> ${after}`);
  await shot(page, 'page');
  assert.deepEqual(errors, []);
});

test('the page is cross-origin isolated and runs snug on the threaded module with 2 threads', async () => {
  const { page, errors } = ctx;
  const state = await page.evaluate(() => ({
    isolated: window.crossOriginIsolated,
    threads: window.snugApp.snug.threads,
    pool: typeof window.snugApp.snug.module._snug_task_pool_create,
    shared: window.snugApp.snug.module.wasmMemory.buffer instanceof SharedArrayBuffer,
  }));
  assert.deepEqual(state, { isolated: true, threads: 2, pool: 'function', shared: true });
  assert.deepEqual(errors, []);
});

test('a drag into another object stops at contact; the blocker is red only while it blocks', async () => {
  const { page, errors } = ctx;
  const lamp = await idOf(page, 'floor-lamp'), sofa = await idOf(page, 'sofa');
  // The floor lamp in front of the sofa (placed through the seam, not dragged), pulled straight into its front:
  // nothing to slide along.
  await putOnFloor(page, lamp, [0, 0, 0, 1, -1.4, (await pos(page, lamp))[1], 0.6]);
  const start = await pos(page, lamp);
  await dragTo(page, lamp, start[0], -3.5, { hold: true });
  const during = await page.evaluate(([a, b]) => ({
    overlap: window.snugApp.placement.overlaps(a, b),
    contacts: window.snugApp.feedback.contacts.visible,
  }), [lamp, sofa]);
  const at = await pos(page, lamp);
  const redDuring = await isRed(page, sofa);
  await shot(page, 'drag-blocked');
  await page.mouse.up();
  const front = await page.evaluate((id) => {
    const o = window.snugApp.placement.object(id);
    return o.geometry.boundingBox.clone().applyMatrix4(o.matrixWorld).max.z;
  }, sofa);
  assert.equal(during.overlap, false, 'the core reports no overlap at the final pose');
  assert.ok(at[2] < start[2] - 1.5, `the lamp moved towards the sofa: z ${start[2]} -> ${at[2]}`);
  // Its base (radius 15 cm; the shade above reaches further but passes over the sofa) stopped at the sofa's front.
  const base = at[2] - 0.15;
  assert.ok(base > front - 0.01 && base < front + 0.05, `the lamp's base stopped at the sofa's front: ${base} vs ${front}`);
  assert.ok(Math.abs(at[0] - start[0]) < 0.05, `no slide sideways: x ${start[0]} -> ${at[0]}`);
  assert.ok(redDuring, 'the blocker is red while it blocks');
  assert.ok(during.contacts, 'contact points show');
  assert.equal(await isRed(page, sofa), false, 'the red goes with the release');
  assert.equal(await page.evaluate(() => window.snugApp.feedback.contacts.visible), false);
  assert.deepEqual(errors, []);
});

test('a drag diagonally into a wall slides along it', async () => {
  const { page, errors } = ctx;
  const chair = await idOf(page, 'chair');
  // From a spot with a clear way to the right wall.
  await putOnFloor(page, chair, [0, 1, 0, 0, 2.6, (await pos(page, chair))[1], 1.0]);
  const start = await pos(page, chair);
  await dragTo(page, chair, start[0] + 3, start[2] - 1.5, { steps: 24, hold: true });
  const at = await pos(page, chair);
  const state = await page.evaluate((id) => ({
    overlap: window.snugApp.placement.overlaps(id, 'wall-right'),
    red: window.snugApp.placement.object('wall-right').material.color.getHex() === 0xe63946,
  }), chair);
  await shot(page, 'drag-slide');
  await page.mouse.up();
  assert.equal(state.overlap, false);
  assert.ok(state.red, 'the wall is red while it blocks');
  assert.ok(at[0] + 0.225 < 4 && at[0] + 0.225 > 3.95, `at the wall, inside the room: x ${at[0]}`);
  assert.ok(at[2] < start[2] - 1.0, `slid along the wall: z ${start[2]} -> ${at[2]}`);
  assert.deepEqual(errors, []);
});

test('the room is closed: a drag towards each wall stops inside it', async (t) => {
  const { page, errors } = ctx;
  for (const [item, dx, dz, wall] of [['floor-lamp', 0, 6, 'wall-front'], ['sofa', -9, 0, 'wall-left'], ['table', 0, -7, 'wall-back']]) {
    const id = await idOf(page, item);
    const start = await pos(page, id);
    await dragTo(page, id, start[0] + dx, start[2] + dz, { steps: 30 });
    const at = await pos(page, id);
    const { min, max } = await extent(page, id);
    const box = [min[0], max[0], min[2], max[2]];
    assert.ok(box[0] > -4 && box[1] < 4 && box[2] > -3 && box[3] < 3, `the ${item} stays in the room (${wall}): ${box}`);
    // It went up to the wall: within 5 cm of it.
    const gap = { 'wall-front': 3 - box[3], 'wall-left': box[0] + 4, 'wall-back': box[2] + 3 }[wall];
    assert.ok(gap < 0.05, `the ${item} went up to ${wall}: ${gap.toFixed(3)} m short (from ${start} to ${at})`);
    assert.equal(await page.evaluate(([id, w]) => window.snugApp.placement.overlaps(id, w), [id, wall]), false);
  }
  await shot(page, 'room-closed');
  assert.deepEqual(await page.evaluate(() => window.snugApp.placement.violations()), []);
  // Reported, not asserted (issue 19's target: <= 2 ms p99): a drag event's work on the page over this file's
  // drags so far, the core's body.move alone and the seam's whole work for the event (that call and the scene
  // update, no rendering).
  const stats = await page.evaluate(() => window.snugApp.placement.stats);
  const q = (list, f) => { const t = [...list].sort((a, b) => a - b); return t[Math.min(t.length - 1, Math.ceil(f * t.length) - 1)].toFixed(2); };
  const line = `drag event in the default room over ${stats.pageTimes.length} pointer events: page (body.move + scene update) ` +
    `p50 ${q(stats.pageTimes, 0.5)} ms, p99 ${q(stats.pageTimes, 0.99)} ms, max ${q(stats.pageTimes, 1)} ms; ` +
    `core body.move p50 ${q(stats.coreTimes, 0.5)} ms, p99 ${q(stats.coreTimes, 0.99)} ms, max ${q(stats.coreTimes, 1)} ms`;
  t.diagnostic(line);
  writeFileSync(`${SHOTS}drag-event.txt`, `${line}\n`);
  assert.deepEqual(errors, []);
});

test('the ornaments join the catalog after the first frame; H walks an inserted dragon\'s collision hierarchy', async () => {
  const { page, errors } = ctx;
  await page.waitForSelector('.tile[data-item="dragon"]', { timeout: 30000 });
  await page.click('.tile[data-item="dragon"]');
  // An ornament goes on a table, a shelf or a seat: on the desk's top.
  const desk = await idOf(page, 'desk');
  const top = await page.evaluate((id) => window.snugApp.placement.offerPolygon(id, 0).map((p) => p.toArray()), desk);
  const at = await screenOf(page, [0, 1, 2].map((a) => (top[0][a] + top[2][a]) / 2));
  await page.mouse.click(at.x, at.y);
  const dragon = await idOf(page, 'dragon');
  assert.ok(dragon, 'a dragon was inserted');
  assert.deepEqual((await page.evaluate((id) => window.snugApp.placement.record(id), dragon)).bindings.map((b) => b.supporter), [desk]);
  assert.deepEqual(await page.evaluate(() => window.snugApp.selection.list()), [dragon]);
  await page.keyboard.press('h');
  await page.keyboard.press('h');
  await page.keyboard.press('h');
  const state = await page.evaluate(() => {
    const h = window.snugApp.hierarchy;
    return { level: h.level, levels: h.helper.levels.length, visible: h.helper.levels.map((l) => l.visible), id: h.id };
  });
  await page.keyboard.press('f');
  await shot(page, 'hierarchy');
  assert.equal(state.id, dragon);
  assert.equal(state.level, 2);
  assert.ok(state.levels > 3, `levels ${state.levels}`);
  assert.deepEqual(state.visible, state.visible.map((_, i) => i === 2), 'only level 2 shows');
  assert.deepEqual(errors, []);
});
