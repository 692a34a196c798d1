/* snug's side of `make bench`: the same C source runs natively and as wasm under node. One task per run:
 *   snug_bench <flavour> build [mesh]|rays|pairs|toi|scene|find|cost|reference|place <room.bin>|place-edit <room.bin>
 * and result rows ("ROW {json}", tests/bench/timing.h) on stdout for tests/bench/run.mjs. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geom/bv.h"
#include "bvh/bvh.h"
#include "research/obb_seed004.h"
#include "snug.h"
#include "test_furniture.h"
#include "test_meshes.h"
#include "timing.h"
#include "geom/tri.h"
#include "research/obb_seed004.h"

#define RAY_COUNT 10000

static const char* flavour = "native";
static char impl_buf[256];

static const char* impl_name(const char* variant) {
    snprintf(impl_buf, sizeof impl_buf, "snug %s%s%s", flavour, *variant ? " " : "", variant);
    return impl_buf;
}

static void error_row(const char* sec, const char* cas, const char* variant, snug_ctx* ctx, snug_status st) {
    char note[320];
    snprintf(note, sizeof note, "%s: %s", snug_status_name(st), snug_ctx_last_error(ctx));
    bench_row(sec, cas, impl_name(variant), NULL, "error", NAN, note);
}

static int load(const char* name, test_mesh* m) {
    if (!test_mesh_load(name, m)) {
        fprintf(stderr, "snug_bench: mesh %s missing (make meshes)\n", name);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------------------------------------- variants */

typedef struct variant {
    const char* name;
    snug_bv_type bv;
    snug_splitter split;
    int branching;
    int bottom_up;
} variant;

/* The two defaults compared with the anchors, then the alternatives the defaults are chosen from. */
static const variant MAIN_VARIANTS[] = {
    {"AABB SAH", SNUG_BV_AABB, SNUG_SPLITTER_SAH, 2, 0},
    {"OBB Gottschalk", SNUG_BV_OBB, SNUG_SPLITTER_GOTTSCHALK, 2, 0},
};
static const variant ALT_VARIANTS[] = {
    {"AABB median", SNUG_BV_AABB, SNUG_SPLITTER_MEDIAN, 2, 0},
    {"AABB SAH 4-ary", SNUG_BV_AABB, SNUG_SPLITTER_SAH, 4, 0},
    {"AABB SAH variable", SNUG_BV_AABB, SNUG_SPLITTER_SAH, 0, 0},
    {"AABB bottom-up", SNUG_BV_AABB, SNUG_SPLITTER_SAH, 2, 1},
    {"AABB Zachmann", SNUG_BV_AABB, SNUG_SPLITTER_ZACHMANN, 2, 0},
    {"AABB k-center", SNUG_BV_AABB, SNUG_SPLITTER_KCENTER, 2, 0},
    {"AABB k-means", SNUG_BV_AABB, SNUG_SPLITTER_KMEANS, 2, 0},
    {"AABB greedy", SNUG_BV_AABB, SNUG_SPLITTER_GREEDY, 2, 0},
    {"OBB SAH", SNUG_BV_OBB, SNUG_SPLITTER_SAH, 2, 0},
    {"sphere SAH", SNUG_BV_SPHERE, SNUG_SPLITTER_SAH, 2, 0},
    {"14-DOP SAH", SNUG_BV_KDOP14, SNUG_SPLITTER_SAH, 2, 0},
    {"18-DOP SAH", SNUG_BV_KDOP18, SNUG_SPLITTER_SAH, 2, 0},
    {"26-DOP SAH", SNUG_BV_KDOP26, SNUG_SPLITTER_SAH, 2, 0},
    {"mixed SAH", SNUG_BV_MIXED, SNUG_SPLITTER_SAH, 2, 0},
};
#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

static snug_mesh_def mesh_def(const test_mesh* m, const variant* v) {
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = m->positions;
    def.vertex_count = m->vertex_count;
    def.indices = m->indices;
    def.triangle_count = m->triangle_count;
    if (v) {
        def.bvh.bv_type = v->bv;
        def.bvh.splitter = v->split;
        def.bvh.branching = v->branching;
        def.bvh.bottom_up = v->bottom_up != 0;
        def.bvh.hausdorff = false;
    }
    return def;
}

/* -------------------------------------------------------------------------------------------------- build */

typedef struct build_job {
    snug_ctx* ctx;
    snug_mesh_def def;
    snug_status status;
} build_job;

static void build_once(void* arg) {
    build_job* j = arg;
    snug_mesh mesh = 0;
    j->status = snug_mesh_create(j->ctx, &j->def, &mesh);
    if (j->status == SNUG_OK) snug_mesh_destroy(j->ctx, mesh);
}

static void bench_build_variant(snug_ctx* ctx, const test_mesh* m, const char* cas, const variant* v, int reps,
                                double budget) {
    build_job j = {ctx, mesh_def(m, v), SNUG_OK};
    build_once(&j);
    if (j.status != SNUG_OK) {
        error_row("build", cas, v->name, ctx, j.status);
        return;
    }
    bench_stats st = bench_measure(build_once, &j, reps, budget);
    snug_mesh mesh = 0;
    char note[160] = "";
    if (snug_mesh_create(ctx, &j.def, &mesh) == SNUG_OK) {
        snug_mesh_info info;
        if (snug_mesh_get_info(ctx, mesh, &info) == SNUG_OK)
            snprintf(note, sizeof note, "snug_mesh_create (validation, tree; adjacency comes on first use): %u nodes, depth %u, %.1f MB",
                     info.node_count, info.depth, (double)info.memory_bytes / 1048576.0);
        snug_mesh_destroy(ctx, mesh);
    }
    bench_row("build", cas, impl_name(v->name), &st, "ok", NAN, note);
}

static void task_build(snug_ctx* ctx, const char* only) {
    static const char* meshes[] = {"bunny", "dragon11k", "dragon48k", "dragon203k", "dragon871k", "torusknot10k"};
    for (int i = 0; i < COUNT(meshes); ++i) {
        if (only && strcmp(only, meshes[i]) != 0) continue;
        test_mesh m;
        if (!load(meshes[i], &m)) continue;
        int big = m.triangle_count > 300000;
        for (int k = 0; k < COUNT(MAIN_VARIANTS); ++k)
            bench_build_variant(ctx, &m, meshes[i], &MAIN_VARIANTS[k], big ? 3 : 5, big ? 4000 : 1000);
        if (strcmp(meshes[i], "dragon48k") == 0)
            for (int k = 0; k < COUNT(ALT_VARIANTS); ++k) bench_build_variant(ctx, &m, meshes[i], &ALT_VARIANTS[k], 3, 400);
        test_mesh_free(&m);
    }
}

/* --------------------------------------------------------------------------------------------------- rays */

static float* read_rays(const char* mesh) {
    char path[256];
    snprintf(path, sizeof path, "build/bench/rays/%s.bin", mesh);
    FILE* f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "snug_bench: %s missing (run.mjs writes it)\n", path);
        return NULL;
    }
    float* r = malloc(sizeof(float) * 6 * RAY_COUNT);
    size_t got = r ? fread(r, sizeof(float) * 6, RAY_COUNT, f) : 0;
    fclose(f);
    if (got != RAY_COUNT) {
        free(r);
        return NULL;
    }
    return r;
}

static void write_answers(const char* slug, const char* mesh, const float* t, int n) {
    char path[256];
    snprintf(path, sizeof path, "build/bench/answers/%s-%s.f32", slug, mesh);
    FILE* f = fopen(path, "wb");
    if (!f) return;
    fwrite(t, sizeof(float), (size_t)n, f);
    fclose(f);
}

typedef struct ray_job {
    snug_ctx* ctx;
    snug_mesh mesh;
    const float* rays;
    float* origins;
    float* dirs;
    snug_ray_hit* hits;
    float* t;
    snug_status status;
} ray_job;

static void rays_single(void* arg) {
    ray_job* j = arg;
    snug_pose pose = snug_pose_identity();
    for (int i = 0; i < RAY_COUNT; ++i) {
        snug_ray ray;
        memcpy(ray.origin, j->rays + 6 * i, 12);
        memcpy(ray.dir, j->rays + 6 * i + 3, 12);
        ray.tmax = INFINITY;
        snug_ray_hit hit;
        snug_status st = snug_mesh_raycast(j->ctx, j->mesh, &pose, &ray, &hit);
        if (st != SNUG_OK) j->status = st;
        j->t[i] = hit.tri == SNUG_NO_HIT ? INFINITY : hit.t;
    }
}

static void rays_batch(void* arg) {
    ray_job* j = arg;
    snug_pose pose = snug_pose_identity();
    snug_status st = snug_mesh_raycast_batch(j->ctx, j->mesh, &pose, j->origins, j->dirs, NULL, RAY_COUNT, j->hits);
    if (st != SNUG_OK) j->status = st;
}

