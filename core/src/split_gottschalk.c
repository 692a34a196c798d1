/* Modified Gottschalk (seed 000 §3.7.5): the Table 3.1 seed points in the node's covariance OBB, each face to the
 * Voronoi region of the nearest seed by its midpoint; degree 2..6. Empty regions are dropped.
 *
 * Two passes over the faces: the moments give the axes, one projection pass gives the box and, per face, the
 * sum of its corners' projections (3 x its midpoint's). The box only steers the split, so it needs none of the
 * fit's padding. For degree 2 the seeds are c -+ a/2 (a: the longest axis at half extent), whose Voronoi regions
 * are the two sides of the plane through c normal to a, so the stored projections decide the side and one
 * stable partition pass moves the records.
 *
 * Scratch while a call runs: the moments pass gathers the corners of each full group of four faces once, as nine
 * lane vectors (corner c, coordinate i, relative to the first vertex), and leaves them in the builder's scratch:
 * vectors 0..7 in the records tmp[4g .. 4g+3] (128 bytes), the ninth in dist[4g .. 4g+3]. The projection pass
 * reads them back and overwrites vectors 0..2 with the three midpoint sums. Faces after the last full group are
 * gathered again and keep their sums in tmp[k].min. */
#include "bvh_build.h"
#include "obb_fit.h"

#include <string.h>

static float* group_vec(snug_split_in* in, uint32_t g, int j) {
    return j < 8 ? (float*)(in->tmp + 4 * g) + 4 * j : in->dist + 4 * g;
}

/* corner c of record k: from the corner records when the builder keeps them (split.h), else through the index
 * buffer */
static const float* corner(const snug_split_in* in, const snug_prim* prims, uint32_t k, int c) {
    return in->corners ? in->corners + 12 * (size_t)k + 4 * c : in->positions + 3 * in->tris[3 * prims[k].id + (uint32_t)c];
}

static uint32_t record_id(const snug_split_in* in, const snug_prim* prims, uint32_t k) {
    if (!in->corners) return prims[k].id;
    uint32_t id;
    memcpy(&id, in->corners + 12 * (size_t)k + 3, sizeof id);
    return id;
}

/* lanes (a, b) as [a0 b0 a1 b1] (hi: [a2 b2 a3 b3]) and halves (a, b) as [a0 a1 b0 b1] (hi: [a2 a3 b2 b3]) */
#if defined(__wasm_simd128__)
#define UNPACK_LO(a, b) wasm_i32x4_shuffle(a, b, 0, 4, 1, 5)
#define UNPACK_HI(a, b) wasm_i32x4_shuffle(a, b, 2, 6, 3, 7)
#define HALVES_LO(a, b) wasm_i32x4_shuffle(a, b, 0, 1, 4, 5)
#define HALVES_HI(a, b) wasm_i32x4_shuffle(a, b, 2, 3, 6, 7)
#elif defined(__SSE2__) || defined(_M_X64)
#define UNPACK_LO(a, b) _mm_unpacklo_ps(a, b)
#define UNPACK_HI(a, b) _mm_unpackhi_ps(a, b)
#define HALVES_LO(a, b) _mm_movelh_ps(a, b)
#define HALVES_HI(a, b) _mm_movehl_ps(b, a)
#else
static inline f4 f4_pick(f4 a, f4 b, int i0, int i1, int i2, int i3) {
    const float ab[8] = {a.v[0], a.v[1], a.v[2], a.v[3], b.v[0], b.v[1], b.v[2], b.v[3]};
    f4 r = {{ab[i0], ab[i1], ab[i2], ab[i3]}};
    return r;
}
#define UNPACK_LO(a, b) f4_pick(a, b, 0, 4, 1, 5)
#define UNPACK_HI(a, b) f4_pick(a, b, 2, 6, 3, 7)
#define HALVES_LO(a, b) f4_pick(a, b, 0, 1, 4, 5)
#define HALVES_HI(a, b) f4_pick(a, b, 2, 3, 6, 7)
#endif

