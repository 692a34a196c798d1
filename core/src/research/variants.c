/* The research library's variant tables (bvh/variants.h, ccd/variants.h): the product's splitters and every
 * research one, the bottom-up builder, and the DAASD time-of-impact mode. Linked in place of bvh/variants.c and
 * ccd/variants.c. */
#include "research/research.h"

const snug_build_variants snug_build_table = {
    .splitters = {
        [SNUG_SPLIT_MEDIAN] = snug_split_median,
        [SNUG_SPLIT_SAH] = snug_split_sah,
        [SNUG_SPLIT_GOTTSCHALK] = snug_split_gottschalk,
        [SNUG_SPLIT_ZACHMANN] = snug_split_zachmann,
        [SNUG_SPLIT_KCENTER] = snug_split_kcenter,
        [SNUG_SPLIT_KMEANS] = snug_split_kmeans,
        [SNUG_SPLIT_GREEDY] = snug_split_greedy,
        [SNUG_SPLIT_BRANCH_BOUND] = snug_split_bb,
    },
    .bottom_up = snug_bvh_build_bottom_up,
};

const snug_toi_variants snug_toi_table = {
    .daasd = snug_toi_daasd,
};
