/* Binary OBB trees with the Gottschalk splitter: the generic top-down driver's tree (same split, median fallback,
 * leaf rule and depth-first layout as build_top_down in bvh_build.c), but each inner node's OBB is the box the
 * splitter already fitted to choose its plane, with the extents of the same projection pass. The generic path
 * solves every inner node's covariance a second time and projects every vertex once more per level
 * (snug_bvh_fit_obbs). Leaves get the same covariance box from the splitter's kernels without the split. */
#include "bvh_build.h"

/* node covers the records [begin, begin + count); depth <= max_depth <= 64 bounds the recursion */
static void build_node(snug_build* b, uint32_t node, uint32_t begin, uint32_t count, uint32_t depth) {
    const snug_bvh_def* def = b->in.def;
    snug_prim* prims = b->prims + begin;
    b->range_first[node] = begin;
    b->range_count[node] = count;
    if (depth > b->depth) b->depth = depth;
    uint32_t sizes[2];
    snug_aabb boxes[2];
    int parts = 0;
    if ((int)depth < def->max_depth && count > (uint32_t)def->leaf_size) {
        parts = snug_split_gottschalk_obb(&b->in, prims, count, sizes, boxes, &b->obbs[node]);
        /* as the generic driver: the object median always splits */
        if (parts < 2) parts = snug_split_median(&b->in, prims, count, 2, sizes, boxes);
    }
    if (parts < 2) {
        b->nodes[node].first = begin;
        b->nodes[node].info = SNUG_NODE_INFO(0, 0, count);
        snug_split_gottschalk_leaf_obb(&b->in, prims, count, &b->obbs[node]);
        return;
    }
    /* children together, right after everything allocated so far; the first child's subtree comes next */
    uint32_t child = b->node_count;
    b->node_count += 2;
    b->nodes[node].first = child;
    b->nodes[node].info = SNUG_NODE_INFO(2, 0, 0);
    for (int p = 0; p < 2; p++) {
        glm_vec3_copy(boxes[p].min, b->nodes[child + p].min);
        glm_vec3_copy(boxes[p].max, b->nodes[child + p].max);
    }
    build_node(b, child, begin, sizes[0], depth + 1);
    build_node(b, child + 1, begin + sizes[0], sizes[1], depth + 1);
}

snug_status snug_bvh_build_obb_binary(snug_ctx* ctx, snug_build* b, uint32_t tri_count) {
    b->obbs = snug_alloc(ctx, 2 * (size_t)tri_count * sizeof *b->obbs);
    if (!b->obbs) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "OBBs of a hierarchy of %u triangles", tri_count);
    snug_aabb root;
    snug_prims_bounds(b->prims, tri_count, &root);
    glm_vec3_copy(root.min, b->nodes[0].min);
    glm_vec3_copy(root.max, b->nodes[0].max);
    b->node_count = 1;
    build_node(b, 0, 0, tri_count, 1);
    return SNUG_OK;
}
