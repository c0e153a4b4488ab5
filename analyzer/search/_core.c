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
/* This file is the CPython binding: it parses the arguments, calls the kernel (``_core_kernel.c``, whose interface
 * ``_core_kernel.h`` declares; no Python there) and builds the results. The kernel's other binding is
 * ``_core_wasm.c``, the standalone WebAssembly module. */
#include "_binding.h"
#include "_core_kernel.h"

#define INF CORE_INF
#define MAXSEATS CORE_MAXSEATS
#define MAXTILES CORE_MAXTILES
#define MAXMOVES CORE_MAXMOVES

/* -- the table ------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    CoreTable t;
} Table;

static int Table_init(Table *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"entries", NULL};
    unsigned long long entries;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "K", kwlist, &entries)) return -1;
    if (core_table_init(&self->t, entries) < 0) { PyErr_NoMemory(); return -1; }
    return 0;
}

static void Table_dealloc(Table *self) {
    core_table_free(&self->t);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Table_clear(Table *self, PyObject *Py_UNUSED(ignored)) {
    core_table_clear(&self->t);
    Py_RETURN_NONE;
}

TABLE_GETTER(Table, entries, WAYS * self->t.buckets)
TABLE_GETTER(Table, max_entries, WAYS * self->t.max_buckets)
TABLE_GETTER(Table, used, self->t.used)
TABLE_GETTER(Table, nbytes, WAYS * self->t.buckets * sizeof(CoreEntry))
TABLE_GETTER(Table, stores, self->t.stores)
TABLE_GETTER(Table, replaced, self->t.replaced)

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
    PyObject_HEAD
    PyObject *table;            /* the Table whose ``t`` the kernel's deal searches in */
    PyObject *leaf;             /* the Python leaf value, or NULL for a scoring computed in the kernel */
    CoreDeal d;
} Deal;

/* The Python leaf value of a finished hand, for the kernel (``CoreLeafFn``): -1 with an exception set. */
static int python_leaf(void *ctx, int term, int s, uint64_t K2, int bit, int e, int *value) {
    PyObject *kp = PyLong_FromUnsignedLongLong(K2);
    PyObject *bp = PyLong_FromUnsignedLongLong(1ULL << bit);
    PyObject *r = NULL;
    if (kp && bp) r = PyObject_CallFunction((PyObject *)ctx, "iiOOi", term, s, kp, bp, e);
    Py_XDECREF(kp);
    Py_XDECREF(bp);
    if (r == NULL) return -1;
    long v = PyLong_AsLong(r);
    Py_DECREF(r);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v > MAX_VALUE || v < -MAX_VALUE) {
        PyErr_SetString(PyExc_OverflowError, "a hand's value is out of the compiled search's range");
        return -1;
    }
    *value = (int)v;
    return 0;
}

/* The kernel's error of the deal's last call raised; NULL. */
static PyObject *deal_raise(Deal *self) {
    return kernel_raise(self->d.err_kind, self->d.err_text);
}

/* ``n`` ints of a Python sequence into ``out`` (unsigned 64-bit where ``wide``); -1 with an exception set. */
static int read_ints(PyObject *obj, int n, int wide, uint64_t *u, int *v, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq == NULL) return -1;
    int bad = PySequence_Fast_GET_SIZE(seq) < n;
    for (int i = 0; i < n && !bad; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (wide) u[i] = PyLong_AsUnsignedLongLong(item);
        else v[i] = (int)PyLong_AsLong(item);
        bad = PyErr_Occurred() != NULL;
    }
    Py_DECREF(seq);
    if (bad && !PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "a sequence too short");
    return bad ? -1 : 0;
}

