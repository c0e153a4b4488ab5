/* The block search's kernel: the int search of analyzer/search/blockdeal.py in plain C, no Python (see
 * ``_core_kernel.h`` for its interface and ``_core.c``'s top for what it computes). The CPython extension
 * ``_core`` and the WebAssembly module ``_core.wasm`` both build it, so the two search the same states.
 */
#include "_core_kernel.h"

#define INF CORE_INF
#define MAXSEATS CORE_MAXSEATS
#define MAXTILES CORE_MAXTILES
#define MAXMOVES CORE_MAXMOVES

typedef CoreEntry Entry;
typedef CoreTable Table;
typedef CoreDeal Deal;

/* -- the table ------------------------------------------------------------------------------ */

#define MAX_DEALS 65535 /* deal ids of one table epoch (16 bits); then the table starts again */


/* The home bucket of a state: its key mixed with the deal's id, multiplied by 2^64 / phi (the top
 * bits pick the bucket). */
static inline uint64_t home_of(int shift, uint64_t key, uint32_t deal) {
    uint64_t h = (key ^ ((uint64_t)deal * 0xD6E8FEB86659FD93ULL)) * 0x9E3779B97F4A7C15ULL;
    return h >> shift;
}

static inline Entry *bucket_of(Entry *slots, int shift, uint64_t key, uint32_t deal) {
    return slots + WAYS * home_of(shift, key, deal);
}

#define TABLE_ENTRY Entry
#define TABLE_OWNER Table
#define TABLE_PROBE 8
#define TABLE_KEY_PARAMS uint64_t key, uint32_t deal
#define TABLE_KEY_ARGS key, deal
#define TABLE_HOME(t) home_of((t)->shift, key, deal)
#define TABLE_SAME(t, e) ((e)->key == key && (e)->deal == deal)
#define TABLE_EMPTY(e) ((e)->deal == 0 || ((e)->deal != t->only && t->only))    /* (``t``: the table) */
#define TABLE_FILL 0
#define TABLE_WORK(e) (-popcount((e)->key))          /* the most tiles played: the least work behind it */
#define TABLE_AGAIN(t, e) table_slot((t), (e)->key, (e)->deal, 1)

#include "_table.h"

/* Store an entry (see _table.h: below its bound the table grows rather than replace). */
static inline void table_store(Table *t, uint64_t key, uint32_t deal, int lo, int hi, int bit, int e2, Entry *room,
                               uint64_t buckets) {
    Entry *x = table_room(t, key, deal, room, buckets);
    x->key = key;
    x->deal = (uint16_t)deal;
    x->lo = bound_pack(lo);
    x->hi = bound_pack(hi);
    x->bit = (uint8_t)bit;
    x->e2 = (uint8_t)e2;
    table_stored(t);
}

int core_table_init(Table *t, uint64_t entries) {
    uint64_t max_buckets, buckets;
    table_sizes(entries, WAYS, 1 << 12, &max_buckets, &buckets);    /* 256 KB to start */
    void *old = t->raw;
    if (table_alloc(t, buckets) < 0) return -1;
    free(old);
    t->max_buckets = max_buckets;
    t->used = 0;
    t->next_deal = 1;
    t->stores = t->replaced = 0;
    return 0;
}

void core_table_free(Table *t) {
    free(t->raw);
    t->raw = NULL;
    t->slots = NULL;
}

void core_table_clear(Table *t) {
    if (t->slots) table_empty(t);
}

/* -- one deal ------------------------------------------------------------------------------- */

typedef struct {
    uint8_t bit, e2;
    int16_t pips;
    int score;
} Move;

/* A fresh deal id; when they run out, the table is emptied and a new epoch starts (every deal
 * then takes a new id before it searches again). */
static uint32_t new_deal_id(Table *t) {
    if (t->next_deal > MAX_DEALS) {
        table_empty(t);
        t->epoch++;
        t->next_deal = 1;
    }
    return t->next_deal++;
}

/* The table shared by the deals of a solver again after the worlds (``only``): emptied, every deal to
 * take a new id. */
static void table_shared(Table *t) {
    if (t->only) {
        table_empty(t);
        t->only = 0;
        t->epoch++;
        t->next_deal = 1;
    }
}

static inline int ends_code(int w, int a, int b) {
    return a <= b ? a * w + b : b * w + a;
}

/* The moves of the tiles ``p`` on ends ``e``, heaviest first (stable: ascending tile, then the
 * lower end first), as the Python ``gen_moves``. */
static int gen_moves(Deal *d, uint64_t p, int e, Move *out) {
    const uint8_t *on_a = d->on_a[e], *on_b = d->on_b[e];
    int n = 0;
    while (p) {
        int i = __builtin_ctzll(p);
        p &= p - 1;
        if (on_a[i] != 255) {
            out[n].bit = (uint8_t)i;
            out[n].e2 = on_a[i];
            out[n].pips = d->tpips[i];
            n++;
        }
        if (on_b[i] != 255) {
            out[n].bit = (uint8_t)i;
            out[n].e2 = on_b[i];
            out[n].pips = d->tpips[i];
            n++;
        }
    }
    for (int i = 1; i < n; i++) {       /* insertion sort: stable, by pips descending */
        Move m = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].pips < m.pips) { out[j + 1] = out[j]; j--; }
        out[j + 1] = m;
    }
    return n;
}

