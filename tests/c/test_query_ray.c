/* Rays against brute force over every triangle, with the ray brought into the mesh frame exactly as the query
 * does, so hit/miss and t must agree exactly; the triangle may differ only on a tie (same t, shared edge).
 * Closest, any, all (sorted, counts past capacity) and batched forms, on small and big meshes of every BV type. */
#include "query_support.h"
#include "test_alloc.h"
#include "geom/tri.h"

typedef struct ref_hit {
    uint32_t count;  /* all hits in [0, tmax] */
    float t;         /* nearest t, INFINITY if none */
} ref_hit;

static ref_hit brute_ray(const test_mesh* m, const float o[3], const float d[3], float tmax) {
    ref_hit r = {0, INFINITY};
    for (uint32_t i = 0; i < m->triangle_count; i++) {
        float t, u, v;
        if (snug_ray_tri(o, d, tmax, qs_vertex(m, i, 0), qs_vertex(m, i, 1), qs_vertex(m, i, 2), &t, &u, &v)) {
            r.count++;
            if (t < r.t) r.t = t;
        }
    }
    return r;
}

static float tri_t(const test_mesh* m, uint32_t tri, const float o[3], const float d[3], float tmax) {
    float t, u, v;
    if (tri >= m->triangle_count) return NAN;
    return snug_ray_tri(o, d, tmax, qs_vertex(m, tri, 0), qs_vertex(m, tri, 1), qs_vertex(m, tri, 2), &t, &u, &v) ? t : NAN;
}

static void mesh_box(const test_mesh* m, float lo[3], float hi[3]) {
    for (int c = 0; c < 3; c++) lo[c] = INFINITY, hi[c] = -INFINITY;
    for (uint32_t v = 0; v < m->vertex_count; v++)
        for (int c = 0; c < 3; c++) lo[c] = fminf(lo[c], m->positions[3 * v + c]), hi[c] = fmaxf(hi[c], m->positions[3 * v + c]);
}

/* One ray at mesh m (handle h) at `pose` against brute force in the mesh frame: closest (t exact, a nearest
 * triangle, normal, point), any, all (count past capacity, sorted). Returns the closest hit. */
static snug_ray_hit check_ray(snug_ctx* ctx, const test_mesh* m, snug_mesh h, const snug_pose* pose, const snug_ray* rp,
                              float size, const char* name, int n) {
    snug_ray ray = *rp;
    snug_ray_hit all[64];
    snug_xform x, inv;
    snug_xform_from_pose(pose, &x);
    snug_xform_inverse(&x, &inv);
    float o[3], d[3]; /* the ray in the mesh frame, as the query computes it */
    snug_xform_point(&inv, ray.origin, o);
    snug_xform_dir(&inv, ray.dir, d);
    ref_hit ref = brute_ray(m, o, d, ray.tmax);
    snug_ray_hit hit;
    CHECK(snug_mesh_raycast(ctx, h, pose, &ray, &hit) == SNUG_OK);
    bool got = hit.tri != SNUG_NO_HIT;
    CHECK_MSG(got == (ref.count > 0), "%s ray %d: hit %d, brute force %u hits (seed %llu)", name, n, got, ref.count,
              (unsigned long long)harness_seed());
    if (got && ref.count > 0) {
        CHECK_MSG(hit.t == ref.t, "%s ray %d: t %.9g, brute force %.9g", name, n, (double)hit.t, (double)ref.t);
        CHECK_MSG(tri_t(m, hit.tri, o, d, ray.tmax) == ref.t, "%s ray %d: triangle %u is not a nearest hit", name, n, hit.tri);
        float dn = hit.normal[0] * ray.dir[0] + hit.normal[1] * ray.dir[1] + hit.normal[2] * ray.dir[2];
        float nn = hit.normal[0] * hit.normal[0] + hit.normal[1] * hit.normal[1] + hit.normal[2] * hit.normal[2];
        CHECK(dn <= 0.0f && fabsf(nn - 1.0f) < 1e-4f);
        for (int c = 0; c < 3; c++) CHECK_NEAR(hit.point[c], ray.origin[c] + hit.t * ray.dir[c], 1e-5 * size);
    }
    bool any = false;
    CHECK(snug_mesh_raycast_any(ctx, h, pose, &ray, &any) == SNUG_OK);
    CHECK_MSG(any == (ref.count > 0), "%s ray %d: any %d, brute force %u hits", name, n, any, ref.count);
    uint32_t cap = n % 5 == 0 ? 1 : 64, total = 0;
    snug_status st = snug_mesh_raycast_all(ctx, h, pose, &ray, all, cap, &total);
    CHECK_MSG(total == ref.count, "%s ray %d: all %u, brute force %u", name, n, total, ref.count);
    CHECK(st == (total > cap ? SNUG_ERR_BUFFER_TOO_SMALL : SNUG_OK));
    uint32_t w = total < cap ? total : cap;
    for (uint32_t i = 0; i < w; i++) {
        CHECK(tri_t(m, all[i].tri, o, d, ray.tmax) == all[i].t);
        if (i > 0) CHECK(all[i - 1].t <= all[i].t);
    }
    if (w > 0) CHECK(all[0].t == ref.t);
    return hit;
}

