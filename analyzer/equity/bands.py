"""Strength bands: a player's error rate (his mean loss per decision with a choice, in points, every
hand open) placed among the error rates of policies of known strength, measured by simulation.

**The calibration** (:func:`calibrate`, run by ``bench/calibrate_bands.py``, shipped as
``equity/data/bands_NAME.json``): random deals of a variant (dealt and led as the hand-result model
deals them, ``equity.boneyard.deal_with_boneyard``), played out by all the players, who follow one
*policy*: at each decision with more than one legal move the player takes a best move with every
hand open (the exact values of every move), except that with probability ``rate`` he takes one of
the moves that are not best, each alike (where every move is best he cannot err). The loss of a
decision is the mover's drop from the best value, exactly as the analyser grades the move in the
record of the hand (``analysis.analyze_replay``; a test checks it decision for decision):

- two sides value the moves for the mover's side; **individual players** (Cut Throat, Chiva, All Fives
  or Hungarian for three or four, French) each by his own view against the rest (``view``:
  ``analysis.AgainstTheRest``, one search a seat), the value the analysis grades him by;
- points a play scores at once (All Fives) are in the values, as in the analysis's;
- **a game with a boneyard** (draw games, All Fives, Chiva for two or three, cross with its sleepers)
  is graded with the boneyard order its record reveals: the tiles drawn, in their order, then the rest
  ascending. So the deal is played with its random order, then played again (with the same random
  choices) with the order its draws revealed, until the order it is played with is the one its record
  reveals (:func:`play_policy_hand`);
- a decision whose search meets the node limit is left out (``PolicySample.limited``) and the move
  with the best proven bound is played.

The policy of rate 0 never loses a point; the policy of rate 1 errs wherever it can. The mean loss per
decision of the policies of rates 0.05, 0.15 and 0.35 are the band edges: a player who errs less than
the first plays like **expert**, then **advanced**, **intermediate**, and above the last **beginner**.

**When a band is given** (:func:`strength_band`): the player's decisions come from at least two games
(never from one game), and the 95% interval of his error rate is narrow enough: its half-width at most
``max_half``, the width of the narrowest band below the last, and neither of its ends beyond the bands next to
his (the interval, ``analysis.luck.score_interval``, need not be centred on the rate). With the spread of one decision's loss the calibration measured, the calibration table
(:meth:`Calibration.interval_table`) says how many decisions give what interval."""
from __future__ import annotations

import json
import math
import os
import random
import time
from dataclasses import dataclass, field
from typing import Callable

from ..i18n import N_, decimal, gettext
from ..position import mask_of
from ..rules import LeadRequirement, Variant
from ..rules.mechanics import position_for
from ..search.core import SearchLimit
from ..search.tree import revealed, revealed_order
from .boneyard import bound_move, deal_with_boneyard
from .model import mode_requirement, searcher

__all__ = ["BANDS", "EDGE_RATES", "RATES", "PolicySample", "PolicyHand", "Calibration", "Band", "play_policy",
           "play_policy_hand", "policy_searches", "policy_text", "calibrate",
           "load_calibration", "calibration_for", "calibration_name", "strength_band", "band_word", "band_names", "Z95"]

BANDS = ("expert", "advanced", "intermediate", "beginner")
#: a band's name as a person reads it (the code, ``BANDS``, stays English in the JSON)
BAND_WORDS = {"expert": N_("expert"), "advanced": N_("advanced"), "intermediate": N_("intermediate"),
              "beginner": N_("beginner")}
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
    limited: int = 0        # decisions left out: their search met the node limit

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
                "se": round(self.sd / math.sqrt(self.decisions), 4) if self.decisions else None,
                **({"limited": self.limited} if self.limited else {})}

    @classmethod
    def from_dict(cls, data: dict) -> PolicySample:
        return cls(data["rate"], data["games"], data["decisions"], data["total"], data["total_sq"],
                   data.get("limited", 0))


@dataclass(frozen=True)
class PolicyHand:
    """One deal played by a policy: the hands, the boneyard order it was played with (the tiles drawn, then
    the rest ascending, as the analysis reads a record: see :func:`play_policy_hand`), the leader, the
    moves in order (each ``(seat, move, points it scored during play)``; a draw game's opener who adds no
    tile to his lead makes the move ``NO_EXTRA``) and its decisions in order, each ``(seat, loss)`` (the
    loss None where its search met the node limit)."""

    hands: tuple
    boneyard: tuple
    leader: int
    moves: tuple
    decisions: tuple


