/* Bounding volumes: eigen solver, fits (containment on soups, degenerate sets and the npm meshes; sphere
 * minimality; OBB quality), measures against closed forms, and every pair test except OBB-OBB (test_bv_obb.c)
 * against an independent double-precision GJK oracle (bv_oracle.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bv_test_util.h"
#include "harness.h"
#include "test_meshes.h"

static const snug_bv_type all_types[SNUG_BV_TYPE_COUNT] = {SNUG_BV_SPHERE, SNUG_BV_AABB, SNUG_BV_OBB,
                                                            SNUG_BV_KDOP14, SNUG_BV_KDOP18, SNUG_BV_KDOP26};
static const char* type_name[SNUG_BV_TYPE_COUNT] = {"sphere", "aabb", "obb", "kdop14", "kdop18", "kdop26"};

/* ------------------------------------------------------------------------------------------------ eigen */

static void check_eigen(const double m[3][3], double tol_rel) {
    double w[3], V[3][3];
    snug_eigen_sym3d(m, w, V);
    double mag = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) mag = fmax(mag, fabs(m[i][j]));
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double d = V[a][0] * V[b][0] + V[a][1] * V[b][1] + V[a][2] * V[b][2];
            CHECK_NEAR(d, a == b ? 1.0 : 0.0, 1e-12);
        }
    double det = V[0][0] * (V[1][1] * V[2][2] - V[1][2] * V[2][1]) - V[1][0] * (V[0][1] * V[2][2] - V[0][2] * V[2][1]) +
                 V[2][0] * (V[0][1] * V[1][2] - V[0][2] * V[1][1]);
    CHECK_NEAR(det, 1.0, 1e-12);
    CHECK(w[0] >= w[1] && w[1] >= w[2]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double r = 0; /* (V diag(w) V^T)_ij, V[c] = column c */
            for (int c = 0; c < 3; c++) r += V[c][i] * w[c] * V[c][j];
            CHECK_NEAR(r, m[i][j], tol_rel * (mag + 1e-300));
        }
}

static void test_eigen_random_and_repeated(void) {
    rng r = {harness_seed() ^ 0xe16e};
    int cases = 2000 * harness_scale();
    for (int it = 0; it < cases; it++) {
        double m[3][3];
        int kind = it % 5;
        if (kind == 0) { /* random symmetric */
            for (int i = 0; i < 3; i++)
                for (int j = i; j < 3; j++) m[i][j] = m[j][i] = rng_range(&r, -10, 10);
        } else { /* Q diag(l) Q^T with repeated eigenvalues: (a,a,b), (a,b,b), (a,a,a), (a,a,0) */
            float q[4];
            rng_unit_quat(&r, q);
            mat3 Qf;
            glm_quat_mat3(q, Qf);
            double a = rng_range(&r, -5, 5), b = rng_range(&r, -5, 5);
            double l[4][3] = {{a, a, b}, {a, b, b}, {a, a, a}, {a, a, 0}};
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    m[i][j] = 0;
                    for (int c = 0; c < 3; c++) m[i][j] += (double)Qf[c][i] * l[kind - 1][c] * Qf[c][j];
                }
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < i; j++) m[i][j] = m[j][i] = 0.5 * (m[i][j] + m[j][i]);
        }
        check_eigen((const double(*)[3])m, 1e-12);
        RETURN_IF_FAILED();
    }
    double zero[3][3] = {{0}}, diag[3][3] = {{1, 0, 0}, {0, 3, 0}, {0, 0, 2}};
    check_eigen((const double(*)[3])zero, 0);
    check_eigen((const double(*)[3])diag, 1e-15);
    /* float interface */
    mat3 mf = {{2, 1, 0}, {1, 2, 0}, {0, 0, 5}}, V;
    vec3 w;
    snug_eigen_sym3(mf, w, V);
    CHECK_NEAR(w[0], 5, 1e-5);
    CHECK_NEAR(w[1], 3, 1e-5);
    CHECK_NEAR(w[2], 1, 1e-5);
    CHECK_NEAR(V[2][0] + V[2][1], 0, 1e-5); /* eigenvector of 1 is (1,-1,0)/sqrt2 up to sign */
    CHECK_NEAR(fabsf(V[2][0]), sqrtf(0.5f), 1e-5);
}

/* ------------------------------------------------------------------------------------------------ fits */

static void check_all_fits(const snug_tri_set* s, const char* what) {
    for (int t = 0; t < SNUG_BV_TYPE_COUNT; t++)
        for (int refine = 0; refine < (all_types[t] == SNUG_BV_OBB ? 2 : 1); refine++) {
            any_bv bv;
            fit_any(s, all_types[t], refine, &bv);
            uint32_t bad = count_outside(s, all_types[t], &bv);
            CHECK_MSG(bad == 0, "%s: %u vertices outside the %s%s fit", what, bad, type_name[t], refine ? " (refined)" : "");
            if (all_types[t] == SNUG_BV_OBB) {
                for (int a = 0; a < 3; a++)
                    for (int b = 0; b < 3; b++)
                        CHECK_NEAR(glm_vec3_dot(bv.obb.axes[a], bv.obb.axes[b]), a == b ? 1.0 : 0.0, 1e-6);
                vec3 x;
                glm_vec3_cross(bv.obb.axes[0], bv.obb.axes[1], x);
                CHECK_NEAR(glm_vec3_dot(x, bv.obb.axes[2]), 1.0, 1e-6); /* right-handed */
            }
            for (int m = 0; m < 3; m++) CHECK(isfinite(snug_bv_measure(all_types[t], &bv, (snug_measure)m)));
        }
}

