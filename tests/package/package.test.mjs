// snug as a user gets it: `npm pack`, an offline install of the tarball into a new Vite + three.js project (three
// and vite linked from this repository's node_modules, so nothing is downloaded), node importing the package, a
// production build with Vite's default settings, and the built app in headless Chromium. The app (tests/package/app/)
// drags a box into a wall on the main thread, on two threads, in a worker of its own, and builds a hierarchy in
// snug's worker.
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

// The stopping point of the app's drag: the box's face (half size 0.5) on the wall's face (x = 2 - 0.1).
const CONTACT_X = 1.4;
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

after(() => rmSync(work, { recursive: true, force: true }));

test('the tarball holds the JS API, the three.js layer, the worker, types and both prebuilt modules', () => {
  const files = packed.files.map((f) => f.path).sort();
  for (const f of ['dist/snug.js', 'dist/scene.js', 'dist/place.js', 'dist/internal.js', 'dist/snug-layout.js',
    'dist/worker.js', 'dist/node-web-worker.js', 'dist/snug-three.js', 'dist/snug.d.ts', 'dist/snug-three.d.ts',
    'dist/snug.mjs', 'dist/snug.wasm', 'dist/snug-mt.mjs', 'dist/snug-mt.wasm', 'dist/snug-mt.worker.js',
    'package.json']) {
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

test('node: import { Snug } from "snug" finds the wasm next to the module; threads and workers too', () => {
  const result = JSON.parse(run('node', ['node.mjs'], app));
  assertBlocked(result.main, 'node');
  assertBlocked(result.threaded, 'node, threaded');
  assert.equal(result.threaded.threads, 2);
  assert.equal(result.builtInWorker, 2);
  assert.deepEqual(result.builtInOwnWorker, [2, 1], 'a worker started from snug/worker serves two builds');
});

test('Vite builds the app and Chromium runs it: the drag is blocked everywhere', async () => {
  run('npm', ['run', 'build'], app);
  const { preview } = await import(pathToFileURL(join(app, 'node_modules/vite/dist/node/index.js')).href);
  const server = await preview({ root: app, preview: { port: 0, host: '127.0.0.1' }, logLevel: 'error' });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console.error: ${m.text()}`); });
    page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
    await page.goto(server.resolvedUrls.local[0]);
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
    // SNAP CHECK (issue 17, added by the lead once placement lands): assert result.snapped here.
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await new Promise((r) => server.httpServer.close(r));
  }
});
