"""The share code of the yard-dominoes web app (Shan12377/yard-dominoes, ``apps/web/src/replay.ts``): one hand
in a short text that rides in a link (``...#hand=CODE``). Five digits of header (the code's version ``1``, the
seat that posed, the seat that shared it, the number of seats, the set's format), then one step a character or
two: ``X`` a pass, ``D`` a draw (the tile is never shown), ``P``, ``L`` or ``R`` and a tile's character (the
pose, a play on the left or the right end), or an arm's digit ``0`` to ``3`` and a tile's character (French).
No hand is in the code: the record shows each player's tiles played, and ``?`` for the rest."""
from __future__ import annotations

import re

from ...i18n import N_, gettext
from ...record import Game, MoveEntry
from ...rules.codes import Code
from ...rules.options import VariantError
from ...tiles import Tile
from .common import (Imported, Problems, Stream, Streamed, collected, dealt_hands, dealt_size, numbered, rules_text,
                     source_lines)

__all__ = ["import_yard", "stream_yard", "TILE_CHARS", "SET_FORMATS"]

#: the character of each tile: [0-0], [0-1], ... [0-6], [1-1], ... [6-6], in this order
TILE_CHARS = "0123456789abcdefghijklmnopqr"
_TILES = [Tile(a, b) for a in range(7) for b in range(a, 7)]
#: the set formats of the header's fifth digit
SET_FORMATS = ("sixlove", "firstToSix", "single", "french")
_CODE = re.compile(r"[^\s&#]*")


def import_yard(text: str, source: str = "<yard>", variant: str | None = None,
                rules: dict[str, str] | None = None) -> Imported:
    """The record of the share codes in ``text``, one a line (a whole link, ``...#hand=CODE``, is read as its
    code; blank lines and lines starting with ``#`` are left out): a game each. Four seats play ``jamaican``
    (partners), three or two ``cutthroat`` (two that draw: ``draw=yes``), the French format ``french``;
    ``variant`` and ``rules`` override that. Raises :class:`~.common.ImportSourceError` with every problem at
    its line and column (the character of the code)."""
    return collected(stream_yard(text, source, variant, rules), source)


def stream_yard(text: str, source: str = "<yard>", variant: str | None = None,
                rules: dict[str, str] | None = None) -> Stream:
    """:func:`import_yard` as a stream: each code's game as its line is read (:class:`~.common.Streamed`), none
    after the first problem; the notes at the end, or :class:`~.common.ImportSourceError` with every problem."""
    problems = Problems(source)
    found = False
    for number, line in enumerate(source_lines(text), 1):
        if not line.strip() or line.lstrip().startswith("#") and "hand=" not in line:
            continue
        start = line.find("hand=") + 5 if "hand=" in line else len(line) - len(line.lstrip())
        code = _CODE.match(line, start).group()
        game, where = _hand(code, number, start, problems, variant, rules)
        if game is not None:
            found = True
            if not problems:
                yield Streamed(game, where, number)
    if not found and not problems:
        problems.add(Code.NO_GAME, gettext("no share code found (a line such as 10040P.L9)"), 1, 1)
    problems.check()
    return (gettext("no hand is in a share code: each is written with the tiles it plays, and ? for the rest"),
            gettext("a tile drawn is never shown: draws ?"),
            gettext("the match (the set's score, the hand's number in it) is not in the code: each hand is a game of "
                    "its own"))


def _header(code: str, line: int, at: int, problems: Problems) -> tuple[int, int, int, int] | None:
    """The poser, the sharer, the seats and the set's format; None (the problem said) where they are wrong."""
    def bad(k: int, message: str) -> None:
        problems.add(Code.SYNTAX, message, line, at + k + 1)

    if len(code) < 5:
        bad(len(code), gettext("the code {code} ends after {n} characters, inside its header of five (the version 1, "
                               "the seat that posed, the seat that shared it, the seats, the format)", code=repr(code),
                               n=len(code)))
        return None
    digits = [int(c) if c.isdigit() else None for c in code[:5]]
    if code[0] != "1":
        bad(0, gettext("version {version}: only version 1 of the share code is known", version=repr(code[0])))
        return None
    seats = digits[3]
    if seats is None or not 2 <= seats <= 4:
        bad(3, gettext("the seats are {seats}, not 2, 3 or 4", seats=repr(code[3])))
        return None
    for k, what in ((1, N_("the seat that posed")), (2, N_("the seat that shared the hand"))):
        if digits[k] is None or digits[k] >= seats:
            bad(k, gettext("{what} is {value}, not a seat 0 to {last}", what=gettext(what), value=repr(code[k]),
                           last=seats - 1))
            return None
    if digits[4] is None or digits[4] >= len(SET_FORMATS):
        bad(4, gettext("the set's format is {value}, not 0 to {last} ({formats})", value=repr(code[4]),
                       last=len(SET_FORMATS) - 1, formats=', '.join(SET_FORMATS)))
        return None
    return digits[1], digits[2], seats, digits[4]


