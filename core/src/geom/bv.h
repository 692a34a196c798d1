/* Bounding volumes: sphere, AABB, OBB and k-DOP (14, 18, 26). Fitting to triangle sets, size measures,
 * and overlap tests between every pair of types, each BV in its own body frame with a relative transform.
 *
 * Relative transform convention for every pair test: `rel` maps B's frame into A's frame (x_A = R x_B + t).
 * Touching counts as overlap within float rounding; tests may report false positives (conservative)
 * where documented, never false negatives. */
#ifndef SNUG_BV_H
#define SNUG_BV_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/pose.h"
#include "snug.h"

#define SNUG_KDOP_MAX_AXES 13

typedef struct snug_sphere {
    vec3 c;
    float r;
} snug_sphere;

typedef struct snug_aabb {
    vec3 min;
    vec3 max;
} snug_aabb;

/* Bounds of a pass over the context's workers: each worker joins its ranges' bounds into its own slot (no shared
 * writes), the caller joins the slots afterwards. */
typedef struct snug_worker_bounds {
    snug_aabb slot[SNUG_MAX_WORKERS];
} snug_worker_bounds;

static inline void snug_worker_bounds_clear(snug_worker_bounds* b) {
    for (uint32_t w = 0; w < SNUG_MAX_WORKERS; w++) {
        glm_vec3_broadcast(INFINITY, b->slot[w].min);
        glm_vec3_broadcast(-INFINITY, b->slot[w].max);
    }
}

static inline void snug_worker_bounds_add(snug_worker_bounds* b, uint32_t worker, const snug_aabb* box) {
    glm_vec3_minv(b->slot[worker].min, (float*)box->min, b->slot[worker].min);
    glm_vec3_maxv(b->slot[worker].max, (float*)box->max, b->slot[worker].max);
}

static inline void snug_worker_bounds_total(const snug_worker_bounds* b, snug_aabb* out) {
    *out = b->slot[0];
    for (uint32_t w = 1; w < SNUG_MAX_WORKERS; w++) {
        glm_vec3_minv(out->min, (float*)b->slot[w].min, out->min);
        glm_vec3_maxv(out->max, (float*)b->slot[w].max, out->max);
    }
}

/* axes[i] is the i-th unit axis (column of the rotation from box to body frame), e[i] its half extent. The box is
 * {x : |axes[i] . (x - c)| <= e[i]}, evaluated with the stored floats: that is the sense in which fits contain their
 * vertices (axes are orthonormal and right-handed to float precision). */
typedef struct snug_obb {
    vec3 c;
    vec3 e;
    mat3 axes;
} snug_obb;

/* k/2 slab intervals along fixed directions in the body frame (lo[j] <= hi[j]). */
typedef struct snug_kdop {
    float lo[SNUG_KDOP_MAX_AXES];
    float hi[SNUG_KDOP_MAX_AXES];
} snug_kdop;

/* A set of triangles to fit: positions (xyz per vertex), triangle vertex indices (3 per triangle) and the
 * triangles to take, by slot: triangle k of the set is tris[3*ids[k] .. 3*ids[k]+2]. ids == NULL means
 * slots first .. first+count-1. */
typedef struct snug_tri_set {
    const float* positions;
    const uint32_t* tris;
    const uint32_t* ids;
    uint32_t first;
    uint32_t count;
} snug_tri_set;

static inline uint32_t snug_tri_set_slot(const snug_tri_set* s, uint32_t k) { return s->ids ? s->ids[k] : s->first + k; }

/* Number of slab directions of a k-DOP type (7, 9, 13), 0 for other types; directions are not normalized.
 * snug_kdop_directions() is the 26-DOP table: 3 axes, 4 corner diagonals (+-1,+-1,+-1), 6 edge diagonals
 * (+-1,+-1,0); the 14-DOP uses its first 7 rows. snug_kdop_type_directions(type) is the table of one type in slab
 * order (14: axes + corners, 18: axes + edges, 26: all), so slab j of a snug_kdop of that type is along row j. */
int snug_kdop_axis_count(snug_bv_type type);
const float (*snug_kdop_directions(void))[3];
const float (*snug_kdop_type_directions(snug_bv_type type))[3];

/* Fitting. Each fit contains every vertex of the set exactly: extremes are computed in double and rounded
 * outward to float, plus a pad of 4 float ulps of the BV's magnitude (size + distance from the origin); OBB
 * extents come from float projections padded by 4 ulps of the box's distance from the origin. Degenerate
 * sets (one point, collinear, coplanar, zero-area triangles) give valid, possibly flat BVs; an empty set gives a
 * zero-size BV at the origin. Build-time functions: no allocation, O(vertices) passes.
 *  - AABB: per-axis min/max (exact, no padding needed).
 *  - sphere: the minimal enclosing sphere, Welzl's move-to-front applied to the support set with the farthest
 *    vertex as pivot (Gärtner): each pivot strictly grows the ball, so it ends at the minimal ball; the set is
 *    scanned once per pivot (typically < 20) and never copied.
 *  - OBB: axes from the area-weighted triangle covariance (seed 001 §7.9; the vertex covariance if every triangle
 *    is degenerate), extents from all vertices. refine = true runs Nelder-Mead over a rotation vector around those
 *    axes minimising the box surface (objective on at most ~4096 vertex references, extents on all) and keeps
 *    the axis-aligned box if that is smaller: 10-20 % smaller surfaces on the npm meshes, ~20x the cost.
 *  - k-DOP: min/max of the projections on the type's directions. */
