/* Snapshots for undo: a scene's bodies (scene/scene_state.c) and its placement state (settings, labels, binding
 * records and orientation constraints) as bytes of this process, and back bit for bit. A header names the scene and
 * carries a checksum, so a buffer that is not a snapshot of this scene, or was damaged, is refused; restoring stages
 * everything first and swaps it in only when all of it checked out. */
#include <string.h>

#include "base/fnv.h"
#include "place/place.h"

#define SNAPSHOT_MAGIC 0x50414e53474e5553ull /* "SNUGSNAP" */
#define SNAPSHOT_VERSION 1u

typedef struct snapshot_header {
    uint64_t magic;
    uint32_t version, scene;
    uint64_t size, checksum;           /* size of everything; FNV-1a 64 of the bytes after the header */
} snapshot_header;

typedef struct place_header {
    snug_place_def def;
    uint32_t label_count, record_count;
    char names[SNUG_LABEL_MAX][SNUG_LABEL_NAME_MAX];
    uint64_t fits[SNUG_LABEL_MAX];
} place_header;

typedef struct place_record {
    uint32_t slot;
    snug_place_body body;
} place_record;

static uint32_t record_count(const snug_scene_data* s, snug_place_scene* ps) {
    uint32_t n = 0;
    for (uint32_t slot = 0; slot < ps->body_cap; slot++) n += snug_place_body_at(ps, s, slot) != NULL;
    return n;
}

snug_status snug_scene_snapshot(snug_ctx* ctx, snug_scene scene, void* buffer, size_t capacity, size_t* size) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!size) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "scene_snapshot needs a size output");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    uint32_t records = record_count(s, ps);
    size_t n = sizeof(snapshot_header) + snug_scene_state_size(s) + sizeof(place_header) + records * sizeof(place_record);
    *size = n;
    if (!buffer) return snug_succeed(ctx);
    if (capacity < n) return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "snapshot of %zu bytes, capacity %zu", n, capacity);
    unsigned char* out = buffer;
    memset(out, 0, n); /* padding bytes too: equal states give equal snapshots */
    unsigned char* p = out + sizeof(snapshot_header);
    snug_scene_state_write(s, p);
    p += snug_scene_state_size(s);
    place_header ph;
    memset(&ph, 0, sizeof ph);
    ph.def = ps->def;
    ph.label_count = ps->label_count;
    ph.record_count = records;
    memcpy(ph.names, ps->names, sizeof ph.names);
    memcpy(ph.fits, ps->fits, sizeof ph.fits);
    memcpy(p, &ph, sizeof ph);
    p += sizeof ph;
    for (uint32_t slot = 0; slot < ps->body_cap; slot++) {
        snug_place_body* r = snug_place_body_at(ps, s, slot);
        if (!r) continue;
        place_record pr;
        memset(&pr, 0, sizeof pr);
        pr.slot = slot;
        pr.body = *r;
        memcpy(p, &pr, sizeof pr);
        p += sizeof pr;
    }
    snapshot_header h = {SNAPSHOT_MAGIC, SNAPSHOT_VERSION, s->handle, n, 0};
    h.checksum = snug_fnv1a64(out + sizeof h, n - sizeof h);
    memcpy(out, &h, sizeof h);
    return snug_succeed(ctx);
}

snug_status snug_scene_restore(snug_ctx* ctx, snug_scene scene, const void* snapshot, size_t size) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!snapshot) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "scene_restore: snapshot is NULL");
    const unsigned char* in = snapshot;
    snapshot_header h;
    if (size < sizeof h) return snug_fail(ctx, SNUG_ERR_BLOB_TRUNCATED, "snapshot of %zu bytes", size);
    memcpy(&h, in, sizeof h);
    if (h.magic != SNAPSHOT_MAGIC) return snug_fail(ctx, SNUG_ERR_BLOB_FOREIGN, "not a snug snapshot");
    if (h.version != SNAPSHOT_VERSION) return snug_fail(ctx, SNUG_ERR_BLOB_VERSION, "snapshot version %u", h.version);
    if (h.scene != s->handle)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "a snapshot of scene 0x%08x, not of 0x%08x", h.scene, s->handle);
    if (h.size != size) return snug_fail(ctx, SNUG_ERR_BLOB_TRUNCATED, "snapshot of %zu bytes, %zu given", (size_t)h.size, size);
    if (snug_fnv1a64(in + sizeof h, size - sizeof h) != h.checksum)
        return snug_fail(ctx, SNUG_ERR_BLOB_CORRUPT, "snapshot checksum mismatch");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_scene_staged staged;
    size_t used = 0;
    snug_status st = snug_scene_state_stage(ctx, s, in + sizeof h, size - sizeof h, &used, &staged);
    if (st) return st;
    const unsigned char* p = in + sizeof h + used;
    size_t left = size - sizeof h - used;
    place_header ph;
    snug_place_body* bodies = NULL;
    if (left < sizeof ph) goto truncated;
    memcpy(&ph, p, sizeof ph);
    p += sizeof ph;
    left -= sizeof ph;
    if (ph.def.internal_value != SNUG_DEF_MARK || ph.label_count == 0 || ph.label_count > SNUG_LABEL_MAX ||
        ph.record_count > staged.bodies.live)
        goto corrupt;
    for (uint32_t i = 0; i < ph.label_count; i++)
        if (!memchr(ph.names[i], 0, SNUG_LABEL_NAME_MAX)) goto corrupt;
    if (left != (size_t)ph.record_count * sizeof(place_record)) goto truncated;
    uint32_t cap = staged.bodies.slot_count > 64 ? staged.bodies.slot_count : 64;
    bodies = snug_calloc(ctx, cap, sizeof *bodies);
    if (!bodies) {
        snug_scene_state_discard(ctx, &staged);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "placement records");
    }
    for (uint32_t i = 0; i < ph.record_count; i++) {
        place_record pr;
        memcpy(&pr, p, sizeof pr);
        p += sizeof pr;
        snug_body_data* b = pr.slot < staged.bodies.slot_count ? staged.bodies.items[pr.slot] : NULL;
        if (!b || b->handle != pr.body.handle || pr.body.binding_count > SNUG_BINDINGS_MAX) goto corrupt;
        for (uint32_t j = 0; j < pr.body.binding_count; j++)
            if (pr.body.bindings[j].body != b->handle || !snug_pool_get(&staged.bodies, pr.body.bindings[j].supporter))
                goto corrupt;
        bodies[pr.slot] = pr.body;
    }
    /* everything checked out: swap in */
    snug_scene_state_commit(ctx, s, &staged);
    snug_free(ctx, ps->bodies);
    ps->bodies = bodies;
    ps->body_cap = cap;
    ps->def = ph.def;
    ps->label_count = ph.label_count;
    memcpy(ps->names, ph.names, sizeof ps->names);
    memcpy(ps->fits, ph.fits, sizeof ps->fits);
    return snug_succeed(ctx);
truncated:
    snug_free(ctx, bodies);
    snug_scene_state_discard(ctx, &staged);
    return snug_fail(ctx, SNUG_ERR_BLOB_TRUNCATED, "snapshot: the placement part is cut short");
corrupt:
    snug_free(ctx, bodies);
    snug_scene_state_discard(ctx, &staged);
    return snug_fail(ctx, SNUG_ERR_BLOB_CORRUPT, "snapshot: the placement part is inconsistent");
}
