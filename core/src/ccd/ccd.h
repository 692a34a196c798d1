/* Continuous collision internals: swept bounding volumes (swept_bv.c), dynamic vertex-face and edge-edge tests
 * with selectable root finders (ccd.c), mesh-mesh time of impact (toi.c) and placement sweeps (sweep.c); the
 * seed-003 DAASD mode is a research variant (research/daasd.c, ccd/variants.h). Times u are local to one lerp +
 * slerp segment of each mesh's motion. */
#ifndef SNUG_CCD_H
#define SNUG_CCD_H

#include <string.h>

#include "geom/bv.h"
#include "bvh/mesh.h"
#include "ccd/motion.h"

/* ------------------------------------------------------------------------------------------- swept volumes
 * Each takes a BV in the body frame and returns a world BV that contains the BV at every u in [u0, u1] of the
 * segment: the hull of the start and end placements (exact for pure translation), padded by the arc's bulge
 * (snug_lerp_slerp_bulge times the BV's largest distance from the pivot). */
void snug_swept_sphere(const snug_lerp_slerp* m, double u0, double u1, const snug_sphere* in, snug_sphere* out);
void snug_swept_aabb(const snug_lerp_slerp* m, double u0, double u1, const snug_aabb* in, snug_aabb* out);
/* Oriented like the BV at u1 (seed 000 Fig. 4.11 with the centre mapped back to world, §5.2 fix). */
void snug_swept_obb(const snug_lerp_slerp* m, double u0, double u1, const snug_obb* in, snug_obb* out);
/* World k-DOP of the given type around the swept OBB of the k-DOP's bounding box (conservative, not tight). */
void snug_swept_kdop(const snug_lerp_slerp* m, double u0, double u1, const snug_kdop* in, snug_bv_type type,
                     snug_kdop* out);
/* Swept world AABB of a body-frame box given the segment's float transforms at u0 and u1 (the hot-path form); spread
 * is the segment's (NULL: pad every axis by the whole bulge). */
void snug_swept_box(const snug_xform* x0, const snug_xform* x1, double bulge, const double spread[3], const double pivot[3],
                    const float lo[3], const float hi[3], float out_lo[3], float out_hi[3]);

/* ------------------------------------------------------------------------------------------- features */

/* Poses of both meshes along the current segment, with a small cache keyed by u (root finders and the traversal
 * evaluate the same dyadic times again and again). */
#define SNUG_CCD_CACHE 64
typedef struct snug_ccd_frames {
    const snug_lerp_slerp* m[2];   /* 0: mesh A, 1: mesh B */
    bool still[2];                 /* the mesh does not move: its transforms are computed once, in x[0] and f[0] */
    double key[SNUG_CCD_CACHE];    /* u of the slot's double transforms */
    double fkey[SNUG_CCD_CACHE];   /* u of its float ones (the root finders want only the double ones) */
    snug_dxform x[SNUG_CCD_CACHE][2];
    snug_xform f[SNUG_CCD_CACHE][2];
    bool translation;              /* both segments translate only: every feature distance is linear in u */
} snug_ccd_frames;

void snug_ccd_frames_init(snug_ccd_frames* fr, const snug_lerp_slerp* a, const snug_lerp_slerp* b);
/* Transforms of both meshes at u: d[0], d[1] in double, f[0], f[1] in float (either may be NULL). */
void snug_ccd_frames_at(snug_ccd_frames* fr, double u, const snug_dxform** d, const snug_xform** f);

typedef enum snug_ccd_kind {
    SNUG_CCD_VF = 0,  /* vertex of A against face of B */
    SNUG_CCD_FV,      /* vertex of B against face of A */
    SNUG_CCD_EE       /* edge of A against edge of B */
} snug_ccd_kind;

/* A feature pair: body-frame points. VF: p[0] vertex of A, p[1..3] face of B. FV: p[0] vertex of B, p[1..3] face
 * of A. EE: p[0], p[1] edge of A, p[2], p[3] edge of B. */
typedef struct snug_ccd_feature {
    snug_ccd_kind kind;
    const float* p[4];
} snug_ccd_feature;

