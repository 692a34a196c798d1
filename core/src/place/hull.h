/* Convex polygons in a plane for the surface finder: hulls of point sets, the smallest enclosing rectangle, clipping
 * one convex polygon by another, and simplification that only ever shrinks a polygon (so a simplified offer still
 * lies on its surface and a simplified binding still stands on its contacts). Double precision throughout: the
 * polygons become surfaces checked to 1e-4 of the mesh scale. */
#ifndef SNUG_HULL_H
#define SNUG_HULL_H

#include <stdint.h>

typedef struct snug_pt2 {
    double x, y;
} snug_pt2;

/* Convex hull of n points, counter-clockwise, without collinear or repeated points, starting at the point with the
 * lowest x (then y); the points are reordered (sorted). out needs room for n + 1 points. Returns the vertex count
 * (0..n: fewer than 3 when the points are collinear or coincide). The result does not depend on the input order. */
uint32_t snug_hull2(snug_pt2* pts, uint32_t n, snug_pt2* out);
/* Drop the points strictly inside the octagon of the extreme points in the x, y and diagonal directions (they cannot
 * be hull vertices), keeping the others in their order; returns how many are left. Makes the hull of a large,
 * round point set (every vertex of a mesh) a matter of a few hundred points. */
uint32_t snug_hull2_prefilter(snug_pt2* pts, uint32_t n);

/* Signed area (positive counter-clockwise). */
double snug_poly_area(const snug_pt2* p, uint32_t n);
/* Extent of a convex polygon along the unit direction d: max - min of p . d. */
double snug_poly_extent(const snug_pt2* p, uint32_t n, snug_pt2 d);
/* Smallest width of a convex polygon (over its edge directions). */
double snug_poly_min_width(const snug_pt2* p, uint32_t n);

/* The smallest-area rectangle around a convex polygon, one side along a polygon edge: its unit x axis (the y axis
 * is x turned a quarter counter-clockwise) and extents along both. Of the sides of the rectangles within 1e-9 of
 * the smallest area (a square has four), the one nearest the unit direction `prefer` is the x axis, so the frame
 * turns with the polygon and `prefer`. */
typedef struct snug_rect2 {
    snug_pt2 axis;
    double x0, x1, y0, y1;
} snug_rect2;
void snug_poly_min_rect(const snug_pt2* p, uint32_t n, snug_pt2 prefer, snug_rect2* out);

/* The part of convex polygon a (na vertices) inside convex polygon b (both counter-clockwise), into out (room for
 * na + nb points); returns its vertex count (0 when they do not meet, or na + nb > SNUG_POLY_CLIP_MAX). */
#define SNUG_POLY_CLIP_MAX 256
uint32_t snug_poly_clip(const snug_pt2* a, uint32_t na, const snug_pt2* b, uint32_t nb, snug_pt2* out);

/* Remove vertices of a convex counter-clockwise polygon in place, always the one whose triangle with its neighbours
 * is smallest (removing a vertex cuts that triangle off, so the result lies inside), while more than max remain,
 * an edge is shorter than min_edge, or a vertex lies within min_edge / 64 of the line through its neighbours.
 * Returns the new count (may fall below 3 for a sliver). */
uint32_t snug_poly_simplify(snug_pt2* p, uint32_t n, uint32_t max, double min_edge);

#endif
