/* What snug.h promises for a call that fails, checked by failing every allocation of one call in turn across
 * mesh, blob, scene and step calls. Each case builds the same rig (context, meshes, a scene of bodies with a
 * hierarchy, ignore pairs and motions) from scratch, runs the call once without failures (the reference), then
 * again with allocation k failing, for every k until the call needs no more. After a failure:
 *  - the status is SNUG_ERR_OUT_OF_MEMORY and everything the API can observe is as before: mesh info (but its
 *    memory_bytes), every body's poses, parent and info, the broad-phase pairs, the ignore list's effect;
 *  - memory: calls that create or change objects (mesh create, load, set_positions, scene and body create, ignore
 *    pair, step_move) leave exactly the bytes they found; queries and steps may leave reusable capacity behind
 *    (the context's scratch arena, data a mesh builds on first use, a scene's broad-phase, query and step buffers)
 *    but never more than the same call keeps when it succeeds;
 *  - the call then succeeds, with the reference's answer. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "snug.h"
#include "test_alloc.h"
#include "test_meshes.h"

#define NB 8
#define EXTRA 64 /* bodies a case may add before its call */

typedef struct rig {
    test_failing_alloc fail;
    snug_ctx* ctx;
    test_mesh tm[2];
    snug_mesh mesh[2];
    snug_scene scene;
    snug_body body[NB];
    snug_body extra[EXTRA];
    int extras;
    void* blob;
    size_t blob_size;
} rig;

static void rig_make(rig* g) {
    memset(g, 0, sizeof *g);
    g->fail.countdown = -1;
    snug_ctx_def cd = test_failing_ctx_def(&g->fail);
    g->ctx = snug_ctx_create(&cd);
    test_mesh_torus(0.6f, 0.2f, 10, 8, &g->tm[0]);
    test_mesh_sphere(0.5f, 8, 10, &g->tm[1]);
    for (int i = 0; i < 2; i++) g->mesh[i] = test_mesh_make(g->ctx, &g->tm[i], NULL);
    CHECK(snug_mesh_serialize(g->ctx, g->mesh[0], NULL, 0, &g->blob_size) == SNUG_OK);
    g->blob = malloc(g->blob_size);
    CHECK(snug_mesh_serialize(g->ctx, g->mesh[0], g->blob, g->blob_size, &g->blob_size) == SNUG_OK);
    CHECK(snug_scene_create(g->ctx, &g->scene) == SNUG_OK);
    for (int i = 0; i < NB; i++) {
        snug_body_def def = snug_default_body_def();
        def.mesh = g->mesh[i % 2];
        def.parent = i >= 2 && i % 3 == 0 ? g->body[i - 1] : 0;
        def.pose = test_pose_at(0.7f * (float)(i % 4), 0.5f * (float)(i / 4), 0.0f);
        if (def.parent) def.pose = test_pose_at(0.3f, 0.0f, 0.2f);
        def.is_static = i == 1;
        CHECK(snug_body_create(g->ctx, g->scene, &def, &g->body[i]) == SNUG_OK);
    }
    CHECK(snug_scene_ignore_pair(g->ctx, g->scene, g->body[0], g->body[1], true) == SNUG_OK);
    CHECK(snug_step_begin(g->ctx, g->scene) == SNUG_OK);
    snug_pose move = test_pose_at(0.4f, 0.1f, 0.0f);
    move.q[1] = 0.2f, move.q[3] = sqrtf(1.0f - 0.04f);
    CHECK(snug_step_move(g->ctx, g->scene, g->body[2], &move, true) == SNUG_OK);
}

static void rig_free(rig* g) {
    snug_ctx_destroy(g->ctx);
    for (int i = 0; i < 2; i++) test_mesh_free(&g->tm[i]);
    free(g->blob);
}

/* What the API shows of the rig, with handles turned into indices (handles carry per-context and per-scene salts,
 * and every case builds its rig anew). */
typedef struct view {
    snug_mesh_info mesh[2];
    snug_pose world[NB + EXTRA], local[NB + EXTRA];
    int parent[NB + EXTRA];
    snug_body_info info[NB + EXTRA];
    uint32_t pairs[2048];           /* (index a << 16 | index b), a < b, ascending */
    uint32_t pair_count;
} view;

