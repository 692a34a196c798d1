/* Bottom-up construction by pairwise merging (seed 000 §3.3.2): every triangle starts as a cluster; clusters
 * are kept in Morton order and, round after round, each one looks for the neighbour within a small window
 * whose merge gives the smallest BV measure (def->measure on the merged AABB; Hausdorff uses surface); mutual
 * nearest neighbours merge (locally-ordered clustering). The binary merge tree is then emitted top-down:
 * a cluster with at most leaf_size triangles (or at max_depth) becomes a leaf, and an inner node takes up to
 * `branching` (variable: max_branching) children by repeatedly opening its largest-surface child. */
#include "bvh/bvh_build.h"
#include "bvh/morton.h"

#include <math.h>
#include <string.h>

#define WINDOW 8

typedef struct merge_node {
    snug_aabb box;
    uint32_t left, right;   /* children, or left = prim index and right = NONE for a triangle */
    uint32_t count;
} merge_node;

#define NONE 0xffffffffu

static double merged_measure(const merge_node* a, const merge_node* b, snug_measure m) {
    snug_aabb u;
    glm_vec3_minv((float*)a->box.min, (float*)b->box.min, u.min);
    glm_vec3_maxv((float*)a->box.max, (float*)b->box.max, u.max);
    return snug_split_aabb_measure(&u, m);
}

static double surface(const snug_aabb* b) { return snug_split_aabb_measure(b, SNUG_MEASURE_SURFACE); }

typedef struct emit_task {
    uint32_t merge, node, depth;
} emit_task;

