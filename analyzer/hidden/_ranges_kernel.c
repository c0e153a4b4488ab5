/* The range tree's build (analyzer/hidden/ranges.py's ``build_ranges``) in plain C, no Python (see
 * ``_ranges_kernel.h``). Node by node it does what the Python build does, in its order: the other's hands split by
 * whether they fit the open ends, the mover's hands grouped by the tiles of theirs that fit (each group's moves asked
 * once, of ``rb_legal``: ``Position.legal_moves`` of the plain line game for two), the hands that end the game there
 * and the table of their values by pip class (``rb_terminal``: ``leaf_score``, one table a set of facts and classes),
 * the public moves in the order the groups first name them, the information sets, then each move's child. */
#include "_ranges_kernel.h"

static int rb_grow(RbVec *v, int64_t more) {
    if (v->n + more <= v->cap) return 0;
    int64_t cap = v->cap ? v->cap : 256;
    while (cap < v->n + more) cap *= 2;
    void *p = malloc((size_t)cap * (size_t)v->item);
    if (p == NULL) return -1;
    if (v->n) memcpy(p, v->v, (size_t)v->n * (size_t)v->item);
    free(v->v);
    v->v = p;
    v->cap = cap;
    return 0;
}

#define I32(vec) ((int32_t *)(vec)->v)

/* ``x`` appended to ``v`` as its items are (ints of 4 bytes, hands' indices of 2, ``CfrHand``, or the terminal hands'
 * classes of 1: the build keeps them below ``CFR_HANDS`` and ``RB_CLASSES``). */
static int rb_put(RangeBuild *b, RbVec *v, int32_t x) {
    if (v->n == v->cap && rb_grow(v, 1) < 0) return KERNEL_ERROR(b, K_MEMORY, "no memory for the range tree");
    if (v->item == 4)
        I32(v)[v->n++] = x;
    else if (v->item == 2)
        ((CfrHand *)v->v)[v->n++] = (CfrHand)x;
    else
        ((uint8_t *)v->v)[v->n++] = (uint8_t)x;
    return 0;
}

/* ``x`` (``n`` ints) appended to ``v`` as its items are (ints of 4 bytes, or hands' indices: ``CfrHand``). */
static int rb_extend(RangeBuild *b, RbVec *v, const int32_t *x, int64_t n) {
    if (rb_grow(v, n) < 0) return KERNEL_ERROR(b, K_MEMORY, "no memory for the range tree");
    if (v->item == 4) {
        if (n) memcpy(I32(v) + v->n, x, (size_t)n * sizeof(int32_t));
    } else {
        CfrHand *to = (CfrHand *)v->v + v->n;
        for (int64_t k = 0; k < n; k++) to[k] = (CfrHand)x[k];
    }
    v->n += n;
    return 0;
}

typedef struct {
    int turn, a, b, passes, hist, last_tile, last_seat, leader, lt, lt_seat, la, lb;
    uint64_t played[2];           /* by player (0: the maximiser) */
} RbState;

static inline uint64_t rb_fit(const RangeBuild *b, const RbState *s) {
    return s->a < 0 ? b->every : b->match[s->a] | b->match[s->b];
}

static inline int32_t rb_compress(const RangeBuild *b, uint64_t m) {
    int32_t out = 0;
    for (; m; m &= m - 1) out |= (int32_t)1 << b->place[__builtin_ctzll(m)];
    return out;
}

static inline int rb_pips(const RangeBuild *b, uint64_t m) {
    int p = 0;
    for (; m; m &= m - 1) p += b->tpips[__builtin_ctzll(m)];
    return p;
}

/* ``Position.legal_moves`` of the plain line game for two, the mover holding ``mine`` and the other ``other`` (no
 * hidden tiles): their count into ``out`` (codes, ``_ranges_kernel.h``), -1 where the hand is over (``outcome``: the
 * last mover out, or two passes, or nobody holding a tile that fits). */
