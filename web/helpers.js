// Drawing snug results in three.js: contact points with normals, colliding triangles, a placement surface (the
// offer a drag rests on), and a bounding volume hierarchy level by level. Buffers are allocated once per capacity
// and rewritten, not rebuilt per frame.
import {
  BufferAttribute, BufferGeometry, Group, LineBasicMaterial, LineLoop, LineSegments, Mesh, MeshBasicMaterial, Points,
  PointsMaterial, Vector3, DoubleSide,
} from 'three';

/** Contact points (dots) and normals (short lines). */
export class ContactHelper extends Group {
  constructor({ capacity = 64, color = 0xffd166, normalLength = 0.25, size = 10 } = {}) {
    super();
    this.name = 'snug contacts';
    this.capacity = capacity;
    this.normalLength = normalLength;
    this._pts = new Float32Array(3 * capacity);
    this._lines = new Float32Array(6 * capacity);
    const pg = new BufferGeometry();
    pg.setAttribute('position', new BufferAttribute(this._pts, 3));
    const lg = new BufferGeometry();
    lg.setAttribute('position', new BufferAttribute(this._lines, 3));
    this.points = new Points(pg, new PointsMaterial({ color, size, sizeAttenuation: false, depthTest: false }));
    this.lines = new LineSegments(lg, new LineBasicMaterial({ color, depthTest: false }));
    this.points.renderOrder = this.lines.renderOrder = 10;
    this.points.frustumCulled = this.lines.frustumCulled = false;
    this.add(this.points, this.lines);
    this.set([]);
  }

  /** contacts: array of { point, normal } with Vector3 or array-like values. */
  set(contacts) {
    const n = Math.min(contacts.length, this.capacity);
    const v = (x, i) => (x.x !== undefined ? [x.x, x.y, x.z][i] : x[i]);
    for (let k = 0; k < n; k++) {
      const { point, normal } = contacts[k];
      for (let i = 0; i < 3; i++) {
        this._pts[3 * k + i] = v(point, i);
        this._lines[6 * k + i] = v(point, i);
        this._lines[6 * k + 3 + i] = v(point, i) + (normal ? v(normal, i) * this.normalLength : 0);
      }
    }
    this.points.geometry.setDrawRange(0, n);
    this.lines.geometry.setDrawRange(0, 2 * n);
    this.points.geometry.attributes.position.needsUpdate = true;
    this.lines.geometry.attributes.position.needsUpdate = true;
    this.visible = n > 0;
  }
}

/**
 * A placement surface (a convex polygon of up to 32 corners, e.g. an offer), filled and outlined, drawn over what is
 * under it and lifted a little along its normal so it never fights the face it lies on.
 */
export class SurfaceHelper extends Group {
  constructor({ color = 0x4cc9f0, opacity = 0.4, lift = 0.003 } = {}) {
    super();
    this.name = 'snug surface';
    this.lift = lift;
    this._pos = new Float32Array(3 * 32);
    const fill = new BufferGeometry();
    fill.setAttribute('position', new BufferAttribute(this._pos, 3));
    fill.setIndex(new BufferAttribute(new Uint16Array(3 * 30), 1));
    const outline = new BufferGeometry();
    outline.setAttribute('position', fill.getAttribute('position'));
    // Drawn over what is on the surface too (the lamp standing on it does not hide where it may go).
    this.fill = new Mesh(fill, new MeshBasicMaterial({ color, transparent: true, opacity, side: DoubleSide, depthWrite: false, depthTest: false }));
    this.outline = new LineLoop(outline, new LineBasicMaterial({ color, transparent: true, opacity: 0.9, depthTest: false }));
    this.fill.renderOrder = this.outline.renderOrder = 8;
    this.fill.frustumCulled = this.outline.frustumCulled = false;
    this.add(this.fill, this.outline);
    this.set(null);
  }

