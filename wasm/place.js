// Placement over the core's place layer: surfaces of meshes, labels and settings of scenes, bindings, the mover
// (one call per pointer event), push-out and the consistency check. Marshalling only: every decision is the core's.
// Methods of Mesh, Scene and Body delegate here (see snug.js and scene.js); results land in reused objects.
import {
  LAYOUT as L, ENUMS, NAMED, CONSTANTS, NO_HIT, ERR_INVALID, SnugError, enumIndex, slots, S as SCRATCH,
} from './internal.js';

/** The default labels of every scene, in the core's order (SNUG_LABEL_ON_FLOOR = 0, ...): the names the core gives
 * them (core/src/place/label.c; a test compares the two). */
export const DEFAULT_LABELS = ['onFloor', 'onWall', 'onWorkspace', 'onStore', 'onSeat', 'onCeiling', 'inFrontOfTable'];
/** Names of the bits of MoveResult.reasons, bit i = REASONS[i] (the SNUG_MOVE_* bits of snug.h). */
export const REASONS = Object.freeze(Object.entries(NAMED.move).reduce((r, [name, v]) => {
  if (v) r[Math.log2(v)] = name;
  return r;
}, []));
export const VIOLATIONS = ENUMS.violation_kind;
export const DROP_OUTCOMES = ENUMS.drop_outcome;
// 'drop' is the JS spelling of SNUG_DELETE_DROP_DEPENDENTS
const DELETE_POLICY = { drop: ENUMS.delete_policy.indexOf('drop-dependents'),
  'with-dependents': ENUMS.delete_policy.indexOf('with-dependents') };
if (Object.values(DELETE_POLICY).includes(-1)) {
  throw new SnugError(ERR_INVALID, 'snug: the delete policies of snug.h changed');
}
const KINDS = ENUMS.surface_kind;
const MODES = ENUMS.place_mode;
const POINTER_INPUT = ENUMS.move_input.indexOf('pointer');
const MAX_VERTICES = CONSTANTS.SNUG_SURFACE_MAX_VERTICES;
const RAY_DIR = L.ray.dir >> 2, RAY_TMAX = L.ray.tmax >> 2;

/** Result of Body.move, reused by the next call on the same scene unless an out object is passed. */
export class MoveResult {
  constructor() {
    this.pose = new Float32Array(7);
    this.reasons = [];           // names from REASONS
    this.reasonBits = 0;
    this.bindings = [];          // [{ binding, supporter: Body, offer }]
    this.candidate = null;       // { binding, supporter: Body, offer, pose: Float32Array(7) } or null
    this.blockers = [];          // [{ body: Body, by: Body, point: [x, y, z], normal: [x, y, z] }]
    this.allowedAxes = 3;        // translation degrees of freedom left
    this.turnAxis = new Float32Array(3); // zero when no turn is allowed
  }
  /** Did the move report this reason? */
  has(reason) {
    const bit = REASONS.indexOf(reason);
    if (bit < 0) throw new Error(`snug: "${reason}" is not one of ${REASONS.join(', ')}`);
    return (this.reasonBits & (1 << bit)) !== 0;
  }
}

function labelIndex(snug, label) {
  if (typeof label === 'number' && Number.isInteger(label) && label >= 0) return label;
  const i = DEFAULT_LABELS.indexOf(label);
  if (i < 0) snug._fail(ERR_INVALID, `invalid argument: label "${label}" is not a default label name (or give its index)`);
  return i;
}

function vec(v) { return v.x !== undefined ? [v.x, v.y, v.z] : [v[0], v[1], v[2]]; }

