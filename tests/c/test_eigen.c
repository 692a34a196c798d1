/* Symmetric 3x3 eigen solver (core/src/eigen.c) on 1e5 seeded matrices per run, most of them Q diag(l) Q^T with a
 * known spectrum: distinct, repeated twice and three times, zero, nearly repeated (relative gaps 1e-9 .. 1e-15)
 * and spread over 16 decades, at scales from 1e-30 to 1e30; the rest random symmetric. Checked: eigenvalues
 * against the known spectrum, residual |A v - w v|, orthonormality and handedness of the basis, order, and the sign
 * convention (vectors 0 and 1 with their largest component positive: the OBB trees' child order depends on it). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "geom/bv.h"
#include "harness.h"
#include "geom/obb_fit.h"

/* random rotation in double (unit quaternion from four normals' worth of uniforms, rejection-free via rng_unit_quat
 * in float, then renormalised in double: Q only has to be orthonormal to double rounding) */
static void random_rotation(rng* r, double Q[3][3]) {
    float qf[4];
    rng_unit_quat(r, qf);
    double x = qf[0], y = qf[1], z = qf[2], w = qf[3];
    double n = 1.0 / sqrt(x * x + y * y + z * z + w * w);
    x *= n, y *= n, z *= n, w *= n;
    /* columns Q[c] (column-major like cglm) */
    double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
                      {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
                      {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)}};
    memcpy(Q, m, sizeof m);
}

static int worst_reported;

/* l: the known spectrum (any order) or NULL; returns 0 on failure */
static int check(const double A[3][3], const double* l, const char* what, int it) {
    double w[3], V[3][3];
    snug_eigen_sym3d(A, w, V);
    double mag = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) mag = fmax(mag, fabs(A[i][j]));
    int ok = 1;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double d = V[a][0] * V[b][0] + V[a][1] * V[b][1] + V[a][2] * V[b][2];
            ok &= fabs(d - (a == b)) <= 1e-14;
        }
    double x[3] = {V[0][1] * V[1][2] - V[0][2] * V[1][1], V[0][2] * V[1][0] - V[0][0] * V[1][2],
                   V[0][0] * V[1][1] - V[0][1] * V[1][0]};
    ok &= fabs(x[0] * V[2][0] + x[1] * V[2][1] + x[2] * V[2][2] - 1.0) <= 1e-14;
    ok &= w[0] >= w[1] && w[1] >= w[2];
    for (int c = 0; c < 2; c++) { /* sign convention: the largest component positive (ties: the first) */
        int k = fabs(V[c][0]) >= fabs(V[c][1]) && fabs(V[c][0]) >= fabs(V[c][2]) ? 0 : fabs(V[c][1]) >= fabs(V[c][2]) ? 1 : 2;
        ok &= V[c][k] > 0.0;
    }
    double res = 0.0;
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++) {
            double r = -w[c] * V[c][i];
            for (int j = 0; j < 3; j++) r += A[j][i] * V[c][j];
            res = fmax(res, fabs(r));
        }
    ok &= res <= 1e-13 * mag;
    double lerr = 0.0;
    if (l) {
        double s[3] = {l[0], l[1], l[2]};
        for (int i = 0; i < 2; i++)
            for (int j = i + 1; j < 3; j++)
                if (s[j] > s[i]) {
                    double t = s[i];
                    s[i] = s[j];
                    s[j] = t;
                }
        for (int i = 0; i < 3; i++) lerr = fmax(lerr, fabs(w[i] - s[i]));
        ok &= lerr <= 1e-13 * mag;
    }
    if (!ok && worst_reported++ < 5)
        CHECK_MSG(0, "%s case %d: w = (%.17g, %.17g, %.17g), residual %.3g, eigenvalue error %.3g, |A| %.3g", what, it,
                  w[0], w[1], w[2], res, lerr, mag);
    return ok;
}

