/* Furniture for placement tests: closed box-part meshes (metres, y up, counter-clockwise outward faces) with their
 * authored offer and binding surfaces (IConS conventions, core/include/snug.h). */
#ifndef SNUG_TEST_FURNITURE_H
#define SNUG_TEST_FURNITURE_H

#include "test_meshes.h"

typedef enum test_item_kind {
    TEST_FLOOR,      /* 6 x 6 slab, top at y = 0; offers onFloor */
    TEST_WALL,       /* 4 wide, 2.5 high, 0.1 thick, centred on z = 0; front (+z) offers onWall, binds onFloor */
    TEST_TABLE,      /* 1.6 x 0.9, top at 0.78 offers onWorkspace; feet bind onFloor */
    TEST_DESK,       /* 1.4 x 0.7, top at 0.75 (front part) offers onWorkspace, a shelf at the back at 1.13 offers
                        onStore; feet bind onFloor */
    TEST_LAMP,       /* base 0.16 square binds onStore; pole and shade up to 0.5 */
    TEST_BOOK,       /* 0.15 x 0.03 x 0.22 lying flat; binds onStore */
    TEST_CHAIR,      /* seat at 0.47 offers onSeat; feet bind onFloor; a back at -z */
    TEST_PICTURE,    /* 0.6 x 0.4, back at z = 0 binds onWall; upright */
    TEST_BLOCK,      /* 0.4 cube on y = 0; top offers and bottom binds label `TEST_BLOCK_LABEL` */
    TEST_BOOKCASE,   /* 0.8 wide, 1.8 high, 0.28 deep, back panel at -z: five boards offer onStore (the top one too);
                        the back binds onWall (ending 1.8 cm above the floor, IConS §7.3), the bottom onFloor */
    TEST_HOLE_TABLE, /* 1.2 x 0.8 top at 0.76 around a 0.1 square hole: four rectangles around it offer onWorkspace */
    TEST_ROUND_TABLE,/* round top (radius 0.5, 48 sides) at 0.76 offers onWorkspace (a 24-gon), on a pedestal and a
                        cross base (0.6 arms) that binds onFloor with its hull */
    TEST_ITEM_KIND_COUNT
} test_item_kind;

#define TEST_BLOCK_LABEL SNUG_LABEL_ON_STORE

typedef struct test_item {
    test_mesh mesh;
    snug_surface surfaces[8];
    uint32_t surface_count;
} test_item;

void test_item_build(test_item_kind kind, test_item* out);
void test_item_free(test_item* item);
/* A snug mesh of the item with its surfaces set (CHECKs both calls). */
snug_mesh test_item_make(snug_ctx* ctx, test_item_kind kind);
/* A scene of every item kind's mesh and a static floor body: what the placement tests build their rooms on. */
typedef struct test_room {
    snug_ctx* ctx;
    snug_scene scene;
    snug_mesh mesh[TEST_ITEM_KIND_COUNT];
    snug_body floor;
} test_room;

void test_room_open(test_room* r);
void test_room_close(test_room* r);

/* The index of the item's first surface of that kind. */
uint32_t test_item_surface(test_item_kind kind, snug_surface_kind surface_kind, uint32_t nth);

#endif
