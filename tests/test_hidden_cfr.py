"""The public-tree CFR+ solver (analyzer.hidden.cfr) against the sequence-form LP and a brute force.

The brute force (test_hidden's) shares only the rules' moves with the solver: every pure strategy of both
players listed, the matrix game of their expected payoffs solved by a plain LP. The LP (analyzer.hidden.lp) is
the existing exact mode. Every bracket the solver reports must hold the value they find, and close on it."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("scipy")

from analyzer.hidden import build_game, hidden_decision, solve_game  # noqa: E402
from analyzer.hidden.cfr import _CRun, _PyRun, build_tree, cfr_decision, kernel, solve  # noqa: E402
from analyzer.hidden.lp import forced_value  # noqa: E402
from analyzer.tiles import Tile  # noqa: E402
from test_hidden import (BLOCK, PURE_LIMIT, block_deals, infosets, matrix_value, one_hot, play,  # noqa: E402
                         pure_strategies, tiny_games)

ROUNDING = 1e-9          # what floating-point sums may move a certified bound by on these games
COMPILED = [False] + ([True] if kernel() is not None else [])


def small_positions():
    """Block-for-two positions whose every deal the solvers take: 2 tiles a hand of the double-2 and double-3 sets,
    and after a lead of the double-3 and double-4 sets (the other player to move)."""
    return [("2x2", block_deals(2, 2)), ("3x2", block_deals(3, 2)), ("3x2 led", block_deals(3, 2, Tile(3, 3))),
            ("4x2 led", block_deals(4, 2, Tile(1, 1)))]


@pytest.mark.parametrize("compiled", COMPILED)
def test_the_bracket_holds_the_matrix_game_value_of_all_pure_strategies(compiled):
    checked = 0
    for name, deals in tiny_games()[:10 if compiled else 4]:     # (the Python walk: the reference, slower)
        if name == "draw":
            continue
        sets = infosets(deals)
        rows, cols = pure_strategies(sets, 0), pure_strategies(sets, 1)
        if len(rows) * len(cols) > PURE_LIMIT:
            continue
        matrix = [[play(deals, lambda k, m, r=r, c=c: one_hot(r if k[0] == 0 else c)(k, m)) for c in cols]
                  for r in rows]
        exact = matrix_value(matrix)
        tol = 1e-7 if compiled else 1e-4
        got = solve(build_tree(BLOCK, deals, 0), tol=tol, budget=600, compiled=compiled)
        assert got.closed, name
        assert got.lower - ROUNDING <= exact <= got.upper + ROUNDING, name
        assert got.value == pytest.approx(exact, abs=tol)
        checked += 1
    assert checked >= (8 if compiled else 4)


@pytest.mark.parametrize("compiled", COMPILED)
def test_the_bracket_holds_the_lp_value_and_closes_on_it(compiled):
    tol = 1e-6 if compiled else 1e-3
    for name, deals in small_positions()[:4 if compiled else 1]:      # (the Python walk: the reference, slower)
        first = deals[0].turn
        lp = solve_game(build_game(BLOCK, deals, first))
        got = solve(build_tree(BLOCK, deals, first), tol=tol, budget=600, compiled=compiled)
        assert got.closed, name
        assert got.lower - ROUNDING <= lp.value <= got.upper + ROUNDING, name
        assert got.value == pytest.approx(lp.value, abs=tol)


def test_an_open_bracket_still_holds_the_value():
    """Stopped after a few iterations, far from closed, the bracket is wide and holds the value all the same."""
    deals = block_deals(2, 2)
    lp = solve_game(build_game(BLOCK, deals, 0))
    for count in (0, 1, 5, 20):
        got = solve(build_tree(BLOCK, deals, 0), tol=0.0, max_iterations=count, budget=60, every=1)
        assert got.iterations == count and not got.closed
        assert got.lower - ROUNDING <= lp.value <= got.upper + ROUNDING


@pytest.mark.skipif(kernel() is None, reason="the CFR+ kernel is not built")
def test_the_kernel_runs_the_python_walk():
    """Iteration by iteration, the compiled run's brackets, averages and hand values are the Python run's."""
    for name, deals in small_positions()[:1] + small_positions()[2:3]:
        t = build_tree(BLOCK, deals, deals[0].turn)
        forced = (t.find(0, 0), next(a for a in range(t.child_at[1] - t.child_at[0]) if t.legal[t.slot[t.find(0, 0)] + a]))
        for fix in (None, forced):
            py, c = _PyRun(t, fix), _CRun(t, fix, kernel())
            for _ in range(4):
                py.iterate(3)
                c.iterate(3)
                assert c.bracket() == pytest.approx(py.bracket(), abs=1e-12), name
                assert c.average() == pytest.approx(py.average(), rel=1e-12, abs=1e-12)
                assert c.hand_values() == pytest.approx(py.hand_values(), abs=1e-12)


@pytest.mark.slow
@pytest.mark.skipif(kernel() is None, reason="the CFR+ kernel is not built")
def test_each_moves_value_is_the_lps_with_the_movers_choice_fixed():
    for name, deals in small_positions():
        pos = max(deals, key=lambda d: len(d.legal_moves()))       # (a deal with the most moves to choose from)
        mover = pos.turn
        got = cfr_decision(BLOCK, pos, deals, tol=1e-5, budget=600)     # (per deal of his hand: each game value's
        #                                                                   bracket no wider than 1e-5 times its reach)
        game = build_game(BLOCK, deals, mover)
        node = game.infosets[0][game.index[0][(mover, (("hand", pos.hands[mover]),))]] \
            if len(pos.legal_moves()) > 1 else None
        lp = hidden_decision(BLOCK, pos, deals)
        assert got.closed and got.method == "cfr"
        low, up = got.bounds
        assert low - ROUNDING <= lp.value <= up + ROUNDING
        assert got.value == pytest.approx(lp.value, abs=1e-6)
        sign = 1 if mover == 0 else -1
        for (m, low, up), (m2, v) in zip(got.move_bounds, lp.moves):
            assert m == m2
            exact = sign * forced_value(game, node, node.moves.index(m)) if node else lp.value
            assert low - ROUNDING <= exact <= up + ROUNDING, (name, m)
            assert v == pytest.approx(exact, abs=1e-6)
        # no move is worth more than the game to the mover
        assert all(sign * (v - got.value) <= 2e-6 for _, v in got.moves)
        assert sum(p for _, p in got.strategy) == pytest.approx(1.0)


@pytest.mark.skipif(kernel() is None, reason="the CFR+ kernel is not built")
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(2, 12))
def test_any_weighted_set_of_deals_has_its_lp_value_in_the_bracket(seed, count):
    """The public tree takes any set of deals of one moment (not only every deal the record allows), weighted."""
    rng = random.Random(seed)
    deals = rng.sample(block_deals(3, 2, Tile(3, 3)), count)
    weights = [rng.randint(1, 5) for _ in deals]
    lp = solve_game(build_game(BLOCK, deals, 1, weights))
    got = solve(build_tree(BLOCK, deals, 1, weights), tol=1e-7, budget=600)
    assert got.closed
    assert got.lower - ROUNDING <= lp.value <= got.upper + ROUNDING


def test_the_tree_refuses_what_it_does_not_play():
    from analyzer.rules.variants import find_variant
    from test_hidden import draw_deal

    deals = [draw_deal([[Tile(0, 0), Tile(0, 1)], [Tile(1, 1), Tile(1, 2)]], [Tile(0, 2), Tile(2, 2)])]
    with pytest.raises(ValueError, match="block game for two"):
        build_tree(find_variant("draw", {"players": "2"}), deals, 0)
