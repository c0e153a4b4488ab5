/* The kernel of the search of draw games, All Fives and Hungarian's runs: ``_DrawDeal`` of analyzer/search/draw.py
 * in plain C, no Python (see ``_draw_kernel.h`` for its interface and ``_draw.c``'s top for what it computes). The
 * CPython extension ``_draw`` and the WebAssembly module ``_draw.wasm`` both build it, so the two search the same
 * states.
 */
#include "_draw_kernel.h"
#ifdef __linux__
#include <sys/mman.h>
#endif

#define INF DRAW_INF
#define SEATS DRAW_SEATS
#define TILES DRAW_TILES
#define NUMBERS DRAW_NUMBERS
#define CHOICES DRAW_CHOICES
#define DECLINE 255
#define NO_HINT 254
#define EMPTY 0xFFFFFFFFu

typedef DrawLast Last;
typedef DrawSlot Slot;
typedef DrawRoot Root;

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
    int v;
    if (d->leaf_fn(d->leaf_ctx, h, n, term, last->seat, 1ULL << last->bit, last->before_left, last->before_right,
                   &v) < 0) {       /* (the caller's: it checks the range) */
        d->failed = 1;
        (void)KERNEL_ERROR(d, K_CALLBACK, "the leaf value failed");
        return 0;
    }
    return v;
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

/* -- all the worlds of one decision ---------------------------------------------------------------- */

/* The table as a new search's (its starting size, empty): each world is searched as by a search of its own. */
static int table_reset(DrawSearch *d) {
    free(d->raw);
    d->raw = NULL;
    d->slots = NULL;
    if (slots_new(d, d->start_size) < 0) return KERNEL_ERROR(d, K_MEMORY, "no memory for the table");
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
static int line_append(DrawSearch *d, DrawSteps *out, int seat, int tile, int end, int arm, int points) {
    if (out == NULL || out->step == NULL) return 0;     /* (``ends``: the line's end is kept, not its steps) */
    if (out->count >= DRAW_MAX_STEPS) return KERNEL_ERROR(d, K_RUNTIME, "line: more steps than a hand has");
    int *x = out->step[out->count++];
    x[0] = seat;
    x[1] = tile;
    x[2] = end;
    x[3] = arm;
    x[4] = points;
    return 0;
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
static int line_play(DrawSearch *d, LineState *st, const Choice *m, DrawSteps *out) {
    int s = st->t;
    st->offer = 0;
    st->t = (s + 1) % d->n;
    st->drawn = st->passes = 0;
    if (m->code == DECLINE) return line_append(d, out, s, -2, -1, 0, 0) < 0 ? -1 : 0;
    int number = m->code & 1 ? st->right : st->left, own = d->maximiser[s] ? m->points : -m->points;
    int arm = st->left == st->right && (st->shape & 1) != ((st->shape >> 1) & 1) ? 1 + (m->code & 1) : 0;
    if (line_append(d, out, s, m->bit, number, arm, own) < 0) return -1;
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
static int line_choice(DrawSearch *d, LineState *st, long long limit, DrawSteps *out) {
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
            return KERNEL_ERROR(d, K_RUNTIME, "line: no move reaches the value of the state");
        }
    }
    return line_play(d, st, cs + c, out);
}

/* The principal variation from ``st`` to the end of the hand appended to ``out`` (``TreeSearch.best_line``):
 * the forced draws and passes as ``follow`` takes them, each choice by ``line_choice``. Returns 0, or -1 on an
 * error or past the limit at a choice. */
static int line_rest(DrawSearch *d, LineState *st, long long limit, DrawSteps *out) {
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
            if (line_append(d, out, st->t, __builtin_ctzll(tile), -2, 0, 0) < 0) return -1;
            st->h[st->t] |= tile;
            st->drawn++;
        } else {
            if (line_append(d, out, st->t, -1, -1, 0, 0) < 0) return -1;
            st->t = (st->t + 1) % n;
            st->drawn = 0;
            st->passes++;
        }
    }
}

/* The principal variation after root ``r`` in the world just valued (``h``: the hands after it; ``rest``: the
 * side-0 value of the state it leaves), from the table its values left: its steps (``line_append``) and the ends as
 * they lay before the last tile laid (-1, -1: before the lead); 1 past ``limit`` positions at a choice, -1 on an
 * error. */