/* The hands (one mask a seat) and pips (a count a side) of a state; -1 with an exception set. */
static int read_state(Deal *self, PyObject *hands, PyObject *pips, uint64_t *H, int *P) {
    return read_ints(hands, self->d.n, 1, H, NULL, "hands must be a sequence") < 0
           || read_ints(pips, 2, 0, NULL, P, "pips must be a sequence") < 0 ? -1 : 0;
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
    if (leaf_fn != Py_None && !PyCallable_Check(leaf_fn)) {
        PyErr_SetString(PyExc_TypeError, "leaf: None (cu: 0, 1 or -1 for the scoring written here, or a scoring "
                        "description) or a callable");
        return -1;
    }
    LeafScoring sc;
    if (scoring != Py_None && leaf_parse(scoring, &sc) < 0) return -1;
    int side[MAXSEATS];
    uint64_t hands[MAXSEATS];
    PyObject *sseq = PySequence_Fast(sides, "sides must be a sequence");
    if (sseq == NULL) return -1;
    PyObject *dseq = PySequence_Fast(dealt, "dealt must be a sequence");
    if (dseq == NULL) { Py_DECREF(sseq); return -1; }
    int bad = PySequence_Fast_GET_SIZE(sseq) != n || PySequence_Fast_GET_SIZE(dseq) != n;
    for (int s = 0; s < n && !bad; s++) {
        long sd = PyLong_AsLong(PySequence_Fast_GET_ITEM(sseq, s));
        hands[s] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(dseq, s));
        if (PyErr_Occurred() || sd < 0 || sd > 1) { bad = 1; break; }
        side[s] = (int)sd;
    }
    Py_DECREF(sseq);
    Py_DECREF(dseq);
    if (bad) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "sides (0 or 1) and dealt hands, one per seat");
        return -1;
    }
    int bonuses[2 * MAXSEATS * MAXSEATS + MAXSEATS], nbonus = 0;
    if (bonus != Py_None) {
        PyObject *bseq = PySequence_Fast(bonus, "bonus must be a sequence");
        if (bseq == NULL) return -1;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(bseq);
        bad = len != 2 * n * n + n;
        for (Py_ssize_t i = 0; i < len && !bad; i++) {
            long b = PyLong_AsLong(PySequence_Fast_GET_ITEM(bseq, i));
            if (PyErr_Occurred() || b < 0 || b > MAX_VALUE) { bad = 1; break; }
            bonuses[i] = (int)b;
        }
        nbonus = (int)len;
        Py_DECREF(bseq);
        if (bad) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "bonus: 2 n n + n points (and a set whose states leave a bit free)");
            return -1;
        }
    }
    if (core_deal_init(&self->d, &((Table *)table)->t, n, max_pip, side, hands, cu,
                       leaf_fn == Py_None ? NULL : python_leaf, leaf_fn == Py_None ? NULL : leaf_fn,
                       scoring == Py_None ? NULL : &sc, leader, bound, most, bonus == Py_None ? NULL : bonuses,
                       nbonus) < 0) {
        deal_raise(self);
        return -1;
    }
    Py_INCREF(table);
    Py_XSETREF(self->table, table);
    Py_XDECREF(self->leaf);
    self->leaf = NULL;
    if (leaf_fn != Py_None) { Py_INCREF(leaf_fn); self->leaf = leaf_fn; }
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
    self->d.leaf_fn = NULL;
    self->d.leaf_ctx = NULL;
    return 0;
}

