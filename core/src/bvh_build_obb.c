/* Binary OBB trees with the Gottschalk splitter: the generic top-down driver's tree (same split, median fallback,
 * leaf rule and depth-first layout as build_top_down in bvh_build.c), but each inner node's OBB is the box the
 * splitter already fitted to choose its plane, with the extents of the same projection pass. The generic path
 * solves every inner node's covariance a second time and projects every vertex once more per level
 * (snug_bvh_fit_obbs). Leaves get the same covariance box from the splitter's kernels without the split. The
 * two children of a split get their axes together (snug_split_gottschalk_axes2: one pair eigen solve). */
#include "bvh_build.h"

/* node covers the records [begin, begin + count) and comes with its axes (its moments pass already run: the
 * scratch of its records holds its corners); depth <= max_depth <= 64 bounds the recursion */
static void build_node(snug_build* b, uint32_t node, uint32_t begin, uint32_t count, uint32_t depth, const mat3 axes) {
    const snug_bvh_def* def = b->in.def;
    snug_prim* prims = b->prims + begin;
    /* this node's scratch is its records' range, so pending siblings' scratch stays intact */
    snug_split_in in = b->in;
    in.tmp += begin, in.dist += begin, in.ids += begin;
    b->range_first[node] = begin;
    b->range_count[node] = count;
    if (depth > b->depth) b->depth = depth;
    uint32_t sizes[2];
    snug_aabb boxes[2];
    bool split = (int)depth < def->max_depth && count > (uint32_t)def->leaf_size;
    /* the node's OBB either way; the split keeps the records when it cannot divide them */
    int parts = snug_split_gottschalk_obb(&in, prims, count, axes, split ? sizes : NULL, boxes, &b->obbs[node]);
    /* as the generic driver: the object median always splits */
    if (split && parts < 2) parts = snug_split_median(&in, prims, count, 2, sizes, boxes);
    if (parts < 2) {
        b->nodes[node].first = begin;
        b->nodes[node].info = SNUG_NODE_INFO(0, 0, count);
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
    /* both children's axes in one pair eigen solve (latency bound: the second comes almost free) */
    mat3 kid_axes[2];
    snug_split_gottschalk_axes2(&in, prims, sizes[0], sizes[1], kid_axes);
    build_node(b, child, begin, sizes[0], depth + 1, kid_axes[0]);
    build_node(b, child + 1, begin + sizes[0], sizes[1], depth + 1, kid_axes[1]);
}

snug_status snug_bvh_build_obb_binary(snug_ctx* ctx, snug_build* b, uint32_t tri_count) {
    b->obbs = snug_alloc(ctx, 2 * (size_t)tri_count * sizeof *b->obbs);
    if (!b->obbs) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "OBBs of a hierarchy of %u triangles", tri_count);
    snug_aabb root;
    snug_prims_bounds(b->prims, tri_count, &root);
    glm_vec3_copy(root.min, b->nodes[0].min);
    glm_vec3_copy(root.max, b->nodes[0].max);
    b->node_count = 1;
    mat3 axes;
    snug_split_gottschalk_axes(&b->in, b->prims, tri_count, axes);
    build_node(b, 0, 0, tri_count, 1, axes);
    return SNUG_OK;
}
