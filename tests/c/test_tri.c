/* Triangle primitives against an independent method: the separating-axis distance. For two convex point sets
 * the largest gap over a complete axis set is the Euclidean distance; the set below holds every direction a
 * closest-feature pair can have (face normals, edge x edge, vertex-vertex, and edge x (w x edge) for
 * vertex-edge and parallel edges), so it works for coplanar, touching and degenerate triangles alike. On a
 * small integer grid every product is exact in double, so "touching" is decided exactly. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "geom/tri.h"

typedef struct v3 {
    double x, y, z;
} v3;

static v3 V(const float* p) { return (v3){p[0], p[1], p[2]}; }
static v3 sub(v3 a, v3 b) { return (v3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static double dot(v3 a, v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static v3 cross(v3 a, v3 b) { return (v3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }

/* Largest separating gap (scaled by |axis|) over the complete axis set: > 0 separated, <= 0 touching or
 * overlapping (then the distance is 0). Returns the distance. */
static double sat_distance(const float* const A[3], const float* const B[3], bool* separated) {
    v3 a[3] = {V(A[0]), V(A[1]), V(A[2])}, b[3] = {V(B[0]), V(B[1]), V(B[2])};
    v3 axes[2 + 9 + 9 + 54];
    int n = 0;
    v3 ea[3], eb[3];
    for (int i = 0; i < 3; i++) {
        ea[i] = sub(a[(i + 1) % 3], a[i]);
        eb[i] = sub(b[(i + 1) % 3], b[i]);
    }
    axes[n++] = cross(ea[0], ea[1]);
    axes[n++] = cross(eb[0], eb[1]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            axes[n++] = cross(ea[i], eb[j]);
            v3 w = sub(b[j], a[i]);
            axes[n++] = w;
            for (int k = 0; k < 3; k++) {
                axes[n++] = cross(ea[k], cross(w, ea[k]));
                axes[n++] = cross(eb[k], cross(w, eb[k]));
            }
        }
    double best = -INFINITY;
    bool sep = false;
    for (int k = 0; k < n; k++) {
        double len2 = dot(axes[k], axes[k]);
        if (len2 == 0.0) continue;
        double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
        for (int i = 0; i < 3; i++) {
            double pa = dot(axes[k], a[i]), pb = dot(axes[k], b[i]);
            amin = fmin(amin, pa), amax = fmax(amax, pa), bmin = fmin(bmin, pb), bmax = fmax(bmax, pb);
        }
        double gap = fmax(bmin - amax, amin - bmax);
        if (gap > 0.0) sep = true;
        double g = gap / sqrt(len2);
        if (g > best) best = g;
    }
    *separated = sep;
    return sep ? best : 0.0;
}

static void grid_tri(rng* r, int R, float t[3][3]) {
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 3; c++) t[i][c] = (float)((int)(rng_next(r) % (uint64_t)(2 * R + 1)) - R);
    /* make a share of the triangles degenerate: a repeated vertex, or a midpoint on an edge */
    uint64_t k = rng_next(r) % 16;
    if (k == 0) memcpy(t[2], t[0], sizeof t[0]);
    if (k == 1)
        for (int c = 0; c < 3; c++) t[2][c] = 2 * t[1][c] - t[0][c];
}

