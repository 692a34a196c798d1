/* The variants kept for comparison (issue 16), beside the layers they vary: four splitters and branch-and-bound
 * (seed 000 §3.7), one per file (split_zachmann.c, split_kcenter.c, split_kmeans.c, split_greedy.c, split_bb.c),
 * the helpers only they share (split_helpers.c), the bottom-up builder (bvh_bottomup.c, §3.3.2) and seed 003's
 * DAASD time of impact (daasd.c). The research library's tables (research/variants.c) hand them to the builder and
 * to the time of impact; the product never names them. (Seed 004's OBB test, obb_seed004.h, is called directly by
 * the tests and benchmarks that compare it.) */
#ifndef SNUG_RESEARCH_H
#define SNUG_RESEARCH_H

#include "bvh/variants.h"
#include "ccd/variants.h"

int snug_split_zachmann(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);
int snug_split_kcenter(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);
int snug_split_kmeans(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);
int snug_split_greedy(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);
/* Exhaustive for count <= def->bb_max_faces (with a node budget); larger nodes go to snug_split_greedy. */
int snug_split_bb(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);

/* Bottom-up topology by pairwise merging: sets nodes (AABB, children, leaf ranges), ranges, depth and reorders
 * prims into slot order. */
snug_status snug_bvh_build_bottom_up(snug_ctx* ctx, snug_build* b, uint32_t tri_count);

/* Seed 003 DAASD (daasd.c): the time of impact for SNUG_TOI_DAASD. */
snug_status snug_toi_daasd(snug_ctx* ctx, const snug_toi_input* in, snug_toi_result* out);

/* ---- helpers of the research splitters (split_helpers.c) ---- */

/* Largest distance from c to a vertex of the face: the face-to-centre distance D(c, f) of §3.7.2. */
float snug_split_face_dist(const snug_split_in* in, uint32_t id, const vec3 c);
/* Table 3.1 seed points (snug_split_seed_points) for an axis-aligned box. */
void snug_split_box_seed_points(const snug_aabb* box, int d, vec3* out);
/* Deterministic random index in [0, n) from in->rng. */
uint32_t snug_split_random(snug_split_in* in, uint32_t n);

#endif
