/* Scenes and bodies: lifetime, flags, filters, the ignore list and keeping the broad phase in sync. */
#include "scene/scene.h"

#include <float.h>
#include <math.h>
#include <string.h>

snug_scene_data* snug_scene_lookup(snug_ctx* ctx, snug_scene handle) {
    snug_scene_data* s = snug_pool_get(&ctx->scenes, handle);
    if (!s) snug_fail(ctx, SNUG_ERR_STALE_HANDLE, "scene handle 0x%08x is not a live scene of this context", handle);
    return s;
}

snug_body_data* snug_body_lookup(snug_ctx* ctx, snug_scene_data* scene, snug_body handle) {
    snug_body_data* b = snug_pool_get(&scene->bodies, handle);
    if (!b) snug_fail(ctx, SNUG_ERR_STALE_HANDLE, "body handle 0x%08x is not a live body of this scene", handle);
    return b;
}

bool snug_scene_is_valid(const snug_ctx* ctx, snug_scene scene) {
    return ctx && snug_pool_get(&ctx->scenes, scene) != NULL;
}

bool snug_body_is_valid(const snug_ctx* ctx, snug_scene scene, snug_body body) {
    const snug_scene_data* s = ctx ? snug_pool_get(&ctx->scenes, scene) : NULL;
    return s && snug_pool_get(&s->bodies, body) != NULL;
}

void snug_scene_data_free(snug_ctx* ctx, snug_scene_data* scene) {
    snug_attachment_release(ctx, &scene->place);
    uint32_t cursor = 0;
    snug_body_data* b;
    while ((b = snug_pool_next(&scene->bodies, &cursor))) snug_free(ctx, b);
    snug_pool_release(ctx, &scene->bodies);
    snug_bp_free(ctx, &scene->bp);
    snug_pairset_free(ctx, &scene->ignore);
    snug_free(ctx, scene->dirty);
    snug_free(ctx, scene->buf.data);
    snug_free(ctx, scene->step.motions);
    snug_free(ctx, scene->step.bodies);
    snug_free(ctx, scene->step.work.data);
    snug_free(ctx, scene->step.pairs.data);
    snug_free(ctx, scene->step.hits.data);
    snug_free(ctx, scene->journal.data);
    snug_free(ctx, scene);
}

static void free_pooled_scene(snug_ctx* ctx, void* scene) { snug_scene_data_free(ctx, scene); }

snug_status snug_scene_create(snug_ctx* ctx, snug_scene* out) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "scene_create needs an output");
    snug_scene_data* s = snug_calloc(ctx, 1, sizeof *s);
    if (!s) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "scene");
    /* per-scene salt: a body handle of another scene rarely validates here */
    uint16_t salt = (uint16_t)(((uintptr_t)s >> 4) * 2246822519u >> 9);
    snug_pool_init(&s->bodies, SNUG_KIND_BODY, salt);
    ctx->scenes.free_item = free_pooled_scene;
    s->handle = snug_pool_add(ctx, &ctx->scenes, s);
    if (!s->handle) {
        snug_free(ctx, s);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "scene handle");
    }
    *out = s->handle;
    return snug_succeed(ctx);
}

void snug_scene_swap_contents(snug_scene_data* a, snug_scene_data* b) {
    snug_scene_data t = *a;
    *a = *b;
    *b = t;
    snug_scene handle = a->handle;
    a->handle = b->handle;
    b->handle = handle;
}

snug_status snug_scene_destroy(snug_ctx* ctx, snug_scene scene) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    snug_scene_data* s = snug_pool_remove(&ctx->scenes, scene);
    if (!s) return snug_fail(ctx, SNUG_ERR_STALE_HANDLE, "scene handle 0x%08x is not a live scene of this context", scene);
    snug_scene_data_free(ctx, s);
    return snug_succeed(ctx);
}

