/* Binned surface-area heuristic on the longest centroid axis (centroid = box centre). One pass bins the
 * records (bin index kept in the record's label), a sweep picks the cheapest plane, an in-place partition
 * moves the records, and the child boxes come from the bin boxes, so no pass over the records is repeated.
 * Degree d > 2: d - 1 binary splits, each of the part with the largest surface area. */
#include "split.h"

#include <float.h>
#include <math.h>

typedef struct bin {
    float min[3], max[3];
    uint32_t count;
} bin;

static double area(const float* mn, const float* mx) {
    double x = (double)mx[0] - mn[0], y = (double)mx[1] - mn[1], z = (double)mx[2] - mn[2];
    return x * y + y * z + z * x;
}

/* Binary SAH split; returns the left count (0 when the centroids do not spread). */
static uint32_t sah_binary(int nbins, snug_prim* prims, uint32_t count, snug_aabb* lbox, snug_aabb* rbox) {
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (uint32_t k = 0; k < count; k++) {
        const snug_prim* p = &prims[k];
        for (int a = 0; a < 3; a++) {
            float c = p->min[a] + p->max[a];
            lo[a] = c < lo[a] ? c : lo[a];
            hi[a] = c > hi[a] ? c : hi[a];
        }
    }
    int axis = 0;
    if (hi[1] - lo[1] > hi[axis] - lo[axis]) axis = 1;
    if (hi[2] - lo[2] > hi[axis] - lo[axis]) axis = 2;
    float extent = hi[axis] - lo[axis];
    if (!(extent > 0.0f)) return 0;
    bin bins[64];
    for (int i = 0; i < nbins; i++) {
        for (int a = 0; a < 3; a++) {
            bins[i].min[a] = FLT_MAX;
            bins[i].max[a] = -FLT_MAX;
        }
        bins[i].count = 0;
    }
    float scale = (float)nbins * 0.99999f / extent, base = lo[axis];
    for (uint32_t k = 0; k < count; k++) {
        snug_prim* p = &prims[k];
        int b = (int)((p->min[axis] + p->max[axis] - base) * scale);
        b = b < 0 ? 0 : (b >= nbins ? nbins - 1 : b);
        p->label = (uint32_t)b;
        bin* t = &bins[b];
        t->count++;
        for (int a = 0; a < 3; a++) {
            t->min[a] = p->min[a] < t->min[a] ? p->min[a] : t->min[a];
            t->max[a] = p->max[a] > t->max[a] ? p->max[a] : t->max[a];
        }
    }
    /* suffix areas and counts, then the prefix sweep */
    double right_area[64];
    uint32_t right_count[64];
    float rmin[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, rmax[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    uint32_t rc = 0;
    for (int i = nbins - 1; i > 0; i--) {
        for (int a = 0; a < 3; a++) {
            rmin[a] = fminf(rmin[a], bins[i].min[a]);
            rmax[a] = fmaxf(rmax[a], bins[i].max[a]);
        }
        rc += bins[i].count;
        right_area[i] = rc ? area(rmin, rmax) : 0.0;
        right_count[i] = rc;
    }
    float lmin[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, lmax[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    uint32_t lc = 0;
    double best = INFINITY;
    int split = 0;
    for (int i = 1; i < nbins; i++) {
        for (int a = 0; a < 3; a++) {
            lmin[a] = fminf(lmin[a], bins[i - 1].min[a]);
            lmax[a] = fmaxf(lmax[a], bins[i - 1].max[a]);
        }
        lc += bins[i - 1].count;
        if (lc == 0 || right_count[i] == 0) continue;
        double cost = area(lmin, lmax) * lc + right_area[i] * right_count[i];
        if (cost < best) {
            best = cost;
            split = i;
        }
    }
    if (split == 0) return 0;
    /* in-place partition by bin index */
    uint32_t i = 0, j = count;
    while (i < j) {
        if (prims[i].label < (uint32_t)split) {
            i++;
        } else {
            j--;
            snug_prim t = prims[i];
            prims[i] = prims[j];
            prims[j] = t;
        }
    }
    glm_vec3_broadcast(FLT_MAX, lbox->min);
    glm_vec3_broadcast(-FLT_MAX, lbox->max);
    glm_vec3_broadcast(FLT_MAX, rbox->min);
    glm_vec3_broadcast(-FLT_MAX, rbox->max);
    for (int b = 0; b < nbins; b++) {
        if (!bins[b].count) continue;
        snug_aabb* box = b < split ? lbox : rbox;
        glm_vec3_minv(box->min, bins[b].min, box->min);
        glm_vec3_maxv(box->max, bins[b].max, box->max);
    }
    return i;
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
        uint32_t left = sah_binary(in->def->sah_bins, prims + offsets[pick], sizes[pick], &l, &r);
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
