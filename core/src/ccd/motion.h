/* Motion model for continuous collision: a mesh moves from one pose to another with linear translation and
 * slerp rotation along the shortest arc; a snug_motion chains such segments through optional keyframes.
 * Evaluation runs in double (root finding needs it); a float snug_xform is offered for bounding volumes. */
#ifndef SNUG_MOTION_H
#define SNUG_MOTION_H

#include <stdbool.h>
#include "base/ctx.h"
#include "base/pose.h"

/* Rigid transform in double: R column-major (R[3*col + row]), like cglm's mat3. */
typedef struct snug_dxform {
    double R[9];
    double t[3];
} snug_dxform;

static inline void snug_dxform_point(const snug_dxform* x, const float p[3], double out[3]) {
    double a = p[0], b = p[1], c = p[2];
    for (int r = 0; r < 3; r++) out[r] = x->R[r] * a + x->R[3 + r] * b + x->R[6 + r] * c + x->t[r];
}

/* One segment: pose a at u = 0 to pose b at u = 1. The body turns about a body-fixed pivot c (local frame; the
 * origin for ordinary motions, the sweep's pivot for rotation sweeps) while the pivot moves on a straight line:
 * x(u) = R(u) (x - c) + p(u). */
typedef struct snug_lerp_slerp {
    double q0[4], q1[4];   /* unit quaternions (x, y, z, w) with q0 . q1 >= 0 (shortest arc) */
    double c[3];           /* pivot in the body frame */
    double p0[3], p1[3];   /* world position of the pivot at u = 0 and u = 1 */
    double half_angle;     /* acos(q0 . q1): the rotation turns by 2 * half_angle in [0, pi] */
    double inv_sin_half, cot_half; /* 1 / sin and cos / sin of it, for the slerp weights (0 below 1e-6: a lerp) */
    bool translation_only; /* equal rotations: every point moves on a straight line at constant speed */
    double R0[9];          /* rotation at u = 0 (the constant one of a translation) */
    double spread[3];      /* per world axis i, sqrt(1 - a_i^2) for the world rotation axis a (rounded up): how far
                            * an arc about a, which lies in a plane across a, reaches along axis i per unit length */
} snug_lerp_slerp;

void snug_lerp_slerp_init(snug_lerp_slerp* m, const snug_pose* a, const snug_pose* b);
/* The same motion between the same poses but turning about the body-frame pivot c (for rotation sweeps). */
void snug_lerp_slerp_init_pivot(snug_lerp_slerp* m, const snug_pose* a, const snug_pose* b, const double c[3]);
void snug_lerp_slerp_at(const snug_lerp_slerp* m, double u, snug_dxform* out);
void snug_lerp_slerp_xform(const snug_lerp_slerp* m, double u, snug_xform* out);
/* Rotation angle of the whole segment, in [0, pi]. */
static inline double snug_lerp_slerp_angle(const snug_lerp_slerp* m) { return 2.0 * m->half_angle; }
/* Largest distance between a point's path over a sub-interval of length du and the chord between its end
 * positions, per unit distance from the pivot: 1 - cos(angle * du / 2) (the sagitta of the arc; the
 * parametrisations of arc and chord differ, the bound still holds at equal u). */
double snug_lerp_slerp_bulge(const snug_lerp_slerp* m, double du);
/* The bulge of a point at distance r from the pivot, per world axis: r * bulge * spread[i]. A turn about up (a
 * piece of furniture, an ornament) gets no bulge along up, so a body resting just above another is not swept into
 * it by its own turn. */

/* Validate a public motion: finite poses, keys strictly increasing inside (0, 1). `name` goes into the message. */
snug_status snug_motion_check(snug_ctx* ctx, const snug_motion* m, const char* name);
/* Number of key times including 0 and 1, and key i's time and pose. */
static inline uint32_t snug_motion_key_total(const snug_motion* m) { return m->key_count + 2u; }
double snug_motion_key_time(const snug_motion* m, uint32_t i);
const snug_pose* snug_motion_key_pose(const snug_motion* m, uint32_t i);
/* The segment of the motion that covers global time t (ties go to the later segment) as a lerp_slerp, with its
 * time range. */
void snug_motion_segment_at(const snug_motion* m, double t, snug_lerp_slerp* seg, double* t0, double* t1);
/* snug_motion_pose_at (public, snug.h) at a global time in double: the searches' times are doubles. */
snug_pose snug_motion_pose_at_d(const snug_motion* m, double t);
/* Does the motion translate only (every segment)? */
bool snug_motion_is_translation(const snug_motion* m);

#endif
