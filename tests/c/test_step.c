/* The collision step: results equal running the pair queries by hand (static mode: snug_mesh_overlap at the
 * target poses of every pair with a moved body; dynamic and mixed: snug_mesh_toi over the motions); budgets of 0
 * and infinity give the documented answers, and every budget in between is conservative; the indicator's
 * distance bound holds against a brute-force distance; motions of a parent and its child compose along the
 * hierarchy; commits place groups on their motion; misuse gives errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ccd/motion.h"
#include "base/pose.h"
#include "snug.h"
#include "geom/tri.h"
#include "test_alloc.h"
#include "test_meshes.h"

#define MAXB 24

typedef struct rig {
    snug_ctx* ctx;
    snug_scene scene;
    snug_mesh meshes[3];
    test_mesh tm[3];
    int nb;
    snug_body body[MAXB];
    int mesh_of[MAXB];
    int parent[MAXB];          /* index, -1 for a root */
    bool is_static[MAXB];
    bool enabled[MAXB];
    uint32_t layer[MAXB], mask[MAXB];
    bool ignored[MAXB][MAXB];
    bool filtered;
    snug_pose world[MAXB];     /* start world poses (by hand) */
    /* registered motions */
    int nm;
    int mover[MAXB];
    snug_pose motion[MAXB];
    bool relative[MAXB];
    snug_pose target[MAXB];    /* by hand */
    int group[MAXB];           /* motion index moving the body, -1 */
} rig;

static void rig_meshes(rig* g, rng* r) {
    g->ctx = snug_ctx_create(NULL);
    test_mesh_sphere(0.6f, 8, 12, &g->tm[0]);
    test_mesh_torus(0.7f, 0.2f, 12, 8, &g->tm[1]);
    test_mesh_soup(r, 60, 0.6f, 0.4f, &g->tm[2]);
    for (int i = 0; i < 3; i++) g->meshes[i] = test_mesh_make(g->ctx, &g->tm[i], NULL);
    CHECK(snug_scene_create(g->ctx, &g->scene) == SNUG_OK);
}

static void rig_free(rig* g) {
    for (int i = 0; i < 3; i++) test_mesh_free(&g->tm[i]);
    snug_ctx_destroy(g->ctx);
}

/* Pose algebra by hand, through matrices (pose.c), not the scene's quaternion products. */
static snug_pose pose_of(const snug_xform* x) {
    snug_pose p;
    versor q;
    glm_mat3_quat((vec3*)x->R, q);
    memcpy(p.q, q, sizeof p.q);
    memcpy(p.p, x->t, sizeof p.p);
    return p;
}
static snug_pose mul(const snug_pose* a, const snug_pose* b) {
    snug_xform xa, xb, r;
    snug_xform_from_pose(a, &xa);
    snug_xform_from_pose(b, &xb);
    snug_xform_mul(&xa, &xb, &r);
    return pose_of(&r);
}
static snug_pose inv(const snug_pose* a) {
    snug_xform x, r;
    snug_xform_from_pose(a, &x);
    snug_xform_inverse(&x, &r);
    return pose_of(&r);
}

static snug_pose random_pose(rng* r, float spread) {
    snug_pose p;
    rng_unit_quat(r, p.q);
    for (int k = 0; k < 3; k++) p.p[k] = rng_range(r, -spread, spread);
    return p;
}

static bool below(const rig* g, int i, int root) {
    for (int a = i; a >= 0; a = g->parent[a])
        if (a == root) return true;
    return false;
}

/* A random scene: some static bodies, some dynamic ones, a few children. */
static void rig_build(rig* g, rng* r, int n, float spread) {
    g->nb = n;
    for (int i = 0; i < n; i++) {
        snug_body_def def = snug_default_body_def();
        g->mesh_of[i] = (int)(rng_next(r) % 3);
        def.mesh = g->meshes[g->mesh_of[i]];
        g->parent[i] = (i > 2 && rng_float(r) < 0.25f) ? (int)(rng_next(r) % (uint64_t)i) : -1;
        g->is_static[i] = g->parent[i] < 0 && rng_float(r) < 0.4f;
        def.is_static = g->is_static[i];
        def.parent = g->parent[i] >= 0 ? g->body[g->parent[i]] : 0;
        snug_pose local = random_pose(r, spread);
        if (g->parent[i] >= 0) {
            for (int k = 0; k < 3; k++) local.p[k] *= 0.5f;
        }
        def.pose = local;
        CHECK(snug_body_create(g->ctx, g->scene, &def, &g->body[i]) == SNUG_OK);
        CHECK(snug_body_get_pose(g->ctx, g->scene, g->body[i], &g->world[i]) == SNUG_OK);
        if (g->parent[i] >= 0) {
            /* the world pose read back equals the product by hand */
            snug_pose w = mul(&g->world[g->parent[i]], &local);
            for (int k = 0; k < 3; k++) CHECK_NEAR(w.p[k], g->world[i].p[k], 1e-4);
        }
    }
}

