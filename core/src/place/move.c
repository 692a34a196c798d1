/* snug_body_move: one call per pointer event. In constrained mode (IConS Fig. 3.13, extended):
 *  1. re-seat: when the pointer is over an offer the body may rest on, other than the one it slides on, the body
 *     goes there under the pointer in one gesture if it is free there (IConS needed free mode for a lamp from the
 *     desk to the table);
 *  2. turn about the axis the bindings and orientation constraints leave, kept on the offers, stopped at contact;
 *  3. translate in the bindings' degrees of freedom, kept on the union of coplanar offers (support.c), carried by
 *     the mover (sweep, stop a skin short, slide);
 *  4. snap: a binding surface that rests on nothing takes the nearest offer whose prism holds it, if free there.
 * Free mode breaks the body's own bindings, moves without snapping and reports the seat it would take. */
#include <string.h>

#include "place/align.h"
#include "place/mover.h"
#include "place/seat.h"
#include "place/support.h"

#define MAX_SUPPORTS (SNUG_BINDINGS_MAX * 8)

snug_move_def snug_default_move_def(void) {
    snug_move_def d;
    memset(&d, 0, sizeof d);
    d.target = snug_pose_identity();
    d.ray.tmax = INFINITY;
    d.internal_value = SNUG_DEF_MARK;
    return d;
}

static bool finite_pose(const snug_pose* p) {
    for (int i = 0; i < 4; i++)
        if (!isfinite(p->q[i])) return false;
    return isfinite(p->p[0]) && isfinite(p->p[1]) && isfinite(p->p[2]);
}

static snug_status check_def(snug_ctx* ctx, const snug_move_def* d) {
    if (snug_def_check_mark(ctx, d->internal_value, "move_def")) return SNUG_ERR_INVALID_ARGUMENT;
    if ((unsigned)d->mode >= SNUG_PLACE_MODE_COUNT || (unsigned)d->input >= SNUG_MOVE_INPUT_COUNT)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "move def: mode %d or input %d out of range", (int)d->mode,
                         (int)d->input);
    if (!isfinite(d->turn) || !isfinite(d->angle_step) || d->angle_step < 0.0f || d->angle_step > 3.2f)
        return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "move def: turn or angle step not finite or out of [0, pi]");
    /* the mover sweeps a turn in parts of 3 radians: one of 1e19 never ended (found by fuzz_place) */
    if (fabsf(d->turn) > 2.0f * (float)SNUG_PI)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "move def: turn %g beyond a whole turn (2 pi)", (double)d->turn);
    if (!finite_pose(&d->target)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "move def: target pose not finite");
    snug_status st;
    /* the accepted-input rules of every pose and point (snug.h) */
    if (d->input == SNUG_MOVE_TARGET && (st = snug_pose_check(ctx, &d->target, "move def target")) != SNUG_OK) return st;
    if (d->input == SNUG_MOVE_POINTER) {
        if ((st = snug_point_check(ctx, d->ray.origin, "move def ray origin")) != SNUG_OK ||
            (st = snug_point_check(ctx, d->ray.dir, "move def ray direction")) != SNUG_OK ||
            (st = snug_point_check(ctx, d->grab, "move def grab point")) != SNUG_OK)
            return st;
        if (!(dlen(dv(d->ray.dir)) > 0.0)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "move def: ray direction is zero");
    }
    return SNUG_OK;
}

static void store_binding_list(snug_place_scene* ps, const snug_scene_data* s, const snug_body_data* b,
                               snug_move_result* r) {
    snug_place_body* rec = snug_place_body_at(ps, s, b->slot);
    r->binding_count = rec ? rec->binding_count : 0;
    for (uint32_t i = 0; i < r->binding_count; i++) r->bindings[i] = rec->bindings[i];
}

/* The world pose of the group's body after a seat's motion. */
static snug_pose seat_pose(const snug_group* g, const snug_seat* seat) {
    dpose p = dpose_turn(g->members[0].pose, seat->turn, seat->pivot);
    p.p = dadd(p.p, seat->shift);
    return dpose_store(p);
}

