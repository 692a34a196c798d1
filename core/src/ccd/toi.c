/* Mesh-vs-mesh time of impact.
 *
 * Dynamic mode: a best-first search over (node of A, node of B, time interval) triples ordered by the interval's
 * start. Each triple is kept only while the swept AABBs of both nodes over its interval overlap; it is refined by
 * splitting the larger node, or the interval when the motion over it dominates the node sizes, until two leaves
 * over a short interval remain. Their triangle pairs (again filtered by swept boxes) run the dynamic vertex-face,
 * face-vertex and edge-edge tests of ccd.c. The first contact found bounds the search: triples that start later
 * are dropped, so the work concentrates where the meshes first meet (this is what makes the 48k dragon pair fast).
 * When both meshes only translate, node boxes move rigidly on straight lines: each triple's interval is clipped
 * exactly to where its boxes meet (no time halving), and each triangle pair to where its boxes and its face-normal
 * projections meet, so bodies resting near each other stop costing a fine-grained time search (room step).
 * Mixed mode runs the same traversal at the end pose only and refines the overlapping triangle pairs dynamically
 * (seed 000 Fig. 5.24); static mode stops at the first overlapping pair. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "ccd/variants.h"
#include "geom/tri.h"

#define TOI_MIN_DU (1.0 / 65536.0)
/* Work a search may spend per node and triangle of both meshes, counting visited triples, triangle pairs tested
 * and the root searches of their feature pairs (up to 15 per triangle pair, each up to 1 / sampling step samples
 * and max_iterations steps over a motion: the costly unit, ~6 us, so counting triangle pairs alone let a search on
 * two 48-triangle tori run ~1 s). Measured searches spend up to 45 per node and triangle (two boxes in the test
 * suites), 0.7 on the benchmark's dragon pair; pathological ones spend without end: point-like (degenerate)
 * triangles near the pivot of a rotation sweep along a copy of their mesh stay within reach for the whole motion,
 * so every pair halves its interval down to TOI_MIN_DU and none is ever cleared (111 s for 192 such triangles).
 * A search that reaches the budget stops with a conservative answer: contact at the earliest time it had not
 * cleared (toi_cut). */
#define TOI_WORK_PER_ELEMENT 128u

typedef struct toi_entry {
    float u0, u1;
    uint32_t na, nb;
} toi_entry;

typedef enum leaf_mode { LEAF_DYNAMIC, LEAF_MIXED, LEAF_STATIC } leaf_mode;

typedef struct toi_search {
    snug_ctx* ctx;
    const snug_toi_input* in;
    const snug_mesh_data* m[2];
    snug_ccd_params prm;
    double pivot[2][3];
    double reach[2];            /* largest distance of the mesh's box from its pivot */
    double tie;                 /* contacts this close in u count as simultaneous (to pick the better feature):
                                 * the time to close 32 tolerances at the fastest point; a grazing vertex enters
                                 * its face's band, or a near-parallel edge pair its contact, several tolerances
                                 * before the blocking face is reached */
    leaf_mode mode;
    /* Both meshes translate only (dynamic mode): node boxes move rigidly along straight lines, so the interval in
     * which two of them are within eps follows exactly from their offset and relative velocity (slab clipping) */
    bool linear;
    double lin_R[2][9];         /* the constant rotations */
    double lin_t[2][3], lin_v[2][3]; /* world translation at u = 0 and its change per unit u */
    double rel_R[9], rel_t[3], rel_v[3]; /* B's frame in A's: rotation, translation at u = 0, its change per unit u */
    bool at_start;              /* this segment starts at global t = 0 */
    /* best so far, in segment-local u */
    double best_u;              /* earliest contact */
    double feat_u;              /* the reported feature's own contact time, within tie of best_u */
    snug_feature_kind kind;
    uint32_t slot_a, slot_b;
    int fa, fb;
    double point[3], normal[3];
    double approach;            /* normal . relative velocity / speed at the best contact: -1 head-on, 0 grazing */
    bool overlap_seen;          /* mixed mode: some pair overlaps at the end pose */
    uint32_t overlap_a, overlap_b;
    /* heap of triples in ctx scratch */
    uint32_t count, cap;
    uint64_t visits;
    uint64_t work, work_budget;
    bool cut;                   /* the budget ran out: nothing before cut_u is cleared */
    double cut_u;
    snug_ccd_frames fr;         /* last: its transform cache (18 KB) is not cleared with the rest */
} toi_search;

/* ------------------------------------------------------------------------------------------- heap */

static inline bool entry_less(const toi_entry* a, const toi_entry* b) {
    if (a->u0 != b->u0) return a->u0 < b->u0;
    return a->u1 - a->u0 < b->u1 - b->u0; /* finer intervals first: they finish sooner */
}

static snug_status heap_push(toi_search* s, toi_entry e) {
    if (s->count == s->cap) {
        size_t want = (size_t)(s->cap ? s->cap * 2u : 1024u) * sizeof(toi_entry);
        snug_status st = snug_buffer_reserve(s->ctx, &s->ctx->scratch, want, (size_t)s->count * sizeof(toi_entry));
        if (st) return st;
        s->cap = (uint32_t)(s->ctx->scratch.size / sizeof(toi_entry));
    }
    toi_entry* h = (toi_entry*)s->ctx->scratch.data;
    uint32_t i = s->count++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!entry_less(&e, &h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
    return SNUG_OK;
}

static toi_entry heap_pop(toi_search* s) {
    toi_entry* h = (toi_entry*)s->ctx->scratch.data;
    toi_entry top = h[0], last = h[--s->count];
    uint32_t i = 0, n = s->count;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && entry_less(&h[c + 1], &h[c])) c++;
        if (!entry_less(&h[c], &last)) break;
        h[i] = h[c];
        i = c;
    }
    if (n) h[i] = last;
    return top;
}

/* ------------------------------------------------------------------------------------------- boxes */

typedef struct wbox {
    float lo[3], hi[3];
} wbox;

static void node_box(toi_search* s, int k, uint32_t node, double u0, double u1, wbox* out) {
    const snug_xform *f0[2], *f1[2];
    snug_ccd_frames_at(&s->fr, u0, NULL, f0);
    snug_xform a = *f0[k]; /* copied: the next lookup may reuse the same cache slot */
    snug_ccd_frames_at(&s->fr, u1, NULL, f1);
    const snug_xform* b = f1[k];
    const snug_node* n = &s->m[k]->bvh.nodes[node];
    double bulge = snug_lerp_slerp_bulge(s->fr.m[k], u1 - u0);
    snug_swept_box(&a, b, bulge, s->fr.m[k]->spread, s->pivot[k], n->min, n->max, out->lo, out->hi);
}

