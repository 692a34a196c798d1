/* Penetrating versus touching triangles: the rule behind the placement sweeps (ccd/sweep.c), which must tell a box
 * sliding on a table (touching) from one pushed into it (crossing). */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "geom/tri.h"

/* Keep the part of the convex polygon p (n points) where f(x) = w . x + c >= 0 (Sutherland-Hodgman step). */
static int clip(double p[][3], int n, const double w[3], double c, double out[][3]) {
    int m = 0;
    for (int i = 0; i < n; i++) {
        const double* x = p[i];
        const double* y = p[(i + 1) % n];
        double fx = w[0] * x[0] + w[1] * x[1] + w[2] * x[2] + c, fy = w[0] * y[0] + w[1] * y[1] + w[2] * y[2] + c;
        if (fx >= 0.0) memcpy(out[m++], x, sizeof out[0]);
        if ((fx >= 0.0) != (fy >= 0.0)) {
            double s = fx / (fx - fy);
            for (int k = 0; k < 3; k++) out[m][k] = x[k] + s * (y[k] - x[k]);
            m++;
        }
    }
    return m;
}

/* Has some part of triangle a gone behind face b (against b's normal) by more than eps but at most `depth`, over
 * b's interior shrunk by eps? The window keeps the far side of b's own mesh (a thin plate's other face) out. */
static bool reaches_behind(const double a[3][3], const double b[3][3], double eps, double depth) {
    double e0[3], e1[3], n[3];
    for (int i = 0; i < 3; i++) e0[i] = b[1][i] - b[0][i], e1[i] = b[2][i] - b[0][i];
    n[0] = e0[1] * e1[2] - e0[2] * e1[1];
    n[1] = e0[2] * e1[0] - e0[0] * e1[2];
    n[2] = e0[0] * e1[1] - e0[1] * e1[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 0.0)) return false;
    for (int i = 0; i < 3; i++) n[i] /= len;
    double nb = n[0] * b[0][0] + n[1] * b[0][1] + n[2] * b[0][2];
    double buf[2][9][3];
    int cnt = 3;
    memcpy(buf[0], a, sizeof(double) * 9);
    int cur = 0;
    /* behind by more than eps: -(n.x - nb) - eps >= 0; by at most depth: (n.x - nb) + depth >= 0 */
    double neg[3] = {-n[0], -n[1], -n[2]};
    cnt = clip(buf[cur], cnt, neg, nb - eps, buf[1 - cur]), cur = 1 - cur;
    if (!cnt) return false;
    cnt = clip(buf[cur], cnt, n, depth - nb, buf[1 - cur]), cur = 1 - cur;
    for (int k = 0; k < 3 && cnt; k++) {
        const double* p = b[k];
        const double* q = b[(k + 1) % 3];
        double e[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]}, m[3];
        m[0] = e[1] * n[2] - e[2] * n[1]; /* outward in-plane normal of edge k */
        m[1] = e[2] * n[0] - e[0] * n[2];
        m[2] = e[0] * n[1] - e[1] * n[0];
        double ml = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
        if (!(ml > 0.0)) return false;
        double w[3] = {-m[0] / ml, -m[1] / ml, -m[2] / ml}; /* inside by eps: -(m.(x - p)) - eps >= 0 */
        cnt = clip(buf[cur], cnt, w, -(w[0] * p[0] + w[1] * p[1] + w[2] * p[2]) - eps, buf[1 - cur]), cur = 1 - cur;
    }
    return cnt > 0;
}

bool snug_tri_tri_crossing(const double a[3][3], const double b[3][3], double eps) {
    double depth = 64.0 * eps;
    return reaches_behind(a, b, eps, depth) || reaches_behind(b, a, eps, depth);
}
