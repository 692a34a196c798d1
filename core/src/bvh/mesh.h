/* Mesh data behind a snug_mesh handle: welded vertices, triangles in BVH leaf order (slots), the map from
 * slots back to creation ids, edge adjacency for continuous tests, and the hierarchy. */
#ifndef SNUG_MESH_H
#define SNUG_MESH_H

#include "bvh/bvh.h"

#define SNUG_NONE 0xffffffffu

typedef struct snug_mesh_data {
    float* positions;           /* 3 per vertex */
    uint32_t* tris;             /* 3 per slot, leaf order */
    uint32_t* tri_ids;          /* slot -> triangle id given at creation */
    uint32_t vertex_count;
    uint32_t tri_count;
    uint32_t* degenerate_ids;   /* creation ids of degenerate triangles, ascending */
    uint32_t degenerate_count;
    uint32_t* edges;            /* 2 per edge, v0 < v1 */
    uint32_t* tri_edges;        /* 3 per slot: edge of (v0,v1), (v1,v2), (v2,v0) */
    uint32_t* edge_tris;        /* 2 per edge: adjacent slots, SNUG_NONE if absent */
    uint32_t edge_count;
    uint32_t boundary_edge_count;
    uint32_t nonmanifold_edge_count;
    vec3 aabb_min, aabb_max;
    float scale;                /* AABB diagonal */
    float tolerance;            /* scale * SNUG_REL_TOLERANCE */
    snug_bvh bvh;
    struct snug_ray_tree* ray;  /* 4-wide ray tree and corners in leaf order (ray_tree.h); built by the first ray
                                 * query, NULL until then and after a move */
    snug_attachment place;      /* the placement layer's surfaces (place/surface.c) */
} snug_mesh_data;

/* The mesh of a handle, or NULL after recording SNUG_ERR_STALE_HANDLE on ctx. */
snug_mesh_data* snug_mesh_lookup(snug_ctx* ctx, snug_mesh handle);
void snug_mesh_data_free(snug_ctx* ctx, snug_mesh_data* mesh);
/* Scale, tolerance, AABB and degenerate list from positions + tris (after tris are in leaf order). */
snug_status snug_mesh_derive(snug_ctx* ctx, snug_mesh_data* mesh);
/* Edge adjacency (edges, tri_edges, edge_tris and the edge counts) on first use; NULL / 0 until then. */
snug_status snug_mesh_adjacency(snug_ctx* ctx, snug_mesh_data* mesh);
/* Register a finished mesh in the context's pool; frees it on failure. */
snug_status snug_mesh_register(snug_ctx* ctx, snug_mesh_data* mesh, snug_mesh* out);

static inline const float* snug_mesh_vertex(const snug_mesh_data* m, uint32_t slot, int corner) {
    return m->positions + 3u * m->tris[3u * slot + (uint32_t)corner];
}

#endif
