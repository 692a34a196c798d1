/* A small furnished room for the placement fuzz targets and test_place's replays of their findings (header-only):
 * box furniture with authored surfaces and a few bodies bound on each other. Metres, y up, the default labels.
 *
 *   floor  4 x 0.1 x 4 slab, top at y = 0: offers onFloor                            (static)
 *   table  top 1.2 x 0.8 at 0.7..0.75 on four legs: top offers onWorkspace, feet bind onFloor
 *   block  0.3 cube: top offers onStore, bottom binds onStore (blocks stack)
 *   lamp   0.12 x 0.3 x 0.12: bottom binds onStore, offers nothing
 *
 * Polygons are counter-clockwise seen from the tip of their normal; a binding's normal points into its object. */
#ifndef SNUG_FUZZ_PLACE_ROOM_H
#define SNUG_FUZZ_PLACE_ROOM_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "snug.h"

enum { ROOM_FLOOR, ROOM_TABLE, ROOM_BLOCK, ROOM_LAMP, ROOM_KINDS };
#define ROOM_MAX_TRIS 60
#define ROOM_MAX_SURFACES 2

typedef struct room_kind {
    float pos[ROOM_MAX_TRIS * 9];
    uint32_t tris;
    snug_surface surfaces[ROOM_MAX_SURFACES];
    uint32_t surface_count;
} room_kind;

static inline void room_box(room_kind* k, float x0, float y0, float z0, float x1, float y1, float z1) {
    const float c[8][3] = {{x0, y0, z0}, {x1, y0, z0}, {x1, y1, z0}, {x0, y1, z0},
                           {x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}};
    static const uint8_t f[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                                     {3, 7, 6}, {3, 6, 2}, {0, 4, 7}, {0, 7, 3}, {1, 2, 6}, {1, 6, 5}};
    for (int t = 0; t < 12; t++, k->tris++)
        for (int v = 0; v < 3; v++) memcpy(k->pos + 9 * k->tris + 3 * v, c[f[t][v]], sizeof c[0]);
}

