/* Incremental 3-axis sweep-and-prune and its pair set (see broadphase.h). */
#include "scene/broadphase.h"

#include <cglm/cglm.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/simd.h"

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
    if (set->cap) memset(set->keys, 0xff, (size_t)set->cap * sizeof *set->keys); /* SNUG_PAIR_EMPTY */
    set->count = 0;
}

static uint32_t find_slot(const snug_pairset* set, uint64_t key) {
    uint32_t i = pair_hash(key, set->cap);
    while (set->keys[i] != key && set->keys[i] != SNUG_PAIR_EMPTY) i = (i + 1u) & (set->cap - 1u);
    return i;
}

bool snug_pairset_reserve(snug_ctx* ctx, snug_pairset* set, uint32_t count) {
    if (count > (1u << 29)) return false;
    uint32_t lc = set->list_cap;
    if (count > lc) {
        lc = lc ? lc : 64u;
        while (lc < count) lc *= 2u;
    }
    /* load factor at most 1/2 keeps linear probing short */
    uint32_t cap = set->cap ? set->cap : 128u;
    while (cap < 2u * count) cap *= 2u;
    /* every new block first, so that a failure leaves the set and its memory as they were */
    uint64_t* list = lc != set->list_cap ? snug_alloc(ctx, (size_t)lc * sizeof *list) : NULL;
    uint64_t* keys = cap != set->cap ? snug_alloc(ctx, (size_t)cap * sizeof *keys) : NULL;
    uint32_t* where = cap != set->cap ? snug_alloc(ctx, (size_t)cap * sizeof *where) : NULL;
    if ((lc != set->list_cap && !list) || (cap != set->cap && (!keys || !where))) {
        snug_free(ctx, list);
        snug_free(ctx, keys);
        snug_free(ctx, where);
        return false;
    }
    if (list) {
        if (set->count) memcpy(list, set->list, (size_t)set->count * sizeof *list);
        snug_free(ctx, set->list);
        set->list = list;
        set->list_cap = lc;
    }
    if (!keys) return true;
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

/* Add a key known to be absent, with room reserved. */
static void pairset_append(snug_pairset* set, uint64_t key) {
    uint32_t s = find_slot(set, key);
    set->keys[s] = key;
    set->where[s] = set->count;
    set->list[set->count++] = key;
}

bool snug_pairset_contains(const snug_pairset* set, uint64_t key) {
    return set->cap && set->keys[find_slot(set, key)] == key;
}

bool snug_pairset_insert(snug_ctx* ctx, snug_pairset* set, uint64_t key) {
    if (snug_pairset_contains(set, key)) return true;
    if (set->count + 1u > set->list_cap || 2u * (set->count + 1u) > set->cap) {
        if (!snug_pairset_reserve(ctx, set, set->count + 1u + set->count / 2u)) return false;
    }
    pairset_append(set, key);
    return true;
}

bool snug_pairset_remove(snug_pairset* set, uint64_t key) {
    if (!set->cap) return false;
    uint32_t mask = set->cap - 1u;
    uint32_t i = find_slot(set, key);
    if (set->keys[i] != key) return false;
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
    return true;
}

/* ---------------------------------------------------------------- sweep and prune */

/* Endpoint data: proxy << 1 | upper, plus a flag on the endpoints of removed proxies, so the sort can skip
 * them without touching the proxy array (a cache miss per swap otherwise). */
#define EP_DEAD 0x80000000u
#define EP_KEY(d) ((d) & ~EP_DEAD)
#define EP_PROXY(d) (EP_KEY(d) >> 1)
#define EP_UPPER(d) ((d) & 1u)

/* Endpoint order: by value, LOWER before UPPER at equal values (touching intervals overlap). */
static inline bool ep_less(snug_bp_endpoint a, snug_bp_endpoint b) {
    return a.value < b.value || (a.value == b.value && !EP_UPPER(a.data) && EP_UPPER(b.data));
}

void snug_bp_free(snug_ctx* ctx, snug_broadphase* bp) {
    for (int k = 0; k < 3; k++) {
        snug_free(ctx, bp->axis[k]);
        snug_free(ctx, bp->where[k]);
    }
    snug_free(ctx, bp->proxies);
    snug_free(ctx, bp->pair_count);
    snug_free(ctx, bp->free_ids);
    snug_pairset_free(ctx, &bp->pairs);
    memset(bp, 0, sizeof *bp);
}

/* Do proxies p and q overlap on the two axes other than k? */
static inline bool overlap_other(const snug_bp_proxy* p, const snug_bp_proxy* q, int k) {
    int a = (k + 1) % 3, b = (k + 2) % 3;
    return p->min[a] <= q->max[a] && q->min[a] <= p->max[a] && p->min[b] <= q->max[b] && q->min[b] <= p->max[b];
}

static void add_pair(snug_ctx* ctx, snug_broadphase* bp, uint32_t p, uint32_t q) {
    uint64_t key = snug_pair_key(p, q);
    if (snug_pairset_contains(&bp->pairs, key)) return;
    if (!snug_pairset_insert(ctx, &bp->pairs, key)) {
        bp->needs_rebuild = true;
        return;
    }
    bp->pair_count[p]++;
    bp->pair_count[q]++;
}

static void drop_pair(snug_broadphase* bp, uint32_t p, uint32_t q) {
    /* most proxies have no pair at all: skip the hash for them */
    if (!bp->pair_count[p] || !bp->pair_count[q]) return;
    if (!snug_pairset_remove(&bp->pairs, snug_pair_key(p, q))) return;
    bp->pair_count[p]--;
    bp->pair_count[q]--;
}

static void begin_overlap(snug_ctx* ctx, snug_broadphase* bp, uint32_t p, uint32_t q, int k) {
    if (overlap_other(&bp->proxies[p], &bp->proxies[q], k)) add_pair(ctx, bp, p, q);
}

/* Insertion-sort one endpoint of proxy p on axis k to value v (seed 000 Figs. 6.7 and 6.8). */
static void move_endpoint(snug_ctx* ctx, snug_broadphase* bp, uint32_t p, int k, uint32_t upper, float v) {
    snug_bp_endpoint* E = bp->axis[k];
    uint32_t i = bp->where[k][(p << 1) | upper];
    snug_bp_endpoint e = E[i];
    e.value = v;
    uint64_t swaps = 0;
    while (i > 0 && ep_less(e, E[i - 1])) {
        snug_bp_endpoint n = E[i - 1];
        uint32_t q = EP_PROXY(n.data);
        /* a lower end passing an upper end leftwards starts an overlap; an upper passing a lower ends one */
        if (q != p && EP_UPPER(n.data) != upper && !(n.data & EP_DEAD)) {
            if (upper) drop_pair(bp, p, q);
            else begin_overlap(ctx, bp, p, q, k);
        }
        E[i] = n;
        bp->where[k][EP_KEY(n.data)] = i;
        i--;
        swaps++;
    }
    while (i + 1 < bp->ep_count && ep_less(E[i + 1], e)) {
        snug_bp_endpoint n = E[i + 1];
        uint32_t q = EP_PROXY(n.data);
        if (q != p && EP_UPPER(n.data) != upper && !(n.data & EP_DEAD)) {
            if (upper) begin_overlap(ctx, bp, p, q, k);
            else drop_pair(bp, p, q);
        }
        E[i] = n;
        bp->where[k][EP_KEY(n.data)] = i;
        i++;
        swaps++;
    }
    E[i] = e;
    bp->where[k][(p << 1) | upper] = i;
    bp->swaps += swaps;
}

void snug_bp_move(snug_ctx* ctx, snug_broadphase* bp, uint32_t id, const float min[3], const float max[3]) {
    snug_bp_proxy* P = &bp->proxies[id];
    if (bp->needs_rebuild) {
        glm_vec3_copy((float*)min, P->min);
        glm_vec3_copy((float*)max, P->max);
        return;
    }
    snug_bp_ensure_sorted(ctx, bp);
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
        bp->axis[k][bp->where[k][id << 1]].value = min[k];
        bp->axis[k][bp->where[k][(id << 1) | 1u]].value = max[k];
    }
}

