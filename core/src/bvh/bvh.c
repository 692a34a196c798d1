/* Hierarchy upkeep: free, refit, per-node BV access, slot ranges, the BV test-cost table, traversal costs,
 * quality measures and memory. */
#include "bvh/bvh.h"

#include <math.h>
#include <string.h>

void snug_bvh_free(snug_ctx* ctx, snug_bvh* bvh) {
    snug_free(ctx, bvh->nodes);
    snug_free(ctx, bvh->spheres);
    snug_free(ctx, bvh->obbs);
    snug_free(ctx, bvh->kdops);
    snug_free(ctx, bvh->hausdorff);
    snug_free(ctx, bvh->costs);
    memset(bvh, 0, sizeof *bvh);
}

/* Relative cost of one overlap test per type: the mean over partner types of the pair-test cost, in units of
 * an AABB-AABB test, from the operation counts of the tests in bv_overlap.c (sphere: one distance; AABB: 6
 * compares, rotated partner adds a 3x3 transform; OBB: up to 15 axes; k-DOP: k/2 slabs with projection).
 * Used as G_collision (seed 000 §3.4.3) for MIXED trees and as the expansion cost ce of the hybrid traversal.
 * Calibrate against the benchmark's measured ns per test when those exist. */
const float snug_bv_test_costs[SNUG_BV_TYPE_COUNT] = {
    [SNUG_BV_SPHERE] = 0.8f, [SNUG_BV_AABB] = 1.0f, [SNUG_BV_OBB] = 2.5f,
    [SNUG_BV_KDOP14] = 1.8f, [SNUG_BV_KDOP18] = 2.2f, [SNUG_BV_KDOP26] = 3.0f,
};

void snug_bvh_fill_costs(snug_bvh* bvh) {
    for (uint32_t i = 0; i < bvh->node_count; i++) snug_bvh_fill_node_cost(bvh, i);
}

void snug_bvh_node_range(const snug_bvh* bvh, uint32_t node, uint32_t* first, uint32_t* count) {
    uint32_t lo = node, hi = node;
    while (SNUG_NODE_CHILDREN(bvh->nodes[lo].info)) lo = bvh->nodes[lo].first;
    while (SNUG_NODE_CHILDREN(bvh->nodes[hi].info))
        hi = bvh->nodes[hi].first + SNUG_NODE_CHILDREN(bvh->nodes[hi].info) - 1;
    *first = bvh->nodes[lo].first;
    *count = bvh->nodes[hi].first + SNUG_NODE_COUNT(bvh->nodes[hi].info) - *first;
}

static double node_measure(const snug_bvh* bvh, uint32_t i, const float* positions, const uint32_t* tris) {
    snug_bv_type type;
    snug_aabb box;
    const void* bv = snug_bvh_node_bv(bvh, i, &type, &box);
    if (bvh->def.measure != SNUG_MEASURE_HAUSDORFF) return snug_bv_measure(type, bv, bvh->def.measure);
    if (bvh->hausdorff) return bvh->hausdorff[i];
    return snug_hausdorff_node(type, bv, positions, tris, NULL, bvh, i, SNUG_HAUSDORFF_EPS_REL, NULL);
}

