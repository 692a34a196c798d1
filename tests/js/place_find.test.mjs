// Surfaces found from triangles through the JS API: Mesh.findSurfaces on the tools module (the placement format:
// kind, label name, unit normal, convex counter-clockwise polygon; a table's top and feet, a sphere's single resting
// binding at its lowest point, the def's fields reaching the core, bad input), its clear refusal on the plain
// module, which leaves the finder out, and snug.findSurfaces, which runs it from the plain module in a worker on the
// tools module and gives the same answer.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Snug, SnugError } from '../../wasm/snug.js';
import { wasmBinary, sphere } from './support.mjs';

const snug = await Snug.create({ tools: true });
const plain = await Snug.create({ wasmBinary });

// Boxes [x0, y0, z0, x1, y1, z1] as one mesh, faces counter-clockwise outward.
function boxes(list) {
  const pos = [], idx = [];
  const faces = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3];
  for (const [x0, y0, z0, x1, y1, z1] of list) {
    const base = pos.length / 3;
    for (let v = 0; v < 8; v++) pos.push((v & 1) ^ ((v >> 1) & 1) ? x1 : x0, v & 2 ? y1 : y0, v & 4 ? z1 : z0);
    for (const i of faces) idx.push(base + i);
  }
  return { positions: Float32Array.from(pos), indices: Uint32Array.from(idx) };
}

// A 1.6 x 0.9 table, top at 0.78, four 6 cm legs inset 3 cm.
const table = boxes([[-0.8, 0.72, -0.45, 0.8, 0.78, 0.45],
  ...[[-0.77, -0.42], [0.71, -0.42], [-0.77, 0.36], [0.71, 0.36]].map(([x, z]) => [x, 0, z, x + 0.06, 0.72, z + 0.06])]);

function area(s) { // along the normal, by the fan from the first vertex
  let a = 0;
  const [o] = s.polygon;
  for (let k = 1; k + 1 < s.polygon.length; k++) {
    const e1 = s.polygon[k].map((v, i) => v - o[i]), e2 = s.polygon[k + 1].map((v, i) => v - o[i]);
    const c = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    a += 0.5 * (c[0] * s.normal[0] + c[1] * s.normal[1] + c[2] * s.normal[2]);
  }
  return a;
}

function checkFormat(surfaces) {
  for (const s of surfaces) {
    assert.ok(s.kind === 'offer' || s.kind === 'binding', s.kind);
    assert.equal(typeof s.label, 'string');
    assert.ok(Math.abs(Math.hypot(...s.normal) - 1) < 1e-5, 'unit normal');
    assert.ok(s.polygon.length >= 3 && s.polygon.length <= 32, `${s.polygon.length} vertices`);
    for (let i = 0; i < s.polygon.length; i++) { // every corner turns left about the normal: convex, counter-clockwise
      const [a, b, c] = [0, 1, 2].map((k) => s.polygon[(i + k) % s.polygon.length]);
      const e1 = b.map((v, j) => v - a[j]), e2 = c.map((v, j) => v - b[j]);
      const turn = (e1[1] * e2[2] - e1[2] * e2[1]) * s.normal[0] + (e1[2] * e2[0] - e1[0] * e2[2]) * s.normal[1] +
        (e1[0] * e2[1] - e1[1] * e2[0]) * s.normal[2];
      assert.ok(turn > -1e-7, `corner ${i} turns right (${turn})`);
    }
  }
}

test('findSurfaces: a table offers its top onWorkspace and rests on its feet onFloor', () => {
  const mesh = snug.createMesh(table);
  const found = mesh.findSurfaces();
  checkFormat(found);
  assert.deepEqual(found.map((s) => [s.kind, s.label]), [['offer', 'onWorkspace'], ['binding', 'onFloor']]);
  const [top, feet] = found;
  assert.deepEqual(top.normal, [0, 1, 0]);
  for (const p of top.polygon) assert.ok(Math.abs(p[1] - 0.78) < 1e-6);
  assert.ok(Math.abs(area(top) - 1.44) < 1e-4, `top area ${area(top)}`);
  for (const p of feet.polygon) assert.equal(p[1], 0);
  assert.ok(Math.abs(area(feet) - 1.54 * 0.84) < 1e-4, `feet hull area ${area(feet)}`);
  assert.deepEqual(mesh.findSurfaces(), found, 'the same answer again');
  mesh.dispose();
});

