/* Shared pieces of the query tests (header-only, static): making meshes of a given BV type, random poses,
 * and the mesh pools the differential tests draw from. */
#ifndef SNUG_QUERY_SUPPORT_H
#define SNUG_QUERY_SUPPORT_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "base/pose.h"
#include "snug.h"
#include "test_meshes.h"

/* Sanitizer builds run the big-mesh cases at a reduced count (they are 10-20x slower there). */
#if defined(__SANITIZE_ADDRESS__)
#define QS_SANITIZED 1
#else
#define QS_SANITIZED 0
#endif

/* The centre and half diagonal of a mesh's vertex box (its box's bounding sphere, as tests/bench/timing.h's
 * bench_box_sphere places the bench's meshes). */
static inline void qs_box_sphere(const test_mesh* m, double c[3], double* r) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, d2 = 0.0;
    for (uint32_t v = 0; v < m->vertex_count; v++)
        for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], m->positions[3 * v + k]), hi[k] = fmax(hi[k], m->positions[3 * v + k]);
    for (int k = 0; k < 3; k++) c[k] = 0.5 * (lo[k] + hi[k]), d2 += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    *r = 0.5 * sqrt(d2);
}

/* Make a mesh without welding (so its triangles are exactly the input's) with the given BV type. Returns 0 when
 * the type cannot be built (yet). */
static inline snug_mesh qs_make_ex(snug_ctx* ctx, const test_mesh* m, snug_bv_type type, bool hausdorff) {
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = m->positions;
    def.vertex_count = m->vertex_count;
    def.indices = m->indices;
    def.triangle_count = m->triangle_count;
    def.weld = false;
    def.bvh.bv_type = type;
    def.bvh.hausdorff = hausdorff;
    snug_mesh h = 0;
    if (snug_mesh_create(ctx, &def, &h) != SNUG_OK) return 0;
    return h;
}

static inline snug_mesh qs_make(snug_ctx* ctx, const test_mesh* m, snug_bv_type type) { return qs_make_ex(ctx, m, type, false); }

static inline float qs_scale(snug_ctx* ctx, snug_mesh h) {
    snug_mesh_info info;
    snug_mesh_get_info(ctx, h, &info);
    return info.scale;
}

static inline float qs_tolerance(snug_ctx* ctx, snug_mesh h) {
    snug_mesh_info info;
    snug_mesh_get_info(ctx, h, &info);
    return info.tolerance;
}

static inline snug_pose qs_random_pose(rng* r, float spread) {
    snug_pose p;
    rng_unit_quat(r, p.q);
    for (int i = 0; i < 3; i++) p.p[i] = rng_range(r, -spread, spread);
    return p;
}

/* Vertex c of triangle t of a test mesh. */
static inline const float* qs_vertex(const test_mesh* m, uint32_t t, int c) {
    return m->positions + 3 * (m->indices ? m->indices[3 * t + (uint32_t)c] : 3 * t + (uint32_t)c);
}

/* A thin mesh: a soup flattened to a slab of thickness 1e-4 of its size. */
static inline void qs_thin_soup(rng* r, uint32_t n, test_mesh* out) {
    test_mesh_soup(r, n, 1.0f, 0.6f, out);
    for (uint32_t v = 0; v < out->vertex_count; v++) out->positions[3 * v + 2] *= 1e-4f;
}

/* A soup where a share of the triangles are degenerate (repeated vertex or collinear). */
static inline void qs_degenerate_soup(rng* r, uint32_t n, test_mesh* out) {
    test_mesh_soup(r, n, 1.0f, 0.5f, out);
    for (uint32_t t = 0; t < out->triangle_count; t += 3) {
        uint32_t i0 = out->indices ? out->indices[3 * t] : 3 * t, i2 = out->indices ? out->indices[3 * t + 2] : 3 * t + 2;
        uint32_t i1 = out->indices ? out->indices[3 * t + 1] : 3 * t + 1;
        for (int c = 0; c < 3; c++) {
            if (t % 2) out->positions[3 * i2 + c] = out->positions[3 * i0 + c];
            else out->positions[3 * i2 + c] = 2.0f * out->positions[3 * i1 + c] - out->positions[3 * i0 + c];
        }
    }
}

#define QS_POOL 12

/* The small meshes of the differential tests: soups, thin and degenerate soups, closed procedural shapes. */
static inline void qs_small_pool(rng* r, test_mesh pool[QS_POOL]) {
    test_mesh_soup(r, 20, 1.0f, 0.5f, &pool[0]);
    test_mesh_soup(r, 40, 1.0f, 0.35f, &pool[1]);
    test_mesh_soup(r, 100, 1.0f, 0.15f, &pool[2]);
    qs_thin_soup(r, 30, &pool[3]);
    qs_degenerate_soup(r, 30, &pool[4]);
    test_mesh_sphere(0.8f, 4, 6, &pool[5]);
    test_mesh_torus(0.7f, 0.25f, 6, 4, &pool[6]);
    test_mesh_box(0.5f, 0.3f, 0.7f, &pool[7]);
    test_mesh_torus_knot(0.6f, 0.15f, 10, 3, 2, 3, &pool[8]);
    test_mesh_box(1.0f, 1.0f, 1e-3f, &pool[9]);
    test_mesh_sphere(0.3f, 4, 5, &pool[10]);
    qs_degenerate_soup(r, 12, &pool[11]);
}

static inline void qs_free_pool(test_mesh* pool, int n) {
    for (int i = 0; i < n; i++) test_mesh_free(&pool[i]);
}

/* BV types the builder supports right now (a type that fails to build is skipped, and reported). */
static inline int qs_bv_types(snug_ctx* ctx, snug_bv_type types[SNUG_BV_TYPE_COUNT + 1]) {
    test_mesh box;
    test_mesh_box(1, 1, 1, &box);
    int n = 0;
    for (int t = 0; t <= SNUG_BV_MIXED; t++) {
        snug_mesh h = qs_make(ctx, &box, (snug_bv_type)t);
        snug_mesh_info info;
        if (h && snug_mesh_get_info(ctx, h, &info) == SNUG_OK && info.bv_type == (snug_bv_type)t) types[n++] = (snug_bv_type)t;
        if (h) snug_mesh_destroy(ctx, h);
    }
    test_mesh_free(&box);
    return n;
}

#endif
