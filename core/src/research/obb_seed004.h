/* Seed 004's reduced OBB-OBB test: a research variant beside the product's 15-axis SAT (geom/bv_overlap.c), kept
 * so the benchmarks and tests can compare the two. Not used by any query. */
#ifndef SNUG_OBB_SEED004_H
#define SNUG_OBB_SEED004_H

#include "geom/bv.h"

/* Reduced front-face test + containment fix. */
bool snug_obb_obb_seed004(const snug_obb* a, const snug_obb* b, const snug_xform* rel);
/* The same with the containment fix selectable (false = the algorithm exactly as published, which misses
 * overlaps where a box centre lies inside the other box). Not exact, not fast. */
bool snug_obb_obb_seed004_ex(const snug_obb* a, const snug_obb* b, const snug_xform* rel, bool containment_fix);

#endif
