/* Heuristic without intermediate optimisation (seed 000 §3.7.3, Fig. 3.7 with the midpoint fix): farthest-face
 * seeding, and after each new centre Lloyd iterations that move every centre to the mean midpoint of its part.
 * D(c, f) is the largest vertex distance, as in §3.7.2. Empty parts keep their centre; iterations are capped
 * because ties can make assignments oscillate. */
#include "research/research.h"

#include <math.h>
#include <string.h>

#define LLOYD_MAX_ITERATIONS 8

int snug_split_kmeans(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                      snug_aabb* boxes) {
    if (count < 2) return 0;
    float* dist = in->dist;
    vec3 centres[SNUG_MAX_BRANCHING];
    glm_vec3_zero(centres[0]);
    for (uint32_t k = 0; k < count; k++) {
        vec3 m;
        snug_split_mid(in, prims[k].id, m);
        glm_vec3_add(centres[0], m, centres[0]);
    }
    glm_vec3_scale(centres[0], 1.0f / (float)count, centres[0]);
    for (uint32_t k = 0; k < count; k++) {
        dist[k] = snug_split_face_dist(in, prims[k].id, centres[0]);
        prims[k].label = 0;
    }
    for (int i = 1; i < degree; i++) {
        uint32_t far = 0;
        for (uint32_t k = 1; k < count; k++)
            if (dist[k] > dist[far]) far = k;
        snug_split_mid(in, prims[far].id, centres[i]);
        bool changed = false;
        for (uint32_t k = 0; k < count; k++) {
            float d = snug_split_face_dist(in, prims[k].id, centres[i]);
            if (d < dist[k]) {
                dist[k] = d;
                prims[k].label = (uint32_t)i;
                changed = true;
            }
        }
        for (int it = 0; changed && it < LLOYD_MAX_ITERATIONS; it++) {
            changed = false;
            vec3 sum[SNUG_MAX_BRANCHING];
            uint32_t n[SNUG_MAX_BRANCHING] = {0};
            memset(sum, 0, sizeof sum);
            for (uint32_t k = 0; k < count; k++) {
                vec3 m;
                snug_split_mid(in, prims[k].id, m);
                glm_vec3_add(sum[prims[k].label], m, sum[prims[k].label]);
                n[prims[k].label]++;
            }
            for (int j = 0; j <= i; j++)
                if (n[j]) glm_vec3_scale(sum[j], 1.0f / (float)n[j], centres[j]);
            for (uint32_t k = 0; k < count; k++) {
                uint32_t own = prims[k].label;
                dist[k] = snug_split_face_dist(in, prims[k].id, centres[own]);
                for (int j = 0; j <= i; j++) {
                    float d = snug_split_face_dist(in, prims[k].id, centres[j]);
                    if (d < dist[k]) {
                        dist[k] = d;
                        prims[k].label = (uint32_t)j;
                        changed = true;
                    }
                }
            }
        }
    }
    return snug_split_by_label(in, prims, count, degree, sizes, boxes);
}
