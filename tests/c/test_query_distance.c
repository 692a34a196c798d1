/* Mesh-mesh distance and the tolerance query against brute force over every triangle pair (pairs whose boxes are
 * already farther apart than the best distance may be skipped). Distances must agree within 1e-5 of the model
 * size, the reported points must lie on the reported triangles and realise the distance; every BV type, with and
 * without Hausdorff bounds, and every traversal strategy. */
#include "query_support.h"
#include "geom/tri.h"

/* Brute-force distance in A's frame (B through the query's relative transform). */
static double brute_distance(const test_mesh* a, const test_mesh* b, const snug_xform* rel) {
    float best = INFINITY;
    float* tb = malloc(b->triangle_count * 9 * sizeof(float));
    float* blo = malloc(b->triangle_count * 3 * sizeof(float));
    float* bhi = malloc(b->triangle_count * 3 * sizeof(float));
    for (uint32_t j = 0; j < b->triangle_count; j++)
        for (int c = 0; c < 3; c++) {
            snug_xform_point(rel, qs_vertex(b, j, c), tb + 9 * j + 3 * c);
        }
    for (uint32_t j = 0; j < b->triangle_count; j++)
        for (int k = 0; k < 3; k++) {
            blo[3 * j + k] = fminf(fminf(tb[9 * j + k], tb[9 * j + 3 + k]), tb[9 * j + 6 + k]);
            bhi[3 * j + k] = fmaxf(fmaxf(tb[9 * j + k], tb[9 * j + 3 + k]), tb[9 * j + 6 + k]);
        }
    for (uint32_t i = 0; i < a->triangle_count; i++) {
        const float *a0 = qs_vertex(a, i, 0), *a1 = qs_vertex(a, i, 1), *a2 = qs_vertex(a, i, 2);
        float lo[3], hi[3];
        for (int c = 0; c < 3; c++) {
            lo[c] = fminf(fminf(a0[c], a1[c]), a2[c]);
            hi[c] = fmaxf(fmaxf(a0[c], a1[c]), a2[c]);
        }
        for (uint32_t j = 0; j < b->triangle_count; j++) {
            float g2 = 0.0f;
            for (int c = 0; c < 3; c++) {
                float g = fmaxf(blo[3 * j + c] - hi[c], lo[c] - bhi[3 * j + c]);
                if (g > 0.0f) g2 += g * g;
            }
            if (g2 >= best * best) continue;
            float pa[3], pb[3];
            float d = snug_tri_tri_distance(a0, a1, a2, tb + 9 * j, tb + 9 * j + 3, tb + 9 * j + 6, pa, pb);
            if (d < best) best = d;
        }
    }
    free(tb);
    free(blo);
    free(bhi);
    return best;
}

static void world_vertex(const test_mesh* m, const snug_pose* p, uint32_t t, int c, float out[3]) {
    snug_xform x;
    snug_xform_from_pose(p, &x);
    snug_xform_point(&x, qs_vertex(m, t, c), out);
}

