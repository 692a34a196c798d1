/* Micro-benchmark of the bounding-volume kernels: ns per pair test (1024 cached random pairs per call, B's centre
 * uniform in [-1.5, 1.5]^3 around A, half extents in [0.1, 1], random rotations, about half overlapping) and ms per
 * fit of the 11k dragon. Not part of `make bench` (that one measures whole queries against the anchors); this is
 * the per-kernel cost behind them. It links the research library (seed 004's test). Build and run from the
 * repository root (SUPPORT = tests/c/support/harness.c tests/c/support/test_meshes.c):
 *   native: make native meshes && cc -std=c11 -O3 -Icore/include -Icore/src -Itests/c/support tests/bench/bv_micro.c \
 *           $SUPPORT build/native/libsnug-research.a -lm -o build/bv_micro && ./build/bv_micro
 *   wasm:   make build/wasm/libsnug-research.a && NODE_PATH=/usr/share/nodejs emcc -std=c11 -O3 -msimd128 \
 *           -Icore/include -Icore/src -Itests/c/support -Ibuild/include tests/bench/bv_micro.c $SUPPORT \
 *           build/wasm/libsnug-research.a -sENVIRONMENT=node -sNODERAWFS=1 -sWASM_ASYNC_COMPILATION=0 \
 *           -sALLOW_MEMORY_GROWTH=1 \
 *           -o build/bv_micro.cjs && node build/bv_micro.cjs
 * The figures are wall-clock medians: on a shared machine compare the min column and ratios within one run. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <stdio.h>

#include "geom/bv.h"
#include "research/obb_seed004.h"
#include "harness.h"
#include "test_meshes.h"
#include "timing.h"

enum { PAIRS = 1024 };

static snug_sphere sa[PAIRS], sb[PAIRS];
static snug_aabb aa[PAIRS], ab[PAIRS];
static snug_obb oa[PAIRS], ob[PAIRS];
static snug_kdop k14a[PAIRS], k14b[PAIRS], k26a[PAIRS], k26b[PAIRS];
static snug_xform rel[PAIRS], rel_one;
static snug_rel prel;
static snug_kdop_rel krel14, krel26;
static volatile int sink;

static void run_sphere(void* p) { (void)p; int h = 0; for (int i = 0; i < PAIRS; i++) h += snug_sphere_sphere(&sa[i], &sb[i], &rel[i]); sink = h; }
static void run_aabb(void* p) { (void)p; int h = 0; for (int i = 0; i < PAIRS; i++) h += snug_aabb_aabb(&aa[i], &ab[i], &rel[i]); sink = h; }
static void run_aabb_rel(void* p) { (void)p; int h = 0; for (int i = 0; i < PAIRS; i++) h += snug_aabb_aabb_rel(&aa[i], &ab[i], &prel); sink = h; }
static void run_obb(void* p) { (void)p; int h = 0; for (int i = 0; i < PAIRS; i++) h += snug_obb_obb(&oa[i], &ob[i], &rel[i]); sink = h; }
static void run_obb_dispatch(void* p) { (void)p; int h = 0; for (int i = 0; i < PAIRS; i++) h += snug_bv_overlap(SNUG_BV_OBB, &oa[i], SNUG_BV_OBB, &ob[i], &rel[i]); sink = h; }
static void run_seed004(void* p) { (void)p; int h = 0; for (int i = 0; i < PAIRS; i++) h += snug_obb_obb_seed004(&oa[i], &ob[i], &rel[i]); sink = h; }
static void run_sphere_obb(void* p) { (void)p; int h = 0; for (int i = 0; i < PAIRS; i++) h += snug_sphere_obb(&sa[i], &ob[i], &rel[i]); sink = h; }
static void run_aabb_obb(void* p) { (void)p; int h = 0; for (int i = 0; i < PAIRS; i++) h += snug_aabb_obb(&aa[i], &ob[i], &rel[i]); sink = h; }
static void run_k14_rel(void* p) { (void)p; int h = 0; for (int i = 0; i < PAIRS; i++) h += snug_kdop_kdop_rel(&k14a[i], &k14b[i], &krel14); sink = h; }
static void run_k26_rel(void* p) { (void)p; int h = 0; for (int i = 0; i < PAIRS; i++) h += snug_kdop_kdop_rel(&k26a[i], &k26b[i], &krel26); sink = h; }
static void run_k26(void* p) { (void)p; int h = 0; for (int i = 0; i < PAIRS; i++) h += snug_kdop_kdop(&k26a[i], &k26b[i], SNUG_BV_KDOP26, &rel[i]); sink = h; }
static void run_k26_prepare(void* p) { /* a different pose each call, as queries see them */
    (void)p;
    static unsigned next;
    snug_kdop_rel kr;
    snug_kdop_rel_prepare(&rel[next++ & (PAIRS - 1)], SNUG_BV_KDOP26, SNUG_BV_KDOP26, 10.0f, &kr);
    sink = kr.n[0];
}

