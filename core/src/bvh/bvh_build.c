/* Hierarchy construction: the top-down driver (seed 000 Fig. 3.1, iterative), fixed or variable branching
 * (Fig. 3.2 with |F_n| < s_min), and the pass shared with the bottom-up builder that fits every node's BV
 * (or, for MIXED trees, picks the type), fills the traversal costs and the optional Hausdorff bounds.
 *
 * Layout: children are allocated together when their parent is split, so they are contiguous and always
 * follow the parent; a LIFO task stack makes the order depth-first with the first child's subtree next to
 * its parent (good locality for the usual first-child-first descent). Measured against a breadth-first
 * relayout of the same trees with 200k closest-hit rays (snug_mesh_raycast_batch, native): depth-first was
 * 1.4x faster on the 48k dragon and 1.04x on the 871k one. Leaves hold contiguous slot ranges and every
 * subtree covers a contiguous slot range. */
#include "bvh/bvh_build.h"
#include "base/simd.h"

#include <math.h>
#include <string.h>

snug_bvh_def snug_default_bvh_def(void) {
    snug_bvh_def def;
    memset(&def, 0, sizeof def);
    def.bv_type = SNUG_BV_AABB;
    def.splitter = SNUG_SPLITTER_SAH;
    def.branching = 2;
    def.max_branching = 4;
    def.alpha = 0.8f;
    def.small_node = 8;
    def.leaf_size = 4;
    def.max_depth = 48;
    def.measure = SNUG_MEASURE_SURFACE;
    def.sah_bins = 16;
    def.bb_max_faces = 12;
    def.internal_value = SNUG_DEF_MARK;
    return def;
}

snug_status snug_bvh_def_check(snug_ctx* ctx, const snug_bvh_def* d) {
    snug_status st = snug_def_check_mark(ctx, d->internal_value, "bvh_def");
    if (st) return st;
    if ((unsigned)d->bv_type > SNUG_BV_MIXED)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "bv_type %d is not a snug_bv_type", (int)d->bv_type);
    if ((unsigned)d->splitter >= SNUG_SPLITTER_COUNT)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "splitter %d is not a snug_splitter", (int)d->splitter);
    if (d->branching != 0 && (d->branching < 2 || d->branching > SNUG_MAX_BRANCHING))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "branching %u is not 0 (variable) or 2..6", d->branching);
    if (d->branching == 0 && (d->max_branching < 2 || d->max_branching > SNUG_MAX_BRANCHING))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "max_branching %u is not in 2..6", d->max_branching);
    if (d->leaf_size < 1 || d->leaf_size > 255)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "leaf_size %u is not in 1..255", d->leaf_size);
    if (d->max_depth < 1 || d->max_depth > 64)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "max_depth %u is not in 1..64", d->max_depth);
    if ((unsigned)d->measure >= SNUG_MEASURE_COUNT)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "measure %d is not a snug_measure", (int)d->measure);
    if (d->sah_bins < 4 || d->sah_bins > 64)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "sah_bins %u is not in 4..64", d->sah_bins);
    if (!(d->alpha > 0.0f && d->alpha <= 1.0f))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "alpha %g is not in (0, 1]", (double)d->alpha);
    if (d->branching == 0 && d->small_node > 256)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "small_node %u is not in 0..256", d->small_node);
    if (d->splitter == SNUG_SPLITTER_BRANCH_BOUND && (d->bb_max_faces < 2 || d->bb_max_faces > 24))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "bb_max_faces %u is not in 2..24", d->bb_max_faces);
    return SNUG_OK;
}

typedef struct build_task {
    uint32_t node, begin, count, depth;
} build_task;

static void set_leaf(snug_build* b, uint32_t node, uint32_t begin, uint32_t count) {
    b->nodes[node].first = begin;
    b->nodes[node].info = SNUG_NODE_INFO(0, 0, count);
}

/* Variable branching (seed 000 Fig. 3.2): try degrees 2..v_max, accept the first whose mean child quality
 * reaches alpha x the node's; else keep the best, or make a leaf when the node is small. Returns the part
 * count (0: leaf). The accepted partition is left in prims. */