/* Do other members rest on bodies outside the group? Then the group cannot jump to another offer. */
static bool others_bound(const snug_group* g) {
    for (uint32_t e = 0; e < g->ext_count; e++)
        if (g->ext[e].member != 0) return true;
    return false;
}

/* Is this seat where the binding rests now, or where its slide reaches (a coplanar offer it can pass onto,
 * support.c)? Then the pointer asks for a slide, not a jump. */
static snug_status on_current_support(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                                      const snug_seat* seat, bool* on) {
    *on = false;
    for (uint32_t e = 0; e < g->ext_count; e++) {
        const snug_ext_binding* x = &g->ext[e];
        if (x->member != 0 || x->b.binding != seat->b.binding) continue;
        if (x->b.supporter == seat->b.supporter && x->b.offer == seat->b.offer) {
            *on = true;
            return SNUG_OK;
        }
        if (1.0 - fabs(seat->turn.w) > 1e-12) continue;
        snug_support sp;
        snug_status st = snug_support_gather(ctx, s, ps, 0, g->members[0].mesh, &x->b, &sp);
        if (st) return st;
        /* reachable: supported all along the straight way there (in steps of a quarter of the polygon) */
        double len = dlen(seat->shift);
        uint32_t steps = (uint32_t)fmin(256.0, ceil(4.0 * len / sp.binding->radius)) + 1;
        bool along = true;
        for (uint32_t k = 1; k <= steps && along; k++) {
            dpose at = g->members[0].pose;
            at.p = dmadd(at.p, seat->shift, (double)k / steps);
            along = snug_support_holds(&sp, at, true);
        }
        if (along) {
            *on = true;
            return SNUG_OK;
        }
    }
    return SNUG_OK;
}

/* The offer under the pointer the body could take: the first body the ray meets outside the group, an offer of it
 * holding the hit point, and a binding surface of the body whose label fits. */
static snug_status pointer_seat(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                                const snug_move_def* def, bool* found, snug_seat* out) {
    *found = false;
    for (uint32_t i = 0; i < g->count; i++) g->members[i].body->enabled = false;
    snug_scene_hit hit;
    snug_status st = snug_scene_raycast(ctx, s->handle, &def->ray, 0xffffffffu, &hit);
    for (uint32_t i = 0; i < g->count; i++) g->members[i].body->enabled = true;
    if (st || hit.body == 0) return st;
    snug_body_data* h = snug_pool_get(&s->bodies, hit.body);
    snug_mesh_data* hm = h ? snug_pool_get(&ctx->meshes, h->mesh) : NULL;
    const snug_place_surfaces* hs = hm ? snug_mesh_surfaces(hm) : NULL;
    const snug_place_surfaces* bs = snug_mesh_surfaces(g->members[0].mesh);
    if (!hs || !bs) return SNUG_OK;
    dvec x = dv(hit.point), dir = dnorm(dv(def->ray.dir));
    const snug_seat_anchor anchor = {.rule = SNUG_SEAT_POINTER, .ray = def->ray, .grab = dv(def->grab)};
    double best = INFINITY;
    for (uint32_t a = 0; a < hs->count; a++) {
        const snug_place_surface* A = &hs->items[a];
        if (A->s.kind != SNUG_SURFACE_OFFER) continue;
        snug_world_surface Aw;
        snug_world_surface_at(A, dpose_f(&h->world), &Aw);
        if (ddot(Aw.n, dir) >= 0.0) continue; /* seen from behind */
        dvec d = dsub(x, Aw.origin);
        if (fabs(ddot(d, Aw.n)) > 1e-3 * (Aw.radius + g->radius)) continue;
        snug_poly2 poly;
        snug_world_surface_polygon(&Aw, &poly);
        if (!snug_poly2_contains(&poly, ddot(d, Aw.u), ddot(d, Aw.v), 1e-6 * Aw.radius)) continue;
        for (uint32_t b = 0; b < bs->count; b++) {
            if (bs->items[b].s.kind != SNUG_SURFACE_BINDING) continue;
            snug_seat seat;
            if (!snug_seat_find(ctx, s, ps, g, b, h, a, &anchor, false, &seat)) continue;
            /* the binding turned least wins: a die lands on the face that faces the offer */
            double turn = 1.0 - fabs(seat.turn.w);
            if (turn < best) best = turn, *out = seat, *found = true;
        }
    }
    bool on = false;
    if (*found && (st = on_current_support(ctx, s, ps, g, out, &on))) return st;
    if (on) *found = false;
    return SNUG_OK;
}

