// snug's JavaScript API: a thin, allocation-free layer over the flat C functions of core/include/snug.h.
//
// Shape (see snug.d.ts for the exact types):
//   const snug = await Snug.create();                // loads the wasm module (browser, worker or node)
//   const mesh = snug.createMesh({ positions, indices });
//   const hit = snug.raycast(mesh, pose, origin, dir); // pose: [qx, qy, qz, qw, px, py, pz] or null (identity)
//   mesh.dispose(); snug.dispose();
//
// Why it looks like this (anchors.md §4): bulk data crosses the boundary as one typed-array copy into wasm memory
// (no per-triangle calls as in ammo.js); results land in objects and buffers the API owns and reuses (no per-call
// marshalling or object churn as in Jolt's wrappers); heap views are re-acquired whenever memory grew (no fixed
// heap, no detached views); every C status becomes a SnugError carrying the core's status name and message; a
// disposed object throws instead of touching freed memory; a FinalizationRegistry only warns about objects that
// were never disposed, since freeing from a GC callback would hide ordering bugs.
import createSnugModule from '../build/wasm/snug.mjs';
import {
  LAYOUT as L, CONSTANTS, STATUS_NAMES, BV_TYPES, SPLITTERS, MEASURES, TRAVERSALS, TOI_MODES, ROOT_FINDERS, FEATURES,
  SnugError, pose, enumIndex, words, S, NO_HIT, ERR_INVALID, ERR_STALE, ERR_OOM, ERR_BUFFER_TOO_SMALL,
} from './internal.js';
import { Scene, Body, SceneHit, Contact } from './scene.js';
import {
  DEFAULT_LABELS, REASONS, VIOLATIONS, DROP_OUTCOMES, MoveResult, meshSetSurfaces, meshGetSurfaces, meshFindSurfaces,
} from './place.js';
import { warmUp } from './warm.js';

export {
  STATUS_NAMES, BV_TYPES, SPLITTERS, MEASURES, TRAVERSALS, TOI_MODES, ROOT_FINDERS, FEATURES, SnugError, pose, Scene,
  Body, SceneHit, Contact,
};
export { DEFAULT_LABELS, REASONS, VIOLATIONS, DROP_OUTCOMES, MoveResult };

const POSE = words(L.pose);
const RAY = words(L.ray);
const RAY_HIT = words(L.ray_hit);
const BV_TYPE_COUNT = CONSTANTS.SNUG_BV_TYPE_COUNT;

const leakRegistry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((what) => {
    console.warn(`snug: a ${what} was garbage-collected without dispose(); its wasm memory stays allocated ` +
      'until its Snug context is disposed');
  })
  : null;

function isNode() {
  return typeof process !== 'undefined' && !!(process.versions && process.versions.node) &&
    typeof window === 'undefined';
}

async function instantiate(options) {
  if (options.module) return options.module;
  if (options.threads > 1) return instantiateThreaded(options);
  // The tools module (build/wasm/snug-tools.*) is imported only when asked for: a bundler makes it a chunk of its own
  // that a page without authoring never fetches.
  const factory = options.factory || (options.tools ? (await import('../build/wasm/snug-tools.mjs')).default : createSnugModule);
  const args = {};
  if (options.wasmBinary) args.wasmBinary = options.wasmBinary;
  if (options.locateFile) args.locateFile = options.locateFile;
  if (!args.wasmBinary && !args.locateFile && isNode()) {
    // The module is built for web/worker (no node glue); node gets the bytes handed over instead.
    const fsName = 'node:fs';
    const { readFileSync } = await import(/* @vite-ignore */ fsName);
    args.wasmBinary = readFileSync(options.tools ? new URL('../build/wasm/snug-tools.wasm', import.meta.url)
      : new URL('../build/wasm/snug.wasm', import.meta.url));
  }
  return factory(args);
}

// The threaded module (build/wasm/snug-mt.*) is loaded only when asked for, by URL: bundlers must not pull it into
// the page's chunk, since its pthread workers import the module file itself (Module.mainScriptUrlOrBlob).
const MT_MODULE_FILE = '../build/wasm/snug-mt.mjs';
const MT_WASM_FILE = '../build/wasm/snug-mt.wasm';
const NODE_WORKER_FILE = './node-web-worker.js';

async function instantiateThreaded(options) {
  // Shared wasm memory needs SharedArrayBuffer, which browsers give only to cross-origin isolated pages (COOP +
  // COEP headers). Asking for threads there is a deployment error: it throws rather than quietly running one thread.
  if (typeof SharedArrayBuffer === 'undefined' || globalThis.crossOriginIsolated === false) {
    throw new SnugError(ERR_INVALID, `invalid argument: threads: ${options.threads} needs SharedArrayBuffer, and ` +
      'this page is not cross-origin isolated (serve it with Cross-Origin-Opener-Policy: same-origin and ' +
      'Cross-Origin-Embedder-Policy: require-corp), or use threads: 1');
  }
  const url = String(options.threadedModuleUrl || new URL(/* @vite-ignore */ MT_MODULE_FILE, import.meta.url));
  const args = { snugWorkers: options.threads - 1, mainScriptUrlOrBlob: url, printErr: quietBlockingWarning };
  if (options.wasmBinary) args.wasmBinary = options.wasmBinary;
  if (options.locateFile) args.locateFile = options.locateFile;
  if (isNode()) {
    await (await import(/* @vite-ignore */ NODE_WORKER_FILE)).installNodeWorker();
    if (!args.wasmBinary && !args.locateFile) {
      const fsName = 'node:fs';
      const { readFileSync } = await import(/* @vite-ignore */ fsName);
      args.wasmBinary = readFileSync(new URL(/* @vite-ignore */ MT_WASM_FILE, import.meta.url));
    }
  }
  const factory = options.factory || (await import(/* @vite-ignore */ url)).default;
  return factory(args);
}

// The glue warns once when the main thread blocks on a lock or a join. Here it waits only for the pool's own
// workers, which never wait for it (the core's tasks neither allocate nor call into JS), and it claims work itself
// while it waits; the rest of the module's messages go to the console as usual.
function quietBlockingWarning(text) {
  if (!/^Blocking on the main thread is very dangerous/.test(text)) console.warn(text);
}

let workerJobs = 0;

async function startWorker() {
  // The literal form is what bundlers (Vite) recognise and emit as a worker chunk.
  // In node, worker_threads even when a Worker exists (the threaded module's shim installs one for its pthreads).
  if (typeof Worker === 'function' && !isNode()) return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  const wt = 'node:worker_threads', file = WORKER_FILE;
  const { Worker: NodeWorker } = await import(/* @vite-ignore */ wt);
  return new NodeWorker(new URL(/* @vite-ignore */ file, import.meta.url));
}
const WORKER_FILE = './worker.js';

