// three.js integration, usable on its own: snug meshes from BufferGeometry, Object3D <-> pose sync (parent/child
// included), and a drag mover that stops at first contact and slides along what blocks it.
//
// snug poses are rigid (rotation + translation), three.js world matrices may scale: the scale is baked into the
// snug mesh when it is created (one mesh per geometry and world scale, shared by every object using both).
import { Box3, Matrix4, Quaternion, Vector3 } from 'three';
import { pose as makePose } from '../wasm/snug.js';

const _p = new Vector3();
const _q = new Quaternion();
const _s = new Vector3();
const _m = new Matrix4();
const _one = new Vector3(1, 1, 1);

/** Pose [qx, qy, qz, qw, px, py, pz] of a matrix, scale dropped. */
export function poseFromMatrix(matrix, out = new Float32Array(7)) {
  matrix.decompose(_p, _q, _s);
  out[0] = _q.x; out[1] = _q.y; out[2] = _q.z; out[3] = _q.w;
  out[4] = _p.x; out[5] = _p.y; out[6] = _p.z;
  return out;
}

/** Matrix of a pose with an optional scale (the scale baked into the snug mesh). */
export function matrixFromPose(pose, scale = _one, out = new Matrix4()) {
  return out.compose(_p.set(pose[4], pose[5], pose[6]), _q.set(pose[0], pose[1], pose[2], pose[3]), scale);
}

/**
 * Positions (scaled) and indices of a BufferGeometry, indexed or not, interleaved or not. Returns the arrays
 * the snug mesh is made of; indices is null for a non-indexed geometry (every 3 vertices form a triangle).
 */
export function geometryArrays(geometry, scale = [1, 1, 1]) {
  const attr = geometry.getAttribute('position');
  if (!attr) throw new Error('snug: geometry has no position attribute');
  const n = attr.count;
  const positions = new Float32Array(3 * n);
  const sx = scale.x ?? scale[0], sy = scale.y ?? scale[1], sz = scale.z ?? scale[2];
  for (let i = 0; i < n; i++) {
    positions[3 * i] = attr.getX(i) * sx;
    positions[3 * i + 1] = attr.getY(i) * sy;
    positions[3 * i + 2] = attr.getZ(i) * sz;
  }
  let indices = geometry.index ? geometry.index.array : null;
  // A draw range or groups restricted to part of the index are not what collides; use the whole index.
  if (indices && !(indices instanceof Uint32Array) && !(indices instanceof Uint16Array)) indices = Uint32Array.from(indices);
  return { positions, indices };
}

/** A snug Mesh from a BufferGeometry at a scale (array-like or Vector3). */
export function meshFromGeometry(snug, geometry, { scale = [1, 1, 1], label, weld, bvh } = {}) {
  const { positions, indices } = geometryArrays(geometry, scale);
  return snug.createMesh({ positions, indices, label: label ?? geometry.name, weld, bvh });
}

/**
 * Keeps Object3Ds and snug collision objects in step. Each registered object gets a snug mesh (shared between
 * objects with the same geometry and world scale) and a world pose read from its matrixWorld, so children move
 * with their parents exactly as three.js draws them. When the core has scenes (snug_scene_*), a body per object
 * mirrors the three.js parent/child links; otherwise poses are kept here and queries take them directly.
 */
export class SnugSync {
  /** options.scene: a snug Scene (or true to create one) to mirror objects as bodies with their parent links. */
  constructor(snug, { scene = null } = {}) {
    this.snug = snug;
    this.scene = scene === true ? snug.createScene() : scene;
    this._ownScene = scene === true;
    this.entries = [];
    this.byObject = new Map();
    this._meshes = new Map(); // geometry -> Map(scale key -> { mesh, refs })
  }