/** Write surfaces [{ kind, label, normal, polygon }] at byte address `at`. */
function writeSurfaces(snug, at, list) {
  const S = L.surface, f = snug._f32, u = snug._u32;
  list.forEach((s, k) => {
    const b = at + k * S.size;
    const kind = KINDS.indexOf(s.kind);
    if (kind < 0) snug._fail(ERR_INVALID, `invalid argument: surface ${k}: kind "${s.kind}" is not offer or binding`);
    if (!s.polygon || s.polygon.length < 3 || s.polygon.length > MAX_VERTICES) {
      snug._fail(ERR_INVALID, `invalid argument: surface ${k}: a polygon of 3..${MAX_VERTICES} vertices`);
    }
    u.fill(0, b >> 2, (b + S.size) >> 2);
    u[(b + S.kind) >> 2] = kind;
    u[(b + S.label) >> 2] = labelIndex(snug, s.label);
    f.set(vec(s.normal), (b + S.normal) >> 2);
    u[(b + S.vertex_count) >> 2] = s.polygon.length;
    s.polygon.forEach((p, i) => f.set(vec(p), ((b + S.vertices) >> 2) + 3 * i));
  });
}

function readSurface(snug, b) {
  const S = L.surface, f = snug._f32, u = snug._u32;
  const n = u[(b + S.vertex_count) >> 2], label = u[(b + S.label) >> 2];
  const polygon = [];
  for (let i = 0; i < n; i++) polygon.push(Array.from(f.subarray(((b + S.vertices) >> 2) + 3 * i, ((b + S.vertices) >> 2) + 3 * i + 3)));
  return {
    kind: KINDS[u[(b + S.kind) >> 2]], label: DEFAULT_LABELS[label] ?? label,
    normal: Array.from(f.subarray((b + S.normal) >> 2, ((b + S.normal) >> 2) + 3)), polygon,
  };
}

export function meshSetSurfaces(snug, mesh, list) {
  const h = snug._mesh(mesh);
  const at = snug._stageReserve(Math.max(1, list.length) * L.surface.size);
  snug._views();
  writeSurfaces(snug, at, list);
  snug._check(snug._fn('snug_mesh_set_surfaces')(snug._ctx, h, at, list.length));
}

export function meshGetSurfaces(snug, mesh) {
  const h = snug._mesh(mesh);
  const fn = snug._fn('snug_mesh_get_surfaces');
  const { stage, total } = snug._listCall((at, cap, tot) => fn(snug._ctx, h, at, cap, tot), 8, L.surface.size);
  const out = [];
  for (let i = 0; i < total; i++) out.push(readSurface(snug, stage + i * L.surface.size));
  return out;
}

/** Offers and bindings found from the triangles alone (snug_mesh_find_surfaces); not set on the mesh. */
export function meshFindSurfaces(snug, mesh, def = {}) {
  const h = snug._mesh(mesh);
  const find = snug._fn('snug_mesh_find_surfaces');
  const F = L.surface_find_def;
  const d = snug._scratch + SCRATCH.findDef; // not the stage: the list call below stages its output there
  snug._fn('snug_default_surface_find_def')(d);
  snug._views();
  if (def.up !== undefined) snug._f32.set(vec(def.up), (d + F.up) >> 2);
  if (def.forward !== undefined) snug._f32.set(vec(def.forward), (d + F.forward) >> 2);
  const floats = [['maxTilt', F.max_tilt], ['flatness', F.flatness], ['minArea', F.min_area], ['minWidth', F.min_width],
    ['wallFill', F.wall_fill], ['clearance', F.clearance], ['contact', F.contact], ['bigSize', F.big_size]];
  for (const [key, off] of floats) if (def[key] !== undefined) snug._f32[(d + off) >> 2] = def[key];
  const { stage, total } = snug._listCall((at, cap, tot) => find(snug._ctx, h, d, at, cap, tot), 16, L.surface.size);
  const out = [];
  for (let i = 0; i < total; i++) out.push(readSurface(snug, stage + i * L.surface.size));
  return out;
}