static bool boxes_overlap(toi_search* s, const wbox* a, const wbox* b) {
    s->ctx->stats.bv_tests[SNUG_BV_AABB][SNUG_BV_AABB]++;
    float e = (float)s->in->eps;
    for (int i = 0; i < 3; i++)
        if (a->lo[i] > b->hi[i] + e || b->lo[i] > a->hi[i] + e) return false;
    return true;
}

static float box_size(const snug_node* n) {
    float m = 0.0f;
    for (int i = 0; i < 3; i++) m = n->max[i] - n->min[i] > m ? n->max[i] - n->min[i] : m;
    return m;
}

/* How far the points of mesh k move over [u0, u1]: pivot displacement plus the arc length bound. */
static double motion_extent(toi_search* s, int k, double du) {
    const snug_lerp_slerp* m = s->fr.m[k];
    double d = 0.0;
    for (int i = 0; i < 3; i++) d += (m->p1[i] - m->p0[i]) * (m->p1[i] - m->p0[i]);
    return (sqrt(d) + snug_lerp_slerp_angle(m) * s->reach[k]) * du;
}

/* ------------------------------------------------------------------------------------------- leaves */

static void tri_world(toi_search* s, int k, uint32_t slot, double u, double w[3][3]) {
    const snug_dxform* x[2];
    snug_ccd_frames_at(&s->fr, u, x, NULL);
    for (int c = 0; c < 3; c++) snug_dxform_point(x[k], snug_mesh_vertex(s->m[k], slot, c), w[c]);
}

/* Swept boxes of a triangle over [u0, u1]: one per vertex (its chord padded by its own bulge) and their union. */
typedef struct swept_tri {
    wbox v[3];
    wbox all;
} swept_tri;

static void tri_box(toi_search* s, int k, uint32_t slot, double u0, double u1, swept_tri* out) {
    double w0[3][3], w1[3][3];
    tri_world(s, k, slot, u0, w0);
    tri_world(s, k, slot, u1, w1);
    double bulge = snug_lerp_slerp_bulge(s->fr.m[k], u1 - u0);
    for (int i = 0; i < 3; i++) out->all.lo[i] = INFINITY, out->all.hi[i] = -INFINITY;
    for (int c = 0; c < 3; c++) {
        double pad = 0.0;
        if (bulge > 0.0) {
            const float* v = snug_mesh_vertex(s->m[k], slot, c);
            double r = 0.0;
            for (int i = 0; i < 3; i++) r += (v[i] - s->pivot[k][i]) * (v[i] - s->pivot[k][i]);
            pad = bulge * sqrt(r);
        }
        for (int i = 0; i < 3; i++) {
            double lo = w0[c][i] < w1[c][i] ? w0[c][i] : w1[c][i], hi = w0[c][i] < w1[c][i] ? w1[c][i] : w0[c][i];
            double slack = pad * s->fr.m[k]->spread[i] + 1e-7 * (fabs(lo) + fabs(hi));
            out->v[c].lo[i] = (float)(lo - slack);
            out->v[c].hi[i] = (float)(hi + slack);
            if (out->v[c].lo[i] < out->all.lo[i]) out->all.lo[i] = out->v[c].lo[i];
            if (out->v[c].hi[i] > out->all.hi[i]) out->all.hi[i] = out->v[c].hi[i];
        }
    }
}

static inline bool wbox_apart(const wbox* a, const wbox* b, float e) {
    for (int i = 0; i < 3; i++)
        if (a->lo[i] > b->hi[i] + e || b->lo[i] > a->hi[i] + e) return true;
    return false;
}

static inline void wbox_union(const wbox* a, const wbox* b, wbox* out) {
    for (int i = 0; i < 3; i++) {
        out->lo[i] = a->lo[i] < b->lo[i] ? a->lo[i] : b->lo[i];
        out->hi[i] = a->hi[i] > b->hi[i] ? a->hi[i] : b->hi[i];
    }
}

static void record(toi_search* s, double u, snug_feature_kind kind, uint32_t sa, uint32_t sb, int fa, int fb,
                   const double point[3], const double normal[3]) {
    s->best_u = s->feat_u = u;
    s->kind = kind;
    s->slot_a = sa, s->slot_b = sb;
    s->fa = fa, s->fb = fb;
    memcpy(s->point, point, sizeof s->point);
    memcpy(s->normal, normal, sizeof s->normal);
    s->approach = 0.0;
}

/* How squarely the contact normal opposes the motion at the contact point: normal . (velocity of A's point minus
 * B's) / |that velocity|, -1 for a head-on contact, about 0 for a face the motion slides along. */
static double contact_approach(toi_search* s, const snug_ccd_hit* h) {
    double du = 1e-6, v[3] = {0, 0, 0};
    for (int k = 0; k < 2; k++) {
        snug_dxform x0, x1;
        snug_lerp_slerp_at(s->fr.m[k], h->u, &x0);
        snug_lerp_slerp_at(s->fr.m[k], h->u + du, &x1);
        double b[3], w[3];
        for (int c = 0; c < 3; c++) /* the body point under the contact: R^T (point - t) */
            b[c] = x0.R[3 * c] * (h->point[0] - x0.t[0]) + x0.R[3 * c + 1] * (h->point[1] - x0.t[1]) +
                   x0.R[3 * c + 2] * (h->point[2] - x0.t[2]);
        for (int r = 0; r < 3; r++) w[r] = x1.R[r] * b[0] + x1.R[3 + r] * b[1] + x1.R[6 + r] * b[2] + x1.t[r];
        for (int r = 0; r < 3; r++) v[r] += (k ? -1.0 : 1.0) * (w[r] - h->point[r]);
    }
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(len > 0.0)) return 0.0;
    return (v[0] * h->normal[0] + v[1] * h->normal[1] + v[2] * h->normal[2]) / len;
}

/* Of two contacts within the tie window, is the new one (time u, approach ap, kind) the better report? A
 * vertex-face contact beats an edge-edge one: an edge-edge normal of the same contact may be skew to the faces
 * (and its side is ill-defined where the edges already touch). Of two vertex-face contacts, the one whose normal
 * opposes the motion more: a vertex touching the rim of a face parallel to the motion touches that grazing face as
 * early as (or, entering its inside band, a few tolerances earlier than) the blocking face, and a slide along the
 * grazing normal would stop dead. Otherwise the earlier one. */
