/* The mover: carry a group along a translation or a turn as far as the other bodies allow, in the manner of Box2D
 * v3's mover. Each round first COLLIDES (the planes of bodies already within two skins, from distance queries), then
 * SOLVES for the motion nearest the wanted one that closes in on none of those planes and stays in the bindings'
 * degrees of freedom, then CASTS the group along it (sweeps) and stops a skin before first contact (or, where a cast
 * meets nothing but ends within half a skin of a body, backs along it to a skin from that body). Keeping a skin
 * means no sweep ever starts in resting contact, which is where sweeps are slowest, and a push shorter than the
 * skin meets the plane in the solver instead of creeping. Bodies the group rests on (or that rest on it) are tested
 * with the group lifted a skin off their binding plane, and it never closes along that plane: resting is not a
 * collision, anything else is (a bottle on a desk still meets the desk's shelf). Pairs that overlap before the call
 * are left out, so a body that starts overlapping is never trapped; pairs that only touch keep a plane along which
 * they part (let_go). */
#include <string.h>

#include "ccd/ccd.h"
#include "place/mover.h"
#include "query/traverse.h"
#include "geom/tri.h"
#include "base/trig.h"

#define MAX_PLANES 32
#define NOT_MET UINT32_MAX

/* n . o >= c for the group's offset o from where the call started. */
typedef struct plane {
    dvec n;                           /* unit, from the other body towards the group */
    double c;
    const snug_body_data *body, *by;   /* the other body, and the member it faces */
    float point[3];                    /* on the other body */
    uint32_t met_at;                   /* the corner of the path where a cast met it (recalled: 0), else NOT_MET */
} plane;

typedef struct pair_state {
    bool excluded;                     /* overlapping before the call */
    bool unchecked;                    /* within two skins at the start, not yet known to be clear there */
    bool grazed;                       /* this round's sweep cannot vouch for the cast's end (snug_sweep_translation) */
    bool known;                        /* clear at the start: the last call ended there (recall) */
    bool held;                         /* found within two skins by a round of this call: its plane holds it */
    bool rest_known;                   /* rest holds the pair's rest lift where the call started */
    bool parting;                      /* touching where the call started, parted along `part` (touch_parting) */
    dvec rest, part;
} pair_state;

/* The offset that parts member m, where the call started, from c where they rest on each other (snug_rest_lift): the
 * same for every round, so found once. */
static dvec start_rest(snug_ctx* ctx, const snug_place_scene* ps, const snug_member* m, const snug_body_data* c,
                       pair_state* st, double skin) {
    if (!st->rest_known) st->rest = snug_rest_lift(ctx, ps, m->body, m->mesh, m->pose, c, SNUG_MOVER_LIFT * skin);
    st->rest_known = true;
    return st->rest;
}

static snug_pose pose_at(const snug_member* m, dvec offset) {
    dpose p = m->pose;
    p.p = dadd(p.p, offset);
    return dpose_store(p);
}

/* A member turned by q about pivot, then moved by offset. */
static snug_member moved_member(const snug_member* m, dquat q, dvec pivot, dvec offset) {
    snug_member r = *m;
    r.pose = dpose_turn(m->pose, q, pivot);
    r.pose.p = dadd(r.pose.p, offset);
    return r;
}

static void add_blocker(snug_mover_out* out, const snug_body_data* body, const snug_body_data* by, const float point[3],
                        dvec n) {
    for (uint32_t i = 0; i < out->blocker_count; i++)
        if (out->blockers[i].body == body->handle) return;
    if (out->blocker_count == SNUG_MOVE_BLOCKERS_MAX) return;
    snug_blocker* b = &out->blockers[out->blocker_count++];
    b->body = body->handle;
    b->by = by->handle;
    memcpy(b->point, point, sizeof b->point);
    dstore_f(n, b->normal);
}

/* Is the pair of member m and body c tested at all? */
static bool pair_tested(const snug_scene_data* s, const snug_member* m, const snug_body_data* c) {
    return snug_scene_pair_passes(s, m->body, c);
}

static double box_gap(dvec alo, dvec ahi, const float blo[3], const float bhi[3]) {
    double gx = fmax(0.0, fmax(blo[0] - ahi.x, alo.x - bhi[0]));
    double gy = fmax(0.0, fmax(blo[1] - ahi.y, alo.y - bhi[1]));
    double gz = fmax(0.0, fmax(blo[2] - ahi.z, alo.z - bhi[2]));
    return sqrt(gx * gx + gy * gy + gz * gz);
}

static void member_box(const snug_member* m, dvec offset, dvec* lo, dvec* hi) {
    float l[3], h[3];
    snug_pose p = pose_at(m, offset);
    snug_body_world_box(m->body, &p, l, h);
    *lo = dxyz(l[0], l[1], l[2]);
    *hi = dxyz(h[0], h[1], h[2]);
}

/* A world box around every pose of member m on its turn by angle about axis through pivot: each point's chord lies
 * in the hull of its boxes at both ends, and the arc within r (1 - cos(angle / 2)) of the chord (its sagitta; r:
 * the farthest the member's box reaches from the pivot). */
static void turned_box(const snug_member* m, dvec pivot, dvec axis, double angle, dvec* lo, dvec* hi) {
    dvec lo1, hi1;
    member_box(m, dxyz(0, 0, 0), lo, hi);
    snug_member end = moved_member(m, dq_axis_angle(axis, angle), pivot, dxyz(0, 0, 0));
    member_box(&end, dxyz(0, 0, 0), &lo1, &hi1);
    double r = 0.0;
    for (int i = 0; i < 8; i++) {
        dvec corner = dxyz(i & 1 ? hi->x : lo->x, i & 2 ? hi->y : lo->y, i & 4 ? hi->z : lo->z);
        r = fmax(r, dlen(dsub(corner, pivot)));
    }
    double half = fabs(angle) / 2.0;
    double pad = half >= SNUG_PI ? 2.0 * r : r * (1.0 - snug_cos(half));
    *lo = dxyz(fmin(lo->x, lo1.x) - pad, fmin(lo->y, lo1.y) - pad, fmin(lo->z, lo1.z) - pad);
    *hi = dxyz(fmax(hi->x, hi1.x) + pad, fmax(hi->y, hi1.y) + pad, fmax(hi->z, hi1.z) + pad);
}

