/* Mesh-mesh distance and the tolerance query. Depth-first branch and bound in A's frame: every node pair gets a
 * cheap lower bound (the length of the gaps between A's box and the axis-aligned box around B's, in A's frame and
 * in B's, which never exceeds the Euclidean distance; for spheres also centre distance minus radii), child pairs
 * are searched nearest first, pairs whose bound reaches the best distance found so far are dropped. Once a pair
 * is measured, the search aims a frame at it: the gaps of the nodes' extents along its axes bound every pair,
 * with exact extents along its first axis for the few nodes at the meshes' fronts, which is what keeps
 * separated meshes cheap at any distance and in any direction (aim). The gap along the line through two volumes'
 * centres (or two triangles' centroids) is nearly exact for small parts far apart, where many pairs lie within a
 * fraction of the best distance (near ties) and pass every frame gap. Per-node directed Hausdorff bounds
 * (seed 000 §3.8.2), when the trees carry them, give upper bounds: for x in BV_a, d(F_a, F_b) <= h_a + d(x, BV_b)
 * + h_b, which prunes before any triangle pair is measured and lets the tolerance query answer early. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "query/traverse.h"
#include "geom/tri.h"

#define LEAF_MAX 255

typedef struct dist_entry {
    uint32_t a, b;
    float lb;
    int aim;                /* the aim whose frame bounds lb (-1: none) */
} dist_entry;

/* What an aim has learnt of one node: its exact reach along the aim (INFINITY: not yet, reach) and its volume's
 * extents along the frame's three axes (frame_extents). */
typedef struct node_memo {
    uint32_t node;          /* A's nodes, then B's offset by A's count */
    bool has_ext;
    float sup;
    float ext[6];
} node_memo;

typedef struct dist_job {
    const snug_mesh_data* ma;
    const snug_mesh_data* mb;
    const snug_xform* rel;
    mat3 absR, absRt, Rt;   /* |R| (rounded up), its transpose and R's: B's frame to A's and back */
    float guard;            /* rounding allowance: added to the Hausdorff upper bounds, taken from the lower ones */
    /* An orthonormal frame (n, u, v) of A's frame with n towards B: the extents of two sets along three orthonormal
     * axes are apart by gaps whose length never exceeds the sets' distance. With n along the closest points found so
     * far this is nearly exact for separated meshes, while the gaps of two axis-aligned boxes fall short by up to
     * their size (most along diagonals: a teapot and a torus knot 1000 units apart along (1, 1, 1) visited 1.9M node
     * pairs). f[k]: the axes, fb[k] = R^T f[k] (B's frame), ft[k] = f[k] . t. */
    float f[3][3], fb[3][3], ft[3];
    /* What the last aim learnt of the nodes it met, kept since every node pair's bound needs it and a node meets
     * many: a sparse set (memo_at[i] < memo_count and memo[memo_at[i]].node == i), valid whatever memo_at held
     * before, so a query never clears arrays as long as both trees (43 % of a query between dragons 150 % apart
     * did) and an aim forgets by setting memo_count to 0. */
    uint32_t* memo_at;
    node_memo* memo;
    uint32_t memo_count;
    bool aimed;             /* the frame is set and the meshes lie apart along n */
    float front[2], gap;    /* how far A reaches along n and B along -n; the gap between them */
    float aim_best;         /* best when last aimed */
    int aims;
    bool hausdorff;
    float best;             /* best triangle distance found (or the threshold of the tolerance query) */
    float bound;            /* min(best, Hausdorff upper bounds) */
    bool found;
    float pa[3], pb[3];     /* closest points in A's frame */
    uint32_t sa, sb;        /* their slots */
    uint64_t bv_tests, prim_tests, visited;
    float vb[LEAF_MAX * 3][3];
} dist_job;

static inline float along(const float n[3], const float* p) { return n[0] * p[0] + n[1] * p[1] + n[2] * p[2]; }

/* The frame from a vector d of A's frame: n along d, u and v across it. False for a zero d. */
static bool set_frame(dist_job* j, const float d[3]) {
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(len > 0.0f)) return false;
    float* n = j->f[0];
    for (int i = 0; i < 3; i++) n[i] = d[i] / len;
    /* u: n crossed with the world axis it is least along */
    int a = fabsf(n[0]) <= fabsf(n[1]) && fabsf(n[0]) <= fabsf(n[2]) ? 0 : (fabsf(n[1]) <= fabsf(n[2]) ? 1 : 2);
    vec3 axis = {0.0f, 0.0f, 0.0f};
    axis[a] = 1.0f;
    glm_vec3_cross(n, axis, j->f[1]);
    glm_vec3_normalize(j->f[1]);
    glm_vec3_cross(n, j->f[1], j->f[2]);
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 3; i++) j->fb[k][i] = along(j->rel->R[i], j->f[k]);
        j->ft[k] = along(j->f[k], j->rel->t);
    }
    return true;
}

/* The extent [lo, hi] of node i's volume along unit dir: of its box, cut by its sphere. Not by its OBB: projecting
 * it costs more than the tighter extent saves here (a teapot and a torus knot 3 apart: 2.77M instructions a query
 * with OBB extents, 1.82M with the boxes alone; the dragons 150 % apart about the same or faster), while overlap
 * tests keep the OBBs. */
