/* Bounding-volume pair tests in relative pose (rel maps B's frame into A's frame) and the generic dispatch.
 * Methods, exactness and the rounding guard are documented in bv.h. The homogeneous tests are branch-light
 * float32 code without allocation: they run once per node pair of every query. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "geom/bv.h"

/* rounding guard: a few float ulps of the coordinates' magnitude */
#define GUARD(mag) (8.0f * FLT_EPSILON * (mag))

static inline float l1(const vec3 v) { return fabsf(v[0]) + fabsf(v[1]) + fabsf(v[2]); }

/* out = M^T v (cglm 0.8.8 has no transposed product): component c is column c . v */
static inline void mat3_tmulv(const mat3 m, const vec3 v, vec3 out) {
    float x = glm_vec3_dot((float*)m[0], (float*)v), y = glm_vec3_dot((float*)m[1], (float*)v), z = glm_vec3_dot((float*)m[2], (float*)v);
    out[0] = x, out[1] = y, out[2] = z;
}

/* ------------------------------------------------------------------------------------------------ spheres */

bool snug_sphere_sphere(const snug_sphere* a, const snug_sphere* b, const snug_xform* rel) {
    vec3 cb, d;
    snug_xform_point(rel, b->c, cb);
    glm_vec3_sub(cb, (float*)a->c, d);
    float rr = a->r + b->r + GUARD(l1(a->c) + l1(b->c) + l1(rel->t) + a->r + b->r);
    return glm_vec3_norm2(d) <= rr * rr;
}

/* squared distance from p to the box [-h, h] (centre-relative), Arvo's clamping */
static inline float box_dist2(const vec3 p, const vec3 h) {
    float d2 = 0.0f;
    for (int k = 0; k < 3; k++) {
        float e = fmaxf(fabsf(p[k]) - h[k], 0.0f);
        d2 += e * e;
    }
    return d2;
}

/* sphere centre of A in B's frame: R^T (c - t) */
static inline void sphere_in_b(const snug_sphere* a, const snug_xform* rel, vec3 out) {
    vec3 d;
    glm_vec3_sub((float*)a->c, (float*)rel->t, d);
    mat3_tmulv(rel->R, d, out);
}

bool snug_sphere_aabb(const snug_sphere* a, const snug_aabb* b, const snug_xform* rel) {
    vec3 q, c, h;
    sphere_in_b(a, rel, q);
    glm_vec3_add((float*)b->min, (float*)b->max, c);
    glm_vec3_scale(c, 0.5f, c);
    glm_vec3_sub((float*)b->max, (float*)b->min, h);
    glm_vec3_scale(h, 0.5f, h);
    glm_vec3_sub(q, c, q);
    float r = a->r + GUARD(l1(a->c) + l1(rel->t) + l1(c) + l1(h) + a->r);
    return box_dist2(q, h) <= r * r;
}

bool snug_sphere_obb(const snug_sphere* a, const snug_obb* b, const snug_xform* rel) {
    vec3 q, d, p;
    sphere_in_b(a, rel, q);
    glm_vec3_sub(q, (float*)b->c, d);
    mat3_tmulv(b->axes, d, p);
    float r = a->r + GUARD(l1(a->c) + l1(rel->t) + l1(b->c) + l1(b->e) + a->r);
    return box_dist2(p, b->e) <= r * r;
}

/* ------------------------------------------------------------------------------------------------ AABB */

void snug_rel_prepare(const snug_xform* rel, snug_rel* out) {
    out->x = *rel;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) out->absR[c][r] = fabsf(rel->R[c][r]) + SNUG_SAT_EPS;
    out->tmag = l1(rel->t);
}

void snug_aabb_side_a_of(const snug_aabb* a, snug_aabb_side_a* out) {
    glm_vec3_add((float*)a->min, (float*)a->max, out->c);
    glm_vec3_sub((float*)a->max, (float*)a->min, out->h);
    glm_vec3_scale(out->c, 0.5f, out->c);
    glm_vec3_scale(out->h, 0.5f, out->h);
    out->mag = l1(out->c) + l1(out->h);
}

