/* Mesh-mesh distance and the tolerance query. Depth-first branch and bound in A's frame: every node pair gets a
 * cheap lower bound (largest separating gap over the six face axes of the two boxes, which never exceeds the
 * Euclidean distance; for spheres also centre distance minus radii), child pairs are searched nearest first,
 * pairs whose bound reaches the best distance found so far are dropped. Per-node directed Hausdorff bounds
 * (seed 000 §3.8.2), when the trees carry them, give upper bounds: for x in BV_a, d(F_a, F_b) <= h_a + d(x, BV_b)
 * + h_b, which prunes before any triangle pair is measured and lets the tolerance query answer early. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "query/traverse.h"
#include "geom/tri.h"

#define LEAF_MAX 255

typedef struct dist_entry {
    uint32_t a, b;
    float lb;
} dist_entry;

typedef struct dist_job {
    const snug_mesh_data* ma;
    const snug_mesh_data* mb;
    const snug_xform* rel;
    mat3 absR;
    float guard;            /* rounding allowance subtracted from lower bounds */
    bool hausdorff;
    float best;             /* best triangle distance found (or the threshold of the tolerance query) */
    float bound;            /* min(best, Hausdorff upper bounds) */
    bool found;
    float pa[3], pb[3];     /* closest points in A's frame */
    uint32_t sa, sb;        /* their slots */
    uint64_t bv_tests, prim_tests, visited;
    float vb[LEAF_MAX * 3][3];
} dist_job;

/* Lower bound on the distance of the contents of node a (A's frame) and node b (B's frame). */
static float pair_lower_bound(const dist_job* j, uint32_t na, uint32_t nb) {
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
    glm_mat3_mulv((vec3*)j->absR, hb, hbA);
    mat3 absRt;
    glm_mat3_transpose_to((vec3*)j->absR, absRt);
    glm_mat3_mulv(absRt, ha, haB);
    mat3 Rt;
    glm_mat3_transpose_to((vec3*)j->rel->R, Rt);
    glm_mat3_mulv(Rt, d, dB);
    float lb = 0.0f;
    for (int i = 0; i < 3; i++) {
        lb = glm_max(lb, fabsf(d[i]) - ha[i] - hbA[i]);
        lb = glm_max(lb, fabsf(dB[i]) - hb[i] - haB[i]);
    }
    snug_bv_type ta = (snug_bv_type)SNUG_NODE_BV_TYPE(A->info), tb = (snug_bv_type)SNUG_NODE_BV_TYPE(B->info);
    if (ta == SNUG_BV_SPHERE && tb == SNUG_BV_SPHERE) {
        const snug_sphere *sa = &j->ma->bvh.spheres[na], *sb = &j->mb->bvh.spheres[nb];
        vec3 c;
        snug_xform_point(j->rel, sb->c, c);
        lb = glm_max(lb, glm_vec3_distance(c, (float*)sa->c) - sa->r - sb->r);
    }
    return lb - j->guard;
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
    float blo[LEAF_MAX][3], bhi[LEAF_MAX][3];
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
    }
    for (uint32_t i = 0; i < na; i++) {
        uint32_t sa = A->first + i;
        const float *a0 = snug_mesh_vertex(j->ma, sa, 0), *a1 = snug_mesh_vertex(j->ma, sa, 1), *a2 = snug_mesh_vertex(j->ma, sa, 2);
        vec3 lo, hi;
        glm_vec3_minv((float*)a0, (float*)a1, lo);
        glm_vec3_minv(lo, (float*)a2, lo);
        glm_vec3_maxv((float*)a0, (float*)a1, hi);
        glm_vec3_maxv(hi, (float*)a2, hi);
        for (uint32_t k = 0; k < nb; k++) {
            /* box gap: a lower bound on the triangle distance */
            float g2 = 0.0f;
            for (int c = 0; c < 3; c++) {
                float g1 = blo[k][c] - hi[c], g2b = lo[c] - bhi[k][c], g = g1 > g2b ? g1 : g2b;
                if (g > 0.0f) g2 += g * g;
            }
            if (g2 > j->best * j->best) continue;
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

/* Branch and bound. With stop_within the search ends as soon as the answer to "distance <= best" is known. */
static snug_status search(snug_ctx* ctx, dist_job* j, bool stop_within, bool* within) {
    size_t cap = snug_traverse_stack_pairs(&j->ma->bvh, &j->mb->bvh);
    snug_status st = snug_scratch_reserve(ctx, cap * sizeof(dist_entry));
    if (st != SNUG_OK) return st;
    dist_entry* stack = (dist_entry*)ctx->scratch.data;
    size_t top = 0;
    dist_entry cand[36];
    stack[top++] = (dist_entry){0, 0, pair_lower_bound(j, 0, 0)};
    j->bv_tests++;
    *within = false;
    while (top) {
        dist_entry e = stack[--top];
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
            continue;
        }
        snug_expand x = snug_traverse_choose(&j->ma->bvh, e.a, &j->mb->bvh, e.b, ctx->traversal);
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
                cand[k] = (dist_entry){ia, ib, lb};
            }
        for (int k = 0; k < n; k++) stack[top++] = cand[k];
    }
    *within = j->found;
    return SNUG_OK;
}

static void job_init(dist_job* j, const snug_mesh_data* ma, const snug_mesh_data* mb, const snug_xform* rel, float start) {
    j->ma = ma;
    j->mb = mb;
    j->rel = rel;
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) j->absR[c][r] = fabsf(rel->R[c][r]) + 1e-6f;
    j->guard = 16.0f * FLT_EPSILON * (ma->scale + mb->scale + glm_vec3_norm((float*)rel->t));
    j->hausdorff = ma->bvh.hausdorff && mb->bvh.hausdorff;
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
    snug_xform xa;
    snug_xform_from_pose(pose_a, &xa);
    out->distance = j.best;
    snug_xform_point(&xa, j.pa, out->point_a);
    snug_xform_point(&xa, j.pb, out->point_b);
    out->tri_a = ma->tri_ids[j.sa];
    out->tri_b = mb->tri_ids[j.sb];
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
    if (w && out) {
        snug_xform xa;
        snug_xform_from_pose(pose_a, &xa);
        out->distance = j.best;
        snug_xform_point(&xa, j.pa, out->point_a);
        snug_xform_point(&xa, j.pb, out->point_b);
        out->tri_a = ma->tri_ids[j.sa];
        out->tri_b = mb->tri_ids[j.sb];
    }
    return snug_succeed(ctx);
}

snug_status snug_mesh_within(snug_ctx* ctx, snug_mesh a, const snug_pose* pose_a, snug_mesh b,
                              const snug_pose* pose_b, float max_distance, bool* within) {
    return snug_within_witness(ctx, a, pose_a, b, pose_b, max_distance, within, NULL);
}
