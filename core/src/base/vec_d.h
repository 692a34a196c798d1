/* Double-precision 3-vectors by value, for the geometry that decides in double on float inputs (triangle tests,
 * CCD features, BV fits, crossing tests): a difference of two float coordinates is exact in double, and the few
 * products that follow are accurate far below any mesh tolerance. Each operation is the plain expression per
 * component in the written order (ddot is (x + y) + z), so code written with them rounds as the same code written
 * out by hand. */
#ifndef SNUG_VEC_D_H
#define SNUG_VEC_D_H

#include <math.h>
#include <stdbool.h>

typedef struct dvec {
    double x, y, z;
} dvec;

static inline dvec dxyz(double x, double y, double z) { return (dvec){x, y, z}; }
static inline dvec dv(const float p[3]) { return (dvec){p[0], p[1], p[2]}; }
static inline dvec dload(const double p[3]) { return (dvec){p[0], p[1], p[2]}; }
static inline void dstore(dvec a, double out[3]) { out[0] = a.x, out[1] = a.y, out[2] = a.z; }
static inline void dstore_f(dvec a, float out[3]) { out[0] = (float)a.x, out[1] = (float)a.y, out[2] = (float)a.z; }

static inline dvec dsub(dvec a, dvec b) { return (dvec){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline dvec dadd(dvec a, dvec b) { return (dvec){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline dvec dscale(dvec a, double s) { return (dvec){a.x * s, a.y * s, a.z * s}; }
/* a + b s */
static inline dvec dmadd(dvec a, dvec b, double s) { return (dvec){a.x + b.x * s, a.y + b.y * s, a.z + b.z * s}; }
static inline dvec ddiv(dvec a, double s) { return (dvec){a.x / s, a.y / s, a.z / s}; }
static inline dvec dneg(dvec a) { return (dvec){-a.x, -a.y, -a.z}; }
static inline double ddot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline dvec dcross(dvec a, dvec b) {
    return (dvec){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static inline double dlen(dvec a) { return sqrt(ddot(a, a)); }
/* a / |a|, or the zero vector for a zero a (vec_d.c: out of line, as placement calls it from many places and the
 * inlined copies cost the wasm module its size budget) */
dvec dnorm(dvec a);
static inline bool dfinite(dvec a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
static inline double ddist2(dvec a, dvec b) {
    dvec d = dsub(a, b);
    return ddot(d, d);
}

/* The same on double[3] arrays in memory (BV fits, polygons, clipping). */
static inline double dot3(const double a[3], const double b[3]) { return ddot(dload(a), dload(b)); }
static inline double dist2(const double a[3], const double b[3]) { return ddist2(dload(a), dload(b)); }
static inline void cross3(const double a[3], const double b[3], double out[3]) {
    dstore(dcross(dload(a), dload(b)), out);
}

/* min/max as comparisons (fmin/fmax are library calls without fast-math) and a clamp to [0, 1] */
static inline double dmin(double a, double b) { return b < a ? b : a; }
static inline double dmax(double a, double b) { return b > a ? b : a; }
static inline double dclamp01(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

#endif