def policy_searches(variant: Variant, view: Callable | None = None) -> list:
    """The searches a policy values each seat's moves by (one game after another: their tables carry
    over): for two sides one search of the game, shared; for individual players each seat's own game
    against the rest, ``view(variant, seat)`` (``analysis.AgainstTheRest``), as the analysis grades him."""
    if variant.seating.sides == 2:
        return [searcher(variant)] * variant.players
    if view is None:
        raise NotImplementedError(f"{variant.name} is played by {variant.seating.sides} individual players: its "
                                  f"policies value each mover's moves by his view against the rest (view=...)")
    return [searcher(variant, view(variant, seat), variant.players) for seat in range(variant.players)]


def play_policy_hand(variant: Variant, rate: float, rng: random.Random, searches: list,
                     mode: str = "open") -> PolicyHand:
    """Deal one hand of ``variant`` (lead ``mode``; where the holder of a tile opens every hand with it,
    he does) and play it by the policy of error ``rate``, each mover valuing his moves by his search of
    ``searches`` (:func:`policy_searches`); each decision's loss is the mover's drop from his best value,
    as ``analysis.analyze_replay`` grades the record of the hand.

    A game with a boneyard is graded with the boneyard order its record reveals: the tiles drawn, in
    their order, then the rest ascending (``search.tree.revealed_order``). So the deal's random order is
    played, then the game is played again with the order its draws revealed, until the order it is played
    with is the one its own record reveals (each time with the same random choices; it ends, since the
    tiles drawn grow fewer each time it does not)."""
    every = variant.opening.every_game_tile        # every hand opened by its holder with it (French: [0-0])
    req = (LeadRequirement(holder_of=every, tile=every, reason="every hand is opened by its holder with it")
           if every is not None else mode_requirement(variant, mode))
    hands, boneyard, leader, opening = deal_with_boneyard(variant, req, rng)
    start = position_for(variant, hands, leader, max_pip=variant.dealing.max_pip)
    start.pool &= mask_of(variant.dealing.tiles)
    start.opening = opening
    if not (getattr(start, "draws", False) and start.stock):
        moves, losses = _play(start, rate, rng, searches, variant)
        return PolicyHand(tuple(map(tuple, hands)), tuple(boneyard), leader, moves, losses)
    choices = rng.getrandbits(64)
    order = list(boneyard)
    while True:
        moves, losses = _play(revealed(start.copy(), order), rate, random.Random(choices), searches, variant)
        shown = revealed_order(start, [m.tile for _, m, _ in moves if m.draw])
        if shown == order:
            return PolicyHand(tuple(map(tuple, hands)), tuple(order), leader, moves, losses)
        order = shown


def _play(pos, rate: float, rng: random.Random, searches: list, variant: Variant) -> tuple[tuple, tuple]:
    """Play ``pos`` to the end of the hand by the policy of error ``rate``: the moves (seat, move, points
    scored) and the decisions, each (seat, loss; None where the search met the node limit)."""
    teams, individual, play = variant.seating.teams, variant.seating.sides != 2, variant.play
    moves, losses = [], []
    while (legal := pos.legal_moves()):
        seat = pos.turn
        move = legal[0]
        if len(legal) > 1:
            sign = 1 if individual or teams[seat] == 0 else -1
            try:
                values = searches[seat].values(pos)
            except SearchLimit as exc:
                move, values = bound_move(exc, legal, sign > 0), None
                losses.append((seat, None))
            if values is not None:
                best = max(sign * v for _, v in values)
                worse = [(m, v) for m, v in values if sign * v < best]
                if worse and rng.random() < rate:
                    move, value = rng.choice(worse)
                else:
                    move, value = rng.choice([(m, v) for m, v in values if sign * v == best])
                losses.append((seat, best - sign * value))
        pos.push(move)
        moves.append((seat, move, play.points(play.ends_total(pos.line(), pos.ends)) if play and move.is_play else 0))
    return tuple(moves), tuple(losses)


