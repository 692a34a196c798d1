/* Placement operation sequences on a small furnished room (place_room.h): moves (constrained and free, target and
 * pointer input, turns and angle steps, bad targets and rays), bind, unbind, set_bindings, push_out, drop, insert,
 * delete with both policies, snapshots and restores (intact and tampered), surfaces replaced with good and bad
 * polygons, label tables with bad names and cycles, orientation constraints, place settings, stale and forged
 * handles, and an allocation that fails.
 *
 * Oracle, after every operation: a failed one left the scene bit-identical (its snapshot) and the meshes' surfaces
 * as they were; a successful one added no violation to the consistency check (matched by kind and bodies) except
 * those a table or settings change may cause by design (new labels, surfaces or a smaller overhang can invalidate
 * standing bindings, which are reported, not broken); a restore gives back exactly the snapshot it restored. */
#include "fuzz_input.h"
#include "place_room.h"

#define MAX_OPS 48
#define MAX_HANDLES 24
#define MAX_BODIES (ROOM_BODIES + MAX_OPS) /* the room's and one insert per operation */
/* every pair of bodies overlapping, and each body's bindings failing in every way, and its orientation */
#define MAX_VIOLATIONS (MAX_BODIES * (MAX_BODIES - 1) / 2 + MAX_BODIES * (SNUG_BINDINGS_MAX * 5 + 1))
#define SNAP_MAX 16384
#define MAX_SEEN 512

/* An overlap the check reported, with the pair's relative pose then (b in a's frame). */
typedef struct seen_overlap {
    snug_body a, b;
    float q[4], p[3];
} seen_overlap;

typedef struct world {
    snug_ctx* ctx;
    snug_scene scene;
    fz_alloc fail;
    room_kind kinds[ROOM_KINDS];
    snug_mesh mesh[ROOM_KINDS];
    snug_body handles[MAX_HANDLES]; /* every body handle ever made, live or not */
    uint32_t handle_count;
    unsigned char snap[2][SNAP_MAX];
    size_t snap_size[2];
    uint32_t surface_changes, snap_surface_changes[2]; /* successful set_surfaces calls, in all and before a snapshot */
    seen_overlap seen[MAX_SEEN];    /* every overlap reported so far, at each relative pose */
    uint32_t seen_count;
} world;

typedef struct violations {
    snug_violation v[MAX_VIOLATIONS];
    uint32_t total;
} violations;

/* Body b's pose in body a's frame (a rotation, then a shift); false when either is gone. */
static bool relative_pose(world* w, snug_body a, snug_body b, seen_overlap* out) {
    snug_pose pa, pb;
    if (snug_body_get_pose(w->ctx, w->scene, a, &pa) || snug_body_get_pose(w->ctx, w->scene, b, &pb)) return false;
    const float x = -pa.q[0], y = -pa.q[1], z = -pa.q[2], s = pa.q[3]; /* a's turn undone */
    const float* r = pb.q;
    out->q[0] = s * r[0] + x * r[3] + y * r[2] - z * r[1];
    out->q[1] = s * r[1] - x * r[2] + y * r[3] + z * r[0];
    out->q[2] = s * r[2] + x * r[1] - y * r[0] + z * r[3];
    out->q[3] = s * r[3] - x * r[0] - y * r[1] - z * r[2];
    float d[3] = {pb.p[0] - pa.p[0], pb.p[1] - pa.p[1], pb.p[2] - pa.p[2]};
    float t0 = 2 * (y * d[2] - z * d[1]), t1 = 2 * (z * d[0] - x * d[2]), t2 = 2 * (x * d[1] - y * d[0]);
    out->p[0] = d[0] + s * t0 + (y * t2 - z * t1);
    out->p[1] = d[1] + s * t1 + (z * t0 - x * t2);
    out->p[2] = d[2] + s * t2 + (x * t1 - y * t0);
    out->a = a, out->b = b;
    return true;
}

/* Was the pair seen overlapping at this relative pose, to float rounding (eight float steps of their coordinates,
 * 1e-5 in the turn)? */
