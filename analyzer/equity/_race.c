/* The compiled loop of the race solver: the sweeps of analyzer/equity/race.py's equations in C.
 *
 * A race (a match of individual players to a target of points or bad points) is solved over dense arrays:
 * a position is a grid point (every player's running score, in the variant's score step) and a lead (an
 * index into the driver's list of leads), numbered ``g * leads + l`` with the grid row-major, player 0 most
 * significant. Nothing here knows the match's rules: the driver (race.py) asked the match code, once per
 * distinct new totals, where a hand's totals take the match, and hands in ``answers``: per cell of the
 * *box* of totals (each player's grid score plus a hand's scores), the grid point the match goes on at
 * (>= 0) or ``-1 - t``, the finished match's chances ``terminals[t * sides ...]``. A result of a hand led
 * from lead ``l`` is ``probs[r]`` (its chance), ``offsets[r]`` (its scores as a step in the box's index)
 * and ``next_lead[r]``, for ``r`` in ``starts[l] .. starts[l + 1]``.
 *
 * ``sweep(sides, leads, grid, box, starts, probs, offsets, next_lead, answers, terminals, active, values,
 *   tol, max_sweeps)``: Gauss-Seidel sweeps, highest grid point first (one sweep is exact where scores
 *   only grow), over the positions ``active`` marks, until no chance moves by more than ``tol``; a
 *   position's own loop (a hand that leaves the match where it was) is solved in place, ``v = rest / (1 -
 *   stay)``, and a position no hand can leave is a drawn match (1/sides each). ``values`` (``sides``
 *   doubles a position) holds the first guess and receives the chances. Returns ``(sweeps, change)``.
 *   Swept a block of rows at a time (``sweep_blocks``): a result that the match code sends into its own block at
 *   other scores than its new totals reads the block's chances of the sweep before (such positions are the loops
 *   ``back`` marks, solved before the last, exact sweep).
 *
 * ``close(leads, grid, box, starts, offsets, next_lead, answers, active)``: marks in ``active`` every
 *   position a marked one leads to (breadth first); returns how many it marked.
 *
 * ``back(leads, grid, box, starts, offsets, next_lead, answers, active, loops)``: marks in ``loops`` every
 *   position a hand may take the match to from a position numbered above it: the grid points where the
 *   match goes on at other scores than a cell's new totals (a tie past the target shifted back), and where
 *   a hand leaves the scores and passes the lead to one numbered below; with all they lead to, the only
 *   positions a sweep from the top does not solve exactly. Returns ``(marked, outside)``: ``outside``
 *   counts the cells whose answer is a grid point ``active`` does not mark (then ``close`` it first).
 *
 * ``live(leads, grid, box, answers, active)``: marks in ``active`` every lead of each grid point whose own
 *   totals the match code answered with the point itself (a running score the match can be at); returns
 *   how many positions it marked.
 *
 * ``reached(leads, grid, box, starts, offsets, cells)``: marks in ``cells`` (a byte a cell of the box) every
 *   grid point's own totals and its totals after every result; returns how many cells are marked: the
 *   new totals the match code must be asked about.
 *
 * ``find(block, columns, n)``: in an unpacked block of a compact MWC table (store.py: ``columns`` sequences of
 *   as many signed 32-bit little-endian integers, each its first number and the differences of the next ones;
 *   the first the scores as one number, ascending), the other columns' numbers at the position whose scores
 *   are ``n``: a tuple, None where the block has no such position. The twin is store.py's (``accumulate``).
 *
 * ``one_hand(answers, terminals, active, values, box, coords, base, leads, steps, next_lead, probs)``: every
 *   player's chance one hand from the grid point at ``coords`` (its box cell ``base``): each result ``r`` (its
 *   score steps ``steps[r * sides ...]``, the next lead's index ``next_lead[r]``, its chance ``probs[r]``) weighed
 *   by the chances where it leaves the match (a finished match's, or the active position's), added up in the
 *   results' order: a tuple, None where a result leaves the box, meets a cell the match code was not asked about
 *   or a position not solved. The twin is race.py's ``RaceValues.one_hand``.
 *
 * ``between(answers, terminals, active, values, grid, box, step, leads, scores, next_lead, probs, fixed)``: on a
 *   coarser lattice (``step`` points a lattice step), every player's chance one hand from a position whose
 *   results' running scores are real, not on the lattice: each result ``r`` either ends the match (``scores[r *
 *   sides]`` < 0: its chances are ``fixed[r * sides ...]``) or goes on at the running scores ``scores[r * sides
 *   ...]`` led by ``next_lead[r]``, weighed from the surrounding lattice points (each score split between its two
 *   neighbours, the mean kept: the weight ``1 - rest / step`` below, ``rest / step`` above, a split of weight 0
 *   left out; the corners in order, player 0 most significant; a corner not solved takes the finished match
 *   where the match code answered one); ``probs[r]`` times that, added up in the results' order: a tuple,
 *   None where a corner lies off the lattice or is neither solved nor a finished match. The same sums in the
 *   same order as race.py's ``RaceValues.between`` and its twin, the walk's (``table.solve_each``). With ``base``
 *   (a tuple, the position's running scores), each ``scores`` row that does not end the match is what the result
 *   adds to them (``RaceValues.after_added``: one array a lead, not one a position).
 *
 * ``undiff(numbers, dims)`` and ``place(numbers, values, leads, sides, quantum)``: a solved race shipped packed
 *   (shipped.py) unpacked: the running sums of its differences, its chances put in place (see each below).
 *
 * ``sweep``, ``close``, ``back`` and ``reached`` release the GIL while they run. The pure-Python twin is ``race.py``'s ``_PySweeps``.
 */
