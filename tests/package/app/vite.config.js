// Cross-origin isolation (SharedArrayBuffer) lets the page run snug on two threads.
const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
export default { server: { headers: isolation }, preview: { headers: isolation } };
