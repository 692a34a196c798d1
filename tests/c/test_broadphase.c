/* Broad phase: the incremental sweep-and-prune's pair set equals brute-force box pairs after every random move,
 * insert and removal (raw proxies on an integer grid, so touching and equal coordinates are frequent), and the
 * scene's pair and box queries equal brute force over the bodies' world boxes with the filters applied. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/broadphase.h"
#include "base/ctx.h"
#include "harness.h"
#include "snug.h"
#include "test_meshes.h"

/* ---------------------------------------------------------------- raw sweep and prune */

#define RAW_MAX 96

typedef struct raw_box {
    float min[3], max[3];
    uint32_t id;
    bool live;
} raw_box;

static void random_box(rng* r, float world, raw_box* b) {
    for (int k = 0; k < 3; k++) {
        /* integer coordinates: many exact ties and touching faces */
        float lo = floorf(rng_range(r, -world, world));
        float len = floorf(rng_range(r, 0.0f, 4.0f));
        b->min[k] = lo;
        b->max[k] = lo + len;
    }
}

static void check_raw_pairs(const snug_broadphase* bp, const raw_box* boxes, uint32_t n, int step) {
    uint32_t expected = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!boxes[i].live) continue;
        for (uint32_t j = i + 1; j < n; j++) {
            if (!boxes[j].live) continue;
            bool o = snug_box_overlap(boxes[i].min, boxes[i].max, boxes[j].min, boxes[j].max);
            bool in = snug_pairset_contains(&bp->pairs, snug_pair_key(boxes[i].id, boxes[j].id));
            CHECK_MSG(o == in, "step %d: boxes %u and %u overlap %d, in the pair set %d", step, i, j, o, in);
            if (o) expected++;
            if (o != in) return;
        }
    }
    CHECK_MSG(bp->pairs.count == expected, "step %d: %u pairs, brute force %u", step, bp->pairs.count, expected);
}

static void test_raw_sap_equals_brute_force(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    rng r = {harness_seed() ^ 0xb0b};
    snug_broadphase bp;
    memset(&bp, 0, sizeof bp);
    raw_box boxes[RAW_MAX];
    memset(boxes, 0, sizeof boxes);
    int steps = 3000 * harness_scale();
    for (int step = 0; step < steps; step++) {
        uint32_t i = (uint32_t)(rng_next(&r) % RAW_MAX);
        float u = rng_float(&r);
        raw_box* b = &boxes[i];
        if (!b->live) {
            random_box(&r, 12.0f, b);
            CHECK(snug_bp_insert(ctx, &bp, b->min, b->max, i, true, &b->id) == SNUG_OK);
            b->live = true;
        } else if (u < 0.08f) {
            snug_bp_remove(&bp, b->id);
            b->live = false;
        } else if (u < 0.7f) {
            /* small move: what insertion sort is for */
            for (int k = 0; k < 3; k++) {
                float d = floorf(rng_range(&r, -2.0f, 3.0f));
                b->min[k] += d;
                b->max[k] += d;
            }
            snug_bp_move(ctx, &bp, b->id, b->min, b->max);
        } else {
            random_box(&r, 12.0f, b); /* a jump, possibly entirely below its old lower end */
            snug_bp_move(ctx, &bp, b->id, b->min, b->max);
        }
        if (step % 50 == 25) {
            /* a batch: many boxes (and a few new ones) change at once, then one pass per axis */
            for (uint32_t j = 0; j < RAW_MAX; j++) {
                raw_box* c = &boxes[j];
                if (!c->live) {
                    if (rng_float(&r) < 0.3f) {
                        random_box(&r, 12.0f, c);
                        CHECK(snug_bp_insert(ctx, &bp, c->min, c->max, j, false, &c->id) == SNUG_OK);
                        c->live = true;
                    }
                    continue;
                }
                if (rng_float(&r) < 0.5f) continue;
                for (int k = 0; k < 3; k++) {
                    float d = floorf(rng_range(&r, -3.0f, 4.0f));
                    c->min[k] += d;
                    c->max[k] += d;
                }
                snug_bp_set_box(&bp, c->id, c->min, c->max);
            }
            bp.needs_rebuild = false;
            snug_bp_resort(ctx, &bp);
        }
        if (step % 97 == 0) CHECK(snug_bp_maintain(ctx, &bp) == SNUG_OK);
        if (step % 500 == 250) CHECK(snug_bp_rebuild(ctx, &bp) == SNUG_OK);
        check_raw_pairs(&bp, boxes, RAW_MAX, step);
        RETURN_IF_FAILED();
        /* every proxy knows where its endpoints are, and the arrays are sorted (at once after a batch) */
        for (uint32_t p = 0; p < bp.proxy_count; p++)
            for (int k = 0; k < 3 && bp.proxies[p].live; k++)
                for (int u2 = 0; u2 < 2; u2++) CHECK(bp.axis[k][bp.where[k][(p << 1) | (uint32_t)u2]].data == ((p << 1) | (uint32_t)u2));
        if (step % 3 == 0) snug_bp_ensure_sorted(ctx, &bp);
        for (int k = 0; k < 3; k++)
            for (uint32_t e = 0; e + 1 < bp.ep_count && !(bp.unsorted & (1u << k)); e++)
                CHECK(bp.axis[k][e].value <= bp.axis[k][e + 1].value);
        RETURN_IF_FAILED();
    }
    snug_bp_free(ctx, &bp);
    CHECK(snug_ctx_allocated_bytes(ctx) == ctx->scratch.size);
    snug_ctx_destroy(ctx);
}