/* This file is the CPython binding: it reads the buffers and tuples, calls the kernel (``_race_kernel.c``, whose
 * interface ``_race_kernel.h`` declares; no Python there) and builds the results. The kernel's other binding is
 * ``_race_wasm.c``, the standalone WebAssembly module. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_race_kernel.h"

#define MAX_SIDES RACE_MAX_SIDES

typedef RaceShape Shape;

/* A kernel's error raised; NULL. */
static PyObject *raised(int kind, const char *text) {
    if (kind == K_MEMORY) return PyErr_NoMemory();
    PyErr_SetString(PyExc_ValueError, text);
    return NULL;
}

static int shape_of(PyObject *grid, PyObject *box, int sides, int leads, Shape *sh) {
    if (!PyTuple_Check(grid) || !PyTuple_Check(box) || PyTuple_GET_SIZE(grid) != PyTuple_GET_SIZE(box)
        || PyTuple_GET_SIZE(grid) < 1 || PyTuple_GET_SIZE(grid) > MAX_SIDES) {
        PyErr_SetString(PyExc_ValueError, "grid and box: tuples of the same length, 1 to 8");
        return -1;
    }
    int dims = (int)PyTuple_GET_SIZE(grid);
    int64_t g[MAX_SIDES], b[MAX_SIDES];
    for (int k = 0; k < dims; k++) {
        g[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(grid, k));
        b[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(box, k));
        if (PyErr_Occurred())
            return -1;
    }
    const char *err;
    int kind = race_shape(sh, sides, leads, dims, g, b, &err);
    if (kind != K_OK) {
        raised(kind, err);
        return -1;
    }
    return 0;
}

typedef struct { Py_buffer b; int held; } Buf;

