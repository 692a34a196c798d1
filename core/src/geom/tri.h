/* Triangle primitives shared by the static queries, continuous collision and the scene: overlap, distance,
 * ray and point tests. Inputs are float32 vertices; computations that decide topology run in double. */
#ifndef SNUG_TRI_H
#define SNUG_TRI_H

#include <stdbool.h>

/* Do triangles (a0,a1,a2) and (b0,b1,b2) intersect? Coplanar and touching cases included: points closer than
 * eps count as touching (pass the larger of the two meshes' tolerances). Degenerate triangles (segments,
 * points) are handled as the point sets they are. */
bool snug_tri_tri_overlap(const float a0[3], const float a1[3], const float a2[3], const float b0[3],
                          const float b1[3], const float b2[3], float eps);

/* Minimum distance between two triangles (0 when they intersect) and a closest pair of points. */
float snug_tri_tri_distance(const float a0[3], const float a1[3], const float a2[3], const float b0[3],
                            const float b1[3], const float b2[3], float pa[3], float pb[3]);

/* Ray/segment origin o, direction d (any length), parameter range [0, tmax]. On a hit sets *t and the
 * barycentrics (u, v) of b and c. Edges shared by two triangles are hit by at least one of them. */
bool snug_ray_tri(const float o[3], const float d[3], float tmax, const float a[3], const float b[3],
                  const float c[3], float* t, float* u, float* v);

/* Unit normal of triangle (a,b,c), counter-clockwise, computed in double from the corners relative to o exactly as
 * snug_ray_tri computes it for a ray from o: a triangle that ray hits always has one, and so does a sliver whose
 * float cross product underflows (edges near 1e-20 or shorter). Returns false, leaving out as it was, when the
 * triangle has no area even so. */
bool snug_tri_unit_normal(const float o[3], const float a[3], const float b[3], const float c[3], float out[3]);

/* Closest point of triangle (a,b,c) to p; returns the squared distance. */
float snug_point_tri_closest(const float p[3], const float a[3], const float b[3], const float c[3], float out[3]);

/* Closest points of segments p0p1 and q0q1; returns the squared distance and the parameters s, t in [0,1]. */
float snug_segment_segment_closest(const float p0[3], const float p1[3], const float q0[3], const float q1[3],
                                   float* s, float* t, float cp[3], float cq[3]);

/* Do triangles a and b (world, double, counter-clockwise seen from outside) penetrate rather than touch? Part of
 * one lies more than eps (and at most 64 eps) behind the other's face, over that face's interior shrunk by eps.
 * Touching faces, faces standing on faces and coplanar faces do not cross (geom/tri_crossing.c, used by the
 * placement sweeps of ccd/sweep.c). */
bool snug_tri_tri_crossing(const double a[3][3], const double b[3][3], double eps);

#endif