/* The value of a finished hand for the side of ``s``: ``term`` 0 domino, 1 blocked. */
static int leaf(Deal *d, int term, int s, uint64_t K2, int bit, int e, int pv) {
    int sd = d->side[s];
    if (d->fast) {
        int ps = d->P[sd] - pv, po = d->P[1 - sd];
        if (term == 0) return po + d->cu * ps;
        return ps < po ? po + d->cu * ps : (ps > po ? -ps - d->cu * po : 0);
    }
    if (d->scored) {
        uint64_t hands[MAXSEATS];
        for (int t = 0; t < d->n; t++) hands[t] = d->dealt[t] & ~K2;
        int v = leaf_score(&d->sc, d->tlow, d->thigh, term, s, d->leader, hands, bit, d->ea[e], d->eb2[e]);
        return d->sign[s] * v;
    }
    int v;
    if (d->leaf_fn(d->leaf_ctx, term, s, K2, bit, e, &v) < 0) {      /* (the caller's: it checks the range) */
        d->failed = 1;
        d->err_kind = K_CALLBACK;
        d->err_text = "the leaf value failed";
        return 0;
    }
    return d->sign[s] * v;
}

/* The value of the state for the side of ``s`` (who holds a playable tile), fail-soft in
 * (alpha, beta): the Python ``search`` of ``IntDeal._build_search``, step by step. */
static inline uint64_t state_key(Deal *d, uint64_t K, int e, int s, uint64_t X) {
    uint64_t key = (((K << d->eb) | (uint64_t)e) << d->sb) | (uint64_t)s;
    return X ? key | (X << d->xb) : key;
}

/* The search is compiled twice where GCC makes clones for Linux on x86-64: with the popcnt instruction
 * (the move order counts the opponents' tiles that fit) and without, the loader choosing by the CPU. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define SEARCH_CLONES __attribute__((target_clones("popcnt", "default")))
#define tiles_in(x) __builtin_popcountll(x)
#else
#define SEARCH_CLONES
#define tiles_in(x) popcount(x)
#endif

SEARCH_CLONES
static int search(Deal *d, uint64_t K, int e, int s, uint64_t X, int alpha, int beta);

/* The value for the side of the mover ``s`` of his move of tile ``bit`` to ends ``e2`` from the loaded state
 * (played ``K``, ends ``e``; ``X2``: the live exposed tiles after his move), fail-soft in (alpha, beta): the
 * step of ``search``'s loop over the moves (a finished hand's leaf, or the forced passes skipped and the
 * pass bonus paid, then the search of the state after it). */
static inline int move_value(Deal *d, uint64_t K, int e, int s, uint64_t X2, int bit, int e2, int alpha, int beta) {
    uint64_t *H = d->H, h = H[s], h2 = h & ~(1ULL << bit), K2 = K | (1ULL << bit), f = d->fit[e2];
    int sd = d->side[s], pv = d->tpips[bit], x;
    if (!h2) return leaf(d, 0, s, K2, bit, e, pv);                      /* domino */
    if (!((d->all ^ K2) & f)) {                                         /* blocked */
        x = leaf(d, 1, s, K2, bit, e, pv);
        return d->pb ? x + d->blocking[s] : x;
    }
    H[s] = h2;
    d->P[sd] -= pv;
    int t = s, k;
    for (k = 0; k < d->n; k++) {                                        /* skip the forced passes */
        t = d->next[s][k];
        if (H[t] & f) break;
    }
    int b = d->pb ? d->bonus[s][k][!(K & d->flag)] : 0;
    if (b) K2 |= d->flag;
    if (d->side[t] == sd) x = b + search(d, K2, e2, t, X2, alpha - b, beta - b);
    else x = b - search(d, K2, e2, t, X2, b - beta, b - alpha);
    H[s] = h;
    d->P[sd] += pv;
    return x;
}

