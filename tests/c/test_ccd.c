/* Continuous-collision building blocks: the motion model, swept bounding volumes (dense sampling must stay inside),
 * the dynamic vertex-face / edge-edge tests with all five root finders against closed forms and dense sampling. */
#include <math.h>
#include <string.h>

#include "ccd/ccd.h"
#include "harness.h"
#include "snug.h"

static const snug_root_finder all_finders[] = {SNUG_ROOT_LINEAR, SNUG_ROOT_REGULA_FALSI, SNUG_ROOT_QUADRATIC,
                                               SNUG_ROOT_SAMPLING, SNUG_ROOT_SAMPLING_REGULA_FALSI};

static snug_pose random_pose(rng* r, float spread) {
    snug_pose p;
    rng_unit_quat(r, p.q);
    for (int i = 0; i < 3; i++) p.p[i] = rng_range(r, -spread, spread);
    return p;
}

/* A pose turned from `p` by `angle` about a random axis (keeps slerp angles controlled). */
static snug_pose turned(rng* r, const snug_pose* p, float angle, float shift) {
    float axis[3];
    rng_unit_vec(r, axis);
    versor q = {axis[0] * sinf(angle / 2), axis[1] * sinf(angle / 2), axis[2] * sinf(angle / 2), cosf(angle / 2)};
    snug_pose out = *p;
    glm_quat_mul(q, (float*)p->q, out.q);
    for (int i = 0; i < 3; i++) out.p[i] += rng_range(r, -shift, shift);
    return out;
}

static void test_motion_model(void) {
    rng r = {harness_seed()};
    for (int it = 0; it < 50 * harness_scale(); it++) {
        snug_pose a = random_pose(&r, 5), b = turned(&r, &a, rng_range(&r, 0, 3.0f), 3);
        snug_motion m = snug_motion_between(&a, &b);
        snug_pose s = snug_motion_pose_at(&m, 0.0), e = snug_motion_pose_at(&m, 1.0);
        snug_xform xs, xa, xe, xb;
        snug_xform_from_pose(&s, &xs), snug_xform_from_pose(&a, &xa);
        snug_xform_from_pose(&e, &xe), snug_xform_from_pose(&b, &xb);
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++) {
                CHECK_NEAR(xs.R[c][k], xa.R[c][k], 1e-5);
                CHECK_NEAR(xe.R[c][k], xb.R[c][k], 1e-5);
            }
        /* shortest arc: -q is the same rotation and must give the same path */
        snug_pose bn = b;
        for (int i = 0; i < 4; i++) bn.q[i] = -bn.q[i];
        snug_motion mn = snug_motion_between(&a, &bn);
        snug_pose h1 = snug_motion_pose_at(&m, 0.37), h2 = snug_motion_pose_at(&mn, 0.37);
        float dot = 0;
        for (int i = 0; i < 4; i++) dot += h1.q[i] * h2.q[i];
        CHECK_NEAR(fabsf(dot), 1.0, 1e-5);
        /* constant angular speed: the angle to the start grows linearly */
        snug_lerp_slerp ls;
        snug_lerp_slerp_init(&ls, &a, &b);
        snug_pose q = snug_motion_pose_at(&m, 0.25);
        double d = 0;
        for (int i = 0; i < 4; i++) d += ls.q0[i] * q.q[i];
        CHECK_NEAR(2.0 * acos(fmin(1.0, fabs(d))), 0.25 * snug_lerp_slerp_angle(&ls), 1e-3);
        RETURN_IF_FAILED();
    }
    /* pure translation is detected; keyframes are honoured */
    snug_pose a = snug_pose_identity(), b = a;
    b.p[0] = 3;
    snug_motion m = snug_motion_between(&a, &b);
    CHECK(snug_motion_is_translation(&m));
    float times[1] = {0.5f};
    snug_pose keys[1] = {a};
    keys[0].p[1] = 2;
    keys[0].q[2] = sinf(0.3f), keys[0].q[3] = cosf(0.3f);
    m.key_times = times, m.key_poses = keys, m.key_count = 1;
    CHECK(!snug_motion_is_translation(&m));
    snug_pose k = snug_motion_pose_at(&m, 0.5);
    CHECK_NEAR(k.p[1], 2, 1e-6);
    CHECK_NEAR(k.p[0], 0, 1e-6);
    snug_pose q = snug_motion_pose_at(&m, 0.75);
    CHECK_NEAR(q.p[0], 1.5, 1e-6);
    CHECK_NEAR(q.p[1], 1.0, 1e-6);
    /* out-of-range and NaN times clamp to the ends */
    CHECK(snug_motion_pose_at(&m, -3.0).p[0] == 0.0f);
    CHECK(snug_motion_pose_at(&m, NAN).p[0] == 0.0f);
    CHECK_NEAR(snug_motion_pose_at(&m, 7.0).p[0], 3.0, 1e-6);
    CHECK(snug_motion_pose_at(NULL, 0.5).q[3] == 1.0f);
}

