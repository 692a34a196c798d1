/* The lean top-down path for the default hierarchy (binned SAH, binary): 16-byte records holding each
 * triangle's box quantized to 16 bits per axis on the root box, so a partition pass moves half the bytes of
 * the float records, a bin update is one 8-lane integer min, and bins and sides are integer arithmetic. The
 * quantized boxes only steer the plane choice; every node's box is exact: leaves are fitted to their
 * triangles' float boxes and inner nodes are the union of their children, in one pass at the end (for plain
 * AABB trees the pass of snug_bvh_finish that also moves the nodes and sets their costs).
 *
 * Nodes below SAMPLE_MIN records: a node's bins are filled while its parent is partitioned (grid over the
 * child's box, known from the parent's bins), so every level costs one pass over the records. Larger nodes
 * choose their plane from a strided sample of about SAMPLE_TARGET records (binned after the parent's
 * partition), so their partition pass only moves records. Nodes of at most SWEEP_MAX records take an exact
 * sweep over their sorted records instead of bins. Depth-first with an explicit stack whose slots hold the
 * bins; only the right child's bins are ever copied. Layout as in bvh_build.c: children contiguous and
 * after their parent, the first child's subtree next to its parent. */
#include "bvh/bvh_build.h"
#include "bvh/morton.h"
#include "base/simd.h"

#include <float.h>
#include <string.h>

/* Lanes 0..2: quantized box min minus 32768; lanes 4..6: 32767 minus the quantized box max (so the union of
 * boxes is a lane-wise min); lanes 3 and 7: the triangle id's low and high halves. */
typedef struct qprim {
    int16_t v[8];
} qprim;

/* The empty box: every lane at its maximum (a union is a lane-wise min). */
static inline i16x8 qbox_empty(void) { return I16X8_SPLAT(INT16_MAX); }

/* A quantized record from its clamped float min and max lanes: truncate, bias, narrow to 16 bits, id in lanes 3
 * and 7. key[0..2] receive the record's centroid keys + 65535 (q_key + 65535 = truncated min + truncated max,
 * 0..131070). */
static inline i16x8 q_pack(f4 lo, f4 hi, uint32_t id, int32_t key[4]) {
    i32x4 tl = I32X4_TRUNC_F4(lo), th = I32X4_TRUNC_F4(hi);
    I32X4_STORE_XYZ(key, I32X4_ADD(tl, th));
    i16x8 q = I16X8_NARROW_I32X4(I32X4_SUB(tl, I32X4_SPLAT(32768)), I32X4_SUB(I32X4_SPLAT(32767), th));
    q = I16X8_SET_LANE(q, 3, (uint16_t)(id & 0xffffu));
    return I16X8_SET_LANE(q, 7, (uint16_t)(id >> 16));
}

#define QBINS_MAX 64
/* sampled plane choice from this many records up; SAH cost against binning every record: 48k dragon +0.4 %,
 * 203k -0.8 %, 871k +0.9 % (smaller samples or thresholds cost 2 % and more) */
#define SAMPLE_MIN 4096u
#define SAMPLE_TARGET 1024u

/* A bin grid over the centroid keys (quantized min + max, 0..131070) along one axis: bin of a key is
 * ((key - base) clamped to [0, range]) * mul >> 24, at most n - 1. Per bin the record count and the union of
 * the records' quantized boxes. */
typedef struct qbins {
    int n, axis;
    int32_t base, range;
    uint32_t mul;
    uint32_t count[QBINS_MAX];
    qprim box[QBINS_MAX];
} qbins;

/* World size of one quantum per axis: extents are compared and areas taken in world units. */
typedef struct qgrid {
    float origin[3], inv[3], unit[4]; /* unit[3] = 0: the lanes of qarea */
} qgrid;

static inline int32_t q_lo(const int16_t* v, int a) { return (int32_t)v[a] + 32768; }
static inline int32_t q_hi(const int16_t* v, int a) { return 32767 - (int32_t)v[4 + a]; }
/* key - 65535, so that it needs no constant: the grids are shifted the same way */
static inline int32_t q_key(const int16_t* v, int a) { return (int32_t)v[a] - (int32_t)v[4 + a]; }

static inline int qbin_of(int32_t base, int32_t range, uint32_t mul, int32_t key) {
    int32_t d = key - base;
    d = d < 0 ? 0 : d;
    d = d > range ? range : d;
    return (int)(((uint32_t)d * mul) >> 24);
}

/* Grid over the centroid keys of records inside `box` along its longest world axis. */
static void qbins_init(qbins* b, const qgrid* g, int nbins, uint32_t count, const qprim* box) {
    int axis = 0;
    float ext[3];
    for (int a = 0; a < 3; a++) ext[a] = (float)(q_hi(box->v, a) - q_lo(box->v, a)) * g->unit[a];
    if (ext[1] > ext[axis]) axis = 1;
    if (ext[2] > ext[axis]) axis = 2;
    int32_t lo = 2 * q_lo(box->v, axis) - 65535, hi = 2 * q_hi(box->v, axis) - 65535;
    /* more bins than triangles buy nothing on small nodes */
    if ((uint32_t)nbins > count + 2) nbins = (int)count + 2;
    if (hi <= lo) nbins = 1;
    b->n = nbins;
    b->axis = axis;
    b->base = lo;
    b->range = hi > lo ? hi - lo : 0;
    b->mul = (uint32_t)(((uint64_t)nbins << 24) / ((uint64_t)b->range + 1));
    i16x8 empty = qbox_empty();
    for (int i = 0; i < nbins; i++) {
        I16X8_STORE(b->box[i].v, empty);
        b->count[i] = 0;
    }
}

/* Bin every stride-th record. */
static void qbins_add(qbins* b, const qprim* prims, uint32_t count, uint32_t stride) {
    const int axis = b->axis;
    const int32_t base = b->base, range = b->range;
    const uint32_t mul = b->mul;
    for (uint32_t k = 0; k < count; k += stride) {
        int bin = qbin_of(base, range, mul, q_key(prims[k].v, axis));
        b->count[bin]++;
        I16X8_STORE(b->box[bin].v, I16X8_MIN(I16X8_LOAD(b->box[bin].v), I16X8_LOAD(prims[k].v)));
    }
}

