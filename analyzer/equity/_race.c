/* The compiled loop of the race solver: the sweeps of analyzer/equity/race.py's equations in C.
 *
 * A race (a match of individual players to a target of points or bad points) is solved over dense arrays:
 * a position is a grid point (every player's running score, in the variant's score step) and a lead (an
 * index into the driver's list of leads), numbered ``g * leads + l`` with the grid row-major, player 0 most
 * significant. Nothing here knows the match's rules: the driver (race.py) asked the match code, once per
 * distinct new totals, where a hand's totals take the match, and hands in ``answers``: per cell of the
 * *box* of totals (each player's grid score plus a hand's scores), the grid point the match goes on at
 * (>= 0) or ``-1 - t``, the finished match's chances ``terminals[t * sides ...]``. A result of a hand led
 * from lead ``l`` is ``probs[r]`` (its chance), ``offsets[r]`` (its scores as a step in the box's index)
 * and ``next_lead[r]``, for ``r`` in ``starts[l] .. starts[l + 1]``.
 *
 * ``sweep(sides, leads, grid, box, starts, probs, offsets, next_lead, answers, terminals, active, values,
 *   tol, max_sweeps)``: Gauss-Seidel sweeps, highest grid point first (one sweep is exact where scores
 *   only grow), over the positions ``active`` marks, until no chance moves by more than ``tol``; a
 *   position's own loop (a hand that leaves the match where it was) is solved in place, ``v = rest / (1 -
 *   stay)``, and a position no hand can leave is a drawn match (1/sides each). ``values`` (``sides``
 *   doubles a position) holds the first guess and receives the chances. Returns ``(sweeps, change)``.
 *   Swept a block of rows at a time (``sweep_blocks``): a result that the match code sends into its own block at
 *   other scores than its new totals reads the block's chances of the sweep before (such positions are the loops
 *   ``back`` marks, solved before the last, exact sweep).
 *
 * ``close(leads, grid, box, starts, offsets, next_lead, answers, active)``: marks in ``active`` every
 *   position a marked one leads to (breadth first); returns how many it marked.
 *
 * ``back(leads, grid, box, starts, offsets, next_lead, answers, active, loops)``: marks in ``loops`` every
 *   position a hand may take the match to from a position numbered above it: the grid points where the
 *   match goes on at other scores than a cell's new totals (a tie past the target shifted back), and where
 *   a hand leaves the scores and passes the lead to one numbered below; with all they lead to, the only
 *   positions a sweep from the top does not solve exactly. Returns ``(marked, outside)``: ``outside``
 *   counts the cells whose answer is a grid point ``active`` does not mark (then ``close`` it first).
 *
 * ``live(leads, grid, box, answers, active)``: marks in ``active`` every lead of each grid point whose own
 *   totals the match code answered with the point itself (a running score the match can be at); returns
 *   how many positions it marked.
 *
 * ``reached(leads, grid, box, starts, offsets, cells)``: marks in ``cells`` (a byte a cell of the box) every
 *   grid point's own totals and its totals after every result; returns how many cells are marked: the
 *   new totals the match code must be asked about.
 *
 * ``find(block, columns, n)``: in an unpacked block of a compact MWC table (store.py: ``columns`` sequences of
 *   as many signed 32-bit little-endian integers, each its first number and the differences of the next ones;
 *   the first the scores as one number, ascending), the other columns' numbers at the position whose scores
 *   are ``n``: a tuple, None where the block has no such position. The twin is store.py's (``accumulate``).
 *
 * ``one_hand(answers, terminals, active, values, box, coords, base, leads, steps, next_lead, probs)``: every
 *   player's chance one hand from the grid point at ``coords`` (its box cell ``base``): each result ``r`` (its
 *   score steps ``steps[r * sides ...]``, the next lead's index ``next_lead[r]``, its chance ``probs[r]``) weighed
 *   by the chances where it leaves the match (a finished match's, or the active position's), added up in the
 *   results' order: a tuple, None where a result leaves the box, meets a cell the match code was not asked about
 *   or a position not solved. The twin is race.py's ``RaceValues.one_hand``.
 *
 * ``between(answers, terminals, active, values, grid, box, step, leads, scores, next_lead, probs, fixed)``: on a
 *   coarser lattice (``step`` points a lattice step), every player's chance one hand from a position whose
 *   results' running scores are real, not on the lattice: each result ``r`` either ends the match (``scores[r *
 *   sides]`` < 0: its chances are ``fixed[r * sides ...]``) or goes on at the running scores ``scores[r * sides
 *   ...]`` led by ``next_lead[r]``, weighed from the surrounding lattice points (each score split between its two
 *   neighbours, the mean kept: the weight ``1 - rest / step`` below, ``rest / step`` above, a split of weight 0
 *   left out; the corners in order, player 0 most significant; a corner not solved takes the finished match
 *   where the match code answered one); ``probs[r]`` times that, added up in the results' order: a tuple,
 *   None where a corner lies off the lattice or is neither solved nor a finished match. The same sums in the
 *   same order as race.py's ``RaceValues.between`` and its twin, the walk's (``table.solve_each``). With ``base``
 *   (a tuple, the position's running scores), each ``scores`` row that does not end the match is what the result
 *   adds to them (``RaceValues.after_added``: one array a lead, not one a position).
 *
 * ``undiff(numbers, dims)`` and ``place(numbers, values, leads, sides, quantum)``: a solved race shipped packed
 *   (shipped.py) unpacked: the running sums of its differences, its chances put in place (see each below).
 *
 * ``sweep``, ``close``, ``back`` and ``reached`` release the GIL while they run. The pure-Python twin is ``race.py``'s ``_PySweeps``.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDES 8
#if defined(__GNUC__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE static inline
#endif
#define ROW_RESULTS 8           /* the results a row's sums take at once (row_sums) */
#define MAX_LEADS 64             /* the most leads a race's rows are swept with (its results split per lead) */
#define UNASKED INT32_MIN         /* a cell of the box no grid point reaches: the match code was not asked */

typedef struct {
    int sides, leads, dims;
    Py_ssize_t grid[MAX_SIDES], box[MAX_SIDES];
    Py_ssize_t points, positions, cells;
} Shape;

