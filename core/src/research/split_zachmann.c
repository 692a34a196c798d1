/* Modified Zachmann (seed 000 §3.7.6): as modified Gottschalk, but the box is the node's AABB viewed as a Box
 * (identity axes), so the seed points cut its longest world axes. */
#include "research/research.h"

int snug_split_zachmann(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                        snug_aabb* boxes) {
    if (count < 2) return 0;
    snug_aabb box;
    snug_prims_bounds(prims, count, &box);
    vec3 seeds[SNUG_MAX_BRANCHING];
    snug_split_box_seed_points(&box, degree, seeds);
    return snug_split_voronoi(in, prims, count, seeds, degree, sizes, boxes);
}