/* the nine lane vectors v[c][i] (corner c, coordinate i of the four records, relative to r) of four consecutive
 * corner records: three 4x4 transposes instead of 36 scalar gathers */
static inline void corners_transpose(const float* rec, const f4 r[3], f4 v[3][3]) {
    for (int c = 0; c < 3; c++) {
        f4 r0 = F4_LOAD(rec + 4 * c), r1 = F4_LOAD(rec + 12 + 4 * c), r2 = F4_LOAD(rec + 24 + 4 * c),
           r3 = F4_LOAD(rec + 36 + 4 * c);
        f4 t0 = UNPACK_LO(r0, r1), t1 = UNPACK_LO(r2, r3), t2 = UNPACK_HI(r0, r1), t3 = UNPACK_HI(r2, r3);
        v[c][0] = F4_SUB(HALVES_LO(t0, t1), r[0]);
        v[c][1] = F4_SUB(HALVES_HI(t0, t1), r[1]);
        v[c][2] = F4_SUB(HALVES_LO(t2, t3), r[2]);
    }
}

/* Side of face k (1 = right: its midpoint sum on axis a exceeds plane); full groups of four are compared four at
 * a time, the comparison bits kept in *bits for the group's other three faces. */
static inline uint32_t face_side(snug_split_in* in, uint32_t k, uint32_t full, int a, f4 plane4, float plane,
                                 int* bits) {
    if (k >= 4 * full) return in->tmp[k].min[a] > plane;
    if ((k & 3) == 0) *bits = F4_BITS(F4_LT(plane4, F4_LOAD(group_vec(in, k / 4, a))));
    return (uint32_t)(*bits >> (k & 3)) & 1u;
}

/* the two sides' boxes out of their lane accumulators (lane 3 dropped) */
static void side_boxes(const f4 lo[2], const f4 hi[2], snug_aabb boxes[2]) {
    for (int sd = 0; sd < 2; sd++) {
        float l[4], h[4];
        F4_STORE(l, lo[sd]);
        F4_STORE(h, hi[sd]);
        memcpy(boxes[sd].min, l, sizeof boxes[sd].min);
        memcpy(boxes[sd].max, h, sizeof boxes[sd].max);
    }
}

static uint32_t side_bits_count(uint32_t bits) {
    return (bits & 1u) + (bits >> 1 & 1u) + (bits >> 2 & 1u) + (bits >> 3 & 1u);
}

/* partition2 on the corner records (split.h) instead of the prims: the same sides, order and boxes (a face's
 * box taken as the builder takes it: min(c2, min(c0, c1)), max(c2, max(c1, c0))). The records go from
 * in->corners to in->corners_tmp (the children's records live there: the builder swaps the two), each with one
 * store at its final place, as the left part's size is counted first. */
static uint32_t partition2_corners(snug_split_in* in, uint32_t count, int a, float plane, snug_aabb boxes[2]) {
    uint32_t left = 0, right = 0, full = count / 4;
    f4 plane4 = F4_SET1(plane), lo[2] = {F4_SET1(INFINITY), F4_SET1(INFINITY)}, hi[2] = {F4_SET1(-INFINITY), F4_SET1(-INFINITY)};
    int bits = 0;
    const float* rec = in->corners;
    uint32_t rights = 0;
    for (uint32_t g = 0; g < full; g++) rights += side_bits_count((uint32_t)F4_BITS(F4_LT(plane4, F4_LOAD(group_vec(in, g, a)))));
    for (uint32_t k = 4 * full; k < count; k++) rights += in->tmp[k].min[a] > plane;
    float *to_left = in->corners_tmp, *to_right = in->corners_tmp + 12 * (size_t)(count - rights);
    for (uint32_t k = 0; k < count; k++) {
        uint32_t side = face_side(in, k, full, a, plane4, plane, &bits);
        const float* q = rec + 12 * (size_t)k;
        f4 c0 = F4_LOAD(q), c1 = F4_LOAD(q + 4), c2 = F4_LOAD(q + 8);
        lo[side] = F4_MIN(lo[side], F4_MIN(c2, F4_MIN(c0, c1)));
        hi[side] = F4_MAX(hi[side], F4_MAX(c2, F4_MAX(c1, c0)));
        float* to = side ? to_right + 12 * (size_t)right : to_left + 12 * (size_t)left;
        F4_STORE(to, c0), F4_STORE(to + 4, c1), F4_STORE(to + 8, c2);
        right += side;
        left += 1 - side;
    }
    side_boxes(lo, hi, boxes);
    return left;
}

