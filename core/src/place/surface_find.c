/* Surfaces found from a mesh's triangles alone (snug.h: snug_mesh_find_surfaces; what is found and the label
 * rules are documented there).
 *
 * 1. Triangles facing up (within max_tilt) or sideways are grouped into patches: triangles connected through shared
 *    vertices within flatness of the plane of the patch's largest triangle. The patches of one plane (the tops of
 *    two boxes of a sofa seat) join the plane of the largest: a plane group, up to 64 of each kind, largest first.
 * 2. A group is probed on a grid over its smallest enclosing rectangle (64 cells along the longer side), so a
 *    rectangular region's edges fall on cell edges. One ray per cell along the group's normal, from just below the
 *    plane, tells whether the cell lies on the group's triangles (a member hit near the plane) and what the mesh
 *    has above it: nothing (open), a face entered beyond the clearance (covered: room under a shelf) or closer, or
 *    a face left (blocked: under a seat's back, inside a side panel). The same probe answers between the cells,
 *    so a cut between open and blocked cells is moved onto the geometry by bisection.
 * 3. Connected cells of one kind form a region; a region that fills its hull becomes the hull, any other is cut
 *    into rectangles, largest first. Pieces are clipped to the hull of the group's vertices and simplified by
 *    cutting corners, so they stay on the triangles' plane and inside the region.
 * 4. The bindings come from the vertices at the lowest point and at the back's extreme (convex hulls).
 * Every order that reaches the output is geometric (triangles are sorted by area, centroid and normal before
 * anything depends on their order), so the result does not depend on the triangle order. */
#include <stdlib.h>
#include <string.h>

#include "bvh/ray_tree.h"
#include "place/hull.h"
#include "place/place.h"
#include "query/traverse.h"
#include "base/trig.h"

#define FIND_GRID 64              /* probe cells along a region's longer side */
#define FIND_MAX_GROUPS 64        /* planes of each kind examined, largest first */
#define FIND_MAX_TRIES 256        /* patches of each kind that may try to start a plane */
#define FIND_MAX_PIECES 16        /* rectangles per region */
#define FIND_REFINE_STEPS 6       /* bisection steps of a cut between cell centres (to 1/64 of a cell) */
#define FIND_REFINE_SAMPLES 16    /* probes along a cut */
#define FIND_HULL_MAX 128         /* vertices of a group's hull kept for clipping (cut corners beyond) */
#define FIND_SEED_FRACTION 0.02   /* a patch below this part of the smallest region starts no plane */
#define FIND_JOIN_COS 0.985       /* patches of one plane face the same way (10 degrees); flatness decides */
#define FIND_FILL_TOLERANCE 0.03  /* a region covering this much of its hull is the hull (the cells' staircase) */
#define FIND_PIECE_FRACTION 0.25  /* a rectangle of a cut region is kept down to this part of the smallest region */
#define FIND_PANEL_RATIO 0.1      /* a panel is thinner than this part of its face's smaller side */
#define FIND_BACK_GAP 0.01        /* the back binding ends this part of the height above the lowest point */
#define FIND_CELL_USED 0xfffffffeu /* a cell of a region already emitted */

snug_surface_find_def snug_default_surface_find_def(void) {
    snug_surface_find_def d;
    memset(&d, 0, sizeof d);
    d.up[1] = 1.0f;
    d.forward[2] = 1.0f;
    d.max_tilt = (float)(5.0 * SNUG_PI / 180.0);
    d.flatness = 1e-3f;
    d.min_area = 0.1f;
    d.min_width = 0.05f;
    d.wall_fill = 0.75f;
    d.clearance = 0.05f;
    d.contact = 0.005f;
    d.big_size = 0.6f;
    d.internal_value = SNUG_DEF_MARK;
    return d;
}

enum { KIND_UP = 0, KIND_SIDE, KIND_COUNT };
enum { CELL_EMPTY = 0, CELL_BLOCKED, CELL_OPEN, CELL_COVERED };

typedef struct find_tri {
    uint32_t slot, kind, patch;
    double area;
    dvec n, c;                        /* unit normal, centroid */
} find_tri;

typedef struct find_patch {
    uint32_t kind, seed;               /* seed: its first (largest) triangle */
    uint32_t first, count;             /* its triangles: members[first .. first + count) */
    double area;
    bool taken;                        /* joined a plane (or tried to start one) */
} find_patch;

typedef struct find_group {
    uint32_t kind;
    dvec n, origin, a, b;             /* plane and in-plane basis, a x b = n */
    double area;
    double h0, h1;                     /* member vertex heights along up */
    dvec w;                           /* side groups: the level direction in the plane (up x n) */
    double w0, w1;                     /* and the members' extent along it */
    snug_pt2* hull;                    /* members' vertices in (a, b), convex, at most FIND_HULL_MAX */
    uint32_t hull_n;
    uint32_t first, count;             /* member triangles: group_tris[first .. first + count) */
    uint32_t seed;
} find_group;

typedef struct finder {
    snug_ctx* ctx;
    snug_mesh_data* m;
    snug_surface_find_def def;
    dvec up, e1, e2, fwd;             /* e1 x e2 = up */
    bool has_fwd, big;
    double lo, height, flat, cos_tilt, sin_tilt;
    snug_pt2* footprint;               /* hull of the mesh seen along up, in (e1, e2) */
    uint32_t footprint_n;
    double footprint_area, footprint_diam, min_region;
    find_tri* tris;
    uint32_t tri_n;
    uint32_t* members;                 /* the patches' triangles, patch by patch */
    find_patch* patches;
    uint32_t patch_n;
    find_group groups[KIND_COUNT * FIND_MAX_GROUPS];
    uint32_t group_n;
    uint32_t* group_tris;
    uint32_t* group_of_id;             /* per triangle id: its group, SNUG_NONE */
    uint32_t back_group;               /* the side group that is the back binding, SNUG_NONE */
    double back_band;                  /* contact band at the back */
    snug_pt2* pts;                     /* scratch points: a plane's corners, or two hulls of vertices */
    uint8_t* cells;                    /* the probe grid (FIND_GRID^2 cells): each cell's class, */
    uint32_t* comp;                    /* its region (or FIND_CELL_USED), */
    uint32_t* queue;                   /* and the regions' flood queue */
    snug_surface* out;
    uint32_t out_n, out_cap;
} finder;

static dvec vertex_of(const snug_mesh_data* m, uint32_t v) { return dv(m->positions + 3u * v); }

static snug_status out_of_memory(finder* f, const char* what) {
    return snug_fail(f->ctx, SNUG_ERR_OUT_OF_MEMORY, "find_surfaces: %s", what);
}

/* ------------------------------------------------------------------------------------------------ output */

