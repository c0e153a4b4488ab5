"""The position: the one mutable object, updated in place with exact undo (push/pop)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Iterable, Sequence

from .i18n import N_
from .tiles import PASS, Move, Tile, tile_set

__all__ = ["Position", "Outcome", "mask_of", "mask_pips", "tiles_of", "exposed_turn"]


def mask_of(tiles: Iterable[Tile]) -> int:
    m = 0
    for t in tiles:
        m |= t.bit
    return m


@cache
def number_masks(max_pip: int) -> tuple[int, ...]:
    """For each number n of the double-``max_pip`` set, the mask of every tile carrying n."""
    tiles = tile_set(max_pip)
    return tuple(mask_of(t for t in tiles if t.matches(n)) for n in range(max_pip + 1))


_PLACED: dict[tuple[int, int | None, int | None], Move] = {}


def placed(tile: Tile, end: int | None, arm: int | None = None) -> Move:
    """The move laying ``tile`` on ``end`` (``arm``: on end 1 or 2 of a line whose two ends show the
    same number; moves are values: each is made once, as a value type's constructor is slow; the
    tiles of a set and their numbers bound how many there are)."""
    key = (tile.bit, end, arm)
    move = _PLACED.get(key)
    if move is None:
        move = _PLACED[key] = Move(tile, end, arm=arm)
    return move


def tiles_of(mask: int, max_pip: int | None = None) -> list[Tile]:
    """The tiles of ``mask``, in index order. ``max_pip``: the set's (a tile's index does not depend on it;
    None: the smallest set that holds every tile of the mask)."""
    if max_pip is None:                 # a double-n set has (n + 1)(n + 2) / 2 tiles
        max_pip = 0
        while (max_pip + 1) * (max_pip + 2) // 2 < mask.bit_length():
            max_pip += 1
    tiles = tile_set(max_pip)
    out = []
    while mask:
        low = mask & -mask
        out.append(tiles[low.bit_length() - 1])
        mask ^= low
    return out


def mask_pips(mask: int) -> int:
    """The pips of the tiles of ``mask`` (``sum(t.pips for t in tiles_of(mask))``), read a byte at a time from
    a table of each byte's 256 values (a tile's bit does not depend on the set)."""
    tables = _byte_pips((mask.bit_length() + 7) >> 3)
    total = k = 0
    while mask:
        total += tables[k][mask & 255]
        mask >>= 8
        k += 1
    return total


@cache
def _byte_pips(count: int) -> tuple[tuple[int, ...], ...]:
    """For each of ``count`` bytes of a mask, the pips of the tiles of each of its 256 values."""
    max_pip = 0
    while (max_pip + 1) * (max_pip + 2) // 2 < 8 * count:
        max_pip += 1
    pips = [t.pips for t in tile_set(max_pip)]
    return tuple(tuple(sum(pips[8 * k + j] for j in range(8) if v >> j & 1) for v in range(256)) for k in range(count))


def exposed_turn(exposed: int, playable: int, tile: int) -> tuple[int, int]:
    """Domino Whist §8 on one turn: a player whose tiles that fit now are ``playable`` (a mask) plays
    ``tile`` (its bit; 0: a pass) while the tiles ``exposed`` lie open. An exposed tile "muss ... bei der
    ersten Gelegenheit, bei der er regelgerecht angelegt werden kann, gespielt werden": his exposed tiles
    that fit now are due, and after this turn they bind no longer (their chance has come), whatever he
    played; the tile played lies open no longer. Returns the due tiles he did not play (0: he played one,
    or none was due) and the exposed tiles after his turn. The one reading of the rule: the position's
    moves (:meth:`Position.due`), the judge and the repair's lean checker all ask it."""
    due = exposed & playable
    return (due if due and not tile & due else 0), exposed & ~due & ~tile


