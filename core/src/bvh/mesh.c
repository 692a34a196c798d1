/* Mesh ingest: validation, optional welding, scale-relative tolerances, degenerate triangles (kept and
 * counted), edge adjacency (built on first use), and the handle lifecycle. */
#include "bvh/mesh.h"
#include "bvh/ray_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

snug_mesh_def snug_default_mesh_def(void) {
    snug_mesh_def def;
    memset(&def, 0, sizeof def);
    def.weld_tolerance = 1e-6f;
    def.bvh = snug_default_bvh_def();
    def.internal_value = SNUG_DEF_MARK;
    return def;
}

snug_mesh_data* snug_mesh_lookup(snug_ctx* ctx, snug_mesh handle) {
    snug_mesh_data* mesh = snug_pool_get(&ctx->meshes, handle);
    if (!mesh) snug_fail(ctx, SNUG_ERR_STALE_HANDLE, "mesh handle 0x%08x is not a live mesh of this context", handle);
    return mesh;
}

void snug_mesh_data_free(snug_ctx* ctx, snug_mesh_data* mesh) {
    if (!mesh) return;
    snug_bvh_free(ctx, &mesh->bvh);
    snug_free(ctx, mesh->positions);
    snug_free(ctx, mesh->tris);
    snug_free(ctx, mesh->tri_ids);
    snug_free(ctx, mesh->degenerate_ids);
    snug_free(ctx, mesh->edges);
    snug_free(ctx, mesh->tri_edges);
    snug_free(ctx, mesh->edge_tris);
    snug_ray_tree_free(ctx, mesh->ray);
    snug_attachment_release(ctx, &mesh->place);
    snug_free(ctx, mesh);
}

static void bounds_of(const float* positions, uint32_t n, vec3 lo, vec3 hi) {
    glm_vec3_broadcast(INFINITY, lo);
    glm_vec3_broadcast(-INFINITY, hi);
    for (uint32_t i = 0; i < n; i++) {
        glm_vec3_minv(lo, (float*)positions + 3 * i, lo);
        glm_vec3_maxv(hi, (float*)positions + 3 * i, hi);
    }
}

static uint32_t hash_pair(uint32_t a, uint32_t b) {
    uint64_t k = ((uint64_t)a << 32) | b;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (uint32_t)k;
}

static void sort_u64(uint64_t* v, uint32_t n);

/* Unique undirected edges: the 3n half-edges are counting-sorted on their smaller vertex, so each vertex's
 * bucket is short and duplicates meet when the bucket is sorted on (other vertex, half-edge). Edge ids follow
 * first appearance in slot order. O(n) with mostly sequential memory; a hash table over the edges probed
 * random words and was the largest cost of mesh creation after the build. */
SNUG_COLD static snug_status build_adjacency(snug_ctx* ctx, snug_mesh_data* m) {
    uint32_t max_edges = 3u * m->tri_count, nv = m->vertex_count;
    uint32_t* start = snug_calloc(ctx, (size_t)nv + 1, sizeof *start);
    uint64_t* bucket = snug_alloc(ctx, (size_t)max_edges * sizeof *bucket);
    uint32_t* edges = snug_alloc(ctx, (size_t)max_edges * 2 * sizeof *edges);
    uint32_t* tri_edges = snug_alloc(ctx, (size_t)max_edges * sizeof *tri_edges);
    uint32_t* edge_tris = snug_alloc(ctx, (size_t)max_edges * 2 * sizeof *edge_tris);
    uint32_t* uses = snug_calloc(ctx, max_edges, sizeof *uses);
    if (!start || !bucket || !edges || !tri_edges || !edge_tris || !uses) {
        snug_free(ctx, start);
        snug_free(ctx, bucket);
        snug_free(ctx, edges);
        snug_free(ctx, tri_edges);
        snug_free(ctx, edge_tris);
        snug_free(ctx, uses);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "edge adjacency for %u triangles", m->tri_count);
    }
    const uint32_t* t = m->tris;
