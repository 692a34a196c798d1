/* Scene files: the whole placement scene in a versioned, checksummed, little-endian format that keeps what IConS
 * lost on save (the bindings) and what room planners keep only in part:
 *
 *   header    "SNUGSCEN", version u32, flags u32 (0), size u64, checksum u64 (FNV-1a 64 of all bytes after it)
 *   settings  up 3f, skin f, overhang f, snap range f, max slides u32
 *   labels    count u32, then per label its name (32 bytes, zero padded) and its row of the order (u64)
 *   meshes    count u32, then per mesh: blob size u32, the blob (snug_mesh_serialize, padded to 4 bytes),
 *             surface count u32, per surface: kind u32, label u32, normal 3f, vertex count u32, vertices 3f each
 *   bodies    count u32, then per body: mesh u32, parent u32 (~0: a root), local pose 7f, flags u32 (1 static,
 *             2 enabled), layer u32, mask u32, user data u64, orientation local 3f and world 3f (zero: none)
 *   bindings  count u32, then per binding: body u32, binding surface u32, supporter u32, offer u32
 *   ignore    count u32, then per pair: body u32, body u32
 *
 * Meshes are written in the order bodies first use them, bodies in slot order; indices replace handles. Loading
 * builds everything in a new scene, checks it (snug_scene_check), and only then swaps it into the target, so a bad
 * file of any kind leaves the target as it was; the scene it replaces is freed with the temporary. The hierarchy's
 * child lists come back in slot order and world poses are recomputed from the local ones as on any move, so save ->
 * load -> save gives the same bytes. */
#include <string.h>

#include "base/fnv.h"
#include "place/place.h"

#define FILE_MAGIC 0x4e45435347554e53ull /* "SNUGSCEN" */
#define FILE_VERSION 1u
#define HEADER_BYTES 32u
#define NO_INDEX 0xffffffffu

/* ------------------------------------------------------------------------------------------------ writing */

typedef struct writer {
    unsigned char* out;                /* NULL: count only */
    size_t at, cap;
} writer;

static void w_bytes(writer* w, const void* p, size_t n) {
    if (w->out && w->at + n <= w->cap) memcpy(w->out + w->at, p, n);
    w->at += n;
}
static void w_u32(writer* w, uint32_t v) {
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    w_bytes(w, b, 4);
}
static void w_u64(writer* w, uint64_t v) {
    w_u32(w, (uint32_t)v);
    w_u32(w, (uint32_t)(v >> 32));
}
static void w_f32(writer* w, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    w_u32(w, u);
}
static void w_f32s(writer* w, const float* f, int n) {
    for (int i = 0; i < n; i++) w_f32(w, f[i]);
}

/* Index of the mesh among those written so far (meshes[] grows in first-use order). */
static uint32_t mesh_index(const snug_mesh* meshes, uint32_t count, snug_mesh m) {
    for (uint32_t i = 0; i < count; i++)
        if (meshes[i] == m) return i;
    return NO_INDEX;
}