static void Deal_dealloc(Deal *self) {
    PyObject_GC_UnTrack(self);
    Deal_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Whether the deal was made (its ``__init__`` ran); else ValueError. */
static int deal_made(Deal *self) {
    if (self->table != NULL) return 1;
    PyErr_SetString(PyExc_ValueError, "the deal is not initialised");
    return 0;
}

/* mtdf(hands, pips, played, ends, seat, alpha, beta, guess=None, budget=None): the value for the side
 * of ``seat``; None when the search needs more than ``budget`` states (each call of ``search`` is one). */
static PyObject *Deal_mtdf(Deal *self, PyObject *args) {
    PyObject *hands, *pips, *guess_obj = Py_None, *budget_obj = Py_None;
    unsigned long long K;
    int e, s, alpha, beta;
    if (!deal_made(self)) return NULL;
    if (!PyArg_ParseTuple(args, "OOKiiii|OO", &hands, &pips, &K, &e, &s, &alpha, &beta, &guess_obj, &budget_obj))
        return NULL;
    uint64_t H[MAXSEATS];
    int P[2], v;
    if (read_state(self, hands, pips, H, P) < 0) return NULL;
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
    int got = core_mtdf(&self->d, H, P, (uint64_t)K, e, s, alpha, beta, guess, budget, &v);
    if (got < 0) return deal_raise(self);
    if (got == 1) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

/* ``(tile index, ends code)`` pairs of a Python sequence into ``moves`` (at most ``most``); their count, or -1
 * with an exception set. */
static Py_ssize_t read_moves(PyObject *obj, int (*moves)[2], Py_ssize_t most) {
    PyObject *mseq = PySequence_Fast(obj, "moves must be a sequence");
    if (mseq == NULL) return -1;
    Py_ssize_t nm = PySequence_Fast_GET_SIZE(mseq);
    if (nm > most) nm = most + 1;           /* (more than the moves of a state: refused by the kernel's checks) */
    for (Py_ssize_t i = 0; i < nm && i < most; i++) {
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(mseq, i), "ii", &moves[i][0], &moves[i][1])) {
            Py_DECREF(mseq);
            return -1;
        }
    }
    Py_DECREF(mseq);
    return nm;
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
    if (self->table == NULL) {
        PyErr_SetString(PyExc_ValueError, "plays: a deal without pass bonuses, a seat, ends and tiles played of its set");
        return NULL;
    }
    uint64_t H[MAXSEATS], states;
    int P[2], mv[2 * MAXMOVES][2], values[2 * MAXMOVES], over;
    uint8_t ended[2 * MAXMOVES];
    if (read_state(self, hands, pips, H, P) < 0) return NULL;
    Py_ssize_t nm = read_moves(moves, mv, 2 * MAXMOVES);
    if (nm < 0) return NULL;
    if (nm > 2 * MAXMOVES) {
        PyErr_SetString(PyExc_ValueError, "moves: (tile index, ends code) pairs");
        return NULL;
    }
    int done = core_plays(&self->d, H, P, (uint64_t)K, e, s, (int)nm, (const int (*)[2])mv, budget, values, ended,
                          &over, &states);
    if (done < 0) return deal_raise(self);
    PyObject *out = PyList_New(done);
    for (int i = 0; out != NULL && i < done; i++) {
        PyObject *x = ended[i] ? Py_NewRef(Py_None) : PyLong_FromLong(values[i]);
        if (x == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, x);
    }
    if (out == NULL) return NULL;
    return Py_BuildValue("(NKO)", out, (unsigned long long)states, over ? Py_True : Py_False);
}

