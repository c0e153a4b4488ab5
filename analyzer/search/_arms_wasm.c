/* The search over layouts with arms's kernel (``_arms_kernel.c``) as a standalone WebAssembly module, ``_arms.wasm``:
 * its second binding (the first is the CPython extension, ``_arms.c``). As ``_core_wasm.c``: 32-bit ints, doubles
 * and pointers into the module's memory (``wasm_alloc``), the 64-bit hands written there as unsigned 64-bit ints, a
 * budget a double (below 0: none); -1: an error (``arms_error_kind``, ``arms_error_text``). No caller's leaf value:
 * the scorings the kernel computes itself (scoring 0, 1 and 3). */
#include "_arms_kernel.h"

#define EXPORT(name) __attribute__((export_name(#name)))

EXPORT(wasm_alloc) void *wasm_alloc(int bytes) { return malloc((size_t)bytes); }
EXPORT(wasm_free) void wasm_free(void *p) { free(p); }

/* A search (``ArmSearch``; ``described``: ``LeafScoring.ints()``, ``ndescribed`` of them, for scoring 3); NULL: no
 * memory. Check ``arms_error_kind`` before it searches. */
EXPORT(arms_new) ArmsSearch *arms_new(int n, int max_pip, int french, int branch, const int *maximiser,
                                      const int *opponent, int scoring, int param, const int *sides, double entries,
                                      const int *described, int ndescribed, int leader) {
    ArmsSearch *d = calloc(1, sizeof(ArmsSearch));
    if (d == NULL) return NULL;
    LeafScoring sc;
    if (ndescribed > 0 && leaf_parse_int32(described, ndescribed, &sc) < 0) {
        KERNEL_ERROR(d, K_VALUE, LEAF_NOT_ONE);
        return d;
    }
    arms_init(d, n, max_pip, french, branch, maximiser, opponent, scoring == ARMS_SCORE_CALLER ? -1 : scoring, param,
              sides, NULL, NULL, (uint64_t)entries, ndescribed > 0 ? &sc : NULL, leader);
    return d;
}
EXPORT(arms_delete) void arms_delete(ArmsSearch *d) { arms_free(d); free(d); }
EXPORT(arms_error_kind) int arms_error_kind(ArmsSearch *d) { return d->err_kind; }
EXPORT(arms_error_text) const char *arms_error_text(ArmsSearch *d) { return d->err_text; }

/* ``arms_search``: ``out``: the value, then the positions visited (a double at ``out + 8``). */
EXPORT(arms_search_at) int arms_search_at(ArmsSearch *d, const uint64_t *hands, const int *arms, int narms, int s,
                                          int alpha, int beta, double budget, int *value, double *nodes) {
    uint64_t visited = 0;
    d->err_kind = K_OK;
    int got = arms_search(d, hands, arms, narms, s, alpha, beta, budget < 0 ? 0 : (int64_t)budget, value, &visited);
    *nodes = (double)visited;
    return got;
}

/* ``arms_line``: ``steps`` room for ARMS_MAX_STEPS quadruples; ``out``: the count of steps, probed, after;
 * ``nodes``: the positions of the last choice probed. */
EXPORT(arms_line_at) int arms_line_at(ArmsSearch *d, const uint64_t *hands, const int *arms, int narms, int s,
                                      int value, double limit, double spent, int (*steps)[4], int *out,
                                      double *nodes) {
    ArmsSteps st = {steps, 0};
    uint64_t visited = 0;
    d->err_kind = K_OK;
    int got = arms_line(d, hands, arms, narms, s, value, (int64_t)limit, (int64_t)spent, &st, &visited, out + 1,
                        out + 2);
    out[0] = st.count;
    *nodes = (double)visited;
    return got;
}
