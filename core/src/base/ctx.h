/* The context: allocator, last error, handle pools, scratch memory and query settings.
 * Every module reaches memory and error reporting through it; there are no other globals. */
#ifndef SNUG_CTX_H
#define SNUG_CTX_H

#include "snug.h"
#include "base/handle.h"

#include <stdarg.h>

/* Functions off every hot path (welding, quality reports, deriving a loaded mesh's data): the
 * compiler optimises them for size, which keeps the wasm module within its budget (issue 7). */
#if defined(__GNUC__)
#define SNUG_COLD __attribute__((cold))
#else
#define SNUG_COLD
#endif

/* Data an upper layer hangs on an object of a lower one (the placement layer's surfaces on a mesh, its state on a
 * scene): the lower layer frees it with `free` when the object goes, without knowing what it is. */
typedef struct snug_attachment {
    void* data;
    void (*free)(struct snug_ctx* ctx, void* data);
} snug_attachment;

/* A growable block its holder keeps between calls: grown when a call needs more (never shrunk), so a warm hot path
 * never allocates. What it holds is scratch unless the caller asks to keep a prefix. */
typedef struct snug_buffer {
    unsigned char* data;
    size_t size;
} snug_buffer;

struct snug_ctx {
    snug_ctx_def def;
    size_t allocated;
    snug_status last_status;
    char last_error[256];
    snug_pool meshes;
    snug_pool scenes;           /* snug_scene_data (scene.h) */
    snug_traversal traversal;
    snug_query_stats stats;
    snug_buffer scratch;        /* traversal stacks and temporary arrays of one query at a time */
};

void* snug_alloc(snug_ctx* ctx, size_t size);
void* snug_calloc(snug_ctx* ctx, size_t count, size_t size);
/* Like realloc; on failure returns NULL and leaves ptr untouched. */
void* snug_realloc(snug_ctx* ctx, void* ptr, size_t size);
void snug_free(snug_ctx* ctx, void* ptr);

/* Record a failure with a printf-style message and return status (so callers write `return snug_fail(...)`). */
snug_status snug_fail(snug_ctx* ctx, snug_status status, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* snprintf for the core's messages (format.c): %s %c %d %u %x with widths and the 0 flag, z and ll, %g, %%. Writes
 * at most size bytes with the terminator and returns the length the whole text needs. */
size_t snug_format(char* out, size_t size, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
size_t snug_vformat(char* out, size_t size, const char* fmt, va_list args);

/* The mark the snug_default_xxx_def() functions leave in a def's internal_value (Box2D's secret cookie): a def
 * declared or zeroed by hand lacks it, and a call taking a def rejects it instead of reading made-up settings. */
#define SNUG_DEF_MARK 0x736e7567u
/* SNUG_OK for a def made by snug_default_<name>(), else SNUG_ERR_INVALID_ARGUMENT with a message saying so. */
snug_status snug_def_check_mark(snug_ctx* ctx, uint32_t internal_value, const char* name);

/* Record success and return SNUG_OK. */
snug_status snug_succeed(snug_ctx* ctx);

/* Run task over items [0, item_count) through the context's task hooks (on the calling thread, in one range,
 * without them) and return when every item is done. Tasks must not allocate or report errors through ctx:
 * neither is thread-safe. Worker indices are below snug_ctx_workers(ctx). */
void snug_parallel_for(snug_ctx* ctx, uint32_t item_count, uint32_t min_range, snug_task_fn task, void* context);
static inline uint32_t snug_ctx_workers(const snug_ctx* ctx) { return ctx->def.worker_count; }

/* Grow buf to at least `bytes` (doubling from 1 KB), keeping its first `keep` bytes; fails with
 * SNUG_ERR_OUT_OF_MEMORY and leaves buf as it was. */
snug_status snug_buffer_reserve(snug_ctx* ctx, snug_buffer* buf, size_t bytes, size_t keep);

static inline void snug_attachment_release(snug_ctx* ctx, snug_attachment* a) {
    if (a->data) a->free(ctx, a->data);
    a->data = NULL;
}
/* The context's scratch arena of at least `bytes`; contents are not kept. */
static inline snug_status snug_scratch_reserve(snug_ctx* ctx, size_t bytes) {
    return snug_buffer_reserve(ctx, &ctx->scratch, bytes, 0);
}

#endif
