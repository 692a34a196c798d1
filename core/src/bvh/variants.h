/* The builder variants a library holds (issue 16: research variants used only for comparison live apart from the
 * product path). Both libraries define the table below, each in a file of its own: the product library (the wasm
 * modules, the examples) links bvh/variants.c, which knows only the product's splitters (median, SAH, Gottschalk);
 * the research library (the tests, the benchmarks, the tools wasm module) links research/variants.c in its place,
 * which adds the variants kept for comparison. The builder reads the table and refuses what is not in it
 * (snug_bvh_def_check_buildable), so the product links no research code. (ccd/variants.h: the same for time of
 * impact.) */
#ifndef SNUG_BVH_VARIANTS_H
#define SNUG_BVH_VARIANTS_H

#include "bvh/bvh_build.h"

typedef snug_status (*snug_bottom_up_fn)(snug_ctx* ctx, snug_build* b, uint32_t tri_count);

typedef struct snug_build_variants {
    snug_split_fn splitters[SNUG_SPLITTER_COUNT]; /* by snug_splitter; NULL: not in this library */
    snug_bottom_up_fn bottom_up;                  /* the bottom-up builder; NULL: not in this library */
} snug_build_variants;

extern const snug_build_variants snug_build_table;

#endif