/* Points of a local box, or of a point cloud, placed along the motion must stay in every swept BV. */
/* The turn at u against slerp written out (the motion computes its weights from one angle's sine and cosine): the
 * same rotation to double rounding, for turns small and large. */
static void test_slerp_matches_libm(void) {
    rng r = {harness_seed()};
    for (int it = 0; it < 200 * harness_scale(); it++) {
        float angle = it % 2 ? rng_range(&r, 1e-5f, 1.0f) : rng_range(&r, 1.0f, 3.1f);
        snug_pose a = random_pose(&r, 5), b = turned(&r, &a, angle, 3);
        snug_lerp_slerp m;
        snug_lerp_slerp_init(&m, &a, &b);
        if (m.translation_only) continue;
        double u = rng_range(&r, 0.0f, 1.0f), h = m.half_angle, q[4], n = 0.0;
        for (int i = 0; i < 4; i++) q[i] = (sin((1.0 - u) * h) * m.q0[i] + sin(u * h) * m.q1[i]) / sin(h), n += q[i] * q[i];
        for (int i = 0; i < 4; i++) q[i] /= sqrt(n);
        double x = q[0], y = q[1], z = q[2], w = q[3];
        const double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                             2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                             2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
        snug_dxform got;
        snug_lerp_slerp_at(&m, u, &got);
        for (int k = 0; k < 9; k++)
            CHECK_MSG(fabs(got.R[k] - R[k]) <= 1e-14, "turn %g at u %g: R[%d] %.17g, libm %.17g", 2.0 * h, u, k,
                      got.R[k], R[k]);
        RETURN_IF_FAILED();
    }
}

