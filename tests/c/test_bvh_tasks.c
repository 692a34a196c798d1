/* Hierarchy builds through the context's task hooks (snug_ctx_def.enqueue_task / finish_task): the serialized mesh
 * is the same bytes with no hooks, with any worker count and schedule (a seeded shuffling scheduler on one thread),
 * and with the real pthread pool where the build has threads; out of memory with workers fails cleanly. The SAH
 * builder's clustered path, where its parallel work is, is forced onto small meshes through snug_sah_cluster_min;
 * the OBB builder hands out subtrees from 32k triangles. */
#include <stdlib.h>
#include <string.h>

#include "bvh/bvh_build.h"
#include "harness.h"
#include "bvh/mesh.h"
#include "snug.h"
#include "task_pool.h"
#include "test_alloc.h"
#include "test_meshes.h"
#include "test_tasks.h"

/* The serialized mesh (malloc'd) built in ctx, or NULL with *st set. */
static unsigned char* build_blob(snug_ctx* ctx, const test_mesh* m, const snug_bvh_def* bvh, size_t* size,
                                 snug_status* st) {
    snug_mesh_def def = test_mesh_def(m, bvh);
    snug_mesh h = 0;
    uint32_t saved = snug_sah_cluster_min;
    snug_sah_cluster_min = 0;
    *st = snug_mesh_create(ctx, &def, &h);
    snug_sah_cluster_min = saved;
    if (*st != SNUG_OK) return NULL;
    unsigned char* blob = NULL;
    *st = snug_mesh_serialize(ctx, h, NULL, 0, size);
    if (*st == SNUG_OK && (blob = malloc(*size)) != NULL) *st = snug_mesh_serialize(ctx, h, blob, *size, size);
    snug_mesh_destroy(ctx, h);
    return blob;
}

static void same_blob(snug_ctx* ctx, const test_mesh* m, const snug_bvh_def* def, const unsigned char* want,
                      size_t want_size, const char* what) {
    size_t size = 0;
    snug_status st;
    unsigned char* blob = build_blob(ctx, m, def, &size, &st);
    CHECK_MSG(st == SNUG_OK, "%s: %s", what, snug_ctx_last_error(ctx));
    CHECK_MSG(!blob || (size == want_size && memcmp(blob, want, size) == 0), "%s: %zu bytes, differ from the %zu "
              "built without task hooks", what, size, want_size);
    free(blob);
}

static snug_bvh_def random_def(rng* r, int c) {
    snug_bvh_def def = snug_default_bvh_def();
    if (c % 4 == 1) def.bv_type = SNUG_BV_OBB;            /* node BVs fitted after the build: ranges move too */
    if (c % 4 == 2) def.measure = SNUG_MEASURE_VOLUME;
    if (c % 4 == 3) {
        def.leaf_size = 1 + (int)(rng_next(r) % 16);
        def.max_depth = 4 + (int)(rng_next(r) % 45);
        def.sah_bins = 4 + (int)(rng_next(r) % 61);
    }
    return def;
}

