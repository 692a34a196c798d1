/* Bounding-volume fits (AABB, minimal sphere, covariance OBB, k-DOP), the k-DOP direction tables and the size
 * measures of seed 000 §3.8.1.
 *
 * Containment guarantee: every fit contains every vertex of its set exactly under the stored float32 values.
 * Extremes are found in double and then rounded outward with a pad of a few float ulps of the BV's magnitude
 * (size plus distance from the origin), which covers the rounding of the stored centre, axes and extents. OBB
 * extents are projected in float lanes instead (obb_fit.h), padded by a bound of that rounding. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "geom/bv.h"
#include "geom/obb_fit.h"
#include "base/vec_d.h"
#include "base/trig.h"

/* ------------------------------------------------------------------------------------------------ helpers */

#define FOR_EACH_VERTEX(set, p)                                                                   \
    for (uint32_t k_ = 0; k_ < (set)->count; k_++)                                                \
        for (int c_ = 0; c_ < 3; c_++)                                                            \
            for (const float* p = (set)->positions + 3u * (set)->tris[3u * snug_tri_set_slot((set), k_) + (uint32_t)c_]; \
                 p; p = NULL)

/* float >= v + pad (and <= v - pad for round_down): outward rounding after adding the safety pad */
static float round_up(double v, double pad) {
    double x = v + pad;
    float f = (float)x;
    /* the next float up when f < x, by its bits (nextafterf is a libm call in wasm; f is finite here): +-0 -> the
     * smallest subnormal, else the magnitude down for negatives and up for positives. Without branches: the
     * comparison is random per OBB extent, and wasm paid ~60 ns per OBB in mispredictions */
    uint32_t u, zero = (uint32_t)(f == 0.0f), below = (uint32_t)((double)f < x);
    memcpy(&u, &f, sizeof u);
    uint32_t next = (u + 1u - ((u >> 31) << 1)) * (1u - zero) + zero;
    u = u + (next - u) * below;
    memcpy(&f, &u, sizeof f);
    return f;
}
static float round_down(double v, double pad) {
    double x = v - pad;
    float f = (float)x;
    if ((double)f > x) f = nextafterf(f, -INFINITY);
    return f;
}

/* a few ulps of a BV whose coordinates reach `magnitude` */
static double ulp_pad(double magnitude) { return 4.0 * FLT_EPSILON * magnitude + 1e-30; }

/* ------------------------------------------------------------------------------------------------ AABB */

void snug_aabb_fit(const snug_tri_set* set, snug_aabb* out) {
    /* min/max of float coordinates are exact: no padding needed */
    glm_vec3_broadcast(INFINITY, out->min);
    glm_vec3_broadcast(-INFINITY, out->max);
    FOR_EACH_VERTEX(set, p) {
        glm_vec3_minv(out->min, (float*)p, out->min);
        glm_vec3_maxv(out->max, (float*)p, out->max);
    }
    if (set->count == 0) { /* empty set: a point at the origin keeps every later computation finite */
        glm_vec3_zero(out->min);
        glm_vec3_zero(out->max);
    }
}

/* ------------------------------------------------------------------------------------------------ sphere */

/* A ball in double with the (at most 4) points that determine it. */
typedef struct ball {
    double c[3];
    double r2;
    double s[4][3];
    int ns;
} ball;

/* smallest ball with all of R (0..4 points) on its boundary; degenerate configurations fall back to the ball
 * over the farthest pair, which the caller's final containment pass corrects if needed */