static void test_swept_bvs_contain_dense_samples(void) {
    rng r = {harness_seed() + 1};
    const snug_bv_type kdops[3] = {SNUG_BV_KDOP14, SNUG_BV_KDOP18, SNUG_BV_KDOP26};
    for (int it = 0; it < 40 * harness_scale(); it++) {
        snug_pose a = random_pose(&r, 4);
        float angle = it % 4 == 0 ? 0.0f : rng_range(&r, 0.0f, 3.1f);
        snug_pose b = turned(&r, &a, angle, 6);
        double pivot[3] = {0, 0, 0};
        if (it % 3 == 1)
            for (int i = 0; i < 3; i++) pivot[i] = rng_range(&r, -3, 3);
        snug_lerp_slerp m;
        snug_lerp_slerp_init_pivot(&m, &a, &b, pivot);
        double u0 = rng_float(&r) * 0.5, u1 = u0 + rng_float(&r) * (1.0 - u0);
        /* cloud of body-frame points */
        float pts[24][3];
        for (int k = 0; k < 24; k++)
            for (int i = 0; i < 3; i++) pts[k][i] = rng_range(&r, -1, 1) + (i == 0 ? 2.0f : 0.0f);
        snug_aabb box = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
        for (int k = 0; k < 24; k++)
            for (int i = 0; i < 3; i++) box.min[i] = fminf(box.min[i], pts[k][i]), box.max[i] = fmaxf(box.max[i], pts[k][i]);
        snug_sphere sph = {{0.5f * (box.min[0] + box.max[0]), 0.5f * (box.min[1] + box.max[1]), 0.5f * (box.min[2] + box.max[2])}, 0};
        for (int k = 0; k < 24; k++) sph.r = fmaxf(sph.r, glm_vec3_distance(sph.c, pts[k]));
        snug_obb obb;
        memset(&obb, 0, sizeof obb);
        glm_vec3_copy(sph.c, obb.c);
        for (int i = 0; i < 3; i++) obb.e[i] = 0.5f * (box.max[i] - box.min[i]), obb.axes[i][i] = 1;
        snug_bv_type kt = kdops[it % 3];
        int nk = snug_kdop_axis_count(kt);
        const float(*dirs)[3] = snug_kdop_type_directions(kt);
        snug_kdop kd;
        for (int j = 0; j < nk; j++) {
            kd.lo[j] = INFINITY, kd.hi[j] = -INFINITY;
            for (int k = 0; k < 24; k++) {
                float p = glm_vec3_dot((float*)dirs[j], pts[k]);
                kd.lo[j] = fminf(kd.lo[j], p), kd.hi[j] = fmaxf(kd.hi[j], p);
            }
        }
        snug_sphere ws;
        snug_aabb wa;
        snug_obb wo;
        snug_kdop wk;
        snug_swept_sphere(&m, u0, u1, &sph, &ws);
        snug_swept_aabb(&m, u0, u1, &box, &wa);
        snug_swept_obb(&m, u0, u1, &obb, &wo);
        snug_swept_kdop(&m, u0, u1, &kd, kt, &wk);
        for (int s = 0; s <= 64; s++) {
            double u = u0 + (u1 - u0) * s / 64.0;
            snug_dxform x;
            snug_lerp_slerp_at(&m, u, &x);
            for (int k = 0; k < 24 + 8; k++) {
                float lp[3];
                if (k < 24) glm_vec3_copy(pts[k], lp);
                else for (int i = 0; i < 3; i++) lp[i] = ((k - 24) >> i) & 1 ? box.max[i] : box.min[i];
                double w[3];
                snug_dxform_point(&x, lp, w);
                float wf[3] = {(float)w[0], (float)w[1], (float)w[2]};
                float slack = 1e-5f;
                if (k < 24)
                    CHECK_MSG(glm_vec3_distance(wf, ws.c) <= ws.r + slack, "sphere misses a point at u=%g (it %d)", u, it);
                for (int i = 0; i < 3; i++)
                    CHECK_MSG(wf[i] >= wa.min[i] - slack && wf[i] <= wa.max[i] + slack, "aabb misses u=%g it %d", u, it);
                for (int i = 0; i < 3; i++) {
                    float d = (wf[0] - wo.c[0]) * wo.axes[i][0] + (wf[1] - wo.c[1]) * wo.axes[i][1] + (wf[2] - wo.c[2]) * wo.axes[i][2];
                    CHECK_MSG(fabsf(d) <= wo.e[i] + slack, "obb misses u=%g it %d axis %d", u, it, i);
                }
                if (k < 24)
                    for (int j = 0; j < nk; j++) {
                        float p = glm_vec3_dot((float*)dirs[j], wf);
                        CHECK_MSG(p >= wk.lo[j] - slack && p <= wk.hi[j] + slack, "kdop misses u=%g it %d dir %d", u, it, j);
                    }
                RETURN_IF_FAILED();
            }
        }
    }
}

/* The start/end union is exact for pure translation: the swept AABB of a translating box is the union box. */
static void test_swept_aabb_exact_for_translation(void) {
    snug_pose a = snug_pose_identity(), b = a;
    b.p[0] = 10, b.p[1] = -2;
    snug_lerp_slerp m;
    snug_lerp_slerp_init(&m, &a, &b);
    CHECK(m.translation_only);
    snug_aabb box = {{-1, -1, -1}, {1, 1, 1}}, out;
    snug_swept_aabb(&m, 0.0, 1.0, &box, &out);
    CHECK_NEAR(out.min[0], -1, 1e-5);
    CHECK_NEAR(out.max[0], 11, 1e-5);
    CHECK_NEAR(out.min[1], -3, 1e-5);
    CHECK_NEAR(out.max[1], 1, 1e-5);
}

/* A turn about up sweeps in horizontal planes: the swept AABB adds nothing above or below the box (a body resting a
 * hair above another is not swept into it by its own turn), and still holds every point along the way. */
