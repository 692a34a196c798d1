/* The consistency check (IConS §3.8: bindok, nokoll, aligned) and the rule that lets a second binding go when its
 * supporter moves away. A binding holds when its normal is its offer's (within 1e-4 rad), its plane lies on the
 * offer's (within what float poses keep: snug_plane_tolerance), and its polygon lies in the union of coplanar offers
 * whose label fits (support.c). Two bodies interpenetrate when they overlap with the supported one of a bound pair
 * lifted a little off its binding plane: touching in a binding plane is resting, touching anywhere else is not
 * allowed (snug_contact_lift). */
#include <string.h>

#include "place/seat.h"
#include "place/support.h"

static const snug_place_surface* surface_of(snug_ctx* ctx, const snug_body_data* b, uint32_t index) {
    snug_mesh_data* m = snug_pool_get(&ctx->meshes, b->mesh);
    const snug_place_surfaces* ss = m ? snug_mesh_surfaces(m) : NULL;
    return ss && index < ss->count ? &ss->items[index] : NULL;
}

bool snug_binding_holds(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_binding* bd,
                        double* amount, snug_violation_kind* kind) {
    double unused_amount;
    snug_violation_kind unused_kind;
    if (!amount) amount = &unused_amount;
    if (!kind) kind = &unused_kind;
    *amount = 0.0;
    snug_body_data* b = snug_pool_get(&s->bodies, bd->body);
    snug_body_data* sup = snug_pool_get(&s->bodies, bd->supporter);
    const snug_place_surface* B = b ? surface_of(ctx, b, bd->binding) : NULL;
    const snug_place_surface* A = sup ? surface_of(ctx, sup, bd->offer) : NULL;
    if (!B || !A || B->s.kind != SNUG_SURFACE_BINDING || A->s.kind != SNUG_SURFACE_OFFER) {
        *kind = SNUG_VIOLATION_STALE;
        return false;
    }
    if (!snug_label_fits(ps, B->s.label, A->s.label)) {
        *kind = SNUG_VIOLATION_LABEL;
        return false;
    }
    dpose pb = dpose_f(&b->world), pa = dpose_f(&sup->world);
    dvec nb = dnorm(dpose_dir(pb, dv(B->s.normal))), na = dnorm(dpose_dir(pa, dv(A->s.normal)));
    double angle = atan2(dlen(dcross(nb, na)), ddot(nb, na));
    dvec cb = dpose_point(pb, B->centroid), ca = dpose_point(pa, A->centroid);
    double dist = fabs(ddot(dsub(cb, ca), na));
    double tol = snug_plane_tolerance(b, sup, A->radius, B->radius, dlen(ca));
    if (angle > 1e-4 || dist > tol) {
        *kind = SNUG_VIOLATION_PLANE;
        *amount = angle > 1e-4 ? angle : dist;
        return false;
    }
    snug_mesh_data* bm = snug_pool_get(&ctx->meshes, b->mesh);
    snug_support sp;
    if (snug_support_gather(ctx, s, ps, 0, bm, bd, &sp)) {
        *kind = SNUG_VIOLATION_STALE;
        return false;
    }
    if (!snug_support_holds(&sp, pb, true)) {
        *kind = SNUG_VIOLATION_CONTAINMENT;
        *amount = B->radius;
        return false;
    }
    return true;
}

snug_status snug_place_break_loose(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g) {
    for (uint32_t slot = 0; slot < ps->body_cap; slot++) {
        snug_place_body* r = snug_place_body_at(ps, s, slot);
        if (!r || !r->binding_count || snug_group_has(ps, g, slot)) continue;
        snug_binding kept[SNUG_BINDINGS_MAX];
        uint32_t n = 0;
        bool changed = false;
        for (uint32_t i = 0; i < r->binding_count; i++) {
            snug_body_data* sup = snug_pool_get(&s->bodies, r->bindings[i].supporter);
            if (sup && snug_group_has(ps, g, sup->slot) && !snug_binding_holds(ctx, s, ps, &r->bindings[i], NULL, NULL))
                changed = true;
            else
                kept[n++] = r->bindings[i];
        }
        if (!changed) continue;
        snug_status st = snug_bindings_set(ctx, s, ps, snug_body_at(s, slot), kept, n);
        if (st) return st;
    }
    return SNUG_OK;
}