  /** Register an object (a three.js Mesh or any Object3D with a geometry given in opts). */
  add(object, { geometry = object.geometry, isStatic = false, label = object.name, source, mesh } = {}) {
    object.updateWorldMatrix(true, false);
    const scale = new Vector3();
    object.matrixWorld.decompose(_p, _q, scale);
    const key = `${scale.x.toPrecision(6)},${scale.y.toPrecision(6)},${scale.z.toPrecision(6)}`;
    let perGeom = this._meshes.get(geometry);
    if (!perGeom) this._meshes.set(geometry, (perGeom = new Map()));
    let shared = perGeom.get(key);
    if (!shared) {
      // A prebuilt mesh (e.g. from snug.buildMeshInWorker) must be made of geometryArrays(geometry, scale).
      const arrays = geometryArrays(geometry, scale);
      shared = { mesh: mesh || this.snug.createMesh({ ...arrays, label }), arrays, refs: 0 };
      perGeom.set(key, shared);
    }
    shared.refs++;
    const entry = {
      object, geometry, mesh: shared.mesh, arrays: source || shared.arrays, scale, isStatic, label,
      pose: poseFromMatrix(object.matrixWorld), worldMin: new Vector3(), worldMax: new Vector3(), _key: key,
    };
    if (this.scene) {
      entry.body = this.scene.createBody({ mesh: shared.mesh, pose: entry.pose, isStatic, userData: object });
      const parent = this._registeredAncestor(object);
      if (parent) entry.body.setParent(parent.body, true);
    }
    this.entries.push(entry);
    this.byObject.set(object, entry);
    this._bounds(entry);
    return entry;
  }

  _registeredAncestor(object) {
    for (let o = object.parent; o; o = o.parent) if (this.byObject.has(o)) return this.byObject.get(o);
    return null;
  }

  remove(object) {
    const entry = this.byObject.get(object);
    if (!entry) return;
    if (entry.body) entry.body.dispose();
    this.byObject.delete(object);
    this.entries.splice(this.entries.indexOf(entry), 1);
    const perGeom = this._meshes.get(entry.geometry);
    const shared = perGeom.get(entry._key);
    if (--shared.refs === 0) {
      shared.mesh.dispose();
      perGeom.delete(entry._key);
    }
  }

  /** Read every registered object's world pose from three.js (after the app moved objects). */
  pull() {
    for (const e of this.entries) {
      e.object.updateWorldMatrix(true, false);
      poseFromMatrix(e.object.matrixWorld, e.pose);
      if (e.body) e.body.setPose(e.pose);
      this._bounds(e);
    }
  }

  /** Write the bodies' world poses (e.g. after a collision step commit) back to the three.js objects. */
  push() {
    if (!this.scene) return;
    const pose = new Float32Array(7);
    for (const e of this.entries) {
      if (this._registeredAncestor(e.object)) continue; // moved along with its registered ancestor
      this.setWorldPose(e.object, e.body.getPose(pose));
    }
  }

  /**
   * Set an object's world pose (rotation + translation); its local matrix is solved against the three.js parent
   * so that children follow, and the poses of its registered descendants are refreshed.
   */
  setWorldPose(object, pose) {
    const entry = this.byObject.get(object);
    const world = matrixFromPose(pose, entry ? entry.scale : object.getWorldScale(new Vector3()), _m);
    if (object.parent) {
      object.parent.updateWorldMatrix(true, false);
      world.premultiply(new Matrix4().copy(object.parent.matrixWorld).invert());
    }
    world.decompose(object.position, object.quaternion, object.scale);
    object.updateMatrixWorld(true);
    for (const e of this.entries) {
      if (e.object === object || isDescendant(e.object, object)) {
        poseFromMatrix(e.object.matrixWorld, e.pose);
        this._bounds(e);
      }
    }
    if (entry && entry.body) entry.body.setPose(entry.pose); // the core moves the body's subtree the same way
  }

  // World AABB of the entry's mesh at its pose (from the geometry's box: cheap and conservative).
  _bounds(e) {
    const g = e.geometry;
    if (!g.boundingBox) g.computeBoundingBox();
    e.worldMin.copy(g.boundingBox.min);
    e.worldMax.copy(g.boundingBox.max);
    const box = { min: e.worldMin, max: e.worldMax };
    _tmpBox.set(box.min, box.max).applyMatrix4(e.object.matrixWorld);
    e.worldMin.copy(_tmpBox.min);
    e.worldMax.copy(_tmpBox.max);
  }

