/* Seed 003 (Yu et al. 2018) "DAASD": AABB pre-detection, space division of the overlap region into slabs along
 * the axis of least motion, and vertex paths against triangles, with the digest's corrections:
 *  - the segment-plane parameter is t = D1 / (D1 - D2) on X = Q1 + t (Q2 - Q1) (eqs. 17'/19', E1);
 *  - point in triangle by edge functions with a tolerance (E2);
 *  - the overlap region uses the mover's swept AABB (start and end), so a fast mover cannot skip it;
 *  - triangles and paths go into every slab their extent touches, not by centroid (E6, E7);
 *  - both roles are run (vertices of a through triangles of b and the reverse), in the other mesh's frame.
 * Documented limits kept on purpose (this mode exists to reproduce the paper): no edge-edge crossings (two edges
 * can pass through each other undetected), rotation is taken as the straight chord between start and end
 * positions (keyframes are ignored), and meshes that already interpenetrate without a vertex crossing are missed. */
#include <math.h>
#include <string.h>

#include "ccd/ccd.h"
#include "base/vec_d.h"

typedef struct daasd_path {
    float q1[3], q2[3];
    float lo[3], hi[3]; /* box of the path */
    uint32_t slot;   /* a triangle slot of the mover holding the vertex, and its corner */
    uint32_t corner;
    uint32_t k0;     /* first slab the path touches */
} daasd_path;

typedef struct daasd_best {
    double t;
    int role;        /* 0: vertex of a through b, 1: vertex of b through a */
    uint32_t mover_slot, corner, tri_slot;
    double x[3];     /* contact point in the static mesh's frame */
    double n[3];     /* unit normal of the hit triangle (static frame), facing the path's start */
} daasd_best;

static void xform_box(const snug_xform* x, const float lo[3], const float hi[3], float out_lo[3], float out_hi[3]) {
    snug_swept_box(x, x, 0.0, NULL, lo, hi, out_lo, out_hi);
}

/* Collect slots of `s` whose triangle box overlaps the region (walk of its hierarchy). */
static uint32_t gather_tris(const snug_mesh_data* s, const float lo[3], const float hi[3], uint32_t* out,
                            uint32_t* stack) {
    uint32_t n = 0, top = 0;
    stack[top++] = 0;
    while (top) {
        const snug_node* nd = &s->bvh.nodes[stack[--top]];
        bool apart = false;
        for (int i = 0; i < 3; i++) apart = apart || nd->min[i] > hi[i] || nd->max[i] < lo[i];
        if (apart) continue;
        uint32_t kids = SNUG_NODE_CHILDREN(nd->info);
        if (kids) {
            for (uint32_t c = 0; c < kids; c++) stack[top++] = nd->first + c;
            continue;
        }
        for (uint32_t k = 0; k < SNUG_NODE_COUNT(nd->info); k++) {
            uint32_t slot = nd->first + k;
            bool away = false;
            for (int i = 0; i < 3 && !away; i++) {
                float a = snug_mesh_vertex(s, slot, 0)[i], b = snug_mesh_vertex(s, slot, 1)[i],
                      c = snug_mesh_vertex(s, slot, 2)[i];
                away = fminf(a, fminf(b, c)) > hi[i] || fmaxf(a, fmaxf(b, c)) < lo[i];
            }
            if (!away) out[n++] = slot;
        }
    }
    return n;
}

/* The corrected DAASD primitive: does path q1 -> q2 cross triangle abc (within eps)? */
static bool path_hits_tri(const float q1[3], const float q2[3], const float* a, const float* b, const float* c,
                          double eps, double* t, double x[3], double n[3]) {
    dvec A = dv(a), N = dcross(dsub(dv(b), A), dsub(dv(c), A));
    double len = sqrt(ddot(N, N));
    if (!(len > 0.0)) return false;
    N = ddiv(N, len);
    double D = ddot(N, A);                 /* (12) */
    double D1 = ddot(N, dv(q1)) - D;       /* (13), (15) */
    double D2 = ddot(N, dv(q2)) - D;       /* (14), (16) */
    if ((D1 > eps && D2 > eps) || (D1 < -eps && D2 < -eps)) return false; /* same side */
    double tt;
    if (fabs(D1) <= eps) tt = 0.0;                 /* already touching at the start */
    else if (D1 == D2) return false;               /* path in the plane: not handled by the paper */
    else tt = (D1 - (D1 > 0.0 ? eps : -eps)) / (D1 - D2); /* (19'), reaching the eps band */
    if (tt < 0.0) tt = 0.0;
    if (tt > 1.0) tt = 1.0;
    dvec X = dadd(dv(q1), dscale(dsub(dv(q2), dv(q1)), tt)); /* (17') */
    const float* v[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        dvec p = dv(v[k]), m = dcross(dsub(dv(v[(k + 1) % 3]), p), N);
        double ml = sqrt(ddot(m, m));
        if (ml > 0.0 && ddot(m, dsub(X, p)) > eps * ml) return false;
    }
    if (D1 < 0.0) N = dneg(N);
    dstore(X, x);
    dstore(N, n);
    *t = tt;
    return true;
}

