/* The compiled CFR+ iteration of the public-tree solver (analyzer/hidden/cfr.py).
 *
 * ``Run(hand0, hand1, nh0, nh1, player, child_at, child, term_at, term_deal, term_value, iset_at, iset_hand, slot,
 *   legal, size, alive_at0, alive0, alive_at1, alive1, parent0, parent1, forced_set, forced_move)``: a run over a
 *   flattened public tree (the arrays of cfr.py's ``PublicTree``: 32-bit ints, but the hands' indices in
 *   ``iset_hand``, ``alive0`` and ``alive1``, 16 bits unsigned; ``term_value`` doubles, ``legal`` a bit a slot in
 *   bytes; as ``CFR_ITEMS`` says; read in place, held until the run is gone; ``parent0`` and ``parent1`` empty where no tile is drawn), with
 *   information set ``forced_set`` held to its move ``forced_move`` (-1: none). Its methods:
 *   ``iterate(count)`` (iterations), ``force(forced_set, forced_move)`` (another set held to a move from now on, -1:
 *   none; the regrets kept as a warm start, the average strategy and the iteration count begun again), ``bracket()``
 *   (the certified ``(lower, upper)`` from both players' exact best responses against the averages), ``hand_values()`` (each maximiser's hand's weighted value with both
 *   playing their averages, a list), ``average()`` (the average strategy's sums by slot: ``bytes`` of native doubles,
 *   8 a slot, read as ``memoryview(...).cast("d")``) and ``set_average(i, width)`` (the same of information set ``i``
 *   alone, by its node's ``width`` moves: what a decision reads); ``threads(n)`` (the threads its walks may take, 1
 *   by default: ``cfr_threads``); ``held()`` (the bytes its set-up allocated beyond the tree's arrays: ``cfr_held``).
 *   ``iterate`` and ``bracket`` release the GIL while they run. The pure-Python twin is cfr.py's ``_PyRun``.
 * ``RangeRun(mask0, mask1, weight0, weight1, player, child_at, child, played0, played1, alive_at0, alive0, alive_at1,
 *   alive1, term_at0, term_hand0, term_class0, term_at1, term_hand1, term_class1, table_at, width, table, iset_at,
 *   iset_hand, slot, legal, draw_at, draw_child, draw_parent, size, forced_set, forced_move)``: the same over a range
 *   tree (analyzer/hidden/ranges.py's ``RangeTree``; ``weight0``, ``weight1`` and ``table`` doubles, the hands'
 *   indices 16 bits, the terminal hands' classes bytes, ``legal`` a bit a slot: ``RANGE_ITEMS``; the three draw
 *   arrays empty where no tile is drawn), with the same methods; its twin is ``RangePyRun``.
 */
/* This file is the CPython binding: it holds the buffers (the kernel reads the tree's arrays in place and never writes
 * them; held, an ``array`` cannot be resized under it), calls the kernel (``_cfr_kernel.c``, whose interface
 * ``_cfr_kernel.h`` declares; no Python there) and builds the results. Both types are one object (a run of either form
 * of the tree) with one set of methods; only their set-up differs. */
#include "../search/_binding.h"
#include "_cfr_kernel.h"
#include "_ranges_kernel.h"

#include <time.h>

/* A run of either form (``Run``: ``run.cfr``, ``RangeRun``: ``run.range``; both begin with their ``CfrWalk``), with the
 * buffers of the tree's arrays it reads. */
typedef struct {
    PyObject_HEAD
    union {
        CfrWalk w;
        CfrRun cfr;
        RangeRun range;
    } run;
    Py_buffer held[32];
    int nheld, ready;
} RunObject;

