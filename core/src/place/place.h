/* The placement layer's state and the pieces its files share.
 *
 * Surfaces hang on meshes (snug_mesh_data.place), the rest on scenes (snug_scene_data.place): the label table,
 * the settings and, per body slot, its bindings and orientation constraint. Body records are checked against the
 * body's handle on every use, so a body destroyed through the scene API (which knows nothing of placement) leaves
 * no binding behind: records of a reused slot start empty, and bindings to a destroyed supporter are dropped
 * (snug_place_prune) before any placement call reads them. */
#ifndef SNUG_PLACE_H
#define SNUG_PLACE_H

#include <float.h>

#include "place/pmath.h"
#include "scene/scene.h"

/* A mesh's surfaces with what every placement call would otherwise recompute. */
typedef struct snug_place_surface {
    snug_surface s;
    dvec centroid;                    /* of the polygon's vertices, mesh frame */
    double radius;                     /* farthest vertex from the centroid */
} snug_place_surface;

typedef struct snug_place_surfaces {
    uint32_t count;
    snug_place_surface items[];
} snug_place_surfaces;

typedef struct snug_place_body {
    snug_body handle;                  /* 0: no record for this slot yet */
    uint32_t binding_count;
    snug_binding bindings[SNUG_BINDINGS_MAX];
    bool oriented;
    float orient_local[3], orient_world[3];
} snug_place_body;

/* A plane a translation ended pressed against: n . o >= c for the group's offset o from where it ended. */
typedef struct snug_mover_contact {
    dvec n;
    double c;
    snug_body body;                   /* the other body */
    snug_pose body_pose;              /* its world pose then */
    float point[3];
} snug_mover_contact;

#define SNUG_MOVER_MEMORY_CONTACTS 8

/* A body the group ended a translation clear of, and where it was. */
typedef struct snug_mover_neighbour {
    snug_body body;
    snug_pose pose;
} snug_mover_neighbour;

/* What the last translation of a lone body ended pressed against and clear of, for the next while nothing has moved
 * (mover.c). */
typedef struct snug_mover_memory {
    bool pending, sealed;
    snug_body member;
    snug_pose member_pose;            /* where the call left it, when sealed */
    uint32_t contact_count, neighbour_count;
    snug_mover_contact contacts[SNUG_MOVER_MEMORY_CONTACTS];
    snug_buffer neighbours;           /* snug_mover_neighbour[neighbour_count] */
} snug_mover_memory;

typedef struct snug_place_scene {
    snug_place_def def;
    uint32_t label_count;
    char names[SNUG_LABEL_MAX][SNUG_LABEL_NAME_MAX];
    uint64_t fits[SNUG_LABEL_MAX];     /* bit o of fits[b]: a binding labelled b may rest on an offer labelled o */
    snug_place_body* bodies;           /* per body slot */
    uint32_t body_cap;
    uint32_t* stamps;                  /* per body slot: the call that last marked it (group membership) */
    uint32_t stamp_cap, stamp;
    snug_buffer group;                 /* the moving group's members and external bindings (group.c) */
    snug_buffer near;                  /* bodies near the group (snug_group_neighbours) */
    snug_buffer pairs;                 /* the mover's per member and neighbour state */
    snug_mover_memory memory;          /* the mover's contacts from the last move call */
    snug_body loose;                   /* during a free-mode move, the moved body: its own bindings restrict
                                        * nothing, so they do not make it rest either (group.c rests_on) */
    snug_buffer undo;                  /* the snapshot a delete restores when one of its steps fails */
    snug_buffer journal;               /* snug_place_record[journal_count] while journaling (journal.c) */
    uint32_t journal_count;
    bool journaling;
} snug_place_scene;

/* A binding record as it was before a change (journal.c). */
typedef struct snug_place_record {
    uint32_t slot;
    snug_place_body body;
} snug_place_record;

/* The scene's placement state, made with the defaults on first use; NULL after recording OUT_OF_MEMORY. */
snug_place_scene* snug_place_state(snug_ctx* ctx, snug_scene_data* s);
/* The body's record (empty for a new body in a reused slot), to change; NULL after recording OUT_OF_MEMORY. While
 * journaling, its state before is journaled first. */
snug_place_body* snug_place_body_of(snug_ctx* ctx, snug_place_scene* ps, const snug_body_data* b);

/* journal.c: a move changes the scene in steps (bindings broken in free mode, a re-seat, a turn, then the slide),
 * any of which can fail (out of memory). While journaling, each change first records what it changes, the binding
 * records here and the hierarchy in the scene (snug_hierarchy_record): work proportional to the bodies the call
 * touches, where a snapshot of the scene cost as much as the whole move of a body in the open. Rolling back puts
 * every record back, newest first, and cannot fail. */
