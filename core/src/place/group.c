/* The moving group: a body and its subtree, which moves rigidly with it (what stands on a table is its child), the
 * group's bindings on bodies outside it, and the bodies around it. */
#include <float.h>
#include <string.h>

#include "place/place.h"
#include "query/traverse.h"

static snug_status next_stamp(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps) {
    uint32_t need = s->bodies.slot_count;
    if (ps->stamp_cap < need) {
        uint32_t cap = ps->stamp_cap ? ps->stamp_cap : 64;
        while (cap < need) cap *= 2;
        uint32_t* fresh = snug_realloc(ctx, ps->stamps, (size_t)cap * sizeof *fresh);
        if (!fresh) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "placement stamps for %u bodies", cap);
        memset(fresh + ps->stamp_cap, 0, (size_t)(cap - ps->stamp_cap) * sizeof *fresh);
        ps->stamps = fresh;
        ps->stamp_cap = cap;
    }
    if (++ps->stamp == 0) { /* wrapped: old marks could alias the new one */
        memset(ps->stamps, 0, (size_t)ps->stamp_cap * sizeof *ps->stamps);
        ps->stamp = 1;
    }
    return SNUG_OK;
}

void snug_group_refresh(snug_group* g) {
    g->lo = dxyz(DBL_MAX, DBL_MAX, DBL_MAX);
    g->hi = dxyz(-DBL_MAX, -DBL_MAX, -DBL_MAX);
    for (uint32_t i = 0; i < g->count; i++) {
        snug_member* m = &g->members[i];
        m->pose = dpose_f(&m->body->world);
        float lo[3], hi[3];
        snug_body_world_box(m->body, &m->body->world, lo, hi);
        g->lo = dxyz(fmin(g->lo.x, lo[0]), fmin(g->lo.y, lo[1]), fmin(g->lo.z, lo[2]));
        g->hi = dxyz(fmax(g->hi.x, hi[0]), fmax(g->hi.y, hi[1]), fmax(g->hi.z, hi[2]));
    }
    g->centre = dscale(dadd(g->lo, g->hi), 0.5);
    g->radius = 0.5 * dlen(dsub(g->hi, g->lo));
}

snug_status snug_group_gather(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, snug_body_data* b,
                              snug_group* g) {
    snug_status st = next_stamp(ctx, s, ps);
    if (st) return st;
    uint32_t count = 0;
    for (uint32_t i = b->slot; i != SNUG_NONE; i = snug_hierarchy_next(s, b->slot, i)) count++;
    size_t bytes = (size_t)count * sizeof(snug_member) + (size_t)count * SNUG_BINDINGS_MAX * sizeof(snug_ext_binding);
    if ((st = snug_buffer_reserve(ctx, &ps->group, bytes, 0))) return st;
    g->members = (snug_member*)ps->group.data;
    g->ext = (snug_ext_binding*)(g->members + count);
    g->count = 0;
    g->ext_count = 0;
    g->stamp = ps->stamp;
    for (uint32_t i = b->slot; i != SNUG_NONE; i = snug_hierarchy_next(s, b->slot, i)) {
        snug_body_data* mb = snug_body_at(s, i);
        snug_mesh_data* mesh = snug_mesh_lookup(ctx, mb->mesh);
        if (!mesh) return SNUG_ERR_STALE_HANDLE;
        ps->stamps[i] = g->stamp;
        g->members[g->count++] = (snug_member){mb, mesh, dpose_f(&mb->world)};
    }
    for (uint32_t k = 0; k < g->count; k++) {
        snug_place_body* r = snug_place_body_at(ps, s, g->members[k].body->slot);
        for (uint32_t j = 0; r && j < r->binding_count; j++) {
            snug_body_data* sup = snug_pool_get(&s->bodies, r->bindings[j].supporter);
            if (sup && !snug_group_has(ps, g, sup->slot))
                g->ext[g->ext_count++] = (snug_ext_binding){k, j, r->bindings[j]};
        }
    }
    snug_group_refresh(g);
    return SNUG_OK;
}

