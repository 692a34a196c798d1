/* Morton codes (bottom-up builder, cells of the clustered SAH top levels) and the radix sort that orders the
 * bottom-up builder's records by them. */
#ifndef SNUG_MORTON_H
#define SNUG_MORTON_H

#include <stdint.h>

/* The low 10 bits of v moved to every third bit (bit i -> bit 3i). */
static inline uint32_t snug_morton_spread(uint32_t v) {
    v &= 1023u;
    v = (v * 0x00010001u) & 0xFF0000FFu;
    v = (v * 0x00000101u) & 0x0F00F00Fu;
    v = (v * 0x00000011u) & 0xC30C30C3u;
    v = (v * 0x00000005u) & 0x49249249u;
    return v;
}

/* Interleaved code of a cell with coordinates of up to 10 bits each; x takes the highest bit of each triple. */
static inline uint32_t snug_morton3(uint32_t x, uint32_t y, uint32_t z) {
    return snug_morton_spread(x) << 2 | snug_morton_spread(y) << 1 | snug_morton_spread(z);
}

/* Stable LSD radix sort of (code, value) pairs by the low `bits` bits of code (1..32), in passes of at most
 * 11 bits (all histograms from one read of the codes). The tmp arrays hold n entries each; the sorted pairs
 * end in code and value. */
void snug_radix_sort(uint32_t* code, uint32_t* value, uint32_t* code_tmp, uint32_t* value_tmp, uint32_t n, int bits);

#endif
