/* Random drags, pointer re-seats, turns and free-mode moves in a furnished room, with the consistency check after
 * every event and a brute-force check (every triangle pair, bound pairs lifted off their binding plane as the check
 * does) every 50 events: no interpenetration, every binding valid. The seed is printed on failure. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "snug.h"
#include "test_brute.h"
#include "test_furniture.h"

#define MAX_BODIES 32

typedef struct item {
    snug_body body;
    test_item_kind kind;
} item;

typedef struct room {
    snug_ctx* ctx;
    snug_scene scene;
    snug_mesh mesh[TEST_ITEM_KIND_COUNT];
    test_item geometry[TEST_ITEM_KIND_COUNT];
    item items[MAX_BODIES];
    uint32_t count;
} room;

static snug_body add(room* r, test_item_kind kind, float x, float y, float z, float yaw, bool is_static) {
    snug_body_def def = snug_default_body_def();
    def.mesh = r->mesh[kind];
    def.is_static = is_static;
    def.pose.p[0] = x, def.pose.p[1] = y, def.pose.p[2] = z;
    def.pose.q[1] = sinf(0.5f * yaw), def.pose.q[3] = cosf(0.5f * yaw);
    snug_body b = 0;
    CHECK(snug_body_create(r->ctx, r->scene, &def, &b) == SNUG_OK);
    r->items[r->count++] = (item){b, kind};
    return b;
}

static void bind(room* r, snug_body b, test_item_kind kind, snug_body sup, test_item_kind sup_kind, uint32_t offer) {
    snug_status st = snug_body_bind(r->ctx, r->scene, b, test_item_surface(kind, SNUG_SURFACE_BINDING, 0), sup,
                                    test_item_surface(sup_kind, SNUG_SURFACE_OFFER, offer));
    CHECK_MSG(st == SNUG_OK, "bind kind %d: %s", (int)kind, snug_ctx_last_error(r->ctx));
}

static void room_open(room* r) {
    memset(r, 0, sizeof *r);
    r->ctx = snug_ctx_create(NULL);
    CHECK(snug_scene_create(r->ctx, &r->scene) == SNUG_OK);
    for (int k = 0; k < TEST_ITEM_KIND_COUNT; k++) {
        r->mesh[k] = test_item_make(r->ctx, (test_item_kind)k);
        test_item_build((test_item_kind)k, &r->geometry[k]);
    }
    snug_body floor = add(r, TEST_FLOOR, 0, 0, 0, 0, true);
    /* walls around the 6 x 6 floor, their fronts facing in */
    const float wall[4][4] = {{0, 0, -2.95f, 0}, {0, 0, 2.95f, 3.14159265f}, {-2.95f, 0, 0, 1.5707963f}, {2.95f, 0, 0, -1.5707963f}};
    for (int i = 0; i < 4; i++) {
        snug_body w = add(r, TEST_WALL, wall[i][0], 0.2f, wall[i][2], wall[i][3], true);
        bind(r, w, TEST_WALL, floor, TEST_FLOOR, 0);
    }
    snug_body t1 = add(r, TEST_TABLE, -1.0f, 0.1f, 0.8f, 0.0f, false);
    snug_body t2 = add(r, TEST_TABLE, 1.2f, 0.1f, 0.9f, 1.5707963f, false);
    snug_body desk = add(r, TEST_DESK, 0.0f, 0.1f, -2.3f, 0.0f, false);
    bind(r, t1, TEST_TABLE, floor, TEST_FLOOR, 0);
    bind(r, t2, TEST_TABLE, floor, TEST_FLOOR, 0);
    bind(r, desk, TEST_DESK, floor, TEST_FLOOR, 0);
    const float chairs[3][3] = {{-1.0f, 1.8f, 0}, {-2.0f, -1.0f, 0.5f}, {2.0f, -1.5f, 2.0f}};
    for (int i = 0; i < 3; i++) bind(r, add(r, TEST_CHAIR, chairs[i][0], 0.1f, chairs[i][1], chairs[i][2], false), TEST_CHAIR, floor, TEST_FLOOR, 0);
    bind(r, add(r, TEST_LAMP, -1.4f, 0.9f, 0.8f, 0, false), TEST_LAMP, t1, TEST_TABLE, 0);
    bind(r, add(r, TEST_LAMP, 1.2f, 0.9f, 1.3f, 0, false), TEST_LAMP, t2, TEST_TABLE, 0);
    bind(r, add(r, TEST_LAMP, 0.3f, 1.3f, -2.52f, 0, false), TEST_LAMP, desk, TEST_DESK, 1);
    bind(r, add(r, TEST_BOOK, -0.6f, 0.9f, 0.8f, 0.3f, false), TEST_BOOK, t1, TEST_TABLE, 0);
    bind(r, add(r, TEST_BOOK, 1.2f, 0.9f, 0.4f, 0.0f, false), TEST_BOOK, t2, TEST_TABLE, 0);
    bind(r, add(r, TEST_BOOK, -0.3f, 0.9f, -2.1f, 1.0f, false), TEST_BOOK, desk, TEST_DESK, 0);
    bind(r, add(r, TEST_PICTURE, 0.8f, 1.5f, -2.8f, 0, false), TEST_PICTURE, r->items[1].body, TEST_WALL, 0);
}

