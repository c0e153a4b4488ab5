/* The value of a finished hand, computed in C: ``rules.value(HandFacts(...))`` for the rules that
 * ``analyzer/search/scoring.py`` describes (read its docstring and ``rules/policies.py`` first).
 *
 * ``leaf_parse_ints`` reads the flat tuple of ``LeafScoring.ints()`` (the bindings' ``leaf_parse``); ``leaf_score`` gives the value, for
 * side 0 of the search's two sides, of a hand finished by ``seat`` (``term`` 0 domino, 1 blocked)
 * with ``hands`` left (bit masks, bit ``Tile.index``), ``leader`` having led it, the last tile ``last``
 * (its index) played on the open numbers ``a`` and ``b`` (-1: not known; no bonus then). Each step
 * below is the Python policy's, in its order: the block rule (``BlockDecider.decide``), the hand
 * scoring (``PointScoring.score``, or All Fives' ``DifferenceAward.score`` without the points scored
 * during play, which the search adds itself), then ``Variant.value`` or one seat against the rest
 * (``AgainstTheRest.value``). Included by the kernels ``_core_kernel.c``, ``_arms.c`` and ``_draw.c``; no Python in it.
 */
#ifndef DOMINO_LEAF_H
#define DOMINO_LEAF_H

#include "_kernel.h"

#define LEAF_SEATS 4

enum { BY_TEAM, BY_PLAYER, BY_LAST_OR_RIGHT, BY_LAST_OR_LEFT };
enum { TIE_DRAW, TIE_LEADER, TIE_MORE_TILES, TIE_LAST, TIE_LAST_LOSES, TIE_REPLAY, TIE_OWN_PIPS };
enum { COUNT_LOSERS, COUNT_ALL, COUNT_GAME, COUNT_MILO, COUNT_BAD, COUNT_DIFFERENCE, COUNT_BLOCK_DIFFERENCE,
       COUNT_AWARD, COUNT_NOTHING,        /* DifferenceAward with and without the award of a hand */
       COUNT_CHARGED, COUNT_CHARGED_EACH };  /* Kozel's charges, with eggs and without (a fish: each side its own) */
enum { CHUCHAZO_NONE, CHUCHAZO_ANY, CHUCHAZO_ONE_END };

typedef struct {
    int view;           /* -1: side 0 less side 1 of a two-sided variant; else this seat against the rest */
    int sides, by, tie, block_blank, doubles_once;
    int count, divide, blank, capicu, chuchazo, tens, doubled, unit;
    int capicu_double, salida;      /* a capicúa doubles the points (2: a double too); the side that led wins this more */
    int lone_blank;                 /* what a hand holding [0-0] alone counts (Kozel: 10); 0: its pips */
    int n, teams[LEAF_SEATS];
} LeafScoring;

/* The layout of ``LeafScoring.ints()`` (analyzer/search/scoring.py): these fields in this order, then the number
 * of seats, then one side a seat. This list is the one declaration of it: the CPython binding shows it as
 * ``_core.LEAF_FIELDS``, and tests/test_kernel_contract.py checks it against the dataclass's fields. */
#define LEAF_SCORING_FIELDS(X) \
    X(view) X(sides) X(by) X(tie) X(block_blank) X(doubles_once) X(count) X(divide) X(blank) X(capicu) \
    X(chuchazo) X(tens) X(doubled) X(unit) X(capicu_double) X(salida) X(lone_blank)
#define LEAF_ONE(name) + 1
#define LEAF_FIELDS (0 LEAF_SCORING_FIELDS(LEAF_ONE))     /* the ints before the teams */