void snug_place_journal_begin(snug_scene_data* s, snug_place_scene* ps);
void snug_place_journal_end(snug_scene_data* s, snug_place_scene* ps);
void snug_place_rollback(snug_scene_data* s, snug_place_scene* ps);
/* Record slot's binding record before a change (journal.c; no-op when not journaling). */
snug_status snug_place_journal_note(snug_ctx* ctx, snug_place_scene* ps, uint32_t slot);
/* The record of a slot if it belongs to the live body there, else NULL (no allocation). */
snug_place_body* snug_place_body_at(snug_place_scene* ps, const snug_scene_data* s, uint32_t slot);
/* Drop bindings whose supporter, mesh or surfaces are gone. */
void snug_place_prune(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps);

/* group.c: a body with everything that moves with it (its subtree), and the bodies around it. */
typedef struct snug_member {
    snug_body_data* body;
    snug_mesh_data* mesh;
    dpose pose;                        /* world pose when the group was gathered */
} snug_member;

/* A satisfied binding of a member on a body outside the group: it restricts the group's motion. */
typedef struct snug_ext_binding {
    uint32_t member;
    uint32_t record;                   /* index into the member's binding record */
    snug_binding b;
} snug_ext_binding;

typedef struct snug_group {
    uint32_t count;                    /* members; [0] is the body the call moves */
    snug_member* members;
    uint32_t ext_count;
    snug_ext_binding* ext;
    dvec lo, hi;                      /* world box of the members */
    dvec centre;
    double radius;                     /* of the box, about centre */
    uint32_t stamp;                    /* members carry this stamp in ps->stamps */
} snug_group;

/* Gather body b's group (ps->group holds it until the next gather). */
snug_status snug_group_gather(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, snug_body_data* b,
                              snug_group* g);
static inline bool snug_group_has(const snug_place_scene* ps, const snug_group* g, uint32_t slot) {
    return slot < ps->stamp_cap && ps->stamps[slot] == g->stamp;
}
/* Refresh member poses and the box after the group moved. */
void snug_group_refresh(snug_group* g);
/* Enabled bodies outside the group (g NULL: any) whose world boxes meet [lo, hi]; written into ps->near (valid
 * until its next use). */
snug_status snug_group_neighbours(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                                  dvec lo, dvec hi, snug_body_data*** out, uint32_t* count);
/* The offset that parts body a (mesh ma, at pose pa) from body b where one rests on the other: `gap` along the
 * normal of each offer of b on whose plane a binding surface of a lies that may rest there (label), facing it and
 * bound to it or over it (the polygons overlap), and against the normal of each offer of a on which a binding
 * surface of b lies so. Bound or not: a back flat against a wall it may lean on is resting there, which is what lets
 * a bookcase standing against a wall be bound to the floor and then to the wall. Zero when neither rests on the
 * other: then touching is a collision. */
dvec snug_rest_lift(snug_ctx* ctx, const snug_place_scene* ps, const snug_body_data* a, const snug_mesh_data* ma,
                    dpose pa, const snug_body_data* b, double gap);
/* snug_rest_lift, for a turning about omega (axis times angular speed) through pivot: also the least speed at which
 * a contact point (a vertex of a resting polygon, moving with a) parts along the lift, negative where the turn takes
 * a into b (*at: that point), INFINITY when neither rests on the other. */
dvec snug_rest_turning(snug_ctx* ctx, const snug_place_scene* ps, const snug_body_data* a, const snug_mesh_data* ma,
                       dpose pa, const snug_body_data* b, double gap, dvec pivot, dvec omega, double* parting,
                       dvec* at);
/* A direction in which a resting pair parts (an offer's normal, or against it), and the centre of a binding polygon
 * resting that way. */
typedef struct snug_rest_relation {
    dvec part;
    dvec at;
} snug_rest_relation;
/* The distinct directions of the relations snug_rest_lift adds up, at most cap of them into out; returns how many
 * were written. */
uint32_t snug_rest_relations(snug_ctx* ctx, const snug_place_scene* ps, const snug_body_data* a,
                             const snug_mesh_data* ma, dpose pa, const snug_body_data* b, snug_rest_relation* out,
                             uint32_t cap);
/* The triangle pair (by slots) that last showed two bodies overlapping: a caller testing a group at many nearby
 * poses (the candidates of an insert or a snap) tries it first, since nearby poses are mostly blocked by the same. */
typedef struct snug_overlap_hint {
    snug_body a, b;
    uint32_t slot_a, slot_b;
} snug_overlap_hint;

