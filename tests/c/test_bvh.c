/* Hierarchy builders: every splitter x BV type x branching mode, bottom-up, refit, quality, Hausdorff bounds,
 * settings checks and out-of-memory paths. Validity is checked against the definition of a BVH, independently
 * of the builder: every slot in exactly one leaf, tri_ids a permutation, children counts and depth in range,
 * and every node's AABB and own BV enclosing every vertex of its subtree. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bvh/bvh_build.h"
#include "harness.h"
#include "bvh/mesh.h"
#include "snug.h"
#include "test_meshes.h"
#include "geom/tri.h"

static snug_mesh make(snug_ctx* ctx, const test_mesh* m, const snug_bvh_def* bvh, snug_status* st) {
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = m->positions;
    def.vertex_count = m->vertex_count;
    def.indices = m->indices;
    def.triangle_count = m->triangle_count;
    def.bvh = *bvh;
    snug_mesh h = 0;
    *st = snug_mesh_create(ctx, &def, &h);
    return h;
}

/* Does the node's own BV contain p (within tol)? */
static int bv_contains(const snug_bvh* bvh, uint32_t i, const float* p, float tol) {
    snug_bv_type type;
    snug_aabb box;
    const void* bv = snug_bvh_node_bv(bvh, i, &type, &box);
    switch (type) {
    case SNUG_BV_SPHERE: {
        const snug_sphere* s = bv;
        return glm_vec3_distance((float*)s->c, (float*)p) <= s->r + tol;
    }
    case SNUG_BV_AABB:
        for (int a = 0; a < 3; a++)
            if (p[a] < box.min[a] - tol || p[a] > box.max[a] + tol) return 0;
        return 1;
    case SNUG_BV_OBB: {
        const snug_obb* o = bv;
        vec3 d;
        glm_vec3_sub((float*)p, (float*)o->c, d);
        for (int a = 0; a < 3; a++)
            if (fabsf(glm_vec3_dot(d, (float*)o->axes[a])) > o->e[a] + tol) return 0;
        return 1;
    }
    default: {
        const snug_kdop* k = bv;
        const float(*dir)[3] = snug_kdop_type_directions(type);
        for (int j = 0; j < snug_kdop_axis_count(type); j++) {
            float s = dir[j][0] * p[0] + dir[j][1] * p[1] + dir[j][2] * p[2];
            if (s < k->lo[j] - 2 * tol || s > k->hi[j] + 2 * tol) return 0;
        }
        return 1;
    }
    }
}

/* Checks the tree of mesh h built from tm with def; returns 0 after reporting the first violation. */
static int check_tree(snug_ctx* ctx, snug_mesh h, const test_mesh* tm, const snug_bvh_def* def, const char* what) {
    snug_mesh_data* m = snug_mesh_lookup(ctx, h);
    CHECK_MSG(m != NULL, "%s: no mesh", what);
    if (!m) return 0;
    const snug_bvh* bvh = &m->bvh;
    uint32_t T = m->tri_count, N = bvh->node_count;
    float tol = m->scale * 1e-5f;
    uint8_t* seen = calloc(T, 1);
    uint8_t* seen_id = calloc(T, 1);
    uint32_t* parents = calloc(N, sizeof *parents);
    uint32_t* depth = calloc(N, sizeof *depth);
    int ok = 1;
#define FAIL_IF(cond, ...)                    \
    do {                                      \
        if (cond) {                           \
            CHECK_MSG(!(cond), __VA_ARGS__);  \
            ok = 0;                           \
            goto done;                        \
        }                                     \
    } while (0)
    FAIL_IF(N == 0 || N > 2 * T, "%s: %u nodes for %u triangles", what, N, T);
    for (uint32_t s = 0; s < T; s++) {
        uint32_t id = m->tri_ids[s];
        FAIL_IF(id >= T || seen_id[id], "%s: tri_ids is not a permutation at slot %u", what, s);
        seen_id[id] = 1;
        for (int c = 0; c < 3; c++)
                FAIL_IF(m->tris[3 * s + c] != tm->indices[3 * id + c], "%s: slot %u is not triangle %u", what, s, id);
    }
    int max_kids = def->branching ? def->branching : def->max_branching;
    uint32_t leaves = 0, max_depth = 0;
    depth[0] = 1;
    for (uint32_t i = 0; i < N; i++) {
        const snug_node* n = &bvh->nodes[i];
        uint32_t kids = SNUG_NODE_CHILDREN(n->info);
        if (i > 0) FAIL_IF(parents[i] != 1, "%s: node %u has %u parents", what, i, parents[i]);
        if (depth[i] > max_depth) max_depth = depth[i];
        if (bvh->type != SNUG_BV_MIXED)
            FAIL_IF(SNUG_NODE_BV_TYPE(n->info) != (uint32_t)bvh->type, "%s: node %u has type %u", what, i,
                    SNUG_NODE_BV_TYPE(n->info));
        if (kids == 0) {
            uint32_t cnt = SNUG_NODE_COUNT(n->info);
            leaves++;
            FAIL_IF(cnt == 0 || n->first + cnt > T, "%s: leaf %u range %u+%u", what, i, n->first, cnt);
            uint32_t cap = (uint32_t)def->leaf_size;
            if (def->branching == 0 && def->small_node > 0 && (uint32_t)def->small_node - 1 > cap)
                cap = (uint32_t)def->small_node - 1;
            FAIL_IF(cnt > cap && depth[i] < (uint32_t)def->max_depth, "%s: leaf %u holds %u > %u triangles", what,
                    i, cnt, cap);
            for (uint32_t s = n->first; s < n->first + cnt; s++) {
                FAIL_IF(seen[s], "%s: slot %u in two leaves", what, s);
                seen[s] = 1;
            }
        } else {
            FAIL_IF(kids < 2 || (int)kids > max_kids, "%s: node %u has %u children", what, i, kids);
            FAIL_IF(n->first <= i || n->first + kids > N, "%s: node %u children at %u", what, i, n->first);
            for (uint32_t k = n->first; k < n->first + kids; k++) {
                parents[k]++;
                depth[k] = depth[i] + 1;
            }
        }
        /* enclosure: every vertex of the subtree */
        uint32_t first, count;
        snug_bvh_node_range(bvh, i, &first, &count);
        FAIL_IF(first + count > T, "%s: node %u range", what, i);
        for (uint32_t s = first; s < first + count; s++)
            for (int c = 0; c < 3; c++) {
                const float* p = snug_mesh_vertex(m, s, c);
                for (int a = 0; a < 3; a++)
                    FAIL_IF(p[a] < n->min[a] - tol || p[a] > n->max[a] + tol, "%s: node %u AABB misses slot %u", what,
                            i, s);
                FAIL_IF(!bv_contains(bvh, i, p, tol), "%s: node %u BV (type %u) misses a vertex of slot %u", what, i,
                        SNUG_NODE_BV_TYPE(n->info), s);
            }
        FAIL_IF(!(bvh->costs[i].q >= 0.0f) || !(bvh->costs[i].ce >= 0.0f), "%s: node %u costs", what, i);
    }
    for (uint32_t s = 0; s < T; s++) FAIL_IF(!seen[s], "%s: slot %u in no leaf", what, s);
    FAIL_IF(max_depth != bvh->depth || max_depth > (uint32_t)def->max_depth, "%s: depth %u (stored %u, max %d)",
            what, max_depth, bvh->depth, def->max_depth);
    FAIL_IF(leaves != bvh->leaf_count, "%s: %u leaves, stored %u", what, leaves, bvh->leaf_count);
#undef FAIL_IF
done:
    free(seen);
    free(seen_id);
    free(parents);
    free(depth);
    return ok;
}

