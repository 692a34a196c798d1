/* Surfaces found from triangles (snug_mesh_find_surfaces): the procedural furniture against its authored surfaces
 * (plane, area, label), the npm meshes (no offers, one resting binding at the lowest point), room above an offer,
 * rotation and triangle order, the placement engine taking the found surfaces, bad input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "snug.h"
#include "test_alloc.h"
#include "test_furniture.h"

#define MAX_FOUND 64

static const char* const item_names[TEST_ITEM_KIND_COUNT] = {
    "floor", "wall", "table", "desk", "lamp", "book", "chair", "picture", "block", "bookcase", "hole table",
    "round table"};

static uint32_t find(snug_ctx* ctx, snug_mesh mesh, const snug_surface_find_def* def, snug_surface* out) {
    uint32_t total = 0;
    snug_status st = snug_mesh_find_surfaces(ctx, mesh, def, out, MAX_FOUND, &total);
    CHECK_MSG(st == SNUG_OK, "find_surfaces: %s", snug_ctx_last_error(ctx));
    return st == SNUG_OK ? total : 0;
}

static void sub3(const float a[3], const float b[3], double out[3]) {
    for (int c = 0; c < 3; c++) out[c] = (double)a[c] - b[c];
}

static double dot3(const double a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Area (fan, along the normal) and vertex centroid of a surface. */
static double surface_area(const snug_surface* s) {
    double area = 0.0;
    for (uint32_t k = 1; k + 1 < s->vertex_count; k++) {
        double e1[3], e2[3];
        sub3(s->vertices[k], s->vertices[0], e1);
        sub3(s->vertices[k + 1], s->vertices[0], e2);
        double cr[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        area += 0.5 * dot3(cr, s->normal);
    }
    return area;
}

/* Area centroid (the vertex centroid moves with the vertices simplification keeps). */
static void surface_centroid(const snug_surface* s, double c[3]) {
    double total = 0.0;
    c[0] = c[1] = c[2] = 0.0;
    for (uint32_t k = 1; k + 1 < s->vertex_count; k++) {
        double e1[3], e2[3];
        sub3(s->vertices[k], s->vertices[0], e1);
        sub3(s->vertices[k + 1], s->vertices[0], e2);
        double cr[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        double a = 0.5 * dot3(cr, s->normal);
        total += a;
        for (int d = 0; d < 3; d++) c[d] += a * ((double)s->vertices[0][d] + s->vertices[k][d] + s->vertices[k + 1][d]) / 3.0;
    }
    for (int d = 0; d < 3; d++) c[d] /= total;
}

/* What a found surface must look like: kind, label, normal, a point of its plane near its middle, area. */
typedef struct expect {
    snug_surface_kind kind;
    snug_label label;
    float normal[3];
    float centroid[3];
    float area;
} expect;

static expect expect_of(const snug_surface* s) {
    expect e = {s->kind, s->label, {s->normal[0], s->normal[1], s->normal[2]}, {0, 0, 0}, (float)surface_area(s)};
    double c[3];
    surface_centroid(s, c);
    for (int a = 0; a < 3; a++) e.centroid[a] = (float)c[a];
    return e;
}

/* Same kind and label, normals within 0.05 degrees, planes within 1 mm, areas within 3 %, middles within 3 % of
 * the size. */
static bool matches(const snug_surface* s, const expect* e) {
    if (s->kind != e->kind || s->label != e->label) return false;
    double n[3] = {e->normal[0], e->normal[1], e->normal[2]};
    double ln = sqrt(dot3(n, e->normal)), ls = sqrt((double)s->normal[0] * s->normal[0] + (double)s->normal[1] * s->normal[1] +
                                                    (double)s->normal[2] * s->normal[2]);
    if (dot3(n, s->normal) < 0.9999996 * ln * ls) return false;
    double c[3], d[3];
    surface_centroid(s, c);
    for (int a = 0; a < 3; a++) d[a] = c[a] - e->centroid[a];
    double area = surface_area(s);
    return fabs(dot3(d, e->normal)) <= 1e-3 && fabs(area - e->area) <= 0.03 * e->area &&
           sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) <= 0.03 * sqrt(e->area) + 1e-3;
}

/* Every expectation is met by its own found surface, and nothing else was found. */
static void check_found(const char* what, const snug_surface* found, uint32_t n, const expect* want, uint32_t m) {
    bool used[MAX_FOUND] = {false};
    for (uint32_t w = 0; w < m; w++) {
        uint32_t hit = SNUG_NO_HIT;
        for (uint32_t i = 0; i < n && hit == SNUG_NO_HIT; i++)
            if (!used[i] && matches(&found[i], &want[w])) hit = i;
        CHECK_MSG(hit != SNUG_NO_HIT, "%s: no found surface matches expected %u (kind %d label %u, area %g at %g %g %g)",
                  what, w, (int)want[w].kind, want[w].label, (double)want[w].area, (double)want[w].centroid[0],
                  (double)want[w].centroid[1], (double)want[w].centroid[2]);
        if (hit != SNUG_NO_HIT) used[hit] = true;
    }
    for (uint32_t i = 0; i < n; i++)
        if (!used[i]) {
            double c[3];
            surface_centroid(&found[i], c);
            CHECK_MSG(n == m, "%s: unexpected surface %u (kind %d label %u, area %g at %g %g %g)", what, i,
                      (int)found[i].kind, found[i].label, surface_area(&found[i]), c[0], c[1], c[2]);
        }
    if (harness_current_failed)
        for (uint32_t i = 0; i < n; i++) {
            double c[3];
            surface_centroid(&found[i], c);
            fprintf(stderr, "  %s found %u: kind %d label %u, %u vertices, area %g at %g %g %g, normal %g %g %g\n",
                    what, i, (int)found[i].kind, found[i].label, found[i].vertex_count, surface_area(&found[i]), c[0],
                    c[1], c[2], found[i].normal[0], found[i].normal[1], found[i].normal[2]);
        }
}

/* Surfaces found beyond the authored ones, by design (see snug.h), and the authored ones the finder reads
 * differently. */
static uint32_t item_expectations(test_item_kind kind, const test_item* it, expect* want) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < it->surface_count; i++)
        if (!(kind == TEST_HOLE_TABLE && it->surfaces[i].kind == SNUG_SURFACE_OFFER)) /* checked by coverage */
            want[m++] = expect_of(&it->surfaces[i]);
    const snug_surface_kind O = SNUG_SURFACE_OFFER, B = SNUG_SURFACE_BINDING;
    switch (kind) {
    case TEST_FLOOR: /* a floor rests on its bottom like anything else */
        want[m++] = (expect){B, SNUG_LABEL_ON_FLOOR, {0, 1, 0}, {0, -0.1f, 0}, 36.0f};
        break;
    case TEST_WALL: /* a slab's both faces are walls; its 10 cm top is a ledge */
        want[m++] = (expect){O, SNUG_LABEL_ON_WALL, {0, 0, -1}, {0, 1.25f, -0.05f}, 10.0f};
        want[m++] = (expect){O, SNUG_LABEL_ON_STORE, {0, 1, 0}, {0, 2.5f, 0}, 0.4f};
        break;
    case TEST_DESK:
        /* the authored shelf offer reaches into the side panels; found: the board between them */
        want[1].area = 1.32f * 0.25f;
        /* the top under the shelf, with room, is storage apart from the open top */
        want[m++] = (expect){O, SNUG_LABEL_ON_STORE, {0, 1, 0}, {0, 0.75f, -0.225f}, 1.32f * 0.25f};
        break;
    case TEST_LAMP: /* the closed shade's top; the base beside the pole, under the shade (none larger than the top) */
        want[m++] = (expect){O, SNUG_LABEL_ON_STORE, {0, 1, 0}, {0, 0.5f, 0}, 0.04f};
        want[m++] = (expect){O, SNUG_LABEL_ON_STORE, {0, 1, 0}, {-0.045f, 0.03f, 0}, 0.0112f};
        want[m++] = (expect){O, SNUG_LABEL_ON_STORE, {0, 1, 0}, {0.045f, 0.03f, 0}, 0.0112f};
        break;
    case TEST_BOOK: /* books stack */
        want[m++] = (expect){O, SNUG_LABEL_ON_STORE, {0, 1, 0}, {0, 0.03f, 0}, 0.033f};
        break;
    case TEST_PICTURE: /* a picture frame may stand on a shelf */
        want[m++] = (expect){B, SNUG_LABEL_ON_STORE, {0, 1, 0}, {0, -0.2f, 0.01f}, 0.012f};
        break;
    case TEST_BLOCK: /* a box has a flat back: it can stand against a wall */
        want[m++] = (expect){B, SNUG_LABEL_ON_WALL, {0, 0, 1}, {0, 0.202f, -0.2f}, 0.4f * 0.396f};
        break;
    default: break;
    }
    return m;
}

