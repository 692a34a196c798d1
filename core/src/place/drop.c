/* Pseudo-gravity (IConS §3.5.1, made to rest only where labels allow): a body that rests on nothing falls along -up
 * onto the nearest compatible offer below whose prism holds one of its binding surfaces, and binds there. The fall is
 * carried by the mover, so anything in the way stops it; a body it may not rest on (a couch over a chair, IConS
 * Fig. 5.16) is no rest, and the body stays where it was with that body named. */
#include <float.h>
#include <string.h>

#include "place/mover.h"
#include "place/seat.h"

#define MAX_LANDINGS 8

/* A landing: the seat moves the body down, not sideways or up. */
static bool falls_onto(const snug_seat* seat, const snug_group* g, const snug_place_scene* ps) {
    dvec up = dv(ps->def.up);
    double down = -ddot(seat->shift, up), across = dlen(dreject(seat->shift, up));
    return !(down < -1e-6 * g->radius || across > 1e-6 * (1.0 + g->radius));
}

/* Seats below the body, nearest first: offers of bodies under its box (a column down to everything below it) whose
 * prism holds a binding surface, reached by a fall. */
static snug_status landings(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                            snug_seat* out, uint32_t* count) {
    dvec up = dv(ps->def.up);
    double depth = 1e6;
    dvec lo = dmadd(g->lo, dxyz(fabs(up.x), fabs(up.y), fabs(up.z)), -depth);
    return snug_prism_seats(ctx, s, ps, g, lo, g->hi, false, falls_onto, out, MAX_LANDINGS, count);
}

snug_status snug_body_drop(snug_ctx* ctx, snug_scene scene, snug_body body, snug_drop_outcome* outcome,
                           snug_binding* landed, snug_body* blocker) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    if (!outcome) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "body_drop needs an outcome");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    if (blocker) *blocker = 0;
    snug_place_body* rec = snug_place_body_at(ps, s, b->slot);
    if (rec && rec->binding_count) {
        *outcome = SNUG_DROP_RESTING;
        if (landed) *landed = rec->bindings[0];
        return snug_succeed(ctx);
    }
    snug_group g;
    snug_status st = snug_group_gather(ctx, s, ps, b, &g);
    if (st) return st;
    snug_seat seats[MAX_LANDINGS];
    uint32_t count = 0;
    if ((st = landings(ctx, s, ps, &g, seats, &count))) return st;
    if (count == 0) {
        *outcome = SNUG_DROP_NOTHING_BELOW;
        return snug_succeed(ctx);
    }
    /* the fall to the nearest landing, carried by the mover: whatever it meets first is where it ends */
    const snug_seat* seat = &seats[0];
    double skin = ps->def.skin * g.radius;
    snug_dof fall = {.kind = SNUG_DOF_LINE, .line = dv(ps->def.up)};
    snug_mover_out mo = {0};
    dvec moved;
    if ((st = snug_mover_translate(ctx, s, ps, &g, &fall, NULL, 0, seat->shift, skin, &moved, &mo))) return st;
    if (dlen(dsub(moved, seat->shift)) > 2.0 * skin) {
        *outcome = SNUG_DROP_BLOCKED;
        if (blocker && mo.blocker_count) *blocker = mo.blockers[0].body;
        return snug_succeed(ctx);
    }
    bool free = false;
    snug_blocker who;
    if ((st = snug_group_free_at(ctx, s, ps, &g, seat->turn, seat->pivot, seat->shift, &seat->b, &free, &who, NULL))) return st;
    if (!free) {
        *outcome = SNUG_DROP_BLOCKED;
        if (blocker) *blocker = who.body;
        return snug_succeed(ctx);
    }
    if ((st = snug_seat_take(ctx, s, ps, &g, seat, false))) return st;
    *outcome = SNUG_DROP_LANDED;
    if (landed) *landed = seat->b;
    return snug_succeed(ctx);
}
