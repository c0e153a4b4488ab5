/* The compiled search of two-ended draw games in a fixed boneyard order, of All Fives and of Hungarian's runs:
 * the ``_DrawDeal`` of analyzer/search/draw.py in C.
 *
 * Same state, same forced draws and passes, same moves in the same order, same leaf values and table
 * entries as the pure-Python search (read ``_DrawDeal`` first): a call of ``DrawSearch.search`` returns
 * the side-0 value of one position, fail-soft in its window, and the choices it visited, counted as the
 * Python search counts them, so that a node limit stops both at the same place. One type:
 *
 * ``DrawSearch(n, max_pip, order, limit, until, scores, maximiser, described, leaf, entries, leader, bound, run)``: one
 *   deal's search and its transposition table. ``order``: the boneyard's tiles (bit masks) in the order
 *   they are drawn; ``limit``: how many of them may be drawn (the rest stay); ``until``: a player who
 *   cannot play draws until he can (else one tile a turn). ``scores``: -1 no points during play, else
 *   the All Fives count (bit 0: multiples of three score too; bit 1: the pub count). ``described``: the
 *   scoring as ``LeafScoring.ints()`` (analyzer/search/scoring.py), each finished hand valued by
 *   ``_leaf.h`` (``leader`` led the hand), as the block and arms cores do; None: ``leaf(hands,
 *   termination, seat, bit, before_left, before_right)`` in Python for every finished hand. ``bound``:
 *   None, or ``(fixed, most)`` (``scoring.value_bound``): no value passes ``most`` either way, plus unless
 *   ``fixed`` the pips of every hand and of the tiles still to be drawn; a choice whose window lies beyond
 *   it returns the bound at once, uncounted. ``run`` (Hungarian): after a tile its player moves again while his hand
 *   fits an end, a player whose hand is empty passes while the others play on, and a hand nobody can play on is
 *   ``domino`` for the lowest seat whose hand is empty, if any (``over_value``).
 *
 * ``DrawSearch.line(hands, left, right, ..., value, limit, spent)``: the principal variation from one state to the end
 *   of the hand, as ``TreeSearch.best_line`` plays it (``line_rest``, shared with ``worlds``).
 *
 * ``DrawSearch.ends(hands, left, right, ..., value, values, limit)``: where the principal variation from one state, or
 *   after each of its choices, ends (each hand, the last tile, what each seat scored), without its steps.
 *
 * ``DrawSearch.worlds(hands, orders, mover, draws, roots, limit, lines=False)``: every world of one decision
 *   (each one's hands and boneyard order) valued in one call, each with the table back at its starting size (so
 *   each is searched as by a search of its own: the same positions and values), each root move as
 *   ``TreeSearch.values`` values it (its points, then MTD(f) from the last value found); with ``lines`` (All
 *   Fives, Hungarian) also each root move's principal variation in each world, played out from the table its values left
 *   as ``TreeSearch.best_line`` plays it (``root_line``); see analyzer/search/drawworlds.py.
 *
 * The state of a choice: every seat's hand (a 64-bit mask), the open ends (left, right; sorted where
 * nothing is scored during play), the shape of the ends (bit 0: the left end's tile is a double, bit 1:
 * the right's, bit 2: the lead lies alone), the seat to move, the draws taken, whether the opener may
 * add a tile to his lead, and the seat that laid the last tile. The table is bounded: open addressing
 * (a state's run of slots from its home slot), each slot holding the whole state (no false hit), at
 * most three quarters full, doubling up to its bound, so that below it no entry is lost (as in the
 * Python dict); at its bound an entry replaces the one among the first four of its run with the fewest
 * tiles still held (the least work behind it).
 */
/* This file is the CPython binding: it parses the arguments, calls the kernel (``_draw_kernel.c``, whose interface
 * ``_draw_kernel.h`` declares; no Python there) and builds the results. The kernel's other binding is
 * ``_draw_wasm.c``, the standalone WebAssembly module. */
#include "_binding.h"
#include "_draw_kernel.h"

#define INF DRAW_INF
#define SEATS DRAW_SEATS
#define CHOICES DRAW_CHOICES

