/* Rigid transforms for internal use. Math is cglm's (column-major mat3: m[col][row]).
 * A snug_xform maps points of one frame into another: y = R x + t. */
#ifndef SNUG_POSE_H
#define SNUG_POSE_H

#include <cglm/cglm.h>
#include <math.h>
#include <stdbool.h>
#include "snug.h"

typedef struct snug_xform {
    mat3 R;
    vec3 t;
} snug_xform;

struct snug_ctx;

bool snug_pose_is_finite(const snug_pose* pose);
/* The accepted-input rules (snug.h, SNUG_MAX_COORDINATE and SNUG_QUAT_TOLERANCE) for what callers pass in; each
 * records the failure on ctx, naming `what`. A point: every coordinate finite (else SNUG_ERR_NOT_FINITE) and within
 * +-SNUG_MAX_COORDINATE (else SNUG_ERR_INVALID_ARGUMENT). A pose: not NULL, finite, its translation a point, its
 * quaternion of length 1 within SNUG_QUAT_TOLERANCE (else SNUG_ERR_INVALID_ARGUMENT). */
static inline bool snug_coordinate_ok(float x) { return fabsf(x) <= SNUG_MAX_COORDINATE; } /* false for NaN too */
/* All three coordinates: the comparisons are ints in C, summed without a branch per coordinate (queries pay this on
 * every call). */
static inline bool snug_point_ok(const float p[3]) {
    return (fabsf(p[0]) <= SNUG_MAX_COORDINATE) + (fabsf(p[1]) <= SNUG_MAX_COORDINATE) + (fabsf(p[2]) <= SNUG_MAX_COORDINATE) == 3;
}
/* The pose rule without a message: what snug_pose_check accepts (pose not NULL). */
bool snug_pose_ok(const snug_pose* pose);
snug_status snug_point_check(struct snug_ctx* ctx, const float p[3], const char* what);
snug_status snug_pose_check(struct snug_ctx* ctx, const snug_pose* pose, const char* what);
/* Copy of an accepted pose with its quaternion normalized (unit ones, nearly all, stay bit for bit). */
snug_pose snug_pose_normalized(const snug_pose* pose);
void snug_xform_from_pose(const snug_pose* pose, snug_xform* out);
/* Transform mapping B's local frame into A's local frame: inverse(pose_a) * pose_b. */
void snug_xform_relative(const snug_pose* pose_a, const snug_pose* pose_b, snug_xform* out);
void snug_xform_identity(snug_xform* out);
void snug_xform_inverse(const snug_xform* x, snug_xform* out);
/* out = a * b (apply b first). */
void snug_xform_mul(const snug_xform* a, const snug_xform* b, snug_xform* out);
static inline void snug_xform_point(const snug_xform* x, const vec3 p, vec3 out) {
    vec3 r;
    glm_mat3_mulv((vec3*)x->R, (float*)p, r);
    glm_vec3_add(r, (float*)x->t, out);
}
static inline void snug_xform_dir(const snug_xform* x, const vec3 d, vec3 out) {
    glm_mat3_mulv((vec3*)x->R, (float*)d, out);
}

#endif