static void ball_of_boundary(const double R[][3], int n, ball* out) {
    out->ns = n;
    memcpy(out->s, R, sizeof(double[3]) * (size_t)n);
    if (n == 0) {
        memset(out->c, 0, sizeof out->c);
        out->r2 = -1.0;
        return;
    }
    if (n == 1) {
        memcpy(out->c, R[0], sizeof out->c);
        out->r2 = 0.0;
        return;
    }
    /* centre = R0 + sum_i x_i a_i with a_i = R_i - R0, solving 2 a_i.(centre - R0) = |a_i|^2 in the span of a */
    double a[3][3], g[3][3], b[3], x[3] = {0, 0, 0};
    int m = n - 1;
    for (int i = 0; i < m; i++)
        for (int k = 0; k < 3; k++) a[i][k] = R[i + 1][k] - R[0][k];
    for (int i = 0; i < m; i++) {
        b[i] = 0.5 * dot3(a[i], a[i]);
        for (int j = 0; j < m; j++) g[i][j] = dot3(a[i], a[j]);
    }
    bool ok = true;
    if (m == 1) {
        ok = g[0][0] > 0.0;
        if (ok) x[0] = b[0] / g[0][0];
    } else if (m == 2) {
        double det = g[0][0] * g[1][1] - g[0][1] * g[1][0];
        ok = fabs(det) > 1e-12 * g[0][0] * g[1][1];
        if (ok) {
            x[0] = (b[0] * g[1][1] - b[1] * g[0][1]) / det;
            x[1] = (g[0][0] * b[1] - g[1][0] * b[0]) / det;
        }
    } else {
        double det = g[0][0] * (g[1][1] * g[2][2] - g[1][2] * g[2][1]) - g[0][1] * (g[1][0] * g[2][2] - g[1][2] * g[2][0]) +
                     g[0][2] * (g[1][0] * g[2][1] - g[1][1] * g[2][0]);
        ok = fabs(det) > 1e-12 * g[0][0] * g[1][1] * g[2][2];
        if (ok) {
            for (int col = 0; col < 3; col++) { /* Cramer */
                double h[3][3];
                memcpy(h, g, sizeof h);
                for (int r = 0; r < 3; r++) h[r][col] = b[r];
                x[col] = (h[0][0] * (h[1][1] * h[2][2] - h[1][2] * h[2][1]) - h[0][1] * (h[1][0] * h[2][2] - h[1][2] * h[2][0]) +
                          h[0][2] * (h[1][0] * h[2][1] - h[1][1] * h[2][0])) /
                         det;
            }
        }
    }
    if (!ok) { /* (near-)degenerate support: diametral ball of the farthest pair */
        int bi = 0, bj = 1;
        double best = -1.0;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (dist2(R[i], R[j]) > best) best = dist2(R[i], R[j]), bi = i, bj = j;
        for (int k = 0; k < 3; k++) out->c[k] = 0.5 * (R[bi][k] + R[bj][k]);
        out->r2 = 0.25 * best;
        out->ns = 2;
        memcpy(out->s[0], R[bi], sizeof out->s[0]);
        memcpy(out->s[1], R[bj], sizeof out->s[1]);
        return;
    }
    for (int k = 0; k < 3; k++) {
        out->c[k] = R[0][k];
        for (int i = 0; i < m; i++) out->c[k] += x[i] * a[i][k];
    }
    out->r2 = 0.0;
    for (int i = 0; i < n; i++) out->r2 = fmax(out->r2, dist2(out->c, R[i]));
}

static bool ball_contains(const ball* b, const double* p) { return dist2(b->c, p) <= b->r2 * (1.0 + 1e-12); }

/* Welzl's recursion on a tiny point list (at most 5 points): smallest ball of P with R on the boundary */
static void welzl_small(double P[][3], int np, double R[][3], int nr, ball* out) {
    if (np == 0 || nr == 4) {
        ball_of_boundary((const double(*)[3])R, nr, out);
        return;
    }
    welzl_small(P, np - 1, R, nr, out);
    if (out->r2 >= 0.0 && ball_contains(out, P[np - 1])) return;
    memcpy(R[nr], P[np - 1], sizeof R[nr]);
    welzl_small(P, np - 1, R, nr + 1, out);
}

/* Minimal enclosing ball by Welzl's move-to-front idea applied to the support set (Gärtner's pivoting):
 * the support points of the current ball are kept in front; the farthest vertex outside is the pivot, and the
 * new ball is Welzl's ball of support + pivot with the pivot on the boundary. The radius grows strictly with each
 * pivot, so the loop ends with the minimal ball of the whole set, without a copy of the points (no allocation).
 * Seeded with the support of a subset's ball (seed 000's incremental F + f), only the new vertices can pivot. */
void snug_sphere_fit_incremental(const snug_tri_set* set, snug_sphere_support* support, snug_sphere* out) {
    if (set->count == 0) {
        glm_vec3_zero(out->c);
        out->r = 0.0f;
        if (support) support->n = 0;
        return;
    }
    ball b;
    if (support && support->n > 0 && support->n <= 4) {
        double P[4][3], R[4][3];
        for (int i = 0; i < support->n; i++)
            for (int k = 0; k < 3; k++) P[i][k] = support->p[i][k];
        welzl_small(P, support->n, R, 0, &b);
    } else {
        const float* p0 = set->positions + 3u * set->tris[3u * snug_tri_set_slot(set, 0)];
        double first[1][3] = {{p0[0], p0[1], p0[2]}};
        ball_of_boundary((const double(*)[3])first, 1, &b);
    }
    double far2;
    for (int iter = 0;; iter++) {
        double far[3] = {0, 0, 0};
        far2 = -1.0;
        FOR_EACH_VERTEX(set, p) {
            double q[3] = {p[0], p[1], p[2]};
            double d2 = dist2(b.c, q);
            if (d2 > far2) far2 = d2, memcpy(far, q, sizeof far);
        }
        if (far2 <= b.r2 * (1.0 + 1e-12) || iter >= 200) break;
        double P[4][3], R[5][3];
        memcpy(P, b.s, sizeof(double[3]) * (size_t)b.ns);
        memcpy(R[0], far, sizeof far);
        ball nb;
        welzl_small(P, b.ns, R, 1, &nb);
        if (nb.r2 <= b.r2) break; /* no progress in floating point: far2 still bounds the set around b.c */
        b = nb;
    }
    /* radius around the stored float centre: every vertex is within sqrt(far2) of b.c (the last scan), and the
     * rounded centre moved by |b.c - c| (triangle inequality), so no further pass is needed */
    for (int k = 0; k < 3; k++) out->c[k] = (float)b.c[k];
    double c[3] = {out->c[0], out->c[1], out->c[2]};
    double r = sqrt(dmax(far2, 0.0)) + sqrt(dist2(b.c, c));
    out->r = round_up(r, ulp_pad(r + dmax(fabs(c[0]), dmax(fabs(c[1]), fabs(c[2])))));
    if (support) {
        support->n = b.ns;
        for (int i = 0; i < b.ns; i++)
            for (int k = 0; k < 3; k++) support->p[i][k] = (float)b.s[i][k];
    }
}

