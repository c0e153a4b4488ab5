"""All the worlds of one decision of a draw game (All Fives, Hungarian) solved in one call into the compiled core.

The fair analysis values every alternative of a decision in each world its mover cannot tell apart:
the same line, the same turn, the same number of tiles drawn, with the other hands and the boneyard's
order otherwise. :class:`DrawWorlds` hands them all to the compiled draw search at once
(``_draw.DrawSearch.worlds``): for each world the core loads the hands and the order, readies its one
table (back at its starting size, empty: each world is searched as by a search of its own, so its
count of positions, and the node limit, are those of a :class:`~analyzer.search.TreeSearch` made for
it) and values each move as ``TreeSearch.values`` does: the points it scores at once, then MTD(f)
from the last value found (0 for each new world) over the state it leaves, a hand won by the move
valued at once. The lead is such a move (the line opened with its two numbers, the opener's right to
add a tile after it), and so is the opener's choice to add none; every draw and pass after it is the
core's. No Python call per world, per move or per position. :meth:`DrawWorlds.lines` also plays, in each
world right after its values and from the table they left, each move's principal variation as
``TreeSearch.best_line`` plays it (the first best choice in the order of ``legal_moves``, the forced draws
and passes between), which the match scale reads where both sides score in a hand (All Fives' points during
play, Hungarian's bad points). Hungarian's deals go the same way (no boneyard: each world's order empty; a
player plays on while he can).

It knows nothing of where the worlds come from (``inference``). :meth:`DrawWorlds.values` returns None
where the core does not take them (no compiled core, a scoring ``describe`` does not know, a rule the
compact state does not play, a move that leaves a hand blocked at once): the caller then
searches each world alone (``TreeSearch.values``), which gives the same values.
"""
from __future__ import annotations

from typing import Sequence

from ..position import Position
from ..tiles import Move, tile_set
from .alphabeta import gc_paused
from .core import DRAW_ENTRY_BYTES, NODE_LIMIT, TABLE_MB, SearchLimit, check_table_mb, draw_core, resolve_draw
from .draw import DrawLine, compact, compact_state, plays_draws, plays_runs
from .scoring import describe, value_bound

__all__ = ["DrawWorlds"]


