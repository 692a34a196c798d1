// three.js mapping for snug, usable on its own: snug meshes from BufferGeometry, Object3Ds mirrored as bodies of a
// snug scene (world poses and parents), and pointer drags through the core's mover: one body.move per pointer event,
// its result written back to the Object3Ds and its feedback (blockers, contacts, the offer it rests on, the seat a
// free drag would take, the axis a turn may use) mapped to them. Every placement decision is the core's; this file
// only maps.
//
// snug poses are rigid (rotation + translation), three.js world matrices may scale: the scale is baked into the
// snug mesh when it is created (one mesh per geometry and world scale, shared by every object using both).
//
// Parents: a body starts as the child of its nearest registered three.js ancestor; the core then re-parents a body
// onto what it rests on (a lamp bound to a table becomes the table's child), while the three.js scene graph stays
// the app's. The world poses are kept equal: after every change the Object3Ds show their bodies' world poses.
import { Matrix4, Quaternion, Vector3 } from 'three';
import { pose as makePose } from '../wasm/snug.js';

const _p = new Vector3();
const _q = new Quaternion();
const _s = new Vector3();
const _m = new Matrix4();
const _inv = new Matrix4();
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
 * Placement surfaces given in a geometry's frame, in the frame of its mesh at a world scale: vertices scaled,
 * normals by the inverse scale, and the winding reversed by a mirroring scale so it stays counter-clockwise.
 */
export function scaleSurfaces(surfaces, scale) {
  const k = [scale.x ?? scale[0], scale.y ?? scale[1], scale.z ?? scale[2]];
  const mirrored = k[0] * k[1] * k[2] < 0;
  return surfaces.map((s) => {
    const n = s.normal.map((x, a) => x / k[a]);
    const len = Math.hypot(n[0], n[1], n[2]);
    const polygon = s.polygon.map((p) => p.map((x, a) => x * k[a]));
    return { ...s, normal: n.map((x) => x / len), polygon: mirrored ? polygon.reverse() : polygon };
  });
}

const sameBinding = (a, b) => a.binding === b.binding && a.offer === b.offer && a.supporter === b.supporter;

/**
 * Keeps Object3Ds and the bodies of a snug scene in step. Each registered object gets a body of a snug mesh (shared
 * between objects with the same geometry and world scale) at the object's world pose.
 */
export class SnugSync {
  /** options.scene: a snug Scene to put the bodies in; by default the SnugSync makes (and disposes) its own. */
  constructor(snug, { scene = null } = {}) {
    this.snug = snug;
    this._ownScene = !(scene && typeof scene.createBody === 'function');
    this.scene = this._ownScene ? snug.createScene() : scene;
    this.entries = [];
    this.byObject = new Map();
    this._meshes = new Map(); // geometry -> Map(scale key -> { mesh, arrays, refs })
  }

  /**
   * Register an object (a three.js Mesh, or any Object3D with a geometry given in the options). Options:
   * isStatic; label; mesh: a snug Mesh made of geometryArrays(geometry, world scale) (e.g. one built in a worker),
   * which stays the caller's; surfaces: placement surfaces in the geometry's frame, set on a mesh this makes;
   * upright: the body may only turn about up (+y); source: the arrays to report in entry.arrays.
   */
  add(object, options = {}) {
    const { isStatic = false } = options;
    return this._register(object, options, (mesh, pose) => this.scene.createBody({ mesh, pose, isStatic, userData: object }));
  }

  /**
   * Register a new object that the core places (scene.insert): on the offer under `ray` (a three.js Ray) that its
   * resting surface may use, at the free spot nearest the pointer, bound there; the object shows that pose.
   * Options as add(), surfaces needed. Throws the core's error (nothing under the ray fits, the offer is full) and
   * then registers nothing.
   */
  insert(object, ray, options = {}) {
    const { isStatic = false } = options;
    const entry = this._register(object, options, (mesh) => this.scene.insert({
      mesh, ray: { origin: ray.origin.toArray(), dir: ray.direction.toArray() }, isStatic, userData: object,
    }).body);
    this.fromCore([entry]);
    return entry;
  }

