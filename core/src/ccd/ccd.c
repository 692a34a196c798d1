/* Dynamic vertex-face and edge-edge tests (seed 000 §5.3, corrected forms of seed-000-part1.md §6.3-6.5).
 * d(u) is the signed feature distance; a contact is the first u where |d| comes down to eps while the inside
 * test holds. Root finders work on g(u) = s d(u) - eps (s: the side at u0), whose first root is that moment. */
#include "ccd/ccd.h"

#include <math.h>
#include <string.h>

#include "base/vec_d.h"

static void to_float(const snug_dxform* x, snug_xform* f) {
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) f->R[c][r] = (float)x->R[3 * c + r];
    for (int r = 0; r < 3; r++) f->t[r] = (float)x->t[r];
}

void snug_ccd_frames_init(snug_ccd_frames* fr, const snug_lerp_slerp* a, const snug_lerp_slerp* b) {
    fr->m[0] = a;
    fr->m[1] = b;
    /* no u equals a key of all-one bits, a NaN (one memory fill, where a loop of NaN stores unrolls into a
     * kilobyte of code) */
    memset(fr->key, 0xff, sizeof fr->key);
    memset(fr->fkey, 0xff, sizeof fr->fkey);
    fr->translation = a->translation_only && b->translation_only;
    for (int k = 0; k < 2; k++) {
        const snug_lerp_slerp* m = fr->m[k];
        fr->still[k] = m->translation_only && !memcmp(m->p0, m->p1, sizeof m->p0);
        if (!fr->still[k]) continue;
        snug_lerp_slerp_at(m, 0.0, &fr->x[0][k]);
        to_float(&fr->x[0][k], &fr->f[0][k]);
    }
}

void snug_ccd_frames_at(snug_ccd_frames* fr, double u, const snug_dxform** d, const snug_xform** f) {
    uint64_t bits;
    memcpy(&bits, &u, sizeof bits);
    uint32_t slot = (uint32_t)((bits >> 29) ^ (bits >> 41) ^ (bits >> 52)) & (SNUG_CCD_CACHE - 1);
    /* slot 0 of a still mesh holds its only transforms: other slots, or slot 0 of the moving one, are free */
    if (fr->key[slot] != u) {
        for (int k = 0; k < 2; k++)
            if (!fr->still[k]) snug_lerp_slerp_at(fr->m[k], u, &fr->x[slot][k]);
        fr->key[slot] = u;
    }
    if (f && fr->fkey[slot] != u) {
        for (int k = 0; k < 2; k++)
            if (!fr->still[k]) to_float(&fr->x[slot][k], &fr->f[slot][k]);
        fr->fkey[slot] = u;
    }
    for (int k = 0; k < 2; k++) {
        uint32_t at = fr->still[k] ? 0 : slot;
        if (d) d[k] = &fr->x[at][k];
        if (f) f[k] = &fr->f[at][k];
    }
}

/* World positions of the feature's four points at u. */
static void feature_points(snug_ccd_frames* fr, const snug_ccd_feature* f, double u, dvec w[4]) {
    const snug_dxform* x[2];
    snug_ccd_frames_at(fr, u, x, NULL);
    /* which mesh each point belongs to */
    static const int owner[3][4] = {{0, 1, 1, 1}, {1, 0, 0, 0}, {0, 0, 1, 1}};
    for (int i = 0; i < 4; i++) {
        double p[3];
        snug_dxform_point(x[owner[f->kind][i]], f->p[i], p);
        w[i] = dload(p);
    }
}

static bool distance_from_points(const snug_ccd_feature* f, const dvec w[4], const double* ref, double* d,
                                 double n[3]) {
    if (f->kind == SNUG_CCD_EE) {
        dvec e0 = dsub(w[1], w[0]), e1 = dsub(w[3], w[2]), m = dcross(e0, e1);
        double nn = ddot(m, m), scale = ddot(e0, e0) * ddot(e1, e1);
        if (!(nn > 1e-14 * scale) || scale <= 0.0) return false; /* parallel edges: the vertex tests cover them */
        m = dscale(m, 1.0 / sqrt(nn));
        if (ref && ddot(m, dload(ref)) < 0.0) m = dneg(m);
        *d = ddot(m, dsub(w[0], w[2])); /* from B's edge to A's edge: positive means A lies along +n */
        dstore(m, n);
        return true;
    }
    dvec e0 = dsub(w[2], w[1]), e1 = dsub(w[3], w[1]), m = dcross(e0, e1);
    double nn = ddot(m, m);
    if (!(nn > 1e-14 * ddot(e0, e0) * ddot(e1, e1)) || nn <= 0.0) return false; /* degenerate face */
    m = dscale(m, 1.0 / sqrt(nn));
    *d = ddot(m, dsub(w[0], w[1]));
    dstore(m, n);
    return true;
}