static int ep_compare(const void* a, const void* b) {
    snug_bp_endpoint x = *(const snug_bp_endpoint*)a, y = *(const snug_bp_endpoint*)b;
    return ep_less(x, y) ? -1 : ep_less(y, x) ? 1 : 0;
}

/* Order-preserving map of a float to an unsigned key, LOWER before UPPER appended as the lowest bit. */
static inline uint64_t ep_radix_key(snug_bp_endpoint e) {
    uint32_t u;
    memcpy(&u, &e.value, sizeof u);
    u = (u & 0x80000000u) ? ~u : u | 0x80000000u;
    if (u == 0x80000000u) u = 0x7fffffffu; /* -0 (mapped to 0x7fffffff) and +0 compare equal */
    return ((uint64_t)u << 1) | EP_UPPER(e.data);
}

/* Sort axis k by value, then refresh the endpoint positions in one pass instead of on every swap. A stable
 * LSD radix sort (three 11-bit digits of the 33-bit key) costs the same however far the boxes moved; small
 * arrays, or no scratch memory, fall back to insertion sort / qsort. Dead endpoints sort along (their
 * positions are never read). */
static void sort_axis(snug_ctx* ctx, snug_broadphase* bp, int k) {
    snug_bp_endpoint* E = bp->axis[k];
    uint32_t n = bp->ep_count;
    if (n >= 256u && snug_scratch_reserve(ctx, (size_t)n * sizeof *E + 3u * 2048u * sizeof(uint32_t)) == SNUG_OK) {
        snug_bp_endpoint* T = (snug_bp_endpoint*)ctx->scratch.data;
        uint32_t* count = (uint32_t*)(T + n);
        memset(count, 0, 3u * 2048u * sizeof *count);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t key = ep_radix_key(E[i]);
            for (int d = 0; d < 3; d++) count[d * 2048 + ((key >> (11 * d)) & 2047u)]++;
        }
        snug_bp_endpoint *src = E, *dst = T;
        for (int d = 0; d < 3; d++) {
            uint32_t* c = count + d * 2048, sum = 0;
            for (uint32_t b = 0; b < 2048u; b++) {
                uint32_t t = c[b];
                c[b] = sum;
                sum += t;
            }
            for (uint32_t i = 0; i < n; i++) dst[c[(ep_radix_key(src[i]) >> (11 * d)) & 2047u]++] = src[i];
            snug_bp_endpoint* t = src;
            src = dst;
            dst = t;
        }
        memcpy(E, src, (size_t)n * sizeof *E); /* three passes: the result sits in T */
    } else if (n < 256u) {
        for (uint32_t i = 1; i < n; i++) {
            snug_bp_endpoint e = E[i];
            uint32_t j = i;
            for (; j > 0 && ep_less(e, E[j - 1]); j--) E[j] = E[j - 1];
            E[j] = e;
        }
    } else {
        qsort(E, n, sizeof *E, ep_compare);
    }
    for (uint32_t i = 0; i < n; i++) bp->where[k][EP_KEY(E[i].data)] = i;
}

