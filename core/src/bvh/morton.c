/* Radix sort of (code, value) pairs; see morton.h. */
#include "bvh/morton.h"

#include <string.h>

#define DIGIT_MAX 11

void snug_radix_sort(uint32_t* code, uint32_t* value, uint32_t* code_tmp, uint32_t* value_tmp, uint32_t n, int bits) {
    int passes = (bits + DIGIT_MAX - 1) / DIGIT_MAX;
    if (passes < 1 || n < 2) return;
    /* equal digits per pass: fewer buckets than 11 bits when the key is shorter (a 18-bit key takes 2 x 9) */
    int width = (bits + passes - 1) / passes;
    uint32_t mask[3];
    for (int p = 0; p < passes; p++) {
        int w = bits - p * width < width ? bits - p * width : width; /* the last digit may be narrower */
        mask[p] = (1u << w) - 1u;
    }
    _Static_assert(DIGIT_MAX * 3 >= 32, "three passes cover 32 bits");
    uint32_t hist[3][1u << DIGIT_MAX];
    memset(hist, 0, (size_t)passes * sizeof hist[0]);
    for (uint32_t i = 0; i < n; i++)
        for (int p = 0; p < passes; p++) hist[p][(code[i] >> (p * width)) & mask[p]]++;
    uint32_t *src_c = code, *src_v = value, *dst_c = code_tmp, *dst_v = value_tmp;
    for (int p = 0; p < passes; p++) {
        uint32_t* h = hist[p];
        uint32_t sum = 0;
        for (uint32_t d = 0; d <= mask[p]; d++) {
            uint32_t c = h[d];
            h[d] = sum;
            sum += c;
        }
        int shift = p * width;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t at = h[(src_c[i] >> shift) & mask[p]]++;
            dst_c[at] = src_c[i];
            dst_v[at] = src_v[i];
        }
        uint32_t *tc = src_c, *tv = src_v;
        src_c = dst_c, src_v = dst_v, dst_c = tc, dst_v = tv;
    }
    if (src_c != code) {
        memcpy(code, src_c, n * sizeof *code);
        memcpy(value, src_v, n * sizeof *value);
    }
}
