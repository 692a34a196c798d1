/* Mesh-vs-mesh time of impact: closed-form contact times under pure translation, random lerp+slerp motions against
 * dense sampling of a brute-force static test, tunnelling through thin walls, grazing and parallel edges,
 * start-in-contact, keyframed motions, the three modes, and input validation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ccd/motion.h"
#include "base/pose.h"
#include "snug.h"
#include "test_brute.h"
#include "test_meshes.h"
#include "geom/tri.h"

static float brute_distance(const test_mesh* a, const snug_pose* pa, const test_mesh* b, const snug_pose* pb) {
    float* wa = malloc(sizeof(float) * 9 * a->triangle_count);
    float* wb = malloc(sizeof(float) * 9 * b->triangle_count);
    test_world_tris(a, pa, wa);
    test_world_tris(b, pb, wb);
    float best = INFINITY, p[3], q[3];
    for (uint32_t i = 0; i < a->triangle_count; i++)
        for (uint32_t j = 0; j < b->triangle_count; j++) {
            const float* A = wa + 9 * i;
            const float* B = wb + 9 * j;
            float d = snug_tri_tri_distance(A, A + 3, A + 6, B, B + 3, B + 6, p, q);
            if (d < best) best = d;
        }
    free(wa);
    free(wb);
    return best;
}

/* Two axis-aligned boxes, the first translating: the exact first-contact time by slabs. */
static double aabb_toi(const float ha[3], const float a0[3], const float a1[3], const float hb[3], const float b[3]) {
    double enter = 0.0, leave = 1.0;
    for (int i = 0; i < 3; i++) {
        double v = (double)a1[i] - a0[i], lo = (double)b[i] - hb[i] - ha[i], hi = (double)b[i] + hb[i] + ha[i];
        if (v == 0.0) {
            if (a0[i] < lo || a0[i] > hi) return 2.0;
            continue;
        }
        double t0 = (lo - a0[i]) / v, t1 = (hi - a0[i]) / v;
        if (t0 > t1) { double t = t0; t0 = t1; t1 = t; }
        if (t0 > enter) enter = t0;
        if (t1 < leave) leave = t1;
    }
    return enter <= leave ? enter : 2.0;
}

static void test_translation_closed_form(void) {
    rng r = {harness_seed()};
    snug_ctx* ctx = snug_ctx_create(NULL);
    int hits = 0;
    for (int it = 0; it < 60 * harness_scale(); it++) {
        float ha[3], hb[3], a0[3], a1[3], b[3] = {0, 0, 0};
        for (int i = 0; i < 3; i++) ha[i] = rng_range(&r, 0.2f, 1.5f), hb[i] = rng_range(&r, 0.2f, 1.5f);
        for (int i = 0; i < 3; i++) a0[i] = rng_range(&r, -5, 5), a1[i] = rng_range(&r, -5, 5);
        if (aabb_toi(ha, a0, a0, hb, b) <= 1.0) continue; /* starts overlapping */
        snug_mesh A = test_box_make(ctx, ha[0], ha[1], ha[2]), B = test_box_make(ctx, hb[0], hb[1], hb[2]);
        snug_pose pa0 = test_pose_at(a0[0], a0[1], a0[2]), pa1 = test_pose_at(a1[0], a1[1], a1[2]), pb = test_pose_at(0, 0, 0);
        snug_motion ma = snug_motion_between(&pa0, &pa1), mb = snug_motion_static(&pb);
        double expect = aabb_toi(ha, a0, a1, hb, b);
        if (getenv("TOI_DEBUG") && it == atoi(getenv("TOI_DEBUG"))) printf("ha %.9g %.9g %.9g hb %.9g %.9g %.9g a0 %.9g %.9g %.9g a1 %.9g %.9g %.9g\n", ha[0], ha[1], ha[2], hb[0], hb[1], hb[2], a0[0], a0[1], a0[2], a1[0], a1[1], a1[2]);
        for (int f = 0; f < SNUG_ROOT_FINDER_COUNT; f++) {
            snug_toi_def def = snug_default_toi_def();
            def.root_finder = (snug_root_finder)f;
            snug_toi_result res;
            CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_OK);
            CHECK_MSG(res.hit == (expect <= 1.0), "it %d finder %d: hit %d at %g kind %d, expected t %g", it, f, res.hit, res.t, res.feature, expect);
            if (res.hit && expect <= 1.0) {
                double speed = sqrt((a1[0] - a0[0]) * (a1[0] - a0[0]) + (a1[1] - a0[1]) * (a1[1] - a0[1]) +
                                    (a1[2] - a0[2]) * (a1[2] - a0[2]));
                double slack = 1e-4 / (speed > 1e-3 ? speed : 1e-3); /* tolerance band and float rounding */
                CHECK_MSG(fabs(res.t - expect) <= slack + 1e-5, "it %d finder %d: t %g expected %g", it, f, res.t, expect);
                CHECK(res.safe_t <= res.t);
                CHECK(res.feature != SNUG_FEATURE_NONE);
                /* the normal points from B towards A */
                float ca[3];
                for (int i = 0; i < 3; i++) ca[i] = a0[i] + (float)res.t * (a1[i] - a0[i]) - res.point[i];
                CHECK(glm_vec3_dot(ca, res.normal) > -1e-3f);
            }
        }
        if (expect <= 1.0) hits++;
        snug_mesh_destroy(ctx, A);
        snug_mesh_destroy(ctx, B);
        RETURN_IF_FAILED();
    }
    CHECK(hits > 5);
    snug_ctx_destroy(ctx);
}