static void test_furniture_matches_authored(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_surface_find_def def = snug_default_surface_find_def();
    for (int k = 0; k < TEST_ITEM_KIND_COUNT; k++) {
        test_item it;
        test_item_build((test_item_kind)k, &it);
        snug_mesh mesh = test_mesh_make(ctx, &it.mesh, NULL);
        snug_surface found[MAX_FOUND];
        uint32_t n = find(ctx, mesh, &def, found);
        expect want[16];
        uint32_t m = item_expectations((test_item_kind)k, &it, want);
        if (k == TEST_HOLE_TABLE) { /* the offers: the top but the hole, in any rectangles */
            double offered = 0.0;
            uint32_t kept = 0;
            for (uint32_t i = 0; i < n; i++) {
                if (found[i].kind != SNUG_SURFACE_OFFER) {
                    found[kept++] = found[i];
                    continue;
                }
                CHECK(found[i].label == SNUG_LABEL_ON_WORKSPACE);
                double area = surface_area(&found[i]), x0 = 1, x1 = -1, z0 = 1, z1 = -1;
                offered += area;
                for (uint32_t v = 0; v < found[i].vertex_count; v++) {
                    CHECK_NEAR(found[i].vertices[v][1], 0.76f, 1e-6);
                    x0 = fmin(x0, found[i].vertices[v][0]), x1 = fmax(x1, found[i].vertices[v][0]);
                    z0 = fmin(z0, found[i].vertices[v][2]), z1 = fmax(z1, found[i].vertices[v][2]);
                }
                double over = fmax(0.0, fmin(x1, 0.05) - fmax(x0, -0.05)) * fmax(0.0, fmin(z1, 0.05) - fmax(z0, -0.05));
                CHECK_MSG(over < 1e-6, "hole table: offer %u covers %g m^2 of the hole", i, over);
            }
            CHECK_MSG(fabs(offered - (0.96 - 0.01)) < 0.01 * 0.95, "hole table: %g m^2 offered of 0.95", offered);
            n = kept;
        }
        check_found(item_names[k], found, n, want, m);
        /* the checker takes every found surface */
        snug_status st = snug_mesh_set_surfaces(ctx, mesh, found, n);
        CHECK_MSG(st == SNUG_OK, "%s: set_surfaces refused a found surface: %s", item_names[k], snug_ctx_last_error(ctx));
        test_item_free(&it);
    }
    snug_ctx_destroy(ctx);
}

