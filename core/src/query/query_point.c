/* Points against one mesh: the closest point (branch and bound over node AABBs, nearest child first, pruned by
 * the best distance and max_distance) and inside/outside of closed meshes by ray parity. Parity is exact for a
 * closed mesh as long as the ray crosses no edge or vertex and is not tangent; rays that come within a relative
 * margin of an edge, vertex or the point's own surface are discarded, and the answer is the majority of the
 * remaining directions. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "bvh/ray_tree.h"
#include "query/traverse.h"
#include "geom/tri.h"

#define POINT_STACK 400

/* The squared distance from p to a node's box: a lower bound of its triangles' distances, which are computed in
 * double. In float it rounded above a triangle on the box's face (points 1e9 away: one float step), pruned the
 * node and made the answer depend on the tree (a loaded blob's against a rebuilt one, fuzz_blob); in double, shaved
 * by far more than double rounds, it stays below them. */
static float point_box_dist2(const float p[3], const snug_node* n) {
    double s = 0.0;
    for (int c = 0; c < 3; c++) {
        double g = fmax((double)n->min[c] - p[c], p[c] - (double)n->max[c]);
        if (g > 0.0) s += g * g;
    }
    return (float)(s * (1.0 - 1e-12));
}

/* Shared start of the point queries: the output and the point checked, the mesh looked up. */
static snug_status begin_point(snug_ctx* ctx, snug_mesh mesh, const snug_pose* pose, const float point[3],
                               const void* out, const char* out_name, snug_mesh_data** m) {
    if (!point || !out) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "point and %s must not be NULL", out_name);
    snug_status st = snug_query_begin_one(ctx, mesh, pose, m);
    if (st != SNUG_OK) return st;
    return snug_point_check(ctx, point, "point");
}

snug_status snug_mesh_closest_point(snug_ctx* ctx, snug_mesh mesh, const snug_pose* pose, const float point[3],
                                     float max_distance, snug_point_result* out) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    snug_mesh_data* m;
    snug_status st = begin_point(ctx, mesh, pose, point, out, "out", &m);
    if (st != SNUG_OK) return st;
    if (isnan(max_distance)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "max_distance is NaN");

    snug_xform x, inv;
    snug_xform_from_pose(pose, &x);
    snug_xform_inverse(&x, &inv);
    vec3 p;
    snug_xform_point(&inv, point, p);

    float best2 = max_distance >= 0.0f ? max_distance * max_distance : -1.0f;
    uint32_t best_slot = SNUG_NONE;
    vec3 best_q = {0, 0, 0};
    const snug_node* nodes = m->bvh.nodes;
    uint32_t stack[POINT_STACK];
    float dstack[POINT_STACK];
    int top = 0;
    float d0 = point_box_dist2(p, &nodes[0]);
    if (d0 <= best2) {
        stack[top] = 0;
        dstack[top++] = d0;
    }
    while (top) {
        top--;
        /* <= keeps a triangle exactly at max_distance */
        if (dstack[top] > best2 || (best_slot != SNUG_NONE && dstack[top] >= best2)) continue;
        const snug_node* n = &nodes[stack[top]];
        ctx->stats.nodes_visited++;
        uint32_t kids = SNUG_NODE_CHILDREN(n->info);
        if (kids == 0) {
            for (uint32_t s = n->first; s < n->first + SNUG_NODE_COUNT(n->info); s++) {
                vec3 q;
                ctx->stats.primitive_tests++;
                float d2 = snug_point_tri_closest(p, snug_mesh_vertex(m, s, 0), snug_mesh_vertex(m, s, 1),
                                                  snug_mesh_vertex(m, s, 2), q);
                if (d2 < best2 || (best_slot == SNUG_NONE && d2 <= best2)) {
                    best2 = d2;
                    best_slot = s;
                    glm_vec3_copy(q, best_q);
                }
            }
            continue;
        }
        uint32_t ids[6];
        float ds[6];
        int k = 0;
        for (uint32_t c = n->first; c < n->first + kids; c++) {
            float d2 = point_box_dist2(p, &nodes[c]);
            ctx->stats.bv_tests[SNUG_BV_AABB][SNUG_BV_AABB]++;
            if (d2 > best2) continue;
            int i = k++;
            while (i > 0 && ds[i - 1] < d2) {
                ds[i] = ds[i - 1];
                ids[i] = ids[i - 1];
                i--;
            }
            ds[i] = d2;
            ids[i] = c;
        }
        for (int i = 0; i < k; i++) {
            stack[top] = ids[i];
            dstack[top++] = ds[i];
        }
    }
    if (best_slot == SNUG_NONE) {
        out->distance = INFINITY;
        out->tri = SNUG_NO_HIT;
        glm_vec3_copy((float*)point, out->point);
    } else {
        out->distance = sqrtf(best2);
        out->tri = m->tri_ids[best_slot];
        snug_xform_point(&x, best_q, out->point);
    }
    return snug_succeed(ctx);
}

