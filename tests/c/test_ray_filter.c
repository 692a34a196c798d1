/* The float filter in front of the exact ray-triangle test (core/src/ray_filter.h) against that exact test: it
 * must keep every triangle the exact test hits, on rays through vertices and edges, nearly parallel rays, far
 * origins, tiny and huge coordinates and degenerate triangles; and it must reject nearly every triangle that the
 * ray's whole line misses (else it would be useless; hits behind the origin are the exact test's to reject). */
#include "harness.h"
#include "bvh/ray_filter.h"
#include "geom/tri.h"

#include <math.h>

static void put(snug_ray_packet* p, int lane, const float a[3], const float b[3], const float c[3]) {
    for (int k = 0; k < 3; k++) {
        p->v[k][lane] = a[k];
        p->v[3 + k][lane] = b[k];
        p->v[6 + k][lane] = c[k];
    }
}

/* A point of triangle (a, b, c) chosen to be hard: a corner, a point on an edge, the inside, or just outside. */
static void target(rng* r, const float a[3], const float b[3], const float c[3], int kind, float out[3]) {
    float s = rng_range(r, 0.0f, 1.0f), t = rng_range(r, 0.0f, 1.0f);
    for (int k = 0; k < 3; k++) {
        switch (kind) {
        case 0: out[k] = a[k]; break;
        case 1: out[k] = a[k] + s * (b[k] - a[k]); break;
        case 2: out[k] = b[k] + s * (c[k] - b[k]); break;
        case 3: out[k] = (a[k] + b[k] + c[k]) / 3.0f; break;
        default: out[k] = a[k] + (1.0f + 1e-5f * t) * s * (b[k] - a[k]) + 1e-6f * (t - 0.5f) * (c[k] - a[k]); break;
        }
    }
}

static void test_filter_keeps_every_hit(void) {
    rng r = {harness_seed()};
    static const float scales[] = {1e-18f, 1e-3f, 1.0f, 1e3f, 1e18f};
    /* direction lengths: the filter rescales by a power of two, through the exponent bits or (denormal, huge)
     * the library; a denormal direction overflows the scale and the filter then keeps everything */
    static const float dscale[] = {1.0f, 0.01f, 1e-30f, 1e30f, 1e-41f, 1e19f};
    long cases = 0, hits = 0, kept = 0, misses = 0, rejected = 0, generic_misses = 0, generic_rejected = 0;
    int n = 40000 * harness_scale();
    for (int i = 0; i < n && !harness_current_failed; i++) {
        float scale = scales[i % 5];
        float far = (i / 5) % 3 == 0 ? 1.0f : ((i / 5) % 3 == 1 ? 30.0f : 3000.0f); /* origin distance / size */
        snug_ray_packet p;
        float tri[4][9];
        for (int l = 0; l < 4; l++) {
            for (int k = 0; k < 9; k++) tri[l][k] = rng_range(&r, -1.0f, 1.0f) * scale;
            if (l == 3 && i % 7 == 0) /* degenerate: collinear or repeated corner */
                for (int k = 0; k < 3; k++) tri[l][6 + k] = i % 14 ? tri[l][k] : 2.0f * tri[l][3 + k] - tri[l][k];
            put(&p, l, tri[l], tri[l] + 3, tri[l] + 6);
        }
        /* the ray aims at a hard point of lane i % 4; the other lanes are whatever it meets */
        int aim = i % 4, kind = (i / 4) % 6;
        float to[3], o[3], d[3], dir[3];
        if (kind == 5) {
            for (int k = 0; k < 3; k++) to[k] = rng_range(&r, -1.0f, 1.0f) * scale;
        } else {
            target(&r, tri[aim], tri[aim] + 3, tri[aim] + 6, kind, to);
        }
        rng_unit_vec(&r, dir);
        if (i % 11 == 0) { /* nearly in the triangle's plane */
            float e1[3], e2[3];
            for (int k = 0; k < 3; k++) e1[k] = tri[aim][3 + k] - tri[aim][k], e2[k] = tri[aim][6 + k] - tri[aim][k];
            for (int k = 0; k < 3; k++) dir[k] = e1[k] + 1e-6f * dir[k] * scale + 0.3f * e2[k];
        }
        for (int k = 0; k < 3; k++) {
            o[k] = to[k] - far * scale * dir[k];
            d[k] = (to[k] - o[k]) * dscale[(i / 3) % 6];
        }
        snug_ray_filter f;
        snug_ray_filter_init(&f, o, d);
        int mask = snug_ray_filter4(&f, &p);
        for (int l = 0; l < 4; l++) {
            float t, u, v;
            bool hit = snug_ray_tri(o, d, INFINITY, tri[l], tri[l] + 3, tri[l] + 6, &t, &u, &v);
            bool keep = (mask >> l) & 1;
            cases++;
            hits += hit;
            kept += hit && keep;
            misses += !hit;
            rejected += !hit && !keep;
            float back[3] = {-d[0], -d[1], -d[2]};
            bool line_misses = !hit && !snug_ray_tri(o, back, INFINITY, tri[l], tri[l] + 3, tri[l] + 6, &t, &u, &v);
            if (kind == 5 && far <= 30.0f && scale >= 1e-3f && scale <= 1e3f && dscale[(i / 3) % 6] != 1e-41f && line_misses) generic_misses++, generic_rejected += !keep;
            CHECK_MSG(!hit || keep, "case %d lane %d (scale %g, origin at %g sizes, kind %d): the filter drops a hit "
                      "(seed %llu)", i, l, (double)scale, (double)far, kind, (unsigned long long)harness_seed());
        }
    }
    printf("  %ld triangle tests: %ld hits all kept (%ld), %ld misses, %ld rejected; lines missing (scales 1e-3..1e3, normal directions) rejected %.1f %%\n",
           cases, hits, kept, misses, rejected, 100.0 * (double)generic_rejected / (double)(generic_misses + 1));
    CHECK(hits > cases / 10);
    CHECK(generic_rejected > generic_misses * 95 / 100);
}

/* Overflowing products (coordinates near FLT_MAX) and NaN never make the filter drop anything. */
static void test_filter_overflow(void) {
    const float big = 1e30f;
    float a[3] = {-big, -big, 0}, b[3] = {big, -big, 0}, c[3] = {0, big, 0};
    float o[3] = {0, 0, big}, d[3] = {0, 0, -1};
    snug_ray_packet p;
    for (int l = 0; l < 4; l++) put(&p, l, a, b, c);
    snug_ray_filter f;
    snug_ray_filter_init(&f, o, d);
    float t, u, v;
    CHECK(snug_ray_tri(o, d, INFINITY, a, b, c, &t, &u, &v));
    CHECK(snug_ray_filter4(&f, &p) == 15);
}

int main(void) {
    RUN(test_filter_keeps_every_hit);
    RUN(test_filter_overflow);
    return harness_finish();
}