// Message listener for a browser Worker or a node worker_threads Worker; returns the unsubscribe function.
function listen(worker, onMessage, onError) {
  if (typeof worker.addEventListener === 'function') {
    const m = (e) => onMessage(e.data);
    const err = (e) => onError(new Error(`snug worker failed: ${e.message || e}`));
    worker.addEventListener('message', m);
    worker.addEventListener('error', err);
    return () => { worker.removeEventListener('message', m); worker.removeEventListener('error', err); };
  }
  const err = (e) => onError(e);
  worker.on('message', onMessage);
  worker.on('error', err);
  return () => { worker.off('message', onMessage); worker.off('error', err); };
}

const MAX_THREADS = CONSTANTS.SNUG_TASK_POOL_MAX;

// Terminate every worker of a threaded module (after its pool is destroyed: none runs snug code then).
function stopWorkers(module) {
  if (module.PThread) module.PThread.terminateAllThreads();
}

/** Reusable result of a single ray query. `point` and `normal` are world space. */
export class RayHit {
  constructor() {
    this.tri = NO_HIT;
    this.t = Infinity;
    this.point = new Float32Array(3);
    this.normal = new Float32Array(3);
  }
}

/** Reusable result of a closest-point query. */
export class PointResult {
  constructor() {
    this.distance = Infinity;
    this.tri = NO_HIT;
    this.point = new Float32Array(3);
  }
}

/** Reusable result of a mesh-mesh distance query. */
export class DistanceResult {
  constructor() {
    this.distance = Infinity;
    this.triA = NO_HIT;
    this.triB = NO_HIT;
    this.pointA = new Float32Array(3);
    this.pointB = new Float32Array(3);
  }
}

/** Reusable result of a time-of-impact query or sweep. `t` is the blocked fraction of the motion, `safeT` <= t a
 * fraction at which the meshes are still apart by the tolerance; point and normal (from B towards A) are world. */
export class ToiResult {
  constructor() {
    this.hit = false;
    this.t = 1;
    this.safeT = 1;
    this.feature = 'none';
    this.triA = NO_HIT;
    this.triB = NO_HIT;
    this.featureA = -1;
    this.featureB = -1;
    this.point = new Float32Array(3);
    this.normal = new Float32Array(3);
  }
}

/** Results of a batched raycast: one snug_ray_hit per ray in the C layout [tri, t, px, py, pz, nx, ny, nz]. */
export class RayHits {
  constructor(capacity) {
    this.capacity = capacity;
    this.count = 0;
    this.f32 = new Float32Array(capacity * RAY_HIT.size);
    this.u32 = new Uint32Array(this.f32.buffer);
  }
  hit(i) { return this.u32[RAY_HIT.size * i + RAY_HIT.tri] !== NO_HIT; }
  tri(i) { return this.u32[RAY_HIT.size * i + RAY_HIT.tri]; }
  t(i) { return this.hit(i) ? this.f32[RAY_HIT.size * i + RAY_HIT.t] : Infinity; }
  point(i, out = new Float32Array(3)) { return this._vec3(RAY_HIT.size * i + RAY_HIT.point, out); }
  normal(i, out = new Float32Array(3)) { return this._vec3(RAY_HIT.size * i + RAY_HIT.normal, out); }
  _vec3(at, out) { out.set(this.f32.subarray(at, at + 3)); return out; }
}

/** Intersecting triangle pairs: pairs[2k] is the triangle id in mesh A, pairs[2k + 1] in mesh B. */
export class TriPairs {
  constructor(capacity = 256) {
    this.pairs = new Uint32Array(capacity * 2);
    this.count = 0;
    this.total = 0;
  }
}

/** A triangle mesh with its hierarchy, owned by one Snug context. */
export class Mesh {
  constructor(snug, handle, label) {
    this.snug = snug;
    this.handle = handle;
    this.label = label;
    if (leakRegistry) leakRegistry.register(this, `Mesh${label ? ` "${label}"` : ''}`, this);
  }
  get disposed() { return this.handle === 0; }
  /** Is this a live mesh of a live context? (false once it or its context is disposed) */
  isValid() { return this.handle !== 0 && this.snug._isValid('snug_mesh_is_valid', this.handle); }
  /** Counts, bounds, scale, tolerance, hierarchy size. Allocates a fresh object (not a hot-path call). */
  info() { return this.snug._meshInfo(this); }
  quality() { return this.snug._meshQuality(this); }
  /** Creation ids of degenerate triangles. */
  degenerate() { return this.snug._meshDegenerate(this); }
  /** Replace every vertex position (same count and order as at creation) and refit the hierarchy. */
  setPositions(positions) { this.snug._meshSetPositions(this, positions); }
  /** Versioned, checksummed blob of mesh + hierarchy (load it with snug.meshFromBlob, also in another module). */
  serialize() { return this.snug._meshSerialize(this); }
  /**
   * Placement surfaces in the mesh's frame: [{ kind: 'offer' | 'binding', label (a DEFAULT_LABELS name or an index),
   * normal: [x, y, z], polygon: [[x, y, z], ...] }] (convex, counter-clockwise seen from the normal's tip).
   */
  setSurfaces(list) { meshSetSurfaces(this.snug, this, list); }
  surfaces() { return meshGetSurfaces(this.snug, this); }
  /**
   * Offer and binding surfaces found from the triangles alone (snug_mesh_find_surfaces), as plain objects of the
   * placement format: { kind: 'offer'|'binding', label, normal, polygon }. Does not set them on the mesh.
   * def (all optional): { up, forward, maxTilt, flatness, minArea, minWidth, wallFill, clearance, contact, bigSize }.
   * Only on the tools module (Snug.create({ tools: true })); elsewhere it throws, and snug.findSurfaces(mesh, def)
   * finds them in a worker.
   */
  findSurfaces(def) { return meshFindSurfaces(this.snug, this, def); }
  dispose() {
    if (this.handle === 0) return;
    const s = this.snug;
    if (!s.disposed) s._check(s._m._snug_mesh_destroy(s._ctx, this.handle));
    this.handle = 0;
    s._meshes.delete(this);
    if (leakRegistry) leakRegistry.unregister(this);
  }
}