/* One motion pair against dense sampling of the brute-force static test: with every root finder the reported t is
 * never later than the first overlapping sample; with the default one the meshes touch at t and no sample before
 * safe_t overlaps. Returns -1 when the start overlaps (skipped), else whether some sample overlaps. */
static int check_against_sampling(snug_ctx* ctx, const test_mesh* ma, const test_mesh* mb, snug_mesh A, snug_mesh B,
                                  const snug_motion* mA, const snug_motion* mB, int it) {
    const int samples = 160;
    float eps = 1e-5f;
    if (test_brute_overlap(ma, &mA->start, mb, &mB->start, eps)) return -1;
    double first = 2.0;
    for (int s = 1; s <= samples; s++) {
        double t = (double)s / samples;
        snug_pose pa = snug_motion_pose_at(mA, t), pb = snug_motion_pose_at(mB, t);
        if (test_brute_overlap(ma, &pa, mb, &pb, 0.0f)) { first = t; break; }
    }
    /* Overlap here means intersecting (no band: the query's tolerance of 1e-6 x scale is below the start filter's
     * eps). Sharpen the first one by bisection between the samples (an onset; the first one is no later); t may
     * exceed it by the root precision and float rounding. */
    for (double lo = first - 1.0 / samples, hi = first; first <= 1.0 && hi - lo > 1e-7;) {
        double mid = 0.5 * (lo + hi);
        snug_pose pa = snug_motion_pose_at(mA, mid), pb = snug_motion_pose_at(mB, mid);
        if (test_brute_overlap(ma, &pa, mb, &pb, 0.0f)) first = hi = mid;
        else lo = mid;
    }
    /* every root finder: the leaf intervals are short, so even the one-shot interpolations stay in time */
    for (int f = 0; f < SNUG_ROOT_FINDER_COUNT; f++) {
        snug_toi_def fd = snug_default_toi_def();
        fd.root_finder = (snug_root_finder)f;
        snug_toi_result fr;
        CHECK(snug_mesh_toi(ctx, A, mA, B, mB, &fd, &fr) == SNUG_OK);
        if (first <= 1.0)
            CHECK_MSG(fr.hit && fr.t <= first + 1e-5, "case %d finder %d: first sampled overlap at %g, toi %s %g",
                      it, f, first, fr.hit ? "hit" : "no hit", fr.t);
    }
    snug_toi_def def = snug_default_toi_def();
    snug_toi_result res;
    CHECK(snug_mesh_toi(ctx, A, mA, B, mB, &def, &res) == SNUG_OK);
    if (res.hit) {
        /* at t the meshes touch: brute-force distance within a few tolerances of the scale */
        snug_pose pa = snug_motion_pose_at(mA, res.t), pb = snug_motion_pose_at(mB, res.t);
        float d = brute_distance(ma, &pa, mb, &pb);
        CHECK_MSG(d <= 2e-4f, "case %d: distance %g at reported t %g", it, d, res.t);
        /* no sampled overlap before safe_t */
        for (int s = 0; s * 1.0 / samples < res.safe_t; s++) {
            double t = (double)s / samples;
            snug_pose sa = snug_motion_pose_at(mA, t), sb = snug_motion_pose_at(mB, t);
            CHECK_MSG(!test_brute_overlap(ma, &sa, mb, &sb, eps), "case %d: overlap at %g before safe_t %g", it, t,
                      res.safe_t);
        }
    }
    return first <= 1.0;
}