typedef struct {
    PyObject_HEAD
    PyObject *leaf;
    DrawSearch k;
} DrawSearchObject;

/* The Python leaf value of a finished hand, for the kernel (``DrawLeafFn``): -1 with an exception set. */
static int python_leaf(void *ctx, const uint64_t *h, int n, int term, int seat, uint64_t bit, int before_left,
                       int before_right, int *value) {
    PyObject *hands = PyTuple_New(n);
    if (hands == NULL) return -1;
    for (int t = 0; t < n; t++) {
        PyObject *x = PyLong_FromUnsignedLongLong(h[t]);
        if (x == NULL) { Py_DECREF(hands); return -1; }
        PyTuple_SET_ITEM(hands, t, x);
    }
    PyObject *r = PyObject_CallFunction((PyObject *)ctx, "NsiKii", hands, term == 0 ? "domino" : "blocked", seat,
                                        (unsigned long long)bit, before_left, before_right);
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

static PyObject *search_raise(DrawSearchObject *self) {
    return kernel_raise(self->k.err_kind, self->k.err_text);
}

static int ints_of(PyObject *seq, int count, int *out, int lo, int hi, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (f == NULL) return -1;
    int bad = count >= 0 && PySequence_Fast_GET_SIZE(f) != count;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(f) && !bad; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (PyErr_Occurred() || v < lo || v > hi) bad = 1;
        else out[i] = (int)v;
    }
    Py_DECREF(f);
    if (bad) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: values out of range", what);
        return -1;
    }
    return 0;
}

static int DrawSearch_init(DrawSearchObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"n", "max_pip", "order", "limit", "until", "scores", "maximiser", "described", "leaf",
                             "entries", "leader", "bound", "run", NULL};
    PyObject *order, *maximiser, *described, *leaf_fn, *bound = Py_None;
    int n, max_pip, limit, until, scores, leader, fixed = 0, most = -1, run = 0;
    unsigned long long entries;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOiiiOOOKi|Op", kwlist, &n, &max_pip, &order, &limit, &until,
                                     &scores, &maximiser, &described, &leaf_fn, &entries, &leader, &bound, &run))
        return -1;
    if (bound != Py_None && !PyArg_ParseTuple(bound, "pi", &fixed, &most)) return -1;
    if (n < 2 || n > SEATS) {
        PyErr_SetString(PyExc_ValueError, "the compiled search seats two to four players (the leader one of them), "
                        "sets up to double-nine");
        return -1;
    }
    PyObject *f = PySequence_Fast(order, "order");
    if (f == NULL) return -1;
    Py_ssize_t norder = PySequence_Fast_GET_SIZE(f);
    uint64_t tiles[DRAW_TILES];
    if (norder > DRAW_TILES) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "order: more tiles than the set");
        return -1;
    }
    for (Py_ssize_t i = 0; i < norder; i++) {
        tiles[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(f, i));
        if (PyErr_Occurred()) { Py_DECREF(f); return -1; }
    }
    Py_DECREF(f);
    int python_leaves = described == Py_None;
    if (python_leaves && !PyCallable_Check(leaf_fn)) {
        PyErr_SetString(PyExc_ValueError, "scoring: a described scoring (LeafScoring.ints()) or a callable leaf");
        return -1;
    }
    LeafScoring sc;
    if (!python_leaves && leaf_parse(described, &sc) < 0) return -1;
    int maxi[SEATS];
    if (ints_of(maximiser, n, maxi, 0, 1, "maximiser") < 0) return -1;
    if (draw_init(&self->k, n, max_pip, tiles, (int)norder, limit, until, scores, maxi, python_leaves ? NULL : &sc,
                  python_leaves ? python_leaf : NULL, leaf_fn, entries, leader, bound != Py_None, fixed, most,
                  run) < 0) {
        search_raise(self);
        return -1;
    }
    Py_XDECREF(self->leaf);
    self->leaf = NULL;
    if (python_leaves) { Py_INCREF(leaf_fn); self->leaf = leaf_fn; }
    return 0;
}