static int rb_legal(const RangeBuild *b, const RbState *s, uint64_t mine, uint64_t other, int32_t *out) {
    uint64_t fit = rb_fit(b, s);
    if (s->hist) {
        uint64_t last = s->last_seat == s->turn ? mine : other;
        if ((s->last_tile && last == 0) || s->passes >= 2 || (s->a >= 0 && !((mine | other) & fit))) return -1;
    }
    uint64_t playable = s->a < 0 ? (b->opening ? mine & b->opening : mine) : mine & fit;
    int k = 0;
    for (uint64_t m = playable; m; m &= m - 1) {        /* (the tiles in index order, each end in the ends' order) */
        int i = __builtin_ctzll(m), lo = b->tlow[i], hi = b->thigh[i];
        if (s->a < 0) {
            out[k++] = i * 16 + RB_NO_END;
            continue;
        }
        if (lo == s->a || hi == s->a) out[k++] = i * 16 + s->a;
        if (s->b != s->a && (lo == s->b || hi == s->b)) out[k++] = i * 16 + s->b;
    }
    if (k == 0) out[k++] = RB_PASS;
    return k;
}

/* ``Position.push`` of ``code`` by the mover (player ``p``): ``s`` after it into ``t``. Of two equal ends the tile
 * goes on the first (the plain line's ``equal_end``). */
static void rb_push(const RangeBuild *b, const RbState *s, int32_t code, int p, RbState *t) {
    *t = *s;
    int seat = s->turn;
    t->hist = 1;
    t->last_seat = seat;
    if (code == RB_PASS) {
        t->passes++;
        t->last_tile = 0;
    } else {
        int i = code >> 4, end = code & 15, lo = b->tlow[i], hi = b->thigh[i];
        t->last_tile = 1;
        t->lt = i;
        t->lt_seat = seat;
        t->la = s->a;
        t->lb = s->b;
        if (t->leader < 0) t->leader = seat;
        if (s->a < 0) {
            t->a = lo;
            t->b = hi;
        } else if (end == s->a) {
            t->a = lo == s->a ? hi : lo;
        } else {
            t->b = lo == s->b ? hi : lo;
        }
        t->passes = 0;
        t->played[p] |= 1ULL << i;
    }
    t->turn = 1 - seat;
}

