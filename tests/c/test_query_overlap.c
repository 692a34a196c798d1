/* Mesh-mesh overlap (first contact and all pairs) against brute force over every triangle pair. The brute force
 * uses the same triangle predicate on the same floats (B's vertices through the same relative transform) and
 * may reject pairs by their boxes only, so the answers must agree exactly; every BV type the builder offers
 * and every traversal strategy is exercised. */
#include "query_support.h"
#include "geom/tri.h"

typedef struct brute {
    uint32_t n;
    float *lo[3], *hi[3]; /* SoA triangle boxes of A, in A's frame */
    uint32_t* cand;
} brute;

static void brute_init(brute* bf, const test_mesh* a) {
    bf->n = a->triangle_count;
    for (int c = 0; c < 3; c++) {
        bf->lo[c] = malloc(bf->n * sizeof(float));
        bf->hi[c] = malloc(bf->n * sizeof(float));
    }
    bf->cand = malloc(bf->n * sizeof(uint32_t));
    for (uint32_t t = 0; t < bf->n; t++)
        for (int c = 0; c < 3; c++) {
            bf->lo[c][t] = fminf(fminf(qs_vertex(a, t, 0)[c], qs_vertex(a, t, 1)[c]), qs_vertex(a, t, 2)[c]);
            bf->hi[c][t] = fmaxf(fmaxf(qs_vertex(a, t, 0)[c], qs_vertex(a, t, 1)[c]), qs_vertex(a, t, 2)[c]);
        }
}

static void brute_free(brute* bf) {
    for (int c = 0; c < 3; c++) free(bf->lo[c]), free(bf->hi[c]);
    free(bf->cand);
}

static int pair_cmp(const void* x, const void* y) {
    const snug_tri_pair *a = x, *b = y;
    if (a->tri_a != b->tri_a) return a->tri_a < b->tri_a ? -1 : 1;
    return a->tri_b < b->tri_b ? -1 : a->tri_b > b->tri_b;
}

/* Every intersecting pair (sorted); returns the count, writes at most cap. */
static uint32_t brute_pairs(const brute* bf, const test_mesh* a, const test_mesh* b, const snug_xform* rel, float eps,
                            snug_tri_pair* out, uint32_t cap) {
    uint32_t total = 0;
    for (uint32_t j = 0; j < b->triangle_count; j++) {
        float tb[3][3], lo[3], hi[3];
        for (int c = 0; c < 3; c++) snug_xform_point(rel, qs_vertex(b, j, c), tb[c]);
        for (int c = 0; c < 3; c++) {
            lo[c] = fminf(fminf(tb[0][c], tb[1][c]), tb[2][c]);
            hi[c] = fmaxf(fmaxf(tb[0][c], tb[1][c]), tb[2][c]);
        }
        uint32_t k = 0;
        const float *lx = bf->lo[0], *ly = bf->lo[1], *lz = bf->lo[2], *hx = bf->hi[0], *hy = bf->hi[1], *hz = bf->hi[2];
        for (uint32_t i = 0; i < bf->n; i++) {
            int apart = (lo[0] - hx[i] > eps) | (lx[i] - hi[0] > eps) | (lo[1] - hy[i] > eps) | (ly[i] - hi[1] > eps) |
                        (lo[2] - hz[i] > eps) | (lz[i] - hi[2] > eps);
            bf->cand[k] = i;
            k += !apart;
        }
        for (uint32_t m = 0; m < k; m++) {
            uint32_t i = bf->cand[m];
            if (snug_tri_tri_overlap(qs_vertex(a, i, 0), qs_vertex(a, i, 1), qs_vertex(a, i, 2), tb[0], tb[1], tb[2], eps)) {
                if (total < cap) out[total] = (snug_tri_pair){i, j};
                total++;
            }
        }
    }
    if (total <= cap) qsort(out, total, sizeof *out, pair_cmp);
    return total;
}

typedef struct checker {
    snug_ctx* ctx;
    snug_tri_pair *expect, *got;
    uint32_t cap;
    long cases, hits, pairs;
} checker;

