/* Box-part furniture with authored surfaces for the placement tests (see test_furniture.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_furniture.h"

/* Append a box [lo, hi] (8 vertices, 12 counter-clockwise outward triangles, as test_mesh_box). */
static void add_box(test_mesh* m, float x0, float y0, float z0, float x1, float y1, float z1) {
    static const uint32_t idx[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                     2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
    uint32_t v0 = m->vertex_count, t0 = m->triangle_count;
    m->positions = realloc(m->positions, (size_t)(v0 + 8) * 12);
    m->indices = realloc(m->indices, (size_t)(t0 + 12) * 12);
    for (uint32_t v = 0; v < 8; v++) {
        float* p = m->positions + 3 * (v0 + v);
        p[0] = (v & 1) ^ ((v >> 1) & 1) ? x1 : x0;
        p[1] = (v & 2) ? y1 : y0;
        p[2] = (v & 4) ? z1 : z0;
    }
    for (uint32_t i = 0; i < 36; i++) m->indices[3 * t0 + i] = v0 + idx[i];
    m->vertex_count += 8;
    m->triangle_count += 12;
}

/* Append a prism over the regular polygon of `sides` corners (radius r, centre x, z) between heights y0 and y1,
 * faces counter-clockwise outward. */
static void add_prism(test_mesh* m, float x, float z, float r, uint32_t sides, float y0, float y1) {
    uint32_t v0 = m->vertex_count, t0 = m->triangle_count;
    m->positions = realloc(m->positions, (size_t)(v0 + 2 * sides) * 12);
    m->indices = realloc(m->indices, (size_t)(t0 + 4 * sides - 4) * 12);
    for (uint32_t i = 0; i < sides; i++) {
        float a = 6.28318531f * (float)i / (float)sides;
        for (uint32_t k = 0; k < 2; k++) {
            float* p = m->positions + 3 * (v0 + 2 * i + k);
            p[0] = x + r * cosf(a), p[1] = k ? y1 : y0, p[2] = z - r * sinf(a); /* counter-clockwise seen from +y */
        }
    }
    uint32_t* t = m->indices + 3 * t0;
    for (uint32_t i = 0; i < sides; i++) { /* the side quad of corners i, i + 1 */
        uint32_t a = v0 + 2 * i, b = v0 + 2 * ((i + 1) % sides);
        uint32_t q[6] = {a, b, b + 1, a, b + 1, a + 1};
        memcpy(t, q, sizeof q);
        t += 6;
    }
    for (uint32_t i = 1; i + 1 < sides; i++) { /* top fan counter-clockwise from +y, bottom from -y */
        uint32_t q[6] = {v0 + 1, v0 + 2 * i + 1, v0 + 2 * i + 3, v0, v0 + 2 * i + 2, v0 + 2 * i};
        memcpy(t, q, sizeof q);
        t += 6;
    }
    m->vertex_count += 2 * sides;
    m->triangle_count += 4 * sides - 4;
}

/* Append a convex polygon surface (vertices in order around it), wound counter-clockwise seen from n. */
static void add_poly(test_item* it, snug_surface_kind kind, snug_label label, uint32_t count, const float (*v)[3],
                     const float n[3]) {
    snug_surface* s = &it->surfaces[it->surface_count++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->label = label;
    memcpy(s->normal, n, sizeof s->normal);
    s->vertex_count = count;
    float e1[3], e2[3];
    for (int a = 0; a < 3; a++) e1[a] = v[1][a] - v[0][a], e2[a] = v[2][a] - v[0][a];
    float cx[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    bool flip = cx[0] * n[0] + cx[1] * n[1] + cx[2] * n[2] < 0;
    for (uint32_t i = 0; i < count; i++) memcpy(s->vertices[i], v[flip ? count - 1 - i : i], sizeof s->vertices[i]);
}

/* Append a rectangle surface: centre c, half edges e1 and e2, normal n; wound counter-clockwise seen from n. */
static void add_rect(test_item* it, snug_surface_kind kind, snug_label label, const float c[3], const float e1[3],
                     const float e2[3], const float n[3]) {
    snug_surface* s = &it->surfaces[it->surface_count++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->label = label;
    memcpy(s->normal, n, sizeof s->normal);
    s->vertex_count = 4;
    const float sg[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    float cx[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    bool flip = cx[0] * n[0] + cx[1] * n[1] + cx[2] * n[2] < 0;
    for (int v = 0; v < 4; v++) {
        int k = flip ? 3 - v : v;
        for (int a = 0; a < 3; a++) s->vertices[v][a] = c[a] + sg[k][0] * e1[a] + sg[k][1] * e2[a];
    }
}

/* A horizontal rectangle [x0, x1] x [z0, z1] at height y, facing up. */
static void add_top(test_item* it, snug_surface_kind kind, snug_label label, float x0, float x1, float y, float z0,
                    float z1) {
    const float c[3] = {0.5f * (x0 + x1), y, 0.5f * (z0 + z1)}, e1[3] = {0.5f * (x1 - x0), 0, 0};
    const float e2[3] = {0, 0, 0.5f * (z1 - z0)}, up[3] = {0, 1, 0};
    add_rect(it, kind, label, c, e1, e2, up);
}

static void legs(test_mesh* m, float hx, float hz, float leg, float height) {
    for (int i = 0; i < 4; i++) {
        float x = (i & 1) ? hx - leg : -hx, z = (i & 2) ? hz - leg : -hz;
        add_box(m, x, 0, z, x + leg, height, z + leg);
    }
}

void test_item_build(test_item_kind kind, test_item* it) {
    memset(it, 0, sizeof *it);
    test_mesh* m = &it->mesh;
    switch (kind) {
    case TEST_FLOOR:
        add_box(m, -3, -0.1f, -3, 3, 0, 3);
        add_top(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_FLOOR, -3, 3, 0, -3, 3);
        break;
    case TEST_WALL: {
        add_box(m, -2, 0, -0.05f, 2, 2.5f, 0.05f);
        const float c[3] = {0, 1.25f, 0.05f}, e1[3] = {2, 0, 0}, e2[3] = {0, 1.25f, 0}, n[3] = {0, 0, 1};
        add_rect(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_WALL, c, e1, e2, n);
        add_top(it, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_FLOOR, -2, 2, 0, -0.05f, 0.05f);
        break;
    }
    case TEST_TABLE:
        add_box(m, -0.8f, 0.72f, -0.45f, 0.8f, 0.78f, 0.45f);
        legs(m, 0.77f, 0.42f, 0.06f, 0.72f);
        add_top(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_WORKSPACE, -0.8f, 0.8f, 0.78f, -0.45f, 0.45f);
        add_top(it, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_FLOOR, -0.77f, 0.77f, 0, -0.42f, 0.42f);
        break;
    case TEST_DESK:
        add_box(m, -0.7f, 0.71f, -0.35f, 0.7f, 0.75f, 0.35f);
        legs(m, 0.68f, 0.33f, 0.05f, 0.71f);
        add_box(m, -0.7f, 0.75f, -0.35f, -0.66f, 1.16f, -0.1f); /* shelf sides */
        add_box(m, 0.66f, 0.75f, -0.35f, 0.7f, 1.16f, -0.1f);
        add_box(m, -0.7f, 1.1f, -0.35f, 0.7f, 1.13f, -0.1f); /* the shelf board */
        add_top(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_WORKSPACE, -0.7f, 0.7f, 0.75f, -0.1f, 0.35f);
        add_top(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_STORE, -0.7f, 0.7f, 1.13f, -0.35f, -0.1f);
        add_top(it, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_FLOOR, -0.68f, 0.68f, 0, -0.33f, 0.33f);
        break;
    case TEST_LAMP:
        add_box(m, -0.08f, 0, -0.08f, 0.08f, 0.03f, 0.08f);
        add_box(m, -0.01f, 0.03f, -0.01f, 0.01f, 0.38f, 0.01f);
        add_box(m, -0.1f, 0.38f, -0.1f, 0.1f, 0.5f, 0.1f);
        add_top(it, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_STORE, -0.08f, 0.08f, 0, -0.08f, 0.08f);
        break;
    case TEST_BOOK:
        add_box(m, -0.075f, 0, -0.11f, 0.075f, 0.03f, 0.11f);
        add_top(it, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_STORE, -0.075f, 0.075f, 0, -0.11f, 0.11f);
        break;
    case TEST_CHAIR:
        add_box(m, -0.225f, 0.43f, -0.225f, 0.225f, 0.47f, 0.225f);
        legs(m, 0.225f, 0.225f, 0.04f, 0.43f);
        add_box(m, -0.225f, 0.47f, -0.225f, 0.225f, 0.9f, -0.19f);
        add_top(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_SEAT, -0.225f, 0.225f, 0.47f, -0.19f, 0.225f);
        add_top(it, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_FLOOR, -0.225f, 0.225f, 0, -0.225f, 0.225f);
        break;
    case TEST_PICTURE: {
        add_box(m, -0.3f, -0.2f, 0, 0.3f, 0.2f, 0.02f);
        const float c[3] = {0, 0, 0}, e1[3] = {0.3f, 0, 0}, e2[3] = {0, 0.2f, 0}, n[3] = {0, 0, 1};
        add_rect(it, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_WALL, c, e1, e2, n);
        break;
    }
    case TEST_BLOCK:
        add_box(m, -0.2f, 0, -0.2f, 0.2f, 0.4f, 0.2f);
        add_top(it, SNUG_SURFACE_OFFER, TEST_BLOCK_LABEL, -0.2f, 0.2f, 0.4f, -0.2f, 0.2f);
        add_top(it, SNUG_SURFACE_BINDING, TEST_BLOCK_LABEL, -0.2f, 0.2f, 0, -0.2f, 0.2f);
        break;
    case TEST_BOOKCASE: {
        add_box(m, -0.4f, 0, -0.14f, -0.38f, 1.8f, 0.14f); /* sides */
        add_box(m, 0.38f, 0, -0.14f, 0.4f, 1.8f, 0.14f);
        add_box(m, -0.38f, 0, -0.14f, 0.38f, 1.8f, -0.13f); /* back panel */
        const float boards[5][2] = {{0, 0.03f}, {0.45f, 0.47f}, {0.9f, 0.92f}, {1.35f, 1.37f}, {1.78f, 1.8f}};
        for (int b = 0; b < 5; b++) add_box(m, -0.38f, boards[b][0], -0.13f, 0.38f, boards[b][1], 0.14f);
        for (int b = 0; b < 4; b++)
            add_top(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_STORE, -0.38f, 0.38f, boards[b][1], -0.13f, 0.14f);
        add_top(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_STORE, -0.4f, 0.4f, 1.8f, -0.14f, 0.14f);
        const float c[3] = {0, 0.909f, -0.14f}, e1[3] = {0.4f, 0, 0}, e2[3] = {0, 0.891f, 0}, n[3] = {0, 0, 1};
        add_rect(it, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_WALL, c, e1, e2, n);
        add_top(it, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_FLOOR, -0.4f, 0.4f, 0, -0.14f, 0.14f);
        break;
    }
    case TEST_HOLE_TABLE:
        add_box(m, -0.6f, 0.72f, -0.4f, -0.05f, 0.76f, 0.4f); /* the top: four boards around the hole */
        add_box(m, 0.05f, 0.72f, -0.4f, 0.6f, 0.76f, 0.4f);
        add_box(m, -0.05f, 0.72f, 0.05f, 0.05f, 0.76f, 0.4f);
        add_box(m, -0.05f, 0.72f, -0.4f, 0.05f, 0.76f, -0.05f);
        legs(m, 0.6f, 0.4f, 0.05f, 0.72f);
        add_top(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_WORKSPACE, -0.6f, 0.6f, 0.76f, 0.05f, 0.4f);
        add_top(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_WORKSPACE, -0.6f, 0.6f, 0.76f, -0.4f, -0.05f);
        add_top(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_WORKSPACE, -0.6f, -0.05f, 0.76f, -0.05f, 0.05f);
        add_top(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_WORKSPACE, 0.05f, 0.6f, 0.76f, -0.05f, 0.05f);
        add_top(it, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_FLOOR, -0.6f, 0.6f, 0, -0.4f, 0.4f);
        break;
    case TEST_ROUND_TABLE: {
        add_prism(m, 0, 0, 0.5f, 48, 0.72f, 0.76f);
        add_box(m, -0.05f, 0.05f, -0.05f, 0.05f, 0.72f, 0.05f); /* pedestal */
        add_box(m, -0.3f, 0, -0.025f, 0.3f, 0.05f, 0.025f);     /* cross base */
        add_box(m, -0.025f, 0, -0.3f, 0.025f, 0.05f, 0.3f);
        float top[24][3];
        for (int i = 0; i < 24; i++) {
            float a = 6.28318531f * (float)i / 24.0f;
            top[i][0] = 0.5f * cosf(a), top[i][1] = 0.76f, top[i][2] = -0.5f * sinf(a);
        }
        const float up[3] = {0, 1, 0};
        add_poly(it, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_WORKSPACE, 24, (const float(*)[3])top, up);
        const float foot[8][3] = {{0.3f, 0, 0.025f},  {0.3f, 0, -0.025f},  {0.025f, 0, -0.3f}, {-0.025f, 0, -0.3f},
                                  {-0.3f, 0, -0.025f}, {-0.3f, 0, 0.025f}, {-0.025f, 0, 0.3f}, {0.025f, 0, 0.3f}};
        add_poly(it, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_FLOOR, 8, foot, up);
        break;
    }
    default: break;
    }
}

void test_item_free(test_item* it) { test_mesh_free(&it->mesh); }

snug_mesh test_item_make(snug_ctx* ctx, test_item_kind kind) {
    test_item it;
    test_item_build(kind, &it);
    snug_mesh mesh = test_mesh_make(ctx, &it.mesh, NULL);
    CHECK_MSG(mesh != 0, "item %d: %s", (int)kind, snug_ctx_last_error(ctx));
    snug_status st = snug_mesh_set_surfaces(ctx, mesh, it.surfaces, it.surface_count);
    CHECK_MSG(st == SNUG_OK, "item %d surfaces: %s", (int)kind, snug_ctx_last_error(ctx));
    test_item_free(&it);
    return mesh;
}

uint32_t test_item_surface(test_item_kind kind, snug_surface_kind surface_kind, uint32_t nth) {
    test_item it;
    test_item_build(kind, &it);
    uint32_t found = SNUG_NO_HIT;
    for (uint32_t i = 0; i < it.surface_count && found == SNUG_NO_HIT; i++)
        if (it.surfaces[i].kind == surface_kind && nth-- == 0) found = i;
    test_item_free(&it);
    return found;
}

void test_room_open(test_room* r) {
    memset(r, 0, sizeof *r);
    r->ctx = snug_ctx_create(NULL);
    CHECK(snug_scene_create(r->ctx, &r->scene) == SNUG_OK);
    for (int k = 0; k < TEST_ITEM_KIND_COUNT; k++) r->mesh[k] = test_item_make(r->ctx, (test_item_kind)k);
    snug_body_def def = snug_default_body_def();
    def.mesh = r->mesh[TEST_FLOOR];
    def.is_static = true;
    CHECK(snug_body_create(r->ctx, r->scene, &def, &r->floor) == SNUG_OK);
}

void test_room_close(test_room* r) { snug_ctx_destroy(r->ctx); }
