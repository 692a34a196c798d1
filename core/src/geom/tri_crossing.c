/* Penetrating versus touching triangles: the rule behind the placement sweeps (ccd/sweep.c), which must tell a box
 * sliding on a table (touching) from one pushed into it (crossing). */
#include <math.h>
#include <stdbool.h>

#include "geom/tri.h"
#include "base/vec_d.h"

/* Keep the part of the convex polygon p (n points) where f(x) = w . x + c >= 0 (Sutherland-Hodgman step). */
static int clip(const dvec* p, int n, dvec w, double c, dvec* out) {
    int m = 0;
    for (int i = 0; i < n; i++) {
        dvec x = p[i], y = p[(i + 1) % n];
        double fx = ddot(w, x) + c, fy = ddot(w, y) + c;
        if (fx >= 0.0) out[m++] = x;
        if ((fx >= 0.0) != (fy >= 0.0)) out[m++] = dadd(x, dscale(dsub(y, x), fx / (fx - fy)));
    }
    return m;
}

/* Has some part of triangle a gone behind face b (against b's normal) by more than eps but at most `depth`, over
 * b's interior shrunk by eps? The window keeps the far side of b's own mesh (a thin plate's other face) out. */
static bool reaches_behind(const dvec a[3], const dvec b[3], double eps, double depth) {
    dvec n = dcross(dsub(b[1], b[0]), dsub(b[2], b[0]));
    double len = sqrt(ddot(n, n));
    if (!(len > 0.0)) return false;
    n = ddiv(n, len);
    double nb = ddot(n, b[0]);
    dvec buf[2][9] = {{a[0], a[1], a[2]}};
    int cnt = 3, cur = 0;
    /* behind by more than eps: -(n.x - nb) - eps >= 0; by at most depth: (n.x - nb) + depth >= 0 */
    cnt = clip(buf[cur], cnt, dneg(n), nb - eps, buf[1 - cur]), cur = 1 - cur;
    if (!cnt) return false;
    cnt = clip(buf[cur], cnt, n, depth - nb, buf[1 - cur]), cur = 1 - cur;
    for (int k = 0; k < 3 && cnt; k++) {
        dvec p = b[k], m = dcross(dsub(b[(k + 1) % 3], p), n); /* outward in-plane normal of edge k */
        double ml = sqrt(ddot(m, m));
        if (!(ml > 0.0)) return false;
        dvec w = ddiv(dneg(m), ml); /* inside by eps: -(m.(x - p)) - eps >= 0 */
        cnt = clip(buf[cur], cnt, w, -ddot(w, p) - eps, buf[1 - cur]), cur = 1 - cur;
    }
    return cnt > 0;
}

bool snug_tri_tri_crossing(const double a[3][3], const double b[3][3], double eps) {
    const dvec A[3] = {dload(a[0]), dload(a[1]), dload(a[2])}, B[3] = {dload(b[0]), dload(b[1]), dload(b[2])};
    double depth = 64.0 * eps;
    return reaches_behind(A, B, eps, depth) || reaches_behind(B, A, eps, depth);
}