static int search(Deal *d, uint64_t K, int e, int s, uint64_t X, int alpha, int beta) {
    uint64_t *H = d->H;
    int *P = d->P;
    int neg = 1, saved = 0, v = 0, acc = 0;     /* acc: the forced moves' pass bonuses, for the side to move */
    uint64_t sH[MAXSEATS + 1];
    int sP[2] = {0, 0};
    Move mv[MAXMOVES];
    d->nodes++;
    if (--d->budget < 0) { d->failed = 2; return 0; }     /* past the node limit: unwind */
    for (;;) {
        int sd = d->side[s];
        uint64_t h = H[s];
        uint64_t key = state_key(d, K, e, s, X);
        uint64_t home = home_of(d->table->shift, key, d->id);
        __builtin_prefetch(d->table->slots + WAYS * home);      /* the table's line, while the moves are made */
        uint64_t p = h & d->fit[e], X2 = X;     /* X2: the live exposed tiles after his move */
        if (X) {                                /* §8: his exposed tiles that fit, if any, are his moves */
            X2 = X & ~p;
            if (X & p) p &= X;
        }
        int nm = gen_moves(d, p, e, mv);
        if (d->bound) {
            v = -d->most;
            if (d->bound < 3) {
                v += mv[0].pips - P[sd];
                if (d->bound > 1) v -= P[1 - sd];
            }
            if (d->pb) v -= d->pbmax * tiles_in(H[d->opp1[s]] | H[d->opp2[s]]);
            if (v >= beta) break;
        }
        if (nm == 1) {                          /* a forced move: played here, no table entry */
            int bit = mv[0].bit, e2 = mv[0].e2, pv = mv[0].pips;
            uint64_t h2 = h & ~(1ULL << bit), K2 = K | (1ULL << bit);
            if (!h2) { v = leaf(d, 0, s, K2, bit, e, pv); break; }
            uint64_t f = d->fit[e2];
            if (!((d->all ^ K2) & f)) {
                v = leaf(d, 1, s, K2, bit, e, pv);
                if (d->pb) v += d->blocking[s];
                break;
            }
            if (!saved) {
                memcpy(sH, H, sizeof(sH));
                sP[0] = P[0];
                sP[1] = P[1];
                saved = 1;
            }
            H[s] = h2;
            P[sd] -= pv;
            int t = s, k;
            for (k = 0; k < d->n; k++) {
                t = d->next[s][k];
                if (H[t] & f) break;
            }
            K = K2;
            e = e2;
            X = X2;
            if (d->pb) {
                int b = d->bonus[s][k][!(K & d->flag)];
                if (b) {
                    K |= d->flag;
                    acc += b;
                    alpha -= b;
                    beta -= b;
                }
            }
            if (d->side[t] != sd) {
                int x = alpha;
                alpha = -beta;
                beta = -x;
                neg = -neg;
                acc = -acc;
            }
            s = t;
            continue;
        }

        /* a choice: the table first */
        Entry *room, *en = table_find(d->table, home, key, d->id, &room);
        uint64_t buckets = d->table->buckets;
        int lo = -INF, hi = INF, bbit = 255, be2 = 255;
        if (en != NULL) {
            lo = bound_unpack(en->lo);
            hi = bound_unpack(en->hi);
            bbit = en->bit;
            be2 = en->e2;
            if (lo >= beta) { v = lo; break; }
            if (hi <= alpha) { v = hi; break; }
            if (lo == hi) { v = lo; break; }
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
        }
        if (bbit == 255 || nm > 2) {
            /* order: starve the next opponent, then the other one; heavy tiles first */
            uint64_t o1 = H[d->opp1[s]], o3 = H[d->opp2[s]];
            for (int i = 0; i < nm; i++) {
                uint64_t f = d->fit[mv[i].e2];
                mv[i].score = mv[i].pips - 20 * tiles_in(o1 & f) - 5 * tiles_in(o3 & f);
            }
            if (nm == 2) {
                if (mv[1].score > mv[0].score) { Move m = mv[0]; mv[0] = mv[1]; mv[1] = m; }
            } else {
                /* descending (score, tile, ends after), as Python's sort of (score, move) tuples */
                for (int i = 1; i < nm; i++) {
                    Move m = mv[i];
                    int j = i - 1;
                    while (j >= 0 && (mv[j].score < m.score || (mv[j].score == m.score
                           && (mv[j].bit < m.bit || (mv[j].bit == m.bit && mv[j].e2 < m.e2))))) {
                        mv[j + 1] = mv[j];
                        j--;
                    }
                    mv[j + 1] = m;
                }
            }
        }
        if (bbit != 255 && !(mv[0].bit == bbit && mv[0].e2 == be2)) {
            for (int i = 1; i < nm; i++) {
                if (mv[i].bit == bbit && mv[i].e2 == be2) {
                    Move m = mv[i];
                    memmove(mv + 1, mv, (size_t)i * sizeof(Move));
                    mv[0] = m;
                    break;
                }
            }
        }

        int a0 = alpha, x;
        v = -INF;
        int bm = -1;
        for (int i = 0; i < nm; i++) {
            x = move_value(d, K, e, s, X2, mv[i].bit, mv[i].e2, alpha, beta);
            if (d->failed) break;
            if (x > v) {
                v = x;
                bm = i;
                if (x > alpha) {
                    alpha = x;
                    if (x >= beta) break;
                }
            }
        }
        if (d->failed) break;
        if (v <= a0) hi = v;
        else if (v >= beta) lo = v;
        else lo = hi = v;
        table_store(d->table, key, d->id, lo, hi, mv[bm].bit, mv[bm].e2, room, buckets);
        break;
    }
    if (saved) {
        memcpy(H, sH, sizeof(sH));
        P[0] = sP[0];
        P[1] = sP[1];
    }
    v += acc;
    return neg > 0 ? v : -v;
}

/* MTD(f): a value fail-soft in (alpha, beta) from null-window searches, as ``alphabeta.mtdf``. */
static int mtd(Deal *d, uint64_t K, int e, int s, uint64_t X, int alpha, int beta, int guess) {
    if ((int64_t)beta - alpha <= 1) return search(d, K, e, s, X, alpha, beta);   /* (the open window, 2 INF, overflows an int) */
    int g;
    if (beta < INF) g = beta;
    else if (alpha > -INF) g = alpha + 1;
    else g = guess;
    int lo = -INF, hi = INF;
    while (lo < hi) {
        int b = g == lo ? g + 1 : g;
        g = search(d, K, e, s, X, b - 1, b);
        if (d->failed) return 0;
        if (g < b) {
            hi = g;
            if (hi <= alpha) break;
        } else {
            lo = g;
            if (lo >= beta) break;
        }
    }
    return g;
}

/* The deal ready to search a state whose packed played mask is ``*K``: the table shared again (after the
 * worlds), the deal's id of the table's epoch, and the live exposed tiles split off ``*K`` into ``*X``
 * (§8: see the top). -1 (an error set) where the key has no room for them or they are not the deal's. */