static void task_rays(snug_ctx* ctx) {
    static const char* meshes[] = {"bunny", "dragon11k", "dragon48k", "dragon203k", "dragon871k", "torusknot10k"};
    for (int i = 0; i < COUNT(meshes); ++i) {
        test_mesh m;
        if (!load(meshes[i], &m)) continue;
        float* rays = read_rays(meshes[i]);
        snug_mesh_def def = mesh_def(&m, NULL);
        snug_mesh mesh = 0;
        snug_status st = rays ? snug_mesh_create(ctx, &def, &mesh) : SNUG_ERR_EMPTY;
        if (st != SNUG_OK) {
            error_row("ray1", meshes[i], "", ctx, st);
        } else {
            ray_job j = {ctx, mesh, rays, malloc(12 * RAY_COUNT), malloc(12 * RAY_COUNT),
                         malloc(sizeof(snug_ray_hit) * RAY_COUNT), malloc(4 * RAY_COUNT), SNUG_OK};
            for (int r = 0; r < RAY_COUNT; ++r) {
                memcpy(j.origins + 3 * r, rays + 6 * r, 12);
                memcpy(j.dirs + 3 * r, rays + 6 * r + 3, 12);
            }
            bench_stats s1 = bench_measure(rays_single, &j, 5, 800);
            char slug[64];
            snprintf(slug, sizeof slug, "snug-%s", flavour);
            write_answers(slug, meshes[i], j.t, RAY_COUNT);
            if (j.status != SNUG_OK) error_row("ray1", meshes[i], "", ctx, j.status);
            else bench_row("ray1", meshes[i], impl_name(""), &s1, "ok", NAN, "snug_mesh_raycast, 10,000 rays per sample");
            j.status = SNUG_OK;
            bench_stats sb = bench_measure(rays_batch, &j, 5, 800);
            int differ = 0;
            for (int r = 0; r < RAY_COUNT; ++r) {
                float tb = j.hits[r].tri == SNUG_NO_HIT ? INFINITY : j.hits[r].t;
                if (!(tb == j.t[r] || fabsf(tb - j.t[r]) <= 1e-5f * (fabsf(tb) + 1.0f))) differ++;
            }
            char note[128];
            snprintf(note, sizeof note, "snug_mesh_raycast_batch of 10,000; %d differ from one-per-call", differ);
            if (j.status != SNUG_OK) error_row("rayN", meshes[i], "", ctx, j.status);
            else bench_row("rayN", meshes[i], impl_name(""), &sb, differ ? "wrong" : "ok", NAN, note);
            free(j.origins); free(j.dirs); free(j.hits); free(j.t);
            snug_mesh_destroy(ctx, mesh);
        }
        free(rays);
        test_mesh_free(&m);
    }
}

/* Brute force (every triangle, double precision Moller-Trumbore): the independent answers the ray rows of every
 * implementation are checked against. All rays up to 12k triangles, the first 2000 / 500 / 200 on the dragons of
 * 48k / 203k / 871k triangles (about 10^8 ray-triangle tests each). */
static double ray_tri_double(const float* o, const float* d, const float* a, const float* b, const float* c) {
    double e1[3], e2[3], p[3], s[3], q[3];
    for (int k = 0; k < 3; ++k) {
        e1[k] = (double)b[k] - a[k];
        e2[k] = (double)c[k] - a[k];
        s[k] = (double)o[k] - a[k];
    }
    p[0] = d[1] * e2[2] - d[2] * e2[1];
    p[1] = d[2] * e2[0] - d[0] * e2[2];
    p[2] = d[0] * e2[1] - d[1] * e2[0];
    double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (det == 0.0) return INFINITY;
    double inv = 1.0 / det;
    double u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
    if (u < 0.0 || u > 1.0) return INFINITY;
    q[0] = s[1] * e1[2] - s[2] * e1[1];
    q[1] = s[2] * e1[0] - s[0] * e1[2];
    q[2] = s[0] * e1[1] - s[1] * e1[0];
    double v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inv;
    if (v < 0.0 || u + v > 1.0) return INFINITY;
    double t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
    return t >= 0.0 ? t : INFINITY;
}

static void task_reference(void) {
    static const char* meshes[] = {"bunny", "dragon11k", "dragon48k", "dragon203k", "dragon871k", "torusknot10k"};
    for (int i = 0; i < COUNT(meshes); ++i) {
        test_mesh m;
        if (!load(meshes[i], &m)) continue;
        float* rays = read_rays(meshes[i]);
        if (!rays) continue;
        int n = m.triangle_count <= 12000 ? RAY_COUNT : m.triangle_count <= 50000 ? 2000 : m.triangle_count <= 250000 ? 500 : 200;
        float* t = malloc(sizeof(float) * (size_t)n);
        double t0 = bench_now_ms();
        for (int r = 0; r < n; ++r) {
            double best = INFINITY;
            for (uint32_t k = 0; k < m.triangle_count; ++k) {
                const uint32_t* tri = m.indices + 3 * k;
                double h = ray_tri_double(rays + 6 * r, rays + 6 * r + 3, m.positions + 3 * tri[0],
                                          m.positions + 3 * tri[1], m.positions + 3 * tri[2]);
                if (h < best) best = h;
            }
            t[r] = (float)best;
        }
        write_answers("brute", meshes[i], t, n);
        char note[96];
        snprintf(note, sizeof note, "%d rays x %u triangles in %.0f ms", n, m.triangle_count, bench_now_ms() - t0);
        bench_row("reference", meshes[i], "brute force rays", NULL, "ok", NAN, note);
        free(t);
        free(rays);
        test_mesh_free(&m);
    }
}

/* ------------------------------------------------------------------------------------------ mesh vs mesh */

typedef struct pair_case {
    const char* mesh;
    double angle, shift;
    const char* name;
} pair_case;

static const pair_case PAIR_CASES[] = {
    {"dragon11k", 0.3, 0.05, "dragon11k shift 5%"},   {"dragon11k", 0.3, 0.4, "dragon11k shift 40%"},
    {"dragon11k", 0.3, 1.5, "dragon11k shift 150%"},  {"dragon48k", 0.3, 0.05, "dragon48k shift 5%"},
    {"dragon48k", 0.3, 0.4, "dragon48k shift 40%"},   {"dragon48k", 0.3, 1.5, "dragon48k shift 150%"},
    {"torusknot10k", 0.01, 0.001, "torusknot10k near-coincident"},
};

static snug_pose case_pose(const test_mesh* m, double angle, double shift) {
    double R[9], t[3];
    bench_pair_pose(m->positions, m->vertex_count, angle, shift, R, t, NULL);
    snug_pose p = snug_pose_identity();
    p.q[1] = (float)sin(angle / 2);
    p.q[3] = (float)cos(angle / 2);
    for (int k = 0; k < 3; ++k) p.p[k] = (float)t[k];
    return p;
}

typedef struct pair_job {
    snug_ctx* ctx;
    snug_mesh mesh;
    snug_pose pa, pb;
    bool hit;
    snug_distance_result dist;
    snug_status status;
} pair_job;

static void pair_overlap(void* arg) {
    pair_job* j = arg;
    j->status = snug_mesh_overlap(j->ctx, j->mesh, &j->pa, j->mesh, &j->pb, &j->hit, NULL);
}
static void pair_distance(void* arg) {
    pair_job* j = arg;
    j->status = snug_mesh_distance(j->ctx, j->mesh, &j->pa, j->mesh, &j->pb, &j->dist);
}

/* One pair case on an already built mesh (both bodies share it, as in the anchors). */
static void bench_pair(snug_ctx* ctx, snug_mesh mesh, const test_mesh* m, const pair_case* pc, snug_traversal trav,
                       const char* label, int with_distance) {
    pair_job j;
    memset(&j, 0, sizeof j);
    j.ctx = ctx;
    j.mesh = mesh;
    j.pa = snug_pose_identity();
    j.pb = case_pose(m, pc->angle, pc->shift);
    snug_status st = snug_ctx_set_traversal(ctx, trav);
    if (st != SNUG_OK) {
        error_row("overlap", pc->name, label, ctx, st);
        return;
    }
    bench_stats so = bench_measure(pair_overlap, &j, 5, 500);
    if (j.status != SNUG_OK) error_row("overlap", pc->name, label, ctx, j.status);
    else {
        const snug_query_stats* qs = snug_ctx_last_stats(ctx);
        uint64_t bvt = 0;
        for (int a = 0; a < SNUG_BV_TYPE_COUNT; ++a)
            for (int b = 0; b < SNUG_BV_TYPE_COUNT; ++b) bvt += qs->bv_tests[a][b];
        char note[128];
        snprintf(note, sizeof note, "snug_mesh_overlap: %llu BV tests, %llu triangle tests", (unsigned long long)bvt,
                 (unsigned long long)qs->primitive_tests);
        bench_row("overlap", pc->name, impl_name(label), &so, "ok", j.hit ? 1.0 : 0.0, note);
    }
    if (with_distance) {
        bench_stats sd = bench_measure(pair_distance, &j, 3, 500);
        if (j.status != SNUG_OK) error_row("distance", pc->name, label, ctx, j.status);
        else bench_row("distance", pc->name, impl_name(label), &sd, "ok", j.dist.distance, "snug_mesh_distance");
    }
    snug_ctx_set_traversal(ctx, SNUG_TRAVERSAL_SIMULTANEOUS);
}