/* One case: brute force, then first contact and all pairs with the given strategy (all three when `all`). */
static void check_case(checker* ck, const brute* bf, const test_mesh* ta, snug_mesh ha, const test_mesh* tb, snug_mesh hb,
                       const snug_pose* pa, const snug_pose* pb, snug_traversal strategy, bool all, const char* what) {
    snug_xform rel;
    snug_xform_relative(pa, pb, &rel);
    float eps = fmaxf(qs_tolerance(ck->ctx, ha), qs_tolerance(ck->ctx, hb));
    uint32_t n = brute_pairs(bf, ta, tb, &rel, eps, ck->expect, ck->cap);
    CHECK_MSG(n <= ck->cap, "%s: %u pairs exceed the test buffer", what, n);
    ck->cases++;
    ck->hits += n > 0;
    ck->pairs += n;
    for (int s = 0; s < SNUG_TRAVERSAL_COUNT; s++) {
        snug_traversal st = all ? (snug_traversal)s : strategy;
        snug_ctx_set_traversal(ck->ctx, st);
        bool hit = false;
        snug_tri_pair w = {SNUG_NO_HIT, SNUG_NO_HIT};
        CHECK(snug_mesh_overlap(ck->ctx, ha, pa, hb, pb, &hit, &w) == SNUG_OK);
        CHECK_MSG(hit == (n > 0), "%s, traversal %d: first contact %d, brute force %u pairs (seed %llu)", what, (int)st,
                  hit, n, (unsigned long long)harness_seed());
        if (hit) CHECK_MSG(bsearch(&w, ck->expect, n, sizeof w, pair_cmp) != NULL, "%s: witness (%u, %u) not a brute-force pair",
                           what, w.tri_a, w.tri_b);
        uint32_t total = 0;
        CHECK(snug_mesh_overlap_all(ck->ctx, ha, pa, hb, pb, ck->got, ck->cap, &total) == SNUG_OK);
        CHECK_MSG(total == n, "%s, traversal %d: %u pairs, brute force %u (seed %llu)", what, (int)st, total, n,
                  (unsigned long long)harness_seed());
        if (total == n && n <= ck->cap) {
            qsort(ck->got, n, sizeof *ck->got, pair_cmp);
            CHECK_MSG(memcmp(ck->got, ck->expect, n * sizeof *ck->got) == 0, "%s: pair lists differ", what);
        }
        if (!all) break;
    }
}

static snug_pose nudge(rng* r, const snug_pose* p, float dist, float angle) {
    snug_pose out = *p;
    float axis[3];
    rng_unit_vec(r, axis);
    for (int i = 0; i < 3; i++) out.p[i] += dist * axis[i];
    rng_unit_vec(r, axis);
    for (int i = 0; i < 3; i++) out.q[i] += angle * axis[i];
    return out;
}

