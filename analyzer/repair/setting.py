"""What the repair search of one game works in, fixed before it starts: the game as written, its
variant and players, the lead and worth the match gave it, and how its rows are numbered. The
deals (:class:`analyzer.repair.deal._Deal`) and the builder of repaired records
(:class:`analyzer.repair.builder._Builder`) read it; they never see the search itself."""
from __future__ import annotations

from dataclasses import dataclass

from ..record import Game
from ..replay import Replay, replay
from ..match import check_decided_result   # (the stated result, checked as the match checks it)
from ..rules import LeadRequirement, Variant
from ..tiles import Tile

__all__ = ["Setting"]


@dataclass(frozen=True)
class Setting:
    game: Game
    variant: Variant
    players: tuple[str, ...]
    seat_of: dict[str, int]
    valid_tiles: frozenset[Tile]         # the tiles of the set dealt
    lead: LeadRequirement | None         # who had to lead, as the match decided it
    worth: int | None                    # what the game is worth in its match
    lead_seat: int | None                # the Lead tag's player
    row_start: int                       # the column a row starts with
    first_round: int                     # the first row's number
    has_rounds: bool                     # every move carries its row number

    @property
    def n(self) -> int:
        return len(self.players)

    def replayed(self, game: Game) -> Replay:
        """``game`` replayed as the record's own game was: under the match's lead and worth."""
        return check_decided_result(replay(game, self.variant, lead=self.lead, worth=self.worth))