static const snug_bv_type types[] = {SNUG_BV_AABB, SNUG_BV_OBB, SNUG_BV_SPHERE, SNUG_BV_KDOP14, SNUG_BV_KDOP26,
                                     SNUG_BV_MIXED};
static const int branchings[] = {2, 4, 0};
static const char* splitter_names[] = {"median", "sah", "gottschalk", "zachmann", "kcenter", "kmeans", "greedy",
                                       "bb"};


/* Every splitter x type x branching on one mesh; `types_n` limits the BV types (big meshes: AABB and OBB). */
static void run_matrix(const test_mesh* tm, const char* mesh_name, int types_n, int bottom_up) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_bvh_def warm_def = snug_default_bvh_def();
    snug_status warm_st;
    snug_mesh_destroy(ctx, make(ctx, tm, &warm_def, &warm_st)); /* the handle pool grows once */
    size_t before = snug_ctx_allocated_bytes(ctx);
    int splitters = bottom_up ? 1 : SNUG_SPLITTER_COUNT;
    for (int sp = 0; sp < splitters; sp++)
        for (int t = 0; t < types_n; t++)
            for (int b = 0; b < 3; b++) {
                /* k-DOP measures clip polytopes (slow): those types run the variable-branching path only, the
                 * one that evaluates the most fits */
                if (t >= 3 && (branchings[b] != 0 || (sp != SNUG_SPLITTER_SAH && sp != SNUG_SPLITTER_GREEDY &&
                                                      sp != SNUG_SPLITTER_BRANCH_BOUND && !bottom_up)))
                    continue;
                snug_bvh_def def = snug_default_bvh_def();
                def.splitter = (snug_splitter)sp;
                def.bv_type = types[t];
                def.branching = branchings[b];
                def.bottom_up = bottom_up;
                char what[160];
                snprintf(what, sizeof what, "%s %s type %d branching %d%s", mesh_name, splitter_names[sp],
                         (int)types[t], branchings[b], bottom_up ? " bottom-up" : "");
                snug_status st;
                snug_mesh h = make(ctx, tm, &def, &st);
                CHECK_MSG(st == SNUG_OK, "%s: %s", what, snug_ctx_last_error(ctx));
                if (st != SNUG_OK) continue;
                check_tree(ctx, h, tm, &def, what);
                snug_mesh_destroy(ctx, h);
                RETURN_IF_FAILED();
            }
    CHECK(snug_ctx_allocated_bytes(ctx) == before);
    snug_ctx_destroy(ctx);
}

static void test_every_builder_on_teapot(void) {
    test_mesh m;
    if (!test_mesh_load("teapot", &m)) return;
    run_matrix(&m, "teapot", 6, 0);
    run_matrix(&m, "teapot", 6, 1);
    test_mesh_free(&m);
}

static void test_every_builder_on_bunny(void) {
    test_mesh m;
    if (!test_mesh_load("bunny", &m)) return;
    run_matrix(&m, "bunny", 2, 0);
    test_mesh_free(&m);
}

