/* Pair traversal driver: expansion choice, margin-grown BV pair tests, depth-first overlap search. */
#include "query/traverse.h"
#include "bvh/split.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ expansion choice */

/* Quality (larger = worse) of a node and of its worst child, and the cost of expanding it. Built trees carry
 * these in bvh->costs; otherwise they come from the node AABBs (diagonal, child count). */
static void node_cost(const snug_bvh* t, uint32_t n, float* q, float* qe, float* ce) {
    if (t->costs) {
        *q = t->costs[n].q;
        *qe = t->costs[n].qe;
        *ce = t->costs[n].ce;
        return;
    }
    const snug_node* node = &t->nodes[n];
    *q = glm_vec3_distance((float*)node->min, (float*)node->max);
    uint32_t kids = SNUG_NODE_CHILDREN(node->info);
    float worst = 0.0f;
    for (uint32_t k = node->first; k < node->first + kids; k++) {
        float d = glm_vec3_distance(t->nodes[k].min, t->nodes[k].max);
        if (d > worst) worst = d;
    }
    *qe = worst;
    *ce = (float)kids;
}

snug_expand snug_traverse_choose(const snug_bvh* a, uint32_t na, const snug_bvh* b, uint32_t nb,
                                 snug_traversal strategy) {
    bool leaf_a = SNUG_NODE_CHILDREN(a->nodes[na].info) == 0, leaf_b = SNUG_NODE_CHILDREN(b->nodes[nb].info) == 0;
    if (leaf_a) return SNUG_EXPAND_B;
    if (leaf_b) return SNUG_EXPAND_A;
    if (strategy == SNUG_TRAVERSAL_SIMULTANEOUS) return SNUG_EXPAND_BOTH;
    float q1, q1e, c1e, q2, q2e, c2e;
    node_cost(a, na, &q1, &q1e, &c1e);
    node_cost(b, nb, &q2, &q2e, &c2e);
    if (strategy == SNUG_TRAVERSAL_ONE_SIDED) return q1 >= q2 ? SNUG_EXPAND_A : SNUG_EXPAND_B;
    /* hybrid, seed 000 Fig. 4.14 with the tie-break fix: ties prefer both, then A (never drop the pair) */
    float one = c1e * (q1e + q2), two = c2e * (q2e + q1), both = c1e * c2e * (q1e + q2e);
    if (both <= one && both <= two) return SNUG_EXPAND_BOTH;
    return one <= two ? SNUG_EXPAND_A : SNUG_EXPAND_B;
}

/* ------------------------------------------------------------------ BV pair tests */

float snug_traverse_margin(float eps, float scale_a, float scale_b, const snug_xform* rel) {
    float reach = scale_a + scale_b + glm_vec3_norm((float*)rel->t);
    return eps + 16.0f * FLT_EPSILON * reach;
}

size_t snug_traverse_stack_pairs(const snug_bvh* a, const snug_bvh* b) {
    /* each level of the comparison tree leaves at most 6*6-1 siblings on the stack */
    return (size_t)(a->depth + b->depth + 2) * 36u;
}

typedef union any_bv {
    snug_aabb aabb;
    snug_sphere sphere;
    snug_obb obb;
    snug_kdop kdop;
} any_bv;

typedef struct driver {
    const snug_bvh* a;
    const snug_bvh* b;
    const snug_xform* rel;
    float margin;
    float kdop_magnitude;                /* bound on |slab value| of every k-DOP tested (rounding guard) */
    float kdop_grow[3][SNUG_KDOP_MAX_AXES]; /* margin * |direction| per slab, per k-DOP type */
    snug_rel prel;                       /* per-query parts of the AABB test */
    snug_kdop_rel krel[3][3];            /* per-query parts of the k-DOP tests, by (type A, type B) */
    uint8_t krel_ready[3][3];
} driver;

static inline bool is_kdop(snug_bv_type t) { return t >= SNUG_BV_KDOP14 && t <= SNUG_BV_KDOP26; }

/* A's BV of node n, grown by the margin. */
static inline const void* grown_bv_a(const driver* d, uint32_t n, snug_bv_type type, any_bv* out) {
    const snug_bvh* t = d->a;
    float m = d->margin;
    switch (type) {
    case SNUG_BV_SPHERE:
        out->sphere = t->spheres[n];
        out->sphere.r += m;
        break;
    case SNUG_BV_OBB:
        out->obb = t->obbs[n];
        glm_vec3_adds(out->obb.e, m, out->obb.e);
        break;
    case SNUG_BV_KDOP14:
    case SNUG_BV_KDOP18:
    case SNUG_BV_KDOP26: {
        int axes = snug_kdop_axis_count(type);
        const float* grow = d->kdop_grow[type - SNUG_BV_KDOP14];
        out->kdop = t->kdops[n];
        for (int j = 0; j < axes; j++) {
            out->kdop.lo[j] -= grow[j];
            out->kdop.hi[j] += grow[j];
        }
        break;
    }
    default:
        glm_vec3_subs((float*)t->nodes[n].min, m, out->aabb.min);
        glm_vec3_adds((float*)t->nodes[n].max, m, out->aabb.max);
        break;
    }
    return out;
}

