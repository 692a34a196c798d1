// Placement surfaces of catalog items (the place layer's format, issue 17): an offer is where others may be put
// (normal pointing outward, towards where a binding comes from), a binding is what an item rests or leans with
// (normal pointing into its own item). Polygons are planar, simple, 3..32 vertices, counter-clockwise seen from the
// tip of the normal; the helpers here put them in that order whatever order they are written in.

export const MAX_POLYGON_VERTICES = 32;

/** Newell's normal of a polygon (not normalized): robust for any simple polygon, convex or not. */
export function polygonNormal(polygon) {
  const n = [0, 0, 0];
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i], b = polygon[(i + 1) % polygon.length];
    n[0] += (a[1] - b[1]) * (a[2] + b[2]);
    n[1] += (a[2] - b[2]) * (a[0] + b[0]);
    n[2] += (a[0] - b[0]) * (a[1] + b[1]);
  }
  return n;
}

function surface(kind, label, normal, polygon) {
  const n = polygonNormal(polygon);
  const ordered = n[0] * normal[0] + n[1] * normal[1] + n[2] * normal[2] < 0 ? [...polygon].reverse() : polygon;
  return { kind, label, normal: [...normal], polygon: ordered.map((p) => [...p]) };
}

export const offer = (label, normal, polygon) => surface('offer', label, normal, polygon);
export const binding = (label, normal, polygon) => surface('binding', label, normal, polygon);

/** Rectangle in the plane y = h between corners (x0, z0) and (x1, z1). */
export const rectY = (y, [x0, z0], [x1, z1]) => [[x0, y, z0], [x1, y, z0], [x1, y, z1], [x0, y, z1]];
/** Rectangle in the plane z = c between corners (x0, y0) and (x1, y1). */
export const rectZ = (z, [x0, y0], [x1, y1]) => [[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]];

/** The n-gon of a three.js CylinderGeometry cap of radius r at height y (same vertex angles: x = r sin, z = r cos). */
export function disc(y, r, n, [cx, cz] = [0, 0]) {
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    return [cx + r * Math.sin(a), y, cz + r * Math.cos(a)];
  });
}

/** Convex hull of points [x, z] (Andrew's monotone chain) in order around it; collinear points dropped. */
export function hullXZ(points) {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list) => {
    const h = [];
    for (const q of list) {
      while (h.length >= 2 && cross(h[h.length - 2], h[h.length - 1], q) >= 0) h.pop();
      h.push(q);
    }
    h.pop();
    return h;
  };
  return half(p).concat(half([...p].reverse()));
}

/**
 * A convex polygon [x, z] cut down to at most `max` vertices by dropping, one at a time, the vertex whose removal
 * loses the least area (the result stays convex and inside the original).
 */
export function simplifyConvex(polygon, max = MAX_POLYGON_VERTICES) {
  const p = [...polygon];
  const area = (a, b, c) => Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
  while (p.length > max) {
    let best = 0, bestArea = Infinity;
    for (let i = 0; i < p.length; i++) {
      const a = area(p[(i + p.length - 1) % p.length], p[i], p[(i + 1) % p.length]);
      if (a < bestArea) { bestArea = a; best = i; }
    }
    p.splice(best, 1);
  }
  return p;
}

/** Area of a polygon [x, z]. */
export function areaXZ(polygon) {
  let a = 0;
  for (let i = 0; i < polygon.length; i++) {
    const p = polygon[i], q = polygon[(i + 1) % polygon.length];
    a += p[0] * q[1] - q[0] * p[1];
  }
  return Math.abs(a) / 2;
}