/* Random filters: disabled bodies, layers and masks, and ignored pairs (applied by hand in pair_tested). */
static void rig_filters(rig* g, rng* r) {
    for (int i = 0; i < g->nb; i++) {
        g->enabled[i] = rng_float(r) < 0.85f;
        g->layer[i] = 1u << (rng_next(r) % 3);
        g->mask[i] = rng_float(r) < 0.7f ? 0xffffffffu : 3u;
        CHECK(snug_body_set_enabled(g->ctx, g->scene, g->body[i], g->enabled[i]) == SNUG_OK);
        CHECK(snug_body_set_filter(g->ctx, g->scene, g->body[i], g->layer[i], g->mask[i]) == SNUG_OK);
    }
    for (int k = 0; k < g->nb; k++) {
        int i = (int)(rng_next(r) % (uint64_t)g->nb), j = (int)(rng_next(r) % (uint64_t)g->nb);
        if (i == j) continue;
        g->ignored[i][j] = g->ignored[j][i] = true;
        CHECK(snug_scene_ignore_pair(g->ctx, g->scene, g->body[i], g->body[j], true) == SNUG_OK);
    }
}

static bool pair_tested(const rig* g, int i, int j) {
    if (!g->filtered) return true;
    return g->enabled[i] && g->enabled[j] && (g->layer[i] & g->mask[j]) && (g->layer[j] & g->mask[i]) &&
           !g->ignored[i][j];
}

/* Register motions for random dynamic bodies (never one inside another's moved subtree: those compose and have
 * their own test) and compute targets by hand. */
static void rig_motions(rig* g, rng* r, int count, float reach) {
    CHECK(snug_step_begin(g->ctx, g->scene) == SNUG_OK);
    g->nm = 0;
    for (int i = 0; i < g->nb; i++) g->group[i] = -1;
    for (int tries = 0; tries < 50 && g->nm < count; tries++) {
        int i = (int)(rng_next(r) % (uint64_t)g->nb);
        if (g->is_static[i] || g->group[i] >= 0) continue;
        bool clash = false;
        for (int a = g->parent[i]; a >= 0; a = g->parent[a]) clash |= g->group[a] >= 0;
        if (clash) continue;
        for (int j = 0; j < g->nb; j++) clash |= g->group[j] >= 0 && below(g, j, i);
        if (clash) continue;
        int m = g->nm++;
        g->mover[m] = i;
        g->relative[m] = rng_float(r) < 0.5f;
        snug_pose delta = random_pose(r, reach);
        if (g->relative[m]) {
            /* a small rotation about a random axis plus a translation */
            float axis[3];
            rng_unit_vec(r, axis);
            float angle = rng_range(r, -0.6f, 0.6f);
            for (int k = 0; k < 3; k++) delta.q[k] = axis[k] * sinf(0.5f * angle);
            delta.q[3] = cosf(0.5f * angle);
            g->motion[m] = delta;
        } else {
            g->motion[m] = random_pose(r, reach * 2.0f);
        }
        CHECK(snug_step_move(g->ctx, g->scene, g->body[i], &g->motion[m], g->relative[m]) == SNUG_OK);
        snug_pose root_target = g->relative[m] ? mul(&g->motion[m], &g->world[i]) : g->motion[m];
        /* the subtree moves rigidly: target = root_target * inverse(root world) * world */
        snug_pose root_inv = inv(&g->world[i]);
        snug_pose carry = mul(&root_target, &root_inv);
        for (int j = 0; j < g->nb; j++)
            if (below(g, j, i)) {
                g->group[j] = m;
                g->target[j] = j == i ? root_target : mul(&carry, &g->world[j]);
            }
    }
    for (int j = 0; j < g->nb; j++)
        if (g->group[j] < 0) g->target[j] = g->world[j];
}

static int body_index(const rig* g, snug_body b) {
    for (int i = 0; i < g->nb; i++)
        if (g->body[i] == b) return i;
    return -1;
}

/* Is the triangle pair (ids) among the intersecting pairs of bodies i, j at their targets? */
static bool tri_pair_overlaps(rig* g, int i, int j, uint32_t ta, uint32_t tb) {
    static snug_tri_pair pairs[4096];
    uint32_t total = 0;
    snug_status st = snug_mesh_overlap_all(g->ctx, g->meshes[g->mesh_of[i]], &g->target[i],
                                            g->meshes[g->mesh_of[j]], &g->target[j], pairs, 4096, &total);
    if (st != SNUG_OK) return false;
    for (uint32_t k = 0; k < total; k++)
        if (pairs[k].tri_a == ta && pairs[k].tri_b == tb) return true;
    return false;
}

/* ---------------------------------------------------------------- static mode against the overlap query */