static void test_swept_aabb_turn_about_up(void) {
    snug_pose a = snug_pose_identity(), b = a;
    a.p[0] = 1.0f, a.p[1] = 0.75f;
    b.q[1] = sinf(0.4f), b.q[3] = cosf(0.4f); /* 0.8 rad about y */
    b.p[0] = 1.2f, b.p[1] = 0.75f, b.p[2] = -0.3f;
    snug_lerp_slerp m;
    const double pivot[3] = {0.3, 0.0, -0.2};
    snug_lerp_slerp_init_pivot(&m, &a, &b, pivot);
    snug_aabb box = {{-0.5f, 0.0f, -0.25f}, {0.5f, 0.3f, 0.25f}}, out;
    snug_swept_aabb(&m, 0.0, 1.0, &box, &out);
    CHECK_NEAR(out.min[1], 0.75, 1e-5);
    CHECK_NEAR(out.max[1], 1.05, 1e-5);
    for (int s = 0; s <= 256; s++) {
        snug_dxform x;
        snug_lerp_slerp_at(&m, s / 256.0, &x);
        for (int k = 0; k < 8; k++) {
            float lp[3];
            for (int i = 0; i < 3; i++) lp[i] = (k >> i) & 1 ? box.max[i] : box.min[i];
            double w[3];
            snug_dxform_point(&x, lp, w);
            for (int i = 0; i < 3; i++)
                CHECK_MSG(w[i] >= out.min[i] - 1e-6 && w[i] <= out.max[i] + 1e-6, "corner %d misses at u=%g", k, s / 256.0);
        }
        RETURN_IF_FAILED();
    }
}

static void test_quadratic_roots(void) {
    double r[2];
    CHECK(snug_ccd_quadratic_roots01(1, -1, 0.21, r) == 2); /* (t-0.3)(t-0.7) */
    CHECK_NEAR(r[0], 0.3, 1e-12);
    CHECK_NEAR(r[1], 0.7, 1e-12);
    CHECK(snug_ccd_quadratic_roots01(0, 2, -1, r) == 1);
    CHECK_NEAR(r[0], 0.5, 1e-12);
    CHECK(snug_ccd_quadratic_roots01(1, 0, 1, r) == 0);
    CHECK(snug_ccd_quadratic_roots01(1, -3, 2, r) == 1); /* roots 1 and 2 */
    CHECK_NEAR(r[0], 1.0, 1e-12);
    /* the digest's check of the corrected "+" alpha: d = (t - 0.5)^2 - 0.01 through t1 = 0.25 gives alpha = 1 */
    double d0 = 0.24, y1 = 0.0525, d1 = 0.24, t1 = 0.25;
    double alpha = (d0 - y1) / t1 + (y1 - d1) / (t1 - 1.0);
    CHECK_NEAR(alpha, 1.0, 1e-12);
}

static snug_ccd_params params(snug_root_finder f) {
    snug_ccd_params p = {f, 1.0 / 16.0, 32, 1e-7, 0.0};
    return p;
}

/* Mesh A moving from a0 to a1 against B standing still at the identity: both segments and their frames, which point
 * at them, so they live together. */
typedef struct moving_a {
    snug_lerp_slerp a, b;
    snug_ccd_frames fr;
} moving_a;

static void moving_a_init(moving_a* m, const snug_pose* a0, const snug_pose* a1) {
    snug_pose still = snug_pose_identity();
    snug_lerp_slerp_init(&m->a, a0, a1);
    snug_lerp_slerp_init(&m->b, &still, &still);
    snug_ccd_frames_init(&m->fr, &m->a, &m->b);
}