void snug_sphere_fit(const snug_tri_set* set, snug_sphere* out) { snug_sphere_fit_incremental(set, NULL, out); }

/* ------------------------------------------------------------------------------------------------ OBB */

/* ---- moments (obb_fit.h) */

void snug_obb_moments_add_tri(snug_obb_moments* mo, const float* a, const float* b, const float* c, const double ref[3]) {
    double v[3][3], m[3], e1[3], e2[3], n[3];
    for (int i = 0; i < 3; i++) {
        v[0][i] = (double)a[i] - ref[i];
        v[1][i] = (double)b[i] - ref[i];
        v[2][i] = (double)c[i] - ref[i];
        m[i] = (v[0][i] + v[1][i] + v[2][i]) / 3.0;
        e1[i] = v[1][i] - v[0][i];
        e2[i] = v[2][i] - v[0][i];
    }
    cross3(e1, e2, n);
    double area = 0.5 * sqrt(dot3(n, n)), w = area / 12.0;
    static const int I[6] = {0, 1, 2, 0, 0, 1}, J[6] = {0, 1, 2, 1, 2, 2};
    mo->area += area;
    for (int i = 0; i < 3; i++) mo->m[i] += area * m[i];
    for (int k = 0; k < 6; k++)
        mo->s[k] += w * (9.0 * m[I[k]] * m[J[k]] + v[0][I[k]] * v[0][J[k]] + v[1][I[k]] * v[1][J[k]] + v[2][I[k]] * v[2][J[k]]);
}

void snug_obb_moments_add(snug_obb_moments* to, const snug_obb_moments* x) {
    to->area += x->area;
    for (int i = 0; i < 3; i++) to->m[i] += x->m[i];
    for (int k = 0; k < 6; k++) to->s[k] += x->s[k];
}

static void moments_cov(const snug_obb_moments* mo, double cov[3][3]) {
    static const int I[6] = {0, 1, 2, 0, 0, 1}, J[6] = {0, 1, 2, 1, 2, 2};
    double mu[3], ia = 1.0 / mo->area; /* one division per tree node, not nine */
    for (int i = 0; i < 3; i++) mu[i] = mo->m[i] * ia;
    for (int k = 0; k < 6; k++) cov[I[k]][J[k]] = cov[J[k]][I[k]] = mo->s[k] * ia - mu[I[k]] * mu[J[k]];
}

void snug_obb_moments_basis(const snug_obb_moments* mo, double V[3][3]) {
    double cov[3][3], w[3];
    moments_cov(mo, cov);
    snug_eigen_sym3d((const double(*)[3])cov, w, V);
}

void snug_obb_moments_basis_pair(const snug_obb_moments* a, const snug_obb_moments* b, double Va[3][3], double Vb[3][3]) {
    double ca[3][3], cb[3][3], wa[3], wb[3];
    moments_cov(a, ca);
    moments_cov(b, cb);
    snug_eigen_sym3d_pair((const double(*)[3])ca, (const double(*)[3])cb, wa, Va, wb, Vb);
}

/* ---- ranges (obb_fit.h) */

