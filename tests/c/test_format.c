/* The core's message formatter (format.c) against the C library's snprintf: every conversion the core uses,
 * truncation at every buffer size, and %g on special values and random doubles from subnormal to huge (the
 * same text, or on a rounding tie a sixth digit one unit apart). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ctx.h"
#include "harness.h"

static void same_as_libc(const char* what, const char* ours, size_t our_len, const char* libc, int libc_len) {
    CHECK_MSG(strcmp(ours, libc) == 0 && our_len == (size_t)libc_len, "%s: \"%s\" (%zu) against \"%s\" (%d)", what,
              ours, our_len, libc, libc_len);
}

static void test_integers_strings_and_truncation(void) {
    rng r = {harness_seed() ^ 0xf0f0ull};
    char ours[96], libc[96];
    for (int c = 0; c < 2000 * harness_scale(); c++) {
        unsigned u = c < 4 ? (unsigned[]){0u, 1u, 4294967295u, 2147483648u}[c] : (unsigned)rng_next(&r) >> (c % 32);
        int d = (int)u;
        size_t z = (size_t)rng_next(&r) >> (c % 40);
        unsigned long long ll = rng_next(&r) >> (c % 64);
        const char* s = c % 3 ? "mesh" : "";
        size_t n = snug_format(ours, sizeof ours, "a%ub%dc%xd%08xe%zuf%llug%sh%ci%%j%3u", u, d, u, u, z, ll, s,
                               'A' + c % 26, u % 1000);
        int m = snprintf(libc, sizeof libc, "a%ub%dc%xd%08xe%zuf%llug%sh%ci%%j%3u", u, d, u, u, z, ll, s,
                         'A' + c % 26, u % 1000);
        same_as_libc("integers", ours, n, libc, m);
        /* every smaller buffer holds the same prefix and reports the same full length */
        for (size_t size = 0; size < (size_t)m + 2 && c < 50; size++) {
            char a[96], b[96];
            memset(a, 'x', sizeof a);
            memset(b, 'x', sizeof b);
            size_t n2 = snug_format(a, size, "%s: %u of %d", "vertex", u, d);
            int m2 = snprintf(b, size, "%s: %u of %d", "vertex", u, d);
            CHECK_MSG(n2 == (size_t)m2 && memcmp(a, b, size + 1) == 0, "size %zu: \"%.*s\" against \"%.*s\"", size,
                      (int)size, a, (int)size, b);
        }
        RETURN_IF_FAILED();
    }
}

static void check_g(double v) {
    char ours[64], libc[64];
    size_t n = snug_format(ours, sizeof ours, "%g", v);
    int m = snprintf(libc, sizeof libc, "%g", v);
    if (strcmp(ours, libc) == 0 && n == (size_t)m) return;
    /* a tie in the sixth digit may round the other way: same form, values one unit apart */
    double a = strtod(ours, NULL), b = strtod(libc, NULL), unit = fabs(b) * 1.01e-5;
    CHECK_MSG(isfinite(v) && (strchr(ours, 'e') != NULL) == (strchr(libc, 'e') != NULL) && fabs(a - b) <= unit,
              "%%g of %.17g: \"%s\" against \"%s\"", v, ours, libc);
}

static void test_g_like_printf(void) {
    static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 1e-5, 1e-4, 9.99999e-5, 123456.0, 999999.0,
                                     999999.5, 1e6, 1e15, 1e22, 1e23, 1e300, 1.7976931348623157e308, 5e-324,
                                     2.2250738585072014e-308, 3.14159265358979, 0.0001, 0.00001, 100.0, 2.5, 1e21};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) check_g(special[i]), check_g(-special[i]);
    char buf[32];
    snug_format(buf, sizeof buf, "%g %g %g %g", NAN, -NAN, INFINITY, -INFINITY);
    CHECK_MSG(strcmp(buf, "nan -nan inf -inf") == 0, "specials: %s", buf);
    rng r = {harness_seed() ^ 0x9e11ull};
    for (int c = 0; c < 100000 * harness_scale(); c++) {
        /* random bit patterns (every exponent) and short decimals (many ties near the sixth digit) */
        uint64_t bits = rng_next(&r);
        double v;
        memcpy(&v, &bits, sizeof v);
        if (c % 2) v = (double)(rng_next(&r) % 20000000) * pow(10.0, (double)(int)(rng_next(&r) % 40) - 20) / 16.0;
        if (!isfinite(v)) continue;
        check_g(v);
        RETURN_IF_FAILED();
    }
}

int main(void) {
    RUN(test_integers_strings_and_truncation);
    RUN(test_g_like_printf);
    return harness_finish();
}
