/* Surfaces: checking and storing a mesh's offers and bindings, placing them in the world, and the convex polygon
 * work of containment (IConS's "prism" test and the clamp that keeps a binding polygon on its offer). */
#include <stdlib.h>
#include <string.h>

#include "place/place.h"

const snug_place_surfaces* snug_mesh_surfaces(const snug_mesh_data* m) { return m->place.data; }

static void free_surfaces(snug_ctx* ctx, void* data) { snug_free(ctx, data); }

/* Checks one surface against the mesh's scale; fills the derived fields. */
static snug_status check_surface(snug_ctx* ctx, const snug_mesh_data* m, uint32_t index, const snug_surface* in,
                                 snug_place_surface* out) {
    if ((unsigned)in->kind >= SNUG_SURFACE_KIND_COUNT)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "surface %u: kind %d is not a snug_surface_kind", index,
                         (int)in->kind);
    uint32_t n = in->vertex_count;
    if (n < 3 || n > SNUG_SURFACE_MAX_VERTICES)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "surface %u: %u vertices (3..%u)", index, n,
                         SNUG_SURFACE_MAX_VERTICES);
    dvec normal = dv(in->normal);
    if (!dfinite(normal)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "surface %u: normal is not finite", index);
    double len = dlen(normal);
    if (fabs(len - 1.0) > 1e-3)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "surface %u: the normal is not unit (length %g)", index, len);
    normal = dscale(normal, 1.0 / len);
    dvec c = {0, 0, 0};
    for (uint32_t i = 0; i < n; i++) {
        dvec p = dv(in->vertices[i]);
        if (!dfinite(p)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "surface %u: vertex %u is not finite", index, i);
        c = dadd(c, p);
    }
    c = dscale(c, 1.0 / n);
    double radius = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        double d = dlen(dsub(dv(in->vertices[i]), c));
        if (d > radius) radius = d;
    }
    /* Hand-typed and float-rounded polygons: flat to 1e-4 of the larger of the mesh and the polygon. */
    double scale = radius > m->scale ? radius : m->scale;
    double tol = 1e-4 * scale;
    if (!(radius > tol)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "surface %u: the polygon has no area", index);
    dvec u = dperp(normal), v = dcross(normal, u);
    double area2 = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        dvec p = dsub(dv(in->vertices[i]), c);
        dvec q = dsub(dv(in->vertices[(i + 1) % n]), c);
        dvec r = dsub(dv(in->vertices[(i + 2) % n]), c);
        if (fabs(ddot(p, normal)) > tol)
            return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "surface %u: vertex %u is %g off the polygon's plane",
                             index, i, fabs(ddot(p, normal)));
        double px = ddot(p, u), py = ddot(p, v), qx = ddot(q, u), qy = ddot(q, v);
        double rx = ddot(r, u), ry = ddot(r, v);
        if (hypot(qx - px, qy - py) <= tol)
            return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "surface %u: vertices %u and %u coincide", index, i,
                             (i + 1) % n);
        double turn = (qx - px) * (ry - qy) - (qy - py) * (rx - qx);
        if (turn < -tol * hypot(qx - px, qy - py))
            return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                             "surface %u: not convex and counter-clockwise seen from the normal's tip (at vertex %u)",
                             index, (i + 1) % n);
        area2 += px * qy - py * qx;
    }
    if (!(area2 > tol * radius))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                         "surface %u: the winding is clockwise seen from the normal's tip (or the polygon has no area)",
                         index);
    /* A convex polygon's edges turn once around: more means it crosses itself. */
    double winding = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        dvec p = dv(in->vertices[i]), q = dv(in->vertices[(i + 1) % n]), r = dv(in->vertices[(i + 2) % n]);
        dvec e0 = dsub(q, p), e1 = dsub(r, q);
        winding += atan2(ddot(dcross(e0, e1), normal), ddot(e0, e1));
    }
    if (winding > 2.5 * SNUG_PI)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "surface %u: the polygon crosses itself", index);
    out->s = *in;
    dstore_f(normal, out->s.normal);
    memset(out->s.vertices[n], 0, sizeof(out->s.vertices[0]) * (SNUG_SURFACE_MAX_VERTICES - n));
    out->centroid = c;
    out->radius = radius;
    return SNUG_OK;
}