void snug_aabb_fit(const snug_tri_set* set, snug_aabb* out);
void snug_sphere_fit(const snug_tri_set* set, snug_sphere* out);
/* Incremental sphere fit (seed 000 §3.8.1, move-to-front): `support` holds the (at most 4) vertices that determine
 * the last ball; passing it back for a superset of that set starts from them, so only new vertices can pivot.
 * n = 0 starts fresh; on return it holds the new support. The points are vertices, stored exactly. */
typedef struct snug_sphere_support {
    float p[4][3];
    int n;
} snug_sphere_support;
void snug_sphere_fit_incremental(const snug_tri_set* set, snug_sphere_support* support, snug_sphere* out);
void snug_obb_fit(const snug_tri_set* set, bool refine, snug_obb* out);
void snug_kdop_fit(const snug_tri_set* set, snug_bv_type type, snug_kdop* out);

/* Conservative conversions (the result contains the input; outward rounded): used by the mixed-type pair tests
 * and by mixed trees. An AABB converts exactly (up to rounding); spheres and OBBs get their support slabs. */
void snug_obb_from_aabb(const snug_aabb* in, snug_obb* out);
void snug_kdop_from_sphere(const snug_sphere* in, snug_bv_type type, snug_kdop* out);
void snug_kdop_from_aabb(const snug_aabb* in, snug_bv_type type, snug_kdop* out);
void snug_kdop_from_obb(const snug_obb* in, snug_bv_type type, snug_kdop* out);

/* Size measures (seed 000 §3.8.1): volume, surface, diameter (0 for SNUG_MEASURE_HAUSDORFF, which needs the
 * faces). For a k-DOP all three are exact values of its polytope, built by clipping its axis box with the other
 * slabs (double precision; build-time use, not for hot paths). */
float snug_bv_measure(snug_bv_type type, const void* bv, snug_measure measure);

/* Overlap tests, `rel` maps B's frame into A's frame.
 *
 * Rounding: every test compares with a guard of a few float ulps of the magnitudes involved (positions, sizes
 * and |t|), so exact touching is always reported as overlap; sphere tests and OBB-OBB are otherwise exact.
 * OBB-OBB: Gottschalk's 15-axis SAT in A's box frame with AbsR = |R| + SNUG_SAT_EPS. The eps is dimensionless,
 * so it widens every projected radius by SNUG_SAT_EPS * (sum of both boxes' half extents), i.e. relative to the
 * boxes' size; it keeps near-parallel edge pairs (cross axis ~ 0) from reporting a false separation. The price:
 * on a cross axis of edges at angle theta the radius grows by eps * size / sin(theta), so boxes separated only
 * along such an axis may be reported as overlapping up to a gap of about sqrt(eps) * size (conservative; the
 * face axes catch every other case). tests/c/test_bv_obb.c measures agreement outside a 1e-4 * size band.
 * AABB-AABB: the six face axes of both boxes (seed 000 Fig. 4.3's re-wrap of B's box in A's frame, centre R c + t
 * and half extents (|R| + eps) h, and the same of A's box in B's frame), conservative unless R maps axes onto axes
 * (the nine edge axes are left out). AABB-OBB and sphere-box are exact.
 * k-DOP-k-DOP: see snug_kdop_rel below; conservative, exact when rel is exactly the identity. */
#define SNUG_SAT_EPS 1e-6f
bool snug_sphere_sphere(const snug_sphere* a, const snug_sphere* b, const snug_xform* rel);
bool snug_sphere_aabb(const snug_sphere* a, const snug_aabb* b, const snug_xform* rel);
bool snug_sphere_obb(const snug_sphere* a, const snug_obb* b, const snug_xform* rel);
bool snug_aabb_aabb(const snug_aabb* a, const snug_aabb* b, const snug_xform* rel);
bool snug_aabb_obb(const snug_aabb* a, const snug_obb* b, const snug_xform* rel);
bool snug_obb_obb(const snug_obb* a, const snug_obb* b, const snug_xform* rel);         /* 15-axis SAT with eps guard */
bool snug_kdop_kdop(const snug_kdop* a, const snug_kdop* b, snug_bv_type type, const snug_xform* rel);
/* Generic dispatch for any pair of types in either order (what mixed trees and the statistics use). Pairs with
 * a k-DOP and another type convert the other BV to a k-DOP of the same type (conservative) and use the k-DOP
 * test; k-DOPs of different types are tested directly. A swapped pair is tested through the inverse transform. */
