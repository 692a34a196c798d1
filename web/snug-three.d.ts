// Types of the three.js layer (web/snug-three.js; the package's `snug/three`). Kept in step with the code by hand and
// checked against it by tests/js/dts.test.mjs, as wasm/snug.d.ts is. three.js types come from @types/three.
import type { BufferGeometry, Matrix4, Object3D, Vector3 } from 'three';
import type { Body, BvhDef, Mesh, Pose, Scene, Snug } from '../wasm/snug.js';

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

/** What SnugSync keeps per registered object. */
export interface SyncEntry {
  object: Object3D;
  geometry: BufferGeometry;
  /** Shared by every entry with the same geometry and world scale. */
  mesh: Mesh;
  /** The arrays the mesh was made of (or the `source` given to add()). */
  arrays: GeometryArrays;
  /** World scale, baked into the mesh. */
  scale: Vector3;
  isStatic: boolean;
  label: string;
  /** World pose read from object.matrixWorld. */
  pose: Float32Array;
  /** World box of the geometry's box at the pose (conservative). */
  worldMin: Vector3;
  worldMax: Vector3;
  /** The object's body when the SnugSync has a scene. */
  body?: Body;
}

export interface SyncAddOptions {
  /** Default: object.geometry. */
  geometry?: BufferGeometry;
  isStatic?: boolean;
  /** Default: object.name. */
  label?: string;
  /** The arrays to report in entry.arrays (e.g. the ones a worker built the mesh from). */
  source?: GeometryArrays;
  /** A prebuilt mesh (e.g. from snug.buildMeshInWorker) made of geometryArrays(geometry, world scale). */
  mesh?: Mesh;
}

/** Keeps Object3Ds and snug meshes (and, with a scene, bodies mirroring the parent links) in step. */
export class SnugSync {
  /** options.scene: a snug Scene, or true to create one owned by this SnugSync; null (default): no bodies. */
  constructor(snug: Snug, options?: { scene?: Scene | boolean | null });
  snug: Snug;
  scene: Scene | null;
  entries: SyncEntry[];
  byObject: Map<Object3D, SyncEntry>;
  /** Register an object (a three.js Mesh, or any Object3D with options.geometry). */
  add(object: Object3D, options?: SyncAddOptions): SyncEntry;
  remove(object: Object3D): void;
  /** Read every registered object's world pose from three.js (after the app moved objects). */
  pull(): void;
  /** Write the bodies' world poses (e.g. after a step commit) back to the three.js objects. */
  push(): void;
  /** Set an object's world pose; children follow, registered descendants' poses are refreshed. */
  setWorldPose(object: Object3D, pose: Pose): void;
  dispose(): void;
}

/** World-space unit normal of triangle `tri` (creation id) of an entry. */
export function triangleNormal(entry: SyncEntry, tri: number, out?: Vector3): Vector3;
/** World-space centroid of triangle `tri` (creation id) of an entry. */
export function triangleCentroid(entry: SyncEntry, tri: number, out?: Vector3): Vector3;

/** What stopped one part of the last move. */
export interface DragContact {
  /** Fraction of that part of the move that was applied. */
  t: number;
  /** The blocker. */
  entry: SyncEntry;
  /** The moving entry (the dragged one or a registered descendant) that touched it. */
  source: SyncEntry;
  triA: number;
  triB: number;
  point: Vector3;
  normal: Vector3;
}

export interface DragMoverOptions {
  /** Slides along blockers per move (default 3). */
  maxSlides?: number;
  /** Normal of the drag plane; slides stay in it (default up, [0, 1, 0]). */
  planeNormal?: ArrayLike<number>;
  /** Entries never tested against the dragged one. */
  ignore?: (entry: SyncEntry) => boolean;
}

/** Moves an entry (with its registered descendants) by a translation, stopping at contact and sliding along. */
export class DragMover {
  constructor(sync: SnugSync, options?: DragMoverOptions);
  sync: SnugSync;
  snug: Snug;
  maxSlides: number;
  planeNormal: Vector3;
  ignore: (entry: SyncEntry) => boolean;
  useSweep: boolean;
  /** Entries that blocked the last move. */
  blockers: Set<SyncEntry>;
  contacts: DragContact[];
  lastQueryMs: number;
  lastQueries: number;
  /** Move by `delta` (world); returns the translation actually applied. */
  move(entry: SyncEntry, delta: Vector3): Vector3;
}
