// snug as a user gets it: `npm pack`, an offline install of the tarball into a new Vite + three.js project (three
// and vite linked from this repository's node_modules, so nothing is downloaded), node importing the package, a
// production build with Vite's default settings, and the built app in headless Chromium. The app (tests/package/app/)
// drags a box into a wall on the main thread, on two threads, in a worker of its own, builds a hierarchy in snug's
// worker and finds a box's surfaces there on the tools module (a chunk of its own in the bundle).
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../browser/browser.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'snug-package-'));
const app = join(work, 'app');
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
let packed;
let foundInNode; // the box's surfaces found in node: the page must find the same

// The stopping point of the app's drag: the box's face (half size 0.5) on the wall's face (x = 2 - 0.1).
const CONTACT_X = 1.4;
function assertSnapped(snapped, where) {
  assert.deepEqual(snapped, { reasons: [], onTableB: true, y: 0.75, violations: 0 }, `${where}: the book did not land on the table`);
}
function assertBlocked(drag, where) {
  assert.equal(drag.blocked, true, `${where}: the drag into the wall is not blocked (${JSON.stringify(drag)})`);
  assert.ok(Math.abs(drag.stoppedAt - CONTACT_X) < 1e-3, `${where}: stopped at x = ${drag.stoppedAt}, not ${CONTACT_X}`);
}

before(() => {
  // npm pack runs the prepack script (make package); --json lists what the tarball holds.
  const out = run('npm', ['pack', '--offline', '--json', '--pack-destination', work], repo);
  packed = JSON.parse(out.slice(out.search(/^\[/m)))[0]; // after the prepack script's output
  mkdirSync(app);
  cpSync(fileURLToPath(new URL('app/', import.meta.url)), app, { recursive: true });
  cpSync(join(repo, 'examples/configurator'), join(app, 'configurator'), { recursive: true });
  const linked = (name) => `file:${join(repo, 'node_modules', name)}`;
  writeFileSync(join(app, 'package.json'), JSON.stringify({
    name: 'snug-package-test-app', private: true, type: 'module',
    // Threads on a page: the threaded module's three files are served as they are (see docs/guide.md).
    scripts: { build: 'mkdir -p public/snug-mt && cp node_modules/snug/dist/snug-mt.* public/snug-mt/ && vite build' },
    dependencies: { snug: `file:${join(work, packed.filename)}`, three: linked('three') },
    devDependencies: { vite: linked('vite') },
  }, null, 2));
  run('npm', ['install', '--offline', '--install-links=false', '--no-package-lock', '--no-audit', '--no-fund'], app);
});

after(async () => {
  await browser?.close();
  if (server) await new Promise((r) => server.httpServer.close(r));
  rmSync(work, { recursive: true, force: true });
});

test('the tarball holds the JS API, the three.js layer, the worker, types and the three prebuilt modules', () => {
  const files = packed.files.map((f) => f.path).sort();
  for (const f of ['dist/snug.js', 'dist/scene.js', 'dist/place.js', 'dist/internal.js', 'dist/snug-layout.js',
    'dist/worker.js', 'dist/node-web-worker.js', 'dist/snug-three.js', 'dist/snug.d.ts', 'dist/snug-three.d.ts',
    'dist/placement.js', 'dist/placement.d.ts', 'dist/snug.mjs', 'dist/snug.wasm', 'dist/snug-mt.mjs', 'dist/snug-mt.wasm',
    'dist/snug-mt.worker.js', 'dist/snug-tools.mjs', 'dist/snug-tools.wasm', 'package.json']) {
    assert.ok(files.includes(f), `${f} missing from ${files.join(', ')}`);
  }
  assert.deepEqual(files.filter((f) => !f.startsWith('dist/') && f !== 'package.json' && f !== 'README.md'), []);
  const pkg = JSON.parse(readFileSync(join(app, 'node_modules/snug/package.json'), 'utf8'));
  assert.equal(pkg.private, undefined);
  assert.ok(pkg.peerDependencies.three, 'three is a peer dependency');
  const targets = [pkg.types];
  for (const entry of Object.values(pkg.exports)) targets.push(...(typeof entry === 'string' ? [entry] : Object.values(entry)));
  for (const t of targets) assert.ok(existsSync(join(app, 'node_modules/snug', t)), `export target ${t} is not in the package`);
});

test('node: import { Snug } from "snug" finds the wasm next to the module; threads, workers and tools too', () => {
  const result = JSON.parse(run('node', ['node.mjs'], app));
  assertBlocked(result.main, 'node');
  assertSnapped(result.snapped, 'node');
  assert.deepEqual(result.gltf, ['SNUG_placement', 'function'], 'snug/gltf: the placement extension');
  assertBlocked(result.threaded, 'node, threaded');
  assert.equal(result.threaded.threads, 2);
  assert.equal(result.builtInWorker, 2);
  assert.deepEqual(result.builtInOwnWorker, [2, 1], 'a worker started from snug/worker serves two builds');
  // a 1 m box is furniture: its top comes first (offers first, largest first) as a workspace, and it rests on the floor
  assert.deepEqual([result.found[0].kind, result.found[0].label, result.found[0].normal], ['offer', 'onWorkspace', [0, 1, 0]]);
  assert.equal(result.found.find((s) => s.kind === 'binding')?.label, 'onFloor', JSON.stringify(result.found));
  foundInNode = result.found;
});

// The built app served by Vite's preview server, and Chromium: made by the build test, used by the example's.
let server, browser;
async function openPage(path) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console.error: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(new URL(path, server.resolvedUrls.local[0]).href);
  return { page, errors };
}