snug_status snug_group_neighbours(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                                  dvec lo, dvec hi, snug_body_data*** out, uint32_t* count) {
    snug_status st = snug_scene_sync(ctx, s);
    if (st) return st;
    if ((st = snug_buffer_reserve(ctx, &ps->near, (size_t)s->bp.proxy_count * sizeof(snug_body_data*) + 1, 0)))
        return st;
    snug_body_data** list = (snug_body_data**)ps->near.data;
    const float qlo[3] = {(float)lo.x, (float)lo.y, (float)lo.z}, qhi[3] = {(float)hi.x, (float)hi.y, (float)hi.z};
    uint32_t n = 0;
    for (uint32_t p = 0; p < s->bp.proxy_count; p++) {
        const snug_bp_proxy* P = &s->bp.proxies[p];
        if (!P->live || !snug_box_overlap(P->min, P->max, qlo, qhi)) continue;
        snug_body_data* o = snug_body_at(s, P->user);
        if (!o->enabled || (g && snug_group_has(ps, g, o->slot))) continue;
        list[n++] = o;
    }
    *out = list;
    *count = n;
    return SNUG_OK;
}

/* Do binding polygon B (at pb) and offer O (at po) overlap in O's plane, within tol? */
static bool polygons_meet(const snug_place_surface* B, dpose pb, const snug_place_surface* O, dpose po, double tol) {
    snug_world_surface w;
    snug_world_surface_at(O, po, &w);
    snug_poly2 o, p;
    snug_world_surface_polygon(&w, &o);
    snug_surface_in_plane(B, pb, &w, &p);
    snug_poly2_clip(&p, &o, tol);
    return p.n >= 3;
}

/* Is binding surface `binding` of body x bound to offer `offer` of body sup (and x not loose in a free-mode move)? */
static bool bound_to(const snug_place_scene* ps, const snug_body_data* x, uint32_t binding, const snug_body_data* sup,
                     uint32_t offer) {
    const snug_place_body* r = x->slot < ps->body_cap && x->handle != ps->loose ? &ps->bodies[x->slot] : NULL;
    for (uint32_t i = 0; r && r->handle == x->handle && i < r->binding_count; i++)
        if (r->bindings[i].binding == binding && r->bindings[i].supporter == sup->handle &&
            r->bindings[i].offer == offer)
            return true;
    return false;
}

/* Does binding surface `binding` of body x (at pose px) lie on one of body y's offers (at pose py): in its plane,
 * facing it, and either bound to it or over it with a label it may rest on? Bound, it rests in the binding plane
 * wherever its polygon stands and whatever the labels now say (snug.h: bound pairs may touch in their binding plane;
 * a surface or label edit can leave a bound polygon off its offer or its label unfit, which the check reports as
 * such: were the contact an overlap too, whether it showed would depend on how the poses round, and a block bound
 * with an unfit label was let go as touching by the mover's world reading, apart by the check's, and touching after
 * a turn). Unbound, it must be over it: a body beside a table, its base at the top's height, does not rest on it
 * (the lift would let the table rise into it). *n: that offer's normal, the plane x rests on. */
static bool rests_on(const snug_place_scene* ps, const snug_body_data* x, uint32_t binding, const snug_place_surface* B,
                     dpose px, const snug_body_data* y, const snug_place_surfaces* others, dpose py, dvec* n) {
    dvec nb = dnorm(dpose_dir(px, dv(B->s.normal)));
    dvec c = dpose_point(px, B->centroid);
    for (uint32_t o = 0; others && o < others->count; o++) {
        const snug_place_surface* O = &others->items[o];
        if (O->s.kind != SNUG_SURFACE_OFFER) continue;
        *n = dnorm(dpose_dir(py, dv(O->s.normal)));
        dvec oc = dpose_point(py, O->centroid);
        /* a binding's plane as the check takes it; an unbound body's by the rounding where it stands only (a wider
         * band let bodies a hair above rest and changed the mover's paths) */
        bool bound = bound_to(ps, x, binding, y, o);
        double tol = bound ? snug_plane_tolerance(x, y, B->radius, O->radius, dlen(oc))
                           : snug_plane_rounding(B->radius, O->radius, dlen(oc));
        if (ddot(nb, *n) > 1.0 - 1e-6 && fabs(ddot(dsub(oc, c), *n)) <= tol &&
            (bound || (snug_label_fits(ps, B->s.label, O->s.label) && polygons_meet(B, px, O, py, tol))))
            return true;
    }
    return false;
}

