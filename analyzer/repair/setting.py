"""What the repair search of one game works in, fixed before it starts: the game as written, its
variant and players, the lead and worth the match gave it, how its rows are numbered, and the tile
masks its lean checker works on. The deals (:class:`analyzer.repair.deal.Deal`), the checkers, the
candidate edits and the builder of repaired records (:class:`analyzer.repair.builder.Builder`) read
it; none of them sees the search itself."""
from __future__ import annotations

from dataclasses import dataclass

from ..position import mask_of
from ..record import Game, MoveEntry
from ..replay import MatchTerms, Replay, replay
from ..match import check_decided_result   # (the stated result, checked as the match checks it)
from ..rules import LeadRequirement, Variant
from ..tiles import Tile, tile_set

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
    table: bool                          # written as a book table
    omitted: bool                        # forced passes left out ([Passes "omitted"])
    max_pip: int
    tiles: tuple[Tile, ...]              # every tile of the set, by index
    match: tuple[int, ...]               # for each number, the mask of the tiles that carry it
    valid_mask: int                      # the mask of valid_tiles

    @classmethod
    def of(cls, game: Game, variant: Variant, lead: LeadRequirement | None = None,
           worth: int | None = None) -> Setting:
        """The setting of ``game`` under ``variant``, with the lead and worth its match gave it."""
        players = tuple(game.players) if game.players else tuple(h.player for h in game.hands)
        seat_of = {name: s for s, name in enumerate(players)}
        lead_tag = game.tags.get("Lead")
        lead_seat = seat_of.get(lead_tag.strip()) if lead_tag else None
        row_start, first_round = _row_scheme(game.moves, seat_of)
        has_rounds = bool(game.moves) and all(m.round is not None for m in game.moves)
        max_pip = variant.dealing.max_pip
        tiles = tuple(tile_set(max_pip))
        match = tuple(mask_of(t for t in tiles if t.matches(k)) for k in range(max_pip + 1))
        return cls(game, variant, players, seat_of, frozenset(variant.dealing.tiles), lead, worth, lead_seat,
                   row_start, first_round, has_rounds, game.form == "table",
                   game.tags.get("Passes", "").strip().lower() == "omitted", max_pip, tiles, match,
                   mask_of(variant.dealing.tiles))

    @property
    def n(self) -> int:
        return len(self.players)

    def replayed(self, game: Game) -> Replay:
        """``game`` replayed as the record's own game was: under the match's lead and worth."""
        return check_decided_result(self.dealt(game))

    def dealt(self, game: Game) -> Replay:
        """``game`` (a deal with no move) replayed for its deal alone: its first position and the deal's errors,
        without the stated result checked over the deals its hidden tiles allow (no move is played: a deal's
        trial costs its replay, not a listing of the hidden hands)."""
        return replay(game, self.variant, terms=MatchTerms(self.lead, self.worth))

    def row(self, src: MoveEntry) -> tuple:
        """The written row a move stands in: its number, and in a table its line too (a row copied
        twice keeps its number)."""
        return (src.round, src.pos.line if self.table else 0)


def _row_scheme(moves: list[MoveEntry], seat_of: dict[str, int]) -> tuple[int, int]:
    """The column a row starts with (the one most rows start with) and the first row's number."""
    starts: dict[int, int] = {}
    for prev, move in zip(moves, moves[1:]):
        if move.round is not None and prev.round is not None and move.round != prev.round:
            col = seat_of.get(move.player)
            if col is not None:
                starts[col] = starts.get(col, 0) + 1
    start = max(starts, key=lambda c: (starts[c], -c)) if starts else 0
    first = moves[0].round if moves and moves[0].round is not None else 1
    return start, first