static void test_fits_contain_random_soups(void) {
    rng r = {harness_seed() ^ 0x50b};
    int cases = 60 * harness_scale();
    for (int it = 0; it < cases; it++) {
        test_mesh m;
        /* scales from 1e-3 to 1e3 and offsets far from the origin stress the outward rounding */
        float scale = powf(10.0f, rng_range(&r, -3, 3));
        test_mesh_soup(&r, 1 + rng_next(&r) % 200, scale, scale * rng_range(&r, 0.01f, 1.0f), &m);
        float off[3];
        for (int k = 0; k < 3; k++) off[k] = (it % 3 == 0) ? rng_range(&r, -1e4f, 1e4f) * scale : 0.0f;
        for (uint32_t v = 0; v < m.vertex_count; v++)
            for (int k = 0; k < 3; k++) m.positions[3 * v + k] += off[k];
        snug_tri_set s = set_of(m.positions, m.indices, m.triangle_count);
        char what[64];
        snprintf(what, sizeof what, "soup %d", it);
        check_all_fits(&s, what);
        /* a random subset through ids */
        uint32_t ids[64], n = 1 + (uint32_t)(rng_next(&r) % 64);
        for (uint32_t k = 0; k < n; k++) ids[k] = (uint32_t)(rng_next(&r) % m.triangle_count);
        snug_tri_set sub = {m.positions, m.indices, ids, 0, n};
        check_all_fits(&sub, "soup subset");
        test_mesh_free(&m);
        RETURN_IF_FAILED();
    }
}

static void test_fits_degenerate_sets(void) {
    /* one point (all corners equal), a collinear set, a coplanar set, duplicates, zero-area triangles */
    float pts[] = {1.5f, -2.25f, 3.0f, /* 0 */
                   0, 0, 0,  1, 1, 1,  2, 2, 2,  -3, -3, -3,            /* 1..4 collinear */
                   0, 0, 5,  1, 0, 5,  0, 1, 5,  3, 2, 5,  -1, 4, 5,    /* 5..9 coplanar z = 5 */
                   1e7f, 1e7f, 1e7f, 1e7f, 1e7f, 1e7f + 1.0f};          /* 10, 11 far away */
    uint32_t point[] = {0, 0, 0};
    uint32_t collinear[] = {1, 2, 3, 2, 3, 4, 4, 1, 1};
    uint32_t coplanar[] = {5, 6, 7, 6, 8, 9, 9, 5, 7};
    uint32_t far_seg[] = {10, 11, 10};
    uint32_t mixed[] = {0, 0, 0, 1, 2, 3, 5, 6, 7};
    struct { const uint32_t* t; uint32_t n; const char* name; } sets[] = {
        {point, 1, "point"}, {collinear, 3, "collinear"}, {coplanar, 3, "coplanar"}, {far_seg, 1, "far segment"}, {mixed, 3, "mixed"}};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        snug_tri_set s = set_of(pts, sets[i].t, sets[i].n);
        check_all_fits(&s, sets[i].name);
    }
    /* the single point: every BV is (nearly) that point */
    snug_tri_set s = set_of(pts, point, 1);
    snug_sphere sp;
    snug_sphere_fit(&s, &sp);
    CHECK(sp.r < 1e-5f && sp.c[0] == 1.5f);
    /* collinear: sphere radius is half the segment (-3..2 along (1,1,1)) */
    s = set_of(pts, collinear, 3);
    snug_sphere_fit(&s, &sp);
    CHECK_NEAR(sp.r, 2.5f * sqrtf(3.0f), 1e-5);
    snug_obb ob;
    snug_obb_fit(&s, false, &ob);
    CHECK_NEAR(ob.e[0], 2.5f * sqrtf(3.0f), 1e-5);
    CHECK(ob.e[1] < 1e-5f && ob.e[2] < 1e-5f);
    /* coplanar: the OBB is flat */
    s = set_of(pts, coplanar, 3);
    snug_obb_fit(&s, true, &ob);
    CHECK_MSG(fminf(ob.e[0], fminf(ob.e[1], ob.e[2])) < 1e-4f * fmaxf(ob.e[0], fmaxf(ob.e[1], ob.e[2])), "flat OBB extents %g %g %g", ob.e[0], ob.e[1], ob.e[2]);
    /* empty set: finite, zero-size BVs */
    s = set_of(pts, point, 0);
    for (int t = 0; t < SNUG_BV_TYPE_COUNT; t++) {
        any_bv bv;
        fit_any(&s, all_types[t], true, &bv);
        CHECK(snug_bv_measure(all_types[t], &bv, SNUG_MEASURE_DIAMETER) == 0.0f);
    }
}

