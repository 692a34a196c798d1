// Cross-origin isolation (SharedArrayBuffer) lets the page run snug on two threads.
const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
// Two pages: the app, and examples/configurator copied in by the test.
export default {
  server: { headers: isolation },
  preview: { headers: isolation },
  build: { rollupOptions: { input: { main: 'index.html', configurator: 'configurator/index.html' } } },
};
