/* Mesh blobs: bit-exact round trips, identical query-relevant data after loading, rejection of truncated,
 * corrupted, forged and foreign blobs with the documented statuses, no leaks, out-of-memory at every
 * allocation of a load. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "bvh/mesh.h"
#include "snug.h"
#include "test_alloc.h"
#include "test_meshes.h"

static unsigned char* serialize(snug_ctx* ctx, snug_mesh h, size_t* size) {
    CHECK(snug_mesh_serialize(ctx, h, NULL, 0, size) == SNUG_OK);
    unsigned char* blob = malloc(*size);
    CHECK(snug_mesh_serialize(ctx, h, blob, *size, size) == SNUG_OK);
    return blob;
}

/* The documented checksum, written again here so tests can forge blobs with a valid checksum. */
static void reseal(unsigned char* b, size_t size) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t at = 0; at + 4 <= size; at += 4) {
        if (at == 24 || at == 28) continue;
        uint32_t w;
        memcpy(&w, b + at, 4);
        h = (h ^ w) * 0x100000001b3ull;
    }
    memcpy(b + 24, &h, 8);
}

static int same_array(const void* a, const void* b, size_t bytes) {
    if (!a || !b) return a == b;
    return memcmp(a, b, bytes) == 0;
}

static void check_same_mesh(snug_ctx* ctx, snug_mesh a, snug_mesh b) {
    snug_mesh_data* x = snug_mesh_lookup(ctx, a);
    snug_mesh_data* y = snug_mesh_lookup(ctx, b);
    CHECK(x && y);
    if (!x || !y) return;
    size_t N = x->bvh.node_count;
    CHECK(x->vertex_count == y->vertex_count && x->tri_count == y->tri_count && N == y->bvh.node_count);
    CHECK(same_array(x->positions, y->positions, 12ull * x->vertex_count));
    CHECK(same_array(x->tris, y->tris, 12ull * x->tri_count));
    CHECK(same_array(x->tri_ids, y->tri_ids, 4ull * x->tri_count));
    CHECK(same_array(x->bvh.nodes, y->bvh.nodes, N * sizeof(snug_node)));
    CHECK(same_array(x->bvh.costs, y->bvh.costs, N * sizeof(snug_node_cost)));
    CHECK(same_array(x->bvh.spheres, y->bvh.spheres, N * sizeof(snug_sphere)));
    CHECK(same_array(x->bvh.obbs, y->bvh.obbs, N * sizeof(snug_obb)));
    CHECK(same_array(x->bvh.kdops, y->bvh.kdops, N * sizeof(snug_kdop)));
    CHECK(same_array(x->bvh.hausdorff, y->bvh.hausdorff, N * sizeof(float)));
    CHECK(x->bvh.depth == y->bvh.depth && x->bvh.leaf_count == y->bvh.leaf_count && x->bvh.type == y->bvh.type);
    CHECK(memcmp(&x->bvh.def, &y->bvh.def, sizeof x->bvh.def) == 0);
    /* derived data recomputed on load (adjacency on first use) */
    CHECK(snug_mesh_adjacency(ctx, x) == SNUG_OK && snug_mesh_adjacency(ctx, y) == SNUG_OK);
    CHECK(x->edge_count == y->edge_count && x->degenerate_count == y->degenerate_count);
    CHECK(same_array(x->edges, y->edges, 8ull * x->edge_count));
    CHECK(same_array(x->edge_tris, y->edge_tris, 8ull * x->edge_count));
    CHECK(same_array(x->tri_edges, y->tri_edges, 12ull * x->tri_count));
    CHECK(same_array(x->degenerate_ids, y->degenerate_ids, 4ull * x->degenerate_count));
    snug_mesh_info ia, ib;
    CHECK(snug_mesh_get_info(ctx, a, &ia) == SNUG_OK && snug_mesh_get_info(ctx, b, &ib) == SNUG_OK);
    CHECK(memcmp(&ia, &ib, sizeof ia) == 0);
}