/* The sections after the header (see the top of this file). */
static snug_status write_sections(snug_ctx* ctx, snug_scene_data* s, snug_place_scene* ps, const uint32_t* index,
                                  const snug_mesh* meshes, uint32_t n_meshes, uint32_t n_bindings, writer* w) {
    snug_status st;
    uint32_t slots = s->bodies.slot_count;
    w_f32s(w, ps->def.up, 3);
    w_f32(w, ps->def.skin);
    w_f32(w, ps->def.overhang);
    w_f32(w, ps->def.snap_range);
    w_u32(w, ps->def.max_slides);
    w_u32(w, ps->label_count);
    for (uint32_t i = 0; i < ps->label_count; i++) {
        w_bytes(w, ps->names[i], SNUG_LABEL_NAME_MAX);
        w_u64(w, ps->fits[i]);
    }
    /* meshes with their hierarchies and surfaces */
    w_u32(w, n_meshes);
    for (uint32_t i = 0; i < n_meshes; i++) {
        size_t blob = 0;
        if ((st = snug_mesh_serialize(ctx, meshes[i], NULL, 0, &blob))) return st;
        if (blob > UINT32_MAX - 3)
            return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "a mesh blob of %zu bytes is too large for a scene file", blob);
        w_u32(w, (uint32_t)blob);
        if (w->out && w->at + blob <= w->cap && (st = snug_mesh_serialize(ctx, meshes[i], w->out + w->at, blob, &blob)))
            return st;
        w->at += blob;
        static const unsigned char zero[3] = {0, 0, 0};
        w_bytes(w, zero, (4 - blob % 4) % 4);
        const snug_place_surfaces* ss = snug_mesh_surfaces(snug_mesh_lookup(ctx, meshes[i]));
        uint32_t n = ss ? ss->count : 0;
        w_u32(w, n);
        for (uint32_t j = 0; j < n; j++) {
            const snug_surface* f = &ss->items[j].s;
            w_u32(w, (uint32_t)f->kind);
            w_u32(w, f->label);
            w_f32s(w, f->normal, 3);
            w_u32(w, f->vertex_count);
            for (uint32_t v = 0; v < f->vertex_count; v++) w_f32s(w, f->vertices[v], 3);
        }
    }
    /* bodies */
    w_u32(w, s->bodies.live);
    for (uint32_t slot = 0; slot < slots; slot++) {
        snug_body_data* b = s->bodies.items[slot];
        if (!b) continue;
        snug_place_body* r = snug_place_body_at(ps, s, slot);
        w_u32(w, mesh_index(meshes, n_meshes, b->mesh));
        w_u32(w, b->parent == SNUG_NONE ? NO_INDEX : index[b->parent]);
        w_f32s(w, b->local.q, 4);
        w_f32s(w, b->local.p, 3);
        w_u32(w, (b->is_static ? 1u : 0u) | (b->enabled ? 2u : 0u));
        w_u32(w, b->layer);
        w_u32(w, b->mask);
        w_u64(w, b->user_data);
        static const float none[3] = {0, 0, 0};
        w_f32s(w, r && r->oriented ? r->orient_local : none, 3);
        w_f32s(w, r && r->oriented ? r->orient_world : none, 3);
    }
    /* bindings */
    w_u32(w, n_bindings);
    for (uint32_t slot = 0; slot < slots; slot++) {
        snug_place_body* r = snug_place_body_at(ps, s, slot);
        for (uint32_t j = 0; r && j < r->binding_count; j++) {
            snug_body_data* sup = snug_pool_get(&s->bodies, r->bindings[j].supporter);
            w_u32(w, index[slot]);
            w_u32(w, r->bindings[j].binding);
            w_u32(w, index[sup->slot]);
            w_u32(w, r->bindings[j].offer);
        }
    }
    /* ignore pairs */
    w_u32(w, s->ignore.count);
    for (uint32_t j = 0; j < s->ignore.count; j++) {
        w_u32(w, index[snug_pair_lo(s->ignore.list[j])]);
        w_u32(w, index[snug_pair_hi(s->ignore.list[j])]);
    }
    return SNUG_OK;
}

