// Types of the snug JavaScript API (wasm/snug.js, wasm/scene.js). Kept in step with the code by hand; every
// name here is exported or public there, and the unions of enum names equal the tables generated from the C
// headers (tests/js/dts.test.mjs checks both).

/** [qx, qy, qz, qw, px, py, pz]: unit quaternion and translation; world = rotate(q, local) + p. null = identity. */
export type Pose = ArrayLike<number>;
export type Vec3 = ArrayLike<number> | { x: number; y: number; z: number };

export type StatusName =
  | 'SNUG_OK' | 'SNUG_ERR_INVALID_ARGUMENT' | 'SNUG_ERR_NOT_FINITE' | 'SNUG_ERR_INDEX_RANGE' | 'SNUG_ERR_EMPTY'
  | 'SNUG_ERR_STALE_HANDLE' | 'SNUG_ERR_OUT_OF_MEMORY' | 'SNUG_ERR_BLOB_TRUNCATED' | 'SNUG_ERR_BLOB_FOREIGN'
  | 'SNUG_ERR_BLOB_VERSION' | 'SNUG_ERR_BLOB_CORRUPT' | 'SNUG_ERR_BUFFER_TOO_SMALL' | 'SNUG_ERR_NOT_CLOSED'
  | 'SNUG_ERR_CYCLE';
export type BvType = 'sphere' | 'aabb' | 'obb' | 'kdop14' | 'kdop18' | 'kdop26' | 'mixed';
export type Splitter = 'median' | 'sah' | 'gottschalk' | 'zachmann' | 'kcenter' | 'kmeans' | 'greedy' | 'branch-bound';
export type Measure = 'volume' | 'surface' | 'diameter' | 'hausdorff';
export type Traversal = 'simultaneous' | 'one-sided' | 'hybrid';
export type ToiMode = 'static' | 'mixed' | 'dynamic' | 'daasd';
export type RootFinder = 'linear' | 'regula-falsi' | 'quadratic' | 'sampling' | 'sampling-regula-falsi';
export type Feature = 'none' | 'vertex-face' | 'face-vertex' | 'edge-edge' | 'face-face';
export type StepMode = 'static' | 'mixed' | 'dynamic';
export type Approx = 'none' | 'conservative' | 'indicator';

export const STATUS_NAMES: readonly StatusName[];
export const BV_TYPES: readonly BvType[];
export const SPLITTERS: readonly Splitter[];
export const MEASURES: readonly Measure[];
export const TRAVERSALS: readonly Traversal[];
export const TOI_MODES: readonly ToiMode[];
export const ROOT_FINDERS: readonly RootFinder[];
export const FEATURES: readonly Feature[];

// ------------------------------------------------------------------------------------------- placement

/** The default labels of every scene, index = the core's label id. */
export const DEFAULT_LABELS: readonly string[];
export type MoveReason = 'blocked' | 'contained' | 'constrained' | 'turn-blocked' | 'turn-locked' | 'snapped' |
  'reseated' | 'snap-blocked' | 'started-overlapping';
export const REASONS: readonly MoveReason[];
export type DropOutcome = 'landed' | 'resting' | 'nothing-below' | 'blocked';
export const DROP_OUTCOMES: readonly DropOutcome[];
export type ViolationKind = 'overlap' | 'plane' | 'containment' | 'label' | 'cycle' | 'orientation' | 'stale';
export const VIOLATIONS: readonly ViolationKind[];

/** An offer (where others may rest; normal out of the object) or a binding (what rests; normal into the object). */
export interface Surface {
  kind: 'offer' | 'binding';
  /** A DEFAULT_LABELS name, or a label index of the scene. */
  label: string | number;
  normal: Vec3;
  /** 3..32 vertices in the mesh's frame: convex, planar, counter-clockwise seen from the normal's tip. */
  polygon: Vec3[];
}

export interface Binding {
  /** Index of the binding surface in the body's mesh. */
  binding: number;
  supporter: Body | null;
  /** Index of the offer surface in the supporter's mesh. */
  offer: number;
}