static int index_of(const rig* g, snug_body h) {
    for (int i = 0; i < NB; i++)
        if (g->body[i] == h) return i;
    for (int i = 0; i < g->extras; i++)
        if (g->extra[i] == h) return NB + i;
    return -1;
}

static int cmp_u32(const void* a, const void* b) {
    uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
    return (x > y) - (x < y);
}

static void look(rig* g, view* v) {
    memset(v, 0, sizeof *v);
    for (int i = 0; i < 2; i++) {
        CHECK(snug_mesh_get_info(g->ctx, g->mesh[i], &v->mesh[i]) == SNUG_OK);
        v->mesh[i].memory_bytes = 0; /* data built on first use may stay (the memory check covers it) */
    }
    for (int i = 0; i < NB + g->extras; i++) {
        snug_body h = i < NB ? g->body[i] : g->extra[i - NB];
        snug_body parent;
        CHECK(snug_body_get_pose(g->ctx, g->scene, h, &v->world[i]) == SNUG_OK);
        CHECK(snug_body_get_local_pose(g->ctx, g->scene, h, &v->local[i]) == SNUG_OK);
        CHECK(snug_body_get_parent(g->ctx, g->scene, h, &parent) == SNUG_OK);
        CHECK(snug_body_get_info(g->ctx, g->scene, h, &v->info[i]) == SNUG_OK);
        v->parent[i] = parent ? index_of(g, parent) : -1;
        v->info[i].mesh = v->info[i].mesh == g->mesh[0] ? 0 : 1;
        v->info[i].parent = (snug_body)v->parent[i];
    }
    snug_body_pair pairs[2048];
    CHECK(snug_scene_pairs(g->ctx, g->scene, pairs, 2048, &v->pair_count) == SNUG_OK);
    for (uint32_t k = 0; k < v->pair_count; k++) {
        uint32_t a = (uint32_t)index_of(g, pairs[k].a), b = (uint32_t)index_of(g, pairs[k].b);
        v->pairs[k] = a < b ? a << 16 | b : b << 16 | a;
    }
    qsort(v->pairs, v->pair_count, sizeof *v->pairs, cmp_u32);
}

static bool same_view(const view* a, const view* b) { return memcmp(a, b, sizeof *a) == 0; }

/* One call on the rig; its answer goes to out (compared with the reference's). A preparation runs before it
 * without failures: it brings the rig to where the call has to grow something. */
typedef snug_status (*call_fn)(rig* g, unsigned char out[256]);
typedef void (*prepare_fn)(rig* g);

static void add_bodies(rig* g, int n) {
    snug_body_def def = snug_default_body_def();
    def.mesh = g->mesh[1];
    for (int i = 0; i < n && g->extras < EXTRA; i++) {
        def.pose = test_pose_at(3.0f + (float)(g->extras % 8), 2.0f * (float)(g->extras / 8), 0.0f);
        CHECK(snug_body_create(g->ctx, g->scene, &def, &g->extra[g->extras++]) == SNUG_OK);
    }
}

/* 16 bodies: the next one grows the handle pool (16 slots at first) */
static void p_pool_full(rig* g) { add_bodies(g, 16 - NB); }
/* 64 bodies: the next one grows the dirty queue (room for 64) */
static void p_queue_full(rig* g) { add_bodies(g, 64 - NB); }
/* 64 ignored pairs: the next one grows the ignore list (64 keys at first) */
static void p_ignore_full(rig* g) {
    add_bodies(g, 12);
    int n = 1; /* the rig ignores one pair already */
    for (int i = 0; i < g->extras && n < 64; i++)
        for (int k = i + 1; k < g->extras && n < 64; k++, n++)
            CHECK(snug_scene_ignore_pair(g->ctx, g->scene, g->extra[i], g->extra[k], true) == SNUG_OK);
}
/* 16 motions: the next one grows the motion list */
static void p_motions_full(rig* g) {
    add_bodies(g, 16);
    for (int i = 0; i < 15; i++) {
        snug_pose p = test_pose_at(0.1f, 0.0f, 0.0f);
        CHECK(snug_step_move(g->ctx, g->scene, g->extra[i], &p, true) == SNUG_OK);
    }
}
/* a moved body: the query's sync has something to do */
static void p_moved(rig* g) {
    snug_pose p = test_pose_at(0.0f, 0.2f, 0.0f);
    CHECK(snug_body_set_pose(g->ctx, g->scene, g->body[5], &p) == SNUG_OK);
}

