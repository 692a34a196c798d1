/* Thread pool for snug's task hooks. Items are claimed in ranges from one atomic counter, so uneven items (the
 * builder's groups of subtrees) balance themselves; the caller claims ranges too while it waits. */
#include "task_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef struct worker_arg {
    struct snug_task_pool* pool;
    uint32_t index;
} worker_arg;

struct snug_task_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake;  /* a task was published, or stop */
    pthread_cond_t idle;  /* a worker left the task */
    pthread_mutex_t busy; /* held from enqueue to finish: one task at a time */
    pthread_t threads[SNUG_TASK_POOL_MAX];
    worker_arg args[SNUG_TASK_POOL_MAX];
    uint32_t thread_count;   /* started pthreads; the caller is worker 0 */
    uint64_t generation;     /* bumped per task; a worker runs each generation once */
    uint32_t inside;         /* workers still claiming from the current task */
    bool stop;
    /* the current task */
    snug_task_fn task;
    void* context;
    uint32_t item_count, range;
    atomic_uint next; /* first unclaimed item */
};


static void claim(snug_task_pool* p, uint32_t worker) {
    for (;;) {
        uint32_t begin = atomic_fetch_add(&p->next, p->range);
        if (begin >= p->item_count) return;
        uint32_t end = p->item_count - begin < p->range ? p->item_count : begin + p->range;
        p->task(begin, end, worker, p->context);
    }
}

static void* worker_main(void* arg) {
    snug_task_pool* p = ((worker_arg*)arg)->pool;
    uint32_t index = ((worker_arg*)arg)->index;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stop && p->generation == seen) pthread_cond_wait(&p->wake, &p->lock);
        if (p->stop) break;
        seen = p->generation;
        p->inside++;
        pthread_mutex_unlock(&p->lock);
        claim(p, index);
        pthread_mutex_lock(&p->lock);
        /* finish_task returns only once every worker that entered has left, so a slow worker never claims
         * items of the next task with this one's function */
        if (--p->inside == 0) pthread_cond_signal(&p->idle);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static void* pool_enqueue(snug_task_fn task, uint32_t item_count, uint32_t min_range, void* context, void* user) {
    snug_task_pool* p = user;
    pthread_mutex_lock(&p->busy);
    uint32_t workers = p->thread_count + 1;
    /* about 64 ranges per worker keeps the tail (the last range claimed) short; a claim is one atomic add */
    uint32_t range = (item_count + 64 * workers - 1) / (64 * workers);
    pthread_mutex_lock(&p->lock);
    p->task = task;
    p->context = context;
    p->item_count = item_count;
    p->range = range > min_range ? range : (min_range ? min_range : 1);
    atomic_store(&p->next, 0);
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    return p;
}

static void pool_finish(void* handle, void* user) {
    snug_task_pool* p = user;
    (void)handle;
    claim(p, 0);
    pthread_mutex_lock(&p->lock);
    while (p->inside > 0) pthread_cond_wait(&p->idle, &p->lock);
    /* a worker that wakes for this task only now finds nothing left to claim */
    p->item_count = 0;
    pthread_mutex_unlock(&p->lock);
    pthread_mutex_unlock(&p->busy);
}

snug_task_pool* snug_task_pool_create(uint32_t threads) {
    if (threads == 0 || threads > SNUG_TASK_POOL_MAX) return NULL;
    snug_task_pool* p = calloc(1, sizeof *p);
    if (!p) return NULL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_mutex_init(&p->busy, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->idle, NULL);
    for (uint32_t i = 1; i < threads; i++) {
        p->args[i] = (worker_arg){p, i};
        if (pthread_create(&p->threads[p->thread_count], NULL, worker_main, &p->args[i]) != 0) {
            snug_task_pool_destroy(p);
            return NULL;
        }
        p->thread_count++;
    }
    return p;
}

void snug_task_pool_destroy(snug_task_pool* pool) {
    if (!pool) return;
    pthread_mutex_lock(&pool->lock);
    pool->stop = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (uint32_t i = 0; i < pool->thread_count; i++) pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->idle);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->busy);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

void snug_task_pool_hook(snug_task_pool* pool, snug_ctx_def* def) {
    def->worker_count = pool->thread_count + 1;
    def->enqueue_task = pool_enqueue;
    def->finish_task = pool_finish;
    def->user_task_context = pool;
}

snug_ctx* snug_task_pool_ctx_create(snug_task_pool* pool) {
    snug_ctx_def def = snug_default_ctx_def();
    snug_task_pool_hook(pool, &def);
    return snug_ctx_create(&def);
}
