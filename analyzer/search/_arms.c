/* The compiled search over layouts with arms: the ``_ArmDeal.search`` of analyzer/search/tree.py in C.
 *
 * Same state, same moves in the same order, same leaf values and pip bounds, same table entries as the
 * pure-Python search (read ``_ArmDeal`` first): a call of ``ArmSearch.search`` returns the side-0 value
 * of one state, fail-soft in its window, and the positions it visited, counted as the Python search
 * counts them, so that a node limit stops both at the same place. One type:
 *
 * ``ArmSearch(n, max_pip, french, branch, maximiser, opponent, scoring, param, sides, leaf, entries)``:
 *   one deal's search and its transposition table. ``french``: a filled spinner's arms first take their
 *   doubles; ``branch``: a double laid on an open arm opens two more (the double-nine cross).
 *   ``scoring`` 0: two sides, the standard scoring written here with the pip bounds (``param`` as the
 *   ``cu`` of ``scoring.standard_scoring``: 0 the losers' pips, 1 every pip, -1 bad points; the bounds are
 *   ``_ArmDeal.bounds``); 1: one seat (the maximiser) against the rest, each seat's pips bad points
 *   (``param`` 1: doubled for a hand holding a double, French domino), his value their sum less the
 *   players times his own; 2: ``leaf(hands, termination, seat, bit)``, the Python ``_ArmDeal.leaf``,
 *   for any other scoring; 3: the scoring ``described`` (``LeafScoring.ints()`` of
 *   analyzer/search/scoring.py; ``leader`` led the hand), computed by ``_leaf.h`` (no open numbers
 *   before the last tile: no bonus for it, as in Python).
 *
 * ``ArmSearch.line(hands, arms, seat, value, limit, spent)``: the principal variation from a state to the end of the
 *   hand, as ``TreeSearch.best_line`` plays it: ``arms`` as the position has them, in its order, so that each
 *   choice's moves are probed in the order of ``ArmPosition.legal_moves`` and named by its arms (``arm_line``).
 *
 * The state: every seat's hand (a 64-bit mask), the arms and the seat to move. Alike arms are
 * interchangeable, so the arms are a multiset, packed in 64 bits: the count of open arms of each number
 * (4 bits each, numbers 0 to 9: bits 0-39) and up to four other arms (an empty, closed or
 * double-awaiting side of the spinner: bits 40-63, 6 bits each holding code + 1, ascending), where an
 * arm's code is ``number * 4 + state`` as in Python. A state's open arms are canonical
 * (:c:func:`canonical`): no more of a number than the tiles still held with it. The table is
 * bounded: buckets of four 48-byte slots holding the whole state (no false hit), starting small and
 * doubling while three quarters full up to its bound; at its bound an entry replaces the one of the
 * bucket with the fewest tiles still held (the least work behind it).
 */
/* This file is the CPython binding: it parses the arguments, calls the kernel (``_arms_kernel.c``, whose interface
 * ``_arms_kernel.h`` declares; no Python there) and builds the results. The kernel's other binding is
 * ``_arms_wasm.c``, the standalone WebAssembly module. */
#include "_binding.h"
#include "_arms_kernel.h"

#define MAXSEATS ARMS_MAXSEATS

typedef struct {
    PyObject_HEAD
    PyObject *leaf;
    ArmsSearch k;
} ArmSearch;

/* The Python leaf value of a finished hand, for the kernel (``ArmsLeafFn``): -1 with an exception set. */
static int python_leaf(void *ctx, const uint64_t *h, int n, int term, int s, uint64_t bit, int *value) {
    PyObject *hands = PyTuple_New(n);
    if (hands == NULL) return -1;
    for (int t = 0; t < n; t++) {
        PyObject *x = PyLong_FromUnsignedLongLong(h[t]);
        if (x == NULL) { Py_DECREF(hands); return -1; }
        PyTuple_SET_ITEM(hands, t, x);
    }
    PyObject *r = PyObject_CallFunction((PyObject *)ctx, "NsiK", hands, term == 0 ? "domino" : "blocked", s,
                                        (unsigned long long)bit);
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

static int seats_of(PyObject *seq, int n, int *out, int lo, int hi, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (f == NULL) return -1;
    int bad = PySequence_Fast_GET_SIZE(f) != n;
    for (int s = 0; s < n && !bad; s++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, s));
        if (PyErr_Occurred() || v < lo || v > hi) bad = 1;
        else out[s] = (int)v;
    }
    Py_DECREF(f);
    if (bad) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: one value a seat", what);
        return -1;
    }
    return 0;
}

