"""Write games back as text: the PGN-like form, or the book table.

The reader reads back what the writer writes: ``parse(write(record)) == record`` for every record
the reader produced."""
from __future__ import annotations

import re
from functools import cache

from ..record import Game, MoveEntry, Record, Span
from .reader import derive_players, parser

__all__ = ["write", "write_game", "write_table", "table_writable"]


@cache
def _terminal(name: str) -> re.Pattern:
    return re.compile(parser().get_terminal(name).pattern.to_regexp())


def _is_name(name: str) -> bool:
    """Whether ``name`` can stand for a player in the text (a word, and no keyword)."""
    return bool(_terminal("NAME").fullmatch(name))


def _escape(text: str, chars: str) -> str:
    return re.sub(r"([\\" + re.escape(chars) + r"])", r"\\\1", text)


def _comment(text: str) -> str:
    return "{" + _escape(text, "{}") + "}"


def _tag(name: str, value: str) -> str:
    value = _escape(value.replace("\n", " "), '"')     # a tag value is one line
    return f'[{name} "{value}"]'


def _play(move: MoveEntry) -> str:
    if move.muggins is not None:
        return f"muggins {move.muggins}"
    if move.draw:
        text = f"draws {move.tile if move.tile is not None else '?'}"
    elif move.tile is None:
        text = "pass"
    else:
        text = (str(move.tile) + (f"@{move.end}" if move.end is not None else "")
                + (f">{move.arm}" if move.arm is not None else ""))
    return text + (move.annotation or "") + (f" +{move.claim}" if move.claim is not None else "")


def _hand_line(hand) -> str:
    if hand.tiles is None:
        return f"{hand.player}: ?"
    return f"{hand.player}:" + "".join(f" {tile}" for tile in hand.tiles) + " ?" * hand.unknown


def _remark_lines(remark: str | None) -> list[str]:
    if remark is None:
        return []
    return [f"; {line}".rstrip() for line in remark.split("\n")]


# ---- the PGN-like form --------------------------------------------------------------------------

def write_game(game: Game) -> str:
    """Write one game in the PGN-like form (tags, deal, numbered moves, comments, remark)."""
    lines = [_tag(name, value) for name, value in game.tags.items()]
    comments = [_comment(c) for c in game.comments if c]
    if game.tags:
        lines += comments
    if game.hands:
        if lines:
            lines.append("")
        lines += [_hand_line(hand) for hand in game.hands]
        if not game.tags:
            lines += comments
    if not game.tags and not game.hands:
        lines += comments
    if game.moves and lines:
        lines.append("")
    lines += _move_lines(game.moves, max(len(game.players), 1))
    lines += _remark_lines(game.remark)
    return "\n".join(lines) + "\n"


def _move_lines(moves: list[MoveEntry], per_line: int) -> list[str]:
    """One line per numbered round; unnumbered moves ``per_line`` to a line."""
    lines: list[str] = []
    words: list[str] = []
    current: object = object()
    count = 0
    for move in moves:
        if move.round != current or (move.round is None and count == per_line):
            if words:
                lines.append(" ".join(words))
            words, count = [], 0
            current = move.round
            if move.round is not None:
                words.append(f"{move.round}.")
        words.append(f"{move.player} {_play(move)}")
        count += 1
        if move.comment:
            words.append(_comment(move.comment))
    if words:
        lines.append(" ".join(words))
    return lines


# ---- the book table -----------------------------------------------------------------------------

def table_writable(game: Game) -> bool:
    """Whether the game fits a table: players with plain names, and every move by one of them in a
    numbered round, and no draws, claimed points or Muggins calls (a table cell holds a play or a pass)."""
    if not all(_is_name(p) for p in game.players) or any(m.draw or m.claim is not None or m.muggins is not None
                                                         for m in game.moves):
        return False
    return all(m.round is not None and m.round >= 0 and m.player in game.players for m in game.moves)


def write_table(game: Game, *, first_game: bool = True) -> str:
    """Write one game as the book table: tags, deal, header row, one row per round (a new row also
    starts where a player's column does not follow the previous cell's). Comments stay where the text
    read had them (:func:`_place_comments`): a move's comment in its cell, or on a line of its own
    under the move's row when it stood on a line of its own. ``first_game``: the game opens its record
    (a later game's comments never stand before its first line: they would belong to the game before)."""
    if not table_writable(game):
        raise ValueError("this game does not fit a table: every move needs a numbered round and "
                         "one of the players, and draws, claimed points and muggins calls have no cell")
    head: list[_Line] = [(game.tag_pos.get(name), _tag(name, value)) for name, value in game.tags.items()]
    if game.hands:
        if head:
            head.append(_BLANK)
        head += [(hand.pos, _hand_line(hand)) for hand in game.hands]
    if head:
        head.append(_BLANK)
    column = {player: i for i, player in enumerate(game.players)}
    rows: list[tuple[int, list[str], list[str]]] = []     # number, cells, a comment under it
    width = max((len(player) for player in game.players), default=0)   # a comment in a cell may overflow
    for move in game.moves:
        if not rows or rows[-1][0] != move.round or len(rows[-1][1]) > column[move.player]:
            rows.append((move.round, [], []))
        _, cells, below = rows[-1]
        if below:          # only the row's last move may keep its comment on a line of its own
            cells[-1] += f" {below.pop()}"
        if len(cells) < column[move.player]:
            cells += ["----"] * (column[move.player] - len(cells))
            width = max(width, len("----"))
        play = _play(move)
        width = max(width, len(play))
        own_line = bool(move.comment) and move.comment_pos.line not in (0, move.pos.line)
        cells.append(play + (f" {_comment(move.comment)}" if move.comment and not own_line else ""))
        if own_line:
            below.append(_comment(move.comment))
    first = max([len("Round")] + [len(str(number)) for number, *_ in rows])

    def line(head: str, cells) -> str:
        return f"{head:<{first}}  " + "  ".join(f"{cell:<{width}}" for cell in cells).rstrip()

    lines = _place_comments([*head, (game.table_pos, line("Round", game.players))], game, first_game)
    row_lines: list[str] = []
    last_row = -1
    for number, cells, below in rows:
        last_row = len(row_lines)
        row_lines.append(line(str(number), cells))
        row_lines += below
    lines += row_lines + _table_remark(game.remark, row_lines, last_row, own_line=game.remark_pos.column == 1)
    return "\n".join(lines) + "\n"