static int get(PyObject *obj, Buf *buf, Py_ssize_t itemsize, Py_ssize_t count, int writable, const char *name) {
    if (PyObject_GetBuffer(obj, &buf->b, writable ? PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    buf->held = 1;
    if (buf->b.len < itemsize * count) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, at least %zd wanted", name, buf->b.len, itemsize * count);
        return -1;
    }
    return 0;
}

static void release(Buf *bufs, int n) {
    for (int i = 0; i < n; i++)
        if (bufs[i].held)
            PyBuffer_Release(&bufs[i].b);
}

/* The hands' results every loop over them reads: ``starts``, ``offsets``, ``next_lead`` and ``answers``, the
 * objects ``objs[at[0..3]]`` into ``bufs[at[0..3]]``, checked (``race_check_results``); ``*results``: how many. */
static int get_results(PyObject **objs, Buf *bufs, const int at[4], const Shape *sh, Py_ssize_t *results) {
    if (get(objs[at[0]], &bufs[at[0]], 8, sh->leads + 1, 0, "starts") < 0)
        return -1;
    *results = ((int64_t *)bufs[at[0]].b.buf)[sh->leads];
    if (get(objs[at[1]], &bufs[at[1]], 8, *results, 0, "offsets") < 0
        || get(objs[at[2]], &bufs[at[2]], 4, *results, 0, "next_lead") < 0
        || get(objs[at[3]], &bufs[at[3]], 4, sh->cells, 0, "answers") < 0)
        return -1;
    const char *err;
    int kind = race_check_results(sh, bufs[at[0]].b.buf, bufs[at[2]].b.buf, bufs[at[3]].b.buf, *results, &err);
    if (kind != K_OK) {
        raised(kind, err);
        return -1;
    }
    return 0;
}

static PyObject *sweep(PyObject *self, PyObject *args) {
    int sides, leads, max_sweeps;
    double tol;
    PyObject *grid, *box, *objs[8];
    if (!PyArg_ParseTuple(args, "iiOOOOOOOOOOdi", &sides, &leads, &grid, &box, &objs[0], &objs[1], &objs[2],
                          &objs[3], &objs[4], &objs[5], &objs[6], &objs[7], &tol, &max_sweeps))
        return NULL;
    Shape sh;
    if (shape_of(grid, box, sides, leads, &sh) < 0)
        return NULL;
    Buf bufs[8];
    memset(bufs, 0, sizeof bufs);
    PyObject *out = NULL;
    Py_ssize_t results;
    static const int at[4] = {0, 2, 3, 4};
    if (get_results(objs, bufs, at, &sh, &results) < 0
        || get(objs[1], &bufs[1], 8, results, 0, "probs") < 0 || get(objs[5], &bufs[5], 8, 0, 0, "terminals") < 0
        || get(objs[6], &bufs[6], 1, sh.positions, 0, "active") < 0
        || get(objs[7], &bufs[7], 8, sh.positions * sides, 1, "values") < 0)
        goto done;
    const char *err = NULL;
    int done_sweeps = 0, kind;
    double change = 0.0;
    Py_BEGIN_ALLOW_THREADS
    kind = race_sweep(&sh, bufs[0].b.buf, bufs[1].b.buf, bufs[2].b.buf, bufs[3].b.buf, bufs[4].b.buf, results,
                      bufs[5].b.buf, bufs[5].b.len / (8 * sides), bufs[6].b.buf, bufs[7].b.buf, tol, max_sweeps,
                      &done_sweeps, &change, &err);
    Py_END_ALLOW_THREADS
    out = kind != K_OK ? raised(kind, err) : Py_BuildValue("(id)", done_sweeps, change);
done:
    release(bufs, 8);
    return out;
}

static PyObject *close_(PyObject *self, PyObject *args) {
    int leads;
    PyObject *grid, *box, *objs[5];
    if (!PyArg_ParseTuple(args, "iOOOOOOO", &leads, &grid, &box, &objs[0], &objs[1], &objs[2], &objs[3], &objs[4]))
        return NULL;
    Shape sh;
    if (shape_of(grid, box, 1, leads, &sh) < 0)
        return NULL;
    Buf bufs[5];
    memset(bufs, 0, sizeof bufs);
    PyObject *out = NULL;
    Py_ssize_t results;
    static const int at[4] = {0, 1, 2, 3};
    if (get_results(objs, bufs, at, &sh, &results) < 0 || get(objs[4], &bufs[4], 1, sh.positions, 1, "active") < 0)
        goto done;
    const char *err = NULL;
    rsize marked = 0;
    int kind;
    Py_BEGIN_ALLOW_THREADS
    kind = race_close(&sh, bufs[0].b.buf, bufs[1].b.buf, bufs[2].b.buf, bufs[3].b.buf, results, bufs[4].b.buf, &marked,
                      &err);
    Py_END_ALLOW_THREADS
    out = kind != K_OK ? raised(kind, err) : PyLong_FromSsize_t(marked);
done:
    release(bufs, 5);
    return out;
}

static PyObject *back(PyObject *self, PyObject *args) {
    int leads;
    PyObject *grid, *box, *objs[6];
    if (!PyArg_ParseTuple(args, "iOOOOOOOO", &leads, &grid, &box, &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5]))
        return NULL;
    Shape sh;
    if (shape_of(grid, box, 1, leads, &sh) < 0)
        return NULL;
    Buf bufs[6];
    memset(bufs, 0, sizeof bufs);
    PyObject *out = NULL;
    Py_ssize_t results;
    static const int at[4] = {0, 1, 2, 3};
    if (get_results(objs, bufs, at, &sh, &results) < 0 || get(objs[4], &bufs[4], 1, sh.positions, 0, "active") < 0
        || get(objs[5], &bufs[5], 1, sh.positions, 1, "loops") < 0)
        goto done;
    rsize marked = 0, outside = 0;
    Py_BEGIN_ALLOW_THREADS
    race_back(&sh, bufs[0].b.buf, bufs[1].b.buf, bufs[2].b.buf, bufs[3].b.buf, bufs[4].b.buf, bufs[5].b.buf, &marked,
              &outside);
    Py_END_ALLOW_THREADS
    out = Py_BuildValue("(nn)", (Py_ssize_t)marked, (Py_ssize_t)outside);
done:
    release(bufs, 6);
    return out;
}