/* One role: vertices of `mover` (poses m0 -> m1) through triangles of `fixed` (poses s0 -> s1, frame of s0/s1). */
static snug_status run_role(snug_ctx* ctx, const snug_toi_input* in, int role, daasd_best* best) {
    const snug_mesh_data* mv = role == 0 ? in->a : in->b;
    const snug_mesh_data* fx = role == 0 ? in->b : in->a;
    const snug_motion* mm = role == 0 ? in->motion_a : in->motion_b;
    const snug_motion* fm = role == 0 ? in->motion_b : in->motion_a;
    snug_xform x0, x1;
    snug_xform_relative(&fm->start, &mm->start, &x0); /* mover frame -> fixed frame */
    snug_xform_relative(&fm->end, &mm->end, &x1);
    /* pre-detection: swept box of the mover against the fixed mesh's box (eqs. 1-4) */
    float lo0[3], hi0[3], lo1[3], hi1[3], lo[3], hi[3];
    xform_box(&x0, mv->aabb_min, mv->aabb_max, lo0, hi0);
    xform_box(&x1, mv->aabb_min, mv->aabb_max, lo1, hi1);
    float e = (float)in->eps;
    for (int i = 0; i < 3; i++) {
        lo[i] = fmaxf(fminf(lo0[i], lo1[i]), fx->aabb_min[i]) - e;
        hi[i] = fminf(fmaxf(hi0[i], hi1[i]), fx->aabb_max[i]) + e;
        if (lo[i] > hi[i]) return SNUG_OK;
    }
    /* axis of least motion of the mover's box centre (eq. 7) */
    int axis = 0;
    float dmin = INFINITY;
    for (int i = 0; i < 3; i++) {
        float d = fabsf(0.5f * (lo1[i] + hi1[i]) - 0.5f * (lo0[i] + hi0[i]));
        if (d < dmin) dmin = d, axis = i;
    }
    /* scratch: triangles, stack, paths, seen bits, bins */
    size_t T = fx->tri_count, V = mv->vertex_count, depth = fx->bvh.node_count + 64;
    size_t K_max = 4096;
    size_t bytes = T * 4 + depth * 4 + V * sizeof(daasd_path) + (V + 31) / 32 * 4 + (K_max + 1) * 8 + 64;
    snug_status st = snug_scratch_reserve(ctx, bytes);
    if (st) return st;
    unsigned char* mem = ctx->scratch.data;
    daasd_path* paths = (daasd_path*)mem;
    uint32_t* tris = (uint32_t*)(paths + V);
    uint32_t* stack = tris + T;
    uint32_t* seen = stack + depth;
    uint32_t* tri_first = seen + (V + 31) / 32;   /* per slab: first index into the sorted candidate list */
    uint32_t* path_first = tri_first + K_max + 1;
    uint32_t nt = gather_tris(fx, lo, hi, tris, stack);
    if (!nt) return SNUG_OK;
    /* vertex paths whose chord box meets the region (eqs. 5-6 done per vertex, not per object) */
    memset(seen, 0, (V + 31) / 32 * 4);
    uint32_t np = 0;
    for (uint32_t slot = 0; slot < mv->tri_count; slot++) {
        for (uint32_t c = 0; c < 3; c++) {
            uint32_t v = mv->tris[3 * slot + c];
            if (seen[v >> 5] & (1u << (v & 31))) continue;
            seen[v >> 5] |= 1u << (v & 31);
            daasd_path* p = &paths[np];
            snug_xform_point(&x0, mv->positions + 3 * v, p->q1);
            snug_xform_point(&x1, mv->positions + 3 * v, p->q2);
            bool in_region = true;
            for (int i = 0; i < 3; i++) {
                p->lo[i] = p->q1[i] < p->q2[i] ? p->q1[i] : p->q2[i];
                p->hi[i] = p->q1[i] < p->q2[i] ? p->q2[i] : p->q1[i];
                in_region = in_region && p->lo[i] <= hi[i] && p->hi[i] >= lo[i];
            }
            if (!in_region) continue;
            p->slot = slot, p->corner = c;
            np++;
        }
    }
    if (!np) return SNUG_OK;
    /* slabs along the axis: K from the candidate count unless given */
    uint32_t K = in->def.daasd_slabs;
    if (!K) {
        double k = sqrt((double)nt) / 4.0;
        K = k < 1.0 ? 1u : (k > 64.0 ? 64u : (uint32_t)(k + 0.5));
    }
    float base = lo[axis], width = (hi[axis] - lo[axis]) / (float)K;
    if (!(width > 0.0f)) K = 1, width = 1.0f;
    /* slab range of an extent */
#define SLAB_OF(x) ((uint32_t)fminf(fmaxf(((x) - base) / width, 0.0f), (float)(K - 1)))
    /* bin triangles and paths into every slab their extent touches (counting sort; E7) */
    uint32_t* tcount = tri_first;
    uint32_t* pcount = path_first;
    for (uint32_t k = 0; k <= K; k++) tcount[k] = pcount[k] = 0;
    for (uint32_t i = 0; i < nt; i++) {
        const float* a = snug_mesh_vertex(fx, tris[i], 0);
        const float* b = snug_mesh_vertex(fx, tris[i], 1);
        const float* c = snug_mesh_vertex(fx, tris[i], 2);
        float tlo = fminf(a[axis], fminf(b[axis], c[axis])) - e, thi = fmaxf(a[axis], fmaxf(b[axis], c[axis])) + e;
        for (uint32_t k = SLAB_OF(tlo); k <= SLAB_OF(thi); k++) tcount[k + 1]++;
    }
    for (uint32_t j = 0; j < np; j++) {
        paths[j].k0 = SLAB_OF(paths[j].lo[axis]);
        for (uint32_t k = paths[j].k0; k <= SLAB_OF(paths[j].hi[axis]); k++) pcount[k + 1]++;
    }
    for (uint32_t k = 0; k < K; k++) tcount[k + 1] += tcount[k], pcount[k + 1] += pcount[k];
    size_t used = (size_t)((unsigned char*)(path_first + K_max + 1) - mem);
    size_t lists = ((size_t)tcount[K] + pcount[K] + 2 * (K + 1)) * 4;
    if ((st = snug_buffer_reserve(ctx, &ctx->scratch, used + lists, used))) return st;
    mem = ctx->scratch.data; /* the arena may have moved */
    paths = (daasd_path*)mem;
    tris = (uint32_t*)(paths + V);
    stack = tris + T;
    seen = stack + depth;
    tcount = seen + (V + 31) / 32;
    pcount = tcount + K_max + 1;
    uint32_t* tlist = pcount + K_max + 1;
    uint32_t* plist = tlist + tcount[K];
    uint32_t* tfill = plist + pcount[K];
    uint32_t* pfill = tfill + K + 1;
    memcpy(tfill, tcount, (K + 1) * 4);
    memcpy(pfill, pcount, (K + 1) * 4);
    for (uint32_t i = 0; i < nt; i++) {
        const float* a = snug_mesh_vertex(fx, tris[i], 0);
        const float* b = snug_mesh_vertex(fx, tris[i], 1);
        const float* c = snug_mesh_vertex(fx, tris[i], 2);
        float tlo = fminf(a[axis], fminf(b[axis], c[axis])) - e, thi = fmaxf(a[axis], fmaxf(b[axis], c[axis])) + e;
        for (uint32_t k = SLAB_OF(tlo); k <= SLAB_OF(thi); k++) tlist[tfill[k]++] = i;
    }
    for (uint32_t j = 0; j < np; j++)
        for (uint32_t k = paths[j].k0; k <= SLAB_OF(paths[j].hi[axis]); k++) plist[pfill[k]++] = j;
    /* slab by slab: points x triangles of the slab; a pair sharing several slabs is tested in its first one */
    for (uint32_t k = 0; k < K; k++) {
        for (uint32_t ti = tcount[k]; ti < tcount[k + 1]; ti++) {
            uint32_t slot = tris[tlist[ti]];
            const float* a = snug_mesh_vertex(fx, slot, 0);
            const float* b = snug_mesh_vertex(fx, slot, 1);
            const float* c = snug_mesh_vertex(fx, slot, 2);
            float blo[3], bhi[3];
            for (int q = 0; q < 3; q++)
                blo[q] = fminf(a[q], fminf(b[q], c[q])) - e, bhi[q] = fmaxf(a[q], fmaxf(b[q], c[q])) + e;
            uint32_t tk = SLAB_OF(blo[axis]);
            for (uint32_t pi = pcount[k]; pi < pcount[k + 1]; pi++) {
                const daasd_path* p = &paths[plist[pi]];
                if ((tk > p->k0 ? tk : p->k0) != k) continue; /* tested in an earlier common slab */
                if (p->lo[0] > bhi[0] || p->hi[0] < blo[0] || p->lo[1] > bhi[1] || p->hi[1] < blo[1] ||
                    p->lo[2] > bhi[2] || p->hi[2] < blo[2])
                    continue;
                ctx->stats.primitive_tests++;
                double t, x[3], n[3];
                if (!path_hits_tri(p->q1, p->q2, a, b, c, in->eps, &t, x, n)) continue;
                if (t < best->t) {
                    best->t = t, best->role = role, best->mover_slot = p->slot, best->corner = p->corner;
                    best->tri_slot = slot;
                    memcpy(best->x, x, sizeof best->x);
                    memcpy(best->n, n, sizeof best->n);
                }
            }
        }
    }
#undef SLAB_OF
    return SNUG_OK;
}

