"""Read record text into a :class:`~analyzer.record.Record`, collecting every problem as a diagnostic.

The grammar (``grammar/record.lark``) is parsed LALR(1) with a contextual lexer (:mod:`.lexer`: lark's, reading the
blanks with the token after them), and the transformer is applied inside the parser as each rule is reduced, so no
parse tree is built; positions come from the tokens. A syntax error is recorded (:mod:`.recovery`), the parser
skips the offending word (or supplies a missing ``]``, or drops an unfinished construct) and goes on, so a broken
record still yields every error and every move that could be read. The transformer turns each rule into a domain
object; :class:`_GameBuilder` then puts the pieces of one game together."""
from __future__ import annotations

import re
import sys
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path

from lark import Lark, Token, Transformer
from lark.grammar import Rule
from lark.exceptions import UnexpectedInput

from ..diagnostics import Diagnostic
from ..i18n import N_, gettext, ngettext
from ..rules.codes import Code
from ..record import MAX_DIGITS, NOWHERE, Game, HandEntry, MoveEntry, Record, Span
from ..tiles import Tile
from ..userdirs import kept_file
from .lexer import RecordLexer
from .players import derive_players, playable_name, split_players
from .recovery import MAX_DIAGNOSTICS, Recovery, marked, shown
from .tags import nearest_tag

__all__ = ["parse", "parser", "split_players", "derive_players"]


def grammar_text(name: str = "record.lark") -> str:
    """A grammar file: in a source tree, from ``grammar/`` beside the package (so a checkout never
    reads the grammar of another installed copy), else from the installed ``analyzer.grammar``."""
    local = Path(__file__).resolve().parents[2] / "grammar" / name
    if local.is_file():
        return local.read_text(encoding="utf-8")
    return files("analyzer.grammar").joinpath(name).read_text(encoding="utf-8")


# what goes unseen when a known tag is misspelt (the rest: "what a Lead tag says is not taken into account")
_UNREAD = {"Result": N_("the result is not checked"), "Variant": N_("the game is read under the default variant"),
           "Rules": N_("the variant's defaults apply"), "Score": N_("the running score is not checked"),
           "Players": N_("the players are taken from the hands and the moves")}


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
    word: str | None = None      # a pass's or a draw's word, where it is not English or German ("paso", "roba")


@dataclass
class _Move:
    player: str | None
    play: _Play
    pos: Span


@dataclass
class _MoveNumber:
    number: int | None        # None: too long to read (reported)
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
    number: int | None        # None: too long to read (reported)
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


@dataclass
class _Then:
    """A hand (or its holding) and the tiles read after its ``?``: the first move of a move list that lacks
    its number and player, when they stand on its line."""

    holding: object
    after: list


_UNKNOWN = _Unknown()
_HAND_START_RE = re.compile(r"^(?:(?i:spieler|player)\s+)?(?P<name>[^\W\d]\w*)\s*:$")
_LINE_BREAK = re.compile(r"[ \t\xa0]*\r?\n[ \t\xa0]*")
# a line inside a comment that reads as part of the game: a numbered row of moves, a table row, a hand
_SWALLOWED_RE = re.compile(r"^[ \t\xa0]*(?:\d+\.?[ \t\xa0].*(?:\[\s*\d+\s*[-|:]\s*\d+\s*\]|\bpasst?\b)"
                           r"|(?:(?:spieler|player)[ \t\xa0]+)?[^\W\d]\w*[ \t\xa0]*:[ \t\xa0]*\[\s*\d)", re.IGNORECASE)
_TILE_RE = re.compile(r"^\[\s*(\d+)\s*[-|:]\s*(\d+)\s*\]$")
_TILE_IN_RUN = re.compile(r"\[[^\]]*\]")                  # a tile of a TILE_RUN token
_ONE_LINE_TAG = re.compile(r'\[\s*(\w+)\s*"(.*)"\s*\]', re.S)      # a TAG token: name, value


# Positions repeat from record to record, and a Span (a frozen value) is slow to make: each is made once.
_span = lru_cache(maxsize=1 << 16)(Span)


@lru_cache(maxsize=4096)
def _tile(text: str) -> Tile:
    """The tile a TILE token names (a record repeats the same few spellings, so each is read once)."""
    m = _TILE_RE.match(text)
    return Tile.of(int(m.group(1)), int(m.group(2)))


def _annotation(token: Token | None) -> str | None:
    return str(token) if token else None


def unescape(text: str, chars: str) -> str:
    """Undo the writer's backslash escapes of ``\\`` and of each of ``chars``."""
    if "\\" not in text:
        return text
    return re.sub(r"\\([\\" + re.escape(chars) + r"])", r"\1", text)


# ---- transformer: one method per rule ----------------------------------------------------------