static void node_extent(const snug_bvh* t, uint32_t i, const float dir[3], float* lo, float* hi) {
    const snug_node* n = &t->nodes[i];
    float c = 0.0f, r = 0.0f;
    for (int k = 0; k < 3; k++) {
        c += dir[k] * 0.5f * (n->min[k] + n->max[k]);
        r += fabsf(dir[k]) * 0.5f * (n->max[k] - n->min[k]);
    }
    *lo = c - r, *hi = c + r;
    if ((snug_bv_type)SNUG_NODE_BV_TYPE(n->info) != SNUG_BV_SPHERE) return;
    c = along(dir, t->spheres[i].c), r = t->spheres[i].r;
    *lo = glm_max(*lo, c - r), *hi = glm_min(*hi, c + r);
}

static float node_reach(const snug_bvh* t, uint32_t i, const float dir[3]) {
    const snug_node* n = &t->nodes[i];
    if ((snug_bv_type)SNUG_NODE_BV_TYPE(n->info) != SNUG_BV_SPHERE) /* the box's farthest corner */
        return dir[0] * (dir[0] > 0.0f ? n->max[0] : n->min[0]) + dir[1] * (dir[1] > 0.0f ? n->max[1] : n->min[1]) +
               dir[2] * (dir[2] > 0.0f ? n->max[2] : n->min[2]);
    float lo, hi;
    node_extent(t, i, dir, &lo, &hi);
    return hi;
}

/* How far leaf n's triangles reach along dir. */
static float leaf_reach(const snug_mesh_data* m, const snug_node* n, const float dir[3]) {
    float r = -INFINITY;
    for (uint32_t s = n->first; s < n->first + SNUG_NODE_COUNT(n->info); s++)
        for (int c = 0; c < 3; c++) r = glm_max(r, along(dir, snug_mesh_vertex(m, s, c)));
    return r;
}

/* A node waiting in mesh_reach's search, with its volume's reach. */
typedef struct reach_entry {
    uint32_t node;
    float reach;
} reach_entry;

/* Node n's children by how far their volumes reach along dir, farthest first (ties in child order) into out;
 * returns how many. */
static uint32_t children_by_reach(const snug_bvh* t, const snug_node* n, const float dir[3], reach_entry out[6]) {
    uint32_t kids = SNUG_NODE_CHILDREN(n->info);
    for (uint32_t k = 0; k < kids; k++) {
        float v = node_reach(t, n->first + k, dir);
        uint32_t at = k;
        while (at > 0 && out[at - 1].reach < v) out[at] = out[at - 1], at--;
        out[at] = (reach_entry){n->first + k, v};
    }
    return kids;
}

/* How far the whole mesh reaches along dir, exactly: depth first, farthest volume first, skipping volumes that
 * reach no further than a vertex already found (the front of the mesh: a few nodes per level). *leaf: the leaf
 * that reaches that far. */
static float mesh_reach(const snug_mesh_data* m, const float dir[3], reach_entry* stack, uint32_t* leaf) {
    const snug_node* nodes = m->bvh.nodes;
    float best = -INFINITY;
    *leaf = 0;
    uint32_t top = 0;
    stack[top++] = (reach_entry){0, node_reach(&m->bvh, 0, dir)};
    while (top) {
        reach_entry e = stack[--top];
        if (e.reach <= best) continue;
        const snug_node* n = &nodes[e.node];
        if (!SNUG_NODE_CHILDREN(n->info)) {
            float r = leaf_reach(m, n, dir);
            if (r > best) best = r, *leaf = e.node;
            continue;
        }
        reach_entry kids[6];
        for (uint32_t k = children_by_reach(&m->bvh, n, dir, kids); k-- > 0;) stack[top++] = kids[k]; /* farthest on top */
    }
    return best;
}

/* The memo of node i of mesh `side`, empty the first time the aim meets it. */
static node_memo* memo_of(dist_job* j, int side, uint32_t i) {
    uint32_t at = (side ? j->ma->bvh.node_count : 0) + i, k = j->memo_at[at];
    if (k < j->memo_count && j->memo[k].node == at) return &j->memo[k];
    node_memo* m = &j->memo[j->memo_count];
    *m = (node_memo){at, false, INFINITY, {0}};
    j->memo_at[at] = j->memo_count++;
    return m;
}

/* How far node i of mesh `side` (0: A along n, 1: B along -n in its frame) reaches, exactly where it matters:
 * only a node whose volume reaches beyond floor = (its mesh's front) - (best - gap) can hold part of a pair nearer
 * than the best, so below that its volume's reach serves (a child's volume never reaches further than its
 * parent's box, and the floor only rises as the best falls); above it the farthest reach of its children, found as
 * mesh_reach finds the front: farthest volume first, skipping children whose volumes reach no further than a
 * sibling already did (without that, a floor far below the front made every node above it visit its whole
 * subtree). r: the node's volume's reach, which its caller has. Computed when a bound first needs it and kept until
 * the next aim. */
