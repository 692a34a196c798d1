/* Modified Zachmann (seed 000 §3.7.6): as modified Gottschalk, but the box is the node's AABB viewed as a Box
 * (identity axes), so the seed points cut its longest world axes. */
#include "split.h"

int snug_split_zachmann(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                        snug_aabb* boxes) {
    if (count < 2) return 0;
    snug_aabb box;
    snug_prims_bounds(prims, count, &box);
    vec3 c, r, seeds[SNUG_MAX_BRANCHING];
    glm_vec3_add(box.min, box.max, c);
    glm_vec3_scale(c, 0.5f, c);
    glm_vec3_sub(box.max, box.min, r);
    glm_vec3_scale(r, 0.5f, r);
    mat3 axes;
    glm_mat3_identity(axes);
    snug_split_seed_points(c, axes, r, degree, seeds);
    return snug_split_voronoi(in, prims, count, seeds, degree, sizes, boxes);
}