static int deal_ready(Deal *self, uint64_t *K, uint64_t *X) {
    table_shared(self->table);
    if (self->epoch != self->table->epoch) {
        self->epoch = self->table->epoch;
        self->id = new_deal_id(self->table);
    }
    *X = self->ntiles + 1 < 64 ? (uint64_t)*K >> (self->ntiles + 1) : 0;
    *K &= (self->ntiles + 1 < 64 ? (1ULL << (self->ntiles + 1)) : 0) - 1;
    if (*X && (!self->xok || (*X & ~self->all) || (*X & *K))) {
        return KERNEL_ERROR(self, K_VALUE, self->xok ? "exposed tiles must be tiles of the deal not yet played"
                          : "no room for exposed tiles in the compiled search's key for a set this large");
    }
    return 0;
}

/* The table made ready for a new world: back at the size it starts with (a large deal's table does not
 * stay large for the small ones after it, and a large table spreads a small search over more cache lines),
 * and empty: the new deal's id is the only one whose entries count (``only``), so the slots of the deals
 * before are free without a pass over them; below its bound the table loses no entry, so a deal searches
 * exactly the states it would in an empty one. */
static int table_restart(Table *t) {
    uint64_t start = t->max_buckets < (1 << 12) ? t->max_buckets : (1 << 12);      /* as Table_init */
    if (t->buckets != start) {
        void *old = t->raw;
        if (table_alloc(t, start) < 0) return -1;
        free(old);
        t->stores = t->replaced = t->used = 0;
        t->epoch++;
        t->next_deal = 1;
    } else {
        t->used = 0;            /* (the next deal's id makes every entry's slot free: ``only``) */
    }
    return 0;
}

/* The side-0 value of the mover ``s`` playing tile ``bit`` to ends ``e2`` from the loaded state (played
 * ``K``, ends ``e``), in ``*out`` (as ``Solver.values`` computes a play on the line: the forced passes
 * skipped, MTD(f) from the table's bound nearest 0). Returns 1 when the move ends the hand (no value), 2
 * past the budget, -1 on an error, else 0. */
static int play_move(Deal *d, uint64_t K, int e, int s, int bit_index, int e2, int *out) {
    uint64_t h = d->H[s], bit = 1ULL << bit_index, K2 = K | bit, f = d->fit[e2];
    int sd = d->side[s];
    if (!(h & bit) || (e >= 0 && !(d->fit[e] & bit))) {
        return KERNEL_ERROR(d, K_VALUE, "a move of a tile the mover does not hold, or that does not fit");
    }
    if (h == bit || !((d->all ^ K2) & f)) return 1;            /* domino, or blocked */
    int t = s;
    for (int k = 0; k < d->n; k++) {                           /* the forced passes */
        t = d->next[s][k];
        if ((t == s ? h & ~bit : d->H[t]) & f) break;
    }
    d->H[s] = h & ~bit;
    d->P[sd] -= d->tpips[bit_index];
    int guess = 0;
    Entry *en = table_probe(d->table, state_key(d, K2, e2, t, 0), d->id);
    if (en != NULL) {
        int lo = bound_unpack(en->lo), hi = bound_unpack(en->hi);
        guess = guess < lo ? lo : (guess > hi ? hi : guess);
    }
    int v = mtd(d, K2, e2, t, 0, -INF, INF, guess);
    d->H[s] = h;
    d->P[sd] += d->tpips[bit_index];
    if (d->failed) return d->failed == 2 ? 2 : -1;
    *out = d->sign[t] * v;
    return 0;
}

/* One world of ``Deal_worlds``: the deal ``dealt`` loaded (the tiles of ``K`` played), then the side-0
 * value of each root move in ``out`` (as ``Solver.values`` computes a play on the line: the mover's
 * tile, the forced passes skipped, MTD(f) from the table's bound nearest 0; ``e`` -1: the lead, each move
 * a tile led, its two numbers the ends after it). Returns 1 when a move
 * ends the hand (the caller asks Python for that world), 2 past the budget, -1 on an error, else 0. */
static int solve_world(Deal *d, const uint64_t *dealt, uint64_t K, int e, int s, int nmoves, const uint8_t *bits,
                       const uint8_t *e2s, int64_t budget, int *out) {
    uint64_t all = 0, held = 0;
    for (int t = 0; t < d->n; t++) all |= dealt[t];
    d->all = all;
    d->P[0] = d->P[1] = 0;
    for (int t = 0; t < d->n; t++) {
        d->dealt[t] = dealt[t];
        d->H[t] = dealt[t] & ~K;
        held |= d->H[t];
        for (uint64_t m = d->H[t]; m; m &= m - 1) d->P[d->side[t]] += d->tpips[__builtin_ctzll(m)];
    }
    d->H[d->n] = 0;
    if ((all & ~held) != K || (e >= 0 && !(d->H[s] & d->fit[e]))) {
        return KERNEL_ERROR(d, K_VALUE, "worlds: each deal must hold every tile not played, and the mover a "
                          "playable tile");
    }
    if (table_restart(d->table) < 0) return KERNEL_ERROR(d, K_MEMORY, "no memory for the table");
    d->table->only = 0;
    d->epoch = d->table->epoch;
    d->id = new_deal_id(d->table);
    d->table->only = (uint16_t)d->id;
    d->budget = budget;
    d->failed = 0;
    for (int i = 0; i < nmoves; i++) {
        int got = play_move(d, K, e, s, bits[i], e2s[i], out + i);
        if (got != 0) return got;
    }
    return 0;
}

