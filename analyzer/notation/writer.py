"""Write games back as text: the PGN-like form, or the book table.

The reader reads back what the writer writes: ``parse(write(record)) == record`` for every record
the reader produced."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from functools import cache

from ..record import Game, MoveEntry, Record, Span
from .players import derive_players
from .reader import parse, parser

__all__ = ["write", "write_parts", "write_game", "write_table", "table_writable", "rewrite", "write_comment", "write_closing"]


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


def write_comment(text: str) -> str:
    """``text`` as a comment of the notation (``{...}``, its braces and backslashes escaped), as the
    writer writes a move's or a game's comment."""
    return _comment(text)


def _tag(name: str, value: str) -> str:
    value = _escape(value.replace("\n", " "), '"')     # a tag value is one line
    return f'[{name} "{value}"]'


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
        words.append(f"{move.player} {move.notation()}")
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
        play = move.notation()
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
    # (a line of prose with a bracket, a brace or a ';' may read back otherwise in another place: a ; remark)
    return [line if row_lines and _free_text(line, "PARAGRAPH") and not _MARKUP.search(line) else f"; {line}".rstrip()
            for line in remark.split("\n")]


_MARKUP = re.compile(r"[\[\]{};]")


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
    return "\n".join(write_parts(record_or_game))


def write_parts(games: Record | Game | Iterable[Game]):
    """The texts of the games :func:`write` writes (joined by ``"\n"``, they are its text), one at a time; ``games``
    a record, a game, or games as they come (an iterator is read one game ahead, never held whole)."""
    if isinstance(games, Record):
        games = games.games
    elif isinstance(games, Game):
        games = [games]
    ahead = iter(games)
    game = next(ahead, _END)
    index = 0
    while game is not _END:
        following = next(ahead, _END)
        last = following is _END
        if game.form == "table" and table_writable(game):
            yield write_table(game, first_game=index == 0)    # a book table stays a table
        elif _pgn_readable(game, index) and (game.moves or last):
            yield write_game(game)
        elif table_writable(game):
            yield write_table(game, first_game=index == 0)
        elif not game.moves and derive_players(game.tags, game.hands, []) == game.players:
            yield write_game(game) + "Round\n"      # a header without columns ends it
        else:                                        # names no table can hold: best effort
            yield write_game(game)
        game, index = following, index + 1


_END = object()     # (the end of the games :func:`write_parts` reads one ahead)


# ---- a record changed in place ------------------------------------------------------------------------

_CELL = re.compile(r"[^\s{;]+")         # a cell's text: the tile or pass and what is glued to it


def rewrite(text: str, record: Record, games: list[Game]) -> str:
    """``text`` (which ``record`` was read from) with its games replaced by ``games`` (a repaired copy,
    game for game), changing only what differs: a book table keeps its spelling, language and layout
    (``Spieler``, ``passt``, its spacing) and only its changed cells and rows are written anew, in
    its own style; every game that did not change keeps its text. A game whose changes cannot be
    placed so (another form, a deal or a player changed) is written whole, as :func:`write` writes it;
    and if the text so made does not read back as ``games``, the whole record is written by
    :func:`write`, so nothing is ever changed silently."""
    whole = write(Record(games, record.source, []))
    if len(games) != len(record.games):
        return whole
    lines = text.split("\n")
    starts = [g.pos.line for g in record.games]
    if not all(starts) or starts != sorted(starts):
        return whole
    out: list[str] = []
    for k, (old, new) in enumerate(zip(record.games, games)):
        first = starts[k] - 1 if k else 0
        last = starts[k + 1] - 1 if k + 1 < len(starts) else len(lines)
        part = lines[first:last]
        if old != new:
            part = _changed_table(part, first, old, new)
            if part is None:       # written whole, as the writer writes it
                part = write_game(new).split("\n") if new.form != "table" or not table_writable(new) else \
                    write_table(new, first_game=k == 0).split("\n")
                part += [""] if k + 1 < len(games) else []
        out += part
    made = "\n".join(out)
    return made if parse(made, record.source).games == list(games) else whole


def _move_key(m: MoveEntry) -> tuple:
    return (m.player, m.tile, m.end, m.arm, m.annotation, m.draw, m.claim, m.muggins, m.comment)


def _rows(game: Game) -> list[tuple[int, list[MoveEntry]]]:
    """A table game's rows: (round, its moves), a new row where the round or the line changes (a move that
    was never written, a cell a repair puts back, stands on the line of its row: it starts no row of its own)."""
    rows: list[tuple[int, list[MoveEntry]]] = []
    for m in game.moves:
        line = next((x.pos.line for x in reversed(rows[-1][1]) if x.pos.line), 0) if rows else 0
        if not rows or rows[-1][0] != m.round or (m.pos.line and line and line != m.pos.line):
            rows.append((m.round, []))
        rows[-1][1].append(m)
    return rows


def _changed_tags(part: list[str], first: int, old: Game, new: Game) -> bool:
    """Each tag the repair changed (a Result, a Score) given its new value in its own line of ``part``
    (in place); False when a tag cannot be changed so (added, dropped, moved, or not found)."""
    for name, value in new.tags.items():
        if old.tags.get(name) == value:
            continue
        where = old.tag_pos.get(name)
        if where is None or not where.line or not first < where.line <= first + len(part):
            return False
        at = where.line - 1 - first
        line, n = re.subn(r'\[\s*' + re.escape(name) + r'\s+"(?:[^"\\]|\\.)*"\s*\]', lambda _: _tag(name, value),
                          part[at], count=1)
        if not n:
            return False
        part[at] = line
    return list(new.tags) == list(old.tags)


def _changed_table(part: list[str], first: int, old: Game, new: Game) -> list[str] | None:
    """The lines ``part`` of a table game (from line ``first`` + 1) with ``old``'s rows changed to
    ``new``'s in the table's own style; None when the change is not of rows and cells alone."""
    table = old.form == "table"
    if ((table and not table_writable(new)) or old.players != new.players
            or old.comments != new.comments or old.remark != new.remark
            or any(not first < m.pos.line <= first + len(part) for m in old.moves)):
        return None
    part = list(part)
    if old.hands != new.hands and not _changed_deal(part, first, old, new):
        return None
    if not _changed_tags(part, first, old, new):
        return None
    passes = [_CELL.match(part[m.pos.line - 1 - first], m.pos.column - 1) for m in old.moves if m.is_pass]
    pass_word = passes[0].group() if passes and passes[0] else "pass"
    pass_word = re.sub(r"[!?*]+$", "", pass_word)
    column = {p: i for i, p in enumerate(new.players)}

    def cell(m: MoveEntry) -> str:
        return (pass_word + (m.annotation or "")) if m.is_pass else m.notation()

    at = _aligned_columns(old)
    # a table pasted from a spreadsheet: its cells one a tab, an empty cell for no move (the reader's _sheet_columns)
    sheet = table and any("\t" in part[m.pos.line - 1 - first] for m in old.moves)

    def fresh(number: int, moves: list[MoveEntry]) -> str:
        """A new row as the table writes its rows: at its columns when they are aligned, else one
        space between cells; a sheet's with a tab between cells."""
        cells: list[tuple[str, str]] = []
        for m in moves:
            cells += [(p, "----") for p in new.players[len(cells):column[m.player]]]
            cells.append((m.player, cell(m) + (f" {_comment(m.comment)}" if m.comment else "")))
        if sheet:
            return "\t".join([str(number)] + ["" if text == "----" else text for _, text in cells])
        line = str(number)
        for player, text in cells:
            where = at.get(player) if at is not None else None
            line += " " * max(1, (where - 1 - len(line)) if where else 1) + text
        return line

    if not table:           # the PGN-like form: plays and passes changed in place, nothing inserted or moved
        return _changed_moves(part, first, old, new, cell)
    old_rows, new_rows = _rows(old), _rows(new)
    if any(len({m.pos.line for m in moves}) != 1 for _, moves in old_rows):
        return None
    line_of = [moves[0].pos.line - 1 - first for _, moves in old_rows]
    a = [tuple(_move_key(m) for m in moves) for _, moves in old_rows]
    b = [tuple(_move_key(m) for m in moves) for _, moves in new_rows]
    replaced: dict[int, str | None] = {}      # a row's line: its new text (None: the row goes)
    inserted: dict[int, list[str]] = {}       # the new rows before a line
    import difflib      # (start-up: only a rewrite of a table needs it)

    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal" or op == "replace" and i2 - i1 == j2 - j1:
            for i, j in zip(range(i1, i2), range(j1, j2)):
                (number, was), (now_number, now) = old_rows[i], new_rows[j]
                line = part[line_of[i]]
                if [m.player for m in was] != [m.player for m in now]:
                    replaced[line_of[i]] = fresh(now_number, now)
                    continue
                for m, n in reversed(list(zip(was, now))):         # right to left: the columns stay put
                    if _move_key(m) != _move_key(n):
                        if m.comment != n.comment:
                            return None
                        found = _CELL.match(line, m.pos.column - 1)
                        if found is None:
                            return None
                        line = line[:found.start()] + cell(n) + line[found.end():]
                if number != now_number:
                    line = re.sub(r"^(\s*)\d+", lambda g: g.group(1) + str(now_number), line, count=1)
                replaced[line_of[i]] = line
            continue
        for i in range(i1, i2):
            replaced[line_of[i]] = None
        before = line_of[i2] if i2 < len(old_rows) else line_of[-1] + 1
        inserted.setdefault(before, []).extend(fresh(*new_rows[j]) for j in range(j1, j2))
    out: list[str] = []
    for at, line in enumerate(part):
        out += inserted.pop(at, [])
        if at in replaced:
            if replaced[at] is not None:
                out.append(replaced[at])
        else:
            out.append(line)
    for rows in inserted.values():
        out += rows
    return out


