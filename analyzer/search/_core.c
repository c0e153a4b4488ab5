/* The compiled search core: the int search of analyzer/search/blockdeal.py written in C.
 *
 * Same state, same moves, same order, same leaf values and pip bounds, same MTD(f) driver as the
 * pure-Python ``IntDeal`` search (read its docstring first); one call of ``BlockDeal.mtdf`` returns
 * one value, fail-soft in its window; ``BlockDeal.plays`` values every move of a decision in one call
 * (``Solver.values``), ``BlockDeal.worlds`` every move in each of many deals (the fair analysis), and
 * ``BlockDeal.line`` plays out the principal variation from a state (``Solver.best_line``: at each choice the
 * first move in the order of the legal moves that reaches the state's value, by null-window probes);
 * ``BlockDeal.ends`` finds where it ends after each move of a state, without its steps. Two types:
 *
 * ``Table(entries)``: a bounded transposition table of at most ``entries`` slots of 16 bytes, in
 *   buckets of four (one cache line); an entry whose bucket is full goes to one of the next seven.
 *   It starts small and doubles when it is three quarters full or an entry finds no room, up to
 *   its bound (a small search touches little memory, and loses no entry); at its bound an entry
 *   replaces the one with the most tiles played in its home bucket: it never grows past it.
 *   Several deals share one table: every entry carries the id of the deal it belongs to.
 * ``BlockDeal(table, n, max_pip, sides, dealt, cu, leaf, scoring=None, leader=0, bound=-1, most=0)``: one deal
 *   compiled to ints. With ``leaf`` and ``scoring`` None the scoring is written inline here: ``cu`` 0 the
 *   losers' pips, 1 every pip left, -1 bad points (the other side's pips minus one's own).
 *   ``scoring`` (``LeafScoring.ints()`` of analyzer/search/scoring.py): any other scoring it describes,
 *   computed here by ``_leaf.h`` for each finished hand (``leader`` led the hand), as the Python
 *   search computes it. ``bound``: the pip bound the search prunes with (``LeafScoring.bound``: 0 none,
 *   1 a side loses at most the pips it holds, 2 at most every pip held, 3 none of them; and ``most``
 *   points more; -1: that of the inline scoring, 2 for ``cu`` 1, else 1; none for the other scorings). Any other scoring passes ``leaf(term, seat, played, bit, ends)``
 *   (the Python ``IntDeal.leaf_value``), which gives the value of each finished hand exactly as the
 *   Python search asks it. ``hand_value(...)`` evaluates a description on one finished hand (tests).
 *   ``bonus``: None, or the pass bonuses (the Python ``IntDeal``'s ``bonus`` table, flattened: for each
 *   seat, for each number of passes that follow its play, the bonus when one was paid before and when
 *   none was; then ``blocking``, one a seat), paid by the search as each play makes them, with the
 *   played mask's bit ``ntiles`` saying that one was paid (the key then needs ntiles + 1 bits).
 *
 * Masks are 64-bit: sets of at most 55 tiles (double-nine), and a packed state (played tiles, ends
 * code, seat) of at most 64 bits.
 *
 * Exposed tiles (Domino Whist §8, ``Position.due``): the played mask ``mtdf`` takes may carry the live
 * exposed tiles above bit ``ntiles`` (the Python ``IntDeal``'s ``xshift``). A mover holding one that fits
 * plays only such tiles; after his move none of his that fitted is live (``Position._expose_after``).
 * The key of a state with live exposed tiles carries them above its other bits (``xb``), so a set whose
 * states leave ``ntiles`` bits free (double-six with four players and no pass bonuses, and smaller) takes
 * them; a larger one refuses them (ValueError), and the Python side searches those states itself. A
 * state without them keeps its key: the search of a deal with no exposed tile is unchanged.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_leaf.h"
#include "_table.h"

#define INF (1 << 30)
#define MAXSEATS 4
#define MAXTILES 55
#define MAXMOVES 64

/* -- the table ------------------------------------------------------------------------------ */

#define MAX_DEALS 65535 /* deal ids of one table epoch (16 bits); then the table starts again */

typedef struct {
    uint64_t key;       /* the packed state: played tiles, ends code, seat */
    int16_t lo, hi;     /* bounds for the side to move */
    uint16_t deal;      /* the deal's id; 0: an empty slot */
    uint8_t bit, e2;    /* the best move: tile index, ends code after it (255: none) */
} Entry;

/* The home bucket of a state: its key mixed with the deal's id, multiplied by 2^64 / phi (the top
 * bits pick the bucket). */
static inline uint64_t home_of(int shift, uint64_t key, uint32_t deal) {
    uint64_t h = (key ^ ((uint64_t)deal * 0xD6E8FEB86659FD93ULL)) * 0x9E3779B97F4A7C15ULL;
    return h >> shift;
}

static inline Entry *bucket_of(Entry *slots, int shift, uint64_t key, uint32_t deal) {
    return slots + WAYS * home_of(shift, key, deal);
}

typedef struct {
    PyObject_HEAD
    TABLE_FIELDS(Entry)
    uint32_t next_deal;
    uint64_t epoch;     /* bumped when the deal ids run out and the table is emptied */
    uint16_t only;      /* the worlds (``Deal_worlds``): the one deal whose entries count, the others' slots
                           free (a new world empties the table without touching it); 0: every deal's count */
} Table;

#define TABLE_ENTRY Entry
#define TABLE_OWNER Table
#define TABLE_PROBE 8
#define TABLE_KEY_PARAMS uint64_t key, uint32_t deal
#define TABLE_KEY_ARGS key, deal
#define TABLE_HOME(t) home_of((t)->shift, key, deal)
#define TABLE_SAME(t, e) ((e)->key == key && (e)->deal == deal)
#define TABLE_EMPTY(e) ((e)->deal == 0 || ((e)->deal != t->only && t->only))    /* (``t``: the table) */
#define TABLE_FILL 0
#define TABLE_WORK(e) (-popcount((e)->key))          /* the most tiles played: the least work behind it */
#define TABLE_AGAIN(t, e) table_slot((t), (e)->key, (e)->deal, 1)

#include "_table.h"

/* Store an entry (see _table.h: below its bound the table grows rather than replace). */
static inline void table_store(Table *t, uint64_t key, uint32_t deal, int lo, int hi, int bit, int e2, Entry *room,
                               uint64_t buckets) {
    Entry *x = table_room(t, key, deal, room, buckets);
    x->key = key;
    x->deal = (uint16_t)deal;
    x->lo = bound_pack(lo);
    x->hi = bound_pack(hi);
    x->bit = (uint8_t)bit;
    x->e2 = (uint8_t)e2;
    table_stored(t);
}

static int Table_init(Table *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"entries", NULL};
    unsigned long long entries;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "K", kwlist, &entries)) return -1;
    uint64_t max_buckets, buckets;
    table_sizes(entries, WAYS, 1 << 12, &max_buckets, &buckets);    /* 256 KB to start */
    void *old = self->raw;
    if (table_alloc(self, buckets) < 0) { PyErr_NoMemory(); return -1; }
    PyMem_Free(old);
    self->max_buckets = max_buckets;
    self->used = 0;
    self->next_deal = 1;
    self->stores = self->replaced = 0;
    return 0;
}