static void test_every_builder_on_procedural(void) {
    rng r = {harness_seed()};
    for (int round = 0; round < harness_scale(); round++) {
        test_mesh soup, torus;
        test_mesh_soup(&r, 150 + (uint32_t)(rng_float(&r) * 150), 2.0f, 0.4f, &soup);
        test_mesh_torus(1.0f, 0.3f, 10, 14, &torus);
        run_matrix(&soup, "soup", 6, 0);
        run_matrix(&soup, "soup", 6, 1);
        run_matrix(&torus, "torus", 6, 0);
        /* refined OBBs take the general fitting path instead of the moment sums */
        snug_ctx* ctx = snug_ctx_create(NULL);
        for (int b = 0; b < 2; b++) {
            snug_bvh_def def = snug_default_bvh_def();
            def.bv_type = SNUG_BV_OBB;
            def.obb_refine = true;
            def.branching = b ? 0 : 2;
            snug_status st;
            snug_mesh h = make(ctx, &soup, &def, &st);
            CHECK(st == SNUG_OK);
            check_tree(ctx, h, &soup, &def, "soup refined OBB");
        }
        snug_ctx_destroy(ctx);
        test_mesh_free(&soup);
        test_mesh_free(&torus);
        RETURN_IF_FAILED();
    }
}

static void test_dragon11k_aabb_and_obb(void) {
    test_mesh m;
    if (!test_mesh_load("dragon11k", &m)) return;
    snug_ctx* ctx = snug_ctx_create(NULL);
    for (int sp = 0; sp < SNUG_SPLITTER_COUNT; sp++)
        for (int t = 0; t < 3; t++) {
            if (t > 0 && sp != SNUG_SPLITTER_SAH && sp != SNUG_SPLITTER_KMEANS) continue;
            snug_bvh_def def = snug_default_bvh_def();
            def.splitter = (snug_splitter)sp;
            def.bv_type = t == 2 ? SNUG_BV_OBB : SNUG_BV_AABB;
            def.branching = t == 1 ? 0 : 2;
            char what[96];
            snprintf(what, sizeof what, "dragon11k %s type %d branching %d", splitter_names[sp], (int)def.bv_type,
                     def.branching);
            snug_status st;
            snug_mesh h = make(ctx, &m, &def, &st);
            CHECK_MSG(st == SNUG_OK, "%s", what);
            if (st == SNUG_OK) check_tree(ctx, h, &m, &def, what);
            snug_mesh_destroy(ctx, h);
        }
    snug_ctx_destroy(ctx);
    test_mesh_free(&m);
}

/* The lean binned-SAH path (AABB, binary) on meshes large enough for its sampled plane choice (nodes of 4096
 * and more triangles) and awkward for its 16-bit quantized boxes: triangles stacked on a few spots, flat
 * meshes, a dense cluster next to one far triangle (the cluster collapses to one quantum), random leaf sizes and
 * depth limits; nodes of at most 16 triangles take the full sweep. The tree must be valid, and its SAH cost
 * below the object-median tree's on spread soups. */
static void test_lean_sah_large_and_awkward(void) {
    rng r = {harness_seed() ^ 0x5a4ull};
    snug_ctx* ctx = snug_ctx_create(NULL);
    int cases = 8 * harness_scale();
    for (int c = 0; c < cases; c++) {
        uint32_t n = 4096 + (uint32_t)(rng_next(&r) % 20000);
        int shape = c % 4;
        test_mesh m;
        test_mesh_soup(&r, n, 1.0f, 0.05f, &m);
        for (uint32_t v = 0; v < m.vertex_count; v++) {
            float* p = m.positions + 3 * v;
            if (shape == 1) p[2] = 0.0f; /* flat */
            if (shape == 2) {            /* stacked on 3 spots: centroids coincide within each */
                uint32_t spot = (v / 3) % 3;
                const float* q = m.positions + 3 * (v % 3);
                p[0] = q[0] * 0.01f + (float)spot;
                p[1] = q[1] * 0.01f;
                p[2] = q[2] * 0.01f;
            }
            if (shape == 3) glm_vec3_scale(p, v < 3 ? 1e5f : 1e-3f, p); /* one far triangle, a dense cluster */
        }
        snug_bvh_def def = snug_default_bvh_def();
        if (c >= 4) {
            def.leaf_size = 1 + (int)(rng_next(&r) % 40); /* below and above the sweep size (16) */
            def.max_depth = 8 + (int)(rng_next(&r) % 40);
            def.sah_bins = 4 + (int)(rng_next(&r) % 61);
        }
        char what[96];
        snprintf(what, sizeof what, "lean SAH case %d shape %d, %u triangles, leaf %d depth %d bins %d", c, shape, n,
                 def.leaf_size, def.max_depth, def.sah_bins);
        snug_status st;
        snug_mesh h = make(ctx, &m, &def, &st);
        CHECK_MSG(st == SNUG_OK, "%s: %s", what, snug_ctx_last_error(ctx));
        if (st == SNUG_OK) check_tree(ctx, h, &m, &def, what);
        if (st == SNUG_OK && shape == 0 && def.max_depth == 48) {
            snug_bvh_def median = def;
            median.splitter = SNUG_SPLITTER_MEDIAN;
            snug_mesh hm = make(ctx, &m, &median, &st);
            snug_bvh_quality qs, qm;
            CHECK(snug_mesh_get_quality(ctx, h, &qs) == SNUG_OK && snug_mesh_get_quality(ctx, hm, &qm) == SNUG_OK);
            CHECK_MSG(qs.sah_cost < qm.sah_cost, "%s: SAH cost %g, median %g", what, qs.sah_cost, qm.sah_cost);
            snug_mesh_destroy(ctx, hm);
        }
        snug_mesh_destroy(ctx, h);
        test_mesh_free(&m);
        RETURN_IF_FAILED();
    }
    snug_ctx_destroy(ctx);
}