static const snug_kdop_rel* kdop_rel(driver* d, snug_bv_type ta, snug_bv_type tb) {
    int i = ta - SNUG_BV_KDOP14, j = tb - SNUG_BV_KDOP14;
    if (!d->krel_ready[i][j]) {
        snug_kdop_rel_prepare(d->rel, ta, tb, d->kdop_magnitude, &d->krel[i][j]);
        d->krel_ready[i][j] = 1;
    }
    return &d->krel[i][j];
}

static void to_kdop(snug_bv_type t, const void* bv, snug_bv_type kt, snug_kdop* out) {
    if (t == SNUG_BV_SPHERE) snug_kdop_from_sphere(bv, kt, out);
    else if (t == SNUG_BV_AABB) snug_kdop_from_aabb(bv, kt, out);
    else snug_kdop_from_obb(bv, kt, out);
}

/* Mixed pairs: with a k-DOP on either side both become k-DOPs (prepared once per type pair), else dispatch. */
static bool generic_test(driver* d, snug_bv_type ta, const void* a, snug_bv_type tb, const void* b) {
    if (!is_kdop(ta) && !is_kdop(tb)) return snug_bv_overlap(ta, a, tb, b, d->rel);
    snug_kdop ka, kb;
    if (!is_kdop(ta)) {
        to_kdop(ta, a, tb, &ka);
        a = &ka;
        ta = tb;
    }
    if (!is_kdop(tb)) {
        to_kdop(tb, b, ta, &kb);
        b = &kb;
        tb = ta;
    }
    return snug_kdop_kdop_rel(a, b, kdop_rel(d, ta, tb));
}

/* Modes of the homogeneous fast paths; GENERIC dispatches per node (mixed trees, different types). */
enum { MODE_AABB, MODE_SPHERE, MODE_OBB, MODE_KDOP, MODE_GENERIC };

static __attribute__((noinline)) bool pair_test(driver* d, uint32_t na, uint32_t nb, const int mode, snug_bv_type kdop_type,
                             uint64_t* counts) {
    any_bv ga;
    switch (mode) {
    case MODE_AABB: {
        snug_aabb bb;
        glm_vec3_copy((float*)d->b->nodes[nb].min, bb.min);
        glm_vec3_copy((float*)d->b->nodes[nb].max, bb.max);
        grown_bv_a(d, na, SNUG_BV_AABB, &ga);
        counts[0]++;
        return snug_aabb_aabb_rel(&ga.aabb, &bb, &d->prel);
    }
    case MODE_SPHERE:
        grown_bv_a(d, na, SNUG_BV_SPHERE, &ga);
        counts[0]++;
        return snug_sphere_sphere(&ga.sphere, &d->b->spheres[nb], d->rel);
    case MODE_OBB:
        grown_bv_a(d, na, SNUG_BV_OBB, &ga);
        counts[0]++;
        return snug_obb_obb(&ga.obb, &d->b->obbs[nb], d->rel);
    case MODE_KDOP:
        grown_bv_a(d, na, kdop_type, &ga);
        counts[0]++;
        return snug_kdop_kdop_rel(&ga.kdop, &d->b->kdops[nb], &d->krel[kdop_type - SNUG_BV_KDOP14][kdop_type - SNUG_BV_KDOP14]);
    default: {
        snug_bv_type ta = (snug_bv_type)SNUG_NODE_BV_TYPE(d->a->nodes[na].info);
        snug_bv_type tb;
        snug_aabb bb;
        const void* bvb = snug_bvh_node_bv(d->b, nb, &tb, &bb);
        grown_bv_a(d, na, ta, &ga);
        counts[ta * SNUG_BV_TYPE_COUNT + tb]++;
        return generic_test(d, ta, &ga, tb, bvb);
    }
    }
}

