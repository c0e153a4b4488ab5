"""A book-table row written with more cells than the table has players.

The reader keeps the first cells of such a row, one per column, and reports the rest
(``too-many-cells``, with the cells it left out in ``details["cells"]``). The slip is a cell
written twice, or one that never was, anywhere in the row: its later cells then stand one column to
the right, and the last ones fall off the table. So every repair of such a row deletes one of its
cells (as many as it has too many), wherever it stands, ``----`` and the left-out cells included;
the cells after it go one column left and the first left-out one comes back into the last column.
Each way of deleting them is a game of its own, searched with the edits left
(:func:`overflow_repairs`); its ``delete-cell`` edits come first in the repairs found.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations, product
from typing import Callable

from ..diagnostics import Diagnostic
from ..record import Game, MoveEntry, Span
from ..replay import MatchTerms, replay
from ..match import check_decided_result   # (the stated result, checked as the match checks it)
from ..tiles import Tile
from ..rules.codes import Code
from .builder import play_text, repaired_result, table_row
from .edits import COSTS, Edit, Repair, RepairLimits, RepairReport


@dataclass(frozen=True)
class OverflowRow:
    """A table row with cells too many: each cell in order (a move, or None for ``----`` or an
    unreadable one), the text and place of each, and which moves of the game it holds."""

    number: int
    cells: tuple[MoveEntry | None, ...]
    texts: tuple[str, ...]
    places: tuple[Span, ...]
    start: int                   # the index in the game's moves of the row's first move
    stop: int                    # and of the first move after the row
    extra: int                   # how many cells too many

    def deleted(self, players: tuple[str, ...], gone: tuple[int, ...]) -> list[MoveEntry]:
        """The row's moves once the cells ``gone`` are deleted: cell k in column k again."""
        kept = [c for k, c in enumerate(self.cells) if k not in gone]
        return [replace(c, player=players[k]) for k, c in enumerate(kept) if c is not None]


def overflow_rows(game: Game, notation: list[Diagnostic]) -> list[OverflowRow]:
    """The rows of ``game`` that the reader reported with cells too many (``notation``: the errors
    met reading it), each with every cell it was written with."""
    if game.form != "table" or not game.players:
        return []
    seat = {name: k for k, name in enumerate(game.players)}
    n = len(game.players)
    out = []
    for d in notation:
        if d.code != Code.TOO_MANY_CELLS or not d.details.get("cells") or d.line is None:
            continue
        number = d.details.get("row")
        # the row's moves: the last run of moves with its number written before the left-out cells
        stop = next((i for i, m in enumerate(game.moves) if (m.pos.line, m.pos.column) > (d.line, d.column or 0)),
                    len(game.moves))
        start = stop
        while start > 0 and game.moves[start - 1].round == number and game.moves[start - 1].pos.line == d.line:
            start -= 1
        if start == stop:
            continue            # no move of this game stands in that row (another game's, or no move at all)
        cells: list[MoveEntry | None] = [None] * n
        for m in game.moves[start:stop]:
            if m.player in seat:
                cells[seat[m.player]] = m
        texts = ["----" if c is None else play_text(c.tile, c.end, c.annotation) for c in cells]
        places = [c.pos if c is not None else Span(d.line, 0) for c in cells]
        for cell in d.details["cells"]:
            entry = None
            if cell.get("move"):
                tile = Tile.parse(cell["tile"]) if cell.get("tile") else None
                entry = MoveEntry(game.players[-1], tile, cell.get("end"), cell.get("annotation"), None, number,
                                  Span(cell["line"], cell["column"]), arm=cell.get("arm"))
            cells.append(entry)
            texts.append(cell.get("text") or "?")
            places.append(Span(cell["line"], cell["column"]))
        out.append(OverflowRow(number, tuple(cells), tuple(texts), tuple(places), start, stop, len(d.details["cells"])))
    return out


# what a game with overflowing rows is searched with: (game, edits left, node budget) -> report
Search = Callable[[Game, int, "int | None"], RepairReport]


