"""Each alternative's result in a world of the fair analysis: what the match scale reads where both sides may
score in a hand (``outcomes.needs_results``), in the worlds the mover could not tell apart.

A world's result is the hand played out along the alternative's principal variation there with every hand
open, read as ``analysis.outcomes`` reads the open-hands analysis's (``hand_facts``, ``Variant.hand_result``).
:class:`WorldReading` reads them at one decision: along the lines a compiled batch of worlds gave with its values,
read off the line without playing it (:func:`dealt_facts` for the dealt games, ``outcomes.drawn_facts`` for draw
games scoring during play and Hungarian: ``outcomes.line_facts``), or played out by the search that has just
valued the world (``outcomes.played_out``).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..replay import Replay
from ..rules import HandResult, Variant
from ..rules.facts import HandFacts
from ..search.worlds import WorldLine
from ..tiles import Move
from .outcomes import Closing, HandRead, drawn_facts, hand_leader, line_facts, node_at, played_out

__all__ = ["WorldReading", "dealt_facts", "points_before"]


@dataclass(frozen=True)
class WorldReading:
    """How a world's results are read at a decision: the hand's leader, each seat's points scored during play
    before it (None: none) and the side-0 points the fair values leave out (those scored before it:
    :func:`points_before`)."""

    variant: Variant
    leader: int
    before: tuple | None
    offset: int

    @classmethod
    def at(cls, rep: Replay, k: int, seat: int) -> WorldReading:
        """The reading at the decision of ``seat`` before step ``k`` of ``rep``."""
        before = next((s.scores for s in reversed(rep.steps[:k]) if s.scores is not None), None)
        return cls(rep.variant, hand_leader(rep), before, points_before(rep, k, seat, rep.variant.seating.sides > 2))

    def played(self, search, pos, row: list[tuple[Move, int]]) -> list[HandResult | None]:
        """Each alternative's result in the world ``pos``, its principal variation played out by ``search`` (the
        values of ``row`` its first guesses): a search that has just valued ``row`` in this world starts warm."""
        at = node_at({}, pos)
        hand = HandRead(self.variant, self.leader, self.before)
        return [played_out(hand, search, pos, move, at, value + self.offset) for move, value in row]

    def lines(self, pos, hands: tuple[int, ...], row: list[tuple[Move, int]], lines: list) -> list[HandResult | None]:
        """Each alternative's result in a world of a draw game scoring during play (or of Hungarian) along its
        principal variation, given (``lines``: a ``DrawLine`` each, None where one is not known): the facts of each
        finished hand read off the line (:func:`drawn_facts`); ``pos``: the decision in any of the worlds,
        ``hands``: this world's at the decision (the worlds differ in nothing else the facts read)."""
        variant, hand = self.variant, HandRead(self.variant, self.leader, self.before)
        return [None if line is None else variant.hand_result(drawn_facts(hand, pos, hands, move, line))
                for (move, _), line in zip(row, lines)]

    def dealt(self, pos, hands: tuple[int, ...], row: list[tuple[Move, int]], lines: list) -> list[HandResult | None]:
        """:meth:`lines` for a game the int solver plays (no drawing, no points during play) whose lines a compiled
        batch of worlds gave (``WorldLine``): ``pos`` the decision in any of the worlds, ``hands`` this world's; the
        facts of each finished hand read off the line (:func:`dealt_facts`), the history so far read once."""
        variant, leader = self.variant, self.leader
        history = tuple((entry[1], entry[0].tile) for entry in pos.history)
        return [None if line is None else variant.hand_result(dealt_facts(pos, move, line, leader, hands, history))
                for (move, _), line in zip(row, lines)]


def dealt_facts(pos, move: Move, line: WorldLine, leader: int, hands: tuple[int, ...] | None = None,
                history: tuple | None = None) -> HandFacts:
    """The facts of the hand once ``move`` (a tile laid) and then ``line`` are played at ``pos`` (with ``hands``
    where given; ``history``: its moves' seats and tiles, where the caller has them: a line of a game without
    drawing nor points during play, the line ending the hand on its last tile), as ``hand_facts`` reads them off
    the position those moves leave, without playing them (:func:`outcomes.line_facts`)."""
    tiles = line.tiles
    played = [(pos.turn, move.tile), *((s, None if t < 0 else tiles[t]) for s, t, _ in line.steps)]
    return line_facts(pos, played, line.ends_before, Closing(leader), hands, history)


def points_before(rep: Replay, k: int, seat: int, individual: bool) -> int:
    """The points scored during play before step ``k`` (All Fives), as the fair values count them (side 0's less
    the others'; ``individual``: ``seat``'s less all the others')."""
    scores = next((s.scores for s in reversed(rep.steps[:k]) if s.scores is not None), rep.start_scores)
    if scores is None:
        return 0
    if individual:
        return 2 * scores[seat] - sum(scores)
    teams = rep.variant.seating.teams
    return sum(p if teams[s] == 0 else -p for s, p in enumerate(scores))