#define BATCH 64

/* `rays` random rays at mesh m (handle h) placed at a random pose; returns the number of hits. */
static long run_rays(snug_ctx* ctx, rng* r, const test_mesh* m, snug_mesh h, int rays, const char* name) {
    float lo[3], hi[3];
    mesh_box(m, lo, hi);
    float size = sqrtf((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) + (hi[2] - lo[2]) * (hi[2] - lo[2]));
    long hits_seen = 0;
    float origins[3 * BATCH], dirs[3 * BATCH], tmaxs[BATCH];
    snug_ray_hit single[BATCH], batch[BATCH];
    for (int n = 0; n < rays && !harness_current_failed;) {
        snug_pose pose = qs_random_pose(r, size);
        if ((n / BATCH) % 3 == 2) { /* no rotation (quaternion (0, 0, 0, w)): the queries' translation-only path */
            pose.q[0] = pose.q[1] = pose.q[2] = 0.0f;
            pose.q[3] = rng_float(r) < 0.5f ? -1.0f : 1.0f;
        }
        snug_xform x;
        snug_xform_from_pose(&pose, &x);
        int nb = 0;
        for (; nb < BATCH && n < rays; nb++, n++) {
            /* local origin outside (or, sometimes, inside) the box, aimed at a point of the box */
            float lo_o[3], target[3], wo[3], wt[3];
            float dir[3];
            rng_unit_vec(r, dir);
            float reach = n % 8 == 0 ? 0.0f : size;
            for (int c = 0; c < 3; c++) {
                target[c] = rng_range(r, lo[c], hi[c]);
                lo_o[c] = 0.5f * (lo[c] + hi[c]) + reach * dir[c];
            }
            if (n % 8 == 0)
                for (int c = 0; c < 3; c++) lo_o[c] = rng_range(r, lo[c], hi[c]);
            snug_xform_point(&x, lo_o, wo);
            snug_xform_point(&x, target, wt);
            float scale_dir = n % 3 == 0 ? 1.0f : 0.37f; /* direction length need not be 1 */
            for (int c = 0; c < 3; c++) {
                origins[3 * nb + c] = wo[c];
                dirs[3 * nb + c] = (wt[c] - wo[c]) * scale_dir;
            }
            tmaxs[nb] = n % 4 == 0 ? rng_range(r, 0.5f, 3.0f) : INFINITY;

            snug_ray ray = {{wo[0], wo[1], wo[2]}, {dirs[3 * nb], dirs[3 * nb + 1], dirs[3 * nb + 2]}, tmaxs[nb]};
            single[nb] = check_ray(ctx, m, h, &pose, &ray, size, name, n);
            hits_seen += single[nb].tri != SNUG_NO_HIT;
        }
        for (int i = 0; i < nb; i++) batch[i].tri = 12345;
        CHECK(snug_mesh_raycast_batch(ctx, h, &pose, origins, dirs, (n / BATCH) % 2 ? tmaxs : NULL, (uint32_t)nb, batch) == SNUG_OK);
        if ((n / BATCH) % 2)
            for (int i = 0; i < nb; i++)
                CHECK_MSG(batch[i].tri == single[i].tri && (batch[i].tri == SNUG_NO_HIT || batch[i].t == single[i].t),
                          "%s: batched ray %d differs from the single call", name, i);
        else
            for (int i = 0; i < nb; i++) {
                snug_ray ray = {{origins[3 * i], origins[3 * i + 1], origins[3 * i + 2]}, {dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]}, INFINITY};
                snug_ray_hit hit;
                snug_mesh_raycast(ctx, h, &pose, &ray, &hit);
                CHECK_MSG(batch[i].tri == hit.tri && (hit.tri == SNUG_NO_HIT || batch[i].t == hit.t),
                          "%s: batched ray %d differs from the single call", name, i);
            }
    }
    return hits_seen;
}