/* A turn of a about omega (axis times angular speed) through pivot, and the least parting speed found so far of the
 * resting polygons' vertices, with that vertex. */
typedef struct rest_turn {
    dvec pivot, omega;
    double least;
    dvec at;
} rest_turn;

/* Where the relations are listed (snug_rest_relations). */
typedef struct rest_list {
    snug_rest_relation* out;
    uint32_t cap, count;
} rest_list;

/* The resting relations of a (mesh ma, at pa) and b both ways: the lift that parts them by gap, (turn) how fast the
 * resting polygons' vertices, moving with a, part along it, and (list) each relation. */
static dvec rest_walk(snug_ctx* ctx, const snug_place_scene* ps, const snug_body_data* a, const snug_mesh_data* ma,
                      dpose pa, const snug_body_data* b, double gap, rest_turn* turn, rest_list* list) {
    dvec lift = {0, 0, 0}, n;
    snug_mesh_data* mb = snug_pool_get(&ctx->meshes, b->mesh);
    if (!mb) return lift;
    const snug_place_surfaces* ss[2] = {snug_mesh_surfaces(ma), snug_mesh_surfaces(mb)};
    dpose poses[2] = {pa, dpose_f(&b->world)};
    const snug_body_data* bodies[2] = {a, b};
    for (int side = 0; side < 2; side++) /* a's bindings on b's offers part along +n, b's on a's along -n */
        for (uint32_t j = 0; ss[side] && j < ss[side]->count; j++) {
            const snug_place_surface* B = &ss[side]->items[j];
            if (B->s.kind != SNUG_SURFACE_BINDING ||
                !rests_on(ps, bodies[side], j, B, poses[side], bodies[1 - side], ss[1 - side], poses[1 - side], &n))
                continue;
            dvec part = side ? dscale(n, -1.0) : n;
            lift = dmadd(lift, part, gap);
            bool listed = false;
            for (uint32_t i = 0; list && i < list->count; i++)
                listed |= ddot(list->out[i].part, part) > 1.0 - 1e-12;
            if (list && !listed && list->count < list->cap)
                list->out[list->count++] = (snug_rest_relation){part, dpose_point(poses[side], B->centroid)};
            for (uint32_t i = 0; turn && i < B->s.vertex_count; i++) {
                dvec x = snug_surface_vertex(B, poses[side], i);
                double v = ddot(dcross(turn->omega, dsub(x, turn->pivot)), part);
                if (v < turn->least) turn->least = v, turn->at = x;
            }
        }
    return lift;
}

dvec snug_rest_lift(snug_ctx* ctx, const snug_place_scene* ps, const snug_body_data* a, const snug_mesh_data* ma,
                    dpose pa, const snug_body_data* b, double gap) {
    return rest_walk(ctx, ps, a, ma, pa, b, gap, NULL, NULL);
}

dvec snug_rest_turning(snug_ctx* ctx, const snug_place_scene* ps, const snug_body_data* a, const snug_mesh_data* ma,
                       dpose pa, const snug_body_data* b, double gap, dvec pivot, dvec omega, double* parting,
                       dvec* at) {
    rest_turn turn = {pivot, omega, INFINITY, pa.p};
    dvec lift = rest_walk(ctx, ps, a, ma, pa, b, gap, &turn, NULL);
    *parting = turn.least;
    *at = turn.at;
    return lift;
}

uint32_t snug_rest_relations(snug_ctx* ctx, const snug_place_scene* ps, const snug_body_data* a,
                             const snug_mesh_data* ma, dpose pa, const snug_body_data* b, snug_rest_relation* out,
                             uint32_t cap) {
    rest_list list = {out, cap, 0};
    rest_walk(ctx, ps, a, ma, pa, b, 0.0, NULL, &list);
    return list.count;
}

/* a at rel (its pose in b's frame): the meshes and B -> A */
static snug_status in_frame(snug_ctx* ctx, const snug_body_data* a, dpose rel, const snug_body_data* b,
                            snug_mesh_data** ma, snug_mesh_data** mb, snug_xform* x) {
    snug_pose r = dpose_store(rel);
    snug_pose id = snug_pose_identity();
    return snug_query_begin_pair(ctx, a->mesh, &r, b->mesh, &id, ma, mb, x);
}

