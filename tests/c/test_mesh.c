/* Mesh ingest: validation errors, degenerate triangles, welding, adjacency, scale invariance, handles. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bvh/bvh.h"
#include "harness.h"
#include "snug.h"
#include "test_alloc.h"
#include "test_meshes.h"

static snug_mesh make(snug_ctx* ctx, const test_mesh* m, snug_status* st) {
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = m->positions;
    def.vertex_count = m->vertex_count;
    def.indices = m->indices;
    def.triangle_count = m->triangle_count;
    snug_mesh h = 0;
    *st = snug_mesh_create(ctx, &def, &h);
    return h;
}

static void test_bad_input_is_rejected_and_context_stays_usable(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh box;
    test_mesh_box(1, 2, 3, &box);
    snug_status st;
    size_t before = snug_ctx_allocated_bytes(ctx);

    box.positions[4] = NAN;
    make(ctx, &box, &st);
    CHECK(st == SNUG_ERR_NOT_FINITE);
    CHECK(strstr(snug_ctx_last_error(ctx), "vertex 1") != NULL);
    box.positions[4] = INFINITY;
    make(ctx, &box, &st);
    CHECK(st == SNUG_ERR_NOT_FINITE);
    box.positions[4] = 2;
    /* the check is a bit test on the exponent: the last coordinate, -inf and a negative NaN too */
    box.positions[23] = -INFINITY;
    make(ctx, &box, &st);
    CHECK(st == SNUG_ERR_NOT_FINITE);
    CHECK(strstr(snug_ctx_last_error(ctx), "vertex 7") != NULL);
    box.positions[23] = -NAN;
    make(ctx, &box, &st);
    CHECK(st == SNUG_ERR_NOT_FINITE);
    box.positions[23] = 3;

    box.indices[7] = 8;
    make(ctx, &box, &st);
    CHECK(st == SNUG_ERR_INDEX_RANGE);
    CHECK(strstr(snug_ctx_last_error(ctx), "triangle 2") != NULL);
    box.indices[7] = 5;

    snug_mesh_def def = snug_default_mesh_def();
    snug_mesh h;
    CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_ERR_EMPTY);
    CHECK(snug_mesh_create(ctx, NULL, &h) == SNUG_ERR_INVALID_ARGUMENT);
    def.positions = box.positions;
    def.vertex_count = 8;
    def.triangle_count = 12; /* no indices: needs 36 vertices */
    CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_ERR_INDEX_RANGE);
    def.indices = box.indices;
    def.bvh.leaf_size = 0;
    CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_ctx_allocated_bytes(ctx) == before);

    h = make(ctx, &box, &st);
    CHECK(st == SNUG_OK && h != 0);
    CHECK(snug_ctx_last_error(ctx)[0] == '\0');
    snug_mesh_info info;
    CHECK(snug_mesh_get_info(ctx, h, &info) == SNUG_OK);
    CHECK(info.triangle_count == 12 && info.vertex_count == 8);
    CHECK(info.closed && info.edge_count == 18 && info.boundary_edge_count == 0);
    test_mesh_free(&box);
    snug_ctx_destroy(ctx);
}

static void test_handles_are_generational(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_ctx* other = snug_ctx_create(NULL);
    test_mesh box;
    test_mesh_box(1, 1, 1, &box);
    snug_status st;
    snug_mesh a = make(ctx, &box, &st);
    CHECK(snug_mesh_destroy(ctx, a) == SNUG_OK);
    CHECK(snug_mesh_destroy(ctx, a) == SNUG_ERR_STALE_HANDLE);
    snug_mesh b = make(ctx, &box, &st); /* reuses the slot with a new generation */
    snug_mesh_info info;
    CHECK(b != a);
    CHECK(snug_mesh_get_info(ctx, a, &info) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_mesh_get_info(ctx, b, &info) == SNUG_OK);
    CHECK(snug_mesh_get_info(ctx, 0, &info) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_mesh_get_info(ctx, 0xffffffffu, &info) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_mesh_get_info(other, b, &info) == SNUG_ERR_STALE_HANDLE);
    test_mesh_free(&box);
    snug_ctx_destroy(other);
    snug_ctx_destroy(ctx);
}