static void test_fits_contain_npm_meshes(void) {
    const char* names[] = {"bunny", "teapot", "dragon11k"};
    rng r = {harness_seed() ^ 0x3e5};
    for (int i = 0; i < 3; i++) {
        test_mesh m;
        if (!test_mesh_load(names[i], &m)) continue;
        snug_tri_set s = set_of(m.positions, m.indices, m.triangle_count);
        check_all_fits(&s, names[i]);
        int subsets = 10 * harness_scale();
        uint32_t* ids = malloc(sizeof(uint32_t) * m.triangle_count);
        for (int k = 0; k < subsets; k++) {
            /* a contiguous block (like a BVH node) or a random scatter */
            uint32_t n = 1 + (uint32_t)(rng_next(&r) % (m.triangle_count / 4));
            if (k % 2 == 0) {
                uint32_t first = (uint32_t)(rng_next(&r) % (m.triangle_count - n + 1));
                snug_tri_set sub = {m.positions, m.indices, NULL, first, n};
                check_all_fits(&sub, names[i]);
            } else {
                for (uint32_t j = 0; j < n; j++) ids[j] = (uint32_t)(rng_next(&r) % m.triangle_count);
                snug_tri_set sub = {m.positions, m.indices, ids, 0, n};
                check_all_fits(&sub, names[i]);
            }
        }
        /* the refined OBB is never worse than the covariance OBB (same vertices; surface measure) */
        snug_obb plain, refined;
        snug_obb_fit(&s, false, &plain);
        snug_obb_fit(&s, true, &refined);
        float sp = snug_bv_measure(SNUG_BV_OBB, &plain, SNUG_MEASURE_SURFACE), sr = snug_bv_measure(SNUG_BV_OBB, &refined, SNUG_MEASURE_SURFACE);
        printf("  %s: OBB surface covariance %.5g, refined %.5g (%.1f%%)\n", names[i], sp, sr, 100.0 * (sr - sp) / sp);
        CHECK(sr <= sp * 1.0001f);
        free(ids);
        test_mesh_free(&m);
    }
}

/* smallest enclosing sphere by brute force over all candidate spheres of 1..4 boundary points */
static double brute_min_radius(const double (*p)[3], int n) {
    double best = INFINITY;
    for (int a = 0; a < n; a++)
        for (int b = a; b < n; b++)
            for (int c = b; c < n; c++)
                for (int d = c; d < n; d++) {
                    int idx[4] = {a, b, c, d}, m = 0;
                    double R[4][3];
                    for (int k = 0; k < 4; k++) {
                        bool dup = false;
                        for (int q = 0; q < m; q++) dup = dup || memcmp(R[q], p[idx[k]], sizeof R[q]) == 0;
                        if (!dup) memcpy(R[m++], p[idx[k]], sizeof R[0]);
                    }
                    /* circumcentre in the affine hull: solve the Gram system by Gaussian elimination */
                    double A[3][4] = {{0}}, x[3] = {0, 0, 0};
                    int dim = m - 1;
                    double e[3][3];
                    for (int i = 0; i < dim; i++)
                        for (int k = 0; k < 3; k++) e[i][k] = R[i + 1][k] - R[0][k];
                    for (int i = 0; i < dim; i++) {
                        for (int j = 0; j < dim; j++) A[i][j] = e[i][0] * e[j][0] + e[i][1] * e[j][1] + e[i][2] * e[j][2];
                        A[i][dim] = 0.5 * (e[i][0] * e[i][0] + e[i][1] * e[i][1] + e[i][2] * e[i][2]);
                    }
                    bool ok = true;
                    for (int col = 0; col < dim && ok; col++) {
                        int piv = col;
                        for (int r = col + 1; r < dim; r++)
                            if (fabs(A[r][col]) > fabs(A[piv][col])) piv = r;
                        if (fabs(A[piv][col]) < 1e-12) { ok = false; break; }
                        for (int k = 0; k <= dim; k++) { double t = A[col][k]; A[col][k] = A[piv][k]; A[piv][k] = t; }
                        for (int r = 0; r < dim; r++) {
                            if (r == col) continue;
                            double f = A[r][col] / A[col][col];
                            for (int k = 0; k <= dim; k++) A[r][k] -= f * A[col][k];
                        }
                    }
                    if (!ok) continue;
                    for (int i = 0; i < dim; i++) x[i] = A[i][dim] / A[i][i];
                    double c3[3];
                    for (int k = 0; k < 3; k++) {
                        c3[k] = R[0][k];
                        for (int i = 0; i < dim; i++) c3[k] += x[i] * e[i][k];
                    }
                    double r2 = 0;
                    for (int i = 0; i < n; i++) {
                        double dx = p[i][0] - c3[0], dy = p[i][1] - c3[1], dz = p[i][2] - c3[2];
                        r2 = fmax(r2, dx * dx + dy * dy + dz * dz);
                    }
                    best = fmin(best, sqrt(r2));
                }
    return best;
}

static void test_sphere_is_minimal(void) {
    rng r = {harness_seed() ^ 0x5fe};
    int cases = 300 * harness_scale();
    for (int it = 0; it < cases; it++) {
        int ntri = 1 + (int)(rng_next(&r) % 4);
        float pos[12 * 3];
        uint32_t tris[12];
        double p[12][3];
        for (int i = 0; i < 3 * ntri; i++) {
            for (int k = 0; k < 3; k++) pos[3 * i + k] = rng_range(&r, -1, 1) * (k == 2 && it % 4 == 0 ? 0.0f : 1.0f);
            tris[i] = (uint32_t)i;
            for (int k = 0; k < 3; k++) p[i][k] = pos[3 * i + k];
        }
        snug_tri_set s = set_of(pos, tris, (uint32_t)ntri);
        snug_sphere sp;
        snug_sphere_fit(&s, &sp);
        double brute = brute_min_radius((const double(*)[3])p, 3 * ntri);
        CHECK_MSG(sp.r >= brute * (1 - 1e-6) && sp.r <= brute * (1 + 1e-5) + 1e-7, "case %d: welzl %.9g, brute force %.9g", it, sp.r, brute);
        RETURN_IF_FAILED();
    }
}