/* Build a variant's tree once for all cases of its mesh; 0 (after an error row) when the build fails. */
static snug_mesh pair_mesh(snug_ctx* ctx, const test_mesh* m, const variant* v, const char* cas, bool hausdorff) {
    snug_mesh_def def = mesh_def(m, v);
    def.bvh.hausdorff = hausdorff;
    snug_mesh mesh = 0;
    snug_status st = snug_mesh_create(ctx, &def, &mesh);
    if (st != SNUG_OK) {
        error_row("overlap", cas, v->name, ctx, st);
        return 0;
    }
    return mesh;
}

static void task_pairs(snug_ctx* ctx) {
    static const char* meshes[] = {"dragon11k", "dragon48k", "torusknot10k"};
    for (int mi = 0; mi < COUNT(meshes); ++mi) {
        test_mesh m;
        if (!load(meshes[mi], &m)) continue;
        /* Variants of the data structure and traversal on the 48k pairs only (the data for choosing defaults). */
        int variants = strcmp(meshes[mi], "dragon48k") == 0;
        snug_mesh main_mesh[COUNT(MAIN_VARIANTS)], alt_mesh[COUNT(ALT_VARIANTS)];
        for (int k = 0; k < COUNT(MAIN_VARIANTS); ++k) main_mesh[k] = pair_mesh(ctx, &m, &MAIN_VARIANTS[k], meshes[mi], true);
        for (int k = 0; k < COUNT(ALT_VARIANTS); ++k)
            alt_mesh[k] = variants ? pair_mesh(ctx, &m, &ALT_VARIANTS[k], meshes[mi], false) : 0;
        for (int i = 0; i < COUNT(PAIR_CASES); ++i) {
            const pair_case* pc = &PAIR_CASES[i];
            if (strcmp(pc->mesh, meshes[mi]) != 0) continue;
            for (int k = 0; k < COUNT(MAIN_VARIANTS); ++k)
                if (main_mesh[k])
                    bench_pair(ctx, main_mesh[k], &m, pc, SNUG_TRAVERSAL_SIMULTANEOUS, MAIN_VARIANTS[k].name, 1);
            if (!variants) continue;
            static const char* trav_names[] = {"simultaneous", "one-sided", "hybrid"};
            char label[96];
            for (int k = 0; k < COUNT(MAIN_VARIANTS); ++k)
                for (int t = 1; t < SNUG_TRAVERSAL_COUNT && main_mesh[k]; ++t) {
                    snprintf(label, sizeof label, "%s %s", MAIN_VARIANTS[k].name, trav_names[t]);
                    bench_pair(ctx, main_mesh[k], &m, pc, (snug_traversal)t, label, 0);
                }
            for (int k = 0; k < COUNT(ALT_VARIANTS); ++k)
                if (alt_mesh[k]) bench_pair(ctx, alt_mesh[k], &m, pc, SNUG_TRAVERSAL_SIMULTANEOUS, ALT_VARIANTS[k].name, 0);
        }
        for (int k = 0; k < COUNT(MAIN_VARIANTS); ++k)
            if (main_mesh[k]) snug_mesh_destroy(ctx, main_mesh[k]);
        for (int k = 0; k < COUNT(ALT_VARIANTS); ++k)
            if (alt_mesh[k]) snug_mesh_destroy(ctx, alt_mesh[k]);
        test_mesh_free(&m);
    }
}

/* The far-apart distance cases (issue 15): a teapot and a torus knot with their bounding spheres 3, 30 and 1000 units
 * apart along the diagonal, with the default trees (AABB SAH) and OBB trees, as a placement tool asks "how far to
 * the next object" across a room. */
static const struct {
    double gap;
    const char* name;
} FAR_CASES[] = {{3.0, "teapot x torusknot10k, 3 apart on the diagonal"},
                 {30.0, "teapot x torusknot10k, 30 apart on the diagonal"},
                 {1000.0, "teapot x torusknot10k, 1000 apart on the diagonal"}};

typedef struct far_job {
    snug_ctx* ctx;
    snug_mesh a, b;
    snug_pose pb;
    snug_distance_result dist;
    snug_status status;
} far_job;

static void far_distance(void* arg) {
    far_job* j = arg;
    snug_pose id = snug_pose_identity();
    j->status = snug_mesh_distance(j->ctx, j->a, &id, j->b, &j->pb, &j->dist);
}

static void task_far(snug_ctx* ctx) {
    test_mesh ma, mb;
    if (!load("teapot", &ma) || !load("torusknot10k", &mb)) return;
    for (int k = 0; k < COUNT(MAIN_VARIANTS); ++k) {
        const variant* v = &MAIN_VARIANTS[k];
        snug_mesh_def da = mesh_def(&ma, v), db = mesh_def(&mb, v);
        far_job j;
        memset(&j, 0, sizeof j);
        j.ctx = ctx;
        snug_status st = snug_mesh_create(ctx, &da, &j.a);
        if (st == SNUG_OK) st = snug_mesh_create(ctx, &db, &j.b);
        for (int c = 0; c < COUNT(FAR_CASES); ++c) {
            if (st != SNUG_OK) {
                error_row("distance-far", FAR_CASES[c].name, v->name, ctx, st);
                continue;
            }
            double t[3];
            bench_far_pose(ma.positions, ma.vertex_count, mb.positions, mb.vertex_count, FAR_CASES[c].gap, t);
            j.pb = snug_pose_identity();
            for (int i = 0; i < 3; ++i) j.pb.p[i] = (float)t[i];
            bench_stats sd = bench_measure(far_distance, &j, 5, 300);
            if (j.status != SNUG_OK) {
                error_row("distance-far", FAR_CASES[c].name, v->name, ctx, j.status);
                continue;
            }
            char note[128];
            snprintf(note, sizeof note, "snug_mesh_distance: %llu node pairs, %llu triangle pairs",
                     (unsigned long long)snug_ctx_last_stats(ctx)->nodes_visited,
                     (unsigned long long)snug_ctx_last_stats(ctx)->primitive_tests);
            bench_row("distance-far", FAR_CASES[c].name, impl_name(v->name), &sd, "ok", j.dist.distance, note);
        }
        if (j.a) snug_mesh_destroy(ctx, j.a);
        if (j.b) snug_mesh_destroy(ctx, j.b);
    }
    test_mesh_free(&ma);
    test_mesh_free(&mb);
}

/* ------------------------------------------------------------------------------------ continuous collision */

#define TOI_CASE "dragon48k 150%->5%, 0.6 rad"

typedef struct toi_job {
    snug_ctx* ctx;
    snug_mesh mesh;
    snug_motion ma, mb;
    snug_toi_def def;
    snug_toi_result res;
    snug_status status;
} toi_job;

static void toi_once(void* arg) {
    toi_job* j = arg;
    j->status = snug_mesh_toi(j->ctx, j->mesh, &j->ma, j->mesh, &j->mb, &j->def, &j->res);
}

/* The moving copy's pose at time t of the benchmark motion (rotation about Y and shift both linear in t). */
static snug_pose toi_pose(const test_mesh* m, double t) {
    return case_pose(m, 0.6 * t, 1.5 + (0.05 - 1.5) * t);
}

/* Independent check by sampling the static overlap: no overlap at the safe time, and the first of 256 samples
 * that overlaps is not earlier than the reported contact. Returns a note; *bad is set on a contradiction. */
static void toi_check(toi_job* j, const test_mesh* m, char* note, size_t size, int* bad) {
    snug_pose id = snug_pose_identity();
    bool hit = false;
    int first = -1;
    for (int k = 0; k <= 256 && first < 0; ++k) {
        snug_pose pk = toi_pose(m, k / 256.0);
        if (snug_mesh_overlap(j->ctx, j->mesh, &id, j->mesh, &pk, &hit, NULL) == SNUG_OK && hit) first = k;
    }
    snug_pose ps = toi_pose(m, j->res.safe_t);
    bool at_safe = false;
    snug_mesh_overlap(j->ctx, j->mesh, &id, j->mesh, &ps, &at_safe, NULL);
    double first_t = first < 0 ? NAN : first / 256.0;
    *bad = at_safe || (!j->res.hit && first >= 0) || (j->res.hit && first >= 0 && j->res.t > first_t + 1e-6);
    snprintf(note, size, "t %.5f, safe_t %.5f; sampled static overlap first at t %.4f (256 samples)%s",
             (double)j->res.t, (double)j->res.safe_t, first_t, at_safe ? "; OVERLAP at safe_t" : "");
}

