"""The partnership bracket (analyzer.hidden.team) against brute forces on tiny public games.

A tiny public game: a double-four set, one tile led by the seat before the mover, then a few deals of the same
unseen tiles into four hands (the mover 2 tiles, the others 1 or 2; the rest sleep), the mover's hand differing
between deals, so each player's information is his own hand and the moves. The brute forces share only the rules'
moves with the searches: they walk every deal with ``legal_moves``, ``push`` and ``pop``, key a decision by its
seat, his hand at the start and the moves since, and list every pure plan of each side (a move at each of its
decisions with a choice)."""
from __future__ import annotations

import itertools
import random

import pytest
from test_hidden import matrix_value
from test_hidden_onesided import PARTNERSHIP, brute_force, open_values, side_choices, tiny_deals

from analyzer.generate import random_game
from analyzer.hidden import (TEAM_DEALS, TooLarge, one_sided_decision, side0_value, team_deals, team_decision,
                             within_team_bound)
from analyzer.replay import replay
from analyzer.rules.mechanics import position_for
from analyzer.rules.variants import find_variant
from analyzer.search import TreeSearch
from analyzer.tiles import Move, tile_set


def public_game(seed: int, count: int, sizes=(2, 1, 1, 1), pool: int = 6, max_pip: int = 4) -> list:
    """``count`` deals of the same ``pool`` unseen tiles after a lead: the first the actual one (the mover with two
    tiles fitting the lead, so a choice), the others random splits of the pool into hands of ``sizes`` (the
    mover's first, then the seats after him), the pool's rest asleep. The mover is seat ``seed % 4``."""
    rng = random.Random(seed)
    mover = seed % 4
    tiles = tile_set(max_pip)
    lead = rng.choice(tiles)
    rest = [t for t in tiles if t != lead]
    fits = [t for t in rest if {t.low, t.high} & {lead.low, lead.high}]
    mine = rng.sample(fits, sizes[0])
    others = rng.sample([t for t in rest if t not in mine], pool - sizes[0])
    unseen = mine + others

    def split(order):
        hands, at = [], 0
        for n in sizes:
            hands.append(frozenset(order[at:at + n]))
            at += n
        return tuple(hands)

    found = [split(unseen)]
    for _ in range(count * 50):
        if len(found) == count:
            break
        shuffled = rng.sample(unseen, len(unseen))
        deal = split(shuffled)
        if deal not in found:
            found.append(deal)
    out = []
    leader = (mover + 3) % 4
    for deal in found:
        hands = [None] * 4
        for i, hand in enumerate(deal):
            hands[(mover + i) % 4] = sorted(hand)
        hands[leader] = [lead, *hands[leader]]
        pos = position_for(PARTNERSHIP, hands, leader, max_pip=max_pip)
        pos.push(Move(lead, None))
        out.append(pos)
    return out


# -- the brute forces --------------------------------------------------------------------------------------
def choices(deals) -> dict:
    """Every decision with a choice, of any seat, keyed by (seat, his hand at the start, the moves since): its
    moves."""
    return side_choices(deals, range(4))


def plans(sets: dict, seats) -> list[dict]:
    """Every pure plan of the players ``seats``: a move at each of their decisions."""
    keys = [k for k in sets if k[0] in seats]
    return [dict(zip(keys, pick)) for pick in itertools.product(*(sets[k] for k in keys))]


def play(pos, hands, seen, plan) -> int:
    """The value for side 0 of ``pos`` with every decision played by ``plan``."""
    moves = pos.legal_moves()
    if not moves:
        return side0_value(PARTNERSHIP, pos)
    move = moves[0] if len(moves) == 1 else plan[(pos.turn, hands[pos.turn], tuple(seen))]
    pos.push(move)
    seen.append(move)
    try:
        return play(pos, hands, seen, plan)
    finally:
        seen.pop()
        pos.pop()


def answer(pos, hands, seen, plan, seats, sign) -> int:
    """The value for side 0 of ``pos``, the players ``seats`` playing ``plan``, the others choosing every move with
    open hands to make ``sign`` times it as large as they can."""
    moves = pos.legal_moves()
    if not moves:
        return side0_value(PARTNERSHIP, pos)
    key = (pos.turn, hands[pos.turn], tuple(seen))
    if pos.turn in seats and len(moves) > 1:
        moves = [plan[key]]
    elif key in plan:                   # (the mover's decision held to a move)
        moves = [plan[key]]
    values = []
    for move in moves:
        pos.push(move)
        seen.append(move)
        values.append(answer(pos, hands, seen, plan, seats, sign))
        seen.pop()
        pos.pop()
    return (max if sign == 1 else min)(values)


def sides(deals) -> tuple[tuple[int, int], tuple[int, int]]:
    mover = deals[0].turn
    return (mover, (mover + 2) % 4), ((mover + 1) % 4, (mover + 3) % 4)


