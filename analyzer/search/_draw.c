/* The compiled search of two-ended draw games in a fixed boneyard order, of All Fives and of Hungarian's runs:
 * the ``_DrawDeal`` of analyzer/search/draw.py in C.
 *
 * Same state, same forced draws and passes, same moves in the same order, same leaf values and table
 * entries as the pure-Python search (read ``_DrawDeal`` first): a call of ``DrawSearch.search`` returns
 * the side-0 value of one position, fail-soft in its window, and the choices it visited, counted as the
 * Python search counts them, so that a node limit stops both at the same place. One type:
 *
 * ``DrawSearch(n, max_pip, order, limit, until, scores, maximiser, described, leaf, entries, leader, bound, run)``: one
 *   deal's search and its transposition table. ``order``: the boneyard's tiles (bit masks) in the order
 *   they are drawn; ``limit``: how many of them may be drawn (the rest stay); ``until``: a player who
 *   cannot play draws until he can (else one tile a turn). ``scores``: -1 no points during play, else
 *   the All Fives count (bit 0: multiples of three score too; bit 1: the pub count). ``described``: the
 *   scoring as ``LeafScoring.ints()`` (analyzer/search/scoring.py), each finished hand valued by
 *   ``_leaf.h`` (``leader`` led the hand), as the block and arms cores do; None: ``leaf(hands,
 *   termination, seat, bit, before_left, before_right)`` in Python for every finished hand. ``bound``:
 *   None, or ``(fixed, most)`` (``scoring.value_bound``): no value passes ``most`` either way, plus unless
 *   ``fixed`` the pips of every hand and of the tiles still to be drawn; a choice whose window lies beyond
 *   it returns the bound at once, uncounted. ``run`` (Hungarian): after a tile its player moves again while his hand
 *   fits an end, a player whose hand is empty passes while the others play on, and a hand nobody can play on is
 *   ``domino`` for the lowest seat whose hand is empty, if any (``over_value``).
 *
 * ``DrawSearch.line(hands, left, right, ..., value, limit, spent)``: the principal variation from one state to the end
 *   of the hand, as ``TreeSearch.best_line`` plays it (``line_rest``, shared with ``worlds``).
 *
 * ``DrawSearch.ends(hands, left, right, ..., value, values, limit)``: where the principal variation from one state, or
 *   after each of its choices, ends (each hand, the last tile, what each seat scored), without its steps.
 *
 * ``DrawSearch.worlds(hands, orders, mover, draws, roots, limit, lines=False)``: every world of one decision
 *   (each one's hands and boneyard order) valued in one call, each with the table back at its starting size (so
 *   each is searched as by a search of its own: the same positions and values), each root move as
 *   ``TreeSearch.values`` values it (its points, then MTD(f) from the last value found); with ``lines`` (All
 *   Fives, Hungarian) also each root move's principal variation in each world, played out from the table its values left
 *   as ``TreeSearch.best_line`` plays it (``root_line``); see analyzer/search/drawworlds.py.
 *
 * The state of a choice: every seat's hand (a 64-bit mask), the open ends (left, right; sorted where
 * nothing is scored during play), the shape of the ends (bit 0: the left end's tile is a double, bit 1:
 * the right's, bit 2: the lead lies alone), the seat to move, the draws taken, whether the opener may
 * add a tile to his lead, and the seat that laid the last tile. The table is bounded: open addressing
 * (a state's run of slots from its home slot), each slot holding the whole state (no false hit), at
 * most three quarters full, doubling up to its bound, so that below it no entry is lost (as in the
 * Python dict); at its bound an entry replaces the one among the first four of its run with the fewest
 * tiles still held (the least work behind it).
 */
#include "_binding.h"
#include <stdint.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "_leaf.h"
#include "_table.h"

#define INF (1 << 30)
#define SEATS 4
#define TILES 55
#define NUMBERS 10
#define CHOICES 112
#define DECLINE 255
#define NO_HINT 254
#define EMPTY 0xFFFFFFFFu

typedef struct { int seat, bit, before_left, before_right; } Last;    /* the last tile laid */

typedef struct {
    uint64_t h[SEATS];
    uint32_t meta;      /* left, right, shape, seat, draws, offer, last seat; EMPTY: a free slot */
    int16_t lo, hi;
    uint8_t code;       /* the best move */
    uint8_t held;       /* tiles still held: the work behind the entry */
} Slot;

typedef struct {
    PyObject_HEAD
    PyObject *leaf;
    void *raw;
    Slot *slots;
    uint64_t size, max_size, start_size, mask, used, replaced;
    int shift;
    int n, max_pip, limit, until, scores, norder, leader;
    int run;            /* a player plays on while he can; the hand goes on until nobody can play (Hungarian) */
    int maximiser[SEATS];
    int python_leaves;
    LeafScoring sc;     /* the scoring, evaluated by _leaf.h (unless python_leaves) */
    uint64_t match[NUMBERS], order[TILES];
    int tpips[TILES];
    uint8_t tlow[TILES], thigh[TILES];
    uint64_t nodes, budget;
    int stopped, failed;
    int most, fixed;    /* the value bound (most < 0: none): most, plus unless fixed the pips still to be held */
    int rest[TILES + 1];  /* the pips of the tiles still to be drawn once k are */
    uint64_t doubles;
} DrawSearch;

static inline uint32_t meta_of(int left, int right, int shape, int s, int k, int offer, int last) {
    return (uint32_t)left | (uint32_t)right << 4 | (uint32_t)shape << 8 | (uint32_t)s << 11 | (uint32_t)k << 13
           | (uint32_t)offer << 20 | (uint32_t)last << 21;
}

static inline uint64_t hash_of(const uint64_t *h, int n, uint32_t meta) {
    uint64_t x = (uint64_t)meta * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < n; i++) x = (x ^ h[i]) * 0xD6E8FEB86659FD93ULL + (uint64_t)i;
    return x ^ (x >> 31);
}

static inline int holds(const Slot *e, const uint64_t *h, int n, uint32_t meta) {
    return e->meta == meta && memcmp(e->h, h, sizeof(uint64_t) * (size_t)n) == 0;
}

static inline uint64_t home(DrawSearch *d, uint64_t hash) { return (hash * 0x9E3779B97F4A7C15ULL) >> d->shift; }

/* The entry of a state, or NULL: its run of slots from its home slot up to a free one (never emptied). */
static Slot *lookup(DrawSearch *d, uint64_t hash, const uint64_t *h, uint32_t meta) {
    uint64_t i = home(d, hash);
    for (uint64_t k = 0; k < d->size; k++, i = (i + 1) & d->mask) {
        Slot *e = d->slots + i;
        if (e->meta == EMPTY) return NULL;
        if (holds(e, h, d->n, meta)) return e;
    }
    return NULL;
}

#define HUGE_PAGE (2u << 20)

/* The slots of a table, all EMPTY: ``slots_alloc``, but a table of a huge page or more lies on huge pages where
 * the system gives them on request (Linux): a probe is a random read of a table of tens of megabytes, and with
 * small pages nearly each one misses the address cache as well. */
