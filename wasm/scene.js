// Scenes and bodies over snug_scene_* / snug_body_* / snug_step_*: bodies are instances of meshes with a pose, a
// parent, flags and a collision filter; the scene's broad phase, rays and the collision step work on all of them.
// Same rules as snug.js: one C call per operation, results in reused objects, stale handles throw.
import {
  LAYOUT as L, SnugError, FEATURES, STEP_MODES, APPROX, NO_HIT, ERR_INVALID, ERR_STALE, S, words, enumIndex,
} from './internal.js';
import {
  sceneSetLabels, sceneLabels, sceneLabelFits, sceneSetPlaceDef, scenePlaceDef, sceneCheck, bodySetOrientation,
  bodyOrientation, bodyBindings, bodySetBindings, bodyBind, bodyUnbind, bodyMove, bodyPushOut, bodySupporters,
  bodyDependents, bodyGroup, bodyDrop, sceneInsert, sceneDelete, sceneSnapshot, sceneRestore, sceneSave, sceneLoad,
} from './place.js';

const HIT = words(L.scene_hit);
const PAIR = words(L.body_pair);
const BODY_BYTES = 4; // a snug_body handle

/** Reusable result of a scene raycast. */
export class SceneHit {
  constructor() {
    this.body = null;
    this.tri = NO_HIT;
    this.t = Infinity;
    this.point = new Float32Array(3);
    this.normal = new Float32Array(3);
  }
}

/** One result of the collision step per registered group. */
export class Contact {
  constructor() {
    this.group = null;
    this.hit = false;
    this.approx = 'none';
    this.t = 1;
    this.bodyA = null;
    this.bodyB = null;
    this.feature = 'none';
    this.triA = NO_HIT;
    this.triB = NO_HIT;
    this.featureA = -1;
    this.featureB = -1;
    this.point = new Float32Array(3);
    this.normal = new Float32Array(3);
    this.distanceBound = 0;
  }
}

export class Body {
  constructor(scene, handle, mesh) {
    this.scene = scene;
    this.handle = handle;
    this.mesh = mesh;
    this.userData = undefined;
  }
  get disposed() { return this.handle === 0; }
  /** Is this a live body of a live scene? (false once it, its scene or its context is disposed) */
  isValid() {
    const sc = this.scene;
    return this.handle !== 0 && !sc.disposed && sc.snug._isValid('snug_body_is_valid', sc.handle, this.handle);
  }
  _call(name, ...args) {
    const sc = this.scene;
    sc._live();
    if (this.handle === 0) throw new SnugError(ERR_STALE, 'stale handle: this body was disposed');
    const s = sc.snug;
    s._check(s._fn(name)(s._ctx, sc.handle, this.handle, ...args));
  }
  /** World pose [qx, qy, qz, qw, px, py, pz]; moves the subtree along. */
  setPose(p) { this._setPose('snug_body_set_pose', p); }
  getPose(out = new Float32Array(7)) { return this._getPose('snug_body_get_pose', out); }
  setLocalPose(p) { this._setPose('snug_body_set_local_pose', p); }
  getLocalPose(out = new Float32Array(7)) { return this._getPose('snug_body_get_local_pose', out); }
  _setPose(name, p) {
    const s = this.scene.snug, at = s._scratch + S.poseA;
    s._views();
    s._pose(at, p);
    this._call(name, at);
  }
  _getPose(name, out) {
    const s = this.scene.snug, at = s._scratch + S.poseA;
    this._call(name, at);
    return s._readPose(at, out);
  }
  /** Re-parent (null: make it a root). keepWorld keeps the world pose; a cycle is SNUG_ERR_CYCLE. */
  setParent(parent, keepWorld = true) {
    const h = parent == null ? 0 : this.scene._body(parent);
    this._call('snug_body_set_parent', h, keepWorld ? 1 : 0);
  }
  get parent() {
    const s = this.scene.snug;
    this._call('snug_body_get_parent', s._scratch + S.handle);
    return this.scene._bodies.get(s._u32[(s._scratch + S.handle) >> 2]) || null;
  }
  setStatic(isStatic) { this._call('snug_body_set_static', isStatic ? 1 : 0); }
  setEnabled(enabled) { this._call('snug_body_set_enabled', enabled ? 1 : 0); }
  setFilter(layer, mask) { this._call('snug_body_set_filter', layer >>> 0, mask >>> 0); }
  info() {
    const s = this.scene.snug;
    const at = s._scratch + S.bodyInfo, I = L.body_info;
    this._call('snug_body_get_info', at);
    const u = (o) => s._u32[(at + o) >> 2];
    const v3 = (o) => Array.from(s._f32.subarray((at + o) >> 2, ((at + o) >> 2) + 3));
    return {
      parent: this.scene._bodies.get(u(I.parent)) || null, childCount: u(I.child_count),
      isStatic: !!s._u8[at + I.is_static], enabled: !!s._u8[at + I.enabled], layer: u(I.layer), mask: u(I.mask),
      aabbMin: v3(I.aabb_min), aabbMax: v3(I.aabb_max),
    };
  }
  // ------------------------------------------------------------------------------------------- placement

