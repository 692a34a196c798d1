// Ornaments from mesh data: the npm bunny, teapot and Stanford dragons (11k and 48k), scaled to ornament size,
// standing on y = 0 around their footprint centre, each binding onStore with the convex hull of its lowest
// vertices. This module loads nothing: the caller passes the meshes ({ positions, indices } per name), in node from
// tests/meshes/load.mjs (loadMesh), on a page built by Vite from `virtual:snug-meshes/<name>` (web/vite.config.js
// reads them from the same npm packages at build time), so that the procedural catalog stays light.
import { BufferAttribute, BufferGeometry } from 'three';
import { binding, hullXZ, simplifyConvex } from './surfaces.js';

// size: the largest extent in meters after scaling.
const ORNAMENTS = [
  { id: 'bunny', name: 'Bunny', mesh: 'bunny', size: 0.25, color: 0xd4a373 },
  { id: 'teapot', name: 'Teapot', mesh: 'teapot', size: 0.25, color: 0xf1faee },
  { id: 'dragon', name: 'Dragon (11k)', mesh: 'dragon11k', size: 0.3, color: 0x2a9d8f },
  { id: 'dragon48k', name: 'Dragon (48k)', mesh: 'dragon48k', size: 0.3, color: 0x1b7f73 },
];

/** Names of the meshes the ornaments are made of (keys of the `meshes` argument of ornamentItems). */
export const ORNAMENT_MESHES = ORNAMENTS.map((o) => o.mesh);

// Vertices this close to the lowest one (relative to the height) form the base the ornament rests on.
const BASE_BAND = 0.01;

/** Catalog items (category 'ornament') for the meshes given, e.g. { bunny: { positions, indices }, ... }. */
export function ornamentItems(meshes) {
  return ORNAMENTS.filter((o) => meshes[o.mesh]).map((o) => ({
    id: o.id, name: o.name, category: 'ornament', make: () => ornament(meshes[o.mesh], o),
  }));
}

function ornament({ positions, indices }, { size, color }) {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      lo[a] = Math.min(lo[a], positions[i + a]);
      hi[a] = Math.max(hi[a], positions[i + a]);
    }
  }
  const s = size / Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const cx = (lo[0] + hi[0]) / 2, cz = (lo[2] + hi[2]) / 2;
  const p = new Float32Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    p[i] = (positions[i] - cx) * s;
    p[i + 1] = (positions[i + 1] - lo[1]) * s;
    p[i + 2] = (positions[i + 2] - cz) * s;
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(p, 3));
  geometry.setIndex(new BufferAttribute(Uint32Array.from(indices), 1));
  geometry.computeBoundingBox();
  const band = BASE_BAND * geometry.boundingBox.max.y;
  const base = [];
  for (let i = 0; i < p.length; i += 3) if (p[i + 1] <= band) base.push([p[i], p[i + 2]]);
  const polygon = simplifyConvex(hullXZ(base)).map(([x, z]) => [x, 0, z]);
  return { geometry, surfaces: [binding('onStore', [0, 1, 0], polygon)], upright: false, color };
}
