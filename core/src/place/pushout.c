/* Push-out: the shortest translation found that frees a body (with its subtree) from what it overlaps. The exact
 * penetration depth of two concave meshes is out of reach here; instead, for each of 26 directions (the axes, their
 * diagonals and the diagonals of their faces) the group is set well outside along the direction and swept back
 * against the bodies it overlaps: where that sweep stops, plus a skin, is how far that direction must push. The
 * shortest push whose pose is free of every body wins.
 *
 * A group resting on bodies outside it keeps its bindings: the directions are projected into the binding planes
 * (onto their common line for two, none for three) and a push must leave every binding polygon on its offers, as a
 * constrained move would; pushing a bound table up out of a shelf above it would leave it floating with a binding
 * the consistency check rejects (found by fuzz_place). What rests on the group with a second binding lets go of it
 * when the push takes its support away, as after a move. */
#include <string.h>

#include "place/seat.h"
#include "place/support.h"

#define DIRECTIONS 26

/* The part of d in the planes of the group's external bindings: d less its components along an orthonormal basis
 * of their normals (zero when they leave no direction). */
static dvec in_planes(const dvec* basis, uint32_t nb, dvec d) {
    for (uint32_t i = 0; i < nb; i++) d = dreject(d, basis[i]);
    return d;
}

/* Does every external binding's polygon that lies on its offers now stay there after the shift? */
static bool supports_hold(const snug_support* sp, uint32_t n, const snug_group* g, dvec t) {
    for (uint32_t i = 0; i < n; i++) {
        dpose p = g->members[sp[i].member].pose;
        if (!snug_support_holds(&sp[i], p, true)) continue; /* broken already (a surface was replaced): reported */
        p.p = dadd(p.p, t);
        if (!snug_support_holds(&sp[i], p, false)) return false;
    }
    return true;
}

static snug_status push_out(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, snug_body body,
                            const snug_group* g, const snug_support* sp, float translation[3], bool* moved) {
    bool free = false;
    snug_status st;
    if ((st = snug_group_free_at(ctx, s, ps, g, dq_identity(), g->centre, dxyz(0, 0, 0), NULL, &free, NULL, NULL))) return st;
    if (free) return snug_succeed(ctx);
    /* the bodies the group overlaps now, by the same test */
    snug_body_data** near;
    uint32_t count;
    if ((st = snug_group_neighbours(ctx, s, ps, g, g->lo, g->hi, &near, &count))) return st;
    snug_body_data* hits[64];
    uint32_t nh = 0;
    double reach = g->radius;
    for (uint32_t k = 0; k < count && nh < 64; k++) {
        snug_body_data* c = near[k];
        snug_mesh_data* cm = snug_pool_get(&ctx->meshes, c->mesh);
        if (!cm) return snug_fail(ctx, SNUG_ERR_STALE_HANDLE, "body 0x%08x has no mesh", c->handle);
        for (uint32_t i = 0; i < g->count; i++) {
            const snug_member* m = &g->members[i];
            if (!snug_scene_pair_passes(s, m->body, c)) continue;
            dpose p = m->pose;
            double gap = snug_contact_lift(ps, m->body, m->mesh, c, cm);
            p.p = dadd(p.p, snug_rest_lift(ctx, ps, m->body, m->mesh, m->pose, c, gap));
            bool hit = false;
            if ((st = snug_overlap_in_frame(ctx, m->body, p, c, &hit, NULL))) return st;
            if (hit) {
                hits[nh++] = c;
                double rc = snug_body_radius(c) + dlen(dsub(dv(c->world.p), g->centre));
                if (rc > reach) reach = rc;
                break;
            }
        }
    }
    /* an orthonormal basis of the external bindings' normals: the directions a push may not take */
    dvec basis[3];
    uint32_t nb = 0;
    for (uint32_t e = 0; e < g->ext_count && nb < 3; e++) {
        dvec n = in_planes(basis, nb, sp[e].plane.n);
        if (dlen(n) > 1e-6) basis[nb++] = dnorm(n);
    }
    double skin = ps->def.skin * g->radius;
    double L = 2.0 * (reach + g->radius) + skin;
    double best = INFINITY;
    dvec best_t = dxyz(0, 0, 0);
    dvec tried[DIRECTIONS];
    uint32_t nt = 0;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (!dx && !dy && !dz) continue;
                dvec d = in_planes(basis, nb, dnorm(dxyz(dx, dy, dz)));
                if (!(dlen(d) > 1e-6)) continue;
                d = dnorm(d);
                bool seen = false;
                for (uint32_t i = 0; i < nt && !seen; i++) seen = ddot(d, tried[i]) > 1.0 - 1e-9;
                if (seen) continue;
                tried[nt++] = d;
                double need = 0.0;
                float back[3];
                dstore_f(dscale(d, -L), back);
                for (uint32_t i = 0; i < g->count; i++) {
                    const snug_member* m = &g->members[i];
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
                if (!snug_group_in_range(g, dq_identity(), g->centre, t) || !supports_hold(sp, g->ext_count, g, t))
                    continue;
                if ((st = snug_group_free_at(ctx, s, ps, g, dq_identity(), g->centre, t, NULL, &free, NULL, NULL))) return st;
                if (free) best = push, best_t = t;
            }
    if (best == INFINITY)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                         "push_out: no push along the 26 directions%s frees body 0x%08x within the placement range "
                         "(it is boxed in)%s", nb ? " kept in its binding planes" : "", body,
                         nb ? "; unbind it to push it out in any direction" : "");
    dpose p = g->members[0].pose;
    p.p = dadd(p.p, best_t);
    snug_pose pose = dpose_store(p);
    if ((st = snug_body_set_pose(ctx, s->handle, body, &pose))) return st;
    if ((st = snug_place_break_loose(ctx, s, ps, g))) return st;
    dstore_f(best_t, translation);
    *moved = true;
    return snug_succeed(ctx);
}

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
    /* the supports of the group's external bindings (heap: each holds up to 16 offer polygons) */
    snug_support* sp = NULL;
    if (g.ext_count && !(sp = snug_alloc(ctx, g.ext_count * sizeof *sp)))
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "push_out: supports of %u bindings", g.ext_count);
    for (uint32_t e = 0; e < g.ext_count && !st; e++)
        st = snug_support_gather(ctx, s, ps, g.ext[e].member, g.members[g.ext[e].member].mesh, &g.ext[e].b, &sp[e]);
    if (!st) st = push_out(ctx, s, ps, body, &g, sp, translation, moved);
    snug_free(ctx, sp);
    return st;
}
