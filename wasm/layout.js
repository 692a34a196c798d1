// Byte layouts of the public C structs in wasm32 (pointers and size_t are 4 bytes, bool 1, enums 4).
// tests/js/layout.test.mjs compiles wasm/layout_probe.c with emcc and checks every number here against
// offsetof/sizeof, so a change in core/include/snug.h that is not mirrored here fails the JS tests.

export const STATUS_NAMES = [
  'SNUG_OK',
  'SNUG_ERR_INVALID_ARGUMENT',
  'SNUG_ERR_NOT_FINITE',
  'SNUG_ERR_INDEX_RANGE',
  'SNUG_ERR_EMPTY',
  'SNUG_ERR_STALE_HANDLE',
  'SNUG_ERR_OUT_OF_MEMORY',
  'SNUG_ERR_BLOB_TRUNCATED',
  'SNUG_ERR_BLOB_FOREIGN',
  'SNUG_ERR_BLOB_VERSION',
  'SNUG_ERR_BLOB_CORRUPT',
  'SNUG_ERR_BUFFER_TOO_SMALL',
  'SNUG_ERR_NOT_CLOSED',
  'SNUG_ERR_CYCLE',
];

export const BV_TYPES = ['sphere', 'aabb', 'obb', 'kdop14', 'kdop18', 'kdop26', 'mixed'];
export const SPLITTERS = ['median', 'sah', 'gottschalk', 'zachmann', 'kcenter', 'kmeans', 'greedy', 'branch-bound'];
export const MEASURES = ['volume', 'surface', 'diameter', 'hausdorff'];
export const TRAVERSALS = ['simultaneous', 'one-sided', 'hybrid'];

export const LAYOUT = {
  pose: { size: 28, q: 0, p: 16 },
  bvh_def: {
    size: 48, bv_type: 0, splitter: 4, branching: 8, max_branching: 12, alpha: 16, small_node: 20, leaf_size: 24,
    max_depth: 28, measure: 32, sah_bins: 36, bb_max_faces: 40, bottom_up: 44, obb_refine: 45, hausdorff: 46,
  },
  mesh_def: {
    size: 72, positions: 0, vertex_count: 4, indices: 8, triangle_count: 12, weld: 16, weld_tolerance: 20, bvh: 24,
  },
  mesh_info: {
    size: 80, vertex_count: 0, triangle_count: 4, degenerate_count: 8, edge_count: 12, boundary_edge_count: 16,
    nonmanifold_edge_count: 20, node_count: 24, leaf_count: 28, depth: 32, bv_type: 36, aabb_min: 40, aabb_max: 52,
    scale: 64, tolerance: 68, closed: 72, memory_bytes: 76,
  },
  bvh_quality: {
    size: 64, volume_sum: 0, surface_sum: 8, diameter_sum: 16, hausdorff_max: 24, sah_cost: 32, nodes_per_type: 40,
  },
  query_stats: { size: 304, bv_tests: 0, primitive_tests: 288, nodes_visited: 296 },
  tri_pair: { size: 8, tri_a: 0, tri_b: 4 },
  distance_result: { size: 36, distance: 0, point_a: 4, point_b: 16, tri_a: 28, tri_b: 32 },
  ray: { size: 28, origin: 0, dir: 12, tmax: 24 },
  ray_hit: { size: 32, tri: 0, t: 4, point: 8, normal: 20 },
  point_result: { size: 20, distance: 0, point: 4, tri: 16 },
  motion: { size: 68, start: 0, end: 28, key_times: 56, key_poses: 60, key_count: 64 },
  toi_def: { size: 24, mode: 0, root_finder: 4, sampling_step: 8, max_iterations: 12, tolerance: 16, daasd_slabs: 20 },
  toi_result: {
    size: 56, hit: 0, t: 4, safe_t: 8, feature: 12, tri_a: 16, tri_b: 20, feature_a: 24, feature_b: 28, point: 32,
    normal: 44,
  },
  body_def: { size: 56, mesh: 0, parent: 4, pose: 8, is_static: 36, enabled: 37, layer: 40, mask: 44, user_data: 48 },
  body_info: {
    size: 56, mesh: 0, parent: 4, child_count: 8, is_static: 12, enabled: 13, layer: 16, mask: 20, user_data: 24,
    aabb_min: 32, aabb_max: 44,
  },
  scene_hit: { size: 36, body: 0, tri: 4, t: 8, point: 12, normal: 24 },
  contact: {
    size: 72, group: 0, hit: 4, approx: 8, t: 12, body_a: 16, body_b: 20, feature: 24, tri_a: 28, tri_b: 32,
    feature_a: 36, feature_b: 40, point: 44, normal: 56, distance_bound: 68,
  },
  step_stats: {
    size: 48, groups: 0, moved_bodies: 4, broadphase_pairs: 8, finished_pairs: 12, unfinished_pairs: 16, bv_tests: 24,
    primitive_tests: 32, time_us: 40,
  },
  step_def: { size: 32, mode: 0, cutoff: 4, budget_us: 8, clock_us: 16, clock_user: 20, pairs: 24, pair_capacity: 28 },
  surface: { size: 408, kind: 0, label: 4, normal: 8, vertex_count: 20, vertices: 24 },
  place_def: { size: 32, up: 0, skin: 12, overhang: 16, snap_range: 20, max_slides: 24, cookie: 28 },
  binding: { size: 16, body: 0, binding: 4, supporter: 8, offer: 12 },
  move_def: { size: 88, mode: 0, input: 4, target: 8, ray: 36, grab: 64, turn: 76, angle_step: 80, cookie: 84 },
  blocker: { size: 32, body: 0, by: 4, point: 8, normal: 20 },
  move_result: {
    size: 424, pose: 0, reasons: 28, binding_count: 32, bindings: 36, has_candidate: 100, candidate: 104,
    candidate_pose: 120, blocker_count: 148, blockers: 152, allowed_axes: 408, turn_axis: 412,
  },
  violation: { size: 20, kind: 0, body: 4, other: 8, binding: 12, amount: 16 },
  insert_def: { size: 88, body: 0, ray: 56, cookie: 84 },
  surface_find_def: {
    size: 60, up: 0, forward: 12, max_tilt: 24, flatness: 28, min_area: 32, min_width: 36, wall_fill: 40, clearance: 44,
    contact: 48, big_size: 52, cookie: 56,
  },
};
