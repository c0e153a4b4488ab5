/* The search over layouts with arms's kernel: ``_ArmDeal.search`` of analyzer/search/tree.py in plain C, no Python
 * (see ``_arms_kernel.h`` for its interface and ``_arms.c``'s top for what it computes). The CPython extension
 * ``_arms`` and the WebAssembly module ``_arms.wasm`` both build it, so the two search the same states.
 */
#include "_arms_kernel.h"

#define INF ARMS_INF
#define MAXSEATS ARMS_MAXSEATS
#define MAXTILES ARMS_MAXTILES
#define MAXNUM ARMS_MAXNUM
#define MAXMOVES 112

enum { START = 0, CLOSED = 1, DOUBLE = 2, OPEN = 3 };
enum { SCORE_SIDES = ARMS_SCORE_SIDES, SCORE_BAD = ARMS_SCORE_BAD, SCORE_PYTHON = ARMS_SCORE_CALLER,
       SCORE_DESCRIBED = ARMS_SCORE_DESCRIBED };

typedef ArmsEntry Entry;
typedef ArmsSearch ArmSearch;

/* -- the arms, packed --------------------------------------------------------------------------- */

#define SPECIAL_SHIFT 40
static inline int open_count(uint64_t a, int k) { return (int)((a >> (4 * k)) & 15); }
static inline int special(uint64_t a, int i) { return (int)((a >> (SPECIAL_SHIFT + 6 * i)) & 63) - 1; }

/* The packed arms of an open-count array and a list of other codes (sorted here). */
static uint64_t pack_arms(const int *open, int nopen, int *other, int nother) {
    uint64_t a = 0;
    for (int k = 0; k < nopen; k++) a |= (uint64_t)open[k] << (4 * k);
    for (int i = 1; i < nother; i++) {
        int c = other[i], j = i - 1;
        while (j >= 0 && other[j] > c) { other[j + 1] = other[j]; j--; }
        other[j + 1] = c;
    }
    for (int i = 0; i < nother; i++) a |= (uint64_t)(other[i] + 1) << (SPECIAL_SHIFT + 6 * i);
    return a;
}

/* -- the table ------------------------------------------------------------------------------------ */


static inline uint64_t state_hash(const uint64_t *h, int n, uint64_t arms, int s) {
    uint64_t x = arms * 0x9E3779B97F4A7C15ULL ^ (uint64_t)s;
    for (int i = 0; i < n; i++) x = (x ^ h[i]) * 0xD6E8FEB86659FD93ULL + (uint64_t)i;
    return x ^ (x >> 29);
}

static inline uint64_t home(const ArmSearch *d, uint64_t hash) { return (hash * 0x9E3779B97F4A7C15ULL) >> d->shift; }

static inline Entry *bucket(ArmSearch *d, uint64_t hash) { return d->slots + WAYS * home(d, hash); }

static inline int same(const Entry *e, const uint64_t *h, int n, uint64_t arms, int s) {
    if (e->seat != s || e->arms != arms) return 0;
    for (int i = 0; i < n; i++)
        if (e->h[i] != h[i]) return 0;
    return 1;
}

#define TABLE_ENTRY Entry
#define TABLE_OWNER ArmSearch
#define TABLE_PROBE 1
#define TABLE_KEY_PARAMS uint64_t hash, const uint64_t *h, uint64_t arms, int s
#define TABLE_KEY_ARGS hash, h, arms, s
#define TABLE_HOME(t) home((t), hash)
#define TABLE_SAME(t, e) same((e), h, (t)->n, arms, s)
#define TABLE_EMPTY(e) ((e)->seat == 255)
#define TABLE_FILL 255
#define TABLE_WORK(e) ((e)->held)                   /* the fewest tiles held: the least work behind it */
#define TABLE_AGAIN(t, e) table_slot((t), state_hash((e)->h, (t)->n, (e)->arms, (e)->seat), (e)->h, (e)->arms, \
                                     (e)->seat, 1)
#include "_table.h"

/* -- moves ---------------------------------------------------------------------------------------- */