static void test_round_trip_is_bit_exact(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh meshes[3];
    int loaded = test_mesh_load("teapot", &meshes[0]);
    if (!loaded) return;
    test_mesh_torus(1.0f, 0.25f, 12, 20, &meshes[1]);
    rng r = {harness_seed()};
    test_mesh_soup(&r, 200, 1.0f, 0.3f, &meshes[2]);
    const snug_bv_type types[] = {SNUG_BV_AABB, SNUG_BV_SPHERE, SNUG_BV_OBB, SNUG_BV_KDOP18, SNUG_BV_MIXED};
    for (int mi = 0; mi < 3; mi++)
        for (int t = 0; t < 5; t++) {
            snug_bvh_def def = snug_default_bvh_def();
            def.bv_type = types[t];
            def.hausdorff = t == 2 || t == 4;
            def.branching = t == 3 ? 0 : 2 + t;
            snug_mesh h = test_mesh_make(ctx, &meshes[mi], &def);
            CHECK(snug_mesh_adjacency(ctx, snug_mesh_lookup(ctx, h)) == SNUG_OK); /* before the footprint check */
            size_t size, size2;
            unsigned char* blob = serialize(ctx, h, &size);
            size_t before = snug_ctx_allocated_bytes(ctx);
            snug_mesh loaded_mesh = 0;
            CHECK_MSG(snug_mesh_deserialize(ctx, blob, size, &loaded_mesh) == SNUG_OK, "mesh %d type %d: %s", mi, t,
                      snug_ctx_last_error(ctx));
            CHECK(snug_ctx_allocated_bytes(ctx) > before);
            unsigned char* again = serialize(ctx, loaded_mesh, &size2);
            CHECK(size2 == size && memcmp(blob, again, size) == 0);
            check_same_mesh(ctx, h, loaded_mesh);
            /* the loaded mesh is fully alive: quality and refit work on it */
            snug_bvh_quality qa, qb;
            CHECK(snug_mesh_get_quality(ctx, h, &qa) == SNUG_OK && snug_mesh_get_quality(ctx, loaded_mesh, &qb) == SNUG_OK);
            CHECK(memcmp(&qa, &qb, sizeof qa) == 0);
            snug_mesh_data* md = snug_mesh_lookup(ctx, loaded_mesh);
            float* moved = malloc(12ull * md->vertex_count);
            memcpy(moved, md->positions, 12ull * md->vertex_count);
            for (uint32_t i = 0; i < 3 * md->vertex_count; i++) moved[i] *= 1.01f;
            CHECK(snug_mesh_set_positions(ctx, loaded_mesh, moved, md->vertex_count) == SNUG_OK);
            free(moved);
            CHECK(snug_mesh_destroy(ctx, loaded_mesh) == SNUG_OK);
            CHECK(snug_ctx_allocated_bytes(ctx) == before);
            /* a small buffer is refused but the size is reported */
            size_t need = 0;
            CHECK(snug_mesh_serialize(ctx, h, again, size - 1, &need) == SNUG_ERR_BUFFER_TOO_SMALL && need == size);
            free(blob);
            free(again);
            snug_mesh_destroy(ctx, h);
            RETURN_IF_FAILED();
        }
    for (int mi = 0; mi < 3; mi++) test_mesh_free(&meshes[mi]);
    snug_ctx_destroy(ctx);
}

static snug_status load(snug_ctx* ctx, const unsigned char* blob, size_t size) {
    snug_mesh h = 0;
    snug_status st = snug_mesh_deserialize(ctx, blob, size, &h);
    if (st == SNUG_OK) snug_mesh_destroy(ctx, h);
    return st;
}

