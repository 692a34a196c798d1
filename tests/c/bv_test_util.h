/* Helpers shared by the bounding-volume tests: random poses and BVs, containment checks, and the conversion of
 * every BV type into an oracle shape (see bv_oracle.h). Header-only (static). */
#ifndef SNUG_BV_TEST_UTIL_H
#define SNUG_BV_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geom/bv.h"
#include "bv_oracle.h"
#include "harness.h"

static inline void random_xform(rng* r, float spread, snug_xform* out) {
    snug_pose p;
    rng_unit_quat(r, p.q);
    for (int k = 0; k < 3; k++) p.p[k] = rng_range(r, -spread, spread);
    snug_xform_from_pose(&p, out);
}

static inline snug_tri_set set_of(const float* positions, const uint32_t* tris, uint32_t count) {
    snug_tri_set s = {positions, tris, NULL, 0, count};
    return s;
}

/* number of vertices of the set outside the fitted BV (checked in double against the stored floats) */
static inline uint32_t count_outside(const snug_tri_set* s, snug_bv_type type, const void* bv) {
    uint32_t bad = 0;
    int n = snug_kdop_axis_count(type);
    const float(*d)[3] = snug_kdop_type_directions(type);
    for (uint32_t k = 0; k < s->count; k++)
        for (int c = 0; c < 3; c++) {
            const float* p = s->positions + 3u * s->tris[3u * snug_tri_set_slot(s, k) + (uint32_t)c];
            double x = p[0], y = p[1], z = p[2];
            bool in = true;
            if (type == SNUG_BV_SPHERE) {
                const snug_sphere* b = bv;
                double dx = x - b->c[0], dy = y - b->c[1], dz = z - b->c[2];
                in = dx * dx + dy * dy + dz * dz <= (double)b->r * b->r;
            } else if (type == SNUG_BV_AABB) {
                const snug_aabb* b = bv;
                for (int i = 0; i < 3; i++) in = in && p[i] >= b->min[i] && p[i] <= b->max[i];
            } else if (type == SNUG_BV_OBB) {
                const snug_obb* b = bv;
                for (int i = 0; i < 3; i++) {
                    double q = b->axes[i][0] * (x - b->c[0]) + b->axes[i][1] * (y - b->c[1]) + b->axes[i][2] * (z - b->c[2]);
                    in = in && fabs(q) <= b->e[i];
                }
            } else {
                const snug_kdop* b = bv;
                for (int j = 0; j < n; j++) {
                    double q = d[j][0] * x + d[j][1] * y + d[j][2] * z;
                    in = in && q >= b->lo[j] && q <= b->hi[j];
                }
            }
            bad += !in;
        }
    return bad;
}

/* a BV of any type, by value */
typedef union any_bv {
    snug_sphere sphere;
    snug_aabb aabb;
    snug_obb obb;
    snug_kdop kdop;
} any_bv;

static inline void fit_any(const snug_tri_set* s, snug_bv_type type, bool refine, any_bv* out) {
    switch (type) {
    case SNUG_BV_SPHERE: snug_sphere_fit(s, &out->sphere); break;
    case SNUG_BV_AABB: snug_aabb_fit(s, &out->aabb); break;
    case SNUG_BV_OBB: snug_obb_fit(s, refine, &out->obb); break;
    default: snug_kdop_fit(s, type, &out->kdop); break;
    }
}

/* oracle shape of a BV; `pts` must hold ORACLE_MAX_VERTS points (k-DOP vertices) */
static inline void shape_of(snug_bv_type type, const any_bv* bv, const snug_xform* x, double (*pts)[3], oracle_shape* out) {
    memset(out, 0, sizeof *out);
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) out->R[r][c] = x ? x->R[c][r] : (r == c);
        out->t[r] = x ? x->t[r] : 0.0;
    }
    if (type == SNUG_BV_SPHERE) {
        out->pts = NULL;
        for (int k = 0; k < 3; k++) out->c[k] = bv->sphere.c[k];
        out->r = bv->sphere.r;
        return;
    }
    out->pts = (const double(*)[3])pts;
    if (type == SNUG_BV_AABB) {
        for (int i = 0; i < 8; i++)
            for (int k = 0; k < 3; k++) pts[i][k] = (i >> k) & 1 ? bv->aabb.max[k] : bv->aabb.min[k];
        out->n = 8;
    } else if (type == SNUG_BV_OBB) {
        for (int i = 0; i < 8; i++)
            for (int k = 0; k < 3; k++) {
                double v = bv->obb.c[k];
                for (int a = 0; a < 3; a++) v += ((i >> a) & 1 ? 1.0 : -1.0) * (double)bv->obb.e[a] * bv->obb.axes[a][k];
                pts[i][k] = v;
            }
        out->n = 8;
    } else {
        out->n = oracle_kdop_vertices(snug_kdop_type_directions(type), snug_kdop_axis_count(type), bv->kdop.lo, bv->kdop.hi, pts,
                                      ORACLE_MAX_VERTS);
        if (out->n > ORACLE_MAX_VERTS) {
            harness_fail(__FILE__, __LINE__, "k-DOP with more than %d vertices", ORACLE_MAX_VERTS);
            out->n = 0;
        }
    }
}