static void room_close(room* r) {
    for (int k = 0; k < TEST_ITEM_KIND_COUNT; k++) test_item_free(&r->geometry[k]);
    snug_ctx_destroy(r->ctx);
}

static uint32_t violations(room* r) {
    snug_violation v[8];
    uint32_t total = 0;
    snug_status st = snug_scene_check(r->ctx, r->scene, v, 8, &total);
    CHECK(st == SNUG_OK || st == SNUG_ERR_BUFFER_TOO_SMALL);
    for (uint32_t i = 0; i < total && i < 8; i++)
        fprintf(stderr, "  violation kind %d body 0x%08x other 0x%08x amount %g\n", (int)v[i].kind, v[i].body,
                v[i].other, v[i].amount);
    return total;
}

static void rotate(const snug_pose* p, const float v[3], float out[3]) {
    float x = p->q[0], y = p->q[1], z = p->q[2], w = p->q[3];
    float t0 = 2 * (y * v[2] - z * v[1]), t1 = 2 * (z * v[0] - x * v[2]), t2 = 2 * (x * v[1] - y * v[0]);
    out[0] = v[0] + w * t0 + (y * t2 - z * t1);
    out[1] = v[1] + w * t1 + (z * t0 - x * t2);
    out[2] = v[2] + w * t2 + (x * t1 - y * t0);
}

/* The sum of the world normals of a's binding surfaces that lie in the plane of one of b's offers they may rest on
 * (label), facing it: the direction in which resting contact is parted (the core's rule, place.h snug_rest_lift);
 * zero when a rests nowhere on b. */
static void rest_normal(room* r, const item* a, const item* b, float n[3]) {
    n[0] = n[1] = n[2] = 0.0f;
    snug_pose pa, pb;
    snug_body_get_pose(r->ctx, r->scene, a->body, &pa);
    snug_body_get_pose(r->ctx, r->scene, b->body, &pb);
    const test_item* ga = &r->geometry[a->kind];
    const test_item* gb = &r->geometry[b->kind];
    for (uint32_t i = 0; i < ga->surface_count; i++) {
        const snug_surface* B = &ga->surfaces[i];
        if (B->kind != SNUG_SURFACE_BINDING) continue;
        float nb[3], cb[3];
        rotate(&pa, B->normal, nb);
        rotate(&pa, B->vertices[0], cb);
        for (int k = 0; k < 3; k++) cb[k] += pa.p[k];
        for (uint32_t o = 0; o < gb->surface_count; o++) {
            const snug_surface* O = &gb->surfaces[o];
            bool fits = false;
            if (O->kind != SNUG_SURFACE_OFFER || snug_scene_label_fits(r->ctx, r->scene, B->label, O->label, &fits) ||
                !fits)
                continue;
            float no[3], co[3];
            rotate(&pb, O->normal, no);
            rotate(&pb, O->vertices[0], co);
            for (int k = 0; k < 3; k++) co[k] += pb.p[k];
            float facing = nb[0] * no[0] + nb[1] * no[1] + nb[2] * no[2];
            float apart = (co[0] - cb[0]) * no[0] + (co[1] - cb[1]) * no[1] + (co[2] - cb[2]) * no[2];
            if (facing > 0.9999f && fabsf(apart) < 1e-4f) {
                for (int k = 0; k < 3; k++) n[k] += nb[k];
                break;
            }
        }
    }
}

/* Every pair of bodies, every triangle pair: nothing touches but bound pairs in their binding plane. */
static uint32_t brute_interpenetrations(room* r) {
    uint32_t bad = 0;
    for (uint32_t i = 0; i < r->count; i++)
        for (uint32_t j = i + 1; j < r->count; j++) {
            snug_body_info ia, ib;
            snug_body_get_info(r->ctx, r->scene, r->items[i].body, &ia);
            snug_body_get_info(r->ctx, r->scene, r->items[j].body, &ib);
            if (ia.is_static && ib.is_static) continue;
            snug_pose pa, pb;
            snug_body_get_pose(r->ctx, r->scene, r->items[i].body, &pa);
            snug_body_get_pose(r->ctx, r->scene, r->items[j].body, &pb);
            float up_a[3], up_b[3];
            rest_normal(r, &r->items[i], &r->items[j], up_a);
            rest_normal(r, &r->items[j], &r->items[i], up_b);
            /* a lift of 1e-4 m parts coincident faces (the meshes' touching tolerance is far below it) */
            for (int k = 0; k < 3; k++) pa.p[k] += 1e-4f * (up_a[k] - up_b[k]);
            if (test_brute_overlap(&r->geometry[r->items[i].kind].mesh, &pa, &r->geometry[r->items[j].kind].mesh, &pb,
                                   1e-6f)) {
                fprintf(stderr, "  brute force: bodies %u and %u interpenetrate\n", i, j);
                bad++;
            }
        }
    return bad;
}

