/* Directed Hausdorff distance from a solid bounding volume to the faces it covers (seed 000 §3.8.2, Fig. 3.12
 * with the corrected loop condition); see bvh.h for why the solid and not only the surface.
 *
 * Regions are boxes ("cells") in the BV's frame (the OBB's axes, world axes otherwise), starting from the BV's
 * box and halved along their longest side. A cell's estimate is d(centre, F) + half its diagonal (correction
 * method 1: the farthest point of a box from its centre is a corner), an upper bound over the cell; a centre
 * inside the BV gives a lower bound d(centre, F). Cells that miss the BV or cannot beat the lower bound are
 * dropped; the cell of largest estimate is split until the gap is small. Fixed-size arrays: no allocation. */
#include "bvh/bvh.h"
#include "geom/tri.h"

#include <float.h>
#include <math.h>

#define CELL_CAPACITY 512
#define EVAL_BUDGET 4096
#define SET_WORK_BUDGET 200000.0

typedef struct cell {
    double c[3], h[3]; /* centre and half extents in the frame */
    double est;
} cell;

typedef struct faces {
    const float* positions;
    const uint32_t* tris;
    const uint32_t* perm;       /* slot -> triangle, NULL = identity (hierarchy mode) */
    const snug_bvh* bvh;
    uint32_t node;
    const snug_tri_set* set;    /* brute-force mode when bvh is NULL */
} faces;

typedef struct frame {
    snug_bv_type type;
    const void* bv;
    double origin[3], axes[3][3]; /* world = origin + sum_k axes[k] * local[k] */
} frame;

static double tri_dist2(const faces* f, uint32_t tri, const float p[3], float q[3]) {
    const uint32_t* t = f->tris + 3 * tri;
    return snug_point_tri_closest(p, f->positions + 3 * t[0], f->positions + 3 * t[1], f->positions + 3 * t[2], q);
}

static double box_dist2(const snug_node* n, const float p[3]) {
    double d = 0.0;
    for (int a = 0; a < 3; a++) {
        double e = p[a] < n->min[a] ? n->min[a] - p[a] : (p[a] > n->max[a] ? p[a] - n->max[a] : 0.0);
        d += e * e;
    }
    return d;
}

/* d(p, F) and the nearest face point: through the hierarchy (nearer children first, pruned by box distance) or
 * brute force. */
static double face_point(const faces* f, const float p[3], float nearest[3]) {
    double best = INFINITY;
    if (!f->bvh) {
        for (uint32_t k = 0; k < f->set->count; k++) {
            float q[3];
            double d = tri_dist2(f, snug_tri_set_slot(f->set, k), p, q);
            if (d < best) best = d, nearest[0] = q[0], nearest[1] = q[1], nearest[2] = q[2];
        }
        return sqrt(best);
    }
    uint32_t stack[64 * 6 + 8];
    int top = 0;
    stack[top++] = f->node;
    while (top > 0) {
        const snug_node* n = &f->bvh->nodes[stack[--top]];
        if (box_dist2(n, p) >= best) continue;
        uint32_t kids = SNUG_NODE_CHILDREN(n->info);
        if (!kids) {
            for (uint32_t s = n->first; s < n->first + SNUG_NODE_COUNT(n->info); s++) {
                float q[3];
                double d = tri_dist2(f, f->perm ? f->perm[s] : s, p, q);
                if (d < best) best = d, nearest[0] = q[0], nearest[1] = q[1], nearest[2] = q[2];
            }
            continue;
        }
        /* push farther children first so the nearest is popped next */
        uint32_t order[6];
        double key[6];
        for (uint32_t k = 0; k < kids; k++) {
            order[k] = n->first + k;
            key[k] = box_dist2(&f->bvh->nodes[n->first + k], p);
            for (uint32_t j = k; j > 0 && key[j] > key[j - 1]; j--) {
                double tk = key[j];
                key[j] = key[j - 1];
                key[j - 1] = tk;
                uint32_t to = order[j];
                order[j] = order[j - 1];
                order[j - 1] = to;
            }
        }
        for (uint32_t k = 0; k < kids && top < (int)(sizeof stack / sizeof *stack); k++) stack[top++] = order[k];
    }
    return sqrt(best);
}

static double face_dist(const faces* f, const float p[3]) {
    float q[3];
    return face_point(f, p, q);
}

static void to_world(const frame* fr, const double local[3], float out[3]) {
    for (int a = 0; a < 3; a++)
        out[a] = (float)(fr->origin[a] + fr->axes[0][a] * local[0] + fr->axes[1][a] * local[1] +
                         fr->axes[2][a] * local[2]);
}

