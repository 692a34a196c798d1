// Placement on the page (issue 17) in headless Chromium with real pointer and key events, on the core's mover: a
// lamp carried from the desk onto the table is bound to it in the core with a consistent room, slides to the
// table's edge and stays on the top, is carried over the sofa's seat onto the desk's shelf in one gesture, turns by
// R and Shift+R in 15 degree steps (and the table by its ring, the bookcase not at all: locked against the wall), a
// free drag (Alt held, or the Free toggle) shows a ghost and binds where it showed on release, a blocked drag turns
// the blocker red only while it blocks, and Escape puts everything back as it was, bindings included. One page for
// the whole story (each test starts where the one before left the lamp); no page error at any point. Screenshots
// go to build/browser/placement-*.png.
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, openPage, shot, grabPoint, screenOf, mouseDrag, cameraAtRest } from './browser.mjs';

let env, ctx;
before(async () => {
  env = await startBrowser();
  ctx = await openPage(env, { width: 1280, height: 800 });
});
after(async () => { if (env) await env.close(); });

const app = (fn, arg) => ctx.page.evaluate(fn, arg);
const idOf = (item) => app((item) => window.snugApp.placement.ids().find((id) => window.snugApp.placement.itemOf(id) === item), item);
const record = (id) => app((id) => window.snugApp.placement.record(id), id);
// What the core says: the supporters of a body's bindings (as ids), its parent, and the scene's consistency check.
const core = (id) => app((id) => {
  const { placement } = window.snugApp;
  const body = placement.sync.byObject.get(placement.object(id)).body;
  const idOf = (b) => b?.userData.userData.placementId ?? null;
  return {
    supporters: body.bindings().map((b) => idOf(b.supporter)), offers: body.bindings().map((b) => b.offer),
    parent: idOf(body.parent), check: placement.scene.check().map((v) => `${v.kind} ${idOf(v.body)} ${idOf(v.other)}`),
  };
}, id);
const yawDeg = (pose) => (2 * Math.atan2(pose[1], pose[3]) * 180) / Math.PI;
const isRed = (id) => app((id) => window.snugApp.placement.object(id).material.color.getHex() === 0xe63946, id);
const statusText = () => app(() => document.querySelector('#status .status-text').textContent);
// The world centre of offer `offer` of object `id` (the average of its corners) and a point on it off the centre.
const offerPoint = (id, offer, [u, v] = [0.5, 0.5]) => app(([id, offer, u, v]) => {
  const p = window.snugApp.placement.offerPolygon(id, offer);
  // corners 0..3 of a rectangle: 0 -> 1 along one side, 0 -> 3 along the other
  return [0, 1, 2].map((a) => p[0].getComponent(a) + u * (p[1].getComponent(a) - p[0].getComponent(a)) + v * (p[3].getComponent(a) - p[0].getComponent(a)));
}, [id, offer, u, v]);

// The world point of body-frame point p at pose [qx, qy, qz, qw, px, py, pz], and the body-frame point of world w.
function rotate([x, y, z, w], [vx, vy, vz]) {
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  return [vx + w * tx + y * tz - z * ty, vy + w * ty + z * tx - x * tz, vz + w * tz + x * ty - y * tx];
}
const toWorld = (pose, p) => rotate(pose.slice(0, 4), p).map((x, a) => x + pose[4 + a]);
const toBody = (pose, w) => rotate([-pose[0], -pose[1], -pose[2], pose[3]], w.map((x, a) => x - pose[4 + a]));

// Move the pointer (button held) from where it is to screen point b in `steps` moves.
async function moveTo(page, from, b, steps = 16) {
  for (let i = 1; i <= steps; i++) await page.mouse.move(from.x + ((b.x - from.x) * i) / steps, from.y + ((b.y - from.y) * i) / steps);
  return b;
}

let lamp, table, desk, sofa, bookcase;

