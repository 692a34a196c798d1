#include "test_meshes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI_F 3.14159265358979f

/* File layout (little endian): "SNUGMSH1", u32 vertex_count, u32 triangle_count, f32 positions[3v], u32 indices[3t]. */
int test_mesh_load(const char* name, test_mesh* out) {
    char path[256];
    snprintf(path, sizeof path, "build/meshes/%s.bin", name);
    memset(out, 0, sizeof *out);
    FILE* f = fopen(path, "rb");
    if (!f) {
        harness_fail(__FILE__, __LINE__, "cannot open %s (run `make meshes` from the repository root)", path);
        return 0;
    }
    char magic[8];
    uint32_t counts[2];
    int ok = fread(magic, 1, 8, f) == 8 && memcmp(magic, "SNUGMSH1", 8) == 0 && fread(counts, 4, 2, f) == 2;
    if (ok) {
        out->vertex_count = counts[0];
        out->triangle_count = counts[1];
        out->positions = malloc((size_t)counts[0] * 12);
        out->indices = malloc((size_t)counts[1] * 12);
        ok = out->positions && out->indices && fread(out->positions, 12, counts[0], f) == counts[0] &&
             fread(out->indices, 12, counts[1], f) == counts[1];
    }
    fclose(f);
    if (!ok) {
        harness_fail(__FILE__, __LINE__, "%s is not a valid mesh file", path);
        test_mesh_free(out);
    }
    return ok;
}

snug_mesh_def test_mesh_def(const test_mesh* m, const snug_bvh_def* bvh) {
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = m->positions;
    def.vertex_count = m->vertex_count;
    def.indices = m->indices;
    def.triangle_count = m->triangle_count;
    if (bvh) def.bvh = *bvh;
    return def;
}

snug_mesh test_mesh_make(snug_ctx* ctx, const test_mesh* m, const snug_bvh_def* bvh) {
    snug_mesh_def def = test_mesh_def(m, bvh);
    snug_mesh h = 0;
    snug_status st = snug_mesh_create(ctx, &def, &h);
    if (st != SNUG_OK) harness_fail(__FILE__, __LINE__, "mesh create: %s", snug_ctx_last_error(ctx));
    return h;
}

snug_mesh test_box_make(snug_ctx* ctx, float hx, float hy, float hz) {
    test_mesh b;
    test_mesh_box(hx, hy, hz, &b);
    snug_mesh h = test_mesh_make(ctx, &b, NULL);
    test_mesh_free(&b);
    return h;
}

snug_pose test_pose_at(float x, float y, float z) {
    snug_pose p = snug_pose_identity();
    p.p[0] = x, p.p[1] = y, p.p[2] = z;
    return p;
}

void test_mesh_free(test_mesh* m) {
    free(m->positions);
    free(m->indices);
    memset(m, 0, sizeof *m);
}

static void alloc_mesh(test_mesh* m, uint32_t nv, uint32_t nt) {
    m->vertex_count = nv;
    m->triangle_count = nt;
    m->positions = malloc((size_t)nv * 12);
    m->indices = malloc((size_t)nt * 12);
}

void test_mesh_soup(rng* r, uint32_t n, float size, float tri_size, test_mesh* out) {
    alloc_mesh(out, 3 * n, n);
    for (uint32_t t = 0; t < n; t++) {
        float c[3];
        for (int a = 0; a < 3; a++) c[a] = rng_range(r, -size, size);
        for (int k = 0; k < 3; k++) {
            for (int a = 0; a < 3; a++) out->positions[9 * t + 3 * k + a] = c[a] + rng_range(r, -0.5f, 0.5f) * tri_size;
            out->indices[3 * t + k] = 3 * t + k;
        }
    }
}

void test_mesh_sphere(float radius, uint32_t rings, uint32_t segments, test_mesh* out) {
    /* poles are single vertices so the mesh is closed and manifold */
    uint32_t nv = 2 + (rings - 1) * segments, nt = 2 * segments * (rings - 1);
    alloc_mesh(out, nv, nt);
    float* p = out->positions;
    p[0] = 0; p[1] = radius; p[2] = 0;
    p[3] = 0; p[4] = -radius; p[5] = 0;
    for (uint32_t i = 1; i < rings; i++)
        for (uint32_t j = 0; j < segments; j++) {
            float th = PI_F * (float)i / (float)rings, ph = 2 * PI_F * (float)j / (float)segments;
            float* v = p + 3 * (2 + (i - 1) * segments + j);
            v[0] = radius * sinf(th) * cosf(ph);
            v[1] = radius * cosf(th);
            v[2] = radius * sinf(th) * sinf(ph);
        }
    uint32_t t = 0;
#define RING(i, j) (2 + ((i) - 1) * segments + ((j) % segments))
    for (uint32_t j = 0; j < segments; j++) {
        uint32_t* x = out->indices + 3 * t++;
        x[0] = 0; x[1] = RING(1, j + 1); x[2] = RING(1, j);
        x = out->indices + 3 * t++;
        x[0] = 1; x[1] = RING(rings - 1, j); x[2] = RING(rings - 1, j + 1);
    }
    for (uint32_t i = 1; i + 1 < rings; i++)
        for (uint32_t j = 0; j < segments; j++) {
            uint32_t* x = out->indices + 3 * t++;
            x[0] = RING(i, j); x[1] = RING(i, j + 1); x[2] = RING(i + 1, j + 1);
            x = out->indices + 3 * t++;
            x[0] = RING(i, j); x[1] = RING(i + 1, j + 1); x[2] = RING(i + 1, j);
        }
#undef RING
}

