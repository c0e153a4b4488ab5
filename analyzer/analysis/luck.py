"""Luck and skill over hands and archives.

**The deal's luck** (``deal_luck``): the open-hands value of the hand at the lead (best play by
everyone from the deal: ``GameAnalysis.values[0]``) less the variant's mean hand value for the side
that leads (from its hand-result model, ``analyzer.equity``: the mean over the simulated deals led the
same way, an exact fraction of the sample), both for the first side. What remains of a side's result
after its luck is what its play made of the deal (``luck-adjusted result = result - luck``). On the
match scale the deal's luck is the MWC after the hand's open-hands result less the MWC before the hand
(which is the mean over the hands to come). Deal luck plus the mean is the lead value, exactly.

**Individual players** (Cut Throat, Chiva, Hungarian, French, All Fives for three or four): each player has
his own luck, measured as his model's mean is: the deal played out from the lead by the model's policy
(each mover his best move against all the others: ``outcomes.policy_result``), valued for him against the
rest (``hand_value``), less the mean for his seat after the leader (``ModeSample.seat_mean``); in MWC his
chance after that result less his chance before. Not the analysis's lead value: that assumes all the others
play against him, so it lies below what the policy's hands give him (the model's mean), and the luck would
lean against every player. One playout of the deal, so only where asked for (``Options.luck_each``: ``stats``
and ``report --scale match``).

**Error rate** (``error_rates``): per player, the mean loss per decision that had a real choice (open
hands, points; and in MWC where the match scale graded the hand), with a 95% interval: a score interval
(``score_interval``) that holds where most losses are 0 and a few large, from few decisions (a simulation
test measures its coverage); never of zero width, none from fewer than two decisions."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from ..codec import from_data
from ..equity import MatchPosition, first_lead, load_table, open_model_table
from ..equity.model import mode_of
from ..match import opens_match
from ..rules import HandResult, Variant
from . import AgainstTheRest, GameAnalysis, hand_value
from .match_scale import value_chance, why_not

__all__ = ["DealLuck", "LedHand", "deal_luck", "first_hand", "PlayerLuck", "player_luck", "ErrorRate", "error_rates",
           "archive_error_rates", "error_size", "score_interval", "BLUNDER_SIZE", "pooled_size"]


@dataclass(frozen=True)
class DealLuck:
    """The luck of one deal for one view: the first side (the other side's is its negative), or in a game of
    individual players one player against all the others (``seat``)."""

    value: int                     # the open-hands value at the lead (individual players: the model's policy's)
    mean: Fraction                 # the variant's mean for a hand led by this leader's side (in this view)
    points: Fraction               # value - mean
    mwc: float | None = None       # MWC after the open-hands result less MWC before; None without a position
    mode: str = "open"
    result: int | None = None      # the hand as played, in the same view (``hand_value``); None: not finished
    seat: int = 0
    lead: Fraction = Fraction(0)   # the lead's luck: the mean for this leader less the mean over every leader

    @property
    def total(self) -> Fraction:
        """The luck of the hand: the deal's and the lead's (the open-hands value at the lead less the mean over
        every deal and every leader, by rotation)."""
        return self.points + self.lead

    def as_dict(self) -> dict:
        return {"value": self.value, "mean": float(self.mean), "points": float(self.points), "mwc": self.mwc,
                "mode": self.mode, "result": self.result, "seat": self.seat, "lead": float(self.lead),
                "total": float(self.total)}


def first_hand(rep) -> bool:
    """Whether ``rep`` is the first hand of its match (led by the rules of the first game:
    ``analyzer.match.opens_match``)."""
    return opens_match(rep)


@dataclass(frozen=True)
class LedHand:
    """The hand whose deal's luck is asked: the seat that led it (``leader``), whether it is the first hand of
    its match (``first_game``: led by the rules of the first game), and its result as played (``played``; None:
    not finished)."""

    leader: int
    first_game: bool = False
    played: HandResult | None = None


def deal_luck(analysis, variant: Variant, hand: LedHand, position: MatchPosition | None = None, result=None,
              seat: int = 0) -> DealLuck | None:
    """The luck of the deal of ``analysis``, the ``hand`` led so. None when the lead value or the variant's model is
    not known. ``result``: the hand's result along the principal variation from the deal
    (``analysis.outcomes``), which gives the MWC where both sides may score in a hand. In a game of individual
    players, ``seat`` says whose luck, and ``result`` is the deal played out by the hand model's policy
    (``outcomes.policy_result``), valued for him (``hand_value``): the analysis's own value at the lead assumes
    all the others play against him, which the model's mean does not (None without ``result``)."""
    leader, first_game, played = hand.leader, hand.first_game, hand.played
    value = None
    if variant.seating.sides != 2 and result is not None:
        value = hand_value(variant, result, seat)
    if value is None and variant.seating.sides == 2 and analysis.values:
        value = analysis.values[0]
    if value is None:
        return None
    table = load_table(variant)
    if table is None:
        return None
    mode = mode_of(first_lead(variant)) if first_game else "open"
    model = open_model_table(variant)           # (the mean of hands played with every hand open, as ``value`` is)
    sample = None if model is None else model.model.modes.get(mode)
    if sample is None or not sample.hands:
        return None
    side = variant.seating.teams[leader]
    sides = variant.seating.sides
    if sides != 2:       # individual players: the player's own mean, from his seat after the leader
        bad = AgainstTheRest(variant, seat).bad
        mean = sample.seat_mean((seat - side) % sides, bad)
        every = sum((sample.seat_mean(r, bad) for r in range(sides)), Fraction(0)) / sides
    else:
        lead = Fraction(int(sample.total), sample.hands)       # (the leading side's mean)
        mean = lead if side == 0 else -lead
        share = Fraction(len(variant.seating.members(0)), variant.players)     # the hands side 0 leads, by rotation
        every = share * lead - (1 - share) * lead
    luck_mwc = None
    if position is not None and not position.state.over:
        if result is not None and why_not(variant, results=True) is None:
            luck_mwc = table.after_each(position, result, leader)[seat] - table.chances(position)[seat]
        elif why_not(variant) is None:
            luck_mwc = value_chance(table, variant, position, leader, value, seat) - table.chances(position)[seat]
    return DealLuck(value, mean, value - mean, luck_mwc, mode,
                    None if played is None else hand_value(variant, played, seat), seat, mean - every)


@dataclass
class PlayerLuck:
    """A player's hands over an archive: his side's results, the luck of its deals, and the difference."""

    player: str
    hands: int = 0
    result: int = 0                 # his side's points of its hands less the other's (``hand_value``)
    luck: Fraction = Fraction(0)
    mwc_luck: float = 0.0
    mwc_hands: int = 0

    @property
    def adjusted(self) -> Fraction:
        """The luck-adjusted result: result less luck."""
        return self.result - self.luck

    def as_dict(self) -> dict:
        return {"player": self.player, "hands": self.hands, "result": self.result, "luck": round(float(self.luck), 3),
                "adjusted": round(float(self.adjusted), 3), "mwc_luck": round(self.mwc_luck, 5),
                "mwc_hands": self.mwc_hands}


def player_luck(games) -> list[PlayerLuck]:
    """Per player (by name), over ``games``: (replay, analysis, match position or None) triples, the
    analysis with every hand open, of a game of two sides (a game of individual players needs each player's
    own lead value: the pipeline's ``luck_each``). Hands without a lead value or result are left out."""
    rows: dict[str, PlayerLuck] = {}
    for rep, analysis, position in games:
        v = rep.variant
        if v.seating.sides != 2 or rep.result is None or len(rep.players) != v.players:
            continue
        luck = deal_luck(analysis, v, LedHand(rep.initial.turn, first_hand(rep), rep.result), position)
        if luck is None:
            continue
        for seat, name in enumerate(rep.players):
            sign = 1 if v.seating.teams[seat] == 0 else -1
            row = rows.setdefault(name, PlayerLuck(name))
            row.hands += 1
            row.result += sign * luck.result
            row.luck += sign * luck.total
            if luck.mwc is not None:
                row.mwc_luck += sign * luck.mwc
                row.mwc_hands += 1
    return sorted(rows.values(), key=lambda row: row.player)


#: The size of an error (:func:`error_size`) where neither a player's losses nor anything else says more: the
#: smallest loss each scale calls a blunder (the points scale's 25, the match scale's 0.15 in MWC).
BLUNDER_SIZE = {"points": 25.0, "match": 0.15}


def error_size(losses) -> float | None:
    """The size of an error, weighted by its size: the sum of the squared losses over the sum of the losses (of
    the policy that errs wherever it can, of a player, of an archive); None where no loss is above 0."""
    total = sum(losses)
    return sum(x * x for x in losses) / total if total > 0 else None


def score_interval(mean: float, n: int, size: float, z: float = 1.96) -> tuple[float, float]:
    """The interval of a mean loss per decision (``mean`` of ``n`` losses, each 0 or an error): the means ``m``
    whose distance from ``mean`` is at most ``z`` standard errors, the variance of one loss taken at ``m`` as
    ``size * m - m * m`` (an error of size-biased mean ``size`` made at the rate ``m / size``: Wilson's score
    interval of a proportion, in units of ``size``). Never of zero width: where every loss is 0 it is 0 to
    ``z^2 size / (n + z^2)``."""
    a = 1 + z * z / n
    b = 2 * mean + z * z * size / n
    root = math.sqrt(max(0.0, b * b - 4 * a * mean * mean))
    return (max(0.0, min(mean, (b - root) / (2 * a))), max(mean, (b + root) / (2 * a)))     # (the mean within: rounding)


@dataclass
class ErrorRate:
    """A player's error rate: his mean loss per decision with a choice, and its 95% interval (``ci95``: a
    score interval, :func:`score_interval`, that holds for losses that are mostly 0 and sometimes large, from
    few decisions). ``size``: the size of an error (:func:`error_size`) to assume at least, where the player's
    own few losses may not show how large an error is (the variant's, from the strength bands' calibration;
    else the archive's; else ``BLUNDER_SIZE``); None: his own, else the blunder threshold of the points scale."""

    player: str
    decisions: int = 0
    losses: list[float] = field(default_factory=list, repr=False)
    size: float | None = None

    @property
    def mean(self) -> float | None:
        return sum(self.losses) / len(self.losses) if self.losses else None

    @property
    def ci95(self) -> tuple[float, float] | None:
        n = len(self.losses)
        if n < 2:
            return None
        own = error_size(self.losses) or 0.0
        size = max(own, self.size if self.size is not None else (own or BLUNDER_SIZE["points"]))
        return score_interval(self.mean, n, size)

    def as_dict(self) -> dict:
        ci = self.ci95
        return {"player": self.player, "decisions": self.decisions, "mean_loss": self.mean,
                "ci95": list(ci) if ci else None}


def error_rates(analyses, scale: str = "points") -> list[ErrorRate]:
    """Per player over ``analyses`` (``GameAnalysis``; with ``scale="match"``, (analysis, MatchScale)
    pairs): the mean loss per decision that had a real choice and was valued, with its 95% interval."""
    rows: dict[str, ErrorRate] = {}
    for item in analyses:
        analysis, scaled = (item if scale == "match" else (item, None))
        if scale == "match" and (scaled is None or not scaled.known):
            continue
        for i, d in enumerate(analysis.decisions):
            loss = scaled.loss[i] if scaled is not None else d.loss
            if loss is None:
                continue
            row = rows.setdefault(d.player, ErrorRate(d.player))
            row.decisions += 1
            row.losses.append(float(loss))
    size = pooled_size(rows.values(), scale)
    for row in rows.values():
        row.size = size
    return sorted(rows.values(), key=lambda row: row.player)


def pooled_size(rates, scale: str = "points", calibrated: float | None = None) -> float:
    """The size of an error each of ``rates`` (``ErrorRate``s) is given at least (``ErrorRate.size``): the
    variant's (``calibrated``: the bands' calibration), else that of all their losses together, else the scale's
    blunder threshold (``BLUNDER_SIZE``)."""
    if calibrated:
        return calibrated
    return error_size([x for rate in rates for x in rate.losses]) or BLUNDER_SIZE[scale]


def archive_error_rates(results) -> list[ErrorRate]:
    """``error_rates`` over an archive's results (``analyzer.archive.run`` in the ``analyze`` mode: plain
    data, every analysed game of every record), open hands, points."""
    return error_rates([from_data(GameAnalysis, game["analysis"]) for result in results
                        for game in result["games"] if game.get("analysis")])
