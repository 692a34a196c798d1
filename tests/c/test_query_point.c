/* Closest point against brute force over every triangle (distance within 1e-5 of the model size, the point on
 * the reported triangle, max_distance honoured), and inside/outside against the generalized winding number
 * (sum of solid angles, double precision) for points not within 1e-3 of the model size from the surface. */
#include "query_support.h"
#include "geom/tri.h"

static double brute_closest(const test_mesh* m, const float p[3]) {
    float best = INFINITY, q[3];
    for (uint32_t i = 0; i < m->triangle_count; i++) {
        float d2 = snug_point_tri_closest(p, qs_vertex(m, i, 0), qs_vertex(m, i, 1), qs_vertex(m, i, 2), q);
        if (d2 < best) best = d2;
    }
    return sqrt(best);
}

static double winding_number(const test_mesh* m, const float p[3]) {
    double w = 0.0;
    for (uint32_t i = 0; i < m->triangle_count; i++) {
        double v[3][3], l[3];
        for (int k = 0; k < 3; k++) {
            for (int c = 0; c < 3; c++) v[k][c] = (double)qs_vertex(m, i, k)[c] - p[c];
            l[k] = sqrt(v[k][0] * v[k][0] + v[k][1] * v[k][1] + v[k][2] * v[k][2]);
        }
        double cx = v[1][1] * v[2][2] - v[1][2] * v[2][1], cy = v[1][2] * v[2][0] - v[1][0] * v[2][2],
               cz = v[1][0] * v[2][1] - v[1][1] * v[2][0];
        double det = v[0][0] * cx + v[0][1] * cy + v[0][2] * cz;
        double d01 = v[0][0] * v[1][0] + v[0][1] * v[1][1] + v[0][2] * v[1][2];
        double d02 = v[0][0] * v[2][0] + v[0][1] * v[2][1] + v[0][2] * v[2][2];
        double d12 = v[1][0] * v[2][0] + v[1][1] * v[2][1] + v[1][2] * v[2][2];
        w += 2.0 * atan2(det, l[0] * l[1] * l[2] + d01 * l[2] + d02 * l[1] + d12 * l[0]);
    }
    return w / (4.0 * GLM_PI);
}

static void box_of(const test_mesh* m, float lo[3], float hi[3], float* size) {
    for (int c = 0; c < 3; c++) lo[c] = INFINITY, hi[c] = -INFINITY;
    for (uint32_t v = 0; v < m->vertex_count; v++)
        for (int c = 0; c < 3; c++) lo[c] = fminf(lo[c], m->positions[3 * v + c]), hi[c] = fmaxf(hi[c], m->positions[3 * v + c]);
    *size = sqrtf((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) + (hi[2] - lo[2]) * (hi[2] - lo[2]));
}

/* Random local points around the mesh, placed at a random pose. */
static void check_closest(snug_ctx* ctx, rng* r, const test_mesh* m, snug_mesh h, int n, const char* name) {
    float lo[3], hi[3], size;
    box_of(m, lo, hi, &size);
    for (int k = 0; k < n && !harness_current_failed; k++) {
        snug_pose pose = qs_random_pose(r, size);
        snug_xform x;
        snug_xform_from_pose(&pose, &x);
        float local[3], world[3];
        for (int c = 0; c < 3; c++) local[c] = rng_range(r, lo[c] - 0.3f * size, hi[c] + 0.3f * size);
        snug_xform_point(&x, local, world);
        double expect = brute_closest(m, local);
        float maxd = k % 3 == 0 ? (float)expect * rng_range(r, 0.5f, 1.5f) : INFINITY;
        snug_point_result res;
        CHECK(snug_mesh_closest_point(ctx, h, &pose, world, maxd, &res) == SNUG_OK);
        float tol = 1e-5f * size;
        if (expect > maxd + tol) {
            CHECK_MSG(res.tri == SNUG_NO_HIT, "%s point %d: found %.9g beyond max_distance %.9g", name, k, (double)res.distance, (double)maxd);
            continue;
        }
        if (expect > maxd - tol && res.tri == SNUG_NO_HIT) continue; /* at the limit: either answer */
        CHECK_MSG(res.tri < m->triangle_count && fabs(res.distance - expect) <= tol,
                  "%s point %d: distance %.9g, brute force %.9g (seed %llu)", name, k, (double)res.distance, expect,
                  (unsigned long long)harness_seed());
        if (res.tri >= m->triangle_count) continue;
        float v[3][3], q[3];
        for (int c = 0; c < 3; c++) snug_xform_point(&x, qs_vertex(m, res.tri, c), v[c]);
        CHECK_MSG(sqrtf(snug_point_tri_closest(res.point, v[0], v[1], v[2], q)) <= tol, "%s point %d: point off its triangle", name, k);
        float d[3] = {res.point[0] - world[0], res.point[1] - world[1], res.point[2] - world[2]};
        CHECK_NEAR(sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), res.distance, tol);
    }
}