static snug_surface* push_surface(finder* f) {
    if (f->out_n == f->out_cap) {
        uint32_t cap = f->out_cap ? 2 * f->out_cap : 16;
        snug_surface* grown = snug_realloc(f->ctx, f->out, (size_t)cap * sizeof *grown);
        if (!grown) return NULL;
        f->out = grown;
        f->out_cap = cap;
    }
    snug_surface* s = &f->out[f->out_n++];
    memset(s, 0, sizeof *s);
    return s;
}

/* A convex counter-clockwise polygon in the plane (origin, a, b) as a surface, unless simplification leaves none. */
static snug_status emit(finder* f, snug_surface_kind kind, snug_label label, dvec normal, dvec origin, dvec a,
                        dvec b, snug_pt2* poly, uint32_t n) {
    double r = 0.0;
    for (uint32_t i = 0; i < n; i++) r = fmax(r, hypot(poly[i].x - poly[0].x, poly[i].y - poly[0].y));
    /* the check refuses vertices within 1e-4 of the larger of mesh and polygon: keep edges well above that */
    n = snug_poly_simplify(poly, n, SNUG_SURFACE_MAX_VERTICES, 1e-3 * fmax(f->m->scale, r));
    if (n < 3 || !(snug_poly_area(poly, n) > 1e-6 * r * r)) return SNUG_OK;
    snug_surface* s = push_surface(f);
    if (!s) return out_of_memory(f, "the found surfaces");
    s->kind = kind;
    s->label = label;
    const dvec zero = {0, 0, 0}; /* adding +0 turns -0 into 0: no negative zeros in the output */
    dstore_f(dadd(normal, zero), s->normal);
    s->vertex_count = n;
    for (uint32_t i = 0; i < n; i++)
        dstore_f(dadd(dadd(origin, zero), dadd(dscale(a, poly[i].x), dscale(b, poly[i].y))), s->vertices[i]);
    return SNUG_OK;
}

/* ------------------------------------------------------------------------------------------------ the mesh */

static int tri_compare(const void* pa, const void* pb) {
    const find_tri *a = pa, *b = pb;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->area != b->area) return a->area > b->area ? -1 : 1;
    const double ka[6] = {a->c.x, a->c.y, a->c.z, a->n.x, a->n.y, a->n.z};
    const double kb[6] = {b->c.x, b->c.y, b->c.z, b->n.x, b->n.y, b->n.z};
    for (int i = 0; i < 6; i++)
        if (ka[i] != kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
}

static int u32_compare(const void* pa, const void* pb) {
    uint32_t a = *(const uint32_t*)pa, b = *(const uint32_t*)pb;
    return a < b ? -1 : a > b;
}

/* Height range, the footprint and the object's size class. */
static snug_status measure_mesh(finder* f) {
    const snug_mesh_data* m = f->m;
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        dvec p = vertex_of(m, v);
        double h = ddot(p, f->up);
        lo = fmin(lo, h), hi = fmax(hi, h);
        f->pts[v] = (snug_pt2){ddot(p, f->e1), ddot(p, f->e2)};
    }
    f->lo = lo;
    f->height = hi - lo;
    uint32_t n = snug_hull2_prefilter(f->pts, m->vertex_count);
    f->footprint = snug_alloc(f->ctx, ((size_t)n + 1) * sizeof *f->footprint);
    if (!f->footprint) return out_of_memory(f, "the footprint");
    f->footprint_n = snug_hull2(f->pts, n, f->footprint);
    f->footprint_area = f->footprint_n >= 3 ? snug_poly_area(f->footprint, f->footprint_n) : 0.0;
    double diam = 0.0;
    for (uint32_t i = 0; i < f->footprint_n; i++)
        for (uint32_t j = i + 1; j < f->footprint_n; j++)
            diam = fmax(diam, hypot(f->footprint[i].x - f->footprint[j].x, f->footprint[i].y - f->footprint[j].y));
    f->footprint_diam = diam;
    f->big = f->height >= f->def.big_size || sqrt(f->footprint_area) >= f->def.big_size;
    f->min_region = f->def.min_area * f->footprint_area;
    return SNUG_OK;
}

/* The footprint's width across a horizontal direction: with the height, the silhouette seen along it. */
static double footprint_width(const finder* f, dvec dir) {
    snug_pt2 d = {ddot(dir, f->e1), ddot(dir, f->e2)};
    double len = hypot(d.x, d.y);
    if (!(len > 0.0)) return 0.0;
    d.x /= len, d.y /= len;
    return snug_poly_extent(f->footprint, f->footprint_n, d);
}

/* Triangles facing up or sideways, in a geometric order. */
static void collect_triangles(finder* f) {
    const snug_mesh_data* m = f->m;
    double tiny = 1e-10 * (double)m->scale * m->scale;
    uint32_t n = 0;
    for (uint32_t slot = 0; slot < m->tri_count; slot++) {
        dvec v0 = dv(snug_mesh_vertex(m, slot, 0)), v1 = dv(snug_mesh_vertex(m, slot, 1));
        dvec v2 = dv(snug_mesh_vertex(m, slot, 2));
        dvec cr = dcross(dsub(v1, v0), dsub(v2, v0));
        /* the kind from squares first: most triangles of a curved mesh are neither, and need no root */
        double len2 = ddot(cr, cr), d = ddot(cr, f->up), d2 = d * d;
        uint32_t kind = d > 0.0 && d2 >= f->cos_tilt * f->cos_tilt * len2 ? KIND_UP
                        : d2 <= f->sin_tilt * f->sin_tilt * len2           ? KIND_SIDE
                                                                           : KIND_COUNT;
        double len = sqrt(len2);
        if (kind == KIND_COUNT || !(0.5 * len > tiny)) continue;
        dvec nrm = dscale(cr, 1.0 / len);
        f->tris[n++] = (find_tri){slot, kind, SNUG_NONE, 0.5 * len, nrm,
                                  dscale(dadd(dadd(v0, v1), v2), 1.0 / 3.0)};
    }
    f->tri_n = n;
    qsort(f->tris, n, sizeof *f->tris, tri_compare);
}

/* Do triangle t's vertices lie within flatness of the plane (n, p), facing its way? */
static bool tri_in_plane(const finder* f, const find_tri* t, dvec n, dvec p) {
    if (ddot(t->n, n) < FIND_JOIN_COS) return false;
    for (int k = 0; k < 3; k++)
        if (fabs(ddot(dsub(dv(snug_mesh_vertex(f->m, t->slot, k)), p), n)) > f->flat) return false;
    return true;
}