void snug_bp_ensure_sorted(snug_ctx* ctx, snug_broadphase* bp) {
    for (int k = 0; k < 3; k++)
        if (bp->unsorted & (1u << k)) sort_axis(ctx, bp, k);
    bp->unsorted = 0;
}

#define SWEEP_PAD 4u

static bool sweep_emit(snug_ctx* ctx, snug_broadphase* bp, uint32_t p, uint32_t q) {
    snug_pairset* set = &bp->pairs;
    if (set->count == set->list_cap || 2u * (set->count + 1u) > set->cap) {
        if (!snug_pairset_reserve(ctx, set, set->count + 1u + set->count / 2u)) return false;
    }
    pairset_append(set, snug_pair_key(p, q));
    bp->pair_count[p]++;
    bp->pair_count[q]++;
    return true;
}

/* Structure-of-arrays boxes for the sweep: sorted by lower x end, NaN padding after each run. */
typedef struct sweep_soa {
    float *x0, *x1, *y0, *y1, *z0, *z1;
    uint32_t* id;
} sweep_soa;

static sweep_soa sweep_soa_at(float* base, size_t stride) {
    sweep_soa a = {base, base + stride, base + 2 * stride, base + 3 * stride, base + 4 * stride, base + 5 * stride,
                   (uint32_t*)(base + 6 * stride)};
    return a;
}

