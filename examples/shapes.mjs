// Procedural meshes for the examples: boxes, cylinders and a plate with a round hole. Every mesh is closed and its
// triangles are counter-clockwise seen from outside (the sweeps judge pushing into a contact by face orientation).
// Each returns { positions: Float32Array, indices: Uint32Array }.

/** Box of size [sx, sy, sz] centred at c. */
export function box([sx, sy, sz], c = [0, 0, 0]) {
  const positions = [];
  for (const [x, y, z] of [[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]]) {
    positions.push(c[0] + (x * sx) / 2, c[1] + (y * sy) / 2, c[2] + (z * sz) / 2);
  }
  const indices = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 3, 6, 2, 3, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3];
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}

/** Box spanning [min, max]. */
export function boxBetween(min, max) {
  return box([max[0] - min[0], max[1] - min[1], max[2] - min[2]], [0, 1, 2].map((k) => (min[k] + max[k]) / 2));
}

// Rings of `segments` points at heights y, as a list of [x, y, z]: radius(i) gives each point's distance to the axis.
function ring(radius, y, segments) {
  const out = [];
  for (let i = 0; i < segments; i++) {
    const a = (2 * Math.PI * i) / segments;
    const r = radius(a);
    out.push([r * Math.cos(a), y, r * Math.sin(a)]);
  }
  return out;
}

// A mesh from vertex lists and triangles over them; `axis` 'z' turns the y axis onto z (a rotation, so the winding
// stays outward), then the mesh moves to `center`.
function build(vertices, triangles, center, axis) {
  const positions = new Float32Array(vertices.length * 3);
  vertices.forEach(([x, y, z], i) => {
    const [px, py, pz] = axis === 'z' ? [x, -z, y] : [x, y, z];
    positions.set([px + center[0], py + center[1], pz + center[2]], 3 * i);
  });
  return { positions, indices: Uint32Array.from(triangles) };
}

/** Cylinder along y (or z with axis: 'z') of a radius and height, centred at center, with capped ends. */
export function cylinder(radius, height, segments, { center = [0, 0, 0], axis = 'y' } = {}) {
  const n = segments;
  const vertices = [...ring(() => radius, -height / 2, n), ...ring(() => radius, height / 2, n), [0, -height / 2, 0], [0, height / 2, 0]];
  const b = (i) => i % n, t = (i) => n + (i % n), bottom = 2 * n, top = 2 * n + 1;
  const tris = [];
  for (let i = 0; i < n; i++) {
    tris.push(b(i), t(i), b(i + 1), b(i + 1), t(i), t(i + 1)); // side
    tris.push(bottom, b(i), b(i + 1), top, t(i + 1), t(i)); // caps
  }
  return build(vertices, tris, center, axis);
}

/**
 * Square plate (width x width, thickness along y) with a round hole of `radius` through its centre: the hole's
 * rim of `segments` points is joined to as many points on the square's outline (8 * segments triangles).
 */
export function plateWithHole(width, thickness, radius, segments, center = [0, 0, 0]) {
  const n = segments, h = thickness / 2;
  const square = (a) => (width / 2) / Math.max(Math.abs(Math.cos(a)), Math.abs(Math.sin(a)));
  const vertices = [...ring(() => radius, h, n), ...ring(square, h, n), ...ring(() => radius, -h, n), ...ring(square, -h, n)];
  const ht = (i) => i % n, st = (i) => n + (i % n), hb = (i) => 2 * n + (i % n), sb = (i) => 3 * n + (i % n);
  const tris = [];
  for (let i = 0; i < n; i++) {
    tris.push(ht(i), ht(i + 1), st(i), ht(i + 1), st(i + 1), st(i)); // top
    tris.push(hb(i), sb(i), hb(i + 1), hb(i + 1), sb(i), sb(i + 1)); // bottom
    tris.push(sb(i), st(i), sb(i + 1), sb(i + 1), st(i), st(i + 1)); // outer wall
    tris.push(hb(i), hb(i + 1), ht(i), hb(i + 1), ht(i + 1), ht(i)); // hole wall, facing the axis
  }
  return build(vertices, tris, center, 'y');
}

/** One mesh of several (a triangle soup: each part stays closed). */
export function merge(...meshes) {
  const positions = new Float32Array(meshes.reduce((n, m) => n + m.positions.length, 0));
  const indices = new Uint32Array(meshes.reduce((n, m) => n + m.indices.length, 0));
  let p = 0, k = 0;
  for (const m of meshes) {
    positions.set(m.positions, p);
    for (let i = 0; i < m.indices.length; i++) indices[k + i] = m.indices[i] + p / 3;
    p += m.positions.length;
    k += m.indices.length;
  }
  return { positions, indices };
}