@dataclass
class _Log:
    """The notation problems found while building a record's games."""

    source: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    failed: Span | None = None      # where the last rule method failed (a bug), if one did
    text: str | None = None         # the text as written, when the lexer was given a marked copy
    lines: list[str] = field(default_factory=list)    # the text's lines as written (a pasted sheet's tabs)

    def written(self, token: Token) -> str:
        """A token's text as written (free text may hold a brace the lexer saw marked)."""
        return str(token) if self.text is None else self.text[token.start_pos:token.end_pos]

    left_out: int = 0               # problems beyond MAX_DIAGNOSTICS, counted only

    def report(self, pos: Span, code: str, message: str, severity: str = "error", **details) -> None:
        self.diagnostics.append(Diagnostic(severity, code, message, pos.line, pos.column,
                                           self.source, details))
        if len(self.diagnostics) > 2 * MAX_DIAGNOSTICS:    # keep the first ones by place, count the rest
            self.diagnostics.sort(key=lambda d: (d.line or 0, d.column or 0))
            self.left_out += len(self.diagnostics) - MAX_DIAGNOSTICS
            del self.diagnostics[MAX_DIAGNOSTICS:]


_CURRENT_LOG: ContextVar[_Log] = ContextVar("record_log")


class _Broken:
    """What a rule method that failed (a bug) returns; the game around it is left out."""


_BROKEN = _Broken()


class _MoveList(list):
    """The items of a move list (a bare move list at the top of a file is a game of its own)."""


@dataclass
class _Games:
    """The games one header holds: a deal with no moves, then the next game's tags (see ``_split_deals``)."""

    games: list


def _split_deals(header) -> list[list]:
    """A header's items split where a second ``Game`` tag follows a hand: a deal with no moves (a hand
    dealt again, the tiles thrown in) ends there and the tag begins the next game, as ``[Game "2"]``
    reads. (Tags and hands come in any order, so a game's only ``Game`` tag may follow its deal.)"""
    parts, current, dealt, numbered = [], [], False, False
    for item in header:
        game_tag = isinstance(item, _Tag) and item.name == "Game"
        if game_tag and dealt and numbered:
            parts.append(current)
            current, dealt, numbered = [], False, False
        current.append(item)
        dealt = dealt or isinstance(item, (HandEntry, _Then))
        numbered = numbered or game_tag
    return parts + [current]


def _first_pos(value) -> Span | None:
    """Where ``value`` (a token, a piece with a ``pos``, or a list of them) starts in the text."""
    if isinstance(value, Token):
        return _span(value.line, value.column)
    if isinstance(value, (list, tuple)):
        for item in value:
            pos = _first_pos(item)
            if pos is not None:
                return pos
        return None
    return getattr(value, "pos", None)


def _holds_broken(value) -> bool:
    if value is _BROKEN:
        return True
    if isinstance(value, (list, tuple)):
        return any(_holds_broken(item) for item in value)
    return False


def _guarded(method):
    """Call a rule method with its children inline; a failure (a bug) becomes a ``notation`` error
    where the rule stands, and the game around it is left out (the other games are still read)."""
    def callback(children):
        try:
            return method(*children)
        except Exception as exc:  # noqa: BLE001 - a bug in one rule must not lose the other games
            if not _holds_broken(children):
                pos = _first_pos(children) or Span(0, 0)
                log = _CURRENT_LOG.get()
                log.diagnostics.append(Diagnostic("error", Code.NOTATION, str(exc) or repr(exc),
                                                  pos.line or None, pos.column or None, log.source))
                log.failed = pos
            return _BROKEN
    return callback