static inline void sweep_soa_put(sweep_soa* a, uint32_t i, const sweep_soa* from, uint32_t k) {
    a->x0[i] = from->x0[k];
    a->x1[i] = from->x1[k];
    a->y0[i] = from->y0[k];
    a->y1[i] = from->y1[k];
    a->z0[i] = from->z0[k];
    a->z1[i] = from->z1[k];
    a->id[i] = from->id[k];
}

static inline void sweep_soa_pad(sweep_soa* a, uint32_t i) {
    for (uint32_t t = i; t < i + SWEEP_PAD; t++) a->x0[t] = a->x1[t] = a->y0[t] = a->y1[t] = a->z0[t] = a->z1[t] = NAN;
}

/* y slabs: box i lies in slabs [slab(y0), slab(y1)]; a pair is reported only in the slab holding the lower end of
 * its y overlap (inside both boxes' spans), so exactly once. */
typedef struct sweep_slabs {
    float origin, inv_width;
    uint32_t count;
} sweep_slabs;

static inline uint32_t sweep_slab(const sweep_slabs* s, float y) {
    float f = (y - s->origin) * s->inv_width;
    return f <= 0.0f ? 0u : f >= (float)(s->count - 1u) ? s->count - 1u : (uint32_t)f;
}

/* Scan the boxes a[lo, hi) (NaN at hi): each against those after it whose lower x end lies in its x interval,
 * four at a time. */
static bool sweep_run(snug_ctx* ctx, snug_broadphase* bp, const sweep_soa* a, uint32_t lo, uint32_t hi,
                      const sweep_slabs* slabs, uint32_t slab) {
    for (uint32_t i = lo; i < hi; i++) {
        const float xs = a->x1[i];
        const f4 xe = F4_SET1(xs), ya = F4_SET1(a->y0[i]), yb = F4_SET1(a->y1[i]);
        const f4 za = F4_SET1(a->z0[i]), zb = F4_SET1(a->z1[i]);
        for (uint32_t j = i + 1;; j += 4) {
            f4 hit = F4_AND(F4_AND(F4_LE(F4_LOAD(a->x0 + j), xe), F4_LE(F4_LOAD(a->y0 + j), yb)),
                            F4_AND(F4_AND(F4_LE(ya, F4_LOAD(a->y1 + j)), F4_LE(F4_LOAD(a->z0 + j), zb)),
                                   F4_LE(za, F4_LOAD(a->z1 + j))));
            int bits = F4_BITS(hit);
            if (bits) {
                for (uint32_t t = 0; t < 4; t++) {
                    if (!(bits >> t & 1)) continue;
                    if (slabs->count > 1u && sweep_slab(slabs, fmaxf(a->y0[i], a->y0[j + t])) != slab) continue;
                    if (!sweep_emit(ctx, bp, a->id[i], a->id[j + t])) return false;
                }
            }
            /* sorted by x: once the last lane starts past xs (or is padding), so does everything after it */
            if (!(a->x0[j + 3] <= xs)) break;
        }
    }
    return true;
}

#define SWEEP_SLABS_MAX 64u

/* The pair set from scratch: sweep the live boxes in axis-0 order; each box scans forward over the boxes whose
 * lower x end lies inside its x interval and tests y and z (seed 000 Fig. 6.4 with the other two axes as a
 * filter). Many boxes: the sweep runs per y slab (a box in each slab it spans), which cuts the candidates by
 * about the slab count when boxes are small against the scene. Boxes sit in structure-of-arrays order so the
 * scan tests four candidates at a time on contiguous floats. Touching counts, like ep_less. */
