"""The partnership bracket in the fair analysis (issue 85; docs/fair.md, "The partnership bracket").

A partnership block game (four seats, two sides: the partnership game, Domino Whist) has no exact value under hidden
information here: a side's two players act on different information. For its small endgames (every hand at most
:data:`analyzer.hidden.TEAM_HAND` tiles, at most :data:`analyzer.hidden.TEAM_DEALS` public deals) the fair analysis
computes :func:`analyzer.hidden.team_decision`'s certified bracket of each move (within :data:`TEAM_SECONDS` of CPU
a decision; a decision past the search's limits gets none) and sets it beside the fair values
(:class:`TeamBracket`, ``FairDecision.team``), on their scale (:meth:`analyzer.hidden.TeamDecision.hand_moves`).

The open-hands value with every deal solved lies in every bracket, so a bracket never overturns an exact fair value.
It can

- **certify a best**: a move whose bracket lies wholly above every other's is the best under hidden information,
  whatever the value of a team game is taken to be (``certified``);
- **contradict a fair ranking**: where the fair best's bracket lies wholly below another move's (a sampled verdict's
  order, or a tie the sample left), the fair best is wrong about the real game; then it is not called best
  (:func:`overruled`): the best is the certified one where there is one, else the moves no other is surely better
  than are not told apart, and the verdict is "none" (no loss, no class), as where an open CFR+ bracket contradicts a
  two-player verdict (:func:`.hiddenfair.contradicted`).

Where it certifies the fair best, the best is told apart, whatever the deals drawn said.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Sequence

from ..codec import key
from ..hidden import TEAM_DEALS, TEAM_HAND, TeamDecision, TooLarge, team_deals, team_decision, team_supported
from ..inference import InferenceUnsupported, NoWorld
from ..replay import Replay
from ..tiles import Move
from . import alternative_text
from .brackets import not_told_apart, sure_loss, surely_better
from .readings import points_before

__all__ = ["TEAM_SECONDS", "TeamMove", "TeamBracket", "team_points", "team_bracket", "overruled"]

#: The CPU seconds one decision's bracket may take (both searches, the trees' building too); past them it gets none
TEAM_SECONDS = 2.0
EPS = 1e-9


@dataclass(frozen=True)
class TeamMove:
    """One move's certified bracket under hidden information, on the fair values' scale (side 0's points per deal
    of the mover's hand, the points before the decision added): ``low`` to ``high``."""

    move: str
    low: float
    high: float


@dataclass(frozen=True)
class TeamBracket:
    """A partnership decision's brackets (``FairDecision.team``): over ``deals`` public deals, each move's
    (:class:`TeamMove`, side 0's values, in the order of the legal moves); ``certified``: the move whose bracket lies
    wholly above every other's for the mover (the best under hidden information, whatever the partners agree), else
    None; ``overturned``: the fair analysis's best by the open-hands mean where another move's bracket lies wholly
    above its own (then not called best: :func:`overruled`), with ``better``, the move surely better than it (the
    one of the highest lower bound); ``least_loss``: what the move played surely loses, whatever the partners agree,
    per deal of his hand (another move's lower bound above its upper one, the most such gap), where it is above 0
    (:func:`least_loss`), and ``against``, that other move."""

    deals: int
    moves: tuple[TeamMove, ...]
    certified: str | None = field(default=None, metadata=key(omit_none=True))
    overturned: str | None = field(default=None, metadata=key(omit_none=True))
    better: str | None = field(default=None, metadata=key(omit_none=True))
    least_loss: float | None = field(default=None, metadata=key(omit_none=True))
    against: str | None = field(default=None, metadata=key(omit_none=True))

    def mine(self, side: int) -> dict[str, tuple[float, float]]:
        """Each move's bracket for the mover's ``side`` (low, high: higher is better for him)."""
        if side == 0:
            return {m.move: (m.low, m.high) for m in self.moves}
        return {m.move: (-m.high, -m.low) for m in self.moves}

    def surely_worse(self, side: int) -> frozenset[str]:
        """The moves whose bracket lies wholly below another's for the mover's ``side``."""
        return frozenset(surely_better(self.mine(side), EPS))


def least_loss(bracket: TeamBracket, side: int, move: str) -> tuple[float, str] | None:
    """What ``move`` surely loses for the mover's ``side`` (whatever the partners agree): the most by which another
    move's lower bound lies above its upper bound (the best move is worth at least the other's lower bound, and
    ``move`` at most its upper one), with that other move; None where no other move's bracket lies above it
    (:func:`.brackets.sure_loss`)."""
    lost = sure_loss(bracket.mine(side), move, EPS)
    return None if lost is None else (round(lost[0], 4), lost[1])


def team_points(rep: Replay, points: Sequence[tuple[int, int, list[Move]]],
                seconds: float = TEAM_SECONDS) -> tuple[dict[tuple[int, int], TeamDecision], int]:
    """The decision points (step, seat, legal moves) of a partnership block game within the bracket's size bound,
    each bracketed: ``{(step, seat): TeamDecision}``, and how many within the bound got none (the search past its
    tries or ``seconds`` of CPU); none in a game the bracket does not take (:func:`analyzer.hidden.team_supported`)."""
    out: dict[tuple[int, int], TeamDecision] = {}
    gave_up = 0
    rules = rep.variant
    for k, seat, moves in points:
        pos = rep.position_at(k)
        if (not team_supported(rules, pos) or pos.turn != seat or list(moves) != pos.legal_moves()
                or len(moves) < 2 or pos.hidden[seat]
                or any(pos.count(s) > TEAM_HAND for s in range(pos.n))):
            continue
        try:
            deals = team_deals(rep, k, TEAM_DEALS)
        except (TooLarge, NoWorld, InferenceUnsupported, ValueError):
            continue
        try:
            out[(k, seat)] = team_decision(rules, pos, deals, seconds=seconds)
        except TooLarge:
            gave_up += 1
        except ValueError:          # (no public deal gives the mover his hand: a record the inference reads apart)
            continue
    return out, gave_up


def team_bracket(rep: Replay, k: int, seat: int, team: TeamDecision, fair_best: str,
                 played: str | None = None) -> TeamBracket:
    """The brackets of the decision of ``seat`` at step ``k`` on the fair values' scale, with the certified best,
    what the move ``played`` surely loses (None: the record stops at the decision) and, where another move is surely
    better than the fair analysis's best ``fair_best``, that contradiction."""
    offset = points_before(rep, k, seat, False)
    moves = tuple(TeamMove(alternative_text(m), round(lo + offset, 4), round(up + offset, 4))
                  for m, lo, up in team.hand_moves())
    best = team.best()
    certified = None if best is None else alternative_text(best)
    got = TeamBracket(team.deals, moves, certified)
    lost = None if played is None else least_loss(got, team.side, played)
    if lost is not None:
        got = replace(got, least_loss=lost[0], against=lost[1])
    better = surely_better(got.mine(team.side), EPS).get(fair_best)
    return got if better is None else replace(got, overturned=fair_best, better=better)


def overruled(fair, bracket: TeamBracket, side: int, means: dict[str, float]):
    """The fair verdict ``fair`` (a ``FairDecision``) with ``bracket``: where the bracket overturns its best, not
    called best: the certified best named instead, else the moves no other is surely better than, first by the
    mean (``means``: each move's fair mean, side 0's), not told apart; and no verdict (no loss, no class). Where it
    certifies the fair best, that best is told apart (the moves the deals drawn did not tell from it are no longer
    named with it)."""
    if bracket.overturned is None:
        if bracket.certified is not None and bracket.certified == fair.best:
            return replace(fair, tied=(), team=bracket)     # (told apart by the bracket, if not by the deals drawn)
        return replace(fair, team=bracket)
    if bracket.certified is not None:
        return fair.overruled(bracket.certified, (), team=bracket)
    alive = not_told_apart(means, bracket.surely_worse(side), 1 if side == 0 else -1)
    return fair.overruled(alive[0], alive, team=bracket)