/** names: label names; order: [[lesser, greater], ...] as names or indices. */
export function sceneSetLabels(scene, names, order = []) {
  scene._live();
  const s = scene.snug;
  const enc = new TextEncoder();
  const bytes = names.map((n) => enc.encode(String(n)));
  const size = 4 * names.length + bytes.reduce((a, b) => a + b.length + 1, 0) + 8 * order.length + 8;
  const at = s._stageReserve(size);
  s._views();
  const ptrs = at, pairs = at + 4 * names.length;
  let str = pairs + 8 * order.length;
  bytes.forEach((b, i) => {
    s._u32[(ptrs >> 2) + i] = str;
    s._u8.set(b, str);
    s._u8[str + b.length] = 0;
    str += b.length + 1;
  });
  const index = (x) => {
    const i = typeof x === 'number' ? x : names.indexOf(x);
    if (i < 0) s._fail(ERR_INVALID, `invalid argument: the order names "${x}", which is not a label`);
    return i;
  };
  order.forEach(([lo, hi], k) => { s._u32[(pairs >> 2) + 2 * k] = index(lo); s._u32[(pairs >> 2) + 2 * k + 1] = index(hi); });
  s._check(s._fn('snug_scene_set_labels')(s._ctx, scene.handle, ptrs, names.length, pairs, order.length));
}

export function sceneLabels(scene) {
  scene._live();
  const s = scene.snug;
  const at = s._stageReserve(64);
  s._check(s._fn('snug_scene_get_label_count')(s._ctx, scene.handle, at));
  const n = s._u32[at >> 2], out = [];
  for (let i = 0; i < n; i++) {
    s._check(s._fn('snug_scene_get_label_name')(s._ctx, scene.handle, i, at));
    out.push(s._m.UTF8ToString(at));
  }
  return out;
}

/** May a binding labelled `binding` rest on an offer labelled `offer` (names of this scene's labels or indices)? */
export function sceneLabelFits(scene, binding, offer) {
  let names = null; // read only for a name: a caller asking by index (every pair of a table) pays one call each
  const idx = (x) => {
    const i = typeof x === 'number' ? x : (names ??= sceneLabels(scene)).indexOf(x);
    if (i < 0) scene.snug._fail(ERR_INVALID, `invalid argument: no label "${x}" in this scene`);
    return i;
  };
  const s = scene.snug;
  const at = s._stageReserve(8);
  s._check(s._fn('snug_scene_label_fits')(s._ctx, scene.handle, idx(binding), idx(offer), at));
  return s._u8[at] !== 0;
}

/** def: { up, skin, overhang, snapRange, maxSlides } (any subset; the rest keep the scene's values). */
export function sceneSetPlaceDef(scene, def) {
  scene._live();
  const s = scene.snug, P = L.place_def;
  const at = s._stageReserve(P.size);
  s._check(s._fn('snug_scene_get_place_def')(s._ctx, scene.handle, at));
  const f = s._f32, u = s._u32;
  if (def.up !== undefined) f.set(vec(def.up), (at + P.up) >> 2);
  if (def.skin !== undefined) f[(at + P.skin) >> 2] = def.skin;
  if (def.overhang !== undefined) f[(at + P.overhang) >> 2] = def.overhang;
  if (def.snapRange !== undefined) f[(at + P.snap_range) >> 2] = def.snapRange;
  if (def.maxSlides !== undefined) u[(at + P.max_slides) >> 2] = def.maxSlides;
  s._check(s._fn('snug_scene_set_place_def')(s._ctx, scene.handle, at));
}

export function scenePlaceDef(scene) {
  scene._live();
  const s = scene.snug, P = L.place_def;
  const at = s._stageReserve(P.size);
  s._check(s._fn('snug_scene_get_place_def')(s._ctx, scene.handle, at));
  const f = s._f32;
  return {
    up: Array.from(f.subarray((at + P.up) >> 2, ((at + P.up) >> 2) + 3)), skin: f[(at + P.skin) >> 2],
    overhang: f[(at + P.overhang) >> 2], snapRange: f[(at + P.snap_range) >> 2], maxSlides: s._u32[(at + P.max_slides) >> 2],
  };
}