snug_status snug_scene_save(snug_ctx* ctx, snug_scene scene, void* buffer, size_t capacity, size_t* size) {
    SNUG_SCENE_ENTRY(ctx, scene, s);
    if (!size) return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "scene_save needs a size output");
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    snug_place_prune(ctx, s, ps);
    /* body slot -> file index, and the meshes in first-use order */
    uint32_t n_bodies = s->bodies.live, slots = s->bodies.slot_count;
    uint32_t* index = snug_alloc(ctx, ((size_t)slots + 1) * sizeof *index);
    snug_mesh* meshes = snug_alloc(ctx, ((size_t)n_bodies + 1) * sizeof *meshes);
    if (!index || !meshes) {
        snug_free(ctx, index);
        snug_free(ctx, meshes);
        return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "scene_save tables");
    }
    uint32_t n_meshes = 0, k = 0, n_bindings = 0;
    snug_status st = SNUG_OK;
    for (uint32_t slot = 0; slot < slots; slot++) {
        snug_body_data* b = s->bodies.items[slot];
        index[slot] = NO_INDEX;
        if (!b) continue;
        index[slot] = k++;
        if (!snug_mesh_lookup(ctx, b->mesh)) {
            st = SNUG_ERR_STALE_HANDLE;
            break;
        }
        if (mesh_index(meshes, n_meshes, b->mesh) == NO_INDEX) meshes[n_meshes++] = b->mesh;
        snug_place_body* r = snug_place_body_at(ps, s, slot);
        if (r) n_bindings += r->binding_count;
    }
    writer w = {buffer, HEADER_BYTES, buffer ? capacity : 0};
    if (!st) st = write_sections(ctx, s, ps, index, meshes, n_meshes, n_bindings, &w);
    snug_free(ctx, index);
    snug_free(ctx, meshes);
    if (st) return st == SNUG_ERR_STALE_HANDLE ? snug_fail(ctx, st, "scene_save: a body's mesh is gone") : st;
    *size = w.at;
    if (!buffer) return snug_succeed(ctx);
    if (capacity < w.at) return snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "scene file of %zu bytes, capacity %zu", w.at, capacity);
    writer hw = {buffer, 0, HEADER_BYTES};
    w_u64(&hw, FILE_MAGIC);
    w_u32(&hw, FILE_VERSION);
    w_u32(&hw, 0);
    w_u64(&hw, (uint64_t)w.at);
    w_u64(&hw, snug_fnv1a64((unsigned char*)buffer + HEADER_BYTES, w.at - HEADER_BYTES));
    return snug_succeed(ctx);
}

/* ------------------------------------------------------------------------------------------------ reading */

typedef struct reader {
    const unsigned char* in;
    size_t at, size;
    bool short_read;
} reader;