bool snug_bv_overlap(snug_bv_type ta, const void* a, snug_bv_type tb, const void* b, const snug_xform* rel);

/* Per-traversal precomputation: what stays the same for every node pair of one mesh pair. Prepare once per
 * query (mesh-level relative transform), then call the _rel tests per node pair. */
typedef struct snug_rel {
    snug_xform x;    /* B -> A */
    mat3 absR;       /* |R_ij| + SNUG_SAT_EPS (column-major like R) */
    float tmag;      /* |t|_1, for the rounding guard */
} snug_rel;
void snug_rel_prepare(const snug_xform* rel, snug_rel* out);
bool snug_aabb_aabb_rel(const snug_aabb* a, const snug_aabb* b, const snug_rel* rel);
/* snug_aabb_aabb_rel in two halves, for a traversal that tests one node against each of another's children: each
 * box's side is computed once, the test of two sides gives exactly snug_aabb_aabb_rel's answer. */
typedef struct snug_aabb_side_a {
    vec3 c, h;       /* centre, half extents */
    float mag;       /* |c|_1 + |h|_1 */
} snug_aabb_side_a;
typedef struct snug_aabb_side_b {
    vec3 h, cw, hw;  /* half extents; centre and half extents wrapped into A's frame */
    float mc, mh;    /* |c|_1, |h|_1 */
} snug_aabb_side_b;
void snug_aabb_side_a_of(const snug_aabb* a, snug_aabb_side_a* out);
void snug_aabb_side_b_of(const snug_aabb* b, const snug_rel* rel, snug_aabb_side_b* out);
bool snug_aabb_sides_overlap(const snug_aabb_side_a* a, const snug_aabb_side_b* b, const snug_rel* rel);

/* k-DOP pair in relative pose. B's support along each of A's directions d (in A's frame) is bounded through a
 * decomposition of u = R^T d over B's own slab directions: u = lambda d1 + sum_k r_k e_k with d1 the signed
 * direction of B closest to u, lambda >= 0 (minimising lambda |d1| + |r|_1) and e_k the axes, which every type
 * has as slabs 0..2. A support function is sublinear, so h_B(u) <= lambda h_B(d1) + sum_k |r_k| h_B(sign(r_k) e_k),
 * and each h_B(+-d_i) is one of B's slab values (hi_i or -lo_i). The same is done for A's support along B's
 * directions, so both slab sets can separate. When R = I the decomposition of d_j is d_j itself (lambda = 1,
 * r = 0 exactly), so the test reduces to the plain interval test and is exact. The decompositions depend only on R:
 * they are computed once per mesh pair here (a few microseconds), leaving 2 x 4 multiply-adds per slab for each
 * node pair. `magnitude` bounds |lo|, |hi| of all k-DOPs that will be tested with it (for the rounding guard;
 * 0 guard when rel is exactly the identity). (A search over 3-direction cones among the nearest directions had
 * 2-3x fewer false positives on random pairs, 0.8-1.4 % instead of 2.6-3.8 % of separated pairs, but cost ~25 us
 * per preparation: more than the extra node pairs cost a typical query, and too slow for the unprepared dispatch.) */
#define SNUG_KDOP_TERMS 4
typedef struct snug_kdop_rel {
    int n[2];                 /* slab counts: n[0] of A, n[1] of B */
    float guard;
    struct {
        float dt[SNUG_KDOP_MAX_AXES];                              /* d_j . t (t of this side's direction) */
        uint8_t idx[SNUG_KDOP_MAX_AXES][2][SNUG_KDOP_TERMS];        /* [upper, lower] terms: lo[0..12], hi[13..25] */
        float w[SNUG_KDOP_MAX_AXES][2][SNUG_KDOP_TERMS];
    } side[2];                /* side 0: B bounded along A's slabs; side 1: A bounded along B's slabs */
} snug_kdop_rel;
void snug_kdop_rel_prepare(const snug_xform* rel, snug_bv_type ta, snug_bv_type tb, float magnitude, snug_kdop_rel* out);
bool snug_kdop_kdop_rel(const snug_kdop* a, const snug_kdop* b, const snug_kdop_rel* rel);

/* Symmetric 3x3 eigen-decomposition (closed form, eigen.c): m = V diag(w) V^T, eigenvectors in V's columns, w descending.
 * V is orthonormal and right-handed also for repeated eigenvalues; vectors 0 and 1 have their largest component positive. The double version is what the fits use;
 * vecs[c] is eigenvector c (column-major like cglm). */
void snug_eigen_sym3(const mat3 m, vec3 w, mat3 V);
void snug_eigen_sym3d(const double m[3][3], double w[3], double vecs[3][3]);

#endif