/* Patches: connected triangles of one kind in the plane of the largest, through shared vertices. */
static snug_status build_patches(finder* f) {
    const snug_mesh_data* m = f->m;
    uint32_t V = m->vertex_count, n = f->tri_n;
    uint32_t* start = snug_calloc(f->ctx, (size_t)V + 1, sizeof *start);
    uint32_t* list = snug_alloc(f->ctx, (size_t)3 * n * sizeof *list + 1);
    uint32_t* stack = snug_alloc(f->ctx, (size_t)n * sizeof *stack + 1);
    snug_status st = SNUG_OK;
    if (!start || !list || !stack) {
        st = out_of_memory(f, "patches");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) start[m->tris[3u * f->tris[i].slot + k] + 1]++;
    for (uint32_t v = 0; v < V; v++) start[v + 1] += start[v];
    for (uint32_t i = 0; i < n; i++) /* each vertex's triangles in ascending order */
        for (int k = 0; k < 3; k++) list[start[m->tris[3u * f->tris[i].slot + k]]++] = i;
    for (uint32_t v = V; v > 0; v--) start[v] = start[v - 1];
    start[0] = 0;
    uint32_t used = 0;
    for (uint32_t seed = 0; seed < n; seed++) {
        if (f->tris[seed].patch != SNUG_NONE) continue;
        find_patch* p = &f->patches[f->patch_n];
        *p = (find_patch){f->tris[seed].kind, seed, used, 0, 0.0, false};
        dvec pn = f->tris[seed].n, pp = f->tris[seed].c;
        uint32_t top = 0;
        f->tris[seed].patch = f->patch_n;
        stack[top++] = seed;
        f->members[used++] = seed;
        while (top) {
            const find_tri* t = &f->tris[stack[--top]];
            for (int k = 0; k < 3; k++) {
                uint32_t v = m->tris[3u * t->slot + k];
                for (uint32_t e = start[v]; e < start[v + 1]; e++) {
                    find_tri* u = &f->tris[list[e]];
                    if (u->patch != SNUG_NONE || u->kind != p->kind || !tri_in_plane(f, u, pn, pp)) continue;
                    u->patch = f->patch_n;
                    stack[top++] = list[e];
                    f->members[used++] = list[e];
                }
            }
        }
        p->count = used - p->first;
        qsort(f->members + p->first, p->count, sizeof *f->members, u32_compare);
        for (uint32_t i = 0; i < p->count; i++) p->area += f->tris[f->members[p->first + i]].area;
        f->patch_n++;
    }
done:
    snug_free(f->ctx, start);
    snug_free(f->ctx, list);
    snug_free(f->ctx, stack);
    return st;
}

typedef struct patch_key {
    double area;
    uint32_t seed, index;
} patch_key;

static int patch_compare(const void* pa, const void* pb) {
    const patch_key *a = pa, *b = pb;
    if (a->area != b->area) return a->area > b->area ? -1 : 1;
    return a->seed < b->seed ? -1 : a->seed > b->seed;
}

static int group_compare(const void* pa, const void* pb) {
    const find_group *a = pa, *b = pb;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->area != b->area) return a->area > b->area ? -1 : 1;
    return a->seed < b->seed ? -1 : a->seed > b->seed;
}

/* Fill a group's plane, extents and hull from its member triangles; false when its plane leaves its kind. */
static snug_status finish_group(finder* f, find_group* g, bool* kept) {
    *kept = false;
    dvec nsum = {0, 0, 0}, csum = {0, 0, 0};
    double area = 0.0;
    for (uint32_t i = 0; i < g->count; i++) {
        const find_tri* t = &f->tris[f->group_tris[g->first + i]];
        nsum = dmadd(nsum, t->n, t->area);
        csum = dmadd(csum, t->c, t->area);
        area += t->area;
    }
    g->n = dnorm(nsum);
    double d = ddot(g->n, f->up);
    if (g->kind == KIND_UP ? d < f->cos_tilt : fabs(d) > f->sin_tilt) return SNUG_OK;
    g->origin = dscale(csum, 1.0 / area);
    g->area = area;
    g->a = dperp(g->n);
    g->b = dcross(g->n, g->a);
    g->w = g->kind == KIND_SIDE ? dnorm(dcross(f->up, g->n)) : dxyz(0, 0, 0);
    g->h0 = g->w0 = INFINITY;
    g->h1 = g->w1 = -INFINITY;
    uint32_t np = 0;
    for (uint32_t i = 0; i < g->count; i++) {
        const find_tri* t = &f->tris[f->group_tris[g->first + i]];
        for (int k = 0; k < 3; k++) {
            dvec p = dv(snug_mesh_vertex(f->m, t->slot, k));
            double h = ddot(p, f->up), w = ddot(p, g->w);
            g->h0 = fmin(g->h0, h), g->h1 = fmax(g->h1, h);
            g->w0 = fmin(g->w0, w), g->w1 = fmax(g->w1, w);
            dvec q = dsub(p, g->origin);
            f->pts[np++] = (snug_pt2){ddot(q, g->a), ddot(q, g->b)};
        }
    }
    np = snug_hull2_prefilter(f->pts, np);
    g->hull = snug_alloc(f->ctx, ((size_t)np + 1) * sizeof *g->hull);
    if (!g->hull) return out_of_memory(f, "a plane's hull");
    g->hull_n = snug_hull2(f->pts, np, g->hull);
    g->hull_n = snug_poly_simplify(g->hull, g->hull_n, FIND_HULL_MAX, 1e-4 * f->m->scale);
    *kept = g->hull_n >= 3;
    return SNUG_OK;
}

/* Plane groups: each large patch (largest first) with every other untaken patch of its kind in its plane. */
static snug_status build_groups(finder* f) {
    patch_key* order = snug_alloc(f->ctx, (size_t)f->patch_n * sizeof *order + 1);
    if (!order) return out_of_memory(f, "patch order");
    for (uint32_t i = 0; i < f->patch_n; i++) order[i] = (patch_key){f->patches[i].area, f->patches[i].seed, i};
    qsort(order, f->patch_n, sizeof *order, patch_compare);
    double seed_min = FIND_SEED_FRACTION * f->min_region;
    uint32_t groups[KIND_COUNT] = {0, 0}, tries[KIND_COUNT] = {0, 0}, used = 0;
    snug_status st = SNUG_OK;
    for (uint32_t oi = 0; oi < f->patch_n && st == SNUG_OK; oi++) {
        find_patch* p = &f->patches[order[oi].index];
        if (p->taken || p->area < seed_min || groups[p->kind] == FIND_MAX_GROUPS || tries[p->kind] == FIND_MAX_TRIES)
            continue;
        tries[p->kind]++;
        const find_tri* s = &f->tris[p->seed];
        find_group* g = &f->groups[f->group_n];
        memset(g, 0, sizeof *g);
        g->kind = p->kind;
        g->first = used;
        g->seed = p->seed;
        for (uint32_t qi = 0; qi < f->patch_n; qi++) {
            find_patch* q = &f->patches[qi];
            if (q->taken || q->kind != p->kind || ddot(f->tris[q->seed].n, s->n) < FIND_JOIN_COS) continue;
            bool in = true;
            for (uint32_t i = 0; i < q->count && in; i++) in = tri_in_plane(f, &f->tris[f->members[q->first + i]], s->n, s->c);
            if (!in) continue;
            q->taken = true;
            for (uint32_t i = 0; i < q->count; i++) f->group_tris[used++] = f->members[q->first + i];
        }
        g->count = used - g->first;
        qsort(f->group_tris + g->first, g->count, sizeof *f->group_tris, u32_compare);
        bool kept = false;
        st = finish_group(f, g, &kept);
        if (kept && g->area >= f->min_region) {
            groups[g->kind]++;
            f->group_n++;
        } else {
            snug_free(f->ctx, g->hull);
            g->hull = NULL;
        }
    }
    snug_free(f->ctx, order);
    if (st != SNUG_OK) return st;
    qsort(f->groups, f->group_n, sizeof *f->groups, group_compare);
    return SNUG_OK;
}

