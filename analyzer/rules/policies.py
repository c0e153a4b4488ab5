"""Small rule policies. A variant is a composition of these, never a copied module."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..tiles import Tile, tile_set

__all__ = ["Seating", "Dealing", "Opening", "BlockRule", "HandScoring", "MatchScoring",
           "HandFacts", "HandResult"]


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What the scoring policies look at when a hand is over."""

    termination: str            # "domino" or "blocked"
    seat: int                   # who went out, or who played last before the block
    pips: tuple[int, ...]       # pips left in each seat's hand
    counts: tuple[int, ...]     # tiles left in each seat's hand
    leader: int                 # who led the hand


@dataclass(frozen=True, slots=True)
class HandResult:
    """The result of a hand: the winning side (None for a draw) and the points it scores."""

    termination: str
    winner: int | None          # winning side (team index), None for a draw
    points: int
    seat: int                   # the seat that went out or played last


# -- seating and partnerships ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where: ``teams[s]`` is the side of seat ``s`` (play order)."""

    players: int
    teams: tuple[int, ...]

    @classmethod
    def partners(cls) -> Seating:
        """Four players, partners opposite: seats 1+3 and 2+4."""
        return cls(4, (0, 1, 0, 1))

    @classmethod
    def individual(cls, players: int) -> Seating:
        return cls(players, tuple(range(players)))

    @property
    def sides(self) -> int:
        return max(self.teams) + 1

    def members(self, side: int) -> tuple[int, ...]:
        return tuple(s for s, t in enumerate(self.teams) if t == side)


# -- dealing --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Dealing:
    """The set (double-``max_pip``) and how many tiles each hand gets; the rest are sleepers."""

    hand_size: int = 7
    max_pip: int = 6
    set_aside: tuple[Tile, ...] = ()

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(t for t in tile_set(self.max_pip) if t not in self.set_aside)

    def all_dealt(self, players: int) -> bool:
        return self.hand_size * players == len(self.tiles)


# -- who leads and with what ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Opening:
    """The lead. ``first_game_tile``: in the first game of a match its holder leads with it.
    ``every_game_tile``: every hand is opened by its holder with it."""

    first_game_tile: Tile | None = Tile(6, 6)
    every_game_tile: Tile | None = None

    def forced_tile(self, game_number: int | None) -> Tile | None:
        """The tile the hand must be opened with, if the rules name one."""
        if self.every_game_tile is not None:
            return self.every_game_tile
        if game_number == 1:
            return self.first_game_tile
        return None

    def leader(self, hands: Sequence[frozenset[Tile] | None], game_number: int | None) -> int | None:
        """The seat that must lead, when the rules and the deal decide it."""
        tile = self.forced_tile(game_number)
        if tile is None:
            return None
        for seat, hand in enumerate(hands):
            if hand is not None and tile in hand:
                return seat
        return None


# -- a blocked hand -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BlockRule:
    """Decide a blocked hand. ``by="team"``: the side with fewer pips wins, equal pips is a draw."""

    by: str = "team"

    def winner(self, facts: HandFacts, seating: Seating) -> int | None:
        totals = [0] * seating.sides
        for seat, pips in enumerate(facts.pips):
            totals[seating.teams[seat]] += pips
        best = min(totals)
        if totals.count(best) > 1:
            return None
        return totals.index(best)


# -- hand scoring ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HandScoring:
    """Points for the winners. ``count="losers"``: the pips left in the losing sides' hands."""

    count: str = "losers"

    def points(self, facts: HandFacts, winner: int | None, seating: Seating) -> int:
        if winner is None:
            return 0
        if self.count == "all":
            return sum(facts.pips)
        return sum(p for s, p in enumerate(facts.pips) if seating.teams[s] != winner)


# -- match scoring --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MatchScoring:
    """The match: the first side to reach ``target`` points wins."""

    target: int = 100