/* Batches over enough boxes that the sweep splits y into slabs: small boxes on an integer grid (ties and
 * touching faces, some flat), a share of tall ones spanning many slabs, and rounds where all are tall (too tall
 * for slabs). Every batch and rebuild equals brute force, and an incremental move afterwards (which sorts the
 * axes the batch left) keeps it so. */
static void test_batch_sweep_equals_brute_force(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    rng r = {harness_seed() ^ 0x51ab};
    const uint32_t n = 1500;
    raw_box* boxes = calloc(n, sizeof *boxes);
    snug_broadphase bp;
    memset(&bp, 0, sizeof bp);
    int rounds = 16 * harness_scale();
    for (int round = 0; round < rounds; round++) {
        float tall = round % 4 == 3 ? 1.0f : 0.03f;
        for (uint32_t i = 0; i < n; i++) {
            raw_box* b = &boxes[i];
            if (b->live && rng_float(&r) < 0.1f) continue; /* unchanged */
            for (int k = 0; k < 3; k++) {
                float lo = floorf(rng_range(&r, 0.0f, 60.0f));
                float len = floorf(rng_range(&r, 0.0f, 3.0f));
                if (k == 1 && rng_float(&r) < tall) len = floorf(rng_range(&r, 10.0f, 60.0f));
                b->min[k] = lo;
                b->max[k] = lo + len;
            }
            if (!b->live) {
                CHECK(snug_bp_insert(ctx, &bp, b->min, b->max, i, round % 2 == 1, &b->id) == SNUG_OK);
                b->live = true;
            } else {
                snug_bp_set_box(&bp, b->id, b->min, b->max);
            }
        }
        bp.needs_rebuild = false;
        if (round % 5 == 4) CHECK(snug_bp_rebuild(ctx, &bp) == SNUG_OK);
        else snug_bp_resort(ctx, &bp);
        CHECK(!bp.needs_rebuild);
        check_raw_pairs(&bp, boxes, n, round);
        RETURN_IF_FAILED();
        /* a few incremental moves and a removal after the batch */
        for (int t = 0; t < 4; t++) {
            raw_box* b = &boxes[rng_next(&r) % n];
            if (!b->live) continue;
            for (int k = 0; k < 3; k++) {
                float d = floorf(rng_range(&r, -3.0f, 4.0f));
                b->min[k] += d;
                b->max[k] += d;
            }
            snug_bp_move(ctx, &bp, b->id, b->min, b->max);
        }
        raw_box* gone = &boxes[rng_next(&r) % n];
        if (gone->live) {
            snug_bp_remove(&bp, gone->id);
            gone->live = false;
        }
        CHECK(bp.unsorted == 0);
        check_raw_pairs(&bp, boxes, n, round);
        RETURN_IF_FAILED();
    }
    snug_bp_free(ctx, &bp);
    free(boxes);
    CHECK(snug_ctx_allocated_bytes(ctx) == ctx->scratch.size);
    snug_ctx_destroy(ctx);
}

