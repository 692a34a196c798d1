/* Mesh-mesh overlap: first contact (early exit) and every intersecting triangle pair. Works in A's frame: B's
 * node BVs go through one relative transform, B's leaf triangles are transformed once per leaf pair. */
#include <math.h>
#include <string.h>

#include "query/traverse.h"
#include "geom/tri.h"

#define LEAF_MAX 255

typedef struct overlap_job {
    const snug_mesh_data* a;
    const snug_mesh_data* b;
    const snug_xform* rel;
    float eps;
    bool first_only;
    snug_tri_pair* pairs;
    uint32_t capacity;
    uint32_t total;
    uint64_t primitive_tests;
    uint32_t slot_a, slot_b;   /* slots of the first pair found */
    uint32_t leaf_b;           /* the B leaf vb and its boxes hold (SNUG_NONE: none yet) */
    float vb[LEAF_MAX * 3][3]; /* B's leaf triangles in A's frame */
    float lo_b[LEAF_MAX][3], hi_b[LEAF_MAX][3]; /* and their boxes */
} overlap_job;

static inline float min2(float a, float b) { return a < b ? a : b; }
static inline float max2(float a, float b) { return a > b ? a : b; }

/* Boxes farther apart than eps on some axis cannot hold a pair of triangles within eps. */
static inline bool boxes_apart(const float lo_a[3], const float hi_a[3], const float lo_b[3], const float hi_b[3],
                               float eps) {
    for (int c = 0; c < 3; c++)
        if (lo_b[c] - hi_a[c] > eps || lo_a[c] - hi_b[c] > eps) return true;
    return false;
}

/* B's leaf in A's frame, transformed once for all the A nodes met under it (the traversal expands A below a B leaf). */
static void load_leaf_b(overlap_job* job, uint32_t lb) {
    if (job->leaf_b == lb) return;
    job->leaf_b = lb;
    const snug_node* B = &job->b->bvh.nodes[lb];
    for (uint32_t j = 0; j < SNUG_NODE_COUNT(B->info); j++) {
        float(*t)[3] = &job->vb[3 * j];
        for (int c = 0; c < 3; c++) snug_xform_point(job->rel, snug_mesh_vertex(job->b, B->first + j, c), t[c]);
        for (int c = 0; c < 3; c++) {
            job->lo_b[j][c] = min2(min2(t[0][c], t[1][c]), t[2][c]);
            job->hi_b[j][c] = max2(max2(t[0][c], t[1][c]), t[2][c]);
        }
    }
}

/* A node whose box is apart from every triangle box of B's leaf holds no triangle that the leaf test below would
 * try against it (its triangles' boxes lie inside the node's), so skipping it changes nothing found. B's leaf box
 * is much looser than its triangles': the 4 triangles of a 36-triangle monitor span a box around most of a 48k
 * dragon standing next to it, whose 9,300 leaves each met that box and no triangle (an insert's 15 ms in wasm). */
static bool leaf_prune(void* user, uint32_t na, uint32_t lb) {
    overlap_job* job = user;
    load_leaf_b(job, lb);
    const snug_node* A = &job->a->bvh.nodes[na];
    for (uint32_t j = 0; j < SNUG_NODE_COUNT(job->b->bvh.nodes[lb].info); j++)
        if (!boxes_apart(A->min, A->max, job->lo_b[j], job->hi_b[j], job->eps)) return false;
    return true;
}

static bool leaf_pair(void* user, uint32_t la, uint32_t lb) {
    overlap_job* job = user;
    load_leaf_b(job, lb);
    const snug_node* A = &job->a->bvh.nodes[la];
    const snug_node* B = &job->b->bvh.nodes[lb];
    uint32_t na = SNUG_NODE_COUNT(A->info), nb = SNUG_NODE_COUNT(B->info);
    for (uint32_t i = 0; i < na; i++) {
        uint32_t sa = A->first + i;
        const float* ta[3] = {snug_mesh_vertex(job->a, sa, 0), snug_mesh_vertex(job->a, sa, 1),
                              snug_mesh_vertex(job->a, sa, 2)};
        float lo[3], hi[3];
        for (int c = 0; c < 3; c++) {
            lo[c] = min2(min2(ta[0][c], ta[1][c]), ta[2][c]);
            hi[c] = max2(max2(ta[0][c], ta[1][c]), ta[2][c]);
        }
        for (uint32_t j = 0; j < nb; j++) {
            if (boxes_apart(lo, hi, job->lo_b[j], job->hi_b[j], job->eps)) continue;
            const float* tb[3] = {job->vb[3 * j], job->vb[3 * j + 1], job->vb[3 * j + 2]};
            job->primitive_tests++;
            if (!snug_tri_tri_overlap(ta[0], ta[1], ta[2], tb[0], tb[1], tb[2], job->eps)) continue;
            if (job->total == 0) {
                job->slot_a = sa;
                job->slot_b = B->first + j;
            }
            if (job->total < job->capacity) {
                job->pairs[job->total].tri_a = job->a->tri_ids[sa];
                job->pairs[job->total].tri_b = job->b->tri_ids[B->first + j];
            }
            job->total++;
            if (job->first_only) return true;
        }
    }
    return false;
}