void snug_obb_ranges_finish(const snug_obb_ranges* r, const float* ref, snug_obb* o) {
    float flo[4], fhi[4];
    F4_STORE(flo, r->lo);
    F4_STORE(fhi, r->hi);
    /* scalars, not arrays indexed in loops: wasm would keep those in memory, and this runs once per tree node */
    double lo0 = flo[0], lo1 = flo[1], lo2 = flo[2], hi0 = fhi[0], hi1 = fhi[1], hi2 = fhi[2];
    double r0 = ref ? ref[0] : 0.0, r1 = ref ? ref[1] : 0.0, r2 = ref ? ref[2] : 0.0;
    double m0 = 0.5 * (lo0 + hi0), m1 = 0.5 * (lo1 + hi1), m2 = 0.5 * (lo2 + hi2);
    const float(*ax)[3] = (const float(*)[3])o->axes;
    o->c[0] = (float)(((r0 + (double)ax[0][0] * m0) + (double)ax[1][0] * m1) + (double)ax[2][0] * m2);
    o->c[1] = (float)(((r1 + (double)ax[0][1] * m0) + (double)ax[1][1] * m1) + (double)ax[2][1] * m2);
    o->c[2] = (float)(((r2 + (double)ax[0][2] * m0) + (double)ax[1][2] * m1) + (double)ax[2][2] * m2);
    /* A float projection a . v errs by <= gamma_3 sum_i |a_i v_i| <= ~3 (eps / 2) |v| (Cauchy-Schwarz, |a| = 1 to
     * float precision), plus (eps / 2) |v| when v is a float difference p - ref, and |v| <= R =
     * |(max(|lo_k|, |hi_k|))_k| as the axes are orthonormal. Measured from the stored centre in double (relative to
     * ref: float differences are exact in double) and padded by 4 eps R (2x that bound), the slab test holds for
     * every vertex. */
    double R2 = (dmax(lo0 * lo0, hi0 * hi0) + dmax(lo1 * lo1, hi1 * hi1)) + dmax(lo2 * lo2, hi2 * hi2);
    double pad = 4.0 * FLT_EPSILON * sqrt(R2) + 1e-30;
    double d0 = (double)o->c[0] - r0, d1 = (double)o->c[1] - r1, d2 = (double)o->c[2] - r2;
    double c0 = ((double)ax[0][0] * d0 + (double)ax[0][1] * d1) + (double)ax[0][2] * d2;
    double c1 = ((double)ax[1][0] * d0 + (double)ax[1][1] * d1) + (double)ax[1][2] * d2;
    double c2 = ((double)ax[2][0] * d0 + (double)ax[2][1] * d1) + (double)ax[2][2] * d2;
    o->e[0] = round_up(dmax(hi0 - c0, c0 - lo0), pad);
    o->e[1] = round_up(dmax(hi1 - c1, c1 - lo1), pad);
    o->e[2] = round_up(dmax(hi2 - c2, c2 - lo2), pad);
}

/* ---- covariance fit */

/* Axes of the area-weighted triangle covariance (seed 001 §7.9), coordinates taken relative to the set's first
 * vertex so that float data far from the origin does not cancel (the shift leaves the covariance unchanged).
 * Falls back to the vertex covariance when every triangle is degenerate. */
static void covariance_axes(const snug_tri_set* set, double V[3][3]) {
    const float* o = set->positions + 3u * set->tris[3u * snug_tri_set_slot(set, 0)];
    double ref[3] = {o[0], o[1], o[2]};
    snug_obb_moments mo;
    memset(&mo, 0, sizeof mo);
    for (uint32_t k = 0; k < set->count; k++) {
        const uint32_t* t = set->tris + 3u * snug_tri_set_slot(set, k);
        snug_obb_moments_add_tri(&mo, set->positions + 3u * t[0], set->positions + 3u * t[1], set->positions + 3u * t[2], ref);
    }
    if (mo.area > 0.0) {
        snug_obb_moments_basis(&mo, V);
        return;
    }
    double nv = 0.0, v1[3] = {0, 0, 0}, v2[3][3] = {{0}}, cov[3][3], w[3];
    FOR_EACH_VERTEX(set, p) {
        double v[3] = {p[0] - ref[0], p[1] - ref[1], p[2] - ref[2]};
        nv += 1.0;
        for (int i = 0; i < 3; i++) {
            v1[i] += v[i];
            for (int j = i; j < 3; j++) v2[i][j] += v[i] * v[j];
        }
    }
    for (int i = 0; i < 3; i++)
        for (int j = i; j < 3; j++) cov[i][j] = cov[j][i] = v2[i][j] / nv - (v1[i] / nv) * (v1[j] / nv);
    snug_eigen_sym3d((const double(*)[3])cov, w, V);
}

/* Projection range of every `stride`-th vertex reference of the set on three axes (double, no padding). */
static void range_along(const snug_tri_set* set, const double axes[3][3], uint32_t stride, double lo[3], double hi[3]) {
    for (int k = 0; k < 3; k++) lo[k] = INFINITY, hi[k] = -INFINITY;
    uint32_t n = set->count * 3u;
    for (uint32_t r = 0; r < n; r += stride) {
        const float* p = set->positions + 3u * set->tris[3u * snug_tri_set_slot(set, r / 3u) + r % 3u];
        for (int k = 0; k < 3; k++) {
            double d = axes[k][0] * p[0] + axes[k][1] * p[1] + axes[k][2] * p[2];
            lo[k] = dmin(lo[k], d);
            hi[k] = dmax(hi[k], d);
        }
    }
}

/* the refinement objective: surface of the box along `axes` over a subsample */
static double surface_along(const snug_tri_set* set, const double axes[3][3], uint32_t stride) {
    double lo[3], hi[3];
    range_along(set, axes, stride, lo, hi);
    double e0 = hi[0] - lo[0], e1 = hi[1] - lo[1], e2 = hi[2] - lo[2];
    return 2.0 * (e0 * e1 + e1 * e2 + e2 * e0);
}

