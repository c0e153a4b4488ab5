"""The fair analysis's early looks (issue 71): where a decision's worlds may grow, it is first looked at with a
quarter of its worlds, then with half, and stops at either only where its best is told apart from every other move
at ``early_z`` (the two looks sharing ``EARLY_ALPHA``). Checked against references that do not use them: every world
enumerated (the rules' own answer where there are few), the same worlds drawn at a fixed number with no look at all,
and the error budget of the looks."""
from __future__ import annotations

import pathlib
from dataclasses import replace
from statistics import NormalDist

import pytest

from analyzer.analysis.fair import FairRun, FairSettings, early_looks, fair_analyze
from analyzer.analysis.fairstats import EARLY_ALPHA, EARLY_LOOKS, early_z, look_z
from analyzer.match import replay_record
from analyzer.notation import read

RECORDS = pathlib.Path(__file__).resolve().parent.parent / "records"
# the commands' shape: 200 worlds first, growing to 800 (the early looks at 50 and 100); every decision sampled
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


def _tail(z: float) -> float:
    """The two-sided tail of the standard normal beyond ``z``: the chance one look at ``z`` sees a gap not there."""
    return 2 * (1 - NormalDist().cdf(z))


def test_the_looks_share_the_five_percent():
    """The early looks share EARLY_ALPHA of the two-sided 5% (Bonferroni); the later looks share the rest: over all
    of them the chances add up to the 5% of one 95% interval."""
    assert _tail(early_z(1)) == pytest.approx(EARLY_ALPHA)
    for early_count in range(1, 4):
        assert early_count * _tail(early_z(early_count)) == pytest.approx(EARLY_ALPHA)
        for count in range(1, 6):
            assert (early_count * _tail(early_z(early_count)) + count * _tail(look_z(count, early=True))
                    == pytest.approx(0.05))
    for count in range(1, 6):
        assert look_z(count, early=True) > look_z(count)          # (each later look a little stricter)
    assert early_z(2) > early_z(1) > look_z(1, early=True)        # (an early look stricter than every later one)


def test_an_early_look_reads_its_few_worlds_with_students_t():
    """An early look's spread is read off few worlds: its bound is Student's t at its share of the 5% (scipy's
    quantile, where scipy is installed, as the reference), wider than the normal one and nearing it as worlds grow."""
    for count in (1, 2):
        bounds = [early_z(count, n) for n in (25, 50, 100, 200, 10_000)]
        assert bounds == sorted(bounds, reverse=True)
        assert bounds[-1] == pytest.approx(early_z(count), abs=2e-3) and bounds[-1] > early_z(count)
    stats = pytest.importorskip("scipy.stats")
    for count in (1, 2, 3):
        for n in (25, 50, 100, 200):
            assert early_z(count, n) == pytest.approx(stats.t.ppf(1 - EARLY_ALPHA / count / 2, n - 1), abs=2e-3)


def test_the_early_looks_are_a_quarter_and_a_half_and_only_where_the_worlds_may_grow():
    assert early_looks(GROWING) == (50, 100)
    assert len(early_looks(GROWING)) == EARLY_LOOKS
    assert early_looks(replace(GROWING, max_worlds=None)) == ()          # no growth: no early look
    assert early_looks(replace(GROWING, max_worlds=200)) == ()
    assert early_looks(replace(GROWING, worlds=100, max_worlds=400)) == (50,)   # (a quarter is under two tasks)
    assert early_looks(replace(GROWING, worlds=60, max_worlds=240)) == ()       # (under two tasks of worlds: none)


def test_a_decision_stops_early_only_with_its_best_told_apart(early):
    stopped = [d for d in early.values() if d.fair.worlds in (50, 100)]
    went_on = [d for d in early.values() if d.fair.worlds > 100]
    assert stopped and went_on                    # (this record shows both paths)
    assert {d.fair.worlds for d in early.values()} <= {50, 100, 200, 400, 800}
    assert all(not d.fair.tied for d in stopped)


def test_a_best_told_apart_early_is_the_best_over_every_world(game, early):
    """Where the worlds a player cannot tell apart are few enough to enumerate, the fair value is exact (every
    deal solved with open hands): a best an early look told apart at 50 or 100 drawn worlds is that best."""
    exact = _verdicts(game, replace(GROWING, seats=("A", "C"), exact_below=2000))
    checked = 0
    for index, d in exact.items():
        if d.fair.method != "exact" or early[index].fair.worlds not in (50, 100):
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


@pytest.mark.parametrize("size", [50, 100])
def test_the_early_worlds_are_the_first_of_the_draw(game, early, size):
    """A decision stopped at an early look stands on the first worlds of its draw: the values are those of the same
    seed drawing that many worlds outright (a move dropped at the first look: over its first 50)."""
    outright = _verdicts(game, replace(GROWING, worlds=size, max_worlds=None))
    stopped = [i for i, d in early.items() if d.fair.worlds == size]
    assert stopped                                  # (this record stops decisions at both)
    for index in stopped:
        for alt, ref in zip(early[index].alternatives, outright[index].alternatives):
            if alt.fair.worlds is None:
                assert alt.fair.values == ref.fair.values
