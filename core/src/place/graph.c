/* The binding graph's queries: a body's supporters (the edges from it), its dependents (the edges into it) and its
 * group (what moves with it: its subtree, which the main bindings shape, place.h). */
#include "place/place.h"

/* Write one handle into a list call's output: count always, store while there is room. */
static void put(snug_body* out, uint32_t capacity, uint32_t* n, snug_body h) {
    if (*n < capacity) out[*n] = h;
    (*n)++;
}

static snug_status finish(snug_ctx* ctx, uint32_t n, uint32_t capacity, uint32_t* total) {
    *total = n;
    if (n > capacity) return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "%u bodies, capacity %u", n, capacity);
    return snug_succeed(ctx);
}

snug_status snug_body_get_supporters(snug_ctx* ctx, snug_scene scene, snug_body body, snug_body* out,
                                     uint32_t capacity, uint32_t* total) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    if (!total || (capacity && !out)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "get_supporters needs outputs");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    snug_place_body* r = snug_place_body_at(ps, s, b->slot);
    uint32_t n = 0;
    for (uint32_t i = 0; r && i < r->binding_count; i++) {
        bool seen = false;
        for (uint32_t j = 0; j < i; j++) seen |= r->bindings[j].supporter == r->bindings[i].supporter;
        if (!seen) put(out, capacity, &n, r->bindings[i].supporter);
    }
    return finish(ctx, n, capacity, total);
}

snug_status snug_body_get_dependents(snug_ctx* ctx, snug_scene scene, snug_body body, snug_body* out,
                                     uint32_t capacity, uint32_t* total) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    if (!total || (capacity && !out)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "get_dependents needs outputs");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    uint32_t n = 0;
    for (uint32_t slot = 0; slot < ps->body_cap; slot++) {
        snug_place_body* r = snug_place_body_at(ps, s, slot);
        for (uint32_t i = 0; r && i < r->binding_count; i++)
            if (r->bindings[i].supporter == b->handle) {
                put(out, capacity, &n, r->handle);
                break;
            }
    }
    return finish(ctx, n, capacity, total);
}

snug_status snug_body_get_group(snug_ctx* ctx, snug_scene scene, snug_body body, snug_body* out, uint32_t capacity,
                                uint32_t* total) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    if (!total || (capacity && !out)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "get_group needs outputs");
    uint32_t n = 0;
    for (uint32_t i = b->slot; i != SNUG_NONE; i = snug_hierarchy_next(s, b->slot, i))
        put(out, capacity, &n, snug_body_at(s, i)->handle);
    return finish(ctx, n, capacity, total);
}