test('findSurfaces: a ball offers nothing and rests on one binding at its lowest point', () => {
  const mesh = snug.createMesh(sphere(0.2, 24, 32));
  const found = mesh.findSurfaces();
  checkFormat(found);
  assert.equal(found.length, 1);
  assert.equal(found[0].kind, 'binding');
  assert.equal(found[0].label, 'onStore', 'a 40 cm ball is smaller than furniture');
  const low = mesh.info().aabbMin[1];
  for (const p of found[0].polygon) assert.ok(Math.abs(p[1] - low) < 1e-6);
  mesh.dispose();
});

test('findSurfaces: the def reaches the core', () => {
  const mesh = snug.createMesh(table);
  // furniture from 2 m on: the table is small now, so its top stores and its feet bind onStore
  assert.deepEqual(mesh.findSurfaces({ bigSize: 2 }).map((s) => s.label), ['onStore', 'onStore']);
  // up along -y: the table's underside faces up, with its legs standing on it: offered around the legs
  const flipped = mesh.findSurfaces({ up: [0, -1, 0], forward: [0, 0, 0] });
  checkFormat(flipped);
  for (const s of flipped.filter((x) => x.kind === 'offer')) assert.deepEqual(s.normal, [0, -1, 0]);
  assert.throws(() => mesh.findSurfaces({ minArea: 2 }), (e) => e instanceof SnugError && e.status === 'SNUG_ERR_INVALID_ARGUMENT' && /min area/.test(e.message));
  assert.throws(() => mesh.findSurfaces({ flatness: NaN }), (e) => e.status === 'SNUG_ERR_NOT_FINITE');
  assert.throws(() => mesh.findSurfaces({ up: [0, 2, 0] }), (e) => e.status === 'SNUG_ERR_INVALID_ARGUMENT');
  mesh.dispose();
  assert.throws(() => mesh.findSurfaces(), (e) => e.status === 'SNUG_ERR_STALE_HANDLE');
});

test('findSurfaces: the plain module has no finder and says where it is', () => {
  const mesh = plain.createMesh(table);
  assert.equal(typeof plain.module._snug_mesh_find_surfaces, 'undefined', 'the finder is not exported');
  assert.throws(() => mesh.findSurfaces(), (e) => e instanceof SnugError && e.status === 'SNUG_ERR_INVALID_ARGUMENT' &&
    /tools module/.test(e.message) && /snug\.findSurfaces/.test(e.message));
  mesh.dispose();
  assert.throws(() => mesh.findSurfaces(), (e) => e.status === 'SNUG_ERR_STALE_HANDLE');
});

test('snug.findSurfaces: from the plain module, in a worker on the tools module, the same surfaces', async () => {
  const ball = sphere(0.2, 24, 32);
  const local = snug.createMesh(table), localBall = snug.createMesh(ball);
  const mesh = plain.createMesh(table);
  const stages = [];
  assert.deepEqual(await plain.findSurfaces(mesh, {}, { onProgress: (stage) => stages.push(stage) }), local.findSurfaces());
  assert.deepEqual(stages, ['load', 'mesh', 'find', 'done']);
  // a mesh def instead of a mesh, and the def reaching the finder
  assert.deepEqual(await plain.findSurfaces(ball), localBall.findSurfaces());
  assert.deepEqual(await plain.findSurfaces(mesh, { bigSize: 2 }), local.findSurfaces({ bigSize: 2 }));
  // the found surfaces are what the mesh takes
  mesh.setSurfaces(await plain.findSurfaces(mesh));
  assert.deepEqual(mesh.surfaces(), local.findSurfaces());
  // the core's errors come back as SnugErrors; a reused worker serves several jobs
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(new URL('../../wasm/worker.js', import.meta.url));
  await assert.rejects(plain.findSurfaces(mesh, { minArea: 2 }, { worker }),
    (e) => e instanceof SnugError && e.status === 'SNUG_ERR_INVALID_ARGUMENT' && /min area/.test(e.message));
  const [a, b] = await Promise.all([plain.findSurfaces(mesh, {}, { worker }), plain.findSurfaces(ball, {}, { worker })]);
  assert.deepEqual([a, b], [local.findSurfaces(), localBall.findSurfaces()]);
  await worker.terminate();
  await assert.rejects(plain.findSurfaces({ indices: [0, 1, 2] }), (e) => e.status === 'SNUG_ERR_INVALID_ARGUMENT');
  await assert.rejects(plain.findSurfaces({ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 7] }),
    (e) => e instanceof SnugError && e.status === 'SNUG_ERR_INDEX_RANGE');
  mesh.dispose();
  await assert.rejects(plain.findSurfaces(mesh), (e) => e.status === 'SNUG_ERR_STALE_HANDLE');
  local.dispose();
  localBall.dispose();
});