bool snug_ccd_distance(snug_ccd_frames* fr, const snug_ccd_feature* f, double u, const double* ref, double* d,
                       double n[3]) {
    dvec w[4];
    feature_points(fr, f, u, w);
    return distance_from_points(f, w, ref, d, n);
}

/* The inside test as values that hold where <= 0 (the comparisons' signs are exact): VF, the vertex on the inner
 * side of each side plane of the face's prism; EE, both feet of the common perpendicular on their edges (Fig.
 * 5.8); each within eps. Returns their count, 0 for a degenerate face or parallel edges (never inside). Under
 * translation every value is linear in u. */
static int inside_values(const snug_ccd_feature* f, const dvec w[4], double eps, double v[4]) {
    if (f->kind == SNUG_CCD_EE) {
        dvec a = dsub(w[1], w[0]), b = dsub(w[3], w[2]), n = dcross(a, b);
        double nn = ddot(n, n), la = sqrt(ddot(a, a)), lb = sqrt(ddot(b, b));
        if (!(nn > 1e-14 * la * la * lb * lb)) return 0;
        dvec r = dsub(w[2], w[0]);
        double l1 = ddot(dcross(r, b), n) / nn, l2 = ddot(dcross(r, a), n) / nn;
        double s1 = eps / la, s2 = eps / lb;
        v[0] = -(l1 + s1), v[1] = l1 - (1.0 + s1), v[2] = -(l2 + s2), v[3] = l2 - (1.0 + s2);
        return 4;
    }
    dvec N = dcross(dsub(w[2], w[1]), dsub(w[3], w[1]));
    if (!(sqrt(ddot(N, N)) > 0.0)) return 0;
    for (int i = 0; i < 3; i++) {
        dvec a = w[1 + i], b = w[1 + (i + 1) % 3];
        dvec m = dcross(dsub(b, a), N); /* outward side normal of the prism, |m| = |e| |N| */
        double lm = sqrt(ddot(m, m));
        v[i] = lm > 0.0 ? ddot(m, dsub(w[0], a)) - eps * lm : -1.0;
    }
    return 3;
}

static bool inside_from_points(const snug_ccd_feature* f, const dvec w[4], double eps) {
    double v[4];
    int n = inside_values(f, w, eps, v);
    for (int i = 0; i < n; i++)
        if (v[i] > 0.0) return false;
    return n > 0;
}

bool snug_ccd_inside(snug_ccd_frames* fr, const snug_ccd_feature* f, double u, double eps) {
    dvec w[4];
    feature_points(fr, f, u, w);
    return inside_from_points(f, w, eps);
}

int snug_ccd_quadratic_roots01(double a, double b, double c, double roots[2]) {
    int n = 0;
    double scale = fabs(a) + fabs(b) + fabs(c);
    if (scale == 0.0) return 0;
    if (fabs(a) <= 1e-12 * scale) {
        if (b == 0.0) return 0;
        double t = -c / b;
        if (t >= 0.0 && t <= 1.0) roots[n++] = t;
        return n;
    }
    double disc = b * b - 4.0 * a * c;
    if (disc < 0.0) return 0;
    double sq = sqrt(disc);
    double q = -0.5 * (b + (b >= 0.0 ? sq : -sq)); /* stable form: no cancellation */
    double r0 = q / a, r1 = q != 0.0 ? c / q : r0;
    if (r0 > r1) {
        double t = r0;
        r0 = r1, r1 = t;
    }
    if (r0 >= 0.0 && r0 <= 1.0) roots[n++] = r0;
    if (r1 >= 0.0 && r1 <= 1.0 && (n == 0 || r1 != roots[0])) roots[n++] = r1;
    return n;
}