static uint32_t r_u32(reader* r) {
    if (r->at + 4 > r->size) {
        r->short_read = true;
        return 0;
    }
    const unsigned char* b = r->in + r->at;
    r->at += 4;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
static uint64_t r_u64(reader* r) {
    uint64_t lo = r_u32(r);
    return lo | (uint64_t)r_u32(r) << 32;
}
static float r_f32(reader* r) {
    uint32_t u = r_u32(r);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static bool r_f32s(reader* r, float* f, int n) {
    bool finite = true;
    for (int i = 0; i < n; i++) finite &= isfinite(f[i] = r_f32(r));
    return finite;
}
/* A count of items of at least `min_bytes` each that the rest of the file can hold. */
static bool r_count(reader* r, uint32_t* n, size_t min_bytes) {
    *n = r_u32(r);
    return !r->short_read && (size_t)*n <= (r->size - r->at) / min_bytes;
}

typedef struct file_body {
    uint32_t mesh, parent, flags, layer, mask;
    snug_pose local;
    uint64_t user_data;
    float orient_local[3], orient_world[3];
} file_body;

typedef struct loaded {
    snug_scene scene;                  /* the temporary scene */
    snug_mesh* meshes;
    uint32_t mesh_count;
    file_body* bodies;
    snug_body* handles;
    uint32_t body_count;
} loaded;

static void loaded_free(snug_ctx* ctx, loaded* l, bool keep_meshes) {
    if (l->scene) snug_scene_destroy(ctx, l->scene);
    for (uint32_t i = 0; !keep_meshes && i < l->mesh_count; i++)
        if (l->meshes[i]) snug_mesh_destroy(ctx, l->meshes[i]);
    snug_free(ctx, l->meshes);
    snug_free(ctx, l->bodies);
    snug_free(ctx, l->handles);
}

#define CORRUPT(...)                                                                                       \
    do {                                                                                                   \
        st = r.short_read ? snug_fail(ctx, SNUG_ERR_BLOB_TRUNCATED, "scene file cut short")                \
                          : snug_fail(ctx, SNUG_ERR_BLOB_CORRUPT, __VA_ARGS__);                            \
        goto fail;                                                                                         \
    } while (0)

/* Build the file's scene in a new scene of the context (l->scene); the target is not touched. */
static snug_status build(snug_ctx* ctx, const unsigned char* data, size_t size, loaded* l) {
    snug_status st = SNUG_OK;
    reader r = {data, HEADER_BYTES, size, false};
    if ((st = snug_scene_create(ctx, &l->scene))) return st;
    snug_scene_data* s = snug_scene_lookup(ctx, l->scene);
    snug_place_scene* ps = snug_place_state(ctx, s);
    if (!ps) return SNUG_ERR_OUT_OF_MEMORY;
    /* settings */
    snug_place_def def = snug_default_place_def();
    if (!r_f32s(&r, def.up, 3)) CORRUPT("settings: up is not finite");
    def.skin = r_f32(&r);
    def.overhang = r_f32(&r);
    def.snap_range = r_f32(&r);
    def.max_slides = r_u32(&r);
    if (r.short_read || (st = snug_scene_set_place_def(ctx, l->scene, &def))) CORRUPT("settings out of range");
    /* labels */
    uint32_t n;
    if (!r_count(&r, &n, SNUG_LABEL_NAME_MAX + 8) || n == 0 || n > SNUG_LABEL_MAX) CORRUPT("labels: count %u", n);
    char names[SNUG_LABEL_MAX][SNUG_LABEL_NAME_MAX];
    uint64_t fits[SNUG_LABEL_MAX];
    for (uint32_t i = 0; i < n; i++) {
        memcpy(names[i], data + r.at, SNUG_LABEL_NAME_MAX);
        r.at += SNUG_LABEL_NAME_MAX;
        fits[i] = r_u64(&r);
        if (!memchr(names[i], 0, SNUG_LABEL_NAME_MAX) || !names[i][0]) CORRUPT("labels: name %u", i);
        for (uint32_t j = 0; j < SNUG_LABEL_NAME_MAX; j++) /* zero padded, so equal tables give equal bytes */
            if (j > strlen(names[i]) && names[i][j]) CORRUPT("labels: name %u is not zero padded", i);
    }
    {
        const char* ptrs[SNUG_LABEL_MAX];
        uint32_t pairs[2 * SNUG_LABEL_MAX * SNUG_LABEL_MAX], np = 0;
        for (uint32_t i = 0; i < n; i++) {
            ptrs[i] = names[i];
            if (n < 64 && (fits[i] >> n)) CORRUPT("labels: row %u names a label past the table", i);
            if (!((fits[i] >> i) & 1u)) CORRUPT("labels: row %u is not reflexive", i);
            for (uint32_t j = 0; j < n; j++)
                if (j != i && ((fits[i] >> j) & 1u)) pairs[np++] = i, pairs[np++] = j;
        }
        if ((st = snug_scene_set_labels(ctx, l->scene, ptrs, n, pairs, np / 2))) goto fail;
        for (uint32_t i = 0; i < n; i++)
            if (ps->fits[i] != fits[i]) CORRUPT("labels: the order is not transitively closed");
    }
    /* meshes */
    /* the count is kept only once the array exists: cleaning up walks mesh_count entries of it */
    uint32_t mesh_count;
    if (!r_count(&r, &mesh_count, 8)) CORRUPT("meshes: count");
    l->meshes = snug_calloc(ctx, mesh_count + 1u, sizeof *l->meshes);
    if (!l->meshes) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "scene_load meshes");
    l->mesh_count = mesh_count;
    for (uint32_t i = 0; i < l->mesh_count; i++) {
        uint32_t blob = r_u32(&r);
        size_t padded = (size_t)blob + (4 - blob % 4) % 4;
        if (r.short_read || padded > size - r.at) CORRUPT("mesh %u: blob of %u bytes", i, blob);
        if ((st = snug_mesh_deserialize(ctx, data + r.at, blob, &l->meshes[i]))) goto fail;
        for (size_t z = blob; z < padded; z++)
            if (data[r.at + z]) CORRUPT("mesh %u: padding", i);
        r.at += padded;
        uint32_t ns;
        if (!r_count(&r, &ns, 24)) CORRUPT("mesh %u: surface count", i);
        snug_surface* surf = ns ? snug_calloc(ctx, ns, sizeof *surf) : NULL;
        if (ns && !surf) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "scene_load surfaces");
        for (uint32_t j = 0; j < ns; j++) {
            surf[j].kind = (snug_surface_kind)r_u32(&r);
            surf[j].label = r_u32(&r);
            bool finite = r_f32s(&r, surf[j].normal, 3);
            uint32_t nv = surf[j].vertex_count = r_u32(&r);
            if (nv > SNUG_SURFACE_MAX_VERTICES || r.short_read) {
                snug_free(ctx, surf); /* the message takes the count from nv, not from the freed block */
                CORRUPT("mesh %u surface %u: %u vertices", i, j, nv);
            }
            for (uint32_t v = 0; v < surf[j].vertex_count; v++) finite &= r_f32s(&r, surf[j].vertices[v], 3);
            if (!finite || r.short_read || surf[j].label >= n) {
                snug_free(ctx, surf);
                CORRUPT("mesh %u surface %u: not finite or an unknown label", i, j);
            }
        }
        st = snug_mesh_set_surfaces(ctx, l->meshes[i], surf, ns);
        snug_free(ctx, surf);
        if (st) goto fail;
    }
    /* bodies, created in file order (slots 0, 1, ...); parents linked from the last body back so that every child
     * list comes out in slot order */
    if (!r_count(&r, &l->body_count, 80)) CORRUPT("bodies: count");
    l->bodies = snug_calloc(ctx, l->body_count + 1u, sizeof *l->bodies);
    l->handles = snug_calloc(ctx, l->body_count + 1u, sizeof *l->handles);
    if (!l->bodies || !l->handles) return snug_fail(ctx, SNUG_ERR_OUT_OF_MEMORY, "scene_load bodies");
    for (uint32_t i = 0; i < l->body_count; i++) {
        file_body* fb = &l->bodies[i];
        fb->mesh = r_u32(&r);
        fb->parent = r_u32(&r);
        bool finite = r_f32s(&r, fb->local.q, 4) && r_f32s(&r, fb->local.p, 3);
        fb->flags = r_u32(&r);
        fb->layer = r_u32(&r);
        fb->mask = r_u32(&r);
        fb->user_data = r_u64(&r);
        finite &= r_f32s(&r, fb->orient_local, 3) && r_f32s(&r, fb->orient_world, 3);
        if (r.short_read || !finite || fb->mesh >= l->mesh_count || (fb->parent != NO_INDEX && fb->parent >= l->body_count) ||
            fb->parent == i || fb->flags > 3)
            CORRUPT("body %u", i);
        snug_body_def bd = snug_default_body_def();
        bd.mesh = l->meshes[fb->mesh];
        bd.pose = fb->local;
        bd.is_static = fb->flags & 1u;
        bd.enabled = (fb->flags & 2u) != 0;
        bd.layer = fb->layer;
        bd.mask = fb->mask;
        bd.user_data = fb->user_data;
        if ((st = snug_body_create(ctx, l->scene, &bd, &l->handles[i]))) goto fail;
        if (fb->orient_local[0] || fb->orient_local[1] || fb->orient_local[2] || fb->orient_world[0] ||
            fb->orient_world[1] || fb->orient_world[2])
            if ((st = snug_body_set_orientation(ctx, l->scene, l->handles[i], fb->orient_local, fb->orient_world))) goto fail;
    }
    for (uint32_t i = l->body_count; i-- > 0;)
        if (l->bodies[i].parent != NO_INDEX &&
            (st = snug_body_set_parent(ctx, l->scene, l->handles[i], l->handles[l->bodies[i].parent], false)))
            goto fail; /* a cycle is SNUG_ERR_CYCLE */
    /* bindings: records as written (the check below judges them); the hierarchy came with the bodies */
    uint32_t nb;
    if (!r_count(&r, &nb, 16)) CORRUPT("bindings: count");
    for (uint32_t i = 0; i < nb; i++) {
        uint32_t body = r_u32(&r), binding = r_u32(&r), sup = r_u32(&r), offer = r_u32(&r);
        if (r.short_read || body >= l->body_count || sup >= l->body_count || body == sup) CORRUPT("binding %u", i);
        snug_body_data* b = snug_pool_get(&s->bodies, l->handles[body]);
        snug_place_body* rec = snug_place_body_of(ctx, ps, b);
        if (!rec) return SNUG_ERR_OUT_OF_MEMORY;
        if (rec->binding_count == SNUG_BINDINGS_MAX) CORRUPT("binding %u: body %u has more than %u", i, body, SNUG_BINDINGS_MAX);
        rec->bindings[rec->binding_count++] = (snug_binding){l->handles[body], binding, l->handles[sup], offer};
    }
    uint32_t ni;
    if (!r_count(&r, &ni, 8)) CORRUPT("ignore pairs: count");
    for (uint32_t i = 0; i < ni; i++) {
        uint32_t a = r_u32(&r), b = r_u32(&r);
        if (r.short_read || a >= l->body_count || b >= l->body_count || a == b) CORRUPT("ignore pair %u", i);
        if ((st = snug_scene_ignore_pair(ctx, l->scene, l->handles[a], l->handles[b], true))) goto fail;
    }
    if (r.at != size) CORRUPT("%zu bytes after the last section", size - r.at);
    /* the graph, the hierarchy it shapes and every binding must hold */
    uint32_t violations = 0;
    if ((st = snug_scene_check(ctx, l->scene, NULL, 0, &violations)) && st != SNUG_ERR_BUFFER_TOO_SMALL) goto fail;
    if (violations)
        return snug_fail(ctx, SNUG_ERR_BLOB_CORRUPT, "scene file: the scene it describes is not consistent (%u violations)",
                         violations);
    return SNUG_OK;
fail:
    return st;
}