/* Random lerp + slerp motions of two meshes against dense sampling. */
static void test_random_motions_against_dense_sampling(void) {
    rng r = {harness_seed() + 1};
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh ma, mb;
    test_mesh_torus(1.0f, 0.3f, 12, 8, &ma);
    test_mesh_box(0.6f, 0.3f, 0.9f, &mb);
    snug_mesh A = test_mesh_make(ctx, &ma, NULL), B = test_mesh_make(ctx, &mb, NULL);
    int hits = 0, cases = 24 * harness_scale();
    for (int it = 0; it < cases; it++) {
        snug_pose a0, a1, b0, b1;
        rng_unit_quat(&r, a0.q), rng_unit_quat(&r, b0.q);
        float dir[3];
        rng_unit_vec(&r, dir);
        for (int i = 0; i < 3; i++) {
            a0.p[i] = 3.5f * dir[i] + rng_range(&r, -0.5f, 0.5f);
            a1.p[i] = -1.5f * dir[i] + rng_range(&r, -2.5f, 2.5f);
            b0.p[i] = rng_range(&r, -0.3f, 0.3f), b1.p[i] = rng_range(&r, -0.3f, 0.3f);
        }
        /* turn each by up to 2 rad about a random axis */
        float ax[3], ang = rng_range(&r, 0, 2.0f);
        rng_unit_vec(&r, ax);
        versor qa = {ax[0] * sinf(ang / 2), ax[1] * sinf(ang / 2), ax[2] * sinf(ang / 2), cosf(ang / 2)};
        glm_quat_mul(qa, a0.q, a1.q);
        ang = rng_range(&r, 0, 0.8f);
        rng_unit_vec(&r, ax);
        versor qb = {ax[0] * sinf(ang / 2), ax[1] * sinf(ang / 2), ax[2] * sinf(ang / 2), cosf(ang / 2)};
        glm_quat_mul(qb, b0.q, b1.q);
        snug_motion mA = snug_motion_between(&a0, &a1), mB = snug_motion_between(&b0, &b1);
        hits += check_against_sampling(ctx, &ma, &mb, A, B, &mA, &mB, it) == 1;
        RETURN_IF_FAILED();
    }
    printf("    %d of %d random motions hit; with every root finder reported no later than the first sampled overlap\n",
           hits, cases);
    CHECK(hits >= cases / 4);
    test_mesh_free(&ma);
    test_mesh_free(&mb);
    snug_ctx_destroy(ctx);
}

/* Both meshes translate only (each keeps a random rotation): the search clips every node, triangle and feature
 * window to where the boxes meet under the straight-line relative motion instead of halving time. Axis-parallel
 * motions (zero relative speed on some axes), glancing passes and resting starts (lifted a little off a contact
 * found by a first query) are mixed in. */
static void test_translations_against_dense_sampling(void) {
    rng r = {harness_seed() + 7};
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh ma, mb;
    test_mesh_torus(1.0f, 0.3f, 12, 8, &ma);
    test_mesh_box(0.6f, 0.3f, 0.9f, &mb);
    snug_mesh A = test_mesh_make(ctx, &ma, NULL), B = test_mesh_make(ctx, &mb, NULL);
    int hits = 0, cases = 30 * harness_scale(), resting = 0;
    for (int it = 0; it < cases; it++) {
        snug_pose a0, a1, b0, b1;
        rng_unit_quat(&r, a0.q), rng_unit_quat(&r, b0.q);
        memcpy(a1.q, a0.q, sizeof a1.q);
        memcpy(b1.q, b0.q, sizeof b1.q);
        float dir[3];
        rng_unit_vec(&r, dir);
        int axis = it % 3 == 0 ? (int)(rng_next(&r) % 3u) : -1; /* move along one world axis only */
        for (int i = 0; i < 3; i++) {
            a0.p[i] = 3.5f * dir[i] + rng_range(&r, -0.5f, 0.5f);
            a1.p[i] = -1.5f * dir[i] + rng_range(&r, -2.5f, 2.5f);
            b0.p[i] = rng_range(&r, -0.3f, 0.3f), b1.p[i] = it % 2 ? rng_range(&r, -0.3f, 0.3f) : b0.p[i];
        }
        if (axis >= 0)
            for (int i = 0; i < 3; i++)
                if (i != axis) a1.p[i] = a0.p[i] = rng_range(&r, -0.6f, 0.6f), b1.p[i] = b0.p[i];
        snug_motion mA = snug_motion_between(&a0, &a1), mB = snug_motion_between(&b0, &b1);
        if (it % 4 == 2) { /* B stays (it is even) */
            /* resting start: begin just off the first contact and move away or slide */
            snug_toi_result first;
            CHECK(snug_mesh_toi(ctx, A, &mA, B, &mB, NULL, &first) == SNUG_OK);
            if (first.hit && first.safe_t > 0.0f) {
                snug_pose s0 = snug_motion_pose_at(&mA, first.safe_t), s1 = s0;
                for (int i = 0; i < 3; i++) s1.p[i] += rng_range(&r, -2.0f, 2.0f);
                mA = snug_motion_between(&s0, &s1);
                resting++;
            }
        }
        int c = check_against_sampling(ctx, &ma, &mb, A, B, &mA, &mB, it);
        hits += c == 1;
        RETURN_IF_FAILED();
    }
    printf("    %d of %d translations hit (%d from resting starts)\n", hits, cases, resting);
    CHECK(hits >= cases / 4);
    CHECK(resting > 0);
    test_mesh_free(&ma);
    test_mesh_free(&mb);
    snug_ctx_destroy(ctx);
}