#define HALF_EDGE_ENDS(h, a, b)                                                                                    \
    uint32_t a = t[h], b = t[(h) % 3 == 2 ? (h) - 2 : (h) + 1];                                                   \
    if (a > b) {                                                                                                   \
        uint32_t x_ = a;                                                                                           \
        a = b;                                                                                                     \
        b = x_;                                                                                                    \
    }
    for (uint32_t h = 0; h < max_edges; h++) {
        HALF_EDGE_ENDS(h, a, b)
        (void)b;
        start[a + 1]++;
    }
    for (uint32_t v = 0; v < nv; v++) start[v + 1] += start[v];
    /* filling advances start[v] to the end of v's bucket (= the start of v + 1's) */
    for (uint32_t h = 0; h < max_edges; h++) {
        HALF_EDGE_ENDS(h, a, b)
        bucket[start[a]++] = ((uint64_t)b << 32) | h;
    }
#undef HALF_EDGE_ENDS
    /* tri_edges[h] first holds the first half-edge of h's edge, then (once that one is numbered) the edge */
    for (uint32_t v = 0, lo = 0; v < nv; lo = start[v++]) {
        uint32_t n = start[v] - lo;
        uint64_t* bk = bucket + lo;
        sort_u64(bk, n);
        for (uint32_t i = 0, head = 0; i < n; i++) {
            if ((bk[i] >> 32) != (bk[head] >> 32)) head = i;
            tri_edges[(uint32_t)bk[i]] = (uint32_t)bk[head];
        }
    }
    snug_free(ctx, start);
    snug_free(ctx, bucket);
    uint32_t count = 0;
    for (uint32_t h = 0; h < max_edges; h++) {
        uint32_t first = tri_edges[h], e;
        if (first == h) {
            e = count++;
            uint32_t a = t[h], b = t[h % 3 == 2 ? h - 2 : h + 1];
            edges[2 * e] = a < b ? a : b;
            edges[2 * e + 1] = a < b ? b : a;
            edge_tris[2 * e] = edge_tris[2 * e + 1] = SNUG_NONE;
        } else {
            e = tri_edges[first];
        }
        if (uses[e] < 2) edge_tris[2 * e + uses[e]] = h / 3;
        uses[e]++;
        tri_edges[h] = e;
    }
    m->boundary_edge_count = m->nonmanifold_edge_count = 0;
    for (uint32_t e = 0; e < count; e++) {
        if (uses[e] == 1) m->boundary_edge_count++;
        if (uses[e] > 2) m->nonmanifold_edge_count++;
    }
    snug_free(ctx, uses);
    /* Shrink to the edges actually found; on failure the larger blocks serve as well. */
    uint32_t* e2 = snug_realloc(ctx, edges, (size_t)count * 2 * sizeof *edges + 1);
    uint32_t* et2 = snug_realloc(ctx, edge_tris, (size_t)count * 2 * sizeof *edge_tris + 1);
    m->edges = e2 ? e2 : edges;
    m->edge_tris = et2 ? et2 : edge_tris;
    m->tri_edges = tri_edges;
    m->edge_count = count;
    return SNUG_OK;
}

SNUG_COLD static int cmp_u64(const void* x, const void* y) {
    uint64_t a = *(const uint64_t*)x, b = *(const uint64_t*)y;
    return (a > b) - (a < b);
}

/* Buckets hold a handful of half-edges (about 6 on a closed mesh); a fan around one vertex can hold many. */
SNUG_COLD static void sort_u64(uint64_t* v, uint32_t n) {
    if (n > 24) {
        qsort(v, n, sizeof *v, cmp_u64);
        return;
    }
    for (uint32_t i = 1; i < n; i++) {
        uint64_t x = v[i];
        uint32_t j = i;
        for (; j > 0 && v[j - 1] > x; j--) v[j] = v[j - 1];
        v[j] = x;
    }
}