static void test_degenerate_triangles_are_kept_and_counted_at_any_scale(void) {
    /* a box plus a zero-area triangle, a repeated-vertex triangle and a needle, at 0.002 and at 2000 units */
    for (int s = 0; s < 2; s++) {
        float scale = s ? 2000.0f : 0.002f;
        test_mesh box;
        test_mesh_box(1, 1, 1, &box);
        float pos[8 * 3 + 9];
        uint32_t idx[12 * 3 + 9];
        memcpy(pos, box.positions, sizeof(float) * 24);
        memcpy(idx, box.indices, sizeof(uint32_t) * 36);
        float extra[9] = {0, 0, 0, 0.5f, 0, 0, 1.0f, 0, 0}; /* collinear */
        memcpy(pos + 24, extra, sizeof extra);
        for (int i = 0; i < 33; i++) pos[i] *= scale;
        pos[30] = pos[27] + 1e-9f * scale; /* needle: third vertex almost on the first */
        uint32_t more[9] = {8, 9, 10, 0, 0, 1, 8, 10, 9};
        memcpy(idx + 36, more, sizeof more);
        snug_ctx* ctx = snug_ctx_create(NULL);
        snug_mesh_def def = snug_default_mesh_def();
        def.positions = pos;
        def.vertex_count = 11;
        def.indices = idx;
        def.triangle_count = 15;
        snug_mesh h;
        CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_OK);
        snug_mesh_info info;
        snug_mesh_get_info(ctx, h, &info);
        CHECK(info.triangle_count == 15);
        CHECK_MSG(info.degenerate_count == 3, "scale %g: %u degenerate", (double)scale, info.degenerate_count);
        uint32_t ids[4], total = 0;
        CHECK(snug_mesh_get_degenerate(ctx, h, ids, 4, &total) == SNUG_OK);
        CHECK(total == 3 && ids[0] == 12 && ids[1] == 13 && ids[2] == 14);
        CHECK(snug_mesh_get_degenerate(ctx, h, ids, 1, &total) == SNUG_ERR_BUFFER_TOO_SMALL && total == 3);
        CHECK_NEAR(info.tolerance / info.scale, 1e-6, 1e-9);
        test_mesh_free(&box);
        snug_ctx_destroy(ctx);
    }
}

/* A soup of n triangles inside [0, S]^3 (two extra vertices pin the bounds, so the tolerance): exact needles whose
 * height is tol (1 + k 2^-23), k in -3..3, on edge lengths that are powers of two in a coordinate plane (every
 * coordinate exact, so the flag is decided in the last bits), collinear, fat, repeated-vertex and point
 * triangles; corner order rotated so the needle's base is any of the three edges. */
static void degenerate_soup(rng* r, uint32_t n, float S, float tol, float* pos, uint32_t* idx) {
    for (uint32_t t = 0; t < n; t++) {
        float *a = pos + 9 * t, *b = a + 3, *c = a + 6;
        int kind = (int)(rng_next(r) % 5);
        for (int k = 0; k < 9; k++) a[k] = S * rng_float(r);
        if (kind <= 1) {
            int i = (int)(rng_next(r) % 3), j = (i + 1 + (int)(rng_next(r) % 2)) % 3, o = 3 - i - j;
            float L = S / 16.0f * (float)(1 << (rng_next(r) % 3)), u = (float)(1 + rng_next(r) % 7) / 8.0f;
            a[i] = S / 16.0f * (float)(rng_next(r) % 8), a[j] = 0.0f, a[o] = S / 16.0f * (float)(rng_next(r) % 16);
            glm_vec3_copy(a, b);
            glm_vec3_copy(a, c);
            b[i] += L;
            c[i] += u * L;
            c[j] = kind == 0 ? tol * (1.0f + (float)((int)(rng_next(r) % 7) - 3) * 0x1p-23f) : 0.0f;
        } else if (kind == 2) {
            float u = rng_float(r);
            for (int k = 0; k < 3; k++) c[k] = a[k] + u * (b[k] - a[k]); /* collinear up to rounding */
        } else if (kind == 3) {
            glm_vec3_copy(a, c);
            if (rng_next(r) % 2) glm_vec3_copy(a, b);
        }
        uint32_t rot = (uint32_t)(rng_next(r) % 3);
        for (uint32_t k = 0; k < 3; k++) idx[3 * t + k] = 3 * t + (k + rot) % 3;
    }
    for (int k = 0; k < 3; k++) pos[9 * n + k] = 0.0f, pos[9 * n + 3 + k] = S;
}

/* The create pass flags degenerate triangles four at a time in SIMD lanes, with the scalar predicate for the
 * last n mod 4: its list must be exactly the triangles the scalar snug_tri_degenerate flags. Powers of two
 * from 2^-20 to 2^20 for S, and 2^29, near the top of the accepted coordinate range (squared cross products of
 * 2^60 still fit a float). */
