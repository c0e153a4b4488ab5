"""The statistics of the fair analysis: its thresholds, an alternative's value over the worlds (mean,
interval, spread), the verdict on a move played and whether the fair best is told apart from the rest.

**Told apart.** The fair best (the greatest mean over the shared worlds) is *told apart* from another
move when the gap between them is significant: exact when every world was solved (the mean gap above 0),
else the lower end of the interval of the mean paired gap above 0, over the worlds both were valued in.
The moves the best is not told apart from are named with it (:func:`tied_moves`): the analysis then says
they are not told apart, never which is best.

**Adaptive sampling.** Where a decision is sampled and its best is not told apart, more worlds are drawn,
the number doubling from ``worlds`` until it is told apart or ``max_worlds`` is reached (:func:`looks`).
Every look at the data is a chance to declare a gap that is not there, so the looks share the error: each
of the ``L`` looks a decision may take tests at level 5%/``L`` (Bonferroni over the looks: whatever the
data, the chance that any look finds a gap above 0 where there is none stays within the 2.5% of one
95% interval's lower end), the interval's ``z`` from
:func:`look_z` (1.96 for one look, 2.39 for three, 2.50 for four). A bound that is the same at every look
(Pocock's shape) rather than one strict early and lax late (O'Brien-Fleming's): a clear best is told apart
at the first look, which is where most of them are, and a union bound needs no assumption on how the
looks' statistics are correlated. The same ``z`` judges the move played (a *real* mistake), since it too
is read at the look the sampling stopped at. Sampling also stops early where more worlds would not tell the
best apart from any close move within the budget (:func:`worth_more`, :func:`needed`): for each move not told
apart, the worlds its gap would need at the spread seen so far and at a gap one standard error above the mean
seen, ``(z * sd / (mean + se))**2``, exceed ``max_worlds``, or it came to the same as the best in every world
drawn (such as one tile on either of two ends showing the same number). Move by move: one move equal to the
best does not stop the sampling that would tell a third move apart (the membership of the moves named
together would then hang on the noise of the first look), and at an optimistic gap: a gap the first look
underrates by chance is sampled on rather than left tied. Stopping for futility only ever keeps moves tied,
so it adds no error to the looks' bound; it spends the budget where it can change the verdict (a close lead
of a partnership hand costs some 15 ms a world).

**Racing.** From the second look on, the worlds drawn value only the moves still in contention: the best, the
moves it is not told apart from at that look, and the move played (so the verdict on it is read over every world).
A move told apart from the best keeps its values in the worlds it was valued in (the first ones drawn) and is
not valued again; the verdicts are those of valuing every move in every world but where such a move would have
come back into the tie (issue 71: 231 of 231 separated bests the same over 20 records, no contradiction; its
mean is then over fewer worlds, with its own, wider interval).

**The early looks.** Where the worlds may grow (the commands' default), a sampled decision is first looked at with
a quarter of its ``worlds``, then with half (``fair.early_looks``: 50 and 100 of 200, each a prefix of the next). The
early looks share ``EARLY_ALPHA`` (the two-sided 0.1%) of the 5%, 0.05% each, and the later looks share the rest, 4.9%
(2.40 for three): the chances of all the looks add up to the 5% exactly (Bonferroni, :func:`early_z`, :func:`look_z`).
An early look reads its spread off few worlds, so its bound is Student's ``t`` at its share (:func:`student`: 3.73 at
50 worlds, 3.60 at 100, against the normal 3.48). A decision stops at an early look only where its best is told apart
from every other move at that bound (beyond doubt), else it goes on to the next look, then to ``worlds``, the moves
told apart at that bound no longer valued (racing from the first look; the move played always valued). The looks at
``worlds`` and beyond, their ``z`` and the stop for futility are those without early looks but for that 0.1%.

Issue 71 (``bench/timings/fair71c-*.txt``), against the schedule before (one early look at 100, at 3.29), the same
seeds: over 20 partnership records (seeds 1001-1020, 305 decisions), all 231 separated bests the same, none
contradicted, every mean's interval overlapping the one before (961 of 961), the verdict and class of the move
played the same in 298 of 305; over another 20 (seeds 1021-1040, 249 sampled decisions, replayed) all 178 sampled
separated bests the same. It saves some 8% of the sampled decisions' CPU (the two sets, replayed), 6% to 12%
measured in whole runs (a shared, noisy machine). ``bench/bench_fair_schedule.py`` records every move's value in all
800 worlds and replays schedules of looks on them (it gives the schedule before its own verdicts on all 241 sampled
decisions): a first look at 25 saved 1% more; the share of the 5% moved from the late looks to the early ones saved
13% to 15% but lost separated bests on the records it was not chosen on (4 of 178); a stop for futility at a gap
under one standard error above the one seen lost 4 to 19 of 173 for 7% to 27%; dropping the move played once told
apart saved 10% more with the same bests, but its loss then stands on fewer worlds and its class differs from the
schedule before's in some 18 of 241 decisions (some 8 with it kept). The solves are 97% of a record's fair CPU; the
leads (7 moves, the widest worlds) 47%.

**What stays unstable.** Where the true gap between two moves is a small part of its spread over the worlds
(a gap of 1 to 2 points against a spread of 15 to 25: a standardised gap ``mean / sd`` under about 0.1), no
budget of ``max_worlds`` = 800 tells them apart reliably (the gap is told apart in about half the runs) nor
proves them within a practical margin (the interval's half-width at 800 worlds is some 1.5 to 2 points,
as wide as the inaccuracy threshold of 3): the verdict is then "not told apart" in some runs and the best in
others, and both are true statements about the worlds drawn (the best named alone is never a move another
run leaves out of its verdict, bar the 2.5% the interval allows). ``bench/bench_fair_stability.py`` lists
such decisions.

The values (side-0 points) come in as whole numbers per world, so exact means and gaps are fractions."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from statistics import NormalDist
from typing import Sequence

from . import OnScale, Thresholds
from ..codec import key
from ..i18n import gettext

__all__ = ["FairThresholds", "FairValue", "Spread", "percentile", "PERCENTILES", "Z95", "fair_verdict",
           "value_summary", "significant", "looks", "look_z", "EARLY_ALPHA", "EARLY_LOOKS", "early_z", "student",
           "tied_moves",
           "worth_more", "needed", "GROWTH"]

Z95 = 1.959963984540054
GROWTH = 4              # the commands' default budget: ``max_worlds`` this many times ``worlds``
EARLY_ALPHA = 0.001     # the early looks' share of the 5% (two-sided), all together: they stop only a best told apart
EARLY_LOOKS = 2         # beyond doubt; where the worlds may grow, a quarter and a half of them (``fair.early_looks``)


def early_z(count: int, worlds: int | None = None) -> float:
    """The ``z`` each of ``count`` early looks tests at: ``EARLY_ALPHA`` shared out among them (Bonferroni, as
    :func:`look_z` shares the rest): 3.29 for one, 3.48 for two; at a look with ``worlds`` worlds, Student's ``t``
    of that share with ``worlds - 1`` degrees of freedom (:func:`student`: 3.73 at 50 worlds, 3.60 at 100, for two),
    since an early look's spread is read off few worlds."""
    z = NormalDist().inv_cdf(1 - EARLY_ALPHA / count / 2)
    return z if worlds is None else student(z, worlds - 1)