/* ------------------------------------------------------------------------------------------------ probes */

typedef struct probe {
    const snug_ray_tree* tree;
    const uint32_t* group_of_id;
    uint32_t id_count, group;
    vec3 dir;
    float member_reach;                /* a member hit this near is the plane under the probe */
    float tie;
    bool member;
    float best;                        /* nearest hit of another part */
    bool best_leaves;                  /* that hit leaves a solid (the ray started inside one) */
} probe;

static void probe_visit(void* user, uint32_t lane, float t, float u, float v) {
    (void)u, (void)v;
    probe* pr = user;
    const snug_ray_packet* pk = &pr->tree->packets[lane >> 2];
    uint32_t l = lane & 3u, id = pk->id[l];
    if (id < pr->id_count && pr->group_of_id[id] == pr->group) {
        if (t <= pr->member_reach) pr->member = true;
        return;
    }
    float e1[3], e2[3];
    for (int c = 0; c < 3; c++) {
        e1[c] = pk->v[3 + c][l] - pk->v[c][l];
        e2[c] = pk->v[6 + c][l] - pk->v[c][l];
    }
    float nx = e1[1] * e2[2] - e1[2] * e2[1], ny = e1[2] * e2[0] - e1[0] * e2[2], nz = e1[0] * e2[1] - e1[1] * e2[0];
    bool leaves = nx * pr->dir[0] + ny * pr->dir[1] + nz * pr->dir[2] > 0.0f;
    if (t < pr->best - pr->tie) {
        pr->best = t;
        pr->best_leaves = leaves;
    } else if (t <= pr->best + pr->tie) {
        pr->best = fminf(pr->best, t);
        pr->best_leaves |= leaves;
    }
}

/* The probe grid of a group: rectangle coordinates (x along axis, y across) of the group's plane. */
typedef struct grid {
    const find_group* g;
    uint32_t group;
    snug_rect2 rect;
    uint32_t nx, ny;
    double cx, cy;                     /* cell sizes */
    double offset, clearance;          /* ray start below the plane; room needed above it */
    double region_min;                 /* smallest region offered */
} grid;

static snug_pt2 grid_to_plane(const grid* gr, double x, double y) {
    snug_pt2 a = gr->rect.axis;
    return (snug_pt2){x * a.x - y * a.y, x * a.y + y * a.x};
}

/* What the group's plane has at rectangle point (x, y): CELL_EMPTY off its triangles, else what lies above. */
static uint8_t probe_at(const finder* f, const grid* gr, double x, double y) {
    const find_group* g = gr->g;
    snug_pt2 q = grid_to_plane(gr, x, y);
    dvec p = dadd(g->origin, dadd(dscale(g->a, q.x), dscale(g->b, q.y)));
    p = dmadd(p, g->n, -gr->offset);
    float o[3], d[3];
    dstore_f(p, o);
    dstore_f(g->n, d);
    snug_ray_local r;
    snug_ray_local_init(&r, o, d, (float)(4.0 * f->m->scale + 4.0 * gr->offset));
    probe pr = {f->m->ray, f->group_of_id, f->m->tri_count, gr->group, {d[0], d[1], d[2]},
                (float)(2.0 * gr->offset), (float)(4.0 * f->m->tolerance), false, INFINITY, false};
    snug_query_stats stats;
    snug_ray_visit_all(f->m, &r, probe_visit, &pr, &stats);
    if (!pr.member) return CELL_EMPTY;
    if (pr.best == INFINITY) return CELL_OPEN;
    return pr.best_leaves || pr.best - gr->offset < gr->clearance ? CELL_BLOCKED : CELL_COVERED;
}

static double cell_x(const grid* gr, double i) { return gr->rect.x0 + i * gr->cx; }
static double cell_y(const grid* gr, double j) { return gr->rect.y0 + j * gr->cy; }

/* Move one side of a rectangle of cells onto the geometry: the cut lies between `in` (probes in class) and `out`
 * (a probe out of class) along x (vertical side) or y; the probes sample the side's extent [s0, s1). */
static double refine_side(const finder* f, const grid* gr, uint8_t klass, bool along_x, double in, double out,
                          uint32_t s0, uint32_t s1) {
    uint32_t cells = s1 - s0, samples = cells < FIND_REFINE_SAMPLES ? cells : FIND_REFINE_SAMPLES;
    for (int step = 0; step < FIND_REFINE_STEPS; step++) {
        double mid = 0.5 * (in + out);
        bool all = true;
        for (uint32_t k = 0; k < samples && all; k++) {
            double s = s0 + (k + 0.5) * cells / samples;
            all = along_x ? probe_at(f, gr, mid, cell_y(gr, s)) == klass : probe_at(f, gr, cell_x(gr, s), mid) == klass;
        }
        if (all) in = mid;
        else out = mid;
    }
    return in;
}

/* ------------------------------------------------------------------------------------------------ labels */

/* Does a vertical region rise from the offer's edge like a seat's back? */
static bool has_back(const finder* f, const find_group* offer, const snug_pt2* poly, uint32_t n, double rise) {
    double size = sqrt(fabs(snug_poly_area(poly, n)));
    double h = ddot(offer->origin, f->up);
    for (uint32_t gi = 0; gi < f->group_n; gi++) {
        const find_group* s = &f->groups[gi];
        if (s->kind != KIND_SIDE || s->h0 > h + 0.1 * rise || s->h1 < h + 0.5 * rise) continue;
        double near = INFINITY, lo = INFINITY, hi = -INFINITY;
        for (uint32_t i = 0; i < n; i++) {
            dvec p = dadd(offer->origin, dadd(dscale(offer->a, poly[i].x), dscale(offer->b, poly[i].y)));
            near = fmin(near, ddot(dsub(p, s->origin), s->n));
            double w = ddot(p, s->w);
            lo = fmin(lo, w), hi = fmax(hi, w);
        }
        double overlap = fmin(hi, s->w1) - fmax(lo, s->w0);
        if (fabs(near) <= 0.05 * size + f->flat && overlap >= 0.5 * (hi - lo)) return true;
    }
    return false;
}