static void task_toi(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh m;
    if (!load("dragon48k", &m)) return;
    snug_mesh_def mdef = mesh_def(&m, NULL);
    toi_job j;
    memset(&j, 0, sizeof j);
    j.ctx = ctx;
    snug_status st = snug_mesh_create(ctx, &mdef, &j.mesh);
    if (st != SNUG_OK) {
        error_row("toi", TOI_CASE, "", ctx, st);
        return;
    }
    snug_pose id = snug_pose_identity(), p0 = toi_pose(&m, 0.0), p1 = toi_pose(&m, 1.0);
    j.ma = snug_motion_between(&id, &id);
    j.mb = snug_motion_between(&p0, &p1);
    static const char* modes[] = {"static", "mixed", "dynamic", "DAASD"};
    static const char* finders[] = {"linear", "regula falsi", "quadratic", "sampling", "sampling + regula falsi"};
    for (int mode = 0; mode < SNUG_TOI_MODE_COUNT; ++mode)
        for (int rf = 0; rf < SNUG_ROOT_FINDER_COUNT; ++rf) {
            int headline = mode == SNUG_TOI_DYNAMIC && rf == SNUG_ROOT_SAMPLING_REGULA_FALSI;
            if (!headline && mode != SNUG_TOI_DYNAMIC && rf != SNUG_ROOT_SAMPLING_REGULA_FALSI) continue;
            j.def = snug_default_toi_def();
            j.def.mode = (snug_toi_mode)mode;
            j.def.root_finder = (snug_root_finder)rf;
            char label[96];
            snprintf(label, sizeof label, "%s, %s", modes[mode], finders[rf]);
            toi_once(&j);
            if (j.status != SNUG_OK) {
                error_row(headline ? "toi" : "toi-variants", TOI_CASE, headline ? "" : label, ctx, j.status);
                continue;
            }
            bench_stats bs = bench_measure(toi_once, &j, 3, 800);
            char note[256];
            int bad = 0;
            toi_check(&j, &m, note, sizeof note, &bad);
            char full[400];
            snprintf(full, sizeof full, "snug_mesh_toi %s: %s", label, note);
            /* Only the dynamic mode promises the earliest contact; the others are approximations by design. */
            const char* verdict = !bad ? "ok" : mode == SNUG_TOI_DYNAMIC ? "wrong" : "approximate (by design)";
            bench_row(headline ? "toi" : "toi-variants", TOI_CASE, impl_name(headline ? "" : label), &bs, verdict,
                      j.res.hit ? j.res.t : NAN, full);
        }
    snug_mesh_destroy(ctx, j.mesh);
    test_mesh_free(&m);
    snug_ctx_destroy(ctx);
}

/* ------------------------------------------------------------------------------------------------- scenes */

#define BP_N 10000
typedef struct bp_job {
    snug_ctx* ctx;
    snug_scene scene;
    snug_body* bodies;
    float* pos;
    rng r;
    snug_body_pair* pairs;
    uint32_t total;
    snug_status status;
} bp_job;

/* One step: every box moves a little (random walk), then the broad phase reports the overlapping pairs. */
static void bp_step(void* arg) {
    bp_job* j = arg;
    for (int i = 0; i < BP_N; ++i) {
        snug_pose p = snug_pose_identity();
        for (int k = 0; k < 3; ++k) p.p[k] = j->pos[3 * i + k] += rng_range(&j->r, -0.1f, 0.1f);
        snug_body_set_pose(j->ctx, j->scene, j->bodies[i], &p);
    }
    j->status = snug_scene_pairs(j->ctx, j->scene, j->pairs, 4 * BP_N, &j->total);
}

typedef struct room_job {
    snug_ctx* ctx;
    snug_scene scene;
    snug_body movers[5];
    snug_pose moves[5];
    snug_contact results[5];
    snug_step_def def;
    uint32_t count, pair_total;
    snug_status status;
} room_job;

static void room_step(void* arg) {
    room_job* j = arg;
    snug_step_begin(j->ctx, j->scene);
    for (int i = 0; i < 5; ++i) snug_step_move(j->ctx, j->scene, j->movers[i], &j->moves[i], true);
    j->status = snug_step_detect(j->ctx, j->scene, &j->def, j->results, 5, &j->count, &j->pair_total);
}

static void task_scene(snug_ctx* ctx) {
    {
        test_mesh box;
        test_mesh_box(0.5f, 0.5f, 0.5f, &box);
        snug_mesh_def def = mesh_def(&box, NULL);
        snug_mesh mesh = 0;
        bp_job j;
        memset(&j, 0, sizeof j);
        j.ctx = ctx;
        j.r.s = 7;
        j.bodies = malloc(sizeof(snug_body) * BP_N);
        j.pos = malloc(sizeof(float) * 3 * BP_N);
        j.pairs = malloc(sizeof(snug_body_pair) * 4 * BP_N);
        snug_status st = snug_mesh_create(ctx, &def, &mesh);
        if (st == SNUG_OK) st = snug_scene_create(ctx, &j.scene);
        for (int i = 0; i < BP_N && st == SNUG_OK; ++i) {
            snug_body_def bd = snug_default_body_def();
            bd.mesh = mesh;
            for (int k = 0; k < 3; ++k) bd.pose.p[k] = j.pos[3 * i + k] = rng_range(&j.r, 0.0f, 100.0f);
            st = snug_body_create(ctx, j.scene, &bd, &j.bodies[i]);
        }
        if (st == SNUG_OK) {
            bp_step(&j);
            st = j.status;
        }
        if (st != SNUG_OK) error_row("broadphase", "10k moving boxes", "", ctx, st);
        else {
            bench_stats bs = bench_measure(bp_step, &j, 5, 1500);
            /* Brute force over the bodies' world AABBs at the final poses, as snug.h defines the pairs (touching
             * counts). The boxes are padded (the mesh tolerance, the transform's rounding), so a hand-made
             * tolerance around the cubes' size counts differently: a pair 1.0003 apart is a pair here. */
            float* boxes = malloc(sizeof(float) * 6 * BP_N);
            for (int i = 0; i < BP_N && boxes; ++i) {
                snug_body_info info;
                snug_body_get_info(ctx, j.scene, j.bodies[i], &info);
                memcpy(boxes + 6 * i, info.aabb_min, sizeof info.aabb_min);
                memcpy(boxes + 6 * i + 3, info.aabb_max, sizeof info.aabb_max);
            }
            uint32_t brute = 0;
            for (int a = 0; a < BP_N && boxes; ++a)
                for (int b = a + 1; b < BP_N; ++b) {
                    const float *A = boxes + 6 * a, *B = boxes + 6 * b;
                    brute += A[0] <= B[3] && B[0] <= A[3] && A[1] <= B[4] && B[1] <= A[4] && A[2] <= B[5] &&
                             B[2] <= A[5];
                }
            free(boxes);
            char note[200];
            snprintf(note, sizeof note, "snug_body_set_pose x 10k + snug_scene_pairs: %u pairs, brute force %u",
                     j.total, brute);
            bench_row("broadphase", "10k moving boxes", impl_name(""), &bs, j.total == brute ? "ok" : "wrong",
                      j.total, note);
        }
        if (j.scene) snug_scene_destroy(ctx, j.scene);
        if (mesh) snug_mesh_destroy(ctx, mesh);
        free(j.bodies); free(j.pos); free(j.pairs);
        test_mesh_free(&box);
    }
    {
        /* The room of anchors.mjs: 100 copies of the 11k dragon on a 10 x 10 grid (1.1 M triangles); the 5 movers
         * start 0.6 diagonal above their cell and sweep down and one cell along +X into a static neighbour. */
        test_mesh m;
        if (!load("dragon11k", &m)) return;
        snug_mesh_def def = mesh_def(&m, NULL);
        snug_mesh mesh = 0;
        room_job j;
        memset(&j, 0, sizeof j);
        j.ctx = ctx;
        double R[9], t[3], diag = 0;
        bench_pair_pose(m.positions, m.vertex_count, 0, 0, R, t, &diag);
        snug_status st = snug_mesh_create(ctx, &def, &mesh);
        if (st == SNUG_OK) st = snug_scene_create(ctx, &j.scene);
        int nm = 0;
        for (int i = 0; i < 100 && st == SNUG_OK; ++i) {
            snug_body_def bd = snug_default_body_def();
            bd.mesh = mesh;
            int mover = i % 20 == 7;
            bd.is_static = !mover;
            bd.pose.p[0] = (float)((i % 10) * diag * 0.8);
            bd.pose.p[1] = mover ? (float)(diag * 0.6) : 0.0f;
            bd.pose.p[2] = (float)((i / 10) * diag * 0.8);
            snug_body b = 0;
            st = snug_body_create(ctx, j.scene, &bd, &b);
            if (mover && st == SNUG_OK) {
                j.movers[nm] = b;
                j.moves[nm] = snug_pose_identity();
                j.moves[nm].p[0] = (float)(diag * 0.8);
                j.moves[nm].p[1] = (float)(-diag * 0.6);
                nm++;
            }
        }
        j.def = snug_default_step_def();
        j.def.mode = SNUG_STEP_DYNAMIC;
        if (st == SNUG_OK) {
            room_step(&j);
            st = j.status;
        }
        if (st != SNUG_OK) error_row("room", "100 bodies, 5 moving", "", ctx, st);
        else {
            bench_stats bs = bench_measure(room_step, &j, 5, 1500);
            int hits = 0;
            for (uint32_t k = 0; k < j.count && k < 5; ++k) hits += j.results[k].hit;
            char note[200];
            snprintf(note, sizeof note, "step_begin + 5 step_move + step_detect (dynamic): %d of 5 movers hit, %u colliding pairs; 95 static dragons, %u tris",
                     hits, j.pair_total, 95u * m.triangle_count);
            bench_row("room", "100 bodies, 5 moving", impl_name(""), &bs, "ok", hits, note);
        }
        if (j.scene) snug_scene_destroy(ctx, j.scene);
        if (mesh) snug_mesh_destroy(ctx, mesh);
        test_mesh_free(&m);
    }
}

