/* Heuristic with intermediate optimisation (seed 000 §3.7.4, Fig. 3.8): seed d parts with one face each (the
 * faces nearest to the Table 3.1 points in the node's AABB, initial-partition option 4), then insert the other
 * faces in random order, each into the part whose BV grows the node-set quality G least. The growing BVs are
 * AABBs (exact incremental update); other types are fitted to the final parts by the builder. */
#include "research/research.h"

#include <math.h>

static void grow(snug_aabb* out, const snug_aabb* box, const snug_prim* p) {
    glm_vec3_minv((float*)box->min, (float*)p->min, out->min);
    glm_vec3_maxv((float*)box->max, (float*)p->max, out->max);
}

int snug_split_greedy(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                      snug_aabb* boxes) {
    if (count < 2) return 0;
    if ((uint32_t)degree > count) degree = (int)count;
    snug_measure measure = in->def->measure == SNUG_MEASURE_HAUSDORFF ? SNUG_MEASURE_SURFACE : in->def->measure;
    snug_aabb node, part[SNUG_MAX_BRANCHING];
    snug_prims_bounds(prims, count, &node);
    vec3 seeds[SNUG_MAX_BRANCHING];
    snug_split_box_seed_points(&node, degree, seeds);
    const uint32_t unassigned = 0xffffffffu;
    for (uint32_t k = 0; k < count; k++) prims[k].label = unassigned;
    for (int i = 0; i < degree; i++) {
        /* nearest still-unassigned face to seed i (distinct faces even when seeds share a nearest face) */
        uint32_t best = unassigned;
        float bd = INFINITY;
        for (uint32_t k = 0; k < count; k++) {
            if (prims[k].label != unassigned) continue;
            vec3 m;
            snug_split_mid(in, prims[k].id, m);
            float d = glm_vec3_distance2(m, seeds[i]);
            if (d < bd) {
                bd = d;
                best = k;
            }
        }
        prims[best].label = (uint32_t)i;
        glm_vec3_copy(prims[best].min, part[i].min);
        glm_vec3_copy(prims[best].max, part[i].max);
    }
    /* random insertion order: a shuffled index list */
    uint32_t* order = in->ids;
    for (uint32_t k = 0; k < count; k++) order[k] = k;
    for (uint32_t k = count - 1; k > 0; k--) {
        uint32_t j = snug_split_random(in, k + 1), t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
    for (uint32_t o = 0; o < count; o++) {
        snug_prim* p = &prims[order[o]];
        if (p->label != unassigned) continue;
        int best = 0;
        double best_gain = INFINITY, best_tie = INFINITY;
        snug_aabb best_box = part[0];
        for (int i = 0; i < degree; i++) {
            snug_aabb g;
            grow(&g, &part[i], p);
            /* G is the mean over the parts, so the part with the least growth gives the least G */
            double gain = snug_split_aabb_measure(&g, measure) - snug_split_aabb_measure(&part[i], measure);
            double tie = snug_split_aabb_measure(&g, SNUG_MEASURE_SURFACE);
            if (gain < best_gain || (gain == best_gain && tie < best_tie)) {
                best_gain = gain;
                best_tie = tie;
                best = i;
                best_box = g;
            }
        }
        p->label = (uint32_t)best;
        part[best] = best_box;
    }
    return snug_split_by_label(in, prims, count, degree, sizes, boxes);
}
