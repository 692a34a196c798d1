/* Hierarchy: world poses after random re-parenting, moves and destruction equal a recomputation from scratch
 * (products of matrices along the parent chain, a different code path from the scene's cached quaternion
 * products); keep-world re-parenting keeps the world pose; cycles are rejected and change nothing; destroying a
 * parent detaches its children keeping their world poses; moving a node moves its subtree rigidly. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "base/pose.h"
#include "snug.h"
#include "test_meshes.h"

#define N 40

typedef struct forest {
    snug_ctx* ctx;
    snug_scene scene;
    snug_mesh mesh;
    snug_body body[N];
} forest;

static void forest_init(forest* f) {
    memset(f, 0, sizeof *f);
    f->ctx = snug_ctx_create(NULL);
    CHECK(snug_scene_create(f->ctx, &f->scene) == SNUG_OK);
    test_mesh box;
    test_mesh_box(0.3f, 0.2f, 0.1f, &box);
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = box.positions;
    def.vertex_count = box.vertex_count;
    def.indices = box.indices;
    def.triangle_count = box.triangle_count;
    CHECK(snug_mesh_create(f->ctx, &def, &f->mesh) == SNUG_OK);
    test_mesh_free(&box);
}

static snug_pose random_pose(rng* r) {
    snug_pose p;
    rng_unit_quat(r, p.q);
    for (int k = 0; k < 3; k++) p.p[k] = rng_range(r, -3.0f, 3.0f);
    return p;
}

/* World transform from scratch: local matrices multiplied along the parent chain. */
static void world_from_scratch(forest* f, int i, snug_xform* out) {
    snug_xform_identity(out);
    snug_body b = f->body[i];
    int guard = 0;
    while (b && guard++ <= N) {
        snug_pose local;
        CHECK(snug_body_get_local_pose(f->ctx, f->scene, b, &local) == SNUG_OK);
        snug_xform x;
        snug_xform_from_pose(&local, &x);
        snug_xform_mul(&x, out, out);
        snug_body parent;
        CHECK(snug_body_get_parent(f->ctx, f->scene, b, &parent) == SNUG_OK);
        b = parent;
    }
    CHECK_MSG(guard <= N, "parent chain of body %d does not end (cycle)", i);
}

static float xform_gap(const snug_xform* a, const snug_xform* b) {
    /* largest displacement of the corners of a unit cube */
    float worst = 0.0f;
    for (int c = 0; c < 8; c++) {
        vec3 p = {(float)(c & 1), (float)((c >> 1) & 1), (float)((c >> 2) & 1)}, pa, pb;
        snug_xform_point(a, p, pa);
        snug_xform_point(b, p, pb);
        float d = glm_vec3_distance(pa, pb);
        if (d > worst) worst = d;
    }
    return worst;
}

static void world_of(forest* f, int i, snug_xform* out) {
    snug_pose w;
    CHECK(snug_body_get_pose(f->ctx, f->scene, f->body[i], &w) == SNUG_OK);
    snug_xform_from_pose(&w, out);
}

static void check_all(forest* f, int step) {
    for (int i = 0; i < N; i++) {
        if (!f->body[i]) continue;
        snug_xform cached, scratch;
        world_of(f, i, &cached);
        world_from_scratch(f, i, &scratch);
        float gap = xform_gap(&cached, &scratch);
        CHECK_MSG(gap < 2e-4f, "step %d body %d: cached world differs from recomputation by %g", step, i, gap);
        RETURN_IF_FAILED();
    }
}

static int random_live(forest* f, rng* r) {
    for (int tries = 0; tries < 4 * N; tries++) {
        int i = (int)(rng_next(r) % N);
        if (f->body[i]) return i;
    }
    return -1;
}