static PyObject *reached(PyObject *self, PyObject *args) {
    int leads;
    PyObject *grid, *box, *objs[3];
    if (!PyArg_ParseTuple(args, "iOOOOO", &leads, &grid, &box, &objs[0], &objs[1], &objs[2]))
        return NULL;
    Shape sh;
    if (shape_of(grid, box, 1, leads, &sh) < 0)
        return NULL;
    Buf bufs[3];
    memset(bufs, 0, sizeof bufs);
    PyObject *out = NULL;
    if (get(objs[0], &bufs[0], 8, leads + 1, 0, "starts") < 0)
        goto done;
    Py_ssize_t results = ((int64_t *)bufs[0].b.buf)[leads];
    if (get(objs[1], &bufs[1], 8, results, 0, "offsets") < 0 || get(objs[2], &bufs[2], 1, sh.cells, 1, "cells") < 0)
        goto done;
    const char *err = NULL;
    rsize marked = 0;
    int kind;
    Py_BEGIN_ALLOW_THREADS
    kind = race_reached(&sh, bufs[1].b.buf, results, bufs[2].b.buf, &marked, &err);
    Py_END_ALLOW_THREADS
    out = kind != K_OK ? raised(kind, err) : PyLong_FromSsize_t(marked);
done:
    release(bufs, 3);
    return out;
}