/* size of a BV for relative bands: its diameter-like extent */
static inline double bv_size(snug_bv_type type, const any_bv* bv) { return snug_bv_measure(type, bv, SNUG_MEASURE_DIAMETER); }

/* BV shrunk by `band` on every side (its erosion by a ball for boxes, slabs and spheres); false if empty */
static inline bool erode(snug_bv_type type, const any_bv* in, double band, any_bv* out) {
    *out = *in;
    float b = (float)band;
    switch (type) {
    case SNUG_BV_SPHERE: out->sphere.r -= b; return out->sphere.r >= 0;
    case SNUG_BV_AABB:
        for (int k = 0; k < 3; k++) out->aabb.min[k] += b, out->aabb.max[k] -= b;
        return out->aabb.min[0] <= out->aabb.max[0] && out->aabb.min[1] <= out->aabb.max[1] && out->aabb.min[2] <= out->aabb.max[2];
    case SNUG_BV_OBB:
        for (int k = 0; k < 3; k++) out->obb.e[k] -= b;
        return out->obb.e[0] >= 0 && out->obb.e[1] >= 0 && out->obb.e[2] >= 0;
    default: {
        const float(*d)[3] = snug_kdop_type_directions(type);
        for (int j = 0; j < snug_kdop_axis_count(type); j++) {
            float len = sqrtf(d[j][0] * d[j][0] + d[j][1] * d[j][1] + d[j][2] * d[j][2]);
            out->kdop.lo[j] += b * len, out->kdop.hi[j] -= b * len;
            if (out->kdop.lo[j] > out->kdop.hi[j]) return false;
        }
        return true;
    }
    }
}

/* Ground truth class of a pair (B placed by x into A's frame): 1 = overlapping by more than `band` (the BVs
 * shrunk by band on every side still overlap), 0 = separated by more than `band`, -1 = within the band. */
/* the same from prepared shapes: A, B and their erosions (NULL when the erosion is empty) */
static inline int truth_from_shapes(const oracle_shape* A, const oracle_shape* B, const oracle_shape* Ae, const oracle_shape* Be, double band) {
    if ((A->pts && A->n == 0) || (B->pts && B->n == 0)) return -1;
    double lower, dist = oracle_distance_bounds(A, B, &lower, NULL);
    if (lower > band) return 0;
    if (dist > 0 || !Ae || !Be || (Ae->pts && Ae->n == 0) || (Be->pts && Be->n == 0)) return -1;
    return oracle_distance(Ae, Be, NULL) > 0 ? -1 : 1;
}

static inline int truth_class(snug_bv_type ta, const any_bv* a, snug_bv_type tb, const any_bv* b, const snug_xform* x, double band) {
    double pa[ORACLE_MAX_VERTS][3], pb[ORACLE_MAX_VERTS][3];
    oracle_shape A, B;
    shape_of(ta, a, NULL, pa, &A);
    shape_of(tb, b, x, pb, &B);
    if ((A.pts && A.n == 0) || (B.pts && B.n == 0)) return -1;
    double lower, dist = oracle_distance_bounds(&A, &B, &lower, NULL);
    if (lower > band) return 0;
    if (dist > 0) return -1;
    any_bv ea, eb;
    if (!erode(ta, a, band, &ea) || !erode(tb, b, band, &eb)) return -1;
    shape_of(ta, &ea, NULL, pa, &A);
    shape_of(tb, &eb, x, pb, &B);
    if ((A.pts && A.n == 0) || (B.pts && B.n == 0)) return -1;
    return oracle_distance(&A, &B, NULL) > 0 ? -1 : 1;
}

#endif