test('the desk lamp carried onto the table with real pointer events is bound to the table in the core', async () => {
  const { page, errors } = ctx;
  [lamp, table, desk, sofa, bookcase] = await Promise.all(['lamp', 'table', 'desk', 'sofa', 'bookcase'].map(idOf));
  assert.deepEqual((await core(lamp)).supporters, [desk], 'it starts on the desk');
  await shot(page, 'placement-start');
  const g = await grabPoint(page, lamp);
  const grabbed = toBody((await record(lamp)).pose, g.point);
  // Let go where the grabbed point (on the shade) is over a point of the table's top, at the height it will have
  // there (the desk's top is 1 cm higher than the table's).
  const target = await offerPoint(table, 0, [0.7, 0.35]);
  const release = await screenOf(page, [target[0] + g.point[0] - (await record(lamp)).pose[4], g.point[1] - 0.01, target[2] + g.point[2] - (await record(lamp)).pose[6]]);
  await mouseDrag(page, g, release, { steps: 30, hold: true });
  // While it is carried: the table's top is lit, the lamp stands on it.
  assert.deepEqual(await app(() => window.snugApp.feedback.offerShown), { id: table, offer: 0 });
  assert.equal((await app(() => window.snugApp.feedback.last)).rests[0].id, table);
  await shot(page, 'placement-onto-table');
  await page.mouse.up();
  const c = await core(lamp);
  assert.deepEqual(c.supporters, [table], 'body.bindings()[0].supporter is the table\'s body');
  assert.deepEqual(c.offers, [0], 'on its top');
  assert.equal(c.parent, table, 'and the core carries it with the table');
  assert.deepEqual(c.check, [], 'scene.check() finds nothing wrong');
  const r = await record(lamp);
  assert.ok(Math.abs(r.pose[5] - 0.75) < 1e-5, `on the top: y ${r.pose[5]}`);
  // The point grabbed on the lamp is under the pointer where it was let go (kept on the plane it was grabbed at).
  const now = await screenOf(page, toWorld(r.pose, grabbed));
  assert.ok(Math.hypot(now.x - release.x, now.y - release.y) < 2, `the grabbed point under the pointer: ${JSON.stringify([now, release])}`);
  assert.ok(Math.hypot(r.pose[4] - target[0], r.pose[6] - target[2]) < 0.02, `the lamp over that point: ${r.pose} vs ${target}`);
  assert.equal(await app(() => window.snugApp.history.undos.at(-1)?.name), 'Move', 'one undo step');
  assert.deepEqual(errors, []);
});

test('slid to the table\'s edge it stays on the top (contained) and stays bound', async () => {
  const { page, errors } = ctx;
  const g = await grabPoint(page, lamp);
  // Far past the table's right end, at the grab's height.
  await mouseDrag(page, g, await screenOf(page, [3.0, g.point[1], g.point[2]]), { steps: 30, hold: true });
  const last = await app(() => window.snugApp.feedback.last);
  assert.ok(last.reasons.includes('contained'), `contained: ${last.reasons}`);
  await shot(page, 'placement-edge');
  await page.mouse.up();
  const r = await record(lamp);
  // The base (radius 8 cm) reaches the table's end (x 1.8) and no further than the 5 % overhang.
  const reach = r.pose[4] + 0.08;
  assert.ok(reach > 1.75 && reach <= 1.8 + 0.05 * 0.08 + 1e-5, `the base at the edge: ${reach}`);
  assert.ok(Math.abs(r.pose[5] - 0.75) < 1e-5, 'still on the top');
  const c = await core(lamp);
  assert.deepEqual(c.supporters, [table]);
  assert.deepEqual(c.check, []);
  assert.deepEqual(errors, []);
});