static PyObject *live(PyObject *self, PyObject *args) {
    int leads;
    PyObject *grid, *box, *objs[2];
    if (!PyArg_ParseTuple(args, "iOOOO", &leads, &grid, &box, &objs[0], &objs[1]))
        return NULL;
    Shape sh;
    if (shape_of(grid, box, 1, leads, &sh) < 0)
        return NULL;
    Buf bufs[2];
    memset(bufs, 0, sizeof bufs);
    PyObject *out = NULL;
    if (get(objs[0], &bufs[0], 4, sh.cells, 0, "answers") < 0 || get(objs[1], &bufs[1], 1, sh.positions, 1, "active") < 0)
        goto done;
    const char *err = NULL;
    rsize marked = 0;
    int kind = race_live(&sh, bufs[0].b.buf, bufs[1].b.buf, &marked, &err);
    out = kind != K_OK ? raised(kind, err) : PyLong_FromSsize_t(marked);
done:
    release(bufs, 2);
    return out;
}

static PyObject *find(PyObject *self, PyObject *args) {
    Py_buffer block;
    int columns;
    long long n;
    if (!PyArg_ParseTuple(args, "y*iL", &block, &columns, &n)) return NULL;
    if (columns < 1 || block.len % (4 * (Py_ssize_t)columns)) {
        PyBuffer_Release(&block);
        PyErr_SetString(PyExc_ValueError, "find: a block of columns of 32-bit numbers");
        return NULL;
    }
    int64_t *found = PyMem_Malloc(sizeof(int64_t) * (size_t)columns);
    if (found == NULL) {
        PyBuffer_Release(&block);
        return PyErr_NoMemory();
    }
    PyObject *out;
    if (!race_find(block.buf, block.len / (4 * columns), columns, n, found)) {
        out = Py_NewRef(Py_None);
    } else {
        out = PyTuple_New(columns - 1);
        for (int k = 1; out != NULL && k < columns; k++) {
            PyObject *num = PyLong_FromLongLong(found[k - 1]);
            if (num == NULL) Py_CLEAR(out);
            else PyTuple_SET_ITEM(out, k - 1, num);
        }
    }
    PyMem_Free(found);
    PyBuffer_Release(&block);
    return out;
}

/* ``n`` chances as a tuple of floats (NULL on an error): one_hand's and between's answer. */
static PyObject *chances_tuple(const double *sum, int n) {
    PyObject *out = PyTuple_New(n);
    for (int k = 0; out != NULL && k < n; k++) {
        PyObject *f = PyFloat_FromDouble(sum[k]);
        if (f == NULL) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, k, f);
    }
    return out;
}

/* one_hand's buffers: each of ``count`` items of ``size`` bytes (count -1: any count), else an error naming it. */
static int take(PyObject *obj, Py_buffer *view, Py_ssize_t size, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    if (view->len % size) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "one_hand: %s is no array of %zd-byte items", name, size);
        return -1;
    }
    return 0;
}

static PyObject *one_hand(PyObject *self, PyObject *args) {
    PyObject *objs[4], *box, *coords, *rs[3];
    Py_ssize_t base;
    int leads;
    if (!PyArg_ParseTuple(args, "OOOOO!O!niOOO", &objs[0], &objs[1], &objs[2], &objs[3], &PyTuple_Type, &box,
                          &PyTuple_Type, &coords, &base, &leads, &rs[0], &rs[1], &rs[2]))
        return NULL;
    int n = (int)PyTuple_GET_SIZE(box);
    if (n < 1 || n > MAX_SIDES || PyTuple_GET_SIZE(coords) != n || leads < 1) {
        PyErr_SetString(PyExc_ValueError, "one_hand: box and coords of the same length, 1 to 8; leads >= 1");
        return NULL;
    }
    rsize b[MAX_SIDES], x[MAX_SIDES];
    for (int k = 0; k < n; k++) {
        b[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(box, k));
        x[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(coords, k));
    }
    if (PyErr_Occurred()) return NULL;
    Py_buffer v[7];
    const char *names[7] = {"answers", "terminals", "active", "values", "steps", "next_lead", "probs"};
    Py_ssize_t sizes[7] = {4, 8, 1, 8, 4, 4, 8};
    PyObject *all[7] = {objs[0], objs[1], objs[2], objs[3], rs[0], rs[1], rs[2]};
    int got = 0;
    for (; got < 7; got++)
        if (take(all[got], &v[got], sizes[got], names[got]) < 0) break;
    PyObject *out = NULL;
    if (got == 7) {
        double sum[MAX_SIDES];
        const char *err = NULL;
        int found = race_one_hand(v[0].buf, v[0].len / 4, v[1].buf, v[1].len / 8, v[2].buf, v[2].len, v[3].buf,
                                  v[3].len / 8, n, b, x, base, leads, v[4].buf, v[4].len / 4, v[5].buf, v[5].len / 4,
                                  v[6].buf, v[6].len / 8, sum, &err);
        out = found < 0 ? raised(K_VALUE, err) : found == 0 ? Py_NewRef(Py_None) : chances_tuple(sum, n);
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&v[i]);
    return out;
}

