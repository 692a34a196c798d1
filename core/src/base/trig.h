/* Sine and cosine of angles: turns, tilts, slerp weights. */
#ifndef SNUG_TRIG_H
#define SNUG_TRIG_H

/* sin x and cos x to about an ulp for |x| up to 1e6; beyond it x is first reduced modulo 2 pi (a double's 2 pi, so
 * the phase is only as good as x allows: such angles mean nothing here). NaN for a non-finite x. libm's sin and cos
 * carry a reduction exact for any double (Payne-Hanek), which alone was about a percent of the wasm module. */
void snug_sin_cos(double x, double* s, double* c);

static inline double snug_cos(double x) {
    double s, c;
    snug_sin_cos(x, &s, &c);
    return c;
}

#endif
