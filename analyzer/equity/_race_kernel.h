/* The race solver's loops as a kernel (``_race_kernel.c``): ``_race.c``'s functions in plain C, with a flat interface
 * (arrays and integers in, numbers out) and no Python. Two bindings call it: the CPython extension
 * ``analyzer.equity._race`` (``_race.c``: buffers and tuples in, results out) and the standalone WebAssembly module
 * ``_race.wasm`` (``_race_wasm.c``). Read ``_race.c``'s top for what each function does; here only how it is called.
 * A call that fails returns an error kind (``K_VALUE``, ``K_MEMORY`` of ``_kernel.h``) with its text in ``*err``. */
#ifndef DOMINO_RACE_KERNEL_H
#define DOMINO_RACE_KERNEL_H

#include "../search/_kernel.h"

#define RACE_MAX_SIDES 8
#define RACE_UNASKED INT32_MIN    /* a cell of the box no grid point reaches: the match code was not asked */

typedef ptrdiff_t rsize;         /* a count or an index of the arrays (Py_ssize_t in the binding) */

typedef struct {
    int sides, leads, dims;
    rsize grid[RACE_MAX_SIDES], box[RACE_MAX_SIDES];
    rsize points, positions, cells;
} RaceShape;

/* A race's shape: ``dims`` grid and box sizes. */
int race_shape(RaceShape *sh, int sides, int leads, int dims, const int64_t *grid, const int64_t *box,
               const char **err);
/* Every result's offset and next lead within the arrays, and each answer a grid point of the race or not one. */
int race_check_results(const RaceShape *sh, const int64_t *starts, const int32_t *next_lead, const int32_t *answers,
                       rsize results, const char **err);

/* ``sweep``: ``terminals`` holds ``nterm`` finished matches' chances; ``*sweeps``, ``*change``. */
int race_sweep(const RaceShape *sh, const int64_t *starts, const double *probs, const int64_t *offsets,
               const int32_t *next_lead, const int32_t *answers, rsize results, const double *terminals, rsize nterm,
               const uint8_t *active, double *values, double tol, int max_sweeps, int *sweeps, double *change,
               const char **err);
/* ``close``: ``*marked``. */
int race_close(const RaceShape *sh, const int64_t *starts, const int64_t *offsets, const int32_t *next_lead,
               const int32_t *answers, rsize results, uint8_t *active, rsize *marked, const char **err);
/* ``back``: ``*marked``, ``*outside``. */
void race_back(const RaceShape *sh, const int64_t *starts, const int64_t *offsets, const int32_t *next_lead,
               const int32_t *answers, const uint8_t *active, uint8_t *loops, rsize *marked, rsize *outside);
/* ``reached``: ``*marked``. */
int race_reached(const RaceShape *sh, const int64_t *offsets, rsize results, uint8_t *cells, rsize *marked,
                 const char **err);
/* ``live``: ``*marked``. */
int race_live(const RaceShape *sh, const int32_t *answers, uint8_t *active, rsize *marked, const char **err);
/* ``find`` in a block of ``count`` rows of ``columns`` numbers: 1 and the other columns' numbers in ``out``, or 0. */
int race_find(const unsigned char *raw, rsize count, int columns, int64_t n, int64_t *out);
/* ``one_hand``: 1 and each player's chance in ``sum``, 0 (None), or -1 (``*err``: the arrays do not match). The
 * arrays' lengths in items: ``cells`` answers, ``nterm`` terminals (doubles), ``npos`` active (and ``nvalues``
 * values, doubles), ``results`` next leads (``nsteps`` steps, ``nprobs`` chances). */
int race_one_hand(const int32_t *answers, rsize cells, const double *terminals, rsize nterm, const uint8_t *active,
                  rsize npos, const double *values, rsize nvalues, int n, const rsize *box, const rsize *coords,
                  rsize base, int leads, const int32_t *steps, rsize nsteps, const int32_t *nxt, rsize results,
                  const double *probs, rsize nprobs, double *sum, const char **err);
/* ``between``: as ``race_one_hand``; ``scores`` (``nscores``) and ``fixed`` (``nfixed`` doubles) each result's;
 * ``at`` NULL, or the position's running scores (``base``). */
int race_between(const int32_t *answers, rsize cells, const double *terminals, rsize nterm, const uint8_t *active,
                 rsize npos, const double *values, rsize nvalues, int n, const rsize *grid, const rsize *box, int step,
                 int leads, const int32_t *scores, rsize nscores, const int32_t *nxt, rsize results,
                 const double *probs, rsize nprobs, const double *fixed, rsize nfixed, const int32_t *at, double *sum,
                 const char **err);
/* ``undiff``: ``n`` numbers, ``nd`` axes of ``size``. */
void race_undiff(uint32_t *x, rsize n, const rsize *size, int nd);
/* ``place``: ``points`` grid points. */
void race_place(const int32_t *x, double *v, int leads, int sides, rsize points, double quantum);

#endif