static void run_dealloc(RunObject *self) {
    if (self->ready) cfr_free(&self->run.w);
    for (int k = 0; k < self->nheld; k++) PyBuffer_Release(&self->held[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ``obj``'s buffer of ``itemsize``-byte items, held by the run until it is gone (its items read in place, never
 * written); its item count in ``*count``; NULL with an exception set where it is not such a buffer. */
static const void *held(RunObject *self, PyObject *obj, Py_ssize_t itemsize, Py_ssize_t *count, const char *name) {
    static const int64_t none[1] = {0};            /* (an empty array's buffer may be NULL) */
    Py_buffer *b = &self->held[self->nheld];
    if (PyObject_GetBuffer(obj, b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (b->itemsize != itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: items of %zd bytes, not %zd", name, itemsize, b->itemsize);
        PyBuffer_Release(b);
        return NULL;
    }
    self->nheld++;
    *count = b->len / itemsize;
    return b->len && b->buf != NULL ? b->buf : (const void *)none;
}

/* The arrays of a set-up (``count`` of them, ``o``) held: ``p`` each one's items, ``n`` their count; -1 with an
 * exception set where one is not an array of its items (``items``: each one's bytes an item, a digit each). */
static int hold_all(RunObject *self, int count, PyObject **o, const char *const *names, const char *items,
                    void **p, int64_t *n) {
    if (self->ready || self->nheld) {
        PyErr_SetString(PyExc_TypeError, "a run is set up once");
        return -1;
    }
    for (int k = 0; k < count; k++) {
        Py_ssize_t count;
        const void *at = held(self, o[k], items[k] - '0', &count, names[k]);
        if (at == NULL) return -1;
        p[k] = (void *)at;                         /* (the kernel's tree types read them through const pointers) */
        n[k] = count;
    }
    return 0;
}

/* The kernel's set-up's answer: 0, or -1 with its error raised. */
static int set_up(RunObject *self, int kind, const char *err) {
    if (kind != K_OK) {
        kernel_raise(kind, err);
        return -1;
    }
    self->ready = 1;
    return 0;
}

static int run_init(RunObject *self, PyObject *args, PyObject *kwds) {
    PyObject *o[CFR_ARRAYS];
    int nh0, nh1, size, forced_set, forced_move;
    if (!PyArg_ParseTuple(args, "OOiiOOOOOOOOOOiOOOOOOii", &o[0], &o[1], &nh0, &nh1, &o[2], &o[3], &o[4], &o[5],
                          &o[6], &o[7], &o[8], &o[9], &o[10], &o[11], &size, &o[12], &o[13], &o[14], &o[15], &o[16],
                          &o[17], &forced_set, &forced_move))
        return -1;
    static const char *const names[CFR_ARRAYS] = {
        "hand0", "hand1", "player", "child_at", "child", "term_at", "term_deal", "term_value", "iset_at", "iset_hand",
        "slot", "legal", "alive_at0", "alive0", "alive_at1", "alive1", "parent0", "parent1"};
    void *p[CFR_ARRAYS];
    int64_t n[CFR_ARRAYS];
    CfrTree t;
    const char *err = NULL;
    if (hold_all(self, CFR_ARRAYS, o, names, CFR_ITEMS, p, n) < 0) return -1;
    int kind = cfr_tree(&t, p, n, nh0, nh1, size, &err);
    if (kind == K_OK) kind = cfr_init(&self->run.cfr, &t, forced_set, forced_move, &err);
    return set_up(self, kind, err);
}

static int range_init_py(RunObject *self, PyObject *args, PyObject *kwds) {
    PyObject *o[RANGE_ARRAYS];
    int size, forced_set, forced_move;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOOOOOOOOOOOOOOiii", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &o[6], &o[7], &o[8], &o[9], &o[10], &o[11], &o[12], &o[13], &o[14], &o[15], &o[16], &o[17],
                          &o[18], &o[19], &o[20], &o[21], &o[22], &o[23], &o[24], &o[25], &o[26], &o[27], &o[28],
                          &size, &forced_set, &forced_move))
        return -1;
    static const char *const names[RANGE_ARRAYS] = {
        "mask0", "mask1", "weight0", "weight1", "player", "child_at", "child", "played0", "played1", "alive_at0",
        "alive0", "alive_at1", "alive1", "term_at0", "term_hand0", "term_class0", "term_at1", "term_hand1",
        "term_class1", "table_at", "width", "table", "iset_at", "iset_hand", "slot", "legal", "draw_at", "draw_child",
        "draw_parent"};
    void *p[RANGE_ARRAYS];
    int64_t n[RANGE_ARRAYS];
    RangeTree t;
    const char *err = NULL;
    if (hold_all(self, RANGE_ARRAYS, o, names, RANGE_ITEMS, p, n) < 0) return -1;
    int kind = range_tree(&t, p, n, size, &err);
    if (kind == K_OK) kind = range_init(&self->run.range, &t, forced_set, forced_move, &err);
    return set_up(self, kind, err);
}

static int ready(RunObject *self) {
    if (!self->ready) PyErr_SetString(PyExc_ValueError, "a run not set up");
    return self->ready;
}

static PyObject *run_iterate(RunObject *self, PyObject *args) {
    long long count;
    if (!ready(self) || !PyArg_ParseTuple(args, "L", &count)) return NULL;
    Py_BEGIN_ALLOW_THREADS
    cfr_iterate(&self->run.w, count);
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

static PyObject *run_force(RunObject *self, PyObject *args) {
    int forced_set, forced_move, keep = 0;
    if (!ready(self) || !PyArg_ParseTuple(args, "ii|p", &forced_set, &forced_move, &keep)) return NULL;
    const char *err = NULL;
    int kind = cfr_force(&self->run.w, forced_set, forced_move, keep, &err);
    if (kind != K_OK) {
        kernel_raise(kind, err);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *run_bracket(RunObject *self, PyObject *noargs) {
    if (!ready(self)) return NULL;
    double up, low;
    Py_BEGIN_ALLOW_THREADS
    up = cfr_best(&self->run.w, 0);
    low = cfr_best(&self->run.w, 1);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(dd)", low, up);
}

static PyObject *doubles(const double *v, Py_ssize_t n) {
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *x = PyFloat_FromDouble(v[k]);
        if (x == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, x);
    }
    return out;
}

static PyObject *run_hand_values(RunObject *self, PyObject *noargs) {
    if (!ready(self)) return NULL;
    double *out = PyMem_Malloc(sizeof(double) * ((size_t)self->run.w.m.nh[0] + 1));
    if (out == NULL) return PyErr_NoMemory();
    cfr_hand_values(&self->run.w, out);
    PyObject *res = doubles(out, self->run.w.m.nh[0]);
    PyMem_Free(out);
    return res;
}

static PyObject *run_average(RunObject *self, PyObject *noargs) {
    if (!ready(self)) return NULL;
    Py_ssize_t size = self->run.w.m.size;
    PyObject *res = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)sizeof(double) * size);
    if (res == NULL) return NULL;
    char *at = PyBytes_AS_STRING(res);
    if ((uintptr_t)at % _Alignof(double) == 0) {      /* (written in place: no second copy of a large average) */
        cfr_average(&self->run.w, (double *)at);
        return res;
    }
    double *out = PyMem_Malloc(sizeof(double) * ((size_t)size + 1));
    if (out == NULL) {
        Py_DECREF(res);
        return PyErr_NoMemory();
    }
    cfr_average(&self->run.w, out);
    memcpy(at, out, sizeof(double) * (size_t)size);
    PyMem_Free(out);
    return res;
}

static PyObject *run_threads(RunObject *self, PyObject *args) {
    int threads;
    if (!ready(self) || !PyArg_ParseTuple(args, "i", &threads)) return NULL;
    return PyLong_FromLong(cfr_threads(&self->run.w, threads));
}

static PyObject *run_held(RunObject *self, PyObject *noargs) {
    if (!ready(self)) return NULL;
    return PyLong_FromLongLong((long long)cfr_held(&self->run.w));
}

static PyObject *run_set_average(RunObject *self, PyObject *args) {
    int i, width;
    if (!ready(self) || !PyArg_ParseTuple(args, "ii", &i, &width)) return NULL;
    if (width < 0) {
        PyErr_SetString(PyExc_ValueError, "a negative count of moves");
        return NULL;
    }
    double *out = PyMem_Malloc(sizeof(double) * ((size_t)width + 1));
    if (out == NULL) return PyErr_NoMemory();
    const char *err = NULL;
    int kind = cfr_set_average(&self->run.w, i, width, out, &err);
    PyObject *res = kind == K_OK ? PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)sizeof(double) * width)
                                 : (kernel_raise(kind, err), NULL);
    PyMem_Free(out);
    return res;
}

