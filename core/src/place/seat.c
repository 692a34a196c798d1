/* Seats (IConS Alg. 1-2 made exact): turn a body so that its binding normal becomes the offer's normal, move it
 * onto the offer's plane, place it in the plane, and check that the group is free there. Also the binding records
 * and the hierarchy that follows them, and the explicit bind / unbind calls. */
#include <string.h>

#include "place/align.h"
#include "place/seat.h"

static const snug_place_surface* surface_of(snug_mesh_data* m, uint32_t index, snug_surface_kind kind) {
    const snug_place_surfaces* ss = m ? snug_mesh_surfaces(m) : NULL;
    return ss && index < ss->count && ss->items[index].s.kind == kind ? &ss->items[index] : NULL;
}

/* The directions the group must keep while seating: orientation constraints, the other bindings of the body (when
 * kept) and every binding of the other members on bodies outside the group. */
static uint32_t kept_axes(snug_place_scene* ps, const snug_scene_data* s, const snug_group* g, bool keep_others,
                          dvec* axes) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < g->count; i++) {
        snug_place_body* r = snug_place_body_at(ps, s, g->members[i].body->slot);
        if (r && r->oriented && n < 64) axes[n++] = dnorm(dv(r->orient_world));
    }
    for (uint32_t e = 0; e < g->ext_count; e++) {
        if (g->ext[e].member == 0 && !keep_others) continue;
        const snug_member* m = &g->members[g->ext[e].member];
        const snug_place_surface* b = surface_of(m->mesh, g->ext[e].b.binding, SNUG_SURFACE_BINDING);
        if (b && n < 64) axes[n++] = dnorm(dpose_dir(m->pose, dv(b->s.normal)));
    }
    return n;
}

bool snug_seat_find(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g, uint32_t binding,
                    snug_body_data* supporter, uint32_t offer, const snug_seat_anchor* anchor, bool keep_others,
                    snug_seat* out) {
    const snug_member* m0 = &g->members[0];
    const snug_place_surface* B = surface_of(m0->mesh, binding, SNUG_SURFACE_BINDING);
    const snug_place_surface* A =
        surface_of(snug_pool_get(&ctx->meshes, supporter->mesh), offer, SNUG_SURFACE_OFFER);
    if (!B || !A || !snug_label_fits(ps, B->s.label, A->s.label)) return false;
    if (snug_group_has(ps, g, supporter->slot)) return false; /* the supporter moves with the body: a cycle */
    snug_world_surface Aw;
    snug_world_surface_at(A, dpose_f(&supporter->world), &Aw);
    dvec x = dnorm(dpose_dir(m0->pose, dv(B->s.normal))), y = Aw.n;
    dvec pivot = dpose_point(m0->pose, B->centroid);
    dvec axes[64];
    snug_turn turn = snug_turn_of(axes, kept_axes(ps, s, g, keep_others, axes));
    dquat q;
    if (turn.kind == SNUG_TURN_NONE) {
        if (ddot(x, y) < 1.0 - 1e-9) return false;
        q = dq_identity();
    } else if (!snug_align_rotation(x, y, turn.kind == SNUG_TURN_AXIS ? &turn.axis : NULL, dv(ps->def.up), &q)) {
        return false;
    }
    dpose p1 = dpose_turn(m0->pose, q, pivot);
    dvec onto = dscale(y, ddot(dsub(Aw.origin, dpose_point(p1, B->centroid)), y));
    dpose p2 = p1;
    p2.p = dadd(p1.p, onto);
    snug_poly2 b; /* the binding polygon in the offer's plane coordinates */
    snug_surface_in_plane(B, p2, &Aw, &b);
    snug_poly2 offer_poly;
    snug_world_surface_polygon(&Aw, &offer_poly);
    snug_poly2 f;
    double margin = snug_placement_margin(ps->def.overhang * B->radius, &Aw, B->radius);
    snug_feasible_region(&offer_poly, b.x, b.y, b.n, margin, &f);
    if (f.n == 0) return false; /* the polygon is larger than the offer */
    double wx = 0.0, wy = 0.0;
    if (anchor->rule == SNUG_SEAT_POINTER) {
        dvec grab = dpose_point(p2, anchor->grab), o = dv(anchor->ray.origin), d = dv(anchor->ray.dir);
        double denom = ddot(d, y);
        if (fabs(denom) < 1e-9 * dlen(d)) return false;
        double t = ddot(dsub(grab, o), y) / denom;
        if (!(t >= 0.0)) return false;
        dvec want = dsub(dmadd(o, d, t), grab);
        wx = ddot(want, Aw.u);
        wy = ddot(want, Aw.v);
    }
    double cx = 0.0, cy = 0.0;
    if (anchor->rule == SNUG_SEAT_PRISM) {
        if (!snug_poly2_contains(&f, 0.0, 0.0, 1e-9 * (Aw.radius + B->radius))) return false;
    } else {
        snug_poly2_closest(&f, wx, wy, &cx, &cy);
    }
    dvec slide = dadd(dscale(Aw.u, cx), dscale(Aw.v, cy));
    out->b = (snug_binding){m0->body->handle, binding, supporter->handle, offer};
    out->turn = q;
    out->pivot = pivot;
    out->shift = dadd(onto, slide);
    out->distance = dlen(out->shift);
    return true;
}

