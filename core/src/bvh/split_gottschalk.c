/* Modified Gottschalk (seed 000 §3.7.5): the Table 3.1 seed points in the node's covariance OBB, each face to the
 * Voronoi region of the nearest seed by its midpoint; degree 2..6. Empty regions are dropped.
 *
 * Two passes over the faces: the moments give the axes, one projection pass gives the box and, per face, the
 * sum of its corners' projections (3 x its midpoint's). The box only steers the split, so it needs none of the
 * fit's padding. For degree 2 the seeds are c -+ a/2 (a: the longest axis at half extent), whose Voronoi regions
 * are the two sides of the plane through c normal to a, so the stored projections decide the side and one
 * stable partition pass moves the records.
 *
 * The moments pass adds each face's own moments (face_moments4: area, centroid offset from corner 0, second
 * moments about the centroid) shifted to the node's reference point; the OBB builder keeps those in its corner
 * records (obb_fit.h), so a node costs a few vector operations per face instead of the triangle's moments from
 * its corners at every level. The projection pass takes four faces at a time (the last group padded with its
 * first face) and leaves each full group's three midpoint sums in the builder's scratch records tmp[4g ..] (as
 * lane vectors), the last partial group's in a local block (group_vec). */
#include "bvh/bvh_build.h"
#include "geom/obb_fit.h"

#include <string.h>

/* Midpoint sums on axis j of the faces 4g .. 4g+3 (lanes = faces): in the group's first scratch records for full
 * groups (a partition writing tmp[right], right <= k, has read them), in `tail` (12 floats) for the last partial
 * one, whose scratch may lie past the node's. */
static float* group_vec(snug_split_in* in, uint32_t g, uint32_t full, float* tail, int j) {
    return (g < full ? (float*)(in->tmp + 4 * g) : tail) + 4 * j;
}

/* corner c of record k: from the corner records when the builder keeps them (split.h), else through the index
 * buffer */
static const float* corner(const snug_split_in* in, const snug_prim* prims, uint32_t k, int c) {
    return in->corners ? in->corners + SNUG_OBB_RECORD * (size_t)k + 4 * c
                       : in->positions + 3 * in->tris[3 * prims[k].id + (uint32_t)c];
}

static uint32_t record_id(const snug_split_in* in, const snug_prim* prims, uint32_t k) {
    if (!in->corners) return prims[k].id;
    uint32_t id;
    memcpy(&id, in->corners + SNUG_OBB_RECORD * (size_t)k + 7, sizeof id);
    return id;
}

/* the nine lane vectors v[c][i] (corner c, coordinate i of the four records) of the corner records q0 .. q3: three
 * 4x4 transposes instead of 36 scalar gathers */
static inline void corners_rows(const float* q0, const float* q1, const float* q2, const float* q3, f4 v[3][3]) {
    for (int c = 0; c < 3; c++) {
        f4 r0 = F4_LOAD(q0 + 4 * c), r1 = F4_LOAD(q1 + 4 * c), r2 = F4_LOAD(q2 + 4 * c), r3 = F4_LOAD(q3 + 4 * c);
        f4 t0 = F4_UNPACK_LO(r0, r1), t1 = F4_UNPACK_LO(r2, r3), t2 = F4_UNPACK_HI(r0, r1), t3 = F4_UNPACK_HI(r2, r3);
        v[c][0] = F4_HALVES_LO(t0, t1);
        v[c][1] = F4_HALVES_HI(t0, t1);
        v[c][2] = F4_HALVES_LO(t2, t3);
    }
}

/* the same for four consecutive records `stride` floats apart */
static inline void corners_transpose(const float* rec, size_t stride, f4 v[3][3]) {
    corners_rows(rec, rec + stride, rec + 2 * stride, rec + 3 * stride, v);
}

/* the corners' lane vectors v[c][i] of four faces (lane l: corner c of face l of the group; lanes past count
 * repeat face 0) */