def true_game(deals) -> dict:
    """Each move m of the mover's actual hand: the true game's pure maxmin and minmax (each side by its own
    information, as plans of its players) and its value with the sides' plans mixed (the matrix game), with his
    decision held to m; all for the mover's side."""
    ours, theirs = sides(deals)
    sets = choices(deals)
    root = (deals[0].turn, deals[0].hands[deals[0].turn], ())
    sign = 1 if ours[0] % 2 == 0 else -1
    mine, other = plans(sets, ours), plans(sets, theirs)
    matrix = [[sum(sign * play(d.copy(), list(d.hands), [], {**a, **b}) for d in deals) / len(deals) for b in other]
              for a in mine]
    out = {}
    for move in [*deals[0].legal_moves(), None]:          # (None: his decision free)
        rows = [row for a, row in zip(mine, matrix) if move is None or a.get(root, move) == move]
        maxmin = max(min(row) for row in rows)
        minmax = min(max(row[j] for row in rows) for j in range(len(other)))
        out[move] = (maxmin, matrix_value(rows), minmax)
    return out


def open_plans(deals, seats, held) -> float:
    """The best for the players ``seats`` of a pure plan of theirs, the others answering each deal with open
    hands, the mover's actual decision held to ``held``; for side 0."""
    sets = choices(deals)
    mover = deals[0].turn
    root = (mover, deals[0].hands[mover], ())
    sign = 1 if seats[0] % 2 == 0 else -1
    best = None
    for plan in plans({k: v for k, v in sets.items() if k != root}, seats):
        plan[root] = held
        mean = sum(answer(d.copy(), list(d.hands), [], plan, seats, -sign) for d in deals) / len(deals)
        best = mean if best is None else (max if sign == 1 else min)(best, mean)
    return best


#: (sizes, pool, count) of the tiny games: the first often leaves the opponents one plan and the bracket open,
#: the second gives both sides several plans
SHAPES = [((2, 1, 2, 1), 7, 8), ((2, 2, 1, 2), 8, 8)]


def open_held(deals) -> dict:
    """Each move m of the mover's actual hand: the public game's mean open-hands value (every deal solved with every
    hand open) with his hand held to m where he holds it, for side 0."""
    search = TreeSearch(PARTNERSHIP)
    mover = deals[0].turn
    best = max if mover % 2 == 0 else min
    out = {m: 0.0 for m in deals[0].legal_moves()}
    for d in deals:
        values = dict(search.values(d.copy()))
        for m in out:
            out[m] += (values[m] if d.hands[mover] == deals[0].hands[mover] else best(values.values())) / len(deals)
    return out


def _small(shape, seed: int) -> bool:
    sizes, pool, count = shape
    deals = public_game(seed, count, sizes, pool)
    sets = choices(deals)
    ours, theirs = sides(deals)
    return (len(deals[0].legal_moves()) >= 2 and len(deals) == count
            and len(plans(sets, ours)) * len(plans(sets, theirs)) <= 2048)


GAMES = [(shape, seed) for shape in SHAPES for seed in [s for s in range(30) if _small(shape, s)][:7]]


def game(shape, seed) -> list:
    sizes, pool, count = shape
    return public_game(seed, count, sizes, pool)


# -- the facts ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape, seed", GAMES)
def test_the_true_games_values_lie_in_every_moves_bracket(shape, seed):
    """The true game's pure maxmin and minmax and its mixed value (each side by its own information) lie within
    each move's bracket; each bound equals the brute force of its own definition."""
    deals = game(shape, seed)
    got = team_decision(PARTNERSHIP, deals[0], deals)
    sign = 1 if got.side == 0 else -1
    truth = true_game(deals)
    ours, theirs = sides(deals)
    for move, lo, up in [*got.moves, (None, *got.bounds)]:
        low, high = sorted((sign * lo, sign * up))
        maxmin, value, minmax = truth[move]
        assert low - 1e-9 <= maxmin <= value + 1e-7 and value <= minmax + 1e-7 and minmax <= high + 1e-9
        if move is None:        # (the side's best pure plan plays some move; holding a move can only lower U)
            assert low == pytest.approx(max(sorted((sign * lo, sign * up))[0] for _, lo, up in got.moves))
            assert high >= max(sorted((sign * lo, sign * up))[1] for _, lo, up in got.moves) - 1e-9
            continue
        assert low == pytest.approx(sign * open_plans(deals, ours, move), abs=1e-9)
        assert high == pytest.approx(sign * open_plans(deals, theirs, move), abs=1e-9)


@pytest.mark.parametrize("shape, seed", GAMES)
def test_the_open_hands_value_lies_in_every_moves_bracket_too(shape, seed):
    """Each bound's answering side has every hand open, so the public game's open-hands value (the mover's hand held
    to the move) lies in the bracket as well: a move told apart from another is ahead of it by the fair value over
    every deal too (the bracket confirms that order, it cannot overturn it)."""
    deals = game(shape, seed)
    got = team_decision(PARTNERSHIP, deals[0], deals)
    fair = open_held(deals)
    assert all(lo - 1e-9 <= fair[m] <= up + 1e-9 for m, lo, up in got.moves)
    sign = 1 if got.side == 0 else -1
    best = got.best()
    assert best is None or all(sign * (fair[best] - fair[m]) > 0 for m in fair if m != best)


