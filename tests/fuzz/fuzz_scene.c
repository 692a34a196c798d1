/* Fuzz target: sequences of scene operations.
 *
 * A context with three meshes (a box, a torus and a fan of degenerate triangles) and one scene; the input is a
 * sequence of operations, a byte each plus its arguments: create bodies (with parents, poses good and bad, flags),
 * destroy them, set world and local poses, re-parent (cycles included, keeping the world pose or not), flags and
 * filters, ignore pairs, broad-phase, box and ray queries, whole collision steps (begin, moves, detect in every
 * mode with a fake clock and budget, two per input, commits), stale and forged handles, and an allocation that
 * fails. A shadow
 * keeps the handles and the hierarchy; after every operation the scene must agree with it:
 *  - every live body answers, every destroyed or forged handle is SNUG_ERR_STALE_HANDLE;
 *  - parents and child counts are the shadow's (cycles rejected with SNUG_ERR_CYCLE), world poses are finite,
 *    unit and within the accepted range, and the world pose is the parent's world pose times the local pose;
 *  - the broad-phase pairs are exactly the pairs of enabled, filtered, not ignored bodies whose boxes overlap;
 *  - a failed operation changed nothing (the shadow stays), and out of memory only when an allocation failed. */
#include "fuzz_input.h"
#include "base/pose.h"

#define MAX_BODIES 24

typedef struct shadow_body {
    snug_body h;        /* 0: none in this slot */
    int parent;         /* shadow index, -1 for a root */
    bool is_static, enabled;
    uint32_t layer, mask;
} shadow_body;

typedef struct world {
    fz_alloc fail;
    snug_ctx* ctx;
    snug_mesh mesh[3];
    snug_scene scene;
    shadow_body b[MAX_BODIES];
    bool ignored[MAX_BODIES][MAX_BODIES];
    snug_body dead[8];  /* destroyed handles, for stale use */
    int dead_count;
    double clock;
    int detections;
} world;

/* 32 us a reading: a budget of up to 63 us lets two pairs run time of impact per detection. At 7 us it let nine, and
 * nine pairs of a wildly turning body took 1.1 s under the sanitizers (a slow input of this target, 2026-11-29). */
static double fake_clock(void* user) {
    world* w = user;
    w->clock += 32.0;
    return w->clock;
}

