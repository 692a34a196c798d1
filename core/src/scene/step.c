/* The collision step (seed 000 ch. 7 and 8): registered motions -> moved bodies with start and target world
 * poses (composed along the hierarchy) -> broad phase with target or swept boxes (always completes) -> pair
 * tests from one shared work set under an optional time budget -> the earliest contact per moved group.
 *
 * Static mode traverses the two hierarchies of every candidate pair itself, node pair by node pair, so that the
 * budget can cut in anywhere: all pair tests share one work set and take turns (seed 000 §8.3). The node test
 * uses the AABB every node carries, grown by the shared traversal margin. At the cutoff an unfinished pair is
 * reported conservatively (hit at t = 0) or by its indicator, the remaining BV pair with the smallest sum of
 * directed Hausdorff bounds, whose sum bounds the distance (seed 000 §8.2.1; the AABB diagonal stands in for a
 * missing Hausdorff bound). Mixed and dynamic modes run snug_mesh_toi per pair; there a pair test is the unit
 * of work. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccd/motion.h"
#include "scene/scene.h"
#include "query/traverse.h"
#include "geom/tri.h"

enum { PAIR_OPEN = 0, PAIR_HIT, PAIR_CLEAR };

typedef struct step_pair {
    uint32_t a, b;              /* body slots */
    uint32_t ga, gb;            /* their groups (SNUG_NONE when not moving) */
    const snug_mesh_data* ma;
    const snug_mesh_data* mb;
    snug_xform rel;             /* b's target frame -> a's target frame */
    float eps, margin;
    uint32_t base, top;         /* the pair's own depth-first stack inside the shared work buffer */
    uint32_t state;
    snug_approx approx;
    float distance_bound;
    snug_toi_result r;          /* in a's terms */
} step_pair;

typedef struct work_item {
    uint32_t pair, na, nb;
} work_item;

#define LEAF_MAX 255

snug_step_def snug_default_step_def(void) {
    snug_step_def d;
    memset(&d, 0, sizeof d);
    d.mode = SNUG_STEP_STATIC;
    d.cutoff = SNUG_APPROX_CONSERVATIVE;
    d.budget_us = INFINITY;
    d.internal_value = SNUG_DEF_MARK;
    return d;
}

snug_status snug_step_begin(snug_ctx* ctx, snug_scene scene) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    s->step.motion_count = 0;
    s->step.detected = false;
    return snug_succeed(ctx);
}

snug_status snug_step_move(snug_ctx* ctx, snug_scene scene, snug_body body, const snug_pose* pose, bool relative) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    snug_body_data* b = snug_body_lookup(ctx, s, body);
    if (!b) return SNUG_ERR_STALE_HANDLE;
    snug_status ps = snug_pose_check(ctx, pose, "motion pose");
    if (ps != SNUG_OK) return ps;
    if (b->is_static) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "body 0x%08x is static", body);
    snug_step_state* st = &s->step;
    st->detected = false;
    snug_step_motion m = {b->slot, body, snug_pose_normalized(pose), relative};
    for (uint32_t i = 0; i < st->motion_count; i++)
        if (st->motions[i].slot == b->slot) {
            st->motions[i] = m;
            return snug_succeed(ctx);
        }
    if (st->motion_count == st->motion_cap) {
        uint32_t cap = st->motion_cap ? st->motion_cap * 2u : 16u;
        snug_step_motion* mm = snug_realloc(ctx, st->motions, cap * sizeof *mm);
        if (!mm) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "step motions");
        st->motions = mm;
        st->motion_cap = cap;
    }
    st->motions[st->motion_count++] = m;
    return snug_succeed(ctx);
}

/* ---------------------------------------------------------------- moved bodies */

/* Start and target world poses of every moved body. Motions apply from the top of the hierarchy down: a body is
 * carried by its nearest moving ancestor, then its own motion applies. */
static int key_compare(const void* a, const void* b) {
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : x > y;
}