static float reach(dist_job* j, int side, uint32_t i, float r) {
    node_memo* memo = memo_of(j, side, i); /* stays put: the memo only grows, within its array */
    if (memo->sup != INFINITY) return memo->sup;
    const snug_mesh_data* m = side ? j->mb : j->ma;
    float away[3] = {-j->fb[0][0], -j->fb[0][1], -j->fb[0][2]};
    const float* dir = side ? away : j->f[0];
    if (r > j->front[side] - (j->best - j->gap)) {
        const snug_node* n = &m->bvh.nodes[i];
        reach_entry kids[6];
        uint32_t count = children_by_reach(&m->bvh, n, dir, kids);
        r = count ? -INFINITY : leaf_reach(m, n, dir);
        for (uint32_t k = 0; k < count && kids[k].reach > r; k++) r = glm_max(r, reach(j, side, kids[k].node, kids[k].reach));
    }
    memo->sup = r;
    return r;
}

static void leaf_pair(dist_job* j, uint32_t la, uint32_t lb);

/* Aim the frame along the closest points found so far. When the meshes lie apart along n (their fronts gap > 0
 * apart), the node pairs get the gap of their reaches along n as a bound (reach). The leaves at both fronts are
 * measured first, and the frame aimed again if they were nearer: for separated meshes the nearest points lie
 * there or close by, and a best near the gap keeps the nodes that need an exact reach few. */
static void aim(dist_job* j, reach_entry* stack) {
    j->aimed = false;
    for (int round = 0; round < 2; round++) {
        float d[3] = {j->pb[0] - j->pa[0], j->pb[1] - j->pa[1], j->pb[2] - j->pa[2]};
        if (!set_frame(j, d)) return;
        float away[3] = {-j->fb[0][0], -j->fb[0][1], -j->fb[0][2]};
        uint32_t la, lb;
        j->front[0] = mesh_reach(j->ma, j->f[0], stack, &la);
        j->front[1] = mesh_reach(j->mb, away, stack, &lb); /* minus B's least extent along n */
        j->gap = j->ft[0] - j->front[1] - j->front[0];
        if (round || !(j->gap > 0.0f)) break;
        float before = j->best;
        leaf_pair(j, la, lb);
        if (!(j->best < before)) break;
    }
    j->aim_best = j->best;
    if (!(j->gap > 0.0f) || j->best == 0.0f) return;
    j->memo_count = 0;
    j->aimed = true;
}

/* The extents [lo, hi] of node i's volume along the frame's three axes (in its mesh's frame), kept until the next
 * aim. */
static const float* frame_extents(dist_job* j, int side, uint32_t i) {
    node_memo* m = memo_of(j, side, i);
    if (!m->has_ext) {
        const snug_bvh* t = side ? &j->mb->bvh : &j->ma->bvh;
        for (int k = 0; k < 3; k++) node_extent(t, i, side ? j->fb[k] : j->f[k], &m->ext[2 * k], &m->ext[2 * k + 1]);
        m->has_ext = true;
    }
    return m->ext;
}

/* The frame's bound from the squared gaps across n and the extents [alo, ahi] of A's part, [blo, bhi] of B's, along
 * n, less the rounding guard. */
static inline float along_n_bound(const dist_job* j, float across, float alo, float ahi, float blo, float bhi) {
    float g = glm_max(j->ft[0] + blo - ahi, alo - j->ft[0] - bhi);
    return sqrtf(across + (g > 0.0f ? g * g : 0.0f)) - j->guard;
}

/* Once aimed, a lower bound for nodes na, nb: the length of their volumes' gaps along the frame, along n with the
 * reaches where they were needed, less the rounding guard. The reaches cost most: they are looked up only when the
 * volumes' own gaps do not already prune the pair. */
static float frame_gap(dist_job* j, uint32_t na, uint32_t nb) {
    const float *ea = frame_extents(j, 0, na), *eb = frame_extents(j, 1, nb);
    float across = 0.0f;
    for (int k = 1; k < 3; k++) {
        float g = glm_max(j->ft[k] + eb[2 * k] - ea[2 * k + 1], ea[2 * k] - j->ft[k] - eb[2 * k + 1]);
        across += g > 0.0f ? g * g : 0.0f;
    }
    float lb = along_n_bound(j, across, ea[0], ea[1], eb[0], eb[1]);
    if (lb > j->bound) return lb;
    /* A's reach alone may do (a node's volume reaches along n as far as its extent along f[0], and B's along -n
     * as far as minus its low extent along fb[0]) */
    float ahi = reach(j, 0, na, ea[1]);
    if ((lb = along_n_bound(j, across, ea[0], ahi, eb[0], eb[1])) > j->bound) return lb;
    return along_n_bound(j, across, ea[0], ahi, -reach(j, 1, nb, -eb[0]), eb[1]);
}

/* A triangle's extents along the frame's axes. */
static void tri_extents(const float f[3][3], const float* p, const float* q, const float* r, float out[3][2]) {
    for (int k = 0; k < 3; k++) {
        float a = along(f[k], p), b = along(f[k], q), c = along(f[k], r);
        out[k][0] = glm_min(a, glm_min(b, c));
        out[k][1] = glm_max(a, glm_max(b, c));
    }
}