static void Table_dealloc(Table *self) {
    PyMem_Free(self->raw);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Table_clear(Table *self, PyObject *Py_UNUSED(ignored)) {
    if (self->slots) table_empty(self);
    Py_RETURN_NONE;
}

TABLE_GETTER(Table, entries, WAYS * self->buckets)
TABLE_GETTER(Table, max_entries, WAYS * self->max_buckets)
TABLE_GETTER(Table, used, self->used)
TABLE_GETTER(Table, nbytes, WAYS * self->buckets * sizeof(Entry))
TABLE_GETTER(Table, stores, self->stores)
TABLE_GETTER(Table, replaced, self->replaced)

static PyMethodDef Table_methods[] = {
    {"clear", (PyCFunction)Table_clear, METH_NOARGS, "Empty every slot."},
    {NULL}
};

static PyGetSetDef Table_getset[] = {
    TABLE_GETSET(Table, entries, "The slots of the table now (a power of two)."),
    TABLE_GETSET(Table, max_entries, "The slots the table may grow to (a power of two)."),
    TABLE_GETSET(Table, used, "The slots holding an entry."),
    TABLE_GETSET(Table, nbytes, "The memory of the slots now, in bytes."),
    TABLE_GETSET(Table, stores, "Entries written since the table was made or cleared."),
    TABLE_GETSET(Table, replaced, "Entries that pushed out an entry of another state."),
    {NULL}
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "analyzer.search._core.Table",
    .tp_doc = PyDoc_STR("Table(entries): a bounded transposition table shared by the deals of one solver."),
    .tp_basicsize = sizeof(Table),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Table_init,
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
};

/* -- one deal ------------------------------------------------------------------------------- */

typedef struct {
    uint8_t bit, e2;
    int16_t pips;
    int score;
} Move;

typedef struct {
    PyObject_HEAD
    Table *table;
    PyObject *leaf;             /* the Python leaf value, or NULL for a scoring computed here */
    LeafScoring sc;             /* the described scoring (``scored``), evaluated by _leaf.h */
    int scored, leader;
    uint64_t dealt[MAXSEATS];
    uint32_t id;                /* the deal's id in its table's epoch */
    uint64_t epoch;
    int n, w, eb, sb, ntiles;
    int xb, xok;                /* the exposed tiles' shift in a key; whether the key has room for them */
    int fast, cu, bound, most;
    int pb, pbmax;              /* pass bonuses paid (``bonus``); the most a play earns */
    int bonus[MAXSEATS][MAXSEATS][2], blocking[MAXSEATS];
    uint64_t flag;              /* the played mask's bit: a pass bonus was paid */
    uint64_t all;
    uint64_t fit[100];          /* the tiles that fit an ends code */
    uint8_t ea[100], eb2[100];  /* the two open numbers of an ends code */
    uint8_t on_a[100][MAXTILES], on_b[100][MAXTILES];  /* the ends code after a tile played on the first
                                   (the lower) open number of an ends code, or on the second; 255: it does not fit */
    uint8_t tlow[MAXTILES], thigh[MAXTILES];
    int16_t tpips[MAXTILES];
    int side[MAXSEATS], sign[MAXSEATS], opp1[MAXSEATS], opp2[MAXSEATS];
    int next[MAXSEATS][MAXSEATS];
    uint64_t H[MAXSEATS + 1];   /* the hands, and an always-empty slot */
    int P[2];                   /* pips left per side */
    uint64_t nodes;             /* states searched since the deal was made */
    int64_t budget;             /* states this call may still search (the node limit) */
    int failed;                 /* unwind: 1 the leaf callback raised, 2 the budget ran out */
} Deal;

/* A fresh deal id; when they run out, the table is emptied and a new epoch starts (every deal
 * then takes a new id before it searches again). */
static uint32_t new_deal_id(Table *t) {
    if (t->next_deal > MAX_DEALS) {
        table_empty(t);
        t->epoch++;
        t->next_deal = 1;
    }
    return t->next_deal++;
}

/* The table shared by the deals of a solver again after the worlds (``only``): emptied, every deal to
 * take a new id. */
static void table_shared(Table *t) {
    if (t->only) {
        table_empty(t);
        t->only = 0;
        t->epoch++;
        t->next_deal = 1;
    }
}

static inline int ends_code(int w, int a, int b) {
    return a <= b ? a * w + b : b * w + a;
}

/* The moves of the tiles ``p`` on ends ``e``, heaviest first (stable: ascending tile, then the
 * lower end first), as the Python ``gen_moves``. */
static int gen_moves(Deal *d, uint64_t p, int e, Move *out) {
    const uint8_t *on_a = d->on_a[e], *on_b = d->on_b[e];
    int n = 0;
    while (p) {
        int i = __builtin_ctzll(p);
        p &= p - 1;
        if (on_a[i] != 255) {
            out[n].bit = (uint8_t)i;
            out[n].e2 = on_a[i];
            out[n].pips = d->tpips[i];
            n++;
        }
        if (on_b[i] != 255) {
            out[n].bit = (uint8_t)i;
            out[n].e2 = on_b[i];
            out[n].pips = d->tpips[i];
            n++;
        }
    }
    for (int i = 1; i < n; i++) {       /* insertion sort: stable, by pips descending */
        Move m = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].pips < m.pips) { out[j + 1] = out[j]; j--; }
        out[j + 1] = m;
    }
    return n;
}

/* The value of a finished hand for the side of ``s``: ``term`` 0 domino, 1 blocked. */
static int leaf(Deal *d, int term, int s, uint64_t K2, int bit, int e, int pv) {
    int sd = d->side[s];
    if (d->fast) {
        int ps = d->P[sd] - pv, po = d->P[1 - sd];
        if (term == 0) return po + d->cu * ps;
        return ps < po ? po + d->cu * ps : (ps > po ? -ps - d->cu * po : 0);
    }
    if (d->scored) {
        uint64_t hands[MAXSEATS];
        for (int t = 0; t < d->n; t++) hands[t] = d->dealt[t] & ~K2;
        int v = leaf_score(&d->sc, d->tlow, d->thigh, term, s, d->leader, hands, bit, d->ea[e], d->eb2[e]);
        return d->sign[s] * v;
    }
    PyObject *kp = PyLong_FromUnsignedLongLong(K2);
    PyObject *bp = PyLong_FromUnsignedLongLong(1ULL << bit);
    PyObject *r = NULL;
    if (kp && bp) r = PyObject_CallFunction(d->leaf, "iiOOi", term, s, kp, bp, e);
    Py_XDECREF(kp);
    Py_XDECREF(bp);
    if (r == NULL) { d->failed = 1; return 0; }
    long v = PyLong_AsLong(r);
    Py_DECREF(r);
    if (v == -1 && PyErr_Occurred()) { d->failed = 1; return 0; }
    if (v > MAX_VALUE || v < -MAX_VALUE) {
        PyErr_SetString(PyExc_OverflowError, "a hand's value is out of the compiled search's range");
        d->failed = 1;
        return 0;
    }
    return d->sign[s] * (int)v;
}

/* The value of the state for the side of ``s`` (who holds a playable tile), fail-soft in
 * (alpha, beta): the Python ``search`` of ``IntDeal._build_search``, step by step. */
static inline uint64_t state_key(Deal *d, uint64_t K, int e, int s, uint64_t X) {
    uint64_t key = (((K << d->eb) | (uint64_t)e) << d->sb) | (uint64_t)s;
    return X ? key | (X << d->xb) : key;
}

/* The search is compiled twice where GCC makes clones for Linux on x86-64: with the popcnt instruction
 * (the move order counts the opponents' tiles that fit) and without, the loader choosing by the CPU. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define SEARCH_CLONES __attribute__((target_clones("popcnt", "default")))
#define tiles_in(x) __builtin_popcountll(x)
#else
#define SEARCH_CLONES
#define tiles_in(x) popcount(x)
#endif

SEARCH_CLONES
static int search(Deal *d, uint64_t K, int e, int s, uint64_t X, int alpha, int beta);

/* The value for the side of the mover ``s`` of his move of tile ``bit`` to ends ``e2`` from the loaded state
 * (played ``K``, ends ``e``; ``X2``: the live exposed tiles after his move), fail-soft in (alpha, beta): the
 * step of ``search``'s loop over the moves (a finished hand's leaf, or the forced passes skipped and the
 * pass bonus paid, then the search of the state after it). */
static inline int move_value(Deal *d, uint64_t K, int e, int s, uint64_t X2, int bit, int e2, int alpha, int beta) {
    uint64_t *H = d->H, h = H[s], h2 = h & ~(1ULL << bit), K2 = K | (1ULL << bit), f = d->fit[e2];
    int sd = d->side[s], pv = d->tpips[bit], x;
    if (!h2) return leaf(d, 0, s, K2, bit, e, pv);                      /* domino */
    if (!((d->all ^ K2) & f)) {                                         /* blocked */
        x = leaf(d, 1, s, K2, bit, e, pv);
        return d->pb ? x + d->blocking[s] : x;
    }
    H[s] = h2;
    d->P[sd] -= pv;
    int t = s, k;
    for (k = 0; k < d->n; k++) {                                        /* skip the forced passes */
        t = d->next[s][k];
        if (H[t] & f) break;
    }
    int b = d->pb ? d->bonus[s][k][!(K & d->flag)] : 0;
    if (b) K2 |= d->flag;
    if (d->side[t] == sd) x = b + search(d, K2, e2, t, X2, alpha - b, beta - b);
    else x = b - search(d, K2, e2, t, X2, b - beta, b - alpha);
    H[s] = h;
    d->P[sd] += pv;
    return x;
}

