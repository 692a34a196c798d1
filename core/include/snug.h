/* snug: collision detection and constrained placement.
 *
 * The whole public C API. Conventions (Box2D v3 / cglm style):
 *  - functions are snug_<object>_<verb> (snug_mesh_raycast, snug_body_set_pose, snug_scene_pairs);
 *  - settings structs snug_xxx_def come from snug_default_xxx_def(), which marks them: a create call or query
 *    rejects a def not made that way (start from the default, then set fields);
 *  - enums: values SNUG_<TYPE>_<NAME> in the order of increasing work where there is one (STATIC, MIXED, DYNAMIC),
 *    then SNUG_<TYPE>_COUNT; a type named for what it selects (bv_type, toi_mode, root_finder, feature_kind,
 *    step_mode) drops that word from its values (SNUG_TOI_STATIC, SNUG_ROOT_LINEAR);
 *  - counts and capacities are uint32_t; int is kept where -1 means "none" (feature indices); times t are float;
 *  - every fallible call returns a snug_status; snug_ctx_last_error() gives a readable message;
 *  - objects are opaque integer handles with a generation: a stale or foreign handle is an error, never a crash;
 *  - a failed call leaves everything as it was: every object and every answer the API gives. Calls that create or
 *    change objects (meshes, blobs, positions, scenes, bodies, ignore pairs, motions) also leave the memory they
 *    found; a failed query or step may leave reusable capacity behind (the context's scratch arena, the edge
 *    adjacency and ray tree a mesh builds on first use, a scene's broad-phase, query and step buffers), never more
 *    than the same call keeps when it succeeds (tests/c/test_failed_calls.c fails every allocation in turn);
 *  - results are written into caller buffers; queries never allocate on their hot path.
 * Coordinates are float32; a pose maps local to world: world = rotate(q, local) + p. */
#ifndef SNUG_H
#define SNUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SNUG_VERSION_MAJOR 0
#define SNUG_VERSION_MINOR 1

/* ---------------------------------------------------------------------------------------------------------------
 * Common: status codes, context, pose
 * ------------------------------------------------------------------------------------------------------------ */

typedef enum snug_status {
    SNUG_OK = 0,
    SNUG_ERR_INVALID_ARGUMENT,   /* NULL pointer, bad enum, count or coordinate out of range, non-unit quaternion */
    SNUG_ERR_NOT_FINITE,         /* NaN or Inf in coordinates or poses */
    SNUG_ERR_INDEX_RANGE,        /* triangle index >= vertex count */
    SNUG_ERR_EMPTY,              /* no vertices or no triangles */
    SNUG_ERR_STALE_HANDLE,       /* handle destroyed, never created or from another context */
    SNUG_ERR_OUT_OF_MEMORY,      /* allocator returned NULL; nothing was changed */
    SNUG_ERR_BLOB_TRUNCATED,     /* serialized blob shorter than its header says */
    SNUG_ERR_BLOB_FOREIGN,       /* not a snug blob (magic mismatch) */
    SNUG_ERR_BLOB_VERSION,       /* snug blob of an unsupported format version */
    SNUG_ERR_BLOB_CORRUPT,       /* checksum or structure check failed */
    SNUG_ERR_BUFFER_TOO_SMALL,   /* output buffer too small; the required size/count is still reported */
    SNUG_ERR_NOT_CLOSED,         /* inside/outside asked of a mesh that is not closed */
    SNUG_ERR_CYCLE,              /* re-parenting would create a cycle */
    SNUG_STATUS_COUNT
} snug_status;

/* A piece of parallel work: items [begin, end) of a task, run by worker `worker` (< worker_count), which indexes
 * per-worker scratch. */
typedef void (*snug_task_fn)(uint32_t begin, uint32_t end, uint32_t worker, void* task_context);

/* Allocator hooks; a NULL hook uses malloc/free. Tests inject failing allocators through this.
 * Optional task hooks (the Box2D v3 shape: snug owns no threads): with worker_count > 1, enqueue_task must run
 * task over items [0, item_count) in ranges of at least min_range items (the last may be shorter), each item
 * exactly once, on up to worker_count threads with distinct worker indices while the task runs; it returns a
 * handle that finish_task waits on, or NULL when it ran everything before returning. Results do not depend on
 * the worker count: the same input gives the same bytes with or without hooks. */
#define SNUG_MAX_WORKERS 64 /* worker_count is clamped to this */
typedef struct snug_ctx_def {
    void* (*alloc)(size_t size, void* user);
    void (*free)(void* ptr, void* user);
    void* user;
    uint32_t worker_count;
    void* (*enqueue_task)(snug_task_fn task, uint32_t item_count, uint32_t min_range, void* task_context,
                          void* user_task_context);
    void (*finish_task)(void* task, void* user_task_context);
    void* user_task_context;
    uint32_t internal_value;   /* set by snug_default_ctx_def(): marks a def made by it (do not set) */
} snug_ctx_def;

typedef struct snug_ctx snug_ctx;

snug_ctx_def snug_default_ctx_def(void);
/* def NULL: the defaults. Returns NULL when the allocator fails or def was not made by snug_default_ctx_def (there
 * is no context yet to carry a message). */
snug_ctx* snug_ctx_create(const snug_ctx_def* def);
/* Frees the context and everything it owns (meshes, scenes, scratch). */
void snug_ctx_destroy(snug_ctx* ctx);
/* Message of the last failed call on this context ("" after success). */
const char* snug_ctx_last_error(const snug_ctx* ctx);
snug_status snug_ctx_last_status(const snug_ctx* ctx);
const char* snug_status_name(snug_status status);
/* Bytes currently allocated through the context's allocator (leak checks, memory reports). */
size_t snug_ctx_allocated_bytes(const snug_ctx* ctx);

/* Rigid transform: unit quaternion q = (x, y, z, w) and translation p. */
typedef struct snug_pose {
    float q[4];
    float p[3];
} snug_pose;

/* Accepted input (docs/manual.md, "Accepted input and what bad input gets"). Every vertex coordinate, pose
 * translation, ray origin and direction, query point and motion lies within +-SNUG_MAX_COORDINATE: there every
 * derived quantity (scales, tolerances, squared distances, areas, volumes, costs) stays finite in float. Beyond it a
 * call fails with SNUG_ERR_INVALID_ARGUMENT (NaN and Inf: SNUG_ERR_NOT_FINITE), and so does a change of a body's
 * pose, parent or local pose that would carry a body of its subtree beyond it. Every pose's quaternion must have
 * length 1 within SNUG_QUAT_TOLERANCE (a zero, tiny or huge one is SNUG_ERR_INVALID_ARGUMENT); snug uses it
 * normalized. */
#define SNUG_MAX_COORDINATE 1e9f
#define SNUG_QUAT_TOLERANCE 1e-3f

snug_pose snug_pose_identity(void);

/* ---------------------------------------------------------------------------------------------------------------
 * Bounding volumes and hierarchy settings
 * ------------------------------------------------------------------------------------------------------------ */

typedef enum snug_bv_type {
    SNUG_BV_SPHERE = 0,
    SNUG_BV_AABB,
    SNUG_BV_OBB,
    SNUG_BV_KDOP14,
    SNUG_BV_KDOP18,
    SNUG_BV_KDOP26,
    SNUG_BV_TYPE_COUNT,
    SNUG_BV_MIXED = SNUG_BV_TYPE_COUNT /* per node the type with the best quality x test cost */
} snug_bv_type;

/* Median, SAH and Gottschalk are the product's splitters. The others, and bottom_up below, are research variants kept
 * for comparison (core/src/research/): the research library (tests, benchmarks, the tools wasm module) builds them,
 * the product library (the plain and threaded wasm modules) refuses them with SNUG_ERR_INVALID_ARGUMENT. A blob
 * of a hierarchy they built loads in either. */
typedef enum snug_splitter {
    SNUG_SPLITTER_MEDIAN = 0,     /* longest centroid axis, object median */
    SNUG_SPLITTER_SAH,            /* binned surface-area heuristic */
    SNUG_SPLITTER_GOTTSCHALK,     /* modified Gottschalk: plane through the mean, across the BV's longest axis */
    SNUG_SPLITTER_ZACHMANN,       /* modified Zachmann: best-balanced axis-aligned cut */
    SNUG_SPLITTER_KCENTER,        /* modified Hochbaum-Shmoys greedy k-center */
    SNUG_SPLITTER_KMEANS,         /* k-means-like heuristic without intermediate optimisation */
    SNUG_SPLITTER_GREEDY,         /* greedy growth with intermediate optimisation */
    SNUG_SPLITTER_BRANCH_BOUND,   /* optimal branch-and-bound; only for nodes up to bb_max_faces */
    SNUG_SPLITTER_COUNT
} snug_splitter;

