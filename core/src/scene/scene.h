/* Scenes: bodies (instances of meshes) with hierarchy, flags, filters, their broad phase and the collision
 * step's transaction data. A body's pool slot is its stable index into the scene's per-body arrays. */
#ifndef SNUG_SCENE_H
#define SNUG_SCENE_H

#include "scene/broadphase.h"
#include "base/ctx.h"
#include "bvh/mesh.h"
#include "base/pose.h"

typedef struct snug_body_data {
    snug_body handle;
    uint32_t slot;
    snug_mesh mesh;
    snug_pose local;            /* normalized; relative to the parent */
    snug_pose world;            /* cached product along the path from the root */
    uint32_t parent, first_child, next_sibling, prev_sibling; /* slots, SNUG_NONE when absent */
    uint32_t child_count;
    bool is_static, enabled;
    uint32_t layer, mask;
    uint64_t user_data;
    vec3 local_min, local_max;  /* the mesh's AABB padded by its tolerance */
    float local_reach;          /* farthest distance of that box from the body origin (rotation sweeps) */
    uint32_t proxy;             /* broad-phase proxy id, SNUG_NONE before the first sync */
    bool bp_dirty;              /* the proxy's box is not the box at the current world pose */
} snug_body_data;

/* One registered motion of a step. */
typedef struct snug_step_motion {
    uint32_t slot;
    snug_body body;
    snug_pose pose;
    bool relative;
} snug_step_motion;

/* Per body during one detect: start and target world poses and the motion (group) moving it. */
typedef struct snug_step_body {
    snug_pose start, target;
    uint32_t group;             /* index into motions, SNUG_NONE when not moving */
} snug_step_body;

typedef struct snug_step_state {
    snug_step_motion* motions;
    uint32_t motion_count, motion_cap;
    snug_step_body* bodies;     /* per slot */
    uint32_t body_cap;
    bool detected;              /* targets are valid for commit */
    bool pairs_collected;       /* the last detect kept its colliding pairs (snug_step_def.collect_pairs) */
    uint32_t hit_count;         /* colliding pairs of the last detect */
    snug_step_stats stats;
    snug_buffer work;           /* narrow-phase buffers, grown and kept between steps */
    snug_buffer pairs;
    snug_buffer hits;           /* snug_body_pair[hit_count] when pairs_collected */
} snug_step_state;

typedef struct snug_scene_data {
    snug_scene handle;
    snug_pool bodies;
    snug_broadphase bp;
    uint32_t* dirty;            /* slots with bp_dirty or without a proxy */
    uint32_t dirty_count, dirty_cap;
    uint32_t pending_inserts;
    snug_pairset ignore;        /* body-slot pairs never reported */
    snug_buffer buf;            /* query buffer (not the ctx scratch: the per-body queries use that) */
    snug_step_state step;
    snug_attachment place;      /* the placement layer's labels, settings and bindings (place/place.h) */
    snug_buffer journal;        /* snug_hierarchy_record[journal_count] while journaling (hierarchy.c) */
    uint32_t journal_count;
    bool journaling;
} snug_scene_data;

/* The scene of a handle, or NULL after recording SNUG_ERR_STALE_HANDLE. */
snug_scene_data* snug_scene_lookup(snug_ctx* ctx, snug_scene handle);
/* The body of a handle in this scene, or NULL after recording SNUG_ERR_STALE_HANDLE. */
snug_body_data* snug_body_lookup(snug_ctx* ctx, snug_scene_data* scene, snug_body handle);
static inline snug_body_data* snug_body_at(const snug_scene_data* scene, uint32_t slot) {
    return (snug_body_data*)scene->bodies.items[slot];
}
void snug_scene_data_free(snug_ctx* ctx, snug_scene_data* scene);

/* The first lines of a public scene call: declare S (and B) from the handles, or return the status the lookup
 * recorded. */
#define SNUG_SCENE_ENTRY(ctx, scene_h, S)                                    \
    if (!(ctx)) return SNUG_ERR_INVALID_ARGUMENT;                            \
    snug_scene_data* S = snug_scene_lookup((ctx), (scene_h));                \
    if (!S) return SNUG_ERR_STALE_HANDLE
