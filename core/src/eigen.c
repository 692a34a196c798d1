/* Symmetric 3x3 eigen-decomposition in closed form (cglm has none), in double.
 *
 * Root-finding plus elimination is fragile when eigenvalues repeat (cubes, spheres, regular prisms: seed 001
 * digest, erratum E6), so only ONE eigenvector comes from the characteristic cubic: that of the most isolated
 * eigenvalue, whose gap to the other two is at least sqrt(3) times the spread p of the spectrum (in units of p it
 * is a rank-2 problem whose adjugate column has norm >= sqrt(3)). The other two are found by one exact 2x2
 * Jacobi rotation in the plane orthogonal to it, which is exact for any pair, repeated or not. The result is
 * orthonormal and right-handed to rounding for every input; eigenvalues are Rayleigh quotients of the input.
 * This replaced cyclic Jacobi sweeps: about a third of an OBB tree build went into them. */
#include <math.h>
#include <string.h>

#include "bv.h"

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void cross(const double a[3], const double b[3], double out[3]) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}
static void mul(const double a[3][3], const double v[3], double out[3]) {
    for (int i = 0; i < 3; i++) out[i] = dot(a[i], v);
}

/* unit eigenvector of the (shifted, scaled) matrix c for its simple eigenvalue mu: the largest cross product of
 * two rows of c - mu I spans its null space */
static void null_vector(const double c[3][3], double mu, double v[3]) {
    double r[3][3], x[3][3], n[3];
    memcpy(r, c, sizeof r);
    for (int i = 0; i < 3; i++) r[i][i] -= mu;
    cross(r[0], r[1], x[0]);
    cross(r[0], r[2], x[1]);
    cross(r[1], r[2], x[2]);
    int best = 0;
    for (int i = 0; i < 3; i++) n[i] = dot(x[i], x[i]);
    if (n[1] > n[best]) best = 1;
    if (n[2] > n[best]) best = 2;
    if (!(n[best] > 0.0)) { /* cannot happen for a traceless c with trace(c^2) = 6; keep a basis anyway */
        v[0] = 1.0, v[1] = v[2] = 0.0;
        return;
    }
    double s = 1.0 / sqrt(n[best]);
    for (int i = 0; i < 3; i++) v[i] = x[best][i] * s;
}

void snug_eigen_sym3d(const double m[3][3], double w[3], double vecs[3][3]) {
    double a[3][3], scale = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            a[i][j] = 0.5 * (m[i][j] + m[j][i]);
            double x = fabs(a[i][j]);
            scale = x > scale ? x : scale; /* not fmax: a libm call without fast-math */
        }
    /* c = (a / scale - q I) / p: trace 0 and trace(c^2) = 6, so its eigenvalues are 2 cos(phi + 2 pi k / 3) */
    double c[3][3], p2 = 0.0, q = 0.0;
    if (scale > 0.0 && scale < INFINITY) {
        double s = 1.0 / scale;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) c[i][j] = a[i][j] * s;
        /* centre twice: near multiples of the identity the first mean leaves a trace of a few ulps, which is as
         * large as the rest (diag(1, 1, 1 + ulp) -> (ulp, ulp, 0) would have a double root where the model says
         * simple); the second pass removes it exactly enough */
        for (int pass = 0; pass < 2; pass++) {
            double t = (c[0][0] + c[1][1] + c[2][2]) / 3.0;
            for (int i = 0; i < 3; i++) c[i][i] -= t;
            q += t;
        }
        p2 = c[0][0] * c[0][0] + c[1][1] * c[1][1] + c[2][2] * c[2][2] +
             2.0 * (c[0][1] * c[0][1] + c[0][2] * c[0][2] + c[1][2] * c[1][2]);
    }
    if (!(p2 > 0.0)) { /* a multiple of the identity (or zero, or not finite): every basis is an eigenbasis */
        double mean = (a[0][0] + a[1][1] + a[2][2]) / 3.0;
        for (int i = 0; i < 3; i++) {
            w[i] = mean;
            for (int j = 0; j < 3; j++) vecs[i][j] = i == j;
        }
        return;
    }
    double p = sqrt(p2 / 6.0), ip = 1.0 / p;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) c[i][j] *= ip;
    double det = c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) - c[0][1] * (c[1][0] * c[2][2] - c[1][2] * c[2][0]) +
                 c[0][2] * (c[1][0] * c[2][1] - c[1][1] * c[2][0]);
    double r = 0.5 * det;
    r = r > 1.0 ? 1.0 : r < -1.0 ? -1.0 : r;
    /* the most isolated eigenvalue: the largest when r >= 0, else the smallest (the spectrum of -c is minus that of
     * c). The largest root of mu^3 - 3 mu - 2|r| (= 2 cos(acos(|r|) / 3), in [sqrt 3, 2], where the slope is >= 6)
     * by Newton from a quadratic fit (error <= 1e-3): three steps reach rounding, no acos/cos */
    double ra = fabs(r), mu = 1.7320508075688772 + ra * (0.32138854358063496 - 0.05343935114951215 * ra);
    for (int it = 0; it < 3; it++) {
        double m2 = mu * mu;
        mu -= (mu * (m2 - 3.0) - 2.0 * ra) / (3.0 * (m2 - 1.0));
    }
    if (r < 0.0) mu = -mu;
    double v[3], u[3], t[3];
    null_vector((const double(*)[3])c, mu, v);
    /* u, t spanning the plane orthogonal to v: crosses with the axis least aligned with v; both of length
     * |u| >= sqrt(2/3), left unnormalised (the 2x2 problem only scales by |u|^2) */
    int k = fabs(v[0]) < fabs(v[1]) ? 0 : 1;
    if (fabs(v[2]) < fabs(v[k])) k = 2;
    double e[3] = {0, 0, 0};
    e[k] = 1.0;
    cross(v, e, u);
    cross(v, u, t);
    double cu[3], ct[3];
    mul((const double(*)[3])c, u, cu);
    mul((const double(*)[3])c, t, ct);
    double m00 = dot(u, cu), m11 = dot(t, ct), m01 = 0.5 * (dot(u, ct) + dot(t, cu)), s2 = dot(u, u);
    /* eigenvector (x, y) of the larger eigenvalue avg + h of [[m00, m01], [m01, m11]], from the row of
     * M - (avg + h) I that does not cancel; any vector when the pair is repeated (h = 0) */
    double d = 0.5 * (m00 - m11), h = sqrt(d * d + m01 * m01), x = 1.0, y = 0.0;
    if (h > 0.0) {
        if (d >= 0.0) x = d + h, y = m01;
        else x = m01, y = h - d;
    }
    double u2[3];
    for (int i = 0; i < 3; i++) u2[i] = x * u[i] + y * t[i];
    double nu = 1.0 / sqrt(dot(u2, u2));
    for (int i = 0; i < 3; i++) u2[i] *= nu;
    cross(v, u2, t);
    /* eigenvalues back in the input's units; the order follows from which end mu is */
    double avg = 0.5 * (m00 + m11);
    double lv = scale * (q + p * mu), lu = scale * (q + p * (avg + h) / s2), lt = scale * (q + p * (avg - h) / s2);
    const double* col[3] = {v, u2, t};
    double lam[3] = {lv, lu, lt};
    int first = r >= 0.0 ? 0 : 1;
    for (int i = 0; i < 3; i++) {
        int src = (first + i) % 3;
        w[i] = lam[src];
        memcpy(vecs[i], col[src], sizeof v);
    }
    cross(vecs[0], vecs[1], vecs[2]); /* right-handed: e3 = e1 x e2 */
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
