/* Placement sweeps: translation against closed forms, contact-aware starts (slide along / lift off allowed, push in
 * blocked) on flat and finely tessellated supports and walls, rotation sweeps against a closed-form angle, random
 * sweeps against dense sampling, and input validation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "base/pose.h"
#include "snug.h"
#include "test_brute.h"
#include "test_meshes.h"
#include "geom/tri.h"

/* A flat n x n grid of triangles in z = 0 covering [-s, s]^2 (with vertices where a sliding box's edges pass). */
static snug_mesh make_grid(snug_ctx* ctx, int n, float s) {
    test_mesh g;
    g.vertex_count = (uint32_t)((n + 1) * (n + 1));
    g.triangle_count = (uint32_t)(2 * n * n);
    g.positions = malloc(sizeof(float) * 3 * g.vertex_count);
    g.indices = malloc(sizeof(uint32_t) * 3 * g.triangle_count);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            float* p = g.positions + 3 * (j * (n + 1) + i);
            p[0] = -s + 2 * s * i / n, p[1] = -s + 2 * s * j / n, p[2] = 0;
        }
    uint32_t* t = g.indices;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            uint32_t a = (uint32_t)(j * (n + 1) + i), b = a + 1, c = a + (uint32_t)(n + 1), d = c + 1;
            *t++ = a, *t++ = b, *t++ = d, *t++ = a, *t++ = d, *t++ = c;
        }
    snug_mesh h = test_mesh_make(ctx, &g, NULL);
    test_mesh_free(&g);
    return h;
}

static double aabb_toi(const float ha[3], const float a0[3], const float d[3], const float hb[3]) {
    double enter = 0.0, leave = 1.0;
    for (int i = 0; i < 3; i++) {
        double lo = -(double)hb[i] - ha[i], hi = (double)hb[i] + ha[i];
        if (d[i] == 0.0f) {
            if (a0[i] < lo || a0[i] > hi) return 2.0;
            continue;
        }
        double t0 = (lo - a0[i]) / d[i], t1 = (hi - a0[i]) / d[i];
        if (t0 > t1) { double t = t0; t0 = t1; t1 = t; }
        if (t0 > enter) enter = t0;
        if (t1 < leave) leave = t1;
    }
    return enter < leave ? enter : 2.0;
}

static void test_translation_closed_form(void) {
    rng r = {harness_seed()};
    snug_ctx* ctx = snug_ctx_create(NULL);
    int hits = 0;
    for (int it = 0; it < 60 * harness_scale(); it++) {
        float ha[3], hb[3], a0[3], d[3];
        for (int i = 0; i < 3; i++) ha[i] = rng_range(&r, 0.2f, 1.5f), hb[i] = rng_range(&r, 0.2f, 1.5f);
        for (int i = 0; i < 3; i++) a0[i] = rng_range(&r, -5, 5);
        float reach = rng_range(&r, 0.5f, 2.0f); /* aimed at B, falling short or passing through */
        for (int i = 0; i < 3; i++) d[i] = -a0[i] * reach + rng_range(&r, -1.5f, 1.5f);
        float zero[3] = {0, 0, 0};
        if (aabb_toi(ha, a0, zero, hb) <= 1.0) continue;
        double expect = aabb_toi(ha, a0, d, hb);
        snug_mesh A = test_box_make(ctx, ha[0], ha[1], ha[2]), B = test_box_make(ctx, hb[0], hb[1], hb[2]);
        snug_pose pa = test_pose_at(a0[0], a0[1], a0[2]), pb = test_pose_at(0, 0, 0);
        snug_toi_result res;
        CHECK(snug_mesh_sweep(ctx, A, &pa, d, B, &pb, &res) == SNUG_OK);
        CHECK_MSG(res.hit == (expect <= 1.0), "it %d: hit %d t %g, expected %g", it, res.hit, res.t, expect);
        if (res.hit && expect <= 1.0) {
            hits++;
            double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            CHECK_NEAR(res.t, expect, 1e-4 / len + 1e-5);
            CHECK(res.safe_t <= res.t);
            CHECK(glm_vec3_dot(d, res.normal) < 0); /* the blocking normal opposes the motion */
        }
        snug_mesh_destroy(ctx, A);
        snug_mesh_destroy(ctx, B);
        RETURN_IF_FAILED();
    }
    CHECK_MSG(hits > 5, "only %d hits", hits);
    snug_ctx_destroy(ctx);
}

