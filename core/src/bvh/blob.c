/* Mesh + hierarchy blobs: serialize to a versioned, checksummed byte array and load it back without
 * rebuilding the hierarchy.
 *
 * Format (version 1, little-endian, every field 4 bytes unless noted, sections 4-byte aligned):
 *   header, 64 bytes: magic "SNUGMSH\0" (8) | version | header size (64) | total size (u64) |
 *     checksum (u64) | vertex count | triangle count | node count | flags (1 spheres, 2 OBBs, 4 k-DOPs,
 *     8 Hausdorff) | depth | leaf count | definition size (56) | reserved (0)
 *   definition: the snug_bvh_def fields in declaration order (bools as u32)
 *   positions f32[3V] | triangles u32[3T] (slot order) | triangle ids u32[T] |
 *   nodes (min f32[3], first, max f32[3], info)[N] | costs (q, qe, ce)[N] |
 *   spheres f32[4N] | OBBs f32[15N] | k-DOPs f32[26N] | Hausdorff f32[N]   (the last four if flagged)
 * The checksum is a 64-bit multiply-xor hash of every 32-bit word of the blob except the checksum itself; each
 * step is a bijection of the state, so any change of a single word is always detected.
 *
 * Loading checks, in order: magic (SNUG_ERR_BLOB_FOREIGN; a short prefix of the magic is TRUNCATED), version
 * (VERSION), size against the header (TRUNCATED when shorter, CORRUPT when longer), checksum (CORRUPT), then
 * every field (CORRUPT): counts, finite floats, vertex indices, triangle ids a permutation, node types and
 * children in range, each non-root node with exactly one parent (which precedes it), depth, leaf ranges covering
 * every slot exactly once, boxes enclosing their children and triangles, and the definition; then every node
 * volume as a build leaves it (check_volumes: subtrees on contiguous slot ranges, spheres, OBBs with orthonormal
 * axes and k-DOPs containing every vertex of their subtree, Hausdorff bounds no smaller than recomputed), and
 * every coordinate within the accepted range (snug.h). Derived mesh data
 * (scale, degenerate list) is recomputed by snug_mesh_derive, the adjacency on first use like after a create;
 * the hierarchy is not rebuilt. */
#include "bvh/mesh.h"

#include <math.h>
#include <string.h>

#define BLOB_VERSION 1u
#define HEADER_SIZE 64u
#define DEF_WORDS 14u
#define FLAG_SPHERES 1u
#define FLAG_OBBS 2u
#define FLAG_KDOPS 4u
#define FLAG_HAUSDORFF 8u
#define SPHERE_WORDS 4u
#define OBB_WORDS 15u
#define KDOP_WORDS 26u

static const unsigned char magic[8] = {'S', 'N', 'U', 'G', 'M', 'S', 'H', 0};

_Static_assert(sizeof(snug_node) == 32, "node layout");
_Static_assert(sizeof(snug_sphere) == SPHERE_WORDS * 4, "sphere layout");
_Static_assert(sizeof(snug_obb) == OBB_WORDS * 4, "obb layout");
_Static_assert(sizeof(snug_kdop) == KDOP_WORDS * 4, "kdop layout");
_Static_assert(sizeof(snug_node_cost) == 12, "cost layout");

typedef struct layout {
    uint32_t V, T, N, flags;
    uint64_t positions, tris, ids, nodes, costs, spheres, obbs, kdops, hausdorff, total; /* byte offsets */
} layout;

static void plan(layout* L) {
    uint64_t at = HEADER_SIZE + DEF_WORDS * 4;
    L->positions = at;
    at += 12ull * L->V;
    L->tris = at;
    at += 12ull * L->T;
    L->ids = at;
    at += 4ull * L->T;
    L->nodes = at;
    at += 32ull * L->N;
    L->costs = at;
    at += 12ull * L->N;
    L->spheres = at;
    if (L->flags & FLAG_SPHERES) at += 4ull * SPHERE_WORDS * L->N;
    L->obbs = at;
    if (L->flags & FLAG_OBBS) at += 4ull * OBB_WORDS * L->N;
    L->kdops = at;
    if (L->flags & FLAG_KDOPS) at += 4ull * KDOP_WORDS * L->N;
    L->hausdorff = at;
    if (L->flags & FLAG_HAUSDORFF) at += 4ull * L->N;
    L->total = at;
}