/* SAH cost of the default tree of tm, built with the clustered top levels or without them. */
static double sah_cost(snug_ctx* ctx, const test_mesh* tm, const snug_bvh_def* def, bool clustered) {
    uint32_t saved = snug_sah_cluster_min;
    snug_sah_cluster_min = clustered ? 0 : UINT32_MAX;
    snug_status st;
    snug_mesh h = make(ctx, tm, def, &st);
    snug_sah_cluster_min = saved;
    snug_bvh_quality q = {0};
    CHECK(st == SNUG_OK && snug_mesh_get_quality(ctx, h, &q) == SNUG_OK);
    snug_mesh_destroy(ctx, h);
    return q.sah_cost;
}

/* The Morton-clustered top levels of the default build (used from snug_sah_cluster_min triangles up), forced
 * onto small and awkward meshes: spread soups, every centroid in one grid cell, two far-apart cells, flat,
 * collinear (all degenerate), duplicated triangles, a dense spot next to one far triangle, tiny meshes; random
 * leaf sizes, depth limits and bin counts. The tree must be valid, and its SAH cost close to the plain
 * record build's: within 5 % on spread soups of 2000+ triangles and 3 % on bunny and the 11k dragon (measured:
 * soups -1..+1 %, bunny -0.3 %, 11k dragon -0.9 %). */
static void test_clustered_sah_build(void) {
    uint32_t saved = snug_sah_cluster_min;
    rng r = {harness_seed() ^ 0xc105ull};
    snug_ctx* ctx = snug_ctx_create(NULL);
    int cases = 32 * harness_scale();
    for (int c = 0; c < cases; c++) {
        int shape = c % 8;
        uint32_t n = shape == 7 ? 1 + (uint32_t)(rng_next(&r) % 8) : 2 + (uint32_t)(rng_next(&r) % 6000);
        test_mesh m;
        test_mesh_soup(&r, n, 1.0f, 0.05f, &m);
        for (uint32_t v = 0; v < m.vertex_count; v++) {
            float* p = m.positions + 3 * v;
            if (shape == 1 && v % 3 == 0) { /* centroids within 1e-4 at 1/3 of a [-5, 10] box: one cell */
                for (int a = 0; a < 3; a++) {
                    float cen = (p[a] + p[3 + a] + p[6 + a]) / 3.0f;
                    for (int k = 0; k < 3; k++) p[3 * k + a] += cen * 1e-4f - cen + (k == 0 ? 10.0f : -5.0f);
                }
            }
            if (shape == 2) { /* two dense spots 1000 apart */
                glm_vec3_scale(p, 1e-3f, p);
                if ((v / 3) % 2) p[0] += 1000.0f;
            }
            if (shape == 3) p[2] = 0.0f;
            if (shape == 4) p[1] = p[2] = 0.0f;
            if (shape == 5) memcpy(p, m.positions + 3 * (v % 15), 3 * sizeof(float)); /* 5 triangles, repeated */
            if (shape == 6) glm_vec3_scale(p, v < 3 ? 1e5f : 1e-3f, p);
        }
        snug_bvh_def def = snug_default_bvh_def();
        if (c >= 8) {
            def.leaf_size = 1 + (int)(rng_next(&r) % 40);
            def.max_depth = 2 + (int)(rng_next(&r) % 47);
            def.sah_bins = 4 + (int)(rng_next(&r) % 61);
        }
        char what[128];
        snprintf(what, sizeof what, "clustered case %d shape %d, %u triangles, leaf %d depth %d bins %d", c, shape, n,
                 def.leaf_size, def.max_depth, def.sah_bins);
        snug_sah_cluster_min = 0;
        snug_status st;
        snug_mesh h = make(ctx, &m, &def, &st);
        snug_sah_cluster_min = saved;
        CHECK_MSG(st == SNUG_OK, "%s: %s", what, snug_ctx_last_error(ctx));
        if (st == SNUG_OK) check_tree(ctx, h, &m, &def, what);
        snug_mesh_destroy(ctx, h);
        if (shape == 0 && n >= 2000 && def.max_depth == 48) {
            double clustered = sah_cost(ctx, &m, &def, true), plain = sah_cost(ctx, &m, &def, false);
            CHECK_MSG(clustered <= 1.05 * plain, "%s: SAH cost %g, plain build %g", what, clustered, plain);
        }
        test_mesh_free(&m);
        RETURN_IF_FAILED();
    }
    static const char* names[] = {"bunny", "dragon11k"};
    for (int i = 0; i < 2; i++) {
        test_mesh m;
        if (!test_mesh_load(names[i], &m)) continue;
        snug_bvh_def def = snug_default_bvh_def();
        double clustered = sah_cost(ctx, &m, &def, true), plain = sah_cost(ctx, &m, &def, false);
        CHECK_MSG(clustered <= 1.03 * plain, "%s: SAH cost %g, plain build %g", names[i], clustered, plain);
        snug_sah_cluster_min = 0;
        snug_status st;
        snug_mesh h = make(ctx, &m, &def, &st);
        snug_sah_cluster_min = saved;
        CHECK(st == SNUG_OK);
        if (st == SNUG_OK) check_tree(ctx, h, &m, &def, names[i]);
        snug_mesh_destroy(ctx, h);
        test_mesh_free(&m);
    }
    snug_ctx_destroy(ctx);
}

/* Degenerate shapes: a single triangle, coincident triangles (no splitter can separate them), max_depth 1..3,
 * leaf_size 1 and big leaves. */