/* A unit box resting on a support (touching within tolerance): motions along the contact plane and away from it
 * run free, motions with any component into the support are blocked at once. */
static void check_resting(snug_ctx* ctx, snug_mesh box, snug_mesh support, const snug_pose* support_pose, float rest_z,
                          const char* what) {
    snug_pose pose = test_pose_at(0.25f, -0.1f, rest_z);
    const float free_moves[][3] = {{3, 0, 0}, {-2, 1.5f, 0}, {0.7f, 0.7f, 0}, {0, 0, 2}, {1, -1, 0.5f}};
    const float blocked[][3] = {{0, 0, -1}, {2, 0, -0.3f}, {-1, 1, -0.05f}};
    snug_toi_result res;
    for (size_t k = 0; k < sizeof free_moves / sizeof free_moves[0]; k++) {
        CHECK(snug_mesh_sweep(ctx, box, &pose, free_moves[k], support, support_pose, &res) == SNUG_OK);
        CHECK_MSG(!res.hit, "%s: move %zu blocked at %g (feature %d, tris %u/%u)", what, k, res.t, res.feature,
                  res.tri_a, res.tri_b);
    }
    for (size_t k = 0; k < sizeof blocked / sizeof blocked[0]; k++) {
        CHECK(snug_mesh_sweep(ctx, box, &pose, blocked[k], support, support_pose, &res) == SNUG_OK);
        CHECK_MSG(res.hit && res.t < 1e-4f, "%s: push %zu not blocked (hit %d t %g)", what, k, res.hit, res.t);
        if (res.hit) CHECK_MSG(res.normal[2] > 0.7f, "%s: push %zu normal %g %g %g", what, k, res.normal[0], res.normal[1], res.normal[2]);
    }
}

static void test_start_in_contact(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh box = test_box_make(ctx, 0.5f, 0.5f, 0.5f);
    snug_mesh_info info;
    snug_mesh_get_info(ctx, box, &info);
    snug_mesh plate = test_box_make(ctx, 5, 5, 0.1f), grid = make_grid(ctx, 40, 5);
    snug_pose pp = test_pose_at(0, 0, -0.1f), pg = test_pose_at(0, 0, 0);
    /* exactly touching, and within a fraction of the tolerance above and below */
    const float offsets[3] = {0.0f, 0.4f, -0.4f};
    for (int k = 0; k < 3; k++) {
        float z = 0.5f + offsets[k] * info.tolerance;
        check_resting(ctx, box, plate, &pp, z, "plate");
        check_resting(ctx, box, grid, &pg, z, "tessellated grid");
        RETURN_IF_FAILED();
    }
    /* against a wall: slide along it, leave it, push into it */
    snug_mesh wall = test_box_make(ctx, 0.1f, 5, 5);
    snug_pose pw = test_pose_at(0.6f, 0, 0), pos = test_pose_at(0, 0, 0);
    snug_toi_result res;
    const float along[3] = {0, 3, -2}, away[3] = {-2, 1, 0}, into[3] = {1, 0.5f, 0};
    CHECK(snug_mesh_sweep(ctx, box, &pos, along, wall, &pw, &res) == SNUG_OK && !res.hit);
    CHECK(snug_mesh_sweep(ctx, box, &pos, away, wall, &pw, &res) == SNUG_OK && !res.hit);
    CHECK(snug_mesh_sweep(ctx, box, &pos, into, wall, &pw, &res) == SNUG_OK && res.hit && res.t < 1e-4f);
    CHECK(res.normal[0] < -0.99f);
    /* a box resting on the plate moved diagonally towards the wall: the plate lets it slide, the wall stops it */
    snug_pose near = test_pose_at(-1, 0, 0.5f);
    const float diag[3] = {2, 1, 0};
    snug_pose pw2 = test_pose_at(0.6f, 0, 0.5f);
    CHECK(snug_mesh_sweep(ctx, box, &near, diag, wall, &pw2, &res) == SNUG_OK && res.hit);
    CHECK_NEAR(res.t, 1.0 / 2.0, 1e-5);
    CHECK(snug_mesh_sweep(ctx, box, &near, diag, plate, &pp, &res) == SNUG_OK && !res.hit);
    snug_ctx_destroy(ctx);
}