/** The body turns only so that its local direction stays on the world direction; null, null removes it. */
export function bodySetOrientation(body, local, world) {
  const s = body.scene.snug, [lo, wo] = slots(12, 12);
  const at = s._stageReserve(24);
  s._views();
  s._f32.set(local ? vec(local) : [0, 0, 0], (at + lo) >> 2);
  s._f32.set(world ? vec(world) : [0, 0, 0], (at + wo) >> 2);
  body._call('snug_body_set_orientation', at + lo, at + wo);
}

/** The orientation constraint as set: { local, world } (unit vectors), or null when the body has none. */
export function bodyOrientation(body) {
  const s = body.scene.snug, out = slots(12, 12), [lo, wo] = out;
  const at = s._stageReserve(out.size);
  body._call('snug_body_get_orientation', at + lo, at + wo);
  const local = Array.from(s._f32.subarray((at + lo) >> 2, ((at + lo) >> 2) + 3));
  const world = Array.from(s._f32.subarray((at + wo) >> 2, ((at + wo) >> 2) + 3));
  return local.every((x) => x === 0) ? null : { local, world };
}

function readBinding(scene, s, b) {
  const B = L.binding, u = s._u32;
  return {
    binding: u[(b + B.binding) >> 2], supporter: scene._bodies.get(u[(b + B.supporter) >> 2]) || null,
    offer: u[(b + B.offer) >> 2],
  };
}

export function bodyBindings(body) {
  const sc = body.scene, s = sc.snug;
  const fn = s._fn('snug_body_get_bindings');
  sc._live();
  const h = sc._body(body);
  const { stage, total } = s._listCall((at, cap, tot) => fn(s._ctx, sc.handle, h, at, cap, tot), 4, L.binding.size);
  const out = [];
  for (let i = 0; i < total; i++) out.push(readBinding(sc, s, stage + i * L.binding.size));
  return out;
}

export function bodyBind(body, binding, supporter, offer) {
  body._call('snug_body_bind', binding >>> 0, body.scene._body(supporter), offer >>> 0);
}

/** Restore bindings [{ binding, supporter: Body, offer }] as they stand, moving nothing (snug_body_set_bindings). */
export function bodySetBindings(body, list) {
  const s = body.scene.snug, B = L.binding;
  const supporters = list.map((b) => body.scene._body(b.supporter));
  const at = s._stageReserve(Math.max(1, list.length) * B.size);
  s._views();
  list.forEach((b, k) => {
    const r = at + k * B.size;
    s._u32[(r + B.body) >> 2] = body.handle;
    s._u32[(r + B.binding) >> 2] = b.binding >>> 0;
    s._u32[(r + B.supporter) >> 2] = supporters[k];
    s._u32[(r + B.offer) >> 2] = b.offer >>> 0;
  });
  body._call('snug_body_set_bindings', at, list.length);
}

export function bodyUnbind(body) { body._call('snug_body_unbind'); }

/**
 * One call per pointer event or controller frame. def: { mode: 'constrained' | 'free', target?: pose, ray?: {
 * origin, dir }, grab?: [x, y, z] (body frame, with ray), turn?: radians about the allowed axis, angleStep?: radians }.
 * A ray makes it pointer input (the grabbed point follows the ray on the binding's plane); else the target pose.
 */