/* A small fast box crosses a thin wall within one step: the end pose is clear (static and mixed miss it), the
 * dynamic mode reports the closed-form time. */
static void test_thin_wall_tunnelling(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh wall = test_box_make(ctx, 0.001f, 2, 2), bullet = test_box_make(ctx, 0.05f, 0.05f, 0.05f);
    snug_pose w = test_pose_at(0, 0, 0), s = test_pose_at(-3, 0.3f, 0.2f), e = test_pose_at(3, 0.3f, 0.2f);
    snug_motion mw = snug_motion_static(&w), mb = snug_motion_between(&s, &e);
    snug_toi_def def = snug_default_toi_def();
    snug_toi_result res;
    CHECK(snug_mesh_toi(ctx, bullet, &mb, wall, &mw, &def, &res) == SNUG_OK);
    CHECK(res.hit);
    CHECK_NEAR(res.t, (3.0 - 0.051) / 6.0, 1e-5);
    CHECK_MSG(res.normal[0] < -0.99f, "normal %g %g %g kind %d", res.normal[0], res.normal[1], res.normal[2], res.feature);
    def.mode = SNUG_TOI_STATIC;
    CHECK(snug_mesh_toi(ctx, bullet, &mb, wall, &mw, &def, &res) == SNUG_OK);
    CHECK(!res.hit);
    def.mode = SNUG_TOI_MIXED;
    CHECK(snug_mesh_toi(ctx, bullet, &mb, wall, &mw, &def, &res) == SNUG_OK);
    CHECK(!res.hit);
    /* fast and turning: half a turn while crossing */
    snug_pose e2 = e;
    e2.q[1] = 1.0f / sqrtf(1.04f), e2.q[3] = 0.2f / sqrtf(1.04f);
    mb = snug_motion_between(&s, &e2);
    def.mode = SNUG_TOI_DYNAMIC;
    CHECK(snug_mesh_toi(ctx, bullet, &mb, wall, &mw, &def, &res) == SNUG_OK);
    CHECK(res.hit && res.t > 0.45f && res.t < 0.5f);
    snug_ctx_destroy(ctx);
}

/* Modes on a motion whose end pose overlaps: static says t = 0, mixed and dynamic find the contact time. */
static void test_modes_on_overlapping_end(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh A = test_box_make(ctx, 1, 1, 1), B = test_box_make(ctx, 1, 1, 1);
    snug_pose s = test_pose_at(-4, 0.5f, 0.25f), e = test_pose_at(-1.5f, 0.5f, 0.25f), pb = test_pose_at(0, 0, 0);
    snug_motion ma = snug_motion_between(&s, &e), mb = snug_motion_static(&pb);
    double expect = 2.0 / 2.5;
    snug_toi_def def = snug_default_toi_def();
    snug_toi_result res;
    const snug_toi_mode modes[3] = {SNUG_TOI_DYNAMIC, SNUG_TOI_MIXED, SNUG_TOI_STATIC};
    for (int m = 0; m < 3; m++) {
        def.mode = modes[m];
        CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_OK);
        CHECK(res.hit);
        if (modes[m] == SNUG_TOI_STATIC) {
            CHECK(res.t == 0 && res.safe_t == 0 && res.feature == SNUG_FEATURE_FACE_FACE);
        } else {
            CHECK_NEAR(res.t, expect, 1e-5);
            CHECK(res.normal[0] < -0.99f);
        }
    }
    snug_ctx_destroy(ctx);
}