static void test_random_reparenting_matches_recomputation(void) {
    rng r = {harness_seed() ^ 0x41e7};
    forest f;
    forest_init(&f);
    int steps = 2000 * harness_scale();
    int cycles = 0, detached = 0;
    for (int step = 0; step < steps; step++) {
        float u = rng_float(&r);
        int i = (int)(rng_next(&r) % N);
        if (!f.body[i]) {
            snug_body_def def = snug_default_body_def();
            def.mesh = f.mesh;
            def.pose = random_pose(&r);
            int p = random_live(&f, &r);
            def.parent = (p >= 0 && rng_float(&r) < 0.7f) ? f.body[p] : 0;
            CHECK(snug_body_create(f.ctx, f.scene, &def, &f.body[i]) == SNUG_OK);
        } else if (u < 0.35f) {
            int p = random_live(&f, &r);
            snug_body parent = (p >= 0 && rng_float(&r) < 0.85f) ? f.body[p] : 0;
            bool keep = rng_float(&r) < 0.6f;
            snug_xform before;
            world_of(&f, i, &before);
            /* would this close a cycle? walk up from the new parent */
            bool cycle = false;
            for (snug_body a = parent; a; ) {
                if (a == f.body[i]) cycle = true;
                snug_body up;
                CHECK(snug_body_get_parent(f.ctx, f.scene, a, &up) == SNUG_OK);
                a = up;
            }
            snug_body old_parent;
            snug_body_get_parent(f.ctx, f.scene, f.body[i], &old_parent);
            snug_status st = snug_body_set_parent(f.ctx, f.scene, f.body[i], parent, keep);
            if (cycle) {
                cycles++;
                CHECK(st == SNUG_ERR_CYCLE);
                snug_body now;
                snug_body_get_parent(f.ctx, f.scene, f.body[i], &now);
                CHECK(now == old_parent);
                snug_xform after;
                world_of(&f, i, &after);
                CHECK(xform_gap(&before, &after) == 0.0f);
            } else {
                CHECK(st == SNUG_OK);
                snug_body now;
                snug_body_get_parent(f.ctx, f.scene, f.body[i], &now);
                CHECK(now == parent);
                if (keep) {
                    snug_xform after;
                    world_of(&f, i, &after);
                    CHECK_MSG(xform_gap(&before, &after) < 2e-4f, "step %d: keep-world re-parenting moved the body", step);
                }
            }
        } else if (u < 0.45f) {
            /* destroy: children become roots with unchanged world poses */
            snug_xform before[N];
            snug_body parent_before[N];
            for (int k = 0; k < N; k++)
                if (f.body[k]) {
                    world_of(&f, k, &before[k]);
                    snug_body_get_parent(f.ctx, f.scene, f.body[k], &parent_before[k]);
                }
            snug_body gone = f.body[i];
            CHECK(snug_body_destroy(f.ctx, f.scene, gone) == SNUG_OK);
            f.body[i] = 0;
            for (int k = 0; k < N; k++) {
                if (!f.body[k]) continue;
                snug_xform after;
                world_of(&f, k, &after);
                CHECK(xform_gap(&before[k], &after) < 2e-4f);
                snug_body p;
                snug_body_get_parent(f.ctx, f.scene, f.body[k], &p);
                CHECK(p == (parent_before[k] == gone ? 0 : parent_before[k]));
                if (parent_before[k] == gone) detached++;
            }
            snug_pose any;
            CHECK(snug_body_get_pose(f.ctx, f.scene, gone, &any) == SNUG_ERR_STALE_HANDLE);
        } else if (u < 0.75f) {
            /* move: the subtree moves rigidly, so each descendant keeps its pose relative to the moved node */
            snug_xform before_i, before[N];
            world_of(&f, i, &before_i);
            for (int k = 0; k < N; k++)
                if (f.body[k]) world_of(&f, k, &before[k]);
            snug_pose p = random_pose(&r);
            if (rng_float(&r) < 0.5f) CHECK(snug_body_set_pose(f.ctx, f.scene, f.body[i], &p) == SNUG_OK);
            else CHECK(snug_body_set_local_pose(f.ctx, f.scene, f.body[i], &p) == SNUG_OK);
            snug_xform after_i, inv_before, inv_after;
            world_of(&f, i, &after_i);
            snug_xform_inverse(&before_i, &inv_before);
            snug_xform_inverse(&after_i, &inv_after);
            for (int k = 0; k < N; k++) {
                if (!f.body[k]) continue;
                bool below = false;
                for (snug_body a = f.body[k]; a; ) {
                    if (a == f.body[i]) below = true;
                    snug_body up;
                    snug_body_get_parent(f.ctx, f.scene, a, &up);
                    a = up;
                }
                snug_xform after, rel_before, rel_after;
                world_of(&f, k, &after);
                if (below) {
                    snug_xform_mul(&inv_before, &before[k], &rel_before);
                    snug_xform_mul(&inv_after, &after, &rel_after);
                    CHECK(xform_gap(&rel_before, &rel_after) < 3e-4f);
                } else {
                    CHECK(xform_gap(&before[k], &after) == 0.0f); /* nothing else moves */
                }
            }
        } else {
            /* a world pose written is the world pose read */
            snug_pose p = random_pose(&r), back;
            CHECK(snug_body_set_pose(f.ctx, f.scene, f.body[i], &p) == SNUG_OK);
            CHECK(snug_body_get_pose(f.ctx, f.scene, f.body[i], &back) == SNUG_OK);
            snug_xform a, b;
            snug_xform_from_pose(&p, &a);
            snug_xform_from_pose(&back, &b);
            CHECK(xform_gap(&a, &b) < 1e-4f);
        }
        check_all(&f, step);
        RETURN_IF_FAILED();
    }
    CHECK(cycles > 10);
    CHECK(detached > 10);
    snug_ctx_destroy(f.ctx);
}