class RecordTransformer(Transformer):
    """Turn each rule, as the LALR parser reduces it, into a domain object (no tree is built).

    The parser calls these methods with the rule's children inline; positions come from the tokens.
    The problems found go to the log of the record being read (a context variable, so one parser
    serves every thread)."""

    def __init__(self):
        super().__init__()
        for name, value in vars(type(self)).items():
            if not name.startswith("_") and callable(value):
                setattr(self, name, _guarded(getattr(self, name)))

    @property
    def log(self) -> _Log:
        return _CURRENT_LOG.get()

    # the whole text
    def start(self, *items) -> list[Game]:
        """The games, each with the notes that stand before it at the top of the file."""
        games: list[Game] = []
        lead_notes: list[_Note] = []
        for item in items:
            if item is None or item is _BROKEN:
                continue
            if isinstance(item, _Note):
                lead_notes.append(item)
                continue
            if isinstance(item, _Games):        # a deal with no moves, then the next game's header
                for game in item.games[:-1]:
                    if game is not _BROKEN:
                        self._keep(games, lead_notes, game)
                        lead_notes = []
                item = item.games[-1]
                if item is _BROKEN:
                    continue
            if isinstance(item, _MoveList):     # a bare move list at the top of the file
                moves, item = item, self._game(_first_pos(item), [], item)
                if item is _BROKEN:
                    continue
                if not item.moves:              # nothing readable: not a game, only its notes
                    lead_notes += [note for note in moves if isinstance(note, _Note)]
                    continue
            self._keep(games, lead_notes, item)
            lead_notes = []
        return games

    @staticmethod
    def _keep(games: list[Game], lead_notes: list[_Note], game: Game) -> None:
        """Add ``game``, with the notes that stand before it, to ``games``."""
        kept = [note for note in lead_notes if note.text]
        game.comments[:0] = [note.text for note in kept]
        game.comment_pos = tuple(note.pos for note in kept) + game.comment_pos
        games.append(game)

    # games
    def game(self, header, body=None) -> Game | _Games:
        parts = _split_deals(header)
        if len(parts) == 1:
            return self._game(_first_pos(header), header, body)
        # (a part whose pieces carry no place, a hand of '?' alone, is placed where the header begins)
        where = _first_pos(header)
        return _Games([self._game(_first_pos(part) or where, part, None) for part in parts[:-1]]
                      + [self._game(_first_pos(parts[-1]) or where, parts[-1], body)])

    def table_game(self, table) -> Game:
        return self._game(table.pos, [], table)

    def _game(self, pos: Span | None, header, body) -> Game | _Broken:
        log = self.log
        pos = pos or NOWHERE                    # (nothing of the game carries a place: a hand of '?' alone)
        if log.failed is not None and (log.failed.line, log.failed.column) >= (pos.line, pos.column):
            return _BROKEN                      # a rule inside this game failed: leave it out
        return _GameBuilder(log, pos).build(header, body)

    # notes
    def comment(self, token) -> _Note:
        # kept as written (blanks too), except that a line break and the blanks around it are a space
        written = self.log.written(token)
        self._swallowed(token, written)
        text = _LINE_BREAK.sub(" ", unescape(written[1:-1], "{}"))
        return _Note("comment", text, _first_pos(token))

    def _swallowed(self, token, written: str) -> None:
        """A warning when a comment running over lines holds a line that reads as moves or a hand: most
        likely its ``}`` was left out, and the rows up to the next ``}`` are lost to the game."""
        lines = written.splitlines()
        for k, line in enumerate(lines[1:], 1):
            if _SWALLOWED_RE.match(line):
                self.log.report(_first_pos(token), Code.COMMENT_SWALLOWS_ROWS,
                                gettext("this comment runs on to line {last} and holds line {line}, which reads as "
                                        "moves: \"{text}\"; if the comment ends earlier, close it there with }}",
                                        last=token.line + len(lines) - 1, line=token.line + k,
                                        text=line.strip()[:40]), severity="warning")
                return

    def remark(self, token) -> _Note:
        return _Note("remark", self.log.written(token)[1:].strip(), _first_pos(token))

    def text_remark(self, token) -> _Note:
        return _Note("remark", self.log.written(token).strip(), _first_pos(token))

    # header: tags and hands
    def header(self, *items) -> list:
        return list(items)

    def tag(self, bracket, name, value) -> _Tag:
        return _Tag(str(name), unescape(self.log.written(value)[1:-1], '"'), _first_pos(bracket))

    def one_line_tag(self, token) -> _Tag:
        name, value = _ONE_LINE_TAG.fullmatch(self.log.written(token)).groups()
        return _Tag(name, unescape(value, '"'), _first_pos(token))

    def hand(self, start, holding) -> HandEntry | _Then:
        if isinstance(holding, _Then):
            return _Then(self._hand(start, holding.holding), holding.after)
        return self._hand(start, holding)

    def _hand(self, start, holding) -> HandEntry:
        player = _HAND_START_RE.match(start).group("name")
        pos = _first_pos(start)
        if holding is _UNKNOWN:
            return HandEntry(player, None, pos)
        if holding is None:
            self.log.report(pos, Code.EMPTY_HAND, gettext("{player}'s hand lists no tiles; write '{player}: ?' for a "
                                                          "hand the record does not know", player=player),
                            "warning", player=player)
            holding = []
        read = [t for t in holding if isinstance(t, _TileRead)]
        good = [t for t in read if t.tile is not None]
        if not good and len(holding) - len(read) == 1:     # one ? and no tile read: 'C: ?', as written back
            return HandEntry(player, None, pos)
        return HandEntry(player, tuple(t.tile for t in good), pos, tuple(t.pos for t in good),
                         len(holding) - len(read))

    def tiles(self, *items) -> list:
        """The tiles of a hand, then a ``?`` token for each one the record does not show."""
        out: list = []
        for item in items:
            if item.type == "TILE_RUN":         # tiles on one line: each at its column
                out += [_TileRead(_tile(m.group()), _span(item.line, item.column + m.start()))
                        for m in _TILE_IN_RUN.finditer(item)]
            else:
                out.append(self._tile_read(item) if item.type != "QMARK" else item)
        return out

    def unknown(self, *tokens) -> _Unknown | list | _Then:
        """``?``: the hand is not known; one ``?`` a tile (``? ? ? ? ? ? ?``): as many tiles, none shown.
        Tiles after them are none of the hand's (see ``_GameBuilder._first_line``)."""
        marks = [t for t in tokens if t.type == "QMARK"]
        holding = _UNKNOWN if len(marks) == 1 else marks
        after = [self._tile_read(t) for t in tokens if t.type != "QMARK"]
        return _Then(holding, after) if after else holding

    def _number(self, token: Token, digits: str, what: str) -> int | None:
        """The number ``digits`` (of ``token``) writes, or None, reported, when it is longer than
        :data:`~analyzer.record.MAX_DIGITS` (``int()`` itself refuses more than 4,300 digits)."""
        if len(digits) <= MAX_DIGITS:
            return int(digits)
        params = {"what": gettext(what), "digits": digits[:12], "n": len(digits), "most": MAX_DIGITS}
        self.log.report(_first_pos(token), Code.NUMBER_TOO_LONG,
                        gettext("{what} {digits}... has {n} digits; a number of a record has at most {most}: it is "
                                "taken as the number after the one before", **params) if "number" in what else
                        gettext("{what} {digits}... has {n} digits; a number of a record has at most {most}: it is "
                                "not read", **params), digits=len(digits))
        return None

    def _claim(self, token: Token | None) -> int | None:
        """The points of a claim token (``+10``); None without one, or for one too long to read."""
        return self._number(token, token[1:], N_("the claim")) if token else None

    def _tile_read(self, token: Token) -> _TileRead:
        """A TILE token's tile, or a BADTILE token reported (``tile`` None)."""
        if token.type == "TILE":
            return _TileRead(_tile(str(token)), _span(token.line, token.column))
        self.log.report(_first_pos(token), Code.BAD_TILE, gettext("'{text}' is not a tile; write a tile as [a-b] with "
                                                                  "two numbers, like [3-6]", text=shown(token)),
                        text=str(token))
        return _TileRead(None, _first_pos(token))

    # moves
    def moves(self, *items) -> _MoveList:
        return _MoveList(items)

    def move_number(self, token) -> _MoveNumber:
        return _MoveNumber(self._number(token, token.rstrip("."), N_("the move number")), _first_pos(token))

    def move(self, name, play) -> _Move:
        return _Move(str(name), play, _span(name.line, name.column))

    def muggins_move(self, name, keyword, points) -> _Move:
        called = self._number(points, str(points), N_("the muggins call's points"))
        if called is None:             # (reported): the call is not read
            return _Move(str(name), _Play(None, _first_pos(keyword), readable=False), _first_pos(name))
        return _Move(str(name), _Play(None, _first_pos(keyword), muggins=called), _first_pos(name))

    def nameless_tile(self, token, end, arm, annotation, claim) -> _Move:
        play = self.tile_play([token, end, arm, annotation, claim])
        return _Move(None, play, play.pos)

    def nameless_move(self, play) -> _Move:
        return _Move(None, play, play.pos)

    def tile_play(self, token, end, arm, annotation, claim=None) -> _Play:
        pos = _span(token.line, token.column)
        if token.type != "TILE":
            self._tile_read(token)
            return _Play(None, pos, readable=False)
        tile = _tile(str(token))
        if end is None and arm is None and annotation is None and claim is None:
            return _Play(tile, pos)
        number = int(end[1:].strip()) if end else None
        if number is not None and not tile.matches(number):
            self.log.report(_first_pos(end), Code.BAD_END, gettext("{tile} has no {number}, so it cannot have been "
                                                                   "played on a {number}", tile=tile, number=number),
                            tile=str(tile), end=number)
            number = None
        arm_number = int(arm[1:].strip()) if arm else None
        if arm_number == 0:
            self.log.report(_first_pos(arm), Code.BAD_ARM, gettext("arms are numbered from 1 (>1 to >4)"),
                            tile=str(tile))
            arm_number = None
        return _Play(tile, pos, end=number, annotation=_annotation(annotation), claim=self._claim(claim),
                     arm=arm_number)

    def pass_play(self, token, annotation, claim=None) -> _Play:
        return _Play(None, _first_pos(token), annotation=_annotation(annotation), claim=self._claim(claim),
                     word=_own_word(token))

    def draw_play(self, keyword, token, annotation, claim) -> _Play:
        tile = self._tile_read(token)
        if tile.tile is None:
            return _Play(None, tile.pos, readable=False)
        return _Play(tile.tile, _first_pos(keyword), draw=True, annotation=_annotation(annotation),
                     claim=self._claim(claim), word=_own_word(keyword))

    def draw_unknown(self, keyword, token, annotation, claim) -> _Play:
        return _Play(None, _first_pos(keyword), draw=True, annotation=_annotation(annotation),
                     claim=self._claim(claim), word=_own_word(keyword))

    def bad_play(self, token, annotation, claim=None) -> _Play:
        self.log.report(_first_pos(token), Code.BAD_MOVE, gettext("'{text}' is not a move; write a tile like [3-6], "
                                                                  "pass, or ---- for no move", text=shown(token)),
                        text=str(token))
        return _Play(None, _first_pos(token), readable=False)

    # table
    def table(self, header, *items) -> _Table:
        keyword, columns = header
        notes = [item for item in items if isinstance(item, _Note)]
        rows = [item for item in items if isinstance(item, _Row)]
        return _Table(columns, notes, rows, _first_pos(keyword))

    def table_header(self, keyword, *columns) -> tuple[Token, list[_Column]]:
        return keyword, list(columns)

    def column(self, keyword, name) -> _Column:
        return _Column(str(name), _first_pos(name))

    def row(self, number, *items) -> _Row:
        return _Row(self._number(number, number.rstrip("."), "the row number"), list(items), _first_pos(number))

    def no_move(self, token) -> _NoMove:
        return _NoMove(_first_pos(token))


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
            hands = self._first_line(hands, [])
            game.table_pos = body.pos
            self.events.extend(body.notes)
            game.players = self._table_players(game, body, hands)
            self._rows(body, game.players, game.tag_pos.get("Players", self.pos))
        elif body is not None:
            self._movetext(body)
        moves = [e for e in self.events if isinstance(e, MoveEntry)]
        if not isinstance(body, _Table):
            hands = self._first_line(hands, moves)
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
                    self.log.report(item.pos, Code.DUPLICATE_TAG, gettext("the {tag} tag is given twice; the last one "
                                                                          "counts", tag=item.name),
                                    "warning", tag=item.name)
                game.tags[item.name] = item.value
                game.tag_pos[item.name] = item.pos
                if (meant := nearest_tag(item.name)) is not None:
                    self.log.report(item.pos, Code.UNKNOWN_TAG, gettext(
                                        "the tool reads no {tag} tag: is it the {meant} tag misspelt? It is kept as "
                                        "written and not read, so {consequence}", tag=item.name, meant=meant,
                                        consequence=gettext(_UNREAD[meant]) if meant in _UNREAD else
                                        gettext("what a {meant} tag says is not taken into account", meant=meant)),
                                    "warning", tag=item.name, nearest=meant)
                if item.name == "Game" and item.value.strip().isdecimal() and len(item.value.strip()) > MAX_DIGITS:
                    digits = item.value.strip()
                    self.log.report(item.pos, Code.NUMBER_TOO_LONG, gettext(
                                        "the Game tag's number {digits}... has {n} digits; a game number has at most "
                                        "{most}, so the game is taken as not numbered", digits=digits[:12],
                                        n=len(digits), most=MAX_DIGITS), digits=len(digits))
            else:
                hand = item.holding if isinstance(item, _Then) else item     # (tiles after its ?: _first_line)
                if any(getattr(h, "holding", h).player == hand.player for h in hands):
                    self.log.report(hand.pos, Code.DUPLICATE_HAND, gettext("{player}'s hand is given twice",
                                                                           player=hand.player),
                                    "warning", player=hand.player)
                hands.append(item)
        return hands

    def _first_line(self, hands: list, moves: list[MoveEntry]) -> list[HandEntry]:
        """The hands without the tiles that stand on the line of the first move: that line lacks its number
        and player (``[6-6] Ost [3-6] ...`` for ``1. Nord [6-6] Ost [3-6] ...``), and the tile it opens
        with, read as the last hand's (or after its ``?``), is a move without a player, reported as one
        on any later line is (``no-player``), so the repair finds the player. Tiles after a ``?`` that
        stand elsewhere are no hand's and are reported."""
        line = moves[0].pos.line if moves else None
        out = []
        for k, hand in enumerate(hands):
            after: list = []
            if isinstance(hand, _Then):
                hand, after = hand.holding, hand.after
            elif k == len(hands) - 1 and line and hand.tiles and hand.pos.line != line:
                keep = [j for j, p in enumerate(hand.tile_pos) if p.line != line]
                if len(keep) < len(hand.tiles):
                    after = [_TileRead(hand.tiles[j], hand.tile_pos[j]) for j in range(len(hand.tiles))
                             if j not in keep]
                    hand = replace(hand, tiles=tuple(hand.tiles[j] for j in keep),
                                   tile_pos=tuple(hand.tile_pos[j] for j in keep))
                    if not hand.tiles and hand.unknown == 1:   # 'C: ?', as written back (see _hand)
                        hand = replace(hand, tiles=None, unknown=0)
            moved = [t for t in after if t.tile is not None and t.pos.line == line]
            if moved:
                self._report_nameless([_Move(None, _Play(t.tile, t.pos), t.pos) for t in moved])
            for t in after:
                if t.tile is not None and t.pos.line != line:
                    self.log.report(t.pos, Code.SYNTAX, gettext("{tile} after '?' is no tile of {player}'s hand: a "
                                                                "hand shows its tiles first, then a ? for each one it "
                                                                "does not show", tile=t.tile, player=hand.player))
            out.append(hand)
        return out

    def _movetext(self, items) -> None:
        round_no = None
        nameless: list[_Move] = []
        for item in items:
            if isinstance(item, _Move) and item.player is None and item.play.readable:
                nameless.append(item)
                continue
            self._report_nameless(nameless)
            if isinstance(item, _MoveNumber):
                # a number too long to read (reported): the one after the number before, at most the largest
                round_no = item.number if item.number is not None else min((round_no or 0) + 1, 10 ** MAX_DIGITS - 1)
            elif isinstance(item, _Move):
                if item.play.readable:
                    self.events.append(_entry(item.player, item.play, round_no))
            else:
                self.events.append(item)
        self._report_nameless(nameless)

    def _report_nameless(self, nameless: list[_Move]) -> None:
        if nameless:
            first = nameless[0]
            self.log.report(first.pos, Code.NO_PLAYER,
                            ngettext("the move {move} (and the {n} after it) names no player; write it as "
                                     "'PLAYER TILE', like 'B [1-1]'", "the move {move} (and the {n} after it) names no "
                                     "player; write it as 'PLAYER TILE', like 'B [1-1]'", len(nameless) - 1,
                                     move=_play_text(first.play)) if len(nameless) > 1 else
                            gettext("the move {move} names no player; write it as 'PLAYER TILE', like 'B [1-1]'",
                                    move=_play_text(first.play)),
                            count=len(nameless), moves=[_play_text(m.play) for m in nameless])
            nameless.clear()

    def _table_players(self, game: Game, table: _Table, hands) -> tuple[str, ...]:
        if not table.columns:          # a bare "Round": the players are named elsewhere
            return derive_players(game.tags, hands, [])
        players = tuple(c.name for c in table.columns)
        if "Players" in game.tags and split_players(game.tags["Players"]) != players:
            self.log.report(game.tag_pos["Players"], Code.PLAYERS_MISMATCH,
                            gettext("the Players tag says {tag} but the table's columns are {columns}; the columns "
                                    "count", tag=repr(game.tags['Players']), columns=', '.join(players)), "warning")
        return players

    def _rows(self, table: _Table, players: tuple[str, ...], named_at: Span) -> None:
        for name in filter(lambda name: not playable_name(name), players):    # (a Players tag holds any text)
            self.log.report(named_at, Code.PLAYERS, gettext("no play can name {name}: its column's plays are not read",
                                                            name=repr(name)))
        previous = None
        sheet = self._sheet_columns(table, len(players))
        for row in table.rows:
            if row.number is None:          # too long to read (reported): the row after the one before
                row.number = min((previous or 0) + 1, 10 ** MAX_DIGITS - 1)
            elif previous is not None and row.number != previous + 1:
                self.log.report(row.pos, Code.ROW_NUMBER, gettext("row {row} follows row {previous}", row=row.number,
                                                                  previous=previous),
                                "warning", row=row.number)
            previous = row.number
            column = 0
            extra: list = []
            fields = sheet(row)
            for item in row.items:
                if isinstance(item, _Note):
                    self.events.append(item)
                    continue
                at = fields(item) if fields is not None else None
                if at is not None:          # a sheet's row: each cell in the column of its field
                    column = at - 1
                if column >= len(players):
                    extra.append(item)
                elif isinstance(item, _Play) and item.readable and playable_name(players[column]):
                    self.events.append(_entry(players[column], item, row.number))
                column += 1
            if extra:
                self.log.report(extra[0].pos, Code.TOO_MANY_CELLS, gettext(
                                    "row {row} has more cells than the table has players ({players}); the rest of the "
                                    "row is ignored", row=row.number, players=len(players)),
                                row=row.number, cells=[_cell_data(item) for item in extra])

    def _sheet_columns(self, table: _Table, players: int):
        """For a table pasted from a spreadsheet (its header's and rows' cells separated by tabs, an empty
        cell two tabs in a row): a function of a row giving, for a row whose cells are so separated, a
        function of each of its items giving its field (0 the row number, k the k-th player's column), so
        that an empty cell is the no move it stands for (``----``) and no cell slides into the column
        before it. None where the table is not such a sheet (a tab among blanks is a blank)."""
        lines = self.log.lines

        def fields_of(line_no: int, column: int) -> int | None:
            line = lines[line_no - 1] if 0 < line_no <= len(lines) else ""
            return line.count("\t", 0, column - 1) if "\t" in line else None

        def off(row: _Row):
            return None
        if not lines or not table.columns:
            return off
        head = table.pos.line
        base = fields_of(head, table.pos.column)
        if base is None or [fields_of(head, c.pos.column) for c in table.columns] != \
                list(range(base + 1, base + 1 + players)):
            return off            # the header is no sheet's: its names are not one a field

        def sheet(row: _Row):
            first = fields_of(row.pos.line, row.pos.column)
            if first is None:
                return None

            def field(item) -> int | None:      # (None: a cell on a line after its row's follows the one before)
                pos = getattr(item, "pos", None)
                if pos is None or pos.line != row.pos.line:
                    return None
                return fields_of(pos.line, pos.column) - first
            return field
        return sheet

    def _check_players(self, game: Game, hands, moves) -> None:
        seen: set[str] = set()
        for name in game.players:
            if name in seen:
                self.log.report(self.pos, Code.DUPLICATE_PLAYER, gettext("{player} is named twice among the players",
                                                                         player=name), player=name)
            seen.add(name)
        if "Players" not in game.tags and game.form != "table":
            return
        for what, entries in ((N_("{player} is not one of the players ({players}), yet a hand is given for them"),
                               hands),
                              (N_("{player} is not one of the players ({players}), yet a move is given for them"),
                               moves)):
            for entry in entries:
                if entry.player not in seen:
                    self.log.report(entry.pos, Code.UNKNOWN_PLAYER, gettext(what, player=entry.player,
                                                                            players=', '.join(game.players)),
                                    "warning", player=entry.player)

    def _attach_notes(self, game: Game) -> None:
        """A note after a move is that move's comment; notes before the first move are the game's
        comments; remarks after the last move are the game's closing remark."""
        last_move = max((i for i, e in enumerate(self.events) if isinstance(e, MoveEntry)), default=-1)
        remark: list[str] = []
        places: list[Span] = []
        for i, event in enumerate(self.events):
            if isinstance(event, MoveEntry):
                game.moves.append(event)
            elif event.kind == "remark" and i > last_move:
                if not remark:
                    game.remark_pos = event.pos
                remark.append(event.text)
            elif not event.text:
                continue
            elif game.moves:
                move = game.moves[-1]
                if move.comment:
                    game.moves[-1] = replace(move, comment=f"{move.comment} {event.text}")
                else:
                    game.moves[-1] = replace(move, comment=event.text, comment_pos=event.pos)
            else:
                game.comments.append(event.text)
                places.append(event.pos)
        game.comment_pos = tuple(places)
        game.remark = "\n".join(remark) if remark else None


