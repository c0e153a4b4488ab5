"""Read record text into a :class:`~analyzer.record.Record`, collecting every problem as a diagnostic.

The grammar (``grammar/record.lark``) is parsed LALR(1) with lark's contextual lexer. A syntax error
is recorded, the parser skips the offending word (or supplies a missing ``]``) and goes on, so a broken
record still yields every error and every move that could be read. The transformer turns each rule
into a domain object; :class:`_GameBuilder` then puts the pieces of one game together."""
from __future__ import annotations

import re
from copy import copy
from dataclasses import dataclass, field, replace
from functools import cache
from importlib.resources import files
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from ..diagnostics import Diagnostic
from ..record import Game, HandEntry, MoveEntry, Record, Span
from ..tiles import Tile

__all__ = ["parse", "parser", "split_players", "derive_players"]


def grammar_text(name: str = "record.lark") -> str:
    """A grammar file: in a source tree, from ``grammar/`` beside the package (so that a checkout
    imported ahead of an editable install of another one reads its own grammar), else from the
    installed package (``analyzer.grammar``)."""
    beside = Path(__file__).resolve().parents[2] / "grammar" / name
    if beside.is_file():
        return beside.read_text(encoding="utf-8")
    return files("analyzer.grammar").joinpath(name).read_text(encoding="utf-8")


@cache
def parser() -> Lark:
    """The record parser, built once from the grammar."""
    return Lark(grammar_text(), parser="lalr", lexer="contextual", propagate_positions=True,
                maybe_placeholders=True)


# ---- players ----------------------------------------------------------------------------------------

def split_players(value: str) -> tuple[str, ...]:
    """Read a Players tag: ``"A, B, C, D"``, or ``"A B C D"`` when it has no comma."""
    parts = value.split(",") if "," in value else value.split()
    return tuple(p.strip() for p in parts if p.strip())


def derive_players(tags: dict[str, str], hands, moves) -> tuple[str, ...]:
    """The play order of a PGN-like game: the Players tag, else the deal's order followed by anyone
    else in the order they first move."""
    if "Players" in tags:
        return split_players(tags["Players"])
    seen: dict[str, None] = {}
    for hand in hands:
        seen.setdefault(hand.player, None)
    for move in moves:
        seen.setdefault(move.player, None)
    return tuple(seen)


# ---- the pieces a rule returns before they become a Game ------------------------------------------

@dataclass
class _Tag:
    name: str
    value: str
    pos: Span


@dataclass
class _Note:
    kind: str                 # "comment" ({...}) or "remark" (; ... or free text after a table row)
    text: str
    pos: Span


@dataclass
class _Play:
    tile: Tile | None
    pos: Span
    end: int | None = None
    annotation: str | None = None
    readable: bool = True     # False: a bad tile or a word that is no move (already reported)
    draw: bool = False        # a tile taken from the boneyard
    claim: int | None = None  # the points claimed for the play ("+10", All Fives)
    muggins: int | None = None   # a Muggins call for that many points ("muggins 10")
    arm: int | None = None       # the arm of a layout with arms (">2")


@dataclass
class _Move:
    player: str | None
    play: _Play
    pos: Span


@dataclass
class _MoveNumber:
    number: int
    pos: Span


@dataclass
class _NoMove:
    pos: Span


@dataclass
class _Column:
    name: str
    pos: Span


@dataclass
class _Row:
    number: int
    items: list
    pos: Span


@dataclass
class _Table:
    columns: list[_Column]
    notes: list[_Note]
    rows: list[_Row]
    pos: Span


@dataclass
class _TileRead:
    tile: Tile | None         # None: not a tile (already reported)
    pos: Span


class _Unknown:
    """The ``?`` of a hand the record does not know."""


_UNKNOWN = _Unknown()
_HAND_START_RE = re.compile(r"^(?:(?i:spieler|player)\s+)?(?P<name>[^\W\d]\w*)\s*:$")
_TILE_RE = re.compile(r"^\[\s*(\d+)\s*[-|:]\s*(\d+)\s*\]$")