/* Adds the planes of member m's resting relations with body c, where the call starts (once each: bodies resting the
 * same way on the group, or it on them, share one). The pair is tested half a skin apart along them, which hides as
 * much of an approach; a contact within two skins gives its plane in collide, but a pair may rest with none: a
 * table, unbound, with its binding rectangle over the floor's corner and all four feet past its edges. Asked up and
 * sideways, the floor rose 2.2e-4 while it slid 0.039 under a foot (fuzz_place). So a resting pair never closes along
 * its rest normal, touching or not. */
static void rest_planes(snug_ctx* ctx, snug_place_scene* ps, const snug_member* m, const snug_body_data* c,
                        plane* planes, uint32_t* plane_count) {
    snug_rest_relation rel[8];
    uint32_t count = snug_rest_relations(ctx, ps, m->body, m->mesh, m->pose, c, rel, 8);
    for (uint32_t j = 0; j < count; j++) {
        bool known = false;
        for (uint32_t i = 0; i < *plane_count && !known; i++)
            known = planes[i].body && planes[i].c == 0.0 && ddot(planes[i].n, rel[j].part) > 1.0 - 1e-12;
        if (known || *plane_count == MAX_PLANES) continue;
        plane* p = &planes[(*plane_count)++];
        *p = (plane){rel[j].part, 0.0, c, m->body, {0, 0, 0}, NOT_MET};
        dstore_f(rel[j].at, p->point);
    }
}

/* Is member m, moved by offset, within dist of body c? (d optional: the witness pair.) */
static snug_status within_at(snug_ctx* ctx, const snug_member* m, dvec offset, const snug_body_data* c, double dist,
                             bool* within, snug_distance_result* d) {
    snug_pose pm = pose_at(m, offset);
    return snug_within_witness(ctx, m->body->mesh, &pm, c->mesh, &c->world, (float)dist, within, d);
}

/* The unit normal, in the world, of the triangle with creation id `id` of mesh m standing at pose (zero when it is
 * degenerate). Found by a scan of the slots: asked only for a pair touching where a move starts. */
static dvec face_normal(const snug_mesh_data* m, uint32_t id, const snug_pose* pose) {
    float n[3] = {0, 0, 0};
    uint32_t slot = 0;
    while (slot < m->tri_count && m->tri_ids[slot] != id) slot++;
    if (slot < m->tri_count) {
        const float* v0 = snug_mesh_vertex(m, slot, 0);
        snug_tri_unit_normal(v0, v0, snug_mesh_vertex(m, slot, 1), snug_mesh_vertex(m, slot, 2), n);
    }
    return dpose_dir(dpose_f(pose), dv(n));
}

/* Member m at offset touches body c (mesh cm, witness d): does it part from c, as the overlap test judges (the start
 * tests' judgement), when lifted off by `lift` along the line between the witness points, or else along the normal
 * of one of the witness triangles (turned to face m's centre)? Then the pair only touches, and *part is the
 * direction along which it may slide or part but not close in; otherwise it overlaps. */
static snug_status touch_parting(snug_ctx* ctx, const snug_member* m, dvec offset, const snug_body_data* c,
                                 const snug_mesh_data* cm, const snug_distance_result* d, double lift, dvec* part,
                                 bool* parts) {
    *parts = false;
    dvec lo, hi;
    member_box(m, offset, &lo, &hi);
    dvec towards = dsub(dscale(dadd(lo, hi), 0.5), dv(d->point_b));
    snug_pose at = pose_at(m, offset);
    for (int k = 0; k < 3 && !*parts; k++) {
        dvec n = k == 0 ? dsub(dv(d->point_a), dv(d->point_b))
                        : k == 1 ? face_normal(cm, d->tri_b, &c->world) : face_normal(m->mesh, d->tri_a, &at);
        if (!(dlen(n) > 0.0)) continue;
        *part = dscale(dnorm(n), ddot(n, towards) < 0.0 ? -1.0 : 1.0);
        snug_pose lifted = pose_at(m, dmadd(offset, *part, lift));
        bool hit = true;
        snug_tri_pair pair;
        snug_status st = snug_mesh_overlap(ctx, m->body->mesh, &lifted, c->mesh, &c->world, &hit, &pair);
        if (st) return st;
        *parts = !hit;
    }
    return SNUG_OK;
}

/* Lets go of a pair found touching or overlapping where the call starts (member m at offset, body c, witness d
 * when the caller has one): out of the casts, whose sweeps would meet it at once and trap it. A pair that only
 * touches keeps a plane along which it parts (touch_parting; collide adds it), so that it slides or parts but does
 * not close in: let go whole, a block flush against another was dragged 0.1 into it. A pair that overlaps is let go
 * whole, never trapped, and reported. */
static snug_status let_go(snug_ctx* ctx, const snug_place_scene* ps, const snug_member* m, dvec offset,
                          const snug_body_data* c, const snug_distance_result* d, pair_state* st,
                          snug_mover_out* out) {
    st->excluded = true;
    snug_mesh_data* cm = snug_mesh_lookup(ctx, c->mesh);
    if (!cm) return SNUG_ERR_STALE_HANDLE;
    /* the lift that parts a resting pair in the check */
    double lift = snug_contact_lift(ps, m->body, m->mesh, c, cm);
    snug_status r = SNUG_OK;
    snug_distance_result w;
    if (!d) { /* the overlap tests and the sweeps' start allow the meshes' tolerance: a witness within a lift */
        bool within = false;
        if ((r = within_at(ctx, m, offset, c, lift, &within, &w))) return r;
        d = within ? &w : NULL;
    }
    if (d) r = touch_parting(ctx, m, offset, c, cm, d, lift, &st->part, &st->parting);
    if (!st->parting) out->started_overlapping = true;
    return r;
}