static void test_npm_meshes_offer_nothing_and_rest_at_their_lowest_point(void) {
    const char* names[] = {"bunny", "teapot", "dragon11k", "dragon48k"};
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_surface_find_def def = snug_default_surface_find_def();
    for (int i = 0; i < 4; i++) {
        test_mesh tm;
        if (!test_mesh_load(names[i], &tm)) continue;
        snug_mesh mesh = test_mesh_make(ctx, &tm, NULL);
        snug_mesh_info info;
        CHECK(snug_mesh_get_info(ctx, mesh, &info) == SNUG_OK);
        snug_surface found[MAX_FOUND];
        uint32_t n = find(ctx, mesh, &def, found);
        uint32_t offers = 0, bindings = 0;
        for (uint32_t s = 0; s < n; s++) {
            if (found[s].kind == SNUG_SURFACE_OFFER) {
                offers++;
                continue;
            }
            bindings++;
            CHECK(found[s].normal[0] == 0.0f && found[s].normal[1] == 1.0f && found[s].normal[2] == 0.0f);
            for (uint32_t v = 0; v < found[s].vertex_count; v++)
                CHECK_NEAR(found[s].vertices[v][1], info.aabb_min[1], 1e-6 * info.scale);
            /* a real support polygon, not a point: at least 1e-4 of the footprint box */
            double box = (double)(info.aabb_max[0] - info.aabb_min[0]) * (info.aabb_max[2] - info.aabb_min[2]);
            CHECK_MSG(surface_area(&found[s]) > 1e-4 * box, "%s: resting polygon of %g", names[i],
                      surface_area(&found[s]));
        }
        CHECK_MSG(offers == 0, "%s offers %u surfaces", names[i], offers);
        CHECK_MSG(bindings == 1, "%s has %u bindings", names[i], bindings);
        CHECK_MSG(snug_mesh_set_surfaces(ctx, mesh, found, n) == SNUG_OK, "%s: %s", names[i], snug_ctx_last_error(ctx));
        test_mesh_free(&tm);
    }
    snug_ctx_destroy(ctx);
}