/* incremental fits (support moved to the front) agree with fresh fits while a set grows triangle by triangle */
static void test_sphere_incremental_matches_fresh(void) {
    rng r = {harness_seed() ^ 0x1c5};
    int cases = 20 * harness_scale();
    for (int it = 0; it < cases; it++) {
        test_mesh m;
        test_mesh_soup(&r, 2 + rng_next(&r) % 60, 1.0f, 0.5f, &m);
        snug_sphere_support sup = {.n = 0};
        for (uint32_t n = 1; n <= m.triangle_count; n++) {
            snug_tri_set s = set_of(m.positions, m.indices, n);
            snug_sphere inc, fresh;
            snug_sphere_fit_incremental(&s, &sup, &inc);
            snug_sphere_fit(&s, &fresh);
            CHECK(sup.n >= 1 && sup.n <= 4);
            CHECK(count_outside(&s, SNUG_BV_SPHERE, &inc) == 0);
            CHECK_NEAR(inc.r, fresh.r, 1e-5 * fresh.r + 1e-7);
        }
        test_mesh_free(&m);
        RETURN_IF_FAILED();
    }
}

static void test_obb_fit_recovers_rotated_box(void) {
    rng r = {harness_seed() ^ 0x0bb};
    for (int it = 0; it < 50; it++) {
        test_mesh m;
        test_mesh_box(3.0f, 2.0f, 1.0f, &m);
        snug_xform x;
        random_xform(&r, 10.0f, &x);
        for (uint32_t v = 0; v < m.vertex_count; v++) {
            vec3 q;
            snug_xform_point(&x, m.positions + 3 * v, q);
            glm_vec3_copy(q, m.positions + 3 * v);
        }
        snug_tri_set s = set_of(m.positions, m.indices, m.triangle_count);
        for (int refine = 0; refine < 2; refine++) {
            snug_obb b;
            snug_obb_fit(&s, refine, &b);
            float e[3] = {b.e[0], b.e[1], b.e[2]};
            for (int i = 0; i < 2; i++) /* sort descending */
                for (int j = i + 1; j < 3; j++)
                    if (e[j] > e[i]) { float t = e[i]; e[i] = e[j]; e[j] = t; }
            CHECK_NEAR(e[0], 3.0, 1e-4);
            CHECK_NEAR(e[1], 2.0, 1e-4);
            CHECK_NEAR(e[2], 1.0, 1e-4);
        }
        test_mesh_free(&m);
        RETURN_IF_FAILED();
    }
}

/* Area weighting: a rotated 4 x 1 rectangle tessellated densely in one end and with two triangles elsewhere. The
 * area-weighted covariance sees a uniform rectangle, so the OBB is the rectangle; a vertex covariance would tilt
 * towards the dense end. */
static void test_obb_fit_is_area_weighted(void) {
    enum { G = 20 };
    float pos[(G + 1) * (G + 1) * 3 + 4 * 3];
    uint32_t tris[2 * G * G * 3 + 2 * 3];
    const float ang = 0.5235988f, ca = cosf(ang), sa = sinf(ang);
    uint32_t nv = 0, nt = 0;
    for (int i = 0; i <= G; i++)
        for (int j = 0; j <= G; j++) { /* dense unit square [0,1]^2 */
            float x = (float)i / G, y = (float)j / G;
            pos[3 * nv] = ca * x - sa * y + 5.0f, pos[3 * nv + 1] = sa * x + ca * y - 2.0f, pos[3 * nv + 2] = 7.0f;
            nv++;
        }
    for (int i = 0; i < G; i++)
        for (int j = 0; j < G; j++) {
            uint32_t a = (uint32_t)(i * (G + 1) + j), b = a + G + 1;
            uint32_t t[6] = {a, b, a + 1, a + 1, b, b + 1};
            memcpy(tris + 3 * nt, t, sizeof t);
            nt += 2;
        }
    float far[4][2] = {{1, 0}, {4, 0}, {4, 1}, {1, 1}}; /* sparse [1,4] x [0,1] */
    for (int k = 0; k < 4; k++) {
        pos[3 * (nv + k)] = ca * far[k][0] - sa * far[k][1] + 5.0f;
        pos[3 * (nv + k) + 1] = sa * far[k][0] + ca * far[k][1] - 2.0f;
        pos[3 * (nv + k) + 2] = 7.0f;
    }
    uint32_t t2[6] = {nv, nv + 1, nv + 2, nv, nv + 2, nv + 3};
    memcpy(tris + 3 * nt, t2, sizeof t2);
    nt += 2;
    snug_tri_set s = set_of(pos, tris, nt);
    snug_obb b;
    snug_obb_fit(&s, false, &b);
    float e[3] = {b.e[0], b.e[1], b.e[2]};
    CHECK_NEAR(e[0], 2.0, 1e-4);
    CHECK_NEAR(e[1], 0.5, 1e-4);
    CHECK(e[2] < 1e-4f);
    CHECK_NEAR(fabsf(b.axes[0][0]), ca, 1e-4); /* the long axis follows the rectangle */
    CHECK(count_outside(&s, SNUG_BV_OBB, &b) == 0);
}

/* ------------------------------------------------------------------------------------------------ measures */

