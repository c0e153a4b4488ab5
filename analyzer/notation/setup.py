"""The set-up form: a game that starts from a position instead of the deal (PGN's ``SetUp``/``FEN``).

A set-up game is a game whose header carries ``[SetUp "1"]``. Its hands are the hands *at the
position* (known tiles, unknown ones as ``?``, as in a deal), and its tags say the rest::

    [SetUp "1"]
    [Line "[3-5] [5-5] [5-6]"]        the tiles on the table, from one open end to the other
    [Arms "[6-6]; [3-6] [1-3]; [2-6]"] a layout with arms: the spinner, then each arm outward (French, cross)
    [Ends "3 6"]                      the two open ends (with Line: optional, must agree)
    [Counts "5:4 6:3"]                the table known only by counts: 4 tiles with a 5, 3 with a 6
    [OnTable "9"]                     how many tiles lie on the table (with Line: optional)
    [Boneyard "7"]                    the tiles left to draw, or the sleepers of a block game
    [ToMove "B"]                      who moves
    [Lacks "C 2 5, D 3"]              the numbers the passes proved a player lacks
    [Points "A/C 10, B/D 5"]          the points already scored in this hand (All Fives)
    [MatchScore "A/C 40, B/D 25"]     the match score before this hand

The moves that follow are validated from the position. This module reads the tags into a
:class:`SetUp` (what they say, as written) and reports a tag it cannot read at its line and column;
whether the position can happen under the game's rules is the replay's question
(:mod:`analyzer.replay.setup`). :func:`setup_tags` writes a :class:`SetUp` back as tags."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Sequence

from ..diagnostics import Diagnostic
from ..record import MAX_DIGITS, Game, HandEntry, Span
from ..rules.codes import Code
from ..tiles import Tile

__all__ = ["SetUp", "SETUP_TAGS", "is_setup", "read_setup", "setup_tags", "value_place", "position_hand",
           "setup_record"]

#: The tags of the set-up form, in the order the writer puts them.
SETUP_TAGS = ("SetUp", "Line", "Arms", "Ends", "Counts", "OnTable", "Boneyard", "ToMove", "Drawn", "Lacks", "Points",
              "Pending", "MatchScore")

_TILE = re.compile(r"\[\s*(\d{1,2})\s*[-|:]\s*(\d{1,2})\s*\]")
_NUMBER = re.compile(r"\d+")
_COUNT = re.compile(r"(\d{1,2})\s*[:x]\s*(\d{1,2})")
_NAME, _PIPS, _POINTS = re.compile(r"[^\W\d]\w*"), re.compile(r"\d{1,2}"), re.compile(r"\d+")


def _items(text: str):
    """``(offset, item)`` of each comma-separated item of ``text``; a comma that ends it ends the last item."""
    start = 0
    for item in text.split(","):
        if item or start < len(text):
            yield start, item
        start += len(item) + 1


@dataclass(frozen=True)
class SetUp:
    """What a set-up game's tags say, as written (see the module's docstring).

    ``line``: the tiles on the table in order from one open end to the other (None: not listed);
    ``ends``: the open ends (from ``line``, else from ``Ends``; None: the table is empty);
    ``counts``: ``(number, tiles on the table that carry it)`` when the table is known by counts;
    ``on_table``: how many tiles lie on the table (from ``line`` when it is listed);
    ``boneyard``: the tiles nobody holds (the boneyard of a draw game, the sleepers of a block game;
    None: what the set leaves); ``to_move``: the player to move (None: the first hand's);
    ``lacks``: ``(player, numbers)`` his passes proved he lacks; ``points``: ``(side, points)``
    scored in the hand so far; ``match_score``: the Score tag's text before the hand."""

    line: tuple[Tile, ...] | None = None
    ends: tuple[int, int] | None = None
    counts: tuple[tuple[int, int], ...] = ()
    on_table: int | None = None
    boneyard: int | None = None
    to_move: str | None = None
    lacks: tuple[tuple[str, tuple[int, ...]], ...] = ()
    points: tuple[tuple[str, int], ...] = ()
    match_score: str | None = None
    spinner: Tile | None = None                   # a layout with arms: the lead double
    arms: tuple[tuple[Tile, ...], ...] = ()       # ... and each arm's tiles outward, arm 1 first
    drawn: int = 0                                # the player to move has drawn so many tiles in this turn
    pending: tuple[str, int] | None = None        # (player, points) his last play left unclaimed: a Muggins call due

    @property
    def table_count(self) -> int | None:
        """How many tiles lie on the table: the line's, the arms', else the ``OnTable`` tag's."""
        if self.spinner is not None:
            return 1 + sum(map(len, self.arms))
        return len(self.line) if self.line is not None else self.on_table


def is_setup(game: Game) -> bool:
    """Whether ``game`` starts from a position (``[SetUp "1"]``)."""
    return game.tags.get("SetUp", "").strip() == "1"


def value_place(game: Game, name: str, offset: int = 0) -> Span:
    """Where the ``offset``-th character of tag ``name``'s value stands (the tag written on one line,
    ``[Name "value"]``, as the writer writes it)."""
    at = game.tag_pos.get(name, game.pos)
    if not at.line:
        return at
    return Span(at.line, at.column + len(name) + 3 + offset)


class _Problems:
    def __init__(self, game: Game, source: str):
        self.game, self.source, self.found = game, source, []

    def __call__(self, name: str, offset: int, message: str) -> None:
        at = value_place(self.game, name, offset)
        self.found.append(Diagnostic("error", Code.BAD_SETUP, message, at.line or None, at.column or None,
                                     self.source, {"tag": name}))


def read_setup(game: Game, source: str = "<record>") -> tuple[SetUp | None, list[Diagnostic]]:
    """The set-up of ``game`` (None: it starts from the deal) and every tag of it that cannot be read
    (``bad-setup``, at the place in the tag's value). A set-up tag in a game without ``[SetUp "1"]``
    is an error too: the game would be read as dealt."""
    tags = game.tags
    problems = _Problems(game, source)
    if not is_setup(game):
        if "SetUp" in tags:
            problems("SetUp", 0, f"cannot read [SetUp \"{tags['SetUp']}\"]: write [SetUp \"1\"] for a game that "
                                 "starts from a position, or leave the tag out")
        for name in SETUP_TAGS[1:]:
            if name in tags:
                problems(name, 0, f"the {name} tag belongs to a game that starts from a position: add [SetUp \"1\"]")
        return None, problems.found
    line = _tiles(tags["Line"], "Line", problems) if "Line" in tags else None
    ends = _ends(tags.get("Ends"), problems)
    if line is not None:
        from_line = line_ends(line)
        if from_line is None:
            problems("Line", 0, "the tiles of the Line tag do not join into a line: each tile must match the one "
                                "before it")
        elif ends is not None and sorted(ends) != sorted(from_line):
            problems("Ends", 0, f"the Ends tag says {ends[0]} and {ends[1]}, but the Line tag's tiles leave "
                                f"{from_line[0]} and {from_line[1]} open")
        ends = from_line if from_line is not None else ends
    spinner, arms = _arms(tags.get("Arms"), problems)
    if spinner is not None and (line is not None or "Ends" in tags):
        problems("Arms", 0, "a layout is given by its Arms or by its Line and Ends, not both")
    counts = _counts(tags.get("Counts"), problems)
    on_table = _number(tags.get("OnTable"), "OnTable", problems)
    if line is not None and on_table is not None and on_table != len(line):
        problems("OnTable", 0, f"the OnTable tag says {on_table} tiles, but the Line tag lists {len(line)}")
    boneyard = _number(tags.get("Boneyard"), "Boneyard", problems)
    to_move = tags.get("ToMove", "").strip() or None
    drawn = _number(tags.get("Drawn"), "Drawn", problems) or 0
    pending = None
    if "Pending" in tags:
        pending = _points(tags["Pending"], problems, "Pending")
        if len(pending) > 1:
            problems("Pending", 0, "the Pending tag names one play's points: \"B 10\"")
        pending = pending[0] if pending else None
    return SetUp(line, ends, counts, on_table, boneyard, to_move, _lacks(tags.get("Lacks"), problems),
                 _points(tags.get("Points"), problems), tags.get("MatchScore", "").strip() or None, spinner,
                 arms, drawn, pending), problems.found


def line_ends(line: tuple[Tile, ...]) -> tuple[int, int] | None:
    """The open ends of tiles laid in this order from one end to the other; None when a tile does not
    match the one before it (or the line is empty)."""
    if not line:
        return None
    if len(line) == 1:
        return line[0].low, line[0].high
    first, second = line[0], line[1]
    if first.is_double or second.matches(first.low):
        left, open_ = first.high, first.low       # (distinct tiles share both numbers only past a double)
    elif second.matches(first.high):
        left, open_ = first.low, first.high
    else:
        return None
    for tile in line[1:]:
        if not tile.matches(open_):
            return None
        open_ = tile.high if tile.low == open_ else tile.low
    return left, open_


def _tiles(text: str, name: str, problems: _Problems) -> tuple[Tile, ...] | None:
    out = []
    at = 0
    for m in _TILE.finditer(text):
        if text[at:m.start()].strip():
            problems(name, at + len(text[at:m.start()]) - len(text[at:m.start()].lstrip()),
                     f"cannot read {text[at:m.start()].strip()!r} in the {name} tag: write tiles as [3-5]")
            return None
        out.append(Tile.of(int(m.group(1)), int(m.group(2))))
        at = m.end()
    if text[at:].strip():
        problems(name, at, f"cannot read {text[at:].strip()!r} in the {name} tag: write tiles as [3-5]")
        return None
    seen = set()
    for k, tile in enumerate(out):
        if tile in seen:
            problems(name, 0, f"{tile} stands twice in the {name} tag")
            return None
        seen.add(tile)
    return tuple(out)


def _arms(text: str | None, problems: _Problems) -> tuple[Tile | None, tuple[tuple[Tile, ...], ...]]:
    """The Arms tag: the spinner, then each arm's tiles outward, separated by ``;``."""
    if text is None:
        return None, ()
    parts = text.split(";")
    first = _tiles(parts[0], "Arms", problems)
    arms = [_tiles(part, "Arms", problems) for part in parts[1:]]
    if first is None or len(first) != 1 or any(arm is None for arm in arms):
        if first is not None and len(first) != 1:
            problems("Arms", 0, "the Arms tag starts with the one tile the arms start from (the spinner), then ';'")
        return None, ()
    every = [t for arm in arms for t in arm] + list(first)
    if len(set(every)) != len(every):
        problems("Arms", 0, "a tile stands twice in the Arms tag")
        return None, ()
    return first[0], tuple(arms)


def _ends(text: str | None, problems: _Problems) -> tuple[int, int] | None:
    if text is None:
        return None
    parts = text.split()
    if len(parts) != 2 or not all(p.isdecimal() and len(p) <= 2 for p in parts):
        problems("Ends", 0, f"cannot read the Ends tag {text!r}: write the two open numbers, \"3 6\"")
        return None
    return int(parts[0]), int(parts[1])


def _number(text: str | None, name: str, problems: _Problems) -> int | None:
    if text is None:
        return None
    if not text.strip().isdecimal() or len(text.strip()) > MAX_DIGITS:
        problems(name, 0, f"cannot read the {name} tag {text!r}: write a number of tiles, \"7\"")
        return None
    return int(text)


def _counts(text: str | None, problems: _Problems) -> tuple[tuple[int, int], ...]:
    if text is None:
        return ()
    out = []
    at = 0
    for m in _COUNT.finditer(text):
        if text[at:m.start()].strip(" ,"):
            break
        number, count = int(m.group(1)), int(m.group(2))
        if any(n == number for n, _ in out):
            problems("Counts", m.start(), f"the number {number} is counted twice in the Counts tag")
            return ()
        out.append((number, count))
        at = m.end()
    if text[at:].strip(" ,") or not out:
        problems("Counts", at, f"cannot read the Counts tag {text!r}: write each number and how many tiles on "
                               "the table carry it, \"5:4 6:3\"")
        return ()
    return tuple(out)


def _lacks(text: str | None, problems: _Problems) -> tuple[tuple[str, tuple[int, ...]], ...]:
    if text is None:
        return ()
    out = []
    at = 0
    for start, item in _items(text):        # (each item read once: a long tag is read in linear time)
        words = item.split()
        if not (len(words) > 1 and _NAME.fullmatch(words[0]) and all(_PIPS.fullmatch(w) for w in words[1:])):
            break
        out.append((words[0], tuple(sorted({int(x) for x in words[1:]}))))
        at = start + len(item) + (start + len(item) < len(text))
    if at != len(text) or not out:
        problems("Lacks", at, f"cannot read the Lacks tag {text!r}: write each player and the numbers he lacks, "
                              "\"C 2 5, D 3\"")
        return ()
    return tuple(out)


def _points(text: str | None, problems: _Problems, name: str = "Points") -> tuple[tuple[str, int], ...]:
    if text is None:
        return ()
    out = []
    at = 0
    for start, item in _items(text):
        words = item.split()
        points = words[-1] if len(words) > 1 else ""
        side = item.strip()[:-len(points)].rstrip() if points else ""
        if not side or not _POINTS.fullmatch(points) or len(points) > MAX_DIGITS:
            break
        out.append((side, int(points)))
        at = start + len(item) + (start + len(item) < len(text))
    if at != len(text) or not out:
        problems(name, at, f"cannot read the {name} tag {text!r}: write each side and its points, \"A/C 10, B/D 5\""
                 if name == "Points" else f"cannot read the {name} tag {text!r}: write the player and the points "
                 "his play left unclaimed, \"B 10\"")
        return ()
    return tuple(out)


def setup_tags(setup: SetUp) -> dict[str, str]:
    """The tags that say ``setup`` (in :data:`SETUP_TAGS` order; what it leaves open is left out):
    read back by :func:`read_setup`, they give ``setup`` again."""
    out = {"SetUp": "1"}
    if setup.spinner is not None:
        out["Arms"] = "; ".join([str(setup.spinner)] + [" ".join(map(str, arm)) for arm in setup.arms])
    elif setup.line is not None:
        out["Line"] = " ".join(map(str, setup.line))
    elif setup.ends is not None:
        out["Ends"] = f"{setup.ends[0]} {setup.ends[1]}"
    if setup.counts:
        out["Counts"] = " ".join(f"{n}:{c}" for n, c in setup.counts)
    if setup.line is None and setup.on_table is not None:
        out["OnTable"] = str(setup.on_table)
    if setup.boneyard is not None:
        out["Boneyard"] = str(setup.boneyard)
    if setup.to_move is not None:
        out["ToMove"] = setup.to_move
    if setup.drawn:
        out["Drawn"] = str(setup.drawn)
    if setup.lacks:
        out["Lacks"] = ", ".join(f"{player} " + " ".join(map(str, numbers)) for player, numbers in setup.lacks)
    if setup.points:
        out["Points"] = ", ".join(f"{side} {points}" for side, points in setup.points)
    if setup.pending is not None:
        out["Pending"] = f"{setup.pending[0]} {setup.pending[1]}"
    if setup.match_score is not None:
        out["MatchScore"] = setup.match_score
    return out


def position_hand(player: str, tiles: Sequence[Tile], unknown: int) -> HandEntry:
    """``player``'s hand at a set-up's position: ``tiles`` shown and ``unknown`` more that nobody sees, as
    the reader reads it back (a ``?`` alone is one tile not shown, not a hand not known)."""
    shown = tuple(tiles)
    if not shown and unknown == 1:
        return HandEntry(player, None, unknown=0)
    return HandEntry(player, shown, unknown=unknown)


def setup_record(setup: SetUp, hands: Sequence[HandEntry], tags: Mapping[str, str] | None = None,
                 problem: str | None = None) -> Game:
    """A game that starts from ``setup`` with ``hands`` (:func:`position_hand`): ``tags`` first (Event,
    Variant, Players...; a Result among them is made ``*`` where it stands), then the set-up's
    (:func:`setup_tags`), the ``Problem`` tag naming the question (None: none) and ``[Result "*"]`` where
    the tags have none (the game stops at the position: the analyses value its decision).
    The notation's writer writes it; the reader gives it back."""
    out = {name: value for name, value in (tags or {}).items() if name not in SETUP_TAGS + ("Problem",)}
    if "Result" in out:
        out["Result"] = "*"           # (where the tags put it)
    out.update(setup_tags(setup))
    if problem:
        out["Problem"] = problem
    out.setdefault("Result", "*")
    players = tuple(hand.player for hand in hands)
    return Game(tags=out, players=players, hands=tuple(hands))