/* ---------------------------------------------------------------- scene pairs */

#define SCENE_MAX 80

typedef struct world {
    snug_ctx* ctx;
    snug_scene scene;
    snug_mesh mesh[2];
    snug_body body[SCENE_MAX];
} world;

static void world_init(world* w) {
    memset(w, 0, sizeof *w);
    w->ctx = snug_ctx_create(NULL);
    CHECK(snug_scene_create(w->ctx, &w->scene) == SNUG_OK);
    test_mesh box, torus;
    test_mesh_box(0.5f, 0.5f, 0.5f, &box);
    test_mesh_torus(1.0f, 0.3f, 12, 8, &torus);
    w->mesh[0] = test_mesh_make(w->ctx, &box, NULL);
    w->mesh[1] = test_mesh_make(w->ctx, &torus, NULL);
    test_mesh_free(&box);
    test_mesh_free(&torus);
}

static snug_pose random_pose(rng* r, float spread, bool grid) {
    snug_pose p;
    if (grid) {
        /* axis-aligned boxes on a half-unit grid touch exactly */
        p = snug_pose_identity();
        for (int k = 0; k < 3; k++) p.p[k] = 0.5f * floorf(rng_range(r, -2.0f * spread, 2.0f * spread));
    } else {
        rng_unit_quat(r, p.q);
        for (int k = 0; k < 3; k++) p.p[k] = rng_range(r, -spread, spread);
    }
    return p;
}

/* Brute force over world boxes with the documented filters; compares sets. */
static void check_scene_pairs(world* w, int step, const uint64_t* ignored, uint32_t ignored_count) {
    snug_body_info info[SCENE_MAX];
    for (uint32_t i = 0; i < SCENE_MAX; i++)
        if (w->body[i]) CHECK(snug_body_get_info(w->ctx, w->scene, w->body[i], &info[i]) == SNUG_OK);
    static snug_body_pair got[SCENE_MAX * SCENE_MAX];
    uint32_t total = 0;
    CHECK(snug_scene_pairs(w->ctx, w->scene, got, SCENE_MAX * SCENE_MAX, &total) == SNUG_OK);
    static uint8_t seen[SCENE_MAX][SCENE_MAX];
    memset(seen, 0, sizeof seen);
    for (uint32_t k = 0; k < total; k++) {
        int a = -1, b = -1;
        for (int i = 0; i < SCENE_MAX; i++) {
            if (w->body[i] == got[k].a) a = i;
            if (w->body[i] == got[k].b) b = i;
        }
        CHECK_MSG(a >= 0 && b >= 0 && a != b, "step %d: pair of unknown bodies", step);
        if (a < 0 || b < 0) return;
        CHECK_MSG(!seen[a][b], "step %d: pair %d %d twice", step, a, b);
        seen[a][b] = seen[b][a] = 1;
    }
    uint32_t expected = 0;
    for (int i = 0; i < SCENE_MAX; i++) {
        if (!w->body[i]) continue;
        for (int j = i + 1; j < SCENE_MAX; j++) {
            if (!w->body[j]) continue;
            const snug_body_info *a = &info[i], *b = &info[j];
            bool want = snug_box_overlap(a->aabb_min, a->aabb_max, b->aabb_min, b->aabb_max) && a->enabled &&
                        b->enabled && !(a->is_static && b->is_static) && (a->layer & b->mask) && (b->layer & a->mask);
            for (uint32_t k = 0; k < ignored_count; k++)
                if (ignored[k] == snug_pair_key((uint32_t)i, (uint32_t)j)) want = false;
            CHECK_MSG(want == (seen[i][j] != 0), "step %d: bodies %d %d expected %d got %d", step, i, j, want, seen[i][j]);
            if (want != (seen[i][j] != 0)) return;
            expected += want;
        }
    }
    CHECK(total == expected);
}

