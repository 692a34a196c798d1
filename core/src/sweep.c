/* Placement sweeps: cast a mesh along a translation or a rotation about an axis until it would penetrate another.
 *
 * A sweep runs the dynamic time-of-impact search with sweep semantics: a feature contact only blocks when its two
 * triangles properly cross shortly after it (snug_tri_tri_crossing). A box resting on a table and dragged along it
 * keeps touching (coplanar faces, side faces whose bottom edges lie on the table, table vertices passing under
 * those edges) without any pair crossing, so it slides; pushed down, its side faces cut through the table top at
 * once and the sweep stops at t = 0.
 * Known limit: when every triangle pair of a real penetration meets only along shared boundaries (a cube corner
 * driven exactly onto a vertex of a table tessellated along the cube's own face planes), no single pair crosses
 * and the sweep passes; the dynamic TOI (snug_query_toi) still reports that contact. */
#include <math.h>
#include <string.h>

#include "ccd.h"

/* Does triangle a reach through triangle b: more than eps to both sides of b's plane, with its cut through that
 * plane passing at least eps inside b's edges? */
static bool reaches_through(const double a[3][3], const double b[3][3], double eps) {
    double e0[3], e1[3], n[3];
    for (int i = 0; i < 3; i++) e0[i] = b[1][i] - b[0][i], e1[i] = b[2][i] - b[0][i];
    n[0] = e0[1] * e1[2] - e0[2] * e1[1];
    n[1] = e0[2] * e1[0] - e0[0] * e1[2];
    n[2] = e0[0] * e1[1] - e0[1] * e1[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0.0)) return false;
    for (int i = 0; i < 3; i++) n[i] /= len;
    double d[3], lo = INFINITY, hi = -INFINITY;
    for (int c = 0; c < 3; c++) {
        d[c] = n[0] * (a[c][0] - b[0][0]) + n[1] * (a[c][1] - b[0][1]) + n[2] * (a[c][2] - b[0][2]);
        lo = fmin(lo, d[c]), hi = fmax(hi, d[c]);
    }
    if (!(hi > eps && lo < -eps)) return false;
    /* the cut: where a's edges change sign */
    double pts[3][3];
    int np = 0;
    for (int c = 0; c < 3 && np < 2; c++) {
        int k = (c + 1) % 3;
        if ((d[c] < 0.0) == (d[k] < 0.0)) continue;
        double s = d[c] / (d[c] - d[k]);
        for (int i = 0; i < 3; i++) pts[np][i] = a[c][i] + s * (a[k][i] - a[c][i]);
        np++;
    }
    if (np < 2) return false;
    double lmin = 0.0, lmax = 1.0, dir[3];
    for (int i = 0; i < 3; i++) dir[i] = pts[1][i] - pts[0][i];
    for (int k = 0; k < 3; k++) {
        const double* p = b[k];
        const double* q = b[(k + 1) % 3];
        double e[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]}, m[3];
        m[0] = e[1] * n[2] - e[2] * n[1];
        m[1] = e[2] * n[0] - e[0] * n[2];
        m[2] = e[0] * n[1] - e[1] * n[0];
        double ml = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
        if (!(ml > 0.0)) return false;
        /* m / ml . (x(l) - p) <= -eps with x(l) = pts[0] + l dir */
        double f0 = (m[0] * (pts[0][0] - p[0]) + m[1] * (pts[0][1] - p[1]) + m[2] * (pts[0][2] - p[2])) / ml + eps;
        double fd = (m[0] * dir[0] + m[1] * dir[1] + m[2] * dir[2]) / ml;
        if (fd == 0.0) {
            if (f0 > 0.0) return false;
        } else if (fd > 0.0) {
            lmax = fmin(lmax, -f0 / fd);
        } else {
            lmin = fmax(lmin, -f0 / fd);
        }
        if (lmin > lmax) return false;
    }
    return true;
}

bool snug_tri_tri_crossing(const double a[3][3], const double b[3][3], double eps) {
    return reaches_through(a, b, eps) || reaches_through(b, a, eps);
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