/* ``LeafScoring.ints()`` (``len`` ints) into ``sc``; -1 when it is not one. */
static inline int leaf_parse_ints(const long *v, int len, LeafScoring *sc) {
    if (len < LEAF_FIELDS + 1 + 2 || len > LEAF_FIELDS + 1 + LEAF_SEATS) return -1;
    int i = 0;
#define LEAF_READ(name) sc->name = (int)v[i++];
    LEAF_SCORING_FIELDS(LEAF_READ)
#undef LEAF_READ
    sc->n = (int)v[LEAF_FIELDS];
    int bad = sc->n != len - LEAF_FIELDS - 1 || sc->view < -1 || sc->view >= sc->n || sc->sides < 2
              || sc->sides > sc->n || (sc->view < 0 && sc->sides != 2) || sc->by < BY_TEAM
              || sc->by > BY_LAST_OR_LEFT || sc->tie < TIE_DRAW || sc->tie > TIE_OWN_PIPS || sc->block_blank < 0
              || sc->count < COUNT_LOSERS || sc->count > COUNT_CHARGED_EACH || sc->divide < 1 || sc->blank < 0
              || sc->lone_blank < 0 || (sc->count >= COUNT_CHARGED && (sc->view >= 0 || sc->sides != 2))
              || sc->capicu < 0 || sc->chuchazo < CHUCHAZO_NONE || sc->chuchazo > CHUCHAZO_ONE_END
              || sc->unit < 1 || sc->capicu_double < 0 || sc->capicu_double > 2 || sc->salida < 0;
    for (int t = 0; t < sc->n && !bad; t++) {
        sc->teams[t] = (int)v[LEAF_FIELDS + 1 + t];
        if (sc->teams[t] < 0 || sc->teams[t] >= sc->sides) bad = 1;
    }
    return bad ? -1 : 0;
}

#define LEAF_NOT_ONE "scoring: not a description of a hand's value (LeafScoring.ints())"

/* ``leaf_parse_ints`` of ``len`` 32-bit ints (the WebAssembly bindings' arrays); -1 when it is not one. */
static inline int leaf_parse_int32(const int *v, int len, LeafScoring *sc) {
    long w[LEAF_FIELDS + 1 + LEAF_SEATS];
    if (len < 0 || len > LEAF_FIELDS + 1 + LEAF_SEATS) return -1;
    for (int i = 0; i < len; i++) w[i] = v[i];
    return leaf_parse_ints(w, len, sc);
}

static inline int leaf_matches(int lo, int hi, int x) { return lo == x || hi == x; }

/* The side with the lowest total, or -1 when two share it. */
static inline int leaf_lowest(const int *totals, int sides) {
    int best = 0, shared = 0;
    for (int i = 1; i < sides; i++) {
        if (totals[i] < totals[best]) { best = i; shared = 0; }
        else if (totals[i] == totals[best]) shared = 1;
    }
    return shared ? -1 : best;
}

/* Divided (``PointScoring._divide``): at least 1 when there was anything to divide. */
static inline int leaf_divide(const LeafScoring *sc, int points) {
    if (sc->divide > 1 && points > 0) {
        int q = points / sc->divide;
        return q > 1 ? q : 1;
    }
    return points;
}

/* The winner of a blocked hand (-1: nobody) and whether a tie rule of a hand that does not count
 * (``*note`` TIE_REPLAY) or of own pips (TIE_OWN_PIPS) decided it: ``BlockDecider.decide``. */