typedef struct violations {
    snug_violation* out;
    uint32_t capacity, total;
} violations;

static void report(violations* v, snug_violation_kind kind, snug_body body, snug_body other, uint32_t binding,
                   double amount) {
    if (v->total < v->capacity)
        v->out[v->total] = (snug_violation){kind, body, other, binding, (float)amount};
    v->total++;
}

/* Does following supporters from slot come back to it? */
static bool on_cycle(snug_scene_data* s, snug_place_scene* ps, uint32_t start) {
    /* depth-first over supporter edges, bounded by the number of bodies */
    uint32_t stack[256], depth = 0;
    uint32_t visited = 0, limit = s->bodies.live + 1;
    stack[depth++] = start;
    while (depth && visited++ < limit * SNUG_BINDINGS_MAX) {
        uint32_t cur = stack[--depth];
        snug_place_body* r = snug_place_body_at(ps, s, cur);
        for (uint32_t i = 0; r && i < r->binding_count; i++) {
            snug_body_data* sup = snug_pool_get(&s->bodies, r->bindings[i].supporter);
            if (!sup) continue;
            if (sup->slot == start) return true;
            if (depth < 256) stack[depth++] = sup->slot;
        }
    }
    return false;
}

snug_status snug_scene_check(snug_ctx* ctx, snug_scene scene, snug_violation* out, uint32_t capacity,
                             uint32_t* total) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!total || (capacity && !out)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "scene_check needs outputs");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    violations v = {out, capacity, 0};
    /* bindok and the graph */
    for (uint32_t slot = 0; slot < s->bodies.slot_count; slot++) {
        snug_body_data* b = s->bodies.items[slot];
        if (!b) continue;
        snug_place_body* r = snug_place_body_at(ps, s, slot);
        for (uint32_t i = 0; r && i < r->binding_count; i++) {
            double amount;
            snug_violation_kind kind;
            if (!snug_binding_holds(ctx, s, ps, &r->bindings[i], &amount, &kind))
                report(&v, kind, b->handle, r->bindings[i].supporter, i, amount);
        }
        if (r && r->binding_count && on_cycle(s, ps, slot)) report(&v, SNUG_VIOLATION_CYCLE, b->handle, 0, SNUG_NO_HIT, 0);
        if (r && r->oriented) {
            dvec w = dnorm(dpose_dir(dpose_f(&b->world), dv(r->orient_local)));
            double angle = atan2(dlen(dcross(w, dv(r->orient_world))), ddot(w, dv(r->orient_world)));
            if (angle > 1e-4) report(&v, SNUG_VIOLATION_ORIENTATION, b->handle, 0, SNUG_NO_HIT, angle);
        }
    }
    /* nokoll over the broad phase's pairs (they pass the scene's filters: two static bodies are never a pair) */
    snug_status st = snug_scene_sync(ctx, s);
    if (st) return st;
    for (uint32_t k = 0; k < s->bp.pairs.count; k++) {
        uint64_t key = s->bp.pairs.list[k];
        snug_body_data* a = snug_body_at(s, s->bp.proxies[snug_pair_lo(key)].user);
        snug_body_data* b = snug_body_at(s, s->bp.proxies[snug_pair_hi(key)].user);
        if (!snug_scene_pair_passes(s, a, b)) continue;
        snug_mesh_data* ma = snug_mesh_lookup(ctx, a->mesh);
        snug_mesh_data* mb = snug_mesh_lookup(ctx, b->mesh);
        if (!ma || !mb) return SNUG_ERR_STALE_HANDLE;
        dvec lift = snug_rest_lift(ctx, ps, a, ma, dpose_f(&a->world), b, snug_contact_lift(ps, a, ma, b, mb));
        bool hit = false;
        if ((st = snug_overlap_related(ctx, s, a, lift, b, &hit))) return st;
        if (hit) report(&v, SNUG_VIOLATION_OVERLAP, a->handle, b->handle, SNUG_NO_HIT, 0);
    }
    *total = v.total;
    if (v.total > capacity)
        return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "%u violations, capacity %u", v.total, capacity);
    return snug_succeed(ctx);
}
