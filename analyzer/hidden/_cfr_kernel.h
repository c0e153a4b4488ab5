/* The CFR+ iteration over a flattened public tree as a kernel (``_cfr_kernel.c``): analyzer/hidden/cfr.py's
 * ``_walk`` in plain C, with a flat interface (arrays and integers in, numbers out) and no Python. The CPython
 * extension ``analyzer.hidden._cfr`` (``_cfr.c``) calls it. The arrays are those of cfr.py's ``PublicTree`` (read its
 * docstring for what each holds); ``regret``, ``avg`` and the scratch arrays are the run's own. A call that fails
 * returns an error kind (``K_VALUE``, ``K_MEMORY`` of ``_kernel.h``) with its text in ``*err``. */
#ifndef DOMINO_CFR_KERNEL_H
#define DOMINO_CFR_KERNEL_H

#include "../search/_kernel.h"

typedef struct {
    int32_t nodes, deals, nh[2], size;
    const int32_t *hand[2];                       /* by deal: each player's hand index */
    const int32_t *player, *child_at, *child, *term_at, *term_deal, *iset_at, *iset_hand, *slot;
    const int32_t *alive_at[2], *alive[2];
    const double *term_value;
    const int8_t *legal;
} CfrTree;

typedef struct {
    CfrTree t;
    double *regret, *avg;         /* ``size`` each */
    double *strat, *vals;         /* scratch: a strategy and the children's values by slot */
    double *buf;                  /* scratch: per depth, a value vector of each player and a reach vector of each */
    int32_t depth;                /* the tree's depth (nodes on the longest path) */
    int32_t forced_set, forced_move;   /* an information set held to one move (-1: none) */
    int64_t it;                   /* iterations run */
} CfrRun;

/* Checks the tree's indices and sets up ``run`` (its arrays allocated, zeroed). */
int cfr_init(CfrRun *run, const CfrTree *t, int32_t forced_set, int32_t forced_move, const char **err);
void cfr_free(CfrRun *run);
/* ``count`` CFR+ iterations (alternating updates, the average weighted by iteration). */
void cfr_iterate(CfrRun *run, int64_t count);
/* The value for the maximiser when player ``p`` answers best the other's average strategy. */
double cfr_best(CfrRun *run, int p);
/* Each of the maximiser's hands' value (weighted) with both playing their averages, into ``out`` (``nh[0]``). */
void cfr_hand_values(CfrRun *run, double *out);

/* The range form (analyzer/hidden/ranges.py's ``RangeTree``: read its docstring): no deals, each player's hands
 * (``mask``: compressed tile masks, ``weight``: each hand's root weight); a node's terminal hands of each player with
 * their pip class and its value table; the value of a terminal hand against the other's reach summed over the other's
 * terminal hands disjoint from it by inclusion-exclusion over its tiles. */
typedef struct {
    int32_t nodes, nh[2], size;
    const int32_t *mask[2];
    const double *weight[2];
    const int32_t *player, *child_at, *child, *played[2], *alive_at[2], *alive[2];
    const int32_t *term_at[2], *term_hand[2], *term_class[2], *table_at, *width, *iset_at, *iset_hand, *slot;
    const double *table;
    const int8_t *legal;
} RangeTree;

typedef struct {
    RangeTree t;
    double *regret, *avg, *strat, *vals, *buf;
    int32_t depth, forced_set, forced_move;
    int64_t it;
    int32_t bits, most, classes;  /* the compressed tiles, the most tiles a hand holds, the widest class count */
    int64_t subsets;              /* the subsets of at most ``most`` of ``bits`` tiles (the table's rows) */
    int64_t *choose;              /* choose[b * (most + 1) + k] = C(b, k) */
    double *acc;                  /* by subset and class: the other's reach of his terminal hands holding it */
    int32_t *stamp, gen;          /* the rows written in the current sum (``stamp[row] == gen``) */
    double *wsum;                 /* by subset and class of the hand: its row's value for such a hand (once a sum) */
    int32_t *wstamp;
} RangeRun;

int range_init(RangeRun *run, const RangeTree *t, int32_t forced_set, int32_t forced_move, const char **err);
void range_free(RangeRun *run);
void range_iterate(RangeRun *run, int64_t count);
double range_best(RangeRun *run, int p);
void range_hand_values(RangeRun *run, double *out);

#endif