/* A snap: the seat is within the snap range. */
static bool in_snap_range(const snug_seat* seat, const snug_group* g, const snug_place_scene* ps) {
    return !(seat->distance > ps->def.snap_range * g->radius);
}

/* The nearest offers (within the snap range) whose prism holds an unbound binding surface of the body. */
static snug_status prism_seats(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                               snug_seat* seats, uint32_t cap, uint32_t* count) {
    double range = ps->def.snap_range * g->radius;
    dvec grow = dxyz(range, range, range);
    return snug_prism_seats(ctx, s, ps, g, dsub(g->lo, grow), dadd(g->hi, grow), true, in_snap_range, seats, cap, count);
}

/* Try seats in order; take the first the group is free at. Neighbouring seats are mostly blocked by the same
 * triangles, which are tried first. */
static snug_status take_first_free(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                                   const snug_seat* seats, uint32_t count, bool keep_others, bool apply,
                                   snug_move_result* r, bool* taken) {
    *taken = false;
    snug_overlap_hint hint = {0};
    for (uint32_t i = 0; i < count; i++) {
        bool free = false;
        snug_status st = snug_group_free_at(ctx, s, ps, g, seats[i].turn, seats[i].pivot, seats[i].shift,
                                            &seats[i].b, &free, NULL, &hint);
        if (st) return st;
        if (!free || !snug_group_in_range(g, seats[i].turn, seats[i].pivot, seats[i].shift)) continue;
        if (apply) {
            if ((st = snug_seat_take(ctx, s, ps, g, &seats[i], keep_others))) return st;
        } else {
            r->has_candidate = true;
            r->candidate = seats[i].b;
            r->candidate_pose = seat_pose(g, &seats[i]);
        }
        *taken = true;
        return SNUG_OK;
    }
    if (count && !r->has_candidate) {
        r->has_candidate = true;
        r->candidate = seats[0].b;
        r->candidate_pose = seat_pose(g, &seats[0]);
        if (apply) r->reasons |= SNUG_MOVE_SNAP_BLOCKED;
    }
    return SNUG_OK;
}

/* Pose p of the moved body put back onto the planes of its own supports, where it is off them by no more than float
 * poses keep (snug_plane_tolerance; a binding off its plane by more, after a surface edit, stays as it is): a pose
 * stored in float far out (a step of 3e-5 at 353 m) otherwise carried its rounding from move to move, and a block
 * moved 16 times on its table there drifted 1.9e-4 off the top (fuzz_place). */
static dpose onto_planes(const snug_scene_data* s, const snug_support* sp, uint32_t n, const snug_group* g, dpose p) {
    for (uint32_t i = 0; i < n; i++) {
        const snug_body_data* sup = snug_pool_get(&s->bodies, sp[i].pieces[0].supporter);
        if (sp[i].member != 0 || !sup) continue;
        const snug_world_surface* w = &sp[i].plane;
        double off = ddot(dsub(dpose_point(p, sp[i].binding->centroid), w->origin), w->n);
        double tol = snug_plane_tolerance(g->members[0].body, sup, w->radius, sp[i].binding->radius, dlen(w->origin));
        if (fabs(off) <= tol) p.p = dmadd(p.p, w->n, -off);
    }
    return p;
}

/* Do all supports hold, without the check's float allowance (placement stays inside it: snug_placement_margin),
 * after turning by q about pivot and moving by t? */
