/* Incremental 3-axis sweep-and-prune and its pair set (see broadphase.h). */
#include "broadphase.h"

#include <cglm/cglm.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- pair set */

static uint32_t pair_hash(uint64_t key, uint32_t cap) {
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1u);
}

void snug_pairset_free(snug_ctx* ctx, snug_pairset* set) {
    snug_free(ctx, set->keys);
    snug_free(ctx, set->where);
    snug_free(ctx, set->list);
    memset(set, 0, sizeof *set);
}

void snug_pairset_clear(snug_pairset* set) {
    for (uint32_t i = 0; i < set->cap; i++) set->keys[i] = SNUG_PAIR_EMPTY;
    set->count = 0;
}

static uint32_t find_slot(const snug_pairset* set, uint64_t key) {
    uint32_t i = pair_hash(key, set->cap);
    while (set->keys[i] != key && set->keys[i] != SNUG_PAIR_EMPTY) i = (i + 1u) & (set->cap - 1u);
    return i;
}

bool snug_pairset_reserve(snug_ctx* ctx, snug_pairset* set, uint32_t count) {
    if (count > (1u << 29)) return false;
    if (count > set->list_cap) {
        uint32_t lc = set->list_cap ? set->list_cap : 64u;
        while (lc < count) lc *= 2u;
        uint64_t* list = snug_realloc(ctx, set->list, (size_t)lc * sizeof *list);
        if (!list) return false;
        set->list = list;
        set->list_cap = lc;
    }
    /* load factor at most 1/2 keeps linear probing short */
    uint32_t cap = set->cap ? set->cap : 128u;
    while (cap < 2u * count) cap *= 2u;
    if (cap == set->cap) return true;
    uint64_t* keys = snug_alloc(ctx, (size_t)cap * sizeof *keys);
    uint32_t* where = snug_alloc(ctx, (size_t)cap * sizeof *where);
    if (!keys || !where) {
        snug_free(ctx, keys);
        snug_free(ctx, where);
        return false;
    }
    snug_free(ctx, set->keys);
    snug_free(ctx, set->where);
    set->keys = keys;
    set->where = where;
    set->cap = cap;
    for (uint32_t i = 0; i < cap; i++) keys[i] = SNUG_PAIR_EMPTY;
    for (uint32_t k = 0; k < set->count; k++) {
        uint32_t s = find_slot(set, set->list[k]);
        keys[s] = set->list[k];
        where[s] = k;
    }
    return true;
}

bool snug_pairset_contains(const snug_pairset* set, uint64_t key) {
    return set->cap && set->keys[find_slot(set, key)] == key;
}

bool snug_pairset_insert(snug_ctx* ctx, snug_pairset* set, uint64_t key) {
    if (snug_pairset_contains(set, key)) return true;
    if (set->count + 1u > set->list_cap || 2u * (set->count + 1u) > set->cap) {
        if (!snug_pairset_reserve(ctx, set, set->count + 1u + set->count / 2u)) return false;
    }
    uint32_t s = find_slot(set, key);
    set->keys[s] = key;
    set->where[s] = set->count;
    set->list[set->count++] = key;
    return true;
}

void snug_pairset_remove(snug_pairset* set, uint64_t key) {
    if (!set->cap) return;
    uint32_t mask = set->cap - 1u;
    uint32_t i = find_slot(set, key);
    if (set->keys[i] != key) return;
    /* swap-remove from the dense list, fixing the moved key's back index */
    uint32_t k = set->where[i];
    uint64_t last = set->list[--set->count];
    if (k != set->count) {
        set->list[k] = last;
        set->where[find_slot(set, last)] = k;
    }
    /* backward-shift deletion keeps every probe chain unbroken without tombstones */
    uint32_t hole = i;
    for (uint32_t j = (hole + 1u) & mask; set->keys[j] != SNUG_PAIR_EMPTY; j = (j + 1u) & mask) {
        uint32_t home = pair_hash(set->keys[j], set->cap);
        /* move j into the hole unless its home lies cyclically in (hole, j] */
        bool stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!stays) {
            set->keys[hole] = set->keys[j];
            set->where[hole] = set->where[j];
            hole = j;
        }
    }
    set->keys[hole] = SNUG_PAIR_EMPTY;
}

/* ---------------------------------------------------------------- sweep and prune */

#define EP_PROXY(d) ((d) >> 1)
#define EP_UPPER(d) ((d) & 1u)

