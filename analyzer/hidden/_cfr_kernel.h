/* The CFR iteration over a flattened public tree as a kernel (``_cfr_kernel.c``): analyzer/hidden/cfr.py's
 * ``_walk`` and analyzer/hidden/ranges.py's in plain C, with a flat interface (arrays and integers in, numbers out)
 * and no Python. Two bindings call it: the CPython extension ``analyzer.hidden._cfr`` (``_cfr.c``) and the standalone
 * WebAssembly module ``_cfr.wasm`` (``_cfr_wasm.c``). Two forms of the tree, one walk: over deals (``CfrTree``, cfr.py's
 * ``PublicTree``) and over each player's hands (``RangeTree``, ranges.py's ``RangeTree``; read their docstrings for
 * what each array holds). A run (``CfrRun``, ``RangeRun``) begins with the state both share (``CfrWalk``), and the
 * calls after its set-up (``cfr_iterate``, ``cfr_best``, ``cfr_hand_values``, ``cfr_free``) take that. A set-up that
 * fails returns an error kind (``K_VALUE``, ``K_MEMORY`` of ``_kernel.h``) with its text in ``*err``. */
#ifndef DOMINO_CFR_KERNEL_H
#define DOMINO_CFR_KERNEL_H

#include "../search/_kernel.h"

/* A hand's index, 16 bits: the tree's longest lists are of hands (those alive at each node, each information set's,
 * the terminal hands of the tree over hands), so a player has at most ``CFR_HANDS`` hands in either form (a tree over
 * hands at 4 tiles a hand of a double-six set: at most 7,315). */
typedef uint16_t CfrHand;
#define CFR_HANDS 65535
/* The most moves a node of either form has (a legal move's index among them is 8 bits in a run). */
#define CFR_WIDTH 255

/* What both forms of the tree hold alike: the nodes in preorder, each one's player (0, 1, or -1: nothing more to
 * play; in the tree over deals also 2 + q: player q draws a tile, its one child where each of his hands there has
 * become one per tile he may draw, ``CfrTree.parent``), its children, its information sets (the mover's hand, its slots, the legal moves by slot), and each player's
 * hands alive at it. */
typedef struct {
    int32_t nodes, nh[2], size;
    const int32_t *player, *child_at, *child, *iset_at, *slot, *alive_at[2];
    const CfrHand *iset_hand, *alive[2];
    const uint8_t *legal;         /* by slot a bit (``CFR_LEGAL``): 1 where the set's hand may make that move */
} CfrMoves;

/* Slot ``j``'s bit of ``legal`` (bit ``j & 7`` of byte ``j >> 3``): a bit, not a byte, a public move of a set's
 * node. */
#define CFR_LEGAL(legal, j) (((legal)[(j) >> 3] >> ((j) & 7)) & 1)

/* The tree over deals: by deal, each player's hand index; a node's deals ending there with their values; by hand
 * index, the hand it was drawn from (``parent[q][h]``: -1 for a hand at the root; NULL where no tile is drawn). A
 * hand is a player's private state, his hand at the root and the tiles he has drawn since, in their order: a draw
 * node's child holds the drawer's new hands alone, each made there from one of his hands at the draw node and one
 * tile, and the deals below it are new deals too, each weighing its parent deal's weight over the boneyard's size. */
typedef struct {
    CfrMoves m;
    int32_t deals;
    const int32_t *hand[2], *term_at, *term_deal, *parent[2];
    const double *term_value;
} CfrTree;

/* The tree over hands: each player's hands (``mask``: compressed tile masks, ``weight``: each hand's root weight);
 * a node's terminal hands of each player with their pip class and its value table; the value of a terminal hand
 * against the other's reach summed over the other's terminal hands disjoint from it by inclusion-exclusion over its
 * tiles. A terminal hand's class is 8 bits (a hand of 8 tiles at most of a double-nine set has at most 145 pip
 * totals). */