static inline void corners_gather(const snug_split_in* in, const snug_prim* prims, uint32_t first, uint32_t count,
                                  f4 v[3][3]) {
    const float* p[4][3]; /* lane, corner */
    for (uint32_t l = 0; l < 4; l++)
        for (int c = 0; c < 3; c++) p[l][c] = corner(in, prims, first + (first + l < count ? l : 0), c);
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++) /* built in registers (a store + wide load would stall forwarding) */
            v[c][i] = F4_LOAD(((const float[4]){p[0][c][i], p[1][c][i], p[2][c][i], p[3][c][i]}));
}

/* rows x, y, z, w to four lane vectors (lane l of each row in out + 4 * (stride l)) */
static inline void rows_store(f4 x, f4 y, f4 z, f4 w, float* out, size_t stride) {
    f4 t0 = F4_UNPACK_LO(x, y), t1 = F4_UNPACK_LO(z, w), t2 = F4_UNPACK_HI(x, y), t3 = F4_UNPACK_HI(z, w);
    F4_STORE(out, F4_HALVES_LO(t0, t1));
    F4_STORE(out + stride, F4_HALVES_HI(t0, t1));
    F4_STORE(out + 2 * stride, F4_HALVES_LO(t2, t3));
    F4_STORE(out + 3 * stride, F4_HALVES_HI(t2, t3));
}

/* The own moments of four faces (the record lanes 12..23 of obb_fit.h) from their corners v[c][i], one face per
 * lane, written to out + stride l (12 floats each). In float relative to the face's first corner, so a face's
 * values are the same bits in every lane and on every path. */
static void face_moments4(const f4 v[3][3], float* out, size_t stride) {
    const f4 third = F4_SET1(1.0f / 3.0f), half = F4_SET1(0.5f), twelfth = F4_SET1(1.0f / 12.0f), zero = F4_SET1(0.0f);
    f4 e1[3], e2[3], o[3], p0[3], p1[3], p2[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = F4_SUB(v[1][i], v[0][i]);
        e2[i] = F4_SUB(v[2][i], v[0][i]);
        o[i] = F4_MUL(F4_ADD(e1[i], e2[i]), third);
        p0[i] = F4_SUB(zero, o[i]);
        p1[i] = F4_SUB(e1[i], o[i]);
        p2[i] = F4_SUB(e2[i], o[i]);
    }
    f4 nx = F4_SUB(F4_MUL(e1[1], e2[2]), F4_MUL(e1[2], e2[1]));
    f4 ny = F4_SUB(F4_MUL(e1[2], e2[0]), F4_MUL(e1[0], e2[2]));
    f4 nz = F4_SUB(F4_MUL(e1[0], e2[1]), F4_MUL(e1[1], e2[0]));
    f4 area = F4_MUL(half, F4_SQRT(F4_ADD(F4_ADD(F4_MUL(nx, nx), F4_MUL(ny, ny)), F4_MUL(nz, nz))));
    f4 w = F4_MUL(area, twelfth);
#define SECOND(i, j) F4_MUL(w, F4_ADD(F4_ADD(F4_MUL(p0[i], p0[j]), F4_MUL(p1[i], p1[j])), F4_MUL(p2[i], p2[j])))
    rows_store(o[0], o[1], o[2], F4_SET1(1.0f), out, stride);
    rows_store(SECOND(0, 0), SECOND(1, 1), SECOND(2, 2), area, out + 4, stride);
    rows_store(SECOND(0, 1), SECOND(1, 2), SECOND(2, 0), zero, out + 8, stride);
#undef SECOND
}

void snug_split_gottschalk_records(const snug_split_in* in, const snug_prim* prims, uint32_t count) {
    enum { R = SNUG_OBB_RECORD };
    for (uint32_t k = 0; k < count; k++) {
        float* rec = in->corners + R * (size_t)k;
        const uint32_t* t = in->tris + 3 * prims[k].id;
        for (int c = 0; c < 3; c++) memcpy(rec + 4 * c, in->positions + 3 * t[c], 3 * sizeof(float));
        rec[3] = rec[11] = 0.0f;
        memcpy(rec + 7, &prims[k].id, sizeof prims[k].id);
    }
    uint32_t full = count / 4;
    for (uint32_t g = 0; g < full; g++) {
        f4 v[3][3];
        corners_transpose(in->corners + R * (size_t)(4 * g), R, v);
        face_moments4(v, in->corners + R * (size_t)(4 * g) + 12, R);
    }
    if (4 * full < count) {
        snug_split_in from = *in; /* the last faces' corners through the index buffer (their records hold them) */
        from.corners = NULL;
        f4 v[3][3];
        float f[4 * 12];
        corners_gather(&from, prims, 4 * full, count, v);
        face_moments4(v, f, 12);
        for (uint32_t k = 4 * full; k < count; k++) memcpy(in->corners + R * (size_t)k + 12, f + 12 * (k - 4 * full), 12 * sizeof(float));
    }
}