/* Endpoint order: by value, LOWER before UPPER at equal values (touching intervals overlap). */
static inline bool ep_less(snug_bp_endpoint a, snug_bp_endpoint b) {
    return a.value < b.value || (a.value == b.value && !EP_UPPER(a.data) && EP_UPPER(b.data));
}

void snug_bp_free(snug_ctx* ctx, snug_broadphase* bp) {
    for (int k = 0; k < 3; k++) snug_free(ctx, bp->axis[k]);
    snug_free(ctx, bp->proxies);
    snug_free(ctx, bp->free_ids);
    snug_pairset_free(ctx, &bp->pairs);
    memset(bp, 0, sizeof *bp);
}

/* Do proxies p and q overlap on the two axes other than k? */
static inline bool overlap_other(const snug_bp_proxy* p, const snug_bp_proxy* q, int k) {
    int a = (k + 1) % 3, b = (k + 2) % 3;
    return p->min[a] <= q->max[a] && q->min[a] <= p->max[a] && p->min[b] <= q->max[b] && q->min[b] <= p->max[b];
}

static void begin_overlap(snug_ctx* ctx, snug_broadphase* bp, uint32_t p, uint32_t q, int k) {
    if (!bp->proxies[q].live || !overlap_other(&bp->proxies[p], &bp->proxies[q], k)) return;
    if (!snug_pairset_insert(ctx, &bp->pairs, snug_pair_key(p, q))) bp->needs_rebuild = true;
}

static void end_overlap(snug_broadphase* bp, uint32_t p, uint32_t q, int k) {
    /* a pair exists only if the boxes also overlap on the other two axes: most crossings skip the hash */
    if (bp->proxies[q].live && overlap_other(&bp->proxies[p], &bp->proxies[q], k))
        snug_pairset_remove(&bp->pairs, snug_pair_key(p, q));
}

/* Insertion-sort one endpoint of proxy p on axis k to value v (seed 000 Figs. 6.7 and 6.8). */
static void move_endpoint(snug_ctx* ctx, snug_broadphase* bp, uint32_t p, int k, uint32_t upper, float v) {
    snug_bp_endpoint* E = bp->axis[k];
    uint32_t i = bp->proxies[p].ep[k][upper];
    snug_bp_endpoint e = E[i];
    e.value = v;
    uint64_t swaps = 0;
    while (i > 0 && ep_less(e, E[i - 1])) {
        snug_bp_endpoint n = E[i - 1];
        uint32_t q = EP_PROXY(n.data);
        /* a lower end passing an upper end leftwards starts an overlap; an upper passing a lower ends one */
        if (q != p && EP_UPPER(n.data) != upper) {
            if (upper) end_overlap(bp, p, q, k);
            else begin_overlap(ctx, bp, p, q, k);
        }
        E[i] = n;
        bp->proxies[q].ep[k][EP_UPPER(n.data)] = i;
        i--;
        swaps++;
    }
    while (i + 1 < bp->ep_count && ep_less(E[i + 1], e)) {
        snug_bp_endpoint n = E[i + 1];
        uint32_t q = EP_PROXY(n.data);
        if (q != p && EP_UPPER(n.data) != upper) {
            if (upper) begin_overlap(ctx, bp, p, q, k);
            else end_overlap(bp, p, q, k);
        }
        E[i] = n;
        bp->proxies[q].ep[k][EP_UPPER(n.data)] = i;
        i++;
        swaps++;
    }
    E[i] = e;
    bp->proxies[p].ep[k][upper] = i;
    bp->swaps += swaps;
}

void snug_bp_move(snug_ctx* ctx, snug_broadphase* bp, uint32_t id, const float min[3], const float max[3]) {
    snug_bp_proxy* P = &bp->proxies[id];
    if (bp->needs_rebuild) {
        glm_vec3_copy((float*)min, P->min);
        glm_vec3_copy((float*)max, P->max);
        return;
    }
    for (int k = 0; k < 3; k++) {
        /* order of Fig. 6.6: an interval never passes its own partner, so lower <= upper at every moment */
        if (max[k] < P->min[k]) {
            P->min[k] = min[k];
            move_endpoint(ctx, bp, id, k, 0, min[k]);
            P->max[k] = max[k];
            move_endpoint(ctx, bp, id, k, 1, max[k]);
        } else {
            P->max[k] = max[k];
            move_endpoint(ctx, bp, id, k, 1, max[k]);
            P->min[k] = min[k];
            move_endpoint(ctx, bp, id, k, 0, min[k]);
        }
    }
}