/* axes = Rot(w) * base, Rot by Rodrigues' formula of the rotation vector w */
static void rotate_axes(const double base[3][3], const double w[3], double out[3][3]) {
    double th = sqrt(dot3(w, w));
    double k[3] = {0, 0, 0};
    if (th > 0) k[0] = w[0] / th, k[1] = w[1] / th, k[2] = w[2] / th;
    double c, s;
    snug_sin_cos(th, &s, &c);
    for (int a = 0; a < 3; a++) {
        const double* v = base[a];
        double kxv[3];
        cross3(k, v, kxv);
        double kv = dot3(k, v);
        for (int i = 0; i < 3; i++) out[a][i] = v[i] * c + kxv[i] * s + k[i] * kv * (1.0 - c);
    }
}

/* Nelder-Mead over a rotation vector around `base`, minimising the box surface (seed 000 §3.8.1 suggests
 * Nelder-Mead; surface because it is the quantity the SAH-like quality measures use). */
static void refine_axes(const snug_tri_set* set, double axes[3][3]) {
    uint32_t refs = set->count * 3u;
    uint32_t stride = refs > 4096u ? refs / 4096u : 1u; /* the objective on a subsample; extents use all */
    double x[4][3] = {{0, 0, 0}, {0.3, 0, 0}, {0, 0.3, 0}, {0, 0, 0.3}}, f[4];
    double base[3][3], trial[3][3];
    memcpy(base, axes, sizeof base);
    for (int i = 0; i < 4; i++) {
        rotate_axes(base, x[i], trial);
        f[i] = surface_along(set, trial, stride);
    }
    for (int it = 0; it < 60; it++) {
        int order[4] = {0, 1, 2, 3};
        for (int i = 0; i < 3; i++)
            for (int j = i + 1; j < 4; j++)
                if (f[order[j]] < f[order[i]]) {
                    int t = order[i];
                    order[i] = order[j];
                    order[j] = t;
                }
        int best = order[0], worst = order[3], second = order[2];
        if (f[worst] - f[best] <= 1e-9 * fabs(f[best])) break;
        double cen[3] = {0, 0, 0};
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) cen[k] += x[order[i]][k] / 3.0;
        double xr[3], xe[3], xc[3];
        for (int k = 0; k < 3; k++) xr[k] = cen[k] + (cen[k] - x[worst][k]);
        rotate_axes(base, xr, trial);
        double fr = surface_along(set, trial, stride);
        if (fr < f[best]) {
            for (int k = 0; k < 3; k++) xe[k] = cen[k] + 2.0 * (cen[k] - x[worst][k]);
            rotate_axes(base, xe, trial);
            double fe = surface_along(set, trial, stride);
            if (fe < fr) memcpy(x[worst], xe, sizeof xe), f[worst] = fe;
            else memcpy(x[worst], xr, sizeof xr), f[worst] = fr;
        } else if (fr < f[second]) {
            memcpy(x[worst], xr, sizeof xr), f[worst] = fr;
        } else {
            for (int k = 0; k < 3; k++) xc[k] = cen[k] + 0.5 * (x[worst][k] - cen[k]);
            rotate_axes(base, xc, trial);
            double fc = surface_along(set, trial, stride);
            if (fc < f[worst]) {
                memcpy(x[worst], xc, sizeof xc), f[worst] = fc;
            } else { /* shrink towards the best vertex */
                for (int i = 0; i < 4; i++) {
                    if (i == best) continue;
                    for (int k = 0; k < 3; k++) x[i][k] = x[best][k] + 0.5 * (x[i][k] - x[best][k]);
                    rotate_axes(base, x[i], trial);
                    f[i] = surface_along(set, trial, stride);
                }
            }
        }
    }
    int best = 0;
    for (int i = 1; i < 4; i++)
        if (f[i] < f[best]) best = i;
    rotate_axes(base, x[best], axes);
}

/* Final box along the float axes: one pass over the vertex references in float lanes (obb_fit.h). */
static void obb_finish(const snug_tri_set* set, snug_obb* out) {
    snug_obb_ranges r;
    snug_obb_ranges_init(&r, out->axes);
    for (uint32_t k = 0; k < set->count; k++) {
        const uint32_t* t = set->tris + 3u * snug_tri_set_slot(set, k);
        for (int c = 0; c < 3; c++) snug_obb_ranges_take(&r, snug_obb_ranges_project(&r, set->positions + 3u * t[c]));
    }
    snug_obb_ranges_finish(&r, NULL, out);
}

static double obb_surface(const snug_obb* b) {
    return 8.0 * ((double)b->e[0] * b->e[1] + (double)b->e[1] * b->e[2] + (double)b->e[2] * b->e[0]);
}

void snug_obb_fit(const snug_tri_set* set, bool refine, snug_obb* out) {
    if (set->count == 0) {
        memset(out, 0, sizeof *out);
        glm_mat3_identity(out->axes);
        return;
    }
    double V[3][3];
    covariance_axes(set, V);
    if (refine) refine_axes(set, V);
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < 3; i++) out->axes[a][i] = (float)V[a][i];
    obb_finish(set, out);
    if (refine) { /* the refinement may keep a poor local optimum: the axis-aligned box is a cheap second start */
        snug_obb alt;
        glm_mat3_identity(alt.axes);
        obb_finish(set, &alt);
        if (obb_surface(&alt) < obb_surface(out)) *out = alt;
    }
}

