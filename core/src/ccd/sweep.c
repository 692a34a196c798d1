/* Placement sweeps: cast a mesh along a translation or a rotation about an axis until it would penetrate another.
 *
 * A sweep runs the dynamic time-of-impact search with sweep semantics: a feature contact only blocks when, just
 * after it, part of one of the two triangles has gone behind the other's face (against its normal) over that
 * face's interior (snug_tri_tri_crossing, geom/tri_crossing.c). A box resting on a table and dragged along it keeps touching (coplanar
 * faces, side faces standing on the table, table vertices passing under their edges) without any part going
 * behind a face, so it slides; lifted it leaves; pushed down, its bottom goes behind the table top at once and the
 * sweep stops at t = 0. The same rule sees aligned cases that no edge-face crossing shows (equal boxes pushed face
 * to face, a cube corner driven onto a grid vertex).
 * Requires consistently oriented triangles (counter-clockwise seen from outside, the usual convention); a mesh
 * with inward faces reads leaving as entering. Pairs that already interpenetrate deeper than the probe window
 * (64 tolerances) at the start do not block.
 *
 * The reported normal is the blocking surface's: a vertex on the rim of a face parallel to the motion touches that
 * grazing face at the same time as (or a few tolerances before) the face that stops it, and a caller sliding along
 * the grazing normal would not move at all. Of the blocking contacts within the tie window of the earliest one, the
 * search in toi.c keeps the vertex-face contact whose normal opposes the relative motion most (issue 5). */
#include <math.h>
#include <string.h>

#include "ccd/ccd.h"
#include "geom/tri.h"
#include "base/trig.h"

static snug_status sweep_run(snug_ctx* ctx, snug_mesh moving, const snug_motion* motion, snug_mesh other,
                             const snug_pose* other_pose, const double* pivot, snug_toi_result* result,
                             snug_sweep_start* start, bool* grazed) {
    snug_motion still = snug_motion_static(other_pose);
    snug_toi_input in;
    snug_status st = snug_toi_prepare(ctx, moving, motion, other, &still, NULL, &in);
    if (st) return st;
    in.slide = true;
    in.start = start;
    in.grazed = grazed;
    if (pivot) {
        in.rotation_pivot = true;
        memcpy(in.pivot_a, pivot, sizeof in.pivot_a);
    }
    return snug_toi_run(ctx, &in, result);
}

snug_status snug_mesh_sweep(snug_ctx* ctx, snug_mesh moving, const snug_pose* pose, const float translation[3],
                             snug_mesh other, const snug_pose* other_pose, snug_toi_result* result) {
    return snug_sweep_translation(ctx, moving, pose, translation, other, other_pose, result, NULL, NULL);
}

snug_status snug_sweep_translation(snug_ctx* ctx, snug_mesh moving, const snug_pose* pose, const float translation[3],
                                   snug_mesh other, const snug_pose* other_pose, snug_toi_result* result,
                                   snug_sweep_start* start, bool* grazed) {
    if (start) start->known = start->overlap = false;
    if (grazed) *grazed = true;
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!pose || !translation || !other_pose || !result)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "sweep: pose, translation, other_pose and result are required");
    memset(&ctx->stats, 0, sizeof ctx->stats);
    snug_status st = snug_pose_check(ctx, pose, "sweep pose");
    if (st == SNUG_OK) st = snug_point_check(ctx, translation, "sweep translation");
    if (st != SNUG_OK) return st;
    snug_pose end = snug_pose_normalized(pose);
    for (int i = 0; i < 3; i++) end.p[i] += translation[i];
    snug_pose from = snug_pose_normalized(pose);
    snug_motion m = snug_motion_between(&from, &end);
    return sweep_run(ctx, moving, &m, other, other_pose, NULL, result, start, grazed);
}

snug_status snug_mesh_sweep_rotation(snug_ctx* ctx, snug_mesh moving, const snug_pose* pose, const float pivot[3],
                                      const float axis[3], float angle, snug_mesh other, const snug_pose* other_pose,
                                      snug_toi_result* result) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!pose || !pivot || !axis || !other_pose || !result)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                         "rotation sweep: pose, pivot, axis, other_pose and result are required");
    memset(&ctx->stats, 0, sizeof ctx->stats);
    snug_status st = snug_pose_check(ctx, pose, "rotation sweep pose");
    if (st == SNUG_OK) st = snug_point_check(ctx, pivot, "rotation sweep pivot");
    if (st != SNUG_OK) return st;
    double len = 0.0;
    for (int i = 0; i < 3; i++) {
        if (!isfinite(axis[i])) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "rotation sweep axis is not finite");
        len += (double)axis[i] * axis[i];
    }
    if (!isfinite(angle)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "rotation sweep angle is not finite");
    if (!(len > 1e-24)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "rotation sweep axis is zero");
    if (!(fabsf(angle) < 3.14159f))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "rotation sweep angle %g must be below pi in magnitude", angle);
    /* end pose: turn the body about the world axis through the pivot */
    len = sqrt(len);
    double sh, ch;
    snug_sin_cos(0.5 * angle, &sh, &ch);
    double s = sh / len;
    versor qa = {(float)(axis[0] * s), (float)(axis[1] * s), (float)(axis[2] * s), (float)ch};
    /* snug_pose.q is only 4-byte aligned and cglm's quaternion code loads 16 aligned bytes: go through versors */
    snug_pose start = snug_pose_normalized(pose), end;
    versor q0, q1;
    memcpy(q0, start.q, sizeof q0);
    glm_quat_mul(qa, q0, q1);
    memcpy(end.q, q1, sizeof q1);
    vec3 rel = {start.p[0] - pivot[0], start.p[1] - pivot[1], start.p[2] - pivot[2]}, rot;
    glm_quat_rotatev(qa, rel, rot);
    for (int i = 0; i < 3; i++) end.p[i] = pivot[i] + rot[i];
    /* the pivot in the body frame: R0^T (pivot - p0) */
    mat3 R0;
    glm_quat_mat3(q0, R0);
    double c[3];
    for (int col = 0; col < 3; col++)
        c[col] = (double)R0[col][0] * (pivot[0] - start.p[0]) + (double)R0[col][1] * (pivot[1] - start.p[1]) +
                 (double)R0[col][2] * (pivot[2] - start.p[2]);
    snug_motion m = snug_motion_between(&start, &end);
    return sweep_run(ctx, moving, &m, other, other_pose, c, result, NULL, NULL);
}