export interface Blocker {
  body: Body | null;
  /** The member of the moving group it touched. */
  by: Body | null;
  point: number[];
  /** Unit, from the blocker towards the group. */
  normal: number[];
}

export class MoveResult {
  pose: Float32Array;
  reasons: MoveReason[];
  reasonBits: number;
  bindings: Binding[];
  /** A seat the body could take (free mode, or a snap blocked by a collision), with its pose for a preview. */
  candidate: (Binding & { pose: Float32Array }) | null;
  blockers: Blocker[];
  /** Translation degrees of freedom left (0..3). */
  allowedAxes: number;
  /** The axis a turn may use (zero when none). */
  turnAxis: Float32Array;
  has(reason: MoveReason): boolean;
}

export interface MoveDef {
  mode?: 'constrained' | 'free';
  /** Target world pose (controller, script); without target and ray the body stays and only turns. */
  target?: Pose;
  /** Pointer input: the grabbed point follows the ray on the plane of the body's binding. */
  ray?: { origin: Vec3; dir: Vec3; tmax?: number };
  /** The grabbed point in the body's frame (with ray). */
  grab?: Vec3;
  /** Radians about the allowed axis, added this call. */
  turn?: number;
  /** > 0: the turn ends on a multiple of this angle. */
  angleStep?: number;
}

export interface PlaceDef {
  up?: Vec3;
  skin?: number;
  overhang?: number;
  snapRange?: number;
  maxSlides?: number;
}

/** An undo point of a scene (its bytes and the Body objects alive then). */
export interface SceneSnapshot {
  bytes: Uint8Array;
  bodies: Map<number, Body>;
}

export interface Violation {
  kind: ViolationKind;
  body: Body | null;
  other: Body | null;
  binding: number | null;
  amount: number;
}

/** A failed call: the core's status name and message. */
export class SnugError extends Error {
  constructor(code: number, message?: string);
  readonly name: 'SnugError';
  readonly code: number;
  readonly status: StatusName;
}

export function pose(q?: ArrayLike<number>, p?: ArrayLike<number>, out?: Float32Array): Float32Array;

export interface BvhDef {
  bvType?: BvType | number;
  /** 'median', 'sah' and 'gottschalk' everywhere; the others (and bottomUp) are research variants that only the
   * tools module builds (CreateOptions.tools): elsewhere createMesh throws SNUG_ERR_INVALID_ARGUMENT. */
  splitter?: Splitter | number;
  branching?: number;
  maxBranching?: number;
  alpha?: number;
  smallNode?: number;
  leafSize?: number;
  maxDepth?: number;
  measure?: Measure | number;
  sahBins?: number;
  bbMaxFaces?: number;
  bottomUp?: boolean;
  obbRefine?: boolean;
  hausdorff?: boolean;
}

export interface MeshDef {
  /** 3 floats per vertex. */
  positions: ArrayLike<number>;
  /** 3 per triangle; omitted or null: vertices 3i, 3i+1, 3i+2 form triangle i. */
  indices?: ArrayLike<number> | null;
  weld?: boolean;
  weldTolerance?: number;
  bvh?: BvhDef;
  label?: string;
}

export interface MeshInfo {
  vertexCount: number;
  triangleCount: number;
  degenerateCount: number;
  edgeCount: number;
  boundaryEdgeCount: number;
  nonmanifoldEdgeCount: number;
  nodeCount: number;
  leafCount: number;
  depth: number;
  bvType: BvType;
  aabbMin: [number, number, number];
  aabbMax: [number, number, number];
  scale: number;
  tolerance: number;
  closed: boolean;
  memoryBytes: number;
}

export interface BvhQuality {
  volumeSum: number;
  surfaceSum: number;
  diameterSum: number;
  hausdorffMax: number;
  sahCost: number;
  nodesPerType: Record<Exclude<BvType, 'mixed'>, number>;
}

export interface QueryStats {
  /** Row-major [typeA * 6 + typeB]. */
  bvTests: Float64Array;
  primitiveTests: number;
  nodesVisited: number;
}

