/* Symmetric 3x3 eigen-decomposition in closed form (cglm has none), in double.
 *
 * Root-finding plus elimination is fragile when eigenvalues repeat (cubes, spheres, regular prisms: seed 001
 * digest, erratum E6), so only ONE eigenvector comes from the characteristic cubic: that of the most isolated
 * eigenvalue, whose gap to the other two is at least sqrt(3) times the spread p of the spectrum (in units of p it
 * is a rank-2 problem whose adjugate column has norm >= sqrt(3)). The other two come from the 2x2 problem in the
 * plane orthogonal to it, solved in closed form, which is exact for any pair, repeated or not. The result is
 * orthonormal and right-handed to rounding for every input (test_eigen: residuals and eigenvalues within 1e-13 of
 * the matrix norm on 1e5 matrices per run). This replaced cyclic Jacobi sweeps: about a third of an OBB tree build
 * went into them. */
#include <math.h>
#include <stdint.h>

#include "geom/bv.h"
#include "geom/obb_fit.h"
#include "base/simd.h"

/* Two matrices at once, one per lane of a two-double vector (base/simd.h). The solve is one long dependency chain of
 * divisions and square roots, latency bound, so a second independent solve in the other lane comes almost free; the
 * OBB tree build solves a node's two children together. Branches are lane selects of both sides, so each lane
 * computes exactly what a solve of its matrix alone computes: a single solve is lane 0 of a pair. Everything is in
 * scalar-like locals, without arrays indexed at run time: wasm keeps those on its memory stack. Short names for the
 * lane layer's, as the formulas below are long: */
typedef f64x2 dv;
typedef f64x2_mask mv; /* lane masks: all ones or zero */
#define DV(x) f64x2_set1(x)
#define sel(m, a, b) f64x2_select(m, a, b)
#define vabs(a) f64x2_abs(a)
#define vsqrt(a) f64x2_sqrt(a)

typedef struct v3 {
    dv x, y, z;
} v3;