static snug_status resolve_targets(snug_ctx* ctx, snug_scene_data* s) {
    snug_step_state* st = &s->step;
    uint32_t n = st->motion_count;
    /* motions by depth (ties in registration order), in the work buffer the pair tests reuse later */
    snug_status r = snug_buffer_reserve(ctx, &st->work, (size_t)n * sizeof(uint64_t) + 1, 0);
    if (r) return r;
    uint64_t* order = (uint64_t*)st->work.data;
    for (uint32_t i = 0; i < n; i++) order[i] = ((uint64_t)snug_hierarchy_depth(s, st->motions[i].slot) << 32) | i;
    qsort(order, n, sizeof *order, key_compare);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t g = (uint32_t)order[k];
        const snug_step_motion* m = &st->motions[g];
        for (uint32_t x = m->slot; x != SNUG_NONE; x = snug_hierarchy_next(s, m->slot, x)) {
            const snug_body_data* b = snug_body_at(s, x);
            snug_step_body* sb = &st->bodies[x];
            sb->start = b->world;
            sb->group = g;
            /* carried: where the parent's motion takes the body (its own world pose when the parent stays) */
            bool carried = b->parent != SNUG_NONE && (x != m->slot || st->bodies[b->parent].group != SNUG_NONE);
            sb->target = carried ? snug_pose_mul(&st->bodies[b->parent].target, &b->local) : b->world;
            if (x == m->slot) sb->target = m->relative ? snug_pose_mul(&m->pose, &sb->target) : m->pose;
            const float* p = sb->target.p;
            if (!snug_coordinate_ok(p[0]) || !snug_coordinate_ok(p[1]) || !snug_coordinate_ok(p[2]))
                return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                                 "the motion of body 0x%08x carries body 0x%08x to (%g, %g, %g), beyond the accepted "
                                 "range +-%g", m->body, b->handle, (double)p[0], (double)p[1], (double)p[2],
                                 (double)SNUG_MAX_COORDINATE);
        }
    }
    return SNUG_OK;
}

/* Box over the whole motion: the box around the start and target boxes, grown by the farthest the rotation can
 * carry a point off its chord (seed 000 §6.2 (a) plus the slerp bulge). */
static void swept_box(const snug_body_data* b, const snug_step_body* sb, float mn[3], float mx[3]) {
    float m1[3], x1[3];
    snug_body_world_box(b, &sb->start, mn, mx);
    snug_body_world_box(b, &sb->target, m1, x1);
    snug_lerp_slerp seg;
    snug_lerp_slerp_init(&seg, &sb->start, &sb->target);
    float grow = (float)(snug_lerp_slerp_bulge(&seg, 1.0) * b->local_reach);
    for (int i = 0; i < 3; i++) {
        mn[i] = fminf(mn[i], m1[i]) - grow;
        mx[i] = fmaxf(mx[i], x1[i]) + grow;
    }
}

/* ---------------------------------------------------------------- static pair traversal */

typedef struct walker {
    snug_scene_data* s;
    step_pair* pairs;
    work_item* stack;
    uint64_t bv_tests, primitive_tests;
    float vb[LEAF_MAX * 3][3];
} walker;

static bool node_overlap(walker* w, const step_pair* p, uint32_t na, uint32_t nb) {
    const snug_node* A = &p->ma->bvh.nodes[na];
    const snug_node* B = &p->mb->bvh.nodes[nb];
    snug_aabb a, b;
    glm_vec3_subs((float*)A->min, p->margin, a.min);
    glm_vec3_adds((float*)A->max, p->margin, a.max);
    glm_vec3_copy((float*)B->min, b.min);
    glm_vec3_copy((float*)B->max, b.max);
    w->bv_tests++;
    return snug_aabb_aabb(&a, &b, &p->rel);
}

/* Triangle pairs of two leaves; true on the first overlap (recorded in p->r). */
static bool leaf_pair(walker* w, step_pair* p, uint32_t la, uint32_t lb) {
    const snug_node* A = &p->ma->bvh.nodes[la];
    const snug_node* B = &p->mb->bvh.nodes[lb];
    uint32_t ca = SNUG_NODE_COUNT(A->info), cb = SNUG_NODE_COUNT(B->info);
    for (uint32_t j = 0; j < cb; j++)
        for (int c = 0; c < 3; c++) snug_xform_point(&p->rel, snug_mesh_vertex(p->mb, B->first + j, c), w->vb[3 * j + c]);
    for (uint32_t i = 0; i < ca; i++) {
        uint32_t sa = A->first + i;
        const float* a0 = snug_mesh_vertex(p->ma, sa, 0);
        const float* a1 = snug_mesh_vertex(p->ma, sa, 1);
        const float* a2 = snug_mesh_vertex(p->ma, sa, 2);
        for (uint32_t j = 0; j < cb; j++) {
            w->primitive_tests++;
            if (!snug_tri_tri_overlap(a0, a1, a2, w->vb[3 * j], w->vb[3 * j + 1], w->vb[3 * j + 2], p->eps)) continue;
            p->r.tri_a = sa; /* slots for now; ids and the contact point once the group's winner is known */
            p->r.tri_b = B->first + j;
            return true;
        }
    }
    return false;
}

