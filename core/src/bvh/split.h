/* Node splitters for the top-down builder (seed 000 §3.7; ../shared/research/seed-000-part1.md §3).
 *
 * The builder keeps one record per triangle (snug_prim: its AABB and input index) and partitions a node's
 * contiguous range of records in place. A splitter divides records[0..count) into at most `degree` non-empty
 * contiguous parts, writes their sizes and AABBs, and returns the number of parts (< 2: cannot split).
 * One splitter per file: split_median.c, split_sah.c, split_gottschalk.c, split_zachmann.c, split_kcenter.c,
 * split_kmeans.c, split_greedy.c, split_bb.c; shared helpers live in split_parts.c. */
#ifndef SNUG_SPLITTER_H
#define SNUG_SPLITTER_H

#include "bvh/bvh.h"

#include <math.h>

#define SNUG_MAX_BRANCHING 6

/* 32 bytes, so partitioning moves whole records and binning reads them sequentially. `label` is splitter
 * scratch (part index). The centroid used for binning is the box centre. */
typedef struct snug_prim {
    vec3 min;
    uint32_t id;
    vec3 max;
    uint32_t label;
} snug_prim;

typedef union snug_bv_any {
    snug_sphere sphere;
    snug_aabb aabb;
    snug_obb obb;
    snug_kdop kdop;
} snug_bv_any;

/* What every splitter may read, plus scratch owned by the builder (sized for the whole mesh). */
typedef struct snug_split_in {
    const float* positions;
    const uint32_t* tris;        /* input triangles, 3 vertex indices each */
    const snug_bvh_def* def;
    snug_prim* tmp;              /* scratch records, one per triangle */
    uint32_t* ids;               /* scratch ids, one per triangle (tri sets for BV fits) */
    float* dist;                 /* scratch floats, one per triangle */
    uint64_t rng;                /* deterministic state for randomised choices */
    /* Optional (Gottschalk OBB builder, NULL elsewhere): one record per triangle (obb_fit.h: SNUG_OBB_RECORD
     * floats, its corners, id and own moments). When set, the Gottschalk split keeps these in record
     * order in place of the prims (which it then leaves as they are); corners_tmp: as many scratch floats. */
    float* corners;
    float* corners_tmp;
} snug_split_in;

typedef int (*snug_split_fn)(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                             snug_aabb* boxes);

int snug_split_median(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);
int snug_split_sah(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);
int snug_split_gottschalk(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);
int snug_split_zachmann(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);
int snug_split_kcenter(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);
int snug_split_kmeans(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);
int snug_split_greedy(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);
/* Exhaustive for count <= def->bb_max_faces (with a node budget); larger nodes go to snug_split_greedy. */
int snug_split_bb(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes, snug_aabb* boxes);

snug_split_fn snug_splitter_fn(snug_splitter splitter);

/* ---- shared helpers (split_parts.c) ---- */

/* Reorder prims by their label (0..degree-1), stably, dropping empty parts; fills sizes and boxes and returns
 * the number of non-empty parts. */
int snug_split_by_label(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                        snug_aabb* boxes);
void snug_prims_bounds(const snug_prim* prims, uint32_t count, snug_aabb* out);
/* Face midpoint (mean of the three vertices, seed 000 §3.7.3). */
void snug_split_mid(const snug_split_in* in, uint32_t id, vec3 out);
/* Largest distance from c to a vertex of the face: the face-to-centre distance D(c, f) of §3.7.2. */
float snug_split_face_dist(const snug_split_in* in, uint32_t id, const vec3 c);
/* Table 3.1 seed points for degree d (2..6) in the box (c, axes, half extents r). */
void snug_split_seed_points(const vec3 c, const mat3 axes, const vec3 r, int d, vec3* out);
/* The same for an axis-aligned box. */
void snug_split_box_seed_points(const snug_aabb* box, int d, vec3* out);
/* Assign each prim to the Voronoi region of the nearest seed point (by face midpoint) and partition. */
int snug_split_voronoi(snug_split_in* in, snug_prim* prims, uint32_t count, const vec3* seeds, int degree,
                       uint32_t* sizes, snug_aabb* boxes);
/* Geometric measure of an AABB (the surrogate the growth and branch-and-bound splitters optimise; Hausdorff
 * falls back to surface there because it is not monotone under insertion, seed 000 §3.7.1). */
static inline double snug_split_aabb_measure(const snug_aabb* box, snug_measure measure) {
    double e0 = (double)box->max[0] - box->min[0], e1 = (double)box->max[1] - box->min[1],
           e2 = (double)box->max[2] - box->min[2];
    switch (measure) {
    case SNUG_MEASURE_VOLUME: return e0 * e1 * e2;
    case SNUG_MEASURE_DIAMETER: return sqrt(e0 * e0 + e1 * e1 + e2 * e2);
    default: return 2.0 * (e0 * e1 + e1 * e2 + e2 * e0);
    }
}
uint32_t snug_split_random(snug_split_in* in, uint32_t n);

/* BV of `type` over the prims' triangles (MIXED: the type of least quality x test cost) and its node quality
 * G = measure x collision factor (seed 000 §3.4.3); *chosen receives the concrete type. */
double snug_split_fit(snug_split_in* in, const snug_prim* prims, uint32_t count, snug_bv_type type,
                      snug_bv_any* bv, snug_bv_type* chosen);

#endif