static bool seen_at(const world* w, const seen_overlap* now, float scale) {
    for (uint32_t i = 0; i < w->seen_count; i++) {
        const seen_overlap* o = &w->seen[i];
        if (o->a != now->a || o->b != now->b) continue;
        float dq = 0.0f, flipped = 0.0f, dp = 0.0f; /* q and -q are one turn */
        for (int k = 0; k < 4; k++)
            dq = fmaxf(dq, fabsf(o->q[k] - now->q[k])), flipped = fmaxf(flipped, fabsf(o->q[k] + now->q[k]));
        for (int k = 0; k < 3; k++) dp = fmaxf(dp, fabsf(o->p[k] - now->p[k]));
        if (fminf(dq, flipped) <= 1e-5f && dp <= 8.0f * FLT_EPSILON * scale) return true;
    }
    return false;
}

/* The largest coordinate of either body (the scale of their rounding). */
static float pair_scale(world* w, snug_body a, snug_body b) {
    snug_pose pa, pb;
    float m = 1.0f;
    if (!snug_body_get_pose(w->ctx, w->scene, a, &pa) && !snug_body_get_pose(w->ctx, w->scene, b, &pb))
        for (int k = 0; k < 3; k++) m = fmaxf(m, fmaxf(fabsf(pa.p[k]), fabsf(pb.p[k])));
    return m;
}

/* The overlap of a pair as a seen_overlap, bodies in handle order. */
static bool overlap_pose(world* w, const snug_violation* v, seen_overlap* out) {
    snug_body a = v->body < v->other ? v->body : v->other, b = v->body < v->other ? v->other : v->body;
    return relative_pose(w, a, b, out);
}

static void check_scene(world* w, violations* out) {
    snug_status st = snug_scene_check(w->ctx, w->scene, out->v, MAX_VIOLATIONS, &out->total);
    FZ_CHECK(st == SNUG_OK && out->total <= MAX_VIOLATIONS, "scene_check: %s (%u): %s", snug_status_name(st), out->total,
             snug_ctx_last_error(w->ctx));
}

/* Keeps the overlaps of a check (seen_overlap) for check_no_new_violation. */
static void remember_overlaps(world* w, const violations* v) {
    for (uint32_t i = 0; i < v->total; i++) {
        seen_overlap o;
        if (v->v[i].kind != SNUG_VIOLATION_OVERLAP || !overlap_pose(w, &v->v[i], &o) ||
            seen_at(w, &o, pair_scale(w, o.a, o.b)) || w->seen_count == MAX_SEEN)
            continue;
        w->seen[w->seen_count++] = o;
    }
}

static size_t snapshot(world* w, unsigned char* buf) {
    size_t size = 0;
    snug_status st = snug_scene_snapshot(w->ctx, w->scene, buf, SNAP_MAX, &size);
    FZ_CHECK(st == SNUG_OK && size <= SNAP_MAX, "snapshot: %s, %zu bytes", snug_status_name(st), size);
    return size;
}

static snug_body some_body(world* w, fz* f) {
    uint8_t s = fz_u8(f);
    if (s < 240 && w->handle_count) return w->handles[s % w->handle_count];
    return s < 248 ? 0 : fz_u32(f); /* none, or forged */
}

static void remember(world* w, snug_body b) {
    if (w->handle_count < MAX_HANDLES) w->handles[w->handle_count++] = b;
}

/* A surface index: mostly a valid one, sometimes one past the end or wild. */
static uint32_t some_surface(fz* f) {
    uint8_t s = fz_u8(f);
    return s < 200 ? s % 2u : (s < 240 ? 2u : fz_u32(f));
}

/* A small offset, a grid value, or a wild float (NaN, huge, subnormal). */
static float some_delta(fz* f) { return fz_u8(f) < 220 ? (float)(int8_t)fz_u8(f) * (1.0f / 64.0f) : fz_float(f); }