typedef struct {
    uint8_t bit, code;
    uint64_t after, fit;    /* the arms after the move, and the tiles that fit them */
    int order;          /* the opponent's playable tiles after it, then the lighter tile later */
} Move;

#define OPEN_BITS ((1ULL << SPECIAL_SHIFT) - 1)

/* Every tile that could be played on ``a``, as a mask (``_ArmDeal.fit``). */
static inline uint64_t fit(ArmSearch *d, uint64_t a) {
    uint64_t f = 0, m = a & OPEN_BITS;
    if (a >> SPECIAL_SHIFT) {
        for (int i = 0; i < 4; i++) {
            int c = special(a, i);
            if (c >= 0 && (c & 3) == START) return d->match[c >> 2];     /* the smallest: ascending */
        }
        for (int i = 0; i < 4; i++) {
            int c = special(a, i);
            if (c >= 0 && (c & 3) == DOUBLE) f |= d->dbl[c >> 2];
        }
    }
    while (m) {
        int k = __builtin_ctzll(m) >> 2;
        f |= d->match[k];
        m &= ~(15ULL << (4 * k));
    }
    return f;
}

/* The arms once tile ``bit`` goes on the arm with code ``c`` (``_ArmDeal._after``). */
static uint64_t after(ArmSearch *d, uint64_t a, int c, int bit) {
    int open[MAXNUM], other[4], nother = 0, removed = 0;
    if ((c & 3) == OPEN) {                      /* the common case, on the packed counts */
        int num = c >> 2, lo = d->tlow[bit], hi = d->thigh[bit];
        a += (1ULL << (4 * (lo == num ? hi : lo))) - (1ULL << (4 * num));
        if (d->branch && lo == hi) a += 2ULL << (4 * num);
        return a;
    }
    for (int k = 0; k < MAXNUM; k++) open[k] = open_count(a, k);
    for (int i = 0; i < 4; i++) {
        int x = special(a, i);
        if (x < 0) continue;
        if (x == c && !removed) { removed = 1; continue; }
        other[nother++] = x;
    }
    int num = c >> 2, st = c & 3, lo = d->tlow[bit], hi = d->thigh[bit];
    int far = lo == num ? hi : lo;
    if (st == OPEN) open[num]--;
    if (st == START) {
        other[nother++] = (far << 2) | CLOSED;
        int starts = 0;
        for (int i = 0; i < nother; i++) starts += (other[i] & 3) == START;
        if (!starts) {
            int kept = 0;
            for (int i = 0; i < nother; i++) {
                int x = other[i];
                if ((x & 3) == CLOSED) {
                    if (d->french) other[kept++] = (x & ~3) | DOUBLE;
                    else open[x >> 2]++;
                } else {
                    other[kept++] = x;
                }
            }
            nother = kept;
        }
    } else if (st == DOUBLE) {
        open[num]++;
    } else {
        open[far]++;
        if (d->branch && lo == hi) open[num] += 2;
    }
    return pack_arms(open, MAXNUM, other, nother);
}

/* The arms as they matter to the rest of the hand (``_ArmDeal.canonical``): of each number, no more open
 * arms than the tiles with that number still ``held`` (each takes at most one of them, so the others
 * are never needed), and none where nobody holds the number. Two states alike but for such arms have
 * the same moves, values and table entry. */
static inline uint64_t canonical(ArmSearch *d, uint64_t a, uint64_t held) {
    for (uint64_t m = a & OPEN_BITS; m; ) {
        int k = __builtin_ctzll(m) >> 2;
        uint64_t have = (a >> (4 * k)) & 15, cap = (uint64_t)popcount(held & d->match[k]);
        if (have > cap) a -= (have - cap) << (4 * k);
        m &= ~(15ULL << (4 * k));
    }
    return a;
}

/* The moves of ``hand`` on ``a`` in the order of the Python ``_ArmDeal.moves``: the arms by code, the
 * tiles ascending. */
