/* Triangle primitives. Every decision runs in double on float inputs, so differences of coordinates are exact
 * and the few products that follow are accurate far below any mesh tolerance.
 *
 * Overlap is defined as "distance <= eps": an edge of one triangle strictly piercing the other gives 0, and
 * otherwise the distance of two disjoint triangles is attained by a vertex-face or an edge-edge pair, so the
 * 6 + 9 feature distances decide. Coplanar, touching and degenerate (segment, point) triangles need no special
 * case: they fall out of the feature distances. */
#include "geom/tri.h"

#include <math.h>
#include <stddef.h>

#include "base/vec_d.h"

/* Closest points of segments p0p1, q0q1 (Ericson 5.1.9), degenerate segments included. */
static double seg_seg(dvec p0, dvec p1, dvec q0, dvec q1, double* s_out, double* t_out, dvec* cp, dvec* cq) {
    dvec d1 = dsub(p1, p0), d2 = dsub(q1, q0), r = dsub(p0, q0);
    double a = ddot(d1, d1), e = ddot(d2, d2), f = ddot(d2, r);
    double s, t;
    /* "tiny" is relative to the segments' own size so that the choice is scale invariant */
    double tiny = 1e-30 * (a + e + ddot(r, r)) + 1e-300;
    if (a <= tiny && e <= tiny) {
        s = t = 0.0;
    } else if (a <= tiny) {
        s = 0.0;
        t = dclamp01(f / e);
    } else {
        double c = ddot(d1, r);
        if (e <= tiny) {
            t = 0.0;
            s = dclamp01(-c / a);
        } else {
            double b = ddot(d1, d2), denom = a * e - b * b;
            s = denom > 1e-14 * a * e ? dclamp01((b * f - c * e) / denom) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = dclamp01(-c / a);
            } else if (t > 1.0) {
                t = 1.0;
                s = dclamp01((b - c) / a);
            }
        }
    }
    *cp = dadd(p0, dscale(d1, s));
    *cq = dadd(q0, dscale(d2, t));
    *s_out = s;
    *t_out = t;
    dvec w = dsub(*cp, *cq);
    return ddot(w, w);
}

/* Closest point of triangle abc to p (Ericson 5.1.5); degenerate triangles fall back to their edges. */
static double point_tri(dvec p, dvec a, dvec b, dvec c, dvec* out) {
    dvec ab = dsub(b, a), ac = dsub(c, a), n = dcross(ab, ac);
    double n2 = ddot(n, n), scale2 = ddot(ab, ab) + ddot(ac, ac);
    if (!(n2 > 1e-24 * scale2 * scale2)) {
        dvec edges[3][2] = {{a, b}, {b, c}, {c, a}};
        double best = INFINITY;
        for (int i = 0; i < 3; i++) {
            double s, t;
            dvec cp, cq;
            double d2 = seg_seg(p, p, edges[i][0], edges[i][1], &s, &t, &cp, &cq);
            if (d2 < best) {
                best = d2;
                *out = cq;
            }
        }
        return best;
    }
    dvec ap = dsub(p, a);
    double d1 = ddot(ab, ap), d2 = ddot(ac, ap);
    dvec q;
    if (d1 <= 0.0 && d2 <= 0.0) {
        q = a;
    } else {
        dvec bp = dsub(p, b);
        double d3 = ddot(ab, bp), d4 = ddot(ac, bp);
        if (d3 >= 0.0 && d4 <= d3) {
            q = b;
        } else {
            double vc = d1 * d4 - d3 * d2;
            dvec cp = dsub(p, c);
            double d5 = ddot(ab, cp), d6 = ddot(ac, cp);
            double vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
            if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
                q = dadd(a, dscale(ab, d1 / (d1 - d3)));
            } else if (d6 >= 0.0 && d5 <= d6) {
                q = c;
            } else if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
                q = dadd(a, dscale(ac, d2 / (d2 - d6)));
            } else if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
                q = dadd(b, dscale(dsub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6))));
            } else {
                /* inside the face: project onto the plane (more accurate than barycentric reconstruction) */
                q = dsub(p, dscale(n, ddot(dsub(p, a), n) / n2));
            }
        }
    }
    *out = q;
    dvec w = dsub(p, q);
    return ddot(w, w);
}