def _entry(player: str, play: _Play, round_no: int | None) -> MoveEntry:
    return MoveEntry(player, play.tile, play.end, play.annotation, None, round_no, play.pos, play.draw,
                     play.claim, play.muggins, play.arm, word=play.word)


#: the words for a pass and a draw the writer writes itself (English) or reads as its own (German): any other word a
#: sheet writes (Spanish, Portuguese, Russian: grammar/record.lark) is kept with the move and written back
_PLAIN_WORDS = re.compile(r"(?i:pass|passt|draws?|kauft|zieht)")


def _own_word(token) -> str | None:
    """A pass's or a draw's keyword as the record wrote it, where the writer would not write it the same: ``paso``,
    ``roba``, ``пас`` (None: ``pass``, ``draws`` and the German words)."""
    word = str(token)
    return None if _PLAIN_WORDS.fullmatch(word) else word


def _cell_data(item) -> dict:
    """A table cell the reader left out (beyond the last column), as plain data: what it says
    (``move`` False for ``----`` or an unreadable cell), where, and its parts (the repair puts such
    a cell back into the row when another cell of it was written twice)."""
    where = {"line": item.pos.line, "column": item.pos.column}
    if not isinstance(item, _Play) or not item.readable:
        return {"text": "----" if isinstance(item, _NoMove) else "?", "move": False, **where}
    return {"text": _play_text(item), "move": True, "tile": None if item.tile is None else str(item.tile),
            "end": item.end, "arm": item.arm, "annotation": item.annotation, **where}