static void torus_like(test_mesh* out, uint32_t rings, uint32_t segments, void (*at)(const void*, float, float, float*),
                       const void* user) {
    alloc_mesh(out, rings * segments, 2 * rings * segments);
    for (uint32_t i = 0; i < rings; i++)
        for (uint32_t j = 0; j < segments; j++)
            at(user, (float)i / (float)rings, (float)j / (float)segments, out->positions + 3 * (i * segments + j));
    uint32_t t = 0;
    for (uint32_t i = 0; i < rings; i++)
        for (uint32_t j = 0; j < segments; j++) {
            uint32_t a = i * segments + j, b = i * segments + (j + 1) % segments;
            uint32_t c = ((i + 1) % rings) * segments + j, d = ((i + 1) % rings) * segments + (j + 1) % segments;
            uint32_t* x = out->indices + 3 * t++;
            x[0] = a; x[1] = c; x[2] = d;
            x = out->indices + 3 * t++;
            x[0] = a; x[1] = d; x[2] = b;
        }
}

typedef struct torus_params {
    float R, r;
    int p, q;
} torus_params;

static void torus_at(const void* user, float u, float v, float* out) {
    const torus_params* tp = user;
    float a = 2 * PI_F * u, b = 2 * PI_F * v;
    out[0] = (tp->R + tp->r * cosf(b)) * cosf(a);
    out[1] = tp->r * sinf(b);
    out[2] = (tp->R + tp->r * cosf(b)) * sinf(a);
}

void test_mesh_torus(float R, float r, uint32_t rings, uint32_t segments, test_mesh* out) {
    torus_params tp = {R, r, 0, 0};
    torus_like(out, rings, segments, torus_at, &tp);
}

static void knot_curve(const torus_params* tp, float u, float* out) {
    float qu = (float)tp->q / (float)tp->p * u, cs = cosf(qu);
    out[0] = tp->R * (2 + cs) * 0.5f * cosf(u);
    out[1] = tp->R * (2 + cs) * 0.5f * sinf(u);
    out[2] = tp->R * sinf(qu) * 0.5f;
}

static void knot_at(const void* user, float u01, float v01, float* out) {
    const torus_params* tp = user;
    float u = u01 * (float)tp->p * 2 * PI_F, v = v01 * 2 * PI_F;
    float p1[3], p2[3], T[3], N[3], B[3];
    knot_curve(tp, u, p1);
    knot_curve(tp, u + 0.01f, p2);
    for (int a = 0; a < 3; a++) {
        T[a] = p2[a] - p1[a];
        N[a] = p2[a] + p1[a];
    }
    B[0] = T[1] * N[2] - T[2] * N[1];
    B[1] = T[2] * N[0] - T[0] * N[2];
    B[2] = T[0] * N[1] - T[1] * N[0];
    N[0] = B[1] * T[2] - B[2] * T[1];
    N[1] = B[2] * T[0] - B[0] * T[2];
    N[2] = B[0] * T[1] - B[1] * T[0];
    float nb = sqrtf(B[0] * B[0] + B[1] * B[1] + B[2] * B[2]), nn = sqrtf(N[0] * N[0] + N[1] * N[1] + N[2] * N[2]);
    float cx = -tp->r * cosf(v), cy = tp->r * sinf(v);
    for (int a = 0; a < 3; a++) out[a] = p1[a] + cx * N[a] / nn + cy * B[a] / nb;
}

void test_mesh_torus_knot(float radius, float tube, uint32_t tubular, uint32_t radial, int p, int q, test_mesh* out) {
    torus_params tp = {radius, tube, p, q};
    torus_like(out, tubular, radial, knot_at, &tp);
}

void test_mesh_box(float hx, float hy, float hz, test_mesh* out) {
    static const uint32_t idx[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                     2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
    alloc_mesh(out, 8, 12);
    for (uint32_t v = 0; v < 8; v++) {
        out->positions[3 * v] = (v & 1) ^ ((v >> 1) & 1) ? hx : -hx;
        out->positions[3 * v + 1] = (v & 2) ? hy : -hy;
        out->positions[3 * v + 2] = (v & 4) ? hz : -hz;
    }
    memcpy(out->indices, idx, sizeof idx);
}
