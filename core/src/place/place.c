/* The placement layer's state on a scene, its settings, orientation constraints and the binding records with the
 * hierarchy that follows them: a body's parent is the supporter of its main binding (the one whose normal is
 * nearest to up), so what stands on a body moves with it (IConS §3.6-3.7). */
#include <string.h>

#include "place/place.h"

snug_place_def snug_default_place_def(void) {
    snug_place_def d;
    memset(&d, 0, sizeof d);
    d.up[1] = 1.0f;
    d.skin = 2e-3f;
    d.overhang = 0.05f;
    d.snap_range = 2.0f;
    d.max_slides = 4;
    d.internal_value = SNUG_DEF_MARK;
    return d;
}

static void free_state(snug_ctx* ctx, void* data) {
    snug_place_scene* ps = data;
    snug_free(ctx, ps->bodies);
    snug_free(ctx, ps->stamps);
    snug_free(ctx, ps->group.data);
    snug_free(ctx, ps->near.data);
    snug_free(ctx, ps->pairs.data);
    snug_free(ctx, ps->memory.neighbours.data);
    snug_free(ctx, ps->undo.data);
    snug_free(ctx, ps->journal.data);
    snug_free(ctx, ps);
}

snug_place_scene* snug_place_state(snug_ctx* ctx, snug_scene_data* s) {
    if (s->place.data) return s->place.data;
    snug_place_scene* ps = snug_calloc(ctx, 1, sizeof *ps);
    if (!ps) {
        snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "placement state");
        return NULL;
    }
    ps->def = snug_default_place_def();
    snug_labels_default(ps);
    s->place.data = ps;
    s->place.free = free_state;
    return ps;
}

snug_place_body* snug_place_body_at(snug_place_scene* ps, const snug_scene_data* s, uint32_t slot) {
    if (slot >= ps->body_cap || slot >= s->bodies.slot_count) return NULL;
    snug_place_body* r = &ps->bodies[slot];
    const snug_body_data* b = s->bodies.items[slot];
    return b && r->handle == b->handle ? r : NULL;
}

snug_place_body* snug_place_body_of(snug_ctx* ctx, snug_place_scene* ps, const snug_body_data* b) {
    if (snug_place_journal_note(ctx, ps, b->slot)) return NULL;
    if (b->slot >= ps->body_cap) {
        uint32_t cap = ps->body_cap ? ps->body_cap : 64;
        while (cap <= b->slot) cap *= 2;
        snug_place_body* fresh = snug_realloc(ctx, ps->bodies, (size_t)cap * sizeof *fresh);
        if (!fresh) {
            snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "placement records for %u bodies", cap);
            return NULL;
        }
        memset(fresh + ps->body_cap, 0, (size_t)(cap - ps->body_cap) * sizeof *fresh);
        ps->bodies = fresh;
        ps->body_cap = cap;
    }
    snug_place_body* r = &ps->bodies[b->slot];
    if (r->handle != b->handle) {
        memset(r, 0, sizeof *r);
        r->handle = b->handle;
    }
    return r;
}

/* Is the binding's supporter alive, and do both surfaces still exist with the right kinds? */
static bool binding_alive(snug_ctx* ctx, snug_scene_data* s, const snug_binding* bd) {
    snug_body_data* body = snug_pool_get(&s->bodies, bd->body);
    snug_body_data* sup = snug_pool_get(&s->bodies, bd->supporter);
    if (!body || !sup) return false;
    snug_mesh_data* mb = snug_pool_get(&ctx->meshes, body->mesh);
    snug_mesh_data* ms = snug_pool_get(&ctx->meshes, sup->mesh);
    if (!mb || !ms) return false;
    const snug_place_surfaces* sb = snug_mesh_surfaces(mb);
    const snug_place_surfaces* ss = snug_mesh_surfaces(ms);
    return sb && ss && bd->binding < sb->count && bd->offer < ss->count &&
           sb->items[bd->binding].s.kind == SNUG_SURFACE_BINDING && ss->items[bd->offer].s.kind == SNUG_SURFACE_OFFER;
}