/* Six times the signed volume of (p, q, a, b), positive when b lies on the side of (q - p) x (a - p), taken on the
 * edge ab itself: ((q - p) x (a - p)) . (b - a). Taken as ((q - p) x (a - p)) . (b - p), the same in exact
 * arithmetic, a triangle 1e-38 across two units from pq had a - p, b - p and c - p rounded to one vector, and its
 * three volumes came out with one sign, noise that said pq pierced it (fuzz_mesh). */
static inline double edge_side(dvec p, dvec q, dvec a, dvec b) {
    return ddot(dcross(dsub(q, p), dsub(a, p)), dsub(b, a));
}

/* Does edge pq, whose ends have the strictly opposite plane values sp, sq for triangle abc, cross abc inside? */
static bool edge_pierces(dvec p, dvec q, double sp, double sq, dvec a, dvec b, dvec c, dvec* hit) {
    double e0 = edge_side(p, q, a, b), e1 = edge_side(p, q, b, c), e2 = edge_side(p, q, c, a);
    if (!((e0 > 0.0 && e1 > 0.0 && e2 > 0.0) || (e0 < 0.0 && e1 < 0.0 && e2 < 0.0))) return false;
    if (hit) *hit = dadd(p, dscale(dsub(q, p), sp / (sp - sq)));
    return true;
}

/* Plane values of B's vertices for triangle A ((A1 - A0) x (A2 - A0) . (B[i] - A0)); n2 = |normal|^2. */
static void plane_values(const dvec A[3], const dvec B[3], double s[3], double* n2) {
    dvec n = dcross(dsub(A[1], A[0]), dsub(A[2], A[0]));
    *n2 = ddot(n, n);
    for (int i = 0; i < 3; i++) s[i] = ddot(n, dsub(B[i], A[0]));
}

/* All of B on one side of A's plane, farther than eps? (A degenerate plane rejects nothing.) */
static bool plane_rejects(const double s[3], double n2, double eps) {
    if (!(n2 > 0.0)) return false;
    double lim = eps * sqrt(n2);
    return (s[0] > lim && s[1] > lim && s[2] > lim) || (s[0] < -lim && s[1] < -lim && s[2] < -lim);
}

static inline bool opposite(double x, double y) { return (x > 0.0 && y < 0.0) || (x < 0.0 && y > 0.0); }

/* Does an edge of one triangle strictly cross the other's interior? sb: B's plane values for A, sa: A's for B. */
static bool tris_pierce(const dvec A[3], const dvec B[3], const double sa[3], const double sb[3], dvec* hit) {
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        if (opposite(sb[i], sb[j]) && edge_pierces(B[i], B[j], sb[i], sb[j], A[0], A[1], A[2], hit)) return true;
        if (opposite(sa[i], sa[j]) && edge_pierces(A[i], A[j], sa[i], sa[j], B[0], B[1], B[2], hit)) return true;
    }
    return false;
}

/* Smallest of the 15 feature distances (squared) with its points; stops once it is <= stop2. */
static double feature_distance(const dvec A[3], const dvec B[3], double stop2, dvec* pa, dvec* pb) {
    double best = INFINITY;
    dvec q;
    for (int i = 0; i < 3; i++) {
        double d2 = point_tri(A[i], B[0], B[1], B[2], &q);
        if (d2 < best) {
            best = d2;
            *pa = A[i];
            *pb = q;
            if (best <= stop2) return best;
        }
        d2 = point_tri(B[i], A[0], A[1], A[2], &q);
        if (d2 < best) {
            best = d2;
            *pa = q;
            *pb = B[i];
            if (best <= stop2) return best;
        }
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s, t;
            dvec cp, cq;
            double d2 = seg_seg(A[i], A[(i + 1) % 3], B[j], B[(j + 1) % 3], &s, &t, &cp, &cq);
            if (d2 < best) {
                best = d2;
                *pa = cp;
                *pb = cq;
                if (best <= stop2) return best;
            }
        }
    return best;
}

