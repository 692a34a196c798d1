/* A scene's bodies as bytes and back, for snapshots (undo): every body record as it is in memory (poses, links,
 * flags, filter, bounds), the handle pool (generations and free slots, so that handles come back the same and later
 * ones are issued as before) and the ignore list. The broad phase and the step are derived and rebuilt. Bytes are
 * for this process only: records are copied raw, and checked on the way back in (slots, links, handles, meshes)
 * before anything of the scene changes. */
#include <string.h>

#include "scene/scene.h"

typedef struct state_header {
    uint32_t slot_count, free_count, live, ignore_count;
    uint16_t salt;
    uint16_t pad;
} state_header;

size_t snug_scene_state_size(const snug_scene_data* s) {
    return sizeof(state_header) + (size_t)s->bodies.slot_count * sizeof(uint16_t) +
           (size_t)s->bodies.free_count * sizeof(uint32_t) + (size_t)s->bodies.live * sizeof(snug_body_data) +
           (size_t)s->ignore.count * sizeof(uint64_t);
}

static unsigned char* put(unsigned char* out, const void* p, size_t n) {
    if (n) memcpy(out, p, n);
    return out + n;
}

void snug_scene_state_write(const snug_scene_data* s, unsigned char* out) {
    const snug_pool* pool = &s->bodies;
    state_header h = {pool->slot_count, pool->free_count, pool->live, s->ignore.count, pool->salt, 0};
    out = put(out, &h, sizeof h);
    out = put(out, pool->gens, (size_t)pool->slot_count * sizeof(uint16_t));
    out = put(out, pool->free_slots, (size_t)pool->free_count * sizeof(uint32_t));
    for (uint32_t slot = 0; slot < pool->slot_count; slot++) {
        if (!pool->items[slot]) continue;
        /* the broad-phase fields are derived: written as a restore leaves them, so equal states give equal bytes */
        snug_body_data b;
        memcpy(&b, pool->items[slot], sizeof b);
        b.proxy = SNUG_NONE;
        b.bp_dirty = false;
        out = put(out, &b, sizeof b);
    }
    put(out, s->ignore.list, (size_t)s->ignore.count * sizeof(uint64_t));
}

void snug_scene_state_discard(snug_ctx* ctx, snug_scene_staged* st) {
    for (uint32_t slot = 0; st->bodies.items && slot < st->bodies.slot_count; slot++) snug_free(ctx, st->bodies.items[slot]);
    snug_pool_release(ctx, &st->bodies);
    snug_pairset_free(ctx, &st->ignore);
    snug_free(ctx, st->dirty);
    memset(st, 0, sizeof *st);
}

static bool link_ok(uint32_t link, uint32_t slot_count, void* const* items) {
    return link == SNUG_NONE || (link < slot_count && items[link]);
}

/* Staging marks the free slots with the pool's own address while it fills the live ones; a refusal or a failed
 * allocation in between must clear the marks before discarding, or the discard frees them as bodies. */
static void unmark(snug_pool* pool) {
    for (uint32_t i = 0; pool->items && i < pool->free_count; i++)
        if (pool->free_slots[i] < pool->slot_count && pool->items[pool->free_slots[i]] == (void*)pool)
            pool->items[pool->free_slots[i]] = NULL;
}

