/* Context lifetime, allocation accounting and error reporting. */
#include "base/ctx.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Each block carries its size in front, so the context can report live bytes and tests can find leaks. */
typedef struct block_header {
    size_t size;
    size_t pad; /* keeps user memory 16-byte aligned on 64-bit hosts */
} block_header;

static void* default_alloc(size_t size, void* user) {
    (void)user;
    return malloc(size);
}

static void default_free(void* ptr, void* user) {
    (void)user;
    free(ptr);
}

snug_ctx_def snug_default_ctx_def(void) {
    snug_ctx_def def = {default_alloc, default_free, NULL, 1, NULL, NULL, NULL, SNUG_DEF_MARK};
    return def;
}

snug_status snug_def_check_mark(snug_ctx* ctx, uint32_t internal_value, const char* name) {
    if (internal_value == SNUG_DEF_MARK) return SNUG_OK;
    return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT,
                     "snug_%s was not made by snug_default_%s() (start from the default, then set fields)", name, name);
}

void* snug_alloc(snug_ctx* ctx, size_t size) {
    if (size > SIZE_MAX - sizeof(block_header)) return NULL;
    block_header* h = ctx->def.alloc(sizeof(block_header) + size, ctx->def.user);
    if (!h) return NULL;
    h->size = size;
    ctx->allocated += size;
    return h + 1;
}

void* snug_calloc(snug_ctx* ctx, size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) return NULL;
    void* p = snug_alloc(ctx, count * size);
    if (p) memset(p, 0, count * size);
    return p;
}

void* snug_realloc(snug_ctx* ctx, void* ptr, size_t size) {
    if (!ptr) return snug_alloc(ctx, size);
    block_header* old = (block_header*)ptr - 1;
    void* fresh = snug_alloc(ctx, size);
    if (!fresh) return NULL;
    memcpy(fresh, ptr, old->size < size ? old->size : size);
    snug_free(ctx, ptr);
    return fresh;
}

void snug_free(snug_ctx* ctx, void* ptr) {
    if (!ptr) return;
    block_header* h = (block_header*)ptr - 1;
    ctx->allocated -= h->size;
    ctx->def.free(h, ctx->def.user);
}

snug_status snug_fail(snug_ctx* ctx, snug_status status, const char* fmt, ...) {
    ctx->last_status = status;
    va_list args;
    va_start(args, fmt);
    size_t n = snug_format(ctx->last_error, sizeof ctx->last_error, "%s: ", snug_status_name(status));
    if (n >= sizeof ctx->last_error) n = 0;
    snug_vformat(ctx->last_error + n, sizeof ctx->last_error - n, fmt, args);
    va_end(args);
    return status;
}

snug_status snug_succeed(snug_ctx* ctx) {
    ctx->last_status = SNUG_OK;
    ctx->last_error[0] = '\0';
    return SNUG_OK;
}

void snug_parallel_for(snug_ctx* ctx, uint32_t item_count, uint32_t min_range, snug_task_fn task, void* context) {
    if (item_count == 0) return;
    if (ctx->def.worker_count < 2 || item_count <= min_range) {
        task(0, item_count, 0, context);
        return;
    }
    /* This thread works inside finish_task, on the stack right below the frames that hold `context` (and what it
     * points to), which the other workers read for every item: two cache lines between keep its writes off
     * those lines (sharing them cost the 871k build's finish pass its whole gain from a second thread). */
    volatile unsigned char gap[128];
    gap[0] = 0;
    void* handle = ctx->def.enqueue_task(task, item_count, min_range, context, ctx->def.user_task_context);
    if (handle) ctx->def.finish_task(handle, ctx->def.user_task_context);
    (void)gap[0]; /* read after the call, so that the gap lives through it (no tail call) */
}

snug_status snug_buffer_reserve(snug_ctx* ctx, snug_buffer* buf, size_t bytes, size_t keep) {
    if (buf->size >= bytes) return SNUG_OK;
    size_t size = buf->size ? buf->size : 1024;
    while (size < bytes) size *= 2;
    unsigned char* data = snug_alloc(ctx, size);
    if (!data) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "buffer of %zu bytes", size);
    if (keep) memcpy(data, buf->data, keep);
    snug_free(ctx, buf->data);
    buf->data = data;
    buf->size = size;
    return SNUG_OK;
}

snug_ctx* snug_ctx_create(const snug_ctx_def* def) {
    if (def && def->internal_value != SNUG_DEF_MARK) return NULL;
    snug_ctx_def d = def ? *def : snug_default_ctx_def();
    if (!d.alloc || !d.free) {
        d.alloc = default_alloc;
        d.free = default_free;
    }
    snug_ctx* ctx = d.alloc(sizeof *ctx, d.user);
    if (!ctx) return NULL;
    memset(ctx, 0, sizeof *ctx);
    if (d.worker_count < 1 || !d.enqueue_task || !d.finish_task) d.worker_count = 1;
    if (d.worker_count > SNUG_MAX_WORKERS) d.worker_count = SNUG_MAX_WORKERS;
    ctx->def = d;
    /* The salt comes from the context's address so that handles of another context rarely validate here. */
    uint16_t salt = (uint16_t)(((uintptr_t)ctx >> 4) * 2654435761u >> 7);
    snug_pool_init(&ctx->meshes, SNUG_KIND_MESH, salt);
    snug_pool_init(&ctx->scenes, SNUG_KIND_SCENE, salt);
    ctx->traversal = SNUG_TRAVERSAL_SIMULTANEOUS;
    return ctx;
}

void snug_ctx_destroy(snug_ctx* ctx) {
    if (!ctx) return;
    /* Scenes first: they refer to meshes (by handle only, but a scene is the younger owner). */
    snug_pool_destroy(ctx, &ctx->scenes);
    snug_pool_destroy(ctx, &ctx->meshes);
    snug_free(ctx, ctx->scratch.data);
    ctx->def.free(ctx, ctx->def.user);
}

const char* snug_ctx_last_error(const snug_ctx* ctx) { return ctx ? ctx->last_error : "no context"; }
snug_status snug_ctx_last_status(const snug_ctx* ctx) { return ctx ? ctx->last_status : SNUG_ERR_INVALID_ARGUMENT; }
size_t snug_ctx_allocated_bytes(const snug_ctx* ctx) { return ctx ? ctx->allocated : 0; }

const char* snug_status_name(snug_status status) {
    static const char* const names[SNUG_STATUS_COUNT] = {
        "ok", "invalid argument", "not finite", "index out of range", "empty",
        "stale handle", "out of memory", "blob truncated", "foreign blob", "unsupported blob version",
        "corrupt blob", "buffer too small", "mesh not closed", "cycle"};
    return (unsigned)status < SNUG_STATUS_COUNT ? names[status] : "unknown status";
}

snug_status snug_ctx_set_traversal(snug_ctx* ctx, snug_traversal traversal) {
    if (!ctx) return SNUG_ERR_INVALID_ARGUMENT;
    if ((unsigned)traversal >= SNUG_TRAVERSAL_COUNT)
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "traversal %d is not a snug_traversal", (int)traversal);
    ctx->traversal = traversal;
    return snug_succeed(ctx);
}

const snug_query_stats* snug_ctx_last_stats(const snug_ctx* ctx) { return ctx ? &ctx->stats : NULL; }