static void test_small_meshes(void) {
    rng r = {harness_seed()};
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_bv_type types[SNUG_BV_TYPE_COUNT + 1];
    int ntypes = qs_bv_types(ctx, types);
    test_mesh pool[QS_POOL];
    qs_small_pool(&r, pool);
    long hits = 0, rays = 0;
    for (int i = 0; i < QS_POOL; i++)
        for (int t = 0; t < ntypes; t++) {
            snug_mesh h = qs_make(ctx, &pool[i], types[t]);
            char name[48];
            snprintf(name, sizeof name, "small mesh %d type %d", i, (int)types[t]);
            int n = 256 * harness_scale();
            hits += run_rays(ctx, &r, &pool[i], h, n, name);
            rays += n;
            snug_mesh_destroy(ctx, h);
        }
    printf("  small meshes: %ld rays, %ld hits\n", rays, hits);
    CHECK(hits > rays / 5 && hits < rays);
    qs_free_pool(pool, QS_POOL);
    snug_ctx_destroy(ctx);
}

static void test_big_meshes(void) {
    rng r = {harness_seed() ^ 0x71c3u};
    snug_ctx* ctx = snug_ctx_create(NULL);
    const char* names[4] = {"bunny", "teapot", "dragon11k", "torusknot10k"};
    for (int k = 0; k < 4; k++) {
        test_mesh big;
        if (!test_mesh_load(names[k], &big)) continue;
        snug_mesh h = qs_make(ctx, &big, k % 2 ? SNUG_BV_OBB : SNUG_BV_AABB);
        run_rays(ctx, &r, &big, h, (QS_SANITIZED ? 200 : 1000) * harness_scale(), names[k]);
        test_mesh_free(&big);
    }
    snug_ctx_destroy(ctx);
}

/* The first ray query builds the ray tree; moving the vertices must drop it, and a failed build (or no memory
 * for a batch's stacks) must report out-of-memory and leave the mesh answering correctly once memory is back. */
static void test_moved_vertices_and_out_of_memory(void) {
    rng r = {harness_seed() ^ 0x5eedu};
    test_failing_alloc fail = {-1};
    snug_ctx_def def = test_failing_ctx_def(&fail);
    snug_ctx* ctx = snug_ctx_create(&def);
    test_mesh knot;
    test_mesh_torus_knot(1.0f, 0.3f, 64, 8, 2, 3, &knot);
    snug_mesh h = qs_make(ctx, &knot, SNUG_BV_AABB);
    snug_pose p = snug_pose_identity();
    snug_ray ray = {{-5, 0.1f, 0.2f}, {1, 0, 0}, INFINITY};
    snug_ray_hit hit = {77};
    fail.countdown = 0;
    CHECK(snug_mesh_raycast(ctx, h, &p, &ray, &hit) == SNUG_ERR_OUT_OF_MEMORY);
    CHECK(hit.tri == 77);
    float o[3] = {-5, 0.1f, 0.2f}, d[3] = {1, 0, 0};
    fail.countdown = 0;
    CHECK(snug_mesh_raycast_batch(ctx, h, &p, o, d, NULL, 1, &hit) == SNUG_ERR_OUT_OF_MEMORY);
    CHECK(hit.tri == 77);
    fail.countdown = -1;
    /* the tree built, but no room for the batch's stacks: out of memory, nothing written */
    snug_ray_hit single;
    CHECK(snug_mesh_raycast(ctx, h, &p, &ray, &single) == SNUG_OK && single.tri != SNUG_NO_HIT);
    fail.countdown = 0;
    CHECK(snug_mesh_raycast_batch(ctx, h, &p, o, d, NULL, 1, &hit) == SNUG_ERR_OUT_OF_MEMORY);
    CHECK(hit.tri == 77);
    fail.countdown = -1;
    CHECK(snug_mesh_raycast_batch(ctx, h, &p, o, d, NULL, 1, &hit) == SNUG_OK);
    CHECK(!memcmp(&hit, &single, sizeof hit));
    run_rays(ctx, &r, &knot, h, 128 * harness_scale(), "knot");
    for (int round = 0; round < 3; round++) {
        /* stretch and jitter every vertex; the tree is refitted, the rays must see the new corners */
        for (uint32_t v = 0; v < knot.vertex_count; v++)
            for (int c = 0; c < 3; c++) knot.positions[3 * v + c] = knot.positions[3 * v + c] * (c == round ? 1.5f : 1.0f) + rng_range(&r, -0.02f, 0.02f);
        CHECK(snug_mesh_set_positions(ctx, h, knot.positions, knot.vertex_count) == SNUG_OK);
        run_rays(ctx, &r, &knot, h, 128 * harness_scale(), "moved knot");
    }
    snug_mesh_destroy(ctx, h);
    test_mesh_free(&knot);
    snug_ctx_destroy(ctx);
}