/* The hands of a state (a tuple, one a seat) into ``h``: 0, or -1 with an error set. */
static int hands_in(DrawSearchObject *self, PyObject *hands, uint64_t *h) {
    if (PyTuple_GET_SIZE(hands) != self->k.n) {
        PyErr_SetString(PyExc_ValueError, "a state out of the deal: one hand a seat, ends and seats in range");
        return -1;
    }
    memset(h, 0, sizeof(uint64_t) * SEATS);
    for (int t = 0; t < self->k.n; t++) {
        h[t] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(hands, t));
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

/* search(hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left,
 * before_right, alpha, beta, budget) -> (value, positions): value None past the budget. */
static PyObject *DrawSearch_search(DrawSearchObject *self, PyObject *args) {
    PyObject *hands;
    DrawState st;
    int alpha, beta, v;
    long long budget;
    uint64_t h[SEATS], nodes;
    if (!PyArg_ParseTuple(args, "O!iiiiiiiiiiiiiiL", &PyTuple_Type, &hands, &st.left, &st.right, &st.shape, &st.seat,
                          &st.drawn, &st.k, &st.passes, &st.offer, &st.last.seat, &st.last.bit, &st.last.before_left,
                          &st.last.before_right, &alpha, &beta, &budget))
        return NULL;
    if (hands_in(self, hands, h) < 0) return NULL;
    st.hands = h;
    int got = draw_search(&self->k, &st, alpha, beta, budget, &v, &nodes);
    if (got < 0) return search_raise(self);
    if (got == 1) return Py_BuildValue("OK", Py_None, (unsigned long long)nodes);
    return Py_BuildValue("iK", v, (unsigned long long)nodes);
}

/* A line's steps (``DrawSteps``) as a list of ``(seat, tile, end, arm, points)``; NULL on an error. */
static PyObject *steps_list(const DrawSteps *st) {
    PyObject *out = PyList_New(st->count);
    for (int i = 0; out != NULL && i < st->count; i++) {
        const int *x = st->step[i];
        PyObject *y = Py_BuildValue("(iiiii)", x[0], x[1], x[2], x[3], x[4]);
        if (y == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, y);
    }
    return out;
}

/* line(hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left, before_right,
 * value, limit, spent) -> (steps, positions, after, before_left, before_right): the principal variation from a state
 * (``left``, ``right``: the ends as they lie in the position; the rest as ``search`` takes it) whose side-0 value is
 * ``value`` to the end of the hand, as ``TreeSearch.best_line`` plays it (``line_rest``): each choice's probes at most
 * ``limit`` positions, the first choice's ``spent`` of them already. ``steps`` as ``line_append`` gives them, None
 * past the limit;
 * ``positions``: those of the last choice probed; ``after``: the value of the state its move left (None: no choice
 * was probed); ``before_left``, ``before_right``: the ends as they lay before the last tile laid (-1, -1: before the
 * lead). */
static PyObject *DrawSearch_line(DrawSearchObject *self, PyObject *args) {
    PyObject *hands;
    DrawState st;
    int value, probed, after, ends[2];
    long long limit, spent;
    uint64_t h[SEATS], nodes;
    if (!PyArg_ParseTuple(args, "O!iiiiiiiiiiiiiLL", &PyTuple_Type, &hands, &st.left, &st.right, &st.shape, &st.seat,
                          &st.drawn, &st.k, &st.passes, &st.offer, &st.last.seat, &st.last.bit, &st.last.before_left,
                          &st.last.before_right, &value, &limit, &spent))
        return NULL;
    if (hands_in(self, hands, h) < 0) return NULL;
    st.hands = h;
    int (*room)[5] = PyMem_Malloc(sizeof(int[DRAW_MAX_STEPS][5]));
    if (room == NULL) return PyErr_NoMemory();
    DrawSteps steps = {room, 0};
    int got = draw_line(&self->k, &st, value, limit, spent, &steps, &nodes, &probed, &after, ends);
    PyObject *out = got < 0 ? NULL : got == 1 ? Py_NewRef(Py_None) : steps_list(&steps);
    PyMem_Free(room);
    if (got < 0) return search_raise(self);
    if (out == NULL) return NULL;
    if (!probed) return Py_BuildValue("NKOii", out, (unsigned long long)nodes, Py_None, ends[0], ends[1]);
    return Py_BuildValue("NKiii", out, (unsigned long long)nodes, after, ends[0], ends[1]);
}

/* The end of a line (``DrawEnd``) as ``ends`` gives it: ``(hands..., last_seat, last_tile, before_left, before_right,
 * points...)``, or None. */
static PyObject *end_tuple(const DrawEnd *e, int n) {
    if (!e->found) return Py_NewRef(Py_None);
    PyObject *out = PyTuple_New(2 * n + 4);
    if (out == NULL) return NULL;
    for (int t = 0; t < n; t++) {
        PyObject *x = PyLong_FromUnsignedLongLong(e->h[t]), *p = PyLong_FromLong(e->points[t]);
        if (x == NULL || p == NULL) { Py_XDECREF(x); Py_XDECREF(p); Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, t, x);
        PyTuple_SET_ITEM(out, n + 4 + t, p);
    }
    for (int i = 0; i < 4; i++) {
        PyObject *x = PyLong_FromLong(e->last[i]);
        if (x == NULL) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, n + i, x);
    }
    return out;
}