static snug_status sweep_pairs(snug_ctx* ctx, snug_broadphase* bp) {
    snug_pairset_clear(&bp->pairs);
    if (bp->proxy_count) memset(bp->pair_count, 0, bp->proxy_count * sizeof *bp->pair_count);
    uint32_t n = bp->live;
    if (!n) return SNUG_OK;
    /* the gathered boxes, then slab copies: at most 2n entries, or no slabs */
    size_t stride = n + SWEEP_PAD, stride2 = 2u * (size_t)n + SWEEP_SLABS_MAX * SWEEP_PAD;
    if (snug_scratch_reserve(ctx, (stride + stride2) * 7u * sizeof(float) + SWEEP_SLABS_MAX * 2u * sizeof(uint32_t)) !=
        SNUG_OK)
        return SNUG_ERR_OUT_OF_MEMORY;
    sweep_soa A = sweep_soa_at((float*)ctx->scratch.data, stride);
    sweep_soa S = sweep_soa_at((float*)ctx->scratch.data + 7u * stride, stride2);
    uint32_t* start = (uint32_t*)((float*)ctx->scratch.data + 7u * (stride + stride2));
    uint32_t* fill = start + SWEEP_SLABS_MAX;
    uint32_t m = 0;
    float ylo = INFINITY, yhi = -INFINITY;
    double extent = 0.0;
    const snug_bp_endpoint* E = bp->axis[0];
    for (uint32_t i = 0; i < bp->ep_count; i++) {
        uint32_t d = E[i].data;
        if (EP_UPPER(d) || (d & EP_DEAD)) continue;
        const snug_bp_proxy* P = &bp->proxies[d >> 1];
        A.x0[m] = P->min[0];
        A.x1[m] = P->max[0];
        A.y0[m] = P->min[1];
        A.y1[m] = P->max[1];
        A.z0[m] = P->min[2];
        A.z1[m] = P->max[2];
        A.id[m] = d >> 1;
        ylo = fminf(ylo, P->min[1]);
        yhi = fmaxf(yhi, P->max[1]);
        extent += (double)P->max[1] - (double)P->min[1];
        m++;
    }
    sweep_soa_pad(&A, m);
    /* slabs about four mean box heights tall (a box spans ~1.25 of them), a few hundred boxes each at least */
    sweep_slabs sl = {ylo, 0.0f, 1u};
    double range = (double)yhi - (double)ylo, mean = extent / m;
    double want = mean > 0.0 ? range / (4.0 * mean) : (double)SWEEP_SLABS_MAX;
    if (want > m / 256.0) want = m / 256.0;
    if (want > SWEEP_SLABS_MAX) want = SWEEP_SLABS_MAX;
    if (want >= 2.0 && isfinite(range)) {
        sl.count = (uint32_t)want;
        sl.inv_width = (float)(sl.count / range);
        uint64_t total = 0;
        memset(start, 0, SWEEP_SLABS_MAX * sizeof *start);
        for (uint32_t i = 0; i < m; i++) {
            uint32_t b0 = sweep_slab(&sl, A.y0[i]), b1 = sweep_slab(&sl, A.y1[i]);
            for (uint32_t b = b0; b <= b1; b++) start[b]++;
            total += b1 - b0 + 1u;
        }
        if (total > 2u * (uint64_t)m) sl.count = 1u; /* boxes too tall for slabs */
    }
    if (sl.count == 1u) return sweep_run(ctx, bp, &A, 0, m, &sl, 0) ? SNUG_OK : SNUG_ERR_OUT_OF_MEMORY;
    uint32_t at = 0;
    for (uint32_t b = 0; b < sl.count; b++) {
        uint32_t c = start[b];
        start[b] = fill[b] = at;
        at += c + SWEEP_PAD;
    }
    for (uint32_t i = 0; i < m; i++) {
        uint32_t b0 = sweep_slab(&sl, A.y0[i]), b1 = sweep_slab(&sl, A.y1[i]);
        for (uint32_t b = b0; b <= b1; b++) sweep_soa_put(&S, fill[b]++, &A, i);
    }
    for (uint32_t b = 0; b < sl.count; b++) {
        sweep_soa_pad(&S, fill[b]);
        if (!sweep_run(ctx, bp, &S, start[b], fill[b], &sl, b)) return SNUG_ERR_OUT_OF_MEMORY;
    }
    return SNUG_OK;
}

