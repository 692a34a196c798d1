/* Hierarchy upkeep: free, refit, per-node BV access, quality measures, memory. */
#include "bvh.h"

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

void snug_bvh_measure_quality(const snug_bvh* bvh, snug_bvh_quality* out) {
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; i < bvh->node_count; i++) {
        const snug_node* n = &bvh->nodes[i];
        vec3 e;
        glm_vec3_sub((float*)n->max, (float*)n->min, e);
        out->volume_sum += (double)e[0] * e[1] * e[2];
        out->surface_sum += 2.0 * ((double)e[0] * e[1] + (double)e[1] * e[2] + (double)e[2] * e[0]);
        out->diameter_sum += glm_vec3_norm(e);
        out->nodes_per_type[SNUG_NODE_BV_TYPE(n->info)]++;
    }
}

size_t snug_bvh_memory(const snug_bvh* bvh) {
    size_t n = bvh->node_count;
    return n * sizeof(snug_node) + (bvh->spheres ? n * sizeof(snug_sphere) : 0) +
           (bvh->obbs ? n * sizeof(snug_obb) : 0) + (bvh->kdops ? n * sizeof(snug_kdop) : 0) +
           (bvh->hausdorff ? n * sizeof(float) : 0) + (bvh->costs ? n * sizeof(snug_node_cost) : 0);
}