/* ends(hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left, before_right,
 * value, values, limit) -> the end of the principal variation from a state (as ``line`` takes it) whose side-0 value is
 * ``value``, as ``line`` plays it, without its steps: ``(hands..., last_seat, last_tile, before_left, before_right,
 * points...)``, each seat's hand at the end, the last tile laid and the ends before it (-1, -1: before the lead), what
 * each seat scored during play along the line (for himself); None past the limit at a choice or where no move reaches
 * the value. ``values`` (None: the line from the state): a list with one side-0 value (or None) for each choice of the
 * seat to move, in the order of ``Position.legal_moves`` (``legal_choices``: ValueError for another count), each the
 * value of the state that choice leaves with the points it scores: a list of the end of each choice's line (None where
 * its value is None). */
static PyObject *DrawSearch_ends(DrawSearchObject *self, PyObject *args) {
    PyObject *hands, *values;
    DrawState st;
    int value;
    long long limit;
    uint64_t h[SEATS];
    if (!PyArg_ParseTuple(args, "O!iiiiiiiiiiiiiOL", &PyTuple_Type, &hands, &st.left, &st.right, &st.shape, &st.seat,
                          &st.drawn, &st.k, &st.passes, &st.offer, &st.last.seat, &st.last.bit, &st.last.before_left,
                          &st.last.before_right, &value, &values, &limit))
        return NULL;
    if (hands_in(self, hands, h) < 0) return NULL;
    st.hands = h;
    DrawEnd ends[CHOICES];
    if (values == Py_None) {
        if (draw_ends(&self->k, &st, value, -1, NULL, NULL, limit, ends) < 0) return search_raise(self);
        return end_tuple(ends, self->k.n);
    }
    PyObject *f = PySequence_Fast(values, "values");
    if (f == NULL) return NULL;
    Py_ssize_t nv = PySequence_Fast_GET_SIZE(f);
    int nc = nv > CHOICES ? CHOICES + 1 : (int)nv, vals[CHOICES + 1];
    uint8_t has[CHOICES + 1];
    for (int c = 0; c < nc && c < CHOICES; c++) {
        PyObject *v = PySequence_Fast_GET_ITEM(f, c);
        long x = v == Py_None ? 0 : PyLong_AsLong(v);
        if (x == -1 && PyErr_Occurred()) { Py_DECREF(f); return NULL; }
        has[c] = v != Py_None && x <= MAX_VALUE && x >= -MAX_VALUE;
        vals[c] = has[c] ? (int)x : 0;
    }
    Py_DECREF(f);
    if (draw_ends(&self->k, &st, value, nc, has, vals, limit, ends) < 0) {
        if (self->k.err_kind == K_VALUE && strncmp(self->k.err_text, "ends:", 5) == 0)
            return PyErr_Format(PyExc_ValueError, "ends: %d choices, not %zd values", self->k.err_count, nv);
        return search_raise(self);
    }
    PyObject *out = PyList_New(nc);
    for (int c = 0; out != NULL && c < nc; c++) {
        PyObject *end = end_tuple(ends + c, self->k.n);
        if (end == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, c, end);
    }
    return out;
}

