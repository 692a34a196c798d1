/* Convex polygons in a plane (hull.h): Andrew's monotone chain, the Akl-Toussaint prefilter, the smallest
 * rectangle over the hull's edge directions, Sutherland-Hodgman clipping and shrinking simplification. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "place/hull.h"

static int point_compare(const void* pa, const void* pb) {
    const snug_pt2 *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    return 0;
}

static double cross3(snug_pt2 o, snug_pt2 a, snug_pt2 b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

uint32_t snug_hull2(snug_pt2* pts, uint32_t n, snug_pt2* out) {
    if (n == 0) return 0;
    qsort(pts, n, sizeof *pts, point_compare);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) { /* lower chain */
        while (k >= 2 && cross3(out[k - 2], out[k - 1], pts[i]) <= 0.0) k--;
        out[k++] = pts[i];
    }
    for (uint32_t i = n - 1, lower = k + 1; i-- > 0;) { /* upper chain */
        while (k >= lower && cross3(out[k - 2], out[k - 1], pts[i]) <= 0.0) k--;
        out[k++] = pts[i];
    }
    return k > 1 ? k - 1 : k; /* the last point repeats the first */
}

uint32_t snug_hull2_prefilter(snug_pt2* pts, uint32_t n) {
    if (n < 16) return n;
    /* extreme points along x + y, y, y - x, -x, -x - y, -y, x - y and x, found in one pass (ties: the first point;
     * any extreme point serves, as only points strictly inside are dropped) */
    uint32_t ext[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    double best[8];
    for (int d = 0; d < 8; d++) best[d] = -INFINITY;
    for (uint32_t i = 0; i < n; i++) {
        double x = pts[i].x, y = pts[i].y;
        double v[8] = {x + y, y, y - x, -x, -x - y, -y, x - y, x};
        for (int d = 0; d < 8; d++)
            if (v[d] > best[d]) best[d] = v[d], ext[d] = i;
    }
    /* the octagon's edges (counter-clockwise) as lines a x + b y + c, positive inside */
    double line[8][3];
    uint32_t edges = 0;
    for (int d = 0; d < 8; d++) {
        snug_pt2 a = pts[ext[d]], b = pts[ext[(d + 1) & 7]];
        if (a.x == b.x && a.y == b.y) continue;
        line[edges][0] = -(b.y - a.y), line[edges][1] = b.x - a.x;
        line[edges][2] = -(line[edges][0] * a.x + line[edges][1] * a.y);
        edges++;
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool inside = edges >= 3;
        for (uint32_t e = 0; e < edges && inside; e++)
            inside = line[e][0] * pts[i].x + line[e][1] * pts[i].y + line[e][2] > 0.0;
        if (!inside) pts[kept++] = pts[i];
    }
    return kept;
}

double snug_poly_area(const snug_pt2* p, uint32_t n) {
    double a = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i + 1 == n ? 0 : i + 1;
        a += p[i].x * p[j].y - p[i].y * p[j].x;
    }
    return 0.5 * a;
}

double snug_poly_extent(const snug_pt2* p, uint32_t n, snug_pt2 d) {
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t i = 0; i < n; i++) {
        double v = p[i].x * d.x + p[i].y * d.y;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    return n ? hi - lo : 0.0;
}

double snug_poly_min_width(const snug_pt2* p, uint32_t n) {
    double best = INFINITY;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i + 1 == n ? 0 : i + 1;
        double ex = p[j].x - p[i].x, ey = p[j].y - p[i].y, len = hypot(ex, ey);
        if (!(len > 0.0)) continue;
        double w = snug_poly_extent(p, n, (snug_pt2){-ey / len, ex / len});
        best = w < best ? w : best;
    }
    return n >= 3 && isfinite(best) ? best : 0.0;
}

