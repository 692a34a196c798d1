/* Binary OBB trees with the Gottschalk splitter: the generic top-down driver's tree (same split, median fallback,
 * leaf rule and depth-first layout as build_top_down in bvh_build.c), but each inner node's OBB is the box the
 * splitter already fitted to choose its plane, with the extents of the same projection pass. The generic path
 * solves every inner node's covariance a second time and projects every vertex once more per level
 * (snug_bvh_fit_obbs). Leaves get the same covariance box from the splitter's kernels without the split. The
 * two children of a split get their axes together (snug_split_gottschalk_kids: one pair eigen solve). */
#include "bvh/bvh_build.h"
#include "geom/obb_fit.h"
#include "base/simd.h"

#include <string.h>

/* The splitter works on corner records (obb_fit.h: the three corners, the id and the face's own moments, made by
 * snug_split_gottschalk_records), which its passes read contiguously and its partition moves in place of the
 * prims; prims are written back at the leaves. */

/* the prims of the records (the box as the builder's triangle pass makes it: min(c2, min(c0, c1)) and
 * max(c2, max(c1, c0)) per lane, in lanes as there are no branches in them), and their union in *box */
static void prims_from_records(const snug_split_in* in, snug_prim* prims, uint32_t count, snug_aabb* box) {
    f4 blo = F4_SET1(INFINITY), bhi = F4_SET1(-INFINITY);
    for (uint32_t k = 0; k < count; k++) {
        const float* q = in->corners + SNUG_OBB_RECORD * (size_t)k;
        f4 c0 = F4_LOAD(q), c1 = F4_LOAD(q + 4), c2 = F4_LOAD(q + 8), lo = F4_MIN(c2, F4_MIN(c0, c1)),
           hi = F4_MAX(c2, F4_MAX(c1, c0));
        float l[4], h[4];
        F4_STORE(l, lo);
        F4_STORE(h, hi);
        memcpy(prims[k].min, l, sizeof prims[k].min);
        memcpy(prims[k].max, h, sizeof prims[k].max);
        memcpy(&prims[k].id, q + 7, sizeof prims[k].id);
        prims[k].label = 0;
        blo = F4_MIN(blo, lo);
        bhi = F4_MAX(bhi, hi);
    }
    float l[4], h[4];
    F4_STORE(l, blo);
    F4_STORE(h, bhi);
    memcpy(box->min, l, sizeof box->min);
    memcpy(box->max, h, sizeof box->max);
}

/* A builder of subtrees: the workers share the build and own their node cursor and deepest node. Subtrees of at
 * most `defer` records (0: none) are not built but listed for the workers; `defer` depends on the mesh alone, so
 * the tree and its layout do not depend on the worker count. */
typedef struct obb_worker {
    snug_build* b;
    uint32_t node_count, depth, defer;
    struct obb_subtree* deferred;
    uint32_t deferred_count;
} obb_worker;

/* A subtree left for the workers: its root (allocated by its parent), records, depth, axes, moments and buffer, and
 * where its nodes go: built from `base` (its worst case reserved), moved down after. */
typedef struct obb_subtree {
    uint32_t node, begin, count, depth;
    mat3 axes;
    snug_obb_node_moments mo;
    bool flip;
    uint32_t base, end;
} obb_subtree;

/* node covers the records [begin, begin + count) and comes with its axes and moments (its parent's
 * snug_split_gottschalk_kids); depth <= max_depth <= 64 bounds the recursion */