/* Expand the item on top of the stack. */
static void expand(walker* w, work_item it) {
    step_pair* p = &w->pairs[it.pair];
    const snug_bvh* ta = &p->ma->bvh;
    const snug_bvh* tb = &p->mb->bvh;
    const snug_node* A = &ta->nodes[it.na];
    const snug_node* B = &tb->nodes[it.nb];
    uint32_t ka = SNUG_NODE_CHILDREN(A->info), kb = SNUG_NODE_CHILDREN(B->info);
    if (ka == 0 && kb == 0) {
        if (leaf_pair(w, p, it.na, it.nb)) p->state = PAIR_HIT;
        return;
    }
    snug_expand e = snug_traverse_choose(ta, it.na, tb, it.nb, SNUG_TRAVERSAL_SIMULTANEOUS);
    if (ka == 0) e = SNUG_EXPAND_B;
    if (kb == 0) e = SNUG_EXPAND_A;
    uint32_t a0 = it.na, a1 = it.na + 1, b0 = it.nb, b1 = it.nb + 1;
    if (e != SNUG_EXPAND_B) a0 = A->first, a1 = A->first + ka;
    if (e != SNUG_EXPAND_A) b0 = B->first, b1 = B->first + kb;
    for (uint32_t i = a1; i-- > a0;)
        for (uint32_t j = b1; j-- > b0;)
            if (node_overlap(w, p, i, j)) w->stack[p->base + p->top++] = (work_item){it.pair, i, j};
}

/* The distance bound of a remaining (overlapping) node pair: the nodes' directed Hausdorff bounds, or their
 * diagonals when the tree has none (a face set inside a box is never farther than its diagonal). */
static float indicator_bound(const step_pair* p, uint32_t na, uint32_t nb) {
    const snug_bvh* ta = &p->ma->bvh;
    const snug_bvh* tb = &p->mb->bvh;
    float da = ta->hausdorff ? ta->hausdorff[na] : glm_vec3_distance((float*)ta->nodes[na].min, (float*)ta->nodes[na].max);
    float db = tb->hausdorff ? tb->hausdorff[nb] : glm_vec3_distance((float*)tb->nodes[nb].min, (float*)tb->nodes[nb].max);
    return da + db + p->margin;
}

/* ---------------------------------------------------------------- detect */

typedef struct clock_state {
    double (*fn)(void*);
    void* user;
    double start, deadline;
    bool limited;
} clock_state;

static bool out_of_time(clock_state* c) { return c->limited && c->fn(c->user) >= c->deadline; }

static bool group_settled(const snug_contact* res, uint32_t g) {
    return g == SNUG_NONE || (res[g].hit && res[g].approx == SNUG_APPROX_NONE && res[g].t <= 0.0f);
}

/* Does the broad-phase pair (body slots a, b) need a test? A moving body is not static for this step, so only
 * the enabled, layer and ignore filters apply; pairs inside one rigid group never change. */
static bool wants_test(const snug_scene_data* s, uint32_t a, uint32_t b) {
    const snug_step_state* st = &s->step;
    uint32_t ga = st->bodies[a].group, gb = st->bodies[b].group;
    if (ga == gb) return false; /* also: neither moves */
    const snug_body_data* ba = snug_body_at(s, a);
    const snug_body_data* bb = snug_body_at(s, b);
    if (!ba->enabled || !bb->enabled || !(ba->layer & bb->mask) || !(bb->layer & ba->mask)) return false;
    return !snug_pairset_contains(&s->ignore, snug_pair_key(a, b));
}

