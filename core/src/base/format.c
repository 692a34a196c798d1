/* Error messages without the C library's printf: its float formatting and the machinery around it were a
 * twentieth of the gzipped wasm module (5.4 KB of its 120 KB budget). Supports what the core's messages use:
 * %s, %c, %d, %u, %x with an optional width (zero-padded with the 0 flag), the z and ll length modifiers, %g (printf's six
 * significant digits; the last digit may differ from the C library's on ties) and %%. */
#include "base/ctx.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

typedef struct sink {
    char* at;
    size_t left; /* room before the terminator */
    size_t written;
} sink;

static void put(sink* s, char c) {
    if (s->left) {
        *s->at++ = c;
        s->left--;
    }
    s->written++;
}

static void put_str(sink* s, const char* str) {
    while (*str) put(s, *str++);
}

/* right-aligned in `width`, padded with zeros after the sign or spaces before it */
static void put_uint(sink* s, unsigned long long v, unsigned base, int width, bool zeros, bool negative) {
    char digits[24];
    int n = 0;
    do {
        digits[n++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    for (int k = n + negative; !zeros && k < width; k++) put(s, ' ');
    if (negative) put(s, '-');
    for (int k = n + negative; zeros && k < width; k++) put(s, '0');
    while (n) put(s, digits[--n]);
}

/* 10^k for |k| <= 22 exactly, beyond in steps of 1e22 */
static double pow10_of(int k) {
    static const double exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    double p = 1.0;
    int a = k < 0 ? -k : k;
    for (; a > 22; a -= 22) p *= 1e22;
    p *= exact[a];
    return k < 0 ? 1.0 / p : p;
}

/* v > 0, finite: six significant digits and the decimal exponent of the first */
static unsigned long six_digits(double v, int* exp10) {
    int e2;
    frexp(v, &e2);
    int e = (int)floor((e2 - 1) * 0.30102999566398120);
    for (int pass = 0; pass < 4; pass++) {
        /* scale by 10^(5 - e) with one rounding where the power is exact */
        int k = 5 - e;
        double m = k >= 0 ? (k > 300 ? v * 1e300 * pow10_of(k - 300) : v * pow10_of(k)) : v / pow10_of(-k);
        double r = floor(m + 0.5);
        if (r - m == 0.5 && r != 2.0 * floor(r / 2.0)) r -= 1.0; /* exact ties to even, as printf rounds them */
        if (r >= 1e6) e++;
        else if (r < 1e5) e--;
        else {
            *exp10 = e;
            return (unsigned long)r;
        }
    }
    *exp10 = e;
    return 100000ul;
}

static void put_g(sink* s, double v) {
    if (signbit(v)) put(s, '-');
    v = fabs(v);
    if (isnan(v) || isinf(v) || v == 0.0) {
        put_str(s, isnan(v) ? "nan" : isinf(v) ? "inf" : "0");
        return;
    }
    int e;
    unsigned long m = six_digits(v, &e);
    char d[6];
    for (int i = 5; i >= 0; i--, m /= 10) d[i] = (char)('0' + m % 10);
    int n = 6; /* significant digits without trailing zeros */
    while (n > 1 && d[n - 1] == '0') n--;
    if (e < -4 || e >= 6) {
        put(s, d[0]);
        if (n > 1) put(s, '.');
        for (int i = 1; i < n; i++) put(s, d[i]);
        put(s, 'e');
        put(s, e < 0 ? '-' : '+');
        put_uint(s, (unsigned)(e < 0 ? -e : e), 10, 2, true, false);
    } else if (e >= 0) {
        for (int i = 0; i <= e; i++) put(s, i < n ? d[i] : '0');
        if (n > e + 1) put(s, '.');
        for (int i = e + 1; i < n; i++) put(s, d[i]);
    } else {
        put_str(s, "0.");
        for (int i = -1; i > e; i--) put(s, '0');
        for (int i = 0; i < n; i++) put(s, d[i]);
    }
}

size_t snug_vformat(char* out, size_t size, const char* fmt, va_list args) {
    sink s = {out, size ? size - 1 : 0, 0};
    for (const char* f = fmt; *f; f++) {
        if (*f != '%') {
            put(&s, *f);
            continue;
        }
        f++;
        bool zeros = *f == '0';
        int width = 0;
        while (*f >= '0' && *f <= '9') width = 10 * width + (*f++ - '0');
        int longs = 0; /* 1: size_t, 2: long long */
        if (*f == 'z') longs = 1, f++;
        else if (f[0] == 'l' && f[1] == 'l') longs = 2, f += 2;
        switch (*f) {
        case 'd': {
            long long v = longs == 2 ? va_arg(args, long long) : longs ? (long long)va_arg(args, size_t) : va_arg(args, int);
            put_uint(&s, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, 10, width, zeros, v < 0);
            break;
        }
        case 'u':
        case 'x': {
            unsigned long long v = longs == 2 ? va_arg(args, unsigned long long)
                                   : longs   ? va_arg(args, size_t)
                                             : va_arg(args, unsigned);
            put_uint(&s, v, *f == 'x' ? 16 : 10, width, zeros, false);
            break;
        }
        case 'g': put_g(&s, va_arg(args, double)); break;
        case 's': put_str(&s, va_arg(args, const char*)); break;
        case 'c': put(&s, (char)va_arg(args, int)); break;
        case '%': put(&s, '%'); break;
        default: /* not a conversion the core uses: shown as written */
            put(&s, '%');
            if (!*f) f--;
            else put(&s, *f);
        }
    }
    if (size) *s.at = '\0';
    return s.written;
}

size_t snug_format(char* out, size_t size, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    size_t n = snug_vformat(out, size, fmt, args);
    va_end(args);
    return n;
}