static void test_bad_input_and_edges(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh box;
    test_mesh_box(1, 1, 1, &box);
    snug_mesh h = qs_make(ctx, &box, SNUG_BV_AABB);
    snug_pose p = snug_pose_identity();
    snug_ray ray = {{-5, 0, 0}, {1, 0, 0}, INFINITY};
    snug_ray_hit hit;
    bool any;
    uint32_t total;
    CHECK(snug_mesh_raycast(NULL, h, &p, &ray, &hit) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_raycast(ctx, h, NULL, &ray, &hit) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_raycast(ctx, h, &p, NULL, &hit) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_raycast(ctx, h, &p, &ray, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_raycast_any(ctx, h, &p, &ray, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_raycast_all(ctx, h, &p, &ray, NULL, 3, &total) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_raycast_batch(ctx, h, &p, NULL, ray.dir, NULL, 1, &hit) == SNUG_ERR_INVALID_ARGUMENT);
    snug_ray bad = ray;
    bad.dir[1] = NAN;
    CHECK(snug_mesh_raycast(ctx, h, &p, &bad, &hit) == SNUG_ERR_NOT_FINITE);
    bad = ray;
    bad.dir[0] = 0;
    CHECK(snug_mesh_raycast(ctx, h, &p, &bad, &hit) == SNUG_ERR_INVALID_ARGUMENT);
    float origins[6] = {-5, 0, 0, -5, 0, 0}, dirs[6] = {1, 0, 0, 1, INFINITY, 0};
    snug_ray_hit two[2] = {{77}, {77}};
    CHECK(snug_mesh_raycast_batch(ctx, h, &p, origins, dirs, NULL, 2, two) == SNUG_ERR_NOT_FINITE);
    CHECK(two[0].tri == 77); /* nothing written on failure */
    snug_mesh gone = qs_make(ctx, &box, SNUG_BV_AABB);
    snug_mesh_destroy(ctx, gone);
    CHECK(snug_mesh_raycast(ctx, gone, &p, &ray, &hit) == SNUG_ERR_STALE_HANDLE);
    /* along x through the box centre: enters at x = -1 (t = 4), leaves at x = 1 (t = 6) */
    CHECK(snug_mesh_raycast(ctx, h, &p, &ray, &hit) == SNUG_OK);
    CHECK_NEAR(hit.t, 4.0, 1e-6);
    CHECK_NEAR(hit.normal[0], -1.0, 1e-6);
    snug_ray_hit all[4];
    CHECK(snug_mesh_raycast_all(ctx, h, &p, &ray, all, 4, &total) == SNUG_OK);
    CHECK(total >= 2 && all[0].t <= all[total - 1].t);
    CHECK_NEAR(all[total - 1].t, 6.0, 1e-6);
    /* a segment that stops short, and one through a box edge and a corner (shared by several triangles) */
    ray.tmax = 3.9f;
    CHECK(snug_mesh_raycast_any(ctx, h, &p, &ray, &any) == SNUG_OK && !any);
    snug_ray edge = {{-5, -1, 0}, {1, 0, 0}, INFINITY}, corner = {{-5, -6, -7}, {1, 1, 1}, INFINITY};
    CHECK(snug_mesh_raycast_any(ctx, h, &p, &edge, &any) == SNUG_OK && any);
    CHECK(snug_mesh_raycast(ctx, h, &p, &corner, &hit) == SNUG_OK && hit.tri != SNUG_NO_HIT);
    /* a pose moves the box: origin now inside, first hit at the far face */
    snug_pose moved = p;
    moved.p[0] = -5;
    ray.tmax = INFINITY;
    CHECK(snug_mesh_raycast(ctx, h, &moved, &ray, &hit) == SNUG_OK);
    CHECK_NEAR(hit.t, 1.0, 1e-6);
    CHECK_NEAR(hit.normal[0], -1.0, 1e-6);
    test_mesh_free(&box);
    snug_ctx_destroy(ctx);
}

/* ---------------------------------------------------------------- edge cases of the 4-wide ray tree */

/* Other branchings and leaf sizes than the default, so ray nodes get 1..4 lanes, leaves 1..8 triangles, and
 * 5- and 6-ary hierarchy nodes get their extra pair nodes. {branching (0 = variable), leaf size} */
static const int SHAPES[][2] = {{2, 1}, {2, 4}, {3, 2}, {4, 1}, {5, 1}, {6, 2}, {0, 3}, {6, 8}};
#define SHAPE_COUNT (int)(sizeof SHAPES / sizeof SHAPES[0])

static snug_mesh make_shaped(snug_ctx* ctx, const test_mesh* m, int shape) {
    snug_bvh_def def = snug_default_bvh_def();
    def.bv_type = SNUG_BV_AABB;
    def.branching = SHAPES[shape][0];
    def.max_branching = 6;
    def.leaf_size = SHAPES[shape][1];
    def.small_node = 1;
    return test_mesh_make(ctx, m, &def);
}

/* An n x n grid of unit squares in z = 0, two triangles each, integer vertices: rays aimed at grid vertices and
 * edge points pass exactly through shared vertices and edges. */
static void grid_mesh(int n, test_mesh* out) {
    out->vertex_count = (uint32_t)((n + 1) * (n + 1));
    out->triangle_count = (uint32_t)(2 * n * n);
    out->positions = malloc(12 * (size_t)out->vertex_count);
    out->indices = malloc(12 * (size_t)out->triangle_count);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            float* p = out->positions + 3 * (j * (n + 1) + i);
            p[0] = (float)i, p[1] = (float)j, p[2] = 0.0f;
        }
    uint32_t* t = out->indices;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            uint32_t a = (uint32_t)(j * (n + 1) + i), b = a + 1, c = a + (uint32_t)n + 1, d = c + 1;
            /* alternate the diagonal so both diagonal directions occur */
            if ((i + j) % 2) *t++ = a, *t++ = b, *t++ = d, *t++ = a, *t++ = d, *t++ = c;
            else *t++ = a, *t++ = b, *t++ = c, *t++ = b, *t++ = d, *t++ = c;
        }
}