/* events random operations from seed, checking the room after each; returns the move reasons seen. */
static uint32_t random_drags(uint64_t seed, int events) {
    room r;
    room_open(&r);
    CHECK(violations(&r) == 0);
    CHECK(brute_interpenetrations(&r) == 0);
    if (harness_current_failed) return 0;
    rng g = {seed};
    uint32_t reasons_seen = 0;
    for (int e = 0; e < events; e++) {
        item* it = &r.items[5 + rng_next(&g) % (r.count - 5)]; /* not the floor or the walls */
        snug_move_def d = snug_default_move_def();
        snug_pose p;
        CHECK(snug_body_get_pose(r.ctx, r.scene, it->body, &p) == SNUG_OK);
        int action = (int)(rng_next(&g) % 10);
        if (action < 6) { /* a drag step of 2-5 cm */
            float a = rng_range(&g, 0, 6.2831853f), len = rng_range(&g, 0.02f, 0.05f);
            d.target = p;
            d.target.p[0] += len * cosf(a), d.target.p[2] += len * sinf(a);
        } else if (action < 8) { /* the pointer from above somewhere in the room, grabbing the body's origin */
            d.input = SNUG_MOVE_POINTER;
            d.ray.origin[0] = rng_range(&g, -2.8f, 2.8f), d.ray.origin[1] = 3.0f, d.ray.origin[2] = rng_range(&g, -2.8f, 2.8f);
            d.ray.dir[1] = -1.0f;
            d.ray.tmax = INFINITY;
        } else if (action < 9) { /* a turn, sometimes in 15 degree steps */
            d.target = p;
            d.turn = rng_range(&g, -0.6f, 0.6f);
            if (rng_next(&g) & 1) d.angle_step = 3.14159265f / 12;
        } else { /* free mode: lift and move, then take the seat it would */
            d.mode = SNUG_PLACE_FREE;
            d.target = p;
            d.target.p[0] += rng_range(&g, -0.1f, 0.1f), d.target.p[1] += rng_range(&g, 0.0f, 0.1f);
            d.target.p[2] += rng_range(&g, -0.1f, 0.1f);
        }
        snug_move_result res;
        snug_status st = snug_body_move(r.ctx, r.scene, it->body, &d, &res);
        CHECK_MSG(st == SNUG_OK, "event %d: %s", e, snug_ctx_last_error(r.ctx));
        if (d.mode == SNUG_PLACE_FREE && res.has_candidate) {
            st = snug_body_bind(r.ctx, r.scene, it->body, res.candidate.binding, res.candidate.supporter,
                                res.candidate.offer);
            CHECK_MSG(st == SNUG_OK || st == SNUG_ERR_INVALID_ARGUMENT, "event %d bind: %s", e, snug_ctx_last_error(r.ctx));
        }
        reasons_seen |= res.reasons;
        uint32_t v = violations(&r);
        CHECK_MSG(v == 0, "seed %llu, event %d (action %d, body kind %d): %u violations", (unsigned long long)seed, e,
                  action, (int)it->kind, v);
        if (e % 50 == 49) CHECK_MSG(brute_interpenetrations(&r) == 0, "seed %llu, event %d", (unsigned long long)seed, e);
        if (harness_current_failed) break;
    }
    room_close(&r);
    return reasons_seen;
}

static void test_random_drags_keep_the_room_consistent(void) {
    uint32_t reasons_seen = random_drags(harness_seed(), 10000 * harness_scale());
    RETURN_IF_FAILED();
    /* the run exercised blocking, containment, re-seating and snapping */
    CHECK(reasons_seen & SNUG_MOVE_BLOCKED);
    CHECK(reasons_seen & SNUG_MOVE_CONTAINED);
    CHECK(reasons_seen & SNUG_MOVE_RESEATED);
}

/* Runs that found defects, replayed as far as the finding (their paths depend on every rule of the mover, so a later
 * change may lead them elsewhere; they still run what they ran). Seed 67, event 399: a book at the edge of its offer
 * is turned, its supports sampled holding along the turn, and a body stops the turn short where the book reaches
 * past the edge (the end of a turn stopped short was not checked). */
static void test_random_drags_found_defects(void) {
    random_drags(67, 400);
}

int main(void) {
    RUN(test_random_drags_keep_the_room_consistent);
    RUN(test_random_drags_found_defects);
    return harness_finish();
}