static uint32_t get32(const unsigned char* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const unsigned char* p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }
static void put32(unsigned char* p, uint32_t v) {
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}
static void put64(unsigned char* p, uint64_t v) {
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t checksum(const unsigned char* blob, uint64_t size) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint64_t at = 0; at + 4 <= size; at += 4) {
        if (at == 24 || at == 28) continue; /* the checksum field */
        h = (h ^ get32(blob + at)) * 0x100000001b3ull;
    }
    return h;
}

/* Arrays are copied as bytes: the hosts snug targets (x86, arm, wasm) are little-endian. */
static void put_words(unsigned char* blob, uint64_t at, const void* src, uint64_t words) {
    if (words) memcpy(blob + at, src, words * 4);
}

static void def_words(const snug_bvh_def* d, uint32_t* w) {
    uint32_t alpha;
    memcpy(&alpha, &d->alpha, 4);
    uint32_t v[DEF_WORDS] = {(uint32_t)d->bv_type, (uint32_t)d->splitter, d->branching, d->max_branching, alpha,
                             d->small_node, d->leaf_size, d->max_depth, (uint32_t)d->measure, d->sah_bins,
                             d->bb_max_faces, d->bottom_up, d->obb_refine, d->hausdorff};
    memcpy(w, v, sizeof v);
}

snug_status snug_mesh_serialize(snug_ctx* ctx, snug_mesh mesh, void* buffer, size_t capacity, size_t* size) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!size) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "mesh_serialize needs a size output");
    snug_mesh_data* m = snug_mesh_lookup(ctx, mesh);
    if (!m) return SNUG_ERR_STALE_HANDLE;
    const snug_bvh* bvh = &m->bvh;
    layout L = {m->vertex_count, m->tri_count, bvh->node_count, 0};
    L.flags = (bvh->spheres ? FLAG_SPHERES : 0) | (bvh->obbs ? FLAG_OBBS : 0) | (bvh->kdops ? FLAG_KDOPS : 0) |
              (bvh->hausdorff ? FLAG_HAUSDORFF : 0);
    plan(&L);
    if (L.total > SIZE_MAX) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "blob of %llu bytes", (unsigned long long)L.total);
    *size = (size_t)L.total;
    if (!buffer) return snug_succeed(ctx);
    if (capacity < L.total)
        return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "blob needs %llu bytes, buffer has %zu",
                         (unsigned long long)L.total, capacity);
    unsigned char* b = buffer;
    memset(b, 0, HEADER_SIZE);
    memcpy(b, magic, 8);
    put32(b + 8, BLOB_VERSION);
    put32(b + 12, HEADER_SIZE);
    put64(b + 16, L.total);
    put32(b + 32, L.V);
    put32(b + 36, L.T);
    put32(b + 40, L.N);
    put32(b + 44, L.flags);
    put32(b + 48, bvh->depth);
    put32(b + 52, bvh->leaf_count);
    put32(b + 56, DEF_WORDS * 4);
    uint32_t dw[DEF_WORDS];
    def_words(&bvh->def, dw);
    put_words(b, HEADER_SIZE, dw, DEF_WORDS);
    put_words(b, L.positions, m->positions, 3ull * L.V);
    put_words(b, L.tris, m->tris, 3ull * L.T);
    put_words(b, L.ids, m->tri_ids, L.T);
    put_words(b, L.nodes, bvh->nodes, 8ull * L.N);
    put_words(b, L.costs, bvh->costs, 3ull * L.N);
    if (bvh->spheres) put_words(b, L.spheres, bvh->spheres, SPHERE_WORDS * (uint64_t)L.N);
    if (bvh->obbs) put_words(b, L.obbs, bvh->obbs, OBB_WORDS * (uint64_t)L.N);
    if (bvh->kdops) put_words(b, L.kdops, bvh->kdops, KDOP_WORDS * (uint64_t)L.N);
    if (bvh->hausdorff) put_words(b, L.hausdorff, bvh->hausdorff, L.N);
    put64(b + 24, checksum(b, L.total));
    return snug_succeed(ctx);
}

