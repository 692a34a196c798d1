/* OBB-OBB: the 15-axis SAT against an independent exact convex-polytope test (double-precision GJK on the 8
 * corners of each box, bv_oracle.h) on random, near-touching, nearly-parallel and containment pairs; exact
 * touching configurations; and seed 004's reduced front-face test, whose misses are counted and printed, with
 * and without its containment fix. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bv_test_util.h"
#include "harness.h"
#include "geom/obb_fit.h"
#include "research/obb_seed004.h"

static void random_obb(rng* r, bool aligned, snug_obb* out) {
    for (int k = 0; k < 3; k++) {
        out->c[k] = rng_range(r, -0.5f, 0.5f);
        out->e[k] = rng_range(r, 0.05f, 1.0f);
    }
    int shape = (int)(rng_next(r) % 6);
    if (shape == 0) out->e[rng_next(r) % 3] *= 0.002f;  /* thin plate */
    if (shape == 1) out->e[rng_next(r) % 3] *= 8.0f;    /* elongated */
    if (aligned) {
        glm_mat3_identity(out->axes);
    } else {
        float q[4];
        rng_unit_quat(r, q);
        glm_quat_mat3(q, out->axes);
    }
}

/* small rotation of angle `angle` about a random axis */
static void small_rotation(rng* r, float angle, mat3 out) {
    float axis[3];
    versor q;
    rng_unit_vec(r, axis);
    glm_quatv(q, angle, axis);
    glm_quat_mat3(q, out);
}

typedef struct sat_counts {
    int total, overlap, separated, band, band_hit, fn, fp;
    int s004_miss, s004_miss_nofix, s004_fp, s004_contained_miss_nofix;
} sat_counts;

static void classify(sat_counts* c, const snug_obb* a, const snug_obb* b, const snug_xform* x, double band_rel, bool contained_case) {
    any_bv A, B;
    A.obb = *a;
    B.obb = *b;
    double size = fmax(bv_size(SNUG_BV_OBB, &A), bv_size(SNUG_BV_OBB, &B));
    /* separated: GJK's lower bound on the distance exceeds band_rel * size; overlapping: the boxes still
     * overlap after shrinking each about its centre by the factor (1 - band_rel) (relative, so thin plates keep
     * their thickness class); otherwise the pair is within the band */
    double pa[8][3], pb[8][3], lower;
    oracle_shape SA, SB;
    shape_of(SNUG_BV_OBB, &A, NULL, pa, &SA);
    shape_of(SNUG_BV_OBB, &B, x, pb, &SB);
    double dist = oracle_distance_bounds(&SA, &SB, &lower, NULL);
    int truth = -1;
    if (lower > band_rel * size) truth = 0;
    else if (dist == 0.0) {
        for (int k = 0; k < 3; k++) A.obb.e[k] *= (float)(1.0 - band_rel), B.obb.e[k] *= (float)(1.0 - band_rel);
        shape_of(SNUG_BV_OBB, &A, NULL, pa, &SA);
        shape_of(SNUG_BV_OBB, &B, x, pb, &SB);
        truth = oracle_distance(&SA, &SB, NULL) == 0.0 ? 1 : -1;
    }
    bool sat = snug_obb_obb(a, b, x);
    bool s4 = snug_obb_obb_seed004(a, b, x), s4n = snug_obb_obb_seed004_ex(a, b, x, false);
    c->total++;
    if (truth == 1) {
        c->overlap++;
        c->fn += !sat;
        c->s004_miss += !s4;
        c->s004_miss_nofix += !s4n;
        c->s004_contained_miss_nofix += contained_case && !s4n;
    } else if (truth == 0) {
        c->separated++;
        c->fp += sat;
        c->s004_fp += s4;
    } else {
        c->band++;
        c->band_hit += sat;
    }
}