static Slot *draw_slots_alloc(uint64_t count, void **raw) {
    size_t bytes = (size_t)count * sizeof(Slot);
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(DRAW_SMALL_PAGES)
    if (bytes >= HUGE_PAGE) {
        void *block = malloc(bytes + HUGE_PAGE);
        if (block == NULL) return NULL;
        void *slots = (void *)(((uintptr_t)block + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
        madvise(slots, bytes, MADV_HUGEPAGE);       /* (a hint: refused, the table works as well) */
        memset(slots, 255, bytes);
        *raw = block;
        return (Slot *)slots;
    }
#endif
    return slots_alloc(count, sizeof(Slot), 255, raw);
}

static int slots_new(DrawSearch *d, uint64_t size) {
    void *raw;
    Slot *slots = draw_slots_alloc(size, &raw);     /* meta all ones: EMPTY */
    if (slots == NULL) return -1;
    d->raw = raw;
    d->slots = slots;
    d->size = size;
    d->mask = size - 1;
    d->shift = slots_shift(size);
    return 0;
}

static void slots_double(DrawSearch *d) {
    Slot *old = d->slots;
    void *old_raw = d->raw;
    uint64_t count = d->size;
    if (slots_new(d, 2 * count) < 0) {          /* no memory to grow: this is the bound */
        d->raw = old_raw;
        d->slots = old;
        d->max_size = count;
        return;
    }
    for (uint64_t k = 0; k < count; k++) {
        if (old[k].meta == EMPTY) continue;
        uint64_t i = home(d, hash_of(old[k].h, d->n, old[k].meta));
        while (d->slots[i].meta != EMPTY) i = (i + 1) & d->mask;
        d->slots[i] = old[k];
    }
    free(old_raw);
}

/* Where the entry of a state is stored: its own slot, else a free one of its run. The table holds at most
 * three quarters of its slots: below its bound it doubles first (no entry is ever lost, as in the
 * Python dict); at its bound the entry replaces the one with the fewest tiles still held among the first
 * four taken slots of its run (the least work behind it), or is not stored when its home slot is free
 * (NULL), so that the table never holds more and every run stays short. A slot is never emptied. */
static Slot *slot_to_store(DrawSearch *d, uint64_t hash, const uint64_t *h, uint32_t meta) {
    if (4 * (d->used + 1) > 3 * d->size && d->size < d->max_size) slots_double(d);
    int full = 4 * (d->used + 1) > 3 * d->size;
    Slot *pick = NULL;
    uint64_t i = home(d, hash);
    for (uint64_t k = 0; k < d->size; k++, i = (i + 1) & d->mask) {
        Slot *e = d->slots + i;
        if (e->meta == EMPTY) {
            if (!full) { d->used++; return e; }
            break;
        }
        if (holds(e, h, d->n, meta)) return e;
        if (full && k < WAYS && (pick == NULL || e->held < pick->held)) pick = e;
    }
    if (pick != NULL) d->replaced++;
    return pick;
}

/* -- values ---------------------------------------------------------------------------------------- */

/* The pips of the tiles of ``m``: each number times the tiles carrying it, a double's twice. */
static inline int pips_of(const DrawSearch *d, uint64_t m) {
    int p = 0;
    for (int v = 1; v <= d->max_pip; v++) p += v * (popcount(m & d->match[v]) + popcount(m & d->match[v] & d->doubles));
    return p;
}

/* ``rest`` for the order now loaded. */
static void rest_of_order(DrawSearch *d) {
    int p = 0;
    for (int k = d->norder; k >= 0; k--) {
        if (k < d->limit) p += pips_of(d, d->order[k]);
        d->rest[k] = p;
    }
}

/* The most a value can be either way at a choice (``_DrawDeal.search``'s bound), or -1: nothing bounds it. */
static inline int value_bound(const DrawSearch *d, const uint64_t *h, int k) {
    if (d->most < 0 || d->fixed) return d->most;
    uint64_t held = 0;
    for (int t = 0; t < d->n; t++) held |= h[t];
    return d->most + d->rest[k] + pips_of(d, held);
}

/* What a play scores when it leaves the ends counting ``total`` (``PlayScoring.points``). */
static inline int count_points(int scores, int total) {
    if (total <= 0) return 0;
    int fives = total % 5 == 0, threes = (scores & 1) && total % 3 == 0;
    if (scores & 2) return (fives ? total / 5 : 0) + (threes ? total / 3 : 0);
    return fives || threes ? total : 0;
}

/* The side-0 value of a finished hand (``term`` 0: ``s`` went out; 1: blocked, ``s`` laid the last tile):
 * ``_leaf.h`` from the description, else ``leaf`` in Python (``_DrawDeal.leaf``). */
static int hand_value(DrawSearch *d, const uint64_t *h, int term, const Last *last) {
    int n = d->n;
    if (!d->python_leaves)
        return leaf_score(&d->sc, d->tlow, d->thigh, term, last->seat, d->leader, h, last->bit, last->before_left,
                          last->before_right);
    PyObject *hands = PyTuple_New(n);
    if (hands == NULL) { d->failed = 1; return 0; }
    for (int t = 0; t < n; t++) {
        PyObject *x = PyLong_FromUnsignedLongLong(h[t]);
        if (x == NULL) { Py_DECREF(hands); d->failed = 1; return 0; }
        PyTuple_SET_ITEM(hands, t, x);
    }
    PyObject *r = PyObject_CallFunction(d->leaf, "NsiKii", hands, term == 0 ? "domino" : "blocked", last->seat,
                                        (unsigned long long)(1ULL << last->bit), last->before_left,
                                        last->before_right);
    if (r == NULL) { d->failed = 1; return 0; }
    long v = PyLong_AsLong(r);
    Py_DECREF(r);
    if (v == -1 && PyErr_Occurred()) { d->failed = 1; return 0; }
    if (v > MAX_VALUE || v < -MAX_VALUE) {
        PyErr_SetString(PyExc_OverflowError, "a hand's value is out of the compiled search's range");
        d->failed = 1;
        return 0;
    }
    return (int)v;
}

/* The side-0 value of a hand nobody can play on (``_DrawDeal.over``): blocked, credited to the seat that laid the
 * last tile; where players play on while they can (``run``), the lowest seat whose hand is empty went out, if any. */
static int over_value(DrawSearch *d, const uint64_t *h, const Last *last) {
    if (d->run)
        for (int t = 0; t < d->n; t++)
            if (!h[t]) {
                Last out = *last;
                out.seat = t;
                return hand_value(d, h, 0, &out);
            }
    return hand_value(d, h, 1, last);
}

/* Who moves after ``s`` laid a tile leaving his hand ``hand`` and the ends ``left``, ``right``
 * (``_DrawDeal.next_seat``): ``s`` again where players play on while they can and his hand still fits, else the
 * next seat. */
static inline int next_seat(const DrawSearch *d, uint64_t hand, int s, int left, int right) {
    return d->run && (hand & (d->match[left] | d->match[right])) ? s : (s + 1) % d->n;
}

/* -- the search ------------------------------------------------------------------------------------ */

typedef struct {
    int code, order, bit, left, right, shape, points;
} Choice;

static int choice(DrawSearch *d, uint64_t *h, int left, int right, int shape, int s, int k, int offer,
                  const Last *last, int alpha, int beta);

/* The value once ``t`` is to move, having drawn ``drawn`` tiles this turn, ``passes`` passes since the
 * last tile laid: the forced draws and passes up to the next choice or the end (``_DrawDeal.follow``). */
static int follow(DrawSearch *d, const uint64_t *hands, int left, int right, int shape, int t, int drawn, int k,
                  int passes, const Last *last, int alpha, int beta) {
    uint64_t h[SEATS], fit = d->match[left] | d->match[right];
    int n = d->n;
    memcpy(h, hands, sizeof(uint64_t) * (size_t)n);
    for (;;) {
        if (k >= d->limit) {
            int playable = 0;
            for (int i = 0; i < n && !playable; i++) playable = (h[i] & fit) != 0;
            if ((passes >= n && !drawn) || !playable) return over_value(d, h, last);
        }
        if (h[t] & fit) return choice(d, h, left, right, shape, t, k, 0, last, alpha, beta);
        if (k < d->limit && (d->until || !drawn)) {
            h[t] |= d->order[k++];
            drawn++;
        } else {
            t = (t + 1) % n;
            drawn = 0;
            passes++;
        }
    }
}

/* Every choice of ``s`` in the order of ``Position.legal_moves``: ascending tile, each on the left end before
 * the right (one place where the two show one number, unless a double lies at one of them only: All Fives'
 * ``two_equal_ends``), then the opener's choice to add none. */
static int legal_choices(DrawSearch *d, uint64_t hand, int left, int right, int shape, int s, int offer,
                         Choice *out) {
    int nc = 0;
    for (uint64_t m = hand & (d->match[left] | d->match[right]); m; m &= m - 1) {
        int i = __builtin_ctzll(m), lo = d->tlow[i], hi = d->thigh[i], dbl = lo == hi;
        for (int end = 0; end < 2; end++) {
            int number = end == 0 ? left : right;
            /* two equal ends are one place, unless a double lies at one of them only (All Fives) */
            if ((lo != number && hi != number)
                || (end == 1 && left == right && (d->scores < 0 || (shape & 1) == ((shape >> 1) & 1)))) continue;
            int other = lo == number ? hi : lo, a, b, sh, points = 0;
            if (end == 0) { a = other; b = right; sh = (shape & 2) | dbl; }
            else { a = left; b = other; sh = (shape & 1) | dbl << 1; }
            if (d->scores < 0) {
                if (a > b) { int x = a; a = b; b = x; }
            } else {
                points = count_points(d->scores, a + b + (sh & 1 ? a : 0) + (sh & 2 ? b : 0));
                if (!d->maximiser[s]) points = -points;
            }
            Choice c = {2 * i + end, -16 * (points < 0 ? -points : points) - d->tpips[i], i, a, b, sh, points};
            out[nc++] = c;
        }
    }
    if (offer) {
        Choice c = {DECLINE, 1, 0, left, right, shape, 0};
        out[nc++] = c;
    }
    return nc;
}

/* Every choice of ``s`` in the order of ``_DrawDeal.moves``: ``legal_choices`` sorted by ``order``. */
static int choices(DrawSearch *d, uint64_t hand, int left, int right, int shape, int s, int offer, Choice *out) {
    int nc = legal_choices(d, hand, left, right, shape, s, offer, out);
    for (int i = 1; i < nc; i++) {          /* a stable sort, as Python's */
        Choice c = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].order > c.order) { out[j + 1] = out[j]; j--; }
        out[j + 1] = c;
    }
    return nc;
}