typedef struct snug_ccd_params {
    snug_root_finder finder;
    double step;        /* sampling step in u */
    int max_iter;
    double eps;         /* contact distance (world units) */
    double u_tol;       /* regula falsi stops once the bracket is this narrow (0: 1e-9 of the interval) */
} snug_ccd_params;

typedef struct snug_ccd_hit {
    double u;           /* contact time (touching within eps) */
    double rate;        /* |d'(u)| estimate: how fast the feature distance closes */
    double point[3];    /* world contact point at u */
    double normal[3];   /* unit world normal from B towards A */
} snug_ccd_hit;

/* Signed feature distance at u (VF/FV: vertex above the face plane; EE: along a x b, oriented to `ref` when given)
 * and the inside test (the vertex projects into the face / the closest points of the lines fall on both edges,
 * both within eps). Returns false for a degenerate face or parallel edges. */
bool snug_ccd_distance(snug_ccd_frames* fr, const snug_ccd_feature* f, double u, const double* ref, double* d,
                       double n[3]);
bool snug_ccd_inside(snug_ccd_frames* fr, const snug_ccd_feature* f, double u, double eps);

/* Earliest contact of the feature pair in [u0, u1] with the selected root finder (the closed form under pure
 * translation); a pair already touching at u0 reports u0. */
bool snug_ccd_feature_toi(snug_ccd_frames* fr, const snug_ccd_feature* f, const snug_ccd_params* p, double u0,
                          double u1, snug_ccd_hit* hit);

/* Real roots of a t^2 + b t + c in [0, 1], ascending; returns their count (0..2). a ~ 0 falls back to linear. */
int snug_ccd_quadratic_roots01(double a, double b, double c, double roots[2]);

/* ------------------------------------------------------------------------------------------- mesh level */

/* Shared by snug_mesh_toi, the sweeps and DAASD: validated meshes, the contact tolerance in world units. */
typedef struct snug_toi_input {
    snug_mesh_data* a;
    snug_mesh_data* b;
    const snug_motion* motion_a;
    const snug_motion* motion_b;
    snug_toi_def def;
    double eps;
    bool slide;                 /* sweep semantics: contacts must turn into crossings to block */
    bool rotation_pivot;        /* motion_a turns about pivot_a (body frame), not about its origin */
    double pivot_a[3];
    struct snug_sweep_start* start; /* optional (sweeps): what the search learnt of the start pose */
    bool* grazed;               /* optional (translation sweeps): see snug_sweep_translation */
} snug_toi_input;

/* Whether the meshes of a translation sweep overlap at its start pose (a triangle pair within eps, as
 * snug_mesh_overlap judges): a by-product of the search, which examines every triangle pair near at u = 0 before
 * anything later. known is false when it did not (a search cut short by its budget, or a motion that turns). */
typedef struct snug_sweep_start {
    bool known, overlap;
} snug_sweep_start;

/* snug_mesh_sweep, reporting *start as well (the mover's check before its first cast, which would otherwise
 * traverse the same contact again) and *grazed: whether the search let a contact pass (sliding along it) or was cut
 * short. When it did neither, its roots are exact and no feature pair came within eps before the reported contact,
 * so no pose on the way there overlaps (what spares the mover the static check of a cast's end). Both optional. */
snug_status snug_sweep_translation(snug_ctx* ctx, snug_mesh moving, const snug_pose* pose, const float translation[3],
                                   snug_mesh other, const snug_pose* other_pose, snug_toi_result* result,
                                   snug_sweep_start* start, bool* grazed);

/* The dynamic / mixed / static search over all motion segments (toi.c). */
snug_status snug_toi_run(snug_ctx* ctx, const snug_toi_input* in, snug_toi_result* out);
/* Validate handles, motions and the definition of a query; fills in. */
snug_status snug_toi_prepare(snug_ctx* ctx, snug_mesh a, const snug_motion* motion_a, snug_mesh b,
                             const snug_motion* motion_b, const snug_toi_def* def, snug_toi_input* in);
/* A fresh result: no hit, t = safe_t = 1. */
static inline void snug_toi_result_clear(snug_toi_result* r) {
    memset(r, 0, sizeof *r);
    r->t = r->safe_t = 1.0f;
    r->tri_a = r->tri_b = SNUG_NO_HIT;
    r->feature_a = r->feature_b = -1;
}

#endif