/* Squared length of the gaps of two triangles' extents (the second's in A's frame already). */
static float extents_gap2(const float a[3][2], const float b[3][2]) {
    float g2 = 0.0f;
    for (int k = 0; k < 3; k++) {
        float g = glm_max(b[k][0] - a[k][1], a[k][0] - b[k][1]);
        g2 += g > 0.0f ? g * g : 0.0f;
    }
    return g2;
}

/* Lower bound on the distance of the contents of node a (A's frame) and node b (B's frame). Every bound here is
 * computed from coordinates and rounds with them, not with the distance: meshes 5e7 from the origin round by ~4
 * units, and the centre-line bound of two such roots came out at 52 where the triangles are 50.46 apart (the
 * tolerance query then pruned everything), so the bound is less the guard, as the upper bounds are more. */
static float pair_lower_bound(dist_job* j, uint32_t na, uint32_t nb) {
    const snug_node* A = &j->ma->bvh.nodes[na];
    const snug_node* B = &j->mb->bvh.nodes[nb];
    vec3 ca, ha, cb, hb, cbA, d, hbA, dB, haB;
    glm_vec3_add((float*)A->min, (float*)A->max, ca);
    glm_vec3_sub((float*)A->max, (float*)A->min, ha);
    glm_vec3_add((float*)B->min, (float*)B->max, cb);
    glm_vec3_sub((float*)B->max, (float*)B->min, hb);
    glm_vec3_scale(ca, 0.5f, ca);
    glm_vec3_scale(ha, 0.5f, ha);
    glm_vec3_scale(cb, 0.5f, cb);
    glm_vec3_scale(hb, 0.5f, hb);
    snug_xform_point(j->rel, cb, cbA);
    glm_vec3_sub(cbA, ca, d);
    glm_mat3_mulv(j->absR, hb, hbA);
    glm_mat3_mulv(j->absRt, ha, haB);
    glm_mat3_mulv(j->Rt, d, dB);
    /* In A's frame B's box lies in the box around it with half extents |R| hb: the distance of two boxes is at least
     * that of A's box and this one, the length of the per-axis gaps (likewise in B's frame) */
    float ga = 0.0f, gb = 0.0f;
    for (int i = 0; i < 3; i++) {
        float g = fabsf(d[i]) - ha[i] - hbA[i], h = fabsf(dB[i]) - hb[i] - haB[i];
        ga += g > 0.0f ? g * g : 0.0f;
        gb += h > 0.0f ? h * h : 0.0f;
    }
    /* cheapest first: a bound beyond what is known already prunes the pair */
    float lb = sqrtf(glm_max(ga, gb)) - j->guard;
    if (lb > j->bound) return lb;
    if (j->aimed && (lb = glm_max(lb, frame_gap(j, na, nb))) > j->bound) return lb;
    /* along the line through the centres: nearly exact for volumes small against their distance */
    float dl = glm_vec3_norm(d);
    if (dl > 0.0f) {
        float ax[3], axb[3], ahi, blo;
        for (int i = 0; i < 3; i++) ax[i] = d[i] / dl, axb[i] = dB[i] / dl;
        /* a leaf's triangles rather than its box, whose corners reach past them along a diagonal by up to its
         * size: the near ties of small parts are decided here */
        float back[3] = {-axb[0], -axb[1], -axb[2]};
        ahi = SNUG_NODE_CHILDREN(A->info) ? node_reach(&j->ma->bvh, na, ax) : leaf_reach(j->ma, A, ax);
        blo = -(SNUG_NODE_CHILDREN(B->info) ? node_reach(&j->mb->bvh, nb, back) : leaf_reach(j->mb, B, back));
        lb = glm_max(lb, along(ax, j->rel->t) + blo - ahi - j->guard);
    }
    snug_bv_type ta = (snug_bv_type)SNUG_NODE_BV_TYPE(A->info), tb = (snug_bv_type)SNUG_NODE_BV_TYPE(B->info);
    if (ta == SNUG_BV_SPHERE && tb == SNUG_BV_SPHERE) {
        const snug_sphere *sa = &j->ma->bvh.spheres[na], *sb = &j->mb->bvh.spheres[nb];
        vec3 c;
        snug_xform_point(j->rel, sb->c, c);
        lb = glm_max(lb, glm_vec3_distance(c, (float*)sa->c) - sa->r - sb->r);
    }
    return lb;
}

static float point_box_distance(const vec3 p, const vec3 c, const vec3 e) {
    float s = 0.0f;
    for (int i = 0; i < 3; i++) {
        float g = fabsf(p[i] - c[i]) - e[i];
        if (g > 0.0f) s += g * g;
    }
    return sqrtf(s);
}