  /** corners: world points (Vector3 or [x, y, z]) in order around the polygon, or null to hide it. */
  set(corners) {
    if (!corners || corners.length < 3) {
      this.visible = false;
      return;
    }
    const n = Math.min(corners.length, 32);
    const p = corners.slice(0, n).map((c) => (c.isVector3 ? c : new Vector3().fromArray(c)));
    const normal = new Vector3().subVectors(p[1], p[0]).cross(new Vector3().subVectors(p[2], p[0])).normalize();
    p.forEach((c, k) => c.clone().addScaledVector(normal, this.lift).toArray(this._pos, 3 * k));
    const index = this.fill.geometry.index;
    for (let k = 0; k < n - 2; k++) index.array.set([0, k + 1, k + 2], 3 * k); // a fan: the polygon is convex
    index.needsUpdate = true;
    this.fill.geometry.setDrawRange(0, 3 * (n - 2));
    this.outline.geometry.setDrawRange(0, n);
    this.fill.geometry.attributes.position.needsUpdate = true;
    this.fill.geometry.computeBoundingSphere();
    this.visible = true;
  }
}

/** Highlights triangles (by creation id) of a mesh's source arrays, drawn in an object's world frame. */
export class TriangleHelper extends Mesh {
  constructor({ capacity = 4096, color = 0xff3355 } = {}) {
    const g = new BufferGeometry();
    const pos = new Float32Array(9 * capacity);
    g.setAttribute('position', new BufferAttribute(pos, 3));
    super(g, new MeshBasicMaterial({ color, side: DoubleSide, depthTest: false, transparent: true, opacity: 0.85 }));
    this.name = 'snug triangles';
    this.capacity = capacity;
    this.renderOrder = 9;
    this.frustumCulled = false;
    this.matrixAutoUpdate = false;
    this._pos = pos;
    this.count = 0;
  }

  /** Begin a new set of triangles. */
  clear() {
    this.count = 0;
    this.geometry.setDrawRange(0, 0);
    this.visible = false;
  }

  /** Add triangles `ids` of arrays { positions, indices } (mesh space) transformed by matrixWorld. */
  addTriangles(arrays, ids, matrixWorld) {
    const { positions, indices } = arrays;
    const v = new Vector3();
    for (const tri of ids) {
      if (this.count >= this.capacity) break;
      for (let c = 0; c < 3; c++) {
        const i = indices ? indices[3 * tri + c] : 3 * tri + c;
        v.fromArray(positions, 3 * i).applyMatrix4(matrixWorld);
        v.toArray(this._pos, 9 * this.count + 3 * c);
      }
      this.count++;
    }
    this.geometry.setDrawRange(0, 3 * this.count);
    this.geometry.attributes.position.needsUpdate = true;
    this.visible = this.count > 0;
  }
}

const LEVEL_COLORS = [0x4cc9f0, 0x4895ef, 0x4361ee, 0x7209b7, 0xb5179e, 0xf72585, 0xff9f1c, 0x2ec4b6];

/**
 * Boxes of a bounding volume hierarchy, one LineSegments per level (toggle with showLevel / showLevels).
 * boxes: Float32Array, 6 per node (min xyz, max xyz); levels: Uint8Array/array of node depths. Both come from
 * hierarchyBoxes() below or any source with that layout.
 */
export class HierarchyHelper extends Group {
  constructor(boxes, levels) {
    super();
    this.name = 'snug hierarchy';
    const depth = levels.length ? Math.max(...levels) + 1 : 0;
    const counts = new Array(depth).fill(0);
    for (const l of levels) counts[l]++;
    this.levels = [];
    for (let d = 0; d < depth; d++) {
      const pos = new Float32Array(counts[d] * 24 * 3);
      let k = 0;
      for (let n = 0; n < levels.length; n++) {
        if (levels[n] !== d) continue;
        const b = boxes.subarray(6 * n, 6 * n + 6);
        for (const [a, c] of BOX_EDGES) {
          for (const corner of [a, c]) {
            pos[k++] = corner & 1 ? b[3] : b[0];
            pos[k++] = corner & 2 ? b[4] : b[1];
            pos[k++] = corner & 4 ? b[5] : b[2];
          }
        }
      }
      const g = new BufferGeometry();
      g.setAttribute('position', new BufferAttribute(pos, 3));
      const lines = new LineSegments(g, new LineBasicMaterial({ color: LEVEL_COLORS[d % LEVEL_COLORS.length], transparent: true, opacity: 0.7 }));
      lines.name = `level ${d}`;
      lines.visible = false;
      this.levels.push(lines);
      this.add(lines);
    }
  }