static int gen_moves(ArmSearch *d, uint64_t a, uint64_t hand, Move *out) {
    int codes[2 * MAXNUM + 4], ncodes = 0, start = -1;
    for (int i = 0; i < 4; i++) {
        int c = special(a, i);
        if (c >= 0 && (c & 3) == START && (start < 0 || c < start)) start = c;
    }
    if (start >= 0) {
        codes[ncodes++] = start;
    } else if (!(a >> SPECIAL_SHIFT)) {
        for (uint64_t m = a; m; ) {
            int k = __builtin_ctzll(m) >> 2;
            codes[ncodes++] = (k << 2) | OPEN;
            m &= ~(15ULL << (4 * k));
        }
    } else {
        for (int k = 0; k <= d->max_pip; k++) {
            for (int i = 0; i < 4; i++)
                if (special(a, i) == ((k << 2) | DOUBLE)) { codes[ncodes++] = (k << 2) | DOUBLE; break; }
            if (open_count(a, k)) codes[ncodes++] = (k << 2) | OPEN;
        }
    }
    int n = 0;
    for (int j = 0; j < ncodes; j++) {
        int c = codes[j];
        uint64_t m = hand & ((c & 3) == DOUBLE ? d->dbl[c >> 2] : d->match[c >> 2]);
        while (m) {
            int b = __builtin_ctzll(m);
            m &= m - 1;
            out[n].bit = (uint8_t)b;
            out[n].code = (uint8_t)c;
            out[n].after = after(d, a, c, b);
            out[n].fit = fit(d, out[n].after);
            n++;
        }
    }
    return n;
}

/* -- leaves ------------------------------------------------------------------------------------- */

static int pips_of(ArmSearch *d, uint64_t h) {
    int p = 0;
    while (h) {
        p += d->tpips[__builtin_ctzll(h)];
        h &= h - 1;
    }
    return p;
}

/* The side-0 value of a finished hand: ``term`` 0 domino, 1 blocked, by ``s`` playing ``bit``. */
static int leaf(ArmSearch *d, const uint64_t *h, int term, int s, int bit) {
    int n = d->n;
    if (d->scoring == SCORE_SIDES) {
        int P[2] = {0, 0};
        for (int t = 0; t < n; t++) P[d->side[t]] += pips_of(d, h[t]);
        int sd = d->side[s], ps = P[sd], po = P[1 - sd], cu = d->param, v;
        if (term == 0) v = po + cu * ps;
        else v = ps < po ? po + cu * ps : (ps > po ? -ps - cu * po : 0);
        return sd == 0 ? v : -v;
    }
    if (d->scoring == SCORE_BAD) {
        int total = 0, mine = 0;
        for (int t = 0; t < n; t++) {
            int p = pips_of(d, h[t]);
            if (d->param && (h[t] & d->doubles)) p *= 2;
            total += p;
            if (d->maximiser[t]) mine = p;
        }
        return total - n * mine;
    }
    if (d->scoring == SCORE_DESCRIBED) return leaf_score(&d->sc, d->tlow, d->thigh, term, s, d->leader, h, bit, -1, -1);
    int v;
    if (d->leaf_fn(d->leaf_ctx, h, n, term, s, 1ULL << bit, &v) < 0) {   /* (the caller's: it checks the range) */
        d->failed = 1;
        (void)KERNEL_ERROR(d, K_CALLBACK, "the leaf value failed");
        return 0;
    }
    return v;
}

/* -- the search ------------------------------------------------------------------------------------ */

/* The side-0 value of the state (``s`` holds a playable tile), fail-soft in (alpha, beta): the Python
 * ``_ArmDeal.search`` step by step. */
