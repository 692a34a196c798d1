#include "test_brute.h"

#include <math.h>
#include <stdlib.h>

#include "base/pose.h"
#include "geom/tri.h"

void test_world_tris(const test_mesh* m, const snug_pose* pose, float* out) {
    snug_xform x;
    snug_xform_from_pose(pose, &x);
    for (uint32_t t = 0; t < m->triangle_count; t++)
        for (int c = 0; c < 3; c++) snug_xform_point(&x, m->positions + 3 * m->indices[3 * t + c], out + 9 * t + 3 * c);
}

bool test_brute_overlap(const test_mesh* a, const snug_pose* pa, const test_mesh* b, const snug_pose* pb, float eps) {
    float* wa = malloc(sizeof(float) * 9 * a->triangle_count);
    float* wb = malloc(sizeof(float) * 9 * b->triangle_count);
    test_world_tris(a, pa, wa);
    test_world_tris(b, pb, wb);
    bool hit = false;
    for (uint32_t i = 0; i < a->triangle_count && !hit; i++) {
        const float* A = wa + 9 * i;
        for (uint32_t j = 0; j < b->triangle_count && !hit; j++) {
            const float* B = wb + 9 * j;
            bool apart = false;
            for (int k = 0; k < 3 && !apart; k++) {
                float alo = fminf(A[k], fminf(A[3 + k], A[6 + k])), ahi = fmaxf(A[k], fmaxf(A[3 + k], A[6 + k]));
                float blo = fminf(B[k], fminf(B[3 + k], B[6 + k])), bhi = fmaxf(B[k], fmaxf(B[3 + k], B[6 + k]));
                apart = alo > bhi + eps || blo > ahi + eps;
            }
            if (!apart) hit = snug_tri_tri_overlap(A, A + 3, A + 6, B, B + 3, B + 6, eps);
        }
    }
    free(wa);
    free(wb);
    return hit;
}