def _changed_moves(part: list[str], first: int, old: Game, new: Game, cell) -> list[str] | None:
    """``part`` with each play or pass of ``old`` that ``new`` changes (the same player, no draw, no
    Muggins call, the same claim and comment) written by ``cell`` in its place; None for any other change."""
    if len(old.moves) != len(new.moves):
        return None
    for m, n in reversed(list(zip(old.moves, new.moves))):      # right to left: the columns stay put
        if _move_key(m) == _move_key(n) and m.round == n.round:
            continue
        if (m.player, m.round, m.claim, m.comment) != (n.player, n.round, n.claim, n.comment) \
                or m.draw or n.draw or m.is_muggins or n.is_muggins:
            return None
        at = m.pos.line - 1 - first
        found = _CELL.match(part[at], m.pos.column - 1)
        if found is None:
            return None
        part[at] = part[at][:found.start()] + cell(n) + part[at][found.end():]
    return part


def _changed_deal(part: list[str], first: int, old: Game, new: Game) -> bool:
    """Put a dealt tile the repair changed in place of the one ``part`` has (right to left on each
    line, so the columns stay put); False when the deal changed otherwise (a tile added or taken away)."""
    spots = []
    if [(h.player, h.unknown, len(h.tiles or ())) for h in old.hands] != \
            [(h.player, h.unknown, len(h.tiles or ())) for h in new.hands]:
        return False
    for was, now in zip(old.hands, new.hands):
        for k, (a, b) in enumerate(zip(was.tiles or (), now.tiles or ())):
            if a != b:
                if k >= len(was.tile_pos) or not first < was.tile_pos[k].line <= first + len(part):
                    return False
                spots.append((was.tile_pos[k], b))
    for where, tile in sorted(spots, key=lambda x: (x[0].line, -x[0].column)):
        at = where.line - 1 - first
        found = re.compile(r"\[[^\]]*\]").match(part[at], where.column - 1)
        if found is None:
            return False
        part[at] = part[at][:found.start()] + str(tile) + part[at][found.end():]
    return True


