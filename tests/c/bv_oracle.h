/* Independent ground truth for the bounding-volume tests, in double: GJK distance between two convex shapes
 * given by support functions (a point set's convex hull, or a sphere), each with its own rigid transform, and
 * vertex enumeration of a k-DOP polytope. Shares no code with core/src/bv_*.c. Header-only (static). */
#ifndef SNUG_BV_ORACLE_H
#define SNUG_BV_ORACLE_H

#include <math.h>
#include <string.h>

typedef struct oracle_shape {
    const double (*pts)[3]; /* hull of these points, or NULL for a sphere */
    int n;
    double c[3], r;         /* sphere */
    double R[3][3], t[3];   /* local -> common frame: x = R p + t, R[row][col] */
} oracle_shape;

static inline double o_dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static inline void o_support(const oracle_shape* s, const double d[3], double out[3]) {
    double dl[3]; /* d in local frame: R^T d */
    for (int c = 0; c < 3; c++) dl[c] = s->R[0][c] * d[0] + s->R[1][c] * d[1] + s->R[2][c] * d[2];
    double p[3];
    if (!s->pts) {
        double n = sqrt(o_dot(dl, dl));
        for (int c = 0; c < 3; c++) p[c] = s->c[c] + (n > 0 ? s->r * dl[c] / n : 0.0);
    } else {
        int best = 0;
        double bv = -INFINITY;
        for (int i = 0; i < s->n; i++) {
            double v = o_dot(s->pts[i], dl);
            if (v > bv) bv = v, best = i;
        }
        memcpy(p, s->pts[best], sizeof p);
    }
    for (int r = 0; r < 3; r++) out[r] = s->R[r][0] * p[0] + s->R[r][1] * p[1] + s->R[r][2] * p[2] + s->t[r];
}