void snug_aabb_side_b_of(const snug_aabb* b, const snug_rel* rel, snug_aabb_side_b* out) {
    vec3 cb;
    glm_vec3_add((float*)b->min, (float*)b->max, cb);
    glm_vec3_sub((float*)b->max, (float*)b->min, out->h);
    glm_vec3_scale(cb, 0.5f, cb);
    glm_vec3_scale(out->h, 0.5f, out->h);
    /* re-wrap: B's box in A's frame has centre R cb + t and half extents |R| hb */
    glm_mat3_mulv((vec3*)rel->x.R, cb, out->cw);
    glm_vec3_add(out->cw, (float*)rel->x.t, out->cw);
    glm_mat3_mulv((vec3*)rel->absR, out->h, out->hw);
    out->mc = l1(cb);
    out->mh = l1(out->h);
}

bool snug_aabb_sides_overlap(const snug_aabb_side_a* a, const snug_aabb_side_b* b, const snug_rel* rel) {
    vec3 d;
    const float *ha = a->h, *hbb = b->hw;
    glm_vec3_sub((float*)b->cw, (float*)a->c, d);
    float g = GUARD(a->mag + b->mc + b->mh + rel->tmag);
    bool sep = (fabsf(d[0]) > ha[0] + hbb[0] + g) | (fabsf(d[1]) > ha[1] + hbb[1] + g) | (fabsf(d[2]) > ha[2] + hbb[2] + g);
    /* B's face axes too (A's box re-wrapped in B's frame): a thin slab turned against A, such as a wall or a
     * board beside a finely meshed ornament, wraps into a box far larger than itself in A's frame, and only its
     * own axes then separate what lies beside it */
    for (int j = 0; j < 3; j++)
        sep |= fabsf(glm_vec3_dot((float*)rel->x.R[j], d)) > b->h[j] + glm_vec3_dot((float*)rel->absR[j], (float*)ha) + g;
    return !sep;
}

bool snug_aabb_aabb_rel(const snug_aabb* a, const snug_aabb* b, const snug_rel* rel) {
    snug_aabb_side_a sa;
    snug_aabb_side_b sb;
    snug_aabb_side_a_of(a, &sa);
    snug_aabb_side_b_of(b, rel, &sb);
    return snug_aabb_sides_overlap(&sa, &sb, rel);
}

bool snug_aabb_aabb(const snug_aabb* a, const snug_aabb* b, const snug_xform* rel) {
    snug_rel r;
    snug_rel_prepare(rel, &r);
    return snug_aabb_aabb_rel(a, b, &r);
}

/* ------------------------------------------------------------------------------------------------ OBB */

/* 15-axis SAT (seed 000 Fig. 4.5 / seed 001 §5) in A's box frame. R[j][i] (cglm column j, row i) = a_i . b_j. */
bool snug_obb_obb(const snug_obb* a, const snug_obb* b, const snug_xform* rel) {
    mat3 M, Rt, R, Q;
    vec3 cb, d, t;
    glm_mat3_mul((vec3*)rel->R, (vec3*)b->axes, M); /* B's axes in A's body frame */
    glm_mat3_transpose_to((vec3*)a->axes, Rt);
    glm_mat3_mul(Rt, M, R);
    snug_xform_point(rel, b->c, cb);
    glm_vec3_sub(cb, (float*)a->c, d);
    glm_mat3_mulv(Rt, d, t);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) Q[c][r] = fabsf(R[c][r]) + SNUG_SAT_EPS;
    const float* ea = a->e;
    const float* eb = b->e;
    float g = GUARD(l1(a->c) + l1(b->c) + l1(rel->t) + l1(ea) + l1(eb));
    /* A's face axes; row i of R is R[.][i] */
    for (int i = 0; i < 3; i++)
        if (fabsf(t[i]) > ea[i] + eb[0] * Q[0][i] + eb[1] * Q[1][i] + eb[2] * Q[2][i] + g) return false;
    /* B's face axes */
    for (int j = 0; j < 3; j++)
        if (fabsf(t[0] * R[j][0] + t[1] * R[j][1] + t[2] * R[j][2]) > ea[0] * Q[j][0] + ea[1] * Q[j][1] + ea[2] * Q[j][2] + eb[j] + g)
            return false;
    /* 9 edge-edge axes a_i x b_j */
    for (int i = 0; i < 3; i++) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            float lhs = fabsf(t[i2] * R[j][i1] - t[i1] * R[j][i2]);
            float rhs = ea[i1] * Q[j][i2] + ea[i2] * Q[j][i1] + eb[j1] * Q[j2][i] + eb[j2] * Q[j1][i];
            if (lhs > rhs + g) return false;
        }
    }
    return true;
}