/* A horizontal rectangle at height y with normal +y. */
static inline void room_rect(room_kind* k, snug_surface_kind kind, snug_label label, float x0, float x1, float y, float z0,
                      float z1) {
    snug_surface* s = &k->surfaces[k->surface_count++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->label = label;
    s->normal[1] = 1.0f;
    s->vertex_count = 4;
    const float v[4][3] = {{x0, y, z0}, {x0, y, z1}, {x1, y, z1}, {x1, y, z0}};
    memcpy(s->vertices, v, sizeof v);
}

static inline void room_kind_build(int kind, room_kind* k) {
    memset(k, 0, sizeof *k);
    switch (kind) {
    case ROOM_FLOOR:
        room_box(k, -2, -0.1f, -2, 2, 0, 2);
        room_rect(k, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_FLOOR, -2, 2, 0, -2, 2);
        break;
    case ROOM_TABLE:
        room_box(k, -0.6f, 0.7f, -0.4f, 0.6f, 0.75f, 0.4f);
        for (int i = 0; i < 4; i++) {
            float x = i & 1 ? 0.5f : -0.6f, z = i & 2 ? 0.3f : -0.4f;
            room_box(k, x, 0, z, x + 0.1f, 0.7f, z + 0.1f);
        }
        room_rect(k, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_WORKSPACE, -0.6f, 0.6f, 0.75f, -0.4f, 0.4f);
        room_rect(k, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_FLOOR, -0.6f, 0.6f, 0, -0.4f, 0.4f);
        break;
    case ROOM_BLOCK:
        room_box(k, -0.15f, 0, -0.15f, 0.15f, 0.3f, 0.15f);
        room_rect(k, SNUG_SURFACE_OFFER, SNUG_LABEL_ON_STORE, -0.15f, 0.15f, 0.3f, -0.15f, 0.15f);
        room_rect(k, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_STORE, -0.15f, 0.15f, 0, -0.15f, 0.15f);
        break;
    default:
        room_box(k, -0.06f, 0, -0.06f, 0.06f, 0.3f, 0.06f);
        room_rect(k, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_STORE, -0.06f, 0.06f, 0, -0.06f, 0.06f);
        break;
    }
}

/* The mesh of a kind with its surfaces (0 when a call failed: the context's last error says which). */
static inline snug_mesh room_mesh(snug_ctx* ctx, const room_kind* k) {
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = k->pos;
    def.vertex_count = 3 * k->tris;
    def.triangle_count = k->tris;
    snug_mesh m = 0;
    if (snug_mesh_create(ctx, &def, &m) != SNUG_OK) return 0;
    if (snug_mesh_set_surfaces(ctx, m, k->surfaces, k->surface_count) == SNUG_OK) return m;
    snug_mesh_destroy(ctx, m);
    return 0;
}

/* Every kind's geometry into kinds and its mesh into mesh; false when a mesh failed (the context says why). */
static inline bool room_meshes(snug_ctx* ctx, room_kind kinds[ROOM_KINDS], snug_mesh mesh[ROOM_KINDS]) {
    for (int k = 0; k < ROOM_KINDS; k++) {
        room_kind_build(k, &kinds[k]);
        if (!(mesh[k] = room_mesh(ctx, &kinds[k]))) return false;
    }
    return true;
}

typedef struct room_body {
    int kind;
    float x, y, z, yaw;
    int on;          /* index of the body it is bound onto, -1: none */
} room_body;

/* floor; two tables; a block on each; a lamp on the first block; a block and a lamp standing free on the floor
 * (unbound, 1 cm above it); a lamp in the air */
static const room_body room_layout[] = {
    {ROOM_FLOOR, 0, 0, 0, 0, -1},       {ROOM_TABLE, -0.9f, 0, -0.8f, 0, 0}, {ROOM_TABLE, 0.9f, 0, 0.9f, 1.5707963f, 0},
    {ROOM_BLOCK, -0.9f, 0.75f, -0.8f, 0.3f, 1}, {ROOM_BLOCK, 0.8f, 0.75f, 0.9f, 0, 2}, {ROOM_LAMP, -0.9f, 1.05f, -0.8f, 0, 3},
    {ROOM_BLOCK, 1.2f, 0.01f, -1.2f, 0, -1}, {ROOM_LAMP, -1.5f, 0.01f, 1.5f, 0.5f, -1}, {ROOM_LAMP, 0, 1.5f, 0, 0, -1},
};
#define ROOM_BODIES (sizeof room_layout / sizeof *room_layout)

static inline snug_pose room_pose(float x, float y, float z, float yaw) {
    snug_pose p = {{0, sinf(0.5f * yaw), 0, cosf(0.5f * yaw)}, {x, y, z}};
    return p;
}

/* Bodies of the layout into `scene` (handles into out[ROOM_BODIES]); false when a call failed. */
static inline bool room_furnish(snug_ctx* ctx, snug_scene scene, const snug_mesh mesh[ROOM_KINDS],
                         const room_kind kinds[ROOM_KINDS], snug_body out[ROOM_BODIES]) {
    for (uint32_t i = 0; i < ROOM_BODIES; i++) {
        const room_body* b = &room_layout[i];
        snug_body_def def = snug_default_body_def();
        def.mesh = mesh[b->kind];
        def.is_static = b->kind == ROOM_FLOOR;
        def.pose = room_pose(b->x, b->y, b->z, b->yaw);
        if (snug_body_create(ctx, scene, &def, &out[i]) != SNUG_OK) return false;
        if (b->on < 0) continue;
        /* the binding is each kind's last surface, the offer its first */
        if (snug_body_bind(ctx, scene, out[i], kinds[b->kind].surface_count - 1, out[b->on], 0) != SNUG_OK) return false;
    }
    return true;
}

#endif
