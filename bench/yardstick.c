/* The C yardstick: a plain stand-alone solver of the same search as analyzer/search/_core.c, for
 * bench/bench_core.py (which compiles it with the system ``cc -O2``; it is not part of the package).
 *
 * What it does. It reads a trace (stdin) of the searches an analysis made: for each record the deal
 * (seats, sides, the hands dealt, the scoring written inline: ``cu`` and the pip bound), then every
 * call the analysis made into the compiled core, in order: an MTD(f) of a state (the hands and pips
 * left, the played mask, the ends, the seat to move, the window and the first guess), or the moves of a
 * decision, each valued in turn (the tile and the ends after it; the passes after it are forced; MTD(f)
 * from 0 over the open window). It answers each call with its own search, with
 * no Python anywhere, and prints per record: the CPU seconds (best of ``repeat`` runs, each from an
 * empty table), the positions searched, and whether every value and every call's count of positions
 * equals the trace's.
 *
 * The search is the same one, written plainly: negamax alpha-beta, fail-soft, with MTD(f) as the
 * driver (the first guess clamped to the table's bounds of the root); a state is (played tiles, ends,
 * seat); forced moves and passes are played without a new call (a call is one position); the moves of
 * a choice ordered as the core orders them (the table's best move first, else: starve the next
 * opponent, then the other one, heavy tiles first); the pip bound cut; the leaf value of the losers'
 * pips (cu 0), every pip (cu 1) or bad points (cu -1). Its transposition table: one array of 2^k
 * entries of 16 bytes (key, the two bounds, the best move), buckets of four, linear probing over the
 * buckets, an entry stored at every choice, never replaced; a new table for each record, 256 KB to
 * start, doubled once three quarters full, as the core's table does below its bound (so it loses
 * nothing, and the same states are searched). Hands and pips are saved once a call plays
 * a forced move (the only moves made in place); popcount by SWAR (``-O2`` has no popcnt instruction). No node limit, no exposed tiles, no pass bonuses.
 *
 *     cc -O2 -o yardstick bench/yardstick.c && ./yardstick REPEAT < trace
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define INF (1 << 30)
#define MAXMOVES 64

typedef struct { uint64_t key; int16_t lo, hi; uint16_t gen; uint8_t bit, e2; } Entry;
typedef struct { uint8_t bit, e2; int16_t pips; int score; } Move;

static Entry *table;
static uint64_t tmask;          /* buckets - 1 */
static uint16_t gen;

static int n, w, eb, sb, cu, bound, most;
static int side[4], opp1[4], opp2[4], nxt[4][4];   /* nxt[s][k]: the seat k + 1 places after s */
static uint64_t fit[100], all;
static uint8_t tlow[55], thigh[55], ea[100], eb2[100];
static int16_t tpips[55];
static uint64_t H[5];
static int P[2];
static uint64_t nodes;

