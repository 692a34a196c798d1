/* The out-of-line part of pmath.h: every placement file calls these many times, and inlined into each of them they
 * cost the module its size budget. */
#include "place/pmath.h"
#include "base/trig.h"

dvec dperp(dvec n) {
    dvec a = fabs(n.x) < fabs(n.y) ? (fabs(n.x) < fabs(n.z) ? dxyz(1, 0, 0) : dxyz(0, 0, 1))
                                    : (fabs(n.y) < fabs(n.z) ? dxyz(0, 1, 0) : dxyz(0, 0, 1));
    return dnorm(dreject(a, n));
}

dquat dq_f(const float q[4]) {
    dquat r = {q[0], q[1], q[2], q[3]};
    double n = sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    return n > 0.0 ? (dquat){r.x / n, r.y / n, r.z / n, r.w / n} : dq_identity();
}

dquat dq_mul(dquat a, dquat b) {
    return (dquat){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

dquat dq_axis_angle(dvec unit_axis, double angle) {
    double s, c;
    snug_sin_cos(0.5 * angle, &s, &c);
    return (dquat){unit_axis.x * s, unit_axis.y * s, unit_axis.z * s, c};
}

dvec dq_rotate(dquat q, dvec v) {
    dvec u = {q.x, q.y, q.z};
    dvec t = dscale(dcross(u, v), 2.0);
    return dadd(dadd(v, dscale(t, q.w)), dcross(u, t));
}

double dq_twist_angle(dquat q, dvec unit_axis) {
    double p = q.x * unit_axis.x + q.y * unit_axis.y + q.z * unit_axis.z;
    double a = 2.0 * atan2(p, q.w);
    if (a > SNUG_PI) a -= 2.0 * SNUG_PI;
    if (a <= -SNUG_PI) a += 2.0 * SNUG_PI;
    return a;
}

snug_pose dpose_store(dpose a) {
    snug_pose r;
    dq_store(a.q, r.q);
    dstore_f(a.p, r.p);
    return r;
}

dpose dpose_turn(dpose a, dquat q, dvec pivot) {
    return (dpose){dq_mul(q, a.q), dadd(pivot, dq_rotate(q, dsub(a.p, pivot)))};
}

dpose dpose_f(const snug_pose* pose) { return (dpose){dq_f(pose->q), dv(pose->p)}; }
