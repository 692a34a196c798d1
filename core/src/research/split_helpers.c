/* Helpers only the research splitters share (research/research.h): face-to-centre distances, seed points in an
 * axis-aligned box, deterministic random choices. */
#include "research/research.h"

#include <math.h>

float snug_split_face_dist(const snug_split_in* in, uint32_t id, const vec3 c) {
    const uint32_t* t = in->tris + 3 * id;
    float d = 0.0f;
    for (int k = 0; k < 3; k++) d = fmaxf(d, glm_vec3_distance2((float*)in->positions + 3 * t[k], (float*)c));
    return sqrtf(d);
}

void snug_split_box_seed_points(const snug_aabb* box, int d, vec3* out) {
    vec3 c, r;
    glm_vec3_add((float*)box->min, (float*)box->max, c);
    glm_vec3_scale(c, 0.5f, c);
    glm_vec3_sub((float*)box->max, (float*)box->min, r);
    glm_vec3_scale(r, 0.5f, r);
    mat3 axes;
    glm_mat3_identity(axes);
    snug_split_seed_points(c, axes, r, d, out);
}

uint32_t snug_split_random(snug_split_in* in, uint32_t n) {
    in->rng ^= in->rng << 13;
    in->rng ^= in->rng >> 7;
    in->rng ^= in->rng << 17;
    return (uint32_t)((in->rng >> 11) % n);
}
