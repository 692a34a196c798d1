/* Placement sweeps: cast a mesh along a translation or a rotation about an axis until it would penetrate another.
 *
 * A sweep runs the dynamic time-of-impact search with sweep semantics: a feature contact only blocks when, just
 * after it, part of one of the two triangles has gone behind the other's face (against its normal) over that
 * face's interior (snug_tri_tri_crossing). A box resting on a table and dragged along it keeps touching (coplanar
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

#include "ccd.h"

/* Keep the part of the convex polygon p (n points) where f(x) = w . x + c >= 0 (Sutherland-Hodgman step). */
static int clip(double p[][3], int n, const double w[3], double c, double out[][3]) {
    int m = 0;
    for (int i = 0; i < n; i++) {
        const double* x = p[i];
        const double* y = p[(i + 1) % n];
        double fx = w[0] * x[0] + w[1] * x[1] + w[2] * x[2] + c, fy = w[0] * y[0] + w[1] * y[1] + w[2] * y[2] + c;
        if (fx >= 0.0) memcpy(out[m++], x, sizeof out[0]);
        if ((fx >= 0.0) != (fy >= 0.0)) {
            double s = fx / (fx - fy);
            for (int k = 0; k < 3; k++) out[m][k] = x[k] + s * (y[k] - x[k]);
            m++;
        }
    }
    return m;
}

/* Has some part of triangle a gone behind face b (against b's normal) by more than eps but at most `depth`, over
 * b's interior shrunk by eps? The window keeps the far side of b's own mesh (a thin plate's other face) out. */
static bool reaches_behind(const double a[3][3], const double b[3][3], double eps, double depth) {
    double e0[3], e1[3], n[3];
    for (int i = 0; i < 3; i++) e0[i] = b[1][i] - b[0][i], e1[i] = b[2][i] - b[0][i];
    n[0] = e0[1] * e1[2] - e0[2] * e1[1];
    n[1] = e0[2] * e1[0] - e0[0] * e1[2];
    n[2] = e0[0] * e1[1] - e0[1] * e1[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0.0)) return false;
    for (int i = 0; i < 3; i++) n[i] /= len;
    double nb = n[0] * b[0][0] + n[1] * b[0][1] + n[2] * b[0][2];
    double buf[2][9][3];
    int cnt = 3;
    memcpy(buf[0], a, sizeof(double) * 9);
    int cur = 0;
    /* behind by more than eps: -(n.x - nb) - eps >= 0; by at most depth: (n.x - nb) + depth >= 0 */
    double neg[3] = {-n[0], -n[1], -n[2]};
    cnt = clip(buf[cur], cnt, neg, nb - eps, buf[1 - cur]), cur = 1 - cur;
    if (!cnt) return false;
    cnt = clip(buf[cur], cnt, n, depth - nb, buf[1 - cur]), cur = 1 - cur;
    for (int k = 0; k < 3 && cnt; k++) {
        const double* p = b[k];
        const double* q = b[(k + 1) % 3];
        double e[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]}, m[3];
        m[0] = e[1] * n[2] - e[2] * n[1]; /* outward in-plane normal of edge k */
        m[1] = e[2] * n[0] - e[0] * n[2];
        m[2] = e[0] * n[1] - e[1] * n[0];
        double ml = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
        if (!(ml > 0.0)) return false;
        double w[3] = {-m[0] / ml, -m[1] / ml, -m[2] / ml}; /* inside by eps: -(m.(x - p)) - eps >= 0 */
        cnt = clip(buf[cur], cnt, w, -(w[0] * p[0] + w[1] * p[1] + w[2] * p[2]) - eps, buf[1 - cur]), cur = 1 - cur;
    }
    return cnt > 0;
}

bool snug_tri_tri_crossing(const double a[3][3], const double b[3][3], double eps) {
    double depth = 64.0 * eps;
    return reaches_behind(a, b, eps, depth) || reaches_behind(b, a, eps, depth);
}

static snug_status sweep_run(snug_ctx* ctx, snug_mesh moving, const snug_motion* motion, snug_mesh other,
                             const snug_pose* other_pose, const double* pivot, snug_toi_result* result) {
    snug_motion still = snug_motion_static(other_pose);
    snug_toi_input in;
    snug_status st = snug_toi_prepare(ctx, moving, motion, other, &still, NULL, &in);
    if (st) return st;
    in.slide = true;
    if (pivot) {
        in.rotation_pivot = true;
        memcpy(in.pivot_a, pivot, sizeof in.pivot_a);
    }
    return snug_toi_run(ctx, &in, result);
}

snug_status snug_query_sweep(snug_ctx* ctx, snug_mesh moving, const snug_pose* pose, const float translation[3],
                             snug_mesh other, const snug_pose* other_pose, snug_toi_result* result) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!pose || !translation || !other_pose || !result)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "sweep: pose, translation, other_pose and result are required");
    memset(&ctx->stats, 0, sizeof ctx->stats);
    for (int i = 0; i < 3; i++)
        if (!isfinite(translation[i])) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "sweep translation is not finite");
    snug_pose end = *pose;
    for (int i = 0; i < 3; i++) end.p[i] += translation[i];
    snug_motion m = snug_motion_between(pose, &end);
    return sweep_run(ctx, moving, &m, other, other_pose, NULL, result);
}

snug_status snug_query_sweep_rotation(snug_ctx* ctx, snug_mesh moving, const snug_pose* pose, const float pivot[3],
                                      const float axis[3], float angle, snug_mesh other, const snug_pose* other_pose,
                                      snug_toi_result* result) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!pose || !pivot || !axis || !other_pose || !result)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                         "rotation sweep: pose, pivot, axis, other_pose and result are required");
    memset(&ctx->stats, 0, sizeof ctx->stats);
    double len = 0.0;
    for (int i = 0; i < 3; i++) {
        if (!isfinite(pivot[i]) || !isfinite(axis[i]))
            return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "rotation sweep pivot or axis is not finite");
        len += (double)axis[i] * axis[i];
    }
    if (!isfinite(angle)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "rotation sweep angle is not finite");
    if (!(len > 1e-24)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "rotation sweep axis is zero");
    if (!(fabsf(angle) < 3.14159f))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "rotation sweep angle %g must be below pi in magnitude", angle);
    if (!snug_pose_is_finite(pose)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "rotation sweep pose is not finite");
    /* end pose: turn the body about the world axis through the pivot */
    len = sqrt(len);
    double h = 0.5 * angle, s = sin(h) / len;
    versor qa = {(float)(axis[0] * s), (float)(axis[1] * s), (float)(axis[2] * s), (float)cos(h)};
    snug_pose start = snug_pose_normalized(pose), end;
    glm_quat_mul(qa, start.q, end.q);
    vec3 rel = {start.p[0] - pivot[0], start.p[1] - pivot[1], start.p[2] - pivot[2]}, rot;
    glm_quat_rotatev(qa, rel, rot);
    for (int i = 0; i < 3; i++) end.p[i] = pivot[i] + rot[i];
    /* the pivot in the body frame: R0^T (pivot - p0) */
    mat3 R0;
    glm_quat_mat3(start.q, R0);
    double c[3];
    for (int col = 0; col < 3; col++)
        c[col] = (double)R0[col][0] * (pivot[0] - start.p[0]) + (double)R0[col][1] * (pivot[1] - start.p[1]) +
                 (double)R0[col][2] * (pivot[2] - start.p[2]);
    snug_motion m = snug_motion_between(&start, &end);
    return sweep_run(ctx, moving, &m, other, other_pose, c, result);
}
