/* The kernel of the search of draw games, All Fives and Hungarian's runs (``_draw_kernel.c``) as a standalone
 * WebAssembly module, ``_draw.wasm``: its second binding (the first is the CPython extension, ``_draw.c``). As
 * ``_core_wasm.c``: 32-bit ints, doubles and pointers into the module's memory (``wasm_alloc``), the 64-bit hands
 * and boneyard tiles written there as unsigned 64-bit ints, a budget a double; -1: an error (``draw_error_kind``,
 * ``draw_error_text``). A state is 13 ints: left, right, shape, seat, drawn, draws, passes, offer, the last seat,
 * tile, and the ends before it (as ``DrawSearch.search`` takes them after the hands); a root 13 ints as
 * ``DrawSearch.worlds`` takes it. No caller's leaf value: the described scorings only. */
#include "_draw_kernel.h"

#define EXPORT(name) __attribute__((export_name(#name)))

EXPORT(wasm_alloc) void *wasm_alloc(int bytes) { return malloc((size_t)bytes); }
EXPORT(wasm_free) void wasm_free(void *p) { free(p); }

/* A search (``DrawSearch``; ``described``: ``LeafScoring.ints()``, ``ndescribed`` of them; ``has_bound``: ``(fixed,
 * most)``); NULL: no memory. Check ``draw_error_kind`` before it searches. */
EXPORT(draw_new) DrawSearch *draw_new(int n, int max_pip, const uint64_t *order, int norder, int limit, int until,
                                      int scores, const int *maximiser, const int *described, int ndescribed,
                                      double entries, int leader, int has_bound, int fixed, int most, int run) {
    DrawSearch *d = calloc(1, sizeof(DrawSearch));
    if (d == NULL) return NULL;
    LeafScoring sc;
    if (leaf_parse_int32(described, ndescribed, &sc) < 0) {
        KERNEL_ERROR(d, K_VALUE, LEAF_NOT_ONE);
        return d;
    }
    draw_init(d, n, max_pip, order, norder, limit, until, scores, maximiser, &sc, NULL, NULL, (uint64_t)entries, leader,
              has_bound, fixed, most, run);
    return d;
}
EXPORT(draw_delete) void draw_delete(DrawSearch *d) { draw_free(d); free(d); }
EXPORT(draw_error_kind) int draw_error_kind(DrawSearch *d) { return d->err_kind; }
EXPORT(draw_error_text) const char *draw_error_text(DrawSearch *d) { return d->err_text; }

static DrawState state_of(const uint64_t *hands, const int *s) {
    DrawState st = {hands, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], {s[8], s[9], s[10], s[11]}};
    return st;
}

static DrawRoot root_of(const int *v) {
    DrawRoot r = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], {v[9], v[10], v[11], v[12]}};
    return r;
}

/* ``draw_search``: the state's 12 ints in ``state``. */
EXPORT(draw_search_at) int draw_search_at(DrawSearch *d, const uint64_t *hands, const int *state, int alpha, int beta,
                                          double budget, int *value, double *nodes) {
    DrawState st = state_of(hands, state);
    uint64_t visited = 0;
    d->err_kind = K_OK;
    int got = draw_search(d, &st, alpha, beta, budget < 0 ? 0 : (int64_t)budget, value, &visited);
    *nodes = (double)visited;
    return got;
}

/* ``draw_line``: ``steps`` room for DRAW_MAX_STEPS quintuples; ``out``: the count of steps, probed, after, the two
 * ends before the last tile. */
EXPORT(draw_line_at) int draw_line_at(DrawSearch *d, const uint64_t *hands, const int *state, int value, double limit,
                                      double spent, int (*steps)[5], int *out, double *nodes) {
    DrawState st = state_of(hands, state);
    DrawSteps line = {steps, 0};
    uint64_t visited = 0;
    d->err_kind = K_OK;
    int got = draw_line(d, &st, value, (int64_t)limit, (int64_t)spent, &line, &visited, out + 1, out + 2, out + 3);
    out[0] = line.count;
    *nodes = (double)visited;
    return got;
}

/* ``draw_ends``: ``out`` room for ``nvalues`` (at least one) ``DrawEnd``s, each 1 + 2 * 4 + 4 + 4 ints
 * (``draw_end_bytes``). */
EXPORT(draw_end_bytes) int draw_end_bytes(void) { return (int)sizeof(DrawEnd); }
EXPORT(draw_ends_at) int draw_ends_at(DrawSearch *d, const uint64_t *hands, const int *state, int value, int nvalues,
                                      const uint8_t *has, const int *values, double limit, DrawEnd *out) {
    DrawState st = state_of(hands, state);
    d->err_kind = K_OK;
    return draw_ends(d, &st, value, nvalues, has, values, (int64_t)limit, out);
}

/* ``draw_world``: ``roots`` 13 ints each. */
EXPORT(draw_world_at) int draw_world_at(DrawSearch *d, const uint64_t *hands, const uint64_t *order, int mover, int k,
                                        int nroots, const int *roots, double limit, int *row, int *rest) {
    DrawRoot rs[DRAW_CHOICES];
    for (int i = 0; i < nroots && i < DRAW_CHOICES; i++) rs[i] = root_of(roots + 13 * i);
    d->err_kind = K_OK;
    if (draw_worlds_check(d, mover, k, nroots, rs) < 0) return -1;
    return draw_world(d, hands, order, mover, k, nroots, rs, (int64_t)limit, row, rest);
}

/* ``draw_root_line``: ``out``: the count of steps, the two ends before the last tile. */
EXPORT(draw_root_line_at) int draw_root_line_at(DrawSearch *d, const uint64_t *hands, int mover, const int *root, int k,
                                                int rest, double limit, int (*steps)[5], int *out) {
    DrawRoot r = root_of(root);
    DrawSteps line = {steps, 0};
    d->err_kind = K_OK;
    int got = draw_root_line(d, hands, mover, &r, k, rest, (int64_t)limit, &line, out + 1);
    out[0] = line.count;
    return got;
}