static void build_node(obb_worker* w, uint32_t node, uint32_t begin, uint32_t count, uint32_t depth, const mat3 axes,
                       const snug_obb_node_moments* mo, bool flip) {
    snug_build* b = w->b;
    if (count <= w->defer) {
        obb_subtree* t = &w->deferred[w->deferred_count++];
        *t = (obb_subtree){node, begin, count, depth, {{0}}, *mo, flip, 0, 0};
        glm_mat3_copy((vec3*)axes, t->axes);
        return;
    }
    const snug_bvh_def* def = b->in.def;
    snug_prim* prims = b->prims + begin;
    /* this node's scratch is its records' range */
    snug_split_in in = b->in;
    in.tmp += begin, in.dist += begin, in.ids += begin;
    /* the records move between the two buffers at each split: `flip` says which one holds this node's */
    in.corners = (flip ? b->in.corners_tmp : b->in.corners) + SNUG_OBB_RECORD * (size_t)begin;
    in.corners_tmp = (flip ? b->in.corners : b->in.corners_tmp) + SNUG_OBB_RECORD * (size_t)begin;
    snug_split_in kids = in;
    kids.corners = in.corners_tmp, kids.corners_tmp = in.corners;
    b->range_first[node] = begin;
    b->range_count[node] = count;
    if (depth > w->depth) w->depth = depth;
    uint32_t sizes[2];
    bool split = depth < def->max_depth && count > def->leaf_size;
    /* the node's OBB either way; the split keeps the records when it cannot divide them */
    int parts = snug_split_gottschalk_obb(&in, prims, count, axes, split ? sizes : NULL, &b->obbs[node]);
    snug_aabb box;
    /* as the generic driver: the object median always splits */
    if (split && parts < 2) { /* the median works on prims */
        snug_aabb boxes[2];
        prims_from_records(&in, prims, count, &box);
        parts = snug_split_median(&in, prims, count, 2, sizes, boxes);
        snug_split_gottschalk_records(&kids, prims, count);
    }
    if (parts < 2) { /* a leaf: the prims and the AABB from its records */
        prims_from_records(&in, prims, count, &box);
        glm_vec3_copy(box.min, b->nodes[node].min);
        glm_vec3_copy(box.max, b->nodes[node].max);
        b->nodes[node].first = begin;
        b->nodes[node].info = SNUG_NODE_INFO(0, 0, count);
        return;
    }
    /* children together, right after everything allocated so far; the first child's subtree comes next */
    uint32_t child = w->node_count;
    w->node_count += 2;
    b->nodes[node].first = child;
    b->nodes[node].info = SNUG_NODE_INFO(2, 0, 0);
    /* both children's axes in one pair eigen solve (latency bound: the second comes almost free), the larger
     * child's moments mostly from this node's */
    mat3 kid_axes[2];
    snug_obb_node_moments kid_mo[2];
    snug_split_gottschalk_kids(&kids, prims, sizes[0], sizes[1], mo, kid_axes, kid_mo);
    build_node(w, child, begin, sizes[0], depth + 1, kid_axes[0], &kid_mo[0], !flip);
    build_node(w, child + 1, begin + sizes[0], sizes[1], depth + 1, kid_axes[1], &kid_mo[1], !flip);
    /* the AABB from the children's (min and max are exact: the union of the faces' boxes whatever the order); above
     * deferred subtrees snug_bvh_build_obb_binary makes them once the subtrees are built */
    if (w->defer) return;
    glm_vec3_minv(b->nodes[child].min, b->nodes[child + 1].min, b->nodes[node].min);
    glm_vec3_maxv(b->nodes[child].max, b->nodes[child + 1].max, b->nodes[node].max);
}

/* The face records of triangles [begin, end) (any range: the last group of a range is gathered through the index
 * buffer and goes through the same four-lane kernel, so the records are the same bits). */
static void records_task(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    snug_build* b = context;
    (void)worker;
    snug_split_in in = b->in;
    in.corners += SNUG_OBB_RECORD * (size_t)begin;
    snug_split_gottschalk_records(&in, b->prims + begin, end - begin);
}

typedef struct obb_subtrees {
    obb_worker* workers;
    obb_subtree* list;
    bool in_order; /* one worker: each subtree goes right after the one before, nothing to move afterwards */
} obb_subtrees;

static void build_subtrees(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    obb_subtrees* p = context;
    /* a copy on this worker's stack: the workers' structs share cache lines, and the node cursor is written for
     * every node */
    obb_worker w = p->workers[worker];
    for (uint32_t k = begin; k < end; k++) {
        obb_subtree* t = &p->list[k];
        if (p->in_order && k > 0) t->base = p->list[k - 1].end;
        w.node_count = t->base;
        build_node(&w, t->node, t->begin, t->count, t->depth, t->axes, &t->mo, t->flip);
        t->end = w.node_count;
    }
    p->workers[worker].depth = w.depth;
}