static int shape_of(PyObject *grid, PyObject *box, int sides, int leads, Shape *sh) {
    if (!PyTuple_Check(grid) || !PyTuple_Check(box) || PyTuple_GET_SIZE(grid) != PyTuple_GET_SIZE(box)
        || PyTuple_GET_SIZE(grid) < 1 || PyTuple_GET_SIZE(grid) > MAX_SIDES) {
        PyErr_SetString(PyExc_ValueError, "grid and box: tuples of the same length, 1 to 8");
        return -1;
    }
    sh->sides = sides;
    sh->leads = leads;
    sh->dims = (int)PyTuple_GET_SIZE(grid);
    sh->points = 1;
    sh->cells = 1;
    for (int k = 0; k < sh->dims; k++) {
        sh->grid[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(grid, k));
        sh->box[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(box, k));
        if (PyErr_Occurred())
            return -1;
        if (sh->grid[k] < 1 || sh->box[k] < sh->grid[k]) {
            PyErr_SetString(PyExc_ValueError, "each grid size at least 1 and at most its box size");
            return -1;
        }
        sh->points *= sh->grid[k];
        sh->cells *= sh->box[k];
    }
    if (leads < 1 || sides < 1 || sides > MAX_SIDES) {
        PyErr_SetString(PyExc_ValueError, "leads at least 1, sides 1 to 8");
        return -1;
    }
    sh->positions = sh->points * leads;
    return 0;
}

/* each grid point's cell in the box of totals */
static int64_t *bases(const Shape *sh) {
    int64_t *out = malloc(sizeof(int64_t) * (size_t)sh->points);
    if (out == NULL)
        return NULL;
    Py_ssize_t coord[MAX_SIDES] = {0};
    int64_t stride[MAX_SIDES];
    int64_t st = 1;
    for (int k = sh->dims - 1; k >= 0; k--) {
        stride[k] = st;
        st *= sh->box[k];
    }
    for (Py_ssize_t g = 0; g < sh->points; g++) {
        int64_t b = 0;
        for (int k = 0; k < sh->dims; k++)
            b += coord[k] * stride[k];
        out[g] = b;
        for (int k = sh->dims - 1; k >= 0; k--) {       /* the next grid point, row-major */
            if (++coord[k] < sh->grid[k])
                break;
            coord[k] = 0;
        }
    }
    return out;
}

typedef struct { Py_buffer b; int held; } Buf;