static PyMethodDef run_methods[] = {
    {"iterate", (PyCFunction)run_iterate, METH_VARARGS, "Run CFR+ iterations."},
    {"force", (PyCFunction)run_force, METH_VARARGS,
     "Hold an information set to a move from now on (-1: none), the regrets kept, the average begun again."},
    {"bracket", (PyCFunction)run_bracket, METH_NOARGS, "The certified (lower, upper) of the game value."},
    {"hand_values", (PyCFunction)run_hand_values, METH_NOARGS,
     "Each maximiser's hand's value under the averages (times its weight)."},
    {"average", (PyCFunction)run_average, METH_NOARGS, "The average strategy's sums by slot: bytes of native doubles."},
    {"threads", (PyCFunction)run_threads, METH_VARARGS,
     "The threads a walk may take (1: one; the values are the same whatever they are): the depth it splits at."},
    {"set_average", (PyCFunction)run_set_average, METH_VARARGS,
     "One information set's average strategy's sums by its node's moves: bytes of native doubles."},
    {"held", (PyCFunction)run_held, METH_NOARGS,
     "The bytes the run's set-up allocated beyond the tree's arrays (one thread's): what memory() counts for them."},
    {NULL, NULL, 0, NULL},
};

#define RUN_TYPE(name, init, doc) { \
    PyVarObject_HEAD_INIT(NULL, 0) \
    .tp_name = "analyzer.hidden._cfr." name, .tp_basicsize = sizeof(RunObject), .tp_flags = Py_TPFLAGS_DEFAULT, \
    .tp_doc = doc, .tp_new = PyType_GenericNew, .tp_init = (initproc)(init), .tp_dealloc = (destructor)run_dealloc, \
    .tp_methods = run_methods}

static PyTypeObject RunTypes[2] = {
    RUN_TYPE("Run", run_init, "A CFR+ run over a flattened public tree (see the module's comment)."),
    RUN_TYPE("RangeRun", range_init_py, "A CFR+ run over a range tree (analyzer/hidden/ranges.py)."),
};

