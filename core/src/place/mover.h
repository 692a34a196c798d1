/* The mover (mover.c): a group's translation with slides, and its turns, stopped a skin before other bodies. */
#ifndef SNUG_MOVER_H
#define SNUG_MOVER_H

#include "place/align.h"
#include "place/place.h"

/* Bound pairs are tested with the group lifted this many skins off the binding plane: enough to part the resting
 * faces, little enough that a side a skin away (a shelf's side beside a book) is still met. */
#define SNUG_MOVER_LIFT 0.5

typedef struct snug_mover_out {
    bool blocked, turn_blocked, started_overlapping;
    uint32_t blocker_count;
    snug_blocker blockers[SNUG_MOVE_BLOCKERS_MAX];
} snug_mover_out;

/* How far the group gets towards translation `want` (in the degrees of freedom dof), sliding along up to
 * max_slides planes; *moved is the translation made. Nothing is moved here. */
snug_status snug_mover_translate(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                                 const snug_dof* dof, dvec3 want, double skin, dvec3* moved, snug_mover_out* out);
/* How far the group may turn by `angle` about the unit axis through pivot; *turned is the angle. */
snug_status snug_mover_turn(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                            dvec3 pivot, dvec3 axis, double angle, double skin, double* turned, snug_mover_out* out);

#endif