static int get(PyObject *obj, Buf *buf, Py_ssize_t itemsize, Py_ssize_t count, int writable, const char *name) {
    if (PyObject_GetBuffer(obj, &buf->b, writable ? PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    buf->held = 1;
    if (buf->b.len < itemsize * count) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, at least %zd wanted", name, buf->b.len, itemsize * count);
        return -1;
    }
    return 0;
}

static void release(Buf *bufs, int n) {
    for (int i = 0; i < n; i++)
        if (bufs[i].held)
            PyBuffer_Release(&bufs[i].b);
}

/* every result's offset and next lead lie within the arrays: checked once, so the loops need not */
static int check_results(const Shape *sh, const int64_t *starts, const int32_t *next_lead, const int32_t *answers,
                         Py_ssize_t results) {
    if (starts[0] != 0 || starts[sh->leads] != results) {
        PyErr_SetString(PyExc_ValueError, "starts: 0 first, the number of results last");
        return -1;
    }
    for (int l = 0; l < sh->leads; l++)
        if (starts[l + 1] < starts[l]) {
            PyErr_SetString(PyExc_ValueError, "starts: not ascending");
            return -1;
        }
    for (Py_ssize_t r = 0; r < results; r++)
        if (next_lead[r] < 0 || next_lead[r] >= sh->leads) {
            PyErr_SetString(PyExc_ValueError, "next_lead: a lead out of range");
            return -1;
        }
    for (Py_ssize_t c = 0; c < sh->cells; c++)
        if (answers[c] >= sh->points) {
            PyErr_SetString(PyExc_ValueError, "answers: a grid point out of range");
            return -1;
        }
    return 0;
}

/* The hands' results every loop over them reads: ``starts``, ``offsets``, ``next_lead`` and ``answers``, the
 * objects ``objs[at[0..3]]`` into ``bufs[at[0..3]]``, checked (``check_results``); ``*results``: how many. */
static int get_results(PyObject **objs, Buf *bufs, const int at[4], const Shape *sh, Py_ssize_t *results) {
    if (get(objs[at[0]], &bufs[at[0]], 8, sh->leads + 1, 0, "starts") < 0)
        return -1;
    *results = ((int64_t *)bufs[at[0]].b.buf)[sh->leads];
    if (get(objs[at[1]], &bufs[at[1]], 8, *results, 0, "offsets") < 0
        || get(objs[at[2]], &bufs[at[2]], 4, *results, 0, "next_lead") < 0
        || get(objs[at[3]], &bufs[at[3]], 4, sh->cells, 0, "answers") < 0)
        return -1;
    return check_results(sh, bufs[at[0]].b.buf, bufs[at[2]].b.buf, bufs[at[3]].b.buf, *results);
}

static int check_offsets(const Shape *sh, const int64_t *offsets, Py_ssize_t results, const int64_t *base) {
    int64_t top = base[sh->points - 1];        /* the highest grid point's cell */
    for (Py_ssize_t r = 0; r < results; r++)
        if (offsets[r] < 0 || top + offsets[r] >= sh->cells) {
            PyErr_SetString(PyExc_ValueError, "offsets: a result's totals lie outside the box");
            return -1;
        }
    return 0;
}

typedef struct {
    const Shape *sh;
    const int64_t *starts, *offsets, *base;
    const double *probs;
    const int32_t *next_lead, *answers;
    const uint8_t *active;
    double *ext;                /* every position's chances, lead by lead (``l * points + g``: a result's next
                                 * positions along a row lie side by side), then every finished match's */
} Sweep;

/* a result's next position in ``ext`` (a finished match: ``positions + t``) */
static inline Py_ssize_t next_of(const Sweep *w, int32_t a, int64_t r) {
    return a >= 0 ? (Py_ssize_t)w->next_lead[r] * w->sh->points + a : w->sh->positions - 1 - (Py_ssize_t)a;
}

/* position p's new chances from ``acc`` and its own loop ``stay``; returns how far they moved */
static inline double settle(const Sweep *w, Py_ssize_t p, const double *acc, double stay) {
    int sides = w->sh->sides;
    double *v = w->ext + p * sides;
    double scale = stay < 1.0 ? 1.0 / (1.0 - stay) : 0.0, change = 0.0;
    for (int s = 0; s < sides; s++) {
        double x = stay < 1.0 ? acc[s] * scale : 1.0 / sides;     /* no hand leaves it: drawn */
        double d = x > v[s] ? x - v[s] : v[s] - x;
        if (d > change)
            change = d;
        v[s] = x;
    }
    return change;
}

/* one sweep, position by position, highest first */
static double sweep_positions(const Sweep *w) {
    const Shape *sh = w->sh;
    int sides = sh->sides, leads = sh->leads;
    double acc[MAX_SIDES], change = 0.0;
    for (Py_ssize_t g = sh->points - 1; g >= 0; g--) {
        int64_t b = w->base[g];
        for (int l = leads - 1; l >= 0; l--) {
            if (!w->active[g * leads + l])
                continue;
            Py_ssize_t p = l * sh->points + g;
            double stay = 0.0;
            for (int s = 0; s < sides; s++)
                acc[s] = 0.0;
            for (int64_t r = w->starts[l]; r < w->starts[l + 1]; r++) {
                Py_ssize_t q = next_of(w, w->answers[b + w->offsets[r]], r);
                if (q == p) {
                    stay += w->probs[r];
                    continue;
                }
                const double *x = w->ext + q * sides;
                for (int s = 0; s < sides; s++)
                    acc[s] += w->probs[r] * x[s];
            }
            double d = settle(w, p, acc, stay);
            if (d > change)
                change = d;
        }
    }
    return change;
}

/* the results ``r0 .. r1`` of lead ``l`` summed along the row whose first grid point is ``g0`` (its cell ``b0``):
 * into ``acc`` (``sides`` a position, ``j * leads + l``) and ``stay`` (a result that leaves a position where it
 * was), a position's sums in the results' order, ``ROW_RESULTS`` results at a time (a position's sums held in
 * registers meanwhile). ``sides`` a constant where it is inlined with one (the sums unrolled). */
ALWAYS_INLINE void row_sums(const Sweep *w, double *acc, double *stay, Py_ssize_t g0, int64_t b0, int l, int64_t r0,
                            int64_t r1, Py_ssize_t len, int sides) {
    int leads = w->sh->leads;
    Py_ssize_t self = l * w->sh->points + g0;
    int64_t r = r0;
    for (; r + ROW_RESULTS <= r1; r += ROW_RESULTS) {   /* (a position's sums in registers over a few results) */
        const int32_t *ans[ROW_RESULTS];
        for (int k = 0; k < ROW_RESULTS; k++)
            ans[k] = w->answers + b0 + w->offsets[r + k];
        for (Py_ssize_t j = 0; j < len; j++) {
            double *a = acc + (j * leads + l) * sides, sum[MAX_SIDES];
            for (int s = 0; s < sides; s++)
                sum[s] = a[s];
            for (int k = 0; k < ROW_RESULTS; k++) {
                Py_ssize_t q = next_of(w, ans[k][j], r + k);
                if (q == self + j) {
                    stay[j * leads + l] += w->probs[r + k];
                    continue;
                }
                const double *x = w->ext + q * sides;
                double pr = w->probs[r + k];
                for (int s = 0; s < sides; s++)
                    sum[s] += pr * x[s];
            }
            for (int s = 0; s < sides; s++)
                a[s] = sum[s];
        }
    }
    for (; r < r1; r++) {
        const int32_t *ans = w->answers + b0 + w->offsets[r];
        double pr = w->probs[r];
        for (Py_ssize_t j = 0; j < len; j++) {
            Py_ssize_t q = next_of(w, ans[j], r);
            if (q == self + j) {
                stay[j * leads + l] += pr;
                continue;
            }
            const double *x = w->ext + q * sides;
            double *a = acc + (j * leads + l) * sides;
            for (int s = 0; s < sides; s++)
                a[s] += pr * x[s];
        }
    }
}

/* ``row_sums`` with ``sides`` a constant where it is a common one */
static void sums(const Sweep *w, double *acc, double *stay, Py_ssize_t g0, int64_t b0, int l, int64_t r0, int64_t r1,
                 Py_ssize_t len) {
    switch (w->sh->sides) {
    case 3:
        row_sums(w, acc, stay, g0, b0, l, r0, r1, len, 3);
        break;
    case 4:
        row_sums(w, acc, stay, g0, b0, l, r0, r1, len, 4);
        break;
    default:
        row_sums(w, acc, stay, g0, b0, l, r0, r1, len, w->sh->sides);
    }
}

/* one sweep a block of ``n`` rows at a time (a row: the grid points that differ in the last player's score only,
 * with every lead; a block: 1 row, or the rows that differ in the last two players' scores only), highest block
 * first. The results that move an earlier player's score lead to blocks already swept (or to the positions solved
 * before, ``back``), so they are summed result by result along the whole block (``row_sums`` row by row, a few
 * results at a time: the rows they read lie close, and stay in the cache from one row to the next); then each row
 * from the block's top, the results that move the next to last player's score (and maybe the last's) summed along
 * the row, then those that move the last player's score alone, position by position from the row's top (its
 * leads highest first), as ``sweep_positions`` does. ``acc``: n * row length * leads * (sides + 1); ``live``: n. */
static double sweep_blocks(const Sweep *w, double *acc, uint8_t *live, Py_ssize_t n) {
    const Shape *sh = w->sh;
    int sides = sh->sides, dims = sh->dims, leads = sh->leads;
    Py_ssize_t len = sh->grid[dims - 1], lastbox = sh->box[dims - 1], size = n * len * leads;
    Py_ssize_t blockbox = n > 1 ? lastbox * sh->box[dims - 2] : lastbox;
    double *stay = acc + size * sides;
    int64_t split[MAX_LEADS], outer[MAX_LEADS];
    for (int l = 0; l < leads; l++) {     /* (each lead's results in order of their scores) */
        split[l] = w->starts[l];
        while (split[l] < w->starts[l + 1] && w->offsets[split[l]] < lastbox)
            split[l]++;
        outer[l] = split[l];
        while (outer[l] < w->starts[l + 1] && w->offsets[outer[l]] < blockbox)
            outer[l]++;
    }
    double change = 0.0;
    for (Py_ssize_t top = sh->points / len - n; top >= 0; top -= n) {
        Py_ssize_t first = top * len;       /* (the block's first grid point) */
        if (memchr(w->active + first * leads, 1, (size_t)size) == NULL)     /* (the loops' sweeps: a few blocks) */
            continue;
        memset(acc, 0, sizeof(double) * (size_t)(size * (sides + 1)));
        for (Py_ssize_t k = 0; k < n; k++)         /* (a row with no marked position is not summed) */
            live[k] = memchr(w->active + (first + k * len) * leads, 1, (size_t)(len * leads)) != NULL;
        for (int l = 0; l < leads; l++)
            for (int64_t r = outer[l]; r < w->starts[l + 1]; r += ROW_RESULTS) {
                int64_t r1 = r + ROW_RESULTS < w->starts[l + 1] ? r + ROW_RESULTS : w->starts[l + 1];
                for (Py_ssize_t k = 0; k < n; k++)
                    if (live[k])
                        sums(w, acc + k * len * leads * sides, stay + k * len * leads, first + k * len,
                             w->base[first + k * len], l, r, r1, len);
            }
        for (Py_ssize_t k = n - 1; k >= 0; k--) {
            Py_ssize_t g0 = first + k * len;
            int64_t b0 = w->base[g0];
            double *racc = acc + k * len * leads * sides, *rstay = stay + k * len * leads;
            if (!live[k])
                continue;
            for (int l = 0; l < leads; l++)
                sums(w, racc, rstay, g0, b0, l, split[l], outer[l], len);
            for (Py_ssize_t j = len - 1; j >= 0; j--)
                for (int l = leads - 1; l >= 0; l--) {
                    if (!w->active[(g0 + j) * leads + l])
                        continue;
                    Py_ssize_t p = l * sh->points + g0 + j;
                    double *a = racc + (j * leads + l) * sides, *st = rstay + j * leads + l;
                    for (int64_t r = w->starts[l]; r < split[l]; r++) {
                        Py_ssize_t q = next_of(w, w->answers[b0 + j + w->offsets[r]], r);
                        if (q == p) {
                            *st += w->probs[r];
                            continue;
                        }
                        const double *x = w->ext + q * sides;
                        for (int s = 0; s < sides; s++)
                            a[s] += w->probs[r] * x[s];
                    }
                    double d = settle(w, p, a, *st);
                    if (d > change)
                        change = d;
                }
        }
    }
    return change;
}

/* the rows a sweep's block holds: 0 (position by position), 1, or the next to last player's grid size (see
 * ``sweep_blocks``), the most whose blocks that hold a marked position hold at least a quarter marked (a block sums
 * every result over its whole length; a few positions scattered over many blocks, the loops of ``back``, are cheaper
 * one by one: All Fives for four's 2,481, swept 9 times, took 3.1 s by rows) */
static Py_ssize_t block_rows(const Shape *sh, const uint8_t *active) {
    if (sh->leads > MAX_LEADS)
        return 0;
    Py_ssize_t tries[2] = {sh->dims > 1 ? sh->grid[sh->dims - 2] : 1, 1};
    for (int t = 0; t < 2; t++) {
        Py_ssize_t len = tries[t] * sh->grid[sh->dims - 1] * sh->leads, marked = 0, blocks = 0;
        for (Py_ssize_t g0 = 0; g0 < sh->positions; g0 += len) {
            Py_ssize_t in_block = 0;
            for (Py_ssize_t j = 0; j < len; j++)
                in_block += active[g0 + j] != 0;
            marked += in_block;
            blocks += in_block > 0;
        }
        if (marked * 4 >= blocks * len)
            return tries[t];
    }
    return 0;
}

static PyObject *sweep(PyObject *self, PyObject *args) {
    int sides, leads, max_sweeps;
    double tol;
    PyObject *grid, *box, *objs[8];
    if (!PyArg_ParseTuple(args, "iiOOOOOOOOOOdi", &sides, &leads, &grid, &box, &objs[0], &objs[1], &objs[2],
                          &objs[3], &objs[4], &objs[5], &objs[6], &objs[7], &tol, &max_sweeps))
        return NULL;
    Shape sh;
    if (shape_of(grid, box, sides, leads, &sh) < 0)
        return NULL;
    Buf bufs[8];
    memset(bufs, 0, sizeof bufs);
    PyObject *out = NULL;
    int64_t *base = NULL;
    Py_ssize_t results;
    static const int at[4] = {0, 2, 3, 4};
    if (get_results(objs, bufs, at, &sh, &results) < 0
        || get(objs[1], &bufs[1], 8, results, 0, "probs") < 0 || get(objs[5], &bufs[5], 8, 0, 0, "terminals") < 0
        || get(objs[6], &bufs[6], 1, sh.positions, 0, "active") < 0
        || get(objs[7], &bufs[7], 8, sh.positions * sides, 1, "values") < 0)
        goto done;
    const int64_t *starts = bufs[0].b.buf, *offsets = bufs[2].b.buf;
    const double *probs = bufs[1].b.buf, *terminals = bufs[5].b.buf;
    const int32_t *next_lead = bufs[3].b.buf, *answers = bufs[4].b.buf;
    const uint8_t *active = bufs[6].b.buf;
    double *values = bufs[7].b.buf;
    Py_ssize_t nterm = bufs[5].b.len / (8 * sides);
    for (Py_ssize_t c = 0; c < sh.cells; c++)
        if (answers[c] < 0 && answers[c] != UNASKED && -1 - (Py_ssize_t)answers[c] >= nterm) {
            PyErr_SetString(PyExc_ValueError, "answers: a finished match out of range");
            goto done;
        }
    base = bases(&sh);
    if (base == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (check_offsets(&sh, offsets, results, base) < 0)
        goto done;
    /* the chances of every position, then of every finished match: one array, so that a result's next
     * position is found without a branch (a finished match is position ``positions + t``) */
    double *ext = malloc(sizeof(double) * (size_t)((sh.positions + nterm) * sides));
    if (ext == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t g = 0; g < sh.points; g++)
        for (int l = 0; l < leads; l++)
            memcpy(ext + (l * sh.points + g) * sides, values + (g * leads + l) * sides, sizeof(double) * (size_t)sides);
    memcpy(ext + sh.positions * sides, terminals, sizeof(double) * (size_t)(nterm * sides));
    Py_ssize_t block = block_rows(&sh, active);
    double *rows = malloc(sizeof(double) * (size_t)(block ? block * sh.grid[sh.dims - 1] * leads * (sides + 1) + block
                                                          : 1));     /* (the sums, then a byte a row: ``live``) */
    if (rows == NULL) {
        free(ext);
        PyErr_NoMemory();
        goto done;
    }
    Sweep w = {&sh, starts, offsets, base, probs, next_lead, answers, active, ext};
    int done_sweeps = 0;
    double change = 0.0;
    Py_BEGIN_ALLOW_THREADS
    for (done_sweeps = 1; done_sweeps <= max_sweeps; done_sweeps++) {
        change = block ? sweep_blocks(&w, rows, (uint8_t *)(rows + block * sh.grid[sh.dims - 1] * leads * (sides + 1)),
                                      block) : sweep_positions(&w);
        if (change < tol)
            break;
    }
    Py_END_ALLOW_THREADS
    free(rows);
    for (Py_ssize_t g = 0; g < sh.points; g++)
        for (int l = 0; l < leads; l++)
            memcpy(values + (g * leads + l) * sides, ext + (l * sh.points + g) * sides, sizeof(double) * (size_t)sides);
    free(ext);
    if (done_sweeps > max_sweeps)
        done_sweeps = max_sweeps;
    out = Py_BuildValue("(id)", done_sweeps, change);
done:
    free(base);
    release(bufs, 8);
    return out;
}

static PyObject *close_(PyObject *self, PyObject *args) {
    int leads;
    PyObject *grid, *box, *objs[5];
    if (!PyArg_ParseTuple(args, "iOOOOOOO", &leads, &grid, &box, &objs[0], &objs[1], &objs[2], &objs[3], &objs[4]))
        return NULL;
    Shape sh;
    if (shape_of(grid, box, 1, leads, &sh) < 0)
        return NULL;
    Buf bufs[5];
    memset(bufs, 0, sizeof bufs);
    PyObject *out = NULL;
    int64_t *base = NULL, *queue = NULL;
    Py_ssize_t results;
    static const int at[4] = {0, 1, 2, 3};
    if (get_results(objs, bufs, at, &sh, &results) < 0 || get(objs[4], &bufs[4], 1, sh.positions, 1, "active") < 0)
        goto done;
    const int64_t *starts = bufs[0].b.buf, *offsets = bufs[1].b.buf;
    const int32_t *next_lead = bufs[2].b.buf, *answers = bufs[3].b.buf;
    uint8_t *active = bufs[4].b.buf;
    base = bases(&sh);
    queue = malloc(sizeof(int64_t) * (size_t)sh.positions);
    if (base == NULL || queue == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (check_offsets(&sh, offsets, results, base) < 0)
        goto done;
    Py_ssize_t head = 0, tail = 0, marked = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t p = 0; p < sh.positions; p++)
        if (active[p])
            queue[tail++] = p;
    while (head < tail) {
        Py_ssize_t p = queue[head++];
        int l = (int)(p % leads);
        int64_t b = base[p / leads];
        for (int64_t r = starts[l]; r < starts[l + 1]; r++) {
            int32_t a = answers[b + offsets[r]];
            if (a < 0)
                continue;
            Py_ssize_t q = (Py_ssize_t)a * leads + next_lead[r];
            if (!active[q]) {
                active[q] = 1;
                queue[tail++] = q;
                marked++;
            }
        }
    }
    Py_END_ALLOW_THREADS
    out = PyLong_FromSsize_t(marked);
done:
    free(base);
    free(queue);
    release(bufs, 5);
    return out;
}

/* the grid point of box cell ``c``'s own totals, or -1 where they lie off the grid */
static Py_ssize_t point_of(const Shape *sh, Py_ssize_t c) {
    Py_ssize_t coord[MAX_SIDES];
    for (int k = sh->dims - 1; k >= 0; k--) {
        coord[k] = c % sh->box[k];
        c /= sh->box[k];
    }
    Py_ssize_t g = 0;
    for (int k = 0; k < sh->dims; k++) {
        if (coord[k] >= sh->grid[k])
            return -1;
        g = g * sh->grid[k] + coord[k];
    }
    return g;
}

static PyObject *back(PyObject *self, PyObject *args) {
    int leads;
    PyObject *grid, *box, *objs[6];
    if (!PyArg_ParseTuple(args, "iOOOOOOOO", &leads, &grid, &box, &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5]))
        return NULL;
    Shape sh;
    if (shape_of(grid, box, 1, leads, &sh) < 0)
        return NULL;
    Buf bufs[6];
    memset(bufs, 0, sizeof bufs);
    PyObject *out = NULL;
    Py_ssize_t results;
    static const int at[4] = {0, 1, 2, 3};
    if (get_results(objs, bufs, at, &sh, &results) < 0 || get(objs[4], &bufs[4], 1, sh.positions, 0, "active") < 0
        || get(objs[5], &bufs[5], 1, sh.positions, 1, "loops") < 0)
        goto done;
    const int64_t *starts = bufs[0].b.buf, *offsets = bufs[1].b.buf;
    const int32_t *next_lead = bufs[2].b.buf, *answers = bufs[3].b.buf;
    const uint8_t *active = bufs[4].b.buf;
    uint8_t *loops = bufs[5].b.buf;
    Py_ssize_t marked = 0, outside = 0;
    Py_BEGIN_ALLOW_THREADS
    /* a hand goes from a position to one numbered below it only where the match goes on at other scores
     * than the new totals (a tie past the target shifted back), or where the scores stay and the lead
     * comes round to one numbered below */
    for (Py_ssize_t c = 0; c < sh.cells; c++) {
        int32_t a = answers[c];
        if (a < 0)
            continue;
        if (!active[(Py_ssize_t)a * leads])
            outside++;
        if (a != point_of(&sh, c))
            for (int l = 0; l < leads; l++)
                if (!loops[(Py_ssize_t)a * leads + l]) {
                    loops[(Py_ssize_t)a * leads + l] = 1;
                    marked++;
                }
    }
    for (int l = 0; l < leads; l++)
        for (int64_t r = starts[l]; r < starts[l + 1]; r++)
            if (offsets[r] == 0 && next_lead[r] < l)
                for (Py_ssize_t g = 0; g < sh.points; g++) {
                    Py_ssize_t q = g * leads + next_lead[r];
                    if (active[q] && !loops[q]) {
                        loops[q] = 1;
                        marked++;
                    }
                }
    Py_END_ALLOW_THREADS
    out = Py_BuildValue("(nn)", marked, outside);
done:
    release(bufs, 6);
    return out;
}

static PyObject *reached(PyObject *self, PyObject *args) {
    int leads;
    PyObject *grid, *box, *objs[3];
    if (!PyArg_ParseTuple(args, "iOOOOO", &leads, &grid, &box, &objs[0], &objs[1], &objs[2]))
        return NULL;
    Shape sh;
    if (shape_of(grid, box, 1, leads, &sh) < 0)
        return NULL;
    Buf bufs[3];
    memset(bufs, 0, sizeof bufs);
    PyObject *out = NULL;
    int64_t *base = NULL;
    if (get(objs[0], &bufs[0], 8, leads + 1, 0, "starts") < 0)
        goto done;
    Py_ssize_t results = ((int64_t *)bufs[0].b.buf)[leads];
    if (get(objs[1], &bufs[1], 8, results, 0, "offsets") < 0 || get(objs[2], &bufs[2], 1, sh.cells, 1, "cells") < 0)
        goto done;
    const int64_t *offsets = bufs[1].b.buf;
    uint8_t *cells = bufs[2].b.buf;
    base = bases(&sh);
    if (base == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (check_offsets(&sh, offsets, results, base) < 0)
        goto done;
    Py_ssize_t marked = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t g = 0; g < sh.points; g++) {
        cells[base[g]] = 1;
        for (Py_ssize_t r = 0; r < results; r++)
            cells[base[g] + offsets[r]] = 1;
    }
    for (Py_ssize_t c = 0; c < sh.cells; c++)
        marked += cells[c];
    Py_END_ALLOW_THREADS
    out = PyLong_FromSsize_t(marked);
done:
    free(base);
    release(bufs, 3);
    return out;
}

static PyObject *live(PyObject *self, PyObject *args) {
    int leads;
    PyObject *grid, *box, *objs[2];
    if (!PyArg_ParseTuple(args, "iOOOO", &leads, &grid, &box, &objs[0], &objs[1]))
        return NULL;
    Shape sh;
    if (shape_of(grid, box, 1, leads, &sh) < 0)
        return NULL;
    Buf bufs[2];
    memset(bufs, 0, sizeof bufs);
    PyObject *out = NULL;
    int64_t *base = NULL;
    if (get(objs[0], &bufs[0], 4, sh.cells, 0, "answers") < 0 || get(objs[1], &bufs[1], 1, sh.positions, 1, "active") < 0)
        goto done;
    const int32_t *answers = bufs[0].b.buf;
    uint8_t *active = bufs[1].b.buf;
    base = bases(&sh);
    if (base == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t marked = 0;
    for (Py_ssize_t g = 0; g < sh.points; g++)
        if (answers[base[g]] == g) {
            memset(active + g * leads, 1, (size_t)leads);
            marked += leads;
        }
    out = PyLong_FromSsize_t(marked);
done:
    free(base);
    release(bufs, 2);
    return out;
}

static int64_t le32(const unsigned char *p) {
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

static PyObject *find(PyObject *self, PyObject *args) {
    Py_buffer block;
    int columns;
    long long n;
    if (!PyArg_ParseTuple(args, "y*iL", &block, &columns, &n)) return NULL;
    if (columns < 1 || block.len % (4 * (Py_ssize_t)columns)) {
        PyBuffer_Release(&block);
        PyErr_SetString(PyExc_ValueError, "find: a block of columns of 32-bit numbers");
        return NULL;
    }
    const unsigned char *raw = block.buf;
    Py_ssize_t count = block.len / (4 * columns), i;
    int64_t sum = 0;
    for (i = 0; i < count; i++) {
        sum += le32(raw + 4 * i);
        if (sum >= n) break;
    }
    PyObject *out;
    if (i == count || sum != n) {
        out = Py_NewRef(Py_None);
    } else {
        out = PyTuple_New(columns - 1);
        for (int k = 1; out != NULL && k < columns; k++) {
            const unsigned char *col = raw + 4 * count * k;
            int64_t v = 0;
            for (Py_ssize_t j = 0; j <= i; j++) v += le32(col + 4 * j);
            PyObject *num = PyLong_FromLongLong(v);
            if (num == NULL) Py_CLEAR(out);
            else PyTuple_SET_ITEM(out, k - 1, num);
        }
    }
    PyBuffer_Release(&block);
    return out;
}

/* ``n`` chances as a tuple of floats (NULL on an error): one_hand's and between's answer. */
static PyObject *chances_tuple(const double *sum, int n) {
    PyObject *out = PyTuple_New(n);
    for (int k = 0; out != NULL && k < n; k++) {
        PyObject *f = PyFloat_FromDouble(sum[k]);
        if (f == NULL) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, k, f);
    }
    return out;
}

/* one_hand's buffers: each of ``count`` items of ``size`` bytes (count -1: any count), else an error naming it. */
static int take(PyObject *obj, Py_buffer *view, Py_ssize_t size, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    if (view->len % size) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "one_hand: %s is no array of %zd-byte items", name, size);
        return -1;
    }
    return 0;
}

