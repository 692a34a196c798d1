/* The ray-only view of a mesh: the binary (or n-ary) hierarchy collapsed into 4-wide nodes whose four child
 * boxes are stored lane by lane, so one node is one 4-lane slab test, and each leaf's triangles copied lane by
 * lane into packets of four, so one packet is one 4-lane filter (ray_filter.h). Built on the first ray query of
 * a mesh, dropped when its vertices move. The child boxes are the hierarchy's node AABBs exactly (or exact
 * unions of them) and the corners exact copies, so a ray meets the same boxes and triangles as in the mesh. */
#ifndef SNUG_RAY_TREE_H
#define SNUG_RAY_TREE_H

#include "bvh/mesh.h"

typedef struct snug_ray_node {
    float lo[3][4];     /* lo[axis][lane]: child box minima */
    float hi[3][4];     /* child box maxima */
    uint32_t ref[4];    /* inner child: ray node index; leaf child: its first packet */
    uint8_t count[4];   /* leaf child: its triangle count (1..255); inner child: 0 */
    uint32_t lanes;     /* children in lanes 0..lanes-1 (1..4) */
    uint32_t pad[2];
} snug_ray_node;        /* 128 bytes: two cache lines */

/* Four triangles of one leaf: v[3 * corner + axis][lane] and their creation ids (the answer, read without a
 * miss on tri_ids). A leaf of n triangles has ceil(n / 4) packets, its triangles in slot order; lanes past the
 * leaf's end repeat its first triangle and are masked off. */
typedef struct snug_ray_packet {
    float v[9][4];
    uint32_t id[4];
} snug_ray_packet;      /* 160 bytes */

typedef struct snug_ray_tree {
    snug_ray_node* nodes;   /* node 0 is the root; 128-byte aligned (a node is one aligned pair of lines) */
    uint32_t node_count;
    uint32_t packet_count;
    snug_ray_packet* packets;
    void* block;            /* the one allocation behind nodes and packets */
    size_t bytes;
} snug_ray_tree;

/* Ray node levels, the traversal's stack is sized for it: at most two per hierarchy level (65 levels at depth 64;
 * 5-/6-ary children are paired under an extra node) plus the chunk nodes under a leaf of more than 255 triangles
 * (a quarter per level: 13 levels for 2^32 triangles), so no valid hierarchy reaches the bound. */
#define SNUG_RAY_MAX_DEPTH (2 * 65 + 13)

/* Build m->ray if absent (no-op for a mesh without triangles). */
snug_status snug_ray_tree_prepare(snug_ctx* ctx, snug_mesh_data* m);
void snug_ray_tree_free(snug_ctx* ctx, snug_ray_tree* tree);
size_t snug_ray_tree_memory(const snug_ray_tree* tree);

#endif