/* The label of an offer region (its hull poly, in plane coordinates, and its area): the rules of snug.h. */
static snug_label offer_label(const finder* f, const find_group* g, uint8_t klass, const snug_pt2* poly, uint32_t n,
                              double area) {
    double rise = ddot(g->origin, f->up) - f->lo;
    if (klass == CELL_COVERED) return SNUG_LABEL_ON_STORE;
    if (f->big && rise <= 0.1 * f->footprint_diam) return SNUG_LABEL_ON_FLOOR;
    if (rise <= 0.6 * f->height && rise <= f->def.big_size && has_back(f, g, poly, n, rise)) return SNUG_LABEL_ON_SEAT;
    if (f->big && rise >= 0.5 * f->height && area >= 0.5 * f->footprint_area &&
        snug_poly_min_width(poly, n) >= 0.5 * f->def.big_size)
        return SNUG_LABEL_ON_WORKSPACE;
    return SNUG_LABEL_ON_STORE;
}

/* Is a wall piece tall and wide enough to hang things on? */
static bool wall_sized(const finder* f, const find_group* g, const snug_pt2* poly, uint32_t n) {
    double h0 = INFINITY, h1 = -INFINITY, w0 = INFINITY, w1 = -INFINITY;
    for (uint32_t i = 0; i < n; i++) {
        dvec p = dadd(dscale(g->a, poly[i].x), dscale(g->b, poly[i].y));
        double h = ddot(p, f->up), w = ddot(p, g->w);
        h0 = fmin(h0, h), h1 = fmax(h1, h), w0 = fmin(w0, w), w1 = fmax(w1, w);
    }
    return h1 - h0 >= f->def.big_size && w1 - w0 >= 0.5 * f->def.big_size;
}

/* ------------------------------------------------------------------------------------------------ regions */

/* A convex piece of a region (group plane coordinates): clipped to the group's hull and emitted if it can hold
 * something. */
static snug_status emit_piece(finder* f, const grid* gr, snug_label label, const snug_pt2* poly, uint32_t n) {
    const find_group* g = gr->g;
    snug_pt2 clipped[SNUG_POLY_CLIP_MAX];
    uint32_t m = snug_poly_clip(poly, n, g->hull, g->hull_n, clipped);
    if (m < 3 || snug_poly_area(clipped, m) < FIND_PIECE_FRACTION * gr->region_min) return SNUG_OK;
    if (g->kind == KIND_SIDE ? !wall_sized(f, g, clipped, m) : snug_poly_min_width(clipped, m) < f->def.min_width)
        return SNUG_OK;
    return emit(f, SNUG_SURFACE_OFFER, label, g->n, g->origin, g->a, g->b, clipped, m);
}

/* Is a rectangle's side a cut between classes: every cell beside it (column or row `at`, over [s0, s1)) of another
 * class? Beside cells of its own class (another piece of the region) a side stays on the cell edge, so pieces meet
 * without overlapping. */
static bool cut_beside(const finder* f, const grid* gr, uint8_t klass, bool along_x, uint32_t at, uint32_t s0,
                       uint32_t s1) {
    for (uint32_t s = s0; s < s1; s++)
        if (f->cells[along_x ? s * gr->nx + at : at * gr->nx + s] == klass) return false;
    return true;
}

/* A rectangle of cells [i0, i1) x [j0, j1), its sides at cuts moved onto the geometry. */
static snug_status emit_rect(finder* f, const grid* gr, uint8_t klass, snug_label label, uint32_t i0, uint32_t i1,
                             uint32_t j0, uint32_t j1) {
    double x0 = cell_x(gr, i0), x1 = cell_x(gr, i1), y0 = cell_y(gr, j0), y1 = cell_y(gr, j1);
    if (i1 < gr->nx && cut_beside(f, gr, klass, true, i1, j0, j1))
        x1 = refine_side(f, gr, klass, true, cell_x(gr, i1 - 0.5), cell_x(gr, i1 + 0.5), j0, j1);
    if (i0 > 0 && cut_beside(f, gr, klass, true, i0 - 1, j0, j1))
        x0 = refine_side(f, gr, klass, true, cell_x(gr, i0 + 0.5), cell_x(gr, i0 - 0.5), j0, j1);
    if (j1 < gr->ny && cut_beside(f, gr, klass, false, j1, i0, i1))
        y1 = refine_side(f, gr, klass, false, cell_y(gr, j1 - 0.5), cell_y(gr, j1 + 0.5), i0, i1);
    if (j0 > 0 && cut_beside(f, gr, klass, false, j0 - 1, i0, i1))
        y0 = refine_side(f, gr, klass, false, cell_y(gr, j0 + 0.5), cell_y(gr, j0 - 0.5), i0, i1);
    snug_pt2 poly[4] = {grid_to_plane(gr, x0, y0), grid_to_plane(gr, x1, y0), grid_to_plane(gr, x1, y1),
                        grid_to_plane(gr, x0, y1)};
    return emit_piece(f, gr, label, poly, 4);
}

/* The largest rectangle of cells of component c (over its box), by the histogram of runs per row; false if none. */
static bool largest_rect(finder* f, const grid* gr, uint32_t c, uint32_t i0, uint32_t i1, uint32_t j0, uint32_t j1,
                         uint32_t r[4]) {
    uint32_t bw = i1 - i0, heights[FIND_GRID], stack_i[FIND_GRID + 1], stack_h[FIND_GRID + 1];
    uint32_t best = 0;
    memset(heights, 0, sizeof heights);
    for (uint32_t j = j0; j < j1; j++) {
        for (uint32_t i = 0; i < bw; i++) heights[i] = f->comp[j * gr->nx + i0 + i] == c ? heights[i] + 1 : 0;
        uint32_t top = 0;
        for (uint32_t i = 0; i <= bw; i++) {
            uint32_t h = i < bw ? heights[i] : 0, from = i;
            while (top && stack_h[top - 1] >= h) {
                top--;
                uint32_t area = stack_h[top] * (i - stack_i[top]);
                if (area > best) {
                    best = area;
                    r[0] = i0 + stack_i[top], r[1] = i0 + i, r[2] = j + 1 - stack_h[top], r[3] = j + 1;
                }
                from = stack_i[top];
            }
            if (h) stack_i[top] = from, stack_h[top] = h, top++;
        }
    }
    return best > 0;
}