/* The ascending list of creation ids flagged in flag[0..n). */
static snug_status degenerate_list(snug_ctx* ctx, const uint8_t* flag, uint32_t n, uint32_t** ids_out,
                                   uint32_t* count_out) {
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; i++) count += flag[i];
    uint32_t* ids = snug_alloc(ctx, (size_t)count * sizeof *ids + 1);
    if (!ids) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "degenerate triangle list");
    uint32_t k = 0;
    for (uint32_t i = 0; i < n && k < count; i++)
        if (flag[i]) ids[k++] = i;
    *ids_out = ids;
    *count_out = count;
    return SNUG_OK;
}

/* One scan flags degenerate triangles by creation id, a sweep lists them ascending (no sort). */
static snug_status find_degenerates(snug_ctx* ctx, snug_mesh_data* m, uint32_t** ids_out, uint32_t* count_out) {
    uint8_t* flag = snug_alloc(ctx, (size_t)m->tri_count + 1);
    if (!flag) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "degenerate triangle list");
    for (uint32_t s = 0; s < m->tri_count; s++)
        flag[m->tri_ids[s]] = snug_tri_degenerate(snug_mesh_vertex(m, s, 0), snug_mesh_vertex(m, s, 1),
                                                  snug_mesh_vertex(m, s, 2), m->tolerance);
    snug_status st = degenerate_list(ctx, flag, m->tri_count, ids_out, count_out);
    snug_free(ctx, flag);
    return st;
}

/* scale and tolerance from the bounds */
static void set_scale(snug_mesh_data* m) {
    m->scale = glm_vec3_distance(m->aabb_min, m->aabb_max);
    /* A single point (scale 0) still gets a positive tolerance. */
    m->tolerance = glm_max(m->scale, 1e-30f) * SNUG_REL_TOLERANCE;
}

static void derive_scale(snug_mesh_data* m) {
    bounds_of(m->positions, m->vertex_count, m->aabb_min, m->aabb_max);
    set_scale(m);
}

SNUG_COLD snug_status snug_mesh_derive(snug_ctx* ctx, snug_mesh_data* m) {
    derive_scale(m);
    return find_degenerates(ctx, m, &m->degenerate_ids, &m->degenerate_count);
}

/* Lazy, like the ray copy: the adjacency costs as much as a fifth of creating a large mesh and only the edge
 * counts (info, the closed-mesh check) read it so far. Positions never change it. */
snug_status snug_mesh_adjacency(snug_ctx* ctx, snug_mesh_data* m) {
    return m->tri_edges ? SNUG_OK : build_adjacency(ctx, m);
}

static void free_pooled_mesh(snug_ctx* ctx, void* mesh) { snug_mesh_data_free(ctx, mesh); }

snug_status snug_mesh_register(snug_ctx* ctx, snug_mesh_data* mesh, snug_mesh* out) {
    ctx->meshes.free_item = free_pooled_mesh;
    uint32_t handle = snug_pool_add(ctx, &ctx->meshes, mesh);
    if (!handle) {
        snug_mesh_data_free(ctx, mesh);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "no room for another mesh handle");
    }
    *out = handle;
    return snug_succeed(ctx);
}

/* The copy of a create's or set_positions' vertices over the context's workers, checked and bounded on the way. */
typedef struct vertex_copy {
    const float* src;
    float* dst;
    snug_worker_bounds bounds;
    bool bad[SNUG_MAX_WORKERS]; /* a worker copied a non-finite coordinate */
} vertex_copy;

static void copy_positions_task(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    vertex_copy* p = context;
    const float* src = p->src + 3 * (size_t)begin;
    float* dst = p->dst + 3 * (size_t)begin;
    size_t count = 3 * (size_t)(end - begin);
    memcpy(dst, src, count * sizeof *dst);
    /* without branches: NaN fails the comparison too */
    uint32_t bad = 0;
    for (size_t i = 0; i < count; i++) bad |= !snug_coordinate_ok(src[i]);
    p->bad[worker] |= bad != 0;
    snug_aabb box;
    bounds_of(src, end - begin, box.min, box.max);
    snug_worker_bounds_add(&p->bounds, worker, &box);
}

