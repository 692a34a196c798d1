/* Placement: labels, surfaces, binding, the mover's constraints, sliding, re-seating, grouping, push-out, bad input,
 * with the consistency check after every step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "snug.h"
#include "test_furniture.h"
#include "test_meshes.h"
#include "../fuzz/place_room.h"


static snug_body add(test_room* r, test_item_kind kind, float x, float y, float z, float yaw) {
    snug_body_def def = snug_default_body_def();
    def.mesh = r->mesh[kind];
    def.pose.p[0] = x, def.pose.p[1] = y, def.pose.p[2] = z;
    def.pose.q[1] = sinf(0.5f * yaw), def.pose.q[3] = cosf(0.5f * yaw);
    snug_body b = 0;
    CHECK_MSG(snug_body_create(r->ctx, r->scene, &def, &b) == SNUG_OK, "%s", snug_ctx_last_error(r->ctx));
    return b;
}

/* Bind the body's nth binding surface to the supporter's nth offer, checking it worked. */
static void bind(test_room* r, snug_body body, test_item_kind kind, snug_body sup, test_item_kind sup_kind, uint32_t offer_nth) {
    snug_status st = snug_body_bind(r->ctx, r->scene, body, test_item_surface(kind, SNUG_SURFACE_BINDING, 0), sup,
                                    test_item_surface(sup_kind, SNUG_SURFACE_OFFER, offer_nth));
    CHECK_MSG(st == SNUG_OK, "bind: %s", snug_ctx_last_error(r->ctx));
}

/* add, then bind onto the supporter's first offer */
static snug_body add_on(test_room* r, test_item_kind kind, float x, float y, float z, float yaw, snug_body sup,
                        test_item_kind sup_kind) {
    snug_body b = add(r, kind, x, y, z, yaw);
    bind(r, b, kind, sup, sup_kind, 0);
    return b;
}

/* A body at pose, bound as it stands (a bind tests the seat, which the mover's touching test refuses for the hair
 * gaps the replayed findings start from) by its first binding surface to the supporter's first offer. */
static snug_body add_as_it_stands(test_room* r, test_item_kind kind, const snug_pose* pose, snug_body sup,
                                  test_item_kind sup_kind) {
    snug_body_def def = snug_default_body_def();
    def.mesh = r->mesh[kind];
    def.pose = *pose;
    snug_body b = 0;
    CHECK(snug_body_create(r->ctx, r->scene, &def, &b) == SNUG_OK);
    snug_binding bd = {b, test_item_surface(kind, SNUG_SURFACE_BINDING, 0), sup,
                       test_item_surface(sup_kind, SNUG_SURFACE_OFFER, 0)};
    CHECK(snug_body_set_bindings(r->ctx, r->scene, b, &bd, 1) == SNUG_OK);
    return b;
}

/* A drag of b to x, z (exactly: the replayed findings' targets), checking the call worked. */
static snug_move_result drag_to(test_room* r, snug_body b, float x, float z) {
    snug_move_def d = snug_default_move_def();
    CHECK(snug_body_get_pose(r->ctx, r->scene, b, &d.target) == SNUG_OK);
    d.target.p[0] = x, d.target.p[2] = z;
    snug_move_result res;
    CHECK(snug_body_move(r->ctx, r->scene, b, &d, &res) == SNUG_OK);
    return res;
}

/* The consistency check's violation count, each printed. */
static uint32_t scene_violations(snug_ctx* ctx, snug_scene scene) {
    snug_violation v[16];
    uint32_t total = 0;
    snug_status st = snug_scene_check(ctx, scene, v, 16, &total);
    CHECK(st == SNUG_OK || st == SNUG_ERR_BUFFER_TOO_SMALL);
    for (uint32_t i = 0; i < total && i < 16; i++)
        fprintf(stderr, "  violation kind %d body 0x%08x other 0x%08x binding %u amount %g\n", (int)v[i].kind,
                v[i].body, v[i].other, v[i].binding, v[i].amount);
    return total;
}

static uint32_t violations(test_room* r) { return scene_violations(r->ctx, r->scene); }

static snug_pose pose_of(test_room* r, snug_body b) {
    snug_pose p;
    CHECK(snug_body_get_pose(r->ctx, r->scene, b, &p) == SNUG_OK);
    return p;
}

static snug_move_result move_to(test_room* r, snug_body b, float dx, float dy, float dz, float turn) {
    snug_move_def d = snug_default_move_def();
    snug_pose p = pose_of(r, b);
    d.target = p;
    d.target.p[0] += dx, d.target.p[1] += dy, d.target.p[2] += dz;
    d.turn = turn;
    snug_move_result res;
    snug_status st = snug_body_move(r->ctx, r->scene, b, &d, &res);
    CHECK_MSG(st == SNUG_OK, "move: %s", snug_ctx_last_error(r->ctx));
    return res;
}

/* A pointer move's def: the pointer straight down onto the room from 3 m above (x, z). */
static snug_move_def pointer_from_above(float x, float z) {
    snug_move_def d = snug_default_move_def();
    d.input = SNUG_MOVE_POINTER;
    d.ray.origin[0] = x, d.ray.origin[1] = 3.0f, d.ray.origin[2] = z;
    d.ray.dir[1] = -1.0f;
    d.ray.tmax = INFINITY;
    return d;
}

static void test_labels_and_their_order(void) {
    test_room r;
    test_room_open(&r);
    bool fits = false;
    CHECK(snug_scene_label_fits(r.ctx, r.scene, SNUG_LABEL_ON_STORE, SNUG_LABEL_ON_WORKSPACE, &fits) == SNUG_OK && fits);
    CHECK(snug_scene_label_fits(r.ctx, r.scene, SNUG_LABEL_ON_WORKSPACE, SNUG_LABEL_ON_STORE, &fits) == SNUG_OK && !fits);
    CHECK(snug_scene_label_fits(r.ctx, r.scene, SNUG_LABEL_ON_STORE, SNUG_LABEL_ON_FLOOR, &fits) == SNUG_OK && !fits);
    snug_label l;
    CHECK(snug_scene_find_label(r.ctx, r.scene, "inFrontOfTable", &l) == SNUG_OK && l == SNUG_LABEL_IN_FRONT_OF_TABLE);
    CHECK(snug_scene_find_label(r.ctx, r.scene, "onMoon", &l) == SNUG_ERR_INVALID_ARGUMENT);
    /* a cycle in the order is refused and the table stays */
    const char* names[3] = {"a", "b", "c"};
    const uint32_t cyclic[6] = {0, 1, 1, 2, 2, 0};
    CHECK(snug_scene_set_labels(r.ctx, r.scene, names, 3, cyclic, 3) == SNUG_ERR_CYCLE);
    uint32_t count = 0;
    CHECK(snug_scene_get_label_count(r.ctx, r.scene, &count) == SNUG_OK && count == SNUG_LABEL_DEFAULT_COUNT);
    /* transitive closure */
    CHECK(snug_scene_set_labels(r.ctx, r.scene, names, 3, cyclic, 2) == SNUG_OK);
    CHECK(snug_scene_label_fits(r.ctx, r.scene, 0, 2, &fits) == SNUG_OK && fits);
    CHECK(snug_scene_label_fits(r.ctx, r.scene, 2, 0, &fits) == SNUG_OK && !fits);
    const char* dup[2] = {"a", "a"};
    CHECK(snug_scene_set_labels(r.ctx, r.scene, dup, 2, NULL, 0) == SNUG_ERR_INVALID_ARGUMENT);
    test_room_close(&r);
}

static void test_bad_surfaces_are_refused(void) {
    test_room r;
    test_room_open(&r);
    snug_mesh m = r.mesh[TEST_BLOCK];
    snug_surface good[2];
    uint32_t total = 0;
    CHECK(snug_mesh_get_surfaces(r.ctx, m, good, 2, &total) == SNUG_OK && total == 2);
    snug_surface bad[2];
    /* not planar */
    memcpy(bad, good, sizeof bad);
    bad[1].vertices[2][1] += 0.05f;
    CHECK(snug_mesh_set_surfaces(r.ctx, m, bad, 2) == SNUG_ERR_INVALID_ARGUMENT);
    /* clockwise seen from the normal */
    memcpy(bad, good, sizeof bad);
    bad[0].normal[1] = -1.0f;
    CHECK(snug_mesh_set_surfaces(r.ctx, m, bad, 2) == SNUG_ERR_INVALID_ARGUMENT);
    /* crossing itself (a bow tie) */
    memcpy(bad, good, sizeof bad);
    float t[3];
    memcpy(t, bad[0].vertices[1], sizeof t);
    memcpy(bad[0].vertices[1], bad[0].vertices[2], sizeof t);
    memcpy(bad[0].vertices[2], t, sizeof t);
    CHECK(snug_mesh_set_surfaces(r.ctx, m, bad, 2) == SNUG_ERR_INVALID_ARGUMENT);
    /* NaN, bad kind, too few vertices, non-unit normal */
    memcpy(bad, good, sizeof bad);
    bad[0].vertices[0][0] = NAN;
    CHECK(snug_mesh_set_surfaces(r.ctx, m, bad, 2) == SNUG_ERR_NOT_FINITE);
    memcpy(bad, good, sizeof bad);
    bad[0].kind = (snug_surface_kind)7;
    CHECK(snug_mesh_set_surfaces(r.ctx, m, bad, 2) == SNUG_ERR_INVALID_ARGUMENT);
    memcpy(bad, good, sizeof bad);
    bad[0].vertex_count = 2;
    CHECK(snug_mesh_set_surfaces(r.ctx, m, bad, 2) == SNUG_ERR_INVALID_ARGUMENT);
    memcpy(bad, good, sizeof bad);
    bad[0].normal[1] = 2.0f;
    CHECK(snug_mesh_set_surfaces(r.ctx, m, bad, 2) == SNUG_ERR_INVALID_ARGUMENT);
    /* the mesh kept its surfaces through all of it */
    snug_surface now[2];
    CHECK(snug_mesh_get_surfaces(r.ctx, m, now, 2, &total) == SNUG_OK && total == 2);
    CHECK(memcmp(now, good, sizeof now) == 0);
    test_room_close(&r);
}

static void test_bind_lamp_on_table(void) {
    test_room r;
    test_room_open(&r);
    snug_body table = add_on(&r, TEST_TABLE, 0, 0.3f, 0, 0.3f, r.floor, TEST_FLOOR);
    snug_pose tp = pose_of(&r, table);
    CHECK_NEAR(tp.p[1], 0.0f, 1e-5f); /* dropped onto the floor, turn kept */
    snug_body lamp = add_on(&r, TEST_LAMP, 0.3f, 1.2f, 0.1f, 1.0f, table, TEST_TABLE);
    snug_pose lp = pose_of(&r, lamp);
    CHECK_NEAR(lp.p[1], 0.78f, 1e-5f);
    snug_body parent = 0;
    CHECK(snug_body_get_parent(r.ctx, r.scene, lamp, &parent) == SNUG_OK && parent == table);
    snug_binding bd[4];
    uint32_t n = 0;
    CHECK(snug_body_get_bindings(r.ctx, r.scene, lamp, bd, 4, &n) == SNUG_OK && n == 1 && bd[0].supporter == table);
    CHECK(violations(&r) == 0);
    /* a chair does not go on a table (onFloor does not fit onWorkspace) */
    snug_body chair = add(&r, TEST_CHAIR, 1.5f, 1.0f, 0, 0);
    CHECK(snug_body_bind(r.ctx, r.scene, chair, test_item_surface(TEST_CHAIR, SNUG_SURFACE_BINDING, 0), table,
                         test_item_surface(TEST_TABLE, SNUG_SURFACE_OFFER, 0)) == SNUG_ERR_INVALID_ARGUMENT);
    /* a body cannot rest on what it carries */
    CHECK(snug_body_bind(r.ctx, r.scene, table, test_item_surface(TEST_TABLE, SNUG_SURFACE_BINDING, 0), lamp, 0) !=
          SNUG_OK);
    test_room_close(&r);
}

static void test_blocks_refuse_a_cycle(void) {
    test_room r;
    test_room_open(&r);
    snug_body a = add(&r, TEST_BLOCK, 0, 0, 0, 0), b = add(&r, TEST_BLOCK, 1.0f, 0, 0, 0);
    CHECK(snug_body_bind(r.ctx, r.scene, b, 1, a, 0) == SNUG_OK);
    snug_pose pb = pose_of(&r, b);
    CHECK_NEAR(pb.p[1], 0.4f, 1e-5f);
    CHECK(snug_body_bind(r.ctx, r.scene, a, 1, b, 0) == SNUG_ERR_CYCLE);
    CHECK(snug_body_bind(r.ctx, r.scene, a, 1, a, 0) == SNUG_ERR_CYCLE);
    test_room_close(&r);
}