/* *free: the move ran in free mode (the body's bindings suspended, those no longer holding dropped at its end). */
static snug_status op_move(world* w, fz* f, snug_body b, bool* free) {
    snug_move_def d = snug_default_move_def();
    d.mode = (snug_place_mode)fz_below(f, SNUG_PLACE_MODE_COUNT + 1);
    d.input = (snug_move_input)fz_below(f, SNUG_MOVE_INPUT_COUNT + 1);
    snug_pose p = snug_pose_identity();
    snug_body_get_pose(w->ctx, w->scene, b, &p);
    if (fz_u8(f) < 200) {
        d.target = p;
        for (int k = 0; k < 3; k++) d.target.p[k] += some_delta(f);
        if (fz_bool(f)) { /* a turn in the target itself */
            float a = (float)(int8_t)fz_u8(f) * 0.02f;
            snug_pose r = room_pose(0, 0, 0, a);
            float q[4] = {r.q[3] * p.q[0] + r.q[1] * p.q[2], r.q[3] * p.q[1] + r.q[1] * p.q[3],
                          r.q[3] * p.q[2] - r.q[1] * p.q[0], r.q[3] * p.q[3] - r.q[1] * p.q[1]};
            memcpy(d.target.q, q, sizeof q);
        }
    } else {
        d.target = fz_pose(f);
    }
    for (int k = 0; k < 3; k++) d.ray.origin[k] = p.p[k] + some_delta(f), d.ray.dir[k] = some_delta(f);
    if (fz_bool(f)) d.ray.origin[1] = 3.0f, d.ray.dir[0] = d.ray.dir[2] = 0.0f, d.ray.dir[1] = -1.0f;
    d.ray.tmax = fz_bool(f) ? INFINITY : fz_float(f);
    for (int k = 0; k < 3; k++) d.grab[k] = fz_bool(f) ? 0.0f : some_delta(f);
    if (fz_bool(f)) d.turn = fz_u8(f) < 230 ? (float)(int8_t)fz_u8(f) * 0.05f : fz_float(f);
    if (fz_bool(f)) d.angle_step = fz_u8(f) < 230 ? (float)fz_u8(f) * (3.2f / 128.0f) : fz_float(f);
    if (fz_u8(f) < 8) d.internal_value = fz_u32(f); /* a def not made by snug_default_move_def */
    snug_move_result r;
    snug_status st = snug_body_move(w->ctx, w->scene, b, &d, &r);
    if (st != SNUG_OK) return st;
    *free = d.mode == SNUG_PLACE_FREE;
    FZ_CHECK(r.binding_count <= SNUG_BINDINGS_MAX && r.blocker_count <= SNUG_MOVE_BLOCKERS_MAX, "move result counts");
    snug_pose now;
    FZ_CHECK(snug_body_get_pose(w->ctx, w->scene, b, &now) == SNUG_OK && !memcmp(&now, &r.pose, sizeof now),
             "move: result pose is not the body's pose");
    return st;
}

static snug_status op_set_bindings(world* w, fz* f, snug_body b) {
    snug_binding list[SNUG_BINDINGS_MAX + 1];
    uint32_t count = 0;
    snug_body_get_bindings(w->ctx, w->scene, b, list, SNUG_BINDINGS_MAX, &count);
    if (count > SNUG_BINDINGS_MAX) count = 0;
    uint32_t n = fz_below(f, SNUG_BINDINGS_MAX + 2);
    for (uint32_t i = 0; i < n; i++) {
        if (i < count && fz_bool(f)) continue; /* keep the standing one */
        list[i] = (snug_binding){b, some_surface(f), some_body(w, f), some_surface(f)};
    }
    if (fz_u8(f) < 16) return snug_body_set_bindings(w->ctx, w->scene, b, NULL, n); /* NULL with a count */
    return snug_body_set_bindings(w->ctx, w->scene, b, list, n);
}