static void test_grid_edges_and_vertices(void) {
    const int n = 6;
    test_mesh grid;
    grid_mesh(n, &grid);
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_pose id = snug_pose_identity();
    const float size = (float)n * 1.5f;
    for (int shape = 0; shape < SHAPE_COUNT && !harness_current_failed; shape++) {
        snug_mesh h = make_shaped(ctx, &grid, shape);
        char name[48];
        snprintf(name, sizeof name, "grid shape %d", shape);
        int k = 0;
        /* every vertex, edge midpoint and square centre (half-integer points, exact) */
        for (int j = 0; j <= 2 * n; j++)
            for (int i = 0; i <= 2 * n; i++) {
                float px = 0.5f * (float)i, py = 0.5f * (float)j;
                /* straight down (zero x and y components) and two oblique directions, origins exact */
                static const float dirs[3][3] = {{0, 0, -1}, {1, 2, -4}, {-3, 1, -2}};
                for (int q = 0; q < 3; q++) {
                    const float* d = dirs[q];
                    snug_ray ray = {{px - 0.5f * d[0], py - 0.5f * d[1], -0.5f * d[2]}, {d[0], d[1], d[2]}, INFINITY};
                    snug_ray_hit hit = check_ray(ctx, &grid, h, &id, &ray, size, name, k++);
                    CHECK_MSG(hit.tri != SNUG_NO_HIT && hit.t == 0.5f, "%s: ray through (%g, %g) dir %d lost (t %g)", name,
                              (double)px, (double)py, q, (double)hit.t);
                    /* segments ending exactly at the hit, and one float short of it */
                    ray.tmax = 0.5f;
                    CHECK(check_ray(ctx, &grid, h, &id, &ray, size, name, k++).tri != SNUG_NO_HIT);
                    ray.tmax = nextafterf(0.5f, 0.0f);
                    CHECK(check_ray(ctx, &grid, h, &id, &ray, size, name, k++).tri == SNUG_NO_HIT);
                }
                /* rays in the grid's plane (along the flat box), along grid lines and across them */
                snug_ray flat = {{-1.0f, py, 0.0f}, {1.0f, 0.0f, 0.0f}, INFINITY};
                check_ray(ctx, &grid, h, &id, &flat, size, name, k++);
                snug_ray flat2 = {{px, -1.0f, 0.0f}, {0.25f, 1.0f, 0.0f}, INFINITY};
                check_ray(ctx, &grid, h, &id, &flat2, size, name, k++);
                /* in the planes x = 0 and y = n of the box faces, and starting on the mesh */
                snug_ray side = {{0.0f, py, 1.0f}, {0.0f, 0.5f, -1.0f}, INFINITY};
                check_ray(ctx, &grid, h, &id, &side, size, name, k++);
                snug_ray side2 = {{px, (float)n, -1.0f}, {-0.5f, 0.0f, 1.0f}, INFINITY};
                check_ray(ctx, &grid, h, &id, &side2, size, name, k++);
                snug_ray on = {{px, py, 0.0f}, {0.3f, -0.2f, 1.0f}, INFINITY};
                CHECK(check_ray(ctx, &grid, h, &id, &on, size, name, k++).t == 0.0f);
            }
        snug_mesh_destroy(ctx, h);
    }
    /* origin inside a closed box, axis-parallel and random directions */
    rng r = {harness_seed() ^ 0xb0c5u};
    test_mesh box;
    test_mesh_box(1.0f, 2.0f, 0.5f, &box);
    for (int shape = 0; shape < SHAPE_COUNT && !harness_current_failed; shape++) {
        snug_mesh h = make_shaped(ctx, &box, shape);
        for (int k = 0; k < 64; k++) {
            float d[3] = {0, 0, 0};
            if (k < 6) d[k / 2] = k % 2 ? -1.0f : 1.0f;
            else if (k < 12) d[k % 3] = 1.0f, d[(k + 1) % 3] = -1.0f;
            else rng_unit_vec(&r, d);
            snug_ray ray = {{rng_range(&r, -1, 1), rng_range(&r, -2, 2), k % 2 ? 0.0f : rng_range(&r, -0.5f, 0.5f)},
                            {d[0], d[1], d[2]}, INFINITY};
            CHECK(check_ray(ctx, &box, h, &id, &ray, 4.0f, "inside box", k).tri != SNUG_NO_HIT);
        }
        snug_mesh_destroy(ctx, h);
    }
    test_mesh_free(&box);
    test_mesh_free(&grid);
    snug_ctx_destroy(ctx);
}

