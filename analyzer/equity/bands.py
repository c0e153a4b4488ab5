"""Strength bands: a player's error rate (his mean loss per decision with a choice, in points, every
hand open) placed among the error rates of policies of known strength, measured by simulation.

**The calibration** (:func:`calibrate`, run by ``bench/calibrate_bands.py``, shipped as
``equity/data/bands_NAME.json``): random deals of a variant (dealt and led as the hand-result model
deals them, :func:`analyzer.equity.model.deal`), played out by four players who all follow one
*policy*: at each decision with more than one legal move the player takes a best move with every
hand open (the exact values of every move, ``Solver.values``), except that with probability ``rate``
he takes one of the moves that are not best, each alike (where every move is best he cannot err).
The loss of a decision is the mover's drop from the best value, exactly as the analyser grades a
move with every hand open. The policy of rate 0 never loses a point; the policy of rate 1 errs
wherever it can. The mean loss per decision of the policies of rates 0.05, 0.15 and 0.35 are the band
edges: a player who errs less than the first plays like **expert**, then **advanced**,
**intermediate**, and above the last **beginner**.

**When a band is given** (:func:`strength_band`): the player's decisions come from at least two games
(never from one game), and the 95% interval of his error rate is narrow enough: its half-width at most
``max_half``, the width of the narrowest band below the last (an interval centred in a band then reaches at
most into its neighbours). With the spread of one decision's loss the calibration measured, the calibration table
(:meth:`Calibration.interval_table`) says how many decisions give what interval."""
from __future__ import annotations

import json
import math
import os
import random
import time
from dataclasses import dataclass, field

from ..rules import Variant
from .model import dealt_position, searcher

__all__ = ["BANDS", "EDGE_RATES", "RATES", "PolicySample", "Calibration", "Band", "play_policy", "calibrate",
           "load_calibration", "calibration_for", "calibration_name", "strength_band", "Z95"]

BANDS = ("expert", "advanced", "intermediate", "beginner")
EDGE_RATES = (0.05, 0.15, 0.35)        # the policies whose error rates are the edges between the bands
RATES = (0.0, *EDGE_RATES, 1.0)        # the policies measured
Z95 = 1.96
DATA_DIR = os.path.join(os.path.dirname(__file__), "data")


@dataclass
class PolicySample:
    """The decisions of one policy: how many, the sum of their losses and of the squares (exact), and
    the games they came from."""

    rate: float
    games: int = 0
    decisions: int = 0
    total: int = 0
    total_sq: int = 0

    def add(self, loss: int) -> None:
        self.decisions += 1
        self.total += loss
        self.total_sq += loss * loss

    @property
    def mean(self) -> float:
        return self.total / self.decisions if self.decisions else 0.0

    @property
    def sd(self) -> float:
        n = self.decisions
        if n < 2:
            return 0.0
        return math.sqrt(max(0.0, (self.total_sq - n * self.mean ** 2) / (n - 1)))

    def half(self, decisions: int) -> float:
        """The half-width of the 95% interval of the mean loss over ``decisions`` decisions of this policy."""
        return Z95 * self.sd / math.sqrt(decisions)

    def as_dict(self) -> dict:
        return {"rate": self.rate, "games": self.games, "decisions": self.decisions, "total": self.total,
                "total_sq": self.total_sq, "mean": round(self.mean, 4), "sd": round(self.sd, 4),
                "se": round(self.sd / math.sqrt(self.decisions), 4) if self.decisions else None}

    @classmethod
    def from_dict(cls, data: dict) -> PolicySample:
        return cls(data["rate"], data["games"], data["decisions"], data["total"], data["total_sq"])


def play_policy(variant: Variant, rate: float, deals: int, seed: int = 0, sample: PolicySample | None = None,
                mode: str = "open") -> PolicySample:
    """Play ``deals`` random deals of ``variant`` with every player following the policy of error
    ``rate`` (see the module's note); each decision's loss added to ``sample``."""
    sample = sample or PolicySample(rate)
    rng = random.Random(f"bands:{variant.name}:{rate}:{seed}")
    search = searcher(variant)
    teams = variant.seating.teams
    for _ in range(deals):
        pos, _ = dealt_position(variant, mode, rng)
        while pos.legal_moves():
            values = search.values(pos)
            if len(values) > 1:
                sign = 1 if teams[pos.turn] == 0 else -1
                best = max(sign * v for _, v in values)
                worse = [(m, v) for m, v in values if sign * v < best]
                if worse and rng.random() < rate:
                    move, value = rng.choice(worse)
                else:
                    move, value = rng.choice([(m, v) for m, v in values if sign * v == best])
                sample.add(best - sign * value)
            else:
                move = values[0][0]
            pos.push(move)
        sample.games += 1
    return sample


