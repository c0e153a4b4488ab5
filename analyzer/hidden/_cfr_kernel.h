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

#endif
