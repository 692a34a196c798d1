/* snug from C: two unit boxes, one sliding into the other. Shows the create/query/error pattern of the API.
 * Build and run: make examples (or cc -Icore/include examples/overlap.c build/native/libsnug.a -lm). */
#include <math.h>
#include <stdio.h>

#include "snug.h"

static const float box_positions[] = {-0.5f, -0.5f, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f, 0.5f, -0.5f, -0.5f, 0.5f, -0.5f,
                                      -0.5f, -0.5f, 0.5f,  0.5f, -0.5f, 0.5f,  0.5f, 0.5f, 0.5f,  -0.5f, 0.5f, 0.5f};
static const uint32_t box_indices[] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                       3, 6, 2, 3, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3};

int main(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = box_positions;
    def.vertex_count = 8;
    def.indices = box_indices;
    def.triangle_count = 12;
    snug_mesh box;
    if (snug_mesh_create(ctx, &def, &box) != SNUG_OK) {
        fprintf(stderr, "%s\n", snug_ctx_last_error(ctx));
        return 1;
    }

    /* B stands 3 units along x; A slides towards it. */
    snug_pose a = snug_pose_identity(), b = snug_pose_identity();
    b.p[0] = 3.0f;
    snug_distance_result d;
    snug_mesh_distance(ctx, box, &a, box, &b, &d);
    printf("distance before the move: %.3f\n", d.distance);

    const float move[3] = {4.0f, 0.0f, 0.0f};
    snug_toi_result r;
    snug_mesh_sweep(ctx, box, &a, move, box, &b, &r);
    printf("the sweep stops at %.3f of the move (x = %.3f), normal (%.0f, %.0f, %.0f)\n", r.t, r.t * move[0],
           r.normal[0], r.normal[1], r.normal[2]);

    a.p[0] = 2.5f; /* push it in: the boxes now overlap */
    bool hit;
    snug_tri_pair pair;
    snug_mesh_overlap(ctx, box, &a, box, &b, &hit, &pair);
    printf("overlap at x = 2.5: %s (triangles %u and %u)\n", hit ? "yes" : "no", pair.tri_a, pair.tri_b);

    /* Bad input gets a status and a message, and changes nothing. */
    a.p[1] = NAN;
    snug_status st = snug_mesh_overlap(ctx, box, &a, box, &b, &hit, &pair);
    printf("NaN pose -> %s\n", snug_ctx_last_error(ctx));

    snug_ctx_destroy(ctx);
    return st == SNUG_ERR_NOT_FINITE && hit && r.hit ? 0 : 1;
}