static void check_result(snug_ctx* ctx, const test_mesh* ta, snug_mesh ha, const snug_pose* pa, const test_mesh* tb,
                         snug_mesh hb, const snug_pose* pb, double expect, float size, const char* what) {
    snug_distance_result res;
    CHECK(snug_mesh_distance(ctx, ha, pa, hb, pb, &res) == SNUG_OK);
    float tol = 1e-5f * size;
    CHECK_MSG(fabs(res.distance - expect) <= tol, "%s: distance %.9g, brute force %.9g (seed %llu)", what,
              (double)res.distance, expect, (unsigned long long)harness_seed());
    float d[3] = {res.point_a[0] - res.point_b[0], res.point_a[1] - res.point_b[1], res.point_a[2] - res.point_b[2]};
    CHECK_MSG(fabsf(sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) - res.distance) <= tol, "%s: points do not realise the distance", what);
    CHECK(res.tri_a < ta->triangle_count && res.tri_b < tb->triangle_count);
    if (res.tri_a < ta->triangle_count && res.tri_b < tb->triangle_count) {
        float v[3][3], q[3];
        for (int c = 0; c < 3; c++) world_vertex(ta, pa, res.tri_a, c, v[c]);
        CHECK_MSG(sqrtf(snug_point_tri_closest(res.point_a, v[0], v[1], v[2], q)) <= tol, "%s: point_a off tri_a", what);
        for (int c = 0; c < 3; c++) world_vertex(tb, pb, res.tri_b, c, v[c]);
        CHECK_MSG(sqrtf(snug_point_tri_closest(res.point_b, v[0], v[1], v[2], q)) <= tol, "%s: point_b off tri_b", what);
    }
    /* the tolerance query, on both sides of the distance */
    float probes[2] = {(float)expect - 1e-4f * size, (float)expect + 1e-4f * size};
    for (int k = 0; k < 2; k++) {
        bool within = false;
        CHECK(snug_mesh_within(ctx, ha, pa, hb, pb, probes[k], &within) == SNUG_OK);
        CHECK_MSG(within == (k == 1) || (k == 0 && probes[k] < 0 && !within), "%s: within(%g) = %d for distance %.9g", what,
                  (double)probes[k], within, expect);
    }
}

static void test_small_meshes_match_brute_force(void) {
    rng r = {harness_seed()};
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_bv_type types[SNUG_BV_TYPE_COUNT + 1];
    int ntypes = qs_bv_types(ctx, types);
    test_mesh pool[QS_POOL];
    qs_small_pool(&r, pool);
    snug_mesh h[SNUG_BV_TYPE_COUNT + 1][2][QS_POOL];
    for (int i = 0; i < QS_POOL; i++)
        for (int t = 0; t < ntypes; t++)
            for (int hd = 0; hd < 2; hd++) {
                h[t][hd][i] = qs_make_ex(ctx, &pool[i], types[t], hd == 1);
                CHECK(h[t][hd][i] != 0);
            }
    int cases = 20000 * harness_scale();
    int touching = 0;
    for (int n = 0; n < cases && !harness_current_failed; n++) {
        int ia = (int)(rng_next(&r) % QS_POOL), ib = (int)(rng_next(&r) % QS_POOL);
        int ta = (int)(rng_next(&r) % (uint64_t)ntypes), tb = (int)(rng_next(&r) % (uint64_t)ntypes);
        int hd = (int)(rng_next(&r) % 2);
        snug_pose pa = qs_random_pose(&r, 2.0f), pb = qs_random_pose(&r, n % 4 == 0 ? 2.0f : 5.0f);
        for (int i = 0; i < 3; i++) pb.p[i] += pa.p[i];
        if (n % 20 == 0) {
            ib = ia;
            pb = pa;
            pb.p[0] += 1e-3f * (float)(n % 3);
        }
        snug_xform rel;
        snug_xform_relative(&pa, &pb, &rel);
        double expect = brute_distance(&pool[ia], &pool[ib], &rel);
        touching += expect == 0.0;
        float size = fmaxf(qs_scale(ctx, h[ta][hd][ia]), qs_scale(ctx, h[tb][hd][ib]));
        char what[96];
        snprintf(what, sizeof what, "case %d (meshes %d/%d, types %d/%d, hausdorff %d)", n, ia, ib, (int)types[ta],
                 (int)types[tb], hd);
        snug_ctx_set_traversal(ctx, (snug_traversal)(n % SNUG_TRAVERSAL_COUNT));
        check_result(ctx, &pool[ia], h[ta][hd][ia], &pa, &pool[ib], h[tb][hd][ib], &pb, expect, size, what);
    }
    CHECK(touching > 0 && touching < cases / 2);
    qs_free_pool(pool, QS_POOL);
    snug_ctx_destroy(ctx);
}