static int search(Deal *d, uint64_t K, int e, int s, uint64_t X, int alpha, int beta) {
    uint64_t *H = d->H;
    int *P = d->P;
    int neg = 1, saved = 0, v = 0, acc = 0;     /* acc: the forced moves' pass bonuses, for the side to move */
    uint64_t sH[MAXSEATS + 1];
    int sP[2] = {0, 0};
    Move mv[MAXMOVES];
    d->nodes++;
    if (--d->budget < 0) { d->failed = 2; return 0; }     /* past the node limit: unwind */
    for (;;) {
        int sd = d->side[s];
        uint64_t h = H[s];
        uint64_t key = state_key(d, K, e, s, X);
        uint64_t home = home_of(d->table->shift, key, d->id);
        __builtin_prefetch(d->table->slots + WAYS * home);      /* the table's line, while the moves are made */
        uint64_t p = h & d->fit[e], X2 = X;     /* X2: the live exposed tiles after his move */
        if (X) {                                /* §8: his exposed tiles that fit, if any, are his moves */
            X2 = X & ~p;
            if (X & p) p &= X;
        }
        int nm = gen_moves(d, p, e, mv);
        if (d->bound) {
            v = -d->most;
            if (d->bound < 3) {
                v += mv[0].pips - P[sd];
                if (d->bound > 1) v -= P[1 - sd];
            }
            if (d->pb) v -= d->pbmax * tiles_in(H[d->opp1[s]] | H[d->opp2[s]]);
            if (v >= beta) break;
        }
        if (nm == 1) {                          /* a forced move: played here, no table entry */
            int bit = mv[0].bit, e2 = mv[0].e2, pv = mv[0].pips;
            uint64_t h2 = h & ~(1ULL << bit), K2 = K | (1ULL << bit);
            if (!h2) { v = leaf(d, 0, s, K2, bit, e, pv); break; }
            uint64_t f = d->fit[e2];
            if (!((d->all ^ K2) & f)) {
                v = leaf(d, 1, s, K2, bit, e, pv);
                if (d->pb) v += d->blocking[s];
                break;
            }
            if (!saved) {
                memcpy(sH, H, sizeof(sH));
                sP[0] = P[0];
                sP[1] = P[1];
                saved = 1;
            }
            H[s] = h2;
            P[sd] -= pv;
            int t = s, k;
            for (k = 0; k < d->n; k++) {
                t = d->next[s][k];
                if (H[t] & f) break;
            }
            K = K2;
            e = e2;
            X = X2;
            if (d->pb) {
                int b = d->bonus[s][k][!(K & d->flag)];
                if (b) {
                    K |= d->flag;
                    acc += b;
                    alpha -= b;
                    beta -= b;
                }
            }
            if (d->side[t] != sd) {
                int x = alpha;
                alpha = -beta;
                beta = -x;
                neg = -neg;
                acc = -acc;
            }
            s = t;
            continue;
        }

        /* a choice: the table first */
        Entry *room, *en = table_find(d->table, home, key, d->id, &room);
        uint64_t buckets = d->table->buckets;
        int lo = -INF, hi = INF, bbit = 255, be2 = 255;
        if (en != NULL) {
            lo = bound_unpack(en->lo);
            hi = bound_unpack(en->hi);
            bbit = en->bit;
            be2 = en->e2;
            if (lo >= beta) { v = lo; break; }
            if (hi <= alpha) { v = hi; break; }
            if (lo == hi) { v = lo; break; }
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
        }
        if (bbit == 255 || nm > 2) {
            /* order: starve the next opponent, then the other one; heavy tiles first */
            uint64_t o1 = H[d->opp1[s]], o3 = H[d->opp2[s]];
            for (int i = 0; i < nm; i++) {
                uint64_t f = d->fit[mv[i].e2];
                mv[i].score = mv[i].pips - 20 * tiles_in(o1 & f) - 5 * tiles_in(o3 & f);
            }
            if (nm == 2) {
                if (mv[1].score > mv[0].score) { Move m = mv[0]; mv[0] = mv[1]; mv[1] = m; }
            } else {
                /* descending (score, tile, ends after), as Python's sort of (score, move) tuples */
                for (int i = 1; i < nm; i++) {
                    Move m = mv[i];
                    int j = i - 1;
                    while (j >= 0 && (mv[j].score < m.score || (mv[j].score == m.score
                           && (mv[j].bit < m.bit || (mv[j].bit == m.bit && mv[j].e2 < m.e2))))) {
                        mv[j + 1] = mv[j];
                        j--;
                    }
                    mv[j + 1] = m;
                }
            }
        }
        if (bbit != 255 && !(mv[0].bit == bbit && mv[0].e2 == be2)) {
            for (int i = 1; i < nm; i++) {
                if (mv[i].bit == bbit && mv[i].e2 == be2) {
                    Move m = mv[i];
                    memmove(mv + 1, mv, (size_t)i * sizeof(Move));
                    mv[0] = m;
                    break;
                }
            }
        }

        int a0 = alpha, x;
        v = -INF;
        int bm = -1;
        for (int i = 0; i < nm; i++) {
            x = move_value(d, K, e, s, X2, mv[i].bit, mv[i].e2, alpha, beta);
            if (d->failed) break;
            if (x > v) {
                v = x;
                bm = i;
                if (x > alpha) {
                    alpha = x;
                    if (x >= beta) break;
                }
            }
        }
        if (d->failed) break;
        if (v <= a0) hi = v;
        else if (v >= beta) lo = v;
        else lo = hi = v;
        table_store(d->table, key, d->id, lo, hi, mv[bm].bit, mv[bm].e2, room, buckets);
        break;
    }
    if (saved) {
        memcpy(H, sH, sizeof(sH));
        P[0] = sP[0];
        P[1] = sP[1];
    }
    v += acc;
    return neg > 0 ? v : -v;
}

/* MTD(f): a value fail-soft in (alpha, beta) from null-window searches, as ``alphabeta.mtdf``. */
static int mtd(Deal *d, uint64_t K, int e, int s, uint64_t X, int alpha, int beta, int guess) {
    if ((int64_t)beta - alpha <= 1) return search(d, K, e, s, X, alpha, beta);   /* (the open window, 2 INF, overflows an int) */
    int g;
    if (beta < INF) g = beta;
    else if (alpha > -INF) g = alpha + 1;
    else g = guess;
    int lo = -INF, hi = INF;
    while (lo < hi) {
        int b = g == lo ? g + 1 : g;
        g = search(d, K, e, s, X, b - 1, b);
        if (d->failed) return 0;
        if (g < b) {
            hi = g;
            if (hi <= alpha) break;
        } else {
            lo = g;
            if (lo >= beta) break;
        }
    }
    return g;
}