/* ------------------------------------------------------------------ inside / outside */

typedef struct parity_job {
    uint32_t hits;
    bool ambiguous;
    float t_eps;   /* hits closer than this to the point: the point is on the surface */
    float uv_eps;  /* barycentric margin: hits this close to an edge or vertex are not trusted */
} parity_job;

static void parity_visit(void* user, uint32_t slot, float t, float u, float v) {
    (void)slot;
    parity_job* j = user;
    j->hits++;
    float w = 1.0f - u - v;
    if (t <= j->t_eps || u <= j->uv_eps || v <= j->uv_eps || w <= j->uv_eps) j->ambiguous = true;
}

snug_status snug_mesh_inside(snug_ctx* ctx, snug_mesh mesh, const snug_pose* pose, const float point[3],
                              bool* inside) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    snug_mesh_data* m;
    snug_status st = begin_point(ctx, mesh, pose, point, inside, "inside", &m);
    if (st != SNUG_OK) return st;
    if ((st = snug_mesh_adjacency(ctx, m)) != SNUG_OK) return st;
    if (m->boundary_edge_count != 0 || m->nonmanifold_edge_count != 0)
        return snug_fail(ctx, SNUG_ERR_NOT_CLOSED, "mesh has %u boundary and %u non-manifold edges",
                         m->boundary_edge_count, m->nonmanifold_edge_count);
    if ((st = snug_ray_tree_prepare(ctx, m)) != SNUG_OK) return st;
    snug_xform x, inv;
    snug_xform_from_pose(pose, &x);
    snug_xform_inverse(&x, &inv);
    vec3 p;
    snug_xform_point(&inv, point, p);
    /* directions with irrational-looking components, so axis-aligned and diagonal features are not grazed */
    static const float dirs[9][3] = {{0.5257311f, 0.8506508f, 0.0136f},  {-0.7071f, 0.3123f, 0.6344f},
                                     {0.2912f, -0.4419f, -0.8485f},      {-0.6123f, -0.7317f, 0.2996f},
                                     {0.8361f, 0.1274f, -0.5336f},       {0.0917f, 0.9653f, -0.2446f},
                                     {-0.3818f, -0.1547f, 0.9112f},      {0.6669f, -0.6937f, 0.2721f},
                                     {-0.9327f, 0.2113f, -0.2921f}};
    int votes_in = 0, votes_out = 0;
    for (int k = 0; k < 9 && votes_in < 3 && votes_out < 3; k++) {
        snug_ray_local r;
        snug_ray_local_init(&r, p, dirs[k], INFINITY);
        parity_job j = {0, false, m->tolerance, 1e-6f};
        snug_ray_visit_all(m, &r, parity_visit, &j, &ctx->stats);
        if (j.ambiguous) continue;
        if (j.hits & 1u) votes_in++;
        else votes_out++;
    }
    /* ties (or every direction ambiguous: the point is on the surface within tolerance) count as inside */
    *inside = votes_in >= votes_out;
    return snug_succeed(ctx);
}
