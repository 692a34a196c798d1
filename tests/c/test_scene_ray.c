/* Rays against a scene: the closest hit equals casting the ray at every enabled body with the mesh ray query
 * (brute force) and keeping the nearest; the batch equals single casts; the mask filters bodies; bad rays are
 * errors. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "snug.h"
#include "test_meshes.h"

#define NB 40

static void test_scene_rays_equal_brute_force(void) {
    rng r = {harness_seed() ^ 0x7a9};
    snug_ctx* ctx = snug_ctx_create(NULL);
    test_mesh tm[3];
    test_mesh_sphere(0.7f, 10, 14, &tm[0]);
    test_mesh_torus(0.8f, 0.25f, 14, 10, &tm[1]);
    test_mesh_soup(&r, 80, 0.8f, 0.5f, &tm[2]);
    snug_mesh meshes[3];
    for (int i = 0; i < 3; i++) meshes[i] = test_mesh_make(ctx, &tm[i], NULL);
    snug_scene s;
    CHECK(snug_scene_create(ctx, &s) == SNUG_OK);
    snug_body bodies[NB];
    snug_mesh mesh_of[NB];
    snug_pose pose[NB];
    uint32_t layer[NB];
    bool enabled[NB];
    for (int i = 0; i < NB; i++) {
        snug_body_def def = snug_default_body_def();
        mesh_of[i] = def.mesh = meshes[rng_next(&r) % 3];
        rng_unit_quat(&r, def.pose.q);
        for (int k = 0; k < 3; k++) def.pose.p[k] = rng_range(&r, -6.0f, 6.0f);
        layer[i] = def.layer = 1u << (rng_next(&r) % 2);
        enabled[i] = def.enabled = rng_float(&r) < 0.9f;
        CHECK(snug_body_create(ctx, s, &def, &bodies[i]) == SNUG_OK);
        CHECK(snug_body_get_pose(ctx, s, bodies[i], &pose[i]) == SNUG_OK); /* as the scene holds it */
    }
    enum { RAYS = 64 };
    float origins[3 * RAYS], dirs[3 * RAYS], tmax[RAYS];
    snug_scene_hit batch[RAYS];
    int rounds = 6 * harness_scale(), hits = 0;
    for (int round = 0; round < rounds; round++) {
        uint32_t mask = round % 3 == 2 ? 1u : 0xffffffffu;
        for (int q = 0; q < RAYS; q++) {
            for (int k = 0; k < 3; k++) origins[3 * q + k] = rng_range(&r, -9.0f, 9.0f);
            /* aim at a body most of the time */
            int target = (int)(rng_next(&r) % NB);
            for (int k = 0; k < 3; k++) dirs[3 * q + k] = pose[target].p[k] + rng_range(&r, -0.5f, 0.5f) - origins[3 * q + k];
            tmax[q] = rng_float(&r) < 0.8f ? INFINITY : rng_range(&r, 0.2f, 1.0f);
        }
        CHECK(snug_scene_raycast_batch(ctx, s, origins, dirs, tmax, RAYS, mask, batch) == SNUG_OK);
        for (int q = 0; q < RAYS; q++) {
            snug_ray ray;
            memcpy(ray.origin, origins + 3 * q, sizeof ray.origin);
            memcpy(ray.dir, dirs + 3 * q, sizeof ray.dir);
            ray.tmax = tmax[q];
            snug_scene_hit one;
            CHECK(snug_scene_raycast(ctx, s, &ray, mask, &one) == SNUG_OK);
            CHECK(one.body == batch[q].body && one.t == batch[q].t && one.tri == batch[q].tri);
            /* brute force */
            float best = INFINITY;
            snug_body who = 0;
            for (int i = 0; i < NB; i++) {
                if (!enabled[i] || !(layer[i] & mask)) continue;
                snug_ray_hit h;
                CHECK(snug_mesh_raycast(ctx, mesh_of[i], &pose[i], &ray, &h) == SNUG_OK);
                if (h.tri != SNUG_NO_HIT && h.t < best) best = h.t, who = bodies[i];
            }
            CHECK_MSG(one.body == who, "round %d ray %d: body %u, brute force %u", round, q, one.body, who);
            if (who) {
                CHECK_MSG(one.t == best, "round %d ray %d: t %.9g brute %.9g", round, q, one.t, best);
                hits++;
            } else {
                CHECK(one.tri == SNUG_NO_HIT);
            }
        }
        RETURN_IF_FAILED();
    }
    CHECK(hits > 20);
    snug_ray bad = {{0, 0, NAN}, {1, 0, 0}, INFINITY};
    snug_scene_hit h;
    CHECK(snug_scene_raycast(ctx, s, &bad, 0xffffffffu, &h) == SNUG_ERR_NOT_FINITE);
    CHECK(snug_scene_raycast(ctx, s, NULL, 0xffffffffu, &h) == SNUG_ERR_INVALID_ARGUMENT);
    CHECK(snug_scene_raycast(ctx, bodies[0], &bad, 0xffffffffu, &h) == SNUG_ERR_STALE_HANDLE);
    for (int i = 0; i < 3; i++) test_mesh_free(&tm[i]);
    snug_ctx_destroy(ctx);
}

int main(void) {
    RUN(test_scene_rays_equal_brute_force);
    return harness_finish();
}
