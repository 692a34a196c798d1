/* The mover (mover.c): a group's translation with slides, and its turns, stopped a skin before other bodies. */
#ifndef SNUG_MOVER_H
#define SNUG_MOVER_H

#include "place/align.h"
#include "place/place.h"

/* Bound pairs are tested with the group lifted this many skins off the binding plane: enough to part the resting
 * faces, little enough that a side a skin away (a shelf's side beside a book) is still met. */
#define SNUG_MOVER_LIFT 0.5

#define SNUG_MOVER_PATH_MAX 9 /* 1 + the most slides (snug_place_def.max_slides <= 8) */

/* A limit on the group's translation o that is not a body: n . o >= c (an offer's edge, move.c). */
typedef struct snug_limit {
    dvec n;
    double c;
} snug_limit;

typedef struct snug_mover_out {
    bool blocked, turn_blocked, started_overlapping, limited;
    uint32_t blocker_count;
    snug_blocker blockers[SNUG_MOVE_BLOCKERS_MAX];
    uint32_t path_count;               /* the corners of the way taken, from (0, 0, 0) to *moved */
    dvec path[SNUG_MOVER_PATH_MAX];
} snug_mover_out;

/* How far the group gets towards translation `want` (in the degrees of freedom dof, within the limits), sliding
 * along up to max_slides planes; *moved is the translation made. Nothing is moved here. */
snug_status snug_mover_translate(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                                 const snug_dof* dof, const snug_limit* limits, uint32_t limit_count, dvec want,
                                 double skin, dvec* moved, snug_mover_out* out);
/* At the end of a move call: keeps the contacts of its translation for the next call when left_there (nothing moved
 * the group after the translation), else forgets them. */
void snug_mover_seal(snug_scene_data* s, snug_place_scene* ps, bool left_there);
/* How far the group may turn by `angle` about the unit axis through pivot; *turned is the angle. */
snug_status snug_mover_turn(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                            dvec pivot, dvec axis, double angle, double skin, double* turned, snug_mover_out* out);

#endif