static void test_edge_cases(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    float p[9 * 3] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    for (int k = 1; k < 9; k++) memcpy(p + 3 * k, p + 3 * (k % 3), 3 * sizeof(float));
    uint32_t idx[9 * 3];
    for (int k = 0; k < 27; k++) idx[k] = (uint32_t)(k % 3);
    test_mesh same = {p, idx, 3, 9}, one = {p, idx, 3, 1};
    test_mesh torus;
    test_mesh_torus(1.0f, 0.3f, 12, 16, &torus);
    /* branching 2 with SAH is the lean path; the others go through the generic driver */
    for (int sp = 0; sp < SNUG_SPLITTER_COUNT; sp++)
        for (int t = 0; t < 6; t++)
            for (int variant = 0; variant < 4; variant++) {
                int depth = variant & 1 ? 48 : 1 + sp % 3;
                snug_bvh_def def = snug_default_bvh_def();
                def.splitter = (snug_splitter)sp;
                def.bv_type = types[t];
                def.max_depth = depth;
                def.leaf_size = 1 + sp % 3;
                def.branching = variant & 2 ? 2 : 2 + sp % 5;
                const test_mesh* cases[3] = {&same, &one, &torus};
                for (int c = 0; c < 3; c++) {
                    char what[96];
                    snprintf(what, sizeof what, "edge case %d %s type %d depth %d", c, splitter_names[sp],
                             (int)types[t], def.max_depth);
                    snug_status st;
                    snug_mesh h = make(ctx, cases[c], &def, &st);
                    CHECK_MSG(st == SNUG_OK, "%s: %s", what, snug_ctx_last_error(ctx));
                    if (st == SNUG_OK) check_tree(ctx, h, cases[c], &def, what);
                    snug_mesh_destroy(ctx, h);
                    RETURN_IF_FAILED();
                }
            }
    test_mesh_free(&torus);
    snug_ctx_destroy(ctx);
}

/* Tiny meshes whose node extents are subnormal (coordinates of 1e-39): the binned SAH split's bin scale
 * (bins / extent) overflowed there and 0 x inf binned a triangle into count[INT_MIN]. Every splitter and BV type,
 * binary and variable branching, and a shift far from the origin where the extents are rounded away. */
static void test_subnormal_extents(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    rng r = {harness_seed() ^ 0x5ab0ull};
    test_mesh soup;
    test_mesh_soup(&r, 40, 1.0f, 0.5f, &soup);
    float* scaled = malloc(12 * (size_t)soup.vertex_count);
    test_mesh tiny = soup;
    tiny.positions = scaled;
    for (int shift = 0; shift < 2; shift++) {
        for (uint32_t i = 0; i < 3 * soup.vertex_count; i++) scaled[i] = soup.positions[i] * 1e-39f + (shift ? 1.0f : 0.0f);
        for (int sp = 0; sp < SNUG_SPLITTER_COUNT; sp++)
            for (int t = 0; t < 6; t++)
                for (int branching = 0; branching <= 2; branching += 2) {
                    snug_bvh_def def = snug_default_bvh_def();
                    def.splitter = (snug_splitter)sp;
                    def.bv_type = types[t];
                    def.branching = branching;
                    def.leaf_size = 1;
                    char what[96];
                    snprintf(what, sizeof what, "subnormal %s type %d branching %d shift %d", splitter_names[sp],
                             (int)types[t], branching, shift);
                    snug_status st;
                    snug_mesh h = make(ctx, &tiny, &def, &st);
                    CHECK_MSG(st == SNUG_OK, "%s: %s", what, snug_ctx_last_error(ctx));
                    if (st == SNUG_OK) check_tree(ctx, h, &tiny, &def, what);
                    snug_mesh_destroy(ctx, h);
                    RETURN_IF_FAILED();
                }
    }
    free(scaled);
    test_mesh_free(&soup);
    snug_ctx_destroy(ctx);
}

/* Variable branching must actually vary: with alpha = 1 the first degree is taken (binary), with a tiny alpha
 * nothing reaches the target and larger degrees appear; small nodes that split poorly become leaves. */
/* The SAH builder's grid is the triangles' bounds, not the vertices': a vertex no triangle uses, outside them or
 * inside, leaves the tree as it is, on the plain and on the clustered path. */
static void test_unused_vertices_leave_the_tree(void) {
    uint32_t saved = snug_sah_cluster_min;
    rng r = {harness_seed() ^ 0x0b5eull};
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh bunny, soup;
    if (!test_mesh_load("bunny", &bunny)) return;
    test_mesh_soup(&r, 20000, 1.0f, 0.05f, &soup);
    const test_mesh* meshes[2] = {&bunny, &soup};
    for (int k = 0; k < 2; k++) {
        const test_mesh* m = meshes[k];
        snug_sah_cluster_min = k == 1 ? 0 : saved;
        snug_mesh base = test_mesh_make(ctx, m, NULL);
        const snug_mesh_data* a = snug_mesh_lookup(ctx, base);
        for (int outside = 0; outside < 2; outside++) {
            /* one more vertex, used by no triangle: far off, or at the first triangle's first corner */
            test_mesh more = *m;
            more.vertex_count = m->vertex_count + 1;
            more.positions = malloc(3 * sizeof(float) * more.vertex_count);
            memcpy(more.positions, m->positions, 3 * sizeof(float) * m->vertex_count);
            const float* corner = m->positions + 3 * m->indices[0];
            for (int c = 0; c < 3; c++) more.positions[3 * m->vertex_count + c] = outside ? 1e3f : corner[c];
            snug_mesh h = test_mesh_make(ctx, &more, NULL);
            const snug_mesh_data* b = snug_mesh_lookup(ctx, h);
            CHECK_MSG(a && b && a->bvh.node_count == b->bvh.node_count &&
                          memcmp(a->bvh.nodes, b->bvh.nodes, a->bvh.node_count * sizeof *a->bvh.nodes) == 0 &&
                          memcmp(a->tri_ids, b->tri_ids, m->triangle_count * sizeof *a->tri_ids) == 0,
                      "%s with an unused vertex %s: another tree", k ? "clustered soup" : "bunny",
                      outside ? "outside" : "inside");
            snug_mesh_destroy(ctx, h);
            free(more.positions);
        }
        snug_mesh_destroy(ctx, base);
    }
    snug_sah_cluster_min = saved;
    test_mesh_free(&bunny);
    test_mesh_free(&soup);
    snug_ctx_destroy(ctx);
}