/* On the grid: overlap (at a tiny eps) must equal exact non-separation; distance must equal the SAT distance. */
static void test_grid_overlap_and_distance_match_sat(void) {
    rng r = {harness_seed()};
    int cases = 200000 * harness_scale();
    int overlapping = 0;
    for (int n = 0; n < cases; n++) {
        float a[3][3], b[3][3];
        int R = 1 + (int)(rng_next(&r) % 3);
        grid_tri(&r, R, a);
        grid_tri(&r, R, b);
        const float* A[3] = {a[0], a[1], a[2]};
        const float* B[3] = {b[0], b[1], b[2]};
        bool sep;
        double d = sat_distance(A, B, &sep);
        bool got = snug_tri_tri_overlap(a[0], a[1], a[2], b[0], b[1], b[2], 1e-6f);
        bool got_swapped = snug_tri_tri_overlap(b[1], b[2], b[0], a[2], a[1], a[0], 1e-6f);
        overlapping += !sep;
        CHECK_MSG(got == !sep && got_swapped == got, "case %d: overlap %d/%d, sat separated %d (seed %llu)", n,
                  got, got_swapped, sep, (unsigned long long)harness_seed());
        float pa[3], pb[3];
        float dist = snug_tri_tri_distance(a[0], a[1], a[2], b[0], b[1], b[2], pa, pb);
        CHECK_NEAR(dist, d, 1e-5);
        float gap[3] = {pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]};
        CHECK_NEAR(sqrtf(gap[0] * gap[0] + gap[1] * gap[1] + gap[2] * gap[2]), dist, 1e-5);
        float q[3];
        CHECK(snug_point_tri_closest(pa, a[0], a[1], a[2], q) <= 1e-10f);
        CHECK(snug_point_tri_closest(pb, b[0], b[1], b[2], q) <= 1e-10f);
        RETURN_IF_FAILED();
    }
    /* the grid must actually produce the interesting cases */
    CHECK(overlapping > cases / 20);
}

/* Off the grid: random float triangles at all scales; overlap(eps) == (distance <= eps) away from the boundary. */
static void test_eps_overlap_matches_distance(void) {
    rng r = {harness_seed() ^ 0x5bd1e995u};
    int cases = 100000 * harness_scale();
    for (int n = 0; n < cases; n++) {
        float scale = powf(10.0f, rng_range(&r, -3.0f, 3.0f));
        float off[3];
        rng_unit_vec(&r, off);
        float a[3][3], b[3][3];
        float sep = rng_range(&r, 0.0f, 1.2f);
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 3; c++) {
                a[i][c] = scale * (100.0f + rng_range(&r, -0.5f, 0.5f));
                b[i][c] = scale * (100.0f + rng_range(&r, -0.5f, 0.5f) + sep * off[c]);
            }
        if (n % 4 == 0) /* coplanar-ish: flatten both onto z = const */
            for (int i = 0; i < 3; i++) a[i][2] = b[i][2] = 100.0f * scale;
        const float* A[3] = {a[0], a[1], a[2]};
        const float* B[3] = {b[0], b[1], b[2]};
        bool separated;
        double d = sat_distance(A, B, &separated);
        float eps = scale * rng_range(&r, 0.0f, 0.2f);
        if (fabs(d - eps) < 1e-5 * scale) continue;
        bool got = snug_tri_tri_overlap(a[0], a[1], a[2], b[0], b[1], b[2], eps);
        CHECK_MSG(got == (d <= eps), "case %d: overlap %d, distance %.9g, eps %.9g (seed %llu)", n, got, d,
                  (double)eps, (unsigned long long)harness_seed());
        float pa[3], pb[3];
        float dist = snug_tri_tri_distance(a[0], a[1], a[2], b[0], b[1], b[2], pa, pb);
        CHECK_NEAR(dist, d, 2e-5 * scale);
        RETURN_IF_FAILED();
    }
}

