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
    printf("}\n");
    return 0;
}
