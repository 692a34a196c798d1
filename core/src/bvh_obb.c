/* OBB trees in linear time per level: every triangle's area-weighted moments (seed 001 §7.9: area, area x
 * centroid, and (area / 12)(9 m m^T + sum v v^T)) are summed bottom-up through the finished topology, so a
 * node's covariance costs one 3x3 sum instead of a pass over its vertices; one projection pass then gives the
 * extents. Same covariance as snug_obb_fit, accumulated relative to the root box centre in double so that
 * data far from the origin does not cancel. Nodes without area (all triangles degenerate) use snug_obb_fit. */
#include "bvh_build.h"

#include <float.h>
#include <math.h>
#include <string.h>

typedef float v4f __attribute__((vector_size(16)));
typedef int32_t v4i __attribute__((vector_size(16)));

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

/* Box along the node's axes: one pass over the corners of its slot range (copied once in slot order, so every
 * level reads them sequentially). Projections in float: their rounding (<= 2 eps |v|_1 <= 3.5 eps x the
 * projection magnitudes summed in `mag`) is covered by the padding below. */
static void finish_box(const float* corners, uint32_t count, snug_obb* o) {
    /* lanes = the three axes: column i holds every axis's i-th component (vector extension: SIMD in wasm too) */
    v4f col[3], lo4, hi4;
    for (int i = 0; i < 3; i++) col[i] = (v4f){o->axes[0][i], o->axes[1][i], o->axes[2][i], 0.0f};
    lo4 = (v4f){INFINITY, INFINITY, INFINITY, INFINITY};
    hi4 = -lo4;
    for (uint32_t v = 0; v < 3 * count; v++) {
        const float* p = corners + 3 * v;
        v4f d = col[0] * p[0] + col[1] * p[1] + col[2] * p[2];
        v4i below = d < lo4, above = d > hi4;
        lo4 = (v4f)(((v4i)d & below) | ((v4i)lo4 & ~below));
        hi4 = (v4f)(((v4i)d & above) | ((v4i)hi4 & ~above));
    }
    float flo[3] = {lo4[0], lo4[1], lo4[2]}, fhi[3] = {hi4[0], hi4[1], hi4[2]};
    double lo[3] = {flo[0], flo[1], flo[2]}, hi[3] = {fhi[0], fhi[1], fhi[2]};
    double c[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++) c[i] += (double)o->axes[k][i] * 0.5 * (lo[k] + hi[k]);
    for (int i = 0; i < 3; i++) o->c[i] = (float)c[i];
    double mag = fabs(c[0]) + fabs(c[1]) + fabs(c[2]);
    for (int k = 0; k < 3; k++) mag += fabs(lo[k]) + fabs(hi[k]);
    for (int k = 0; k < 3; k++) {
        /* slab test |axis . (v - c_float)| <= e in float: measure from the stored centre, pad a few ulps on top
         * of the projection rounding */
        double cc = (double)o->axes[k][0] * o->c[0] + (double)o->axes[k][1] * o->c[1] + (double)o->axes[k][2] * o->c[2];
        double e = fmax(hi[k] - cc, cc - lo[k]);
        o->e[k] = round_up(e + 16.0 * FLT_EPSILON * (mag + e));
    }
}

snug_status snug_bvh_fit_obbs(snug_ctx* ctx, const snug_build* b, snug_obb* obbs) {
    uint32_t n = b->node_count;
    uint32_t tri_count = b->range_count[0];
    moments* mo = snug_alloc(ctx, (size_t)n * sizeof *mo);
    float* corners = snug_alloc(ctx, (size_t)tri_count * 9 * sizeof *corners);
    if (!mo || !corners) {
        snug_free(ctx, mo);
        snug_free(ctx, corners);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "OBB moments of %u nodes", n);
    }
    for (uint32_t s = 0; s < tri_count; s++) {
        const uint32_t* t = b->in.tris + 3 * b->prims[s].id;
        for (int c = 0; c < 3; c++) memcpy(corners + 9 * s + 3 * c, b->in.positions + 3 * t[c], 3 * sizeof(float));
    }
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
        finish_box(corners + 9 * (size_t)b->range_first[i], b->range_count[i], &obbs[i]);
    }
    snug_free(ctx, mo);
    snug_free(ctx, corners);
    return SNUG_OK;
}