static snug_status c_mesh_create(rig* g, unsigned char out[256]) {
    snug_mesh_def def = test_mesh_def(&g->tm[0], NULL);
    def.weld = true;
    (void)out;
    snug_mesh h;
    return snug_mesh_create(g->ctx, &def, &h);
}
/* OBB trees by Gottschalk's split, two children per node: their own builder (bvh_build_obb.c), whose corner records
 * were left behind when a later allocation failed (found by fuzz_mesh) */
static snug_status c_mesh_create_obb(rig* g, unsigned char out[256]) {
    snug_mesh_def def = test_mesh_def(&g->tm[0], NULL);
    def.bvh.bv_type = SNUG_BV_OBB;
    def.bvh.splitter = SNUG_SPLITTER_GOTTSCHALK;
    def.bvh.branching = 2;
    (void)out;
    snug_mesh h;
    return snug_mesh_create(g->ctx, &def, &h);
}
static snug_status c_mesh_load(rig* g, unsigned char out[256]) {
    (void)out;
    snug_mesh h;
    return snug_mesh_deserialize(g->ctx, g->blob, g->blob_size, &h);
}
static snug_status c_set_positions(rig* g, unsigned char out[256]) {
    (void)out;
    for (uint32_t i = 0; i < 3 * g->tm[1].vertex_count; i++) g->tm[1].positions[i] *= 1.5f;
    snug_status st = snug_mesh_set_positions(g->ctx, g->mesh[1], g->tm[1].positions, g->tm[1].vertex_count);
    for (uint32_t i = 0; i < 3 * g->tm[1].vertex_count; i++) g->tm[1].positions[i] /= 1.5f;
    return st;
}
static snug_status c_distance(rig* g, unsigned char out[256]) {
    snug_pose a = snug_pose_identity(), b = test_pose_at(2.0f, 0.5f, 0.3f);
    return snug_mesh_distance(g->ctx, g->mesh[0], &a, g->mesh[1], &b, (snug_distance_result*)out);
}
static snug_status c_overlap_all(rig* g, unsigned char out[256]) {
    snug_pose a = snug_pose_identity(), b = test_pose_at(1.25f, 0.0f, 0.0f);
    return snug_mesh_overlap_all(g->ctx, g->mesh[0], &a, g->mesh[1], &b, (snug_tri_pair*)(out + 4), 16, (uint32_t*)out);
}
static snug_status c_raycast(rig* g, unsigned char out[256]) {
    snug_pose a = snug_pose_identity();
    snug_ray ray = {{-3.0f, 0.1f, 0.05f}, {1.0f, 0.0f, 0.0f}, INFINITY};
    return snug_mesh_raycast(g->ctx, g->mesh[0], &a, &ray, (snug_ray_hit*)out);
}
static snug_status c_inside(rig* g, unsigned char out[256]) {
    snug_pose a = snug_pose_identity();
    float p[3] = {0.1f, 0.2f, 0.05f};
    return snug_mesh_inside(g->ctx, g->mesh[1], &a, p, (bool*)out);
}
static snug_status c_toi(rig* g, unsigned char out[256]) {
    snug_pose s = test_pose_at(-2.0f, 0.1f, 0.0f), e = test_pose_at(2.0f, 0.1f, 0.0f), o = snug_pose_identity();
    e.q[2] = 0.3f, e.q[3] = sqrtf(1.0f - 0.09f);
    snug_motion ma = snug_motion_between(&s, &e), mb = snug_motion_static(&o);
    return snug_mesh_toi(g->ctx, g->mesh[1], &ma, g->mesh[0], &mb, NULL, (snug_toi_result*)out);
}
static snug_status c_sweep(rig* g, unsigned char out[256]) {
    snug_pose s = test_pose_at(-2.0f, 0.1f, 0.0f), o = snug_pose_identity();
    float move[3] = {4.0f, 0.0f, 0.0f};
    return snug_mesh_sweep(g->ctx, g->mesh[1], &s, move, g->mesh[0], &o, (snug_toi_result*)out);
}
static snug_status c_scene_create(rig* g, unsigned char out[256]) {
    (void)out;
    snug_scene s;
    return snug_scene_create(g->ctx, &s);
}
static snug_status c_body_create(rig* g, unsigned char out[256]) {
    snug_body_def def = snug_default_body_def();
    def.mesh = g->mesh[0];
    def.parent = g->body[4];
    def.pose = test_pose_at(0.2f, 0.0f, 0.0f);
    snug_status st = snug_body_create(g->ctx, g->scene, &def, (snug_body*)out);
    *(snug_body*)out = 0; /* handles carry the context's salt, which differs between rigs */
    return st;
}
static snug_status c_ignore_pair(rig* g, unsigned char out[256]) {
    (void)out;
    return snug_scene_ignore_pair(g->ctx, g->scene, g->body[2], g->body[3], true);
}
static snug_status c_step_move(rig* g, unsigned char out[256]) {
    (void)out;
    snug_pose p = test_pose_at(0.1f, 0.0f, 0.0f);
    return snug_step_move(g->ctx, g->scene, g->body[5], &p, true);
}
/* body handles of an answer as rig indices (handles differ between rigs) */
static void as_indices(const rig* g, snug_body* h, uint32_t n) {
    for (uint32_t k = 0; k < n; k++) h[k] = h[k] ? (snug_body)(index_of(g, h[k]) + 1) : 0;
}
static snug_status c_query_pairs(rig* g, unsigned char out[256]) {
    snug_body_pair* pairs = (snug_body_pair*)(out + 4);
    snug_status st = snug_scene_pairs(g->ctx, g->scene, pairs, 16, (uint32_t*)out);
    if (st != SNUG_OK) return st;
    /* in a canonical order: the broad phase lists its pairs in the order its path (which may depend on the
     * memory it got) found them */
    uint32_t n = *(uint32_t*)out;
    as_indices(g, (snug_body*)pairs, 2 * n);
    uint32_t keys[16];
    for (uint32_t k = 0; k < n; k++) keys[k] = pairs[k].a < pairs[k].b ? pairs[k].a << 16 | pairs[k].b : pairs[k].b << 16 | pairs[k].a;
    qsort(keys, n, sizeof *keys, cmp_u32);
    memset(pairs, 0, 16 * sizeof *pairs);
    memcpy(pairs, keys, n * sizeof *keys);
    return st;
}
static snug_status c_query_box(rig* g, unsigned char out[256]) {
    float lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
    snug_status st = snug_scene_overlap_box(g->ctx, g->scene, lo, hi, (snug_body*)(out + 4), 16, (uint32_t*)out);
    if (st == SNUG_OK) as_indices(g, (snug_body*)(out + 4), *(uint32_t*)out);
    return st;
}
static snug_status c_scene_raycast(rig* g, unsigned char out[256]) {
    snug_ray ray = {{-3.0f, 0.1f, 0.05f}, {1.0f, 0.0f, 0.0f}, INFINITY};
    snug_scene_hit* hit = (snug_scene_hit*)out;
    snug_status st = snug_scene_raycast(g->ctx, g->scene, &ray, ~0u, hit);
    if (st == SNUG_OK) as_indices(g, &hit->body, 1);
    return st;
}
static snug_status step_detect(rig* g, unsigned char out[256], snug_step_mode mode) {
    snug_step_def def = snug_default_step_def();
    def.mode = mode;
    uint32_t count;
    snug_contact* c = (snug_contact*)out;
    snug_status st = snug_step_detect(g->ctx, g->scene, &def, c, 2, &count, NULL);
    for (uint32_t k = 0; st == SNUG_OK && k < count; k++) {
        as_indices(g, &c[k].group, 1);
        as_indices(g, &c[k].body_a, 1);
        as_indices(g, &c[k].body_b, 1);
    }
    return st;
}
static snug_status c_step_static(rig* g, unsigned char out[256]) { return step_detect(g, out, SNUG_STEP_STATIC); }
static snug_status c_step_dynamic(rig* g, unsigned char out[256]) { return step_detect(g, out, SNUG_STEP_DYNAMIC); }