static void test_sat_agrees_with_exact_test(void) {
    rng r = {harness_seed() ^ 0x5a7};
    /* 160k pairs so that more than 1e5 are judged exactly: the near-touching generators put a third of theirs
     * within the band on purpose */
    int cases = 160000 * harness_scale();
    const double band_rel = 1e-4; /* see classify(); and the note in bv.h on near-parallel edges */
    sat_counts c = {0};
    const char* kinds[5] = {"random", "near-touching", "nearly-parallel", "parallel-touching", "containment"};
    sat_counts per[5] = {{0}};
    for (int it = 0; it < cases; it++) {
        int kind = it % 5;
        snug_obb a, b;
        snug_xform x;
        bool aligned = kind == 2 || kind == 3;
        random_obb(&r, aligned, &a);
        random_obb(&r, aligned, &b);
        if (kind == 0) {
            random_xform(&r, it % 3 == 0 ? 0.5f : it % 3 == 1 ? 1.5f : 3.0f, &x);
        } else if (kind == 1 || kind == 2) {
            /* move a separated pair along the oracle's closest direction to a gap or a depth of xi * gap */
            if (kind == 1) random_xform(&r, 3.0f, &x);
            else {
                float ang = (rng_next(&r) % 4 == 0) ? 0.0f : powf(10.0f, rng_range(&r, -7, -2));
                small_rotation(&r, ang, x.R);
                for (int k = 0; k < 3; k++) x.t[k] = rng_range(&r, -3, 3);
            }
            any_bv A, B;
            A.obb = a, B.obb = b;
            double pa[8][3], pb[8][3], dir[3];
            oracle_shape SA, SB;
            shape_of(SNUG_BV_OBB, &A, NULL, pa, &SA);
            shape_of(SNUG_BV_OBB, &B, &x, pb, &SB);
            double d = oracle_distance(&SA, &SB, dir);
            if (d > 0) {
                double xi = pow(10.0, rng_range(&r, -7, -1)) * (rng_next(&r) % 2 ? 1.0 : -1.0);
                for (int k = 0; k < 3; k++) x.t[k] -= (float)(dir[k] * d * (1.0 - xi));
            }
        } else if (kind == 3) {
            /* aligned boxes (exactly parallel or nearly) in face contact along one axis, offsets in the others */
            float ang = (rng_next(&r) % 2) ? 0.0f : powf(10.0f, rng_range(&r, -7, -3));
            small_rotation(&r, ang, x.R);
            int ax = (int)(rng_next(&r) % 3);
            for (int k = 0; k < 3; k++) x.t[k] = rng_range(&r, -0.5f, 0.5f) * (a.e[k] + b.e[k]) - b.c[k] + a.c[k];
            float gap = (rng_next(&r) % 3 == 0) ? 0.0f : powf(10.0f, rng_range(&r, -6, -2)) * (rng_next(&r) % 2 ? 1.0f : -1.0f);
            x.t[ax] = a.c[ax] - b.c[ax] + (a.e[ax] + b.e[ax]) * (1.0f + gap);
        } else {
            /* containment: B well inside A (or A inside B) */
            b.e[0] = a.e[0] * 0.05f, b.e[1] = a.e[1] * 0.05f, b.e[2] = a.e[2] * 0.05f;
            float q[4];
            rng_unit_quat(&r, q);
            glm_quat_mat3(q, x.R);
            vec3 p = {rng_range(&r, -0.7f, 0.7f) * a.e[0], rng_range(&r, -0.7f, 0.7f) * a.e[1], rng_range(&r, -0.7f, 0.7f) * a.e[2]}, w, cb;
            glm_mat3_mulv(a.axes, p, w);
            glm_vec3_add(w, a.c, w);
            glm_mat3_mulv(x.R, b.c, cb);
            glm_vec3_sub(w, cb, x.t); /* x maps b.c onto the point w inside A */
            if (it % 2) { /* swap roles: A inside B */
                snug_obb t = a;
                a = b, b = t;
                snug_xform inv;
                snug_xform_inverse(&x, &inv);
                x = inv;
            }
        }
        int before = c.fn + c.fp;
        classify(&c, &a, &b, &x, band_rel, kind == 4);
        classify(&per[kind], &a, &b, &x, band_rel, kind == 4);
        if (c.fn + c.fp > before && c.fn + c.fp <= 40) {
            any_bv A, B;
            A.obb = a, B.obb = b;
            double pa[8][3], pb[8][3];
            oracle_shape SA, SB;
            shape_of(SNUG_BV_OBB, &A, NULL, pa, &SA);
            shape_of(SNUG_BV_OBB, &B, &x, pb, &SB);
            printf("  mismatch at pair %d (%s): SAT %d, distance / diameter %.3g\n", it, kinds[kind], snug_obb_obb(&a, &b, &x),
                   oracle_distance(&SA, &SB, NULL) / fmax(bv_size(SNUG_BV_OBB, &A), bv_size(SNUG_BV_OBB, &B)));
        }
    }
    printf("  SAT vs exact, %d pairs (band %.0e of the larger diameter):\n", c.total, band_rel);
    for (int k = 0; k < 5; k++)
        printf("    %-18s %6d: %6d overlap, %6d separated, %5d in band (%d reported overlap); FN %d, FP %d\n", kinds[k],
               per[k].total, per[k].overlap, per[k].separated, per[k].band, per[k].band_hit, per[k].fn, per[k].fp);
    printf("    all                %6d: %6d overlap, %6d separated, %5d in band (%d reported overlap); FN %d, FP %d\n",
           c.total, c.overlap, c.separated, c.band, c.band_hit, c.fn, c.fp);
    printf("  seed 004 front-face test on the same pairs: with containment fix %d misses, %d false positives; as "
           "published %d misses (%.3f%% of %d overlapping; %d of them contained boxes)\n",
           c.s004_miss, c.s004_fp, c.s004_miss_nofix, 100.0 * c.s004_miss_nofix / (c.overlap ? c.overlap : 1), c.overlap,
           c.s004_contained_miss_nofix);
    CHECK_MSG(c.fn == 0, "SAT missed %d overlapping pairs", c.fn);
    CHECK_MSG(c.fp == 0, "SAT reported %d clearly separated pairs as overlapping", c.fp);
    CHECK(per[0].band < per[0].total / 100); /* the band is tiny: random pairs are almost all judged exactly */
    CHECK_MSG(c.overlap + c.separated >= 100000 * harness_scale(), "only %d pairs judged exactly", c.overlap + c.separated);
    CHECK(c.overlap > cases / 5 && c.separated > cases / 5);
    CHECK(c.s004_miss <= c.s004_miss_nofix);
}