void snug_place_prune(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps) {
    for (uint32_t slot = 0; slot < ps->body_cap; slot++) {
        snug_place_body* r = snug_place_body_at(ps, s, slot);
        if (!r) continue;
        uint32_t kept = 0;
        for (uint32_t i = 0; i < r->binding_count; i++)
            if (binding_alive(ctx, s, &r->bindings[i])) r->bindings[kept++] = r->bindings[i];
        r->binding_count = kept;
    }
}

snug_status snug_scene_set_place_def(snug_ctx* ctx, snug_scene scene, const snug_place_def* def) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!def) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "set_place_def: def is NULL");
    if (snug_def_check_mark(ctx, def->internal_value, "place_def")) return SNUG_ERR_INVALID_ARGUMENT;
    dvec up = dv(def->up);
    if (!dfinite(up) || !isfinite(def->skin) || !isfinite(def->overhang) || !isfinite(def->snap_range))
        return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "place def has NaN or Inf");
    if (fabs(dlen(up) - 1.0) > 1e-3)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "place def: up is not a unit vector");
    if (!(def->skin >= SNUG_MIN_SKIN && def->skin <= 0.1f) || !(def->overhang >= 0.0f && def->overhang <= 1.0f) ||
        !(def->snap_range >= 0.0f && def->snap_range <= 100.0f) || def->max_slides < 1 || def->max_slides > 8)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                         "place def out of range: skin [0.001, 0.1], overhang [0, 1], snap range [0, 100], slides 1..8");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    ps->def = *def;
    dstore_f(dnorm(up), ps->def.up);
    return snug_succeed(ctx);
}

snug_status snug_scene_get_place_def(snug_ctx* ctx, snug_scene scene, snug_place_def* out) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "get_place_def needs an output");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    *out = ps->def;
    return snug_succeed(ctx);
}

snug_status snug_body_set_orientation(snug_ctx* ctx, snug_scene scene, snug_body body, const float local[3],
                                      const float world[3]) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    if (!local || !world) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "set_orientation needs two vectors");
    dvec l = dv(local), w = dv(world);
    if (!dfinite(l) || !dfinite(w)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "orientation vector not finite");
    bool clear = dlen(l) == 0.0 && dlen(w) == 0.0;
    if (!clear && (fabs(dlen(l) - 1.0) > 1e-3 || fabs(dlen(w) - 1.0) > 1e-3))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "orientation vectors must both be unit (or both zero)");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_body* r = snug_place_body_of(ctx, ps, b);
    if (!r) return SNUG_ERR_OUT_OF_MEMORY;
    r->oriented = !clear;
    dstore_f(dnorm(l), r->orient_local);
    dstore_f(dnorm(w), r->orient_world);
    return snug_succeed(ctx);
}

snug_status snug_body_get_orientation(snug_ctx* ctx, snug_scene scene, snug_body body, float local[3],
                                      float world[3]) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    if (!local || !world) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "get_orientation needs two outputs");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    const snug_place_body* r = snug_place_body_at(ps, s, b->slot);
    bool oriented = r && r->oriented;
    for (int i = 0; i < 3; i++) {
        local[i] = oriented ? r->orient_local[i] : 0.0f;
        world[i] = oriented ? r->orient_world[i] : 0.0f;
    }
    return snug_succeed(ctx);
}

snug_status snug_body_get_bindings(snug_ctx* ctx, snug_scene scene, snug_body body, snug_binding* out,
                                   uint32_t capacity, uint32_t* total) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    if (!total || (capacity && !out)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "get_bindings needs outputs");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    snug_place_body* r = snug_place_body_at(ps, s, b->slot);
    uint32_t n = r ? r->binding_count : 0;
    for (uint32_t i = 0; i < n && i < capacity; i++) out[i] = r->bindings[i];
    *total = n;
    if (n > capacity) return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "%u bindings, capacity %u", n, capacity);
    return snug_succeed(ctx);
}