static void test_static_step_equals_pair_queries(void) {
    rng r = {harness_seed() ^ 0x57e9};
    int rounds = 25 * harness_scale();
    int hits = 0, misses = 0;
    for (int round = 0; round < rounds; round++) {
        rig g;
        memset(&g, 0, sizeof g);
        rig_meshes(&g, &r);
        rig_build(&g, &r, 8 + (int)(rng_next(&r) % 14), 2.5f);
        g.filtered = round % 2 == 1;
        if (g.filtered) rig_filters(&g, &r);
        rig_motions(&g, &r, 1 + (int)(rng_next(&r) % 5), 0.8f);
        snug_contact res[MAXB];
        snug_body_pair pairs[MAXB * MAXB];
        snug_step_def def = snug_default_step_def();
        def.collect_pairs = true;
        uint32_t count = 0, pair_total = 0, listed_total = 0;
        CHECK(snug_step_detect(g.ctx, g.scene, &def, res, MAXB, &count, &pair_total) == SNUG_OK);
        CHECK(count == (uint32_t)g.nm);
        CHECK(snug_step_get_pairs(g.ctx, g.scene, pairs, MAXB * MAXB, &listed_total) == SNUG_OK);
        CHECK(listed_total == pair_total);
        if (pair_total > 1) { /* too small a buffer: the error, the full count and the first pair */
            snug_body_pair first = {0, 0};
            uint32_t t = 0;
            CHECK(snug_step_get_pairs(g.ctx, g.scene, &first, 1, &t) == SNUG_ERR_BUFFER_TOO_SMALL);
            CHECK(t == pair_total && first.a == pairs[0].a && first.b == pairs[0].b);
        }
        /* by hand: every pair with a moved body, not inside one group, at the target poses */
        bool expect_group[MAXB] = {0};
        int expect_pairs = 0;
        for (int i = 0; i < g.nb; i++)
            for (int j = i + 1; j < g.nb; j++) {
                if (g.group[i] < 0 && g.group[j] < 0) continue;
                if (g.group[i] == g.group[j] || !pair_tested(&g, i, j)) continue;
                bool hit = false;
                CHECK(snug_mesh_overlap(g.ctx, g.meshes[g.mesh_of[i]], &g.target[i], g.meshes[g.mesh_of[j]],
                                         &g.target[j], &hit, NULL) == SNUG_OK);
                if (!hit) continue;
                expect_pairs++;
                if (g.group[i] >= 0) expect_group[g.group[i]] = true;
                if (g.group[j] >= 0) expect_group[g.group[j]] = true;
                bool listed = false;
                for (uint32_t k = 0; k < pair_total; k++)
                    listed |= (pairs[k].a == g.body[i] && pairs[k].b == g.body[j]) ||
                              (pairs[k].a == g.body[j] && pairs[k].b == g.body[i]);
                CHECK_MSG(listed, "round %d: colliding pair %d %d not listed", round, i, j);
            }
        CHECK_MSG(pair_total == (uint32_t)expect_pairs, "round %d: %u pairs listed, %d by hand", round, pair_total,
                  expect_pairs);
        for (int m = 0; m < g.nm; m++) {
            const snug_contact* c = &res[m];
            CHECK(c->group == g.body[g.mover[m]]);
            CHECK_MSG(c->hit == expect_group[m], "round %d group %d: step %d, by hand %d", round, m, c->hit,
                      expect_group[m]);
            CHECK(c->approx == SNUG_APPROX_NONE);
            if (!c->hit) {
                CHECK(c->t == 1.0f && c->tri_a == SNUG_NO_HIT);
                misses++;
                continue;
            }
            hits++;
            CHECK(c->t == 0.0f && c->feature == SNUG_FEATURE_FACE_FACE);
            int a = body_index(&g, c->body_a), b = body_index(&g, c->body_b);
            CHECK(a >= 0 && b >= 0 && g.group[a] == m && g.group[b] != m);
            if (a >= 0 && b >= 0) CHECK_MSG(tri_pair_overlaps(&g, a, b, c->tri_a, c->tri_b), "round %d: witness", round);
            CHECK_NEAR(glm_vec3_norm((float*)c->normal), 1.0, 1e-3);
        }
        snug_step_stats stats;
        CHECK(snug_step_get_stats(g.ctx, g.scene, &stats) == SNUG_OK);
        CHECK(stats.groups == (uint32_t)g.nm && stats.unfinished_pairs == 0);
        CHECK(stats.finished_pairs == stats.broadphase_pairs);
        rig_free(&g);
        RETURN_IF_FAILED();
    }
    CHECK(hits > 10 && misses > 10);
}

/* ---------------------------------------------------------------- budgets */

static double fake_clock(void* user) {
    /* one microsecond per reading: time is the amount of work checked */
    double* now = user;
    return (*now)++;
}

static float brute_distance(rig* g, int i, int j) {
    const test_mesh* A = &g->tm[g->mesh_of[i]];
    const test_mesh* B = &g->tm[g->mesh_of[j]];
    snug_xform xa, xb;
    snug_xform_from_pose(&g->target[i], &xa);
    snug_xform_from_pose(&g->target[j], &xb);
    float best = INFINITY;
    for (uint32_t s = 0; s < A->triangle_count; s++) {
        float a[3][3];
        for (int c = 0; c < 3; c++) snug_xform_point(&xa, A->positions + 3 * A->indices[3 * s + c], a[c]);
        for (uint32_t t = 0; t < B->triangle_count; t++) {
            float b[3][3], pa[3], pb[3];
            for (int c = 0; c < 3; c++) snug_xform_point(&xb, B->positions + 3 * B->indices[3 * t + c], b[c]);
            float d = snug_tri_tri_distance(a[0], a[1], a[2], b[0], b[1], b[2], pa, pb);
            if (d < best) best = d;
        }
    }
    return best;
}