void snug_bp_resort(snug_ctx* ctx, snug_broadphase* bp) {
    /* Most boxes moved: re-sorting one axis and sweeping it costs less than maintaining the pairs through every
     * swap on three axes (several hundred thousand swaps per step for 10k boxes). The other two axes are only
     * needed again by an incremental move, which sorts them first. */
    sort_axis(ctx, bp, 0);
    bp->unsorted |= 6u;
    if (sweep_pairs(ctx, bp) != SNUG_OK) bp->needs_rebuild = true;
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
            for (int k = 0; k < 3; k++) {
                uint32_t* w = snug_realloc(ctx, bp->where[k], (size_t)cap * 2u * sizeof *w);
                if (!w) return SNUG_ERR_OUT_OF_MEMORY; /* arrays already grown stay larger: harmless */
                bp->where[k] = w;
            }
            uint32_t* pc = snug_realloc(ctx, bp->pair_count, (size_t)cap * sizeof *pc);
            if (!pc) return SNUG_ERR_OUT_OF_MEMORY;
            bp->pair_count = pc;
            bp->proxy_cap = cap;
        }
        p = bp->proxy_count++;
    }
    snug_bp_proxy* P = &bp->proxies[p];
    P->live = true;
    P->user = user;
    bp->pair_count[p] = 0;
    /* enter at +infinity behind everything (overlapping nothing), then sort in like a move */
    for (int k = 0; k < 3; k++) {
        P->min[k] = P->max[k] = INFINITY;
        bp->axis[k][bp->ep_count] = (snug_bp_endpoint){INFINITY, p << 1};
        bp->axis[k][bp->ep_count + 1] = (snug_bp_endpoint){INFINITY, (p << 1) | 1u};
        bp->where[k][p << 1] = bp->ep_count;
        bp->where[k][(p << 1) | 1u] = bp->ep_count + 1;
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
    for (uint32_t k = 0; k < bp->pairs.count && bp->pair_count[id];) {
        uint64_t key = bp->pairs.list[k];
        uint32_t a = snug_pair_lo(key), b = snug_pair_hi(key);
        if (a == id || b == id) {
            snug_pairset_remove(&bp->pairs, key); /* swap-removes: index k holds the next pair */
            bp->pair_count[a]--;
            bp->pair_count[b]--;
        } else {
            k++;
        }
    }
    for (int k = 0; k < 3; k++) {
        bp->axis[k][bp->where[k][id << 1]].data |= EP_DEAD;
        bp->axis[k][bp->where[k][(id << 1) | 1u]].data |= EP_DEAD;
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
            if (E[i].data & EP_DEAD) continue;
            E[n] = E[i];
            bp->where[k][E[i].data] = n;
            n++;
        }
    }
    bp->ep_count = 2u * bp->live;
    bp->free_count = 0;
    for (uint32_t p = 0; p < bp->proxy_count; p++)
        if (!bp->proxies[p].live) bp->free_ids[bp->free_count++] = p;
    bp->dead = 0;
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
        sort_axis(ctx, bp, k);
    }
    bp->unsorted = 0;
    bp->needs_rebuild = false;
    if (sweep_pairs(ctx, bp) != SNUG_OK) {
        bp->needs_rebuild = true;
        return SNUG_ERR_OUT_OF_MEMORY;
    }
    return SNUG_OK;
}

snug_status snug_bp_maintain(snug_ctx* ctx, snug_broadphase* bp) {
    if (bp->needs_rebuild) return snug_bp_rebuild(ctx, bp);
    if (bp->dead > 16u && bp->dead > bp->live / 2u) compact(bp);
    return SNUG_OK;
}
