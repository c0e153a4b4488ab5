"""What the importers share: the error that names the place in the source, the imported record with the
place of each of its moves, names made words of the notation, tiles read from text, hands partly known."""
from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from ...diagnostics import Diagnostic, NotationError
from ...i18n import gettext, ngettext
from ...record import Game, HandEntry, MoveEntry, Record, clip
from ...rules.codes import Code
from ...tiles import Tile

__all__ = ["ImportSourceError", "Problems", "Imported", "word_names", "read_tile", "dealt_hands", "MAX_PROBLEMS",
           "rules_text", "dealt_size", "numbered", "WordNames", "Streamed", "Stream", "collected", "source_lines"]

#: the most problems one import lists (the rest are counted in the last one)
MAX_PROBLEMS = 50


class ImportSourceError(NotationError):
    """A move log that cannot be imported: every problem found, each at its place in the source (a line and
    column, and where the source has them a JSON path or a share code's character)."""


class Problems:
    """The problems met while importing one source, each a :class:`Diagnostic` at its place."""

    def __init__(self, source: str):
        self.source = source
        self.found: list[Diagnostic] = []
        self.more = 0

    def add(self, code: Code, message: str, line: int | None = None, column: int | None = None,
            path: str | None = None) -> None:
        if len(self.found) >= MAX_PROBLEMS:
            self.more += 1
            return
        text = f"{path}: {message}" if path else message
        details = {"path": path} if path else {}
        self.found.append(Diagnostic("error", code, text, line, column, self.source, details))

    def __bool__(self) -> bool:
        return bool(self.found)

    def check(self) -> None:
        """Raise :class:`ImportSourceError` when any problem was found."""
        if not self.found:
            return
        found = sorted(self.found, key=lambda d: (d.line or 0, d.column or 0))      # (in the order of the source)
        if self.more:
            found.append(Diagnostic("error", Code.TOO_MANY_ERRORS, ngettext("{n} more problem is left out",
                                                                            "{n} more problems are left out",
                                                                            self.more, n=self.more),
                                    None, None, self.source, {"left_out": self.more}))
        raise ImportSourceError(found)


@dataclass(frozen=True)
class Imported:
    """A move log made a record: ``record`` (its games in the notation's terms), ``places`` the place in the
    source of each game's moves (``places[g][k]`` names move ``k`` of game ``g``: ``rounds[1].moves[4], line
    30``, ``line 7``, ``character 12``), ``notes`` what the notation does not keep of the source."""

    record: Record
    places: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()

    @property
    def moves(self) -> int:
        return sum(len(g.moves) for g in self.record.games)


class Streamed(NamedTuple):
    """One game of a move log as an importer's stream gives it: the ``game``, the place in the source of each of
    its moves (``places``, as :attr:`Imported.places` names them) and the ``line`` of the source read up to."""

    game: Game
    places: tuple[str, ...]
    line: int


#: An importer's stream: each game as it is read (:class:`Streamed`), none after the first problem; it returns
#: the notes of :class:`Imported`, or raises :class:`ImportSourceError` with every problem of the source at the
#: end.
Stream = Generator[Streamed, None, tuple[str, ...]]


def collected(stream: Stream, source: str) -> Imported:
    """The :class:`Imported` record of a whole ``stream``."""
    games, places = [], []
    while True:
        try:
            got = next(stream)
        except StopIteration as end:
            return Imported(Record(games, source=source), tuple(places), tuple(end.value))
        games.append(got.game)
        places.append(got.places)


_NOT_WORD = re.compile(r"\W+")
_KEYWORD = re.compile(r"(?i:passt?|draws?|kauft|zieht|runde|round|spieler|player|muggins)")


def _word(name: str) -> str:
    word = _NOT_WORD.sub("_", name.strip()).strip("_")
    if not word or not (word[0].isalpha() and word[0] != "_"):
        word = "P_" + word
    if _KEYWORD.fullmatch(word):
        word += "_"
    return word


def word_names(names: list[str]) -> dict[str, str]:
    """Each of ``names`` as a player's name of the notation (a word: a letter, then letters, digits or ``_``,
    and no keyword): blanks and other signs become ``_`` (``Алексей Петров`` is ``Алексей_Петров``), a name
    that does not start with a letter gets ``P_`` before it (``7`` is ``P_7``), a keyword gets ``_`` after it;
    two names that would become one are told apart by ``_2``, ``_3``..."""
    words = WordNames()
    for name in names:
        words(name)
    return words.names