/* Adds the planes of the bodies within two skins of the group at offset. A pair whose witness touches is excluded;
 * at the start of the call (first) the others are left unchecked, for the first cast's sweeps to settle (or
 * check_start when there is no cast); and the resting pairs' planes are added (rest_planes). */
static snug_status collide(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                           snug_body_data** near, uint32_t near_count, pair_state* pairs, dvec offset, bool first,
                           double skin, plane* planes, uint32_t* plane_count, snug_mover_out* out) {
    for (uint32_t i = 0; i < g->count; i++) {
        const snug_member* m = &g->members[i];
        dvec lo, hi;
        member_box(m, offset, &lo, &hi);
        for (uint32_t k = 0; k < near_count; k++) {
            pair_state* st = &pairs[(size_t)i * near_count + k];
            snug_body_data* c = near[k];
            if (st->excluded || !pair_tested(s, m, c)) continue;
            float clo[3], chi[3];
            snug_body_world_box(c, &c->world, clo, chi);
            if (box_gap(lo, hi, clo, chi) > 2.0 * skin) continue;
            dvec lift = start_rest(ctx, ps, m, c, st, skin);
            /* the first pair the search finds within two skins, not the closest: its plane is a linearisation of
             * a curved contact either way, the casts keep the skin, and the exact distance between two fine
             * meshes in near contact costs a hundred times more */
            bool within = false;
            snug_distance_result d;
            snug_status r = within_at(ctx, m, dadd(offset, lift), c, 2.0 * skin, &within, &d);
            if (r) return r;
            if (!within) continue;
            st->held = true;
            dvec pa = dv(d.point_a), pb = dv(d.point_b);
            double dist = dlen(dsub(pa, pb));
            if (first && st->known) {
                /* as the last call left it */
            } else if (!(dist > 0.0) && first) {
                /* touching before any motion of ours: let it go (let_go). A witness apart, however near (two tables
                 * left 2e-6 apart, within the meshes' touching tolerance), leaves a plane that holds the pair apart,
                 * and a pair overlapping elsewhere all the same is let go by the casts' test of their start: let go
                 * here, the table was dragged into the other (the random room, seed 158) */
                if ((r = let_go(ctx, ps, m, dadd(offset, lift), c, &d, st, out))) return r;
                continue;
            } else if (!(dist > 0.0)) {
                /* touching where a cast of ours left it, with no plane to give: the sweeps go on testing it. A book
                 * carried over another chair's seat, flush with its own, touches it there while the rest lift of
                 * the call's start still says it rests on neither; let go, the next round took it into that
                 * chair's back (the random room, seed 160) */
                continue;
            } else if (first) {
                st->unchecked = true;
            }
            /* where a resting pair's witness is its resting contact, the plane is the support's: the witness
             * points, half a skin apart in floats a metre out, point anywhere within ~1e-3 rad of it, and a block
             * pushed 0.61 m along a table tilted by 0.0034 rad sank 0.08 mm into it (fuzz_place). A witness
             * elsewhere (a book against a shelf's side) keeps its own plane. */
            dvec n = dscale(dsub(pa, pb), 1.0 / dist);
            if (dlen(lift) > 0.0) {
                dvec rest = dnorm(lift);
                if (ddot(n, rest) > 0.999) n = rest;
            }
            /* the pair closes in no further along it: the witness is the first found, not the closest, so its
             * distance says nothing of the gap. A plane letting the pair close to a skin at the witness took a
             * table, turned 0.002 rad against the floor's edge it stood beside, from 1.2 mm to touching at its
             * other leg, where the sweeps and the guard see no contact and the check an overlap (fuzz_place) */
            if (*plane_count < MAX_PLANES)
                planes[(*plane_count)++] = (plane){n, ddot(n, offset), c, m->body,
                                                   {d.point_b[0], d.point_b[1], d.point_b[2]}, NOT_MET};
        }
    }
    if (first) /* of the pairs left in, and the touching ones' parting planes */
        for (uint32_t i = 0; i < g->count; i++)
            for (uint32_t k = 0; k < near_count; k++) {
                const pair_state* st = &pairs[(size_t)i * near_count + k];
                if (st->parting && *plane_count < MAX_PLANES)
                    planes[(*plane_count)++] = (plane){st->part, ddot(st->part, offset), near[k], g->members[i].body,
                                                       {0, 0, 0}, NOT_MET};
                if (!st->excluded && pair_tested(s, &g->members[i], near[k]))
                    rest_planes(ctx, ps, &g->members[i], near[k], planes, plane_count);
            }
    return SNUG_OK;
}

/* The overlap test of the pairs left unchecked at the start of the call (the first round ends without a cast):
 * excludes those that overlap; *any when one did. */
static snug_status check_start(snug_ctx* ctx, snug_place_scene* ps, const snug_group* g,
                               snug_body_data** near, uint32_t near_count, pair_state* pairs, double skin, bool* any,
                               snug_mover_out* out) {
    *any = false;
    for (uint32_t i = 0; i < g->count; i++)
        for (uint32_t k = 0; k < near_count; k++) {
            pair_state* st = &pairs[(size_t)i * near_count + k];
            if (!st->unchecked) continue;
            st->unchecked = false;
            const snug_member* m = &g->members[i];
            snug_body_data* c = near[k];
            dvec rest = start_rest(ctx, ps, m, c, st, skin);
            snug_pose pm = pose_at(m, rest);
            bool hit = false;
            snug_tri_pair pair;
            snug_status r = snug_mesh_overlap(ctx, m->body->mesh, &pm, c->mesh, &c->world, &hit, &pair);
            if (r) return r;
            if (hit) {
                *any = true;
                if ((r = let_go(ctx, ps, m, rest, c, NULL, st, out))) return r;
            }
        }
    return SNUG_OK;
}