/* ------------------------------------------------------------------------------------- seed 000 cost table */

#define COST_N 2048

typedef struct cost_job {
    snug_bv_type ta, tb;
    const unsigned char* a;
    const unsigned char* b;
    size_t stride;
    const snug_xform* rel;
    int hits;
    int seed004;
} cost_job;

static void cost_run(void* arg) {
    cost_job* j = arg;
    int hits = 0;
    for (int i = 0; i < COST_N; ++i) {
        const void* a = j->a + (size_t)i * j->stride;
        const void* b = j->b + (size_t)i * j->stride;
        hits += snug_bv_overlap(j->ta, a, j->tb, b, &j->rel[i]);
    }
    j->hits = hits;
}

static void cost_run_obb(void* arg) {
    cost_job* j = arg;
    int hits = 0;
    for (int i = 0; i < COST_N; ++i) {
        const snug_obb* a = (const snug_obb*)(j->a + (size_t)i * j->stride);
        const snug_obb* b = (const snug_obb*)(j->b + (size_t)i * j->stride);
        hits += j->seed004 ? snug_obb_obb_seed004(a, b, &j->rel[i]) : snug_obb_obb(a, b, &j->rel[i]);
    }
    j->hits = hits;
}

static void fit_bv(snug_bv_type t, const snug_tri_set* set, void* out) {
    switch (t) {
    case SNUG_BV_SPHERE: snug_sphere_fit(set, out); break;
    case SNUG_BV_AABB: snug_aabb_fit(set, out); break;
    case SNUG_BV_OBB: snug_obb_fit(set, false, out); break;
    default: snug_kdop_fit(set, t, out); break;
    }
}

/* Primitive tests on triangle pairs of the 11k dragon, B's triangle moved next to A's (about half intersect). */
typedef struct prim_job {
    const float* a; /* 9 floats per triangle */
    const float* b;
    int kind;
    double sink;
} prim_job;

static const char* PRIM_NAMES[] = {"tri-tri overlap", "tri-tri distance", "ray-tri", "point-tri closest",
                                   "segment-segment closest"};
static const char* PRIM_SYMS[] = {"snug_tri_tri_overlap", "snug_tri_tri_distance", "snug_ray_tri",
                                  "snug_point_tri_closest", "snug_segment_segment_closest"};

static void prim_run(void* arg) {
    prim_job* j = arg;
    double sink = 0;
    for (int i = 0; i < COST_N; ++i) {
        const float* a = j->a + 9 * i;
        const float* b = j->b + 9 * i;
        float pa[3], pb[3], t = 0, u = 0, v = 0;
        switch (j->kind) {
        case 0: sink += snug_tri_tri_overlap(a, a + 3, a + 6, b, b + 3, b + 6, 1e-7f); break;
        case 1: sink += snug_tri_tri_distance(a, a + 3, a + 6, b, b + 3, b + 6, pa, pb); break;
        case 2: {
            float d[3] = {b[3] - b[0], b[4] - b[1], b[5] - b[2]};
            sink += snug_ray_tri(b, d, 4.0f, a, a + 3, a + 6, &t, &u, &v);
            break;
        }
        case 3: sink += snug_point_tri_closest(b, a, a + 3, a + 6, pa); break;
        case 4: sink += snug_segment_segment_closest(a, a + 3, b, b + 3, &t, &u, pa, pb); break;
        default: break;
        }
        (void)pa; (void)pb; (void)t; (void)u; (void)v;
    }
    j->sink = sink;
}

static void task_cost_primitives(const test_mesh* m, rng* r) {
    float* a = malloc(sizeof(float) * 9 * COST_N);
    float* b = malloc(sizeof(float) * 9 * COST_N);
    for (int i = 0; i < COST_N; ++i) {
        uint32_t ta = (uint32_t)(rng_float(r) * (float)m->triangle_count);
        uint32_t tb = (uint32_t)(rng_float(r) * (float)m->triangle_count);
        const float* b0 = m->positions + 3 * m->indices[3 * tb];
        float off[3], size = 0;
        for (int c = 0; c < 3; ++c) {
            const float* va = m->positions + 3 * m->indices[3 * ta + c];
            const float* vb = m->positions + 3 * m->indices[3 * tb + c];
            memcpy(a + 9 * i + 3 * c, va, 12);
            for (int k = 0; k < 3; ++k) b[9 * i + 3 * c + k] = vb[k] - b0[k];
            size += fabsf(va[0] - a[9 * i]) + fabsf(va[1] - a[9 * i + 1]) + fabsf(va[2] - a[9 * i + 2]);
        }
        rng_unit_vec(r, off);
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 3; ++k) b[9 * i + 3 * c + k] += a[9 * i + k] + off[k] * size * 0.2f;
    }
    for (int kind = 0; kind < COUNT(PRIM_NAMES); ++kind) {
        prim_job j = {a, b, kind, 0};
        bench_stats st = bench_measure(prim_run, &j, 5, 150);
        st.med *= 1e6 / COST_N; st.min *= 1e6 / COST_N; st.max *= 1e6 / COST_N;
        char note[64];
        snprintf(note, sizeof note, "ns per %s call", PRIM_SYMS[kind]);
        bench_row("cost-primitive", PRIM_NAMES[kind], impl_name(""), &st, "ok", NAN, note);
    }
    free(a);
    free(b);
}

static const char* BV_NAMES[] = {"sphere", "AABB", "OBB", "14-DOP", "18-DOP", "26-DOP"};