test('carried over the sofa\'s seat and onto the desk\'s shelf in one gesture, it re-seats on each', async () => {
  const { page, errors } = ctx;
  const g = await grabPoint(page, lamp);
  await page.mouse.move(g.x, g.y);
  await page.mouse.down();
  let at = await moveTo(page, g, await screenOf(page, await offerPoint(sofa, 0)), 30);
  const onSeat = await app(() => window.snugApp.feedback.last);
  assert.deepEqual(onSeat.rests.map((x) => x.id), [sofa], 'on the sofa\'s seat (a table lamp fits a seat)');
  assert.deepEqual((await core(lamp)).check, []);
  await shot(page, 'placement-over-sofa');
  // The desk's shelf is its second offer (onStore, the board above the top's back).
  const shelf = await app((id) => window.snugApp.placement.surfacesOf(id).findIndex((s) => s.kind === 'offer' && s.label === 'onStore'), desk);
  at = await moveTo(page, at, await screenOf(page, await offerPoint(desk, shelf, [0.6, 0.5])), 30);
  const onShelf = await app(() => window.snugApp.feedback.last);
  assert.deepEqual(onShelf.rests, [{ id: desk, offer: shelf }], 'on the desk\'s shelf');
  await shot(page, 'placement-onto-shelf');
  await page.mouse.up();
  const c = await core(lamp);
  assert.deepEqual([c.supporters, c.offers, c.parent], [[desk], [shelf], desk]);
  assert.deepEqual(c.check, []);
  assert.ok(Math.abs((await record(lamp)).pose[5] - 1.18) < 1e-5, 'standing on the shelf board (y 1.18)');
  assert.deepEqual(errors, []);
});

test('R and Shift+R turn the selection in 15 degree steps about the offer\'s normal; each is one undo step', async () => {
  const { page, errors } = ctx;
  assert.deepEqual(await app(() => window.snugApp.selection.list()), [lamp], 'the dragged lamp is selected');
  const yaw0 = yawDeg((await record(lamp)).pose);
  const steps = [];
  for (const key of ['r', 'r', 'Shift+R', 'r']) {
    await page.keyboard.press(key);
    steps.push(yawDeg((await record(lamp)).pose));
  }
  const turned = steps.map((y) => Math.round((((y - yaw0 + 540) % 360) - 180) * 1e3) / 1e3);
  assert.deepEqual(turned, [15, 30, 15, 30], `turns ${steps}`);
  const r = await record(lamp);
  assert.ok(Math.abs(r.pose[0]) < 1e-6 && Math.abs(r.pose[2]) < 1e-6, 'about the vertical only');
  assert.deepEqual((await core(lamp)).check, []);
  assert.deepEqual((await core(lamp)).supporters, [desk], 'still on the shelf');
  await page.keyboard.press('Control+z');
  assert.ok(Math.abs(yawDeg((await record(lamp)).pose) - steps[2]) < 1e-3, 'undo takes one step back');
  await page.keyboard.press('Control+Shift+z');
  assert.ok(Math.abs(yawDeg((await record(lamp)).pose) - steps[3]) < 1e-3, 'redo gives it again');
  await shot(page, 'placement-turned');
  assert.deepEqual(errors, []);
});

// The screen point of angle `deg` on the turn gizmo's ring (its knob sits at 0).
const ringPoint = (deg) => app((deg) => {
  const { gizmo, viewport } = window.snugApp;
  const a = (deg * Math.PI) / 180;
  const p = gizmo.group.localToWorld(gizmo.group.position.clone().set(Math.cos(a), Math.sin(a), 0));
  return viewport.screenOf(p);
}, deg);

