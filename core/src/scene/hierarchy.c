/* Hierarchy: parent/child links, local poses and cached world poses (seed 000 App. B variant 2 with the world
 * pose cached as in variant 1: one write per manipulation, O(1) reads). A change to a body's local pose
 * recomputes its subtree's world poses at once, so every read is current; the broad phase picks the moved
 * boxes up lazily from the dirty queue. */
#include "scene/scene.h"

#include <math.h>
#include <string.h>

/* snug_pose is not 16-byte aligned while cglm's vec4 code may assume it: quaternions go through locals. */
snug_pose snug_pose_mul(const snug_pose* a, const snug_pose* b) {
    snug_pose r;
    versor qa, qb, q;
    memcpy(qa, a->q, sizeof qa);
    memcpy(qb, b->q, sizeof qb);
    glm_quat_mul(qa, qb, q);
    memcpy(r.q, q, sizeof q);
    glm_quat_rotatev(qa, (float*)b->p, r.p);
    glm_vec3_add(r.p, (float*)a->p, r.p);
    /* renormalize so long chains of products do not drift */
    return snug_pose_normalized(&r);
}

snug_pose snug_pose_inverse(const snug_pose* a) {
    snug_pose r;
    versor qa, q;
    memcpy(qa, a->q, sizeof qa);
    glm_quat_conjugate(qa, q);
    memcpy(r.q, q, sizeof q);
    glm_quat_rotatev(q, (float*)a->p, r.p);
    glm_vec3_negate(r.p);
    return r;
}

uint32_t snug_hierarchy_next(const snug_scene_data* scene, uint32_t root, uint32_t b) {
    const snug_body_data* body = snug_body_at(scene, b);
    if (body->first_child != SNUG_NONE) return body->first_child;
    while (b != root) {
        body = snug_body_at(scene, b);
        if (body->next_sibling != SNUG_NONE) return body->next_sibling;
        b = body->parent;
    }
    return SNUG_NONE;
}

void snug_hierarchy_update(snug_scene_data* scene, snug_body_data* body) {
    uint32_t root = body->slot;
    for (uint32_t s = root; s != SNUG_NONE; s = snug_hierarchy_next(scene, root, s)) {
        snug_body_data* b = snug_body_at(scene, s);
        if (b->parent == SNUG_NONE) b->world = b->local;
        else b->world = snug_pose_mul(&snug_body_at(scene, b->parent)->world, &b->local);
        snug_scene_mark_dirty(scene, b);
    }
}

void snug_hierarchy_unlink(snug_scene_data* scene, snug_body_data* body) {
    if (body->parent == SNUG_NONE) return;
    snug_body_data* parent = snug_body_at(scene, body->parent);
    if (body->prev_sibling != SNUG_NONE) snug_body_at(scene, body->prev_sibling)->next_sibling = body->next_sibling;
    else parent->first_child = body->next_sibling;
    if (body->next_sibling != SNUG_NONE) snug_body_at(scene, body->next_sibling)->prev_sibling = body->prev_sibling;
    parent->child_count--;
    body->parent = body->prev_sibling = body->next_sibling = SNUG_NONE;
}

void snug_hierarchy_link(snug_scene_data* scene, snug_body_data* body, snug_body_data* parent) {
    body->parent = parent->slot;
    body->prev_sibling = SNUG_NONE;
    body->next_sibling = parent->first_child;
    if (parent->first_child != SNUG_NONE) snug_body_at(scene, parent->first_child)->prev_sibling = body->slot;
    parent->first_child = body->slot;
    parent->child_count++;
}

/* Link as the child of parent right after sibling `prev` (SNUG_NONE: first). */
static void link_after(snug_scene_data* scene, snug_body_data* body, snug_body_data* parent, uint32_t prev) {
    if (prev == SNUG_NONE) {
        snug_hierarchy_link(scene, body, parent);
        return;
    }
    snug_body_data* p = snug_body_at(scene, prev);
    body->parent = parent->slot;
    body->prev_sibling = prev;
    body->next_sibling = p->next_sibling;
    if (p->next_sibling != SNUG_NONE) snug_body_at(scene, p->next_sibling)->prev_sibling = body->slot;
    p->next_sibling = body->slot;
    parent->child_count++;
}