def student(z: float, df: int) -> float:
    """Student's ``t`` quantile with ``df`` degrees of freedom at the level of the normal quantile ``z``: below
    :data:`STUDENT_SERIES` degrees of freedom by inverting the distribution's finite series (Abramowitz and Stegun
    26.7.3 and 26.7.4: a hand of a few draws, 3 degrees of freedom, reads 4.18 at the level of 2.24, where the
    expansion below gives 4.11), else by the Cornish-Fisher expansion (26.7.5, to the third power of ``1/df``: within
    0.002 of the exact quantile for the early looks, 30 degrees of freedom and more, at their levels)."""
    if df < STUDENT_SERIES:
        level = 2 * NormalDist().cdf(z) - 1             # the two-sided share the interval holds
        low, high = z, 1e6
        for _ in range(200):
            mid = (low + high) / 2
            if _student_within(mid, df) < level:
                low = mid
            else:
                high = mid
        return high
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3


STUDENT_SERIES = 30     # below this many degrees of freedom Student's quantile is read off its finite series


def _student_within(t: float, df: int) -> float:
    """The chance that Student's ``t`` with ``df`` degrees of freedom lies within ``-t`` and ``t`` (Abramowitz and
    Stegun 26.7.3, odd ``df``, and 26.7.4, even: finite sums in the angle ``atan(t / sqrt(df))``)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:
        total, term = 0.0, math.cos(theta)
        for j in range(1, (df - 1) // 2 + 1):
            total += term
            term *= c2 * 2 * j / (2 * j + 1)
        return 2 / math.pi * (theta + math.sin(theta) * total)
    total, term = 0.0, 1.0
    for j in range(df // 2):
        total += term
        term *= c2 * (2 * j + 1) / (2 * j + 2)
    return math.sin(theta) * total


@dataclass(frozen=True)
class FairThresholds:
    """When a move is graded in the fair analysis: its fair loss in points reaches the class of
    ``points`` (the ``--thresholds``, 3/10/25 by default), or its chance to win the hand falls short
    of the best alternative's by at least ``win`` (0.05 / 0.15 / 0.30 for an inaccuracy, a mistake,
    a blunder); the worse of the two counts. The move is a *real* mistake only when, over the shared
    worlds, the gap to the best is significant: exact when every world was solved, otherwise the
    interval of the mean gap (in points or in wins) lies above zero (the 95% interval, made wider where
    the sampling looked more than once: :func:`look_z`)."""

    points: Thresholds = Thresholds()
    win: tuple[float, float, float] = (0.05, 0.15, 0.30)

    def classify(self, loss: Fraction | int, win_loss: Fraction | int) -> str | None:
        """The class of a move losing ``loss`` points and ``win_loss`` of the chance to win, both exact (a
        mean over worlds as a fraction: 20.9 - 10.9 is a loss of exactly 10, a mistake at threshold 10)."""
        names = ("inaccuracy", "mistake", "blunder")
        by_points = self.points.classify(loss)
        rank = names.index(by_points) if by_points else -1
        for k, limit in enumerate(self.win):
            if win_loss >= Fraction(str(limit)):     # (the limit as written: 0.15 is 3/20)
                rank = max(rank, k)
        return names[rank] if rank >= 0 else None

    def cause(self, best: Sequence[int], played: Sequence[int]) -> str | None:
        """Where a move's class comes from the chance to win the hand rather than from its loss in points (the
        values of the best move and of the move played in each shared world, from the mover's side): the chances
        in words (``"the chance to win: 59% against 67% for the best"``); None where the points give the class."""
        n = len(best)
        if not n:
            return None
        loss = max(Fraction(0), Fraction(sum(best) - sum(played), n))
        won = max(Fraction(0), Fraction(sum(int(b > 0) - int(p > 0) for b, p in zip(best, played)), n))
        by_points = self.points.classify(loss)
        cls = self.classify(loss, won)
        if cls is None or cls == by_points:
            return None
        chance = lambda values: sum(v > 0 for v in values) / n      # noqa: E731
        return gettext("the chance to win: {played} against {best} for the best", played=f"{chance(played):.0%}",
                       best=f"{chance(best):.0%}")


PERCENTILES = (0, 10, 25, 50, 75, 90, 100)     # the spread of a fair value: min, deciles, quartiles, median, max


def percentile(values: Sequence[int], p: int) -> int:
    """The ``p``-th percentile of ``values`` by nearest rank: the least value that at least ``p`` percent
    of them do not exceed (the 0th: the least). A value some world gives, so a whole number of points."""
    ordered = sorted(values)
    rank = max(1, -(-p * len(ordered) // 100))
    return ordered[rank - 1]


@dataclass(frozen=True)
class Spread:
    """How an alternative's value is spread over the worlds: its percentiles (:data:`PERCENTILES`), in the
    points of the fair mean. Percentiles rather than a histogram: they are whole points every world can
    be checked against, read the same in text and JSON, and need no choice of bins (the values range from
    a few points to a hundred)."""

    values: tuple[int, ...]          # the value at each of PERCENTILES

    @classmethod
    def of(cls, values: Sequence[int]) -> Spread:
        return cls(tuple(percentile(values, p) for p in PERCENTILES))

    def as_dict(self) -> dict:
        return {("min" if p == 0 else "max" if p == 100 else f"p{p}"): v for p, v in zip(PERCENTILES, self.values)}

    @property
    def low(self) -> int:
        return self.values[0]

    @property
    def high(self) -> int:
        return self.values[-1]


@dataclass(frozen=True)
class FairValue:
    """An alternative's fair value: the mean over the worlds, its 95% interval, the win chance, how the
    values of the worlds spread around the mean; ``values``: each value (side-0 points) it has in the
    worlds and in how many (the match scale values each world's result: ``analysis.match_scale``; not
    written out); ``results``: where they were asked for (both sides may score in the hand), each world's
    result along the alternative's principal variation in it and in how many (``analysis.outcomes``; None
    where a world's is not known), which the match scale reads instead of the values."""

    mean: float
    ci95: tuple[float, float]
    p_win: float
    spread: Spread | None = field(default=None, metadata=key(omit_none=True))
    values: tuple[tuple[int, int], ...] = field(default=(), repr=False, compare=False, metadata=key(skip=True))
    results: tuple | None = field(default=None, repr=False, compare=False, metadata=key(skip=True))
    # what the verdict is tested on: the mean of the paired gaps to the fair best over the worlds both were valued in
    # (for the mover, in points: 0 for the best itself) and its interval at the verdict's ``z`` (:func:`paired_gap`);
    # None where the verdict is not made so (a sheet's, the exact hidden-information solver's); where the exact
    # solver's brackets did not narrow to the precision shown but certify the best (``hiddenfair.open_brackets``,
    # the decision's ``hidden["closed"]`` False), its gap to the best and the bracket that gap certainly lies in
    gap: float | None = field(default=None, metadata=key(omit_none=True))
    gap_ci: tuple[float, float] | None = field(default=None, metadata=key(omit_none=True))
    # the worlds this move was valued in, where fewer than its decision's (a move dropped from contention after a
    # look: its mean, interval and gap are over its first worlds alone); None: every world of the decision
    worlds: int | None = field(default=None, metadata=key("deals", omit_none=True, retired="worlds"))
    # its match-winning chance on the match scale (``analysis.match_scale.MatchScale.applied``), written as ``mwc``
    on_scale: OnScale | None = field(default=None, metadata=key(inline=True, omit_none=True))