static int Deal_init(Deal *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"table", "n", "max_pip", "sides", "dealt", "cu", "leaf", "scoring", "leader", "bound",
                             "most", "bonus", NULL};
    PyObject *table, *sides, *dealt, *leaf_fn, *scoring = Py_None, *bonus = Py_None;
    int n, max_pip, cu, leader = 0, bound = -1, most = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!iiOOiO|OiiiO", kwlist, &TableType, &table, &n, &max_pip, &sides,
                                     &dealt, &cu, &leaf_fn, &scoring, &leader, &bound, &most, &bonus))
        return -1;
    if (n < 2 || n > MAXSEATS) {
        PyErr_SetString(PyExc_ValueError, "the compiled search seats two to four players");
        return -1;
    }
    int w = max_pip + 1, ntiles = w * (w + 1) / 2;
    if (max_pip < 0 || ntiles > MAXTILES) {
        PyErr_SetString(PyExc_ValueError, "the compiled search plays sets up to double-nine");
        return -1;
    }
    if ((leaf_fn != Py_None && !PyCallable_Check(leaf_fn)) || cu < -1 || cu > 1
        || (leaf_fn != Py_None && scoring != Py_None)) {
        PyErr_SetString(PyExc_TypeError, "leaf: None (cu: 0, 1 or -1 for the scoring written here, or a scoring "
                        "description) or a callable");
        return -1;
    }
    if (leader < 0 || leader >= n || bound < -1 || bound > 3 || most < 0 || most > MAX_VALUE) {
        PyErr_SetString(PyExc_ValueError, "leader: a seat; bound: -1 to 3; most: the points of a hand");
        return -1;
    }
    LeafScoring sc;
    memset(&sc, 0, sizeof(sc));
    if (scoring != Py_None) {
        if (leaf_parse(scoring, &sc) < 0) return -1;
        if (sc.n != n) {
            PyErr_SetString(PyExc_ValueError, "scoring: the description seats another number of players");
            return -1;
        }
    }
    PyObject *sseq = PySequence_Fast(sides, "sides must be a sequence");
    if (sseq == NULL) return -1;
    PyObject *dseq = PySequence_Fast(dealt, "dealt must be a sequence");
    if (dseq == NULL) { Py_DECREF(sseq); return -1; }
    int bad = PySequence_Fast_GET_SIZE(sseq) != n || PySequence_Fast_GET_SIZE(dseq) != n;
    uint64_t all = 0;
    for (int s = 0; s < n && !bad; s++) {
        long sd = PyLong_AsLong(PySequence_Fast_GET_ITEM(sseq, s));
        uint64_t h = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(dseq, s));
        if (PyErr_Occurred() || sd < 0 || sd > 1) { bad = 1; break; }
        self->side[s] = (int)sd;
        self->sign[s] = sd == 0 ? 1 : -1;
        self->dealt[s] = h;
        all |= h;
    }
    Py_DECREF(sseq);
    Py_DECREF(dseq);
    if (bad) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "sides (0 or 1) and dealt hands, one per seat");
        return -1;
    }
    Py_INCREF(table);
    Py_XSETREF(self->table, (Table *)table);
    Py_XDECREF(self->leaf);
    self->leaf = NULL;
    if (leaf_fn != Py_None) { Py_INCREF(leaf_fn); self->leaf = leaf_fn; }
    self->epoch = self->table->epoch;
    self->id = new_deal_id(self->table);
    self->n = n;
    self->w = w;
    self->ntiles = ntiles;
    self->flag = 1ULL << ntiles;
    self->eb = 1;
    while ((1 << self->eb) < w * w) self->eb++;     /* bit_length(w * w - 1) */
    self->sb = 1;
    while ((1 << self->sb) < n) self->sb++;         /* max(1, bit_length(n - 1)) */
    self->pb = bonus != Py_None;
    self->xb = ntiles + self->pb + self->eb + self->sb;
    self->xok = self->xb + ntiles <= 64;
    self->pbmax = 0;
    if (self->pb) {
        PyObject *bseq = PySequence_Fast(bonus, "bonus must be a sequence");
        if (bseq == NULL) return -1;
        int ok = PySequence_Fast_GET_SIZE(bseq) == 2 * n * n + n && ntiles + 1 + self->eb + self->sb <= 64;
        for (int i = 0; i < 2 * n * n + n && ok; i++) {
            long b = PyLong_AsLong(PySequence_Fast_GET_ITEM(bseq, i));
            if (PyErr_Occurred() || b < 0 || b > MAX_VALUE) { ok = 0; break; }
            if (i < 2 * n * n) self->bonus[i / (2 * n)][i / 2 % n][i % 2] = (int)b;
            else self->blocking[i - 2 * n * n] = (int)b;
            if (b > self->pbmax) self->pbmax = (int)b;
        }
        Py_DECREF(bseq);
        if (!ok) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "bonus: 2 n n + n points (and a set whose states leave a bit free)");
            return -1;
        }
    }
    self->fast = leaf_fn == Py_None && scoring == Py_None;
    self->bound = bound >= 0 ? bound : (self->fast ? (cu > 0 ? 2 : 1) : 0);
    self->most = most;
    self->scored = scoring != Py_None;
    self->sc = sc;
    self->leader = leader;
    self->cu = cu;
    self->all = all;
    uint64_t match[16] = {0};
    int i = 0;
    for (int hi = 0; hi < w; hi++)                  /* Tile.index: high * (high + 1) / 2 + low */
        for (int lo = 0; lo <= hi; lo++, i++) {
            self->tlow[i] = (uint8_t)lo;
            self->thigh[i] = (uint8_t)hi;
            self->tpips[i] = (int16_t)(lo + hi);
            match[lo] |= 1ULL << i;
            match[hi] |= 1ULL << i;
        }
    for (int e = 0; e < w * w; e++) {
        int a = e / w, b = e % w;
        self->fit[e] = match[a] | match[b];
        self->ea[e] = (uint8_t)a;
        self->eb2[e] = (uint8_t)b;
        for (int t = 0; t < ntiles; t++) {
            int lo = self->tlow[t], hi = self->thigh[t];
            self->on_a[e][t] = lo == a || hi == a ? (uint8_t)ends_code(w, lo == a ? hi : lo, b) : 255;
            self->on_b[e][t] = b != a && (lo == b || hi == b) ? (uint8_t)ends_code(w, a, lo == b ? hi : lo) : 255;
        }
    }
    for (int s = 0; s < n; s++) {
        for (int k = 0; k < n; k++) self->next[s][k] = (s + k + 1) % n;
        self->opp1[s] = self->opp2[s] = n;
        for (int k = 0; k < n; k++) {
            int t = self->next[s][k];
            if (self->side[t] == self->side[s]) continue;
            if (self->opp1[s] == n) self->opp1[s] = t;
            else if (self->opp2[s] == n) self->opp2[s] = t;
        }
    }
    memset(self->H, 0, sizeof(self->H));
    self->nodes = 0;
    return 0;
}

/* A deal holds its Python leaf value, a bound method of the Python deal that holds it: a cycle,
 * so the type takes part in the cyclic garbage collector. */
static int Deal_traverse(Deal *self, visitproc visit, void *arg) {
    Py_VISIT(self->table);
    Py_VISIT(self->leaf);
    return 0;
}

static int Deal_clear(Deal *self) {
    Py_CLEAR(self->table);
    Py_CLEAR(self->leaf);
    return 0;
}