/* Does the hull (rectangle coordinates) of component c cover a cell outside it that lies on the mesh (a leg, a
 * neighbour), or an empty cell more than a cell and a half inside (a hole)? Empty cells nearer its edge are the
 * staircase of a slanted or round edge, which the hull may cover. */
static bool hull_covers_other(const finder* f, const grid* gr, uint32_t c, const snug_pt2* hull, uint32_t nh,
                              uint32_t i0, uint32_t i1, uint32_t j0, uint32_t j1) {
    for (uint32_t j = j0; j < j1; j++)
        for (uint32_t i = i0; i < i1; i++) {
            uint32_t k = j * gr->nx + i;
            if (f->comp[k] == c) continue;
            double x = cell_x(gr, i + 0.5), y = cell_y(gr, j + 0.5);
            double depth = f->cells[k] == CELL_EMPTY ? 1.5 * fmax(gr->cx, gr->cy) : 0.25 * fmin(gr->cx, gr->cy);
            bool inside = true;
            for (uint32_t e = 0; e < nh && inside; e++) {
                snug_pt2 a = hull[e], b = hull[e + 1 == nh ? 0 : e + 1];
                double len = hypot(b.x - a.x, b.y - a.y);
                inside = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x) > depth * len;
            }
            if (inside) return true;
        }
    return false;
}

/* One region (component c, `count` cells in box [i0, i1) x [j0, j1)) as convex pieces with the region's label. */
static snug_status emit_region(finder* f, const grid* gr, uint8_t klass, uint32_t c, uint32_t count, uint32_t i0,
                               uint32_t i1, uint32_t j0, uint32_t j1) {
    /* the hull of the cells: the outer corners of each row's first and last cell */
    snug_pt2 pts[4 * FIND_GRID], hull[4 * FIND_GRID + 1], plane[4 * FIND_GRID + 1];
    uint32_t np = 0;
    for (uint32_t j = j0; j < j1; j++) {
        uint32_t first = SNUG_NONE, last = 0;
        for (uint32_t i = i0; i < i1; i++)
            if (f->comp[j * gr->nx + i] == c) first = first == SNUG_NONE ? i : first, last = i;
        if (first == SNUG_NONE) continue;
        pts[np++] = (snug_pt2){cell_x(gr, first), cell_y(gr, j)};
        pts[np++] = (snug_pt2){cell_x(gr, first), cell_y(gr, j + 1)};
        pts[np++] = (snug_pt2){cell_x(gr, last + 1), cell_y(gr, j)};
        pts[np++] = (snug_pt2){cell_x(gr, last + 1), cell_y(gr, j + 1)};
    }
    uint32_t nh = snug_hull2(pts, np, hull);
    if (nh < 3) return SNUG_OK;
    nh = snug_poly_simplify(hull, nh, SNUG_POLY_CLIP_MAX - FIND_HULL_MAX, 0.0);
    for (uint32_t i = 0; i < nh; i++) plane[i] = grid_to_plane(gr, hull[i].x, hull[i].y);
    double area = count * gr->cx * gr->cy;
    snug_label label = gr->g->kind == KIND_SIDE ? SNUG_LABEL_ON_WALL : offer_label(f, gr->g, klass, plane, nh, area);
    if (count == (i1 - i0) * (j1 - j0)) return emit_rect(f, gr, klass, label, i0, i1, j0, j1);
    if (area >= (1.0 - FIND_FILL_TOLERANCE) * snug_poly_area(hull, nh) &&
        !hull_covers_other(f, gr, c, hull, nh, i0, i1, j0, j1))
        return emit_piece(f, gr, label, plane, nh);
    /* a hole, a notch or a neighbour: rectangles, largest first, while they are worth an offer */
    for (int piece = 0; piece < FIND_MAX_PIECES; piece++) {
        uint32_t r[4];
        if (!largest_rect(f, gr, c, i0, i1, j0, j1, r)) break;
        if ((r[1] - r[0]) * (r[3] - r[2]) * gr->cx * gr->cy < FIND_PIECE_FRACTION * gr->region_min) break;
        snug_status st = emit_rect(f, gr, klass, label, r[0], r[1], r[2], r[3]);
        if (st != SNUG_OK) return st;
        for (uint32_t j = r[2]; j < r[3]; j++)
            for (uint32_t i = r[0]; i < r[1]; i++) f->comp[j * gr->nx + i] = FIND_CELL_USED;
    }
    return SNUG_OK;
}

/* Probe a group's grid, find its regions of the wanted classes and emit them. */
static snug_status group_offers(finder* f, uint32_t gi, double region_min) {
    const find_group* g = &f->groups[gi];
    grid gr = {.g = g, .group = gi, .region_min = region_min};
    /* the grid's frame turns with the mesh: its x axis nearest forward (up on a wall) among equal rectangles */
    dvec prefer = g->kind == KIND_SIDE ? f->up : f->has_fwd ? f->fwd : f->e1;
    snug_pt2 pd = {ddot(prefer, g->a), ddot(prefer, g->b)};
    double pl = hypot(pd.x, pd.y);
    pd = pl > 1e-9 ? (snug_pt2){pd.x / pl, pd.y / pl} : (snug_pt2){1, 0};
    snug_poly_min_rect(g->hull, g->hull_n, pd, &gr.rect);
    double w = gr.rect.x1 - gr.rect.x0, h = gr.rect.y1 - gr.rect.y0, longer = fmax(w, h);
    if (!(longer > 0.0)) return SNUG_OK;
    gr.nx = (uint32_t)fmax(1.0, fmin(FIND_GRID, round(FIND_GRID * w / longer)));
    gr.ny = (uint32_t)fmax(1.0, fmin(FIND_GRID, round(FIND_GRID * h / longer)));
    gr.cx = w / gr.nx, gr.cy = h / gr.ny;
    gr.offset = 2.0 * f->flat + 8.0 * f->m->tolerance;
    gr.clearance = f->def.clearance * f->height;
    uint32_t cells = gr.nx * gr.ny;
    for (uint32_t k = 0; k < cells; k++)
        f->cells[k] = probe_at(f, &gr, cell_x(&gr, k % gr.nx + 0.5), cell_y(&gr, k / gr.nx + 0.5));
    /* regions: 4-connected cells of one class, in scan order */
    for (uint32_t k = 0; k < cells; k++) f->comp[k] = SNUG_NONE;
    uint32_t comps = 0;
    for (uint32_t k0 = 0; k0 < cells; k0++) {
        uint8_t klass = f->cells[k0];
        bool wanted = klass == CELL_OPEN || (klass == CELL_COVERED && g->kind == KIND_UP);
        if (!wanted || f->comp[k0] != SNUG_NONE) continue;
        uint32_t c = comps++, head = 0, tail = 0;
        uint32_t i0 = gr.nx, i1 = 0, j0 = gr.ny, j1 = 0;
        f->comp[k0] = c;
        f->queue[tail++] = k0;
        while (head < tail) {
            uint32_t k = f->queue[head++], i = k % gr.nx, j = k / gr.nx;
            i0 = i < i0 ? i : i0, i1 = i + 1 > i1 ? i + 1 : i1;
            j0 = j < j0 ? j : j0, j1 = j + 1 > j1 ? j + 1 : j1;
            uint32_t next[4] = {i > 0 ? k - 1 : SNUG_NONE, i + 1 < gr.nx ? k + 1 : SNUG_NONE,
                                j > 0 ? k - gr.nx : SNUG_NONE, j + 1 < gr.ny ? k + gr.nx : SNUG_NONE};
            for (int e = 0; e < 4; e++)
                if (next[e] != SNUG_NONE && f->comp[next[e]] == SNUG_NONE && f->cells[next[e]] == klass) {
                    f->comp[next[e]] = c;
                    f->queue[tail++] = next[e];
                }
        }
        if (tail * gr.cx * gr.cy < region_min) continue;
        snug_status st = emit_region(f, &gr, klass, c, tail, i0, i1, j0, j1);
        if (st != SNUG_OK) return st;
    }
    return SNUG_OK;
}