static bool better_simultaneous(const toi_search* s, double u, double ap, snug_feature_kind kind) {
    bool ee = kind == SNUG_FEATURE_EDGE_EDGE, best_ee = s->kind == SNUG_FEATURE_EDGE_EDGE;
    if (ee != best_ee) return best_ee;
    if (!ee && ap < s->approach - 0.01) return true;
    if (!ee && ap > s->approach + 0.01) return false;
    return u < s->feat_u;
}

/* A triangle-pair contact on the face of b: the point is a's centroid, the normal b's face normal facing a. */
static void face_face_contact(const double a[3][3], const double b[3][3], double point[3], double normal[3]) {
    double e0[3], e1[3], c[3];
    for (int i = 0; i < 3; i++) {
        e0[i] = b[1][i] - b[0][i], e1[i] = b[2][i] - b[0][i];
        point[i] = (a[0][i] + a[1][i] + a[2][i]) / 3.0;
        c[i] = point[i] - (b[0][i] + b[1][i] + b[2][i]) / 3.0;
    }
    normal[0] = e0[1] * e1[2] - e0[2] * e1[1];
    normal[1] = e0[2] * e1[0] - e0[0] * e1[2];
    normal[2] = e0[0] * e1[1] - e0[1] * e1[0];
    double n = sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    double side = normal[0] * c[0] + normal[1] * c[1] + normal[2] * c[2];
    double k = n > 0.0 ? (side < 0.0 ? -1.0 : 1.0) / n : 0.0;
    for (int i = 0; i < 3; i++) normal[i] *= k;
    if (n == 0.0) normal[2] = 1.0;
}

static bool tris_overlap_at(toi_search* s, uint32_t sa, uint32_t sb, double u, double wa[3][3], double wb[3][3]) {
    tri_world(s, 0, sa, u, wa);
    tri_world(s, 1, sb, u, wb);
    float fa[3][3], fb[3][3];
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++) fa[c][i] = (float)wa[c][i], fb[c][i] = (float)wb[c][i];
    s->ctx->stats.primitive_tests++;
    return snug_tri_tri_overlap(fa[0], fa[1], fa[2], fb[0], fb[1], fb[2], (float)s->in->eps);
}

/* Sweep semantics: does the contact at u turn into a crossing shortly after? */
static bool contact_blocks(toi_search* s, uint32_t sa, uint32_t sb, const snug_ccd_hit* h) {
    double rate = h->rate > 1e-300 ? h->rate : 1e-300;
    double up = h->u + 4.0 * s->in->eps / rate;
    if (!(up <= 1.0)) up = 1.0;
    double wa[3][3], wb[3][3];
    tri_world(s, 0, sa, up, wa);
    tri_world(s, 1, sb, up, wb);
    return snug_tri_tri_crossing(wa, wb, s->in->eps);
}

/* Sweep semantics: a contact that does not turn into a crossing lets the sweep slide on past it; the caller is told
 * that the search let one pass (grazed). */
static bool slides_past(toi_search* s, uint32_t sa, uint32_t sb, const snug_ccd_hit* h) {
    if (!s->in->slide || contact_blocks(s, sa, sb, h)) return false;
    if (s->in->grazed) *s->in->grazed = true;
    return true;
}

/* All feature pairs of triangle slots sa (A) and sb (B) over [u0, u1]; with swept boxes (ta, tb) a feature pair
 * whose swept vertex / edge / face boxes are apart is skipped before any root finding. */
static void tri_pair_dynamic(toi_search* s, uint32_t sa, uint32_t sb, double u0, double u1, const swept_tri* ta,
                             const swept_tri* tb, uint32_t mask) {
    s->work++;
    float e = (float)s->in->eps;
    const float* va[3] = {snug_mesh_vertex(s->m[0], sa, 0), snug_mesh_vertex(s->m[0], sa, 1), snug_mesh_vertex(s->m[0], sa, 2)};
    const float* vb[3] = {snug_mesh_vertex(s->m[1], sb, 0), snug_mesh_vertex(s->m[1], sb, 1), snug_mesh_vertex(s->m[1], sb, 2)};
    snug_ccd_feature f;
    snug_ccd_hit h;
    for (int k = 0; k < 15; k++) {
        if (!(mask >> k & 1u)) continue;
        int ia, ib;
        snug_feature_kind kind;
        if (k < 3) {
            f.kind = SNUG_CCD_VF, ia = k, ib = -1, kind = SNUG_FEATURE_VERTEX_FACE;
            f.p[0] = va[k], f.p[1] = vb[0], f.p[2] = vb[1], f.p[3] = vb[2];
            if (ta && wbox_apart(&ta->v[k], &tb->all, e)) continue;
        } else if (k < 6) {
            f.kind = SNUG_CCD_FV, ia = -1, ib = k - 3, kind = SNUG_FEATURE_FACE_VERTEX;
            f.p[0] = vb[k - 3], f.p[1] = va[0], f.p[2] = va[1], f.p[3] = va[2];
            if (ta && wbox_apart(&tb->v[k - 3], &ta->all, e)) continue;
        } else {
            f.kind = SNUG_CCD_EE, ia = (k - 6) / 3, ib = (k - 6) % 3, kind = SNUG_FEATURE_EDGE_EDGE;
            f.p[0] = va[ia], f.p[1] = va[(ia + 1) % 3], f.p[2] = vb[ib], f.p[3] = vb[(ib + 1) % 3];
            if (ta) {
                wbox ea, eb;
                wbox_union(&ta->v[ia], &ta->v[(ia + 1) % 3], &ea);
                wbox_union(&tb->v[ib], &tb->v[(ib + 1) % 3], &eb);
                if (wbox_apart(&ea, &eb, e)) continue;
            }
        }
        double hi = u1 < s->best_u + s->tie ? u1 : s->best_u + s->tie;
        if (hi < u0) return;
        s->ctx->stats.primitive_tests++;
        s->work++;
        if (!snug_ccd_feature_toi(&s->fr, &f, &s->prm, u0, hi, &h)) continue;
        /* the reported feature stays a candidate while it touches within the tie window of the earliest contact */
        double first = h.u < s->best_u ? h.u : s->best_u, ap = contact_approach(s, &h);
        if (s->best_u <= 1.0 && s->feat_u <= first + s->tie && !better_simultaneous(s, h.u, ap, kind)) {
            if (h.u >= s->best_u || slides_past(s, sa, sb, &h)) continue;
            s->best_u = h.u; /* an earlier touch of the same contact sets the time, the better feature stays */
            continue;
        }
        if (slides_past(s, sa, sb, &h)) continue;
        record(s, first, kind, sa, sb, ia, ib, h.point, h.normal);
        s->feat_u = h.u;
        s->approach = ap;
    }
}

