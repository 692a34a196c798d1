/* Swept bounding volumes under a lerp + slerp segment (seed 000 §4.2 with the §5.3 correction).
 *
 * Why they are conservative: a point x of the body moves as x(u) = R(u)(x - c) + p(u). Translation is linear, and
 * R(u) turns about one fixed axis at constant speed, so x(u) stays within r (1 - cos(angle du / 2)) of the chord
 * between its positions at u0 and u1 (r = |x - c|; the arc's sagitta, which also bounds the gap at equal u).
 * The chord lies in the convex hull of the BV's two placements, so "hull of both placements, padded by the
 * bulge" contains the BV at every u. Under pure translation the bulge is 0 and this is the exact swept hull. The arc
 * lies in a plane across the turn's axis, so the box is padded along each world axis only as far as that plane
 * reaches (snug_lerp_slerp.spread): a turn about up pads nothing up or down. */
#include "ccd/ccd.h"

#include <math.h>
#include <string.h>

static double max_pivot_distance_box(const double pivot[3], const float lo[3], const float hi[3]) {
    double s = 0.0;
    for (int i = 0; i < 3; i++) {
        double a = fabs(lo[i] - pivot[i]), b = fabs(hi[i] - pivot[i]);
        double m = a > b ? a : b;
        s += m * m;
    }
    return sqrt(s);
}

void snug_swept_box(const snug_xform* x0, const snug_xform* x1, double bulge, const double spread[3], const double pivot[3],
                    const float lo[3], const float hi[3], float out_lo[3], float out_hi[3]) {
    float c[3], e[3];
    for (int i = 0; i < 3; i++) c[i] = 0.5f * (lo[i] + hi[i]), e[i] = 0.5f * (hi[i] - lo[i]);
    double pad = bulge > 0.0 ? bulge * max_pivot_distance_box(pivot, lo, hi) : 0.0;
    const snug_xform* xs[2] = {x0, x1};
    for (int r = 0; r < 3; r++) {
        float mn = INFINITY, mx = -INFINITY;
        for (int k = 0; k < 2; k++) {
            const snug_xform* x = xs[k];
            float cw = x->R[0][r] * c[0] + x->R[1][r] * c[1] + x->R[2][r] * c[2] + x->t[r];
            float ew = fabsf(x->R[0][r]) * e[0] + fabsf(x->R[1][r]) * e[1] + fabsf(x->R[2][r]) * e[2];
            /* float rounding of the transform: pad by a few ulps of the magnitudes involved */
            float slack = 4e-7f * (fabsf(cw) + ew + fabsf(x->t[r]));
            if (cw - ew - slack < mn) mn = cw - ew - slack;
            if (cw + ew + slack > mx) mx = cw + ew + slack;
        }
        double p = spread ? pad * spread[r] : pad;
        out_lo[r] = (float)(mn - p);
        out_hi[r] = (float)(mx + p);
    }
}

void snug_swept_aabb(const snug_lerp_slerp* m, double u0, double u1, const snug_aabb* in, snug_aabb* out) {
    snug_xform x0, x1;
    snug_lerp_slerp_xform(m, u0, &x0);
    snug_lerp_slerp_xform(m, u1, &x1);
    snug_swept_box(&x0, &x1, snug_lerp_slerp_bulge(m, u1 - u0), m->spread, m->c, in->min, in->max, out->min, out->max);
}

void snug_swept_sphere(const snug_lerp_slerp* m, double u0, double u1, const snug_sphere* in, snug_sphere* out) {
    snug_dxform x0, x1;
    snug_lerp_slerp_at(m, u0, &x0);
    snug_lerp_slerp_at(m, u1, &x1);
    double c0[3], c1[3], gap = 0.0, rc = 0.0;
    snug_dxform_point(&x0, in->c, c0);
    snug_dxform_point(&x1, in->c, c1);
    for (int i = 0; i < 3; i++) {
        out->c[i] = (float)(0.5 * (c0[i] + c1[i]));
        gap += (c1[i] - c0[i]) * (c1[i] - c0[i]);
        rc += (in->c[i] - m->c[i]) * (in->c[i] - m->c[i]);
    }
    double r = 0.5 * sqrt(gap) + in->r + snug_lerp_slerp_bulge(m, u1 - u0) * (sqrt(rc) + in->r);
    out->r = (float)(r * (1.0 + 1e-6) + 1e-7 * (fabs(out->c[0]) + fabs(out->c[1]) + fabs(out->c[2])));
}