/* ---------------------------------------------------------------------------------------- root finders */

typedef struct search {
    snug_ccd_frames* fr;
    const snug_ccd_feature* f;
    double eps;
    double side;         /* s: sign of d at u0 */
    double shift;        /* g = s d - shift: eps for the contact band, 0 for the plane itself */
    double ref[3];       /* edge-edge normal orientation at u0, so that a flip of a x b does not fake a root */
    bool has_ref;
    bool broken;         /* distance undefined at some evaluated u (parallel edges) */
    double u_tol;
} search;

/* g(u) = s d(u) - eps: positive while apart by more than eps. */
static double g_at(search* s, double u) {
    double d, n[3];
    if (!snug_ccd_distance(s->fr, s->f, u, s->has_ref ? s->ref : NULL, &d, n)) {
        s->broken = true;
        return NAN;
    }
    return s->side * d - s->shift;
}

static bool inside_at(search* s, double u) { return snug_ccd_inside(s->fr, s->f, u, s->eps); }

/* Under translation, a feature starting within the band but outside the face (edge): the earliest u in [u0, u1]
 * where it is within eps of the plane (line) and inside, exactly, since every condition is linear in u; false when
 * there is none (it leaves the band, which it never re-enters, or passes the plane beside the face). */
static bool band_entry_linear(search* s, double u0, double u1, double* found) {
    double c[2][6];
    int n = 0;
    for (int k = 0; k < 2; k++) {
        dvec w[4];
        double d, nrm[3];
        feature_points(s->fr, s->f, k ? u1 : u0, w);
        if (!distance_from_points(s->f, w, s->has_ref ? s->ref : NULL, &d, nrm)) return false;
        c[k][0] = d - s->eps, c[k][1] = -d - s->eps;
        n = 2 + inside_values(s->f, w, s->eps, c[k] + 2);
        if (n == 2) return false;
    }
    double lo = u0, hi = u1;
    for (int i = 0; i < n; i++) {
        double a = c[0][i], b = c[1][i];
        if (a > 0.0 && b > 0.0) return false;
        if (a > 0.0) lo = fmax(lo, u0 + (u1 - u0) * a / (a - b));
        else if (b > 0.0) hi = fmin(hi, u0 + (u1 - u0) * a / (a - b));
    }
    if (lo > hi) return false;
    *found = lo;
    return true;
}

/* Illinois regula falsi on a bracket with g(a) > 0 >= g(b); returns the last u with g > 0 (the conservative
 * side, seed Fig. 5.14) once the bracket is tiny or the iterations run out. */
static double illinois(search* s, double a, double ga, double b, double gb, int max_iter) {
    int last = 0;
    double stop = fmax(1e-9 * (b - a) + 1e-15, s->u_tol);
    for (int it = 0; it < max_iter && b - a > stop; it++) {
        double c = a - ga * (b - a) / (gb - ga);
        if (!(c > a && c < b)) c = 0.5 * (a + b);
        double gc = g_at(s, c);
        if (!(gc == gc)) return a;
        if (gc > 0.0) {
            a = c, ga = gc;
            if (last == 1) gb *= 0.5; /* the same end stayed twice: halve its weight (Illinois) */
            last = 1;
        } else {
            b = c, gb = gc;
            if (last == -1) ga *= 0.5;
            last = -1;
        }
    }
    return a;
}

/* Confirm a root estimate r of the bracket [a, b] by the inside test. An estimate that is too rough must not lose
 * the contact (error type 2 of the seed): under rotation a failed estimate is refined by regula falsi first. */
static bool confirm(search* s, const snug_ccd_params* p, double* r, double a, double ga, double b, double gb) {
    if (inside_at(s, *r)) return true;
    /* the band is reached up to eps before the plane, where a vertex moving mostly sideways may still be outside
     * the face by more than eps although it meets the face's edge on the plane: test where d itself vanishes */
    double za = ga + s->eps, zb = gb + s->eps, z;
    if (zb > 0.0) z = b; /* never crosses the plane here: closest at b */
    else if (s->fr->translation || !(za > 0.0)) z = a + (b - a) * za / (za - zb);
    else {
        s->shift = 0.0;
        z = illinois(s, a, za, b, zb, p->max_iter);
        s->shift = s->eps;
    }
    if (inside_at(s, z)) return true; /* contact: keep the band time *r */
    if (s->fr->translation || !(ga > 0.0)) return false;
    double q = illinois(s, a, ga, b, gb, p->max_iter);
    if (q == *r || !inside_at(s, q)) return false;
    *r = q;
    return true;
}

