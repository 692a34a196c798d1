/* Rigid transforms: poses (versor + translation) and the matrix form used by the queries. */
#include "pose.h"

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
    float n2 = glm_vec4_norm2(out.q);
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

void snug_xform_from_pose(const snug_pose* pose, snug_xform* out) {
    snug_pose n = snug_pose_normalized(pose);
    glm_quat_mat3(n.q, out->R);
    glm_vec3_copy(n.p, out->t);
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

void snug_xform_relative(const snug_pose* pose_a, const snug_pose* pose_b, snug_xform* out) {
    snug_xform a, b, a_inv;
    snug_xform_from_pose(pose_a, &a);
    snug_xform_from_pose(pose_b, &b);
    snug_xform_inverse(&a, &a_inv);
    snug_xform_mul(&a_inv, &b, out);
}