def _span(obj) -> Span:
    return Span(obj.line, obj.column)


def unescape(text: str, chars: str) -> str:
    """Undo the writer's backslash escapes of ``\\`` and of each of ``chars``."""
    return re.sub(r"\\([\\" + re.escape(chars) + r"])", r"\1", text)


# ---- transformer: one method per rule ----------------------------------------------------------

@dataclass
class _Log:
    """The notation problems found while building a record's games."""

    source: str
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def report(self, pos: Span, code: str, message: str, severity: str = "error", **details) -> None:
        self.diagnostics.append(Diagnostic(severity, code, message, pos.line, pos.column,
                                           self.source, details))


@v_args(inline=True, meta=True)
class RecordTransformer(Transformer):
    """Turn a parse tree (one game, or one note before the first game) into domain objects."""

    def __init__(self, log: _Log):
        super().__init__()
        self.log = log

    # games
    def game(self, meta, header, body=None) -> Game:
        return _GameBuilder(self.log, _span(meta)).build(header, body)

    def table_game(self, meta, table) -> Game:
        return _GameBuilder(self.log, _span(meta)).build([], table)

    # notes
    def comment(self, meta, token) -> _Note:
        text = re.sub(r"\s*\n\s*", " ", unescape(token[1:-1], "{}"))   # a line break is a space
        return _Note("comment", text.strip(), _span(meta))

    def remark(self, meta, token) -> _Note:
        return _Note("remark", token[1:].strip(), _span(meta))

    def text_remark(self, meta, token) -> _Note:
        return _Note("remark", token.strip(), _span(meta))

    # header: tags and hands
    def header(self, meta, *items) -> list:
        return list(items)

    def tag(self, meta, name, value) -> _Tag:
        return _Tag(str(name), unescape(value[1:-1], '"'), _span(meta))

    def hand(self, meta, start, holding) -> HandEntry:
        player = _HAND_START_RE.match(start).group("name")
        pos = _span(meta)
        if holding is _UNKNOWN:
            return HandEntry(player, None, pos)
        if holding is None:
            self.log.report(pos, "empty-hand", f"{player}'s hand lists no tiles; write '{player}: ?' "
                            "for a hand the record does not know", "warning", player=player)
            holding = []
        read = [t for t in holding if isinstance(t, _TileRead)]
        good = [t for t in read if t.tile is not None]
        return HandEntry(player, tuple(t.tile for t in good), pos, tuple(t.pos for t in good),
                         len(holding) - len(read))

    def tiles(self, meta, *tiles) -> list:
        """The tiles of a hand, then a ``?`` token for each one the record does not show."""
        return list(tiles)

    def unknown(self, meta, token) -> _Unknown:
        return _UNKNOWN

    def tile(self, meta, token) -> _TileRead:
        m = _TILE_RE.match(token)
        return _TileRead(Tile.of(int(m.group(1)), int(m.group(2))), _span(meta))

    def bad_tile(self, meta, token) -> _TileRead:
        self.log.report(_span(meta), "bad-tile", f"'{token}' is not a tile; write a tile as [a-b] "
                        "with two numbers, like [3-6]", text=str(token))
        return _TileRead(None, _span(meta))

    # moves
    def moves(self, meta, *items) -> list:
        return list(items)

    def move_number(self, meta, token) -> _MoveNumber:
        return _MoveNumber(int(token.rstrip(".")), _span(meta))

    def move(self, meta, name, play) -> _Move:
        return _Move(str(name), play, _span(meta))

    def muggins_move(self, meta, name, keyword, points) -> _Move:
        return _Move(str(name), _Play(None, _span(keyword), muggins=int(points)), _span(meta))

    def nameless_move(self, meta, play) -> _Move:
        return _Move(None, play, _span(meta))

    def play(self, meta, action, annotation, claim=None) -> _Play:
        return replace(action, annotation=str(annotation) if annotation else None,
                       claim=int(claim[1:]) if claim else None)

    def tile_play(self, meta, tile, end, arm=None) -> _Play:
        if tile.tile is None:
            return _Play(None, tile.pos, readable=False)
        number = int(end[1:].strip()) if end else None
        if number is not None and not tile.tile.matches(number):
            self.log.report(_span(end), "bad-end", f"{tile.tile} has no {number}, so it cannot have "
                            f"been played on a {number}", tile=str(tile.tile), end=number)
            number = None
        arm_number = int(arm[1:].strip()) if arm else None
        if arm_number == 0:
            self.log.report(_span(arm), "bad-arm", "arms are numbered from 1 (>1 to >4)", tile=str(tile.tile))
            arm_number = None
        return _Play(tile.tile, tile.pos, end=number, arm=arm_number)

    def pass_play(self, meta, token) -> _Play:
        return _Play(None, _span(meta))

    def draw_play(self, meta, keyword, tile) -> _Play:
        if tile.tile is None:
            return _Play(None, tile.pos, readable=False)
        return _Play(tile.tile, _span(meta), draw=True)

    def draw_unknown(self, meta, keyword, token) -> _Play:
        return _Play(None, _span(meta), draw=True)

    def bad_play(self, meta, token) -> _Play:
        self.log.report(_span(meta), "bad-move", f"'{token}' is not a move; write a tile like [3-6], "
                        "pass, or ---- for no move", text=str(token))
        return _Play(None, _span(meta), readable=False)

    # table
    def table(self, meta, header, *items) -> _Table:
        notes = [item for item in items if isinstance(item, _Note)]
        rows = [item for item in items if isinstance(item, _Row)]
        return _Table(header, notes, rows, _span(meta))

    def table_header(self, meta, keyword, *columns) -> list[_Column]:
        return list(columns)

    def column(self, meta, keyword, name) -> _Column:
        return _Column(str(name), _span(name))

    def row(self, meta, number, *items) -> _Row:
        return _Row(int(number.rstrip(".")), list(items), _span(meta))

    def no_move(self, meta, token) -> _NoMove:
        return _NoMove(_span(meta))