static uint64_t rb_hash(const int32_t *k, int n) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) h = (h ^ (uint32_t)k[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

/* Where the table of ``key`` starts (-1: none yet); with ``add`` >= 0, it is put there (-2: no memory). */
static int64_t rb_table_of(RangeBuild *b, const int32_t *key, int n, int64_t add) {
    if (add >= 0 && 2 * (b->used + 1) > b->nslots) {            /* (grown to hold twice what it holds) */
        int64_t ns = b->nslots ? 2 * b->nslots : 1024, *slots = calloc((size_t)ns * 3, sizeof(int64_t));
        if (slots == NULL) return -2;
        for (int64_t i = 0; i < b->nslots; i++) {
            if (!b->slots[3 * i]) continue;
            const int32_t *k = I32(&b->keys) + b->slots[3 * i] - 1;
            uint64_t j = rb_hash(k, (int)b->slots[3 * i + 1]) & (uint64_t)(ns - 1);
            while (slots[3 * j]) j = (j + 1) & (uint64_t)(ns - 1);
            memcpy(slots + 3 * j, b->slots + 3 * i, 3 * sizeof(int64_t));
        }
        free(b->slots);
        b->slots = slots;
        b->nslots = ns;
    }
    if (!b->nslots) return -1;
    uint64_t j = rb_hash(key, n) & (uint64_t)(b->nslots - 1);
    for (; b->slots[3 * j]; j = (j + 1) & (uint64_t)(b->nslots - 1)) {
        if (b->slots[3 * j + 1] == n && !memcmp(I32(&b->keys) + b->slots[3 * j] - 1, key, (size_t)n * sizeof(int32_t)))
            return b->slots[3 * j + 2];
    }
    if (add < 0) return -1;
    int64_t start = b->keys.n;
    if (rb_extend(b, &b->keys, key, n) < 0) return -2;
    b->slots[3 * j] = start + 1;
    b->slots[3 * j + 1] = n;
    b->slots[3 * j + 2] = add;
    b->used++;
    return add;
}

#define RB_CLASSES 256         /* the most pip classes of a player's hands at a node (``term_class``'s 8 bits; a hand's
                                * pips: 2 * 9 a tile at most, so 14 tiles have at most 253 totals) */

/* Node ``n``'s terminal hands (``ended``, by player) by pip class, and its table of values: the finished hand's facts
 * of the first pair (``ranges.py``'s ``terminal``: the value depends on the hands by their pips alone), one table a
 * set of facts and classes. */
static int rb_terminal(RangeBuild *b, const RbState *s, int32_t n, const int32_t *const ended[2], const int32_t ne[2]) {
    int32_t key[10 + 2 * RB_CLASSES], own[2][RB_CLASSES], nc[2] = {0, 0};
    uint64_t rep[2][RB_CLASSES];
    int first = b->state[RB_FIRST];
    for (int r = 0; r < 2; r++) {
        int32_t gone = rb_pips(b, s->played[r]);
        for (int32_t i = 0; i < ne[r]; i++) {
            int32_t h = ended[r][i], left = b->hpips[r][h] - gone, k = 0;
            while (k < nc[r] && own[r][k] != left) k++;
            if (k == nc[r]) {
                if (k == RB_CLASSES) return KERNEL_ERROR(b, K_VALUE, "more pip classes at a node than the build holds");
                own[r][nc[r]] = left;
                rep[r][nc[r]++] = b->mask[r][h] & ~s->played[r];
            }
            if (rb_put(b, &b->out[r ? RB_TERM_HAND1 : RB_TERM_HAND0], h) < 0
                || rb_put(b, &b->out[r ? RB_TERM_CLASS1 : RB_TERM_CLASS0], k) < 0)
                return -1;
        }
    }
    memcpy(key + 10, own[0], (size_t)nc[0] * sizeof(int32_t));
    memcpy(key + 10 + nc[0], own[1], (size_t)nc[1] * sizeof(int32_t));
    uint64_t hands[LEAF_SEATS] = {0};
    hands[first] = rep[0][0];
    hands[1 - first] = rep[1][0];
    int term, seat;
    if (s->hist && s->last_tile && hands[s->last_seat] == 0) {
        term = 0;
        seat = s->last_seat;
    } else {
        term = 1;
        seat = s->lt_seat >= 0 ? s->lt_seat : s->last_seat;
    }
    int leader = s->leader >= 0 ? s->leader : s->turn;
    int32_t head[10] = {term, seat, __builtin_popcountll(hands[0]), __builtin_popcountll(hands[1]), leader, s->lt,
                        s->la, s->lb, nc[0], nc[1]};
    memcpy(key, head, sizeof(head));
    int len = 10 + nc[0] + nc[1];
    int64_t at = rb_table_of(b, key, len, -1);
    if (at == -1) {
        RbVec *table = &b->out[RB_TABLE];
        at = table->n;
        if (rb_table_of(b, key, len, at) < 0 || rb_grow(table, (int64_t)nc[0] * nc[1]) < 0)
            return KERNEL_ERROR(b, K_MEMORY, "no memory for the range tree");
        int sign = b->state[RB_SIGN];
        for (int32_t x = 0; x < nc[0]; x++)
            for (int32_t y = 0; y < nc[1]; y++) {
                hands[first] = rep[0][x];
                hands[1 - first] = rep[1][y];
                int v = leaf_score(&b->sc, b->tlow, b->thigh, term, seat, leader, hands, s->lt, s->la, s->lb);
                ((double *)table->v)[table->n++] = (double)(sign * v) * b->norm;
            }
    }
    I32(&b->out[RB_TABLE_AT])[n] = (int32_t)at;
    I32(&b->out[RB_WIDTH])[n] = nc[1];
    return 0;
}

/* The bytes the build holds in its arrays as filled (the output, the children, the tables' keys and their hash; a
 * vector's room past what it holds is never written, and the system gives such pages no memory until they are), and
 * the least a run of the tree will add: ``RB_RUN_BYTES`` a legal move. */
static int64_t rb_bytes(const RangeBuild *b) {
    int64_t n = b->kids.n * b->kids.item + b->kid_at.n * b->kid_at.item + b->keys.n * b->keys.item
                + b->nslots * 3 * (int64_t)sizeof(int64_t) + RB_RUN_BYTES * b->legal;
    for (int k = 0; k < RB_ARRAYS; k++) n += b->out[k].n * b->out[k].item;
    return n;
}

#define RB_MOVES 130          /* the most public moves at a node: two a tile of 64 and a pass */

static int32_t rb_node(RangeBuild *b, const RbState *s, const int32_t *const al[2], const int32_t na[2]) {
    if (b->max_nodes >= 0 && b->out[RB_PLAYER].n >= b->max_nodes)
        return KERNEL_ERROR(b, RB_TOO_LONG, "the public tree has more nodes than its cap");
    if ((++b->ticks & 63) == 0) {
        if (b->clock != NULL && b->clock() - b->start > b->budget)
            return KERNEL_ERROR(b, RB_TOO_LONG, "the public tree took longer than its budget to build");
        if (b->max_bytes > 0 && rb_bytes(b) > b->max_bytes) return KERNEL_ERROR(b, K_MEMORY, RB_TOO_LARGE);
    }
    int32_t n = (int32_t)b->out[RB_PLAYER].n;
    int seat = s->turn, p = seat == b->state[RB_FIRST] ? 0 : 1, q = 1 - p;
    if (rb_put(b, &b->out[RB_PLAYER], -1) < 0 || rb_put(b, &b->out[RB_MOVE_AT], (int32_t)b->out[RB_MOVE].n) < 0
        || rb_put(b, &b->out[RB_ISET_AT], (int32_t)b->out[RB_ISET_HAND].n) < 0
        || rb_put(b, &b->out[RB_TABLE_AT], 0) < 0 || rb_put(b, &b->out[RB_WIDTH], 0) < 0
        || rb_put(b, &b->kid_at, 0) < 0 || rb_put(b, &b->kid_at, 0) < 0)
        return -1;
    for (int r = 0; r < 2; r++) {
        RbVec *alive = &b->out[r ? RB_ALIVE1 : RB_ALIVE0];
        if (rb_put(b, &b->out[r ? RB_PLAYED1 : RB_PLAYED0], rb_compress(b, s->played[r])) < 0
            || rb_put(b, &b->out[r ? RB_ALIVE_AT1 : RB_ALIVE_AT0], (int32_t)alive->n) < 0
            || rb_extend(b, alive, al[r], na[r]) < 0
            || rb_put(b, &b->out[r ? RB_TERM_AT1 : RB_TERM_AT0], (int32_t)b->out[r ? RB_TERM_HAND1 : RB_TERM_HAND0].n) < 0)
            return -1;
    }
    uint64_t fit = rb_fit(b, s), gone_p = ~s->played[p], gone_q = ~s->played[q];
    const uint64_t *mp = b->mask[p], *mq = b->mask[q];
    int32_t np = na[p], nq = na[q], M = 2 * b->most + 1, hsize = 16;
    while (hsize < 2 * np) hsize *= 2;
    /* scratch: the other's hands that fit and that do not, and those after a move; each of one's own hands' group, the
     * ended and the going ones; by group, its moves, their public indices, its key (the tiles that fit) and whether
     * it ends the game; the groups by key (hashed); by move, its hands and whether an ending one makes it */
    int32_t *work = malloc(((size_t)3 * nq + 3 * (size_t)np + 2 * (size_t)np * (size_t)(M + 1) + (size_t)hsize + 1)
                           * sizeof(int32_t));
    uint64_t *ckey = malloc(((size_t)np + 1) * sizeof(uint64_t));
    int8_t *cend = malloc((size_t)np + 1);
    int32_t *subs = NULL, result = -1;
    if (work == NULL || ckey == NULL || cend == NULL) {
        (void)KERNEL_ERROR(b, K_MEMORY, "no memory for the range tree");
        goto done;
    }
    int32_t *playing = work, *stuck = playing + nq, *others = stuck + nq, *of_hand = others + nq, *ended = of_hand + np,
            *going = ended + np, *cnm = going + np, *cmoves = cnm + np, *cidx = cmoves + (size_t)np * M,
            *htab = cidx + (size_t)np * (M + 1);
    int32_t nplaying = 0, nstuck = 0, nclass = 0, nended = 0, ngoing = 0, end_with = -1;
    for (int32_t i = 0; i < nq; i++) {
        int32_t o = al[q][i];
        if (mq[o] & gone_q & fit) playing[nplaying++] = o;
        else stuck[nstuck++] = o;
    }
    int nkinds = 0, kind[2];            /* the other's hands' kinds: 2 fitting, 1 not (in that order) */
    if (nplaying) kind[nkinds++] = 2;
    if (nstuck) kind[nkinds++] = 1;
    for (int32_t k = 0; k < hsize; k++) htab[k] = -1;
    for (int32_t i = 0; i < np && nkinds; i++) {
        uint64_t mine = mp[al[p][i]] & gone_p, key = mine & fit;
        uint64_t j = (key * 0x9E3779B97F4A7C15ULL) >> 40 & (uint64_t)(hsize - 1);
        while (htab[j] >= 0 && ckey[htab[j]] != key) j = (j + 1) & (uint64_t)(hsize - 1);
        if (htab[j] < 0) {
            int32_t c = htab[j] = nclass++, got[2][RB_MOVES], cnt[2], over = 0, ngo = 0, at = -1;
            ckey[c] = key;
            for (int k = 0; k < nkinds; k++) {
                uint64_t other = mq[(kind[k] == 2 ? playing : stuck)[0]] & gone_q;
                cnt[k] = rb_legal(b, s, mine, other, got[k]);
                if (cnt[k] < 0) over |= kind[k];
                else if (at < 0) at = k, ngo++;
                else {
                    ngo++;
                    if (cnt[k] != cnt[at] || memcmp(got[k], got[at], (size_t)cnt[k] * sizeof(int32_t))) {
                        (void)KERNEL_ERROR(b, K_VALUE, "a hand's moves depend on the other hand's");
                        goto done;
                    }
                }
            }
            if (ngo < nkinds) {
                if (end_with >= 0 && over != end_with) {
                    (void)KERNEL_ERROR(b, K_VALUE, "the hands that end the game differ in whom they end it with");
                    goto done;
                }
                end_with = over;
            }
            cend[c] = ngo < nkinds;
            cnm[c] = at < 0 ? -1 : cnt[at];
            if (at >= 0) {
                if (cnt[at] > M) {
                    (void)KERNEL_ERROR(b, K_VALUE, "more moves for a hand than its tiles allow");
                    goto done;
                }
                memcpy(cmoves + (size_t)c * M, got[at], (size_t)cnt[at] * sizeof(int32_t));
            }
        }
        int32_t c = htab[j];
        of_hand[i] = c;
        if (cend[c]) ended[nended++] = al[p][i];
        if (cnm[c] >= 0) going[ngoing++] = i;
    }
    if (nended) {
        const int32_t *theirs = end_with == 3 ? al[q] : end_with & 2 ? playing : stuck;
        int32_t nt = end_with == 3 ? nq : end_with & 2 ? nplaying : nstuck;
        const int32_t *lists[2];
        int32_t counts[2];
        lists[p] = ended, counts[p] = nended, lists[q] = theirs, counts[q] = nt;
        if (rb_terminal(b, s, n, lists, counts) < 0) goto done;
    }
    if (!ngoing) {
        result = n;
        goto done;
    }
    int32_t public[RB_MOVES], width = 0;
    for (int32_t c = 0; c < nclass; c++) cidx[(size_t)c * (M + 1)] = 0;
    /* the public moves in the order the groups of the going hands first name them */
    for (int32_t g = 0; g < ngoing; g++) {
        int32_t c = of_hand[going[g]];
        if (cidx[(size_t)c * (M + 1)]) continue;            /* (this group's moves placed already) */
        for (int32_t k = 0; k < cnm[c]; k++) {
            int32_t m = cmoves[(size_t)c * M + k], a = 0;
            while (a < width && public[a] != m) a++;
            if (a == width) {
                if (width == RB_MOVES) {
                    (void)KERNEL_ERROR(b, K_VALUE, "more public moves at a node than the build holds");
                    goto done;
                }
                public[width++] = m;
            }
            cidx[(size_t)c * (M + 1) + 1 + k] = a;
        }
        cidx[(size_t)c * (M + 1)] = 1;
    }
    I32(&b->out[RB_PLAYER])[n] = p;
    if (rb_extend(b, &b->out[RB_MOVE], public, width) < 0) goto done;
    subs = malloc(((size_t)width * (size_t)(ngoing + 1) + 1) * sizeof(int32_t) + (size_t)width + 1);
    if (subs == NULL) {
        (void)KERNEL_ERROR(b, K_MEMORY, "no memory for the range tree");
        goto done;
    }
    int32_t *nsub = subs + (size_t)width * ngoing;
    int8_t *with_ended = (int8_t *)(nsub + width);
    for (int32_t a = 0; a < width; a++) nsub[a] = 0, with_ended[a] = 0;
    RbVec *legal = &b->out[RB_LEGAL];
    for (int32_t g = 0; g < ngoing; g++) {
        int32_t h = al[p][going[g]], c = of_hand[going[g]];
        int64_t bytes = (b->size + width + 7) / 8;         /* (``legal``: a bit a slot, ``CFR_LEGAL``) */
        if (rb_put(b, &b->out[RB_ISET_HAND], h) < 0 || rb_put(b, &b->out[RB_SLOT], (int32_t)b->size) < 0
            || rb_grow(legal, bytes - legal->n) < 0) {
            if (!b->err_kind) (void)KERNEL_ERROR(b, K_MEMORY, "no memory for the range tree");
            goto done;
        }
        uint8_t *bits = legal->v;
        memset(bits + legal->n, 0, (size_t)(bytes - legal->n));
        legal->n = bytes;
        int64_t base = b->size;
        b->size += width;
        b->legal += cnm[c];
        for (int32_t k = 0; k < cnm[c]; k++) {
            int32_t a = cidx[(size_t)c * (M + 1) + 1 + k];
            bits[(base + a) >> 3] |= (uint8_t)(1u << ((base + a) & 7));
            subs[(size_t)a * ngoing + nsub[a]++] = h;
            if (cend[c]) with_ended[a] = 1;
        }
    }
    int32_t kids[RB_MOVES];
    for (int32_t a = 0; a < width; a++) {
        int32_t code = public[a], no = 0;
        const int32_t *theirs;
        if (code != RB_PASS) {
            uint64_t bit = 1ULL << (code >> 4);
            for (int32_t i = 0; i < nq; i++)
                if (!(mq[al[q][i]] & bit)) others[no++] = al[q][i];
            theirs = others;
        } else if (end_with >= 0 && with_ended[a]) {     /* (the hands the game does not end with) */
            theirs = end_with == 3 ? others : end_with & 2 ? stuck : playing;
            no = end_with == 3 ? 0 : end_with & 2 ? nstuck : nplaying;
        } else {
            theirs = al[q];
            no = nq;
        }
        const int32_t *child[2];
        int32_t nchild[2];
        child[p] = subs + (size_t)a * ngoing, nchild[p] = nsub[a], child[q] = theirs, nchild[q] = no;
        RbState t;
        rb_push(b, s, code, p, &t);
        kids[a] = rb_node(b, &t, child, nchild);
        if (kids[a] < 0) goto done;
    }
    I32(&b->kid_at)[2 * n] = (int32_t)b->kids.n;
    I32(&b->kid_at)[2 * n + 1] = width;
    if (rb_extend(b, &b->kids, kids, width) < 0) goto done;
    result = n;
done:
    free(subs);
    free(work);
    free(ckey);
    free(cend);
    return result;
}

int rb_build(RangeBuild *b) {
    const int32_t *st = b->state;
    int max_pip = st[RB_MAX_PIP];
    if (max_pip < 0 || max_pip > 9 || st[RB_FIRST] < 0 || st[RB_FIRST] > 1 || st[RB_TURN] < 0 || st[RB_TURN] > 1
        || (st[RB_END_A] < 0) != (st[RB_END_B] < 0) || st[RB_END_A] > max_pip || st[RB_END_B] > max_pip
        || b->nh[0] < 1 || b->nh[1] < 1 || b->sc.n != 2)
        return KERNEL_ERROR(b, K_VALUE, "not a position of the line game for two the build takes");
    if (b->nh[0] > CFR_HANDS || b->nh[1] > CFR_HANDS)
        return KERNEL_ERROR(b, K_VALUE, "more hands of a player than the tree indexes");
    static const int items[RB_ARRAYS] = {
#define RB_ITEM(k) (RB_ITEMS[k] - '0')
        RB_ITEM(0), RB_ITEM(1), RB_ITEM(2), RB_ITEM(3), RB_ITEM(4), RB_ITEM(5), RB_ITEM(6), RB_ITEM(7), RB_ITEM(8),
        RB_ITEM(9), RB_ITEM(10), RB_ITEM(11), RB_ITEM(12), RB_ITEM(13), RB_ITEM(14), RB_ITEM(15), RB_ITEM(16),
        RB_ITEM(17), RB_ITEM(18), RB_ITEM(19), RB_ITEM(20), RB_ITEM(21), RB_ITEM(22), RB_ITEM(23)};
#undef RB_ITEM
    for (int k = 0; k < RB_ARRAYS; k++) b->out[k].item = items[k];
    b->kids.item = b->kid_at.item = b->keys.item = 4;
    uint64_t doubles;
    memset(b->match, 0, sizeof(b->match));
    kernel_tiles(max_pip, b->tlow, b->thigh, b->tpips, b->match, NULL, &doubles);
    int tiles = (max_pip + 1) * (max_pip + 2) / 2;
    b->every = tiles == 64 ? ~0ULL : (1ULL << tiles) - 1;
    b->opening = (uint64_t)(uint32_t)st[RB_OPENING_LO] | (uint64_t)(uint32_t)st[RB_OPENING_HI] << 32;
    uint64_t all = 0;
    b->most = 0;
    for (int r = 0; r < 2; r++) {
        b->hpips[r] = malloc(sizeof(int32_t) * (size_t)b->nh[r]);
        if (b->hpips[r] == NULL) return KERNEL_ERROR(b, K_MEMORY, "no memory for the range tree");
        for (int32_t h = 0; h < b->nh[r]; h++) {
            uint64_t m = b->mask[r][h];
            if (m & ~b->every) return KERNEL_ERROR(b, K_VALUE, "a hand holds a tile the set has not");
            all |= m;
            b->hpips[r][h] = rb_pips(b, m);
            if (__builtin_popcountll(m) > b->most) b->most = __builtin_popcountll(m);
        }
    }
    int bits = 0;
    for (int i = 0; i < 64; i++) b->place[i] = all >> i & 1 ? (int8_t)bits++ : -1;
    if (bits > 31) return KERNEL_ERROR(b, K_VALUE, "the hands hold more than 31 tiles between them");
    RbState s = {st[RB_TURN], st[RB_END_A], st[RB_END_B], st[RB_PASSES], st[RB_HIST], st[RB_LAST_TILE],
                 st[RB_LAST_SEAT], st[RB_LEADER], st[RB_LT], st[RB_LT_SEAT], st[RB_LT_A], st[RB_LT_B], {0, 0}};
    int32_t *all_hands = malloc(sizeof(int32_t) * ((size_t)b->nh[0] + (size_t)b->nh[1]));
    if (all_hands == NULL) return KERNEL_ERROR(b, K_MEMORY, "no memory for the range tree");
    for (int32_t h = 0; h < b->nh[0]; h++) all_hands[h] = h;
    for (int32_t h = 0; h < b->nh[1]; h++) all_hands[b->nh[0] + h] = h;
    const int32_t *al[2] = {all_hands, all_hands + b->nh[0]};
    b->start = b->clock != NULL ? b->clock() : 0.0;
    int32_t root = rb_node(b, &s, al, b->nh);
    free(all_hands);
    if (root < 0) return b->err_kind;
    int64_t nodes = b->out[RB_PLAYER].n;
    if (rb_put(b, &b->out[RB_ISET_AT], (int32_t)b->out[RB_ISET_HAND].n) < 0
        || rb_put(b, &b->out[RB_MOVE_AT], (int32_t)b->out[RB_MOVE].n) < 0
        || rb_put(b, &b->out[RB_ALIVE_AT0], (int32_t)b->out[RB_ALIVE0].n) < 0
        || rb_put(b, &b->out[RB_ALIVE_AT1], (int32_t)b->out[RB_ALIVE1].n) < 0
        || rb_put(b, &b->out[RB_TERM_AT0], (int32_t)b->out[RB_TERM_HAND0].n) < 0
        || rb_put(b, &b->out[RB_TERM_AT1], (int32_t)b->out[RB_TERM_HAND1].n) < 0
        || rb_grow(&b->out[RB_CHILD_AT], nodes + 1) < 0 || rb_grow(&b->out[RB_CHILD], b->kids.n) < 0)
        return b->err_kind ? b->err_kind : KERNEL_ERROR(b, K_MEMORY, "no memory for the range tree");
    for (int64_t n = 0; n < nodes; n++) {           /* each node's children, in the nodes' order */
        I32(&b->out[RB_CHILD_AT])[n] = (int32_t)b->out[RB_CHILD].n;
        int32_t at = I32(&b->kid_at)[2 * n], count = I32(&b->kid_at)[2 * n + 1];
        memcpy(I32(&b->out[RB_CHILD]) + b->out[RB_CHILD].n, I32(&b->kids) + at, (size_t)count * sizeof(int32_t));
        b->out[RB_CHILD].n += count;
    }
    I32(&b->out[RB_CHILD_AT])[nodes] = (int32_t)b->out[RB_CHILD].n;
    b->out[RB_CHILD_AT].n = nodes + 1;
    return K_OK;
}

void rb_free(RangeBuild *b) {
    for (int k = 0; k < RB_ARRAYS; k++) free(b->out[k].v), b->out[k].v = NULL;
    rb_free_scratch(b);
}

void rb_free_scratch(RangeBuild *b) {
    free(b->kids.v);
    free(b->kid_at.v);
    free(b->keys.v);
    free(b->slots);
    free(b->hpips[0]);
    free(b->hpips[1]);
    b->kids.v = b->kid_at.v = b->keys.v = NULL;
    b->slots = NULL;
    b->hpips[0] = b->hpips[1] = NULL;
}