static void test_truncated_blobs_are_rejected(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh m;
    test_mesh_torus(1.0f, 0.25f, 8, 12, &m);
    snug_bvh_def def = snug_default_bvh_def();
    def.bv_type = SNUG_BV_OBB;
    def.hausdorff = true;
    snug_mesh h = test_mesh_make(ctx, &m, &def);
    size_t size;
    unsigned char* blob = serialize(ctx, h, &size);
    size_t before = snug_ctx_allocated_bytes(ctx);
    /* every prefix, copied so ASan catches any read past the given length */
    for (size_t n = 0; n < size; n++) {
        unsigned char* prefix = malloc(n ? n : 1);
        memcpy(prefix, blob, n);
        snug_status st = load(ctx, prefix, n);
        free(prefix);
        CHECK_MSG(st == SNUG_ERR_BLOB_TRUNCATED, "prefix %zu of %zu: %s", n, size, snug_status_name(st));
        RETURN_IF_FAILED();
    }
    /* trailing bytes are not ignored */
    unsigned char* longer = calloc(size + 4, 1);
    memcpy(longer, blob, size);
    CHECK(load(ctx, longer, size + 4) == SNUG_ERR_BLOB_CORRUPT);
    CHECK(snug_ctx_allocated_bytes(ctx) == before);
    free(longer);
    free(blob);
    test_mesh_free(&m);
    snug_ctx_destroy(ctx);
}

static void test_flipped_bytes_are_rejected(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh m;
    if (!test_mesh_load("teapot", &m)) return;
    snug_bvh_def def = snug_default_bvh_def();
    def.bv_type = SNUG_BV_MIXED;
    snug_mesh h = test_mesh_make(ctx, &m, &def);
    size_t size;
    unsigned char* blob = serialize(ctx, h, &size);
    size_t before = snug_ctx_allocated_bytes(ctx);
    rng r = {harness_seed() ^ 0xf11f};
    /* every byte of the header with several patterns */
    const unsigned char patterns[] = {0x01, 0x80, 0xff, 0x10};
    for (size_t at = 0; at < 64; at++)
        for (int p = 0; p < 4; p++) {
            blob[at] ^= patterns[p];
            snug_status st = load(ctx, blob, size);
            int ok;
            if (at < 8) ok = st == SNUG_ERR_BLOB_FOREIGN;
            else if (at < 12) ok = st == SNUG_ERR_BLOB_VERSION;
            else if (at >= 16 && at < 24) ok = st == SNUG_ERR_BLOB_TRUNCATED || st == SNUG_ERR_BLOB_CORRUPT;
            else ok = st == SNUG_ERR_BLOB_CORRUPT;
            CHECK_MSG(ok, "header byte %zu ^ 0x%02x: %s", at, patterns[p], snug_status_name(st));
            blob[at] ^= patterns[p];
        }
    /* a sample of single bit and byte flips in the body */
    int samples = 1500 * harness_scale();
    for (int k = 0; k < samples; k++) {
        size_t at = 64 + (size_t)(rng_next(&r) % (size - 64));
        unsigned char x = (unsigned char)(1u << (rng_next(&r) % 8));
        if (k % 2) x = (unsigned char)(1 + rng_next(&r) % 255);
        blob[at] ^= x;
        snug_status st = load(ctx, blob, size);
        CHECK_MSG(st == SNUG_ERR_BLOB_CORRUPT, "body byte %zu ^ 0x%02x: %s", at, x, snug_status_name(st));
        blob[at] ^= x;
        RETURN_IF_FAILED();
    }
    CHECK(load(ctx, blob, size) == SNUG_OK);
    CHECK(snug_ctx_allocated_bytes(ctx) == before);
    free(blob);
    test_mesh_free(&m);
    snug_ctx_destroy(ctx);
}