static snug_status collect_pairs(snug_ctx* ctx, snug_scene_data* s, uint32_t* count) {
    snug_step_state* st = &s->step;
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->bp.pairs.count; k++) {
        uint64_t key = s->bp.pairs.list[k];
        n += wants_test(s, s->bp.proxies[snug_pair_lo(key)].user, s->bp.proxies[snug_pair_hi(key)].user);
    }
    snug_status r = snug_buffer_reserve(ctx, &st->pairs, (size_t)n * sizeof(step_pair) + 1, 0);
    if (r) return r;
    n = 0;
    for (uint32_t k = 0; k < s->bp.pairs.count; k++) {
        uint64_t key = s->bp.pairs.list[k];
        uint32_t a = s->bp.proxies[snug_pair_lo(key)].user, b = s->bp.proxies[snug_pair_hi(key)].user;
        if (!wants_test(s, a, b)) continue;
        if (st->bodies[a].group == SNUG_NONE) { /* keep the moving body first */
            uint32_t t = a;
            a = b;
            b = t;
        }
        step_pair* p = (step_pair*)st->pairs.data + n++;
        memset(p, 0, sizeof *p);
        p->a = a;
        p->b = b;
        p->ga = st->bodies[a].group;
        p->gb = st->bodies[b].group;
    }
    /* meshes are looked up once the buffer stops moving */
    step_pair* pairs = (step_pair*)st->pairs.data;
    for (uint32_t i = 0; i < n; i++) {
        step_pair* p = &pairs[i];
        const snug_body_data* ba = snug_body_at(s, p->a);
        const snug_body_data* bb = snug_body_at(s, p->b);
        p->ma = snug_pool_get(&ctx->meshes, ba->mesh);
        p->mb = snug_pool_get(&ctx->meshes, bb->mesh);
        if (!p->ma || !p->mb)
            return snug_fail(ctx, SNUG_ERR_STALE_HANDLE, "the mesh of body 0x%08x was destroyed",
                             p->ma ? bb->handle : ba->handle);
        const snug_pose* pa = p->ga == SNUG_NONE ? &ba->world : &st->bodies[p->a].target;
        const snug_pose* pb = p->gb == SNUG_NONE ? &bb->world : &st->bodies[p->b].target;
        snug_xform_relative(pa, pb, &p->rel);
        p->eps = fmaxf(p->ma->tolerance, p->mb->tolerance);
        p->margin = snug_traverse_margin(p->eps, p->ma->scale, p->mb->scale, &p->rel);
        p->r.t = 1.0f;
    }
    *count = n;
    return SNUG_OK;
}

/* Contact point and normal of a static hit from its triangle slots (turned into ids here). */
static void finish_static_hit(step_pair* p, const snug_pose* pose_a) {
    uint32_t sa = p->r.tri_a, sb = p->r.tri_b;
    float b[3][3], pa[3], pb[3];
    for (int c = 0; c < 3; c++) snug_xform_point(&p->rel, snug_mesh_vertex(p->mb, sb, c), b[c]);
    snug_tri_tri_distance(snug_mesh_vertex(p->ma, sa, 0), snug_mesh_vertex(p->ma, sa, 1),
                          snug_mesh_vertex(p->ma, sa, 2), b[0], b[1], b[2], pa, pb);
    vec3 mid, n = {0.0f, 0.0f, 1.0f}; /* a B triangle without area has no face: +z, as time of impact reports */
    glm_vec3_center(pa, pb, mid);
    /* face B's normal, turned to point towards A's triangle */
    vec3 ca = GLM_VEC3_ZERO_INIT, d;
    for (int c = 0; c < 3; c++) glm_vec3_add(ca, (float*)snug_mesh_vertex(p->ma, sa, c), ca);
    glm_vec3_scale(ca, 1.0f / 3.0f, ca);
    glm_vec3_sub(ca, b[0], d);
    if (snug_tri_unit_normal(b[0], b[0], b[1], b[2], n) && glm_vec3_dot(n, d) < 0.0f) glm_vec3_negate(n);
    snug_xform x;
    snug_xform_from_pose(pose_a, &x);
    snug_xform_point(&x, mid, p->r.point);
    snug_xform_dir(&x, n, p->r.normal);
    p->r.tri_a = p->ma->tri_ids[sa];
    p->r.tri_b = p->mb->tri_ids[sb];
    p->r.feature = SNUG_FEATURE_FACE_FACE;
    p->r.feature_a = p->r.feature_b = -1;
    p->r.hit = true;
    p->r.t = 0.0f;
}

/* One work set for all pair tests (seed 000 §8.3): every open pair keeps its own depth-first stack and the
 * pairs take turns, a few node pairs each, so easy pairs finish early and the hard ones get the remaining time;
 * at the cutoff each unfinished pair answers from what its stack still holds. */