/* closest point to the origin on simplex W (1..4 points); reduces W to the points with non-zero weight */
static inline void o_closest(double W[4][3], int* n, double v[3]) {
    if (*n == 1) {
        memcpy(v, W[0], sizeof(double[3]));
        return;
    }
    if (*n == 2) {
        double ab[3] = {W[1][0] - W[0][0], W[1][1] - W[0][1], W[1][2] - W[0][2]};
        double den = o_dot(ab, ab), t = den > 0 ? -o_dot(W[0], ab) / den : 0.0;
        if (t <= 0) { *n = 1; memcpy(v, W[0], sizeof(double[3])); return; }
        if (t >= 1) { *n = 1; memcpy(W[0], W[1], sizeof(double[3])); memcpy(v, W[0], sizeof(double[3])); return; }
        for (int c = 0; c < 3; c++) v[c] = W[0][c] + t * ab[c];
        return;
    }
    if (*n == 3) { /* Ericson, Real-Time Collision Detection 5.1.5, with p = origin */
        double *a = W[0], *b = W[1], *c = W[2];
        double ab[3], ac[3], ap[3], bp[3], cp[3];
        for (int k = 0; k < 3; k++) ab[k] = b[k] - a[k], ac[k] = c[k] - a[k], ap[k] = -a[k], bp[k] = -b[k], cp[k] = -c[k];
        double d1 = o_dot(ab, ap), d2 = o_dot(ac, ap);
        double A[3], B[3], C[3];
        memcpy(A, a, sizeof A), memcpy(B, b, sizeof B), memcpy(C, c, sizeof C);
        if (d1 <= 0 && d2 <= 0) { *n = 1; memcpy(W[0], A, sizeof A); memcpy(v, A, sizeof A); return; }
        double d3 = o_dot(ab, bp), d4 = o_dot(ac, bp);
        if (d3 >= 0 && d4 <= d3) { *n = 1; memcpy(W[0], B, sizeof B); memcpy(v, B, sizeof B); return; }
        double vc = d1 * d4 - d3 * d2;
        if (vc <= 0 && d1 >= 0 && d3 <= 0) {
            double t = d1 / (d1 - d3);
            for (int k = 0; k < 3; k++) v[k] = A[k] + t * ab[k];
            *n = 2; memcpy(W[0], A, sizeof A); memcpy(W[1], B, sizeof B);
            return;
        }
        double d5 = o_dot(ab, cp), d6 = o_dot(ac, cp);
        if (d6 >= 0 && d5 <= d6) { *n = 1; memcpy(W[0], C, sizeof C); memcpy(v, C, sizeof C); return; }
        double vb = d5 * d2 - d1 * d6;
        if (vb <= 0 && d2 >= 0 && d6 <= 0) {
            double t = d2 / (d2 - d6);
            for (int k = 0; k < 3; k++) v[k] = A[k] + t * ac[k];
            *n = 2; memcpy(W[0], A, sizeof A); memcpy(W[1], C, sizeof C);
            return;
        }
        double va = d3 * d6 - d5 * d4;
        if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
            double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            for (int k = 0; k < 3; k++) v[k] = B[k] + t * (C[k] - B[k]);
            *n = 2; memcpy(W[0], B, sizeof B); memcpy(W[1], C, sizeof C);
            return;
        }
        double den = 1.0 / (va + vb + vc), s = vb * den, t = vc * den;
        for (int k = 0; k < 3; k++) v[k] = A[k] + ab[k] * s + ac[k] * t;
        return;
    }
    /* tetrahedron: origin inside (on the inner side of every face) -> 0; else the closest of the 4 faces */
    static const int faces[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
    double best[3] = {0, 0, 0}, bestd = INFINITY, bestW[4][3];
    int bestn = 0;
    bool inside = true;
    for (int f = 0; f < 4; f++) {
        const double *a = W[faces[f][0]], *b = W[faces[f][1]], *c = W[faces[f][2]], *d = W[faces[f][3]];
        double ab[3], ac[3], nrm[3], ad[3];
        for (int k = 0; k < 3; k++) ab[k] = b[k] - a[k], ac[k] = c[k] - a[k], ad[k] = d[k] - a[k];
        nrm[0] = ab[1] * ac[2] - ab[2] * ac[1], nrm[1] = ab[2] * ac[0] - ab[0] * ac[2], nrm[2] = ab[0] * ac[1] - ab[1] * ac[0];
        double so = -o_dot(nrm, a), sd = o_dot(nrm, ad);
        /* inside needs the origin strictly on the inner side of a non-flat tetrahedron: a nearly flat one (GJK
         * creeping along a curved surface) must not be mistaken for containing the origin */
        double scale = sqrt(o_dot(ab, ab) * o_dot(ac, ac) * o_dot(ad, ad));
        if (!(so * sd > 0 && fabs(sd) > 1e-9 * scale)) inside = false;
        double T[4][3];
        memcpy(T[0], a, sizeof T[0]), memcpy(T[1], b, sizeof T[1]), memcpy(T[2], c, sizeof T[2]);
        int tn = 3;
        double tv[3];
        o_closest(T, &tn, tv);
        double dd = o_dot(tv, tv);
        if (dd < bestd) bestd = dd, memcpy(best, tv, sizeof best), memcpy(bestW, T, sizeof bestW), bestn = tn;
    }
    if (inside) {
        v[0] = v[1] = v[2] = 0.0;
        return;
    }
    memcpy(W, bestW, sizeof bestW);
    *n = bestn;
    memcpy(v, best, sizeof best);
}

/* Euclidean distance between two convex shapes (0 when they intersect), as GJK's upper bound |v|; `lower`
 * (optional) gets GJK's lower bound v.w / |v| (the two agree to ~1e-10 after convergence) and `dir` (optional)
 * the unit vector from A's closest point towards B's. */