_Line = tuple[Span | None, str]          # a line to write, and where what it holds stood in the text read
_BLANK: _Line = (None, "")


def _place_comments(lines: list[_Line], game: Game, first_game: bool = True) -> list[str]:
    """``lines`` (the header of a table, ending with its header row) with the game's comments put
    back where they stood in the text read: on the line of what they followed when they shared its
    line, else on a line of their own before the first line that stood after them (and before a
    blank line there, when nothing stood between them and the line above). A comment whose place is
    not known goes under the header row. Unless the game is the first of its record (``first_game``), no comment goes
    before its first line (there it would be read as the game before's)."""
    lines = list(lines)
    header_row = len(lines) - 1
    places = list(game.comment_pos) + [None] * (len(game.comments) - len(game.comment_pos))
    last = -1           # the line of the comment placed last: the next one comes after it (they read back in order)
    for text, place in zip(game.comments, places):
        if not text:
            continue
        comment = _comment(text)
        if place is None or not place.line:
            header_row = max(header_row + 1, last + 1)
            lines.insert(header_row, (None, comment))
            last = header_row
            continue
        key = (place.line, place.column)
        known = [i for i, (where, _) in enumerate(lines) if where is not None and where.line]
        after = next((i for i in known if (lines[i][0].line, lines[i][0].column) > key), len(lines))
        before = max((i for i in known if i < after), default=None)
        if before is not None and lines[before][0].line == place.line and before >= last:
            lines[before] = (lines[before][0], f"{lines[before][1]} {comment}")
            last = before
            continue
        at = after
        if at > 0 and lines[at - 1] == _BLANK and (before is None or place.line <= lines[before][0].line + 1):
            at -= 1
        at = max(at, last + 1, 0 if first_game else 1)
        lines.insert(at, (place, comment))
        last = at
        if at <= header_row:
            header_row += 1
    return [text for _, text in lines]


def _table_remark(remark: str | None, row_lines: list[str], last_row: int, own_line: bool = False) -> list[str]:
    """The remark as the book prints it: after the last cell (on ``row_lines[last_row]``), or
    (``own_line``: where it stood in the text read) as lines of prose under the rows (a line the
    reader would take for something else, or prose without rows above it, is written as a ``;``
    remark)."""
    if remark is None:
        return []
    if row_lines and not own_line and _free_text(remark, "TEXT_REMARK"):
        row_lines[last_row] += "  " + remark
        return []
    return [line if row_lines and _free_text(line, "PARAGRAPH") else f"; {line}".rstrip()
            for line in remark.split("\n")]


def _free_text(text: str, terminal: str) -> bool:
    if any(_terminal(k).match(text) for k in ("PASS", "KW_ROUND", "HAND_START")):
        return False
    return "\n" not in text and text == text.strip() and bool(_terminal(terminal).fullmatch(text))


# ---- a whole record ------------------------------------------------------------------------------

def _pgn_readable(game: Game, index: int) -> bool:
    """Whether the PGN-like form gives back this game: the same players, and a tag or hand to open
    it (the first game of a file may be a bare move list)."""
    if derive_players(game.tags, game.hands, game.moves) != game.players:
        return False
    return bool(game.tags or game.hands) or (index == 0 and bool(game.moves))


def write(record_or_game: Record | Game) -> str:
    """Write a record (or one game); games are separated by a blank line.

    A game read as a book table (``Game.form``) is written as a table again, when it fits one
    (:func:`table_writable`); every other game in the PGN-like form. A game the PGN-like form cannot
    give back exactly is written as a table instead: a table whose deal is listed in another order
    than its columns, or a game without moves that is followed by another game (only moves or a
    table end a game)."""
    games = record_or_game.games if isinstance(record_or_game, Record) else [record_or_game]
    parts = []
    for index, game in enumerate(games):
        last = index == len(games) - 1
        if game.form == "table" and table_writable(game):
            parts.append(write_table(game, first_game=index == 0))    # a book table stays a table
        elif _pgn_readable(game, index) and (game.moves or last):
            parts.append(write_game(game))
        elif table_writable(game):
            parts.append(write_table(game, first_game=index == 0))
        elif not game.moves and derive_players(game.tags, game.hands, []) == game.players:
            parts.append(write_game(game) + "Round\n")      # a header without columns ends it
        else:                                                # names no table can hold: best effort
            parts.append(write_game(game))
    return "\n".join(parts)