/* Forged blobs: structurally wrong but with a valid checksum. Each must fail the field checks. */
static void test_forged_blobs_fail_structure_checks(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh m;
    test_mesh_box(1, 2, 3, &m);
    snug_bvh_def def = snug_default_bvh_def();
    def.leaf_size = 2;
    def.bv_type = SNUG_BV_SPHERE;
    snug_mesh h = test_mesh_make(ctx, &m, &def);
    size_t size;
    unsigned char* blob = serialize(ctx, h, &size);
    snug_mesh_data* md = snug_mesh_lookup(ctx, h);
    uint32_t V = md->vertex_count, T = md->tri_count, N = md->bvh.node_count;
    size_t pos = 64 + 56, tris = pos + 12 * V, ids = tris + 12 * T, nodes = ids + 4 * T, costs = nodes + 32 * N,
           spheres = costs + 12 * N;
    CHECK(spheres + 16 * N == size);
    size_t before = snug_ctx_allocated_bytes(ctx);
    unsigned char* forged = malloc(size);
    const char* names[] = {"vertex index", "NaN vertex", "duplicate id", "leaf overlap", "child range",
                           "inverted box", "node type", "sphere radius", "depth", "bad def", "leaf count",
                           "Inf cost", "leaf box", "count field"};
    for (int c = 0; c < 14; c++) {
        memcpy(forged, blob, size);
        uint32_t w;
        float f;
        switch (c) {
        case 0: w = V; memcpy(forged + tris + 4, &w, 4); break;
        case 1: f = NAN; memcpy(forged + pos + 8, &f, 4); break;
        case 2: memcpy(forged + ids, forged + ids + 4, 4); break;
        default: break;
        }
        /* find the first leaf and the root for node edits */
        uint32_t leaf = 0;
        for (uint32_t i = 0; i < N; i++)
            if (SNUG_NODE_CHILDREN(md->bvh.nodes[i].info) == 0) {
                leaf = i;
                break;
            }
        size_t ln = nodes + 32 * (size_t)leaf, root = nodes;
        switch (c) {
        case 3: w = md->bvh.nodes[leaf].first + 1; memcpy(forged + ln + 12, &w, 4); break;
        case 4: w = N; memcpy(forged + root + 12, &w, 4); break;
        case 5: f = md->bvh.nodes[0].max[0] + 1.0f; memcpy(forged + root, &f, 4); break;
        case 6: w = md->bvh.nodes[leaf].info ^ (2u << 3); memcpy(forged + ln + 28, &w, 4); break;
        case 7: f = -1.0f; memcpy(forged + spheres + 12, &f, 4); break;
        case 8: w = md->bvh.depth + 1; memcpy(forged + 48, &w, 4); break;
        case 9: w = 0; memcpy(forged + 64 + 6 * 4, &w, 4); break; /* leaf_size 0 */
        case 10: w = md->bvh.leaf_count - 1; memcpy(forged + 52, &w, 4); break;
        case 11: f = INFINITY; memcpy(forged + costs, &f, 4); break;
        case 12: f = md->bvh.nodes[leaf].max[1] - 0.5f; memcpy(forged + ln + 20, &f, 4); break;
        case 13: w = V + 1; memcpy(forged + 32, &w, 4); break;
        default: break;
        }
        reseal(forged, size);
        snug_status st = load(ctx, forged, size);
        CHECK_MSG(st == SNUG_ERR_BLOB_CORRUPT, "forged %s: %s", names[c], snug_status_name(st));
        CHECK(snug_ctx_last_error(ctx)[0] != '\0');
    }
    CHECK(snug_ctx_allocated_bytes(ctx) == before);
    free(forged);
    free(blob);
    test_mesh_free(&m);
    snug_ctx_destroy(ctx);
}

/* Forged volumes with a valid checksum (the checksum is a documented hash, so anyone can reseal a blob): node
 * spheres, OBBs and k-DOPs that do not enclose their triangles, OBB axes that are not orthonormal (scaled axes
 * and extents describe the same slabs to a containment test, but the overlap tests take the axes as unit),
 * volumes beyond the accepted range, and Hausdorff bounds below their faces' distance. Loading such a blob
 * used to succeed and the mesh then missed its own copy (overlap false) or reported a wrong distance. */
