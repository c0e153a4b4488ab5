/* The search over layouts with arms, as a kernel (``_arms_kernel.c``): ``_arms.c``'s ``ArmSearch`` in plain C, with a
 * flat interface (a struct the caller owns, arrays and integers in, values out) and no Python. Two bindings call it:
 * the CPython extension ``analyzer.search._arms`` (``_arms.c``) and the standalone WebAssembly module ``_arms.wasm``
 * (``_arms_wasm.c``). Read ``_arms.c``'s top for what each call does; here only how it is called.
 *
 * Errors: a call that fails returns -1 and leaves ``err_kind`` (``_kernel.h``) and ``err_text`` in the search;
 * ``K_CALLBACK``: the leaf callback failed (its caller knows why). */
#ifndef DOMINO_ARMS_KERNEL_H
#define DOMINO_ARMS_KERNEL_H

#include "_kernel.h"
#include "_leaf.h"
#include "_table.h"

#define ARMS_INF (1 << 30)
#define ARMS_MAXSEATS 4
#define ARMS_MAXTILES 55
#define ARMS_MAXNUM 10
#define ARMS_MAXARMS 64
#define ARMS_MAX_STEPS (ARMS_MAXTILES * ARMS_MAXSEATS)   /* a line's steps: each tile, and the passes before it */

/* ``scoring``: two sides (the standard scoring, ``param`` its ``cu``), one seat's bad points against the rest, the
 * caller's leaf value, a described scoring (``LeafScoring``). */
enum { ARMS_SCORE_SIDES = 0, ARMS_SCORE_BAD = 1, ARMS_SCORE_CALLER = 2, ARMS_SCORE_DESCRIBED = 3 };

typedef struct {
    uint64_t h[ARMS_MAXSEATS];
    uint64_t arms;
    int16_t lo, hi;
    uint8_t seat;       /* 255: an empty slot */
    uint8_t bit, code;  /* the best move (bit 255: none) */
    uint8_t held;       /* tiles still held: the work behind the entry */
} ArmsEntry;

/* The value of a finished hand asked of the caller (the Python ``_ArmDeal.leaf``): ``term`` 0 domino, 1 blocked;
 * 0 and ``*value``, or -1. */
typedef int (*ArmsLeafFn)(void *ctx, const uint64_t *hands, int n, int term, int seat, uint64_t bit, int *value);

typedef struct {
    TABLE_FIELDS(ArmsEntry)
    ArmsLeafFn leaf_fn;
    void *leaf_ctx;
    int n, max_pip, french, branch, scoring, param, leader;
    LeafScoring sc;     /* ARMS_SCORE_DESCRIBED: the scoring, evaluated by _leaf.h */
    int maximiser[ARMS_MAXSEATS], opponent[ARMS_MAXSEATS], side[ARMS_MAXSEATS];
    uint64_t match[ARMS_MAXNUM], dbl[ARMS_MAXNUM], doubles;
    uint8_t tlow[ARMS_MAXTILES], thigh[ARMS_MAXTILES];
    int tpips[ARMS_MAXTILES];
    uint64_t nodes, budget;
    int stopped, failed;
    int err_kind;       /* the last error: K_VALUE, ... (``_kernel.h``) */
    const char *err_text;
} ArmsSearch;

/* A principal line's steps: ``(seat, tile, number, arm)``, a play (``arm`` 1-based), or a pass (``tile`` -1). */
typedef struct {
    int (*step)[4];     /* room for ARMS_MAX_STEPS steps */
    int count;
} ArmsSteps;

/* ``ArmSearch(...)``: one value a seat in ``maximiser`` (0 or 1), ``opponent`` and ``sides``; ``leaf`` for
 * ARMS_SCORE_CALLER, ``sc`` for ARMS_SCORE_DESCRIBED; a table of at most ``entries`` slots. 0, or -1. */
int arms_init(ArmsSearch *d, int n, int max_pip, int french, int branch, const int *maximiser, const int *opponent,
              int scoring, int param, const int *sides, ArmsLeafFn leaf, void *ctx, uint64_t entries,
              const LeafScoring *sc, int leader);
void arms_free(ArmsSearch *d);

/* ``ArmSearch.search``: ``arms`` the ``narms`` sorted arm codes. 0 and ``*value``, 1 past ``budget`` positions, -1;
 * ``*nodes`` the positions visited. */
int arms_search(ArmsSearch *d, const uint64_t *hands, const int *arms, int narms, int s, int alpha, int beta,
                int64_t budget, int *value, uint64_t *nodes);

/* ``ArmSearch.line``: the steps into ``out``; 0, 1 past the limit (no steps), -1; ``*nodes`` the positions of the
 * last choice probed, ``*probed`` whether one was and ``*after`` the value its move left. */
int arms_line(ArmsSearch *d, const uint64_t *hands, const int *arms, int narms, int s, int value, int64_t limit,
              int64_t spent, ArmsSteps *out, uint64_t *nodes, int *probed, int *after);

#endif