static bool finite_words(const float* f, uint64_t n) {
    for (uint64_t i = 0; i < n; i++)
        if (!isfinite(f[i])) return false;
    return true;
}

#define CORRUPT(...) snug_fail(ctx, SNUG_ERR_BLOB_CORRUPT, __VA_ARGS__)

/* Bound on every stored volume value (centres, radii, extents, slab values, Hausdorff bounds): a volume fitted to
 * vertices within +-SNUG_MAX_COORDINATE never reaches 8 times that (a k-DOP slab value at most 3 times, an OBB corner
 * sqrt(3) times), and below it every query's float arithmetic on volumes stays finite. */
#define VOLUME_MAX (8.0 * SNUG_MAX_COORDINATE)

static bool bounded(const float* f, uint32_t n, double bound) {
    for (uint32_t i = 0; i < n; i++)
        if (!(fabs((double)f[i]) <= bound)) return false;
    return true;
}

/* Does the node's own volume (sphere, OBB or k-DOP; AABBs are checked with the tree) contain vertex v? The fits
 * guarantee containment under the stored floats (bv.h): evaluated in double, a built volume always passes. */
static bool volume_contains(const snug_bvh* bvh, uint32_t i, snug_bv_type type, const float* v) {
    double x = v[0], y = v[1], z = v[2];
    if (type == SNUG_BV_SPHERE) {
        const snug_sphere* sp = &bvh->spheres[i];
        double dx = x - sp->c[0], dy = y - sp->c[1], dz = z - sp->c[2], r = sp->r;
        return dx * dx + dy * dy + dz * dz <= r * r;
    }
    if (type == SNUG_BV_OBB) {
        const snug_obb* o = &bvh->obbs[i];
        double d[3] = {x - o->c[0], y - o->c[1], z - o->c[2]};
        for (int a = 0; a < 3; a++)
            if (!(fabs(o->axes[a][0] * d[0] + o->axes[a][1] * d[1] + o->axes[a][2] * d[2]) <= o->e[a])) return false;
        return true;
    }
    const snug_kdop* k = &bvh->kdops[i];
    const float(*dir)[3] = snug_kdop_type_directions(type);
    for (int j = 0; j < snug_kdop_axis_count(type); j++) {
        double p = dir[j][0] * x + dir[j][1] * y + dir[j][2] * z;
        if (!(p >= k->lo[j] && p <= k->hi[j])) return false;
    }
    return true;
}

/* OBB axes orthonormal to float precision (the fits round double orthonormal axes: |a_i . a_j - delta_ij| stays
 * below 2e-7): the overlap tests take them as unit and perpendicular, so any containment proved with other axes
 * would not be what the tests see. */
static bool orthonormal(const snug_obb* o) {
    for (int a = 0; a < 3; a++)
        for (int b = a; b < 3; b++) {
            double dot = (double)o->axes[a][0] * o->axes[b][0] + (double)o->axes[a][1] * o->axes[b][1] +
                         (double)o->axes[a][2] * o->axes[b][2];
            if (!(fabs(dot - (a == b ? 1.0 : 0.0)) <= 1e-6)) return false;
        }
    return true;
}

/* The node volumes the traversals rely on, after check_structure proved the nodes a tree: every subtree covers a
 * contiguous slot range, its children's in order (refits and bounds walk ranges); every sphere, OBB and k-DOP lies
 * within VOLUME_MAX and contains every vertex of its subtree; every Hausdorff bound is at least what this build
 * computes for the node (a build stored exactly that). range: 2 N words of scratch. */
