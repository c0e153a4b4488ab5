/* The C library a kernel needs, for its standalone WebAssembly build (no C library there: ``-nostdlib``):
 * memcpy, memmove, memset (the bulk-memory instructions), memcmp, memchr, and an allocator over the module's memory.
 *
 * The allocator: blocks of 16-byte units, each after a 16-byte header holding its size; free blocks on one list in
 * address order, merged with free neighbours; a request takes the first free block large enough (split when the
 * rest is worth keeping), else memory past the top, grown by ``memory.grow``. A block freed at the top lowers it. */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *dst, const void *src, size_t n) { __builtin_memcpy(dst, src, n); return dst; }
void *memmove(void *dst, const void *src, size_t n) { __builtin_memmove(dst, src, n); return dst; }
void *memset(void *dst, int c, size_t n) { __builtin_memset(dst, c, n); return dst; }

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

void *memchr(const void *s, int c, size_t n) {
    const unsigned char *x = s;
    for (size_t i = 0; i < n; i++)
        if (x[i] == (unsigned char)c) return (void *)(x + i);
    return NULL;
}

#define UNIT 16
#define PAGE 65536

typedef struct Block {
    size_t size;            /* the whole block's bytes, header included */
    struct Block *next;     /* (free blocks only) the next free block, in address order */
} Block;

extern unsigned char __heap_base;
static uintptr_t top;       /* the end of the blocks handed out or freed */
static Block *free_list;

static int room_to(uintptr_t end) {
    uintptr_t have = __builtin_wasm_memory_size(0) * PAGE;
    if (end <= have) return 1;
    return __builtin_wasm_memory_grow(0, (end - have + PAGE - 1) / PAGE) != (size_t)-1;
}

void *malloc(size_t n) {
    if (top == 0) top = ((uintptr_t)&__heap_base + UNIT - 1) & ~(uintptr_t)(UNIT - 1);
    if (n > SIZE_MAX / 2) return NULL;
    size_t need = (n + UNIT + UNIT - 1) & ~(size_t)(UNIT - 1);
    for (Block **p = &free_list; *p != NULL; p = &(*p)->next) {
        Block *b = *p;
        if (b->size < need) continue;
        if (b->size - need >= 4 * UNIT) {           /* split: the rest stays free, in the list's place */
            Block *rest = (Block *)((unsigned char *)b + need);
            rest->size = b->size - need;
            rest->next = b->next;
            *p = rest;
            b->size = need;
        } else {
            *p = b->next;
        }
        return (unsigned char *)b + UNIT;
    }
    if (!room_to(top + need)) return NULL;
    Block *b = (Block *)top;
    b->size = need;
    top += need;
    return (unsigned char *)b + UNIT;
}

void free(void *ptr) {
    if (ptr == NULL) return;
    Block *b = (Block *)((unsigned char *)ptr - UNIT), *prev = NULL, **p = &free_list;
    while (*p != NULL && *p < b) { prev = *p; p = &(*p)->next; }
    b->next = *p;
    *p = b;
    if (b->next != NULL && (unsigned char *)b + b->size == (unsigned char *)b->next) {    /* merge the next */
        b->size += b->next->size;
        b->next = b->next->next;
    }
    if (prev != NULL && (unsigned char *)prev + prev->size == (unsigned char *)b) {        /* merge into the last */
        prev->size += b->size;
        prev->next = b->next;
        b = prev;
    }
    if ((uintptr_t)b + b->size == top && b->next == NULL) {        /* the top block: back to the unused memory */
        top = (uintptr_t)b;
        if (prev == b) {
            Block **q = &free_list;
            while (*q != b) q = &(*q)->next;
            *q = NULL;
        } else {
            *p = NULL;
        }
    }
}

void *calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) return NULL;
    void *p = malloc(count * size);
    if (p != NULL) __builtin_memset(p, 0, count * size);
    return p;
}
