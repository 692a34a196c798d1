/* Rigid transforms: poses (versor + translation) and the matrix form used by the queries. */
#include "base/pose.h"
#include "base/ctx.h"

#include <math.h>

snug_pose snug_pose_identity(void) {
    snug_pose p = {{0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f}};
    return p;
}

bool snug_pose_is_finite(const snug_pose* pose) {
    for (int i = 0; i < 4; i++)
        if (!isfinite(pose->q[i])) return false;
    for (int i = 0; i < 3; i++)
        if (!isfinite(pose->p[i])) return false;
    return true;
}

/* the failure of a point that is not accepted: which rule it breaks */
static snug_status point_failure(snug_ctx* ctx, const float p[3], const char* what) {
    for (int i = 0; i < 3; i++)
        if (!isfinite(p[i])) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "%s has a NaN or infinite coordinate", what);
    for (int i = 0; i < 3; i++)
        if (!snug_coordinate_ok(p[i]))
            return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "%s has coordinate %g beyond the accepted range +-%g", what,
                             (double)p[i], (double)SNUG_MAX_COORDINATE);
    return SNUG_OK;
}

/* One comparison per value on the way through (a range test fails for NaN and infinities too; queries pay this on
 * every call), the reasons only on the way out. */
snug_status snug_point_check(snug_ctx* ctx, const float p[3], const char* what) {
    if (!p) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "%s is NULL", what);
    if (snug_point_ok(p)) return SNUG_OK;
    return point_failure(ctx, p, what);
}

static bool quat_ok(const float q[4]) {
    float n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    const float lo = 1.0f - SNUG_QUAT_TOLERANCE, hi = 1.0f + SNUG_QUAT_TOLERANCE;
    return n2 >= lo * lo && n2 <= hi * hi; /* false for NaN and infinities too */
}

bool snug_pose_ok(const snug_pose* pose) {
    return quat_ok(pose->q) && snug_point_ok(pose->p);
}

snug_status snug_pose_check(snug_ctx* ctx, const snug_pose* pose, const char* what) {
    if (!pose) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "%s is NULL", what);
    if (snug_pose_ok(pose)) return SNUG_OK;
    if (!snug_pose_is_finite(pose)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "%s has a NaN or infinite entry", what);
    if (!quat_ok(pose->q)) {
        const float* q = pose->q;
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                         "%s has a quaternion of length %g: a rotation needs length 1 (within %g)", what,
                         sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]),
                         (double)SNUG_QUAT_TOLERANCE);
    }
    return point_failure(ctx, pose->p, what);
}

snug_pose snug_pose_normalized(const snug_pose* pose) {
    snug_pose out = *pose;
    float n2 = out.q[0] * out.q[0] + out.q[1] * out.q[1] + out.q[2] * out.q[2] + out.q[3] * out.q[3];
    /* already unit to float precision (what callers nearly always pass): keep it bit for bit, and skip the
     * square root and division that a scene update of 10k bodies would pay per body */
    if (fabsf(n2 - 1.0f) <= 1e-6f) return out;
    /* scalar on purpose: snug_pose.q is only 4-byte aligned, and cglm's vec4 code loads 16 aligned bytes */
    float inv = 1.0f / sqrtf(n2);
    for (int i = 0; i < 4; i++) out.q[i] *= inv;
    return out;
}

void snug_xform_identity(snug_xform* out) {
    glm_mat3_identity(out->R);
    glm_vec3_zero(out->t);
}

/* Rotation matrix of q / |q| without normalising: with s = 2 / (q . q) the usual formula gives the rotation of
 * the unit quaternion directly (no square root; queries build these per call, so it shows in a query that ends
 * after one BV test). Every quaternion that gets here is unit within SNUG_QUAT_TOLERANCE (snug_pose_check). */
static void quat_to_mat3_scaled(const float q[4], float s, mat3 R) {
    float x = q[0], y = q[1], z = q[2], w = q[3];
    float xx = s * x * x, yy = s * y * y, zz = s * z * z;
    float xy = s * x * y, xz = s * x * z, yz = s * y * z;
    float wx = s * w * x, wy = s * w * y, wz = s * w * z;
    R[0][0] = 1.0f - yy - zz; R[0][1] = xy + wz;        R[0][2] = xz - wy;
    R[1][0] = xy - wz;        R[1][1] = 1.0f - xx - zz; R[1][2] = yz + wx;
    R[2][0] = xz + wy;        R[2][1] = yz - wx;        R[2][2] = 1.0f - xx - yy;
}

static float quat_norm2(const float q[4]) { return q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]; }

void snug_xform_from_pose(const snug_pose* pose, snug_xform* out) {
    quat_to_mat3_scaled(pose->q, 2.0f / quat_norm2(pose->q), out->R);
    glm_vec3_copy((float*)pose->p, out->t);
}

void snug_xform_inverse(const snug_xform* x, snug_xform* out) {
    snug_xform r;
    glm_mat3_transpose_to((vec3*)x->R, r.R);
    glm_mat3_mulv(r.R, (float*)x->t, r.t);
    glm_vec3_negate(r.t);
    *out = r;
}

void snug_xform_mul(const snug_xform* a, const snug_xform* b, snug_xform* out) {
    snug_xform r;
    glm_mat3_mul((vec3*)a->R, (vec3*)b->R, r.R);
    snug_xform_point(a, b->t, r.t);
    *out = r;
}

/* inverse(A) * B straight from the poses: R from the quaternion conj(qa) qb, t = conj(qa) (pb - pa) qa by the
 * cross-product form of a rotation; one division serves both (|conj(qa) qb|^2 = |qa|^2 |qb|^2). */
void snug_xform_relative(const snug_pose* pose_a, const snug_pose* pose_b, snug_xform* out) {
    const float* a = pose_a->q;
    const float* b = pose_b->q;
    float na = quat_norm2(a), nb = quat_norm2(b);
    float q[4] = {a[3] * b[0] - a[0] * b[3] - a[1] * b[2] + a[2] * b[1],
                  a[3] * b[1] - a[1] * b[3] - a[2] * b[0] + a[0] * b[2],
                  a[3] * b[2] - a[2] * b[3] - a[0] * b[1] + a[1] * b[0],
                  a[3] * b[3] + a[0] * b[0] + a[1] * b[1] + a[2] * b[2]};
    float s = 2.0f / (na * nb);
    quat_to_mat3_scaled(q, s, out->R);
    /* v' = v + sa (w (u x v) + u x (u x v)) with u = -a.xyz, w = a.w, sa = 2 / |a|^2 = s |b|^2 */
    float sa = s * nb;
    vec3 v, u = {-a[0], -a[1], -a[2]}, uv, uuv;
    glm_vec3_sub((float*)pose_b->p, (float*)pose_a->p, v);
    glm_vec3_cross(u, v, uv);
    glm_vec3_cross(u, uv, uuv);
    for (int c = 0; c < 3; c++) out->t[c] = v[c] + sa * (a[3] * uv[c] + uuv[c]);
}
