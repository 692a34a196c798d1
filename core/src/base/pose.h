/* Rigid transforms for internal use. Math is cglm's (column-major mat3: m[col][row]).
 * A snug_xform maps points of one frame into another: y = R x + t. */
#ifndef SNUG_POSE_H
#define SNUG_POSE_H

#include <cglm/cglm.h>
#include <stdbool.h>
#include "snug.h"

typedef struct snug_xform {
    mat3 R;
    vec3 t;
} snug_xform;

bool snug_pose_is_finite(const snug_pose* pose);
/* Copy of pose with the quaternion normalized (zero quaternion -> identity rotation). */
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