/* Append mesh b to a (indices shifted). */
static void mesh_append(test_mesh* a, const test_mesh* b) {
    a->positions = realloc(a->positions, (size_t)(a->vertex_count + b->vertex_count) * 12);
    a->indices = realloc(a->indices, (size_t)(a->triangle_count + b->triangle_count) * 12);
    memcpy(a->positions + 3 * a->vertex_count, b->positions, (size_t)b->vertex_count * 12);
    for (uint32_t i = 0; i < 3 * b->triangle_count; i++) a->indices[3 * a->triangle_count + i] = b->indices[i] + a->vertex_count;
    a->vertex_count += b->vertex_count;
    a->triangle_count += b->triangle_count;
}

static bool offer_contains(const snug_surface* s, float x, float y, float z) {
    if (s->kind != SNUG_SURFACE_OFFER || fabsf(s->vertices[0][1] - y) > 1e-4f) return false;
    for (uint32_t i = 0; i < s->vertex_count; i++) { /* counter-clockwise seen from +y: (z, x) turns left */
        const float* a = s->vertices[i];
        const float* b = s->vertices[(i + 1) % s->vertex_count];
        if ((b[2] - a[2]) * (x - a[0]) - (b[0] - a[0]) * (z - a[2]) < 0.0f) return false;
    }
    return true;
}

/* A floor and a table in one mesh: the floor under the table top is offered only as storage with room above it,
 * apart from the open floor, never where a leg stands; with a clearance above the room, not at all. */
static void test_room_above_an_offer(void) {
    test_item table;
    test_item_build(TEST_TABLE, &table);
    test_mesh floor;
    test_mesh_box(1.2f, 0.05f, 0.8f, &floor);
    for (uint32_t v = 0; v < floor.vertex_count; v++) floor.positions[3 * v + 1] -= 0.05f; /* top at y = 0 */
    mesh_append(&floor, &table.mesh);
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh mesh = test_mesh_make(ctx, &floor, NULL);
    snug_surface_find_def def = snug_default_surface_find_def();
    snug_surface found[MAX_FOUND];
    uint32_t n = find(ctx, mesh, &def, found);
    bool top = false;
    for (uint32_t i = 0; i < n; i++)
        if (found[i].kind == SNUG_SURFACE_OFFER && fabsf(found[i].vertices[0][1] - 0.78f) < 1e-4f)
            top = top || fabs(surface_area(&found[i]) - 1.44) < 0.01 * 1.44;
    CHECK_MSG(top, "the table top is not offered");
    const float legs[4][2] = {{-0.74f, -0.39f}, {0.74f, -0.39f}, {-0.74f, 0.39f}, {0.74f, 0.39f}};
    uint32_t under = 0;
    for (uint32_t i = 0; i < n; i++) {
        for (int l = 0; l < 4; l++)
            CHECK_MSG(!offer_contains(&found[i], legs[l][0], 0, legs[l][1]), "offer %u stands on leg %d", i, l);
        if (offer_contains(&found[i], 0, 0, 0)) {
            under++;
            CHECK_MSG(found[i].label == SNUG_LABEL_ON_STORE, "the floor under the table is offered as label %u",
                      found[i].label);
        }
        if (found[i].label == SNUG_LABEL_ON_FLOOR && found[i].kind == SNUG_SURFACE_OFFER) /* open floor: not under */
            CHECK_MSG(!offer_contains(&found[i], 0, 0, 0.44f) && !offer_contains(&found[i], 0.79f, 0, 0),
                      "open floor offer %u reaches under the table", i);
    }
    CHECK_MSG(under == 1, "%u offers under the table", under);
    CHECK_MSG(snug_mesh_set_surfaces(ctx, mesh, found, n) == SNUG_OK, "%s", snug_ctx_last_error(ctx));
    /* more room asked than the 0.72 m under the top: nothing is offered there */
    def.clearance = 0.9f; /* of the 0.88 m height */
    n = find(ctx, mesh, &def, found);
    for (uint32_t i = 0; i < n; i++) CHECK_MSG(!offer_contains(&found[i], 0, 0, 0), "offer %u under the table", i);
    snug_ctx_destroy(ctx);
    test_mesh_free(&floor);
    test_item_free(&table);
}

