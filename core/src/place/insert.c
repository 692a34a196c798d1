/* Insert without overlap (IConS §4.6.2, which raised a new object until free and so lost its binding): the new body
 * goes onto the offer under the pointer, its binding polygon centred at the hit, or, where that overlaps something,
 * at the nearest free snapped pose found searching outward over the offer in rings. A full offer is a clear failure
 * and nothing is created. */
#include <string.h>

#include "place/seat.h"
#include "base/trig.h"

#define RINGS 12
#define RING_STEPS 16

snug_insert_def snug_default_insert_def(void) {
    snug_insert_def d;
    memset(&d, 0, sizeof d);
    d.body = snug_default_body_def();
    d.ray.tmax = INFINITY;
    d.internal_value = SNUG_DEF_MARK;
    return d;
}

/* The first offer the ray crosses (facing it, inside its polygon) that one of the binding surfaces bs may rest on, no
 * farther than `reach` along the ray: the offer under the pointer, also where a book lying on it is what the pointer
 * touches. */
static snug_status offer_under(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_place_surfaces* bs,
                               dvec o, dvec dir, double reach, snug_body_data** body, uint32_t* offer, dvec* at) {
    *body = NULL;
    dvec end = dmadd(o, dir, reach);
    dvec lo = dxyz(fmin(o.x, end.x), fmin(o.y, end.y), fmin(o.z, end.z)), hi = dxyz(fmax(o.x, end.x), fmax(o.y, end.y), fmax(o.z, end.z));
    snug_body_data** near;
    uint32_t n;
    snug_status st = snug_group_neighbours(ctx, s, ps, NULL, lo, hi, &near, &n);
    if (st) return st;
    double best = reach;
    for (uint32_t k = 0; k < n; k++) {
        snug_mesh_data* m = snug_pool_get(&ctx->meshes, near[k]->mesh);
        const snug_place_surfaces* os = m ? snug_mesh_surfaces(m) : NULL;
        for (uint32_t a = 0; os && a < os->count; a++) {
            const snug_place_surface* A = &os->items[a];
            bool fits = false;
            for (uint32_t b = 0; bs && b < bs->count; b++)
                fits |= bs->items[b].s.kind == SNUG_SURFACE_BINDING && snug_label_fits(ps, bs->items[b].s.label, A->s.label);
            if (A->s.kind != SNUG_SURFACE_OFFER || !fits) continue;
            snug_world_surface w;
            snug_world_surface_at(A, dpose_f(&near[k]->world), &w);
            double facing = ddot(w.n, dir);
            if (facing >= 0.0) continue;
            double t = ddot(dsub(w.origin, o), w.n) / facing;
            if (!(t >= 0.0 && t < best)) continue;
            dvec x = dmadd(o, dir, t), d = dsub(x, w.origin);
            snug_poly2 poly;
            snug_world_surface_polygon(&w, &poly);
            if (!snug_poly2_contains(&poly, ddot(d, w.u), ddot(d, w.v), 1e-6 * w.radius)) continue;
            best = t;
            *body = near[k];
            *offer = a;
            *at = x;
        }
    }
    return SNUG_OK;
}

/* Undo the body a failed insert tried, handle included: the next body gets the handle it would have got, so a
 * failed insert leaves the scene as it was (its snapshot bit for bit), and no record of the placement state may
 * outlive the body under that handle. */
static void forget(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, snug_body nb, uint32_t slots) {
    snug_body_data* b = snug_pool_get(&s->bodies, nb);
    snug_place_body* r = b ? snug_place_body_at(ps, s, b->slot) : NULL;
    if (r) memset(r, 0, sizeof *r);
    snug_body_destroy(ctx, s->handle, nb);
    snug_pool_forget_newest(&s->bodies, slots);
}