static void test_closest_point_matches_brute_force(void) {
    rng r = {harness_seed()};
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_bv_type types[SNUG_BV_TYPE_COUNT + 1];
    int ntypes = qs_bv_types(ctx, types);
    test_mesh pool[QS_POOL];
    qs_small_pool(&r, pool);
    for (int i = 0; i < QS_POOL; i++)
        for (int t = 0; t < ntypes; t++) {
            snug_mesh h = qs_make(ctx, &pool[i], types[t]);
            char name[48];
            snprintf(name, sizeof name, "small mesh %d type %d", i, (int)types[t]);
            check_closest(ctx, &r, &pool[i], h, 300 * harness_scale(), name);
            snug_mesh_destroy(ctx, h);
        }
    qs_free_pool(pool, QS_POOL);
    const char* names[4] = {"bunny", "teapot", "dragon11k", "torusknot10k"};
    for (int k = 0; k < 4; k++) {
        test_mesh big;
        if (!test_mesh_load(names[k], &big)) continue;
        snug_mesh h = qs_make(ctx, &big, SNUG_BV_AABB);
        check_closest(ctx, &r, &big, h, (QS_SANITIZED ? 100 : 500) * harness_scale(), names[k]);
        test_mesh_free(&big);
    }
    snug_ctx_destroy(ctx);
}

/* Far from the mesh the answer is still the minimum over the triangles, to the bit: a node's box bound rounded in
 * float once pruned a triangle on its face one float step nearer than the best so far, so that the answer depended
 * on the tree (fuzz_blob: a loaded blob's tree against a rebuilt one, at 1e9). Meshes scaled up to 1e7 and points up
 * to 1e9 away (SNUG_MAX_COORDINATE), in the mesh's frame (no pose rounding). */
static void test_closest_point_far_is_the_exact_minimum(void) {
    rng r = {harness_seed() ^ 0xfa7u};
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_pose identity = {{0, 0, 0, 1}, {0, 0, 0}};
    test_mesh pool[QS_POOL];
    qs_small_pool(&r, pool);
    for (int i = 0; i < QS_POOL && !harness_current_failed; i++) {
        test_mesh* m = &pool[i];
        float scale = powf(10.0f, rng_range(&r, 0.0f, 7.0f)), at[3];
        for (int c = 0; c < 3; c++) at[c] = rng_range(&r, -1e8f, 1e8f);
        for (uint32_t v = 0; v < m->vertex_count; v++)
            for (int c = 0; c < 3; c++) m->positions[3 * v + c] = m->positions[3 * v + c] * scale + at[c];
        snug_mesh h = qs_make(ctx, m, SNUG_BV_AABB);
        for (int k = 0; k < 200 * harness_scale() && !harness_current_failed; k++) {
            float p[3], q[3], best = INFINITY;
            float far = powf(10.0f, rng_range(&r, 3.0f, 9.0f));
            for (int c = 0; c < 3; c++) p[c] = fmaxf(-SNUG_MAX_COORDINATE, fminf(SNUG_MAX_COORDINATE, at[c] + rng_range(&r, -far, far)));
            for (uint32_t t = 0; t < m->triangle_count; t++)
                best = fminf(best, snug_point_tri_closest(p, qs_vertex(m, t, 0), qs_vertex(m, t, 1), qs_vertex(m, t, 2), q));
            snug_point_result res;
            CHECK(snug_mesh_closest_point(ctx, h, &identity, p, INFINITY, &res) == SNUG_OK);
            CHECK_MSG(res.distance == sqrtf(best), "mesh %d point %d (scale %g, %g away): %.9g, brute force %.9g (seed %llu)",
                      i, k, (double)scale, (double)far, (double)res.distance, (double)sqrtf(best),
                      (unsigned long long)harness_seed());
        }
        snug_mesh_destroy(ctx, h);
    }
    qs_free_pool(pool, QS_POOL);
    snug_ctx_destroy(ctx);
}