export function bodyMove(body, def, out) {
  const sc = body.scene, s = sc.snug, D = L.move_def, R = L.move_result;
  sc._live();
  const h = sc._body(body);
  const at = s._stageReserve(D.size + R.size);
  const res = at + D.size;
  s._fn('snug_default_move_def')(at);
  s._views();
  const f = s._f32, u = s._u32;
  if (def.mode !== undefined) u[(at + D.mode) >> 2] = enumIndex(MODES, def.mode, 'mode');
  if (def.ray) {
    u[(at + D.input) >> 2] = POINTER_INPUT;
    f.set(vec(def.ray.origin), (at + D.ray + L.ray.origin) >> 2);
    f.set(vec(def.ray.dir), ((at + D.ray) >> 2) + RAY_DIR);
    f[((at + D.ray) >> 2) + RAY_TMAX] = def.ray.tmax ?? Infinity;
    if (def.grab) f.set(vec(def.grab), (at + D.grab) >> 2);
  } else if (def.target) {
    s._pose(at + D.target, def.target);
  } else {
    body.getPose(s._scratchPose || (s._scratchPose = new Float32Array(7)));
    s._views();
    s._pose(at + D.target, s._scratchPose);
  }
  s._f32[(at + D.turn) >> 2] = def.turn ?? 0;
  s._f32[(at + D.angle_step) >> 2] = def.angleStep ?? 0;
  s._check(s._fn('snug_body_move')(s._ctx, sc.handle, h, at, res));
  return readMove(sc, s, res, out || sc.moveResult || (sc.moveResult = new MoveResult()));
}

function readMove(scene, s, b, out) {
  const R = L.move_result, f = s._f32, u = s._u32, bodies = scene._bodies;
  out.pose.set(f.subarray((b + R.pose) >> 2, ((b + R.pose) >> 2) + 7));
  const bits = u[(b + R.reasons) >> 2];
  out.reasonBits = bits;
  out.reasons = REASONS.filter((_, i) => bits & (1 << i));
  out.bindings = [];
  for (let i = 0; i < u[(b + R.binding_count) >> 2]; i++) out.bindings.push(readBinding(scene, s, b + R.bindings + i * L.binding.size));
  out.candidate = null;
  if (s._u8[b + R.has_candidate]) {
    out.candidate = readBinding(scene, s, b + R.candidate);
    out.candidate.pose = Float32Array.from(f.subarray((b + R.candidate_pose) >> 2, ((b + R.candidate_pose) >> 2) + 7));
  }
  out.blockers = [];
  const K = L.blocker;
  for (let i = 0; i < u[(b + R.blocker_count) >> 2]; i++) {
    const k = b + R.blockers + i * K.size;
    out.blockers.push({
      body: bodies.get(u[(k + K.body) >> 2]) || null, by: bodies.get(u[(k + K.by) >> 2]) || null,
      point: Array.from(f.subarray((k + K.point) >> 2, ((k + K.point) >> 2) + 3)),
      normal: Array.from(f.subarray((k + K.normal) >> 2, ((k + K.normal) >> 2) + 3)),
    });
  }
  out.allowedAxes = u[(b + R.allowed_axes) >> 2];
  out.turnAxis.set(f.subarray((b + R.turn_axis) >> 2, ((b + R.turn_axis) >> 2) + 3));
  return out;
}

/** The shortest push found that frees the body from what it overlaps: { moved, translation: [x, y, z] }. */
export function bodyPushOut(body) {
  const s = body.scene.snug, [to, mo] = slots(12, 1);
  const at = s._stageReserve(16);
  body._call('snug_body_push_out', at + to, at + mo);
  const t = (at + to) >> 2;
  return { moved: s._u8[at + mo] !== 0, translation: Array.from(s._f32.subarray(t, t + 3)) };
}

/** The consistency check: [] when consistent, else [{ kind, body, other, binding, amount }]. */
export function sceneCheck(scene) {
  scene._live();
  const s = scene.snug, V = L.violation;
  const fn = s._fn('snug_scene_check');
  const { stage, total } = s._listCall((at, cap, tot) => fn(s._ctx, scene.handle, at, cap, tot), 16, V.size);
  const out = [];
  for (let i = 0; i < total; i++) {
    const b = stage + i * V.size, u = s._u32;
    out.push({
      kind: VIOLATIONS[u[(b + V.kind) >> 2]], body: scene._bodies.get(u[(b + V.body) >> 2]) || null,
      other: scene._bodies.get(u[(b + V.other) >> 2]) || null,
      binding: u[(b + V.binding) >> 2] === NO_HIT ? null : u[(b + V.binding) >> 2], amount: s._f32[(b + V.amount) >> 2],
    });
  }
  return out;
}