/* Does a member, turned by q about pivot and moved by offset, overlap a body it may not touch? (*who names the
 * pair.) The guard behind the casts: a sweep that starts within a few tolerances of a face and grazes along it can
 * miss the contact (ccd/sweep.c's crossing window), so the end of a cast is checked statically, for the pairs whose
 * sweeps grazed when grazed_only (a translation's sweeps tell), else for all (a turn's root search samples). pairs
 * may be NULL (none excluded). */
static snug_status overlapping_at(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                                  snug_body_data** near, uint32_t near_count, pair_state* pairs, bool grazed_only,
                                  dquat q, dvec pivot, dvec offset, double skin, bool* overlap,
                                  const snug_body_data** who, const snug_body_data** by) {
    *overlap = false;
    for (uint32_t i = 0; i < g->count; i++) {
        const snug_member mm = moved_member(&g->members[i], q, pivot, offset);
        const snug_member* m = &mm;
        dvec lo, hi;
        member_box(m, dxyz(0, 0, 0), &lo, &hi);
        for (uint32_t k = 0; k < near_count; k++) {
            snug_body_data* c = near[k];
            pair_state* pair_st = pairs ? &pairs[(size_t)i * near_count + k] : NULL;
            if (pair_st && pair_st->excluded) continue;
            if (!pair_tested(s, m, c)) continue;
            float clo[3], chi[3];
            snug_body_world_box(c, &c->world, clo, chi);
            if (box_gap(lo, hi, clo, chi) > 0.0) continue;
            /* a sweep that did not graze saw no contact on its way, lifted as the pair rested where it started:
             * where that rest ends (a table slid off the top it stood on, its legs still on it, fuzz_place),
             * touching is a contact the sweep did not look for */
            bool vouched = pair_st && grazed_only && !pair_st->grazed;
            dvec was = vouched ? start_rest(ctx, ps, &g->members[i], c, pair_st, skin) : dxyz(0, 0, 0);
            if (vouched && !(dlen(was) > 0.0)) continue;
            dvec lift = snug_rest_lift(ctx, ps, m->body, m->mesh, m->pose, c, SNUG_MOVER_LIFT * skin);
            if (vouched && dlen(dsub(lift, was)) <= 1e-9 * skin) continue;
            snug_pose pm = pose_at(m, lift);
            bool hit = false;
            snug_tri_pair pair;
            snug_status st = snug_mesh_overlap(ctx, m->body->mesh, &pm, c->mesh, &c->world, &hit, &pair);
            if (st) return st;
            if (hit) {
                *overlap = true;
                *who = c;
                *by = m->body;
                return SNUG_OK;
            }
        }
    }
    return SNUG_OK;
}

/* The last fraction of a motion (a turn by angle * f about pivot, then a shift by offset + x * f) in [0, hi] at which
 * the group is still free, bisected from hi, where it overlaps (overlapping_at): the casts' guard found a missed
 * contact there. */
static snug_status last_free(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                             snug_body_data** near, uint32_t near_count, pair_state* pairs, dvec axis,
                             double angle, dvec pivot, dvec offset, dvec x, double hi, double skin, double* free) {
    double lo = 0.0;
    for (int it = 0; it < 20; it++) {
        double mid = 0.5 * (lo + hi);
        bool o = false;
        const snug_body_data *w1, *w2;
        dquat q = angle == 0.0 ? dq_identity() : dq_axis_angle(axis, angle * mid);
        snug_status st = overlapping_at(ctx, s, ps, g, near, near_count, pairs, false, q, pivot, dmadd(offset, x, mid),
                                        skin, &o, &w1, &w2);
        if (st) return st;
        if (o) hi = mid;
        else lo = mid;
    }
    *free = lo;
    return SNUG_OK;
}

/* Member m at fraction f of a motion: turned by angle * f about axis through pivot, then shifted by offset + x * f. */
static snug_member member_along(const snug_member* m, dvec axis, double angle, dvec pivot, dvec offset, dvec x,
                                double f) {
    dquat q = angle == 0.0 ? dq_identity() : dq_axis_angle(axis, angle * f);
    return moved_member(m, q, pivot, dmadd(offset, x, f));
}

/* How much of a motion (a cast, or a turn; as last_free's), which ends at fraction *u, keeps every pair a skin apart
 * that was so where it started: the sweeps look for contact, not for a skin, so a motion can end a hair from a body
 * it never met (a table dragged 4.4 cm carried its lamp's shade over the top of a desk's shelf side at the shade's
 * own height, 2e-6 above it: the random room, seed 373; a desk stopped by another body passed under a lamp's shade
 * so, seed 397). A pair that ends within half a skin backs the group along the motion, whose path was swept free, to
 * where it comes within a skin (bisected); *u, and in *hit the pair that set it (hit->hit false when none). Pairs a
 * round found within two skins are the planes' to hold, and resting pairs slide on their rest (testing them as well
 * cost 60-80 % more instructions on the bench's drag paths). pairs may be NULL (a turn: none excluded or held). */
