// Shared browser setup for the page tests: serve build/web with Vite's preview server, launch Debian's chromium
// headless through playwright-core (WebGL via SwiftShader, flags from DESIGN.md), and collect page errors.
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));

export const CHROMIUM_ARGS = [
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];

export async function openPage({ width = 1280, height = 800 } = {}) {
  const server = await preview({
    configFile: `${repo}/web/vite.config.js`,
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
    logLevel: 'error',
  });
  const url = server.resolvedUrls.local[0];
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width, height } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console.error: ${m.text()}`); });
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(url);
  try {
    await page.waitForFunction(() => window.snugApp && window.snugApp.snug, null, { timeout: 60000 });
  } catch (e) {
    const status = await page.evaluate(() => document.getElementById('status')?.textContent).catch(() => '?');
    await browser.close();
    await new Promise((r) => server.httpServer.close(r));
    throw new Error(`the page did not start (${status}); errors: ${errors.join(' | ') || 'none'}`);
  }
  const close = async () => { await browser.close(); await new Promise((r) => server.httpServer.close(r)); };
  return { page, errors, close, url };
}