uint32_t snug_obb_subtrees_min = 32768u;

snug_status snug_bvh_build_obb_binary(snug_ctx* ctx, snug_build* b, uint32_t tri_count) {
    b->obbs = snug_alloc(ctx, 2 * (size_t)tri_count * sizeof *b->obbs);
    if (!b->obbs) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "OBBs of a hierarchy of %u triangles", tri_count);
    uint32_t worker_count = snug_ctx_workers(ctx), defer = tri_count >= snug_obb_subtrees_min ? tri_count / 8 : 0;
    obb_worker* workers = snug_calloc(ctx, worker_count, sizeof *workers);
    /* the nodes of more than `defer` records are fewer than 2 n / defer, each with at most two subtrees */
    obb_subtree* list = defer ? snug_alloc(ctx, (4 * (size_t)(tri_count / defer) + 4) * sizeof *list) : NULL;
    b->in.corners = snug_alloc(ctx, 2 * SNUG_OBB_RECORD * (size_t)tri_count * sizeof *b->in.corners);
    if (!workers || (defer && !list) || !b->in.corners) {
        snug_free(ctx, workers);
        snug_free(ctx, list);
        snug_free(ctx, b->in.corners);
        b->in.corners = NULL;
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "records of a hierarchy of %u triangles", tri_count);
    }
    b->in.corners_tmp = b->in.corners + SNUG_OBB_RECORD * (size_t)tri_count;
    snug_parallel_for(ctx, tri_count, 8192, records_task, b);
    mat3 axes;
    snug_obb_node_moments mo;
    snug_split_gottschalk_node_axes(&b->in, b->prims, tri_count, axes, &mo);
    for (uint32_t k = 0; k < worker_count; k++) workers[k] = (obb_worker){b, 0, 0, 0, NULL, 0};
    obb_worker* w = &workers[0];
    *w = (obb_worker){b, 1, 0, defer, list, 0};
    /* the first levels here; then the subtrees, each from the worst case of those before it, moved down after */
    build_node(w, 0, 0, tri_count, 1, axes, &mo, false);
    w->defer = 0;
    uint32_t top_nodes = w->node_count, at = top_nodes;
    for (uint32_t k = 0; k < w->deferred_count; k++) {
        list[k].base = at;
        at += 2 * list[k].count - 2;
    }
    obb_subtrees work = {workers, list, worker_count == 1};
    snug_parallel_for(ctx, w->deferred_count, 1, build_subtrees, &work);
    at = top_nodes;
    for (uint32_t k = 0; k < w->deferred_count; k++) {
        snug_node* root = &b->nodes[list[k].node];
        if (SNUG_NODE_CHILDREN(root->info)) root->first -= list[k].base - at;
        snug_build_move_nodes(b, list[k].base, list[k].end - list[k].base, at);
        at += list[k].end - list[k].base;
    }
    b->node_count = w->deferred_count ? at : w->node_count;
    /* the boxes of the nodes above the subtrees (children follow their parents) */
    for (uint32_t i = top_nodes; w->deferred_count && i-- > 0;) {
        snug_node* n = &b->nodes[i];
        if (!SNUG_NODE_CHILDREN(n->info)) continue;
        glm_vec3_minv(b->nodes[n->first].min, b->nodes[n->first + 1].min, n->min);
        glm_vec3_maxv(b->nodes[n->first].max, b->nodes[n->first + 1].max, n->max);
    }
    for (uint32_t k = 0; k < worker_count; k++)
        if (workers[k].depth > b->depth) b->depth = workers[k].depth;
    snug_free(ctx, workers);
    snug_free(ctx, list);
    snug_free(ctx, b->in.corners);
    b->in.corners = b->in.corners_tmp = NULL;
    return SNUG_OK;
}
