/* Modified Gottschalk (seed 000 §3.7.5): the Table 3.1 seed points in the node's fitted OBB, each face to the
 * Voronoi region of the nearest seed by its midpoint; degree 2..6. Empty regions are dropped. */
#include "split.h"

int snug_split_gottschalk(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                          snug_aabb* boxes) {
    if (count < 2) return 0;
    for (uint32_t k = 0; k < count; k++) in->ids[k] = prims[k].id;
    snug_tri_set set = {in->positions, in->tris, in->ids, 0, count};
    snug_obb box;
    snug_obb_fit(&set, in->def->obb_refine, &box);
    vec3 seeds[SNUG_MAX_BRANCHING];
    snug_split_seed_points(box.c, box.axes, box.e, degree, seeds);
    return snug_split_voronoi(in, prims, count, seeds, degree, sizes, boxes);
}