snug_status snug_scene_insert(snug_ctx* ctx, snug_scene scene, const snug_insert_def* def, snug_body* out,
                              snug_binding* bound) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!def || !out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "scene_insert needs a def and an output");
    if (snug_def_check_mark(ctx, def->internal_value, "insert_def")) return SNUG_ERR_INVALID_ARGUMENT;
    dvec o = dv(def->ray.origin), dir = dv(def->ray.dir);
    if (!dfinite(o) || !dfinite(dir)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "insert: the ray is not finite");
    if (!(dlen(dir) > 0.0)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "insert: the ray direction is zero");
    snug_mesh_data* m = snug_mesh_lookup(ctx, def->body.mesh);
    if (!m) return SNUG_ERR_STALE_HANDLE;
    const snug_place_surfaces* bs = snug_mesh_surfaces(m);
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    snug_scene_hit hit;
    snug_status st = snug_scene_raycast(ctx, scene, &def->ray, 0xffffffffu, &hit);
    if (st) return st;
    if (hit.body == 0) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "insert: the pointer hits nothing");
    snug_body_data* first = snug_pool_get(&s->bodies, hit.body);
    /* past the first body hit by its size: the offer it stands on, when the pointer is on the object */
    double reach = dlen(dsub(dv(hit.point), o)) / dlen(dir) +
                   dlen(dsub(dv(first->local_max), dv(first->local_min))) + 1e-6;
    snug_body_data* h;
    uint32_t offer = 0;
    dvec x = o;
    dvec unit = dnorm(dir);
    if ((st = offer_under(ctx, s, ps, bs, o, unit, reach * dlen(dir), &h, &offer, &x))) return st;
    if (!h)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                         "insert: no offer under the pointer (near body 0x%08x) that the body may rest on", hit.body);
    snug_body hit_body = h->handle;
    snug_mesh_data* hm = snug_pool_get(&ctx->meshes, h->mesh);
    const snug_place_surface* A = &snug_mesh_surfaces(hm)->items[offer];
    /* the binding surface to rest with: the first whose label fits the offer */
    uint32_t binding = SNUG_NO_HIT;
    for (uint32_t b = 0; bs && b < bs->count && binding == SNUG_NO_HIT; b++)
        if (bs->items[b].s.kind == SNUG_SURFACE_BINDING && snug_label_fits(ps, bs->items[b].s.label, A->s.label))
            binding = b;
    snug_body_def bd = def->body;
    bd.parent = 0;
    snug_body nb = 0;
    uint32_t slots = s->bodies.slot_count; /* to give the handle back when no pose is free */
    if ((st = snug_body_create(ctx, scene, &bd, &nb))) return st;
    snug_body_data* b = snug_pool_get(&s->bodies, nb);
    /* candidate centres on the offer's plane: the hit, then rings outward, a step of half the polygon's radius */
    snug_world_surface w;
    snug_world_surface_at(A, dpose_f(&h->world), &w);
    const snug_place_surface* B = &bs->items[binding];
    double step = 0.5 * B->radius;
    int rings = (int)fmin(RINGS, ceil(2.0 * w.radius / step));
    const snug_seat_anchor clamp = {.rule = SNUG_SEAT_CLAMP};
    /* the seats found blocked: candidates off the offer clamp onto its edge, many of them onto the same pose (60 of
     * the 170 candidates of a dragon on a crowded shelf), and a pose is tested once */
    snug_pose blocked[1 + RINGS * RING_STEPS];
    uint32_t blocked_count = 0;
    snug_overlap_hint hint = {0}; /* nearby candidates are mostly blocked by the same triangles */
    for (int ring = 0; ring <= rings; ring++) {
        int steps = ring == 0 ? 1 : RING_STEPS;
        for (int k = 0; k < steps; k++) {
            double sa, ca;
            snug_sin_cos(2.0 * SNUG_PI * k / steps, &sa, &ca);
            dvec at = dadd(x, dadd(dscale(w.u, ring * step * ca), dscale(w.v, ring * step * sa)));
            /* put the binding polygon's centre there, keeping the def's turn */
            dpose p = dpose_f(&bd.pose);
            p.p = dadd(p.p, dsub(at, dpose_point(p, B->centroid)));
            snug_pose pf = dpose_store(p);
            snug_group g;
            if ((st = snug_body_set_pose(ctx, scene, nb, &pf)) || (st = snug_group_gather(ctx, s, ps, b, &g))) goto fail;
            snug_seat seat;
            if (!snug_seat_find(ctx, s, ps, &g, binding, h, offer, &clamp, false, &seat)) continue;
            dpose seated = dpose_turn(g.members[0].pose, seat.turn, seat.pivot);
            seated.p = dadd(seated.p, seat.shift);
            snug_pose sf = dpose_store(seated);
            bool tried = false;
            for (uint32_t i = 0; i < blocked_count && !tried; i++) tried = !memcmp(&blocked[i], &sf, sizeof sf);
            if (tried) continue;
            bool free = false;
            if ((st = snug_group_free_at(ctx, s, ps, &g, seat.turn, seat.pivot, seat.shift, &seat.b, &free, NULL, &hint)))
                goto fail;
            if (!free) {
                blocked[blocked_count++] = sf;
                continue;
            }
            if ((st = snug_seat_take(ctx, s, ps, &g, &seat, false))) goto fail;
            *out = nb;
            if (bound) *bound = seat.b;
            return snug_succeed(ctx);
        }
    }
    forget(ctx, s, ps, nb, slots);
    return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "insert: offer %u of body 0x%08x has no free room for it (full)",
                     offer, hit_body);
fail: { /* undo the creation, keeping the failure's message */
    char why[sizeof ctx->last_error];
    memcpy(why, ctx->last_error, sizeof why);
    forget(ctx, s, ps, nb, slots);
    memcpy(ctx->last_error, why, sizeof why);
    ctx->last_status = st;
    return st;
}
}