static void test_any_schedule_builds_the_same_bytes(void) {
    rng r = {harness_seed() ^ 0x7a5cull};
    snug_ctx* plain = snug_ctx_create(NULL);
    snug_task_pool* pool = snug_task_pool_create(3);
#if !defined(__EMSCRIPTEN__)
    CHECK_MSG(pool != NULL, "a native build starts pthreads");
#endif
    snug_ctx* pooled = NULL;
    if (pool) {
        snug_ctx_def def = snug_default_ctx_def();
        snug_task_pool_hook(pool, &def);
        pooled = snug_ctx_create(&def);
    }
    /* the 203k dragon spans several ranges of every per-triangle pass; cases 5-7 are OBB trees of the dedicated
     * Gottschalk builder, whose subtrees go to the workers from 32k triangles */
    static const char* names[] = {"bunny", "dragon11k", "teapot", "dragon48k", "dragon203k", "dragon48k",
                                  "dragon203k"};
    int cases = 14 * harness_scale();
    for (int c = 0; c < cases; c++) {
        test_mesh m;
        const char* name = c < 7 ? names[c] : NULL;
        if (name && !test_mesh_load(name, &m)) continue;
        if (!name) test_mesh_soup(&r, c == 7 ? 40000 : 1 + (uint32_t)(rng_next(&r) % 8000), 1.0f, 0.05f, &m);
        snug_bvh_def def = random_def(&r, c);
        if (c >= 5 && c <= 7) def = snug_default_bvh_def(), def.bv_type = SNUG_BV_OBB, def.splitter = SNUG_SPLITTER_GOTTSCHALK;
        char what[160];
        snprintf(what, sizeof what, "case %d (%s, %u triangles, bv %d splitter %d measure %d leaf %d depth %d bins %d)",
                 c, name ? name : "soup", m.triangle_count, def.bv_type, def.splitter, def.measure, def.leaf_size,
                 def.max_depth, def.sah_bins);
        size_t size = 0;
        snug_status st;
        unsigned char* want = build_blob(plain, &m, &def, &size, &st);
        CHECK_MSG(want != NULL, "%s: %s", what, snug_ctx_last_error(plain));
        for (uint32_t workers = 2; want && workers <= 9; workers += 7) {
            test_shuffler s = {rng_next(&r) | 1, workers, 0, 0};
            snug_ctx_def cdef = snug_default_ctx_def();
            test_shuffler_hook(&s, &cdef);
            snug_ctx* ctx = snug_ctx_create(&cdef);
            char with[200];
            snprintf(with, sizeof with, "%s, %u shuffled workers", what, workers);
            same_blob(ctx, &m, &def, want, size, with);
            /* the build went through the hooks: its groups and the finish's blocks (plain AABB trees) */
            CHECK_MSG(s.tasks >= 1u + (def.bv_type == SNUG_BV_AABB), "%s: %u tasks", with, s.tasks);
            snug_ctx_destroy(ctx);
        }
        if (want && pooled) same_blob(pooled, &m, &def, want, size, "the pthread pool");
        free(want);
        test_mesh_free(&m);
        RETURN_IF_FAILED();
    }
    if (!pool) printf("  (no threads in this build: the pthread pool is checked natively)\n");
    snug_ctx_destroy(pooled);
    snug_task_pool_destroy(pool);
    snug_ctx_destroy(plain);
}

/* Node a of tree x and node b of tree y have the same subtree: boxes, OBBs, children and leaf slots. */
static bool same_subtree(const snug_bvh* x, uint32_t a, const snug_bvh* y, uint32_t b) {
    const snug_node *na = &x->nodes[a], *nb = &y->nodes[b];
    uint32_t kids = SNUG_NODE_CHILDREN(na->info);
    if (na->info != nb->info || memcmp(na->min, nb->min, sizeof na->min) || memcmp(na->max, nb->max, sizeof na->max) ||
        memcmp(&x->obbs[a], &y->obbs[b], sizeof x->obbs[a]))
        return false;
    if (!kids) return na->first == nb->first;
    for (uint32_t k = 0; k < kids; k++)
        if (!same_subtree(x, na->first + k, y, nb->first + k)) return false;
    return true;
}

/* The OBB builder's subtrees for the workers change only the layout: the tree built as one sequence has the same
 * nodes (boxes, OBBs, leaves) and slot order, depth and node count. */
static void test_obb_subtrees_only_change_the_layout(void) {
    static const char* names[] = {"dragon48k", "dragon203k"};
    snug_ctx* ctx = snug_ctx_create(NULL);
    for (int i = 0; i < 2; i++) {
        test_mesh m;
        if (!test_mesh_load(names[i], &m)) continue;
        snug_bvh_def def = snug_default_bvh_def();
        def.bv_type = SNUG_BV_OBB;
        def.splitter = SNUG_SPLITTER_GOTTSCHALK;
        uint32_t saved = snug_obb_subtrees_min;
        snug_obb_subtrees_min = UINT32_MAX;
        snug_mesh one = test_mesh_make(ctx, &m, &def);
        snug_obb_subtrees_min = saved;
        snug_mesh split = test_mesh_make(ctx, &m, &def);
        const snug_mesh_data *a = snug_mesh_lookup(ctx, one), *b = snug_mesh_lookup(ctx, split);
        CHECK_MSG(a && b && a->bvh.node_count == b->bvh.node_count && a->bvh.depth == b->bvh.depth &&
                      memcmp(a->tris, b->tris, 3 * sizeof(uint32_t) * m.triangle_count) == 0 &&
                      same_subtree(&a->bvh, 0, &b->bvh, 0),
                  "%s: the subtree build differs from the one-sequence build", names[i]);
        snug_mesh_destroy(ctx, one);
        snug_mesh_destroy(ctx, split);
        test_mesh_free(&m);
    }
    snug_ctx_destroy(ctx);
}