def play_policy(variant: Variant, rate: float, deals: int, seed: int = 0, mode: str = "open",
                view: Callable | None = None) -> PolicySample:
    """Play ``deals`` random deals of ``variant`` with every player following the policy of error
    ``rate`` (see the module's note): the sample of each decision's loss. Individual players need
    ``view`` (:func:`policy_searches`)."""
    sample = PolicySample(rate)
    rng = random.Random(f"bands:{variant.name}:{rate}:{seed}")
    searches = policy_searches(variant, view)
    for _ in range(deals):
        for _, loss in play_policy_hand(variant, rate, rng, searches, mode).decisions:
            if loss is None:
                sample.limited += 1
            else:
                sample.add(loss)
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
    cpu: float | None = None        # the CPU seconds of the calibration (None: not recorded)

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

    @property
    def error_size(self) -> float | None:
        """The size of an error in this variant, weighted by its size (``analysis.luck.error_size``): of the policy
        that errs wherever it can (rate 1), the sum of its squared losses over the sum of its losses; None where
        it lost nothing."""
        top = max(self.samples, key=lambda s: s.rate)
        return top.total_sq / top.total if top.total else None

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
                "seconds": round(self.seconds, 1), **({"cpu": round(self.cpu, 1)} if self.cpu is not None else {}),
                "bands": list(BANDS), "edge_rates": list(EDGE_RATES),
                "edges": [round(e, 4) for e in self.edges], "max_half": round(self.max_half, 4),
                "samples": [s.as_dict() for s in self.samples]}

    @classmethod
    def from_dict(cls, data: dict) -> Calibration:
        return cls(data["variant"], dict(data["rules"]), [PolicySample.from_dict(s) for s in data["samples"]],
                   data.get("seed", 0), data.get("seconds", 0.0), data.get("policy", cls.policy), data.get("cpu"))


def policy_text(variant: Variant) -> str:
    """The policy a calibration of ``variant`` states: who follows it, and by what values."""
    who = (f"{variant.players} players each for himself (his own view against the rest, as the analysis grades "
           f"him) follow" if variant.seating.sides != 2 else f"{variant.players} players follow")
    known = ("; the boneyard order known, as the record of the game reveals it (the tiles drawn, then the rest "
             "ascending)" if variant.drawing is not None else "")
    return (f"{who} one policy: a best move with every hand open{known}, except that with probability `rate` a "
            f"move that is not best (each alike)")


def calibrate(variant: Variant, deals: int, seed: int = 0, rates=RATES, progress=None,
              view: Callable | None = None) -> Calibration:
    """Measure the error rate of each policy of ``rates`` on ``deals`` random deals of ``variant``
    (individual players: ``view``, see :func:`policy_searches`)."""
    t0, c0 = time.perf_counter(), time.process_time()
    samples = []
    for rate in rates:
        samples.append(play_policy(variant, rate, deals, seed, view=view))
        if progress is not None:
            progress(samples[-1])
    return Calibration(variant.name, dict(variant.options), samples, seed, time.perf_counter() - t0,
                       policy_text(variant), time.process_time() - c0)


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


def band_word(band: str | None) -> str | None:
    """The band ``band`` (one of :data:`BANDS`, or None) in the active language."""
    return gettext(BAND_WORDS[band]) if band in BAND_WORDS else band


def band_names() -> dict[str, str]:
    """Every band's name by its code (:data:`BANDS`), in the active language."""
    return {band: gettext(BAND_WORDS[band]) for band in BANDS}


def strength_band(mean: float | None, ci95: tuple[float, float] | None, decisions: int, games: int,
                  calibration: Calibration | None) -> Band:
    """The band of a player whose ``decisions`` (from ``games`` games) lost ``mean`` points on average,
    95% interval ``ci95``; no band (and why) without a calibration, from one game, or where the
    interval is wider than the calibration's ``max_half`` either side. The interval is taken no narrower
    than that of the policy at the edge of the band his rate falls in over as many decisions
    (:meth:`PolicySample.half`): a few decisions that happen to lose nothing (a spread of 0, an interval of
    0 to 0) prove no band, where losses are small and rare (Cut Throat: the policy that errs wherever it
    can loses 0.174 points a decision on average)."""
    if games < 2:
        return Band(None, decisions, games, gettext("never from one game"))
    if calibration is None:
        return Band(None, decisions, games, gettext("no calibration of the bands for this variant"))
    if mean is None or ci95 is None:
        return Band(None, decisions, games, gettext("too few decisions for an interval"))
    band = calibration.band_of(mean)
    edge = calibration.sample(EDGE_RATES[min(BANDS.index(band), len(EDGE_RATES) - 1)])
    half = max((ci95[1] - ci95[0]) / 2, edge.half(decisions))
    if half > calibration.max_half + 1e-12:
        return Band(None, decisions, games, gettext("the interval (+-{half}) is wider than +-{most}: more decisions "
                                                    "needed", half=decimal(half), most=decimal(calibration.max_half)))
    reach = {abs(BANDS.index(calibration.band_of(end)) - BANDS.index(band)) for end in ci95}
    if max(reach) > 1:
        return Band(None, decisions, games, gettext("the interval ({low} to {high}) reaches beyond the bands next "
                                                    "to {band}: more decisions needed", low=decimal(ci95[0]),
                                                    high=decimal(ci95[1]), band=band_word(band)))
    return Band(band, decisions, games)