/* Ask the memory for the table slots of the choices each play leaves to the next seat when he can play (a
 * child searched at once, the common case): the table is large, and a probe's cache miss is most of the time
 * of a position; asked together, the misses overlap. Only a hint: nothing is read. */
static void prefetch_children(DrawSearch *d, const uint64_t *h, int s, int k, const Choice *cs, int nc) {
    int n = d->n;
    uint64_t hh[SEATS];
    memcpy(hh, h, sizeof(uint64_t) * (size_t)n);
    for (int i = 0; i < nc; i++) {
        const Choice *c = cs + i;
        if (c->code == DECLINE) continue;
        hh[s] = h[s] & ~(1ULL << c->bit);
        int t = next_seat(d, hh[s], s, c->left, c->right);
        if ((!hh[s] && !d->run) || !(hh[t] & (d->match[c->left] | d->match[c->right]))) continue;
        __builtin_prefetch(d->slots + home(d, hash_of(hh, n, meta_of(c->left, c->right, c->shape, t, k, 0, s))));
    }
}

/* The side-0 value of a choice of ``s``, fail-soft in (alpha, beta) (``_DrawDeal.search``). */
static int choice(DrawSearch *d, uint64_t *h, int left, int right, int shape, int s, int k, int offer,
                  const Last *last, int alpha, int beta) {
    int n = d->n, most = value_bound(d, h, k);
    if (most >= 0) {            /* no value can pass the bound: the window lies beyond it */
        if (most <= alpha) return most;
        if (-most >= beta) return -most;
    }
    d->nodes++;
    if (d->nodes > d->budget) { d->stopped = 1; return 0; }
    uint32_t meta = meta_of(left, right, shape, s, k, offer, last->seat);
    uint64_t hash = hash_of(h, n, meta);
    Slot *en = lookup(d, hash, h, meta);
    int lower = -INF, upper = INF, hint = NO_HINT;
    if (en != NULL) {
        lower = bound_unpack(en->lo);
        upper = bound_unpack(en->hi);
        hint = en->code;
        if (lower >= beta) return lower;
        if (upper <= alpha) return upper;
        if (lower > alpha) alpha = lower;
        if (upper < beta) beta = upper;
    }
    Choice cs[CHOICES];
    int nc = choices(d, h[s], left, right, shape, s, offer, cs);
    if (hint != NO_HINT) {
        for (int i = 0; i < nc; i++)
            if (cs[i].code == hint) {
                Choice c = cs[i];
                memmove(cs + 1, cs, (size_t)i * sizeof(Choice));
                cs[0] = c;
                break;
            }
    }
    int maximise = d->maximiser[s], a0 = alpha, b0 = beta, best = maximise ? -INF : INF, best_code = NO_HINT;
    uint64_t mine = h[s];
    prefetch_children(d, h, s, k, cs, nc);
    for (int i = 0; i < nc; i++) {
        Choice *c = cs + i;
        int x;
        if (c->code == DECLINE) {
            x = follow(d, h, left, right, shape, (s + 1) % n, 0, k, 0, last, alpha, beta);
        } else {
            Last played = {s, c->bit, left, right};
            h[s] = mine & ~(1ULL << c->bit);
            if (!h[s] && !d->run) x = c->points + hand_value(d, h, 0, &played);
            else x = c->points + follow(d, h, c->left, c->right, c->shape, next_seat(d, h[s], s, c->left, c->right),
                                        0, k, 0, &played, alpha - c->points, beta - c->points);
            h[s] = mine;
        }
        if (d->failed || d->stopped) return 0;
        if (maximise) {
            if (x > best) {
                best = x;
                best_code = c->code;
                if (x > alpha) alpha = x;
            }
        } else if (x < best) {
            best = x;
            best_code = c->code;
            if (x < beta) beta = x;
        }
        if (alpha >= beta) break;
    }
    if (best <= a0) { if (best < upper) upper = best; }
    else if (best >= b0) { if (best > lower) lower = best; }
    else lower = upper = best;
    Slot *e = slot_to_store(d, hash, h, meta);
    if (e == NULL) return best;
    memset(e->h, 0, sizeof(e->h));
    memcpy(e->h, h, sizeof(uint64_t) * (size_t)n);
    e->meta = meta;
    e->lo = bound_pack(lower);
    e->hi = bound_pack(upper);
    e->code = (uint8_t)best_code;
    uint64_t held = 0;
    for (int t = 0; t < n; t++) held |= h[t];
    e->held = (uint8_t)popcount(held);
    return best;
}