static int leaf_block(const LeafScoring *sc, const uint8_t *tlow, const uint8_t *thigh, const uint64_t *hands,
                      const int *pips, const int *counts, int seat, int leader, int *note) {
    int n = sc->n, p[LEAF_SEATS], totals[LEAF_SEATS] = {0};
    for (int t = 0; t < n; t++) {
        p[t] = pips[t];
        if (sc->block_blank) {
            if (hands[t] & 1) p[t] += sc->block_blank;          /* [0-0] is tile 0 */
        } else if (sc->doubles_once) {
            p[t] = 0;
            for (uint64_t h = hands[t]; h; h &= h - 1) {
                int i = __builtin_ctzll(h);
                p[t] += tlow[i] == thigh[i] ? thigh[i] : tlow[i] + thigh[i];
            }
        }
    }
    *note = TIE_DRAW;
    if (sc->by == BY_PLAYER) {
        int low = p[0], side = -1, one = 1;
        for (int t = 1; t < n; t++) if (p[t] < low) low = p[t];
        for (int t = 0; t < n; t++) {
            if (p[t] != low) continue;
            if (side < 0) side = sc->teams[t];
            else if (side != sc->teams[t]) one = 0;
        }
        if (one) return side;
    } else if (sc->by == BY_LAST_OR_RIGHT || sc->by == BY_LAST_OR_LEFT) {
        /* the player who locked it against the next player, or (left) the one who played before */
        int a = seat, b = (seat + (sc->by == BY_LAST_OR_LEFT ? n - 1 : 1)) % n;
        if (p[a] != p[b]) return sc->teams[p[a] < p[b] ? a : b];
    } else {
        for (int t = 0; t < n; t++) totals[sc->teams[t]] += p[t];
        int w = leaf_lowest(totals, sc->sides);
        if (w >= 0) return w;
    }
    switch (sc->tie) {
    case TIE_LEADER: return sc->teams[leader];
    case TIE_LAST: return sc->teams[seat];
    case TIE_LAST_LOSES: return sc->sides == 2 ? 1 - sc->teams[seat] : -1;
    case TIE_MORE_TILES: {
        int c[LEAF_SEATS] = {0}, w = 0, shared = 0;
        for (int t = 0; t < n; t++) c[sc->teams[t]] += counts[t];
        for (int i = 1; i < sc->sides; i++) {
            if (c[i] > c[w]) { w = i; shared = 0; }
            else if (c[i] == c[w]) shared = 1;
        }
        return shared ? -1 : w;
    }
    case TIE_REPLAY:
    case TIE_OWN_PIPS:
        *note = sc->tie;
        return -1;
    default:
        return -1;
    }
}

/* The bonus for the last tile of a domino (``PointScoring._bonuses``): chuchazo, capicú, dominao. */
static int leaf_bonus(const LeafScoring *sc, int lo, int hi, int a, int b) {
    int both = leaf_matches(lo, hi, a) && leaf_matches(lo, hi, b);
    if (lo == 0 && hi == 0 && sc->chuchazo != CHUCHAZO_NONE)
        return sc->chuchazo == CHUCHAZO_ANY || ((a == 0) != (b == 0)) ? 100 : 0;
    if (!sc->capicu || !both) return 0;
    if (lo != hi || lo != 0) return sc->capicu;      /* capicú, or dominao with a double other than [0-0] */
    return 0;
}

/* Whether the last tile leaves both ends equal (Milo: ``PointScoring._leaves_equal_ends``). */
static int leaf_equal_ends(int lo, int hi, int a, int b) {
    for (int k = 0; k < 2; k++) {
        int end = k ? b : a, other = k ? a : b;
        if (leaf_matches(lo, hi, end) && (lo == end ? hi : lo) == other) return 1;
    }
    return 0;
}