static dpose relative_to(dpose pa, dpose pb) {
    dquat inv = dq_conj(pb.q);
    return (dpose){dq_mul(inv, pa.q), dq_rotate(inv, dsub(pa.p, pb.p))};
}

static snug_status overlap_at(snug_ctx* ctx, const snug_body_data* a, dpose rel, const snug_body_data* b, bool* hit,
                              snug_overlap_hint* hint) {
    snug_mesh_data *ma, *mb;
    snug_xform x;
    snug_status st = in_frame(ctx, a, rel, b, &ma, &mb, &x);
    if (st) return st;
    bool hinted = hint && hint->a == a->handle && hint->b == b->handle;
    if (hinted && snug_overlap_pair(ma, mb, &x, hint->slot_a, hint->slot_b)) {
        *hit = true;
        return snug_succeed(ctx);
    }
    uint32_t sa, sb;
    if ((st = snug_overlap_witness(ctx, ma, mb, &x, hit, &sa, &sb))) return st;
    if (*hit && hint) *hint = (snug_overlap_hint){a->handle, b->handle, sa, sb};
    return snug_succeed(ctx);
}

snug_status snug_overlap_in_frame(snug_ctx* ctx, const snug_body_data* a, dpose pa, const snug_body_data* b, bool* hit,
                                  snug_overlap_hint* hint) {
    return overlap_at(ctx, a, relative_to(pa, dpose_f(&b->world)), b, hit, hint);
}

/* The pose of the body in slot x in the frame of its ancestor in slot c: the product of the local poses on the way
 * down. */
static dpose pose_below(const snug_scene_data* s, uint32_t x, uint32_t c) {
    dpose p = {dq_identity(), {0, 0, 0}};
    for (; x != c; x = snug_body_at(s, x)->parent) {
        dpose l = dpose_f(&snug_body_at(s, x)->local);
        p = (dpose){dq_mul(l.q, p.q), dpose_point(l, p.p)};
    }
    return p;
}

snug_status snug_overlap_related(snug_ctx* ctx, const snug_scene_data* s, const snug_body_data* a, dvec lift,
                                 const snug_body_data* b, bool* hit) {
    uint32_t c = snug_hierarchy_common_ancestor(s, a->slot, b->slot);
    dpose pb = dpose_f(&b->world);
    dpose rel = c != SNUG_NONE ? relative_to(pose_below(s, a->slot, c), pose_below(s, b->slot, c))
                               : relative_to(dpose_f(&a->world), pb);
    rel.p = dadd(rel.p, dq_rotate(dq_conj(pb.q), lift));
    return overlap_at(ctx, a, rel, b, hit, NULL);
}

double snug_group_range(const snug_group* g) {
    double r = INFINITY;
    for (uint32_t i = 0; i < g->count; i++) r = fmin(r, snug_body_radius(g->members[i].body));
    return fmin(SNUG_PLACE_RANGE * r, SNUG_MAX_COORDINATE);
}

static bool in_range(const float p[3], double range) {
    return fabs(p[0]) <= range && fabs(p[1]) <= range && fabs(p[2]) <= range;
}

bool snug_group_in_range(const snug_group* g, dquat turn, dvec pivot, dvec shift) {
    double range = snug_group_range(g);
    for (uint32_t i = 0; i < g->count; i++) {
        dpose p = dpose_turn(g->members[i].pose, turn, pivot);
        snug_pose pf = dpose_store((dpose){p.q, dadd(p.p, shift)});
        if (!in_range(pf.p, range)) return false;
    }
    return true;
}

snug_status snug_group_range_check(snug_ctx* ctx, const snug_group* g, const char* what) {
    double range = snug_group_range(g);
    for (uint32_t i = 0; i < g->count; i++) {
        const snug_body_data* m = g->members[i].body;
        if (!in_range(m->world.p, range))
            return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                             "%s: body 0x%08x stands at (%g, %g, %g), beyond its group's placement range +-%g "
                             "(SNUG_PLACE_RANGE times its smallest body's radius)", what, m->handle,
                             (double)m->world.p[0], (double)m->world.p[1], (double)m->world.p[2], range);
    }
    return SNUG_OK;
}