typedef enum snug_measure {
    SNUG_MEASURE_VOLUME = 0,
    SNUG_MEASURE_SURFACE,
    SNUG_MEASURE_DIAMETER,
    SNUG_MEASURE_HAUSDORFF,    /* directed Hausdorff distance BV -> faces (slow; evaluation and small nodes) */
    SNUG_MEASURE_COUNT
} snug_measure;

typedef struct snug_bvh_def {
    snug_bv_type bv_type;      /* node BV type, or SNUG_BV_MIXED */
    snug_splitter splitter;
    uint32_t branching;        /* 2..6 fixed; 0 = variable branching up to max_branching */
    uint32_t max_branching;    /* v_max for variable branching (2..6) */
    float alpha;               /* variable branching: accept a split once quality(children) <= alpha * quality(node) */
    uint32_t small_node;       /* s_min: a node with fewer faces that splits poorly becomes a leaf (0..256) */
    uint32_t leaf_size;        /* at most this many triangles per leaf (1..255) */
    uint32_t max_depth;        /* 1..64 */
    snug_measure measure;      /* the quality measure splitters optimise */
    uint32_t sah_bins;         /* binned SAH bin count (4..64) */
    uint32_t bb_max_faces;     /* branch-and-bound only below this face count (2..24); larger nodes use greedy */
    bool bottom_up;            /* build bottom-up by pairwise merging instead of top-down */
    bool obb_refine;           /* refine covariance OBBs by minimising their surface */
    bool hausdorff;            /* compute per-node directed Hausdorff bounds (for distance queries) */
    uint32_t internal_value;   /* set by snug_default_bvh_def(): marks a def made by it (do not set) */
} snug_bvh_def;

snug_bvh_def snug_default_bvh_def(void);

/* ---------------------------------------------------------------------------------------------------------------
 * Meshes: validated triangle soups with their hierarchy
 * ------------------------------------------------------------------------------------------------------------ */

typedef uint32_t snug_mesh;    /* handle; 0 is never valid */

typedef struct snug_mesh_def {
    const float* positions;        /* 3 floats per vertex */
    uint32_t vertex_count;
    const uint32_t* indices;       /* 3 per triangle; NULL means vertices 3i, 3i+1, 3i+2 form triangle i */
    uint32_t triangle_count;
    bool weld;                     /* merge vertices closer than weld_tolerance * mesh diagonal */
    float weld_tolerance;
    snug_bvh_def bvh;
    uint32_t internal_value;   /* set by snug_default_mesh_def(): marks a def made by it (do not set) */
} snug_mesh_def;

snug_mesh_def snug_default_mesh_def(void);

typedef struct snug_mesh_info {
    uint32_t vertex_count;         /* after welding */
    uint32_t triangle_count;
    uint32_t degenerate_count;     /* triangles with area below the scale-relative tolerance (kept) */
    uint32_t edge_count;           /* unique undirected edges */
    uint32_t boundary_edge_count;  /* edges with one adjacent triangle; 0 with no non-manifold edge = closed */
    uint32_t nonmanifold_edge_count;
    uint32_t node_count;
    uint32_t leaf_count;
    uint32_t depth;
    snug_bv_type bv_type;
    float aabb_min[3], aabb_max[3];
    float scale;                   /* AABB diagonal: every tolerance is relative to it */
    float tolerance;               /* absolute tolerance used for this mesh: scale * SNUG_REL_TOLERANCE */
    bool closed;
    size_t memory_bytes;
} snug_mesh_info;

#define SNUG_REL_TOLERANCE 1e-6f

snug_status snug_mesh_create(snug_ctx* ctx, const snug_mesh_def* def, snug_mesh* out);
snug_status snug_mesh_destroy(snug_ctx* ctx, snug_mesh mesh);
/* Is mesh a live mesh of this context? (false for 0 and for destroyed, forged or foreign handles; no error is
 * recorded) */
bool snug_mesh_is_valid(const snug_ctx* ctx, snug_mesh mesh);
snug_status snug_mesh_get_info(snug_ctx* ctx, snug_mesh mesh, snug_mesh_info* out);
/* Triangle ids (as given at creation) of degenerate triangles; *total is always set. */
snug_status snug_mesh_get_degenerate(snug_ctx* ctx, snug_mesh mesh, uint32_t* ids, uint32_t capacity, uint32_t* total);
/* Replace all vertex positions (same count, creation order) and refit the hierarchy bottom-up. */
snug_status snug_mesh_set_positions(snug_ctx* ctx, snug_mesh mesh, const float* positions, uint32_t vertex_count);

/* Serialize mesh + hierarchy to a versioned, checksummed blob. With buffer NULL only *size is set. */
snug_status snug_mesh_serialize(snug_ctx* ctx, snug_mesh mesh, void* buffer, size_t capacity, size_t* size);
/* Load a blob without rebuilding; truncated, corrupted or foreign blobs are rejected. */
snug_status snug_mesh_deserialize(snug_ctx* ctx, const void* blob, size_t size, snug_mesh* out);

/* Hierarchy quality: per measure the sum over nodes, and the largest per-node directed Hausdorff bound. */
typedef struct snug_bvh_quality {
    double volume_sum, surface_sum, diameter_sum;
    double hausdorff_max;          /* 0 when the tree has no Hausdorff bounds */
    double sah_cost;               /* surface-area cost relative to the root */
    uint32_t nodes_per_type[SNUG_BV_TYPE_COUNT];
} snug_bvh_quality;

snug_status snug_mesh_get_quality(snug_ctx* ctx, snug_mesh mesh, snug_bvh_quality* out);

/* ---------------------------------------------------------------------------------------------------------------
 * Static queries on meshes at poses (each mesh with its own pose)
 * ------------------------------------------------------------------------------------------------------------ */

typedef enum snug_traversal {
    SNUG_TRAVERSAL_SIMULTANEOUS = 0, /* expand both nodes */
    SNUG_TRAVERSAL_ONE_SIDED,        /* expand the node of worse quality */
    SNUG_TRAVERSAL_HYBRID,           /* seed 000 Fig. 4.14 with explicit tie-breaks */
    SNUG_TRAVERSAL_COUNT
} snug_traversal;

/* Cost-model counters of seed 000 §3.1, reset by every query. */
typedef struct snug_query_stats {
    uint64_t bv_tests[SNUG_BV_TYPE_COUNT][SNUG_BV_TYPE_COUNT];
    uint64_t primitive_tests;
    uint64_t nodes_visited;
} snug_query_stats;

/* Sets the pair-traversal strategy used by this context's mesh-mesh queries: overlap, the tolerance query and the
 * overlap a distance query tries first. The distance search itself expands both nodes of a pair of about the same
 * size and the larger of two unlike ones (docs/manual.md, choosing the hierarchy). */
snug_status snug_ctx_set_traversal(snug_ctx* ctx, snug_traversal traversal);
/* Counters of the last query on this context. */
const snug_query_stats* snug_ctx_last_stats(const snug_ctx* ctx);

typedef struct snug_tri_pair {
    uint32_t tri_a, tri_b;        /* triangle ids as given at creation */
} snug_tri_pair;

/* Do the meshes intersect (touching within tolerance counts)? Early exit; *pair (optional) gets the witness. */
snug_status snug_mesh_overlap(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                               const snug_pose* pose_b, bool* hit, snug_tri_pair* pair);
/* Every intersecting triangle pair; writes min(capacity, total) pairs, *total is always the full count. */
snug_status snug_mesh_overlap_all(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                                   const snug_pose* pose_b, snug_tri_pair* pairs, uint32_t capacity, uint32_t* total);

typedef struct snug_distance_result {
    float distance;               /* 0 when the meshes intersect */
    float point_a[3], point_b[3]; /* closest points in world space */
    uint32_t tri_a, tri_b;
} snug_distance_result;

