/* What the CPython bindings of the compiled kernels share (``_core.c``, ``_arms.c``, ``_draw.c``): a scoring
 * description read from Python into the kernels' ``LeafScoring``, a kernel's error raised as its exception, and
 * the getters a table shows to Python, and the garbage collector's functions of a search that calls back a
 * Python leaf. Only bindings include it (it includes Python.h); kernels never. */
#ifndef DOMINO_BINDING_H
#define DOMINO_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_kernel.h"
#include "_leaf.h"

/* ``LeafScoring.ints()`` into ``sc`` (``leaf_parse_ints``); -1 with an exception set when it is not one. */
static inline int leaf_parse(PyObject *obj, LeafScoring *sc) {
    PyObject *seq = PySequence_Fast(obj, "scoring must be a sequence of ints (LeafScoring.ints())");
    if (seq == NULL) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    long v[LEAF_FIELDS + 1 + LEAF_SEATS];
    int bad = len < LEAF_FIELDS + 1 + 2 || len > LEAF_FIELDS + 1 + LEAF_SEATS;
    for (Py_ssize_t i = 0; i < len && !bad; i++) {
        v[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v[i] == -1 && PyErr_Occurred()) bad = 1;
    }
    Py_DECREF(seq);
    if (bad || leaf_parse_ints(v, (int)len, sc) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, LEAF_NOT_ONE);
        return -1;
    }
    return 0;
}

/* The names of ``LeafScoring.ints()``'s fields, in order (``LEAF_SCORING_FIELDS``): a tuple of str. */
static inline PyObject *leaf_fields(void) {
#define LEAF_NAME(name) #name,
    static const char *names[] = {LEAF_SCORING_FIELDS(LEAF_NAME)};
#undef LEAF_NAME
    PyObject *t = PyTuple_New(LEAF_FIELDS);
    for (int i = 0; t != NULL && i < LEAF_FIELDS; i++) {
        PyObject *s = PyUnicode_FromString(names[i]);
        if (s == NULL) Py_CLEAR(t);
        else PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}

/* A kernel's error (``K_VALUE``, ... and its text) raised; NULL. ``K_CALLBACK``: the Python callback's own
 * exception is set already. */
static inline PyObject *kernel_raise(int kind, const char *text) {
    if (kind == K_CALLBACK && PyErr_Occurred()) return NULL;
    PyObject *type = kind == K_TYPE ? PyExc_TypeError : kind == K_RUNTIME ? PyExc_RuntimeError
                     : kind == K_OVERFLOW ? PyExc_OverflowError : PyExc_ValueError;
    if (kind == K_MEMORY) return PyErr_NoMemory();
    PyErr_SetString(type, text != NULL ? text : "the compiled search failed");
    return NULL;
}

/* A getter of a table's count for Python (``Type_get_name``), and its entry in a PyGetSetDef. */
#define TABLE_GETTER(Type, name, expr) \
    static PyObject *Type##_get_##name(Type *self, void *closure) { \
        (void)closure; \
        return PyLong_FromUnsignedLongLong((unsigned long long)(expr)); \
    }
#define TABLE_GETSET(Type, name, doc) {#name, (getter)Type##_get_##name, NULL, doc, NULL}

/* The cyclic garbage collector's three functions of a search object (``Prefix_traverse``, ``Prefix_clear`` and
 * ``Prefix_dealloc``) whose kernel ``k`` calls back its Python ``leaf`` (a bound method of the Python object that
 * holds it: a cycle); ``free_kernel(&self->k)`` frees the kernel's memory as it goes. */
#define LEAF_SEARCH_GC(Type, Prefix, free_kernel) \
    static int Prefix##_traverse(Type *self, visitproc visit, void *arg) { \
        Py_VISIT(self->leaf); \
        return 0; \
    } \
    static int Prefix##_clear(Type *self) { \
        Py_CLEAR(self->leaf); \
        self->k.leaf_fn = NULL; \
        self->k.leaf_ctx = NULL; \
        return 0; \
    } \
    static void Prefix##_dealloc(Type *self) { \
        PyObject_GC_UnTrack(self); \
        Prefix##_clear(self); \
        free_kernel(&self->k); \
        Py_TYPE(self)->tp_free((PyObject *)self); \
    }

#endif