int draw_root_line(DrawSearch *d, const uint64_t *hands, int mover, const Root *r, int k, int rest, int64_t limit,
                   DrawSteps *out, int *ends) {
    uint64_t h[SEATS];
    memcpy(h, hands, sizeof(h));
    if (r->bit >= 0) h[mover] &= ~(1ULL << r->bit);
    LineState st = {.left = r->left, .right = r->right, .shape = r->shape, .t = r->t, .drawn = r->drawn, .k = k,
                    .passes = r->passes, .offer = r->offer, .value = rest, .last = r->last};
    memcpy(st.h, h, sizeof(st.h));
    out->count = 0;
    if (!(r->bit >= 0 && !h[r->last.seat] && !d->run)) {               /* (else he went out) */
        d->stopped = 0;
        if (line_rest(d, &st, limit, out) < 0) {
            if (!d->stopped || d->failed) return -1;
            d->stopped = 0;
            return 1;
        }
    }
    ends[0] = st.last.before_left;
    ends[1] = st.last.before_right;
    return 0;
}

/* The end of the line ``st`` leads to as ``ends`` gives it: ``(hands..., last_seat, last_tile, before_left,
 * before_right, points...)``, each seat's hand and what it scored along the line (for himself), in ``out``; not
 * ``found`` past the limit at a choice or where no move there reaches the value (a value that is not the state's);
 * -1 on an error. ``played``: what
 * ``line_play`` gave for the choice that led to ``st`` (1: it ended the hand, -1: none was played). */
static int line_end(DrawSearch *d, LineState *st, long long limit, int played, DrawEnd *out) {
    int n = d->n;
    out->found = 0;
    if (played != 1) {
        d->stopped = 0;
        if (line_rest(d, st, limit, NULL) < 0) {
            if (d->failed) return -1;
            d->stopped = 0;                 /* (past the limit, or the value is not the state's: no line reaches it) */
            return 0;
        }
    }
    out->found = 1;
    for (int t = 0; t < n; t++) {
        out->h[t] = st->h[t];
        out->points[t] = st->points[t];
    }
    out->last[0] = st->last.seat;
    out->last[1] = st->last.bit;
    out->last[2] = st->last.before_left;
    out->last[3] = st->last.before_right;
    return 0;
}

/* -- the calls ------------------------------------------------------------------------------------ */

int draw_init(DrawSearch *d, int n, int max_pip, const uint64_t *order, int norder, int limit, int until, int scores,
              const int *maximiser, const LeafScoring *sc, DrawLeafFn leaf_fn, void *ctx, uint64_t entries, int leader,
              int has_bound, int fixed, int most, int run) {
    if (has_bound && (most < 0 || most > MAX_VALUE))
        return KERNEL_ERROR(d, K_VALUE, "bound: None or (fixed, most), most 0 or more");
    if (!has_bound) {
        fixed = 0;
        most = -1;
    }
    if (n < 2 || n > SEATS || max_pip < 0 || max_pip >= NUMBERS || leader < 0 || leader >= n)
        return KERNEL_ERROR(d, K_VALUE, "the compiled search seats two to four players (the leader one of them), "
                          "sets up to double-nine");
    int tiles = (max_pip + 1) * (max_pip + 2) / 2;
    if (norder < 0 || norder > tiles || norder > 127) return KERNEL_ERROR(d, K_VALUE, "order: more tiles than the set");
    if (sc == NULL && leaf_fn == NULL)
        return KERNEL_ERROR(d, K_VALUE, "scoring: a described scoring (LeafScoring.ints()) or a callable leaf");
    if (sc != NULL && sc->n != n)
        return KERNEL_ERROR(d, K_VALUE, "described: the description seats another number of players");
    for (int s = 0; s < n; s++)
        if (maximiser[s] < 0 || maximiser[s] > 1) return KERNEL_ERROR(d, K_VALUE, "maximiser: values out of range");
    for (int i = 0; i < norder; i++) d->order[i] = order[i];
    for (int s = 0; s < n; s++) d->maximiser[s] = maximiser[s];
    d->python_leaves = sc == NULL;
    if (sc != NULL) d->sc = *sc;
    d->leaf_fn = sc == NULL ? leaf_fn : NULL;
    d->leaf_ctx = sc == NULL ? ctx : NULL;
    d->leader = leader;
    d->n = n;
    d->max_pip = max_pip;
    d->norder = norder;
    d->limit = limit < 0 ? 0 : (limit > norder ? norder : limit);
    d->until = until;
    d->run = run;
    d->scores = scores;
    d->most = most;
    d->fixed = fixed;
    memset(d->match, 0, sizeof(d->match));
    kernel_tiles(max_pip, d->tlow, d->thigh, d->tpips, d->match, NULL, &d->doubles);
    rest_of_order(d);
    uint64_t max_size, size;         /* in runs of WAYS slots, then in slots */
    table_sizes(entries, WAYS, 1 << 10, &max_size, &size);
    max_size *= WAYS;
    size *= WAYS;
    free(d->raw);
    d->raw = NULL;
    d->slots = NULL;
    if (slots_new(d, size) < 0) return KERNEL_ERROR(d, K_MEMORY, "no memory for the table");
    d->start_size = size;
    d->max_size = max_size;
    d->used = d->replaced = 0;
    return 0;
}

