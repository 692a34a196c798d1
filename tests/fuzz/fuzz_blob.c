/* Fuzz target: loading mesh blobs.
 *
 * The first byte picks how the rest becomes a blob:
 *  0: as it is (foreign, truncated and corrupted data);
 *  1: sealed: the size field set to the data's size and the checksum recomputed, so the structural checks are
 *     reached (the checksum is a documented hash, anyone can reseal a blob);
 *  2: built: a small mesh with fuzzed settings is serialized, a few of its words are overwritten with fuzzed values,
 *     and the result is sealed, so the checks of every field of a well-formed blob are reached.
 * A blob that loads must serialize back to the same bytes, and answer like a mesh built from the same triangles
 * with the same settings: overlap, distance, rays and closest points at fuzzed poses (the hierarchy may differ, the
 * answers may not). A blob that does not load leaves no memory behind. */
#include "fuzz_input.h"
#include "bvh/mesh.h"

#define MAX_BLOB 65536

/* The documented checksum (blob.c): a 64-bit multiply-xor over every 32-bit word but the checksum's own two. */
static void seal(unsigned char* b, size_t size) {
    if (size < 64) return;
    uint64_t total = size;
    memcpy(b + 16, &total, 8);
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t at = 0; at + 4 <= size; at += 4) {
        if (at == 24 || at == 28) continue;
        uint32_t w;
        memcpy(&w, b + at, 4);
        h = (h ^ w) * 0x100000001b3ull;
    }
    memcpy(b + 24, &h, 8);
}

/* A small mesh from the input, serialized into out (NULL when it cannot be built). */
static size_t build_blob(fz* f, snug_ctx* ctx, unsigned char* out) {
    float positions[3 * 12];
    uint32_t indices[3 * 10];
    uint32_t nv = 3 + fz_below(f, 10), nt = 1 + fz_below(f, 10);
    for (uint32_t i = 0; i < 3 * nv; i++) positions[i] = (float)(int8_t)fz_u8(f) * 0.25f;
    for (uint32_t i = 0; i < 3 * nt; i++) indices[i] = fz_below(f, nv);
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = positions;
    def.vertex_count = nv;
    def.indices = indices;
    def.triangle_count = nt;
    /* mixed trees and Hausdorff bounds are the slow builds: now and then */
    uint8_t type = fz_u8(f);
    def.bvh.bv_type = type < 240 ? (snug_bv_type)(type % SNUG_BV_TYPE_COUNT) : SNUG_BV_MIXED;
    def.bvh.splitter = (snug_splitter)fz_below(f, SNUG_SPLITTER_COUNT);
    def.bvh.branching = (int)fz_below(f, 7);
    if (def.bvh.branching == 1) def.bvh.branching = 2;
    def.bvh.leaf_size = 1 + (int)fz_below(f, 4);
    def.bvh.hausdorff = fz_u8(f) < 32 && def.bvh.bv_type <= SNUG_BV_OBB;
    def.bvh.obb_refine = fz_bool(f);
    snug_mesh h;
    if (snug_mesh_create(ctx, &def, &h) != SNUG_OK) return 0;
    size_t size = 0;
    snug_status st = snug_mesh_serialize(ctx, h, out, MAX_BLOB, &size);
    snug_mesh_destroy(ctx, h);
    return st == SNUG_OK ? size : 0;
}