static void test_measures_closed_forms(void) {
    const double pi = 3.14159265358979323846;
    snug_sphere s = {{1, 2, 3}, 2.0f};
    CHECK_NEAR(snug_bv_measure(SNUG_BV_SPHERE, &s, SNUG_MEASURE_VOLUME), 4.0 / 3.0 * pi * 8, 1e-4);
    CHECK_NEAR(snug_bv_measure(SNUG_BV_SPHERE, &s, SNUG_MEASURE_SURFACE), 16 * pi, 1e-4);
    CHECK_NEAR(snug_bv_measure(SNUG_BV_SPHERE, &s, SNUG_MEASURE_DIAMETER), 4, 1e-6);
    CHECK(snug_bv_measure(SNUG_BV_SPHERE, &s, SNUG_MEASURE_HAUSDORFF) == 0.0f);
    snug_aabb a = {{-1, 0, 2}, {1, 3, 6}};
    CHECK_NEAR(snug_bv_measure(SNUG_BV_AABB, &a, SNUG_MEASURE_VOLUME), 24, 1e-5);
    CHECK_NEAR(snug_bv_measure(SNUG_BV_AABB, &a, SNUG_MEASURE_SURFACE), 2 * (6 + 12 + 8), 1e-5);
    CHECK_NEAR(snug_bv_measure(SNUG_BV_AABB, &a, SNUG_MEASURE_DIAMETER), sqrt(4 + 9 + 16), 1e-5);
    snug_obb o;
    snug_obb_from_aabb(&a, &o);
    /* the conversion pads by a few ulps */
    CHECK_NEAR(snug_bv_measure(SNUG_BV_OBB, &o, SNUG_MEASURE_VOLUME), 24, 24e-5);
    CHECK_NEAR(snug_bv_measure(SNUG_BV_OBB, &o, SNUG_MEASURE_SURFACE), 52, 52e-5);
    CHECK_NEAR(snug_bv_measure(SNUG_BV_OBB, &o, SNUG_MEASURE_DIAMETER), sqrt(29.0), 1e-5);

    /* k-DOPs of a cube are the cube; the 14- and 26-DOP of an octahedron are the octahedron */
    float cube[8 * 3], octa[6 * 3] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++) cube[3 * i + k] = (i >> k) & 1 ? 1.0f : -1.0f;
    uint32_t ct[] = {0, 1, 2, 3, 4, 5, 6, 7, 0}, ot[] = {0, 1, 2, 3, 4, 5};
    for (int t = 3; t < SNUG_BV_TYPE_COUNT; t++) {
        snug_kdop k;
        snug_tri_set cs = set_of(cube, ct, 3);
        snug_kdop_fit(&cs, all_types[t], &k);
        CHECK_NEAR(snug_bv_measure(all_types[t], &k, SNUG_MEASURE_VOLUME), 8, 1e-4);
        CHECK_NEAR(snug_bv_measure(all_types[t], &k, SNUG_MEASURE_SURFACE), 24, 1e-4);
        CHECK_NEAR(snug_bv_measure(all_types[t], &k, SNUG_MEASURE_DIAMETER), 2 * sqrt(3.0), 1e-5);
        if (all_types[t] == SNUG_BV_KDOP18) continue;
        snug_tri_set os = set_of(octa, ot, 2);
        snug_kdop_fit(&os, all_types[t], &k);
        CHECK_NEAR(snug_bv_measure(all_types[t], &k, SNUG_MEASURE_VOLUME), 4.0 / 3.0, 1e-4);
        CHECK_NEAR(snug_bv_measure(all_types[t], &k, SNUG_MEASURE_SURFACE), 4 * sqrt(3.0), 1e-4);
        CHECK_NEAR(snug_bv_measure(all_types[t], &k, SNUG_MEASURE_DIAMETER), 2, 1e-5);
    }
    /* the 18-DOP of the octahedron: cube cut by |x|+|y| <= 1 (all pairs), a rhombic dodecahedron of volume 2 */
    {
        snug_kdop k;
        snug_tri_set os = set_of(octa, ot, 2);
        snug_kdop_fit(&os, SNUG_BV_KDOP18, &k);
        /* rhombic dodecahedron {|x|+|y|<=1, |y|+|z|<=1, |x|+|z|<=1}: volume 2, vertices (+-1,0,0) and (+-.5,+-.5,+-.5) */
        CHECK_NEAR(snug_bv_measure(SNUG_BV_KDOP18, &k, SNUG_MEASURE_VOLUME), 2.0, 1e-4);
        CHECK_NEAR(snug_bv_measure(SNUG_BV_KDOP18, &k, SNUG_MEASURE_DIAMETER), 2.0, 1e-5);
        /* 12 rhombi with diagonals 1 and sqrt(2): area 12 * sqrt(2)/2 */
        CHECK_NEAR(snug_bv_measure(SNUG_BV_KDOP18, &k, SNUG_MEASURE_SURFACE), 6 * sqrt(2.0), 1e-4);
    }
    /* random k-DOPs: volume against Monte Carlo in the axis box, diameter against the vertex set */
    rng r = {harness_seed() ^ 0x3ea5};
    for (int it = 0; it < 12; it++) {
        test_mesh m;
        test_mesh_soup(&r, 1 + rng_next(&r) % 20, 1.0f, 1.0f, &m);
        snug_tri_set ms = set_of(m.positions, m.indices, m.triangle_count);
        snug_bv_type t = all_types[3 + it % 3];
        snug_kdop k;
        snug_kdop_fit(&ms, t, &k);
        int n = snug_kdop_axis_count(t);
        const float(*d)[3] = snug_kdop_type_directions(t);
        int samples = 20000, in = 0;
        for (int q = 0; q < samples; q++) {
            float p[3];
            for (int c = 0; c < 3; c++) p[c] = rng_range(&r, k.lo[c], k.hi[c]);
            bool inside = true;
            for (int j = 3; j < n && inside; j++) {
                float s2 = d[j][0] * p[0] + d[j][1] * p[1] + d[j][2] * p[2];
                inside = s2 >= k.lo[j] && s2 <= k.hi[j];
            }
            in += inside;
        }
        double boxv = ((double)k.hi[0] - k.lo[0]) * ((double)k.hi[1] - k.lo[1]) * ((double)k.hi[2] - k.lo[2]);
        double est = boxv * in / samples, sigma = boxv * sqrt((double)in / samples * (1.0 - (double)in / samples) / samples);
        double vol = snug_bv_measure(t, &k, SNUG_MEASURE_VOLUME);
        CHECK_MSG(fabs(vol - est) <= 4 * sigma + 1e-6 * boxv, "%s volume %.6g, Monte Carlo %.6g +- %.2g", type_name[t], vol, est, sigma);
        double V[ORACLE_MAX_VERTS][3];
        int nv = oracle_kdop_vertices(d, n, k.lo, k.hi, V, ORACLE_MAX_VERTS);
        CHECK(nv >= 4 && nv <= 48);
        double diam = 0;
        for (int i = 0; i < nv; i++)
            for (int j = i + 1; j < nv; j++) {
                double dx = V[i][0] - V[j][0], dy = V[i][1] - V[j][1], dz = V[i][2] - V[j][2];
                diam = fmax(diam, sqrt(dx * dx + dy * dy + dz * dz));
            }
        CHECK_NEAR(snug_bv_measure(t, &k, SNUG_MEASURE_DIAMETER), diam, 1e-5 * (1 + diam));
        test_mesh_free(&m);
    }
}

