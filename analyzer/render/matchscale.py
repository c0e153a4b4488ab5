"""The match scale of a game's page (``domino report --scale match``): each move's match-winning chance
beside its values, as plain data added to the page model (:func:`with_match_views`)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..i18n import gettext
from ..analysis import Decision, GameAnalysis
from ..replay import Replay
from .model import ReportModel

__all__ = ["MatchChoice", "MatchMove", "MatchView", "match_view", "with_match_views"]


@dataclass(frozen=True)
class MatchChoice:
    """One alternative of a decision on the match scale: its MWC for the mover's side (after the hand,
    with every hand open; ``fair``: the mean over the worlds in a fair analysis) and what it gives away."""

    move: str
    mwc: float | None
    loss: float | None
    fair: float | None = None
    fair_loss: float | None = None
    played: bool = False


@dataclass(frozen=True)
class MatchMove:
    """A move on the match scale: the first side's MWC before and after it (of the open-hands values),
    and, at a decision, each alternative's MWC (best first for the mover), the drop and its class."""

    before: float | None
    after: float | None
    side: str = ""                   # the mover's side, whose chances the choices give
    choices: list[MatchChoice] = field(default_factory=list)
    loss: float | None = None
    cls: str | None = None
    fair_loss: float | None = None
    fair_cls: str | None = None


@dataclass(frozen=True)
class MatchView:
    """A game on the match scale (``analysis.match_scale``): where its match position comes from (or
    why none is known), the score and the first side's MWC before the hand, the deal's luck for each
    side (points and MWC) and each move's view by its number."""

    known: bool
    note: str
    sides: list[str]
    score: str | None = None
    before: float | None = None
    luck: list[tuple[str, float, float | None]] = field(default_factory=list)   # side, points, MWC
    moves: dict[int, MatchMove] = field(default_factory=dict)
    critical: int | None = None      # the number of the move that lost the most MWC


def _mover_chances(chances: list, side: int) -> list:
    """The first side's chances as the mover's (side 1's chance is 1 less the first side's)."""
    return [None if c is None else (c if side == 0 else 1 - c) for c in chances]


def _choices(decision: Decision, chances: list, fair: list) -> list[MatchChoice]:
    mine, mine_fair = _mover_chances(chances, decision.side), _mover_chances(fair or [None] * len(chances), decision.side)
    best = max((c for c in mine if c is not None), default=None)
    best_fair = max((c for c in mine_fair if c is not None), default=None)
    out = [MatchChoice(a.move, c, None if c is None else best - c, f, None if f is None else best_fair - f, a.played)
           for a, c, f in zip(decision.alternatives, mine, mine_fair)]
    return sorted(out, key=lambda c: -(c.mwc if c.mwc is not None else c.fair if c.fair is not None else -1.0))


def match_view(rep: Replay, analysis: GameAnalysis, scale) -> MatchView:
    """The match scale of one game (``scale``: its ``analysis.match_scale.MatchScale``) as the page shows it."""
    n = rep.variant.seating.sides
    sides = [rep.side_name(s) for s in range(n)] if len(rep.players) == rep.variant.players else [
        gettext("first side"), gettext("second side")]
    luck = []
    if scale.luck_each is not None:         # individual players: each his own (not the others' negative)
        luck = [(sides[seat], float(x.points), x.mwc) for seat, x in enumerate(scale.luck_each)
                if x is not None and seat < len(sides)]
    elif scale.luck is not None:
        points, mwc = float(scale.luck.points), scale.luck.mwc
        luck = [(sides[0], points, mwc), (sides[1], -points, None if mwc is None else -mwc)]
    if not scale.known:
        return MatchView(False, scale.note, sides, luck=luck)
    values = list(analysis.values)
    running = list(scale.running or [None] * len(values))     # (each step's MWC, as the match scale gave it)
    decisions = {d.index: (i, d) for i, d in enumerate(analysis.decisions)}
    moves = {}
    for k in range(min(analysis.analysed_steps, len(values) - 1, len(running) - 1)):
        before, after = running[k], running[k + 1]
        if k not in decisions:
            moves[k + 1] = MatchMove(before, after)
            continue
        i, d = decisions[k]
        fair = scale.fair_mwc[i] if i < len(scale.fair_mwc) else None
        mover = d.player if n != 2 else sides[d.side] if d.side < 2 else ""
        moves[k + 1] = MatchMove(before, after, mover, _choices(d, scale.mwc[i], fair),
                                 scale.loss[i], scale.cls[i], scale.fair_loss[i] if fair else None,
                                 scale.fair_cls[i] if fair else None)
    critical = analysis.decisions[scale.critical].index + 1 if scale.critical is not None else None
    score = " – ".join(f"{name} {points}" for name, points in zip(sides, scale.position.state.scores))
    return MatchView(True, scale.note, sides, score, scale.before, luck, moves, critical)


def with_match_views(model: ReportModel, replays: list[Replay], analyses: list, scales: list) -> ReportModel:
    """``model`` with each game graded on the match scale given its :class:`MatchView` (``match``)."""
    games = [replace(g, match=match_view(rep, analysis, scale)) if scale is not None and analysis is not None else g
             for g, rep, analysis, scale in zip(model.games, replays, analyses, scales)]
    return replace(model, games=games)