static PyObject *between(PyObject *self, PyObject *args) {
    PyObject *objs[4], *grid, *box, *rs[4], *base = Py_None;
    int step, leads;
    if (!PyArg_ParseTuple(args, "OOOOO!O!iiOOOO|O", &objs[0], &objs[1], &objs[2], &objs[3], &PyTuple_Type, &grid,
                          &PyTuple_Type, &box, &step, &leads, &rs[0], &rs[1], &rs[2], &rs[3], &base))
        return NULL;
    int n = (int)PyTuple_GET_SIZE(box);
    if (n < 1 || n > MAX_SIDES || PyTuple_GET_SIZE(grid) != n || leads < 1 || step < 1) {
        PyErr_SetString(PyExc_ValueError, "between: grid and box of the same length, 1 to 8; leads, step >= 1");
        return NULL;
    }
    rsize gs[MAX_SIDES], bs[MAX_SIDES];
    for (int k = 0; k < n; k++) {
        gs[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(grid, k));
        bs[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(box, k));
    }
    int32_t at[MAX_SIDES] = {0};
    if (base != Py_None) {
        if (!PyTuple_Check(base) || PyTuple_GET_SIZE(base) != n) {
            PyErr_SetString(PyExc_ValueError, "between: base is a tuple of one running score a player");
            return NULL;
        }
        for (int k = 0; k < n; k++) {
            long x = PyLong_AsLong(PyTuple_GET_ITEM(base, k));
            if (x < 0 || x > INT32_MAX / 2) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "between: base scores from 0");
                return NULL;
            }
            at[k] = (int32_t)x;
        }
    }
    if (PyErr_Occurred()) return NULL;
    Py_buffer v[8];
    const char *names[8] = {"answers", "terminals", "active", "values", "scores", "next_lead", "probs", "fixed"};
    Py_ssize_t sizes[8] = {4, 8, 1, 8, 4, 4, 8, 8};
    PyObject *all[8] = {objs[0], objs[1], objs[2], objs[3], rs[0], rs[1], rs[2], rs[3]};
    int got = 0;
    for (; got < 8; got++)
        if (take(all[got], &v[got], sizes[got], names[got]) < 0) break;
    PyObject *out = NULL;
    if (got == 8) {
        double sum[MAX_SIDES];
        const char *err = NULL;
        int found = race_between(v[0].buf, v[0].len / 4, v[1].buf, v[1].len / 8, v[2].buf, v[2].len, v[3].buf,
                                 v[3].len / 8, n, gs, bs, step, leads, v[4].buf, v[4].len / 4, v[5].buf, v[5].len / 4,
                                 v[6].buf, v[6].len / 8, v[7].buf, v[7].len / 8, base == Py_None ? NULL : at, sum,
                                 &err);
        out = found < 0 ? raised(K_VALUE, err) : found == 0 ? Py_NewRef(Py_None) : chances_tuple(sum, n);
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&v[i]);
    return out;
}

/* undiff(numbers, dims): in place, the numbers (32-bit integers, added modulo 2^32) whose differences along every
 * axis of ``dims`` (row-major, one block of ``prod(dims)`` numbers after another) ``numbers`` holds: a running sum
 * along each axis in turn (shipped.py's packed solved race; its twin ``shipped._undiff``) */