  // The entry of `object` with the body makeBody(mesh, pose) gives; a mesh this made is shared per geometry and
  // world scale, and given back when making the body fails.
  _register(object, { geometry = object.geometry, isStatic = false, label = object.name, source, mesh, surfaces, upright = false }, makeBody) {
    object.updateWorldMatrix(true, false);
    const scale = new Vector3();
    object.matrixWorld.decompose(_p, _q, scale);
    let shared = null, key = null;
    if (!mesh) {
      key = `${scale.x.toPrecision(6)},${scale.y.toPrecision(6)},${scale.z.toPrecision(6)}`;
      let perGeom = this._meshes.get(geometry);
      if (!perGeom) this._meshes.set(geometry, (perGeom = new Map()));
      shared = perGeom.get(key);
      if (!shared) {
        const arrays = geometryArrays(geometry, scale);
        const made = this.snug.createMesh({ ...arrays, label });
        if (surfaces?.length) made.setSurfaces(scaleSurfaces(surfaces, scale));
        shared = { mesh: made, arrays, refs: 0 };
        perGeom.set(key, shared);
      }
      shared.refs++;
    }
    const entry = {
      object, geometry, mesh: mesh ?? shared.mesh, arrays: source ?? shared?.arrays ?? null, scale, isStatic, label,
      pose: poseFromMatrix(object.matrixWorld), _key: key,
    };
    try {
      entry.body = makeBody(entry.mesh, entry.pose);
    } catch (e) {
      if (shared) this._release(geometry, key);
      throw e;
    }
    if (upright) entry.body.setOrientation([0, 1, 0], [0, 1, 0]);
    const parent = this._registeredAncestor(object);
    if (parent) entry.body.setParent(parent.body, true);
    this.entries.push(entry);
    this.byObject.set(object, entry);
    return entry;
  }

  _release(geometry, key) {
    const perGeom = this._meshes.get(geometry);
    const shared = perGeom.get(key);
    if (--shared.refs === 0) {
      shared.mesh.dispose();
      perGeom.delete(key);
    }
  }

  _registeredAncestor(object) {
    for (let o = object.parent; o; o = o.parent) if (this.byObject.has(o)) return this.byObject.get(o);
    return null;
  }

  /** The entry of a body of this scene (null for none). */
  entryOf(body) { return body ? this.byObject.get(body.userData) ?? null : null; }

  remove(object) {
    const entry = this.byObject.get(object);
    if (!entry) return;
    entry.body.dispose();
    this.byObject.delete(object);
    this.entries.splice(this.entries.indexOf(entry), 1);
    if (entry._key !== null) this._release(entry.geometry, entry._key); // else the caller's mesh
  }

  /**
   * The entries the core moves with `entry`: its body and the bodies below it in the core's hierarchy (what rests
   * on it), parents first.
   */
  subtree(entry) { return entry.body.group().map((b) => this.entryOf(b)).filter(Boolean); }

  /**
   * The entries a drag of `entries` (carried as one group) can change: what moves with them, and what is bound to
   * any of that (a binding lets go where its supporter moves away from under it). What an undo step must keep.
   */
  reach(entries) {
    const out = new Set(this.affected(entries.flatMap((e) => this.subtree(e))));
    for (const e of [...out]) for (const b of e.body.dependents()) out.add(this.entryOf(b));
    out.delete(null);
    return [...out];
  }

  /**
   * The Object3Ds to rewrite when `entries` moved in the core: those entries and every registered three.js
   * descendant of their objects (three.js carries them along, the core may not), in three.js order, parents first.
   */
  affected(entries) {
    const set = new Set(entries);
    const out = [];
    for (const e of this.entries) {
      let hit = set.has(e);
      for (let o = e.object.parent; o && !hit; o = o.parent) hit = set.has(this.byObject.get(o));
      if (hit) out.push(e);
    }
    return out.sort((a, b) => depth(a.object) - depth(b.object));
  }

