/* The range tree's build as a kernel (``_ranges_kernel.c``): analyzer/hidden/ranges.py's ``build_ranges`` in plain C,
 * for the plain line game for two (two open ends, no exposed tiles, no hidden tiles, a double-9 set at most), a
 * finished hand valued by ``_leaf.h``'s ``leaf_score`` (``LeafScoring.ints()``: the rules compiled to ints as the
 * block search's kernel takes them). The moves mirror ``Position.legal_moves`` and ``push`` of that game (tests hold
 * the arrays equal to the Python build's, which asks the position). The same two bindings as the CFR+ kernel's call it:
 * ``_cfr.c`` (``build``) and ``_cfr_wasm.c`` (``rb_new``...). No Python here. */
#ifndef DOMINO_RANGES_KERNEL_H
#define DOMINO_RANGES_KERNEL_H

#include "../search/_kernel.h"
#include "../search/_leaf.h"
#include "_cfr_kernel.h"          /* (the tree it builds: ``CFR_HANDS``) */

/* The position the build starts from, as ints (``RB_STATE`` of them, in this order: ``ranges.py``'s
 * ``_compiled_state`` writes them): the set (``max_pip``), the maximiser's seat, the seat to move, the open ends
 * (-1 -1: nothing laid), the passes since the last tile, whether anything was played (``hist``), whether the last
 * move was a tile and by whom, the seat that laid the first tile (-1: none yet), the last tile laid (its index, -1:
 * none), the seat that laid it and the ends before it (-1 -1: it was the lead), the lead's allowed tiles (a mask in
 * two halves, low 32 bits first; 0: any tile), the maximiser's sign (1: his side is side 0, -1: side 1). */
enum {
    RB_MAX_PIP, RB_FIRST, RB_TURN, RB_END_A, RB_END_B, RB_PASSES, RB_HIST, RB_LAST_TILE, RB_LAST_SEAT, RB_LEADER,
    RB_LT, RB_LT_SEAT, RB_LT_A, RB_LT_B, RB_OPENING_LO, RB_OPENING_HI, RB_SIGN, RB_STATE
};

/* The arrays built, in this order (the bindings give them so): ``ranges.py``'s ``RangeTree``'s, but for the moves:
 * node ``n``'s moves ``move[move_at[n]:move_at[n + 1]]``, each ``tile * 16 + end`` (``end`` 15: the lead's, no end) or
 * -1 (a pass). ``RB_ITEMS``: each one's bytes an item (``RANGE_ITEMS``'s digits: the terminal hands 2, their classes
 * and ``legal`` 1, a byte of eight slots' bits: ``CFR_LEGAL``). */
enum {
    RB_PLAYER, RB_CHILD_AT, RB_CHILD, RB_MOVE_AT, RB_MOVE, RB_PLAYED0, RB_PLAYED1, RB_ALIVE_AT0, RB_ALIVE0,
    RB_ALIVE_AT1, RB_ALIVE1, RB_TERM_AT0, RB_TERM_HAND0, RB_TERM_CLASS0, RB_TERM_AT1, RB_TERM_HAND1, RB_TERM_CLASS1,
    RB_TABLE_AT, RB_WIDTH, RB_TABLE, RB_ISET_AT, RB_ISET_HAND, RB_SLOT, RB_LEGAL, RB_ARRAYS
};
#define RB_ITEMS "444444442424214214484241"
#define RB_PASS (-1)
#define RB_NO_END 15

/* A growing array of ``item``-byte items. */
typedef struct {
    void *v;
    int64_t n, cap;
    int item;
} RbVec;

typedef struct {
    /* the input (``rb_build``'s arguments, kept) */
    int32_t nh[2];
    const uint64_t *mask[2];      /* each player's hands (tile masks; player 0: the maximiser; the caller's) */
    int32_t state[RB_STATE];
    LeafScoring sc;
    double norm;                  /* 1 over the deals' weight: each table value is multiplied by it */
    int64_t max_nodes;            /* past this many nodes the build stops (``RB_TOO_LONG``; -1: no cap) */
    int64_t max_bytes;            /* past this many bytes (``rb_bytes``: its arrays as filled, and the least a run of
                                   * them will need, ``RB_RUN_BYTES`` a legal move) the build stops (``K_MEMORY``; 0
                                   * or less: no cap) */
    double budget;                /* past this many seconds of ``clock`` the same (``clock`` NULL: not checked) */
    double (*clock)(void);
    /* the output */
    RbVec out[RB_ARRAYS];
    int64_t size;                 /* the slots of the information sets' moves (``RangeTree.size``) */
    int64_t legal;                /* the legal moves among them (a run's slots) */
    int err_kind;
    const char *err_text;
    /* the build's own */
    uint8_t tlow[64], thigh[64];
    int tpips[64];
    uint64_t match[16], every, opening;
    int8_t place[64];             /* each tile's bit in the compressed numbering (-1: no hand holds it) */
    int32_t *hpips[2];            /* each hand's pips */
    int most;                     /* the most tiles a hand holds */
    int64_t ticks;
    double start;
    RbVec kids, kid_at;           /* each node's children (in the order the nodes finish) and where they start */
    RbVec keys;                   /* the keys of the tables made (ints), and the hash of them: */
    int64_t *slots, nslots, used; /* by hash: 1 + the key's start in ``keys`` (0: empty), its length, its table */
} RangeBuild;

/* The bytes a CFR+ run gives each legal move of an information set (``_cfr_kernel.c``'s ``legal_moves``: regrets and
 * averages, two doubles, and three indices: its slot, its hand's, its move's; analyzer/hidden/ranges.py's
 * ``RUN_BYTES``). */
#define RB_RUN_BYTES 23

/* The build stopped at ``max_nodes`` or ``budget`` (not an error kind of ``_kernel.h``: the bindings say it). */
#define RB_TOO_LONG 100
/* The text of a build stopped past ``max_bytes`` (kind ``K_MEMORY``; the Python side tells it from a failed
 * allocation by it). */
#define RB_TOO_LARGE "the public tree passes its memory cap"

/* Builds the tree of ``b`` (its inputs set: ``nh``, ``mask``, ``state``, ``sc``, ``norm``, ``max_nodes``,
 * ``max_bytes``, ``budget``, ``clock``; every other field zeroed): K_OK, or an error kind (``RB_TOO_LONG``,
 * ``K_VALUE``, ``K_MEMORY``: no memory, or past ``max_bytes``, ``RB_TOO_LARGE`` its text) with its text in
 * ``err_text``. ``rb_free`` after either. */
int rb_build(RangeBuild *b);
void rb_free(RangeBuild *b);
/* The build's own scratch freed (its arrays ``out`` kept): a binding calls it before it copies ``out`` away, so that
 * the scratch and the copies are never held at once. */
void rb_free_scratch(RangeBuild *b);

#endif