/* Hausdorff upper bound for a node pair (sphere/AABB/OBB nodes), INFINITY when it does not apply. */
static float pair_upper_bound(const dist_job* j, uint32_t na, uint32_t nb) {
    const snug_bvh *ta = &j->ma->bvh, *tb = &j->mb->bvh;
    snug_bv_type ka = (snug_bv_type)SNUG_NODE_BV_TYPE(ta->nodes[na].info);
    snug_bv_type kb = (snug_bv_type)SNUG_NODE_BV_TYPE(tb->nodes[nb].info);
    if (ka > SNUG_BV_OBB || kb > SNUG_BV_OBB) return INFINITY;
    vec3 x; /* a point of A's BV: its centre */
    if (ka == SNUG_BV_SPHERE) glm_vec3_copy((float*)ta->spheres[na].c, x);
    else if (ka == SNUG_BV_OBB) glm_vec3_copy((float*)ta->obbs[na].c, x);
    else glm_vec3_center((float*)ta->nodes[na].min, (float*)ta->nodes[na].max, x);
    /* x in B's frame */
    vec3 p, q;
    glm_vec3_sub(x, (float*)j->rel->t, q);
    mat3 Rt;
    glm_mat3_transpose_to((vec3*)j->rel->R, Rt);
    glm_mat3_mulv(Rt, q, p);
    float dxb;
    if (kb == SNUG_BV_SPHERE) {
        dxb = fmaxf(0.0f, glm_vec3_distance(p, (float*)tb->spheres[nb].c) - tb->spheres[nb].r);
    } else if (kb == SNUG_BV_OBB) {
        const snug_obb* o = &tb->obbs[nb];
        vec3 rp, local, zero = {0, 0, 0};
        glm_vec3_sub(p, (float*)o->c, rp);
        mat3 at;
        glm_mat3_transpose_to((vec3*)o->axes, at);
        glm_mat3_mulv(at, rp, local);
        dxb = point_box_distance(local, zero, o->e);
    } else {
        vec3 c, e;
        glm_vec3_center((float*)tb->nodes[nb].min, (float*)tb->nodes[nb].max, c);
        glm_vec3_sub((float*)tb->nodes[nb].max, c, e);
        dxb = point_box_distance(p, c, e);
    }
    return ta->hausdorff[na] + tb->hausdorff[nb] + dxb + j->guard;
}

/* The gap of two triangles' extents along the line through their centroids, a lower bound on their distance
 * that is nearly exact for triangles small against the distance between them: where many pairs lie within a
 * fraction of the best distance (a flat base facing a knot: 8,579 exact tests of which this rejects 8,566), it
 * leaves the exact test to the few that can win. */