#define ALL_FEATURES 0x7fffu /* bits 0-2: VF, 3-5: FV, 6-14: EE (3 * edge of A + edge of B) */

/* Seed 000 Fig. 5.24: the features to refine for a pair overlapping at the end pose. For every edge of one triangle
 * that pierces the other: its two vertices against that face, and the edge against the face's three edges.
 * Touching or coplanar pairs without a piercing edge refine every feature. */
static uint32_t mixed_features(const double wa[3][3], const double wb[3][3]) {
    float fa[3][3], fb[3][3];
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++) fa[c][i] = (float)wa[c][i], fb[c][i] = (float)wb[c][i];
    uint32_t mask = 0;
    for (int side = 0; side < 2; side++) {
        float(*e)[3] = side ? fb : fa;
        float(*f)[3] = side ? fa : fb;
        for (int k = 0; k < 3; k++) {
            const float* p = e[k];
            const float* q = e[(k + 1) % 3];
            float d[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]}, t, u, v;
            if (!snug_ray_tri(p, d, 1.0f, f[0], f[1], f[2], &t, &u, &v)) continue;
            int k1 = (k + 1) % 3;
            if (!side) {
                mask |= 1u << k | 1u << k1;                       /* A's vertices against face B */
                for (int j = 0; j < 3; j++) mask |= 1u << (6 + 3 * k + j); /* edge k of A against B's edges */
            } else {
                mask |= 1u << (3 + k) | 1u << (3 + k1);           /* B's vertices against face A */
                for (int j = 0; j < 3; j++) mask |= 1u << (6 + 3 * j + k); /* A's edges against edge k of B */
            }
        }
    }
    return mask ? mask : ALL_FEATURES;
}

/* Linear motion: clip [*u0, *u1] to where two world boxes at u = 0 (centres c, half extents e; [0] moves with A,
 * [1] with B) are within eps; false if they never are. Per axis the centre offset d0 + u w must stay within the
 * summed half extents. */
/* One axis: keep the u in [*lo, *hi] where |d0 + u w| <= reach; false when none is left. */
static bool clip_axis(double d0, double w, double reach, double* lo, double* hi) {
    if (fabs(w) * (*hi - *lo) <= 1e-12 * reach) return fabs(d0 + 0.5 * (*lo + *hi) * w) <= reach;
    double a = (-reach - d0) / w, b = (reach - d0) / w;
    if (a > b) { double x = a; a = b; b = x; }
    if (a > *lo) *lo = a;
    if (b < *hi) *hi = b;
    return *lo <= *hi;
}

static bool linear_clip(const toi_search* s, double c[2][3], double e[2][3], double* u0, double* u1) {
    double lo = *u0, hi = *u1;
    for (int r = 0; r < 3; r++) {
        double w = s->lin_v[0][r] - s->lin_v[1][r];
        /* eps of the box test, plus float rounding of the boxes and of the leaf tests' transforms */
        double reach = e[0][r] + e[1][r] + s->in->eps +
                       1e-6 * (fabs(c[0][r]) + fabs(c[1][r]) + e[0][r] + e[1][r] + fabs(w));
        if (!clip_axis(c[0][r] - c[1][r], w, reach, &lo, &hi)) return false;
    }
    *u0 = lo, *u1 = hi;
    return true;
}

/* A triangle of mesh k at u = 0 under linear motion: world vertices and box, unit face normal (zero when
 * degenerate), the span of its own vertices along it and the relative motion (A's minus B's) along it. */
typedef struct linear_tri {
    double w[3][3];
    double c[3], e[3];
    double n[3], lo, hi, v;
    bool has_n;
} linear_tri;

static void linear_tri_at(const toi_search* s, int k, uint32_t slot, linear_tri* t) {
    const double* R = s->lin_R[k];
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int v = 0; v < 3; v++) {
        const float* p = snug_mesh_vertex(s->m[k], slot, v);
        for (int r = 0; r < 3; r++) {
            double w = t->w[v][r] = R[r] * p[0] + R[3 + r] * p[1] + R[6 + r] * p[2] + s->lin_t[k][r];
            lo[r] = w < lo[r] ? w : lo[r];
            hi[r] = w > hi[r] ? w : hi[r];
        }
    }
    for (int r = 0; r < 3; r++) t->c[r] = 0.5 * (lo[r] + hi[r]), t->e[r] = 0.5 * (hi[r] - lo[r]);
    t->has_n = false;
}

/* The face normal part of a linear_tri, on first use (most pairs are parted by their boxes). */
static void linear_tri_normal(const toi_search* s, linear_tri* t) {
    if (t->has_n) return;
    t->has_n = true;
    double e0[3], e1[3], *n = t->n;
    for (int i = 0; i < 3; i++) e0[i] = t->w[1][i] - t->w[0][i], e1[i] = t->w[2][i] - t->w[0][i];
    n[0] = e0[1] * e1[2] - e0[2] * e1[1], n[1] = e0[2] * e1[0] - e0[0] * e1[2], n[2] = e0[0] * e1[1] - e0[1] * e1[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), k1 = len > 0.0 ? 1.0 / len : 0.0;
    t->lo = INFINITY, t->hi = -INFINITY, t->v = 0.0;
    for (int i = 0; i < 3; i++) n[i] *= k1, t->v += (s->lin_v[0][i] - s->lin_v[1][i]) * n[i];
    for (int v = 0; v < 3; v++) {
        double a = t->w[v][0] * n[0] + t->w[v][1] * n[1] + t->w[v][2] * n[2];
        t->lo = a < t->lo ? a : t->lo, t->hi = a > t->hi ? a : t->hi;
    }
}

/* Separating axes of a triangle pair under linear motion: along each face normal the projections must come within
 * eps (f: the face's triangle, o: the other, sign: +1 when f is A's). mag bounds the coordinates, for the rounding
 * slack. */
static bool linear_clip_face(const toi_search* s, linear_tri* f, const linear_tri* o, double sign, double mag,
                             double* u0, double* u1) {
    linear_tri_normal(s, f);
    if (f->n[0] == 0.0 && f->n[1] == 0.0 && f->n[2] == 0.0) return true;
    double lo = INFINITY, hi = -INFINITY;
    for (int v = 0; v < 3; v++) {
        double b = o->w[v][0] * f->n[0] + o->w[v][1] * f->n[1] + o->w[v][2] * f->n[2];
        lo = b < lo ? b : lo, hi = b > hi ? b : hi;
    }
    /* offset of A's span centre from B's, moving with A's motion relative to B's */
    double d = sign * 0.5 * (f->lo + f->hi - lo - hi);
    double reach = 0.5 * (f->hi - f->lo + hi - lo) + s->in->eps + 1e-6 * (mag + fabs(f->v));
    return clip_axis(d, f->v, reach, u0, u1);
}

