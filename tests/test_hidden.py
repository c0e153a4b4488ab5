"""The exact hidden-information solver (analyzer.hidden) against a brute force on tiny games.

The brute force shares only the rules' moves with the solver: it walks every deal with ``legal_moves``,
``push`` and ``pop``, keys each decision by what its player has seen (his seat, his hand at the deal, every
move, the other player's drawn tiles hidden), lists every pure strategy of both players, and solves the
matrix game of their expected payoffs with a plain LP (scipy's HiGHS on the matrix, not the sequence form)."""
from __future__ import annotations

import itertools
import random

import pytest

pytest.importorskip("scipy")
from scipy.optimize import linprog  # noqa: E402

from analyzer.hidden import behaviour, best_response, build_game, hidden_decision, side0_value, solve_game  # noqa: E402
from analyzer.position import mask_of  # noqa: E402
from analyzer.rules.mechanics import position_for  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402
from analyzer.search import TreeSearch, revealed  # noqa: E402
from analyzer.tiles import Move, Tile, tile_set  # noqa: E402

BLOCK = find_variant("block", {"players": "2"})
DRAW = find_variant("draw", {"players": "2"})
PURE_LIMIT = 3000


def block_deals(max_pip: int, size: int, lead: Tile | None = None) -> list:
    """Every deal of ``size`` tiles a player from the double-``max_pip`` set (seat 0 holding and having led
    ``lead``; the rest sleepers)."""
    tiles = [t for t in tile_set(max_pip) if t != lead]
    out = []
    for a in itertools.combinations(tiles, size):
        rest = [t for t in tiles if t not in a]
        for b in itertools.combinations(rest, size):
            pos = position_for(BLOCK, [list(a) + ([lead] if lead else []), list(b)], 0, max_pip=max_pip)
            if lead is not None:
                pos.push(Move(lead, None))
            out.append(pos)
    return out


def draw_deal(hands, yard, max_pip: int = 2):
    pos = position_for(DRAW, hands, 0, max_pip=max_pip)
    pos.pool, pos.stock, pos.keep = mask_of(yard), len(yard), 0
    return revealed(pos, list(yard))


# -- the brute force ------------------------------------------------------------------------------------
def infosets(deals):
    """Every decision with a choice, keyed by what its player has seen: key -> its moves."""
    found: dict = {}

    def walk(pos, seen):
        moves = pos.legal_moves()
        if not moves:
            return
        seat = pos.turn
        if len(moves) > 1:
            found.setdefault((seat, tuple(seen[seat])), moves)
        for move in moves:
            pos.push(move)
            for s in (0, 1):
                seen[s].append((seat, move) if s == seat or not move.draw else (seat, "draw"))
            walk(pos, seen)
            for s in (0, 1):
                seen[s].pop()
            pos.pop()

    for pos in deals:
        walk(pos.copy(), [[("hand", pos.hands[0])], [("hand", pos.hands[1])]])
    return found


def play(deals, choose, rules=BLOCK) -> float:
    """The mean side-0 value over ``deals`` when ``choose(key, moves)`` gives each move's probability."""
    total = 0.0

    def walk(pos, seen, p):
        nonlocal total
        moves = pos.legal_moves()
        if not moves:
            total += p * side0_value(rules, pos)
            return
        seat = pos.turn
        probs = choose((seat, tuple(seen[seat])), moves) if len(moves) > 1 else [1.0]
        for move, q in zip(moves, probs):
            if q <= 0:
                continue
            pos.push(move)
            for s in (0, 1):
                seen[s].append((seat, move) if s == seat or not move.draw else (seat, "draw"))
            walk(pos, seen, p * q)
            for s in (0, 1):
                seen[s].pop()
            pos.pop()

    for pos in deals:
        walk(pos.copy(), [[("hand", pos.hands[0])], [("hand", pos.hands[1])]], 1.0 / len(deals))
    return total


def pure_strategies(sets: dict, seat: int) -> list[dict]:
    mine = [(k, len(m)) for k, m in sets.items() if k[0] == seat]
    return [dict(zip((k for k, _ in mine), pick)) for pick in itertools.product(*(range(n) for _, n in mine))]


def one_hot(strategy: dict):
    def choose(key, moves):
        k = strategy.get(key)
        return [1.0] * len(moves) if k is None else [1.0 if i == k else 0.0 for i in range(len(moves))]
    return choose


