// The furniture catalog (web/catalog/): every item's geometry is finite, closed and oriented outward (procedural
// items), and every surface is a valid polygon where it claims to be: offers on the mesh, bindings at the mesh's
// extreme against their normal, the virtual inFrontOfTable offers in front of the table. Tolerances are relative
// to the item's size.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Snug } from '../../wasm/snug.js';
import { catalogItems } from '../../web/catalog/furniture.js';
import { ornamentItems, ORNAMENT_MESHES } from '../../web/catalog/ornaments.js';
import { polygonNormal, MAX_POLYGON_VERTICES } from '../../web/catalog/surfaces.js';
import { loadMesh } from '../meshes/load.mjs';
import { wasmBinary } from './support.mjs';

const snug = await Snug.create({ wasmBinary });
const meshes = Object.fromEntries(await Promise.all(ORNAMENT_MESHES.map(async (n) => [n, await loadMesh(n)])));
const procedural = catalogItems();
const ornaments = ornamentItems(meshes);

// The place layer's default room labels (issue 17).
const LABELS = new Set(['onFloor', 'onWall', 'onWorkspace', 'onStore', 'onSeat', 'onCeiling', 'inFrontOfTable']);
// Offers that stand off the mesh by definition: a strip a little in front of a table's side.
const VIRTUAL = new Set(['inFrontOfTable']);

const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => Math.hypot(a[0], a[1], a[2]);

function arrays(geometry) {
  return { positions: geometry.getAttribute('position').array, indices: geometry.index.array };
}

function vertices(positions) {
  const out = [];
  for (let i = 0; i < positions.length; i += 3) out.push([positions[i], positions[i + 1], positions[i + 2]]);
  return out;
}

function bounds(points) {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const p of points) for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], p[a]); hi[a] = Math.max(hi[a], p[a]); }
  return { lo, hi, diag: norm(sub(hi, lo)) };
}

// Every directed edge once and its reverse once: a closed, consistently oriented surface. Then each connected
// shell encloses a positive volume: its faces point outward.
function orientation({ positions, indices }) {
  const edges = new Map();
  const key = (a, b) => `${a},${b}`;
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const k2 = key(indices[t + k], indices[t + ((k + 1) % 3)]);
      edges.set(k2, (edges.get(k2) || 0) + 1);
    }
  }
  let unpaired = 0;
  for (const [k, n] of edges) {
    const [a, b] = k.split(',');
    if (n !== 1 || edges.get(key(b, a)) !== 1) unpaired++;
  }
  // shells by union-find over the triangles' vertices
  const parent = new Int32Array(positions.length / 3).map((_, i) => i);
  const find = (i) => { while (parent[i] !== i) i = parent[i] = parent[parent[i]]; return i; };
  for (let t = 0; t < indices.length; t += 3) {
    parent[find(indices[t + 1])] = find(indices[t]);
    parent[find(indices[t + 2])] = find(indices[t]);
  }
  const volume = new Map();
  const v = (i) => [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]];
  for (let t = 0; t < indices.length; t += 3) {
    const s = find(indices[t]);
    volume.set(s, (volume.get(s) || 0) + dot(v(indices[t]), cross(v(indices[t + 1]), v(indices[t + 2]))) / 6);
  }
  return { unpaired, volumes: [...volume.values()] };
}

// Proper or touching crossing of segments p1-p2 and q1-q2 in 2D.
function segmentsMeet(p1, p2, q1, q2) {
  const o = (a, b, c) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
  const on = (a, b, c) => Math.min(a[0], b[0]) <= c[0] && c[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= c[1] && c[1] <= Math.max(a[1], b[1]);
  const d1 = o(q1, q2, p1), d2 = o(q1, q2, p2), d3 = o(p1, p2, q1), d4 = o(p1, p2, q2);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (d1 === 0 && on(q1, q2, p1)) || (d2 === 0 && on(q1, q2, p2)) || (d3 === 0 && on(p1, p2, q1)) || (d4 === 0 && on(p1, p2, q2));
}

function isSimple(polygon, normal) {
  const u = norm(cross(normal, [1, 0, 0])) > 0.1 ? cross(normal, [1, 0, 0]) : cross(normal, [0, 1, 0]);
  const w = cross(normal, u);
  const p = polygon.map((x) => [dot(x, u), dot(x, w)]);
  const n = p.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 || (i === 0 && j === n - 1)) continue; // neighbours share a vertex
      if (segmentsMeet(p[i], p[(i + 1) % n], p[j], p[(j + 1) % n])) return false;
    }
  }
  return true;
}