test('the ring turns the lamp in 15 degree steps, the table until it touches a chair; a bookcase against the wall is locked', async () => {
  const { page, errors } = ctx;
  // Around the selected lamp (on the desk's shelf).
  await cameraAtRest(page);
  assert.deepEqual(await app(() => [window.snugApp.gizmo.id, window.snugApp.gizmo.group.visible]), [lamp, true], 'the ring shows around the lamp');
  const ringTurn = async (from, to) => {
    let at = await ringPoint(from);
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    for (let deg = from + 5; deg <= to; deg += 5) at = await moveTo(page, at, await ringPoint(deg), 2);
  };
  let yaw0 = yawDeg((await record(lamp)).pose);
  await ringTurn(0, 50);
  await shot(page, 'placement-ring');
  await page.mouse.up();
  let turned = yawDeg((await record(lamp)).pose) - yaw0;
  assert.ok(Math.abs(Math.abs(turned) - 45) < 1e-3, `turned by three 15 degree steps: ${turned}`);
  assert.deepEqual((await core(lamp)).check, []);
  assert.equal(await app(() => window.snugApp.history.undos.at(-1)?.name), 'Turn');

  // The table turns until a corner touches a chair: the chair is red while it blocks.
  const tp = await grabPoint(page, table);
  await page.mouse.click(tp.x, tp.y);
  await cameraAtRest(page);
  yaw0 = yawDeg((await record(table)).pose);
  await ringTurn(0, 40);
  const last = await app(() => window.snugApp.feedback.last);
  const lit = await app(() => window.snugApp.feedback.offerShown);
  const chairs = await app(() => window.snugApp.placement.ids().filter((id) => window.snugApp.placement.itemOf(id) === 'chair'));
  const red = await Promise.all(chairs.map(isRed));
  await shot(page, 'placement-ring-blocked');
  await page.mouse.up();
  turned = yawDeg((await record(table)).pose) - yaw0;
  assert.ok(last.reasons.includes('turn-blocked'), `turn-blocked: ${last.reasons}`);
  assert.ok(last.blockers.some((id) => chairs.includes(id)), `a chair blocks: ${last.blockers}`);
  assert.ok(red.some(Boolean), 'and is red while it does');
  assert.equal(lit, null, 'the floor it stands on is not lit (the room\'s shell never is)');
  assert.ok(Math.abs(turned) > 1 && Math.abs(turned) < 15, `stopped short of the first step: ${turned}`);
  assert.deepEqual((await core(table)).check, []);
  assert.deepEqual(await Promise.all(chairs.map(isRed)), chairs.map(() => false), 'no red after the release');
  await page.keyboard.press('Control+z');
  assert.ok(Math.abs(yawDeg((await record(table)).pose) - yaw0) < 1e-4, 'undo turns it back');

  const bp = await grabPoint(page, bookcase);
  await page.mouse.click(bp.x, bp.y);
  await cameraAtRest(page);
  const before = await record(bookcase);
  await ringTurn(0, 40);
  const locked = await app(() => ({ locked: window.snugApp.gizmo.locked, bar: window.snugApp.gizmo.bar.visible }));
  await shot(page, 'placement-locked');
  await page.mouse.up();
  assert.deepEqual(locked, { locked: true, bar: true }, 'the ring shows it is locked');
  assert.match(await statusText(), /cannot turn/);
  assert.deepEqual(await record(bookcase), before, 'the bookcase did not move');
  await page.keyboard.press('r');
  assert.deepEqual(await record(bookcase), before, 'nor with R');
  assert.deepEqual(errors, []);
});

test('a free drag (Alt held) shows a ghost on the table and binds there on release; with nothing under it, it goes back', async () => {
  const { page, errors } = ctx;
  const g = await grabPoint(page, lamp);
  // The pointer ends over the table's top, aimed 20 cm above its front part: a free drag's object floats on a plane
  // facing the view, the seat it would take is on the offer under the pointer.
  const target = await offerPoint(table, 0, [0.3, 0.5]);
  await page.keyboard.down('Alt');
  await mouseDrag(page, g, await screenOf(page, [target[0], 0.95, 0.1]), { steps: 30, hold: true });
  const during = await app(() => ({
    last: window.snugApp.feedback.last, ghost: window.snugApp.feedback.ghost?.visible ?? false,
    ghostPose: window.snugApp.feedback.ghost && [...window.snugApp.feedback.ghost.quaternion.toArray(), ...window.snugApp.feedback.ghost.position.toArray()],
    offer: window.snugApp.feedback.offerShown,
  }));
  const free = await core(lamp);
  await shot(page, 'placement-free-ghost');
  await page.mouse.up();
  await page.keyboard.up('Alt');
  assert.equal(during.last.mode, 'free');
  assert.equal(during.ghost, true, 'the ghost shows');
  assert.deepEqual(during.offer, { id: table, offer: 0 }, 'on the table\'s top, lit');
  assert.deepEqual(free.supporters, [], 'carried free, the lamp rests on nothing');
  const c = await core(lamp);
  assert.deepEqual([c.supporters, c.offers], [[table], [0]], 'let go, it is bound to the table');
  assert.deepEqual(c.check, []);
  const pose = (await record(lamp)).pose;
  during.ghostPose.forEach((x, k) => assert.ok(Math.abs(x - pose[k]) < 1e-5, `where the ghost was: ${pose} vs ${during.ghostPose}`));
  assert.equal(await app(() => window.snugApp.feedback.ghost), null, 'the ghost is gone');

  // The Free toggle, and a release over the bare floor (a table lamp does not stand there): back where it was.
  await page.click('button[data-action="free"]');
  assert.equal(await page.getAttribute('button[data-action="free"]', 'aria-pressed'), 'true');
  const before = await record(lamp);
  const undos = await app(() => window.snugApp.history.undos.length);
  const g2 = await grabPoint(page, lamp);
  await mouseDrag(page, g2, await screenOf(page, [-1.5, g2.point[1], 1.5]), { steps: 20 });
  assert.deepEqual(await record(lamp), before, 'it went back');
  assert.match(await statusText(), /Nothing there to put it on/);
  assert.equal(await app(() => window.snugApp.history.undos.length), undos, 'no undo step');
  await page.click('button[data-action="free"]');
  assert.equal(await page.getAttribute('button[data-action="free"]', 'aria-pressed'), 'false');
  assert.deepEqual((await core(lamp)).check, []);
  assert.deepEqual(errors, []);
});

