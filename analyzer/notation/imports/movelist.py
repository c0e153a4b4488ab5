"""A plain move list: CSV, one row a move in the order played, its cells the player, the tile and the side.

The columns are ``player``, ``tile`` and ``side`` in this order, or as a first row of those names says (in any
order, with ``game`` too: a row whose game differs from the row before starts a new game). The cells are
separated by commas, semicolons or tabs (whichever the first row uses most). The tile is ``3-6`` (or ``[3-6]``,
``3|6``, ``3:6``) or ``pass``; the side is ``left`` or ``right`` (the ends of the line, the first tile lying as
written: its first half left), ``@N`` (the open number the tile went on), ``>N`` (the arm, or the end of the
line, as the notation writes it), ``draw`` (the player takes the tile from the boneyard; ``?`` or no tile: one
the list does not show), ``pass``, or nothing. Blank lines and lines starting with ``#`` are left out."""
from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator

from ...i18n import gettext
from ...record import Game, MoveEntry
from ...rules.codes import Code
from ...tiles import Tile
from .common import (Imported, Problems, Stream, Streamed, WordNames, collected, dealt_hands, dealt_size, numbered,
                     read_tile, rules_text, source_lines)

__all__ = ["import_moves", "stream_moves", "COLUMNS"]

#: the columns a header row may name
COLUMNS = ("player", "tile", "side", "game")
_SIDES = {"left": 0, "l": 0, "right": 1, "r": 1}


def _cells(line: str, sep: str) -> list[tuple[str, int]] | None:
    """The cells of one CSV line, each with the column (1-based) it starts at; None for a quote left open."""
    cells, k = [], 0
    while True:
        start = k
        if line[k:k + 1] == '"':
            text, k = [], k + 1
            while True:
                close = line.find('"', k)
                if close < 0:
                    return None
                text.append(line[k:close])
                if line[close + 1:close + 2] == '"':
                    text.append('"')
                    k = close + 2
                    continue
                k = close + 1
                break
            stop = line.find(sep, k)
            stop = len(line) if stop < 0 else stop
            cells.append(("".join(text) + line[k:stop], start + 1))
        else:
            stop = line.find(sep, k)
            stop = len(line) if stop < 0 else stop
            cells.append((line[k:stop], start + 1))
        if stop >= len(line):
            return cells
        k = stop + 1


class _Row:
    """One row of the list: its line, and each named column's text and column."""

    def __init__(self, line: int, cells: dict[str, tuple[str, int]]):
        self.line = line
        self.cells = cells

    def text(self, name: str) -> str:
        return self.cells.get(name, ("", 0))[0].strip()

    def column(self, name: str) -> int:
        return self.cells.get(name, ("", 1))[1] or 1


def _rows(text: str, problems: Problems) -> Iterator[_Row]:
    """The rows of the list as they come, by the columns a header names (else player, tile, side)."""
    lines = ((n, line) for n, line in enumerate(source_lines(text), 1)
             if line.strip() and not line.lstrip().startswith("#"))
    top = next(lines, None)
    if top is None:
        return
    first = top[1]
    sep = max(",;\t", key=first.count)
    columns = list(COLUMNS[:3])
    head = _cells(first, sep)
    if head and {c.strip().lower() for c, _ in head} & set(COLUMNS):
        columns = [c.strip().lower() for c, _ in head]
        for name, (cell, column) in zip(columns, head):
            if name not in COLUMNS:
                problems.add(Code.SYNTAX, gettext("{cell} is no column of a move list ({columns})", cell=repr(cell.strip()),
                                                     columns=', '.join(COLUMNS)),
                             top[0], column)
        for needed in ("player", "tile"):
            if needed not in columns:
                problems.add(Code.SYNTAX, gettext("the header names no {column} column", column=repr(needed)), top[0], 1)
    else:
        lines = itertools.chain([top], lines)
    for n, line in lines:
        cells = _cells(line, sep)
        if cells is None:
            problems.add(Code.SYNTAX, gettext("a quoted cell is not closed on its line"), n, line.find('"') + 1)
            continue
        if len(cells) > len(columns) and any(c.strip() for c, _ in cells[len(columns):]):
            extra = next(col for c, col in cells[len(columns):] if c.strip())
            problems.add(Code.SYNTAX, gettext("the row has {n} cells, more than the {count} columns ({columns})",
                                                  n=len(cells), count=len(columns), columns=', '.join(columns)),
                         n, extra)
            continue
        yield _Row(n, dict(zip(columns, cells)))


def import_moves(text: str, source: str = "<moves>", variant: str | None = None,
                 rules: dict[str, str] | None = None) -> Imported:
    """The record of a CSV move list: a game for each run of rows of one ``game`` (one game without that
    column), of ``variant`` (default ``partnership``) and ``rules``; the players in the order they first move;
    each hand the tiles its player plays and ``?`` for the rest of the hand dealt (in a draw game, ``?``).
    Raises :class:`~.common.ImportSourceError` with every problem at its line and column."""
    return collected(stream_moves(text, source, variant, rules), source)


def stream_moves(text: str, source: str = "<moves>", variant: str | None = None,
                 rules: dict[str, str] | None = None) -> Stream:
    """:func:`import_moves` as a stream: each game as its rows are read (:class:`~.common.Streamed`), none after
    the first problem; the notes at the end, or :class:`~.common.ImportSourceError` with every problem."""
    problems = Problems(source)
    names = WordNames()
    name, chosen = variant or "partnership", dict(rules or {})
    rows = 0
    for part in _games(_rows(text, problems)):
        rows += len(part)
        for row in part:
            if row.text("player"):
                names(row.text("player"))
        game, where = _game(part, names.names, name, chosen, problems)
        if not problems:
            yield Streamed(game, where, part[-1].line)
    if not rows and not problems:
        problems.add(Code.NO_GAME, gettext("the list holds no move"), 1, 1)
    problems.check()
    notes = [gettext("no hand is in a move list: each is written with the tiles it plays, and ? for the rest")]
    if any(names.names[n] != n for n in names.names):
        words = ", ".join(gettext("{name} is {word}", name=repr(n), word=w) for n, w in names.names.items() if n != w)
        notes.append(gettext("names made words of the notation: {names}", names=words))
    return tuple(notes)


