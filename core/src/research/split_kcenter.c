/* Modified Hochbaum-Shmoys greedy k-center (seed 000 §3.7.2, Fig. 3.6): the first centre is the vertex
 * farthest from the centre of the node's bounding sphere, each further centre the vertex farthest from all
 * centres so far; a face moves to a new centre when its distance D(c, f) (largest vertex distance) drops. */
#include "research/research.h"

#include <math.h>

static float vertex_gap(const snug_split_in* in, uint32_t v, const vec3* centres, int n) {
    float best = INFINITY;
    for (int j = 0; j < n; j++) best = fminf(best, glm_vec3_distance2((float*)in->positions + 3 * v, (float*)centres[j]));
    return best;
}

int snug_split_kcenter(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                       snug_aabb* boxes) {
    if (count < 2) return 0;
    for (uint32_t k = 0; k < count; k++) in->ids[k] = prims[k].id;
    snug_tri_set set = {in->positions, in->tris, in->ids, 0, count};
    snug_sphere ball;
    snug_sphere_fit(&set, &ball);
    vec3 centres[SNUG_MAX_BRANCHING];
    /* c_1: the vertex farthest from the sphere centre */
    float far = -1.0f;
    for (uint32_t k = 0; k < count; k++)
        for (int c = 0; c < 3; c++) {
            const float* v = in->positions + 3 * in->tris[3 * prims[k].id + c];
            float d = glm_vec3_distance2((float*)v, ball.c);
            if (d > far) {
                far = d;
                glm_vec3_copy((float*)v, centres[0]);
            }
        }
    float* dist = in->dist;
    for (uint32_t k = 0; k < count; k++) {
        dist[k] = snug_split_face_dist(in, prims[k].id, centres[0]);
        prims[k].label = 0;
    }
    for (int i = 1; i < degree; i++) {
        far = -1.0f;
        for (uint32_t k = 0; k < count; k++)
            for (int c = 0; c < 3; c++) {
                uint32_t v = in->tris[3 * prims[k].id + c];
                float g = vertex_gap(in, v, centres, i);
                if (g > far) {
                    far = g;
                    glm_vec3_copy((float*)in->positions + 3 * v, centres[i]);
                }
            }
        for (uint32_t k = 0; k < count; k++) {
            float d = snug_split_face_dist(in, prims[k].id, centres[i]);
            if (d < dist[k]) {
                dist[k] = d;
                prims[k].label = (uint32_t)i;
            }
        }
    }
    return snug_split_by_label(in, prims, count, degree, sizes, boxes);
}
