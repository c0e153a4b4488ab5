/* The memory of the compiled searches' transposition tables (_core.c, _arms.c, _draw.c): each table
 * keeps its own entry layout and placement, and takes its slots from here. */
#ifndef DOMINO_SLOTS_H
#define DOMINO_SLOTS_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ``count`` slots of ``size`` bytes on a 64-byte boundary (a cache line), every byte ``fill`` (0: from
 * PyMem_Calloc, whose untouched pages cost nothing yet); ``*raw`` is the block to PyMem_Free. NULL: no
 * memory. */
static void *slots_alloc(uint64_t count, size_t size, int fill, void **raw) {
    size_t bytes = (size_t)count * size;
    void *block = fill == 0 ? PyMem_Calloc(bytes + 64, 1) : PyMem_Malloc(bytes + 64);
    if (block == NULL) return NULL;
    void *slots = (void *)(((uintptr_t)block + 63) & ~(uintptr_t)63);
    if (fill != 0) memset(slots, fill, bytes);
    *raw = block;
    return slots;
}

/* The shift that maps a 64-bit hash onto ``count`` homes (a power of two): ``(hash * odd) >> shift``. */
static inline int slots_shift(uint64_t count) {
    int bits = 0;
    while ((1ULL << bits) < count) bits++;
    return 64 - bits;
}

#endif