def _play_text(play: _Play) -> str:
    if play.muggins is not None:
        return f"muggins {play.muggins}"
    if play.draw:
        return f"draws {play.tile if play.tile is not None else '?'}"
    return "pass" if play.tile is None else str(play.tile)


# ---- the parser -----------------------------------------------------------------------------------

def _transformer_key() -> tuple:
    return tuple(vars(RecordTransformer).values())


class _Rule(Rule):
    """A rule of the parser's table, equal only to itself: lark's LALR loop, at each reduction, asserts the rule is
    not the end state and looks up its callback by it, and lark's ``Rule`` compares and hashes by its contents in
    Python (two calls a reduction, some 8% of reading). The table holds each rule once (lark's own objects, those
    of ``Lark.rules``), so by identity is the same."""

    __slots__ = ()
    __eq__ = object.__eq__
    __hash__ = object.__hash__


#: The parser's tables as :func:`saved_parser` gives them, where :func:`use_saved_parser` was given them (the static
#: site's worker: its Python would otherwise build them from the grammar in each browser, on each visit).
_SAVED: list[bytes] = []


def saved_parser_head() -> bytes:
    """What a saved parser starts with: the digest of the grammar and of lark's version it was built from."""
    import hashlib

    from lark import __version__

    return b"domino-parser " + hashlib.sha256((grammar_text() + "\0" + __version__).encode("utf-8")).hexdigest().encode() + b"\n"