/* A rod turning about z through its centre hits the corner (0.2, 1.3) of a post: closed-form angle. */
static void test_rotation_sweep(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh rod = test_box_make(ctx, 2, 0.05f, 0.05f), post = test_box_make(ctx, 0.2f, 0.2f, 1);
    snug_pose pr = test_pose_at(0, 0, 0), pp = test_pose_at(0, 1.5f, 0);
    const float pivot[3] = {0, 0, 0}, axis[3] = {0, 0, 1};
    double corner = atan2(1.3, 0.2), dist = sqrt(1.3 * 1.3 + 0.2 * 0.2);
    double expect = corner - asin(0.05 / dist);
    snug_toi_result res;
    CHECK(snug_mesh_sweep_rotation(ctx, rod, &pr, pivot, axis, 1.5f, post, &pp, &res) == SNUG_OK);
    CHECK(res.hit);
    CHECK_NEAR(res.t * 1.5, expect, 1e-4);
    CHECK(res.safe_t <= res.t);
    /* turning the other way: the rod's -x half meets the post's corner (-0.2, 1.3) after the same angle */
    CHECK(snug_mesh_sweep_rotation(ctx, rod, &pr, pivot, axis, -1.5f, post, &pp, &res) == SNUG_OK);
    CHECK(res.hit);
    CHECK_NEAR(res.t * 1.5, expect, 1e-4); /* mirror image of the first case */
    /* the same scene shifted by +1 in x with the pivot shifted along: the angle must not change */
    snug_pose shifted = test_pose_at(1, 0, 0);
    const float p2[3] = {1, 0, 0};
    snug_pose pp2 = test_pose_at(1, 1.5f, 0);
    CHECK(snug_mesh_sweep_rotation(ctx, rod, &shifted, p2, axis, 1.5f, post, &pp2, &res) == SNUG_OK);
    CHECK(res.hit);
    CHECK_NEAR(res.t * 1.5, expect, 1e-4);
    /* resting on a plate: spinning about the vertical axis slides, tipping about a bottom edge so that the box
     * lifts is free, tipping the other way drives the far edge into the plate at once */
    snug_mesh box = test_box_make(ctx, 0.5f, 0.5f, 0.5f), plate = test_box_make(ctx, 5, 5, 0.1f);
    snug_pose rest = test_pose_at(0.3f, 0.2f, 0.5f), pl = test_pose_at(0, 0, -0.1f);
    const float centre[3] = {0.3f, 0.2f, 0.5f}, up[3] = {0, 0, 1}, edge[3] = {0.8f, 0.2f, 0.0f}, ey[3] = {0, 1, 0};
    CHECK(snug_mesh_sweep_rotation(ctx, box, &rest, centre, up, 2.5f, plate, &pl, &res) == SNUG_OK);
    CHECK_MSG(!res.hit, "spin blocked at %g", res.t);
    CHECK(snug_mesh_sweep_rotation(ctx, box, &rest, edge, ey, 1.0f, plate, &pl, &res) == SNUG_OK);
    CHECK_MSG(!res.hit, "tipping up blocked at %g", res.t);
    CHECK(snug_mesh_sweep_rotation(ctx, box, &rest, edge, ey, -1.0f, plate, &pl, &res) == SNUG_OK);
    CHECK_MSG(res.hit && res.t < 1e-3f, "tipping down: hit %d at %g", res.hit, res.t);
    /* free rotation: a small turn that stays clear */
    CHECK(snug_mesh_sweep_rotation(ctx, rod, &pr, pivot, axis, 1.0f, post, &pp, &res) == SNUG_OK);
    CHECK(!res.hit);
    snug_ctx_destroy(ctx);
}


/* Pose of a rotation sweep at fraction t: turned by t * angle about the axis through the pivot. */
static snug_pose turned_about(const snug_pose* p, const float pivot[3], const float axis[3], float angle) {
    versor q = {axis[0] * sinf(angle / 2), axis[1] * sinf(angle / 2), axis[2] * sinf(angle / 2), cosf(angle / 2)};
    snug_pose out = *p;
    glm_quat_mul(q, (float*)p->q, out.q);
    vec3 rel = {p->p[0] - pivot[0], p->p[1] - pivot[1], p->p[2] - pivot[2]}, rot;
    glm_quat_rotatev(q, rel, rot);
    for (int i = 0; i < 3; i++) out.p[i] = pivot[i] + rot[i];
    return out;
}

/* Random translation and rotation sweeps of a torus against a box: the blocked fraction is never later than the
 * first overlapping sample of a dense brute-force static test, and nothing overlaps at the samples before safe_t. */