static void test_budgets(void) {
    rng r = {harness_seed() ^ 0xb0d9e7};
    int rounds = 12 * harness_scale();
    int approx_seen = 0, indicator_checked = 0;
    for (int round = 0; round < rounds; round++) {
        rig g;
        memset(&g, 0, sizeof g);
        rig_meshes(&g, &r);
        rig_build(&g, &r, 12, 2.0f);
        rig_motions(&g, &r, 4, 0.8f);
        snug_contact exact[MAXB], res[MAXB];
        uint32_t count;
        snug_step_def def = snug_default_step_def();
        CHECK(snug_step_detect(g.ctx, g.scene, &def, exact, MAXB, &count, NULL) == SNUG_OK);

        /* infinity with a clock: the exact answer */
        double now = 0.0;
        def.clock_us = fake_clock;
        def.clock_user = &now;
        CHECK(snug_step_detect(g.ctx, g.scene, &def, res, MAXB, &count, NULL) == SNUG_OK);
        for (int m = 0; m < g.nm; m++) CHECK(res[m].hit == exact[m].hit && res[m].approx == SNUG_APPROX_NONE);

        /* zero: no pair test runs; every pair whose root boxes overlap is a conservative hit at t = 0 */
        def.budget_us = 0.0;
        def.collect_pairs = true;
        uint32_t pair_total = 0, listed_total = 0;
        CHECK(snug_step_detect(g.ctx, g.scene, &def, res, MAXB, &count, &pair_total) == SNUG_OK);
        CHECK(snug_step_get_pairs(g.ctx, g.scene, NULL, 0, &listed_total) ==
              (pair_total ? SNUG_ERR_BUFFER_TOO_SMALL : SNUG_OK));
        CHECK(listed_total == pair_total);
        snug_step_stats stats;
        snug_step_get_stats(g.ctx, g.scene, &stats);
        CHECK(stats.primitive_tests == 0);
        CHECK(pair_total == stats.unfinished_pairs);
        for (int m = 0; m < g.nm; m++) {
            if (exact[m].hit) CHECK(res[m].hit); /* never a missed collision */
            if (res[m].hit) {
                CHECK(res[m].approx == SNUG_APPROX_CONSERVATIVE && res[m].t == 0.0f && res[m].tri_a == SNUG_NO_HIT);
                approx_seen++;
            }
        }
        /* budgets in between: conservative, and exact hits are real */
        def.collect_pairs = false;
        for (double budget = 1.0; budget < 4096.0; budget *= 4.0) {
            def.budget_us = budget;
            def.cutoff = (int)budget % 2 ? SNUG_APPROX_CONSERVATIVE : SNUG_APPROX_INDICATOR;
            CHECK(snug_step_detect(g.ctx, g.scene, &def, res, MAXB, &count, NULL) == SNUG_OK);
            for (int m = 0; m < g.nm; m++) {
                if (exact[m].hit) CHECK(res[m].hit);
                if (res[m].hit && res[m].approx == SNUG_APPROX_NONE) CHECK(exact[m].hit);
                if (res[m].approx == SNUG_APPROX_INDICATOR && !exact[m].hit) {
                    /* the bodies do not touch, so their distance is at most the bound */
                    int a = body_index(&g, res[m].body_a), b = body_index(&g, res[m].body_b);
                    CHECK(a >= 0 && b >= 0);
                    if (a >= 0 && b >= 0) {
                        float d = brute_distance(&g, a, b);
                        CHECK_MSG(d <= res[m].distance_bound * 1.0001f + 1e-5f, "round %d: distance %g > bound %g",
                                  round, d, res[m].distance_bound);
                        indicator_checked++;
                    }
                }
            }
        }
        rig_free(&g);
        RETURN_IF_FAILED();
    }
    CHECK(approx_seen > 5);
    CHECK(indicator_checked > 0);
}

/* ---------------------------------------------------------------- dynamic and mixed against the TOI query */