/**
 * Settings of Mesh.findSurfaces and Snug.findSurfaces (snug.h, snug_surface_find_def); omitted fields keep the C defaults: up +y, forward
 * +z (zero: no back binding), maxTilt 5 degrees (radians), flatness 1e-3 of the mesh scale, minArea 0.1 of the
 * footprint, minWidth 0.05 (mesh units), wallFill 0.75, clearance 0.05 of the height, contact 0.005, bigSize 0.6.
 */
export interface SurfaceFindDef {
  up?: Vec3;
  forward?: Vec3;
  maxTilt?: number;
  flatness?: number;
  minArea?: number;
  minWidth?: number;
  wallFill?: number;
  clearance?: number;
  contact?: number;
  bigSize?: number;
}

export class Mesh {
  readonly snug: Snug;
  /** 0 once disposed. */
  readonly handle: number;
  readonly label?: string;
  readonly disposed: boolean;
  /** Is this a live mesh of a live context? */
  isValid(): boolean;
  info(): MeshInfo;
  quality(): BvhQuality;
  degenerate(): Uint32Array;
  setPositions(positions: ArrayLike<number>): void;
  serialize(): Uint8Array;
  setSurfaces(list: Surface[]): void;
  surfaces(): Surface[];
  /** Offers and bindings found from the triangles alone (not set on the mesh): offers first, then bindings. Only on
   * the tools module (CreateOptions.tools); elsewhere it throws a SnugError (SNUG_ERR_INVALID_ARGUMENT) pointing to
   * Snug.findSurfaces, which runs it in a worker. */
  findSurfaces(def?: SurfaceFindDef): Surface[];
  dispose(): void;
}

export class RayHit {
  tri: number;
  t: number;
  readonly point: Float32Array;
  readonly normal: Float32Array;
}

export class PointResult {
  distance: number;
  tri: number;
  readonly point: Float32Array;
}

export class DistanceResult {
  distance: number;
  triA: number;
  triB: number;
  readonly pointA: Float32Array;
  readonly pointB: Float32Array;
}

export class ToiResult {
  hit: boolean;
  t: number;
  safeT: number;
  feature: Feature;
  triA: number;
  triB: number;
  featureA: number;
  featureB: number;
  readonly point: Float32Array;
  readonly normal: Float32Array;
}

export class RayHits {
  constructor(capacity: number);
  capacity: number;
  count: number;
  /** 8 words per ray (snug_ray_hit): [tri (as u32), t, px, py, pz, nx, ny, nz]. */
  f32: Float32Array;
  u32: Uint32Array;
  hit(i: number): boolean;
  tri(i: number): number;
  t(i: number): number;
  point(i: number, out?: Float32Array): Float32Array;
  normal(i: number, out?: Float32Array): Float32Array;
}

export class TriPairs {
  constructor(capacity?: number);
  /** pairs[2k] triangle id in A, pairs[2k + 1] in B. */
  pairs: Uint32Array;
  count: number;
  total: number;
}

export interface ToiDef {
  /** 'daasd' is a research variant that only the tools module has (CreateOptions.tools): elsewhere
   * SNUG_ERR_INVALID_ARGUMENT. */
  mode?: ToiMode | number;
  rootFinder?: RootFinder | number;
  samplingStep?: number;
  maxIterations?: number;
  tolerance?: number;
  daasdSlabs?: number;
}

/** A pose (static) or a motion from start to end (lerp + slerp). */
export type Motion = Pose | null | { start: Pose; end: Pose };