static snug_tri_set fit_set;
static void run_fit_aabb(void* p) { (void)p; snug_aabb b; snug_aabb_fit(&fit_set, &b); sink = (int)b.max[0]; }
static void run_fit_sphere(void* p) { (void)p; snug_sphere b; snug_sphere_fit(&fit_set, &b); sink = (int)b.r; }
static void run_fit_obb(void* p) { (void)p; snug_obb b; snug_obb_fit(&fit_set, false, &b); sink = (int)b.e[0]; }
static void run_fit_obb_refine(void* p) { (void)p; snug_obb b; snug_obb_fit(&fit_set, true, &b); sink = (int)b.e[0]; }
static void run_fit_k26(void* p) { (void)p; snug_kdop b; snug_kdop_fit(&fit_set, SNUG_BV_KDOP26, &b); sink = (int)b.hi[0]; }

static void row(const char* name, void (*fn)(void*), double per) {
    bench_stats s = bench_measure(fn, NULL, 5, 300.0);
    if (per > 1) printf("%-34s %9.1f ns per pair   (min %.1f, max %.1f)\n", name, s.med * 1e6 / per, s.min * 1e6 / per, s.max * 1e6 / per);
    else printf("%-34s %9.3f ms per call   (min %.3f, max %.3f)\n", name, s.med, s.min, s.max);
}

int main(void) {
    rng r = {12345};
    for (int i = 0; i < PAIRS; i++) {
        snug_pose p;
        rng_unit_quat(&r, p.q);
        for (int k = 0; k < 3; k++) p.p[k] = rng_range(&r, -1.5f, 1.5f);
        snug_xform_from_pose(&p, &rel[i]);
        snug_obb* o[2] = {&oa[i], &ob[i]};
        for (int s = 0; s < 2; s++) {
            float q[4];
            rng_unit_quat(&r, q);
            glm_quat_mat3(q, o[s]->axes);
            for (int k = 0; k < 3; k++) o[s]->c[k] = 0.0f, o[s]->e[k] = rng_range(&r, 0.1f, 1.0f);
        }
        snug_aabb* a[2] = {&aa[i], &ab[i]};
        snug_sphere* sp[2] = {&sa[i], &sb[i]};
        for (int s = 0; s < 2; s++) {
            glm_vec3_negate_to(o[s]->e, a[s]->min);
            glm_vec3_copy(o[s]->e, a[s]->max);
            glm_vec3_zero(sp[s]->c);
            sp[s]->r = glm_vec3_norm(o[s]->e);
        }
        snug_kdop_from_obb(&oa[i], SNUG_BV_KDOP14, &k14a[i]);
        snug_kdop_from_obb(&ob[i], SNUG_BV_KDOP14, &k14b[i]);
        snug_kdop_from_obb(&oa[i], SNUG_BV_KDOP26, &k26a[i]);
        snug_kdop_from_obb(&ob[i], SNUG_BV_KDOP26, &k26b[i]);
    }
    rel_one = rel[0];
    snug_rel_prepare(&rel_one, &prel);
    snug_kdop_rel_prepare(&rel_one, SNUG_BV_KDOP14, SNUG_BV_KDOP14, 10.0f, &krel14);
    snug_kdop_rel_prepare(&rel_one, SNUG_BV_KDOP26, SNUG_BV_KDOP26, 10.0f, &krel26);

    row("sphere-sphere", run_sphere, PAIRS);
    row("aabb-aabb (re-wrap, per call |R|)", run_aabb, PAIRS);
    row("aabb-aabb prepared rel", run_aabb_rel, PAIRS);
    row("sphere-obb", run_sphere_obb, PAIRS);
    row("aabb-obb (SAT)", run_aabb_obb, PAIRS);
    row("obb-obb 15-axis SAT", run_obb, PAIRS);
    row("obb-obb via snug_bv_overlap", run_obb_dispatch, PAIRS);
    row("obb-obb seed 004 + containment fix", run_seed004, PAIRS);
    row("kdop14 prepared rel", run_k14_rel, PAIRS);
    row("kdop26 prepared rel", run_k26_rel, PAIRS);
    row("kdop26 unprepared (prepare per call)", run_k26, PAIRS);
    row("kdop26 snug_kdop_rel_prepare", run_k26_prepare, 1);

    test_mesh m;
    if (test_mesh_load("dragon11k", &m)) {
        snug_tri_set s = {m.positions, m.indices, NULL, 0, m.triangle_count};
        fit_set = s;
        printf("fits of the %u-triangle dragon:\n", m.triangle_count);
        row("  aabb", run_fit_aabb, 1);
        row("  sphere (Welzl)", run_fit_sphere, 1);
        row("  obb (covariance)", run_fit_obb, 1);
        row("  obb (covariance + refinement)", run_fit_obb_refine, 1);
        row("  kdop26", run_fit_k26, 1);
        test_mesh_free(&m);
    }
    return 0;
}