static inline int pc(uint64_t x) {     /* SWAR: no libgcc call without -mpopcnt */
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static inline int ends_code(int a, int b) { return a <= b ? a * w + b : b * w + a; }
static inline int16_t pack(int x) { return (int16_t)(x <= -INF ? -32768 : (x >= INF ? 32767 : x)); }
static inline int unpack(int16_t x) { return x == -32768 ? -INF : (x == 32767 ? INF : x); }
static inline uint64_t keyof(uint64_t K, int e, int s) { return (((K << eb) | (uint64_t)e) << sb) | (uint64_t)s; }

static uint64_t used;            /* entries stored */

static Entry *probe(uint64_t key, int make) {
    uint64_t i = (key * 0x9E3779B97F4A7C15ULL) >> 32 & tmask;
    for (;; i = (i + 1) & tmask) {
        Entry *b = table + 4 * i;
        for (int j = 0; j < 4; j++) {
            if (b[j].gen != gen) return make ? b + j : NULL;
            if (b[j].key == key) return b + j;
        }
    }
}

/* An empty table of ``buckets`` buckets of four. */
static void table_new(uint64_t buckets) {
    table = calloc((size_t)(4 * buckets), sizeof(Entry));
    if (table == NULL) abort();
    tmask = buckets - 1;
    used = 0;
}

/* Store an entry; the table doubles once three quarters of it are taken. */
static void store(Entry x) {
    Entry *slot = probe(x.key, 1);
    used += slot->gen != gen;
    *slot = x;
    if (4 * used > 3 * 4 * (tmask + 1)) {
        Entry *old = table;
        uint64_t count = 4 * (tmask + 1);
        table_new(2 * (tmask + 1));
        for (uint64_t k = 0; k < count; k++)
            if (old[k].gen == gen) {
                *probe(old[k].key, 1) = old[k];
                used++;
            }
        free(old);
    }
}

static int leaf(int term, int s, int pv) {
    int sd = side[s], ps = P[sd] - pv, po = P[1 - sd];
    if (term == 0) return po + cu * ps;
    return ps < po ? po + cu * ps : (ps > po ? -ps - cu * po : 0);
}

static int gen_moves(uint64_t p, int e, Move *out) {
    int a = ea[e], b = eb2[e], k = 0;
    for (; p; p &= p - 1) {
        int i = __builtin_ctzll(p), lo = tlow[i], hi = thigh[i];
        if (lo == a || hi == a) out[k++] = (Move){(uint8_t)i, (uint8_t)ends_code(lo == a ? hi : lo, b), tpips[i], 0};
        if (b != a && (lo == b || hi == b)) out[k++] = (Move){(uint8_t)i, (uint8_t)ends_code(a, lo == b ? hi : lo), tpips[i], 0};
    }
    for (int i = 1; i < k; i++) {       /* stable, heaviest first */
        Move m = out[i];
        int j = i - 1;
        for (; j >= 0 && out[j].pips < m.pips; j--) out[j + 1] = out[j];
        out[j + 1] = m;
    }
    return k;
}

/* The next seat after ``s`` that can play on ``f`` once ``s`` holds ``hs``: the passes between are forced. */
static inline int next_seat(int s, uint64_t hs, uint64_t f) {
    for (int k = 0; k < n; k++) {
        int t = nxt[s][k];
        if ((t == s ? hs : H[t]) & f) return t;
    }
    return s;
}

static int search(uint64_t K, int e, int s, int alpha, int beta) {
    uint64_t sH[5];
    int sP0 = P[0], sP1 = P[1], neg = 1, v, saved = 0;   /* the hands are saved before a forced move */
    Move mv[MAXMOVES];
    nodes++;
    for (;;) {
        int sd = side[s];
        uint64_t h = H[s], key = keyof(K, e, s);
        int nm = gen_moves(h & fit[e], e, mv);
        if (bound) {
            v = -most;
            if (bound < 3) {
                v += mv[0].pips - P[sd];
                if (bound > 1) v -= P[1 - sd];
            }
            if (v >= beta) break;
        }
        if (nm == 1) {                  /* forced: played here */
            uint64_t h2 = h & ~(1ULL << mv[0].bit), K2 = K | (1ULL << mv[0].bit), f = fit[mv[0].e2];
            if (!h2) { v = leaf(0, s, mv[0].pips); break; }
            if (!((all ^ K2) & f)) { v = leaf(1, s, mv[0].pips); break; }
            if (!saved) { memcpy(sH, H, sizeof(sH)); saved = 1; }
            H[s] = h2;
            P[sd] -= mv[0].pips;
            int t = next_seat(s, h2, f);
            K = K2;
            e = mv[0].e2;
            if (side[t] != sd) { int x = alpha; alpha = -beta; beta = -x; neg = -neg; }
            s = t;
            continue;
        }
        Entry *en = probe(key, 0);
        int lo = -INF, hi = INF, bbit = 255, be2 = 255;
        if (en) {
            lo = unpack(en->lo); hi = unpack(en->hi); bbit = en->bit; be2 = en->e2;
            if (lo >= beta) { v = lo; break; }
            if (hi <= alpha) { v = hi; break; }
            if (lo == hi) { v = lo; break; }
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
        }
        if (bbit == 255 || nm > 2) {
            uint64_t o1 = H[opp1[s]], o3 = H[opp2[s]];
            for (int i = 0; i < nm; i++)
                mv[i].score = mv[i].pips - 20 * pc(o1 & fit[mv[i].e2]) - 5 * pc(o3 & fit[mv[i].e2]);
            if (nm == 2) {                      /* two: swapped only for a higher score */
                if (mv[1].score > mv[0].score) { Move m = mv[0]; mv[0] = mv[1]; mv[1] = m; }
            } else for (int i = 1; i < nm; i++) {      /* descending (score, tile, ends after) */
                Move m = mv[i];
                int j = i - 1;
                for (; j >= 0 && (mv[j].score < m.score || (mv[j].score == m.score
                       && (mv[j].bit < m.bit || (mv[j].bit == m.bit && mv[j].e2 < m.e2)))); j--) mv[j + 1] = mv[j];
                mv[j + 1] = m;
            }
        }
        for (int i = 1; i < nm && bbit != 255; i++)
            if (mv[i].bit == bbit && mv[i].e2 == be2 && !(mv[0].bit == bbit && mv[0].e2 == be2)) {
                Move m = mv[i];
                memmove(mv + 1, mv, (size_t)i * sizeof(Move));
                mv[0] = m;
                break;
            }
        int a0 = alpha, bm = 0;
        v = -INF;
        for (int i = 0; i < nm; i++) {
            uint64_t h2 = h & ~(1ULL << mv[i].bit), K2 = K | (1ULL << mv[i].bit), f = fit[mv[i].e2];
            int x;
            if (!h2) x = leaf(0, s, mv[i].pips);
            else if (!((all ^ K2) & f)) x = leaf(1, s, mv[i].pips);
            else {
                H[s] = h2;
                P[sd] -= mv[i].pips;
                int t = next_seat(s, h2, f);
                x = side[t] == sd ? search(K2, mv[i].e2, t, alpha, beta) : -search(K2, mv[i].e2, t, -beta, -alpha);
                H[s] = h;
                P[sd] += mv[i].pips;
            }
            if (x > v) {
                v = x;
                bm = i;
                if (x > alpha) { alpha = x; if (x >= beta) break; }
            }
        }
        if (v <= a0) hi = v;
        else if (v >= beta) lo = v;
        else lo = hi = v;
        store((Entry){key, pack(lo), pack(hi), gen, mv[bm].bit, mv[bm].e2});
        break;
    }
    if (saved) {
        memcpy(H, sH, sizeof(sH));
        P[0] = sP0;
        P[1] = sP1;
    }
    return neg > 0 ? v : -v;
}

static int mtdf(uint64_t K, int e, int s, int alpha, int beta, int guess) {
    Entry *en = probe(keyof(K, e, s), 0);
    if (en) guess = guess < unpack(en->lo) ? unpack(en->lo) : (guess > unpack(en->hi) ? unpack(en->hi) : guess);
    if (alpha < -INF) alpha = -INF;
    if (beta > INF) beta = INF;
    if ((int64_t)beta - alpha <= 1) return search(K, e, s, alpha, beta);
    int g = beta < INF ? beta : (alpha > -INF ? alpha + 1 : guess), lo = -INF, hi = INF;
    while (lo < hi) {
        int b = g == lo ? g + 1 : g;
        g = search(K, e, s, b - 1, b);
        if (g < b) { hi = g; if (hi <= alpha) break; }
        else { lo = g; if (lo >= beta) break; }
    }
    return g;
}

#define NONE 2000000000     /* no value: the move ends the hand */

/* One call of the trace: an MTD(f) of a state (``plays`` 0), or the moves of a decision valued one after
 * the other (``plays`` of them: tile, ends code after it, and the value of each). */
typedef struct {
    uint64_t K, hands[4];
    int e, s, pips[2], alpha, beta, guess, value, plays;
    uint8_t bits[MAXMOVES], e2s[MAXMOVES];
    int values[MAXMOVES];
    uint64_t nodes;
} Call;
/* The value for side 0 of the mover ``s`` playing ``bit`` to ends ``e2`` (the passes after it forced), as
 * the analysis values a move: MTD(f) from 0 in the open window; NONE when the move ends the hand. */
static int play(uint64_t K, int s, int bit, int e2) {
    uint64_t h = H[s], b = 1ULL << bit, K2 = K | b, f = fit[e2];
    if (h == b || !((all ^ K2) & f)) return NONE;
    int t = next_seat(s, h & ~b, f), sd = side[s];
    H[s] = h & ~b;
    P[sd] -= tpips[bit];
    int v = mtdf(K2, e2, t, -INF, INF, 0);
    H[s] = h;
    P[sd] += tpips[bit];
    return side[t] == 0 ? v : -v;
}

typedef struct { int n, max_pip, cu, bound, most, sides[4], ncalls; uint64_t dealt[4]; Call *calls; } Record;

static void load(const Record *r) {
    n = r->n;
    w = r->max_pip + 1;
    cu = r->cu;
    bound = r->bound;
    most = r->most;
    eb = 1;
    while ((1 << eb) < w * w) eb++;
    sb = 1;
    while ((1 << sb) < n) sb++;
    uint64_t match[16] = {0};
    int i = 0;
    for (int hi = 0; hi < w; hi++)
        for (int lo = 0; lo <= hi; lo++, i++) {
            tlow[i] = (uint8_t)lo;
            thigh[i] = (uint8_t)hi;
            tpips[i] = (int16_t)(lo + hi);
            match[lo] |= 1ULL << i;
            match[hi] |= 1ULL << i;
        }
    for (int e = 0; e < w * w; e++) {
        fit[e] = match[e / w] | match[e % w];
        ea[e] = (uint8_t)(e / w);
        eb2[e] = (uint8_t)(e % w);
    }
    all = 0;
    for (int s = 0; s < n; s++) {
        side[s] = r->sides[s];
        all |= r->dealt[s];
    }
    for (int s = 0; s < n; s++) {
        for (int k = 0; k < n; k++) nxt[s][k] = (s + k + 1) % n;
        opp1[s] = opp2[s] = n;
        for (int k = 1; k <= n; k++) {
            int t = (s + k) % n;
            if (side[t] == side[s]) continue;
            if (opp1[s] == n) opp1[s] = t;
            else if (opp2[s] == n) opp2[s] = t;
        }
    }
}

/* Every call of a record from an empty table: the CPU seconds; ``*same`` 1 when every value and count agree. */
static double solve(const Record *r, uint64_t *total, int *same) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    gen = 1;
    table_new(1 << 12);         /* 256 KB to start, as the core's table */
    load(r);
    *same = 1;
    *total = 0;
    for (int c = 0; c < r->ncalls; c++) {
        const Call *x = r->calls + c;
        memcpy(H, x->hands, sizeof(x->hands));
        H[n] = 0;
        P[0] = x->pips[0];
        P[1] = x->pips[1];
        nodes = 0;
        if (x->plays) {
            for (int i = 0; i < x->plays; i++)
                if (play(x->K, x->s, x->bits[i], x->e2s[i]) != x->values[i]) *same = 0;
        } else if (mtdf(x->K, x->e, x->s, x->alpha, x->beta, x->guess) != x->value) {
            *same = 0;
        }
        *total += nodes;
        if (nodes != x->nodes) *same = 0;
    }
    free(table);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    return (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}

static int read_call(Call *x, int seats) {
    char kind[2];
    unsigned long long K, h;
    if (scanf("%1s %llu %d %d %d %d", kind, &K, &x->e, &x->s, &x->pips[0], &x->pips[1]) != 6) return -1;
    x->K = K;
    for (int s = 0; s < seats; s++) {
        if (scanf("%llu", &h) != 1) return -1;
        x->hands[s] = h;
    }
    if (kind[0] == 'M') {
        x->plays = 0;
        return scanf("%d %d %d %d %llu", &x->alpha, &x->beta, &x->guess, &x->value, &h) == 5 ? (x->nodes = h, 0) : -1;
    }
    if (scanf("%d", &x->plays) != 1 || x->plays < 1 || x->plays > MAXMOVES) return -1;
    for (int i = 0; i < x->plays; i++) {
        int bit, e2;
        if (scanf("%d %d", &bit, &e2) != 2) return -1;
        x->bits[i] = (uint8_t)bit;
        x->e2s[i] = (uint8_t)e2;
    }
    for (int i = 0; i < x->plays; i++)
        if (scanf("%d", &x->values[i]) != 1) return -1;
    return scanf("%llu", &h) == 1 ? (x->nodes = h, 0) : -1;
}

int main(int argc, char **argv) {
    int repeat = argc > 1 ? atoi(argv[1]) : 3, nrec;
    if (scanf("%d", &nrec) != 1 || nrec < 1) return 2;
    Record *recs = calloc((size_t)nrec, sizeof(Record));
    for (int i = 0; i < nrec; i++) {
        Record *r = recs + i;
        if (scanf("%d %d %d %d %d %d", &r->n, &r->max_pip, &r->cu, &r->bound, &r->most, &r->ncalls) != 6) return 2;
        for (int s = 0; s < r->n; s++)
            if (scanf("%d %llu", &r->sides[s], (unsigned long long *)&r->dealt[s]) != 2) return 2;
        r->calls = calloc((size_t)r->ncalls + 1, sizeof(Call));
        for (int c = 0; c < r->ncalls; c++)
            if (read_call(r->calls + c, r->n) < 0) return 2;
    }
    for (int i = 0; i < nrec; i++) {
        double best = -1;
        uint64_t total = 0;
        int same = 1, ok;
        for (int k = 0; k < repeat; k++) {
            double t = solve(recs + i, &total, &ok);
            same &= ok;
            if (best < 0 || t < best) best = t;
        }
        printf("%d %.9f %llu %d\n", i, best, (unsigned long long)total, same);
    }
    return 0;
}