/* -- the Python type ------------------------------------------------------------------------------ */

static int ints_of(PyObject *seq, int count, int *out, int lo, int hi, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (f == NULL) return -1;
    int bad = count >= 0 && PySequence_Fast_GET_SIZE(f) != count;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(f) && !bad; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (PyErr_Occurred() || v < lo || v > hi) bad = 1;
        else out[i] = (int)v;
    }
    Py_DECREF(f);
    if (bad) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: values out of range", what);
        return -1;
    }
    return 0;
}

static int DrawSearch_init(DrawSearch *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"n", "max_pip", "order", "limit", "until", "scores", "maximiser", "described", "leaf",
                             "entries", "leader", "bound", "run", NULL};
    PyObject *order, *maximiser, *described, *leaf_fn, *bound = Py_None;
    int n, max_pip, limit, until, scores, leader, fixed = 0, most = -1, run = 0;
    unsigned long long entries;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOiiiOOOKi|Op", kwlist, &n, &max_pip, &order, &limit, &until,
                                     &scores, &maximiser, &described, &leaf_fn, &entries, &leader, &bound, &run))
        return -1;
    if (bound != Py_None && (!PyArg_ParseTuple(bound, "pi", &fixed, &most) || most < 0 || most > MAX_VALUE)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bound: None or (fixed, most), most 0 or more");
        return -1;
    }
    if (n < 2 || n > SEATS || max_pip < 0 || max_pip >= NUMBERS || leader < 0 || leader >= n) {
        PyErr_SetString(PyExc_ValueError, "the compiled search seats two to four players (the leader one of them), "
                        "sets up to double-nine");
        return -1;
    }
    int tiles = (max_pip + 1) * (max_pip + 2) / 2;
    PyObject *f = PySequence_Fast(order, "order");
    if (f == NULL) return -1;
    Py_ssize_t norder = PySequence_Fast_GET_SIZE(f);
    if (norder > tiles || norder > 127) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "order: more tiles than the set");
        return -1;
    }
    for (Py_ssize_t i = 0; i < norder; i++) {
        self->order[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(f, i));
        if (PyErr_Occurred()) { Py_DECREF(f); return -1; }
    }
    Py_DECREF(f);
    int python_leaves = described == Py_None;
    if (python_leaves && !PyCallable_Check(leaf_fn)) {
        PyErr_SetString(PyExc_ValueError, "scoring: a described scoring (LeafScoring.ints()) or a callable leaf");
        return -1;
    }
    if (!python_leaves) {
        if (leaf_parse(described, &self->sc) < 0) return -1;
        if (self->sc.n != n) {
            PyErr_SetString(PyExc_ValueError, "described: the description seats another number of players");
            return -1;
        }
    }
    if (ints_of(maximiser, n, self->maximiser, 0, 1, "maximiser") < 0)
        return -1;
    Py_XDECREF(self->leaf);
    self->leaf = NULL;
    self->python_leaves = python_leaves;
    if (python_leaves) { Py_INCREF(leaf_fn); self->leaf = leaf_fn; }
    self->leader = leader;
    self->n = n;
    self->max_pip = max_pip;
    self->norder = (int)norder;
    self->limit = limit < 0 ? 0 : (limit > (int)norder ? (int)norder : limit);
    self->until = until;
    self->run = run;
    self->scores = scores;
    self->most = most;
    self->fixed = fixed;
    memset(self->match, 0, sizeof(self->match));
    self->doubles = 0;
    int i = 0;
    for (int hi = 0; hi <= max_pip; hi++)           /* Tile.index: high * (high + 1) / 2 + low */
        for (int lo = 0; lo <= hi; lo++, i++) {
            self->tlow[i] = (uint8_t)lo;
            self->thigh[i] = (uint8_t)hi;
            self->tpips[i] = lo + hi;
            self->match[lo] |= 1ULL << i;
            self->match[hi] |= 1ULL << i;
            if (lo == hi) self->doubles |= 1ULL << i;
        }
    rest_of_order(self);
    uint64_t max_size, size;         /* in runs of WAYS slots, then in slots */
    table_sizes(entries, WAYS, 1 << 10, &max_size, &size);
    max_size *= WAYS;
    size *= WAYS;
    free(self->raw);
    self->raw = NULL;
    self->slots = NULL;
    if (slots_new(self, size) < 0) { PyErr_NoMemory(); return -1; }
    self->start_size = size;
    self->max_size = max_size;
    self->used = self->replaced = 0;
    return 0;
}