snug_status snug_toi_daasd(snug_ctx* ctx, const snug_toi_input* in, snug_toi_result* out) {
    daasd_best best;
    memset(&best, 0, sizeof best);
    best.t = 2.0;
    snug_status st;
    if ((st = run_role(ctx, in, 0, &best))) return st;
    if ((st = run_role(ctx, in, 1, &best))) return st;
    snug_toi_result r;
    snug_toi_result_clear(&r);
    if (best.t <= 1.0) {
        r.hit = true;
        r.t = (float)best.t;
        /* frame of the fixed mesh at t (its chord pose) back to world */
        const snug_motion* fm = best.role == 0 ? in->motion_b : in->motion_a;
        snug_pose fp = snug_motion_pose_at_d(fm, best.t);
        snug_xform fw;
        snug_xform_from_pose(&fp, &fw);
        vec3 xl = {(float)best.x[0], (float)best.x[1], (float)best.x[2]}, nl = {(float)best.n[0], (float)best.n[1], (float)best.n[2]}, xw, nw;
        snug_xform_point(&fw, xl, xw);
        snug_xform_dir(&fw, nl, nw);
        if (best.role == 1) glm_vec3_negate(nw); /* normal from b towards a */
        glm_vec3_copy(xw, r.point);
        glm_vec3_copy(nw, r.normal);
        const snug_mesh_data* mv = best.role == 0 ? in->a : in->b;
        const snug_mesh_data* fx = best.role == 0 ? in->b : in->a;
        if (best.role == 0) {
            r.feature = SNUG_FEATURE_VERTEX_FACE;
            r.tri_a = mv->tri_ids[best.mover_slot], r.feature_a = (int)best.corner;
            r.tri_b = fx->tri_ids[best.tri_slot], r.feature_b = -1;
        } else {
            r.feature = SNUG_FEATURE_FACE_VERTEX;
            r.tri_b = mv->tri_ids[best.mover_slot], r.feature_b = (int)best.corner;
            r.tri_a = fx->tri_ids[best.tri_slot], r.feature_a = -1;
        }
        /* safe: back off by two tolerances at the fastest vertex speed along the chords */
        double speed = 0.0;
        for (int k = 0; k < 2; k++) {
            const snug_motion* m = k ? in->motion_b : in->motion_a;
            const snug_mesh_data* d = k ? in->b : in->a;
            snug_lerp_slerp ls;
            snug_lerp_slerp_init(&ls, &m->start, &m->end);
            double mv2 = 0.0, reach = 0.0;
            for (int i = 0; i < 3; i++) {
                mv2 += (ls.p1[i] - ls.p0[i]) * (ls.p1[i] - ls.p0[i]);
                double a = fmax(fabs(d->aabb_min[i]), fabs(d->aabb_max[i]));
                reach += a * a;
            }
            speed += sqrt(mv2) + snug_lerp_slerp_angle(&ls) * sqrt(reach);
        }
        double safe = speed > 0.0 ? best.t - 2.0 * in->eps / speed : best.t;
        r.safe_t = (float)(safe < 0.0 ? 0.0 : safe);
    }
    *out = r;
    return snug_succeed(ctx);
}
