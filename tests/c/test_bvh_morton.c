/* Morton codes and the radix sort (core/src/morton.h) against independent references: codes against
 * bit-by-bit interleaving, the sort against a comparison sort on (masked code, original position), which is
 * the stable order. Seeded; few distinct codes (stability), full-range codes, every key width 1..32. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "bvh/morton.h"

static uint32_t interleave_ref(uint32_t x, uint32_t y, uint32_t z) {
    uint32_t code = 0;
    for (int i = 0; i < 10; i++) {
        code |= ((x >> i) & 1u) << (3 * i + 2);
        code |= ((y >> i) & 1u) << (3 * i + 1);
        code |= ((z >> i) & 1u) << (3 * i);
    }
    return code;
}

static void test_morton_codes(void) {
    rng r = {harness_seed() ^ 0x3011ull};
    int cases = 100000 * harness_scale();
    for (int c = 0; c < cases; c++) {
        uint32_t x = (uint32_t)rng_next(&r) & 1023u, y = (uint32_t)rng_next(&r) & 1023u, z = (uint32_t)rng_next(&r) & 1023u;
        if (c < 8) x = c & 1 ? 1023u : 0u, y = c & 2 ? 1023u : 0u, z = c & 4 ? 1023u : 0u;
        CHECK_MSG(snug_morton3(x, y, z) == interleave_ref(x, y, z), "(%u, %u, %u)", x, y, z);
        RETURN_IF_FAILED();
    }
    /* bits above the tenth are ignored */
    CHECK(snug_morton3(1024u | 5u, 2048u, 0xfffffc00u) == interleave_ref(5u, 0u, 0u));
}

typedef struct pair {
    uint32_t key, pos, code, value;
} pair;

static int cmp_pair(const void* a, const void* b) {
    const pair *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void test_radix_sort_against_comparison_sort(void) {
    rng r = {harness_seed() ^ 0x4ad1ull};
    int cases = 300 * harness_scale();
    for (int c = 0; c < cases; c++) {
        uint32_t n = c < 3 ? (uint32_t)c : 1 + (uint32_t)(rng_next(&r) % (c % 10 == 0 ? 70000 : 3000));
        int bits = 1 + (int)(rng_next(&r) % 32);
        int distinct = c % 3; /* 0: full range, 1: few distinct codes, 2: runs of equal codes (clusters) */
        uint32_t* code = malloc(4 * (size_t)n + 4);
        uint32_t* value = malloc(4 * (size_t)n + 4);
        uint32_t* tmp_c = malloc(4 * (size_t)n + 4);
        uint32_t* tmp_v = malloc(4 * (size_t)n + 4);
        pair* ref = malloc(sizeof *ref * (size_t)n + sizeof *ref);
        uint32_t mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1u;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t v = (uint32_t)rng_next(&r);
            if (distinct == 1) v = (uint32_t)(rng_next(&r) % 5) * 0x9e3779b9u;
            if (distinct == 2) v = (i / 37u) * 0x01000193u ^ (uint32_t)(rng_next(&r) % 2) << 31;
            code[i] = v;
            value[i] = (uint32_t)rng_next(&r);
            ref[i] = (pair){v & mask, i, v, value[i]};
        }
        qsort(ref, n, sizeof *ref, cmp_pair);
        snug_radix_sort(code, value, tmp_c, tmp_v, n, bits);
        for (uint32_t i = 0; i < n; i++) {
            CHECK_MSG(code[i] == ref[i].code && value[i] == ref[i].value,
                      "case %d (n %u, bits %d, kind %d): position %u holds (%08x, %08x), expected (%08x, %08x)", c, n,
                      bits, distinct, i, code[i], value[i], ref[i].code, ref[i].value);
            if (harness_current_failed) break;
        }
        free(code);
        free(value);
        free(tmp_c);
        free(tmp_v);
        free(ref);
        RETURN_IF_FAILED();
    }
}

int main(void) {
    RUN(test_morton_codes);
    RUN(test_radix_sort_against_comparison_sort);
    return harness_finish();
}