static snug_status end_clear(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                             snug_body_data** near, uint32_t near_count, pair_state* pairs, dvec axis, double angle,
                             dvec pivot, dvec offset, dvec x, double skin, double* u, snug_toi_result* hit,
                             const snug_body_data** who, const snug_body_data** by) {
    hit->hit = false;
    const dvec zero = dxyz(0, 0, 0);
    for (uint32_t i = 0; i < g->count; i++) {
        const snug_member* m = &g->members[i];
        snug_member end = member_along(m, axis, angle, pivot, offset, x, *u); /* again when *u moves */
        dvec lo, hi;
        member_box(&end, zero, &lo, &hi);
        for (uint32_t k = 0; k < near_count; k++) {
            snug_body_data* c = near[k];
            pair_state* pst = pairs ? &pairs[(size_t)i * near_count + k] : NULL;
            if ((pst && (pst->excluded || pst->held)) || !pair_tested(s, m, c)) continue;
            float clo[3], chi[3];
            snug_body_world_box(c, &c->world, clo, chi);
            if (box_gap(lo, hi, clo, chi) > 0.5 * skin) continue;
            dvec rest = pst ? start_rest(ctx, ps, m, c, pst, skin)
                            : snug_rest_lift(ctx, ps, m->body, m->mesh, m->pose, c, SNUG_MOVER_LIFT * skin);
            if (dlen(rest) > 0.0) continue;
            bool within = false;
            snug_distance_result d;
            snug_status st = within_at(ctx, &end, zero, c, 0.5 * skin, &within, &d);
            if (st) return st;
            if (!within) continue;
            dvec gap = dsub(dv(d.point_a), dv(d.point_b));
            double dist = dlen(gap);
            if (!(dist > 0.0)) continue; /* touching: the guard behind the casts tests it */
            dvec n = dscale(gap, 1.0 / dist);
            snug_member at = member_along(m, axis, angle, pivot, offset, x, 0.0);
            if ((st = within_at(ctx, &at, zero, c, skin, &within, NULL))) return st;
            if (within) continue;
            double free = 0.0, close = *u;
            for (int it = 0; it < 12; it++) {
                double mid = 0.5 * (free + close);
                at = member_along(m, axis, angle, pivot, offset, x, mid);
                if ((st = within_at(ctx, &at, zero, c, skin, &within, NULL))) return st;
                if (within) close = mid;
                else free = mid;
            }
            *u = free;
            hit->hit = true;
            dstore_f(n, hit->normal);
            memcpy(hit->point, d.point_b, sizeof hit->point);
            *who = c;
            *by = m->body;
            end = member_along(m, axis, angle, pivot, offset, x, *u);
            member_box(&end, zero, &lo, &hi);
        }
    }
    return SNUG_OK;
}

/* The offset nearest to want that keeps every plane and the degrees of freedom (Gauss-Seidel projections, as
 * Box2D's plane solver), or the current offset when none does or the way there turns against the wanted motion. */
static dvec solve(const snug_dof* dof, dvec offset, dvec want, const plane* planes, uint32_t count) {
    dvec o = dadd(offset, snug_dof_project(dof, dsub(want, offset)));
    for (int iter = 0; iter < 20; iter++) {
        double worst = 0.0;
        for (uint32_t i = 0; i < count; i++) {
            double v = ddot(planes[i].n, o) - planes[i].c;
            if (v < 0.0) {
                o = dmadd(o, planes[i].n, -v);
                if (-v > worst) worst = -v;
            }
        }
        o = dadd(offset, snug_dof_project(dof, dsub(o, offset)));
        if (worst < 1e-12) break;
    }
    for (uint32_t i = 0; i < count; i++)
        if (ddot(planes[i].n, o) < planes[i].c - 1e-9) return offset;
    return ddot(dsub(o, offset), dsub(want, offset)) > 0.0 ? o : offset;
}

/* The fraction of cast x at which the group stops a skin short of a contact met at t, along the contact's normal n
 * (towards the group): a skin along the cast would leave a cast grazing a chair's back a fraction of a skin from it,
 * and drag after drag closed in on it so, to touching (the random room, seeds 150 and 324). A cast that closes less
 * than a skin along n does not move. */
static double stop_short(double t, dvec x, dvec n, double skin) {
    double closing = -ddot(n, x);
    return closing > skin ? fmax(0.0, t - skin / closing) : 0.0;
}

/* Undo a first round that met pairs overlapping at the start: its planes and what it reported. */
static void forget_round(snug_mover_out* out, uint32_t* plane_count, uint32_t limit_planes) {
    *plane_count = limit_planes;
    out->blocked = out->limited = false;
    out->blocker_count = 0;
}

/* Where the last call left a lone body, pressed against contacts and clear of its neighbours, for
 * the next call while nothing has moved, bit for bit: a drag pushing into a wedge meets the same contact at every
 * event, and the cast that found it again (starting a skin from a fine mesh) or the overlap test of the start was a
 * drag's costliest work (the dragon at a desk's edge: 1 ms per event, natively). Contacts become planes while their
 * body is where it was and still collides; neighbours where they were need no test of the start. */
static void recall(snug_scene_data* s, snug_place_scene* ps, const snug_group* g, snug_body_data** near,
                   uint32_t near_count, pair_state* pairs, plane* planes, uint32_t* plane_count) {
    const snug_mover_memory* mem = &ps->memory;
    const snug_body_data* b = g->members[0].body;
    if (!mem->sealed || g->count != 1 || b->handle != mem->member ||
        memcmp(&b->world, &mem->member_pose, sizeof b->world))
        return;
    for (uint32_t i = 0; i < mem->contact_count && *plane_count < MAX_PLANES; i++) {
        const snug_mover_contact* k = &mem->contacts[i];
        const snug_body_data* body = snug_pool_get(&s->bodies, k->body);
        if (!body || memcmp(&body->world, &k->body_pose, sizeof k->body_pose) || !snug_scene_pair_passes(s, b, body))
            continue;
        plane* p = &planes[(*plane_count)++];
        p->n = k->n, p->c = k->c, p->body = body, p->by = b, p->met_at = 0;
        memcpy(p->point, k->point, sizeof p->point);
    }
    const snug_mover_neighbour* was = (const snug_mover_neighbour*)mem->neighbours.data;
    for (uint32_t k = 0; k < near_count; k++)
        for (uint32_t j = 0; j < mem->neighbour_count; j++)
            if (was[j].body == near[k]->handle && !memcmp(&was[j].pose, &near[k]->world, sizeof was[j].pose)) {
                pairs[k].known = true;
                break;
            }
}

/* Keeps what the group ends pressed against (planes met where it ends: no motion after them) and its neighbours for
 * the next call (recall), pending until move.c seals them. A plane the group slid along afterwards is left behind:
 * beyond the contact that made it (a table's side, past its end) it would stop motion nothing stops. */