static double bracket_root(search* s, const snug_ccd_params* p, double a, double ga, double b, double gb, bool refine) {
    if (refine && !s->fr->translation) return illinois(s, a, ga, b, gb, p->max_iter);
    double r = a + (b - a) * ga / (ga - gb);
    return r < a ? a : (r > b ? b : r);
}

bool snug_ccd_feature_toi(snug_ccd_frames* fr, const snug_ccd_feature* f, const snug_ccd_params* p, double u0,
                          double u1, snug_ccd_hit* hit) {
    search s = {fr, f, p->eps, 1.0, p->eps, {0, 0, 0}, false, false, p->u_tol};
    double d0, n0[3];
    if (!snug_ccd_distance(fr, f, u0, NULL, &d0, n0)) {
        if (f->kind != SNUG_CCD_EE || fr->translation) return false;
        /* parallel at u0: the seed evaluates at a slightly shifted time instead */
        u0 += 1e-6 * (u1 - u0);
        if (!snug_ccd_distance(fr, f, u0, NULL, &d0, n0)) return false;
    }
    if (f->kind == SNUG_CCD_EE) {
        memcpy(s.ref, n0, sizeof s.ref);
        s.has_ref = true;
    }
    s.side = d0 >= 0.0 ? 1.0 : -1.0;
    double g0 = fabs(d0) - p->eps;
    if (g0 <= 0.0) { /* touching at u0: the side it comes from is the one it is moving away from */
        double h = (u1 - u0) / 64.0, dh, nh[3];
        if (h > 0.0 && snug_ccd_distance(fr, f, u0 + h, s.has_ref ? s.ref : NULL, &dh, nh) && dh != d0)
            s.side = dh < d0 ? 1.0 : -1.0;
    }
    double found = -1.0;
    if (g0 <= 0.0) {
        if (inside_at(&s, u0)) found = u0;
    }
    snug_root_finder finder = fr->translation ? SNUG_ROOT_LINEAR : p->finder; /* linear is exact here */
    if (found < 0.0 && g0 <= 0.0 && fr->translation) {
        if (!band_entry_linear(&s, u0, u1, &found)) return false;
    } else if (found < 0.0 && g0 <= 0.0) {
        /* in the band but outside the face / edge: scan for the moment it comes inside (coplanar sliding) */
        int n = finder == SNUG_ROOT_SAMPLING || finder == SNUG_ROOT_SAMPLING_REGULA_FALSI
                    ? (int)ceil((u1 - u0) / p->step - 1e-9) : 2;
        if (n < 1) n = 1;
        double prev = u0;
        for (int k = 1; k <= n && found < 0.0; k++) {
            double u = k == n ? u1 : u0 + (u1 - u0) * k / n;
            double g = g_at(&s, u);
            if (!(g == g)) break;
            if (g <= 0.0 && g >= -2.0 * p->eps && inside_at(&s, u)) {
                /* entered the face / edge within the band between prev and u: bisect the inside test, keeping the
                 * outside end (conservative) */
                double lo = prev, hi = u;
                for (int it = 0; it < 48 && hi - lo > 1e-12 * (u1 - u0); it++) {
                    double mid = 0.5 * (lo + hi);
                    if (inside_at(&s, mid)) hi = mid;
                    else lo = mid;
                }
                found = lo;
            }
            if (g > 0.0) { /* left the band: an ordinary search from here on */
                found = -2.0;
                u0 = u, g0 = g;
            }
            prev = u;
        }
        if (found == -2.0) found = -1.0;
        else if (found < 0.0) return false;
    }
    if (found < 0.0) {
        switch (finder) {
        case SNUG_ROOT_LINEAR:
        case SNUG_ROOT_REGULA_FALSI: {
            double g1 = g_at(&s, u1);
            if (!(g1 <= 0.0)) break;
            double r = bracket_root(&s, p, u0, g0, u1, g1, finder == SNUG_ROOT_REGULA_FALSI);
            if (confirm(&s, p, &r, u0, g0, u1, g1)) found = r;
            break;
        }
        case SNUG_ROOT_QUADRATIC: {
            double g1 = g_at(&s, u1);
            if (!(g1 == g1)) break;
            double xm = g1 <= 0.0 ? g0 / (g0 - g1) : 0.5;
            if (!(xm > 1e-6 && xm < 1.0 - 1e-6)) xm = 0.5;
            double gm = g_at(&s, u0 + xm * (u1 - u0));
            if (!(gm == gm)) break;
            /* p(x) = alpha x^2 + beta x + g0 through (0, g0), (xm, gm), (1, g1); "+" form of the corrected table */
            double alpha = (g0 - gm) / xm + (gm - g1) / (xm - 1.0);
            double beta = g1 - g0 - alpha, roots[2];
            int nr = snug_ccd_quadratic_roots01(alpha, beta, g0, roots);
            for (int k = 0; k < nr && found < 0.0; k++) {
                double r = u0 + roots[k] * (u1 - u0);
                if (inside_at(&s, r)) found = r;
            }
            if (found < 0.0 && g1 <= 0.0) {
                double r = u0 + (u1 - u0) * g0 / (g0 - g1);
                if (confirm(&s, p, &r, u0, g0, u1, g1)) found = r;
            }
            break;
        }
        case SNUG_ROOT_SAMPLING:
        case SNUG_ROOT_SAMPLING_REGULA_FALSI:
        default: {
            int n = (int)ceil((u1 - u0) / p->step - 1e-9);
            if (n < 1) n = 1;
            double a = u0, ga = g0;
            for (int k = 1; k <= n && found < 0.0; k++) {
                double b = k == n ? u1 : u0 + (u1 - u0) * k / n;
                double gb = g_at(&s, b);
                if (!(gb == gb)) break;
                if (gb <= 0.0) {
                    double r = ga > 0.0 ? bracket_root(&s, p, a, ga, b, gb, finder == SNUG_ROOT_SAMPLING_REGULA_FALSI) : a;
                    if (confirm(&s, p, &r, a, ga, b, gb)) {
                        found = r;
                        break;
                    }
                    /* passed the plane outside the face: keep scanning from the far side */
                    if (gb < -2.0 * p->eps) {
                        s.side = -s.side;
                        gb = g_at(&s, b);
                    }
                }
                a = b, ga = gb;
            }
            break;
        }
        }
    }
    if (found < 0.0) return false;
    /* result: contact point, normal (from B to A) and closing rate */
    dvec w[4];
    double d, n[3];
    feature_points(fr, f, found, w);
    if (!distance_from_points(f, w, s.has_ref ? s.ref : NULL, &d, n)) memcpy(n, n0, sizeof n);
    double sign = s.side;
    if (f->kind == SNUG_CCD_FV) sign = -sign; /* the face belongs to A: A lies on the face's -s side */
    for (int i = 0; i < 3; i++) hit->normal[i] = sign * n[i];
    if (f->kind == SNUG_CCD_EE) {
        dvec a = dsub(w[1], w[0]), b = dsub(w[3], w[2]), nn = dcross(a, b);
        double q = ddot(nn, nn);
        double l1 = 0.5, l2 = 0.5;
        if (q > 0.0) {
            dvec r = dsub(w[2], w[0]);
            l1 = dclamp01(ddot(dcross(r, b), nn) / q), l2 = dclamp01(ddot(dcross(r, a), nn) / q);
        }
        dstore(dscale(dadd(dadd(dadd(w[0], dscale(a, l1)), w[2]), dscale(b, l2)), 0.5), hit->point);
    } else {
        dstore(w[0], hit->point);
    }
    double h = (u1 - u0) * (1.0 / 64.0) + 1e-9, d2, n2[3];
    double uh = found + h <= u1 ? found + h : found - h;
    hit->rate = snug_ccd_distance(fr, f, uh, s.has_ref ? s.ref : NULL, &d2, n2) ? fabs(d2 - d) / h : 0.0;
    hit->u = found;
    return true;
}