/* Touching in float (and exactly parallel edges, where the cross axes vanish) must count as overlap. */
static void test_sat_touching_and_parallel_edges(void) {
    snug_obb a = {{0, 0, 0}, {1, 1, 1}, GLM_MAT3_IDENTITY_INIT}, b = {{0, 0, 0}, {0.5f, 0.5f, 0.5f}, GLM_MAT3_IDENTITY_INIT};
    snug_xform x;
    snug_xform_identity(&x);
    float contacts[][3] = {{1.5f, 0.25f, -0.25f}, {1.5f, 1.5f, 0.0f}, {1.5f, 1.5f, 1.5f}, {0.3f, 0, 0}, {0, 0, 0}};
    for (int i = 0; i < 5; i++) {
        glm_vec3_copy(contacts[i], x.t);
        CHECK_MSG(snug_obb_obb(&a, &b, &x), "contact %d", i);
        CHECK(snug_obb_obb(&b, &a, &x));
    }
    /* a 90 degree turn about z keeps every edge parallel to one of A's */
    glm_mat3_copy((mat3){{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}}, x.R);
    glm_vec3_copy((vec3){1.5f, 1.5f, 0.0f}, x.t);
    CHECK(snug_obb_obb(&a, &b, &x));
    glm_vec3_copy((vec3){1.51f, 1.5f, 0.0f}, x.t);
    CHECK(!snug_obb_obb(&a, &b, &x));
    snug_xform_identity(&x);
    glm_vec3_copy((vec3){1.501f, 0, 0}, x.t);
    CHECK(!snug_obb_obb(&a, &b, &x));
    /* shared random orientation, B placed in face contact through float arithmetic: rounding must never turn
     * touching into separation */
    rng r = {harness_seed() ^ 0x70c};
    int cases = 5000 * harness_scale(), missed = 0;
    for (int it = 0; it < cases; it++) {
        snug_obb p, q;
        random_obb(&r, false, &p);
        random_obb(&r, true, &q);
        glm_mat3_copy(p.axes, q.axes);
        snug_xform_identity(&x);
        int ax = (int)(rng_next(&r) % 3);
        vec3 off;
        for (int k = 0; k < 3; k++) off[k] = rng_range(&r, -0.9f, 0.9f) * (p.e[k] + q.e[k]);
        off[ax] = (rng_next(&r) % 2 ? 1.0f : -1.0f) * (p.e[ax] + q.e[ax]);
        if (it % 3 == 0) /* edge contact: two axes at the limit */
            off[(ax + 1) % 3] = (p.e[(ax + 1) % 3] + q.e[(ax + 1) % 3]);
        vec3 w;
        glm_mat3_mulv(p.axes, off, w);
        glm_vec3_add(p.c, w, q.c);
        if (it % 2) { /* far from the origin: the rounding guard scales with the coordinates */
            vec3 far = {1000.0f, -700.0f, 300.0f};
            glm_vec3_add(p.c, far, p.c);
            glm_vec3_add(q.c, far, q.c);
        }
        missed += !snug_obb_obb(&p, &q, &x);
    }
    printf("  %d float-touching pairs (face and edge contact, shared orientation): %d reported separated\n", cases, missed);
    CHECK(missed == 0);
}

