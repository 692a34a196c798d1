/* Scenes and bodies: handle misuse (stale, foreign, wrong kind, zero), NaN poses and bad arguments give clear
 * errors and leave the scene as it was; scenes created and destroyed many times leak nothing; every allocation
 * of body creation failing in turn reports out-of-memory and changes nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "snug.h"
#include "test_alloc.h"
#include "test_meshes.h"

static snug_mesh box_mesh(snug_ctx* ctx) {
    test_mesh box;
    test_mesh_box(0.5f, 0.5f, 0.5f, &box);
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = box.positions;
    def.vertex_count = box.vertex_count;
    def.indices = box.indices;
    def.triangle_count = box.triangle_count;
    snug_mesh h = 0;
    CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_OK);
    test_mesh_free(&box);
    return h;
}

static bool same_pose(const snug_pose* a, const snug_pose* b) { return memcmp(a, b, sizeof *a) == 0; }

static void test_handle_misuse_is_an_error(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh mesh = box_mesh(ctx);
    snug_scene s1, s2;
    CHECK(snug_scene_create(ctx, &s1) == SNUG_OK);
    CHECK(snug_scene_create(ctx, &s2) == SNUG_OK);
    snug_body_def def = snug_default_body_def();
    def.mesh = mesh;
    snug_body a, b, c;
    CHECK(snug_body_create(ctx, s1, &def, &a) == SNUG_OK);
    CHECK(snug_body_create(ctx, s1, &def, &b) == SNUG_OK);
    CHECK(snug_body_create(ctx, s2, &def, &c) == SNUG_OK);
    snug_pose p;
    /* a body of another scene, a scene handle as a body, a mesh handle as a body, zero, a forged number */
    CHECK(snug_body_get_pose(ctx, s1, c, &p) == SNUG_ERR_STALE_HANDLE);
    CHECK(strstr(snug_ctx_last_error(ctx), "body") != NULL);
    CHECK(snug_body_get_pose(ctx, s1, s1, &p) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_body_get_pose(ctx, s1, mesh, &p) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_body_get_pose(ctx, s1, 0, &p) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_body_get_pose(ctx, s1, 0xdeadbeefu, &p) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_body_get_pose(ctx, a, a, &p) == SNUG_ERR_STALE_HANDLE); /* body as a scene */
    CHECK(snug_body_set_parent(ctx, s1, a, c, true) == SNUG_ERR_STALE_HANDLE);
    def.parent = c;
    snug_body d;
    CHECK(snug_body_create(ctx, s1, &def, &d) == SNUG_ERR_STALE_HANDLE);
    def.parent = 0;
    def.mesh = 12345;
    CHECK(snug_body_create(ctx, s1, &def, &d) == SNUG_ERR_STALE_HANDLE);
    def.mesh = mesh;
    CHECK(snug_body_create(ctx, s1, NULL, &d) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_body_create(ctx, s1, &def, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_body_get_pose(ctx, s1, a, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_scene_ignore_pair(ctx, s1, a, a, true) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_scene_ignore_pair(ctx, s1, a, c, true) == SNUG_ERR_STALE_HANDLE);
    /* destroyed body: stale everywhere, the slot's next body has a new handle */
    CHECK(snug_body_destroy(ctx, s1, b) == SNUG_OK);
    CHECK(snug_body_destroy(ctx, s1, b) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_body_set_pose(ctx, s1, b, &p) == SNUG_ERR_STALE_HANDLE);
    snug_body e;
    CHECK(snug_body_create(ctx, s1, &def, &e) == SNUG_OK);
    CHECK(e != b);
    CHECK(snug_body_get_pose(ctx, s1, b, &p) == SNUG_ERR_STALE_HANDLE);
    /* destroyed scene */
    CHECK(snug_scene_destroy(ctx, s2) == SNUG_OK);
    CHECK(snug_scene_destroy(ctx, s2) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_body_get_pose(ctx, s2, c, &p) == SNUG_ERR_STALE_HANDLE);
    CHECK(strstr(snug_ctx_last_error(ctx), "scene") != NULL);
    /* the other context does not know these handles */
    snug_ctx* other = snug_ctx_create(NULL);
    CHECK(snug_body_get_pose(other, s1, a, &p) == SNUG_ERR_STALE_HANDLE);
    snug_ctx_destroy(other);
    /* NULL context */
    CHECK(snug_scene_create(NULL, &s2) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_body_get_pose(NULL, s1, a, &p) == SNUG_ERR_INVALID_ARGUMENT);
    /* a success clears the message */
    CHECK(snug_body_get_pose(ctx, s1, a, &p) == SNUG_OK);
    CHECK(snug_ctx_last_error(ctx)[0] == '\0');
    snug_ctx_destroy(ctx);
}

static void test_nan_poses_change_nothing(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh mesh = box_mesh(ctx);
    snug_scene s;
    CHECK(snug_scene_create(ctx, &s) == SNUG_OK);
    snug_body_def def = snug_default_body_def();
    def.mesh = mesh;
    def.pose.p[0] = 2.0f;
    snug_body a, b;
    CHECK(snug_body_create(ctx, s, &def, &a) == SNUG_OK);
    def.parent = a;
    CHECK(snug_body_create(ctx, s, &def, &b) == SNUG_OK);
    snug_pose wa, wb, la, bad = snug_pose_identity();
    snug_body_get_pose(ctx, s, a, &wa);
    snug_body_get_pose(ctx, s, b, &wb);
    snug_body_get_local_pose(ctx, s, a, &la);
    for (int k = 0; k < 7; k++) {
        bad = snug_pose_identity();
        float v = k % 2 ? NAN : INFINITY;
        if (k < 4) bad.q[k] = v;
        else bad.p[k - 4] = v;
        CHECK(snug_body_set_pose(ctx, s, a, &bad) == SNUG_ERR_NOT_FINITE);
        CHECK(snug_body_set_local_pose(ctx, s, a, &bad) == SNUG_ERR_NOT_FINITE);
        def.pose = bad;
        snug_body c;
        CHECK(snug_body_create(ctx, s, &def, &c) == SNUG_ERR_NOT_FINITE);
    }
    CHECK(snug_body_set_pose(ctx, s, a, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    snug_pose now;
    snug_body_get_pose(ctx, s, a, &now);
    CHECK(same_pose(&now, &wa));
    snug_body_get_pose(ctx, s, b, &now);
    CHECK(same_pose(&now, &wb));
    snug_body_get_local_pose(ctx, s, a, &now);
    CHECK(same_pose(&now, &la));
    snug_body_info info;
    CHECK(snug_body_get_info(ctx, s, a, &info) == SNUG_OK);
    CHECK(info.child_count == 1 && isfinite(info.aabb_min[0]));
    uint32_t total = 0;
    snug_body_pair pairs[4];
    CHECK(snug_scene_pairs(ctx, s, pairs, 4, &total) == SNUG_OK);
    CHECK(total == 0); /* the child sits 2 units beside its parent; nothing else was added */
    snug_ctx_destroy(ctx);
}

static void test_create_and_destroy_many_times_leaks_nothing(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh mesh = box_mesh(ctx);
    rng r = {harness_seed() ^ 0x1ea4};
    /* warm the context's scratch arena (a bulk rebuild uses it) so the comparison sees only scene memory */
    snug_scene warm;
    CHECK(snug_scene_create(ctx, &warm) == SNUG_OK);
    for (int i = 0; i < 150; i++) {
        snug_body_def def = snug_default_body_def();
        def.mesh = mesh;
        snug_body b;
        CHECK(snug_body_create(ctx, warm, &def, &b) == SNUG_OK);
    }
    uint32_t warm_total;
    snug_scene_pairs(ctx, warm, NULL, 0, &warm_total);
    CHECK(snug_scene_destroy(ctx, warm) == SNUG_OK);
    const size_t start = snug_ctx_allocated_bytes(ctx);
    int rounds = 60 * harness_scale();
    for (int round = 0; round < rounds; round++) {
        snug_scene s;
        CHECK(snug_scene_create(ctx, &s) == SNUG_OK);
        snug_body bodies[150];
        int n = 1 + (int)(rng_next(&r) % 150);
        for (int i = 0; i < n; i++) {
            snug_body_def def = snug_default_body_def();
            def.mesh = mesh;
            rng_unit_quat(&r, def.pose.q);
            for (int k = 0; k < 3; k++) def.pose.p[k] = rng_range(&r, -5.0f, 5.0f);
            def.parent = (i > 0 && rng_float(&r) < 0.3f) ? bodies[rng_next(&r) % (uint64_t)i] : 0;
            CHECK(snug_body_create(ctx, s, &def, &bodies[i]) == SNUG_OK);
            if (i > 0 && rng_float(&r) < 0.1f) snug_scene_ignore_pair(ctx, s, bodies[i], bodies[i - 1], true);
        }
        uint32_t total;
        snug_scene_pairs(ctx, s, NULL, 0, &total);
        /* destroy some bodies, then the scene with the rest (or all bodies one by one) */
        for (int i = 0; i < n; i++)
            if (rng_float(&r) < (round % 2 ? 1.0f : 0.4f)) CHECK(snug_body_destroy(ctx, s, bodies[i]) == SNUG_OK);
        snug_scene_pairs(ctx, s, NULL, 0, &total);
        CHECK(snug_scene_destroy(ctx, s) == SNUG_OK);
        CHECK_MSG(snug_ctx_allocated_bytes(ctx) == start, "round %d: %zu bytes live, %zu at the start", round,
                  snug_ctx_allocated_bytes(ctx), start);
    }
    snug_ctx_destroy(ctx);
}

/* A scene that never had a body answers every query (its broad-phase sync moved a NULL queue before). */
static void test_empty_scene_answers_every_query(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_scene s;
    CHECK(snug_scene_create(ctx, &s) == SNUG_OK);
    uint32_t total = 1, count = 1;
    CHECK(snug_scene_pairs(ctx, s, NULL, 0, &total) == SNUG_OK && total == 0);
    float lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    CHECK(snug_scene_overlap_box(ctx, s, lo, hi, NULL, 0, &total) == SNUG_OK && total == 0);
    snug_ray ray = {{0, 0, -5}, {0, 0, 1}, INFINITY};
    snug_scene_hit hit;
    CHECK(snug_scene_raycast(ctx, s, &ray, ~0u, &hit) == SNUG_OK && hit.body == 0);
    snug_step_def sd = snug_default_step_def();
    CHECK(snug_step_begin(ctx, s) == SNUG_OK);
    CHECK(snug_step_detect(ctx, s, &sd, NULL, 0, &count, NULL) == SNUG_OK && count == 0);
    CHECK(snug_scene_destroy(ctx, s) == SNUG_OK);
    snug_ctx_destroy(ctx);
}

static void test_failed_allocations_change_nothing(void) {
    test_failing_alloc f = {-1};
    snug_ctx_def cd = test_failing_ctx_def(&f);
    snug_ctx* ctx = snug_ctx_create(&cd);
    snug_mesh mesh = box_mesh(ctx);
    snug_scene s;
    CHECK(snug_scene_create(ctx, &s) == SNUG_OK);
    snug_body_def def = snug_default_body_def();
    def.mesh = mesh;
    snug_body first;
    CHECK(snug_body_create(ctx, s, &def, &first) == SNUG_OK);
    int failures = 0;
    for (int n = 0; n < 40; n++) {
        size_t before = snug_ctx_allocated_bytes(ctx);
        f.countdown = n;
        snug_body b = 0;
        snug_status st = snug_body_create(ctx, s, &def, &b);
        int left = f.countdown;
        f.countdown = -1;
        if (st == SNUG_OK) {
            CHECK(left >= 0 || n == 0);
            CHECK(snug_body_destroy(ctx, s, b) == SNUG_OK);
            continue;
        }
        failures++;
        CHECK(st == SNUG_ERR_OUT_OF_MEMORY);
        CHECK(snug_ctx_allocated_bytes(ctx) <= before);
        snug_body_info info;
        CHECK(snug_body_get_info(ctx, s, first, &info) == SNUG_OK && info.child_count == 0);
    }
    CHECK(failures > 0);
    /* a scene whose creation fails leaves nothing behind */
    for (int n = 0; n < 4; n++) {
        size_t before = snug_ctx_allocated_bytes(ctx);
        f.countdown = n;
        snug_scene t;
        snug_status st = snug_scene_create(ctx, &t);
        f.countdown = -1;
        if (st == SNUG_OK) CHECK(snug_scene_destroy(ctx, t) == SNUG_OK);
        else CHECK(st == SNUG_ERR_OUT_OF_MEMORY && snug_ctx_allocated_bytes(ctx) == before);
    }
    uint32_t total;
    CHECK(snug_scene_pairs(ctx, s, NULL, 0, &total) == SNUG_OK && total == 0);
    snug_ctx_destroy(ctx);
}

int main(void) {
    RUN(test_handle_misuse_is_an_error);
    RUN(test_nan_poses_change_nothing);
    RUN(test_create_and_destroy_many_times_leaks_nothing);
    RUN(test_empty_scene_answers_every_query);
    RUN(test_failed_allocations_change_nothing);
    return harness_finish();
}