def matrix_value(matrix: list[list[float]]) -> float:
    """The value of the matrix game (row player maximises), by the textbook LP."""
    rows, cols = len(matrix), len(matrix[0])
    cost = [0.0] * rows + [-1.0]
    a_ub = [[-matrix[i][j] for i in range(rows)] + [1.0] for j in range(cols)]
    res = linprog(cost, A_ub=a_ub, b_ub=[0.0] * cols, A_eq=[[1.0] * rows + [0.0]], b_eq=[1.0],
                  bounds=[(0, None)] * rows + [(None, None)], method="highs")
    assert res.status == 0
    return -res.fun


def tiny_games():
    """Small sets of deals of block and draw games, each few enough pure strategies to list."""
    rng = random.Random(53)
    games = []
    every = block_deals(2, 2)
    while len(games) < 6:
        deals = rng.sample(every, rng.randint(2, 4))
        games.append(("block", deals))
    three = block_deals(3, 2, Tile(3, 3))
    while len(games) < 10:
        games.append(("block led", rng.sample(three, rng.randint(2, 3))))
    tiles = list(tile_set(2))
    while len(games) < 14:
        deals = []
        for _ in range(rng.randint(2, 3)):
            rng.shuffle(tiles)
            deals.append(draw_deal([tiles[0:2], tiles[2:4]], tiles[4:6]))
        games.append(("draw", deals))
    return games


def test_the_sequence_form_value_equals_the_matrix_game_of_all_pure_strategies():
    checked = 0
    for name, deals in tiny_games():
        sets = infosets(deals)
        rows, cols = pure_strategies(sets, 0), pure_strategies(sets, 1)
        if len(rows) * len(cols) > PURE_LIMIT:
            continue
        rules = BLOCK if name != "draw" else DRAW
        matrix = [[play(deals, lambda k, m, r=r, c=c: one_hot(r if k[0] == 0 else c)(k, m), rules) for c in cols]
                  for r in rows]
        solved = solve_game(build_game(rules, deals, 0))
        assert solved.value == pytest.approx(matrix_value(matrix), abs=1e-7), name
        assert solved.dual == pytest.approx(solved.value, abs=1e-7)
        checked += 1
    assert checked >= 8


def test_no_player_gains_by_deviating_from_the_solvers_strategy():
    checked = 0
    for name, deals in tiny_games():
        rules = BLOCK if name != "draw" else DRAW
        game = build_game(rules, deals, 0)
        solved = solve_game(game)
        sets = infosets(deals)

        def mixed(player):
            def choose(key, moves):
                node = game.infosets[player][game.index[player][key]]
                assert node.moves == moves
                return behaviour(node, solved.plans[player])
            return choose

        for seat in (0, 1):
            other = 1 - seat
            pure = pure_strategies(sets, other)
            if len(pure) > PURE_LIMIT:
                continue
            answers = [play(deals, lambda k, m, s=s: (mixed(seat) if k[0] == seat else one_hot(s))(k, m), rules)
                       for s in pure]
            best = min(answers) if other == 1 else max(answers)
            assert best == pytest.approx(solved.value, abs=1e-7), (name, seat)
            assert best_response(game, solved.plans[seat], seat) == pytest.approx(best, abs=1e-7)
            checked += 1
    assert checked >= 16


def test_with_every_hand_known_the_value_is_the_open_hands_search_value():
    rng = random.Random(7)
    for _ in range(12):
        tiles = list(tile_set(6))
        rng.shuffle(tiles)
        size = rng.randint(2, 4)
        pos = position_for(BLOCK, [tiles[:size], tiles[size:2 * size]], 0)
        if rng.random() < 0.5:
            pos.push(pos.legal_moves()[0])
        got = hidden_decision(BLOCK, pos, [pos])
        assert got.value == pytest.approx(TreeSearch(BLOCK).solve(pos), abs=1e-7)
        assert dict(got.moves) == pytest.approx(dict(TreeSearch(BLOCK).values(pos)), abs=1e-7)


def test_the_decision_names_every_legal_move_and_a_strategy_that_sums_to_one():
    deals = block_deals(2, 3)            # no sleepers: each player's hand tells him the other's
    pos = deals[0]
    got = hidden_decision(BLOCK, pos, deals)
    assert [m for m, _ in got.moves] == pos.legal_moves()
    assert sum(p for _, p in got.strategy) == pytest.approx(1.0)
    assert max(v for _, v in got.moves) <= got.value + 1e-7
    # no sleepers: the mover's hand fixes the other's, so his own decision is one of perfect information
    assert max(v for _, v in got.moves) == pytest.approx(got.value, abs=1e-7)
    open_values = dict(TreeSearch(BLOCK).values(pos))
    best_open = max(open_values.values())
    played = [m for m, p in got.strategy if p > 1e-9]
    assert all(open_values[m] == best_open for m in played)


