/* Internal state shared by the top-down driver (bvh_build.c), the dedicated builders and the bottom-up builder
 * (research/bvh_bottomup.c). */
#ifndef SNUG_BVH_BUILD_H
#define SNUG_BVH_BUILD_H

#include "bvh/split.h"

typedef struct snug_build {
    snug_split_in in;
    snug_prim* prims;         /* one record per triangle, in final slot order once built */
    snug_aabb root;           /* bounds of all triangles, from the pass that makes the records */
    snug_prim* best;          /* variable branching: the best partition seen so far */
    snug_node* nodes;         /* capacity 2 x triangles */
    uint32_t node_count;
    uint32_t depth;
    uint32_t* range_first;    /* per node: first slot of its subtree */
    uint32_t* range_count;    /* per node: triangles in its subtree */
    snug_obb* obbs;           /* per node OBBs when the builder made them (bvh_build_obb.c), else NULL */
    bool slots_in_ids;        /* prims left in input order; slot s holds triangle in.ids[s] (plain AABB trees) */
    bool inner_boxes_pending; /* only leaf boxes are set: snug_bvh_finish unions the inner ones (plain AABB) */
    /* Nodes [blocks[0], blocks[block_count]) in block_count blocks [blocks[k], blocks[k + 1]) of whole subtrees
     * (each block holds its nodes' children): snug_bvh_finish may treat blocks in parallel, then the nodes before
     * blocks[0]. NULL: one sequence. */
    uint32_t* blocks;
    uint32_t* block_src;    /* per block: where its nodes are until snug_bvh_finish moves them, links unshifted */
    uint32_t* block_leaves; /* per block: snug_bvh_finish's leaf count */
    uint32_t block_count;
} snug_build;

/* Trees whose node box is their BV: snug_bvh_finish gives them one pass that copies the nodes to their final
 * array and sets boxes still pending, qualities and costs on the way. */
static inline bool snug_build_plain_aabb(const snug_bvh_def* def) {
    return def->bv_type == SNUG_BV_AABB && def->measure != SNUG_MEASURE_HAUSDORFF;
}

/* Nodes [from, from + count), a block of whole subtrees built above their final place, down to `to` with their
 * slot ranges and OBBs (when the builder made them); the links inside the block shift with it (the caller fixes
 * the links into it). */
void snug_build_move_nodes(snug_build* b, uint32_t from, uint32_t count, uint32_t to);

/* Binned SAH, binary (bvh_build_sah.c): sets nodes with exact AABBs, ranges, depth and slot-order prims (or,
 * for plain AABB trees, which read no prims afterwards, the slot order in in.ids and slots_in_ids; their inner
 * boxes are left to snug_bvh_finish: inner_boxes_pending). */
snug_status snug_bvh_build_sah_binary(snug_ctx* ctx, snug_build* b, uint32_t tri_count);
/* Meshes of at least this many triangles take the Morton-clustered top levels in that builder; a variable only
 * so that tests can send small meshes down that path. */
extern uint32_t snug_sah_cluster_min;
/* OBB tree with the Gottschalk splitter, binary, no refinement (bvh_build_obb.c): the same tree as the generic
 * driver with that splitter, and every node's OBB (b->obbs) made on the way. */
snug_status snug_bvh_build_obb_binary(snug_ctx* ctx, snug_build* b, uint32_t tri_count);
/* Meshes of at least this many triangles are split by that builder into subtrees of at most 1/8 of them, which go
 * to the task hooks below the first levels (those stay on the calling thread): the same tree, laid out with the
 * first levels' nodes first. A variable only so that tests can compare with the one-sequence layout. */
extern uint32_t snug_obb_subtrees_min;
/* Pieces of the Gottschalk split (split_gottschalk.c) for that builder (the sibling axes and moments are in
 * obb_fit.h): a node's axes from its moments pass (also what the tests compare the records against), and the
 * binary split along given axes that also sets the node's OBB (count >= 2), or with sizes NULL only that OBB (a
 * leaf, count >= 1); it makes no parts' boxes (the builder takes each node's AABB from its children or faces). */
void snug_split_gottschalk_axes(snug_split_in* in, const snug_prim* prims, uint32_t count, mat3 axes);
int snug_split_gottschalk_obb(snug_split_in* in, snug_prim* prims, uint32_t count, const mat3 axes, uint32_t* sizes,
                              snug_obb* node);
/* Every node's OBB (covariance axes, no refinement) from moments summed bottom-up; needs ranges and slot-order
 * prims. (Trees whose builder made b->obbs take those instead: snug_bvh_finish.) */
snug_status snug_bvh_fit_obbs(snug_ctx* ctx, const snug_build* b, snug_obb* obbs);
/* BVs, costs and Hausdorff bounds for a finished topology; moves the nodes into out. */
snug_status snug_bvh_finish(snug_ctx* ctx, snug_build* b, snug_bvh* out);

#endif
