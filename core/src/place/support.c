/* Support: the offers a bound polygon may rest on while it slides. IConS required each binding polygon inside its
 * one offer; here it may rest on the union of the supporter's offers coplanar with that one whose label fits (a
 * non-convex top is several convex offers, and a lamp slides across their seams), and it is bound to the piece it
 * overlaps most. Pieces of other bodies do not join the union: a polygon straddling two tables would be left
 * hanging when either moved; onto the other table it goes by a re-seat under the pointer instead (move.c).
 * Pieces are convex, so "inside the union" is "the areas of the polygon's parts inside the pieces add up to its
 * area". */
#include <stddef.h>
#include <string.h>

#include "place/support.h"

/* The binding polygon at a member pose, in the support plane's coordinates. */
static void binding_in_plane(const snug_support* sp, dpose pose, snug_poly2* out) {
    snug_surface_in_plane(sp->binding, pose, &sp->plane, out);
}

snug_status snug_support_gather(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, uint32_t member,
                                snug_mesh_data* mesh, const snug_binding* bd, snug_support* sp) {
    memset(sp, 0, offsetof(snug_support, pieces)); /* the pieces (18 KB) are written as they are found */
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
    double tol = snug_plane_rounding(sp->plane.radius, sp->binding->radius, 0.0); /* the supporter's own offers */
    sp->eps = snug_surface_allowance(&sp->plane, sp->binding->radius);
    sp->placed = snug_placement_margin(sp->margin, &sp->plane, sp->binding->radius);
    (void)ctx;
    /* the recorded offer first, so that ties keep the binding where it is */
    sp->pieces[0].supporter = sup->handle, sp->pieces[0].offer = bd->offer;
    dpose sup_pose = dpose_f(&sup->world);
    snug_surface_in_plane(&ss->items[bd->offer], sup_pose, &sp->plane, &sp->pieces[0].poly);
    sp->count = 1;
    for (uint32_t j = 0; j < ss->count && sp->count < SNUG_SUPPORT_PIECES; j++) {
        const snug_place_surface* o = &ss->items[j];
        if (j == bd->offer || o->s.kind != SNUG_SURFACE_OFFER || !snug_label_fits(ps, sp->label, o->s.label)) continue;
        dvec n = dnorm(dpose_dir(sup_pose, dv(o->s.normal)));
        if (ddot(n, sp->plane.n) < 1.0 - 1e-9) continue;
        if (fabs(ddot(dsub(dpose_point(sup_pose, o->centroid), sp->plane.origin), sp->plane.n)) > tol) continue;
        sp->pieces[sp->count].supporter = sup->handle, sp->pieces[sp->count].offer = j;
        snug_surface_in_plane(o, sup_pose, &sp->plane, &sp->pieces[sp->count].poly);
        sp->count++;
    }
    return SNUG_OK;
}

/* The area of the binding polygon inside each piece (grown by grow). */
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
    return covered(sp, &b, slack ? sp->margin + sp->eps : sp->placed, NULL) >= area * (1.0 - 1e-12);
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

dvec snug_support_clamp(const snug_support* sp, dpose member_pose, dvec t) {
    snug_poly2 b;
    binding_in_plane(sp, member_pose, &b);
    double tx = ddot(t, sp->plane.u), ty = ddot(t, sp->plane.v);
    double best = INFINITY, bx = 0.0, by = 0.0;
    for (uint32_t j = 0; j < sp->count; j++) {
        snug_poly2 f;
        snug_feasible_region(&sp->pieces[j].poly, b.x, b.y, b.n, sp->placed, &f);
        if (f.n == 0) continue;
        double cx, cy;
        snug_poly2_closest(&f, tx, ty, &cx, &cy);
        double d = (cx - tx) * (cx - tx) + (cy - ty) * (cy - ty);
        if (d < best) best = d, bx = cx, by = cy;
    }
    if (best == INFINITY) return dxyz(0, 0, 0);
    return dadd(dscale(sp->plane.u, bx), dscale(sp->plane.v, by));
}

uint32_t snug_support_limits(const snug_support* sp, dpose member_pose, snug_limit* out) {
    snug_poly2 b, f;
    binding_in_plane(sp, member_pose, &b);
    snug_feasible_region(&sp->pieces[0].poly, b.x, b.y, b.n, sp->placed, &f);
    if (f.n < 3) return 0;
    /* f's edges, counter-clockwise: inside lies to the left, so the inward normal of edge (p, q) is its left turn */
    uint32_t n = 0;
    for (uint32_t i = 0; i < f.n; i++) {
        uint32_t j = (i + 1) % f.n;
        double ex = f.x[j] - f.x[i], ey = f.y[j] - f.y[i], len = hypot(ex, ey);
        if (!(len > 0.0)) continue;
        double a = -ey / len, c2 = ex / len; /* inward normal in (u, v) */
        dvec w = dadd(dscale(sp->plane.u, a), dscale(sp->plane.v, c2));
        out[n++] = (snug_limit){w, a * f.x[i] + c2 * f.y[i]};
    }
    return n;
}