def ends_text(ends: tuple[int, int] | None) -> str:
    """Two open ends in words: ``"3 and 5"``."""
    from .i18n import gettext

    if ends is None:
        return gettext("none (nothing played yet)")
    a, b = sorted(ends)
    return gettext("{a} and {b}", a=a, b=b) if a != b else gettext("{a} and {b} (both ends {a})", a=a, b=b)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a hand ended: ``domino`` (``seat`` went out) or ``blocked`` (``seat`` played last)."""

    termination: str
    seat: int


class Position:
    """A single-line block-game position with every hand's tiles as a bit mask.

    ``hands[s]`` holds the tiles seat ``s`` is known to hold; ``hidden[s]`` counts tiles he holds
    that the record does not show (an unknown hand). ``pool`` is every tile that is neither in a
    known hand nor on the table (sleepers and the unknown hands' tiles). ``opening`` restricts the
    lead (a mask of allowed tiles, 0 for any).
    """

    __slots__ = ("max_pip", "tiles", "n", "hands", "hidden", "pool", "ends", "turn", "passes",
                 "opening", "history", "_match", "equal_side", "crosswise", "exposed", "reveal", "_exposed_log")

    # The mechanics contract. Every position answers these, so callers ask instead of testing the
    # class: a mechanic (drawing, arms, runs, pairs going out) overrides what it changes
    # (see ``analyzer.rules.mechanics`` and docs/architecture.md). The plain line has none of them.
    draws = False           # a boneyard (or sleepers) to draw from
    has_arms = False        # a layout with arms around a spinner instead of two open ends
    stock = 0               # tiles left to draw
    keep = 0                # tiles that stay in the boneyard
    bonus = -1              # the opener who may still add a matching tile to his lead (-1: none)
    stock_words = (N_("boneyard"), N_("in the boneyard"), N_("the boneyard is empty"))

    def __init__(self, hands: Sequence[Iterable[Tile] | None], turn: int = 0, *, max_pip: int = 6,
                 opening: Iterable[Tile] = (), hidden: Sequence[int] | None = None) -> None:
        self.max_pip = max_pip
        self.tiles = tile_set(max_pip)
        self.n = len(hands)
        self.hands = [mask_of(h) if h is not None else 0 for h in hands]
        self.hidden = list(hidden) if hidden is not None else [0] * self.n
        every = (1 << len(self.tiles)) - 1
        held = 0
        for h in self.hands:
            held |= h
        self.pool = every & ~held
        self.ends: tuple[int, int] | None = None
        self.turn = turn
        self.passes = 0
        self.opening = mask_of(opening)
        self.history: list[tuple] = []
        self.equal_side = 0        # Domino Whist §6 (1; 2: a double lead lies lengthwise), see equal_end
        self.crosswise = False     # All Fives: a double at an end counts both halves, see two_equal_ends
        self._match = number_masks(max_pip)
        # Domino Whist §8, exposed tiles (see ``due``): the live ones, and None (no tile is ever exposed:
        # nothing to track) or ``((moves played, tiles), ...)``: tiles that lie open once that many moves
        # are played (exposed during play); ``_exposed_log``: ``exposed`` before each move, for ``pop``
        self.exposed = 0
        self.reveal: tuple[tuple[int, int], ...] | None = None
        self._exposed_log: list[int] = []

    # -- queries ---------------------------------------------------------------------------
    def copy(self) -> Position:
        other = object.__new__(Position)
        for name in Position.__slots__:
            value = getattr(self, name)
            setattr(other, name, list(value) if isinstance(value, list) else value)
        return other

    def playable_mask(self, seat: int) -> int:
        """The tiles of ``seat``'s known hand that could be played now."""
        hand = self.hands[seat]
        if self.ends is None:
            return hand & self.opening if self.opening else hand
        a, b = self.ends
        return hand & (self._match[a] | self._match[b])

    def playable(self, seat: int) -> list[Tile]:
        return sorted(tiles_of(self.playable_mask(seat), self.max_pip))

    def fits(self, tile: Tile) -> bool:
        if self.ends is None:
            return not self.opening or bool(self.opening & tile.bit)
        return tile.matches(self.ends[0]) or tile.matches(self.ends[1])

    def placements(self, tile: Tile) -> list[Move]:
        """Every way to play ``tile`` now: two moves when it fits both ends with different numbers, or
        both ends with the same number where they play differently (:meth:`two_equal_ends`: ``>1`` and
        ``>2``)."""
        if self.ends is None:
            return [placed(tile, None)] if self.fits(tile) else []
        a, b = self.ends
        out = []
        if tile.matches(a):
            if b == a and self.two_equal_ends():
                return [placed(tile, a, 1), placed(tile, a, 2)]
            out.append(placed(tile, a))
        if b != a and tile.matches(b):
            out.append(placed(tile, b))
        return out

    def two_equal_ends(self) -> bool:
        """Whether the two ends of the line, showing the same number, are two different places to lay a
        tile. All Fives (``crosswise``, 003): "Dubletten, quer gespielt, beide Hälften zählen lassen", so when a double lies at one end and not at the other,
        a tile covering the double leaves another count, now and later, than one laid at the other end.
        Everywhere else (no count, both ends alike, a lone lead) the two are one move; Domino Whist §6
        says which end a tile goes on (``equal_side``), and that is the judge's."""
        if not self.crosswise or self.ends is None or self.ends[0] != self.ends[1]:
            return False
        line = self.line_ends()
        return len(line) > 1 and line[0][0].is_double != line[-1][0].is_double

    def canonical(self, move: Move) -> Move:
        """The move of :meth:`placements` that ``move`` is the same as (on a line, ``move`` without the end
        of the line it names, which changes where the tile lies, not the game, unless the two ends play
        differently: :meth:`two_equal_ends`)."""
        if move.arm not in (1, 2) or move.tile is None:
            return move          # (an arm 0 is the sentinel "no extra tile" of the analysis)
        if self.two_equal_ends() and move.open is None and not move.draw:
            return placed(move.tile, move.end if move.end is not None else self.ends[0], move.arm)
        return Move(move.tile, move.end, move.draw, None, move.open)

    def equal_end(self, seat: int) -> int:
        """The end of the line a tile of ``seat`` goes on when both ends show the same number: 1, the end
        the lead's lower half faces, or 2. Plain: 1. Domino Whist §6 (``equal_side``): "Zeigen beide
        Enden der Kette die gleiche Augenzahl, so muss ein Spieler an dem Ende anlegen, das ihm näher bzw.
        zu seiner Rechten liegt". The lead points its higher half to the leader's partner and a double
        lies across (§5), so the line runs from the leader (end 1) to his partner (end 2); play goes
        clockwise, so the player after the leader has end 1 on his right, the fourth end 2. With
        ``equal_side`` 2 a double lead lies lengthwise, its ends toward the opponents: end 1 toward the
        player after the leader; the leader and his partner take the end on their right."""
        if not self.equal_side:
            return 1
        lead = next((h for h in self.history if h[0].tile is not None), None)
        if lead is None:
            return 1
        rel = (seat - lead[1]) % self.n
        if self.equal_side == 2 and lead[0].tile.is_double:
            return 2 if rel in (0, 3) else 1
        return 1 if rel < 2 else 2

    def _first_of_equal(self, move: Move, seat: int) -> bool:
        """Whether ``move`` by ``seat`` goes on the first of two ends that show the same number: the end
        the record names (``>1``, ``>2``), else :meth:`equal_end`."""
        return (move.arm if move.arm in (1, 2) else self.equal_end(seat)) == 1

    def plays(self) -> list[Move]:
        """Every tile the mover could lay now, once per way of laying it."""
        moves = []
        for tile in tiles_of(self.playable_mask(self.turn), self.max_pip):
            moves.extend(self.placements(tile))
        return moves

    def legal_moves(self) -> list[Move]:
        """The mover's plays, or ``[PASS]`` when he has none, or ``[]`` once the hand is over. Holding a
        live exposed tile that fits (:meth:`due`), he may play only such tiles."""
        if self.outcome() is not None:
            return []
        if self.exposed:
            due = self.due(self.turn)
            if due:
                return [m for tile in tiles_of(due, self.max_pip) for m in self.placements(tile)]
        return self.plays() or [PASS]

    def due(self, seat: int) -> int:
        """The live exposed tiles of ``seat`` that fit now. Domino Whist §8: an exposed tile "muss ...
        offen auf dem Tisch liegen bleiben und bei der ersten Gelegenheit, bei der er regelgerecht
        angelegt werden kann, gespielt werden": the first turn of its holder at which it fits is its
        chance, and after that turn it binds no longer, whatever he played."""
        return self.exposed & self.playable_mask(seat)

    def expose(self, tiles: int) -> None:
        """Lay ``tiles`` (a mask) open from now on (exposed during play); ``pop`` of an earlier move
        takes that back too."""
        self.exposed |= tiles

    def drawn(self, seat: int) -> int:
        """How many tiles ``seat`` has drawn in his current turn (none without a boneyard)."""
        return 0

    def drawable(self) -> int:
        """How many tiles may be drawn now."""
        return 0

    def can_draw(self, seat: int) -> bool:
        """Whether ``seat``, unable to play, may draw now."""
        return False

    def may_add(self, seat: int) -> bool:
        """Whether ``seat`` is the opener who may still add a matching tile to his lead."""
        return False

    def filling(self) -> bool:
        """Whether the layout still has a side of its spinner to fill (only layouts with arms do)."""
        return False

    def ends_text(self) -> str:
        """The open ends in words: ``"3 and 5"``, or every arm of a layout with arms."""
        return ends_text(self.ends)

    def numbers_open(self) -> tuple[int, ...]:
        if self.ends is None:
            return ()
        return tuple(sorted(set(self.ends)))

    def pips(self, seat: int) -> int:
        return mask_pips(self.hands[seat])

    def count(self, seat: int) -> int:
        return self.hands[seat].bit_count() + self.hidden[seat]

    def can_anyone_play(self) -> bool:
        if self.ends is None:
            return True
        a, b = self.ends
        fit = self._match[a] | self._match[b]
        for h in self.hands:
            if h & fit:
                return True
        return any(self.hidden) and bool(self.pool & fit)

    def outcome(self) -> Outcome | None:
        """The end of the hand, once a player is out or nobody can play."""
        if not self.history:
            return None
        last = self.history[-1][1]
        if self.count(last) == 0 and self.history[-1][0].tile is not None:
            return Outcome("domino", last)
        if self.passes >= self.n or not self.can_anyone_play():
            return self.blocked()
        return None

    def blocked(self) -> Outcome:
        """The blocked end of the hand, credited to the last player who laid a tile."""
        for move, seat, *_ in reversed(self.history):
            if move.tile is not None:
                return Outcome("blocked", seat)
        return Outcome("blocked", self.history[-1][1])

    def key(self) -> tuple:
        """A hashable key for the whole state (the transposition-table key)."""
        ends = None if self.ends is None else (min(self.ends), max(self.ends))
        if self.exposed:            # Domino Whist §8: the live exposed tiles
            return (tuple(self.hands), ends, self.turn, self.passes, self.exposed)
        return (tuple(self.hands), ends, self.turn, self.passes)

    # -- updates ---------------------------------------------------------------------------
    def push(self, move: Move) -> None:
        """Play ``move`` for the player to move. The move must be legal (see ``legal_moves``)."""
        seat = self.turn
        if self.reveal is not None:
            self._expose_after(seat, move)
        if move.tile is None:
            self.history.append((move, seat, self.ends, self.passes, None))
            self.passes += 1
        else:
            tile = move.tile
            hidden_used = self._take(seat, tile)
            self.history.append((move, seat, self.ends, self.passes, hidden_used))
            if self.ends is None:
                self.ends = (tile.low, tile.high)
            else:
                a, b = self.ends
                if move.open is not None:           # a false play that stands (Domino Whist §8)
                    self.ends = (move.open, b) if move.end == a else (a, move.open)
                elif (move.end == a or (move.end is None and tile.matches(a))) and (
                        a != b or self._first_of_equal(move, seat)):
                    self.ends = (tile.other(a), b)
                else:
                    self.ends = (a, tile.other(b))
            self.passes = 0
        self.turn = (seat + 1) % self.n

    def _expose_after(self, seat: int, move: Move) -> None:
        """Before ``seat`` makes ``move``: the exposed tiles after it. His tiles that fit now have had
        their chance (:meth:`due`), the tile played lies open no longer, and tiles exposed once this
        move is played (``reveal``) lie open from then on."""
        old = self.exposed
        self._exposed_log.append(old)
        _, now = exposed_turn(old, self.playable_mask(seat), move.tile.bit if move.tile is not None else 0)
        count = len(self.history) + 1
        for at, tiles in self.reveal:
            if at == count:
                now |= tiles
        self.exposed = now

    def _take(self, seat: int, tile: Tile) -> bool:
        """Take ``tile`` out of ``seat``'s hand; True when it came from his unknown tiles."""
        bit = tile.bit
        if self.hands[seat] & bit:
            self.hands[seat] &= ~bit
            return False
        self.pool &= ~bit          # a tile from an unknown hand
        self.hidden[seat] -= 1
        return True

    def _give(self, seat: int, tile: Tile, hidden_used: bool) -> None:
        """Put ``tile`` back where ``_take`` took it from."""
        if hidden_used:
            self.pool |= tile.bit
            self.hidden[seat] += 1
        else:
            self.hands[seat] |= tile.bit

    def pop(self) -> Move:
        """Undo the last move and return it."""
        move, seat, ends, passes, hidden_used = self.history.pop()
        if self.reveal is not None:
            self.exposed = self._exposed_log.pop()
        if move.tile is not None:
            self._give(seat, move.tile, hidden_used)
        self.ends = ends
        self.passes = passes
        self.turn = seat
        return move

    def line(self) -> list[tuple[Tile, bool]]:
        """The line of play left to right: each tile and whether it is shown reversed (high half first)."""
        from collections import deque

        row: deque[tuple[Tile, bool]] = deque()
        for move, seat, ends, _p, _h in self.history:
            tile = move.tile
            if tile is None:
                continue
            if ends is None:
                row.append((tile, False))
                continue
            left, shown = self._attached(move, seat, ends)
            if left:
                row.appendleft((tile, shown))
            else:
                row.append((tile, shown))
        return list(row)

    def line_ends(self) -> list[tuple[Tile | None, bool]]:
        """The first and the last entry of :meth:`line` (one entry while one tile lies, none before the lead),
        found from the last moves back: what the count of the open ends reads (``PlayScoring.ends_total``),
        without laying out the whole line at every play. On a table a set-up knows by its ends alone (no tile
        of it named), an end no move has covered since is ``(None, False)``: its tile is not known."""
        left = right = None
        tiles = 0
        for move, seat, ends, _p, _h in reversed(self.history):
            tile = move.tile
            if tile is None:
                continue
            tiles += 1
            if ends is None:            # the lead: what no later tile covers, at either end
                left, right = left or (tile, False), right or (tile, False)
                return [left] if tiles == 1 else [left, right]
            on_left, shown = self._attached(move, seat, ends)
            if on_left and left is None:
                left = (tile, shown)
            elif not on_left and right is None:
                right = (tile, shown)
            if left is not None and right is not None:
                return [left, right]
        if left is None and right is None:
            return []
        return [left or (None, False), right or (None, False)]      # (a set-up's table known by its ends)

    def _attached(self, move: Move, seat: int, ends: tuple[int, int]) -> tuple[bool, bool]:
        """Where a tile laid by ``seat`` with ``move`` on a line whose ends were ``ends`` went: on the left
        (else the right), and whether it is shown reversed (high half first)."""
        tile = move.tile
        a, b = ends
        if move.open is not None and move.end == a:     # a false play: its open half faces outward
            return True, move.open == tile.high and not tile.is_double
        if move.open is not None:
            return False, move.open == tile.low and not tile.is_double
        if (move.end == a or (move.end is None and tile.matches(a))) and (a != b or self._first_of_equal(move, seat)):
            return True, tile.low == a and not tile.is_double      # on the left: its matching half faces right
        return False, tile.high == b and not tile.is_double

    def __repr__(self) -> str:
        hands = ", ".join(" ".join(map(str, tiles_of(h, self.max_pip))) or "-" for h in self.hands)
        return f"<Position ends={self.ends} turn={self.turn} hands=[{hands}]>"