bool snug_aabb_obb(const snug_aabb* a, const snug_obb* b, const snug_xform* rel) {
    /* the AABB as an OBB in float: the rounding of its centre and half extents (a few ulps of |min|, |max|) is
     * inside the SAT's rounding guard, which scales with the same magnitudes */
    snug_obb oa;
    glm_vec3_add((float*)a->min, (float*)a->max, oa.c);
    glm_vec3_scale(oa.c, 0.5f, oa.c);
    glm_vec3_sub((float*)a->max, (float*)a->min, oa.e);
    glm_vec3_scale(oa.e, 0.5f, oa.e);
    glm_mat3_identity(oa.axes);
    return snug_obb_obb(&oa, b, rel);
}

/* ------------------------------------------------------------------------------------------------ k-DOP */

/* Decomposition of u over B's signed directions: u = lambda d1 + sum_k r_k e_k with d1 the direction closest to
 * u and lambda >= 0 minimising lambda |d1| + |r|_1, the support bound's weight (f is convex and piecewise linear
 * in lambda, so its minimum is at 0 or at a breakpoint u_k / d1_k). The axes e_k are slabs 0..2 of every type.
 * When u is one of the directions, lambda = 1 and r = 0 exactly. Returns the sum of |weights|. */
static double decompose(const double u[3], const float (*dirs)[3], int n, uint8_t idx[SNUG_KDOP_TERMS], float w[SNUG_KDOP_TERMS]) {
    /* The closest signed direction in closed form, per family of the fixed tables (bv_fit.c): the best axis is
     * the largest |u_i|; the best corner (+-1,+-1,+-1) follows the signs of u; the best edge (+-1,+-1,0) takes the
     * two largest |u_i|. best = 2 * slab + (1 if the direction is negated). */
    double au[3] = {fabs(u[0]), fabs(u[1]), fabs(u[2])};
    int imax = au[0] >= au[1] ? (au[0] >= au[2] ? 0 : 2) : (au[1] >= au[2] ? 1 : 2);
    int best = 2 * imax + (u[imax] < 0);
    double best_cos = au[imax];
    bool corners = n == 7 || n == 13, edges = n == 9 || n == 13;
    if (corners) {
        double cs = (au[0] + au[1] + au[2]) * 0.57735026918962576;
        if (cs > best_cos) { /* table rows 3..6 have x = +1: (1,1,1), (1,-1,1), (1,1,-1), (1,-1,-1) */
            bool neg = u[0] < 0;
            bool s1 = (u[1] < 0) != neg, s2 = (u[2] < 0) != neg;
            best_cos = cs;
            best = 2 * (3 + s1 + 2 * s2) + neg;
        }
    }
    if (edges) {
        int imin = au[0] < au[1] ? (au[0] < au[2] ? 0 : 2) : (au[1] < au[2] ? 1 : 2);
        int a = imin == 0 ? 1 : 0, b = imin == 2 ? 1 : 2; /* the two largest components, a < b */
        double cs = (au[a] + au[b]) * 0.70710678118654752;
        if (cs > best_cos) { /* rows base+0..5: (1,1,0), (1,-1,0), (1,0,1), (1,0,-1), (0,1,1), (0,1,-1) */
            int base = n == 9 ? 3 : 7;
            int pair = a == 0 ? (b == 1 ? 0 : 2) : 4;
            bool neg = u[a] < 0;
            bool opposite = (u[b] < 0) != neg;
            best_cos = cs;
            best = 2 * (base + pair + opposite) + neg;
        }
    }
    double s = (best & 1) ? -1.0 : 1.0, d1[3];
    const float* d = dirs[best >> 1];
    for (int k = 0; k < 3; k++) d1[k] = s * d[k];
    double len1 = sqrt(d1[0] * d1[0] + d1[1] * d1[1] + d1[2] * d1[2]);
    double lambda = 0.0, fbest = fabs(u[0]) + fabs(u[1]) + fabs(u[2]);
    for (int k = 0; k < 3; k++) {
        if (d1[k] == 0.0) continue;
        double l = u[k] / d1[k];
        if (!(l > 0.0)) continue;
        double f = l * len1 + fabs(u[0] - l * d1[0]) + fabs(u[1] - l * d1[1]) + fabs(u[2] - l * d1[2]);
        if (f < fbest) fbest = f, lambda = l;
    }
    /* lo[i] is at i, hi[i] at SNUG_KDOP_MAX_AXES + i: the support along +d_i is hi_i, along -d_i it is -lo_i */
    idx[0] = (uint8_t)((best & 1) ? (best >> 1) : SNUG_KDOP_MAX_AXES + (best >> 1));
    w[0] = (float)((best & 1) ? -lambda : lambda);
    double wsum = lambda;
    for (int k = 0; k < 3; k++) {
        double r = u[k] - lambda * d1[k];
        idx[1 + k] = (uint8_t)(r >= 0 ? SNUG_KDOP_MAX_AXES + k : k);
        w[1 + k] = (float)r; /* +r * hi_k, or -|r| * lo_k: the sign already matches */
        wsum += fabs(r);
    }
    return wsum;
}