/* The first body of the subtree whose world translation left the accepted range, SNUG_NONE when none did. */
static uint32_t subtree_out_of_range(const snug_scene_data* scene, const snug_body_data* body) {
    uint32_t root = body->slot;
    for (uint32_t s = root; s != SNUG_NONE; s = snug_hierarchy_next(scene, root, s)) {
        const float* p = snug_body_at(scene, s)->world.p;
        if (!snug_coordinate_ok(p[0]) || !snug_coordinate_ok(p[1]) || !snug_coordinate_ok(p[2])) return s;
    }
    return SNUG_NONE;
}

/* After a change of b's local pose or parent: keep it when every world pose of b's subtree is in range, else undo
 * it (local pose and place among its siblings) and recompute the same world poses as before (each is the product
 * of its parent's and its own local pose, so the recomputation repeats the earlier one exactly). */
typedef struct hierarchy_undo {
    snug_pose local;
    uint32_t parent, prev_sibling;
} hierarchy_undo;

static hierarchy_undo undo_point(const snug_body_data* b) {
    hierarchy_undo u = {b->local, b->parent, b->prev_sibling};
    return u;
}

static snug_status update_or_undo(snug_ctx* ctx, snug_scene_data* s, snug_body_data* b, const hierarchy_undo* u) {
    snug_hierarchy_update(s, b);
    uint32_t bad = subtree_out_of_range(s, b);
    if (bad == SNUG_NONE) return snug_succeed(ctx);
    const snug_body_data* far = snug_body_at(s, bad);
    float x = far->world.p[0], y = far->world.p[1], z = far->world.p[2];
    if (b->parent != u->parent || b->prev_sibling != u->prev_sibling) {
        snug_hierarchy_unlink(s, b);
        if (u->parent != SNUG_NONE) link_after(s, b, snug_body_at(s, u->parent), u->prev_sibling);
    }
    b->local = u->local;
    snug_hierarchy_update(s, b);
    return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                     "body 0x%08x would move to (%g, %g, %g), beyond the accepted range +-%g", far->handle, (double)x,
                     (double)y, (double)z, (double)SNUG_MAX_COORDINATE);
}

/* ---------------------------------------------------------------- journal */

void snug_hierarchy_journal_begin(snug_scene_data* s) {
    s->journaling = true;
    s->journal_count = 0;
}

void snug_hierarchy_journal_end(snug_scene_data* s) {
    s->journaling = false;
    s->journal_count = 0;
}

/* Before a change of b's local pose or parent: its record, when journaling. */
static snug_status journal_note(snug_ctx* ctx, snug_scene_data* s, const snug_body_data* b) {
    if (!s->journaling) return SNUG_OK;
    size_t n = s->journal_count;
    snug_status st = snug_buffer_reserve(ctx, &s->journal, (n + 1) * sizeof(snug_hierarchy_record),
                                         n * sizeof(snug_hierarchy_record));
    if (st) return st;
    ((snug_hierarchy_record*)s->journal.data)[s->journal_count++] =
        (snug_hierarchy_record){b->slot, b->local, b->parent, b->prev_sibling};
    return SNUG_OK;
}

uint32_t snug_hierarchy_depth(const snug_scene_data* s, uint32_t slot) {
    uint32_t d = 0;
    for (uint32_t a = snug_body_at(s, slot)->parent; a != SNUG_NONE; a = snug_body_at(s, a)->parent) d++;
    return d;
}

uint32_t snug_hierarchy_common_ancestor(const snug_scene_data* s, uint32_t a, uint32_t b) {
    uint32_t da = snug_hierarchy_depth(s, a), db = snug_hierarchy_depth(s, b);
    for (; da > db; da--) a = snug_body_at(s, a)->parent;
    for (; db > da; db--) b = snug_body_at(s, b)->parent;
    while (a != b && a != SNUG_NONE) a = snug_body_at(s, a)->parent, b = snug_body_at(s, b)->parent;
    return a;
}