snug_status snug_mesh_distance(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                                const snug_pose* pose_b, snug_distance_result* out);
/* Are the meshes closer than max_distance? Exits early in both directions. */
snug_status snug_mesh_within(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                              const snug_pose* pose_b, float max_distance, bool* within);

typedef struct snug_ray {
    float origin[3];
    float dir[3];                 /* need not be unit; t is in units of dir; length >= SNUG_MIN_RAY_DIRECTION */
    float tmax;                   /* segment end; INFINITY for a ray */
} snug_ray;

typedef struct snug_ray_hit {
    uint32_t tri;                 /* triangle id, or SNUG_NO_HIT */
    float t;
    float point[3];               /* world space */
    float normal[3];              /* unit geometric normal in world space, facing against the ray */
} snug_ray_hit;

#define SNUG_NO_HIT 0xffffffffu
/* A shorter direction would put hits within the coordinate range at t beyond float. */
#define SNUG_MIN_RAY_DIRECTION 1e-15f

snug_status snug_mesh_raycast(snug_ctx* ctx, snug_mesh mesh, const snug_pose* pose, const snug_ray* ray,
                               snug_ray_hit* hit);
snug_status snug_mesh_raycast_any(snug_ctx* ctx, snug_mesh mesh, const snug_pose* pose, const snug_ray* ray,
                                   bool* hit);
/* All hits sorted by t; *total is always the full count. */
snug_status snug_mesh_raycast_all(snug_ctx* ctx, snug_mesh mesh, const snug_pose* pose, const snug_ray* ray,
                                   snug_ray_hit* hits, uint32_t capacity, uint32_t* total);
/* N rays in flat arrays (origins 3N, dirs 3N, tmax N or NULL for rays); N results. */
snug_status snug_mesh_raycast_batch(snug_ctx* ctx, snug_mesh mesh, const snug_pose* pose, const float* origins,
                                     const float* dirs, const float* tmax, uint32_t count, snug_ray_hit* hits);

typedef struct snug_point_result {
    float distance;
    float point[3];               /* closest point on the mesh, world space */
    uint32_t tri;
} snug_point_result;

/* Closest point on the mesh to a world point, searching within max_distance (INFINITY: everywhere). */
snug_status snug_mesh_closest_point(snug_ctx* ctx, snug_mesh mesh, const snug_pose* pose, const float point[3],
                                     float max_distance, snug_point_result* out);
/* Inside/outside of a closed mesh (SNUG_ERR_NOT_CLOSED otherwise). */
snug_status snug_mesh_inside(snug_ctx* ctx, snug_mesh mesh, const snug_pose* pose, const float point[3],
                              bool* inside);

/* ---------------------------------------------------------------------------------------------------------------
 * Continuous collision: motions, time of impact, sweeps (ccd.c, sweep.c, daasd.c)
 * ------------------------------------------------------------------------------------------------------------ */

/* A motion moves a mesh from `start` (t = 0) to `end` (t = 1): translation linear, rotation by slerp along the
 * shortest arc. Optional keyframes give poses at times 0 < key_times[0] < ... < 1 (a motion sampled by a caller,
 * e.g. a physics engine); between neighbouring keys the motion is again lerp + slerp. A motion whose start and
 * end rotations are equal is taken on the exact pure-translation path. */
typedef struct snug_motion {
    snug_pose start;
    snug_pose end;
    const float* key_times;       /* key_count strictly increasing times in (0, 1), or NULL */
    const snug_pose* key_poses;   /* key_count poses */
    uint32_t key_count;
} snug_motion;

/* start == end == pose: a mesh that does not move. */
snug_motion snug_motion_static(const snug_pose* pose);
snug_motion snug_motion_between(const snug_pose* start, const snug_pose* end);
/* Pose of the motion at time t (clamped to [0, 1]; NaN gives the start), e.g. to place a mesh at a result's safe_t.
 * The motion is not validated here: pass one that snug_mesh_toi accepts. */
snug_pose snug_motion_pose_at(const snug_motion* motion, float t);

typedef enum snug_toi_mode {
    SNUG_TOI_STATIC = 0,      /* end pose only; an overlap is reported at t = 0 (do not move), with a triangle pair */
    SNUG_TOI_MIXED,           /* static test at the end pose, then dynamic tests of the overlapping features (seed 000
                               * Fig. 5.24); misses tunnelling, the earliest contact may come from other features */
    SNUG_TOI_DYNAMIC,         /* swept hierarchy traversal + dynamic vertex-face / edge-edge tests: finds tunnelling */
    SNUG_TOI_DAASD,           /* seed 003: vertex paths as chords in slabs of the AABB overlap region; only vertices
                               * of either mesh through the other's triangles, rotation taken as chords (see
                               * research/daasd.c). A research variant: the product library refuses it with
                               * SNUG_ERR_INVALID_ARGUMENT (as the research splitters, snug_splitter) */
    SNUG_TOI_MODE_COUNT
} snug_toi_mode;

/* Root finders for the signed feature distance d(t) (seed 000 §5.3); all are exact under pure translation. */
typedef enum snug_root_finder {
    SNUG_ROOT_LINEAR = 0,             /* one linear interpolation of d over the interval */
    SNUG_ROOT_REGULA_FALSI,           /* Illinois regula falsi on a sign change, capped iterations, conservative side */
    SNUG_ROOT_QUADRATIC,              /* quadratic through three samples: also enter-and-leave without a sign change */
    SNUG_ROOT_SAMPLING,               /* samples every sampling_step, linear root in the first confirmed bracket */
    SNUG_ROOT_SAMPLING_REGULA_FALSI,  /* samples every sampling_step, regula falsi in the bracket (default) */
    SNUG_ROOT_FINDER_COUNT
} snug_root_finder;

typedef struct snug_toi_def {
    snug_toi_mode mode;
    snug_root_finder root_finder;
    float sampling_step;      /* in units of t, [SNUG_MIN_SAMPLING_STEP, 1]; the sampling finders miss sign changes
                               * shorter than this */
    uint32_t max_iterations;  /* regula falsi cap (1..100) */
    float tolerance;          /* contact distance relative to the larger mesh's scale; 0 means SNUG_REL_TOLERANCE */
    uint32_t daasd_slabs;     /* SNUG_TOI_DAASD: slab count K (0: chosen from the candidate count) */
    uint32_t internal_value;   /* set by snug_default_toi_def(): marks a def made by it (do not set) */
} snug_toi_def;

/* The finest sampling step: every feature pair takes at most 1 / step samples per motion piece. */
#define SNUG_MIN_SAMPLING_STEP (1.0f / 1024.0f)

/* Dynamic mode, sampling + regula falsi, step 1/16, 32 iterations, tolerance 0 (= SNUG_REL_TOLERANCE). */
snug_toi_def snug_default_toi_def(void);

typedef enum snug_feature_kind {
    SNUG_FEATURE_NONE = 0,
    SNUG_FEATURE_VERTEX_FACE,     /* vertex `feature_a` (corner 0..2) of tri_a touches face tri_b */
    SNUG_FEATURE_FACE_VERTEX,     /* face tri_a is touched by vertex `feature_b` (corner 0..2) of tri_b */
    SNUG_FEATURE_EDGE_EDGE,       /* edge feature_a of tri_a (corners k, k+1 mod 3) touches edge feature_b of tri_b */
    SNUG_FEATURE_FACE_FACE,       /* static or start overlap: the triangles tri_a and tri_b intersect */
    SNUG_FEATURE_KIND_COUNT
} snug_feature_kind;

typedef struct snug_toi_result {
    bool hit;                     /* false: no contact during the motion (t = safe_t = 1) */
    float t;                      /* earliest contact time in [0, 1] (a sweep: the blocked fraction of the motion) */
    float safe_t;                 /* <= t: t moved back by the time the fastest point needs for two tolerances; a
                                   * caller can place the meshes there without them touching */
    snug_feature_kind feature;
    uint32_t tri_a, tri_b;        /* triangle ids as given at creation (SNUG_NO_HIT without a hit) */
    int feature_a, feature_b;     /* corner or edge index within the triangle, -1 for a whole face */
    float point[3];               /* contact point in world space at time t */
    float normal[3];              /* unit contact normal in world space, pointing from B towards A */
} snug_toi_result;