/* ------------------------------------------------------------------------------------------------ pair tests */

/* random BV of a type: the fit of a small random soup (optionally thin), centred near the origin */
static void random_bv(rng* r, snug_bv_type type, any_bv* out) {
    test_mesh m;
    float size = rng_range(r, 0.1f, 1.0f);
    test_mesh_soup(r, 1 + rng_next(r) % 6, size, size, &m);
    if (rng_next(r) % 5 == 0) /* flatten: thin BVs */
        for (uint32_t v = 0; v < m.vertex_count; v++) m.positions[3 * v + 2] *= 0.01f;
    snug_tri_set s = set_of(m.positions, m.indices, m.triangle_count);
    fit_any(&s, type, false, out);
    test_mesh_free(&m);
}

typedef struct pair_counts {
    int total, overlap, separated, band, fn, fp, band_hit;
} pair_counts;

static bool pair_test(snug_bv_type ta, const any_bv* a, snug_bv_type tb, const any_bv* b, const snug_xform* x) {
    return snug_bv_overlap(ta, a, tb, b, x);
}

/* run `cases` random pairs of the two types through the dispatch and the oracle */
static pair_counts run_pairs(snug_bv_type ta, snug_bv_type tb, int cases, uint64_t seed) {
    rng r = {seed};
    pair_counts pc = {0};
    for (int it = 0; it < cases; it++) {
        any_bv a, b;
        random_bv(&r, ta, &a);
        random_bv(&r, tb, &b);
        snug_xform x;
        float spread = it % 3 == 0 ? 0.5f : it % 3 == 1 ? 1.2f : 2.5f;
        random_xform(&r, spread, &x);
        double size = fmax(bv_size(ta, &a), bv_size(tb, &b));
        int truth = truth_class(ta, &a, tb, &b, &x, 1e-4 * size);
        bool hit = pair_test(ta, &a, tb, &b, &x);
        pc.total++;
        if (truth == 1) {
            pc.overlap++;
            pc.fn += !hit;
        } else if (truth == 0) {
            pc.separated++;
            pc.fp += hit;
        } else {
            pc.band++;
            pc.band_hit += hit;
        }
    }
    return pc;
}

static void report(const char* name, pair_counts pc) {
    printf("  %-16s %6d pairs: %6d overlap, %6d separated, %4d in band (%d reported overlap); false negatives %d, "
           "false positives %d (%.2f%% of separated)\n",
           name, pc.total, pc.overlap, pc.separated, pc.band, pc.band_hit, pc.fn, pc.fp,
           pc.separated ? 100.0 * pc.fp / pc.separated : 0.0);
}

