#include "test_tasks.h"

#include <stdlib.h>

static uint64_t next(test_shuffler* s) {
    s->rng ^= s->rng << 13;
    s->rng ^= s->rng >> 7;
    s->rng ^= s->rng << 17;
    return s->rng;
}

/* Ranges of random lengths (at least min_range but the last), run in a random order: returns NULL (all done). */
static void* shuffle_enqueue(snug_task_fn task, uint32_t item_count, uint32_t min_range, void* context, void* user) {
    test_shuffler* s = user;
    s->tasks++;
    uint32_t* starts = malloc(((size_t)item_count + 1) * sizeof *starts);
    if (!starts) abort();
    uint32_t count = 0, min = min_range ? min_range : 1;
    for (uint32_t at = 0; at < item_count; at += min + (uint32_t)(next(s) % (2 * min))) starts[count++] = at;
    starts[count] = item_count;
    uint32_t* order = malloc((size_t)count * sizeof *order);
    if (!order) abort();
    for (uint32_t k = 0; k < count; k++) order[k] = k;
    for (uint32_t k = count; k > 1; k--) {
        uint32_t j = (uint32_t)(next(s) % k), t = order[k - 1];
        order[k - 1] = order[j];
        order[j] = t;
    }
    for (uint32_t k = 0; k < count; k++) {
        uint32_t r = order[k];
        task(starts[r], starts[r + 1], (uint32_t)(next(s) % s->workers), context);
        s->ranges++;
    }
    free(order);
    free(starts);
    return NULL;
}

static void shuffle_finish(void* task, void* user) {
    (void)task;
    (void)user;
    abort(); /* enqueue ran everything and returned NULL */
}

void test_shuffler_hook(test_shuffler* s, snug_ctx_def* def) {
    def->worker_count = s->workers;
    def->enqueue_task = shuffle_enqueue;
    def->finish_task = shuffle_finish;
    def->user_task_context = s;
}