/* The depth-first loop, instantiated once per mode so the type switch stays out of it. */
static inline __attribute__((always_inline)) bool run(driver* d, const snug_pair_query* q, uint32_t* stack,
                                                      const int mode, snug_bv_type kdop_type, uint64_t* counts,
                                                      uint64_t* visited) {
    const snug_node* na_nodes = d->a->nodes;
    const snug_node* nb_nodes = d->b->nodes;
    size_t top = 0;
    if (!pair_test(d, 0, 0, mode, kdop_type, counts)) return false;
    stack[top++] = 0;
    stack[top++] = 0;
    while (top) {
        uint32_t nb = stack[--top], na = stack[--top];
        (*visited)++;
        const snug_node* A = &na_nodes[na];
        const snug_node* B = &nb_nodes[nb];
        uint32_t ka = SNUG_NODE_CHILDREN(A->info), kb = SNUG_NODE_CHILDREN(B->info);
        if (kb == 0 && q->prune && q->prune(q->user, na, nb)) continue;
        if (ka == 0 && kb == 0) {
            if (q->leaf(q->user, na, nb)) return true;
            continue;
        }
        snug_expand e = snug_traverse_choose(d->a, na, d->b, nb, q->strategy);
        /* the pairs of A nodes [a0, a0 + an) and B nodes [b0, b0 + bn), pushed in reverse so that the first child
         * pair is searched first */
        uint32_t a0 = e == SNUG_EXPAND_B ? na : A->first, an = e == SNUG_EXPAND_B ? 1 : ka;
        uint32_t b0 = e == SNUG_EXPAND_A ? nb : B->first, bn = e == SNUG_EXPAND_A ? 1 : kb;
        if (mode == MODE_AABB) { /* each node's side of the box test once, not once per pair */
            snug_aabb_side_b sb[SNUG_MAX_BRANCHING];
            for (uint32_t j = 0; j < bn; j++) {
                snug_aabb bb;
                glm_vec3_copy((float*)nb_nodes[b0 + j].min, bb.min);
                glm_vec3_copy((float*)nb_nodes[b0 + j].max, bb.max);
                snug_aabb_side_b_of(&bb, &d->prel, &sb[j]);
            }
            for (uint32_t i = a0 + an; i-- > a0;) {
                any_bv ga;
                snug_aabb_side_a sa;
                grown_bv_a(d, i, SNUG_BV_AABB, &ga);
                snug_aabb_side_a_of(&ga.aabb, &sa);
                for (uint32_t j = bn; j-- > 0;) {
                    counts[0]++;
                    if (snug_aabb_sides_overlap(&sa, &sb[j], &d->prel)) {
                        stack[top++] = i;
                        stack[top++] = b0 + j;
                    }
                }
            }
            continue;
        }
        for (uint32_t i = a0 + an; i-- > a0;)
            for (uint32_t j = b0 + bn; j-- > b0;)
                if (pair_test(d, i, j, mode, kdop_type, counts)) {
                    stack[top++] = i;
                    stack[top++] = j;
                }
    }
    return false;
}

/* A sphere around a tree's root box (centre, half diagonal rounded up, plus grow): every tree keeps node AABBs,
 * so this works for every BV type. */
static void root_sphere(const snug_bvh* t, float grow, snug_sphere* out) {
    const snug_node* r = &t->nodes[0];
    vec3 h;
    glm_vec3_add((float*)r->min, (float*)r->max, out->c);
    glm_vec3_scale(out->c, 0.5f, out->c);
    glm_vec3_sub((float*)r->max, (float*)r->min, h);
    float pad = 4.0f * FLT_EPSILON * (fabsf(out->c[0]) + fabsf(out->c[1]) + fabsf(out->c[2]));
    out->r = 0.5f * glm_vec3_norm(h) * (1.0f + 4.0f * FLT_EPSILON) + pad + grow;
}

