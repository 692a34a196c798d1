/* Conventions of the public API that hold for every object: a def is accepted only when made by its
 * snug_default_xxx_def() (a zeroed or hand-declared def is an error that names the function, and changes nothing),
 * and snug_xxx_is_valid says whether a handle refers to a live object of this context (scene). */
#include <string.h>

#include "harness.h"
#include "snug.h"
#include "test_meshes.h"

/* The call failed with INVALID_ARGUMENT and a message naming the default function. */
static void check_rejected(snug_ctx* ctx, snug_status st, const char* function) {
    CHECK(st == SNUG_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(snug_ctx_last_error(ctx), function) != NULL, "message \"%s\" does not name %s",
              snug_ctx_last_error(ctx), function);
}

static void test_defs_not_made_by_their_default_are_rejected(void) {
    snug_ctx_def cd;
    memset(&cd, 0, sizeof cd);
    CHECK(snug_ctx_create(&cd) == NULL);
    cd = snug_default_ctx_def();
    snug_ctx* ctx = snug_ctx_create(&cd);
    CHECK(ctx != NULL);
    if (!ctx) return;

    test_mesh box;
    test_mesh_box(0.5f, 0.5f, 0.5f, &box);
    snug_mesh_def md;
    memset(&md, 0, sizeof md);
    md.positions = box.positions;
    md.vertex_count = box.vertex_count;
    md.indices = box.indices;
    md.triangle_count = box.triangle_count;
    md.bvh = snug_default_bvh_def();
    snug_mesh mesh = 0;
    check_rejected(ctx, snug_mesh_create(ctx, &md, &mesh), "snug_default_mesh_def");
    CHECK(mesh == 0);
    md = test_mesh_def(&box, NULL);
    memset(&md.bvh, 0, sizeof md.bvh);
    md.bvh.bv_type = SNUG_BV_AABB;
    md.bvh.splitter = SNUG_SPLITTER_SAH;
    md.bvh.branching = 2;
    md.bvh.leaf_size = 4;
    md.bvh.max_depth = 32;
    md.bvh.sah_bins = 16;
    md.bvh.alpha = 0.8f;
    check_rejected(ctx, snug_mesh_create(ctx, &md, &mesh), "snug_default_bvh_def");
    md = test_mesh_def(&box, NULL);
    CHECK(snug_mesh_create(ctx, &md, &mesh) == SNUG_OK);

    snug_scene scene = 0;
    CHECK(snug_scene_create(ctx, &scene) == SNUG_OK);
    snug_body_def bd;
    memset(&bd, 0, sizeof bd);
    bd.mesh = mesh;
    bd.pose = snug_pose_identity();
    bd.enabled = true;
    bd.layer = bd.mask = 1;
    snug_body body = 0;
    check_rejected(ctx, snug_body_create(ctx, scene, &bd, &body), "snug_default_body_def");
    CHECK(body == 0);
    bd = snug_default_body_def();
    bd.mesh = mesh;
    CHECK(snug_body_create(ctx, scene, &bd, &body) == SNUG_OK);

    snug_pose id = snug_pose_identity();
    snug_motion still = snug_motion_static(&id);
    snug_toi_def td;
    memset(&td, 0, sizeof td);
    td.mode = SNUG_TOI_DYNAMIC;
    td.root_finder = SNUG_ROOT_SAMPLING_REGULA_FALSI;
    td.sampling_step = 0.0625f;
    td.max_iterations = 32;
    snug_toi_result tr;
    check_rejected(ctx, snug_mesh_toi(ctx, mesh, &still, mesh, &still, &td, &tr), "snug_default_toi_def");
    td = snug_default_toi_def();
    CHECK(snug_mesh_toi(ctx, mesh, &still, mesh, &still, &td, &tr) == SNUG_OK);
    CHECK(snug_mesh_toi(ctx, mesh, &still, mesh, &still, NULL, &tr) == SNUG_OK); /* NULL: the defaults */

    snug_step_def sd;
    memset(&sd, 0, sizeof sd);
    snug_contact res[1];
    uint32_t count = 0;
    CHECK(snug_step_begin(ctx, scene) == SNUG_OK);
    check_rejected(ctx, snug_step_detect(ctx, scene, &sd, res, 1, &count, NULL), "snug_default_step_def");
    sd = snug_default_step_def();
    CHECK(snug_step_detect(ctx, scene, &sd, res, 1, &count, NULL) == SNUG_OK);

    snug_place_def pd;
    memset(&pd, 0, sizeof pd);
    pd.up[1] = 1.0f;
    pd.max_slides = 4;
    check_rejected(ctx, snug_scene_set_place_def(ctx, scene, &pd), "snug_default_place_def");
    pd = snug_default_place_def();
    CHECK(snug_scene_set_place_def(ctx, scene, &pd) == SNUG_OK);
    snug_move_def mv;
    memset(&mv, 0, sizeof mv);
    mv.target = snug_pose_identity();
    snug_move_result moved;
    check_rejected(ctx, snug_body_move(ctx, scene, body, &mv, &moved), "snug_default_move_def");
    mv = snug_default_move_def();
    CHECK(snug_body_move(ctx, scene, body, &mv, &moved) == SNUG_OK);

    test_mesh_free(&box);
    snug_ctx_destroy(ctx);
}