/* ------------------------------------------------------------------------------------------------ k-DOP */

static const float kdop26_dirs[13][3] = {
    {1, 0, 0}, {0, 1, 0}, {0, 0, 1},                                     /* axes */
    {1, 1, 1}, {1, -1, 1}, {1, 1, -1}, {1, -1, -1},                      /* corners */
    {1, 1, 0}, {1, -1, 0}, {1, 0, 1}, {1, 0, -1}, {0, 1, 1}, {0, 1, -1}, /* edges */
};
static const float kdop18_dirs[9][3] = {
    {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {1, -1, 0}, {1, 0, 1}, {1, 0, -1}, {0, 1, 1}, {0, 1, -1},
};

int snug_kdop_axis_count(snug_bv_type type) {
    switch (type) {
    case SNUG_BV_KDOP14: return 7;
    case SNUG_BV_KDOP18: return 9;
    case SNUG_BV_KDOP26: return 13;
    default: return 0;
    }
}

const float (*snug_kdop_directions(void))[3] { return kdop26_dirs; }

const float (*snug_kdop_type_directions(snug_bv_type type))[3] { return type == SNUG_BV_KDOP18 ? kdop18_dirs : kdop26_dirs; }

void snug_kdop_fit(const snug_tri_set* set, snug_bv_type type, snug_kdop* out) {
    int n = snug_kdop_axis_count(type);
    const float(*d)[3] = snug_kdop_type_directions(type);
    double lo[SNUG_KDOP_MAX_AXES], hi[SNUG_KDOP_MAX_AXES], mag = 0.0;
    for (int j = 0; j < n; j++) lo[j] = INFINITY, hi[j] = -INFINITY;
    FOR_EACH_VERTEX(set, p) {
        for (int j = 0; j < n; j++) {
            double s = (double)d[j][0] * p[0] + (double)d[j][1] * p[1] + (double)d[j][2] * p[2];
            lo[j] = dmin(lo[j], s);
            hi[j] = dmax(hi[j], s);
        }
    }
    memset(out, 0, sizeof *out);
    if (set->count == 0) return;
    for (int j = 0; j < n; j++) mag = fmax(mag, fmax(fabs(lo[j]), fabs(hi[j])));
    for (int j = 0; j < n; j++) {
        out->lo[j] = round_down(lo[j], ulp_pad(mag));
        out->hi[j] = round_up(hi[j], ulp_pad(mag));
    }
}

/* ------------------------------------------------------------------------------------------------ conversions */

void snug_obb_from_aabb(const snug_aabb* in, snug_obb* out) {
    glm_mat3_identity(out->axes);
    double mag = 0.0;
    for (int k = 0; k < 3; k++) {
        out->c[k] = (float)(0.5 * ((double)in->min[k] + in->max[k]));
        mag = fmax(mag, fmax(fabs((double)in->min[k]), fabs((double)in->max[k])));
    }
    for (int k = 0; k < 3; k++) {
        double e = fmax((double)in->max[k] - out->c[k], (double)out->c[k] - in->min[k]);
        out->e[k] = round_up(e, ulp_pad(mag));
    }
}

/* slabs from a centre and a support radius per direction: lo/hi = d.c -+ rad(d) */
static void kdop_from_support(const double c[3], const double rad[SNUG_KDOP_MAX_AXES], int n, const float (*d)[3],
                              snug_kdop* out) {
    double lo[SNUG_KDOP_MAX_AXES], hi[SNUG_KDOP_MAX_AXES], mag = 0.0;
    memset(out, 0, sizeof *out);
    for (int j = 0; j < n; j++) {
        double s = d[j][0] * c[0] + d[j][1] * c[1] + d[j][2] * c[2];
        lo[j] = s - rad[j];
        hi[j] = s + rad[j];
        mag = fmax(mag, fmax(fabs(lo[j]), fabs(hi[j])));
    }
    for (int j = 0; j < n; j++) {
        out->lo[j] = round_down(lo[j], ulp_pad(mag));
        out->hi[j] = round_up(hi[j], ulp_pad(mag));
    }
}

void snug_kdop_from_sphere(const snug_sphere* in, snug_bv_type type, snug_kdop* out) {
    int n = snug_kdop_axis_count(type);
    const float(*d)[3] = snug_kdop_type_directions(type);
    double c[3] = {in->c[0], in->c[1], in->c[2]}, rad[SNUG_KDOP_MAX_AXES];
    for (int j = 0; j < n; j++) rad[j] = in->r * sqrt((double)d[j][0] * d[j][0] + d[j][1] * d[j][1] + d[j][2] * d[j][2]);
    kdop_from_support(c, rad, n, d, out);
}

void snug_kdop_from_aabb(const snug_aabb* in, snug_bv_type type, snug_kdop* out) {
    int n = snug_kdop_axis_count(type);
    const float(*d)[3] = snug_kdop_type_directions(type);
    double c[3], h[3], rad[SNUG_KDOP_MAX_AXES];
    for (int k = 0; k < 3; k++) c[k] = 0.5 * ((double)in->min[k] + in->max[k]), h[k] = 0.5 * ((double)in->max[k] - in->min[k]);
    for (int j = 0; j < n; j++) rad[j] = fabs(d[j][0]) * h[0] + fabs(d[j][1]) * h[1] + fabs(d[j][2]) * h[2];
    kdop_from_support(c, rad, n, d, out);
}

void snug_kdop_from_obb(const snug_obb* in, snug_bv_type type, snug_kdop* out) {
    int n = snug_kdop_axis_count(type);
    const float(*d)[3] = snug_kdop_type_directions(type);
    double c[3] = {in->c[0], in->c[1], in->c[2]}, rad[SNUG_KDOP_MAX_AXES];
    for (int j = 0; j < n; j++) {
        rad[j] = 0.0;
        for (int k = 0; k < 3; k++)
            rad[j] += in->e[k] * fabs((double)d[j][0] * in->axes[k][0] + (double)d[j][1] * in->axes[k][1] + (double)d[j][2] * in->axes[k][2]);
    }
    kdop_from_support(c, rad, n, d, out);
}

/* ------------------------------------------------------------------------------------------------ measures */

/* Convex polytope of a k-DOP as planar faces, by clipping its axis box with the other slabs (double). Small fixed
 * arrays: at most 26 faces of at most 32 vertices. */
#define POLY_FACES 32
#define POLY_VERTS 32
typedef struct poly {
    int nf;
    int nv[POLY_FACES];
    double v[POLY_FACES][POLY_VERTS][3];
} poly;

static void poly_box(const double lo[3], const double hi[3], poly* P) {
    static const int quads[6][4][3] = {
        {{0, 0, 0}, {0, 1, 0}, {0, 1, 1}, {0, 0, 1}}, {{1, 0, 0}, {1, 0, 1}, {1, 1, 1}, {1, 1, 0}},
        {{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}}, {{0, 1, 0}, {1, 1, 0}, {1, 1, 1}, {0, 1, 1}},
        {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 0, 1}, {0, 1, 1}, {1, 1, 1}, {1, 0, 1}},
    };
    P->nf = 6;
    for (int f = 0; f < 6; f++) {
        P->nv[f] = 4;
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < 3; k++) P->v[f][i][k] = quads[f][i][k] ? hi[k] : lo[k];
    }
}