static snug_status run_overlap(snug_ctx* ctx, const snug_mesh_data* ma, const snug_mesh_data* mb,
                               const snug_xform* rel, overlap_job* job, bool* stopped) {
    job->a = ma;
    job->b = mb;
    job->rel = rel;
    job->eps = max2(ma->tolerance, mb->tolerance);
    job->leaf_b = SNUG_NONE;
    snug_pair_query q = {&ma->bvh, &mb->bvh, *rel, snug_traverse_margin(job->eps, ma->scale, mb->scale, rel),
                         ctx->traversal, leaf_pair, leaf_prune, job};
    snug_status st = snug_traverse_overlap(ctx, &q, stopped);
    ctx->stats.primitive_tests += job->primitive_tests;
    return st;
}

snug_status snug_overlap_witness(snug_ctx* ctx, const snug_mesh_data* ma, const snug_mesh_data* mb,
                                 const snug_xform* rel, bool* hit, uint32_t* slot_a, uint32_t* slot_b) {
    overlap_job job;
    snug_tri_pair witness;
    job.first_only = true;
    job.pairs = &witness;
    job.capacity = 1;
    job.total = 0;
    job.primitive_tests = 0;
    bool stopped;
    snug_status st = run_overlap(ctx, ma, mb, rel, &job, &stopped);
    *hit = job.total > 0;
    *slot_a = job.slot_a;
    *slot_b = job.slot_b;
    return st;
}

bool snug_overlap_pair(const snug_mesh_data* ma, const snug_mesh_data* mb, const snug_xform* rel, uint32_t slot_a,
                       uint32_t slot_b) {
    if (slot_a >= ma->tri_count || slot_b >= mb->tri_count) return false;
    float tb[3][3];
    for (int c = 0; c < 3; c++) snug_xform_point(rel, snug_mesh_vertex(mb, slot_b, c), tb[c]);
    const float* ta[3] = {snug_mesh_vertex(ma, slot_a, 0), snug_mesh_vertex(ma, slot_a, 1), snug_mesh_vertex(ma, slot_a, 2)};
    return snug_tri_tri_overlap(ta[0], ta[1], ta[2], tb[0], tb[1], tb[2], max2(ma->tolerance, mb->tolerance));
}

snug_status snug_mesh_overlap(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                               const snug_pose* pose_b, bool* hit, snug_tri_pair* pair) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!hit) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "hit is NULL");
    snug_mesh_data *ma, *mb;
    snug_xform rel;
    snug_status st = snug_query_begin_pair(ctx, a, pose_a, b, pose_b, &ma, &mb, &rel);
    if (st != SNUG_OK) return st;
    bool found;
    uint32_t sa, sb;
    st = snug_overlap_witness(ctx, ma, mb, &rel, &found, &sa, &sb);
    if (st != SNUG_OK) return st;
    *hit = found;
    if (pair) {
        pair->tri_a = found ? ma->tri_ids[sa] : SNUG_NO_HIT;
        pair->tri_b = found ? mb->tri_ids[sb] : SNUG_NO_HIT;
    }
    return snug_succeed(ctx);
}

snug_status snug_mesh_overlap_all(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                                   const snug_pose* pose_b, snug_tri_pair* pairs, uint32_t capacity, uint32_t* total) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!total) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "total is NULL");
    if (!pairs && capacity > 0) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "pairs is NULL with capacity %u", capacity);
    snug_mesh_data *ma, *mb;
    snug_xform rel;
    snug_status st = snug_query_begin_pair(ctx, a, pose_a, b, pose_b, &ma, &mb, &rel);
    if (st != SNUG_OK) return st;
    overlap_job job;
    job.first_only = false;
    job.pairs = pairs;
    job.capacity = capacity;
    job.total = 0;
    job.primitive_tests = 0;
    bool stopped;
    st = run_overlap(ctx, ma, mb, &rel, &job, &stopped);
    if (st != SNUG_OK) return st;
    *total = job.total;
    if (job.total > capacity)
        return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "%u intersecting pairs, room for %u", job.total, capacity);
    return snug_succeed(ctx);
}