/* ``(seat, tile, end)`` appended to ``out``; ``out`` NULL: nothing kept (``ends``: the line's end is kept, not its
 * steps). A line has at most ``CORE_MAX_STEPS`` steps: a tile laid, and the others' passes after it. */
static inline void append_step(CoreSteps *out, int seat, int tile, int end) {
    if (out == NULL || out->step == NULL) return;
    out->step[out->count][0] = seat;
    out->step[out->count][1] = tile;
    out->step[out->count][2] = end;
    out->count++;
}

/* A move of a principal line: the tile's index, the ends code after it, the open number it goes on. */
typedef struct {
    uint8_t bit, e2, end;
} LineMove;

/* The moves of the tiles ``p`` on the ends as they lie (``a`` first, then ``b``), in the order of
 * ``Position.legal_moves``: ascending tile, each on ``a`` before ``b`` (one move where both show one number). */
static int line_moves(Deal *d, uint64_t p, int a, int b, LineMove *out) {
    int n = 0;
    for (; p; p &= p - 1) {
        int i = __builtin_ctzll(p), lo = d->tlow[i], hi = d->thigh[i];
        if (lo == a || hi == a)
            out[n++] = (LineMove){(uint8_t)i, (uint8_t)ends_code(d->w, lo == a ? hi : lo, b), (uint8_t)a};
        if (b != a && (lo == b || hi == b))
            out[n++] = (LineMove){(uint8_t)i, (uint8_t)ends_code(d->w, a, lo == b ? hi : lo), (uint8_t)b};
    }
    return n;
}

/* The state of a principal line as it is played out: the loaded hands and pips, and these. */
typedef struct {
    uint64_t K, X;      /* the played mask (with the pass bonus's flag), the live exposed tiles */
    int a, b, s, v;     /* the ends as they lie, the mover, the state's value for his side */
    int pa, pb;         /* the ends as they lay before the last tile laid */
    int ls, lb;         /* the seat that laid the last tile, and its index */
} LineState;

/* The move of the mover of ``st`` laying tile ``bit`` (the ends code after it ``e2``; ``X2``: the live exposed
 * tiles after it) played on the line's state, the forced passes after it appended to ``out`` as ``(seat, -1,
 * -1)``; ``st->v`` is the move's value for the mover's side, and becomes the next state's for the next mover's
 * (a pass bonus it pays taken off). The ends as they lie are the caller's. Returns 1 once the move ends the hand
 * (nothing played: the hand is over), 0 when it goes on, -1 on an error. */
static int line_advance(Deal *d, LineState *st, int bit, int e2, uint64_t X2, CoreSteps *out) {
    int s = st->s, sd = d->side[s];
    uint64_t h = d->H[s], K = st->K, K2 = K | (1ULL << bit), f = d->fit[e2];
    if (h == 1ULL << bit || !((d->all ^ K2) & f)) return 1;            /* domino, or blocked */
    d->H[s] = h & ~(1ULL << bit);
    d->P[sd] -= d->tpips[bit];
    int t = s, k;
    for (k = 0; k < d->n; k++) {
        t = d->next[s][k];
        if (d->H[t] & f) break;
        append_step(out, t, -1, -1);
    }
    int bonus = d->pb ? d->bonus[s][k][!(K & d->flag)] : 0;
    if (bonus) K2 |= d->flag;
    st->K = K2;
    st->X = X2;
    st->v = d->side[t] == sd ? st->v - bonus : bonus - st->v;         /* (the move's value is the state's) */
    st->s = t;
    return 0;
}

/* One step of a principal line: the first move of the mover in the order of ``Position.legal_moves`` whose
 * value reaches the state's (a null-window probe each, ``budget`` states at most), appended to ``out`` as
 * ``(seat, tile, end)`` with the forced passes after it (``(seat, -1, -1)``), and played. ``first``: bit ``s``
 * set when seat ``s`` lays a tile on the first of two ends showing the same number (``Position.equal_end``).
 * Returns 1 once the hand is over, 0 when it goes on, -1 on an error or past the budget (``failed``). */
static int line_step(Deal *d, LineState *st, int first, int64_t budget, CoreSteps *out) {
    int s = st->s, e = ends_code(d->w, st->a, st->b);
    uint64_t h = d->H[s], p = h & d->fit[e], X2 = st->X;
    if (st->X) {                                /* §8: his exposed tiles that fit, if any, are his moves */
        X2 = st->X & ~p;
        if (st->X & p) p &= st->X;
    }
    LineMove mv[MAXMOVES];
    int nm = line_moves(d, p, st->a, st->b, mv), c = 0;
    if (nm > 1) {
        d->budget = budget;
        for (c = 0; c < nm; c++) {
            int x = move_value(d, st->K, e, s, X2, mv[c].bit, mv[c].e2, st->v - 1, st->v);
            if (d->failed) return -1;
            if (x >= st->v) break;
        }
        if (c == nm) {
            return KERNEL_ERROR(d, K_RUNTIME, "line: no move reaches the value of the state");
        }
    }
    int bit = mv[c].bit;
    append_step(out, s, bit, mv[c].end);
    st->ls = s;
    st->lb = bit;
    int other = d->tlow[bit] == mv[c].end ? d->thigh[bit] : d->tlow[bit];
    st->pa = st->a;
    st->pb = st->b;
    if (mv[c].end == st->a && (st->a != st->b || (first >> s & 1))) st->a = other;
    else st->b = other;
    return line_advance(d, st, bit, mv[c].e2, X2, out);
}