static int roots_of(PyObject *seq, DrawRoot *out, int most) {
    PyObject *f = PySequence_Fast(seq, "roots");
    if (f == NULL) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(f);
    if (count < 1 || count > most) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "roots: one to CHOICES moves");
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        int v[13];
        if (ints_of(PySequence_Fast_GET_ITEM(f, i), 13, v, -INF, INF, "a root") < 0) { Py_DECREF(f); return -1; }
        DrawRoot r = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], {v[9], v[10], v[11], v[12]}};
        out[i] = r;
    }
    Py_DECREF(f);
    return (int)count;
}

static int masks_of(PyObject *seq, Py_ssize_t count, uint64_t *out, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (f == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(f) != count) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s: %zd masks expected", what, count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(f, i));
        if (PyErr_Occurred()) { Py_DECREF(f); return -1; }
    }
    Py_DECREF(f);
    return 0;
}

/* worlds(hands, orders, mover, draws, roots, limit, lines=False) -> (rows, over): see ``DrawWorlds`` in
 * drawworlds.py. ``lines`` (points during play only: the ends lie as the position has them): also each root's
 * principal variation in each world, from the table its values left (``root_line``): ``(rows, over, lines)``,
 * ``lines`` a list per world of each root's steps and the ends before its last tile (None: past ``limit`` positions
 * at a choice). */
static PyObject *DrawSearch_worlds(DrawSearchObject *self, PyObject *args) {
    PyObject *hands, *orders, *roots;
    int mover, k, want = 0;
    long long limit;
    if (!PyArg_ParseTuple(args, "OOiiOL|p", &hands, &orders, &mover, &k, &roots, &limit, &want)) return NULL;
    int n = self->k.n, (*room)[5] = NULL;
    DrawRoot rs[CHOICES];
    int nr = roots_of(roots, rs, CHOICES);
    if (nr < 0) return NULL;
    if (draw_worlds_check(&self->k, mover, k, nr, rs) < 0) return search_raise(self);
    PyObject *hs = PySequence_Fast(hands, "hands"), *os = PySequence_Fast(orders, "orders");
    if (hs == NULL || os == NULL) { Py_XDECREF(hs); Py_XDECREF(os); return NULL; }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(hs);
    PyObject *rows = PyList_New(0), *lines = want ? PyList_New(0) : NULL;
    int over = 0;
    if (want && (lines == NULL || (room = PyMem_Malloc(sizeof(int[DRAW_MAX_STEPS][5]))) == NULL)) {
        if (lines != NULL) PyErr_NoMemory();
        goto fail;
    }
    if (rows == NULL || PySequence_Fast_GET_SIZE(os) != count) {
        if (rows != NULL) PyErr_SetString(PyExc_ValueError, "one order a world");
        goto fail;
    }
    for (Py_ssize_t w = 0; w < count && !over; w++) {
        uint64_t h0[SEATS] = {0}, order[DRAW_TILES];
        int values[CHOICES], rest[CHOICES];
        if (masks_of(PySequence_Fast_GET_ITEM(hs, w), n, h0, "a world's hands") < 0
            || masks_of(PySequence_Fast_GET_ITEM(os, w), self->k.norder, order, "a world's order") < 0)
            goto fail;
        int got = draw_world(&self->k, h0, order, mover, k, nr, rs, limit, values, rest);
        if (got < 0) {
            search_raise(self);
            goto fail;
        }
        if (got == 1) {
            over = 1;
            break;
        }
        PyObject *row = PyList_New(nr);
        for (int i = 0; row != NULL && i < nr; i++) {
            PyObject *x = PyLong_FromLong(values[i]);
            if (x == NULL) Py_CLEAR(row);
            else PyList_SET_ITEM(row, i, x);
        }
        if (row == NULL) goto fail;
        PyObject *found = want ? PyList_New(nr) : NULL;
        for (int i = 0; found != NULL && i < nr; i++) {
            DrawSteps steps = {room, 0};
            int ends[2];
            int r = draw_root_line(&self->k, h0, mover, rs + i, k, rest[i], limit, &steps, ends);
            PyObject *x = r < 0 ? search_raise(self) : r == 1 ? Py_NewRef(Py_None)
                          : Py_BuildValue("(Nii)", steps_list(&steps), ends[0], ends[1]);
            if (x == NULL) Py_CLEAR(found);
            else PyList_SET_ITEM(found, i, x);
        }
        if (want && (found == NULL || PyList_Append(lines, found) < 0)) {
            Py_XDECREF(found);
            Py_DECREF(row);
            goto fail;
        }
        Py_XDECREF(found);
        if (PyList_Append(rows, row) < 0) {
            Py_DECREF(row);
            goto fail;
        }
        Py_DECREF(row);
    }
    Py_DECREF(hs);
    Py_DECREF(os);
    PyMem_Free(room);
    if (lines != NULL) return Py_BuildValue("NON", rows, over ? Py_True : Py_False, lines);
    return Py_BuildValue("NO", rows, over ? Py_True : Py_False);
fail:
    PyMem_Free(room);
    Py_XDECREF(rows);
    Py_XDECREF(lines);
    Py_XDECREF(hs);
    Py_XDECREF(os);
    return NULL;
}