static void test_constructed_cases(void) {
    /* shared edge, shared vertex, coplanar containment, edge crossing, disjoint coplanar, segments, points */
    const float o[3] = {0, 0, 0}, x[3] = {1, 0, 0}, y[3] = {0, 1, 0}, z[3] = {0, 0, 1};
    const float nx[3] = {-1, 0, 0}, ny[3] = {0, -1, 0}, xy[3] = {1, 1, 0};
    const float small0[3] = {0.1f, 0.1f, 0}, small1[3] = {0.3f, 0.1f, 0}, small2[3] = {0.1f, 0.3f, 0};
    const float far0[3] = {2, 2, 0}, far1[3] = {3, 2, 0}, far2[3] = {2, 3, 0};
    float eps = 1e-6f;
    CHECK(snug_tri_tri_overlap(o, x, y, x, xy, y, eps));          /* coplanar, shared edge */
    CHECK(snug_tri_tri_overlap(o, x, y, o, nx, ny, eps));         /* coplanar, shared vertex */
    CHECK(snug_tri_tri_overlap(o, x, y, small0, small1, small2, eps)); /* containment */
    CHECK(!snug_tri_tri_overlap(o, x, y, far0, far1, far2, eps)); /* coplanar disjoint */
    CHECK(snug_tri_tri_overlap(o, x, y, o, y, z, eps));           /* perpendicular, shared edge */
    CHECK(snug_tri_tri_overlap(o, x, y, small0, small1, z, eps)); /* piercing */
    const float up[3] = {0.2f, 0.2f, 1e-3f}, up2[3] = {0.4f, 0.2f, 1e-3f}, up3[3] = {0.2f, 0.4f, 1e-3f};
    CHECK(!snug_tri_tri_overlap(o, x, y, up, up2, up3, eps));     /* parallel, 1e-3 above */
    CHECK(snug_tri_tri_overlap(o, x, y, up, up2, up3, 2e-3f));    /* ... within a larger eps */
    CHECK(snug_tri_tri_overlap(o, x, y, small0, small0, small0, eps)); /* point on the face */
    CHECK(!snug_tri_tri_overlap(o, x, y, up, up, up, eps));       /* point above the face */
    const float s0[3] = {0.5f, -1, 0}, s1[3] = {0.5f, 1, 0};
    CHECK(snug_tri_tri_overlap(o, x, y, s0, s1, s1, eps));        /* coplanar segment crossing */
    const float t0[3] = {0.5f, 0.25f, -1}, t1[3] = {0.5f, 0.25f, 1};
    CHECK(snug_tri_tri_overlap(o, x, y, t0, t1, t1, eps));        /* segment piercing */
    CHECK(snug_tri_tri_overlap(t0, t1, t1, o, x, y, eps));
    float pa[3], pb[3];
    CHECK_NEAR(snug_tri_tri_distance(o, x, y, up, up2, up3, pa, pb), 1e-3, 1e-8);
    CHECK_NEAR(snug_tri_tri_distance(o, x, y, t0, t1, t1, pa, pb), 0.0, 0.0);
    CHECK_NEAR(pa[0], 0.5, 1e-6);
    CHECK_NEAR(pa[1], 0.25, 1e-6);
    /* segment-segment */
    float s, t, cp[3], cq[3];
    CHECK_NEAR(snug_segment_segment_closest(o, x, y, xy, &s, &t, cp, cq), 1.0, 1e-7); /* parallel */
    CHECK_NEAR(snug_segment_segment_closest(o, o, x, x, &s, &t, cp, cq), 1.0, 1e-7);  /* two points */
}

/* A triangle 1e-38 across at the origin and a segment 2.25 from it (fuzz_mesh): the segment's pierce test took its
 * volumes from the triangle's corners seen from the segment, which round to one point there, and said it pierced
 * (distance 0, overlap). The distance is that of the segment from the origin. */
static void test_a_tiny_triangle_far_from_a_segment(void) {
    const float a0[3] = {0x1p-126f, 0x1p-126f, 0x1p-126f}, a1[3] = {0x1p-126f, 0x1p-126f, 0}, a2[3] = {0, 0, 0};
    const float b0[3] = {-0x1.391c46p+1f, -0x1.b8ee8p-5f, -0x1.06bc62p-1f};
    const float b1[3] = {-0x1.10398p-5f, -0x1.d55d88p+1f, 0x1.cf792cp+2f};
    float pa[3], pb[3];
    float from_origin = snug_tri_tri_distance(a2, a2, a2, b0, b0, b1, pa, pb);
    CHECK(from_origin > 2.0f);
    CHECK_NEAR(snug_tri_tri_distance(a0, a1, a2, b0, b0, b1, pa, pb), from_origin, 1e-6 * from_origin);
    CHECK(!snug_tri_tri_overlap(a0, a1, a2, b0, b0, b1, 1e-5f));
    CHECK(!snug_tri_tri_overlap(b0, b0, b1, a0, a1, a2, 1e-5f));
}

