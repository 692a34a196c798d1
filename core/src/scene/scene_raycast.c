/* Rays against a scene: the broad phase's boxes first, then the mesh ray query on each body whose box the ray
 * enters, nearest box first, until the next box starts beyond the best hit. */
#include "scene/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool finite3(const float* v) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

typedef struct ray_candidate {
    float t;
    uint32_t slot;
} ray_candidate;

static int candidate_compare(const void* a, const void* b) {
    float x = ((const ray_candidate*)a)->t, y = ((const ray_candidate*)b)->t;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* Entry parameter of the ray into the box within [0, tmax], or -1 when it misses. */
static float slab_enter(const snug_ray* ray, const float mn[3], const float mx[3]) {
    float t0 = 0.0f, t1 = ray->tmax;
    for (int i = 0; i < 3; i++) {
        if (ray->dir[i] == 0.0f) {
            if (ray->origin[i] < mn[i] || ray->origin[i] > mx[i]) return -1.0f;
            continue;
        }
        float inv = 1.0f / ray->dir[i];
        float a = (mn[i] - ray->origin[i]) * inv, b = (mx[i] - ray->origin[i]) * inv;
        if (a > b) {
            float t = a;
            a = b;
            b = t;
        }
        if (a > t0) t0 = a;
        if (b < t1) t1 = b;
        if (t0 > t1) return -1.0f;
    }
    return t0;
}

static snug_status cast_one(snug_ctx* ctx, snug_scene_data* s, const snug_ray* ray, uint32_t mask,
                            snug_scene_hit* hit) {
    memset(hit, 0, sizeof *hit);
    hit->tri = SNUG_NO_HIT;
    hit->t = INFINITY;
    if (!finite3(ray->origin) || !finite3(ray->dir) || isnan(ray->tmax))
        return snug_fail(ctx, SNUG_ERR_NOT_FINITE, "ray has NaN or Inf");
    snug_status bad = snug_point_check(ctx, ray->origin, "ray origin");
    if (bad == SNUG_OK) bad = snug_point_check(ctx, ray->dir, "ray direction");
    if (bad != SNUG_OK) return bad;
    ray_candidate* c = (ray_candidate*)s->buf.data;
    uint32_t n = 0;
    for (uint32_t p = 0; p < s->bp.proxy_count; p++) {
        const snug_bp_proxy* P = &s->bp.proxies[p];
        if (!P->live) continue;
        const snug_body_data* b = snug_body_at(s, P->user);
        if (!b->enabled || !(b->layer & mask)) continue;
        float t = slab_enter(ray, P->min, P->max);
        if (t >= 0.0f) c[n++] = (ray_candidate){t, P->user};
    }
    qsort(c, n, sizeof *c, candidate_compare);
    snug_ray cut = *ray;
    for (uint32_t i = 0; i < n && c[i].t <= hit->t; i++) {
        const snug_body_data* b = snug_body_at(s, c[i].slot);
        snug_ray_hit h;
        /* a body's closest hit beyond the best so far cannot win: its traversal stops there */
        cut.tmax = hit->t < ray->tmax ? hit->t : ray->tmax;
        snug_status st = snug_mesh_raycast(ctx, b->mesh, &b->world, &cut, &h);
        if (st) return st;
        if (h.tri != SNUG_NO_HIT && h.t < hit->t) {
            hit->body = b->handle;
            hit->tri = h.tri;
            hit->t = h.t;
            memcpy(hit->point, h.point, sizeof h.point);
            memcpy(hit->normal, h.normal, sizeof h.normal);
        }
    }
    return SNUG_OK;
}

static snug_status prepare_rays(snug_ctx* ctx, snug_scene_data* s) {
    snug_status st = snug_scene_sync(ctx, s);
    if (st) return st;
    return snug_buffer_reserve(ctx, &s->buf, (size_t)s->bp.proxy_count * sizeof(ray_candidate) + 1, 0);
}

snug_status snug_scene_raycast(snug_ctx* ctx, snug_scene scene, const snug_ray* ray, uint32_t mask,
                               snug_scene_hit* hit) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!ray || !hit) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "scene_raycast needs a ray and an output");
    snug_status st = prepare_rays(ctx, s);
    if (st) return st;
    st = cast_one(ctx, s, ray, mask, hit);
    return st ? st : snug_succeed(ctx);
}

snug_status snug_scene_raycast_batch(snug_ctx* ctx, snug_scene scene, const float* origins, const float* dirs,
                                     const float* tmax, uint32_t count, uint32_t mask, snug_scene_hit* hits) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (count && (!origins || !dirs || !hits))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "scene_raycast_batch needs origins, dirs and hits");
    snug_status st = prepare_rays(ctx, s);
    if (st) return st;
    for (uint32_t i = 0; i < count; i++) {
        snug_ray ray;
        memcpy(ray.origin, origins + 3u * i, sizeof ray.origin);
        memcpy(ray.dir, dirs + 3u * i, sizeof ray.dir);
        ray.tmax = tmax ? tmax[i] : INFINITY;
        st = cast_one(ctx, s, &ray, mask, &hits[i]);
        if (st) return snug_fail(ctx, st, "ray %u: %s", i, snug_ctx_last_error(ctx));
    }
    return snug_succeed(ctx);
}