/* dst = src (count vertices) and their bounds, or the failure of the first bad vertex: SNUG_ERR_NOT_FINITE, or
 * SNUG_ERR_INVALID_ARGUMENT beyond the accepted range. */
static snug_status copy_positions(snug_ctx* ctx, const float* src, uint32_t count, float* dst, vec3 lo, vec3 hi) {
    vertex_copy copy = {.src = src, .dst = dst};
    snug_worker_bounds_clear(&copy.bounds);
    snug_parallel_for(ctx, count, 16384, copy_positions_task, &copy);
    snug_aabb total;
    snug_worker_bounds_total(&copy.bounds, &total);
    glm_vec3_copy(total.min, lo);
    glm_vec3_copy(total.max, hi);
    bool bad = false;
    for (uint32_t w = 0; w < SNUG_MAX_WORKERS; w++) bad |= copy.bad[w];
    for (uint32_t i = 0; bad && i < 3u * count; i += 3) {
        char what[48];
        snug_format(what, sizeof what, "vertex %u", i / 3);
        snug_status st = snug_point_check(ctx, src + i, what);
        if (st != SNUG_OK) return st;
    }
    return SNUG_OK;
}

/* Merge vertices closer than `radius` with a hash grid; returns the new vertex count. remap[v] = new index of v.
 * Each vertex joins the first earlier representative within radius. Cells are counted from the low corner of the
 * vertices' box `lo` and are at least 2^-24 of its largest extent: at most 2^24 + 1 of them per axis fit an int32
 * for any position and tolerance, and a zero radius (merge equal vertices only) still spreads the vertices. */
SNUG_COLD static snug_status weld(snug_ctx* ctx, float* positions, uint32_t n, float radius, const vec3 lo,
                                  float extent, uint32_t* remap, uint32_t* n_out) {
    uint32_t cap = 16;
    while (cap < 2u * n) cap <<= 1;
    uint32_t* heads = snug_alloc(ctx, (size_t)cap * sizeof *heads);
    uint32_t* next = snug_alloc(ctx, (size_t)n * sizeof *next);
    if (!heads || !next) {
        snug_free(ctx, heads);
        snug_free(ctx, next);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "welding %u vertices", n);
    }
    memset(heads, 0xff, (size_t)cap * sizeof *heads);
    double cell = fmax((double)radius, (double)extent * 0x1p-24);
    double inv = cell > 0.0 ? 1.0 / cell : 1.0;
    float r2 = radius * radius;
    uint32_t kept = 0;
    for (uint32_t v = 0; v < n; v++) {
        const float* p = positions + 3 * v;
        int32_t cx = (int32_t)floor(((double)p[0] - lo[0]) * inv), cy = (int32_t)floor(((double)p[1] - lo[1]) * inv),
                cz = (int32_t)floor(((double)p[2] - lo[2]) * inv);
        uint32_t found = SNUG_NONE;
        for (int dx = -1; dx <= 1 && found == SNUG_NONE; dx++)
            for (int dy = -1; dy <= 1 && found == SNUG_NONE; dy++)
                for (int dz = -1; dz <= 1 && found == SNUG_NONE; dz++) {
                    uint32_t h = hash_pair((uint32_t)(cx + dx) * 73856093u ^ (uint32_t)(cy + dy), (uint32_t)(cz + dz)) & (cap - 1);
                    for (uint32_t k = heads[h]; k != SNUG_NONE; k = next[k])
                        if (glm_vec3_distance2(positions + 3 * k, (float*)p) <= r2) {
                            found = k;
                            break;
                        }
                }
        if (found != SNUG_NONE) {
            remap[v] = found;
            continue;
        }
        /* keep v: it becomes new vertex `kept`; the grid stores new indices (positions compacted in place) */
        remap[v] = kept;
        if (kept != v) memcpy(positions + 3 * kept, p, 3 * sizeof(float));
        uint32_t h = hash_pair((uint32_t)cx * 73856093u ^ (uint32_t)cy, (uint32_t)cz) & (cap - 1);
        next[kept] = heads[h];
        heads[h] = kept;
        kept++;
    }
    snug_free(ctx, heads);
    snug_free(ctx, next);
    *n_out = kept;
    return SNUG_OK;
}

