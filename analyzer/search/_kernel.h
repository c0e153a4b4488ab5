/* What a compiled kernel (``_core_kernel.c``, ...) takes from C: fixed-width ints, memcpy and its kin, and an
 * allocator. Native builds take them from the C library; a standalone WebAssembly build (``--target=wasm32
 * -nostdlib``, see setup.py) from ``_wasm_libc.c``, which has no C library behind it (memchr too, for the race solver). No kernel includes Python.h:
 * the CPython bindings (``_core.c``, ...) and the wasm bindings (``_core_wasm.c``, ...) are the only callers. */
#ifndef DOMINO_KERNEL_H
#define DOMINO_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __wasm__
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
void *malloc(size_t n);
void *calloc(size_t count, size_t size);
void free(void *p);
#else
#include <stdlib.h>
#include <string.h>
#endif

/* The kinds of error a kernel reports (its ``err_kind``, with ``err_text``); the bindings raise them. */
enum { K_OK, K_VALUE, K_TYPE, K_RUNTIME, K_MEMORY, K_OVERFLOW, K_CALLBACK };

/* The tile tables of a set to ``max_pip`` in ``Tile.index`` order (high * (high + 1) / 2 + low): each tile's two
 * numbers and its pips; ``match`` the tiles holding each number and ``dbl`` (NULL: not kept) each number's double, both
 * zeroed by the caller; ``*doubles`` every double. The search over arms and that of draw games build theirs so. */
static inline void kernel_tiles(int max_pip, uint8_t *tlow, uint8_t *thigh, int *tpips, uint64_t *match, uint64_t *dbl,
                                uint64_t *doubles) {
    int i = 0;
    *doubles = 0;
    for (int hi = 0; hi <= max_pip; hi++)
        for (int lo = 0; lo <= hi; lo++, i++) {
            tlow[i] = (uint8_t)lo;
            thigh[i] = (uint8_t)hi;
            tpips[i] = lo + hi;
            match[lo] |= 1ULL << i;
            match[hi] |= 1ULL << i;
            if (lo == hi) {
                if (dbl != NULL) dbl[lo] = 1ULL << i;
                *doubles |= 1ULL << i;
            }
        }
}

/* An error of a kernel's call on ``owner`` (a struct with ``err_kind`` and ``err_text``): -1. */
#define KERNEL_ERROR(owner, kind, text) ((owner)->err_kind = (kind), (owner)->err_text = (text), -1)

#endif