/** One snug context (allocator, handles, scratch) on a wasm module instance. */
export class Snug {
  /**
   * Load the module (or reuse options.module) and create a context.
   * options: { wasmBinary?, locateFile?, factory?, module?, threads?, threadedModuleUrl?, tools? }.
   * threads (default 1): total threads, the caller's included; 2 or more load the threaded module (snug-mt) and run
   * the context's parallel work on a pool of threads - 1 pthreads.
   * tools: load the tools module (snug-tools: one thread, with the surface finder and the research builder variants)
   * instead of the plain one, for authoring scripts and comparisons.
   */
  static async create(options = {}) {
    const threads = options.threads ?? 1;
    if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
      throw new SnugError(ERR_INVALID, `invalid argument: threads must be an integer from 1 to ${MAX_THREADS}, got ${threads}`);
    }
    if (options.tools && threads > 1) {
      throw new SnugError(ERR_INVALID, `invalid argument: the tools module runs one thread (tools: true with threads: ${threads})`);
    }
    const module = await instantiate({ ...options, threads });
    try {
      return new Snug(module, { threads, ownsModule: !options.module });
    } catch (e) {
      if (threads > 1 && !options.module) stopWorkers(module);
      throw e;
    }
  }

  constructor(module, { threads = 1, ownsModule = false } = {}) {
    this.module = module;
    this._m = module;
    this._pool = 0;
    this._ownsModule = ownsModule;
    // The module's WebAssembly.Memory: the threaded glue exports it as wasmMemory, the plain glue keeps it among the
    // instance's (minified) exports. Views are always taken from its buffer (see _views).
    this._memory = module.wasmMemory || Object.values(module.asm).find((e) => e instanceof WebAssembly.Memory);
    this._shared = typeof SharedArrayBuffer === 'function' && this._memory.buffer instanceof SharedArrayBuffer;
    if (threads > 1) {
      if (typeof module._snug_task_pool_create !== 'function') {
        throw new SnugError(ERR_INVALID, `invalid argument: threads: ${threads} needs the threaded module (snug-mt)`);
      }
      this._pool = module._snug_task_pool_create(threads);
      if (!this._pool) {
        throw new SnugError(ERR_OOM, `could not start ${threads - 1} pthreads: the module has no free pre-started ` +
          'worker (one threaded module serves one threaded context) or is out of memory');
      }
      this._ctx = module._snug_task_pool_ctx_create(this._pool);
    } else {
      this._ctx = module._snug_ctx_create(0);
    }
    if (!this._ctx) {
      this._destroyPool();
      throw new SnugError(ERR_OOM, 'out of memory: could not create a snug context');
    }
    this._threads = threads;
    this._scratch = module._malloc(S.total);
    if (!this._scratch) {
      module._snug_ctx_destroy(this._ctx);
      this._destroyPool();
      throw new SnugError(ERR_OOM, 'out of memory: could not allocate the API scratch block');
    }
    this._stage = 0;          // growable staging buffer for bulk data
    this._stageBytes = 0;
    this._buf = null;
    this._u8 = new Uint8Array(0);
    this._views();
    this._meshes = new Set();
    this._scenes = new Set();
    this.hit = new RayHit();           // shared results, overwritten by the next call of the same kind
    this.pointResult = new PointResult();
    this.distanceResult = new DistanceResult();
    this.toiResult = new ToiResult();
    this.pair = new Uint32Array(2);    // witness of the last overlap() that hit
    if (leakRegistry) leakRegistry.register(this, 'Snug context', this);
  }

  get disposed() { return this._ctx === 0; }
  /** Threads this context's parallel work runs on (1, or the threads option). */
  get threads() { return this._threads; }

  // Joins the pool's pthreads; their workers stay loaded in the module until stopWorkers.
  _destroyPool() {
    if (this._pool) this._m._snug_task_pool_destroy(this._pool);
    this._pool = 0;
  }

  // Leak warnings for objects of this context that own core memory (scenes use it too).
  _track(obj, what) { if (leakRegistry) leakRegistry.register(obj, what, obj); }
  _untrack(obj) { if (leakRegistry) leakRegistry.unregister(obj); }

  /**
   * The one way views are refreshed, before inputs are written and after every C call (any call, also one of
   * another context on this module, may grow memory). Growth detaches a plain memory's buffer, so an empty view
   * says it happened; a shared one is never detached but replaced by a longer one, so there the Memory is asked
   * (slower; the threaded module only). Views always come from the Memory itself: the glue's HEAP views follow a
   * shared memory's growth only on the thread that grew it.
   */
  _views() {
    if (this._shared ? this._memory.buffer === this._buf : this._u8.length !== 0) return;
    const buf = this._memory.buffer;
    this._buf = buf;
    this._u8 = new Uint8Array(buf);
    this._f32 = new Float32Array(buf);
    this._u32 = new Uint32Array(buf);
    this._f64 = new Float64Array(buf);
  }

  _live() {
    if (this._ctx === 0) throw new SnugError(ERR_STALE, 'stale handle: this Snug context was disposed');
  }

  // Every C call may have grown memory (scratch arenas, meshes), so views are refreshed before results are read.
  _check(status) {
    this._views();
    if (status === 0) return;
    const m = this._m;
    throw new SnugError(status, m.UTF8ToString(m._snug_ctx_last_error(this._ctx)));
  }

  _mesh(mesh) {
    if (this._ctx === 0) this._live();
    if (!(mesh instanceof Mesh)) throw new SnugError(ERR_INVALID, 'invalid argument: expected a snug Mesh');
    if (mesh.handle === 0) throw new SnugError(ERR_STALE, 'stale handle: this mesh was disposed');
    if (mesh.snug !== this) throw new SnugError(ERR_STALE, 'stale handle: this mesh belongs to another Snug context');
    return mesh.handle;
  }

  // Throw a SnugError the JS layer found (bad arguments before any C call).
  _fail(code, message) { throw new SnugError(code, message); }

  _isValid(name, ...handles) { return this._ctx !== 0 && this._fn(name)(this._ctx, ...handles) !== 0; }

  _fn(name) {
    const f = this._m[`_${name}`];
    if (typeof f !== 'function') throw new SnugError(ERR_INVALID, `${name} is not in this build of the wasm module`);
    return f;
  }

  /** Staging buffer of at least `bytes` in wasm memory; its contents are not kept. */
  _stageReserve(bytes) {
    if (bytes <= this._stageBytes) return this._stage;
    const m = this._m;
    const size = Math.max(bytes, this._stageBytes * 2, 4096);
    // Nothing above 2 GB: the views are indexed with signed addresses, and near 4 GB emmalloc (the plain module's
    // allocator) lets the size wrap and returns a block it does not have (the core refuses the same, base/ctx.c).
    const p = size <= 0x7fffffff ? m._malloc(size) : 0;
    if (!p) throw new SnugError(ERR_OOM, `out of memory: could not stage ${bytes} bytes in wasm memory`);
    if (this._stage) m._free(this._stage);
    this._stage = p;
    this._stageBytes = size;
    return p;
  }

  // Write a pose (array-like of 7, or null for identity) at byte address `at`.
  _pose(at, p) {
    const f = this._f32;
    const q = (at >> 2) + POSE.q, t = (at >> 2) + POSE.p;
    if (p == null) {
      f[q] = 0; f[q + 1] = 0; f[q + 2] = 0; f[q + 3] = 1; f[t] = 0; f[t + 1] = 0; f[t + 2] = 0;
    } else {
      f[q] = p[0]; f[q + 1] = p[1]; f[q + 2] = p[2]; f[q + 3] = p[3]; f[t] = p[4]; f[t + 1] = p[5]; f[t + 2] = p[6];
    }
  }

  // Read the pose at byte address `at` into out (Float32Array of 7).
  _readPose(at, out) {
    const f = this._f32, q = (at >> 2) + POSE.q, t = (at >> 2) + POSE.p;
    out[0] = f[q]; out[1] = f[q + 1]; out[2] = f[q + 2]; out[3] = f[q + 3];
    out[4] = f[t]; out[5] = f[t + 1]; out[6] = f[t + 2];
    return out;
  }

  // Write a vec3 given as array-like or {x, y, z}.
  _vec3(i, v) {
    const f = this._f32;
    if (v.x !== undefined) { f[i] = v.x; f[i + 1] = v.y; f[i + 2] = v.z; } else { f[i] = v[0]; f[i + 1] = v[1]; f[i + 2] = v[2]; }
  }

  /** Bytes allocated by the core through this context. */
  allocatedBytes() {
    this._live();
    return this._m._snug_ctx_allocated_bytes(this._ctx) >>> 0;
  }

  /** Bytes of wasm linear memory (grows, never shrinks). */
  get heapBytes() { return this._memory.buffer.byteLength; }

  setTraversal(traversal) {
    this._live();
    this._check(this._m._snug_ctx_set_traversal(this._ctx, enumIndex(TRAVERSALS, traversal, 'traversal')));
  }

  /** Cost counters of the last query: { bvTests: Float64Array(36) row-major [typeA][typeB], primitiveTests, nodesVisited }. */
  lastStats() {
    this._live();
    const p = this._m._snug_ctx_last_stats(this._ctx);
    this._views();
    const u = this._u32, Q = L.query_stats;
    const word = (at) => u[at >> 2] + u[(at >> 2) + 1] * 4294967296;
    const bvTests = new Float64Array(BV_TYPE_COUNT * BV_TYPE_COUNT);
    for (let i = 0; i < bvTests.length; i++) bvTests[i] = word(p + Q.bv_tests + 8 * i);
    return { bvTests, primitiveTests: word(p + Q.primitive_tests), nodesVisited: word(p + Q.nodes_visited) };
  }

  // ------------------------------------------------------------------------------------------------ meshes

  /**
   * Create a mesh. def: { positions: Float32Array|number[] (3 per vertex), indices?: Uint32Array|Uint16Array|number[]
   * (3 per triangle; omitted = every 3 vertices form a triangle), weld?, weldTolerance?, bvh?: {...}, label? }.
   * One copy of each array into wasm memory, no per-triangle calls.
   */
  createMesh(def) {
    this._live();
    if (!def || def.positions == null) throw new SnugError(ERR_INVALID, 'invalid argument: createMesh needs positions');
    const positions = def.positions;
    const indices = def.indices == null ? null : def.indices;
    if (positions.length % 3 !== 0) {
      throw new SnugError(ERR_INVALID, `invalid argument: positions length ${positions.length} is not a multiple of 3`);
    }
    if (indices && indices.length % 3 !== 0) {
      throw new SnugError(ERR_INVALID, `invalid argument: indices length ${indices.length} is not a multiple of 3`);
    }
    const m = this._m;
    const vertexCount = positions.length / 3;
    const triCount = indices ? indices.length / 3 : vertexCount / 3;
    if (!indices && vertexCount % 3 !== 0) {
      throw new SnugError(ERR_INVALID, `invalid argument: ${vertexCount} unindexed vertices do not form whole triangles`);
    }
    const posBytes = positions.length * 4;
    const stage = this._stageReserve(posBytes + (indices ? indices.length * 4 : 0));
    this._views();
    this._f32.set(positions, stage >> 2);
    const idxAt = stage + posBytes;
    if (indices) this._u32.set(indices, idxAt >> 2);
    const d = this._scratch + S.def;
    m._snug_default_mesh_def(d);
    this._views();
    const u = this._u32;
    u[(d + L.mesh_def.positions) >> 2] = stage;
    u[(d + L.mesh_def.vertex_count) >> 2] = vertexCount;
    u[(d + L.mesh_def.indices) >> 2] = indices ? idxAt : 0;
    u[(d + L.mesh_def.triangle_count) >> 2] = triCount;
    if (def.weld !== undefined) this._u8[d + L.mesh_def.weld] = def.weld ? 1 : 0;
    if (def.weldTolerance !== undefined) this._f32[(d + L.mesh_def.weld_tolerance) >> 2] = def.weldTolerance;
    if (def.bvh) this._writeBvhDef(d + L.mesh_def.bvh, def.bvh);
    this._check(m._snug_mesh_create(this._ctx, d, this._scratch + S.handle));
    return this._adopt(this._u32[(this._scratch + S.handle) >> 2], def.label);
  }

  _adopt(handle, label) {
    const mesh = new Mesh(this, handle, label);
    this._meshes.add(mesh);
    return mesh;
  }

  _writeBvhDef(at, b) {
    const B = L.bvh_def;
    const u32 = (off, v) => { if (v !== undefined) this._u32[(at + off) >> 2] = v >>> 0; };
    u32(B.bv_type, enumIndex(BV_TYPES, b.bvType, 'bvType'));
    u32(B.splitter, enumIndex(SPLITTERS, b.splitter, 'splitter'));
    u32(B.branching, b.branching);
    u32(B.max_branching, b.maxBranching);
    if (b.alpha !== undefined) this._f32[(at + B.alpha) >> 2] = b.alpha;
    u32(B.small_node, b.smallNode);
    u32(B.leaf_size, b.leafSize);
    u32(B.max_depth, b.maxDepth);
    u32(B.measure, enumIndex(MEASURES, b.measure, 'measure'));
    u32(B.sah_bins, b.sahBins);
    u32(B.bb_max_faces, b.bbMaxFaces);
    if (b.bottomUp !== undefined) this._u8[at + B.bottom_up] = b.bottomUp ? 1 : 0;
    if (b.obbRefine !== undefined) this._u8[at + B.obb_refine] = b.obbRefine ? 1 : 0;
    if (b.hausdorff !== undefined) this._u8[at + B.hausdorff] = b.hausdorff ? 1 : 0;
  }

  /** The core's default hierarchy settings, in the JS spelling createMesh accepts. */
  defaultBvhDef() {
    this._live();
    const at = this._scratch + S.def;
    this._m._snug_default_bvh_def(at);
    this._views();
    const B = L.bvh_def;
    const i = (off) => this._u32[(at + off) >> 2];
    return {
      bvType: BV_TYPES[i(B.bv_type)], splitter: SPLITTERS[i(B.splitter)], branching: i(B.branching),
      maxBranching: i(B.max_branching), alpha: this._f32[(at + B.alpha) >> 2], smallNode: i(B.small_node),
      leafSize: i(B.leaf_size), maxDepth: i(B.max_depth), measure: MEASURES[i(B.measure)], sahBins: i(B.sah_bins),
      bbMaxFaces: i(B.bb_max_faces), bottomUp: !!this._u8[at + B.bottom_up], obbRefine: !!this._u8[at + B.obb_refine],
      hausdorff: !!this._u8[at + B.hausdorff],
    };
  }

  /**
   * Build a mesh's hierarchy in a worker (wasm/worker.js) and load the returned blob here: the main thread only
   * pays for the deserialization. options: { worker?: a Worker to reuse (otherwise one is started and stopped),
   * onProgress?(stage, fraction), wasmUrl?: where the worker finds snug.wasm (browser), label? }.
   */
  async buildMeshInWorker(def, options = {}) {
    this._live();
    const reply = await this._workerJob({ type: 'build', positions: def.positions, indices: def.indices ?? null,
      def: { weld: def.weld, weldTolerance: def.weldTolerance, bvh: def.bvh } }, [], options);
    return this.meshFromBlob(reply.blob, options.label ?? def.label);
  }

  /**
   * Surfaces found from a mesh's triangles (Mesh.findSurfaces' result and def), in a worker (wasm/worker.js) on the
   * tools module: the finder is left out of the plain and threaded modules to keep them small. source: a Mesh of
   * this context (its blob goes to the worker: the surfaces are found on the very same mesh) or a mesh def
   * { positions, indices?, weld?, weldTolerance? }. options: { worker?, onProgress?, wasmUrl?: where the worker finds
   * snug-tools.wasm (browser, when the bundler does not) }.
   */
  async findSurfaces(source, def = {}, options = {}) {
    this._live();
    let job, transfer = [];
    if (source instanceof Mesh) {
      const blob = this._meshSerialize(source);
      job = { blob };
      transfer = [blob.buffer];
    } else if (source && source.positions != null) {
      job = { positions: source.positions, indices: source.indices ?? null,
        def: { weld: source.weld, weldTolerance: source.weldTolerance } };
    } else {
      throw new SnugError(ERR_INVALID, 'invalid argument: findSurfaces needs a Mesh or a mesh def { positions, indices }');
    }
    return (await this._workerJob({ type: 'find', ...job, find: def }, transfer, options)).surfaces;
  }

  // One job in a worker (options.worker, or one started for it and stopped after): its progress messages go to
  // options.onProgress, its 'done' message is the result, its error a SnugError with the core's status.
  async _workerJob(message, transfer, options) {
    const own = !options.worker;
    const worker = options.worker || await startWorker();
    const id = ++workerJobs;
    try {
      return await new Promise((resolve, reject) => {
        const off = listen(worker, (msg) => {
          if (!msg || msg.id !== id) return;
          if (msg.type === 'progress') { if (options.onProgress) options.onProgress(msg.stage, msg.fraction); return; }
          off();
          if (msg.type === 'done') resolve(msg);
          else reject(msg.code >= 0 ? new SnugError(msg.code, msg.message) : new Error(msg.message));
        }, reject);
        worker.postMessage({ ...message, id, wasmUrl: options.wasmUrl }, transfer);
      });
    } finally {
      if (own) worker.terminate();
    }
  }

  /** Load a blob made by Mesh.serialize() (here, in a worker or in another process) without rebuilding. */
  meshFromBlob(blob, label) {
    this._live();
    const bytes = blob instanceof Uint8Array ? blob : new Uint8Array(blob.buffer || blob, blob.byteOffset || 0, blob.byteLength);
    const fn = this._fn('snug_mesh_deserialize');
    const stage = this._stageReserve(bytes.length);
    this._views();
    this._u8.set(bytes, stage);
    this._check(fn(this._ctx, stage, bytes.length, this._scratch + S.handle));
    this._views();
    return this._adopt(this._u32[(this._scratch + S.handle) >> 2], label);
  }

  _meshSerialize(mesh) {
    const h = this._mesh(mesh);
    const fn = this._fn('snug_mesh_serialize');
    const sizeAt = this._scratch + S.size;
    this._check(fn(this._ctx, h, 0, 0, sizeAt));
    this._views();
    const size = this._u32[sizeAt >> 2];
    const stage = this._stageReserve(size);
    this._check(fn(this._ctx, h, stage, size, sizeAt));
    this._views();
    return this._u8.slice(stage, stage + this._u32[sizeAt >> 2]);
  }

  _meshInfo(mesh) {
    const h = this._mesh(mesh);
    const at = this._scratch + S.info;
    this._check(this._m._snug_mesh_get_info(this._ctx, h, at));
    this._views();
    const I = L.mesh_info;
    const u = (off) => this._u32[(at + off) >> 2];
    const v3 = (off) => Array.from(this._f32.subarray((at + off) >> 2, ((at + off) >> 2) + 3));
    return {
      vertexCount: u(I.vertex_count), triangleCount: u(I.triangle_count), degenerateCount: u(I.degenerate_count),
      edgeCount: u(I.edge_count), boundaryEdgeCount: u(I.boundary_edge_count),
      nonmanifoldEdgeCount: u(I.nonmanifold_edge_count), nodeCount: u(I.node_count), leafCount: u(I.leaf_count),
      depth: u(I.depth), bvType: BV_TYPES[u(I.bv_type)], aabbMin: v3(I.aabb_min), aabbMax: v3(I.aabb_max),
      scale: this._f32[(at + I.scale) >> 2], tolerance: this._f32[(at + I.tolerance) >> 2],
      closed: !!this._u8[at + I.closed], memoryBytes: u(I.memory_bytes),
    };
  }

  _meshQuality(mesh) {
    const h = this._mesh(mesh);
    const at = this._scratch + S.quality;
    this._check(this._m._snug_mesh_get_quality(this._ctx, h, at));
    this._views();
    const Q = L.bvh_quality;
    const d = (off) => this._f64[(at + off) >> 3];
    const nodesPerType = {};
    for (let t = 0; t < BV_TYPE_COUNT; t++) nodesPerType[BV_TYPES[t]] = this._u32[((at + Q.nodes_per_type) >> 2) + t];
    return {
      volumeSum: d(Q.volume_sum), surfaceSum: d(Q.surface_sum), diameterSum: d(Q.diameter_sum),
      hausdorffMax: d(Q.hausdorff_max), sahCost: d(Q.sah_cost), nodesPerType,
    };
  }

  _meshDegenerate(mesh) {
    const h = this._mesh(mesh);
    const totalAt = this._scratch + S.u32;
    const status = this._m._snug_mesh_get_degenerate(this._ctx, h, 0, 0, totalAt);
    if (status !== ERR_BUFFER_TOO_SMALL /* still reports the total */) this._check(status);
    this._views();
    const total = this._u32[totalAt >> 2];
    if (total === 0) return new Uint32Array(0);
    const stage = this._stageReserve(total * 4);
    this._check(this._m._snug_mesh_get_degenerate(this._ctx, h, stage, total, totalAt));
    this._views();
    return this._u32.slice(stage >> 2, (stage >> 2) + total);
  }

  _meshSetPositions(mesh, positions) {
    const h = this._mesh(mesh);
    if (positions.length % 3 !== 0) {
      throw new SnugError(ERR_INVALID, `invalid argument: positions length ${positions.length} is not a multiple of 3`);
    }
    const stage = this._stageReserve(positions.length * 4);
    this._views();
    this._f32.set(positions, stage >> 2);
    this._check(this._m._snug_mesh_set_positions(this._ctx, h, stage, positions.length / 3));
  }

  // ------------------------------------------------------------------------------------------------ queries
  // Poses are array-likes [qx, qy, qz, qw, px, py, pz] (or null = identity); vectors are array-likes or {x,y,z}.

  /** Do the meshes intersect (touching within tolerance counts)? On a hit, this.pair holds the witness ids. */
  overlap(a, poseA, b, poseB) {
    const ha = a?.snug === this && a.handle !== 0 ? a.handle : this._mesh(a);
    const hb = b?.snug === this && b.handle !== 0 ? b.handle : this._mesh(b);
    this._views();
    const s = this._scratch;
    this._pose(s + S.poseA, poseA);
    this._pose(s + S.poseB, poseB);
    this._check(this._m._snug_mesh_overlap(this._ctx, ha, s + S.poseA, hb, s + S.poseB, s + S.bool, s + S.pair));
    this._views();
    const hit = this._u8[s + S.bool] !== 0;
    if (hit) { this.pair[0] = this._u32[(s + S.pair) >> 2]; this.pair[1] = this._u32[((s + S.pair) >> 2) + 1]; }
    return hit;
  }

  /** Every intersecting triangle pair into out (a TriPairs, grown when too small); returns out. */
  overlapAll(a, poseA, b, poseB, out = new TriPairs()) {
    const ha = this._mesh(a), hb = this._mesh(b);
    const fn = this._fn('snug_mesh_overlap_all');
    const s = this._scratch;
    const { stage, total } = this._listCall((at, cap, totalAt) => {
      this._pose(s + S.poseA, poseA);
      this._pose(s + S.poseB, poseB);
      return fn(this._ctx, ha, s + S.poseA, hb, s + S.poseB, at, cap, totalAt);
    }, out.pairs.length >> 1, L.tri_pair.size);
    if (out.pairs.length < 2 * total) out.pairs = new Uint32Array(2 * total);
    out.total = total;
    out.count = total;
    out.pairs.set(this._u32.subarray(stage >> 2, (stage >> 2) + total * 2));
    return out;
  }

  /**
   * Run a C call that writes min(capacity, total) items and always reports the total: staged in wasm memory,
   * retried once with room for everything when the first capacity was too small. Returns { stage, total }.
   */
  _listCall(call, capacity, itemBytes) {
    let cap = Math.max(1, capacity);
    for (;;) {
      const stage = this._stageReserve(cap * itemBytes);
      this._views();
      const status = call(stage, cap, this._scratch + S.u32);
      this._views();
      const total = this._u32[(this._scratch + S.u32) >> 2];
      if (status === ERR_BUFFER_TOO_SMALL || (status === 0 && total > cap)) { cap = total; continue; }
      this._check(status);
      return { stage, total };
    }
  }

  /** Distance and closest points (world space) into out (default: this.distanceResult). */
  distance(a, poseA, b, poseB, out = this.distanceResult) {
    const ha = this._mesh(a), hb = this._mesh(b);
    const s = this._scratch;
    this._views();
    this._pose(s + S.poseA, poseA);
    this._pose(s + S.poseB, poseB);
    this._check(this._fn('snug_mesh_distance')(this._ctx, ha, s + S.poseA, hb, s + S.poseB, s + S.dist));
    this._views();
    const D = L.distance_result, at = s + S.dist, f = this._f32, u = this._u32;
    out.distance = f[(at + D.distance) >> 2];
    out.pointA.set(f.subarray((at + D.point_a) >> 2, ((at + D.point_a) >> 2) + 3));
    out.pointB.set(f.subarray((at + D.point_b) >> 2, ((at + D.point_b) >> 2) + 3));
    out.triA = u[(at + D.tri_a) >> 2];
    out.triB = u[(at + D.tri_b) >> 2];
    return out;
  }

  /** Are the meshes closer than maxDistance? */
  within(a, poseA, b, poseB, maxDistance) {
    const ha = this._mesh(a), hb = this._mesh(b);
    const s = this._scratch;
    this._views();
    this._pose(s + S.poseA, poseA);
    this._pose(s + S.poseB, poseB);
    this._check(this._fn('snug_mesh_within')(this._ctx, ha, s + S.poseA, hb, s + S.poseB, maxDistance, s + S.bool));
    this._views();
    return this._u8[s + S.bool] !== 0;
  }

  _ray(origin, dir, tmax) {
    const r = (this._scratch + S.ray) >> 2;
    this._vec3(r + RAY.origin, origin);
    this._vec3(r + RAY.dir, dir);
    this._f32[r + RAY.tmax] = tmax === undefined ? Infinity : tmax;
  }

  /** Closest hit along origin + t * dir, t <= tmax: returns out (default this.hit) or null when nothing is hit. */
  raycast(mesh, meshPose, origin, dir, tmax, out = this.hit) {
    // The hot path of single queries, written out: the full checks of _mesh() run only when the cheap ones fail
    // (disposal zeroes handles), and the pose, ray and hit are read and written in place.
    const h = mesh?.snug === this && mesh.handle !== 0 ? mesh.handle : this._mesh(mesh);
    this._views();
    let f = this._f32;
    const s = this._scratch, q = ((s + S.poseA) >> 2) + POSE.q, t = ((s + S.poseA) >> 2) + POSE.p;
    if (meshPose == null) {
      f[q] = 0; f[q + 1] = 0; f[q + 2] = 0; f[q + 3] = 1; f[t] = 0; f[t + 1] = 0; f[t + 2] = 0;
    } else {
      f[q] = meshPose[0]; f[q + 1] = meshPose[1]; f[q + 2] = meshPose[2]; f[q + 3] = meshPose[3];
      f[t] = meshPose[4]; f[t + 1] = meshPose[5]; f[t + 2] = meshPose[6];
    }
    const r = (s + S.ray) >> 2, o = r + RAY.origin, d = r + RAY.dir;
    const ox = origin[0];
    if (ox !== undefined) { f[o] = ox; f[o + 1] = origin[1]; f[o + 2] = origin[2]; } else { f[o] = origin.x; f[o + 1] = origin.y; f[o + 2] = origin.z; }
    const dx = dir[0];
    if (dx !== undefined) { f[d] = dx; f[d + 1] = dir[1]; f[d + 2] = dir[2]; } else { f[d] = dir.x; f[d + 1] = dir.y; f[d + 2] = dir.z; }
    f[r + RAY.tmax] = tmax === undefined ? Infinity : tmax;
    this._check(this._m._snug_mesh_raycast(this._ctx, h, s + S.poseA, s + S.ray, s + S.hit));
    f = this._f32;
    const k = (s + S.hit) >> 2, tri = this._u32[k + RAY_HIT.tri];
    if (tri === NO_HIT) return null;
    out.tri = tri; out.t = f[k + RAY_HIT.t];
    const p = out.point, n = out.normal, kp = k + RAY_HIT.point, kn = k + RAY_HIT.normal;
    p[0] = f[kp]; p[1] = f[kp + 1]; p[2] = f[kp + 2];
    n[0] = f[kn]; n[1] = f[kn + 1]; n[2] = f[kn + 2];
    return out;
  }

  /** Is anything hit within tmax? (early exit) */
  raycastAny(mesh, meshPose, origin, dir, tmax) {
    const h = this._mesh(mesh);
    this._views();
    const s = this._scratch;
    this._pose(s + S.poseA, meshPose);
    this._ray(origin, dir, tmax);
    this._check(this._fn('snug_mesh_raycast_any')(this._ctx, h, s + S.poseA, s + S.ray, s + S.bool));
    return this._u8[s + S.bool] !== 0;
  }

  /** Every hit sorted by t into out (a RayHits, grown when too small); returns out with out.count set. */
  raycastAll(mesh, meshPose, origin, dir, tmax, out = new RayHits(16)) {
    const h = this._mesh(mesh);
    const fn = this._fn('snug_mesh_raycast_all');
    const s = this._scratch;
    const { stage, total } = this._listCall((at, cap, totalAt) => {
      this._pose(s + S.poseA, meshPose);
      this._ray(origin, dir, tmax);
      return fn(this._ctx, h, s + S.poseA, s + S.ray, at, cap, totalAt);
    }, out.capacity, L.ray_hit.size);
    if (out.capacity < total) {
      const grown = new RayHits(total);
      out.capacity = grown.capacity; out.f32 = grown.f32; out.u32 = grown.u32;
    }
    out.count = total;
    out.f32.set(this._f32.subarray(stage >> 2, (stage >> 2) + total * RAY_HIT.size));
    return out;
  }

  /**
   * N rays in flat arrays (origins and dirs 3N floats, tmax N floats or null for rays) into out (RayHits with
   * capacity >= N; allocated when omitted). Two copies in, one copy out, one C call.
   */
  raycastBatch(mesh, meshPose, origins, dirs, tmax = null, out) {
    const h = this._mesh(mesh);
    const n = origins.length / 3;
    if ((n | 0) !== n || dirs.length !== origins.length || (tmax && tmax.length !== n)) {
      throw new SnugError(ERR_INVALID, 'invalid argument: raycastBatch needs 3N origins, 3N dirs and N tmax (or null)');
    }
    if (!out) out = new RayHits(n);
    if (out.capacity < n) {
      throw new SnugError(ERR_BUFFER_TOO_SMALL, `buffer too small: RayHits capacity ${out.capacity} < ${n} rays`);
    }
    const fn = this._fn('snug_mesh_raycast_batch');
    const stage = this._stageReserve(n * (12 + 12 + 4 + L.ray_hit.size));
    const oAt = stage, dAt = oAt + 12 * n, tAt = dAt + 12 * n, hAt = tAt + 4 * n;
    this._views();
    this._f32.set(origins, oAt >> 2);
    this._f32.set(dirs, dAt >> 2);
    if (tmax) this._f32.set(tmax, tAt >> 2);
    const s = this._scratch;
    this._pose(s + S.poseA, meshPose);
    this._check(fn(this._ctx, h, s + S.poseA, oAt, dAt, tmax ? tAt : 0, n, hAt));
    this._views();
    out.f32.set(this._f32.subarray(hAt >> 2, (hAt >> 2) + RAY_HIT.size * n));
    out.count = n;
    return out;
  }

  /** Closest point on the mesh to a world point within maxDistance: out (default this.pointResult) or null. */
  closestPoint(mesh, meshPose, point, maxDistance = Infinity, out = this.pointResult) {
    const h = this._mesh(mesh);
    this._views();
    const s = this._scratch;
    this._pose(s + S.poseA, meshPose);
    this._vec3((s + S.point) >> 2, point);
    this._check(this._fn('snug_mesh_closest_point')(this._ctx, h, s + S.poseA, s + S.point, maxDistance, s + S.pointResult));
    this._views();
    const P = L.point_result, at = s + S.pointResult;
    const tri = this._u32[(at + P.tri) >> 2];
    if (tri === NO_HIT) return null;
    out.tri = tri;
    out.distance = this._f32[(at + P.distance) >> 2];
    out.point.set(this._f32.subarray((at + P.point) >> 2, ((at + P.point) >> 2) + 3));
    return out;
  }

  /** Is the world point inside the closed mesh? (SNUG_ERR_NOT_CLOSED for open meshes) */
  inside(mesh, meshPose, point) {
    const h = this._mesh(mesh);
    this._views();
    const s = this._scratch;
    this._pose(s + S.poseA, meshPose);
    this._vec3((s + S.point) >> 2, point);
    this._check(this._fn('snug_mesh_inside')(this._ctx, h, s + S.poseA, s + S.point, s + S.bool));
    return this._u8[s + S.bool] !== 0;
  }

  // ------------------------------------------------------------------------------------------------ continuous

  _readToi(out) {
    const at = this._scratch + S.toiResult, T = L.toi_result, f = this._f32, u = this._u32;
    out.hit = this._u8[at + T.hit] !== 0;
    out.t = f[(at + T.t) >> 2];
    out.safeT = f[(at + T.safe_t) >> 2];
    out.feature = FEATURES[u[(at + T.feature) >> 2]] || 'none';
    out.triA = u[(at + T.tri_a) >> 2];
    out.triB = u[(at + T.tri_b) >> 2];
    out.featureA = u[(at + T.feature_a) >> 2] | 0;
    out.featureB = u[(at + T.feature_b) >> 2] | 0;
    const p = (at + T.point) >> 2, n = (at + T.normal) >> 2;
    out.point[0] = f[p]; out.point[1] = f[p + 1]; out.point[2] = f[p + 2];
    out.normal[0] = f[n]; out.normal[1] = f[n + 1]; out.normal[2] = f[n + 2];
    return out;
  }

  /**
   * Move `moving` from pose by a world translation against `other` at otherPose: the largest collision-free
   * fraction (out.t), the blocking triangles and the contact normal. Motions that slide along or leave an existing
   * contact are not blocked. Returns out (default this.toiResult).
   */
  sweep(moving, movingPose, translation, other, otherPose, out = this.toiResult) {
    const ha = moving?.snug === this && moving.handle !== 0 ? moving.handle : this._mesh(moving);
    const hb = other?.snug === this && other.handle !== 0 ? other.handle : this._mesh(other);
    const fn = this._fn('snug_mesh_sweep');
    this._views();
    const s = this._scratch;
    this._pose(s + S.poseA, movingPose);
    this._pose(s + S.poseB, otherPose);
    this._vec3((s + S.vecA) >> 2, translation);
    this._check(fn(this._ctx, ha, s + S.poseA, s + S.vecA, hb, s + S.poseB, s + S.toiResult));
    return this._readToi(out);
  }

  /** Rotation by angle (radians, |angle| <= pi) about the world axis through pivot, against other. */
  sweepRotation(moving, movingPose, pivot, axis, angle, other, otherPose, out = this.toiResult) {
    const ha = this._mesh(moving), hb = this._mesh(other);
    const fn = this._fn('snug_mesh_sweep_rotation');
    this._views();
    const s = this._scratch;
    this._pose(s + S.poseA, movingPose);
    this._pose(s + S.poseB, otherPose);
    this._vec3((s + S.vecA) >> 2, pivot);
    this._vec3((s + S.vecB) >> 2, axis);
    this._check(fn(this._ctx, ha, s + S.poseA, s + S.vecA, s + S.vecB, angle, hb, s + S.poseB, s + S.toiResult));
    return this._readToi(out);
  }

  // A motion: a pose (static), or { start, end } poses; keyframes are not exposed yet.
  _motion(at, motion) {
    const M = L.motion;
    if (motion == null || motion.length === 7) {
      this._pose(at + M.start, motion);
      this._pose(at + M.end, motion);
    } else {
      this._pose(at + M.start, motion.start);
      this._pose(at + M.end, motion.end);
    }
    const u = this._u32;
    u[(at + M.key_times) >> 2] = 0;
    u[(at + M.key_poses) >> 2] = 0;
    u[(at + M.key_count) >> 2] = 0;
  }

  /** Pose of a motion (a pose or { start, end }) at time t in [0, 1], as the core interpolates it (lerp + slerp). */
  motionPoseAt(motion, t, out = new Float32Array(7)) {
    this._live();
    const fn = this._fn('snug_motion_pose_at');
    const s = this._scratch;
    this._views();
    this._motion(s + S.motionA, motion);
    fn(s + S.poseB, s + S.motionA, t); // struct return through a hidden first pointer (wasm32 C ABI)
    this._views();
    return this._readPose(s + S.poseB, out);
  }

  /**
   * Earliest time of impact of a moving by motionA and b by motionB (each a pose or { start, end }).
   * def: { mode: 'dynamic'|'mixed'|'static'|'daasd', rootFinder, samplingStep, maxIterations, tolerance, daasdSlabs }.
   */
  toi(a, motionA, b, motionB, def, out = this.toiResult) {
    const ha = this._mesh(a), hb = this._mesh(b);
    const fn = this._fn('snug_mesh_toi');
    const s = this._scratch, d = s + S.toiDef, D = L.toi_def;
    this._m._snug_default_toi_def(d);
    this._views();
    this._motion(s + S.motionA, motionA);
    this._motion(s + S.motionB, motionB);
    if (def) {
      const u = this._u32, f = this._f32;
      if (def.mode !== undefined) u[(d + D.mode) >> 2] = enumIndex(TOI_MODES, def.mode, 'mode');
      if (def.rootFinder !== undefined) u[(d + D.root_finder) >> 2] = enumIndex(ROOT_FINDERS, def.rootFinder, 'rootFinder');
      if (def.samplingStep !== undefined) f[(d + D.sampling_step) >> 2] = def.samplingStep;
      if (def.maxIterations !== undefined) u[(d + D.max_iterations) >> 2] = def.maxIterations >>> 0;
      if (def.tolerance !== undefined) f[(d + D.tolerance) >> 2] = def.tolerance;
      if (def.daasdSlabs !== undefined) u[(d + D.daasd_slabs) >> 2] = def.daasdSlabs >>> 0;
    }
    this._check(fn(this._ctx, ha, s + S.motionA, hb, s + S.motionB, d, s + S.toiResult));
    return this._readToi(out);
  }

  // ------------------------------------------------------------------------------------------------ scenes

  /** A scene: bodies (instances of meshes) with a hierarchy, a broad phase, rays and the collision step. */
  createScene() {
    this._live();
    this._check(this._fn('snug_scene_create')(this._ctx, this._scratch + S.handle));
    const scene = new Scene(this, this._u32[(this._scratch + S.handle) >> 2]);
    this._scenes.add(scene);
    this._track(scene, 'Scene');
    return scene;
  }

  /**
   * Runs a small placement scene through a session's gestures once, in a scene of its own, so that the browser
   * compiles the code of drags, slides, turns and inserts now instead of at a person's first gesture (WebAssembly
   * functions are compiled at their first call: a first drag into a corner took 10 ms instead of 0.5). Call it after
   * loading, before the first drag. Returns { moves, reasons }: the body.move calls made and the reasons they reported.
   */
  warmUp() {
    this._live();
    return warmUp(this);
  }

  // ------------------------------------------------------------------------------------------------ lifetime

  /** Free the context and everything it owns; every Mesh of it becomes stale. */
  dispose() {
    if (this._ctx === 0) return;
    const m = this._m;
    for (const mesh of this._meshes) {
      mesh.handle = 0;
      if (leakRegistry) leakRegistry.unregister(mesh);
    }
    this._meshes.clear();
    for (const scene of this._scenes) {
      this._untrack(scene);
      for (const b of scene._bodies.values()) b.handle = 0;
      scene._bodies.clear();
      scene.handle = 0;
    }
    this._scenes.clear();
    m._snug_ctx_destroy(this._ctx);
    m._free(this._scratch);
    if (this._stage) m._free(this._stage);
    this._destroyPool();
    // A module loaded for this context goes with it: its workers would otherwise keep node (or the tab's memory) alive.
    if (this._threads > 1 && this._ownsModule) stopWorkers(m);
    this._ctx = 0;
    this._scratch = 0;
    this._stage = 0;
    this._stageBytes = 0;
    if (leakRegistry) leakRegistry.unregister(this);
  }
}

export default Snug;
