#include "harness.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

int harness_current_failed;
static int passed, failed, printed_failures;
static const char* current_name = "";

void harness_fail(const char* file, int line, const char* fmt, ...) {
    harness_current_failed = 1;
    if (printed_failures++ > 50) return; /* keep the log readable when a loop fails many times */
    fprintf(stderr, "FAIL %s (%s:%d, seed %llu): ", current_name, file, line, (unsigned long long)harness_seed());
    va_list args;
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
}

void harness_run(const char* name, void (*fn)(void)) {
    current_name = name;
    harness_current_failed = 0;
    fn();
    if (harness_current_failed) failed++;
    else passed++;
    printf("%s %s\n", harness_current_failed ? "FAIL" : "ok  ", name);
    fflush(stdout);
}

int harness_finish(void) {
    printf("seed %llu, scale %d\n", (unsigned long long)harness_seed(), harness_scale());
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

uint64_t harness_seed(void) {
    static uint64_t seed;
    static int init;
    if (!init) {
        const char* s = getenv("SNUG_SEED");
        seed = s ? strtoull(s, NULL, 10) : 20261122ull;
        init = 1;
    }
    return seed;
}

int harness_scale(void) {
    const char* s = getenv("SNUG_TEST_SCALE");
    int v = s ? atoi(s) : 1;
    return v > 0 ? v : 1;
}

uint64_t rng_next(rng* r) { /* splitmix64 */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

float rng_float(rng* r) { return (float)(rng_next(r) >> 40) * (1.0f / 16777216.0f); }

float rng_range(rng* r, float lo, float hi) { return lo + (hi - lo) * rng_float(r); }

void rng_unit_vec(rng* r, float v[3]) {
    float n2;
    do {
        for (int i = 0; i < 3; i++) v[i] = rng_range(r, -1.0f, 1.0f);
        n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    } while (n2 < 1e-4f || n2 > 1.0f);
    float inv = 1.0f / sqrtf(n2);
    for (int i = 0; i < 3; i++) v[i] *= inv;
}

void rng_unit_quat(rng* r, float q[4]) {
    float n2;
    do {
        for (int i = 0; i < 4; i++) q[i] = rng_range(r, -1.0f, 1.0f);
        n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    } while (n2 < 1e-4f || n2 > 1.0f);
    float inv = 1.0f / sqrtf(n2);
    for (int i = 0; i < 4; i++) q[i] *= inv;
}
