// Vite builds and serves the page from web/. The wasm module comes from build/wasm (make wasm); the standard
// meshes are read from their npm packages at build time and bundled, so the page fetches nothing from outside.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { loadMesh, meshNames } from '../tests/meshes/load.mjs';
import { controllerProfiles } from './xr/vite-profiles.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));
const VIRTUAL = 'virtual:snug-meshes';

// Bundled models as base64 typed arrays: one string per array, decoded once on load. `virtual:snug-meshes` holds the
// page's default meshes; `virtual:snug-meshes/<name>` any one of tests/meshes/load.mjs's meshes as its default export,
// for a dynamic import (its own chunk, fetched when asked for: the catalog's ornaments).
function bundledMeshes(names) {
  const b64 = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
  const decode = 'const d = (s, T) => { const b = Uint8Array.from(atob(s), (c) => c.charCodeAt(0)); return new T(b.buffer); };';
  const mesh = async (name) => {
    const { positions, indices } = await loadMesh(name);
    return `{ positions: d('${b64(positions)}', Float32Array), indices: d('${b64(indices)}', Uint32Array) }`;
  };
  return {
    name: 'snug-meshes',
    resolveId(id) {
      if (id === VIRTUAL) return `\0${VIRTUAL}`;
      const name = id.startsWith(`${VIRTUAL}/`) && id.slice(VIRTUAL.length + 1);
      return name && meshNames.includes(name) ? `\0${id}` : null;
    },
    async load(id) {
      if (id === `\0${VIRTUAL}`) {
        const lines = [decode];
        for (const name of names) lines.push(`export const ${name} = ${await mesh(name)};`);
        return lines.join('\n');
      }
      if (id.startsWith(`\0${VIRTUAL}/`)) return `${decode}\nexport default ${await mesh(id.slice(VIRTUAL.length + 2))};`;
      return null;
    },
  };
}

// Cross-origin isolation (SharedArrayBuffer, so the threaded module) for the dev server and the preview server.
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

// The threaded module (make wasm: build/wasm/snug-mt.mjs, .wasm, .worker.js) is served and shipped as is, in its
// own folder snug-mt/: its pthread workers are classic scripts that import the module file by URL, so neither file
// may be bundled or transformed (the dev server's import rewriting puts an import statement into the classic
// worker). snug.js loads it from the URL the page passes (threadedModuleUrl); the .wasm and the worker script are
// found next to it.
const MT_FILES = { 'snug-mt.mjs': 'text/javascript', 'snug-mt.worker.js': 'text/javascript', 'snug-mt.wasm': 'application/wasm' };
function threadedModule() {
  const file = (name) => readFileSync(`${repo}/build/wasm/${name}`);
  return {
    name: 'snug-threaded-module',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const name = /^\/snug-mt\/([^?]+)/.exec(req.url || '')?.[1];
        if (!name || !MT_FILES[name]) return next();
        res.setHeader('Content-Type', MT_FILES[name]);
        for (const [k, v] of Object.entries(ISOLATION)) res.setHeader(k, v);
        res.end(file(name));
      });
    },
    generateBundle() {
      for (const name of Object.keys(MT_FILES)) this.emitFile({ type: 'asset', fileName: `snug-mt/${name}`, source: file(name) });
    },
  };
}

export default defineConfig({
  root,
  base: './',
  publicDir: false,
  plugins: [bundledMeshes(['bunny', 'dragon11k', 'teapot']), threadedModule(), controllerProfiles()],
  server: { fs: { allow: [repo] }, host: 'localhost', headers: ISOLATION },
  preview: { host: 'localhost', headers: ISOLATION },
  build: { outDir: `${repo}/build/web`, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000 },
  worker: { format: 'es' },
});
