/* The block search's kernel (``_core_kernel.c``): the two-ended block search of ``_core.c``'s ``BlockDeal`` in plain
 * C, with a flat interface (structs the caller owns, arrays and integers in, values out) and no Python. Two bindings
 * call it: the CPython extension ``analyzer.search._core`` (``_core.c``: argument parsing and results only) and the
 * standalone WebAssembly module ``_core.wasm`` (``_core_wasm.c``). Read ``_core.c``'s top for what each call does;
 * here only how it is called.
 *
 * Errors: a call that fails returns -1 and leaves ``err_kind`` (``K_VALUE``, ... of ``_kernel.h``) and ``err_text``
 * in the deal; ``K_CALLBACK``: the leaf callback failed (its caller knows why). */
#ifndef DOMINO_CORE_KERNEL_H
#define DOMINO_CORE_KERNEL_H

#include "_kernel.h"
#include "_leaf.h"
#include "_table.h"

#define CORE_INF (1 << 30)
#define CORE_MAXSEATS 4
#define CORE_MAXTILES 55
#define CORE_MAXMOVES 64
#define CORE_MAX_STEPS (CORE_MAXTILES * CORE_MAXSEATS)   /* the steps of a line: each tile and the passes after it */

typedef struct {
    uint64_t key;       /* the packed state: played tiles, ends code, seat */
    int16_t lo, hi;     /* bounds for the side to move */
    uint16_t deal;      /* the deal's id; 0: an empty slot */
    uint8_t bit, e2;    /* the best move: tile index, ends code after it (255: none) */
} CoreEntry;

typedef struct {
    TABLE_FIELDS(CoreEntry)
    uint32_t next_deal;
    uint64_t epoch;     /* bumped when the deal ids run out and the table is emptied */
    uint16_t only;      /* the worlds (``core_world``): the one deal whose entries count, the others' slots
                           free (a new world empties the table without touching it); 0: every deal's count */
} CoreTable;

/* The value of a finished hand asked of the caller (the Python ``IntDeal.leaf_value``): 0 and ``*value``, or -1. */
typedef int (*CoreLeafFn)(void *ctx, int term, int seat, uint64_t played, int bit, int ends, int *value);

typedef struct {
    CoreTable *table;
    CoreLeafFn leaf_fn;         /* the caller's leaf value, or NULL for a scoring computed here */
    void *leaf_ctx;
    LeafScoring sc;             /* the described scoring (``scored``), evaluated by _leaf.h */
    int scored, leader;
    uint64_t dealt[CORE_MAXSEATS];
    uint32_t id;                /* the deal's id in its table's epoch */
    uint64_t epoch;
    int n, w, eb, sb, ntiles;
    int xb, xok;                /* the exposed tiles' shift in a key; whether the key has room for them */
    int fast, cu, bound, most;
    int pb, pbmax;              /* pass bonuses paid (``bonus``); the most a play earns */
    int bonus[CORE_MAXSEATS][CORE_MAXSEATS][2], blocking[CORE_MAXSEATS];
    uint64_t flag;              /* the played mask's bit: a pass bonus was paid */
    uint64_t all;
    uint64_t fit[100];          /* the tiles that fit an ends code */
    uint8_t ea[100], eb2[100];  /* the two open numbers of an ends code */
    uint8_t on_a[100][CORE_MAXTILES], on_b[100][CORE_MAXTILES];  /* the ends code after a tile played on the first
                                   (the lower) open number of an ends code, or on the second; 255: it does not fit */
    uint8_t tlow[CORE_MAXTILES], thigh[CORE_MAXTILES];
    int16_t tpips[CORE_MAXTILES];
    int side[CORE_MAXSEATS], sign[CORE_MAXSEATS], opp1[CORE_MAXSEATS], opp2[CORE_MAXSEATS];
    int next[CORE_MAXSEATS][CORE_MAXSEATS];
    uint64_t H[CORE_MAXSEATS + 1];  /* the hands, and an always-empty slot */
    int P[2];                   /* pips left per side */
    uint64_t nodes;             /* states searched since the deal was made */
    int64_t budget;             /* states this call may still search (the node limit) */
    int failed;                 /* unwind: 1 the leaf callback failed, 2 the budget ran out */
    int err_kind;               /* the last error: K_VALUE, ... (``_kernel.h``) */
    const char *err_text;
    int err_count;              /* ``core_ends``: the moves, where the values were not one a move */
} CoreDeal;

