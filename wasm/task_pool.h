/* A small pthread pool behind snug's task hooks (snug_ctx_def.enqueue_task / finish_task). snug owns no threads;
 * this is what the threaded WebAssembly build plugs in, and what the native tests use to run the core with
 * several workers. One task at a time: a pool serves one context (or contexts that never run at once). */
#ifndef SNUG_TASK_POOL_H
#define SNUG_TASK_POOL_H

#include "snug.h"

/* Most threads a pool runs (the caller included). */
#define SNUG_TASK_POOL_MAX 64u

typedef struct snug_task_pool snug_task_pool;

/* `threads` counts the caller too (it works while it waits in finish_task): threads - 1 pthreads are started.
 * NULL when threads is 0 or out of range, or a thread cannot be started. */
snug_task_pool* snug_task_pool_create(uint32_t threads);
void snug_task_pool_destroy(snug_task_pool* pool);
/* Point def's task hooks and worker_count at the pool. */
void snug_task_pool_hook(snug_task_pool* pool, snug_ctx_def* def);
/* A context with the default allocator whose task hooks are the pool's (one call for the JS API, which cannot build
 * a snug_ctx_def with function pointers). Destroy the context before the pool. NULL when out of memory. */
snug_ctx* snug_task_pool_ctx_create(snug_task_pool* pool);

#endif