/* The principal line of a state ``st`` to the end of the hand appended to ``out`` (``line_step`` after
 * ``line_step``). Returns 0, or -1 on an error or past the budget (``failed``). */
static int line_rest(Deal *d, LineState *st, int first, int64_t budget, CoreSteps *out) {
    int got = 0;
    while (got == 0) got = line_step(d, st, first, budget, out);
    return got < 0 ? -1 : 0;
}

/* The principal line after one root move of the world ``solve_world`` has just solved (its side-0 ``value``; the
 * table warm with its search), as ``Solver.best_line`` plays it from the position after the move: the move's own
 * forced passes first, then ``line_step`` after ``line_step``; the ends as they lay before its last tile (the line
 * ends on a tile: the hand is over once one is laid). ``a``, ``b``: the ends as they lie after the move; ``first``:
 * ``line``'s ``first`` after it. The loaded hands and pips are the world's again after it. */
int core_world_line(Deal *d, uint64_t K, int s, int bit, int e2, int a, int b, int first, int value,
                    int64_t budget, CoreSteps *out, int *pa, int *pb) {
    uint64_t H[MAXSEATS + 1];
    int P[2] = {d->P[0], d->P[1]};
    memcpy(H, d->H, sizeof(H));
    LineState st = {K, 0, a, b, s, d->sign[s] * value, 0, 0};
    d->failed = 0;
    int got = line_advance(d, &st, bit, e2, 0, out);
    if (got == 1) got = KERNEL_ERROR(d, K_RUNTIME, "worlds: a move with a value ends the hand");
    else if (got == 0) got = line_rest(d, &st, first, budget, out);
    memcpy(d->H, H, sizeof(H));             /* (the world's hands and pips again for the next move) */
    d->P[0] = P[0];
    d->P[1] = P[1];
    if (got < 0 && d->failed == 2) {        /* past the budget: this line is not known */
        d->failed = 0;
        return 1;
    }
    if (got < 0) return -1;
    *pa = st.pa;
    *pb = st.pb;
    return 0;
}

/* -- the calls ------------------------------------------------------------------------------------ */

int core_deal_init(Deal *d, Table *t, int n, int max_pip, const int *sides, const uint64_t *dealt, int cu,
                   CoreLeafFn leaf_fn, void *ctx, const LeafScoring *sc, int leader, int bound, int most,
                   const int *bonus, int nbonus) {
    if (n < 2 || n > MAXSEATS) return KERNEL_ERROR(d, K_VALUE, "the compiled search seats two to four players");
    int w = max_pip + 1, ntiles = w * (w + 1) / 2;
    if (max_pip < 0 || ntiles > MAXTILES) return KERNEL_ERROR(d, K_VALUE, "the compiled search plays sets up to double-nine");
    if (cu < -1 || cu > 1 || (leaf_fn != NULL && sc != NULL))
        return KERNEL_ERROR(d, K_TYPE, "leaf: None (cu: 0, 1 or -1 for the scoring written here, or a scoring "
                          "description) or a callable");
    if (leader < 0 || leader >= n || bound < -1 || bound > 3 || most < 0 || most > MAX_VALUE)
        return KERNEL_ERROR(d, K_VALUE, "leader: a seat; bound: -1 to 3; most: the points of a hand");
    if (sc != NULL && sc->n != n)
        return KERNEL_ERROR(d, K_VALUE, "scoring: the description seats another number of players");
    uint64_t all = 0;
    for (int s = 0; s < n; s++) {
        if (sides[s] < 0 || sides[s] > 1) return KERNEL_ERROR(d, K_VALUE, "sides (0 or 1) and dealt hands, one per seat");
        d->side[s] = sides[s];
        d->sign[s] = sides[s] == 0 ? 1 : -1;
        d->dealt[s] = dealt[s];
        all |= dealt[s];
    }
    d->table = t;
    d->leaf_fn = leaf_fn;
    d->leaf_ctx = ctx;
    d->epoch = t->epoch;
    d->id = new_deal_id(t);
    d->n = n;
    d->w = w;
    d->ntiles = ntiles;
    d->flag = 1ULL << ntiles;
    d->eb = 1;
    while ((1 << d->eb) < w * w) d->eb++;     /* bit_length(w * w - 1) */
    d->sb = 1;
    while ((1 << d->sb) < n) d->sb++;         /* max(1, bit_length(n - 1)) */
    d->pb = bonus != NULL;
    d->xb = ntiles + d->pb + d->eb + d->sb;
    d->xok = d->xb + ntiles <= 64;
    d->pbmax = 0;
    if (d->pb) {
        int ok = nbonus == 2 * n * n + n && ntiles + 1 + d->eb + d->sb <= 64;
        for (int i = 0; i < 2 * n * n + n && ok; i++) {
            int b = bonus[i];
            if (b < 0 || b > MAX_VALUE) { ok = 0; break; }
            if (i < 2 * n * n) d->bonus[i / (2 * n)][i / 2 % n][i % 2] = b;
            else d->blocking[i - 2 * n * n] = b;
            if (b > d->pbmax) d->pbmax = b;
        }
        if (!ok) return KERNEL_ERROR(d, K_VALUE, "bonus: 2 n n + n points (and a set whose states leave a bit free)");
    }
    d->fast = leaf_fn == NULL && sc == NULL;
    d->bound = bound >= 0 ? bound : (d->fast ? (cu > 0 ? 2 : 1) : 0);
    d->most = most;
    d->scored = sc != NULL;
    if (sc != NULL) d->sc = *sc;
    else memset(&d->sc, 0, sizeof(d->sc));
    d->leader = leader;
    d->cu = cu;
    d->all = all;
    uint64_t match[16] = {0};
    int i = 0;
    for (int hi = 0; hi < w; hi++)                  /* Tile.index: high * (high + 1) / 2 + low */
        for (int lo = 0; lo <= hi; lo++, i++) {
            d->tlow[i] = (uint8_t)lo;
            d->thigh[i] = (uint8_t)hi;
            d->tpips[i] = (int16_t)(lo + hi);
            match[lo] |= 1ULL << i;
            match[hi] |= 1ULL << i;
        }
    for (int e = 0; e < w * w; e++) {
        int a = e / w, b = e % w;
        d->fit[e] = match[a] | match[b];
        d->ea[e] = (uint8_t)a;
        d->eb2[e] = (uint8_t)b;
        for (int x = 0; x < ntiles; x++) {
            int lo = d->tlow[x], hi = d->thigh[x];
            d->on_a[e][x] = lo == a || hi == a ? (uint8_t)ends_code(w, lo == a ? hi : lo, b) : 255;
            d->on_b[e][x] = b != a && (lo == b || hi == b) ? (uint8_t)ends_code(w, a, lo == b ? hi : lo) : 255;
        }
    }
    for (int s = 0; s < n; s++) {
        for (int k = 0; k < n; k++) d->next[s][k] = (s + k + 1) % n;
        d->opp1[s] = d->opp2[s] = n;
        for (int k = 0; k < n; k++) {
            int x = d->next[s][k];
            if (d->side[x] == d->side[s]) continue;
            if (d->opp1[s] == n) d->opp1[s] = x;
            else if (d->opp2[s] == n) d->opp2[s] = x;
        }
    }
    memset(d->H, 0, sizeof(d->H));
    d->nodes = 0;
    return 0;
}

