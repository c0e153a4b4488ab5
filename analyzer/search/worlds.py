"""All the worlds of one decision solved in one call into the compiled core.

The fair analysis values every alternative of a decision in each of the deals its mover cannot tell
apart: the same position (the tiles on the table, the line, the turn) with the other hands dealt
otherwise. :class:`WorldsSolver` hands them all to the compiled core at once
(``_core.BlockDeal.worlds``): for each deal the core loads the hands, readies its one table (back at
its starting size, and empty: the new deal's id is the only one whose entries count, so the slots of the
deals before are free without a pass over them; below its bound the table loses no entry, so a deal's
entries are those an empty table would get) and values each move as
``Solver.values`` does a play on the line (the tile placed, the forced passes skipped, MTD(f) from the
table's bound nearest 0), so the values are those of a :class:`~analyzer.search.block.Solver` made for
each world, without a Python call per world or per move. The lead is taken too (each tile led opens
the line with its two numbers). :meth:`WorldsSolver.lines` also plays, in each world right after its values
and from the table they left, each move's principal variation (the line ``Solver.best_line`` plays: the
first best move at each choice in the order of ``legal_moves``, ``_core.c``'s ``line_step``, which
``BlockDeal.line`` plays too), which the match scale reads where both sides score in a hand.

It knows nothing of where the deals come from (``inference``) and leaves to ``Solver.values`` what
the core does not take this way: a deal in which a move ends the hand (its row is None), and every
deal where there are pass bonuses, exposed tiles, a scoring asked of Python, a set too large for the
core, or no compiled core (then :meth:`WorldsSolver.values` returns None).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..position import Position, placed
from ..rules.variants import Variant
from ..tiles import PASS, Move
from .alphabeta import gc_paused, hand_leader
from .block import known_position
from .blockdeal import CoreDeal, compiled_plays, core_scores
from .core import NODE_LIMIT, TABLE_MB, SearchLimit, check_table_mb, compiled_core, resolve
from .scoring import counts_pass_bonuses

__all__ = ["WorldLine", "WorldsSolver"]


class WorldsSolver:
    """Exact values of every alternative of one position in many deals, for the side-0 points as
    :class:`~analyzer.search.block.Solver` gives them. ``node_limit`` bounds each deal's search (past
    it :class:`~analyzer.search.SearchLimit`); ``table_mb`` the one table's memory; ``nodes`` counts the
    states of the last call, every deal's."""

    def __init__(self, variant: Variant, node_limit: int | None = None, table_mb: float = TABLE_MB,
                 core: str | None = None) -> None:
        check_table_mb(table_mb)
        self.variant = variant
        self.node_limit = NODE_LIMIT if node_limit is None else node_limit
        self.table_mb = table_mb
        self.core = resolve(core)
        self.nodes = 0
        self._table = None

    def values(self, position: Position, deals: Sequence[tuple[int, ...]],
               only: Sequence[Move] | None = None) -> list[list[tuple[Move, int]] | None] | None:
        """The value of every legal move of the player to move, as ``Solver.values`` gives them, in each
        of ``deals``: ``position`` (every hand known) with the hands dealt as the deal says (each seat's
        tiles as dealt, those on the table included; the line and the turn those of ``position``).
        None for a deal in which a move ends the hand, and None for them all where the core does not
        take them (see the module docstring). ``only``: value these of the legal moves alone (in their order among
        the legal moves), the others not searched (the fair analysis's moves still in contention)."""
        got = self._batch(position, deals, False, only)
        return None if got is None else got[0]

    def lines(self, position: Position, deals: Sequence[tuple[int, ...]],
              only: Sequence[Move] | None = None) -> tuple[list, list] | None:
        """``(values, lines)``: the values as :meth:`values` gives them, and for each deal (None where its
        values are None) each move's principal variation after it, as ``Solver.best_line`` plays it from the
        position after the move (the best moves for both sides to the end of the hand, at each choice the
        first best in the order of ``legal_moves``, the forced passes included), a :class:`WorldLine` (None:
        past the node limit at one of its choices). The lines come from the same call into the core, each deal's
        from the table its values left (``_core.BlockDeal.worlds`` with ``after``). None where :meth:`values`
        is; ``only`` as there."""
        return self._batch(position, deals, True, only)

    def _batch(self, position: Position, deals: Sequence[tuple[int, ...]], lines: bool,
               only: Sequence[Move] | None = None) -> tuple[list, list] | None:
        position = known_position(self.variant, position)
        moves = position.legal_moves()
        if only is not None:
            moves = [m for m in moves if m in only]
        if (not deals or self.core != "compiled" or not moves or moves[0].tile is None or position.exposed
                or counts_pass_bonuses(self.variant)
                or not compiled_plays(position.max_pip, False, False, position.n) or not core_scores(self.variant)):
            return None
        if self._table is None:
            self._table = compiled_core().Table(int(self.table_mb * (1 << 20)) // compiled_core().ENTRY_BYTES)
        deal = CoreDeal(self.variant, tuple(deals[0]), hand_leader(position), position.max_pip, self._table, 1)
        root = _root(deal, position, moves)
        if root is None or deal.python_leaves:
            return None
        played = 0
        for move, *_ in position.history:
            played |= move.tile.bit if move.tile is not None else 0
        ends = -1 if position.ends is None else deal.ends_code(*position.ends)
        before = deal.core.nodes
        after = [r[2:] for r in root] if lines else None
        with gc_paused():
            got = deal.core.worlds(deals, played, ends, position.turn, [r[:2] for r in root], self.node_limit,
                                   after)
        self.nodes = deal.core.nodes - before
        if got[1]:
            over = SearchLimit(f"more than {self.node_limit:,} positions")
            over.solved = len(got[0])       # (the deals before the one past the limit were solved)
            raise over
        rows = [None if row is None else list(zip(moves, row)) for row in got[0]]
        if not lines:
            return rows, []
        tiles = tuple(deal.tiles)
        return rows, [None if found is None else [None if line is None else WorldLine(tuple(line[0]), line[1], tiles)
                                                  for line in found] for found in got[2]]


@dataclass(frozen=True)
class WorldLine:
    """A principal variation as :meth:`WorldsSolver.lines` gives it: each step ``(seat, tile index, the open number
    it goes on)`` (a pass: ``(seat, -1, -1)``), the forced passes included, and the ends as they lay before its
    last tile (the line ends on the tile that ends the hand)."""

    steps: tuple[tuple[int, int, int], ...]
    ends_before: tuple[int, int]
    tiles: tuple = field(repr=False, compare=False)     # the set's tiles, by index

    @property
    def moves(self) -> list[Move]:
        """The steps as the position's moves."""
        tiles = self.tiles
        return [PASS if t < 0 else placed(tiles[t], end) for _, t, end in self.steps]


def _root(deal: CoreDeal, position: Position, moves: list[Move]) -> list[tuple[int, ...]] | None:
    """Each move of ``position`` as the core takes it: its tile's index and the ends code after it (a
    lead: the tile's two numbers; a play as ``Solver._after`` computes it), then the ends as they lie after
    it and the seats that lay a tile on the first of two equal ends there (``BlockDeal.line``'s ``first``);
    None where a move does not leave the line so or the turn does not pass on (checked on the position)."""
    s = position.turn
    root = []
    for m in moves:
        tile = m.tile
        if position.ends is None:
            e2 = deal.ends_code(tile.low, tile.high)
        else:
            a, b = position.ends
            e2 = deal.ends_code(tile.other(a), b) if m.end == a else deal.ends_code(a, tile.other(b))
        position.push(m)
        try:
            if position.ends is None or deal.ends_code(*position.ends) != e2 or position.turn != (s + 1) % position.n:
                return None
            first = sum(1 << seat for seat in range(position.n) if position.equal_end(seat) == 1)
            root.append((tile.index, e2, *position.ends, first))
        finally:
            position.pop()
    return root
