"""How often the error rate's 95% interval (``luck.ErrorRate.ci95``) holds the true error rate: players who err at
a known rate, simulated decision by decision (no search), over archives of a given size. Simulation for the
coverage test and ``bench/bench_intervals.py`` only, so it lives beside the tests, not in the library.

**The players**: at each decision with a choice a player errs with probability ``rate`` (the bands' policies:
0.05, 0.15, 0.35), else his loss is 0. **An error's loss** (whole points, at least 1) follows one of two models,
both skewed: ``geometric`` (1, 2, 3... points, each less likely than the last by the same factor: the long tail
of an exponential), with the size of an error (``luck.error_size``: weighted by its size) ``size``; ``split``
(most errors small, a few large: 2 points four times in five, 40 points once in five; its size 33.7, near the
partnership's 35.8). **The true error rate** is ``rate`` times the mean loss of an error, exactly. Each archive is
``decisions`` decisions of one player (36 a match); its interval is the one ``stats`` gives (``method="score"``,
the size of an error assumed at least ``size``, as the variant's calibration gives it) or, to compare, the
normal approximation it replaced (``"normal"``: mean +- 1.96 standard deviations over the root of n).
``bench/bench_intervals.py`` prints the table; tests/test_interval_coverage.py holds the coverage to 90-99%."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from analyzer.analysis.luck import ErrorRate

__all__ = ["MODELS", "Coverage", "error_loss", "mean_error", "coverage", "normal_interval"]

MODELS = ("geometric", "split")
_SPLIT = ((2, 0.8), (40, 0.2))


def _geometric_q(size: float) -> float:
    """The chance ``q`` of the geometric loss (1, 2, ...: ``P(k) = q (1-q)^(k-1)``) whose size of an error
    (``E[S^2] / E[S] = (2 - q) / q``) is ``size``."""
    return 2 / (size + 1)


def error_loss(rng: random.Random, model: str, size: float) -> int:
    """One error's loss in points under ``model``."""
    if model == "split":
        return _SPLIT[0][0] if rng.random() < _SPLIT[0][1] else _SPLIT[1][0]
    q = _geometric_q(size)
    return 1 + int(math.log(1.0 - rng.random()) / math.log(1 - q))


def mean_error(model: str, size: float) -> float:
    """The mean loss of an error under ``model``, exactly."""
    if model == "split":
        return sum(loss * p for loss, p in _SPLIT)
    return 1 / _geometric_q(size)


def normal_interval(losses: list[float]) -> tuple[float, float]:
    """The interval ``stats`` gave before: mean +- 1.96 standard deviations over the root of n (at least 0)."""
    n = len(losses)
    m = sum(losses) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in losses) / (n - 1))
    return max(0.0, m - 1.96 * sd / math.sqrt(n)), m + 1.96 * sd / math.sqrt(n)


@dataclass(frozen=True)
class Coverage:
    """Of ``archives`` simulated archives: the share whose interval holds the true rate, how many intervals had
    zero width, and how many missed it above (the interval below the true rate) and below."""

    rate: float
    decisions: int
    archives: int
    covered: float
    zero_width: int
    under: int               # the interval below the true rate: it understates the error rate
    over: int


def coverage(rate: float, decisions: int, archives: int, size: float, *, model: str = "geometric",
             method: str = "score", seed: int = 0) -> Coverage:
    """The coverage of the 95% interval of a player erring at ``rate`` over ``decisions`` decisions, over
    ``archives`` archives (seeded: the same arguments give the same answer); ``size``: the size of an error the
    interval assumes at least (and the geometric model's own)."""
    rng = random.Random(f"{seed}:{rate}:{decisions}:{model}")
    truth = rate * mean_error(model, size)
    hit = zero = under = over = 0
    for _ in range(archives):
        losses = [float(error_loss(rng, model, size)) if rng.random() < rate else 0.0 for _ in range(decisions)]
        lo, hi = normal_interval(losses) if method == "normal" else ErrorRate("", len(losses), losses, size).ci95
        hit += lo <= truth <= hi
        zero += hi == lo
        under += hi < truth
        over += lo > truth
    return Coverage(rate, decisions, archives, hit / archives, zero, under, over)
