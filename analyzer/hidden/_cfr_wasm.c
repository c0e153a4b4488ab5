/* The CFR+ kernel (``_cfr_kernel.c``) as a standalone WebAssembly module, ``_cfr.wasm``: its second binding (the
 * first is the CPython extension, ``_cfr.c``). Every export takes 32-bit ints, doubles and pointers into the module's
 * memory (``wasm_alloc``). A run is made of one block of memory the caller wrote (``cfr_new``, which takes it): a table
 * of the arrays' addresses (``count`` 32-bit pointers, in the order of ``_cfr_kernel.h``'s ``CFR_HAND0``... or
 * ``RANGE_MASK0``...), then their item counts (``count`` 32-bit ints), then the arrays. An error is kept on the run
 * (``cfr_error_kind``, ``cfr_error_text``); an iteration count is a double. The Python binding under Pyodide is
 * analyzer/search/wasmcfr.py. */
#include "_cfr_kernel.h"
#include "_ranges_kernel.h"

#define EXPORT(name) __attribute__((export_name(#name)))

typedef struct {
    union {
        CfrWalk w;
        CfrRun cfr;
        RangeRun range;
    } run;
    void *arrays;                 /* the block the run was made of */
    int ready, err_kind;
    const char *err_text;
} WasmRun;

EXPORT(wasm_alloc) void *wasm_alloc(int bytes) { return malloc((size_t)bytes); }
EXPORT(wasm_free) void wasm_free(void *p) { free(p); }

/* A run of the tree over deals (``range`` 0; ``nh0``, ``nh1``: each player's hands) or over hands (``range`` 1) made
 * of ``block`` (taken: freed with the run, or here where no run is made), information set ``forced_set`` held to
 * ``forced_move`` (-1: none); NULL: no memory. Check ``cfr_error_kind`` before it runs. */
EXPORT(cfr_new) WasmRun *cfr_new(int range, void *block, int nh0, int nh1, int size, int forced_set,
                                 int forced_move) {
    WasmRun *r = calloc(1, sizeof(WasmRun));
    if (r == NULL) {
        free(block);
        return NULL;
    }
    r->arrays = block;
    int count = range ? RANGE_ARRAYS : CFR_ARRAYS;
    void *const *p = (void *const *)block;
    const int32_t *items = (const int32_t *)block + count;
    int64_t n[RANGE_ARRAYS];
    for (int k = 0; k < count; k++) n[k] = items[k];
    const char *err = NULL;
    int kind;
    if (range) {
        RangeTree t;
        kind = range_tree(&t, p, n, size, &err);
        if (kind == K_OK) kind = range_init(&r->run.range, &t, forced_set, forced_move, &err);
    } else {
        CfrTree t;
        kind = cfr_tree(&t, p, n, nh0, nh1, size, &err);
        if (kind == K_OK) kind = cfr_init(&r->run.cfr, &t, forced_set, forced_move, &err);
    }
    r->ready = kind == K_OK;
    r->err_kind = kind;
    r->err_text = err;
    return r;
}

EXPORT(cfr_delete) void cfr_delete(WasmRun *r) {
    if (r->ready) cfr_free(&r->run.w);
    free(r->arrays);
    free(r);
}

EXPORT(cfr_error_kind) int cfr_error_kind(WasmRun *r) { return r->err_kind; }
EXPORT(cfr_error_text) const char *cfr_error_text(WasmRun *r) { return r->err_text; }

/* Information set ``forced_set`` held to ``forced_move`` from now on (-1: none), the regrets kept (``cfr_force``; ``keep``: the average too): 0,
 * or the error's kind (its text in ``cfr_error_text``; the run is as before). */
EXPORT(cfr_force_at) int cfr_force_at(WasmRun *r, int forced_set, int forced_move, int keep) {
    const char *err = NULL;
    int kind = cfr_force(&r->run.w, forced_set, forced_move, keep, &err);
    if (kind != K_OK) r->err_text = err;
    return kind;
}

EXPORT(cfr_iterate_at) void cfr_iterate_at(WasmRun *r, double count) { cfr_iterate(&r->run.w, (int64_t)count); }

/* The threads a walk may take (``cfr_threads``: the module has none, so it walks in one whatever this says: 0). */
EXPORT(cfr_threads_at) int cfr_threads_at(WasmRun *r, int threads) { return cfr_threads(&r->run.w, threads); }

