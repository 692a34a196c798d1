/* The product library's builder variants (bvh/variants.h): its three splitters, no bottom-up builder. */
#include "bvh/variants.h"

const snug_build_variants snug_build_table = {
    .splitters = {
        [SNUG_SPLITTER_MEDIAN] = snug_split_median,
        [SNUG_SPLITTER_SAH] = snug_split_sah,
        [SNUG_SPLITTER_GOTTSCHALK] = snug_split_gottschalk,
    },
};