static snug_status remember(snug_ctx* ctx, snug_place_scene* ps, const snug_group* g, snug_body_data** near,
                            uint32_t near_count, const pair_state* pairs, const plane* planes, uint32_t plane_count,
                            dvec offset, uint32_t end) {
    snug_mover_memory* mem = &ps->memory;
    mem->pending = mem->sealed = false;
    if (g->count != 1) return SNUG_OK;
    snug_status st = snug_buffer_reserve(ctx, &mem->neighbours, (size_t)near_count * sizeof(snug_mover_neighbour) + 1, 0);
    if (st) return st;
    /* a pair overlapping at the start may or may not overlap where the group ends: left to the next call's test */
    snug_mover_neighbour* n = (snug_mover_neighbour*)mem->neighbours.data;
    mem->neighbour_count = 0;
    for (uint32_t k = 0; k < near_count; k++)
        if (!pairs[k].excluded) n[mem->neighbour_count++] = (snug_mover_neighbour){near[k]->handle, near[k]->world};
    mem->member = g->members[0].body->handle;
    mem->contact_count = 0;
    for (uint32_t i = 0; i < plane_count && mem->contact_count < SNUG_MOVER_MEMORY_CONTACTS; i++) {
        if (planes[i].met_at != end) continue;
        snug_mover_contact* k = &mem->contacts[mem->contact_count++];
        k->n = planes[i].n, k->c = planes[i].c - ddot(planes[i].n, offset);
        k->body = planes[i].body->handle, k->body_pose = planes[i].body->world;
        memcpy(k->point, planes[i].point, sizeof k->point);
    }
    mem->pending = true;
    return SNUG_OK;
}

void snug_mover_seal(snug_scene_data* s, snug_place_scene* ps, bool left_there) {
    snug_mover_memory* mem = &ps->memory;
    const snug_body_data* b = snug_pool_get(&s->bodies, mem->member);
    mem->sealed = mem->pending && left_there && b;
    mem->pending = false;
    if (mem->sealed) mem->member_pose = b->world; /* where the call left it */
}

