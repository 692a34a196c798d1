/* Support of a bound polygon: the coplanar offers it may rest on while it slides (support.c). */
#ifndef SNUG_SUPPORT_H
#define SNUG_SUPPORT_H

#include "place/mover.h"

#define SNUG_SUPPORT_PIECES 16

typedef struct snug_support_piece {
    snug_body supporter;
    uint32_t offer;
    snug_poly2 poly;                   /* in the plane's coordinates */
} snug_support_piece;

typedef struct snug_support {
    uint32_t member;                   /* the group member whose binding this is */
    const snug_place_surface* binding; /* its binding surface (mesh frame) */
    snug_label label;
    double margin;                     /* the overhang allowed, world units */
    double eps;                        /* what float poses may add to it (snug_surface_allowance) */
    double placed;                     /* how far placement may take the polygon (snug_placement_margin) */
    snug_world_surface plane;          /* the recorded offer at gather time: plane, basis and origin */
    uint32_t count;                    /* pieces; [0] is the recorded offer */
    snug_support_piece pieces[SNUG_SUPPORT_PIECES];
} snug_support;

/* The support of binding bd of a body with mesh `mesh` (member `member` of the moving group, or 0): its offer and
 * the supporter's coplanar offers whose label fits. */
snug_status snug_support_gather(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, uint32_t member,
                                snug_mesh_data* mesh, const snug_binding* bd, snug_support* sp);
/* Does the binding polygon, with its member at this pose, lie in the union of the pieces? With slack, poses read
 * back from float count as in when they are out by rounding (is the body supported now?); without, the polygon must
 * stay within the placement margin (where a clamp, a seat or a bisection may take the body: its rounding, there or
 * wherever its supporter carries it, stays within the slack). */
bool snug_support_holds(const snug_support* sp, dpose member_pose, bool slack);
/* The piece the polygon overlaps most at this pose (ties keep the recorded offer). */
uint32_t snug_support_main_piece(const snug_support* sp, dpose member_pose);
/* The edges of the feasible region (without slack) of a one-piece support for a member at this pose, as limits
 * n . t >= c on the translation t (mover.h); returns their count (at most SNUG_SURFACE_MAX_VERTICES + 4). */
uint32_t snug_support_limits(const snug_support* sp, dpose member_pose, snug_limit* out);
/* The in-plane translation nearest to t that keeps the polygon inside a single piece, without slack (zero when none
 * can). */
dvec snug_support_clamp(const snug_support* sp, dpose member_pose, dvec t);

#endif
