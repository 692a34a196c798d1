/* Meshes for tests: the npm models exported by tests/meshes/export.mjs into build/meshes/<name>.bin
 * (bunny, teapot, dragon11k, dragon48k, dragon203k, dragon871k, torusknot10k), and procedural ones. */
#ifndef SNUG_TEST_MESHES_H
#define SNUG_TEST_MESHES_H

#include <stdint.h>
#include "harness.h"
#include "snug.h"

typedef struct test_mesh {
    float* positions;
    uint32_t* indices;
    uint32_t vertex_count;
    uint32_t triangle_count;
} test_mesh;

/* Load build/meshes/<name>.bin; returns 0 (after a CHECK failure naming the file) when missing. */
int test_mesh_load(const char* name, test_mesh* out);
void test_mesh_free(test_mesh* m);

/* The default mesh def over m's arrays, with *bvh when given. */
snug_mesh_def test_mesh_def(const test_mesh* m, const snug_bvh_def* bvh);
/* Create a snug mesh from m with the default def, or with *bvh when given; CHECKs that creation succeeds. */
snug_mesh test_mesh_make(snug_ctx* ctx, const test_mesh* m, const snug_bvh_def* bvh);

/* A box mesh of half extents hx, hy, hz made through test_mesh_make. */
snug_mesh test_box_make(snug_ctx* ctx, float hx, float hy, float hz);
/* The identity rotation at (x, y, z). */
snug_pose test_pose_at(float x, float y, float z);

/* n random triangles in a cube of half size `size` around the origin, edge lengths up to `tri_size`. */
void test_mesh_soup(rng* r, uint32_t n, float size, float tri_size, test_mesh* out);
/* Closed UV sphere / torus / box, useful for inside/outside and distance checks. */
void test_mesh_sphere(float radius, uint32_t rings, uint32_t segments, test_mesh* out);
void test_mesh_torus(float R, float r, uint32_t rings, uint32_t segments, test_mesh* out);
void test_mesh_box(float hx, float hy, float hz, test_mesh* out);
/* Torus knot (p, q) tube, like three.js TorusKnotGeometry: 2 * tubular * radial triangles. */
void test_mesh_torus_knot(float radius, float tube, uint32_t tubular, uint32_t radial, int p, int q, test_mesh* out);

#endif