static int ArmSearch_init(ArmSearch *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"n", "max_pip", "french", "branch", "maximiser", "opponent", "scoring", "param",
                             "sides", "leaf", "entries", "described", "leader", NULL};
    PyObject *maximiser, *opponent, *sides, *leaf_fn, *described = Py_None;
    int n, max_pip, french, branch, scoring, param, leader = 0;
    unsigned long long entries;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iippOOiiOOK|Oi", kwlist, &n, &max_pip, &french, &branch,
                                     &maximiser, &opponent, &scoring, &param, &sides, &leaf_fn, &entries,
                                     &described, &leader))
        return -1;
    if (n < 2 || n > MAXSEATS) {
        PyErr_SetString(PyExc_ValueError, "the compiled search seats two to four players");
        return -1;
    }
    if (scoring == ARMS_SCORE_CALLER && !PyCallable_Check(leaf_fn)) {
        PyErr_SetString(PyExc_ValueError, "scoring: 0 (two sides), 1 (bad points), 2 with a callable leaf or 3 with "
                        "a described scoring; leader: a seat");
        return -1;
    }
    LeafScoring sc;
    if (scoring == ARMS_SCORE_DESCRIBED && described != Py_None && leaf_parse(described, &sc) < 0) return -1;
    int maxi[MAXSEATS], opp[MAXSEATS], side[MAXSEATS];
    if (seats_of(maximiser, n, maxi, 0, 1, "maximiser") < 0 || seats_of(opponent, n, opp, 0, n - 1, "opponent") < 0
        || seats_of(sides, n, side, 0, 1, "sides") < 0)
        return -1;
    if (arms_init(&self->k, n, max_pip, french, branch, maxi, opp, scoring, param, side,
                  scoring == ARMS_SCORE_CALLER ? python_leaf : NULL, leaf_fn,
                  entries, scoring == ARMS_SCORE_DESCRIBED && described != Py_None ? &sc : NULL, leader) < 0) {
        kernel_raise(self->k.err_kind, self->k.err_text);
        return -1;
    }
    Py_XDECREF(self->leaf);
    self->leaf = NULL;
    if (scoring == ARMS_SCORE_CALLER) { Py_INCREF(leaf_fn); self->leaf = leaf_fn; }
    return 0;
}

/* The hands (a tuple, one a seat) and arm codes (a tuple) of a call into ``h`` and ``arms``; their count of arms, or
 * -1 with an exception set. */
static int read_state(ArmSearch *self, PyObject *hands, PyObject *arms, uint64_t *h, int *codes, int most,
                      const char *what) {
    if (PyTuple_GET_SIZE(hands) != self->k.n || PyTuple_GET_SIZE(arms) > most) {
        PyErr_SetString(PyExc_ValueError, what);
        return -1;
    }
    for (int t = 0; t < self->k.n; t++) {
        h[t] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(hands, t));
        if (PyErr_Occurred()) return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(arms); i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(arms, i));
        if (c == -1 && PyErr_Occurred()) return -1;
        codes[i] = c < 0 ? -1 : c > 4 * ARMS_MAXNUM ? 4 * ARMS_MAXNUM : (int)c;    /* (out of the set either way) */
    }
    return (int)PyTuple_GET_SIZE(arms);
}

/* search(hands, arms, seat, alpha, beta, budget) -> (value, nodes): ``arms`` the sorted Python codes;
 * value None when the search needed more than ``budget`` positions. */
static PyObject *ArmSearch_search(ArmSearch *self, PyObject *args) {
    PyObject *hands, *arms;
    int s, alpha, beta, v;
    long long budget;
    if (!PyArg_ParseTuple(args, "O!O!iiiL", &PyTuple_Type, &hands, &PyTuple_Type, &arms, &s, &alpha, &beta,
                          &budget))
        return NULL;
    uint64_t h[MAXSEATS] = {0}, nodes;
    int codes[4 + 15 * ARMS_MAXNUM + 1];
    int narms = read_state(self, hands, arms, h, codes, 4 + 15 * ARMS_MAXNUM + 1,
                           "one hand a seat, and the seat to move among them");
    if (narms < 0) return NULL;
    int got = arms_search(&self->k, h, codes, narms, s, alpha, beta, budget, &v, &nodes);
    if (got < 0) return kernel_raise(self->k.err_kind, self->k.err_text);
    if (got == 1) return Py_BuildValue("OK", Py_None, (unsigned long long)nodes);
    return Py_BuildValue("iK", v, (unsigned long long)nodes);
}