/* ------------------------------------------------------------------------------------------------ bindings */

/* Hull of the vertices within `band` of the extreme along dir (the contact), projected onto the extreme's plane,
 * in the basis (a, b) of that plane (a x b = -dir); the band doubles (five times at most) until the hull has area. */
static uint32_t contact_hull(finder* f, dvec dir, dvec a, dvec b, double band, double min_area, double* extreme,
                             snug_pt2* hull) {
    const snug_mesh_data* m = f->m;
    double e = -INFINITY;
    for (uint32_t v = 0; v < m->vertex_count; v++) e = fmax(e, ddot(vertex_of(m, v), dir));
    *extreme = e;
    for (int grow = 0; grow < 6; grow++, band *= 2.0) {
        uint32_t n = 0;
        for (uint32_t v = 0; v < m->vertex_count; v++) {
            dvec p = vertex_of(m, v);
            if (ddot(p, dir) >= e - band) f->pts[n++] = (snug_pt2){ddot(p, a), ddot(p, b)};
        }
        n = snug_hull2_prefilter(f->pts, n);
        uint32_t nh = snug_hull2(f->pts, n, hull);
        if (nh >= 3 && snug_poly_area(hull, nh) > min_area) return nh;
    }
    return 0;
}

static snug_status resting_binding(finder* f) {
    double extreme;
    dvec down = dscale(f->up, -1.0);
    snug_pt2* hull = f->pts + f->m->vertex_count + 1;
    uint32_t n = contact_hull(f, down, f->e1, f->e2, f->def.contact * f->height, 1e-4 * f->footprint_area, &extreme,
                              hull);
    if (n < 3) return SNUG_OK;
    return emit(f, SNUG_SURFACE_BINDING, f->big ? SNUG_LABEL_ON_FLOOR : SNUG_LABEL_ON_STORE, f->up,
                dscale(f->up, -extreme), f->e1, f->e2, hull, n);
}

/* The side group that is the back: at the extreme towards -forward, covering wall_fill of the silhouette, and not
 * the face of a big panel (a wall slab, whose faces are wall offers). */
static void find_back(finder* f) {
    f->back_group = SNUG_NONE;
    if (!f->has_fwd) return;
    dvec back = dscale(f->fwd, -1.0);
    double e = -INFINITY, e0 = INFINITY;
    for (uint32_t v = 0; v < f->m->vertex_count; v++) {
        double d = ddot(vertex_of(f->m, v), back);
        e = fmax(e, d), e0 = fmin(e0, d);
    }
    double depth = e - e0, width = footprint_width(f, dcross(f->up, back));
    f->back_band = f->def.contact * depth;
    for (uint32_t gi = 0; gi < f->group_n; gi++) {
        const find_group* g = &f->groups[gi];
        if (g->kind != KIND_SIDE || ddot(g->n, back) < f->cos_tilt) continue;
        if (fabs(ddot(g->origin, back) - e) > 2.0 * f->flat + f->def.contact * depth) continue;
        /* a flat object (a book lying down) has no back; an object standing on it does */
        if (g->area < f->def.wall_fill * f->height * width || f->height < 0.5 * depth) return;
        bool panel = depth <= FIND_PANEL_RATIO * fmin(f->height, width);
        if (!(f->big && panel)) f->back_group = gi;
        return;
    }
}

static snug_status back_binding(finder* f) {
    if (f->back_group == SNUG_NONE) return SNUG_OK;
    dvec back = dscale(f->fwd, -1.0);
    dvec a = dcross(f->up, f->fwd), b = f->up; /* a x b = forward: counter-clockwise seen from the binding normal */
    double extreme;
    snug_pt2* hull = f->pts + f->m->vertex_count + 1;
    uint32_t n = contact_hull(f, back, a, b, f->back_band, 1e-4 * f->min_region, &extreme, hull);
    if (n < 3) return SNUG_OK;
    /* end a little above the lowest point, so the back and the resting binding share no edge (IConS §7.3) */
    double x0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, cut_y = f->lo + FIND_BACK_GAP * f->height;
    for (uint32_t i = 0; i < n; i++) x0 = fmin(x0, hull[i].x), x1 = fmax(x1, hull[i].x), y1 = fmax(y1, hull[i].y);
    snug_pt2 cut[4] = {{x0 - 1.0, cut_y}, {x1 + 1.0, cut_y}, {x1 + 1.0, y1 + 1.0}, {x0 - 1.0, y1 + 1.0}};
    snug_pt2 kept[SNUG_POLY_CLIP_MAX];
    if (n + 4 > SNUG_POLY_CLIP_MAX) n = snug_poly_simplify(hull, n, SNUG_POLY_CLIP_MAX - 4, 0.0);
    n = snug_poly_clip(hull, n, cut, 4, kept);
    return emit(f, SNUG_SURFACE_BINDING, SNUG_LABEL_ON_WALL, f->fwd, dscale(back, extreme), a, b, kept, n);
}

/* ------------------------------------------------------------------------------------------------ entry */