void snug_seats_keep(snug_seat* seats, uint32_t* count, uint32_t cap, const snug_seat* seat) {
    if (*count == cap && seat->distance >= seats[cap - 1].distance) return;
    uint32_t at = *count < cap ? (*count)++ : cap - 1;
    while (at > 0 && seats[at - 1].distance > seat->distance) seats[at] = seats[at - 1], at--;
    seats[at] = *seat;
}

snug_status snug_prism_seats(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g, dvec lo,
                             dvec hi, bool keep_others, snug_seat_keep_fn keep, snug_seat* seats, uint32_t cap,
                             uint32_t* count) {
    *count = 0;
    const snug_place_surfaces* bs = snug_mesh_surfaces(g->members[0].mesh);
    if (!bs) return SNUG_OK;
    snug_place_body* rec = snug_place_body_at(ps, s, g->members[0].body->slot);
    snug_body_data** near;
    uint32_t n;
    snug_status st = snug_group_neighbours(ctx, s, ps, g, lo, hi, &near, &n);
    if (st) return st;
    const snug_seat_anchor prism = {.rule = SNUG_SEAT_PRISM};
    for (uint32_t b = 0; b < bs->count; b++) {
        if (bs->items[b].s.kind != SNUG_SURFACE_BINDING) continue;
        bool bound = false;
        for (uint32_t i = 0; rec && i < rec->binding_count; i++) bound |= rec->bindings[i].binding == b;
        if (bound) continue;
        for (uint32_t k = 0; k < n; k++) {
            snug_mesh_data* om = snug_pool_get(&ctx->meshes, near[k]->mesh);
            const snug_place_surfaces* os = om ? snug_mesh_surfaces(om) : NULL;
            for (uint32_t a = 0; os && a < os->count; a++) {
                if (os->items[a].s.kind != SNUG_SURFACE_OFFER) continue;
                snug_seat seat;
                if (!snug_seat_find(ctx, s, ps, g, b, near[k], a, &prism, keep_others, &seat)) continue;
                if (keep(&seat, g, ps)) snug_seats_keep(seats, count, cap, &seat);
            }
        }
    }
    return SNUG_OK;
}

/* Does member m (already turned and shifted) touch body c, which it is not bound to? */
static snug_status member_blocked(snug_ctx* ctx, snug_place_scene* ps, const snug_member* m, snug_body_data* c,
                                  const snug_binding* seat, bool first, snug_overlap_hint* hint, bool* hit) {
    snug_mesh_data* cm = snug_pool_get(&ctx->meshes, c->mesh);
    if (!cm) return snug_fail(ctx, SNUG_ERR_STALE_HANDLE, "body 0x%08x has no mesh", c->handle);
    double gap = snug_contact_lift(ps, m->body, m->mesh, c, cm);
    dvec lift = snug_rest_lift(ctx, ps, m->body, m->mesh, m->pose, c, gap);
    if (seat && first && c->handle == seat->supporter) {
        const snug_place_surface* A = surface_of(cm, seat->offer, SNUG_SURFACE_OFFER);
        if (A) lift = dmadd(lift, dnorm(dpose_dir(dpose_f(&c->world), dv(A->s.normal))), gap);
    }
    dpose lifted = m->pose;
    lifted.p = dadd(lifted.p, lift);
    return snug_overlap_in_frame(ctx, m->body, lifted, c, hit, hint);
}