// ------------------------------------------------------------------------------------------- placement II

function bodyList(body, name) {
  const sc = body.scene, s = sc.snug;
  sc._live();
  const h = sc._body(body), fn = s._fn(name);
  const { stage, total } = s._listCall((at, cap, tot) => fn(s._ctx, sc.handle, h, at, cap, tot), 16, 4);
  const out = [];
  for (let i = 0; i < total; i++) out.push(sc._bodies.get(s._u32[(stage >> 2) + i]) || null);
  return out;
}

/** Direct supporters, direct dependents, and the group (the body and what moves with it). */
export function bodySupporters(body) { return bodyList(body, 'snug_body_get_supporters'); }
export function bodyDependents(body) { return bodyList(body, 'snug_body_get_dependents'); }
export function bodyGroup(body) { return bodyList(body, 'snug_body_get_group'); }

/** Pseudo-gravity: { outcome: DROP_OUTCOMES name, landed: Binding | null, blocker: Body | null }. */
export function bodyDrop(body) {
  const sc = body.scene, s = sc.snug, out = slots(4, L.binding.size, 4), [oo, lo, bo] = out;
  const at = s._stageReserve(out.size);
  body._call('snug_body_drop', at + oo, at + lo, at + bo);
  const outcome = DROP_OUTCOMES[s._u32[(at + oo) >> 2]];
  return {
    outcome, landed: outcome === 'landed' || outcome === 'resting' ? readBinding(sc, s, at + lo) : null,
    blocker: sc._bodies.get(s._u32[(at + bo) >> 2]) || null,
  };
}

/**
 * Insert without overlap: def { mesh, ray: { origin, dir }, pose? (its turn about up is kept), isStatic?, layer?,
 * mask?, userData? }. The body lands on the offer under the pointer, at the free snapped pose nearest the hit.
 * Returns { body, binding }; throws (creating nothing) when no offer under the pointer fits or it is full.
 */
export function sceneInsert(scene, def) {
  scene._live();
  const s = scene.snug, I = L.insert_def, B = L.body_def;
  const outs = slots(I.size, 4, L.binding.size), [, ho, bo] = outs;
  const at = s._stageReserve(outs.size);
  s._fn('snug_default_insert_def')(at);
  s._views();
  const u = s._u32, f = s._f32;
  u[(at + I.body + B.mesh) >> 2] = s._mesh(def.mesh);
  if (def.pose) s._pose(at + I.body + B.pose, def.pose);
  if (def.isStatic !== undefined) s._u8[at + I.body + B.is_static] = def.isStatic ? 1 : 0;
  if (def.layer !== undefined) u[(at + I.body + B.layer) >> 2] = def.layer >>> 0;
  if (def.mask !== undefined) u[(at + I.body + B.mask) >> 2] = def.mask >>> 0;
  if (!def.ray) s._fail(ERR_INVALID, 'invalid argument: insert needs a ray { origin, dir }');
  f.set(vec(def.ray.origin), (at + I.ray + L.ray.origin) >> 2);
  f.set(vec(def.ray.dir), ((at + I.ray) >> 2) + RAY_DIR);
  f[((at + I.ray) >> 2) + RAY_TMAX] = def.ray.tmax ?? Infinity;
  s._check(s._fn('snug_scene_insert')(s._ctx, scene.handle, at, at + ho, at + bo));
  const body = scene._adopt(s._u32[(at + ho) >> 2], def.mesh);
  body.userData = def.userData;
  return { body, binding: readBinding(scene, s, at + bo) };
}