void draw_free(DrawSearch *d) {
    free(d->raw);
    d->raw = NULL;
    d->slots = NULL;
}

/* A state as ``search``, ``line`` and ``ends`` take it, checked, its hands read into ``h``: 0, or -1. */
static int state_in(DrawSearch *d, const DrawState *st, uint64_t *h) {
    int n = d->n;
    if (st->seat < 0 || st->seat >= n || st->last.seat < 0 || st->last.seat >= n || st->left < 0 || st->right < 0
        || st->left > d->max_pip || st->right > d->max_pip || st->shape < 0 || st->shape > 7 || st->k < 0
        || st->k > d->norder || st->last.bit < 0 || st->last.bit >= TILES)
        return KERNEL_ERROR(d, K_VALUE, "a state out of the deal: one hand a seat, ends and seats in range");
    memset(h, 0, sizeof(uint64_t) * SEATS);
    for (int t = 0; t < n; t++) h[t] = st->hands[t];
    return 0;
}

int draw_search(DrawSearch *d, const DrawState *st, int alpha, int beta, int64_t budget, int *value, uint64_t *nodes) {
    uint64_t h[SEATS];
    if (state_in(d, st, h) < 0) return -1;
    d->nodes = 0;
    d->budget = budget < 0 ? 0 : (uint64_t)budget;
    d->stopped = d->failed = 0;
    if (alpha < -INF) alpha = -INF;
    if (beta > INF) beta = INF;
    Last last = st->last;
    int v = st->offer ? choice(d, h, st->left, st->right, st->shape, st->seat, st->k, 1, &last, alpha, beta)
                      : follow(d, h, st->left, st->right, st->shape, st->seat, st->drawn, st->k, st->passes, &last,
                               alpha, beta);
    *nodes = d->nodes;
    if (d->failed) return -1;
    if (d->stopped) return 1;
    *value = v;
    return 0;
}

/* The line state of a call's state (the ends as they lie), checked: 0, or -1. */
static int line_state(DrawSearch *d, const DrawState *in, LineState *st) {
    memset(st, 0, sizeof(*st));
    if (state_in(d, in, st->h) < 0) return -1;
    st->left = in->left;
    st->right = in->right;
    st->shape = in->shape;
    st->t = in->seat;
    st->drawn = in->drawn;
    st->k = in->k;
    st->passes = in->passes;
    st->offer = in->offer;
    st->last = in->last;
    return 0;
}

int draw_line(DrawSearch *d, const DrawState *in, int value, int64_t limit, int64_t spent, DrawSteps *out,
              uint64_t *nodes, int *probed, int *after, int *ends) {
    LineState st;
    if (line_state(d, in, &st) < 0) return -1;
    if (value > MAX_VALUE || value < -MAX_VALUE)
        return KERNEL_ERROR(d, K_VALUE, "line: a value out of the compiled search's range");
    st.value = value;
    st.spent = spent;
    d->stopped = d->failed = 0;
    d->nodes = 0;
    out->count = 0;
    int got = 0;
    if (line_rest(d, &st, limit, out) < 0) {
        if (!d->stopped || d->failed) return -1;
        d->stopped = 0;
        out->count = 0;
        got = 1;
    }
    *nodes = d->nodes;
    *probed = st.probed;
    *after = st.after;
    ends[0] = st.last.before_left;
    ends[1] = st.last.before_right;
    return got;
}