static snug_status run_static(snug_ctx* ctx, snug_scene_data* s, step_pair* pairs, uint32_t n, clock_state* clk,
                              bool want_pairs, const snug_step_def* def, snug_contact* res) {
    snug_step_state* st = &s->step;
    size_t cap = 0;
    for (uint32_t i = 0; i < n; i++) {
        pairs[i].base = (uint32_t)cap;
        cap += snug_traverse_stack_pairs(&pairs[i].ma->bvh, &pairs[i].mb->bvh) + 1;
        if (cap > UINT32_MAX / 2) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "step work stacks");
    }
    snug_status r = snug_buffer_reserve(ctx, &st->work,
                                        sizeof(walker) + cap * sizeof(work_item) + (size_t)n * sizeof(uint32_t), 0);
    if (r) return r;
    walker* w = (walker*)st->work.data;
    w->s = s;
    w->pairs = pairs;
    w->stack = (work_item*)(w + 1);
    w->bv_tests = w->primitive_tests = 0;
    uint32_t* open = (uint32_t*)(w->stack + cap);
    uint32_t open_count = 0;
    /* a pair whose root boxes miss is clear already */
    for (uint32_t i = 0; i < n; i++) {
        step_pair* p = &pairs[i];
        p->top = 0;
        if (node_overlap(w, p, 0, 0)) {
            w->stack[p->base + p->top++] = (work_item){i, 0, 0};
            open[open_count++] = i;
        } else {
            p->state = PAIR_CLEAR;
        }
    }
    uint32_t done = 0;
    bool cut = false;
    while (open_count && !cut) {
        uint32_t kept = 0;
        for (uint32_t k = 0; k < open_count; k++) {
            step_pair* p = &pairs[open[k]];
            for (int slice = 0; slice < 8 && p->top && p->state != PAIR_HIT && !cut; slice++) {
                if ((done++ & 7u) == 0 && out_of_time(clk)) {
                    cut = true;
                    break;
                }
                if (!want_pairs && group_settled(res, p->ga) && group_settled(res, p->gb)) {
                    p->top = 0; /* moot: nothing can be earlier than the groups' contacts at t = 0 */
                    break;
                }
                expand(w, w->stack[p->base + --p->top]);
                if (p->state == PAIR_HIT) {
                    finish_static_hit(p, &st->bodies[p->a].target);
                    if (p->ga != SNUG_NONE) res[p->ga].hit = true, res[p->ga].t = 0.0f;
                    if (p->gb != SNUG_NONE) res[p->gb].hit = true, res[p->gb].t = 0.0f;
                }
            }
            if (p->top && p->state != PAIR_HIT) open[kept++] = open[k];
        }
        if (!cut) open_count = kept;
    }
    st->stats.bv_tests += w->bv_tests;
    st->stats.primitive_tests += w->primitive_tests;
    /* what is left on the stacks of open pairs: the cutoff answer */
    for (uint32_t i = 0; i < n; i++) {
        step_pair* p = &pairs[i];
        if (p->state != PAIR_OPEN || !p->top) continue;
        if (!want_pairs && group_settled(res, p->ga) && group_settled(res, p->gb)) continue;
        for (uint32_t k = p->base; k < p->base + p->top; k++) {
            work_item it = w->stack[k];
            float bound = indicator_bound(p, it.na, it.nb);
            if (p->approx != SNUG_APPROX_NONE && bound >= p->distance_bound) continue;
            p->approx = def->cutoff;
            p->distance_bound = bound;
            /* indicator: the middle of the two boxes, in world space at the target */
            vec3 ca, cb, cbw;
            glm_vec3_center(p->ma->bvh.nodes[it.na].min, p->ma->bvh.nodes[it.na].max, ca);
            glm_vec3_center(p->mb->bvh.nodes[it.nb].min, p->mb->bvh.nodes[it.nb].max, cb);
            snug_xform_point(&p->rel, cb, cbw);
            glm_vec3_center(ca, cbw, ca);
            snug_xform x;
            snug_xform_from_pose(&st->bodies[p->a].target, &x);
            snug_xform_point(&x, ca, p->r.point);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        step_pair* p = &pairs[i];
        if (p->state == PAIR_OPEN && p->approx == SNUG_APPROX_NONE) p->state = PAIR_CLEAR; /* finished or moot */
        if (p->state == PAIR_OPEN) {
            p->state = PAIR_HIT;
            p->r.hit = true;
            p->r.t = 0.0f;
            p->r.tri_a = p->r.tri_b = SNUG_NO_HIT;
            p->r.feature_a = p->r.feature_b = -1;
            st->stats.unfinished_pairs++;
        } else {
            st->stats.finished_pairs++;
        }
    }
    return SNUG_OK;
}

