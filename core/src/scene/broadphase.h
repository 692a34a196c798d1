/* Broad phase: incremental 3-axis sweep-and-prune (seed 000 ch. 6) over axis-aligned boxes, plus the hashed
 * pair set it keeps its overlapping pairs in (also used for a scene's ignore list).
 *
 * Per axis one sorted array of interval endpoints (LOWER before UPPER at equal values, so touching boxes
 * overlap). Moving a box insertion-sorts its endpoints from their old places; an endpoint crossing the opposite
 * end of another interval starts or ends that pair's overlap on this axis, and a starting overlap becomes a pair
 * when the boxes also overlap on the other two axes (stored coordinates, which keeps the set exact after each
 * axis). Removed proxies leave flagged dead endpoints behind until the next compaction, so proxy ids are only
 * reused after it. */
#ifndef SNUG_BROADPHASE_H
#define SNUG_BROADPHASE_H

#include <stdbool.h>
#include <stdint.h>
#include "base/ctx.h"

/* Set of unordered id pairs with O(1) insert/remove/lookup and a dense list for enumeration. */
typedef struct snug_pairset {
    uint64_t* keys;        /* open addressing, linear probing; SNUG_PAIR_EMPTY marks a free slot */
    uint32_t* where;       /* index of the key in list */
    uint32_t cap;          /* power of two */
    uint64_t* list;
    uint32_t count;
    uint32_t list_cap;
} snug_pairset;

#define SNUG_PAIR_EMPTY UINT64_MAX

static inline uint64_t snug_pair_key(uint32_t a, uint32_t b) {
    return a < b ? ((uint64_t)a << 32) | b : ((uint64_t)b << 32) | a;
}
static inline uint32_t snug_pair_lo(uint64_t key) { return (uint32_t)(key >> 32); }
static inline uint32_t snug_pair_hi(uint64_t key) { return (uint32_t)key; }

void snug_pairset_free(snug_ctx* ctx, snug_pairset* set);
void snug_pairset_clear(snug_pairset* set);
/* false only when memory ran out (the set is unchanged then). */
bool snug_pairset_insert(snug_ctx* ctx, snug_pairset* set, uint64_t key);
/* true when the key was there. */
bool snug_pairset_remove(snug_pairset* set, uint64_t key);
bool snug_pairset_contains(const snug_pairset* set, uint64_t key);
/* Room for `count` keys without growing (so later inserts cannot fail). */
bool snug_pairset_reserve(snug_ctx* ctx, snug_pairset* set, uint32_t count);

typedef struct snug_bp_endpoint {
    float value;
    uint32_t data;         /* proxy << 1 | 1 for an upper end */
} snug_bp_endpoint;

typedef struct snug_bp_proxy {
    float min[3], max[3];
    uint32_t user;         /* the owner's id for this proxy (a body slot) */
    bool live;
} snug_bp_proxy;

typedef struct snug_broadphase {
    snug_bp_endpoint* axis[3];
    uint32_t ep_count, ep_cap;
    snug_bp_proxy* proxies;
    uint32_t* where[3];               /* per axis, per endpoint (proxy << 1 | upper): its index in that axis array
                                         (apart from the proxies: the sort touches it on every swap) */
    uint32_t proxy_count, proxy_cap;  /* proxies used so far (live or dead) */
    uint32_t* free_ids;               /* proxy ids free for reuse (dead ones after compaction) */
    uint32_t free_count;
    uint32_t live, dead;              /* dead: removed proxies whose endpoints are still in the arrays */
    uint32_t unsorted;                /* bit k: axis k is out of order (left so by a batch sweep; positions valid) */
    bool needs_rebuild;               /* bulk insert, or a pair insert ran out of memory: rebuild before use */
    snug_pairset pairs;               /* overlapping proxy pairs */
    uint32_t* pair_count;             /* per proxy: its pairs in the set (0 lets a crossing skip the hash) */
    uint64_t swaps;                   /* endpoint swaps so far (statistics) */
} snug_broadphase;

void snug_bp_free(snug_ctx* ctx, snug_broadphase* bp);
/* New proxy for the box, sorted in incrementally (sort_now) or appended for a bulk rebuild (sets needs_rebuild);
 * *id receives its proxy id. */
snug_status snug_bp_insert(snug_ctx* ctx, snug_broadphase* bp, const float min[3], const float max[3],
                           uint32_t user, bool sort_now, uint32_t* id);
/* Drop a proxy and its pairs (endpoints stay as dead entries until compaction). */
void snug_bp_remove(snug_broadphase* bp, uint32_t id);
/* Move a proxy's box (insertion-sort update; only the stored box while needs_rebuild). */
void snug_bp_move(snug_ctx* ctx, snug_broadphase* bp, uint32_t id, const float min[3], const float max[3]);
/* Many moves at once: store each new box (new proxies may be appended unsorted, clearing needs_rebuild), then
 * re-sort axis 0 and rebuild the pair set by one sweep along it with y and z as a filter (cheaper than per-swap
 * pair updates on three axes when most boxes moved). Axes 1 and 2 are left unsorted until an incremental move
 * needs them (snug_bp_ensure_sorted). Out of memory leaves needs_rebuild set. */
void snug_bp_set_box(snug_broadphase* bp, uint32_t id, const float min[3], const float max[3]);
void snug_bp_resort(snug_ctx* ctx, snug_broadphase* bp);
/* Sort the axes a batch left unsorted. */
void snug_bp_ensure_sorted(snug_ctx* ctx, snug_broadphase* bp);
/* Full rebuild from the proxies' boxes: sort every axis and sweep once (also drops dead endpoints). */
snug_status snug_bp_rebuild(snug_ctx* ctx, snug_broadphase* bp);
/* Compact dead endpoints away when they are many, rebuild when needed. */
snug_status snug_bp_maintain(snug_ctx* ctx, snug_broadphase* bp);

static inline bool snug_box_overlap(const float amin[3], const float amax[3], const float bmin[3],
                                    const float bmax[3]) {
    return amin[0] <= bmax[0] && bmin[0] <= amax[0] && amin[1] <= bmax[1] && bmin[1] <= amax[1] &&
           amin[2] <= bmax[2] && bmin[2] <= amax[2];
}

#endif