  /** Show the core's world poses on `entries` (from affected(): parents first). */
  fromCore(entries) {
    for (const e of entries) {
      e.body.getPose(e.pose);
      const world = matrixFromPose(e.pose, e.scale, _m);
      const parent = e.object.parent;
      if (parent) {
        parent.updateWorldMatrix(true, false);
        world.premultiply(_inv.copy(parent.matrixWorld).invert());
      }
      world.decompose(e.object.position, e.object.quaternion, e.object.scale);
      e.object.updateMatrixWorld(true);
    }
  }

  /** Read every registered object's world pose from three.js (after the app moved objects). */
  pull() {
    // Core parents first: setting a parent's pose moves its subtree, which then gets its own poses.
    const order = this.entries.map((e) => [e, coreDepth(e.body)]).sort((a, b) => a[1] - b[1]);
    for (const [e] of order) {
      e.object.updateWorldMatrix(true, false);
      poseFromMatrix(e.object.matrixWorld, e.pose);
      e.body.setPose(e.pose);
    }
  }

  /** Write every body's world pose (after the core moved bodies) to the three.js objects. */
  push() { this.fromCore(this.affected(this.entries)); }

  /**
   * Set an object's world pose (rotation + translation). The core moves the body's subtree along (what rests on
   * it), and three.js shows the result.
   */
  setWorldPose(object, pose) {
    const entry = this.byObject.get(object);
    entry.body.setPose(pose);
    this.fromCore(this.affected(this.subtree(entry)));
  }

  // ------------------------------------------------------------------ poses and bindings as a whole
  // (what a drag's cancel and an app's undo need of some entries; scene.snapshot()/restore() do the whole scene)

  /**
   * Every entry's world pose, bindings ({ binding, supporter: entry, offer }) and, for a body with a parent in the
   * core (what it rests on), its pose relative to it: a Map entry -> { pose, bindings, local }. The core derives a
   * child's world pose from its local one, so only the local one gives the same world pose back to the bit.
   */
  capture(entries = this.entries) {
    return new Map(entries.map((e) => [e, {
      pose: Float32Array.from(e.body.getPose()),
      bindings: e.body.bindings().map((b) => ({ binding: b.binding, supporter: this.entryOf(b.supporter), offer: b.offer })),
      local: e.body.parent ? Float32Array.from(e.body.getLocalPose()) : null,
    }]));
  }

  /**
   * Put entries back to a captured state (a Map entry -> { pose, bindings, local? }): those whose pose or bindings
   * differ get their pose and their bindings as they stand there (body.setBindings: nothing moves, and what rests
   * on what needs no order), then their local pose when they have a parent again (the core derives a child's world
   * pose from it); three.js follows. Returns the bindings that do not hold where they were asked for
   * (['label: reason', ...]; empty when all do); those bodies stay unbound at their pose.
   */
  restore(state) {
    const todo = [];
    for (const [e, want] of state) {
      const now = e.body.getPose();
      const bindings = e.body.bindings().map((b) => ({ binding: b.binding, supporter: this.entryOf(b.supporter), offer: b.offer }));
      const same = now.every((x, k) => x === want.pose[k]) && bindings.length === want.bindings.length &&
        bindings.every((b) => want.bindings.some((w) => sameBinding(b, w)));
      if (!same) todo.push([e, want]);
    }
    // Unbound first (without the lift unbind gives), so that no pose set below carries another body of the list.
    for (const [e] of todo) e.body.setBindings([]);
    for (const [e, want] of todo) e.body.setPose(want.pose);
    const failed = [];
    for (const [e, want] of todo) {
      try {
        e.body.setBindings(want.bindings.map((b) => ({ binding: b.binding, supporter: b.supporter.body, offer: b.offer })));
      } catch (err) {
        if (err.name !== 'SnugError') throw err;
        failed.push(`${e.label}: ${err.message}`);
      }
    }
    // Parents before their children: a parent's local pose moves its children. A local pose is the world pose to
    // the bit; one that gives another pose (a file edited by hand) is refused, the world pose stays.
    const local = todo.filter(([e, want]) => want.local && e.body.parent).map(([e, want]) => [e, want, coreDepth(e.body)]);
    for (const [e, want] of local.sort((a, b) => a[2] - b[2])) {
      e.body.setLocalPose(want.local);
      if (samePose(e.body.getPose(), want.pose)) continue;
      e.body.setPose(want.pose);
      failed.push(`${e.label}: its local pose does not give its pose`);
    }
    this.push();
    return failed;
  }