static snug_status check_def(snug_ctx* ctx, const snug_surface_find_def* def) {
    if (!def) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "find_surfaces: def is NULL");
    if (snug_def_check_mark(ctx, def->internal_value, "surface_find_def")) return SNUG_ERR_INVALID_ARGUMENT;
    const float* fields[] = {&def->max_tilt, &def->flatness, &def->min_area, &def->min_width, &def->wall_fill,
                             &def->clearance, &def->contact, &def->big_size};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!isfinite(*fields[i])) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "surface find def has NaN or Inf");
    dvec up = dv(def->up), fwd = dv(def->forward);
    if (!dfinite(up) || !dfinite(fwd)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "surface find def has NaN or Inf");
    if (fabs(dlen(up) - 1.0) > 1e-3)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "surface find def: up is not a unit vector");
    if (dlen(fwd) != 0.0 && (fabs(dlen(fwd) - 1.0) > 1e-3 || fabs(ddot(fwd, up)) > 1e-3))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                         "surface find def: forward is neither zero nor a unit vector perpendicular to up");
    if (!(def->max_tilt > 0.0f && def->max_tilt <= 0.5f) || !(def->flatness > 0.0f && def->flatness <= 0.05f) ||
        !(def->min_area > 0.0f && def->min_area <= 1.0f) || !(def->min_width >= 0.0f) ||
        !(def->wall_fill > 0.0f && def->wall_fill <= 1.0f) ||
        !(def->clearance >= 0.0f && def->clearance <= 1.0f) || !(def->contact > 0.0f && def->contact <= 0.1f) ||
        !(def->big_size > 0.0f))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                         "surface find def out of range: max tilt (0, 0.5], flatness (0, 0.05], min area (0, 1], "
                         "min width >= 0, wall fill (0, 1], clearance [0, 1], contact (0, 0.1], big size > 0");
    return SNUG_OK;
}

static void finder_free(finder* f) {
    snug_ctx* ctx = f->ctx;
    for (uint32_t i = 0; i < f->group_n; i++) snug_free(ctx, f->groups[i].hull);
    snug_free(ctx, f->footprint);
    snug_free(ctx, f->tris);
    snug_free(ctx, f->members);
    snug_free(ctx, f->patches);
    snug_free(ctx, f->group_tris);
    snug_free(ctx, f->group_of_id);
    snug_free(ctx, f->pts);
    snug_free(ctx, f->cells);
    snug_free(ctx, f->comp);
    snug_free(ctx, f->queue);
    snug_free(ctx, f->out);
}

static snug_status find(finder* f) {
    snug_mesh_data* m = f->m;
    snug_status st;
    size_t T = m->tri_count, V = m->vertex_count, G = (size_t)FIND_GRID * FIND_GRID;
    if (!(f->tris = snug_alloc(f->ctx, T * sizeof *f->tris))) return out_of_memory(f, "triangles");
    collect_triangles(f);
    size_t n = f->tri_n, points = 3 * n > 2 * V + 2 ? 3 * n : 2 * V + 2; /* a plane's corners; two vertex hulls */
    f->members = snug_alloc(f->ctx, n * sizeof *f->members + 1);
    f->patches = snug_alloc(f->ctx, n * sizeof *f->patches + 1);
    f->group_tris = snug_alloc(f->ctx, n * sizeof *f->group_tris + 1);
    f->pts = snug_alloc(f->ctx, points * sizeof *f->pts);
    if (!f->members || !f->patches || !f->group_tris || !f->pts) return out_of_memory(f, "planes");
    if ((st = measure_mesh(f)) || (st = build_patches(f)) || (st = build_groups(f))) return st;
    find_back(f);
    if (f->group_n) { /* the probes: rays (the mesh keeps its ray tree), a grid, triangle ids to planes */
        f->group_of_id = snug_alloc(f->ctx, T * sizeof *f->group_of_id);
        f->cells = snug_alloc(f->ctx, G);
        f->comp = snug_alloc(f->ctx, G * sizeof *f->comp);
        f->queue = snug_alloc(f->ctx, G * sizeof *f->queue);
        if (!f->group_of_id || !f->cells || !f->comp || !f->queue) return out_of_memory(f, "probes");
        if ((st = snug_ray_tree_prepare(f->ctx, m))) return st;
        for (size_t i = 0; i < T; i++) f->group_of_id[i] = SNUG_NONE;
        for (uint32_t gi = 0; gi < f->group_n; gi++) {
            const find_group* g = &f->groups[gi];
            for (uint32_t i = 0; i < g->count; i++) {
                uint32_t id = m->tri_ids[f->tris[f->group_tris[g->first + i]].slot];
                if (id < T) f->group_of_id[id] = gi;
            }
        }
    }
    for (uint32_t gi = 0; gi < f->group_n && st == SNUG_OK; gi++) {
        const find_group* g = &f->groups[gi];
        /* a plane none of whose pieces could hold anything is not probed */
        if (g->kind == KIND_UP) {
            if (snug_poly_min_width(g->hull, g->hull_n) >= f->def.min_width) st = group_offers(f, gi, f->min_region);
        } else if (f->big && gi != f->back_group && wall_sized(f, g, g->hull, g->hull_n)) {
            double silhouette = f->height * footprint_width(f, g->w);
            if (g->area >= f->def.wall_fill * silhouette) st = group_offers(f, gi, f->def.min_area * silhouette);
        }
    }
    if (st == SNUG_OK) st = resting_binding(f);
    if (st == SNUG_OK) st = back_binding(f);
    return st;
}

snug_status snug_mesh_find_surfaces(snug_ctx* ctx, snug_mesh mesh, const snug_surface_find_def* def,
                                    snug_surface* out, uint32_t capacity, uint32_t* total) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    snug_mesh_data* m = snug_mesh_lookup(ctx, mesh);
    if (!m) return SNUG_ERR_STALE_HANDLE;
    if (!total || (capacity && !out))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "find_surfaces needs total (and out when capacity > 0)");
    *total = 0;
    snug_status st = check_def(ctx, def);
    if (st != SNUG_OK) return st;
    finder f;
    memset(&f, 0, sizeof f);
    f.ctx = ctx;
    f.m = m;
    f.def = *def;
    f.up = dnorm(dv(def->up));
    f.e1 = dperp(f.up);
    f.e2 = dcross(f.up, f.e1);
    f.has_fwd = dlen(dv(def->forward)) > 0.0;
    f.fwd = f.has_fwd ? dnorm(dreject(dv(def->forward), f.up)) : dxyz(0, 0, 0);
    f.flat = (double)def->flatness * m->scale;
    snug_sin_cos(def->max_tilt, &f.sin_tilt, &f.cos_tilt);
    st = find(&f);
    if (st == SNUG_OK) {
        for (uint32_t i = 0; i < f.out_n && i < capacity; i++) out[i] = f.out[i];
        *total = f.out_n;
        st = f.out_n > capacity
                 ? snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "find_surfaces: %u surfaces, capacity %u", f.out_n, capacity)
                 : snug_succeed(ctx);
    }
    finder_free(&f);
    return st;
}