/** Delete with a policy ('drop': dependents fall or go; 'with-dependents'): returns the Bodies deleted. */
export function sceneDelete(scene, body, policy = 'drop') {
  scene._live();
  const s = scene.snug;
  const p = DELETE_POLICY[policy];
  if (p === undefined) {
    s._fail(ERR_INVALID, `invalid argument: policy "${policy}" is not one of ${Object.keys(DELETE_POLICY).join(', ')}`);
  }
  const h = scene._body(body), fn = s._fn('snug_scene_delete');
  const cap = scene._bodies.size;
  const at = s._stageReserve(4 * cap + 8);
  s._check(fn(s._ctx, scene.handle, h, p, at, cap, at + 4 * cap));
  const n = s._u32[(at + 4 * cap) >> 2], out = [];
  for (let i = 0; i < n; i++) {
    const b = scene._bodies.get(s._u32[(at >> 2) + i]);
    if (b) { scene._bodies.delete(b.handle); b.handle = 0; out.push(b); }
  }
  return out;
}

// Bytes of a C call that writes into (buffer, capacity, size): asks for the size, then writes.
function bytesOf(scene, name) {
  scene._live();
  const s = scene.snug, fn = s._fn(name);
  const sizeAt = s._stageReserve(8);
  s._check(fn(s._ctx, scene.handle, 0, 0, sizeAt));
  const n = s._u32[sizeAt >> 2];
  const at = s._stageReserve(n + 8);
  s._check(fn(s._ctx, scene.handle, at + 8, n, at));
  return s._u8.slice(at + 8, at + 8 + n);
}

/** A snapshot of the scene for undo (bytes); restore gives back that state bit for bit, same Body objects. */
export function sceneSnapshot(scene) {
  return { bytes: bytesOf(scene, 'snug_scene_snapshot'), bodies: new Map(scene._bodies) };
}

export function sceneRestore(scene, snapshot) {
  scene._live();
  const s = scene.snug;
  const at = s._stageReserve(snapshot.bytes.length);
  s._u8.set(snapshot.bytes, at);
  s._check(s._fn('snug_scene_restore')(s._ctx, scene.handle, at, snapshot.bytes.length));
  for (const b of scene._bodies.values()) if (!snapshot.bodies.has(b.handle)) b.handle = 0;
  scene._bodies = new Map(snapshot.bodies);
  for (const [h, b] of scene._bodies) b.handle = h;
}

/** The scene file (bytes): meshes with their hierarchies and surfaces, bodies, bindings, labels, settings. */
export function sceneSave(scene) { return bytesOf(scene, 'snug_scene_save'); }

/**
 * Load a scene file, replacing the scene's bodies (their Body objects are disposed). Returns { bodies: Body[] in
 * file order, meshes: Mesh[] (new meshes of this context, yours to dispose) }. Atomic: a bad file throws and changes
 * nothing.
 */
export function sceneLoad(scene, bytes) {
  scene._live();
  const s = scene.snug, fn = s._fn('snug_scene_load');
  // room for the handles: a body takes at least 88 bytes of the file, a mesh at least 8
  const maxBodies = Math.floor(bytes.length / 88) + 1, maxMeshes = Math.floor(bytes.length / 8) + 1;
  const pad = (4 - (bytes.length % 4)) % 4;
  const at = s._stageReserve(bytes.length + pad + 4 * (maxBodies + maxMeshes) + 8);
  const b = at + bytes.length + pad, m = b + 4 * maxBodies, t = m + 4 * maxMeshes;
  s._views();
  s._u8.set(bytes, at);
  s._check(fn(s._ctx, scene.handle, at, bytes.length, b, maxBodies, t, m, maxMeshes, t + 4));
  for (const old of scene._bodies.values()) old.handle = 0;
  scene._bodies.clear();
  const meshes = [], byHandle = new Map();
  for (let i = 0; i < s._u32[(t + 4) >> 2]; i++) {
    const mesh = s._adopt(s._u32[(m >> 2) + i], 'scene file');
    meshes.push(mesh);
    byHandle.set(mesh.handle, mesh);
  }
  const bodies = [];
  for (let i = 0; i < s._u32[t >> 2]; i++) {
    const h = s._u32[(b >> 2) + i];
    const body = scene._adopt(h, null);
    body.mesh = byHandle.get(body.info().mesh) || null;
    bodies.push(body);
  }
  return { bodies, meshes };
}