static void test_forged_volumes_are_rejected(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh m;
    test_mesh_torus(1.0f, 0.3f, 10, 14, &m);
    const snug_bv_type types[] = {SNUG_BV_SPHERE, SNUG_BV_OBB, SNUG_BV_KDOP14, SNUG_BV_KDOP26};
    for (int t = 0; t < 4; t++) {
        snug_bvh_def def = snug_default_bvh_def();
        def.bv_type = types[t];
        def.hausdorff = t == 0;
        snug_mesh h = test_mesh_make(ctx, &m, &def);
        size_t size;
        unsigned char* blob = serialize(ctx, h, &size);
        snug_mesh_data* md = snug_mesh_lookup(ctx, h);
        uint32_t V = md->vertex_count, T = md->tri_count, N = md->bvh.node_count, flags;
        memcpy(&flags, blob + 44, 4);
        size_t at = 64 + 56 + 12 * V + 16 * T + 44 * (size_t)N; /* the first volume section */
        size_t spheres = at, obbs = spheres + (flags & 1 ? 16 * (size_t)N : 0), kdops = obbs + (flags & 2 ? 60 * (size_t)N : 0),
               hausdorff = kdops + (flags & 4 ? 104 * (size_t)N : 0);
        CHECK(hausdorff + (flags & 8 ? 4 * (size_t)N : 0) == size);
        unsigned char* forged = malloc(size);
        uint32_t node = N - 1; /* a leaf (the last node is one) */
        for (int c = 0; c < 4; c++) {
            memcpy(forged, blob, size);
            float f[26];
            if (types[t] == SNUG_BV_SPHERE) {
                size_t sp = spheres + 16 * (size_t)node;
                memcpy(f, forged + sp, 16);
                if (c == 0) f[3] *= 0.5f;                 /* radius */
                if (c == 1) f[0] += 2.0f * f[3] + 1.0f;   /* centre */
                if (c == 2) f[3] = 1e30f;                  /* encloses everything, beyond the range */
                memcpy(forged + sp, f, 16);
                if (c == 3) { f[0] = 0.0f; memcpy(forged + hausdorff + 4 * (size_t)node, f, 4); }
            } else if (types[t] == SNUG_BV_OBB) {
                size_t ob = obbs + 60 * (size_t)node;
                memcpy(f, forged + ob, 60);
                if (c == 0) f[3] *= 0.5f;                                   /* extent */
                if (c == 1) f[0] += 2.0f * (f[3] + f[4] + f[5]) + 1.0f;    /* centre */
                if (c >= 2) for (int k = 3; k < 15; k++) f[k] *= c == 2 ? 0.5f : 2.0f; /* extents and axes scaled */
                memcpy(forged + ob, f, 60);
            } else {
                size_t kd = kdops + 104 * (size_t)node;
                memcpy(f, forged + kd, 104);
                int j = c % 3;
                if (c < 3) f[j] = 0.5f * (f[j] + f[13 + j]); /* a slab's low end moved to its middle */
                else f[13] = 3e10f;                          /* beyond the range */
                memcpy(forged + kd, f, 104);
            }
            reseal(forged, size);
            snug_status st = load(ctx, forged, size);
            CHECK_MSG(st == SNUG_ERR_BLOB_CORRUPT, "type %d case %d: %s", (int)types[t], c, snug_status_name(st));
        }
        CHECK(load(ctx, blob, size) == SNUG_OK);
        free(forged);
        free(blob);
        snug_mesh_destroy(ctx, h);
    }
    test_mesh_free(&m);
    snug_ctx_destroy(ctx);
}