def overflow_repairs(game: Game, rows: list[OverflowRow], limits: RepairLimits, search: Search, variant,
                     terms: MatchTerms) -> tuple[list[Repair], dict[int, int], bool, int, str | None]:
    """Every way to delete the cells too many of ``rows``, with at most ``limits.max_edits`` edits in all,
    each searched with the edits left by ``search``, which share the budget of ``limits.max_nodes``
    candidates: (the repairs, best first; how many of each size; whether every search was complete; the
    candidates tried; a problem that stops the search, if any)."""
    max_edits, max_nodes = limits.max_edits, limits.max_nodes
    need = sum(r.extra for r in rows)
    if need > max_edits:
        return [], {}, True, 0, None
    choices = [list(combinations(range(len(r.cells)), r.extra)) for r in rows]
    ways = list(product(*choices))
    budget = max(max_nodes // len(ways), 1)
    found: list[Repair] = []
    counts: dict[int, int] = {}
    complete, searched, problem = True, 0, None
    for way in ways:
        fixed, edits, shift = _deleted(game, rows, way)
        cost = sum(e.cost for e in edits)
        before, after = _rows_text(game, rows, way, fixed)
        rep = check_decided_result(replay(fixed, variant, terms=terms))
        if rep.valid:
            found.append(Repair(edits, round(cost, 3), fixed, rep.result_dict(), repaired_result(rep), before, after, rep))
            counts[need] = counts.get(need, 0) + 1
            continue
        if max_edits == need:
            continue
        report = search(fixed, max_edits - need, budget)
        complete, searched = complete and report.complete, searched + report.searched
        problem = problem or report.problem
        for size, k in report.counts.items():
            if size + need <= max_edits:
                counts[size + need] = counts.get(size + need, 0) + k
        for r in report.repairs:
            if len(r.edits) + need <= max_edits:
                found.append(replace(r, edits=edits + tuple(shift(e) for e in r.edits), cost=round(cost + r.cost, 3),
                                     rows_before=before + r.rows_before, rows_after=after + r.rows_after))
    found.sort(key=lambda r: (len(r.edits), round(r.cost, 6)))
    out, seen = [], set()
    for r in found:             # a cell written twice: deleting either copy gives the same record
        key = _content(r.game)
        if key in seen:
            counts[len(r.edits)] -= 1
            continue
        seen.add(key)
        out.append(r)
    return out, {k: v for k, v in counts.items() if v > 0}, complete, searched, problem


def _content(game: Game) -> tuple:
    return (tuple((m.player, m.tile, m.end, m.arm, m.draw, m.claim, m.muggins) for m in game.moves),
            tuple((h.player, h.tiles) for h in game.hands), tuple(sorted(game.tags.items())))


def _deleted(game: Game, rows: list[OverflowRow], way: tuple) -> tuple[Game, tuple[Edit, ...], Callable[[Edit], Edit]]:
    """``game`` with the cells ``way`` names deleted from ``rows``; the delete-cell edits; and how an
    edit of the new game's moves is placed among the record's (the moves after a row whose count
    changed move by the difference)."""
    moves = list(game.moves)
    seat = {name: k for k, name in enumerate(game.players)}
    edits = []
    changes: list[tuple[int, int]] = []            # (the first move after a row, moves gained)
    for row, gone in sorted(zip(rows, way), key=lambda x: -x[0].start):
        new = row.deleted(game.players, gone)
        moves[row.start:row.stop] = new
        changes.append((row.stop, len(new) - (row.stop - row.start)))
        for k in gone:
            cell = row.cells[k]
            # the move's index; for ---- (or a cell left out) the index of the move after it
            index = next((i for i in range(row.start, row.stop) if seat.get(game.moves[i].player, -1) >= k), row.stop)
            kind = "delete-cell/pass" if cell is None or cell.tile is None else "delete-cell/tile"
            place = row.places[k]
            edits.append(Edit("delete-cell", place.line, place.column or None,
                              game.players[k] if k < len(game.players) else None, row.texts[k], None, index,
                              row.number, COSTS[kind]))
    edits.sort(key=lambda e: (e.line, e.column or 0))

    def shift(edit: Edit) -> Edit:
        if edit.index is None:
            return edit
        moved = sum(d for at, d in changes if edit.index >= at + d)
        return replace(edit, index=edit.index - moved) if moved else edit
    return replace(game, moves=moves), tuple(edits), shift


def _rows_text(game: Game, rows: list[OverflowRow], way: tuple, fixed: Game) -> tuple[list[str], list[str]]:
    """The rows as the record writes them (every cell) and as the repair does."""
    before, after = [], []
    column = {name: k for k, name in enumerate(game.players)}
    for row, gone in zip(rows, way):
        before.append(table_row(row.number, list(row.texts)))
        cells = ["----"] * len(game.players)
        for m in fixed.moves:
            if m.round == row.number and m.pos.line == row.places[0].line and m.player in column:
                cells[column[m.player]] = play_text(m.tile, m.end, m.annotation)
        after.append(table_row(row.number, cells))
    return before, after