static int search(ArmSearch *d, uint64_t *h, uint64_t a, int s, int alpha, int beta) {
    int n = d->n;
    d->nodes++;
    if (d->nodes > d->budget) { d->stopped = 1; return 0; }
    uint64_t held = 0;
    for (int t = 0; t < n; t++) held |= h[t];
    a = canonical(d, a, held);
    if (d->scoring == SCORE_SIDES) {
        int P[2] = {0, 0};
        for (int t = 0; t < n; t++) P[d->side[t]] += pips_of(d, h[t]);
        int high = d->param == 1 ? P[0] + P[1] : P[1], low = d->param == 1 ? -P[0] - P[1] : -P[0];
        if (d->param >= 0) {    /* ``_ArmDeal.bounds``: s plays one of his playable tiles now */
            int least = INF, sd = d->side[s];
            for (uint64_t m = h[s] & fit(d, a); m; m &= m - 1)
                if (d->tpips[__builtin_ctzll(m)] < least) least = d->tpips[__builtin_ctzll(m)];
            if (sd == 1 || d->param == 1) high -= least;
            if (sd == 0 || d->param == 1) low += least;
            if (popcount(h[s]) == 1) {  /* his last tile: his side wins */
                if (sd == 1) high = 0;
                else low = 0;
            }
        }
        if (high <= alpha) return high;
        if (low >= beta) return low;
    }
    uint64_t hash = state_hash(h, n, a, s);
    Entry *en = table_probe(d, hash, h, a, s);
    int lower = -INF, upper = INF, hbit = 255, hcode = 255;
    if (en != NULL) {
        lower = bound_unpack(en->lo);
        upper = bound_unpack(en->hi);
        hbit = en->bit;
        hcode = en->code;
        if (lower >= beta) return lower;
        if (upper <= alpha) return upper;
        if (lower > alpha) alpha = lower;
        if (upper < beta) beta = upper;
    }
    Move mv[MAXMOVES];
    int nm = gen_moves(d, a, h[s], mv);
    if (nm > 1) {           /* a stable sort: fewest tiles left to the next opponent, heaviest first */
        uint64_t opp = h[d->opponent[s]];
        for (int i = 0; i < nm; i++) mv[i].order = 64 * popcount(opp & mv[i].fit) - d->tpips[mv[i].bit];
        for (int i = 1; i < nm; i++) {
            Move m = mv[i];
            int j = i - 1;
            while (j >= 0 && mv[j].order > m.order) { mv[j + 1] = mv[j]; j--; }
            mv[j + 1] = m;
        }
    }
    for (int i = 0; i < nm; i++) {      /* the children's buckets, ahead of time */
        uint64_t left = h[s] & ~(1ULL << mv[i].bit), f = mv[i].fit, ch[MAXSEATS];
        if (!left) continue;
        int t = (s + 1) % n;
        while (!((t == s ? left : h[t]) & f)) {
            if (t == s) break;
            t = (t + 1) % n;
        }
        memcpy(ch, h, sizeof(uint64_t) * (size_t)n);
        ch[s] = left;
        const char *b = (const char *)bucket(d, state_hash(ch, n, mv[i].after, t));
        __builtin_prefetch(b);
        __builtin_prefetch(b + 64);
        __builtin_prefetch(b + 128);
    }
    if (hbit != 255) {
        for (int i = 0; i < nm; i++) {
            if (mv[i].bit == hbit && mv[i].code == hcode) {
                Move m = mv[i];
                memmove(mv + 1, mv, (size_t)i * sizeof(Move));
                mv[0] = m;
                break;
            }
        }
    }
    int maximise = d->maximiser[s];
    int a0 = alpha, b0 = beta, best = maximise ? -INF : INF, bm = -1;
    uint64_t mine = h[s];
    for (int i = 0; i < nm; i++) {
        uint64_t left = mine & ~(1ULL << mv[i].bit);
        int x;
        h[s] = left;
        if (!left) {
            x = leaf(d, h, 0, s, mv[i].bit);
        } else {
            uint64_t f = mv[i].fit;
            int t = (s + 1) % n;
            while (!(h[t] & f)) {
                if (t == s) break;
                t = (t + 1) % n;
            }
            if (t == s && !(left & f)) x = leaf(d, h, 1, s, mv[i].bit);
            else x = search(d, h, mv[i].after, t, alpha, beta);
        }
        h[s] = mine;
        if (d->failed || d->stopped) return 0;
        if (maximise) {
            if (x > best) {
                best = x;
                bm = i;
                if (x > alpha) alpha = x;
            }
        } else if (x < best) {
            best = x;
            bm = i;
            if (x < beta) beta = x;
        }
        if (alpha >= beta) break;
    }
    /* the entry as the Python ``narrowed_entry``: the old bounds, narrowed by this result */
    if (best <= a0) { if (best < upper) upper = best; }
    else if (best >= b0) { if (best > lower) lower = best; }
    else lower = upper = best;
    Entry *x = table_place(d, hash, h, a, s);
    memcpy(x->h, h, sizeof(uint64_t) * (size_t)n);
    for (int t = n; t < MAXSEATS; t++) x->h[t] = 0;
    x->arms = a;
    x->seat = (uint8_t)s;
    x->lo = bound_pack(lower);
    x->hi = bound_pack(upper);
    x->bit = bm >= 0 ? mv[bm].bit : 255;
    x->code = bm >= 0 ? mv[bm].code : 255;
    x->held = (uint8_t)popcount(held);
    table_stored(d);
    return best;
}