/* Clip [*u0, *u1] to where node na of A and node nb of B are within eps, on the face axes of both boxes: in A's
 * frame B's box moves along a straight line, and each axis bounds the offset of the centres. World boxes of both
 * (re-wrapped, each grown by its rotation) would let a dragon's nodes beside a turned board or book pass. */
static bool linear_window(const toi_search* s, uint32_t na, uint32_t nb, double* u0, double* u1) {
    const snug_node* A = &s->m[0]->bvh.nodes[na];
    const snug_node* B = &s->m[1]->bvh.nodes[nb];
    const double* R = s->rel_R;
    double ca[3], ea[3], cb[3], eb[3], d[3], eba[3], mag = 0.0;
    for (int i = 0; i < 3; i++) {
        ca[i] = 0.5 * ((double)A->min[i] + A->max[i]), ea[i] = 0.5 * ((double)A->max[i] - A->min[i]);
        cb[i] = 0.5 * ((double)B->min[i] + B->max[i]), eb[i] = 0.5 * ((double)B->max[i] - B->min[i]);
    }
    for (int r = 0; r < 3; r++) {
        d[r] = R[r] * cb[0] + R[3 + r] * cb[1] + R[6 + r] * cb[2] + s->rel_t[r] - ca[r];
        eba[r] = fabs(R[r]) * eb[0] + fabs(R[3 + r]) * eb[1] + fabs(R[6 + r]) * eb[2];
        mag += fabs(ca[r]) + fabs(cb[r]) + fabs(s->rel_t[r]) + ea[r] + eb[r] + fabs(s->rel_v[r]);
    }
    /* eps of the box test, plus float rounding of the boxes and of the leaf tests' transforms */
    double slack = s->in->eps + 1e-6 * mag, lo = *u0, hi = *u1;
    for (int r = 0; r < 3; r++)
        if (!clip_axis(d[r], s->rel_v[r], ea[r] + eba[r] + slack, &lo, &hi)) return false;
    for (int j = 0; j < 3; j++) {
        const double* axis = R + 3 * j; /* B's axis j in A's frame */
        double dj = axis[0] * d[0] + axis[1] * d[1] + axis[2] * d[2];
        double wj = axis[0] * s->rel_v[0] + axis[1] * s->rel_v[1] + axis[2] * s->rel_v[2];
        double eaj = fabs(axis[0]) * ea[0] + fabs(axis[1]) * ea[1] + fabs(axis[2]) * ea[2];
        if (!clip_axis(dj, wj, eb[j] + eaj + slack, &lo, &hi)) return false;
    }
    *u0 = lo, *u1 = hi;
    return true;
}

/* leaf_pair for linear motion: every triangle pair first gets its own exact window, and the swept boxes that
 * filter its feature pairs span only that window. */
static void leaf_pair_linear(toi_search* s, uint32_t na, uint32_t nb, double u0, double u1) {
    const snug_node* A = &s->m[0]->bvh.nodes[na];
    const snug_node* B = &s->m[1]->bvh.nodes[nb];
    uint32_t ca = SNUG_NODE_COUNT(A->info), cb = SNUG_NODE_COUNT(B->info);
    linear_tri ta0, tbs[256];
    for (uint32_t j = 0; j < cb; j++) linear_tri_at(s, 1, B->first + j, &tbs[j]);
    for (uint32_t i = 0; i < ca; i++) {
        uint32_t sa = A->first + i;
        linear_tri_at(s, 0, sa, &ta0);
        for (uint32_t j = 0; j < cb; j++) {
            if (s->best_u + s->tie < u0) return;
            s->ctx->stats.bv_tests[SNUG_BV_AABB][SNUG_BV_AABB]++;
            linear_tri* tb0 = &tbs[j];
            double c[2][3], e[2][3];
            memcpy(c[0], ta0.c, sizeof c[0]), memcpy(e[0], ta0.e, sizeof e[0]);
            memcpy(c[1], tb0->c, sizeof c[1]), memcpy(e[1], tb0->e, sizeof e[1]);
            double lo = u0, hi = u1;
            if (!linear_clip(s, c, e, &lo, &hi) || lo > s->best_u + s->tie) continue;
            double mag = 0.0;
            for (int r = 0; r < 3; r++) mag += fabs(c[0][r]) + e[0][r] + fabs(c[1][r]) + e[1][r];
            if (!linear_clip_face(s, &ta0, tb0, 1.0, mag, &lo, &hi) || !linear_clip_face(s, tb0, &ta0, -1.0, mag, &lo, &hi) ||
                lo > s->best_u + s->tie)
                continue;
            uint32_t sb = B->first + j;
            double wa[3][3], wb[3][3];
            if (lo == 0.0 && s->at_start && !s->in->slide && tris_overlap_at(s, sa, sb, 0.0, wa, wb)) {
                double p[3], n[3];
                face_face_contact(wa, wb, p, n);
                record(s, 0.0, SNUG_FEATURE_FACE_FACE, sa, sb, -1, -1, p, n);
                return;
            }
            /* every pair within eps at the start has its window from 0 (and no triple from 0 is ever pruned) */
            if (lo == 0.0 && s->at_start && s->in->start && !s->in->start->overlap &&
                tris_overlap_at(s, sa, sb, 0.0, wa, wb))
                s->in->start->overlap = true;
            swept_tri ta, tb;
            tri_box(s, 0, sa, lo, hi, &ta);
            tri_box(s, 1, sb, lo, hi, &tb);
            tri_pair_dynamic(s, sa, sb, lo, hi, &ta, &tb, ALL_FEATURES);
        }
    }
}

/* The budget ran out at a triple or leaf pair starting at u: nothing from u on (in end-pose modes: nothing) is
 * cleared. */
static void out_of_work(toi_search* s, double u) {
    double at = s->mode == LEAF_DYNAMIC ? u : 0.0;
    if (!s->cut || at < s->cut_u) s->cut_u = at;
    s->cut = true;
}