  dispose() {
    for (const e of this.entries) if (e.body) e.body.dispose();
    if (this._ownScene) this.scene.dispose();
    for (const perGeom of this._meshes.values()) for (const s of perGeom.values()) s.mesh.dispose();
    this._meshes.clear();
    this.entries.length = 0;
    this.byObject.clear();
  }
}

const _tmpBox = new Box3();

function isDescendant(object, ancestor) {
  for (let o = object.parent; o; o = o.parent) if (o === ancestor) return true;
  return false;
}

/** World-space unit normal of triangle `tri` (creation id) of an entry. */
export function triangleNormal(entry, tri, out = new Vector3()) {
  const { positions, indices } = entry.arrays;
  const i0 = indices ? indices[3 * tri] : 3 * tri, i1 = indices ? indices[3 * tri + 1] : 3 * tri + 1;
  const i2 = indices ? indices[3 * tri + 2] : 3 * tri + 2;
  const a = new Vector3().fromArray(positions, 3 * i0), b = new Vector3().fromArray(positions, 3 * i1);
  const c = new Vector3().fromArray(positions, 3 * i2);
  out.subVectors(b, a).cross(c.sub(a)).normalize();
  return out.applyQuaternion(_q.set(entry.pose[0], entry.pose[1], entry.pose[2], entry.pose[3]));
}

/** World-space centroid of triangle `tri` (creation id) of an entry. */
export function triangleCentroid(entry, tri, out = new Vector3()) {
  const { positions, indices } = entry.arrays;
  out.set(0, 0, 0);
  for (let c = 0; c < 3; c++) {
    const i = indices ? indices[3 * tri + c] : 3 * tri + c;
    out.x += positions[3 * i] / 3; out.y += positions[3 * i + 1] / 3; out.z += positions[3 * i + 2] / 3;
  }
  return out.applyMatrix4(matrixFromPose(entry.pose, undefined, _m));
}

/**
 * Drag mover: moves an entry by a world translation, stopping at the last collision-free pose along the way and
 * sliding the rest of the motion along the blocking surface (up to `maxSlides` times). Uses the core's sweep
 * (snug_mesh_sweep) when the module has it, else bisection on static overlap tests with sub-steps no longer than
 * a fraction of the moving object's size. Only candidates whose world boxes meet the swept box are tested.
 */
export class DragMover {
  constructor(sync, { maxSlides = 3, planeNormal = [0, 1, 0], ignore = () => false } = {}) {
    this.sync = sync;
    this.snug = sync.snug;
    this.maxSlides = maxSlides;
    this.planeNormal = new Vector3().fromArray(planeNormal);
    this.ignore = ignore;
    this.useSweep = typeof this.snug.module._snug_mesh_sweep === 'function';
    this.blockers = new Set();      // entries that blocked the last move
    this.contacts = [];             // { point: Vector3, normal: Vector3, entry, triA, triB }
    this.lastQueryMs = 0;
    this.lastQueries = 0;
    this._pose = new Float32Array(7);
    this._trial = new Float32Array(7);
  }

  /** Move `entry` by `delta` (Vector3, world). Returns the translation actually applied. */
  move(entry, delta) {
    const t0 = performance.now();
    this.blockers.clear();
    this.contacts.length = 0;
    this.lastQueries = 0;
    const pose = this._pose;
    pose.set(entry.pose);
    const rest = delta.clone();
    const wanted = delta.clone();
    const applied = new Vector3();
    for (let slide = 0; slide <= this.maxSlides && rest.lengthSq() > 1e-14; slide++) {
      const block = this._firstBlock(entry, pose, rest);
      const t = block ? block.t : 1;
      pose[4] += rest.x * t; pose[5] += rest.y * t; pose[6] += rest.z * t;
      applied.addScaledVector(rest, t);
      if (!block) break;
      this.blockers.add(block.entry);
      this.contacts.push(block);
      // Slide: drop the remaining motion's component into the blocking surface, keep it in the drag plane.
      rest.multiplyScalar(1 - t);
      const n = block.normal.clone();
      n.addScaledVector(this.planeNormal, -n.dot(this.planeNormal));
      if (n.lengthSq() < 1e-12) break;
      n.normalize();
      const into = rest.dot(n);
      if (into < 0) rest.addScaledVector(n, -into);
      else break; // moving away already and still blocked: nothing sensible to slide along
      rest.multiplyScalar(0.999);
      if (rest.dot(wanted) <= 0) break; // a slide never moves against the drag
    }
    this.sync.setWorldPose(entry.object, pose);
    this.lastQueryMs = performance.now() - t0;
    return applied;
  }

