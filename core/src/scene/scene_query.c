/* Scene queries over the broad phase: overlapping body pairs and bodies in a box. */
#include "scene/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

snug_status snug_scene_pairs(snug_ctx* ctx, snug_scene scene, snug_body_pair* pairs, uint32_t capacity,
                                   uint32_t* total) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!total || (capacity && !pairs)) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "scene_pairs needs outputs");
    snug_status st = snug_scene_sync(ctx, s);
    if (st) return st;
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->bp.pairs.count; k++) {
        uint64_t key = s->bp.pairs.list[k];
        snug_body_data* a = snug_body_at(s, s->bp.proxies[snug_pair_lo(key)].user);
        snug_body_data* b = snug_body_at(s, s->bp.proxies[snug_pair_hi(key)].user);
        if (!snug_scene_pair_passes(s, a, b)) continue;
        if (n < capacity) pairs[n] = (snug_body_pair){a->handle, b->handle};
        n++;
    }
    *total = n;
    if (n > capacity) return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "%u pairs, capacity %u", n, capacity);
    return snug_succeed(ctx);
}

static bool finite3(const float* v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

snug_status snug_scene_overlap_box(snug_ctx* ctx, snug_scene scene, const float min[3], const float max[3],
                                 snug_body* bodies, uint32_t capacity, uint32_t* total) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!min || !max || !total || (capacity && !bodies))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "scene_overlap_box needs a box and outputs");
    if (!finite3(min) || !finite3(max)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "box has NaN or Inf");
    snug_status st = snug_scene_sync(ctx, s);
    if (st) return st;
    /* one pass over the proxies' boxes: cheaper than any structure for a single box */
    uint32_t n = 0;
    for (uint32_t p = 0; p < s->bp.proxy_count; p++) {
        const snug_bp_proxy* P = &s->bp.proxies[p];
        if (!P->live || !snug_box_overlap(P->min, P->max, min, max)) continue;
        const snug_body_data* b = snug_body_at(s, P->user);
        if (!b->enabled) continue;
        if (n < capacity) bodies[n] = b->handle;
        n++;
    }
    *total = n;
    if (n > capacity) return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "%u bodies, capacity %u", n, capacity);
    return snug_succeed(ctx);
}