/* The loaded mesh against one built from its triangles (slot order) with its settings. */
static void compare_with_rebuilt(fz* f, snug_ctx* ctx, snug_mesh loaded) {
    const snug_mesh_data* m = snug_mesh_lookup(ctx, loaded);
    FZ_CHECK(m, "lookup");
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = m->positions;
    def.vertex_count = m->vertex_count;
    def.indices = m->tris;
    def.triangle_count = m->tri_count;
    def.bvh = m->bvh.def;
    snug_mesh rebuilt;
    snug_status st = snug_mesh_create(ctx, &def, &rebuilt);
    FZ_CHECK(st == SNUG_OK, "a loaded mesh's triangles and settings do not build: %s", snug_ctx_last_error(ctx));
    snug_mesh_info a, b;
    FZ_CHECK(snug_mesh_get_info(ctx, loaded, &a) == SNUG_OK && snug_mesh_get_info(ctx, rebuilt, &b) == SNUG_OK, "info");
    FZ_CHECK(a.triangle_count == b.triangle_count && a.degenerate_count == b.degenerate_count && a.scale == b.scale &&
                 a.closed == b.closed,
             "loaded and rebuilt meshes differ in their data");
    /* ids: triangle id k of the loaded mesh is slot s with tri_ids[s] = k; of the rebuilt one, triangle s */
    {
        snug_pose pa = fz_pose(f), pb = fz_pose(f);
        bool ha = false, hb = false;
        snug_status sa = snug_mesh_overlap(ctx, loaded, &pa, loaded, &pb, &ha, NULL);
        snug_status sb = snug_mesh_overlap(ctx, rebuilt, &pa, rebuilt, &pb, &hb, NULL);
        FZ_CHECK(sa == sb, "overlap status %s vs %s", snug_status_name(sa), snug_status_name(sb));
        if (sa != SNUG_OK) {
            FZ_CHECK(snug_mesh_destroy(ctx, rebuilt) == SNUG_OK, "destroy");
            return;
        }
        FZ_CHECK(ha == hb, "overlap: loaded %d, rebuilt %d", ha, hb);
        snug_distance_result da, db;
        FZ_CHECK(snug_mesh_distance(ctx, loaded, &pa, loaded, &pb, &da) == SNUG_OK, "distance");
        FZ_CHECK(snug_mesh_distance(ctx, rebuilt, &pa, rebuilt, &pb, &db) == SNUG_OK, "distance");
        float slack = 1e-5f * (a.scale + fabsf(pb.p[0] - pa.p[0]) + fabsf(pb.p[1] - pa.p[1]) + fabsf(pb.p[2] - pa.p[2]) +
                               da.distance) + 2.0f * a.tolerance;
        FZ_CHECK(fabsf(da.distance - db.distance) <= slack, "distance: loaded %.9g, rebuilt %.9g", (double)da.distance,
                 (double)db.distance);
        snug_ray ray;
        for (int i = 0; i < 3; i++) ray.origin[i] = fz_float(f), ray.dir[i] = fz_float(f);
        ray.tmax = INFINITY;
        snug_ray_hit ra, rb;
        sa = snug_mesh_raycast(ctx, loaded, &pa, &ray, &ra);
        sb = snug_mesh_raycast(ctx, rebuilt, &pa, &ray, &rb);
        FZ_CHECK(sa == sb, "raycast status %s vs %s", snug_status_name(sa), snug_status_name(sb));
        if (sa == SNUG_OK) {
            FZ_CHECK((ra.tri == SNUG_NO_HIT) == (rb.tri == SNUG_NO_HIT) && (ra.tri == SNUG_NO_HIT || ra.t == rb.t),
                     "raycast: loaded %u at %g, rebuilt %u at %g", ra.tri, (double)ra.t, rb.tri, (double)rb.t);
        }
        float p[3];
        for (int i = 0; i < 3; i++) p[i] = fz_float(f);
        snug_point_result qa, qb;
        sa = snug_mesh_closest_point(ctx, loaded, &pa, p, INFINITY, &qa);
        sb = snug_mesh_closest_point(ctx, rebuilt, &pa, p, INFINITY, &qb);
        FZ_CHECK(sa == sb, "closest point status %s vs %s", snug_status_name(sa), snug_status_name(sb));
        if (sa == SNUG_OK) FZ_CHECK(qa.distance == qb.distance, "closest point: loaded %.9g, rebuilt %.9g",
                                    (double)qa.distance, (double)qb.distance);
    }
    FZ_CHECK(snug_mesh_destroy(ctx, rebuilt) == SNUG_OK, "destroy");
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static unsigned char blob[MAX_BLOB], again[MAX_BLOB];
    fz in = {data, size, 0};
    fz* f = &in;
    snug_ctx* ctx = snug_ctx_create(NULL);
    FZ_CHECK(ctx, "context");
    uint8_t mode = fz_u8(f) % 3;
    size_t n = 0;
    if (mode < 2) {
        n = in.n < MAX_BLOB ? in.n : MAX_BLOB;
        memcpy(blob, in.p, n);
        in.p += n, in.n -= n;
        if (mode == 1) {
            n &= ~(size_t)3;
            seal(blob, n);
        }
    } else {
        n = build_blob(f, ctx, blob);
        for (int k = 0, edits = (int)fz_below(f, 4); k < edits && n >= 4; k++) {
            uint32_t at = 4 * fz_below(f, (uint32_t)(n / 4)), w;
            if (fz_bool(f)) w = fz_u32(f);
            else {
                float v = fz_float(f);
                memcpy(&w, &v, 4);
            }
            memcpy(blob + at, &w, 4);
        }
        seal(blob, n);
    }
    size_t base = snug_ctx_allocated_bytes(ctx);
    snug_mesh loaded = 0;
    snug_status st = snug_mesh_deserialize(ctx, blob, n, &loaded);
    fz_check_status(ctx, st, "mesh_deserialize");
    if (st != SNUG_OK) {
        FZ_CHECK(st == SNUG_ERR_BLOB_FOREIGN || st == SNUG_ERR_BLOB_TRUNCATED || st == SNUG_ERR_BLOB_VERSION ||
                     st == SNUG_ERR_BLOB_CORRUPT,
                 "load failed with %s", snug_status_name(st));
        FZ_CHECK(snug_ctx_allocated_bytes(ctx) == base, "a failed load left memory behind");
        snug_ctx_destroy(ctx);
        return 0;
    }
    size_t size2 = 0;
    FZ_CHECK(snug_mesh_serialize(ctx, loaded, again, MAX_BLOB, &size2) == SNUG_OK && size2 == n &&
                 memcmp(blob, again, n) == 0,
             "a loaded blob does not serialize to its own bytes");
    compare_with_rebuilt(f, ctx, loaded);
    snug_ctx_destroy(ctx);
    return 0;
}
