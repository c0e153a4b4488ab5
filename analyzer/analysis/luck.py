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
hands, points; and in MWC where the match scale graded the hand), with a 95% interval (normal
approximation, mean +- 1.96 standard errors; none from fewer than two decisions)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from ..equity import MatchPosition, first_lead, load_table
from ..equity.model import mode_of
from ..match import opens_match
from ..rules import HandResult, Variant
from . import AgainstTheRest, GameAnalysis, hand_value
from .match_scale import value_chance, why_not

__all__ = ["DealLuck", "deal_luck", "first_hand", "PlayerLuck", "player_luck", "ErrorRate", "error_rates",
           "archive_error_rates"]


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

    def as_dict(self) -> dict:
        return {"value": self.value, "mean": float(self.mean), "points": float(self.points), "mwc": self.mwc,
                "mode": self.mode, "result": self.result, "seat": self.seat}


def first_hand(rep) -> bool:
    """Whether ``rep`` is the first hand of its match (led by the rules of the first game:
    ``analyzer.match.opens_match``)."""
    return opens_match(rep)


def deal_luck(analysis, variant: Variant, leader: int, first_game: bool = False,
              position: MatchPosition | None = None, result=None, seat: int = 0, value: int | None = None,
              played: HandResult | None = None) -> DealLuck | None:
    """The luck of the deal of ``analysis`` (led by seat ``leader``; ``first_game``: the first hand of
    a match, led by the rules of the first game). None when the lead value or the variant's model is
    not known. ``result``: the hand's result along the principal variation from the deal
    (``analysis.outcomes``), which gives the MWC where both sides may score in a hand. In a game of individual
    players, ``seat`` says whose luck, ``result`` is the deal played out by the hand model's policy
    (``outcomes.policy_result``) and ``value`` its value for him (``hand_value``): the analysis's own value at
    the lead assumes all the others play against him, which the model's mean does not (None without
    ``value``). ``played``: the hand's result as played (``DealLuck.result``)."""
    if value is None and variant.seating.sides == 2 and analysis.values:
        value = analysis.values[0]
    if value is None:
        return None
    table = load_table(variant)
    if table is None:
        return None
    mode = mode_of(first_lead(variant)) if first_game else "open"
    sample = table.model.modes.get(mode)
    if sample is None or not sample.hands:
        return None
    side = variant.seating.teams[leader]
    if variant.seating.sides != 2:       # individual players: the player's own mean, from his seat after the leader
        mean = sample.seat_mean((seat - side) % variant.seating.sides, AgainstTheRest(variant, seat).bad)
    else:
        mean = Fraction(int(sample.total), sample.hands)
        mean = mean if side == 0 else -mean
    luck_mwc = None
    if position is not None and not position.state.over:
        if result is not None and why_not(variant, results=True) is None:
            luck_mwc = table.after_each(position, result, leader)[seat] - table.chances(position)[seat]
        elif why_not(variant) is None:
            luck_mwc = value_chance(table, variant, position, leader, value, seat) - table.chances(position)[seat]
    return DealLuck(value, mean, value - mean, luck_mwc, mode,
                    None if played is None else hand_value(variant, played, seat), seat)


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
        luck = deal_luck(analysis, v, rep.initial.turn, first_hand(rep), position, played=rep.result)
        if luck is None:
            continue
        for seat, name in enumerate(rep.players):
            sign = 1 if v.seating.teams[seat] == 0 else -1
            row = rows.setdefault(name, PlayerLuck(name))
            row.hands += 1
            row.result += sign * luck.result
            row.luck += sign * luck.points
            if luck.mwc is not None:
                row.mwc_luck += sign * luck.mwc
                row.mwc_hands += 1
    return sorted(rows.values(), key=lambda row: row.player)


@dataclass
class ErrorRate:
    """A player's mean loss per decision with a choice, and its 95% interval."""

    player: str
    decisions: int = 0
    losses: list[float] = field(default_factory=list, repr=False)

    @property
    def mean(self) -> float | None:
        return sum(self.losses) / len(self.losses) if self.losses else None

    @property
    def ci95(self) -> tuple[float, float] | None:
        n = len(self.losses)
        if n < 2:
            return None
        m = self.mean
        sd = math.sqrt(sum((x - m) ** 2 for x in self.losses) / (n - 1))
        half = 1.96 * sd / math.sqrt(n)
        return (max(0.0, m - half), m + half)

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
    return sorted(rows.values(), key=lambda row: row.player)


def archive_error_rates(results) -> list[ErrorRate]:
    """``error_rates`` over an archive's results (``analyzer.archive.run`` in the ``analyze`` mode: plain
    data, every analysed game of every record), open hands, points."""
    return error_rates([GameAnalysis.from_dict(game["analysis"]) for result in results
                        for game in result["games"] if game.get("analysis")])