static PyObject *undiff(PyObject *self, PyObject *args) {
    PyObject *obj, *dims;
    if (!PyArg_ParseTuple(args, "OO!", &obj, &PyTuple_Type, &dims))
        return NULL;
    Py_ssize_t nd = PyTuple_GET_SIZE(dims), block = 1;
    rsize size[MAX_SIDES + 1];
    if (nd < 1 || nd > MAX_SIDES + 1) {
        PyErr_SetString(PyExc_ValueError, "dims: one to nine axes");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < nd; k++) {
        size[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(dims, k));
        if (size[k] < 1) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "dims: each axis at least 1");
            return NULL;
        }
        block *= size[k];
    }
    Py_buffer b;
    if (PyObject_GetBuffer(obj, &b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (b.len % (4 * block)) {
        PyBuffer_Release(&b);
        PyErr_SetString(PyExc_ValueError, "numbers: not a whole number of blocks of 32-bit integers");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    race_undiff(b.buf, b.len / 4, size, (int)nd);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    Py_RETURN_NONE;
}

/* place(numbers, values, leads, sides, quantum): each position's chances from ``numbers`` (32-bit integers, one
 * block of ``points`` a lead and player but the last, lead by lead): player ``s``'s ``numbers / quantum``, the last
 * player's 1 less the others' (``values``: ``sides`` doubles a position ``g * leads + l``); the twin is
 * ``shipped._place`` */
static PyObject *place(PyObject *self, PyObject *args) {
    PyObject *nobj, *vobj;
    int leads, sides;
    double quantum;
    if (!PyArg_ParseTuple(args, "OOiid", &nobj, &vobj, &leads, &sides, &quantum))
        return NULL;
    if (leads < 1 || sides < 2 || sides > MAX_SIDES || !(quantum > 0.0)) {
        PyErr_SetString(PyExc_ValueError, "leads, sides or quantum out of range");
        return NULL;
    }
    Py_buffer nb, vb;
    if (PyObject_GetBuffer(nobj, &nb, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (PyObject_GetBuffer(vobj, &vb, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&nb);
        return NULL;
    }
    Py_ssize_t positions = vb.len / (8 * sides), points = positions / leads;
    if (vb.len != positions * sides * 8 || positions != points * leads || nb.len != 4 * points * leads * (sides - 1)) {
        PyBuffer_Release(&nb);
        PyBuffer_Release(&vb);
        PyErr_SetString(PyExc_ValueError, "numbers and values do not match");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    race_place(nb.buf, vb.buf, leads, sides, points, quantum);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&nb);
    PyBuffer_Release(&vb);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"live", live, METH_VARARGS, "Mark every lead of the grid points the match can be at."},
    {"reached", reached, METH_VARARGS, "Mark every cell of the box of totals a grid point and a result reach."},
    {"sweep", sweep, METH_VARARGS, "Gauss-Seidel sweeps of a race's equations (see the module's comment)."},
    {"close", close_, METH_VARARGS, "Mark every position the marked ones lead to."},
    {"back", back, METH_VARARGS, "Mark the active positions that lead to one numbered below their own."},
    {"one_hand", one_hand, METH_VARARGS, "Every player's chance one hand from a grid point, the results given."},
    {"between", between, METH_VARARGS, "Every player's chance one hand from a position, weighed from a lattice."},
    {"find", find, METH_VARARGS, "The numbers at one position of an unpacked block of a compact MWC table."},
    {"undiff", undiff, METH_VARARGS, "In place, the numbers whose differences along every axis are given."},
    {"place", place, METH_VARARGS, "Each position's chances from a packed solved race's numbers."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "analyzer.equity._race",
    "The compiled loop of the race solver (analyzer/equity/race.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__race(void) {
    return PyModule_Create(&module);
}