static snug_status check_volumes(snug_ctx* ctx, const snug_mesh_data* m, const snug_bvh* bvh, uint32_t* range) {
    uint32_t N = bvh->node_count;
    for (uint32_t i = N; i-- > 0;) { /* children come after their parent */
        const snug_node* n = &bvh->nodes[i];
        uint32_t kids = SNUG_NODE_CHILDREN(n->info);
        if (kids == 0) {
            range[2 * i] = n->first;
            range[2 * i + 1] = n->first + SNUG_NODE_COUNT(n->info);
            continue;
        }
        for (uint32_t k = n->first; k + 1 < n->first + kids; k++)
            if (range[2 * k + 1] != range[2 * (k + 1)]) return CORRUPT("node %u: children %u and %u cover slots apart", i, k, k + 1);
        range[2 * i] = range[2 * n->first];
        range[2 * i + 1] = range[2 * (n->first + kids - 1) + 1];
    }
    for (uint32_t i = 0; i < N; i++) {
        snug_bv_type type = (snug_bv_type)SNUG_NODE_BV_TYPE(bvh->nodes[i].info);
        if (!bounded(bvh->nodes[i].min, 3, SNUG_MAX_COORDINATE) || !bounded(bvh->nodes[i].max, 3, SNUG_MAX_COORDINATE))
            return CORRUPT("node %u box beyond the accepted range", i);
        if (type == SNUG_BV_AABB) continue;
        bool ok = type == SNUG_BV_SPHERE ? bounded(bvh->spheres[i].c, 4, VOLUME_MAX)
                  : type == SNUG_BV_OBB  ? bounded(bvh->obbs[i].c, 6, VOLUME_MAX) && orthonormal(&bvh->obbs[i])
                                         : bounded(bvh->kdops[i].lo, 2 * SNUG_KDOP_MAX_AXES, VOLUME_MAX);
        if (!ok) return CORRUPT("node %u has a malformed volume of type %d", i, (int)type);
        for (uint32_t s = range[2 * i]; s < range[2 * i + 1]; s++)
            for (int c = 0; c < 3; c++)
                if (!volume_contains(bvh, i, type, snug_mesh_vertex(m, s, c)))
                    return CORRUPT("node %u volume misses slot %u", i, s);
    }
    for (uint32_t i = 0; bvh->hausdorff && i < N; i++) {
        snug_bv_type type;
        snug_aabb box;
        const void* bv = snug_bvh_node_bv(bvh, i, &type, &box);
        float h = (float)snug_hausdorff_node(type, bv, m->positions, m->tris, NULL, bvh, i, SNUG_HAUSDORFF_EPS_REL, NULL);
        if (!(bvh->hausdorff[i] >= h && bvh->hausdorff[i] <= VOLUME_MAX))
            return CORRUPT("node %u Hausdorff bound %g, its faces need %g", i, (double)bvh->hausdorff[i], (double)h);
    }
    return SNUG_OK;
}