static int split_variable(snug_build* b, snug_split_fn split, snug_prim* prims, uint32_t count, uint32_t* sizes,
                          snug_aabb* boxes) {
    const snug_bvh_def* def = b->in.def;
    snug_bv_any bv;
    snug_bv_type chosen;
    double g_node = snug_split_fit(&b->in, prims, count, def->bv_type, &bv, &chosen);
    double g_best = INFINITY;
    int best_parts = 0, best_is_current = 0;
    uint32_t best_sizes[SNUG_MAX_BRANCHING];
    snug_aabb best_boxes[SNUG_MAX_BRANCHING];
    int vmax = def->max_branching < count ? (int)def->max_branching : (int)count;
    for (int d = 2; d <= vmax; d++) {
        int parts = split(&b->in, prims, count, d, sizes, boxes);
        if (parts < 2) continue;
        double g = 0.0;
        uint32_t at = 0;
        for (int p = 0; p < parts; p++) {
            g += snug_split_fit(&b->in, prims + at, sizes[p], def->bv_type, &bv, &chosen);
            at += sizes[p];
        }
        g /= parts;
        if (g <= def->alpha * g_node) return parts;
        best_is_current = 0;
        if (g < g_best) {
            g_best = g;
            best_parts = parts;
            memcpy(best_sizes, sizes, sizeof best_sizes);
            memcpy(best_boxes, boxes, sizeof best_boxes);
            memcpy(b->best, prims, count * sizeof *prims);
            best_is_current = 1;
        }
    }
    if (count < def->small_node) return 0;
    if (best_parts == 0) return snug_split_median(&b->in, prims, count, 2, sizes, boxes);
    if (!best_is_current) memcpy(prims, b->best, count * sizeof *prims);
    memcpy(sizes, best_sizes, sizeof best_sizes);
    memcpy(boxes, best_boxes, sizeof best_boxes);
    return best_parts;
}

static snug_status build_top_down(snug_build* b, uint32_t tri_count) {
    const snug_bvh_def* def = b->in.def;
    snug_split_fn split = snug_splitter_fn(def->splitter);
    build_task stack[64 * SNUG_MAX_BRANCHING + 1];
    int top = 0;
    snug_aabb root;
    snug_prims_bounds(b->prims, tri_count, &root);
    glm_vec3_copy(root.min, b->nodes[0].min);
    glm_vec3_copy(root.max, b->nodes[0].max);
    b->node_count = 1;
    stack[top++] = (build_task){0, 0, tri_count, 1};
    while (top > 0) {
        build_task t = stack[--top];
        b->range_first[t.node] = t.begin;
        b->range_count[t.node] = t.count;
        if (t.depth > b->depth) b->depth = t.depth;
        snug_prim* prims = b->prims + t.begin;
        uint32_t sizes[SNUG_MAX_BRANCHING];
        snug_aabb boxes[SNUG_MAX_BRANCHING];
        int parts = 0;
        if (t.depth < def->max_depth && t.count > 1) {
            if (def->branching == 0) {
                /* leaf_size caps leaves; below it a node is a leaf without trying */
                if (t.count > def->leaf_size) parts = split_variable(b, split, prims, t.count, sizes, boxes);
            } else if (t.count > def->leaf_size) {
                int d = def->branching < t.count ? (int)def->branching : (int)t.count;
                parts = split(&b->in, prims, t.count, d, sizes, boxes);
                /* unsplittable by this splitter (e.g. all midpoints coincide): the object median always splits */
                if (parts < 2) parts = snug_split_median(&b->in, prims, t.count, d, sizes, boxes);
            }
        }
        if (parts < 2) {
            set_leaf(b, t.node, t.begin, t.count);
            continue;
        }
        uint32_t child = b->node_count;
        b->node_count += (uint32_t)parts;
        b->nodes[t.node].first = child;
        b->nodes[t.node].info = SNUG_NODE_INFO(parts, 0, 0);
        uint32_t at = t.begin;
        for (int p = 0; p < parts; p++) {
            glm_vec3_copy(boxes[p].min, b->nodes[child + p].min);
            glm_vec3_copy(boxes[p].max, b->nodes[child + p].max);
            b->range_first[child + p] = at;
            at += sizes[p];
        }
        for (int p = parts - 1; p >= 0; p--)
            stack[top++] = (build_task){child + (uint32_t)p, b->range_first[child + p], sizes[p], t.depth + 1};
    }
    return SNUG_OK;
}