snug_status snug_mesh_set_surfaces(snug_ctx* ctx, snug_mesh mesh, const snug_surface* surfaces, uint32_t count) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    snug_mesh_data* m = snug_mesh_lookup(ctx, mesh);
    if (!m) return SNUG_ERR_STALE_HANDLE;
    if (count && !surfaces) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "set_surfaces: surfaces is NULL");
    if (count > 4096) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "set_surfaces: %u surfaces (at most 4096)", count);
    snug_place_surfaces* fresh = NULL;
    if (count) {
        fresh = snug_alloc(ctx, sizeof *fresh + (size_t)count * sizeof fresh->items[0]);
        if (!fresh) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "%u surfaces", count);
        fresh->count = count;
        for (uint32_t i = 0; i < count; i++) {
            snug_status st = check_surface(ctx, m, i, &surfaces[i], &fresh->items[i]);
            if (st) {
                snug_free(ctx, fresh);
                return st;
            }
        }
    }
    snug_attachment_release(ctx, &m->place);
    m->place.data = fresh;
    m->place.free = free_surfaces;
    return snug_succeed(ctx);
}

snug_status snug_mesh_get_surfaces(snug_ctx* ctx, snug_mesh mesh, snug_surface* surfaces, uint32_t capacity,
                                   uint32_t* total) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    snug_mesh_data* m = snug_mesh_lookup(ctx, mesh);
    if (!m) return SNUG_ERR_STALE_HANDLE;
    if (!total || (capacity && !surfaces))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "get_surfaces needs outputs");
    const snug_place_surfaces* ss = snug_mesh_surfaces(m);
    uint32_t n = ss ? ss->count : 0;
    for (uint32_t i = 0; i < n && i < capacity; i++) surfaces[i] = ss->items[i].s;
    *total = n;
    if (n > capacity) return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "%u surfaces, capacity %u", n, capacity);
    return snug_succeed(ctx);
}

dvec snug_surface_vertex(const snug_place_surface* ps, dpose pose, uint32_t i) {
    return dpose_point(pose, dv(ps->s.vertices[i]));
}

void snug_surface_in_plane(const snug_place_surface* ps, dpose pose, const snug_world_surface* w, snug_poly2* out) {
    out->n = ps->s.vertex_count;
    for (uint32_t i = 0; i < out->n; i++) {
        dvec d = dsub(snug_surface_vertex(ps, pose, i), w->origin);
        out->x[i] = ddot(d, w->u);
        out->y[i] = ddot(d, w->v);
    }
}

void snug_world_surface_polygon(const snug_world_surface* w, snug_poly2* out) {
    out->n = w->count;
    memcpy(out->x, w->x, w->count * sizeof *out->x);
    memcpy(out->y, w->y, w->count * sizeof *out->y);
}

void snug_world_surface_at(const snug_place_surface* ps, dpose pose, snug_world_surface* out) {
    out->n = dnorm(dpose_dir(pose, dv(ps->s.normal)));
    out->origin = dpose_point(pose, ps->centroid);
    out->u = dperp(out->n);
    out->v = dcross(out->n, out->u);
    out->count = ps->s.vertex_count;
    out->radius = ps->radius;
    for (uint32_t i = 0; i < out->count; i++) {
        dvec d = dsub(snug_surface_vertex(ps, pose, i), out->origin);
        out->x[i] = ddot(d, out->u);
        out->y[i] = ddot(d, out->v);
    }
}

/* Keep the part of p where a x + b y <= c (Sutherland-Hodgman step on a convex polygon). */
static void clip_half_plane(snug_poly2* p, double a, double b, double c) {
    snug_poly2 out;
    out.n = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        uint32_t j = (i + 1) % p->n;
        double fi = a * p->x[i] + b * p->y[i] - c, fj = a * p->x[j] + b * p->y[j] - c;
        if (fi <= 0.0) out.x[out.n] = p->x[i], out.y[out.n] = p->y[i], out.n++;
        if ((fi <= 0.0) != (fj <= 0.0)) {
            double s = fi / (fi - fj);
            out.x[out.n] = p->x[i] + s * (p->x[j] - p->x[i]);
            out.y[out.n] = p->y[i] + s * (p->y[j] - p->y[i]);
            out.n++;
        }
    }
    *p = out;
}

