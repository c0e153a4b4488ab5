/* The search of draw games, All Fives and Hungarian's runs, as a kernel (``_draw_kernel.c``): ``_draw.c``'s
 * ``DrawSearch`` in plain C, with a flat interface (a struct the caller owns, arrays and integers in, values out) and
 * no Python. Two bindings call it: the CPython extension ``analyzer.search._draw`` (``_draw.c``) and the standalone
 * WebAssembly module ``_draw.wasm`` (``_draw_wasm.c``). Read ``_draw.c``'s top for what each call does; here only
 * how it is called.
 *
 * Errors: a call that fails returns -1 and leaves ``err_kind`` (``_kernel.h``) and ``err_text`` in the search;
 * ``K_CALLBACK``: the leaf callback failed (its caller knows why). */
#ifndef DOMINO_DRAW_KERNEL_H
#define DOMINO_DRAW_KERNEL_H

#include "_kernel.h"
#include "_leaf.h"
#include "_table.h"

#define DRAW_INF (1 << 30)
#define DRAW_SEATS 4
#define DRAW_TILES 55
#define DRAW_NUMBERS 10
#define DRAW_CHOICES 112
/* a line's steps: each tile laid and drawn, the passes between (at most a seat's each turn) */
#define DRAW_MAX_STEPS (DRAW_TILES * (DRAW_SEATS + 1) + 2 * DRAW_SEATS)

typedef struct { int seat, bit, before_left, before_right; } DrawLast;    /* the last tile laid */

typedef struct {
    uint64_t h[DRAW_SEATS];
    uint32_t meta;      /* left, right, shape, seat, draws, offer, last seat; EMPTY: a free slot */
    int16_t lo, hi;
    uint8_t code;       /* the best move */
    uint8_t held;       /* tiles still held: the work behind the entry */
} DrawSlot;

/* A move of a decision as ``worlds`` takes it (``DrawWorlds._roots``): the points it scores at once (side 0), the
 * tile laid (-1: the opener adds none), and the state it leaves. */
typedef struct {
    int gain, bit, left, right, shape, t, drawn, passes, offer;
    DrawLast last;
} DrawRoot;

/* The value of a finished hand asked of the caller (the Python ``_DrawDeal.leaf``): ``term`` 0 domino, 1 blocked;
 * 0 and ``*value``, or -1. */
typedef int (*DrawLeafFn)(void *ctx, const uint64_t *hands, int n, int term, int seat, uint64_t bit, int before_left,
                          int before_right, int *value);

typedef struct {
    DrawLeafFn leaf_fn;
    void *leaf_ctx;
    void *raw;
    DrawSlot *slots;
    uint64_t size, max_size, start_size, mask, used, replaced;
    int shift;
    int n, max_pip, limit, until, scores, norder, leader;
    int run;            /* a player plays on while he can; the hand goes on until nobody can play (Hungarian) */
    int maximiser[DRAW_SEATS];
    int python_leaves;  /* the caller's leaf values (``leaf_fn``), not ``sc`` */
    LeafScoring sc;     /* the scoring, evaluated by _leaf.h (unless python_leaves) */
    uint64_t match[DRAW_NUMBERS], order[DRAW_TILES];
    int tpips[DRAW_TILES];
    uint8_t tlow[DRAW_TILES], thigh[DRAW_TILES];
    uint64_t nodes, budget;
    int stopped, failed;
    int most, fixed;    /* the value bound (most < 0: none): most, plus unless fixed the pips still to be held */
    int rest[DRAW_TILES + 1];  /* the pips of the tiles still to be drawn once k are */
    uint64_t doubles;
    int err_kind;       /* the last error: K_VALUE, ... (``_kernel.h``) */
    const char *err_text;
    int err_count;      /* ``draw_ends``: the choices, where the values were not one a choice */
} DrawSearch;

/* A state of a call: the hands (one a seat) and the rest as ``DrawSearch.search`` takes it. */
typedef struct {
    const uint64_t *hands;
    int left, right, shape, seat, drawn, k, passes, offer;
    DrawLast last;
} DrawState;

/* A line's steps: ``(seat, tile, end, arm, points)`` each (``_draw.c``'s ``line``). */
typedef struct {
    int (*step)[5];     /* room for DRAW_MAX_STEPS steps; NULL: the steps are not kept */
    int count;
} DrawSteps;

/* Where a line ends (``DrawSearch.ends``): ``found`` 0 where it is None; each hand, the last tile laid (seat, tile,
 * the ends before it), what each seat scored along the line. */
typedef struct {
    int found;
    uint64_t h[DRAW_SEATS];
    int last[4];
    int points[DRAW_SEATS];
} DrawEnd;

/* ``DrawSearch(...)``: ``order`` the ``norder`` tiles of the boneyard; ``sc`` the described scoring, or NULL and
 * ``leaf`` the caller's; ``has_bound``: ``(fixed, most)``. 0, or -1. */
int draw_init(DrawSearch *d, int n, int max_pip, const uint64_t *order, int norder, int limit, int until, int scores,
              const int *maximiser, const LeafScoring *sc, DrawLeafFn leaf, void *ctx, uint64_t entries, int leader,
              int has_bound, int fixed, int most, int run);
void draw_free(DrawSearch *d);

/* ``DrawSearch.search``: 0 and ``*value``, 1 past ``budget`` positions, -1; ``*nodes`` the positions visited. */
int draw_search(DrawSearch *d, const DrawState *st, int alpha, int beta, int64_t budget, int *value, uint64_t *nodes);

/* ``DrawSearch.line``: the steps into ``out``; 0, 1 past the limit (no steps), -1; ``*nodes``, ``*probed``,
 * ``*after`` as ``_arms_kernel.h``'s ``arms_line``, ``ends``: the ends before the last tile laid. */
int draw_line(DrawSearch *d, const DrawState *st, int value, int64_t limit, int64_t spent, DrawSteps *out,
              uint64_t *nodes, int *probed, int *after, int *ends);

/* ``DrawSearch.ends``: ``nvalues`` < 0: the end of the state's line (in ``out[0]``); else one end for each of the
 * mover's choices (``nvalues`` of them, else -1 and ``err_count`` the choices) whose ``has[i]``. 0, or -1. */
int draw_ends(DrawSearch *d, const DrawState *st, int value, int nvalues, const uint8_t *has, const int *values,
              int64_t limit, DrawEnd *out);

/* ``DrawSearch.worlds``: whether the roots and the mover and draws may be asked (0, or -1). */
int draw_worlds_check(DrawSearch *d, int mover, int k, int nroots, const DrawRoot *roots);
/* One world (its hands and its boneyard ``order``, ``norder`` tiles): each root's value (its points and the state's,
 * ``row``) and the state's alone (``rest``); 0, 1 past ``limit`` positions, -1. */
int draw_world(DrawSearch *d, const uint64_t *hands, const uint64_t *order, int mover, int k, int nroots,
               const DrawRoot *roots, int64_t limit, int *row, int *rest);
/* The principal variation after ``root`` in the world ``draw_world`` has just valued (``rest``: its state's value):
 * its steps into ``out`` and the ends before its last tile; 0, 1 past ``limit`` positions at a choice, -1. */
int draw_root_line(DrawSearch *d, const uint64_t *hands, int mover, const DrawRoot *root, int k, int rest,
                   int64_t limit, DrawSteps *out, int *ends);

#endif