static bool supports_hold(const snug_support* sp, uint32_t n, const snug_group* g, dquat q, dvec pivot, dvec t) {
    for (uint32_t i = 0; i < n; i++) {
        dpose p = dpose_turn(g->members[sp[i].member].pose, q, pivot);
        p.p = dadd(p.p, t);
        if (!snug_support_holds(&sp[i], p, false)) return false;
    }
    return true;
}

/* The last fraction in [lo, hi] of a motion (a turn by angle about pivot, then a translation by from + t) at which
 * the supports hold, bisected from lo, where they hold, to hi, where they do not. */
static double last_supported(const snug_support* sp, uint32_t n, const snug_group* g, dvec axis, double angle,
                             dvec pivot, dvec from, dvec t, double lo, double hi) {
    for (int i = 0; i < 30; i++) {
        double mid = 0.5 * (lo + hi);
        if (supports_hold(sp, n, g, dq_axis_angle(axis, angle * mid), pivot, dmadd(from, t, mid))) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The largest fraction s of a motion (a turn by angle about pivot, then a translation by t) such that the supports
 * hold all along [0, s]: sampled in steps that move no polygon vertex more than a quarter of the smallest binding
 * polygon (holding is not monotonic: a square turned by 90 degrees fits again), then bisected in the first step
 * that fails. */
static double supported_fraction(const snug_support* sp, uint32_t n, const snug_group* g, dvec axis, double angle,
                                 dvec pivot, dvec from, dvec t) {
    if (n == 0) return 1.0;
    double reach = dlen(t), smallest = INFINITY;
    for (uint32_t i = 0; i < n; i++) {
        double arm = dlen(dsub(dpose_point(g->members[sp[i].member].pose, sp[i].binding->centroid), pivot));
        reach = fmax(reach, dlen(t) + fabs(angle) * (arm + sp[i].binding->radius));
        smallest = fmin(smallest, sp[i].binding->radius);
    }
    uint32_t steps = (uint32_t)fmin(64.0, ceil(4.0 * reach / smallest)) + 1;
    double good = 0.0;
    for (uint32_t k = 1; k <= steps; k++) {
        double s = (double)k / steps;
        if (supports_hold(sp, n, g, dq_axis_angle(axis, angle * s), pivot, dmadd(from, t, s))) {
            good = s;
            continue;
        }
        return last_supported(sp, n, g, axis, angle, pivot, from, t, good, s);
    }
    return 1.0;
}

/* The translation nearest to t that keeps every support (the group starts supported): t itself, a clamp into one
 * offer of one support, or the farthest point along t. */
static dvec clamp_to_supports(const snug_support* sp, uint32_t n, const snug_group* g, const snug_dof* dof, dvec t) {
    dvec o = dxyz(0, 0, 0), up = dxyz(0, 1, 0);
    double s = supported_fraction(sp, n, g, up, 0.0, o, o, t);
    if (s >= 1.0) return t;
    dvec best = dscale(t, s);
    double best_d = dlen(dsub(best, t));
    for (uint32_t i = 0; i < n; i++) {
        dvec c = snug_dof_project(dof, snug_support_clamp(&sp[i], g->members[sp[i].member].pose, t));
        double d = dlen(dsub(c, t));
        if (d < best_d && supported_fraction(sp, n, g, up, 0.0, o, o, c) >= 1.0) best = c, best_d = d;
    }
    return best;
}

/* The placement range (snug.h) as limits on the group's translation, so that the mover stops there as at an
 * offer's edge; a hair inside it, so that float poses round to no farther. */
static uint32_t range_limits(const snug_group* g, snug_limit* out) {
    const double r = snug_group_range(g) * (1.0 - 1e-6);
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < g->count; i++) {
        const double p[3] = {g->members[i].pose.p.x, g->members[i].pose.p.y, g->members[i].pose.p.z};
        for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], p[k]), hi[k] = fmax(hi[k], p[k]);
    }
    for (int k = 0; k < 3; k++) {
        dvec e = dxyz(k == 0, k == 1, k == 2);
        out[2 * k] = (snug_limit){dscale(e, -1.0), hi[k] - r}; /* t_k <= r - hi */
        out[2 * k + 1] = (snug_limit){e, -r - lo[k]};          /* t_k >= -r - lo */
    }
    return 6;
}

