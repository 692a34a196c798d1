// The ornaments' meshes on a page built by Vite: each one a virtual module of web/vite.config.js (read from its npm
// package at build time), in its own chunk that is fetched on the first call. In node, tests/meshes/load.mjs gives
// the same arrays (loadMesh).
export async function loadOrnamentMeshes() {
  const [bunny, teapot, dragon11k, dragon48k] = await Promise.all([
    import('virtual:snug-meshes/bunny'), import('virtual:snug-meshes/teapot'),
    import('virtual:snug-meshes/dragon11k'), import('virtual:snug-meshes/dragon48k'),
  ]);
  return { bunny: bunny.default, teapot: teapot.default, dragon11k: dragon11k.default, dragon48k: dragon48k.default };
}