static void test_eigen_known_spectra(void) {
    rng r = {harness_seed() ^ 0xe1e1};
    int cases = 100000 * harness_scale(), failed = 0, pair_diff = 0;
    double prev[3][3] = {{1, 0, 0}, {0, 2, 0}, {0, 0, 3}};
    worst_reported = 0;
    for (int it = 0; it < cases; it++) {
        double scale = pow(10.0, rng_range(&r, -30.0f, 30.0f));
        double a = rng_range(&r, -1, 1), b = rng_range(&r, -1, 1), c = rng_range(&r, -1, 1);
        double l[3];
        int kind = it % 8;
        switch (kind) {
        case 0: l[0] = a, l[1] = b, l[2] = c; break;                                      /* distinct */
        case 1: l[0] = a, l[1] = a, l[2] = b; break;                                      /* double */
        case 2: l[0] = a, l[1] = a, l[2] = a; break;                                      /* triple */
        case 3: l[0] = (it & 8) ? a : 0, l[1] = 0, l[2] = (it & 16) ? 0 : b; break;       /* zeros */
        case 4: l[0] = a, l[1] = a * (1 + 1e-9 * b), l[2] = c; break;                     /* nearly double */
        case 5: l[0] = a, l[1] = a * (1 + 1e-15 * b), l[2] = a * (1 + 1e-15 * c); break;  /* nearly triple */
        case 6: l[0] = a, l[1] = 1e-8 * b, l[2] = 1e-16 * c; break;                       /* 16 decades */
        default: break;                                                                   /* random symmetric */
        }
        double A[3][3];
        if (kind == 7) {
            for (int i = 0; i < 3; i++)
                for (int j = i; j < 3; j++) A[i][j] = A[j][i] = scale * rng_range(&r, -1, 1);
        } else {
            double Q[3][3];
            random_rotation(&r, Q);
            for (int i = 0; i < 3; i++) l[i] *= scale;
            for (int i = 0; i < 3; i++)
                for (int j = i; j < 3; j++) {
                    A[i][j] = 0.0;
                    for (int k = 0; k < 3; k++) A[i][j] += Q[k][i] * l[k] * Q[k][j];
                    A[j][i] = A[i][j];
                }
        }
        static const char* names[8] = {"distinct", "double", "triple", "zeros", "nearly double", "nearly triple", "16 decades", "random"};
        failed += !check((const double(*)[3])A, kind == 7 ? NULL : l, names[kind], it);
        /* the pair solve (OBB trees: two children at once) is two single solves bit for bit, whatever the other
         * lane holds (the previous matrix: another kind, scale and spectrum) */
        double w1[3], V1[3][3], w2[3], V2[3][3], pw1[3], pV1[3][3], pw2[3], pV2[3][3];
        snug_eigen_sym3d((const double(*)[3])A, w1, V1);
        snug_eigen_sym3d((const double(*)[3])prev, w2, V2);
        snug_eigen_sym3d_pair((const double(*)[3])A, (const double(*)[3])prev, pw1, pV1, pw2, pV2);
        pair_diff += memcmp(w1, pw1, sizeof w1) != 0 || memcmp(V1, pV1, sizeof V1) != 0 ||
                     memcmp(w2, pw2, sizeof w2) != 0 || memcmp(V2, pV2, sizeof V2) != 0;
        memcpy(prev, A, sizeof prev);
    }
    printf("  %d matrices, %d failed, %d pair solves differ from single ones\n", cases, failed, pair_diff);
    CHECK(failed == 0 && pair_diff == 0);
}

static void test_eigen_special_inputs(void) {
    worst_reported = 0;
    double zero[3][3] = {{0}}, diag[3][3] = {{1, 0, 0}, {0, 3, 0}, {0, 0, 2}}, ident[3][3] = {{5, 0, 0}, {0, 5, 0}, {0, 0, 5}};
    double l0[3] = {0, 0, 0}, ld[3] = {1, 3, 2}, li[3] = {5, 5, 5};
    check((const double(*)[3])zero, l0, "zero", 0);
    check((const double(*)[3])diag, ld, "diagonal", 0);
    check((const double(*)[3])ident, li, "5 I", 0);
    double tiny[3][3] = {{1e-300, 2e-301, 0}, {2e-301, 3e-300, 0}, {0, 0, 1e-310}}; /* subnormal entry */
    check((const double(*)[3])tiny, NULL, "1e-300", 0);
    /* the identity plus a tiny spread (1e-155: 1 / p^3 would overflow, so c is scaled first; 1e-70: it is not) */
    for (double sp = 1e-155; sp < 1e-60; sp *= 1e85) {
        double near_i[3][3] = {{1, sp, 2 * sp}, {sp, 1 + 3 * sp, -sp}, {2 * sp, -sp, 1}};
        check((const double(*)[3])near_i, NULL, "I + tiny spread", 0);
    }
    double huge[3][3] = {{1e300, -4e299, 1e299}, {-4e299, 2e300, 0}, {1e299, 0, -1e300}};
    check((const double(*)[3])huge, NULL, "1e300", 0);
    /* non-symmetric input is symmetrised: ((0,2),(0,0)) -> ((0,1),(1,0)) has eigenvalues 1, -1 (and 0 on z) */
    double ns[3][3] = {{0, 2, 0}, {0, 0, 0}, {0, 0, 0}}, sym[3][3] = {{0, 1, 0}, {1, 0, 0}, {0, 0, 0}}, ls[3] = {1, 0, -1};
    double w[3], V[3][3], ws[3], Vs[3][3];
    snug_eigen_sym3d((const double(*)[3])ns, w, V);
    snug_eigen_sym3d((const double(*)[3])sym, ws, Vs);
    CHECK(memcmp(w, ws, sizeof w) == 0 && memcmp(V, Vs, sizeof V) == 0);
    check((const double(*)[3])sym, ls, "symmetrised", 0);
    /* not finite: no crash, still an orthonormal basis */
    double bad[3][3] = {{NAN, 0, 0}, {0, 1, 0}, {0, 0, 2}}, inf[3][3] = {{INFINITY, 0, 0}, {0, 1, 0}, {0, 0, 2}};
    for (int k = 0; k < 2; k++) {
        snug_eigen_sym3d(k ? (const double(*)[3])inf : (const double(*)[3])bad, w, V);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                CHECK_NEAR(V[a][0] * V[b][0] + V[a][1] * V[b][1] + V[a][2] * V[b][2], a == b, 1e-15);
    }
}

int main(void) {
    RUN(test_eigen_known_spectra);
    RUN(test_eigen_special_inputs);
    return harness_finish();
}