void snug_swept_obb(const snug_lerp_slerp* m, double u0, double u1, const snug_obb* in, snug_obb* out) {
    snug_dxform x[2];
    snug_lerp_slerp_at(m, u0, &x[0]);
    snug_lerp_slerp_at(m, u1, &x[1]);
    /* world axes of the box at both ends */
    double ax[2][3][3], cw[2][3];
    for (int k = 0; k < 2; k++) {
        snug_dxform_point(&x[k], in->c, cw[k]);
        for (int j = 0; j < 3; j++)
            for (int r = 0; r < 3; r++)
                ax[k][j][r] = x[k].R[r] * in->axes[j][0] + x[k].R[3 + r] * in->axes[j][1] + x[k].R[6 + r] * in->axes[j][2];
    }
    double rc = 0.0;
    for (int i = 0; i < 3; i++) rc += (in->c[i] - m->c[i]) * (in->c[i] - m->c[i]);
    double reach = sqrt(rc) + sqrt(in->e[0] * in->e[0] + in->e[1] * in->e[1] + in->e[2] * in->e[2]);
    double pad = snug_lerp_slerp_bulge(m, u1 - u0) * reach;
    double center[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        const double* a = ax[1][i]; /* the end orientation (seed Fig. 4.11) */
        double lo = INFINITY, hi = -INFINITY;
        for (int k = 0; k < 2; k++) {
            double c = a[0] * cw[k][0] + a[1] * cw[k][1] + a[2] * cw[k][2], rho = 0.0;
            for (int j = 0; j < 3; j++)
                rho += in->e[j] * fabs(a[0] * ax[k][j][0] + a[1] * ax[k][j][1] + a[2] * ax[k][j][2]);
            lo = fmin(lo, c - rho);
            hi = fmax(hi, c + rho);
        }
        double slack = 1e-6 * (fabs(lo) + fabs(hi)) + pad;
        lo -= slack, hi += slack;
        out->e[i] = (float)(0.5 * (hi - lo));
        for (int r = 0; r < 3; r++) {
            center[r] += a[r] * 0.5 * (lo + hi); /* box-axis coordinates back to world (the §5.2 fix) */
            out->axes[i][r] = (float)a[r];
        }
    }
    for (int r = 0; r < 3; r++) out->c[r] = (float)center[r];
}

void snug_swept_kdop(const snug_lerp_slerp* m, double u0, double u1, const snug_kdop* in, snug_bv_type type,
                     snug_kdop* out) {
    /* the k-DOP lies inside the box of its first three slabs (the coordinate axes) */
    snug_obb box;
    memset(&box, 0, sizeof box);
    for (int i = 0; i < 3; i++) {
        box.c[i] = 0.5f * (in->lo[i] + in->hi[i]);
        box.e[i] = 0.5f * (in->hi[i] - in->lo[i]);
        box.axes[i][i] = 1.0f;
    }
    snug_obb swept;
    snug_swept_obb(m, u0, u1, &box, &swept);
    int n = snug_kdop_axis_count(type);
    const float(*dirs)[3] = snug_kdop_type_directions(type);
    for (int j = 0; j < n; j++) {
        const float* dj = dirs[j];
        double c = 0.0, rho = 0.0, len = 0.0;
        for (int r = 0; r < 3; r++) c += dj[r] * swept.c[r], len += dj[r] * dj[r];
        for (int a = 0; a < 3; a++) {
            double p = 0.0;
            for (int r = 0; r < 3; r++) p += dj[r] * swept.axes[a][r];
            rho += swept.e[a] * fabs(p);
        }
        double slack = 1e-6 * (fabs(c) + rho) + 1e-30 * len;
        out->lo[j] = (float)(c - rho - slack);
        out->hi[j] = (float)(c + rho + slack);
    }
    for (int j = n; j < SNUG_KDOP_MAX_AXES; j++) out->lo[j] = out->hi[j] = 0.0f;
}
