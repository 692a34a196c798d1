#include "test_alloc.h"

#include <stdlib.h>

static void* failing_alloc(size_t size, void* user) {
    test_failing_alloc* f = user;
    if (f->countdown >= 0 && f->countdown-- == 0) return NULL;
    return malloc(size);
}

static void failing_free(void* p, void* user) {
    (void)user;
    free(p);
}

snug_ctx_def test_failing_ctx_def(test_failing_alloc* f) {
    snug_ctx_def def = snug_default_ctx_def();
    def.alloc = failing_alloc;
    def.free = failing_free;
    def.user = f;
    return def;
}
