/* Double-precision vectors and quaternions for the placement layer: snapping compares planes and polygons of
 * bodies metres apart to a fraction of a millimetre, and composes rotations that must stay exact (a snapped table
 * stands exactly upright), so the decisions run in double and only results go back to float poses. */
#ifndef SNUG_PMATH_H
#define SNUG_PMATH_H

#include <math.h>
#include <stdbool.h>

#include "snug.h"

#define SNUG_PI 3.14159265358979323846

typedef struct dvec3 {
    double x, y, z;
} dvec3;

typedef struct dquat {
    double x, y, z, w;
} dquat;

static inline dvec3 dv(double x, double y, double z) { return (dvec3){x, y, z}; }
static inline dvec3 dv_f(const float v[3]) { return (dvec3){v[0], v[1], v[2]}; }
static inline void dv_store(dvec3 a, float out[3]) {
    out[0] = (float)a.x;
    out[1] = (float)a.y;
    out[2] = (float)a.z;
}
static inline dvec3 dv_add(dvec3 a, dvec3 b) { return (dvec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline dvec3 dv_sub(dvec3 a, dvec3 b) { return (dvec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline dvec3 dv_scale(dvec3 a, double s) { return (dvec3){a.x * s, a.y * s, a.z * s}; }
static inline dvec3 dv_madd(dvec3 a, dvec3 b, double s) { return (dvec3){a.x + b.x * s, a.y + b.y * s, a.z + b.z * s}; }
static inline double dv_dot(dvec3 a, dvec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline dvec3 dv_cross(dvec3 a, dvec3 b) {
    return (dvec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static inline double dv_len(dvec3 a) { return sqrt(dv_dot(a, a)); }
dvec3 dv_norm(dvec3 a);
static inline bool dv_finite(dvec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
/* The part of a perpendicular to the unit vector n. */
static inline dvec3 dv_reject(dvec3 a, dvec3 n) { return dv_madd(a, n, -dv_dot(a, n)); }
/* A unit vector perpendicular to the unit vector n (deterministic: from the axis n is least aligned with). */
dvec3 dv_perp(dvec3 n);

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
dquat dq_axis_angle(dvec3 unit_axis, double angle);
dvec3 dq_rotate(dquat q, dvec3 v);
/* Signed angle of q's twist about the unit axis (swing-twist decomposition), in (-pi, pi]. */
double dq_twist_angle(dquat q, dvec3 unit_axis);

/* A rigid pose in double. */
typedef struct dpose {
    dquat q;
    dvec3 p;
} dpose;

dpose dpose_f(const snug_pose* pose);
snug_pose dpose_store(dpose a);
static inline dvec3 dpose_point(dpose a, dvec3 v) { return dv_add(dq_rotate(a.q, v), a.p); }
static inline dvec3 dpose_dir(dpose a, dvec3 v) { return dq_rotate(a.q, v); }
/* Turn the pose by q about the world point pivot. */
dpose dpose_turn(dpose a, dquat q, dvec3 pivot);

#endif