/* fuzz_mesh, meshes 3e7 from their origin moved into one frame (2026-11-28): a triangle 7e-7 across at the origin and
 * a sliver reaching from 1.1e7 out to within 17 of it. The pierce test said they overlap (within the tolerance 9.4)
 * where the distance is 16.9 and the overlap query's box tests found them apart; its volumes now lie on the tiny
 * triangle's own edges (as for test_a_tiny_triangle_far_from_a_segment). */
static void test_a_tiny_triangle_and_a_long_sliver_pointing_at_it(void) {
    const float a0[3] = {0x1.e8p-144f, 0, 0}, a1[3] = {0, 0, 0}, a2[3] = {0, 0x1.6d9594p-21f, 0};
    const float b0[3] = {0x1.5e186ep+19f, 0x1.6db6aep+21f, 0x1.0ef1d8p+23f};
    const float b1[3] = {0x1.f87364p+4f, -0x1.cb2a7p+2f, -0x1.cae68cp+4f};
    const float b2[3] = {0x1.e86bf8p+3f, -0x1.4746dcp+2f, -0x1.4c4056p+4f};
    const float eps = 0x1.2cb90ap+3f;
    float pa[3], pb[3];
    float d = snug_tri_tri_distance(a0, a1, a2, b0, b1, b2, pa, pb);
    CHECK_MSG(d > 16.9f && d < 17.0f, "distance %g", (double)d);
    CHECK(!snug_tri_tri_overlap(a0, a1, a2, b0, b1, b2, eps));
    CHECK(!snug_tri_tri_overlap(b0, b1, b2, a0, a1, a2, eps));
}

/* Point-triangle and segment-segment against the SAT distance of degenerate triangles. */
static void test_point_and_segment_match_sat(void) {
    rng r = {harness_seed() ^ 0x9e3779b9u};
    int cases = 50000 * harness_scale();
    for (int n = 0; n < cases; n++) {
        float a[3][3], p[3], q[3];
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 3; c++) a[i][c] = rng_range(&r, -1, 1);
        if (n % 8 == 0) memcpy(a[2], a[1], sizeof a[1]);
        for (int c = 0; c < 3; c++) p[c] = rng_range(&r, -2, 2), q[c] = rng_range(&r, -2, 2);
        const float* A[3] = {a[0], a[1], a[2]};
        const float* P[3] = {p, p, p};
        bool sep;
        double d = sat_distance(A, P, &sep);
        float out[3];
        float d2 = snug_point_tri_closest(p, a[0], a[1], a[2], out);
        CHECK_NEAR(sqrtf(d2), d, 1e-5);
        const float* S[3] = {a[0], a[1], a[1]};
        const float* Q[3] = {p, q, q};
        d = sat_distance(S, Q, &sep);
        float s, t, cp[3], cq[3];
        d2 = snug_segment_segment_closest(a[0], a[1], p, q, &s, &t, cp, cq);
        CHECK_NEAR(sqrtf(d2), d, 1e-5);
        CHECK(s >= 0 && s <= 1 && t >= 0 && t <= 1);
        RETURN_IF_FAILED();
    }
}

/* Rays: agree with an independent double-precision plane/barycentric test away from edges; watertight on a grid
 * of quads (rays through shared edges and vertices must hit at least one triangle). */