# ---- putting one game together ------------------------------------------------------------------

@dataclass
class _GameBuilder:
    """Collect a game's tags, hands, moves and notes; attach each note to the move before it."""

    log: _Log
    pos: Span
    events: list = field(default_factory=list)      # _Note and MoveEntry, in text order

    def build(self, header, body) -> Game:
        game = Game(pos=self.pos, form="table" if isinstance(body, _Table) else "pgn")
        hands = self._header(game, header)
        if isinstance(body, _Table):
            self.events.extend(body.notes)
            game.players = self._table_players(game, body, hands)
            self._rows(body, game.players)
        elif body is not None:
            self._movetext(body)
        moves = [e for e in self.events if isinstance(e, MoveEntry)]
        if not isinstance(body, _Table):
            game.players = derive_players(game.tags, hands, moves)
        game.hands = tuple(hands)
        self._check_players(game, hands, moves)
        self._attach_notes(game)
        return game

    def _header(self, game: Game, items) -> list[HandEntry]:
        hands: list[HandEntry] = []
        for item in items:
            if isinstance(item, _Note):
                self.events.append(item)
            elif isinstance(item, _Tag):
                if item.name in game.tags:
                    self.log.report(item.pos, "duplicate-tag", f"the {item.name} tag is given "
                                    "twice; the last one counts", "warning", tag=item.name)
                game.tags[item.name] = item.value
                game.tag_pos[item.name] = item.pos
            else:
                if any(h.player == item.player for h in hands):
                    self.log.report(item.pos, "duplicate-hand", f"{item.player}'s hand is given "
                                    "twice", "warning", player=item.player)
                hands.append(item)
        return hands

    def _movetext(self, items) -> None:
        round_no = None
        nameless: list[_Move] = []
        for item in items:
            if isinstance(item, _Move) and item.player is None and item.play.readable:
                nameless.append(item)
                continue
            self._report_nameless(nameless)
            if isinstance(item, _MoveNumber):
                round_no = item.number
            elif isinstance(item, _Move):
                if item.play.readable:
                    self.events.append(_entry(item.player, item.play, round_no))
            else:
                self.events.append(item)
        self._report_nameless(nameless)

    def _report_nameless(self, nameless: list[_Move]) -> None:
        if nameless:
            first = nameless[0]
            more = f" (and the {len(nameless) - 1} after it)" if len(nameless) > 1 else ""
            self.log.report(first.pos, "no-player", f"the move {_play_text(first.play)}{more} "
                            "names no player; write it as 'PLAYER TILE', like 'B [1-1]'",
                            count=len(nameless))
            nameless.clear()

    def _table_players(self, game: Game, table: _Table, hands) -> tuple[str, ...]:
        if not table.columns:          # a bare "Round": the players are named elsewhere
            return derive_players(game.tags, hands, [])
        players = tuple(c.name for c in table.columns)
        if "Players" in game.tags and split_players(game.tags["Players"]) != players:
            self.log.report(game.tag_pos["Players"], "players-mismatch",
                            f"the Players tag says {game.tags['Players']!r} but the table's columns "
                            f"are {', '.join(players)}; the columns count", "warning")
        return players

    def _rows(self, table: _Table, players: tuple[str, ...]) -> None:
        previous = None
        for row in table.rows:
            if previous is not None and row.number != previous + 1:
                self.log.report(row.pos, "row-number", f"row {row.number} follows row {previous}",
                                "warning", row=row.number)
            previous = row.number
            column = 0
            for item in row.items:
                if isinstance(item, _Note):
                    self.events.append(item)
                    continue
                if column == len(players):
                    self.log.report(item.pos, "too-many-cells", f"row {row.number} has more cells "
                                    f"than the table has players ({len(players)}); the rest of "
                                    "the row is ignored", row=row.number)
                if column < len(players) and isinstance(item, _Play) and item.readable:
                    self.events.append(_entry(players[column], item, row.number))
                column += 1

    def _check_players(self, game: Game, hands, moves) -> None:
        seen: set[str] = set()
        for name in game.players:
            if name in seen:
                self.log.report(self.pos, "duplicate-player", f"{name} is named twice among the "
                                "players", player=name)
            seen.add(name)
        if "Players" not in game.tags and game.form != "table":
            return
        for what, entries in (("hand", hands), ("move", moves)):
            for entry in entries:
                if entry.player not in seen:
                    self.log.report(entry.pos, "unknown-player", f"{entry.player} is not one of the "
                                    f"players ({', '.join(game.players)}), yet a {what} is given "
                                    "for them", "warning", player=entry.player)

    def _attach_notes(self, game: Game) -> None:
        """A note after a move is that move's comment; notes before the first move are the game's
        comments; remarks after the last move are the game's closing remark."""
        last_move = max((i for i, e in enumerate(self.events) if isinstance(e, MoveEntry)), default=-1)
        remark: list[str] = []
        for i, event in enumerate(self.events):
            if isinstance(event, MoveEntry):
                game.moves.append(event)
            elif event.kind == "remark" and i > last_move:
                remark.append(event.text)
            elif not event.text:
                continue
            elif game.moves:
                move = game.moves[-1]
                text = f"{move.comment} {event.text}" if move.comment else event.text
                game.moves[-1] = replace(move, comment=text)
            else:
                game.comments.append(event.text)
        game.remark = "\n".join(remark) if remark else None