/* Every allocation of a build with workers fails in turn: the call reports it, the context frees everything. */
static void test_out_of_memory_with_workers(void) {
    rng r = {harness_seed() ^ 0x0f0full};
    test_mesh m;
    test_mesh_soup(&r, 3000, 1.0f, 0.05f, &m);
    snug_bvh_def def = snug_default_bvh_def();
    bool finished = false;
    for (int k = 0; k < 200 && !finished; k++) {
        test_failing_alloc f = {k};
        snug_ctx_def cdef = test_failing_ctx_def(&f);
        test_shuffler s = {(uint64_t)k * 2654435761u | 1, 4, 0, 0};
        test_shuffler_hook(&s, &cdef);
        f.countdown = -1;
        snug_ctx* ctx = snug_ctx_create(&cdef);
        f.countdown = k;
        size_t size = 0;
        snug_status st;
        unsigned char* blob = build_blob(ctx, &m, &def, &size, &st);
        CHECK_MSG(st == SNUG_OK || st == SNUG_ERR_OUT_OF_MEMORY, "allocation %d: %s", k, snug_ctx_last_error(ctx));
        finished = blob != NULL;
        free(blob);
        f.countdown = -1;
        CHECK_MSG(snug_ctx_allocated_bytes(ctx) == 0 || finished, "allocation %d failed: %zu bytes left", k,
                  snug_ctx_allocated_bytes(ctx));
        snug_ctx_destroy(ctx);
        RETURN_IF_FAILED();
    }
    CHECK_MSG(finished, "a build with enough memory succeeds");
    test_mesh_free(&m);
}

/* An index out of range anywhere in a mesh of many chunks is reported with its triangle, whichever worker copies
 * it, and the context keeps nothing. */
static void test_bad_index_in_any_chunk(void) {
    rng r = {harness_seed() ^ 0xbad1ull};
    test_mesh m;
    test_mesh_soup(&r, 300000, 1.0f, 0.05f, &m);
    test_shuffler s = {rng_next(&r) | 1, 3, 0, 0};
    snug_ctx_def cdef = snug_default_ctx_def();
    test_shuffler_hook(&s, &cdef);
    snug_ctx* ctx = snug_ctx_create(&cdef);
    for (int k = 0; k < 4; k++) {
        uint32_t at = k == 0 ? 0 : k == 1 ? 3 * m.triangle_count - 1 : (uint32_t)(rng_next(&r) % (3 * m.triangle_count));
        uint32_t saved = m.indices[at];
        m.indices[at] = m.vertex_count + (uint32_t)k;
        snug_mesh_def def = test_mesh_def(&m, NULL);
        snug_mesh h = 0;
        snug_status st = snug_mesh_create(ctx, &def, &h);
        char want[64];
        snprintf(want, sizeof want, "triangle %u uses vertex %u", at / 3, m.vertex_count + (uint32_t)k);
        CHECK_MSG(st == SNUG_ERR_INDEX_RANGE && strstr(snug_ctx_last_error(ctx), want), "index %u: %s", at,
                  snug_ctx_last_error(ctx));
        CHECK_MSG(snug_ctx_allocated_bytes(ctx) == 0, "index %u: %zu bytes kept", at, snug_ctx_allocated_bytes(ctx));
        m.indices[at] = saved;
    }
    CHECK_MSG(s.tasks > 0, "the copy went through the task hooks");
    snug_ctx_destroy(ctx);
    test_mesh_free(&m);
}

int main(void) {
    RUN(test_any_schedule_builds_the_same_bytes);
    RUN(test_obb_subtrees_only_change_the_layout);
    RUN(test_out_of_memory_with_workers);
    RUN(test_bad_index_in_any_chunk);
    return harness_finish();
}
