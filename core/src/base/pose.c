/* Rigid transforms: poses (versor + translation) and the matrix form used by the queries. */
#include "base/pose.h"

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

snug_pose snug_pose_normalized(const snug_pose* pose) {
    snug_pose out = *pose;
    float n2 = out.q[0] * out.q[0] + out.q[1] * out.q[1] + out.q[2] * out.q[2] + out.q[3] * out.q[3];
    /* already unit to float precision (what callers nearly always pass): keep it bit for bit, and skip the
     * square root and division that a scene update of 10k bodies would pay per body */
    if (fabsf(n2 - 1.0f) <= 1e-6f) return out;
    if (n2 <= 1e-30f) {
        out.q[0] = out.q[1] = out.q[2] = 0.0f;
        out.q[3] = 1.0f;
    } else {
        glm_vec4_scale(out.q, 1.0f / sqrtf(n2), out.q);
    }
    return out;
}

void snug_xform_identity(snug_xform* out) {
    glm_mat3_identity(out->R);
    glm_vec3_zero(out->t);
}

/* Rotation matrix of q / |q| without normalising: with s = 2 / (q . q) the usual formula gives the rotation of
 * the unit quaternion directly (no square root; queries build these per call, so it shows in a query that ends
 * after one BV test). Zero quaternion -> identity. */
static void quat_to_mat3_scaled(const float q[4], float s, mat3 R) {
    float x = q[0], y = q[1], z = q[2], w = q[3];
    float xx = s * x * x, yy = s * y * y, zz = s * z * z;
    float xy = s * x * y, xz = s * x * z, yz = s * y * z;
    float wx = s * w * x, wy = s * w * y, wz = s * w * z;
    R[0][0] = 1.0f - yy - zz; R[0][1] = xy + wz;        R[0][2] = xz - wy;
    R[1][0] = xy - wz;        R[1][1] = 1.0f - xx - zz; R[1][2] = yz + wx;
    R[2][0] = xz + wy;        R[2][1] = yz - wx;        R[2][2] = 1.0f - xx - yy;
}

static const float quat_identity[4] = {0.0f, 0.0f, 0.0f, 1.0f};

/* q itself with *n2 = q . q when that is comfortably inside float range (the common case; the range leaves room
 * for the product of two quaternions), else q rescaled into tmp (huge or tiny but non-zero quaternions still give
 * their rotation); the identity for a zero quaternion. */
static const float* quat_usable(const float q[4], float tmp[4], float* n2) {
    float m = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (m > 1e-12f && m < 1e12f) {
        *n2 = m;
        return q;
    }
    float big = fmaxf(fmaxf(fabsf(q[0]), fabsf(q[1])), fmaxf(fabsf(q[2]), fabsf(q[3])));
    *n2 = 1.0f;
    if (big == 0.0f) return quat_identity;
    for (int i = 0; i < 4; i++) tmp[i] = q[i] / big;
    *n2 = tmp[0] * tmp[0] + tmp[1] * tmp[1] + tmp[2] * tmp[2] + tmp[3] * tmp[3];
    return tmp;
}

void snug_xform_from_pose(const snug_pose* pose, snug_xform* out) {
    float tmp[4], n2;
    const float* q = quat_usable(pose->q, tmp, &n2);
    quat_to_mat3_scaled(q, 2.0f / n2, out->R);
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
    float ta[4], tb[4], na, nb;
    const float* a = quat_usable(pose_a->q, ta, &na);
    const float* b = quat_usable(pose_b->q, tb, &nb);
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