/* 1, 2, 3, 4, 5 and 7 triangles (partly filled ray nodes and leaves), every third one degenerate in the larger
 * ones, and a mesh of degenerate triangles only; random rays at random poses. */
static void test_tiny_meshes(void) {
    rng r = {harness_seed() ^ 0x7e1u};
    snug_ctx* ctx = snug_ctx_create(NULL);
    static const uint32_t sizes[] = {1, 2, 3, 4, 5, 7};
    long rays = 0;
    for (int z = 0; z <= 6 && !harness_current_failed; z++) {
        test_mesh m;
        if (z < 6 && sizes[z] < 4) test_mesh_soup(&r, sizes[z], 1.0f, 0.8f, &m);
        else if (z < 6) qs_degenerate_soup(&r, sizes[z], &m);
        else {
            test_mesh_soup(&r, 3, 1.0f, 0.8f, &m);
            for (uint32_t v = 0; v < 9; v += 3) /* a point, a segment, a repeated corner */
                for (int c = 0; c < 3; c++)
                    m.positions[3 * (v + 2) + c] = m.positions[3 * (v + (v == 3 ? 0 : 1)) + c] * (v == 3 ? 1.0f : 1.0f);
        }
        for (int shape = 0; shape < SHAPE_COUNT; shape++) {
            snug_mesh h = make_shaped(ctx, &m, shape);
            char name[48];
            snprintf(name, sizeof name, "%u triangles shape %d", m.triangle_count, shape);
            run_rays(ctx, &r, &m, h, 64 * harness_scale(), name);
            rays += 64 * harness_scale();
            snug_mesh_destroy(ctx, h);
        }
        test_mesh_free(&m);
    }
    printf("  tiny meshes: %ld rays\n", rays);
    snug_ctx_destroy(ctx);
}

/* A sliver whose float cross product underflows (an edge of 1e-39 beside one of 12; fuzz_mesh found it): a ray
 * from the shared corner hits it at t = 0 and reports the sliver's unit normal, not a zero vector. */