static void add_query_stats(snug_step_state* st, const snug_query_stats* qs) {
    for (int x = 0; x < SNUG_BV_TYPE_COUNT; x++)
        for (int y = 0; y < SNUG_BV_TYPE_COUNT; y++) st->stats.bv_tests += qs->bv_tests[x][y];
    st->stats.primitive_tests += qs->primitive_tests;
}

/* Farthest any point of the body travels during its motion. */
static float travel(const snug_body_data* b, const snug_step_body* sb) {
    snug_lerp_slerp seg;
    snug_lerp_slerp_init(&seg, &sb->start, &sb->target);
    vec3 d;
    glm_vec3_sub((float*)sb->target.p, (float*)sb->start.p, d);
    return (glm_vec3_norm(d) + (float)snug_lerp_slerp_angle(&seg) * b->local_reach) * (1.0f + 1e-5f);
}

static snug_status run_toi(snug_ctx* ctx, snug_scene_data* s, step_pair* pairs, uint32_t n, clock_state* clk,
                           snug_step_mode mode, bool want_pairs, snug_contact* res) {
    snug_step_state* st = &s->step;
    snug_toi_def td = snug_default_toi_def();
    td.mode = mode == SNUG_STEP_MIXED ? SNUG_TOI_MIXED : SNUG_TOI_DYNAMIC;
    for (uint32_t i = 0; i < n; i++) {
        step_pair* p = &pairs[i];
        if (out_of_time(clk)) {
            p->state = PAIR_HIT;
            p->approx = SNUG_APPROX_CONSERVATIVE;
            p->r.hit = true;
            p->r.t = 0.0f;
            p->r.tri_a = p->r.tri_b = SNUG_NO_HIT;
            p->r.feature_a = p->r.feature_b = -1;
            st->stats.unfinished_pairs++;
            continue;
        }
        /* nothing comes earlier than a contact at t = 0 */
        if (!want_pairs && group_settled(res, p->ga) && group_settled(res, p->gb)) {
            p->state = PAIR_CLEAR;
            st->stats.finished_pairs++;
            continue;
        }
        const snug_body_data* ba = snug_body_at(s, p->a);
        const snug_body_data* bb = snug_body_at(s, p->b);
        const snug_step_body* sa = &st->bodies[p->a];
        const snug_step_body* sb = &st->bodies[p->b];
        const snug_pose* start_b = p->gb == SNUG_NONE ? &bb->world : &sb->start;
        if (mode == SNUG_STEP_DYNAMIC) {
            /* Meshes farther apart at the start than both motions can close cannot touch: every point of a body
             * travels at most |dp| + reach * angle. The proximity query exits early either way, far cheaper
             * than the time-of-impact search it saves. */
            float reach = travel(ba, sa) + (p->gb == SNUG_NONE ? 0.0f : travel(bb, sb));
            reach += 4.0f * fmaxf(p->ma->tolerance, p->mb->tolerance);
            bool near = true;
            snug_status r = snug_mesh_within(ctx, ba->mesh, &sa->start, bb->mesh, start_b, reach, &near);
            if (r) return r;
            add_query_stats(st, snug_ctx_last_stats(ctx));
            if (!near) {
                p->state = PAIR_CLEAR;
                st->stats.finished_pairs++;
                continue;
            }
        }
        snug_motion m_a = snug_motion_between(&sa->start, &sa->target);
        snug_motion m_b = p->gb == SNUG_NONE ? snug_motion_static(start_b) : snug_motion_between(&sb->start, &sb->target);
        snug_status r = snug_mesh_toi(ctx, ba->mesh, &m_a, bb->mesh, &m_b, &td, &p->r);
        if (r) return r;
        add_query_stats(st, snug_ctx_last_stats(ctx));
        st->stats.finished_pairs++;
        p->state = p->r.hit ? PAIR_HIT : PAIR_CLEAR;
        if (p->r.hit && p->r.t <= 0.0f) {
            if (p->ga != SNUG_NONE) res[p->ga].hit = true, res[p->ga].t = 0.0f;
            if (p->gb != SNUG_NONE) res[p->gb].hit = true, res[p->gb].t = 0.0f;
        }
    }
    return SNUG_OK;
}

