/* Top-down hierarchy builder. (Initial version: AABB nodes, longest-axis object median, binary.
 * The full set of splitters and BV types replaces this.) */
#include "bvh.h"

#include <math.h>
#include <string.h>

snug_bvh_def snug_default_bvh_def(void) {
    snug_bvh_def def;
    memset(&def, 0, sizeof def);
    def.bv_type = SNUG_BV_AABB;
    def.splitter = SNUG_SPLIT_SAH;
    def.branching = 2;
    def.max_branching = 4;
    def.alpha = 0.8f;
    def.small_node = 8;
    def.leaf_size = 4;
    def.max_depth = 48;
    def.measure = SNUG_MEASURE_SURFACE;
    def.sah_bins = 16;
    def.bb_max_faces = 12;
    return def;
}

snug_status snug_bvh_def_check(snug_ctx* ctx, const snug_bvh_def* d) {
    if ((unsigned)d->bv_type > SNUG_BV_MIXED)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "bv_type %d is not a snug_bv_type", (int)d->bv_type);
    if ((unsigned)d->splitter >= SNUG_SPLITTER_COUNT)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "splitter %d is not a snug_splitter", (int)d->splitter);
    if (d->branching != 0 && (d->branching < 2 || d->branching > 6))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "branching %d is not 0 (variable) or 2..6", d->branching);
    if (d->branching == 0 && (d->max_branching < 2 || d->max_branching > 6))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "max_branching %d is not in 2..6", d->max_branching);
    if (d->leaf_size < 1 || d->leaf_size > 255)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "leaf_size %d is not in 1..255", d->leaf_size);
    if (d->max_depth < 1 || d->max_depth > 64)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "max_depth %d is not in 1..64", d->max_depth);
    if ((unsigned)d->measure >= SNUG_MEASURE_COUNT)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "measure %d is not a snug_measure", (int)d->measure);
    if (d->sah_bins < 4 || d->sah_bins > 64)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "sah_bins %d is not in 4..64", d->sah_bins);
    if (!(d->alpha > 0.0f && d->alpha <= 1.0f))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "alpha %g is not in (0, 1]", (double)d->alpha);
    return SNUG_OK;
}

typedef struct builder {
    const float* positions;
    const uint32_t* tris;
    float* centroids;
    uint32_t* perm;
    snug_node* nodes;
    uint32_t node_count;
    int leaf_size;
    uint32_t depth;
} builder;

static void node_bounds(builder* b, uint32_t first, uint32_t count, snug_node* n) {
    glm_vec3_broadcast(INFINITY, n->min);
    glm_vec3_broadcast(-INFINITY, n->max);
    for (uint32_t k = first; k < first + count; k++)
        for (int c = 0; c < 3; c++) {
            const float* p = b->positions + 3 * b->tris[3 * b->perm[k] + c];
            glm_vec3_minv(n->min, (float*)p, n->min);
            glm_vec3_maxv(n->max, (float*)p, n->max);
        }
}

static void build_node(builder* b, uint32_t index, uint32_t first, uint32_t count, uint32_t depth) {
    snug_node* n = &b->nodes[index];
    node_bounds(b, first, count, n);
    if (depth + 1 > b->depth) b->depth = depth + 1;
    if (count <= (uint32_t)b->leaf_size) {
        n->first = first;
        n->info = SNUG_NODE_INFO(0, SNUG_BV_AABB, count);
        return;
    }
    vec3 lo, hi;
    glm_vec3_broadcast(INFINITY, lo);
    glm_vec3_broadcast(-INFINITY, hi);
    for (uint32_t k = first; k < first + count; k++) {
        glm_vec3_minv(lo, b->centroids + 3 * b->perm[k], lo);
        glm_vec3_maxv(hi, b->centroids + 3 * b->perm[k], hi);
    }
    vec3 ext;
    glm_vec3_sub(hi, lo, ext);
    int axis = ext[0] > ext[1] ? (ext[0] > ext[2] ? 0 : 2) : (ext[1] > ext[2] ? 1 : 2);
    /* nth_element by quickselect on the axis */
    uint32_t mid = first + count / 2, l = first, r = first + count - 1;
    while (l < r) {
        float pivot = b->centroids[3 * b->perm[(l + r) / 2] + axis];
        uint32_t i = l, j = r;
        while (i <= j) {
            while (b->centroids[3 * b->perm[i] + axis] < pivot) i++;
            while (b->centroids[3 * b->perm[j] + axis] > pivot) j--;
            if (i <= j) {
                uint32_t t = b->perm[i];
                b->perm[i] = b->perm[j];
                b->perm[j] = t;
                i++;
                if (j == 0) break;
                j--;
            }
        }
        if (mid <= j) r = j;
        else if (mid >= i) l = i;
        else break;
    }
    uint32_t child = b->node_count;
    b->node_count += 2;
    n->first = child;
    n->info = SNUG_NODE_INFO(2, SNUG_BV_AABB, 0);
    build_node(b, child, first, mid - first, depth + 1);
    build_node(b, child + 1, mid, first + count - mid, depth + 1);
}

snug_status snug_bvh_build(snug_ctx* ctx, const snug_bvh_def* def, const float* positions, const uint32_t* tris,
                           uint32_t tri_count, snug_bvh* out, uint32_t* perm) {
    memset(out, 0, sizeof *out);
    builder b = {positions, tris, NULL, perm, NULL, 1, def->leaf_size, 0};
    b.centroids = snug_alloc(ctx, (size_t)tri_count * 3 * sizeof(float));
    b.nodes = snug_alloc(ctx, (size_t)(2 * tri_count) * sizeof(snug_node));
    if (!b.centroids || !b.nodes) {
        snug_free(ctx, b.centroids);
        snug_free(ctx, b.nodes);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "hierarchy of %u triangles", tri_count);
    }
    for (uint32_t t = 0; t < tri_count; t++) {
        perm[t] = t;
        for (int a = 0; a < 3; a++)
            b.centroids[3 * t + a] = (positions[3 * tris[3 * t] + a] + positions[3 * tris[3 * t + 1] + a] +
                                      positions[3 * tris[3 * t + 2] + a]) / 3.0f;
    }
    build_node(&b, 0, 0, tri_count, 0);
    snug_free(ctx, b.centroids);
    out->nodes = b.nodes;
    out->node_count = b.node_count;
    out->depth = b.depth;
    out->type = SNUG_BV_AABB;
    out->def = *def;
    for (uint32_t i = 0; i < b.node_count; i++)
        if (SNUG_NODE_CHILDREN(b.nodes[i].info) == 0) out->leaf_count++;
    return SNUG_OK;
}