  /** Turn only so that the local direction stays on the world one (upright: [0,1,0], [0,1,0]); null, null: free. */
  setOrientation(local, world) { bodySetOrientation(this, local, world); }
  /** The orientation constraint as set: { local, world }, or null when there is none. */
  orientation() { return bodyOrientation(this); }
  /** Satisfied bindings: [{ binding, supporter: Body, offer }] (surface indices of the two meshes). */
  bindings() { return bodyBindings(this); }
  /** Lay binding surface `binding` onto offer `offer` of supporter (turns and moves the body; throws if it cannot). */
  bind(binding, supporter, offer) { bodyBind(this, binding, supporter, offer); }
  /** Restore bindings [{ binding, supporter, offer }] as they stand (a file's): nothing moves; throws if one does
   * not hold there (and changes nothing). [] removes them without lifting the body. */
  setBindings(list) { bodySetBindings(this, list); }
  /** Break the bindings this body rests with (free mode). */
  unbind() { bodyUnbind(this); }
  /** One pointer event or controller frame of a drag: see wasm/place.js bodyMove. Returns a MoveResult. */
  move(def, out) { return bodyMove(this, def, out); }
  /** The shortest push found that frees the body from what it overlaps: { moved, translation }. */
  pushOut() { return bodyPushOut(this); }
  /** Bodies it rests on; bodies resting on it; itself and what moves with it. */
  supporters() { return bodySupporters(this); }
  dependents() { return bodyDependents(this); }
  group() { return bodyGroup(this); }
  /** Pseudo-gravity onto the nearest compatible offer below: { outcome, landed, blocker }. */
  drop() { return bodyDrop(this); }

  /** Destroy the body; its children become roots with unchanged world poses. */
  dispose() {
    if (this.handle === 0) return;
    const sc = this.scene;
    if (!sc.disposed && !sc.snug.disposed) this._call('snug_body_destroy');
    sc._bodies.delete(this.handle);
    this.handle = 0;
  }
}

export class Scene {
  constructor(snug, handle) {
    this.snug = snug;
    this.handle = handle;
    this._bodies = new Map();
    this.hit = new SceneHit();
    this._contacts = [];
  }
  get disposed() { return this.handle === 0 || this.snug.disposed; }
  get bodies() { return [...this._bodies.values()]; }
  /** Is this a live scene of a live context? */
  isValid() { return !this.disposed && this.snug._isValid('snug_scene_is_valid', this.handle); }

  _live() {
    if (this.handle === 0 || this.snug.disposed) throw new SnugError(ERR_STALE, 'stale handle: this scene was disposed');
  }

  _body(body) {
    if (!(body instanceof Body)) throw new SnugError(ERR_INVALID, 'invalid argument: expected a snug Body');
    if (body.handle === 0) throw new SnugError(ERR_STALE, 'stale handle: this body was disposed');
    if (body.scene !== this) throw new SnugError(ERR_STALE, 'stale handle: this body belongs to another scene');
    return body.handle;
  }