  /** Show exactly one level (others hidden). */
  showLevel(level) {
    this.levels.forEach((l, i) => { l.visible = i === level; });
  }

  /** Show levels 0..upTo. */
  showLevels(upTo) {
    this.levels.forEach((l, i) => { l.visible = i <= upTo; });
  }
}

const BOX_EDGES = [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]];

/**
 * The core's own hierarchy of a mesh, read from its blob (Mesh.serialize(), format version 1 as documented in
 * core/src/blob.c): every node's box and its depth. Boxes are in mesh space. Returns { boxes, levels }.
 */
export function hierarchyFromBlob(blob) {
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const magic = String.fromCharCode(...blob.subarray(0, 7));
  if (magic !== 'SNUGMSH' || dv.getUint32(8, true) !== 1) throw new Error('snug: not a version 1 snug mesh blob');
  const V = dv.getUint32(32, true), T = dv.getUint32(36, true), N = dv.getUint32(40, true);
  const headerSize = dv.getUint32(12, true), defSize = dv.getUint32(56, true);
  const nodesAt = headerSize + defSize + 12 * V + 12 * T + 4 * T;
  const boxes = new Float32Array(6 * N);
  const levels = new Uint8Array(N);
  for (let n = 0; n < N; n++) {
    const at = nodesAt + 32 * n;
    for (let a = 0; a < 3; a++) {
      boxes[6 * n + a] = dv.getFloat32(at + 4 * a, true);
      boxes[6 * n + 3 + a] = dv.getFloat32(at + 16 + 4 * a, true);
    }
    const first = dv.getUint32(at + 12, true), children = dv.getUint32(at + 28, true) & 7;
    // Parents precede their children (checked by the loader), so a child's depth is known from its parent's.
    for (let c = 0; c < children; c++) levels[first + c] = levels[n] + 1;
  }
  return { boxes, levels };
}

/**
 * A bounding-box hierarchy of a mesh's triangles computed here (median split on the longest axis), for drawing
 * when no blob is at hand (the core's own tree comes from hierarchyFromBlob). Returns { boxes: Float32Array(6 per node), levels: Uint8Array }.
 */
export function hierarchyBoxes(arrays, { leafSize = 8, maxDepth = 12 } = {}) {
  const { positions, indices } = arrays;
  const triCount = indices ? indices.length / 3 : positions.length / 9;
  const ids = new Uint32Array(triCount).map((_, i) => i);
  const cent = new Float32Array(3 * triCount);
  const corner = (t, c) => (indices ? indices[3 * t + c] : 3 * t + c);
  for (let t = 0; t < triCount; t++) {
    for (let c = 0; c < 3; c++) for (let a = 0; a < 3; a++) cent[3 * t + a] += positions[3 * corner(t, c) + a] / 3;
  }
  const boxes = [];
  const levels = [];
  const stack = [[0, triCount, 0]];
  while (stack.length) {
    const [lo, hi, depth] = stack.pop();
    const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (let k = lo; k < hi; k++) {
      for (let c = 0; c < 3; c++) {
        const v = corner(ids[k], c);
        for (let a = 0; a < 3; a++) {
          b[a] = Math.min(b[a], positions[3 * v + a]);
          b[3 + a] = Math.max(b[3 + a], positions[3 * v + a]);
        }
      }
    }
    boxes.push(...b);
    levels.push(depth);
    if (hi - lo <= leafSize || depth + 1 >= maxDepth) continue;
    const ext = [b[3] - b[0], b[4] - b[1], b[5] - b[2]];
    const axis = ext[0] >= ext[1] && ext[0] >= ext[2] ? 0 : ext[1] >= ext[2] ? 1 : 2;
    const part = Array.from(ids.subarray(lo, hi)).sort((x, y) => cent[3 * x + axis] - cent[3 * y + axis]);
    ids.set(part, lo);
    const mid = (lo + hi) >> 1;
    stack.push([mid, hi, depth + 1], [lo, mid, depth + 1]);
  }
  return { boxes: Float32Array.from(boxes), levels: Uint8Array.from(levels) };
}
