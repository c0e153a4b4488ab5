"""Tiles and moves: the frozen value types everything else is built from."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

__all__ = ["Tile", "Move", "PASS", "DRAW", "DOUBLES", "tile_set", "tile_index", "pips_of"]

#: The largest half a tile may have: two digits, as a record writes a tile (a larger half is no tile
#: at all, while [0-25] is a tile of no set this game uses). A tile's bit is ``1 << index``, so an
#: unbounded half would cost memory without end.
MAX_HALF = 99
_TILE_RE = re.compile(r"^\[?\s*(\d+)\s*[-|:]\s*(\d+)\s*\]?$")
_MOVE_RE = re.compile(r"(\[?\d+\s*[-|]\s*\d+\]?)(?:@(\d+))?(?:=(\d+))?(?:>(\d+))?")


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """A domino tile, stored with its lower half first: ``Tile(3, 6)`` is ``[3-6]``."""

    low: int
    high: int
    bit: int = field(init=False, repr=False, compare=False)   # 1 << index: the tile in a bit mask

    def __post_init__(self) -> None:
        if not (0 <= self.low <= self.high <= MAX_HALF):
            if self.high > MAX_HALF and self.low >= 0:
                raise ValueError(f"no domino set has a tile [{self.low}-{self.high}] (its halves go up to {MAX_HALF})")
            raise ValueError(f"a tile is written low half first, got ({self.low}, {self.high})")
        object.__setattr__(self, "bit", 1 << (self.high * (self.high + 1) // 2 + self.low))

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """Make the tile with halves ``a`` and ``b`` in either order."""
        return cls(a, b) if a <= b else cls(b, a)

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``[3-6]``, ``6-3`` or ``[6|3]``."""
        m = _TILE_RE.match(text.strip())
        if not m:
            raise ValueError(f"not a tile: {text!r}")
        return cls.of(int(m.group(1)), int(m.group(2)))

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def index(self) -> int:
        """Position of the tile in its set, the same for every set size."""
        return self.high * (self.high + 1) // 2 + self.low

    def matches(self, number: int) -> bool:
        return self.low == number or self.high == number

    def other(self, number: int) -> int:
        """The half left open when the tile is attached to ``number``."""
        if self.low == number:
            return self.high
        if self.high == number:
            return self.low
        raise ValueError(f"{self} has no {number}")

    def __str__(self) -> str:
        return f"[{self.low}-{self.high}]"

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"


@dataclass(frozen=True, slots=True)
class Move:
    """A play of ``tile`` attached to the open number ``end`` (None for the lead), or a pass.

    ``draw``: a tile taken from the boneyard (``tile`` None: a tile the record does not show).
    ``arm``: the arm of a layout with more than two open ends the tile goes on (1 to 4; None on a
    plain two-ended line), see :mod:`analyzer.rules.layout`. ``open``: a false play that stands
    (Domino Whist §8): ``tile`` lies on the end ``end`` although it has no such number, leaving
    ``open`` (one of its halves) open there; written ``[2-3]@6=3``."""

    tile: Tile | None = None
    end: int | None = None
    draw: bool = False
    arm: int | None = None
    open: int | None = None

    @property
    def is_pass(self) -> bool:
        return self.tile is None and not self.draw

    @property
    def is_play(self) -> bool:
        return self.tile is not None and not self.draw

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move as ``str`` writes it: ``[3-6]``, ``[3-6]@6``, ``[3-6]@6>2``, ``pass``,
        ``draws [2-5]`` or ``draws ?``. ``Move.parse(str(m)) == m`` for every move."""
        words = text.strip()
        if words == "pass":
            return cls()
        if words.startswith("draws"):
            rest = words[len("draws"):].strip()
            return cls(None if rest in ("", "?") else Tile.parse(rest), None, True)
        m = _MOVE_RE.fullmatch(words)
        if not m:
            raise ValueError(f"not a move: {text!r} (a tile such as [3-6]@6>2, pass, or draws [2-5])")
        tile = Tile.parse(m.group(1))
        end = int(m.group(2)) if m.group(2) is not None else None
        opened = int(m.group(3)) if m.group(3) is not None else None
        arm = int(m.group(4)) if m.group(4) is not None else None
        if opened is not None and (end is None or not tile.matches(opened)):
            raise ValueError(f"not a move: {text!r} (a false play names the end it lay on and one of its halves)")
        if end is not None and not tile.matches(end) and opened is None:
            raise ValueError(f"not a move: {text!r} ({tile} has no {end} to attach)")
        return cls(tile, end, False, arm, opened)

    def __str__(self) -> str:
        if self.draw:
            return f"draws {self.tile if self.tile is not None else '?'}"
        if self.tile is None:
            return "pass"
        text = str(self.tile) if self.end is None else f"{self.tile}@{self.end}"
        if self.open is not None:
            text += f"={self.open}"
        return text if self.arm is None else f"{text}>{self.arm}"


PASS = Move()
DRAW = Move(draw=True)       # draw a tile (which one is chance)
DOUBLES = sum(Tile(n, n).bit for n in range(13))       # every double up to double-twelve, as a mask


@cache
def tile_set(max_pip: int = 6) -> tuple[Tile, ...]:
    """Every tile of the double-``max_pip`` set, ordered by index."""
    tiles = [Tile(low, high) for high in range(max_pip + 1) for low in range(high + 1)]
    assert all(t.index == i for i, t in enumerate(tiles))
    return tuple(tiles)


def tile_index(a: int, b: int) -> int:
    return Tile.of(a, b).index


def pips_of(tiles) -> int:
    return sum(t.pips for t in tiles)
