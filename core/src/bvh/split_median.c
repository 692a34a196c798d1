/* Longest-axis object median: d parts of equal count along the longest axis of the centroid bounds. It always
 * splits a node of two or more triangles, so the builder falls back to it when another splitter cannot. */
#include "bvh/split.h"

#include <math.h>

static inline float key(const snug_prim* p, int axis) { return p->min[axis] + p->max[axis]; }

/* Hoare-style quickselect: afterwards prims[k] has rank k and the elements before it are not greater. */
static void select_rank(snug_prim* prims, uint32_t count, uint32_t k, int axis) {
    uint32_t lo = 0, hi = count - 1;
    while (lo < hi) {
        float pivot = key(&prims[lo + (hi - lo) / 2], axis);
        uint32_t i = lo, j = hi;
        while (i <= j) {
            while (key(&prims[i], axis) < pivot) i++;
            while (key(&prims[j], axis) > pivot) j--;
            if (i <= j) {
                snug_prim t = prims[i];
                prims[i] = prims[j];
                prims[j] = t;
                i++;
                if (j == 0) break;
                j--;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else break;
    }
}

int snug_split_median(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                      snug_aabb* boxes) {
    (void)in;
    if (count < 2) return 0;
    if ((uint32_t)degree > count) degree = (int)count;
    vec3 lo, hi;
    glm_vec3_broadcast(INFINITY, lo);
    glm_vec3_broadcast(-INFINITY, hi);
    for (uint32_t k = 0; k < count; k++)
        for (int a = 0; a < 3; a++) {
            float c = key(&prims[k], a);
            lo[a] = fminf(lo[a], c);
            hi[a] = fmaxf(hi[a], c);
        }
    int axis = 0;
    float best = hi[0] - lo[0];
    for (int a = 1; a < 3; a++)
        if (hi[a] - lo[a] > best) {
            best = hi[a] - lo[a];
            axis = a;
        }
    uint32_t start = 0;
    for (int p = 0; p < degree; p++) {
        uint32_t end = (uint32_t)((uint64_t)count * (uint64_t)(p + 1) / (uint64_t)degree);
        if (p < degree - 1) select_rank(prims + start, count - start, end - start, axis);
        sizes[p] = end - start;
        snug_prims_bounds(prims + start, sizes[p], &boxes[p]);
        start = end;
    }
    return degree;
}