/* Does body a at pose pa (a lifted pose, say) overlap body b where b stands? Tested in b's frame: a pose lifted by a
 * few float steps of coordinates near the range limit would leave the accepted range in world coordinates. hint
 * (optional): its pair is tested first when it is of these bodies, and a hit's pair replaces it. */
snug_status snug_overlap_in_frame(snug_ctx* ctx, const snug_body_data* a, dpose pa, const snug_body_data* b, bool* hit,
                                  snug_overlap_hint* hint);
/* Does a, shifted by lift (a world vector), overlap b as they stand? Where they share an ancestor, a's pose relative to
 * b is the product of the local poses below it, which carrying that ancestor leaves as they were: their world poses
 * round by a float step where they stand (a block a hair above a table it did not rest on, carried 352 m out and
 * turned with the table, rounded into it), and the check must not see a carry change a pair it carries. */
snug_status snug_overlap_related(snug_ctx* ctx, const snug_scene_data* s, const snug_body_data* a, dvec lift,
                                 const snug_body_data* b, bool* hit);

/* A body's size for the skin, the contact lift and the placement range: half its mesh box's diagonal. */
static inline double snug_body_radius(const snug_body_data* b) {
    return 0.5 * dlen(dsub(dv(b->local_max), dv(b->local_min)));
}
/* The rounding a body's pose relative to another may keep from where it was set, when one carries the other: the
 * child's local pose comes from world poses stored in float there, and carrying leaves it as it was. Two float steps
 * at the farthest the pair can have been (SNUG_PLACE_RANGE of the smaller body's radius), half the smallest skin
 * the settings allow. */
static inline double snug_carried_rounding(const snug_body_data* a, const snug_body_data* b) {
    double ra = snug_body_radius(a), rb = snug_body_radius(b);
    return 2.0 * FLT_EPSILON * SNUG_PLACE_RANGE * (ra < rb ? ra : rb);
}
/* How far apart two planes (surface radii ra and rb, the plane's point at distance `from` from the origin) may stand
 * and still be one, by the rounding of float poses where they stand. */
static inline double snug_plane_rounding(double ra, double rb, double from) { return 1e-5 * (ra + rb + from); }
/* The same for a binding of body a on body b: what its pose relative to b kept from where it was set counts as well
 * (a block moved on its table 353 m out, both carried home, stood 3.8e-5 off the top, twice the first; fuzz_place). */
static inline double snug_plane_tolerance(const snug_body_data* a, const snug_body_data* b, double ra, double rb,
                                          double from) {
    double here = snug_plane_rounding(ra, rb, from), kept = snug_carried_rounding(a, b);
    return here > kept ? here : kept;
}
/* The placement range of a group (snug.h, SNUG_PLACE_RANGE): how far from the origin its bodies may stand in each
 * coordinate. */
double snug_group_range(const snug_group* g);
/* Would every member of the group stand within its range after turning by turn about pivot and shifting by shift? */
bool snug_group_in_range(const snug_group* g, dquat turn, dvec pivot, dvec shift);
/* Fails with INVALID_ARGUMENT, naming the body, when a member of the group stands beyond its range. */
snug_status snug_group_range_check(snug_ctx* ctx, const snug_group* g, const char* what);

/* Bodies outside the group that rest on a member lose that binding once it no longer holds (its plane or its
 * polygon left the offer): a body is carried only by the supporter of its main binding, its parent, and a second
 * binding (a chair in front of a table, resting on the floor) lets go when its other supporter moves away. */
snug_status snug_place_break_loose(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g);
/* Does binding bd hold (normals equal, planes together, polygon inside the offer grown by the overhang)? *amount
 * (optional) gets the plane distance, angle or overhang excess found; *kind which of the three failed. */
bool snug_binding_holds(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_binding* bd,
                        double* amount, snug_violation_kind* kind);

/* How far the supported body of a bound pair is lifted off its binding plane when the pair is tested for overlap
 * (seats, the check): far enough that the coincident faces part beyond both meshes' touching tolerance and float
 * rounding, near enough (a hundredth of a skin of the smaller body, or that rounding: at most half the smallest skin)
 * that nothing else is excused. */
