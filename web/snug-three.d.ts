// Types of the three.js layer (web/snug-three.js; the package's `snug/three`). Kept in step with the code by hand and
// checked against it by tests/js/dts.test.mjs, as wasm/snug.d.ts is. three.js types come from @types/three.
import type { BufferGeometry, Matrix4, Object3D, Ray, Vector3 } from 'three';
import type { Body, BvhDef, Mesh, MoveReason, Pose, Scene, SceneSnapshot, Snug, Surface } from '../wasm/snug.js';

export { pose } from '../wasm/snug.js';

/** Pose [qx, qy, qz, qw, px, py, pz] of a matrix, scale dropped. */
export function poseFromMatrix(matrix: Matrix4, out?: Float32Array): Float32Array;

/** Matrix of a pose with an optional scale (the scale baked into the snug mesh; default 1). */
export function matrixFromPose(pose: Pose, scale?: Vector3, out?: Matrix4): Matrix4;

/** The arrays a snug mesh is made of. */
export interface GeometryArrays {
  /** Scaled positions, 3 per vertex. */
  positions: Float32Array;
  /** The geometry's index (a copy as Uint32Array unless it is already Uint32Array or Uint16Array); null for a
   * non-indexed geometry, where every 3 vertices form a triangle. */
  indices: Uint32Array | Uint16Array | null;
}

/** Positions (scaled) and indices of a BufferGeometry, indexed or not, interleaved or not. */
export function geometryArrays(geometry: BufferGeometry, scale?: ArrayLike<number> | Vector3): GeometryArrays;

export interface MeshFromGeometryOptions {
  scale?: ArrayLike<number> | Vector3;
  /** Default: geometry.name. */
  label?: string;
  weld?: boolean;
  bvh?: BvhDef;
}

/** A snug Mesh from a BufferGeometry at a scale. */
export function meshFromGeometry(snug: Snug, geometry: BufferGeometry, options?: MeshFromGeometryOptions): Mesh;

/** Placement surfaces given in a geometry's frame, in the frame of its mesh at a world scale (a mirror reverses the
 * winding so it stays counter-clockwise). */
export function scaleSurfaces(surfaces: Surface[], scale: ArrayLike<number> | Vector3): Surface[];

/** What SnugSync keeps per registered object. */
export interface SyncEntry {
  object: Object3D;
  geometry: BufferGeometry;
  /** Shared by every entry with the same geometry and world scale, or the caller's (options.mesh). */
  mesh: Mesh;
  /** The arrays the mesh was made of (or the `source` given to add()); null for a caller's mesh without source. */
  arrays: GeometryArrays | null;
  /** World scale, baked into the mesh. */
  scale: Vector3;
  isStatic: boolean;
  label: string;
  /** The world pose last shown on the object (the body's, after fromCore). */
  pose: Float32Array;
  /** The object's body; its user data is the object. */
  body: Body;
}

export interface SyncAddOptions {
  /** Default: object.geometry. */
  geometry?: BufferGeometry;
  isStatic?: boolean;
  /** Default: object.name. */
  label?: string;
  /** The arrays to report in entry.arrays (e.g. the ones a worker built the mesh from). */
  source?: GeometryArrays;
  /** A prebuilt mesh made of geometryArrays(geometry, world scale) (e.g. from snug.buildMeshInWorker); it stays
   * the caller's (never disposed by the SnugSync). */
  mesh?: Mesh;
  /** Placement surfaces in the geometry's frame, set on the mesh this makes (scaled to the world scale). */
  surfaces?: Surface[];
  /** The body may only turn about up (+y): body.setOrientation([0, 1, 0], [0, 1, 0]). */
  upright?: boolean;
}

/** A pose and the bindings of an entry (a captured state). */
export interface EntryState {
  pose: Float32Array;
  bindings: { binding: number; supporter: SyncEntry; offer: number }[];
}