static void test_small_meshes_match_brute_force(void) {
    rng r = {harness_seed()};
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_bv_type types[SNUG_BV_TYPE_COUNT + 1];
    int ntypes = qs_bv_types(ctx, types);
    CHECK(ntypes >= 1);
    test_mesh pool[QS_POOL];
    qs_small_pool(&r, pool);
    snug_mesh h[SNUG_BV_TYPE_COUNT + 1][QS_POOL];
    brute bf[QS_POOL];
    for (int i = 0; i < QS_POOL; i++) {
        brute_init(&bf[i], &pool[i]);
        for (int t = 0; t < ntypes; t++) {
            h[t][i] = qs_make(ctx, &pool[i], types[t]);
            CHECK(h[t][i] != 0);
        }
    }
    checker ck = {ctx, malloc(40000 * sizeof(snug_tri_pair)), malloc(40000 * sizeof(snug_tri_pair)), 40000, 0, 0, 0};
    int cases = 100000 * harness_scale();
    for (int n = 0; n < cases && !harness_current_failed; n++) {
        int ia = (int)(rng_next(&r) % QS_POOL), ib = (int)(rng_next(&r) % QS_POOL);
        int ta = (int)(rng_next(&r) % (uint64_t)ntypes), tb = (int)(rng_next(&r) % (uint64_t)ntypes);
        snug_pose pa = qs_random_pose(&r, 2.0f), pb;
        int kind = (int)(rng_next(&r) % 16);
        char what[96];
        if (kind <= 10) {
            pb = qs_random_pose(&r, 2.0f);
            for (int i = 0; i < 3; i++) pb.p[i] += pa.p[i];
        } else if (kind == 12) { /* coincident copies */
            ib = ia;
            pb = pa;
        } else if (kind == 11) { /* near-coincident copies, offsets around the tolerance */
            ib = ia;
            pb = nudge(&r, &pa, powf(10.0f, rng_range(&r, -7.0f, -3.0f)), powf(10.0f, rng_range(&r, -7.0f, -3.0f)));
        } else { /* boxes stacked face to face: touching, or apart/overlapping by fractions of the tolerance */
            ia = 7;
            ib = kind == 13 ? 9 : 7;
            float hb = ib == 7 ? 0.3f : 1e-3f, gap = 1e-6f * rng_range(&r, -3.0f, 3.0f) * (kind == 15 ? 1.0f : 0.0f);
            pb = pa;
            float up[3] = {0, 0.3f + hb + gap, 0}, w[3];
            snug_xform xa;
            snug_xform_from_pose(&pa, &xa);
            snug_xform_dir(&xa, up, w);
            for (int i = 0; i < 3; i++) pb.p[i] = pa.p[i] + w[i];
        }
        snprintf(what, sizeof what, "case %d (meshes %d/%d, types %d/%d, kind %d)", n, ia, ib, (int)types[ta],
                 (int)types[tb], kind);
        check_case(&ck, &bf[ia], &pool[ia], h[ta][ia], &pool[ib], h[tb][ib], &pa, &pb,
                   (snug_traversal)(rng_next(&r) % SNUG_TRAVERSAL_COUNT), n % 100 == 0, what);
    }
    printf("  small meshes: %ld cases over %d BV types, %ld intersecting, %ld pairs\n", ck.cases, ntypes, ck.hits, ck.pairs);
    CHECK(ck.hits > ck.cases / 10 && ck.hits < ck.cases * 9 / 10);
    for (int i = 0; i < QS_POOL; i++) brute_free(&bf[i]);
    qs_free_pool(pool, QS_POOL);
    free(ck.expect);
    free(ck.got);
    snug_ctx_destroy(ctx);
}

static void aabb_of(const test_mesh* m, float lo[3], float hi[3]) {
    for (int c = 0; c < 3; c++) lo[c] = INFINITY, hi[c] = -INFINITY;
    for (uint32_t v = 0; v < m->vertex_count; v++)
        for (int c = 0; c < 3; c++) lo[c] = fminf(lo[c], m->positions[3 * v + c]), hi[c] = fmaxf(hi[c], m->positions[3 * v + c]);
}

