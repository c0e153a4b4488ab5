"""The Domino Whist irregularities (§8) as the replay meets them: the tiles exposed during play laid
open from their row, a false pass that a later play proves, a false play that stands.

A part of the replayer (:class:`analyzer.replay._Replayer`), which holds the game, the judge and what
the replay has found so far (``lacks``, ``false_plays``, ``exposed_rows``)."""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..position import Position
from ..record import MoveEntry
from ..rules.replayed import exposed_after_play, false_pass_proved
from ..tiles import Move, Tile


class WhistIrregularities:
    """The replayer's reading of §8: ``expose``, ``exposed_pass``, ``standing``, ``followed``."""

    def expose(self, pos: Position, moves: list[MoveEntry], i: int, collect: bool) -> None:
        """Lay open the tiles exposed during play whose row starts at entry ``i`` (the first entry of
        that row or a later one); the collecting run notes after how many moves (``reveals``)."""
        def bound(k: int, row: int) -> bool:          # an entry without a row number binds
            return moves[k].round is None or moves[k].round >= row
        tiles = 0
        for row, bits in self.exposed_rows:
            if bound(i, row) and not (i and bound(i - 1, row)):
                tiles |= bits
        held = 0
        for hand in pos.hands:
            held |= hand
        if collect and tiles & ~held:         # the tag exposes a tile its holder has played already
            where = self.game.tag_pos.get("Exposed")
            self.late_exposed.extend(self.problem(exposed_after_play(self.players[seat], tile, row), where)
                                     for seat, tile, row, _ in self.exposed_found if tiles & ~held & tile.bit)
        tiles &= held
        if tiles:
            pos.expose(tiles)
            if collect:
                self.reveals.append((len(pos.history), tiles))

    def exposed_pass(self, seat: int, tile: Tile) -> Diagnostic | None:
        """An earlier pass of ``seat`` that this tile proves false (a block game has no drawing)."""
        found = self.judge.contradicted(self.lacks, seat, tile)
        if found is None:
            return None
        _, numbers, entry = found
        return self.problem(false_pass_proved(self.players[seat], entry.pos.line, numbers, tile), entry.pos)

    def standing(self, moves: list[MoveEntry], i: int, seat: int) -> Move | None:
        """Where the tile of entry ``i`` lies if the FalsePlay tag names it (``[FalsePlay "C [2-3]@6=3"]``)
        and the next player has moved since (an entry by another player follows): a false play that
        stands (Domino Whist §8). None otherwise: a false play not followed is taken back."""
        entry = moves[i]
        if not self.false_plays or not entry.is_play:
            return None
        stands = self.false_plays.get((entry.player, entry.tile))
        if stands is None or not self.followed(moves, i, seat):
            return None
        return stands

    def followed(self, moves: list[MoveEntry], i: int, seat: int) -> bool:
        """Whether the next player has moved after entry ``i`` (an entry by another player follows it)."""
        later = next((m for m in moves[i + 1:] if not m.is_muggins), None)
        return later is not None and self.seat_of.get(later.player) not in (None, seat)