/* Earliest time of impact of mesh a moving by motion_a and mesh b moving by motion_b. Touching within the
 * tolerance is contact; meshes that already touch at t = 0 report t = 0. Limits: the sampling finders miss a
 * contact that begins and ends within one sampling step, parallel edge pairs are left to the vertex-face tests.
 * Bounded work: a search (this and the sweeps below) spends at most 128 units (visited node pairs and time
 * intervals, tested triangle pairs, root searches of their feature pairs) per node and triangle of both meshes;
 * one that would spend more, which only
 * pathological input does (point-like triangles sliding along a copy of their mesh for the whole motion), stops
 * with a conservative answer: hit at the earliest time it had not cleared, feature SNUG_FEATURE_NONE, triangles
 * SNUG_NO_HIT, zero point and normal. */
snug_status snug_mesh_toi(snug_ctx* ctx, snug_mesh a, const snug_motion* motion_a, snug_mesh b,
                           const snug_motion* motion_b, const snug_toi_def* def, snug_toi_result* result);

/* Placement sweeps: move `moving` from `pose` by `translation` (world) against `other` at `other_pose`. The result's
 * t is the largest collision-free fraction of the motion, with the blocking feature and normal. A start pose that
 * already touches within tolerance is not blocked by motions that slide along or leave the contact; only motions
 * that push in are (result t = 0). Pushing in is judged by face orientation: triangles must be counter-clockwise
 * seen from outside (as usual for closed meshes). */
snug_status snug_mesh_sweep(snug_ctx* ctx, snug_mesh moving, const snug_pose* pose, const float translation[3],
                             snug_mesh other, const snug_pose* other_pose, snug_toi_result* result);
/* The same for a rotation by `angle` radians (|angle| < pi; split larger turns) about the world axis through
 * `pivot` along `axis`. */
snug_status snug_mesh_sweep_rotation(snug_ctx* ctx, snug_mesh moving, const snug_pose* pose, const float pivot[3],
                                      const float axis[3], float angle, snug_mesh other, const snug_pose* other_pose,
                                      snug_toi_result* result);

/* (section end: continuous collision) */

/* ---------------------------------------------------------------------------------------------------------------
 * Scenes: bodies, hierarchy, broad phase, the collision step (scene.c, hierarchy.c, broadphase.c, step.c)
 * ------------------------------------------------------------------------------------------------------------ */

/* A scene owns bodies: instances of meshes (one mesh serves any number of bodies) with a pose, a parent, flags
 * and a collision filter. Body handles are generational per scene: a handle of another scene, a destroyed body
 * or a forged number is SNUG_ERR_STALE_HANDLE. Meshes stay owned by the context: destroy a mesh only after its
 * bodies; a body whose mesh is gone makes the queries and steps that reach it fail with SNUG_ERR_STALE_HANDLE.
 *
 * Hierarchy: every body has a local pose relative to its parent (the world for a root body) and a cached world
 * pose. Moving a body moves its whole subtree rigidly. Destroying a body with children detaches the children to
 * the root keeping their world poses (as IConS does when an object under others is deleted). */

typedef uint32_t snug_scene;   /* handle; 0 is never valid */
typedef uint32_t snug_body;    /* handle; 0 is never valid and stands for "no body" (the root) */

snug_status snug_scene_create(snug_ctx* ctx, snug_scene* out);
/* Destroys the scene with all its bodies; the meshes stay. */
snug_status snug_scene_destroy(snug_ctx* ctx, snug_scene scene);
/* Is scene a live scene of this context? (no error is recorded) */
bool snug_scene_is_valid(const snug_ctx* ctx, snug_scene scene);

typedef struct snug_body_def {
    snug_mesh mesh;               /* the prototype */
    snug_body parent;             /* 0: a root body */
    snug_pose pose;               /* local pose: relative to the parent, the world pose of a root body */
    bool is_static;               /* cannot be moved by a step; pairs of two static bodies are never reported */
    bool enabled;                 /* a disabled body takes part in no query and no step */
    uint32_t layer;               /* filter: a pair is tested when (a.layer & b.mask) && (b.layer & a.mask) */
    uint32_t mask;
    uint64_t user_data;
    uint32_t internal_value;   /* set by snug_default_body_def(): marks a def made by it (do not set) */
} snug_body_def;

/* Identity pose, no parent, dynamic, enabled, layer 1, mask all. */
snug_body_def snug_default_body_def(void);
snug_status snug_body_create(snug_ctx* ctx, snug_scene scene, const snug_body_def* def, snug_body* out);
/* Children of the destroyed body become root bodies with unchanged world poses; ignore-pairs with it are dropped. */
snug_status snug_body_destroy(snug_ctx* ctx, snug_scene scene, snug_body body);
/* Is body a live body of this live scene? (no error is recorded) */
bool snug_body_is_valid(const snug_ctx* ctx, snug_scene scene, snug_body body);

/* World pose (moves the subtree along; the local pose becomes inverse(parent world) * pose). */
snug_status snug_body_set_pose(snug_ctx* ctx, snug_scene scene, snug_body body, const snug_pose* pose);
snug_status snug_body_get_pose(snug_ctx* ctx, snug_scene scene, snug_body body, snug_pose* out);
snug_status snug_body_set_local_pose(snug_ctx* ctx, snug_scene scene, snug_body body, const snug_pose* pose);
snug_status snug_body_get_local_pose(snug_ctx* ctx, snug_scene scene, snug_body body, snug_pose* out);
/* Re-parent (parent 0: make it a root). keep_world keeps the world pose (local = inverse(parent world) * world);
 * otherwise the local pose is kept and the subtree moves with the new parent. A parent inside the body's own
 * subtree is SNUG_ERR_CYCLE. */
snug_status snug_body_set_parent(snug_ctx* ctx, snug_scene scene, snug_body body, snug_body parent, bool keep_world);
snug_status snug_body_get_parent(snug_ctx* ctx, snug_scene scene, snug_body body, snug_body* out);
snug_status snug_body_set_static(snug_ctx* ctx, snug_scene scene, snug_body body, bool is_static);
snug_status snug_body_set_enabled(snug_ctx* ctx, snug_scene scene, snug_body body, bool enabled);
snug_status snug_body_set_filter(snug_ctx* ctx, snug_scene scene, snug_body body, uint32_t layer, uint32_t mask);

typedef struct snug_body_info {
    snug_mesh mesh;
    snug_body parent;
    uint32_t child_count;
    bool is_static, enabled;
    uint32_t layer, mask;
    uint64_t user_data;
    float aabb_min[3], aabb_max[3]; /* world AABB at the current pose */
} snug_body_info;

snug_status snug_body_get_info(snug_ctx* ctx, snug_scene scene, snug_body body, snug_body_info* out);

/* Never report (and never test in a step) the pair a, b; ignore = false removes the exception. */
snug_status snug_scene_ignore_pair(snug_ctx* ctx, snug_scene scene, snug_body a, snug_body b, bool ignore);

typedef struct snug_body_pair {
    snug_body a, b;
} snug_body_pair;

/* Broad phase (incremental 3-axis sweep-and-prune over world AABBs). Every pair of bodies whose world AABBs
 * overlap (touching counts) and that passes the filters (enabled, not both static, layer/mask, ignore list).
 * Writes min(capacity, total) pairs; *total is always the full count. */
snug_status snug_scene_pairs(snug_ctx* ctx, snug_scene scene, snug_body_pair* pairs, uint32_t capacity,
                                   uint32_t* total);
/* Enabled bodies whose world AABB overlaps the box [min, max]. */
snug_status snug_scene_overlap_box(snug_ctx* ctx, snug_scene scene, const float min[3], const float max[3],
                                 snug_body* bodies, uint32_t capacity, uint32_t* total);

typedef struct snug_scene_hit {
    snug_body body;               /* 0 when nothing was hit */
    uint32_t tri;                 /* triangle id of the body's mesh, or SNUG_NO_HIT */
    float t;
    float point[3];
    float normal[3];
} snug_scene_hit;

/* Closest hit of a ray against the enabled bodies whose (layer & mask) is non-zero. */
snug_status snug_scene_raycast(snug_ctx* ctx, snug_scene scene, const snug_ray* ray, uint32_t mask,
                               snug_scene_hit* hit);