def fair_verdict(best: list[int], played: list[int], exact: bool, thresholds: FairThresholds,
                 open_cls: str | None, z: float = Z95) -> tuple[Fraction, str | None, str]:
    """The fair loss of the move played (exact: a fraction of whole points), its class and the verdict,
    from the values of the best move and of the move played in each shared world, from the mover's side (his
    side's points, the higher the better: side 0's points negated where his side is the other);
    ``open_cls``: the move's class with every hand open; ``z``: the bound a sampled gap's interval is taken
    at (:func:`look_z`)."""
    n = len(best)
    loss = max(Fraction(0), Fraction(sum(best) - sum(played), n))
    won = [int(b > 0) - int(p > 0) for b, p in zip(best, played)]
    cls = thresholds.classify(loss, max(Fraction(0), Fraction(sum(won), n)))
    gaps = [b - p for b, p in zip(best, played)]
    shown = significant(gaps, exact, z) or significant([float(w) for w in won], exact, z)
    if cls and shown:
        return loss, cls, "real"
    if cls:
        return loss, cls, "uncertain"       # graded by what he knew, but the deals do not show the gap is real
    return loss, cls, "hindsight" if open_cls else "none"


def value_summary(values: list[int], sign: int, exact: bool) -> FairValue:
    """An alternative's fair value from its value (side-0 points) in each world: the mean, its 95% interval
    (none where every world was solved), the chance to win, the spread and the values counted."""
    n = len(values)
    mean = sum(values) / n
    p_win = sum(1 for v in values if sign * v > 0) / n
    counts = tuple(sorted(Counter(values).items()))
    if exact or n < 2:
        return FairValue(round(mean, 4), (round(mean, 4), round(mean, 4)), round(p_win, 4), Spread.of(values),
                         counts)
    half = Z95 * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    return FairValue(round(mean, 4), (round(mean - half, 4), round(mean + half, 4)), round(p_win, 4),
                     Spread.of(values), counts)