typedef struct {
    CfrMoves m;
    const int32_t *mask[2];
    const double *weight[2];
    const int32_t *played[2], *term_at[2], *table_at, *width;
    const CfrHand *term_hand[2];
    const uint8_t *term_class[2];
    const double *table;
    int64_t ntable;               /* the values in ``table`` */
    /* The draws (NULL where none is drawn): at a draw node ``n`` (``player`` 2 + q), each pair of a hand of q's at its
     * child and a hand of his at ``n`` it may have been drawn from, ``draw_child[k]`` and ``draw_parent[k]`` for ``k``
     * from ``draw_at[n]`` to ``draw_at[n + 1]`` (the tile's chance is in the tables below it). */
    const int32_t *draw_at;
    const CfrHand *draw_child, *draw_parent;
} RangeTree;

typedef struct CfrWalk CfrWalk;
/* A form's value of its terminals at a node and then its moves' (``cfr_walk_moves``): player ``p``'s counterfactual
 * value of each of his hands alive at node ``n`` into ``v`` (``own``: his reach, ``opp``: the other's, by hand). */
typedef void (*CfrNode)(CfrWalk *w, int32_t n, int p, const double *own, const double *opp, double *v, int mode,
                        int32_t level);

/* The state of a run both forms share (the first member of each run). */
struct CfrWalk {
    CfrMoves m;                   /* the run's tree's (copied) */
    const double *weight[2];      /* each player's hands' root reach (NULL: 1 each) */
    CfrNode node;                 /* the form's walk of a node */
    void (*release)(CfrWalk *w);  /* frees what the form holds beyond this (NULL: nothing) */
    int32_t nlegal;               /* the legal moves of every information set: the slots of the arrays below */
    /* Information set ``i``'s legal moves: slots ``lat[i]`` to ``lat[i + 1]``, each its move ``lmove[j]`` (an index
     * among its node's moves, fewer than ``CFR_WIDTH``). */
    int32_t *lat;
    uint8_t *lmove;
    int32_t *by_at, *by_slot;     /* the move to ``child[c]``: the slots ``by_slot`` of the information sets where it is
                                     legal, and their hands ``by_hand``, from ``by_at[c]`` to ``by_at[c + 1]`` */
    CfrHand *by_hand;
    double *regret, *avg;         /* by slot */
    double *buf;                  /* scratch: per depth, a value vector of each player and a reach vector of each; then
                                     per depth, a node's strategy and its children's values by its legal moves
                                     (``vat``) */
    int64_t *vat;                 /* by depth ``d``: where in ``buf`` a node's children's values (``vat[2 d]``) and its
                                     sets' strategies (``vat[2 d + 1]``) begin, by its legal moves (slot ``j`` of the
                                     node's first set ``i0`` at ``j - lat[i0]``); room for the most slots of a node at
                                     that depth, its sets times its moves (shared by the copies) */
    int64_t bufsize;              /* ``buf``'s doubles (a copy for a thread holds as many) */
    int64_t held;                 /* the bytes the run's set-up allocated and holds (``cfr_held``) */
    int32_t depth;                /* the tree's depth (nodes on the longest path) */
    int32_t forced_set, forced_move;   /* an information set held to one move (-1: none) */
    int8_t *folded;               /* by move (an index of ``child``): 1 where the form values the child at its parent
                                     (``fold``) instead of walking it (NULL: none) */
    /* The form's values of node ``n``'s folded children in ``p``'s walk (``opp``: the other's reach, by hand): added
     * to ``v`` where ``p`` is not the mover, else put in ``vals`` (the node's, by its legal moves: ``vat``) at the
     * moves to them; ``st``: the node's strategies, alike. */
    void (*fold)(CfrWalk *w, int32_t n, int p, const double *opp, double *v, double *vals, const double *st);
    double tie;                   /* ``CFR_TIE`` times the tree's largest terminal value (its size): a regret's change
                                     within this times the other's reach at its node counts as none (``walk_moves``) */
    int64_t it;                   /* iterations run */
    /* A walk over several threads (``cfr_threads``; the native build's, one thread in the WebAssembly module). It splits
     * at depth ``split`` into tasks, each a node of that depth with the reaches it is walked with and the values it
     * gives (``tasks``, ``ntasks``; their vectors in ``taskbuf``). The levels above are walked twice: once to find the
     * tasks (``phase`` FIND, changing nothing but scratch), once with the tasks' values (JOIN). Each task is walked
     * by one thread, on this run or on a copy of it with scratch of its own (``clones``, made by the form's ``clone``,
     * freed by ``unclone``). A task is walked as the one-thread walk walks it, so the values are the same bit for bit. */
    int32_t threads, split, phase, ntasks, task_cap, next_task;
    struct WalkTask *tasks;
    double *taskbuf;
    int64_t taskbuf_cap, taskbuf_used;
    CfrWalk **clones;
    int32_t nclones;
    CfrWalk *(*clone)(const CfrWalk *w, CfrWalk *old);   /* ``w`` copied, its scratch ``old``'s (NULL: new scratch) */
    void (*unclone)(CfrWalk *copy);
    int failed;                   /* a task's scratch could not be had: this walk in one thread */
    int32_t *split_node, *split_size, nsplit;   /* the nodes at depth ``split`` (ascending) and each one's subtree's
                                                 * nodes: the tasks are walked the largest first */
    int32_t *order;               /* the tasks by size, the largest first */
};