/* Records [0, count) stably to [left | right] with both parts' boxes: a face goes right when its midpoint sum on
 * axis `a` exceeds `plane`. The side is random, so no branch: each record is written to both places, one count
 * advances and the box of its side grows (lane 3 of the box loads is id/label, dropped); a group's four sides are
 * read before any of its scratch is overwritten (writes go to tmp[right], right <= k). */
static uint32_t partition2(snug_split_in* in, snug_prim* prims, uint32_t count, int a, float plane, snug_aabb boxes[2]) {
    uint32_t left = 0, right = 0, full = count / 4;
    f4 plane4 = F4_SET1(plane), lo[2] = {F4_SET1(INFINITY), F4_SET1(INFINITY)}, hi[2] = {F4_SET1(-INFINITY), F4_SET1(-INFINITY)};
    int bits = 0;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t side = face_side(in, k, full, a, plane4, plane, &bits);
        snug_prim p = prims[k];
        lo[side] = F4_MIN(lo[side], F4_LOAD(p.min));
        hi[side] = F4_MAX(hi[side], F4_LOAD(p.max));
        in->tmp[right] = p;
        prims[left] = p; /* left <= k: that record was read already */
        right += side;
        left += 1 - side;
    }
    memcpy(prims + left, in->tmp, right * sizeof *prims);
    side_boxes(lo, hi, boxes);
    return left;
}

static double lanes_sum(f4 x) {
    float l[4];
    F4_STORE(l, x);
    return ((double)l[0] + l[1]) + ((double)l[2] + l[3]);
}

/* The node's moments (obb_fit.h) four faces at a time in float lanes, relative to ref (a float difference is
 * the node-sized result rounded once), summed in float for at most 64 steps and then in double. They only
 * steer the split, so float precision is plenty. Missing lanes of the last step repeat ref: zero area. */