/* Parallel edges meeting (two boxes turned 45 degrees about z approach edge first) and grazing motions. */
static void test_parallel_and_grazing_edges(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh A = test_box_make(ctx, 1, 1, 1), B = test_box_make(ctx, 1, 1, 1);
    snug_pose s = test_pose_at(-5, 0, 0.3f), e = test_pose_at(0, 0, 0.3f), pb = test_pose_at(0, 0, 0);
    float c = cosf(GLM_PIf / 8), sn = sinf(GLM_PIf / 8);
    s.q[2] = e.q[2] = pb.q[2] = sn;
    s.q[3] = e.q[3] = pb.q[3] = c;
    snug_motion ma = snug_motion_between(&s, &e), mb = snug_motion_static(&pb);
    snug_toi_def def = snug_default_toi_def();
    snug_toi_result res;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_OK);
    CHECK(res.hit);
    CHECK_NEAR(res.t, (5.0 - 2.0 * sqrt(2.0)) / 5.0, 1e-5); /* the vertical edges meet when centres are 2 sqrt 2 apart */
    /* grazing: A slides over B's top face with a gap of 20 tolerances (no contact) and of half a tolerance (contact
     * from the start) */
    snug_mesh_info info;
    snug_mesh_get_info(ctx, A, &info);
    float tol = info.tolerance;
    for (int k = 0; k < 2; k++) {
        float gap = k == 0 ? 20 * tol : 0.5f * tol;
        snug_pose g0 = test_pose_at(-3, 0.5f, 2 + gap), g1 = test_pose_at(3, -0.5f, 2 + gap), q0 = test_pose_at(0, 0, 0);
        snug_motion mg = snug_motion_between(&g0, &g1), mq = snug_motion_static(&q0);
        CHECK(snug_mesh_toi(ctx, A, &mg, B, &mq, &def, &res) == SNUG_OK);
        if (k == 0) CHECK(!res.hit);
        else CHECK(res.hit && res.t <= (3.0 - 2.0) / 6.0 + 1e-5);
    }
    /* crossing edges at a skew angle that pass at a distance just outside / inside the tolerance */
    snug_mesh thin = test_box_make(ctx, 2, 0.01f, 0.01f);
    for (int k = 0; k < 2; k++) {
        float gap = k == 0 ? 0.02f + 30 * tol : 0.02f - 0.5f * tol; /* centre distance for the 0.01 half sizes */
        snug_pose r0 = test_pose_at(0, -2, gap), r1 = test_pose_at(0, 2, gap), q0 = test_pose_at(0, 0, 0);
        r0.q[2] = r1.q[2] = sinf(0.4f), r0.q[3] = r1.q[3] = cosf(0.4f);
        snug_motion mr = snug_motion_between(&r0, &r1), mq = snug_motion_static(&q0);
        CHECK(snug_mesh_toi(ctx, thin, &mr, thin, &mq, &def, &res) == SNUG_OK);
        CHECK(res.hit == (k == 1));
    }
    snug_ctx_destroy(ctx);
}

static void test_start_contact_and_keyframes(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh A = test_box_make(ctx, 1, 1, 1), B = test_box_make(ctx, 1, 1, 1);
    snug_toi_def def = snug_default_toi_def();
    snug_toi_result res;
    /* touching at the start: t = 0 */
    snug_pose s = test_pose_at(2, 0, 0), e = test_pose_at(5, 0, 0), pb = test_pose_at(0, 0, 0);
    snug_motion ma = snug_motion_between(&s, &e), mb = snug_motion_static(&pb);
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_OK);
    CHECK(res.hit && res.t == 0);
    /* deep overlap at the start */
    s = test_pose_at(0.5f, 0.2f, 0);
    ma = snug_motion_between(&s, &e);
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_OK);
    CHECK(res.hit && res.t == 0 && res.feature == SNUG_FEATURE_FACE_FACE);
    /* a straight path through B is blocked; a keyframed detour over it is not */
    s = test_pose_at(-5, 0, 0), e = test_pose_at(5, 0, 0);
    ma = snug_motion_between(&s, &e);
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_OK);
    CHECK(res.hit);
    float times[2] = {0.3f, 0.7f};
    snug_pose keys[2] = {test_pose_at(-3, 0, 3), test_pose_at(3, 0, 3)};
    ma.key_times = times, ma.key_poses = keys, ma.key_count = 2;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_OK);
    CHECK(!res.hit);
    keys[1] = test_pose_at(3, 0, 1.5f); /* the second leg clips the top edge */
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_OK);
    CHECK(res.hit && res.t > 0.3f && res.t < 0.7f);
    snug_ctx_destroy(ctx);
}

