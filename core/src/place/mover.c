/* The mover: carry a group along a translation or a turn as far as the other bodies allow, in the manner of Box2D
 * v3's mover. Each round first COLLIDES (the planes of bodies already within two skins, from distance queries), then
 * SOLVES for the motion nearest the wanted one that keeps a skin from every such plane and stays in the bindings'
 * degrees of freedom, then CASTS the group along it (sweeps) and stops a skin before first contact. Keeping a skin
 * means no sweep ever starts in resting contact, which is where sweeps are slowest, and a push shorter than the
 * skin meets the plane in the solver instead of creeping. Bodies the group rests on (or that rest on it) are tested
 * with the group lifted a skin off their binding plane: resting is not a collision, anything else is (a bottle on a
 * desk still meets the desk's shelf). Pairs that overlap before the call are left out, so a body that starts
 * overlapping is never trapped. */
#include <string.h>

#include "place/mover.h"

#define MAX_PLANES 32

/* n . o >= c for the group's offset o from where the call started. */
typedef struct plane {
    dvec3 n;                           /* unit, from the other body towards the group */
    double c;
} plane;

typedef struct pair_state {
    bool excluded;                     /* overlapping before the call */
} pair_state;

static snug_pose pose_at(const snug_member* m, dvec3 offset) {
    dpose p = m->pose;
    p.p = dv_add(p.p, offset);
    return dpose_store(p);
}

static void add_blocker(snug_mover_out* out, const snug_body_data* body, const snug_body_data* by, const float point[3],
                        dvec3 n) {
    for (uint32_t i = 0; i < out->blocker_count; i++)
        if (out->blockers[i].body == body->handle) return;
    if (out->blocker_count == SNUG_MOVE_BLOCKERS_MAX) return;
    snug_blocker* b = &out->blockers[out->blocker_count++];
    b->body = body->handle;
    b->by = by->handle;
    memcpy(b->point, point, sizeof b->point);
    dv_store(n, b->normal);
}

/* Is the pair of member m and body c tested at all? */
static bool pair_tested(const snug_scene_data* s, const snug_member* m, const snug_body_data* c) {
    return snug_scene_pair_passes(s, m->body, c);
}

static double box_gap(dvec3 alo, dvec3 ahi, const float blo[3], const float bhi[3]) {
    double gx = fmax(0.0, fmax(blo[0] - ahi.x, alo.x - bhi[0]));
    double gy = fmax(0.0, fmax(blo[1] - ahi.y, alo.y - bhi[1]));
    double gz = fmax(0.0, fmax(blo[2] - ahi.z, alo.z - bhi[2]));
    return sqrt(gx * gx + gy * gy + gz * gz);
}

static void member_box(const snug_member* m, dvec3 offset, dvec3* lo, dvec3* hi) {
    float l[3], h[3];
    snug_pose p = pose_at(m, offset);
    snug_body_world_box(m->body, &p, l, h);
    *lo = dv(l[0], l[1], l[2]);
    *hi = dv(h[0], h[1], h[2]);
}

/* Adds the planes of the bodies within two skins of the group at offset; marks pairs overlapping now as excluded. */
static snug_status collide(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                           snug_body_data** near, uint32_t near_count, pair_state* pairs, dvec3 offset, double skin,
                           plane* planes, uint32_t* plane_count, snug_mover_out* out) {
    for (uint32_t i = 0; i < g->count; i++) {
        const snug_member* m = &g->members[i];
        dvec3 lo, hi;
        member_box(m, offset, &lo, &hi);
        for (uint32_t k = 0; k < near_count; k++) {
            pair_state* st = &pairs[(size_t)i * near_count + k];
            snug_body_data* c = near[k];
            if (st->excluded || !pair_tested(s, m, c)) continue;
            float clo[3], chi[3];
            snug_body_world_box(c, &c->world, clo, chi);
            if (box_gap(lo, hi, clo, chi) > 2.0 * skin) continue;
            dvec3 lift = snug_bound_lift(ps, s, m, c, SNUG_MOVER_LIFT * skin);
            snug_pose pm = pose_at(m, dv_add(offset, lift));
            bool within = false;
            snug_status r = snug_mesh_within(ctx, m->body->mesh, &pm, c->mesh, &c->world, (float)(2.0 * skin), &within);
            if (r) return r;
            if (!within) continue;
            snug_distance_result d;
            if ((r = snug_mesh_distance(ctx, m->body->mesh, &pm, c->mesh, &c->world, &d))) return r;
            dvec3 pa = dv_f(d.point_a), pb = dv_f(d.point_b);
            double dist = dv_len(dv_sub(pa, pb));
            if (dist <= 1e-3 * skin) {
                st->excluded = true; /* overlapping (or touching) before any motion of ours: let it go */
                out->started_overlapping = true;
                continue;
            }
            dvec3 n = dv_scale(dv_sub(pa, pb), 1.0 / dist);
            if (*plane_count < MAX_PLANES) planes[(*plane_count)++] = (plane){n, dv_dot(n, offset) - fmax(dist - skin, 0.0)};
        }
    }
    return SNUG_OK;
}