typedef struct call_case {
    const char* name;
    prepare_fn prepare;
    call_fn fn;
    bool keeps_capacity; /* may leave reusable capacity behind when it fails */
} call_case;

static const call_case CASES[] = {
    {"mesh_create", NULL, c_mesh_create, false},
    {"mesh_create OBB", NULL, c_mesh_create_obb, false},
    {"mesh_deserialize", NULL, c_mesh_load, false},
    {"mesh_set_positions", NULL, c_set_positions, false},
    {"query_distance", NULL, c_distance, true},
    {"query_overlap_all", NULL, c_overlap_all, true},
    {"query_raycast", NULL, c_raycast, true},
    {"query_inside", NULL, c_inside, true},
    {"query_toi", NULL, c_toi, true},
    {"query_sweep", NULL, c_sweep, true},
    {"scene_create", NULL, c_scene_create, false},
    {"body_create (pool grows)", p_pool_full, c_body_create, false},
    {"body_create (queue grows)", p_queue_full, c_body_create, false},
    {"scene_ignore_pair", p_ignore_full, c_ignore_pair, false},
    {"step_move", p_motions_full, c_step_move, false},
    {"scene_query_pairs", p_moved, c_query_pairs, true},
    {"scene_query_box", p_moved, c_query_box, true},
    {"scene_raycast", p_moved, c_scene_raycast, true},
    {"step_detect static", p_moved, c_step_static, true},
    {"step_detect dynamic", p_moved, c_step_dynamic, true},
};