def paired_gap(best: list[int], values: list[int], sign: int, exact: bool,
               z: float = Z95) -> tuple[float, tuple[float, float]]:
    """The mean paired gap of a move to the best (``best``, ``values``: their values, side-0 points, in each shared
    world; ``sign`` 1 when the mover maximises) and its interval at ``z``, as :func:`significant` tests it (exact:
    the interval is the mean; one world: no spread, the interval the mean too)."""
    gaps = [sign * (b - v) for b, v in zip(best, values)]
    n = len(gaps)
    mean = sum(gaps) / n
    if exact or n < 2:
        return round(mean, 4), (round(mean, 4), round(mean, 4))
    half = z * math.sqrt(sum((g - mean) ** 2 for g in gaps) / (n - 1)) / math.sqrt(n)
    return round(mean, 4), (round(mean - half, 4), round(mean + half, 4))


def significant(gaps: list[float], exact: bool, z: float = Z95) -> bool:
    """Whether the mean of the paired gaps is above zero: exactly, or by the lower end of its interval
    at ``z`` (the 95% interval by default; one drawn deal gives none: not significant)."""
    n = len(gaps)
    mean = sum(gaps) / n
    if exact:
        return mean > 1e-9
    if n < 2:
        return False
    sd = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (n - 1))
    return mean - z * sd / math.sqrt(n) > 1e-9