export interface CreateOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
  /** The Emscripten factory (default: build/wasm/snug.mjs, build/wasm/snug-mt.mjs with threads >= 2,
   * build/wasm/snug-tools.mjs with tools). */
  factory?: (args: object) => Promise<object>;
  /** An already instantiated module: the new context shares its memory. With threads >= 2 it must be a threaded
   * module with threads - 1 free pre-started workers. */
  module?: object;
  /** Total threads, the caller's included (default 1: the plain module). 2..64 load the threaded module and run the
   * context's parallel work (the hierarchy build) on threads - 1 pthreads; the results are the same bytes. Needs
   * SharedArrayBuffer: in a browser the page must be cross-origin isolated, else create() rejects with a SnugError.
   * In node the pthreads run on worker_threads; dispose() ends them. */
  threads?: number;
  /** URL of the threaded module's .mjs (default: ../build/wasm/snug-mt.mjs from snug.js); its .wasm and .worker.js
   * are found next to it, or through locateFile. A bundled page must ship the three files unbundled. */
  threadedModuleUrl?: string | URL;
  /** Load the tools module (build/wasm/snug-tools.*, one thread) instead of the plain one: it adds what only
   * authoring and comparison need, the surface finder (Mesh.findSurfaces) and the research variants (the splitters
   * beyond median, SAH and Gottschalk, bottomUp, the 'daasd' time-of-impact mode), which the other modules refuse.
   * Not with threads. */
  tools?: boolean;
}

export interface WorkerBuildOptions {
  /** A browser Worker or a node worker_threads Worker running wasm/worker.js. */
  worker?: { postMessage(message: unknown): void; terminate(): unknown };
  onProgress?: (stage: 'load' | 'build' | 'serialize' | 'done', fraction: number) => void;
  wasmUrl?: string;
  label?: string;
}

export interface WorkerFindOptions {
  /** A browser Worker or a node worker_threads Worker running wasm/worker.js. */
  worker?: { postMessage(message: unknown): void; terminate(): unknown };
  onProgress?: (stage: 'load' | 'mesh' | 'find' | 'done', fraction: number) => void;
  /** Where the worker finds snug-tools.wasm (a browser, when the bundler does not place it). */
  wasmUrl?: string;
}

export class Snug {
  static create(options?: CreateOptions): Promise<Snug>;
  constructor(module: object, options?: { threads?: number; ownsModule?: boolean });
  readonly module: any;
  readonly disposed: boolean;
  /** Threads this context's parallel work runs on (1, or CreateOptions.threads). */
  readonly threads: number;
  /** Bytes of wasm linear memory (grows, never shrinks). */
  readonly heapBytes: number;
  /** Shared results, overwritten by the next call of the same kind. */
  readonly hit: RayHit;
  readonly pointResult: PointResult;
  readonly distanceResult: DistanceResult;
  readonly toiResult: ToiResult;
  /** Witness triangle ids of the last overlap() that hit. */
  readonly pair: Uint32Array;

  allocatedBytes(): number;
  setTraversal(traversal: Traversal | number): void;
  lastStats(): QueryStats;

  createMesh(def: MeshDef): Mesh;
  defaultBvhDef(): Required<Omit<BvhDef, 'bvType' | 'splitter' | 'measure'>> & { bvType: BvType; splitter: Splitter; measure: Measure };
  meshFromBlob(blob: Uint8Array | ArrayBuffer | ArrayBufferView, label?: string): Mesh;
  buildMeshInWorker(def: MeshDef, options?: WorkerBuildOptions): Promise<Mesh>;
  /** Mesh.findSurfaces in a worker on the tools module, from any module: the mesh (sent as its blob) or a mesh def. */
  findSurfaces(source: Mesh | Pick<MeshDef, 'positions' | 'indices' | 'weld' | 'weldTolerance'>, def?: SurfaceFindDef,
    options?: WorkerFindOptions): Promise<Surface[]>;