static void test_variable_branching_uses_alpha(void) {
    test_mesh m;
    if (!test_mesh_load("teapot", &m)) return;
    snug_ctx* ctx = snug_ctx_create(NULL);
    int max_kids[2] = {0, 0};
    for (int a = 0; a < 2; a++) {
        snug_bvh_def def = snug_default_bvh_def();
        def.branching = 0;
        def.max_branching = 6;
        def.alpha = a == 0 ? 1.0f : 0.05f;
        def.splitter = SNUG_SPLITTER_KMEANS;
        snug_status st;
        snug_mesh h = make(ctx, &m, &def, &st);
        CHECK(st == SNUG_OK);
        snug_mesh_data* md = snug_mesh_lookup(ctx, h);
        for (uint32_t i = 0; md && i < md->bvh.node_count; i++) {
            int k = (int)SNUG_NODE_CHILDREN(md->bvh.nodes[i].info);
            if (k > max_kids[a]) max_kids[a] = k;
        }
        check_tree(ctx, h, &m, &def, "variable");
        snug_mesh_destroy(ctx, h);
    }
    CHECK(max_kids[0] == 2);
    CHECK(max_kids[1] > 2);
    snug_ctx_destroy(ctx);
    test_mesh_free(&m);
}

/* Refit after random vertex motion keeps every node enclosing its subtree, for every BV type. */
static void test_refit_after_motion(void) {
    test_mesh m;
    if (!test_mesh_load("bunny", &m)) return;
    rng r = {harness_seed() ^ 0x5eed};
    snug_ctx* ctx = snug_ctx_create(NULL);
    float* moved = malloc((size_t)m.vertex_count * 3 * sizeof(float));
    for (int t = 0; t < 6; t++) {
        snug_bvh_def def = snug_default_bvh_def();
        def.bv_type = types[t];
        def.hausdorff = t == 1;
        snug_status st;
        snug_mesh h = make(ctx, &m, &def, &st);
        CHECK(st == SNUG_OK);
        for (int round = 0; round < harness_scale(); round++) {
            float amp = rng_range(&r, 0.001f, 0.05f);
            for (uint32_t i = 0; i < 3 * m.vertex_count; i++) moved[i] = m.positions[i] + rng_range(&r, -amp, amp);
            CHECK(snug_mesh_set_positions(ctx, h, moved, m.vertex_count) == SNUG_OK);
            test_mesh now = m;
            now.positions = moved;
            char what[64];
            snprintf(what, sizeof what, "refit type %d round %d", (int)types[t], round);
            check_tree(ctx, h, &now, &def, what);
            RETURN_IF_FAILED();
        }
        snug_mesh_destroy(ctx, h);
    }
    free(moved);
    snug_ctx_destroy(ctx);
    test_mesh_free(&m);
}

/* Stored Hausdorff bounds are upper bounds of distances from random points of the solid BV to the subtree's
 * faces (brute force), and the estimator's own gap is within its relative error. */
static void test_hausdorff_bounds(void) {
    test_mesh m;
    if (!test_mesh_load("teapot", &m)) return;
    rng r = {harness_seed() ^ 0xabc};
    snug_ctx* ctx = snug_ctx_create(NULL);
    for (int t = 0; t < 6; t++) {
        snug_bvh_def def = snug_default_bvh_def();
        def.bv_type = types[t];
        def.hausdorff = true;
        snug_status st;
        snug_mesh h = make(ctx, &m, &def, &st);
        CHECK(st == SNUG_OK);
        snug_mesh_data* md = snug_mesh_lookup(ctx, h);
        const snug_bvh* bvh = &md->bvh;
        CHECK(bvh->hausdorff != NULL);
        int samples = 40 * harness_scale(), tight = 0, nodes = 0;
        for (uint32_t i = 0; i < bvh->node_count; i += 1 + bvh->node_count / 30) {
            nodes++;
            snug_bv_type type;
            snug_aabb box;
            const void* bv = snug_bvh_node_bv(bvh, i, &type, &box);
            uint32_t first, count;
            snug_bvh_node_range(bvh, i, &first, &count);
            double lower = 0.0;
            double upper = snug_hausdorff_node(type, bv, md->positions, md->tris, NULL, bvh, i,
                                               SNUG_HAUSDORFF_EPS_REL, &lower);
            CHECK(upper <= bvh->hausdorff[i] * (1.0 + 1e-6) + 1e-9 && lower <= upper);
            if (upper - lower <= SNUG_HAUSDORFF_EPS_REL * upper + 1e-7 * md->scale) tight++;
            /* lower bound is attained by some point: check it is not above the brute-force maximum estimate + gap */
            double sampled = 0.0;
            for (int s = 0; s < samples; s++) {
                float p[3];
                for (int a = 0; a < 3; a++) p[a] = rng_range(&r, bvh->nodes[i].min[a], bvh->nodes[i].max[a]);
                if (type == SNUG_BV_OBB) {
                    const snug_obb* o = bv;
                    for (int a = 0; a < 3; a++) p[a] = o->c[a];
                    for (int k = 0; k < 3; k++) {
                        float u = rng_range(&r, -o->e[k], o->e[k]);
                        for (int a = 0; a < 3; a++) p[a] += u * o->axes[k][a];
                    }
                }
                if (!bv_contains(bvh, i, p, 0.0f)) continue;
                double best = INFINITY;
                for (uint32_t q = first; q < first + count; q++) {
                    float cp[3];
                    double d2 = snug_point_tri_closest(p, snug_mesh_vertex(md, q, 0), snug_mesh_vertex(md, q, 1),
                                                       snug_mesh_vertex(md, q, 2), cp);
                    if (d2 < best) best = d2;
                }
                if (sqrt(best) > sampled) sampled = sqrt(best);
            }
            CHECK_MSG(sampled <= bvh->hausdorff[i] * (1.0 + 1e-5) + 1e-6 * md->scale,
                      "type %d node %u: sampled %.9g > bound %.9g", (int)type, i, sampled, (double)bvh->hausdorff[i]);
            RETURN_IF_FAILED();
        }
        /* the cell budget may stop a few big nodes early; most must meet the stated error */
        CHECK_MSG(tight * 10 >= nodes * 8, "type %d: only %d of %d nodes within the error bound", (int)types[t], tight,
                  nodes);
        snug_bvh_quality q;
        CHECK(snug_mesh_get_quality(ctx, h, &q) == SNUG_OK);
        CHECK(q.hausdorff_max > 0.0 && q.hausdorff_max <= md->scale);
        snug_mesh_destroy(ctx, h);
    }
    snug_ctx_destroy(ctx);
    test_mesh_free(&m);
}