/* The per-triangle copies of a create over the context's workers. */
typedef struct tri_copy {
    const uint32_t* src;
    uint32_t* dst;
    const uint32_t* perm;
    uint32_t vertex_count;
    bool bad[SNUG_MAX_WORKERS]; /* a worker copied an index out of range */
} tri_copy;

/* dst = src for triangles [begin, end) */
static void copy_indices_task(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    tri_copy* p = context;
    uint32_t bad = 0;
    for (size_t i = 3 * (size_t)begin; i < 3 * (size_t)end; i++) {
        uint32_t v = p->src[i];
        p->dst[i] = v;
        bad |= v >= p->vertex_count;
    }
    p->bad[worker] |= bad != 0;
}

/* triangle s of dst = triangle perm[s] of src */
static void gather_tris_task(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    tri_copy* p = context;
    (void)worker;
    for (uint32_t s = begin; s < end; s++) memcpy(p->dst + 3 * (size_t)s, p->src + 3 * (size_t)p->perm[s], 3 * sizeof(uint32_t));
}

snug_status snug_mesh_create(snug_ctx* ctx, const snug_mesh_def* def, snug_mesh* out) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!def || !out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "mesh_create needs a def and an output handle");
    if (snug_def_check_mark(ctx, def->internal_value, "mesh_def")) return SNUG_ERR_INVALID_ARGUMENT;
    if (!def->positions || def->vertex_count == 0 || def->triangle_count == 0)
        return snug_fail(ctx, SNUG_ERR_EMPTY, "a mesh needs vertices and triangles (%u vertices, %u triangles)",
                         def->vertex_count, def->triangle_count);
    if (def->vertex_count > UINT32_MAX / 3u || def->triangle_count > UINT32_MAX / 3u)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "too many vertices or triangles");
    if (!def->indices && def->vertex_count != 3u * def->triangle_count)
        return snug_fail(ctx, SNUG_ERR_INDEX_RANGE, "non-indexed mesh: %u vertices cannot form %u triangles",
                         def->vertex_count, def->triangle_count);
    if (def->weld && !(def->weld_tolerance >= 0.0f && def->weld_tolerance < 1.0f))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "weld tolerance %g is not in [0, 1)", (double)def->weld_tolerance);
    snug_status st = snug_bvh_def_check_buildable(ctx, &def->bvh);
    if (st != SNUG_OK) return st;

    snug_mesh_data* m = snug_calloc(ctx, 1, sizeof *m);
    uint32_t nt = def->triangle_count;
    uint32_t* input_tris = snug_alloc(ctx, (size_t)nt * 3 * sizeof(uint32_t));
    uint32_t* perm = snug_alloc(ctx, (size_t)nt * sizeof(uint32_t));
    uint8_t* degenerate = snug_alloc(ctx, (size_t)nt);
    if (m) {
        m->positions = snug_alloc(ctx, (size_t)def->vertex_count * 3 * sizeof(float));
        m->tris = snug_alloc(ctx, (size_t)nt * 3 * sizeof(uint32_t));
    }
    if (!m || !input_tris || !perm || !degenerate || !m->positions || !m->tris) {
        st = snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "mesh of %u vertices, %u triangles", def->vertex_count, nt);
        goto fail;
    }
    if ((st = copy_positions(ctx, def->positions, def->vertex_count, m->positions, m->aabb_min, m->aabb_max)) != SNUG_OK)
        goto fail;
    set_scale(m);
    m->vertex_count = def->vertex_count;
    m->tri_count = nt;
    /* indices checked while they are copied (one pass); a bad one frees everything again */
    if (def->indices) {
        tri_copy copy = {def->indices, input_tris, NULL, def->vertex_count, {false}};
        snug_parallel_for(ctx, nt, 65536, copy_indices_task, &copy);
        bool bad = false;
        for (uint32_t w = 0; w < SNUG_MAX_WORKERS; w++) bad |= copy.bad[w];
        for (uint32_t i = 0; bad && i < 3u * nt; i++)
            if (def->indices[i] >= def->vertex_count) {
                st = snug_fail(ctx, SNUG_ERR_INDEX_RANGE, "triangle %u uses vertex %u of %u", i / 3, def->indices[i],
                               def->vertex_count);
                goto fail;
            }
    } else {
        for (uint32_t i = 0; i < 3u * nt; i++) input_tris[i] = i;
    }
    if (def->weld) {
        uint32_t* remap = snug_alloc(ctx, (size_t)m->vertex_count * sizeof *remap);
        if (!remap) {
            st = snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "weld map");
            goto fail;
        }
        float extent = glm_vec3_max((vec3){m->aabb_max[0] - m->aabb_min[0], m->aabb_max[1] - m->aabb_min[1],
                                           m->aabb_max[2] - m->aabb_min[2]});
        st = weld(ctx, m->positions, m->vertex_count, def->weld_tolerance * m->scale, m->aabb_min, extent, remap,
                  &m->vertex_count);
        if (st == SNUG_OK)
            for (uint32_t i = 0; i < 3u * nt; i++) input_tris[i] = remap[input_tris[i]];
        snug_free(ctx, remap);
        if (st != SNUG_OK) goto fail;
    }

    /* the scale only changes when welding dropped vertices; the tolerance must be final for the build, which
     * flags the degenerate triangles on its triangle pass */
    if (def->weld) derive_scale(m);
    st = snug_bvh_build(ctx, &def->bvh, m->positions, input_tris, nt, &m->bvh, perm, m->tolerance, degenerate);
    if (st != SNUG_OK) goto fail;
    tri_copy gather = {input_tris, m->tris, perm, 0, {false}};
    snug_parallel_for(ctx, nt, 65536, gather_tris_task, &gather);
    m->tri_ids = perm;
    perm = NULL;
    snug_free(ctx, input_tris);
    input_tris = NULL;
    if ((st = degenerate_list(ctx, degenerate, nt, &m->degenerate_ids, &m->degenerate_count)) != SNUG_OK) goto fail;
    snug_free(ctx, degenerate);
    return snug_mesh_register(ctx, m, out);