static void test_degenerate_flags_match_the_predicate(void) {
    rng r = {harness_seed() ^ 0xde6e};
    snug_ctx* ctx = snug_ctx_create(NULL);
    int cases = 40 * harness_scale();
    for (int c = 0; c < cases; c++) {
        uint32_t n = 1 + (uint32_t)(rng_next(&r) % 61);
        float S = ldexpf(1.0f, c % 5 == 4 ? 29 : (int)(rng_next(&r) % 41) - 20);
        float* pos = malloc(sizeof(float) * (9 * n + 6));
        uint32_t* idx = malloc(sizeof(uint32_t) * 3 * n);
        snug_mesh_def def = snug_default_mesh_def();
        def.positions = pos;
        def.vertex_count = 3 * n + 2;
        def.indices = idx;
        def.triangle_count = n;
        /* the first create only reads the tolerance the bounds give; the soup is drawn again with it */
        rng again = r;
        degenerate_soup(&r, n, S, 0.0f, pos, idx);
        snug_mesh h;
        CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_OK);
        snug_mesh_info info;
        snug_mesh_get_info(ctx, h, &info);
        snug_mesh_destroy(ctx, h);
        r = again;
        degenerate_soup(&r, n, S, info.tolerance, pos, idx);
        snug_status st = snug_mesh_create(ctx, &def, &h);
        CHECK_MSG(st == SNUG_OK, "case %d: %s", c, snug_status_name(st));
        uint32_t* ids = malloc(sizeof(uint32_t) * n);
        uint32_t total = 0, flagged = 0, mismatches = 0;
        if (st == SNUG_OK) {
            CHECK(snug_mesh_get_degenerate(ctx, h, ids, n, &total) == SNUG_OK);
            for (uint32_t t = 0; t < n; t++) {
                const uint32_t* v = idx + 3 * t;
                bool want = snug_tri_degenerate(pos + 3 * v[0], pos + 3 * v[1], pos + 3 * v[2], info.tolerance);
                bool got = flagged < total && ids[flagged] == t;
                flagged += got;
                mismatches += want != got;
            }
            CHECK_MSG(mismatches == 0 && flagged == total, "case %d (n %u, S 2^%d): %u triangles flagged differently",
                      c, n, ilogbf(S), mismatches);
            snug_mesh_destroy(ctx, h);
        }
        free(ids);
        free(pos);
        free(idx);
    }
    snug_ctx_destroy(ctx);
}

static void test_welding_merges_split_vertices(void) {
    /* a box as 12 separate triangles (36 vertices) welds back to 8 vertices and becomes closed */
    test_mesh box;
    test_mesh_box(1, 1, 1, &box);
    float soup[36 * 3];
    for (int i = 0; i < 36; i++) memcpy(soup + 3 * i, box.positions + 3 * box.indices[i], 12);
    soup[5] += 1e-8f; /* within tolerance */
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = soup;
    def.vertex_count = 36;
    def.triangle_count = 12;
    snug_mesh h;
    snug_mesh_info info;
    CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_OK);
    snug_mesh_get_info(ctx, h, &info);
    CHECK(info.vertex_count == 36 && !info.closed && info.boundary_edge_count == 36);
    def.weld = true;
    CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_OK);
    snug_mesh_get_info(ctx, h, &info);
    CHECK(info.vertex_count == 8 && info.closed && info.edge_count == 18);
    test_mesh_free(&box);
    snug_ctx_destroy(ctx);
}

/* Welding far from the origin and with a zero tolerance: the weld grid's cell index of a vertex was a float to
 * int32 cast of coordinate / radius, which overflowed for a mesh 1 unit wide at x = 1e4 (5.8e9 cells); a zero
 * tolerance put every vertex into one cell. The box soup welds back to 8 vertices wherever it sits. */
static void test_welding_far_from_the_origin(void) {
    test_mesh box;
    test_mesh_box(0.5f, 0.5f, 0.5f, &box);
    float soup[36 * 3];
    snug_ctx* ctx = snug_ctx_create(NULL);
    const float shifts[] = {1e4f, -3e6f, 9.9e8f};
    for (int k = 0; k < 3; k++)
        for (int zero = 0; zero < 2; zero++) {
            for (int i = 0; i < 36; i++)
                for (int c = 0; c < 3; c++) soup[3 * i + c] = box.positions[3 * box.indices[i] + c] + (c == 0 ? shifts[k] : 0.0f);
            snug_mesh_def def = snug_default_mesh_def();
            def.positions = soup;
            def.vertex_count = 36;
            def.triangle_count = 12;
            def.weld = true;
            if (zero) def.weld_tolerance = 0.0f;
            snug_mesh h;
            CHECK_MSG(snug_mesh_create(ctx, &def, &h) == SNUG_OK, "%s", snug_ctx_last_error(ctx));
            snug_mesh_info info;
            CHECK(snug_mesh_get_info(ctx, h, &info) == SNUG_OK);
            /* at 9.9e8 floats are 64 apart: the box's x extent rounds to 0 or 64, its 8 corners to fewer points */
            if (k < 2) CHECK_MSG(info.vertex_count == 8 && info.closed, "shift %g: %u vertices", (double)shifts[k], info.vertex_count);
            else CHECK(info.vertex_count <= 8);
            snug_mesh_destroy(ctx, h);
        }
    test_mesh_free(&box);
    snug_ctx_destroy(ctx);
}