static snug_status op_insert(world* w, fz* f) {
    snug_insert_def d = snug_default_insert_def();
    uint8_t m = fz_u8(f);
    d.body.mesh = m < 240 ? w->mesh[m % ROOM_KINDS] : fz_u32(f);
    d.body.pose = room_pose(0, 0, 0, (float)(int8_t)fz_u8(f) * 0.05f);
    if (fz_u8(f) < 16) d.body.pose = fz_pose(f);
    d.ray.origin[0] = (float)(int8_t)fz_u8(f) * (2.5f / 128.0f), d.ray.origin[1] = 3.0f;
    d.ray.origin[2] = (float)(int8_t)fz_u8(f) * (2.5f / 128.0f);
    d.ray.dir[1] = -1.0f;
    if (fz_u8(f) < 32)
        for (int k = 0; k < 3; k++) d.ray.dir[k] = fz_float(f);
    d.ray.tmax = fz_u8(f) < 240 ? INFINITY : fz_float(f);
    snug_body out = 0;
    snug_binding bound;
    snug_status st = snug_scene_insert(w->ctx, w->scene, &d, &out, &bound);
    if (st == SNUG_OK) {
        remember(w, out);
        FZ_CHECK(bound.body == out, "insert: the binding is not the new body's");
    }
    return st;
}

static snug_status op_delete(world* w, fz* f, snug_body b) {
    snug_body deleted[MAX_HANDLES];
    uint32_t total = 0;
    snug_delete_policy policy = (snug_delete_policy)fz_below(f, SNUG_DELETE_POLICY_COUNT + 1);
    uint32_t cap = fz_bool(f) ? MAX_HANDLES : fz_below(f, 3);
    snug_status st = snug_scene_delete(w->ctx, w->scene, b, policy, cap ? deleted : NULL, cap, &total);
    if (st == SNUG_OK) {
        FZ_CHECK(total >= 1, "delete: nothing deleted");
        for (uint32_t i = 0; i < total && i < cap; i++) {
            snug_pose p;
            FZ_CHECK(snug_body_get_pose(w->ctx, w->scene, deleted[i], &p) == SNUG_ERR_STALE_HANDLE,
                     "delete: listed body %u still answers", i);
        }
    }
    return st;
}

/* Surfaces of one kind, some perturbed: a bent normal, a vertex off the plane, a reflex corner, a repeated
 * vertex, a count out of range, non-finite values, a foreign label. */
static snug_status op_set_surfaces(world* w, fz* f, int kind) {
    snug_surface s[ROOM_MAX_SURFACES + 1];
    uint32_t n = w->kinds[kind].surface_count;
    memcpy(s, w->kinds[kind].surfaces, n * sizeof *s);
    uint32_t edits = fz_below(f, 4);
    for (uint32_t e = 0; e < edits && n; e++) {
        snug_surface* x = &s[fz_below(f, n)];
        switch (fz_below(f, 8)) {
        case 0: x->normal[fz_below(f, 3)] += some_delta(f); break;
        case 1: x->vertices[fz_below(f, SNUG_SURFACE_MAX_VERTICES)][fz_below(f, 3)] += some_delta(f); break;
        case 2: memcpy(x->vertices[1], x->vertices[0], sizeof x->vertices[0]); break;
        case 3: x->vertex_count = fz_u8(f) < 200 ? fz_below(f, SNUG_SURFACE_MAX_VERTICES + 2) : fz_u32(f); break;
        case 4: x->label = fz_u8(f) < 200 ? fz_below(f, SNUG_LABEL_DEFAULT_COUNT + 2) : fz_u32(f); break;
        case 5: x->kind = (snug_surface_kind)fz_below(f, SNUG_SURFACE_KIND_COUNT + 1); break;
        case 6: x->vertices[fz_below(f, 4)][fz_below(f, 3)] = fz_float(f); break;
        default: /* mirror the winding */
            for (int k = 0; k < 3; k++) x->normal[k] = -x->normal[k];
            break;
        }
    }
    if (fz_u8(f) < 24) n = fz_below(f, n + 2); /* fewer surfaces, or one more */
    if (n > ROOM_MAX_SURFACES) n = ROOM_MAX_SURFACES + 1;
    if (n > w->kinds[kind].surface_count) { /* the one more: another kind's surface, or raw input bytes (it was stack
                                             * leftovers, which made a finding depend on earlier inputs) */
        const room_kind* other = &w->kinds[fz_below(f, ROOM_KINDS)];
        if (fz_bool(f) && other->surface_count) {
            s[n - 1] = other->surfaces[fz_below(f, other->surface_count)];
        } else {
            unsigned char* raw = (unsigned char*)&s[n - 1];
            for (size_t k = 0; k < sizeof s[0]; k++) raw[k] = fz_u8(f);
        }
    }
    snug_surface before[ROOM_MAX_SURFACES + 1], after[ROOM_MAX_SURFACES + 1];
    uint32_t nb = 0, na = 0;
    FZ_CHECK(snug_mesh_get_surfaces(w->ctx, w->mesh[kind], before, ROOM_MAX_SURFACES + 1, &nb) == SNUG_OK, "get_surfaces");
    snug_status st = snug_mesh_set_surfaces(w->ctx, w->mesh[kind], s, n);
    fz_check_status(w->ctx, st, "set_surfaces"); /* before the next call replaces the message */
    if (st != SNUG_OK) {
        int saved = w->fail.countdown;
        w->fail.countdown = -1;
        FZ_CHECK(snug_mesh_get_surfaces(w->ctx, w->mesh[kind], after, ROOM_MAX_SURFACES + 1, &na) == SNUG_OK &&
                     na == nb && !memcmp(before, after, nb * sizeof *before),
                 "a failed set_surfaces changed the surfaces");
        w->fail.countdown = saved;
    }
    return st;
}

