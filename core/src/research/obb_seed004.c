/* Seed 004 (Zakharov & Sadykov 2003): the reduced "front face" OBB-OBB test, kept as a selectable variant so the
 * benchmarks can compare it with the SAT (../shared/research/seed-004-obb-improved.md §4.4).
 *
 * Each box keeps only the faces whose outward normal points towards the other box's centre (a tie, dot = 0,
 * keeps both faces of that axis: erratum E7) and the edges touching those faces; B's edges are intersected with
 * A's front faces and vice versa (parametric edge/face solve, eq. 4, by Cramer's rule). As published this misses
 * overlaps in which a box centre lies inside the other box, full containment included (erratum E3/E6); the
 * containment fix adds "centre of A in B or centre of B in A". Edges parallel to a face (det = 0) are skipped as
 * in the paper, so flush contacts can be missed: this is a benchmark variant, not the production test. */
#include <math.h>

#include "research/obb_seed004.h"

/* a box in A's box frame: centre, axes (columns) and half extents */
typedef struct box_frame {
    vec3 c;
    mat3 ax;
    vec3 e;
} box_frame;

static bool edge_hits_face(const vec3 p1, const vec3 p2, const vec3 corner, const vec3 u, const vec3 v) {
    vec3 w, r, vxw, rxw, vxr;
    glm_vec3_sub((float*)p1, (float*)p2, w);
    glm_vec3_sub((float*)p1, (float*)corner, r);
    glm_vec3_cross((float*)v, w, vxw);
    float D = glm_vec3_dot((float*)u, vxw);
    float scale = glm_vec3_norm((float*)u) * glm_vec3_norm((float*)v) * glm_vec3_norm(w);
    if (!(fabsf(D) > 1e-7f * scale)) return false; /* parallel: skipped, as published */
    float alpha = glm_vec3_dot(r, vxw) / D;
    if (alpha < 0.0f || alpha > 1.0f) return false;
    glm_vec3_cross(r, w, rxw);
    float beta = glm_vec3_dot((float*)u, rxw) / D;
    if (beta < 0.0f || beta > 1.0f) return false;
    glm_vec3_cross((float*)v, r, vxr);
    float lambda = glm_vec3_dot((float*)u, vxr) / D;
    return lambda >= 0.0f && lambda <= 1.0f;
}

/* front-face signs of box X towards direction `to` (in X's axes): bit 0 = +face, bit 1 = -face */
static void front_faces(const box_frame* x, const vec3 to, int front[3]) {
    for (int k = 0; k < 3; k++) {
        float s = glm_vec3_dot((float*)x->ax[k], (float*)to);
        front[k] = s > 0.0f ? 1 : s < 0.0f ? 2 : 3;
    }
}

/* point of X at box coordinates (s0, s1, s2) in [-1, 1] */
static void box_point(const box_frame* x, float s0, float s1, float s2, vec3 out) {
    glm_vec3_copy((float*)x->c, out);
    glm_vec3_muladds((float*)x->ax[0], s0 * x->e[0], out);
    glm_vec3_muladds((float*)x->ax[1], s1 * x->e[1], out);
    glm_vec3_muladds((float*)x->ax[2], s2 * x->e[2], out);
}

/* edges of X touching one of its front faces against front faces of Y */
static bool edges_hit_faces(const box_frame* x, const int fx[3], const box_frame* y, const int fy[3]) {
    for (int k = 0; k < 3; k++) {
        int j = (k + 1) % 3, m = (k + 2) % 3;
        for (int sj = -1; sj <= 1; sj += 2)
            for (int sm = -1; sm <= 1; sm += 2) {
                bool touches = (fx[j] & (sj > 0 ? 1 : 2)) || (fx[m] & (sm > 0 ? 1 : 2));
                if (!touches) continue;
                float s[3];
                s[j] = (float)sj, s[m] = (float)sm;
                s[k] = -1.0f;
                vec3 p1, p2;
                box_point(x, s[0], s[1], s[2], p1);
                s[k] = 1.0f;
                box_point(x, s[0], s[1], s[2], p2);
                for (int f = 0; f < 3; f++) {
                    int fj = (f + 1) % 3, fm = (f + 2) % 3;
                    for (int sf = -1; sf <= 1; sf += 2) {
                        if (!(fy[f] & (sf > 0 ? 1 : 2))) continue;
                        float q[3];
                        q[f] = (float)sf, q[fj] = -1.0f, q[fm] = -1.0f;
                        vec3 corner, u, v;
                        box_point(y, q[0], q[1], q[2], corner);
                        glm_vec3_scale((float*)y->ax[fj], 2.0f * y->e[fj], u);
                        glm_vec3_scale((float*)y->ax[fm], 2.0f * y->e[fm], v);
                        if (edge_hits_face(p1, p2, corner, u, v)) return true;
                    }
                }
            }
    }
    return false;
}

static bool centre_inside(const vec3 p, const box_frame* x) {
    vec3 d;
    glm_vec3_sub((float*)p, (float*)x->c, d);
    for (int k = 0; k < 3; k++)
        if (fabsf(glm_vec3_dot((float*)x->ax[k], d)) > x->e[k]) return false;
    return true;
}

bool snug_obb_obb_seed004_ex(const snug_obb* a, const snug_obb* b, const snug_xform* rel, bool containment_fix) {
    /* both boxes in A's body frame */
    box_frame A, B;
    glm_vec3_copy((float*)a->c, A.c);
    glm_mat3_copy((vec3*)a->axes, A.ax);
    glm_vec3_copy((float*)a->e, A.e);
    snug_xform_point(rel, b->c, B.c);
    glm_mat3_mul((vec3*)rel->R, (vec3*)b->axes, B.ax);
    glm_vec3_copy((float*)b->e, B.e);
    vec3 ab, ba;
    glm_vec3_sub(B.c, A.c, ab);
    glm_vec3_negate_to(ab, ba);
    int fa[3], fb[3];
    front_faces(&A, ab, fa);
    front_faces(&B, ba, fb);
    if (edges_hit_faces(&B, fb, &A, fa) || edges_hit_faces(&A, fa, &B, fb)) return true;
    return containment_fix && (centre_inside(B.c, &A) || centre_inside(A.c, &B));
}

bool snug_obb_obb_seed004(const snug_obb* a, const snug_obb* b, const snug_xform* rel) {
    return snug_obb_obb_seed004_ex(a, b, rel, true);
}