/* A regret's change no larger than this times the most a value at its node can be (the tree's largest terminal value
 * times the other's reach there, which bounds the sum of the values' terms) counts as none: a tie is then a tie
 * whatever the order the value's terms were summed in (the kernel's and the Python walk's orders differ, and a tie
 * broken by a last bit changes the next strategy outright). The rounding of those sums is some 1e-13 of that bound at
 * most; a change this small moves a regret bound by nothing a bracket could see. */
#define CFR_TIE 1e-10

typedef struct {
    CfrWalk w;
    CfrTree t;
} CfrRun;

/* The most tiles a hand of the range tree holds. */
#define RANGE_MOST 8

typedef struct {
    CfrWalk w;
    RangeTree t;
    int32_t bits, most, classes;  /* the compressed tiles, the most tiles a hand holds, the widest class count */
    int64_t subsets;              /* the subsets of at most ``most`` of ``bits`` tiles (the table's rows) */
    int64_t *choose;              /* choose[b * (most + 1) + k] = C(b, k) */
    double *acc;                  /* by subset and class: the other's reach of his terminal hands holding it */
    int32_t *stamp, gen;          /* the rows written in the current sum (``stamp[row] == gen``) */
    double *wsum;                 /* by subset and class of the hand: its row's value for such a hand (once a sum) */
    int32_t *wstamp;
    int32_t *srow_at[2], *srow[2];   /* each hand's subsets' rows: hand h's ``srow[q][srow_at[q][h] + s]``, ``s`` a bit
                                      * per tile of it (ascending: ``stile``), computed once */
    int8_t *stile[2];             /* each hand's tiles (compressed positions, ascending), ``RANGE_MOST`` a hand */
    /* The leaves where the mover goes out, valued at their parent (``range_fold``): node ``n``'s from ``fold_at[n]``
     * to ``fold_at[n + 1]``, each one's hand (the mover's one hand there), the slot of its move, the tile it plays
     * (compressed); by node, those tiles' mask and where its values of the other's hands alive there begin in
     * ``fval`` (a value for the maximiser a hand, the same at each such leaf where the hand is alive). */
    int32_t *fold_at, *fold_hand, *fold_slot, *fval_at;
    int8_t *fold_tile;
    uint32_t *fold_tiles;
    double *fval;
} RangeRun;

/* The arrays a binding is given for each form, in this order (the extension's arguments' order): ``CFR_ITEMS`` and
 * ``RANGE_ITEMS`` give each one's bytes an item (a digit each: ints of 4, doubles of 8, hands' indices of 2
 * (``CfrHand``) and bytes of 1). */
enum {
    CFR_HAND0, CFR_HAND1, CFR_PLAYER, CFR_CHILD_AT, CFR_CHILD, CFR_TERM_AT, CFR_TERM_DEAL, CFR_TERM_VALUE, CFR_ISET_AT,
    CFR_ISET_HAND, CFR_SLOT, CFR_LEGAL, CFR_ALIVE_AT0, CFR_ALIVE0, CFR_ALIVE_AT1, CFR_ALIVE1, CFR_PARENT0, CFR_PARENT1,
    CFR_ARRAYS
};
#define CFR_ITEMS "444444484241424244"
enum {
    RANGE_MASK0, RANGE_MASK1, RANGE_WEIGHT0, RANGE_WEIGHT1, RANGE_PLAYER, RANGE_CHILD_AT, RANGE_CHILD, RANGE_PLAYED0,
    RANGE_PLAYED1, RANGE_ALIVE_AT0, RANGE_ALIVE0, RANGE_ALIVE_AT1, RANGE_ALIVE1, RANGE_TERM_AT0, RANGE_TERM_HAND0,
    RANGE_TERM_CLASS0, RANGE_TERM_AT1, RANGE_TERM_HAND1, RANGE_TERM_CLASS1, RANGE_TABLE_AT, RANGE_WIDTH, RANGE_TABLE,
    RANGE_ISET_AT, RANGE_ISET_HAND, RANGE_SLOT, RANGE_LEGAL, RANGE_DRAW_AT, RANGE_DRAW_CHILD, RANGE_DRAW_PARENT,
    RANGE_ARRAYS
};
#define RANGE_ITEMS "44884444442424214214484241422"