/* -- the principal variation ------------------------------------------------------------------------ */

#define MAXARMS 64

/* A principal line as it is played out: the hands, the arms as the position has them (``ArmPosition.arms``, in its
 * order: each ``number * 4 + state``), the seat to move and the side-0 value of the state; ``spent``: the positions
 * the first choice's budget has spent already (``TreeSearch.best_line`` searches the value there, counted with its
 * probes); ``probed``, ``after``: whether a choice was probed, and the value of the state its move left
 * (``TreeSearch._last``). */
typedef struct {
    uint64_t h[MAXSEATS];
    int arm[MAXARMS], narms, t, value;
    long long spent;
    int probed, after;
} ArmLine;

/* The packed arms of the position's (as ``ArmSearch.search`` packs the sorted codes); -1 (an error) where
 * they do not pack (more than four arms at the spinner, fifteen open arms of a number). */
static int packed_arms(ArmSearch *d, const ArmLine *st, uint64_t *out) {
    int open[MAXNUM] = {0}, other[4], nother = 0;
    for (int i = 0; i < st->narms; i++) {
        int c = st->arm[i];
        if ((c & 3) == OPEN ? ++open[c >> 2] > 15 : nother == 4) {
            return KERNEL_ERROR(d, K_VALUE, "more arms than the search packs (four at the spinner, 15 open of a number)");
        }
        if ((c & 3) != OPEN) other[nother++] = c;
    }
    *out = pack_arms(open, MAXNUM, other, nother);
    return 0;
}

/* The arms (indexes into ``st->arm``) a tile may go on now (``ArmPosition.playable_arms``): the first empty side of
 * the spinner while one is, else every arm that is not closed; and the tiles that fit them, as a mask. */
static uint64_t playable_arms(ArmSearch *d, const ArmLine *st, int *out, int *count) {
    int np = 0;
    uint64_t f = 0;
    for (int i = 0; i < st->narms && !np; i++)
        if ((st->arm[i] & 3) == START) out[np++] = i;
    for (int i = 0; i < st->narms && (np == 0 || (st->arm[out[0]] & 3) != START); i++)
        if ((st->arm[i] & 3) == DOUBLE || (st->arm[i] & 3) == OPEN) out[np++] = i;
    for (int j = 0; j < np; j++) {
        int c = st->arm[out[j]];
        f |= (c & 3) == DOUBLE ? d->dbl[c >> 2] : d->match[c >> 2];
    }
    *count = np;
    return f;
}

/* The moves of the seat to move in the order of ``ArmPosition.legal_moves``: its tiles ascending, each on the
 * playable arms in their order, alike arms (the same number and state) once (``ArmPosition.placements``). Each
 * move: the tile's index in ``bits``, the arm's in ``arms``. */
static int line_moves(ArmSearch *d, const ArmLine *st, int *bits, int *arms) {
    int play[MAXARMS], np, nm = 0;
    uint64_t f = playable_arms(d, st, play, &np);
    for (uint64_t m = st->h[st->t] & f; m; m &= m - 1) {
        int b = __builtin_ctzll(m), seen[MAXARMS], ns = 0;
        for (int j = 0; j < np; j++) {
            int c = st->arm[play[j]], dup = 0;
            if (!((((c & 3) == DOUBLE ? d->dbl[c >> 2] : d->match[c >> 2]) >> b) & 1)) continue;
            for (int i = 0; i < ns && !dup; i++) dup = seen[i] == c;
            if (dup) continue;
            seen[ns++] = c;
            bits[nm] = b;
            arms[nm++] = play[j];
        }
    }
    return nm;
}

