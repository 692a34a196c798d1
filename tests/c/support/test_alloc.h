/* An allocator for out-of-memory tests: with countdown = k the k-th allocation from now (0-based) fails,
 * with countdown = -1 none does. */
#ifndef SNUG_TEST_ALLOC_H
#define SNUG_TEST_ALLOC_H

#include "snug.h"

typedef struct test_failing_alloc {
    int countdown;
} test_failing_alloc;

/* A context def whose allocations go through f. */
snug_ctx_def test_failing_ctx_def(test_failing_alloc* f);

#endif
