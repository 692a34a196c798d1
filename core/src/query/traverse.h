/* Pair traversal of two hierarchies (seed 000 §5.4): which node of a pair to expand (simultaneous, one-sided,
 * hybrid with explicit tie-breaks), the BV test of a node pair through the relative transform (A's BV grown by
 * a margin so that touching within tolerance is never pruned), and the depth-first overlap driver that the
 * mesh-mesh queries share. The stack lives in the context's scratch arena. */
#ifndef SNUG_TRAVERSAL_H
#define SNUG_TRAVERSAL_H

#include "bvh/mesh.h"

/* What to do with an overlapping pair of which at least one node is inner. */
typedef enum snug_expand {
    SNUG_EXPAND_BOTH = 0,
    SNUG_EXPAND_A,
    SNUG_EXPAND_B
} snug_expand;

snug_expand snug_traverse_choose(const snug_bvh* a, uint32_t na, const snug_bvh* b, uint32_t nb,
                                 snug_traversal strategy);

/* Called for every overlapping leaf pair; return true to stop the traversal. */
typedef bool (*snug_leaf_pair_fn)(void* user, uint32_t leaf_a, uint32_t leaf_b);
/* A finer bound than B's BV for a pair of A's node (inner or leaf) and B's leaf: true means that no leaf pair
 * under it can give the leaf callback anything, so it is skipped. */
typedef bool (*snug_leaf_prune_fn)(void* user, uint32_t node_a, uint32_t leaf_b);

typedef struct snug_pair_query {
    const snug_bvh* a;
    const snug_bvh* b;
    snug_xform rel;          /* B's frame -> A's frame */
    float margin;            /* A's BVs grow by this much: tolerance plus float rounding of the transform */
    snug_traversal strategy;
    snug_leaf_pair_fn leaf;
    snug_leaf_prune_fn prune; /* optional */
    void* user;
} snug_pair_query;

/* Depth-first traversal of every overlapping node pair; counts BV tests and visited pairs into ctx->stats
 * (primitive tests are the leaf callback's to count). *stopped tells whether the callback ended it early. */
snug_status snug_traverse_overlap(snug_ctx* ctx, const snug_pair_query* q, bool* stopped);

/* Margin for BV tests between A and B through rel: eps plus a few float ulps of everything the transform
 * touches, so BV rounding never prunes a pair the triangle test would accept. */
float snug_traverse_margin(float eps, float scale_a, float scale_b, const snug_xform* rel);

/* Stack capacity (in pairs) a depth-first pair traversal of these trees can need. */
size_t snug_traverse_stack_pairs(const snug_bvh* a, const snug_bvh* b);

/* First intersecting triangle pair (within tolerance) by slots, for queries that can stop at contact
 * (query_overlap.c). */
snug_status snug_overlap_witness(snug_ctx* ctx, const snug_mesh_data* ma, const snug_mesh_data* mb,
                                 const snug_xform* rel, bool* hit, uint32_t* slot_a, uint32_t* slot_b);
/* Does the one triangle pair (slots; rel: B -> A) overlap, as the witness search's leaf test judges it? A witness
 * found at one pose and tried first at a nearby one settles most repeated queries without a traversal. */
bool snug_overlap_pair(const snug_mesh_data* ma, const snug_mesh_data* mb, const snug_xform* rel, uint32_t slot_a,
                       uint32_t slot_b);

/* snug_mesh_within with its witness: when within, *out (optional) gets the first triangle pair found within
 * max_distance by the nearest-first search, which need not be the closest pair (an upper bound on the distance, at
 * the cost of the tolerance query instead of the exact distance's, which between two fine meshes in near contact
 * measures thousands of triangle pairs). */
snug_status snug_within_witness(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                                const snug_pose* pose_b, float max_distance, bool* within, snug_distance_result* out);

/* Ray traversal of one mesh's 4-wide ray tree, in the mesh frame (query_ray.c; also used by inside/outside).
 * The tree is built by snug_ray_tree_prepare (ray_tree.h); a mesh without one has no hits. */
typedef struct snug_ray_local {
    vec3 o, d, inv;        /* origin, direction, 1/direction */
    float tmin, tmax;
} snug_ray_local;
typedef struct snug_ray_hit_local {
    uint32_t tri;          /* triangle id given at creation, SNUG_NONE for no hit */
    float t, u, v;
    uint32_t lane;         /* 4 * packet + lane of the triangle in the ray tree (ray_tree.h) */
} snug_ray_hit_local;
/* lane: 4 * packet + lane of the hit triangle in the ray tree (ray_tree.h: its id and corners) */
typedef void (*snug_ray_visit_fn)(void* user, uint32_t lane, float t, float u, float v);

void snug_ray_local_init(snug_ray_local* r, const float o[3], const float d[3], float tmax);
/* Closest hit (the lowest triangle id among equally near ones); returns the number of hits met on the way
 * (>= 1 when hit->tri is set). */
uint32_t snug_ray_closest(const snug_mesh_data* m, const snug_ray_local* r, snug_ray_hit_local* hit, snug_query_stats* st);
/* Every hit in [tmin, tmax], in traversal order; returns their number. */
uint32_t snug_ray_visit_all(const snug_mesh_data* m, const snug_ray_local* r, snug_ray_visit_fn visit, void* user,
                            snug_query_stats* st);

/* Shared query setup: checks the handles (stale -> SNUG_ERR_STALE_HANDLE), the poses (snug_pose_check) and resets
 * the statistics. The pair form also gives B -> A. */
snug_status snug_query_begin_pair(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                                  const snug_pose* pose_b, snug_mesh_data** ma, snug_mesh_data** mb, snug_xform* rel);
snug_status snug_query_begin_one(snug_ctx* ctx, snug_mesh mesh, const snug_pose* pose, snug_mesh_data** m);

#endif
