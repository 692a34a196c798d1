/* Double-precision quaternions and poses for the placement layer, over base/vec_d.h's vectors: snapping compares
 * planes and polygons of bodies metres apart to a fraction of a millimetre, and composes rotations that must stay
 * exact (a snapped table stands exactly upright), so the decisions run in double and only results go back to float
 * poses. */
#ifndef SNUG_PMATH_H
#define SNUG_PMATH_H

#include <math.h>
#include <stdbool.h>

#include "snug.h"
#include "base/vec_d.h"

#define SNUG_PI 3.14159265358979323846

typedef struct dquat {
    double x, y, z, w;
} dquat;

/* The part of a perpendicular to the unit vector n. */
static inline dvec dreject(dvec a, dvec n) { return dmadd(a, n, -ddot(a, n)); }
/* A unit vector perpendicular to the unit vector n (deterministic: from the axis n is least aligned with). */
dvec dperp(dvec n);

static inline dquat dq_identity(void) { return (dquat){0, 0, 0, 1}; }
dquat dq_f(const float q[4]);
static inline void dq_store(dquat q, float out[4]) {
    out[0] = (float)q.x;
    out[1] = (float)q.y;
    out[2] = (float)q.z;
    out[3] = (float)q.w;
}
/* a * b: apply b, then a. */
dquat dq_mul(dquat a, dquat b);
static inline dquat dq_conj(dquat q) { return (dquat){-q.x, -q.y, -q.z, q.w}; }
dquat dq_axis_angle(dvec unit_axis, double angle);
dvec dq_rotate(dquat q, dvec v);
/* Signed angle of q's twist about the unit axis (swing-twist decomposition), in (-pi, pi]. */
double dq_twist_angle(dquat q, dvec unit_axis);

/* A rigid pose in double. */
typedef struct dpose {
    dquat q;
    dvec p;
} dpose;

dpose dpose_f(const snug_pose* pose);
snug_pose dpose_store(dpose a);
static inline dvec dpose_point(dpose a, dvec v) { return dadd(dq_rotate(a.q, v), a.p); }
static inline dvec dpose_dir(dpose a, dvec v) { return dq_rotate(a.q, v); }
/* Turn the pose by q about the world point pivot. */
dpose dpose_turn(dpose a, dquat q, dvec pivot);

#endif
