"""The fair analysis's early look (issue 71): where a decision's worlds may grow, it is first looked at with half
its worlds, and stops there only where its best is told apart from every other move at ``Z_EARLY``. Checked
against references that do not use it: every world enumerated (the rules' own answer where there are few), the
same worlds drawn at a fixed number with no look at all, and the error budget of the looks."""
from __future__ import annotations

import pathlib
from dataclasses import replace
from statistics import NormalDist

import pytest

from analyzer.analysis.fair import FairRun, FairSettings, early_look, fair_analyze
from analyzer.analysis.fairstats import EARLY_ALPHA, Z_EARLY, look_z
from analyzer.match import replay_record
from analyzer.notation import read

RECORDS = pathlib.Path(__file__).resolve().parent.parent / "records"
# the commands' shape: 200 worlds first, growing to 800 (the early look at 100); every decision sampled
GROWING = FairSettings(seats=("A", "C", "D"), worlds=200, max_worlds=800, exact_below=1, seed=7)


@pytest.fixture(scope="module")
def game():
    (rep,) = replay_record(read(RECORDS / "seed2.dom"))
    return rep


def _verdicts(rep, settings) -> dict:
    analysis = fair_analyze(rep, settings=settings, run=FairRun(workers=1))
    return {d.index: d for d in analysis.decisions if d.fair is not None}


@pytest.fixture(scope="module")
def early(game):
    return _verdicts(game, GROWING)


def test_the_looks_share_the_five_percent():
    """The early look spends EARLY_ALPHA of the two-sided 5%; the later looks share the rest (Bonferroni)."""
    tail = lambda z: 2 * (1 - NormalDist().cdf(z))                                  # noqa: E731
    assert tail(Z_EARLY) == pytest.approx(EARLY_ALPHA)
    for count in range(1, 6):
        assert EARLY_ALPHA + count * tail(look_z(count, early=True)) == pytest.approx(0.05)
        assert look_z(count, early=True) > look_z(count)          # (each later look a little stricter)


def test_the_early_look_is_half_the_worlds_and_only_where_they_may_grow():
    assert early_look(GROWING) == 100
    assert early_look(replace(GROWING, max_worlds=None)) is None        # no growth: no early look
    assert early_look(replace(GROWING, max_worlds=200)) is None
    assert early_look(replace(GROWING, worlds=60, max_worlds=240)) is None   # (under two tasks of worlds: none)


def test_a_decision_stops_early_only_with_its_best_told_apart(early):
    stopped = [d for d in early.values() if d.fair.worlds == 100]
    went_on = [d for d in early.values() if d.fair.worlds > 100]
    assert stopped and went_on                    # (this record shows both paths)
    assert all(not d.fair.tied for d in stopped)


def test_a_best_told_apart_early_is_the_best_over_every_world(game, early):
    """Where the worlds a player cannot tell apart are few enough to enumerate, the fair value is exact (every
    deal solved with open hands): a best the early look told apart at 100 drawn worlds is that best."""
    exact = _verdicts(game, replace(GROWING, seats=("A", "C"), exact_below=2000))
    checked = 0
    for index, d in exact.items():
        if d.fair.method != "exact" or early[index].fair.worlds != 100:
            continue
        assert not d.fair.tied
        assert early[index].fair.best == d.fair.best
        checked += 1
    assert checked >= 2


def test_the_early_look_never_contradicts_a_fixed_draw(game, early):
    """Against the same seed at a fixed 200 worlds (no look, no growth): neither names a best the other leaves
    out of its verdict (the team's rule for fair verdicts)."""
    fixed = _verdicts(game, replace(GROWING, max_worlds=None))
    assert fixed.keys() == early.keys()
    for index, d in early.items():
        other = fixed[index].fair
        assert d.fair.best in {other.best, *other.tied}
        assert other.best in {d.fair.best, *d.fair.tied}


def test_the_early_worlds_are_the_first_of_the_draw(game, early):
    """A decision stopped at the early look stands on the first 100 worlds of its draw: the values are those of
    the same seed drawing 100 worlds outright."""
    hundred = _verdicts(game, replace(GROWING, worlds=100, max_worlds=None))
    stopped = [i for i, d in early.items() if d.fair.worlds == 100]
    for index in stopped:
        assert [a.fair.values for a in early[index].alternatives] == \
               [a.fair.values for a in hundred[index].alternatives]