snug_status snug_mover_translate(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                                 const snug_dof* dof, const snug_limit* limits, uint32_t limit_count, dvec want,
                                 double skin, dvec* moved, snug_mover_out* out) {
    *moved = dxyz(0, 0, 0);
    double reach = dlen(want) + 2.0 * skin;
    dvec grow = dxyz(reach, reach, reach);
    snug_body_data** near;
    uint32_t near_count;
    snug_status st = snug_group_neighbours(ctx, s, ps, g, dsub(g->lo, grow), dadd(g->hi, grow), &near, &near_count);
    if (st) return st;
    if ((st = snug_buffer_reserve(ctx, &ps->pairs, (size_t)g->count * near_count * sizeof(pair_state) + 1, 0)))
        return st;
    pair_state* pairs = (pair_state*)ps->pairs.data;
    memset(pairs, 0, (size_t)g->count * near_count * sizeof *pairs);
    dvec offset = {0, 0, 0};
    plane planes[MAX_PLANES];
    uint32_t plane_count = 0; /* kept through the rounds: a plane met by a cast still holds while sliding on */
    for (uint32_t i = 0; i < limit_count && plane_count < MAX_PLANES; i++)
        planes[plane_count++] = (plane){limits[i].n, limits[i].c, NULL, NULL, {0, 0, 0}, NOT_MET};
    recall(s, ps, g, near, near_count, pairs, planes, &plane_count);
    out->path_count = 1;
    out->path[0] = offset;
    uint32_t limit_planes = plane_count;
    dvec collided = offset;
    for (uint32_t round = 0; round < ps->def.max_slides;) {
        /* a round after a cast that did not move would find the same planes again: its plane is the news */
        bool same = round > 0 && collided.x == offset.x && collided.y == offset.y && collided.z == offset.z;
        if (!same && (st = collide(ctx, s, ps, g, near, near_count, pairs, offset, round == 0, skin, planes,
                                   &plane_count, out)))
            break;
        collided = offset;
        dvec x = dsub(solve(dof, offset, want, planes, plane_count), offset);
        /* planes the wanted motion would cross stop it: a body's blocks it (reported as a cast's hit would be), a
         * limit's contains it */
        for (uint32_t p = 0; p < plane_count; p++)
            if (ddot(planes[p].n, dadd(offset, snug_dof_project(dof, dsub(want, offset)))) < planes[p].c - 1e-9 * skin) {
                if (!planes[p].body) {
                    out->limited = true;
                    continue;
                }
                out->blocked = true;
                add_blocker(out, planes[p].body, planes[p].by, planes[p].point, planes[p].n);
            }
        double len = dlen(x);
        bool again = false; /* pairs found overlapping at the start: the first round again without them */
        if (len < 1e-12) {
            if (round == 0 && (st = check_start(ctx, ps, g, near, near_count, pairs, skin, &again, out))) break;
            if (!again) break;
            forget_round(out, &plane_count, limit_planes);
            continue;
        }
        double best_t = 1.0;
        snug_toi_result hit;
        const snug_body_data *hit_body = NULL, *hit_by = NULL;
        float xf[3];
        dstore_f(x, xf);
        for (uint32_t i = 0; i < g->count && !st; i++) {
            const snug_member* m = &g->members[i];
            dvec lo, hi, lo2, hi2;
            member_box(m, offset, &lo, &hi);
            member_box(m, dadd(offset, x), &lo2, &hi2);
            lo = dxyz(fmin(lo.x, lo2.x), fmin(lo.y, lo2.y), fmin(lo.z, lo2.z));
            hi = dxyz(fmax(hi.x, hi2.x), fmax(hi.y, hi2.y), fmax(hi.z, hi2.z));
            for (uint32_t k = 0; k < near_count; k++) {
                snug_body_data* c = near[k];
                pair_state* pst = &pairs[(size_t)i * near_count + k];
                pst->grazed = false;
                if (pst->excluded || !pair_tested(s, m, c)) continue;
                float clo[3], chi[3];
                snug_body_world_box(c, &c->world, clo, chi);
                if (box_gap(lo, hi, clo, chi) > skin) {
                    pst->unchecked = false; /* apart at the start too */
                    continue;
                }
                snug_pose pm = pose_at(m, dadd(offset, start_rest(ctx, ps, m, c, pst, skin)));
                snug_toi_result r;
                /* an unchecked pair's sweep settles its start on the way: the overlap test would traverse the
                 * same contact a second time */
                snug_sweep_start start;
                if ((st = snug_sweep_translation(ctx, m->body->mesh, &pm, xf, c->mesh, &c->world, &r,
                                                 pst->unchecked ? &start : NULL, &pst->grazed)))
                    break;
                if (pst->unchecked && start.known) {
                    pst->unchecked = false;
                    if (start.overlap && (st = let_go(ctx, ps, m, dadd(offset, start_rest(ctx, ps, m, c, pst, skin)),
                                                      c, NULL, pst, out)))
                        break;
                    again |= start.overlap;
                }
                if (r.hit && r.t < best_t) best_t = r.t, hit = r, hit_body = c, hit_by = m->body;
            }
        }
        if (st) break;
        if (round == 0) { /* what the sweeps left unsettled (cut short by their budget) */
            bool more = false;
            if ((st = check_start(ctx, ps, g, near, near_count, pairs, skin, &more, out))) break;
            again |= more;
        }
        if (again) {
            forget_round(out, &plane_count, limit_planes);
            continue;
        }
        /* a contact within a skin and a tenth ahead, where the last event or round left the group pressed
         * against it (a drag pushing on along another direction meets it a little more than a skin ahead): stay.
         * The offset is where the group already is, clear of what it did not overlap, so the static guard (a
         * traversal of the whole contact, as costly as a third of the sweep) has nothing to check */
        double u = hit_body ? stop_short(best_t, x, dnorm(dv(hit.normal)), skin) : 1.0;
        if (hit_body && u * len < 0.1 * skin) u = 0.0;
        bool overlap = false;
        const snug_body_data *o_body = NULL, *o_by = NULL;
        if (u > 0.0 && (st = overlapping_at(ctx, s, ps, g, near, near_count, pairs, true, dq_identity(), g->centre,
                                            dmadd(offset, x, u), skin, &overlap, &o_body, &o_by)))
            break;
        if (overlap) { /* a missed contact: the last free point of this cast, a skin short of it */
            double lo;
            if ((st = last_free(ctx, s, ps, g, near, near_count, pairs, x, 0.0, g->centre, offset, x, u, skin, &lo)))
                break;
            best_t = lo;
            snug_distance_result d;
            hit_body = o_body, hit_by = o_by;
            memset(&hit, 0, sizeof hit);
            for (uint32_t i = 0; i < g->count; i++)
                if (g->members[i].body == o_by) {
                    snug_pose at = pose_at(&g->members[i], dmadd(offset, x, lo));
                    if ((st = snug_mesh_distance(ctx, o_by->mesh, &at, o_body->mesh, &o_body->world, &d))) break;
                    dvec nn = dsub(dv(d.point_a), dv(d.point_b));
                    dstore_f(dlen(nn) > 0.0 ? dnorm(nn) : dscale(dnorm(x), -1.0), hit.normal);
                    memcpy(hit.point, d.point_b, sizeof hit.point);
                }
            if (st) break;
            u = stop_short(best_t, x, dnorm(dv(hit.normal)), skin);
        }
        if (u > 0.0) {
            snug_toi_result end;
            const snug_body_data *end_body = NULL, *end_by = NULL;
            if ((st = end_clear(ctx, s, ps, g, near, near_count, pairs, x, 0.0, g->centre, offset, x, skin, &u, &end,
                                &end_body, &end_by)))
                break;
            if (end.hit) hit = end, hit_body = end_body, hit_by = end_by;
        }
        if (!hit_body) {
            offset = dadd(offset, x);
            out->path[out->path_count++] = offset;
            break;
        }
        offset = dmadd(offset, x, u);
        out->path[out->path_count++] = offset;
        out->blocked = true;
        dvec n = dnorm(dv(hit.normal));
        add_blocker(out, hit_body, hit_by, hit.point, n);
        if (plane_count < MAX_PLANES)
            planes[plane_count++] =
                (plane){n, ddot(n, offset), hit_body, hit_by, {hit.point[0], hit.point[1], hit.point[2]},
                        out->path_count - 1};
        round++;
    }
    if (st) return st;
    if ((st = remember(ctx, ps, g, near, near_count, pairs, planes, plane_count, offset, out->path_count - 1))) return st;
    *moved = offset;
    return SNUG_OK;
}