/* line(hands, arms, seat, value, limit, spent) -> (steps, positions, after): the principal variation from a state
 * (``arms``: the position's arm codes in its order) whose side-0 value is ``value`` to the end of the hand, as
 * ``TreeSearch.best_line`` plays it (``arm_line``): each choice's probes at most ``limit`` positions, the first
 * choice's ``spent`` of them already. ``steps``: ``(seat, tile, number, arm)`` each (``arm_step``), None past the
 * limit; ``positions``: those of the last choice probed; ``after``: the value of the state its move left (None: no
 * choice was probed). */
static PyObject *ArmSearch_line(ArmSearch *self, PyObject *args) {
    PyObject *hands, *arms;
    long long limit, spent;
    int s, value, probed, after;
    if (!PyArg_ParseTuple(args, "O!O!iiLL", &PyTuple_Type, &hands, &PyTuple_Type, &arms, &s, &value, &limit, &spent))
        return NULL;
    uint64_t h[MAXSEATS] = {0}, nodes;
    int codes[ARMS_MAXARMS], room[ARMS_MAX_STEPS][4];
    int narms = read_state(self, hands, arms, h, codes, ARMS_MAXARMS, "one hand a seat, the seat to move among "
                           "them, at most 64 arms, a value in the search's range");
    if (narms < 0) return NULL;
    ArmsSteps steps = {room, 0};
    int got = arms_line(&self->k, h, codes, narms, s, value, limit, spent, &steps, &nodes, &probed, &after);
    if (got < 0) return kernel_raise(self->k.err_kind, self->k.err_text);
    PyObject *out;
    if (got == 1) {
        out = Py_NewRef(Py_None);
    } else {
        out = PyList_New(steps.count);
        for (int i = 0; out != NULL && i < steps.count; i++) {
            PyObject *x = Py_BuildValue("(iiii)", room[i][0], room[i][1], room[i][2], room[i][3]);
            if (x == NULL) Py_CLEAR(out);
            else PyList_SET_ITEM(out, i, x);
        }
        if (out == NULL) return NULL;
    }
    if (!probed) return Py_BuildValue("NKO", out, (unsigned long long)nodes, Py_None);
    return Py_BuildValue("NKi", out, (unsigned long long)nodes, after);
}

TABLE_GETTER(ArmSearch, nbytes, WAYS * self->k.buckets * sizeof(ArmsEntry))
TABLE_GETTER(ArmSearch, max_entries, WAYS * self->k.max_buckets)
TABLE_GETTER(ArmSearch, used, self->k.used)
TABLE_GETTER(ArmSearch, replaced, self->k.replaced)

LEAF_SEARCH_GC(ArmSearch, ArmSearch, arms_free)

static PyMethodDef ArmSearch_methods[] = {
    {"search", (PyCFunction)ArmSearch_search, METH_VARARGS,
     "search(hands, arms, seat, alpha, beta, budget) -> (value or None past the budget, positions visited)"},
    {"line", (PyCFunction)ArmSearch_line, METH_VARARGS,
     "line(hands, arms, seat, value, limit, spent) -> (the principal variation's steps or None past the limit, "
     "positions of the last choice probed, the value its move left or None)"},
    {NULL}
};

static PyGetSetDef ArmSearch_getset[] = {
    TABLE_GETSET(ArmSearch, nbytes, "The memory of the table's slots now, in bytes."),
    TABLE_GETSET(ArmSearch, max_entries, "The slots the table may grow to."),
    TABLE_GETSET(ArmSearch, used, "The slots holding an entry."),
    TABLE_GETSET(ArmSearch, replaced, "Entries that pushed out an entry of another state."),
    {NULL}
};

static PyTypeObject ArmSearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "analyzer.search._arms.ArmSearch",
    .tp_doc = PyDoc_STR("ArmSearch(n, max_pip, french, branch, maximiser, opponent, scoring, param, sides, leaf, "
                        "entries): one deal of a layout with arms and its bounded table."),
    .tp_basicsize = sizeof(ArmSearch),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)ArmSearch_init,
    .tp_dealloc = (destructor)ArmSearch_dealloc,
    .tp_traverse = (traverseproc)ArmSearch_traverse,
    .tp_clear = (inquiry)ArmSearch_clear,
    .tp_methods = ArmSearch_methods,
    .tp_getset = ArmSearch_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "analyzer.search._arms",
    "The compiled search over layouts with arms (see analyzer/search/tree.py, _ArmDeal).", -1, NULL,
};

PyMODINIT_FUNC PyInit__arms(void) {
    if (PyType_Ready(&ArmSearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "ArmSearch", (PyObject *)&ArmSearchType) < 0
        || PyModule_AddIntConstant(m, "ENTRY_BYTES", (long)sizeof(ArmsEntry)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