static void free_build(snug_ctx* ctx, snug_build* b) {
    snug_free(ctx, b->prims);
    snug_free(ctx, b->in.tmp);
    snug_free(ctx, b->best);
    snug_free(ctx, b->in.dist);
    snug_free(ctx, b->range_first);
    snug_free(ctx, b->range_count);
    snug_free(ctx, b->obbs);
    snug_free(ctx, b->blocks);
}

void snug_build_move_nodes(snug_build* b, uint32_t from, uint32_t count, uint32_t to) {
    if (from == to) return;
    memmove(b->nodes + to, b->nodes + from, (size_t)count * sizeof *b->nodes);
    memmove(b->range_first + to, b->range_first + from, (size_t)count * sizeof *b->range_first);
    memmove(b->range_count + to, b->range_count + from, (size_t)count * sizeof *b->range_count);
    if (b->obbs) memmove(b->obbs + to, b->obbs + from, (size_t)count * sizeof *b->obbs);
    for (uint32_t i = to; i < to + count; i++)
        if (SNUG_NODE_CHILDREN(b->nodes[i].info)) b->nodes[i].first -= from - to;
}

/* Box record of each triangle and, if asked, its snug_tri_degenerate flag: four triangles at a time in lanes
 * (the scalar pass was compute-bound in wasm: its corner gathers alone take a sixth of its time), with the same
 * operations in the same order as the scalar forms, so the same bits (min/max as the ternaries they are). */