static void test_foreign_data_is_rejected(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    size_t before = snug_ctx_allocated_bytes(ctx);
    const char* texts[] = {"{\"mesh\": []}", "PK\x03\x04 zip file", "solid ascii stl", "snugmsh lower case", "SNUG"};
    for (int k = 0; k < 5; k++) {
        snug_status st = load(ctx, (const unsigned char*)texts[k], strlen(texts[k]));
        CHECK_MSG(st == (k == 4 ? SNUG_ERR_BLOB_TRUNCATED : SNUG_ERR_BLOB_FOREIGN), "text %d: %s", k,
                  snug_status_name(st));
    }
    rng r = {harness_seed() ^ 0xf0}; 
    unsigned char noise[4096];
    for (int k = 0; k < 50 * harness_scale(); k++) {
        size_t n = 1 + rng_next(&r) % sizeof noise;
        for (size_t i = 0; i < n; i++) noise[i] = (unsigned char)rng_next(&r);
        CHECK(load(ctx, noise, n) == SNUG_ERR_BLOB_FOREIGN);
    }
    /* magic with another version */
    unsigned char v2[64] = {'S', 'N', 'U', 'G', 'M', 'S', 'H', 0, 2, 0, 0, 0};
    CHECK(load(ctx, v2, sizeof v2) == SNUG_ERR_BLOB_VERSION);
    snug_mesh h;
    CHECK(snug_mesh_deserialize(ctx, NULL, 10, &h) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_deserialize(ctx, v2, 0, &h) == SNUG_ERR_BLOB_TRUNCATED);
    size_t size;
    CHECK(snug_mesh_serialize(ctx, 12345, NULL, 0, &size) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_ctx_allocated_bytes(ctx) == before);
    snug_ctx_destroy(ctx);
}

static void test_out_of_memory_at_every_allocation_of_a_load(void) {
    test_mesh m;
    test_mesh_torus(1.0f, 0.25f, 8, 12, &m);
    test_failing_alloc f = {-1};
    snug_ctx_def cdef = test_failing_ctx_def(&f);
    snug_ctx* ctx = snug_ctx_create(&cdef);
    for (int variant = 0; variant < 2; variant++) {
        snug_bvh_def def = snug_default_bvh_def();
        def.bv_type = variant ? SNUG_BV_MIXED : SNUG_BV_AABB;
        def.hausdorff = variant == 1;
        snug_mesh h = test_mesh_make(ctx, &m, &def);
        size_t size;
        unsigned char* blob = serialize(ctx, h, &size);
        snug_mesh warm;
        CHECK(snug_mesh_deserialize(ctx, blob, size, &warm) == SNUG_OK);
        size_t base = snug_ctx_allocated_bytes(ctx);
        int failures = 0;
        for (int k = 0; k < 1000; k++) {
            f.countdown = k;
            snug_mesh loaded;
            snug_status st = snug_mesh_deserialize(ctx, blob, size, &loaded);
            f.countdown = -1;
            if (st == SNUG_OK) {
                snug_mesh_destroy(ctx, loaded);
                break;
            }
            failures++;
            CHECK_MSG(st == SNUG_ERR_OUT_OF_MEMORY, "allocation %d: %s", k, snug_status_name(st));
            CHECK_MSG(snug_ctx_allocated_bytes(ctx) == base, "allocation %d leaked", k);
            RETURN_IF_FAILED();
        }
        CHECK(failures >= 8);
        snug_mesh_destroy(ctx, warm);
        snug_mesh_destroy(ctx, h);
        free(blob);
    }
    snug_ctx_destroy(ctx);
    test_mesh_free(&m);
}

int main(void) {
    RUN(test_round_trip_is_bit_exact);
    RUN(test_truncated_blobs_are_rejected);
    RUN(test_flipped_bytes_are_rejected);
    RUN(test_forged_blobs_fail_structure_checks);
    RUN(test_forged_volumes_are_rejected);
    RUN(test_foreign_data_is_rejected);
    RUN(test_out_of_memory_at_every_allocation_of_a_load);
    return harness_finish();
}