snug_status snug_traverse_overlap(snug_ctx* ctx, const snug_pair_query* q, bool* stopped) {
    *stopped = false;
    /* Distant meshes end at one sphere test, before scratch, tables and counters are set up: a rotated box
     * test needs |R| and two matrix products, a sphere test one transformed point. */
    snug_sphere sa, sb;
    root_sphere(q->a, q->margin, &sa);
    root_sphere(q->b, 0.0f, &sb);
    ctx->stats.bv_tests[SNUG_BV_SPHERE][SNUG_BV_SPHERE]++;
    if (!snug_sphere_sphere(&sa, &sb, &q->rel)) return SNUG_OK;

    size_t pairs = snug_traverse_stack_pairs(q->a, q->b);
    snug_status st = snug_scratch_reserve(ctx, pairs * 2 * sizeof(uint32_t));
    if (st != SNUG_OK) return st;
    uint32_t* stack = (uint32_t*)ctx->scratch.data;

    /* Not memset whole: the k-DOP tables are tens of KB and are prepared only when a k-DOP is tested
     * (krel_ready), which would make a query between distant meshes cost mostly zeroing. */
    driver d;
    memset(d.krel_ready, 0, sizeof d.krel_ready);
    d.kdop_magnitude = 0.0f;
    d.a = q->a;
    d.b = q->b;
    d.rel = &q->rel;
    d.margin = q->margin;
    snug_bv_type ta = q->a->type, tb = q->b->type;
    int mode = MODE_GENERIC;
    if (ta == tb && ta != SNUG_BV_MIXED) {
        switch (ta) {
        case SNUG_BV_AABB: mode = MODE_AABB; break;
        case SNUG_BV_SPHERE: mode = MODE_SPHERE; break;
        case SNUG_BV_OBB: mode = MODE_OBB; break;
        default: mode = MODE_KDOP; break;
        }
    }
    snug_rel_prepare(&q->rel, &d.prel);
    if (q->a->kdops || q->b->kdops) {
        /* slab values are bounded by |d|_1 * max |coordinate| of what is tested (root AABBs, grown) */
        float m = 0.0f;
        for (int c = 0; c < 3; c++) {
            m = fmaxf(m, fmaxf(fabsf(q->a->nodes[0].min[c]), fabsf(q->a->nodes[0].max[c])));
            m = fmaxf(m, fmaxf(fabsf(q->b->nodes[0].min[c]), fabsf(q->b->nodes[0].max[c])));
        }
        d.kdop_magnitude = 3.0f * (2.0f * m + q->margin);
        for (int k = 0; k < 3; k++) {
            snug_bv_type kt = (snug_bv_type)(SNUG_BV_KDOP14 + k);
            const float(*dirs)[3] = snug_kdop_type_directions(kt);
            for (int j = 0; j < snug_kdop_axis_count(kt); j++) d.kdop_grow[k][j] = q->margin * glm_vec3_norm((float*)dirs[j]);
        }
        if (mode == MODE_KDOP) kdop_rel(&d, ta, ta);
    }

    uint64_t counts[SNUG_BV_TYPE_COUNT * SNUG_BV_TYPE_COUNT] = {0};
    uint64_t visited = 0;
    switch (mode) {
    case MODE_AABB: *stopped = run(&d, q, stack, MODE_AABB, ta, counts, &visited); break;
    case MODE_SPHERE: *stopped = run(&d, q, stack, MODE_SPHERE, ta, counts, &visited); break;
    case MODE_OBB: *stopped = run(&d, q, stack, MODE_OBB, ta, counts, &visited); break;
    case MODE_KDOP: *stopped = run(&d, q, stack, MODE_KDOP, ta, counts, &visited); break;
    default: *stopped = run(&d, q, stack, MODE_GENERIC, ta, counts, &visited); break;
    }
    if (mode == MODE_GENERIC) {
        for (int i = 0; i < SNUG_BV_TYPE_COUNT * SNUG_BV_TYPE_COUNT; i++)
            ctx->stats.bv_tests[i / SNUG_BV_TYPE_COUNT][i % SNUG_BV_TYPE_COUNT] += counts[i];
    } else {
        ctx->stats.bv_tests[ta][ta] += counts[0];
    }
    ctx->stats.nodes_visited += visited;
    return SNUG_OK;
}

/* ------------------------------------------------------------------ query setup */

snug_status snug_query_begin_one(snug_ctx* ctx, snug_mesh mesh, const snug_pose* pose, snug_mesh_data** m) {
    memset(&ctx->stats, 0, sizeof ctx->stats);
    snug_status st = snug_pose_check(ctx, pose, "pose");
    if (st != SNUG_OK) return st;
    *m = snug_mesh_lookup(ctx, mesh);
    return *m ? SNUG_OK : SNUG_ERR_STALE_HANDLE;
}

snug_status snug_query_begin_pair(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                                  const snug_pose* pose_b, snug_mesh_data** ma, snug_mesh_data** mb, snug_xform* rel) {
    memset(&ctx->stats, 0, sizeof ctx->stats);
    snug_status st = snug_pose_check(ctx, pose_a, "pose_a");
    if (st == SNUG_OK) st = snug_pose_check(ctx, pose_b, "pose_b");
    if (st != SNUG_OK) return st;
    *ma = snug_mesh_lookup(ctx, a);
    if (!*ma) return SNUG_ERR_STALE_HANDLE;
    *mb = snug_mesh_lookup(ctx, b);
    if (!*mb) return SNUG_ERR_STALE_HANDLE;
    snug_xform_relative(pose_a, pose_b, rel);
    return SNUG_OK;
}