static void test_sliver_normals(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    float pos[] = {0, 0, 0, 1.1e-39f, 0, 0, 0, -10.25f, -7.375f};
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = pos;
    def.vertex_count = 3;
    def.triangle_count = 1;
    def.weld = false; /* welding would make it a segment */
    snug_mesh h;
    CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_OK);
    /* the sliver's plane normal is (0, 7.375, -10.25) / |.| */
    const float len = sqrtf(7.375f * 7.375f + 10.25f * 10.25f), pn[3] = {0.0f, 7.375f / len, -10.25f / len};
    snug_pose poses[2] = {snug_pose_identity(), {{0.2193f, 0.0f, 0.0f, 0.97565f}, {1.125f, 1.125f, 1.125f}}};
    for (int k = 0; k < 2; k++) {
        snug_ray ray = {{poses[k].p[0], poses[k].p[1], poses[k].p[2]}, {1, 1, 1}, INFINITY};
        snug_ray_hit hit;
        CHECK(snug_mesh_raycast(ctx, h, &poses[k], &ray, &hit) == SNUG_OK);
        CHECK_MSG(hit.tri == 0 && hit.t == 0.0f, "pose %d: tri %u t %g", k, hit.tri, (double)hit.t);
        CHECK_NEAR(glm_vec3_norm(hit.normal), 1.0, 1e-6);
        /* the plane normal in world, up to its sign, which faces the ray */
        snug_xform x;
        snug_xform_from_pose(&poses[k], &x);
        float w[3];
        snug_xform_dir(&x, pn, w);
        CHECK_NEAR(fabsf(glm_vec3_dot(w, hit.normal)), 1.0, 1e-6);
        CHECK(glm_vec3_dot(hit.normal, ray.dir) <= 0.0f);
    }
    snug_mesh_destroy(ctx, h);
    snug_ctx_destroy(ctx);
}

/* Depth limits make leaves of more than 255 triangles (a ray-tree lane counts at most 255): max_depth 1 puts
 * 1300 triangles in the root leaf, 2 and 3 give leaves of ~650 and ~325; every triangle must still be found. */
static void test_depth_limited_big_leaves(void) {
    rng r = {harness_seed() ^ 0xb16u};
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh m;
    test_mesh_soup(&r, 1300, 1.0f, 0.3f, &m);
    long hits = 0, rays = 0;
    for (int depth = 1; depth <= 3 && !harness_current_failed; depth++) {
        snug_bvh_def def = snug_default_bvh_def();
        def.max_depth = depth;
        snug_mesh h = test_mesh_make(ctx, &m, &def);
        char name[48];
        snprintf(name, sizeof name, "1300 triangles, max_depth %d", depth);
        hits += run_rays(ctx, &r, &m, h, 256 * harness_scale(), name);
        rays += 256 * harness_scale();
        snug_mesh_destroy(ctx, h);
    }
    printf("  depth-limited leaves: %ld rays, %ld hits\n", rays, hits);
    CHECK(hits > rays / 4);
    test_mesh_free(&m);
    snug_ctx_destroy(ctx);
}

/* The ray tree is built on the first ray query (counted in the mesh memory) and dropped when the vertices move:
 * rays after the move see the new surface, through exact vertices of a bent grid too. */
static void test_refit_then_ray(void) {
    rng r = {harness_seed() ^ 0x4ef17u};
    test_mesh grid;
    grid_mesh(5, &grid);
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_pose id = snug_pose_identity();
    for (int shape = 0; shape < SHAPE_COUNT && !harness_current_failed; shape++) {
        snug_mesh h = make_shaped(ctx, &grid, shape);
        snug_mesh_info before, built, moved;
        snug_mesh_get_info(ctx, h, &before);
        snug_ray down = {{2.5f, 2.5f, 3.0f}, {0, 0, -1}, INFINITY};
        CHECK(check_ray(ctx, &grid, h, &id, &down, 10.0f, "flat grid", 0).t == 3.0f);
        snug_mesh_get_info(ctx, h, &built);
        CHECK(built.memory_bytes > before.memory_bytes);
        for (int round = 0; round < 3; round++) {
            for (uint32_t v = 0; v < grid.vertex_count; v++) grid.positions[3 * v + 2] = rng_range(&r, -1.0f, 1.0f);
            CHECK(snug_mesh_set_positions(ctx, h, grid.positions, grid.vertex_count) == SNUG_OK);
            snug_mesh_get_info(ctx, h, &moved);
            CHECK(moved.memory_bytes == before.memory_bytes);
            for (uint32_t v = 0; v < grid.vertex_count; v++) {
                const float* p = grid.positions + 3 * v;
                snug_ray at = {{p[0], p[1], 4.0f}, {0, 0, -1}, INFINITY};
                CHECK(check_ray(ctx, &grid, h, &id, &at, 10.0f, "bent grid vertex", (int)v).tri != SNUG_NO_HIT);
            }
            run_rays(ctx, &r, &grid, h, 32 * harness_scale(), "bent grid");
        }
        for (uint32_t v = 0; v < grid.vertex_count; v++) grid.positions[3 * v + 2] = 0.0f;
        snug_mesh_destroy(ctx, h);
    }
    test_mesh_free(&grid);
    snug_ctx_destroy(ctx);
}