static void leaf_pair(toi_search* s, uint32_t na, uint32_t nb, double u0, double u1) {
    const snug_node* A = &s->m[0]->bvh.nodes[na];
    const snug_node* B = &s->m[1]->bvh.nodes[nb];
    uint32_t ca = SNUG_NODE_COUNT(A->info), cb = SNUG_NODE_COUNT(B->info);
    swept_tri boxes_b[256];
    for (uint32_t j = 0; j < cb; j++) tri_box(s, 1, B->first + j, u0, u1, &boxes_b[j]);
    for (uint32_t i = 0; i < ca; i++) {
        swept_tri ba;
        uint32_t sa = A->first + i;
        tri_box(s, 0, sa, u0, u1, &ba);
        for (uint32_t j = 0; j < cb; j++) {
            if ((s->mode == LEAF_DYNAMIC && s->best_u + s->tie < u0) || (s->mode == LEAF_STATIC && s->overlap_seen)) return;
            if (s->work >= s->work_budget) { /* a leaf of up to 255 triangles against another */
                out_of_work(s, u0);
                return;
            }
            if (!boxes_overlap(s, &ba.all, &boxes_b[j].all)) continue;
            uint32_t sb = B->first + j;
            double wa[3][3], wb[3][3];
            if (s->mode != LEAF_DYNAMIC) { /* end pose: u0 == u1 == 1 */
                if (!tris_overlap_at(s, sa, sb, 1.0, wa, wb)) continue;
                if (!s->overlap_seen) s->overlap_seen = true, s->overlap_a = sa, s->overlap_b = sb;
                if (s->mode == LEAF_MIXED) tri_pair_dynamic(s, sa, sb, 0.0, 1.0, NULL, NULL, mixed_features(wa, wb));
                continue;
            }
            if (u0 == 0.0 && s->at_start && !s->in->slide && tris_overlap_at(s, sa, sb, 0.0, wa, wb)) {
                double p[3], n[3];
                face_face_contact(wa, wb, p, n);
                record(s, 0.0, SNUG_FEATURE_FACE_FACE, sa, sb, -1, -1, p, n);
                return;
            }
            tri_pair_dynamic(s, sa, sb, u0, u1, &ba, &boxes_b[j], ALL_FEATURES);
        }
    }
}

/* ------------------------------------------------------------------------------------------- traversal */

/* Triples keep float times: round the start down and the end up so the stored interval still covers [u0, u1]. */
static void push_bounds(double u0, double u1, float* f0, float* f1) {
    *f0 = (float)u0, *f1 = (float)u1;
    if (*f0 > u0) *f0 = nextafterf(*f0, -INFINITY);
    if (*f1 < u1) *f1 = nextafterf(*f1, INFINITY);
}

static snug_status push_if_overlap(toi_search* s, uint32_t na, uint32_t nb, double u0, double u1, const wbox* ba,
                                   const wbox* bb) {
    if (s->linear) {
        s->ctx->stats.bv_tests[SNUG_BV_AABB][SNUG_BV_AABB]++;
        double lo = u0, hi = u1;
        if (!linear_window(s, na, nb, &lo, &hi)) return SNUG_OK;
        toi_entry e = {0.0f, 0.0f, na, nb};
        push_bounds(lo, hi, &e.u0, &e.u1);
        if (e.u0 < u0) e.u0 = (float)u0; /* the caller's bounds are floats already */
        if (e.u1 > u1) e.u1 = (float)u1;
        return heap_push(s, e);
    }
    wbox x, y;
    if (!ba) node_box(s, 0, na, u0, u1, &x), ba = &x;
    if (!bb) node_box(s, 1, nb, u0, u1, &y), bb = &y;
    if (!boxes_overlap(s, ba, bb)) return SNUG_OK;
    toi_entry e = {(float)u0, (float)u1, na, nb};
    return heap_push(s, e);
}

static snug_status traverse(toi_search* s, double u0, double u1) {
    s->count = 0;
    s->cap = (uint32_t)(s->ctx->scratch.size / sizeof(toi_entry));
    snug_status st = push_if_overlap(s, 0, 0, u0, u1, NULL, NULL);
    if (st) return st;
    const snug_node* NA = s->m[0]->bvh.nodes;
    const snug_node* NB = s->m[1]->bvh.nodes;
    while (s->count) {
        if (s->mode == LEAF_STATIC && s->overlap_seen) break;
        toi_entry e = heap_pop(s);
        double a = e.u0, b = e.u1;
        if (a > s->best_u + s->tie && s->mode == LEAF_DYNAMIC) break; /* every later triple starts after the best contact */
        if (s->work >= s->work_budget) { /* every triple left starts at a or later (end-pose modes: nothing known) */
            out_of_work(s, a);
            break;
        }
        s->work++;
        s->visits++;
        s->ctx->stats.nodes_visited++;
        const snug_node* A = &NA[e.na];
        const snug_node* B = &NB[e.nb];
        bool leaf_a = SNUG_NODE_CHILDREN(A->info) == 0, leaf_b = SNUG_NODE_CHILDREN(B->info) == 0;
        double du = b - a;
        float sa = box_size(A), sb = box_size(B);
        double sweep = du > 0.0 ? motion_extent(s, 0, du) + motion_extent(s, 1, du) : 0.0;
        double size = fmax(leaf_a ? 0.0 : sa, leaf_b ? 0.0 : sb);
        if (leaf_a && leaf_b) size = 2.0 * fmax(sa, sb);
        /* Halve the interval while the motion over it exceeds a quarter of the node size: measured on the dragon pair,
         * finer time steps prune far more node and feature pairs than they cost (1x: 6.8 ms, 0.25x: 1.2 ms). */
        /* Linear motion needs no halving: the windows are exact and translation roots come in closed form. */
        if (!s->linear && du > TOI_MIN_DU && sweep > 0.25 * size) {
            double m = 0.5 * (a + b);
            if ((st = push_if_overlap(s, e.na, e.nb, a, m, NULL, NULL))) return st;
            if ((st = push_if_overlap(s, e.na, e.nb, m, b, NULL, NULL))) return st;
            continue;
        }
        if (leaf_a && leaf_b) {
            if (s->linear) leaf_pair_linear(s, e.na, e.nb, a, b);
            else leaf_pair(s, e.na, e.nb, a, b);
            continue;
        }
        bool split_a = !leaf_a && (leaf_b || sa >= sb);
        if (s->linear) {
            for (uint32_t c = 0; split_a && c < SNUG_NODE_CHILDREN(A->info); c++)
                if ((st = push_if_overlap(s, A->first + c, e.nb, a, b, NULL, NULL))) return st;
            for (uint32_t c = 0; !split_a && c < SNUG_NODE_CHILDREN(B->info); c++)
                if ((st = push_if_overlap(s, e.na, B->first + c, a, b, NULL, NULL))) return st;
        } else if (split_a) {
            wbox bb;
            node_box(s, 1, e.nb, a, b, &bb);
            for (uint32_t c = 0; c < SNUG_NODE_CHILDREN(A->info); c++)
                if ((st = push_if_overlap(s, A->first + c, e.nb, a, b, NULL, &bb))) return st;
        } else {
            wbox ba;
            node_box(s, 0, e.na, a, b, &ba);
            for (uint32_t c = 0; c < SNUG_NODE_CHILDREN(B->info); c++)
                if ((st = push_if_overlap(s, e.na, B->first + c, a, b, &ba, NULL))) return st;
        }
    }
    return SNUG_OK;
}