/* Big meshes against scaled small ones placed inside their box, and against near-coincident copies of themselves. */
static void test_big_meshes_match_brute_force(void) {
    rng r = {harness_seed() ^ 0xb16b00b5u};
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_bv_type types[SNUG_BV_TYPE_COUNT + 1];
    int ntypes = qs_bv_types(ctx, types);
    /* building the biggest k-DOP and mixed trees dominates under the sanitizers: there only the cheaper types */
    if (QS_SANITIZED)
        while (ntypes > 0 && (types[ntypes - 1] == SNUG_BV_MIXED || types[ntypes - 1] == SNUG_BV_KDOP26)) ntypes--;
    const char* names[4] = {"bunny", "teapot", "dragon11k", "torusknot10k"};
    checker ck = {ctx, malloc(400000 * sizeof(snug_tri_pair)), malloc(400000 * sizeof(snug_tri_pair)), 400000, 0, 0, 0};
    int per_mesh = (QS_SANITIZED ? 50 : 250) * harness_scale();
    for (int k = 0; k < 4; k++) {
        test_mesh big;
        if (!test_mesh_load(names[k], &big)) continue;
        float lo[3], hi[3];
        aabb_of(&big, lo, hi);
        float diag = sqrtf((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) + (hi[2] - lo[2]) * (hi[2] - lo[2]));
        test_mesh pool[QS_POOL];
        qs_small_pool(&r, pool);
        for (int i = 0; i < QS_POOL; i++)
            for (uint32_t v = 0; v < pool[i].vertex_count * 3; v++) pool[i].positions[v] *= 0.15f * diag;
        brute bf;
        brute_init(&bf, &big);
        snug_mesh hbig[SNUG_BV_TYPE_COUNT + 1], hsmall[SNUG_BV_TYPE_COUNT + 1][QS_POOL];
        for (int t = 0; t < ntypes; t++) {
            hbig[t] = qs_make(ctx, &big, types[t]);
            for (int i = 0; i < QS_POOL; i++) hsmall[t][i] = qs_make(ctx, &pool[i], types[t]);
        }
        for (int n = 0; n < per_mesh && !harness_current_failed; n++) {
            int ta = (int)(rng_next(&r) % (uint64_t)ntypes), tb = (int)(rng_next(&r) % (uint64_t)ntypes);
            snug_pose pa = qs_random_pose(&r, diag), pb;
            char what[96];
            snug_xform xa;
            snug_xform_from_pose(&pa, &xa);
            bool self = n % 25 == 0 && k < 2; /* brute force of a whole copy is affordable for bunny and teapot */
            if (self) {
                pb = nudge(&r, &pa, diag * powf(10.0f, rng_range(&r, -7.0f, -3.0f)), powf(10.0f, rng_range(&r, -6.0f, -3.0f)));
                snprintf(what, sizeof what, "%s self case %d (types %d/%d)", names[k], n, (int)types[ta], (int)types[tb]);
                check_case(&ck, &bf, &big, hbig[ta], &big, hbig[tb], &pa, &pb,
                           (snug_traversal)(rng_next(&r) % SNUG_TRAVERSAL_COUNT), true, what);
                continue;
            }
            int ib = (int)(rng_next(&r) % QS_POOL);
            float local[3], w[3];
            for (int c = 0; c < 3; c++) local[c] = rng_range(&r, lo[c], hi[c]);
            snug_xform_point(&xa, local, w);
            pb = qs_random_pose(&r, 0);
            for (int c = 0; c < 3; c++) pb.p[c] = w[c];
            snprintf(what, sizeof what, "%s case %d (small %d, types %d/%d)", names[k], n, ib, (int)types[ta], (int)types[tb]);
            check_case(&ck, &bf, &big, hbig[ta], &pool[ib], hsmall[tb][ib], &pa, &pb,
                       (snug_traversal)(rng_next(&r) % SNUG_TRAVERSAL_COUNT), n % 10 == 0, what);
        }
        brute_free(&bf);
        qs_free_pool(pool, QS_POOL);
        test_mesh_free(&big);
    }
    printf("  big meshes: %ld cases, %ld intersecting, %ld pairs\n", ck.cases, ck.hits, ck.pairs);
    CHECK(ck.hits > ck.cases / 10);
    free(ck.expect);
    free(ck.got);
    snug_ctx_destroy(ctx);
}