static void test_inside_matches_winding_number(void) {
    rng r = {harness_seed() ^ 0x1234567u};
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh shapes[5];
    test_mesh_sphere(1.0f, 12, 16, &shapes[0]);
    test_mesh_torus(1.0f, 0.4f, 16, 12, &shapes[1]);
    test_mesh_box(0.5f, 1.0f, 0.25f, &shapes[2]);
    test_mesh_torus_knot(1.0f, 0.3f, 64, 8, 2, 3, &shapes[3]);
    test_mesh_torus_knot(1.0f, 0.25f, 48, 6, 3, 4, &shapes[4]);
    int inside_count = 0, total = 0;
    for (int s = 0; s < 5; s++) {
        snug_mesh_def def = snug_default_mesh_def();
        def.positions = shapes[s].positions;
        def.vertex_count = shapes[s].vertex_count;
        def.indices = shapes[s].indices;
        def.triangle_count = shapes[s].triangle_count;
        def.weld = true; /* procedural seams may duplicate vertices: welding closes them */
        snug_mesh h;
        CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_OK);
        snug_mesh_info info;
        snug_mesh_get_info(ctx, h, &info);
        if (!info.closed) {
            printf("  shape %d is not closed after welding (%u boundary edges); skipped\n", s, info.boundary_edge_count);
            continue;
        }
        float lo[3], hi[3], size;
        box_of(&shapes[s], lo, hi, &size);
        for (int k = 0; k < 400 * harness_scale() && !harness_current_failed; k++) {
            snug_pose pose = qs_random_pose(&r, size);
            snug_xform x;
            snug_xform_from_pose(&pose, &x);
            float local[3], world[3];
            for (int c = 0; c < 3; c++) local[c] = rng_range(&r, lo[c] - 0.1f * size, hi[c] + 0.1f * size);
            if (brute_closest(&shapes[s], local) < 1e-3 * size) continue;
            snug_xform_point(&x, local, world);
            bool expect = fabs(winding_number(&shapes[s], local)) > 0.5, inside = !expect;
            CHECK(snug_mesh_inside(ctx, h, &pose, world, &inside) == SNUG_OK);
            CHECK_MSG(inside == expect, "shape %d point %d: inside %d, winding number says %d (seed %llu)", s, k, inside,
                      expect, (unsigned long long)harness_seed());
            inside_count += expect;
            total++;
        }
    }
    printf("  inside/outside: %d points, %d inside\n", total, inside_count);
    CHECK(inside_count > total / 20 && inside_count < total);
    for (int s = 0; s < 5; s++) test_mesh_free(&shapes[s]);
    snug_ctx_destroy(ctx);
}

static void test_bad_input(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    rng r = {harness_seed()};
    test_mesh soup, box;
    test_mesh_soup(&r, 10, 1.0f, 0.5f, &soup);
    test_mesh_box(1, 1, 1, &box);
    snug_mesh open = qs_make(ctx, &soup, SNUG_BV_AABB), closed = qs_make(ctx, &box, SNUG_BV_AABB);
    snug_pose p = snug_pose_identity();
    float pt[3] = {0, 0, 0}, bad[3] = {0, NAN, 0};
    bool inside;
    snug_point_result res;
    CHECK(snug_mesh_inside(ctx, open, &p, pt, &inside) == SNUG_ERR_NOT_CLOSED);
    CHECK(snug_mesh_inside(ctx, closed, &p, pt, &inside) == SNUG_OK && inside);
    float far[3] = {3, 0, 0};
    CHECK(snug_mesh_inside(ctx, closed, &p, far, &inside) == SNUG_OK && !inside);
    CHECK(snug_mesh_inside(ctx, closed, &p, bad, &inside) == SNUG_ERR_NOT_FINITE);
    CHECK(snug_mesh_inside(ctx, closed, NULL, pt, &inside) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_inside(ctx, closed, &p, pt, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_closest_point(ctx, closed, &p, NULL, INFINITY, &res) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_closest_point(ctx, closed, &p, bad, INFINITY, &res) == SNUG_ERR_NOT_FINITE);
    CHECK(snug_mesh_closest_point(ctx, closed, &p, pt, NAN, &res) == SNUG_ERR_NOT_FINITE);
    CHECK(snug_mesh_closest_point(ctx, closed, &p, far, INFINITY, &res) == SNUG_OK);
    CHECK_NEAR(res.distance, 2.0, 1e-6);
    CHECK_NEAR(res.point[0], 1.0, 1e-6);
    CHECK(snug_mesh_closest_point(ctx, closed, &p, far, 1.5f, &res) == SNUG_OK && res.tri == SNUG_NO_HIT);
    CHECK(snug_mesh_closest_point(ctx, closed, &p, far, 2.0f, &res) == SNUG_OK && res.tri != SNUG_NO_HIT);
    snug_mesh_destroy(ctx, closed);
    CHECK(snug_mesh_closest_point(ctx, closed, &p, far, 2.0f, &res) == SNUG_ERR_STALE_HANDLE);
    test_mesh_free(&soup);
    test_mesh_free(&box);
    snug_ctx_destroy(ctx);
}

int main(void) {
    RUN(test_bad_input);
    RUN(test_closest_point_matches_brute_force);
    RUN(test_closest_point_far_is_the_exact_minimum);
    RUN(test_inside_matches_winding_number);
    return harness_finish();
}