void snug_hierarchy_rollback(snug_scene_data* s) {
    const snug_hierarchy_record* r = (const snug_hierarchy_record*)s->journal.data;
    uint32_t deepest = 0;
    for (uint32_t i = s->journal_count; i-- > 0;) {
        snug_body_data* b = snug_body_at(s, r[i].slot);
        if (b->parent != r[i].parent || b->prev_sibling != r[i].prev_sibling) {
            snug_hierarchy_unlink(s, b);
            if (r[i].parent != SNUG_NONE) link_after(s, b, snug_body_at(s, r[i].parent), r[i].prev_sibling);
        }
        b->local = r[i].local;
    }
    /* world poses top down: a body's after its parent's (a subtree's update covers what hangs below it now) */
    for (uint32_t i = 0; i < s->journal_count; i++) {
        uint32_t d = snug_hierarchy_depth(s, r[i].slot);
        deepest = d > deepest ? d : deepest;
    }
    for (uint32_t d = 0; d <= deepest; d++)
        for (uint32_t i = 0; i < s->journal_count; i++)
            if (snug_hierarchy_depth(s, r[i].slot) == d) snug_hierarchy_update(s, snug_body_at(s, r[i].slot));
    s->journal_count = 0;
}

/* ---------------------------------------------------------------- public */

snug_status snug_body_set_pose(snug_ctx* ctx, snug_scene scene, snug_body body, const snug_pose* pose) {
    SNUG_BODY_ENTRY(ctx, scene, body, S, b);
    snug_status st = snug_pose_check(ctx, pose, "pose");
    if (!st) st = journal_note(ctx, S, b);
    if (st) return st;
    hierarchy_undo undo = undo_point(b);
    snug_pose n = snug_pose_normalized(pose);
    if (b->parent == SNUG_NONE) {
        b->local = n;
    } else {
        /* App. B.2.2: an absolute world pose becomes T_local = P^-1 T_new */
        snug_pose pinv = snug_pose_inverse(&snug_body_at(S, b->parent)->world);
        b->local = snug_pose_mul(&pinv, &n);
    }
    return update_or_undo(ctx, S, b, &undo);
}

snug_status snug_body_get_pose(snug_ctx* ctx, snug_scene scene, snug_body body, snug_pose* out) {
    SNUG_BODY_ENTRY(ctx, scene, body, S, b);
    if (!out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "output is NULL");
    *out = b->world;
    return snug_succeed(ctx);
}

snug_status snug_body_set_local_pose(snug_ctx* ctx, snug_scene scene, snug_body body, const snug_pose* pose) {
    SNUG_BODY_ENTRY(ctx, scene, body, S, b);
    snug_status st = snug_pose_check(ctx, pose, "pose");
    if (!st) st = journal_note(ctx, S, b);
    if (st) return st;
    hierarchy_undo undo = undo_point(b);
    b->local = snug_pose_normalized(pose);
    return update_or_undo(ctx, S, b, &undo);
}

snug_status snug_body_get_local_pose(snug_ctx* ctx, snug_scene scene, snug_body body, snug_pose* out) {
    SNUG_BODY_ENTRY(ctx, scene, body, S, b);
    if (!out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "output is NULL");
    *out = b->local;
    return snug_succeed(ctx);
}

snug_status snug_body_set_parent(snug_ctx* ctx, snug_scene scene, snug_body body, snug_body parent, bool keep_world) {
    SNUG_BODY_ENTRY(ctx, scene, body, S, b);
    snug_body_data* p = NULL;
    if (parent != 0) {
        p = snug_body_lookup(ctx, S, parent);
        if (!p) return SNUG_ERR_STALE_HANDLE;
        /* a parent inside b's subtree (b itself included) would close a cycle */
        for (uint32_t a = p->slot; a != SNUG_NONE; a = snug_body_at(S, a)->parent)
            if (a == b->slot)
                return snug_fail(ctx, SNUG_ERR_CYCLE, "body 0x%08x is an ancestor of (or is) the new parent 0x%08x",
                                 body, parent);
    }
    snug_status st = journal_note(ctx, S, b);
    if (st) return st;
    hierarchy_undo undo = undo_point(b);
    snug_hierarchy_unlink(S, b);
    if (p) snug_hierarchy_link(S, b, p);
    if (keep_world) {
        /* IConS §3.7.3: T'_B = T_A^-1 T_B keeps the world pose */
        if (p) {
            snug_pose pinv = snug_pose_inverse(&p->world);
            b->local = snug_pose_mul(&pinv, &b->world);
        } else {
            b->local = b->world;
        }
    }
    return update_or_undo(ctx, S, b, &undo);
}

snug_status snug_body_get_parent(snug_ctx* ctx, snug_scene scene, snug_body body, snug_body* out) {
    SNUG_BODY_ENTRY(ctx, scene, body, S, b);
    if (!out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "output is NULL");
    *out = b->parent == SNUG_NONE ? 0 : snug_body_at(S, b->parent)->handle;
    return snug_succeed(ctx);
}