static void test_slide_stays_on_the_table_and_turns_about_up(void) {
    test_room r;
    test_room_open(&r);
    snug_body table = add_on(&r, TEST_TABLE, 0, 0, 0, 0, r.floor, TEST_FLOOR);
    snug_body lamp = add_on(&r, TEST_LAMP, 0, 0.9f, 0, 0, table, TEST_TABLE);
    rng g = {harness_seed()};
    for (int i = 0; i < 200 * harness_scale(); i++) {
        snug_move_def d = snug_default_move_def();
        d.target.p[0] = rng_range(&g, -1.5f, 1.5f);
        d.target.p[1] = rng_range(&g, -1.0f, 2.0f);
        d.target.p[2] = rng_range(&g, -1.0f, 1.0f);
        rng_unit_quat(&g, d.target.q);
        snug_move_result res;
        CHECK_MSG(snug_body_move(r.ctx, r.scene, lamp, &d, &res) == SNUG_OK, "%s", snug_ctx_last_error(r.ctx));
        snug_pose p = pose_of(&r, lamp);
        CHECK_NEAR(p.p[1], 0.78f, 1e-5f);
        /* upright: local up stays world up (rotation about up only) */
        float qx = p.q[0], qy = p.q[1], qz = p.q[2], qw = p.q[3];
        float upy = 1.0f - 2.0f * (qx * qx + qz * qz);
        CHECK_NEAR(upy, 1.0f, 1e-5f);
        /* the base stays on the table top (its corners, overhang 5 % of the base's radius) */
        float c = qw * qw - qy * qy, sn = 2.0f * qy * qw; /* cos and sin of the yaw */
        float reach = 0.08f * (fabsf(c) + fabsf(sn)), over = 0.05f * 0.08f * sqrtf(2.0f) + 1e-5f;
        CHECK_MSG(fabsf(p.p[0]) <= 0.8f - reach + over && fabsf(p.p[2]) <= 0.45f - reach + over, "lamp at %g %g",
                  p.p[0], p.p[2]);
        CHECK(res.binding_count == 1 && res.bindings[0].supporter == table);
        CHECK(res.allowed_axes == 2);
        RETURN_IF_FAILED();
    }
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* A room with a table, a lamp at x = -0.5 and a book at x = 0.2 on it, both bound to it. */
static void lamp_and_book_on_a_table(test_room* r, snug_body* lamp, snug_body* book) {
    test_room_open(r);
    snug_body table = add_on(r, TEST_TABLE, 0, 0, 0, 0, r->floor, TEST_FLOOR);
    *lamp = add_on(r, TEST_LAMP, -0.5f, 0.9f, 0, 0, table, TEST_TABLE);
    *book = add_on(r, TEST_BOOK, 0.2f, 0.9f, 0, 0, table, TEST_TABLE);
}

static void test_blocked_by_a_book_then_slides(void) {
    test_room r;
    snug_body lamp, book;
    lamp_and_book_on_a_table(&r, &lamp, &book);
    /* push the lamp at the book in 2 cm steps: it stops a skin short, reports the book */
    bool blocked = false;
    for (int i = 0; i < 60; i++) {
        snug_move_result res = move_to(&r, lamp, 0.02f, 0, 0, 0);
        if (res.reasons & SNUG_MOVE_BLOCKED) {
            blocked = true;
            CHECK(res.blocker_count >= 1 && res.blockers[0].body == book);
        }
        CHECK(violations(&r) == 0);
        RETURN_IF_FAILED();
    }
    CHECK(blocked);
    snug_pose p = pose_of(&r, lamp);
    CHECK(p.p[0] < 0.2f - 0.075f - 0.08f + 1e-4f); /* the base's edge before the book's */
    CHECK(p.p[0] > 0.2f - 0.075f - 0.08f - 0.01f); /* and close to it */
    /* diagonally into the book: it slides along it in z */
    snug_pose before = pose_of(&r, lamp);
    move_to(&r, lamp, 0.05f, 0, 0.05f, 0);
    snug_pose after = pose_of(&r, lamp);
    CHECK(after.p[2] > before.p[2] + 0.04f);
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* Pushes the lamp in 2 cm steps along (dx, dz) until the book blocks it, then once more; returns whether it was
 * blocked by the book both times. */
static bool push_until_the_book(test_room* r, snug_body lamp, snug_body book, float dx, float dz) {
    for (int i = 0; i < 40; i++) {
        snug_move_result res = move_to(r, lamp, dx, 0, dz, 0);
        if (!(res.reasons & SNUG_MOVE_BLOCKED)) continue;
        snug_pose before = pose_of(r, lamp);
        snug_move_result again = move_to(r, lamp, dx, 0, dz, 0);
        snug_pose after = pose_of(r, lamp);
        return res.blockers[0].body == book && (again.reasons & SNUG_MOVE_BLOCKED) && again.blocker_count >= 1 &&
               again.blockers[0].body == book && !memcmp(&before, &after, sizeof before);
    }
    return false;
}

/* A drag remembers what it ended pressed against and clear of for the next event (mover.c): never once the other
 * body has moved or no longer collides with it. */
static void test_a_pressed_drag_forgets_a_contact_that_went_away(void) {
    test_room r;
    snug_body lamp, book;
    lamp_and_book_on_a_table(&r, &lamp, &book);
    CHECK(push_until_the_book(&r, lamp, book, 0.02f, 0));
    /* the book moved 1 cm into it: the next drag starts overlapping, reports it and is not trapped */
    snug_pose bp = pose_of(&r, book);
    bp.p[0] -= 0.01f;
    CHECK(snug_body_set_pose(r.ctx, r.scene, book, &bp) == SNUG_OK);
    snug_pose l0 = pose_of(&r, lamp);
    snug_move_result res = move_to(&r, lamp, -0.02f, 0, 0, 0);
    CHECK((res.reasons & SNUG_MOVE_STARTED_OVERLAPPING) && pose_of(&r, lamp).p[0] < l0.p[0] - 0.019f);
    CHECK(push_until_the_book(&r, lamp, book, 0.02f, 0));
    /* the book moves aside (on the table): the lamp goes on */
    bp = pose_of(&r, book);
    bp.p[2] += 0.3f;
    CHECK(snug_body_set_pose(r.ctx, r.scene, book, &bp) == SNUG_OK);
    l0 = pose_of(&r, lamp);
    res = move_to(&r, lamp, 0.02f, 0, 0, 0);
    CHECK(!(res.reasons & SNUG_MOVE_BLOCKED) && pose_of(&r, lamp).p[0] > l0.p[0] + 0.019f);
    /* pressed against it again, sideways; then the book stops colliding: the lamp goes on */
    CHECK(push_until_the_book(&r, lamp, book, 0, 0.02f));
    CHECK(snug_body_set_enabled(r.ctx, r.scene, book, false) == SNUG_OK);
    l0 = pose_of(&r, lamp);
    res = move_to(&r, lamp, 0, 0, 0.02f, 0);
    CHECK(!(res.reasons & SNUG_MOVE_BLOCKED) && pose_of(&r, lamp).p[2] > l0.p[2] + 0.019f);
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* The memory keeps only what a drag ends pressed against: a lamp slid along a book's side goes on past its end (a
 * plane kept from the first contact would hold it in line with the side for the rest of the drag). */
static void test_a_slide_along_a_body_goes_on_past_its_end(void) {
    test_room r;
    snug_body lamp, book;
    lamp_and_book_on_a_table(&r, &lamp, &book);
    CHECK(push_until_the_book(&r, lamp, book, 0.02f, 0));
    float pressed = pose_of(&r, lamp).p[0];
    /* diagonally: along the book's side (z) while it is there (0.11 + 0.08 from the book's centre), then on in x */
    for (int i = 0; i < 15; i++) move_to(&r, lamp, 0.02f, 0, 0.02f, 0);
    snug_pose p = pose_of(&r, lamp);
    CHECK_MSG(p.p[2] > 0.25f && p.p[0] > pressed + 0.04f, "lamp at x %g z %g, pressed at x %g", p.p[0], p.p[2], pressed);
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* A drag that meets a body at a slant stops a skin from it along the contact's normal, not along the drag, and keeps
 * that skin while it slides on (the random room, seeds 150 and 324: a skin along drags grazing a chair's back left a
 * book on the seat a fraction of a skin nearer at every blocked drag, until it touched). */
static void test_a_slanted_drag_into_a_chair_back_keeps_a_skin_from_it(void) {
    test_room r;
    test_room_open(&r);
    snug_body chair = add_on(&r, TEST_CHAIR, 0, 0, 0, 0, r.floor, TEST_FLOOR);
    snug_body book = add_on(&r, TEST_BOOK, -0.1f, 0.47f, -0.058f, 0, chair, TEST_CHAIR);
    const double skin = 2e-3 * 0.5 * sqrt(0.15 * 0.15 + 0.03 * 0.03 + 0.22 * 0.22);
    bool blocked = false;
    for (int i = 0; i < 15; i++) {
        snug_move_result res = move_to(&r, book, 0.01f, 0, -0.004f, 0);
        blocked |= (res.reasons & SNUG_MOVE_BLOCKED) != 0;
        /* the book's back face to the chair's back: lifted off the seat, nothing else is as near */
        snug_pose lifted = pose_of(&r, book), at = pose_of(&r, chair);
        lifted.p[1] += 0.01f;
        snug_distance_result d;
        CHECK(snug_mesh_distance(r.ctx, r.mesh[TEST_BOOK], &lifted, r.mesh[TEST_CHAIR], &at, &d) == SNUG_OK);
        if (blocked)
            CHECK_MSG(d.distance > 0.99 * skin && d.distance < 1.2 * skin, "step %d: %g skins", i, d.distance / skin);
        CHECK(violations(&r) == 0);
        RETURN_IF_FAILED();
    }
    CHECK(blocked);
    CHECK(pose_of(&r, book).p[0] > 0.04f); /* slid on along the back */
    test_room_close(&r);
}

static void test_table_carries_its_lamp_and_stops_for_it(void) {
    test_room r;
    test_room_open(&r);
    snug_body table = add_on(&r, TEST_TABLE, 0, 0, 0, 0, r.floor, TEST_FLOOR);
    snug_body lamp = add_on(&r, TEST_LAMP, 0.6f, 0.9f, 0, 0, table, TEST_TABLE);
    /* a wall whose foot the table passes but the lamp does not: a block on a block standing beside it */
    snug_body b1 = add(&r, TEST_BLOCK, 1.6f, 0.01f, 0, 0);
    snug_body b2 = add(&r, TEST_BLOCK, 1.6f, 0.42f, 0, 0);
    snug_body b3 = add(&r, TEST_BLOCK, 1.6f, 0.83f, 0, 0);
    (void)b1, (void)b2;
    snug_pose l0 = pose_of(&r, lamp), t0 = pose_of(&r, table);
    move_to(&r, table, 0.1f, 0, 0, 0);
    snug_pose l1 = pose_of(&r, lamp), t1 = pose_of(&r, table);
    CHECK_NEAR(l1.p[0] - l0.p[0], t1.p[0] - t0.p[0], 1e-5f);
    CHECK(t1.p[0] > t0.p[0] + 0.09f);
    for (int i = 0; i < 40; i++) move_to(&r, table, 0.03f, 0, 0, 0);
    snug_pose l2 = pose_of(&r, lamp);
    /* the table top (x up to 0.8 from its centre) reaches the blocks first: 1.4 - 0.8 = 0.6 */
    snug_pose t2 = pose_of(&r, table);
    CHECK(t2.p[0] < 0.6f && t2.p[0] > 0.55f);
    CHECK(l2.p[1] > 0.77f);
    (void)b3;
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* A block held unbound in the air, its base in the plane of a table's top beside it, and the slab the table stands
 * on moved towards it while rising less than half a skin. The mover parts bodies that rest on each other by half a
 * skin in its tests; it took the block for resting on the table although it was beside it, and let the table rise
 * into it (fuzz_place: the floor carrying its tables under a block left standing on one of them). */
static void test_a_table_carried_beside_a_block_at_its_height_does_not_rise_into_it(void) {
    test_room r;
    test_room_open(&r);
    snug_body slab = add(&r, TEST_FLOOR, 0, 2.0f, 0, 0); /* a second floor 2 m up, unbound: it may rise */
    add_on(&r, TEST_TABLE, -1.5f, 2.0f, 0, 0, slab, TEST_FLOOR);
    snug_body block = add(&r, TEST_BLOCK, -0.45f, 2.78f, 0, 0);
    CHECK(violations(&r) == 0);
    snug_move_result res = move_to(&r, slab, 0.5f, 0.0006f, 0, 0);
    bool found = false;
    for (uint32_t i = 0; i < res.blocker_count; i++) found |= res.blockers[i].body == block;
    CHECK_MSG(found, "the block stops the table (%u blockers, reasons %x)", res.blocker_count, res.reasons);
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* A free move asking a table standing on the floor for a turn about a tilted axis: the mover tests resting pairs
 * lifted apart by half a skin, and the turn tilted the table into the floor by up to that (fuzz_place). A turn that
 * takes a point of the contact into the support is blocked where it starts. */
static void test_a_free_turn_does_not_tilt_a_table_into_the_floor(void) {
    test_room r;
    test_room_open(&r);
    snug_body table = add_on(&r, TEST_TABLE, -0.9f, 0, -0.8f, 0, r.floor, TEST_FLOOR);
    add(&r, TEST_BLOCK, -0.9f, 0.781f, -0.8f, 0); /* held 1 mm above its top: no room to lift it off the floor */
    snug_move_def d = snug_default_move_def();
    d.mode = SNUG_PLACE_FREE;
    d.target = pose_of(&r, table);
    const float q[4] = {0.194503427f, 0.194503427f, 0.194503427f, -0.941544116f};
    memcpy(d.target.q, q, sizeof q);
    d.target.p[0] = 13.75f, d.target.p[2] = 5.125f;
    d.turn = -4.55f;
    snug_move_result res;
    CHECK(snug_body_move(r.ctx, r.scene, table, &d, &res) == SNUG_OK);
    CHECK(violations(&r) == 0);
    snug_pose p = pose_of(&r, table);
    CHECK_MSG(fabsf(p.q[0]) < 1e-6f && fabsf(p.q[2]) < 1e-6f, "tilted: %g %g %g %g", p.q[0], p.q[1], p.q[2], p.q[3]);
    test_room_close(&r);
}

/* A block on a table carried 530 m off, bound onto another block near the origin where the bind's clamp puts it at a
 * corner of the overhang: the bind set its pose while the far table was still its parent, whose float local pose
 * rounded it there by up to half a float step (3e-5), out of its new offer (fuzz_place). */
static void test_a_bind_from_far_away_lands_inside_its_offer(void) {
    test_room r;
    test_room_open(&r);
    snug_body table = add_on(&r, TEST_TABLE, 0, 0, 0, 0, r.floor, TEST_FLOOR);
    snug_body top = add_on(&r, TEST_BLOCK, 0.3f, 0.78f, 0.1f, 0, table, TEST_TABLE);
    snug_body base = add(&r, TEST_BLOCK, 1.5f, 0.01f, 1.5f, 0); /* held 1 cm above the floor */
    CHECK(snug_body_unbind(r.ctx, r.scene, table) == SNUG_OK);
    snug_pose far = pose_of(&r, table);
    far.p[0] = 530.123f, far.p[1] = 0.7519f, far.p[2] = 2.569f;
    CHECK(snug_body_set_pose(r.ctx, r.scene, table, &far) == SNUG_OK);
    CHECK(violations(&r) == 0);
    bind(&r, top, TEST_BLOCK, base, TEST_BLOCK, 0);
    snug_pose p = pose_of(&r, top), b = pose_of(&r, base);
    CHECK_MSG(violations(&r) == 0, "the block at %g %g off the other's centre", p.p[0] - b.p[0], p.p[2] - b.p[2]);
    test_room_close(&r);
}

/* A table given a second binding surface parallel to its feet's (a block's base under it, as fuzz_place gave one) and
 * bound by it onto a block standing on the floor: the bind lifts it onto the block, where its feet's binding on the
 * floor no longer holds. It kept that binding, its planes the block's height apart (fuzz_place); it lets it go. */
static void test_a_bind_lets_go_the_bindings_its_move_breaks(void) {
    test_room r;
    test_room_open(&r);
    snug_body table = add_on(&r, TEST_TABLE, 0.9f, 0, 0.9f, 1.5707963f, r.floor, TEST_FLOOR);
    snug_body block = add(&r, TEST_BLOCK, 1.2f, 0.01f, -1.2f, 0);
    snug_surface s[16], base[16];
    uint32_t n = 0, nb = 0;
    CHECK(snug_mesh_get_surfaces(r.ctx, r.mesh[TEST_TABLE], s, 15, &n) == SNUG_OK);
    CHECK(snug_mesh_get_surfaces(r.ctx, r.mesh[TEST_BLOCK], base, 16, &nb) == SNUG_OK);
    s[n] = base[test_item_surface(TEST_BLOCK, SNUG_SURFACE_BINDING, 0)];
    CHECK(snug_mesh_set_surfaces(r.ctx, r.mesh[TEST_TABLE], s, n + 1) == SNUG_OK);
    CHECK(violations(&r) == 0);
    snug_status st = snug_body_bind(r.ctx, r.scene, table, n, block, test_item_surface(TEST_BLOCK, SNUG_SURFACE_OFFER, 0));
    CHECK_MSG(st == SNUG_OK, "bind: %s", snug_ctx_last_error(r.ctx));
    CHECK(violations(&r) == 0);
    snug_binding list[4];
    uint32_t total = 0;
    CHECK(snug_body_get_bindings(r.ctx, r.scene, table, list, 4, &total) == SNUG_OK);
    CHECK_MSG(total == 1 && list[0].supporter == block && list[0].binding == n, "%u bindings, the first on 0x%08x",
              total, total ? list[0].supporter : 0);
    test_room_close(&r);
}

/* The fuzz room (tests/fuzz/place_room.h) with its bodies where a fuzz input left them, in the layout's order; body 0,
 * the floor, static. */
typedef struct fuzz_room_pose {
    int kind;
    float q[4], p[3];
} fuzz_room_pose;
typedef struct fuzz_room {
    snug_ctx* ctx;
    snug_scene scene;
    snug_mesh mesh[ROOM_KINDS];
    snug_body b[ROOM_BODIES];
} fuzz_room;

static void fuzz_room_open(fuzz_room* r, const fuzz_room_pose at[ROOM_BODIES]) {
    r->ctx = snug_ctx_create(NULL);
    CHECK(snug_scene_create(r->ctx, &r->scene) == SNUG_OK);
    room_kind kinds[ROOM_KINDS];
    CHECK_MSG(room_meshes(r->ctx, kinds, r->mesh), "%s", snug_ctx_last_error(r->ctx));
    for (uint32_t i = 0; i < ROOM_BODIES; i++) {
        snug_body_def def = snug_default_body_def();
        def.mesh = r->mesh[at[i].kind];
        def.is_static = i == 0;
        memcpy(def.pose.q, at[i].q, sizeof def.pose.q);
        memcpy(def.pose.p, at[i].p, sizeof def.pose.p);
        CHECK(snug_body_create(r->ctx, r->scene, &def, &r->b[i]) == SNUG_OK);
    }
}

/* Each binding of the list set as its body's only one. */
static void bind_each(snug_ctx* ctx, snug_scene scene, const snug_binding* list, int count) {
    for (int i = 0; i < count; i++)
        CHECK_MSG(snug_body_set_bindings(ctx, scene, list[i].body, &list[i], 1) == SNUG_OK, "%s",
                  snug_ctx_last_error(ctx));
}

/* fuzz_place, in its room (place_room.h): the floor moved and tilted by 0.0035 rad with everything on it, the blocks
 * and the lamp let go, and the block on a table pushed 0.61 m along its top (after a free move that went nowhere): it
 * rose 2.0 mm where the top rises 2.1 mm and ended in the table. The mover's plane for a resting pair was the
 * direction between witness points half a skin apart, floats a metre out: 2e-4 rad off the top's. The plane is now
 * the offer's. */
static void test_a_block_pushed_along_a_tilted_table_stays_on_it(void) {
    /* floor, two tables, a block on each, a lamp, a block and a lamp on the floor, a lamp in the air: as the fuzz
     * input left them */
    static const fuzz_room_pose at[ROOM_BODIES] = {
        {ROOM_FLOOR, {0x1.c58418p-11f, 0x1.43207cp-10f, 0x1.bfba46p-10f, 0x1.ffffaap-1f}, {0x1.58cd8ep+0f, 0x1.2bc5b4p-8f, -0x1.b41172p-9f}},
        {ROOM_TABLE, {0x1.c58418p-11f, 0x1.43207cp-10f, 0x1.bfba46p-10f, 0x1.ffffaap-1f}, {0x1.c79918p-2f, 0x1.794db8p-9f, -0x1.9a2abep-1f}},
        {ROOM_TABLE, {-0x1.387f8cp-11f, 0x1.6a7be8p-1f, 0x1.dceef4p-10f, 0x1.69976ep-1f}, {0x1.1fe282p+1f, 0x1.8f951ep-8f, 0x1.c9f5bcp-1f}},
        {ROOM_BLOCK, {0x1.3a9bbcp-11f, 0x1.348b6cp-3f, 0x1.dc962p-10f, 0x1.fa27bap-1f}, {0x1.c4f9ecp-2f, 0x1.817896p-1f, -0x1.998042p-1f}},
        {ROOM_BLOCK, {0x1.c58418p-11f, 0x1.432p-10f, 0x1.bfba48p-10f, 0x1.ffffbp-1f}, {0x1.12c1ccp+1f, 0x1.833616p-1f, 0x1.cac09cp-1f}},
        {ROOM_LAMP, {0x1.c5841cp-11f, 0x1.431fp-10f, 0x1.bfba46p-10f, 0x1.ffffaep-1f}, {0x1.c3ed22p-2f, 0x1.0d9fap+0f, -0x1.993bfcp-1f}},
        {ROOM_BLOCK, {0, 0, 0, 1}, {0x1.333334p+0f, 0x1.47ae14p-7f, -0x1.333334p+0f}},
        {ROOM_LAMP, {0, 0x1.faaeeep-3f, 0, 0x1.f0154ap-1f}, {-0x1.8p+0f, 0x1.47ae14p-7f, 0x1.8p+0f}},
        {ROOM_LAMP, {0, 0, 0, 1}, {0, 0x1.8p+0f, 0}},
    };
    fuzz_room r;
    fuzz_room_open(&r, at);
    snug_ctx* ctx = r.ctx;
    snug_scene scene = r.scene;
    const snug_body* b = r.b;
    for (int i = 1; i <= 2; i++) {
        snug_binding on_floor = {b[i], 1, b[0], 0};
        CHECK_MSG(snug_body_set_bindings(ctx, scene, b[i], &on_floor, 1) == SNUG_OK, "%s", snug_ctx_last_error(ctx));
    }
    CHECK(scene_violations(ctx, scene) == 0);
    snug_move_def d = snug_default_move_def();
    d.mode = SNUG_PLACE_FREE;
    const float q1[4] = {0x1.46af48p-10f, 0x1.07c73cp-1f, 0x1.7cfe7p-10f, 0x1.b6d23ep-1f};
    const float p1[3] = {0x1.0d3e7cp+0f, 0x1.5cbc4cp+0f, -0x1.860108p-3f};
    memcpy(d.target.q, q1, sizeof q1), memcpy(d.target.p, p1, sizeof p1);
    d.turn = 0x1.f33334p+0f, d.angle_step = 0x1.f33334p-1f;
    snug_move_result res;
    CHECK(snug_body_move(ctx, scene, b[3], &d, &res) == SNUG_OK);
    d = snug_default_move_def();
    const float q2[4] = {0x1.3a9bbcp-11f, 0x1.348b6cp-3f, 0x1.dc962p-10f, 0x1.fa27bap-1f};
    const float p2[3] = {0x1.0d3e7cp+0f, 0x1.817896p-1f, -0x1.998042p-1f};
    memcpy(d.target.q, q2, sizeof q2), memcpy(d.target.p, p2, sizeof p2);
    d.turn = 0x1.f33334p+0f;
    CHECK(snug_body_move(ctx, scene, b[3], &d, &res) == SNUG_OK);
    CHECK(scene_violations(ctx, scene) == 0);
    snug_ctx_destroy(ctx);
}

/* fuzz_place, in its room (place_room.h): the second table, unbound, stood at the floor's corner with all four feet
 * past its edges, its binding rectangle over the corner (so resting on the floor: the mover tests such a pair half a
 * skin apart). The floor, turned by a step with the first table on it, was asked up and sideways: no foot was within
 * two skins, so no contact plane held it down, and it rose 2.2e-4 while sliding 0.039 under a foot. A resting pair
 * may not close along its rest normal, contact or not. */
static void test_a_floor_does_not_rise_into_a_table_standing_past_its_corner(void) {
    /* the room as the fuzz input left it: the first table with its block and lamp, the second table moved to the
     * floor's corner and let go, its block let go where it stood, the block and lamps of the layout */
    static const fuzz_room_pose at[ROOM_BODIES] = {
        {ROOM_FLOOR, {0, 0, 0, 1}, {0, 0, 0}},
        {ROOM_TABLE, {0, 0, 0, 1}, {-0x1.ccccccp-1f, 0, -0x1.99999ap-1f}},
        {ROOM_TABLE, {0, 0x1.c6e82ap-2f, 0, 0x1.cab41ap-1f}, {0x1.153334p+1f, 0, 0x1.e26666p+0f}},
        {ROOM_BLOCK, {0, 0x1.320cap-3f, 0, 0x1.fa4034p-1f}, {-0x1.ccccccp-1f, 0x1.8p-1f, -0x1.99999ap-1f}},
        {ROOM_BLOCK, {0, 0, 0, 1}, {0x1.99999cp-1f, 0x1.80442p-1f, 0x1.ccccccp-1f}},
        {ROOM_LAMP, {0, 0, 0, 1}, {-0x1.ccccccp-1f, 0x1.0cccccp+0f, -0x1.99999ap-1f}},
        {ROOM_BLOCK, {0, 0, 0, 1}, {0x1.333334p+0f, 0x1.47ae14p-7f, -0x1.333334p+0f}},
        {ROOM_LAMP, {0, 0x1.faaeeep-3f, 0, 0x1.f0154ap-1f}, {-0x1.8p+0f, 0x1.47ae14p-7f, 0x1.8p+0f}},
        {ROOM_LAMP, {0, 0, 0, 1}, {0, 0x1.8p+0f, 0}},
    };
    fuzz_room r;
    fuzz_room_open(&r, at);
    snug_ctx* ctx = r.ctx;
    snug_scene scene = r.scene;
    const snug_body* b = r.b;
    const snug_binding bound[3] = {{b[1], 1, b[0], 0}, {b[3], 1, b[1], 0}, {b[5], 0, b[3], 0}};
    bind_each(ctx, scene, bound, 3);
    CHECK(scene_violations(ctx, scene) == 0);
    snug_move_def d = snug_default_move_def();
    const float q[4] = {0, 0x1.cfc16cp-2f, 0, 0x1.c87ba4p-1f}, p[3] = {0, 0x1.78p-1f, 0x1.78p-1f};
    memcpy(d.target.q, q, sizeof q), memcpy(d.target.p, p, sizeof p);
    d.turn = 0x1.933334p+1f, d.angle_step = 0x1.933334p+0f;
    snug_move_result res;
    CHECK(snug_body_move(ctx, scene, b[0], &d, &res) == SNUG_OK);
    CHECK_MSG(res.pose.p[1] <= 0.0f, "the floor rose by %a", res.pose.p[1]);
    CHECK(scene_violations(ctx, scene) == 0);
    snug_ctx_destroy(ctx);
}

/* fuzz_place, in its room (place_room.h): the first table, unbound, stood beside the floor's edge (turned 0.002 rad
 * against it), one leg 1.2 mm from the slab's side and another 3.6 mm, on no offer (the fuzz input had replaced the
 * floor's surfaces). A free move took it down along that side. The mover's plane for the pair came from the first
 * witness its search found within two skins (2.4 mm), the farther leg, and let the pair close in by that leg's gap
 * less a skin: the nearer leg ended touching the side, where neither the sweeps nor the guard see a contact and the
 * check (reading the pair through the table's local pose, the floor its parent) found an overlap. A pair within two
 * skins now closes in no further along its plane. */
static void test_a_table_beside_the_floor_s_edge_does_not_close_in_on_it(void) {
    static const fuzz_room_pose at[ROOM_BODIES] = {
        {ROOM_FLOOR, {0, 0x1.c8e534p-2f, 0, 0x1.ca358ep-1f}, {0x1p-5f, 0, 0}},
        {ROOM_TABLE, {0, 0x1.c9cea2p-2f, 0, 0x1.c9fb4ap-1f}, {-0x1.1745e6p+1f, 0, -0x1.0e1ad4p+0f}},
        {ROOM_TABLE, {0, 0x1.e58a2cp-1f, 0, 0x1.44ee9p-2f}, {0x1.4aaa38p+0f, 0, -0x1.6ab75p-3f}},
        {ROOM_BLOCK, {0, 0x1.265b3cp-1f, 0, 0x1.a2ecdap-1f}, {-0x1.1745e4p+1f, 0x1.800002p-1f, -0x1.0e1adp+0f}},
        {ROOM_BLOCK, {0, 0x1.c8e538p-2f, 0, 0x1.ca358ep-1f}, {0x1.3b420ap+0f, 0x1.800002p-1f, -0x1.8e514p-4f}},
        {ROOM_LAMP, {0, 0x1.c8e536p-2f, 0, 0x1.ca358ep-1f}, {-0x1.1745e4p+1f, 0x1.0ccccep+0f, -0x1.0e1adp+0f}},
        {ROOM_BLOCK, {0, 0, 0, 1}, {0x1.333334p+0f, 0x1.47ae14p-7f, -0x1.333334p+0f}},
        {ROOM_LAMP, {0, 0x1.faaeeep-3f, 0, 0x1.f0154ap-1f}, {-0x1.8p+0f, 0x1.47ae14p-7f, 0x1.8p+0f}},
        {ROOM_LAMP, {0, 0, 0, 1}, {0, 0x1.8p+0f, 0}},
    };
    fuzz_room r;
    fuzz_room_open(&r, at);
    snug_ctx* ctx = r.ctx;
    snug_scene scene = r.scene;
    const snug_body* b = r.b;
    CHECK(snug_mesh_set_surfaces(ctx, r.mesh[ROOM_FLOOR], NULL, 0) == SNUG_OK);
    CHECK(snug_body_set_parent(ctx, scene, b[1], b[0], true) == SNUG_OK);
    const snug_binding bound[2] = {{b[3], 1, b[1], 0}, {b[5], 0, b[3], 0}};
    bind_each(ctx, scene, bound, 2);
    snug_pose table, floor;
    CHECK(snug_body_get_pose(ctx, scene, b[1], &table) == SNUG_OK && snug_body_get_pose(ctx, scene, b[0], &floor) == SNUG_OK);
    snug_distance_result before, after;
    CHECK(snug_mesh_distance(ctx, r.mesh[ROOM_TABLE], &table, r.mesh[ROOM_FLOOR], &floor, &before) == SNUG_OK);
    snug_move_def d = snug_default_move_def();
    d.mode = SNUG_PLACE_FREE;
    d.target = table;
    d.target.p[0] += 0.515625f, d.target.p[1] -= 0.390625f, d.target.p[2] += 0.71875f;
    snug_move_result res;
    CHECK(snug_body_move(ctx, scene, b[1], &d, &res) == SNUG_OK);
    CHECK(snug_body_get_pose(ctx, scene, b[1], &table) == SNUG_OK);
    CHECK_MSG(table.p[1] < -0.3f, "the table went down to %g", table.p[1]); /* along the slab's side */
    CHECK(snug_mesh_distance(ctx, r.mesh[ROOM_TABLE], &table, r.mesh[ROOM_FLOOR], &floor, &after) == SNUG_OK);
    CHECK_MSG(after.distance >= before.distance * 0.99f, "the table closed in on the floor from %g to %g",
              before.distance, after.distance);
    snug_violation v[16];
    uint32_t total = 0;
    CHECK(snug_scene_check(ctx, scene, v, 16, &total) == SNUG_OK);
    for (uint32_t i = 0; i < total; i++)
        CHECK_MSG(v[i].body != b[1] && v[i].other != b[1], "violation kind %d of 0x%08x and 0x%08x, amount %g",
                  (int)v[i].kind, v[i].body, v[i].other, v[i].amount);
    snug_ctx_destroy(ctx);
}

static void test_a_bound_table_moved_off_its_shrunk_offer_still_rests_on_the_floor(void) {
    /* Found by fuzz_place: the floor's offer was replaced by a smaller one that left a bound table half off it, and a
     * move took the table wholly off the offer, still standing on the floor's slab. The binding's containment fails
     * (reported since the surface edit), but the pair is bound: touching in the binding plane is resting, not an
     * overlap (snug.h, snug_scene_check). */
    test_room r;
    test_room_open(&r);
    snug_body table = add_on(&r, TEST_TABLE, 0, 0, 0, 0, r.floor, TEST_FLOOR);
    CHECK(violations(&r) == 0);
    snug_surface half = {SNUG_SURFACE_OFFER, SNUG_LABEL_ON_FLOOR, {0, 1, 0}, 4,
                         {{-3, 0, -3}, {-3, 0, 3}, {0, 0, 3}, {0, 0, -3}}};
    CHECK_MSG(snug_mesh_set_surfaces(r.ctx, r.mesh[TEST_FLOOR], &half, 1) == SNUG_OK, "%s",
              snug_ctx_last_error(r.ctx));
    snug_violation v[4];
    uint32_t total = 0;
    CHECK(snug_scene_check(r.ctx, r.scene, v, 4, &total) == SNUG_OK);
    CHECK(total == 1 && v[0].kind == SNUG_VIOLATION_CONTAINMENT && v[0].body == table);
    snug_move_result res = move_to(&r, table, 1.5f, 0, 0, 0);
    CHECK_NEAR(pose_of(&r, table).p[0], 1.5f, 1e-5f);
    CHECK(res.binding_count == 1 && res.bindings[0].supporter == r.floor);
    CHECK(snug_scene_check(r.ctx, r.scene, v, 4, &total) == SNUG_OK);
    for (uint32_t i = 0; i < total; i++)
        fprintf(stderr, "  violation kind %d body 0x%08x other 0x%08x\n", (int)v[i].kind, v[i].body, v[i].other);
    CHECK(total == 1 && v[0].kind == SNUG_VIOLATION_CONTAINMENT && v[0].body == table);
    test_room_close(&r);
}

/* fuzz_place's room (place_room.h) furnished as its layout says, in a fresh scene. */
static snug_ctx* furnished_room_open(snug_scene* scene, snug_body b[ROOM_BODIES]) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    CHECK(snug_scene_create(ctx, scene) == SNUG_OK);
    room_kind kinds[ROOM_KINDS];
    snug_mesh mesh[ROOM_KINDS];
    CHECK_MSG(room_meshes(ctx, kinds, mesh), "%s", snug_ctx_last_error(ctx));
    CHECK_MSG(room_furnish(ctx, *scene, mesh, kinds, b), "%s", snug_ctx_last_error(ctx));
    return ctx;
}

/* Unbinding lifts a body a skin off what it was bound to, unless that would close in on a body resting on it: in the
 * fuzz room (place_room.h) carried 352 m out, the lamp on the first block unbound (lifted 3.9e-4) and then the block
 * (a lift of 6.9e-4) rose 3e-4 into the lamp. The free test parts resting pairs by their contact lift, a few float
 * steps of the coordinates there (3.4e-4), which hid it, and the block's pose, stored in float, came out touching
 * the lamp (fuzz_place). */
static void test_unbinding_a_block_does_not_lift_it_into_a_lamp_standing_on_it(void) {
    snug_scene scene;
    snug_body b[ROOM_BODIES];
    snug_ctx* ctx = furnished_room_open(&scene, b);
    const snug_body block = b[3], lamp = b[5]; /* the lamp stands bound on the block, the block on the first table */
    snug_pose far = snug_pose_identity();
    far.p[0] = far.p[1] = far.p[2] = -352.0f;
    CHECK(snug_body_set_pose(ctx, scene, b[0], &far) == SNUG_OK); /* the floor, carrying what is bound on it */
    CHECK(snug_body_unbind(ctx, scene, lamp) == SNUG_OK);
    snug_pose l, k0, k1;
    CHECK(snug_body_get_pose(ctx, scene, lamp, &l) == SNUG_OK && snug_body_get_pose(ctx, scene, block, &k0) == SNUG_OK);
    CHECK_MSG(l.p[1] - (k0.p[1] + 0.3f) > 1e-4f, "the unbound lamp stands %g above the block", l.p[1] - (k0.p[1] + 0.3f));
    CHECK(snug_body_unbind(ctx, scene, block) == SNUG_OK);
    CHECK(snug_body_get_pose(ctx, scene, block, &k1) == SNUG_OK);
    CHECK_MSG(l.p[1] - (k1.p[1] + 0.3f) > 1e-4f, "the block rose %g, into the lamp by %g", k1.p[1] - k0.p[1],
              (k1.p[1] + 0.3f) - l.p[1]);
    snug_binding none[1];
    uint32_t count = 1;
    CHECK(snug_body_get_bindings(ctx, scene, block, none, 1, &count) == SNUG_OK && count == 0);
    snug_violation v[4];
    uint32_t total = 0;
    CHECK(snug_scene_check(ctx, scene, v, 4, &total) == SNUG_OK && total == 0);
    snug_ctx_destroy(ctx);
}

/* A pose relative to the supporter keeps the rounding of where it was set: in the fuzz room (place_room.h) carried
 * 352 m out and turned, the block on the first table moved on it (its world pose stored in float there, a step
 * 3e-5), then the room carried home: the block stood 3.8e-5 off the table's top, beyond the check's plane tolerance
 * of float poses near the origin (1.9e-5), and the binding was reported broken (fuzz_place). The plane tolerance now
 * covers what a carried pose kept, as the contact lift does, and a move puts the body back onto its offer's plane
 * (moved on it out there 16 times, the block had drifted 1.9e-4 off it). Moves back and forth, each carried home. */
static void test_a_block_moved_on_its_table_far_out_is_carried_home_bound(void) {
    snug_scene scene;
    snug_body b[ROOM_BODIES];
    snug_ctx* ctx = furnished_room_open(&scene, b);
    const snug_body floor = b[0], block = b[3]; /* the block stands bound on the first table, the table on the floor */
    const snug_pose far = {{-0x1.543d86p-1f, -0x1.5392d6p-2f, -0x1.0bacc2p-1f, 0x1.ac801ap-2f},
                           {-0x1.76002p+2f, -0x1.0991f8p+3f, -0x1.5fef28p+8f}};
    const snug_pose home = snug_pose_identity();
    for (int i = 0; i < 64; i++) {
        CHECK(snug_body_set_pose(ctx, scene, floor, &far) == SNUG_OK);
        snug_move_def d = snug_default_move_def();
        CHECK(snug_body_get_pose(ctx, scene, block, &d.target) == SNUG_OK);
        /* along the table's top, turned with the floor */
        const float step[3] = {0.013f * (float)(i % 13 - 6), 0, -0.007f * (float)(i % 7 - 3)};
        const float* q = far.q; /* step turned by the floor: v + 2 w (u x v) + 2 u x (u x v) */
        float t[3] = {2 * (q[1] * step[2] - q[2] * step[1]), 2 * (q[2] * step[0] - q[0] * step[2]),
                      2 * (q[0] * step[1] - q[1] * step[0])};
        d.target.p[0] += step[0] + q[3] * t[0] + q[1] * t[2] - q[2] * t[1];
        d.target.p[1] += step[1] + q[3] * t[1] + q[2] * t[0] - q[0] * t[2];
        d.target.p[2] += step[2] + q[3] * t[2] + q[0] * t[1] - q[1] * t[0];
        snug_move_result res;
        CHECK(snug_body_move(ctx, scene, block, &d, &res) == SNUG_OK);
        CHECK(res.binding_count == 1);
        CHECK(snug_body_set_pose(ctx, scene, floor, &home) == SNUG_OK);
        CHECK_MSG(scene_violations(ctx, scene) == 0, "after the move of %g", (double)step[0]);
    }
    snug_ctx_destroy(ctx);
}

/* fuzz_place's room meshes in a fresh scene, the table given a third surface: a small base that binds onStore, so
 * tables stack on each other's tops. */
static snug_ctx* stacking_room_open(snug_scene* scene, snug_mesh mesh[ROOM_KINDS]) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    CHECK(snug_scene_create(ctx, scene) == SNUG_OK);
    room_kind kinds[ROOM_KINDS];
    CHECK_MSG(room_meshes(ctx, kinds, mesh), "%s", snug_ctx_last_error(ctx));
    snug_surface s[3];
    memcpy(s, kinds[ROOM_TABLE].surfaces, 2 * sizeof *s);
    s[2] = s[1];
    s[2].label = SNUG_LABEL_ON_STORE;
    const float base[4][3] = {{-0.06f, 0, -0.06f}, {-0.06f, 0, 0.06f}, {0.06f, 0, 0.06f}, {0.06f, 0, -0.06f}};
    memcpy(s[2].vertices, base, sizeof base);
    CHECK(snug_mesh_set_surfaces(ctx, mesh[ROOM_TABLE], s, 3) == SNUG_OK);
    return ctx;
}

/* fuzz_place, in its room's meshes (stacking_room_open): four tables stacked on their small bases, the top one unbound, so the second cannot be lifted off in free mode (boxed in) and slides in
 * the plane of the first one's top; dragged by the pointer in free mode until its base was off that top, it ended
 * with its legs on the top, touching it where nothing lets it rest. The mover's sweeps keep the pair apart as it
 * rested where the move started; where that rest ends, the end is now checked without it. */
static void test_a_boxed_in_table_slid_off_a_top_in_free_mode_does_not_end_on_it(void) {
    snug_scene scene;
    snug_mesh mesh[ROOM_KINDS];
    snug_ctx* ctx = stacking_room_open(&scene, mesh);
    snug_body_def def = snug_default_body_def();
    def.mesh = mesh[ROOM_FLOOR];
    def.is_static = true;
    snug_body floor, t[4];
    CHECK(snug_body_create(ctx, scene, &def, &floor) == SNUG_OK);
    def.is_static = false;
    def.mesh = mesh[ROOM_TABLE];
    const float q[4] = {0, 0x1.cdf606p-1f, 0, 0x1.b98658p-2f};
    memcpy(def.pose.q, q, sizeof q);
    for (int i = 0; i < 4; i++) {
        def.pose.p[0] = def.pose.p[2] = 0.879f, def.pose.p[1] = 0.75f * (float)i;
        CHECK(snug_body_create(ctx, scene, &def, &t[i]) == SNUG_OK);
        if (i < 3)
            CHECK_MSG(snug_body_bind(ctx, scene, t[i], i ? 2 : 1, i ? t[i - 1] : floor, 0) == SNUG_OK, "%s",
                      snug_ctx_last_error(ctx));
    }
    CHECK(scene_violations(ctx, scene) == 0);
    snug_move_def d = pointer_from_above(1.58f, 1.58f);
    d.mode = SNUG_PLACE_FREE;
    d.turn = 2.25f, d.angle_step = 1.125f;
    snug_move_result res;
    CHECK_MSG(snug_body_move(ctx, scene, t[1], &d, &res) == SNUG_OK, "%s", snug_ctx_last_error(ctx));
    CHECK(scene_violations(ctx, scene) == 0);
    snug_ctx_destroy(ctx);
}

/* fuzz_place, the same four tables (the second one boxed in) in a room as the input left it: moved in free mode by
 * the pointer with a turn, the second table was blocked, yet ended off the first one's top, its legs on it. Its
 * binding, kept while it was boxed in, let it rest in that top's plane wherever it went, so the check of the end
 * found the same rest as at the start, and the binding then went as it no longer held. A body moved in free mode
 * rests by none of its own bindings (ps->loose). */
static void test_a_boxed_in_table_turned_off_a_top_in_free_mode_does_not_end_on_it(void) {
    static const struct {
        int kind;
        snug_pose pose;
        int on;           /* index of the supporter, -1: none */
        uint32_t binding; /* its binding surface, on the supporter's offer 0 */
    } at[17] = {
        {ROOM_FLOOR, {{0x0p+0f, 0x1.b50dd4p-1f, 0x0p+0f, 0x1.0ab2acp-1f}, {0x1.68p+0f, 0x1.bda3fcp-9f, 0x1.68p+0f}}, -1, 0},
        {ROOM_TABLE, {{0x0p+0f, 0x1.b50dd4p-1f, 0x0p+0f, 0x1.0ab2acp-1f}, {0x1.1b3e56p+0f, 0x1.bda3fcp-9f, 0x1.494728p+1f}}, 0, 1},
        {ROOM_TABLE, {{0x0p+0f, 0x1.f1a0b8p-1f, 0x0p+0f, -0x1.e1d6f4p-3f}, {0x1.cb85bcp+0f, 0x1.bda3fcp-9f, 0x1.8de3dp-3f}}, 0, 1},
        {ROOM_BLOCK, {{0x0p+0f, 0x1.d8005p-1f, 0x0p+0f, 0x1.8cc808p-2f}, {0x1.1b3e56p+0f, 0x1.81bda8p-1f, 0x1.494728p+1f}}, 1, 1},
        {ROOM_BLOCK, {{0x0p+0f, 0x1.b50dd4p-1f, 0x0p+0f, 0x1.0ab2acp-1f}, {0x1.d73af2p+0f, 0x1.81bda8p-1f, 0x1.22022cp-2f}}, 2, 1},
        {ROOM_LAMP, {{0x0p+0f, 0x1.b50dd6p-1f, 0x0p+0f, 0x1.0ab2aep-1f}, {0x1.1b3e56p+0f, 0x1.0dabap+0f, 0x1.494728p+1f}}, 3, 0},
        {ROOM_BLOCK, {{0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f}, {0x1.333334p+0f, 0x1.47ae14p-7f, -0x1.333334p+0f}}, -1, 0},
        {ROOM_LAMP, {{0x0p+0f, 0x1.faaeeep-3f, 0x0p+0f, 0x1.f0154ap-1f}, {-0x1.8p+0f, 0x1.47ae14p-7f, 0x1.8p+0f}}, -1, 0},
        {ROOM_LAMP, {{0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f}, {0x0p+0f, 0x1.8p+0f, 0x0p+0f}}, -1, 0},
        {ROOM_TABLE, {{0x0p+0f, 0x1.ad149p-1f, 0x0p+0f, -0x1.175884p-1f}, {0x1.ca3f9p+0f, 0x1.0dabap+0f, 0x1.d8877p-3f}}, 4, 2},
        {ROOM_TABLE, {{0x0p+0f, 0x1.ad149p-1f, 0x0p+0f, -0x1.175884p-1f}, {0x1.c9309cp+0f, 0x1.cdaba4p+0f, 0x1.c81072p-3f}}, 9, 2},
        {ROOM_TABLE, {{0x0p+0f, 0x1.ad149p-1f, 0x0p+0f, -0x1.175884p-1f}, {0x1.c9309cp+0f, 0x1.46d5dp+1f, 0x1.c8106ep-3f}}, 10, 2},
        {ROOM_TABLE, {{0x0p+0f, 0x1.ff9422p-1f, 0x0p+0f, 0x1.4c4928p-5f}, {0x1.b26b02p+0f, 0x1.645cb8p-8f, 0x1.7ec6bcp+0f}}, -1, 0},
        {ROOM_TABLE, {{0x0p+0f, 0x1.cdf604p-1f, 0x0p+0f, 0x1.b98656p-2f}, {0x1.3f770cp-1f, 0x1.bda3fcp-9f, 0x1.3f771p-1f}}, 0, 1},
        {ROOM_TABLE, {{-0x1p-52f, 0x1.a11c46p-1f, 0x0p+0f, 0x1.28ec1ap-1f}, {0x1.0d6178p-1f, 0x1.81bda6p-1f, 0x1.772f6p-1f}}, 13, 2},
        {ROOM_TABLE, {{0x0p+0f, 0x1.cdf6p-1f, 0x0p+0f, 0x1.b9864cp-2f}, {0x1.c2p-1f, 0x1.80ded4p+0f, 0x1.c1fffep-1f}}, 14, 2},
        {ROOM_TABLE, {{0x0p+0f, 0x1.cdf5f6p-1f, 0x0p+0f, 0x1.b9864cp-2f}, {0x1.c2p-1f, 0x1.206f6ap+1f, 0x1.c20002p-1f}}, -1, 0},
    };
    snug_scene scene;
    snug_mesh mesh[ROOM_KINDS];
    snug_ctx* ctx = stacking_room_open(&scene, mesh);
    snug_body b[17];
    for (int i = 0; i < 17; i++) {
        snug_body_def def = snug_default_body_def();
        def.mesh = mesh[at[i].kind];
        def.is_static = i == 0;
        def.pose = at[i].pose;
        CHECK(snug_body_create(ctx, scene, &def, &b[i]) == SNUG_OK);
    }
    for (int i = 0; i < 17; i++) {
        if (at[i].on < 0) continue;
        snug_binding bd = {b[i], at[i].binding, b[at[i].on], 0};
        CHECK_MSG(snug_body_set_bindings(ctx, scene, b[i], &bd, 1) == SNUG_OK, "%s", snug_ctx_last_error(ctx));
    }
    CHECK(scene_violations(ctx, scene) == 0);
    snug_move_def d = pointer_from_above(0x1.3ab0bcp+0f, 0x1.6f97bp+0f);
    d.mode = SNUG_PLACE_FREE;
    d.turn = 2.25f, d.angle_step = 1.125f;
    snug_move_result res;
    CHECK_MSG(snug_body_move(ctx, scene, b[14], &d, &res) == SNUG_OK, "%s", snug_ctx_last_error(ctx));
    CHECK(scene_violations(ctx, scene) == 0);
    snug_ctx_destroy(ctx);
}

static void test_reseat_lamp_from_desk_to_table_under_the_pointer(void) {
    test_room r;
    test_room_open(&r);
    snug_body desk = add_on(&r, TEST_DESK, -1.5f, 0, 0, 0, r.floor, TEST_FLOOR);
    snug_body table = add_on(&r, TEST_TABLE, 1.0f, 0, 0, 0, r.floor, TEST_FLOOR);
    snug_body lamp = add_on(&r, TEST_LAMP, -1.5f, 0.9f, 0.15f, 0, desk, TEST_DESK);
    /* grab the lamp's shade centre, point from above at the table */
    snug_move_def d = pointer_from_above(1.2f, 0.1f);
    d.grab[1] = 0.44f;
    snug_move_result res;
    CHECK_MSG(snug_body_move(r.ctx, r.scene, lamp, &d, &res) == SNUG_OK, "%s", snug_ctx_last_error(r.ctx));
    CHECK(res.reasons & SNUG_MOVE_RESEATED);
    CHECK(res.binding_count == 1 && res.bindings[0].supporter == table);
    snug_pose p = pose_of(&r, lamp);
    CHECK_NEAR(p.p[0], 1.2f, 1e-4f);
    CHECK_NEAR(p.p[2], 0.1f, 1e-4f);
    CHECK_NEAR(p.p[1], 0.78f, 1e-5f);
    snug_body parent = 0;
    CHECK(snug_body_get_parent(r.ctx, r.scene, lamp, &parent) == SNUG_OK && parent == table);
    /* onto the desk's shelf (onStore) under the pointer */
    d.ray.origin[0] = -1.5f, d.ray.origin[2] = -0.22f;
    CHECK(snug_body_move(r.ctx, r.scene, lamp, &d, &res) == SNUG_OK);
    CHECK(res.reasons & SNUG_MOVE_RESEATED);
    CHECK(res.binding_count == 1 && res.bindings[0].supporter == desk && res.bindings[0].offer == 1);
    p = pose_of(&r, lamp);
    CHECK_NEAR(p.p[1], 1.13f, 1e-5f);
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

static void test_bad_input_changes_nothing(void) {
    test_room r;
    test_room_open(&r);
    snug_body table = add_on(&r, TEST_TABLE, 0, 0, 0, 0, r.floor, TEST_FLOOR);
    snug_pose before = pose_of(&r, table);
    snug_move_def d = snug_default_move_def();
    snug_move_result res;
    d.target.p[0] = NAN;
    CHECK(snug_body_move(r.ctx, r.scene, table, &d, &res) == SNUG_ERR_NOT_FINITE);
    d = snug_default_move_def();
    d.target.q[3] = 0.0f;
    CHECK(snug_body_move(r.ctx, r.scene, table, &d, &res) == SNUG_ERR_INVALID_ARGUMENT);
    d = snug_default_move_def();
    d.internal_value = 0;
    CHECK(snug_body_move(r.ctx, r.scene, table, &d, &res) == SNUG_ERR_INVALID_ARGUMENT);
    d = snug_default_move_def();
    d.input = SNUG_MOVE_POINTER;
    CHECK(snug_body_move(r.ctx, r.scene, table, &d, &res) == SNUG_ERR_INVALID_ARGUMENT); /* zero ray direction */
    d = snug_default_move_def();
    CHECK(snug_body_move(r.ctx, r.scene, table + 1, &d, &res) == SNUG_ERR_STALE_HANDLE);
    CHECK(snug_body_move(r.ctx, r.scene, table, NULL, &res) == SNUG_ERR_INVALID_ARGUMENT);
    snug_pose after = pose_of(&r, table);
    CHECK(memcmp(&before, &after, sizeof before) == 0);
    snug_binding bd[4];
    uint32_t n;
    CHECK(snug_body_get_bindings(r.ctx, r.scene, table, bd, 4, &n) == SNUG_OK && n == 1);
    test_room_close(&r);
}

static void test_push_out_frees_an_overlapping_block(void) {
    test_room r;
    test_room_open(&r);
    snug_body a = add(&r, TEST_BLOCK, 0, 0.01f, 0, 0);
    snug_body b = add(&r, TEST_BLOCK, 0.3f, 0.01f, 0, 0); /* 0.1 into a */
    float t[3];
    bool moved = false;
    CHECK_MSG(snug_body_push_out(r.ctx, r.scene, b, t, &moved) == SNUG_OK, "%s", snug_ctx_last_error(r.ctx));
    CHECK(moved);
    CHECK(t[0] > 0.1f && t[0] < 0.11f && fabsf(t[1]) < 1e-6f && fabsf(t[2]) < 1e-6f);
    (void)a;
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* A ball that starts inside another is let go, never trapped: the pair is left out of the move, which says so
 * (SNUG_MOVE_STARTED_OVERLAPPING), into the other and out of it alike. Fine balls: the mover's first distance
 * witness is then not a crossing pair, and the first cast's sweep settles that the pair overlapped at the start
 * (where the mover used to test it beforehand); this fails when the sweep misses the overlap and the ball stays
 * trapped. */
static void test_a_ball_starting_inside_another_moves_freely(void) {
    test_room r;
    test_room_open(&r);
    test_mesh sphere;
    test_mesh_sphere(0.2f, 48, 96, &sphere);
    snug_mesh ball = test_mesh_make(r.ctx, &sphere, NULL);
    test_mesh_free(&sphere);
    snug_body_def def = snug_default_body_def();
    def.mesh = ball;
    def.pose.p[1] = 0.5f;
    snug_body a = 0, b = 0;
    CHECK(snug_body_create(r.ctx, r.scene, &def, &a) == SNUG_OK);
    def.pose.p[0] = 0.37f; /* 0.03 into a */
    CHECK(snug_body_create(r.ctx, r.scene, &def, &b) == SNUG_OK);
    const float steps[][3] = {{-0.01f, 0, 0}, {0, 0.05f, 0.01f}, {0.01f, -0.05f, -0.01f}};
    for (int i = 0; i < 3; i++) {
        snug_pose before = pose_of(&r, b);
        snug_move_result res = move_to(&r, b, steps[i][0], steps[i][1], steps[i][2], 0);
        snug_pose after = pose_of(&r, b);
        CHECK_MSG(res.reasons & SNUG_MOVE_STARTED_OVERLAPPING, "step %d: reasons 0x%x", i, res.reasons);
        CHECK_MSG(!(res.reasons & SNUG_MOVE_BLOCKED), "step %d: blocked by 0x%08x", i, res.blockers[0].body);
        for (int k = 0; k < 3; k++)
            CHECK_MSG(fabsf(after.p[k] - before.p[k] - steps[i][k]) < 1e-5f, "step %d: moved %g of %g in %d", i,
                      after.p[k] - before.p[k], steps[i][k], k);
        RETURN_IF_FAILED();
    }
    (void)a;
    test_room_close(&r);
}

/* A bound body is pushed out within its binding plane and stays bound (found by fuzz_place: push_out took the
 * shortest way out in any direction, lifting a bound body off its offer while its binding stayed, and the check
 * reported the plane violation). A lamp on a table over a book lying there: up, 3 cm, would free it; it goes
 * sideways instead, along x, where it clears the book soonest (0.155), still on the table and bound. */
static void test_push_out_keeps_a_bound_body_in_its_plane(void) {
    test_room r;
    test_room_open(&r);
    snug_body table = add_on(&r, TEST_TABLE, 0, 0, 0, 0, r.floor, TEST_FLOOR);
    snug_body lamp = add_on(&r, TEST_LAMP, 0, 1, 0, 0, table, TEST_TABLE);
    snug_body book = add(&r, TEST_BOOK, 0, 0.78f, 0, 0);
    snug_binding bd = {book, test_item_surface(TEST_BOOK, SNUG_SURFACE_BINDING, 0), table,
                       test_item_surface(TEST_TABLE, SNUG_SURFACE_OFFER, 0)};
    CHECK_MSG(snug_body_set_bindings(r.ctx, r.scene, book, &bd, 1) == SNUG_OK, "%s", snug_ctx_last_error(r.ctx));
    CHECK(violations(&r) == 1); /* the lamp's base and the book */
    float t[3];
    bool moved = false;
    CHECK_MSG(snug_body_push_out(r.ctx, r.scene, lamp, t, &moved) == SNUG_OK, "%s", snug_ctx_last_error(r.ctx));
    CHECK(moved);
    CHECK_MSG(fabsf(t[0]) > 0.155f && fabsf(t[0]) < 0.17f && t[1] == 0.0f && fabsf(t[2]) < 1e-6f, "pushed by %g %g %g",
              t[0], t[1], t[2]);
    snug_binding now[4];
    uint32_t n = 0;
    CHECK(snug_body_get_bindings(r.ctx, r.scene, lamp, now, 4, &n) == SNUG_OK && n == 1 && now[0].supporter == table);
    CHECK(violations(&r) == 0);
    /* on a block's top there is no room: sideways the lamp's base would leave the block before it cleared the
     * book; refused, changing nothing */
    test_room_close(&r);
    test_room_open(&r);
    table = add_on(&r, TEST_TABLE, 0, 0, 0, 0, r.floor, TEST_FLOOR);
    snug_body block = add_on(&r, TEST_BLOCK, 0, 1, 0, 0, table, TEST_TABLE);
    lamp = add_on(&r, TEST_LAMP, 0, 2, 0, 0, block, TEST_BLOCK);
    snug_pose before = pose_of(&r, lamp);
    book = add(&r, TEST_BOOK, before.p[0], before.p[1], before.p[2], 0);
    bd = (snug_binding){book, test_item_surface(TEST_BOOK, SNUG_SURFACE_BINDING, 0), block,
                        test_item_surface(TEST_BLOCK, SNUG_SURFACE_OFFER, 0)};
    CHECK_MSG(snug_body_set_bindings(r.ctx, r.scene, book, &bd, 1) == SNUG_OK, "%s", snug_ctx_last_error(r.ctx));
    snug_status st = snug_body_push_out(r.ctx, r.scene, lamp, t, &moved);
    CHECK_MSG(st == SNUG_ERR_INVALID_ARGUMENT && !moved, "push_out: %s, %s", snug_status_name(st), snug_ctx_last_error(r.ctx));
    snug_pose after = pose_of(&r, lamp);
    CHECK(!memcmp(&before, &after, sizeof before));
    CHECK(snug_body_get_bindings(r.ctx, r.scene, lamp, now, 4, &n) == SNUG_OK && n == 1);
    test_room_close(&r);
}

/* Placement keeps a group within SNUG_PLACE_RANGE times its smallest body's radius from the origin (found by
 * fuzz_place: a free move carried a stack to 9.9e8, where float poses resolve 64 units, and the stack collapsed
 * onto itself: the check reported overlaps). A move stops at the range as at an offer's edge (here 2048 times the
 * lamp's radius, 0.287: 588); a group already beyond it is not moved; a seat beyond it is not taken. */
static void test_placement_stays_in_its_range(void) {
    test_room r;
    test_room_open(&r);
    snug_body table = add(&r, TEST_TABLE, 0, 1, 0, 0), block = add(&r, TEST_BLOCK, 0, 2, 0, 0);
    snug_body lamp = add(&r, TEST_LAMP, 0.1f, 3, 0, 0);
    bind(&r, block, TEST_BLOCK, table, TEST_TABLE, 0);
    bind(&r, lamp, TEST_LAMP, block, TEST_BLOCK, 0);
    CHECK(violations(&r) == 0);
    const float range = SNUG_PLACE_RANGE * 0.5f * sqrtf(0.2f * 0.2f + 0.5f * 0.5f + 0.2f * 0.2f) * 1.0001f; /* + box padding */
    snug_move_def d = snug_default_move_def();
    d.mode = SNUG_PLACE_FREE;
    d.target = pose_of(&r, table);
    d.target.p[0] = -9.9e8f;
    snug_move_result res;
    snug_status st = snug_body_move(r.ctx, r.scene, table, &d, &res);
    CHECK_MSG(st == SNUG_OK, "move: %s", snug_ctx_last_error(r.ctx));
    CHECK(res.reasons & SNUG_MOVE_CONTAINED);
    const snug_body stack[3] = {table, block, lamp};
    for (int i = 0; i < 3; i++) {
        snug_pose p = pose_of(&r, stack[i]);
        CHECK_MSG(fabsf(p.p[0]) <= range && fabsf(p.p[1]) < 5.0f && fabsf(p.p[2]) < 1.0f, "body %d at %g %g %g", i,
                  p.p[0], p.p[1], p.p[2]);
    }
    CHECK_MSG(pose_of(&r, table).p[0] < 0.99f * -range, "table at %g", pose_of(&r, table).p[0]);
    CHECK(violations(&r) == 0);
    /* a block put beyond the range by the scene API: placement does not move it, nor seat a lamp on it */
    snug_body far = add(&r, TEST_BLOCK, 2e5f, 0, 0, 0);
    snug_pose before = pose_of(&r, far);
    d = snug_default_move_def();
    d.target = before;
    d.target.p[0] = 0.0f;
    st = snug_body_move(r.ctx, r.scene, far, &d, &res);
    CHECK_MSG(st == SNUG_ERR_INVALID_ARGUMENT, "move: %s", snug_status_name(st));
    snug_pose after = pose_of(&r, far);
    CHECK(!memcmp(&before, &after, sizeof before));
    snug_body lamp2 = add(&r, TEST_LAMP, 0, 0.5f, 2, 0);
    st = snug_body_bind(r.ctx, r.scene, lamp2, test_item_surface(TEST_LAMP, SNUG_SURFACE_BINDING, 0), far,
                        test_item_surface(TEST_BLOCK, SNUG_SURFACE_OFFER, 0));
    CHECK_MSG(st == SNUG_ERR_INVALID_ARGUMENT, "bind: %s", snug_status_name(st));
    CHECK(pose_of(&r, lamp2).p[0] == 0.0f);
    /* the range holds for the smallest skin the settings take */
    snug_place_def pd = snug_default_place_def();
    pd.skin = 0.5f * SNUG_MIN_SKIN;
    CHECK(snug_scene_set_place_def(r.ctx, r.scene, &pd) == SNUG_ERR_INVALID_ARGUMENT);
    pd.skin = SNUG_MIN_SKIN;
    CHECK(snug_scene_set_place_def(r.ctx, r.scene, &pd) == SNUG_OK);
    test_room_close(&r);
}

/* Sets the table (with what it carries) down near the origin, where the check's float allowance is smallest. */
static void carry_near_the_origin(test_room* r, snug_body table) {
    snug_pose t = pose_of(r, table);
    t.p[0] = 0.01f, t.p[2] = 0.02f;
    CHECK(snug_body_set_pose(r->ctx, r->scene, table, &t) == SNUG_OK);
}

/* A lamp dragged to its table's edge far from the origin, then carried home with the table: the check allows float
 * rounding that grows with the offer's distance from the origin, and the lamp's pose relative to the table keeps the
 * rounding of where it was placed. With the lamp placed on the edge itself, such carries failed the check (30 of 40
 * positions in this pattern; here the fourth). Found after the random room's seed 79, a book turned onto the check's
 * slack and carried toward the origin. */
static void test_a_lamp_at_the_edge_far_out_is_carried_home(void) {
    for (int i = 0; i < 12; i++) {
        test_room r;
        test_room_open(&r);
        float yaw = 0.37f * (float)i, x = 30.0f + 7.3f * (float)i, z = -20.0f - 3.1f * (float)i;
        snug_body table = add(&r, TEST_TABLE, x, 0, z, yaw);
        snug_body lamp = add_on(&r, TEST_LAMP, x, 0.78f, z, yaw, table, TEST_TABLE);
        snug_move_result res = move_to(&r, lamp, 2.0f * cosf(yaw + 0.3f), 0, -2.0f * sinf(yaw + 0.3f), 0);
        CHECK(res.reasons & SNUG_MOVE_CONTAINED);
        CHECK(violations(&r) == 0);
        carry_near_the_origin(&r, table);
        CHECK_MSG(violations(&r) == 0, "table %d, from %g %g", i, x, z);
        test_room_close(&r);
        RETURN_IF_FAILED();
    }
}

/* A lamp bound onto a table a few hundred metres out in every coordinate (within the placement range), then carried
 * home with the table: the lamp's pose relative to the table keeps the rounding of where it was bound, up to a float
 * step there, which can leave it that far inside the table's top. The check lifts a resting body by eight float steps
 * of where it stands now, 1.4e-5 at 15 m, and a block carried home from 352 m stood 1.5e-5 in (fuzz_place). */
static void test_a_lamp_bound_far_out_is_carried_home_resting(void) {
    for (int i = 0; i < 12; i++) {
        test_room r;
        test_room_open(&r);
        float far = -300.0f - 21.7f * (float)i, yaw = 0.41f * (float)i;
        snug_body table = add(&r, TEST_TABLE, far, far, far + 0.37f * (float)i, yaw);
        add_on(&r, TEST_LAMP, far + 0.2f, far + 0.78f, far + 0.37f * (float)i + 0.1f, 0.7f * yaw, table, TEST_TABLE);
        CHECK(violations(&r) == 0);
        snug_pose home = pose_of(&r, table);
        home.p[0] = 14.375f, home.p[1] = 14.5f, home.p[2] = 8.875f;
        CHECK(snug_body_set_pose(r.ctx, r.scene, table, &home) == SNUG_OK);
        CHECK_MSG(violations(&r) == 0, "table %d, from %g", i, far);
        test_room_close(&r);
        RETURN_IF_FAILED();
    }
}

/* Carrying a body carries its children as they stand relative to it, to the float step of wherever it goes: the
 * check reads a pair that shares an ancestor through the local poses below it, which a carry leaves as they were.
 * Two blocks a hair (4e-6) either side of a third, its children, carried with turns 300-540 m out: from their
 * world poses, which round by 3e-5 there, the check found a block in the middle one at the second place. Found by
 * fuzz_place at ad340ff: a block left unbound a hair above its table by a surface edit, carried 352 m out with the
 * floor under the table and turned 1.3 rad. */
static void test_blocks_a_hair_apart_carried_far_out_stay_apart(void) {
    test_room r;
    test_room_open(&r);
    const float gap = 4e-6f;
    snug_body middle = add(&r, TEST_BLOCK, 0, 5, 0, 0);
    snug_body side[2] = {add(&r, TEST_BLOCK, 0.4f + gap, 5, 0, 0), add(&r, TEST_BLOCK, -0.4f - gap, 5, 0, 0)};
    for (int k = 0; k < 2; k++) CHECK(snug_body_set_parent(r.ctx, r.scene, side[k], middle, true) == SNUG_OK);
    CHECK(violations(&r) == 0);
    for (int i = 0; i < 12; i++) {
        float far = -300.0f - 21.7f * (float)i, yaw = 0.53f * (float)i + 0.1f;
        snug_pose p = pose_of(&r, middle);
        p.p[0] = far, p.p[1] = -far, p.p[2] = far + 0.37f * (float)i;
        p.q[1] = sinf(0.5f * yaw), p.q[3] = cosf(0.5f * yaw);
        CHECK(snug_body_set_pose(r.ctx, r.scene, middle, &p) == SNUG_OK);
        CHECK_MSG(violations(&r) == 0, "place %d, at %g", i, far);
        RETURN_IF_FAILED();
    }
    test_room_close(&r);
}

/* A label edit that leaves a bound body's label unfit for its offer is a label violation, and only that: the body
 * still rests in its binding plane. Were its contact an overlap as well, whether the check saw it would depend on how
 * the poses round: a block bound so (fuzz_place) was let go by the mover as touching, read apart by the check, and
 * found touching after a turn. Here the lamp's base lies exactly on the top, slid and turned, then carried far out. */
static void test_a_body_whose_label_no_longer_fits_still_rests_on_its_offer(void) {
    test_room r;
    test_room_open(&r);
    snug_body table = add(&r, TEST_TABLE, 2, 0, 1, 0.2f); /* unbound: free to be set far out */
    snug_body lamp = add_on(&r, TEST_LAMP, 2.1f, 0.78f, 1.1f, 0.4f, table, TEST_TABLE);
    CHECK(violations(&r) == 0);
    const char* names[SNUG_LABEL_DEFAULT_COUNT];
    char storage[SNUG_LABEL_DEFAULT_COUNT][SNUG_LABEL_NAME_MAX];
    for (uint32_t i = 0; i < SNUG_LABEL_DEFAULT_COUNT; i++) {
        CHECK(snug_scene_get_label_name(r.ctx, r.scene, i, storage[i]) == SNUG_OK);
        names[i] = storage[i];
    }
    const snug_label store_on_seat[2] = {SNUG_LABEL_ON_STORE, SNUG_LABEL_ON_SEAT}; /* a lamp no longer on a table */
    CHECK(snug_scene_set_labels(r.ctx, r.scene, names, SNUG_LABEL_DEFAULT_COUNT, store_on_seat, 1) == SNUG_OK);
    snug_violation v[4];
    uint32_t total = 0;
    for (int step = 0; step < 3; step++) {
        if (step == 1) move_to(&r, lamp, 0.05f, 0, -0.03f, 0.6f);
        if (step == 2) {
            snug_pose p = pose_of(&r, table);
            p.p[0] = 301.7f, p.p[2] = -288.3f;
            CHECK(snug_body_set_pose(r.ctx, r.scene, table, &p) == SNUG_OK);
        }
        CHECK(snug_scene_check(r.ctx, r.scene, v, 4, &total) == SNUG_OK);
        CHECK_MSG(total == 1 && v[0].kind == SNUG_VIOLATION_LABEL && v[0].body == lamp,
                  "step %d: %u violations, the first of kind %d", step, total, total ? (int)v[0].kind : -1);
    }
    test_room_close(&r);
}

/* With no overhang a binding polygon the size of its offer still fits: the float allowance placement keeps comes
 * out of the overhang only (taken from the offer as well, it left such a block no seat on another). */
static void test_a_polygon_the_size_of_its_offer_fits_with_no_overhang(void) {
    test_room r;
    test_room_open(&r);
    snug_place_def pd = snug_default_place_def();
    pd.overhang = 0.0f;
    CHECK(snug_scene_set_place_def(r.ctx, r.scene, &pd) == SNUG_OK);
    snug_body below = add(&r, TEST_BLOCK, 1, 1, 0, 0.3f), above = add(&r, TEST_BLOCK, 1, 1.4f, 0, 0.3f);
    bind(&r, above, TEST_BLOCK, below, TEST_BLOCK, 0);
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* A turn stopped short by a body ends where the supports hold without the float allowance. The lamp's base, a
 * square, stands with a corner pointing at the table's edge, 0.25 rad to one side; it is turned 0.5 rad, sampled at
 * thirds (its corner within the edge at each), and a plate in the shade's way stops it near the middle, where the
 * corner reaches past the edge, so the turn is cut back. Cut back to where the supports hold with the check's
 * allowance (5 m out, 6e-6), the lamp failed the check once its table was carried home (1.8e-6 there): the random
 * room's seed 79, a book carried toward the origin after such a turn. */
static void test_a_turn_stopped_short_ends_inside_the_allowance(void) {
    const double phi = 0.25, r = 0.08 * sqrt(2.0), margin = 0.05 * r;
    test_room R;
    test_room_open(&R);
    snug_body table = add(&R, TEST_TABLE, 3, 0, 4, 0);
    /* the corner at its farthest sampled reach 3e-5 inside the edge */
    double x = 3 + 0.8 + margin - 3e-5 - r * cos(phi / 3);
    snug_body lamp = add_on(&R, TEST_LAMP, (float)x, 0.78f, 4, (float)(0.25 * 3.14159265358979 - phi), table, TEST_TABLE);
    /* the plate's face (normal +z) where the shade's tip region beyond x + 0.13 meets it 0.04 rad past the middle */
    float face = (float)(4 - 0.1414 * sin(0.04) - 0.0114);
    add(&R, TEST_PICTURE, (float)x + 0.43f, 1.22f, face - 0.02f, 0);
    CHECK(violations(&R) == 0);
    snug_move_result res = move_to(&R, lamp, 0, 0, 0, (float)(2 * phi));
    CHECK(res.reasons & SNUG_MOVE_TURN_BLOCKED);
    CHECK(res.reasons & SNUG_MOVE_CONTAINED);
    CHECK(violations(&R) == 0);
    carry_near_the_origin(&R, table);
    CHECK(violations(&R) == 0);
    test_room_close(&R);
}

/* A turn held into a body (a key kept down) stops a skin short of where it first met it, along the contact's
 * normal, and stays there, blocked by it at every further event, and turns back freely. The table's corner (0.915
 * from its centre) meets the wall's face at x = 0.86 after 0.16 rad. */
static void test_a_turn_held_into_a_wall_stays_where_it_stopped(void) {
    test_room r;
    test_room_open(&r);
    snug_body table = add_on(&r, TEST_TABLE, 0, 0, 0, 0, r.floor, TEST_FLOOR);
    snug_body wall = add(&r, TEST_WALL, 0.91f, 0, 0, (float)(0.5 * 3.14159265358979));
    CHECK(violations(&r) == 0);
    snug_move_result res = move_to(&r, table, 0, 0, 0, 0.3f);
    CHECK(res.reasons & SNUG_MOVE_TURN_BLOCKED);
    snug_pose stopped = pose_of(&r, table);
    double turned = 2.0 * atan2(stopped.q[1], stopped.q[3]);
    CHECK_MSG(turned > 0.14 && turned < 0.16, "turned %g", turned);
    snug_pose wall_at = pose_of(&r, wall);
    snug_distance_result d;
    CHECK(snug_mesh_distance(r.ctx, r.mesh[TEST_TABLE], &stopped, r.mesh[TEST_WALL], &wall_at, &d) == SNUG_OK);
    const double skin = 2e-3 * 0.5 * sqrt(1.6 * 1.6 + 0.78 * 0.78 + 0.9 * 0.9);
    CHECK_MSG(d.distance > 0.99 * skin && d.distance < 1.2 * skin, "%g skins from the wall", d.distance / skin);
    for (int k = 0; k < 5; k++) {
        res = move_to(&r, table, 0, 0, 0, 0.05f);
        CHECK(res.reasons & SNUG_MOVE_TURN_BLOCKED);
        CHECK(res.blocker_count == 1 && res.blockers[0].body == wall && res.blockers[0].by == table);
        snug_pose p = pose_of(&r, table);
        CHECK(!memcmp(&p, &stopped, sizeof p));
        CHECK(violations(&r) == 0);
    }
    res = move_to(&r, table, 0, 0, 0, -0.3f);
    CHECK(!(res.reasons & SNUG_MOVE_TURN_BLOCKED));
    CHECK_NEAR(2.0 * atan2(pose_of(&r, table).q[1], pose_of(&r, table).q[3]), turned - 0.3, 1e-5);
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* Two tables left a hair apart (the random room, seed 158: a grazing turn left them 1e-5 apart, a pointer move 2e-6,
 * within the touching test of the mover and of a bind, though the check found them apart): a drag of one toward the other is held by
 * their plane, where it was let go as though the pair started overlapping, which took the table into the other. */
static void test_a_table_a_hair_from_another_is_not_dragged_into_it(void) {
    static const snug_pose at[2] = {
        {{0, 0x1.61eb44p-4f, 0, 0x1.fe15cap-1f}, {0x1.cf4e04p-1f, 0, 0x1.9732dep-1f}},
        {{0, 0x1.26551ap-1f, 0, 0x1.a2f128p-1f}, {0x1.00eaccp+1f, 0, 0x1.c56d28p+0f}},
    };
    test_room r;
    test_room_open(&r);
    snug_body t[2];
    for (int i = 0; i < 2; i++) t[i] = add_as_it_stands(&r, TEST_TABLE, &at[i], r.floor, TEST_FLOOR);
    CHECK(violations(&r) == 0);
    snug_move_result res = drag_to(&r, t[0], 0x1.e4e078p-1f, 0x1.93998ep-1f);
    CHECK(!(res.reasons & SNUG_MOVE_STARTED_OVERLAPPING));
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* A chair carrying a book, dragged by the pointer at another chair: the chair and the book meet it at once, with
 * different normals. The cast stopped a skin short of the first contact along its normal, which left the book
 * touching the other chair; the next round let that pair go as though it had started overlapping, and the drag took
 * the book into the chair (the random room, seed 160, event 8099: the poses are those before it). */
static void test_a_chair_and_its_book_meeting_a_chair_at_once_keep_a_skin_from_it(void) {
    static const snug_pose at[3] = {
        {{0, -0x1.37af94p-1f, 0, 0x1.963268p-1f}, {-0x1.db3876p-4f, 0, 0x1.eddaf2p-1f}}, /* the chair met */
        {{0, 0x1.935c84p-1f, 0, 0x1.3b58c6p-1f}, {-0x1.c0fbfep-1f, 0, 0x1.d134fp-4f}},    /* the chair dragged */
        {{0, 0x1.fbe6f8p-1f, 0, -0x1.029728p-3f}, {-0x1.7504ecp-1f, 0x1.e147acp-2f, 0x1.9c4ab4p-3f}}, /* its book */
    };
    test_room r;
    test_room_open(&r);
    snug_body b[3];
    for (int i = 0; i < 2; i++) b[i] = add_as_it_stands(&r, TEST_CHAIR, &at[i], r.floor, TEST_FLOOR);
    b[2] = add_as_it_stands(&r, TEST_BOOK, &at[2], b[1], TEST_CHAIR);
    CHECK(violations(&r) == 0);
    snug_move_def d = pointer_from_above(0x1.1c355p-2f, 0x1.209c36p+1f);
    snug_move_result res;
    CHECK(snug_body_move(r.ctx, r.scene, b[1], &d, &res) == SNUG_OK);
    CHECK(res.reasons & SNUG_MOVE_BLOCKED);
    CHECK(!(res.reasons & SNUG_MOVE_STARTED_OVERLAPPING));
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* A cast that meets nothing still ends a skin from what it closed in on: the sweeps look for contact, so a table
 * dragged 4.4 cm ended with the lamp it carries 2e-6 from a desk, its target a hair short of touching (the random
 * room, seed 373, event 1657: the poses are those before it; the check then found the pair touching). */
static void test_a_drag_ending_a_hair_from_a_body_stops_a_skin_from_it(void) {
    static const snug_pose at[3] = {
        {{0, 0x1.3f7e8p-3f, 0, 0x1.f9bb3cp-1f}, {-0x1.d9d42p-2f, 0, 0x1.9c9058p+0f}},        /* the desk */
        {{0, 0x1.9ca2f6p-2f, 0, 0x1.d49716p-1f}, {0x1.ec74d8p-2f, 0, 0x1.04121p-2f}},        /* the table dragged */
        {{0, 0x1.87de2cp-2f, 0, 0x1.d906bap-1f}, {0x1.123848p-2f, 0x1.8f5c6cp-1f, 0x1.09ba6ap+0f}}, /* its lamp */
    };
    test_room r;
    test_room_open(&r);
    snug_body b[3];
    b[0] = add_as_it_stands(&r, TEST_DESK, &at[0], r.floor, TEST_FLOOR);
    b[1] = add_as_it_stands(&r, TEST_TABLE, &at[1], r.floor, TEST_FLOOR);
    b[2] = add_as_it_stands(&r, TEST_LAMP, &at[2], b[1], TEST_TABLE);
    CHECK(violations(&r) == 0);
    snug_move_result res = drag_to(&r, b[1], 0x1.c36746p-2f, 0x1.182adp-2f);
    snug_pose lamp = pose_of(&r, b[2]), desk = pose_of(&r, b[0]);
    snug_distance_result dist;
    CHECK(snug_mesh_distance(r.ctx, r.mesh[TEST_LAMP], &lamp, r.mesh[TEST_DESK], &desk, &dist) == SNUG_OK);
    /* half the lamp's skin (the group keeps the larger of its members' skins) */
    const double half_skin = 0.5 * 2e-3 * 0.5 * sqrt(0.16 * 0.16 + 0.5 * 0.5 + 0.16 * 0.16);
    CHECK_MSG(dist.distance > half_skin, "lamp %g from the desk", dist.distance);
    CHECK(res.reasons & SNUG_MOVE_BLOCKED);
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* A turn that meets nothing still ends a skin from what it closed in on, as a cast does: a block turned 0.3 rad
 * about up reaches 0.2 (cos 0.3 + sin 0.3) along x, and a second block stands 1e-4 beyond that, under half a skin
 * (the turn's sweeps, looking for contact, let it end there). Both stand a hair above the floor, on nothing. */
static void test_a_turn_ending_a_hair_from_a_body_stops_a_skin_from_it(void) {
    test_room r;
    test_room_open(&r);
    const double reach = 0.2 * (cos(0.3) + sin(0.3)), skin = 2e-3 * 0.5 * sqrt(3 * 0.4 * 0.4);
    snug_body turned = add(&r, TEST_BLOCK, 0, 0.01f, 0, 0);
    snug_body still = add(&r, TEST_BLOCK, (float)(reach + 0.2 + 1e-4), 0.01f, 0, 0);
    CHECK(violations(&r) == 0);
    snug_move_result res = move_to(&r, turned, 0, 0, 0, 0.3f);
    snug_pose a = pose_of(&r, turned), b = pose_of(&r, still);
    snug_distance_result d;
    CHECK(snug_mesh_distance(r.ctx, r.mesh[TEST_BLOCK], &a, r.mesh[TEST_BLOCK], &b, &d) == SNUG_OK);
    CHECK_MSG(d.distance > 0.5 * skin, "%g apart, skin %g", d.distance, skin);
    CHECK(res.reasons & SNUG_MOVE_TURN_BLOCKED);
    CHECK(res.blocker_count == 1 && res.blockers[0].body == still);
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

/* A pair touching where a move starts (flush faces, or a hair apart within the meshes' tolerance: a pose set, a
 * scene loaded) keeps a plane along which it parts: the block slides along its neighbour and leaves it, but does
 * not close in. Let go whole, as a pair that overlaps is, it was dragged 0.1 into the other. One that overlaps is
 * still let go, never trapped. */
static void test_a_block_flush_against_another_slides_along_it_but_not_into_it(void) {
    const float gaps[3] = {0.0f, 1e-7f, -0.1f}; /* flush, a hair apart, overlapping */
    const float moves[3][3] = {{0.1f, 0, 0}, {0.05f, 0, 0.1f}, {-0.1f, 0, 0}};
    for (int g = 0; g < 3; g++)
        for (int k = 0; k < 3; k++) {
            test_room r;
            test_room_open(&r);
            snug_body moved = add(&r, TEST_BLOCK, 0, 0.01f, 0, 0);
            add(&r, TEST_BLOCK, 0.4f + gaps[g], 0.01f, 0, 0);
            snug_move_result res = move_to(&r, moved, moves[k][0], moves[k][1], moves[k][2], 0);
            snug_pose p = pose_of(&r, moved);
            bool overlapping = gaps[g] < 0.0f;
            /* into it: held where it is, or (overlapping) let go; along it: slid; away: gone */
            float x = k == 2 || overlapping ? moves[k][0] : 0.0f;
            CHECK_MSG(fabsf(p.p[0] - x) < 1e-6f && fabsf(p.p[2] - moves[k][2]) < 1e-6f,
                      "gap %g, move %d: at x %g z %g", (double)gaps[g], k, (double)p.p[0], (double)p.p[2]);
            CHECK(!(res.reasons & SNUG_MOVE_STARTED_OVERLAPPING) == !overlapping);
            CHECK(!(res.reasons & SNUG_MOVE_BLOCKED) == (k == 2 || overlapping));
            test_room_close(&r);
        }
}

/* A turn of more than a whole turn is refused, changing nothing (found by fuzz_place: the mover sweeps a turn in
 * parts of 3 radians, and a move asking for 1e19 never ended). */
static void test_turn_beyond_a_whole_turn_is_refused(void) {
    test_room r;
    test_room_open(&r);
    snug_body table = add_on(&r, TEST_TABLE, 0, 0, 0, 0, r.floor, TEST_FLOOR);
    snug_pose before = pose_of(&r, table);
    snug_move_def d = snug_default_move_def();
    d.target = before;
    d.turn = 100.0f;
    snug_move_result res;
    snug_status st = snug_body_move(r.ctx, r.scene, table, &d, &res);
    CHECK_MSG(st == SNUG_ERR_INVALID_ARGUMENT, "move: %s", snug_status_name(st));
    snug_pose after = pose_of(&r, table);
    CHECK(!memcmp(&before, &after, sizeof before));
    d.turn = -6.2f; /* within a whole turn: taken */
    CHECK(snug_body_move(r.ctx, r.scene, table, &d, &res) == SNUG_OK && !(res.reasons & SNUG_MOVE_TURN_LOCKED));
    CHECK(violations(&r) == 0);
    test_room_close(&r);
}

int main(void) {
    RUN(test_labels_and_their_order);
    RUN(test_bad_surfaces_are_refused);
    RUN(test_bind_lamp_on_table);
    RUN(test_blocks_refuse_a_cycle);
    RUN(test_slide_stays_on_the_table_and_turns_about_up);
    RUN(test_blocked_by_a_book_then_slides);
    RUN(test_a_pressed_drag_forgets_a_contact_that_went_away);
    RUN(test_a_slide_along_a_body_goes_on_past_its_end);
    RUN(test_a_slanted_drag_into_a_chair_back_keeps_a_skin_from_it);
    RUN(test_table_carries_its_lamp_and_stops_for_it);
    RUN(test_a_table_carried_beside_a_block_at_its_height_does_not_rise_into_it);
    RUN(test_a_free_turn_does_not_tilt_a_table_into_the_floor);
    RUN(test_a_bind_from_far_away_lands_inside_its_offer);
    RUN(test_a_bind_lets_go_the_bindings_its_move_breaks);
    RUN(test_a_block_pushed_along_a_tilted_table_stays_on_it);
    RUN(test_a_floor_does_not_rise_into_a_table_standing_past_its_corner);
    RUN(test_a_table_beside_the_floor_s_edge_does_not_close_in_on_it);
    RUN(test_a_bound_table_moved_off_its_shrunk_offer_still_rests_on_the_floor);
    RUN(test_a_boxed_in_table_slid_off_a_top_in_free_mode_does_not_end_on_it);
    RUN(test_a_boxed_in_table_turned_off_a_top_in_free_mode_does_not_end_on_it);
    RUN(test_reseat_lamp_from_desk_to_table_under_the_pointer);
    RUN(test_bad_input_changes_nothing);
    RUN(test_push_out_frees_an_overlapping_block);
    RUN(test_a_ball_starting_inside_another_moves_freely);
    RUN(test_push_out_keeps_a_bound_body_in_its_plane);
    RUN(test_placement_stays_in_its_range);
    RUN(test_turn_beyond_a_whole_turn_is_refused);
    RUN(test_unbinding_a_block_does_not_lift_it_into_a_lamp_standing_on_it);
    RUN(test_a_block_moved_on_its_table_far_out_is_carried_home_bound);
    RUN(test_a_lamp_at_the_edge_far_out_is_carried_home);
    RUN(test_a_lamp_bound_far_out_is_carried_home_resting);
    RUN(test_a_turn_stopped_short_ends_inside_the_allowance);
    RUN(test_a_turn_held_into_a_wall_stays_where_it_stopped);
    RUN(test_a_table_a_hair_from_another_is_not_dragged_into_it);
    RUN(test_a_chair_and_its_book_meeting_a_chair_at_once_keep_a_skin_from_it);
    RUN(test_a_polygon_the_size_of_its_offer_fits_with_no_overhang);
    RUN(test_blocks_a_hair_apart_carried_far_out_stay_apart);
    RUN(test_a_body_whose_label_no_longer_fits_still_rests_on_its_offer);
    RUN(test_a_drag_ending_a_hair_from_a_body_stops_a_skin_from_it);
    RUN(test_a_turn_ending_a_hair_from_a_body_stops_a_skin_from_it);
    RUN(test_a_block_flush_against_another_slides_along_it_but_not_into_it);
    return harness_finish();
}
