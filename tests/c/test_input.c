/* Accepted input at every entry point (snug.h, SNUG_MAX_COORDINATE and SNUG_QUAT_TOLERANCE): coordinates beyond the
 * range and non-unit quaternions are rejected with SNUG_ERR_INVALID_ARGUMENT and change nothing; everything
 * inside the range keeps every derived quantity finite; a hierarchy never carries a body beyond the range; poses
 * at addresses that are only 4-byte aligned (as a snug_pose inside any struct may be) are read safely; snapshots
 * are held to the same rules. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "base/fnv.h"
#include "snug.h"
#include "test_meshes.h"

static const float BEYOND = 1.0000001e9f; /* the next float above SNUG_MAX_COORDINATE is 1e9 + 64 */

static snug_pose rotated(float angle, float x, float y, float z) {
    snug_pose p = test_pose_at(x, y, z);
    p.q[1] = sinf(0.5f * angle);
    p.q[3] = cosf(0.5f * angle);
    return p;
}

static bool same_pose(const snug_pose* a, const snug_pose* b) { return memcmp(a, b, sizeof *a) == 0; }

/* Two triangles 2e9 apart at the ends of the range: before the range existed, coordinates near 3e38 gave an
 * infinite scale and tolerance, overlap reported triangles 1e37 apart as touching, and a blob would not load. */
static void test_the_whole_range_keeps_derived_data_finite(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    /* floats are 64 apart at 1e9: legs of 2^16, a shift of 2^13 (above the tolerance, 1e-6 of the 3.5e9 scale) */
    const float M = SNUG_MAX_COORDINATE, L = 65536.0f, D = 8192.0f;
    float pos[18] = {-M, -M, -M, -M + L, -M, -M, -M, -M + L, -M, M, M, M, M - L, M, M, M, M - L, M};
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = pos;
    def.vertex_count = 6;
    def.triangle_count = 2;
    for (int t = 0; t < SNUG_BV_TYPE_COUNT + 1; t++) {
        def.bvh.bv_type = (snug_bv_type)t;
        def.bvh.hausdorff = t != SNUG_BV_KDOP26; /* k-DOPs take no Hausdorff bounds */
        snug_mesh h;
        CHECK_MSG(snug_mesh_create(ctx, &def, &h) == SNUG_OK, "type %d: %s", t, snug_ctx_last_error(ctx));
        snug_mesh_info info;
        CHECK(snug_mesh_get_info(ctx, h, &info) == SNUG_OK);
        CHECK(isfinite(info.scale) && isfinite(info.tolerance));
        snug_bvh_quality q;
        CHECK(snug_mesh_get_quality(ctx, h, &q) == SNUG_OK);
        CHECK(isfinite(q.volume_sum) && isfinite(q.surface_sum) && isfinite(q.sah_cost) && isfinite(q.hausdorff_max));
        snug_pose id = snug_pose_identity(), apart = test_pose_at(0.0f, 0.0f, D);
        snug_tri_pair pairs[4];
        uint32_t total;
        CHECK(snug_mesh_overlap_all(ctx, h, &id, h, &apart, pairs, 4, &total) == SNUG_OK && total == 0);
        CHECK(snug_mesh_overlap_all(ctx, h, &id, h, &id, pairs, 4, &total) == SNUG_OK && total == 2);
        snug_distance_result d;
        CHECK(snug_mesh_distance(ctx, h, &id, h, &apart, &d) == SNUG_OK);
        CHECK_NEAR(d.distance, D, 128.0);
        size_t size;
        CHECK(snug_mesh_serialize(ctx, h, NULL, 0, &size) == SNUG_OK);
        void* blob = malloc(size);
        snug_mesh loaded;
        CHECK(snug_mesh_serialize(ctx, h, blob, size, &size) == SNUG_OK);
        CHECK_MSG(snug_mesh_deserialize(ctx, blob, size, &loaded) == SNUG_OK, "type %d: %s", t, snug_ctx_last_error(ctx));
        free(blob);
        snug_mesh_destroy(ctx, loaded);
        snug_mesh_destroy(ctx, h);
    }
    snug_ctx_destroy(ctx);
}