/* Structure of a loaded hierarchy; `mark` has max(T, N) bytes of zeros. */
static snug_status check_structure(snug_ctx* ctx, const snug_mesh_data* m, const snug_bvh* bvh, uint32_t stored_depth,
                                   uint32_t stored_leaves, unsigned char* mark) {
    uint32_t V = m->vertex_count, T = m->tri_count, N = bvh->node_count;
    if (!finite_words(m->positions, 3ull * V)) return CORRUPT("blob has a non-finite vertex coordinate");
    if (!bounded(m->positions, 3 * V, SNUG_MAX_COORDINATE)) return CORRUPT("blob has a vertex beyond the accepted range");
    for (uint64_t i = 0; i < 3ull * T; i++)
        if (m->tris[i] >= V) return CORRUPT("triangle slot %llu uses vertex %u of %u", (unsigned long long)(i / 3), m->tris[i], V);
    for (uint32_t s = 0; s < T; s++) {
        if (m->tri_ids[s] >= T || (mark[m->tri_ids[s]] & 1))
            return CORRUPT("triangle ids are not a permutation (slot %u)", s);
        mark[m->tri_ids[s]] |= 1;
    }
    if (!finite_words((const float*)bvh->costs, 3ull * N)) return CORRUPT("blob has a non-finite node cost");
    if (bvh->spheres && !finite_words((const float*)bvh->spheres, SPHERE_WORDS * (uint64_t)N)) return CORRUPT("non-finite sphere");
    if (bvh->obbs && !finite_words((const float*)bvh->obbs, OBB_WORDS * (uint64_t)N)) return CORRUPT("non-finite OBB");
    if (bvh->kdops && !finite_words((const float*)bvh->kdops, KDOP_WORDS * (uint64_t)N)) return CORRUPT("non-finite k-DOP");
    if (bvh->hausdorff && !finite_words(bvh->hausdorff, N)) return CORRUPT("non-finite Hausdorff bound");
    uint32_t leaves = 0;
    for (uint32_t i = 0; i < N; i++) {
        const snug_node* n = &bvh->nodes[i];
        if (!finite_words(n->min, 3) || !finite_words(n->max, 3)) return CORRUPT("node %u has a non-finite box", i);
        for (int a = 0; a < 3; a++)
            if (n->min[a] > n->max[a]) return CORRUPT("node %u has an inverted box", i);
        uint32_t kids = SNUG_NODE_CHILDREN(n->info), type = SNUG_NODE_BV_TYPE(n->info);
        if (type >= SNUG_BV_TYPE_COUNT || (bvh->type != SNUG_BV_MIXED && type != (uint32_t)bvh->type))
            return CORRUPT("node %u has BV type %u in a tree of type %d", i, type, (int)bvh->type);
        if ((type == SNUG_BV_SPHERE && !bvh->spheres) || (type == SNUG_BV_OBB && !bvh->obbs) ||
            (snug_kdop_axis_count((snug_bv_type)type) && !bvh->kdops))
            return CORRUPT("node %u needs BV data the blob does not have", i);
        if (type == SNUG_BV_SPHERE && !(bvh->spheres[i].r >= 0.0f)) return CORRUPT("node %u sphere radius", i);
        if (type == SNUG_BV_OBB)
            for (int a = 0; a < 3; a++)
                if (!(bvh->obbs[i].e[a] >= 0.0f)) return CORRUPT("node %u OBB extent", i);
        for (int j = 0; j < snug_kdop_axis_count((snug_bv_type)type); j++)
            if (bvh->kdops[i].lo[j] > bvh->kdops[i].hi[j]) return CORRUPT("node %u k-DOP slab %d", i, j);
        if (bvh->hausdorff && !(bvh->hausdorff[i] >= 0.0f)) return CORRUPT("node %u Hausdorff bound", i);
        if (kids == 0) {
            uint32_t count = SNUG_NODE_COUNT(n->info);
            if (count == 0 || n->first >= T || count > T - n->first)
                return CORRUPT("leaf %u covers slots %u+%u of %u", i, n->first, count, T);
            leaves++;
            for (uint32_t s = n->first; s < n->first + count; s++) {
                if (mark[s] & 2) return CORRUPT("slot %u lies in two leaves", s);
                mark[s] |= 2;
                for (int c = 0; c < 3; c++) {
                    const float* p = m->positions + 3 * m->tris[3 * s + c];
                    for (int a = 0; a < 3; a++)
                        if (p[a] < n->min[a] || p[a] > n->max[a]) return CORRUPT("leaf %u box misses slot %u", i, s);
                }
            }
        } else {
            if (kids < 2 || kids > 6 || SNUG_NODE_COUNT(n->info) != 0) return CORRUPT("node %u has %u children", i, kids);
            if (n->first <= i || n->first >= N || kids > N - n->first)
                return CORRUPT("node %u has children %u+%u of %u nodes", i, n->first, kids, N);
            for (uint32_t k = n->first; k < n->first + kids; k++) {
                if (mark[k] & 4) return CORRUPT("node %u has two parents", k);
                mark[k] |= 4;
                for (int a = 0; a < 3; a++)
                    if (bvh->nodes[k].min[a] < n->min[a] || bvh->nodes[k].max[a] > n->max[a])
                        return CORRUPT("node %u box misses child %u", i, k);
            }
        }
    }
    for (uint32_t s = 0; s < T; s++)
        if (!(mark[s] & 2)) return CORRUPT("slot %u lies in no leaf", s);
    for (uint32_t i = 1; i < N; i++)
        if (!(mark[i] & 4)) return CORRUPT("node %u has no parent", i);
    if (leaves != stored_leaves) return CORRUPT("%u leaves, header says %u", leaves, stored_leaves);
    /* every node has one earlier parent, so this is a tree rooted at 0: a bounded DFS finds its depth */
    uint32_t stack[2 * 64 * 6], depth_of[2 * 64 * 6], depth = 0;
    int top = 0;
    stack[top] = 0;
    depth_of[top++] = 1;
    while (top > 0) {
        top--;
        uint32_t i = stack[top], d = depth_of[top];
        if (d > 64) return CORRUPT("hierarchy deeper than 64");
        if (d > depth) depth = d;
        const snug_node* n = &bvh->nodes[i];
        for (uint32_t k = 0; k < SNUG_NODE_CHILDREN(n->info); k++) {
            stack[top] = n->first + k;
            depth_of[top++] = d + 1;
        }
    }
    if (depth != stored_depth || depth > bvh->def.max_depth)
        return CORRUPT("depth %u, header says %u", depth, stored_depth);
    return SNUG_OK;
}

