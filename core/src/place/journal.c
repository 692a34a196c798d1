/* The journal of a move (place.h): the binding records and, through the scene's journal, the hierarchy as they were
 * before each change, put back newest first when a later step fails. */
#include <string.h>

#include "place/place.h"

void snug_place_journal_begin(snug_scene_data* s, snug_place_scene* ps) {
    ps->journaling = true;
    ps->journal_count = 0;
    snug_hierarchy_journal_begin(s);
}

void snug_place_journal_end(snug_scene_data* s, snug_place_scene* ps) {
    ps->journaling = false;
    ps->journal_count = 0;
    snug_hierarchy_journal_end(s);
}

snug_status snug_place_journal_note(snug_ctx* ctx, snug_place_scene* ps, uint32_t slot) {
    if (!ps->journaling) return SNUG_OK;
    size_t n = ps->journal_count;
    snug_status st = snug_buffer_reserve(ctx, &ps->journal, (n + 1) * sizeof(snug_place_record), n * sizeof(snug_place_record));
    if (st) return st;
    snug_place_record* r = (snug_place_record*)ps->journal.data + ps->journal_count++;
    memset(r, 0, sizeof *r); /* a slot beyond the records has none: an empty one (handle 0) */
    r->slot = slot;
    if (slot < ps->body_cap) r->body = ps->bodies[slot];
    return SNUG_OK;
}

void snug_place_rollback(snug_scene_data* s, snug_place_scene* ps) {
    const snug_place_record* r = (const snug_place_record*)ps->journal.data;
    for (uint32_t i = ps->journal_count; i-- > 0;)
        if (r[i].slot < ps->body_cap) ps->bodies[r[i].slot] = r[i].body;
    ps->journal_count = 0;
    snug_hierarchy_rollback(s);
}