/* A batch on a ray tree larger than a core's cache keeps several rays in flight: every ray must come out exactly
 * as from its own single call (triangle, t, point, normal), and agree with brute force on a sample. */
static void test_batch_rays_in_flight(void) {
    rng r = {harness_seed() ^ 0xba7c4u};
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh knot;
    test_mesh_torus_knot(1.0f, 0.25f, 2048, 16, 2, 3, &knot); /* 65,536 triangles */
    snug_mesh h = qs_make(ctx, &knot, SNUG_BV_AABB);
    snug_mesh_info before, after;
    snug_mesh_get_info(ctx, h, &before);
    uint32_t n = 2048u * (uint32_t)harness_scale();
    float *origins = malloc(12 * (size_t)n), *dirs = malloc(12 * (size_t)n), *tmaxs = malloc(4 * (size_t)n);
    snug_ray_hit* batch = malloc(sizeof *batch * n);
    /* a rotated pose, then one without rotation (the translation-only path) */
    for (int round = 0; round < 2 && !harness_current_failed; round++) {
        snug_pose pose = qs_random_pose(&r, 2.0f);
        if (round == 1) pose.q[0] = pose.q[1] = pose.q[2] = 0.0f, pose.q[3] = -1.0f;
        snug_xform x;
        snug_xform_from_pose(&pose, &x);
        for (uint32_t i = 0; i < n; i++) {
            float lo[3], to[3], dir[3];
            rng_unit_vec(&r, dir);
            for (int c = 0; c < 3; c++) {
                lo[c] = (i % 8 ? 4.0f : 0.5f) * dir[c];
                to[c] = rng_range(&r, -1.2f, 1.2f);
            }
            snug_xform_point(&x, lo, origins + 3 * i);
            snug_xform_point(&x, to, dirs + 3 * i);
            for (int c = 0; c < 3; c++) dirs[3 * i + c] -= origins[3 * i + c];
            tmaxs[i] = i % 4 ? INFINITY : rng_range(&r, 0.2f, 1.5f);
        }
        CHECK(snug_mesh_raycast_batch(ctx, h, &pose, origins, dirs, tmaxs, n, batch) == SNUG_OK);
        snug_mesh_get_info(ctx, h, &after);
        CHECK_MSG(after.memory_bytes - before.memory_bytes > (2u << 20), "ray tree of %zu bytes does not exceed the cache "
                  "threshold: the batch ran one ray at a time", (size_t)(after.memory_bytes - before.memory_bytes));
        long hits = 0;
        for (uint32_t i = 0; i < n && !harness_current_failed; i++) {
            snug_ray ray = {{origins[3 * i], origins[3 * i + 1], origins[3 * i + 2]},
                            {dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]}, tmaxs[i]};
            snug_ray_hit one;
            if (i % 64 == 0) one = check_ray(ctx, &knot, h, &pose, &ray, 3.0f, "in flight", (int)i);
            else CHECK(snug_mesh_raycast(ctx, h, &pose, &ray, &one) == SNUG_OK);
            hits += one.tri != SNUG_NO_HIT;
            CHECK_MSG(!memcmp(&one, &batch[i], sizeof one), "batched ray %u differs from its single call (seed %llu)", i,
                      (unsigned long long)harness_seed());
        }
        printf("  %u rays in flight, %ld hits\n", n, hits);
        CHECK(hits > (long)n / 4);
    }
    free(origins), free(dirs), free(tmaxs), free(batch);
    test_mesh_free(&knot);
    snug_ctx_destroy(ctx);
}

int main(void) {
    RUN(test_bad_input_and_edges);
    RUN(test_small_meshes);
    RUN(test_big_meshes);
    RUN(test_moved_vertices_and_out_of_memory);
    RUN(test_grid_edges_and_vertices);
    RUN(test_tiny_meshes);
    RUN(test_sliver_normals);
    RUN(test_depth_limited_big_leaves);
    RUN(test_refit_then_ray);
    RUN(test_batch_rays_in_flight);
    return harness_finish();
}