/* A state as ``search`` and ``line`` take it, checked, its hands read into ``h``: 0, or -1 with an error set. */
static int state_in(DrawSearch *d, PyObject *hands, uint64_t *h, int left, int right, int shape, int s, int k,
                    const Last *last) {
    int n = d->n;
    if (PyTuple_GET_SIZE(hands) != n || s < 0 || s >= n || last->seat < 0 || last->seat >= n || left < 0
        || right < 0 || left > d->max_pip || right > d->max_pip || shape < 0 || shape > 7 || k < 0
        || k > d->norder || last->bit < 0 || last->bit >= TILES) {
        PyErr_SetString(PyExc_ValueError, "a state out of the deal: one hand a seat, ends and seats in range");
        return -1;
    }
    memset(h, 0, sizeof(uint64_t) * SEATS);
    for (int t = 0; t < n; t++) {
        h[t] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(hands, t));
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

/* search(hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left,
 * before_right, alpha, beta, budget) -> (value, positions): value None past the budget. */
static PyObject *DrawSearch_search(DrawSearch *self, PyObject *args) {
    PyObject *hands;
    int left, right, shape, s, drawn, k, passes, offer, alpha, beta;
    Last last;
    long long budget;
    if (!PyArg_ParseTuple(args, "O!iiiiiiiiiiiiiiL", &PyTuple_Type, &hands, &left, &right, &shape, &s, &drawn, &k,
                          &passes, &offer, &last.seat, &last.bit, &last.before_left, &last.before_right, &alpha,
                          &beta, &budget))
        return NULL;
    uint64_t h[SEATS];
    if (state_in(self, hands, h, left, right, shape, s, k, &last) < 0) return NULL;
    self->nodes = 0;
    self->budget = budget < 0 ? 0 : (uint64_t)budget;
    self->stopped = self->failed = 0;
    if (alpha < -INF) alpha = -INF;
    if (beta > INF) beta = INF;
    int v = offer ? choice(self, h, left, right, shape, s, k, 1, &last, alpha, beta)
                  : follow(self, h, left, right, shape, s, drawn, k, passes, &last, alpha, beta);
    if (self->failed) return NULL;
    if (self->stopped) return Py_BuildValue("OK", Py_None, (unsigned long long)self->nodes);
    return Py_BuildValue("iK", v, (unsigned long long)self->nodes);
}

/* -- all the worlds of one decision ---------------------------------------------------------------- */

/* A move of the decision as ``worlds`` takes it (``DrawWorlds._roots`` in analyzer/search/draw.py): the points it
 * scores at once (side 0), the tile laid (-1: the opener adds none), and the state it leaves: the ends (as they
 * lie in the position: the search sorts them where nothing is scored during play, the lines play them so), their
 * shape, the seat to move, drawn this turn, passes, the opener's offer, the last tile laid. */
typedef struct {
    int gain, bit, left, right, shape, t, drawn, passes, offer;
    Last last;
} Root;

/* The table as a new search's (its starting size, empty): each world is searched as by a search of its own. */
static int table_reset(DrawSearch *d) {
    free(d->raw);
    d->raw = NULL;
    d->slots = NULL;
    if (slots_new(d, d->start_size) < 0) { PyErr_NoMemory(); return -1; }
    d->used = d->replaced = 0;
    return 0;
}

/* The state's ends of the position's ``left``, ``right``: sorted where nothing is scored during play. */
static inline void state_ends(const DrawSearch *d, int left, int right, int *a, int *b) {
    int swap = d->scores < 0 && left > right;
    *a = swap ? right : left;
    *b = swap ? left : right;
}

/* The side-0 value of the state a root move leaves (``TreeSearch._mtd``: MTD(f) from ``guess``; the root's ends as
 * they lie, sorted here for the search). */
static int root_value(DrawSearch *d, uint64_t *h, const Root *r, int mover, int k, int guess) {
    if (r->bit >= 0 && !h[mover] && !d->run) return hand_value(d, h, 0, &r->last);      /* he went out */
    int g = guess, lo = -INF, hi = INF, left, right;
    state_ends(d, r->left, r->right, &left, &right);
    while (lo < hi) {
        int b = g == lo ? g + 1 : g;
        g = r->offer ? choice(d, h, left, right, r->shape, r->t, k, 1, &r->last, b - 1, b)
                     : follow(d, h, left, right, r->shape, r->t, r->drawn, k, r->passes, &r->last, b - 1, b);
        if (d->failed || d->stopped) return 0;
        if (g < b) hi = g;
        else lo = g;
    }
    return g;
}

/* ``(seat, tile, end, arm, points)`` appended to ``out``: a play (``arm`` 1 or 2 on the first or second of two
 * equal ends that play differently, else 0; ``points``: what it scores for its player), a draw (``end`` -2, the
 * tile drawn), a pass (``tile`` and ``end`` -1), the opener's choice to add no tile (``tile`` -2). -1 on an
 * error; ``out`` NULL: nothing kept. */
static int line_append(PyObject *out, int seat, int tile, int end, int arm, int points) {
    if (out == NULL) return 0;          /* (``ends``: the line's end is kept, not its steps) */
    PyObject *x = Py_BuildValue("(iiiii)", seat, tile, end, arm, points);
    int r = x == NULL ? -1 : PyList_Append(out, x);
    Py_XDECREF(x);
    return r;
}

/* The state of a principal line as it is played out: the ends as they lie in the position (the state's are
 * sorted where nothing is scored during play, and its shape is then 0 at every choice, as ``compact_state`` gives
 * it), ``value`` the side-0 points still to come; ``spent``: the positions the first choice's budget has spent
 * already (``TreeSearch.best_line`` searches the value there, counted with its probes); ``probed``, ``after``:
 * whether a choice was probed, and the value of the state its move left (``TreeSearch._last``); ``points``: what
 * each seat's plays along the line scored for him. */
typedef struct {
    uint64_t h[SEATS];
    int left, right, shape, t, drawn, k, passes, offer, value;
    Last last;
    long long spent;
    int probed, after;
    int points[SEATS];  /* what each seat scored during play along the line, for himself */
} LineState;

/* Choice ``m`` of ``st->t`` (one of ``legal_choices`` at ``st``) appended to ``out`` and played: the state it leaves,
 * its points taken off the value still to come and counted for its player. Returns 1 once it ends the hand, 0 when
 * it goes on, -1 on an error. */
static int line_play(DrawSearch *d, LineState *st, const Choice *m, PyObject *out) {
    int s = st->t;
    st->offer = 0;
    st->t = (s + 1) % d->n;
    st->drawn = st->passes = 0;
    if (m->code == DECLINE) return line_append(out, s, -2, -1, 0, 0) < 0 ? -1 : 0;
    int number = m->code & 1 ? st->right : st->left, own = d->maximiser[s] ? m->points : -m->points;
    int arm = st->left == st->right && (st->shape & 1) != ((st->shape >> 1) & 1) ? 1 + (m->code & 1) : 0;
    if (line_append(out, s, m->bit, number, arm, own) < 0) return -1;
    Last played = {s, m->bit, st->left, st->right};
    st->last = played;
    st->h[s] &= ~(1ULL << m->bit);
    int far = d->tlow[m->bit] == number ? d->thigh[m->bit] : d->tlow[m->bit];    /* the ends as they lie */
    if (m->code & 1) st->right = far;
    else st->left = far;
    st->shape = d->scores < 0 ? 0 : m->shape;
    st->value -= m->points;
    st->points[s] += own;
    st->t = next_seat(d, st->h[s], s, st->left, st->right);
    return st->h[s] || d->run ? 0 : 1;
}

/* The first choice of ``st->t`` in the order of ``Position.legal_moves`` whose value (with the points it scores at
 * once) reaches the state's, by a null-window probe each (``TreeSearch._first_best``; at most ``limit`` positions
 * for them all), appended to ``out`` and played. Returns 1 once it ends the hand, 0 when it goes on, -1 on an
 * error or past the limit (``failed``, ``stopped``). */
static int line_choice(DrawSearch *d, LineState *st, long long limit, PyObject *out) {
    int n = d->n, s = st->t, v = st->value, c = 0, a, b, flat = d->scores < 0;
    Choice cs[CHOICES];
    int nc = legal_choices(d, st->h[s], st->left, st->right, st->shape, s, st->offer, cs);
    uint64_t mine = st->h[s];
    state_ends(d, st->left, st->right, &a, &b);
    if (nc > 1) {
        long long budget = limit - st->spent;
        d->nodes = 0;
        d->budget = budget < 0 ? 0 : (uint64_t)budget;
        st->spent = 0;
        for (c = 0; c < nc; c++) {
            const Choice *m = cs + c;
            int x, lo = d->maximiser[s] ? v - 1 : v, hi = lo + 1;
            if (m->code == DECLINE) {
                x = follow(d, st->h, a, b, st->shape, (s + 1) % n, 0, st->k, 0, &st->last, lo, hi);
            } else {
                Last played = {s, m->bit, st->left, st->right};
                st->h[s] = mine & ~(1ULL << m->bit);
                x = m->points + (st->h[s] || d->run
                                     ? follow(d, st->h, m->left, m->right, flat ? 0 : m->shape,
                                              next_seat(d, st->h[s], s, m->left, m->right), 0, st->k, 0, &played,
                                              lo - m->points, hi - m->points)
                                     : hand_value(d, st->h, 0, &played));
                st->h[s] = mine;
            }
            if (d->failed || d->stopped) return -1;
            if (d->maximiser[s] ? x >= v : x <= v) {
                st->probed = 1;
                st->after = x - m->points;
                break;
            }
        }
        if (c == nc) {
            PyErr_SetString(PyExc_RuntimeError, "line: no move reaches the value of the state");
            return -1;
        }
    }
    return line_play(d, st, cs + c, out);
}

/* The principal variation from ``st`` to the end of the hand appended to ``out`` (``TreeSearch.best_line``):
 * the forced draws and passes as ``follow`` takes them, each choice by ``line_choice``. Returns 0, or -1 on an
 * error or past the limit at a choice. */
static int line_rest(DrawSearch *d, LineState *st, long long limit, PyObject *out) {
    int n = d->n;
    for (;;) {
        uint64_t fit = d->match[st->left] | d->match[st->right];
        if (!st->offer && st->k >= d->limit) {
            int playable = 0;
            for (int i = 0; i < n && !playable; i++) playable = (st->h[i] & fit) != 0;
            if ((st->passes >= n && !st->drawn) || !playable) return 0;         /* blocked */
        }
        if (st->offer || (st->h[st->t] & fit)) {
            int got = line_choice(d, st, limit, out);
            if (got != 0) return got < 0 ? -1 : 0;
        } else if (st->k < d->limit && (d->until || !st->drawn)) {
            uint64_t tile = d->order[st->k++];
            if (line_append(out, st->t, __builtin_ctzll(tile), -2, 0, 0) < 0) return -1;
            st->h[st->t] |= tile;
            st->drawn++;
        } else {
            if (line_append(out, st->t, -1, -1, 0, 0) < 0) return -1;
            st->t = (st->t + 1) % n;
            st->drawn = 0;
            st->passes++;
        }
    }
}

/* The principal variation after root ``r`` in the world just valued (``h``: the hands after it; ``rest``: the
 * side-0 value of the state it leaves), from the table its values left: ``(steps, before_left, before_right)``, a
 * list of steps (``line_append``) and the ends as they lay before the last tile laid (-1, -1: before the lead), None
 * past ``limit`` positions at a choice; NULL on an error. */
static PyObject *root_line(DrawSearch *d, const uint64_t *h, const Root *r, int k, int rest, long long limit) {
    LineState st = {.left = r->left, .right = r->right, .shape = r->shape, .t = r->t, .drawn = r->drawn, .k = k,
                    .passes = r->passes, .offer = r->offer, .value = rest, .last = r->last};
    memcpy(st.h, h, sizeof(st.h));
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    if (!(r->bit >= 0 && !h[r->last.seat] && !d->run)) {               /* (else he went out) */
        d->stopped = 0;
        if (line_rest(d, &st, limit, out) < 0) {
            Py_DECREF(out);
            if (!d->stopped || d->failed) return NULL;
            d->stopped = 0;
            return Py_NewRef(Py_None);
        }
    }
    return Py_BuildValue("(Nii)", out, st.last.before_left, st.last.before_right);
}

/* line(hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left, before_right,
 * value, limit, spent) -> (steps, positions, after, before_left, before_right): the principal variation from a state
 * (``left``, ``right``: the ends as they lie in the position; the rest as ``search`` takes it) whose side-0 value is
 * ``value`` to the end of the hand, as ``TreeSearch.best_line`` plays it (``line_rest``): each choice's probes at most
 * ``limit`` positions, the first choice's ``spent`` of them already. ``steps`` as ``line_append`` gives them, None
 * past the limit;
 * ``positions``: those of the last choice probed; ``after``: the value of the state its move left (None: no choice
 * was probed); ``before_left``, ``before_right``: the ends as they lay before the last tile laid (-1, -1: before the
 * lead). */
static PyObject *DrawSearch_line(DrawSearch *self, PyObject *args) {
    PyObject *hands;
    LineState st;
    long long limit, spent;
    memset(&st, 0, sizeof(st));
    if (!PyArg_ParseTuple(args, "O!iiiiiiiiiiiiiLL", &PyTuple_Type, &hands, &st.left, &st.right, &st.shape, &st.t,
                          &st.drawn, &st.k, &st.passes, &st.offer, &st.last.seat, &st.last.bit, &st.last.before_left,
                          &st.last.before_right, &st.value, &limit, &spent))
        return NULL;
    if (state_in(self, hands, st.h, st.left, st.right, st.shape, st.t, st.k, &st.last) < 0) return NULL;
    if (st.value > MAX_VALUE || st.value < -MAX_VALUE) {
        PyErr_SetString(PyExc_ValueError, "line: a value out of the compiled search's range");
        return NULL;
    }
    st.spent = spent;
    self->stopped = self->failed = 0;
    self->nodes = 0;
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    if (line_rest(self, &st, limit, out) < 0) {
        Py_DECREF(out);
        if (!self->stopped || self->failed) return NULL;
        self->stopped = 0;
        out = Py_NewRef(Py_None);
    }
    if (!st.probed)
        return Py_BuildValue("NKOii", out, (unsigned long long)self->nodes, Py_None, st.last.before_left,
                             st.last.before_right);
    return Py_BuildValue("NKiii", out, (unsigned long long)self->nodes, st.after, st.last.before_left,
                         st.last.before_right);
}

/* The end of the line ``st`` leads to as ``ends`` gives it: ``(hands..., last_seat, last_tile, before_left,
 * before_right, points...)``, each seat's hand and what it scored along the line (for himself); None past the limit at a choice or
 * where no move there reaches the value (a value that is not the state's); NULL on an error. ``played``: what
 * ``line_play`` gave for the choice that led to ``st`` (1: it ended the hand, -1: none was played). */
static PyObject *line_end(DrawSearch *d, LineState *st, long long limit, int played) {
    int n = d->n;
    if (played != 1) {
        d->stopped = 0;
        if (line_rest(d, st, limit, NULL) < 0) {
            if (d->failed) return NULL;
            if (!d->stopped && !PyErr_ExceptionMatches(PyExc_RuntimeError)) return NULL;
            PyErr_Clear();                  /* (the value is not the state's: no line reaches it) */
            d->stopped = 0;
            return Py_NewRef(Py_None);
        }
    }
    PyObject *out = PyTuple_New(2 * n + 4);
    if (out == NULL) return NULL;
    for (int t = 0; t < n; t++) {
        PyObject *x = PyLong_FromUnsignedLongLong(st->h[t]), *p = PyLong_FromLong(st->points[t]);
        if (x == NULL || p == NULL) { Py_XDECREF(x); Py_XDECREF(p); Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, t, x);
        PyTuple_SET_ITEM(out, n + 4 + t, p);
    }
    int last[4] = {st->last.seat, st->last.bit, st->last.before_left, st->last.before_right};
    for (int i = 0; i < 4; i++) {
        PyObject *x = PyLong_FromLong(last[i]);
        if (x == NULL) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, n + i, x);
    }
    return out;
}

