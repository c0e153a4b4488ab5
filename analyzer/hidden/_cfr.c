/* The compiled CFR+ iteration of the public-tree solver (analyzer/hidden/cfr.py).
 *
 * ``Run(hand0, hand1, nh0, nh1, player, child_at, child, term_at, term_deal, term_value, iset_at, iset_hand, slot,
 *   legal, size, alive_at0, alive0, alive_at1, alive1, forced_set, forced_move)``: a run over a flattened public tree
 *   (the arrays of cfr.py's ``PublicTree``: 32-bit ints, ``term_value`` doubles, ``legal`` bytes; copied), with
 *   information set ``forced_set`` held to its move ``forced_move`` (-1: none). Its methods:
 *   ``iterate(count)`` (CFR+ iterations), ``bracket()`` (the certified ``(lower, upper)`` from both players' exact
 *   best responses against the averages), ``hand_values()`` (each maximiser's hand's weighted value with both
 *   playing their averages, a list) and ``average()`` (the average strategy's sums by slot, a list).
 *   ``iterate`` and ``bracket`` release the GIL while they run. The pure-Python twin is cfr.py's ``_PyRun``.
 */
/* This file is the CPython binding: it copies the buffers, calls the kernel (``_cfr_kernel.c``, whose interface
 * ``_cfr_kernel.h`` declares; no Python there) and builds the results. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_cfr_kernel.h"

typedef struct {
    PyObject_HEAD
    CfrRun run;
    void *owned[20];
    int nowned, ready;
} RunObject;

static void run_dealloc(RunObject *self) {
    if (self->ready) cfr_free(&self->run);
    for (int k = 0; k < self->nowned; k++) PyMem_Free(self->owned[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A copy of ``obj``'s buffer of ``itemsize``-byte items into memory the run owns; its item count in ``*count``. */