/* N rays in flat arrays (origins 3N, dirs 3N, tmax N or NULL for rays); N results. */
snug_status snug_scene_raycast_batch(snug_ctx* ctx, snug_scene scene, const float* origins, const float* dirs,
                                     const float* tmax, uint32_t count, uint32_t mask, snug_scene_hit* hits);

/* The collision step (seed 000 ch. 7): begin -> register motions -> detect -> the caller decides -> commit.
 *
 * A motion is registered for a body and moves its subtree as one rigid group. relative = true: pose is a
 * world-frame motion T_rel (target world = T_rel * world); false: pose is the absolute target world pose.
 * Registering a body and a descendant in one step composes along the hierarchy: the descendant is first carried
 * by its ancestor's motion, then its own motion applies (an absolute target stays absolute). Every body moves
 * from its start to its target world pose (linear translation, slerp rotation). Pairs inside one group are not
 * tested (their relative pose does not change). Registering the same body twice replaces its motion. */
typedef enum snug_step_mode {
    SNUG_STEP_STATIC = 0,          /* overlap at the target poses; a hit has t = 0 */
    SNUG_STEP_MIXED,               /* overlap at the target poses, then the time of impact of the colliding pairs */
    SNUG_STEP_DYNAMIC,             /* time of impact over the whole motion (swept boxes in the broad phase) */
    SNUG_STEP_MODE_COUNT
} snug_step_mode;

/* How an answer was cut short by the time budget. */
typedef enum snug_approx {
    SNUG_APPROX_NONE = 0,          /* exact */
    SNUG_APPROX_CONSERVATIVE,      /* unfinished pair test: reported as a hit at t = 0 */
    SNUG_APPROX_INDICATOR,         /* unfinished static pair test: the remaining BV pair most likely to touch
                                      (smallest Hausdorff sum), with distance_bound */
    SNUG_APPROX_COUNT
} snug_approx;

typedef struct snug_contact {
    snug_body group;              /* the registered body */
    bool hit;
    snug_approx approx;
    float t;                      /* earliest contact in [0,1] along the motion; 1 without a hit */
    snug_body body_a, body_b;     /* body_a belongs to the group */
    snug_feature_kind feature;    /* SNUG_FEATURE_FACE_FACE for static overlaps, NONE when approximate */
    uint32_t tri_a, tri_b;        /* feature pair: triangle ids (SNUG_NO_HIT for an approximate answer) */
    int feature_a, feature_b;     /* corner or edge within the triangle, -1 for a whole face */
    float point[3];               /* world contact point at time t */
    float normal[3];              /* unit world normal pointing from body_b towards body_a (zero when unknown) */
    float distance_bound;         /* INDICATOR: if the meshes do not touch, their distance is at most this */
} snug_contact;

typedef struct snug_step_stats {
    uint32_t groups, moved_bodies;
    uint32_t broadphase_pairs;    /* candidate pairs after the broad phase and the filters */
    uint32_t finished_pairs, unfinished_pairs;
    uint64_t bv_tests, primitive_tests;
    double time_us;               /* pair-test time by the step's clock (0 without one) */
} snug_step_stats;

typedef struct snug_step_def {
    snug_step_mode mode;
    snug_approx cutoff;           /* the answer for pair tests left at the budget's end: CONSERVATIVE or INDICATOR */
    double budget_us;             /* time for the pair tests, shared through one work queue; INFINITY = no limit.
                                     The broad phase always completes. 0: no pair test runs, so every candidate
                                     pair is an approximate hit at t = 0 (static mode: every pair whose root
                                     boxes overlap; the others are exact misses). The clock is read every 8 node
                                     pairs (static) or before each pair test (mixed, dynamic). */
    double (*clock_us)(void* user); /* time source in microseconds; NULL = no budget (the core has no clock) */
    void* clock_user;
    bool collect_pairs;           /* test every candidate pair to its end and keep the colliding ones for
                                     snug_step_get_pairs; without it a group's tests stop once its earliest contact
                                     is known */
    uint32_t internal_value;   /* set by snug_default_step_def(): marks a def made by it (do not set) */
} snug_step_def;

/* Static mode, conservative cutoff, unlimited budget, no clock, pairs not collected. */
snug_step_def snug_default_step_def(void);
/* Forget the registered motions. */
snug_status snug_step_begin(snug_ctx* ctx, snug_scene scene);
snug_status snug_step_move(snug_ctx* ctx, snug_scene scene, snug_body body, const snug_pose* pose, bool relative);
/* One result per registered group, in registration order; *count is the number of groups (BUFFER_TOO_SMALL if it
 * exceeds capacity). *pair_total (optional) gets the number of colliding pairs. Poses are not changed. */
snug_status snug_step_detect(snug_ctx* ctx, snug_scene scene, const snug_step_def* def, snug_contact* results,
                             uint32_t capacity, uint32_t* count, uint32_t* pair_total);
/* Move a registered group to its motion at t in [0,1] (0: stay, 1: the full motion); commit parents first. */
snug_status snug_step_commit(snug_ctx* ctx, snug_scene scene, snug_body group, float t);
/* The colliding body pairs of the last detect (approximate hits included), which ran with collect_pairs and after
 * which no motion was registered. Writes min(capacity, total) pairs; *total is always the full count. */
snug_status snug_step_get_pairs(snug_ctx* ctx, snug_scene scene, snug_body_pair* pairs, uint32_t capacity,
                                uint32_t* total);
snug_status snug_step_get_stats(snug_ctx* ctx, snug_scene scene, snug_step_stats* out);

/* (section end: scenes) */

/* ---------------------------------------------------------------------------------------------------------------
 * Placement: surfaces, labels, bindings and the mover (core/src/place)
 * ------------------------------------------------------------------------------------------------------------ */

/* Placement after IConS (../shared/research/seed-002-icons.md): meshes carry OFFER surfaces (where others may be
 * placed: a table top, a shelf board, a seat, the floor, a wall's front) and BINDING surfaces (what a body rests or
 * leans with: one polygon around a table's four feet, a lamp's base, a picture's back). An offer's normal points
 * out of its object, towards where bindings come from; a binding's normal points into its own object. A binding is
 * SATISFIED on an offer when both normals are the same direction, the two planes coincide, the binding polygon lies
 * inside the offer polygon (within the overhang) and the binding's label is <= the offer's in the scene's label
 * order. A satisfied binding is an edge of the binding graph from the supported body to its supporter; it
 * restricts the body's motion: one binding plane leaves sliding in the plane and turning about its normal, two
 * non-parallel planes leave their common line and no turn, three leave nothing.
 *
 * Polygons are convex (a non-convex region is several offers: the mover passes between adjacent coplanar offers),
 * counter-clockwise seen from the tip of the normal, at most SNUG_SURFACE_MAX_VERTICES vertices, in the mesh's
 * frame. Surfaces belong to the mesh (every body of the mesh has them); bindings belong to bodies. */

#define SNUG_SURFACE_MAX_VERTICES 32
#define SNUG_LABEL_MAX 64              /* labels per scene */
#define SNUG_LABEL_NAME_MAX 32         /* bytes per label name, terminator included */
#define SNUG_BINDINGS_MAX 4            /* satisfied bindings per body */
/* The placement range: move, bind, drop, insert and push-out keep every body of the group they move (the body and
 * its subtree) within +-SNUG_PLACE_RANGE times the radius of the group's smallest body (half its mesh box's
 * diagonal) from the origin, in each coordinate of its pose. Float poses resolve |x| * 2^-23 there, under a quarter
 * of the smallest skin the settings allow (SNUG_MIN_SKIN of a radius), so the gaps the mover keeps survive being
 * stored in float; farther out a group collapses onto itself (at 1e9 poses resolve 64 units). A metre-sized table
 * may go 2 km from the origin, a 10 cm cup 170 m. A move stops at the range as at an offer's edge
 * (SNUG_MOVE_CONTAINED); a move of a group that stands beyond it already, and a bind, drop or insert whose seat lies
 * beyond it, fail with SNUG_ERR_INVALID_ARGUMENT, changing nothing; push-out takes no push beyond it. */
#define SNUG_PLACE_RANGE 2048.0f
#define SNUG_MIN_SKIN 1e-3f

typedef uint32_t snug_label;           /* index into the scene's label table */

