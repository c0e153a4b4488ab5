/* The race solver's kernel (``_race_kernel.c``) as a standalone WebAssembly module, ``_race.wasm``: its second
 * binding (the first is the CPython extension, ``_race.c``). Every export takes 32-bit ints, doubles and pointers
 * into the module's memory (``wasm_alloc``): the arrays as ``_race.c`` reads them (int64, double, int32, bytes), a
 * race's shape as its ``dims`` grid and box sizes (int64). A call returns 0, or an error's kind (``race_error_text``
 * says which); a count it returns is written as a double. */
#include "_race_kernel.h"

#define EXPORT(name) __attribute__((export_name(#name)))

static const char *last_error = "";

EXPORT(wasm_alloc) void *wasm_alloc(int bytes) { return malloc((size_t)bytes); }
EXPORT(wasm_free) void wasm_free(void *p) { free(p); }
EXPORT(race_error_text) const char *race_error_text(void) { return last_error; }

/* The shape, and the results checked (``results`` >= 0) as ``_race.c``'s ``get_results`` checks them. */
static int shaped(RaceShape *sh, int sides, int leads, int dims, const int64_t *grid, const int64_t *box,
                  const int64_t *starts, const int32_t *next_lead, const int32_t *answers, int results) {
    int kind = race_shape(sh, sides, leads, dims, grid, box, &last_error);
    if (kind == K_OK && results >= 0) kind = race_check_results(sh, starts, next_lead, answers, results, &last_error);
    return kind;
}

EXPORT(race_sweep_at) int race_sweep_at(int sides, int leads, int dims, const int64_t *grid, const int64_t *box,
                                        const int64_t *starts, const double *probs, const int64_t *offsets,
                                        const int32_t *next_lead, const int32_t *answers, int results,
                                        const double *terminals, int nterm, const uint8_t *active, double *values,
                                        double tol, int max_sweeps, int *sweeps, double *change) {
    RaceShape sh;
    int kind = shaped(&sh, sides, leads, dims, grid, box, starts, next_lead, answers, results);
    if (kind != K_OK) return kind;
    return race_sweep(&sh, starts, probs, offsets, next_lead, answers, results, terminals, nterm, active, values, tol,
                      max_sweeps, sweeps, change, &last_error);
}

EXPORT(race_close_at) int race_close_at(int leads, int dims, const int64_t *grid, const int64_t *box,
                                        const int64_t *starts, const int64_t *offsets, const int32_t *next_lead,
                                        const int32_t *answers, int results, uint8_t *active, double *marked) {
    RaceShape sh;
    rsize count = 0;
    int kind = shaped(&sh, 1, leads, dims, grid, box, starts, next_lead, answers, results);
    if (kind == K_OK) kind = race_close(&sh, starts, offsets, next_lead, answers, results, active, &count, &last_error);
    *marked = (double)count;
    return kind;
}

EXPORT(race_back_at) int race_back_at(int leads, int dims, const int64_t *grid, const int64_t *box,
                                      const int64_t *starts, const int64_t *offsets, const int32_t *next_lead,
                                      const int32_t *answers, int results, const uint8_t *active, uint8_t *loops,
                                      double *out) {
    RaceShape sh;
    rsize marked = 0, outside = 0;
    int kind = shaped(&sh, 1, leads, dims, grid, box, starts, next_lead, answers, results);
    if (kind == K_OK) race_back(&sh, starts, offsets, next_lead, answers, active, loops, &marked, &outside);
    out[0] = (double)marked;
    out[1] = (double)outside;
    return kind;
}

EXPORT(race_reached_at) int race_reached_at(int leads, int dims, const int64_t *grid, const int64_t *box,
                                            const int64_t *offsets, int results, uint8_t *cells, double *marked) {
    RaceShape sh;
    rsize count = 0;
    int kind = shaped(&sh, 1, leads, dims, grid, box, NULL, NULL, NULL, -1);
    if (kind == K_OK) kind = race_reached(&sh, offsets, results, cells, &count, &last_error);
    *marked = (double)count;
    return kind;
}

EXPORT(race_live_at) int race_live_at(int leads, int dims, const int64_t *grid, const int64_t *box,
                                      const int32_t *answers, uint8_t *active, double *marked) {
    RaceShape sh;
    rsize count = 0;
    int kind = shaped(&sh, 1, leads, dims, grid, box, NULL, NULL, NULL, -1);
    if (kind == K_OK) kind = race_live(&sh, answers, active, &count, &last_error);
    *marked = (double)count;
    return kind;
}

EXPORT(race_find_at) int race_find_at(const unsigned char *raw, int count, int columns, double n, int64_t *out) {
    return race_find(raw, count, columns, (int64_t)n, out);
}

/* ``one_hand``: 1 and the chances in ``sum``, 0 (None), -1 (an error); the arrays' lengths in items. */
EXPORT(race_one_hand_at) int race_one_hand_at(const int32_t *answers, int cells, const double *terminals, int nterm,
                                              const uint8_t *active, int npos, const double *values, int nvalues,
                                              int n, const int32_t *box, const int32_t *coords, int base, int leads,
                                              const int32_t *steps, int nsteps, const int32_t *nxt, int results,
                                              const double *probs, int nprobs, double *sum) {
    rsize b[RACE_MAX_SIDES], x[RACE_MAX_SIDES];
    for (int k = 0; k < n && k < RACE_MAX_SIDES; k++) {
        b[k] = box[k];
        x[k] = coords[k];
    }
    return race_one_hand(answers, cells, terminals, nterm, active, npos, values, nvalues, n, b, x, base, leads, steps,
                         nsteps, nxt, results, probs, nprobs, sum, &last_error);
}

/* ``between``: as ``race_one_hand_at``; ``at`` NULL (0) or the position's running scores. */
EXPORT(race_between_at) int race_between_at(const int32_t *answers, int cells, const double *terminals, int nterm,
                                            const uint8_t *active, int npos, const double *values, int nvalues, int n,
                                            const int32_t *grid, const int32_t *box, int step, int leads,
                                            const int32_t *scores, int nscores, const int32_t *nxt, int results,
                                            const double *probs, int nprobs, const double *fixed, int nfixed,
                                            const int32_t *at, double *sum) {
    rsize g[RACE_MAX_SIDES], b[RACE_MAX_SIDES];
    for (int k = 0; k < n && k < RACE_MAX_SIDES; k++) {
        g[k] = grid[k];
        b[k] = box[k];
    }
    return race_between(answers, cells, terminals, nterm, active, npos, values, nvalues, n, g, b, step, leads, scores,
                        nscores, nxt, results, probs, nprobs, fixed, nfixed, at, sum, &last_error);
}

EXPORT(race_undiff_at) void race_undiff_at(uint32_t *x, int n, const int32_t *size, int nd) {
    rsize s[RACE_MAX_SIDES + 1];
    for (int k = 0; k < nd && k <= RACE_MAX_SIDES; k++) s[k] = size[k];
    race_undiff(x, n, s, nd);
}

EXPORT(race_place_at) void race_place_at(const int32_t *x, double *v, int leads, int sides, int points,
                                         double quantum) {
    race_place(x, v, leads, sides, points, quantum);
}