static PyObject *one_hand(PyObject *self, PyObject *args) {
    PyObject *objs[4], *box, *coords, *rs[3];
    Py_ssize_t base;
    int leads;
    if (!PyArg_ParseTuple(args, "OOOOO!O!niOOO", &objs[0], &objs[1], &objs[2], &objs[3], &PyTuple_Type, &box,
                          &PyTuple_Type, &coords, &base, &leads, &rs[0], &rs[1], &rs[2]))
        return NULL;
    int n = (int)PyTuple_GET_SIZE(box);
    if (n < 1 || n > MAX_SIDES || PyTuple_GET_SIZE(coords) != n || leads < 1) {
        PyErr_SetString(PyExc_ValueError, "one_hand: box and coords of the same length, 1 to 8; leads >= 1");
        return NULL;
    }
    Py_ssize_t b[MAX_SIDES], x[MAX_SIDES], stride[MAX_SIDES];
    for (int k = 0; k < n; k++) {
        b[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(box, k));
        x[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(coords, k));
    }
    if (PyErr_Occurred()) return NULL;
    for (int k = n - 1; k >= 0; k--) stride[k] = k == n - 1 ? 1 : stride[k + 1] * b[k + 1];
    Py_buffer v[7];
    const char *names[7] = {"answers", "terminals", "active", "values", "steps", "next_lead", "probs"};
    Py_ssize_t sizes[7] = {4, 8, 1, 8, 4, 4, 8};
    PyObject *all[7] = {objs[0], objs[1], objs[2], objs[3], rs[0], rs[1], rs[2]};
    int got = 0;
    for (; got < 7; got++)
        if (take(all[got], &v[got], sizes[got], names[got]) < 0) break;
    PyObject *out = NULL;
    if (got == 7) {
        const int32_t *answers = v[0].buf, *steps = v[4].buf, *nxt = v[5].buf;
        const double *terminals = v[1].buf, *values = v[3].buf, *probs = v[6].buf;
        const uint8_t *active = v[2].buf;
        Py_ssize_t results = v[5].len / 4, cells = v[0].len / 4, nterm = v[1].len / 8, npos = v[2].len;
        double sum[MAX_SIDES] = {0};
        int ok = v[4].len / 4 == results * n && v[6].len / 8 == results && v[3].len / 8 >= npos * n;
        if (!ok) PyErr_SetString(PyExc_ValueError, "one_hand: steps, next leads and chances of as many results");
        for (Py_ssize_t r = 0; ok == 1 && r < results; r++) {
            Py_ssize_t c = base;
            for (int k = 0; k < n; k++) {
                if (steps[r * n + k] < 0 || x[k] + steps[r * n + k] >= b[k]) ok = 2;
                c += steps[r * n + k] * stride[k];
            }
            if (ok != 1 || c < 0 || c >= cells || answers[c] == UNASKED) { ok = 2; break; }
            const double *chances;
            if (answers[c] < 0) {
                Py_ssize_t t = -1 - (Py_ssize_t)answers[c];
                if ((t + 1) * n > nterm) { ok = 2; break; }
                chances = terminals + t * n;
            } else {
                Py_ssize_t q = (Py_ssize_t)answers[c] * leads + nxt[r];
                if (nxt[r] < 0 || nxt[r] >= leads || q >= npos || !active[q]) { ok = 2; break; }
                chances = values + q * n;
            }
            for (int k = 0; k < n; k++) sum[k] += probs[r] * chances[k];
        }
        if (ok == 2) out = Py_NewRef(Py_None);
        else if (ok == 1) out = chances_tuple(sum, n);
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&v[i]);
    return out;
}