/* The offset nearest to want that keeps every plane and the degrees of freedom (Gauss-Seidel projections, as
 * Box2D's plane solver), or the current offset when none does or the way there turns against the wanted motion. */
static dvec3 solve(const snug_dof* dof, dvec3 offset, dvec3 want, const plane* planes, uint32_t count) {
    dvec3 o = dv_add(offset, snug_dof_project(dof, dv_sub(want, offset)));
    for (int iter = 0; iter < 20; iter++) {
        double worst = 0.0;
        for (uint32_t i = 0; i < count; i++) {
            double v = dv_dot(planes[i].n, o) - planes[i].c;
            if (v < 0.0) {
                o = dv_madd(o, planes[i].n, -v);
                if (-v > worst) worst = -v;
            }
        }
        o = dv_add(offset, snug_dof_project(dof, dv_sub(o, offset)));
        if (worst < 1e-12) break;
    }
    for (uint32_t i = 0; i < count; i++)
        if (dv_dot(planes[i].n, o) < planes[i].c - 1e-9) return offset;
    return dv_dot(dv_sub(o, offset), dv_sub(want, offset)) > 0.0 ? o : offset;
}

snug_status snug_mover_translate(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                                 const snug_dof* dof, dvec3 want, double skin, dvec3* moved, snug_mover_out* out) {
    *moved = dv(0, 0, 0);
    double reach = dv_len(want) + 2.0 * skin;
    dvec3 grow = dv(reach, reach, reach);
    snug_body_data** near;
    uint32_t near_count;
    snug_status st = snug_group_neighbours(ctx, s, ps, g, dv_sub(g->lo, grow), dv_add(g->hi, grow), &near, &near_count);
    if (st) return st;
    if ((st = snug_buffer_reserve(ctx, &ps->pairs, (size_t)g->count * near_count * sizeof(pair_state) + 1, 0)))
        return st;
    pair_state* pairs = (pair_state*)ps->pairs.data;
    memset(pairs, 0, (size_t)g->count * near_count * sizeof *pairs);
    dvec3 offset = {0, 0, 0};
    plane planes[MAX_PLANES];
    uint32_t plane_count = 0; /* kept through the rounds: a plane met by a cast still holds while sliding on */
    for (uint32_t round = 0; round < ps->def.max_slides; round++) {
        if ((st = collide(ctx, s, ps, g, near, near_count, pairs, offset, skin, planes, &plane_count, out))) break;
        dvec3 x = dv_sub(solve(dof, offset, want, planes, plane_count), offset);
        double len = dv_len(x);
        if (len < 1e-12) break;
        double best_t = 1.0;
        snug_toi_result hit;
        const snug_body_data *hit_body = NULL, *hit_by = NULL;
        float xf[3];
        dv_store(x, xf);
        for (uint32_t i = 0; i < g->count && !st; i++) {
            const snug_member* m = &g->members[i];
            dvec3 lo, hi, lo2, hi2;
            member_box(m, offset, &lo, &hi);
            member_box(m, dv_add(offset, x), &lo2, &hi2);
            lo = dv(fmin(lo.x, lo2.x), fmin(lo.y, lo2.y), fmin(lo.z, lo2.z));
            hi = dv(fmax(hi.x, hi2.x), fmax(hi.y, hi2.y), fmax(hi.z, hi2.z));
            for (uint32_t k = 0; k < near_count; k++) {
                snug_body_data* c = near[k];
                if (pairs[(size_t)i * near_count + k].excluded || !pair_tested(s, m, c)) continue;
                float clo[3], chi[3];
                snug_body_world_box(c, &c->world, clo, chi);
                if (box_gap(lo, hi, clo, chi) > skin) continue;
                snug_pose pm = pose_at(m, dv_add(offset, snug_bound_lift(ps, s, m, c, SNUG_MOVER_LIFT * skin)));
                snug_toi_result r;
                if ((st = snug_mesh_sweep(ctx, m->body->mesh, &pm, xf, c->mesh, &c->world, &r))) break;
                if (r.hit && r.t < best_t) best_t = r.t, hit = r, hit_body = c, hit_by = m->body;
            }
        }
        if (st) break;
        if (!hit_body) {
            offset = dv_add(offset, x);
            break;
        }
        double u = fmax(0.0, best_t - skin / len);
        offset = dv_madd(offset, x, u);
        out->blocked = true;
        dvec3 n = dv_norm(dv_f(hit.normal));
        add_blocker(out, hit_body, hit_by, hit.point, n);
        if (plane_count < MAX_PLANES) planes[plane_count++] = (plane){n, dv_dot(n, offset)};
    }
    if (st) return st;
    *moved = offset;
    return SNUG_OK;
}