/* A principal line's steps: ``(seat, tile index, the open number it goes on)``, a pass ``(seat, -1, -1)``. */
typedef struct {
    int (*step)[3];             /* room for CORE_MAX_STEPS steps; NULL: the steps are not kept */
    int count;
} CoreSteps;

/* The table: ``entries`` slots at most (0, or -1 without memory: the table as it was); freed; emptied. */
int core_table_init(CoreTable *t, uint64_t entries);
void core_table_free(CoreTable *t);
void core_table_clear(CoreTable *t);

/* One deal (``BlockDeal(...)``): ``sides`` and ``dealt`` one a seat; ``leaf`` NULL and ``sc`` NULL: the scoring
 * written inline (``cu``); ``sc``: a described scoring; ``leaf``: the caller's; ``bonus``: NULL, or ``nbonus``
 * pass bonuses (2 n n + n). 0, or -1. */
int core_deal_init(CoreDeal *d, CoreTable *t, int n, int max_pip, const int *sides, const uint64_t *dealt, int cu,
                   CoreLeafFn leaf, void *ctx, const LeafScoring *sc, int leader, int bound, int most,
                   const int *bonus, int nbonus);

/* ``BlockDeal.mtdf``: 0 and ``*value``, 1 past ``budget`` states, -1. ``hands``: one mask a seat; ``pips``: two. */
int core_mtdf(CoreDeal *d, const uint64_t *hands, const int *pips, uint64_t K, int e, int s, int alpha, int beta,
              int guess, int64_t budget, int *value);

/* ``BlockDeal.plays``: the ``nm`` moves (``moves``: tile index, ends code after it, a pair each); for each done,
 * ``ended[i]`` (the move ends the hand) or ``values[i]``. Returns the moves done (fewer than ``nm``: ``*over``,
 * past ``budget``), ``*states``; -1. */
int core_plays(CoreDeal *d, const uint64_t *hands, const int *pips, uint64_t K, int e, int s, int nm,
               const int (*moves)[2], int64_t budget, int *values, uint8_t *ended, int *over, uint64_t *states);

/* ``BlockDeal.line``: the steps into ``out``, ``*states``, ``*over``, the ends before the last tile. ``has_value``
 * 0: the value searched first (MTD(f) from ``guess``). 0, or -1. */
int core_line(CoreDeal *d, const uint64_t *hands, const int *pips, uint64_t K, int a, int b, int s, int first,
              int has_value, int value, int64_t budget, int guess, CoreSteps *out, uint64_t *states, int *over,
              int *pa, int *pb);

/* ``BlockDeal.ends``: for each of the mover's ``nvalues`` moves (in the order of ``Position.legal_moves``; another
 * count: -1, ``err_count`` the moves) whose ``has[i]``, where its line ends: ``found[i]``, then the hands at the
 * end (``n`` a move in ``hands_out``), the seat and tile laid last, the ends before it. 0, or -1. */
int core_ends(CoreDeal *d, const uint64_t *hands, const int *pips, uint64_t K, int a, int b, int s, int first,
              int nvalues, const uint8_t *has, const int *values, int64_t budget, uint8_t *found, uint64_t *hands_out,
              int *seat_out, int *tile_out, int *a_out, int *b_out);

/* ``BlockDeal.worlds``: whether the call may be made (moves and, with ``as`` not NULL, the ends after each); 0, -1. */
int core_worlds_check(CoreDeal *d, uint64_t K, int e, int s, int nm, const uint8_t *bits, const uint8_t *e2s,
                      const int *as, const int *bs);
/* One world: the side-0 value of each root move in ``values``; 0, 1 a move ends the hand, 2 past ``budget``, -1. */
int core_world(CoreDeal *d, const uint64_t *dealt, uint64_t K, int e, int s, int nm, const uint8_t *bits,
               const uint8_t *e2s, int64_t budget, int *values);
/* The principal line after one root move of the world ``core_world`` has just solved (its side-0 ``value``):
 * its steps into ``out`` and the ends before its last tile; 0, 1 past ``budget`` at a choice, -1. */
int core_world_line(CoreDeal *d, uint64_t K, int s, int bit, int e2, int a, int b, int first, int value,
                    int64_t budget, CoreSteps *out, int *pa, int *pb);

#endif