static void rotate(const float q[4], const float v[3], float out[3]) {
    float u[3] = {q[0], q[1], q[2]}, w = q[3];
    float t[3] = {2 * (u[1] * v[2] - u[2] * v[1]), 2 * (u[2] * v[0] - u[0] * v[2]), 2 * (u[0] * v[1] - u[1] * v[0])};
    float c[3] = {u[1] * t[2] - u[2] * t[1], u[2] * t[0] - u[0] * t[2], u[0] * t[1] - u[1] * t[0]};
    for (int a = 0; a < 3; a++) out[a] = v[a] + w * t[a] + c[a];
}

/* The same furniture turned any way, with up and forward turned along: the same surfaces, turned. */
static void test_rotation_gives_the_same_surfaces(void) {
    rng r = {harness_seed() ^ 0x51ul};
    snug_ctx* ctx = snug_ctx_create(NULL);
    for (int k = 0; k < TEST_ITEM_KIND_COUNT; k++) {
        float q[4];
        rng_unit_quat(&r, q);
        test_item it;
        test_item_build((test_item_kind)k, &it);
        snug_surface_find_def def = snug_default_surface_find_def();
        snug_surface plain[MAX_FOUND], turned[MAX_FOUND];
        uint32_t n = find(ctx, test_mesh_make(ctx, &it.mesh, NULL), &def, plain);
        for (uint32_t v = 0; v < it.mesh.vertex_count; v++) {
            float p[3];
            rotate(q, it.mesh.positions + 3 * v, p);
            memcpy(it.mesh.positions + 3 * v, p, sizeof p);
        }
        const float up[3] = {0, 1, 0}, fwd[3] = {0, 0, 1};
        rotate(q, up, def.up);
        rotate(q, fwd, def.forward);
        uint32_t m = find(ctx, test_mesh_make(ctx, &it.mesh, NULL), &def, turned);
        expect want[MAX_FOUND];
        for (uint32_t i = 0; i < n; i++) {
            want[i] = expect_of(&plain[i]);
            rotate(q, plain[i].normal, want[i].normal);
            float c[3];
            rotate(q, want[i].centroid, c);
            memcpy(want[i].centroid, c, sizeof c);
        }
        char what[64];
        snprintf(what, sizeof what, "%s turned", item_names[k]);
        check_found(what, turned, m, want, n);
        test_item_free(&it);
    }
    snug_ctx_destroy(ctx);
}

/* Same bytes on every run and for every triangle order. */
static void test_deterministic_and_independent_of_triangle_order(void) {
    rng r = {harness_seed() ^ 0x7ul};
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_surface_find_def def = snug_default_surface_find_def();
    for (int k = 0; k <= TEST_ITEM_KIND_COUNT; k++) {
        test_mesh tm;
        if (k < TEST_ITEM_KIND_COUNT) {
            test_item it;
            test_item_build((test_item_kind)k, &it);
            tm = it.mesh;
        } else if (!test_mesh_load("dragon11k", &tm)) {
            break;
        }
        snug_surface a[MAX_FOUND], b[MAX_FOUND], c[MAX_FOUND];
        memset(a, 0, sizeof a), memset(b, 0, sizeof b), memset(c, 0, sizeof c);
        uint32_t na = find(ctx, test_mesh_make(ctx, &tm, NULL), &def, a);
        uint32_t nb = find(ctx, test_mesh_make(ctx, &tm, NULL), &def, b);
        for (uint32_t t = tm.triangle_count; t > 1; t--) { /* Fisher-Yates over whole triangles */
            uint32_t j = (uint32_t)(rng_next(&r) % t), tmp[3];
            memcpy(tmp, tm.indices + 3 * (t - 1), sizeof tmp);
            memcpy(tm.indices + 3 * (t - 1), tm.indices + 3 * j, sizeof tmp);
            memcpy(tm.indices + 3 * j, tmp, sizeof tmp);
        }
        uint32_t nc = find(ctx, test_mesh_make(ctx, &tm, NULL), &def, c);
        const char* what = k < TEST_ITEM_KIND_COUNT ? item_names[k] : "dragon11k";
        CHECK_MSG(na == nb && !memcmp(a, b, sizeof a), "%s: two runs differ", what);
        CHECK_MSG(na == nc && !memcmp(a, c, sizeof a), "%s: shuffled triangles give other surfaces", what);
        test_mesh_free(&tm);
    }
    snug_ctx_destroy(ctx);
}

