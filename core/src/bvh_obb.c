/* OBB trees in linear time per level: every triangle's area-weighted moments (seed 001 §7.9: area, area x
 * centroid, and (area / 12)(9 m m^T + sum v v^T)) are summed bottom-up through the finished topology, so a
 * node's covariance costs one 3x3 sum instead of a pass over its vertices; one projection pass then gives the
 * extents. Same covariance as snug_obb_fit, accumulated relative to the root box centre in double so that
 * data far from the origin does not cancel. Nodes without area (all triangles degenerate) use snug_obb_fit. */
#include "bvh_build.h"

#include <float.h>
#include <math.h>
#include <string.h>

typedef struct moments {
    double area, m[3], s[6]; /* s: xx yy zz xy xz yz */
} moments;

static void tri_moments(const snug_build* b, uint32_t id, const double ref[3], moments* out) {
    const uint32_t* t = b->in.tris + 3 * id;
    double v[3][3];
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++) v[c][i] = (double)b->in.positions[3 * t[c] + (uint32_t)i] - ref[i];
    double e1[3], e2[3];
    for (int i = 0; i < 3; i++) e1[i] = v[1][i] - v[0][i], e2[i] = v[2][i] - v[0][i];
    double n0 = e1[1] * e2[2] - e1[2] * e2[1], n1 = e1[2] * e2[0] - e1[0] * e2[2], n2 = e1[0] * e2[1] - e1[1] * e2[0];
    double a = 0.5 * sqrt(n0 * n0 + n1 * n1 + n2 * n2), m[3];
    for (int i = 0; i < 3; i++) m[i] = (v[0][i] + v[1][i] + v[2][i]) / 3.0;
    static const int I[6] = {0, 1, 2, 0, 0, 1}, J[6] = {0, 1, 2, 1, 2, 2};
    out->area = a;
    for (int i = 0; i < 3; i++) out->m[i] = a * m[i];
    for (int k = 0; k < 6; k++)
        out->s[k] = a / 12.0 *
                    (9.0 * m[I[k]] * m[J[k]] + v[0][I[k]] * v[0][J[k]] + v[1][I[k]] * v[1][J[k]] + v[2][I[k]] * v[2][J[k]]);
}

static void add(moments* to, const moments* x) {
    to->area += x->area;
    for (int i = 0; i < 3; i++) to->m[i] += x->m[i];
    for (int k = 0; k < 6; k++) to->s[k] += x->s[k];
}

static float round_up(double v) {
    float f = (float)v;
    if ((double)f < v) f = nextafterf(f, INFINITY);
    return f;
}

/* Box along the node's axes: one pass over the vertices of its slot range. */
static void finish_box(const snug_build* b, uint32_t first, uint32_t count, snug_obb* o) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t s = first; s < first + count; s++) {
        const uint32_t* t = b->in.tris + 3 * b->prims[s].id;
        for (int c = 0; c < 3; c++) {
            const float* p = b->in.positions + 3 * t[c];
            for (int k = 0; k < 3; k++) {
                double d = (double)o->axes[k][0] * p[0] + (double)o->axes[k][1] * p[1] + (double)o->axes[k][2] * p[2];
                lo[k] = d < lo[k] ? d : lo[k];
                hi[k] = d > hi[k] ? d : hi[k];
            }
        }
    }
    double c[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++) c[i] += (double)o->axes[k][i] * 0.5 * (lo[k] + hi[k]);
    for (int i = 0; i < 3; i++) o->c[i] = (float)c[i];
    double mag = fabs(c[0]) + fabs(c[1]) + fabs(c[2]);
    for (int k = 0; k < 3; k++) {
        /* slab test |axis . (v - c_float)| <= e in float: measure from the stored centre, pad a few ulps */
        double cc = (double)o->axes[k][0] * o->c[0] + (double)o->axes[k][1] * o->c[1] + (double)o->axes[k][2] * o->c[2];
        double e = fmax(hi[k] - cc, cc - lo[k]);
        mag += fabs(lo[k]) + fabs(hi[k]);
        o->e[k] = round_up(e + 8.0 * FLT_EPSILON * (mag + e));
    }
}

snug_status snug_bvh_fit_obbs(snug_ctx* ctx, const snug_build* b, snug_obb* obbs) {
    uint32_t n = b->node_count;
    moments* mo = snug_alloc(ctx, (size_t)n * sizeof *mo);
    if (!mo) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "OBB moments of %u nodes", n);
    double ref[3];
    for (int i = 0; i < 3; i++) ref[i] = 0.5 * ((double)b->nodes[0].min[i] + b->nodes[0].max[i]);
    /* children follow their parents: a reverse sweep sums bottom-up */
    for (uint32_t i = n; i-- > 0;) {
        const snug_node* nd = &b->nodes[i];
        memset(&mo[i], 0, sizeof mo[i]);
        uint32_t kids = SNUG_NODE_CHILDREN(nd->info);
        if (kids)
            for (uint32_t k = nd->first; k < nd->first + kids; k++) add(&mo[i], &mo[k]);
        else
            for (uint32_t s = nd->first; s < nd->first + SNUG_NODE_COUNT(nd->info); s++) {
                moments t;
                tri_moments(b, b->prims[s].id, ref, &t);
                add(&mo[i], &t);
            }
    }
    for (uint32_t i = 0; i < n; i++) {
        const moments* x = &mo[i];
        if (!(x->area > 0.0)) {
            for (uint32_t k = 0; k < b->range_count[i]; k++) b->in.ids[k] = b->prims[b->range_first[i] + k].id;
            snug_tri_set set = {b->in.positions, b->in.tris, b->in.ids, 0, b->range_count[i]};
            snug_obb_fit(&set, false, &obbs[i]);
            continue;
        }
        double mu[3], cov[3][3], w[3], V[3][3];
        for (int k = 0; k < 3; k++) mu[k] = x->m[k] / x->area;
        static const int I[6] = {0, 1, 2, 0, 0, 1}, J[6] = {0, 1, 2, 1, 2, 2};
        for (int k = 0; k < 6; k++) cov[I[k]][J[k]] = cov[J[k]][I[k]] = x->s[k] / x->area - mu[I[k]] * mu[J[k]];
        snug_eigen_sym3d(cov, w, V);
        for (int a = 0; a < 3; a++)
            for (int k = 0; k < 3; k++) obbs[i].axes[a][k] = (float)V[a][k];
        finish_box(b, b->range_first[i], b->range_count[i], &obbs[i]);
    }
    snug_free(ctx, mo);
    return SNUG_OK;
}
