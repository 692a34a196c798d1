/* OBB trees in linear time per level: every triangle's area-weighted moments (seed 001 §7.9: area, area x
 * centroid, and (area / 12)(9 m m^T + sum v v^T)) are summed bottom-up through the finished topology, so a
 * node's covariance costs one 3x3 sum instead of a pass over its vertices; one projection pass then gives the
 * extents, four corners per step from a slot-order copy of the corners kept one array per coordinate (every
 * level reads it sequentially). Same covariance as snug_obb_fit, accumulated relative to the root box centre in
 * double so that data far from the origin does not cancel. Nodes without area (all triangles degenerate) use
 * snug_obb_fit. */
#include "bvh/bvh_build.h"
#include "geom/obb_fit.h"

#include <string.h>

/* Box along o->axes over the n >= 1 points (xs[v], ys[v], zs[v]): four points per step, one lane each, with the
 * same float expression per projection as snug_obb_ranges_project (so the same padding covers it). A last
 * partial step re-reads the final four points (min/max do not mind repeats). */
static void extents(const float* xs, const float* ys, const float* zs, size_t n, snug_obb* o) {
    snug_obb_ranges r;
    snug_obb_ranges_init(&r, o->axes);
    if (n >= 4) {
        f4 ax[3][3], lo[3], hi[3];
        for (int k = 0; k < 3; k++) {
            for (int i = 0; i < 3; i++) ax[k][i] = F4_SET1(o->axes[k][i]);
            lo[k] = F4_SET1(INFINITY);
            hi[k] = F4_SET1(-INFINITY);
        }
        for (size_t v = 0;; v += 4) {
            if (v + 4 > n) v = n - 4;
            f4 x = F4_LOAD(xs + v), y = F4_LOAD(ys + v), z = F4_LOAD(zs + v);
            for (int k = 0; k < 3; k++) {
                f4 d = F4_ADD(F4_ADD(F4_MUL(ax[k][0], x), F4_MUL(ax[k][1], y)), F4_MUL(ax[k][2], z));
                lo[k] = F4_MIN(lo[k], d);
                hi[k] = F4_MAX(hi[k], d);
            }
            if (v + 4 == n) break;
        }
        /* fold the point lanes into the axis lanes of r */
        float l[3][4], h[3][4], fl[4], fh[4];
        for (int k = 0; k < 3; k++) {
            F4_STORE(l[k], lo[k]);
            F4_STORE(h[k], hi[k]);
            fl[k] = l[k][0], fh[k] = h[k][0];
            for (int j = 1; j < 4; j++) fl[k] = l[k][j] < fl[k] ? l[k][j] : fl[k], fh[k] = h[k][j] > fh[k] ? h[k][j] : fh[k];
        }
        fl[3] = fh[3] = 0.0f;
        r.lo = F4_LOAD(fl);
        r.hi = F4_LOAD(fh);
    } else {
        for (size_t v = 0; v < n; v++) {
            float p[3] = {xs[v], ys[v], zs[v]};
            snug_obb_ranges_take(&r, snug_obb_ranges_project(&r, p));
        }
    }
    snug_obb_ranges_finish(&r, NULL, o);
}

/* node i's OBB along the eigenvectors V (its corners are a contiguous run of the slot-order coordinates) */
static void node_box(const snug_build* b, const float* xs, const float* ys, const float* zs, const double V[3][3],
                     uint32_t i, snug_obb* obbs) {
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < 3; k++) obbs[i].axes[a][k] = (float)V[a][k];
    size_t v0 = 3 * (size_t)b->range_first[i];
    extents(xs + v0, ys + v0, zs + v0, 3 * b->range_count[i], &obbs[i]);
}

snug_status snug_bvh_fit_obbs(snug_ctx* ctx, const snug_build* b, snug_obb* obbs) {
    uint32_t n = b->node_count;
    uint32_t tri_count = b->range_count[0];
    snug_obb_moments* mo = snug_alloc(ctx, (size_t)n * sizeof *mo);
    /* the corners in slot order, one array per coordinate: a node's vertices are a contiguous run of each */
    size_t nv = 3 * (size_t)tri_count;
    float* xyz = snug_alloc(ctx, 3 * nv * sizeof *xyz);
    if (!mo || !xyz) {
        snug_free(ctx, mo);
        snug_free(ctx, xyz);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "OBB moments of %u nodes", n);
    }
    float *xs = xyz, *ys = xyz + nv, *zs = xyz + 2 * nv;
    for (uint32_t s = 0; s < tri_count; s++) {
        const uint32_t* t = b->in.tris + 3 * b->prims[s].id;
        for (int c = 0; c < 3; c++) {
            const float* p = b->in.positions + 3 * t[c];
            xs[3 * s + c] = p[0], ys[3 * s + c] = p[1], zs[3 * s + c] = p[2];
        }
    }
    double ref[3];
    for (int i = 0; i < 3; i++) ref[i] = 0.5 * ((double)b->nodes[0].min[i] + b->nodes[0].max[i]);
    /* children follow their parents: a reverse sweep sums bottom-up */
    for (uint32_t i = n; i-- > 0;) {
        const snug_node* nd = &b->nodes[i];
        memset(&mo[i], 0, sizeof mo[i]);
        uint32_t kids = SNUG_NODE_CHILDREN(nd->info);
        if (kids)
            for (uint32_t k = nd->first; k < nd->first + kids; k++) snug_obb_moments_add(&mo[i], &mo[k]);
        else
            for (uint32_t s = nd->first; s < nd->first + SNUG_NODE_COUNT(nd->info); s++) {
                float c[3][3];
                for (int k = 0; k < 3; k++) c[k][0] = xs[3 * s + k], c[k][1] = ys[3 * s + k], c[k][2] = zs[3 * s + k];
                snug_obb_moments_add_tri(&mo[i], c[0], c[1], c[2], ref);
            }
    }
    /* axes two nodes at a time (one pair eigen solve: latency bound, the second lane comes almost free) */
    uint32_t pending = UINT32_MAX;
    double V[3][3], W[3][3];
    for (uint32_t i = 0; i < n; i++) {
        if (!(mo[i].area > 0.0)) {
            for (uint32_t k = 0; k < b->range_count[i]; k++) b->in.ids[k] = b->prims[b->range_first[i] + k].id;
            snug_tri_set set = {b->in.positions, b->in.tris, b->in.ids, 0, b->range_count[i]};
            snug_obb_fit(&set, false, &obbs[i]);
        } else if (pending == UINT32_MAX) {
            pending = i;
        } else {
            snug_obb_moments_basis_pair(&mo[pending], &mo[i], V, W);
            node_box(b, xs, ys, zs, V, pending, obbs);
            node_box(b, xs, ys, zs, W, i, obbs);
            pending = UINT32_MAX;
        }
    }
    if (pending != UINT32_MAX) { /* the last node with area found no partner */
        snug_obb_moments_basis(&mo[pending], V);
        node_box(b, xs, ys, zs, V, pending, obbs);
    }
    snug_free(ctx, mo);
    snug_free(ctx, xyz);
    return SNUG_OK;
}