static snug_mesh make_mesh(snug_ctx* ctx, int kind) {
    static const float box[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                    {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
    static const uint32_t box_idx[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                         2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};
    float pos[3 * 40];
    uint32_t idx[3 * 48];
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = pos;
    def.indices = idx;
    if (kind == 0) {
        memcpy(pos, box, sizeof box);
        memcpy(idx, box_idx, sizeof box_idx);
        def.vertex_count = 8;
        def.triangle_count = 12;
    } else if (kind == 1) { /* a coarse torus */
        uint32_t nv = 0, nt = 0;
        for (int i = 0; i < 6; i++)
            for (int k = 0; k < 4; k++) {
                float u = 6.2831853f * (float)i / 6.0f, v = 6.2831853f * (float)k / 4.0f;
                pos[3 * nv] = (1.0f + 0.3f * cosf(v)) * cosf(u);
                pos[3 * nv + 1] = 0.3f * sinf(v);
                pos[3 * nv + 2] = (1.0f + 0.3f * cosf(v)) * sinf(u);
                nv++;
            }
        for (int i = 0; i < 6; i++)
            for (int k = 0; k < 4; k++) {
                uint32_t a = (uint32_t)(i * 4 + k), b = (uint32_t)(((i + 1) % 6) * 4 + k),
                         c = (uint32_t)(((i + 1) % 6) * 4 + (k + 1) % 4), d = (uint32_t)(i * 4 + (k + 1) % 4);
                idx[3 * nt] = a, idx[3 * nt + 1] = b, idx[3 * nt + 2] = c, nt++;
                idx[3 * nt] = a, idx[3 * nt + 1] = c, idx[3 * nt + 2] = d, nt++;
            }
        def.vertex_count = nv;
        def.triangle_count = nt;
    } else { /* degenerate: points and needles */
        for (int i = 0; i < 6; i++) pos[3 * i] = 0.2f * (float)i, pos[3 * i + 1] = 0.0f, pos[3 * i + 2] = 0.1f * (float)(i % 2);
        for (int t = 0; t < 6; t++) idx[3 * t] = (uint32_t)t, idx[3 * t + 1] = (uint32_t)t, idx[3 * t + 2] = (uint32_t)((t + 1) % 6);
        def.vertex_count = 6;
        def.triangle_count = 6;
    }
    snug_mesh h = 0;
    FZ_CHECK(snug_mesh_create(ctx, &def, &h) == SNUG_OK, "mesh %d: %s", kind, snug_ctx_last_error(ctx));
    return h;
}

static int live_index(world* w, fz* f) {
    int start = (int)fz_below(f, MAX_BODIES);
    for (int k = 0; k < MAX_BODIES; k++) {
        int i = (start + k) % MAX_BODIES;
        if (w->b[i].h) return i;
    }
    return -1;
}

/* a body handle to use: mostly a live one, sometimes a destroyed, forged, zero or foreign one */
static snug_body some_handle(world* w, fz* f, int* index) {
    uint8_t s = fz_u8(f);
    *index = -1;
    if (s < 200) {
        int i = live_index(w, f);
        *index = i;
        return i >= 0 ? w->b[i].h : 0;
    }
    if (s < 220 && w->dead_count) return w->dead[fz_below(f, (uint32_t)w->dead_count)];
    if (s < 235) return w->mesh[0]; /* a handle of another kind */
    return fz_u32(f);
}

static bool is_ancestor(const world* w, int a, int of) {
    for (int p = of; p >= 0; p = w->b[p].parent)
        if (p == a) return true;
    return false;
}

/* Every invariant of the scene against the shadow. */
static void check_world(world* w) {
    int armed = w->fail.countdown;
    w->fail.countdown = -1;
    snug_ctx* ctx = w->ctx;
    int children[MAX_BODIES] = {0};
    for (int i = 0; i < MAX_BODIES; i++)
        if (w->b[i].h && w->b[i].parent >= 0) children[w->b[i].parent]++;
    float lo[MAX_BODIES][3], hi[MAX_BODIES][3];
    for (int i = 0; i < MAX_BODIES; i++) {
        const shadow_body* s = &w->b[i];
        if (!s->h) continue;
        snug_body_info info;
        FZ_CHECK(snug_body_get_info(ctx, w->scene, s->h, &info) == SNUG_OK, "live body %d: %s", i, snug_ctx_last_error(ctx));
        snug_body want_parent = s->parent >= 0 ? w->b[s->parent].h : 0;
        FZ_CHECK(info.parent == want_parent, "body %d: parent", i);
        FZ_CHECK(info.child_count == (uint32_t)children[i], "body %d: %u children, shadow %d", i, info.child_count, children[i]);
        FZ_CHECK(info.is_static == s->is_static && info.enabled == s->enabled && info.layer == s->layer && info.mask == s->mask,
                 "body %d: flags", i);
        snug_pose world_pose, local, parent_pose = snug_pose_identity();
        FZ_CHECK(snug_body_get_pose(ctx, w->scene, s->h, &world_pose) == SNUG_OK, "pose");
        FZ_CHECK(snug_body_get_local_pose(ctx, w->scene, s->h, &local) == SNUG_OK, "local pose");
        FZ_CHECK(fz_pose_is_finite(&world_pose) && fz_pose_is_finite(&local), "body %d: non-finite pose", i);
        float n2 = world_pose.q[0] * world_pose.q[0] + world_pose.q[1] * world_pose.q[1] + world_pose.q[2] * world_pose.q[2] +
                   world_pose.q[3] * world_pose.q[3];
        FZ_CHECK(fabsf(n2 - 1.0f) < 1e-4f, "body %d: world quaternion of length^2 %g", i, (double)n2);
        for (int k = 0; k < 3; k++)
            FZ_CHECK(fabsf(world_pose.p[k]) <= SNUG_MAX_COORDINATE, "body %d: world position %g beyond the range", i,
                     (double)world_pose.p[k]);
        if (s->parent >= 0) FZ_CHECK(snug_body_get_pose(ctx, w->scene, want_parent, &parent_pose) == SNUG_OK, "parent pose");
        /* world = parent world * local, to float rounding of the product */
        snug_xform xp, xl, xw, xprod;
        snug_xform_from_pose(&parent_pose, &xp);
        snug_xform_from_pose(&local, &xl);
        snug_xform_from_pose(&world_pose, &xw);
        snug_xform_mul(&xp, &xl, &xprod);
        float mag = 1.0f + fabsf(parent_pose.p[0]) + fabsf(parent_pose.p[1]) + fabsf(parent_pose.p[2]) + fabsf(local.p[0]) +
                    fabsf(local.p[1]) + fabsf(local.p[2]);
        for (int c = 0; c < 3; c++) {
            FZ_CHECK(fabsf(xprod.t[c] - xw.t[c]) <= 1e-4f * mag, "body %d: world is not parent x local", i);
            for (int r = 0; r < 3; r++) FZ_CHECK(fabsf(xprod.R[c][r] - xw.R[c][r]) <= 1e-4f, "body %d: rotation", i);
        }
        memcpy(lo[i], info.aabb_min, sizeof lo[i]);
        memcpy(hi[i], info.aabb_max, sizeof hi[i]);
    }
    for (int k = 0; k < w->dead_count; k++) {
        snug_pose p;
        FZ_CHECK(snug_body_get_pose(ctx, w->scene, w->dead[k], &p) == SNUG_ERR_STALE_HANDLE, "a destroyed handle answers");
    }
    /* broad phase against brute force over the boxes and filters */
    snug_body_pair pairs[MAX_BODIES * MAX_BODIES];
    uint32_t total = 0;
    FZ_CHECK(snug_scene_pairs(ctx, w->scene, pairs, MAX_BODIES * MAX_BODIES, &total) == SNUG_OK, "pairs: %s",
             snug_ctx_last_error(ctx));
    uint32_t expect = 0;
    for (int i = 0; i < MAX_BODIES; i++)
        for (int k = i + 1; k < MAX_BODIES; k++) {
            const shadow_body *a = &w->b[i], *b = &w->b[k];
            if (!a->h || !b->h || !a->enabled || !b->enabled || (a->is_static && b->is_static)) continue;
            if (!(a->layer & b->mask) || !(b->layer & a->mask) || w->ignored[i][k]) continue;
            bool overlap = true;
            for (int c = 0; c < 3; c++) overlap &= lo[i][c] <= hi[k][c] && lo[k][c] <= hi[i][c];
            expect += overlap;
        }
    FZ_CHECK(total == expect, "broad phase has %u pairs, brute force %u", total, expect);
    w->fail.countdown = armed;
}

static void body_destroyed(world* w, int i) {
    for (int k = 0; k < MAX_BODIES; k++) {
        if (w->b[k].h && w->b[k].parent == i) w->b[k].parent = -1;
        w->ignored[i][k] = w->ignored[k][i] = false;
    }
    if (w->dead_count < 8) w->dead[w->dead_count++] = w->b[i].h;
    memset(&w->b[i], 0, sizeof w->b[i]);
}

/* One operation; returns its status (SNUG_OK when it called nothing). */
static snug_status operate(world* w, fz* f) {
    snug_ctx* ctx = w->ctx;
    uint8_t op = fz_u8(f) % 16;
    int ia, ib;
    snug_status st = SNUG_OK;
    switch (op) {
    case 0:
    case 1: { /* create */
        int slot = -1;
        for (int i = 0; i < MAX_BODIES && slot < 0; i++)
            if (!w->b[i].h) slot = i;
        snug_body_def def = snug_default_body_def();
        def.mesh = fz_u8(f) < 250 ? w->mesh[fz_below(f, 3)] : fz_u32(f);
        def.parent = fz_bool(f) ? some_handle(w, f, &ia) : 0;
        if (!def.parent) ia = -1;
        def.pose = fz_pose(f);
        def.is_static = fz_u8(f) < 40;
        def.enabled = fz_u8(f) < 230;
        def.layer = fz_bool(f) ? 1u : fz_u32(f);
        def.mask = fz_bool(f) ? ~0u : fz_u32(f);
        snug_body h = 0;
        if (slot < 0) return SNUG_OK; /* the shadow is full */
        st = snug_body_create(ctx, w->scene, &def, &h);
        if (st == SNUG_OK) {
            FZ_CHECK(h != 0 && (def.parent == 0 || ia >= 0), "create: handle %u", h);
            shadow_body* s = &w->b[slot];
            s->h = h, s->parent = ia, s->is_static = def.is_static, s->enabled = def.enabled, s->layer = def.layer,
            s->mask = def.mask;
        }
        break;
    }
    case 2: { /* destroy */
        snug_body h = some_handle(w, f, &ia);
        st = snug_body_destroy(ctx, w->scene, h);
        if (st == SNUG_OK) {
            FZ_CHECK(ia >= 0, "destroyed a handle that was not live");
            body_destroyed(w, ia);
        }
        break;
    }
    case 3:
    case 4: { /* world or local pose */
        snug_body h = some_handle(w, f, &ia);
        snug_pose p = fz_pose(f);
        st = op == 3 ? snug_body_set_pose(ctx, w->scene, h, &p) : snug_body_set_local_pose(ctx, w->scene, h, &p);
        break;
    }
    case 5: { /* re-parent */
        snug_body h = some_handle(w, f, &ia);
        snug_body p = fz_bool(f) ? some_handle(w, f, &ib) : 0;
        if (!p) ib = -1;
        st = snug_body_set_parent(ctx, w->scene, h, p, fz_bool(f));
        if (st == SNUG_ERR_CYCLE) FZ_CHECK(ia >= 0 && ib >= 0 && is_ancestor(w, ia, ib), "a cycle that is not one");
        if (st == SNUG_OK) {
            FZ_CHECK(ia >= 0 && (p == 0 || ib >= 0) && !(ib >= 0 && is_ancestor(w, ia, ib)), "re-parent into a cycle");
            w->b[ia].parent = ib;
        }
        break;
    }
    case 6: { /* flags and filters */
        snug_body h = some_handle(w, f, &ia);
        uint8_t which = fz_u8(f) % 3;
        bool v = fz_bool(f);
        uint32_t layer = fz_u32(f), mask = fz_u32(f);
        if (which == 0) st = snug_body_set_static(ctx, w->scene, h, v);
        else if (which == 1) st = snug_body_set_enabled(ctx, w->scene, h, v);
        else st = snug_body_set_filter(ctx, w->scene, h, layer, mask);
        if (st == SNUG_OK) {
            if (which == 0) w->b[ia].is_static = v;
            else if (which == 1) w->b[ia].enabled = v;
            else w->b[ia].layer = layer, w->b[ia].mask = mask;
        }
        break;
    }
    case 7: { /* ignore pair */
        snug_body a = some_handle(w, f, &ia), b = some_handle(w, f, &ib);
        bool v = fz_bool(f);
        st = snug_scene_ignore_pair(ctx, w->scene, a, b, v);
        if (st == SNUG_OK) w->ignored[ia][ib] = w->ignored[ib][ia] = v;
        break;
    }
    case 8: { /* box query */
        float lo[3], hi[3];
        for (int c = 0; c < 3; c++) lo[c] = fz_float(f), hi[c] = fz_float(f);
        snug_body out[MAX_BODIES];
        uint32_t total;
        st = snug_scene_overlap_box(ctx, w->scene, lo, hi, out, MAX_BODIES, &total);
        break;
    }
    case 9: { /* rays */
        snug_ray ray;
        for (int c = 0; c < 3; c++) ray.origin[c] = fz_float(f), ray.dir[c] = fz_float(f);
        ray.tmax = fz_bool(f) ? INFINITY : fz_float(f);
        snug_scene_hit hit;
        st = snug_scene_raycast(ctx, w->scene, &ray, fz_bool(f) ? ~0u : fz_u32(f), &hit);
        if (st == SNUG_OK && hit.body) FZ_CHECK(hit.t >= 0.0f && hit.t <= ray.tmax, "scene ray hit at %g", (double)hit.t);
        break;
    }
    case 10: /* step begin */
        st = snug_step_begin(ctx, w->scene);
        break;
    case 11:
    case 12: { /* step move */
        snug_body h = some_handle(w, f, &ia);
        snug_pose p = fz_pose(f);
        st = snug_step_move(ctx, w->scene, h, &p, fz_bool(f));
        break;
    }
    case 13: { /* detect, then commit some groups */
        /* Time of impact between wildly moving tori can cost ~0.1 s a pair under the sanitizers (bounded, but not
         * what this target is about): two detections per input, and the ones that run it stop after a few pairs
         * of fake time (fake_clock) */
        if (w->detections++ >= 2) break;
        snug_step_def def = snug_default_step_def();
        def.mode = (snug_step_mode)fz_below(f, SNUG_STEP_MODE_COUNT + 1);
        def.cutoff = (snug_approx)fz_below(f, SNUG_APPROX_COUNT + 1);
        bool toi = def.mode == SNUG_STEP_DYNAMIC || def.mode == SNUG_STEP_MIXED;
        if (toi || fz_bool(f)) {
            def.clock_us = fake_clock;
            def.clock_user = w;
            def.budget_us = fz_bool(f) ? (double)(fz_u8(f) % 64) : (toi ? 63.0 : INFINITY);
        }
        def.collect_pairs = fz_bool(f);
        snug_contact c[MAX_BODIES];
        uint32_t count = 0, hits = 0;
        st = snug_step_detect(ctx, w->scene, &def, c, fz_bool(f) ? MAX_BODIES : fz_below(f, 3), &count, &hits);
        if (st == SNUG_OK && def.collect_pairs) { /* the colliding pairs: as many as counted, fewer on a short buffer */
            snug_body_pair pairs[8];
            uint32_t capacity = fz_below(f, 9), total = 0;
            snug_status ps = snug_step_get_pairs(ctx, w->scene, pairs, capacity, &total);
            fz_check_status(ctx, ps, "step_get_pairs");
            FZ_CHECK(total == hits && (ps == SNUG_OK) == (total <= capacity), "step pairs: %s, %u of %u", snug_status_name(ps),
                     total, hits);
        }
        if (st == SNUG_OK)
            for (uint32_t g = 0; g < count; g++) {
                FZ_CHECK(c[g].t >= 0.0f && c[g].t <= 1.0f && (c[g].hit || c[g].t == 1.0f), "contact t %g", (double)c[g].t);
                if (fz_bool(f)) {
                    snug_status cs = snug_step_commit(ctx, w->scene, c[g].group, fz_unit(f));
                    fz_check_status(ctx, cs, "step_commit");
                    FZ_CHECK(cs == SNUG_OK || cs == SNUG_ERR_INVALID_ARGUMENT || cs == SNUG_ERR_STALE_HANDLE,
                             "commit: %s", snug_status_name(cs));
                }
            }
        break;
    }
    case 14: { /* commit an arbitrary body */
        snug_body h = some_handle(w, f, &ia);
        st = snug_step_commit(ctx, w->scene, h, fz_bool(f) ? fz_unit(f) : fz_float(f));
        break;
    }
    default: /* the next operation's allocations: one fails */
        w->fail.countdown = (int)fz_below(f, 16);
        return SNUG_OK;
    }
    fz_check_status(ctx, st, "scene operation");
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fz in = {data, size, 0};
    static world w;
    memset(&w, 0, sizeof w);
    w.fail.countdown = -1;
    snug_ctx_def cd = fz_ctx_def(&w.fail);
    w.ctx = snug_ctx_create(&cd);
    FZ_CHECK(w.ctx, "context");
    for (int k = 0; k < 3; k++) w.mesh[k] = make_mesh(w.ctx, k);
    FZ_CHECK(snug_scene_create(w.ctx, &w.scene) == SNUG_OK, "scene");
    for (int k = 0; k < 64 && in.n; k++) {
        bool armed = w.fail.countdown >= 0; /* by the previous operation: only this one sees it */
        snug_status st = operate(&w, &in);
        if (armed) w.fail.countdown = -1;
        /* a failed operation changed nothing: the shadow did not follow it, and check_world compares */
        FZ_CHECK(st != SNUG_ERR_OUT_OF_MEMORY || armed, "out of memory with no failed allocation");
        check_world(&w);
    }
    FZ_CHECK(snug_scene_destroy(w.ctx, w.scene) == SNUG_OK, "scene destroy");
    snug_ctx_destroy(w.ctx);
    return 0;
}