static void tri_records(const float* positions, const uint32_t* tris, uint32_t first, uint32_t n, float tolerance,
                        snug_prim* prims, uint8_t* degenerate, snug_aabb* root) {
    uint32_t t = first;
    f4 all_lo[3], all_hi[3]; /* per lane: the bounds so far, for the root box */
    for (int k = 0; k < 3; k++) all_lo[k] = F4_SET1(INFINITY), all_hi[k] = F4_SET1(-INFINITY);
    for (; t + 4 <= n; t += 4) {
        float in[3][3][4]; /* corner, axis, lane */
        for (int l = 0; l < 4; l++)
            for (int c = 0; c < 3; c++) {
                const float* p = positions + 3 * tris[3 * (t + l) + c];
                in[c][0][l] = p[0], in[c][1][l] = p[1], in[c][2][l] = p[2];
            }
        f4 v[3][3];
        float lo[3][4], hi[3][4];
        for (int k = 0; k < 3; k++) {
            for (int c = 0; c < 3; c++) v[c][k] = F4_LOAD(in[c][k]);
            /* lo = a < b ? a : b, then c < lo ? c : lo; hi alike */
            f4 l = F4_MIN(v[2][k], F4_MIN(v[0][k], v[1][k])), h = F4_MAX(v[2][k], F4_MAX(v[1][k], v[0][k]));
            F4_STORE(lo[k], l);
            F4_STORE(hi[k], h);
            all_lo[k] = F4_MIN(all_lo[k], l);
            all_hi[k] = F4_MAX(all_hi[k], h);
        }
        for (int l = 0; l < 4; l++) {
            snug_prim* p = &prims[t + l];
            p->min[0] = lo[0][l], p->min[1] = lo[1][l], p->min[2] = lo[2][l];
            p->max[0] = hi[0][l], p->max[1] = hi[1][l], p->max[2] = hi[2][l];
            p->id = t + l;
            p->label = 0;
        }
        if (!degenerate) continue;
        /* snug_tri_degenerate in lanes: edges, cross product, squared lengths summed x + y + z */
        f4 e[3][3];
        for (int k = 0; k < 3; k++) {
            e[0][k] = F4_SUB(v[1][k], v[0][k]);
            e[1][k] = F4_SUB(v[2][k], v[1][k]);
            e[2][k] = F4_SUB(v[0][k], v[2][k]);
        }
        f4 nx = F4_SUB(F4_MUL(e[0][1], e[1][2]), F4_MUL(e[0][2], e[1][1]));
        f4 ny = F4_SUB(F4_MUL(e[0][2], e[1][0]), F4_MUL(e[0][0], e[1][2]));
        f4 nz = F4_SUB(F4_MUL(e[0][0], e[1][1]), F4_MUL(e[0][1], e[1][0]));
        f4 len2[3];
        for (int i = 0; i < 3; i++)
            len2[i] = F4_ADD(F4_ADD(F4_MUL(e[i][0], e[i][0]), F4_MUL(e[i][1], e[i][1])), F4_MUL(e[i][2], e[i][2]));
        f4 longest = F4_SQRT(F4_MAX(len2[0], F4_MAX(len2[1], len2[2])));
        f4 area = F4_SQRT(F4_ADD(F4_ADD(F4_MUL(nx, nx), F4_MUL(ny, ny)), F4_MUL(nz, nz)));
        /* longest == 0 as longest <= 0: it is a square root, so never below zero, and NaN fails both */
        int bits = F4_BITS(F4_OR(F4_LE(area, F4_MUL(F4_SET1(tolerance), longest)), F4_LE(longest, F4_SET1(0.0f))));
        for (int l = 0; l < 4; l++) degenerate[t + l] = (uint8_t)(bits >> l & 1);
    }
    for (; t < n; t++) {
        const float* a = positions + 3 * tris[3 * t];
        const float* c1 = positions + 3 * tris[3 * t + 1];
        const float* c2 = positions + 3 * tris[3 * t + 2];
        snug_prim* p = &prims[t];
        for (int k = 0; k < 3; k++) {
            float lo = a[k] < c1[k] ? a[k] : c1[k], hi = a[k] < c1[k] ? c1[k] : a[k];
            p->min[k] = c2[k] < lo ? c2[k] : lo;
            p->max[k] = c2[k] > hi ? c2[k] : hi;
        }
        p->id = t;
        p->label = 0;
        if (degenerate) degenerate[t] = snug_tri_degenerate(a, c1, c2, tolerance);
    }
    /* the lanes' bounds and the tail's (min and max are exact, so the order does not matter) */
    float lane_lo[3][4], lane_hi[3][4];
    for (int k = 0; k < 3; k++) {
        F4_STORE(lane_lo[k], all_lo[k]);
        F4_STORE(lane_hi[k], all_hi[k]);
        float lo = INFINITY, hi = -INFINITY;
        for (int l = 0; l < 4; l++) lo = glm_min(lo, lane_lo[k][l]), hi = glm_max(hi, lane_hi[k][l]);
        for (uint32_t s = n - (n - first) % 4; s < n; s++) lo = glm_min(lo, prims[s].min[k]), hi = glm_max(hi, prims[s].max[k]);
        root->min[k] = lo;
        root->max[k] = hi;
    }
}

/* tri_records over the context's workers, in ranges of any length (lanes and tail give the same bits), each
 * worker joining the bounds of its ranges. */
typedef struct tri_pass {
    const float* positions;
    const uint32_t* tris;
    float tolerance;
    snug_prim* prims;
    uint8_t* degenerate;
    snug_worker_bounds bounds;
} tri_pass;

static void tri_records_task(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    tri_pass* p = context;
    snug_aabb box;
    tri_records(p->positions, p->tris, begin, end, p->tolerance, p->prims, p->degenerate, &box);
    snug_worker_bounds_add(&p->bounds, worker, &box);
}