function checkSurface(name, s, mesh, points, box) {
  const tol = 1e-5 * box.diag;
  const what = `${name}: ${s.kind} ${s.label}`;
  assert.ok(s.kind === 'offer' || s.kind === 'binding', `${what}: kind`);
  assert.ok(LABELS.has(s.label), `${what}: label from the default set`);
  assert.ok(Math.abs(norm(s.normal) - 1) < 1e-6, `${what}: unit normal`);
  const poly = s.polygon;
  assert.ok(poly.length >= 3 && poly.length <= MAX_POLYGON_VERTICES, `${what}: ${poly.length} vertices`);
  for (const p of poly) assert.ok(p.length === 3 && p.every(Number.isFinite), `${what}: finite vertices`);
  for (const p of poly) assert.ok(Math.abs(dot(sub(p, poly[0]), s.normal)) <= tol, `${what}: planar`);
  const newell = polygonNormal(poly);
  assert.ok(dot(newell, s.normal) / norm(newell) > 1 - 1e-6, `${what}: counter-clockwise about its normal`);
  assert.ok(isSimple(poly, s.normal), `${what}: simple`);
  const centroid = [0, 1, 2].map((a) => poly.reduce((sum, p) => sum + p[a], 0) / poly.length);
  const extreme = Math.max(...points.map((p) => dot(p, s.normal)));
  if (s.kind === 'binding') {
    // An item rests or leans with its outermost points against the normal.
    const lowest = Math.min(...points.map((p) => dot(p, s.normal)));
    for (const p of poly) assert.ok(Math.abs(dot(p, s.normal) - lowest) <= tol, `${what}: at the mesh's extreme along -normal`);
  } else if (VIRTUAL.has(s.label)) {
    assert.ok(dot(centroid, s.normal) > extreme + tol, `${what}: stands in front of the mesh`);
  } else {
    // A ray from just outside along -normal meets the mesh on the polygon's plane: at the centroid and near each
    // vertex (90 % of the way from the centroid; the polygons are convex).
    const delta = 1e-3 * box.diag;
    const down = s.normal.map((x) => -x);
    for (const p of [centroid, ...poly.map((v) => centroid.map((c, a) => c + 0.9 * (v[a] - c)))]) {
      const origin = p.map((x, a) => x + delta * s.normal[a]);
      const hit = snug.raycast(mesh, null, origin, down, 2 * delta);
      assert.ok(hit && Math.abs(hit.t - delta) <= tol, `${what}: on the mesh at ${p.map((x) => x.toFixed(3))} (hit ${hit && hit.t})`);
    }
  }
}

function checkItem(it, { closed }) {
  const made = it.make();
  const { geometry, surfaces } = made;
  assert.ok(geometry.isBufferGeometry && geometry.index, `${it.id}: an indexed BufferGeometry`);
  const a = arrays(geometry);
  assert.ok(a.positions.every(Number.isFinite), `${it.id}: finite positions`);
  assert.equal(typeof made.upright, 'boolean', `${it.id}: upright`);
  assert.ok(Number.isInteger(made.color), `${it.id}: color`);
  const mesh = snug.createMesh(a);
  const info = mesh.info();
  assert.equal(info.degenerateCount, 0, `${it.id}: no degenerate triangles`);
  if (closed) {
    assert.equal(info.closed, true, `${it.id}: closed`);
    assert.equal(info.boundaryEdgeCount, 0, `${it.id}: no boundary edges`);
    const o = orientation(a);
    assert.equal(o.unpaired, 0, `${it.id}: every edge used once each way`);
    for (const v of o.volumes) assert.ok(v > 0, `${it.id}: every shell faces outward (volume ${v})`);
  } else {
    const o = orientation(a);
    assert.ok(o.volumes.reduce((s, v) => s + v, 0) > 0, `${it.id}: faces outward on the whole`);
  }
  const points = vertices(a.positions);
  const box = bounds(points);
  const tol = 1e-5 * box.diag;
  // Origin: standing items at the footprint centre on y = 0, wall items at the centre of their back in z = 0.
  const rests = surfaces.some((s) => s.kind === 'binding' && s.normal[1] === 1);
  if (it.id === 'floor') assert.ok(Math.abs(box.hi[1]) <= tol, 'floor: top at y = 0');
  else if (rests) assert.ok(Math.abs(box.lo[1]) <= tol, `${it.id}: stands on y = 0`);
  else assert.ok(Math.abs(box.lo[2]) <= tol && Math.abs(box.lo[1] + box.hi[1]) <= tol, `${it.id}: back in z = 0, centred`);
  assert.ok(Math.abs(box.lo[0] + box.hi[0]) <= tol, `${it.id}: centred in x`);
  if (rests || it.id === 'floor') assert.ok(Math.abs(box.lo[2] + box.hi[2]) <= tol, `${it.id}: centred in z`);
  assert.ok(surfaces.length >= 1, `${it.id}: has surfaces`);
  for (const s of surfaces) checkSurface(it.id, s, mesh, points, box);
  mesh.dispose();
  return { made, triangles: info.triangleCount };
}

