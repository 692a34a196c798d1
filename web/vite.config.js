// Vite builds and serves the page from web/. The wasm module comes from build/wasm (make wasm); the standard
// meshes are read from their npm packages at build time and bundled, so the page fetches nothing from outside.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { loadMesh } from '../tests/meshes/load.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));
const VIRTUAL = 'virtual:snug-meshes';

// Bundled models as base64 typed arrays: one string per array, decoded once on load.
function bundledMeshes(names) {
  return {
    name: 'snug-meshes',
    resolveId(id) { return id === VIRTUAL ? `\0${VIRTUAL}` : null; },
    async load(id) {
      if (id !== `\0${VIRTUAL}`) return null;
      const lines = ['const d = (s, T) => { const b = Uint8Array.from(atob(s), (c) => c.charCodeAt(0)); return new T(b.buffer); };'];
      for (const name of names) {
        const { positions, indices } = await loadMesh(name);
        const b64 = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
        lines.push(`export const ${name} = { positions: d('${b64(positions)}', Float32Array), indices: d('${b64(indices)}', Uint32Array) };`);
      }
      return lines.join('\n');
    },
  };
}

export default defineConfig({
  root,
  base: './',
  publicDir: false,
  plugins: [bundledMeshes(['bunny', 'dragon11k', 'teapot'])],
  server: { fs: { allow: [repo] }, host: 'localhost' },
  preview: { host: 'localhost' },
  build: { outDir: `${repo}/build/web`, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000 },
  worker: { format: 'es' },
});
