/* Collapse of the hierarchy into the 4-wide ray tree (see ray_tree.h). Each ray node starts from the children of
 * one hierarchy node and keeps replacing the inner child of largest surface by its own children while they fit
 * in four lanes, so a ray pays one node load and one 4-lane slab test where the binary tree needed about two
 * levels of pairwise tests. Children of 5- or 6-ary nodes that do not fit are paired under an extra ray node
 * whose lane box is the exact union of the pair; a leaf of more than 255 triangles is split into chunks under
 * an extra node. Nodes are emitted in depth-first order (parent before its subtrees). A counting pass sizes the
 * allocation exactly. */
#include "bvh/ray_tree.h"

#include <string.h>

typedef struct builder {
    const snug_mesh_data* m;
    snug_ray_tree* t;     /* NULL in the counting pass */
    uint32_t count, packets;
    uint32_t level, depth; /* current and deepest ray node level */
} builder;

/* The packets of leaf [first, first + n): corners lane by lane, missing lanes repeat the first triangle. */
static void fill_packets(const snug_mesh_data* m, snug_ray_tree* t, uint32_t packet, uint32_t first, uint32_t n) {
    for (uint32_t k = 0; k < n; k += 4, packet++) {
        snug_ray_packet* p = &t->packets[packet];
        for (uint32_t l = 0; l < 4; l++) {
            uint32_t s = first + (k + l < n ? k + l : 0);
            p->id[l] = m->tri_ids[s];
            for (int c = 0; c < 3; c++)
                for (int a = 0; a < 3; a++) p->v[3 * c + a][l] = snug_mesh_vertex(m, s, c)[a];
        }
    }
}

static float node_area(const snug_node* n) {
    snug_aabb box;
    glm_vec3_copy((float*)n->min, box.min);
    glm_vec3_copy((float*)n->max, box.max);
    return snug_bv_measure(SNUG_BV_AABB, &box, SNUG_MEASURE_SURFACE);
}

/* Lane l of *lane_node (its box already set) over the leaf [first, first + n): ceil(n / 4) packets. A lane
 * counts at most 255 triangles, so a bigger leaf (the depth limit makes them) becomes a ray node of up to four
 * chunks, each under the leaf's box; before, such a leaf kept only n mod 256 of its triangles. */
static void emit_leaf(builder* b, snug_ray_node* lane_node, int l, uint32_t first, uint32_t n) {
    if (n <= 255) {
        lane_node->ref[l] = b->packets;
        lane_node->count[l] = (uint8_t)n;
        if (b->t) fill_packets(b->m, b->t, b->packets, first, n);
        b->packets += (n + 3) / 4;
        return;
    }
    uint32_t self = b->count++;
    if (++b->level > b->depth) b->depth = b->level;
    snug_ray_node chunks;
    memset(&chunks, 0, sizeof chunks);
    uint32_t per = (n + 3) / 4;
    for (uint32_t k = 0; k < n; k += per, chunks.lanes++) {
        for (int c = 0; c < 3; c++) {
            chunks.lo[c][chunks.lanes] = lane_node->lo[c][l];
            chunks.hi[c][chunks.lanes] = lane_node->hi[c][l];
        }
        emit_leaf(b, &chunks, (int)chunks.lanes, first + k, n - k < per ? n - k : per);
    }
    if (b->t) b->t->nodes[self] = chunks;
    b->level--;
    lane_node->ref[l] = self;
    lane_node->count[l] = 0;
}

