/* Timing and result rows shared by the C benchmark programs (snug in C, native and wasm; FCL in C++).
 * A measurement: warm-up calls, then samples of `inner` calls each (inner grows until a sample takes about 2 ms,
 * so microsecond queries are not lost in clock noise) until the repetition count and time budget are met. In wasm
 * V8 first runs a function as its baseline compiler made it and swaps in optimized code only once it has run a
 * while: the warm-up goes on for 100 ms so that the samples time the optimized code. A
 * query taking a few tenths of a millisecond, sampled one call at a time, otherwise mixed both (teapot x torus
 * knot 3 apart: median 0.22 ms, 0.13 ms with the optimizing tier only).
 * Rows go to stdout as one JSON object per line prefixed "ROW ", which tests/bench/run.mjs collects. */
#ifndef SNUG_BENCH_TIMING_H
#define SNUG_BENCH_TIMING_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct bench_stats {
    double med, min, max; /* ms per call */
    int n;                /* samples */
    long calls;           /* calls timed in all */
} bench_stats;

static inline double bench_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static inline int bench_cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* Time fn(arg): at least min_reps samples, more while under budget_ms, at most 41. A first call that alone
 * exceeds budget_ms is the only sample (n = 1). */
static inline bench_stats bench_measure(void (*fn)(void*), void* arg, int min_reps, double budget_ms) {
    enum { MAX_SAMPLES = 41 };
    double samples[MAX_SAMPLES];
    bench_stats s;
    memset(&s, 0, sizeof s);
    double t0 = bench_now_ms();
    fn(arg); /* warm-up: caches, scratch arenas, JIT tiers in wasm */
    double first = bench_now_ms() - t0;
    while (bench_now_ms() - t0 < 100.0) {
        double a = bench_now_ms();
        fn(arg);
        first = bench_now_ms() - a; /* the last warm-up call sizes the samples */
    }
    long inner = 1;
    if (first < 2.0) inner = (long)(2.0 / (first > 1e-5 ? first : 1e-5)) + 1;
    if (inner > 1000000) inner = 1000000;
    /* A call slower than the whole budget (a slow variant) is reported from that one call, not repeated. */
    if (first > budget_ms) {
        s.med = s.min = s.max = first;
        s.n = 1;
        s.calls = 1;
        return s;
    }
    double start = bench_now_ms();
    while (s.n < MAX_SAMPLES && (s.n < min_reps || bench_now_ms() - start < budget_ms)) {
        double a = bench_now_ms();
        for (long i = 0; i < inner; ++i) fn(arg);
        samples[s.n++] = (bench_now_ms() - a) / (double)inner;
        s.calls += inner;
    }
    qsort(samples, (size_t)s.n, sizeof(double), bench_cmp_double);
    s.min = samples[0];
    s.max = samples[s.n - 1];
    s.med = s.n % 2 ? samples[s.n / 2] : 0.5 * (samples[s.n / 2 - 1] + samples[s.n / 2]);
    return s;
}

/* JSON string body with quotes and backslashes escaped (names and messages only, no control characters). */
static inline void bench_json_str(const char* s) {
    putchar('"');
    for (; s && *s; ++s) {
        if (*s == '"' || *s == '\\') putchar('\\');
        putchar(*s >= 32 ? *s : ' ');
    }
    putchar('"');
}

/* One result row. status: "ok", "wrong", "error", "not implemented yet", ...; answer may be NAN (none). */
static inline void bench_row(const char* sec, const char* cas, const char* impl, const bench_stats* st,
                             const char* status, double answer, const char* note) {
    printf("ROW {\"sec\":");
    bench_json_str(sec);
    printf(",\"case\":");
    bench_json_str(cas);
    printf(",\"impl\":");
    bench_json_str(impl);
    if (st && st->n > 0)
        printf(",\"med\":%.6g,\"min\":%.6g,\"max\":%.6g,\"n\":%d,\"calls\":%ld", st->med, st->min, st->max, st->n,
               st->calls);
    printf(",\"status\":");
    bench_json_str(status);
    if (!isnan(answer)) printf(",\"answer\":%.9g", answer);
    if (note && *note) {
        printf(",\"note\":");
        bench_json_str(note);
    }
    printf("}\n");
    fflush(stdout);
}

/* The benchmark poses (tests/bench/common.mjs computes the same): body B is A's mesh rotated `angle` about the
 * Y axis through the mesh's AABB centre, then shifted `shift` x AABB diagonal along +X. Row-major R, t. */
static inline void bench_pair_pose(const float* positions, unsigned vertex_count, double angle, double shift,
                                   double R[9], double t[3], double* diag_out) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (unsigned v = 0; v < vertex_count; ++v)
        for (int a = 0; a < 3; ++a) {
            double x = positions[3 * v + a];
            if (x < lo[a]) lo[a] = x;
            if (x > hi[a]) hi[a] = x;
        }
    double c[3], d2 = 0;
    for (int a = 0; a < 3; ++a) {
        c[a] = 0.5 * (lo[a] + hi[a]);
        d2 += (hi[a] - lo[a]) * (hi[a] - lo[a]);
    }
    double diag = sqrt(d2), cs = cos(angle), sn = sin(angle);
    double r[9] = {cs, 0, sn, 0, 1, 0, -sn, 0, cs};
    memcpy(R, r, sizeof r);
    for (int i = 0; i < 3; ++i) t[i] = c[i] - (r[3 * i] * c[0] + r[3 * i + 1] * c[1] + r[3 * i + 2] * c[2]);
    t[0] += shift * diag;
    if (diag_out) *diag_out = diag;
}

/* The far-apart distance cases (tests/bench/common.mjs FAR_CASES): mesh A stays at the identity, mesh B keeps its
 * rotation and is moved so that the two bounding spheres (AABB centre, half the AABB diagonal) are `gap` apart
 * along the diagonal (1, 1, 1), where the axis-aligned boxes of both trees fall shortest of their triangles. t: B's
 * translation. */
static inline void bench_box_sphere(const float* positions, unsigned vertex_count, double c[3], double* r) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, d2 = 0;
    for (unsigned v = 0; v < vertex_count; ++v)
        for (int a = 0; a < 3; ++a) {
            double x = positions[3 * v + a];
            if (x < lo[a]) lo[a] = x;
            if (x > hi[a]) hi[a] = x;
        }
    for (int a = 0; a < 3; ++a) c[a] = 0.5 * (lo[a] + hi[a]), d2 += (hi[a] - lo[a]) * (hi[a] - lo[a]);
    *r = 0.5 * sqrt(d2);
}

static inline void bench_far_pose(const float* pa, unsigned na, const float* pb, unsigned nb, double gap, double t[3]) {
    double ca[3], cb[3], ra, rb;
    bench_box_sphere(pa, na, ca, &ra);
    bench_box_sphere(pb, nb, cb, &rb);
    double step = (ra + rb + gap) / sqrt(3.0);
    for (int i = 0; i < 3; ++i) t[i] = ca[i] - cb[i] + step;
}

#endif