static void test_dynamic_and_mixed_equal_toi_queries(void) {
    rng r = {harness_seed() ^ 0xd1a};
    int rounds = 10 * harness_scale();
    int hits = 0;
    for (int round = 0; round < rounds; round++) {
        rig g;
        memset(&g, 0, sizeof g);
        rig_meshes(&g, &r);
        rig_build(&g, &r, 10, 2.5f);
        rig_motions(&g, &r, 3, 1.2f);
        for (int mode = SNUG_STEP_MIXED; mode <= SNUG_STEP_DYNAMIC; mode++) {
            snug_contact res[MAXB];
            snug_step_def def = snug_default_step_def();
            def.mode = (snug_step_mode)mode;
            uint32_t count;
            CHECK(snug_step_detect(g.ctx, g.scene, &def, res, MAXB, &count, NULL) == SNUG_OK);
            snug_toi_def td = snug_default_toi_def();
            td.mode = mode == SNUG_STEP_MIXED ? SNUG_TOI_MIXED : SNUG_TOI_DYNAMIC;
            float best[MAXB];
            for (int m = 0; m < g.nm; m++) best[m] = 2.0f;
            for (int i = 0; i < g.nb; i++)
                for (int j = 0; j < g.nb; j++) {
                    if (g.group[i] < 0 || g.group[i] == g.group[j]) continue;
                    snug_motion mi = snug_motion_between(&g.world[i], &g.target[i]);
                    snug_motion mj = snug_motion_between(&g.world[j], &g.target[j]);
                    snug_toi_result tr;
                    CHECK(snug_mesh_toi(g.ctx, g.meshes[g.mesh_of[i]], &mi, g.meshes[g.mesh_of[j]], &mj, &td, &tr) ==
                          SNUG_OK);
                    if (tr.hit && tr.t < best[g.group[i]]) best[g.group[i]] = tr.t;
                }
            for (int m = 0; m < g.nm; m++) {
                bool want = best[m] <= 1.0f;
                CHECK_MSG(res[m].hit == want, "round %d mode %d group %d: step %d (t %g), by hand %d (t %g)", round,
                          mode, m, res[m].hit, res[m].t, want, best[m]);
                if (want && res[m].hit) {
                    CHECK_NEAR(res[m].t, best[m], 2e-3);
                    hits++;
                }
            }
        }
        rig_free(&g);
        RETURN_IF_FAILED();
    }
    CHECK(hits > 3);
}

/* ---------------------------------------------------------------- nested motions */

/* Motions on bodies and their descendants in one step: the targets compose down the hierarchy (by hand: a body
 * is carried by its parent's target, then its own motion applies) and each body belongs to the group of its
 * nearest registered ancestor; pairs inside a group are not tested. */
static void test_nested_motions_equal_pair_queries(void) {
    rng r = {harness_seed() ^ 0x9e57};
    int rounds = 20 * harness_scale(), hits = 0;
    for (int round = 0; round < rounds; round++) {
        rig g;
        memset(&g, 0, sizeof g);
        rig_meshes(&g, &r);
        rig_build(&g, &r, 14, 2.0f);
        CHECK(snug_step_begin(g.ctx, g.scene) == SNUG_OK);
        g.nm = 0;
        int motion_of[MAXB];
        for (int i = 0; i < g.nb; i++) {
            motion_of[i] = -1;
            if (g.is_static[i] || rng_float(&r) > 0.4f) continue;
            int m = g.nm++;
            motion_of[i] = m;
            g.mover[m] = i;
            g.relative[m] = rng_float(&r) < 0.6f;
            g.motion[m] = random_pose(&r, g.relative[m] ? 0.6f : 2.0f);
            CHECK(snug_step_move(g.ctx, g.scene, g.body[i], &g.motion[m], g.relative[m]) == SNUG_OK);
        }
        /* by hand, parents before children (rig_build creates parents first) */
        for (int i = 0; i < g.nb; i++) {
            int par = g.parent[i];
            g.group[i] = motion_of[i] >= 0 ? motion_of[i] : (par >= 0 ? g.group[par] : -1);
            snug_pose carried = g.world[i];
            if (par >= 0 && g.group[par] >= 0) {
                snug_pose pinv = inv(&g.world[par]);
                snug_pose local = mul(&pinv, &g.world[i]);
                carried = mul(&g.target[par], &local);
            }
            int m = motion_of[i];
            g.target[i] = m < 0 ? carried : (g.relative[m] ? mul(&g.motion[m], &carried) : g.motion[m]);
        }
        snug_contact res[MAXB];
        uint32_t count;
        snug_step_def def = snug_default_step_def();
        CHECK(snug_step_detect(g.ctx, g.scene, &def, res, MAXB, &count, NULL) == SNUG_OK);
        CHECK(count == (uint32_t)g.nm);
        bool expect[MAXB] = {0};
        for (int i = 0; i < g.nb; i++)
            for (int j = i + 1; j < g.nb; j++) {
                if (g.group[i] == g.group[j]) continue; /* also: neither moves */
                bool hit = false;
                CHECK(snug_mesh_overlap(g.ctx, g.meshes[g.mesh_of[i]], &g.target[i], g.meshes[g.mesh_of[j]],
                                         &g.target[j], &hit, NULL) == SNUG_OK);
                if (!hit) continue;
                if (g.group[i] >= 0) expect[g.group[i]] = true;
                if (g.group[j] >= 0) expect[g.group[j]] = true;
            }
        for (int m = 0; m < g.nm; m++) {
            CHECK_MSG(res[m].hit == expect[m], "round %d group %d: step %d, by hand %d", round, m, res[m].hit, expect[m]);
            hits += res[m].hit;
        }
        /* committing every group at t = 1, parents first, lands every body on its target */
        for (int i = 0; i < g.nb; i++)
            if (motion_of[i] >= 0) CHECK(snug_step_commit(g.ctx, g.scene, g.body[i], 1.0f) == SNUG_OK);
        for (int i = 0; i < g.nb; i++) {
            snug_pose now;
            CHECK(snug_body_get_pose(g.ctx, g.scene, g.body[i], &now) == SNUG_OK);
            for (int k = 0; k < 3; k++) CHECK_NEAR(now.p[k], g.target[i].p[k], 2e-4);
        }
        rig_free(&g);
        RETURN_IF_FAILED();
    }
    CHECK(hits > 5);
}