snug_status snug_group_free_at(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                               dquat turn, dvec pivot, dvec shift, const snug_binding* seat, bool* free,
                               snug_blocker* blocker, snug_overlap_hint* hint) {
    *free = true;
    dvec lo = dxyz(INFINITY, INFINITY, INFINITY), hi = dxyz(-INFINITY, -INFINITY, -INFINITY);
    for (uint32_t i = 0; i < g->count; i++) {
        dpose p = dpose_turn(g->members[i].pose, turn, pivot);
        p.p = dadd(p.p, shift);
        snug_pose pf = dpose_store(p);
        float l[3], h[3];
        snug_body_world_box(g->members[i].body, &pf, l, h);
        lo = dxyz(fmin(lo.x, l[0]), fmin(lo.y, l[1]), fmin(lo.z, l[2]));
        hi = dxyz(fmax(hi.x, h[0]), fmax(hi.y, h[1]), fmax(hi.z, h[2]));
    }
    snug_body_data** near;
    uint32_t count;
    snug_status st = snug_group_neighbours(ctx, s, ps, g, lo, hi, &near, &count);
    if (st) return st;
    /* what blocked the last pose blocks most nearby ones too: the hint's pair of bodies first, then the others, and
     * the seat's supporter last (the group stands on it lifted, so it rarely blocks, and its test, over the whole
     * near contact, costs most) */
    for (int pass = hint ? 0 : 1; pass < 3; pass++) {
        for (uint32_t i = 0; i < g->count; i++) {
            snug_member m = g->members[i];
            m.pose = dpose_turn(m.pose, turn, pivot);
            m.pose.p = dadd(m.pose.p, shift);
            for (uint32_t k = 0; k < count; k++) {
                snug_body_data* c = near[k];
                bool hinted = hint && hint->a == m.body->handle && hint->b == c->handle;
                bool under = seat && i == 0 && c->handle == seat->supporter;
                if (pass != (hinted ? 0 : under ? 2 : 1) || !snug_scene_pair_passes(s, m.body, c)) continue;
                bool hit = false;
                if ((st = member_blocked(ctx, ps, &m, c, seat, i == 0, hint, &hit))) return st;
                if (!hit) continue;
                *free = false;
                if (blocker) {
                    memset(blocker, 0, sizeof *blocker);
                    blocker->body = c->handle;
                    blocker->by = m.body->handle;
                    dstore_f(m.pose.p, blocker->point);
                }
                return SNUG_OK;
            }
        }
    }
    return SNUG_OK;
}

/* The binding of a record whose offer faces most nearly up: the body's main support, and its parent. */
static int main_binding(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_binding* list,
                        uint32_t count) {
    int best = -1;
    double best_up = -INFINITY;
    dvec up = dv(ps->def.up);
    for (uint32_t i = 0; i < count; i++) {
        snug_body_data* sup = snug_pool_get(&s->bodies, list[i].supporter);
        const snug_place_surface* A =
            sup ? surface_of(snug_pool_get(&ctx->meshes, sup->mesh), list[i].offer, SNUG_SURFACE_OFFER) : NULL;
        if (!A) continue;
        double d = ddot(dpose_dir(dpose_f(&sup->world), dv(A->s.normal)), up);
        if (d > best_up + 1e-9) best_up = d, best = (int)i;
    }
    return best;
}

snug_status snug_bindings_set(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, snug_body_data* b,
                              const snug_binding* list, uint32_t count) {
    if (count > SNUG_BINDINGS_MAX)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "a body rests with at most %u bindings", SNUG_BINDINGS_MAX);
    snug_place_body* r = snug_place_body_of(ctx, ps, b);
    if (!r) return SNUG_ERR_OUT_OF_MEMORY;
    int old_main = main_binding(ctx, s, ps, r->bindings, r->binding_count);
    snug_body old_sup = old_main >= 0 ? r->bindings[old_main].supporter : 0;
    int new_main = main_binding(ctx, s, ps, list, count);
    snug_body parent = b->parent == SNUG_NONE ? 0 : snug_body_at(s, b->parent)->handle;
    snug_status st = SNUG_OK;
    if (new_main >= 0 && parent != list[new_main].supporter)
        st = snug_body_set_parent(ctx, s->handle, b->handle, list[new_main].supporter, true);
    else if (new_main < 0 && old_sup && parent == old_sup)
        st = snug_body_set_parent(ctx, s->handle, b->handle, 0, true);
    if (st) return st;
    if (count) memmove(r->bindings, list, count * sizeof *list);
    r->binding_count = count;
    return SNUG_OK;
}