snug_status snug_mover_turn(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                            dvec pivot, dvec axis, double angle, double skin, double* turned, snug_mover_out* out) {
    *turned = 0.0;
    if (fabs(angle) < 1e-12) return SNUG_OK;
    /* every point of the group stays within its distance from the pivot */
    double r = 0.0;
    for (int i = 0; i < 8; i++) {
        dvec corner = dxyz(i & 1 ? g->hi.x : g->lo.x, i & 2 ? g->hi.y : g->lo.y, i & 4 ? g->hi.z : g->lo.z);
        double d = dlen(dsub(corner, pivot));
        if (d > r) r = d;
    }
    double reach = fmin(fabs(angle), 2.0) * r + 2.0 * skin;
    dvec grow = dxyz(reach, reach, reach);
    snug_body_data** near;
    uint32_t near_count;
    snug_status st = snug_group_neighbours(ctx, s, ps, g, dsub(g->lo, grow), dadd(g->hi, grow), &near, &near_count);
    if (st) return st;
    float pivotf[3], axisf[3];
    dstore_f(pivot, pivotf);
    dstore_f(axis, axisf);
    double best_t = 1.0;
    double back = skin / (fabs(angle) * fmax(r, skin)); /* the arc a turn stops short of a contact by, as part of it */
    double best_back = back; /* the arc it stops short of the first contact by */
    for (uint32_t i = 0; i < g->count; i++) {
        const snug_member* m = &g->members[i];
        dvec lo, hi;
        turned_box(m, pivot, axis, angle, &lo, &hi);
        for (uint32_t k = 0; k < near_count; k++) {
            snug_body_data* c = near[k];
            if (!pair_tested(s, m, c)) continue;
            float clo[3], chi[3];
            snug_body_world_box(c, &c->world, clo, chi);
            if (box_gap(lo, hi, clo, chi) > skin) continue; /* the member's turn does not come near it */
            /* resting on each other, the pair is tested lifted apart by half a skin, which a turn that takes a
             * contact point into the other body (a tilt of a table standing on the floor) would go into: such a turn
             * is tested from where the member is, and blocked there when it touches (a chair bound to an offer 5 cm in
             * front of a table does not) */
            dvec contact;
            double parting;
            dvec lift = snug_rest_turning(ctx, ps, m->body, m->mesh, m->pose, c, SNUG_MOVER_LIFT * skin, pivot,
                                          dscale(axis, angle > 0 ? 1.0 : -1.0), &parting, &contact);
            bool closing = parting < -1e-9 * r;
            snug_pose pm = pose_at(m, closing ? dxyz(0, 0, 0) : lift);
            bool touching = false;
            if ((st = snug_mesh_within(ctx, m->body->mesh, &pm, c->mesh, &c->world, 0.0f, &touching))) return st;
            if (touching && closing) {
                best_t = 0.0;
                out->turn_blocked = true;
                float at[3];
                dstore_f(contact, at);
                add_blocker(out, c, m->body, at, dxyz(0, 0, 0));
                continue;
            }
            if (touching) {
                out->started_overlapping = true;
                continue;
            }
            /* met within the arc a turn is backed off by, it ends where it starts, whatever else it meets */
            if (best_t <= back) continue;
            /* a turn held into a body meets it again at every event, where the last event stopped it a skin short
             * along the contact's normal: near it and turning into it, the turn is tested where it has closed two
             * skins there, and touching there it ends where it starts (at most a skin short of what the sweep would
             * allow), without the sweep that would find the contact (a rotation sweep from a skin away, 1704's
             * costliest events) */
            snug_distance_result w;
            bool held = false;
            if ((st = snug_within_witness(ctx, m->body->mesh, &pm, c->mesh, &c->world, (float)(1.5 * skin), &held,
                                          &w)))
                return st;
            dvec apart = dsub(dv(w.point_a), dv(w.point_b));
            double approach = held && dlen(apart) > 0.0
                                  ? -ddot(dnorm(apart), dscale(dcross(axis, dsub(dv(w.point_a), pivot)), angle))
                                  : 0.0;
            if (approach > skin) {
                dquat ahead = dq_axis_angle(axis, angle * fmin(1.0, 2.0 * skin / approach));
                snug_pose early = dpose_store(dpose_turn(dpose_f(&pm), ahead, pivot));
                if ((st = snug_within_witness(ctx, m->body->mesh, &early, c->mesh, &c->world, 0.0f, &touching, &w)))
                    return st;
                if (touching) {
                    best_t = back, best_back = back;
                    out->turn_blocked = true;
                    add_blocker(out, c, m->body, w.point_a, dxyz(0, 0, 0));
                    continue;
                }
            }
            /* only a little beyond the earliest contact found so far: a table's sweep that met a neighbour bounds
             * the sweeps of what stands on it. (Ending right at it, a pair touching there as well would have to be
             * cleared all the way to its contact, the costliest part of a search.) The rotation sweep takes less
             * than half a turn at a time */
            double left = angle * fmin(1.0, best_t + 2.0 * back), done = 0.0;
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
                        /* a skin short along the contact's normal, as a cast stops (stop_short): an arc of a skin at
                         * the group's reach left a chair 1.6e-5 from a desk where its corner met the desk's side
                         * at a slant, and the next free move and seat closed that to touching (the random room,
                         * seeds 314 and 344) */
                        dvec v = dscale(dcross(axis, dsub(dv(res.point), pivot)), angle);
                        double rate = -ddot(dv(res.normal), v);
                        best_back = rate > 0.0 ? fmax(back, skin / rate) : back;
                        out->turn_blocked = true;
                        add_blocker(out, c, m->body, res.point, dv(res.normal));
                    }
                    break;
                }
                done += part;
                left -= part;
            }
        }
    }
    /* stop a skin before the contact: along its normal where a sweep met it, else as an arc at the group's reach */
    double t = best_t >= 1.0 ? 1.0 : fmax(0.0, best_t - best_back);
    /* the static guard of the casts (overlapping_at), for the turn */
    bool overlap = false;
    const snug_body_data *o_body, *o_by;
    if ((st = overlapping_at(ctx, s, ps, g, near, near_count, NULL, false, dq_axis_angle(axis, angle * t), pivot,
                             dxyz(0, 0, 0), skin, &overlap, &o_body, &o_by)))
        return st;
    if (overlap) {
        double lo;
        dvec still = dxyz(0, 0, 0);
        if ((st = last_free(ctx, s, ps, g, near, near_count, NULL, axis, angle, pivot, still, still, t, skin, &lo)))
            return st;
        t = fmax(0.0, lo - back);
        out->turn_blocked = true;
        float at[3];
        dstore_f(pivot, at);
        add_blocker(out, o_body, o_by, at, dxyz(0, 0, 0));
    }
    if (t > 0.0) { /* a skin from what the turn passed near, as a cast's end */
        snug_toi_result end;
        const snug_body_data *end_body = NULL, *end_by = NULL;
        dvec still = dxyz(0, 0, 0);
        if ((st = end_clear(ctx, s, ps, g, near, near_count, NULL, axis, angle, pivot, still, still, skin, &t, &end,
                            &end_body, &end_by)))
            return st;
        if (end.hit) {
            out->turn_blocked = true;
            add_blocker(out, end_body, end_by, end.point, dv(end.normal));
        }
    }
    *turned = angle * t;
    return SNUG_OK;
}