/* The default labels of every scene (a room; three.js convention y up), in this order, until
 * snug_scene_set_labels replaces them. Order: ON_STORE <= ON_WORKSPACE and ON_STORE <= ON_SEAT (a book goes on a
 * shelf, a table or a seat; a monitor only on a table; a cup never on the floor); every other label is only <=
 * itself. */
enum {
    SNUG_LABEL_ON_FLOOR = 0,           /* the floor's top; furniture feet; a rug binds and offers it */
    SNUG_LABEL_ON_WALL,                /* wall fronts; the backs of pictures, boards, shelves against a wall */
    SNUG_LABEL_ON_WORKSPACE,           /* table and desk tops; monitors */
    SNUG_LABEL_ON_STORE,               /* shelf boards; books, ornaments, table lamps */
    SNUG_LABEL_ON_SEAT,                /* chair and sofa seats */
    SNUG_LABEL_ON_CEILING,             /* the ceiling; pendant lamps */
    SNUG_LABEL_IN_FRONT_OF_TABLE,      /* a virtual strip in front of a table's side; a chair's front */
    SNUG_LABEL_DEFAULT_COUNT
};

typedef enum snug_surface_kind {
    SNUG_SURFACE_OFFER = 0,
    SNUG_SURFACE_BINDING,
    SNUG_SURFACE_KIND_COUNT
} snug_surface_kind;

typedef struct snug_surface {
    snug_surface_kind kind;
    snug_label label;
    float normal[3];                   /* unit, mesh frame */
    uint32_t vertex_count;             /* 3..SNUG_SURFACE_MAX_VERTICES */
    float vertices[SNUG_SURFACE_MAX_VERTICES][3];
} snug_surface;

/* Replace the mesh's surfaces (count 0 removes them). Each is checked: finite, a unit normal that agrees with the
 * winding, planar and convex within the mesh's tolerance, no repeated vertex; a bad one fails the call with its
 * index and what is wrong, and the mesh keeps its old surfaces. Labels are checked against a scene's table when
 * the mesh is placed there. */
snug_status snug_mesh_set_surfaces(snug_ctx* ctx, snug_mesh mesh, const snug_surface* surfaces, uint32_t count);
snug_status snug_mesh_get_surfaces(snug_ctx* ctx, snug_mesh mesh, snug_surface* surfaces, uint32_t capacity,
                                   uint32_t* total);

/* Surfaces found from a mesh's triangles alone (core/src/place/surface_find.c), for meshes nobody annotated. Units
 * are the mesh's; the size rules assume metres (the surfaces format, three.js y up). What is found:
 *  - OFFERS on upward planar regions (normal within max_tilt of up, triangles within flatness of one plane) of at
 *    least min_area, on the part with room above it: a part under the mesh itself closer than `clearance` (the
 *    strip of a seat under its back, a board inside a side panel) is not offered, a part with room under the mesh
 *    (a desk top under its shelf, the boards of a bookcase) is offered separately from the open part. Each offer is
 *    convex: a region that fills its convex hull is that hull, other regions (a top around a hole, an L) are cut
 *    into rectangles, so no offer covers a hole.
 *  - onWall OFFERS on large vertical planar regions of a big object (wall fronts), facing outward (open in front).
 *  - the RESTING binding: the convex hull of the vertices within `contact` of the lowest point, in the plane of the
 *    lowest point (a table's four feet give one polygon).
 *  - the BACK binding (onWall): when the vertical face at the object's extreme towards -forward is one flat region
 *    covering wall_fill of the object's silhouette (a bookcase's back, a picture's back) of an object at least half
 *    as tall as deep (a book lying down has no back), the hull of the vertices there, ending a little above the
 *    lowest point (IConS §7.3: no shared edge with the resting binding). A big panel (a wall slab) has wall offers
 *    instead.
 * Labels (IConS labels are functions; these are guesses from shape, documented so they can be overridden):
 *  - an object is BIG when its height or the square root of its footprint's area reaches big_size; big objects
 *    rest onFloor, small ones onStore;
 *  - offers of a big object at most a tenth of its footprint's diameter above its lowest point: onFloor (a floor
 *    slab, a rug); offers with room under the mesh above them: onStore (shelves, compartments); offers with a back
 *    rising from an edge (a vertical region at least half their height above the lowest point), in the lower 60 %
 *    of the object and at most big_size high: onSeat; open offers of a big object in its upper half covering half
 *    its footprint and at least big_size / 2 wide: onWorkspace (table and desk tops); every other offer: onStore;
 *  - wall offers need a big object and at least big_size height and big_size / 2 width.
 * The footprint is the convex hull of the mesh seen along up; the silhouette towards a horizontal direction is
 * height times the footprint's width across it. */
typedef struct snug_surface_find_def {
    float up[3];                       /* unit: the mesh frame's up */
    float forward[3];                  /* unit and perpendicular to up: the object's front (its back faces away), or
                                        * zero for no back binding */
    float max_tilt;                    /* radians: how far an offer's normal may lean from up, a wall's from level */
    float flatness;                    /* how far a region's triangles may lie off its plane, relative to the mesh
                                        * scale */
    float min_area;                    /* smallest offer region, relative to the footprint's area */
    float min_width;                   /* narrowest offer, in mesh units (a ledge narrower holds nothing) */
    float wall_fill;                   /* part of the silhouette a wall region or a back must cover */
    float clearance;                   /* room an offer needs above it inside the mesh, relative to the height */
    float contact;                     /* how far above the lowest point (or before the back's extreme) a vertex
                                        * still touches, relative to the height (depth) */
    float big_size;                    /* object size from which it counts as furniture, in mesh units (metres) */
    uint32_t internal_value;   /* set by snug_default_surface_find_def(): marks a def made by it (do not set) */
} snug_surface_find_def;

/* Up +y, forward +z, tilt 5 degrees, flatness 1e-3, min area 0.1, min width 0.05, wall fill 0.75, clearance 0.05,
 * contact 0.005, big size 0.6. */
snug_surface_find_def snug_default_surface_find_def(void);
/* Writes min(capacity, total) found surfaces, offers first (largest regions first), then the resting binding, then
 * the back binding; *total is always set (SNUG_ERR_BUFFER_TOO_SMALL when it exceeds capacity). Every surface passes
 * snug_mesh_set_surfaces' check; labels are the default label indices. Deterministic and independent of the
 * triangle order; bounded work (at most 64 planes of each kind, 64 x 64 probes per plane). Does not set the
 * surfaces on the mesh. */
snug_status snug_mesh_find_surfaces(snug_ctx* ctx, snug_mesh mesh, const snug_surface_find_def* def,
                                    snug_surface* out, uint32_t capacity, uint32_t* total);

/* Label table of a scene: `count` names (each < SNUG_LABEL_NAME_MAX bytes, distinct, non-empty) and the order
 * given as pairs (lesser, greater) of indices, closed transitively. A pair that would make two labels each <= the
 * other (a cycle) is SNUG_ERR_CYCLE; the table is then unchanged. Bindings whose labels no longer fit are not
 * broken: the consistency check reports them, and their bodies still rest in their binding planes. */
snug_status snug_scene_set_labels(snug_ctx* ctx, snug_scene scene, const char* const* names, uint32_t count,
                                  const uint32_t* order_pairs, uint32_t pair_count);
snug_status snug_scene_get_label_count(snug_ctx* ctx, snug_scene scene, uint32_t* count);
/* Name of a label (into name[SNUG_LABEL_NAME_MAX]) and the label of a name. */
snug_status snug_scene_get_label_name(snug_ctx* ctx, snug_scene scene, snug_label label, char* name);
snug_status snug_scene_find_label(snug_ctx* ctx, snug_scene scene, const char* name, snug_label* out);
/* May a binding with label `binding` rest on an offer with label `offer` (binding <= offer)? */
snug_status snug_scene_label_fits(snug_ctx* ctx, snug_scene scene, snug_label binding, snug_label offer,
                                  bool* fits);

typedef struct snug_place_def {
    float up[3];                       /* world up (unit); pseudo-gravity pulls along -up */
    float skin;                        /* gap the mover keeps between bodies that are not bound, relative to the
                                        * moving group's radius: [SNUG_MIN_SKIN, 0.1] */
    float overhang;                    /* how far a binding polygon may reach past its offer's edge, relative to the
                                        * binding polygon's radius (0.05: 5 %) */
    float snap_range;                  /* farthest plane distance a snap may move a body, relative to its radius */
    uint32_t max_slides;               /* contact planes the mover slides along in one call (1..8) */
    uint32_t internal_value;   /* set by snug_default_place_def(): marks a def made by it (do not set) */
} snug_place_def;