/* A vertex moving straight at a face: every finder must give the closed-form time where |d| reaches eps. */
static void test_translation_closed_form(void) {
    rng r = {harness_seed() + 2};
    for (int it = 0; it < 200 * harness_scale(); it++) {
        float tri[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
        float v[3] = {rng_range(&r, 0.05f, 0.4f), rng_range(&r, 0.05f, 0.4f), 0};
        float h0 = rng_range(&r, 0.1f, 2.0f), h1 = -rng_range(&r, 0.1f, 2.0f);
        snug_pose a = snug_pose_identity(), a1 = a;
        a.p[2] = h0, a1.p[2] = h1;
        float lat = rng_range(&r, -0.04f, 0.04f);
        a1.p[0] += lat;
        moving_a m;
        moving_a_init(&m, &a, &a1);
        CHECK(m.fr.translation);
        snug_ccd_feature f = {SNUG_CCD_VF, {v, tri[0], tri[1], tri[2]}};
        double expect = ((double)h0 - 1e-7) / ((double)h0 - h1);
        for (int k = 0; k < 5; k++) {
            snug_ccd_params p = params(all_finders[k]);
            snug_ccd_hit h;
            CHECK(snug_ccd_feature_toi(&m.fr, &f, &p, 0.0, 1.0, &h));
            CHECK_NEAR(h.u, expect, 1e-6);
            CHECK_NEAR(h.normal[2], 1.0, 1e-9);
        }
        /* the same edge against edge: crossing edges at heights h0 -> h1 */
        float e0[3] = {-1, 0.3f, 0}, e1[3] = {1, 0.3f, 0}, g0[3] = {0.2f, -1, 0}, g1[3] = {0.2f, 1, 0};
        snug_ccd_feature ee = {SNUG_CCD_EE, {e0, e1, g0, g1}};
        for (int k = 0; k < 5; k++) {
            snug_ccd_params p = params(all_finders[k]);
            snug_ccd_hit h;
            CHECK(snug_ccd_feature_toi(&m.fr, &ee, &p, 0.0, 1.0, &h));
            CHECK_NEAR(h.u, expect, 1e-6);
            CHECK_NEAR(fabs(h.normal[2]), 1.0, 1e-9);
            CHECK(h.normal[2] > 0); /* from B (below at the start... A comes from above) towards A */
        }
        RETURN_IF_FAILED();
    }
}

/* Translation in the contact band: a vertex sliding within eps of a face's plane over one of its corners, and an edge
 * sliding within eps of another's line across it, each inside only between the samples a scan would take (u = 0.5
 * and 1). Every condition is linear in u, so every finder must find the entry exactly (a sweep's vouching for the
 * poses before its first contact rests on it). */
static void test_translation_enters_in_the_band(void) {
    float tri[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, v[3] = {0, 0.1f, 0};
    float e0[3] = {-1, 0.3f, 0}, e1[3] = {1, 0.3f, 0}, g0[3] = {0.2f, -1, 0}, g1[3] = {0.2f, 1, 0};
    snug_ccd_feature vf = {SNUG_CCD_VF, {v, tri[0], tri[1], tri[2]}}, ee = {SNUG_CCD_EE, {e0, e1, g0, g1}};
    /* the vertex runs x = -1 -> 3 at height 5e-8: over the face for x in [0, 0.9], u in [0.25, 0.475]; the edge runs
     * x = 3 -> -5: across the other for an offset in [-0.8, 1.2], u in [0.225, 0.475] */
    const snug_ccd_feature* feats[2] = {&vf, &ee};
    float from[2] = {-1, 3}, to[2] = {3, -5};
    double entry[2] = {0.25, 0.225};
    for (int k = 0; k < 2; k++) {
        snug_pose a = snug_pose_identity(), a1 = a;
        a.p[0] = from[k], a1.p[0] = to[k];
        a.p[2] = a1.p[2] = 5e-8f;
        moving_a m;
        moving_a_init(&m, &a, &a1);
        CHECK(m.fr.translation);
        for (int f = 0; f < 5; f++) {
            snug_ccd_params p = params(all_finders[f]);
            snug_ccd_hit h;
            CHECK_MSG(snug_ccd_feature_toi(&m.fr, feats[k], &p, 0.0, 1.0, &h), "feature %d, finder %d", k, f);
            CHECK_NEAR(h.u, entry[k], 1e-6);
        }
    }
}

/* Rotating contacts: a vertex on an arm turning about z hits a wall; exact time from the circle. */
static void test_rotation_against_exact(void) {
    rng r = {harness_seed() + 3};
    for (int it = 0; it < 100 * harness_scale(); it++) {
        /* total <= 1.5 rad keeps y = R sin(angle) increasing: one sign change, which every finder may use */
        float R = rng_range(&r, 0.5f, 2.0f), wall = R * rng_range(&r, 0.2f, 0.9f), total = rng_range(&r, 1.0f, 1.5f);
        /* vertex at (R, 0, 0) turning about z from angle 0 to `total`; wall x' = wall i.e. face in plane y = wall? */
        float v[3] = {R, 0, 0};
        /* face: the plane y = wall, a big triangle covering the arc region */
        float tri[3][3] = {{-10, wall, -10}, {10, wall, -10}, {0, wall, 10}};
        snug_pose a = snug_pose_identity(), a1 = a;
        a1.q[2] = sinf(total / 2), a1.q[3] = cosf(total / 2);
        moving_a m;
        moving_a_init(&m, &a, &a1);
        snug_ccd_feature f = {SNUG_CCD_VF, {v, tri[0], tri[1], tri[2]}};
        double exact = asin((double)wall / R) / total; /* y = R sin(angle u) reaches wall */
        if (!(exact < 1.0)) continue;
        for (int k = 0; k < 5; k++) {
            snug_ccd_params p = params(all_finders[k]);
            snug_ccd_hit h;
            bool hit = snug_ccd_feature_toi(&m.fr, &f, &p, 0.0, 1.0, &h);
            if (all_finders[k] == SNUG_ROOT_REGULA_FALSI || all_finders[k] == SNUG_ROOT_SAMPLING_REGULA_FALSI) {
                CHECK(hit);
                CHECK_NEAR(h.u, exact, 1e-6);
                CHECK(h.u <= exact + 1e-9); /* the conservative side */
            } else if (all_finders[k] == SNUG_ROOT_SAMPLING) {
                CHECK(hit);
                CHECK_NEAR(h.u, exact, 0.02); /* linear root in a bracket of width 1/16 */
            } else if (hit) {
                CHECK_NEAR(h.u, exact, 0.3); /* one interpolation over the whole step: rough by design */
            }
        }
        RETURN_IF_FAILED();
    }
}

/* A vertex that dips through a face and comes back within the step: no sign change at the ends. Linear and regula
 * falsi cannot see it (seed table 5.3.7), quadratic and the sampling finders must. */
static void test_enter_and_leave(void) {
    float v[3] = {1, 0, 0};
    float tri[3][3] = {{0.9f, -5, -5}, {0.9f, 5, -5}, {0.9f, 0, 5}}; /* plane x = 0.9 */
    /* turning about z from -0.8 rad to +0.8 rad: x = cos(angle) dips above 0.9 in the middle */
    snug_pose a = snug_pose_identity(), a1 = a;
    a.q[2] = sinf(-0.4f), a.q[3] = cosf(-0.4f);
    a1.q[2] = sinf(0.4f), a1.q[3] = cosf(0.4f);
    moving_a m;
    moving_a_init(&m, &a, &a1);
    snug_ccd_feature f = {SNUG_CCD_VF, {v, tri[0], tri[1], tri[2]}};
    double exact = (-acos(0.9) + 0.8) / 1.6;
    snug_ccd_hit h;
    snug_ccd_params p = params(SNUG_ROOT_LINEAR);
    CHECK(!snug_ccd_feature_toi(&m.fr, &f, &p, 0.0, 1.0, &h));
    p = params(SNUG_ROOT_REGULA_FALSI);
    CHECK(!snug_ccd_feature_toi(&m.fr, &f, &p, 0.0, 1.0, &h));
    p = params(SNUG_ROOT_QUADRATIC);
    CHECK(snug_ccd_feature_toi(&m.fr, &f, &p, 0.0, 1.0, &h));
    CHECK_NEAR(h.u, exact, 0.05);
    p = params(SNUG_ROOT_SAMPLING);
    CHECK(snug_ccd_feature_toi(&m.fr, &f, &p, 0.0, 1.0, &h));
    CHECK_NEAR(h.u, exact, 0.02);
    p = params(SNUG_ROOT_SAMPLING_REGULA_FALSI);
    CHECK(snug_ccd_feature_toi(&m.fr, &f, &p, 0.0, 1.0, &h));
    CHECK_NEAR(h.u, exact, 1e-6);
}

/* Random rotating feature pairs: the sampling + regula falsi result is never later than the first dense sample
 * where the feature is in contact, and the pair is apart at every dense sample before it. */
static void test_random_features_against_dense_sampling(void) {
    rng r = {harness_seed() + 4};
    int hits = 0;
    for (int it = 0; it < 300 * harness_scale(); it++) {
        /* A's points near its origin, B's spread over a thin layer; A falls through the layer while both turn */
        bool ee = it % 2;
        int na = ee ? 2 : 1;
        float pts[4][3];
        for (int k = 0; k < 4; k++)
            for (int i = 0; i < 3; i++)
                pts[k][i] = k < na ? rng_range(&r, -0.6f, 0.6f) : (i == 2 ? rng_range(&r, -0.2f, 0.2f) : rng_range(&r, -1.2f, 1.2f));
        snug_pose a = snug_pose_identity(), b = snug_pose_identity();
        a.p[0] = rng_range(&r, -0.3f, 0.3f), a.p[1] = rng_range(&r, -0.3f, 0.3f), a.p[2] = 1.5f;
        snug_pose a1 = turned(&r, &a, rng_range(&r, 0, 1.2f), 0.5f);
        a1.p[2] = -1.5f;
        snug_pose b1 = turned(&r, &b, rng_range(&r, 0, 0.5f), 0.2f);
        snug_lerp_slerp la, lb;
        snug_lerp_slerp_init(&la, &a, &a1);
        snug_lerp_slerp_init(&lb, &b, &b1);
        snug_ccd_frames fr;
        snug_ccd_frames_init(&fr, &la, &lb);
        snug_ccd_feature f = {ee ? SNUG_CCD_EE : SNUG_CCD_VF, {pts[0], pts[1], pts[2], pts[3]}};
        snug_ccd_params p = params(SNUG_ROOT_SAMPLING_REGULA_FALSI);
        p.step = 1.0 / 64.0;
        snug_ccd_hit h;
        bool hit = snug_ccd_feature_toi(&fr, &f, &p, 0.0, 1.0, &h);
        /* dense reference: the first sample where the signed distance changed sign while inside */
        double first = 2.0, prev_d = 0;
        bool have_prev = false;
        for (int s = 0; s <= 4000; s++) {
            double u = s / 4000.0, d, n[3];
            if (!snug_ccd_distance(&fr, &f, u, NULL, &d, n)) {
                have_prev = false;
                continue;
            }
            /* orientation of edge-edge distances is arbitrary: compare with |d| */
            if (f.kind == SNUG_CCD_EE) {
                if (have_prev && fabs(d) < 0.05 && fabs(prev_d) < 0.05 && (d > 0) != (prev_d > 0) &&
                    snug_ccd_inside(&fr, &f, u, 1e-7)) { first = u; break; }
                if (fabs(d) <= 1e-7 && snug_ccd_inside(&fr, &f, u, 1e-7)) { first = u; break; }
            } else if ((have_prev && (d > 0) != (prev_d > 0)) || fabs(d) <= 1e-7) {
                if (snug_ccd_inside(&fr, &f, u, 1e-7)) { first = u; break; }
            }
            prev_d = d, have_prev = true;
        }
        if (first <= 1.0) {
            hits++;
            CHECK_MSG(hit && h.u <= first + 1e-9, "it %d: dense contact at %g, finder %s %g", it, first,
                      hit ? "at" : "none", hit ? h.u : -1.0);
        }
        RETURN_IF_FAILED();
    }
    CHECK_MSG(hits > 10, "only %d dense contacts", hits);
    printf("    %d dense feature contacts, all found no later than sampled\n", hits);
}

int main(void) {
    RUN(test_motion_model);
    RUN(test_slerp_matches_libm);
    RUN(test_swept_bvs_contain_dense_samples);
    RUN(test_swept_aabb_exact_for_translation);
    RUN(test_swept_aabb_turn_about_up);
    RUN(test_quadratic_roots);
    RUN(test_translation_closed_form);
    RUN(test_translation_enters_in_the_band);
    RUN(test_rotation_against_exact);
    RUN(test_enter_and_leave);
    RUN(test_random_features_against_dense_sampling);
    return harness_finish();
}