/* Tile ``b`` laid on arm ``k`` of the line's arms (``ArmPosition._attach``): 0, or -1 with an error set where the
 * arms grow past ``MAXARMS``. */
static int line_attach(ArmSearch *d, ArmLine *st, int k, int b) {
    int c = st->arm[k], num = c >> 2, lo = d->tlow[b], hi = d->thigh[b], far = lo == num ? hi : lo;
    if ((c & 3) == START) {
        int starts = 0;
        st->arm[k] = (far << 2) | CLOSED;
        for (int i = 0; i < st->narms; i++) starts += (st->arm[i] & 3) == START;
        for (int i = 0; i < st->narms && !starts; i++)        /* every side of the spinner is filled */
            if ((st->arm[i] & 3) == CLOSED) st->arm[i] = (st->arm[i] & ~3) | (d->french ? DOUBLE : OPEN);
    } else if ((c & 3) == DOUBLE) {
        st->arm[k] = (num << 2) | OPEN;
    } else {
        st->arm[k] = (far << 2) | OPEN;
        if (d->branch && lo == hi) {                            /* crosswise: two new arms from its sides */
            if (st->narms + 2 > MAXARMS) {
                return KERNEL_ERROR(d, K_VALUE, "more arms than the line keeps");
            }
            st->arm[st->narms++] = (num << 2) | OPEN;
            st->arm[st->narms++] = (num << 2) | OPEN;
        }
    }
    return 0;
}

/* The side-0 value of laying tile ``b`` on arm ``k``, by the null-window probe of ``TreeSearch._first_best``
 * (``lo``, ``lo + 1``): as the walk of the positions finds it, a finished hand's value, else the forced passes up
 * to the next seat who can play (one position each, as the walk counts them) and the search of his state. -1 with
 * ``failed`` on an error. */
static int line_probe(ArmSearch *d, const ArmLine *st, int k, int b, int lo) {
    ArmLine next = *st;
    int s = st->t, n = d->n;
    uint64_t left = st->h[s] & ~(1ULL << b), a;
    next.h[s] = left;
    if (!left) return leaf(d, next.h, 0, s, b);
    if (line_attach(d, &next, k, b) < 0 || packed_arms(d, &next, &a) < 0) {
        d->failed = 1;
        return 0;
    }
    uint64_t f = fit(d, a);
    int t = (s + 1) % n;
    while (!(next.h[t] & f)) {
        if (t == s) break;
        t = (t + 1) % n;
    }
    if (t == s && !(left & f)) return leaf(d, next.h, 1, s, b);
    d->nodes += (uint64_t)((t - s - 1 + n) % n);
    if (d->nodes > d->budget) { d->stopped = 1; return 0; }
    return search(d, next.h, a, t, lo, lo + 1);
}

/* ``(seat, tile, number, arm)`` appended to ``out``: a play (``arm`` 1-based, ``number`` the arm's open number), a
 * pass (``tile`` -1). */
static int arm_step(ArmsSteps *out, int seat, int tile, int number, int arm) {
    int *x = out->step[out->count++];
    x[0] = seat;
    x[1] = tile;
    x[2] = number;
    x[3] = arm;
    return 0;
}

/* The principal variation from ``st`` to the end of the hand appended to ``out`` (``TreeSearch.best_line``): at each
 * choice the first move in the order of ``ArmPosition.legal_moves`` whose value reaches the state's, by a null-window
 * probe each (at most ``limit`` positions for them all); passes where the seat to move cannot play. 0, or -1 on an
 * error or past the limit (``failed``, ``stopped``). */