static void *copied_into(void **owned, int *nowned, PyObject *obj, Py_ssize_t itemsize, Py_ssize_t *count,
                         const char *name) {
    Py_buffer b;
    if (PyObject_GetBuffer(obj, &b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (b.itemsize != itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: items of %zd bytes, not %zd", name, itemsize, b.itemsize);
        PyBuffer_Release(&b);
        return NULL;
    }
    void *out = PyMem_Malloc(b.len ? (size_t)b.len : 1);
    if (out == NULL) {
        PyBuffer_Release(&b);
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(out, b.buf, (size_t)b.len);
    *count = b.len / itemsize;
    PyBuffer_Release(&b);
    owned[(*nowned)++] = out;
    return out;
}

static void *copied(RunObject *self, PyObject *obj, Py_ssize_t itemsize, Py_ssize_t *count, const char *name) {
    return copied_into(self->owned, &self->nowned, obj, itemsize, count, name);
}

static int run_init(RunObject *self, PyObject *args, PyObject *kwds) {
    PyObject *o[19];
    int nh0, nh1, size, forced_set, forced_move;
    if (self->ready || self->nowned) {
        PyErr_SetString(PyExc_TypeError, "a Run is set up once");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "OOiiOOOOOOOOOOiOOOOii", &o[0], &o[1], &nh0, &nh1, &o[2], &o[3], &o[4], &o[5], &o[6],
                          &o[7], &o[8], &o[9], &o[10], &o[11], &size, &o[12], &o[13], &o[14], &o[15], &forced_set,
                          &forced_move))
        return -1;
    CfrTree t;
    Py_ssize_t n[16];
    static const char *names[] = {"hand0", "hand1", "player", "child_at", "child", "term_at", "term_deal",
                                  "term_value", "iset_at", "iset_hand", "slot", "legal", "alive_at0", "alive0",
                                  "alive_at1", "alive1"};
    void *p[16];
    for (int k = 0; k < 16; k++) {
        Py_ssize_t item = k == 7 ? 8 : k == 11 ? 1 : 4;
        p[k] = copied(self, o[k], item, &n[k], names[k]);
        if (p[k] == NULL) return -1;
    }
    t.hand[0] = p[0], t.hand[1] = p[1], t.player = p[2], t.child_at = p[3], t.child = p[4], t.term_at = p[5];
    t.term_deal = p[6], t.term_value = p[7], t.iset_at = p[8], t.iset_hand = p[9], t.slot = p[10], t.legal = p[11];
    t.alive_at[0] = p[12], t.alive[0] = p[13], t.alive_at[1] = p[14], t.alive[1] = p[15];
    t.nodes = (int32_t)n[2], t.deals = (int32_t)n[0], t.nh[0] = nh0, t.nh[1] = nh1, t.size = size;
    if (n[1] != n[0] || n[3] != n[2] + 1 || n[5] != n[2] + 1 || n[8] != n[2] + 1 || n[12] != n[2] + 1
        || n[14] != n[2] + 1 || n[6] != n[7] || n[9] != n[10] || n[11] < size || nh0 < 0 || nh1 < 0) {
        PyErr_SetString(PyExc_ValueError, "the tree's arrays do not fit together");
        return -1;
    }
    if (t.child_at[t.nodes] > n[4] || t.term_at[t.nodes] > n[6] || t.iset_at[t.nodes] > n[9]
        || t.alive_at[0][t.nodes] > n[13] || t.alive_at[1][t.nodes] > n[15] || t.child_at[0] < 0 || t.term_at[0] < 0
        || t.iset_at[0] < 0 || t.alive_at[0][0] < 0 || t.alive_at[1][0] < 0) {
        PyErr_SetString(PyExc_ValueError, "a node's list runs past its array");
        return -1;
    }
    const char *err;
    int kind = cfr_init(&self->run, &t, forced_set, forced_move, &err);
    if (kind == K_MEMORY) {
        PyErr_NoMemory();
        return -1;
    }
    if (kind != K_OK) {
        PyErr_SetString(PyExc_ValueError, err);
        return -1;
    }
    self->ready = 1;
    return 0;
}

static int ready(RunObject *self) {
    if (!self->ready) PyErr_SetString(PyExc_ValueError, "a Run not set up");
    return self->ready;
}

static PyObject *run_iterate(RunObject *self, PyObject *args) {
    long long count;
    if (!ready(self) || !PyArg_ParseTuple(args, "L", &count)) return NULL;
    Py_BEGIN_ALLOW_THREADS
    cfr_iterate(&self->run, count);
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

static PyObject *run_bracket(RunObject *self, PyObject *noargs) {
    if (!ready(self)) return NULL;
    double up, low;
    Py_BEGIN_ALLOW_THREADS
    up = cfr_best(&self->run, 0);
    low = cfr_best(&self->run, 1);
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
    double *out = PyMem_Malloc(sizeof(double) * ((size_t)self->run.t.nh[0] + 1));
    if (out == NULL) return PyErr_NoMemory();
    cfr_hand_values(&self->run, out);
    PyObject *res = doubles(out, self->run.t.nh[0]);
    PyMem_Free(out);
    return res;
}

static PyObject *run_average(RunObject *self, PyObject *noargs) {
    if (!ready(self)) return NULL;
    return doubles(self->run.avg, self->run.t.size);
}

static PyMethodDef run_methods[] = {
    {"iterate", (PyCFunction)run_iterate, METH_VARARGS, "Run CFR+ iterations."},
    {"bracket", (PyCFunction)run_bracket, METH_NOARGS, "The certified (lower, upper) of the game value."},
    {"hand_values", (PyCFunction)run_hand_values, METH_NOARGS, "Each maximiser's hand's value under the averages."},
    {"average", (PyCFunction)run_average, METH_NOARGS, "The average strategy's sums by slot."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RunType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "analyzer.hidden._cfr.Run",
    .tp_basicsize = sizeof(RunObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A CFR+ run over a flattened public tree (see the module's comment).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)run_init,
    .tp_dealloc = (destructor)run_dealloc,
    .tp_methods = run_methods,
};

/* -- the range form (analyzer/hidden/ranges.py's ``RangeCRun``) ------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    RangeRun run;
    void *owned[32];
    int nowned, ready;
} RangeObject;

static void range_dealloc(RangeObject *self) {
    if (self->ready) range_free(&self->run);
    for (int k = 0; k < self->nowned; k++) PyMem_Free(self->owned[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

#define NRANGE 26

static int range_init_py(RangeObject *self, PyObject *args, PyObject *kwds) {
    PyObject *o[NRANGE];
    int size, forced_set, forced_move;
    if (self->ready || self->nowned) {
        PyErr_SetString(PyExc_TypeError, "a RangeRun is set up once");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOOOOOOOOOOOiii", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6],
                          &o[7], &o[8], &o[9], &o[10], &o[11], &o[12], &o[13], &o[14], &o[15], &o[16], &o[17], &o[18],
                          &o[19], &o[20], &o[21], &o[22], &o[23], &o[24], &o[25], &size, &forced_set, &forced_move))
        return -1;
    static const char *names[NRANGE] = {
        "mask0", "mask1", "weight0", "weight1", "player", "child_at", "child", "played0", "played1", "alive_at0",
        "alive0", "alive_at1", "alive1", "term_at0", "term_hand0", "term_class0", "term_at1", "term_hand1",
        "term_class1", "table_at", "width", "table", "iset_at", "iset_hand", "slot", "legal"};
    void *p[NRANGE];
    Py_ssize_t n[NRANGE];
    for (int k = 0; k < NRANGE; k++) {
        Py_ssize_t item = (k == 2 || k == 3 || k == 21) ? 8 : k == 25 ? 1 : 4;
        p[k] = copied_into(self->owned, &self->nowned, o[k], item, &n[k], names[k]);
        if (p[k] == NULL) return -1;
    }
    RangeTree t;
    t.mask[0] = p[0], t.mask[1] = p[1], t.weight[0] = p[2], t.weight[1] = p[3], t.player = p[4];
    t.child_at = p[5], t.child = p[6], t.played[0] = p[7], t.played[1] = p[8], t.alive_at[0] = p[9];
    t.alive[0] = p[10], t.alive_at[1] = p[11], t.alive[1] = p[12], t.term_at[0] = p[13], t.term_hand[0] = p[14];
    t.term_class[0] = p[15], t.term_at[1] = p[16], t.term_hand[1] = p[17], t.term_class[1] = p[18];
    t.table_at = p[19], t.width = p[20], t.table = p[21], t.iset_at = p[22], t.iset_hand = p[23], t.slot = p[24];
    t.legal = p[25];
    Py_ssize_t N = n[4];
    t.nodes = (int32_t)N, t.nh[0] = (int32_t)n[0], t.nh[1] = (int32_t)n[1], t.size = size;
    if (n[2] != n[0] || n[3] != n[1] || n[5] != N + 1 || n[7] != N || n[8] != N || n[9] != N + 1 || n[11] != N + 1
        || n[13] != N + 1 || n[16] != N + 1 || n[14] != n[15] || n[17] != n[18] || n[19] != N || n[20] != N
        || n[22] != N + 1 || n[23] != n[24] || n[25] < size || N < 1) {
        PyErr_SetString(PyExc_ValueError, "the tree's arrays do not fit together");
        return -1;
    }
    if (t.child_at[N] > n[6] || t.alive_at[0][N] > n[10] || t.alive_at[1][N] > n[12] || t.term_at[0][N] > n[14]
        || t.term_at[1][N] > n[17] || t.iset_at[N] > n[23] || t.child_at[0] < 0 || t.alive_at[0][0] < 0
        || t.alive_at[1][0] < 0 || t.term_at[0][0] < 0 || t.term_at[1][0] < 0 || t.iset_at[0] < 0) {
        PyErr_SetString(PyExc_ValueError, "a node's list runs past its array");
        return -1;
    }
    for (Py_ssize_t k = 0; k < N; k++) {      /* (each value table inside ``table``: checked here, sized by classes) */
        int32_t c0 = 0, c1 = 0;
        for (int32_t a = t.term_at[0][k]; a < t.term_at[0][k + 1]; a++)
            if (t.term_class[0][a] + 1 > c0) c0 = t.term_class[0][a] + 1;
        for (int32_t a = t.term_at[1][k]; a < t.term_at[1][k + 1]; a++)
            if (t.term_class[1][a] + 1 > c1) c1 = t.term_class[1][a] + 1;
        if (c0 && c1 && (t.table_at[k] < 0 || t.width[k] < c1 || (Py_ssize_t)t.table_at[k] + (Py_ssize_t)c0 * t.width[k] > n[21])) {
            PyErr_SetString(PyExc_ValueError, "a value table runs past its array");
            return -1;
        }
    }
    const char *err;
    int kind = range_init(&self->run, &t, forced_set, forced_move, &err);
    if (kind == K_MEMORY) {
        PyErr_NoMemory();
        return -1;
    }
    if (kind != K_OK) {
        PyErr_SetString(PyExc_ValueError, err);
        return -1;
    }
    self->ready = 1;
    return 0;
}

static int range_ready(RangeObject *self) {
    if (!self->ready) PyErr_SetString(PyExc_ValueError, "a RangeRun not set up");
    return self->ready;
}

static PyObject *range_iterate_py(RangeObject *self, PyObject *args) {
    long long count;
    if (!range_ready(self) || !PyArg_ParseTuple(args, "L", &count)) return NULL;
    Py_BEGIN_ALLOW_THREADS
    range_iterate(&self->run, count);
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

static PyObject *range_bracket_py(RangeObject *self, PyObject *noargs) {
    if (!range_ready(self)) return NULL;
    double up, low;
    Py_BEGIN_ALLOW_THREADS
    up = range_best(&self->run, 0);
    low = range_best(&self->run, 1);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(dd)", low, up);
}

static PyObject *range_hand_values_py(RangeObject *self, PyObject *noargs) {
    if (!range_ready(self)) return NULL;
    double *out = PyMem_Malloc(sizeof(double) * ((size_t)self->run.t.nh[0] + 1));
    if (out == NULL) return PyErr_NoMemory();
    range_hand_values(&self->run, out);
    PyObject *res = doubles(out, self->run.t.nh[0]);
    PyMem_Free(out);
    return res;
}

static PyObject *range_average_py(RangeObject *self, PyObject *noargs) {
    if (!range_ready(self)) return NULL;
    return doubles(self->run.avg, self->run.t.size);
}

static PyMethodDef range_methods[] = {
    {"iterate", (PyCFunction)range_iterate_py, METH_VARARGS, "Run CFR+ iterations."},
    {"bracket", (PyCFunction)range_bracket_py, METH_NOARGS, "The certified (lower, upper) of the game value."},
    {"hand_values", (PyCFunction)range_hand_values_py, METH_NOARGS, "Each maximiser's hand's weighted value."},
    {"average", (PyCFunction)range_average_py, METH_NOARGS, "The average strategy's sums by slot."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RangeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "analyzer.hidden._cfr.RangeRun",
    .tp_basicsize = sizeof(RangeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A CFR+ run over a range tree (analyzer/hidden/ranges.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)range_init_py,
    .tp_dealloc = (destructor)range_dealloc,
    .tp_methods = range_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "analyzer.hidden._cfr",
    "The compiled CFR+ iteration of the public-tree solver (analyzer/hidden/cfr.py).", -1, NULL,
};

PyMODINIT_FUNC PyInit__cfr(void) {
    if (PyType_Ready(&RunType) < 0 || PyType_Ready(&RangeType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&RunType);
    if (PyModule_AddObject(m, "Run", (PyObject *)&RunType) < 0) {
        Py_DECREF(&RunType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&RangeType);
    if (PyModule_AddObject(m, "RangeRun", (PyObject *)&RangeType) < 0) {
        Py_DECREF(&RangeType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
