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
static inline dvec dperp(dvec n) {
    dvec a = fabs(n.x) < fabs(n.y) ? (fabs(n.x) < fabs(n.z) ? dxyz(1, 0, 0) : dxyz(0, 0, 1))
                                    : (fabs(n.y) < fabs(n.z) ? dxyz(0, 1, 0) : dxyz(0, 0, 1));
    return dnorm(dreject(a, n));
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
static inline dquat dq_axis_angle(dvec unit_axis, double angle) {
    double s = sin(0.5 * angle);
    return (dquat){unit_axis.x * s, unit_axis.y * s, unit_axis.z * s, cos(0.5 * angle)};
}
static inline dvec dq_rotate(dquat q, dvec v) {
    dvec u = {q.x, q.y, q.z};
    dvec t = dscale(dcross(u, v), 2.0);
    return dadd(dadd(v, dscale(t, q.w)), dcross(u, t));
}
/* Signed angle of q's twist about the unit axis (swing-twist decomposition), in (-pi, pi]. */
static inline double dq_twist_angle(dquat q, dvec unit_axis) {
    double p = q.x * unit_axis.x + q.y * unit_axis.y + q.z * unit_axis.z;
    double a = 2.0 * atan2(p, q.w);
    if (a > SNUG_PI) a -= 2.0 * SNUG_PI;
    if (a <= -SNUG_PI) a += 2.0 * SNUG_PI;
    return a;
}

/* A rigid pose in double. */
typedef struct dpose {
    dquat q;
    dvec p;
} dpose;

static inline dpose dpose_f(const snug_pose* pose) { return (dpose){dq_f(pose->q), dv(pose->p)}; }
static inline snug_pose dpose_store(dpose a) {
    snug_pose r;
    dq_store(a.q, r.q);
    dstore_f(a.p, r.p);
    return r;
}
static inline dvec dpose_point(dpose a, dvec v) { return dadd(dq_rotate(a.q, v), a.p); }
static inline dvec dpose_dir(dpose a, dvec v) { return dq_rotate(a.q, v); }
/* Turn the pose by q about the world point pivot. */
static inline dpose dpose_turn(dpose a, dquat q, dvec pivot) {
    return (dpose){dq_mul(q, a.q), dadd(pivot, dq_rotate(q, dsub(a.p, pivot)))};
}

#endif