  /**
   * def: { mesh, parent?: Body, pose?: local pose (world for a root), isStatic?, enabled?, layer?, mask?, userData? }
   * (userData stays in JS; the core's 64-bit user_data is not used by this API).
   */
  createBody(def) {
    this._live();
    const s = this.snug;
    const meshHandle = s._mesh(def.mesh);
    const parent = def.parent == null ? 0 : this._body(def.parent);
    const at = s._scratch + S.bodyDef, B = L.body_def;
    s._fn('snug_default_body_def')(at);
    s._views();
    s._u32[(at + B.mesh) >> 2] = meshHandle;
    s._u32[(at + B.parent) >> 2] = parent;
    if (def.pose) s._pose(at + B.pose, def.pose);
    if (def.isStatic !== undefined) s._u8[at + B.is_static] = def.isStatic ? 1 : 0;
    if (def.enabled !== undefined) s._u8[at + B.enabled] = def.enabled ? 1 : 0;
    if (def.layer !== undefined) s._u32[(at + B.layer) >> 2] = def.layer >>> 0;
    if (def.mask !== undefined) s._u32[(at + B.mask) >> 2] = def.mask >>> 0;
    s._check(s._fn('snug_body_create')(s._ctx, this.handle, at, s._scratch + S.handle));
    const body = this._adopt(s._u32[(s._scratch + S.handle) >> 2], def.mesh);
    body.userData = def.userData;
    return body;
  }

  // A Body object for a handle the core made (create, insert, load).
  _adopt(handle, mesh) {
    const body = new Body(this, handle, mesh);
    this._bodies.set(handle, body);
    return body;
  }

  /** Never report (nor test in a step) the pair a, b; ignore = false removes the exception. */
  ignorePair(a, b, ignore = true) {
    this._live();
    const s = this.snug;
    s._check(s._fn('snug_scene_ignore_pair')(s._ctx, this.handle, this._body(a), this._body(b), ignore ? 1 : 0));
  }

  _list(call, itemBytes) {
    return this.snug._listCall(call, 64, itemBytes);
  }

  // A list call of snug_body_pair as [a, b] Body pairs.
  _pairs(name) {
    this._live();
    const s = this.snug;
    const fn = s._fn(name);
    const { stage, total } = this._list((at, cap, tot) => fn(s._ctx, this.handle, at, cap, tot), L.body_pair.size);
    const out = [];
    for (let i = 0, k = stage >> 2; i < total; i++, k += PAIR.size) {
      out.push([this._bodies.get(s._u32[k + PAIR.a]), this._bodies.get(s._u32[k + PAIR.b])]);
    }
    return out;
  }

  /** Broad phase: every body pair whose world boxes overlap and that passes the filters, as [a, b] Body pairs. */
  pairs() { return this._pairs('snug_scene_pairs'); }

  /** Enabled bodies whose world box overlaps [min, max]. */
  queryBox(min, max) {
    this._live();
    const s = this.snug;
    const fn = s._fn('snug_scene_overlap_box');
    const lo = s._scratch + S.vecA, hi = s._scratch + S.vecB;
    const { stage, total } = this._list((at, cap, tot) => {
      s._vec3(lo >> 2, min);
      s._vec3(hi >> 2, max);
      return fn(s._ctx, this.handle, lo, hi, at, cap, tot);
    }, BODY_BYTES);
    const out = [];
    for (let i = 0; i < total; i++) out.push(this._bodies.get(s._u32[(stage >> 2) + i]));
    return out;
  }

  /** Closest hit of a ray over the enabled bodies with (layer & mask) != 0: out (default this.hit) or null. */
  raycast(origin, dir, tmax = Infinity, mask = 0xffffffff, out = this.hit) {
    this._live();
    const s = this.snug;
    const fn = s._fn('snug_scene_raycast');
    s._views();
    s._ray(origin, dir, tmax);
    s._check(fn(s._ctx, this.handle, s._scratch + S.ray, mask >>> 0, s._scratch + S.sceneHit));
    const i = (s._scratch + S.sceneHit) >> 2, u = s._u32, f = s._f32;
    if (u[i + HIT.body] === 0) return null;
    out.body = this._bodies.get(u[i + HIT.body]) || null;
    out.tri = u[i + HIT.tri];
    out.t = f[i + HIT.t];
    const p = i + HIT.point, n = i + HIT.normal;
    out.point[0] = f[p]; out.point[1] = f[p + 1]; out.point[2] = f[p + 2];
    out.normal[0] = f[n]; out.normal[1] = f[n + 1]; out.normal[2] = f[n + 2];
    return out;
  }

