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
 * ``RangeRun(mask0, mask1, weight0, weight1, player, child_at, child, played0, played1, alive_at0, alive0, alive_at1,
 *   alive1, term_at0, term_hand0, term_class0, term_at1, term_hand1, term_class1, table_at, width, table, iset_at,
 *   iset_hand, slot, legal, size, forced_set, forced_move)``: the same over a range tree (analyzer/hidden/ranges.py's
 *   ``RangeTree``; ``weight0``, ``weight1`` and ``table`` doubles), with the same methods; its twin is ``RangePyRun``.
 */
/* This file is the CPython binding: it copies the buffers, calls the kernel (``_cfr_kernel.c``, whose interface
 * ``_cfr_kernel.h`` declares; no Python there) and builds the results. Both types are one object (a run of either form
 * of the tree) with one set of methods; only their set-up differs. */
#include "../search/_binding.h"
#include "_cfr_kernel.h"

/* A run of either form (``Run``: ``run.cfr``, ``RangeRun``: ``run.range``; both begin with their ``CfrWalk``), with the
 * copies of the tree's arrays it reads. */
typedef struct {
    PyObject_HEAD
    union {
        CfrWalk w;
        CfrRun cfr;
        RangeRun range;
    } run;
    void *owned[32];
    int nowned, ready;
} RunObject;

