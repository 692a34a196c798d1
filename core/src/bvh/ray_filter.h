/* A float filter in front of the exact ray-triangle test (snug_ray_tri, double): the three Plücker edge values
 * w = D . (A x B) of four triangles at once (A, B corners minus the ray origin), rejecting a triangle only when
 * two of its values certainly have opposite signs, which the exact test would also reject. Every other
 * triangle goes to the exact test, so answers are those of the exact test alone.
 *
 * D is first scaled by a power of two to largest |component| Dm in [0.5, 1) (exact, signs of w unchanged), so
 * the values stay in float range for coordinates up to ~1e18 whatever the direction's length.
 * Rounding bound (u = FLT_EPSILON / 2, M = largest |coordinate| of A, B, C): A = fl(a - o) has relative error
 * u; G = D x A per component |G| <= 2 Dm M with error <= 6 u Dm M (input, product, difference); w = B . G adds
 * <= 14 u Dm M^2 per term, 42 u Dm M^2 in all. The double value the exact test decides on is within 1e-15
 * relative of exact. The filter uses 64 u M^2 (Dm < 1) plus an absolute floor of 16 FLT_MIN (M + 1) for
 * underflow, denormals flushed or not. Overflow could give infinities of the wrong sign, so a lane rejects only
 * when M < 6e18, which keeps every |w| below 2.2e38. */
#ifndef SNUG_RAY_FILTER_H
#define SNUG_RAY_FILTER_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bvh/ray_tree.h"
#include "base/simd.h"

typedef struct snug_ray_filter {
    f4 ox, oy, oz, dx, dy, dz; /* origin, scaled direction */
} snug_ray_filter;

static inline void snug_ray_filter_init(snug_ray_filter* f, const float o[3], const float d[3]) {
    float dm = fabsf(d[0]) > fabsf(d[1]) ? fabsf(d[0]) : fabsf(d[1]);
    dm = dm > fabsf(d[2]) ? dm : fabsf(d[2]);
    /* k = 2^-e for dm = m 2^e, m in [0.5, 1): straight from the exponent bits (frexpf/ldexpf are calls in wasm);
     * denormal or huge dm, where 2^-e is not a normal float, take the library path */
    uint32_t bits;
    memcpy(&bits, &dm, 4);
    uint32_t biased = bits >> 23;
    float k;
    if (biased >= 1 && biased <= 252) {
        bits = (253u - biased) << 23;
        memcpy(&k, &bits, 4);
    } else {
        int ex;
        frexpf(dm, &ex);
        k = ldexpf(1.0f, -ex);
    }
    f->ox = F4_SET1(o[0]), f->oy = F4_SET1(o[1]), f->oz = F4_SET1(o[2]);
    f->dx = F4_SET1(d[0] * k), f->dy = F4_SET1(d[1] * k), f->dz = F4_SET1(d[2] * k);
}

/* Bit i set: triangle i of the packet may be hit (send it to the exact test). */
static inline int snug_ray_filter4(const snug_ray_filter* f, const snug_ray_packet* p) {
    const float(*v)[4] = p->v;
    f4 ax = F4_SUB(F4_LOAD(v[0]), f->ox), ay = F4_SUB(F4_LOAD(v[1]), f->oy), az = F4_SUB(F4_LOAD(v[2]), f->oz);
    f4 bx = F4_SUB(F4_LOAD(v[3]), f->ox), by = F4_SUB(F4_LOAD(v[4]), f->oy), bz = F4_SUB(F4_LOAD(v[5]), f->oz);
    f4 cx = F4_SUB(F4_LOAD(v[6]), f->ox), cy = F4_SUB(F4_LOAD(v[7]), f->oy), cz = F4_SUB(F4_LOAD(v[8]), f->oz);
    /* w_c = D . (A x B) = B . (D x A), and cyclically */
#define SNUG_RF_W(px, py, pz, qx, qy, qz)                                                                         \
    F4_ADD(F4_ADD(F4_MUL(qx, F4_SUB(F4_MUL(f->dy, pz), F4_MUL(f->dz, py))),                                    \
                  F4_MUL(qy, F4_SUB(F4_MUL(f->dz, px), F4_MUL(f->dx, pz)))),                                   \
           F4_MUL(qz, F4_SUB(F4_MUL(f->dx, py), F4_MUL(f->dy, px))))
    f4 wc = SNUG_RF_W(ax, ay, az, bx, by, bz);
    f4 wa = SNUG_RF_W(bx, by, bz, cx, cy, cz);
    f4 wb = SNUG_RF_W(cx, cy, cz, ax, ay, az);
#undef SNUG_RF_W
    f4 m = F4_MAX(F4_MAX(F4_MAX(F4_ABS(ax), F4_ABS(ay)), F4_MAX(F4_ABS(az), F4_ABS(bx))),
                  F4_MAX(F4_MAX(F4_ABS(by), F4_ABS(bz)), F4_MAX(F4_MAX(F4_ABS(cx), F4_ABS(cy)), F4_ABS(cz))));
    const f4 floor = F4_SET1(16.0f * FLT_MIN);
    f4 e = F4_ADD(F4_MUL(m, F4_ADD(F4_MUL(m, F4_SET1(32.0f * FLT_EPSILON)), floor)), floor);
    f4 ne = F4_SUB(F4_SET1(0.0f), e);
    f4 neg = F4_OR(F4_OR(F4_LT(wa, ne), F4_LT(wb, ne)), F4_LT(wc, ne));
    f4 pos = F4_OR(F4_OR(F4_LT(e, wa), F4_LT(e, wb)), F4_LT(e, wc));
    f4 sure = F4_AND(F4_AND(neg, pos), F4_LT(m, F4_SET1(6e18f)));
    return ~F4_BITS(sure) & 15;
}

#endif