static float centroid_gap(const float* a0, const float* a1, const float* a2, const float* b0, const float* b1,
                          const float* b2) {
    float c[3];
    for (int k = 0; k < 3; k++) c[k] = (b0[k] + b1[k] + b2[k]) - (a0[k] + a1[k] + a2[k]);
    float len = sqrtf(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    if (!(len > 0.0f)) return 0.0f;
    for (int k = 0; k < 3; k++) c[k] /= len;
    return glm_min(glm_min(along(c, b0), along(c, b1)), along(c, b2)) -
           glm_max(glm_max(along(c, a0), along(c, a1)), along(c, a2));
}

/* Unit normal and offset of a triangle's plane, in double (float cross products of a sliver's edges point anywhere);
 * a zero normal for a triangle too thin to have a reliable one, which then bounds nothing. */
static void tri_plane(const float* p0, const float* p1, const float* p2, double n[3], double* d) {
    double e0[3], e1[3];
    for (int c = 0; c < 3; c++) e0[c] = (double)p1[c] - p0[c], e1[c] = (double)p2[c] - p0[c];
    n[0] = e0[1] * e1[2] - e0[2] * e1[1], n[1] = e0[2] * e1[0] - e0[0] * e1[2], n[2] = e0[0] * e1[1] - e0[1] * e1[0];
    double nn = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    double ee = (e0[0] * e0[0] + e0[1] * e0[1] + e0[2] * e0[2]) * (e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    double k = nn > 1e-12 * ee ? 1.0 / sqrt(nn) : 0.0;
    for (int c = 0; c < 3; c++) n[c] *= k;
    *d = n[0] * p0[0] + n[1] * p0[1] + n[2] * p0[2];
}

/* How far the three points lie beyond the plane (n, d) when all lie on one side of it: a lower bound on the
 * distance of their triangle to any triangle in the plane. */
static inline double beyond_plane(const double n[3], double d, const float* p0, const float* p1, const float* p2) {
    double s0 = n[0] * p0[0] + n[1] * p0[1] + n[2] * p0[2] - d, s1 = n[0] * p1[0] + n[1] * p1[1] + n[2] * p1[2] - d,
           s2 = n[0] * p2[0] + n[1] * p2[1] + n[2] * p2[2] - d;
    double lo = fmin(s0, fmin(s1, s2)), hi = fmax(s0, fmax(s1, s2));
    return lo > 0.0 ? lo : (hi < 0.0 ? -hi : 0.0);
}

static void leaf_pair(dist_job* j, uint32_t la, uint32_t lb) {
    const snug_node* A = &j->ma->bvh.nodes[la];
    const snug_node* B = &j->mb->bvh.nodes[lb];
    uint32_t na = SNUG_NODE_COUNT(A->info), nb = SNUG_NODE_COUNT(B->info);
    float blo[LEAF_MAX][3], bhi[LEAF_MAX][3], bf[LEAF_MAX][3][2];
    /* the plane bounds below pay off where B's triangles are large against the distance sought, which is where
     * their boxes bound poorly (far apart, the planes rarely prune) */
    vec3 be;
    glm_vec3_sub((float*)B->max, (float*)B->min, be);
    float span = glm_vec3_norm(be);
    for (uint32_t k = 0; k < nb; k++) {
        for (int c = 0; c < 3; c++) snug_xform_point(j->rel, snug_mesh_vertex(j->mb, B->first + k, c), j->vb[3 * k + c]);
        glm_vec3_minv(j->vb[3 * k], j->vb[3 * k + 1], blo[k]);
        glm_vec3_minv(blo[k], j->vb[3 * k + 2], blo[k]);
        glm_vec3_maxv(j->vb[3 * k], j->vb[3 * k + 1], bhi[k]);
        glm_vec3_maxv(bhi[k], j->vb[3 * k + 2], bhi[k]);
        if (j->aimed) tri_extents(j->f, j->vb[3 * k], j->vb[3 * k + 1], j->vb[3 * k + 2], bf[k]);
    }
    for (uint32_t i = 0; i < na; i++) {
        uint32_t sa = A->first + i;
        const float *a0 = snug_mesh_vertex(j->ma, sa, 0), *a1 = snug_mesh_vertex(j->ma, sa, 1), *a2 = snug_mesh_vertex(j->ma, sa, 2);
        vec3 lo, hi;
        glm_vec3_minv((float*)a0, (float*)a1, lo);
        glm_vec3_minv(lo, (float*)a2, lo);
        glm_vec3_maxv((float*)a0, (float*)a1, hi);
        glm_vec3_maxv(hi, (float*)a2, hi);
        float af[3][2];
        if (j->aimed) tri_extents(j->f, a0, a1, a2, af);
        for (uint32_t k = 0; k < nb; k++) {
            /* lower bounds on the triangle distance: the gaps along the frame and the box gap (the projections
             * and B's vertices moved into A's frame round with the coordinates: the guard; without it on the box
             * gap, a within query at a mesh's own tolerance missed two touching triangles 3e7 from the origin:
             * found by fuzz_mesh) */
            float lim = j->best + j->guard;
            if (j->aimed && extents_gap2(af, bf[k]) >= lim * lim) continue;
            float g2 = 0.0f;
            for (int c = 0; c < 3; c++) {
                float g1 = blo[k][c] - hi[c], g2b = lo[c] - bhi[k][c], g = g1 > g2b ? g1 : g2b;
                if (g > 0.0f) g2 += g * g;
            }
            if (g2 > lim * lim) continue;
            /* either triangle's plane with the other wholly beyond it: a bound the box of a big triangle turned
             * against A (a book's side beside a dragon) cannot give */
            if (span >= j->best) {
                double an[3], ad, bn[3], bd;
                tri_plane(j->vb[3 * k], j->vb[3 * k + 1], j->vb[3 * k + 2], bn, &bd);
                tri_plane(a0, a1, a2, an, &ad);
                double beyond = fmax(beyond_plane(bn, bd, a0, a1, a2),
                                     beyond_plane(an, ad, j->vb[3 * k], j->vb[3 * k + 1], j->vb[3 * k + 2]));
                if (beyond - j->guard > j->best) continue;
            }
            if (centroid_gap(a0, a1, a2, j->vb[3 * k], j->vb[3 * k + 1], j->vb[3 * k + 2]) > lim) continue;
            float pa[3], pb[3];
            j->prim_tests++;
            float dd = snug_tri_tri_distance(a0, a1, a2, j->vb[3 * k], j->vb[3 * k + 1], j->vb[3 * k + 2], pa, pb);
            if (dd < j->best || (!j->found && dd <= j->best)) {
                j->best = dd;
                j->found = true;
                glm_vec3_copy(pa, j->pa);
                glm_vec3_copy(pb, j->pb);
                j->sa = sa;
                j->sb = B->first + k;
                if (dd < j->bound) j->bound = dd;
                if (dd == 0.0f) return;
            }
        }
    }
}

/* Farthest first, ties by node indices: a total order, so that every qsort sorts alike. musl's (wasm) is not stable
 * and glibc's is, and with lower bounds tied the same query visited other nodes in wasm (the teapot and the torus
 * knot 3 apart: 249 node pairs and 74 triangle pairs against 219 and 50 natively; 12 % more instructions). */
static int farther_first(const void* x, const void* y) {
    const dist_entry *p = x, *q = y;
    if (p->lb != q->lb) return p->lb < q->lb ? 1 : -1;
    if (p->a != q->a) return p->a > q->a ? 1 : -1;
    return (p->b > q->b) - (p->b < q->b);
}

/* Which node of a pair the distance search expands: both where their boxes are about the same size (within a
 * factor of two), else the larger, since expanding both pairs a large mesh's coarse nodes with a small one's fine
 * ones, which their bounds cannot tell apart. Against expanding both always (instructions, 40 random poses 0.6-1.5
 * half diagonals apart, AABB / OBB trees): the bunny beside the 11k dragon 0.36x / 0.43x, a teapot and a torus knot
 * 0.83x / 0.85x, two bunnies 0.99x / 1.00x; the teapot and the torus knot 3 apart on the diagonal 0.84x / 0.42x.
 * The tolerance query stops at its first pair within reach, as an overlap query does, and expands as the context
 * says. */
static snug_expand expand_for_distance(const snug_node* A, const snug_node* B) {
    if (!SNUG_NODE_CHILDREN(A->info)) return SNUG_EXPAND_B;
    if (!SNUG_NODE_CHILDREN(B->info)) return SNUG_EXPAND_A;
    float qa = glm_vec3_distance((float*)A->min, (float*)A->max);
    float qb = glm_vec3_distance((float*)B->min, (float*)B->max);
    if (qa <= 2.0f * qb && qb <= 2.0f * qa) return SNUG_EXPAND_BOTH;
    return qa > qb ? SNUG_EXPAND_A : SNUG_EXPAND_B;
}

/* Branch and bound. With stop_within the search ends as soon as the answer to "distance <= best" is known. */
static snug_status search(snug_ctx* ctx, dist_job* j, bool stop_within, bool* within) {
    size_t cap = snug_traverse_stack_pairs(&j->ma->bvh, &j->mb->bvh);
    /* the memo of both trees' nodes, the reach search's stack (depth <= 64, up to 6 children per level) */
    size_t nodes = (size_t)j->ma->bvh.node_count + j->mb->bvh.node_count;
    size_t memo = nodes * (sizeof(uint32_t) + sizeof(node_memo)) + 6u * 65u * sizeof(reach_entry);
    snug_status st = snug_scratch_reserve(ctx, cap * sizeof(dist_entry) + memo);
    if (st != SNUG_OK) return st;
    dist_entry* stack = (dist_entry*)ctx->scratch.data;
    j->memo = (node_memo*)(stack + cap);
    j->memo_at = (uint32_t*)(j->memo + nodes);
    j->memo_count = 0;
    reach_entry* reach_stack = (reach_entry*)(j->memo_at + nodes);
    size_t top = 0;
    dist_entry cand[36];
    stack[top++] = (dist_entry){0, 0, pair_lower_bound(j, 0, 0), -1};
    j->bv_tests++;
    *within = false;
    while (top) {
        dist_entry e = stack[--top];
        if (j->aimed && e.aim != j->aims) e.lb = glm_max(e.lb, frame_gap(j, e.a, e.b)); /* pushed before the last aim */
        /* prune: nothing in this pair can beat what is known (strict for the Hausdorff bound, which is not
         * realised by a found pair) */
        if (e.lb > j->bound || (j->found && e.lb >= j->best)) continue;
        j->visited++;
        if (j->hausdorff) {
            float ub = pair_upper_bound(j, e.a, e.b);
            if (ub < j->bound) j->bound = ub;
            if (stop_within && ub <= j->best) {
                *within = true;
                return SNUG_OK;
            }
        }
        const snug_node* A = &j->ma->bvh.nodes[e.a];
        const snug_node* B = &j->mb->bvh.nodes[e.b];
        uint32_t ka = SNUG_NODE_CHILDREN(A->info), kb = SNUG_NODE_CHILDREN(B->info);
        if (ka == 0 && kb == 0) {
            leaf_pair(j, e.a, e.b);
            if (stop_within && j->found) {
                *within = true;
                return SNUG_OK;
            }
            if (j->found && j->best == 0.0f) return SNUG_OK;
            /* aim at the first pair found, and again (a few times) at better ones */
            if (j->found && j->aims < 16 && (j->aims == 0 || j->best < j->aim_best)) {
                j->aims++;
                aim(j, reach_stack);
                if (j->aimed) { /* bound what is waiting anew, nearest on top */
                    for (size_t k = 0; k < top; k++)
                        stack[k].lb = glm_max(stack[k].lb, frame_gap(j, stack[k].a, stack[k].b)), stack[k].aim = j->aims;
                    qsort(stack, top, sizeof *stack, farther_first);
                }
            }
            continue;
        }
        snug_expand x = stop_within ? snug_traverse_choose(&j->ma->bvh, e.a, &j->mb->bvh, e.b, ctx->traversal)
                                    : expand_for_distance(A, B);
        int n = 0;
        uint32_t a0 = e.a, a1 = e.a + 1, b0 = e.b, b1 = e.b + 1;
        if (x != SNUG_EXPAND_B) a0 = A->first, a1 = A->first + ka;
        if (x != SNUG_EXPAND_A) b0 = B->first, b1 = B->first + kb;
        for (uint32_t ia = a0; ia < a1; ia++)
            for (uint32_t ib = b0; ib < b1; ib++) {
                float lb = pair_lower_bound(j, ia, ib);
                j->bv_tests++;
                if (lb > j->bound || (j->found && lb >= j->best)) continue;
                /* insertion sort, farthest first, so the nearest pair is popped next */
                int k = n++;
                while (k > 0 && cand[k - 1].lb < lb) {
                    cand[k] = cand[k - 1];
                    k--;
                }
                cand[k] = (dist_entry){ia, ib, lb, j->aimed ? j->aims : -1};
            }
        for (int k = 0; k < n; k++) stack[top++] = cand[k];
    }
    *within = j->found;
    return SNUG_OK;
}

/* The largest coordinate of a mesh (its root box's farthest face from the origin). */
static float magnitude(const snug_mesh_data* m) {
    const snug_node* root = &m->bvh.nodes[0];
    float x = 0.0f;
    for (int k = 0; k < 3; k++) x = glm_max(x, glm_max(fabsf(root->min[k]), fabsf(root->max[k])));
    return x;
}

static void job_init(dist_job* j, const snug_mesh_data* ma, const snug_mesh_data* mb, const snug_xform* rel, float start) {
    j->ma = ma;
    j->mb = mb;
    j->rel = rel;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) j->absR[c][r] = j->absRt[r][c] = fabsf(rel->R[c][r]) + 1e-6f, j->Rt[r][c] = rel->R[c][r];
    /* bounds computed in the two frames round with the coordinates (how far from their origins), not only with
     * the meshes' sizes, which are zero for a mesh of points; and lengths below ~1e-19 square into denormals, which
     * round by up to ~1e-22 in length (points 3.6e-22 apart got a lower bound above their Hausdorff upper bound,
     * which pruned every pair: found by fuzz_blob) */
    j->guard = 16.0f * FLT_EPSILON * (magnitude(ma) + magnitude(mb) + ma->scale + mb->scale + glm_vec3_norm((float*)rel->t)) +
               1e-20f;
    j->hausdorff = ma->bvh.hausdorff && mb->bvh.hausdorff;
    j->aimed = false;
    j->aims = 0;
    j->best = start;
    j->bound = start;
    j->found = false;
    j->bv_tests = j->prim_tests = j->visited = 0;
}

static void job_stats(snug_ctx* ctx, const dist_job* j) {
    snug_bv_type ta = j->ma->bvh.type == SNUG_BV_MIXED ? SNUG_BV_AABB : j->ma->bvh.type;
    snug_bv_type tb = j->mb->bvh.type == SNUG_BV_MIXED ? SNUG_BV_AABB : j->mb->bvh.type;
    ctx->stats.bv_tests[ta][tb] += j->bv_tests;
    ctx->stats.primitive_tests += j->prim_tests;
    ctx->stats.nodes_visited += j->visited;
}

/* The job's closest pair as a result: points back in world space (the search runs in A's frame), original triangle
 * ids. */
static void write_result(const dist_job* j, const snug_pose* pose_a, snug_distance_result* out) {
    snug_xform xa;
    snug_xform_from_pose(pose_a, &xa);
    out->distance = j->best;
    snug_xform_point(&xa, j->pa, out->point_a);
    snug_xform_point(&xa, j->pb, out->point_b);
    out->tri_a = j->ma->tri_ids[j->sa];
    out->tri_b = j->mb->tri_ids[j->sb];
}

snug_status snug_mesh_distance(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                                const snug_pose* pose_b, snug_distance_result* out) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "out is NULL");
    snug_mesh_data *ma, *mb;
    snug_xform rel;
    snug_status st = snug_query_begin_pair(ctx, a, pose_a, b, pose_b, &ma, &mb, &rel);
    if (st != SNUG_OK) return st;
    dist_job j;
    job_init(&j, ma, mb, &rel, INFINITY);
    /* Intersecting meshes: the branch and bound cannot tell overlapping boxes apart (every bound is 0), while
     * the early-exit overlap search finds a contact fast; its pair is within tolerance of distance 0. */
    bool hit;
    uint32_t sa, sb;
    st = snug_overlap_witness(ctx, ma, mb, &rel, &hit, &sa, &sb);
    if (st != SNUG_OK) return st;
    if (hit) {
        float vb[3][3];
        for (int c = 0; c < 3; c++) snug_xform_point(&rel, snug_mesh_vertex(mb, sb, c), vb[c]);
        j.best = snug_tri_tri_distance(snug_mesh_vertex(ma, sa, 0), snug_mesh_vertex(ma, sa, 1),
                                       snug_mesh_vertex(ma, sa, 2), vb[0], vb[1], vb[2], j.pa, j.pb);
        j.sa = sa;
        j.sb = sb;
    } else {
        bool within;
        st = search(ctx, &j, false, &within);
        job_stats(ctx, &j);
        if (st != SNUG_OK) return st;
    }
    write_result(&j, pose_a, out);
    return snug_succeed(ctx);
}

snug_status snug_within_witness(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                                const snug_pose* pose_b, float max_distance, bool* within, snug_distance_result* out) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if (!within) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "within is NULL");
    if (isnan(max_distance)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "max_distance is NaN");
    snug_mesh_data *ma, *mb;
    snug_xform rel;
    snug_status st = snug_query_begin_pair(ctx, a, pose_a, b, pose_b, &ma, &mb, &rel);
    if (st != SNUG_OK) return st;
    if (max_distance < 0.0f) {
        *within = false;
        return snug_succeed(ctx);
    }
    dist_job j;
    job_init(&j, ma, mb, &rel, max_distance);
    bool w;
    st = search(ctx, &j, true, &w);
    job_stats(ctx, &j);
    if (st != SNUG_OK) return st;
    *within = w;
    if (w && out) write_result(&j, pose_a, out);
    return snug_succeed(ctx);
}

snug_status snug_mesh_within(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                              const snug_pose* pose_b, float max_distance, bool* within) {
    return snug_within_witness(ctx, a, pose_a, b, pose_b, max_distance, within, NULL);
}