__attribute__((unused)) static int leaf_score(const LeafScoring *sc, const uint8_t *tlow, const uint8_t *thigh, int term, int seat,
                      int leader, const uint64_t *hands, int last, int a, int b) {
    if (sc->count == COUNT_NOTHING) return 0;                   /* no award: only the points during play */
    int n = sc->n, sides = sc->sides;
    int pips[LEAF_SEATS], counts[LEAF_SEATS], sp[LEAF_SEATS], totals[LEAF_SEATS] = {0}, scores[LEAF_SEATS] = {0};
    for (int t = 0; t < n; t++) {
        int p = 0, c = 0, dbl = 0;
        for (uint64_t h = hands[t]; h; h &= h - 1) {
            int i = __builtin_ctzll(h);
            p += tlow[i] + thigh[i];
            dbl |= tlow[i] == thigh[i];
            c++;
        }
        if (sc->lone_blank && hands[t] == 1) p = sc->lone_blank;   /* [0-0] (tile 0) alone: Kozel's remainders */
        pips[t] = p;
        counts[t] = c;
        sp[t] = p + (sc->blank && (hands[t] & 1) ? sc->blank : 0);
        if (sc->doubled && dbl) sp[t] *= 2;
        totals[sc->teams[t]] += sp[t];
    }
    int note = TIE_DRAW;
    int winner = term == 0 ? sc->teams[seat]
                           : leaf_block(sc, tlow, thigh, hands, pips, counts, seat, leader, &note);
    int points = 0, bad = sc->count == COUNT_BAD, void_hand = 0;
    if (sc->count == COUNT_AWARD) {             /* DifferenceAward.award: a tie rule's note gives nothing */
        if (winner >= 0) {
            int best = 0;
            for (int t = n - 1; t >= 0; t--)                     /* the winning side's first seat */
                if (sc->teams[t] == winner) best = pips[t];
            for (int t = 0; t < n; t++) {
                int x = pips[t] - best;                          /* round_up: to the unit above, if above 0 */
                if (sc->teams[t] != winner && x > 0) points += (x + sc->unit - 1) / sc->unit * sc->unit;
            }
            scores[winner] = points;
        }
    } else if (sc->count == COUNT_CHARGED || sc->count == COUNT_CHARGED_EACH) {   /* KozelBlock, KozelScoring */
        bad = 1;                                                 /* (two sides: the loser charged its remainder) */
        if (term == 1) winner = sc->count == COUNT_CHARGED ? leaf_lowest(totals, sides) : -1;
        if (winner >= 0) scores[1 - winner] = totals[1 - winner];
        else if (sc->count == COUNT_CHARGED_EACH) scores[0] = totals[0], scores[1] = totals[1];
    } else if (bad || sc->count == COUNT_DIFFERENCE) {       /* (the block rule's winner and tie note do not count) */
        winner = leaf_lowest(totals, sides);
        int high = totals[0], low = totals[0];
        for (int i = 1; i < sides; i++) {
            if (totals[i] > high) high = totals[i];
            if (totals[i] < low) low = totals[i];
        }
        if (bad) {
            points = winner >= 0 ? high - low : 0;
            for (int i = 0; i < sides; i++) scores[i] = totals[i];
        } else if (winner >= 0) {
            points = scores[winner] = leaf_divide(sc, high - low);
        }
    } else if (note == TIE_OWN_PIPS) {
        for (int i = 0; i < sides; i++) scores[i] = leaf_divide(sc, sc->tens ? totals[i] - totals[i] % 10 : totals[i]);
    } else if (note == TIE_REPLAY) {
        void_hand = 1;                                          /* (no winner: nothing scored) */
    } else if (winner >= 0) {
        int losers = 0, all = 0;
        for (int t = 0; t < n; t++) {
            all += sp[t];
            if (sc->teams[t] != winner) losers += sp[t];
        }
        int lo = last >= 0 ? tlow[last] : -1, hi = last >= 0 ? thigh[last] : -1, known = last >= 0 && a >= 0 && b >= 0;
        switch (sc->count) {
        case COUNT_ALL: points = all; break;
        case COUNT_GAME: points = 1; break;
        case COUNT_MILO: points = term == 0 && known && leaf_equal_ends(lo, hi, a, b) ? 2 : 1; break;
        case COUNT_BLOCK_DIFFERENCE: points = term == 1 ? losers - totals[winner] : losers; break;
        default: points = losers;
        }
        if (sc->tens) points -= ((points % 10) + 10) % 10;          /* Python's modulo: towards minus infinity */
        points = leaf_divide(sc, points);
        /* a capicúa (``policies.capicua``: no double unless capicu_double is 2, fits both ends) doubles the
           points; then the bonuses */
        if (term == 0 && known && sc->capicu_double && (lo != hi || sc->capicu_double == 2)
            && leaf_matches(lo, hi, a) && leaf_matches(lo, hi, b))
            points *= 2;
        if (term == 0 && known) points += leaf_bonus(sc, lo, hi, a, b);
        if (sc->salida && sc->teams[leader] == winner) points += sc->salida;     /* the side that led wins */
        scores[winner] = points;
    }
    if (sc->view < 0) {                                         /* Variant.value: side 0 less side 1 */
        if (void_hand) return 0;                                /* a hand that does not count */
        int v = scores[0] - scores[1];
        return bad ? -v : v;
    }
    int mine = sc->teams[sc->view];                             /* AgainstTheRest.value */
    if (bad) {
        int sum = 0;
        for (int i = 0; i < sides; i++) sum += scores[i];
        return sum - sides * scores[mine];
    }
    if (winner < 0) return 0;
    return winner == mine ? points : -points;
}

#endif