static int arm_line(ArmSearch *d, ArmLine *st, long long limit, ArmsSteps *out) {
    int n = d->n, bits[4 * MAXTILES], arms[4 * MAXTILES];
    for (;;) {
        int play[MAXARMS], np, s = st->t, c = 0, can = 0;
        uint64_t f = playable_arms(d, st, play, &np);
        for (int i = 0; i < n && !can; i++) can = (st->h[i] & f) != 0;
        if (!can) return 0;                                     /* blocked */
        if (!(st->h[s] & f)) {
            if (arm_step(out, s, -1, -1, 0) < 0) return -1;
            st->t = (s + 1) % n;
            continue;
        }
        int nm = line_moves(d, st, bits, arms), v = st->value;
        if (nm > 1) {
            long long budget = limit - st->spent;
            d->nodes = 0;
            d->budget = budget < 0 ? 0 : (uint64_t)budget;
            st->spent = 0;
            for (c = 0; c < nm; c++) {
                int x = line_probe(d, st, arms[c], bits[c], d->maximiser[s] ? v - 1 : v);
                if (d->failed || d->stopped) return -1;
                if (d->maximiser[s] ? x >= v : x <= v) {
                    st->probed = 1;
                    st->after = x;
                    break;
                }
            }
            if (c == nm) {
                return KERNEL_ERROR(d, K_RUNTIME, "line: no move reaches the value of the state");
            }
        }
        if (arm_step(out, s, bits[c], st->arm[arms[c]] >> 2, arms[c] + 1) < 0) return -1;
        st->h[s] &= ~(1ULL << bits[c]);
        if (!st->h[s]) return 0;                                /* he is out */
        if (line_attach(d, st, arms[c], bits[c]) < 0) return -1;
        st->t = (s + 1) % n;
    }
}

/* -- the calls ------------------------------------------------------------------------------------ */

int arms_init(ArmSearch *d, int n, int max_pip, int french, int branch, const int *maximiser, const int *opponent,
              int scoring, int param, const int *sides, ArmsLeafFn leaf_fn, void *ctx, uint64_t entries,
              const LeafScoring *sc, int leader) {
    if (n < 2 || n > MAXSEATS) return KERNEL_ERROR(d, K_VALUE, "the compiled search seats two to four players");
    if (max_pip < 0 || max_pip >= MAXNUM) return KERNEL_ERROR(d, K_VALUE, "the compiled search plays sets up to double-nine");
    if (scoring < SCORE_SIDES || scoring > SCORE_DESCRIBED || (scoring == SCORE_PYTHON && leaf_fn == NULL)
        || (scoring == SCORE_DESCRIBED && sc == NULL) || leader < 0 || leader >= n)
        return KERNEL_ERROR(d, K_VALUE, "scoring: 0 (two sides), 1 (bad points), 2 with a callable leaf or 3 with "
                          "a described scoring; leader: a seat");
    if (scoring == SCORE_DESCRIBED) {
        if (sc->n != n) return KERNEL_ERROR(d, K_VALUE, "described: the description seats another number of players");
        d->sc = *sc;
    }
    for (int s = 0; s < n; s++) {
        if (maximiser[s] < 0 || maximiser[s] > 1) return KERNEL_ERROR(d, K_VALUE, "maximiser: one value a seat");
        if (opponent[s] < 0 || opponent[s] > n - 1) return KERNEL_ERROR(d, K_VALUE, "opponent: one value a seat");
        if (sides[s] < 0 || sides[s] > 1) return KERNEL_ERROR(d, K_VALUE, "sides: one value a seat");
        d->maximiser[s] = maximiser[s];
        d->opponent[s] = opponent[s];
        d->side[s] = sides[s];
    }
    d->leaf_fn = scoring == SCORE_PYTHON ? leaf_fn : NULL;
    d->leaf_ctx = scoring == SCORE_PYTHON ? ctx : NULL;
    d->n = n;
    d->max_pip = max_pip;
    d->french = french;
    d->branch = branch;
    d->scoring = scoring;
    d->param = param;
    d->leader = leader;
    memset(d->match, 0, sizeof(d->match));
    memset(d->dbl, 0, sizeof(d->dbl));
    kernel_tiles(max_pip, d->tlow, d->thigh, d->tpips, d->match, d->dbl, &d->doubles);
    uint64_t max_buckets, buckets;
    table_sizes(entries, WAYS, 1 << 10, &max_buckets, &buckets);
    free(d->raw);
    d->raw = NULL;
    d->slots = NULL;
    if (table_alloc(d, buckets) < 0) return KERNEL_ERROR(d, K_MEMORY, "no memory for the table");
    d->max_buckets = max_buckets;
    d->used = d->stores = d->replaced = 0;
    return 0;
}