snug_status snug_scene_state_stage(snug_ctx* ctx, const snug_scene_data* s, const unsigned char* in, size_t n,
                                   size_t* used, snug_scene_staged* st) {
    memset(st, 0, sizeof *st);
    state_header h;
    if (n < sizeof h) return snug_fail(ctx, SNUG_ERR_BLOB_TRUNCATED, "scene state: %zu bytes", n);
    memcpy(&h, in, sizeof h);
    if (h.slot_count > SNUG_HANDLE_MAX_SLOTS || h.free_count > h.slot_count || h.live > h.slot_count ||
        h.live + h.free_count != h.slot_count || h.salt != s->bodies.salt || h.ignore_count > (1u << 28))
        return snug_fail(ctx, SNUG_ERR_BLOB_CORRUPT, "scene state: the header does not describe this scene");
    size_t need = sizeof h + (size_t)h.slot_count * 2 + (size_t)h.free_count * 4 + (size_t)h.live * sizeof(snug_body_data) +
                  (size_t)h.ignore_count * 8;
    if (n < need) return snug_fail(ctx, SNUG_ERR_BLOB_TRUNCATED, "scene state: %zu of %zu bytes", n, need);
    const unsigned char* p = in + sizeof h;
    snug_pool* pool = &st->bodies;
    snug_pool_init(pool, SNUG_KIND_BODY, h.salt);
    pool->free_item = s->bodies.free_item;
    uint32_t cap = h.slot_count > 16 ? h.slot_count : 16;
    pool->items = snug_calloc(ctx, cap, sizeof *pool->items);
    pool->gens = snug_alloc(ctx, cap * sizeof *pool->gens);
    pool->free_slots = snug_alloc(ctx, cap * sizeof *pool->free_slots);
    st->dirty_cap = h.live > 64 ? h.live : 64;
    st->dirty = snug_alloc(ctx, (size_t)st->dirty_cap * sizeof *st->dirty);
    if (!pool->items || !pool->gens || !pool->free_slots || !st->dirty) goto oom;
    pool->capacity = cap;
    pool->slot_count = h.slot_count;
    pool->free_count = h.free_count;
    pool->live = h.live;
    memcpy(pool->gens, p, (size_t)h.slot_count * 2);
    p += (size_t)h.slot_count * 2;
    memcpy(pool->free_slots, p, (size_t)h.free_count * 4);
    p += (size_t)h.free_count * 4;
    /* the free slots and the live ones partition the slots */
    for (uint32_t i = 0; i < h.free_count; i++) {
        uint32_t f = pool->free_slots[i];
        if (f >= h.slot_count || pool->items[f]) goto corrupt;
        pool->items[f] = (void*)pool; /* a mark, cleared below */
    }
    for (uint32_t k = 0, slot = 0; k < h.live; k++, slot++) {
        while (slot < h.slot_count && pool->items[slot]) slot++;
        if (slot >= h.slot_count) goto corrupt;
        snug_body_data* b = snug_alloc(ctx, sizeof *b);
        if (!b) goto oom;
        memcpy(b, p, sizeof *b);
        p += sizeof *b;
        pool->items[slot] = b;
        if (b->slot != slot) goto corrupt;
        b->proxy = SNUG_NONE;
        b->bp_dirty = false;
    }
    for (uint32_t i = 0; i < h.free_count; i++) pool->items[pool->free_slots[i]] = NULL;
    for (uint32_t slot = 0; slot < h.slot_count; slot++) {
        snug_body_data* b = pool->items[slot];
        if (!b) continue;
        if (snug_pool_get(pool, b->handle) != b) goto corrupt;
        if (!snug_pool_get(&ctx->meshes, b->mesh)) {
            snug_body handle = b->handle;
            snug_scene_state_discard(ctx, st);
            return snug_fail(ctx, SNUG_ERR_STALE_HANDLE, "scene state: body 0x%08x uses a mesh that is gone", handle);
        }
        if (!link_ok(b->parent, h.slot_count, pool->items) || !link_ok(b->first_child, h.slot_count, pool->items) ||
            !link_ok(b->next_sibling, h.slot_count, pool->items) || !link_ok(b->prev_sibling, h.slot_count, pool->items))
            goto corrupt;
        unsigned char flags[2]; /* raw bytes: a bool holding anything but 0 or 1 is undefined to read as a bool */
        memcpy(&flags[0], &b->is_static, 1);
        memcpy(&flags[1], &b->enabled, 1);
        if (flags[0] > 1 || flags[1] > 1 || !snug_pose_ok(&b->local) || !snug_pose_ok(&b->world)) goto corrupt;
        /* the links agree: my parent lists me among its children, my siblings point back */
        if (b->parent != SNUG_NONE) {
            uint32_t c = ((snug_body_data*)pool->items[b->parent])->first_child, steps = 0;
            while (c != SNUG_NONE && c != slot && steps++ < h.slot_count) c = ((snug_body_data*)pool->items[c])->next_sibling;
            if (c != slot) goto corrupt;
        }
        if (b->next_sibling != SNUG_NONE && ((snug_body_data*)pool->items[b->next_sibling])->prev_sibling != slot)
            goto corrupt;
    }
    /* no cycle through the parents */
    for (uint32_t slot = 0; slot < h.slot_count; slot++) {
        uint32_t a = slot, steps = 0;
        while (pool->items[a] && ((snug_body_data*)pool->items[a])->parent != SNUG_NONE && steps++ <= h.slot_count)
            a = ((snug_body_data*)pool->items[a])->parent;
        if (steps > h.slot_count) goto corrupt;
    }
    if (!snug_pairset_reserve(ctx, &st->ignore, h.ignore_count + 1)) goto oom;
    for (uint32_t i = 0; i < h.ignore_count; i++) {
        uint64_t key;
        memcpy(&key, p, 8);
        p += 8;
        uint32_t lo = snug_pair_lo(key), hi = snug_pair_hi(key);
        if (lo >= h.slot_count || hi >= h.slot_count || !pool->items[lo] || !pool->items[hi] || lo >= hi) goto corrupt;
        if (!snug_pairset_insert(ctx, &st->ignore, key)) goto oom;
    }
    *used = (size_t)(p - in);
    return SNUG_OK;
oom:
    unmark(pool);
    snug_scene_state_discard(ctx, st);
    return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "scene state");
corrupt:
    unmark(pool);
    snug_scene_state_discard(ctx, st);
    return snug_fail(ctx, SNUG_ERR_BLOB_CORRUPT, "scene state: the body records are inconsistent");
}

void snug_scene_state_commit(snug_ctx* ctx, snug_scene_data* s, snug_scene_staged* st) {
    uint32_t cursor = 0;
    snug_body_data* b;
    while ((b = snug_pool_next(&s->bodies, &cursor))) snug_free(ctx, b);
    snug_pool_release(ctx, &s->bodies);
    s->bodies = st->bodies;
    snug_pairset_free(ctx, &s->ignore);
    s->ignore = st->ignore;
    snug_free(ctx, s->dirty);
    s->dirty = st->dirty;
    s->dirty_cap = st->dirty_cap;
    s->dirty_count = 0;
    /* the broad phase starts over: every body is inserted at the next sync */
    snug_bp_free(ctx, &s->bp);
    memset(&s->bp, 0, sizeof s->bp);
    s->pending_inserts = 0;
    cursor = 0;
    while ((b = snug_pool_next(&s->bodies, &cursor))) {
        b->proxy = SNUG_NONE;
        b->bp_dirty = false;
        snug_scene_mark_dirty(s, b);
        s->pending_inserts++;
    }
    s->step.motion_count = 0;
    s->step.detected = false;
    memset(st, 0, sizeof *st);
}