snug_status snug_bvh_build_bottom_up(snug_ctx* ctx, snug_build* b, uint32_t n) {
    const snug_bvh_def* def = b->in.def;
    snug_measure measure = def->measure == SNUG_MEASURE_HAUSDORFF ? SNUG_MEASURE_SURFACE : def->measure;
    merge_node* tree = snug_alloc(ctx, (2 * (size_t)n) * sizeof *tree);
    uint32_t* work = snug_alloc(ctx, 4 * (size_t)n * sizeof *work);
    if (!tree || !work) {
        snug_free(ctx, tree);
        snug_free(ctx, work);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "bottom-up merge tree of %u triangles", n);
    }
    uint32_t *clusters = work, *nearest = work + n, *code = work + 2 * n, *code_tmp = work + 3 * n;
    snug_aabb all;
    snug_prims_bounds(b->prims, n, &all);
    vec3 ext;
    glm_vec3_sub(all.max, all.min, ext);
    for (uint32_t i = 0; i < n; i++) {
        merge_node* t = &tree[i];
        t->box.min[0] = b->prims[i].min[0], t->box.min[1] = b->prims[i].min[1], t->box.min[2] = b->prims[i].min[2];
        glm_vec3_copy(b->prims[i].max, t->box.max);
        t->left = i;
        t->right = NONE;
        t->count = 1;
        uint32_t q[3];
        for (int a = 0; a < 3; a++) {
            float c = 0.5f * (b->prims[i].min[a] + b->prims[i].max[a]) - all.min[a];
            float u = ext[a] > 0.0f ? c / ext[a] : 0.0f;
            q[a] = (uint32_t)fminf(fmaxf(u * 1023.0f, 0.0f), 1023.0f);
        }
        code[i] = snug_morton3(q[0], q[1], q[2]);
        clusters[i] = i;
    }
    /* nearest[] doubles as the value scratch of the sort */
    snug_radix_sort(code, clusters, code_tmp, nearest, n, 30);
    uint32_t m = n, next = n;
    while (m > 1) {
        for (uint32_t i = 0; i < m; i++) {
            double best = INFINITY;
            uint32_t lo = i > WINDOW ? i - WINDOW : 0, hi = i + WINDOW < m - 1 ? i + WINDOW : m - 1;
            nearest[i] = i == 0 ? 1 : i - 1;
            for (uint32_t j = lo; j <= hi; j++) {
                if (j == i) continue;
                double g = merged_measure(&tree[clusters[i]], &tree[clusters[j]], measure);
                if (g < best) {
                    best = g;
                    nearest[i] = j;
                }
            }
        }
        uint32_t merged = 0;
        for (uint32_t i = 0; i < m; i++) {
            uint32_t j = nearest[i];
            if (j > i && nearest[j] == i) {
                merge_node* t = &tree[next];
                const merge_node *l = &tree[clusters[i]], *r = &tree[clusters[j]];
                glm_vec3_minv((float*)l->box.min, (float*)r->box.min, t->box.min);
                glm_vec3_maxv((float*)l->box.max, (float*)r->box.max, t->box.max);
                t->left = clusters[i];
                t->right = clusters[j];
                t->count = l->count + r->count;
                clusters[i] = next++;
                clusters[j] = NONE;
                merged++;
            }
        }
        if (merged == 0) { /* cannot happen with a strict order, but never loop forever */
            merge_node* t = &tree[next];
            glm_vec3_minv(tree[clusters[0]].box.min, tree[clusters[1]].box.min, t->box.min);
            glm_vec3_maxv(tree[clusters[0]].box.max, tree[clusters[1]].box.max, t->box.max);
            t->left = clusters[0];
            t->right = clusters[1];
            t->count = tree[clusters[0]].count + tree[clusters[1]].count;
            clusters[0] = next++;
            clusters[1] = NONE;
        }
        uint32_t k = 0;
        for (uint32_t i = 0; i < m; i++)
            if (clusters[i] != NONE) clusters[k++] = clusters[i];
        m = k;
    }
    uint32_t root = clusters[0];

    /* emit: out nodes in task order, leaves collect their triangles into b->in.tmp in slot order */
    int width = def->branching ? def->branching : def->max_branching;
    emit_task stack[64 * SNUG_MAX_BRANCHING + 1];
    int top = 0;
    uint32_t slot = 0, *collect = nearest; /* free again: a DFS stack for collecting leaf triangles */
    b->node_count = 1;
    b->depth = 0;
    glm_vec3_copy(tree[root].box.min, b->nodes[0].min);
    glm_vec3_copy(tree[root].box.max, b->nodes[0].max);
    stack[top++] = (emit_task){root, 0, 1};
    while (top > 0) {
        emit_task t = stack[--top];
        const merge_node* mn = &tree[t.merge];
        if (t.depth > b->depth) b->depth = t.depth;
        if (mn->count <= def->leaf_size || t.depth >= def->max_depth || mn->right == NONE) {
            b->nodes[t.node].first = slot;
            b->nodes[t.node].info = SNUG_NODE_INFO(0, 0, mn->count);
            b->range_first[t.node] = slot;
            b->range_count[t.node] = mn->count;
            uint32_t sp = 0;
            collect[sp++] = t.merge;
            while (sp > 0) {
                const merge_node* c = &tree[collect[--sp]];
                if (c->right == NONE) {
                    b->in.tmp[slot++] = b->prims[c->left];
                } else {
                    collect[sp++] = c->right;
                    collect[sp++] = c->left;
                }
            }
            continue;
        }
        /* open the largest-surface inner child until the node has `width` children */
        uint32_t kids[SNUG_MAX_BRANCHING];
        int nk = 2;
        kids[0] = mn->left;
        kids[1] = mn->right;
        while (nk < width) {
            int pick = -1;
            double ps = -1.0;
            for (int k = 0; k < nk; k++)
                if (tree[kids[k]].right != NONE && surface(&tree[kids[k]].box) > ps) {
                    ps = surface(&tree[kids[k]].box);
                    pick = k;
                }
            if (pick < 0) break;
            uint32_t open = kids[pick];
            for (int k = nk; k > pick + 1; k--) kids[k] = kids[k - 1];
            kids[pick] = tree[open].left;
            kids[pick + 1] = tree[open].right;
            nk++;
        }
        uint32_t child = b->node_count;
        b->node_count += (uint32_t)nk;
        b->nodes[t.node].first = child;
        b->nodes[t.node].info = SNUG_NODE_INFO(nk, 0, 0);
        b->range_first[t.node] = slot;
        b->range_count[t.node] = mn->count;
        for (int k = 0; k < nk; k++) {
            glm_vec3_copy(tree[kids[k]].box.min, b->nodes[child + k].min);
            glm_vec3_copy(tree[kids[k]].box.max, b->nodes[child + k].max);
        }
        for (int k = nk - 1; k >= 0; k--) stack[top++] = (emit_task){kids[k], child + (uint32_t)k, t.depth + 1};
    }
    memcpy(b->prims, b->in.tmp, n * sizeof *b->prims);
    snug_free(ctx, tree);
    snug_free(ctx, work);
    return SNUG_OK;
}