static void test_random_sweeps_against_dense_sampling(void) {
    rng r = {harness_seed() + 7};
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh ma, mb;
    test_mesh_torus(1.0f, 0.3f, 12, 8, &ma);
    test_mesh_box(0.6f, 0.4f, 0.9f, &mb);
    snug_mesh A = test_mesh_make(ctx, &ma, NULL), B = test_mesh_make(ctx, &mb, NULL);
    int hits = 0, cases = 16 * harness_scale();
    const int samples = 120;
    for (int it = 0; it < cases; it++) {
        snug_pose pa, pb = snug_pose_identity();
        rng_unit_quat(&r, pa.q);
        float dir[3];
        rng_unit_vec(&r, dir);
        for (int i = 0; i < 3; i++) pa.p[i] = 3.0f * dir[i];
        if (test_brute_overlap(&ma, &pa, &mb, &pb, 1e-5f)) continue;
        bool rotate = it % 2;
        float d[3], pivot[3], axis[3], angle = rng_range(&r, -3.0f, 3.0f);
        for (int i = 0; i < 3; i++) d[i] = -pa.p[i] * rng_range(&r, 0.5f, 1.8f) + rng_range(&r, -0.5f, 0.5f);
        for (int i = 0; i < 3; i++) pivot[i] = rng_range(&r, -1.0f, 1.0f);
        rng_unit_vec(&r, axis);
        snug_toi_result res;
        if (rotate) CHECK(snug_mesh_sweep_rotation(ctx, A, &pa, pivot, axis, angle, B, &pb, &res) == SNUG_OK);
        else CHECK(snug_mesh_sweep(ctx, A, &pa, d, B, &pb, &res) == SNUG_OK);
        double first = 2.0;
        for (int s = 1; s <= samples && first > 1.0; s++) {
            float t = (float)s / samples;
            snug_pose q = pa;
            if (rotate) q = turned_about(&pa, pivot, axis, t * angle);
            else for (int i = 0; i < 3; i++) q.p[i] += t * d[i];
            if (test_brute_overlap(&ma, &q, &mb, &pb, 1e-5f)) first = t; /* so none before safe_t when t <= first */
        }
        if (first <= 1.0) {
            hits++;
            CHECK_MSG(res.hit && res.t <= first + 1e-6, "case %d (%s): first overlap at %g, sweep %s %g", it,
                      rotate ? "rotation" : "translation", first, res.hit ? "blocked at" : "free", res.t);
        }
        RETURN_IF_FAILED();
    }
    printf("    %d of %d random sweeps blocked; none later than the first sampled overlap\n", hits, cases);
    CHECK(hits >= 3);
    test_mesh_free(&ma);
    test_mesh_free(&mb);
    snug_ctx_destroy(ctx);
}

/* A box [-h, h] tessellated into an n x n grid on every face (counter-clockwise seen from outside): vertices all
 * over the faces, so grazing vertex-face contacts on faces parallel to a motion abound. */
static snug_mesh make_tess_box(snug_ctx* ctx, const float h[3], int n) {
    test_mesh m;
    uint32_t per = (uint32_t)((n + 1) * (n + 1));
    m.vertex_count = 6 * per;
    m.triangle_count = (uint32_t)(6 * 2 * n * n);
    m.positions = malloc(sizeof(float) * 3 * m.vertex_count);
    m.indices = malloc(sizeof(uint32_t) * 3 * m.triangle_count);
    uint32_t* t = m.indices;
    for (int f = 0; f < 6; f++) {
        int a = f / 2, b = (a + 1) % 3, c = (a + 2) % 3; /* e_b x e_c = e_a */
        float sg = f % 2 ? -1.0f : 1.0f;
        uint32_t base = (uint32_t)f * per;
        for (int j = 0; j <= n; j++)
            for (int i = 0; i <= n; i++) {
                float* p = m.positions + 3 * (base + (uint32_t)(j * (n + 1) + i));
                p[a] = sg * h[a], p[b] = h[b] * (-1.0f + 2.0f * i / n), p[c] = h[c] * (-1.0f + 2.0f * j / n);
            }
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                uint32_t v0 = base + (uint32_t)(j * (n + 1) + i), v1 = v0 + 1, v3 = v0 + (uint32_t)(n + 1), v2 = v3 + 1;
                if (sg > 0) *t++ = v0, *t++ = v1, *t++ = v2, *t++ = v0, *t++ = v2, *t++ = v3;
                else *t++ = v0, *t++ = v2, *t++ = v1, *t++ = v0, *t++ = v3, *t++ = v2;
            }
    }
    snug_mesh out = test_mesh_make(ctx, &m, NULL);
    test_mesh_free(&m);
    return out;
}