snug_status snug_seat_take(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                           const snug_seat* seat, bool keep_others) {
    const snug_member* m0 = &g->members[0];
    if (!snug_group_in_range(g, seat->turn, seat->pivot, seat->shift))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                         "the seat on body 0x%08x would carry body 0x%08x beyond its group's placement range +-%g",
                         seat->b.supporter, m0->body->handle, snug_group_range(g));
    dpose p = dpose_turn(m0->pose, seat->turn, seat->pivot);
    p.p = dadd(p.p, seat->shift);
    snug_pose pose = dpose_store(p);
    snug_status st = snug_body_set_pose(ctx, s->handle, m0->body->handle, &pose);
    if (st) return st;
    snug_binding list[SNUG_BINDINGS_MAX];
    uint32_t n = 0;
    snug_place_body* r = snug_place_body_at(ps, s, m0->body->slot);
    /* the others that still hold there: a seat on a block lifts a table's feet off the floor */
    if (keep_others && r)
        for (uint32_t i = 0; i < r->binding_count && n < SNUG_BINDINGS_MAX - 1; i++)
            if (r->bindings[i].binding != seat->b.binding && snug_binding_holds(ctx, s, ps, &r->bindings[i], NULL, NULL))
                list[n++] = r->bindings[i];
    list[n++] = seat->b;
    if ((st = snug_bindings_set(ctx, s, ps, m0->body, list, n))) return st;
    /* the pose again, now below its new supporter: below the old parent, far away (a table carried 530 m off with
     * the body on it), the child's float local pose rounded it by half a float step there, out of its offer */
    return snug_body_set_pose(ctx, s->handle, m0->body->handle, &pose);
}

snug_status snug_body_bind(snug_ctx* ctx, snug_scene scene, snug_body body, uint32_t binding, snug_body supporter,
                           uint32_t offer) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    snug_body_data* sup = snug_body_lookup(ctx, s, supporter);
    if (!sup) return SNUG_ERR_STALE_HANDLE;
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    snug_mesh_data* bm = snug_mesh_lookup(ctx, b->mesh);
    snug_mesh_data* sm = snug_mesh_lookup(ctx, sup->mesh);
    if (!bm || !sm) return SNUG_ERR_STALE_HANDLE;
    if (!surface_of(bm, binding, SNUG_SURFACE_BINDING))
        return snug_fail(ctx, SNUG_ERR_INDEX_RANGE, "bind: surface %u of body 0x%08x is not a binding surface", binding,
                         body);
    const snug_place_surface* A = surface_of(sm, offer, SNUG_SURFACE_OFFER);
    if (!A)
        return snug_fail(ctx, SNUG_ERR_INDEX_RANGE, "bind: surface %u of body 0x%08x is not an offer", offer, supporter);
    const snug_place_surface* B = &snug_mesh_surfaces(bm)->items[binding];
    if (!snug_label_fits(ps, B->s.label, A->s.label))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "bind: label %u of the binding does not fit label %u of the offer",
                         B->s.label, A->s.label);
    snug_group g;
    snug_status st = snug_group_gather(ctx, s, ps, b, &g);
    if (st) return st;
    if (snug_group_has(ps, &g, sup->slot))
        return snug_fail(ctx, SNUG_ERR_CYCLE, "bind: body 0x%08x carries 0x%08x (it would rest on itself)", body,
                         supporter);
    snug_seat seat;
    const snug_seat_anchor clamp = {.rule = SNUG_SEAT_CLAMP};
    if (!snug_seat_find(ctx, s, ps, &g, binding, sup, offer, &clamp, true, &seat))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                         "bind: the binding cannot be laid on that offer (its polygon is larger, or its other bindings "
                         "and orientation forbid the turn)");
    bool free = false;
    snug_blocker blocker;
    if ((st = snug_group_free_at(ctx, s, ps, &g, seat.turn, seat.pivot, seat.shift, &seat.b, &free, &blocker, NULL)))
        return st;
    if (!free)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "bind: body 0x%08x would overlap body 0x%08x there", body,
                         blocker.body);
    if ((st = snug_seat_take(ctx, s, ps, &g, &seat, true))) return st;
    return snug_succeed(ctx);
}