  dispose() {
    for (const e of this.entries) e.body.dispose();
    if (this._ownScene) this.scene.dispose();
    for (const perGeom of this._meshes.values()) for (const s of perGeom.values()) s.mesh.dispose();
    this._meshes.clear();
    this.entries.length = 0;
    this.byObject.clear();
  }
}

function depth(object) {
  let d = 0;
  for (let o = object.parent; o; o = o.parent) d++;
  return d;
}

// The same pose up to float rounding (a quaternion and its negation are the same turn).
function samePose(a, b) {
  const dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const scale = 1 + Math.hypot(b[4], b[5], b[6]);
  return Math.abs(Math.abs(dot) - 1) < 1e-6 && Math.hypot(a[4] - b[4], a[5] - b[5], a[6] - b[6]) < 1e-5 * scale;
}

function coreDepth(body) {
  let d = 0;
  for (let b = body.parent; b; b = b.parent) d++;
  return d;
}

/**
 * A pointer drag of one registered object through the core's mover. Each call is one body.move; the object and
 * everything the core moved with it (its subtree) then show the core's poses, and the call returns the move's
 * feedback mapped to Object3Ds:
 *   { reasons: ['blocked', ...], blockers: [{ object, point, normal }], rests: [{ object, offer }] (what it rests on
 *     now), candidate: { object, offer, binding, pose } or null (the seat a free drag would take: a ghost),
 *     turnAxis: [x, y, z] or null (the axis a turn may use; null: no turn allowed), allowedAxes }
 * coreMs is the last body.move's time. Modes: 'constrained' (bindings hold, offers are snapped to and re-seated on)
 * and 'free' (the object leaves its bindings; drop() then takes the seat the last move reported).
 */
export class SnugDrag {
  /**
   * Start dragging `object`, grabbed at the world point `point` (Vector3 or [x, y, z]). options.carry: other
   * registered objects that move with it as one rigid group (a selection): made the body's children in the core for
   * the drag, until release() or cancel().
   */
  constructor(sync, object, point, { carry = [] } = {}) {
    this.sync = sync;
    this.entry = sync.byObject.get(object);
    if (!this.entry) throw new Error('snug: the dragged object is not registered');
    this.body = this.entry.body;
    this.before = sync.scene.snapshot();
    const inside = new Set(sync.subtree(this.entry));
    this._carried = carry.map((o) => sync.byObject.get(o)).filter((e) => e && !inside.has(e)).map((e) => [e, e.body.parent]);
    for (const [e] of this._carried) e.body.setParent(this.body, true);
    const p = Array.isArray(point) ? new Vector3().fromArray(point) : point.clone();
    this.grab = p.applyMatrix4(matrixFromPose(this.body.getPose(), _one, _m).invert()).toArray();
    this.moved = sync.affected(sync.subtree(this.entry));
    this.start = Float32Array.from(this.body.getPose());
    this.last = null;
    this.coreMs = 0;
  }