static void test_a_failed_call_changes_nothing(void) {
    for (size_t c = 0; c < sizeof CASES / sizeof *CASES; c++) {
        const call_case* cc = &CASES[c];
        unsigned char want[256], got[256];
        memset(want, 0, sizeof want);
        rig g;
        view v0, v1; /* the rig as prepared, and after a failed call */
        rig_make(&g);
        if (cc->prepare) cc->prepare(&g);
        look(&g, &v0);
        rig_free(&g);
        rig_make(&g);
        if (cc->prepare) cc->prepare(&g);
        size_t before_ok = snug_ctx_allocated_bytes(g.ctx);
        CHECK_MSG(cc->fn(&g, want) == SNUG_OK, "%s: %s", cc->name, snug_ctx_last_error(g.ctx));
        size_t kept_ok = snug_ctx_allocated_bytes(g.ctx) - before_ok; /* what a success keeps */
        rig_free(&g);
        int failures = 0;
        for (int k = 0; k < 400; k++) {
            rig_make(&g);
            if (cc->prepare) cc->prepare(&g);
            size_t before = snug_ctx_allocated_bytes(g.ctx);
            g.fail.countdown = k;
            memset(got, 0, sizeof got);
            snug_status st = cc->fn(&g, got);
            bool exhausted = g.fail.countdown >= 0;
            g.fail.countdown = -1;
            if (st == SNUG_OK) { /* needed no allocation k, or managed without it (a block kept larger) */
                CHECK_MSG(memcmp(got, want, sizeof got) == 0, "%s: allocation %d failed, another answer", cc->name, k);
                rig_free(&g);
                if (exhausted) break;
                continue;
            }
            failures++;
            size_t after = snug_ctx_allocated_bytes(g.ctx);
            CHECK_MSG(st == SNUG_ERR_OUT_OF_MEMORY, "%s, allocation %d: %s", cc->name, k, snug_status_name(st));
            if (cc->keeps_capacity)
                CHECK_MSG(after <= before + kept_ok, "%s, allocation %d: %zu bytes left, a success keeps %zu", cc->name, k,
                          after - before, kept_ok);
            else
                CHECK_MSG(after == before, "%s, allocation %d: %zd bytes left behind", cc->name, k,
                          (ptrdiff_t)(after - before));
            look(&g, &v1);
            CHECK_MSG(same_view(&v0, &v1), "%s, allocation %d: the rig changed", cc->name, k);
            /* and now it works, with the reference's answer */
            CHECK_MSG(cc->fn(&g, got) == SNUG_OK && memcmp(got, want, sizeof got) == 0, "%s after allocation %d failed",
                      cc->name, k);
            rig_free(&g);
            RETURN_IF_FAILED();
        }
        CHECK_MSG(failures > 0, "%s: no allocation to fail", cc->name);
    }
}

int main(void) {
    RUN(test_a_failed_call_changes_nothing);
    return harness_finish();
}
