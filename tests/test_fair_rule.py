"""The decision rule of the fair analysis (issue 54) over synthetic samples and, with fixed seeds, on a record:
which moves are named together as not told apart (``fairstats.tied_moves``) and whether more deals may tell
them apart (``fairstats.worth_more``). Facts of the rule, whatever the values: a move the same as the best in
every deal is never told apart from it; a gap the same in every deal is told apart; the verdict is the same
from either side's view and when every move gains the same in a deal (the gaps are paired deal by deal)."""
from __future__ import annotations

import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.analysis.fairstats import Z95, look_z, needed, tied_moves, worth_more
from analyzer.match import replay_record
from analyzer.notation import read

RECORDS = pathlib.Path(__file__).resolve().parent.parent / "records"
EQUAL = 21          # seed2's step 21: C's [2-4] on the 2 or on the 4, the same value in every deal
CLEAR = 17          # seed1's step 17: C's [3-6] on the 6 against [4-6] on the 6, 20 points on average

values = st.integers(-60, 60)


@st.composite
def tables(draw, moves=st.integers(2, 5)):
    """A table of moves' values (side-0 points) over the same deals, with the best move by the sums."""
    n = draw(st.integers(2, 40))
    count = draw(moves)
    table = {f"m{i}": draw(st.lists(values, min_size=n, max_size=n)) for i in range(count)}
    return table


def _best(table: dict, sign: int):
    return max(table, key=lambda m: sign * sum(table[m]))


@given(tables(), st.sampled_from([1, -1]), st.booleans())
def test_a_twin_of_the_best_is_never_told_apart_from_it(table, sign, exact):
    best = _best(table, sign)
    table = {**table, "twin": list(table[best])}
    tied = tied_moves(table, best, sign, exact, look_z(3))
    assert tied[0] == best and "twin" in tied
    assert not worth_more(table, best, sign, [best, "twin"], look_z(3), 10**9)


@given(tables(), st.sampled_from([1, -1]), st.integers(1, 30))
def test_a_gap_the_same_in_every_deal_is_told_apart(table, sign, gap):
    best = _best(table, sign)
    table = {**table, "worse": [v - sign * gap for v in table[best]]}
    assert "worse" not in tied_moves(table, best, sign, False, look_z(4))
    assert "worse" not in tied_moves(table, best, sign, True)


@given(tables(), st.sampled_from([1, -1]), st.booleans(), st.data())
def test_the_rule_reads_paired_gaps(table, sign, exact, data):
    """The same verdict where every move gains the same in a deal (the deal's luck), and from the other side."""
    best = _best(table, sign)
    n = len(table[best])
    luck = data.draw(st.lists(values, min_size=n, max_size=n))
    shifted = {m: [v + c for v, c in zip(vs, luck)] for m, vs in table.items()}
    mirrored = {m: [-v for v in vs] for m, vs in table.items()}
    tied = tied_moves(table, best, sign, exact)
    assert tied_moves(shifted, best, sign, exact) == tied
    assert tied_moves(mirrored, best, -sign, exact) == tied
    close = tied or [best]
    assert worth_more(shifted, best, sign, close, Z95, 800) == worth_more(table, best, sign, close, Z95, 800) \
        == worth_more(mirrored, best, -sign, close, Z95, 800)


@given(tables(), st.sampled_from([1, -1]))
def test_every_move_left_out_is_told_apart_and_every_one_named_is_not(table, sign):
    best = _best(table, sign)
    z = look_z(3)
    tied = tied_moves(table, best, sign, False, z)
    for move, vs in table.items():
        if move == best:
            continue
        gaps = [sign * (b - v) for b, v in zip(table[best], vs)]
        n, mean = len(gaps), sum(gaps) / len(gaps)
        sd = (sum((g - mean) ** 2 for g in gaps) / (n - 1)) ** 0.5
        apart = mean - z * sd / n ** 0.5 > 1e-9
        assert (move in tied) == (not apart)


@given(st.lists(values, min_size=2, max_size=60), st.integers(2, 5000))
def test_more_deals_are_worth_drawing_only_where_the_budget_may_tell_a_gap(gaps, budget):
    """``needed`` at the optimistic gap: within the budget exactly where ``worth_more`` says so; never for a gap
    of 0 in every deal."""
    table = {"a": [g for g in gaps], "b": [0] * len(gaps)}
    assert worth_more(table, "a", 1, ["a", "b"], Z95, budget) == (needed(gaps, Z95) <= budget)
    if not any(gaps):
        assert needed(gaps, Z95) == float("inf")


def _game(name: str):
    (rep,) = replay_record(read(RECORDS / name))
    return rep


@pytest.mark.parametrize("seed", range(4))
def test_moves_equal_in_every_deal_are_never_best_whatever_the_seed(seed):
    analysis = fair_analyze(_game("seed2.dom"), settings=FairSettings(seats=["C"], worlds=20, max_worlds=160,
                                                                      exact_below=1, seed=seed), run=FairRun(workers=1))
    d = next(d for d in analysis.decisions if d.index == EQUAL and d.fair is not None)
    assert d.fair.method == "sampled" and {"[2-4]@2", "[2-4]@4"} <= set(d.fair.tied)


@pytest.mark.parametrize("seed", range(4))
def test_a_clear_gap_is_told_apart_whatever_the_seed(seed):
    analysis = fair_analyze(_game("seed1.dom"), settings=FairSettings(seats=["C"], worlds=20, max_worlds=160,
                                                                      exact_below=1, seed=seed), run=FairRun(workers=1))
    d = next(d for d in analysis.decisions if d.index == CLEAR and d.fair is not None)
    assert d.fair.best == "[4-6]@6" and d.fair.tied == () and d.fair.verdict == "real"
