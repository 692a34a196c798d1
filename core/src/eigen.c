/* Symmetric 3x3 eigen-decomposition by cyclic Jacobi rotations (cglm has none).
 *
 * Jacobi rather than the characteristic cubic: it always returns an orthonormal basis, also when eigenvalues
 * repeat (cubes, spheres, regular prisms), where root-finding plus elimination yields arbitrary or non-orthogonal
 * vectors (seed 001 digest, erratum E6). Work is in double; the basis is made right-handed (det V = +1). */
#include <math.h>
#include <string.h>

#include "bv.h"

static void jacobi_rotate(double a[3][3], double v[3][3], int p, int q) {
    if (a[p][q] == 0.0) return;
    /* rotation angle that zeroes a[p][q] (Numerical Recipes' stable form with t = tan(theta), |t| <= 1) */
    double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
    double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
    double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
    for (int k = 0; k < 3; k++) { /* A <- A J */
        double akp = a[k][p], akq = a[k][q];
        a[k][p] = c * akp - s * akq;
        a[k][q] = s * akp + c * akq;
    }
    for (int k = 0; k < 3; k++) { /* A <- J^T A */
        double apk = a[p][k], aqk = a[q][k];
        a[p][k] = c * apk - s * aqk;
        a[q][k] = s * apk + c * aqk;
    }
    a[p][q] = a[q][p] = 0.0;
    for (int k = 0; k < 3; k++) { /* V <- V J: v[k][col] is row k of column col */
        double vkp = v[k][p], vkq = v[k][q];
        v[k][p] = c * vkp - s * vkq;
        v[k][q] = s * vkp + c * vkq;
    }
}

void snug_eigen_sym3d(const double m[3][3], double w[3], double vecs[3][3]) {
    double a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) a[i][j] = 0.5 * (m[i][j] + m[j][i]);
    double scale = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) scale = fmax(scale, fabs(a[i][j]));
    /* cyclic sweeps; quadratic convergence makes 5-10 sweeps typical, 50 is a safety cap */
    for (int sweep = 0; sweep < 50 && scale > 0.0; sweep++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        if (off <= 1e-300 || off <= 1e-17 * scale) break;
        jacobi_rotate(a, v, 0, 1);
        jacobi_rotate(a, v, 0, 2);
        jacobi_rotate(a, v, 1, 2);
    }
    /* sort descending, carrying the columns along */
    int order[3] = {0, 1, 2};
    for (int i = 0; i < 2; i++)
        for (int j = i + 1; j < 3; j++)
            if (a[order[j]][order[j]] > a[order[i]][order[i]]) {
                int tmp = order[i];
                order[i] = order[j];
                order[j] = tmp;
            }
    double out[3][3];
    for (int c = 0; c < 3; c++) {
        w[c] = a[order[c]][order[c]];
        for (int k = 0; k < 3; k++) out[c][k] = v[k][order[c]];
    }
    /* re-orthonormalise (Gram-Schmidt) and make the frame right-handed: e3 = e1 x e2 */
    for (int c = 0; c < 2; c++) {
        for (int p = 0; p < c; p++) {
            double d = out[c][0] * out[p][0] + out[c][1] * out[p][1] + out[c][2] * out[p][2];
            for (int k = 0; k < 3; k++) out[c][k] -= d * out[p][k];
        }
        double n = sqrt(out[c][0] * out[c][0] + out[c][1] * out[c][1] + out[c][2] * out[c][2]);
        for (int k = 0; k < 3; k++) out[c][k] /= n;
    }
    out[2][0] = out[0][1] * out[1][2] - out[0][2] * out[1][1];
    out[2][1] = out[0][2] * out[1][0] - out[0][0] * out[1][2];
    out[2][2] = out[0][0] * out[1][1] - out[0][1] * out[1][0];
    memcpy(vecs, out, sizeof out);
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