/* sides of the group g's faces (bit l = face 4g + l is right: its midpoint sum on axis a exceeds the plane) */
static inline uint32_t group_sides(snug_split_in* in, uint32_t g, uint32_t full, float* tail, int a, f4 plane4) {
    return (uint32_t)F4_BITS(F4_LT(plane4, F4_LOAD(group_vec(in, g, full, tail, a))));
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

/* moves the record q to slot `left` or `right` of `to` by its side (no branch: the side is random) */
static inline void record_move(const float* q, float* to, uint32_t side, uint32_t* left, uint32_t* right) {
    float* d = to + SNUG_OBB_RECORD * (size_t)(*left + ((*right - *left) & (0u - side)));
    for (int j = 0; j < SNUG_OBB_RECORD; j += 4) F4_STORE(d + j, F4_LOAD(q + j));
    *right += side;
    *left += 1 - side;
}

/* partition2 on the corner records (obb_fit.h) instead of the prims: the same sides and order, no boxes (each
 * node takes its box in its own projection pass). The records go from in->corners to in->corners_tmp (the
 * children's records live there: the builder swaps the two), each with one store at its final place, as the left
 * part's size is counted first; the counting pass keeps each group's side bits (in the node's scratch ids) for the
 * moving pass, which takes full groups four records at a time. */
static uint32_t partition2_corners(snug_split_in* in, uint32_t count, float* tail, int a, float plane) {
    enum { R = SNUG_OBB_RECORD };
    uint32_t groups = (count + 3) / 4, full = count / 4, rights = 0;
    uint8_t* sides = (uint8_t*)in->ids; /* one byte per group: the node has count >= groups ids */
    f4 plane4 = F4_SET1(plane);
    for (uint32_t g = 0; g < full; g++) {
        uint32_t bits = group_sides(in, g, full, tail, a, plane4);
        sides[g] = (uint8_t)bits;
        rights += side_bits_count(bits);
    }
    uint32_t last = full < groups ? group_sides(in, full, full, tail, a, plane4) & ((1u << (count - 4 * full)) - 1u) : 0;
    rights += side_bits_count(last);
    /* destination of the next record: left part from 0, right part from count - rights */
    uint32_t left = 0, right = count - rights;
    const float* q = in->corners;
    float* to = in->corners_tmp;
    for (uint32_t g = 0; g < full; g++, q += 4 * R) {
        uint32_t bits = sides[g];
        record_move(q, to, bits & 1u, &left, &right);
        record_move(q + R, to, bits >> 1 & 1u, &left, &right);
        record_move(q + 2 * R, to, bits >> 2 & 1u, &left, &right);
        record_move(q + 3 * R, to, bits >> 3, &left, &right);
    }
    for (uint32_t l = 0; l < count - 4 * full; l++, q += R) record_move(q, to, last >> l & 1u, &left, &right);
    return left;
}

/* Records [0, count) stably to [left | right] with both parts' boxes: a face goes right when its midpoint sum on
 * axis `a` exceeds `plane`. The side is random, so no branch: each record is written to both places, one count
 * advances and the box of its side grows (lane 3 of the box loads is id/label, dropped). */
static uint32_t partition2(snug_split_in* in, snug_prim* prims, uint32_t count, float* tail, int a, float plane,
                           snug_aabb boxes[2]) {
    uint32_t left = 0, right = 0, full = count / 4;
    f4 plane4 = F4_SET1(plane), lo[2] = {F4_SET1(INFINITY), F4_SET1(INFINITY)}, hi[2] = {F4_SET1(-INFINITY), F4_SET1(-INFINITY)};
    uint32_t bits = 0;
    for (uint32_t k = 0; k < count; k++) {
        if ((k & 3) == 0) bits = group_sides(in, k / 4, full, tail, a, plane4);
        uint32_t side = bits >> (k & 3) & 1u;
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

/* adds one face's moments (its record's lanes 12..23, obb_fit.h) at corner 0 = v0 (lane 3 zero) to the node's,
 * about r (lane 3 zero): d = v0 - r + offset = [d | 1], w = area d, then am += w (area in lane 3), ad += w d +
 * diagonal, ao += w (dy, dz, dx) + off-diagonal (xy, yz, zx). */
static inline void face_add(f4 v0, const float* f, f4 r, f4* am, f4* ad, f4* ao) {
    f4 f1 = F4_LOAD(f + 4), d = F4_ADD(F4_SUB(v0, r), F4_LOAD(f)), w = F4_MUL(F4_SPLAT_W(f1), d);
    *am = F4_ADD(*am, w);
    *ad = F4_ADD(*ad, F4_ADD(F4_MUL(w, d), f1));
    *ao = F4_ADD(*ao, F4_ADD(F4_MUL(w, F4_YZXW(d)), F4_LOAD(f + 8)));
}

/* The node's moments (obb_fit.h) relative to ref: its faces' own moments shifted there (a float difference v0 -
 * ref is the node-sized result rounded once), summed in float lanes for at most 64 faces and then in double.
 * They only steer the split, so float precision is plenty. Without corner records the faces' moments are made
 * on the way, by the same function as the records' (so both paths give the same bits). */
static void node_moments(snug_split_in* in, const snug_prim* prims, uint32_t count, const float* ref,
                         snug_obb_moments* mo) {
    f4 r = F4_LOAD(((const float[4]){ref[0], ref[1], ref[2], 0.0f})), zero = F4_SET1(0.0f);
    double area = 0.0, m0 = 0.0, m1 = 0.0, m2 = 0.0, xx = 0.0, yy = 0.0, zz = 0.0, xy = 0.0, xz = 0.0, yz = 0.0;
    for (uint32_t k = 0; k < count;) {
        f4 am = zero, ad = zero, ao = zero;
        uint32_t end = count - k > 64 ? k + 64 : count; /* a multiple of four short of the end */
        if (in->corners) {
            enum { R = SNUG_OBB_RECORD };
            const float* q = in->corners + R * (size_t)k;
            for (; k + 4 <= end; k += 4, q += 4 * R) { /* four at a time, in order (the same sums) */
                face_add(F4_LOAD(q), q + 12, r, &am, &ad, &ao);
                face_add(F4_LOAD(q + R), q + R + 12, r, &am, &ad, &ao);
                face_add(F4_LOAD(q + 2 * R), q + 2 * R + 12, r, &am, &ad, &ao);
                face_add(F4_LOAD(q + 3 * R), q + 3 * R + 12, r, &am, &ad, &ao);
            }
            for (; k < end; k++, q += R) face_add(F4_LOAD(q), q + 12, r, &am, &ad, &ao);
        } else { /* four faces' own moments at a time, as the records have them */
            for (; k < end; k += 4) {
                f4 v[3][3];
                float f[4 * 12], c0[4][4];
                corners_gather(in, prims, k, count, v);
                face_moments4(v, f, 12);
                rows_store(v[0][0], v[0][1], v[0][2], zero, c0[0], 4);
                for (uint32_t l = 0; l < 4 && k + l < count; l++) face_add(F4_LOAD(c0[l]), f + 12 * l, r, &am, &ad, &ao);
            }
            k = end;
        }
        float m[4], s[4], o[4];
        F4_STORE(m, am);
        F4_STORE(s, ad);
        F4_STORE(o, ao);
        area += m[3], m0 += m[0], m1 += m[1], m2 += m[2];
        xx += s[0], yy += s[1], zz += s[2], xy += o[0], xz += o[2], yz += o[1];
    }
    /* in locals until here: wasm would clear and update the struct in memory */
    *mo = (snug_obb_moments){area, {m0, m1, m2}, {xx, yy, zz, xy, xz, yz}};
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

/* The node's axes: its moments pass and the covariance basis. Returns false, with no axes set, when the general fit has to give them. */
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

/* the lane-wise minimum / maximum of x, y, z into lanes 0, 1, 2 (lane 3: z's again) */
static inline f4 lanes_min3(f4 x, f4 y, f4 z) {
    f4 t0 = F4_UNPACK_LO(x, y), t1 = F4_UNPACK_LO(z, z), t2 = F4_UNPACK_HI(x, y), t3 = F4_UNPACK_HI(z, z);
    return F4_MIN(F4_MIN(F4_HALVES_LO(t0, t1), F4_HALVES_HI(t0, t1)), F4_MIN(F4_HALVES_LO(t2, t3), F4_HALVES_HI(t2, t3)));
}

static inline f4 lanes_max3(f4 x, f4 y, f4 z) {
    f4 t0 = F4_UNPACK_LO(x, y), t1 = F4_UNPACK_LO(z, z), t2 = F4_UNPACK_HI(x, y), t3 = F4_UNPACK_HI(z, z);
    return F4_MAX(F4_MAX(F4_HALVES_LO(t0, t1), F4_HALVES_HI(t0, t1)), F4_MAX(F4_HALVES_LO(t2, t3), F4_HALVES_HI(t2, t3)));
}

/* one group of the projection pass: the corners v (relative to the origin) on the axes ax relative to r3, into the
 * ranges glo / ghi, and the three midpoint sums (lane vectors) to out[0..11] */
static inline void project_group(f4 v[3][3], f4 ax[3][3], const f4 r3[3], f4 glo[3], f4 ghi[3], float* out) {
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++) v[c][i] = F4_SUB(v[c][i], r3[i]);
    for (int k = 0; k < 3; k++) {
        f4 d[3];
        for (int c = 0; c < 3; c++)
            d[c] = F4_ADD(F4_ADD(F4_MUL(ax[k][0], v[c][0]), F4_MUL(ax[k][1], v[c][1])), F4_MUL(ax[k][2], v[c][2]));
        glo[k] = F4_MIN(glo[k], F4_MIN(F4_MIN(d[0], d[1]), d[2]));
        ghi[k] = F4_MAX(ghi[k], F4_MAX(F4_MAX(d[0], d[1]), d[2]));
        F4_STORE(out + 4 * k, F4_ADD(F4_ADD(d[0], d[1]), d[2]));
    }
}

/* The split along the node's axes (after its moments pass); with `node` set, also the node's OBB: the covariance
 * box with the padded extents of the same projection pass (obb_fit.h). Degree 0: only that OBB (leaves), the
 * records stay as they are. With corner records the partition gives no boxes. */
static int split_with_axes(snug_split_in* in, snug_prim* prims, uint32_t count, int degree, uint32_t* sizes,
                           snug_aabb* boxes, snug_obb* node, const mat3 axes) {
    /* projections relative to ref four faces at a time (lanes = faces); the last group's missing lanes repeat
     * its first face */
    const float* ref = corner(in, prims, 0, 0);
    f4 ax[3][3], glo[3], ghi[3], r3[3] = {F4_SET1(ref[0]), F4_SET1(ref[1]), F4_SET1(ref[2])};
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 3; i++) ax[k][i] = F4_SET1(axes[k][i]);
        glo[k] = F4_SET1(INFINITY);
        ghi[k] = F4_SET1(-INFINITY);
    }
    uint32_t full = count / 4, groups = (count + 3) / 4;
    float tail[12];
    uint32_t g = 0;
    if (in->corners) /* full groups on their own: no path choice per group */
        for (; g < full; g++) {
            f4 v[3][3];
            corners_transpose(in->corners + SNUG_OBB_RECORD * (size_t)(4 * g), SNUG_OBB_RECORD, v);
            project_group(v, ax, r3, glo, ghi, (float*)(in->tmp + 4 * g));
        }
    for (; g < groups; g++) {
        f4 v[3][3];
        if (in->corners) { /* the last records' corners, missing ones as the first (read in place) */
            const float* rec = in->corners + SNUG_OBB_RECORD * (size_t)(4 * g);
            uint32_t n = count - 4 * g;
            corners_rows(rec, rec + (n > 1 ? SNUG_OBB_RECORD : 0), rec + (n > 2 ? 2 * SNUG_OBB_RECORD : 0), rec, v);
        } else {
            corners_gather(in, prims, 4 * g, count, v);
        }
        project_group(v, ax, r3, glo, ghi, group_vec(in, g, full, tail, 0));
    }
    snug_obb_ranges r;
    r.lo = lanes_min3(glo[0], glo[1], glo[2]);
    r.hi = lanes_max3(ghi[0], ghi[1], ghi[2]);
    if (node) {
        memcpy(node->axes, axes, sizeof node->axes);
        snug_obb_ranges_finish(&r, ref, node);
    }
    if (degree == 0) return 0;
    float lo[4], hi[4];
    F4_STORE(lo, r.lo);
    F4_STORE(hi, r.hi);
    vec3 mid, half;
    for (int a = 0; a < 3; a++) mid[a] = 0.5f * (lo[a] + hi[a]), half[a] = 0.5f * (hi[a] - lo[a]);
    if (degree == 2) {
        /* the longest axis as snug_split_seed_points picks it; ties go to the first seed (left) as in the
         * Voronoi assignment */
        int a = 0;
        if (half[1] > half[a]) a = 1;
        if (half[2] > half[a]) a = 2;
        uint32_t left = in->corners ? partition2_corners(in, count, tail, a, 3.0f * mid[a])
                                    : partition2(in, prims, count, tail, a, 3.0f * mid[a], boxes);
        if (left == 0 || left == count) return 1;
        sizes[0] = left;
        sizes[1] = count - left;
        return 2;
    }
    vec3 c; /* back from ref-relative coordinates */
    glm_vec3_copy((float*)ref, c);
    for (int a = 0; a < 3; a++) glm_vec3_muladds((float*)axes[a], mid[a], c);
    vec3 seeds[SNUG_MAX_BRANCHING];
    snug_split_seed_points(c, (vec3*)axes, half, degree, seeds);
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

/* the node's moments from its faces, about its first corner; false when its axes must come from the general fit */
static bool node_moments_direct(snug_split_in* in, const snug_prim* prims, uint32_t count, snug_obb_node_moments* nm) {
    bool ok = node_axes_begin(in, prims, count, &nm->mo);
    const float* ref = corner(in, prims, 0, 0);
    for (int i = 0; i < 3; i++) nm->ref[i] = ref[i];
    nm->err = 1.0;
    return ok;
}

void snug_split_gottschalk_node_axes(snug_split_in* in, const snug_prim* prims, uint32_t count, mat3 axes,
                                     snug_obb_node_moments* nm) {
    if (!node_moments_direct(in, prims, count, nm)) {
        general_axes(in, prims, count, axes);
        return;
    }
    double V[3][3];
    snug_obb_moments_basis(&nm->mo, V);
    basis_axes(V, axes);
}

/* Largest error bound (in units of a direct sum's) for moments derived from a parent's: a chain of derived nodes
 * may pile up one bound per level (each at most doubles it and adds one), so it is cut after a few. */
#define DERIVED_ERR_MAX 4.0

/* The moments of the parent's other child: the parent's minus the child c's (shifted to the parent's reference
 * point: with t = c.ref - p.ref, m + area t and s + m t^T + t m^T + area t t^T). Its area is the difference of two
 * sums with errors <= err_p eps A_p and eps A_c; relative to the result that is (err_p A_p + A_c) / A_o, at most
 * 2 err_p + 1 when A_o >= A_c (so A_o >= A_p / 2: the difference cancels by at most one bit). False when that
 * does not hold or the bound exceeds DERIVED_ERR_MAX. */
static bool moments_derive(const snug_obb_node_moments* p, const snug_obb_node_moments* c, snug_obb_node_moments* o) {
    const snug_obb_moments* m = &c->mo;
    double t0 = c->ref[0] - p->ref[0], t1 = c->ref[1] - p->ref[1], t2 = c->ref[2] - p->ref[2], a = m->area;
    double m0 = m->m[0] + a * t0, m1 = m->m[1] + a * t1, m2 = m->m[2] + a * t2; /* about p->ref */
    o->mo.area = p->mo.area - a;
    o->mo.m[0] = p->mo.m[0] - m0, o->mo.m[1] = p->mo.m[1] - m1, o->mo.m[2] = p->mo.m[2] - m2;
    /* s + m t^T + t m^T + a t t^T with m about c->ref: (m + a t) t^T + t m^T */
    o->mo.s[0] = p->mo.s[0] - (m->s[0] + m0 * t0 + t0 * m->m[0]);
    o->mo.s[1] = p->mo.s[1] - (m->s[1] + m1 * t1 + t1 * m->m[1]);
    o->mo.s[2] = p->mo.s[2] - (m->s[2] + m2 * t2 + t2 * m->m[2]);
    o->mo.s[3] = p->mo.s[3] - (m->s[3] + m0 * t1 + t0 * m->m[1]); /* xy */
    o->mo.s[4] = p->mo.s[4] - (m->s[4] + m0 * t2 + t0 * m->m[2]); /* xz */
    o->mo.s[5] = p->mo.s[5] - (m->s[5] + m1 * t2 + t1 * m->m[2]); /* yz */
    for (int i = 0; i < 3; i++) o->ref[i] = p->ref[i];
    o->err = (p->err * p->mo.area + a) / o->mo.area;
    return o->mo.area >= a && o->err <= DERIVED_ERR_MAX;
}

void snug_split_gottschalk_kids(snug_split_in* in, const snug_prim* prims, uint32_t n0, uint32_t n1,
                                const snug_obb_node_moments* parent, mat3 axes[2], snug_obb_node_moments kids[2]) {
    snug_split_in in1 = *in; /* the second node's records and scratch */
    in1.tmp += n0, in1.dist += n0, in1.ids += n0;
    if (in1.corners) in1.corners += SNUG_OBB_RECORD * (size_t)n0, in1.corners_tmp += SNUG_OBB_RECORD * (size_t)n0;
    bool ok0, ok1;
    /* the child with fewer faces from its faces, the other derived when that is accurate */
    if (n0 <= n1) {
        ok0 = node_moments_direct(in, prims, n0, &kids[0]);
        ok1 = parent->mo.area > 0.0 && moments_derive(parent, &kids[0], &kids[1]);
        if (!ok1) ok1 = node_moments_direct(&in1, prims + n0, n1, &kids[1]);
    } else {
        ok1 = node_moments_direct(&in1, prims + n0, n1, &kids[1]);
        ok0 = parent->mo.area > 0.0 && moments_derive(parent, &kids[1], &kids[0]);
        if (!ok0) ok0 = node_moments_direct(in, prims, n0, &kids[0]);
    }
    if (ok0 && ok1) {
        double V0[3][3], V1[3][3];
        snug_obb_moments_basis_pair(&kids[0].mo, &kids[1].mo, V0, V1);
        basis_axes(V0, axes[0]);
        basis_axes(V1, axes[1]);
        return;
    }
    double V[3][3];
    if (ok0) snug_obb_moments_basis(&kids[0].mo, V), basis_axes(V, axes[0]);
    else general_axes(in, prims, n0, axes[0]);
    if (ok1) snug_obb_moments_basis(&kids[1].mo, V), basis_axes(V, axes[1]);
    else general_axes(&in1, prims + n0, n1, axes[1]);
}

/* The builder's call (face records): no parts' boxes. */
int snug_split_gottschalk_obb(snug_split_in* in, snug_prim* prims, uint32_t count, const mat3 axes, uint32_t* sizes,
                              snug_obb* node) {
    return split_with_axes(in, prims, count, sizes ? 2 : 0, sizes, NULL, node, axes);
}