static snug_status op_set_labels(world* w, fz* f) {
    static const char* names[] = {"onFloor", "onWall", "onWorkspace", "onStore", "onSeat", "onCeiling", "front",
                                  "", "onStore", "a-label-name-that-is-far-too-long-for-the-table", "x"};
    const char* list[SNUG_LABEL_DEFAULT_COUNT + 2];
    uint32_t n = fz_below(f, SNUG_LABEL_DEFAULT_COUNT + 3);
    for (uint32_t i = 0; i < n; i++) list[i] = fz_u8(f) < 220 ? names[i] : names[fz_below(f, 11)];
    uint32_t pairs[2 * 8];
    uint32_t np = fz_below(f, 9);
    for (uint32_t i = 0; i < 2 * np; i++) pairs[i] = fz_u8(f) < 240 ? fz_below(f, n + 1) : fz_u32(f);
    if (fz_u8(f) < 8) return snug_scene_set_labels(w->ctx, w->scene, NULL, n, pairs, np);
    return snug_scene_set_labels(w->ctx, w->scene, list, n, pairs, np);
}

static snug_status op_place_def(world* w, fz* f) {
    snug_place_def d = snug_default_place_def();
    switch (fz_below(f, 6)) {
    case 0: for (int k = 0; k < 3; k++) d.up[k] = fz_float(f); break;
    case 1: d.skin = fz_float(f); break;
    case 2: d.overhang = fz_float(f); break;
    case 3: d.snap_range = fz_float(f); break;
    case 4: d.max_slides = fz_u8(f) < 200 ? fz_below(f, 10) : fz_u32(f); break;
    default: d.internal_value = fz_u32(f); break;
    }
    return snug_scene_set_place_def(w->ctx, w->scene, &d);
}

/* Violations of a binding (its body, then its supporter). */
static bool binding_kind(snug_violation_kind k) {
    return k == SNUG_VIOLATION_PLANE || k == SNUG_VIOLATION_CONTAINMENT || k == SNUG_VIOLATION_LABEL ||
           k == SNUG_VIOLATION_STALE;
}

/* Is every violation of `after` one of `before` (same kind and bodies; an overlap's bodies in either order)? An
 * operation that drops bindings (`drops`) may leave the body touching what it was bound to: unbind and a free-mode
 * move leave a body they cannot lift where it stands (boxed in, seat.c, move.c), set_bindings lifts nothing
 * (snug.h). A binding already violated (a surface edit left it off its offer, a label edit made its label unfit), in
 * whose plane the pair rested, then becomes the overlap of the same pair, the same inconsistency. And an overlap
 * seen before
 * at the same relative pose is the same one: touching is decided on float poses, and a pair carried rigidly (a lamp
 * whose binding a surface edit dropped, still its block's child, 5.7e-7 from it at 16 m out where the block's
 * tolerance is 5.2e-7) rounds apart and back into touching as it goes. */