snug_status snug_body_set_bindings(snug_ctx* ctx, snug_scene scene, snug_body body, const snug_binding* list,
                                   uint32_t count) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    if (count && !list) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "set_bindings: list is NULL");
    if (count > SNUG_BINDINGS_MAX)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "set_bindings: %u bindings (a body rests with at most %u)",
                         count, SNUG_BINDINGS_MAX);
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    snug_group g;
    snug_status st = snug_group_gather(ctx, s, ps, b, &g);
    if (st) return st;
    snug_binding own[SNUG_BINDINGS_MAX];
    for (uint32_t i = 0; i < count; i++) {
        own[i] = list[i];
        own[i].body = body;
        snug_body_data* sup = snug_body_lookup(ctx, s, own[i].supporter);
        if (!sup) return SNUG_ERR_STALE_HANDLE;
        if (snug_group_has(ps, &g, sup->slot))
            return snug_fail(ctx, SNUG_ERR_CYCLE, "set_bindings: binding %u: body 0x%08x carries its supporter 0x%08x",
                             i, body, own[i].supporter);
        for (uint32_t j = 0; j < i; j++)
            if (own[j].binding == own[i].binding)
                return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                                 "set_bindings: bindings %u and %u both use binding surface %u", j, i, own[i].binding);
        double amount;
        snug_violation_kind kind;
        if (snug_binding_holds(ctx, s, ps, &own[i], &amount, &kind)) continue;
        switch (kind) {
        case SNUG_VIOLATION_STALE:
            return snug_fail(ctx, SNUG_ERR_INDEX_RANGE,
                             "set_bindings: binding %u: surface %u is not a binding of the body or %u not an offer of "
                             "the supporter", i, own[i].binding, own[i].offer);
        case SNUG_VIOLATION_LABEL:
            return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                             "set_bindings: binding %u: the binding's label does not fit the offer's", i);
        case SNUG_VIOLATION_CONTAINMENT:
            return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                             "set_bindings: binding %u: the binding polygon reaches past the offer", i);
        default:
            return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                             "set_bindings: binding %u: the binding does not lie on the offer's plane (off by %g)", i,
                             amount);
        }
    }
    if ((st = snug_bindings_set(ctx, s, ps, b, own, count))) return st;
    return snug_succeed(ctx);
}

/* Would lifting the group by `lift` close in on a body resting on it, or it on that body, along their rest normal? A
 * resting pair must not (as the mover keeps it from it, mover.c rest_planes): the free test parts resting pairs by
 * their contact lift, which far out (a few float steps of the coordinates) exceeds a lift of a skin, so a block
 * unbound 352 m out rose 3e-4 into a lamp standing unbound on it, and the pose stored in float came out touching it
 * (fuzz_place). */
static snug_status lift_closes_in(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                                  dvec lift, bool* closes) {
    *closes = false;
    dvec grow = dxyz(dlen(lift), dlen(lift), dlen(lift));
    snug_body_data** near;
    uint32_t count;
    snug_status st = snug_group_neighbours(ctx, s, ps, g, dsub(g->lo, grow), dadd(g->hi, grow), &near, &count);
    for (uint32_t i = 0; !st && i < g->count && !*closes; i++)
        for (uint32_t k = 0; k < count && !*closes; k++) {
            snug_rest_relation rel[8];
            const snug_member* m = &g->members[i];
            uint32_t n = snug_rest_relations(ctx, ps, m->body, m->mesh, m->pose, near[k], rel, 8);
            for (uint32_t j = 0; j < n; j++) *closes |= ddot(rel[j].part, lift) < 0.0;
        }
    return st;
}

snug_status snug_lift_off(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, snug_body_data* b, snug_group* g) {
    snug_place_body* rec = snug_place_body_at(ps, s, b->slot);
    if (!rec || !rec->binding_count) return SNUG_OK;
    const snug_place_surfaces* bs = snug_mesh_surfaces(g->members[0].mesh);
    dvec lift = dxyz(0, 0, 0);
    for (uint32_t i = 0; i < rec->binding_count; i++)
        lift = dadd(lift, dpose_dir(g->members[0].pose, dv(bs->items[rec->bindings[i].binding].s.normal)));
    lift = dscale(dnorm(lift), ps->def.skin * g->radius);
    bool free = false, closes = false;
    snug_status st = snug_group_free_at(ctx, s, ps, g, dq_identity(), g->centre, lift, NULL, &free, NULL, NULL);
    if (!st && free) st = lift_closes_in(ctx, s, ps, g, lift, &closes);
    if (st || !free || closes || !(dlen(lift) > 0.0) || !snug_group_in_range(g, dq_identity(), g->centre, lift))
        return st;
    dpose p = g->members[0].pose;
    p.p = dadd(p.p, lift);
    snug_pose pf = dpose_store(p);
    if ((st = snug_body_set_pose(ctx, s->handle, b->handle, &pf))) return st;
    if ((st = snug_bindings_set(ctx, s, ps, b, NULL, 0))) return st;
    return snug_group_gather(ctx, s, ps, b, g);
}

snug_status snug_body_unbind(snug_ctx* ctx, snug_scene scene, snug_body body) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    snug_group g;
    snug_status st = snug_group_gather(ctx, s, ps, b, &g);
    if (st || (st = snug_lift_off(ctx, s, ps, b, &g))) return st;
    /* boxed in (no room to lift it): the bindings still go, and the check will show the contact that is left */
    if ((st = snug_bindings_set(ctx, s, ps, b, NULL, 0))) return st;
    return snug_succeed(ctx);
}