/* Free mode (IConS Alg. 4): the body's own bindings restrict nothing. It is lifted off them where there is room
 * (snug_lift_off); boxed in, it keeps them until the motion ends, when those that no longer hold go, but out of the
 * group's external bindings and out of what it rests by (ps->loose): resting by a binding kept, a table slid in free
 * mode off the top it stood on ended touching it, unbound (fuzz_place). */
static snug_status free_mode(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, snug_body_data* b, snug_group* g) {
    snug_status st = snug_lift_off(ctx, s, ps, b, g);
    if (st) return st;
    ps->loose = b->handle;
    uint32_t kept = 0;
    for (uint32_t e = 0; e < g->ext_count; e++)
        if (g->ext[e].member != 0) g->ext[kept++] = g->ext[e];
    g->ext_count = kept;
    return SNUG_OK;
}

static snug_status move(snug_ctx* ctx, snug_scene scene, snug_body body, const snug_move_def* def,
                        snug_move_result* result) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    if (!def || !result) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "body_move needs a def and a result");
    snug_status st = check_def(ctx, def);
    if (st) return st;
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    memset(result, 0, sizeof *result);
    bool constrained = def->mode == SNUG_PLACE_CONSTRAINED;
    bool left_there = false; /* the group ends where the mover's translation left it (snug_mover_seal) */
    snug_group g;
    if ((st = snug_group_gather(ctx, s, ps, b, &g)) || (st = snug_group_range_check(ctx, &g, "move"))) return st;
    if (!constrained && (st = free_mode(ctx, s, ps, b, &g))) return st;
    double skin = ps->def.skin * g.radius;
    dvec up = dv(ps->def.up);

    /* 1. re-seat under the pointer */
    bool pointer = def->input == SNUG_MOVE_POINTER;
    if (constrained && pointer && !others_bound(&g)) {
        bool found = false;
        snug_seat seat;
        if ((st = pointer_seat(ctx, s, ps, &g, def, &found, &seat))) return st;
        if (found) {
            bool taken = false;
            bool was_bound = false;
            for (uint32_t e = 0; e < g.ext_count; e++) was_bound |= g.ext[e].member == 0;
            if ((st = take_first_free(ctx, s, ps, &g, &seat, 1, false, true, result, &taken))) return st;
            if (taken) {
                result->reasons |= was_bound ? SNUG_MOVE_RESEATED : SNUG_MOVE_SNAPPED;
                if ((st = snug_group_gather(ctx, s, ps, b, &g))) return st;
                if ((st = snug_place_break_loose(ctx, s, ps, &g))) return st;
                goto done;
            }
        }
    }

    {
        /* degrees of freedom from the bindings outside the group and the orientation constraints */
        dvec normals[64], axes[128];
        uint32_t nn = 0, na = 0;
        for (uint32_t e = 0; e < g.ext_count && nn < 64; e++) {
            const snug_member* m = &g.members[g.ext[e].member];
            const snug_place_surfaces* bs = snug_mesh_surfaces(m->mesh);
            normals[nn++] = dnorm(dpose_dir(m->pose, dv(bs->items[g.ext[e].b.binding].s.normal)));
        }
        for (uint32_t i = 0; i < nn; i++) axes[na++] = normals[i];
        for (uint32_t i = 0; i < g.count && na < 128; i++) {
            snug_place_body* rec = snug_place_body_at(ps, s, g.members[i].body->slot);
            if (rec && rec->oriented) axes[na++] = dnorm(dv(rec->orient_world));
        }
        snug_dof dof = snug_dof_of(normals, nn);
        snug_turn turn = snug_turn_of(axes, na);
        result->allowed_axes = snug_dof_axes(&dof);
        if (turn.kind == SNUG_TURN_AXIS) dstore_f(turn.axis, result->turn_axis);
        if (turn.kind == SNUG_TURN_FREE) dstore_f(up, result->turn_axis);

        /* supports of the bindings outside the group, with the offers the motion may reach */
        dvec want_t;
        if (pointer) {
            dvec n = nn ? normals[0] : constrained ? up : dnorm(dscale(dv(def->ray.dir), -1.0));
            for (uint32_t e = 0; e < g.ext_count; e++)
                if (g.ext[e].member == 0) {
                    n = normals[e];
                    break;
                }
            dvec grab = dpose_point(g.members[0].pose, dv(def->grab));
            dvec o = dv(def->ray.origin), d = dv(def->ray.dir);
            double denom = ddot(d, n);
            double t = fabs(denom) > 1e-9 * dlen(d) ? ddot(dsub(grab, o), n) / denom : -1.0;
            want_t = t > 0.0 ? dsub(dmadd(o, d, t), grab) : dxyz(0, 0, 0);
        } else {
            want_t = dsub(dv(def->target.p), g.members[0].pose.p);
        }
        snug_support sp[MAX_SUPPORTS];
        uint32_t ns = 0;
        for (uint32_t e = 0; e < g.ext_count && ns < MAX_SUPPORTS; e++)
            if ((st = snug_support_gather(ctx, s, ps, g.ext[e].member, g.members[g.ext[e].member].mesh, &g.ext[e].b,
                                          &sp[ns++])))
                return st;
        bool supported = true;
        for (uint32_t i = 0; i < ns; i++) supported &= snug_support_holds(&sp[i], g.members[sp[i].member].pose, true);

        /* 2. turn */
        double angle = 0.0;
        dvec axis = turn.kind == SNUG_TURN_AXIS ? turn.axis : up;
        dquat target_rel = dq_identity();
        if (!pointer) target_rel = dq_mul(dq_f(def->target.q), dq_conj(g.members[0].pose.q));
        if (turn.kind == SNUG_TURN_AXIS) {
            angle = def->turn + dq_twist_angle(target_rel, axis);
        } else if (turn.kind == SNUG_TURN_FREE) {
            dquat q = dq_mul(dq_axis_angle(up, def->turn), target_rel);
            if (q.w < 0) q = (dquat){-q.x, -q.y, -q.z, -q.w};
            double sn = sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
            angle = 2.0 * atan2(sn, q.w);
            axis = sn > 1e-12 ? dxyz(q.x / sn, q.y / sn, q.z / sn) : up;
        } else {
            double asked = fabs(def->turn) + fabs(2.0 * acos(fmin(1.0, fabs(target_rel.w))));
            if (asked > 1e-9) result->reasons |= SNUG_MOVE_TURN_LOCKED;
        }
        if (turn.kind == SNUG_TURN_AXIS && !pointer) {
            double whole = 2.0 * acos(fmin(1.0, fabs(target_rel.w)));
            if (whole > fabs(dq_twist_angle(target_rel, axis)) + 1e-6) result->reasons |= SNUG_MOVE_CONSTRAINED;
        }
        if (fabs(angle) > 1e-12 && def->angle_step > 0.0f)
            angle = snug_turn_to_step(g.members[0].pose.q, axis, angle, def->angle_step);
        if (fabs(angle) > 1e-12) {
            dvec pivot = g.centre;
            for (uint32_t i = 0; i < ns; i++)
                if (sp[i].member == 0) {
                    pivot = dpose_point(g.members[0].pose, sp[i].binding->centroid);
                    break;
                }
            double part = supported ? supported_fraction(sp, ns, &g, axis, angle, pivot, dxyz(0, 0, 0), dxyz(0, 0, 0)) : 1.0;
            if (part < 1.0) {
                angle *= part;
                result->reasons |= SNUG_MOVE_CONTAINED;
            }
            snug_mover_out mo = {0};
            double turned = 0.0;
            if ((st = snug_mover_turn(ctx, s, ps, &g, pivot, axis, angle, skin, &turned, &mo))) return st;
            if (mo.turn_blocked) result->reasons |= SNUG_MOVE_TURN_BLOCKED;
            /* a turn stopped short ends between the samples that found the supports holding: where it ends must hold
             * as well, else it ends at the last angle that does (from 0, where they held). Found by the random room:
             * a lamp at a table's edge, turned 0.22 rad, held from 0.05 rad on, but a body stopped it at 0.01. Both
             * without slack, as the samples: a turn cut back to the slack's edge left a book bound there, and the
             * check's allowance, which grows with the offer's distance from the origin, failed it once its table was
             * carried toward the origin (the random room, seed 79) */
            if (supported && fabs(turned) > 1e-12 &&
                !supports_hold(sp, ns, &g, dq_axis_angle(axis, turned), pivot, dxyz(0, 0, 0))) {
                dvec still = dxyz(0, 0, 0);
                turned *= last_supported(sp, ns, &g, axis, turned, pivot, still, still, 0.0, 1.0);
                result->reasons |= SNUG_MOVE_CONTAINED;
            }
            if (!snug_group_in_range(&g, dq_axis_angle(axis, turned), pivot, dxyz(0, 0, 0))) {
                turned = 0.0;
                result->reasons |= SNUG_MOVE_CONTAINED;
            }
            for (uint32_t i = 0; i < mo.blocker_count && result->blocker_count < SNUG_MOVE_BLOCKERS_MAX; i++)
                result->blockers[result->blocker_count++] = mo.blockers[i];
            if (fabs(turned) > 1e-12) {
                snug_pose p = dpose_store(
                    onto_planes(s, sp, ns, &g, dpose_turn(g.members[0].pose, dq_axis_angle(axis, turned), pivot)));
                if ((st = snug_body_set_pose(ctx, scene, body, &p))) return st;
                snug_group_refresh(&g);
            }
            if (!pointer) want_t = dsub(dv(def->target.p), g.members[0].pose.p);
        }

        /* 3. translate: a support on one convex offer becomes the edges of its feasible region, limits the mover
         * slides along as it slides along bodies; a support over several offers is clamped before and checked along
         * the way after */
        dvec t = snug_dof_project(&dof, want_t);
        if (dlen(dsub(t, want_t)) > 1e-9 * (1.0 + dlen(want_t))) result->reasons |= SNUG_MOVE_CONSTRAINED;
        snug_limit limits[6 + MAX_SUPPORTS * (SNUG_SURFACE_MAX_VERTICES + 4)];
        uint32_t nl = range_limits(&g, limits); /* first: the mover keeps the first limits it can hold */
        bool pieced = false;
        for (uint32_t i = 0; supported && i < ns; i++) {
            if (sp[i].count > 1) {
                pieced = true;
                continue;
            }
            nl += snug_support_limits(&sp[i], g.members[sp[i].member].pose, limits + nl);
        }
        if (pieced) {
            dvec c = clamp_to_supports(sp, ns, &g, &dof, t);
            if (dlen(dsub(c, t)) > 1e-9 * (1.0 + dlen(t))) result->reasons |= SNUG_MOVE_CONTAINED;
            t = c;
        }
        if (dlen(t) > 0.0) {
            snug_mover_out mo = {0};
            dvec moved;
            if ((st = snug_mover_translate(ctx, s, ps, &g, &dof, limits, nl, t, skin, &moved, &mo))) return st;
            left_there = true;
            if (mo.blocked) result->reasons |= SNUG_MOVE_BLOCKED;
            if (mo.limited) result->reasons |= SNUG_MOVE_CONTAINED;
            if (mo.started_overlapping) result->reasons |= SNUG_MOVE_STARTED_OVERLAPPING;
            for (uint32_t i = 0; i < mo.blocker_count && result->blocker_count < SNUG_MOVE_BLOCKERS_MAX; i++)
                result->blockers[result->blocker_count++] = mo.blockers[i];
            /* a slide may leave the straight way the clamp checked: follow the way taken, leg by leg */
            for (uint32_t k = 1; pieced && k < mo.path_count; k++) {
                dvec from = mo.path[k - 1], leg = dsub(mo.path[k], from);
                double part = supported_fraction(sp, ns, &g, up, 0.0, dxyz(0, 0, 0), from, leg);
                if (part < 1.0) {
                    moved = dmadd(from, leg, part);
                    left_there = false;
                    result->reasons |= SNUG_MOVE_CONTAINED;
                    break;
                }
            }
            if (dlen(moved) > 0.0) {
                dpose p = g.members[0].pose;
                p.p = dadd(p.p, moved);
                snug_pose pf = dpose_store(onto_planes(s, sp, ns, &g, p));
                if ((st = snug_body_set_pose(ctx, scene, body, &pf))) return st;
                snug_group_refresh(&g);
            }
        }
        /* each binding rests on the piece of its support it overlaps most */
        for (uint32_t i = 0; i < ns; i++) {
            uint32_t piece = snug_support_main_piece(&sp[i], g.members[sp[i].member].pose);
            if (piece == 0) continue;
            snug_body_data* mb = g.members[sp[i].member].body;
            snug_place_body* rec = snug_place_body_at(ps, s, mb->slot);
            snug_binding list[SNUG_BINDINGS_MAX];
            uint32_t n = rec->binding_count;
            memcpy(list, rec->bindings, n * sizeof *list);
            const snug_ext_binding* e = &g.ext[i]; /* sp[i] was gathered for g.ext[i] */
            list[e->record].supporter = sp[i].pieces[piece].supporter;
            list[e->record].offer = sp[i].pieces[piece].offer;
            if ((st = snug_bindings_set(ctx, s, ps, mb, list, n))) return st;
        }
        if ((st = snug_group_gather(ctx, s, ps, b, &g))) return st;
        if ((st = snug_place_break_loose(ctx, s, ps, &g))) return st;

        /* 4. snap the body's free binding surfaces (constrained), or report the seat it would take (free) */
        if (!others_bound(&g)) {
            snug_seat seats[4];
            uint32_t count = 0;
            bool found = false;
            if (!constrained && pointer) {
                if ((st = pointer_seat(ctx, s, ps, &g, def, &found, &seats[0]))) return st;
                count = found ? 1 : 0;
            }
            if (!count && (st = prism_seats(ctx, s, ps, &g, seats, 4, &count))) return st;
            bool taken = false;
            if ((st = take_first_free(ctx, s, ps, &g, seats, count, true, constrained, result, &taken))) return st;
            if (taken && constrained) {
                left_there = false;
                result->reasons |= SNUG_MOVE_SNAPPED;
                if ((st = snug_group_gather(ctx, s, ps, b, &g))) return st;
            }
        }
    }