/* The certified bracket: ``out[0]`` the lower bound, ``out[1]`` the upper. */
EXPORT(cfr_bracket_at) void cfr_bracket_at(WasmRun *r, double *out) {
    out[1] = cfr_best(&r->run.w, 0);
    out[0] = cfr_best(&r->run.w, 1);
}

/* Each maximiser's hand's value under the averages into ``out`` (``cfr_hands`` of them). */
EXPORT(cfr_hand_values_at) void cfr_hand_values_at(WasmRun *r, double *out) { cfr_hand_values(&r->run.w, out); }
EXPORT(cfr_hands) int cfr_hands(WasmRun *r) { return r->run.w.m.nh[0]; }

/* The bytes the run's set-up allocated beyond the tree's arrays (``cfr_held``). */
EXPORT(cfr_held_at) double cfr_held_at(WasmRun *r) { return (double)cfr_held(&r->run.w); }

/* The average strategy's sums by slot into ``out`` (``cfr_size`` doubles). */
EXPORT(cfr_average_at) void cfr_average_at(WasmRun *r, double *out) { cfr_average(&r->run.w, out); }
EXPORT(cfr_size) int cfr_size(WasmRun *r) { return r->run.w.m.size; }

/* Information set ``i``'s average strategy's sums by its node's ``width`` moves into ``out`` (``cfr_set_average``): 0, or
 * the error's kind (its text in ``cfr_error_text``). */
EXPORT(cfr_set_average_at) int cfr_set_average_at(WasmRun *r, int i, int width, double *out) {
    const char *err = NULL;
    int kind = cfr_set_average(&r->run.w, i, width, out, &err);
    if (kind != K_OK) r->err_text = err;
    return kind;
}

/* The range tree's build (``_ranges_kernel.h``; the extension's ``build``): the hands ``mask0`` (``n0`` 64-bit tile
 * masks) and ``mask1`` (``n1``) from ``state`` (``RB_STATE`` ints) valued by ``scoring`` (``LeafScoring.ints()``,
 * ``nscoring`` ints) times ``norm``, stopped past ``max_nodes`` nodes (< 0: no cap; a freestanding module has no CPU
 * clock: the caller times it) or ``max_bytes`` bytes of its arrays and the least a run of them needs (0 or less: no
 * cap; then ``K_MEMORY``, its text
 * ``RB_TOO_LARGE``). NULL: no memory; else check ``rb_error_kind`` (``RB_TOO_LONG``: past the cap), then read
 * array ``k`` (``RB_PLAYER``...) at ``rb_array`` with ``rb_items`` items, and ``rb_delete`` it. */
EXPORT(rb_new) RangeBuild *rb_new(const uint64_t *mask0, int n0, const uint64_t *mask1, int n1, const int *state,
                                  const int *scoring, int nscoring, double norm, double max_nodes,
                                  double max_bytes) {
    RangeBuild *b = calloc(1, sizeof(RangeBuild));
    if (b == NULL) return NULL;
    if (leaf_parse_int32(scoring, nscoring, &b->sc) < 0) {
        b->err_kind = K_VALUE;
        b->err_text = LEAF_NOT_ONE;
        return b;
    }
    for (int k = 0; k < RB_STATE; k++) b->state[k] = state[k];
    b->mask[0] = mask0;
    b->mask[1] = mask1;
    b->nh[0] = n0;
    b->nh[1] = n1;
    b->norm = norm;
    b->max_nodes = (int64_t)max_nodes;
    b->max_bytes = (int64_t)max_bytes;
    rb_build(b);
    b->mask[0] = b->mask[1] = NULL;
    return b;
}

EXPORT(rb_error_kind) int rb_error_kind(RangeBuild *b) { return b->err_kind; }
EXPORT(rb_error_text) const char *rb_error_text(RangeBuild *b) { return b->err_text; }
EXPORT(rb_array) void *rb_array(RangeBuild *b, int k) { return b->out[k].v; }
EXPORT(rb_items) int rb_items(RangeBuild *b, int k) { return (int)b->out[k].n; }
EXPORT(rb_size) double rb_size(RangeBuild *b) { return (double)b->size; }
EXPORT(rb_delete) void rb_delete(RangeBuild *b) {
    rb_free(b);
    free(b);
}