/* keep n.x <= h */
static void poly_clip(poly* P, const double n[3], double h) {
    double cut[POLY_VERTS * 2][3];
    int nc = 0;
    int out_f = 0;
    for (int f = 0; f < P->nf; f++) {
        double nvbuf[POLY_VERTS][3];
        int m = 0;
        int cnt = P->nv[f];
        for (int i = 0; i < cnt; i++) {
            const double* a = P->v[f][i];
            const double* b = P->v[f][(i + 1) % cnt];
            double da = dot3(n, a) - h, db = dot3(n, b) - h;
            if (da <= 0 && m < POLY_VERTS) memcpy(nvbuf[m++], a, sizeof nvbuf[0]);
            if ((da < 0 && db > 0) || (da > 0 && db < 0)) {
                double t = da / (da - db), q[3];
                for (int k = 0; k < 3; k++) q[k] = a[k] + t * (b[k] - a[k]);
                if (m < POLY_VERTS) memcpy(nvbuf[m++], q, sizeof q);
                if (nc < POLY_VERTS * 2) memcpy(cut[nc++], q, sizeof q);
            } else if (da == 0 && nc < POLY_VERTS * 2) {
                memcpy(cut[nc++], a, sizeof cut[0]);
            }
        }
        if (m >= 3) {
            P->nv[out_f] = m;
            memcpy(P->v[out_f], nvbuf, sizeof(double[3]) * (size_t)m);
            out_f++;
        }
    }
    P->nf = out_f;
    if (nc < 3 || P->nf >= POLY_FACES) return;
    /* cap face: order the cut points by angle around their centroid in the plane */
    double cen[3] = {0, 0, 0};
    for (int i = 0; i < nc; i++)
        for (int k = 0; k < 3; k++) cen[k] += cut[i][k] / nc;
    double u[3], w[3];
    double ax = fabs(n[0]) < 0.9 ? 1.0 : 0.0, ay = 1.0 - ax;
    double tmp[3] = {ax, ay, 0.0};
    cross3(n, tmp, u);
    cross3(n, u, w);
    double ang[POLY_VERTS * 2];
    for (int i = 0; i < nc; i++) {
        double r[3] = {cut[i][0] - cen[0], cut[i][1] - cen[1], cut[i][2] - cen[2]};
        ang[i] = atan2(dot3(r, w), dot3(r, u));
    }
    for (int i = 1; i < nc; i++) /* insertion sort by angle */
        for (int j = i; j > 0 && ang[j] < ang[j - 1]; j--) {
            double ta = ang[j];
            ang[j] = ang[j - 1];
            ang[j - 1] = ta;
            double tq[3];
            memcpy(tq, cut[j], sizeof tq);
            memcpy(cut[j], cut[j - 1], sizeof tq);
            memcpy(cut[j - 1], tq, sizeof tq);
        }
    int f = P->nf, m = 0;
    for (int i = 0; i < nc && m < POLY_VERTS; i++) {
        if (m > 0 && dist2(cut[i], P->v[f][m - 1]) == 0.0) continue;
        memcpy(P->v[f][m++], cut[i], sizeof cut[0]);
    }
    if (m >= 3) P->nv[f] = m, P->nf++;
}