static void test_scene_pairs_equal_brute_force(void) {
    rng r = {harness_seed() ^ 0x5ce9e};
    for (int round = 0; round < 2; round++) {
        bool grid = round == 0;
        world w;
        world_init(&w);
        uint64_t ignored[64];
        uint32_t ignored_count = 0;
        int steps = 1500 * harness_scale();
        for (int step = 0; step < steps; step++) {
            uint32_t i = (uint32_t)(rng_next(&r) % SCENE_MAX);
            float u = rng_float(&r);
            if (!w.body[i]) {
                snug_body_def def = snug_default_body_def();
                def.mesh = w.mesh[grid ? 0 : rng_next(&r) % 2];
                def.pose = random_pose(&r, 6.0f, grid);
                def.is_static = rng_float(&r) < 0.2f;
                def.enabled = rng_float(&r) < 0.9f;
                def.layer = 1u << (rng_next(&r) % 3);
                def.mask = rng_float(&r) < 0.8f ? 0xffffffffu : 3u;
                CHECK(snug_body_create(w.ctx, w.scene, &def, &w.body[i]) == SNUG_OK);
                /* drop ignore entries a former body of this slot left behind */
                for (uint32_t k = 0; k < ignored_count;)
                    if (snug_pair_lo(ignored[k]) == i || snug_pair_hi(ignored[k]) == i) ignored[k] = ignored[--ignored_count];
                    else k++;
            } else if (u < 0.06f) {
                CHECK(snug_body_destroy(w.ctx, w.scene, w.body[i]) == SNUG_OK);
                w.body[i] = 0;
            } else if (u < 0.09f) {
                uint32_t j = (uint32_t)(rng_next(&r) % SCENE_MAX);
                if (w.body[j] && j != i && ignored_count < 64) {
                    CHECK(snug_scene_ignore_pair(w.ctx, w.scene, w.body[i], w.body[j], true) == SNUG_OK);
                    uint64_t key = snug_pair_key(i, j);
                    bool have = false;
                    for (uint32_t k = 0; k < ignored_count; k++) have |= ignored[k] == key;
                    if (!have) ignored[ignored_count++] = key;
                }
            } else if (u < 0.11f) {
                CHECK(snug_body_set_enabled(w.ctx, w.scene, w.body[i], rng_float(&r) < 0.7f) == SNUG_OK);
                CHECK(snug_body_set_static(w.ctx, w.scene, w.body[i], rng_float(&r) < 0.2f) == SNUG_OK);
                CHECK(snug_body_set_filter(w.ctx, w.scene, w.body[i], 1u << (rng_next(&r) % 3),
                                           rng_float(&r) < 0.8f ? 0xffffffffu : 5u) == SNUG_OK);
            } else if (u < 0.13f) {
                /* many bodies move before the next query: the scene syncs them in one pass per axis */
                for (int j = 0; j < SCENE_MAX; j++) {
                    if (!w.body[j] || rng_float(&r) < 0.4f) continue;
                    snug_pose p;
                    CHECK(snug_body_get_pose(w.ctx, w.scene, w.body[j], &p) == SNUG_OK);
                    for (int k = 0; k < 3; k++) p.p[k] += grid ? 0.5f * (float)((int)(rng_next(&r) % 3) - 1) : rng_range(&r, -0.5f, 0.5f);
                    CHECK(snug_body_set_pose(w.ctx, w.scene, w.body[j], &p) == SNUG_OK);
                }
            } else {
                snug_pose p;
                CHECK(snug_body_get_pose(w.ctx, w.scene, w.body[i], &p) == SNUG_OK);
                if (u < 0.8f) {
                    for (int k = 0; k < 3; k++) p.p[k] += grid ? 0.5f * (float)((int)(rng_next(&r) % 3) - 1) : rng_range(&r, -0.5f, 0.5f);
                } else {
                    p = random_pose(&r, 6.0f, grid);
                }
                CHECK(snug_body_set_pose(w.ctx, w.scene, w.body[i], &p) == SNUG_OK);
            }
            /* query after every op, or batch a few ops between queries */
            if (rng_float(&r) < 0.7f) check_scene_pairs(&w, step, ignored, ignored_count);
            RETURN_IF_FAILED();
        }
        check_scene_pairs(&w, steps, ignored, ignored_count);
        snug_ctx_destroy(w.ctx);
    }
}