/* The containment fix matters: a small box strictly inside a large one has no edge-face intersection. */
static void test_seed004_containment_fix_matters(void) {
    rng r = {harness_seed() ^ 0xc04};
    int cases = 1000, unfixed_hits = 0, fixed_hits = 0, sat_hits = 0;
    for (int it = 0; it < cases; it++) {
        snug_obb a, b;
        random_obb(&r, false, &a);
        a.e[0] = a.e[1] = a.e[2] = 1.0f;
        random_obb(&r, false, &b);
        b.e[0] = b.e[1] = b.e[2] = 0.1f;
        snug_xform x;
        snug_xform_identity(&x);
        float q[4];
        rng_unit_quat(&r, q);
        glm_quat_mat3(q, x.R);
        vec3 p = {rng_range(&r, -0.7f, 0.7f), rng_range(&r, -0.7f, 0.7f), rng_range(&r, -0.7f, 0.7f)}, w, cb;
        glm_mat3_mulv(a.axes, p, w);
        glm_vec3_add(w, a.c, w);
        glm_mat3_mulv(x.R, b.c, cb);
        glm_vec3_sub(w, cb, x.t);
        unfixed_hits += snug_obb_obb_seed004_ex(&a, &b, &x, false);
        fixed_hits += snug_obb_obb_seed004(&a, &b, &x);
        sat_hits += snug_obb_obb(&a, &b, &x);
    }
    printf("  contained pairs: published seed-004 test finds %d of %d, with the fix %d, SAT %d\n", unfixed_hits, cases, fixed_hits, sat_hits);
    CHECK(unfixed_hits == 0 && fixed_hits == cases && sat_hits == cases);
    /* and the variant agrees with SAT on plain crossing boxes */
    snug_obb a = {{0, 0, 0}, {1, 1, 1}, GLM_MAT3_IDENTITY_INIT}, b = {{0, 0, 0}, {3, 0.2f, 0.2f}, GLM_MAT3_IDENTITY_INIT};
    snug_xform x;
    snug_xform_identity(&x);
    CHECK(snug_obb_obb_seed004(&a, &b, &x) && snug_obb_obb_seed004_ex(&a, &b, &x, false)); /* b pierces a */
    x.t[1] = 5.0f;
    CHECK(!snug_obb_obb_seed004(&a, &b, &x));
}

/* snug_obb_ranges_finish (the OBB extents from float projection ranges, obb_fit.h): each stored extent is the
 * smallest float at or above the documented bound, max(hi - c_k, lo side) + 4 eps R + 1e-30 with c_k the stored
 * centre's projection in double and R the largest range end per axis; recomputed here in double. Ranges of
 * every sign and scale, zero-width and subnormal ones included. */
static void test_ranges_finish_rounds_up_tightly(void) {
    rng r = {harness_seed() ^ 0xf1d5};
    int cases = 2000 * harness_scale();
    for (int it = 0; it < cases; it++) {
        float q[4] = {rng_float(&r) - 0.5f, rng_float(&r) - 0.5f, rng_float(&r) - 0.5f, rng_float(&r) - 0.5f};
        versor v = {q[0], q[1], q[2], q[3]};
        glm_quat_normalize(v);
        mat3 rot;
        glm_quat_mat3(v, rot);
        snug_obb o;
        memcpy(o.axes, rot, sizeof o.axes);
        float scale = ldexpf(1.0f, (int)(rng_next(&r) % 200) - 150), ref[3], lo[4] = {0}, hi[4] = {0};
        for (int k = 0; k < 3; k++) {
            ref[k] = (rng_float(&r) - 0.5f) * (it % 3 ? scale : 1e4f);
            lo[k] = (rng_float(&r) - 0.5f) * scale;
            hi[k] = it % 7 == 0 ? lo[k] : lo[k] + rng_float(&r) * scale;
        }
        snug_obb_ranges rg = {{F4_SET1(0.0f), F4_SET1(0.0f), F4_SET1(0.0f)}, F4_LOAD(lo), F4_LOAD(hi)};
        snug_obb_ranges_finish(&rg, it % 5 ? ref : NULL, &o);
        double R2 = 0.0, d[3];
        for (int k = 0; k < 3; k++) {
            double m = fmax(fabs((double)lo[k]), fabs((double)hi[k]));
            R2 += m * m;
            d[k] = (double)o.c[k] - (it % 5 ? ref[k] : 0.0);
        }
        double pad = 4.0 * FLT_EPSILON * sqrt(R2) + 1e-30;
        for (int k = 0; k < 3; k++) {
            double ck = ((double)o.axes[k][0] * d[0] + (double)o.axes[k][1] * d[1]) + (double)o.axes[k][2] * d[2];
            double need = fmax(hi[k] - ck, ck - lo[k]) + pad;
            float below = nextafterf(o.e[k], -INFINITY);
            CHECK_MSG((double)o.e[k] >= need && (double)below < need, "case %d axis %d: extent %.9g for bound %.17g",
                      it, k, (double)o.e[k], need);
        }
        RETURN_IF_FAILED();
    }
    printf("  %d boxes\n", cases);
}

int main(void) {
    RUN(test_sat_touching_and_parallel_edges);
    RUN(test_seed004_containment_fix_matters);
    RUN(test_sat_agrees_with_exact_test);
    RUN(test_ranges_finish_rounds_up_tightly);
    return harness_finish();
}