static void test_bad_input(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh box;
    test_mesh_box(1, 1, 1, &box);
    snug_mesh a = qs_make(ctx, &box, SNUG_BV_AABB), b = qs_make(ctx, &box, SNUG_BV_AABB);
    snug_pose p = snug_pose_identity(), bad = p;
    bad.p[1] = NAN;
    bool hit = true;
    snug_tri_pair pairs[4];
    uint32_t total = 7;
    CHECK(snug_mesh_overlap(NULL, a, &p, b, &p, &hit, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_overlap(ctx, a, NULL, b, &p, &hit, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_overlap(ctx, a, &p, b, &p, NULL, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_overlap(ctx, a, &p, b, &bad, &hit, NULL) == SNUG_ERR_NOT_FINITE);
    bad = p;
    bad.q[3] = INFINITY;
    CHECK(snug_mesh_overlap(ctx, a, &bad, b, &p, &hit, NULL) == SNUG_ERR_NOT_FINITE);
    CHECK(snug_mesh_overlap_all(ctx, a, &p, b, &p, NULL, 4, &total) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_overlap_all(ctx, a, &p, b, &p, pairs, 4, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(hit == true && total == 7); /* failed calls leave outputs alone */
    snug_mesh_destroy(ctx, b);
    CHECK(snug_mesh_overlap(ctx, a, &p, b, &p, &hit, NULL) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_mesh_overlap(ctx, 0, &p, a, &p, &hit, NULL) == SNUG_ERR_STALE_HANDLE);
    /* coincident boxes: every pair of touching triangles; a small buffer still reports the total */
    b = qs_make(ctx, &box, SNUG_BV_AABB);
    CHECK(snug_mesh_overlap_all(ctx, a, &p, b, &p, pairs, 4, &total) == SNUG_ERR_BUFFER_TOO_SMALL);
    CHECK(total > 4);
    uint32_t total0 = 0;
    CHECK(snug_mesh_overlap_all(ctx, a, &p, b, &p, NULL, 0, &total0) == SNUG_ERR_BUFFER_TOO_SMALL);
    CHECK(total0 == total);
    CHECK(snug_mesh_overlap(ctx, a, &p, b, &p, &hit, NULL) == SNUG_OK && hit);
    const snug_query_stats* s = snug_ctx_last_stats(ctx);
    CHECK(s->primitive_tests >= 1 && s->nodes_visited >= 1 && s->bv_tests[SNUG_BV_AABB][SNUG_BV_AABB] >= 1);
    CHECK(snug_ctx_set_traversal(ctx, (snug_traversal)9) == SNUG_ERR_INVALID_ARGUMENT);
    test_mesh_free(&box);
    snug_ctx_destroy(ctx);
}

/* A fine mesh against one leaf of two small triangles at opposite corners outside it: the leaf's box holds all of
 * the fine mesh, each triangle's box none of it. The search ends at the root pair instead of meeting every leaf of
 * the fine mesh (each one then rejected triangle by triangle), as it did for a 48k dragon beside a monitor. */
static void test_a_loose_leaf_does_not_open_the_fine_mesh(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh sphere;
    test_mesh_sphere(1.0f, 64, 128, &sphere);
    float corners[6][3] = {{-1.3f, -1.3f, -1.3f}, {-1.25f, -1.3f, -1.3f}, {-1.3f, -1.25f, -1.3f},
                           {1.3f, 1.3f, 1.3f},    {1.25f, 1.3f, 1.3f},    {1.3f, 1.25f, 1.3f}};
    uint32_t idx[6] = {0, 1, 2, 3, 4, 5};
    test_mesh pair = {&corners[0][0], idx, 6, 2};
    snug_mesh a = qs_make(ctx, &sphere, SNUG_BV_AABB), b = qs_make(ctx, &pair, SNUG_BV_AABB);
    snug_pose p = snug_pose_identity();
    bool hit = true;
    CHECK(snug_mesh_overlap(ctx, a, &p, b, &p, &hit, NULL) == SNUG_OK && !hit);
    const snug_query_stats* st = snug_ctx_last_stats(ctx);
    CHECK_MSG(st->primitive_tests == 0 && st->nodes_visited <= 4, "%llu node pairs visited, %llu triangle pairs tested",
              (unsigned long long)st->nodes_visited, (unsigned long long)st->primitive_tests);
    test_mesh_free(&sphere);
    snug_ctx_destroy(ctx);
}

int main(void) {
    RUN(test_bad_input);
    RUN(test_a_loose_leaf_does_not_open_the_fine_mesh);
    if (!getenv("QS_SKIP_SMALL")) RUN(test_small_meshes_match_brute_force);
    if (!getenv("QS_SKIP_BIG")) RUN(test_big_meshes_match_brute_force);
    return harness_finish();
}