/* ---------------------------------------------------------------- hierarchy, commit, misuse */

static void test_parent_and_child_motions_compose(void) {
    rng r = {harness_seed() ^ 0xc0c0};
    rig g;
    memset(&g, 0, sizeof g);
    rig_meshes(&g, &r);
    snug_body_def def = snug_default_body_def();
    def.mesh = g.meshes[0];
    def.pose = random_pose(&r, 3.0f);
    snug_body parent, child;
    CHECK(snug_body_create(g.ctx, g.scene, &def, &parent) == SNUG_OK);
    def.parent = parent;
    def.pose = random_pose(&r, 1.0f);
    CHECK(snug_body_create(g.ctx, g.scene, &def, &child) == SNUG_OK);
    snug_pose wp, wc;
    snug_body_get_pose(g.ctx, g.scene, parent, &wp);
    snug_body_get_pose(g.ctx, g.scene, child, &wc);
    snug_pose mp = random_pose(&r, 1.0f), mc = random_pose(&r, 1.0f);
    CHECK(snug_step_begin(g.ctx, g.scene) == SNUG_OK);
    /* the child first: registration order does not matter for composition */
    CHECK(snug_step_move(g.ctx, g.scene, child, &mc, true) == SNUG_OK);
    CHECK(snug_step_move(g.ctx, g.scene, parent, &mp, true) == SNUG_OK);
    snug_contact res[2];
    uint32_t count;
    snug_step_def sd = snug_default_step_def();
    CHECK(snug_step_detect(g.ctx, g.scene, &sd, res, 2, &count, NULL) == SNUG_OK);
    CHECK(count == 2 && res[0].group == child && res[1].group == parent);
    /* commit the parent first, then the child: child target = mc * (mp * wc) */
    CHECK(snug_step_commit(g.ctx, g.scene, parent, 1.0f) == SNUG_OK);
    CHECK(snug_step_commit(g.ctx, g.scene, child, 1.0f) == SNUG_OK);
    snug_pose tp = mul(&mp, &wp), carried = mul(&mp, &wc), tc = mul(&mc, &carried), now;
    snug_body_get_pose(g.ctx, g.scene, parent, &now);
    for (int k = 0; k < 3; k++) CHECK_NEAR(now.p[k], tp.p[k], 1e-4);
    snug_body_get_pose(g.ctx, g.scene, child, &now);
    for (int k = 0; k < 3; k++) CHECK_NEAR(now.p[k], tc.p[k], 1e-4);
    snug_body p2;
    CHECK(snug_body_get_parent(g.ctx, g.scene, child, &p2) == SNUG_OK && p2 == parent);

    /* an absolute target stays absolute under a moving parent; commit at t = 0.5 lands on the motion */
    snug_body_get_pose(g.ctx, g.scene, parent, &wp);
    snug_body_get_pose(g.ctx, g.scene, child, &wc);
    snug_pose abs_target = random_pose(&r, 2.0f);
    CHECK(snug_step_begin(g.ctx, g.scene) == SNUG_OK);
    CHECK(snug_step_move(g.ctx, g.scene, parent, &mp, true) == SNUG_OK);
    CHECK(snug_step_move(g.ctx, g.scene, child, &abs_target, false) == SNUG_OK);
    CHECK(snug_step_detect(g.ctx, g.scene, &sd, res, 2, &count, NULL) == SNUG_OK);
    CHECK(snug_step_commit(g.ctx, g.scene, parent, 0.5f) == SNUG_OK);
    CHECK(snug_step_commit(g.ctx, g.scene, child, 1.0f) == SNUG_OK);
    snug_body_get_pose(g.ctx, g.scene, child, &now);
    for (int k = 0; k < 3; k++) CHECK_NEAR(now.p[k], abs_target.p[k], 1e-4);
    snug_pose end = mul(&mp, &wp);
    snug_motion half = snug_motion_between(&wp, &end);
    snug_pose mid = snug_motion_pose_at(&half, 0.5);
    snug_body_get_pose(g.ctx, g.scene, parent, &now);
    for (int k = 0; k < 3; k++) CHECK_NEAR(now.p[k], mid.p[k], 1e-4);
    rig_free(&g);
}

