/* Pieces of the covariance OBB fit (seed 001 §7.9) shared by snug_obb_fit (bv_fit.c), the tree fit from summed
 * moments (bvh_obb.c) and the Gottschalk splitter: triangle moments, axes from moments, and the extents pass in
 * float lanes with the padding that makes it exact. */
#ifndef SNUG_OBB_FIT_H
#define SNUG_OBB_FIT_H

#include <math.h>

#include "geom/bv.h"
#include "base/simd.h"

/* Area-weighted triangle moments relative to a reference point: area, area x centroid, and
 * (area / 12)(9 m m^T + sum_i v_i v_i^T) as xx yy zz xy xz yz. Additive over triangles, so a node's moments are
 * the sum of its children's. */
typedef struct snug_obb_moments {
    double area, m[3], s[6];
} snug_obb_moments;

/* adds the triangle (a, b, c) taken relative to ref (double: far-off data does not cancel) */
void snug_obb_moments_add_tri(snug_obb_moments* mo, const float* a, const float* b, const float* c, const double ref[3]);
void snug_obb_moments_add(snug_obb_moments* to, const snug_obb_moments* x);

/* The Gottschalk OBB builder's record of a face (snug_split_in.corners): SNUG_OBB_RECORD floats, the corners a,
 * b, c as [a | 0] [b | id bits] [c | 0], then the face's own moments as three lane vectors: [o | 1] with o =
 * centroid - a, [diagonal | area] and [off-diagonal xy yz zx | 0] of its second moments about the centroid,
 * (area / 12) sum_i p_i p_i^T (p_i: corners relative to the centroid). With d = a - r + o the face adds area to
 * the area, area d to the first moments and area d d^T + those to the second moments about any point r (floats
 * made once per face: they only steer splits). */
#define SNUG_OBB_RECORD 24
struct snug_split_in;
struct snug_prim;
/* the records of prims[0, count) (their ids' triangles) in in->corners (split_gottschalk.c) */
void snug_split_gottschalk_records(const struct snug_split_in* in, const struct snug_prim* prims, uint32_t count);

/* A node's moments as the OBB builder keeps them for its children: about `ref`, with `err` a bound on their
 * relative rounding error in units of a node's whose faces were summed directly (1 for those). */
typedef struct snug_obb_node_moments {
    snug_obb_moments mo;
    double ref[3];
    double err;
} snug_obb_node_moments;
/* The axes of the node prims[0, count) from its faces' sums, and its moments in *nm (split_gottschalk.c). */
void snug_split_gottschalk_node_axes(struct snug_split_in* in, const struct snug_prim* prims, uint32_t count, mat3 axes,
                                     snug_obb_node_moments* nm);
/* The axes of a node's two children (prims[0, n0) and [n0, n0 + n1)) with one pair eigen solve, and their
 * moments: the child with fewer faces from its faces, the other as the parent's minus that one's when this
 * cancels by at most one bit of the area and the error bound stays small, else from its faces too. */
void snug_split_gottschalk_kids(struct snug_split_in* in, const struct snug_prim* prims, uint32_t n0, uint32_t n1,
                                const snug_obb_node_moments* parent, mat3 axes[2], snug_obb_node_moments kids[2]);

/* eigenvectors of the covariance (mo->area > 0), descending eigenvalues, right-handed, in V[0..2] */
void snug_obb_moments_basis(const snug_obb_moments* mo, double V[3][3]);
/* the same for two nodes at once (each lane exactly as alone; both need area > 0) */
void snug_obb_moments_basis_pair(const snug_obb_moments* a, const snug_obb_moments* b, double Va[3][3], double Vb[3][3]);
/* snug_eigen_sym3d of two matrices at once (eigen.c): each result bit for bit what a single call gives, in little
 * more than the time of one (the solve is latency bound) */
void snug_eigen_sym3d_pair(const double ma[3][3], const double mb[3][3], double wa[3], double va[3][3], double wb[3],
                           double vb[3][3]);

/* Projection ranges of points on three axes: one lane per axis (simd.h: SSE natively, simd128 in wasm). */
typedef struct snug_obb_ranges {
    f4 col[3], lo, hi;
} snug_obb_ranges;

static inline void snug_obb_ranges_init(snug_obb_ranges* r, const mat3 axes) {
    for (int i = 0; i < 3; i++) {
        float col[4] = {axes[0][i], axes[1][i], axes[2][i], 0.0f};
        r->col[i] = F4_LOAD(col);
    }
    r->lo = F4_SET1(INFINITY);
    r->hi = F4_SET1(-INFINITY);
}

/* the three projections of p (lanes 0..2) */
static inline f4 snug_obb_ranges_project(const snug_obb_ranges* r, const float* p) {
    return F4_ADD(F4_ADD(F4_MUL(r->col[0], F4_SET1(p[0])), F4_MUL(r->col[1], F4_SET1(p[1]))), F4_MUL(r->col[2], F4_SET1(p[2])));
}

static inline void snug_obb_ranges_take(snug_obb_ranges* r, f4 d) {
    r->lo = F4_MIN(r->lo, d);
    r->hi = F4_MAX(r->hi, d);
}

/* Sets o->c and o->e from the ranges of every vertex along o->axes (the axes the ranges were made with), padded
 * for the float projections so that |axes_k . (v - c)| <= e_k holds for every vertex with the stored floats.
 * The ranges are of the vertices themselves (ref NULL) or of their float differences v - ref. */
void snug_obb_ranges_finish(const snug_obb_ranges* r, const float* ref, snug_obb* o);

#endif
