/* Binned surface-area heuristic on the longest centroid axis (centroid = box centre). One pass bins the
 * records, a sweep picks the cheapest plane, a branch-free partition moves the records, and the child boxes
 * come from the bin boxes, so no pass over the records is repeated.
 * Degree d > 2: d - 1 binary splits, each of the part with the largest surface area. */
#include "bvh/split.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Four-lane min/max for the binning loops (simd.h): a record's min (max) and the word after it load as one
 * vector; the fourth lane is ignored. */
#include "base/simd.h"

/* A bin set covers a range of centroid sums (box min + max) along its longest axis. (The default binary AABB
 * build has its own quantized kernel in bvh_build_sah.c.) */
typedef struct sah_bins {
    int n, axis;
    float base, scale;
    uint32_t count[64];
    float min[64][4], max[64][4];   /* bin boxes (lanes 0..2) */
} sah_bins;

static double area(const float* mn, const float* mx) {
    double x = (double)mx[0] - mn[0], y = (double)mx[1] - mn[1], z = (double)mx[2] - mn[2];
    return x * y + y * z + z * x;
}

static inline float fmin_(float a, float b) { return a < b ? a : b; }
static inline float fmax_(float a, float b) { return a > b ? a : b; }

static void centroid_bounds(const snug_prim* prims, uint32_t count, snug_aabb* out) {
    f4 lo = F4_SET1(FLT_MAX), hi = F4_SET1(-FLT_MAX);
    for (uint32_t k = 0; k < count; k++) {
        f4 c = F4_ADD(F4_LOAD(prims[k].min), F4_LOAD(prims[k].max));
        lo = F4_MIN(lo, c);
        hi = F4_MAX(hi, c);
    }
    float l[4], h[4];
    F4_STORE(l, lo);
    F4_STORE(h, hi);
    glm_vec3_copy(l, out->min);
    glm_vec3_copy(h, out->max);
}

static void bins_init(sah_bins* b, int nbins, uint32_t count, const float lo[3], const float hi[3]) {
    int axis = 0;
    if (hi[1] - lo[1] > hi[axis] - lo[axis]) axis = 1;
    if (hi[2] - lo[2] > hi[axis] - lo[axis]) axis = 2;
    float extent = hi[axis] - lo[axis];
    /* more bins than triangles buy nothing on small nodes */
    if ((uint32_t)nbins > count + 2) nbins = (int)count + 2;
    if (!(extent > 0.0f)) nbins = 1;
    b->n = nbins;
    b->axis = axis;
    b->base = lo[axis];
    b->scale = nbins > 1 ? (float)nbins * 0.99999f / extent : 0.0f;
    /* a subnormal extent overflows the scale (and 0 x inf would bin as NaN): no planes to choose there */
    if (!(b->scale <= FLT_MAX)) b->n = nbins = 1, b->scale = 0.0f;
    for (int i = 0; i < nbins; i++) {
        F4_STORE(b->min[i], F4_SET1(FLT_MAX));
        F4_STORE(b->max[i], F4_SET1(-FLT_MAX));
        b->count[i] = 0;
    }
}

static inline int bin_of(const sah_bins* b, const snug_prim* p) {
    float x = (p->min[b->axis] + p->max[b->axis] - b->base) * b->scale;
    return (int)fmax_(0.0f, fmin_((float)(b->n - 1), x));
}

static inline void bin_add(sah_bins* b, const snug_prim* p) {
    int k = bin_of(b, p);
    b->count[k]++;
    F4_STORE(b->min[k], F4_MIN(F4_LOAD(b->min[k]), F4_LOAD(p->min)));
    F4_STORE(b->max[k], F4_MAX(F4_LOAD(b->max[k]), F4_LOAD(p->max)));
}

static void bins_add_all(sah_bins* b, const snug_prim* prims, uint32_t count) {
    for (uint32_t k = 0; k < count; k++) bin_add(b, &prims[k]);
}

static inline float half_area4(f4 lo, f4 hi) {
    float l[4], h[4];
    F4_STORE(l, lo);
    F4_STORE(h, hi);
    float x = h[0] - l[0], y = h[1] - l[1], z = h[2] - l[2];
    return x * y + y * z + z * x;
}

