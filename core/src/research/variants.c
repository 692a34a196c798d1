/* The research library's variant tables (bvh/variants.h, ccd/variants.h): the product's splitters and every
 * research one, the bottom-up builder, and the DAASD time-of-impact mode. Linked in place of bvh/variants.c and
 * ccd/variants.c. */
#include "research/research.h"

const snug_build_variants snug_build_table = {
    .splitters = {
        [SNUG_SPLITTER_MEDIAN] = snug_split_median,
        [SNUG_SPLITTER_SAH] = snug_split_sah,
        [SNUG_SPLITTER_GOTTSCHALK] = snug_split_gottschalk,
        [SNUG_SPLITTER_ZACHMANN] = snug_split_zachmann,
        [SNUG_SPLITTER_KCENTER] = snug_split_kcenter,
        [SNUG_SPLITTER_KMEANS] = snug_split_kmeans,
        [SNUG_SPLITTER_GREEDY] = snug_split_greedy,
        [SNUG_SPLITTER_BRANCH_BOUND] = snug_split_bb,
    },
    .bottom_up = snug_bvh_build_bottom_up,
};

const snug_toi_variants snug_toi_table = {
    .daasd = snug_toi_daasd,
};
