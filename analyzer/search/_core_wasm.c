/* The block search's kernel (``_core_kernel.c``) as a standalone WebAssembly module, ``_core.wasm``: its second
 * binding (the first is the CPython extension, ``_core.c``). Every export takes 32-bit ints, doubles and pointers
 * into the module's memory (``wasm_alloc``): the 64-bit masks (``hands``, ``played``) are written there as unsigned
 * 64-bit ints, and a budget is a double (below 0: none). A deal or table is a pointer; a call returns the kernel's
 * status (-1: an error, ``core_error_kind`` and ``core_error_text`` of the deal say which). */
#include "_core_kernel.h"

#define EXPORT(name) __attribute__((export_name(#name)))

static int64_t budget_of(double budget) { return budget < 0 ? INT64_MAX : (int64_t)budget; }

EXPORT(wasm_alloc) void *wasm_alloc(int bytes) { return malloc((size_t)bytes); }
EXPORT(wasm_free) void wasm_free(void *p) { free(p); }

/* A table of at most ``entries`` slots (NULL: no memory); deleted; emptied. */
EXPORT(core_table_new) CoreTable *core_table_new(double entries) {
    CoreTable *t = calloc(1, sizeof(CoreTable));
    if (t != NULL && core_table_init(t, (uint64_t)entries) < 0) {
        free(t);
        return NULL;
    }
    return t;
}
EXPORT(core_table_delete) void core_table_delete(CoreTable *t) { core_table_free(t); free(t); }
EXPORT(core_table_empty) void core_table_empty(CoreTable *t) { core_table_clear(t); }
EXPORT(core_table_used) double core_table_used(CoreTable *t) { return (double)t->used; }

/* A deal (``BlockDeal``; the scoring written inline where ``nscoring`` is 0, else ``LeafScoring.ints()``; no pass
 * bonus where ``nbonus`` is 0); NULL: no memory. Check ``core_error_kind`` before it searches. */
EXPORT(core_deal_new) CoreDeal *core_deal_new(CoreTable *t, int n, int max_pip, const int *sides, const uint64_t *dealt,
                                              int cu, const int *scoring, int nscoring, int leader, int bound,
                                              int most, const int *bonus, int nbonus) {
    CoreDeal *d = calloc(1, sizeof(CoreDeal));
    if (d == NULL) return NULL;
    LeafScoring sc;
    if (nscoring > 0 && leaf_parse_int32(scoring, nscoring, &sc) < 0) {
        KERNEL_ERROR(d, K_VALUE, LEAF_NOT_ONE);
        return d;
    }
    core_deal_init(d, t, n, max_pip, sides, dealt, cu, NULL, NULL, nscoring > 0 ? &sc : NULL, leader, bound, most,
                   nbonus > 0 ? bonus : NULL, nbonus);
    return d;
}
EXPORT(core_deal_delete) void core_deal_delete(CoreDeal *d) { free(d); }
EXPORT(core_error_kind) int core_error_kind(CoreDeal *d) { return d->err_kind; }
EXPORT(core_error_text) const char *core_error_text(CoreDeal *d) { return d->err_text; }
EXPORT(core_nodes) double core_nodes(CoreDeal *d) { return (double)d->nodes; }

EXPORT(core_mtdf_at) int core_mtdf_at(CoreDeal *d, const uint64_t *hands, const int *pips, const uint64_t *K, int e,
                                      int s, int alpha, int beta, int guess, double budget, int *value) {
    d->err_kind = K_OK;
    return core_mtdf(d, hands, pips, *K, e, s, alpha, beta, guess, budget_of(budget), value);
}

/* ``core_mtdf`` in one crossing, the state in the arguments (each 64-bit mask as its low and high 32 bits): the
 * value, or CORE_INF + 1 past ``budget``, CORE_INF + 2 an error (``core_error_kind``). */
