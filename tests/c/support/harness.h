/* A tiny test harness in the Box2D style. Each test file defines test functions and a main that runs them:
 *
 *   static void test_something(void) { CHECK(1 + 1 == 2); }
 *   int main(void) { RUN(test_something); return harness_finish(); }
 *
 * Randomized tests take their seed from harness_seed() (SNUG_SEED overrides it; failures print it) and scale
 * their case counts by harness_scale() (SNUG_TEST_SCALE, 10 in the long make target). The closing line is
 * "N passed, N failed" where N counts test functions. */
#ifndef SNUG_HARNESS_H
#define SNUG_HARNESS_H

#include <stdint.h>
#include <stdio.h>

extern int harness_current_failed;

void harness_run(const char* name, void (*fn)(void));
int harness_finish(void);
void harness_fail(const char* file, int line, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
uint64_t harness_seed(void);
int harness_scale(void);

/* xoshiro-style PRNG so every platform draws the same numbers from the same seed. */
typedef struct rng {
    uint64_t s;
} rng;
uint64_t rng_next(rng* r);
float rng_float(rng* r);                       /* [0, 1) */
float rng_range(rng* r, float lo, float hi);   /* [lo, hi) */
void rng_unit_quat(rng* r, float q[4]);
void rng_unit_vec(rng* r, float v[3]);

#define RUN(fn) harness_run(#fn, fn)
#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond)) harness_fail(__FILE__, __LINE__, "%s", #cond);  \
    } while (0)
#define CHECK_MSG(cond, ...)                                          \
    do {                                                              \
        if (!(cond)) harness_fail(__FILE__, __LINE__, __VA_ARGS__);  \
    } while (0)
#define CHECK_NEAR(a, b, tol)                                                                              \
    do {                                                                                                   \
        double a_ = (double)(a), b_ = (double)(b), t_ = (double)(tol);                                     \
        if (!(a_ - b_ <= t_ && b_ - a_ <= t_))                                                             \
            harness_fail(__FILE__, __LINE__, "%s = %.9g, %s = %.9g, tolerance %.3g", #a, a_, #b, b_, t_); \
    } while (0)
/* Stop the current test function after a failure (for loops over many random cases). */
#define RETURN_IF_FAILED()                      \
    do {                                        \
        if (harness_current_failed) return;     \
    } while (0)

#endif
