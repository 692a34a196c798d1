/* Orientation: which way a body may still move and turn given its binding planes and orientation constraints
 * (IConS §3.2.4 and Alg. 3), the rotation that lays a binding onto an offer (§4.6.1, with the axis rule of the
 * digest's §5.4), and turns that end on an angle step. */
#include "place/align.h"

snug_dof snug_dof_of(const dvec3* normals, uint32_t count) {
    snug_dof d = {.kind = SNUG_DOF_FREE};
    for (uint32_t i = 0; i < count; i++) {
        dvec3 n = normals[i];
        if (d.kind == SNUG_DOF_FREE) {
            d.kind = SNUG_DOF_PLANE;
            d.n = n;
        } else if (d.kind == SNUG_DOF_PLANE) {
            dvec3 c = dv_cross(d.n, n);
            if (dv_len(c) > SNUG_PARALLEL_EPS) {
                d.kind = SNUG_DOF_LINE;
                d.line = dv_norm(c);
            }
        } else if (d.kind == SNUG_DOF_LINE) {
            if (fabs(dv_dot(n, d.line)) > SNUG_PARALLEL_EPS) d.kind = SNUG_DOF_NONE;
        }
    }
    return d;
}

dvec3 snug_dof_project(const snug_dof* d, dvec3 t) {
    switch (d->kind) {
    case SNUG_DOF_FREE: return t;
    case SNUG_DOF_PLANE: return dv_reject(t, d->n);
    case SNUG_DOF_LINE: return dv_scale(d->line, dv_dot(t, d->line));
    default: return dv(0, 0, 0);
    }
}

uint32_t snug_dof_axes(const snug_dof* d) {
    return d->kind == SNUG_DOF_FREE ? 3u : d->kind == SNUG_DOF_PLANE ? 2u : d->kind == SNUG_DOF_LINE ? 1u : 0u;
}

snug_turn snug_turn_of(const dvec3* axes, uint32_t count) {
    snug_turn t = {.kind = SNUG_TURN_FREE};
    for (uint32_t i = 0; i < count; i++) {
        if (t.kind == SNUG_TURN_FREE) {
            t.kind = SNUG_TURN_AXIS;
            t.axis = axes[i];
        } else if (t.kind == SNUG_TURN_AXIS && dv_len(dv_cross(t.axis, axes[i])) > SNUG_PARALLEL_EPS) {
            t.kind = SNUG_TURN_NONE;
        }
    }
    return t;
}

bool snug_align_rotation(dvec3 x, dvec3 y, const dvec3* prescribed, dvec3 up, dquat* out) {
    double c = dv_dot(x, y);
    if (c > 1.0 - 1e-12) {
        *out = dq_identity();
        return true;
    }
    bool opposite = c < -1.0 + 1e-12;
    dvec3 m = opposite ? x : dv_norm(dv_sub(y, x)); /* every axis k with k . m = 0 turns x onto y */
    dvec3 k;
    if (prescribed) {
        k = *prescribed;
        if (fabs(dv_dot(k, m)) > 1e-6) return false;
    } else if (fabs(dv_dot(up, m)) < 1e-9) {
        k = up; /* x and y at the same elevation: a pure turn about up keeps the body upright */
    } else {
        k = dv_cross(m, up); /* an axis across up: a pure tilt, no turn about the vertical */
        if (dv_len(k) < 1e-9) k = dv_perp(m);
        k = dv_norm(k);
    }
    dvec3 px = dv_reject(x, k), py = dv_reject(y, k);
    double angle = atan2(dv_dot(dv_cross(px, py), k), dv_dot(px, py));
    *out = dq_axis_angle(k, angle);
    return true;
}

/* A world direction across the axis that does not depend on the body: the reference of absolute angles. */
static dvec3 reference_across(dvec3 axis) {
    dvec3 r = dv_reject(dv(1, 0, 0), axis);
    if (dv_len(r) < 0.5) r = dv_reject(dv(0, 0, 1), axis);
    return dv_norm(r);
}

double snug_turn_to_step(dquat q, dvec3 axis, double turn, double step) {
    if (!(step > 0.0)) return turn;
    /* the body's local axis least along the turn axis, as seen across it */
    dvec3 best = dv(0, 0, 0);
    double least = 2.0;
    const dvec3 locals[3] = {dv(1, 0, 0), dv(0, 1, 0), dv(0, 0, 1)};
    for (int i = 0; i < 3; i++) {
        dvec3 w = dq_rotate(q, locals[i]);
        double a = fabs(dv_dot(w, axis));
        if (a < least) least = a, best = w;
    }
    dvec3 r0 = reference_across(axis), rb = dv_norm(dv_reject(best, axis));
    double phi = atan2(dv_dot(dv_cross(r0, rb), axis), dv_dot(r0, rb));
    double target = round((phi + turn) / step) * step;
    double d = target - phi;
    while (d > SNUG_PI) d -= 2.0 * SNUG_PI;
    while (d <= -SNUG_PI) d += 2.0 * SNUG_PI;
    /* a step that rounds back to where the body is does not move it: go one step in the asked direction */
    if (fabs(d) < 1e-9 && fabs(turn) > 1e-9) d = turn > 0 ? step : -step;
    return d;
}