def looks(worlds: int, max_worlds: int) -> list[int]:
    """The numbers of worlds a sampled decision may be looked at with: ``worlds``, doubling, the last
    ``max_worlds`` (at least one look: ``worlds`` itself where the budget is no greater)."""
    out = [worlds]
    while out[-1] < max_worlds:
        out.append(min(2 * out[-1], max_worlds))
    return out


def look_z(count: int, early: bool = False) -> float:
    """The ``z`` of the interval each of ``count`` looks tests at: the two-sided 95% interval with its 5%
    shared out among the looks (Bonferroni), so that over all of them the chance of a gap declared where
    there is none stays within that of one look at the 95% interval. ``early``: early looks before them (at
    :func:`early_z`) take ``EARLY_ALPHA`` of the 5% first (the ``count`` looks share the rest: 2.40 for three)."""
    if count <= 1 and not early:
        return Z95
    return NormalDist().inv_cdf(1 - (0.05 - (EARLY_ALPHA if early else 0)) / count / 2)


def tied_moves(table: dict, best, sign: int, exact: bool, z: float = Z95) -> list:
    """The moves ``best`` is not told apart from, ``best`` first then by their means for the mover (empty
    where it is told apart from every move), from ``table`` (move -> its value in each shared world, side-0
    points; ``sign`` 1 when the mover maximises). A move valued in fewer worlds than ``best`` (dropped from
    contention: the first ones) is compared with it over those."""
    close = [move for move, values in table.items() if move != best
             and not significant([sign * (b - v) for b, v in zip(table[best], values)], exact, z)]
    if not close:
        return []
    close.sort(key=lambda m: -sign * Fraction(sum(table[m]), len(table[m])))     # (by the mean: a move dropped from
    return [best] + close                                                       # contention has fewer worlds)


def worth_more(table: dict, best, sign: int, close: list, z: float, budget: int) -> bool:
    """Whether more worlds may tell ``best`` apart from one of the ``close`` moves within ``budget`` worlds:
    for some of them, the worlds its gap would need at the spread seen so far and at a gap one standard error
    above the mean seen (:func:`needed`) are within the budget. Judged move by move, so a move that comes to
    the same as the best in every world drawn (which more worlds never tell apart) does not stop the sampling
    for the others; and at an optimistic gap, so a real gap that one look happens to underrate is not
    abandoned there (stopping only ever leaves moves tied: it adds no error to the looks' bound)."""
    for move in close:
        if move == best:
            continue
        gaps = [sign * (b - v) for b, v in zip(table[best], table[move])]
        if needed(gaps, z) <= budget:
            return True
    return False


def needed(gaps: list[float], z: float) -> float:
    """The worlds a mean paired gap would need for its interval at ``z`` to lie above 0, at the spread of
    ``gaps`` and a gap one standard error above their mean (an optimistic guess of the true gap, by which a
    look stops only where even that would need more than its budget): ``(z * sd / (mean + sd / sqrt(n)))**2``;
    infinite where the gaps are all equal (0 in every world: never; a constant gap above 0 is told apart
    already) or the optimistic gap is not above 0, or fewer than two worlds give no spread."""
    n = len(gaps)
    if n < 2:
        return math.inf
    mean = sum(gaps) / n
    sd = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (n - 1))
    hope = mean + sd / math.sqrt(n)
    if sd == 0 or hope <= 1e-9:
        return math.inf
    return (z * sd / hope) ** 2
