/* Brute-force references for differential tests: every triangle pair, boxes may reject, nothing smarter. */
#ifndef SNUG_TEST_BRUTE_H
#define SNUG_TEST_BRUTE_H

#include <stdbool.h>

#include "snug.h"
#include "test_meshes.h"

/* The triangles of m at pose in world space, 9 floats per triangle. */
void test_world_tris(const test_mesh* m, const snug_pose* pose, float* out);
/* Does any triangle of a at pa overlap (snug_tri_tri_overlap with eps) any triangle of b at pb? */
bool test_brute_overlap(const test_mesh* a, const snug_pose* pa, const test_mesh* b, const snug_pose* pb, float eps);

#endif
