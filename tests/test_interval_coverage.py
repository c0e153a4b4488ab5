"""The error rate's 95% interval covers (issue 54): over players who err at the bands' rates (0.05, 0.15, 0.35),
archives of one match and of four (36 decisions a match), the interval ``stats`` gives holds the true error rate
(the rate times the mean loss of an error) in 90% to 99% of archives, for an error's loss with a long tail
(geometric) and one mostly small with a few large (``tests/erring_players.py``); never of zero width where a decision was
graded. The normal approximation it replaced (mean +- 1.96 sd / sqrt(n)) does not: it understates a rare erring
player's rate. Deterministic (seeded), no search: the losses are simulated decision by decision."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from erring_players import coverage, mean_error
from analyzer.analysis.luck import BLUNDER_SIZE, ErrorRate, error_size, score_interval
from analyzer.equity.bands import EDGE_RATES, calibration_for

SIZE = calibration_for("partnership.json").error_size        # the partnership's size of an error, 35.8 points
MATCH = 36                                                   # decisions of one player in a match (the issue's)
ARCHIVES = 2000


@pytest.mark.parametrize("model", ["geometric", "split"])
@pytest.mark.parametrize("matches", [1, 4])
@pytest.mark.parametrize("rate", EDGE_RATES)
def test_the_interval_covers_the_true_rate(rate, matches, model):
    found = coverage(rate, MATCH * matches, ARCHIVES, SIZE, model=model)
    assert 0.90 <= found.covered <= 0.99, found
    assert found.zero_width == 0


def test_the_normal_approximation_did_not_cover():
    # the interval before (the issue measured 63%, 86%, 91% for one match): it misses a rare erring player's rate
    found = coverage(0.05, MATCH, ARCHIVES, SIZE, method="normal")
    assert found.covered < 0.80 and found.under > 10 * found.over and found.zero_width > 0


def test_the_models_have_the_size_they_say():
    # the geometric model's size of an error is the one asked for; the split model's, 33.7, near the partnership's
    import random
    rng = random.Random(1)
    from erring_players import error_loss
    for model, size in (("geometric", SIZE), ("split", 33.7)):
        sample = [error_loss(rng, model, SIZE) for _ in range(200_000)]
        assert error_size(sample) == pytest.approx(size, rel=0.03)
        assert sum(sample) / len(sample) == pytest.approx(mean_error(model, SIZE), rel=0.02)


@given(st.integers(2, 400))
def test_no_interval_of_zero_width_where_a_decision_was_graded(n):
    # a player who never lost a point: the interval is 0 to z^2 c / (n + z^2), c the size of an error assumed
    perfect = ErrorRate("x", n, [0.0] * n, SIZE)
    lo, hi = perfect.ci95
    assert lo == 0 and hi == pytest.approx(1.96 ** 2 * SIZE / (n + 1.96 ** 2)) and hi > 0
    # with nothing to say the size of an error, the points scale's blunder threshold
    assert ErrorRate("x", n, [0.0] * n).ci95[1] == pytest.approx(1.96 ** 2 * BLUNDER_SIZE["points"] / (n + 1.96 ** 2))


@given(st.lists(st.integers(0, 60), min_size=2, max_size=200), st.floats(1, 100))
def test_the_interval_holds_the_mean_and_its_ends_are_the_score_equation(losses, size):
    rate = ErrorRate("x", len(losses), [float(x) for x in losses], size)
    lo, hi = rate.ci95
    assert lo <= rate.mean <= hi and hi > lo
    c = max(size, error_size(losses) or 0)
    n, m = len(losses), rate.mean
    for end in (lo, hi):        # each end m' solves (m - m')^2 = z^2 (c m' - m'^2) / n (where not clipped at 0)
        if end > 1e-9:
            assert (m - end) ** 2 == pytest.approx(1.96 ** 2 * (c * end - end * end) / n, rel=1e-6, abs=1e-9)
    assert score_interval(m, n, c) == pytest.approx((lo, hi))