static void run_dealloc(RunObject *self) {
    if (self->ready) cfr_free(&self->run.w);
    for (int k = 0; k < self->nowned; k++) PyMem_Free(self->owned[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A copy of ``obj``'s buffer of ``itemsize``-byte items into memory the run owns; its item count in ``*count``. */
static void *copied(RunObject *self, PyObject *obj, Py_ssize_t itemsize, Py_ssize_t *count, const char *name) {
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
    self->owned[self->nowned++] = out;
    return out;
}

/* The arrays of a set-up (``count`` of them, ``o``) copied: ``p`` each one's copy, ``n`` its items; -1 with an
 * exception set where one is not an array of its items (``items``: each one's bytes an item, a digit each). */
static int copy_all(RunObject *self, int count, PyObject **o, const char *const *names, const char *items,
                    void **p, Py_ssize_t *n) {
    if (self->ready || self->nowned) {
        PyErr_SetString(PyExc_TypeError, "a run is set up once");
        return -1;
    }
    for (int k = 0; k < count; k++) {
        p[k] = copied(self, o[k], items[k] - '0', &n[k], names[k]);
        if (p[k] == NULL) return -1;
    }
    return 0;
}

/* The tree's shared arrays (``CfrMoves``) in place; the checks that a node's lists stay in their arrays. */
static int moves_fit(CfrMoves *m, Py_ssize_t nchild, Py_ssize_t niset, Py_ssize_t nalive0, Py_ssize_t nalive1) {
    int32_t N = m->nodes;
    if (m->child_at[N] > nchild || m->iset_at[N] > niset || m->alive_at[0][N] > nalive0 || m->alive_at[1][N] > nalive1
        || m->child_at[0] < 0 || m->iset_at[0] < 0 || m->alive_at[0][0] < 0 || m->alive_at[1][0] < 0) {
        PyErr_SetString(PyExc_ValueError, "a node's list runs past its array");
        return -1;
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

#define NDEAL 16

static int run_init(RunObject *self, PyObject *args, PyObject *kwds) {
    PyObject *o[NDEAL];
    int nh0, nh1, size, forced_set, forced_move;
    if (!PyArg_ParseTuple(args, "OOiiOOOOOOOOOOiOOOOii", &o[0], &o[1], &nh0, &nh1, &o[2], &o[3], &o[4], &o[5], &o[6],
                          &o[7], &o[8], &o[9], &o[10], &o[11], &size, &o[12], &o[13], &o[14], &o[15], &forced_set,
                          &forced_move))
        return -1;
    static const char *const names[NDEAL] = {"hand0", "hand1", "player", "child_at", "child", "term_at", "term_deal",
                                             "term_value", "iset_at", "iset_hand", "slot", "legal", "alive_at0",
                                             "alive0", "alive_at1", "alive1"};
    void *p[NDEAL];
    Py_ssize_t n[NDEAL];
    if (copy_all(self, NDEAL, o, names, "4444444844414444", p, n) < 0) return -1;
    CfrTree t;
    CfrMoves *m = &t.m;
    t.hand[0] = p[0], t.hand[1] = p[1], m->player = p[2], m->child_at = p[3], m->child = p[4], t.term_at = p[5];
    t.term_deal = p[6], t.term_value = p[7], m->iset_at = p[8], m->iset_hand = p[9], m->slot = p[10];
    m->legal = p[11], m->alive_at[0] = p[12], m->alive[0] = p[13], m->alive_at[1] = p[14], m->alive[1] = p[15];
    m->nodes = (int32_t)n[2], t.deals = (int32_t)n[0], m->nh[0] = nh0, m->nh[1] = nh1, m->size = size;
    if (n[1] != n[0] || n[3] != n[2] + 1 || n[5] != n[2] + 1 || n[8] != n[2] + 1 || n[12] != n[2] + 1
        || n[14] != n[2] + 1 || n[6] != n[7] || n[9] != n[10] || n[11] < size || nh0 < 0 || nh1 < 0) {
        PyErr_SetString(PyExc_ValueError, "the tree's arrays do not fit together");
        return -1;
    }
    if (moves_fit(m, n[4], n[9], n[13], n[15]) < 0) return -1;
    if (t.term_at[m->nodes] > n[6] || t.term_at[0] < 0) {
        PyErr_SetString(PyExc_ValueError, "a node's list runs past its array");
        return -1;
    }
    const char *err = NULL;
    return set_up(self, cfr_init(&self->run.cfr, &t, forced_set, forced_move, &err), err);
}

#define NRANGE 26

static int range_init_py(RunObject *self, PyObject *args, PyObject *kwds) {
    PyObject *o[NRANGE];
    int size, forced_set, forced_move;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOOOOOOOOOOOiii", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6],
                          &o[7], &o[8], &o[9], &o[10], &o[11], &o[12], &o[13], &o[14], &o[15], &o[16], &o[17], &o[18],
                          &o[19], &o[20], &o[21], &o[22], &o[23], &o[24], &o[25], &size, &forced_set, &forced_move))
        return -1;
    static const char *const names[NRANGE] = {
        "mask0", "mask1", "weight0", "weight1", "player", "child_at", "child", "played0", "played1", "alive_at0",
        "alive0", "alive_at1", "alive1", "term_at0", "term_hand0", "term_class0", "term_at1", "term_hand1",
        "term_class1", "table_at", "width", "table", "iset_at", "iset_hand", "slot", "legal"};
    void *p[NRANGE];
    Py_ssize_t n[NRANGE];
    if (copy_all(self, NRANGE, o, names, "44884444444444444444484441", p, n) < 0) return -1;
    RangeTree t;
    CfrMoves *m = &t.m;
    t.mask[0] = p[0], t.mask[1] = p[1], t.weight[0] = p[2], t.weight[1] = p[3], m->player = p[4];
    m->child_at = p[5], m->child = p[6], t.played[0] = p[7], t.played[1] = p[8], m->alive_at[0] = p[9];
    m->alive[0] = p[10], m->alive_at[1] = p[11], m->alive[1] = p[12], t.term_at[0] = p[13], t.term_hand[0] = p[14];
    t.term_class[0] = p[15], t.term_at[1] = p[16], t.term_hand[1] = p[17], t.term_class[1] = p[18];
    t.table_at = p[19], t.width = p[20], t.table = p[21], m->iset_at = p[22], m->iset_hand = p[23], m->slot = p[24];
    m->legal = p[25];
    Py_ssize_t N = n[4];
    m->nodes = (int32_t)N, m->nh[0] = (int32_t)n[0], m->nh[1] = (int32_t)n[1], m->size = size;
    if (n[2] != n[0] || n[3] != n[1] || n[5] != N + 1 || n[7] != N || n[8] != N || n[9] != N + 1 || n[11] != N + 1
        || n[13] != N + 1 || n[16] != N + 1 || n[14] != n[15] || n[17] != n[18] || n[19] != N || n[20] != N
        || n[22] != N + 1 || n[23] != n[24] || n[25] < size || N < 1) {
        PyErr_SetString(PyExc_ValueError, "the tree's arrays do not fit together");
        return -1;
    }
    if (moves_fit(m, n[6], n[23], n[10], n[12]) < 0) return -1;
    if (t.term_at[0][N] > n[14] || t.term_at[1][N] > n[17] || t.term_at[0][0] < 0 || t.term_at[1][0] < 0) {
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
    const char *err = NULL;
    return set_up(self, range_init(&self->run.range, &t, forced_set, forced_move, &err), err);
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
    return doubles(self->run.w.avg, self->run.w.m.size);
}

static PyMethodDef run_methods[] = {
    {"iterate", (PyCFunction)run_iterate, METH_VARARGS, "Run CFR+ iterations."},
    {"bracket", (PyCFunction)run_bracket, METH_NOARGS, "The certified (lower, upper) of the game value."},
    {"hand_values", (PyCFunction)run_hand_values, METH_NOARGS,
     "Each maximiser's hand's value under the averages (times its weight)."},
    {"average", (PyCFunction)run_average, METH_NOARGS, "The average strategy's sums by slot."},
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

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "analyzer.hidden._cfr",
    "The compiled CFR+ iteration of the public-tree solver (analyzer/hidden/cfr.py).", -1, NULL,
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