snug_status snug_scene_load(snug_ctx* ctx, snug_scene scene, const void* data, size_t size, snug_body* bodies,
                            uint32_t body_capacity, uint32_t* body_total, snug_mesh* meshes, uint32_t mesh_capacity,
                            uint32_t* mesh_total) {
    SNUG_SCENE_ENTRY(ctx, scene, target);
    if (!data || (body_capacity && !bodies) || (mesh_capacity && !meshes))
        return snug_fail(ctx, SNUG_ERR_INVALID_ARGUMENT, "scene_load needs data and outputs for its capacities");
    const unsigned char* in = data;
    reader h = {in, 0, size, false};
    uint64_t magic = r_u64(&h);
    uint32_t version = r_u32(&h), flags = r_u32(&h);
    uint64_t declared = r_u64(&h), checksum = r_u64(&h);
    if (h.short_read) return snug_fail(ctx, SNUG_ERR_BLOB_TRUNCATED, "scene file of %zu bytes", size);
    if (magic != FILE_MAGIC) return snug_fail(ctx, SNUG_ERR_BLOB_FOREIGN, "not a snug scene file");
    if (version != FILE_VERSION) return snug_fail(ctx, SNUG_ERR_BLOB_VERSION, "scene file version %u (this is %u)", version, FILE_VERSION);
    if (declared != size) return snug_fail(ctx, SNUG_ERR_BLOB_TRUNCATED, "scene file says %llu bytes, %zu given", (unsigned long long)declared, size);
    if (flags != 0) return snug_fail(ctx, SNUG_ERR_BLOB_CORRUPT, "scene file flags 0x%x", flags);
    if (snug_fnv1a64(in + HEADER_BYTES, size - HEADER_BYTES) != checksum)
        return snug_fail(ctx, SNUG_ERR_BLOB_CORRUPT, "scene file checksum mismatch");
    loaded l;
    memset(&l, 0, sizeof l);
    snug_status st = build(ctx, in, size, &l);
    if (!st && ((bodies && body_capacity < l.body_count) || (meshes && mesh_capacity < l.mesh_count)))
        st = snug_fail(ctx, SNUG_ERR_BUFFER_TOO_SMALL, "the file has %u bodies and %u meshes", l.body_count, l.mesh_count);
    if (body_total) *body_total = l.body_count;
    if (mesh_total) *mesh_total = l.mesh_count;
    if (st) {
        char why[sizeof ctx->last_error];
        memcpy(why, ctx->last_error, sizeof why);
        loaded_free(ctx, &l, false);
        memcpy(ctx->last_error, why, sizeof why);
        ctx->last_status = st;
        return st;
    }
    /* swap the built scene in; the temporary takes the old contents away with it */
    snug_scene_data* built = snug_scene_lookup(ctx, l.scene);
    snug_scene_swap_contents(target, built);
    for (uint32_t i = 0; bodies && i < l.body_count; i++) bodies[i] = l.handles[i];
    for (uint32_t i = 0; meshes && i < l.mesh_count; i++) meshes[i] = l.meshes[i];
    loaded_free(ctx, &l, true);
    return snug_succeed(ctx);
}