  /** One pointer event: the grabbed point follows `ray` (three.js Ray). options: { mode, turn, angleStep }. */
  move(ray, { mode = 'constrained', turn = 0, angleStep = 0 } = {}) {
    return this._call({ mode, ray: { origin: ray.origin.toArray(), dir: ray.direction.toArray() }, grab: this.grab, turn, angleStep });
  }

  /** Turn by `angle` radians about the allowed axis, the pointer still (a key). options: { mode, angleStep }. */
  turn(angle, { mode = 'constrained', angleStep = 0 } = {}) {
    return this._call({ mode, turn: angle, angleStep });
  }

  /**
   * A turn gesture (a ring dragged around): turn so that the object has turned by `total` radians about the allowed
   * axis since the drag began, on a multiple of angleStep when it is > 0. Returns the feedback, or null when the
   * object is already there.
   */
  turnTo(total, { mode = 'constrained', angleStep = 0 } = {}) {
    if (!this.last) this.turn(0, { mode });
    const axis = this.last.turnAxis;
    if (!axis) return this.turn(total, { mode, angleStep }); // the core says why it cannot turn
    const now = this.body.getPose();
    const rel = _q.set(now[0], now[1], now[2], now[3]).multiply(new Quaternion(-this.start[0], -this.start[1], -this.start[2], this.start[3]));
    const turned = 2 * Math.atan2(rel.x * axis[0] + rel.y * axis[1] + rel.z * axis[2], rel.w);
    const want = angleStep > 0 ? Math.round(total / angleStep) * angleStep : total;
    let d = want - turned;
    d -= 2 * Math.PI * Math.round(d / (2 * Math.PI));
    // A step asked for less than half a step would round back (the core then goes a whole step).
    if (Math.abs(d) < (angleStep > 0 ? angleStep / 2 : 1e-4)) return null;
    return this.turn(d, { mode, angleStep });
  }

  /**
   * The end of a free drag: take the seat the last move reported, where its ghost showed it (body.bind there).
   * Returns whether the object is now bound to it; false when there was none or it is taken (the object stays).
   */
  drop() {
    const c = this.last?.candidate;
    if (!c) return false;
    const at = Float32Array.from(this.body.getPose());
    this.body.setPose(c.pose);
    try {
      this.body.bind(c.binding, this.sync.byObject.get(c.object).body, c.offer);
    } catch (e) {
      if (e.name !== 'SnugError') throw e;
      this.body.setPose(at);
      return false;
    } finally {
      this.sync.fromCore(this.moved);
    }
    return true;
  }

  /** The end of the drag: the carried objects rest on what they rested on again (their parents back). */
  release() {
    for (const [e, parent] of this._carried.reverse()) e.body.setParent(parent, true);
    this._carried = [];
  }

  /** Everything back to where it was when the drag began: poses, bindings and parents. */
  cancel() {
    this._carried = [];
    this.sync.scene.restore(this.before); // parents too: the carried ones go back under theirs
    this.sync.fromCore(this.moved);
  }

  _call(def) {
    const t0 = performance.now();
    const r = this.body.move(def);
    this.coreMs = performance.now() - t0;
    this.sync.fromCore(this.moved);
    const obj = (body) => body?.userData ?? null;
    const axis = r.turnAxis;
    this.last = {
      reasons: r.reasons,
      blockers: r.blockers.map((b) => ({ object: obj(b.body), point: b.point, normal: b.normal })),
      rests: r.bindings.map((b) => ({ object: obj(b.supporter), offer: b.offer, binding: b.binding })),
      candidate: r.candidate && { object: obj(r.candidate.supporter), offer: r.candidate.offer, binding: r.candidate.binding,
        pose: Float32Array.from(r.candidate.pose) },
      turnAxis: axis[0] || axis[1] || axis[2] ? [axis[0], axis[1], axis[2]] : null,
      allowedAxes: r.allowedAxes,
    };
    return this.last;
  }
}

export { makePose as pose };
