/* Motions: lerp + shortest-arc slerp segments between keyframes, evaluated in double. */
#include "ccd/motion.h"
#include "base/trig.h"

#include <math.h>
#include <string.h>

snug_motion snug_motion_static(const snug_pose* pose) {
    snug_motion m = {0};
    m.start = m.end = pose ? *pose : snug_pose_identity();
    return m;
}

snug_motion snug_motion_between(const snug_pose* start, const snug_pose* end) {
    snug_motion m = {0};
    m.start = start ? *start : snug_pose_identity();
    m.end = end ? *end : m.start;
    return m;
}

/* Column-major rotation matrix of a unit quaternion (x, y, z, w). */
static void quat_matrix(const double q[4], double R[9]) {
    double x = q[0], y = q[1], z = q[2], w = q[3];
    R[0] = 1 - 2 * (y * y + z * z);
    R[1] = 2 * (x * y + z * w);
    R[2] = 2 * (x * z - y * w);
    R[3] = 2 * (x * y - z * w);
    R[4] = 1 - 2 * (x * x + z * z);
    R[5] = 2 * (y * z + x * w);
    R[6] = 2 * (x * z + y * w);
    R[7] = 2 * (y * z - x * w);
    R[8] = 1 - 2 * (x * x + y * y);
}

static void unit_quat(const float q[4], double out[4]) {
    double n = 0.0;
    for (int i = 0; i < 4; i++) n += (double)q[i] * q[i];
    if (n <= 1e-30) {
        out[0] = out[1] = out[2] = 0.0;
        out[3] = 1.0;
        return;
    }
    n = 1.0 / sqrt(n);
    for (int i = 0; i < 4; i++) out[i] = q[i] * n;
}

void snug_lerp_slerp_init(snug_lerp_slerp* m, const snug_pose* a, const snug_pose* b) {
    static const double origin[3] = {0.0, 0.0, 0.0};
    snug_lerp_slerp_init_pivot(m, a, b, origin);
}

void snug_lerp_slerp_init_pivot(snug_lerp_slerp* m, const snug_pose* a, const snug_pose* b, const double c[3]) {
    unit_quat(a->q, m->q0);
    unit_quat(b->q, m->q1);
    double dot = 0.0;
    for (int i = 0; i < 4; i++) dot += m->q0[i] * m->q1[i];
    if (dot < 0.0) { /* q and -q are the same rotation: take the shorter way round */
        for (int i = 0; i < 4; i++) m->q1[i] = -m->q1[i];
        dot = -dot;
    }
    for (int i = 0; i < 3; i++) m->c[i] = c[i];
    m->half_angle = dot >= 1.0 ? 0.0 : acos(dot);
    bool same = true;
    for (int i = 0; i < 4; i++) same = same && m->q0[i] == m->q1[i];
    m->translation_only = same || m->half_angle < 1e-12;
    if (m->translation_only) {
        m->half_angle = 0.0;
        for (int i = 0; i < 4; i++) m->q1[i] = m->q0[i];
    }
    double h = m->half_angle;
    double sh, ch;
    snug_sin_cos(h, &sh, &ch);
    m->inv_sin_half = h < 1e-6 ? 0.0 : 1.0 / sh;
    m->cot_half = h < 1e-6 ? 0.0 : ch / sh;
    /* world axis of the turn: the vector part of q1 q0^-1 */
    const double *qa = m->q0, *qb = m->q1;
    double ax[3] = {qa[3] * qb[0] - qb[3] * qa[0] - (qb[1] * qa[2] - qb[2] * qa[1]),
                    qa[3] * qb[1] - qb[3] * qa[1] - (qb[2] * qa[0] - qb[0] * qa[2]),
                    qa[3] * qb[2] - qb[3] * qa[2] - (qb[0] * qa[1] - qb[1] * qa[0])};
    double len = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
    for (int i = 0; i < 3; i++) {
        double ai = len > 1e-12 ? ax[i] / len : 0.0, s = sqrt(fmax(0.0, 1.0 - ai * ai)) + 1e-6;
        m->spread[i] = m->translation_only || s > 1.0 ? 1.0 : s;
    }
    /* pivot positions: pose.p + R(pose) c */
    double R1[9], *R0 = m->R0;
    quat_matrix(m->q0, R0);
    quat_matrix(m->q1, R1);
    for (int r = 0; r < 3; r++) {
        m->p0[r] = a->p[r] + R0[r] * c[0] + R0[3 + r] * c[1] + R0[6 + r] * c[2];
        m->p1[r] = b->p[r] + R1[r] * c[0] + R1[3 + r] * c[1] + R1[6 + r] * c[2];
    }
}

static void quat_at(const snug_lerp_slerp* m, double u, double q[4]) {
    if (m->translation_only) {
        for (int i = 0; i < 4; i++) q[i] = m->q0[i];
        return;
    }
    double w0, w1, h = m->half_angle;
    if (h < 1e-6) { /* sin(h) ~ h: normalised lerp is exact to double rounding here */
        w0 = 1.0 - u;
        w1 = u;
    } else { /* sin((1 - u) h) / sin h and sin(u h) / sin h, with one angle's sine and cosine per call */
        double su, cu;
        snug_sin_cos(u * h, &su, &cu);
        w0 = cu - su * m->cot_half;
        w1 = su * m->inv_sin_half;
    }
    double n = 0.0;
    for (int i = 0; i < 4; i++) {
        q[i] = w0 * m->q0[i] + w1 * m->q1[i];
        n += q[i] * q[i];
    }
    n = 1.0 / sqrt(n);
    for (int i = 0; i < 4; i++) q[i] *= n;
}

