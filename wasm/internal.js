// What snug.js and scene.js share: the C layout (generated from the headers at build time, see
// wasm/layout_probe.mjs), the error type, the enum tables in their JS spelling, the pose helper and the places of
// the context's scratch block. Imported by both, so that neither imports the other back.
import { LAYOUT, ENUMS, NAMED, STATUS, CONSTANTS } from '../build/wasm/snug-layout.js';

export { LAYOUT, ENUMS, NAMED, STATUS, CONSTANTS };

export const STATUS_NAMES = ENUMS.status;
export const BV_TYPES = ENUMS.bv_type;
export const SPLITTERS = ENUMS.splitter;
export const MEASURES = ENUMS.measure;
export const TRAVERSALS = ENUMS.traversal;
export const TOI_MODES = ENUMS.toi_mode;
export const ROOT_FINDERS = ENUMS.root_finder;
export const FEATURES = ENUMS.feature_kind;
export const STEP_MODES = ENUMS.step_mode;
export const APPROX = ENUMS.approx;

export const NO_HIT = CONSTANTS.SNUG_NO_HIT;
export const ERR_INVALID = STATUS.SNUG_ERR_INVALID_ARGUMENT;
export const ERR_STALE = STATUS.SNUG_ERR_STALE_HANDLE;
export const ERR_OOM = STATUS.SNUG_ERR_OUT_OF_MEMORY;
export const ERR_BUFFER_TOO_SMALL = STATUS.SNUG_ERR_BUFFER_TOO_SMALL;

/** A failed C call: `status` is the snug_status name (e.g. "SNUG_ERR_STALE_HANDLE"), `message` the core's text. */
export class SnugError extends Error {
  constructor(code, message) {
    const status = STATUS_NAMES[code] || `SNUG_STATUS_${code}`;
    super(message || status);
    this.name = 'SnugError';
    this.code = code;
    this.status = status;
  }
}

/** A pose as the C core takes it: Float32Array [qx, qy, qz, qw, px, py, pz]. */
export function pose(q = [0, 0, 0, 1], p = [0, 0, 0], out = new Float32Array(7)) {
  out[0] = q[0]; out[1] = q[1]; out[2] = q[2]; out[3] = q[3];
  out[4] = p[0]; out[5] = p[1]; out[6] = p[2];
  return out;
}

/** The C value of an enum given by its JS name or its number; undefined stays undefined (keep the default). */
export function enumIndex(names, value, what) {
  if (value === undefined) return undefined;
  const i = typeof value === 'number' ? value : names.indexOf(value);
  if (!(i >= 0 && i < names.length) || (i | 0) !== i) {
    throw new SnugError(ERR_INVALID, `invalid argument: ${what} "${value}" is not one of ${names.join(', ')}`);
  }
  return i;
}

// Objects of offsets are made by Object.fromEntries: V8 keeps those in fast mode (one made by adding 27 properties
// in a loop turns into a dictionary, and every hot-path read of it became a lookup).

/** Byte offsets of consecutive slots of the given sizes (4-byte aligned), and their total as .size: the places of a
 * call's several outputs in one staged block. */
export function slots(...sizes) {
  const at = [];
  let next = 0;
  for (const bytes of sizes) {
    at.push(next);
    next += (bytes + 3) & ~3;
  }
  at.size = next;
  return at;
}

/** A struct's field offsets in 4-byte words (for Float32Array / Uint32Array reads). */
export function words(layout) {
  return Object.freeze(Object.fromEntries(Object.entries(layout).map(([k, v]) => [k, v >> 2])));
}

// The context's scratch block (one allocation per context): argument structs and single results, each at an
// 8-byte aligned place sized by the generated layout.
function places(list) {
  const at = [];
  let next = 0;
  for (const [name, bytes] of list) {
    at.push([name, next]);
    next += (bytes + 7) & ~7;
  }
  at.push(['total', next]);
  return Object.freeze(Object.fromEntries(at));
}

const L = LAYOUT;
export const S = places([
  ['poseA', L.pose.size], ['poseB', L.pose.size], ['ray', L.ray.size], ['hit', L.ray_hit.size],
  ['bool', 4], ['u32', 4], ['size', 4], ['handle', 4], ['pair', L.tri_pair.size],
  ['dist', L.distance_result.size], ['point', 12], ['pointResult', L.point_result.size], ['info', L.mesh_info.size],
  ['quality', L.bvh_quality.size], ['def', L.mesh_def.size], ['motionA', L.motion.size], ['motionB', L.motion.size],
  ['toiDef', L.toi_def.size], ['toiResult', L.toi_result.size], ['vecA', 12], ['vecB', 12],
  ['bodyDef', L.body_def.size], ['bodyInfo', L.body_info.size], ['sceneHit', L.scene_hit.size],
  ['stepDef', L.step_def.size], ['stepStats', L.step_stats.size], ['findDef', L.surface_find_def.size],
]);