test('the catalog has the configurator\'s items, each with a category', () => {
  const ids = [...procedural, ...ornaments].map((i) => i.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  for (const id of ['floor', 'wall', 'desk', 'table', 'chair', 'lamp', 'floor-lamp', 'chalkboard', 'books', 'sofa',
    'bookcase', 'rug', 'picture', 'plant', 'monitor', 'bunny', 'teapot', 'dragon', 'dragon48k']) assert.ok(ids.includes(id), id);
  for (const it of procedural) assert.ok(['structure', 'furniture', 'decor'].includes(it.category), it.id);
  for (const it of ornaments) assert.equal(it.category, 'ornament');
});

test('procedural items: closed, outward, small, with valid surfaces', () => {
  for (const it of procedural) {
    const { triangles } = checkItem(it, { closed: true });
    assert.ok(triangles >= 12 && triangles <= 1000, `${it.id}: ${triangles} triangles`);
  }
});

test('ornaments: the npm meshes at ornament size, resting on the hull of their lowest vertices', () => {
  for (const it of ornaments) {
    const { made } = checkItem(it, { closed: false });
    const base = made.surfaces.find((s) => s.kind === 'binding');
    assert.equal(base.label, 'onStore', it.id);
    const { geometry } = made;
    const size = Math.max(...geometry.boundingBox.max.toArray().map((x, a) => x - geometry.boundingBox.min.getComponent(a)));
    assert.ok(size > 0.1 && size < 0.5, `${it.id}: ornament size ${size}`);
  }
});

test('surfaces follow the catalog\'s placement rules', () => {
  const byId = Object.fromEntries(procedural.map((i) => [i.id, i.make()]));
  const labels = (id, kind) => byId[id].surfaces.filter((s) => s.kind === kind).map((s) => s.label).sort();
  assert.deepEqual(labels('table', 'offer'), ['inFrontOfTable', 'inFrontOfTable', 'onWorkspace']);
  assert.deepEqual(labels('chair', 'binding'), ['inFrontOfTable', 'onFloor']);
  assert.deepEqual(labels('bookcase', 'binding'), ['onFloor', 'onWall']);
  assert.deepEqual(labels('desk', 'offer'), ['onStore', 'onWorkspace']);
  assert.deepEqual(labels('rug', 'offer'), ['onFloor']);
  // The plant's pot goes on shelves when small, on the floor when tall.
  const plant = procedural.find((i) => i.id === 'plant');
  assert.equal(plant.make({ height: 0.3 }).surfaces[0].label, 'onStore');
  assert.equal(plant.make({ height: 1.2 }).surfaces[0].label, 'onFloor');
  // A chair standing on the floor fits the table's strip: its binding strip lies within the offer's height range.
  const strip = byId.chair.surfaces.find((s) => s.label === 'inFrontOfTable');
  const side = byId.table.surfaces.find((s) => s.label === 'inFrontOfTable');
  const ys = (s) => s.polygon.map((p) => p[1]);
  assert.ok(Math.min(...ys(strip)) >= Math.min(...ys(side)) && Math.max(...ys(strip)) <= Math.max(...ys(side)));
  // Opposite normals: bound, the chair's strip normal equals the offer's, so the chair faces the table.
  assert.deepEqual(strip.normal.map((x) => x + 0), [0, 0, -1]);
});

test('make() is deterministic', () => {
  for (const it of [...procedural, ...ornaments]) {
    const a = it.make(), b = it.make();
    assert.deepEqual(Array.from(a.geometry.getAttribute('position').array), Array.from(b.geometry.getAttribute('position').array), it.id);
    assert.deepEqual(a.surfaces, b.surfaces, it.id);
  }
});