static void node_moments(snug_split_in* in, const snug_prim* prims, uint32_t count, const float* ref,
                         snug_obb_moments* mo) {
    f4 r[3] = {F4_SET1(ref[0]), F4_SET1(ref[1]), F4_SET1(ref[2])}, zero = F4_SET1(0.0f);
    memset(mo, 0, sizeof *mo);
    for (uint32_t k = 0; k < count;) {
        /* named accumulators, not an array: wasm would keep a looped-over array in memory */
        struct {
            f4 a, mx, my, mz, xx, yy, zz, xy, xz, yz;
        } acc = {zero, zero, zero, zero, zero, zero, zero, zero, zero, zero};
        for (int step = 0; step < 64 && k < count; step++, k += 4) {
            f4 v[3][3], sum[3], e1[3], e2[3];
            if (k + 4 <= count && in->corners) {
                corners_transpose(in->corners + 12 * (size_t)k, r, v);
            } else {
                const float* p[4][3]; /* lane, corner */
                for (int l = 0; l < 4; l++)
                    for (int c = 0; c < 3; c++) p[l][c] = k + (uint32_t)l < count ? corner(in, prims, k + (uint32_t)l, c) : ref;
                for (int c = 0; c < 3; c++)
                    for (int i = 0; i < 3; i++) /* built in registers (a store + wide load would stall forwarding) */
                        v[c][i] = F4_SUB(F4_LOAD(((const float[4]){p[0][c][i], p[1][c][i], p[2][c][i], p[3][c][i]})), r[i]);
            }
            if (k + 4 <= count)
                for (int j = 0; j < 9; j++) F4_STORE(group_vec(in, k / 4, j), v[j / 3][j % 3]);
            for (int i = 0; i < 3; i++) {
                sum[i] = F4_ADD(F4_ADD(v[0][i], v[1][i]), v[2][i]);
                e1[i] = F4_SUB(v[1][i], v[0][i]);
                e2[i] = F4_SUB(v[2][i], v[0][i]);
            }
            f4 nx = F4_SUB(F4_MUL(e1[1], e2[2]), F4_MUL(e1[2], e2[1]));
            f4 ny = F4_SUB(F4_MUL(e1[2], e2[0]), F4_MUL(e1[0], e2[2]));
            f4 nz = F4_SUB(F4_MUL(e1[0], e2[1]), F4_MUL(e1[1], e2[0]));
            f4 a2 = F4_SQRT(F4_ADD(F4_ADD(F4_MUL(nx, nx), F4_MUL(ny, ny)), F4_MUL(nz, nz))); /* 2 area */
            acc.a = F4_ADD(acc.a, a2);
            acc.mx = F4_ADD(acc.mx, F4_MUL(a2, sum[0]));
            acc.my = F4_ADD(acc.my, F4_MUL(a2, sum[1]));
            acc.mz = F4_ADD(acc.mz, F4_MUL(a2, sum[2]));
            /* 2 area x (sum_i v_i v_i^T + sum sum^T), entry (i, j) */
#define SECOND(i, j)                                                                                            \
    F4_MUL(a2, F4_ADD(F4_ADD(F4_MUL(v[0][i], v[0][j]), F4_MUL(v[1][i], v[1][j])),                               \
                      F4_ADD(F4_MUL(v[2][i], v[2][j]), F4_MUL(sum[i], sum[j]))))
            acc.xx = F4_ADD(acc.xx, SECOND(0, 0));
            acc.yy = F4_ADD(acc.yy, SECOND(1, 1));
            acc.zz = F4_ADD(acc.zz, SECOND(2, 2));
            acc.xy = F4_ADD(acc.xy, SECOND(0, 1));
            acc.xz = F4_ADD(acc.xz, SECOND(0, 2));
            acc.yz = F4_ADD(acc.yz, SECOND(1, 2));
#undef SECOND
        }
        /* area = a2 / 2, area x centroid = a2 sum / 6, second moments = a2 (...) / 24 (as products: divisions
         * cost a lot more, and these only steer) */
        const double sixth = 1.0 / 6.0, q24 = 1.0 / 24.0;
        mo->area += 0.5 * lanes_sum(acc.a);
        mo->m[0] += lanes_sum(acc.mx) * sixth;
        mo->m[1] += lanes_sum(acc.my) * sixth;
        mo->m[2] += lanes_sum(acc.mz) * sixth;
        mo->s[0] += lanes_sum(acc.xx) * q24;
        mo->s[1] += lanes_sum(acc.yy) * q24;
        mo->s[2] += lanes_sum(acc.zz) * q24;
        mo->s[3] += lanes_sum(acc.xy) * q24;
        mo->s[4] += lanes_sum(acc.xz) * q24;
        mo->s[5] += lanes_sum(acc.yz) * q24;
    }
}

/* Axes when the covariance has none to give: no area (vertex covariance) or the refined axes: the general fit */
static void general_axes(snug_split_in* in, const snug_prim* prims, uint32_t count, mat3 axes) {
    for (uint32_t k = 0; k < count; k++) in->ids[k] = record_id(in, prims, k);
    snug_tri_set set = {in->positions, in->tris, in->ids, 0, count};
    snug_obb box;
    snug_obb_fit(&set, in->def->obb_refine, &box);
    memcpy(axes, box.axes, sizeof box.axes);
}