fail:
    snug_free(ctx, input_tris);
    snug_free(ctx, perm);
    snug_free(ctx, degenerate);
    snug_mesh_data_free(ctx, m);
    return st;
}

bool snug_mesh_is_valid(const snug_ctx* ctx, snug_mesh mesh) { return ctx && snug_pool_get(&ctx->meshes, mesh); }

SNUG_COLD snug_status snug_mesh_destroy(snug_ctx* ctx, snug_mesh mesh) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    snug_mesh_data* m = snug_pool_remove(&ctx->meshes, mesh);
    if (!m) return snug_fail(ctx, SNUG_ERR_STALE_HANDLE, "mesh handle 0x%08x is not a live mesh of this context", mesh);
    snug_mesh_data_free(ctx, m);
    return snug_succeed(ctx);
}

SNUG_COLD snug_status snug_mesh_get_info(snug_ctx* ctx, snug_mesh mesh, snug_mesh_info* out) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "mesh_get_info needs an output");
    snug_mesh_data* m = snug_mesh_lookup(ctx, mesh);
    if (!m) return SNUG_ERR_STALE_HANDLE;
    snug_status st = snug_mesh_adjacency(ctx, m);
    if (st != SNUG_OK) return st;
    memset(out, 0, sizeof *out);
    out->vertex_count = m->vertex_count;
    out->triangle_count = m->tri_count;
    out->degenerate_count = m->degenerate_count;
    out->edge_count = m->edge_count;
    out->boundary_edge_count = m->boundary_edge_count;
    out->nonmanifold_edge_count = m->nonmanifold_edge_count;
    out->node_count = m->bvh.node_count;
    out->leaf_count = m->bvh.leaf_count;
    out->depth = m->bvh.depth;
    out->bv_type = m->bvh.type;
    glm_vec3_copy(m->aabb_min, out->aabb_min);
    glm_vec3_copy(m->aabb_max, out->aabb_max);
    out->scale = m->scale;
    out->tolerance = m->tolerance;
    out->closed = m->boundary_edge_count == 0 && m->nonmanifold_edge_count == 0;
    out->memory_bytes = sizeof *m + (size_t)m->vertex_count * 12 + (size_t)m->tri_count * (12 + 4 + 12) +
                        (size_t)m->edge_count * 16 + (size_t)m->degenerate_count * 4 + snug_bvh_memory(&m->bvh) +
                        snug_ray_tree_memory(m->ray);
    return snug_succeed(ctx);
}