/* Does the cell meet the BV (conservatively), and is its centre inside the BV? Boxes are the frame itself. */
static void classify(const frame* fr, const cell* c, bool* meets, bool* centre_inside) {
    *meets = *centre_inside = true;
    if (fr->type == SNUG_BV_SPHERE) {
        const snug_sphere* s = fr->bv;
        double d2 = 0.0, e2 = 0.0;
        for (int a = 0; a < 3; a++) {
            double x = c->c[a] - s->c[a], e = fabs(x) - c->h[a];
            d2 += x * x;
            if (e > 0.0) e2 += e * e;
        }
        *meets = e2 <= (double)s->r * s->r;
        *centre_inside = d2 <= (double)s->r * s->r;
    } else if (snug_kdop_axis_count(fr->type) > 0) {
        const snug_kdop* k = fr->bv;
        const float(*d)[3] = snug_kdop_type_directions(fr->type);
        for (int j = 0; j < snug_kdop_axis_count(fr->type); j++) {
            double m = d[j][0] * c->c[0] + d[j][1] * c->c[1] + d[j][2] * c->c[2];
            double r = fabs(d[j][0]) * c->h[0] + fabs(d[j][1]) * c->h[1] + fabs(d[j][2]) * c->h[2];
            if (m + r < k->lo[j] || m - r > k->hi[j]) *meets = false;
            if (m < k->lo[j] || m > k->hi[j]) *centre_inside = false;
        }
    }
}

static double round_up_to_float(double v) {
    float f = (float)v;
    if ((double)f < v) f = nextafterf(f, INFINITY);
    return f;
}

/* A point of the BV for the cell: its centre when inside, else (spheres, k-DOPs) the centre pulled onto the
 * BV; returns false when no such point was found (then the cell gives no lower bound). Frame coordinates. */
static bool sample_point(const frame* fr, const cell* c, double s[3]) {
    for (int a = 0; a < 3; a++) s[a] = c->c[a];
    if (fr->type == SNUG_BV_SPHERE) {
        const snug_sphere* sp = fr->bv;
        double d[3], n = 0.0;
        for (int a = 0; a < 3; a++) d[a] = s[a] - sp->c[a], n += d[a] * d[a];
        n = sqrt(n);
        if (n > sp->r) /* just inside, so rounding keeps it in the ball */
            for (int a = 0; a < 3; a++) s[a] = sp->c[a] + d[a] * (sp->r / n) * (1.0 - 1e-7);
        return true;
    }
    int axes = snug_kdop_axis_count(fr->type);
    if (!axes) return true;
    const snug_kdop* k = fr->bv;
    const float(*dir)[3] = snug_kdop_type_directions(fr->type);
    for (int round = 0; round < 4; round++)
        for (int j = 0; j < axes; j++) {
            double m = dir[j][0] * s[0] + dir[j][1] * s[1] + dir[j][2] * s[2];
            double n2 = (double)dir[j][0] * dir[j][0] + (double)dir[j][1] * dir[j][1] + (double)dir[j][2] * dir[j][2];
            double shift = m < k->lo[j] ? k->lo[j] - m : (m > k->hi[j] ? k->hi[j] - m : 0.0);
            for (int a = 0; a < 3; a++) s[a] += shift / n2 * dir[j][a];
        }
    for (int j = 0; j < axes; j++) {
        double m = dir[j][0] * s[0] + dir[j][1] * s[1] + dir[j][2] * s[2];
        if (m < k->lo[j] || m > k->hi[j]) return false;
    }
    return true;
}

/* Upper bound over the cell: d(s, F) + the distance from s to the farthest cell corner (correction method 1,
 * with s the centre it is half the diagonal); a lower bound d(s, F) when s lies in the BV. */
static void evaluate(const frame* fr, const faces* f, cell* c, double* lower, int* evals) {
    double s[3], far = 0.0;
    bool in_bv = sample_point(fr, c, s);
    for (int a = 0; a < 3; a++) {
        double e = fabs(s[a] - c->c[a]) + c->h[a];
        far += e * e;
    }
    float p[3];
    to_world(fr, s, p);
    double d = face_dist(f, p);
    c->est = d + sqrt(far);
    if (in_bv && d > *lower) *lower = d;
    (*evals)++;
}

/* max-heap on est */
static void heap_push(cell* heap, int* n, cell c) {
    int i = (*n)++;
    while (i > 0 && heap[(i - 1) / 2].est < c.est) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = c;
}

static cell heap_pop(cell* heap, int* n) {
    cell top = heap[0], last = heap[--(*n)];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        double mv = last.est;
        if (l < *n && heap[l].est > mv) m = l, mv = heap[l].est;
        if (r < *n && heap[r].est > mv) m = r;
        if (m == i) break;
        heap[i] = heap[m];
        i = m;
    }
    heap[i] = last;
    return top;
}