#define SNUG_BODY_ENTRY(ctx, scene_h, body_h, S, B)                          \
    SNUG_SCENE_ENTRY(ctx, scene_h, S);                                       \
    snug_body_data* B = snug_body_lookup((ctx), S, (body_h));                \
    if (!B) return SNUG_ERR_STALE_HANDLE

/* Mark the body's proxy out of date (queued for the next sync; the queue has room for every body). */
void snug_scene_mark_dirty(snug_scene_data* scene, snug_body_data* body);
/* Bring the broad phase up to date with every body's current world box. */
snug_status snug_scene_sync(snug_ctx* ctx, snug_scene_data* scene);
/* World AABB of a body at a pose (from its padded local box). */
void snug_body_world_box(const snug_body_data* body, const snug_pose* pose, float min[3], float max[3]);
/* Would a pair of these bodies be reported (enabled, not both static, filters, ignore list)? */
bool snug_scene_pair_passes(const snug_scene_data* scene, const snug_body_data* a, const snug_body_data* b);

/* Exchange everything two scenes hold (bodies, broad phase, step, attachments), keeping their handles: how a scene
 * built aside (a loaded file) replaces a live one in one step. */
void snug_scene_swap_contents(snug_scene_data* a, snug_scene_data* b);

/* scene_state.c: the bodies as bytes and back (snapshots). Stage parses and checks bytes into new records without
 * touching the scene (failing cleanly); commit swaps them in and cannot fail; discard frees a stage. */
typedef struct snug_scene_staged {
    snug_pool bodies;
    snug_pairset ignore;
    uint32_t* dirty;
    uint32_t dirty_cap;
} snug_scene_staged;

size_t snug_scene_state_size(const snug_scene_data* s);
void snug_scene_state_write(const snug_scene_data* s, unsigned char* out);
snug_status snug_scene_state_stage(snug_ctx* ctx, const snug_scene_data* s, const unsigned char* in, size_t n,
                                   size_t* used, snug_scene_staged* st);
void snug_scene_state_commit(snug_ctx* ctx, snug_scene_data* s, snug_scene_staged* st);
void snug_scene_state_discard(snug_ctx* ctx, snug_scene_staged* st);

/* hierarchy.c: pose algebra and world-pose upkeep. */
snug_pose snug_pose_mul(const snug_pose* a, const snug_pose* b);   /* apply b, then a */
snug_pose snug_pose_inverse(const snug_pose* a);
/* Recompute the world poses of the body's subtree from its local pose and its parent's world pose. */
void snug_hierarchy_update(snug_scene_data* scene, snug_body_data* body);
/* Unlink from the parent (the local pose is not changed). */
void snug_hierarchy_unlink(snug_scene_data* scene, snug_body_data* body);
void snug_hierarchy_link(snug_scene_data* scene, snug_body_data* body, snug_body_data* parent);
/* Next body of a pre-order walk of root's subtree after b, SNUG_NONE at the end. */
uint32_t snug_hierarchy_next(const snug_scene_data* scene, uint32_t root, uint32_t b);
/* How many ancestors the body in slot has. */
uint32_t snug_hierarchy_depth(const snug_scene_data* scene, uint32_t slot);
/* The nearest body that is slot a or one of its ancestors and slot b or one of b's; SNUG_NONE when they are in
 * different trees. */
uint32_t snug_hierarchy_common_ancestor(const snug_scene_data* scene, uint32_t a, uint32_t b);

/* The journal of a compound call (a placement move) that must leave the hierarchy as it found it when a later step
 * fails: while journaling, every change of a body's local pose or parent first records the body's local pose,
 * parent and place among its siblings, in room reserved before the change (a failure to reserve fails that change
 * before anything moved). Rolling back replays the records newest first and cannot fail; each world pose is then the
 * product it was before, recomputed exactly as before. Begin empties the journal. */
typedef struct snug_hierarchy_record {
    uint32_t slot;
    snug_pose local;
    uint32_t parent, prev_sibling;
} snug_hierarchy_record;

void snug_hierarchy_journal_begin(snug_scene_data* scene);
void snug_hierarchy_journal_end(snug_scene_data* scene);
void snug_hierarchy_rollback(snug_scene_data* scene);

#endif
