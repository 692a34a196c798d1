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
    double out[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    /* c = (a / scale - q I) / p: trace 0 and trace(c^2) = 6, so its eigenvalues are 2 cos(phi + 2 pi k / 3) */
    double c[3][3], p2 = 0.0;
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
        }
        p2 = c[0][0] * c[0][0] + c[1][1] * c[1][1] + c[2][2] * c[2][2] +
             2.0 * (c[0][1] * c[0][1] + c[0][2] * c[0][2] + c[1][2] * c[1][2]);
    }
    if (p2 > 0.0) { /* else a multiple of the identity (or zero, or not finite): every basis is an eigenbasis */
        double ip = 1.0 / sqrt(p2 / 6.0);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) c[i][j] *= ip;
        double det = c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) - c[0][1] * (c[1][0] * c[2][2] - c[1][2] * c[2][0]) +
                     c[0][2] * (c[1][0] * c[2][1] - c[1][1] * c[2][0]);
        double r = 0.5 * det;
        r = r > 1.0 ? 1.0 : r < -1.0 ? -1.0 : r;
        double phi = acos(r) / 3.0;
        double mu1 = 2.0 * cos(phi), mu3 = 2.0 * cos(phi + 2.0943951023931954923); /* mu1 >= mu2 >= mu3 */
        double mu2 = -mu1 - mu3;
        /* the most isolated eigenvalue: mu1 when mu2 lies in the lower half of [mu3, mu1] */
        double v[3], u[3], t[3];
        null_vector((const double(*)[3])c, mu2 <= 0.0 ? mu1 : mu3, v);
        /* orthonormal u, t spanning the plane orthogonal to v: cross with the axis least aligned with v */
        int k = fabs(v[0]) < fabs(v[1]) ? 0 : 1;
        if (fabs(v[2]) < fabs(v[k])) k = 2;
        double e[3] = {0, 0, 0};
        e[k] = 1.0;
        cross(v, e, u);
        double nu = 1.0 / sqrt(dot(u, u));
        for (int i = 0; i < 3; i++) u[i] *= nu;
        cross(v, u, t);
        /* the 2x2 problem in (u, t), diagonalised by one Jacobi rotation (Numerical Recipes' stable tangent) */
        double cu[3], ct[3];
        mul((const double(*)[3])c, u, cu);
        mul((const double(*)[3])c, t, ct);
        double m00 = dot(u, cu), m11 = dot(t, ct), m01 = 0.5 * (dot(u, ct) + dot(t, cu));
        if (m01 != 0.0) {
            double theta = (m11 - m00) / (2.0 * m01);
            double tn = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
            double cs = 1.0 / sqrt(tn * tn + 1.0), sn = tn * cs;
            for (int i = 0; i < 3; i++) {
                double ui = u[i], ti = t[i];
                u[i] = cs * ui - sn * ti;
                t[i] = sn * ui + cs * ti;
            }
        }
        memcpy(out[0], v, sizeof v);
        memcpy(out[1], u, sizeof u);
        memcpy(out[2], t, sizeof t);
    }
    /* eigenvalues as Rayleigh quotients of the input, then sort descending carrying the vectors */
    double lam[3], av[3];
    for (int i = 0; i < 3; i++) {
        mul((const double(*)[3])a, out[i], av);
        lam[i] = dot(out[i], av);
    }
    int order[3] = {0, 1, 2};
    for (int i = 0; i < 2; i++)
        for (int j = i + 1; j < 3; j++)
            if (lam[order[j]] > lam[order[i]]) {
                int tmp = order[i];
                order[i] = order[j];
                order[j] = tmp;
            }
    for (int i = 0; i < 3; i++) {
        w[i] = lam[order[i]];
        memcpy(vecs[i], out[order[i]], sizeof out[0]);
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