/* ends(hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left, before_right,
 * value, values, limit) -> the end of the principal variation from a state (as ``line`` takes it) whose side-0 value is
 * ``value``, as ``line`` plays it, without its steps: ``(hands..., last_seat, last_tile, before_left, before_right,
 * points...)``, each seat's hand at the end, the last tile laid and the ends before it (-1, -1: before the lead), what
 * each seat scored during play along the line (for himself); None past the limit at a choice or where no move reaches
 * the value. ``values`` (None: the line from the state): a list with one side-0 value (or None) for each choice of the
 * seat to move, in the order of ``Position.legal_moves`` (``legal_choices``: ValueError for another count), each the
 * value of the state that choice leaves with the points it scores: a list of the end of each choice's line (None where
 * its value is None). */
static PyObject *DrawSearch_ends(DrawSearch *self, PyObject *args) {
    PyObject *hands, *values;
    LineState st0;
    long long limit;
    memset(&st0, 0, sizeof(st0));
    if (!PyArg_ParseTuple(args, "O!iiiiiiiiiiiiiOL", &PyTuple_Type, &hands, &st0.left, &st0.right, &st0.shape,
                          &st0.t, &st0.drawn, &st0.k, &st0.passes, &st0.offer, &st0.last.seat, &st0.last.bit,
                          &st0.last.before_left, &st0.last.before_right, &st0.value, &values, &limit))
        return NULL;
    if (state_in(self, hands, st0.h, st0.left, st0.right, st0.shape, st0.t, st0.k, &st0.last) < 0) return NULL;
    self->stopped = self->failed = 0;
    self->nodes = 0;
    if (values == Py_None) {
        if (st0.value > MAX_VALUE || st0.value < -MAX_VALUE) return Py_NewRef(Py_None);
        return line_end(self, &st0, limit, -1);
    }
    Choice cs[CHOICES];
    int nc = legal_choices(self, st0.h[st0.t], st0.left, st0.right, st0.shape, st0.t, st0.offer, cs);
    PyObject *f = PySequence_Fast(values, "values");
    if (f == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(f) != nc) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "ends: %d choices, not %zd values", nc, PySequence_Fast_GET_SIZE(f));
        return NULL;
    }
    PyObject *out = PyList_New(nc);
    if (out == NULL) { Py_DECREF(f); return NULL; }
    for (int c = 0; c < nc; c++) {
        PyObject *v = PySequence_Fast_GET_ITEM(f, c), *end;
        long x = v == Py_None ? 0 : PyLong_AsLong(v);
        if (x == -1 && PyErr_Occurred()) { Py_DECREF(f); Py_DECREF(out); return NULL; }
        if (v == Py_None || x > MAX_VALUE || x < -MAX_VALUE) {
            end = Py_NewRef(Py_None);
        } else {
            LineState st = st0;
            st.value = (int)x;
            end = line_end(self, &st, limit, line_play(self, &st, cs + c, NULL));
            if (end == NULL) { Py_DECREF(f); Py_DECREF(out); return NULL; }
        }
        PyList_SET_ITEM(out, c, end);
    }
    Py_DECREF(f);
    return out;
}