/* Up +y, skin 2e-3, overhang 0.05, snap range 2, 4 slides. */
snug_place_def snug_default_place_def(void);
/* The settings hold from the next call on. Bindings a smaller overhang leaves reaching too far past their offers
 * are not broken: the consistency check reports them (as after snug_scene_set_labels). */
snug_status snug_scene_set_place_def(snug_ctx* ctx, snug_scene scene, const snug_place_def* def);
snug_status snug_scene_get_place_def(snug_ctx* ctx, snug_scene scene, snug_place_def* out);

/* Orientation constraint (IConS §3.4): the body turns only so that its local direction `local` stays on the world
 * direction `world` (e.g. local up = world up: upright). Zero vectors remove it. The body is not moved: a body that
 * does not satisfy it is reported by the consistency check and turned upright by its next snap. */
snug_status snug_body_set_orientation(snug_ctx* ctx, snug_scene scene, snug_body body, const float local[3],
                                      const float world[3]);
/* The body's orientation constraint as set (unit vectors), or two zero vectors when it has none. */
snug_status snug_body_get_orientation(snug_ctx* ctx, snug_scene scene, snug_body body, float local[3],
                                      float world[3]);

typedef struct snug_binding {
    snug_body body;                    /* the supported body */
    uint32_t binding;                  /* index of the binding surface in its mesh's surfaces */
    snug_body supporter;
    uint32_t offer;                    /* index of the offer surface in the supporter's mesh's surfaces */
} snug_binding;

/* The body's satisfied bindings; *total is always set. */
snug_status snug_body_get_bindings(snug_ctx* ctx, snug_scene scene, snug_body body, snug_binding* out,
                                   uint32_t capacity, uint32_t* total);
/* Satisfy a binding: turn and move the body (with what it carries) the smallest way onto the offer, keeping the
 * binding polygon's centre where it projects (clamped into the offer). The body's other bindings stay where they
 * still hold there. Fails, changing nothing, when the labels do not fit, it would close a cycle, the polygon cannot be
 * contained, or the pose would overlap another body. */
snug_status snug_body_bind(snug_ctx* ctx, snug_scene scene, snug_body body, uint32_t binding, snug_body supporter,
                           uint32_t offer);
/* Restore bindings as they stand (from a file, an import): the body's binding records become `list` (its `body`
 * fields are ignored) without moving anything, and its parent becomes the supporter of the main one, as bind leaves
 * them. Each must hold where the bodies are now (labels fit, normals equal, planes together, polygon inside the
 * offer), no two may use the same binding surface, and no supporter may be carried by the body; otherwise the call
 * fails, changing nothing. Overlaps are not tested (the consistency check reports them). count 0 removes the
 * bindings without lifting the body. */
snug_status snug_body_set_bindings(snug_ctx* ctx, snug_scene scene, snug_body body, const snug_binding* list,
                                   uint32_t count);
/* Break every binding the body rests with (free mode, IConS Alg. 4) and lift it (with what it carries) a skin off
 * their planes, so that it floats clear of what it rested on. What rests on the body stays bound to it. Where the
 * lift would meet another body, or close in on one standing unbound on the body (or the body on it), the body stays
 * where it is, its bindings gone all the same. */
snug_status snug_body_unbind(snug_ctx* ctx, snug_scene scene, snug_body body);

typedef enum snug_place_mode {
    SNUG_PLACE_CONSTRAINED = 0,        /* bindings restrict the motion; offers are snapped to and re-seated on */
    SNUG_PLACE_FREE,                   /* bindings of the moved body are ignored and none is made; collisions and
                                        * orientation constraints still hold; the snap candidate is reported */
    SNUG_PLACE_MODE_COUNT
} snug_place_mode;

typedef enum snug_move_input {
    SNUG_MOVE_TARGET = 0,              /* target: the world pose the caller would like (a controller, a script) */
    SNUG_MOVE_POINTER,                 /* ray + grab: keep the grabbed point under a pointer ray, on the plane of the
                                        * body's binding (or a horizontal plane through the grab point) */
    SNUG_MOVE_INPUT_COUNT
} snug_move_input;

typedef struct snug_move_def {
    snug_place_mode mode;
    snug_move_input input;
    snug_pose target;                  /* SNUG_MOVE_TARGET */
    snug_ray ray;                      /* SNUG_MOVE_POINTER: the pointer ray (world); also ranks offers under it */
    float grab[3];                     /* SNUG_MOVE_POINTER: the grabbed point in the body's frame */
    float turn;                        /* radians about the allowed axis, added this call (both inputs); at most
                                        * a whole turn (2 pi) either way */
    float angle_step;                  /* > 0: the turn ends on a multiple of this angle about the axis */
    uint32_t internal_value;   /* set by snug_default_move_def(): marks a def made by it (do not set) */
} snug_move_def;

/* Constrained, target input at identity, no turn, free angles. */
snug_move_def snug_default_move_def(void);

/* Why a move did not reach its target (bits; SNUG_MOVE_REACHED alone when it did). */
enum {
    SNUG_MOVE_REACHED = 0,
    SNUG_MOVE_BLOCKED = 1u << 0,       /* a body stopped the motion (blockers) */
    SNUG_MOVE_CONTAINED = 1u << 1,     /* an offer's edge stopped a binding polygon, or the placement range the
                                        * group (SNUG_PLACE_RANGE) */
    SNUG_MOVE_CONSTRAINED = 1u << 2,   /* bindings or orientation removed part of the motion or turn */
    SNUG_MOVE_TURN_BLOCKED = 1u << 3,  /* a body stopped the turn */
    SNUG_MOVE_TURN_LOCKED = 1u << 4,   /* no turn is allowed (two or more binding planes, or orientation) */
    SNUG_MOVE_SNAPPED = 1u << 5,       /* the body was set onto an offer (a new binding) */
    SNUG_MOVE_RESEATED = 1u << 6,      /* the body moved from its offer onto another one under the pointer */
    SNUG_MOVE_SNAP_BLOCKED = 1u << 7,  /* a snap candidate exists but its pose would overlap (candidate is set) */
    SNUG_MOVE_STARTED_OVERLAPPING = 1u << 8 /* the group overlapped something before the move, which was let go
                                             * (see push_out); a body it only touched does not count */
};

#define SNUG_MOVE_BLOCKERS_MAX 8

typedef struct snug_blocker {
    snug_body body;                    /* what blocked */
    snug_body by;                      /* the member of the moving group it touched */
    float point[3];                    /* world contact point */
    float normal[3];                   /* unit, pointing from the blocker towards the group */
} snug_blocker;

typedef struct snug_move_result {
    snug_pose pose;                    /* the body's world pose after the call (committed) */
    uint32_t reasons;                  /* SNUG_MOVE_* bits */
    uint32_t binding_count;
    snug_binding bindings[SNUG_BINDINGS_MAX]; /* the body's satisfied bindings after the call */
    bool has_candidate;                /* a snap the body could take (free mode, or blocked) */
    snug_binding candidate;
    snug_pose candidate_pose;          /* the body's pose on the candidate (a ghost for the preview) */
    uint32_t blocker_count;
    snug_blocker blockers[SNUG_MOVE_BLOCKERS_MAX];
    uint32_t allowed_axes;             /* translation degrees of freedom left (0..3) */
    float turn_axis[3];                /* the axis a turn may use (zero when none) */
} snug_move_result;

/* One call per pointer event (or controller frame): move the body, with the bodies in its subtree, towards the
 * target as far as bindings, offers' edges and other bodies allow, sliding along what blocks it, then (constrained
 * mode) snap or re-seat. Never leaves the group overlapping a body it did not start overlapping. A body the group
 * only touches where the call starts (flush, or within the meshes' tolerance) it may slide along or leave but not
 * move into; one it overlaps is let go, so that the group is never trapped (SNUG_MOVE_STARTED_OVERLAPPING). */
snug_status snug_body_move(snug_ctx* ctx, snug_scene scene, snug_body body, const snug_move_def* def,
                           snug_move_result* result);