def _games(rows: Iterable[_Row]) -> Iterator[list[_Row]]:
    """The rows split where the ``game`` column changes, a game at a time."""
    part: list[_Row] = []
    for row in rows:
        if part and row.text("game") != part[-1].text("game"):
            yield part
            part = []
        part.append(row)
    if part:
        yield part


def _game(rows: list[_Row], names: dict[str, str], variant: str, rules: dict[str, str], problems: Problems
          ) -> tuple[Game, tuple[str, ...]]:
    """One game's rows as a game, and the place of each move."""
    moves, places, lines = [], [], []
    ends: list[int] = []
    for row in rows:
        move = _move(row, names, ends, problems)
        if move is not None:
            moves.append(move)
            places.append(gettext("line {line}", line=row.line))
            lines.append(row)
    players = tuple(dict.fromkeys(m.player for m in moves))
    size, _line = dealt_size(variant, rules, len(players))

    def too_many(k: int, player: str) -> None:
        problems.add(Code.DEAL_SIZE, gettext("{player} plays more than the {size} tiles dealt", player=player, size=size),
                     lines[k].line,
                     lines[k].column("tile"))
    hands = dealt_hands(players, moves, size, too_many)
    tags = {"Variant": variant}
    if rules:
        tags["Rules"] = rules_text(rules)
    tags |= {"Players": ", ".join(players)}
    if moves:
        tags["Lead"] = moves[0].player
    if rows and rows[0].text("game"):
        tags = {"Event": f"game {rows[0].text('game')}", **tags}
    return Game(tags=tags, players=players, hands=hands, moves=numbered(moves, len(players) or 1)), tuple(places)


_ARM = re.compile(r"^([@>])\s*(\d{1,2})$")


def _move(row: _Row, names: dict[str, str], ends: list[int], problems: Problems) -> MoveEntry | None:
    """One row as a move (None where it cannot be read: its problem is said); ``ends`` follows a line's two ends
    for the sides ``left`` and ``right``."""
    def bad(code: Code, column: str, message: str) -> None:
        problems.add(code, message, row.line, row.column(column))

    player, tile_text, side = row.text("player"), row.text("tile"), row.text("side").lower()
    if not player:
        bad(Code.NO_PLAYER, "player", gettext("the row names no player"))
        return None
    who = names[player]
    if side == "draw":
        if tile_text in ("", "?"):
            return MoveEntry(who, None, draw=True)
        got = read_tile(tile_text)
        if isinstance(got, str):
            bad(Code.BAD_TILE, "tile", got)
            return None
        return MoveEntry(who, Tile.of(*got), draw=True)
    if tile_text.lower() in ("pass", "passt") or side == "pass" and not tile_text:
        return MoveEntry(who, None)
    if not tile_text:
        bad(Code.BAD_TILE, "tile", gettext("the row has no tile: write one (3-6), or pass"))
        return None
    got = read_tile(tile_text)
    if isinstance(got, str):
        bad(Code.BAD_TILE, "tile", got)
        return None
    return _placed(who, got, side, ends, bad)


def _placed(who: str, halves: tuple[int, int], side: str, ends: list[int], bad) -> MoveEntry | None:
    """A play, with the open number (``@N``) or arm (``>N``) its side gives."""
    tile = Tile.of(*halves)
    m = _ARM.match(side)
    if m:
        number = int(m.group(2))
        if m.group(1) == "@" and not tile.matches(number):
            bad(Code.BAD_END, "side", gettext("{tile} has no {number} to go on {side}", tile=tile, number=number, side=side))
            return None
        if not ends:
            ends[:] = list(halves)
        elif m.group(1) == "@" and number in ends:
            ends[ends.index(number)] = tile.other(number)
        else:
            ends[:] = [-1, -1]      # (an arm, or an end of the line by its number: left and right not followed)
        return MoveEntry(who, tile, number if m.group(1) == "@" else None, arm=number if m.group(1) == ">" else None)
    if side not in ("", "lead") and side not in _SIDES:
        bad(Code.BAD_MOVE, "side", gettext("{side} is no side (left, right, @N, >N, draw, pass or nothing)",
                                          side=repr(side)))
        return None
    if not ends:
        ends[:] = list(halves)
        return MoveEntry(who, tile)
    if side in ("", "lead"):
        fits = [n for n in ends if tile.matches(n)]
        if len(set(fits)) == 1:
            ends[ends.index(fits[0])] = tile.other(fits[0])
        else:
            ends.clear()            # (the end is the replayer's to find: left and right are not followed after it)
            ends.extend([-1, -1])
        return MoveEntry(who, tile)
    at = _SIDES[side]
    if ends[at] < 0:                # (not followed: the replayer finds where it goes)
        return MoveEntry(who, tile)
    if not tile.matches(ends[at]):
        bad(Code.TILE_NO_MATCH, "side", gettext("{tile} does not fit the {side} end, which shows {number}", tile=tile,
                                                side=side, number=ends[at]))
        return None
    other = ends[1 - at]
    end = ends[at] if tile.matches(other) and other != ends[at] else None
    ends[at] = tile.other(ends[at])
    return MoveEntry(who, tile, end)