class DrawWorlds:
    """Exact values of every alternative of one decision of a draw game in many worlds, as
    :class:`~analyzer.search.TreeSearch` gives them world by world (side-0 points; ``rules`` the variant, or
    one player against the rest). ``node_limit`` bounds each world's search (past it
    :class:`~analyzer.search.SearchLimit`), ``table_mb`` the one table's memory."""

    def __init__(self, rules, node_limit: int | None = None, table_mb: float = TABLE_MB,
                 core: str | None = None) -> None:
        check_table_mb(table_mb)
        self.rules = rules
        self.node_limit = NODE_LIMIT if node_limit is None else node_limit
        self.table_mb = table_mb
        self.core = resolve_draw(core) if plays_draws(rules) else "python"
        self.run = plays_runs(rules)        # Hungarian: no boneyard (each world's order empty), a player plays on
        self.table = None           # the last call's DrawSearch (its table's memory: ``table.nbytes``)

    def values(self, position: Position, worlds: Sequence[tuple[tuple[int, ...], tuple[int, ...]]],
               only: Sequence[Move] | None = None) -> list[list[tuple[Move, int]]] | None:
        """The value of every legal move of the player to move in each world, as ``TreeSearch.values``
        gives them: ``position`` is the decision in one of the worlds (a draw position whose boneyard is
        drawn in a fixed order, every hand known); each world is ``(hands, order)``: every seat's hand at
        the decision and the boneyard's order (tile bits, all of it, the tiles drawn so far first), the
        rest as in ``position``. None where the core does not take them (see the module). ``only``: value these of
        the legal moves alone (in their order among the legal moves), the others not searched."""
        got = self._batch(position, worlds, False, only)
        return None if got is None else got[0]

    def lines(self, position: Position, worlds: Sequence[tuple[tuple[int, ...], tuple[int, ...]]],
              only: Sequence[Move] | None = None) -> tuple | None:
        """``(values, lines)``: the values as :meth:`values` gives them, and for each world each move's principal
        variation after it, as ``TreeSearch.best_line`` plays it from the position after the move (the best
        moves for both sides to the end of the hand, at each choice the first best in the order of
        ``legal_moves``, the forced draws and passes included), a :class:`DrawLine` (None: past the node limit at
        one of its choices), from the table the world's values left (``_draw.DrawSearch.worlds`` with
        ``lines``). None where :meth:`values` is; ``only`` as there."""
        return self._batch(position, worlds, True, only)

    def _batch(self, position: Position, worlds, lines: bool, only: Sequence[Move] | None = None) -> tuple[list, list] | None:
        described = describe(self.rules)
        if self.core != "compiled" or described is None or not worlds or any(position.hidden):
            return None
        moves = position.legal_moves()
        if only is not None:
            moves = [m for m in moves if m in only]
        order = tuple(t.bit for t in getattr(position, "order", ()))
        roots = _roots(self.rules, position, moves, order)
        if roots is None:
            return None
        k, leader, roots = roots
        play = getattr(self.rules, "play", None)
        entries = max(4, int(self.table_mb * (1 << 20)) // DRAW_ENTRY_BYTES)
        scores = -1 if play is None else int(play.threes) | int(play.pub) << 1
        maximiser = [int(side == 0) for side in self.rules.seating.teams]
        until = int(getattr(position, "rule", "until") == "until")
        self.table = draw_core().DrawSearch(position.n, position.max_pip, list(order),
                                            max(0, len(order) - getattr(position, "keep", 0)), until, scores, maximiser,
                                            described.ints(), None, entries, leader, value_bound(self.rules), self.run)
        with gc_paused():
            got = self.table.worlds([h for h, _ in worlds], [o for _, o in worlds], position.turn, k, roots,
                                    self.node_limit, lines)
        if got[1]:
            raise SearchLimit(f"more than {self.node_limit:,} positions")
        rows = [list(zip(moves, row)) for row in got[0]]
        if not lines:
            return rows, []
        tiles = tile_set(position.max_pip)
        side = 1 if self.rules.seating.teams[position.turn] == 0 else -1
        return rows, [[None if line is None else DrawLine(tuple(line[0]), None if line[1] < 0 else line[1:], tiles,
                                                          side * root[0]) for line, root in zip(found, roots)]
                      for found in got[2]]


def _roots(rules, position, moves: list[Move], order: tuple[int, ...]) -> tuple[int, int, list[tuple]] | None:
    """``(draws taken, leader, roots)``: each move as the core takes it, ``(points it scores at once for side 0,
    tile index or -1, the compact state it leaves but the hands)``; None where a move leaves no compact state
    (a rule it does not play, a hand blocked at once) or a move draws."""
    seat = position.turn
    play = getattr(rules, "play", None)
    maximise = rules.seating.teams[seat] == 0
    roots, draws, leaders = [], set(), set()
    for move in moves:
        if move.draw:
            return None
        position.push(move)
        try:
            outcome = position.outcome()
            if outcome is not None and position.hands[seat]:
                return None             # blocked at once: the general search's leaf, not the core's
            if not compact(position):
                return None
            _, _, _, shape, t, drawn, k, passes, offer, (last, bit, before) = compact_state(position, play, order)
            left, right = position.ends         # (as they lie: the core sorts them for its search, not its lines)
            gain = 0
            if play is not None and move.tile is not None:
                gain = play.points(play.ends_total(position.line_ends(), position.ends))
                gain = gain if maximise else -gain
            leaders.add(next(s for m, s, *_ in position.history if m.tile is not None))
        finally:
            position.pop()
        draws.add(k)
        bl, br = before if before is not None else (-1, -1)
        roots.append((gain, -1 if move.tile is None else move.tile.index, left, right, shape, t, drawn, passes, offer,
                      last, bit.bit_length() - 1, bl, br))
    if len(draws) != 1 or len(leaders) != 1:
        return None
    return draws.pop(), leaders.pop(), roots
