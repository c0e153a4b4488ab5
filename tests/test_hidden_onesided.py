"""The one-sided partnership bound (analyzer.hidden.onesided) against a brute force on tiny deals.

The brute force shares only the rules' moves with the search: it walks every deal with ``legal_moves``, ``push``
and ``pop``, keys each decision of the mover's side by its seat, its hand and every move since, lists every
joint pure strategy of the side (a move at each such decision with a choice), plays each against the opponents'
minimax in every deal and takes the best mean."""
from __future__ import annotations

import itertools
import random

import pytest

from analyzer.hidden import TooLarge, mover_deals, one_sided_decision, side0_value, within_one_sided_bound
from analyzer.generate import random_game
from analyzer.replay import replay
from analyzer.rules.mechanics import position_for
from analyzer.rules.variants import find_variant
from analyzer.search import TreeSearch
from analyzer.tiles import Move, tile_set

PARTNERSHIP = find_variant("partnership", {})


def tiny_deals(seed: int, count: int, mover_tiles: int = 2, max_pip: int = 3, mover: int = 0, others: int = 1
               ) -> list:
    """``count`` random deals of the double-``max_pip`` set after the lead of the seat before ``mover``: the
    mover holds the same ``mover_tiles`` tiles in each, the other seats ``others`` tiles each, the rest out of
    play."""
    rng = random.Random(seed)
    tiles = tile_set(max_pip)
    lead = rng.choice(tiles)
    rest = [t for t in tiles if t != lead]
    fits = [t for t in rest if {t.low, t.high} & {lead.low, lead.high}]
    mine = rng.sample(fits, 2)          # (two tiles that fit the lead: he has a choice, mostly)
    mine += rng.sample([t for t in rest if t not in mine], mover_tiles - 2)
    unseen = [t for t in rest if t not in mine]
    splits = set()
    for _ in range(count * 20):
        drawn = rng.sample(unseen, 3 * others)
        splits.add(tuple(frozenset(drawn[i * others:(i + 1) * others]) for i in range(3)))
        if len(splits) == count:
            break
    out = []
    leader = (mover + 3) % 4
    for a, b, c in sorted(splits, key=lambda x: [sorted(h) for h in x]):
        hands = [None] * 4
        hands[mover], hands[(mover + 1) % 4], hands[(mover + 2) % 4] = mine, list(a), list(b)
        hands[leader] = [lead, *c]
        pos = position_for(PARTNERSHIP, hands, leader, max_pip=max_pip)
        pos.push(Move(lead, None))
        out.append(pos)
    return out


# -- the brute force ------------------------------------------------------------------------------------
def side_of(deals) -> tuple[int, int]:
    """The mover and his partner."""
    return tuple(sorted((deals[0].turn, (deals[0].turn + 2) % 4)))


def side_choices(deals, seats=None) -> dict:
    """Every decision of the side with a choice (of the players ``seats`` where given), keyed by (seat, his hand at
    the start, the moves since): its moves."""
    found: dict = {}
    side = side_of(deals) if seats is None else tuple(seats)

    def walk(pos, hands, seen):
        moves = pos.legal_moves()
        if not moves:
            return
        seat = pos.turn
        if seat in side and len(moves) > 1:
            found.setdefault((seat, hands[seat], tuple(seen)), moves)
        for move in moves:
            pos.push(move)
            seen.append(move)
            walk(pos, hands, seen)
            seen.pop()
            pos.pop()

    for pos in deals:
        walk(pos.copy(), list(pos.hands), [])
    return found


def minimax(pos, hands, seen, strategy, side) -> int:
    """The value of ``pos`` for ``side``: it plays ``strategy`` (key -> move), the opponents minimise."""
    moves = pos.legal_moves()
    if not moves:
        return side0_value(PARTNERSHIP, pos) * (1 if 0 in side else -1)
    seat = pos.turn
    if seat in side and len(moves) > 1:
        moves = [strategy[(seat, hands[seat], tuple(seen))]]
    values = []
    for move in moves:
        pos.push(move)
        seen.append(move)
        values.append(minimax(pos, hands, seen, strategy, side))
        seen.pop()
        pos.pop()
    return min(values) if seat not in side else values[0]


def brute_force(deals) -> dict:
    """Each legal move of the mover: the best mean over ``deals`` of a joint pure strategy playing it (for side
    0)."""
    sets = side_choices(deals)
    keys = list(sets)
    side = side_of(deals)
    mover = deals[0].turn
    root = (mover, deals[0].hands[mover], ())
    best: dict = {}
    for pick in itertools.product(*(sets[k] for k in keys)):
        strategy = dict(zip(keys, pick))
        mean = sum(minimax(d.copy(), list(d.hands), [], strategy, side) for d in deals) / len(deals)
        first = strategy.get(root, deals[0].legal_moves()[0])
        best[first] = max(best.get(first, mean), mean)
    sign = 1 if 0 in side else -1
    return {m: sign * v for m, v in best.items()}


def open_values(deals) -> dict:
    """Each move's mean open-hands value over ``deals`` (the fair analysis's, every deal solved)."""
    search = TreeSearch(PARTNERSHIP)
    sums: dict = {}
    for d in deals:
        for m, v in search.values(d.copy()):
            sums[m] = sums.get(m, 0) + v / len(deals)
    return sums


