/* Bounding-volume hierarchy: one flat node array; children of a node are contiguous; leaves hold ranges of
 * triangle slots (the mesh stores its triangles in leaf order). Every node carries its AABB (used by rays and
 * as the AABB BV); trees of other BV types keep their BVs in per-node side arrays indexed by node index. */
#ifndef SNUG_BVH_H
#define SNUG_BVH_H

#include "geom/bv.h"
#include "base/ctx.h"

typedef struct snug_node {
    vec3 min;
    uint32_t first;     /* inner: index of the first child; leaf: first triangle slot */
    vec3 max;
    uint32_t info;      /* see SNUG_NODE_* below */
} snug_node;

#define SNUG_NODE_CHILDREN(info) ((info) & 7u)          /* 0 for a leaf, else 2..6 */
#define SNUG_NODE_BV_TYPE(info) (((info) >> 3) & 7u)    /* snug_bv_type of this node */
#define SNUG_NODE_COUNT(info) ((info) >> 8)             /* leaf triangle count */
#define SNUG_NODE_INFO(children, type, count) ((uint32_t)(children) | ((uint32_t)(type) << 3) | ((uint32_t)(count) << 8))

/* Per-node values for the hybrid traversal (seed 000 §4.3.2): own quality q, worst child quality qe,
 * expansion cost ce (sum of the children's BV-test costs). */
typedef struct snug_node_cost {
    float q, qe, ce;
} snug_node_cost;

typedef struct snug_bvh {
    snug_node* nodes;
    uint32_t node_count;
    uint32_t leaf_count;
    uint32_t depth;
    snug_bv_type type;          /* the tree's type, SNUG_BV_MIXED for mixed trees */
    snug_sphere* spheres;       /* per node, NULL if no node is a sphere */
    snug_obb* obbs;             /* per node, NULL if no node is an OBB */
    snug_kdop* kdops;           /* per node, NULL if no node is a k-DOP */
    float* hausdorff;           /* per node directed Hausdorff bound solid BV -> faces (rounded up), NULL if not computed */
    snug_node_cost* costs;      /* per node, for the hybrid traversal */
    snug_bvh_def def;
} snug_bvh;

/* Check a definition; fills a message on ctx and returns its status when it is out of range. (What a blob stores:
 * a hierarchy built elsewhere loads whatever variant built it.) */
snug_status snug_bvh_def_check(snug_ctx* ctx, const snug_bvh_def* def);
/* The same, and is its builder in this library? (The product library leaves the research variants out:
 * bvh/variants.h.) What a build checks. */
snug_status snug_bvh_def_check_buildable(snug_ctx* ctx, const snug_bvh_def* def);

/* Build over triangles (3 vertex indices each) into `out`. perm (tri_count entries, the builders' id scratch
 * until then) receives the leaf order: perm[slot] = input triangle index; the caller reorders its triangles by
 * it. degenerate (optional) receives per input triangle snug_tri_degenerate(corners, tolerance), from the pass
 * that reads the corners for the boxes anyway. On failure nothing is left allocated. */
snug_status snug_bvh_build(snug_ctx* ctx, const snug_bvh_def* def, const float* positions, const uint32_t* tris,
                           uint32_t tri_count, snug_bvh* out, uint32_t* perm, float tolerance, uint8_t* degenerate);
void snug_bvh_free(snug_ctx* ctx, snug_bvh* bvh);
/* A triangle is degenerate when its smallest altitude is below the mesh tolerance: zero area, repeated
 * vertices and needles alike. Relative to scale, so a model behaves the same at any size. */
static inline bool snug_tri_degenerate(const float* a, const float* b, const float* c, float tolerance) {
    vec3 e0, e1, e2, n;
    glm_vec3_sub((float*)b, (float*)a, e0);
    glm_vec3_sub((float*)c, (float*)b, e1);
    glm_vec3_sub((float*)a, (float*)c, e2);
    glm_vec3_cross(e0, e1, n);
    float longest = sqrtf(glm_max(glm_vec3_norm2(e0), glm_max(glm_vec3_norm2(e1), glm_vec3_norm2(e2))));
    return glm_vec3_norm(n) <= tolerance * longest || longest == 0.0f;
}
/* Recompute every node's BVs bottom-up after vertices moved (topology kept). */
/* Every node's BV of its own type is refitted exactly to the vertices of its subtree (OBB axes are recomputed
 * too); allocates nothing, so it cannot fail halfway. */