static void task_cost(void) {
    test_mesh m;
    if (!load("dragon11k", &m)) return;
    /* Test material: BVs of random runs of 4-64 consecutive triangles of the 11k dragon (local patches, like
     * the nodes near a tree's leaves); B's patch centred on A's, at a random rotation and a random offset up to
     * 1.2x the sum of their AABB half diagonals, so a good share of the pairs overlap and the rest separate. */
    rng r = {0x5eedc057u};
    snug_xform* rel = malloc(sizeof(snug_xform) * COST_N);
    uint32_t* first = malloc(sizeof(uint32_t) * 2 * COST_N);
    for (int i = 0; i < COST_N; ++i) {
        float q[4], dir[3];
        rng_unit_quat(&r, q);
        rng_unit_vec(&r, dir);
        versor v = {q[0], q[1], q[2], q[3]};
        glm_quat_mat3(v, rel[i].R);
        /* offset = u x (sum of the patches' AABB half diagonals), applied below once the BVs are fitted */
        float u = rng_range(&r, 0.0f, 1.2f);
        for (int k = 0; k < 3; ++k) rel[i].t[k] = dir[k] * u;
        for (int s = 0; s < 2; ++s) {
            uint32_t count = 4 + (uint32_t)(rng_float(&r) * 60);
            first[2 * i + s] = (uint32_t)(rng_float(&r) * (float)(m.triangle_count - count)) | (count << 24);
        }
    }
    size_t stride = sizeof(snug_kdop) > sizeof(snug_obb) ? sizeof(snug_kdop) : sizeof(snug_obb);
    unsigned char* bvs[SNUG_BV_TYPE_COUNT][2];
    for (int t = 0; t < SNUG_BV_TYPE_COUNT; ++t)
        for (int s = 0; s < 2; ++s) {
            bvs[t][s] = calloc(COST_N, stride);
            for (int i = 0; i < COST_N; ++i) {
                uint32_t f = first[2 * i + s];
                snug_tri_set set = {m.positions, m.indices, NULL, f & 0xffffffu, f >> 24};
                fit_bv((snug_bv_type)t, &set, bvs[t][s] + (size_t)i * stride);
            }
        }
    /* Centre each B patch on its A patch (through the AABBs) so the relative offset decides overlap. */
    for (int i = 0; i < COST_N; ++i) {
        const snug_aabb* a = (const snug_aabb*)(bvs[SNUG_BV_AABB][0] + (size_t)i * stride);
        const snug_aabb* b = (const snug_aabb*)(bvs[SNUG_BV_AABB][1] + (size_t)i * stride);
        vec3 ca, cb, rcb;
        glm_vec3_center((float*)a->min, (float*)a->max, ca);
        glm_vec3_center((float*)b->min, (float*)b->max, cb);
        glm_mat3_mulv(rel[i].R, cb, rcb);
        float reach = 0.5f * (glm_vec3_distance((float*)a->min, (float*)a->max) + glm_vec3_distance((float*)b->min, (float*)b->max));
        for (int k = 0; k < 3; ++k) rel[i].t[k] = rel[i].t[k] * reach + ca[k] - rcb[k];
    }
    for (int ta = 0; ta < SNUG_BV_TYPE_COUNT; ++ta)
        for (int tb = 0; tb < SNUG_BV_TYPE_COUNT; ++tb) {
            int kdop_a = ta >= SNUG_BV_KDOP14, kdop_b = tb >= SNUG_BV_KDOP14;
            if ((kdop_a || kdop_b) && ta != tb) continue; /* k-DOPs only meet their own kind */
            cost_job j = {(snug_bv_type)ta, (snug_bv_type)tb, bvs[ta][0], bvs[tb][1], stride, rel, 0, 0};
            bench_stats st = bench_measure(cost_run, &j, 5, 150);
            st.med *= 1e6 / COST_N; st.min *= 1e6 / COST_N; st.max *= 1e6 / COST_N;
            char cas[64], note[96];
            snprintf(cas, sizeof cas, "%s-%s", BV_NAMES[ta], BV_NAMES[tb]);
            snprintf(note, sizeof note, "ns per snug_bv_overlap call; %.0f%% overlap", 100.0 * j.hits / COST_N);
            bench_row("cost-bv", cas, impl_name(""), &st, "ok", NAN, note);
        }
    {
        cost_job j = {SNUG_BV_OBB, SNUG_BV_OBB, bvs[SNUG_BV_OBB][0], bvs[SNUG_BV_OBB][1], stride, rel, 0, 0};
        int misses = 0, sat_hits = 0;
        for (int i = 0; i < COST_N; ++i) {
            const snug_obb* a = (const snug_obb*)(j.a + (size_t)i * stride);
            const snug_obb* b = (const snug_obb*)(j.b + (size_t)i * stride);
            int s = snug_obb_obb(a, b, &rel[i]), z = snug_obb_obb_seed004(a, b, &rel[i]);
            sat_hits += s;
            misses += s != z;
        }
        for (int v = 0; v < 2; ++v) {
            j.seed004 = v;
            bench_stats st = bench_measure(cost_run_obb, &j, 5, 150);
            st.med *= 1e6 / COST_N; st.min *= 1e6 / COST_N; st.max *= 1e6 / COST_N;
            char note[128];
            snprintf(note, sizeof note, "ns per call; %d of %d pairs disagree with SAT (%d SAT overlaps)", v ? misses : 0,
                     COST_N, sat_hits);
            bench_row("sat-vs-seed004", "OBB-OBB", impl_name(v ? "seed-004 test" : "15-axis SAT"), &st,
                      v && misses ? "wrong" : "ok", NAN, note);
        }
    }
    for (int t = 0; t < SNUG_BV_TYPE_COUNT; ++t) free(bvs[t][0]), free(bvs[t][1]);
    task_cost_primitives(&m, &r);
    free(rel);
    free(first);
    test_mesh_free(&m);
}

/* --------------------------------------------------------------------------- surfaces found from triangles */

typedef struct find_job {
    snug_ctx* ctx;
    snug_mesh mesh;
    snug_surface_find_def def;
    snug_surface out[64];
    uint32_t total;
    snug_status status;
} find_job;

static void find_once(void* arg) {
    find_job* j = arg;
    j->status = snug_mesh_find_surfaces(j->ctx, j->mesh, &j->def, j->out, 64, &j->total);
}

/* snug_mesh_find_surfaces per call on a created mesh (no anchor has it). The npm meshes must offer nothing and rest
 * on one binding; the furniture's counts are those of tests/c/test_place_find.c. */