snug_body_def snug_default_body_def(void) {
    snug_body_def d;
    memset(&d, 0, sizeof d);
    d.pose = snug_pose_identity();
    d.enabled = true;
    d.layer = 1u;
    d.mask = 0xffffffffu;
    d.internal_value = SNUG_DEF_MARK;
    return d;
}

void snug_scene_mark_dirty(snug_scene_data* scene, snug_body_data* body) {
    if (body->bp_dirty) return;
    body->bp_dirty = true;
    scene->dirty[scene->dirty_count++] = body->slot;
}

void snug_body_world_box(const snug_body_data* body, const snug_pose* pose, float min[3], float max[3]) {
    snug_xform x;
    snug_xform_from_pose(pose, &x);
    vec3 c, e, wc;
    glm_vec3_center((float*)body->local_min, (float*)body->local_max, c);
    glm_vec3_sub((float*)body->local_max, (float*)body->local_min, e);
    glm_vec3_scale(e, 0.5f, e);
    snug_xform_point(&x, c, wc);
    /* float rounding of the transform: pad relative to the coordinates' magnitude */
    float pad = 8.0f * FLT_EPSILON * (fabsf(wc[0]) + fabsf(wc[1]) + fabsf(wc[2]) + e[0] + e[1] + e[2]);
    for (int i = 0; i < 3; i++) {
        /* R[col][row]: the half extent on world axis i is sum_j |R_ij| e_j (seed 000 §6.1) */
        float r = fabsf(x.R[0][i]) * e[0] + fabsf(x.R[1][i]) * e[1] + fabsf(x.R[2][i]) * e[2] + pad;
        min[i] = wc[i] - r;
        max[i] = wc[i] + r;
    }
}

bool snug_scene_pair_passes(const snug_scene_data* scene, const snug_body_data* a, const snug_body_data* b) {
    if (!a->enabled || !b->enabled || (a->is_static && b->is_static)) return false;
    if (!(a->layer & b->mask) || !(b->layer & a->mask)) return false;
    return !snug_pairset_contains(&scene->ignore, snug_pair_key(a->slot, b->slot));
}

static void remove_dirty_entry(snug_scene_data* scene, uint32_t slot) {
    for (uint32_t i = 0; i < scene->dirty_count; i++)
        if (scene->dirty[i] == slot) {
            scene->dirty[i] = scene->dirty[--scene->dirty_count];
            return;
        }
}