void arms_free(ArmSearch *d) {
    free(d->raw);
    d->raw = NULL;
    d->slots = NULL;
}

/* The sorted arm codes of a state, packed; -1 (an error) where they do not pack. */
static int arms_packed(ArmSearch *d, const int *arms, int narms, uint64_t *out) {
    int open[MAXNUM] = {0}, other[4], nother = 0;
    for (int i = 0; i < narms; i++) {
        int c = arms[i];
        if (c < 0 || (c >> 2) > d->max_pip) return KERNEL_ERROR(d, K_VALUE, "an arm code out of the set");
        if ((c & 3) == OPEN) {
            if (++open[c >> 2] > 15) return KERNEL_ERROR(d, K_VALUE, "more open arms of one number than the search packs");
        } else if (nother < 4) {
            other[nother++] = c;
        } else {
            return KERNEL_ERROR(d, K_VALUE, "more than four arms at the spinner");
        }
    }
    *out = pack_arms(open, MAXNUM, other, nother);
    return 0;
}

int arms_search(ArmSearch *d, const uint64_t *hands, const int *arms, int narms, int s, int alpha, int beta,
                int64_t budget, int *value, uint64_t *nodes) {
    int n = d->n;
    if (s < 0 || s >= n) return KERNEL_ERROR(d, K_VALUE, "one hand a seat, and the seat to move among them");
    uint64_t h[MAXSEATS] = {0}, a;
    for (int t = 0; t < n; t++) h[t] = hands[t];
    if (arms_packed(d, arms, narms, &a) < 0) return -1;
    d->nodes = 0;
    d->budget = budget < 0 ? 0 : (uint64_t)budget;
    d->stopped = d->failed = 0;
    if (alpha < -INF) alpha = -INF;
    if (beta > INF) beta = INF;
    int v = search(d, h, a, s, alpha, beta);
    *nodes = d->nodes;
    if (d->failed) return -1;
    if (d->stopped) return 1;
    *value = v;
    return 0;
}

int arms_line(ArmSearch *d, const uint64_t *hands, const int *arms, int narms, int s, int value, int64_t limit,
              int64_t spent, ArmsSteps *out, uint64_t *nodes, int *probed, int *after) {
    ArmLine st;
    uint64_t packed;
    memset(&st, 0, sizeof(st));
    int n = d->n;
    st.t = s;
    st.value = value;
    if (s < 0 || s >= n || narms > ARMS_MAXARMS || value > MAX_VALUE || value < -MAX_VALUE)
        return KERNEL_ERROR(d, K_VALUE, "one hand a seat, the seat to move among them, at most 64 arms, a value in "
                          "the search's range");
    for (int t = 0; t < n; t++) st.h[t] = hands[t];
    st.narms = narms;
    for (int i = 0; i < narms; i++) {
        if (arms[i] < 0 || (arms[i] >> 2) > d->max_pip) return KERNEL_ERROR(d, K_VALUE, "an arm code out of the set");
        st.arm[i] = arms[i];
    }
    if (packed_arms(d, &st, &packed) < 0) return -1;
    st.spent = spent;
    d->stopped = d->failed = 0;
    d->nodes = 0;
    out->count = 0;
    int got = 0;
    if (arm_line(d, &st, limit, out) < 0) {
        if (!d->stopped || d->failed) return -1;
        d->stopped = 0;
        out->count = 0;
        got = 1;
    }
    *nodes = d->nodes;
    *probed = st.probed;
    *after = st.after;
    return got;
}