def saved_parser() -> bytes:
    """The record parser's tables as lark saves them (``Lark.save``: the grammar analysed, without the
    transformer, which :func:`use_saved_parser` gives them back), headed by the digest of the grammar and of lark's
    version they were built from. The static site ships them (``analyzer.site.build``): Pyodide builds the parser
    from the grammar in 1.8 s, and loads it so in 0.2 s (measured under Node, a loaded machine)."""
    import io

    buffer = io.BytesIO()
    Lark(grammar_text(), parser="lalr", lexer=RecordLexer, maybe_placeholders=True,
         transformer=RecordTransformer()).save(buffer, exclude_options=("transformer",))
    return saved_parser_head() + buffer.getvalue()


def use_saved_parser(raw: bytes) -> bool:
    """Build the parser, when first asked for, from ``raw`` (:func:`saved_parser`'s) instead of the grammar: where
    it was saved from this grammar and this version of lark (else False, and nothing changes)."""
    if not raw.startswith(saved_parser_head()):
        return False
    _SAVED[:] = [raw]
    _parser.cache_clear()
    return True


def _loaded(key: tuple) -> Lark | None:
    """The parser from the tables :func:`use_saved_parser` was given (for the transformer as it is: ``key``, the
    one they are given back), or None where there are none, or where lark cannot read them."""
    if not _SAVED or key != _transformer_key():
        return None
    import io
    import pickle

    raw = _SAVED[0]
    try:        # (lark's own cache reads its tables so: ``Lark._load``, the transformer given back)
        return Lark.__new__(Lark)._load(io.BytesIO(raw[raw.index(b"\n") + 1:]), transformer=RecordTransformer())
    except (AttributeError, TypeError, ValueError, KeyError, EOFError, pickle.UnpicklingError):
        _SAVED.clear()
        return None