/* Fold a pair's outcome into group g; `flip` when the group's body is the pair's b. */
static void fold(snug_scene_data* s, snug_contact* c, const step_pair* p, bool flip) {
    bool earlier = !c->hit || p->r.t < c->t ||
                   (p->r.t == c->t && c->approx != SNUG_APPROX_NONE && p->approx == SNUG_APPROX_NONE);
    if (!earlier) return;
    c->hit = true;
    c->t = p->r.t;
    c->approx = p->approx;
    c->distance_bound = p->approx == SNUG_APPROX_INDICATOR ? p->distance_bound : 0.0f;
    c->body_a = snug_body_at(s, flip ? p->b : p->a)->handle;
    c->body_b = snug_body_at(s, flip ? p->a : p->b)->handle;
    c->feature = p->approx == SNUG_APPROX_NONE ? p->r.feature : SNUG_FEATURE_NONE;
    /* the feature kinds of one side read the same from the other, except vertex-face which swaps */
    if (flip && c->feature == SNUG_FEATURE_VERTEX_FACE) c->feature = SNUG_FEATURE_FACE_VERTEX;
    else if (flip && c->feature == SNUG_FEATURE_FACE_VERTEX) c->feature = SNUG_FEATURE_VERTEX_FACE;
    c->tri_a = flip ? p->r.tri_b : p->r.tri_a;
    c->tri_b = flip ? p->r.tri_a : p->r.tri_b;
    c->feature_a = flip ? p->r.feature_b : p->r.feature_a;
    c->feature_b = flip ? p->r.feature_a : p->r.feature_b;
    memcpy(c->point, p->r.point, sizeof c->point);
    for (int i = 0; i < 3; i++) c->normal[i] = flip ? -p->r.normal[i] : p->r.normal[i];
}

snug_status snug_step_detect(snug_ctx* ctx, snug_scene scene, const snug_step_def* def, snug_contact* results,
                             uint32_t capacity, uint32_t* count, uint32_t* pair_total) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    snug_step_state* st = &s->step;
    if (!def || !count || (capacity && !results))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "step_detect needs a def, results and a count");
    if (snug_def_check_mark(ctx, def->internal_value, "step_def")) return SNUG_ERR_INVALID_ARGUMENT;
    if ((unsigned)def->mode >= SNUG_STEP_MODE_COUNT)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "mode %d is not a snug_step_mode", (int)def->mode);
    if (def->cutoff != SNUG_APPROX_CONSERVATIVE && def->cutoff != SNUG_APPROX_INDICATOR)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "cutoff must be CONSERVATIVE or INDICATOR");
    if (isnan(def->budget_us)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "budget is NaN");
    *count = st->motion_count;
    if (st->motion_count > capacity)
        return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "%u groups, capacity %u", st->motion_count, capacity);
    snug_status r = snug_scene_sync(ctx, s);
    if (r) return r;
    uint32_t slots = s->bodies.slot_count;
    if (slots > st->body_cap) {
        snug_step_body* sb = snug_realloc(ctx, st->bodies, (size_t)slots * sizeof *sb);
        if (!sb) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "step bodies");
        st->bodies = sb;
        st->body_cap = slots;
    }
    memset(&st->stats, 0, sizeof st->stats);
    for (uint32_t i = 0; i < slots; i++) st->bodies[i].group = SNUG_NONE;
    r = resolve_targets(ctx, s);
    if (r) return r;

    /* broad phase at the target (static, mixed) or swept (dynamic) boxes; the next sync rolls them back */
    for (uint32_t i = 0; i < slots; i++) {
        if (st->bodies[i].group == SNUG_NONE) continue;
        snug_body_data* b = snug_body_at(s, i);
        float mn[3], mx[3];
        if (def->mode == SNUG_STEP_DYNAMIC) swept_box(b, &st->bodies[i], mn, mx);
        else snug_body_world_box(b, &st->bodies[i].target, mn, mx);
        snug_bp_move(ctx, &s->bp, b->proxy, mn, mx);
        snug_scene_mark_dirty(s, b);
        st->stats.moved_bodies++;
    }
    if (s->bp.needs_rebuild && snug_bp_rebuild(ctx, &s->bp) != SNUG_OK)
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "broad phase rebuild");
    uint32_t n = 0;
    r = collect_pairs(ctx, s, &n);
    if (r) return r;
    step_pair* pairs = (step_pair*)st->pairs.data;
    st->stats.groups = st->motion_count;
    st->stats.broadphase_pairs = n;

    for (uint32_t g = 0; g < st->motion_count; g++) {
        snug_contact* c = &results[g];
        memset(c, 0, sizeof *c);
        c->group = st->motions[g].body;
        c->t = 1.0f;
        c->tri_a = c->tri_b = SNUG_NO_HIT;
        c->feature_a = c->feature_b = -1;
    }
    clock_state clk = {def->clock_us, def->clock_user, 0.0, 0.0, false};
    if (clk.fn && !(def->budget_us == INFINITY)) {
        clk.limited = true;
        clk.start = clk.fn(clk.user);
        clk.deadline = clk.start + def->budget_us;
    } else if (clk.fn) {
        clk.start = clk.fn(clk.user);
    }
    bool want_pairs = def->collect_pairs;
    if (def->mode == SNUG_STEP_STATIC) r = run_static(ctx, s, pairs, n, &clk, want_pairs, def, results);
    else r = run_toi(ctx, s, pairs, n, &clk, def->mode, want_pairs, results);
    if (clk.fn) st->stats.time_us = clk.fn(clk.user) - clk.start;
    if (r) return r;

    uint32_t hits = 0;
    for (uint32_t i = 0; i < n; i++) hits += pairs[i].state == PAIR_HIT;
    if (want_pairs) {
        r = snug_buffer_reserve(ctx, &st->hits, (size_t)hits * sizeof(snug_body_pair), 0);
        if (r) return r;
        snug_body_pair* out = (snug_body_pair*)st->hits.data;
        for (uint32_t i = 0, k = 0; i < n; i++)
            if (pairs[i].state == PAIR_HIT)
                out[k++] = (snug_body_pair){snug_body_at(s, pairs[i].a)->handle, snug_body_at(s, pairs[i].b)->handle};
    }
    /* fresh records, then fold every colliding pair into its groups (the static pass only marked them) */
    for (uint32_t g = 0; g < st->motion_count; g++) results[g].hit = false, results[g].t = 1.0f;
    for (uint32_t i = 0; i < n; i++) {
        const step_pair* p = &pairs[i];
        if (p->state != PAIR_HIT) continue;
        if (p->ga != SNUG_NONE) fold(s, &results[p->ga], p, false);
        if (p->gb != SNUG_NONE) fold(s, &results[p->gb], p, true);
    }
    if (pair_total) *pair_total = hits;
    st->hit_count = hits;
    st->pairs_collected = want_pairs;
    st->detected = true;
    return snug_succeed(ctx);
}