static void Deal_dealloc(Deal *self) {
    PyObject_GC_UnTrack(self);
    Deal_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The hands (one mask a seat) and pips (a count a side) of a state into the deal; -1 on an error. */
static int load_state(Deal *self, PyObject *hands, PyObject *pips) {
    for (int t = 0; t < self->n; t++) {
        PyObject *item = PySequence_GetItem(hands, t);
        if (item == NULL) return -1;
        self->H[t] = PyLong_AsUnsignedLongLong(item);
        Py_DECREF(item);
        if (PyErr_Occurred()) return -1;
    }
    self->H[self->n] = 0;
    for (int sd = 0; sd < 2; sd++) {
        PyObject *item = PySequence_GetItem(pips, sd);
        if (item == NULL) return -1;
        self->P[sd] = (int)PyLong_AsLong(item);
        Py_DECREF(item);
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

/* The deal ready to search a state whose packed played mask is ``*K``: the table shared again (after the
 * worlds), the deal's id of the table's epoch, and the live exposed tiles split off ``*K`` into ``*X``
 * (§8: see the top). -1 (an error set) where the key has no room for them or they are not the deal's. */
static int deal_ready(Deal *self, unsigned long long *K, uint64_t *X) {
    table_shared(self->table);
    if (self->epoch != self->table->epoch) {
        self->epoch = self->table->epoch;
        self->id = new_deal_id(self->table);
    }
    *X = self->ntiles + 1 < 64 ? (uint64_t)*K >> (self->ntiles + 1) : 0;
    *K &= (self->ntiles + 1 < 64 ? (1ULL << (self->ntiles + 1)) : 0) - 1;
    if (*X && (!self->xok || (*X & ~self->all) || (*X & *K))) {
        PyErr_SetString(PyExc_ValueError, self->xok ? "exposed tiles must be tiles of the deal not yet played"
                        : "no room for exposed tiles in the compiled search's key for a set this large");
        return -1;
    }
    return 0;
}

/* mtdf(hands, pips, played, ends, seat, alpha, beta, guess=None, budget=None): the value for the side
 * of ``seat``; None when the search needs more than ``budget`` states (each call of ``search`` is one). */
static PyObject *Deal_mtdf(Deal *self, PyObject *args) {
    PyObject *hands, *pips, *guess_obj = Py_None, *budget_obj = Py_None;
    unsigned long long K;
    int e, s, alpha, beta;
    if (self->table == NULL) {
        PyErr_SetString(PyExc_ValueError, "the deal is not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OOKiiii|OO", &hands, &pips, &K, &e, &s, &alpha, &beta, &guess_obj, &budget_obj))
        return NULL;
    if (s < 0 || s >= self->n || e < 0 || e >= self->w * self->w) {
        PyErr_SetString(PyExc_ValueError, "seat or ends out of range");
        return NULL;
    }
    if (load_state(self, hands, pips) < 0) return NULL;
    if (!(self->H[s] & self->fit[e])) {
        PyErr_SetString(PyExc_ValueError, "the seat to move must hold a playable tile");
        return NULL;
    }
    int guess = 0;
    if (guess_obj != Py_None) {
        guess = (int)PyLong_AsLong(guess_obj);
        if (PyErr_Occurred()) return NULL;
    }
    int64_t budget = INT64_MAX;
    if (budget_obj != Py_None) {
        budget = PyLong_AsLongLong(budget_obj);
        if (budget == -1 && PyErr_Occurred()) return NULL;
    }
    uint64_t X;
    if (deal_ready(self, &K, &X) < 0) return NULL;
    uint64_t key = state_key(self, (uint64_t)K, e, s, X);
    Entry *en = table_probe(self->table, key, self->id);
    if (en != NULL) guess = guess < bound_unpack(en->lo) ? bound_unpack(en->lo) : (guess > bound_unpack(en->hi) ? bound_unpack(en->hi) : guess);
    if (alpha < -INF) alpha = -INF;
    if (beta > INF) beta = INF;
    self->failed = 0;
    self->budget = budget;
    int v = mtd(self, (uint64_t)K, e, s, X, alpha, beta, guess);
    if (self->failed == 2) Py_RETURN_NONE;
    if (self->failed) return NULL;
    return PyLong_FromLong(v);
}

/* The table made ready for a new world: back at the size it starts with (a large deal's table does not
 * stay large for the small ones after it, and a large table spreads a small search over more cache lines),
 * and empty: the new deal's id is the only one whose entries count (``only``), so the slots of the deals
 * before are free without a pass over them; below its bound the table loses no entry, so a deal searches
 * exactly the states it would in an empty one. */
static int table_restart(Table *t) {
    uint64_t start = t->max_buckets < (1 << 12) ? t->max_buckets : (1 << 12);      /* as Table_init */
    if (t->buckets != start) {
        void *old = t->raw;
        if (table_alloc(t, start) < 0) { PyErr_NoMemory(); return -1; }
        PyMem_Free(old);
        t->stores = t->replaced = t->used = 0;
        t->epoch++;
        t->next_deal = 1;
    } else {
        t->used = 0;            /* (the next deal's id makes every entry's slot free: ``only``) */
    }
    return 0;
}

/* The side-0 value of the mover ``s`` playing tile ``bit`` to ends ``e2`` from the loaded state (played
 * ``K``, ends ``e``), in ``*out`` (as ``Solver.values`` computes a play on the line: the forced passes
 * skipped, MTD(f) from the table's bound nearest 0). Returns 1 when the move ends the hand (no value), 2
 * past the budget, -1 on an error, else 0. */
static int play_move(Deal *d, uint64_t K, int e, int s, int bit_index, int e2, int *out) {
    uint64_t h = d->H[s], bit = 1ULL << bit_index, K2 = K | bit, f = d->fit[e2];
    int sd = d->side[s];
    if (!(h & bit) || (e >= 0 && !(d->fit[e] & bit))) {
        PyErr_SetString(PyExc_ValueError, "a move of a tile the mover does not hold, or that does not fit");
        return -1;
    }
    if (h == bit || !((d->all ^ K2) & f)) return 1;            /* domino, or blocked */
    int t = s;
    for (int k = 0; k < d->n; k++) {                           /* the forced passes */
        t = d->next[s][k];
        if ((t == s ? h & ~bit : d->H[t]) & f) break;
    }
    d->H[s] = h & ~bit;
    d->P[sd] -= d->tpips[bit_index];
    int guess = 0;
    Entry *en = table_probe(d->table, state_key(d, K2, e2, t, 0), d->id);
    if (en != NULL) {
        int lo = bound_unpack(en->lo), hi = bound_unpack(en->hi);
        guess = guess < lo ? lo : (guess > hi ? hi : guess);
    }
    int v = mtd(d, K2, e2, t, 0, -INF, INF, guess);
    d->H[s] = h;
    d->P[sd] += d->tpips[bit_index];
    if (d->failed) return d->failed == 2 ? 2 : -1;
    *out = d->sign[t] * v;
    return 0;
}

/* One world of ``Deal_worlds``: the deal ``dealt`` loaded (the tiles of ``K`` played), then the side-0
 * value of each root move in ``out`` (as ``Solver.values`` computes a play on the line: the mover's
 * tile, the forced passes skipped, MTD(f) from the table's bound nearest 0; ``e`` -1: the lead, each move
 * a tile led, its two numbers the ends after it). Returns 1 when a move
 * ends the hand (the caller asks Python for that world), 2 past the budget, -1 on an error, else 0. */
static int solve_world(Deal *d, const uint64_t *dealt, uint64_t K, int e, int s, int nmoves, const uint8_t *bits,
                       const uint8_t *e2s, int64_t budget, int *out) {
    uint64_t all = 0, held = 0;
    for (int t = 0; t < d->n; t++) all |= dealt[t];
    d->all = all;
    d->P[0] = d->P[1] = 0;
    for (int t = 0; t < d->n; t++) {
        d->dealt[t] = dealt[t];
        d->H[t] = dealt[t] & ~K;
        held |= d->H[t];
        for (uint64_t m = d->H[t]; m; m &= m - 1) d->P[d->side[t]] += d->tpips[__builtin_ctzll(m)];
    }
    d->H[d->n] = 0;
    if ((all & ~held) != K || (e >= 0 && !(d->H[s] & d->fit[e]))) {
        PyErr_SetString(PyExc_ValueError, "worlds: each deal must hold every tile not played, and the mover a "
                        "playable tile");
        return -1;
    }
    if (table_restart(d->table) < 0) return -1;
    d->table->only = 0;
    d->epoch = d->table->epoch;
    d->id = new_deal_id(d->table);
    d->table->only = (uint16_t)d->id;
    d->budget = budget;
    d->failed = 0;
    for (int i = 0; i < nmoves; i++) {
        int got = play_move(d, K, e, s, bits[i], e2s[i], out + i);
        if (got != 0) return got;
    }
    return 0;
}

/* plays(hands, pips, played, ends, seat, moves, budget): the side-0 value of each move (tile index, ends
 * code after it) of ``seat`` in the state, one after the other in this deal's table, as ``Solver.values``
 * asks them of ``mtdf`` one by one: ``(values, states, over)``, None for a move that ends the hand,
 * ``over`` True when the moves needed more than ``budget`` states (the values then stop before the move
 * that did). No exposed tile (nor pass bonus) in the state. */
static PyObject *Deal_plays(Deal *self, PyObject *args) {
    PyObject *hands, *pips, *moves;
    unsigned long long K;
    long long budget;
    int e, s;
    if (!PyArg_ParseTuple(args, "OOKiiOL", &hands, &pips, &K, &e, &s, &moves, &budget)) return NULL;
    if (self->table == NULL || self->pb || s < 0 || s >= self->n || e < 0 || e >= self->w * self->w
        || (K >> self->ntiles)) {
        PyErr_SetString(PyExc_ValueError, "plays: a deal without pass bonuses, a seat, ends and tiles played of its set");
        return NULL;
    }
    if (load_state(self, hands, pips) < 0) return NULL;
    table_shared(self->table);
    if (self->epoch != self->table->epoch) {
        self->epoch = self->table->epoch;
        self->id = new_deal_id(self->table);
    }
    PyObject *mseq = PySequence_Fast(moves, "moves must be a sequence");
    if (mseq == NULL) return NULL;
    Py_ssize_t nm = PySequence_Fast_GET_SIZE(mseq);
    PyObject *out = PyList_New(0);
    uint64_t before = self->nodes;
    self->budget = budget;
    self->failed = 0;
    int over = 0;
    for (Py_ssize_t i = 0; out != NULL && i < nm; i++) {
        int bit, e2, v = 0, got = -1;
        if (PyArg_ParseTuple(PySequence_Fast_GET_ITEM(mseq, i), "ii", &bit, &e2)) {
            if (bit < 0 || bit >= self->ntiles || e2 < 0 || e2 >= self->w * self->w)
                PyErr_SetString(PyExc_ValueError, "moves: (tile index, ends code) pairs");
            else
                got = play_move(self, (uint64_t)K, e, s, bit, e2, &v);
        }
        if (got == 2) { over = 1; break; }
        PyObject *x = got == 1 ? Py_NewRef(Py_None) : (got == 0 ? PyLong_FromLong(v) : NULL);
        if (x == NULL || PyList_Append(out, x) < 0) Py_CLEAR(out);
        Py_XDECREF(x);
    }
    Py_DECREF(mseq);
    if (out == NULL) return NULL;
    return Py_BuildValue("(NKO)", out, (unsigned long long)(self->nodes - before), over ? Py_True : Py_False);
}

/* ``(seat, tile, end)`` appended to ``out``; -1 on an error; ``out`` NULL: nothing kept. */
static int append_step(PyObject *out, int seat, int tile, int end) {
    if (out == NULL) return 0;          /* (``ends``: the line's end is kept, not its steps) */
    PyObject *x = Py_BuildValue("(iii)", seat, tile, end);
    int r = x == NULL ? -1 : PyList_Append(out, x);
    Py_XDECREF(x);
    return r;
}

/* A move of a principal line: the tile's index, the ends code after it, the open number it goes on. */
typedef struct {
    uint8_t bit, e2, end;
} LineMove;

/* The moves of the tiles ``p`` on the ends as they lie (``a`` first, then ``b``), in the order of
 * ``Position.legal_moves``: ascending tile, each on ``a`` before ``b`` (one move where both show one number). */
static int line_moves(Deal *d, uint64_t p, int a, int b, LineMove *out) {
    int n = 0;
    for (; p; p &= p - 1) {
        int i = __builtin_ctzll(p), lo = d->tlow[i], hi = d->thigh[i];
        if (lo == a || hi == a)
            out[n++] = (LineMove){(uint8_t)i, (uint8_t)ends_code(d->w, lo == a ? hi : lo, b), (uint8_t)a};
        if (b != a && (lo == b || hi == b))
            out[n++] = (LineMove){(uint8_t)i, (uint8_t)ends_code(d->w, a, lo == b ? hi : lo), (uint8_t)b};
    }
    return n;
}

/* The state of a principal line as it is played out: the loaded hands and pips, and these. */
typedef struct {
    uint64_t K, X;      /* the played mask (with the pass bonus's flag), the live exposed tiles */
    int a, b, s, v;     /* the ends as they lie, the mover, the state's value for his side */
    int pa, pb;         /* the ends as they lay before the last tile laid */
    int ls, lb;         /* the seat that laid the last tile, and its index */
} LineState;

/* The move of the mover of ``st`` laying tile ``bit`` (the ends code after it ``e2``; ``X2``: the live exposed
 * tiles after it) played on the line's state, the forced passes after it appended to ``out`` as ``(seat, -1,
 * -1)``; ``st->v`` is the move's value for the mover's side, and becomes the next state's for the next mover's
 * (a pass bonus it pays taken off). The ends as they lie are the caller's. Returns 1 once the move ends the hand
 * (nothing played: the hand is over), 0 when it goes on, -1 on an error. */
static int line_advance(Deal *d, LineState *st, int bit, int e2, uint64_t X2, PyObject *out) {
    int s = st->s, sd = d->side[s];
    uint64_t h = d->H[s], K = st->K, K2 = K | (1ULL << bit), f = d->fit[e2];
    if (h == 1ULL << bit || !((d->all ^ K2) & f)) return 1;            /* domino, or blocked */
    d->H[s] = h & ~(1ULL << bit);
    d->P[sd] -= d->tpips[bit];
    int t = s, k;
    for (k = 0; k < d->n; k++) {
        t = d->next[s][k];
        if (d->H[t] & f) break;
        if (append_step(out, t, -1, -1) < 0) return -1;
    }
    int bonus = d->pb ? d->bonus[s][k][!(K & d->flag)] : 0;
    if (bonus) K2 |= d->flag;
    st->K = K2;
    st->X = X2;
    st->v = d->side[t] == sd ? st->v - bonus : bonus - st->v;         /* (the move's value is the state's) */
    st->s = t;
    return 0;
}

/* One step of a principal line: the first move of the mover in the order of ``Position.legal_moves`` whose
 * value reaches the state's (a null-window probe each, ``budget`` states at most), appended to ``out`` as
 * ``(seat, tile, end)`` with the forced passes after it (``(seat, -1, -1)``), and played. ``first``: bit ``s``
 * set when seat ``s`` lays a tile on the first of two ends showing the same number (``Position.equal_end``).
 * Returns 1 once the hand is over, 0 when it goes on, -1 on an error or past the budget (``failed``). */
static int line_step(Deal *d, LineState *st, int first, int64_t budget, PyObject *out) {
    int s = st->s, e = ends_code(d->w, st->a, st->b);
    uint64_t h = d->H[s], p = h & d->fit[e], X2 = st->X;
    if (st->X) {                                /* §8: his exposed tiles that fit, if any, are his moves */
        X2 = st->X & ~p;
        if (st->X & p) p &= st->X;
    }
    LineMove mv[MAXMOVES];
    int nm = line_moves(d, p, st->a, st->b, mv), c = 0;
    if (nm > 1) {
        d->budget = budget;
        for (c = 0; c < nm; c++) {
            int x = move_value(d, st->K, e, s, X2, mv[c].bit, mv[c].e2, st->v - 1, st->v);
            if (d->failed) return -1;
            if (x >= st->v) break;
        }
        if (c == nm) {
            PyErr_SetString(PyExc_RuntimeError, "line: no move reaches the value of the state");
            return -1;
        }
    }
    int bit = mv[c].bit;
    if (append_step(out, s, bit, mv[c].end) < 0) return -1;
    st->ls = s;
    st->lb = bit;
    int other = d->tlow[bit] == mv[c].end ? d->thigh[bit] : d->tlow[bit];
    st->pa = st->a;
    st->pb = st->b;
    if (mv[c].end == st->a && (st->a != st->b || (first >> s & 1))) st->a = other;
    else st->b = other;
    return line_advance(d, st, bit, mv[c].e2, X2, out);
}

/* The principal line of a state ``st`` to the end of the hand appended to ``out`` (``line_step`` after
 * ``line_step``). Returns 0, or -1 on an error or past the budget (``failed``). */
static int line_rest(Deal *d, LineState *st, int first, int64_t budget, PyObject *out) {
    int got = 0;
    while (got == 0) got = line_step(d, st, first, budget, out);
    return got < 0 ? -1 : 0;
}

/* line(hands, pips, played, a, b, seat, first, value, budget, guess=0): the principal variation from the state to the
 * end of the hand, the best moves for both sides, among equal ones the first in the order of
 * ``Position.legal_moves`` (``Solver.best_line``): ``(steps, states, over, ends)``, each step ``(seat, tile
 * index, the open number it goes on)`` or a pass ``(seat, -1, -1)``, ``ends`` the ends as they lay before the
 * last tile of the steps (``(a, b)`` where there is none): what ``hand_facts`` reads of a finished hand. ``a``, ``b``: the ends as they lie; ``first``:
 * bit ``s`` set when seat ``s`` lays a tile on the first of two ends showing one number; ``value``: the
 * state's value for the side of ``seat`` (None: searched first, MTD(f) from ``guess`` or the nearest of the
 * table's bounds). Each choice probes its moves in order with
 * a null window around that value and takes the first that reaches it (the value of the state after it is
 * then known too), at most ``budget`` states a choice (and for the first value); ``over`` True past it (the
 * steps then stop before that choice). */
static PyObject *Deal_line(Deal *self, PyObject *args) {
    PyObject *hands, *pips, *value_obj;
    unsigned long long K;
    long long budget;
    int a, b, s, first, guess = 0;
    if (self->table == NULL) {
        PyErr_SetString(PyExc_ValueError, "the deal is not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OOKiiiiOL|i", &hands, &pips, &K, &a, &b, &s, &first, &value_obj, &budget, &guess))
        return NULL;
    if (s < 0 || s >= self->n || a < 0 || a >= self->w || b < 0 || b >= self->w) {
        PyErr_SetString(PyExc_ValueError, "seat or ends out of range");
        return NULL;
    }
    LineState st = {0, 0, a, b, s, 0, a, b};
    if (load_state(self, hands, pips) < 0 || deal_ready(self, &K, &st.X) < 0) return NULL;
    st.K = K;
    int e = ends_code(self->w, a, b);
    if (!(self->H[s] & self->fit[e])) {
        PyErr_SetString(PyExc_ValueError, "the seat to move must hold a playable tile");
        return NULL;
    }
    uint64_t before = self->nodes;
    self->failed = 0;
    self->budget = budget;
    if (value_obj == Py_None) {
        Entry *en = table_probe(self->table, state_key(self, st.K, e, s, st.X), self->id);
        if (en != NULL) guess = guess < bound_unpack(en->lo) ? bound_unpack(en->lo)
                                : (guess > bound_unpack(en->hi) ? bound_unpack(en->hi) : guess);
        st.v = mtd(self, st.K, e, s, st.X, -INF, INF, guess);
    } else {
        st.v = (int)PyLong_AsLong(value_obj);
        if (PyErr_Occurred()) return NULL;
    }
    PyObject *out = PyList_New(0);
    int got = self->failed ? -1 : 0;
    if (out != NULL && got == 0) got = line_rest(self, &st, first, (int64_t)budget, out);
    if (out == NULL || (got < 0 && self->failed != 2)) {
        Py_XDECREF(out);
        return NULL;
    }
    return Py_BuildValue("(NKO(ii))", out, (unsigned long long)(self->nodes - before),
                         self->failed == 2 ? Py_True : Py_False, st.pa, st.pb);
}

/* ends(hands, pips, played, a, b, seat, first, values, budget): where the principal variation after each move of
 * ``seat`` ends, each as ``line`` plays it from the state that move leaves (``values``: one side-0 value, or None, for
 * each move in the order of ``Position.legal_moves``, ``line_moves``: ValueError for another count; each taken as the
 * value of the state the move leaves), without its steps: a list of ``(hands, seat, tile, (a, b))``, each seat's hand
 * at the end, the player and index of the last tile laid and the ends as they lay before it; None for a move whose
 * value is None, whose line needs more than ``budget`` states at a choice, or where no move reaches the value at a
 * choice (a value that is not the move's). The rest as ``line`` takes it. */
static PyObject *Deal_ends(Deal *self, PyObject *args) {
    PyObject *hands, *pips, *values;
    unsigned long long K;
    long long budget;
    int a, b, s, first;
    if (self->table == NULL) {
        PyErr_SetString(PyExc_ValueError, "the deal is not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OOKiiiiOL", &hands, &pips, &K, &a, &b, &s, &first, &values, &budget)) return NULL;
    if (s < 0 || s >= self->n || a < 0 || a >= self->w || b < 0 || b >= self->w) {
        PyErr_SetString(PyExc_ValueError, "seat or ends out of range");
        return NULL;
    }
    LineState st0 = {0, 0, a, b, s, 0, a, b, s, 0};
    if (load_state(self, hands, pips) < 0 || deal_ready(self, &K, &st0.X) < 0) return NULL;
    st0.K = K;
    int e = ends_code(self->w, a, b);
    uint64_t p = self->H[s] & self->fit[e], X2 = st0.X;
    if (st0.X) {                                /* §8: as ``line_step`` */
        X2 = st0.X & ~p;
        if (st0.X & p) p &= st0.X;
    }
    LineMove mv[MAXMOVES];
    int nm = line_moves(self, p, a, b, mv);
    PyObject *f = PySequence_Fast(values, "values");
    if (f == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(f) != nm) {
        PyErr_Format(PyExc_ValueError, "ends: %d moves, not %zd values", nm, PySequence_Fast_GET_SIZE(f));
        Py_DECREF(f);
        return NULL;
    }
    uint64_t H[MAXSEATS + 1];
    int P[2] = {self->P[0], self->P[1]};
    memcpy(H, self->H, sizeof(H));
    PyObject *out = PyList_New(nm);
    for (int i = 0; out != NULL && i < nm; i++) {
        PyObject *v = PySequence_Fast_GET_ITEM(f, i), *end = NULL;
        long x = v == Py_None ? 0 : PyLong_AsLong(v);
        if (x == -1 && PyErr_Occurred()) { Py_CLEAR(out); break; }
        if (v == Py_None || x > MAX_VALUE || x < -MAX_VALUE) {
            PyList_SET_ITEM(out, i, Py_NewRef(Py_None));
            continue;
        }
        LineState st = st0;
        int bit = mv[i].bit, other = self->tlow[bit] == mv[i].end ? self->thigh[bit] : self->tlow[bit];
        st.v = self->sign[s] * (int)x;
        st.ls = s;
        st.lb = bit;
        if (mv[i].end == st.a && (st.a != st.b || (first >> s & 1))) st.a = other;
        else st.b = other;
        self->failed = 0;
        self->budget = budget;
        int got = line_advance(self, &st, bit, mv[i].e2, X2, NULL);
        if (got == 0) got = line_rest(self, &st, first, (int64_t)budget, NULL);
        if (got < 0 && (self->failed == 2 || (!self->failed && PyErr_ExceptionMatches(PyExc_RuntimeError)))) {
            PyErr_Clear();              /* past the budget, or the value is not the move's: no line read */
            self->failed = 0;
            end = Py_NewRef(Py_None);
        } else if (got >= 0) {
            PyObject *hs = PyTuple_New(self->n);
            for (int t = 0; hs != NULL && t < self->n; t++) {
                PyObject *h = PyLong_FromUnsignedLongLong(t == st.ls ? self->H[t] & ~(1ULL << st.lb) : self->H[t]);
                if (h == NULL) Py_CLEAR(hs);
                else PyTuple_SET_ITEM(hs, t, h);
            }
            end = hs == NULL ? NULL : Py_BuildValue("(Nii(ii))", hs, st.ls, st.lb, st.pa, st.pb);
        }
        memcpy(self->H, H, sizeof(H));          /* (the state's hands and pips again for the next move) */
        self->P[0] = P[0];
        self->P[1] = P[1];
        if (end == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, end);
    }
    Py_DECREF(f);
    return out;
}

/* The principal line after each root move of the world ``solve_world`` has just solved (``values``: their
 * side-0 values; the table warm with its search), as ``Solver.best_line`` plays it from the position after
 * the move: for each move ``(steps, ends)``, the list of its steps (``Deal_line``'s: the move's own forced passes
 * first, then ``line_step`` after ``line_step``) and the ends as they lay before its last tile (the line ends on
 * a tile: the hand is over once one is laid), None for one whose line needs more than ``budget`` states at a
 * choice.
 * ``as``, ``bs``: the ends as they lie after each move; ``firsts``: ``Deal_line``'s ``first`` after each move
 * (the seats that lay a tile on the first of two equal ends, by the lead). The loaded hands and pips
 * are the world's again after each line. NULL on an error. */
static PyObject *world_lines(Deal *d, uint64_t K, int s, int nmoves, const uint8_t *bits, const uint8_t *e2s,
                             const uint8_t *as, const uint8_t *bs, const int *firsts, const int *values,
                             int64_t budget) {
    uint64_t H[MAXSEATS + 1];
    int P[2] = {d->P[0], d->P[1]};
    memcpy(H, d->H, sizeof(H));
    PyObject *lines = PyList_New(nmoves);
    for (int i = 0; lines != NULL && i < nmoves; i++) {
        LineState st = {K, 0, as[i], bs[i], s, d->sign[s] * values[i], 0, 0};
        PyObject *steps = PyList_New(0);
        d->failed = 0;
        int got = steps == NULL ? -1 : line_advance(d, &st, bits[i], e2s[i], 0, steps);
        if (got == 1) {
            PyErr_SetString(PyExc_RuntimeError, "worlds: a move with a value ends the hand");
            got = -1;
        } else if (got == 0) {
            got = line_rest(d, &st, firsts[i], budget, steps);
        }
        memcpy(d->H, H, sizeof(H));
        d->P[0] = P[0];
        d->P[1] = P[1];
        if (got < 0 && d->failed == 2) {            /* past the budget: this line is not known */
            Py_SETREF(steps, Py_NewRef(Py_None));
            d->failed = 0;
        } else if (got < 0) {
            Py_CLEAR(steps);
        } else {
            steps = Py_BuildValue("(N(ii))", steps, st.pa, st.pb);     /* (N: the tuple takes the list) */
        }
        if (steps == NULL) Py_CLEAR(lines);
        else PyList_SET_ITEM(lines, i, steps);
    }
    return lines;
}

/* worlds(deals, played, ends, seat, moves, budget, after=None): for each deal (the hands each seat
 * was dealt), the side-0 value of each move (tile index, ends code after it) of ``seat``, ``played`` being on
 * the table (``ends`` -1 and nothing played: the lead):
 * a list per deal, or None where a move ends the hand; ``(values, over)``, ``over`` True when a deal
 * needed more than ``budget`` states (the values then stop before it). Each deal searches the states
 * a new solver's empty table would (``table_restart``). For scorings computed here (no Python leaf), no pass bonus and
 * no exposed tile. ``after`` (for each move, the ends as they lie after it and ``line``'s ``first`` there:
 * ``(a, b, first)``): also each move's principal line in each deal, from the same warm table
 * (``world_lines``): ``(values, over,
 * lines)``, ``lines`` a list per deal (None where its values are) of each move's steps and the ends before its
 * last tile (None: past ``budget`` states at a choice). */
static PyObject *Deal_worlds(Deal *self, PyObject *args) {
    PyObject *deals, *moves, *after = Py_None;
    unsigned long long K;
    long long budget;
    int e, s, firsts[MAXMOVES];
    if (!PyArg_ParseTuple(args, "OKiiOL|O", &deals, &K, &e, &s, &moves, &budget, &after)) return NULL;
    if (self->table == NULL || self->leaf != NULL || self->pb || s < 0 || s >= self->n || e < -1
        || e >= self->w * self->w || (K >> self->ntiles) || (e < 0 && K)) {
        PyErr_SetString(PyExc_ValueError, "worlds: a deal scored here without pass bonuses, a seat, ends and "
                        "tiles played of its set");
        return NULL;
    }
    PyObject *mseq = PySequence_Fast(moves, "moves must be a sequence");
    if (mseq == NULL) return NULL;
    Py_ssize_t nm = PySequence_Fast_GET_SIZE(mseq);
    uint8_t bits[MAXMOVES], e2s[MAXMOVES], as[MAXMOVES], bs[MAXMOVES];
    int bad = nm < 1 || nm > MAXMOVES;
    for (Py_ssize_t i = 0; i < nm && !bad; i++) {
        int bit, e2;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(mseq, i), "ii", &bit, &e2)) { bad = 1; break; }
        bad = bit < 0 || bit >= self->ntiles || e2 < 0 || e2 >= self->w * self->w;
        bits[i] = (uint8_t)bit;
        e2s[i] = (uint8_t)e2;
    }
    Py_DECREF(mseq);
    PyObject *aseq = bad || after == Py_None ? NULL : PySequence_Fast(after, "after must be a sequence");
    bad = bad || (after != Py_None && (aseq == NULL || PySequence_Fast_GET_SIZE(aseq) != nm));
    for (Py_ssize_t i = 0; aseq != NULL && i < nm && !bad; i++) {
        int a, b;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(aseq, i), "iii", &a, &b, &firsts[i])) { bad = 1; break; }
        bad = a < 0 || a >= self->w || b < 0 || b >= self->w || ends_code(self->w, a, b) != e2s[i];
        as[i] = (uint8_t)a;
        bs[i] = (uint8_t)b;
    }
    Py_XDECREF(aseq);
    if (bad) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "moves: (tile index, ends code) pairs; after: the "
                                               "ends (a, b) and first after each move");
        return NULL;
    }
    PyObject *dseq = PySequence_Fast(deals, "deals must be a sequence");
    if (dseq == NULL) return NULL;
    PyObject *out = PyList_New(0), *lines = after == Py_None ? NULL : PyList_New(0);
    int over = 0;
    if (after != Py_None && lines == NULL) Py_CLEAR(out);
    for (Py_ssize_t j = 0; out != NULL && j < PySequence_Fast_GET_SIZE(dseq) && !over; j++) {
        uint64_t dealt[MAXSEATS];
        PyObject *hands = PySequence_Fast(PySequence_Fast_GET_ITEM(dseq, j), "a deal must be a sequence");
        int ok = hands != NULL && PySequence_Fast_GET_SIZE(hands) == self->n;
        for (int t = 0; ok && t < self->n; t++) {
            dealt[t] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(hands, t));
            ok = !PyErr_Occurred();
        }
        Py_XDECREF(hands);
        int values[MAXMOVES];
        int got = ok ? solve_world(self, dealt, (uint64_t)K, e, s, (int)nm, bits, e2s, (int64_t)budget, values) : -1;
        if (got < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "worlds: a deal is one mask per seat");
            Py_CLEAR(out);
            break;
        }
        over = got == 2;
        if (over) break;
        PyObject *row = got == 1 ? Py_NewRef(Py_None) : PyList_New(nm);
        for (Py_ssize_t i = 0; row != NULL && got == 0 && i < nm; i++) {
            PyObject *v = PyLong_FromLong(values[i]);
            if (v == NULL) { Py_CLEAR(row); break; }
            PyList_SET_ITEM(row, i, v);
        }
        if (row == NULL || PyList_Append(out, row) < 0) Py_CLEAR(out);
        Py_XDECREF(row);
        if (out != NULL && lines != NULL) {
            PyObject *found = got == 1 ? Py_NewRef(Py_None)
                              : world_lines(self, (uint64_t)K, s, (int)nm, bits, e2s, as, bs, firsts, values,
                                            (int64_t)budget);
            if (found == NULL || PyList_Append(lines, found) < 0) Py_CLEAR(out);
            Py_XDECREF(found);
        }
    }
    Py_DECREF(dseq);
    if (out == NULL) {
        Py_XDECREF(lines);
        return NULL;
    }
    if (lines == NULL) return Py_BuildValue("(NO)", out, over ? Py_True : Py_False);
    return Py_BuildValue("(NON)", out, over ? Py_True : Py_False, lines);
}

