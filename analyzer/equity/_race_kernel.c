/* The race solver's loops as a kernel: the sweeps and walks of analyzer/equity/race.py's equations in plain C, no
 * Python (see ``_race_kernel.h`` for the interface and ``_race.c``'s top for what each function computes). The
 * CPython extension ``_race`` and the WebAssembly module ``_race.wasm`` both build it, so the two compute the same
 * numbers in the same order.
 */
#include "_race_kernel.h"

#define MAX_SIDES RACE_MAX_SIDES
#if defined(__GNUC__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE static inline
#endif
#define ROW_RESULTS 8           /* the results a row's sums take at once (row_sums) */
#define MAX_LEADS 64             /* the most leads a race's rows are swept with (its results split per lead) */
#define UNASKED RACE_UNASKED

typedef RaceShape Shape;
typedef rsize rsize_;

/* An error: its kind, its text in ``*err``. */
static int fail(const char **err, int kind, const char *text) {
    *err = text;
    return kind;
}

int race_shape(Shape *sh, int sides, int leads, int dims, const int64_t *grid, const int64_t *box, const char **err) {
    if (dims < 1 || dims > MAX_SIDES) return fail(err, K_VALUE, "grid and box: tuples of the same length, 1 to 8");
    sh->sides = sides;
    sh->leads = leads;
    sh->dims = dims;
    sh->points = 1;
    sh->cells = 1;
    for (int k = 0; k < dims; k++) {
        sh->grid[k] = (rsize)grid[k];
        sh->box[k] = (rsize)box[k];
        if (sh->grid[k] < 1 || sh->box[k] < sh->grid[k])
            return fail(err, K_VALUE, "each grid size at least 1 and at most its box size");
        sh->points *= sh->grid[k];
        sh->cells *= sh->box[k];
    }
    if (leads < 1 || sides < 1 || sides > MAX_SIDES) return fail(err, K_VALUE, "leads at least 1, sides 1 to 8");
    sh->positions = sh->points * leads;
    return K_OK;
}