def _aligned_columns(game: Game) -> dict[str, int] | None:
    """Where each player's cells start in a table whose columns are aligned (most of each player's
    cells at one column), by player; None for a table written with one space between cells."""
    columns = {p: Counter(m.pos.column for m in game.moves if m.player == p) for p in game.players}
    kept = sum(c.most_common(1)[0][1] for c in columns.values() if c)
    if kept < 0.75 * max(len(game.moves), 1) or len(game.moves) < len(game.players):
        return None
    return {p: c.most_common(1)[0][0] for p, c in columns.items() if c}


# ---- a book table's closing line -------------------------------------------------------------------

def write_closing(text: str, record: Record, index: int, on_row: str | None = None, prose: tuple[str, ...] = ()) -> str:
    """``text`` (which ``record`` was read from) with game ``index``, a book table that has no closing remark
    yet, closed as the book closes its tables: ``on_row`` after the last row's cells (000: ``6 [3-4] [2-3]
    [2-4] Das Spiel ist gesperrt!``), then ``prose``, lines of prose under the table after a blank line (000:
    ``Spieler B macht Domino und die Spieler A und C verlieren 10 Punkte.``); nothing else changes. ValueError
    where the game is no table with rows, has its closing remark already, or the text so made would not read
    back as the game with that closing remark."""
    game = record.games[index] if 0 <= index < len(record.games) else None
    if game is None or game.form != "table" or not game.moves or not all(m.pos.line for m in game.moves):
        raise ValueError("only a book table with rows is closed by a closing line")
    if game.remark is not None:
        raise ValueError("the table has its closing remark already")
    if on_row is not None and not _free_text(on_row, "TEXT_REMARK") or \
            any(not _free_text(line, "PARAGRAPH") or _MARKUP.search(line) for line in prose):
        raise ValueError("the closing words would not read as the table's remark")
    lines = text.split("\n")
    last = max(m.pos.line for m in game.moves) - 1
    if on_row is not None:
        row = lines[last].rstrip()
        lines[last] = row + ("  " if "  " in row.strip() else " ") + on_row       # spaced as its cells are
    end = max([last + 1] + [m.comment_pos.line for m in game.moves if m.comment])
    if prose:
        follows = end < len(lines) and lines[end].strip() != ""
        lines[end:end] = ["", *prose] + ([""] if follows else [])
    made = "\n".join(lines)
    remark = "\n".join(([on_row] if on_row is not None else []) + list(prose)) or None
    expected = list(record.games)
    expected[index] = replace(game, remark=remark)
    if parse(made, record.source).games != expected:
        raise ValueError("the closing words would not read back as the table's closing remark there")
    return made