/* A line's steps (``CoreSteps``) as a list of ``(seat, tile, end)``; NULL on an error. */
static PyObject *steps_list(const CoreSteps *st) {
    PyObject *out = PyList_New(st->count);
    for (int i = 0; out != NULL && i < st->count; i++) {
        PyObject *x = Py_BuildValue("(iii)", st->step[i][0], st->step[i][1], st->step[i][2]);
        if (x == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, x);
    }
    return out;
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
    int a, b, s, first, guess = 0, value = 0;
    if (!deal_made(self)) return NULL;
    if (!PyArg_ParseTuple(args, "OOKiiiiOL|i", &hands, &pips, &K, &a, &b, &s, &first, &value_obj, &budget, &guess))
        return NULL;
    uint64_t H[MAXSEATS], states;
    int P[2], over, pa, pb;
    if (read_state(self, hands, pips, H, P) < 0) return NULL;
    if (value_obj != Py_None) {
        value = (int)PyLong_AsLong(value_obj);
        if (PyErr_Occurred()) return NULL;
    }
    int room[CORE_MAX_STEPS][3];
    CoreSteps steps = {room, 0};
    if (core_line(&self->d, H, P, (uint64_t)K, a, b, s, first, value_obj != Py_None, value, budget, guess, &steps,
                  &states, &over, &pa, &pb) < 0)
        return deal_raise(self);
    return Py_BuildValue("(NKO(ii))", steps_list(&steps), (unsigned long long)states, over ? Py_True : Py_False,
                         pa, pb);
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
    if (!deal_made(self)) return NULL;
    if (!PyArg_ParseTuple(args, "OOKiiiiOL", &hands, &pips, &K, &a, &b, &s, &first, &values, &budget)) return NULL;
    uint64_t H[MAXSEATS];
    int P[2];
    if (read_state(self, hands, pips, H, P) < 0) return NULL;
    PyObject *f = PySequence_Fast(values, "values");
    if (f == NULL) return NULL;
    Py_ssize_t nv = PySequence_Fast_GET_SIZE(f);
    int nm = nv > MAXMOVES ? MAXMOVES + 1 : (int)nv;        /* (more than a state's moves: refused below) */
    uint8_t has[MAXMOVES + 1], found[MAXMOVES + 1];
    int vals[MAXMOVES + 1], seat[MAXMOVES + 1], tile[MAXMOVES + 1], ea[MAXMOVES + 1], eb[MAXMOVES + 1];
    uint64_t ends_hands[(MAXMOVES + 1) * MAXSEATS];
    for (int i = 0; i < nm && i < MAXMOVES; i++) {
        PyObject *v = PySequence_Fast_GET_ITEM(f, i);
        long x = v == Py_None ? 0 : PyLong_AsLong(v);
        if (x == -1 && PyErr_Occurred()) { Py_DECREF(f); return NULL; }
        has[i] = v != Py_None && x <= MAX_VALUE && x >= -MAX_VALUE;
        vals[i] = has[i] ? (int)x : 0;
    }
    Py_DECREF(f);
    if (core_ends(&self->d, H, P, (uint64_t)K, a, b, s, first, nm, has, vals, budget, found, ends_hands, seat, tile,
                  ea, eb) < 0) {
        if (self->d.err_kind == K_VALUE && strncmp(self->d.err_text, "ends:", 5) == 0)
            return PyErr_Format(PyExc_ValueError, "ends: %d moves, not %zd values", self->d.err_count, nv);
        return deal_raise(self);
    }
    PyObject *out = PyList_New(nm);
    for (int i = 0; out != NULL && i < nm; i++) {
        PyObject *end = Py_NewRef(Py_None);
        if (found[i]) {
            Py_DECREF(end);
            PyObject *hs = PyTuple_New(self->d.n);
            for (int t = 0; hs != NULL && t < self->d.n; t++) {
                PyObject *h = PyLong_FromUnsignedLongLong(ends_hands[i * self->d.n + t]);
                if (h == NULL) Py_CLEAR(hs);
                else PyTuple_SET_ITEM(hs, t, h);
            }
            end = hs == NULL ? NULL : Py_BuildValue("(Nii(ii))", hs, seat[i], tile[i], ea[i], eb[i]);
        }
        if (end == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, end);
    }
    return out;
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
    if (self->table == NULL) {
        PyErr_SetString(PyExc_ValueError, "worlds: a deal scored here without pass bonuses, a seat, ends and "
                        "tiles played of its set");
        return NULL;
    }
    int mv[MAXMOVES][2], as[MAXMOVES], bs[MAXMOVES];
    uint8_t bits[MAXMOVES], e2s[MAXMOVES];
    Py_ssize_t nm = read_moves(moves, mv, MAXMOVES);
    if (nm < 0) return NULL;
    int bad = nm > MAXMOVES;
    for (Py_ssize_t i = 0; i < nm && !bad; i++) {
        bad = mv[i][0] < 0 || mv[i][0] > 255 || mv[i][1] < 0 || mv[i][1] > 255;
        bits[i] = (uint8_t)mv[i][0];
        e2s[i] = (uint8_t)mv[i][1];
    }
    PyObject *aseq = bad || after == Py_None ? NULL : PySequence_Fast(after, "after must be a sequence");
    bad = bad || (after != Py_None && (aseq == NULL || PySequence_Fast_GET_SIZE(aseq) != nm));
    for (Py_ssize_t i = 0; aseq != NULL && i < nm && !bad; i++)
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(aseq, i), "iii", &as[i], &bs[i], &firsts[i])) bad = 1;
    Py_XDECREF(aseq);
    if (bad) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "moves: (tile index, ends code) pairs; after: the "
                                               "ends (a, b) and first after each move");
        return NULL;
    }
    if (core_worlds_check(&self->d, (uint64_t)K, e, s, (int)nm, bits, e2s, after == Py_None ? NULL : as,
                          after == Py_None ? NULL : bs) < 0)
        return deal_raise(self);
    PyObject *dseq = PySequence_Fast(deals, "deals must be a sequence");
    if (dseq == NULL) return NULL;
    PyObject *out = PyList_New(0), *lines = after == Py_None ? NULL : PyList_New(0);
    int over = 0, room[CORE_MAX_STEPS][3];
    if (after != Py_None && lines == NULL) Py_CLEAR(out);
    for (Py_ssize_t j = 0; out != NULL && j < PySequence_Fast_GET_SIZE(dseq) && !over; j++) {
        uint64_t dealt[MAXSEATS];
        PyObject *hands = PySequence_Fast(PySequence_Fast_GET_ITEM(dseq, j), "a deal must be a sequence");
        int ok = hands != NULL && PySequence_Fast_GET_SIZE(hands) == self->d.n;
        for (int t = 0; ok && t < self->d.n; t++) {
            dealt[t] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(hands, t));
            ok = !PyErr_Occurred();
        }
        Py_XDECREF(hands);
        int values[MAXMOVES];
        int got = ok ? core_world(&self->d, dealt, (uint64_t)K, e, s, (int)nm, bits, e2s, (int64_t)budget, values) : -1;
        if (got < 0) {
            if (ok) deal_raise(self);
            else if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "worlds: a deal is one mask per seat");
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
            PyObject *found = got == 1 ? Py_NewRef(Py_None) : PyList_New(nm);
            for (Py_ssize_t i = 0; found != NULL && got == 0 && i < nm; i++) {
                CoreSteps steps = {room, 0};
                int pa, pb;
                int r = core_world_line(&self->d, (uint64_t)K, s, bits[i], e2s[i], as[i], bs[i], firsts[i], values[i],
                                        (int64_t)budget, &steps, &pa, &pb);
                PyObject *x = r < 0 ? deal_raise(self) : r == 1 ? Py_NewRef(Py_None)
                              : Py_BuildValue("(N(ii))", steps_list(&steps), pa, pb);
                if (x == NULL) Py_CLEAR(found);
                else PyList_SET_ITEM(found, i, x);
            }
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
    return PyLong_FromUnsignedLongLong(self->d.nodes);
}

static PyObject *Deal_get_table(Deal *self, void *closure) {
    if (self->table == NULL) Py_RETURN_NONE;
    return Py_NewRef(self->table);
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

/* ``LEAF_FIELDS``: the layout of ``LeafScoring.ints()`` the kernel reads (``LEAF_SCORING_FIELDS``). */
static int add_leaf_fields(PyObject *m) {
    PyObject *names = leaf_fields();
    int r = names == NULL ? -1 : PyModule_AddObjectRef(m, "LEAF_FIELDS", names);
    Py_XDECREF(names);
    return r;
}

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&TableType) < 0 || PyType_Ready(&DealType) < 0) return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "ENTRY_BYTES", (long)sizeof(CoreEntry)) < 0
        || PyModule_AddIntConstant(m, "INF", INF) < 0
        || add_leaf_fields(m) < 0
        || PyModule_AddObjectRef(m, "Table", (PyObject *)&TableType) < 0
        || PyModule_AddObjectRef(m, "BlockDeal", (PyObject *)&DealType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