static void tri_records_parallel(snug_ctx* ctx, tri_pass* p, uint32_t n, snug_aabb* root) {
    snug_worker_bounds_clear(&p->bounds);
    snug_parallel_for(ctx, n, 16384, tri_records_task, p);
    snug_worker_bounds_total(&p->bounds, root);
}

snug_status snug_bvh_build(snug_ctx* ctx, const snug_bvh_def* def, const float* positions, const uint32_t* tris,
                           uint32_t tri_count, snug_bvh* out, uint32_t* perm, float tolerance, uint8_t* degenerate) {
    memset(out, 0, sizeof *out);
    snug_status st = snug_bvh_def_check(ctx, def);
    if (st != SNUG_OK) return st;
    if (tri_count == 0) return snug_fail(ctx, SNUG_ERR_EMPTY, "a hierarchy needs triangles");
    snug_build b;
    memset(&b, 0, sizeof b);
    b.in.positions = positions;
    b.in.tris = tris;
    b.in.def = def;
    b.in.rng = 0x9e3779b97f4a7c15ull;
    size_t n = tri_count, max_nodes = 2 * n;
    b.prims = snug_alloc(ctx, n * sizeof *b.prims);
    b.in.tmp = snug_alloc(ctx, n * sizeof *b.in.tmp);
    b.in.ids = perm; /* the builders' id scratch; the plain AABB path leaves the slot order in it */
    b.in.dist = snug_alloc(ctx, n * sizeof *b.in.dist);
    b.nodes = snug_alloc(ctx, max_nodes * sizeof *b.nodes); /* every node used is written */
    b.range_first = snug_alloc(ctx, max_nodes * sizeof *b.range_first);
    b.range_count = snug_alloc(ctx, max_nodes * sizeof *b.range_count);
    if (def->branching == 0) b.best = snug_alloc(ctx, n * sizeof *b.best);
    if (!b.prims || !b.in.tmp || !b.in.dist || !b.nodes || !b.range_first || !b.range_count ||
        (def->branching == 0 && !b.best)) {
        free_build(ctx, &b);
        snug_free(ctx, b.nodes);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "hierarchy of %u triangles", tri_count);
    }
    /* per-triangle bounds once; everything after works on these records */
    tri_pass records = {positions, tris, tolerance, b.prims, degenerate};
    tri_records_parallel(ctx, &records, tri_count, &b.root);
    if (def->bottom_up) st = snug_bvh_build_bottom_up(ctx, &b, tri_count);
    else if (def->splitter == SNUG_SPLITTER_SAH && def->branching == 2) st = snug_bvh_build_sah_binary(ctx, &b, tri_count);
    else if (def->bv_type == SNUG_BV_OBB && def->splitter == SNUG_SPLITTER_GOTTSCHALK && def->branching == 2 &&
             !def->obb_refine && def->measure != SNUG_MEASURE_HAUSDORFF) st = snug_bvh_build_obb_binary(ctx, &b, tri_count);
    else st = build_top_down(&b, tri_count);
    if (st == SNUG_OK) st = snug_bvh_finish(ctx, &b, out);
    if (st == SNUG_OK && !b.slots_in_ids)
        for (uint32_t s = 0; s < tri_count; s++) perm[s] = b.prims[s].id;
    free_build(ctx, &b);
    if (st != SNUG_OK) {
        snug_free(ctx, b.nodes);
        memset(out, 0, sizeof *out);
    }
    return st;
}

/* Plain AABB trees (the node box is the BV): one pass bottom-up (children follow their parents) moves each node
 * to the final array, unions its children's boxes if the builder left them pending, sets type, quality and
 * costs. Blocks of whole subtrees (snug_build.blocks) go through the task hooks, the nodes above them after. */
typedef struct finish_plain {
    const snug_build* b;
    snug_bvh* bvh;
    const snug_node* src;
} finish_plain;

/* Nodes [lo, hi), whose children are at or above lo, from src[lo + shift ..) where their links are `shift` too
 * high; returns the leaf count. */
