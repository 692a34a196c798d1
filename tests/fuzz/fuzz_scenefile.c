/* Scene file load ("SNUGSCEN", core/src/place/scene_file.c) into a scene that already holds a furnished room
 * (place_room.h). The first byte picks the mode:
 *   0: raw bytes;
 *   1: sealed: the header's size and checksum are recomputed, so the structural checks are reached;
 *   2: built: the room is saved, a few words overwritten (small integers, edge floats, raw words), the cut maybe
 *      moved, resealed.
 * Oracle: a load either fails, leaving the scene exactly as it was (its saved file byte-identical before and
 * after), or succeeds with a scene that passes the consistency check with 0 violations and saves back to the bytes
 * it loaded, or, when the file held unit vectors or quaternions a few ulps off what snug stores (load normalizes
 * them), to bytes that load and save back to themselves. */
#include "base/fnv.h"
#include "fuzz_input.h"
#include "place_room.h"

#define FILE_MAX (1u << 16)
#define HEADER 32u

static void put_u64(unsigned char* p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* The header's size and checksum for these bytes (the file format's, as documented in scene_file.c). */
static void seal(unsigned char* buf, size_t n) {
    if (n < HEADER) return;
    put_u64(buf + 16, n);
    put_u64(buf + 24, snug_fnv1a64(buf + HEADER, n - HEADER));
}

static size_t save(snug_ctx* ctx, snug_scene scene, unsigned char* buf) {
    size_t n = 0;
    snug_status st = snug_scene_save(ctx, scene, buf, FILE_MAX, &n);
    FZ_CHECK(st == SNUG_OK && n <= FILE_MAX, "save: %s (%zu bytes): %s", snug_status_name(st), n, snug_ctx_last_error(ctx));
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fz in = {data, size, 0};
    fz* f = &in;
    static unsigned char file[FILE_MAX], before[FILE_MAX], after[FILE_MAX];
    snug_ctx* ctx = snug_ctx_create(NULL);
    FZ_CHECK(ctx, "context");
    snug_scene scene;
    FZ_CHECK(snug_scene_create(ctx, &scene) == SNUG_OK, "scene");
    room_kind kinds[ROOM_KINDS];
    snug_mesh mesh[ROOM_KINDS];
    FZ_CHECK(room_meshes(ctx, kinds, mesh), "room mesh: %s", snug_ctx_last_error(ctx));
    snug_body bodies[ROOM_BODIES];
    FZ_CHECK(room_furnish(ctx, scene, mesh, kinds, bodies), "furnish: %s", snug_ctx_last_error(ctx));
    size_t nbefore = save(ctx, scene, before);

    size_t n = 0;
    uint8_t mode = fz_below(f, 3);
    if (mode < 2) { /* the rest of the input is the file */
        n = in.n < FILE_MAX ? in.n : FILE_MAX;
        memcpy(file, in.p, n);
        if (mode == 1) {
            static const unsigned char magic[8] = {'S', 'N', 'U', 'G', 'S', 'C', 'E', 'N'};
            if (n >= 8) memcpy(file, magic, 8);
            seal(file, n);
        }
    } else {
        memcpy(file, before, nbefore);
        n = nbefore;
        uint32_t edits = 1 + fz_below(f, 4);
        for (uint32_t e = 0; e < edits; e++) {
            uint32_t at = HEADER + 4 * fz_below(f, (uint32_t)(n - HEADER) / 4);
            uint32_t v;
            uint8_t kind = fz_u8(f);
            if (kind < 96) v = fz_below(f, 16) - 2u;  /* small counts and indices, ~0 and ~1 */
            else if (kind < 160) {                   /* a float: grid, edge or raw */
                float x = fz_float(f);
                memcpy(&v, &x, 4);
            } else if (kind < 200) {                 /* one bit */
                memcpy(&v, file + at, 4);
                v ^= 1u << fz_below(f, 32);
            } else {
                v = fz_u32(f);
            }
            memcpy(file + at, &v, 4);
        }
        if (fz_u8(f) < 32) n = HEADER + fz_below(f, (uint32_t)(n - HEADER)); /* cut */
        seal(file, n);
    }

    snug_body loaded[32];
    snug_mesh meshes[8];
    uint32_t body_total = 0, mesh_total = 0;
    snug_status st = snug_scene_load(ctx, scene, file, n, loaded, 32, &body_total, meshes, 8, &mesh_total);
    fz_check_status(ctx, st, "scene_load");
    if (st != SNUG_OK) {
        size_t nafter = save(ctx, scene, after);
        FZ_CHECK(nafter == nbefore && !memcmp(before, after, nbefore), "a failed load (%s) changed the scene",
                 snug_status_name(st));
    } else {
        snug_violation v[4];
        uint32_t total = 0;
        FZ_CHECK(snug_scene_check(ctx, scene, v, 4, &total) == SNUG_OK || total > 4, "check after load");
        FZ_CHECK(total == 0, "a loaded scene has %u violations (kind %d)", total, (int)v[0].kind);
        size_t nafter = save(ctx, scene, after);
        /* the same bytes, unless the file held unit vectors or quaternions that are not exactly what snug stores
         * (load normalizes them within their tolerance): then the bytes saved are a fixed point */
        if (nafter != n || memcmp(file, after, n)) {
            static unsigned char again[FILE_MAX];
            memcpy(file, after, nafter);
            n = nafter;
            st = snug_scene_load(ctx, scene, file, n, loaded, 32, &body_total, meshes, 8, &mesh_total);
            FZ_CHECK(st == SNUG_OK, "a saved scene does not load: %s", snug_ctx_last_error(ctx));
            size_t nagain = save(ctx, scene, again);
            FZ_CHECK(nagain == n && !memcmp(file, again, n), "save -> load -> save differs (%zu -> %zu bytes)", n, nagain);
        }
    }
    snug_ctx_destroy(ctx);
    return 0;
}