/* Found surfaces work in the placement engine: the table stands on the floor, the lamp on the table. */
static void test_found_surfaces_bind(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_scene scene;
    CHECK(snug_scene_create(ctx, &scene) == SNUG_OK);
    snug_surface_find_def def = snug_default_surface_find_def();
    const test_item_kind kinds[3] = {TEST_FLOOR, TEST_TABLE, TEST_LAMP};
    const float heights[3] = {0, 0.01f, 0.8f};
    snug_body bodies[3];
    snug_surface found[3][MAX_FOUND];
    uint32_t counts[3];
    for (int i = 0; i < 3; i++) {
        test_item it;
        test_item_build(kinds[i], &it);
        snug_mesh mesh = test_mesh_make(ctx, &it.mesh, NULL);
        counts[i] = find(ctx, mesh, &def, found[i]);
        CHECK(snug_mesh_set_surfaces(ctx, mesh, found[i], counts[i]) == SNUG_OK);
        snug_body_def bd = snug_default_body_def();
        bd.mesh = mesh;
        bd.is_static = i == 0;
        bd.pose.p[1] = heights[i];
        bd.pose.p[0] = i == 2 ? 0.3f : 0.0f;
        CHECK(snug_body_create(ctx, scene, &bd, &bodies[i]) == SNUG_OK);
        test_item_free(&it);
    }
    /* the resting binding of each onto the first offer of the one below */
    for (int i = 1; i < 3; i++) {
        uint32_t binding = SNUG_NO_HIT, offer = SNUG_NO_HIT;
        for (uint32_t s = 0; s < counts[i]; s++)
            if (found[i][s].kind == SNUG_SURFACE_BINDING && found[i][s].normal[1] == 1.0f && binding == SNUG_NO_HIT) binding = s;
        for (uint32_t s = 0; s < counts[i - 1]; s++)
            if (found[i - 1][s].kind == SNUG_SURFACE_OFFER && offer == SNUG_NO_HIT) offer = s;
        snug_status st = snug_body_bind(ctx, scene, bodies[i], binding, bodies[i - 1], offer);
        CHECK_MSG(st == SNUG_OK, "bind %d: %s", i, snug_ctx_last_error(ctx));
    }
    snug_violation v[8];
    uint32_t total = 1;
    CHECK(snug_scene_check(ctx, scene, v, 8, &total) == SNUG_OK && total == 0);
    snug_pose lamp;
    CHECK(snug_body_get_pose(ctx, scene, bodies[2], &lamp) == SNUG_OK);
    CHECK_NEAR(lamp.p[1], 0.78f, 1e-4);
    snug_ctx_destroy(ctx);
}

/* Random assemblies of boxes, some turned about up, and random triangle soups: every call succeeds, every found
 * surface passes the checker, offers lie on the mesh and face up or sideways, the resting binding lies at the lowest
 * point, and a second call gives the same bytes. */