static int roots_of(DrawSearch *d, PyObject *seq, Root *out, int most) {
    PyObject *f = PySequence_Fast(seq, "roots");
    if (f == NULL) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(f);
    if (count < 1 || count > most) {
        Py_DECREF(f);
        PyErr_SetString(PyExc_ValueError, "roots: one to CHOICES moves");
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        int v[13];
        if (ints_of(PySequence_Fast_GET_ITEM(f, i), 13, v, -INF, INF, "a root") < 0) { Py_DECREF(f); return -1; }
        Root r = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], {v[9], v[10], v[11], v[12]}};
        if (r.bit < -1 || r.bit >= TILES || r.left < 0 || r.right < 0 || r.left > d->max_pip || r.right > d->max_pip
            || r.shape < 0 || r.shape > 7 || r.t < 0 || r.t >= d->n || r.last.seat < 0 || r.last.seat >= d->n
            || r.last.bit < 0 || r.last.bit >= TILES || (r.offer != 0 && r.offer != 1) || r.drawn < 0 || r.passes < 0
            || r.gain > MAX_VALUE || r.gain < -MAX_VALUE) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, "a root out of the deal: tiles, ends and seats in range");
            return -1;
        }
        out[i] = r;
    }
    Py_DECREF(f);
    return (int)count;
}

static int masks_of(PyObject *seq, Py_ssize_t count, uint64_t *out, const char *what) {
    PyObject *f = PySequence_Fast(seq, what);
    if (f == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(f) != count) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s: %zd masks expected", what, count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(f, i));
        if (PyErr_Occurred()) { Py_DECREF(f); return -1; }
    }
    Py_DECREF(f);
    return 0;
}

/* worlds(hands, orders, mover, draws, roots, limit, lines=False) -> (rows, over): see ``DrawWorlds`` in
 * drawworlds.py. ``lines`` (points during play only: the ends lie as the position has them): also each root's
 * principal variation in each world, from the table its values left (``root_line``): ``(rows, over, lines)``,
 * ``lines`` a list per world of each root's steps and the ends before its last tile (None: past ``limit`` positions
 * at a choice). */
