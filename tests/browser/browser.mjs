// Shared browser setup for the page tests: serve build/web with Vite's preview server (what `make run` serves),
// launch Debian's chromium headless through playwright-core (WebGL via SwiftShader, flags from DESIGN.md), open
// pages in fresh contexts (fresh storage) and collect their errors. Helpers drive real input: mouse, touch and pen
// through the browser's input pipeline (CDP Input.*), so the page sees trusted pointer events.
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
export const SHOTS = `${repo}build/browser/`;
mkdirSync(SHOTS, { recursive: true });

export const CHROMIUM_ARGS = [
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];

/** The preview server and a browser, shared by the tests of one file. close() stops both. */
export async function startBrowser() {
  const server = await preview({
    configFile: `${repo}web/vite.config.js`,
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
    logLevel: 'error',
  });
  const url = server.resolvedUrls.local[0];
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const close = async () => { await browser.close(); await new Promise((r) => server.httpServer.close(r)); };
  return { url, browser, close };
}

/**
 * A page of the app in a fresh context, ready for a drag (window.snugApp.ready). options: viewport size,
 * hasTouch/isMobile (a phone), context (reuse one, e.g. for a reload with the same storage).
 * Returns { page, context, errors, goto() } where errors collects page errors, console errors and failed requests.
 */
export async function openPage(env, { width = 1280, height = 800, hasTouch = false, isMobile = false, context = null } = {}) {
  context = context ?? await env.browser.newContext({ viewport: { width, height }, hasTouch, isMobile, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console.error: ${m.text()}`); });
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
  const goto = async () => {
    await page.goto(env.url);
    try {
      await page.waitForFunction(() => window.snugApp && window.snugApp.ready, null, { timeout: 60000 });
    } catch (e) {
      const status = await page.evaluate(() => document.getElementById('status')?.textContent).catch(() => '?');
      throw new Error(`the page did not start (${status}); errors: ${errors.join(' | ') || 'none'}`);
    }
  };
  await goto();
  return { page, context, errors, goto };
}

/** Screenshot under build/browser/<name>.png. */
export const shot = (page, name) => page.screenshot({ path: `${SHOTS}${name}.png` });

/**
 * A screen point on object `id` inside the 3D view (the app's own pick through the core says it hits that object)
 * and the world point hit there: { x, y, point: [x, y, z] }. Tries points of the object's box, center first.
 */
export function grabPoint(page, id) {
  return page.evaluate((id) => {
    const { placement, viewport } = window.snugApp;
    const o = placement.object(id);
    const box = o.geometry.boundingBox.clone().applyMatrix4(o.matrixWorld);
    const c = box.getCenter(o.position.clone());
    for (const f of [0, 0.15, -0.15, 0.3, -0.3]) {
      for (const g of [0.25, 0, 0.4, -0.2]) {
        const p = c.clone().set(c.x + f * (box.max.x - box.min.x), c.y + g * (box.max.y - box.min.y), c.z + f * (box.max.z - box.min.z));
        const s = viewport.screenOf(p);
        if (!viewport.contains(s.x, s.y)) continue;
        const hit = placement.pick(viewport.ray(s.x, s.y));
        if (hit && hit.id === id) return { x: s.x, y: s.y, point: hit.point.toArray() };
      }
    }
    throw new Error(`no point of the view picks ${id}`);
  }, id);
}

/** A screen point inside the view where the app's pick finds the bare floor (scanning from the center out). */
export function floorPoint(page) {
  return page.evaluate(() => {
    const { placement, viewport } = window.snugApp;
    const r = viewport.canvas.getBoundingClientRect();
    for (let k = 0; k < 12; k++) {
      for (const [fx, fy] of [[0.5, 0.6], [0.3, 0.7], [0.7, 0.7], [0.2, 0.5], [0.8, 0.5], [0.5, 0.85], [0.15, 0.85], [0.85, 0.85]]) {
        const x = r.left + r.width * (fx + (k % 3 - 1) * 0.04), y = r.top + r.height * (fy + (Math.floor(k / 3) - 1.5) * 0.03);
        const hit = placement.pick(viewport.ray(x, y));
        if (hit && hit.id === 'floor') return { x, y };
      }
    }
    throw new Error('no bare floor in the view');
  });
}

/**
 * Wait until the camera comes to rest: under 0.1 mm a frame (the orbit controls damp their motion geometrically,
 * so what is left of it adds up to under 2 mm).
 */
export async function cameraAtRest(page) {
  let last = null;
  for (let i = 0; i < 100; i++) {
    const now = await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
      const { camera } = window.snugApp.viewport;
      resolve([...camera.position.toArray(), ...camera.quaternion.toArray()]);
    }))));
    if (last && now.every((x, k) => Math.abs(x - last[k]) < 1e-4)) return;
    last = now;
  }
  throw new Error('the camera does not come to rest');
}

/** Client coordinates of a world point. */
export const screenOf = (page, [x, y, z]) => page.evaluate(([x, y, z]) => window.snugApp.screenOfWorld(x, y, z), [x, y, z]);

/** A mouse drag with real events from screen point a to b in `steps` moves; release unless { hold: true }. */
export async function mouseDrag(page, a, b, { steps = 16, hold = false, button = 'left' } = {}) {
  await page.mouse.move(a.x, a.y);
  await page.mouse.down({ button });
  for (let i = 1; i <= steps; i++) await page.mouse.move(a.x + ((b.x - a.x) * i) / steps, a.y + ((b.y - a.y) * i) / steps);
  if (!hold) await page.mouse.up({ button });
}

/**
 * A touch gesture through the browser's touch pipeline: paths is one [from, to] pair of screen points per finger;
 * every finger goes down, moves in `steps` and lifts.
 */
export async function touchDrag(page, paths, { steps = 12 } = {}) {
  const cdp = await page.context().newCDPSession(page);
  const at = (k) => paths.map(([a, b], id) => ({ x: a.x + ((b.x - a.x) * k) / steps, y: a.y + ((b.y - a.y) * k) / steps, id }));
  // Fingers land one at a time, as they do.
  for (let n = 1; n <= paths.length; n++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0).slice(0, n) });
  for (let k = 1; k <= steps; k++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(k) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** A pen drag (pointerType 'pen') from a to b through the browser's input pipeline. */
export async function penDrag(page, a, b, { steps = 12 } = {}) {
  const cdp = await page.context().newCDPSession(page);
  const ev = (type, p, buttons) => cdp.send('Input.dispatchMouseEvent', {
    type, x: p.x, y: p.y, button: 'left', buttons, clickCount: type === 'mouseMoved' ? 0 : 1, pointerType: 'pen', force: 0.5,
  });
  await ev('mouseMoved', a, 0);
  await ev('mousePressed', a, 1);
  for (let k = 1; k <= steps; k++) await ev('mouseMoved', { x: a.x + ((b.x - a.x) * k) / steps, y: a.y + ((b.y - a.y) * k) / steps }, 1);
  await ev('mouseReleased', b, 0);
  await cdp.detach();
}
