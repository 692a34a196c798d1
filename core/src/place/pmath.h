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
static inline dvec3 dv_norm(dvec3 a) {
    double l = dv_len(a);
    return l > 0.0 ? dv_scale(a, 1.0 / l) : (dvec3){0, 0, 0};
}
static inline bool dv_finite(dvec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
/* The part of a perpendicular to the unit vector n. */
static inline dvec3 dv_reject(dvec3 a, dvec3 n) { return dv_madd(a, n, -dv_dot(a, n)); }
/* A unit vector perpendicular to the unit vector n (deterministic: from the axis n is least aligned with). */
static inline dvec3 dv_perp(dvec3 n) {
    dvec3 a = fabs(n.x) < fabs(n.y) ? (fabs(n.x) < fabs(n.z) ? dv(1, 0, 0) : dv(0, 0, 1))
                                     : (fabs(n.y) < fabs(n.z) ? dv(0, 1, 0) : dv(0, 0, 1));
    return dv_norm(dv_reject(a, n));
}

static inline dquat dq_identity(void) { return (dquat){0, 0, 0, 1}; }
static inline dquat dq_f(const float q[4]) {
    dquat r = {q[0], q[1], q[2], q[3]};
    double n = sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    return n > 0.0 ? (dquat){r.x / n, r.y / n, r.z / n, r.w / n} : dq_identity();
}
static inline void dq_store(dquat q, float out[4]) {
    out[0] = (float)q.x;
    out[1] = (float)q.y;
    out[2] = (float)q.z;
    out[3] = (float)q.w;
}
/* a * b: apply b, then a. */
static inline dquat dq_mul(dquat a, dquat b) {
    return (dquat){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
static inline dquat dq_conj(dquat q) { return (dquat){-q.x, -q.y, -q.z, q.w}; }
static inline dquat dq_axis_angle(dvec3 unit_axis, double angle) {
    double s = sin(0.5 * angle);
    return (dquat){unit_axis.x * s, unit_axis.y * s, unit_axis.z * s, cos(0.5 * angle)};
}
static inline dvec3 dq_rotate(dquat q, dvec3 v) {
    dvec3 u = {q.x, q.y, q.z};
    dvec3 t = dv_scale(dv_cross(u, v), 2.0);
    return dv_add(dv_add(v, dv_scale(t, q.w)), dv_cross(u, t));
}
/* Signed angle of q's twist about the unit axis (swing-twist decomposition), in (-pi, pi]. */
static inline double dq_twist_angle(dquat q, dvec3 unit_axis) {
    double p = q.x * unit_axis.x + q.y * unit_axis.y + q.z * unit_axis.z;
    double a = 2.0 * atan2(p, q.w);
    if (a > SNUG_PI) a -= 2.0 * SNUG_PI;
    if (a <= -SNUG_PI) a += 2.0 * SNUG_PI;
    return a;
}

/* A rigid pose in double. */
typedef struct dpose {
    dquat q;
    dvec3 p;
} dpose;

static inline dpose dpose_f(const snug_pose* pose) { return (dpose){dq_f(pose->q), dv_f(pose->p)}; }
static inline snug_pose dpose_store(dpose a) {
    snug_pose r;
    dq_store(a.q, r.q);
    dv_store(a.p, r.p);
    return r;
}
static inline dvec3 dpose_point(dpose a, dvec3 v) { return dv_add(dq_rotate(a.q, v), a.p); }
static inline dvec3 dpose_dir(dpose a, dvec3 v) { return dq_rotate(a.q, v); }
/* Turn the pose by q about the world point pivot. */
static inline dpose dpose_turn(dpose a, dquat q, dvec3 pivot) {
    return (dpose){dq_mul(q, a.q), dv_add(pivot, dq_rotate(q, dv_sub(a.p, pivot)))};
}

#endif