snug_status snug_mesh_deserialize(snug_ctx* ctx, const void* blob, size_t size, snug_mesh* out) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!blob || !out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "mesh_deserialize needs a blob and an output");
    const unsigned char* b = blob;
    size_t probe = size < 8 ? size : 8;
    if (memcmp(b, magic, probe) != 0) return snug_fail(ctx, SNUG_ERR_BLOB_FOREIGN, "not a snug mesh blob");
    if (size < 12) return snug_fail(ctx, SNUG_ERR_BLOB_TRUNCATED, "blob of %zu bytes ends inside its header", size);
    if (get32(b + 8) != BLOB_VERSION)
        return snug_fail(ctx, SNUG_ERR_BLOB_VERSION, "blob format version %u, this build reads %u", get32(b + 8), BLOB_VERSION);
    if (size < HEADER_SIZE) return snug_fail(ctx, SNUG_ERR_BLOB_TRUNCATED, "blob of %zu bytes ends inside its header", size);
    uint64_t total = get64(b + 16);
    if (total > size)
        return snug_fail(ctx, SNUG_ERR_BLOB_TRUNCATED, "blob has %zu of its %llu bytes", size, (unsigned long long)total);
    if (total < size || total % 4 != 0)
        return CORRUPT("blob size %zu does not match its header (%llu)", size, (unsigned long long)total);
    if (checksum(b, total) != get64(b + 24)) return CORRUPT("checksum mismatch");
    layout L = {get32(b + 32), get32(b + 36), get32(b + 40), get32(b + 44)};
    if (get32(b + 12) != HEADER_SIZE || get32(b + 56) != DEF_WORDS * 4 || get32(b + 60) != 0 || (L.flags & ~15u))
        return CORRUPT("unexpected header fields");
    if (L.V == 0 || L.T == 0 || L.V > UINT32_MAX / 3 || L.T > UINT32_MAX / 3 || L.N == 0 || L.N > 2ull * L.T)
        return CORRUPT("counts out of range (%u vertices, %u triangles, %u nodes)", L.V, L.T, L.N);
    plan(&L);
    if (L.total != total) return CORRUPT("section sizes do not add up to the blob size");
    snug_bvh_def def;
    memset(&def, 0, sizeof def); /* padding too, so loaded and built settings compare equal */
    def.internal_value = SNUG_DEF_MARK;
    {
        uint32_t w[DEF_WORDS];
        memcpy(w, b + HEADER_SIZE, sizeof w);
        if (w[11] > 1 || w[12] > 1 || w[13] > 1) return CORRUPT("definition flags out of range");
        def.bv_type = (snug_bv_type)w[0];
        def.splitter = (snug_splitter)w[1];
        def.branching = w[2];
        def.max_branching = w[3];
        memcpy(&def.alpha, &w[4], 4);
        def.small_node = w[5];
        def.leaf_size = w[6];
        def.max_depth = w[7];
        def.measure = (snug_measure)w[8];
        def.sah_bins = w[9];
        def.bb_max_faces = w[10];
        def.bottom_up = w[11];
        def.obb_refine = w[12];
        def.hausdorff = w[13];
        if (snug_bvh_def_check(ctx, &def) != SNUG_OK)
            return CORRUPT("stored hierarchy settings are invalid (%s)", snug_ctx_last_error(ctx));
        if ((def.hausdorff != 0) != ((L.flags & FLAG_HAUSDORFF) != 0)) return CORRUPT("Hausdorff flag mismatch");
    }

    snug_mesh_data* m = snug_calloc(ctx, 1, sizeof *m);
    unsigned char* mark = NULL;
    uint32_t* range = NULL;
    snug_status st = SNUG_ERR_OUT_OF_MEMORY;
    if (!m) goto oom;
    m->vertex_count = L.V;
    m->tri_count = L.T;
    snug_bvh* bvh = &m->bvh;
    bvh->node_count = L.N;
    bvh->type = def.bv_type;
    bvh->def = def;
    bvh->depth = get32(b + 48);
    bvh->leaf_count = get32(b + 52);
    m->positions = snug_alloc(ctx, 12ull * L.V);
    m->tris = snug_alloc(ctx, 12ull * L.T);
    m->tri_ids = snug_alloc(ctx, 4ull * L.T);
    bvh->nodes = snug_alloc(ctx, 32ull * L.N);
    bvh->costs = snug_alloc(ctx, 12ull * L.N);
    if (L.flags & FLAG_SPHERES) bvh->spheres = snug_alloc(ctx, 4ull * SPHERE_WORDS * L.N);
    if (L.flags & FLAG_OBBS) bvh->obbs = snug_alloc(ctx, 4ull * OBB_WORDS * L.N);
    if (L.flags & FLAG_KDOPS) bvh->kdops = snug_alloc(ctx, 4ull * KDOP_WORDS * L.N);
    if (L.flags & FLAG_HAUSDORFF) bvh->hausdorff = snug_alloc(ctx, 4ull * L.N);
    mark = snug_calloc(ctx, L.T > L.N ? L.T : L.N, 1);
    range = snug_alloc(ctx, 8ull * L.N);
    if (!m->positions || !m->tris || !m->tri_ids || !bvh->nodes || !bvh->costs || !mark || !range ||
        ((L.flags & FLAG_SPHERES) && !bvh->spheres) || ((L.flags & FLAG_OBBS) && !bvh->obbs) ||
        ((L.flags & FLAG_KDOPS) && !bvh->kdops) || ((L.flags & FLAG_HAUSDORFF) && !bvh->hausdorff))
        goto oom;
    memcpy(m->positions, b + L.positions, 12ull * L.V);
    memcpy(m->tris, b + L.tris, 12ull * L.T);
    memcpy(m->tri_ids, b + L.ids, 4ull * L.T);
    memcpy(bvh->nodes, b + L.nodes, 32ull * L.N);
    memcpy(bvh->costs, b + L.costs, 12ull * L.N);
    if (bvh->spheres) memcpy(bvh->spheres, b + L.spheres, 4ull * SPHERE_WORDS * L.N);
    if (bvh->obbs) memcpy(bvh->obbs, b + L.obbs, 4ull * OBB_WORDS * L.N);
    if (bvh->kdops) memcpy(bvh->kdops, b + L.kdops, 4ull * KDOP_WORDS * L.N);
    if (bvh->hausdorff) memcpy(bvh->hausdorff, b + L.hausdorff, 4ull * L.N);
    st = check_structure(ctx, m, bvh, bvh->depth, bvh->leaf_count, mark);
    if (st == SNUG_OK) st = check_volumes(ctx, m, bvh, range);
    snug_free(ctx, mark);
    snug_free(ctx, range);
    mark = NULL;
    range = NULL;
    if (st != SNUG_OK) {
        snug_mesh_data_free(ctx, m);
        return st;
    }
    if ((st = snug_mesh_derive(ctx, m)) != SNUG_OK) {
        snug_mesh_data_free(ctx, m);
        return st;
    }
    return snug_mesh_register(ctx, m, out);
oom:
    snug_free(ctx, mark);
    snug_free(ctx, range);
    snug_mesh_data_free(ctx, m);
    return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "loading a blob of %llu bytes", (unsigned long long)total);
}