static PyObject *DrawSearch_worlds(DrawSearch *self, PyObject *args) {
    PyObject *hands, *orders, *roots;
    int mover, k, want = 0;
    long long limit;
    if (!PyArg_ParseTuple(args, "OOiiOL|p", &hands, &orders, &mover, &k, &roots, &limit, &want)) return NULL;
    int n = self->n;
    Root rs[CHOICES];
    int nr = roots_of(self, roots, rs, CHOICES);
    if (nr < 0) return NULL;
    if (mover < 0 || mover >= n || k < 0 || k > self->norder) {
        PyErr_SetString(PyExc_ValueError, "the mover a seat, the draws taken within the order");
        return NULL;
    }
    PyObject *hs = PySequence_Fast(hands, "hands"), *os = PySequence_Fast(orders, "orders");
    if (hs == NULL || os == NULL) { Py_XDECREF(hs); Py_XDECREF(os); return NULL; }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(hs);
    PyObject *rows = PyList_New(0), *lines = want ? PyList_New(0) : NULL;
    int over = 0;
    if (want && lines == NULL) goto fail;
    if (rows == NULL || PySequence_Fast_GET_SIZE(os) != count) {
        if (rows != NULL) PyErr_SetString(PyExc_ValueError, "one order a world");
        goto fail;
    }
    for (Py_ssize_t w = 0; w < count && !over; w++) {
        uint64_t h0[SEATS] = {0}, h[SEATS];
        if (masks_of(PySequence_Fast_GET_ITEM(hs, w), n, h0, "a world's hands") < 0
            || masks_of(PySequence_Fast_GET_ITEM(os, w), self->norder, self->order, "a world's order") < 0
            || table_reset(self) < 0)
            goto fail;
        rest_of_order(self);
        self->nodes = 0;
        self->budget = limit < 0 ? 0 : (uint64_t)limit;
        self->stopped = self->failed = 0;
        PyObject *row = PyList_New(nr);
        if (row == NULL) goto fail;
        int guess = 0;      /* TreeSearch._last: 0 for a new deal, then the last value found */
        int rest[CHOICES];  /* each root's state's value */
        for (int i = 0; i < nr; i++) {
            const Root *r = rs + i;
            memcpy(h, h0, sizeof(h));
            if (r->bit >= 0) {
                if (!(h[mover] >> r->bit & 1)) {
                    Py_DECREF(row);
                    PyErr_SetString(PyExc_ValueError, "a root's tile is not in the mover's hand");
                    goto fail;
                }
                h[mover] &= ~(1ULL << r->bit);
            }
            int v = root_value(self, h, r, mover, k, guess);
            if (self->failed) { Py_DECREF(row); goto fail; }
            if (self->stopped) { over = 1; break; }
            guess = v;
            rest[i] = v;
            PyList_SET_ITEM(row, i, PyLong_FromLong((long)r->gain + v));
        }
        PyObject *found = want && !over ? PyList_New(nr) : NULL;
        for (int i = 0; found != NULL && i < nr; i++) {
            memcpy(h, h0, sizeof(h));
            if (rs[i].bit >= 0) h[mover] &= ~(1ULL << rs[i].bit);
            PyObject *steps = root_line(self, h, rs + i, k, rest[i], limit);
            if (steps == NULL) Py_CLEAR(found);
            else PyList_SET_ITEM(found, i, steps);
        }
        if (want && !over && (found == NULL || PyList_Append(lines, found) < 0)) {
            Py_XDECREF(found);
            Py_DECREF(row);
            goto fail;
        }
        Py_XDECREF(found);
        if (over || PyList_Append(rows, row) < 0) {
            Py_DECREF(row);
            if (!over) goto fail;
        } else {
            Py_DECREF(row);
        }
    }
    Py_DECREF(hs);
    Py_DECREF(os);
    if (lines != NULL) return Py_BuildValue("NON", rows, over ? Py_True : Py_False, lines);
    return Py_BuildValue("NO", rows, over ? Py_True : Py_False);
fail:
    Py_XDECREF(rows);
    Py_XDECREF(lines);
    Py_XDECREF(hs);
    Py_XDECREF(os);
    return NULL;
}

TABLE_GETTER(DrawSearch, nbytes, self->size * sizeof(Slot))
TABLE_GETTER(DrawSearch, used, self->used)
TABLE_GETTER(DrawSearch, replaced, self->replaced)

static int DrawSearch_traverse(DrawSearch *self, visitproc visit, void *arg) {
    Py_VISIT(self->leaf);
    return 0;
}

static int DrawSearch_clear(DrawSearch *self) {
    Py_CLEAR(self->leaf);
    return 0;
}

static void DrawSearch_dealloc(DrawSearch *self) {
    PyObject_GC_UnTrack(self);
    DrawSearch_clear(self);
    free(self->raw);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef DrawSearch_methods[] = {
    {"search", (PyCFunction)DrawSearch_search, METH_VARARGS,
     "search(hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left, "
     "before_right, alpha, beta, budget) -> (value or None past the budget, positions visited)"},
    {"line", (PyCFunction)DrawSearch_line, METH_VARARGS,
     "line(hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left, "
     "before_right, value, limit, spent) -> (the principal variation's steps or None past the limit, positions of "
     "the last choice probed, the value its move left or None)"},
    {"ends", (PyCFunction)DrawSearch_ends, METH_VARARGS,
     "ends(hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left, "
     "before_right, value, values, limit) -> the end of the principal variation from the state (values None), or of "
     "each choice's after it (values: each choice's value): (hands..., last_seat, last_tile, before_left, "
     "before_right, points...) or None"},
    {"worlds", (PyCFunction)DrawSearch_worlds, METH_VARARGS,
     "worlds(hands, orders, mover, draws, roots, limit, lines=False) -> (each world's value of every root move, past "
     "the limit[, each root's principal variation in each world and the ends before its last tile]): every world of one decision, each with a fresh "
     "table and at most limit positions (see DrawWorlds)"},
    {NULL}
};

static PyGetSetDef DrawSearch_getset[] = {
    TABLE_GETSET(DrawSearch, nbytes, "The memory of the table's slots now, in bytes."),
    TABLE_GETSET(DrawSearch, used, "The slots holding an entry."),
    TABLE_GETSET(DrawSearch, replaced, "Entries that pushed out an entry of another state."),
    {NULL}
};

static PyTypeObject DrawSearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "analyzer.search._draw.DrawSearch",
    .tp_doc = PyDoc_STR("DrawSearch(n, max_pip, order, limit, until, scores, maximiser, described, leaf, "
                        "entries, leader, bound=None, run=False): one deal of a draw game (or All Fives, or "
                        "Hungarian's runs) and its bounded table."),
    .tp_basicsize = sizeof(DrawSearch),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)DrawSearch_init,
    .tp_dealloc = (destructor)DrawSearch_dealloc,
    .tp_traverse = (traverseproc)DrawSearch_traverse,
    .tp_clear = (inquiry)DrawSearch_clear,
    .tp_methods = DrawSearch_methods,
    .tp_getset = DrawSearch_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "analyzer.search._draw",
    "The compiled search of draw games in a fixed boneyard order and of All Fives (see analyzer/search/draw.py).",
    -1, NULL,
};

PyMODINIT_FUNC PyInit__draw(void) {
    if (PyType_Ready(&DrawSearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "DrawSearch", (PyObject *)&DrawSearchType) < 0
        || PyModule_AddIntConstant(m, "ENTRY_BYTES", (long)sizeof(Slot)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