static inline double oracle_distance_bounds(const oracle_shape* A, const oracle_shape* B, double* lower, double dir[3]) {
    double W[4][3], v[3], d[3] = {1, 0, 0}, pa[3], pb[3];
    int n = 1;
    o_support(A, d, pa);
    double nd[3] = {-1, 0, 0};
    o_support(B, nd, pb);
    for (int k = 0; k < 3; k++) W[0][k] = pa[k] - pb[k];
    memcpy(v, W[0], sizeof v);
    double scale2 = o_dot(v, v) + 1e-300, lo = 0.0;
    for (int iter = 0; iter < 200; iter++) {
        double vv = o_dot(v, v);
        if (vv <= 1e-28 * scale2) { /* origin reached (contained in the Minkowski difference) */
            memset(v, 0, sizeof v);
            break;
        }
        double mv[3] = {-v[0], -v[1], -v[2]};
        o_support(A, mv, pa);
        o_support(B, v, pb);
        double w[3] = {pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]};
        lo = fmax(lo, o_dot(v, w) / sqrt(vv));
        if (vv - o_dot(v, w) <= 1e-10 * vv + 1e-26 * scale2) break; /* converged (distance to ~1e-10 relative) */
        bool dup = false;
        for (int i = 0; i < n; i++) dup = dup || (W[i][0] == w[0] && W[i][1] == w[1] && W[i][2] == w[2]);
        if (dup) break;
        memcpy(W[n++], w, sizeof w);
        double nv[3];
        o_closest(W, &n, nv);
        if (o_dot(nv, nv) >= vv) break; /* numerical stall: keep the smaller (still an upper bound) */
        memcpy(v, nv, sizeof v);
    }
    /* v.w / |v| is a certificate: every point of A - B has at least that distance from the origin. It is kept even
     * when a degenerate simplex later claims the origin, and then wins over that claim. */
    double dist = fmax(sqrt(o_dot(v, v)), lo);
    if (lower) *lower = fmax(lo, 0.0);
    if (dir) {
        for (int k = 0; k < 3; k++) dir[k] = dist > 0 ? -v[k] / dist : 0.0; /* v = a - b: B lies along -v */
    }
    return dist;
}

static inline double oracle_distance(const oracle_shape* A, const oracle_shape* B, double dir[3]) {
    return oracle_distance_bounds(A, B, NULL, dir);
}

static inline void oracle_identity(oracle_shape* s) {
    memset(s->R, 0, sizeof s->R);
    s->R[0][0] = s->R[1][1] = s->R[2][2] = 1.0;
    s->t[0] = s->t[1] = s->t[2] = 0.0;
}

/* Vertices of the polytope {x : lo_j <= d_j . x <= hi_j} by intersecting plane triples (feasible within a
 * tolerance), near-duplicates merged; returns the count. A polytope with 26 faces has at most 2 * 26 - 4 = 48
 * vertices, so ORACLE_MAX_VERTS leaves room for numerically split ones. */
#define ORACLE_MAX_VERTS 128
static inline int oracle_kdop_vertices(const float (*d)[3], int n, const float* lo, const float* hi, double (*out)[3], int cap) {
    double P[2 * 13][4]; /* n.x <= h */
    int np = 0;
    double mag = 1e-30;
    for (int j = 0; j < n; j++) mag = fmax(mag, fmax(fabs(lo[j]), fabs(hi[j])));
    for (int j = 0; j < n; j++) {
        P[np][0] = d[j][0], P[np][1] = d[j][1], P[np][2] = d[j][2], P[np][3] = hi[j], np++;
        P[np][0] = -d[j][0], P[np][1] = -d[j][1], P[np][2] = -d[j][2], P[np][3] = -(double)lo[j], np++;
    }
    int count = 0;
    for (int a = 0; a < np; a++)
        for (int b = a + 1; b < np; b++)
            for (int c = b + 1; c < np; c++) {
                const double *p = P[a], *q = P[b], *r = P[c];
                double qxr[3] = {q[1] * r[2] - q[2] * r[1], q[2] * r[0] - q[0] * r[2], q[0] * r[1] - q[1] * r[0]};
                double det = p[0] * qxr[0] + p[1] * qxr[1] + p[2] * qxr[2];
                if (fabs(det) < 1e-9) continue;
                double rxp[3] = {r[1] * p[2] - r[2] * p[1], r[2] * p[0] - r[0] * p[2], r[0] * p[1] - r[1] * p[0]};
                double pxq[3] = {p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]};
                double x[3];
                for (int k = 0; k < 3; k++) x[k] = (p[3] * qxr[k] + q[3] * rxp[k] + r[3] * pxq[k]) / det;
                bool ok = true;
                for (int m = 0; m < np && ok; m++) ok = P[m][0] * x[0] + P[m][1] * x[1] + P[m][2] * x[2] <= P[m][3] + 1e-9 * mag;
                for (int m = 0; m < count && ok; m++) /* merge a vertex where more than three planes meet */
                    ok = fabs(out[m][0] - x[0]) + fabs(out[m][1] - x[1]) + fabs(out[m][2] - x[2]) > 1e-12 * mag;
                if (ok && count < cap) memcpy(out[count++], x, sizeof x);
                else if (ok) count = cap + 1; /* overflow: reported to the caller */
            }
    return count;
}

#endif