/* Issue 5 (web engineer's report): a unit cube swept along +x into another, 0.39 lower in y. A's corner vertices
 * meet B's -x face on the rim it shares with B's top and bottom faces, and B's corners meet A's +x face on the rim
 * of A's bottom and top faces, which slide in their own planes: those grazing faces must not give the normal. */
static void test_blocking_normal_report(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh A = test_box_make(ctx, 0.5f, 0.5f, 0.5f), B = test_box_make(ctx, 0.5f, 0.5f, 0.5f);
    snug_pose pa = test_pose_at(-(1.0f + 1.886f), -0.39f, 0), pb = test_pose_at(0, 0, 0);
    const float d[3] = {2.677f, 0, 0};
    snug_toi_result res;
    CHECK(snug_mesh_sweep(ctx, A, &pa, d, B, &pb, &res) == SNUG_OK && res.hit);
    CHECK_NEAR(res.t, 1.886 / 2.677, 1e-5);
    CHECK_MSG(res.normal[0] < -0.99f, "feature %d normal %g %g %g", res.feature, res.normal[0], res.normal[1],
              res.normal[2]);
    snug_ctx_destroy(ctx);
}

/* Pick an extent along an axis the motion does not move: mostly exactly aligned with B (coplanar faces on both
 * sides), sometimes one face flush with B's, otherwise random but clearly overlapping. */
static void still_axis(rng* r, float hb, float* ha, float* a0) {
    int k = (int)rng_range(r, 0, 3);
    if (k == 0) *ha = hb, *a0 = 0;
    else if (k == 1) *ha = rng_range(r, 0.2f, 1.2f), *a0 = (rng_range(r, 0, 1) < 0.5f ? -1.0f : 1.0f) * (hb - *ha);
    else *ha = rng_range(r, 0.2f, 1.2f), *a0 = rng_range(r, -0.8f, 0.8f) * (hb + *ha);
}

/* Seeded family around the report: boxes and tessellated boxes swept along an axis or in a coordinate plane, so
 * that faces lie parallel to the motion (often coplanar with B's faces), half of them with the whole scene turned
 * by a random rotation. The fraction matches the closed form and
 * the normal is the blocking face's: it opposes the motion clearly, along the axis of the last slab entered. */