static void basis_axes(const double V[3][3], mat3 axes) {
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < 3; i++) axes[a][i] = (float)V[a][i];
}

/* The node's axes: its moments pass (which leaves the corner scratch for split_with_axes) and the covariance
 * basis. Returns false, with no axes set, when the general fit has to give them. */
static bool node_axes_begin(snug_split_in* in, const snug_prim* prims, uint32_t count, snug_obb_moments* mo) {
    node_moments(in, prims, count, corner(in, prims, 0, 0), mo);
    return mo->area > 0.0 && !in->def->obb_refine;
}

static void node_axes(snug_split_in* in, const snug_prim* prims, uint32_t count, mat3 axes) {
    snug_obb_moments mo;
    if (!node_axes_begin(in, prims, count, &mo)) {
        general_axes(in, prims, count, axes);
        return;
    }
    double V[3][3];
    snug_obb_moments_basis(&mo, V);
    basis_axes(V, axes);
}

/* The split along the node's axes (after its moments pass); with `node` set, also the node's OBB: the covariance
 * box with the padded extents of the same projection pass (obb_fit.h). Degree 0: only that OBB (leaves), the
 * records stay as they are. */
static int split_with_axes(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                           snug_aabb* boxes, snug_obb* node, const mat3 axes) {
    snug_obb box;
    memcpy(box.axes, axes, sizeof box.axes);
    /* projections relative to ref, the full groups from the scratch (lanes = faces), the rest gathered (lanes =
     * axes) */
    const float* ref = corner(in, prims, 0, 0);
    f4 ax[3][3], glo[3], ghi[3];
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 3; i++) ax[k][i] = F4_SET1(box.axes[k][i]);
        glo[k] = F4_SET1(INFINITY);
        ghi[k] = F4_SET1(-INFINITY);
    }
    uint32_t full = count / 4;
    for (uint32_t g = 0; g < full; g++) {
        f4 v[9];
        for (int j = 0; j < 9; j++) v[j] = F4_LOAD(group_vec(in, g, j));
        for (int k = 0; k < 3; k++) {
            f4 d[3];
            for (int c = 0; c < 3; c++)
                d[c] = F4_ADD(F4_ADD(F4_MUL(ax[k][0], v[3 * c]), F4_MUL(ax[k][1], v[3 * c + 1])), F4_MUL(ax[k][2], v[3 * c + 2]));
            glo[k] = F4_MIN(glo[k], F4_MIN(F4_MIN(d[0], d[1]), d[2]));
            ghi[k] = F4_MAX(ghi[k], F4_MAX(F4_MAX(d[0], d[1]), d[2]));
            F4_STORE(group_vec(in, g, k), F4_ADD(F4_ADD(d[0], d[1]), d[2]));
        }
    }
    snug_obb_ranges r;
    snug_obb_ranges_init(&r, box.axes);
    for (uint32_t k = 4 * full; k < count; k++) {
        f4 d[3];
        for (int c = 0; c < 3; c++) {
            const float* q = corner(in, prims, k, c);
            float rel[3] = {q[0] - ref[0], q[1] - ref[1], q[2] - ref[2]};
            d[c] = snug_obb_ranges_project(&r, rel);
        }
        r.lo = F4_MIN(r.lo, F4_MIN(F4_MIN(d[0], d[1]), d[2]));
        r.hi = F4_MAX(r.hi, F4_MAX(F4_MAX(d[0], d[1]), d[2]));
        float sum[4];
        F4_STORE(sum, F4_ADD(F4_ADD(d[0], d[1]), d[2]));
        memcpy(in->tmp[k].min, sum, sizeof in->tmp[k].min);
    }
    float lo[4], hi[4];
    F4_STORE(lo, r.lo);
    F4_STORE(hi, r.hi);
    for (int k = 0; k < 3; k++) {
        float gl[4], gh[4];
        F4_STORE(gl, glo[k]);
        F4_STORE(gh, ghi[k]);
        for (int l = 0; l < 4; l++) lo[k] = gl[l] < lo[k] ? gl[l] : lo[k], hi[k] = gh[l] > hi[k] ? gh[l] : hi[k];
    }
    if (node) {
        r.lo = F4_LOAD(lo);
        r.hi = F4_LOAD(hi);
        memcpy(node->axes, box.axes, sizeof node->axes);
        snug_obb_ranges_finish(&r, ref, node);
    }
    if (degree == 0) return 0;
    vec3 mid, half;
    for (int a = 0; a < 3; a++) mid[a] = 0.5f * (lo[a] + hi[a]), half[a] = 0.5f * (hi[a] - lo[a]);
    if (degree == 2) {
        /* the longest axis as snug_split_seed_points picks it; ties go to the first seed (left) as in the
         * Voronoi assignment */
        int a = 0;
        if (half[1] > half[a]) a = 1;
        if (half[2] > half[a]) a = 2;
        uint32_t left = in->corners ? partition2_corners(in, count, a, 3.0f * mid[a], boxes)
                                    : partition2(in, prims, count, a, 3.0f * mid[a], boxes);
        if (left == 0 || left == count) return 1;
        sizes[0] = left;
        sizes[1] = count - left;
        return 2;
    }
    vec3 c; /* back from ref-relative coordinates */
    glm_vec3_copy((float*)ref, c);
    for (int a = 0; a < 3; a++) glm_vec3_muladds(box.axes[a], mid[a], c);
    vec3 seeds[SNUG_MAX_BRANCHING];
    snug_split_seed_points(c, box.axes, half, degree, seeds);
    return snug_split_voronoi(in, prims, count, seeds, degree, sizes, boxes);
}