static void test_sphere_and_box_pairs(void) {
    int cases = 10000 * harness_scale();
    struct { snug_bv_type a, b; bool exact; const char* name; } pairs[] = {
        {SNUG_BV_SPHERE, SNUG_BV_SPHERE, true, "sphere-sphere"}, {SNUG_BV_SPHERE, SNUG_BV_AABB, true, "sphere-aabb"},
        {SNUG_BV_SPHERE, SNUG_BV_OBB, true, "sphere-obb"},       {SNUG_BV_AABB, SNUG_BV_AABB, false, "aabb-aabb"},
        {SNUG_BV_AABB, SNUG_BV_OBB, true, "aabb-obb"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        pair_counts pc = run_pairs(pairs[i].a, pairs[i].b, cases, harness_seed() ^ (0x9a1 + i));
        report(pairs[i].name, pc);
        CHECK_MSG(pc.fn == 0, "%s: %d false negatives", pairs[i].name, pc.fn);
        if (pairs[i].exact) CHECK_MSG(pc.fp == 0, "%s: %d false positives outside the band", pairs[i].name, pc.fp);
        CHECK(pc.overlap > cases / 10 && pc.separated > cases / 10);
    }
    /* the homogeneous entry points agree with the dispatch, also the prepared AABB test */
    rng r = {harness_seed() ^ 0x7e1};
    for (int it = 0; it < 2000; it++) {
        any_bv a, b;
        snug_xform x;
        random_xform(&r, 1.5f, &x);
        random_bv(&r, SNUG_BV_AABB, &a);
        random_bv(&r, SNUG_BV_AABB, &b);
        snug_rel rel;
        snug_rel_prepare(&x, &rel);
        CHECK(snug_aabb_aabb(&a.aabb, &b.aabb, &x) == snug_aabb_aabb_rel(&a.aabb, &b.aabb, &rel));
        CHECK(snug_aabb_aabb(&a.aabb, &b.aabb, &x) == snug_bv_overlap(SNUG_BV_AABB, &a, SNUG_BV_AABB, &b, &x));
    }
}

/* exact touching in float must count as overlap */
static void test_touching_counts(void) {
    snug_xform id;
    snug_xform_identity(&id);
    snug_sphere s1 = {{0, 0, 0}, 1.0f}, s2 = {{2, 0, 0}, 1.0f};
    CHECK(snug_sphere_sphere(&s1, &s2, &id));
    snug_aabb a = {{-1, -1, -1}, {1, 1, 1}}, b = {{1, -3, 0}, {2, 3, 0.5f}};
    CHECK(snug_aabb_aabb(&a, &b, &id));
    CHECK(snug_sphere_aabb(&s2, &b, &id) && snug_sphere_aabb(&s1, &a, &id));
    snug_sphere s3 = {{3, 0, 0}, 1.0f};
    CHECK(snug_sphere_aabb(&s3, &b, &id));
    snug_aabb c = {{1, 1, 1}, {2, 2, 2}}; /* corner contact */
    CHECK(snug_aabb_aabb(&a, &c, &id));
    snug_obb oc;
    snug_obb_from_aabb(&c, &oc);
    CHECK(snug_aabb_obb(&a, &oc, &id));
    for (int t = 3; t < SNUG_BV_TYPE_COUNT; t++) {
        snug_kdop ka, kc;
        snug_kdop_from_aabb(&a, all_types[t], &ka);
        snug_kdop_from_aabb(&c, all_types[t], &kc);
        CHECK(snug_kdop_kdop(&ka, &kc, all_types[t], &id));
    }
    /* and clear gaps do not */
    snug_aabb d = {{1.001f, 1.001f, 1.001f}, {2, 2, 2}};
    CHECK(!snug_aabb_aabb(&a, &d, &id));
}

/* k-DOP pairs: pools of random k-DOPs with precomputed vertex sets, random relative poses */
static void test_kdop_pairs(void) {
    enum { POOL = 48 };
    int cases = 10000 * harness_scale();
    for (int t = 3; t < SNUG_BV_TYPE_COUNT; t++) {
        snug_bv_type type = all_types[t];
        rng r = {harness_seed() ^ (0x4d0 + (uint64_t)t)};
        static any_bv pool[POOL], eroded[POOL];
        static double verts[POOL][ORACLE_MAX_VERTS][3], everts[POOL][ORACLE_MAX_VERTS][3];
        static int nv[POOL], env[POOL];
        static double size[POOL];
        for (int i = 0; i < POOL; i++) {
            random_bv(&r, type, &pool[i]);
            size[i] = bv_size(type, &pool[i]);
            const float(*d)[3] = snug_kdop_type_directions(type);
            int n = snug_kdop_axis_count(type);
            nv[i] = oracle_kdop_vertices(d, n, pool[i].kdop.lo, pool[i].kdop.hi, verts[i], ORACLE_MAX_VERTS);
            env[i] = erode(type, &pool[i], 1e-4 * size[i], &eroded[i])
                         ? oracle_kdop_vertices(d, n, eroded[i].kdop.lo, eroded[i].kdop.hi, everts[i], ORACLE_MAX_VERTS)
                         : 0;
        }
        float magnitude = 0.0f;
        for (int i = 0; i < POOL; i++)
            for (int s = 0; s < snug_kdop_axis_count(type); s++)
                magnitude = fmaxf(magnitude, fmaxf(fabsf(pool[i].kdop.lo[s]), fabsf(pool[i].kdop.hi[s])));
        pair_counts pc = {0}, idc = {0};
        int mismatch_prepared = 0, identity_mismatch = 0;
        for (int it = 0; it < cases; it++) {
            int i = (int)(rng_next(&r) % POOL), j = (int)(rng_next(&r) % POOL);
            snug_xform x;
            bool identity = it % 10 == 0;
            if (identity) snug_xform_identity(&x);
            else random_xform(&r, it % 3 == 0 ? 0.5f : 1.5f, &x);
            double band = 1e-4 * fmax(size[i], size[j]);
            oracle_shape A = {verts[i], nv[i]}, B = {verts[j], nv[j]}, Ae = {everts[i], env[i]}, Be = {everts[j], env[j]};
            oracle_identity(&A), oracle_identity(&Ae);
            for (int rr = 0; rr < 3; rr++) {
                for (int c = 0; c < 3; c++) B.R[rr][c] = Be.R[rr][c] = x.R[c][rr];
                B.t[rr] = Be.t[rr] = x.t[rr];
            }
            /* erosion by the larger band: both were eroded by their own 1e-4 size; use the pair's band only
             * for the distance test (a smaller erosion only makes "clear overlap" stricter) */
            int truth = truth_from_shapes(&A, &B, env[i] ? &Ae : NULL, env[j] ? &Be : NULL, band);
            bool hit = snug_kdop_kdop(&pool[i].kdop, &pool[j].kdop, type, &x);
            pair_counts* c = identity ? &idc : &pc;
            c->total++;
            if (truth == 1) c->overlap++, c->fn += !hit;
            else if (truth == 0) c->separated++, c->fp += hit;
            else c->band++, c->band_hit += hit;
            /* prepared (per mesh pair) and unprepared give the same answer */
            snug_kdop_rel kr;
            snug_kdop_rel_prepare(&x, type, type, magnitude, &kr);
            mismatch_prepared += hit != snug_kdop_kdop_rel(&pool[i].kdop, &pool[j].kdop, &kr);
            if (identity) { /* exact: the plain interval test */
                bool plain = true;
                for (int s = 0; s < snug_kdop_axis_count(type); s++)
                    plain = plain && pool[i].kdop.lo[s] <= pool[j].kdop.hi[s] && pool[j].kdop.lo[s] <= pool[i].kdop.hi[s];
                identity_mismatch += plain != hit;
            }
        }
        char name[32];
        snprintf(name, sizeof name, "%s-%s", type_name[t], type_name[t]);
        report(name, pc);
        snprintf(name, sizeof name, "%s identity", type_name[t]);
        report(name, idc);
        CHECK_MSG(pc.fn == 0 && idc.fn == 0, "%s: false negatives %d + %d", type_name[t], pc.fn, idc.fn);
        CHECK_MSG(identity_mismatch == 0, "%s: %d identity pairs differ from the interval test", type_name[t], identity_mismatch);
        CHECK_MSG(mismatch_prepared <= cases / 1000, "%s: prepared and unprepared differ %d times", type_name[t], mismatch_prepared);
        CHECK(pc.overlap > cases / 20 && pc.separated > cases / 20);
    }
}

/* the generic dispatch for all 36 ordered type pairs against the oracle, from pools of random BVs of every type
 * with their oracle shapes prepared once (k-DOP vertex enumeration is the expensive part): no false negatives,
 * false-positive rates printed per unordered pair (both orders together) */
enum { DPOOL = 40 };
typedef struct pooled {
    any_bv bv;
    double size;
    double v[ORACLE_MAX_VERTS][3], ev[ORACLE_MAX_VERTS][3];
    oracle_shape shape, eroded;
    bool has_eroded;
} pooled;

static void test_dispatch_all_type_pairs(void) {
    static pooled pool[SNUG_BV_TYPE_COUNT][DPOOL];
    rng r = {harness_seed() ^ 0xd15};
    for (int t = 0; t < SNUG_BV_TYPE_COUNT; t++)
        for (int i = 0; i < DPOOL; i++) {
            pooled* p = &pool[t][i];
            random_bv(&r, all_types[t], &p->bv);
            p->size = bv_size(all_types[t], &p->bv);
            shape_of(all_types[t], &p->bv, NULL, p->v, &p->shape);
            any_bv e;
            p->has_eroded = erode(all_types[t], &p->bv, 1e-4 * p->size, &e);
            if (p->has_eroded) shape_of(all_types[t], &e, NULL, p->ev, &p->eroded);
        }
    int cases = 5000 * harness_scale(); /* per ordered pair: 1e4 per unordered pair */
    pair_counts sum[SNUG_BV_TYPE_COUNT][SNUG_BV_TYPE_COUNT] = {{{0}}};
    for (int ta = 0; ta < SNUG_BV_TYPE_COUNT; ta++)
        for (int tb = 0; tb < SNUG_BV_TYPE_COUNT; tb++) {
            pair_counts* pc = &sum[ta < tb ? ta : tb][ta < tb ? tb : ta];
            for (int it = 0; it < cases; it++) {
                const pooled* a = &pool[ta][rng_next(&r) % DPOOL];
                const pooled* b = &pool[tb][rng_next(&r) % DPOOL];
                snug_xform x;
                random_xform(&r, it % 3 == 0 ? 0.5f : it % 3 == 1 ? 1.2f : 2.5f, &x);
                oracle_shape B = b->shape, Be = b->eroded;
                for (int rr = 0; rr < 3; rr++) {
                    for (int c = 0; c < 3; c++) B.R[rr][c] = Be.R[rr][c] = x.R[c][rr];
                    B.t[rr] = Be.t[rr] = x.t[rr];
                }
                int truth = truth_from_shapes(&a->shape, &B, a->has_eroded ? &a->eroded : NULL, b->has_eroded ? &Be : NULL,
                                              1e-4 * fmax(a->size, b->size));
                bool hit = snug_bv_overlap(all_types[ta], &a->bv, all_types[tb], &b->bv, &x);
                pc->total++;
                if (truth == 1) pc->overlap++, pc->fn += !hit;
                else if (truth == 0) pc->separated++, pc->fp += hit;
                else pc->band++, pc->band_hit += hit;
            }
        }
    for (int ta = 0; ta < SNUG_BV_TYPE_COUNT; ta++)
        for (int tb = ta; tb < SNUG_BV_TYPE_COUNT; tb++) {
            char name[40];
            snprintf(name, sizeof name, "%s-%s", type_name[ta], type_name[tb]);
            report(name, sum[ta][tb]);
            CHECK_MSG(sum[ta][tb].fn == 0, "%s: %d false negatives", name, sum[ta][tb].fn);
            CHECK(sum[ta][tb].overlap > sum[ta][tb].total / 20 && sum[ta][tb].separated > sum[ta][tb].total / 20);
        }
}

int main(void) {
    RUN(test_eigen_random_and_repeated);
    RUN(test_fits_contain_random_soups);
    RUN(test_fits_degenerate_sets);
    RUN(test_fits_contain_npm_meshes);
    RUN(test_sphere_is_minimal);
    RUN(test_sphere_incremental_matches_fresh);
    RUN(test_obb_fit_recovers_rotated_box);
    RUN(test_obb_fit_is_area_weighted);
    RUN(test_measures_closed_forms);
    RUN(test_touching_counts);
    RUN(test_sphere_and_box_pairs);
    RUN(test_kdop_pairs);
    RUN(test_dispatch_all_type_pairs);
    return harness_finish();
}
