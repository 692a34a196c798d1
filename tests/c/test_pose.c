/* Pose -> matrix conversions (core/src/pose.c) against an independent double-precision reference: the quaternion
 * normalised in double, its textbook matrix, and inverse(A) * B composed as matrices. Quaternions of length 1 and
 * of every length the entry points accept (1 +- SNUG_QUAT_TOLERANCE, used without normalising them first), with
 * both signs, and translations up to 1e4. */
#include <math.h>
#include <stdio.h>

#include "harness.h"
#include "base/pose.h"
#include "base/trig.h"

/* column-major like cglm: M[c][r] */
static void ref_matrix(const float qf[4], double M[3][3]) {
    double x = qf[0], y = qf[1], z = qf[2], w = qf[3];
    double n = sqrt(x * x + y * y + z * z + w * w);
    x /= n, y /= n, z /= n, w /= n;
    double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
                      {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
                      {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)}};
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) M[c][r] = m[c][r];
}

static void random_pose(rng* r, snug_pose* p, int kind) {
    rng_unit_quat(r, p->q);
    float scale = kind == 0 ? 1.0f : 1.0f + SNUG_QUAT_TOLERANCE * rng_range(r, -1.0f, 1.0f);
    if (kind == 2) scale = -scale; /* -q is the same rotation */
    for (int i = 0; i < 4; i++) p->q[i] *= scale;
    for (int i = 0; i < 3; i++) p->p[i] = rng_range(r, -1e4f, 1e4f);
}

static void test_from_pose_matches_reference(void) {
    rng r = {harness_seed()};
    int n = 20000 * harness_scale();
    for (int it = 0; it < n; it++) {
        snug_pose p;
        random_pose(&r, &p, it % 3);
        snug_xform x;
        snug_xform_from_pose(&p, &x);
        double M[3][3];
        ref_matrix(p.q, M);
        for (int c = 0; c < 3; c++) {
            for (int k = 0; k < 3; k++) CHECK_NEAR(x.R[c][k], M[c][k], 1e-6);
            CHECK(x.t[c] == p.p[c]);
        }
        RETURN_IF_FAILED();
    }
}

static void test_relative_matches_composition(void) {
    rng r = {harness_seed() + 1};
    int n = 20000 * harness_scale();
    for (int it = 0; it < n; it++) {
        snug_pose a, b;
        random_pose(&r, &a, it % 3);
        random_pose(&r, &b, (it / 3) % 3);
        snug_xform x;
        snug_xform_relative(&a, &b, &x);
        double A[3][3], B[3][3];
        ref_matrix(a.q, A);
        ref_matrix(b.q, B);
        /* R = A^T B, t = A^T (pb - pa); entries of A^T B: column c, row k = (column k of A) . (column c of B) */
        for (int c = 0; c < 3; c++) {
            for (int k = 0; k < 3; k++) {
                double e = A[k][0] * B[c][0] + A[k][1] * B[c][1] + A[k][2] * B[c][2];
                CHECK_NEAR(x.R[c][k], e, 2e-6);
            }
            double d[3] = {(double)b.p[0] - a.p[0], (double)b.p[1] - a.p[1], (double)b.p[2] - a.p[2]};
            double t = A[c][0] * d[0] + A[c][1] * d[1] + A[c][2] * d[2];
            CHECK_NEAR(x.t[c], t, 2e-6 * 3e4);
        }
        RETURN_IF_FAILED();
    }
}

/* The angles' sine and cosine (base/trig.c, which reduces by pi/2 itself) against libm: within 2e-16 of it, or
 * 4e-16 of the larger of 1 and its magnitude, from tiny angles through the quarter turns' edges to 1e6, and finite
 * in [-1, 1] beyond (reduced by a double's 2 pi); NaN for a non-finite angle. */
static void test_sin_cos_match_libm(void) {
    rng r = {harness_seed()};
    for (int it = 0; it < 20000 * harness_scale(); it++) {
        int scale = it % 5;
        double x = scale == 0 ? rng_range(&r, -1e-3f, 1e-3f)
                 : scale == 1 ? rng_range(&r, -4.0f, 4.0f)
                 : scale == 2 ? (double)(int)rng_range(&r, -200.0f, 200.0f) * 1.5707963267948966 + rng_range(&r, -1e-6f, 1e-6f)
                 : scale == 3 ? rng_range(&r, -1000.0f, 1000.0f)
                              : rng_range(&r, -1e6f, 1e6f);
        double s, c;
        snug_sin_cos(x, &s, &c);
        CHECK_MSG(fabs(s - sin(x)) <= 4e-16 * fmax(1.0, fabs(x)) && fabs(c - cos(x)) <= 4e-16 * fmax(1.0, fabs(x)),
                  "x = %a: sin %.17g (libm %.17g), cos %.17g (libm %.17g)", x, s, sin(x), c, cos(x));
        if (fabs(x) < 1.0)
            CHECK_MSG(fabs(s - sin(x)) <= 2.3e-16 * fabs(sin(x)) + 1e-300 && fabs(c - cos(x)) <= 2.3e-16,
                      "x = %a: sin %.17g (libm %.17g), cos %.17g (libm %.17g)", x, s, sin(x), c, cos(x));
        RETURN_IF_FAILED();
    }
    const double huge[] = {3e7, -1e19, 1.7e308};
    for (int i = 0; i < 3; i++) {
        double s, c;
        snug_sin_cos(huge[i], &s, &c);
        CHECK(fabs(s) <= 1.0 && fabs(c) <= 1.0 && fabs(s * s + c * c - 1.0) < 1e-12);
    }
    double s, c;
    snug_sin_cos(INFINITY, &s, &c);
    CHECK(isnan(s) && isnan(c));
    snug_sin_cos(NAN, &s, &c);
    CHECK(isnan(s) && isnan(c));
}

int main(void) {
    RUN(test_from_pose_matches_reference);
    RUN(test_relative_matches_composition);
    RUN(test_sin_cos_match_libm);
    return harness_finish();
}