  /**
   * N rays (origins/dirs 3N floats, tmax N or null). Results as flat arrays reused between calls of the same size:
   * { bodies: Uint32Array (body handles, 0 = miss), f32: Float32Array (9 per ray: tri bits, t, point, normal) }.
   */
  raycastBatch(origins, dirs, tmax = null, mask = 0xffffffff, out) {
    this._live();
    const s = this.snug;
    const fn = s._fn('snug_scene_raycast_batch');
    const n = origins.length / 3;
    if ((n | 0) !== n || dirs.length !== origins.length || (tmax && tmax.length !== n)) {
      throw new SnugError(ERR_INVALID, 'invalid argument: raycastBatch needs 3N origins, 3N dirs and N tmax (or null)');
    }
    const stage = s._stageReserve(n * (12 + 12 + 4 + L.scene_hit.size));
    const oAt = stage, dAt = oAt + 12 * n, tAt = dAt + 12 * n, hAt = tAt + 4 * n;
    s._views();
    s._f32.set(origins, oAt >> 2);
    s._f32.set(dirs, dAt >> 2);
    if (tmax) s._f32.set(tmax, tAt >> 2);
    s._check(fn(s._ctx, this.handle, oAt, dAt, tmax ? tAt : 0, n, mask >>> 0, hAt));
    if (!out || out.count !== n) out = { count: n, raw: new Float32Array(HIT.size * n) };
    out.raw.set(s._f32.subarray(hAt >> 2, (hAt >> 2) + HIT.size * n));
    out.u32 = new Uint32Array(out.raw.buffer);
    return out;
  }

  // ------------------------------------------------------------------------------------------- collision step

  /** Forget registered motions. */
  stepBegin() {
    this._live();
    const s = this.snug;
    s._check(s._fn('snug_step_begin')(s._ctx, this.handle));
  }

  /** Register a motion for body (and its subtree): an absolute target world pose, or relative = true for T_rel. */
  stepMove(body, target, relative = false) {
    this._live();
    const s = this.snug;
    const h = this._body(body);
    const at = s._scratch + S.poseA;
    s._views();
    s._pose(at, target);
    s._check(s._fn('snug_step_move')(s._ctx, this.handle, h, at, relative ? 1 : 0));
  }

  /**
   * Detect collisions of the registered motions. def: { mode: 'static'|'mixed'|'dynamic', collectPairs: keep every
   * colliding pair for stepPairs() }. Returns an array of Contact (one per group, objects reused by the next call).
   */
  stepDetect(def = {}) {
    this._live();
    const s = this.snug;
    const at = s._scratch + S.stepDef, D = L.step_def;
    s._fn('snug_default_step_def')(at);
    s._views();
    if (def.mode !== undefined) s._u32[(at + D.mode) >> 2] = enumIndex(STEP_MODES, def.mode, 'mode');
    if (def.collectPairs !== undefined) s._u8[at + D.collect_pairs] = def.collectPairs ? 1 : 0;
    const C = L.contact;
    const fn = s._fn('snug_step_detect');
    const { stage, total } = this._list((buf, cap, tot) => fn(s._ctx, this.handle, at, buf, cap, tot, 0), C.size);
    while (this._contacts.length < total) this._contacts.push(new Contact());
    const out = this._contacts.slice(0, total);
    const u = s._u32, f = s._f32;
    for (let k = 0; k < total; k++) {
      const c = out[k], b = stage + k * C.size;
      c.group = this._bodies.get(u[(b + C.group) >> 2]) || null;
      c.hit = s._u8[b + C.hit] !== 0;
      c.approx = APPROX[u[(b + C.approx) >> 2]] || 'none';
      c.t = f[(b + C.t) >> 2];
      c.bodyA = this._bodies.get(u[(b + C.body_a) >> 2]) || null;
      c.bodyB = this._bodies.get(u[(b + C.body_b) >> 2]) || null;
      c.feature = FEATURES[u[(b + C.feature) >> 2]] || 'none';
      c.triA = u[(b + C.tri_a) >> 2];
      c.triB = u[(b + C.tri_b) >> 2];
      c.featureA = u[(b + C.feature_a) >> 2] | 0;
      c.featureB = u[(b + C.feature_b) >> 2] | 0;
      c.point.set(f.subarray((b + C.point) >> 2, ((b + C.point) >> 2) + 3));
      c.normal.set(f.subarray((b + C.normal) >> 2, ((b + C.normal) >> 2) + 3));
      c.distanceBound = f[(b + C.distance_bound) >> 2];
    }
    return out;
  }