def test_some_tiny_games_are_not_trivial():
    """The brute forces are not checked on trivial games only: some have several decisions on each side, and in
    some the bracket is wider than a point (hidden hands matter) yet tells a move apart in others."""
    games = [game(shape, seed) for shape, seed in GAMES]
    assert len(games) == 14
    assert sum(min(len(plans(choices(d), s)) for s in sides(d)) >= 8 for d in games) >= 4
    got = [team_decision(PARTNERSHIP, d[0], d) for d in games]
    assert any(any(up - lo > 1e-6 for _, lo, up in g.moves) for g in got)
    assert any(g.best() is not None for g in got)


@pytest.mark.parametrize("seed", range(6))
def test_one_public_deal_gives_the_open_hands_value(seed):
    """With every hand known to all (one public deal) each move's bracket closes on its open-hands value."""
    deal = tiny_deals(seed, 1, mover_tiles=3, max_pip=4, mover=seed % 4)
    got = team_decision(PARTNERSHIP, deal[0], deal)
    fair = open_values(deal)
    assert {m: (lo, up) for m, lo, up in got.moves} == {m: pytest.approx((v, v), abs=1e-9) for m, v in fair.items()}
    assert got.reach == 1 and all(got.loss(m)[0] == pytest.approx(got.loss(m)[1]) for m in fair)


@pytest.mark.parametrize("seed", [3, 7, 11, 28])
def test_where_the_movers_hand_is_public_the_lower_bound_is_the_one_sided_bound(seed):
    """Every deal giving the mover his hand (the mover's deals are the public ones): each move's lower bound is
    the one-sided bound (the same definition) and its upper bound is no lower."""
    deals = tiny_deals(seed, 8, mover=seed % 4, max_pip=4, others=2)
    got = team_decision(PARTNERSHIP, deals[0], deals)
    one = dict(one_sided_decision(PARTNERSHIP, deals[0], deals).moves)
    sign = 1 if got.side == 0 else -1
    for move, lo, up in got.moves:
        mine = sorted((sign * lo, sign * up))
        assert mine[0] == pytest.approx(sign * one[move], abs=1e-9)
        assert mine[1] >= mine[0] - 1e-9


def test_the_one_sided_brute_force_is_the_lower_bound_on_public_deals():
    """The one-sided brute force's definition over the public deals (the side's pure plans, open-handed
    opponents), its first move the mover's at his actual hand, gives each move's lower bound."""
    deals = game(*GAMES[0])
    got = team_decision(PARTNERSHIP, deals[0], deals)
    want = brute_force(deals)
    side0 = {m: (lo if got.side == 0 else up) for m, lo, up in got.moves}
    assert side0 == pytest.approx(want, abs=1e-9)


def test_a_bracket_that_tells_the_best_apart_gives_it_no_certain_loss():
    """Where a move's bracket lies above every other's it is the best; the others' losses are certainly positive
    and every loss bracket is ordered."""
    for shape, seed in GAMES:
        deals = game(shape, seed)
        got = team_decision(PARTNERSHIP, deals[0], deals)
        best = got.best()
        for move, _, _ in got.moves:
            low, high = got.loss(move)
            assert 0 <= low <= high + 1e-9
            if best is not None and move != best:
                assert got.worse(move, best) and low > 0


@pytest.mark.parametrize("decide", [team_decision, one_sided_decision], ids=["bracket", "one-sided"])
def test_two_player_games_are_refused(decide):
    block = find_variant("block", {"players": "2"})
    pos = position_for(block, [tile_set(2)[:3], tile_set(2)[3:6]], 0, max_pip=2)
    with pytest.raises(ValueError, match="partnership"):
        decide(block, pos, [pos])


def test_a_real_games_public_deals_hold_the_actual_one_and_the_bound_refuses_past_its_limit():
    """A random partnership game's late decision: the public deals hold the actual deal, share what is public and
    give the mover other hands too; past the limit they are refused (TooLarge)."""
    def small(g):
        rep = replay(random_game(PARTNERSHIP, 85 + g))
        for k in range(len(rep.steps)):
            pos = rep.position_at(k)
            if all(pos.count(s) <= 2 for s in range(4)) and len(pos.legal_moves()) >= 2:
                try:
                    return rep, k, team_deals(rep, k)
                except TooLarge:
                    return None
        return None

    rep, k, deals = next(found for found in map(small, range(40)) if found and len(found[2]) > 20)
    actual = rep.position_at(k)
    assert actual.hands in [d.hands for d in deals]
    assert all(d.ends == actual.ends and d.turn == actual.turn for d in deals)
    assert len({d.hands[actual.turn] for d in deals}) > 1
    assert len(deals) <= TEAM_DEALS and within_team_bound(actual, len(deals))
    with pytest.raises(TooLarge):
        team_deals(rep, k, limit=len(deals) - 1)
    got = team_decision(PARTNERSHIP, actual, deals)
    assert all(lo <= up + 1e-9 for _, lo, up in got.moves)
