/* Handle pools: objects are addressed by 32-bit handles (slot index, generation and kind) so that a stale,
 * forged or foreign handle is detected instead of dereferenced. Handle 0 is never issued. */
#ifndef SNUG_HANDLE_H
#define SNUG_HANDLE_H

#include <stdint.h>

#define SNUG_HANDLE_INDEX_BITS 20u
#define SNUG_HANDLE_GEN_BITS 10u
#define SNUG_HANDLE_MAX_SLOTS ((1u << SNUG_HANDLE_INDEX_BITS) - 1u)

typedef enum snug_handle_kind {
    SNUG_KIND_MESH = 1,
    SNUG_KIND_BODY = 2,
    SNUG_KIND_SCENE = 3
} snug_handle_kind;

struct snug_ctx;

/* Frees one item of a pool; set by the layer that owns the items, so that the context (the lowest layer) can
 * free what upper layers left in its pools without knowing their types. */
typedef void (*snug_pool_free_fn)(struct snug_ctx* ctx, void* item);

typedef struct snug_pool {
    void** items;        /* NULL for a free slot */
    uint16_t* gens;
    uint32_t* free_slots;
    uint32_t free_count;
    uint32_t slot_count;
    uint32_t capacity;
    uint32_t live;
    uint16_t salt;       /* per-context start generation, so handles of another context rarely validate */
    snug_handle_kind kind;
    snug_pool_free_fn free_item;
} snug_pool;

void snug_pool_init(snug_pool* pool, snug_handle_kind kind, uint16_t salt);
void snug_pool_release(struct snug_ctx* ctx, snug_pool* pool);
/* Free every live item with the pool's free_item, then the pool's own arrays. */
void snug_pool_destroy(struct snug_ctx* ctx, snug_pool* pool);
/* Store item and return its new handle, or 0 when memory (or slots) ran out. */
uint32_t snug_pool_add(struct snug_ctx* ctx, snug_pool* pool, void* item);
/* The item for a valid handle, NULL otherwise. */
void* snug_pool_get(const snug_pool* pool, uint32_t handle);
/* Free the slot of a valid handle and return its item (NULL if the handle is not valid). */
void* snug_pool_remove(snug_pool* pool, uint32_t handle);
/* Forget the newest handle, added and then removed (the top of the free list) by a call that failed, as if it had
 * never been issued: its slot goes back where the add took it from (the free list with its generation, or past
 * the end when the pool had slot_count_before slots), so the next add issues the same handle as before the call. */
void snug_pool_forget_newest(snug_pool* pool, uint32_t slot_count_before);
/* Iterate live items: returns the next slot >= *cursor holding an item, advancing *cursor; NULL at the end. */
void* snug_pool_next(const snug_pool* pool, uint32_t* cursor);

#endif
