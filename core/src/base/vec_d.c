/* The out-of-line part of vec_d.h. */
#include "base/vec_d.h"

dvec dnorm(dvec a) {
    double l = dlen(a);
    return l > 0.0 ? dscale(a, 1.0 / l) : (dvec){0, 0, 0};
}