static double mesh_reach(const snug_mesh_data* m, const double pivot[3]) {
    double s = 0.0;
    for (int i = 0; i < 3; i++) {
        double a = fabs(m->aabb_min[i] - pivot[i]), b = fabs(m->aabb_max[i] - pivot[i]);
        s += fmax(a, b) * fmax(a, b);
    }
    return sqrt(s);
}

/* Fill the public result from the search (slots -> ids, segment u -> global t). */
static void finish(toi_search* s, double t0, double t1, snug_toi_result* out) {
    double u = s->best_u < 0.0 ? 0.0 : s->best_u;
    double t = t0 + u * (t1 - t0);
    if (s->mode == LEAF_STATIC) t = 0.0;
    out->hit = true;
    out->t = (float)t;
    /* back off by the time the fastest point needs to cover two tolerances */
    double speed = (motion_extent(s, 0, 1.0) + motion_extent(s, 1, 1.0)) / (t1 - t0 > 0.0 ? t1 - t0 : 1.0);
    double safe = speed > 0.0 ? t - 2.0 * s->in->eps / speed : t;
    if (s->mode == LEAF_STATIC) safe = 0.0;
    out->safe_t = (float)(safe < 0.0 ? 0.0 : safe);
    if (out->safe_t > out->t) out->safe_t = out->t;
    out->feature = s->kind;
    out->tri_a = s->m[0]->tri_ids[s->slot_a];
    out->tri_b = s->m[1]->tri_ids[s->slot_b];
    out->feature_a = s->fa;
    out->feature_b = s->fb;
    for (int i = 0; i < 3; i++) out->point[i] = (float)s->point[i], out->normal[i] = (float)s->normal[i];
}

/* The conservative answer of a search cut short by its budget: contact at the earliest time not cleared, with no
 * feature (the normal is zero); safe_t backs off as for any contact. */
static void toi_cut(toi_search* s, double t0, double t1, snug_toi_result* out) {
    s->best_u = s->cut_u;
    finish(s, t0, t1, out);
    out->feature = SNUG_FEATURE_NONE;
    out->tri_a = out->tri_b = SNUG_NO_HIT;
    out->feature_a = out->feature_b = -1;
    memset(out->point, 0, sizeof out->point);
    memset(out->normal, 0, sizeof out->normal);
}

snug_status snug_toi_run(snug_ctx* ctx, const snug_toi_input* in, snug_toi_result* out) {
    toi_search s;
    memset(&s, 0, offsetof(toi_search, fr)); /* snug_ccd_frames_init sets up fr for each motion piece */
    s.ctx = ctx;
    s.in = in;
    s.m[0] = in->a;
    s.m[1] = in->b;
    s.prm.finder = in->def.root_finder;
    s.prm.step = in->def.sampling_step;
    s.prm.max_iter = in->def.max_iterations;
    s.prm.eps = in->eps;
    s.mode = in->def.mode == SNUG_TOI_MIXED ? LEAF_MIXED : (in->def.mode == SNUG_TOI_STATIC ? LEAF_STATIC : LEAF_DYNAMIC);
    if (in->rotation_pivot) memcpy(s.pivot[0], in->pivot_a, sizeof s.pivot[0]);
    s.reach[0] = mesh_reach(in->a, s.pivot[0]);
    s.reach[1] = mesh_reach(in->b, s.pivot[1]);
    s.work_budget = TOI_WORK_PER_ELEMENT * ((uint64_t)in->a->bvh.node_count + in->b->bvh.node_count +
                                            in->a->tri_count + in->b->tri_count);
    snug_status st = snug_scratch_reserve(ctx, 64u * 1024u);
    if (st) return st;
    if (in->grazed) *in->grazed = false;

    snug_toi_result r;
    snug_toi_result_clear(&r);
    /* merged key times of both motions: every piece is one lerp + slerp segment for each mesh */
    uint32_t ia = 0, ib = 0, na = snug_motion_key_total(in->motion_a) - 1u, nb = snug_motion_key_total(in->motion_b) - 1u;
    double t0 = 0.0;
    if (s.mode != LEAF_DYNAMIC) t0 = 1.0; /* static and mixed look at the last piece's end pose */
    while (ia < na || ib < nb) {
        double ta = snug_motion_key_time(in->motion_a, ia + 1), tb = snug_motion_key_time(in->motion_b, ib + 1);
        double t1 = ta < tb ? ta : tb;
        if (s.mode != LEAF_DYNAMIC) {
            t0 = snug_motion_key_time(in->motion_a, na - 1) > snug_motion_key_time(in->motion_b, nb - 1)
                     ? snug_motion_key_time(in->motion_a, na - 1) : snug_motion_key_time(in->motion_b, nb - 1);
            t1 = 1.0;
        }
        snug_pose pa0 = snug_motion_pose_at_d(in->motion_a, t0), pa1 = snug_motion_pose_at_d(in->motion_a, t1);
        snug_pose pb0 = snug_motion_pose_at_d(in->motion_b, t0), pb1 = snug_motion_pose_at_d(in->motion_b, t1);
        if (t0 == 0.0) pa0 = in->motion_a->start, pb0 = in->motion_b->start;
        if (t1 == 1.0) pa1 = in->motion_a->end, pb1 = in->motion_b->end;
        snug_lerp_slerp la, lb;
        if (in->rotation_pivot) snug_lerp_slerp_init_pivot(&la, &pa0, &pa1, in->pivot_a);
        else snug_lerp_slerp_init(&la, &pa0, &pa1);
        snug_lerp_slerp_init(&lb, &pb0, &pb1);
        snug_ccd_frames_init(&s.fr, &la, &lb);
        double speed = motion_extent(&s, 0, 1.0) + motion_extent(&s, 1, 1.0);
        s.tie = speed > 0.0 ? fmin(32.0 * in->eps / speed, 1e-3) : 0.0;
        s.prm.u_tol = speed > 0.0 ? 0.25 * in->eps / speed : 0.0; /* root precision: a quarter tolerance */
        s.best_u = 2.0;
        s.at_start = t0 == 0.0;
        s.overlap_seen = false;
        s.linear = s.mode == LEAF_DYNAMIC && s.fr.translation;
        for (int k = 0; s.linear && k < 2; k++) {
            snug_dxform x0, x1;
            snug_lerp_slerp_at(s.fr.m[k], 0.0, &x0);
            snug_lerp_slerp_at(s.fr.m[k], 1.0, &x1);
            memcpy(s.lin_R[k], x0.R, sizeof x0.R);
            for (int i = 0; i < 3; i++) s.lin_t[k][i] = x0.t[i], s.lin_v[k][i] = x1.t[i] - x0.t[i];
        }
        if (s.linear) { /* B in A's frame: R_A^T R_B, R_A^T (t_B - t_A), R_A^T (v_B - v_A) (column-major) */
            const double *Ra = s.lin_R[0], *Rb = s.lin_R[1];
            for (int i = 0; i < 3; i++) {
                for (int c = 0; c < 3; c++)
                    s.rel_R[3 * c + i] = Ra[3 * i] * Rb[3 * c] + Ra[3 * i + 1] * Rb[3 * c + 1] + Ra[3 * i + 2] * Rb[3 * c + 2];
                s.rel_t[i] = s.rel_v[i] = 0.0;
                for (int k = 0; k < 3; k++) {
                    s.rel_t[i] += Ra[3 * i + k] * (s.lin_t[1][k] - s.lin_t[0][k]);
                    s.rel_v[i] += Ra[3 * i + k] * (s.lin_v[1][k] - s.lin_v[0][k]);
                }
            }
        }
        if (s.mode == LEAF_DYNAMIC) st = traverse(&s, 0.0, t1 > t0 ? 1.0 : 0.0);
        else st = traverse(&s, 1.0, 1.0);
        if (st) return st;
        if (in->start && s.at_start) in->start->known = s.linear && !s.cut;
        if (in->grazed && (s.cut || !s.linear)) *in->grazed = true;
        if (s.cut && s.cut_u < s.best_u) {
            toi_cut(&s, t0, t1, &r);
            break;
        }
        if (s.mode != LEAF_DYNAMIC && s.overlap_seen && s.best_u > 1.0) {
            /* overlapping at the end, no dynamic root: report the start of the piece with the overlapping pair */
            double wa[3][3], wb[3][3], p[3], n[3];
            tri_world(&s, 0, s.overlap_a, 1.0, wa);
            tri_world(&s, 1, s.overlap_b, 1.0, wb);
            face_face_contact(wa, wb, p, n);
            record(&s, 0.0, SNUG_FEATURE_FACE_FACE, s.overlap_a, s.overlap_b, -1, -1, p, n);
        }
        if (s.best_u <= 1.0) {
            finish(&s, t0, t1, &r);
            break;
        }
        if (s.mode != LEAF_DYNAMIC) break;
        if (ta <= t1) ia++;
        if (tb <= t1) ib++;
        t0 = t1;
    }
    *out = r;
    return snug_succeed(ctx);
}