  overlap(a: Mesh, poseA: Pose | null, b: Mesh, poseB: Pose | null): boolean;
  overlapAll(a: Mesh, poseA: Pose | null, b: Mesh, poseB: Pose | null, out?: TriPairs): TriPairs;
  distance(a: Mesh, poseA: Pose | null, b: Mesh, poseB: Pose | null, out?: DistanceResult): DistanceResult;
  within(a: Mesh, poseA: Pose | null, b: Mesh, poseB: Pose | null, maxDistance: number): boolean;
  raycast(mesh: Mesh, pose: Pose | null, origin: Vec3, dir: Vec3, tmax?: number, out?: RayHit): RayHit | null;
  raycastAny(mesh: Mesh, pose: Pose | null, origin: Vec3, dir: Vec3, tmax?: number): boolean;
  raycastAll(mesh: Mesh, pose: Pose | null, origin: Vec3, dir: Vec3, tmax?: number, out?: RayHits): RayHits;
  raycastBatch(mesh: Mesh, pose: Pose | null, origins: ArrayLike<number>, dirs: ArrayLike<number>,
    tmax?: ArrayLike<number> | null, out?: RayHits): RayHits;
  closestPoint(mesh: Mesh, pose: Pose | null, point: Vec3, maxDistance?: number, out?: PointResult): PointResult | null;
  inside(mesh: Mesh, pose: Pose | null, point: Vec3): boolean;

  sweep(moving: Mesh, pose: Pose | null, translation: Vec3, other: Mesh, otherPose: Pose | null, out?: ToiResult): ToiResult;
  sweepRotation(moving: Mesh, pose: Pose | null, pivot: Vec3, axis: Vec3, angle: number, other: Mesh,
    otherPose: Pose | null, out?: ToiResult): ToiResult;
  toi(a: Mesh, motionA: Motion, b: Mesh, motionB: Motion, def?: ToiDef, out?: ToiResult): ToiResult;
  /** Pose of a motion at t in [0, 1] (clamped), e.g. to place a mesh at a result's safeT. */
  motionPoseAt(motion: Motion, t: number, out?: Float32Array): Float32Array;

  createScene(): Scene;
  /**
   * Runs a small placement scene through a session's gestures once, in a scene of its own, so that the browser
   * compiles the code of drags, slides, turns and inserts now instead of at a person's first gesture. Call it after
   * loading, before the first drag.
   */
  warmUp(): { moves: number; reasons: MoveReason[] };
  dispose(): void;
}

export default Snug;

export interface BodyDef {
  mesh: Mesh;
  parent?: Body | null;
  /** Local pose (relative to the parent; the world pose of a root body). */
  pose?: Pose;
  isStatic?: boolean;
  enabled?: boolean;
  layer?: number;
  mask?: number;
  /**
   * The core's 64-bit user data: a non-negative integer (a bigint up to 2^64 - 1). Snapshots and scene files keep
   * it with the body, so it names the body again after Scene.load (an application's id for it).
   */
  key?: number | bigint;
  /** Stays in JS (Body.userData). */
  userData?: unknown;
}

export interface BodyInfo {
  parent: Body | null;
  childCount: number;
  isStatic: boolean;
  enabled: boolean;
  layer: number;
  mask: number;
  /** BodyDef.key (0 when none was given); a bigint only beyond Number.MAX_SAFE_INTEGER. */
  key: number | bigint;
  aabbMin: [number, number, number];
  aabbMax: [number, number, number];
}

export class Body {
  readonly scene: Scene;
  readonly handle: number;
  readonly mesh: Mesh;
  readonly disposed: boolean;
  readonly parent: Body | null;
  /** Is this a live body of a live scene? */
  isValid(): boolean;
  userData: unknown;
  setPose(pose: Pose): void;
  getPose(out?: Float32Array): Float32Array;
  setLocalPose(pose: Pose): void;
  getLocalPose(out?: Float32Array): Float32Array;
  setParent(parent: Body | null, keepWorld?: boolean): void;
  setStatic(isStatic: boolean): void;
  setEnabled(enabled: boolean): void;
  setFilter(layer: number, mask: number): void;
  info(): BodyInfo;
  /** Turn only so that the local direction stays on the world one; null, null removes the constraint. */
  setOrientation(local: Vec3 | null, world: Vec3 | null): void;
  /** The orientation constraint as set (unit vectors), or null when the body has none. */
  orientation(): { local: number[]; world: number[] } | null;
  bindings(): Binding[];
  /** Move onto the offer the smallest way (with what it carries); the other bindings stay where they still hold.
   * Throws, changing nothing, when the labels do not fit, it would close a cycle, or the seat is too small or taken. */
  bind(binding: number, supporter: Body, offer: number): void;
  /** Restore bindings as they stand (from a file): nothing moves; throws, changing nothing, unless each holds. */
  setBindings(list: Binding[]): void;
  unbind(): void;
  /** One pointer event or controller frame of a drag; the result is scene.moveResult unless out is given. */
  move(def: MoveDef, out?: MoveResult): MoveResult;
  pushOut(): { moved: boolean; translation: number[] };
  supporters(): (Body | null)[];
  dependents(): (Body | null)[];
  group(): (Body | null)[];
  drop(): { outcome: DropOutcome; landed: Binding | null; blocker: Body | null };
  dispose(): void;
}