TABLE_GETTER(DrawSearchObject, nbytes, self->k.size * sizeof(DrawSlot))
TABLE_GETTER(DrawSearchObject, used, self->k.used)
TABLE_GETTER(DrawSearchObject, replaced, self->k.replaced)

LEAF_SEARCH_GC(DrawSearchObject, DrawSearch, draw_free)

static PyMethodDef DrawSearch_methods[] = {
    {"search", (PyCFunction)DrawSearch_search, METH_VARARGS,
     "search(hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left, "
     "before_right, alpha, beta, budget) -> (value or None past the budget, positions visited)"},
    {"line", (PyCFunction)DrawSearch_line, METH_VARARGS,
     "line(hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left, "
     "before_right, value, limit, spent) -> (the principal variation's steps or None past the limit, positions of "
     "the last choice probed, the value its move left or None)"},
    {"ends", (PyCFunction)DrawSearch_ends, METH_VARARGS,
     "ends(hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left, "
     "before_right, value, values, limit) -> the end of the principal variation from the state (values None), or of "
     "each choice's after it (values: each choice's value): (hands..., last_seat, last_tile, before_left, "
     "before_right, points...) or None"},
    {"worlds", (PyCFunction)DrawSearch_worlds, METH_VARARGS,
     "worlds(hands, orders, mover, draws, roots, limit, lines=False) -> (each world's value of every root move, past "
     "the limit[, each root's principal variation in each world and the ends before its last tile]): every world of one decision, each with a fresh "
     "table and at most limit positions (see DrawWorlds)"},
    {NULL}
};

static PyGetSetDef DrawSearch_getset[] = {
    TABLE_GETSET(DrawSearchObject, nbytes, "The memory of the table's slots now, in bytes."),
    TABLE_GETSET(DrawSearchObject, used, "The slots holding an entry."),
    TABLE_GETSET(DrawSearchObject, replaced, "Entries that pushed out an entry of another state."),
    {NULL}
};

static PyTypeObject DrawSearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "analyzer.search._draw.DrawSearch",
    .tp_doc = PyDoc_STR("DrawSearch(n, max_pip, order, limit, until, scores, maximiser, described, leaf, "
                        "entries, leader, bound=None, run=False): one deal of a draw game (or All Fives, or "
                        "Hungarian's runs) and its bounded table."),
    .tp_basicsize = sizeof(DrawSearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)DrawSearch_init,
    .tp_dealloc = (destructor)DrawSearch_dealloc,
    .tp_traverse = (traverseproc)DrawSearch_traverse,
    .tp_clear = (inquiry)DrawSearch_clear,
    .tp_methods = DrawSearch_methods,
    .tp_getset = DrawSearch_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "analyzer.search._draw",
    "The compiled search of draw games in a fixed boneyard order and of All Fives (see analyzer/search/draw.py).",
    -1, NULL,
};

PyMODINIT_FUNC PyInit__draw(void) {
    if (PyType_Ready(&DrawSearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "DrawSearch", (PyObject *)&DrawSearchType) < 0
        || PyModule_AddIntConstant(m, "ENTRY_BYTES", (long)sizeof(DrawSlot)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