static uint32_t finish_plain_range(finish_plain* f, uint32_t lo, uint32_t hi, uint32_t shift) {
    snug_bvh* bvh = f->bvh;
    snug_node* dst = bvh->nodes;
    uint32_t leaves = 0;
    for (uint32_t i = hi; i-- > lo;) {
        snug_node n = f->src[i + shift];
        uint32_t kids = SNUG_NODE_CHILDREN(n.info);
        if (kids) n.first -= shift;
        if (kids && f->b->inner_boxes_pending) {
            const snug_node* c = &dst[n.first];
            glm_vec3_copy((float*)c[0].min, n.min);
            glm_vec3_copy((float*)c[0].max, n.max);
            for (uint32_t k = 1; k < kids; k++) {
                glm_vec3_minv(n.min, (float*)c[k].min, n.min);
                glm_vec3_maxv(n.max, (float*)c[k].max, n.max);
            }
        }
        leaves += kids == 0;
        n.info = (n.info & ~(7u << 3)) | ((uint32_t)SNUG_BV_AABB << 3);
        dst[i] = n;
        snug_aabb box;
        glm_vec3_copy(n.min, box.min);
        glm_vec3_copy(n.max, box.max);
        bvh->costs[i].q = (float)snug_split_aabb_measure(&box, bvh->def.measure);
        snug_bvh_fill_node_cost(bvh, i);
    }
    return leaves;
}

static void finish_plain_blocks(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    finish_plain* f = context;
    (void)worker;
    for (uint32_t k = begin; k < end; k++) {
        uint32_t lo = f->b->blocks[k], shift = f->b->block_src ? f->b->block_src[k] - lo : 0;
        f->b->block_leaves[k] = finish_plain_range(f, lo, f->b->blocks[k + 1], shift);
    }
}

/* The concrete per-node pass: BVs of the tree's type (or the best type per node), traversal costs, Hausdorff
 * bounds. Node AABBs are already set by the topology builder. */