static qprim qbox_of(const qprim* prims, uint32_t count) {
    i16x8 acc = qbox_empty();
    for (uint32_t k = 0; k < count; k++) acc = I16X8_MIN(acc, I16X8_LOAD(prims[k].v));
    qprim out;
    I16X8_STORE(out.v, acc);
    return out;
}

/* Half the surface area of a quantized box in world units (unit: the grid's quantum per axis, lane 3 zero). The
 * extent of an axis is ~(lo lane + hi lane) in 16-bit wrapping arithmetic (qhi - qlo = -1 - lo - nhi), read as
 * unsigned. */
static inline float qarea(f4 unit, i16x8 box) {
    i16x8 e = I16X8_NOT(I16X8_ADD(box, I16X8_SWAP_HALVES(box)));
    f4 f = F4_MUL(F4_FROM_I32X4(I32X4_FROM_U16_LO(e)), unit);
    return F4_SUM3(F4_MUL(f, F4_YZXW(f)));
}

/* Cheapest plane: the first bin of the right side (0: no split), with both sides' boxes and counts. */
static int qbins_choose(const qgrid* g, const qbins* b, qprim box[2], uint32_t counts[2]) {
    int nbins = b->n;
    if (nbins < 2) return 0;
    const f4 unit = F4_LOAD(g->unit);
    float right_cost[QBINS_MAX];
    i16x8 right_box[QBINS_MAX];
    uint32_t right_count[QBINS_MAX];
    i16x8 acc = qbox_empty();
    uint32_t rc = 0;
    for (int i = nbins - 1; i > 0; i--) {
        acc = I16X8_MIN(acc, I16X8_LOAD(b->box[i].v));
        rc += b->count[i];
        right_box[i] = acc;
        right_count[i] = rc;
        right_cost[i] = rc ? qarea(unit, acc) * (float)rc : -1.0f;
    }
    acc = qbox_empty();
    i16x8 best_box = acc;
    uint32_t lc = 0, best_lc = 0;
    float best = FLT_MAX;
    int split = 0;
    for (int i = 1; i < nbins; i++) {
        acc = I16X8_MIN(acc, I16X8_LOAD(b->box[i - 1].v));
        lc += b->count[i - 1];
        if (lc == 0 || right_cost[i] < 0.0f) continue;
        float cost = qarea(unit, acc) * (float)lc + right_cost[i];
        if (cost < best) {
            best = cost;
            split = i;
            best_box = acc;
            best_lc = lc;
        }
    }
    if (split == 0) return 0;
    counts[0] = best_lc;
    counts[1] = right_count[split];
    I16X8_STORE(box[0].v, best_box);
    I16X8_STORE(box[1].v, right_box[split]);
    return split;
}

/* Smallest key whose bin is >= split (split in 1..n-1): the side test of a partition is one comparison. */
static int32_t qbins_threshold(const qbins* b, int split) {
    return b->base + (int32_t)((((uint64_t)split << 24) + b->mul - 1) / b->mul);
}

/* Partitions move src's records to dst, those left of the plane first, and return the left count.
 * Branch-free: every record is stored at both ends of the open gap and only its side's end advances, so the
 * other copy lands in the gap and is overwritten later. */
static uint32_t qpartition(int axis, int32_t threshold, const qprim* src, uint32_t count, qprim* dst) {
    uint32_t i = 0, j = count;
    for (uint32_t k = 0; k < count; k++) {
        i16x8 v = I16X8_LOAD(src[k].v);
        uint32_t side = q_key(src[k].v, axis) >= threshold;
        I16X8_STORE(dst[i].v, v);
        I16X8_STORE(dst[j - 1].v, v);
        i += 1 - side;
        j -= side;
    }
    return i;
}

/* The same, binning each record into its side's grid on the way. */
static uint32_t qpartition_bin(int axis, int32_t threshold, const qprim* src, uint32_t count, qprim* dst,
                               qbins* left, qbins* right) {
    /* grid parameters in locals: the bin stores could alias the bin structs and would force reloads */
    qbins* kids[2] = {left, right};
    int kaxis[2];
    int32_t kbase[2], krange[2];
    uint32_t kmul[2];
    uint32_t* kcount[2];
    qprim* kbox[2];
    for (int s = 0; s < 2; s++) {
        kaxis[s] = kids[s]->axis;
        kbase[s] = kids[s]->base;
        krange[s] = kids[s]->range;
        kmul[s] = kids[s]->mul;
        kcount[s] = kids[s]->count;
        kbox[s] = kids[s]->box;
    }
    uint32_t i = 0, j = count;
    for (uint32_t k = 0; k < count; k++) {
        const int16_t* p = src[k].v;
        i16x8 v = I16X8_LOAD(p);
        uint32_t side = q_key(p, axis) >= threshold;
        int bin = qbin_of(kbase[side], krange[side], kmul[side], q_key(p, kaxis[side]));
        kcount[side][bin]++;
        I16X8_STORE(kbox[side][bin].v, I16X8_MIN(I16X8_LOAD(kbox[side][bin].v), v));
        I16X8_STORE(dst[i].v, v);
        I16X8_STORE(dst[j - 1].v, v);
        i += 1 - side;
        j -= side;
    }
    return i;
}

static inline uint32_t qprim_id(const qprim* p) { return (uint32_t)(uint16_t)p->v[3] | (uint32_t)(uint16_t)p->v[7] << 16; }

/* A leaf records its slots' triangle ids and its exact box, from the float boxes of its triangles (input order:
 * this is the one gather of those boxes into slot order). */