test('Vite builds the app and Chromium runs it: the drag is blocked everywhere, the book snaps onto the table', async () => {
  run('npm', ['run', 'build'], app);
  const { preview } = await import(pathToFileURL(join(app, 'node_modules/vite/dist/node/index.js')).href);
  server = await preview({ root: app, preview: { port: 0, host: '127.0.0.1' }, logLevel: 'error' });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const { page, errors } = await openPage('./');
  await page.waitForFunction(() => window.result, null, { timeout: 60000 }).catch((e) => {
    throw new Error(`the app did not finish (${e.message}); errors: ${errors.join(' | ') || 'none'}`);
  });
  const result = await page.evaluate(() => window.result);
  assertBlocked(result.main, 'page');
  assert.ok(result.threaded, 'the page is not cross-origin isolated');
  assert.equal(result.threaded.threads, 2);
  assertBlocked(result.threaded, 'page, threaded');
  assertBlocked(result.worker, 'app worker');
  assert.equal(result.builtInWorker, 6 * 8 * 8 * 2);
  assertSnapped(result.snapped, 'page');
  assert.ok(foundInNode, 'the node test ran first');
  assert.deepEqual(result.found, foundInNode, 'the page finds the box\'s surfaces as node does');
  assert.deepEqual(errors, []);
  await page.close();
});

// examples/configurator, built from the installed package like the app: a person drags the book on the table onto
// the shelf with the mouse, then inserts a lamp on the table with the toolbar and a click.
test('examples/configurator: a mouse drag re-seats the book on the shelf; + Lamp and a click put a lamp on the table', async () => {
  const { page, errors } = await openPage('./configurator/');
  await page.waitForFunction(() => window.configurator, null, { timeout: 60000 });
  // Where an object's point (its origin raised by dy) is on the screen, and what it rests on.
  const screen = (name, nth = 0, dy = 0) => page.evaluate(([name, nth, dy]) => {
    const { sync, camera } = window.configurator;
    const e = sync.entries.filter((x) => x.label === name)[nth];
    const p = e.object.position.clone();
    p.y += dy;
    p.project(camera);
    return [(p.x + 1) / 2 * innerWidth, (1 - p.y) / 2 * innerHeight];
  }, [name, nth, dy]);
  const restsOn = (name, nth = 0) => page.evaluate(([name, nth]) => {
    const { sync } = window.configurator;
    const e = sync.entries.filter((x) => x.label === name)[nth];
    return e.body.bindings().map((b) => sync.entryOf(b.supporter).label);
  }, [name, nth]);
  assert.deepEqual(await restsOn('book', 1), ['table']);
  const [x0, y0] = await screen('book', 1, 0.02), [x1, y1] = await screen('shelf', 0, 0.5);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (let k = 1; k <= 30; k++) await page.mouse.move(x0 + (x1 - x0) * k / 30, y0 + (y1 - y0) * k / 30);
  await page.mouse.up();
  assert.deepEqual(await restsOn('book', 1), ['shelf'], 'the book was re-seated on the shelf in one gesture');
  await page.click('[data-item=lamp]');
  const [tx, ty] = await screen('table', 0, 0.75);
  await page.mouse.click(tx, ty);
  assert.deepEqual(await restsOn('lamp', 1), ['table'], 'the inserted lamp stands on the table');
  assert.deepEqual(await page.evaluate(() => window.configurator.check()), []);
  mkdirSync(join(repo, 'build/package'), { recursive: true });
  await page.screenshot({ path: join(repo, 'build/package/configurator.png') });
  assert.deepEqual(errors, []);
});