/* The rectangle around p with x along the unit axis. */
static snug_rect2 rect_along(const snug_pt2* p, uint32_t n, snug_pt2 ax) {
    snug_rect2 r = {ax, INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (uint32_t k = 0; k < n; k++) {
        double x = p[k].x * ax.x + p[k].y * ax.y, y = -p[k].x * ax.y + p[k].y * ax.x;
        r.x0 = fmin(r.x0, x), r.x1 = fmax(r.x1, x);
        r.y0 = fmin(r.y0, y), r.y1 = fmax(r.y1, y);
    }
    return r;
}

void snug_poly_min_rect(const snug_pt2* p, uint32_t n, snug_pt2 prefer, snug_rect2* out) {
    double best = INFINITY;
    for (uint32_t i = 0; i < n; i++) { /* the smallest area */
        uint32_t j = i + 1 == n ? 0 : i + 1;
        double ex = p[j].x - p[i].x, ey = p[j].y - p[i].y, len = hypot(ex, ey);
        if (!(len > 0.0)) continue;
        snug_rect2 r = rect_along(p, n, (snug_pt2){ex / len, ey / len});
        best = fmin(best, (r.x1 - r.x0) * (r.y1 - r.y0));
    }
    double best_align = -INFINITY;
    *out = rect_along(p, n, (snug_pt2){1, 0});
    for (uint32_t i = 0; i < n; i++) { /* of those, the side nearest prefer */
        uint32_t j = i + 1 == n ? 0 : i + 1;
        double ex = p[j].x - p[i].x, ey = p[j].y - p[i].y, len = hypot(ex, ey);
        if (!(len > 0.0)) continue;
        snug_pt2 sides[4] = {{ex / len, ey / len}, {-ey / len, ex / len}, {-ex / len, -ey / len}, {ey / len, -ex / len}};
        for (int s = 0; s < 4; s++) {
            double align = sides[s].x * prefer.x + sides[s].y * prefer.y;
            if (align <= best_align) continue;
            snug_rect2 r = rect_along(p, n, sides[s]);
            if ((r.x1 - r.x0) * (r.y1 - r.y0) > best * (1.0 + 1e-9)) continue;
            best_align = align;
            *out = r;
        }
    }
}

uint32_t snug_poly_clip(const snug_pt2* a, uint32_t na, const snug_pt2* b, uint32_t nb, snug_pt2* out) {
    /* each half-plane adds at most one vertex to a convex polygon: two buffers of na + nb points take turns */
    enum { ROOM = SNUG_POLY_CLIP_MAX };
    snug_pt2 buf[2][ROOM];
    if (na + nb > ROOM) return 0;
    snug_pt2 *cur = buf[0], *nxt = buf[1];
    uint32_t n = na;
    for (uint32_t i = 0; i < na; i++) cur[i] = a[i];
    for (uint32_t e = 0; e < nb && n; e++) {
        snug_pt2 p0 = b[e], p1 = b[e + 1 == nb ? 0 : e + 1];
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++) {
            snug_pt2 s = cur[i], t = cur[i + 1 == n ? 0 : i + 1];
            double fs = cross3(p0, p1, s), ft = cross3(p0, p1, t);
            if (fs >= 0.0) nxt[m++] = s;
            if ((fs >= 0.0) != (ft >= 0.0)) {
                double u = fs / (fs - ft);
                nxt[m++] = (snug_pt2){s.x + u * (t.x - s.x), s.y + u * (t.y - s.y)};
            }
        }
        snug_pt2* sw = cur;
        cur = nxt, nxt = sw;
        n = m;
    }
    for (uint32_t i = 0; i < n; i++) out[i] = cur[i];
    return n;
}

/* Area of the triangle a vertex forms with its neighbours (what removing it cuts off). */
static double cut_area(const snug_pt2* p, uint32_t n, uint32_t i) {
    return 0.5 * fabs(cross3(p[(i + n - 1) % n], p[i], p[(i + 1) % n]));
}

uint32_t snug_poly_simplify(snug_pt2* p, uint32_t n, uint32_t max, double min_edge) {
    while (n >= 3) {
        uint32_t pick = n;
        double pick_area = INFINITY;
        bool forced = false;
        for (uint32_t i = 0; i < n; i++) {
            snug_pt2 prev = p[(i + n - 1) % n], next = p[(i + 1) % n];
            double a = cut_area(p, n, i);
            double base = hypot(next.x - prev.x, next.y - prev.y);
            bool flat = !(base > 0.0) || 2.0 * a < base * (min_edge / 64.0);
            bool short_edge = hypot(next.x - p[i].x, next.y - p[i].y) < min_edge;
            uint32_t cand = i;
            double ca = a;
            if (short_edge) { /* either end of a short edge may go: the one that cuts off less */
                double b = cut_area(p, n, (i + 1) % n);
                if (b < a) cand = (i + 1) % n, ca = b;
            }
            if (flat || short_edge) {
                if (!forced || ca < pick_area) pick = cand, pick_area = ca;
                forced = true;
            } else if (!forced && n > max && a < pick_area) {
                pick = i, pick_area = a;
            }
        }
        if (pick == n) break;
        for (uint32_t i = pick; i + 1 < n; i++) p[i] = p[i + 1];
        n--;
    }
    return n;
}