void snug_feasible_region(const snug_poly2* offer, const double* bx, const double* by, uint32_t bn, double margin,
                          snug_poly2* out) {
    /* start from a box that holds every feasible translation, then cut by each offer edge's half-plane, moved in
     * by the binding polygon's reach across that edge */
    double big = 4.0 * margin + 1.0;
    for (uint32_t i = 0; i < offer->n; i++) big += fabs(offer->x[i]) + fabs(offer->y[i]);
    for (uint32_t i = 0; i < bn; i++) big += fabs(bx[i]) + fabs(by[i]);
    out->n = 4;
    out->x[0] = -big, out->y[0] = -big;
    out->x[1] = big, out->y[1] = -big;
    out->x[2] = big, out->y[2] = big;
    out->x[3] = -big, out->y[3] = big;
    for (uint32_t e = 0; e < offer->n && out->n; e++) {
        uint32_t f = (e + 1) % offer->n;
        double ex = offer->x[f] - offer->x[e], ey = offer->y[f] - offer->y[e];
        double len = hypot(ex, ey);
        if (!(len > 0.0)) continue;
        double a = ey / len, b = -ex / len; /* outward normal of a counter-clockwise edge */
        double c = a * offer->x[e] + b * offer->y[e] + margin;
        double reach = -INFINITY;
        for (uint32_t i = 0; i < bn; i++) {
            double r = a * bx[i] + b * by[i];
            if (r > reach) reach = r;
        }
        clip_half_plane(out, a, b, c - reach);
    }
}

double snug_poly2_area(const snug_poly2* p) {
    double a = 0.0;
    for (uint32_t i = 0; i < p->n; i++) {
        uint32_t j = (i + 1) % p->n;
        a += p->x[i] * p->y[j] - p->y[i] * p->x[j];
    }
    return 0.5 * a;
}

void snug_poly2_clip(snug_poly2* p, const snug_poly2* by, double margin) {
    for (uint32_t e = 0; e < by->n && p->n; e++) {
        uint32_t f = (e + 1) % by->n;
        double ex = by->x[f] - by->x[e], ey = by->y[f] - by->y[e];
        double len = hypot(ex, ey);
        if (!(len > 0.0)) continue;
        double a = ey / len, b = -ex / len;
        clip_half_plane(p, a, b, a * by->x[e] + b * by->y[e] + margin);
    }
}

bool snug_poly2_contains(const snug_poly2* p, double x, double y, double eps) {
    if (p->n == 0) return false;
    for (uint32_t i = 0; i < p->n; i++) {
        uint32_t j = (i + 1) % p->n;
        double ex = p->x[j] - p->x[i], ey = p->y[j] - p->y[i];
        double len = hypot(ex, ey);
        if (!(len > 0.0)) continue;
        if ((ex * (y - p->y[i]) - ey * (x - p->x[i])) / len < -eps) return false;
    }
    return true;
}

void snug_poly2_closest(const snug_poly2* p, double x, double y, double* cx, double* cy) {
    if (snug_poly2_contains(p, x, y, 0.0)) {
        *cx = x, *cy = y;
        return;
    }
    double best = INFINITY;
    for (uint32_t i = 0; i < p->n; i++) {
        uint32_t j = (i + 1) % p->n;
        double ex = p->x[j] - p->x[i], ey = p->y[j] - p->y[i];
        double l2 = ex * ex + ey * ey;
        double s = l2 > 0.0 ? ((x - p->x[i]) * ex + (y - p->y[i]) * ey) / l2 : 0.0;
        s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
        double qx = p->x[i] + s * ex, qy = p->y[i] + s * ey;
        double d = (qx - x) * (qx - x) + (qy - y) * (qy - y);
        if (d < best) best = d, *cx = qx, *cy = qy;
    }
}