/* Many bodies created at once go through the bulk rebuild instead of one insertion sort each. */
static void test_bulk_load_and_box_query(void) {
    rng r = {harness_seed() ^ 0x10ad};
    world w;
    world_init(&w);
    enum { N = 600 };
    static snug_body bodies[N];
    static snug_body_info info[N];
    for (int i = 0; i < N; i++) {
        snug_body_def def = snug_default_body_def();
        def.mesh = w.mesh[i % 2];
        def.pose = random_pose(&r, 15.0f, false);
        CHECK(snug_body_create(w.ctx, w.scene, &def, &bodies[i]) == SNUG_OK);
    }
    uint32_t total = 0;
    snug_status counted = snug_scene_pairs(w.ctx, w.scene, NULL, 0, &total);
    uint32_t expected = 0;
    for (int i = 0; i < N; i++) snug_body_get_info(w.ctx, w.scene, bodies[i], &info[i]);
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++) expected += snug_box_overlap(info[i].aabb_min, info[i].aabb_max, info[j].aabb_min, info[j].aabb_max);
    CHECK(total == expected);
    CHECK(expected > 0 && counted == SNUG_ERR_BUFFER_TOO_SMALL); /* counting with capacity 0 */
    snug_body_pair few[2];
    if (expected > 2) CHECK(snug_scene_pairs(w.ctx, w.scene, few, 2, &total) == SNUG_ERR_BUFFER_TOO_SMALL && total == expected);

    static snug_body got[N];
    int queries = 200 * harness_scale();
    for (int q = 0; q < queries; q++) {
        float mn[3], mx[3];
        for (int k = 0; k < 3; k++) {
            mn[k] = rng_range(&r, -18.0f, 18.0f);
            mx[k] = mn[k] + rng_range(&r, 0.0f, 8.0f);
        }
        uint32_t n = 0;
        CHECK(snug_scene_overlap_box(w.ctx, w.scene, mn, mx, got, N, &n) == SNUG_OK);
        uint32_t want = 0;
        for (int i = 0; i < N; i++) {
            bool o = snug_box_overlap(info[i].aabb_min, info[i].aabb_max, mn, mx);
            bool found = false;
            for (uint32_t k = 0; k < n; k++) found |= got[k] == bodies[i];
            CHECK(o == found);
            want += o;
        }
        CHECK(n == want);
        RETURN_IF_FAILED();
    }
    float bad[3] = {0, NAN, 0}, one[3] = {1, 1, 1};
    uint32_t n;
    CHECK(snug_scene_overlap_box(w.ctx, w.scene, bad, one, got, N, &n) == SNUG_ERR_NOT_FINITE);
    snug_ctx_destroy(w.ctx);
}

int main(void) {
    RUN(test_raw_sap_equals_brute_force);
    RUN(test_batch_sweep_equals_brute_force);
    RUN(test_scene_pairs_equal_brute_force);
    RUN(test_bulk_load_and_box_query);
    return harness_finish();
}