static void test_ray_tri(void) {
    rng r = {harness_seed() ^ 0x27d4eb2fu};
    int cases = 50000 * harness_scale();
    for (int n = 0; n < cases; n++) {
        float a[3][3], o[3], d[3];
        for (int i = 0; i < 3; i++)
            for (int c = 0; c < 3; c++) a[i][c] = rng_range(&r, -1, 1);
        for (int c = 0; c < 3; c++) o[c] = rng_range(&r, -3, 3);
        float target[3] = {rng_range(&r, -1, 1), rng_range(&r, -1, 1), rng_range(&r, -1, 1)};
        for (int c = 0; c < 3; c++) d[c] = target[c] - o[c];
        float tmax = n % 3 == 0 ? rng_range(&r, 0.5f, 1.5f) : INFINITY;
        /* reference: intersect the plane, then barycentrics by areas */
        v3 A = V(a[0]), B = V(a[1]), C = V(a[2]), O = V(o), D = V(d);
        v3 nrm = cross(sub(B, A), sub(C, A));
        double dn = dot(nrm, D);
        if (fabs(dn) < 1e-6 * sqrt(dot(nrm, nrm) * dot(D, D))) continue;
        double tt = dot(nrm, sub(A, O)) / dn;
        v3 P = {O.x + tt * D.x, O.y + tt * D.y, O.z + tt * D.z};
        double n2 = dot(nrm, nrm);
        double ba = dot(cross(sub(B, P), sub(C, P)), nrm) / n2, bb = dot(cross(sub(C, P), sub(A, P)), nrm) / n2;
        double bc = 1.0 - ba - bb;
        double margin = 1e-5;
        if (fabs(ba) < margin || fabs(bb) < margin || fabs(bc) < margin || fabs(tt) < margin ||
            fabs(tt - tmax) < margin)
            continue;
        bool expect = ba > 0 && bb > 0 && bc > 0 && tt > 0 && tt < tmax;
        float t, u, v;
        bool got = snug_ray_tri(o, d, tmax, a[0], a[1], a[2], &t, &u, &v);
        CHECK_MSG(got == expect, "case %d: hit %d expected %d (seed %llu)", n, got, expect,
                  (unsigned long long)harness_seed());
        if (got && expect) {
            CHECK_NEAR(t, tt, 1e-4 * fabs(tt) + 1e-6);
            CHECK_NEAR(u, bb, 1e-4);
            CHECK_NEAR(v, bc, 1e-4);
        }
        RETURN_IF_FAILED();
    }
    /* watertight: a 4x4 grid of quads split into triangles (consistent winding), rays through every grid vertex
     * and edge midpoint from random directions */
    float g[5][5][3];
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            g[i][j][0] = 0.37f * (float)i + 0.01f * (float)j;
            g[i][j][1] = 0.41f * (float)j;
            g[i][j][2] = 0.1f * g[i][j][0] + 0.05f * g[i][j][1]; /* tilted plane: creases could be grazed */
        }
    int misses = 0;
    for (int n = 0; n < 2000 * harness_scale(); n++) {
        int i = 1 + (int)(rng_next(&r) % 3), j = 1 + (int)(rng_next(&r) % 3);
        float target[3];
        int kind = (int)(rng_next(&r) % 3);
        for (int c = 0; c < 3; c++)
            target[c] = kind == 0 ? g[i][j][c] : kind == 1 ? 0.5f * (g[i][j][c] + g[i + 1][j][c])
                                                           : 0.5f * (g[i][j][c] + g[i + 1][j + 1][c]);
        float o[3], d[3], dir[3];
        rng_unit_vec(&r, dir);
        if (dir[2] < 0.2f) dir[2] = 0.2f + fabsf(dir[2]);
        for (int c = 0; c < 3; c++) o[c] = target[c] + 2.0f * dir[c], d[c] = -dir[c];
        bool any = false;
        for (int a = 0; a < 4 && !any; a++)
            for (int b = 0; b < 4 && !any; b++) {
                float t, u, v;
                any = snug_ray_tri(o, d, INFINITY, g[a][b], g[a + 1][b], g[a + 1][b + 1], &t, &u, &v) ||
                      snug_ray_tri(o, d, INFINITY, g[a][b], g[a + 1][b + 1], g[a][b + 1], &t, &u, &v);
            }
        misses += !any;
    }
    CHECK_MSG(misses == 0, "%d rays slipped through shared edges or vertices", misses);
}

int main(void) {
    RUN(test_constructed_cases);
    RUN(test_grid_overlap_and_distance_match_sat);
    RUN(test_eps_overlap_matches_distance);
    RUN(test_point_and_segment_match_sat);
    RUN(test_a_tiny_triangle_far_from_a_segment);
    RUN(test_a_tiny_triangle_and_a_long_sliver_pointing_at_it);
    RUN(test_ray_tri);
    return harness_finish();
}