test('a blocked drag turns the blocker red while it blocks, with contact marks; both clear on release', async () => {
  const { page, errors } = ctx;
  // The books from the bookcase onto the table beside the lamp, by a drag.
  const books = await idOf('books');
  const lampAt = (await record(lamp)).pose;
  const bg = await grabPoint(page, books);
  await mouseDrag(page, bg, await screenOf(page, [lampAt[4] + 0.5, 0.75 + (bg.point[1] - (await record(books)).pose[5]), lampAt[6]]), { steps: 40 });
  assert.deepEqual((await core(books)).supporters, [table], 'the books are on the table');
  assert.deepEqual((await core(books)).check, []);
  // The lamp pushed straight into them.
  const g = await grabPoint(page, lamp);
  await mouseDrag(page, g, await screenOf(page, [g.point[0] + 1.0, g.point[1], g.point[2]]), { steps: 30, hold: true });
  const during = await app(([a, b]) => ({
    last: window.snugApp.feedback.last, contacts: window.snugApp.feedback.contacts.visible,
    overlap: window.snugApp.placement.overlaps(a, b),
  }), [lamp, books]);
  const red = await isRed(books);
  const others = await app((books) => window.snugApp.placement.ids().filter((id) => id !== books &&
    window.snugApp.placement.object(id).material.color.getHex() === 0xe63946), books);
  await shot(page, 'placement-blocked');
  await page.mouse.up();
  assert.ok(during.last.reasons.includes('blocked'), `blocked: ${during.last.reasons}`);
  assert.deepEqual(during.last.blockers, [books]);
  assert.equal(red, true, 'the books are red while they block');
  assert.deepEqual(others, [], 'nothing else is');
  assert.equal(during.contacts, true, 'contact marks show');
  assert.equal(during.overlap, false, 'the lamp stopped short of the books');
  assert.equal(await isRed(books), false, 'the red goes with the release');
  assert.equal(await app(() => window.snugApp.feedback.contacts.visible), false);
  assert.deepEqual((await core(lamp)).check, []);
  assert.deepEqual(errors, []);
});

test('Escape during a drag that re-seated the lamp puts it back as it was, bound to the table again', async () => {
  const { page, errors } = ctx;
  const room = await app(() => window.snugApp.placement.snapshot());
  const undos = await app(() => window.snugApp.history.undos.length);
  const g = await grabPoint(page, lamp);
  await mouseDrag(page, g, await screenOf(page, await offerPoint(sofa, 0)), { steps: 30, hold: true });
  assert.deepEqual((await core(lamp)).supporters, [sofa], 'on the sofa while held');
  await page.keyboard.press('Escape');
  await page.mouse.up();
  assert.deepEqual(await app(() => window.snugApp.placement.snapshot()), room, 'every pose and binding as it was, to the bit');
  const c = await core(lamp);
  assert.deepEqual([c.supporters, c.parent], [[table], table]);
  assert.deepEqual(c.check, []);
  assert.equal(await app(() => window.snugApp.history.undos.length), undos, 'a cancelled drag is no undo step');
  assert.equal(await app(() => window.snugApp.feedback.offer.visible), false, 'no highlight left');
  await shot(page, 'placement-escaped');
  assert.deepEqual(errors, []);
});