done:
    if (!constrained) { /* the bindings the free motion broke: those that no longer hold */
        snug_place_body* rec = snug_place_body_at(ps, s, b->slot);
        snug_binding kept[SNUG_BINDINGS_MAX];
        uint32_t n = 0;
        for (uint32_t i = 0; rec && i < rec->binding_count; i++)
            if (snug_binding_holds(ctx, s, ps, &rec->bindings[i], NULL, NULL)) kept[n++] = rec->bindings[i];
        if (rec && n < rec->binding_count && (st = snug_bindings_set(ctx, s, ps, b, kept, n))) return st;
    }
    snug_mover_seal(s, ps, left_there);
    result->pose = b->world;
    store_binding_list(ps, s, b, result);
    return snug_succeed(ctx);
}

/* A failed move leaves the scene as it was, as snug.h promises: the move runs journaled (journal.c) and is rolled
 * back on failure (found by fuzz_place: a move failing for memory after re-parenting left the floor with another
 * child count). */
snug_status snug_body_move(snug_ctx* ctx, snug_scene scene, snug_body body, const snug_move_def* def,
                           snug_move_result* result) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_journal_begin(s, ps);
    snug_status st = move(ctx, scene, body, def, result);
    ps->loose = 0;
    if (st) snug_place_rollback(s, ps);
    snug_place_journal_end(s, ps);
    return st;
}