def _entry(player: str, play: _Play, round_no: int | None) -> MoveEntry:
    return MoveEntry(player, play.tile, play.end, play.annotation, None, round_no, play.pos, play.draw,
                     play.claim, play.muggins, play.arm)


def _play_text(play: _Play) -> str:
    if play.muggins is not None:
        return f"muggins {play.muggins}"
    if play.draw:
        return f"draws {play.tile if play.tile is not None else '?'}"
    return "pass" if play.tile is None else str(play.tile)


# ---- syntax errors -----------------------------------------------------------------------------

_EXPECTED = {
    "TILE": "a tile like [3-6]",
    "PASS": "pass",
    "NOMOVE": "---- (no move)",
    "ANNOT": "an annotation (! ? !! ?? !? ?! *)",
    "END": "@N (the number the tile was played on)",
    "ARM": ">N (the arm the tile was played on)",
    "NAME": "a name",
    "TAG_NAME": "a tag name like Event",
    "HAND_START": "a hand like A: [0-5] [1-3] ...",
    "QMARK": "? (hand not known)",
    "POINTS": "the points of a muggins call, like 10",     # (a claim and "muggins" are never
                                                            # the only choice, so not listed)
    "_LSQB": 'a tag like [Event "..."]',
    "STRING": 'a quoted value like "..."',
    "_RSQB": "']'",
    "MOVENUM": "a move number like 1.",
    "ROWNUM": "a row number",
    "KW_ROUND": "a table header like Runde Spieler A Spieler B ...",
    "KW_PLAYER": "Spieler or Player",
    "COMMENT": "a {comment}",
    "REMARK": "a ; remark",
    "$END": "the end of the text",
}


