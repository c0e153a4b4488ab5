"""The record: what a game's text says, before any rule is applied.

Positions (line, column) point into the source; they never take part in equality, so a record
read back from the writer's text compares equal to the original."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .diagnostics import Diagnostic
from .tiles import Move, Tile

__all__ = ["Span", "MoveEntry", "HandEntry", "Game", "Record", "StatedResult", "ANNOTATIONS", "MAX_DIGITS", "clip",
           "as_sheet"]

MAX_DIGITS = 9
"""The most digits a number read from a record may have (a game or move number, a claim, a score, a
tag's number): no game is numbered in the billions nor scores as much, and Python's ``int()`` refuses
a text of more than 4,300 digits. The reader reports a longer one (``number-too-long``) where it
stands and reads the rest of the record without it."""

ANNOTATIONS = ("!!", "??", "!?", "?!", "!", "?", "*")


@dataclass(frozen=True, slots=True)
class Span:
    line: int
    column: int


NOWHERE = Span(0, 0)


@dataclass(frozen=True)
class MoveEntry:
    """A move as written: who, which tile (None: a pass), the open number it went on if stated.

    ``draw``: the player takes ``tile`` from the boneyard (``tile`` None: ``draws ?``, a tile the
    record does not show). ``claim``: the points the player claims for his play (``B [3-4] +10``,
    All Fives). ``muggins``: not a move but a Muggins call, taking that many points the previous
    player did not claim (``C muggins 10``; ``tile`` is None). ``arm``: the arm of a layout with more
    than two open ends the tile went on (``B [0-3]>2``; French and cross domino)."""

    player: str
    tile: Tile | None
    end: int | None = None
    annotation: str | None = None
    comment: str | None = None          # the {comment} written right after the move
    round: int | None = None            # the table row or move number it stands in
    pos: Span = field(default=NOWHERE, compare=False)
    draw: bool = False
    claim: int | None = None
    muggins: int | None = None
    arm: int | None = None              # the arm of a layout with more than two ends (``[0-3]>2``)
    comment_pos: Span = field(default=NOWHERE, compare=False)   # where the comment starts
    word: str | None = field(default=None, compare=False)      # a pass's or a draw's word as the record wrote it
    #                                                           in Spanish, Portuguese or Russian ("paso", "roba",
    #                                                           "пас"; None: pass, draws), written back as it was

    @property
    def is_pass(self) -> bool:
        return self.tile is None and not self.draw and self.muggins is None

    @property
    def is_muggins(self) -> bool:
        return self.muggins is not None

    @property
    def is_play(self) -> bool:
        return self.tile is not None and not self.draw

    @property
    def text(self) -> str:
        """What was done, in words: ``[3-6]``, ``pass``, ``draws [3-4]``, ``draws ?``, ``muggins 10``."""
        return self.notation(where=False, marks=False, claim=False)

    def notation(self, where: bool = True, marks: bool = True, claim: bool = True, pass_word: str = "pass") -> str:
        """The entry as the notation writes it, the one writer of an entry's text: ``[2-4]@4>2! +10``,
        ``draws [3-4]``, ``draws ?``, ``pass``, ``muggins 5`` (the move itself as :class:`Move` writes it).
        ``where``: with the end and arm it went on; ``marks``: with its annotation; ``claim``: with the
        points it claims; ``pass_word``: how a pass is written (a book table may write ``-``)."""
        if self.muggins is not None:
            return f"muggins {self.muggins}"
        if self.tile is None and not self.draw:
            text = self.word if self.word is not None and pass_word == "pass" else pass_word
        else:
            text = str(Move(self.tile, self.end if where else None, self.draw, self.arm if where else None))
            if self.draw and self.word is not None:         # ("roba [3-4]": the sheet's own word for a draw)
                text = self.word + text.removeprefix("draws")
        return (text + (self.annotation or "" if marks else "")
                + (f" +{self.claim}" if claim and self.claim is not None else ""))


@dataclass(frozen=True)
class HandEntry:
    """A player's dealt hand; ``tiles`` is None when the record does not know it (``?``).
    ``unknown``: how many more tiles he was dealt that the record does not show (a partly known
    hand, ``A: [0-0] [1-1] ? ? ? ? ?``)."""

    player: str
    tiles: tuple[Tile, ...] | None
    pos: Span = field(default=NOWHERE, compare=False)
    tile_pos: tuple[Span, ...] = field(default=(), compare=False)
    unknown: int = 0


_RESULT_RE = re.compile(
    r"^\s*(?:(?P<draw>draw)|(?!(?:domino|blocked|milo)\b)(?P<side>[^\s]+?)(?:\s+(?P<points>\d+))?)?\s*"
    r"(?P<term>\bdomino|\bblocked|\bmilo)?\s*$",
    re.IGNORECASE)


@dataclass(frozen=True)
class StatedResult:
    """The result a record states in its ``Result`` tag: ``"B/D 10 domino"``, ``"A/C 46 blocked"``,
    ``"draw blocked"``, ``"A/C 2 milo"`` (000, Milo: a domino whose last tile leaves both ends equal "wird
    als „Milo“ und nicht als „Domino“ angesagt"). ``side`` names the winners as the record does (``B/D``, ``B`` or ``D/B``).
    A winner without points (``"A/C domino"``, as many logs write it) leaves ``points`` None: only the
    winner and the ending are checked."""

    side: tuple[str, ...] | None      # None: a draw
    points: int | None
    termination: str | None           # how the hand ended: "domino" or "blocked" (None: not said)
    milo: bool = False                # the domino was called "milo" (its last tile left both ends equal)

    @classmethod
    def parse(cls, text: str) -> StatedResult | None:
        """Read a Result tag; None for ``*`` or an empty tag; ValueError for anything else."""
        return _stated_result(cls, text)

    @classmethod
    def _parse(cls, text: str) -> StatedResult | None:
        if text.strip() in ("", "*", "?"):
            return None
        m = _RESULT_RE.match(text)
        if not m or (not m.group("draw") and not m.group("side") and not m.group("term")):
            raise ValueError(
                f"cannot read result {clip(text)!r}; write it as \"B/D 10 domino\", \"A/C 46 blocked\", \"A/C 2 milo\" or "
                "\"draw blocked\"")
        term = m.group("term").lower() if m.group("term") else None
        milo = term == "milo"
        term = "domino" if milo else term
        if m.group("draw") or not m.group("side"):
            return cls(None, 0, term, milo)
        points = m.group("points")
        if points is not None and len(points) > MAX_DIGITS:
            raise ValueError(f"cannot read result {clip(text)!r}: its points have {len(points)} digits, and a "
                             f"result has at most {MAX_DIGITS}")
        return cls(tuple(m.group("side").split("/")), int(points) if points is not None else None, term, milo)

    def agrees(self, points: int) -> bool:
        """Whether the stated points are ``points`` (a result that states none agrees with any)."""
        return self.points is None or self.points == points

    def __str__(self) -> str:
        head = "draw" if self.side is None else "/".join(self.side) + ("" if self.points is None else f" {self.points}")
        called = "milo" if self.milo else self.termination
        return f"{head} {called}" if called else head


def clip(text: str, width: int = 40) -> str:
    """``text``, cut to ``width`` characters with '...' (a message never quotes a huge value whole)."""
    return text if len(text) <= width else text[:width] + "..."


@lru_cache(maxsize=1024)
def _stated_result(cls, text: str) -> StatedResult | None:
    """``StatedResult.parse``, each text read once (a result is a value)."""
    return cls._parse(text)


@dataclass
class Game:
    """One game (hand) of a record."""

    tags: dict[str, str] = field(default_factory=dict)
    players: tuple[str, ...] = ()
    hands: tuple[HandEntry, ...] = ()
    moves: list[MoveEntry] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)     # comments before the first move
    remark: str | None = None                             # free text after a table's last row
    form: str = field(default="pgn", compare=False)       # "table" or "pgn": how it was written
    remark_pos: Span = field(default=NOWHERE, compare=False)   # where the closing remark starts
    pos: Span = field(default=NOWHERE, compare=False)
    tag_pos: dict[str, Span] = field(default_factory=dict, compare=False)
    comment_pos: tuple[Span, ...] = field(default=(), compare=False)   # where each of ``comments`` starts
    table_pos: Span = field(default=NOWHERE, compare=False)    # where a table's header row starts

    def hand_of(self, player: str) -> HandEntry | None:
        for hand in self.hands:
            if hand.player == player:
                return hand
        return None

    @property
    def number(self) -> int | None:
        """The game's number within its match (the ``Game`` tag)."""
        value = self.tags.get("Game", "").strip()
        return int(value) if value.isdecimal() and len(value) <= MAX_DIGITS else None


@dataclass
class Record:
    """Every game a file holds, and the notation errors met while reading it."""

    games: list[Game] = field(default_factory=list)
    source: str = field(default="<record>", compare=False)
    errors: list[Diagnostic] = field(default_factory=list, compare=False)


def as_sheet(record: Record, players=None, draws: bool = False) -> Record:
    """``record`` written again as a sheet: the hands of ``players`` (None: every player) as ``?`` and, with
    ``draws``, every tile they draw as ``draws ?``. The deal it was written from is one the sheet allows."""
    def hidden(name: str) -> bool:
        return players is None or name in players

    games = []
    for game in record.games:
        hands = tuple(replace(h, tiles=None, unknown=0) if hidden(h.player) else h for h in game.hands)
        moves = [replace(m, tile=None) if draws and m.draw and hidden(m.player) else m for m in game.moves]
        games.append(replace(game, hands=hands, moves=moves))
    return replace(record, games=games)