/* Big meshes against scaled small ones at random distances, and two dragons at the benchmark poses. */
static void test_big_meshes_match_brute_force(void) {
    rng r = {harness_seed() ^ 0xd1b54a32u};
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_bv_type types[SNUG_BV_TYPE_COUNT + 1];
    int ntypes = qs_bv_types(ctx, types);
    if (QS_SANITIZED)
        while (ntypes > 0 && (types[ntypes - 1] == SNUG_BV_MIXED || types[ntypes - 1] == SNUG_BV_KDOP26)) ntypes--;
    const char* names[4] = {"bunny", "teapot", "dragon11k", "torusknot10k"};
    int per_mesh = (QS_SANITIZED ? 5 : 25) * harness_scale();
    for (int k = 0; k < 4; k++) {
        test_mesh big;
        if (!test_mesh_load(names[k], &big)) continue;
        int t = k % ntypes;
        snug_mesh hb = qs_make_ex(ctx, &big, types[t], k % 2 == 0);
        float size = qs_scale(ctx, hb);
        test_mesh pool[QS_POOL];
        qs_small_pool(&r, pool);
        for (int n = 0; n < per_mesh && !harness_current_failed; n++) {
            int ib = (int)(rng_next(&r) % QS_POOL);
            test_mesh* s = &pool[ib];
            snug_mesh hs = qs_make(ctx, s, types[(t + n) % ntypes]);
            snug_pose pa = qs_random_pose(&r, size), pb = qs_random_pose(&r, size);
            /* the small mesh is ~2 units: scale the pose offset instead of the mesh */
            snug_xform rel;
            snug_xform_relative(&pa, &pb, &rel);
            double expect = brute_distance(&big, s, &rel);
            char what[96];
            snprintf(what, sizeof what, "%s case %d (small %d)", names[k], n, ib);
            snug_ctx_set_traversal(ctx, (snug_traversal)(n % SNUG_TRAVERSAL_COUNT));
            check_result(ctx, &big, hb, &pa, s, hs, &pb, expect, fmaxf(size, qs_scale(ctx, hs)), what);
            snug_mesh_destroy(ctx, hs);
        }
        qs_free_pool(pool, QS_POOL);
        test_mesh_free(&big);
    }
    snug_ctx_destroy(ctx);
}