static void check_no_new_violation(world* w, const violations* before, const violations* after, int op, bool drops) {
    for (uint32_t i = 0; i < after->total; i++) {
        const snug_violation* a = &after->v[i];
        bool known = false;
        for (uint32_t j = 0; j < before->total && !known; j++) {
            const snug_violation* b = &before->v[j];
            bool in_order = a->body == b->body && a->other == b->other;
            bool reversed = a->body == b->other && a->other == b->body;
            bool overlap = a->kind == SNUG_VIOLATION_OVERLAP;
            known = (b->kind == a->kind && (in_order || (overlap && reversed))) ||
                    (drops && overlap && binding_kind(b->kind) && (in_order || reversed));
        }
        seen_overlap o;
        if (!known && a->kind == SNUG_VIOLATION_OVERLAP && overlap_pose(w, a, &o))
            known = seen_at(w, &o, pair_scale(w, o.a, o.b));
        FZ_CHECK(known, "operation %d made violation kind %d (bodies 0x%08x 0x%08x, amount %g)", op, (int)a->kind,
                 a->body, a->other, (double)a->amount);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fz in = {data, size, 0};
    fz* f = &in;
    static world w;
    static unsigned char before[SNAP_MAX], after[SNAP_MAX];
    memset(&w, 0, sizeof w);
    w.fail.countdown = -1;
    snug_ctx_def cd = fz_ctx_def(&w.fail);
    w.ctx = snug_ctx_create(&cd);
    FZ_CHECK(w.ctx, "context");
    FZ_CHECK(snug_scene_create(w.ctx, &w.scene) == SNUG_OK, "scene");
    FZ_CHECK(room_meshes(w.ctx, w.kinds, w.mesh), "room mesh: %s", snug_ctx_last_error(w.ctx));
    snug_body bodies[ROOM_BODIES];
    FZ_CHECK(room_furnish(w.ctx, w.scene, w.mesh, w.kinds, bodies), "furnish: %s", snug_ctx_last_error(w.ctx));
    for (uint32_t i = 0; i < ROOM_BODIES; i++) remember(&w, bodies[i]);
    static violations v0, v1;
    check_scene(&w, &v0);
    FZ_CHECK(v0.total == 0, "the room starts with %u violations (kind %d)", v0.total, (int)v0.v[0].kind);

    for (int n = 0; n < MAX_OPS && in.n; n++) {
        int countdown = w.fail.countdown; /* a failing allocation is meant for the operation */
        w.fail.countdown = -1;
        size_t before_size = snapshot(&w, before);
        w.fail.countdown = countdown;
        int op = (int)fz_below(f, 18);
        snug_body b = some_body(&w, f);
        bool by_design = false, restored = false, free_move = false;
        int slot = 0;
        snug_status st = SNUG_OK;
        switch (op) {
        case 0: case 1: case 2: case 3: st = op_move(&w, f, b, &free_move); break;
        case 4: st = snug_body_bind(w.ctx, w.scene, b, some_surface(f), some_body(&w, f), some_surface(f)); break;
        case 5: st = snug_body_unbind(w.ctx, w.scene, b); break;
        case 6: st = op_set_bindings(&w, f, b); break;
        case 7: {
            float t[3];
            bool moved;
            st = snug_body_push_out(w.ctx, w.scene, b, t, &moved);
            break;
        }
        case 8: {
            snug_drop_outcome outcome;
            snug_binding landed;
            snug_body blocker;
            st = snug_body_drop(w.ctx, w.scene, b, &outcome, fz_bool(f) ? &landed : NULL, &blocker);
            if (st == SNUG_OK) FZ_CHECK((unsigned)outcome < SNUG_DROP_OUTCOME_COUNT, "drop outcome %d", (int)outcome);
            break;
        }
        case 9: st = op_insert(&w, f); break;
        case 10: st = op_delete(&w, f, b); break;
        case 11: /* take a snapshot into a slot */
            slot = (int)fz_below(f, 2);
            memcpy(w.snap[slot], before, before_size);
            w.snap_size[slot] = before_size;
            w.snap_surface_changes[slot] = w.surface_changes;
            break;
        case 12: { /* restore a slot, maybe tampered or cut */
            slot = (int)fz_below(f, 2);
            if (!w.snap_size[slot]) break;
            static unsigned char buf[SNAP_MAX];
            size_t len = w.snap_size[slot];
            memcpy(buf, w.snap[slot], len);
            if (fz_u8(f) < 64) buf[fz_below(f, (uint32_t)len)] ^= (uint8_t)(1u << fz_below(f, 8));
            if (fz_u8(f) < 16) len = fz_below(f, (uint32_t)len);
            st = snug_scene_restore(w.ctx, w.scene, buf, len);
            if (st == SNUG_OK) {
                /* meshes and their surfaces are referenced, not copied: bindings to surfaces replaced since the
                 * snapshot are dropped (snug.h), so only a snapshot of the current surfaces comes back bit for bit */
                size_t now = snapshot(&w, after);
                FZ_CHECK((now == len && !memcmp(after, buf, len)) || w.snap_surface_changes[slot] != w.surface_changes,
                         "restore did not give back its snapshot");
                restored = true;
            }
            break;
        }
        case 13:
            st = op_set_surfaces(&w, f, (int)fz_below(f, ROOM_KINDS)), by_design = true;
            w.surface_changes += st == SNUG_OK;
            break;
        case 14: st = op_set_labels(&w, f), by_design = true; break;
        case 15: {
            float local[3], world_dir[3];
            for (int k = 0; k < 3; k++) local[k] = fz_u8(f) < 200 ? (float)fz_below(f, 3) - 1.0f : fz_float(f);
            for (int k = 0; k < 3; k++) world_dir[k] = fz_u8(f) < 200 ? (float)fz_below(f, 3) - 1.0f : fz_float(f);
            st = snug_body_set_orientation(w.ctx, w.scene, b, local, world_dir);
            by_design = true; /* the body is not turned: a constraint it does not meet is reported, by design */
            break;
        }
        case 16: /* a smaller overhang may leave standing bindings reaching too far: reported, by design */
            st = op_place_def(&w, f), by_design = true;
            break;
        default: /* the next operation's allocations: one fails */
            w.fail.countdown = (int)fz_below(f, 24);
            continue;
        }
        w.fail.countdown = -1;
        char what[32];
        snprintf(what, sizeof what, "placement operation %d", op);
        if (op != 13) fz_check_status(w.ctx, st, what); /* set_surfaces checks its own before reading them back */
        char message[256];
        snprintf(message, sizeof message, "%s", snug_ctx_last_error(w.ctx));
        size_t after_size = snapshot(&w, after);
        if (st != SNUG_OK) {
            size_t at = sizeof(uint64_t) * 4; /* the first byte that differs after the snapshot's header */
            while (at < before_size && at < after_size && before[at] == after[at]) at++;
            FZ_CHECK(after_size == before_size && !memcmp(before, after, before_size),
                     "operation %d failed (%s: %s) and changed the scene (%zu -> %zu bytes, from byte %zu)", op,
                     snug_status_name(st), message, before_size, after_size, at);
            continue;
        }
        check_scene(&w, &v1);
        if (restored) {
            v0 = v1; /* the state of that snapshot, whatever it held */
            remember_overlaps(&w, &v1);
            continue;
        }
        /* new labels, surfaces or orientation constraints may invalidate standing bindings, resting contacts and
         * poses by design (reported, not broken or moved; bindings to surfaces that are gone are dropped) */
        if (!by_design) check_no_new_violation(&w, &v0, &v1, op, op == 5 || op == 6 || free_move);
        remember_overlaps(&w, &v1);
        v0 = v1;
    }
    snug_ctx_destroy(w.ctx);
    return 0;
}