@dataclass(frozen=True)
class Band:
    """A player's strength band, or why none is given (``name`` None), with the decisions it rests on."""

    name: str | None
    decisions: int
    games: int
    why: str = ""

    def as_dict(self) -> dict:
        return {"band": self.name, "decisions": self.decisions, "games": self.games, "why": self.why or None}


@dataclass
class Calibration:
    """The error rates of the policies of known strength in a variant, and the band edges they give."""

    variant: str
    rules: dict[str, str]
    samples: list[PolicySample]
    seed: int = 0
    seconds: float = 0.0
    policy: str = field(default=("four players follow one policy: a best move with every hand open, except that "
                                 "with probability `rate` a move that is not best (each alike)"))

    def sample(self, rate: float) -> PolicySample:
        return next(s for s in self.samples if s.rate == rate)

    @property
    def edges(self) -> tuple[float, ...]:
        """The error rates (points a decision) between the bands: of the policies of ``EDGE_RATES``."""
        return tuple(self.sample(r).mean for r in EDGE_RATES)

    @property
    def max_half(self) -> float:
        """The widest 95% half-interval a band is given from: the width of the narrowest inner band."""
        e = (0.0, *self.edges)
        return min(b - a for a, b in zip(e, e[1:]))

    def band_of(self, rate: float) -> str:
        """The band an error rate (points a decision) falls in."""
        for name, edge in zip(BANDS, self.edges):
            if rate < edge:
                return name
        return BANDS[-1]

    def interval_table(self, counts=(25, 50, 100, 200, 500, 1000, 2000, 5000)) -> list[dict]:
        """For each number of decisions, the half-width of the 95% interval of each policy's error rate."""
        return [{"decisions": n, **{f"rate {s.rate:g}": round(s.half(n), 3) for s in self.samples},
                 "band given": all(s.half(n) <= self.max_half for s in self.samples if s.rate in EDGE_RATES)}
                for n in counts]

    def as_dict(self) -> dict:
        return {"variant": self.variant, "rules": self.rules, "policy": self.policy, "seed": self.seed,
                "seconds": round(self.seconds, 1), "bands": list(BANDS), "edge_rates": list(EDGE_RATES),
                "edges": [round(e, 4) for e in self.edges], "max_half": round(self.max_half, 4),
                "samples": [s.as_dict() for s in self.samples]}

    @classmethod
    def from_dict(cls, data: dict) -> Calibration:
        return cls(data["variant"], dict(data["rules"]), [PolicySample.from_dict(s) for s in data["samples"]],
                   data.get("seed", 0), data.get("seconds", 0.0))


def calibrate(variant: Variant, deals: int, seed: int = 0, rates=RATES, progress=None) -> Calibration:
    """Measure the error rate of each policy of ``rates`` on ``deals`` random deals of ``variant``."""
    t0 = time.perf_counter()
    samples = []
    for rate in rates:
        samples.append(play_policy(variant, rate, deals, seed))
        if progress is not None:
            progress(samples[-1])
    return Calibration(variant.name, dict(variant.options), samples, seed,
                       time.perf_counter() - t0)


def calibration_name(variant: Variant) -> str:
    """The data file's name (without ``.json``) of ``variant``'s calibration."""
    return "bands_" + variant.name + "".join(f"_{k}={v}" for k, v in sorted(variant.options))


def load_calibration(variant: Variant, folder: str | None = None) -> Calibration | None:
    """The shipped calibration of ``variant``'s bands (None: none is shipped)."""
    return _read(os.path.join(folder or DATA_DIR, calibration_name(variant) + ".json"))


def calibration_for(table: str) -> Calibration | None:
    """The shipped calibration of the variant (with its rules) whose MWC table file is ``table``
    (``partnership.json``: ``bands_partnership.json``), or None."""
    return _read(os.path.join(DATA_DIR, "bands_" + os.path.basename(table)))


def _read(path: str) -> Calibration | None:
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as fh:
        return Calibration.from_dict(json.load(fh))


def strength_band(mean: float | None, ci95: tuple[float, float] | None, decisions: int, games: int,
                  calibration: Calibration | None) -> Band:
    """The band of a player whose ``decisions`` (from ``games`` games) lost ``mean`` points on average,
    95% interval ``ci95``; no band (and why) without a calibration, from one game, or where the
    interval is wider than the calibration's ``max_half`` either side."""
    if games < 2:
        return Band(None, decisions, games, "never from one game")
    if calibration is None:
        return Band(None, decisions, games, "no calibration of the bands for this variant")
    if mean is None or ci95 is None:
        return Band(None, decisions, games, "too few decisions for an interval")
    half = (ci95[1] - ci95[0]) / 2
    if half > calibration.max_half + 1e-12:
        return Band(None, decisions, games,
                    f"the interval (+-{half:.2f}) is wider than +-{calibration.max_half:.2f}: more decisions needed")
    return Band(calibration.band_of(mean), decisions, games)