static void test_quality_and_measures(void) {
    test_mesh m;
    if (!test_mesh_load("bunny", &m)) return;
    snug_ctx* ctx = snug_ctx_create(NULL);
    double sah[2];
    for (int sp = 0; sp < 2; sp++) {
        for (int ms = 0; ms < SNUG_MEASURE_COUNT; ms++) {
            snug_bvh_def def = snug_default_bvh_def();
            def.splitter = sp == 0 ? SNUG_SPLITTER_MEDIAN : SNUG_SPLITTER_SAH;
            def.measure = (snug_measure)ms;
            def.bv_type = ms == SNUG_MEASURE_HAUSDORFF ? SNUG_BV_SPHERE : SNUG_BV_AABB;
            if (ms == SNUG_MEASURE_HAUSDORFF && sp == 1) continue;
            snug_status st;
            snug_mesh h = make(ctx, &m, &def, &st);
            CHECK(st == SNUG_OK);
            snug_bvh_quality q;
            CHECK(snug_mesh_get_quality(ctx, h, &q) == SNUG_OK);
            snug_mesh_info info;
            snug_mesh_get_info(ctx, h, &info);
            uint32_t total = 0;
            for (int t = 0; t < SNUG_BV_TYPE_COUNT; t++) total += q.nodes_per_type[t];
            CHECK(total == info.node_count);
            CHECK(q.surface_sum > 0 && q.volume_sum > 0 && q.diameter_sum > 0 && q.sah_cost >= 1.0);
            if (ms == SNUG_MEASURE_SURFACE) sah[sp] = q.sah_cost;
            snug_mesh_destroy(ctx, h);
        }
    }
    /* binned SAH must beat the object median on its own cost */
    CHECK_MSG(sah[1] < sah[0], "sah %.3f, median %.3f", sah[1], sah[0]);
    snug_ctx_destroy(ctx);
    test_mesh_free(&m);
}

static void test_bad_settings_are_rejected(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh box;
    test_mesh_box(1, 1, 1, &box);
    size_t before = snug_ctx_allocated_bytes(ctx);
    for (int k = 0; k < 12; k++) {
        snug_bvh_def def = snug_default_bvh_def();
        switch (k) {
        case 0: def.bv_type = (snug_bv_type)99; break;
        case 1: def.splitter = (snug_splitter)-1; break;
        case 2: def.branching = 7; break;
        case 3: def.branching = 1; break;
        case 4: def.branching = 0, def.max_branching = 9; break;
        case 5: def.leaf_size = 256; break;
        case 6: def.max_depth = 65; break;
        case 7: def.measure = SNUG_MEASURE_COUNT; break;
        case 8: def.sah_bins = 3; break;
        case 9: def.alpha = 0.0f; break;
        case 10: def.alpha = NAN; break;
        default: def.splitter = SNUG_SPLITTER_BRANCH_BOUND, def.bb_max_faces = 100; break;
        }
        snug_status st;
        make(ctx, &box, &def, &st);
        CHECK_MSG(st == SNUG_ERR_INVALID_ARGUMENT, "case %d: %s", k, snug_status_name(st));
        CHECK(snug_ctx_last_error(ctx)[0] != '\0');
    }
    CHECK(snug_ctx_allocated_bytes(ctx) == before);
    test_mesh_free(&box);
    snug_ctx_destroy(ctx);
}

typedef struct failing_alloc {
    int countdown;
} failing_alloc;

static void* fail_alloc(size_t size, void* user) {
    failing_alloc* f = user;
    if (f->countdown-- == 0) return NULL;
    return malloc(size);
}

static void fail_free(void* p, void* user) {
    (void)user;
    free(p);
}

/* Fail the k-th allocation for every k in builds that take every allocation path (top-down with variable
 * branching, bottom-up, mixed types with Hausdorff bounds). */