void snug_bp_set_box(snug_broadphase* bp, uint32_t id, const float min[3], const float max[3]) {
    snug_bp_proxy* P = &bp->proxies[id];
    for (int k = 0; k < 3; k++) {
        P->min[k] = min[k];
        P->max[k] = max[k];
        bp->axis[k][P->ep[k][0]].value = min[k];
        bp->axis[k][P->ep[k][1]].value = max[k];
    }
}

void snug_bp_resort(snug_ctx* ctx, snug_broadphase* bp) {
    /* Every box already holds its final values on all axes. A pair whose endpoints swap starts or ends an
     * overlap on that axis; its last swap decides: a start adds the pair if the final boxes overlap, an end
     * removes it (its axis cannot overlap any more). Pairs without swaps keep their status. */
    for (int k = 0; k < 3; k++) {
        snug_bp_endpoint* E = bp->axis[k];
        uint64_t swaps = 0;
        for (uint32_t i = 1; i < bp->ep_count; i++) {
            snug_bp_endpoint e = E[i];
            if (!ep_less(e, E[i - 1])) continue;
            uint32_t p = EP_PROXY(e.data), j = i;
            bool live = bp->proxies[p].live;
            do {
                snug_bp_endpoint n = E[j - 1];
                uint32_t q = EP_PROXY(n.data);
                if (live && q != p && EP_UPPER(n.data) != EP_UPPER(e.data) && bp->proxies[q].live) {
                    if (EP_UPPER(e.data)) {
                        snug_pairset_remove(&bp->pairs, snug_pair_key(p, q));
                    } else {
                        const snug_bp_proxy *P = &bp->proxies[p], *Q = &bp->proxies[q];
                        if (snug_box_overlap(P->min, P->max, Q->min, Q->max) &&
                            !snug_pairset_insert(ctx, &bp->pairs, snug_pair_key(p, q)))
                            bp->needs_rebuild = true;
                    }
                }
                E[j] = n;
                bp->proxies[q].ep[k][EP_UPPER(n.data)] = j;
                j--;
                swaps++;
            } while (j > 0 && ep_less(e, E[j - 1]));
            E[j] = e;
            bp->proxies[p].ep[k][EP_UPPER(e.data)] = j;
        }
        bp->swaps += swaps;
    }
}

static bool grow_endpoints(snug_ctx* ctx, snug_broadphase* bp, uint32_t need) {
    if (need <= bp->ep_cap) return true;
    uint32_t cap = bp->ep_cap ? bp->ep_cap : 64u;
    while (cap < need) cap *= 2u;
    for (int k = 0; k < 3; k++) {
        snug_bp_endpoint* a = snug_realloc(ctx, bp->axis[k], (size_t)cap * sizeof *a);
        if (!a) return false; /* arrays already grown stay larger: harmless */
        bp->axis[k] = a;
    }
    bp->ep_cap = cap;
    return true;
}

snug_status snug_bp_insert(snug_ctx* ctx, snug_broadphase* bp, const float min[3], const float max[3],
                           uint32_t user, bool sort_now, uint32_t* id) {
    if (!grow_endpoints(ctx, bp, bp->ep_count + 2u)) return SNUG_ERR_OUT_OF_MEMORY;
    uint32_t p;
    if (bp->free_count) {
        p = bp->free_ids[--bp->free_count];
    } else {
        if (bp->proxy_count == bp->proxy_cap) {
            uint32_t cap = bp->proxy_cap ? bp->proxy_cap * 2u : 64u;
            snug_bp_proxy* px = snug_realloc(ctx, bp->proxies, (size_t)cap * sizeof *px);
            if (!px) return SNUG_ERR_OUT_OF_MEMORY;
            bp->proxies = px;
            uint32_t* fr = snug_realloc(ctx, bp->free_ids, (size_t)cap * sizeof *fr);
            if (!fr) return SNUG_ERR_OUT_OF_MEMORY;
            bp->free_ids = fr;
            bp->proxy_cap = cap;
        }
        p = bp->proxy_count++;
    }
    snug_bp_proxy* P = &bp->proxies[p];
    P->live = true;
    P->user = user;
    /* enter at +infinity behind everything (overlapping nothing), then sort in like a move */
    for (int k = 0; k < 3; k++) {
        P->min[k] = P->max[k] = INFINITY;
        bp->axis[k][bp->ep_count] = (snug_bp_endpoint){INFINITY, p << 1};
        bp->axis[k][bp->ep_count + 1] = (snug_bp_endpoint){INFINITY, (p << 1) | 1u};
        P->ep[k][0] = bp->ep_count;
        P->ep[k][1] = bp->ep_count + 1;
    }
    bp->ep_count += 2;
    bp->live++;
    *id = p;
    if (sort_now) {
        snug_bp_move(ctx, bp, p, min, max);
    } else {
        snug_bp_set_box(bp, p, min, max);
        bp->needs_rebuild = true;
    }
    return SNUG_OK; /* a failed pair insert leaves needs_rebuild: the next sync rebuilds */
}