int draw_ends(DrawSearch *d, const DrawState *in, int value, int nvalues, const uint8_t *has, const int *values,
              int64_t limit, DrawEnd *out) {
    LineState st0;
    if (line_state(d, in, &st0) < 0) return -1;
    st0.value = value;
    d->stopped = d->failed = 0;
    d->nodes = 0;
    if (nvalues < 0) {
        out[0].found = 0;
        if (value > MAX_VALUE || value < -MAX_VALUE) return 0;
        return line_end(d, &st0, limit, -1, out);
    }
    Choice cs[CHOICES];
    int nc = legal_choices(d, st0.h[st0.t], st0.left, st0.right, st0.shape, st0.t, st0.offer, cs);
    if (nvalues != nc) {
        d->err_count = nc;
        return KERNEL_ERROR(d, K_VALUE, "ends: not one value a choice");
    }
    for (int c = 0; c < nc; c++) {
        out[c].found = 0;
        if (!has[c] || values[c] > MAX_VALUE || values[c] < -MAX_VALUE) continue;
        LineState st = st0;
        st.value = values[c];
        if (line_end(d, &st, limit, line_play(d, &st, cs + c, NULL), out + c) < 0) return -1;
    }
    return 0;
}

int draw_worlds_check(DrawSearch *d, int mover, int k, int nr, const Root *rs) {
    if (nr < 1 || nr > CHOICES) return KERNEL_ERROR(d, K_VALUE, "roots: one to CHOICES moves");
    for (int i = 0; i < nr; i++) {
        const Root *r = rs + i;
        if (r->bit < -1 || r->bit >= TILES || r->left < 0 || r->right < 0 || r->left > d->max_pip
            || r->right > d->max_pip || r->shape < 0 || r->shape > 7 || r->t < 0 || r->t >= d->n || r->last.seat < 0
            || r->last.seat >= d->n || r->last.bit < 0 || r->last.bit >= TILES || (r->offer != 0 && r->offer != 1)
            || r->drawn < 0 || r->passes < 0 || r->gain > MAX_VALUE || r->gain < -MAX_VALUE)
            return KERNEL_ERROR(d, K_VALUE, "a root out of the deal: tiles, ends and seats in range");
    }
    if (mover < 0 || mover >= d->n || k < 0 || k > d->norder)
        return KERNEL_ERROR(d, K_VALUE, "the mover a seat, the draws taken within the order");
    return 0;
}

int draw_world(DrawSearch *d, const uint64_t *hands, const uint64_t *order, int mover, int k, int nr, const Root *rs,
               int64_t limit, int *row, int *rest) {
    uint64_t h0[SEATS] = {0}, h[SEATS];
    for (int t = 0; t < d->n; t++) h0[t] = hands[t];
    for (int i = 0; i < d->norder; i++) d->order[i] = order[i];
    if (table_reset(d) < 0) return -1;
    rest_of_order(d);
    d->nodes = 0;
    d->budget = limit < 0 ? 0 : (uint64_t)limit;
    d->stopped = d->failed = 0;
    int guess = 0;      /* TreeSearch._last: 0 for a new deal, then the last value found */
    for (int i = 0; i < nr; i++) {
        const Root *r = rs + i;
        memcpy(h, h0, sizeof(h));
        if (r->bit >= 0) {
            if (!(h[mover] >> r->bit & 1)) return KERNEL_ERROR(d, K_VALUE, "a root's tile is not in the mover's hand");
            h[mover] &= ~(1ULL << r->bit);
        }
        int v = root_value(d, h, r, mover, k, guess);
        if (d->failed) return -1;
        if (d->stopped) return 1;
        guess = v;
        rest[i] = v;
        row[i] = r->gain + v;
    }
    return 0;
}