export class SceneHit {
  body: Body | null;
  tri: number;
  t: number;
  readonly point: Float32Array;
  readonly normal: Float32Array;
}

export class Contact {
  group: Body | null;
  hit: boolean;
  approx: Approx;
  t: number;
  bodyA: Body | null;
  bodyB: Body | null;
  feature: Feature;
  triA: number;
  triB: number;
  featureA: number;
  featureB: number;
  readonly point: Float32Array;
  readonly normal: Float32Array;
  distanceBound: number;
}

export interface SceneRayBatch {
  count: number;
  /** 9 words per ray: [body handle (u32, 0 = miss), tri (u32), t, px, py, pz, nx, ny, nz]. */
  raw: Float32Array;
  u32: Uint32Array;
}

export interface StepStats {
  groups: number;
  movedBodies: number;
  broadphasePairs: number;
  finishedPairs: number;
  unfinishedPairs: number;
  bvTests: number;
  primitiveTests: number;
  timeUs: number;
}

export class Scene {
  readonly snug: Snug;
  readonly handle: number;
  readonly disposed: boolean;
  readonly bodies: Body[];
  readonly hit: SceneHit;
  /** Is this a live scene of a live context? */
  isValid(): boolean;
  createBody(def: BodyDef): Body;
  ignorePair(a: Body, b: Body, ignore?: boolean): void;
  pairs(): [Body, Body][];
  queryBox(min: Vec3, max: Vec3): Body[];
  raycast(origin: Vec3, dir: Vec3, tmax?: number, mask?: number, out?: SceneHit): SceneHit | null;
  raycastBatch(origins: ArrayLike<number>, dirs: ArrayLike<number>, tmax?: ArrayLike<number> | null, mask?: number,
    out?: SceneRayBatch): SceneRayBatch;
  stepBegin(): void;
  stepMove(body: Body, target: Pose, relative?: boolean): void;
  /** One Contact per registered group; the objects are reused by the next call. collectPairs: test every
   * candidate pair to its end and keep the colliding ones for stepPairs(). */
  stepDetect(def?: { mode?: StepMode; collectPairs?: boolean }): Contact[];
  /** The colliding body pairs of the last stepDetect, which ran with collectPairs. */
  stepPairs(): [Body, Body][];
  stepCommit(body: Body, t: number): void;
  stepStats(): StepStats;
  setLabels(names: string[], order?: [string | number, string | number][]): void;
  labels(): string[];
  labelFits(binding: string | number, offer: string | number): boolean;
  setPlaceDef(def: PlaceDef): void;
  placeDef(): Required<PlaceDef> & { up: number[] };
  /** The consistency check: [] when every binding holds and nothing interpenetrates. */
  check(): Violation[];
  /** The last Body.move result of this scene (reused). */
  moveResult?: MoveResult;
  insert(def: { mesh: Mesh; ray: { origin: Vec3; dir: Vec3; tmax?: number }; pose?: Pose; isStatic?: boolean;
    layer?: number; mask?: number; key?: number | bigint; userData?: unknown }): { body: Body; binding: Binding };
  delete(body: Body, policy?: 'drop' | 'with-dependents'): Body[];
  snapshot(): SceneSnapshot;
  restore(snapshot: SceneSnapshot): void;
  save(): Uint8Array;
  load(bytes: Uint8Array): { bodies: Body[]; meshes: Mesh[] };
  dispose(): void;
}