/* ------------------------------------------------------------------------------------------- public entry */

snug_toi_def snug_default_toi_def(void) {
    snug_toi_def d;
    memset(&d, 0, sizeof d);
    d.mode = SNUG_TOI_DYNAMIC;
    d.root_finder = SNUG_ROOT_SAMPLING_REGULA_FALSI;
    d.sampling_step = 1.0f / 16.0f;
    d.max_iterations = 32;
    d.tolerance = 0.0f;
    d.daasd_slabs = 0;
    d.internal_value = SNUG_DEF_MARK;
    return d;
}

snug_status snug_toi_prepare(snug_ctx* ctx, snug_mesh a, const snug_motion* motion_a, snug_mesh b,
                             const snug_motion* motion_b, const snug_toi_def* def, snug_toi_input* in) {
    memset(in, 0, sizeof *in);
    if (def && snug_def_check_mark(ctx, def->internal_value, "toi_def")) return SNUG_ERR_INVALID_ARGUMENT;
    in->def = def ? *def : snug_default_toi_def();
    const snug_toi_def* d = &in->def;
    if ((unsigned)d->mode >= SNUG_TOI_MODE_COUNT)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "toi mode %d is not a snug_toi_mode", (int)d->mode);
    if (d->mode == SNUG_TOI_DAASD && !snug_toi_table.daasd)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "the DAASD mode is a research variant, not in this build (the "
                         "research library and the tools wasm module have it)");
    if ((unsigned)d->root_finder >= SNUG_ROOT_FINDER_COUNT)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "root finder %d is not a snug_root_finder", (int)d->root_finder);
    if (!(d->sampling_step >= SNUG_MIN_SAMPLING_STEP && d->sampling_step <= 1.0f))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "sampling_step %g must lie in [%g, 1]", d->sampling_step,
                         (double)SNUG_MIN_SAMPLING_STEP);
    if (d->max_iterations < 1 || d->max_iterations > 100)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "max_iterations %u must lie in 1..100", d->max_iterations);
    if (!(d->tolerance >= 0.0f && d->tolerance <= 0.1f))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "tolerance %g must lie in [0, 0.1] (relative to scale)",
                         d->tolerance);
    if (d->daasd_slabs > 4096)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "daasd_slabs %u exceeds 4096", d->daasd_slabs);
    snug_status st;
    if ((st = snug_motion_check(ctx, motion_a, "motion_a"))) return st;
    if ((st = snug_motion_check(ctx, motion_b, "motion_b"))) return st;
    in->a = snug_mesh_lookup(ctx, a);
    if (!in->a) return SNUG_ERR_STALE_HANDLE;
    in->b = snug_mesh_lookup(ctx, b);
    if (!in->b) return SNUG_ERR_STALE_HANDLE;
    in->motion_a = motion_a;
    in->motion_b = motion_b;
    double rel = d->tolerance > 0.0f ? d->tolerance : SNUG_REL_TOLERANCE;
    in->eps = rel * fmax(in->a->scale, in->b->scale);
    return SNUG_OK;
}

snug_status snug_mesh_toi(snug_ctx* ctx, snug_mesh a, const snug_motion* motion_a, snug_mesh b,
                           const snug_motion* motion_b, const snug_toi_def* def, snug_toi_result* result) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!result) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "result is NULL");
    memset(&ctx->stats, 0, sizeof ctx->stats);
    snug_toi_input in;
    snug_status st = snug_toi_prepare(ctx, a, motion_a, b, motion_b, def, &in);
    if (st) return st;
    if (in.def.mode == SNUG_TOI_DAASD) return snug_toi_table.daasd(ctx, &in, result);
    return snug_toi_run(ctx, &in, result);
}