@cache
def _parser(key: tuple) -> Lark:
    # the grammar's analysis kept in the user's cache folder (not the shared temporary one, where another could
    # plant a pickle): the next process builds the parser in a tenth of the time (lark checks the grammar)
    lark = _loaded(key) or Lark(grammar_text(), parser="lalr", lexer=RecordLexer, maybe_placeholders=True,
                                transformer=RecordTransformer(),
                                cache=kept_file("parser-py%d.%d.lark" % sys.version_info[:2]) or False)
    for rule in lark.rules:     # a rule's origin a plain str: the parser's look-ups compare in C, not Token.__eq__
        rule.origin.name = str(rule.origin.name)
        rule.__class__ = _Rule
    callbacks = lark.parser.parser.parser.callbacks     # keyed by the rules: hashed again, by identity
    rehashed = list(callbacks.items())                  # (a dict's copy would keep the old hashes)
    callbacks.clear()
    for rule, callback in rehashed:
        callbacks[rule] = callback
    return lark


def parser() -> Lark:
    """The record parser, built once from the grammar: LALR(1) with the record lexer (contextual), the
    transformer applied as each rule is reduced (no parse tree is built)."""
    return _parser(_transformer_key())


# ---- the whole record ---------------------------------------------------------------------------

def parse(text: str, source: str = "<record>") -> Record:
    """Read every game of ``text``; never raises: problems are returned in ``Record.errors``.

    At most :data:`MAX_DIAGNOSTICS` problems are listed, then one ``too-many-errors`` line says how
    many more there were.

    An end game of the block game for two, set up (Ann to lay one of two tiles, Bob holding one)::

    >>> record = parse('''[Variant "block"] [Players "Ann, Bob"] [SetUp "1"] [Ends "4 6"] [OnTable "11"]
    ... [ToMove "Ann"]
    ... Ann: [1-4] [6-6]
    ... Bob: [1-3]
    ... 1. Ann [1-4] Bob [1-3]''', "endgame.dom")
    >>> game = record.games[0]
    >>> game.players, [str(move.tile) for move in game.moves], record.errors
    (('Ann', 'Bob'), ['[1-4]', '[1-3]'], [])
    """
    record = Record(source=source)
    log = _Log(source)
    recovery = Recovery(text, source)
    token = _CURRENT_LOG.set(log)
    lexed = marked(text)
    if lexed is not text:
        log.text = text
    if "\t" in text:                   # (a table pasted from a spreadsheet: its cells are told apart by tabs)
        log.lines = text.split("\n")
    try:
        games = parser().parse(lexed, on_error=recovery)
        record.games.extend(games)
    except UnexpectedInput:             # the text stops inside something that cannot be dropped
        pass
    except Exception as exc:  # noqa: BLE001 - parse() promises diagnostics, never an exception
        record.errors.append(Diagnostic("error", Code.INTERNAL, gettext("the reader failed: {error}", error=repr(exc)),
                                        source=source))
    finally:
        _CURRENT_LOG.reset(token)
    record.errors.extend(recovery.diagnostics)
    if recovery.end_error is not None:
        record.errors.append(recovery.end_error)
    record.errors.extend(replace(d, context=recovery.context_at(d.line, d.column))   # a syntax error shows its place
                         if d.code == Code.SYNTAX and d.context is None and d.line and d.column else d
                         for d in log.diagnostics)
    record.errors.sort(key=lambda d: (d.line or 0, d.column or 0))
    left_out = recovery.left_out + log.left_out + max(0, len(record.errors) - MAX_DIAGNOSTICS)
    if left_out:
        del record.errors[MAX_DIAGNOSTICS:]
        record.errors.append(Diagnostic("error", Code.TOO_MANY_ERRORS, ngettext(
                                            "{n} more problem is not listed (only the first {most} are)",
                                            "{n} more problems are not listed (only the first {most} are)", left_out,
                                            n=left_out, most=MAX_DIAGNOSTICS),
                                        source=source, details={"left_out": left_out}))
    return record