static void test_out_of_memory_in_every_builder_path(void) {
    test_mesh m;
    test_mesh_torus(1.0f, 0.3f, 8, 12, &m);
    failing_alloc f = {-1};
    snug_ctx_def cdef = snug_default_ctx_def();
    cdef.alloc = fail_alloc;
    cdef.free = fail_free;
    cdef.user = &f;
    snug_ctx* ctx = snug_ctx_create(&cdef);
    uint32_t saved = snug_sah_cluster_min;
    for (int variant = 0; variant < 4; variant++) {
        snug_bvh_def def = snug_default_bvh_def();
        snug_sah_cluster_min = variant == 3 ? 0 : saved; /* 3: the clustered default build */
        if (variant == 0) def.branching = 0, def.bv_type = SNUG_BV_OBB;
        if (variant == 1) def.bottom_up = true, def.bv_type = SNUG_BV_SPHERE;
        if (variant == 2) def.bv_type = SNUG_BV_MIXED, def.hausdorff = true;
        snug_status st;
        snug_mesh warm = make(ctx, &m, &def, &st);
        CHECK(st == SNUG_OK);
        size_t base = snug_ctx_allocated_bytes(ctx);
        int failures = 0;
        for (int k = 0; k < 1000; k++) {
            f.countdown = k;
            snug_mesh h = make(ctx, &m, &def, &st);
            f.countdown = -1;
            if (st == SNUG_OK) {
                snug_mesh_destroy(ctx, h);
                break;
            }
            failures++;
            CHECK_MSG(st == SNUG_ERR_OUT_OF_MEMORY, "variant %d allocation %d: %s", variant, k, snug_status_name(st));
            CHECK_MSG(snug_ctx_allocated_bytes(ctx) == base, "variant %d allocation %d leaked", variant, k);
            RETURN_IF_FAILED();
        }
        CHECK(failures > 5);
        snug_mesh_destroy(ctx, warm);
    }
    snug_sah_cluster_min = saved;
    snug_ctx_destroy(ctx);
    test_mesh_free(&m);
}

/* Mesh edge adjacency (built by a counting sort on the smaller vertex) against brute force on random index
 * soups over few vertices: repeated vertices, non-manifold edges and large fans (the sorted-bucket fallback). */
static void test_adjacency_against_brute_force(void) {
    rng r = {harness_seed() ^ 0xad1ull};
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_bvh_def bvh = snug_default_bvh_def();
    int cases = 60 * harness_scale();
    for (int c = 0; c < cases; c++) {
        uint32_t nv = 3 + (uint32_t)(rng_next(&r) % 60), nt = 1 + (uint32_t)(rng_next(&r) % 150);
        test_mesh m = {malloc(12u * nv), malloc(12u * nt), nv, nt};
        for (uint32_t i = 0; i < 3 * nv; i++) m.positions[i] = rng_range(&r, -1.0f, 1.0f);
        for (uint32_t i = 0; i < 3 * nt; i++) m.indices[i] = (uint32_t)(rng_next(&r) % nv);
        snug_status st;
        snug_mesh h = make(ctx, &m, &bvh, &st);
        CHECK(st == SNUG_OK);
        snug_mesh_data* md = snug_mesh_lookup(ctx, h);
        /* built on first use: nothing before it, everything after */
        CHECK(!md || (md->edges == NULL && md->tri_edges == NULL && md->edge_count == 0));
        if (md && snug_mesh_adjacency(ctx, md) != SNUG_OK) md = NULL;
        if (md) {
            uint32_t E = md->edge_count, seen = 0, boundary = 0, nonmanifold = 0;
            for (uint32_t e = 0; e < E; e++) {
                CHECK(md->edges[2 * e] <= md->edges[2 * e + 1]);
                for (uint32_t f = e + 1; f < E; f++)
                    CHECK(md->edges[2 * e] != md->edges[2 * f] || md->edges[2 * e + 1] != md->edges[2 * f + 1]);
                uint32_t uses = 0, first[2] = {SNUG_NONE, SNUG_NONE};
                for (uint32_t x = 0; x < 3 * nt; x++)
                    if (md->tri_edges[x] == e) {
                        if (uses < 2) first[uses] = x / 3;
                        uses++;
                    }
                CHECK(uses > 0 && md->edge_tris[2 * e] == first[0] && md->edge_tris[2 * e + 1] == first[1]);
                boundary += uses == 1;
                nonmanifold += uses > 2;
            }
            for (uint32_t x = 0; x < 3 * nt; x++) {
                uint32_t a = md->tris[x], b = md->tris[x % 3 == 2 ? x - 2 : x + 1], e = md->tri_edges[x];
                if (a > b) {
                    uint32_t t = a;
                    a = b;
                    b = t;
                }
                CHECK(e < E && md->edges[2 * e] == a && md->edges[2 * e + 1] == b);
                /* ids in order of first appearance */
                CHECK(e <= seen);
                if (e == seen) seen++;
            }
            CHECK(seen == E && boundary == md->boundary_edge_count && nonmanifold == md->nonmanifold_edge_count);
        }
        snug_mesh_destroy(ctx, h);
        test_mesh_free(&m);
    }
    snug_ctx_destroy(ctx);
}

int main(void) {
    RUN(test_bad_settings_are_rejected);
    RUN(test_edge_cases);
    RUN(test_subnormal_extents);
    RUN(test_every_builder_on_teapot);
    RUN(test_every_builder_on_procedural);
    RUN(test_every_builder_on_bunny);
    RUN(test_dragon11k_aabb_and_obb);
    RUN(test_lean_sah_large_and_awkward);
    RUN(test_clustered_sah_build);
    RUN(test_unused_vertices_leave_the_tree);
    RUN(test_variable_branching_uses_alpha);
    RUN(test_refit_after_motion);
    RUN(test_hausdorff_bounds);
    RUN(test_quality_and_measures);
    RUN(test_out_of_memory_in_every_builder_path);
    RUN(test_adjacency_against_brute_force);
    return harness_finish();
}
