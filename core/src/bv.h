/* Bounding volumes: sphere, AABB, OBB and k-DOP (14, 18, 26). Fitting to triangle sets, size measures,
 * and overlap tests between every pair of types, each BV in its own body frame with a relative transform.
 *
 * Relative transform convention for every pair test: `rel` maps B's frame into A's frame (x_A = R x_B + t).
 * Touching counts as overlap within float rounding; tests may report false positives (conservative)
 * where documented, never false negatives. */
#ifndef SNUG_BV_H
#define SNUG_BV_H

#include <stdbool.h>
#include <stdint.h>
#include "pose.h"
#include "snug.h"

#define SNUG_KDOP_MAX_AXES 13

typedef struct snug_sphere {
    vec3 c;
    float r;
} snug_sphere;

typedef struct snug_aabb {
    vec3 min;
    vec3 max;
} snug_aabb;

/* axes[i] is the i-th unit axis (column of the rotation from box to body frame), e[i] its half extent. */
typedef struct snug_obb {
    vec3 c;
    vec3 e;
    mat3 axes;
} snug_obb;

/* k/2 slab intervals along fixed directions in the body frame (lo[j] <= hi[j]). */
typedef struct snug_kdop {
    float lo[SNUG_KDOP_MAX_AXES];
    float hi[SNUG_KDOP_MAX_AXES];
} snug_kdop;

/* A set of triangles to fit: positions (xyz per vertex), triangle vertex indices (3 per triangle) and the
 * triangles to take, by slot: triangle k of the set is tris[3*ids[k] .. 3*ids[k]+2]. ids == NULL means
 * slots first .. first+count-1. */
typedef struct snug_tri_set {
    const float* positions;
    const uint32_t* tris;
    const uint32_t* ids;
    uint32_t first;
    uint32_t count;
} snug_tri_set;

static inline uint32_t snug_tri_set_slot(const snug_tri_set* s, uint32_t k) { return s->ids ? s->ids[k] : s->first + k; }

/* Number of slab directions of a k-DOP type (7, 9, 13), 0 for other types; directions are not normalized. */
int snug_kdop_axis_count(snug_bv_type type);
const float (*snug_kdop_directions(void))[3];

/* Fitting. Each fit contains every vertex of the set exactly (float rounding padded outward). */
void snug_aabb_fit(const snug_tri_set* set, snug_aabb* out);
void snug_sphere_fit(const snug_tri_set* set, snug_sphere* out);            /* minimal enclosing (Welzl) */
void snug_obb_fit(const snug_tri_set* set, bool refine, snug_obb* out);    /* area-weighted covariance (+ surface refinement) */
void snug_kdop_fit(const snug_tri_set* set, snug_bv_type type, snug_kdop* out);

/* Size measures (seed 000 §3.8.1). For a k-DOP the volume/surface are those of its AABB slabs' polytope
 * approximations as documented in bv.c; diameter is exact for every type. */
float snug_bv_measure(snug_bv_type type, const void* bv, snug_measure measure);

/* Overlap tests, `rel` maps B's frame into A's frame. */
bool snug_sphere_sphere(const snug_sphere* a, const snug_sphere* b, const snug_xform* rel);
bool snug_sphere_aabb(const snug_sphere* a, const snug_aabb* b, const snug_xform* rel);
bool snug_sphere_obb(const snug_sphere* a, const snug_obb* b, const snug_xform* rel);
bool snug_aabb_aabb(const snug_aabb* a, const snug_aabb* b, const snug_xform* rel);
bool snug_aabb_obb(const snug_aabb* a, const snug_obb* b, const snug_xform* rel);
bool snug_obb_obb(const snug_obb* a, const snug_obb* b, const snug_xform* rel);         /* 15-axis SAT with eps guard */
bool snug_obb_obb_seed004(const snug_obb* a, const snug_obb* b, const snug_xform* rel); /* reduced front-face test + containment fix */
bool snug_kdop_kdop(const snug_kdop* a, const snug_kdop* b, snug_bv_type type, const snug_xform* rel);
/* Generic dispatch for any pair of types (what mixed trees and the statistics use). */
bool snug_bv_overlap(snug_bv_type ta, const void* a, snug_bv_type tb, const void* b, const snug_xform* rel);

/* Symmetric 3x3 eigen-decomposition (Jacobi): m = V diag(w) V^T, eigenvectors in V's columns, w descending. */
void snug_eigen_sym3(const mat3 m, vec3 w, mat3 V);

#endif
