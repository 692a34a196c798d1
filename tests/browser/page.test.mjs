// The page in headless Chromium: it loads without errors, and dragging with real mouse events stops an object at
// contact (the core reports no overlap, the pose is before the obstacle), turns the blocker red, shows contacts,
// and slides along a wall. Screenshots go to build/browser/.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { openPage } from './browser.mjs';

const shots = new URL('../../build/browser/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });
let ctx;

before(async () => { ctx = await openPage({ width: 960, height: 640 }); });
after(async () => { if (ctx) await ctx.close(); });

// Drag with real mouse events from one world point to another, both on the horizontal plane at height y.
async function drag(page, from, to, steps = 16) {
  const a = await page.evaluate(([x, y, z]) => window.snugApp.screenOfWorld(x, y, z), from);
  const b = await page.evaluate(([x, y, z]) => window.snugApp.screenOfWorld(x, y, z), to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) await page.mouse.move(a.x + ((b.x - a.x) * i) / steps, a.y + ((b.y - a.y) * i) / steps);
}

test('the page loads the default scene without errors', async () => {
  const { page, errors } = ctx;
  const info = await page.evaluate(() => ({
    objects: window.snugApp.sync.entries.map((e) => e.object.name),
    triangles: window.snugApp.sync.entries.reduce((n, e) => n + e.mesh.info().triangleCount, 0),
  }));
  for (const name of ['floor', 'bunny', 'dragon', 'table', 'sofa']) assert.ok(info.objects.includes(name), name);
  assert.ok(info.triangles > 15000, `triangles ${info.triangles}`);
  const worker = await page.evaluate(() => ({
    has: typeof window.snugApp.snug.module._snug_mesh_serialize === 'function',
    fromWorker: window.snugApp.items.dragon.fromWorker,
    triangles: window.snugApp.items.dragon.mesh.info().triangleCount,
  }));
  if (worker.has) assert.ok(worker.fromWorker && worker.triangles > 10000, 'the dragon hierarchy came from a Web Worker');
  await page.screenshot({ path: `${shots}page.png` });
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
  // The dragon built again on the page's threaded context gives the bytes the worker's plain module gave.
  const cmp = await page.evaluate(() => {
    const { snug, items } = window.snugApp;
    const g = items.dragon.object.geometry;
    const local = snug.createMesh({ positions: g.getAttribute('position').array, indices: g.index.array });
    const a = local.serialize(), b = items.dragon.mesh.serialize();
    local.dispose();
    let differ = a.length === b.length ? 0 : -1;
    for (let i = 0; differ === 0 && i < a.length; i++) if (a[i] !== b[i]) differ = i + 1;
    return { bytes: a.length, differ, fromWorker: items.dragon.fromWorker };
  });
  if (cmp.fromWorker) assert.equal(cmp.differ, 0, `blobs differ (${JSON.stringify(cmp)})`);
  assert.ok(cmp.bytes > 10000);
  assert.deepEqual(errors, []);
});

const canMove = async (page) => page.evaluate(() => {
  const m = window.snugApp.snug.module;
  return typeof m._snug_mesh_sweep === 'function' || typeof m._snug_mesh_overlap === 'function';
});

test('dragging the stool into the sculpture stops at contact and turns the sculpture red', async (t) => {
  const { page, errors } = ctx;
  if (!(await canMove(page))) return t.skip('the module has neither snug_mesh_sweep nor snug_mesh_overlap yet');
  const start = await page.evaluate(() => window.snugApp.position('stool'));
  const obstacle = await page.evaluate(() => window.snugApp.position('sculpture'));
  // Grab the stool's top (y = 0.48) and pull it along +x far past the sculpture.
  await drag(page, [start[0], 0.48, start[2]], [obstacle[0] + 1.0, 0.48, start[2]]);
  const state = await page.evaluate(() => ({
    pos: window.snugApp.position('stool'),
    overlap: window.snugApp.overlaps('stool', 'sculpture'),
    red: window.snugApp.isBlocked('sculpture'),
    contacts: window.snugApp.mover.contacts.length,
    stats: window.snugApp.stats,
  }));
  await page.screenshot({ path: `${shots}drag-blocked.png` });
  await page.mouse.up();
  assert.equal(state.overlap, false, 'the core reports no overlap at the final pose');
  assert.ok(state.pos[0] > start[0] + 1.0, `the stool moved towards the sculpture: x ${state.pos[0]}`);
  assert.ok(state.pos[0] < obstacle[0] - 0.3, `the stool stopped before the sculpture: x ${state.pos[0]} vs ${obstacle[0]}`);
  assert.ok(state.red, 'the blocker is red');
  assert.ok(state.contacts > 0, 'contact points are shown');
  assert.ok(state.stats.lastMs >= 0 && state.stats.queries > 0);
  assert.deepEqual(errors, []);
});

test('dragging the dragon diagonally into the left wall slides along it', async (t) => {
  const { page, errors } = ctx;
  if (!(await canMove(page))) return t.skip('the module has neither snug_mesh_sweep nor snug_mesh_overlap yet');
  const start = await page.evaluate(() => window.snugApp.position('dragon'));
  await drag(page, [start[0], 0.3, start[2]], [start[0] - 3, 0.3, start[2] + 1.5], 20);
  const state = await page.evaluate(() => ({
    pos: window.snugApp.position('dragon'),
    overlap: window.snugApp.overlaps('dragon', 'left wall'),
    red: window.snugApp.isBlocked('left wall'),
  }));
  await page.screenshot({ path: `${shots}drag-slide.png` });
  await page.mouse.up();
  assert.equal(state.overlap, false);
  assert.ok(state.pos[0] > -5.0, `inside the room: x ${state.pos[0]}`);
  assert.ok(state.pos[2] > start[2] + 1.0, `slid along the wall: z ${start[2]} -> ${state.pos[2]}`);
  assert.ok(state.red, 'the wall is red');
  assert.deepEqual(errors, []);
});

test('H walks the hierarchy of the last grabbed object level by level', async (t) => {
  const { page, errors } = ctx;
  if (!(await page.evaluate(() => typeof window.snugApp.snug.module._snug_mesh_serialize === 'function'))) {
    return t.skip('the module has no snug_mesh_serialize yet');
  }
  await page.keyboard.press('h');
  await page.keyboard.press('h');
  await page.keyboard.press('h');
  const state = await page.evaluate(() => {
    const h = window.snugApp.hierarchy;
    return { level: h.level, levels: h.helper.levels.length, visible: h.helper.levels.map((l) => l.visible), name: h.entry.object.name };
  });
  await page.screenshot({ path: `${shots}hierarchy.png` });
  assert.equal(state.level, 2);
  assert.ok(state.levels > 3, `levels ${state.levels}`);
  assert.deepEqual(state.visible.map((v, i) => v === (i === 2)), state.visible.map(() => true), 'only level 2 shows');
  assert.deepEqual(errors, []);
});