/* Emit the ray node over hierarchy nodes ids[0..n) (n <= 6) and the subtrees below them; returns its index. */
static uint32_t emit(builder* b, const uint32_t* ids, int n) {
    const snug_node* src = b->m->bvh.nodes;
    uint32_t set[6];
    memcpy(set, ids, (size_t)n * sizeof *set);
    for (;;) { /* open the largest inner child that still fits */
        int pick = -1;
        float best = -1.0f;
        for (int i = 0; i < n; i++) {
            int kids = (int)SNUG_NODE_CHILDREN(src[set[i]].info);
            if (kids == 0 || n - 1 + kids > 4) continue;
            float a = node_area(&src[set[i]]);
            if (a > best) best = a, pick = i;
        }
        if (pick < 0) break;
        const snug_node* p = &src[set[pick]];
        int kids = (int)SNUG_NODE_CHILDREN(p->info);
        set[pick] = p->first;
        for (int k = 1; k < kids; k++) set[n++] = p->first + (uint32_t)k;
    }
    /* lanes: groups of hierarchy nodes; only 5 or 6 of them need pairs */
    int group_start[5], lanes = 0;
    for (int i = 0; i < n; lanes++) {
        group_start[lanes] = i;
        i += (n - i > 4 - lanes) ? 2 : 1;
    }
    group_start[lanes] = n;
    uint32_t self = b->count++;
    if (++b->level > b->depth) b->depth = b->level;
    snug_ray_node tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.lanes = (uint32_t)lanes;
    for (int l = 0; l < lanes; l++) {
        int g0 = group_start[l], g1 = group_start[l + 1];
        for (int c = 0; c < 3; c++) {
            tmp.lo[c][l] = src[set[g0]].min[c];
            tmp.hi[c][l] = src[set[g0]].max[c];
            for (int g = g0 + 1; g < g1; g++) {
                tmp.lo[c][l] = glm_min(tmp.lo[c][l], src[set[g]].min[c]);
                tmp.hi[c][l] = glm_max(tmp.hi[c][l], src[set[g]].max[c]);
            }
        }
        const snug_node* one = &src[set[g0]];
        uint32_t kids = SNUG_NODE_CHILDREN(one->info);
        if (g1 - g0 == 1 && kids == 0) {
            emit_leaf(b, &tmp, l, one->first, SNUG_NODE_COUNT(one->info));
        } else if (g1 - g0 == 1) {
            uint32_t kid_ids[6];
            for (uint32_t k = 0; k < kids; k++) kid_ids[k] = one->first + k;
            tmp.ref[l] = emit(b, kid_ids, (int)kids);
        } else {
            tmp.ref[l] = emit(b, set + g0, g1 - g0);
        }
    }
    if (b->t) b->t->nodes[self] = tmp;
    b->level--;
    return self;
}

static void build(builder* b) {
    uint32_t root = 0;
    emit(b, &root, 1);
}

snug_status snug_ray_tree_prepare(snug_ctx* ctx, snug_mesh_data* m) {
    if (m->ray || m->tri_count == 0) return SNUG_OK;
    builder b = {m, NULL, 0, 0, 0, 0};
    build(&b);
    /* the traversal's stack holds 3 pending children per level (ray_tree.h: no valid hierarchy is this deep), so
     * this only stops a hierarchy that broke its depth bound */
    if (b.depth > SNUG_RAY_MAX_DEPTH)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "ray tree of depth %u (at most %d)", b.depth, SNUG_RAY_MAX_DEPTH);
    size_t node_bytes = (size_t)b.count * sizeof(snug_ray_node), packet_bytes = (size_t)b.packets * sizeof(snug_ray_packet);
    size_t bytes = sizeof(snug_ray_tree) + 128 + node_bytes + packet_bytes;
    void* block = snug_alloc(ctx, bytes);
    if (!block) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "ray tree of %u triangles", m->tri_count);
    snug_ray_tree* t = block;
    uintptr_t at = ((uintptr_t)(t + 1) + 127) & ~(uintptr_t)127;
    t->nodes = (snug_ray_node*)at;
    t->packets = (snug_ray_packet*)(at + node_bytes);
    t->block = block;
    t->bytes = bytes;
    b.t = t;
    b.count = b.packets = 0;
    build(&b);
    t->node_count = b.count;
    t->packet_count = b.packets;
    m->ray = t;
    return SNUG_OK;
}

void snug_ray_tree_free(snug_ctx* ctx, snug_ray_tree* tree) {
    if (tree) snug_free(ctx, tree->block);
}

size_t snug_ray_tree_memory(const snug_ray_tree* tree) { return tree ? tree->bytes : 0; }