static inline double snug_contact_lift(const snug_place_scene* ps, const snug_body_data* a, const snug_mesh_data* ma,
                                       const snug_body_data* b, const snug_mesh_data* mb) {
    double ra = snug_body_radius(a), rb = snug_body_radius(b);
    double lift = 0.01 * ps->def.skin * (ra < rb ? ra : rb);
    double tol = 8.0 * (ma->tolerance > mb->tolerance ? ma->tolerance : mb->tolerance);
    if (tol > lift) lift = tol;
    /* the poses are stored in float: a resting body may stand into its supporter by their rounding, which the lift
     * must outlast: a few steps of the largest coordinate of either body where they stand (the test runs in the
     * supporter's frame, snug_overlap_in_frame, so that the lifted pose stays in range), and the rounding a carried
     * body's pose relative to its supporter kept from where it was placed (snug_carried_rounding; a block bound 352 m
     * out and carried home stood 1.5e-5 inside its table, beyond eight steps at 15 m). That is no more than the
     * mover's own lift. */
    double mag = 0.0;
    for (int k = 0; k < 3; k++) mag = fmax(mag, fmax(fabs(a->world.p[k]), fabs(b->world.p[k])));
    double steps = fmax(8.0 * FLT_EPSILON * mag, snug_carried_rounding(a, b));
    return lift > steps ? lift : steps;
}

/* label.c */
void snug_labels_default(snug_place_scene* ps);
static inline bool snug_label_fits(const snug_place_scene* ps, snug_label binding, snug_label offer) {
    return binding < ps->label_count && offer < ps->label_count && ((ps->fits[binding] >> offer) & 1u);
}

/* surface.c: a mesh's surfaces (NULL when it has none). */
const snug_place_surfaces* snug_mesh_surfaces(const snug_mesh_data* m);

/* A surface in world space at a pose: plane, in-plane basis and the polygon in that basis. */
typedef struct snug_world_surface {
    dvec n;                           /* unit normal */
    dvec origin;                      /* a point of the plane: the polygon's centroid */
    dvec u, v;                        /* in-plane basis with u x v = n */
    uint32_t count;
    double x[SNUG_SURFACE_MAX_VERTICES], y[SNUG_SURFACE_MAX_VERTICES]; /* counter-clockwise */
    double radius;
} snug_world_surface;

void snug_world_surface_at(const snug_place_surface* ps, dpose pose, snug_world_surface* out);
/* What float poses may add to the overhang of a binding polygon (radius binding_radius) past offer w: rounding that
 * grows with the coordinates, so with the offer's distance from the origin. Placement leaves the polygon this far
 * inside the overhang and the check allows this far beyond it: a child's local pose keeps the rounding of where it
 * was placed, and wherever its supporter carries it, a few float steps there stay within both allowances. */
static inline double snug_surface_allowance(const snug_world_surface* w, double binding_radius) {
    return 1e-6 * (w->radius + binding_radius + dlen(w->origin));
}
/* How far placement lets the polygon reach past offer w, given the overhang allowed (world units): the overhang less
 * the allowance, which comes out of the overhang only (a polygon the size of its offer still fits with none). */
static inline double snug_placement_margin(double overhang, const snug_world_surface* w, double binding_radius) {
    return fmax(0.0, overhang - snug_surface_allowance(w, binding_radius));
}
/* The polygon's vertices (world) of a surface at a pose. */
dvec snug_surface_vertex(const snug_place_surface* ps, dpose pose, uint32_t i);

/* Convex polygons in a plane's (u, v) coordinates. */
typedef struct snug_poly2 {
    uint32_t n;
    double x[2 * SNUG_SURFACE_MAX_VERTICES + 8], y[2 * SNUG_SURFACE_MAX_VERTICES + 8];
} snug_poly2;
/* Surface ps at pose, its polygon in the (u, v) coordinates of plane w. */
void snug_surface_in_plane(const snug_place_surface* ps, dpose pose, const snug_world_surface* w, snug_poly2* out);
/* World surface w's own polygon, in its (u, v) coordinates. */
void snug_world_surface_polygon(const snug_world_surface* w, snug_poly2* out);

/* Translations t (plane coordinates) that keep every vertex of the binding polygon (bx, by) inside the offer
 * polygon grown by `margin`: a convex polygon (empty when none). */
void snug_feasible_region(const snug_poly2* offer, const double* bx, const double* by, uint32_t bn, double margin,
                          snug_poly2* out);
/* Signed area (positive counter-clockwise). */
double snug_poly2_area(const snug_poly2* p);
/* Cut p to the convex polygon `by` grown by margin. */
void snug_poly2_clip(snug_poly2* p, const snug_poly2* by, double margin);
/* Is (x, y) inside the convex polygon (within eps)? */
bool snug_poly2_contains(const snug_poly2* p, double x, double y, double eps);
/* The closest point of a non-empty convex polygon to (x, y). */
void snug_poly2_closest(const snug_poly2* p, double x, double y, double* cx, double* cy);

#endif