/** Keeps Object3Ds and the bodies of a snug scene in step (world poses, parents). */
export class SnugSync {
  /** options.scene: a snug Scene to put the bodies in; by default the SnugSync makes (and disposes) its own. */
  constructor(snug: Snug, options?: { scene?: Scene | null });
  snug: Snug;
  scene: Scene;
  entries: SyncEntry[];
  byObject: Map<Object3D, SyncEntry>;
  /** Register an object (a three.js Mesh, or any Object3D with options.geometry) as a body. */
  add(object: Object3D, options?: SyncAddOptions): SyncEntry;
  /** Register a new object that the core places (scene.insert): on the offer under `ray` its resting surface may use,
   * at the free spot nearest the pointer, bound there. Throws the core's error (nothing fits, the offer is full) and
   * then registers nothing. */
  insert(object: Object3D, ray: Ray, options?: SyncAddOptions): SyncEntry;
  remove(object: Object3D): void;
  /** The entry of a body of this scene (null for none). */
  entryOf(body: Body | null): SyncEntry | null;
  /** The entry and the entries below it in the core's hierarchy (what rests on it), parents first. */
  subtree(entry: SyncEntry): SyncEntry[];
  /** Those entries and the registered three.js descendants of their objects, three.js parents first. */
  affected(entries: SyncEntry[]): SyncEntry[];
  /** The entries a drag of `entries` (one group) can change: what moves with them and what is bound to that. */
  reach(entries: SyncEntry[]): SyncEntry[];
  /** Show the bodies' world poses on the entries' objects (a list from affected()). */
  fromCore(entries: SyncEntry[]): void;
  /** Read every registered object's world pose from three.js (after the app moved objects). */
  pull(): void;
  /** Write every body's world pose to the three.js objects (after the core moved bodies). */
  push(): void;
  /** Set an object's world pose; the core moves what rests on it along, and three.js shows the result. */
  setWorldPose(object: Object3D, pose: Pose): void;
  /** Every entry's (or the given entries') world pose and bindings. */
  capture(entries?: SyncEntry[]): Map<SyncEntry, EntryState>;
  /** Put entries back to a captured state (pose, then the bindings as they stand there, then a child's local pose);
   * returns the bindings that do not hold there. */
  restore(state: Map<SyncEntry, EntryState>): string[];
  dispose(): void;
}

/** A move's result mapped to Object3Ds. */
export interface DragFeedback {
  reasons: MoveReason[];
  /** What stopped the motion, with the contact point and the normal (from the blocker towards the moved group). */
  blockers: { object: Object3D | null; point: number[]; normal: number[] }[];
  /** What the object rests on after the move (supporter's object, offer and binding surface indices). */
  rests: { object: Object3D | null; offer: number; binding: number }[];
  /** The seat the object could take (free mode, or a snap something blocks), with its pose: a ghost. */
  candidate: { object: Object3D | null; offer: number; binding: number; pose: Float32Array } | null;
  /** The axis a turn may use; null when no turn is allowed. */
  turnAxis: [number, number, number] | null;
  /** Translation degrees of freedom left (0..3). */
  allowedAxes: number;
}

export interface DragOptions {
  /** 'constrained' (default): bindings hold, offers are snapped to and re-seated on; 'free': it leaves them. */
  mode?: 'constrained' | 'free';
  /** Radians about the allowed axis, added this call. */
  turn?: number;
  /** > 0: a turn ends on a multiple of this angle. */
  angleStep?: number;
}

/** A pointer drag of a registered object through the core's mover: one body.move per call. */
export class SnugDrag {
  /** Start dragging `object`, grabbed at the world point `point`; options.carry: other objects moved with it as
   * one rigid group (made its children in the core until release() or cancel()). */
  constructor(sync: SnugSync, object: Object3D, point: Vector3 | ArrayLike<number>, options?: { carry?: Object3D[] });
  sync: SnugSync;
  entry: SyncEntry;
  body: Body;
  /** The grabbed point in the body's frame. */
  grab: number[];
  /** The entries whose objects each call rewrites (the object and what the core moves with it). */
  moved: SyncEntry[];
  /** The scene when the drag began (what cancel() restores). */
  before: SceneSnapshot;
  /** The object's world pose when the drag began. */
  start: Float32Array;
  /** The last call's feedback (null before the first). */
  last: DragFeedback | null;
  /** The last body.move's time in milliseconds. */
  coreMs: number;
  /** One pointer event: the grabbed point follows the ray (a three.js Ray). */
  move(ray: Ray, options?: DragOptions): DragFeedback;
  /** Turn by `angle` radians about the allowed axis, the pointer still. */
  turn(angle: number, options?: Omit<DragOptions, 'turn'>): DragFeedback;
  /** Turned by `total` radians since the drag began (a ring gesture); null when already there. */
  turnTo(total: number, options?: Omit<DragOptions, 'turn'>): DragFeedback | null;
  /** The end of a free drag: take the last reported seat where its ghost showed it; whether it did. */
  drop(): boolean;
  /** The end of the drag: carried objects get their parents back. */
  release(): void;
  /** Everything back to where it was when the drag began (poses, bindings, parents). */
  cancel(): void;
}