static void test_step_misuse(void) {
    rng r = {harness_seed() ^ 0xbad};
    rig g;
    memset(&g, 0, sizeof g);
    rig_meshes(&g, &r);
    snug_body_def def = snug_default_body_def();
    def.mesh = g.meshes[2];
    snug_body a, s;
    CHECK(snug_body_create(g.ctx, g.scene, &def, &a) == SNUG_OK);
    def.is_static = true;
    def.mesh = g.meshes[0];
    CHECK(snug_body_create(g.ctx, g.scene, &def, &s) == SNUG_OK);
    snug_pose id = snug_pose_identity();
    snug_contact res[2];
    uint32_t count;
    snug_step_def sd = snug_default_step_def();
    CHECK(snug_step_begin(g.ctx, g.scene) == SNUG_OK);
    CHECK(snug_step_move(g.ctx, g.scene, s, &id, true) == SNUG_ERR_INVALID_ARGUMENT); /* static */
    CHECK(snug_step_move(g.ctx, g.scene, 0, &id, true) == SNUG_ERR_STALE_HANDLE);
    snug_pose bad = id;
    bad.q[2] = NAN;
    CHECK(snug_step_move(g.ctx, g.scene, a, &bad, false) == SNUG_ERR_NOT_FINITE);
    bad = id;
    bad.p[0] = INFINITY;
    CHECK(snug_step_move(g.ctx, g.scene, a, &bad, true) == SNUG_ERR_NOT_FINITE);
    CHECK(snug_step_commit(g.ctx, g.scene, a, 1.0f) == SNUG_ERR_INVALID_ARGUMENT); /* nothing detected */
    CHECK(snug_step_move(g.ctx, g.scene, a, &id, true) == SNUG_OK);
    CHECK(snug_step_detect(g.ctx, g.scene, &sd, res, 0, &count, NULL) == SNUG_ERR_BUFFER_TOO_SMALL && count == 1);
    sd.mode = (snug_step_mode)7;
    CHECK(snug_step_detect(g.ctx, g.scene, &sd, res, 2, &count, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    sd = snug_default_step_def();
    sd.budget_us = NAN;
    CHECK(snug_step_detect(g.ctx, g.scene, &sd, res, 2, &count, NULL) == SNUG_ERR_NOT_FINITE);
    sd = snug_default_step_def();
    uint32_t pair_total = 0;
    snug_body_pair pair;
    CHECK(snug_step_get_pairs(g.ctx, g.scene, &pair, 1, &pair_total) == SNUG_ERR_INVALID_ARGUMENT); /* no detect */
    CHECK(snug_step_detect(g.ctx, g.scene, &sd, res, 2, &count, NULL) == SNUG_OK);
    CHECK(count == 1 && res[0].hit); /* identity motion: the soup sits inside the sphere's box, touching it */
    CHECK(snug_step_get_pairs(g.ctx, g.scene, &pair, 1, &pair_total) == SNUG_ERR_INVALID_ARGUMENT); /* not kept */
    sd.collect_pairs = true;
    CHECK(snug_step_detect(g.ctx, g.scene, &sd, res, 2, &count, NULL) == SNUG_OK);
    CHECK(snug_step_get_pairs(g.ctx, g.scene, &pair, 1, &pair_total) == SNUG_OK);
    CHECK(pair_total == 1 && ((pair.a == a && pair.b == s) || (pair.a == s && pair.b == a)));
    CHECK(snug_step_get_pairs(g.ctx, g.scene, NULL, 1, &pair_total) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_step_move(g.ctx, g.scene, a, &id, true) == SNUG_OK); /* new motions: the pairs are gone */
    CHECK(snug_step_get_pairs(g.ctx, g.scene, &pair, 1, &pair_total) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_step_detect(g.ctx, g.scene, &sd, res, 2, &count, NULL) == SNUG_OK);
    CHECK(snug_step_commit(g.ctx, g.scene, a, 1.5f) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_step_commit(g.ctx, g.scene, s, 1.0f) == SNUG_ERR_INVALID_ARGUMENT);
    /* a destroyed mesh under a body: the step says so and does not crash */
    CHECK(snug_mesh_destroy(g.ctx, g.meshes[0]) == SNUG_OK);
    CHECK(snug_step_detect(g.ctx, g.scene, &sd, res, 2, &count, NULL) == SNUG_ERR_STALE_HANDLE);
    /* a destroyed moving body drops its motion */
    CHECK(snug_body_destroy(g.ctx, g.scene, s) == SNUG_OK);
    CHECK(snug_body_destroy(g.ctx, g.scene, a) == SNUG_OK);
    CHECK(snug_step_detect(g.ctx, g.scene, &sd, res, 2, &count, NULL) == SNUG_OK && count == 0);
    rig_free(&g);
}

/* A contact on a sliver whose float cross product underflows (an edge of 1e-39) reports the sliver's unit normal,
 * and one on a triangle without area reports +z; both used to be zero vectors. */
static void test_sliver_contact_normals(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_scene scene;
    CHECK(snug_scene_create(ctx, &scene) == SNUG_OK);
    float sliver[2][9] = {{0, -5, -5, 1.1e-39f, -5, -5, 0, 5, 5}, {0, -5, -5, 0, 0, 0, 0, 5, 5}};
    float plate[] = {-3, -3, 0, 3, -3, 0, 0, 3, 0}; /* crosses both at z = 0 */
    snug_mesh_def md = snug_default_mesh_def();
    md.vertex_count = 3;
    md.triangle_count = 1;
    md.weld = false; /* welding would make the sliver a segment */
    snug_mesh mp, ms[2];
    md.positions = plate;
    CHECK(snug_mesh_create(ctx, &md, &mp) == SNUG_OK);
    snug_body_def bd = snug_default_body_def();
    bd.mesh = mp;
    snug_body mover, fixed[2];
    CHECK(snug_body_create(ctx, scene, &bd, &mover) == SNUG_OK);
    for (int k = 0; k < 2; k++) {
        md.positions = sliver[k];
        CHECK(snug_mesh_create(ctx, &md, &ms[k]) == SNUG_OK);
        bd.mesh = ms[k];
        bd.is_static = true;
        bd.pose.p[0] = k ? 20.0f : 0.0f;
        CHECK(snug_body_create(ctx, scene, &bd, &fixed[k]) == SNUG_OK);
    }
    const float expect[2][3] = {{0.0f, -0.70710678f, 0.70710678f}, {0.0f, 0.0f, 1.0f}};
    for (int k = 0; k < 2; k++) {
        snug_pose at = snug_pose_identity();
        at.p[0] = k ? 20.0f : 0.0f;
        snug_step_def sd = snug_default_step_def();
        sd.mode = SNUG_STEP_STATIC;
        snug_contact c;
        uint32_t count = 0;
        CHECK(snug_step_begin(ctx, scene) == SNUG_OK);
        CHECK(snug_step_move(ctx, scene, mover, &at, false) == SNUG_OK);
        CHECK(snug_step_detect(ctx, scene, &sd, &c, 1, &count, NULL) == SNUG_OK && count == 1);
        CHECK_MSG(c.hit && c.body_b == fixed[k], "case %d: hit %d", k, c.hit);
        /* the sliver's face normal up to its sign (turned towards the plate's centroid) */
        CHECK_NEAR(glm_vec3_norm(c.normal), 1.0, 1e-6);
        CHECK_NEAR(fabsf(glm_vec3_dot(c.normal, (float*)expect[k])), 1.0, 1e-6);
        CHECK(snug_step_commit(ctx, scene, mover, 0.0f) == SNUG_OK);
    }
    snug_ctx_destroy(ctx);
}

/* An allocator that fails the n-th allocation from now. */
/* Every allocation of a first step failing in turn: out-of-memory, poses untouched, and the next step answers
 * as if nothing had happened. */
static void test_failed_allocations_in_a_step(void) {
    for (int mode = SNUG_STEP_STATIC; mode <= SNUG_STEP_DYNAMIC; mode += 2) {
        int failures = 0;
        snug_contact want[MAXB];
        /* n = -1: the reference run without failures; the rig is rebuilt from the same seed every time */
        for (int n = -1; n < 64; n++) {
            test_failing_alloc f = {-1};
            snug_ctx_def cd = test_failing_ctx_def(&f);
            rng r = {harness_seed() ^ 0xf00d};
            rig g;
            memset(&g, 0, sizeof g);
            g.ctx = snug_ctx_create(&cd);
            test_mesh_sphere(0.6f, 8, 12, &g.tm[0]);
            test_mesh_torus(0.7f, 0.2f, 12, 8, &g.tm[1]);
            test_mesh_soup(&r, 60, 0.6f, 0.4f, &g.tm[2]);
            for (int i = 0; i < 3; i++) g.meshes[i] = test_mesh_make(g.ctx, &g.tm[i], NULL);
            CHECK(snug_scene_create(g.ctx, &g.scene) == SNUG_OK);
            rig_build(&g, &r, 10, 1.5f);
            rig_motions(&g, &r, 3, 0.8f);
            snug_contact got[MAXB];
            uint32_t count;
            snug_step_def def = snug_default_step_def();
            def.mode = (snug_step_mode)mode;
            f.countdown = n;
            snug_status st = snug_step_detect(g.ctx, g.scene, &def, n < 0 ? want : got, MAXB, &count, NULL);
            bool exhausted = n >= 0 && f.countdown >= 0; /* the step needed fewer than n + 1 allocations */
            f.countdown = -1;
            if (n < 0) CHECK(st == SNUG_OK);
            if (st != SNUG_OK) {
                failures++;
                CHECK(st == SNUG_ERR_OUT_OF_MEMORY);
            }
            for (int i = 0; i < g.nb; i++) {
                snug_pose now;
                CHECK(snug_body_get_pose(g.ctx, g.scene, g.body[i], &now) == SNUG_OK);
                CHECK(memcmp(&now, &g.world[i], sizeof now) == 0);
            }
            /* with allocations working again the step answers like the reference */
            CHECK(snug_step_detect(g.ctx, g.scene, &def, got, MAXB, &count, NULL) == SNUG_OK);
            for (int m = 0; m < g.nm; m++) CHECK(got[m].hit == want[m].hit && got[m].t == want[m].t);
            rig_free(&g);
            RETURN_IF_FAILED();
            if (exhausted) break; /* every allocation of the step has failed once */
        }
        CHECK(failures > 0);
    }
}

int main(void) {
    RUN(test_static_step_equals_pair_queries);
    RUN(test_budgets);
    RUN(test_dynamic_and_mixed_equal_toi_queries);
    RUN(test_nested_motions_equal_pair_queries);
    RUN(test_parent_and_child_motions_compose);
    RUN(test_step_misuse);
    RUN(test_sliver_contact_normals);
    RUN(test_failed_allocations_in_a_step);
    return harness_finish();
}