static void kdop_poly(const snug_kdop* b, snug_bv_type type, poly* P) {
    int n = snug_kdop_axis_count(type);
    const float(*d)[3] = snug_kdop_type_directions(type);
    double lo[3] = {b->lo[0], b->lo[1], b->lo[2]}, hi[3] = {b->hi[0], b->hi[1], b->hi[2]};
    poly_box(lo, hi, P);
    for (int j = 3; j < n; j++) {
        double dn[3] = {d[j][0], d[j][1], d[j][2]}, dm[3] = {-d[j][0], -d[j][1], -d[j][2]};
        poly_clip(P, dn, b->hi[j]);
        poly_clip(P, dm, -(double)b->lo[j]);
    }
}

static float kdop_measure(const snug_kdop* b, snug_bv_type type, snug_measure measure) {
    poly P;
    kdop_poly(b, type, &P);
    double ref[3] = {0, 0, 0};
    int nv = 0;
    for (int f = 0; f < P.nf; f++)
        for (int i = 0; i < P.nv[f]; i++, nv++)
            for (int k = 0; k < 3; k++) ref[k] += P.v[f][i][k];
    if (nv == 0) return 0.0f;
    for (int k = 0; k < 3; k++) ref[k] /= nv;
    if (measure == SNUG_MEASURE_DIAMETER) {
        double best = 0.0;
        for (int f = 0; f < P.nf; f++)
            for (int i = 0; i < P.nv[f]; i++)
                for (int g = f; g < P.nf; g++)
                    for (int j = 0; j < P.nv[g]; j++) best = fmax(best, dist2(P.v[f][i], P.v[g][j]));
        return (float)sqrt(best);
    }
    double vol = 0.0, area = 0.0;
    for (int f = 0; f < P.nf; f++)
        for (int i = 1; i + 1 < P.nv[f]; i++) { /* fan triangles; tetrahedra to the interior reference point */
            const double *a = P.v[f][0], *bb = P.v[f][i], *c = P.v[f][i + 1];
            double e1[3], e2[3], r[3], x[3];
            for (int k = 0; k < 3; k++) e1[k] = bb[k] - a[k], e2[k] = c[k] - a[k], r[k] = a[k] - ref[k];
            cross3(e1, e2, x);
            area += 0.5 * sqrt(dot3(x, x));
            vol += fabs(dot3(r, x)) / 6.0;
        }
    return (float)(measure == SNUG_MEASURE_VOLUME ? vol : area);
}

float snug_bv_measure(snug_bv_type type, const void* bv, snug_measure measure) {
    const double pi = 3.14159265358979323846;
    if (measure != SNUG_MEASURE_VOLUME && measure != SNUG_MEASURE_SURFACE && measure != SNUG_MEASURE_DIAMETER) return 0.0f;
    switch (type) {
    case SNUG_BV_SPHERE: {
        double r = ((const snug_sphere*)bv)->r;
        return (float)(measure == SNUG_MEASURE_VOLUME ? 4.0 / 3.0 * pi * r * r * r : measure == SNUG_MEASURE_SURFACE ? 4.0 * pi * r * r : 2.0 * r);
    }
    case SNUG_BV_AABB: {
        const snug_aabb* b = bv;
        double e0 = (double)b->max[0] - b->min[0], e1 = (double)b->max[1] - b->min[1], e2 = (double)b->max[2] - b->min[2];
        return (float)(measure == SNUG_MEASURE_VOLUME    ? e0 * e1 * e2
                       : measure == SNUG_MEASURE_SURFACE ? 2.0 * (e0 * e1 + e1 * e2 + e2 * e0)
                                                         : sqrt(e0 * e0 + e1 * e1 + e2 * e2));
    }
    case SNUG_BV_OBB: {
        const snug_obb* b = bv;
        double r0 = b->e[0], r1 = b->e[1], r2 = b->e[2];
        return (float)(measure == SNUG_MEASURE_VOLUME    ? 8.0 * r0 * r1 * r2
                       : measure == SNUG_MEASURE_SURFACE ? 8.0 * (r0 * r1 + r1 * r2 + r2 * r0)
                                                         : 2.0 * sqrt(r0 * r0 + r1 * r1 + r2 * r2));
    }
    case SNUG_BV_KDOP14:
    case SNUG_BV_KDOP18:
    case SNUG_BV_KDOP26: return kdop_measure(bv, type, measure);
    default: return 0.0f;
    }
}