static void test_npm_meshes_ingest(void) {
    const char* names[] = {"bunny", "teapot", "dragon11k"};
    for (int i = 0; i < 3; i++) {
        test_mesh m;
        if (!test_mesh_load(names[i], &m)) return;
        snug_ctx* ctx = snug_ctx_create(NULL);
        snug_status st;
        snug_mesh h = make(ctx, &m, &st);
        CHECK_MSG(st == SNUG_OK, "%s: %s", names[i], snug_ctx_last_error(ctx));
        snug_mesh_info info;
        snug_mesh_get_info(ctx, h, &info);
        CHECK(info.triangle_count == m.triangle_count);
        CHECK(info.node_count >= 1 && info.depth >= 1);
        CHECK(info.scale > 0);
        size_t live = snug_ctx_allocated_bytes(ctx);
        CHECK(snug_mesh_destroy(ctx, h) == SNUG_OK);
        CHECK(snug_ctx_allocated_bytes(ctx) < live);
        h = make(ctx, &m, &st); /* a second round trip returns to the same footprint */
        snug_mesh_get_info(ctx, h, &info); /* which includes the adjacency, built on first use */
        CHECK(snug_ctx_allocated_bytes(ctx) == live);
        snug_ctx_destroy(ctx);
        test_mesh_free(&m);
    }
}

static void test_set_positions_refits_and_rejects_nan(void) {
    test_mesh box;
    test_mesh_box(1, 1, 1, &box);
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_status st;
    snug_mesh h = make(ctx, &box, &st);
    for (int i = 0; i < 24; i++) box.positions[i] *= 3.0f;
    CHECK(snug_mesh_set_positions(ctx, h, box.positions, 8) == SNUG_OK);
    snug_mesh_info info;
    snug_mesh_get_info(ctx, h, &info);
    CHECK_NEAR(info.aabb_max[0], 3.0, 1e-6);
    box.positions[0] = NAN;
    CHECK(snug_mesh_set_positions(ctx, h, box.positions, 8) == SNUG_ERR_NOT_FINITE);
    CHECK(snug_mesh_set_positions(ctx, h, box.positions, 7) == SNUG_ERR_INVALID_ARGUMENT);
    snug_mesh_get_info(ctx, h, &info);
    CHECK_NEAR(info.aabb_max[0], 3.0, 1e-6); /* unchanged after the failures */
    test_mesh_free(&box);
    snug_ctx_destroy(ctx);
}

static void test_out_of_memory_at_every_allocation_leaves_nothing(void) {
    test_mesh m;
    if (!test_mesh_load("teapot", &m)) return;
    test_failing_alloc f = {-1};
    snug_ctx_def cdef = test_failing_ctx_def(&f);
    snug_ctx* ctx = snug_ctx_create(&cdef);
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = m.positions;
    def.vertex_count = m.vertex_count;
    def.indices = m.indices;
    def.triangle_count = m.triangle_count;
    def.weld = true;
    snug_mesh first;
    CHECK(snug_mesh_create(ctx, &def, &first) == SNUG_OK); /* warms the handle pool */
    size_t base = snug_ctx_allocated_bytes(ctx);
    int failures = 0;
    for (int k = 0; k < 1000; k++) {
        f.countdown = k;
        snug_mesh h;
        snug_status st = snug_mesh_create(ctx, &def, &h);
        f.countdown = -1;
        if (st == SNUG_OK) {
            CHECK(snug_mesh_destroy(ctx, h) == SNUG_OK);
            break;
        }
        failures++;
        CHECK_MSG(st == SNUG_ERR_OUT_OF_MEMORY, "allocation %d: status %s", k, snug_status_name(st));
        CHECK_MSG(snug_ctx_allocated_bytes(ctx) == base, "allocation %d leaked %zu bytes", k,
                  snug_ctx_allocated_bytes(ctx) - base);
        RETURN_IF_FAILED();
    }
    CHECK(failures > 5);
    snug_mesh_info info;
    CHECK(snug_mesh_get_info(ctx, first, &info) == SNUG_OK && info.triangle_count == m.triangle_count);
    snug_ctx_destroy(ctx);
    test_mesh_free(&m);
}

int main(void) {
    RUN(test_bad_input_is_rejected_and_context_stays_usable);
    RUN(test_handles_are_generational);
    RUN(test_degenerate_triangles_are_kept_and_counted_at_any_scale);
    RUN(test_degenerate_flags_match_the_predicate);
    RUN(test_welding_merges_split_vertices);
    RUN(test_welding_far_from_the_origin);
    RUN(test_npm_meshes_ingest);
    RUN(test_set_positions_refits_and_rejects_nan);
    RUN(test_out_of_memory_at_every_allocation_leaves_nothing);
    return harness_finish();
}