# -- the facts ---------------------------------------------------------------------------------------------
#: (deals, seed) of tiny games where what the side cannot see costs it (the brute force's value of some move
#: below its open-hands value), found by trying seeds: most tiny games have none
HIDDEN_MATTERS = [(8, 28), (8, 173), (8, 207)]


def _checkable(count: int, seed: int) -> bool:
    """Whether the tiny game of ``seed`` has a choice at the decision and few enough strategies for the brute force."""
    deals = tiny_deals(seed, count, mover=seed % 4, max_pip=4, others=2)
    return len(deals[0].legal_moves()) >= 2 and len(side_choices(deals)) <= 11


def check_against_brute_force(count: int, seed: int):
    deals = tiny_deals(seed, count, mover=seed % 4, max_pip=4, others=2)
    assert _checkable(count, seed)
    got = one_sided_decision(PARTNERSHIP, deals[0], deals)
    want = brute_force(deals)
    assert dict(got.moves) == pytest.approx(want, abs=1e-9)
    best = max if got.side == 0 else min            # (values for side 0)
    assert got.value == pytest.approx(best(want.values()), abs=1e-9)
    return deals, want


@pytest.mark.parametrize("seed", [seed for seed in range(24) if _checkable(5, seed)][:16])
def test_bound_equals_the_brute_force(seed):
    check_against_brute_force(5, seed)


@pytest.mark.parametrize("count, seed", HIDDEN_MATTERS)
def test_bound_equals_the_brute_force_where_hidden_tiles_cost(count, seed):
    """Games where the brute force's bound is below the open-hands value: the search is no open-hands search."""
    deals, want = check_against_brute_force(count, seed)
    sign = 1 if deals[0].turn in (0, 2) else -1
    fair = open_values(deals)
    assert any(sign * (fair[m] - v) > 1e-6 for m, v in want.items())


def test_some_tiny_deals_have_strategies_to_choose_from():
    """The brute force is not checked on trivial games only: some deals give the side several decisions."""
    counts = [len(side_choices(tiny_deals(seed, 5, mover=seed % 4, max_pip=4, others=2))) for seed in range(16)]
    assert sum(4 <= c <= 11 for c in counts) >= 4


@pytest.mark.parametrize("seed", range(8))
def test_one_deal_gives_the_open_hands_value(seed):
    """With one deal nothing is hidden from the side: the bound is the exact search's open-hands value."""
    deal = tiny_deals(seed, 1, mover_tiles=3, max_pip=4)
    got = one_sided_decision(PARTNERSHIP, deal[0], deal)
    assert dict(got.moves) == pytest.approx(open_values(deal), abs=1e-9)


@pytest.mark.parametrize("seed", range(8))
def test_bound_is_at_most_the_fair_value(seed):
    """The opponents know more and the side less than with every hand open: no move's bound exceeds its fair
    value (side 0 is the mover's side here)."""
    deals = tiny_deals(seed, 40, mover_tiles=3, max_pip=4)
    got = dict(one_sided_decision(PARTNERSHIP, deals[0], deals).moves)
    fair = open_values(deals)
    assert all(got[m] <= fair[m] + 1e-9 for m in fair)


@pytest.mark.parametrize("seed", range(4))
def test_values_are_for_side_0_when_side_1_moves(seed):
    """Seat 1 to move: his side's bound is at most its fair value, so for side 0 it is at least."""
    deals = tiny_deals(seed, 40, mover_tiles=3, max_pip=4, mover=1)
    got = one_sided_decision(PARTNERSHIP, deals[0], deals)
    assert got.side == 1
    fair = open_values(deals)
    assert all(v >= fair[m] - 1e-9 for m, v in got.moves)
    assert all(got.loss(m) >= 0 for m, _ in got.moves) and min(got.loss(m) for m, _ in got.moves) == 0


def test_deals_not_of_the_movers_hand_are_refused():
    deals = tiny_deals(1, 4)
    other = deals[1].copy()
    other.hands[0] = deals[0].hands[1]
    with pytest.raises(ValueError, match="mover his hand"):
        one_sided_decision(PARTNERSHIP, deals[0], [deals[0], other])


def test_a_real_games_deals_are_the_movers_worlds():
    """A random partnership game's late decision: every deal gives the mover his hand and keeps what is
    public, and the actual deal is one of them; the bound is within the size bound there."""
    rep = next(r for r in (replay(random_game(PARTNERSHIP, 53 + g)) for g in range(20))
               if all(r.position_at(len(r.steps) - 3).count(s) <= 2 for s in range(4)))
    k = next(k for k in range(len(rep.steps)) if all(rep.position_at(k).count(s) <= 2 for s in range(4)))
    actual = rep.position_at(k)
    deals = mover_deals(rep, k)
    assert actual.hands in [d.hands for d in deals]
    assert all(d.hands[actual.turn] == actual.hands[actual.turn] and d.ends == actual.ends and d.turn == actual.turn
               for d in deals)
    assert within_one_sided_bound(actual, len(deals))
    with pytest.raises(TooLarge):
        mover_deals(rep, k, limit=len(deals) - 1)
