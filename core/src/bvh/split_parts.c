/* Helpers shared by the splitters: partition by label, part bounds, face midpoints and distances, the
 * Table 3.1 seed points, Voronoi assignment, and node quality (BV fit x measure). */
#include "bvh/split.h"

#include <math.h>
#include <string.h>

snug_split_fn snug_splitter_fn(snug_splitter splitter) {
    switch (splitter) {
    case SNUG_SPLITTER_MEDIAN: return snug_split_median;
    case SNUG_SPLITTER_SAH: return snug_split_sah;
    case SNUG_SPLITTER_GOTTSCHALK: return snug_split_gottschalk;
    case SNUG_SPLITTER_ZACHMANN: return snug_split_zachmann;
    case SNUG_SPLITTER_KCENTER: return snug_split_kcenter;
    case SNUG_SPLITTER_KMEANS: return snug_split_kmeans;
    case SNUG_SPLITTER_GREEDY: return snug_split_greedy;
    default: return snug_split_bb;
    }
}

void snug_prims_bounds(const snug_prim* prims, uint32_t count, snug_aabb* out) {
    glm_vec3_broadcast(INFINITY, out->min);
    glm_vec3_broadcast(-INFINITY, out->max);
    for (uint32_t k = 0; k < count; k++) {
        glm_vec3_minv(out->min, (float*)prims[k].min, out->min);
        glm_vec3_maxv(out->max, (float*)prims[k].max, out->max);
    }
}

int snug_split_by_label(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                        snug_aabb* boxes) {
    uint32_t counts[SNUG_MAX_BRANCHING] = {0}, at[SNUG_MAX_BRANCHING];
    for (uint32_t k = 0; k < count; k++) counts[prims[k].label]++;
    int parts = 0;
    uint32_t offset = 0;
    for (int p = 0; p < degree; p++) {
        at[p] = offset;
        offset += counts[p];
        if (counts[p]) parts++;
    }
    if (parts < 2) return parts;
    for (uint32_t k = 0; k < count; k++) in->tmp[at[prims[k].label]++] = prims[k];
    memcpy(prims, in->tmp, count * sizeof *prims);
    int out = 0;
    offset = 0;
    for (int p = 0; p < degree; p++) {
        if (!counts[p]) continue;
        sizes[out] = counts[p];
        snug_prims_bounds(prims + offset, counts[p], &boxes[out]);
        offset += counts[p];
        out++;
    }
    return out;
}

void snug_split_mid(const snug_split_in* in, uint32_t id, vec3 out) {
    const uint32_t* t = in->tris + 3 * id;
    glm_vec3_add((float*)in->positions + 3 * t[0], (float*)in->positions + 3 * t[1], out);
    glm_vec3_add(out, (float*)in->positions + 3 * t[2], out);
    glm_vec3_scale(out, 1.0f / 3.0f, out);
}

float snug_split_face_dist(const snug_split_in* in, uint32_t id, const vec3 c) {
    const uint32_t* t = in->tris + 3 * id;
    float d = 0.0f;
    for (int k = 0; k < 3; k++) d = fmaxf(d, glm_vec3_distance2((float*)in->positions + 3 * t[k], (float*)c));
    return sqrtf(d);
}

