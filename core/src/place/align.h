/* Degrees of freedom left by binding planes and orientation constraints, alignment rotations, angle steps. */
#ifndef SNUG_ALIGN_H
#define SNUG_ALIGN_H

#include "place/pmath.h"

/* Normals closer to parallel than this (|n0 x n1|, unit vectors) count once (IConS §3.2.4). */
#define SNUG_PARALLEL_EPS 1e-6

typedef enum snug_dof_kind { SNUG_DOF_FREE, SNUG_DOF_PLANE, SNUG_DOF_LINE, SNUG_DOF_NONE } snug_dof_kind;

/* Translations a set of binding planes leaves: all, in the plane of n, along line, or none. */
typedef struct snug_dof {
    snug_dof_kind kind;
    dvec n;
    dvec line;
} snug_dof;

snug_dof snug_dof_of(const dvec* normals, uint32_t count);
/* The part of t that the planes allow. */
dvec snug_dof_project(const snug_dof* d, dvec t);
uint32_t snug_dof_axes(const snug_dof* d);

typedef enum snug_turn_kind { SNUG_TURN_FREE, SNUG_TURN_AXIS, SNUG_TURN_NONE } snug_turn_kind;

/* Turns left by the binding normals and orientation directions: any, about one axis, or none. */
typedef struct snug_turn {
    snug_turn_kind kind;
    dvec axis;
} snug_turn;

snug_turn snug_turn_of(const dvec* axes, uint32_t count);

/* The rotation turning unit direction x onto unit direction y about an axis chosen as nature would: the
 * prescribed axis when there is one (false if it cannot do it), else about up when x and y have the same
 * elevation, else about a horizontal axis (a tilt without a turn about the vertical). */
bool snug_align_rotation(dvec x, dvec y, const dvec* prescribed, dvec up, dquat* out);

/* The turn about the unit axis, of a body oriented q, that ends on a multiple of step (absolute angles measured
 * against a fixed world direction across the axis) nearest to turning by `turn`; at least one step in the
 * direction of a non-zero turn. step <= 0 returns turn. */
double snug_turn_to_step(dquat q, dvec axis, double turn, double step);

#endif
