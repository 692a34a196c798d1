/* Branch-and-bound split (seed 000 §3.7.1, Fig. 3.4) for small nodes: minimise the node-set quality G (mean
 * AABB measure of the parts) over all partitions into exactly d non-empty parts. Depth-first; a face may only
 * open part i+1 after part i (label symmetry broken, up to d! fewer branches); the lower bound is G of the
 * partial parts (valid: boxes only grow, so volume, surface and diameter only grow; Hausdorff is not monotone
 * and uses surface). Far-from-centre faces branch first so bounds bite early. A node budget caps the work;
 * nodes above def->bb_max_faces go to the greedy-growth heuristic. */
#include "bvh/split.h"

#include <math.h>

#define BB_NODE_BUDGET 200000

typedef struct bb_state {
    const snug_prim* faces[24];
    uint32_t n;
    int d;
    snug_measure measure;
    snug_aabb part[SNUG_MAX_BRANCHING];
    double part_g[SNUG_MAX_BRANCHING];
    int label[24], best_label[24];
    double best;
    long budget;
} bb_state;

static void search(bb_state* s, uint32_t next, int opened, double sum) {
    if (--s->budget < 0) return;
    if (sum / s->d >= s->best) return;
    if ((int)(s->n - next) < s->d - opened) return; /* not enough faces left to fill every part */
    if (next == s->n) {
        s->best = sum / s->d;
        for (uint32_t k = 0; k < s->n; k++) s->best_label[k] = s->label[k];
        return;
    }
    const snug_prim* f = s->faces[next];
    int limit = opened < s->d ? opened + 1 : s->d;
    for (int i = 0; i < limit; i++) {
        snug_aabb saved = s->part[i];
        double saved_g = s->part_g[i];
        if (i == opened) {
            glm_vec3_copy((float*)f->min, s->part[i].min);
            glm_vec3_copy((float*)f->max, s->part[i].max);
        } else {
            glm_vec3_minv(s->part[i].min, (float*)f->min, s->part[i].min);
            glm_vec3_maxv(s->part[i].max, (float*)f->max, s->part[i].max);
        }
        s->part_g[i] = snug_split_aabb_measure(&s->part[i], s->measure);
        s->label[next] = i;
        search(s, next + 1, i == opened ? opened + 1 : opened, sum - (i == opened ? 0.0 : saved_g) + s->part_g[i]);
        s->part[i] = saved;
        s->part_g[i] = saved_g;
    }
}

int snug_split_bb(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                  snug_aabb* boxes) {
    if (count < 2) return 0;
    if (count > in->def->bb_max_faces || count > 24)
        return snug_split_greedy(in, prims, count, degree, sizes, boxes);
    if ((uint32_t)degree > count) degree = (int)count;
    bb_state s;
    s.n = count;
    s.d = degree;
    s.measure = in->def->measure == SNUG_MEASURE_HAUSDORFF ? SNUG_MEASURE_SURFACE : in->def->measure;
    s.best = INFINITY;
    s.budget = BB_NODE_BUDGET;
    /* branching order: decreasing distance of the box centre from the node centre */
    snug_aabb node;
    snug_prims_bounds(prims, count, &node);
    vec3 c;
    glm_vec3_add(node.min, node.max, c);
    float key[24];
    for (uint32_t k = 0; k < count; k++) {
        vec3 m;
        glm_vec3_add(prims[k].min, prims[k].max, m);
        key[k] = glm_vec3_distance2(m, c);
        s.faces[k] = &prims[k];
    }
    for (uint32_t k = 1; k < count; k++)
        for (uint32_t j = k; j > 0 && key[j] > key[j - 1]; j--) {
            float tk = key[j];
            key[j] = key[j - 1];
            key[j - 1] = tk;
            const snug_prim* tf = s.faces[j];
            s.faces[j] = s.faces[j - 1];
            s.faces[j - 1] = tf;
        }
    for (int i = 0; i < degree; i++) s.part_g[i] = 0.0;
    search(&s, 0, 0, 0.0);
    if (!(s.best < INFINITY)) return snug_split_greedy(in, prims, count, degree, sizes, boxes);
    uint32_t labels[24];
    for (uint32_t k = 0; k < count; k++) labels[s.faces[k] - prims] = (uint32_t)s.best_label[k];
    for (uint32_t k = 0; k < count; k++) prims[k].label = labels[k];
    return snug_split_by_label(in, prims, count, degree, sizes, boxes);
}
