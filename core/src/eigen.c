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

#include "bv.h"

/* Everything below is in scalar locals, without arrays indexed at run time: wasm keeps those on its memory stack. */
typedef struct d3 {
    double x, y, z;
} d3;

static inline d3 d3_cross(d3 a, d3 b) { return (d3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
static inline double d3_dot(d3 a, d3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline d3 d3_scale(d3 a, double s) { return (d3){a.x * s, a.y * s, a.z * s}; }

/* symmetric matrix: diagonal xx yy zz, off-diagonal xy xz yz */
typedef struct sym3 {
    double xx, yy, zz, xy, xz, yz;
} sym3;

static inline d3 sym3_mul(const sym3* c, d3 v) {
    return (d3){c->xx * v.x + c->xy * v.y + c->xz * v.z, c->xy * v.x + c->yy * v.y + c->yz * v.z,
                c->xz * v.x + c->yz * v.y + c->zz * v.z};
}

/* unit eigenvector of c for its simple eigenvalue mu: the largest cross product of two rows of c - mu I spans its
 * null space */
static d3 null_vector(const sym3* c, double mu) {
    d3 r0 = {c->xx - mu, c->xy, c->xz}, r1 = {c->xy, c->yy - mu, c->yz}, r2 = {c->xz, c->yz, c->zz - mu};
    d3 x0 = d3_cross(r0, r1), x1 = d3_cross(r0, r2), x2 = d3_cross(r1, r2);
    double n0 = d3_dot(x0, x0), n1 = d3_dot(x1, x1), n2 = d3_dot(x2, x2);
    d3 best = x0;
    double nb = n0;
    if (n1 > nb) best = x1, nb = n1;
    if (n2 > nb) best = x2, nb = n2;
    if (!(nb > 0.0)) return (d3){1.0, 0.0, 0.0}; /* cannot happen for a traceless c != 0 and a simple mu */
    return d3_scale(best, 1.0 / sqrt(nb));
}

static void put(double out[3], d3 v) { out[0] = v.x, out[1] = v.y, out[2] = v.z; }

/* Sign convention: the largest-magnitude component positive (ties: the first). Trees split along these axes and
 * search the lower side first, so a consistent orientation makes node order consistent across nodes and meshes:
 * with arbitrary signs the 48k dragon pairs took 1.8-5x the BV tests to their first contact. */
static d3 canonical(d3 v) {
    double ax = fabs(v.x), ay = fabs(v.y), az = fabs(v.z);
    double lead = ax >= ay && ax >= az ? v.x : ay >= az ? v.y : v.z;
    return lead < 0.0 ? d3_scale(v, -1.0) : v;
}

void snug_eigen_sym3d(const double m[3][3], double w[3], double vecs[3][3]) {
    sym3 a = {m[0][0], m[1][1], m[2][2], 0.5 * (m[0][1] + m[1][0]), 0.5 * (m[0][2] + m[2][0]), 0.5 * (m[1][2] + m[2][1])};
    /* the largest magnitude as a tree, not a chain: the solve is one long dependency chain (latency bound), so every
     * step off it counts. Not fmax: a libm call without fast-math. */
    double b1 = fabs(a.xx), b2 = fabs(a.yy), b3 = fabs(a.zz), b4 = fabs(a.xy), b5 = fabs(a.xz), b6 = fabs(a.yz);
    b1 = b2 > b1 ? b2 : b1;
    b3 = b4 > b3 ? b4 : b3;
    b5 = b6 > b5 ? b6 : b5;
    b1 = b3 > b1 ? b3 : b1;
    double scale = b5 > b1 ? b5 : b1;
    /* c = a / scale - q I: trace 0; with p = sqrt(trace(c^2) / 6) the eigenvalues of c / p are 2 cos(phi + 2 pi k / 3) */
    sym3 c = {0, 0, 0, 0, 0, 0};
    double p2 = 0.0, q = 0.0;
    if (scale > 0.0 && scale < INFINITY) {
        double s = 1.0 / scale;
        c = (sym3){a.xx * s, a.yy * s, a.zz * s, a.xy * s, a.xz * s, a.yz * s};
        /* centre twice: near multiples of the identity the first mean leaves a trace of a few ulps, which is as
         * large as the rest (diag(1, 1, 1 + ulp) -> (ulp, ulp, 0) would have a double root where the model says
         * simple); the second pass removes it exactly enough */
        for (int pass = 0; pass < 2; pass++) {
            double t = (c.xx + c.yy + c.zz) * (1.0 / 3.0);
            c.xx -= t, c.yy -= t, c.zz -= t;
            q += t;
        }
        p2 = c.xx * c.xx + c.yy * c.yy + c.zz * c.zz + 2.0 * (c.xy * c.xy + c.xz * c.xz + c.yz * c.yz);
    }
    if (!(p2 > 0.0)) { /* a multiple of the identity (or zero, or not finite): every basis is an eigenbasis */
        double mean = (a.xx + a.yy + a.zz) / 3.0;
        for (int i = 0; i < 3; i++) {
            w[i] = mean;
            for (int j = 0; j < 3; j++) vecs[i][j] = i == j;
        }
        return;
    }
    /* c stays unscaled by p, so det(c / p) = det(c) / p^3 is formed while the square root runs; only a tiny spread
     * (where 1 / p^3 would overflow) scales c first, and then k = p carries the scale to the eigenvalues */
    double p = sqrt(p2 * (1.0 / 6.0)), ip = 1.0 / p, pc = p, k = 1.0;
    if (p2 < 1e-150) {
        c = (sym3){c.xx * ip, c.yy * ip, c.zz * ip, c.xy * ip, c.xz * ip, c.yz * ip};
        ip = 1.0, pc = 1.0, k = p;
    }
    double det = c.xx * (c.yy * c.zz - c.yz * c.yz) - c.xy * (c.xy * c.zz - c.yz * c.xz) + c.xz * (c.xy * c.yz - c.yy * c.xz);
    double r = 0.5 * det * (ip * ip * ip);
    r = r > 1.0 ? 1.0 : r < -1.0 ? -1.0 : r;
    /* the most isolated eigenvalue: the largest when r >= 0, else the smallest (the spectrum of -c is minus that of
     * c). The largest root of mu^3 - 3 mu - 2|r| (= 2 cos(acos(|r|) / 3), in [sqrt 3, 2], where the slope is >= 6
     * and a Newton step takes an error e to <= e^2) by Newton from a quartic fit (error <= 1.1e-5, evaluated as
     * two halves): two steps reach rounding, no acos/cos */
    double ra = fabs(r), ra2 = ra * ra;
    double mu = (1.732060864045382 + 0.3328234435751917 * ra) +
                ra2 * ((-0.09184386626152734 + 0.03502437715042064 * ra) - 0.008070797433310501 * ra2);
    for (int it = 0; it < 2; it++) {
        double m2 = mu * mu;
        mu -= (mu * (m2 - 3.0) - 2.0 * ra) / (3.0 * (m2 - 1.0));
    }
    if (r < 0.0) mu = -mu;
    d3 v = null_vector(&c, mu * pc);
    /* u, t spanning the plane orthogonal to v: crosses with the axis least aligned with v; both of length
     * |u| >= sqrt(2/3), left unnormalised (the 2x2 problem only scales by |u|^2) */
    double ax = fabs(v.x), ay = fabs(v.y), az = fabs(v.z);
    d3 u = ax <= ay && ax <= az ? (d3){0.0, v.z, -v.y} : ay <= az ? (d3){-v.z, 0.0, v.x} : (d3){v.y, -v.x, 0.0};
    d3 t = d3_cross(v, u);
    d3 cu = sym3_mul(&c, u), ct = sym3_mul(&c, t);
    double m00 = d3_dot(u, cu), m11 = d3_dot(t, ct), m01 = 0.5 * (d3_dot(u, ct) + d3_dot(t, cu)), s2 = d3_dot(u, u);
    /* eigenvector (x, y) of the larger eigenvalue avg + h of [[m00, m01], [m01, m11]], from the row of
     * M - (avg + h) I that does not cancel; any vector when the pair is repeated (h = 0) */
    double d = 0.5 * (m00 - m11), h = sqrt(d * d + m01 * m01), x = 1.0, y = 0.0;
    if (h > 0.0) {
        if (d >= 0.0) x = d + h, y = m01;
        else x = m01, y = h - d;
    }
    d3 u2 = {x * u.x + y * t.x, x * u.y + y * t.y, x * u.z + y * t.z};
    u2 = d3_scale(u2, 1.0 / sqrt(d3_dot(u2, u2)));
    t = d3_cross(v, u2);
    /* eigenvalues back in the input's units; the order follows from which end mu is; e3 = e1 x e2 (right-handed) */
    double avg = 0.5 * (m00 + m11);
    double ks = k / s2, lv = scale * (q + p * mu), lu = scale * (q + ks * (avg + h)), lt = scale * (q + ks * (avg - h));
    d3 e0 = r >= 0.0 ? v : u2, e1 = r >= 0.0 ? u2 : t;
    if (r >= 0.0) w[0] = lv, w[1] = lu, w[2] = lt;
    else w[0] = lu, w[1] = lt, w[2] = lv;
    e0 = canonical(e0);
    e1 = canonical(e1);
    put(vecs[0], e0), put(vecs[1], e1), put(vecs[2], d3_cross(e0, e1));
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