void snug_split_seed_points(const vec3 c, const mat3 axes, const vec3 r, int d, vec3* out) {
    /* a = half the longest axis, b = half the second longest, as vectors (Table 3.1) */
    int i1 = 0, i2 = 1;
    if (r[1] > r[i1]) i1 = 1;
    if (r[2] > r[i1]) i1 = 2;
    i2 = i1 == 0 ? 1 : 0;
    for (int k = 0; k < 3; k++)
        if (k != i1 && r[k] > r[i2]) i2 = k;
    vec3 a, b;
    glm_vec3_scale((float*)axes[i1], r[i1], a);
    glm_vec3_scale((float*)axes[i2], r[i2], b);
    /* offsets in units of (a, b) */
    static const float table[7][6][2] = {
        {{0}}, {{0}},
        {{-0.5f, 0}, {0.5f, 0}},
        {{-2.0f / 3, 0}, {0, 0}, {2.0f / 3, 0}},
        {{-0.5f, -0.5f}, {-0.5f, 0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}},
        {{-0.5f, -0.5f}, {-0.5f, 0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {0, 0}},
        {{-2.0f / 3, -0.5f}, {0, -0.5f}, {2.0f / 3, -0.5f}, {-2.0f / 3, 0.5f}, {0, 0.5f}, {2.0f / 3, 0.5f}},
    };
    for (int k = 0; k < d; k++) {
        glm_vec3_copy((float*)c, out[k]);
        glm_vec3_muladds(a, table[d][k][0], out[k]);
        glm_vec3_muladds(b, table[d][k][1], out[k]);
    }
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

int snug_split_voronoi(snug_split_in* in, snug_prim* prims, uint32_t count, const vec3* seeds, int degree,
                       uint32_t* sizes, snug_aabb* boxes) {
    for (uint32_t k = 0; k < count; k++) {
        vec3 m;
        snug_split_mid(in, prims[k].id, m);
        int best = 0;
        float bd = glm_vec3_distance2(m, (float*)seeds[0]);
        for (int j = 1; j < degree; j++) {
            float dj = glm_vec3_distance2(m, (float*)seeds[j]);
            if (dj < bd) {
                bd = dj;
                best = j;
            }
        }
        prims[k].label = (uint32_t)best;
    }
    return snug_split_by_label(in, prims, count, degree, sizes, boxes);
}

uint32_t snug_split_random(snug_split_in* in, uint32_t n) {
    in->rng ^= in->rng << 13;
    in->rng ^= in->rng >> 7;
    in->rng ^= in->rng << 17;
    return (uint32_t)((in->rng >> 11) % n);
}

static double fit_one(snug_split_in* in, const snug_tri_set* set, const snug_prim* prims, uint32_t count,
                      snug_bv_type type, snug_bv_any* bv) {
    switch (type) {
    case SNUG_BV_AABB: snug_prims_bounds(prims, count, &bv->aabb); break;
    case SNUG_BV_SPHERE: snug_sphere_fit(set, &bv->sphere); break;
    case SNUG_BV_OBB: snug_obb_fit(set, in->def->obb_refine, &bv->obb); break;
    default: snug_kdop_fit(set, type, &bv->kdop); break;
    }
    if (in->def->measure == SNUG_MEASURE_HAUSDORFF) return snug_hausdorff_set(type, bv, set, 0.1, NULL);
    if (type == SNUG_BV_AABB) return snug_split_aabb_measure(&bv->aabb, in->def->measure);
    return snug_bv_measure(type, bv, in->def->measure);
}

double snug_split_fit(snug_split_in* in, const snug_prim* prims, uint32_t count, snug_bv_type type,
                      snug_bv_any* bv, snug_bv_type* chosen) {
    snug_tri_set set = {in->positions, in->tris, in->ids, 0, count};
    if (type != SNUG_BV_AABB || in->def->measure == SNUG_MEASURE_HAUSDORFF)
        for (uint32_t k = 0; k < count; k++) in->ids[k] = prims[k].id;
    if (type != SNUG_BV_MIXED) {
        *chosen = type;
        return fit_one(in, &set, prims, count, type, bv);
    }
    double best = INFINITY;
    for (int t = 0; t < SNUG_BV_TYPE_COUNT; t++) {
        snug_bv_any cand;
        double g = fit_one(in, &set, prims, count, (snug_bv_type)t, &cand) * snug_bv_test_cost((snug_bv_type)t);
        if (g < best || t == 0) {
            best = g;
            *bv = cand;
            *chosen = (snug_bv_type)t;
        }
    }
    return best;
}
