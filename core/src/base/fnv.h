/* FNV-1a 64 over bytes: the checksum of snapshots and scene files, which the checks of a restore or a load compare
 * (a documented hash, not a defence against tampering; what a load accepts is checked field by field). */
#ifndef SNUG_FNV_H
#define SNUG_FNV_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t snug_fnv1a64(const unsigned char* p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

#endif
