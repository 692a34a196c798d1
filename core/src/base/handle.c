/* Generational handle pool (see handle.h for the bit layout). */
#include "base/handle.h"
#include "base/ctx.h"

#include <string.h>

#define GEN_MASK ((1u << SNUG_HANDLE_GEN_BITS) - 1u)
#define INDEX_MASK ((1u << SNUG_HANDLE_INDEX_BITS) - 1u)
#define KIND_SHIFT (SNUG_HANDLE_INDEX_BITS + SNUG_HANDLE_GEN_BITS)

static uint32_t make_handle(const snug_pool* pool, uint32_t slot) {
    /* slot + 1 keeps handle 0 invalid */
    return ((uint32_t)pool->kind << KIND_SHIFT) | ((pool->gens[slot] & GEN_MASK) << SNUG_HANDLE_INDEX_BITS) |
           (slot + 1u);
}

static int slot_of(const snug_pool* pool, uint32_t handle) {
    uint32_t index = handle & INDEX_MASK;
    if (index == 0 || (handle >> KIND_SHIFT) != (uint32_t)pool->kind) return -1;
    uint32_t slot = index - 1u;
    if (slot >= pool->slot_count || !pool->items[slot]) return -1;
    if (((handle >> SNUG_HANDLE_INDEX_BITS) & GEN_MASK) != (pool->gens[slot] & GEN_MASK)) return -1;
    return (int)slot;
}

void snug_pool_init(snug_pool* pool, snug_handle_kind kind, uint16_t salt) {
    memset(pool, 0, sizeof *pool);
    pool->kind = kind;
    pool->salt = salt;
}

void snug_pool_release(snug_ctx* ctx, snug_pool* pool) {
    snug_pool_free_fn free_item = pool->free_item;
    snug_free(ctx, pool->items);
    snug_free(ctx, pool->gens);
    snug_free(ctx, pool->free_slots);
    snug_pool_init(pool, pool->kind, pool->salt);
    pool->free_item = free_item;
}

void snug_pool_destroy(snug_ctx* ctx, snug_pool* pool) {
    uint32_t cursor = 0;
    void* item;
    while ((item = snug_pool_next(pool, &cursor))) pool->free_item(ctx, item);
    snug_pool_release(ctx, pool);
}

static int grow(snug_ctx* ctx, snug_pool* pool) {
    uint32_t cap = pool->capacity ? pool->capacity * 2u : 16u;
    if (cap > SNUG_HANDLE_MAX_SLOTS) cap = SNUG_HANDLE_MAX_SLOTS;
    if (cap <= pool->capacity) return 0;
    void** items = snug_alloc(ctx, cap * sizeof *items);
    uint16_t* gens = snug_alloc(ctx, cap * sizeof *gens);
    uint32_t* free_slots = snug_alloc(ctx, cap * sizeof *free_slots);
    if (!items || !gens || !free_slots) {
        snug_free(ctx, items);
        snug_free(ctx, gens);
        snug_free(ctx, free_slots);
        return 0;
    }
    if (pool->slot_count) {
        memcpy(items, pool->items, pool->slot_count * sizeof *items);
        memcpy(gens, pool->gens, pool->slot_count * sizeof *gens);
    }
    if (pool->free_count) memcpy(free_slots, pool->free_slots, pool->free_count * sizeof *free_slots);
    snug_free(ctx, pool->items);
    snug_free(ctx, pool->gens);
    snug_free(ctx, pool->free_slots);
    pool->items = items;
    pool->gens = gens;
    pool->free_slots = free_slots;
    pool->capacity = cap;
    return 1;
}

uint32_t snug_pool_add(snug_ctx* ctx, snug_pool* pool, void* item) {
    uint32_t slot;
    if (pool->free_count) {
        slot = pool->free_slots[--pool->free_count];
    } else {
        if (pool->slot_count == pool->capacity && !grow(ctx, pool)) return 0;
        slot = pool->slot_count++;
        pool->gens[slot] = pool->salt;
    }
    pool->items[slot] = item;
    pool->live++;
    return make_handle(pool, slot);
}

void* snug_pool_get(const snug_pool* pool, uint32_t handle) {
    int slot = slot_of(pool, handle);
    return slot < 0 ? NULL : pool->items[slot];
}

void* snug_pool_remove(snug_pool* pool, uint32_t handle) {
    int slot = slot_of(pool, handle);
    if (slot < 0) return NULL;
    void* item = pool->items[slot];
    pool->items[slot] = NULL;
    pool->gens[slot]++;
    pool->free_slots[pool->free_count++] = (uint32_t)slot;
    pool->live--;
    return item;
}

void snug_pool_forget_newest(snug_pool* pool, uint32_t slot_count_before) {
    uint32_t slot = pool->free_slots[pool->free_count - 1];
    if (slot >= slot_count_before) {
        pool->free_count--;
        pool->slot_count--;
    } else {
        pool->gens[slot]--;
    }
}

void* snug_pool_next(const snug_pool* pool, uint32_t* cursor) {
    for (uint32_t s = *cursor; s < pool->slot_count; s++) {
        if (pool->items[s]) {
            *cursor = s + 1;
            return pool->items[s];
        }
    }
    *cursor = pool->slot_count;
    return NULL;
}
