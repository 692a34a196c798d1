/* Prints the wasm32 layout of the public structs as JSON, so the JS API's hand-written offsets (wasm/layout.js)
 * are checked against the compiler instead of trusted. Built and run by tests/js/layout.test.mjs. */
#include <stddef.h>
#include <stdio.h>

#include "snug.h"

#define F(type, field) printf("\"%s\":%zu,", #field, offsetof(type, field))
#define END(type) printf("\"size\":%zu}", sizeof(type))

int main(void) {
    printf("{\"pose\":{");
    F(snug_pose, q); F(snug_pose, p); END(snug_pose);
    printf(",\"bvh_def\":{");
    F(snug_bvh_def, bv_type); F(snug_bvh_def, splitter); F(snug_bvh_def, branching); F(snug_bvh_def, max_branching);
    F(snug_bvh_def, alpha); F(snug_bvh_def, small_node); F(snug_bvh_def, leaf_size); F(snug_bvh_def, max_depth);
    F(snug_bvh_def, measure); F(snug_bvh_def, sah_bins); F(snug_bvh_def, bb_max_faces); F(snug_bvh_def, bottom_up);
    F(snug_bvh_def, obb_refine); F(snug_bvh_def, hausdorff); END(snug_bvh_def);
    printf(",\"mesh_def\":{");
    F(snug_mesh_def, positions); F(snug_mesh_def, vertex_count); F(snug_mesh_def, indices);
    F(snug_mesh_def, triangle_count); F(snug_mesh_def, weld); F(snug_mesh_def, weld_tolerance); F(snug_mesh_def, bvh);
    END(snug_mesh_def);
    printf(",\"mesh_info\":{");
    F(snug_mesh_info, vertex_count); F(snug_mesh_info, triangle_count); F(snug_mesh_info, degenerate_count);
    F(snug_mesh_info, edge_count); F(snug_mesh_info, boundary_edge_count); F(snug_mesh_info, nonmanifold_edge_count);
    F(snug_mesh_info, node_count); F(snug_mesh_info, leaf_count); F(snug_mesh_info, depth); F(snug_mesh_info, bv_type);
    F(snug_mesh_info, aabb_min); F(snug_mesh_info, aabb_max); F(snug_mesh_info, scale); F(snug_mesh_info, tolerance);
    F(snug_mesh_info, closed); F(snug_mesh_info, memory_bytes); END(snug_mesh_info);
    printf(",\"bvh_quality\":{");
    F(snug_bvh_quality, volume_sum); F(snug_bvh_quality, surface_sum); F(snug_bvh_quality, diameter_sum);
    F(snug_bvh_quality, hausdorff_max); F(snug_bvh_quality, sah_cost); F(snug_bvh_quality, nodes_per_type);
    END(snug_bvh_quality);
    printf(",\"query_stats\":{");
    F(snug_query_stats, bv_tests); F(snug_query_stats, primitive_tests); F(snug_query_stats, nodes_visited);
    END(snug_query_stats);
    printf(",\"tri_pair\":{");
    F(snug_tri_pair, tri_a); F(snug_tri_pair, tri_b); END(snug_tri_pair);
    printf(",\"distance_result\":{");
    F(snug_distance_result, distance); F(snug_distance_result, point_a); F(snug_distance_result, point_b);
    F(snug_distance_result, tri_a); F(snug_distance_result, tri_b); END(snug_distance_result);
    printf(",\"ray\":{");
    F(snug_ray, origin); F(snug_ray, dir); F(snug_ray, tmax); END(snug_ray);
    printf(",\"ray_hit\":{");
    F(snug_ray_hit, tri); F(snug_ray_hit, t); F(snug_ray_hit, point); F(snug_ray_hit, normal); END(snug_ray_hit);
    printf(",\"point_result\":{");
    F(snug_point_result, distance); F(snug_point_result, point); F(snug_point_result, tri); END(snug_point_result);
    printf(",\"motion\":{");
    F(snug_motion, start); F(snug_motion, end); F(snug_motion, key_times); F(snug_motion, key_poses);
    F(snug_motion, key_count); END(snug_motion);
    printf(",\"toi_def\":{");
    F(snug_toi_def, mode); F(snug_toi_def, root_finder); F(snug_toi_def, sampling_step); F(snug_toi_def, max_iterations);
    F(snug_toi_def, tolerance); F(snug_toi_def, daasd_slabs); END(snug_toi_def);
    printf(",\"toi_result\":{");
    F(snug_toi_result, hit); F(snug_toi_result, t); F(snug_toi_result, safe_t); F(snug_toi_result, feature);
    F(snug_toi_result, tri_a); F(snug_toi_result, tri_b); F(snug_toi_result, feature_a); F(snug_toi_result, feature_b);
    F(snug_toi_result, point); F(snug_toi_result, normal); END(snug_toi_result);
    printf(",\"body_def\":{");
    F(snug_body_def, mesh); F(snug_body_def, parent); F(snug_body_def, pose); F(snug_body_def, is_static);
    F(snug_body_def, enabled); F(snug_body_def, layer); F(snug_body_def, mask); F(snug_body_def, user_data);
    END(snug_body_def);
    printf(",\"body_info\":{");
    F(snug_body_info, mesh); F(snug_body_info, parent); F(snug_body_info, child_count); F(snug_body_info, is_static);
    F(snug_body_info, enabled); F(snug_body_info, layer); F(snug_body_info, mask); F(snug_body_info, user_data);
    F(snug_body_info, aabb_min); F(snug_body_info, aabb_max); END(snug_body_info);
    printf(",\"scene_hit\":{");
    F(snug_scene_hit, body); F(snug_scene_hit, tri); F(snug_scene_hit, t); F(snug_scene_hit, point);
    F(snug_scene_hit, normal); END(snug_scene_hit);
    printf(",\"contact\":{");
    F(snug_contact, group); F(snug_contact, hit); F(snug_contact, approx); F(snug_contact, t); F(snug_contact, body_a);
    F(snug_contact, body_b); F(snug_contact, feature); F(snug_contact, tri_a); F(snug_contact, tri_b);
    F(snug_contact, feature_a); F(snug_contact, feature_b); F(snug_contact, point);
    F(snug_contact, normal); F(snug_contact, distance_bound); END(snug_contact);
    printf(",\"step_stats\":{");
    F(snug_step_stats, groups); F(snug_step_stats, moved_bodies); F(snug_step_stats, broadphase_pairs);
    F(snug_step_stats, finished_pairs); F(snug_step_stats, unfinished_pairs); F(snug_step_stats, bv_tests);
    F(snug_step_stats, primitive_tests); F(snug_step_stats, time_us); END(snug_step_stats);
    printf(",\"step_def\":{");
    F(snug_step_def, mode); F(snug_step_def, cutoff); F(snug_step_def, budget_us); F(snug_step_def, clock_us);
    F(snug_step_def, clock_user); F(snug_step_def, pairs); F(snug_step_def, pair_capacity); END(snug_step_def);
    printf(",\"surface\":{");
    F(snug_surface, kind); F(snug_surface, label); F(snug_surface, normal); F(snug_surface, vertex_count);
    F(snug_surface, vertices); END(snug_surface);
    printf(",\"place_def\":{");
    F(snug_place_def, up); F(snug_place_def, skin); F(snug_place_def, overhang); F(snug_place_def, snap_range);
    F(snug_place_def, max_slides); F(snug_place_def, cookie); END(snug_place_def);
    printf(",\"binding\":{");
    F(snug_binding, body); F(snug_binding, binding); F(snug_binding, supporter); F(snug_binding, offer); END(snug_binding);
    printf(",\"move_def\":{");
    F(snug_move_def, mode); F(snug_move_def, input); F(snug_move_def, target); F(snug_move_def, ray);
    F(snug_move_def, grab); F(snug_move_def, turn); F(snug_move_def, angle_step); F(snug_move_def, cookie);
    END(snug_move_def);
    printf(",\"blocker\":{");
    F(snug_blocker, body); F(snug_blocker, by); F(snug_blocker, point); F(snug_blocker, normal); END(snug_blocker);
    printf(",\"move_result\":{");
    F(snug_move_result, pose); F(snug_move_result, reasons); F(snug_move_result, binding_count);
    F(snug_move_result, bindings); F(snug_move_result, has_candidate); F(snug_move_result, candidate);
    F(snug_move_result, candidate_pose); F(snug_move_result, blocker_count); F(snug_move_result, blockers);
    F(snug_move_result, allowed_axes); F(snug_move_result, turn_axis); END(snug_move_result);
    printf(",\"violation\":{");
    F(snug_violation, kind); F(snug_violation, body); F(snug_violation, other); F(snug_violation, binding);
    F(snug_violation, amount); END(snug_violation);
    printf(",\"insert_def\":{");
    F(snug_insert_def, body); F(snug_insert_def, ray); F(snug_insert_def, cookie); END(snug_insert_def);
    printf(",\"surface_find_def\":{");
    F(snug_surface_find_def, up); F(snug_surface_find_def, forward); F(snug_surface_find_def, max_tilt);
    F(snug_surface_find_def, flatness); F(snug_surface_find_def, min_area); F(snug_surface_find_def, min_width);
    F(snug_surface_find_def, wall_fill); F(snug_surface_find_def, clearance); F(snug_surface_find_def, contact);
    F(snug_surface_find_def, big_size); F(snug_surface_find_def, cookie); END(snug_surface_find_def);
    printf("}\n");
    return 0;
}