def friendly_expected(names) -> str:
    wanted = [text for name, text in _EXPECTED.items() if name in names]
    if not wanted:
        return ""
    if len(wanted) == 1:
        return f"; expected {wanted[0]}"
    return "; expected one of: " + ", ".join(wanted)


def caret_context(text: str, line: int, column: int) -> str:
    """The source line and a caret under ``column``."""
    lines = text.split("\n")
    source_line = lines[line - 1].rstrip("\r") if 0 < line <= len(lines) else ""
    pad = "".join(c if c == "\t" else " " for c in source_line[:column - 1])
    return f"{source_line}\n{pad}^"


def _word_at(text: str, pos: int) -> int:
    """The end of the unreadable word at ``pos``: to the end of the line for an unclosed { or "."""
    if text[pos] in '{"':
        end = text.find("\n", pos)
        return len(text) if end < 0 else end
    end = pos + 1
    while end < len(text) and not text[end].isspace() and text[end] not in '[]{};"':
        end += 1
    return end


def _shown(value: str) -> str:
    value = value.split("\n")[0]
    return value if len(value) <= 30 else value[:27] + "..."


def _try_feed(interactive, tokens) -> bool:
    """Whether the parser would take ``tokens``; tried on a copy that builds no tree (lark's tree
    builder may extend a child's list in place, which a shallow copy shares)."""
    trial = interactive.copy(deepcopy_values=False)
    conf = copy(trial.parser_state.parse_conf)
    conf.callbacks = {}
    trial.parser_state.parse_conf = conf
    try:
        for token in tokens:
            trial.feed_token(token)
    except UnexpectedInput:
        return False
    return True