static void test_random_assemblies(void) {
    rng r = {harness_seed() ^ 0xb0c5ul};
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_surface_find_def def = snug_default_surface_find_def();
    int cases = 150 * harness_scale();
    for (int c = 0; c < cases; c++) {
        test_mesh tm = {0};
        if (c % 5 == 4) {
            test_mesh_soup(&r, 20 + (uint32_t)(rng_next(&r) % 200), 1.0f, 0.6f, &tm);
        } else {
            uint32_t boxes = 1 + (uint32_t)(rng_next(&r) % 8);
            for (uint32_t b = 0; b < boxes; b++) {
                test_mesh box;
                float h[3] = {rng_range(&r, 0.01f, 1.0f), rng_range(&r, 0.01f, 0.6f), rng_range(&r, 0.01f, 1.0f)};
                test_mesh_box(h[0], h[1], h[2], &box);
                float yaw = rng_float(&r) < 0.5f ? 0.0f : rng_range(&r, -3.2f, 3.2f), q[4] = {0, sinf(0.5f * yaw), 0, cosf(0.5f * yaw)};
                float at[3] = {rng_range(&r, -1, 1), rng_range(&r, 0, 1.5f), rng_range(&r, -1, 1)};
                for (uint32_t v = 0; v < box.vertex_count; v++) {
                    float p[3];
                    rotate(q, box.positions + 3 * v, p);
                    for (int a = 0; a < 3; a++) box.positions[3 * v + a] = p[a] + at[a];
                }
                mesh_append(&tm, &box);
                test_mesh_free(&box);
            }
        }
        snug_mesh mesh = test_mesh_make(ctx, &tm, NULL);
        snug_mesh_info info;
        CHECK(snug_mesh_get_info(ctx, mesh, &info) == SNUG_OK);
        snug_surface a[MAX_FOUND], b[MAX_FOUND];
        memset(a, 0, sizeof a), memset(b, 0, sizeof b);
        uint32_t n = find(ctx, mesh, &def, a), n2 = find(ctx, mesh, &def, b);
        CHECK_MSG(n == n2 && !memcmp(a, b, sizeof a), "case %d: two calls differ", c);
        CHECK_MSG(snug_mesh_set_surfaces(ctx, mesh, a, n) == SNUG_OK, "case %d: %s", c, snug_ctx_last_error(ctx));
        uint32_t resting = 0;
        for (uint32_t i = 0; i < n; i++) {
            double m[3];
            surface_centroid(&a[i], m);
            if (a[i].kind == SNUG_SURFACE_OFFER) {
                float p[3] = {(float)m[0], (float)m[1], (float)m[2]};
                snug_point_result pr;
                snug_pose identity = snug_pose_identity();
                CHECK(snug_mesh_closest_point(ctx, mesh, &identity, p, INFINITY, &pr) == SNUG_OK);
                CHECK_MSG(pr.distance <= 1e-3f * info.scale, "case %d: offer %u is %g off the mesh", c, i, (double)pr.distance);
                CHECK_MSG(a[i].normal[1] >= cosf(def.max_tilt) || fabsf(a[i].normal[1]) <= sinf(def.max_tilt),
                          "case %d: offer %u leans (normal y %g)", c, i, (double)a[i].normal[1]);
            } else if (a[i].normal[1] == 1.0f) {
                resting++;
                for (uint32_t v = 0; v < a[i].vertex_count; v++) CHECK_NEAR(a[i].vertices[v][1], info.aabb_min[1], 1e-6 * info.scale);
            }
        }
        CHECK_MSG(resting <= 1, "case %d: %u resting bindings", c, resting);
        snug_mesh_destroy(ctx, mesh);
        test_mesh_free(&tm);
        RETURN_IF_FAILED();
    }
    snug_ctx_destroy(ctx);
}