snug_status snug_bvh_finish(snug_ctx* ctx, snug_build* b, snug_bvh* out) {
    const snug_bvh_def* def = b->in.def;
    uint32_t nc = b->node_count;
    bool plain_aabb = snug_build_plain_aabb(def);
    /* shrink the node array to its final size; on failure the larger block serves as well (plain AABB trees
     * move their nodes in their per-node pass instead: that copy cost a pass of its own) */
    snug_node* nodes = plain_aabb ? NULL : snug_realloc(ctx, b->nodes, (size_t)nc * sizeof *nodes);
    if (nodes) b->nodes = nodes;
    bool mixed = def->bv_type == SNUG_BV_MIXED;
    bool need_sphere = mixed || def->bv_type == SNUG_BV_SPHERE;
    bool need_obb = mixed || def->bv_type == SNUG_BV_OBB;
    bool need_kdop = mixed || snug_kdop_axis_count(def->bv_type) > 0;
    snug_bvh bvh;
    memset(&bvh, 0, sizeof bvh);
    bvh.nodes = b->nodes;
    bvh.node_count = nc;
    bvh.depth = b->depth;
    bvh.type = def->bv_type;
    bvh.def = *def;
    bvh.costs = snug_alloc(ctx, (size_t)nc * sizeof *bvh.costs);
    if (need_sphere) bvh.spheres = snug_calloc(ctx, nc, sizeof *bvh.spheres);
    /* OBBs the builder made (bvh_build_obb.c) become the tree's as they are: no second array and copy */
    bool own_obbs = need_obb && !mixed && b->obbs;
    if (own_obbs) {
        bvh.obbs = snug_realloc(ctx, b->obbs, (size_t)nc * sizeof *bvh.obbs);
        if (!bvh.obbs) bvh.obbs = b->obbs; /* the larger block serves as well */
        b->obbs = NULL;
    } else if (need_obb) {
        bvh.obbs = snug_calloc(ctx, nc, sizeof *bvh.obbs);
    }
    if (need_kdop) bvh.kdops = snug_calloc(ctx, nc, sizeof *bvh.kdops);
    if (def->hausdorff) bvh.hausdorff = snug_alloc(ctx, (size_t)nc * sizeof *bvh.hausdorff);
    if (!bvh.costs || (need_sphere && !bvh.spheres) || (need_obb && !bvh.obbs) || (need_kdop && !bvh.kdops) ||
        (def->hausdorff && !bvh.hausdorff)) {
        bvh.nodes = NULL;
        snug_bvh_free(ctx, &bvh);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "node data of %u nodes", nc);
    }
    /* plain OBB trees: the lean moment path (same covariance as snug_obb_fit, linear per level) */
    bool obb_fast = def->bv_type == SNUG_BV_OBB && !def->obb_refine && def->measure != SNUG_MEASURE_HAUSDORFF;
    if (obb_fast && !own_obbs && snug_bvh_fit_obbs(ctx, b, bvh.obbs) != SNUG_OK) {
        bvh.nodes = NULL;
        snug_bvh_free(ctx, &bvh);
        return SNUG_ERR_OUT_OF_MEMORY;
    }
    if (plain_aabb) {
        snug_node* src = b->nodes;
        snug_node* dst = snug_alloc(ctx, (size_t)nc * sizeof *dst);
        /* in place when that fails (the larger block serves as well), unless blocks still have to move down */
        if (!dst && b->block_src) {
            bvh.nodes = NULL;
            snug_bvh_free(ctx, &bvh);
            return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "node array of %u nodes", nc);
        }
        if (!dst) dst = src;
        bvh.nodes = dst;
        finish_plain finish = {b, &bvh, src};
        uint32_t blocks = b->blocks ? b->block_count : 0;
        snug_parallel_for(ctx, blocks, 1, finish_plain_blocks, &finish);
        bvh.leaf_count = finish_plain_range(&finish, 0, blocks ? b->blocks[0] : nc, 0);
        for (uint32_t k = 0; k < blocks; k++) bvh.leaf_count += b->block_leaves[k];
        if (dst != src) snug_free(ctx, src);
        b->nodes = dst;
    }
    for (uint32_t i = 0; !plain_aabb && i < nc; i++) {
        snug_node* n = &bvh.nodes[i];
        if (SNUG_NODE_CHILDREN(n->info) == 0) bvh.leaf_count++;
        snug_bv_any bv;
        snug_bv_type type;
        double q;
        if (obb_fast) {
            bv.obb = bvh.obbs[i];
            type = SNUG_BV_OBB;
            q = snug_bv_measure(type, &bv, def->measure);
        } else {
            q = snug_split_fit(&b->in, b->prims + b->range_first[i], b->range_count[i], def->bv_type, &bv, &type);
        }
        n->info = (n->info & ~(7u << 3)) | ((uint32_t)type << 3);
        if (type == SNUG_BV_SPHERE) bvh.spheres[i] = bv.sphere;
        else if (type == SNUG_BV_OBB) bvh.obbs[i] = bv.obb;
        else if (type != SNUG_BV_AABB) bvh.kdops[i] = bv.kdop;
        /* the traversal compares geometry, so the collision factor of mixed trees is taken out again */
        bvh.costs[i].q = (float)(mixed ? q / snug_bv_test_cost(type) : q);
    }
    if (!plain_aabb) snug_bvh_fill_costs(&bvh);
    if (def->hausdorff) {
        /* the slot order is final once the topology is built; expose it for the nearest-face descent */
        for (uint32_t s = 0; s < b->range_count[0]; s++) b->in.ids[s] = b->prims[s].id;
        for (uint32_t i = 0; i < nc; i++) {
            snug_bv_type type;
            snug_aabb box;
            const void* bv = snug_bvh_node_bv(&bvh, i, &type, &box);
            bvh.hausdorff[i] = (float)snug_hausdorff_node(type, bv, b->in.positions, b->in.tris, b->in.ids, &bvh, i,
                                                          SNUG_HAUSDORFF_EPS_REL, NULL);
        }
    }
    *out = bvh;
    b->nodes = NULL; /* owned by out now */
    return SNUG_OK;
}