EXPORT(core_mtdf_args) int core_mtdf_args(CoreDeal *d, int h0, int h0h, int h1, int h1h, int h2, int h2h, int h3,
                                          int h3h, int pa, int pb, int k, int kh, int e, int s, int alpha, int beta,
                                          int guess, double budget) {
#define U64(lo, hi) ((uint64_t)(uint32_t)(lo) | (uint64_t)(uint32_t)(hi) << 32)
    uint64_t hands[4] = {U64(h0, h0h), U64(h1, h1h), U64(h2, h2h), U64(h3, h3h)};
    int pips[2] = {pa, pb}, value = 0;
    d->err_kind = K_OK;
    int got = core_mtdf(d, hands, pips, U64(k, kh), e, s, alpha, beta, guess, budget_of(budget), &value);
#undef U64
    return got < 0 ? CORE_INF + 2 : got == 1 ? CORE_INF + 1 : value;
}

EXPORT(core_plays_at) int core_plays_at(CoreDeal *d, const uint64_t *hands, const int *pips, const uint64_t *K, int e,
                                        int s, int nm, const int (*moves)[2], double budget, int *values,
                                        uint8_t *ended, int *over, uint64_t *states) {
    d->err_kind = K_OK;
    return core_plays(d, hands, pips, *K, e, s, nm, moves, budget_of(budget), values, ended, over, states);
}

/* ``core_line``: ``steps`` room for CORE_MAX_STEPS triples; ``out``: the count of steps, over, a, b. */
EXPORT(core_line_at) int core_line_at(CoreDeal *d, const uint64_t *hands, const int *pips, const uint64_t *K, int a,
                                      int b, int s, int first, int has_value, int value, double budget, int guess,
                                      int (*steps)[3], uint64_t *states, int *out) {
    CoreSteps st = {steps, 0};
    d->err_kind = K_OK;
    int got = core_line(d, hands, pips, *K, a, b, s, first, has_value, value, budget_of(budget), guess, &st, states,
                        out + 1, out + 2, out + 3);
    out[0] = st.count;
    return got;
}

/* ``core_ends``: for each of the ``nvalues`` moves whose ``has[i]``, ``found[i]``, the hands at its line's end (``n``
 * a move in ``hands_out``) and in ``outs`` four rows of ``nvalues`` ints: the seat and the tile laid last, the ends
 * before it; another count of values than the moves: -1, ``core_error_count`` the moves. */
EXPORT(core_ends_at) int core_ends_at(CoreDeal *d, const uint64_t *hands, const int *pips, const uint64_t *K, int a,
                                      int b, int s, int first, int nvalues, const uint8_t *has, const int *values,
                                      double budget, uint8_t *found, uint64_t *hands_out, int *outs) {
    d->err_kind = K_OK;
    return core_ends(d, hands, pips, *K, a, b, s, first, nvalues, has, values, budget_of(budget), found, hands_out,
                     outs, outs + nvalues, outs + 2 * nvalues, outs + 3 * nvalues);
}
EXPORT(core_error_count) int core_error_count(CoreDeal *d) { return d->err_count; }

EXPORT(core_worlds_ok) int core_worlds_ok(CoreDeal *d, const uint64_t *K, int e, int s, int nm, const uint8_t *bits,
                                          const uint8_t *e2s, const int *as, const int *bs) {
    d->err_kind = K_OK;
    return core_worlds_check(d, *K, e, s, nm, bits, e2s, as, bs);
}

EXPORT(core_world_at) int core_world_at(CoreDeal *d, const uint64_t *dealt, const uint64_t *K, int e, int s, int nm,
                                        const uint8_t *bits, const uint8_t *e2s, double budget, int *values) {
    d->err_kind = K_OK;
    return core_world(d, dealt, *K, e, s, nm, bits, e2s, budget_of(budget), values);
}

/* ``core_world_line``: ``out``: the count of steps, a, b. */
EXPORT(core_world_line_at) int core_world_line_at(CoreDeal *d, const uint64_t *K, int s, int bit, int e2, int a,
                                                  int b, int first, int value, double budget, int (*steps)[3],
                                                  int *out) {
    CoreSteps st = {steps, 0};
    d->err_kind = K_OK;
    int got = core_world_line(d, *K, s, bit, e2, a, b, first, value, budget_of(budget), &st, out + 1, out + 2);
    out[0] = st.count;
    return got;
}