static void test_validation(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh A = test_box_make(ctx, 1, 1, 1), B = test_box_make(ctx, 1, 1, 1);
    snug_pose s = test_pose_at(-5, 0, 0), e = test_pose_at(5, 0, 0), pb = test_pose_at(0, 0, 0);
    snug_motion ma = snug_motion_between(&s, &e), mb = snug_motion_static(&pb);
    snug_toi_def def = snug_default_toi_def();
    snug_toi_result res, before;
    memset(&res, 0x5a, sizeof res);
    before = res;
    ma.end.p[1] = NAN;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_NOT_FINITE);
    CHECK(strstr(snug_ctx_last_error(ctx), "motion_a") != NULL);
    ma.end.p[1] = 0;
    mb.start.q[0] = INFINITY;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_NOT_FINITE);
    mb.start.q[0] = 0;
    def.mode = (snug_toi_mode)17;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_INVALID_ARGUMENT);
    def = snug_default_toi_def();
    def.root_finder = (snug_root_finder)-1;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_INVALID_ARGUMENT);
    def = snug_default_toi_def();
    def.sampling_step = 0;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_INVALID_ARGUMENT);
    def.sampling_step = NAN;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_INVALID_ARGUMENT);
    /* below the finest step: 1e-9 sampled for minutes, 1e-30 overflowed the sample count's int */
    def.sampling_step = 1e-9f;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_INVALID_ARGUMENT);
    def.sampling_step = 1e-30f;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_INVALID_ARGUMENT);
    def.sampling_step = SNUG_MIN_SAMPLING_STEP;
    snug_toi_result fine;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &fine) == SNUG_OK && fine.hit);
    def = snug_default_toi_def();
    def.tolerance = -1;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_INVALID_ARGUMENT);
    def = snug_default_toi_def();
    float times[2] = {0.6f, 0.4f};
    snug_pose keys[2] = {s, e};
    ma.key_times = times, ma.key_poses = keys, ma.key_count = 2;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_INVALID_ARGUMENT);
    ma.key_poses = NULL;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_INVALID_ARGUMENT);
    ma.key_count = 0;
    CHECK(snug_mesh_toi(ctx, A, &ma, B + 12345, &mb, &def, &res) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_mesh_toi(ctx, A, NULL, B, &mb, &def, &res) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(memcmp(&res, &before, sizeof res) == 0); /* failed calls leave the result alone */
    snug_mesh_destroy(ctx, B);
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_STALE_HANDLE);
    /* NULL def means defaults */
    CHECK(snug_mesh_toi(ctx, A, &ma, A, &mb, NULL, &res) == SNUG_OK && res.hit);
    snug_ctx_destroy(ctx);
}

static int fail_allocs;
static void* flaky_alloc(size_t size, void* user) {
    (void)user;
    return fail_allocs ? NULL : malloc(size);
}
static void flaky_free(void* p, void* user) {
    (void)user;
    free(p);
}

/* Point-like triangles (every triangle repeats one index) on a sphere turning about an axis through two of them,
 * against a copy of the same mesh: those at the poles never move, so no pair near them is ever cleared, and with
 * sliding contacts (a rotation sweep) nothing ends the search: it ran 111 s natively at 192 triangles, halving every
 * pair's interval to the finest step. The search now stops at its work budget with a conservative answer (contact no
 * later than the truth, no feature); the counters bound the work (node pairs and feature root searches, each a unit:
 * counting triangle pairs alone let 15 root searches pass as one, 451 per node and triangle here), not a clock. A
 * rotating time of impact of the same pair touches at the start, and a mesh whose copy is apart is exact. */