/* Cheapest plane: returns the first bin of the right side (0: no split) with both sides' boxes and counts. */
static int bins_choose(const sah_bins* b, snug_aabb box[2], uint32_t counts[2]) {
    int nbins = b->n;
    if (nbins < 2) return 0;
    /* float is plenty to rank planes; empty bins hold (+max, -max) and leave the running boxes alone. The
     * right sweep keeps its boxes and counts so the chosen plane's sides need no third pass. */
    float right_cost[64];
    f4 right_lo[64], right_hi[64];
    uint32_t right_count[64];
    f4 lo = F4_SET1(FLT_MAX), hi = F4_SET1(-FLT_MAX);
    uint32_t rc = 0;
    for (int i = nbins - 1; i > 0; i--) {
        lo = F4_MIN(lo, F4_LOAD(b->min[i]));
        hi = F4_MAX(hi, F4_LOAD(b->max[i]));
        rc += b->count[i];
        right_lo[i] = lo, right_hi[i] = hi, right_count[i] = rc;
        right_cost[i] = rc ? half_area4(lo, hi) * (float)rc : -1.0f;
    }
    lo = F4_SET1(FLT_MAX), hi = F4_SET1(-FLT_MAX);
    f4 best_lo = lo, best_hi = hi;
    uint32_t lc = 0, best_lc = 0;
    float best = FLT_MAX;
    int split = 0;
    for (int i = 1; i < nbins; i++) {
        lo = F4_MIN(lo, F4_LOAD(b->min[i - 1]));
        hi = F4_MAX(hi, F4_LOAD(b->max[i - 1]));
        lc += b->count[i - 1];
        if (lc == 0 || right_cost[i] < 0.0f) continue;
        float cost = half_area4(lo, hi) * (float)lc + right_cost[i];
        if (cost < best) {
            best = cost;
            split = i;
            best_lo = lo, best_hi = hi, best_lc = lc;
        }
    }
    if (split == 0) return 0;
    counts[0] = best_lc;
    counts[1] = right_count[split];
    f4 side_lo[2] = {best_lo, right_lo[split]}, side_hi[2] = {best_hi, right_hi[split]};
    for (int side = 0; side < 2; side++) {
        float l[4], h[4];
        F4_STORE(l, side_lo[side]);
        F4_STORE(h, side_hi[side]);
        glm_vec3_copy(l, box[side].min);
        glm_vec3_copy(h, box[side].max);
    }
    return split;
}

/* Writes src's records to dst, bins < split first, and returns the left count. Out of place and branch-free:
 * the side of a record is data, not control flow (a mispredicted branch per record was the largest cost of the
 * in-place version). Grid parameters sit in locals so the stores cannot make the compiler reload them. */
static uint32_t partition(const sah_bins* b, int split, const snug_prim* src, uint32_t count, snug_prim* dst) {
    const int axis = b->axis;
    const float base = b->base, scale = b->scale, plane = (float)split;
    uint32_t i = 0, j = count;
    for (uint32_t k = 0; k < count; k++) {
        const snug_prim* p = &src[k];
        /* bin_of(b, p) >= split without the clamp: split is in 1..n-1, so the clamp cannot change the answer */
        int side = (p->min[axis] + p->max[axis] - base) * scale >= plane;
        j -= (uint32_t)side;
        dst[side ? j : i] = *p;
        i += (uint32_t)(1 - side);
    }
    return i;
}

/* Binary SAH split; returns the left count (0 when the centroids do not spread). */
static uint32_t sah_binary(int nbins, snug_prim* prims, uint32_t count, snug_prim* tmp, snug_aabb* lbox,
                           snug_aabb* rbox) {
    snug_aabb cent, box[2];
    sah_bins bins;
    uint32_t counts[2];
    centroid_bounds(prims, count, &cent);
    bins_init(&bins, nbins, count, cent.min, cent.max);
    bins_add_all(&bins, prims, count);
    int split = bins_choose(&bins, box, counts);
    if (!split) return 0;
    *lbox = box[0];
    *rbox = box[1];
    uint32_t left = partition(&bins, split, prims, count, tmp);
    memcpy(prims, tmp, (size_t)count * sizeof *prims);
    return left;
}

int snug_split_sah(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                   snug_aabb* boxes) {
    if (count < 2) return 0;
    if ((uint32_t)degree > count) degree = (int)count;
    uint32_t offsets[SNUG_MAX_BRANCHING];
    int parts = 1;
    offsets[0] = 0;
    sizes[0] = count;
    /* the part boxes only choose which part to split next; a binary split needs none up front */
    if (degree > 2) snug_prims_bounds(prims, count, &boxes[0]);
    while (parts < degree) {
        int pick = parts == 1 ? 0 : -1;
        double pick_area = -1.0;
        for (int p = 0; p < parts && parts > 1; p++) {
            double a = area(boxes[p].min, boxes[p].max);
            if (sizes[p] >= 2 && a > pick_area) {
                pick_area = a;
                pick = p;
            }
        }
        if (pick < 0) break;
        snug_aabb l, r;
        uint32_t left = sah_binary(in->def->sah_bins, prims + offsets[pick], sizes[pick], in->tmp, &l, &r);
        uint32_t ls[SNUG_MAX_BRANCHING];
        snug_aabb lb[SNUG_MAX_BRANCHING];
        if (left == 0) {
            /* coincident centroids: an even split by count keeps the tree shallow */
            if (snug_split_median(in, prims + offsets[pick], sizes[pick], 2, ls, lb) < 2) break;
            left = ls[0];
            l = lb[0];
            r = lb[1];
        }
        for (int p = parts; p > pick + 1; p--) {
            offsets[p] = offsets[p - 1];
            sizes[p] = sizes[p - 1];
            boxes[p] = boxes[p - 1];
        }
        offsets[pick + 1] = offsets[pick] + left;
        sizes[pick + 1] = sizes[pick] - left;
        boxes[pick + 1] = r;
        sizes[pick] = left;
        boxes[pick] = l;
        parts++;
    }
    return parts;
}