static PyObject *Deal_get_nodes(Deal *self, void *closure) {
    return PyLong_FromUnsignedLongLong(self->nodes);
}

static PyObject *Deal_get_table(Deal *self, void *closure) {
    if (self->table == NULL) Py_RETURN_NONE;
    Py_INCREF(self->table);
    return (PyObject *)self->table;
}

static PyMethodDef Deal_methods[] = {
    {"mtdf", (PyCFunction)Deal_mtdf, METH_VARARGS,
     "mtdf(hands, pips, played, ends, seat, alpha, beta, guess=None, budget=None): the value for the side of "
     "seat; None past budget states."},
    {"plays", (PyCFunction)Deal_plays, METH_VARARGS,
     "plays(hands, pips, played, ends, seat, moves, budget): the side-0 value of each move (tile index, ends "
     "after) in this deal's table, None where it ends the hand; (values, states, over)."},
    {"line", (PyCFunction)Deal_line, METH_VARARGS,
     "line(hands, pips, played, a, b, seat, first, value, budget, guess=0): the principal variation from the state, "
     "the first best move in the order of the legal moves at each choice; (steps, states, over, ends before the "
     "last tile)."},
    {"ends", (PyCFunction)Deal_ends, METH_VARARGS,
     "ends(hands, pips, played, a, b, seat, first, values, budget): where the principal variation after each move "
     "of seat ends, each at its value: (hands, seat, tile, ends before the last tile) or None, a list."},
    {"worlds", (PyCFunction)Deal_worlds, METH_VARARGS,
     "worlds(deals, played, ends, seat, moves, budget, after=None): the side-0 value of each move (tile "
     "index, ends after) in each deal, each searching the states an empty table would; (values, over), and with "
     "after (the ends and line's first after each move) each move's principal line in each deal: (values, over, lines)."},
    {NULL}
};