int snug_split_gottschalk(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                          snug_aabb* boxes) {
    if (count < 2) return 0;
    mat3 axes;
    node_axes(in, prims, count, axes);
    return split_with_axes(in, prims, count, degree, sizes, boxes, NULL, axes);
}

void snug_split_gottschalk_axes(snug_split_in* in, const snug_prim* prims, uint32_t count, mat3 axes) {
    node_axes(in, prims, count, axes);
}

void snug_split_gottschalk_axes2(snug_split_in* in, const snug_prim* prims, uint32_t n0, uint32_t n1, mat3 axes[2]) {
    /* the second node's scratch lies in its own records' range, so the first node's survives until its split */
    snug_split_in in1 = *in;
    in1.tmp += n0, in1.dist += n0, in1.ids += n0;
    if (in1.corners) in1.corners += 12 * (size_t)n0, in1.corners_tmp += 12 * (size_t)n0;
    snug_obb_moments m0, m1;
    bool ok0 = node_axes_begin(in, prims, n0, &m0), ok1 = node_axes_begin(&in1, prims + n0, n1, &m1);
    if (ok0 && ok1) {
        double V0[3][3], V1[3][3];
        snug_obb_moments_basis_pair(&m0, &m1, V0, V1);
        basis_axes(V0, axes[0]);
        basis_axes(V1, axes[1]);
        return;
    }
    double V[3][3];
    if (ok0) snug_obb_moments_basis(&m0, V), basis_axes(V, axes[0]);
    else general_axes(in, prims, n0, axes[0]);
    if (ok1) snug_obb_moments_basis(&m1, V), basis_axes(V, axes[1]);
    else general_axes(&in1, prims + n0, n1, axes[1]);
}

int snug_split_gottschalk_obb(snug_split_in* in, snug_prim* prims, uint32_t count, const mat3 axes, uint32_t* sizes,
                              snug_aabb* boxes, snug_obb* node) {
    return split_with_axes(in, prims, count, sizes ? 2 : 0, sizes, boxes, node, axes);
}
