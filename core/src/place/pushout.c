/* Push-out: the shortest translation found that frees a body (with its subtree) from what it overlaps. The exact
 * penetration depth of two concave meshes is out of reach here; instead, for each of 26 directions (the axes, their
 * diagonals and the diagonals of their faces) the group is set well outside along the direction and swept back
 * against the bodies it overlaps: where that sweep stops, plus a skin, is how far that direction must push. The
 * shortest push whose pose is free of every body wins. */
#include <string.h>

#include "place/seat.h"

#define DIRECTIONS 26

snug_status snug_body_push_out(snug_ctx* ctx, snug_scene scene, snug_body body, float translation[3], bool* moved) {
    SNUG_BODY_ENTRY(ctx, scene, body, s, b);
    if (!translation || !moved) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "push_out needs outputs");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    snug_group g;
    snug_status st = snug_group_gather(ctx, s, ps, b, &g);
    if (st) return st;
    memset(translation, 0, 3 * sizeof(float));
    *moved = false;
    bool free = false;
    if ((st = snug_group_free_at(ctx, s, ps, &g, dq_identity(), g.centre, dxyz(0, 0, 0), NULL, &free, NULL))) return st;
    if (free) return snug_succeed(ctx);
    /* the bodies the group overlaps now, by the same test */
    snug_body_data** near;
    uint32_t count;
    if ((st = snug_group_neighbours(ctx, s, ps, &g, g.lo, g.hi, &near, &count))) return st;
    snug_body_data* hits[64];
    uint32_t nh = 0;
    double reach = g.radius;
    for (uint32_t k = 0; k < count && nh < 64; k++) {
        snug_body_data* c = near[k];
        snug_mesh_data* cm = snug_pool_get(&ctx->meshes, c->mesh);
        if (!cm) return snug_fail(ctx, SNUG_ERR_STALE_HANDLE, "body 0x%08x has no mesh", c->handle);
        for (uint32_t i = 0; i < g.count; i++) {
            const snug_member* m = &g.members[i];
            if (!snug_scene_pair_passes(s, m->body, c)) continue;
            dpose p = m->pose;
            p.p = dadd(p.p, snug_rest_lift(ctx, ps, m->mesh, m->pose, c, snug_contact_lift(ps, m->body, m->mesh, c, cm)));
            snug_pose pm = dpose_store(p);
            bool hit = false;
            snug_tri_pair pair;
            if ((st = snug_mesh_overlap(ctx, m->body->mesh, &pm, c->mesh, &c->world, &hit, &pair))) return st;
            if (hit) {
                hits[nh++] = c;
                double rc = 0.5 * dlen(dsub(dv(c->local_max), dv(c->local_min))) +
                            dlen(dsub(dv(c->world.p), g.centre));
                if (rc > reach) reach = rc;
                break;
            }
        }
    }
    double skin = ps->def.skin * g.radius;
    double L = 2.0 * (reach + g.radius) + skin;
    double best = INFINITY;
    dvec best_t = dxyz(0, 0, 0);
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (!dx && !dy && !dz) continue;
                dvec d = dnorm(dxyz(dx, dy, dz));
                double need = 0.0;
                float back[3];
                dstore_f(dscale(d, -L), back);
                for (uint32_t i = 0; i < g.count; i++) {
                    const snug_member* m = &g.members[i];
                    dpose p = m->pose;
                    p.p = dmadd(p.p, d, L);
                    snug_pose far = dpose_store(p);
                    for (uint32_t k = 0; k < nh; k++) {
                        snug_toi_result r;
                        if ((st = snug_mesh_sweep(ctx, m->body->mesh, &far, back, hits[k]->mesh, &hits[k]->world, &r)))
                            return st;
                        if (r.hit && L * (1.0 - r.t) > need) need = L * (1.0 - r.t);
                    }
                }
                double push = need + skin;
                if (push >= best) continue;
                dvec t = dscale(d, push);
                if ((st = snug_group_free_at(ctx, s, ps, &g, dq_identity(), g.centre, t, NULL, &free, NULL))) return st;
                if (free) best = push, best_t = t;
            }
    if (best == INFINITY)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                         "push_out: no push along the 26 directions frees body 0x%08x (it is boxed in)", body);
    dpose p = g.members[0].pose;
    p.p = dadd(p.p, best_t);
    snug_pose pose = dpose_store(p);
    if ((st = snug_body_set_pose(ctx, scene, body, &pose))) return st;
    dstore_f(best_t, translation);
    *moved = true;
    return snug_succeed(ctx);
}