bool snug_tri_tri_overlap(const float a0[3], const float a1[3], const float a2[3], const float b0[3],
                          const float b1[3], const float b2[3], float eps) {
    const dvec A[3] = {dv(a0), dv(a1), dv(a2)}, B[3] = {dv(b0), dv(b1), dv(b2)};
    double e = eps > 0.0f ? (double)eps : 0.0;
    double sa[3], sb[3], na2, nb2;
    plane_values(A, B, sb, &na2);
    if (plane_rejects(sb, na2, e)) return false;
    plane_values(B, A, sa, &nb2);
    if (plane_rejects(sa, nb2, e)) return false;
    if (tris_pierce(A, B, sa, sb, NULL)) return true;
    dvec pa, pb;
    return feature_distance(A, B, e * e, &pa, &pb) <= e * e;
}

float snug_tri_tri_distance(const float a0[3], const float a1[3], const float a2[3], const float b0[3],
                            const float b1[3], const float b2[3], float pa[3], float pb[3]) {
    const dvec A[3] = {dv(a0), dv(a1), dv(a2)}, B[3] = {dv(b0), dv(b1), dv(b2)};
    dvec p, q;
    double sa[3], sb[3], na2, nb2;
    plane_values(A, B, sb, &na2);
    plane_values(B, A, sa, &nb2);
    if (tris_pierce(A, B, sa, sb, &p)) {
        dstore_f(p, pa);
        dstore_f(p, pb);
        return 0.0f;
    }
    double d2 = feature_distance(A, B, 0.0, &p, &q);
    dstore_f(p, pa);
    dstore_f(q, pb);
    return (float)sqrt(d2);
}

/* The (unnormalized) normal of the triangle with corners A, B, C relative to a ray origin: zero or not, the same
 * for the ray test and for the normal its hit reports. */
static inline dvec ray_tri_normal(dvec A, dvec B, dvec C) { return dcross(dsub(B, A), dsub(C, A)); }

bool snug_ray_tri(const float o[3], const float d[3], float tmax, const float a[3], const float b[3],
                  const float c[3], float* t, float* u, float* v) {
    /* Edge functions in Plücker form: an edge shared by two triangles is evaluated with the same endpoints in
     * swapped order, which negates the value exactly, so a ray through a shared edge cannot slip between. */
    dvec O = dv(o), D = dv(d);
    dvec A = dsub(dv(a), O), B = dsub(dv(b), O), C = dsub(dv(c), O);
    double wc = ddot(D, dcross(A, B)); /* weight of c */
    double wa = ddot(D, dcross(B, C)); /* weight of a */
    double wb = ddot(D, dcross(C, A)); /* weight of b */
    if (!((wa >= 0.0 && wb >= 0.0 && wc >= 0.0) || (wa <= 0.0 && wb <= 0.0 && wc <= 0.0))) return false;
    double sum = wa + wb + wc;
    if (sum == 0.0) return false; /* ray parallel to the plane, or degenerate triangle */
    dvec n = ray_tri_normal(A, B, C);
    double dn = ddot(n, D);
    if (dn == 0.0) return false;
    double tt = ddot(n, A) / dn;
    if (!(tt >= 0.0 && tt <= (double)tmax)) return false;
    *t = (float)tt;
    *u = (float)(wb / sum);
    *v = (float)(wc / sum);
    return true;
}

bool snug_tri_unit_normal(const float o[3], const float a[3], const float b[3], const float c[3], float out[3]) {
    dvec O = dv(o), n = ray_tri_normal(dsub(dv(a), O), dsub(dv(b), O), dsub(dv(c), O));
    /* corners on the float grid: a nonzero component is at least 2^-298, its square far above double's underflow */
    double len = sqrt(ddot(n, n));
    if (len == 0.0) return false;
    dstore_f((dvec){n.x / len, n.y / len, n.z / len}, out);
    return true;
}

float snug_point_tri_closest(const float p[3], const float a[3], const float b[3], const float c[3], float out[3]) {
    dvec q;
    double d2 = point_tri(dv(p), dv(a), dv(b), dv(c), &q);
    dstore_f(q, out);
    return (float)d2;
}

float snug_segment_segment_closest(const float p0[3], const float p1[3], const float q0[3], const float q1[3],
                                   float* s, float* t, float cp[3], float cq[3]) {
    double ds, dt;
    dvec a, b;
    double d2 = seg_seg(dv(p0), dv(p1), dv(q0), dv(q1), &ds, &dt, &a, &b);
    *s = (float)ds;
    *t = (float)dt;
    dstore_f(a, cp);
    dstore_f(b, cq);
    return (float)d2;
}