void snug_kdop_rel_prepare(const snug_xform* rel, snug_bv_type ta, snug_bv_type tb, float magnitude, snug_kdop_rel* out) {
    memset(out, 0, sizeof *out);
    out->n[0] = snug_kdop_axis_count(ta);
    out->n[1] = snug_kdop_axis_count(tb);
    const float(*dirs[2])[3] = {snug_kdop_type_directions(ta), snug_kdop_type_directions(tb)};
    double R[3][3], tr[2][3]; /* R[r][c] row-major B -> A */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) R[r][c] = rel->R[c][r];
    for (int r = 0; r < 3; r++) {
        tr[0][r] = rel->t[r];
        tr[1][r] = -(R[0][r] * rel->t[0] + R[1][r] * rel->t[1] + R[2][r] * rel->t[2]); /* -R^T t */
    }
    double wmax = 0.0, tmax = 0.0;
    bool identity = true;
    for (int r = 0; r < 3; r++) {
        tmax = fmax(tmax, fabs(tr[0][r]));
        identity = identity && rel->t[r] == 0.0f;
        for (int c = 0; c < 3; c++) identity = identity && rel->R[c][r] == (r == c ? 1.0f : 0.0f);
    }
    for (int side = 0; side < 2; side++) {
        const float(*d)[3] = dirs[side];
        const float(*other)[3] = dirs[1 - side];
        for (int j = 0; j < out->n[side]; j++) {
            double u[3];
            for (int c = 0; c < 3; c++) /* side 0: u = R^T d (A dir in B's frame); side 1: u = R d */
                u[c] = side == 0 ? R[0][c] * d[j][0] + R[1][c] * d[j][1] + R[2][c] * d[j][2]
                                 : R[c][0] * d[j][0] + R[c][1] * d[j][1] + R[c][2] * d[j][2];
            out->side[side].dt[j] = (float)(d[j][0] * tr[side][0] + d[j][1] * tr[side][1] + d[j][2] * tr[side][2]);
            double wu = decompose(u, other, out->n[1 - side], out->side[side].idx[j][0], out->side[side].w[j][0]);
            double un[3] = {-u[0], -u[1], -u[2]};
            double wl = decompose(un, other, out->n[1 - side], out->side[side].idx[j][1], out->side[side].w[j][1]);
            for (int k = 0; k < SNUG_KDOP_TERMS; k++) out->side[side].w[j][1][k] = -out->side[side].w[j][1][k]; /* lower = dt - h(-u) */
            wmax = fmax(wmax, fmax(wu, wl));
        }
    }
    out->guard = identity ? 0.0f : (float)(8.0 * FLT_EPSILON * (3.0 * tmax + (wmax + 1.0) * magnitude));
}

/* one side: the other BV's bounds along this side's slabs; true when some slab separates */
static inline bool kdop_side_separates(const float* lo, const float* hi, const float* other, int n, const float* dt,
                                       const uint8_t (*idx)[2][SNUG_KDOP_TERMS], const float (*w)[2][SNUG_KDOP_TERMS], float g) {
    bool sep = false;
    for (int j = 0; j < n; j++) {
        float ub = dt[j], lb = dt[j];
        for (int k = 0; k < SNUG_KDOP_TERMS; k++) {
            ub += w[j][0][k] * other[idx[j][0][k]];
            lb += w[j][1][k] * other[idx[j][1][k]];
        }
        sep |= (ub < lo[j] - g) | (lb > hi[j] + g);
    }
    return sep;
}

