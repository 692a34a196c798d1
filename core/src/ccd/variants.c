/* The product library's time-of-impact variants (ccd/variants.h): no research mode. */
#include "ccd/variants.h"

const snug_toi_variants snug_toi_table = {0};
