/* Support: the offers a bound polygon may rest on while it slides. IConS required each binding polygon inside its
 * one offer; here it may rest on the union of every offer coplanar with that one, on bodies outside the group,
 * whose label fits (a desk pushed against a table is one surface for a lamp, which can then slide across), and it
 * is bound to the piece it overlaps most. Pieces are convex, so "inside the union" is "the areas of the polygon's
 * parts inside the pieces add up to its area". */
#include <string.h>

#include "place/support.h"

/* The binding polygon at a member pose, in the support plane's coordinates. */
static void binding_in_plane(const snug_support* sp, dpose pose, snug_poly2* out) {
    out->n = sp->binding->s.vertex_count;
    for (uint32_t i = 0; i < out->n; i++) {
        dvec3 d = dv_sub(snug_surface_vertex(sp->binding, pose, i), sp->plane.origin);
        out->x[i] = dv_dot(d, sp->plane.u);
        out->y[i] = dv_dot(d, sp->plane.v);
    }
}

static void piece_in_plane(const snug_support* sp, const snug_place_surface* offer, dpose pose, snug_poly2* out) {
    out->n = offer->s.vertex_count;
    for (uint32_t i = 0; i < out->n; i++) {
        dvec3 d = dv_sub(snug_surface_vertex(offer, pose, i), sp->plane.origin);
        out->x[i] = dv_dot(d, sp->plane.u);
        out->y[i] = dv_dot(d, sp->plane.v);
    }
}

snug_status snug_support_gather(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const snug_group* g,
                                uint32_t member, snug_mesh_data* mesh, const snug_binding* bd, dvec3 lo, dvec3 hi,
                                snug_support* sp) {
    memset(sp, 0, sizeof *sp);
    const snug_place_surfaces* bs = snug_mesh_surfaces(mesh);
    snug_body_data* sup = snug_pool_get(&s->bodies, bd->supporter);
    snug_mesh_data* smesh = sup ? snug_pool_get(&ctx->meshes, sup->mesh) : NULL;
    const snug_place_surfaces* ss = smesh ? snug_mesh_surfaces(smesh) : NULL;
    if (!bs || !ss || bd->binding >= bs->count || bd->offer >= ss->count)
        return snug_fail(ctx, SNUG_ERR_STALE_HANDLE, "a binding of body 0x%08x lost its surfaces", bd->body);
    sp->member = member;
    sp->binding = &bs->items[bd->binding];
    sp->label = sp->binding->s.label;
    sp->margin = ps->def.overhang * sp->binding->radius;
    snug_world_surface_at(&ss->items[bd->offer], dpose_f(&sup->world), &sp->plane);
    double tol = 1e-5 * (sp->plane.radius + sp->binding->radius);
    sp->eps = 1e-6 * (sp->plane.radius + sp->binding->radius + dv_len(sp->plane.origin));
    snug_body_data** near;
    uint32_t count;
    snug_status st = snug_group_neighbours(ctx, s, ps, g, lo, hi, &near, &count);
    if (st) return st;
    /* the recorded offer first, so that ties keep the binding where it is */
    sp->pieces[0] = (snug_support_piece){sup->handle, bd->offer, {0}};
    piece_in_plane(sp, &ss->items[bd->offer], dpose_f(&sup->world), &sp->pieces[0].poly);
    sp->count = 1;
    for (uint32_t k = 0; k < count && sp->count < SNUG_SUPPORT_PIECES; k++) {
        if (near[k]->handle == bd->body) continue;
        snug_mesh_data* om = snug_pool_get(&ctx->meshes, near[k]->mesh);
        const snug_place_surfaces* os = om ? snug_mesh_surfaces(om) : NULL;
        if (!os) continue;
        dpose op = dpose_f(&near[k]->world);
        for (uint32_t j = 0; j < os->count && sp->count < SNUG_SUPPORT_PIECES; j++) {
            const snug_place_surface* o = &os->items[j];
            if (o->s.kind != SNUG_SURFACE_OFFER || !snug_label_fits(ps, sp->label, o->s.label)) continue;
            if (near[k] == sup && j == bd->offer) continue;
            dvec3 n = dv_norm(dpose_dir(op, dv_f(o->s.normal)));
            if (dv_dot(n, sp->plane.n) < 1.0 - 1e-9) continue;
            if (fabs(dv_dot(dv_sub(dpose_point(op, o->centroid), sp->plane.origin), sp->plane.n)) > tol) continue;
            sp->pieces[sp->count] = (snug_support_piece){near[k]->handle, j, {0}};
            piece_in_plane(sp, o, op, &sp->pieces[sp->count].poly);
            sp->count++;
        }
    }
    return SNUG_OK;
}

/* The area of the binding polygon inside each piece (grown by the margin and the float allowance). */
static double covered(const snug_support* sp, const snug_poly2* b, double grow, double* per_piece) {
    double sum = 0.0;
    for (uint32_t j = 0; j < sp->count; j++) {
        snug_poly2 part = *b;
        snug_poly2_clip(&part, &sp->pieces[j].poly, grow);
        double a = part.n >= 3 ? snug_poly2_area(&part) : 0.0;
        if (per_piece) per_piece[j] = a;
        sum += a;
    }
    return sum;
}

bool snug_support_holds(const snug_support* sp, dpose member_pose, bool slack) {
    snug_poly2 b;
    binding_in_plane(sp, member_pose, &b);
    double area = snug_poly2_area(&b);
    return covered(sp, &b, sp->margin + (slack ? sp->eps : 0.0), NULL) >= area * (1.0 - 1e-12);
}

uint32_t snug_support_main_piece(const snug_support* sp, dpose member_pose) {
    snug_poly2 b;
    binding_in_plane(sp, member_pose, &b);
    double per[SNUG_SUPPORT_PIECES];
    covered(sp, &b, sp->margin + sp->eps, per);
    uint32_t best = 0;
    for (uint32_t j = 1; j < sp->count; j++)
        if (per[j] > per[best] * (1.0 + 1e-9)) best = j;
    return best;
}

dvec3 snug_support_clamp(const snug_support* sp, dpose member_pose, dvec3 t) {
    snug_poly2 b;
    binding_in_plane(sp, member_pose, &b);
    double tx = dv_dot(t, sp->plane.u), ty = dv_dot(t, sp->plane.v);
    double best = INFINITY, bx = 0.0, by = 0.0;
    for (uint32_t j = 0; j < sp->count; j++) {
        snug_poly2 f;
        snug_feasible_region(&sp->pieces[j].poly, b.x, b.y, b.n, sp->margin, &f);
        if (f.n == 0) continue;
        double cx, cy;
        snug_poly2_closest(&f, tx, ty, &cx, &cy);
        double d = (cx - tx) * (cx - tx) + (cy - ty) * (cy - ty);
        if (d < best) best = d, bx = cx, by = cy;
    }
    if (best == INFINITY) return dv(0, 0, 0);
    return dv_add(dv_scale(sp->plane.u, bx), dv_scale(sp->plane.v, by));
}