static void make_leaf(snug_build* b, uint32_t node, uint32_t begin, const qprim* prims, uint32_t count) {
    vec3 lo = {FLT_MAX, FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (uint32_t k = 0; k < count; k++) {
        uint32_t id = qprim_id(&prims[k]);
        const snug_prim* p = &b->prims[id];
        b->in.ids[begin + k] = id;
        glm_vec3_minv(lo, (float*)p->min, lo);
        glm_vec3_maxv(hi, (float*)p->max, hi);
    }
    snug_node* n = &b->nodes[node];
    glm_vec3_copy(lo, n->min);
    glm_vec3_copy(hi, n->max);
    n->first = begin;
    n->info = SNUG_NODE_INFO(0, 0, count);
}

/* The grid of the quantized records: 65535 quanta over the root box per axis (qcode_task). */
static void quantize_grid(const snug_build* b, qgrid* g) {
    const float *rlo = b->root.min, *rhi = b->root.max;
    for (int a = 0; a < 3; a++) {
        float ext = rhi[a] - rlo[a];
        g->origin[a] = rlo[a];
        g->inv[a] = ext > 0.0f ? 65535.0f / ext : 0.0f;
        g->unit[a] = ext / 65535.0f;
    }
    g->unit[3] = 0.0f;
}

/* Nodes of at most SWEEP_MAX records (and more than a leaf) take the full sweep: sort by centroid key on the
 * longest axis and cost every split position. On the dragons about three quarters of the inner nodes are
 * this small, and binning them (grids, bin sweeps, a partition pass) cost several times the sweep. */
#define SWEEP_MAX 16u

/* rank[k] = how many of keys[0..count) are below keys[k] (keys distinct, padded to SWEEP_MAX). Four lanes of
 * k at a time, one comparison per j: in wasm the scalar double loop was a chain of 256 compares per node. */
static inline void sweep_ranks(const int32_t keys[SWEEP_MAX], uint32_t count, int32_t rank[SWEEP_MAX]) {
    i32x4 k[4], r[4];
    for (int v = 0; v < 4; v++) k[v] = I32X4_LOAD(keys + 4 * v), r[v] = I32X4_SPLAT(0);
    for (uint32_t j = 0; j < count; j++) {
        i32x4 s = I32X4_SPLAT(keys[j]);
        for (int v = 0; v < 4; v++) r[v] = I32X4_SUB(r[v], I32X4_GT(k[v], s)); /* a true lane is -1: subtract */
    }
    for (int v = 0; v < 4; v++) I32X4_STORE(rank + 4 * v, r[v]);
}

typedef struct qtask {
    uint32_t node, begin, count, depth;
    bool binned;
    bool in_b; /* the records of this task sit in the second buffer (partitions alternate buffers) */
} qtask;

/* One worker of the record builder: what it keeps between the subtrees it is given. Workers share the build,
 * the grid and the record buffers (each builds other records and nodes) and own the rest. */
typedef struct qbuild {
    snug_build* b;
    const qgrid* g;
    qtask* stack;        /* max_depth + 3 slots */
    qbins* bins;         /* one per stack slot, then the dummy */
    qprim* buf[2];       /* records in slot order in buf[0]; buf[1] is the partitions' other side */
    uint32_t unbinned;
    uint32_t node_count; /* the next free node of this worker's range */
    uint32_t depth;      /* deepest node this worker made */
} qbuild;

/* `box` bounds the records; they are already sorted by their key on `sorted_axis` (-1: not sorted), which a
 * child inherits from its parent's sweep, so it skips the sort when its longest axis is the same. */
static void sweep_build(qbuild* q, uint32_t node, uint32_t begin, qprim* prims, uint32_t count, uint32_t depth,
                        const qprim* box, int sorted_axis) {
    snug_build* b = q->b;
    const qgrid* g = q->g;
    b->range_first[node] = begin;
    b->range_count[node] = count;
    if (depth > q->depth) q->depth = depth;
    if (count <= b->in.def->leaf_size || depth >= b->in.def->max_depth) {
        make_leaf(b, node, begin, prims, count);
        return;
    }
    int axis = 0;
    float ext[3];
    for (int a = 0; a < 3; a++) ext[a] = (float)(q_hi(box->v, a) - q_lo(box->v, a)) * g->unit[a];
    if (ext[1] > ext[axis]) axis = 1;
    if (ext[2] > ext[axis]) axis = 2;
    if (axis != sorted_axis) {
        /* rank sort without branches (an insertion sort mispredicts on every record): keys are distinct, as
         * (key, index) in one word (key + 65535 < 2^17, index < 2^5), padded to SWEEP_MAX with keys above all */
        int32_t keys[SWEEP_MAX], rank[SWEEP_MAX];
        for (uint32_t k = 0; k < SWEEP_MAX; k++)
            keys[k] = k < count ? (q_key(prims[k].v, axis) + 65535) << 5 | (int32_t)k : INT32_MAX;
        sweep_ranks(keys, count, rank);
        qprim sorted[SWEEP_MAX];
        for (uint32_t k = 0; k < count; k++) I16X8_STORE(sorted[rank[k]].v, I16X8_LOAD(prims[k].v));
        for (uint32_t k = 0; k < count; k++) I16X8_STORE(prims[k].v, I16X8_LOAD(sorted[k].v));
    }
    const f4 unit = F4_LOAD(g->unit);
    float right_cost[SWEEP_MAX];
    qprim right_box[SWEEP_MAX];
    i16x8 acc = qbox_empty();
    for (uint32_t i = count - 1; i > 0; i--) {
        acc = I16X8_MIN(acc, I16X8_LOAD(prims[i].v));
        I16X8_STORE(right_box[i].v, acc);
        right_cost[i] = qarea(unit, acc) * (float)(count - i);
    }
    acc = qbox_empty();
    float best = FLT_MAX;
    uint32_t split = 1;
    qprim left_box;
    for (uint32_t i = 1; i < count; i++) {
        acc = I16X8_MIN(acc, I16X8_LOAD(prims[i - 1].v));
        float cost = qarea(unit, acc) * (float)i + right_cost[i];
        if (cost < best) {
            best = cost;
            split = i;
            I16X8_STORE(left_box.v, acc);
        }
    }
    uint32_t child = q->node_count;
    q->node_count += 2;
    b->nodes[node].first = child;
    b->nodes[node].info = SNUG_NODE_INFO(2, 0, 0);
    sweep_build(q, child, begin, prims, split, depth + 1, &left_box, axis);
    sweep_build(q, child + 1, begin + split, prims + split, count - split, depth + 1, &right_box[split], axis);
}

static inline uint32_t sample_stride(uint32_t count) { return count >= SAMPLE_MIN ? count / SAMPLE_TARGET : 1; }

/* Subtree of `node` (depth `depth`) over the records buf[0][begin .. begin + count). */
static void build_range(qbuild* q, uint32_t node, uint32_t begin, uint32_t count, uint32_t depth) {
    snug_build* b = q->b;
    const snug_bvh_def* def = b->in.def;
    const int nb = def->sah_bins;
    const uint32_t unbinned = q->unbinned;
    qbins* bins = q->bins;
    qtask* stack = q->stack;
    qprim** buf = q->buf;
    const qgrid* g = q->g;
    qbins* dummy = &bins[def->max_depth + 3]; /* a leaf child's records are binned into one bin nobody reads */
    bool binned = count > unbinned && depth < def->max_depth;
    if (binned) {
        qprim rbox = qbox_of(buf[0] + begin, count);
        qbins_init(&bins[0], g, nb, count, &rbox);
        qbins_add(&bins[0], buf[0] + begin, count, sample_stride(count));
    }
    stack[0] = (qtask){node, begin, count, depth, binned, false};
    int top = 1;
    while (top > 0) {
        int at = top - 1;
        qtask t = stack[at];
        qprim* prims = buf[t.in_b] + t.begin;
        if (t.count <= unbinned || t.depth >= def->max_depth) {
            qprim box = qbox_of(prims, t.count);
            sweep_build(q, t.node, t.begin, prims, t.count, t.depth, &box, -1);
            top--;
            continue;
        }
        b->range_first[t.node] = t.begin;
        b->range_count[t.node] = t.count;
        if (t.depth > q->depth) q->depth = t.depth;
        bool kids_in_b = t.in_b, leafy[2];
        qprim box[2];
        uint32_t counts[2], left;
        int split = t.binned ? qbins_choose(g, &bins[at], box, counts) : 0;
        bool last = t.depth + 1 >= def->max_depth;
        if (split && t.count < SAMPLE_MIN) {
            /* exact bins: the sides' counts and boxes are known, so the children's grids too */
            for (int k = 0; k < 2; k++) {
                leafy[k] = counts[k] <= unbinned || last;
                if (!leafy[k]) qbins_init(&bins[at + 1 + k], g, nb, counts[k], &box[k]);
            }
            left = qpartition_bin(bins[at].axis, qbins_threshold(&bins[at], split), prims, t.count,
                                  buf[!t.in_b] + t.begin, leafy[0] ? dummy : &bins[at + 1],
                                  leafy[1] ? dummy : &bins[at + 2]);
            kids_in_b = !t.in_b;
        } else {
            if (split) {
                /* sampled bins: partition, then bin each child from its records (sampled again if large) */
                left = qpartition(bins[at].axis, qbins_threshold(&bins[at], split), prims, t.count,
                                  buf[!t.in_b] + t.begin);
                kids_in_b = !t.in_b;
                prims = buf[!t.in_b] + t.begin;
            }
            if (!split || left == 0 || left == t.count) {
                /* centroids do not spread on the quantized grid (or no bins, or a sample missed a side):
                 * halve by count */
                left = t.count / 2;
                split = 0;
            }
            counts[0] = left;
            counts[1] = t.count - left;
            for (int k = 0; k < 2; k++) {
                const qprim* part = prims + (k ? left : 0);
                leafy[k] = counts[k] <= unbinned || last;
                if (leafy[k]) continue;
                /* a sampled side's box may miss records (their keys clamp into the end bins) */
                if (!split) box[k] = qbox_of(part, counts[k]);
                qbins_init(&bins[at + 1 + k], g, nb, counts[k], &box[k]);
                qbins_add(&bins[at + 1 + k], part, counts[k], sample_stride(counts[k]));
            }
        }
        uint32_t child = q->node_count;
        q->node_count += 2;
        b->nodes[t.node].first = child;
        b->nodes[t.node].info = SNUG_NODE_INFO(2, 0, 0);
        /* slot `at` takes the right child (its bins copied down), slot at + 1 keeps the left one on top */
        if (!leafy[1]) {
            qbins* r = &bins[at + 2];
            bins[at].n = r->n, bins[at].axis = r->axis, bins[at].base = r->base, bins[at].range = r->range;
            bins[at].mul = r->mul;
            memcpy(bins[at].count, r->count, (size_t)r->n * sizeof r->count[0]);
            memcpy(bins[at].box, r->box, (size_t)r->n * sizeof r->box[0]);
        }
        stack[at] = (qtask){child + 1, t.begin + left, t.count - left, t.depth + 1, !leafy[1], kids_in_b};
        stack[at + 1] = (qtask){child, t.begin, left, t.depth + 1, !leafy[0], kids_in_b};
        top = at + 2;
    }
}

/* ---- Morton-clustered top levels (the HLBVH idea with SAH over the clusters: Pantaleoni and Luebke 2010,
 * Garanzha et al. 2011). Records are sorted by the Morton code of their centroid cell on a grid of
 * 2^CLUSTER_BITS cells per axis over the root box; a run of one cell is a cluster. Binned SAH over the
 * clusters (weighted by their triangle counts) builds the top of the tree down to groups of clusters of at
 * most GROUP_MAX triangles (or single clusters), and the record builder above builds each group's subtree
 * from its records alone, so a record takes part in about log2(group size) partition passes instead of
 * log2(n). A mesh whose triangles crowd into few cells gets few, large groups: at worst one group, which is
 * the plain record build. */
/* Measured with callgrind on one create (instructions, SAH cost against the plain record build): 871k dragon
 * 1213M -> 1038M, 52.95 -> 53.13 (+0.35 %); 203k 272M -> 251M, +0.4 %. Larger groups keep more of the plain
 * build's quality and cost (512: 1074M, +0.0 %), smaller ones lose quality (128: 1002M, +1.1 %); 32 or 128
 * cells per axis gave more instructions or a worse tree. Below about 100k triangles the sort and the top
 * build cost more than they save (48k dragon: +5 % instructions). */
#define CLUSTER_BITS 6
#define GROUP_MAX 256u
#define TOP_BINS 32

uint32_t snug_sah_cluster_min = 100000u;

typedef struct qcluster {
    qprim box;              /* union of its records' boxes (id lanes unused) */
    uint32_t first, count;  /* its records: Morton-sorted, then (after the top build) in slot order */
} qcluster;

typedef struct qtop {
    uint32_t first, count;  /* clusters */
    uint32_t tris;
    uint32_t kids;          /* index of the first of two children; 0 for a group */
} qtop;

/* Binary SAH over clusters[0..count): stable partition into tmp and back; returns the left count (0: none). */
static uint32_t top_split(const qgrid* g, qcluster* cl, uint32_t count, qcluster* tmp) {
    i16x8 acc = qbox_empty();
    for (uint32_t k = 0; k < count; k++) acc = I16X8_MIN(acc, I16X8_LOAD(cl[k].box.v));
    qprim box;
    I16X8_STORE(box.v, acc);
    qbins bins;
    qbins_init(&bins, g, TOP_BINS, count, &box);
    for (uint32_t k = 0; k < count; k++) {
        int bin = qbin_of(bins.base, bins.range, bins.mul, q_key(cl[k].box.v, bins.axis));
        bins.count[bin] += cl[k].count;
        I16X8_STORE(bins.box[bin].v, I16X8_MIN(I16X8_LOAD(bins.box[bin].v), I16X8_LOAD(cl[k].box.v)));
    }
    qprim sides[2];
    uint32_t tris[2];
    int split = qbins_choose(g, &bins, sides, tris);
    if (!split) return count / 2; /* centres on one key: halve in Morton order */
    int32_t threshold = qbins_threshold(&bins, split);
    uint32_t i = 0, j = count;
    for (uint32_t k = 0; k < count; k++) {
        if (q_key(cl[k].box.v, bins.axis) >= threshold) tmp[--j] = cl[k];
        else tmp[i++] = cl[k];
    }
    /* the right side was written backwards; restore its Morton order */
    memcpy(cl, tmp, i * sizeof *cl);
    for (uint32_t k = i; k < count; k++) cl[k] = tmp[count - 1 - (k - i)];
    return i > 0 && i < count ? i : count / 2;
}

/* Records and, when asked, cluster cell codes of triangles over the workers. */
typedef struct qcode_pass {
    const snug_build* b;
    const qgrid* g;
    qprim* records;
    uint32_t* code; /* NULL: records only */
    uint32_t spread[3][1u << CLUSTER_BITS]; /* the code's bits of each cell coordinate, looked up (the spread
                                              * costs ~30 instructions per triangle) */
} qcode_pass;

/* cell code of centroid keys + 65535 (0..131070): their top CLUSTER_BITS bits are the cell */
static inline uint32_t q_code(const qcode_pass* p, const int32_t key[3]) {
    const int shift = 17 - CLUSTER_BITS;
    return p->spread[0][(uint32_t)key[0] >> shift] | p->spread[1][(uint32_t)key[1] >> shift] |
           p->spread[2][(uint32_t)key[2] >> shift];
}

/* Records (and codes) of triangles [begin, end) from their float boxes in b->prims (input order) on the grid of
 * the root box. Truncation after clamping to [0, 65535]; the max rounds up by one quantum instead of ceil (a
 * call without SSE4.1), which only widens the box a little. Per lane: l = (min - origin) * inv, h = (max - origin)
 * * inv + 1, each clamped as x > 0 ? (x < 65535 ? x : 65535) : 0 (the test on the unclamped value). */
static void qcode_task(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    const qcode_pass* p = context;
    const qgrid* g = p->g;
    qprim* out = p->records;
    (void)worker;
    const f4 origin = F4_LOAD(((const float[4]){g->origin[0], g->origin[1], g->origin[2], 0.0f}));
    const f4 inv = F4_LOAD(((const float[4]){g->inv[0], g->inv[1], g->inv[2], 0.0f}));
    const f4 one = F4_SET1(1.0f), top = F4_SET1(65535.0f), zero = F4_SET1(0.0f);
    for (uint32_t t = begin; t < end; t++) {
        const float* f = p->b->prims[t].min; /* min and id, then max and label: 16 bytes each */
        f4 l = F4_MUL(F4_SUB(F4_LOAD(f), origin), inv);
        f4 h = F4_ADD(F4_MUL(F4_SUB(F4_LOAD(f + 4), origin), inv), one);
        /* l > 0 ? (l < 65535 ? l : 65535) : 0 */
        l = F4_AND(F4_MIN(l, top), F4_LT(zero, l));
        h = F4_AND(F4_MIN(h, top), F4_LT(zero, h));
        int32_t key[4];
        I16X8_STORE(out[t].v, q_pack(l, h, t, key));
        if (p->code) p->code[t] = q_code(p, key);
    }
}

/* Every triangle's record on grid g in `records` and, if code is not NULL, its cluster cell code. */
static void quantize_all(snug_ctx* ctx, const snug_build* b, uint32_t n, const qgrid* g, qprim* records,
                         uint32_t* code) {
    qcode_pass p = {b, g, records, code};
    for (uint32_t c = 0; c < 1u << CLUSTER_BITS; c++)
        p.spread[0][c] = snug_morton3(c, 0, 0), p.spread[1][c] = snug_morton3(0, c, 0), p.spread[2][c] = snug_morton3(0, 0, c);
    snug_parallel_for(ctx, n, 32768, qcode_task, &p);
}

/* The counting sort by cell and the clusters' boxes, in parts over the workers: each part of the input counts its
 * codes per cell, the counts become each (cell, part)'s first slot, and each part scatters its records there, so
 * the order is the same whatever the number of parts. */
typedef struct qsort_pass {
    const uint32_t* code;
    const qprim* src;
    qprim* dst;
    uint32_t n, parts;
    uint32_t* at;           /* parts x cells: counts, then first slots */
    qcluster* clusters;     /* then as many places in the slot order (qcluster_copy) */
    uint32_t cluster_count;
} qsort_pass;

#define CLUSTER_CELLS (1u << (3 * CLUSTER_BITS))

/* the records of one part of the input: [*lo, *hi) */
static void qsort_part(const qsort_pass* p, uint32_t part, uint32_t* lo, uint32_t* hi) {
    *lo = (uint32_t)((uint64_t)p->n * part / p->parts);
    *hi = (uint32_t)((uint64_t)p->n * (part + 1) / p->parts);
}

static void qsort_count(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    qsort_pass* p = context;
    (void)worker;
    for (uint32_t part = begin; part < end; part++) {
        uint32_t* at = p->at + (size_t)part * CLUSTER_CELLS;
        memset(at, 0, CLUSTER_CELLS * sizeof *at);
        uint32_t lo, hi;
        qsort_part(p, part, &lo, &hi);
        for (uint32_t t = lo; t < hi; t++) at[p->code[t]]++;
    }
}

static void qsort_scatter(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    qsort_pass* p = context;
    (void)worker;
    for (uint32_t part = begin; part < end; part++) {
        uint32_t* at = p->at + (size_t)part * CLUSTER_CELLS;
        uint32_t lo, hi;
        qsort_part(p, part, &lo, &hi);
        for (uint32_t t = lo; t < hi; t++) I16X8_STORE(p->dst[at[p->code[t]]++].v, I16X8_LOAD(p->src[t].v));
    }
}

static void qcluster_boxes(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    qsort_pass* p = context;
    (void)worker;
    for (uint32_t c = begin; c < end; c++) p->clusters[c].box = qbox_of(p->dst + p->clusters[c].first, p->clusters[c].count);
}

/* Clusters [begin, end) from src to their places in the slot order (kept in the scratch half after them). */
static void qcluster_copy(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    qsort_pass* p = context;
    (void)worker;
    uint32_t m = p->cluster_count;
    for (uint32_t c = begin; c < end; c++)
        memcpy(p->dst + p->clusters[m + c].first, p->src + p->clusters[c].first, (size_t)p->clusters[c].count * sizeof(qprim));
}

/* Clusters of the records in buf[0] (input order) from their cell codes (code[0 .. n), followed by room for parts x
 * 2^(3 CLUSTER_BITS) counts): a counting sort by cell (few enough cells for one histogram per part) moves them
 * into buf[1], cell by cell in Morton order and stable within a cell. One scatter of the records instead of a
 * radix sort of (code, index) pairs and a gather. Returns the cluster count, 0 when out of memory. */
static uint32_t make_clusters(snug_ctx* ctx, qbuild* q, uint32_t n, uint32_t* code, uint32_t parts, qcluster** out) {
    qsort_pass p = {code, q->buf[0], q->buf[1], n, parts, code + n, NULL};
    snug_parallel_for(ctx, parts, 1, qsort_count, &p);
    uint32_t m = 0, sum = 0;
    for (uint32_t c = 0; c < CLUSTER_CELLS; c++) {
        uint32_t first = sum;
        for (uint32_t part = 0; part < parts; part++) {
            uint32_t* at = &p.at[(size_t)part * CLUSTER_CELLS + c];
            uint32_t k = *at;
            *at = sum;
            sum += k;
        }
        m += sum != first;
    }
    qcluster* cl = snug_alloc(ctx, 2 * (size_t)m * sizeof *cl); /* the second half is the partition scratch */
    if (!cl) return 0;
    m = 0;
    for (uint32_t c = 0; c < CLUSTER_CELLS; c++) {
        uint32_t first = p.at[c], last = c + 1 < CLUSTER_CELLS ? p.at[c + 1] : n;
        if (last > first) cl[m++] = (qcluster){{{0}}, first, last - first};
    }
    snug_parallel_for(ctx, parts, 1, qsort_scatter, &p);
    p.clusters = cl;
    snug_parallel_for(ctx, m, 256, qcluster_boxes, &p);
    *out = cl;
    return m;
}

typedef struct top_task {
    uint32_t top, node, depth;
} top_task;

/* A subtree of the top tree that split_tops left for the workers, and its first free top node. */
typedef struct qdeferred {
    top_task task;
    uint32_t next;
} qdeferred;

typedef struct qtop_pass {
    const qgrid* g;
    qcluster* cl;     /* clusters, then as many of partition scratch */
    uint32_t m;
    qtop* tops;
    uint32_t max_depth;
    top_task* stacks; /* max_depth + 2 per worker */
    qdeferred* deferred;
    uint32_t deferred_count;
} qtop_pass;

/* Splits the top tree depth-first from `root` down to groups (at most GROUP_MAX triangles, one cluster, or the
 * depth limit), new nodes from `next` on; returns the next free node. Nodes of at most `defer` triangles are not
 * split but listed in p->deferred (0: none). The tree depends only on each node's clusters, not on the order of
 * the splits or the nodes' indices, so it is the same whatever is deferred. */
static uint32_t split_tops(qtop_pass* p, top_task root, uint32_t next, top_task* stack, uint32_t defer) {
    int sp = 0;
    stack[sp++] = root;
    while (sp > 0) {
        top_task t = stack[--sp];
        qtop* nd = &p->tops[t.top];
        if (nd->count == 1 || nd->tris <= GROUP_MAX || t.depth >= p->max_depth) continue;
        if (nd->tris <= defer) {
            p->deferred[p->deferred_count++].task = t;
            continue;
        }
        qcluster* c = p->cl + nd->first;
        uint32_t left = top_split(p->g, c, nd->count, p->cl + p->m + nd->first);
        uint32_t lt = 0;
        for (uint32_t k = 0; k < left; k++) lt += c[k].count;
        uint32_t kid = next;
        next += 2;
        p->tops[kid] = (qtop){nd->first, left, lt, 0};
        p->tops[kid + 1] = (qtop){nd->first + left, nd->count - left, nd->tris - lt, 0};
        nd->kids = kid;
        stack[sp++] = (top_task){kid + 1, 0, t.depth + 1};
        stack[sp++] = (top_task){kid, 0, t.depth + 1};
    }
    return next;
}

static void split_tops_task(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    qtop_pass* p = context;
    for (uint32_t k = begin; k < end; k++)
        split_tops(p, p->deferred[k].task, p->deferred[k].next, p->stacks + worker * ((size_t)p->max_depth + 2), 0);
}

/* A group of the clustered build: its root node (a leaf of the top tree), its records and its depth. */
typedef struct qgroup {
    uint32_t node, begin, count, depth;
} qgroup;

/* Consecutive groups built by one task item. Its nodes go to a range reserved for its worst case (2 t - 2 below
 * the root of a group of t triangles), so items need not wait for each other, and move down next to the previous
 * item's afterwards: the tree is the same bytes whatever the worker count. */
typedef struct qchunk {
    uint32_t group_begin, group_end;
    uint32_t base, end; /* its nodes as built: [base, end) */
} qchunk;

typedef struct qgroups {
    qbuild* workers;
    const qgroup* groups;
    qchunk* chunks;
} qgroups;

static void build_chunks(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    qgroups* p = context;
    /* copies on this worker's stack: the workers' structs share cache lines, and the builder writes its node
     * cursor for every node; the grid, read for every node, sits among the first worker's locals */
    qbuild q = p->workers[worker];
    qgrid g = *q.g;
    q.g = &g;
    for (uint32_t c = begin; c < end; c++) {
        qchunk* ch = &p->chunks[c];
        q.node_count = ch->base;
        for (uint32_t k = ch->group_begin; k < ch->group_end; k++) {
            const qgroup* gr = &p->groups[k];
            build_range(&q, gr->node, gr->begin, gr->count, gr->depth);
        }
        ch->end = q.node_count;
    }
    p->workers[worker].depth = q.depth;
}

/* Chunk c's nodes as built start `shift` nodes above their final place: the links into them (their groups' roots')
 * shift too. Plain AABB trees leave the move to snug_bvh_finish's copy of every node (b->block_src); other trees
 * move them here. */
static void shift_chunk(snug_build* b, const qgroup* groups, const qchunk* ch, uint32_t shift, bool move) {
    for (uint32_t k = ch->group_begin; k < ch->group_end; k++) {
        snug_node* root = &b->nodes[groups[k].node];
        if (SNUG_NODE_CHILDREN(root->info)) root->first -= shift;
    }
    if (move) snug_build_move_nodes(b, ch->base, ch->end - ch->base, ch->base - shift);
}

/* The whole tree: top levels over clusters, then the groups' subtrees through the context's task hooks. Layout:
 * the top tree's nodes first (children after their parents), then each group's subtree in group order. false
 * when out of memory. */
static bool build_clustered(snug_ctx* ctx, qbuild* workers, uint32_t n, uint32_t* code, uint32_t parts) {
    qbuild* q = &workers[0];
    snug_build* b = q->b;
    const snug_bvh_def* def = b->in.def;
    qcluster* cl;
    uint32_t m = make_clusters(ctx, q, n, code, parts, &cl);
    if (!m) return false;
    qtop* tops = snug_alloc(ctx, 2 * (size_t)m * sizeof *tops);
    /* a stack per worker (one pending right child per level) */
    top_task* stack = snug_alloc(ctx, snug_ctx_workers(ctx) * ((size_t)def->max_depth + 2) * sizeof *stack);
    qdeferred* deferred = snug_alloc(ctx, (size_t)m * sizeof *deferred); /* a subtree has a cluster at least */
    qgroup* groups = snug_alloc(ctx, (size_t)m * sizeof *groups);
    /* chunks of about n / (64 W) triangles: the last one claimed is the tail the other workers wait through */
    uint32_t chunk_max = snug_ctx_workers(ctx) > 1 ? 64 * snug_ctx_workers(ctx) : 1;
    qchunk* chunks = snug_alloc(ctx, (size_t)chunk_max * sizeof *chunks);
    b->blocks = snug_alloc(ctx, (3 * (size_t)chunk_max + 1) * sizeof *b->blocks); /* blocks, block_src, leaves */
    bool ok = tops && stack && deferred && groups && chunks && b->blocks;
    if (ok) {
        /* the top tree over clusters: its first levels here, the subtrees below them over the workers */
        uint32_t workers_n = snug_ctx_workers(ctx);
        qtop_pass tp = {q->g, cl, m, tops, def->max_depth, stack, deferred, 0};
        tops[0] = (qtop){0, m, n, 0};
        uint32_t top_count = split_tops(&tp, (top_task){0, 0, 1}, 1, stack, workers_n > 1 ? n / (8 * workers_n) : 0);
        for (uint32_t k = 0; k < tp.deferred_count; k++) {
            deferred[k].next = top_count; /* its worst case: 2 c - 2 nodes below a root of c clusters */
            top_count += 2 * tops[deferred[k].task.top].count - 2;
        }
        snug_parallel_for(ctx, tp.deferred_count, 1, split_tops_task, &tp);
        /* records into slot order: clusters in top-tree order (their new places in the free scratch half) */
        uint32_t at = 0;
        for (uint32_t k = 0; k < m; k++) {
            cl[m + k].first = at;
            at += cl[k].count;
        }
        qsort_pass copy = {.src = q->buf[1], .dst = q->buf[0], .clusters = cl, .cluster_count = m};
        snug_parallel_for(ctx, m, 256, qcluster_copy, &copy);
        for (uint32_t k = 0; k < m; k++) cl[k].first = cl[m + k].first;
        /* the top tree's nodes depth-first, its leaves become the groups */
        uint32_t group_count = 0;
        int sp = 0;
        stack[sp++] = (top_task){0, 0, 1};
        while (sp > 0) {
            top_task t = stack[--sp];
            const qtop* nd = &tops[t.top];
            uint32_t begin = cl[nd->first].first;
            if (!nd->kids) {
                groups[group_count++] = (qgroup){t.node, begin, nd->tris, t.depth};
                continue;
            }
            b->range_first[t.node] = begin;
            b->range_count[t.node] = nd->tris;
            if (t.depth > q->depth) q->depth = t.depth;
            uint32_t child = q->node_count;
            q->node_count += 2;
            b->nodes[t.node].first = child;
            b->nodes[t.node].info = SNUG_NODE_INFO(2, 0, 0);
            stack[sp++] = (top_task){nd->kids + 1, child + 1, t.depth + 1};
            stack[sp++] = (top_task){nd->kids, child, t.depth + 1};
        }
        /* chunks of about equal triangle counts, each at its worst-case base */
        const uint32_t top_nodes = q->node_count;
        uint32_t chunk_count = 0, reserved = top_nodes, done = 0;
        for (uint32_t k = 0; k < group_count; k++) {
            if (chunk_count == 0 || (uint64_t)done * chunk_max >= (uint64_t)n * chunk_count) {
                if (chunk_count) chunks[chunk_count - 1].group_end = k;
                chunks[chunk_count++] = (qchunk){k, group_count, reserved, reserved};
            }
            done += groups[k].count;
            reserved += 2 * groups[k].count - 2;
        }
        qgroups work = {workers, groups, chunks};
        snug_parallel_for(ctx, chunk_count, 1, build_chunks, &work);
        /* chunks down next to each other; each is a block of whole subtrees for snug_bvh_finish */
        bool plain = snug_build_plain_aabb(def);
        at = top_nodes;
        b->block_count = chunk_count;
        b->block_src = plain ? b->blocks + chunk_count + 1 : NULL;
        b->block_leaves = b->blocks + 2 * chunk_count + 1;
        for (uint32_t c = 0; c < chunk_count; c++) {
            b->blocks[c] = at;
            if (plain) b->block_src[c] = chunks[c].base;
            shift_chunk(b, groups, &chunks[c], chunks[c].base - at, !plain);
            at += chunks[c].end - chunks[c].base;
        }
        b->blocks[chunk_count] = at;
        q->node_count = at;
    }
    snug_free(ctx, cl);
    snug_free(ctx, tops);
    snug_free(ctx, stack);
    snug_free(ctx, deferred);
    snug_free(ctx, groups);
    snug_free(ctx, chunks);
    return ok;
}

snug_status snug_bvh_build_sah_binary(snug_ctx* ctx, snug_build* b, uint32_t tri_count) {
    const snug_bvh_def* def = b->in.def;
    bool clustered = tri_count >= snug_sah_cluster_min;
    uint32_t worker_count = clustered ? snug_ctx_workers(ctx) : 1;
    size_t slots = (size_t)def->max_depth + 3;
    qbuild* workers = snug_calloc(ctx, worker_count, sizeof *workers);
    qtask* stacks = snug_alloc(ctx, worker_count * slots * sizeof *stacks);
    qbins* bins = snug_alloc(ctx, worker_count * (slots + 1) * sizeof *bins);
    /* cluster codes, then per part of the counting sort the cells' counts (a part's table is 1 MB to clear and
     * sum: a part per worker, up to four, and per 64k triangles) */
    uint32_t parts = worker_count < 4 ? worker_count : 4;
    if (parts > tri_count / 65536 + 1) parts = tri_count / 65536 + 1;
    uint32_t* code = clustered ? snug_alloc(ctx, ((size_t)tri_count + (size_t)parts * CLUSTER_CELLS) * sizeof *code) : NULL;
    if (!workers || !stacks || !bins || (clustered && !code)) {
        snug_free(ctx, workers);
        snug_free(ctx, stacks);
        snug_free(ctx, bins);
        snug_free(ctx, code);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "builder stack");
    }
    const uint32_t leaf_size = def->leaf_size;
    qgrid g;
    /* the float scratch records (32 bytes per triangle) hold both 16-byte record buffers */
    qprim* buf0 = (qprim*)b->in.tmp;
    quantize_grid(b, &g);
    quantize_all(ctx, b, tri_count, &g, buf0, code);
    qprim any = qbox_of(buf0, 1);
    for (uint32_t w = 0; w < worker_count; w++) {
        qbuild* q = &workers[w];
        *q = (qbuild){.b = b, .g = &g, .stack = stacks + w * slots, .bins = bins + w * (slots + 1)};
        /* nodes this small are leaves or swept, so their records need no bins */
        q->unbinned = leaf_size > SWEEP_MAX ? leaf_size : SWEEP_MAX;
        q->buf[0] = buf0;
        q->buf[1] = buf0 + tri_count;
        qbins_init(&q->bins[slots], &g, 1, 0, &any);
    }
    workers[0].node_count = 1;
    bool ok = true;
    if (clustered) ok = build_clustered(ctx, workers, tri_count, code, parts);
    else build_range(&workers[0], 0, 0, tri_count, 1);
    b->node_count = workers[0].node_count;
    for (uint32_t w = 0; w < worker_count; w++)
        if (workers[w].depth > b->depth) b->depth = workers[w].depth;
    snug_free(ctx, workers);
    snug_free(ctx, stacks);
    snug_free(ctx, bins);
    snug_free(ctx, code);
    if (!ok) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "clusters of %u triangles", tri_count);
    /* inner boxes bottom-up (children follow their parents; the leaves have theirs); plain AABB trees get
     * them in snug_bvh_finish's pass over the nodes */
    b->inner_boxes_pending = snug_build_plain_aabb(def);
    for (uint32_t i = b->node_count; !b->inner_boxes_pending && i-- > 0;) {
        snug_node* n = &b->nodes[i];
        if (!SNUG_NODE_CHILDREN(n->info)) continue;
        const snug_node* c = &b->nodes[n->first];
        glm_vec3_minv((float*)c[0].min, (float*)c[1].min, n->min);
        glm_vec3_maxv((float*)c[0].max, (float*)c[1].max, n->max);
    }
    /* plain AABB trees read no triangle records after this: the slot order stays in in.ids */
    b->slots_in_ids = def->bv_type == SNUG_BV_AABB && def->measure != SNUG_MEASURE_HAUSDORFF && !def->hausdorff;
    if (!b->slots_in_ids) {
        /* slot order for the float boxes (what the BV fits read): one gather into the freed record buffers */
        snug_prim* slot_prims = b->in.tmp;
        for (uint32_t s = 0; s < tri_count; s++) slot_prims[s] = b->prims[b->in.ids[s]];
        b->in.tmp = b->prims;
        b->prims = slot_prims;
    }
    return SNUG_OK;
}