snug_status snug_bvh_refit(snug_ctx* ctx, snug_bvh* bvh, const float* positions, const uint32_t* tris);
/* Slot range [*first, *first + *count) covered by a node's subtree (subtrees cover contiguous slot ranges). */
void snug_bvh_node_range(const snug_bvh* bvh, uint32_t node, uint32_t* first, uint32_t* count);
/* Relative cost of one overlap test of a BV of this type (the collision factor of seed 000 §3.4.3: the mean of
 * the type's row in the pair-test cost matrix). The one place these numbers live; see bvh.c. */
extern const float snug_bv_test_costs[SNUG_BV_TYPE_COUNT];
static inline float snug_bv_test_cost(snug_bv_type type) {
    return (unsigned)type < SNUG_BV_TYPE_COUNT ? snug_bv_test_costs[type] : 1.0f;
}
/* Fill costs[].qe and costs[].ce from costs[].q and the node types (q must be set). */
void snug_bvh_fill_costs(snug_bvh* bvh);
/* The same for node i alone (its children's q and types must be set). Inline: the finish pass of a build calls
 * it for every node. */
static inline void snug_bvh_fill_node_cost(snug_bvh* bvh, uint32_t i) {
    const snug_node* n = &bvh->nodes[i];
    uint32_t kids = SNUG_NODE_CHILDREN(n->info);
    float qe = 0.0f, ce = 0.0f;
    for (uint32_t k = n->first; k < n->first + kids; k++) {
        /* fmaxf without the call it is in wasm (its NaN rule: a NaN q is skipped here too) */
        float q = bvh->costs[k].q;
        qe = q > qe ? q : qe;
        ce += snug_bv_test_cost((snug_bv_type)SNUG_NODE_BV_TYPE(bvh->nodes[k].info));
    }
    /* a leaf expands into primitive tests: qe = 0 (exact faces), ce = 0 (the traversal treats it apart) */
    bvh->costs[i].qe = qe;
    bvh->costs[i].ce = ce;
}
/* Per-node BV of the node's own type, as a pointer usable with snug_bv_overlap. AABB nodes are copied into
 * *aabb (the node layout interleaves min/max with other fields). */
const void* snug_bvh_node_bv(const snug_bvh* bvh, uint32_t node, snug_bv_type* type, snug_aabb* aabb);
void snug_bvh_measure_quality(const snug_bvh* bvh, snug_bvh_quality* out);
size_t snug_bvh_memory(const snug_bvh* bvh);

/* Directed Hausdorff distance (seed 000 §3.8.2) from the SOLID bounding volume to the faces it covers:
 * max over x in the BV of min over faces of |x - face|. The solid, not just the BV surface, because the
 * distance bound d(F1, F2) <= hd1 + hd2 for overlapping BVs needs every common point x, and x may lie inside
 * both (a box around a box-shaped surface has surface distance 0 but centre distance half its extent).
 * Adaptive subdivision of the BV's box into cells with the corrected stopping rule (Fig. 3.12, loop while
 * neither criterion holds) and correction term "half the cell diagonal" (method 1: the farthest point of a
 * box cell from its centre is a corner). Returns an upper bound; *lower (optional) gets a lower bound; the
 * gap is at most eps_rel x bound unless the cell budget runs out (the bound stays valid). The faces are the
 * subtree of `node` in `bvh` (slot s is input triangle perm[s], perm NULL = identity), searched nearest-first
 * through the hierarchy. */
#define SNUG_HAUSDORFF_EPS_REL 0.1
double snug_hausdorff_node(snug_bv_type type, const void* bv, const float* positions, const uint32_t* tris,
                           const uint32_t* perm, const snug_bvh* bvh, uint32_t node, double eps_rel, double* lower);
/* Same over an explicit triangle set (brute-force distances; used while building, before a hierarchy exists). */
double snug_hausdorff_set(snug_bv_type type, const void* bv, const snug_tri_set* set, double eps_rel, double* lower);

#endif