/* between's weighing of one result: its running scores ``s`` split between the lattice points around them */
static int weigh_corners(const int32_t *s, int n, int step, const Py_ssize_t *grid, const Py_ssize_t *box, int leads,
                         int lead, const int32_t *answers, Py_ssize_t cells, const double *terminals, Py_ssize_t nterm,
                         const uint8_t *active, const double *values, Py_ssize_t npos, double *acc) {
    Py_ssize_t low[MAX_SIDES], rest[MAX_SIDES], gstride[MAX_SIDES], bstride[MAX_SIDES];
    for (int k = n - 1; k >= 0; k--) {
        gstride[k] = k == n - 1 ? 1 : gstride[k + 1] * grid[k + 1];
        bstride[k] = k == n - 1 ? 1 : bstride[k + 1] * box[k + 1];
    }
    for (int k = 0; k < n; k++) {
        low[k] = s[k] / step;
        rest[k] = s[k] % step;
        acc[k] = 0.0;
    }
    for (unsigned m = 0; m < (1u << n); m++) {
        double w = 1.0;
        Py_ssize_t g = 0, c = 0;
        int skip = 0;
        for (int k = 0; k < n; k++) {
            int up = (m >> (n - 1 - k)) & 1;
            if (up && rest[k] == 0) { skip = 1; break; }      /* (a split of weight 0: no corner) */
            w = w * (up ? (double)rest[k] / step : 1.0 - (double)rest[k] / step);
            Py_ssize_t x = low[k] + up;
            if (x >= grid[k]) return 0;
            g += x * gstride[k];
            c += x * bstride[k];
        }
        if (skip) continue;
        const double *chances;
        Py_ssize_t p = g * leads + lead;
        if (p < npos && active[p]) {
            chances = values + p * n;
        } else if (c < cells && answers[c] < 0 && answers[c] != UNASKED && (-(Py_ssize_t)answers[c]) * n <= nterm) {
            chances = terminals + (-1 - (Py_ssize_t)answers[c]) * n;
        } else {
            return 0;
        }
        for (int k = 0; k < n; k++) acc[k] += w * chances[k];
    }
    return 1;
}