static double cpu_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* ``build(mask0, mask1, state, scoring, norm, budget, max_nodes, max_bytes)``: the range tree's build
 * (``_ranges_kernel.h``) of the hands ``mask0``, ``mask1`` (buffers of 64-bit tile masks) from ``state`` (``RB_STATE``
 * ints) valued by ``scoring`` (``LeafScoring.ints()``) times ``norm``: ``(arrays, size)``, ``arrays`` a tuple of bytes
 * (``RB_PLAYER``... in order, ``RB_ITEMS`` bytes an item), or None past ``budget`` CPU seconds (< 0: none) or
 * ``max_nodes`` nodes (< 0: none); MemoryError past ``max_bytes`` bytes of its arrays and the least a run of them
 * needs (``rb_bytes``; 0 or less: none; the text ``RB_TOO_LARGE``). The GIL is released while it builds. */
static PyObject *build_py(PyObject *mod, PyObject *args) {
    PyObject *o[2], *state, *scoring;
    double norm, budget;
    long long max_nodes, max_bytes;
    if (!PyArg_ParseTuple(args, "OOOOddLL", &o[0], &o[1], &state, &scoring, &norm, &budget, &max_nodes, &max_bytes))
        return NULL;
    RangeBuild b;
    memset(&b, 0, sizeof(b));
    if (leaf_parse(scoring, &b.sc) < 0) return NULL;
    PyObject *seq = PySequence_Fast(state, "state must be a sequence of ints");
    if (seq == NULL) return NULL;
    int bad = PySequence_Fast_GET_SIZE(seq) != RB_STATE;
    for (int k = 0; k < RB_STATE && !bad; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (v == -1 && PyErr_Occurred()) bad = 1;
        b.state[k] = (int32_t)v;
    }
    Py_DECREF(seq);
    if (bad) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "state: %d ints", RB_STATE);
        return NULL;
    }
    Py_buffer buf[2];
    for (int r = 0; r < 2; r++) {
        if (PyObject_GetBuffer(o[r], &buf[r], PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
            if (r) PyBuffer_Release(&buf[0]);
            return NULL;
        }
        if (buf[r].itemsize != 8) {
            PyErr_SetString(PyExc_ValueError, "masks: items of 8 bytes");
            for (int k = 0; k <= r; k++) PyBuffer_Release(&buf[k]);
            return NULL;
        }
        b.mask[r] = buf[r].buf;
        b.nh[r] = (int32_t)(buf[r].len / 8);
    }
    b.norm = norm;
    b.budget = budget;
    b.clock = budget >= 0 ? cpu_seconds : NULL;
    b.max_nodes = max_nodes;
    b.max_bytes = max_bytes;
    int kind;
    Py_BEGIN_ALLOW_THREADS
    kind = rb_build(&b);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf[0]);
    PyBuffer_Release(&buf[1]);
    PyObject *res = NULL;
    if (kind == RB_TOO_LONG) {
        res = Py_NewRef(Py_None);
    } else if (kind == K_MEMORY && b.err_text != NULL && strcmp(b.err_text, RB_TOO_LARGE) == 0) {
        PyErr_SetString(PyExc_MemoryError, RB_TOO_LARGE);       /* (past its cap, not out of memory: said so) */
    } else if (kind != K_OK) {
        kernel_raise(kind, b.err_text);
    } else {
        rb_free_scratch(&b);
        PyObject *arrays = PyTuple_New(RB_ARRAYS);
        for (int k = 0; arrays != NULL && k < RB_ARRAYS; k++) {
            PyObject *x = PyBytes_FromStringAndSize(b.out[k].v, (Py_ssize_t)(b.out[k].n * b.out[k].item));
            free(b.out[k].v);                   /* (each freed once copied: the build's peak is its arrays and a copy
                                                   of the largest, not two copies of them all) */
            b.out[k].v = NULL;
            if (x == NULL) Py_CLEAR(arrays);
            else PyTuple_SET_ITEM(arrays, k, x);
        }
        if (arrays != NULL) res = Py_BuildValue("(NL)", arrays, (long long)b.size);
    }
    rb_free(&b);
    return res;
}

static PyMethodDef module_methods[] = {
    {"build", build_py, METH_VARARGS, "The range tree's build (analyzer/hidden/_ranges_kernel.h)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "analyzer.hidden._cfr",
    "The compiled CFR+ iteration of the public-tree solver (analyzer/hidden/cfr.py) and its range tree's build.", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__cfr(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    for (int k = 0; k < 2; k++) {
        const char *name = k == 0 ? "Run" : "RangeRun";
        if (PyType_Ready(&RunTypes[k]) < 0 || PyModule_AddObjectRef(m, name, (PyObject *)&RunTypes[k]) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
