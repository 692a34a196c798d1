/* The time-of-impact variants a library holds, as bvh/variants.h for the builders: the product library links
 * ccd/variants.c, which has no research mode; the research library links research/variants.c in its place, which
 * adds seed 003's DAASD mode (it exists to reproduce the paper: rotation as chords, no edge-edge tests).
 * snug_toi_prepare refuses a mode the table lacks, so the product links no research code. */
#ifndef SNUG_CCD_VARIANTS_H
#define SNUG_CCD_VARIANTS_H

#include "ccd/ccd.h"

typedef snug_status (*snug_toi_fn)(snug_ctx* ctx, const snug_toi_input* in, snug_toi_result* out);

typedef struct snug_toi_variants {
    snug_toi_fn daasd; /* SNUG_TOI_DAASD; NULL: not in this library */
} snug_toi_variants;

extern const snug_toi_variants snug_toi_table;

#endif