static void test_coordinates_beyond_the_range_are_rejected(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    /* a fan of four triangles, so that the splitters run */
    float pos[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, -1, 0, 0, 0, -1, 0};
    uint32_t idx[12] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 1};
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = pos;
    def.vertex_count = 5;
    def.indices = idx;
    def.triangle_count = 4;
    def.bvh.leaf_size = 1;
    const float bad[] = {BEYOND, -BEYOND, 1e19f, -3e38f, FLT_MAX};
    snug_mesh h;
    for (int k = 0; k < 5; k++)
        for (int splitter = 0; splitter < SNUG_SPLITTER_COUNT; splitter++) {
            pos[4] = bad[k];
            def.bvh.splitter = (snug_splitter)splitter; /* greedy growth wrote out of bounds at 1e19 */
            CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_ERR_INVALID_ARGUMENT);
            CHECK(strstr(snug_ctx_last_error(ctx), "vertex 1") && strstr(snug_ctx_last_error(ctx), "range"));
        }
    pos[4] = NAN;
    CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_ERR_NOT_FINITE);
    pos[4] = 0.0f;
    CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_OK);
    pos[6] = BEYOND;
    CHECK(snug_mesh_set_positions(ctx, h, pos, 5) == SNUG_ERR_INVALID_ARGUMENT);
    snug_mesh_info info;
    CHECK(snug_mesh_get_info(ctx, h, &info) == SNUG_OK && info.aabb_max[0] == 1.0f);

    /* query inputs: pose translations, ray origins and directions, points, sweeps, motions */
    snug_pose id = snug_pose_identity(), far = test_pose_at(BEYOND, 0, 0);
    bool hit;
    CHECK(snug_mesh_overlap(ctx, h, &id, h, &far, &hit, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    snug_ray ray = {{0.2f, 0.2f, -BEYOND}, {0, 0, 1}, INFINITY};
    snug_ray_hit rh;
    CHECK(snug_mesh_raycast(ctx, h, &id, &ray, &rh) == SNUG_ERR_INVALID_ARGUMENT);
    ray.origin[2] = -1.0f, ray.dir[2] = 2e9f;
    CHECK(snug_mesh_raycast(ctx, h, &id, &ray, &rh) == SNUG_ERR_INVALID_ARGUMENT);
    ray.dir[2] = 1e9f;
    CHECK(snug_mesh_raycast(ctx, h, &id, &ray, &rh) == SNUG_OK && rh.tri == 0);
    /* a denormal direction put the hit at t = Inf with an infinite point (found by fuzz_mesh); the shortest
     * accepted one still gives a finite hit */
    snug_ray tiny = {{0.2f, 0.2f, -1.0f}, {1e-38f, 1e-38f, 1e-38f}, INFINITY};
    CHECK(snug_mesh_raycast(ctx, h, &id, &tiny, &rh) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(snug_ctx_last_error(ctx), "direction shorter"));
    tiny.dir[0] = tiny.dir[1] = 0.0f, tiny.dir[2] = SNUG_MIN_RAY_DIRECTION;
    CHECK(snug_mesh_raycast(ctx, h, &id, &tiny, &rh) == SNUG_OK && rh.tri == 0 && isfinite(rh.t) && isfinite(rh.point[2]));
    float point[3] = {0, 0, BEYOND};
    snug_point_result pr;
    CHECK(snug_mesh_closest_point(ctx, h, &id, point, INFINITY, &pr) == SNUG_ERR_INVALID_ARGUMENT);
    float move[3] = {0, 0, -BEYOND};
    snug_toi_result tr;
    CHECK(snug_mesh_sweep(ctx, h, &id, move, h, &id, &tr) == SNUG_ERR_INVALID_ARGUMENT);
    snug_motion m = snug_motion_between(&id, &far);
    CHECK(snug_mesh_toi(ctx, h, &m, h, &m, NULL, &tr) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(snug_ctx_last_error(ctx), "end pose"));
    snug_ctx_destroy(ctx);
}

/* A zero quaternion used to be taken as the identity while NaN was rejected; now every entry point takes
 * quaternions of length 1 within SNUG_QUAT_TOLERANCE (normalized) and rejects the rest. */
static void test_quaternions_must_be_unit_at_every_entry_point(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh box = test_box_make(ctx, 0.5f, 0.5f, 0.5f);
    snug_scene s;
    CHECK(snug_scene_create(ctx, &s) == SNUG_OK);
    snug_body_def def = snug_default_body_def();
    def.mesh = box;
    snug_body a;
    CHECK(snug_body_create(ctx, s, &def, &a) == SNUG_OK);
    snug_pose id = snug_pose_identity();
    const float lengths[] = {0.0f, 1e-20f, 0.5f, 1.0f - 1.5f * SNUG_QUAT_TOLERANCE, 1.0f + 1.5f * SNUG_QUAT_TOLERANCE, 2.0f, 1e20f};
    for (int k = 0; k < 7; k++) {
        snug_pose bad = rotated(0.7f, 1, 2, 3);
        for (int i = 0; i < 4; i++) bad.q[i] *= lengths[k];
        snug_body b;
        def.pose = bad;
        CHECK(snug_body_create(ctx, s, &def, &b) == SNUG_ERR_INVALID_ARGUMENT);
        CHECK(strstr(snug_ctx_last_error(ctx), "quaternion"));
        CHECK(snug_body_set_pose(ctx, s, a, &bad) == SNUG_ERR_INVALID_ARGUMENT);
        CHECK(snug_body_set_local_pose(ctx, s, a, &bad) == SNUG_ERR_INVALID_ARGUMENT);
        CHECK(snug_step_move(ctx, s, a, &bad, false) == SNUG_ERR_INVALID_ARGUMENT);
        bool hit;
        CHECK(snug_mesh_overlap(ctx, box, &bad, box, &id, &hit, NULL) == SNUG_ERR_INVALID_ARGUMENT);
        snug_ray ray = {{0, 0, -3}, {0, 0, 1}, INFINITY};
        snug_ray_hit rh;
        CHECK(snug_mesh_raycast(ctx, box, &bad, &ray, &rh) == SNUG_ERR_INVALID_ARGUMENT);
        snug_motion m = snug_motion_between(&id, &bad), still = snug_motion_static(&id);
        snug_toi_result tr;
        CHECK(snug_mesh_toi(ctx, box, &m, box, &still, NULL, &tr) == SNUG_ERR_INVALID_ARGUMENT);
        float move[3] = {1, 0, 0}, pivot[3] = {0, 0, 0}, axis[3] = {0, 1, 0};
        CHECK(snug_mesh_sweep(ctx, box, &bad, move, box, &id, &tr) == SNUG_ERR_INVALID_ARGUMENT);
        CHECK(snug_mesh_sweep_rotation(ctx, box, &bad, pivot, axis, 0.5f, box, &id, &tr) == SNUG_ERR_INVALID_ARGUMENT);
        CHECK(snug_mesh_sweep(ctx, box, &id, move, box, &bad, &tr) == SNUG_ERR_INVALID_ARGUMENT);
    }
    snug_pose now;
    CHECK(snug_body_get_pose(ctx, s, a, &now) == SNUG_OK && same_pose(&now, &id));
    /* within the tolerance: accepted and stored normalized */
    snug_pose near = rotated(0.7f, 0.2f, 0.1f, 0.0f);
    for (int i = 0; i < 4; i++) near.q[i] *= 1.0f + 0.5f * SNUG_QUAT_TOLERANCE;
    CHECK(snug_body_set_pose(ctx, s, a, &near) == SNUG_OK);
    CHECK(snug_body_get_pose(ctx, s, a, &now) == SNUG_OK);
    float n2 = now.q[0] * now.q[0] + now.q[1] * now.q[1] + now.q[2] * now.q[2] + now.q[3] * now.q[3];
    CHECK_NEAR(n2, 1.0, 1e-6);
    bool hit;
    CHECK(snug_mesh_overlap(ctx, box, &near, box, &id, &hit, NULL) == SNUG_OK && hit);
    snug_ctx_destroy(ctx);
}

/* Snapshots carry poses too: one resealed with a body's quaternion zeroed or its position beyond the range is
 * refused (used to restore a zero quaternion, which only the finite test saw) and the scene stays as it was. */
static void test_snapshots_refuse_poses_outside_the_rules(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh box = test_box_make(ctx, 0.5f, 0.5f, 0.5f);
    snug_scene s;
    CHECK(snug_scene_create(ctx, &s) == SNUG_OK);
    snug_body_def def = snug_default_body_def();
    def.mesh = box;
    def.pose = rotated(0.7f, 1.25f, 2.5f, 3.75f);
    snug_body a;
    CHECK(snug_body_create(ctx, s, &def, &a) == SNUG_OK);
    size_t size = 0;
    CHECK(snug_scene_snapshot(ctx, s, NULL, 0, &size) == SNUG_OK);
    unsigned char* snap = malloc(size);
    CHECK(snug_scene_snapshot(ctx, s, snap, size, &size) == SNUG_OK);
    snug_pose stored;
    CHECK(snug_body_get_pose(ctx, s, a, &stored) == SNUG_OK);
    for (int bad = 0; bad < 2; bad++) {
        unsigned char* forged = malloc(size);
        memcpy(forged, snap, size);
        /* the body record holds the pose as stored (local and world alike for a root): change every copy */
        int copies = 0;
        for (size_t at = 0; at + sizeof stored <= size; at++) {
            if (memcmp(forged + at, &stored, sizeof stored)) continue;
            snug_pose p = stored;
            if (bad == 0) memset(p.q, 0, sizeof p.q);
            else p.p[1] = 2e9f;
            memcpy(forged + at, &p, sizeof p);
            copies++;
        }
        CHECK(copies == 2);
        /* reseal: FNV-1a 64 of everything after the 32-byte header, at offset 24 */
        uint64_t h = snug_fnv1a64(forged + 32, size - 32);
        memcpy(forged + 24, &h, 8);
        CHECK_MSG(snug_scene_restore(ctx, s, forged, size) == SNUG_ERR_BLOB_CORRUPT, "case %d: %s", bad,
                  snug_ctx_last_error(ctx));
        snug_pose now;
        CHECK(snug_body_get_pose(ctx, s, a, &now) == SNUG_OK && same_pose(&now, &stored));
        free(forged);
    }
    CHECK(snug_scene_restore(ctx, s, snap, size) == SNUG_OK);
    free(snap);
    snug_ctx_destroy(ctx);
}

/* A chain of bodies: moving the root, a middle body's local pose or its parent so that some body of the subtree
 * would leave the range fails and leaves every pose and the hierarchy as they were. */
static void test_hierarchies_keep_every_body_in_range(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh box = test_box_make(ctx, 0.5f, 0.5f, 0.5f);
    snug_scene s;
    CHECK(snug_scene_create(ctx, &s) == SNUG_OK);
    snug_body_def def = snug_default_body_def();
    def.mesh = box;
    snug_body chain[4], other;
    for (int i = 0; i < 4; i++) {
        def.parent = i ? chain[i - 1] : 0;
        def.pose = i ? rotated(0.3f, 3e8f, 0, 0) : test_pose_at(0, 0, 0);
        CHECK(snug_body_create(ctx, s, &def, &chain[i]) == SNUG_OK);
    }
    def.parent = 0;
    def.pose = test_pose_at(9e8f, 0, 0);
    CHECK(snug_body_create(ctx, s, &def, &other) == SNUG_OK);
    /* a new child beyond the range */
    snug_body extra;
    def.parent = other;
    def.pose = test_pose_at(2e8f, 0, 0);
    CHECK(snug_body_create(ctx, s, &def, &extra) == SNUG_ERR_INVALID_ARGUMENT);
    snug_pose world[5], local[5];
    snug_body all[5] = {chain[0], chain[1], chain[2], chain[3], other};
    for (int i = 0; i < 5; i++) {
        CHECK(snug_body_get_pose(ctx, s, all[i], &world[i]) == SNUG_OK);
        CHECK(snug_body_get_local_pose(ctx, s, all[i], &local[i]) == SNUG_OK);
    }
    snug_pose push = test_pose_at(8e8f, 0, 0);
    CHECK(snug_body_set_pose(ctx, s, chain[0], &push) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(snug_ctx_last_error(ctx), "range"));
    CHECK(snug_body_set_local_pose(ctx, s, chain[1], &push) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_body_set_parent(ctx, s, chain[2], other, false) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_body_set_parent(ctx, s, chain[1], other, false) == SNUG_ERR_INVALID_ARGUMENT);
    for (int i = 0; i < 5; i++) {
        snug_pose w, l;
        CHECK(snug_body_get_pose(ctx, s, all[i], &w) == SNUG_OK && same_pose(&w, &world[i]));
        CHECK(snug_body_get_local_pose(ctx, s, all[i], &l) == SNUG_OK && same_pose(&l, &local[i]));
    }
    snug_body parent;
    CHECK(snug_body_get_parent(ctx, s, chain[2], &parent) == SNUG_OK && parent == chain[1]);
    snug_body_info info;
    CHECK(snug_body_get_info(ctx, s, other, &info) == SNUG_OK && info.child_count == 0);
    CHECK(snug_body_get_info(ctx, s, chain[1], &info) == SNUG_OK && info.child_count == 1);
    /* a step whose motion carries the chain beyond the range */
    CHECK(snug_step_begin(ctx, s) == SNUG_OK);
    CHECK(snug_step_move(ctx, s, chain[0], &push, true) == SNUG_OK);
    snug_step_def sd = snug_default_step_def();
    snug_contact c[1];
    uint32_t count;
    CHECK(snug_step_detect(ctx, s, &sd, c, 1, &count, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(snug_ctx_last_error(ctx), "range"));
    /* keeping the world pose is always in range */
    CHECK(snug_body_set_parent(ctx, s, chain[2], other, true) == SNUG_OK);
    snug_ctx_destroy(ctx);
}

/* snug_pose holds floats, so inside a caller's struct it may sit at any multiple of 4 bytes; cglm's quaternion
 * code loads 16 aligned bytes. Non-unit (accepted) quaternions take the normalising paths. */
static void test_poses_at_unaligned_addresses(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh box = test_box_make(ctx, 0.5f, 0.5f, 0.5f);
    snug_scene s;
    CHECK(snug_scene_create(ctx, &s) == SNUG_OK);
    _Alignas(16) unsigned char raw[4 * sizeof(snug_pose) + 16];
    for (int offset = 4; offset < 16; offset += 4) {
        snug_pose* p = (snug_pose*)(raw + offset);
        *p = rotated(0.4f, 0.1f, 0.2f, 0.3f);
        for (int i = 0; i < 4; i++) p->q[i] *= 1.0f + 0.5f * SNUG_QUAT_TOLERANCE;
        snug_body_def* def = (snug_body_def*)malloc(sizeof *def);
        *def = snug_default_body_def();
        def->mesh = box;
        def->pose = *p;
        snug_body b;
        CHECK(snug_body_create(ctx, s, def, &b) == SNUG_OK);
        free(def);
        CHECK(snug_body_set_pose(ctx, s, b, p) == SNUG_OK);
        CHECK(snug_body_set_local_pose(ctx, s, b, p) == SNUG_OK);
        CHECK(snug_step_begin(ctx, s) == SNUG_OK);
        CHECK(snug_step_move(ctx, s, b, p, offset == 8) == SNUG_OK);
        float pivot[3] = {0, 0, 0}, axis[3] = {0, 1, 0}, move[3] = {1, 0, 0};
        snug_toi_result r;
        CHECK(snug_mesh_sweep_rotation(ctx, box, p, pivot, axis, 0.3f, box, p, &r) == SNUG_OK);
        CHECK(snug_mesh_sweep(ctx, box, p, move, box, p, &r) == SNUG_OK);
    }
    snug_ctx_destroy(ctx);
}

int main(void) {
    RUN(test_the_whole_range_keeps_derived_data_finite);
    RUN(test_coordinates_beyond_the_range_are_rejected);
    RUN(test_quaternions_must_be_unit_at_every_entry_point);
    RUN(test_snapshots_refuse_poses_outside_the_rules);
    RUN(test_hierarchies_keep_every_body_in_range);
    RUN(test_poses_at_unaligned_addresses);
    return harness_finish();
}