def _steps(code: str, line: int, at: int, problems: Problems) -> list[tuple[str, Tile | None, int]]:
    """Each step: its letter (or arm digit), its tile, and its offset in the code."""
    steps = []
    k = 5
    while k < len(code):
        c = code[k]
        if c in "XD":
            steps.append((c, None, k))
            k += 1
            continue
        if c not in "PLR0123":
            problems.add(Code.SYNTAX, gettext("{step} is no step (X, D, P, L, R, or an arm 0 to 3 then a tile)",
                                                  step=repr(c)), line, at + k + 1)
            return steps
        if k + 1 >= len(code):
            problems.add(Code.SYNTAX, gettext("the code ends after the step {step}, before its tile", step=repr(c)),
                         line, at + k + 2)
            return steps
        index = TILE_CHARS.find(code[k + 1])
        if index < 0:
            problems.add(Code.BAD_TILE, gettext("{text} stands for no tile (0-9 and a-r: [0-0] to [6-6])",
                                                    text=repr(code[k + 1])), line,
                         at + k + 2)
            return steps
        steps.append((c, _TILES[index], k))
        k += 2
    if not steps:
        problems.add(Code.SYNTAX, gettext("the code has its header and no step"), line, at + len(code) + 1)
    return steps


def _variant(seats: int, fmt: int, draws: bool, variant: str | None, rules: dict[str, str] | None
             ) -> tuple[str, dict[str, str]]:
    """The variant the app's table plays, and its options (``variant`` and ``rules``: the user's say)."""
    chosen: dict[str, str] = {}
    if variant:
        name = variant
    elif SET_FORMATS[fmt] == "french":
        name = "french"
    elif seats == 4:
        name = "jamaican"
    else:
        name = "cutthroat"
        chosen = {"players": str(seats), **({"draw": "yes"} if draws else {})}
    chosen.update(rules or {})
    return name, chosen


def _hand(code: str, line: int, at: int, problems: Problems, variant: str | None, rules: dict[str, str] | None
          ) -> tuple[Game | None, tuple[str, ...]]:
    """One share code as a game, and the place of each move (None where the code cannot be read)."""
    before = len(problems.found)
    header = _header(code, line, at, problems)
    steps = _steps(code, line, at, problems) if header else []
    if header is None or len(problems.found) > before:
        return None, ()
    poser, sharer, seats, fmt = header
    names = tuple(f"P{s + 1}" for s in range(seats))
    draws = next((s for s in steps if s[0] == "D"), None)
    name, chosen = _variant(seats, fmt, draws is not None, variant, rules)
    try:
        size, _line = dealt_size(name, chosen, seats)
    except VariantError as exc:         # (a draw in a code of three seats: the cut-throat game of three never draws)
        where = at + draws[2] + 1 if draws is not None and variant is None else at + 1
        problems.add(Code.UNKNOWN_VARIANT, gettext("no variant plays this code: {reason}", reason=exc), line, where)
        return None, ()
    moves, places = _moves(steps, names, poser, line, at, problems)
    if len(problems.found) > before:
        return None, ()

    def too_many(k: int, player: str) -> None:
        problems.add(Code.DEAL_SIZE, gettext("{player} plays more than the {size} tiles dealt", player=player, size=size),
                     line, at + steps[k][2] + 1)
    hands = dealt_hands(names, moves, size, too_many)
    tags = {"Event": "yard-dominoes share code", "Variant": name}
    if chosen:
        tags["Rules"] = rules_text(chosen)
    tags |= {"Players": ", ".join(names), "Lead": names[poser]}
    comment = gettext("shared by {player}; the set's format: {format}", player=names[sharer], format=SET_FORMATS[fmt])
    game = Game(tags=tags, players=names, hands=hands, moves=numbered(moves, seats), comments=[comment])
    return game, places


def _moves(steps: list, names: tuple[str, ...], poser: int, line: int, at: int, problems: Problems
           ) -> tuple[list[MoveEntry], tuple[str, ...]]:
    """The steps as moves, the seat of each from the turn (a draw keeps it), the open number a tile went on
    written where it fits both ends; a play that does not fit the end it names is a problem at its place."""
    moves: list[MoveEntry] = []
    places: list[str] = []
    seat = poser
    ends: list[int] = []
    for c, tile, k in steps:
        player = names[seat]
        places.append(gettext("line {line}, column {column} (the code's character {n})", line=line, column=at + k + 1,
                              n=k + 1))
        if c == "X":
            moves.append(MoveEntry(player, None))
        elif c == "D":
            moves.append(MoveEntry(player, None, draw=True))
        elif c in "0123":
            moves.append(MoveEntry(player, tile, arm=int(c) + 1))
        elif c == "P" or not ends:
            if c != "P" or ends:
                problems.add(Code.BAD_MOVE, gettext("a hand is posed once, by its first tile") if ends else
                             gettext("the first tile is the pose (P), not {step}", step=repr(c)), line, at + k + 1)
                return moves, tuple(places)
            ends[:] = [tile.low, tile.high]
            moves.append(MoveEntry(player, tile))
        else:
            entry = _play(tile, c, ends, player)
            if entry is None:
                problems.add(Code.TILE_NO_MATCH, (gettext("{tile} does not fit the left end, which shows {number}",
                                                          tile=tile, number=ends[0]) if c == 'L' else
                                                  gettext("{tile} does not fit the right end, which shows {number}",
                                                          tile=tile, number=ends[1])), line, at + k + 1)
                return moves, tuple(places)
            moves.append(entry)
        if c != "D":
            seat = (seat + 1) % len(names)
    return moves, tuple(places)


def _play(tile: Tile, c: str, ends: list[int], player: str) -> MoveEntry | None:
    """A play on the left (``L``) or right end; ``ends`` follows the line (the pose: its low half left)."""
    side = 0 if c == "L" else 1
    if not tile.matches(ends[side]):
        return None
    other = ends[1 - side]
    end = ends[side] if tile.matches(other) and other != ends[side] else None
    ends[side] = tile.other(ends[side])
    return MoveEntry(player, tile, end)