static void test_bad_input(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh mesh = test_item_make(ctx, TEST_TABLE);
    snug_surface_find_def def = snug_default_surface_find_def();
    snug_surface out[4];
    uint32_t total = 99;
    CHECK(snug_mesh_find_surfaces(NULL, mesh, &def, out, 4, &total) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_find_surfaces(ctx, mesh, NULL, out, 4, &total) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_find_surfaces(ctx, mesh, &def, out, 4, NULL) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_mesh_find_surfaces(ctx, mesh, &def, NULL, 4, &total) == SNUG_ERR_INVALID_ARGUMENT);
    snug_surface_find_def bad;
    memset(&bad, 0, sizeof bad);
    bad.up[1] = 1.0f;
    CHECK(snug_mesh_find_surfaces(ctx, mesh, &bad, out, 4, &total) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(strstr(snug_ctx_last_error(ctx), "snug_default_surface_find_def") != NULL);
    bad = def;
    bad.min_area = NAN;
    CHECK(snug_mesh_find_surfaces(ctx, mesh, &bad, out, 4, &total) == SNUG_ERR_NOT_FINITE);
    bad = def;
    bad.up[1] = 2.0f;
    CHECK(snug_mesh_find_surfaces(ctx, mesh, &bad, out, 4, &total) == SNUG_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.forward[1] = 1.0f, bad.forward[2] = 0.0f; /* along up */
    CHECK(snug_mesh_find_surfaces(ctx, mesh, &bad, out, 4, &total) == SNUG_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.flatness = 0.0f;
    CHECK(snug_mesh_find_surfaces(ctx, mesh, &bad, out, 4, &total) == SNUG_ERR_INVALID_ARGUMENT);
    /* capacity 0 reports the total and writes nothing; a short buffer gets the first ones */
    memset(out, 0xab, sizeof out);
    total = 0;
    CHECK(snug_mesh_find_surfaces(ctx, mesh, &def, NULL, 0, &total) == SNUG_ERR_BUFFER_TOO_SMALL && total == 2);
    CHECK(strstr(snug_ctx_last_error(ctx), "capacity 0") != NULL);
    snug_surface two[2];
    CHECK(snug_mesh_find_surfaces(ctx, mesh, &def, two, 2, &total) == SNUG_OK && total == 2);
    CHECK(snug_mesh_find_surfaces(ctx, mesh, &def, out, 1, &total) == SNUG_ERR_BUFFER_TOO_SMALL && total == 2);
    CHECK(!memcmp(&out[0], &two[0], sizeof two[0]));
    /* the call does not set the surfaces */
    CHECK(snug_mesh_get_surfaces(ctx, mesh, out, 4, &total) == SNUG_OK && total == 2);
    CHECK(out[0].label == SNUG_LABEL_ON_WORKSPACE); /* the authored ones are still there */
    /* a destroyed mesh */
    CHECK(snug_mesh_destroy(ctx, mesh) == SNUG_OK);
    CHECK(snug_mesh_find_surfaces(ctx, mesh, &def, out, 4, &total) == SNUG_ERR_STALE_HANDLE);
    snug_ctx_destroy(ctx);
}

/* Out of memory at every allocation of the call: a clear error, nothing leaked, the same answer afterwards. */
static void test_out_of_memory(void) {
    test_failing_alloc fa = {-1};
    snug_ctx_def cdef = test_failing_ctx_def(&fa);
    snug_ctx* ctx = snug_ctx_create(&cdef);
    snug_mesh mesh = test_item_make(ctx, TEST_DESK);
    snug_surface_find_def def = snug_default_surface_find_def();
    snug_surface want[MAX_FOUND], got[MAX_FOUND];
    memset(want, 0, sizeof want);
    uint32_t n = find(ctx, mesh, &def, want); /* builds the ray tree the mesh keeps */
    size_t base = snug_ctx_allocated_bytes(ctx);
    int failures = 0;
    for (int k = 0; k < 200; k++) {
        fa.countdown = k;
        uint32_t total = 0;
        memset(got, 0, sizeof got);
        snug_status st = snug_mesh_find_surfaces(ctx, mesh, &def, got, MAX_FOUND, &total);
        fa.countdown = -1;
        CHECK_MSG(snug_ctx_allocated_bytes(ctx) == base, "allocation %d leaked", k);
        if (st == SNUG_OK) {
            CHECK(total == n && !memcmp(got, want, sizeof got));
            break;
        }
        failures++;
        CHECK_MSG(st == SNUG_ERR_OUT_OF_MEMORY, "allocation %d: %s", k, snug_status_name(st));
        RETURN_IF_FAILED();
    }
    CHECK(failures > 5);
    snug_ctx_destroy(ctx);
}

int main(void) {
    RUN(test_furniture_matches_authored);
    RUN(test_npm_meshes_offer_nothing_and_rest_at_their_lowest_point);
    RUN(test_room_above_an_offer);
    RUN(test_rotation_gives_the_same_surfaces);
    RUN(test_deterministic_and_independent_of_triangle_order);
    RUN(test_found_surfaces_bind);
    RUN(test_random_assemblies);
    RUN(test_bad_input);
    RUN(test_out_of_memory);
    return harness_finish();
}
