/* x = k pi/2 + r with |r| <= pi/4 (Cody and Waite: pi/2 in three parts of 33 bits, so k times the first two is
 * exact while |k| < 2^20), then Taylor series on r, cut where the next term is below double rounding. */
#include "base/trig.h"

#include <math.h>

#define PIO2_1 1.57079632673412561417e+00 /* pi/2: its first 33 bits */
#define PIO2_2 6.07710050630396597660e-11 /* the next 33 */
#define PIO2_3 2.02226624871116645580e-21 /* the rest */
#define TWO_OVER_PI 6.36619772367581382433e-01
#define TWO_PI 6.28318530717958623200e+00

/* 1 / (k (k + 1)) for k = 16, 14, ..., 2 (sine, up to r^17 / 17!) and 17, 15, ..., 1 (cosine, up to r^18 / 18!),
 * innermost first: the first term left out is below (pi/4)^19 / 19! < 1e-19. */
static const double inv_s[8] = {1.0 / 272, 1.0 / 210, 1.0 / 156, 1.0 / 110, 1.0 / 72, 1.0 / 42, 1.0 / 20, 1.0 / 6};
static const double inv_c[9] = {1.0 / 306, 1.0 / 240, 1.0 / 182, 1.0 / 132, 1.0 / 90, 1.0 / 56, 1.0 / 30, 1.0 / 12, 1.0 / 2};

void snug_sin_cos(double x, double* s, double* c) {
    if (!isfinite(x)) {
        *s = *c = NAN;
        return;
    }
    if (fabs(x) > 1e6) x = fmod(x, TWO_PI);
    double k = nearbyint(x * TWO_OVER_PI);
    double r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_3, r2 = r * r, ps = 1.0, pc = 1.0;
    for (int i = 0; i < 8; i++) ps = 1.0 - r2 * inv_s[i] * ps;
    for (int i = 0; i < 9; i++) pc = 1.0 - r2 * inv_c[i] * pc;
    double sr = r * ps, cr = pc;
    switch ((int)fmod(k, 4.0) & 3) { /* the quarter turn x lies in (k mod 4, for either sign of k) */
    case 0: *s = sr, *c = cr; break;
    case 1: *s = cr, *c = -sr; break;
    case 2: *s = -sr, *c = -cr; break;
    default: *s = -cr, *c = sr; break;
    }
}
