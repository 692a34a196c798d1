/* Orientation: which way a body may still move and turn given its binding planes and orientation constraints
 * (IConS §3.2.4 and Alg. 3), the rotation that lays a binding onto an offer (§4.6.1, with the axis rule of the
 * digest's §5.4), and turns that end on an angle step. */
#include "place/align.h"

snug_dof snug_dof_of(const dvec* normals, uint32_t count) {
    snug_dof d = {.kind = SNUG_DOF_FREE};
    for (uint32_t i = 0; i < count; i++) {
        dvec n = normals[i];
        if (d.kind == SNUG_DOF_FREE) {
            d.kind = SNUG_DOF_PLANE;
            d.n = n;
        } else if (d.kind == SNUG_DOF_PLANE) {
            dvec c = dcross(d.n, n);
            if (dlen(c) > SNUG_PARALLEL_EPS) {
                d.kind = SNUG_DOF_LINE;
                d.line = dnorm(c);
            }
        } else if (d.kind == SNUG_DOF_LINE) {
            if (fabs(ddot(n, d.line)) > SNUG_PARALLEL_EPS) d.kind = SNUG_DOF_NONE;
        }
    }
    return d;
}

dvec snug_dof_project(const snug_dof* d, dvec t) {
    switch (d->kind) {
    case SNUG_DOF_FREE: return t;
    case SNUG_DOF_PLANE: return dreject(t, d->n);
    case SNUG_DOF_LINE: return dscale(d->line, ddot(t, d->line));
    default: return dxyz(0, 0, 0);
    }
}

uint32_t snug_dof_axes(const snug_dof* d) {
    return d->kind == SNUG_DOF_FREE ? 3u : d->kind == SNUG_DOF_PLANE ? 2u : d->kind == SNUG_DOF_LINE ? 1u : 0u;
}

snug_turn snug_turn_of(const dvec* axes, uint32_t count) {
    snug_turn t = {.kind = SNUG_TURN_FREE};
    for (uint32_t i = 0; i < count; i++) {
        if (t.kind == SNUG_TURN_FREE) {
            t.kind = SNUG_TURN_AXIS;
            t.axis = axes[i];
        } else if (t.kind == SNUG_TURN_AXIS && dlen(dcross(t.axis, axes[i])) > SNUG_PARALLEL_EPS) {
            t.kind = SNUG_TURN_NONE;
        }
    }
    return t;
}

bool snug_align_rotation(dvec x, dvec y, const dvec* prescribed, dvec up, dquat* out) {
    double c = ddot(x, y);
    if (c > 1.0 - 1e-12) {
        *out = dq_identity();
        return true;
    }
    bool opposite = c < -1.0 + 1e-12;
    dvec m = opposite ? x : dnorm(dsub(y, x)); /* every axis k with k . m = 0 turns x onto y */
    dvec k;
    if (prescribed) {
        k = *prescribed;
        if (fabs(ddot(k, m)) > 1e-6) return false;
    } else if (fabs(ddot(up, m)) < 1e-9) {
        k = up; /* x and y at the same elevation: a pure turn about up keeps the body upright */
    } else {
        k = dcross(m, up); /* an axis across up: a pure tilt, no turn about the vertical */
        if (dlen(k) < 1e-9) k = dperp(m);
        k = dnorm(k);
    }
    dvec px = dreject(x, k), py = dreject(y, k);
    double angle = atan2(ddot(dcross(px, py), k), ddot(px, py));
    *out = dq_axis_angle(k, angle);
    return true;
}

/* A world direction across the axis that does not depend on the body: the reference of absolute angles. */
static dvec reference_across(dvec axis) {
    dvec r = dreject(dxyz(1, 0, 0), axis);
    if (dlen(r) < 0.5) r = dreject(dxyz(0, 0, 1), axis);
    return dnorm(r);
}

double snug_turn_to_step(dquat q, dvec axis, double turn, double step) {
    if (!(step > 0.0)) return turn;
    /* the body's local axis least along the turn axis, as seen across it */
    dvec best = dxyz(0, 0, 0);
    double least = 2.0;
    const dvec locals[3] = {dxyz(1, 0, 0), dxyz(0, 1, 0), dxyz(0, 0, 1)};
    for (int i = 0; i < 3; i++) {
        dvec w = dq_rotate(q, locals[i]);
        double a = fabs(ddot(w, axis));
        if (a < least) least = a, best = w;
    }
    dvec r0 = reference_across(axis), rb = dnorm(dreject(best, axis));
    double phi = atan2(ddot(dcross(r0, rb), axis), ddot(r0, rb));
    double target = round((phi + turn) / step) * step;
    double d = target - phi;
    while (d > SNUG_PI) d -= 2.0 * SNUG_PI;
    while (d <= -SNUG_PI) d += 2.0 * SNUG_PI;
    /* a step that rounds back to where the body is does not move it: go one step in the asked direction */
    if (fabs(d) < 1e-9 && fabs(turn) > 1e-9) d = turn > 0 ? step : -step;
    return d;
}