static void test_blocking_normal_family(void) {
    rng r = {harness_seed() + 11};
    snug_ctx* ctx = snug_ctx_create(NULL);
    int hits = 0, cases = 80 * harness_scale();
    for (int it = 0; it < cases; it++) {
        float ha[3], hb[3], a0[3], d[3] = {0, 0, 0};
        for (int i = 0; i < 3; i++) hb[i] = rng_range(&r, 0.3f, 1.2f);
        int axis = (int)rng_range(&r, 0, 3), other = (axis + 1 + (int)rng_range(&r, 0, 2)) % 3;
        bool planar = rng_range(&r, 0, 1) < 0.4f;
        for (int i = 0; i < 3; i++) still_axis(&r, hb[i], &ha[i], &a0[i]);
        /* start clear of B along the moving axes, moving towards it */
        float sg = rng_range(&r, 0, 1) < 0.5f ? -1.0f : 1.0f, gap = rng_range(&r, 0.05f, 2.0f);
        a0[axis] = sg * (hb[axis] + ha[axis] + gap);
        d[axis] = -sg * gap * rng_range(&r, 0.6f, 1.6f);
        if (planar) d[other] = rng_range(&r, -0.3f, 0.3f) * fabsf(d[axis]);
        float zero[3] = {0, 0, 0};
        if (aabb_toi(ha, a0, zero, hb) <= 1.0) continue;
        double expect = aabb_toi(ha, a0, d, hb);
        int na = 1 + (int)rng_range(&r, 0, 4), nb = 1 + (int)rng_range(&r, 0, 4);
        snug_mesh A = na == 1 ? test_box_make(ctx, ha[0], ha[1], ha[2]) : make_tess_box(ctx, ha, na);
        snug_mesh B = nb == 1 ? test_box_make(ctx, hb[0], hb[1], hb[2]) : make_tess_box(ctx, hb, nb);
        snug_pose pa = test_pose_at(a0[0], a0[1], a0[2]), pb = test_pose_at(0, 0, 0);
        /* every other case turns the whole scene: the coplanar faces are coplanar only to float rounding there */
        versor q = {0, 0, 0, 1};
        if (it % 2) {
            rng_unit_quat(&r, q);
            vec3 wp, wd;
            glm_quat_rotatev(q, pa.p, wp);
            glm_quat_rotatev(q, d, wd);
            glm_vec3_copy(wp, pa.p), glm_vec3_copy(wd, d);
            glm_quat_copy(q, pa.q), glm_quat_copy(q, pb.q);
        }
        snug_toi_result res;
        CHECK(snug_mesh_sweep(ctx, A, &pa, d, B, &pb, &res) == SNUG_OK);
        versor qi;
        glm_quat_inv(q, qi);
        glm_quat_rotatev(qi, res.normal, res.normal); /* back to B's frame for the checks below */
        glm_quat_rotatev(qi, d, d);
        /* a planar motion can slide off B's rim: keep to cases whose contact is clear of the rims */
        bool clear = true;
        if (planar && expect <= 1.0) {
            double y = a0[other] + expect * d[other], lim = (double)hb[other] + ha[other];
            clear = fabs(fabs(y) - lim) > 1e-3;
        }
        if (clear) CHECK_MSG(res.hit == (expect <= 1.0), "case %d: hit %d t %g, expected %g", it, res.hit, res.t, expect);
        if (clear && res.hit && expect <= 1.0) {
            hits++;
            double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            CHECK_NEAR(res.t, expect, 1e-4 / len + 1e-5);
            double dn = (d[0] * res.normal[0] + d[1] * res.normal[1] + d[2] * res.normal[2]) / len;
            /* the blocking face is B's face across the moving axis: its outward normal is sg along that axis */
            CHECK_MSG(dn < -0.5 && res.normal[axis] * sg > 0.99f,
                      "case %d (tess %d/%d, %s%s): feature %d normal %g %g %g, motion %g %g %g, dot %g", it, na, nb,
                      planar ? "planar" : "axis", it % 2 ? ", turned" : "", res.feature, res.normal[0], res.normal[1], res.normal[2], d[0], d[1],
                      d[2], dn);
        }
        snug_mesh_destroy(ctx, A);
        snug_mesh_destroy(ctx, B);
        RETURN_IF_FAILED();
    }
    printf("    %d of %d sweeps blocked, every normal the blocking face's\n", hits, cases);
    CHECK(hits > cases / 3);
    snug_ctx_destroy(ctx);
}

static void test_validation(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh A = test_box_make(ctx, 1, 1, 1), B = test_box_make(ctx, 1, 1, 1);
    snug_pose pa = test_pose_at(-5, 0, 0), pb = test_pose_at(0, 0, 0);
    float d[3] = {10, 0, 0}, pivot[3] = {0, 0, 0}, axis[3] = {0, 0, 1};
    snug_toi_result res;
    d[1] = NAN;
    CHECK(snug_mesh_sweep(ctx, A, &pa, d, B, &pb, &res) == SNUG_ERR_NOT_FINITE);
    d[1] = 0;
    pa.q[3] = INFINITY;
    CHECK(snug_mesh_sweep(ctx, A, &pa, d, B, &pb, &res) == SNUG_ERR_NOT_FINITE);
    pa.q[3] = 1;
    CHECK(snug_mesh_sweep(ctx, A, &pa, d, B + 99, &pb, &res) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_mesh_sweep(ctx, A, &pa, NULL, B, &pb, &res) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_sweep_rotation(ctx, A, &pa, pivot, axis, 3.2f, B, &pb, &res) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_sweep_rotation(ctx, A, &pa, pivot, axis, NAN, B, &pb, &res) == SNUG_ERR_NOT_FINITE);
    axis[2] = 0;
    CHECK(snug_mesh_sweep_rotation(ctx, A, &pa, pivot, axis, 1, B, &pb, &res) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(snug_ctx_last_error(ctx), "axis") != NULL);
    axis[2] = 1;
    CHECK(snug_mesh_sweep(ctx, A, &pa, d, B, &pb, &res) == SNUG_OK && res.hit);
    CHECK_NEAR(res.t, 3.0 / 10.0, 1e-5);
    snug_ctx_destroy(ctx);
}

int main(void) {
    RUN(test_translation_closed_form);
    RUN(test_start_in_contact);
    RUN(test_rotation_sweep);
    RUN(test_random_sweeps_against_dense_sampling);
    RUN(test_blocking_normal_report);
    RUN(test_blocking_normal_family);
    RUN(test_validation);
    return harness_finish();
}