static inline v3 v3_cross(v3 a, v3 b) { return (v3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
static inline dv v3_dot(v3 a, v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline v3 v3_scale(v3 a, dv s) { return (v3){a.x * s, a.y * s, a.z * s}; }
static inline v3 v3_sel(mv m, v3 a, v3 b) { return (v3){sel(m, a.x, b.x), sel(m, a.y, b.y), sel(m, a.z, b.z)}; }

/* symmetric matrix: diagonal xx yy zz, off-diagonal xy xz yz */
typedef struct sym3 {
    dv xx, yy, zz, xy, xz, yz;
} sym3;

static inline v3 sym3_mul(const sym3* c, v3 v) {
    return (v3){c->xx * v.x + c->xy * v.y + c->xz * v.z, c->xy * v.x + c->yy * v.y + c->yz * v.z,
                c->xz * v.x + c->yz * v.y + c->zz * v.z};
}

/* unit eigenvector of c for its simple eigenvalue mu: the largest cross product of two rows of c - mu I spans its
 * null space ((1, 0, 0) if all vanish, which cannot happen for a traceless c != 0 and a simple mu) */
static inline v3 null_vector(const sym3* c, dv mu) {
    v3 r0 = {c->xx - mu, c->xy, c->xz}, r1 = {c->xy, c->yy - mu, c->yz}, r2 = {c->xz, c->yz, c->zz - mu};
    v3 x0 = v3_cross(r0, r1), x1 = v3_cross(r0, r2), x2 = v3_cross(r1, r2);
    dv n0 = v3_dot(x0, x0), n1 = v3_dot(x1, x1), n2 = v3_dot(x2, x2);
    mv m1 = (mv)(n1 > n0);
    v3 best = v3_sel(m1, x1, x0);
    dv nb = sel(m1, n1, n0);
    mv m2 = (mv)(n2 > nb);
    best = v3_sel(m2, x2, best);
    nb = sel(m2, n2, nb);
    return v3_sel((mv)(nb > DV(0.0)), v3_scale(best, DV(1.0) / vsqrt(nb)), (v3){DV(1.0), DV(0.0), DV(0.0)});
}

/* Sign convention: the largest-magnitude component positive (ties: the first). Trees split along these axes and
 * search the lower side first, so a consistent orientation makes node order consistent across nodes and meshes:
 * with arbitrary signs the 48k dragon pairs took 1.8-5x the BV tests to their first contact. */
static inline v3 canonical(v3 v) {
    dv ax = vabs(v.x), ay = vabs(v.y), az = vabs(v.z);
    dv lead = sel((mv)(ax >= ay) & (mv)(ax >= az), v.x, sel((mv)(ay >= az), v.y, v.z));
    return v3_sel((mv)(lead < DV(0.0)), v3_scale(v, DV(-1.0)), v);
}

static void put(double w[3], double vecs[3][3], int lane, dv w0, dv w1, dv w2, v3 e0, v3 e1, v3 e2) {
    w[0] = w0[lane], w[1] = w1[lane], w[2] = w2[lane];
    vecs[0][0] = e0.x[lane], vecs[0][1] = e0.y[lane], vecs[0][2] = e0.z[lane];
    vecs[1][0] = e1.x[lane], vecs[1][1] = e1.y[lane], vecs[1][2] = e1.z[lane];
    vecs[2][0] = e2.x[lane], vecs[2][1] = e2.y[lane], vecs[2][2] = e2.z[lane];
}

void snug_eigen_sym3d_pair(const double ma[3][3], const double mb[3][3], double wa[3], double va[3][3], double wb[3],
                           double vb[3][3]) {
#define LANES(i, j) ((dv){ma[i][j], mb[i][j]})
    sym3 a = {LANES(0, 0), LANES(1, 1), LANES(2, 2), DV(0.5) * (LANES(0, 1) + LANES(1, 0)),
              DV(0.5) * (LANES(0, 2) + LANES(2, 0)), DV(0.5) * (LANES(1, 2) + LANES(2, 1))};
#undef LANES
    /* the largest magnitude as a tree, not a chain: every step off the dependency chain counts */
    dv b1 = vabs(a.xx), b2 = vabs(a.yy), b3 = vabs(a.zz), b4 = vabs(a.xy), b5 = vabs(a.xz), b6 = vabs(a.yz);
    b1 = sel((mv)(b2 > b1), b2, b1);
    b3 = sel((mv)(b4 > b3), b4, b3);
    b5 = sel((mv)(b6 > b5), b6, b5);
    b1 = sel((mv)(b3 > b1), b3, b1);
    dv scale = sel((mv)(b5 > b1), b5, b1);
    /* c = a / scale - q I: trace 0; with p = sqrt(trace(c^2) / 6) the eigenvalues of c / p are
     * 2 cos(phi + 2 pi k / 3). Zero or non-finite lanes get c = 0 and end as multiples of the identity below. */
    mv finite = (mv)(scale > DV(0.0)) & (mv)(scale < DV(INFINITY));
    dv s = DV(1.0) / scale, q = DV(0.0), zero = DV(0.0);
    sym3 c = {a.xx * s, a.yy * s, a.zz * s, a.xy * s, a.xz * s, a.yz * s};
    /* centre twice: near multiples of the identity the first mean leaves a trace of a few ulps, which is as large as
     * the rest (diag(1, 1, 1 + ulp) -> (ulp, ulp, 0) would have a double root where the model says simple); the
     * second pass removes it exactly enough */
    for (int pass = 0; pass < 2; pass++) {
        dv t = (c.xx + c.yy + c.zz) * DV(1.0 / 3.0);
        c.xx -= t, c.yy -= t, c.zz -= t;
        q += t;
    }
    c = (sym3){sel(finite, c.xx, zero), sel(finite, c.yy, zero), sel(finite, c.zz, zero),
               sel(finite, c.xy, zero), sel(finite, c.xz, zero), sel(finite, c.yz, zero)};
    q = sel(finite, q, zero);
    dv p2 = c.xx * c.xx + c.yy * c.yy + c.zz * c.zz + DV(2.0) * (c.xy * c.xy + c.xz * c.xz + c.yz * c.yz);
    /* c stays unscaled by p, so det(c / p) = det(c) / p^3 is formed while the square root runs; only a tiny spread
     * (where 1 / p^3 would overflow) scales c first, and then k = p carries the scale to the eigenvalues */
    dv p = vsqrt(p2 * DV(1.0 / 6.0)), ip = DV(1.0) / p;
    mv tiny = (mv)(p2 < DV(1e-150));
    c = (sym3){sel(tiny, c.xx * ip, c.xx), sel(tiny, c.yy * ip, c.yy), sel(tiny, c.zz * ip, c.zz),
               sel(tiny, c.xy * ip, c.xy), sel(tiny, c.xz * ip, c.xz), sel(tiny, c.yz * ip, c.yz)};
    dv pc = sel(tiny, DV(1.0), p), k = sel(tiny, p, DV(1.0));
    ip = sel(tiny, DV(1.0), ip);
    dv det = c.xx * (c.yy * c.zz - c.yz * c.yz) - c.xy * (c.xy * c.zz - c.yz * c.xz) + c.xz * (c.xy * c.yz - c.yy * c.xz);
    dv r = DV(0.5) * det * (ip * ip * ip);
    r = sel((mv)(r > DV(1.0)), DV(1.0), sel((mv)(r < DV(-1.0)), DV(-1.0), r));
    /* the most isolated eigenvalue: the largest when r >= 0, else the smallest (the spectrum of -c is minus that of
     * c). The largest root of mu^3 - 3 mu - 2|r| (= 2 cos(acos(|r|) / 3), in [sqrt 3, 2], where the slope is >= 6
     * and a Newton step takes an error e to <= e^2) by Newton from a quartic fit (error <= 1.1e-5, evaluated as
     * two halves): two steps reach rounding, no acos/cos */
    dv ra = vabs(r), ra2 = ra * ra;
    dv mu = (DV(1.732060864045382) + DV(0.3328234435751917) * ra) +
            ra2 * ((DV(-0.09184386626152734) + DV(0.03502437715042064) * ra) - DV(0.008070797433310501) * ra2);
    for (int it = 0; it < 2; it++) {
        dv m2 = mu * mu;
        mu -= (mu * (m2 - DV(3.0)) - DV(2.0) * ra) / (DV(3.0) * (m2 - DV(1.0)));
    }
    mv neg = (mv)(r < DV(0.0));
    mu = sel(neg, -mu, mu);
    v3 v = null_vector(&c, mu * pc);
    /* u, t spanning the plane orthogonal to v: crosses with the axis least aligned with v; both of length
     * |u| >= sqrt(2/3), left unnormalised (the 2x2 problem only scales by |u|^2) */
    dv ax = vabs(v.x), ay = vabs(v.y), az = vabs(v.z);
    mv least_x = (mv)(ax <= ay) & (mv)(ax <= az), least_y = (mv)(ay <= az);
    v3 u = v3_sel(least_x, (v3){zero, v.z, -v.y}, v3_sel(least_y, (v3){-v.z, zero, v.x}, (v3){v.y, -v.x, zero}));
    v3 t = v3_cross(v, u);
    v3 cu = sym3_mul(&c, u), ct = sym3_mul(&c, t);
    dv m00 = v3_dot(u, cu), m11 = v3_dot(t, ct), m01 = DV(0.5) * (v3_dot(u, ct) + v3_dot(t, cu)), s2 = v3_dot(u, u);
    /* eigenvector (x, y) of the larger eigenvalue avg + h of [[m00, m01], [m01, m11]], from the row of
     * M - (avg + h) I that does not cancel; any vector when the pair is repeated (h = 0) */
    dv d = DV(0.5) * (m00 - m11), h = vsqrt(d * d + m01 * m01);
    mv split = (mv)(h > zero), dpos = (mv)(d >= zero);
    dv x = sel(split, sel(dpos, d + h, m01), DV(1.0)), y = sel(split, sel(dpos, m01, h - d), zero);
    v3 u2 = {x * u.x + y * t.x, x * u.y + y * t.y, x * u.z + y * t.z};
    u2 = v3_scale(u2, DV(1.0) / vsqrt(v3_dot(u2, u2)));
    t = v3_cross(v, u2);
    /* eigenvalues back in the input's units; the order follows from which end mu is; e3 = e1 x e2 (right-handed) */
    dv avg = DV(0.5) * (m00 + m11);
    dv ks = k / s2, lv = scale * (q + p * mu), lu = scale * (q + ks * (avg + h)), lt = scale * (q + ks * (avg - h));
    mv rpos = ~neg; /* r >= 0 (r is not NaN: clamped above from finite values) */
    v3 e0 = canonical(v3_sel(rpos, v, u2)), e1 = canonical(v3_sel(rpos, u2, t)), e2 = v3_cross(e0, e1);
    dv w0 = sel(rpos, lv, lu), w1 = sel(rpos, lu, lt), w2 = sel(rpos, lt, lv);
    /* a multiple of the identity (or zero, or not finite): every basis is an eigenbasis */
    mv ident = ~(mv)(p2 > zero);
    dv mean = (a.xx + a.yy + a.zz) / DV(3.0), one = DV(1.0);
    w0 = sel(ident, mean, w0), w1 = sel(ident, mean, w1), w2 = sel(ident, mean, w2);
    e0 = v3_sel(ident, (v3){one, zero, zero}, e0);
    e1 = v3_sel(ident, (v3){zero, one, zero}, e1);
    e2 = v3_sel(ident, (v3){zero, zero, one}, e2);
    put(wa, va, 0, w0, w1, w2, e0, e1, e2);
    put(wb, vb, 1, w0, w1, w2, e0, e1, e2);
}

void snug_eigen_sym3d(const double m[3][3], double w[3], double vecs[3][3]) {
    double w2[3], v2[3][3];
    snug_eigen_sym3d_pair(m, m, w, vecs, w2, v2);
}

void snug_eigen_sym3(const mat3 m, vec3 w, mat3 V) {
    double md[3][3], wd[3], vd[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) md[i][j] = m[i][j];
    snug_eigen_sym3d(md, wd, vd);
    for (int c = 0; c < 3; c++) {
        w[c] = (float)wd[c];
        for (int k = 0; k < 3; k++) V[c][k] = (float)vd[c][k];
    }
}