class _Recovery:
    """The ``on_error`` handler: report the error, then skip the bad word or supply a missing ']'."""

    def __init__(self, text: str, source: str):
        self.text = text
        self.source = source
        self.diagnostics: list[Diagnostic] = []

    def syntax(self, line: int, column: int, found: str, expected) -> Diagnostic:
        return Diagnostic("error", "syntax", f"unexpected {found}{friendly_expected(expected)}",
                          line, column, self.source, {"expected": sorted(expected)},
                          caret_context(self.text, line, column))

    def end_of_text(self, expected) -> Diagnostic:
        lines = self.text.split("\n")
        return self.syntax(len(lines), len(lines[-1]) + 1, "end of text", expected)

    def __call__(self, error: UnexpectedInput) -> bool:
        if isinstance(error, UnexpectedCharacters):
            pos = error.pos_in_stream
            end = _word_at(self.text, pos)
            self.diagnostics.append(self.syntax(error.line, error.column,
                                                repr(_shown(self.text[pos:end])), error.allowed or ()))
            error.interactive_parser.lexer_thread.state.line_ctr.feed(self.text[pos:end])
            return True
        if not isinstance(error, UnexpectedToken):
            return False
        token = error.token
        closer = Token("_RSQB", "]")
        if token.type == "$END":
            if "_RSQB" in error.expected and _try_feed(error.interactive_parser, [closer, token]):
                self.diagnostics.append(self.end_of_text(error.expected))
                error.interactive_parser.feed_token(closer)
                return True
            return False
        self.diagnostics.append(self.syntax(token.line, token.column, repr(_shown(str(token))),
                                            error.expected))
        if "_RSQB" in error.expected and _try_feed(error.interactive_parser, [closer, token]):
            error.interactive_parser.feed_token(closer)
            error.interactive_parser.feed_token(token)
        return True


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def _parse_tree(text: str, source: str) -> tuple[Tree | None, list[Diagnostic]]:
    """Parse with recovery. An unfinished construct at the end of the text cannot be skipped past,
    so its last token is blanked out (positions stay valid) and the text parsed again."""
    work = text
    first_end_error: Diagnostic | None = None
    while True:
        recovery = _Recovery(work, source)
        try:
            tree = parser().parse(work, on_error=recovery)
        except UnexpectedToken as error:      # only an unexpected end of text gets here
            if first_end_error is None:
                first_end_error = recovery.end_of_text(error.expected)
            start, end = error.token.start_pos, error.token.end_pos
            if start is None or end is None or end <= start or not work[start:end].strip():
                return None, recovery.diagnostics + [first_end_error]
            work = _blank(work, start, end)
            continue
        extra = [first_end_error] if first_end_error else []
        return tree, recovery.diagnostics + extra


# ---- the whole record ---------------------------------------------------------------------------

def parse(text: str, source: str = "<record>") -> Record:
    """Read every game of ``text``; never raises: problems are returned in ``Record.errors``."""
    record = Record(source=source)
    try:
        tree, diagnostics = _parse_tree(text, source)
        record.errors.extend(diagnostics)
        if tree is not None:
            _build_record(record, tree, source)
    except Exception as exc:  # noqa: BLE001 - parse() promises diagnostics, never an exception
        record.errors.append(Diagnostic("error", "internal", f"the reader failed: {exc!r}",
                                        source=source))
    record.errors.sort(key=lambda d: (d.line or 0, d.column or 0))
    return record


def _build_record(record: Record, tree: Tree, source: str) -> None:
    log = _Log(source)
    transformer = RecordTransformer(log)
    lead_notes: list[_Note] = []
    for child in tree.children:
        if child is None:
            continue
        try:
            item = transformer.transform(child)
            if isinstance(item, _Note):
                lead_notes.append(item)
                continue
            if child.data == "moves":      # a bare move list at the top of the file
                item = _GameBuilder(log, _span(child.meta)).build([], item)
                if not item.moves:         # nothing readable: not a game
                    texts = item.comments + ([item.remark] if item.remark else [])
                    lead_notes += [_Note("comment", text, item.pos) for text in texts]
                    continue
            item.comments[:0] = [note.text for note in lead_notes if note.text]
            lead_notes = []
        except VisitError as error:        # a bug in a rule method: report it, keep the other games
            meta = getattr(error.obj, "meta", None)
            line = meta.line if meta is not None and not meta.empty else None
            message = str(error.orig_exc) or repr(error.orig_exc)
            log.diagnostics.append(Diagnostic("error", "notation", message, line,
                                              meta.column if line else None, source))
            continue
        record.games.append(item)
    record.errors.extend(log.diagnostics)
