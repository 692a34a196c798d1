/* Delete with a policy (IConS Fig. 5.13 left a lamp floating over the deleted table): what rests on the body falls
 * by pseudo-gravity to the next compatible offer below, and what finds none goes with the body; or everything that
 * rests on it, transitively, goes with it. A snapshot taken first is restored if any step fails, so a failed delete
 * changes nothing. */
#include <string.h>

#include "place/place.h"

typedef struct body_list {
    snug_body* items;
    uint32_t count, cap;
} body_list;

static snug_status list_add(snug_ctx* ctx, body_list* l, snug_body h) {
    for (uint32_t i = 0; i < l->count; i++)
        if (l->items[i] == h) return SNUG_OK;
    if (l->count == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 32;
        snug_body* fresh = snug_realloc(ctx, l->items, cap * sizeof *fresh);
        if (!fresh) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "delete: list of %u bodies", cap);
        l->items = fresh;
        l->cap = cap;
    }
    l->items[l->count++] = h;
    return SNUG_OK;
}

/* Add b, its subtree and, transitively, everything resting on any of them. */
static snug_status add_with_dependents(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, body_list* l,
                                       snug_body_data* b) {
    uint32_t from = l->count;
    snug_status st = list_add(ctx, l, b->handle);
    for (uint32_t i = from; !st && i < l->count; i++) {
        snug_body_data* x = snug_pool_get(&s->bodies, l->items[i]);
        for (uint32_t c = x->first_child; !st && c != SNUG_NONE; c = snug_body_at(s, c)->next_sibling)
            st = list_add(ctx, l, snug_body_at(s, c)->handle);
        for (uint32_t slot = 0; !st && slot < ps->body_cap; slot++) {
            snug_place_body* r = snug_place_body_at(ps, s, slot);
            for (uint32_t j = 0; r && j < r->binding_count; j++)
                if (r->bindings[j].supporter == x->handle) {
                    st = list_add(ctx, l, r->handle);
                    break;
                }
        }
    }
    return st;
}

snug_status snug_scene_delete(snug_ctx* ctx, snug_scene scene, snug_body body, snug_delete_policy policy,
                              snug_body* deleted, uint32_t capacity, uint32_t* total) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    if (!total || (capacity && !deleted)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "scene_delete needs outputs");
    if ((unsigned)policy >= SNUG_DELETE_POLICY_COUNT)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "delete policy %d is not a snug_delete_policy", (int)policy);
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    size_t size = 0;
    snug_status st = snug_scene_snapshot(ctx, scene, NULL, 0, &size);
    if (st || (st = snug_buffer_reserve(ctx, &ps->undo, size, 0)) ||
        (st = snug_scene_snapshot(ctx, scene, ps->undo.data, size, &size)))
        return st;
    body_list gone = {0}, fall = {0};
    if (policy == SNUG_DELETE_WITH_DEPENDENTS) {
        st = add_with_dependents(ctx, s, ps, &gone, b);
    } else {
        st = list_add(ctx, &gone, body);
        /* what rests on it and what it carries fall */
        for (uint32_t c = b->first_child; !st && c != SNUG_NONE; c = snug_body_at(s, c)->next_sibling)
            st = list_add(ctx, &fall, snug_body_at(s, c)->handle);
        for (uint32_t slot = 0; !st && slot < ps->body_cap; slot++) {
            snug_place_body* r = snug_place_body_at(ps, s, slot);
            for (uint32_t j = 0; r && j < r->binding_count; j++)
                if (r->bindings[j].supporter == body) {
                    st = list_add(ctx, &fall, r->handle);
                    break;
                }
        }
    }
    for (uint32_t i = 0; !st && i < (policy == SNUG_DELETE_WITH_DEPENDENTS ? gone.count : 1u); i++)
        st = snug_body_destroy(ctx, scene, gone.items[i]);
    for (uint32_t i = 0; !st && i < fall.count; i++) {
        snug_body_data* d = snug_pool_get(&s->bodies, fall.items[i]);
        if (!d) continue; /* went with another that could not land */
        snug_place_prune(ctx, s, ps); /* its binding on the deleted body goes */
        snug_drop_outcome outcome;
        if ((st = snug_body_drop(ctx, scene, d->handle, &outcome, NULL, NULL))) break;
        if (outcome == SNUG_DROP_LANDED || outcome == SNUG_DROP_RESTING) continue;
        /* nowhere to land: it goes, with what rests on it */
        uint32_t from = gone.count;
        if ((st = add_with_dependents(ctx, s, ps, &gone, d))) break;
        for (uint32_t k = from; !st && k < gone.count; k++)
            if (snug_pool_get(&s->bodies, gone.items[k])) st = snug_body_destroy(ctx, scene, gone.items[k]);
    }
    if (st) {
        char why[sizeof ctx->last_error];
        memcpy(why, ctx->last_error, sizeof why);
        snug_scene_restore(ctx, scene, ps->undo.data, size);
        memcpy(ctx->last_error, why, sizeof why);
        ctx->last_status = st;
        snug_free(ctx, gone.items);
        snug_free(ctx, fall.items);
        return st;
    }
    snug_place_prune(ctx, s, ps);
    for (uint32_t i = 0; i < gone.count && i < capacity; i++) deleted[i] = gone.items[i];
    *total = gone.count;
    snug_free(ctx, gone.items);
    snug_free(ctx, fall.items);
    return snug_succeed(ctx);
}
