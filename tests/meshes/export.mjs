// Write every standard mesh to <dir>/<name>.bin for the C tests and native benchmarks.
// Layout (little endian): "SNUGMSH1", u32 vertexCount, u32 triangleCount, f32 positions[3v], u32 indices[3t].
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadMesh, meshNames } from './load.mjs';

const dir = process.argv[2] || 'build/meshes';
mkdirSync(dir, { recursive: true });
for (const name of meshNames) {
  const { positions, indices } = await loadMesh(name);
  const head = Buffer.alloc(16);
  head.write('SNUGMSH1', 0, 'latin1');
  head.writeUInt32LE(positions.length / 3, 8);
  head.writeUInt32LE(indices.length / 3, 12);
  writeFileSync(`${dir}/${name}.bin`, Buffer.concat([head, Buffer.from(positions.buffer), Buffer.from(indices.buffer)]));
  console.log(`${name}: ${positions.length / 3} vertices, ${indices.length / 3} triangles`);
}