void snug_bp_remove(snug_broadphase* bp, uint32_t id) {
    snug_bp_proxy* P = &bp->proxies[id];
    if (!P->live) return;
    for (uint32_t k = 0; k < bp->pairs.count;) {
        uint64_t key = bp->pairs.list[k];
        if (snug_pair_lo(key) == id || snug_pair_hi(key) == id) snug_pairset_remove(&bp->pairs, key);
        else k++;
    }
    P->live = false;
    bp->live--;
    bp->dead++;
}

/* Drop dead endpoints, renumber positions, free the dead ids for reuse. */
static void compact(snug_broadphase* bp) {
    for (int k = 0; k < 3; k++) {
        snug_bp_endpoint* E = bp->axis[k];
        uint32_t n = 0;
        for (uint32_t i = 0; i < bp->ep_count; i++) {
            uint32_t q = EP_PROXY(E[i].data);
            if (!bp->proxies[q].live) continue;
            E[n] = E[i];
            bp->proxies[q].ep[k][EP_UPPER(E[i].data)] = n;
            n++;
        }
    }
    bp->ep_count = 2u * bp->live;
    bp->free_count = 0;
    for (uint32_t p = 0; p < bp->proxy_count; p++)
        if (!bp->proxies[p].live) bp->free_ids[bp->free_count++] = p;
    bp->dead = 0;
}

static int ep_compare(const void* a, const void* b) {
    snug_bp_endpoint x = *(const snug_bp_endpoint*)a, y = *(const snug_bp_endpoint*)b;
    return ep_less(x, y) ? -1 : ep_less(y, x) ? 1 : 0;
}

snug_status snug_bp_rebuild(snug_ctx* ctx, snug_broadphase* bp) {
    compact(bp);
    for (int k = 0; k < 3; k++) {
        snug_bp_endpoint* E = bp->axis[k];
        uint32_t n = 0;
        for (uint32_t p = 0; p < bp->proxy_count; p++) {
            if (!bp->proxies[p].live) continue;
            E[n++] = (snug_bp_endpoint){bp->proxies[p].min[k], p << 1};
            E[n++] = (snug_bp_endpoint){bp->proxies[p].max[k], (p << 1) | 1u};
        }
        if (n) qsort(E, n, sizeof *E, ep_compare);
        for (uint32_t i = 0; i < n; i++) bp->proxies[EP_PROXY(E[i].data)].ep[k][EP_UPPER(E[i].data)] = i;
    }
    /* one sweep along x (Fig. 6.4) with the y/z test, keeping the open intervals in the scratch arena */
    snug_pairset_clear(&bp->pairs);
    bp->needs_rebuild = false;
    if (!bp->live) return SNUG_OK;
    if (snug_scratch_reserve(ctx, (size_t)bp->proxy_count * 2u * sizeof(uint32_t)) != SNUG_OK) {
        bp->needs_rebuild = true;
        return SNUG_ERR_OUT_OF_MEMORY;
    }
    uint32_t* open = (uint32_t*)ctx->scratch.data;
    uint32_t* slot = open + bp->proxy_count;
    uint32_t open_count = 0;
    for (uint32_t i = 0; i < bp->ep_count; i++) {
        snug_bp_endpoint e = bp->axis[0][i];
        uint32_t p = EP_PROXY(e.data);
        if (EP_UPPER(e.data)) {
            uint32_t s = slot[p], last = open[--open_count];
            open[s] = last;
            slot[last] = s;
            continue;
        }
        for (uint32_t j = 0; j < open_count; j++) {
            if (!overlap_other(&bp->proxies[p], &bp->proxies[open[j]], 0)) continue;
            if (!snug_pairset_insert(ctx, &bp->pairs, snug_pair_key(p, open[j]))) {
                bp->needs_rebuild = true;
                return SNUG_ERR_OUT_OF_MEMORY;
            }
        }
        slot[p] = open_count;
        open[open_count++] = p;
    }
    return SNUG_OK;
}

snug_status snug_bp_maintain(snug_ctx* ctx, snug_broadphase* bp) {
    if (bp->needs_rebuild) return snug_bp_rebuild(ctx, bp);
    if (bp->dead > 16u && bp->dead > bp->live / 2u) compact(bp);
    return SNUG_OK;
}