void snug_lerp_slerp_at(const snug_lerp_slerp* m, double u, snug_dxform* out) {
    if (m->translation_only) {
        memcpy(out->R, m->R0, sizeof out->R);
    } else {
        double q[4];
        quat_at(m, u, q);
        quat_matrix(q, out->R);
    }
    /* x(u) = R (x - c) + p(u): the translation part is p(u) - R c */
    const double* c = m->c;
    for (int r = 0; r < 3; r++)
        out->t[r] = m->p0[r] + u * (m->p1[r] - m->p0[r]) - (out->R[r] * c[0] + out->R[3 + r] * c[1] + out->R[6 + r] * c[2]);
}

void snug_lerp_slerp_xform(const snug_lerp_slerp* m, double u, snug_xform* out) {
    snug_dxform d;
    snug_lerp_slerp_at(m, u, &d);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) out->R[c][r] = (float)d.R[3 * c + r];
    for (int i = 0; i < 3; i++) out->t[i] = (float)d.t[i];
}

double snug_lerp_slerp_bulge(const snug_lerp_slerp* m, double du) {
    if (m->translation_only) return 0.0;
    /* angle * du / 2 = half_angle * du; pad for the float rounding of the matrices used with it */
    return (1.0 - snug_cos(m->half_angle * du)) * (1.0 + 1e-6) + 1e-7;
}

double snug_motion_key_time(const snug_motion* m, uint32_t i) {
    if (i == 0) return 0.0;
    if (i > m->key_count) return 1.0;
    return m->key_times[i - 1];
}

const snug_pose* snug_motion_key_pose(const snug_motion* m, uint32_t i) {
    if (i == 0) return &m->start;
    if (i > m->key_count) return &m->end;
    return &m->key_poses[i - 1];
}

snug_status snug_motion_check(snug_ctx* ctx, const snug_motion* m, const char* name) {
    if (!m) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "%s is NULL", name);
    char what[64];
    snug_format(what, sizeof what, "%s start pose", name);
    snug_status st = snug_pose_check(ctx, &m->start, what);
    if (st != SNUG_OK) return st;
    snug_format(what, sizeof what, "%s end pose", name);
    if ((st = snug_pose_check(ctx, &m->end, what)) != SNUG_OK) return st;
    if (m->key_count == 0) return SNUG_OK;
    if (!m->key_times || !m->key_poses)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "%s has %u keys but NULL key arrays", name, m->key_count);
    float prev = 0.0f;
    for (uint32_t i = 0; i < m->key_count; i++) {
        float t = m->key_times[i];
        if (!isfinite(t)) return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "%s key time %u is not finite", name, i);
        if (!(t > prev && t < 1.0f))
            return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                             "%s key time %u = %g: key times must increase strictly inside (0, 1)", name, i, t);
        snug_format(what, sizeof what, "%s key pose %u", name, i);
        if ((st = snug_pose_check(ctx, &m->key_poses[i], what)) != SNUG_OK) return st;
        prev = t;
    }
    return SNUG_OK;
}

void snug_motion_segment_at(const snug_motion* m, double t, snug_lerp_slerp* seg, double* t0, double* t1) {
    uint32_t i = 0; /* last key with time <= t, but never the final key */
    while (i + 1 < m->key_count + 1u && snug_motion_key_time(m, i + 1) <= t) i++;
    *t0 = snug_motion_key_time(m, i);
    *t1 = snug_motion_key_time(m, i + 1);
    snug_lerp_slerp_init(seg, snug_motion_key_pose(m, i), snug_motion_key_pose(m, i + 1));
}

snug_pose snug_motion_pose_at(const snug_motion* m, float t) { return snug_motion_pose_at_d(m, t); }

snug_pose snug_motion_pose_at_d(const snug_motion* m, double t) {
    if (!m) return snug_pose_identity();
    if (!(t >= 0.0)) t = 0.0; /* also NaN */
    if (t > 1.0) t = 1.0;
    snug_lerp_slerp seg;
    double t0, t1;
    snug_motion_segment_at(m, t, &seg, &t0, &t1);
    double u = t1 > t0 ? (t - t0) / (t1 - t0) : 0.0;
    u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    double q[4];
    quat_at(&seg, u, q);
    snug_dxform x;
    snug_lerp_slerp_at(&seg, u, &x);
    snug_pose out;
    for (int i = 0; i < 4; i++) out.q[i] = (float)q[i];
    for (int i = 0; i < 3; i++) out.p[i] = (float)x.t[i];
    return out;
}

bool snug_motion_is_translation(const snug_motion* m) {
    for (uint32_t i = 0; i + 1 < snug_motion_key_total(m); i++) {
        snug_lerp_slerp seg;
        snug_lerp_slerp_init(&seg, snug_motion_key_pose(m, i), snug_motion_key_pose(m, i + 1));
        if (!seg.translation_only) return false;
    }
    return true;
}