static PyObject *between(PyObject *self, PyObject *args) {
    PyObject *objs[4], *grid, *box, *rs[4], *base = Py_None;
    int step, leads;
    if (!PyArg_ParseTuple(args, "OOOOO!O!iiOOOO|O", &objs[0], &objs[1], &objs[2], &objs[3], &PyTuple_Type, &grid,
                          &PyTuple_Type, &box, &step, &leads, &rs[0], &rs[1], &rs[2], &rs[3], &base))
        return NULL;
    int n = (int)PyTuple_GET_SIZE(box);
    if (n < 1 || n > MAX_SIDES || PyTuple_GET_SIZE(grid) != n || leads < 1 || step < 1) {
        PyErr_SetString(PyExc_ValueError, "between: grid and box of the same length, 1 to 8; leads, step >= 1");
        return NULL;
    }
    Py_ssize_t gs[MAX_SIDES], bs[MAX_SIDES];
    for (int k = 0; k < n; k++) {
        gs[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(grid, k));
        bs[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(box, k));
    }
    int32_t at[MAX_SIDES] = {0}, moved[MAX_SIDES];
    if (base != Py_None) {
        if (!PyTuple_Check(base) || PyTuple_GET_SIZE(base) != n) {
            PyErr_SetString(PyExc_ValueError, "between: base is a tuple of one running score a player");
            return NULL;
        }
        for (int k = 0; k < n; k++) {
            long x = PyLong_AsLong(PyTuple_GET_ITEM(base, k));
            if (x < 0 || x > INT32_MAX / 2) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "between: base scores from 0");
                return NULL;
            }
            at[k] = (int32_t)x;
        }
    }
    if (PyErr_Occurred()) return NULL;
    Py_buffer v[8];
    const char *names[8] = {"answers", "terminals", "active", "values", "scores", "next_lead", "probs", "fixed"};
    Py_ssize_t sizes[8] = {4, 8, 1, 8, 4, 4, 8, 8};
    PyObject *all[8] = {objs[0], objs[1], objs[2], objs[3], rs[0], rs[1], rs[2], rs[3]};
    int got = 0;
    for (; got < 8; got++)
        if (take(all[got], &v[got], sizes[got], names[got]) < 0) break;
    PyObject *out = NULL;
    if (got == 8) {
        const int32_t *answers = v[0].buf, *scores = v[4].buf, *nxt = v[5].buf;
        const double *terminals = v[1].buf, *values = v[3].buf, *probs = v[6].buf, *fixed = v[7].buf;
        const uint8_t *active = v[2].buf;
        Py_ssize_t results = v[5].len / 4, cells = v[0].len / 4, nterm = v[1].len / 8, npos = v[2].len;
        double sum[MAX_SIDES] = {0}, acc[MAX_SIDES];
        int ok = v[4].len / 4 == results * n && v[6].len / 8 == results && v[7].len / 8 == results * n
                 && v[3].len / 8 >= npos * n;
        if (!ok) PyErr_SetString(PyExc_ValueError, "between: scores, next leads, chances of as many results");
        for (Py_ssize_t r = 0; ok == 1 && r < results; r++) {
            const int32_t *s = scores + r * n;
            const double *chances = fixed + r * n;
            if (s[0] >= 0) {
                for (int k = 1; k < n; k++) if (s[k] < 0) ok = 2;
                if (base != Py_None) {              /* (the result's scores added to the position's) */
                    for (int k = 0; k < n; k++) {
                        if (s[k] > INT32_MAX / 2) ok = 2;
                        moved[k] = ok == 1 ? at[k] + s[k] : 0;
                    }
                    s = moved;
                }
                if (ok != 1 || nxt[r] < 0 || nxt[r] >= leads
                    || !weigh_corners(s, n, step, gs, bs, leads, nxt[r], answers, cells, terminals, nterm, active,
                                      values, npos, acc)) { ok = 2; break; }
                chances = acc;
            }
            for (int k = 0; k < n; k++) sum[k] += probs[r] * chances[k];
        }
        if (ok == 2) out = Py_NewRef(Py_None);
        else if (ok == 1) out = chances_tuple(sum, n);
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&v[i]);
    return out;
}

