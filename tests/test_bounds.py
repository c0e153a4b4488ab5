"""Proven bounds past the node limit: a decision whose exact search needs more positions than the limit
allows gives each move its exact value or the bounds the search proved with its own null-window probes
(``SearchLimit.bounds``, ``Alternative.bounds``), and names a best move only where its bound proves it.

The truth is the exact analysis with no limit worth the name (the cores agree with each other and with
plain minimax: tests/test_core.py, test_arms_core.py, test_draw_core.py); every bound given under a small
limit must hold it, in every family and on both cores."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

import analyzer.search.core as core
from analyzer.analysis import Alternative, Decision, analyze_replay
from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.render.text import analysis_text
from analyzer.search import SearchLimit, Solver, TreeSearch
from analyzer.search.alphabeta import INF, Proven, bound_moves, proven_best
from analyzer.codec import from_data, to_data
from conftest import RECORDS
from analyzer.analysis import AnalysisSettings
from analyzer.search.core import SearchBudget

compiled = pytest.mark.skipif(core.compiled_core() is None or core.arms_core() is None or core.draw_core() is None,
                              reason="the compiled cores were not built (no C compiler)")
CORES = [pytest.param("compiled", marks=compiled), "python"]

# (record, game, node limits): a partnership block game, a two-player block game, the cross and French (arms),
# a draw game in the order the record reveals, a cut-throat draw game and Chiva (one against the rest)
FAMILIES = [("seed2.dom", 0, (200, 2000)), ("match-jamaican.dom", 1, (200,)), ("variant-cross.dom", 0, (200, 2000)),
            ("variant-french.dom", 0, (200, 1000)), ("variant-draw.dom", 0, (200, 2000)),
            ("variant-cutthroat-draw.dom", 0, (200,)), ("variant-chiva-3.dom", 0, (200, 2000))]

_TRUTH: dict = {}


def _replay(record: str, game: int):
    return list(replay_record(read(RECORDS / record)))[game]


def _truth(record: str, game: int):
    """The exact analysis of the record (on the compiled cores where built: the same values either way)."""
    if (record, game) not in _TRUTH:
        _TRUTH[record, game] = analyze_replay(_replay(record, game), AnalysisSettings(budget=SearchBudget(10**12)))
    return _TRUTH[record, game]


@pytest.fixture
def on_core(monkeypatch):
    def use(name: str) -> None:
        for attr in ("CORE", "ARMS_CORE", "DRAW_CORE"):
            monkeypatch.setattr(core, attr, name)
    return use


def _holds(low, high, value) -> bool:
    return (low is None or low <= value) and (high is None or value <= high)


@pytest.mark.slow
@pytest.mark.parametrize("core_name", CORES)
@pytest.mark.parametrize("record,game,limits", FAMILIES)
def test_every_bound_holds_the_exact_value_and_a_best_named_is_the_exact_best(record, game, limits, core_name,
                                                                                on_core):
    truth = {d.index: d for d in _truth(record, game).decisions}
    on_core(core_name)
    rep = _replay(record, game)
    bounded = proven = 0
    for limit in limits:
        part = analyze_replay(rep, AnalysisSettings(budget=SearchBudget(limit)))
        for d in part.decisions:
            t = truth[d.index]
            assert [a.move for a in d.alternatives] == [a.move for a in t.alternatives]
            for a, exact in zip(d.alternatives, t.alternatives):
                assert a.value is None or a.value == exact.value, (limit, d.index, a.move)
                low, high = a.bounds or (None, None)
                assert _holds(low, high, exact.value), (limit, d.index, a.move, a.bounds, exact.value)
                assert a.bounds is None or a.value is None
                assert not a.best or exact.best, (limit, d.index, a.move)   # a best named is an exact best
                bounded += a.bounds is not None
            assert d.best_value is None or d.best_value == t.best_value
            assert d.loss is None or (d.loss, d.cls) == (t.loss, t.cls)
            assert d.least_loss is None or d.least_loss <= t.loss
            proven += bool(d.unsolved and any(a.best for a in d.alternatives))
    assert bounded > 0          # (the limits are small enough to stop searches in every family)
    if record not in ("variant-cross.dom", "variant-french.dom", "match-jamaican.dom", "variant-chiva-3.dom"):
        assert proven > 0       # and large enough that some bounds prove the best move


def _positions(record: str, game: int = 0):
    rep = _replay(record, game)
    pos, out = rep.initial.copy(), []
    for step in rep.steps[:rep.legal_prefix]:
        if pos.outcome() is not None:
            break
        if len(pos.legal_moves()) > 1:
            out.append(pos.copy())
        pos.push(step.move)
    return rep, out


@pytest.mark.parametrize("core_name", CORES)
@pytest.mark.parametrize("record,searcher", [("seed2.dom", Solver), ("variant-cross.dom", TreeSearch)])
def test_the_searches_bound_every_move_from_their_own_probes(record, searcher, core_name):
    """``SearchLimit.bounds``: every legal move, in order, with bounds that hold its exact value; the
    moves valued before the limit exact; the bounds found within as many positions again."""
    rep, positions = _positions(record)
    stopped = 0
    for pos in positions[:6]:
        exact = dict(searcher(rep.variant, node_limit=10**12).values(pos))     # (the default core: the same values)
        for limit in (50, 500, 5000):
            search = searcher(rep.variant, node_limit=limit, core=core_name)
            try:
                search.values(pos)
                continue
            except SearchLimit as exc:
                found = exc
            stopped += 1
            assert [m for m, _, _ in found.bounds] == pos.legal_moves()
            assert all(_holds(lo, hi, exact[m]) for m, lo, hi in found.bounds)
            assert all((m, v, v) in found.bounds for m, v in found.partial)
            assert search.nodes <= 2 * limit + 3
            maximise = rep.variant.seating.teams[pos.turn] == 0
            best = (max if maximise else min)(exact.values())
            assert all(exact[m] == best for m in proven_best(found.bounds, maximise))
    assert stopped > 3


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-60, 60), min_size=2, max_size=7), st.booleans(), st.integers(0, 3000),
       st.randoms(use_true_random=False), st.integers(-60, 60), st.sampled_from([None, 60, 75]))
def test_bounds_from_any_fail_soft_answers_hold_the_values(values, maximise, budget, rnd, guess, most):
    """Whatever fail-soft answers the probes give (any value the window allows: the exact one, a bound
    anywhere beyond the test point) and wherever they run out of positions, every bound holds the value and
    a move proven best is a best one."""
    moves = list(range(len(values)))
    known = {m: v for m, v in enumerate(values) if rnd.random() < 0.3}

    def probe(move, alpha, beta, share):
        if rnd.random() < 0.2:
            return None, share + 1
        v = values[move]
        return (rnd.randint(beta, max(beta, v)) if v >= beta else rnd.randint(min(alpha, v), alpha)), \
            rnd.randint(1, max(1, share))

    # what an interrupted MTD(f) proved of one move: any interval around its value (+-INF open)
    started = {m: (rnd.choice([-INF, v - rnd.randint(0, 9)]), rnd.choice([INF, v + rnd.randint(0, 9)]))
               for m, v in enumerate(values) if m not in known and rnd.random() < 0.3}
    bounds = bound_moves(moves, probe, maximise, budget, Proven(known, started, most, guess))
    assert [m for m, _, _ in bounds] == moves
    for m, lo, hi in bounds:
        assert _holds(lo, hi, values[m])
        assert most is None or (lo is not None and hi is not None and -most <= lo <= hi <= most)
        if m in known:
            assert lo == hi == known[m]
    best = (max if maximise else min)(values)
    assert all(values[m] == best for m in proven_best(bounds, maximise))


def test_with_exact_probes_and_room_enough_every_value_is_found():
    values = [3, -7, 12, 12, 0]

    def probe(move, alpha, beta, share):
        return values[move], 1

    for maximise in (True, False):
        bounds = bound_moves(range(5), probe, maximise, 1000)
        assert [(lo, hi) for _, lo, hi in bounds] == [(v, v) for v in values]
        assert proven_best(bounds, maximise) == ([2, 3] if maximise else [1])


def test_a_move_is_proven_best_only_when_its_bound_dominates():
    assert proven_best([("a", 10, None), ("b", None, 10), ("c", 3, 3)], True) == ["a"]
    assert proven_best([("a", 10, None), ("b", None, 11)], True) == []
    assert proven_best([("a", None, -4), ("b", -4, 20)], False) == ["a"]
    assert proven_best([("a", None, None), ("b", 1, 1)], False) == []
    assert INF > 10**6


def test_json_has_the_bounds_beside_a_null_value_and_exact_values_unchanged():
    d = Decision(3, "B", 1, 4, 2, None, "[1-3]", 11, [
        Alternative("[1-3]", 11, True, True), Alternative("[1-1]", None, False, False, bounds=[12, None]),
        Alternative("[2-5]", None, False, False, bounds=[11, 12]), Alternative("[2-6]", None, False, False)],
        11, 0, None, unsolved=3)
    data = json.loads(json.dumps(to_data(d)))
    assert data["alternatives"][0] == {"move": "[1-3]", "value": 11, "best": True, "played": True}
    assert data["alternatives"][1] == {"move": "[1-1]", "value": None, "best": False, "played": False,
                                       "bounds": [12, None]}
    assert data["alternatives"][2]["bounds"] == [11, 12] and "bounds" not in data["alternatives"][3]
    assert from_data(Decision, data) == d
    # side 1 minimises: the move played (+11) is at least 0 from the best, and nothing proves more
    assert d.least_loss == 0


def test_the_least_loss_comes_from_the_bounds():
    alts = [Alternative("a", None, False, True, bounds=[None, 5]), Alternative("b", None, False, False,
                                                                             bounds=[9, None])]
    assert Decision(0, "A", 0, 1, 1, None, "a", None, alts, None, None, None, unsolved=2).least_loss == 4
    alts = [Alternative("a", None, False, True, bounds=[8, None]), Alternative("b", None, False, False,
                                                                             bounds=[None, 2])]
    assert Decision(0, "B", 1, 1, 1, None, "a", None, alts, None, None, None, unsolved=2).least_loss == 6
    alts = [Alternative("a", None, False, True, bounds=[8, None]), Alternative("b", 3, False, False)]
    assert Decision(0, "A", 0, 1, 1, None, "a", None, alts, None, None, None, unsolved=1).least_loss is None


def test_the_text_marks_which_values_are_bounds():
    rep = _replay("variant-cross.dom", 0)
    text = analysis_text(1, analyze_replay(rep, AnalysisSettings(budget=SearchBudget(20_000))))
    assert "moves not valued exactly (the node limit)" in text
    assert ">= +" in text or "<= " in text or ", +" in text
    exact = analysis_text(1, _truth("variant-cross.dom", 0))
    assert "not valued" not in exact and ">=" not in exact
