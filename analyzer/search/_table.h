/* The transposition tables of the compiled searches (_core.c, _arms.c, _draw.c): their memory, one
 * encoding of a value's bounds, popcount, and the bucketed table itself, with its entry and its state's key as parameters. Each core keeps its state, moves and search.
 *
 * The bucketed table (the block core and the search over arms; the draw core keeps its runs of open
 * addressing, with the memory, the bounds and the getters from here). A core declares its owner struct
 * with TABLE_FIELDS(entry type), then defines, and includes this header again:
 *
 *   TABLE_ENTRY         the entry type
 *   TABLE_OWNER         the struct holding TABLE_FIELDS (the table, or the search that owns one)
 *   TABLE_PROBE         the buckets an entry may lie in: its home bucket and the next TABLE_PROBE - 1
 *   TABLE_KEY_PARAMS    the parameters that name a state (``uint64_t key, uint32_t deal``)
 *   TABLE_KEY_ARGS      the same as arguments (``key, deal``)
 *   TABLE_HOME(t)       the home bucket's index of the state named by the key parameters
 *   TABLE_SAME(t, e)    whether entry ``e`` holds that state
 *   TABLE_EMPTY(e)      whether ``e`` is a free slot (every byte TABLE_FILL, or as the owner ``t`` says)
 *   TABLE_FILL          the byte a free slot is filled with
 *   TABLE_WORK(e)       the work behind ``e``: at its bound the table replaces the entry of least work
 *   TABLE_AGAIN(t, e)   ``table_slot(t, <the key of entry e>, 1)``: where ``e`` goes when the table grows
 *
 * An entry lies in its home bucket or, when that was full, in one of the next TABLE_PROBE - 1 buckets
 * (the first with room): the table loses no entry before it is full. Entries are never removed one by
 * one (only replaced, at the table's bound, or all cleared), so a bucket with an empty slot ends a probe.
 * Below its bound the table grows rather than replace (so, like the pure-Python dict, it loses nothing,
 * and both cores search the same states); at its bound a new entry replaces, in its home bucket, the
 * one with the least work behind it. */
#ifndef DOMINO_TABLE_H
#define DOMINO_TABLE_H

#include "_kernel.h"

#define WAYS 4          /* slots a bucket: one cache line of 16-byte entries */
#define LO_INF (-32768) /* a bound stored as int16: these two stand for -INF and INF */
#define HI_INF 32767
#define MAX_VALUE 30000 /* the values a table can hold */
#define TABLE_INF (1 << 30)