  /** The colliding body pairs of the last stepDetect (which ran with collectPairs), as [a, b] Body pairs. */
  stepPairs() { return this._pairs('snug_step_get_pairs'); }

  /** Move a registered group to its motion at t in [0, 1]. */
  stepCommit(body, t) {
    this._live();
    const s = this.snug;
    s._check(s._fn('snug_step_commit')(s._ctx, this.handle, this._body(body), t));
  }

  stepStats() {
    this._live();
    const s = this.snug;
    const at = s._scratch + S.stepStats, T = L.step_stats;
    s._check(s._fn('snug_step_get_stats')(s._ctx, this.handle, at));
    const u = (o) => s._u32[(at + o) >> 2];
    const u64 = (o) => s._u32[(at + o) >> 2] + s._u32[((at + o) >> 2) + 1] * 4294967296;
    return {
      groups: u(T.groups), movedBodies: u(T.moved_bodies), broadphasePairs: u(T.broadphase_pairs),
      finishedPairs: u(T.finished_pairs), unfinishedPairs: u(T.unfinished_pairs), bvTests: u64(T.bv_tests),
      primitiveTests: u64(T.primitive_tests), timeUs: s._f64[(at + T.time_us) >> 3],
    };
  }

  // ------------------------------------------------------------------------------------------- placement

  /** Replace the label table: names, and the order as [[lesser, greater], ...] (names or indices). */
  setLabels(names, order = []) { sceneSetLabels(this, names, order); }
  /** The label names, in index order. */
  labels() { return sceneLabels(this); }
  /** May a binding labelled `binding` rest on an offer labelled `offer`? */
  labelFits(binding, offer) { return sceneLabelFits(this, binding, offer); }
  /** Placement settings: { up, skin, overhang, snapRange, maxSlides } (any subset). */
  setPlaceDef(def) { sceneSetPlaceDef(this, def); }
  placeDef() { return scenePlaceDef(this); }
  /** The consistency check: [] when every binding holds and nothing interpenetrates. */
  check() { return sceneCheck(this); }
  /** A new body on the offer under the pointer, where it is free: { body, binding } (throws when full). */
  insert(def) { return sceneInsert(this, def); }
  /** Delete with a policy ('drop' or 'with-dependents'); returns the Bodies deleted. */
  delete(body, policy = 'drop') { return sceneDelete(this, body, policy); }
  /** Undo points: snapshot() -> { bytes, bodies }; restore(snapshot) gives that state back bit for bit. */
  snapshot() { return sceneSnapshot(this); }
  restore(snapshot) { sceneRestore(this, snapshot); }
  /** The scene file as bytes; load(bytes) replaces the scene with one (atomic): { bodies, meshes }. */
  save() { return sceneSave(this); }
  load(bytes) { return sceneLoad(this, bytes); }

  /** Destroy the scene and its bodies (meshes stay). */
  dispose() {
    if (this.handle === 0) return;
    for (const b of this._bodies.values()) b.handle = 0;
    this._bodies.clear();
    if (!this.snug.disposed) this.snug._check(this.snug._m._snug_scene_destroy(this.snug._ctx, this.handle));
    this.snug._scenes.delete(this);
    this.snug._untrack(this);
    this.handle = 0;
  }
}