snug_status snug_bvh_refit(snug_ctx* ctx, snug_bvh* bvh, const float* positions, const uint32_t* tris) {
    (void)ctx;
    /* children always follow their parent in the array, so a reverse sweep is bottom-up */
    for (uint32_t i = bvh->node_count; i-- > 0;) {
        snug_node* n = &bvh->nodes[i];
        glm_vec3_broadcast(INFINITY, n->min);
        glm_vec3_broadcast(-INFINITY, n->max);
        uint32_t kids = SNUG_NODE_CHILDREN(n->info);
        if (kids == 0) {
            for (uint32_t s = n->first; s < n->first + SNUG_NODE_COUNT(n->info); s++)
                for (int c = 0; c < 3; c++) {
                    glm_vec3_minv(n->min, (float*)positions + 3 * tris[3 * s + c], n->min);
                    glm_vec3_maxv(n->max, (float*)positions + 3 * tris[3 * s + c], n->max);
                }
        } else {
            for (uint32_t k = n->first; k < n->first + kids; k++) {
                glm_vec3_minv(n->min, bvh->nodes[k].min, n->min);
                glm_vec3_maxv(n->max, bvh->nodes[k].max, n->max);
            }
        }
        snug_bv_type type = (snug_bv_type)SNUG_NODE_BV_TYPE(n->info);
        if (type == SNUG_BV_AABB) continue;
        snug_tri_set set = {positions, tris, NULL, 0, 0};
        snug_bvh_node_range(bvh, i, &set.first, &set.count);
        if (type == SNUG_BV_SPHERE) snug_sphere_fit(&set, &bvh->spheres[i]);
        else if (type == SNUG_BV_OBB) snug_obb_fit(&set, bvh->def.obb_refine, &bvh->obbs[i]);
        else snug_kdop_fit(&set, type, &bvh->kdops[i]);
    }
    if (bvh->hausdorff)
        for (uint32_t i = 0; i < bvh->node_count; i++) {
            snug_bv_type type;
            snug_aabb box;
            const void* bv = snug_bvh_node_bv(bvh, i, &type, &box);
            bvh->hausdorff[i] =
                (float)snug_hausdorff_node(type, bv, positions, tris, NULL, bvh, i, SNUG_HAUSDORFF_EPS_REL, NULL);
        }
    if (bvh->costs) {
        for (uint32_t i = 0; i < bvh->node_count; i++) bvh->costs[i].q = (float)node_measure(bvh, i, positions, tris);
        snug_bvh_fill_costs(bvh);
    }
    return SNUG_OK;
}

const void* snug_bvh_node_bv(const snug_bvh* bvh, uint32_t node, snug_bv_type* type, snug_aabb* aabb) {
    snug_bv_type t = (snug_bv_type)SNUG_NODE_BV_TYPE(bvh->nodes[node].info);
    *type = t;
    switch (t) {
    case SNUG_BV_SPHERE: return &bvh->spheres[node];
    case SNUG_BV_OBB: return &bvh->obbs[node];
    case SNUG_BV_KDOP14:
    case SNUG_BV_KDOP18:
    case SNUG_BV_KDOP26: return &bvh->kdops[node];
    default:
        glm_vec3_copy((float*)bvh->nodes[node].min, aabb->min);
        glm_vec3_copy((float*)bvh->nodes[node].max, aabb->max);
        return aabb;
    }
}

/* Sums over all nodes of each node's own BV measures; sah_cost is the surface-area heuristic of the AABB tree
 * relative to the root: (sum over inner nodes of area + sum over leaves of area x triangles) / root area. */
SNUG_COLD void snug_bvh_measure_quality(const snug_bvh* bvh, snug_bvh_quality* out) {
    memset(out, 0, sizeof *out);
    if (!bvh->node_count) return;
    double root_area = 0.0, sah = 0.0;
    for (uint32_t i = 0; i < bvh->node_count; i++) {
        const snug_node* n = &bvh->nodes[i];
        snug_bv_type type;
        snug_aabb box;
        const void* bv = snug_bvh_node_bv(bvh, i, &type, &box);
        out->volume_sum += snug_bv_measure(type, bv, SNUG_MEASURE_VOLUME);
        out->surface_sum += snug_bv_measure(type, bv, SNUG_MEASURE_SURFACE);
        out->diameter_sum += snug_bv_measure(type, bv, SNUG_MEASURE_DIAMETER);
        out->nodes_per_type[type]++;
        if (bvh->hausdorff && bvh->hausdorff[i] > out->hausdorff_max) out->hausdorff_max = bvh->hausdorff[i];
        vec3 e;
        glm_vec3_sub((float*)n->max, (float*)n->min, e);
        double a = 2.0 * ((double)e[0] * e[1] + (double)e[1] * e[2] + (double)e[2] * e[0]);
        if (i == 0) root_area = a;
        uint32_t kids = SNUG_NODE_CHILDREN(n->info);
        sah += kids ? a : a * SNUG_NODE_COUNT(n->info);
    }
    out->sah_cost = root_area > 0.0 ? sah / root_area : 0.0;
}

size_t snug_bvh_memory(const snug_bvh* bvh) {
    size_t n = bvh->node_count;
    return n * sizeof(snug_node) + (bvh->spheres ? n * sizeof(snug_sphere) : 0) +
           (bvh->obbs ? n * sizeof(snug_obb) : 0) + (bvh->kdops ? n * sizeof(snug_kdop) : 0) +
           (bvh->hausdorff ? n * sizeof(float) : 0) + (bvh->costs ? n * sizeof(snug_node_cost) : 0);
}