static void test_bad_input_and_strategies_agree(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh sphere, torus;
    test_mesh_sphere(1.0f, 12, 16, &sphere);
    test_mesh_torus(2.0f, 0.5f, 16, 12, &torus);
    snug_mesh a = qs_make(ctx, &sphere, SNUG_BV_AABB), b = qs_make_ex(ctx, &torus, SNUG_BV_AABB, true);
    snug_pose p = snug_pose_identity(), q = p, bad = p;
    q.p[0] = 5.0f;
    bad.q[0] = NAN;
    snug_distance_result res;
    bool w;
    CHECK(snug_mesh_distance(NULL, a, &p, b, &q, &res) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_distance(ctx, a, &p, b, &q, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_distance(ctx, a, &bad, b, &q, &res) == SNUG_ERR_NOT_FINITE);
    CHECK(snug_mesh_within(ctx, a, &p, b, NULL, 1.0f, &w) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_within(ctx, a, &p, b, &q, NAN, &w) == SNUG_ERR_NOT_FINITE);
    CHECK(snug_mesh_within(ctx, a, &p, b, &q, 1.0f, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    snug_mesh gone = qs_make(ctx, &sphere, SNUG_BV_AABB);
    snug_mesh_destroy(ctx, gone);
    CHECK(snug_mesh_distance(ctx, gone, &p, b, &q, &res) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_mesh_within(ctx, a, &p, gone, &q, 1.0f, &w) == SNUG_ERR_STALE_HANDLE);
    /* sphere radius 1 at the origin, torus (R 2, r 0.5) centred at x = 5: the nearest torus point is x = 2.5 */
    float first = -1.0f;
    for (int s = 0; s < SNUG_TRAVERSAL_COUNT; s++) {
        snug_ctx_set_traversal(ctx, (snug_traversal)s);
        CHECK(snug_mesh_distance(ctx, a, &p, b, &q, &res) == SNUG_OK);
        CHECK_NEAR(res.distance, 1.5, 0.02);
        if (s == 0) first = res.distance;
        CHECK_NEAR(res.distance, first, 1e-6);
        CHECK(snug_ctx_last_stats(ctx)->primitive_tests > 0);
    }
    CHECK(snug_mesh_within(ctx, a, &p, b, &q, 1.6f, &w) == SNUG_OK && w);
    CHECK(snug_mesh_within(ctx, a, &p, b, &q, 1.4f, &w) == SNUG_OK && !w);
    CHECK(snug_mesh_within(ctx, a, &p, b, &q, -1.0f, &w) == SNUG_OK && !w);
    test_mesh_free(&sphere);
    test_mesh_free(&torus);
    snug_ctx_destroy(ctx);
}

/* The torus knot 63 units from the teapot's side, along (0.43, 0.56, 0.71): the teapot's curved side is large against
 * the knot and far from it, so thousands of triangle pairs lie within 1 % of the distance and every bound from the
 * two meshes' extents (frame gaps, boxes) passes them: the search measured 8,579 triangle pairs exactly. The gap
 * along the line through two triangles' centroids is nearly exact at such a distance and leaves 15 (counters, not a
 * clock: at most 100); the centre line of two nodes prunes the same way one level up (OBB trees: 14,699 node pairs
 * at 5 units on the diagonal, now 1,491). */
static void test_near_ties_measure_few_triangle_pairs(void) {
    test_mesh tp, knot;
    if (!test_mesh_load("teapot", &tp) || !test_mesh_load("torusknot10k", &knot)) return;
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh a = test_mesh_make(ctx, &tp, NULL), b = test_mesh_make(ctx, &knot, NULL);
    snug_pose pa = snug_pose_identity(), pb = pa;
    pb.p[0] = 31.1993752f, pb.p[1] = 40.9026642f, pb.p[2] = 51.700882f;
    snug_distance_result res;
    CHECK(snug_mesh_distance(ctx, a, &pa, b, &pb, &res) == SNUG_OK);
    uint64_t tests = snug_ctx_last_stats(ctx)->primitive_tests;
    CHECK_MSG(tests <= 100, "%llu triangle pairs measured", (unsigned long long)tests);
    snug_xform rel;
    snug_xform_relative(&pa, &pb, &rel);
    CHECK_NEAR(res.distance, brute_distance(&tp, &knot, &rel), 1e-5 * 100.0);
    /* OBB trees, the knot 5 units beyond the teapot's bounding sphere on the diagonal */
    snug_bvh_def def = snug_default_bvh_def();
    def.bv_type = SNUG_BV_OBB;
    def.splitter = SNUG_SPLITTER_GOTTSCHALK;
    snug_mesh oa = test_mesh_make(ctx, &tp, &def), ob = test_mesh_make(ctx, &knot, &def);
    pb.p[0] = 16.0074997f, pb.p[1] = 16.1674919f, pb.p[2] = 16.167429f;
    CHECK(snug_mesh_distance(ctx, oa, &pa, ob, &pb, &res) == SNUG_OK);
    uint64_t visits = snug_ctx_last_stats(ctx)->nodes_visited;
    CHECK_MSG(visits <= 3000, "%llu node pairs visited", (unsigned long long)visits);
    snug_xform_relative(&pa, &pb, &rel);
    CHECK_NEAR(res.distance, brute_distance(&tp, &knot, &rel), 1e-5 * 100.0);
    test_mesh_free(&tp);
    test_mesh_free(&knot);
    snug_ctx_destroy(ctx);
}

/* A mesh of coincident points with Hausdorff bounds against a turned copy of itself (fuzz_mesh found it): the upper
 * bound of a node pair and the lower bound of the same pair, computed in different frames, differ by rounding, and
 * the rounding allowance was relative to the meshes' sizes (zero for points) instead of their coordinates, so every
 * pair was pruned, no pair was found and the answer read an unset triangle. */
static void test_point_meshes_with_hausdorff_bounds(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    float pos[12 * 9];
    for (int i = 0; i < 12 * 9; i++) pos[i] = 3.375f;
    const int leaf_sizes[] = {1, 4};
    for (int k = 0; k < 2; k++) {
        snug_mesh_def def = snug_default_mesh_def();
        def.positions = pos;
        def.vertex_count = 36;
        def.triangle_count = 12;
        def.weld = false;
        def.bvh.hausdorff = true;
        def.bvh.leaf_size = leaf_sizes[k];
        snug_mesh h;
        CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_OK);
        snug_pose pa = {{0.0f, 0.43503f, -0.43503f, 0.78834f}, {3.375f, 3.375f, 3.375f}};
        snug_pose pb = {{0.49328f, -0.16443f, 0.32886f, 0.78834f}, {3.375f, 3.375f, 3.375f}};
        snug_distance_result r;
        CHECK(snug_mesh_distance(ctx, h, &pa, h, &pb, &r) == SNUG_OK);
        CHECK_MSG(r.tri_a < 12 && r.tri_b < 12, "leaf size %d: triangles %u %u", leaf_sizes[k], r.tri_a, r.tri_b);
        /* the two images of the point, in world */
        snug_xform xa, xb;
        snug_xform_from_pose(&pa, &xa);
        snug_xform_from_pose(&pb, &xb);
        float wa[3], wb[3];
        snug_xform_point(&xa, pos, wa);
        snug_xform_point(&xb, pos, wb);
        CHECK_NEAR(r.distance, glm_vec3_distance(wa, wb), 1e-5);
        /* points at the origin 3.6e-22 apart: the gaps square into denormals, and the lower bound came out above
         * the Hausdorff upper bound, which pruned every pair (an unset triangle was read; found by fuzz_blob) */
        float zero[12 * 9] = {0};
        def.positions = zero;
        snug_mesh z;
        CHECK(snug_mesh_create(ctx, &def, &z) == SNUG_OK);
        snug_pose za = snug_pose_identity(), zb = snug_pose_identity();
        zb.p[0] = 3.64884e-22f;
        CHECK(snug_mesh_distance(ctx, z, &za, z, &zb, &r) == SNUG_OK);
        CHECK_MSG(r.tri_a < 12 && r.tri_b < 12 && r.distance <= 4e-22f, "leaf size %d: triangles %u %u at %g",
                  leaf_sizes[k], r.tri_a, r.tri_b, (double)r.distance);
        snug_mesh_destroy(ctx, z);
        snug_mesh_destroy(ctx, h);
    }
    snug_ctx_destroy(ctx);
}

/* The teapot and a torus knot apart along the diagonal (1, 1, 1), 30 to 10^4 units: the boxes of both trees fall
 * short of the triangles they hold by up to their size along a diagonal, and the search visited 1.7M-1.9M node
 * pairs there (160-240 ms). Counters, not a clock: the node pairs visited stay below 300 (11-56 when this was
 * written, expanding both nodes of every pair; up to 223 expanding one of two nodes of unlike size, each visit then
 * a smaller step), and the distance matches brute force over every triangle pair. */
static void test_far_apart_meshes_are_cheap(void) {
    test_mesh tp, knot;
    if (!test_mesh_load("teapot", &tp) || !test_mesh_load("torusknot10k", &knot)) return;
    snug_ctx* ctx = snug_ctx_create(NULL);
    const snug_bv_type types[] = {SNUG_BV_AABB, SNUG_BV_OBB};
    const float gaps[] = {30.0f, 100.0f, 1000.0f, 10000.0f};
    for (int t = 0; t < 2; t++) {
        snug_bvh_def def = snug_default_bvh_def();
        def.bv_type = types[t];
        if (t) def.splitter = SNUG_SPLITTER_GOTTSCHALK;
        snug_mesh a = test_mesh_make(ctx, &tp, &def), b = test_mesh_make(ctx, &knot, &def);
        for (int g = 0; g < 4; g++) {
            snug_pose pa = snug_pose_identity(), pb = pa;
            for (int k = 0; k < 3; k++) pb.p[k] = (gaps[g] + 25.0f) / sqrtf(3.0f);
            snug_distance_result res;
            CHECK(snug_mesh_distance(ctx, a, &pa, b, &pb, &res) == SNUG_OK);
            uint64_t visits = snug_ctx_last_stats(ctx)->nodes_visited;
            CHECK_MSG(visits <= 300, "type %d gap %g: %llu node pairs visited", (int)types[t], (double)gaps[g],
                      (unsigned long long)visits);
            snug_xform rel;
            snug_xform_relative(&pa, &pb, &rel);
            double expect = brute_distance(&tp, &knot, &rel);
            CHECK_NEAR(res.distance, expect, 1e-5 * (gaps[g] + 50.0f));
        }
    }
    test_mesh_free(&tp);
    test_mesh_free(&knot);
    snug_ctx_destroy(ctx);
}

/* The same search in every build: the teapot and the torus knot with their bounding spheres 3 apart along (1, 1, 1)
 * (the bench's far row). With the waiting pairs sorted by lower bound alone, ties came out in another order under
 * wasm's qsort than glibc's, and the wasm build visited 249 node pairs and measured 74 triangle pairs of the AABB
 * trees where the native one visited 219 and measured 50. This test runs in every build (native, sanitizers, wasm)
 * and expects the same counts in each. */
static void test_the_search_is_the_same_in_every_build(void) {
    test_mesh tp, knot;
    if (!test_mesh_load("teapot", &tp) || !test_mesh_load("torusknot10k", &knot)) return;
    snug_ctx* ctx = snug_ctx_create(NULL);
    const uint64_t expect[2][2] = {{219, 50}, {221, 50}};
    for (int t = 0; t < 2; t++) {
        snug_bvh_def def = snug_default_bvh_def();
        def.hausdorff = false;
        if (t) def.bv_type = SNUG_BV_OBB, def.splitter = SNUG_SPLITTER_GOTTSCHALK;
        snug_mesh a = test_mesh_make(ctx, &tp, &def), b = test_mesh_make(ctx, &knot, &def);
        double c[2][3], r[2]; /* placed as tests/bench/timing.h's bench_far_pose places them */
        qs_box_sphere(&tp, c[0], &r[0]);
        qs_box_sphere(&knot, c[1], &r[1]);
        snug_pose pa = snug_pose_identity(), pb = pa;
        for (int k = 0; k < 3; k++) pb.p[k] = (float)(c[0][k] - c[1][k] + (r[0] + r[1] + 3.0) / sqrt(3.0));
        snug_distance_result res;
        CHECK(snug_mesh_distance(ctx, a, &pa, b, &pb, &res) == SNUG_OK);
        const snug_query_stats* st = snug_ctx_last_stats(ctx);
        CHECK_MSG(st->nodes_visited == expect[t][0] && st->primitive_tests == expect[t][1],
                  "type %d: %llu node pairs, %llu triangle pairs", t, (unsigned long long)st->nodes_visited,
                  (unsigned long long)st->primitive_tests);
    }
    test_mesh_free(&tp);
    test_mesh_free(&knot);
    snug_ctx_destroy(ctx);
}

/* A small mesh beside a large one (the bunny beside the 11k dragon, 40 fixed random poses 0.6-1.5 of their half
 * diagonals apart): expanding both nodes of every pair paired the dragon's coarse nodes with the bunny's fine ones,
 * which their bounds cannot tell apart, and visited 1,458 node pairs a query with AABB trees, 2,272 with OBB trees;
 * expanding the larger of two nodes of unlike size, 719 and 1,461. Counters, not a clock: at most 1,000 and 1,900. */
static void test_a_small_mesh_beside_a_large_one_is_cheap(void) {
    test_mesh big, small;
    if (!test_mesh_load("dragon11k", &big) || !test_mesh_load("bunny", &small)) return;
    snug_ctx* ctx = snug_ctx_create(NULL);
    double c[3], rb, rs;
    qs_box_sphere(&big, c, &rb);
    qs_box_sphere(&small, c, &rs);
    const float reach = (float)(rb + rs);
    const uint64_t limit[2] = {1000, 1900};
    for (int t = 0; t < 2; t++) {
        snug_bvh_def def = snug_default_bvh_def();
        if (t) def.bv_type = SNUG_BV_OBB, def.splitter = SNUG_SPLITTER_GOTTSCHALK;
        snug_mesh a = test_mesh_make(ctx, &big, &def), b = test_mesh_make(ctx, &small, &def);
        rng r = {20261122}; /* fixed poses: the visits of one pose vary tenfold */
        uint64_t visits = 0;
        const int poses = 40;
        for (int i = 0; i < poses; i++) {
            snug_pose pa = snug_pose_identity(), pb = pa;
            float u[3];
            rng_unit_vec(&r, u);
            rng_unit_quat(&r, pb.q);
            float gap = (0.6f + 0.9f * rng_float(&r)) * reach;
            for (int k = 0; k < 3; k++) pb.p[k] = gap * u[k];
            snug_distance_result res;
            CHECK(snug_mesh_distance(ctx, a, &pa, b, &pb, &res) == SNUG_OK);
            visits += snug_ctx_last_stats(ctx)->nodes_visited;
        }
        CHECK_MSG(visits <= limit[t] * poses, "type %d: %llu node pairs visited in %d queries", t,
                  (unsigned long long)visits, poses);
    }
    test_mesh_free(&big);
    test_mesh_free(&small);
    snug_ctx_destroy(ctx);
}

/* Meshes far from the origin: a soup 4 units wide around (0, 0, 5e7), a copy turned about z and moved a few units.
 * Every float there rounds by ~4 units, so a lower bound computed from such coordinates can exceed the distance of
 * the same triangles by that much; the bounds subtract an allowance relative to the coordinates. Found by fuzz_mesh:
 * the line-through-the-centres bound of the root pair exceeded the answer (52 against 50.46), and the tolerance
 * query at the distance answered "not within" (or, with Hausdorff bounds, every pair was pruned). The tolerance
 * query must say "within" just above the distance the distance query answered. */
static void test_meshes_far_from_the_origin(void) {
    rng r = {harness_seed()};
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_bv_type types[SNUG_BV_TYPE_COUNT + 1];
    int ntypes = qs_bv_types(ctx, types);
    for (int n = 0; n < 200 && !harness_current_failed; n++) {
        test_mesh m;
        test_mesh_soup(&r, 8, 4.0f, 0.4f, &m);
        for (uint32_t v = 0; v < m.vertex_count; v++) m.positions[3 * v + 2] += 5e7f;
        snug_mesh h = qs_make_ex(ctx, &m, types[n % ntypes], n % 2 == 1);
        CHECK(h != 0);
        float angle = rng_range(&r, -3.0f, 3.0f);
        snug_pose pa = snug_pose_identity(), pb = {{0.0f, 0.0f, sinf(angle / 2), cosf(angle / 2)}, {0.0f, 0.0f, 0.0f}};
        for (int k = 0; k < 2; k++) pb.p[k] = rng_range(&r, -40.0f, 40.0f);
        snug_distance_result d;
        CHECK(snug_mesh_distance(ctx, h, &pa, h, &pb, &d) == SNUG_OK);
        bool within = false;
        CHECK(snug_mesh_within(ctx, h, &pa, h, &pb, d.distance * 1.0001f + qs_tolerance(ctx, h), &within) == SNUG_OK);
        CHECK_MSG(within, "case %d (type %d, hausdorff %d): not within %.9g of itself", n, (int)types[n % ntypes],
                  n % 2, (double)d.distance);
        snug_mesh_destroy(ctx, h);
        test_mesh_free(&m);
    }
    snug_ctx_destroy(ctx);
}

int main(void) {
    RUN(test_meshes_far_from_the_origin);
    RUN(test_bad_input_and_strategies_agree);
    RUN(test_far_apart_meshes_are_cheap);
    RUN(test_the_search_is_the_same_in_every_build);
    RUN(test_a_small_mesh_beside_a_large_one_is_cheap);
    RUN(test_point_meshes_with_hausdorff_bounds);
    RUN(test_near_ties_measure_few_triangle_pairs);
    RUN(test_small_meshes_match_brute_force);
    RUN(test_big_meshes_match_brute_force);
    return harness_finish();
}