snug_status snug_body_create(snug_ctx* ctx, snug_scene scene, const snug_body_def* def, snug_body* out) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    snug_scene_data* s = snug_scene_lookup(ctx, scene);
    if (!s) return SNUG_ERR_STALE_HANDLE;
    if (!def || !out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "body_create needs a def and an output");
    if (snug_def_check_mark(ctx, def->internal_value, "body_def")) return SNUG_ERR_INVALID_ARGUMENT;
    snug_mesh_data* mesh = snug_mesh_lookup(ctx, def->mesh);
    if (!mesh) return SNUG_ERR_STALE_HANDLE;
    snug_status st = snug_pose_check(ctx, &def->pose, "body pose");
    if (st != SNUG_OK) return st;
    snug_body_data* parent = NULL;
    if (def->parent) {
        parent = snug_body_lookup(ctx, s, def->parent);
        if (!parent) return SNUG_ERR_STALE_HANDLE;
        snug_pose local = snug_pose_normalized(&def->pose), world = snug_pose_mul(&parent->world, &local);
        if ((st = snug_point_check(ctx, world.p, "the body's world position")) != SNUG_OK) return st;
    }
    /* room in the dirty queue for every body, so marking can never fail later; the larger queue replaces the old
     * one only once nothing else can fail (a failed call leaves its memory as it was) */
    uint32_t* dirty = NULL;
    uint32_t dirty_cap = s->dirty_cap;
    if (s->bodies.live + 1u > dirty_cap) {
        dirty_cap = dirty_cap ? dirty_cap * 2u : 64u;
        dirty = snug_alloc(ctx, (size_t)dirty_cap * sizeof *dirty);
        if (!dirty) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "scene dirty queue");
    }
    snug_body_data* b = snug_calloc(ctx, 1, sizeof *b);
    if (b) b->handle = snug_pool_add(ctx, &s->bodies, b);
    if (!b || !b->handle) {
        snug_free(ctx, b);
        snug_free(ctx, dirty);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "body");
    }
    if (dirty) {
        if (s->dirty_count) memcpy(dirty, s->dirty, (size_t)s->dirty_count * sizeof *dirty);
        snug_free(ctx, s->dirty);
        s->dirty = dirty;
        s->dirty_cap = dirty_cap;
    }
    b->slot = (b->handle & SNUG_HANDLE_MAX_SLOTS) - 1u;
    b->mesh = def->mesh;
    b->local = snug_pose_normalized(&def->pose);
    b->parent = b->first_child = b->next_sibling = b->prev_sibling = SNUG_NONE;
    b->is_static = def->is_static;
    b->enabled = def->enabled;
    b->layer = def->layer;
    b->mask = def->mask;
    b->user_data = def->user_data;
    /* pad by the mesh tolerance: touching within tolerance must reach the narrow phase */
    glm_vec3_subs(mesh->aabb_min, mesh->tolerance, b->local_min);
    glm_vec3_adds(mesh->aabb_max, mesh->tolerance, b->local_max);
    for (int i = 0; i < 3; i++) {
        float m = fmaxf(fabsf(b->local_min[i]), fabsf(b->local_max[i]));
        b->local_reach += m * m;
    }
    b->local_reach = sqrtf(b->local_reach);
    b->proxy = SNUG_NONE;
    if (parent) snug_hierarchy_link(s, b, parent);
    snug_hierarchy_update(s, b);
    s->pending_inserts++;
    s->step.detected = false;
    *out = b->handle;
    return snug_succeed(ctx);
}

snug_status snug_body_destroy(snug_ctx* ctx, snug_scene scene, snug_body body) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    snug_scene_data* s = snug_scene_lookup(ctx, scene);
    if (!s) return SNUG_ERR_STALE_HANDLE;
    snug_body_data* b = snug_body_lookup(ctx, s, body);
    if (!b) return SNUG_ERR_STALE_HANDLE;
    /* children become roots with their world poses (and subtrees) unchanged */
    while (b->first_child != SNUG_NONE) {
        snug_body_data* c = snug_body_at(s, b->first_child);
        snug_hierarchy_unlink(s, c);
        c->local = c->world;
    }
    snug_hierarchy_unlink(s, b);
    if (b->proxy != SNUG_NONE) snug_bp_remove(&s->bp, b->proxy);
    else s->pending_inserts--;
    if (b->bp_dirty) remove_dirty_entry(s, b->slot);
    for (uint32_t k = 0; k < s->ignore.count;) {
        uint64_t key = s->ignore.list[k];
        if (snug_pair_lo(key) == b->slot || snug_pair_hi(key) == b->slot) snug_pairset_remove(&s->ignore, key);
        else k++;
    }
    snug_step_state* st = &s->step;
    for (uint32_t m = 0; m < st->motion_count;)
        if (st->motions[m].slot == b->slot) {
            memmove(&st->motions[m], &st->motions[m + 1], (st->motion_count - m - 1) * sizeof *st->motions);
            st->motion_count--;
        } else {
            m++;
        }
    st->detected = false;
    snug_pool_remove(&s->bodies, body);
    snug_free(ctx, b);
    return snug_succeed(ctx);
}

snug_status snug_body_set_static(snug_ctx* ctx, snug_scene scene, snug_body body, bool is_static) {
    SNUG_BODY_ENTRY(ctx, scene, body, S, b);
    b->is_static = is_static;
    return snug_succeed(ctx);
}

