"""The facts of a finished hand: what the scoring policies look at (``HandFacts``), read off the
position (``hand_facts``), and what they make of it (``HandResult``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..tiles import Tile

if TYPE_CHECKING:
    from ..position import Position

__all__ = ["HandFacts", "HandResult", "hand_facts"]


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What the scoring policies look at when a hand is over.

    The first five fields are always there. The rest are filled by the replayer; a search that
    cannot know them leaves them None and the policies that need them say so
    (``Variant.search_note``): ``hands`` (the tiles left in each hand, bit masks) for a tile worth
    more than its pips ([0-0] = 50); ``last_tile`` and ``ends_before`` (the open numbers before
    it) for capicú, dominao, chuchazo and Milo; ``history`` (each move's seat and tile, None for
    a pass) for pass bonuses; ``play_points`` (what each seat scored during the hand: All Fives)."""

    termination: str            # "domino" or "blocked"
    seat: int                   # who went out, or who played last before the block
    pips: tuple[int, ...]       # pips left in each seat's hand
    counts: tuple[int, ...]     # tiles left in each seat's hand
    leader: int                 # who led the hand
    hands: tuple[int, ...] | None = None
    last_tile: Tile | None = None
    ends_before: tuple[int, int] | None = None
    history: tuple[tuple[int, Tile | None], ...] | None = None
    play_points: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class HandResult:
    """The result of a hand: the winning side (None for a draw) and the points it scores.

    ``scores`` is what each side adds to its match total (bad points for bad-point scoring),
    ``void`` a hand that does not count and is played again, ``bonuses`` the named bonuses in
    ``points`` (``("capicú", 100)``), ``at_once`` what each side scored at the start of the hand, before the rest
    was played (the salida: in ``scores`` too; it may end the match on the spot, ``MatchScoring.apply``)."""

    termination: str
    winner: int | None          # winning side (team index), None for a draw
    points: int
    seat: int                   # the seat that went out or played last
    scores: tuple[int, ...] = ()
    void: bool = False
    bonuses: tuple[tuple[str, int], ...] = ()
    note: str = ""              # which rule decided it, when it is not the plain one
    at_once: tuple[int, ...] = ()

    def added(self, sides: int) -> list[int]:
        """What the hand adds to each of ``sides`` sides' match score: its ``scores``, else its points to the
        winner (a first game's bonus, which the match counts, is the match's: ``MatchScoring.apply``)."""
        out = list(self.scores) if self.scores else [0] * sides
        if not self.scores and self.winner is not None:
            out[self.winner] = self.points
        return out


def hand_facts(pos: Position, termination: str, seat: int, leader: int,
               play_points: tuple[int, ...] | None = None) -> HandFacts:
    """Everything a scoring policy may look at in a finished hand, read off the position
    (``play_points``: what each seat scored during play, which the position does not know)."""
    last = ends_before = None
    for move, _seat, ends, *_ in reversed(pos.history):
        if move.tile is not None:
            last, ends_before = move.tile, ends
            break
    return HandFacts(termination, seat, tuple(pos.pips(s) for s in range(pos.n)),
                     tuple(pos.count(s) for s in range(pos.n)), leader, tuple(pos.hands), last, ends_before,
                     tuple((entry[1], entry[0].tile) for entry in pos.history), play_points)
