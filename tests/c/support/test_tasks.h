/* Task hooks for tests: a scheduler on the calling thread that runs a task's ranges in a seeded random order
 * under random worker indices (any schedule a pool could produce, reproducibly and in every build), and the real
 * pthread pool (wasm/task_pool.c) where the build has threads. */
#ifndef SNUG_TEST_TASKS_H
#define SNUG_TEST_TASKS_H

#include "snug.h"

typedef struct test_shuffler {
    uint64_t rng;
    uint32_t workers;
    uint32_t tasks;  /* tasks enqueued so far */
    uint32_t ranges; /* ranges run so far */
} test_shuffler;

/* Point def's task hooks at s with s->workers workers (set rng and workers first). */
void test_shuffler_hook(test_shuffler* s, snug_ctx_def* def);

#endif