def test_the_public_deals_of_a_record_hold_the_actual_one_and_share_what_is_public():
    from pathlib import Path

    from analyzer.hidden import TooLarge, public_deals, within_bound
    from analyzer.match import replay_record
    from analyzer.notation import read

    (rep, *_) = replay_record(read(Path(__file__).resolve().parents[1] / "records" / "openspiel-block7-3.dom"))
    with pytest.raises(TooLarge):           # 14 sleepers: early on, far too many deals
        public_deals(rep, 4)
    seen = 13
    actual = rep.position_at(seen)
    deals = public_deals(rep, seen)
    assert within_bound(actual, len(deals))
    assert any(d.hands == actual.hands for d in deals)
    assert all((d.ends, d.turn, d.count(0), d.count(1)) == (actual.ends, actual.turn, actual.count(0),
                                                           actual.count(1)) for d in deals)
    got = hidden_decision(rep.variant, actual, deals)
    assert [m for m, _ in got.moves] == actual.legal_moves()
    assert sum(p for _, p in got.strategy) == pytest.approx(1.0)


def test_a_draw_game_with_every_hand_and_the_boneyard_known_has_the_open_hands_value():
    rng = random.Random(11)
    for _ in range(8):
        tiles = list(tile_set(6))
        rng.shuffle(tiles)
        size, yard = rng.randint(2, 3), rng.randint(1, 3)
        pos = draw_deal([tiles[:size], tiles[size:2 * size]], tiles[2 * size:2 * size + yard], max_pip=6)
        pos.push(pos.legal_moves()[0])
        got = hidden_decision(DRAW, pos, [pos])
        assert got.value == pytest.approx(TreeSearch(DRAW).solve(pos), abs=1e-7)
        assert dict(got.moves) == pytest.approx(dict(TreeSearch(DRAW).values(pos)), abs=1e-7)
        assert got.hand_value == pytest.approx(got.value, abs=1e-7)      # one deal: the mover's hand is all of it
        assert dict(got.hand_values()) == pytest.approx(dict(TreeSearch(DRAW).values(pos)), abs=1e-7)


def test_the_hand_values_of_the_movers_hands_weighed_by_their_deals_make_the_game_value():
    """Split by the mover's hand at the root, the optimal strategies' payoff adds up to the game value: the
    part of each hand (its ``hand_value`` times its ``reach``, read off the same solved game) sums to it."""
    for name, deals in tiny_games():
        rules = BLOCK if name != "draw" else DRAW
        pos = deals[0]
        mover = pos.turn
        game = build_game(rules, deals, mover)
        solved = solve_game(game)
        x, y = solved.plans
        parts = [sum(x[a] * y[b] * w for (a, b), w in part.items()) for part in game.by_hand.values()]
        assert sum(parts) == pytest.approx(solved.value, abs=1e-7), name
        got = hidden_decision(rules, pos, deals)
        assert got.hand_value * got.reach * (1 if mover == 0 else -1) == pytest.approx(
            parts[list(game.by_hand).index(pos.hands[mover])], abs=1e-6)


def test_each_moves_value_equals_the_matrix_game_with_the_movers_choice_fixed():
    """A move's value is the game value when the mover's actual decision plays it: the brute force's matrix
    game keeping only the mover's pure strategies that play it there."""
    checked = 0
    for name, deals in tiny_games():
        rules = BLOCK if name != "draw" else DRAW
        pos = deals[0]
        if len(pos.legal_moves()) < 2:
            continue
        mover = pos.turn
        sets = infosets(deals)
        rows, cols = pure_strategies(sets, mover), pure_strategies(sets, 1 - mover)
        if len(rows) * len(cols) > PURE_LIMIT:
            continue
        got = hidden_decision(rules, pos, deals)
        here = (mover, (("hand", pos.hands[mover]),))
        sign = 1 if mover == 0 else -1
        for k, (move, value) in enumerate(got.moves):
            kept = [r for r in rows if r[here] == k]
            matrix = [[sign * play(deals, lambda key, m, r=r, c=c: one_hot(r if key[0] == mover else c)(key, m), rules)
                       for c in cols] for r in kept]
            assert sign * value == pytest.approx(matrix_value(matrix), abs=1e-7), (name, move)
        checked += 1
    assert checked >= 5