snug_status snug_mover_turn(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                            dvec3 pivot, dvec3 axis, double angle, double skin, double* turned, snug_mover_out* out) {
    *turned = 0.0;
    if (fabs(angle) < 1e-12) return SNUG_OK;
    /* every point of the group stays within its distance from the pivot */
    double r = 0.0;
    for (int i = 0; i < 8; i++) {
        dvec3 corner = dv(i & 1 ? g->hi.x : g->lo.x, i & 2 ? g->hi.y : g->lo.y, i & 4 ? g->hi.z : g->lo.z);
        double d = dv_len(dv_sub(corner, pivot));
        if (d > r) r = d;
    }
    double reach = fmin(fabs(angle), 2.0) * r + 2.0 * skin;
    dvec3 grow = dv(reach, reach, reach);
    snug_body_data** near;
    uint32_t near_count;
    snug_status st = snug_group_neighbours(ctx, s, ps, g, dv_sub(g->lo, grow), dv_add(g->hi, grow), &near, &near_count);
    if (st) return st;
    float pivotf[3], axisf[3];
    dv_store(pivot, pivotf);
    dv_store(axis, axisf);
    double best_t = 1.0;
    for (uint32_t i = 0; i < g->count; i++) {
        const snug_member* m = &g->members[i];
        for (uint32_t k = 0; k < near_count; k++) {
            snug_body_data* c = near[k];
            if (!pair_tested(s, m, c)) continue;
            snug_pose pm = pose_at(m, snug_bound_lift(ps, s, m, c, SNUG_MOVER_LIFT * skin));
            bool touching = false;
            if ((st = snug_mesh_within(ctx, m->body->mesh, &pm, c->mesh, &c->world, 0.0f, &touching))) return st;
            if (touching) {
                out->started_overlapping = true;
                continue;
            }
            double left = angle, done = 0.0;
            /* the rotation sweep takes less than half a turn at a time */
            while (fabs(left) > 1e-12) {
                double part = fabs(left) > 3.0 ? (left > 0 ? 3.0 : -3.0) : left;
                snug_pose start = pm;
                if (done != 0.0) start = dpose_store(dpose_turn(dpose_f(&pm), dq_axis_angle(axis, done), pivot));
                snug_toi_result res;
                if ((st = snug_mesh_sweep_rotation(ctx, m->body->mesh, &start, pivotf, axisf, (float)part, c->mesh,
                                                   &c->world, &res)))
                    return st;
                if (res.hit) {
                    double t = (done + res.t * part) / angle;
                    if (t < best_t) {
                        best_t = t;
                        out->turn_blocked = true;
                        add_blocker(out, c, m->body, res.point, dv_f(res.normal));
                    }
                    break;
                }
                done += part;
                left -= part;
            }
        }
    }
    /* stop a skin (as an arc at the group's reach) before the contact */
    double t = best_t >= 1.0 ? 1.0 : fmax(0.0, best_t - skin / (fabs(angle) * fmax(r, skin)));
    *turned = angle * t;
    return SNUG_OK;
}
