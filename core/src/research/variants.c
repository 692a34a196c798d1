/* The research library's builder variants (bvh/variants.h): the product's splitters and every research one, and
 * the bottom-up builder. Linked in place of bvh/variants.c. */
#include "research/research.h"

const snug_bvh_variants snug_variants = {
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
