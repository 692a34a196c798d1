/* Seats: where a body would stand with one of its bindings satisfied on an offer, whether the group would be free
 * there, and the binding records with the hierarchy that follows them (seat.c). */
#ifndef SNUG_SEAT_H
#define SNUG_SEAT_H

#include "place/place.h"

typedef struct snug_seat {
    snug_binding b;
    dquat turn;                        /* the group's rotation about pivot ... */
    dvec pivot;
    dvec shift;                       /* ... then its translation */
    double distance;                   /* how far the binding polygon's centre moves (IConS's |t|) */
} snug_seat;

/* Where to put the seated body in the offer's plane. */
typedef enum snug_seat_rule {
    SNUG_SEAT_PRISM,                   /* the polygon's centre where it projects; the polygon must already lie inside
                                        * the offer's prism (IConS's rule, no jump sideways) */
    SNUG_SEAT_CLAMP,                   /* the centre where it projects, moved the least into the offer */
    SNUG_SEAT_POINTER                  /* the grabbed point under the pointer ray, moved the least into the offer */
} snug_seat_rule;

typedef struct snug_seat_anchor {
    snug_seat_rule rule;
    snug_ray ray;                      /* SNUG_SEAT_POINTER */
    dvec grab;                        /* SNUG_SEAT_POINTER: body frame */
} snug_seat_anchor;

/* The seat of the group's body (member 0) with binding surface `binding` on offer `offer` of `supporter`, keeping
 * the body's other bindings when keep_others (the turn is then about their normal, or none with two). false when the
 * labels, a cycle, the orientation constraints or the offer's size rule it out. */
bool snug_seat_find(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g, uint32_t binding,
                    snug_body_data* supporter, uint32_t offer, const snug_seat_anchor* anchor, bool keep_others,
                    snug_seat* out);

/* Keep the `cap` nearest seats in ascending distance: insert seat if it is among them. */
void snug_seats_keep(snug_seat* seats, uint32_t* count, uint32_t cap, const snug_seat* seat);

/* Seats by the prism rule of the body's binding surfaces it is not bound with, on the offers of the bodies (outside
 * the group) whose boxes meet [lo, hi]: the `cap` nearest that `keep` accepts, in ascending distance (the snap of a
 * moved body, the landings of a dropped one). */
typedef bool (*snug_seat_keep_fn)(const snug_seat* seat, const snug_group* g, const snug_place_scene* ps);
snug_status snug_prism_seats(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g, dvec lo,
                             dvec hi, bool keep_others, snug_seat_keep_fn keep, snug_seat* seats, uint32_t cap,
                             uint32_t* count);

/* Is the group free (touching nothing it is not bound to) after turning by turn about pivot and shifting by shift?
 * `seat` (or NULL) is a binding it would have there. On false, *blocker (optional) names a body it would touch.
 * hint (optional): the pair that blocked the caller's last pose, tested first; on false, the pair that blocks. */
snug_status snug_group_free_at(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                               dquat turn, dvec pivot, dvec shift, const snug_binding* seat, bool* free,
                               snug_blocker* blocker, snug_overlap_hint* hint);

/* Move the group's body by the seat's motion (its subtree follows) and record the binding (replacing the body's
 * bindings, or with keep_others those that still hold at the new pose). */
snug_status snug_seat_take(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                           const snug_seat* seat, bool keep_others);

/* Break the body's bindings and lift it (with the group g it heads, gathered again after) a skin off their planes,
 * so that it floats clear of what it rested on; where there is no room for the lift nothing changes. */
snug_status snug_lift_off(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, snug_body_data* b, snug_group* g);

/* Replace a body's binding records; its parent becomes the supporter of its main binding (the one whose normal is
 * nearest to up), or the root when it had one from a binding and has none now. */
snug_status snug_bindings_set(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, snug_body_data* b,
                              const snug_binding* list, uint32_t count);

#endif