/* undiff(numbers, dims): in place, the numbers (32-bit integers, added modulo 2^32) whose differences along every
 * axis of ``dims`` (row-major, one block of ``prod(dims)`` numbers after another) ``numbers`` holds: a running sum
 * along each axis in turn (shipped.py's packed solved race; its twin ``shipped._undiff``) */
static PyObject *undiff(PyObject *self, PyObject *args) {
    PyObject *obj, *dims;
    if (!PyArg_ParseTuple(args, "OO!", &obj, &PyTuple_Type, &dims))
        return NULL;
    Py_ssize_t nd = PyTuple_GET_SIZE(dims), size[MAX_SIDES + 1], block = 1;
    if (nd < 1 || nd > MAX_SIDES + 1) {
        PyErr_SetString(PyExc_ValueError, "dims: one to nine axes");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < nd; k++) {
        size[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(dims, k));
        if (size[k] < 1) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "dims: each axis at least 1");
            return NULL;
        }
        block *= size[k];
    }
    Py_buffer b;
    if (PyObject_GetBuffer(obj, &b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (b.len % (4 * block)) {
        PyBuffer_Release(&b);
        PyErr_SetString(PyExc_ValueError, "numbers: not a whole number of blocks of 32-bit integers");
        return NULL;
    }
    uint32_t *x = b.buf;
    Py_ssize_t n = b.len / 4;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t stride = block;
    for (Py_ssize_t k = 0; k < nd; k++) {
        stride /= size[k];
        Py_ssize_t span = stride * size[k];
        for (Py_ssize_t at = 0; at < n; at += span)
            for (Py_ssize_t i = at + stride; i < at + span; i++)
                x[i] += x[i - stride];
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    Py_RETURN_NONE;
}

/* place(numbers, values, leads, sides, quantum): each position's chances from ``numbers`` (32-bit integers, one
 * block of ``points`` a lead and player but the last, lead by lead): player ``s``'s ``numbers / quantum``, the last
 * player's 1 less the others' (``values``: ``sides`` doubles a position ``g * leads + l``); the twin is
 * ``shipped._place`` */
static PyObject *place(PyObject *self, PyObject *args) {
    PyObject *nobj, *vobj;
    int leads, sides;
    double quantum;
    if (!PyArg_ParseTuple(args, "OOiid", &nobj, &vobj, &leads, &sides, &quantum))
        return NULL;
    if (leads < 1 || sides < 2 || sides > MAX_SIDES || !(quantum > 0.0)) {
        PyErr_SetString(PyExc_ValueError, "leads, sides or quantum out of range");
        return NULL;
    }
    Py_buffer nb, vb;
    if (PyObject_GetBuffer(nobj, &nb, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (PyObject_GetBuffer(vobj, &vb, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&nb);
        return NULL;
    }
    Py_ssize_t positions = vb.len / (8 * sides), points = positions / leads;
    if (vb.len != positions * sides * 8 || positions != points * leads || nb.len != 4 * points * leads * (sides - 1)) {
        PyBuffer_Release(&nb);
        PyBuffer_Release(&vb);
        PyErr_SetString(PyExc_ValueError, "numbers and values do not match");
        return NULL;
    }
    const int32_t *x = nb.buf;
    double *v = vb.buf;
    Py_BEGIN_ALLOW_THREADS
    for (int l = 0; l < leads; l++)
        for (Py_ssize_t g = 0; g < points; g++) {
            double *at = v + (g * leads + l) * sides, rest = 1.0;
            for (int s = 0; s < sides - 1; s++) {
                at[s] = x[((Py_ssize_t)l * (sides - 1) + s) * points + g] / quantum;
                rest -= at[s];
            }
            at[sides - 1] = rest;
        }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&nb);
    PyBuffer_Release(&vb);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"live", live, METH_VARARGS, "Mark every lead of the grid points the match can be at."},
    {"reached", reached, METH_VARARGS, "Mark every cell of the box of totals a grid point and a result reach."},
    {"sweep", sweep, METH_VARARGS, "Gauss-Seidel sweeps of a race's equations (see the module's comment)."},
    {"close", close_, METH_VARARGS, "Mark every position the marked ones lead to."},
    {"back", back, METH_VARARGS, "Mark the active positions that lead to one numbered below their own."},
    {"one_hand", one_hand, METH_VARARGS, "Every player's chance one hand from a grid point, the results given."},
    {"between", between, METH_VARARGS, "Every player's chance one hand from a position, weighed from a lattice."},
    {"find", find, METH_VARARGS, "The numbers at one position of an unpacked block of a compact MWC table."},
    {"undiff", undiff, METH_VARARGS, "In place, the numbers whose differences along every axis are given."},
    {"place", place, METH_VARARGS, "Each position's chances from a packed solved race's numbers."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "analyzer.equity._race",
    "The compiled loop of the race solver (analyzer/equity/race.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__race(void) {
    return PyModule_Create(&module);
}