bool snug_kdop_kdop_rel(const snug_kdop* a, const snug_kdop* b, const snug_kdop_rel* rel) {
    /* a k-DOP is 26 contiguous floats: lo[0..12], hi[13..25]; the prepared indices address that layout */
    const float* fa = a->lo;
    const float* fb = b->lo;
    _Static_assert(sizeof(snug_kdop) == 2 * SNUG_KDOP_MAX_AXES * sizeof(float), "k-DOP layout");
    if (kdop_side_separates(a->lo, a->hi, fb, rel->n[0], rel->side[0].dt, (const uint8_t(*)[2][SNUG_KDOP_TERMS])rel->side[0].idx,
                            (const float(*)[2][SNUG_KDOP_TERMS])rel->side[0].w, rel->guard))
        return false;
    return !kdop_side_separates(b->lo, b->hi, fa, rel->n[1], rel->side[1].dt, (const uint8_t(*)[2][SNUG_KDOP_TERMS])rel->side[1].idx,
                                (const float(*)[2][SNUG_KDOP_TERMS])rel->side[1].w, rel->guard);
}

static float kdop_magnitude(const snug_kdop* k, int n) {
    float m = 0.0f;
    for (int j = 0; j < n; j++) m = fmaxf(m, fmaxf(fabsf(k->lo[j]), fabsf(k->hi[j])));
    return m;
}

static bool kdop_pair(const snug_kdop* a, snug_bv_type ta, const snug_kdop* b, snug_bv_type tb, const snug_xform* rel) {
    snug_kdop_rel r;
    float mag = fmaxf(kdop_magnitude(a, snug_kdop_axis_count(ta)), kdop_magnitude(b, snug_kdop_axis_count(tb)));
    snug_kdop_rel_prepare(rel, ta, tb, mag, &r);
    return snug_kdop_kdop_rel(a, b, &r);
}

bool snug_kdop_kdop(const snug_kdop* a, const snug_kdop* b, snug_bv_type type, const snug_xform* rel) {
    return kdop_pair(a, type, b, type, rel);
}

/* ------------------------------------------------------------------------------------------------ dispatch */

static bool is_kdop(snug_bv_type t) { return t == SNUG_BV_KDOP14 || t == SNUG_BV_KDOP18 || t == SNUG_BV_KDOP26; }

static void to_kdop(snug_bv_type t, const void* bv, snug_bv_type kt, snug_kdop* out) {
    if (t == SNUG_BV_SPHERE) snug_kdop_from_sphere(bv, kt, out);
    else if (t == SNUG_BV_AABB) snug_kdop_from_aabb(bv, kt, out);
    else snug_kdop_from_obb(bv, kt, out);
}

/* ta <= tb in the enum order sphere < AABB < OBB < k-DOPs */
static bool ordered_pair(snug_bv_type ta, const void* a, snug_bv_type tb, const void* b, const snug_xform* rel) {
    if (is_kdop(tb)) {
        if (is_kdop(ta)) return kdop_pair(a, ta, b, tb, rel);
        snug_kdop ka;
        to_kdop(ta, a, tb, &ka);
        return kdop_pair(&ka, tb, b, tb, rel);
    }
    switch (ta * SNUG_BV_TYPE_COUNT + tb) {
    case SNUG_BV_SPHERE * SNUG_BV_TYPE_COUNT + SNUG_BV_SPHERE: return snug_sphere_sphere(a, b, rel);
    case SNUG_BV_SPHERE * SNUG_BV_TYPE_COUNT + SNUG_BV_AABB: return snug_sphere_aabb(a, b, rel);
    case SNUG_BV_SPHERE * SNUG_BV_TYPE_COUNT + SNUG_BV_OBB: return snug_sphere_obb(a, b, rel);
    case SNUG_BV_AABB * SNUG_BV_TYPE_COUNT + SNUG_BV_AABB: return snug_aabb_aabb(a, b, rel);
    case SNUG_BV_AABB * SNUG_BV_TYPE_COUNT + SNUG_BV_OBB: return snug_aabb_obb(a, b, rel);
    case SNUG_BV_OBB * SNUG_BV_TYPE_COUNT + SNUG_BV_OBB: return snug_obb_obb(a, b, rel);
    default: return true; /* unknown type: never a false negative */
    }
}

bool snug_bv_overlap(snug_bv_type ta, const void* a, snug_bv_type tb, const void* b, const snug_xform* rel) {
    if (ta <= tb) return ordered_pair(ta, a, tb, b, rel);
    snug_xform inv;
    snug_xform_inverse(rel, &inv);
    return ordered_pair(tb, b, ta, a, &inv);
}