/* The hands (one mask a seat) and pips (a count a side) of a state into the deal. */
static void load_state(Deal *d, const uint64_t *hands, const int *pips) {
    for (int t = 0; t < d->n; t++) d->H[t] = hands[t];
    d->H[d->n] = 0;
    d->P[0] = pips[0];
    d->P[1] = pips[1];
}

/* MTD(f) from ``guess`` moved into the table's bounds of the state, if it has them. */
static int mtd_probed(Deal *d, uint64_t K, int e, int s, uint64_t X, int alpha, int beta, int guess) {
    Entry *en = table_probe(d->table, state_key(d, K, e, s, X), d->id);
    if (en != NULL) guess = guess < bound_unpack(en->lo) ? bound_unpack(en->lo)
                            : (guess > bound_unpack(en->hi) ? bound_unpack(en->hi) : guess);
    return mtd(d, K, e, s, X, alpha, beta, guess);
}

int core_mtdf(Deal *d, const uint64_t *hands, const int *pips, uint64_t K, int e, int s, int alpha, int beta,
              int guess, int64_t budget, int *value) {
    if (s < 0 || s >= d->n || e < 0 || e >= d->w * d->w) return KERNEL_ERROR(d, K_VALUE, "seat or ends out of range");
    load_state(d, hands, pips);
    if (!(d->H[s] & d->fit[e])) return KERNEL_ERROR(d, K_VALUE, "the seat to move must hold a playable tile");
    uint64_t X;
    if (deal_ready(d, &K, &X) < 0) return -1;
    if (alpha < -INF) alpha = -INF;
    if (beta > INF) beta = INF;
    d->failed = 0;
    d->budget = budget;
    int v = mtd_probed(d, K, e, s, X, alpha, beta, guess);
    if (d->failed == 2) return 1;
    if (d->failed) return -1;
    *value = v;
    return 0;
}

int core_plays(Deal *d, const uint64_t *hands, const int *pips, uint64_t K, int e, int s, int nm,
               const int (*moves)[2], int64_t budget, int *values, uint8_t *ended, int *over, uint64_t *states) {
    if (d->pb || s < 0 || s >= d->n || e < 0 || e >= d->w * d->w || (K >> d->ntiles))
        return KERNEL_ERROR(d, K_VALUE, "plays: a deal without pass bonuses, a seat, ends and tiles played of its set");
    load_state(d, hands, pips);
    table_shared(d->table);
    if (d->epoch != d->table->epoch) {
        d->epoch = d->table->epoch;
        d->id = new_deal_id(d->table);
    }
    uint64_t before = d->nodes;
    d->budget = budget;
    d->failed = 0;
    *over = 0;
    int i;
    for (i = 0; i < nm; i++) {
        int bit = moves[i][0], e2 = moves[i][1];
        if (bit < 0 || bit >= d->ntiles || e2 < 0 || e2 >= d->w * d->w)
            return KERNEL_ERROR(d, K_VALUE, "moves: (tile index, ends code) pairs");
        int got = play_move(d, K, e, s, bit, e2, values + i);
        if (got < 0) return -1;
        if (got == 2) { *over = 1; break; }
        ended[i] = got == 1;
    }
    *states = d->nodes - before;
    return i;
}