static void test_cycles_and_self_parent_are_rejected(void) {
    forest f;
    forest_init(&f);
    snug_body_def def = snug_default_body_def();
    def.mesh = f.mesh;
    CHECK(snug_body_create(f.ctx, f.scene, &def, &f.body[0]) == SNUG_OK);
    def.parent = f.body[0];
    CHECK(snug_body_create(f.ctx, f.scene, &def, &f.body[1]) == SNUG_OK);
    def.parent = f.body[1];
    CHECK(snug_body_create(f.ctx, f.scene, &def, &f.body[2]) == SNUG_OK);
    CHECK(snug_body_set_parent(f.ctx, f.scene, f.body[0], f.body[0], true) == SNUG_ERR_CYCLE);
    CHECK(snug_body_set_parent(f.ctx, f.scene, f.body[0], f.body[2], true) == SNUG_ERR_CYCLE);
    CHECK(strstr(snug_ctx_last_error(f.ctx), "ancestor") != NULL);
    CHECK(snug_body_set_parent(f.ctx, f.scene, f.body[1], f.body[2], false) == SNUG_ERR_CYCLE);
    snug_body_info info;
    CHECK(snug_body_get_info(f.ctx, f.scene, f.body[0], &info) == SNUG_OK);
    CHECK(info.parent == 0 && info.child_count == 1);
    CHECK(snug_body_get_info(f.ctx, f.scene, f.body[1], &info) == SNUG_OK);
    CHECK(info.parent == f.body[0] && info.child_count == 1);
    /* re-hanging the leaf to the root is fine, and back */
    CHECK(snug_body_set_parent(f.ctx, f.scene, f.body[2], f.body[0], true) == SNUG_OK);
    CHECK(snug_body_get_info(f.ctx, f.scene, f.body[0], &info) == SNUG_OK && info.child_count == 2);
    CHECK(snug_body_set_parent(f.ctx, f.scene, f.body[2], 0, true) == SNUG_OK);
    CHECK(snug_body_get_info(f.ctx, f.scene, f.body[0], &info) == SNUG_OK && info.child_count == 1);
    snug_ctx_destroy(f.ctx);
}

/* keep_world = false keeps the local pose: the child follows its new parent. */
static void test_keep_local_follows_the_new_parent(void) {
    forest f;
    forest_init(&f);
    snug_body_def def = snug_default_body_def();
    def.mesh = f.mesh;
    def.pose.p[0] = 5.0f;
    CHECK(snug_body_create(f.ctx, f.scene, &def, &f.body[0]) == SNUG_OK);
    def.pose.p[0] = 1.0f;
    CHECK(snug_body_create(f.ctx, f.scene, &def, &f.body[1]) == SNUG_OK);
    CHECK(snug_body_set_parent(f.ctx, f.scene, f.body[1], f.body[0], false) == SNUG_OK);
    snug_pose w;
    CHECK(snug_body_get_pose(f.ctx, f.scene, f.body[1], &w) == SNUG_OK);
    CHECK_NEAR(w.p[0], 6.0f, 1e-6);
    CHECK(snug_body_set_parent(f.ctx, f.scene, f.body[1], 0, true) == SNUG_OK);
    CHECK(snug_body_get_pose(f.ctx, f.scene, f.body[1], &w) == SNUG_OK);
    CHECK_NEAR(w.p[0], 6.0f, 1e-6);
    snug_pose l;
    CHECK(snug_body_get_local_pose(f.ctx, f.scene, f.body[1], &l) == SNUG_OK);
    CHECK_NEAR(l.p[0], 6.0f, 1e-6);
    snug_ctx_destroy(f.ctx);
}

int main(void) {
    RUN(test_random_reparenting_matches_recomputation);
    RUN(test_cycles_and_self_parent_are_rejected);
    RUN(test_keep_local_follows_the_new_parent);
    return harness_finish();
}