  // The dragged entry and its registered descendants move as one rigid group.
  _group(entry) {
    return this.sync.entries.filter((e) => e === entry || isDescendant(e.object, entry.object));
  }

  _candidates(member, group, offset, delta) {
    const min = member.worldMin.clone().add(offset), max = member.worldMax.clone().add(offset);
    min.min(min.clone().add(delta));
    max.max(max.clone().add(delta));
    const out = [];
    for (const e of this.sync.entries) {
      if (group.includes(e) || this.ignore(e)) continue;
      if (e.worldMin.x > max.x || e.worldMax.x < min.x || e.worldMin.y > max.y || e.worldMax.y < min.y ||
        e.worldMin.z > max.z || e.worldMax.z < min.z) continue;
      out.push(e);
    }
    return out;
  }

  _firstBlock(entry, pose, delta) {
    let best = null;
    const d = [delta.x, delta.y, delta.z];
    const offset = new Vector3(pose[4] - entry.pose[4], pose[5] - entry.pose[5], pose[6] - entry.pose[6]);
    const memberPose = new Float32Array(7);
    for (const member of this._group(entry)) {
      memberPose.set(member.pose);
      memberPose[4] += offset.x; memberPose[5] += offset.y; memberPose[6] += offset.z;
      for (const e of this._candidates(member, this._group(entry), offset, delta)) {
        this.lastQueries++;
        if (this.useSweep) {
          const r = this.snug.sweep(member.mesh, memberPose, d, e.mesh, e.pose);
          if (r.hit && (!best || r.safeT < best.t)) {
            best = { t: r.safeT, entry: e, source: member, triA: r.triA, triB: r.triB,
              point: new Vector3().fromArray(r.point), normal: new Vector3().fromArray(r.normal) };
          }
        } else {
          const t = this._bisect(member, memberPose, d, e);
          if (t < 1 && (!best || t < best.t)) {
            const trial = this._at(memberPose, d, t + (1 - t) * 0.05);
            this.snug.overlap(member.mesh, trial, e.mesh, e.pose);
            const normal = triangleNormal(e, this.snug.pair[1]);
            if (normal.dot(delta) > 0) normal.negate();
            best = { t, entry: e, source: member, triA: this.snug.pair[0], triB: this.snug.pair[1], normal,
              point: triangleCentroid(e, this.snug.pair[1]) };
          }
        }
      }
    }
    return best;
  }

  _at(pose, d, t) {
    const p = this._trial;
    p.set(pose);
    p[4] += d[0] * t; p[5] += d[1] * t; p[6] += d[2] * t;
    return p;
  }

  // Largest free fraction by stepping (no tunnelling through parts thicker than a step) then bisecting.
  _bisect(entry, pose, d, other) {
    const size = entry.worldMax.clone().sub(entry.worldMin);
    const len = Math.hypot(d[0], d[1], d[2]);
    const steps = Math.max(1, Math.ceil(len / (0.1 * Math.min(size.x, size.z, size.y || Infinity))));
    // Already overlapping at the start (e.g. placed so): do not trap the object, let it move out.
    if (this.snug.overlap(entry.mesh, pose, other.mesh, other.pose)) return 1;
    let free = 0;
    for (let k = 1; k <= steps; k++) {
      const t = k / steps;
      this.lastQueries++;
      if (this.snug.overlap(entry.mesh, this._at(pose, d, t), other.mesh, other.pose)) {
        let lo = free, hi = t;
        for (let i = 0; i < 14; i++) {
          const mid = (lo + hi) / 2;
          if (this.snug.overlap(entry.mesh, this._at(pose, d, mid), other.mesh, other.pose)) hi = mid; else lo = mid;
        }
        return lo;
      }
      free = t;
    }
    return 1;
  }
}

export { makePose as pose };