snug_status snug_step_get_pairs(snug_ctx* ctx, snug_scene scene, snug_body_pair* pairs, uint32_t capacity,
                                uint32_t* total) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    const snug_step_state* st = &s->step;
    if (!total || (capacity && !pairs))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "step_get_pairs needs a total (and pairs for a capacity)");
    if (!st->detected) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "no detect of the current motions");
    if (!st->pairs_collected)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "the last detect did not collect pairs (collect_pairs)");
    *total = st->hit_count;
    uint32_t n = capacity < st->hit_count ? capacity : st->hit_count;
    if (n) memcpy(pairs, st->hits.data, (size_t)n * sizeof *pairs);
    if (st->hit_count > capacity)
        return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "%u colliding pairs, capacity %u", st->hit_count, capacity);
    return snug_succeed(ctx);
}

snug_status snug_step_commit(snug_ctx* ctx, snug_scene scene, snug_body group, float t) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    snug_step_state* st = &s->step;
    snug_body_data* b = snug_body_lookup(ctx, s, group);
    if (!b) return SNUG_ERR_STALE_HANDLE;
    if (!(t >= 0.0f && t <= 1.0f)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "t must be in [0, 1]");
    if (!st->detected) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "commit needs a detect of the current motions");
    uint32_t g = SNUG_NONE;
    for (uint32_t i = 0; i < st->motion_count; i++)
        if (st->motions[i].slot == b->slot) g = i;
    if (g == SNUG_NONE) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "body 0x%08x has no registered motion", group);
    snug_motion m = snug_motion_between(&st->bodies[b->slot].start, &st->bodies[b->slot].target);
    snug_pose pose = t == 1.0f ? m.end : snug_motion_pose_at(&m, t);
    return snug_body_set_pose(ctx, scene, group, &pose);
}

snug_status snug_step_get_stats(snug_ctx* ctx, snug_scene scene, snug_step_stats* out) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "output is NULL");
    *out = s->step.stats;
    return snug_succeed(ctx);
}