static void test_work_is_bounded(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh m;
    test_mesh_sphere(1.0f, 8, 12, &m);
    for (uint32_t t = 0; t < m.triangle_count; t++) m.indices[3 * t + 1] = m.indices[3 * t + 2] = m.indices[3 * t];
    snug_mesh h = test_mesh_make(ctx, &m, NULL);
    snug_mesh_info info;
    CHECK(snug_mesh_get_info(ctx, h, &info) == SNUG_OK && info.degenerate_count == m.triangle_count);
    uint64_t elements = 2u * ((uint64_t)info.node_count + info.triangle_count);
    snug_pose id = snug_pose_identity(), turned = id;
    turned.q[1] = sinf(0.5f), turned.q[3] = cosf(0.5f);
    float pivot[3] = {0, 0, 0}, axis[3] = {0, 1, 0};
    snug_toi_result r;
    CHECK(snug_mesh_sweep_rotation(ctx, h, &id, pivot, axis, 1.0f, h, &id, &r) == SNUG_OK);
    const snug_query_stats* st = snug_ctx_last_stats(ctx);
    /* node pairs and feature root searches within the budget (a triangle pair's last features may pass it) */
    CHECK_MSG(st->nodes_visited + st->primitive_tests <= 128 * elements + 15,
              "%llu visits, %llu feature tests for %llu nodes and triangles", (unsigned long long)st->nodes_visited,
              (unsigned long long)st->primitive_tests, (unsigned long long)elements);
    CHECK(r.hit && r.t < 0.01f && r.safe_t <= r.t && r.feature == SNUG_FEATURE_NONE && r.tri_a == SNUG_NO_HIT);
    snug_motion turn = snug_motion_between(&id, &turned), still = snug_motion_static(&id);
    CHECK(snug_mesh_toi(ctx, h, &turn, h, &still, NULL, &r) == SNUG_OK);
    CHECK(st->nodes_visited + st->primitive_tests <= 128 * elements + 15 && r.hit && r.t == 0.0f);
    snug_pose apart = test_pose_at(3.0f, 0, 0);
    still = snug_motion_static(&apart);
    CHECK(snug_mesh_toi(ctx, h, &turn, h, &still, NULL, &r) == SNUG_OK && !r.hit);
    test_mesh_free(&m);
    snug_ctx_destroy(ctx);
}

/* Out of memory for the scratch arena: a clear status, the result untouched, nothing leaked. */
static void test_out_of_memory(void) {
    snug_ctx_def cd = snug_default_ctx_def();
    cd.alloc = flaky_alloc, cd.free = flaky_free;
    snug_ctx* ctx = snug_ctx_create(&cd);
    snug_mesh A = test_box_make(ctx, 1, 1, 1), B = test_box_make(ctx, 1, 1, 1);
    size_t before = snug_ctx_allocated_bytes(ctx);
    snug_pose s = test_pose_at(-5, 0, 0), e = test_pose_at(5, 0, 0), pb = test_pose_at(0, 0, 0);
    snug_motion ma = snug_motion_between(&s, &e), mb = snug_motion_static(&pb);
    snug_toi_result res, keep;
    memset(&res, 0x33, sizeof res);
    keep = res;
    fail_allocs = 1;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, NULL, &res) == SNUG_ERR_OUT_OF_MEMORY);
    snug_toi_def def = snug_default_toi_def();
    def.mode = SNUG_TOI_DAASD;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, &def, &res) == SNUG_ERR_OUT_OF_MEMORY);
    float d[3] = {10, 0, 0};
    CHECK(snug_mesh_sweep(ctx, A, &s, d, B, &pb, &res) == SNUG_ERR_OUT_OF_MEMORY);
    CHECK(memcmp(&res, &keep, sizeof res) == 0);
    CHECK(snug_ctx_allocated_bytes(ctx) == before);
    fail_allocs = 0;
    CHECK(snug_mesh_toi(ctx, A, &ma, B, &mb, NULL, &res) == SNUG_OK && res.hit);
    snug_ctx_destroy(ctx);
}

int main(void) {
    RUN(test_translation_closed_form);
    RUN(test_random_motions_against_dense_sampling);
    RUN(test_translations_against_dense_sampling);
    RUN(test_thin_wall_tunnelling);
    RUN(test_modes_on_overlapping_end);
    RUN(test_parallel_and_grazing_edges);
    RUN(test_start_contact_and_keyframes);
    RUN(test_validation);
    RUN(test_work_is_bounded);
    RUN(test_out_of_memory);
    return harness_finish();
}