/* The smallest translation found that separates the body (with its subtree) from every body it overlaps, other
 * than its supporters, searched along the axes and their diagonals: *moved is whether it moved. A group resting on
 * bodies outside it keeps its bindings: it is pushed only within their planes (along their common line for two),
 * its binding polygons staying on their offers; what rests on it with a second binding lets go when its support
 * moves away, as after a move. When no push frees the body (boxed in; bound: within its planes; or only beyond the
 * placement range) the call fails with SNUG_ERR_INVALID_ARGUMENT, changing nothing: unbind a bound body to push it
 * out in any direction. */
snug_status snug_body_push_out(snug_ctx* ctx, snug_scene scene, snug_body body, float translation[3], bool* moved);

typedef enum snug_violation_kind {
    SNUG_VIOLATION_OVERLAP = 0,        /* two bodies interpenetrate beyond the tolerance */
    SNUG_VIOLATION_PLANE,              /* a binding's planes are apart or not parallel */
    SNUG_VIOLATION_CONTAINMENT,        /* a binding polygon reaches past its offer by more than the overhang */
    SNUG_VIOLATION_LABEL,              /* a binding's label does not fit its offer's */
    SNUG_VIOLATION_CYCLE,              /* the binding graph has a cycle through this body */
    SNUG_VIOLATION_ORIENTATION,        /* an orientation constraint does not hold */
    SNUG_VIOLATION_STALE,              /* a binding names a body, mesh or surface that no longer exists */
    SNUG_VIOLATION_KIND_COUNT
} snug_violation_kind;

typedef struct snug_violation {
    snug_violation_kind kind;
    snug_body body, other;             /* other: the second body, or the supporter (0 when none) */
    uint32_t binding;                  /* binding index in the body's list, or SNUG_NO_HIT */
    float amount;                      /* distance, angle (radians) or depth found */
} snug_violation;

/* The consistency check (IConS §3.8): every binding valid (planes, containment, labels, acyclic graph),
 * orientation constraints held, and no two bodies interpenetrating beyond the tolerance (bound pairs may touch in
 * their binding plane). Writes min(capacity, total) violations; *total is always the full count (0: consistent). */
snug_status snug_scene_check(snug_ctx* ctx, snug_scene scene, snug_violation* out, uint32_t capacity,
                             uint32_t* total);

/* (section end: placement) */

/* ---------------------------------------------------------------------------------------------------------------
 * Placement II: the binding graph, gravity, insert, delete, snapshots (undo) and scene files (core/src/place)
 * ------------------------------------------------------------------------------------------------------------ */

/* The binding graph has an edge from each body to each of its supporters. What moves with a body is its subtree
 * in the scene hierarchy, and the hierarchy follows the graph: a body's parent is the supporter of its main binding
 * (the one whose offer faces most nearly up). A body resting on several supporters (a board on two blocks) is
 * carried by that one only; its other bindings let go when their supporter moves away from under it. A binding
 * that would close a cycle is refused (SNUG_ERR_CYCLE). */
/* Direct supporters / direct dependents / the group (the body and everything that moves with it, pre-order). */
snug_status snug_body_get_supporters(snug_ctx* ctx, snug_scene scene, snug_body body, snug_body* out,
                                     uint32_t capacity, uint32_t* total);
snug_status snug_body_get_dependents(snug_ctx* ctx, snug_scene scene, snug_body body, snug_body* out,
                                     uint32_t capacity, uint32_t* total);
snug_status snug_body_get_group(snug_ctx* ctx, snug_scene scene, snug_body body, snug_body* out, uint32_t capacity,
                                uint32_t* total);

typedef enum snug_drop_outcome {
    SNUG_DROP_LANDED = 0,              /* it fell and now rests on a compatible offer (bound) */
    SNUG_DROP_RESTING,                 /* it already rests (bound) with a binding facing up: nothing to do */
    SNUG_DROP_NOTHING_BELOW,           /* no compatible offer below: it stays where it is */
    SNUG_DROP_BLOCKED,                 /* something it may not rest on is in the way (a couch over a chair): stays */
    SNUG_DROP_OUTCOME_COUNT
} snug_drop_outcome;

/* Pseudo-gravity: let the body (with what it carries) fall along -up onto the nearest compatible offer below whose
 * prism holds one of its binding surfaces, and bind it there. An incompatible body in the way is not a rest: the
 * body stays and *blocker names it. landed (optional) gets the new binding. */
snug_status snug_body_drop(snug_ctx* ctx, snug_scene scene, snug_body body, snug_drop_outcome* outcome,
                           snug_binding* landed, snug_body* blocker);

typedef struct snug_insert_def {
    snug_body_def body;                /* mesh, flags, filter; its pose gives the turn about up to keep */
    snug_ray ray;                      /* the pointer: the body lands on the first offer it hits that fits */
    uint32_t internal_value;   /* set by snug_default_insert_def(): marks a def made by it (do not set) */
} snug_insert_def;

snug_insert_def snug_default_insert_def(void);
/* Insert without overlap: a new body goes onto the compatible offer under the pointer, at the free snapped pose
 * nearest the hit (searching outward over the offer), bound there. Fails with a clear error, creating nothing, when
 * the pointer hits no offer the body may rest on, or the offer has no free room for it (full). */
snug_status snug_scene_insert(snug_ctx* ctx, snug_scene scene, const snug_insert_def* def, snug_body* out,
                              snug_binding* bound);

typedef enum snug_delete_policy {
    SNUG_DELETE_DROP_DEPENDENTS = 0,   /* what rests on it falls to the next compatible offer below (pseudo-gravity);
                                        * what finds none is deleted with it (and listed) */
    SNUG_DELETE_WITH_DEPENDENTS,       /* what rests on it, transitively, is deleted with it */
    SNUG_DELETE_POLICY_COUNT
} snug_delete_policy;

/* Delete a body with its policy. deleted (optional) gets the first `capacity` of the bodies destroyed, the body
 * first; *total is their count. Nothing is left floating: a dependent that cannot land is deleted and listed. A
 * failed delete changes nothing. */
snug_status snug_scene_delete(snug_ctx* ctx, snug_scene scene, snug_body body, snug_delete_policy policy,
                              snug_body* deleted, uint32_t capacity, uint32_t* total);

/* Snapshots for undo: the whole state of a scene's bodies and placement (handles, meshes, parents, local and world
 * poses, flags, filters, ignore pairs, bindings, orientation, labels, settings, the handle pool), written to buffer
 * (NULL: only *size). Restoring one gives back that state bit for bit, with the same body handles; meshes are
 * referenced, not copied (keep them alive while a snapshot may be restored), and so are their surfaces: bindings to
 * surfaces replaced since (snug_mesh_set_surfaces) are dropped, as they are from the scene itself. A buffer that is
 * not a snapshot of this scene is rejected and the scene stays as it was. */
snug_status snug_scene_snapshot(snug_ctx* ctx, snug_scene scene, void* buffer, size_t capacity, size_t* size);
snug_status snug_scene_restore(snug_ctx* ctx, snug_scene scene, const void* snapshot, size_t size);

/* Scene files: a versioned, checksummed file of the whole placement scene: every mesh its bodies use with its
 * surfaces and its hierarchy (embedded blob), labels and their order, settings, bodies (mesh, parent, local pose,
 * flags, filter, orientation, user data) and bindings. Deterministic: save -> load -> save is byte-identical. */
snug_status snug_scene_save(snug_ctx* ctx, snug_scene scene, void* buffer, size_t capacity, size_t* size);
/* Load a scene file into the scene, replacing its bodies and placement state; the file's meshes become new meshes of
 * the context. Atomic: a truncated, corrupt, foreign, newer-version or inconsistent file (one that fails the
 * consistency check) is rejected with a clear error and the scene stays exactly as it was. bodies (optional) gets the
 * new body handles in file order, meshes the new mesh handles in file order (capacities checked first; *_total
 * always set). */
snug_status snug_scene_load(snug_ctx* ctx, snug_scene scene, const void* data, size_t size, snug_body* bodies,
                            uint32_t body_capacity, uint32_t* body_total, snug_mesh* meshes, uint32_t mesh_capacity,
                            uint32_t* mesh_total);

/* (section end: placement II) */

#ifdef __cplusplus
}
#endif

#endif /* SNUG_H */