SNUG_COLD snug_status snug_mesh_get_degenerate(snug_ctx* ctx, snug_mesh mesh, uint32_t* ids, uint32_t capacity, uint32_t* total) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!total || (capacity && !ids))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "mesh_get_degenerate needs total (and ids when capacity > 0)");
    snug_mesh_data* m = snug_mesh_lookup(ctx, mesh);
    if (!m) return SNUG_ERR_STALE_HANDLE;
    *total = m->degenerate_count;
    uint32_t n = capacity < m->degenerate_count ? capacity : m->degenerate_count;
    if (n) memcpy(ids, m->degenerate_ids, n * sizeof *ids);
    if (capacity < m->degenerate_count)
        return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "%u degenerate triangles, room for %u", m->degenerate_count,
                         capacity);
    return snug_succeed(ctx);
}

snug_status snug_mesh_set_positions(snug_ctx* ctx, snug_mesh mesh, const float* positions, uint32_t vertex_count) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    snug_mesh_data* m = snug_mesh_lookup(ctx, mesh);
    if (!m) return SNUG_ERR_STALE_HANDLE;
    if (!positions || vertex_count != m->vertex_count)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "set_positions needs %u vertices, got %u", m->vertex_count,
                         vertex_count);
    /* Stage everything that can fail before touching the mesh. */
    float* fresh = snug_alloc(ctx, (size_t)vertex_count * 3 * sizeof(float));
    if (!fresh) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "positions copy");
    snug_mesh_data staged = *m;
    staged.positions = fresh;
    snug_status st = copy_positions(ctx, positions, vertex_count, fresh, staged.aabb_min, staged.aabb_max);
    if (st != SNUG_OK) {
        snug_free(ctx, fresh);
        return st;
    }
    set_scale(&staged);
    uint32_t* ids;
    uint32_t count;
    if ((st = find_degenerates(ctx, &staged, &ids, &count)) != SNUG_OK) {
        snug_free(ctx, fresh);
        return st;
    }
    if ((st = snug_bvh_refit(ctx, &m->bvh, fresh, m->tris)) != SNUG_OK) {
        snug_free(ctx, fresh);
        snug_free(ctx, ids);
        return st;
    }
    snug_free(ctx, m->positions);
    snug_free(ctx, m->degenerate_ids);
    m->positions = fresh;
    snug_ray_tree_free(ctx, m->ray); /* stale boxes and corners: the next ray query builds them anew */
    m->ray = NULL;
    m->degenerate_ids = ids;
    m->degenerate_count = count;
    glm_vec3_copy(staged.aabb_min, m->aabb_min);
    glm_vec3_copy(staged.aabb_max, m->aabb_max);
    m->scale = staged.scale;
    m->tolerance = staged.tolerance;
    return snug_succeed(ctx);
}

SNUG_COLD snug_status snug_mesh_get_quality(snug_ctx* ctx, snug_mesh mesh, snug_bvh_quality* out) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "mesh_get_quality needs an output");
    snug_mesh_data* m = snug_mesh_lookup(ctx, mesh);
    if (!m) return SNUG_ERR_STALE_HANDLE;
    snug_bvh_measure_quality(&m->bvh, out);
    return snug_succeed(ctx);
}