/* each grid point's cell in the box of totals */
static int64_t *bases(const Shape *sh) {
    int64_t *out = malloc(sizeof(int64_t) * (size_t)sh->points);
    if (out == NULL)
        return NULL;
    rsize coord[MAX_SIDES] = {0};
    int64_t stride[MAX_SIDES];
    int64_t st = 1;
    for (int k = sh->dims - 1; k >= 0; k--) {
        stride[k] = st;
        st *= sh->box[k];
    }
    for (rsize g = 0; g < sh->points; g++) {
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
int race_check_results(const Shape *sh, const int64_t *starts, const int32_t *next_lead, const int32_t *answers,
                       rsize results, const char **err) {
    if (starts[0] != 0 || starts[sh->leads] != results)
        return fail(err, K_VALUE, "starts: 0 first, the number of results last");
    for (int l = 0; l < sh->leads; l++)
        if (starts[l + 1] < starts[l]) return fail(err, K_VALUE, "starts: not ascending");
    for (rsize r = 0; r < results; r++)
        if (next_lead[r] < 0 || next_lead[r] >= sh->leads) return fail(err, K_VALUE, "next_lead: a lead out of range");
    for (rsize c = 0; c < sh->cells; c++)
        if (answers[c] >= sh->points) return fail(err, K_VALUE, "answers: a grid point out of range");
    return K_OK;
}

static int check_offsets(const Shape *sh, const int64_t *offsets, rsize results, const int64_t *base, const char **err) {
    int64_t top = base[sh->points - 1];        /* the highest grid point's cell */
    for (rsize r = 0; r < results; r++)
        if (offsets[r] < 0 || top + offsets[r] >= sh->cells)
            return fail(err, K_VALUE, "offsets: a result's totals lie outside the box");
    return K_OK;
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
static inline rsize next_of(const Sweep *w, int32_t a, int64_t r) {
    return a >= 0 ? (rsize)w->next_lead[r] * w->sh->points + a : w->sh->positions - 1 - (rsize)a;
}

/* position p's new chances from ``acc`` and its own loop ``stay``; returns how far they moved */
static inline double settle(const Sweep *w, rsize p, const double *acc, double stay) {
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
    for (rsize g = sh->points - 1; g >= 0; g--) {
        int64_t b = w->base[g];
        for (int l = leads - 1; l >= 0; l--) {
            if (!w->active[g * leads + l])
                continue;
            rsize p = l * sh->points + g;
            double stay = 0.0;
            for (int s = 0; s < sides; s++)
                acc[s] = 0.0;
            for (int64_t r = w->starts[l]; r < w->starts[l + 1]; r++) {
                rsize q = next_of(w, w->answers[b + w->offsets[r]], r);
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
ALWAYS_INLINE void row_sums(const Sweep *w, double *acc, double *stay, rsize g0, int64_t b0, int l, int64_t r0,
                            int64_t r1, rsize len, int sides) {
    int leads = w->sh->leads;
    rsize self = l * w->sh->points + g0;
    int64_t r = r0;
    for (; r + ROW_RESULTS <= r1; r += ROW_RESULTS) {   /* (a position's sums in registers over a few results) */
        const int32_t *ans[ROW_RESULTS];
        for (int k = 0; k < ROW_RESULTS; k++)
            ans[k] = w->answers + b0 + w->offsets[r + k];
        for (rsize j = 0; j < len; j++) {
            double *a = acc + (j * leads + l) * sides, sum[MAX_SIDES];
            for (int s = 0; s < sides; s++)
                sum[s] = a[s];
            for (int k = 0; k < ROW_RESULTS; k++) {
                rsize q = next_of(w, ans[k][j], r + k);
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
        for (rsize j = 0; j < len; j++) {
            rsize q = next_of(w, ans[j], r);
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
static void sums(const Sweep *w, double *acc, double *stay, rsize g0, int64_t b0, int l, int64_t r0, int64_t r1,
                 rsize len) {
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
static double sweep_blocks(const Sweep *w, double *acc, uint8_t *live, rsize n) {
    const Shape *sh = w->sh;
    int sides = sh->sides, dims = sh->dims, leads = sh->leads;
    rsize len = sh->grid[dims - 1], lastbox = sh->box[dims - 1], size = n * len * leads;
    rsize blockbox = n > 1 ? lastbox * sh->box[dims - 2] : lastbox;
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
    for (rsize top = sh->points / len - n; top >= 0; top -= n) {
        rsize first = top * len;       /* (the block's first grid point) */
        if (memchr(w->active + first * leads, 1, (size_t)size) == NULL)     /* (the loops' sweeps: a few blocks) */
            continue;
        memset(acc, 0, sizeof(double) * (size_t)(size * (sides + 1)));
        for (rsize k = 0; k < n; k++)         /* (a row with no marked position is not summed) */
            live[k] = memchr(w->active + (first + k * len) * leads, 1, (size_t)(len * leads)) != NULL;
        for (int l = 0; l < leads; l++)
            for (int64_t r = outer[l]; r < w->starts[l + 1]; r += ROW_RESULTS) {
                int64_t r1 = r + ROW_RESULTS < w->starts[l + 1] ? r + ROW_RESULTS : w->starts[l + 1];
                for (rsize k = 0; k < n; k++)
                    if (live[k])
                        sums(w, acc + k * len * leads * sides, stay + k * len * leads, first + k * len,
                             w->base[first + k * len], l, r, r1, len);
            }
        for (rsize k = n - 1; k >= 0; k--) {
            rsize g0 = first + k * len;
            int64_t b0 = w->base[g0];
            double *racc = acc + k * len * leads * sides, *rstay = stay + k * len * leads;
            if (!live[k])
                continue;
            for (int l = 0; l < leads; l++)
                sums(w, racc, rstay, g0, b0, l, split[l], outer[l], len);
            for (rsize j = len - 1; j >= 0; j--)
                for (int l = leads - 1; l >= 0; l--) {
                    if (!w->active[(g0 + j) * leads + l])
                        continue;
                    rsize p = l * sh->points + g0 + j;
                    double *a = racc + (j * leads + l) * sides, *st = rstay + j * leads + l;
                    for (int64_t r = w->starts[l]; r < split[l]; r++) {
                        rsize q = next_of(w, w->answers[b0 + j + w->offsets[r]], r);
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
static rsize block_rows(const Shape *sh, const uint8_t *active) {
    if (sh->leads > MAX_LEADS)
        return 0;
    rsize tries[2] = {sh->dims > 1 ? sh->grid[sh->dims - 2] : 1, 1};
    for (int t = 0; t < 2; t++) {
        rsize len = tries[t] * sh->grid[sh->dims - 1] * sh->leads, marked = 0, blocks = 0;
        for (rsize g0 = 0; g0 < sh->positions; g0 += len) {
            rsize in_block = 0;
            for (rsize j = 0; j < len; j++)
                in_block += active[g0 + j] != 0;
            marked += in_block;
            blocks += in_block > 0;
        }
        if (marked * 4 >= blocks * len)
            return tries[t];
    }
    return 0;
}
/* the grid point of box cell ``c``'s own totals, or -1 where they lie off the grid */
static rsize point_of(const Shape *sh, rsize c) {
    rsize coord[MAX_SIDES];
    for (int k = sh->dims - 1; k >= 0; k--) {
        coord[k] = c % sh->box[k];
        c /= sh->box[k];
    }
    rsize g = 0;
    for (int k = 0; k < sh->dims; k++) {
        if (coord[k] >= sh->grid[k])
            return -1;
        g = g * sh->grid[k] + coord[k];
    }
    return g;
}
static int64_t le32(const unsigned char *p) {
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* between's weighing of one result: its running scores ``s`` split between the lattice points around them */
static int weigh_corners(const int32_t *s, int n, int step, const rsize *grid, const rsize *box, int leads,
                         int lead, const int32_t *answers, rsize cells, const double *terminals, rsize nterm,
                         const uint8_t *active, const double *values, rsize npos, double *acc) {
    rsize low[MAX_SIDES], rest[MAX_SIDES], gstride[MAX_SIDES], bstride[MAX_SIDES];
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
        rsize g = 0, c = 0;
        int skip = 0;
        for (int k = 0; k < n; k++) {
            int up = (m >> (n - 1 - k)) & 1;
            if (up && rest[k] == 0) { skip = 1; break; }      /* (a split of weight 0: no corner) */
            w = w * (up ? (double)rest[k] / step : 1.0 - (double)rest[k] / step);
            rsize x = low[k] + up;
            if (x >= grid[k]) return 0;
            g += x * gstride[k];
            c += x * bstride[k];
        }
        if (skip) continue;
        const double *chances;
        rsize p = g * leads + lead;
        if (p < npos && active[p]) {
            chances = values + p * n;
        } else if (c < cells && answers[c] < 0 && answers[c] != UNASKED && (-(rsize)answers[c]) * n <= nterm) {
            chances = terminals + (-1 - (rsize)answers[c]) * n;
        } else {
            return 0;
        }
        for (int k = 0; k < n; k++) acc[k] += w * chances[k];
    }
    return 1;
}


/* -- the calls ------------------------------------------------------------------------------------ */

/* Each grid point's cell (``bases``) in ``*base``, and every result's offset checked against the box
 * (``check_offsets``); an error frees it. */
static int based(const Shape *sh, const int64_t *offsets, rsize results, int64_t **base, const char **err) {
    *base = bases(sh);
    if (*base == NULL) return fail(err, K_MEMORY, "no memory");
    int got = check_offsets(sh, offsets, results, *base, err);
    if (got != K_OK) {
        free(*base);
        *base = NULL;
    }
    return got;
}

int race_sweep(const Shape *sh, const int64_t *starts, const double *probs, const int64_t *offsets,
               const int32_t *next_lead, const int32_t *answers, rsize results, const double *terminals, rsize nterm,
               const uint8_t *active, double *values, double tol, int max_sweeps, int *sweeps, double *change,
               const char **err) {
    int sides = sh->sides, leads = sh->leads;
    for (rsize c = 0; c < sh->cells; c++)
        if (answers[c] < 0 && answers[c] != UNASKED && -1 - (rsize)answers[c] >= nterm)
            return fail(err, K_VALUE, "answers: a finished match out of range");
    int64_t *base;
    int got = based(sh, offsets, results, &base, err);
    if (got != K_OK) return got;
    /* the chances of every position, then of every finished match: one array, so that a result's next
     * position is found without a branch (a finished match is position ``positions + t``) */
    double *ext = malloc(sizeof(double) * (size_t)((sh->positions + nterm) * sides));
    if (ext == NULL) {
        free(base);
        return fail(err, K_MEMORY, "no memory");
    }
    for (rsize g = 0; g < sh->points; g++)
        for (int l = 0; l < leads; l++)
            memcpy(ext + (l * sh->points + g) * sides, values + (g * leads + l) * sides, sizeof(double) * (size_t)sides);
    memcpy(ext + sh->positions * sides, terminals, sizeof(double) * (size_t)(nterm * sides));
    rsize block = block_rows(sh, active);
    double *rows = malloc(sizeof(double) * (size_t)(block ? block * sh->grid[sh->dims - 1] * leads * (sides + 1) + block
                                                          : 1));     /* (the sums, then a byte a row: ``live``) */
    if (rows == NULL) {
        free(ext);
        free(base);
        return fail(err, K_MEMORY, "no memory");
    }
    Sweep w = {sh, starts, offsets, base, probs, next_lead, answers, active, ext};
    int done_sweeps = 0;
    double moved = 0.0;
    for (done_sweeps = 1; done_sweeps <= max_sweeps; done_sweeps++) {
        moved = block ? sweep_blocks(&w, rows, (uint8_t *)(rows + block * sh->grid[sh->dims - 1] * leads * (sides + 1)),
                                     block) : sweep_positions(&w);
        if (moved < tol)
            break;
    }
    free(rows);
    for (rsize g = 0; g < sh->points; g++)
        for (int l = 0; l < leads; l++)
            memcpy(values + (g * leads + l) * sides, ext + (l * sh->points + g) * sides, sizeof(double) * (size_t)sides);
    free(ext);
    free(base);
    *sweeps = done_sweeps > max_sweeps ? max_sweeps : done_sweeps;
    *change = moved;
    return K_OK;
}

int race_close(const Shape *sh, const int64_t *starts, const int64_t *offsets, const int32_t *next_lead,
               const int32_t *answers, rsize results, uint8_t *active, rsize *marked, const char **err) {
    int leads = sh->leads;
    int64_t *base = NULL, *queue = malloc(sizeof(int64_t) * (size_t)sh->positions);
    int got = queue == NULL ? fail(err, K_MEMORY, "no memory") : based(sh, offsets, results, &base, err);
    if (got != K_OK) {
        free(queue);
        return got;
    }
    rsize head = 0, tail = 0, count = 0;
    for (rsize p = 0; p < sh->positions; p++)
        if (active[p])
            queue[tail++] = p;
    while (head < tail) {
        rsize p = queue[head++];
        int l = (int)(p % leads);
        int64_t b = base[p / leads];
        for (int64_t r = starts[l]; r < starts[l + 1]; r++) {
            int32_t a = answers[b + offsets[r]];
            if (a < 0)
                continue;
            rsize q = (rsize)a * leads + next_lead[r];
            if (!active[q]) {
                active[q] = 1;
                queue[tail++] = q;
                count++;
            }
        }
    }
    free(base);
    free(queue);
    *marked = count;
    return K_OK;
}

void race_back(const Shape *sh, const int64_t *starts, const int64_t *offsets, const int32_t *next_lead,
               const int32_t *answers, const uint8_t *active, uint8_t *loops, rsize *marked_out, rsize *outside_out) {
    int leads = sh->leads;
    rsize marked = 0, outside = 0;
    /* a hand goes from a position to one numbered below it only where the match goes on at other scores
     * than the new totals (a tie past the target shifted back), or where the scores stay and the lead
     * comes round to one numbered below */
    for (rsize c = 0; c < sh->cells; c++) {
        int32_t a = answers[c];
        if (a < 0)
            continue;
        if (!active[(rsize)a * leads])
            outside++;
        if (a != point_of(sh, c))
            for (int l = 0; l < leads; l++)
                if (!loops[(rsize)a * leads + l]) {
                    loops[(rsize)a * leads + l] = 1;
                    marked++;
                }
    }
    for (int l = 0; l < leads; l++)
        for (int64_t r = starts[l]; r < starts[l + 1]; r++)
            if (offsets[r] == 0 && next_lead[r] < l)
                for (rsize g = 0; g < sh->points; g++) {
                    rsize q = g * leads + next_lead[r];
                    if (active[q] && !loops[q]) {
                        loops[q] = 1;
                        marked++;
                    }
                }
    *marked_out = marked;
    *outside_out = outside;
}

int race_reached(const Shape *sh, const int64_t *offsets, rsize results, uint8_t *cells, rsize *marked,
                 const char **err) {
    int64_t *base;
    int got = based(sh, offsets, results, &base, err);
    if (got != K_OK) return got;
    rsize count = 0;
    for (rsize g = 0; g < sh->points; g++) {
        cells[base[g]] = 1;
        for (rsize r = 0; r < results; r++)
            cells[base[g] + offsets[r]] = 1;
    }
    for (rsize c = 0; c < sh->cells; c++)
        count += cells[c];
    free(base);
    *marked = count;
    return K_OK;
}

int race_live(const Shape *sh, const int32_t *answers, uint8_t *active, rsize *marked, const char **err) {
    int64_t *base = bases(sh);
    if (base == NULL) return fail(err, K_MEMORY, "no memory");
    rsize count = 0;
    for (rsize g = 0; g < sh->points; g++)
        if (answers[base[g]] == g) {
            memset(active + g * sh->leads, 1, (size_t)sh->leads);
            count += sh->leads;
        }
    free(base);
    *marked = count;
    return K_OK;
}

int race_find(const unsigned char *raw, rsize count, int columns, int64_t n, int64_t *out) {
    rsize i;
    int64_t sum = 0;
    for (i = 0; i < count; i++) {
        sum += le32(raw + 4 * i);
        if (sum >= n) break;
    }
    if (i == count || sum != n) return 0;
    for (int k = 1; k < columns; k++) {
        const unsigned char *col = raw + 4 * count * k;
        int64_t v = 0;
        for (rsize j = 0; j <= i; j++) v += le32(col + 4 * j);
        out[k - 1] = v;
    }
    return 1;
}

int race_one_hand(const int32_t *answers, rsize cells, const double *terminals, rsize nterm, const uint8_t *active,
                  rsize npos, const double *values, rsize nvalues, int n, const rsize *b, const rsize *x,
                  rsize base, int leads, const int32_t *steps, rsize nsteps, const int32_t *nxt, rsize results,
                  const double *probs, rsize nprobs, double *sum, const char **err) {
    rsize stride[MAX_SIDES];
    for (int k = n - 1; k >= 0; k--) stride[k] = k == n - 1 ? 1 : stride[k + 1] * b[k + 1];
    for (int k = 0; k < n; k++) sum[k] = 0.0;
    if (!(nsteps == results * n && nprobs == results && nvalues >= npos * n)) {
        *err = "one_hand: steps, next leads and chances of as many results";
        return -1;
    }
    for (rsize r = 0; r < results; r++) {
        rsize c = base;
        int ok = 1;
        for (int k = 0; k < n; k++) {
            if (steps[r * n + k] < 0 || x[k] + steps[r * n + k] >= b[k]) ok = 0;
            c += steps[r * n + k] * stride[k];
        }
        if (!ok || c < 0 || c >= cells || answers[c] == UNASKED) return 0;
        const double *chances;
        if (answers[c] < 0) {
            rsize t = -1 - (rsize)answers[c];
            if ((t + 1) * n > nterm) return 0;
            chances = terminals + t * n;
        } else {
            rsize q = (rsize)answers[c] * leads + nxt[r];
            if (nxt[r] < 0 || nxt[r] >= leads || q >= npos || !active[q]) return 0;
            chances = values + q * n;
        }
        for (int k = 0; k < n; k++) sum[k] += probs[r] * chances[k];
    }
    return 1;
}

int race_between(const int32_t *answers, rsize cells, const double *terminals, rsize nterm, const uint8_t *active,
                 rsize npos, const double *values, rsize nvalues, int n, const rsize *gs, const rsize *bs, int step,
                 int leads, const int32_t *scores, rsize nscores, const int32_t *nxt, rsize results,
                 const double *probs, rsize nprobs, const double *fixed, rsize nfixed, const int32_t *at, double *sum,
                 const char **err) {
    double acc[MAX_SIDES];
    int32_t moved[MAX_SIDES];
    for (int k = 0; k < n; k++) sum[k] = 0.0;
    if (!(nscores == results * n && nprobs == results && nfixed == results * n && nvalues >= npos * n)) {
        *err = "between: scores, next leads, chances of as many results";
        return -1;
    }
    for (rsize r = 0; r < results; r++) {
        const int32_t *s = scores + r * n;
        const double *chances = fixed + r * n;
        if (s[0] >= 0) {
            int ok = 1;
            for (int k = 1; k < n; k++) if (s[k] < 0) ok = 0;
            if (at != NULL) {                   /* (the result's scores added to the position's) */
                for (int k = 0; k < n; k++) {
                    if (s[k] > INT32_MAX / 2) ok = 0;
                    moved[k] = ok ? at[k] + s[k] : 0;
                }
                s = moved;
            }
            if (!ok || nxt[r] < 0 || nxt[r] >= leads
                || !weigh_corners(s, n, step, gs, bs, leads, nxt[r], answers, cells, terminals, nterm, active, values,
                                  npos, acc))
                return 0;
            chances = acc;
        }
        for (int k = 0; k < n; k++) sum[k] += probs[r] * chances[k];
    }
    return 1;
}

void race_undiff(uint32_t *x, rsize n, const rsize *size, int nd) {
    rsize block = 1;
    for (int k = 0; k < nd; k++) block *= size[k];
    rsize stride = block;
    for (int k = 0; k < nd; k++) {
        stride /= size[k];
        rsize span = stride * size[k];
        for (rsize at = 0; at < n; at += span)
            for (rsize i = at + stride; i < at + span; i++)
                x[i] += x[i - stride];
    }
}

void race_place(const int32_t *x, double *v, int leads, int sides, rsize points, double quantum) {
    for (int l = 0; l < leads; l++)
        for (rsize g = 0; g < points; g++) {
            double *at = v + (g * leads + l) * sides, rest = 1.0;
            for (int s = 0; s < sides - 1; s++) {
                at[s] = x[((rsize)l * (sides - 1) + s) * points + g] / quantum;
                rest -= at[s];
            }
            at[sides - 1] = rest;
        }
}