/* The tree of each form made of its arrays (``p``, in the order above, ``n`` items each; ``nh0``, ``nh1``: each
 * player's hands, ``size``: the regret array's length), checked to fit together (each node's lists inside their
 * arrays); K_VALUE with its text where they do not. */
int cfr_tree(CfrTree *t, void *const *p, const int64_t *n, int32_t nh0, int32_t nh1, int32_t size, const char **err);
int range_tree(RangeTree *t, void *const *p, const int64_t *n, int32_t size, const char **err);

/* Checks the tree's indices and sets up ``run`` (its arrays allocated, zeroed), information set ``forced_set`` held
 * to its move ``forced_move`` (-1: none). After a failure nothing is left to free. */
int cfr_init(CfrRun *run, const CfrTree *t, int32_t forced_set, int32_t forced_move, const char **err);
int range_init(RangeRun *run, const RangeTree *t, int32_t forced_set, int32_t forced_move, const char **err);
/* Frees a run set up by either. */
void cfr_free(CfrWalk *w);
/* The run's information set ``forced_set`` held to ``forced_move`` from now on (-1: none), its regrets kept (a warm
 * start), its average strategy and iteration count begun again (``keep``: kept too, the run going on); K_VALUE where
 * the move is not legal there. */
int cfr_force(CfrWalk *w, int32_t forced_set, int32_t forced_move, int keep, const char **err);
/* ``count`` iterations of Discounted CFR (Brown and Sandholm 2019; alpha 1.5, beta 0, gamma 3): alternating updates,
 * each player's positive regrets discounted by t^1.5 / (t^1.5 + 1) after his walk of iteration t and his negative ones
 * halved, the average strategy weighted by t^3. Any regret minimiser serves: the brackets come from exact best
 * responses. */
void cfr_iterate(CfrWalk *w, int64_t count);
/* The threads a walk may take (at most ``CFR_THREADS``; 1: one, the default): the depth its walks split at (0: none,
 * one thread). A tree with a draw, or too few nodes for the threads to pay (``CFR_PARALLEL_NODES``), is walked in one
 * whatever this says; so is every tree in the WebAssembly module. The values are the same whatever the threads. */
#define CFR_THREADS 64
#define CFR_PARALLEL_NODES 20000
int32_t cfr_threads(CfrWalk *w, int32_t threads);
/* The value for the maximiser when player ``p`` answers best the other's average strategy. */
double cfr_best(CfrWalk *w, int p);
/* The average strategy's sums by the tree's slots (``slot[i] + move``, 0 for an illegal move) into ``out`` (``size``). */
void cfr_average(const CfrWalk *w, double *out);
/* Information set ``i``'s average strategy's sums by its node's moves (``width`` of them: ``out[a]`` for move ``a``, 0 for
 * an illegal one): a decision reads its mover's set alone, not the whole average (8 bytes a slot of the tree). K_VALUE
 * with its text where ``i`` is no set of the tree or a legal move's index is not below ``width``. */
int cfr_set_average(const CfrWalk *w, int32_t i, int32_t width, double *out, const char **err);
/* Each of the maximiser's hands' value (times its root weight) with both playing their averages, into ``out``
 * (``nh[0]``). */
void cfr_hand_values(CfrWalk *w, double *out);
/* The bytes the run's set-up allocated and holds beyond the tree's arrays (its regrets, averages, indices, one
 * thread's scratch, the form's tables): what analyzer/hidden/ranges.py's ``memory()`` counts for them, to check it. */
int64_t cfr_held(const CfrWalk *w);

#endif