/* Bits set (SWAR: no call into libgcc without -mpopcnt). */
static inline int popcount(uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* A bound of a value, stored in 16 bits (the infinite bounds as LO_INF and HI_INF). */
static inline int16_t bound_pack(int x) { return (int16_t)(x <= -TABLE_INF ? LO_INF : (x >= TABLE_INF ? HI_INF : x)); }
static inline int bound_unpack(int16_t x) { return x == LO_INF ? -TABLE_INF : (x == HI_INF ? TABLE_INF : x); }

/* ``count`` slots of ``size`` bytes on a 64-byte boundary (a cache line), every byte ``fill`` (0: from
 * calloc, whose untouched pages cost nothing yet); ``*raw`` is the block to free. NULL: no
 * memory. */
static inline void *slots_alloc(uint64_t count, size_t size, int fill, void **raw) {
    size_t bytes = (size_t)count * size;
    void *block = fill == 0 ? calloc(bytes + 64, 1) : malloc(bytes + 64);
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

/* The homes (buckets of ``ways`` slots) a table of at most ``entries`` slots may grow to, and those it
 * starts with (at most ``start``: a small search touches little memory); powers of two. */
static inline void table_sizes(uint64_t entries, uint64_t ways, uint64_t start, uint64_t *max_homes,
                               uint64_t *homes) {
    uint64_t most = 1, now = 1;
    while (2 * most * ways <= entries && most < (1ULL << 40)) most *= 2;
    while (now < most && now < start) now *= 2;
    *max_homes = most;
    *homes = now;
}

/* The fields of a bucketed table of ``Entry``, in its owner's struct (define the owner, then include
 * this header again with TABLE_ENTRY and the other parameters defined). */
#define TABLE_FIELDS(Entry) \
    void *raw;          /* the allocation; ``slots`` is it aligned to a cache line */ \
    Entry *slots; \
    uint64_t buckets;   /* a power of two */ \
    uint64_t max_buckets; \
    uint64_t used;      /* slots holding an entry */ \
    uint64_t stores, replaced; \
    int shift;          /* 64 - log2(buckets) */

#endif  /* DOMINO_TABLE_H */

#ifdef TABLE_ENTRY
/* -- the bucketed table, for TABLE_ENTRY ------------------------------------------------------------ */

/* The entry of a state, or NULL. */
static inline TABLE_ENTRY *table_probe(TABLE_OWNER *t, TABLE_KEY_PARAMS) {
    uint64_t i = TABLE_HOME(t), mask = t->buckets - 1;
    for (int j = 0; j < TABLE_PROBE; j++) {
        TABLE_ENTRY *b = t->slots + WAYS * ((i + j) & mask);
        int room = 0;
        for (int w = 0; w < WAYS; w++) {
            if (TABLE_EMPTY(b + w)) room = 1;
            else if (TABLE_SAME(t, b + w)) return b + w;
        }
        if (room) return NULL;
    }
    return NULL;
}

/* The entry of a state whose home bucket is ``i`` (TABLE_HOME), or NULL; then ``*room`` is the slot its entry would take (the first free one on
 * its probe; NULL: none). Entries are never removed one by one, so the slot stays the one
 * :c:func:`table_slot` would give as long as it is free and the table has not grown: a search may store
 * there after its children without probing again (:c:func:`table_room`). */
static inline TABLE_ENTRY *table_find(TABLE_OWNER *t, uint64_t i, TABLE_KEY_PARAMS, TABLE_ENTRY **room) {
    uint64_t mask = t->buckets - 1;
    for (int j = 0; j < TABLE_PROBE; j++) {
        TABLE_ENTRY *b = t->slots + WAYS * ((i + j) & mask);
        for (int w = 0; w < WAYS; w++) {
            if (TABLE_EMPTY(b + w)) { *room = b + w; return NULL; }    /* a bucket fills from its first slot */
            if (TABLE_SAME(t, b + w)) { *room = b + w; return b + w; }
        }
    }
    *room = NULL;
    return NULL;
}

/* Where an entry for a state goes: its own slot, else the first empty one on its probe, else (a full
 * probe: only at the table's bound) the slot of its home bucket with the least work behind it,
 * replaced. ``replace`` 0 asks only whether the entry fits without a replacement (then the slot, or
 * NULL; the caller counts a slot it fills). */
static inline TABLE_ENTRY *table_slot(TABLE_OWNER *t, TABLE_KEY_PARAMS, int replace) {
    uint64_t i = TABLE_HOME(t), mask = t->buckets - 1;
    for (int j = 0; j < TABLE_PROBE; j++) {
        TABLE_ENTRY *b = t->slots + WAYS * ((i + j) & mask);
        TABLE_ENTRY *empty = NULL;
        for (int w = 0; w < WAYS; w++) {
            if (TABLE_EMPTY(b + w)) { if (empty == NULL) empty = b + w; }
            else if (TABLE_SAME(t, b + w)) return b + w;
        }
        if (empty != NULL) {
            if (replace) t->used++;
            return empty;
        }
    }
    if (!replace) return NULL;
    TABLE_ENTRY *b = t->slots + WAYS * (i & mask), *victim = b;
    for (int w = 1; w < WAYS; w++)
        if (TABLE_WORK(b + w) < TABLE_WORK(victim)) victim = b + w;
    t->replaced++;
    return victim;
}

static inline int table_alloc(TABLE_OWNER *t, uint64_t buckets) {
    void *raw;
    TABLE_ENTRY *slots = slots_alloc(WAYS * buckets, sizeof(TABLE_ENTRY), TABLE_FILL, &raw);
    if (slots == NULL) return -1;
    t->raw = raw;
    t->slots = slots;
    t->buckets = buckets;
    t->shift = slots_shift(buckets);
    return 0;
}

static inline void table_grow(TABLE_OWNER *t) {
    void *old_raw = t->raw;
    TABLE_ENTRY *old = t->slots;
    uint64_t count = WAYS * t->buckets;
    if (table_alloc(t, 2 * t->buckets) < 0) {   /* no memory to grow: stay at this size */
        t->raw = old_raw;
        t->slots = old;
        t->max_buckets = t->buckets;
        return;
    }
    t->used = 0;
    for (uint64_t i = 0; i < count; i++)
        if (!TABLE_EMPTY(old + i)) *TABLE_AGAIN(t, old + i) = old[i];
    free(old_raw);
}

/* The slot to write a state's entry to (then :c:func:`table_stored`): below the table's bound it grows
 * rather than replace; at its bound an entry may replace another (``table_slot``). */
static inline TABLE_ENTRY *table_place(TABLE_OWNER *t, TABLE_KEY_PARAMS) {
    TABLE_ENTRY *x = table_slot(t, TABLE_KEY_ARGS, 0);
    while (x == NULL && t->buckets < t->max_buckets) {
        table_grow(t);
        x = table_slot(t, TABLE_KEY_ARGS, 0);
    }
    if (x == NULL) x = table_slot(t, TABLE_KEY_ARGS, 1);
    else if (TABLE_EMPTY(x)) t->used++;
    return x;
}

/* The slot to write a state's entry to, given ``room`` from :c:func:`table_find` when the table had
 * ``buckets`` buckets: that slot while it is the state's or still free in a table of the same size, else
 * :c:func:`table_place`'s (then :c:func:`table_stored`). */
static inline TABLE_ENTRY *table_room(TABLE_OWNER *t, TABLE_KEY_PARAMS, TABLE_ENTRY *room, uint64_t buckets) {
    if (room != NULL && buckets == t->buckets) {
        if (TABLE_SAME(t, room)) return room;
        if (TABLE_EMPTY(room)) {
            t->used++;
            return room;
        }
    }
    return table_place(t, TABLE_KEY_ARGS);
}

/* An entry was written: counted, and the table grows once three quarters of its slots are taken. */
static inline void table_stored(TABLE_OWNER *t) {
    t->stores++;
    if (t->buckets < t->max_buckets && 4 * t->used > 3 * WAYS * t->buckets) table_grow(t);
}

/* Every slot free again. */
static inline void table_empty(TABLE_OWNER *t) {
    memset(t->slots, TABLE_FILL, (size_t)(WAYS * t->buckets) * sizeof(TABLE_ENTRY));
    t->stores = t->replaced = t->used = 0;
}
#endif  /* TABLE_ENTRY */