class WordNames:
    """:func:`word_names` told the names one at a time, as a source gives them: ``words(name)`` is the word of
    ``name`` (the same as :func:`word_names` gives it for the names told so far), ``words.names`` all of them."""

    def __init__(self):
        self.names: dict[str, str] = {}
        self.taken: set[str] = set()

    def __call__(self, name: str) -> str:
        if name in self.names:
            return self.names[name]
        word = base = _word(name)
        k = 2
        while word.casefold() in self.taken:
            word, k = f"{base}_{k}", k + 1
        self.taken.add(word.casefold())
        self.names[name] = word
        return word


_TILE = re.compile(r"^\s*\[?\s*(\d{1,2})\s*[-|:]\s*(\d{1,2})\s*\]?\s*$")


def read_tile(text: str, top: int = 6) -> tuple[int, int] | str:
    """The halves of a tile written ``3-6`` (or ``[3-6]``, ``3|6``, ``3:6``) in the order written, or what is
    wrong with ``text`` (a set whose halves go up to ``top``)."""
    m = _TILE.match(text)
    if not m:
        return gettext("{text} is no tile (write it as 3-6)", text=repr(clip(text)))
    a, b = int(m.group(1)), int(m.group(2))
    if max(a, b) > top:
        return (gettext("{text} is no tile of the double-six set", text=repr(clip(text))) if top == 6 else
                gettext("{text} is no tile of the double-{pips} set", text=repr(clip(text)), pips=top))
    return a, b


def dealt_hands(players: tuple[str, ...], moves: list[MoveEntry], hand_size: int | None,
                problem=None) -> tuple[HandEntry, ...]:
    """The hands of a game whose source gives no deal: each player's tiles played, and a ``?`` for each other
    tile he was dealt (``hand_size`` of them in all); ``hand_size`` None (a draw game: a tile played may have
    been drawn) writes each hand ``?``. ``problem(k, player)`` is told of the move ``k`` that plays more
    tiles than were dealt (the hand is then written ``?``)."""
    if hand_size is None:
        return tuple(HandEntry(p, None) for p in players)
    played: dict[str, list[Tile]] = {p: [] for p in players}
    over: set[str] = set()
    for k, move in enumerate(moves):
        if not move.is_play or move.player not in played or move.tile in played[move.player]:
            continue
        played[move.player].append(move.tile)
        if len(played[move.player]) > hand_size and move.player not in over:
            over.add(move.player)
            if problem is not None:
                problem(k, move.player)
    return tuple(HandEntry(p, None) if p in over or not played[p]
                 else HandEntry(p, tuple(sorted(played[p])), unknown=hand_size - len(played[p]))
                 for p in players)


def source_lines(text: str) -> Iterator[str]:
    """The lines of ``text`` as :meth:`str.splitlines` gives them, one at a time (the text not copied whole)."""
    start = 0
    for end in _LINE_END.finditer(text):
        yield text[start:end.start()]
        start = end.end()
    if start < len(text):
        yield text[start:]


_LINE_END = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def rules_text(rules: dict[str, str]) -> str:
    """A Rules tag's value: ``"players=2, draw=yes"``."""
    return ", ".join(f"{key}={value}" for key, value in rules.items())


def dealt_size(variant: str, rules: dict[str, str], players: int) -> tuple[int | None, bool]:
    """How many tiles each hand of ``variant`` is dealt, and whether its line is two-ended; the size is None
    in a draw game (a tile played may have been drawn). An unknown variant or option raises
    :class:`~analyzer.rules.VariantError` (what exists is in its message)."""
    from ...rules import find_variant
    from ...rules.modes import Layout

    chosen = find_variant(variant, rules, players=players)
    return (chosen.dealing.hand_size if chosen.drawing is None else None), chosen.layout == Layout.LINE


def numbered(moves: list[MoveEntry], players: int) -> list[MoveEntry]:
    """``moves`` numbered by rounds of the players' turns (a draw keeps the turn), as the writer writes a round a
    line: ``3. A [3-6]@3 B draws ? B [6-6]``."""
    from dataclasses import replace

    out, turn = [], 0
    for move in moves:
        out.append(replace(move, round=turn // players + 1))
        turn += not move.draw
    return out