static void task_find(snug_ctx* ctx) {
    static const struct { const char* name; int item; uint32_t offers, bindings; } cases[] = {
        {"dragon48k", -1, 0, 1}, {"dragon11k", -1, 0, 1}, {"bunny", -1, 0, 1},
        {"desk", TEST_DESK, 3, 1}, {"bookcase", TEST_BOOKCASE, 5, 2}, {"round table", TEST_ROUND_TABLE, 1, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        test_mesh m;
        test_item it;
        if (cases[c].item >= 0) {
            test_item_build((test_item_kind)cases[c].item, &it);
            m = it.mesh;
        } else if (!load(cases[c].name, &m)) {
            continue;
        }
        snug_mesh_def mdef = mesh_def(&m, NULL);
        find_job j = {.ctx = ctx, .def = snug_default_surface_find_def()};
        snug_status st = snug_mesh_create(ctx, &mdef, &j.mesh);
        if (st == SNUG_OK) {
            find_once(&j);
            st = j.status;
        }
        if (st != SNUG_OK) error_row("find-surfaces", cases[c].name, "", ctx, st);
        else {
            bench_stats bs = bench_measure(find_once, &j, 5, 1000);
            uint32_t offers = 0;
            for (uint32_t i = 0; i < j.total; ++i) offers += j.out[i].kind == SNUG_SURFACE_OFFER;
            char note[200];
            snprintf(note, sizeof note, "%u triangles: %u offers, %u bindings (expected %u, %u)", m.triangle_count,
                     offers, j.total - offers, cases[c].offers, cases[c].bindings);
            bool right = offers == cases[c].offers && j.total - offers == cases[c].bindings;
            bench_row("find-surfaces", cases[c].name, impl_name(""), &bs, right ? "ok" : "wrong", j.total, note);
        }
        if (j.mesh) snug_mesh_destroy(ctx, j.mesh);
        test_mesh_free(&m);
    }
}

/* ---------------------------------------------------------------------------------------------------- placement */

/* The placement benchmark's rooms and drag paths (tests/bench/place/export.mjs writes them) replayed through
 * snug_body_move as the JS mover tests/bench/place/movers/snug-core.mjs does, without the JS API: the program to
 * profile the core mover with (natively under perf or callgrind, or as wasm under node). The path is replayed
 * SNUG_BENCH_REPEATS times (default 2) on a fresh scene, each event's time the least of its replays (the replays do
 * the same work; the least filters out other processes on a shared machine), with p50/p99/max and the consistency
 * check (snug_scene_check) after every event of the first replay unless SNUG_BENCH_NO_CHECK is set.
 * SNUG_BENCH_SLOW=<ms> lists the events slower than that on stderr, SNUG_BENCH_POSES=<file> writes every event's
 * result pose and reasons (to compare two builds). */
enum { GESTURE_SHELF_SLIDE = 3, GESTURE_CARRY = 4, GESTURE_ROTATE = 5 }; /* indices in export.mjs's GESTURES */

typedef struct place_event {
    uint32_t body, gesture;
    double target[7], origin[3], dir[3], grab[3];
} place_event;

typedef struct place_body {
    uint32_t kind, is_static, upright;
    int32_t parent, on[3]; /* on: supporter, its offer, the binding laid on it (-1: none) */
    double pose[7];
} place_body;

typedef struct place_room {
    uint32_t kind_count, body_count, event_count;
    snug_mesh* meshes;
    place_body* bodies;
    place_event* events;
} place_room;

static bool read_all(FILE* f, void* out, size_t bytes) { return fread(out, 1, bytes, f) == bytes; }

static snug_pose pose_from(const double* p) {
    snug_pose q;
    for (int i = 0; i < 4; ++i) q.q[i] = (float)p[i];
    for (int i = 0; i < 3; ++i) q.p[i] = (float)p[4 + i];
    return q;
}

static int cmp_double(const void* a, const void* b) { return bench_cmp_double(a, b); }

static void place_free(snug_ctx* ctx, place_room* room) {
    for (uint32_t k = 0; room->meshes && k < room->kind_count; ++k)
        if (room->meshes[k]) snug_mesh_destroy(ctx, room->meshes[k]);
    free(room->meshes), free(room->bodies), free(room->events);
}

/* Meshes with their surfaces, bodies and events of a room file. */
static bool place_load(snug_ctx* ctx, const char* file, place_room* room) {
    memset(room, 0, sizeof *room);
    FILE* f = fopen(file, "rb");
    char magic[8];
    uint32_t head[3];
    bool ok = f && read_all(f, magic, 8) && !memcmp(magic, "SNUGPLC1", 8) && read_all(f, head, sizeof head);
    if (ok) {
        room->kind_count = head[0], room->body_count = head[1], room->event_count = head[2];
        room->meshes = calloc(head[0], sizeof *room->meshes);
        room->bodies = calloc(head[1], sizeof *room->bodies);
        room->events = calloc(head[2], sizeof *room->events);
        ok = room->meshes && room->bodies && room->events;
    }
    for (uint32_t k = 0; ok && k < room->kind_count; ++k) {
        uint32_t c[3];
        ok = read_all(f, c, sizeof c);
        test_mesh m = {.vertex_count = c[0], .triangle_count = c[1]};
        m.positions = ok ? malloc((size_t)c[0] * 12) : NULL;
        m.indices = ok ? malloc((size_t)c[1] * 12) : NULL;
        ok = ok && m.positions && m.indices && read_all(f, m.positions, (size_t)c[0] * 12) &&
             read_all(f, m.indices, (size_t)c[1] * 12);
        snug_mesh_def def = mesh_def(&m, NULL);
        /* built up front as the JS mover does: the edge adjacency the sweeps use, the ray tree pointer input uses */
        snug_mesh_info info;
        snug_ray ray = {{0, 0, 0}, {0, -1, 0}, INFINITY};
        snug_ray_hit hit;
        snug_pose identity = snug_pose_identity();
        ok = ok && !snug_mesh_create(ctx, &def, &room->meshes[k]) && !snug_mesh_get_info(ctx, room->meshes[k], &info) &&
             !snug_mesh_raycast(ctx, room->meshes[k], &identity, &ray, &hit);
        test_mesh_free(&m);
        snug_surface* surfaces = ok ? calloc(c[2] ? c[2] : 1, sizeof *surfaces) : NULL;
        ok = ok && surfaces;
        for (uint32_t i = 0; ok && i < c[2]; ++i) {
            uint32_t h[3];
            ok = read_all(f, h, sizeof h) && h[2] <= SNUG_SURFACE_MAX_VERTICES;
            surfaces[i].kind = (snug_surface_kind)h[0];
            surfaces[i].label = h[1];
            surfaces[i].vertex_count = h[2];
            ok = ok && read_all(f, surfaces[i].normal, 12) && read_all(f, surfaces[i].vertices, (size_t)h[2] * 12);
        }
        ok = ok && !snug_mesh_set_surfaces(ctx, room->meshes[k], surfaces, c[2]);
        free(surfaces);
    }
    for (uint32_t i = 0; ok && i < room->body_count; ++i) {
        place_body* b = &room->bodies[i];
        uint32_t flags[2];
        ok = read_all(f, &b->kind, 4) && read_all(f, &b->parent, 4) && read_all(f, flags, 8) && read_all(f, b->on, 12) &&
             read_all(f, b->pose, sizeof b->pose) && b->kind < room->kind_count && b->parent < (int32_t)i &&
             b->on[0] < (int32_t)room->body_count;
        b->is_static = flags[0], b->upright = flags[1] && !flags[0];
    }
    for (uint32_t k = 0; ok && k < room->event_count; ++k) {
        place_event* e = &room->events[k];
        double v[16];
        ok = read_all(f, &e->body, 4) && read_all(f, &e->gesture, 4) && read_all(f, v, sizeof v) &&
             e->body < room->body_count;
        memcpy(e->target, v, sizeof e->target);
        memcpy(e->origin, v + 7, 24);
        memcpy(e->dir, v + 10, 24);
        memcpy(e->grab, v + 13, 24);
    }
    if (f) fclose(f);
    if (!ok) {
        fprintf(stderr, "snug_bench: %s is not a placement room (node tests/bench/place/export.mjs)\n", file);
        place_free(ctx, room);
    }
    return ok;
}

typedef struct place_replay {
    double* times;            /* per event, ms */
    uint32_t blocked, violations;
    bool check, first;
    double slow;
    FILE* poses;
} place_replay;

/* The room as a placement scene: bodies, orientations, bindings (which lay each body onto its offer). */
static snug_status place_scene(snug_ctx* ctx, const place_room* room, snug_scene* out, snug_body* bodies) {
    snug_scene scene = 0;
    snug_status st = snug_scene_create(ctx, &scene);
    const float up[3] = {0, 1, 0};
    for (uint32_t i = 0; !st && i < room->body_count; ++i) {
        const place_body* b = &room->bodies[i];
        snug_body_def def = snug_default_body_def();
        def.mesh = room->meshes[b->kind];
        def.parent = b->parent >= 0 ? bodies[b->parent] : 0;
        def.is_static = b->is_static != 0;
        def.pose = pose_from(b->pose);
        st = snug_body_create(ctx, scene, &def, &bodies[i]);
    }
    for (uint32_t i = 0; !st && i < room->body_count; ++i) {
        const place_body* b = &room->bodies[i];
        if (b->upright) st = snug_body_set_orientation(ctx, scene, bodies[i], up, up);
        if (!st && b->on[0] >= 0)
            st = snug_body_bind(ctx, scene, bodies[i], (uint32_t)b->on[2], bodies[b->on[0]], (uint32_t)b->on[1]);
    }
    if (st && scene) snug_scene_destroy(ctx, scene), scene = 0;
    *out = scene;
    return st;
}

/* One replay on a fresh scene: the events. */
static snug_status place_run(snug_ctx* ctx, const place_room* room, place_replay* rp) {
    snug_scene scene = 0;
    snug_body* bodies = calloc(room->body_count, sizeof *bodies);
    snug_status st = bodies ? place_scene(ctx, room, &scene, bodies) : SNUG_ERR_OUT_OF_MEMORY;
    for (uint32_t k = 0; !st && k < room->event_count; ++k) {
        const place_event* e = &room->events[k];
        snug_move_def def = snug_default_move_def();
        snug_move_result r;
        snug_pose now;
        if ((st = snug_body_get_pose(ctx, scene, bodies[e->body], &now))) break;
        if (e->gesture == GESTURE_ROTATE) {
            def.target = now;
            double a = remainder(2.0 * atan2(e->target[1], e->target[3]) - 2.0 * atan2(now.q[1], now.q[3]), 4.0 * acos(0.0));
            def.turn = fabs(a) > 1e-5 ? (float)fmax(-3.0, fmin(3.0, a)) : 0.0f;
        } else if (e->gesture == GESTURE_CARRY) {
            def.input = SNUG_MOVE_POINTER;
            for (int i = 0; i < 3; ++i) {
                def.ray.origin[i] = (float)e->origin[i];
                def.ray.dir[i] = (float)e->dir[i];
                def.grab[i] = (float)e->grab[i];
            }
        } else {
            def.target = now;
            for (int i = 0; i < 3; ++i) def.target.p[i] = (float)e->target[4 + i];
        }
        double t0 = bench_now_ms();
        st = snug_body_move(ctx, scene, bodies[e->body], &def, &r);
        double t = bench_now_ms() - t0;
        rp->times[k] = rp->first || t < rp->times[k] ? t : rp->times[k];
        if (!rp->first) continue;
        rp->blocked += (r.reasons & (SNUG_MOVE_BLOCKED | SNUG_MOVE_TURN_BLOCKED | SNUG_MOVE_SNAP_BLOCKED)) != 0;
        if (rp->poses)
            fprintf(rp->poses, "%u %u %.9g %.9g %.9g %.9g %.9g %.9g %.9g %x\n", k, e->body, r.pose.q[0], r.pose.q[1],
                    r.pose.q[2], r.pose.q[3], r.pose.p[0], r.pose.p[1], r.pose.p[2], r.reasons);
        if (rp->slow >= 0.0 && t > rp->slow)
            fprintf(stderr, "event %u: body %u, gesture %u, %.3f ms, reasons 0x%x, blockers %u\n", k, e->body,
                    e->gesture, t, r.reasons, r.blocker_count);
        uint32_t total = 0;
        snug_violation v[4];
        if (!st && rp->check) {
            st = snug_scene_check(ctx, scene, v, 4, &total);
            if (st == SNUG_ERR_BUFFER_TOO_SMALL) st = SNUG_OK; /* more than 4: counted all the same */
            for (uint32_t i = 0; !st && i < total && i < 4 && rp->violations < 8; i++)
                fprintf(stderr, "snug_bench place: event %u: violation kind %d, bodies 0x%08x and 0x%08x, amount %g\n", k,
                        (int)v[i].kind, v[i].body, v[i].other, v[i].amount);
            rp->violations += total;
        }
    }
    if (scene) snug_scene_destroy(ctx, scene);
    free(bodies);
    return st;
}

/* Issue 18's editing operations natively (the program to profile them with; the bench's rows come from
 * tests/bench/place/editing.mjs): every fourth shelf-slide event becomes an insert of the slid ornament's mesh at
 * its pointer ray (among the ornaments on a shelf or table, onto the body itself: the insert searches outward for
 * room), timed alone and deleted again; then the scene file's save,
 * load into a fresh scene and the scene rebuilt from its parts (meshes excluded: they are the room file's). */
static void task_place_edit(snug_ctx* ctx, const char* file) {
    place_room room;
    if (!place_load(ctx, file, &room)) return;
    snug_body* bodies = calloc(room.body_count, sizeof *bodies);
    snug_scene scene = 0;
    snug_status st = bodies ? place_scene(ctx, &room, &scene, bodies) : SNUG_ERR_OUT_OF_MEMORY;
    uint32_t inserts = 0, refused = 0;
    double worst = 0.0, total = 0.0;
    for (uint32_t k = 0; !st && k < room.event_count; ++k) {
        const place_event* e = &room.events[k];
        if (e->gesture != GESTURE_SHELF_SLIDE || k % 4) continue;
        snug_insert_def def = snug_default_insert_def();
        def.body.mesh = room.meshes[room.bodies[e->body].kind];
        for (int i = 0; i < 3; ++i) def.ray.origin[i] = (float)e->origin[i], def.ray.dir[i] = (float)e->dir[i];
        snug_body nb = 0;
        double t0 = bench_now_ms();
        snug_status r = snug_scene_insert(ctx, scene, &def, &nb, NULL);
        double t = bench_now_ms() - t0;
        total += t, worst = fmax(worst, t), inserts++;
        if (getenv("SNUG_BENCH_SLOW") && t > atof(getenv("SNUG_BENCH_SLOW")))
            fprintf(stderr, "insert at event %u: body %u's mesh, %.3f ms%s\n", k, e->body, t, r ? " (refused)" : "");
        if (r) refused++;
        else {
            snug_body gone[4];
            uint32_t n = 0;
            st = snug_scene_delete(ctx, scene, nb, SNUG_DELETE_WITH_DEPENDENTS, gone, 4, &n);
        }
    }
    size_t size = 0;
    void* buf = NULL;
    double save = 0.0, load = 0.0, rebuild = 0.0;
    if (!st && !(st = snug_scene_save(ctx, scene, NULL, 0, &size))) {
        buf = malloc(size);
        double t0 = bench_now_ms();
        st = buf ? snug_scene_save(ctx, scene, buf, size, &size) : SNUG_ERR_OUT_OF_MEMORY;
        save = bench_now_ms() - t0;
    }
    snug_scene fresh = 0, rebuilt = 0;
    if (!st && !(st = snug_scene_create(ctx, &fresh))) {
        snug_mesh meshes[64];
        uint32_t bt = 0, mt = 0;
        double t0 = bench_now_ms();
        st = snug_scene_load(ctx, fresh, buf, size, NULL, 0, &bt, meshes, 64, &mt);
        load = bench_now_ms() - t0;
        for (uint32_t i = 0; !st && i < mt && i < 64; ++i) snug_mesh_destroy(ctx, meshes[i]);
        snug_scene_destroy(ctx, fresh);
    }
    if (!st) {
        double t0 = bench_now_ms();
        st = place_scene(ctx, &room, &rebuilt, bodies);
        rebuild = bench_now_ms() - t0;
        if (rebuilt) snug_scene_destroy(ctx, rebuilt);
    }
    if (st) fprintf(stderr, "snug_bench place-edit: %s\n", snug_ctx_last_error(ctx));
    else
        printf("inserts %u (%u refused): mean %.3f ms, max %.3f ms; save %.3f ms, load %.3f ms, rebuild without meshes %.3f ms (%zu bytes)\n",
               inserts, refused, total / inserts, worst, save, load, rebuild, size);
    free(buf);
    if (scene) snug_scene_destroy(ctx, scene);
    free(bodies);
    place_free(ctx, &room);
}

static void task_place(snug_ctx* ctx, const char* file) {
    const char* slash = strrchr(file, '/');
    const char* base = slash ? slash + 1 : file;
    char cas[64];
    snprintf(cas, sizeof cas, "layout %.*s", (int)strcspn(base, "."), base);
    place_room room;
    if (!place_load(ctx, file, &room)) {
        bench_row("place", cas, impl_name("C program"), NULL, "error", NAN, "room file missing or damaged");
        return;
    }
    place_replay rp = {.times = calloc(room.event_count + 1, sizeof(double)), .check = !getenv("SNUG_BENCH_NO_CHECK"),
                       .first = true, .slow = getenv("SNUG_BENCH_SLOW") ? atof(getenv("SNUG_BENCH_SLOW")) : -1.0,
                       .poses = getenv("SNUG_BENCH_POSES") ? fopen(getenv("SNUG_BENCH_POSES"), "w") : NULL};
    int repeats = getenv("SNUG_BENCH_REPEATS") ? atoi(getenv("SNUG_BENCH_REPEATS")) : 2;
    snug_status st = rp.times ? SNUG_OK : SNUG_ERR_OUT_OF_MEMORY;
    for (int r = 0; !st && r < (repeats > 1 ? repeats : 1); ++r) {
        st = place_run(ctx, &room, &rp);
        rp.first = rp.check = false;
        if (rp.poses) fclose(rp.poses), rp.poses = NULL;
    }
    if (st) {
        error_row("place", cas, "C program", ctx, st);
    } else {
        uint32_t n = room.event_count;
        bench_stats bs = {.n = (int)n, .calls = n};
        double mean = 0.0;
        for (uint32_t k = 0; k < n; ++k) mean += rp.times[k] / n;
        qsort(rp.times, n, sizeof(double), cmp_double);
        bs.med = rp.times[n / 2];
        bs.min = rp.times[0];
        bs.max = rp.times[n - 1];
        double p99 = rp.times[(uint32_t)fmin(n - 1, floor(0.99 * n))];
        char note[200];
        snprintf(note, sizeof note, "p99 %.3f ms, mean %.3f ms, %u blocked events, ", p99, mean, rp.blocked);
        if (getenv("SNUG_BENCH_NO_CHECK")) snprintf(note + strlen(note), sizeof note - strlen(note), "check not run");
        else snprintf(note + strlen(note), sizeof note - strlen(note), "%u check violations", rp.violations);
        bench_row("place", cas, impl_name("C program"), &bs, rp.violations ? "wrong" : "ok", p99, note);
    }
    free(rp.times);
    place_free(ctx, &room);
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: snug_bench native|wasm build|rays|pairs|far|toi|scene|find|cost|reference|place <room.bin>|place-edit <room.bin>\n");
        return 2;
    }
    flavour = argv[1];
    (void)case_pose; /* used only once the queries exist */
    (void)BV_NAMES;
    const char* task = argv[2];
    snug_ctx* ctx = snug_ctx_create(NULL);
    if (!ctx) return 1;
    if (!strcmp(task, "build")) task_build(ctx, argc > 3 ? argv[3] : NULL);
    else if (!strcmp(task, "rays")) task_rays(ctx);
    else if (!strcmp(task, "pairs")) task_pairs(ctx);
    else if (!strcmp(task, "far")) task_far(ctx);
    else if (!strcmp(task, "toi")) task_toi();
    else if (!strcmp(task, "scene")) task_scene(ctx);
    else if (!strcmp(task, "find")) task_find(ctx);
    else if (!strcmp(task, "place") && argc > 3) task_place(ctx, argv[3]);
    else if (!strcmp(task, "place-edit") && argc > 3) task_place_edit(ctx, argv[3]);
    else if (!strcmp(task, "cost")) task_cost();
    else if (!strcmp(task, "reference")) task_reference();
    else {
        fprintf(stderr, "snug_bench: unknown task %s\n", task);
        return 2;
    }
    snug_ctx_destroy(ctx);
    return 0;
}