static PyGetSetDef Deal_getset[] = {
    {"nodes", (getter)Deal_get_nodes, NULL, "The states searched so far.", NULL},
    {"table", (getter)Deal_get_table, NULL, "The transposition table.", NULL},
    {NULL}
};

static PyTypeObject DealType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "analyzer.search._core.BlockDeal",
    .tp_doc = PyDoc_STR("BlockDeal(table, n, max_pip, sides, dealt, cu, leaf): one two-ended block deal."),
    .tp_basicsize = sizeof(Deal),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Deal_traverse,
    .tp_clear = (inquiry)Deal_clear,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Deal_init,
    .tp_dealloc = (destructor)Deal_dealloc,
    .tp_methods = Deal_methods,
    .tp_getset = Deal_getset,
};

/* hand_value(scoring, max_pip, term, seat, leader, hands, last, a, b): the side-0 value of one finished
 * hand under a scoring description (``leaf_score``), for the tests against ``value``. ``last``: the last
 * tile's index, ``a`` and ``b`` the open numbers before it (-1: not known). */
static PyObject *hand_value(PyObject *module, PyObject *args) {
    PyObject *scoring, *hands_obj;
    int max_pip, term, seat, leader, last, a, b;
    if (!PyArg_ParseTuple(args, "OiiiiOiii", &scoring, &max_pip, &term, &seat, &leader, &hands_obj, &last, &a, &b))
        return NULL;
    LeafScoring sc;
    if (leaf_parse(scoring, &sc) < 0) return NULL;
    int w = max_pip + 1, ntiles = w * (w + 1) / 2;
    if (max_pip < 0 || ntiles > MAXTILES || term < 0 || term > 1 || seat < 0 || seat >= sc.n || leader < 0
        || leader >= sc.n || last < -1 || last >= ntiles || a < -1 || a > max_pip || b < -1 || b > max_pip) {
        PyErr_SetString(PyExc_ValueError, "hand_value: a set up to double-nine, term 0 or 1, seats, a tile index "
                        "and open numbers of that set");
        return NULL;
    }
    uint8_t tlow[MAXTILES], thigh[MAXTILES];
    int i = 0;
    for (int hi = 0; hi < w; hi++)
        for (int lo = 0; lo <= hi; lo++, i++) {
            tlow[i] = (uint8_t)lo;
            thigh[i] = (uint8_t)hi;
        }
    uint64_t hands[LEAF_SEATS] = {0}, set = ntiles == 64 ? ~0ULL : (1ULL << ntiles) - 1;
    PyObject *seq = PySequence_Fast(hands_obj, "hands must be a sequence of masks");
    if (seq == NULL) return NULL;
    int bad = PySequence_Fast_GET_SIZE(seq) != sc.n;
    for (int t = 0; t < sc.n && !bad; t++) {
        hands[t] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, t));
        if (PyErr_Occurred() || (hands[t] & ~set)) bad = 1;
    }
    Py_DECREF(seq);
    if (bad) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "hands: one mask of tiles of the set per seat");
        return NULL;
    }
    return PyLong_FromLong(leaf_score(&sc, tlow, thigh, term, seat, leader, hands, last, a, b));
}

static PyMethodDef module_methods[] = {
    {"hand_value", hand_value, METH_VARARGS,
     "hand_value(scoring, max_pip, term, seat, leader, hands, last, a, b): the side-0 value of a finished hand "
     "under a scoring description (LeafScoring.ints())."},
    {NULL}
};

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, "_core", "The compiled search core (see analyzer/search/core.py).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&TableType) < 0 || PyType_Ready(&DealType) < 0) return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "ENTRY_BYTES", (long)sizeof(Entry)) < 0
        || PyModule_AddIntConstant(m, "INF", INF) < 0
        || PyModule_AddObjectRef(m, "Table", (PyObject *)&TableType) < 0
        || PyModule_AddObjectRef(m, "BlockDeal", (PyObject *)&DealType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