int core_line(Deal *d, const uint64_t *hands, const int *pips, uint64_t K, int a, int b, int s, int first,
              int has_value, int value, int64_t budget, int guess, CoreSteps *out, uint64_t *states, int *over,
              int *pa, int *pb) {
    if (s < 0 || s >= d->n || a < 0 || a >= d->w || b < 0 || b >= d->w)
        return KERNEL_ERROR(d, K_VALUE, "seat or ends out of range");
    LineState st = {0, 0, a, b, s, 0, a, b};
    load_state(d, hands, pips);
    if (deal_ready(d, &K, &st.X) < 0) return -1;
    st.K = K;
    int e = ends_code(d->w, a, b);
    if (!(d->H[s] & d->fit[e])) return KERNEL_ERROR(d, K_VALUE, "the seat to move must hold a playable tile");
    uint64_t before = d->nodes;
    d->failed = 0;
    d->budget = budget;
    st.v = has_value ? value : mtd_probed(d, st.K, e, s, st.X, -INF, INF, guess);
    int got = d->failed ? -1 : 0;
    if (got == 0) got = line_rest(d, &st, first, budget, out);
    if (got < 0 && d->failed != 2) return -1;
    *states = d->nodes - before;
    *over = d->failed == 2;
    *pa = st.pa;
    *pb = st.pb;
    return 0;
}

int core_ends(Deal *d, const uint64_t *hands, const int *pips, uint64_t K, int a, int b, int s, int first,
              int nvalues, const uint8_t *has, const int *values, int64_t budget, uint8_t *found, uint64_t *hands_out,
              int *seat_out, int *tile_out, int *a_out, int *b_out) {
    if (s < 0 || s >= d->n || a < 0 || a >= d->w || b < 0 || b >= d->w)
        return KERNEL_ERROR(d, K_VALUE, "seat or ends out of range");
    LineState st0 = {0, 0, a, b, s, 0, a, b, s, 0};
    load_state(d, hands, pips);
    if (deal_ready(d, &K, &st0.X) < 0) return -1;
    st0.K = K;
    int e = ends_code(d->w, a, b);
    uint64_t p = d->H[s] & d->fit[e], X2 = st0.X;
    if (st0.X) {                                /* §8: as ``line_step`` */
        X2 = st0.X & ~p;
        if (st0.X & p) p &= st0.X;
    }
    LineMove mv[MAXMOVES];
    int nm = line_moves(d, p, a, b, mv);
    if (nvalues != nm) {
        d->err_count = nm;
        return KERNEL_ERROR(d, K_VALUE, "ends: not one value a move");
    }
    uint64_t H[MAXSEATS + 1];
    int P[2] = {d->P[0], d->P[1]};
    memcpy(H, d->H, sizeof(H));
    for (int i = 0; i < nm; i++) {
        found[i] = 0;
        if (!has[i] || values[i] > MAX_VALUE || values[i] < -MAX_VALUE) continue;
        LineState st = st0;
        int bit = mv[i].bit, other = d->tlow[bit] == mv[i].end ? d->thigh[bit] : d->tlow[bit];
        st.v = d->sign[s] * values[i];
        st.ls = s;
        st.lb = bit;
        if (mv[i].end == st.a && (st.a != st.b || (first >> s & 1))) st.a = other;
        else st.b = other;
        d->failed = 0;
        d->budget = budget;
        int got = line_advance(d, &st, bit, mv[i].e2, X2, NULL);
        if (got == 0) got = line_rest(d, &st, first, budget, NULL);
        if (got < 0 && d->failed == 1) return -1;       /* the leaf callback failed */
        if (got < 0) {                  /* past the budget, or the value is not the move's: no line read */
            d->failed = 0;
        } else {
            found[i] = 1;
            for (int t = 0; t < d->n; t++)
                hands_out[i * d->n + t] = t == st.ls ? d->H[t] & ~(1ULL << st.lb) : d->H[t];
            seat_out[i] = st.ls;
            tile_out[i] = st.lb;
            a_out[i] = st.pa;
            b_out[i] = st.pb;
        }
        memcpy(d->H, H, sizeof(H));          /* (the state's hands and pips again for the next move) */
        d->P[0] = P[0];
        d->P[1] = P[1];
    }
    return 0;
}

int core_worlds_check(Deal *d, uint64_t K, int e, int s, int nm, const uint8_t *bits, const uint8_t *e2s,
                      const int *as, const int *bs) {
    if (d->leaf_fn != NULL || d->pb || s < 0 || s >= d->n || e < -1 || e >= d->w * d->w || (K >> d->ntiles)
        || (e < 0 && K))
        return KERNEL_ERROR(d, K_VALUE, "worlds: a deal scored here without pass bonuses, a seat, ends and "
                          "tiles played of its set");
    int bad = nm < 1 || nm > MAXMOVES;
    for (int i = 0; i < nm && !bad; i++) {
        bad = bits[i] >= d->ntiles || e2s[i] >= d->w * d->w;
        if (as != NULL && !bad)
            bad = as[i] < 0 || as[i] >= d->w || bs[i] < 0 || bs[i] >= d->w || ends_code(d->w, as[i], bs[i]) != e2s[i];
    }
    if (bad)
        return KERNEL_ERROR(d, K_VALUE, "moves: (tile index, ends code) pairs; after: the ends (a, b) and first after "
                          "each move");
    return 0;
}

int core_world(Deal *d, const uint64_t *dealt, uint64_t K, int e, int s, int nm, const uint8_t *bits,
               const uint8_t *e2s, int64_t budget, int *values) {
    return solve_world(d, dealt, K, e, s, nm, bits, e2s, budget, values);
}