snug_status snug_body_set_enabled(snug_ctx* ctx, snug_scene scene, snug_body body, bool enabled) {
    SNUG_BODY_ENTRY(ctx, scene, body, S, b);
    b->enabled = enabled;
    return snug_succeed(ctx);
}

snug_status snug_body_set_filter(snug_ctx* ctx, snug_scene scene, snug_body body, uint32_t layer, uint32_t mask) {
    SNUG_BODY_ENTRY(ctx, scene, body, S, b);
    b->layer = layer;
    b->mask = mask;
    return snug_succeed(ctx);
}

snug_status snug_body_get_info(snug_ctx* ctx, snug_scene scene, snug_body body, snug_body_info* out) {
    SNUG_BODY_ENTRY(ctx, scene, body, S, b);
    if (!out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "output is NULL");
    memset(out, 0, sizeof *out);
    out->mesh = b->mesh;
    out->parent = b->parent == SNUG_NONE ? 0 : snug_body_at(S, b->parent)->handle;
    out->child_count = b->child_count;
    out->is_static = b->is_static;
    out->enabled = b->enabled;
    out->layer = b->layer;
    out->mask = b->mask;
    out->user_data = b->user_data;
    snug_body_world_box(b, &b->world, out->aabb_min, out->aabb_max);
    return snug_succeed(ctx);
}

snug_status snug_scene_ignore_pair(snug_ctx* ctx, snug_scene scene, snug_body a, snug_body b, bool ignore) {
    SNUG_BODY_ENTRY(ctx, scene, a, S, ba);
    snug_body_data* bb = snug_body_lookup(ctx, S, b);
    if (!bb) return SNUG_ERR_STALE_HANDLE;
    if (ba == bb) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "a body never pairs with itself");
    uint64_t key = snug_pair_key(ba->slot, bb->slot);
    if (!ignore) snug_pairset_remove(&S->ignore, key);
    else if (!snug_pairset_insert(ctx, &S->ignore, key)) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "ignore list");
    return snug_succeed(ctx);
}

snug_status snug_scene_sync(snug_ctx* ctx, snug_scene_data* s) {
    snug_broadphase* bp = &s->bp;
    snug_status st = snug_bp_maintain(ctx, bp);
    if (st) return snug_fail(ctx, st, "broad phase rebuild");
    /* many new bodies at once (a load): append them and rebuild instead of sorting each one in; many moved
     * bodies: store all boxes, then one insertion-sort pass per axis (fewer swaps than one body at a time) */
    bool bulk = s->pending_inserts > 64u && 4u * s->pending_inserts > bp->live;
    bool batch = !bulk && s->dirty_count > 32u && 8u * s->dirty_count > bp->live;
    uint32_t i = 0;
    for (; i < s->dirty_count; i++) {
        snug_body_data* b = snug_body_at(s, s->dirty[i]);
        float mn[3], mx[3];
        snug_body_world_box(b, &b->world, mn, mx);
        if (b->proxy == SNUG_NONE) {
            if (snug_bp_insert(ctx, bp, mn, mx, b->slot, !bulk && !batch, &b->proxy) != SNUG_OK) break;
            s->pending_inserts--;
        } else if (batch) {
            snug_bp_set_box(bp, b->proxy, mn, mx);
        } else {
            snug_bp_move(ctx, bp, b->proxy, mn, mx);
        }
        b->bp_dirty = false;
    }
    if (batch) {
        bp->needs_rebuild = false; /* appended proxies are sorted in by the pass, like moved ones */
        snug_bp_resort(ctx, bp);
    }
    /* keep what is left (after a failure) queued (a scene that never had a body has no queue at all) */
    if (i) memmove(s->dirty, s->dirty + i, (s->dirty_count - i) * sizeof *s->dirty);
    s->dirty_count -= i;
    if (bp->needs_rebuild && snug_bp_rebuild(ctx, bp) != SNUG_OK)
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "broad phase rebuild");
    if (s->dirty_count) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "broad phase insert");
    return SNUG_OK;
}