static void test_is_valid_follows_the_lifetimes(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh mesh = test_box_make(ctx, 0.5f, 0.5f, 0.5f), other = test_box_make(ctx, 1.0f, 1.0f, 1.0f);
    CHECK(snug_mesh_is_valid(ctx, mesh) && snug_mesh_is_valid(ctx, other));
    CHECK(!snug_mesh_is_valid(ctx, 0) && !snug_mesh_is_valid(NULL, mesh));
    snug_scene scene = 0, second = 0;
    CHECK(snug_scene_create(ctx, &scene) == SNUG_OK && snug_scene_create(ctx, &second) == SNUG_OK);
    CHECK(snug_scene_is_valid(ctx, scene) && !snug_scene_is_valid(ctx, 0));
    CHECK(!snug_mesh_is_valid(ctx, scene) && !snug_scene_is_valid(ctx, mesh)); /* a handle of another kind */
    snug_body_def bd = snug_default_body_def();
    bd.mesh = mesh;
    snug_body a = 0, b = 0, c = 0;
    CHECK(snug_body_create(ctx, scene, &bd, &a) == SNUG_OK && snug_body_create(ctx, scene, &bd, &b) == SNUG_OK);
    CHECK(snug_body_create(ctx, second, &bd, &c) == SNUG_OK);
    CHECK(snug_body_is_valid(ctx, scene, a) && snug_body_is_valid(ctx, scene, b) && snug_body_is_valid(ctx, second, c));
    CHECK(!snug_body_is_valid(ctx, scene, 0) && !snug_body_is_valid(ctx, 0, a));
    CHECK(!snug_body_is_valid(ctx, scene, mesh));
    CHECK(snug_body_destroy(ctx, scene, a) == SNUG_OK);
    CHECK(!snug_body_is_valid(ctx, scene, a) && snug_body_is_valid(ctx, scene, b));
    CHECK(snug_mesh_destroy(ctx, mesh) == SNUG_OK);
    CHECK(!snug_mesh_is_valid(ctx, mesh) && snug_mesh_is_valid(ctx, other));
    CHECK(snug_body_is_valid(ctx, scene, b)); /* a body outlives its mesh (its steps and queries fail) */
    CHECK(snug_scene_destroy(ctx, scene) == SNUG_OK);
    CHECK(!snug_scene_is_valid(ctx, scene) && !snug_body_is_valid(ctx, scene, b));
    CHECK(snug_scene_is_valid(ctx, second) && snug_body_is_valid(ctx, second, c));
    /* asking records nothing: the last error is that of the last call */
    CHECK(snug_mesh_destroy(ctx, mesh) == SNUG_ERR_STALE_HANDLE);
    CHECK(!snug_mesh_is_valid(ctx, mesh) && snug_ctx_last_status(ctx) == SNUG_ERR_STALE_HANDLE);
    snug_ctx_destroy(ctx);
}

int main(void) {
    RUN(test_defs_not_made_by_their_default_are_rejected);
    RUN(test_is_valid_follows_the_lifetimes);
    return harness_finish();
}
