/* Labels and their partial order (IConS §3.2.3): a binding labelled b may rest on an offer labelled o when
 * b <= o. The order is kept as its reflexive, transitive closure, one bit row per label, so the test in the
 * snap search's inner loop is a shift and a mask. */
#include <string.h>

#include "place/place.h"

static const char* const default_names[SNUG_LABEL_DEFAULT_COUNT] = {
    "onFloor", "onWall", "onWorkspace", "onStore", "onSeat", "onCeiling", "inFrontOfTable"};

/* Close rows under transitivity (Warshall); false when two distinct labels end up <= each other. */
static bool close_order(uint64_t* fits, uint32_t count) {
    for (uint32_t k = 0; k < count; k++)
        for (uint32_t i = 0; i < count; i++)
            if ((fits[i] >> k) & 1u) fits[i] |= fits[k];
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t j = i + 1; j < count; j++)
            if (((fits[i] >> j) & 1u) && ((fits[j] >> i) & 1u)) return false;
    return true;
}

void snug_labels_default(snug_place_scene* ps) {
    ps->label_count = SNUG_LABEL_DEFAULT_COUNT;
    memset(ps->names, 0, sizeof ps->names);
    for (uint32_t i = 0; i < SNUG_LABEL_DEFAULT_COUNT; i++) {
        strcpy(ps->names[i], default_names[i]);
        ps->fits[i] = 1ull << i;
    }
    ps->fits[SNUG_LABEL_ON_STORE] |= 1ull << SNUG_LABEL_ON_WORKSPACE;
    ps->fits[SNUG_LABEL_ON_STORE] |= 1ull << SNUG_LABEL_ON_SEAT;
    close_order(ps->fits, ps->label_count);
}

snug_status snug_scene_set_labels(snug_ctx* ctx, snug_scene scene, const char* const* names, uint32_t count,
                                  const uint32_t* order_pairs, uint32_t pair_count) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (count == 0 || count > SNUG_LABEL_MAX || !names || (pair_count && !order_pairs))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "set_labels needs 1..%u names and the pairs", SNUG_LABEL_MAX);
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    uint64_t fits[SNUG_LABEL_MAX];
    for (uint32_t i = 0; i < count; i++) {
        if (!names[i]) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "label %u has no name", i);
        size_t len = strlen(names[i]);
        if (len == 0 || len >= SNUG_LABEL_NAME_MAX)
            return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "label %u: a name of 1..%u bytes", i,
                             SNUG_LABEL_NAME_MAX - 1);
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(names[i], names[j]))
                return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "labels %u and %u are both \"%s\"", j, i, names[i]);
        fits[i] = 1ull << i;
    }
    for (uint32_t k = 0; k < pair_count; k++) {
        uint32_t lo = order_pairs[2 * k], hi = order_pairs[2 * k + 1];
        if (lo >= count || hi >= count)
            return snug_fail(ctx, SNUG_ERR_INDEX_RANGE, "order pair %u names label %u of %u", k, lo >= count ? lo : hi,
                             count);
        fits[lo] |= 1ull << hi;
    }
    if (!close_order(fits, count))
        return snug_fail(ctx, SNUG_ERR_CYCLE, "the label order has a cycle: two labels would each be <= the other");
    ps->label_count = count;
    memset(ps->names, 0, sizeof ps->names);
    for (uint32_t i = 0; i < count; i++) {
        strcpy(ps->names[i], names[i]);
        ps->fits[i] = fits[i];
    }
    return snug_succeed(ctx);
}

snug_status snug_scene_get_label_count(snug_ctx* ctx, snug_scene scene, uint32_t* count) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!count) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "get_label_count needs an output");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    *count = ps->label_count;
    return snug_succeed(ctx);
}

snug_status snug_scene_get_label_name(snug_ctx* ctx, snug_scene scene, snug_label label, char* name) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!name) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "get_label_name needs an output");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    if (label >= ps->label_count)
        return snug_fail(ctx, SNUG_ERR_INDEX_RANGE, "label %u of %u", label, ps->label_count);
    memcpy(name, ps->names[label], SNUG_LABEL_NAME_MAX);
    return snug_succeed(ctx);
}

snug_status snug_scene_find_label(snug_ctx* ctx, snug_scene scene, const char* name, snug_label* out) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!name || !out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "find_label needs a name and an output");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < ps->label_count; i++)
        if (!strcmp(ps->names[i], name)) {
            *out = i;
            return snug_succeed(ctx);
        }
    return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "no label \"%s\" in this scene", name);
}

snug_status snug_scene_label_fits(snug_ctx* ctx, snug_scene scene, snug_label binding, snug_label offer,
                                  bool* fits) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!fits) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "label_fits needs an output");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    if (binding >= ps->label_count || offer >= ps->label_count)
        return snug_fail(ctx, SNUG_ERR_INDEX_RANGE, "label %u of %u", binding >= ps->label_count ? binding : offer,
                         ps->label_count);
    *fits = snug_label_fits(ps, binding, offer);
    return snug_succeed(ctx);
}