static double estimate(const frame* fr, const faces* f, const double lo[3], const double hi[3], double eps_rel,
                       int max_evals, double* lower_out) {
    cell heap[CELL_CAPACITY];
    int n = 0, evals = 0;
    double lower = 0.0;
    cell root;
    for (int a = 0; a < 3; a++) {
        root.c[a] = 0.5 * (lo[a] + hi[a]);
        root.h[a] = 0.5 * (hi[a] - lo[a]);
    }
    double eps_abs = 1e-7 * sqrt(root.h[0] * root.h[0] + root.h[1] * root.h[1] + root.h[2] * root.h[2]);
    /* A ball has a closed-form bound (correction method 2 with the whole ball as the region): every x in it
     * is within r + |c - p| of the face point p nearest the centre c. Its far side from p is a good first
     * lower-bound sample; curved surfaces otherwise need many small cells to close the gap. */
    double ball_bound = INFINITY;
    if (fr->type == SNUG_BV_SPHERE) {
        const snug_sphere* sp = fr->bv;
        float cp[3], near[3];
        for (int a = 0; a < 3; a++) cp[a] = sp->c[a];
        double d0 = face_point(f, cp, near);
        ball_bound = sp->r + d0;
        double dir[3], len = 0.0;
        for (int a = 0; a < 3; a++) dir[a] = (double)cp[a] - near[a], len += dir[a] * dir[a];
        len = sqrt(len);
        float far[3];
        for (int a = 0; a < 3; a++) far[a] = (float)(sp->c[a] + (len > 0.0 ? dir[a] / len : (a == 2)) * sp->r * (1.0 - 1e-7));
        lower = face_dist(f, far);
        evals += 2;
    }
    evaluate(fr, f, &root, &lower, &evals);
    heap_push(heap, &n, root);
    double upper = fmin(root.est, ball_bound);
    while (n > 0) {
        upper = fmin(heap[0].est, ball_bound);
        double gap = upper - lower;
        if (gap <= eps_abs || gap <= eps_rel * upper) break;    /* either criterion stops (corrected Fig. 3.12) */
        if (evals + 2 > max_evals || n + 2 > CELL_CAPACITY) break; /* the bound stays valid, only looser */
        cell c = heap_pop(heap, &n);
        int axis = c.h[1] > c.h[0] ? 1 : 0;
        if (c.h[2] > c.h[axis]) axis = 2;
        for (int side = -1; side <= 1; side += 2) {
            cell k = c;
            k.h[axis] = 0.5 * c.h[axis];
            k.c[axis] = c.c[axis] + side * k.h[axis];
            bool meets, inside;
            classify(fr, &k, &meets, &inside);
            if (!meets) continue;
            evaluate(fr, f, &k, &lower, &evals);
            if (k.est > lower) heap_push(heap, &n, k);
        }
        if (n == 0) upper = fmin(lower, ball_bound);
    }
    if (lower > upper) upper = lower;
    if (lower_out) *lower_out = lower;
    return round_up_to_float(upper);
}

static void make_frame(snug_bv_type type, const void* bv, frame* fr, double lo[3], double hi[3]) {
    fr->type = type;
    fr->bv = bv;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) fr->axes[a][b] = a == b;
    for (int a = 0; a < 3; a++) fr->origin[a] = 0.0;
    if (type == SNUG_BV_OBB) {
        const snug_obb* o = bv;
        for (int a = 0; a < 3; a++) {
            fr->origin[a] = o->c[a];
            for (int b = 0; b < 3; b++) fr->axes[a][b] = o->axes[a][b];
            lo[a] = -o->e[a];
            hi[a] = o->e[a];
        }
    } else if (type == SNUG_BV_SPHERE) {
        const snug_sphere* s = bv;
        for (int a = 0; a < 3; a++) {
            lo[a] = (double)s->c[a] - s->r;
            hi[a] = (double)s->c[a] + s->r;
        }
    } else if (type == SNUG_BV_AABB) {
        const snug_aabb* b = bv;
        for (int a = 0; a < 3; a++) {
            lo[a] = b->min[a];
            hi[a] = b->max[a];
        }
    } else {
        const snug_kdop* k = bv; /* slabs 0..2 are the coordinate axes */
        for (int a = 0; a < 3; a++) {
            lo[a] = k->lo[a];
            hi[a] = k->hi[a];
        }
    }
}

double snug_hausdorff_node(snug_bv_type type, const void* bv, const float* positions, const uint32_t* tris,
                           const uint32_t* perm, const snug_bvh* bvh, uint32_t node, double eps_rel, double* lower) {
    faces f = {positions, tris, perm, bvh, node, NULL};
    frame fr;
    double lo[3], hi[3];
    make_frame(type, bv, &fr, lo, hi);
    return estimate(&fr, &f, lo, hi, eps_rel, EVAL_BUDGET, lower);
}

double snug_hausdorff_set(snug_bv_type type, const void* bv, const snug_tri_set* set, double eps_rel, double* lower) {
    faces f = {set->positions, set->tris, NULL, NULL, 0, set};
    frame fr;
    double lo[3], hi[3];
    make_frame(type, bv, &fr, lo, hi);
    /* brute force costs evaluations x faces: cap the product so a build stays O(n log n)-ish */
    int budget = (int)(SET_WORK_BUDGET / (set->count + 1));
    return estimate(&fr, &f, lo, hi, eps_rel, budget < 32 ? 32 : (budget > EVAL_BUDGET ? EVAL_BUDGET : budget), lower);
}
