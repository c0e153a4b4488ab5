"""Layouts with more than two open ends: French domino (002) and cross domino (003).

The lead double is a *spinner*: each of its four sides starts an **arm**. Arms are numbered 1 to 4
in the order their first tile is laid (the sides of the spinner are alike, so they are filled in
order). An arm has an open number and a state:

* ``start``: an empty side of the spinner; it takes a tile with the spinner's number.
* ``closed``: it has its first tile but may not be played on until every side of the spinner has
  one (002: "Zunächst müssen vier Steine mit einer Null an die vier Seiten von [0-0] gespielt
  werden, bevor irgendwelche andere Steine gespielt werden dürfen"; 003: "muss an allen vier Seiten
  je einen Dominostein haben, bevor das Spiel auf die übliche Weise fortgesetzt werden kann").
* ``double``: French only: its next tile must be the double of its number ("Der nächste Stein, der
  an einen der vier Arme gespielt wird, muss der entsprechende Doppelstein sein").
* ``open``: played on as an end of a line.

While a side of the spinner is empty, only the next empty side may be played on. A lead that is no
double (only in a record that breaks the opening rule) starts two open arms, a plain line.

:class:`ArmPosition` keeps the :class:`~analyzer.position.Position` contract (``push``/``pop``/
``legal_moves``/``outcome``/``key``); ``ends`` holds every arm's open number in arm order and a
:class:`~analyzer.tiles.Move` names its arm (``Move.arm``)."""
from __future__ import annotations

from typing import NamedTuple

from ..position import Position, tiles_of
from ..tiles import Move, Tile
from .turns import _copy

__all__ = ["Arm", "ArmPosition", "Chain", "START", "CLOSED", "DOUBLE", "OPEN", "arms_text"]

START, CLOSED, DOUBLE, OPEN = "start", "closed", "double", "open"


class Arm(NamedTuple):
    """One arm of the layout: its open number and its state (``start``/``closed``/``double``/``open``)."""

    number: int
    state: str

    def accepts(self, tile: Tile) -> bool:
        """Whether ``tile`` could go on this arm if the arm were playable now."""
        if self.state == DOUBLE:
            return tile.is_double and tile.low == self.number
        return tile.matches(self.number)

    def describe(self, k: int) -> str:
        if self.state == START:
            return f"arm {k}: empty (takes a {self.number})"
        if self.state == CLOSED:
            return f"arm {k}: {self.number}, closed"
        if self.state == DOUBLE:
            return f"arm {k}: {self.number}, needs [{self.number}-{self.number}]"
        return f"arm {k}: {self.number}"


class Chain(NamedTuple):
    """The tiles laid on one arm, outward from where it starts, each as ``(near, far)`` halves (the
    near half touches the tile before it). ``origin``: ``None`` for an arm that starts at the lead
    tile, else ``(arm, index)``: the double in ``chains()[arm - 1].tiles[index]`` it branches from."""

    arm: int
    origin: tuple[int, int] | None
    tiles: tuple[tuple[int, int], ...]


def arms_text(arms: tuple[Arm, ...]) -> str:
    """``"arm 1: 3, arm 2: 5, needs [5-5], arm 3: empty (takes a 0), ..."``."""
    return "; ".join(a.describe(k) for k, a in enumerate(arms, 1)) or "none (nothing played yet)"


class ArmPosition(Position):
    """A position whose layout has arms (see the module). ``layout``: ``french`` (once the spinner's
    four sides are filled, each arm must take its double next) or ``cross`` (the arms open)."""

    __slots__ = ("layout", "arms", "_log", "_where")

    def setup(self, layout: str) -> ArmPosition:
        self.layout = layout
        self.arms: tuple[Arm, ...] = ()
        self._log: list[tuple[Arm, ...]] = []
        self._where: list[int | None] = []       # per push: the arm the tile went on (0: the lead)
        return self

    def copy(self) -> ArmPosition:
        return _copy(self, ArmPosition.__slots__)

    # -- queries ---------------------------------------------------------------------------
    def playable_arms(self) -> list[int]:
        """The arms (1-based) a tile may go on now: the next empty side of the spinner while one is
        empty, else every arm that is not closed."""
        for k, a in enumerate(self.arms, 1):
            if a.state == START:
                return [k]
        return [k for k, a in enumerate(self.arms, 1) if a.state in (DOUBLE, OPEN)]

    def _fit(self) -> int:
        """Every tile that could be played now, as a mask."""
        fit = 0
        for k in self.playable_arms():
            a = self.arms[k - 1]
            fit |= Tile(a.number, a.number).bit if a.state == DOUBLE else self._match[a.number]
        return fit

    def playable_mask(self, seat: int) -> int:
        if self.ends is None:
            return Position.playable_mask(self, seat)
        return self.hands[seat] & self._fit()

    def fits(self, tile: Tile) -> bool:
        if self.ends is None:
            return Position.fits(self, tile)
        return bool(self._fit() & tile.bit)

    def placements(self, tile: Tile) -> list[Move]:
        """Every way to play ``tile`` now; arms alike (same number and state) give one move."""
        if self.ends is None:
            return Position.placements(self, tile)
        out, seen = [], set()
        for k in self.playable_arms():
            a = self.arms[k - 1]
            if a.accepts(tile) and a not in seen:
                seen.add(a)
                out.append(Move(tile, a.number, arm=k))
        return out

    def arm_problem(self, k: int, tile: Tile) -> tuple[str, str] | None:
        """Why ``tile`` cannot go on arm ``k`` now, as (code, reason); None when it can."""
        if not 1 <= k <= len(self.arms):
            return "bad-arm", f"there is no arm {k}; the layout has arms 1 to {len(self.arms)}"
        a = self.arms[k - 1]
        if a.state == DOUBLE:
            if a.accepts(tile):
                return None
            if tile.matches(a.number):
                return "double-skipped", (f"arm {k} ends in {a.number} and must take [{a.number}-{a.number}] "
                                          "before any other tile")
            return "tile-no-match", f"arm {k} ends in {a.number} (and needs [{a.number}-{a.number}])"
        if not tile.matches(a.number):
            return "tile-no-match", f"arm {k} ends in {a.number}"
        empty = [j for j, b in enumerate(self.arms, 1) if b.state == START]
        if a.state == CLOSED:
            return "arm-closed", (f"arm {k} is not open yet: every side of the spinner must have a tile first "
                                  f"(arm{'s' * (len(empty) > 1)} {' and '.join(map(str, empty))} still empty)")
        if a.state == START and k != empty[0]:
            return "bad-arm", (f"the sides of the spinner are numbered in the order they are filled: the next "
                               f"one is arm {empty[0]}")
        return None

    def numbers_open(self) -> tuple[int, ...]:
        """The numbers any tile of which could be played now (not those of an arm that needs its double)."""
        if self.ends is None:
            return ()
        return tuple(sorted({self.arms[k - 1].number for k in self.playable_arms()
                             if self.arms[k - 1].state != DOUBLE}))

    def can_anyone_play(self) -> bool:
        if self.ends is None:
            return True
        fit = self._fit()
        if any(h & fit for h in self.hands):
            return True
        return any(self.hidden) and bool(self.pool & fit)

    def ends_text(self) -> str:
        return arms_text(self.arms)

    def key(self) -> tuple:
        return (tuple(self.hands), tuple(sorted(self.arms)) if self.ends is not None else None, self.turn,
                self.passes)

    def line(self) -> list[tuple[Tile, bool]]:
        """The tiles in the order they were laid (a layout with arms is no single line)."""
        return [(move.tile, False) for move, *_ in self.history if move.tile is not None]

    def lead_tile(self) -> Tile | None:
        """The tile the layout started from."""
        return next((move.tile for move, *_ in self.history if move.tile is not None), None)

    def chains(self) -> list[Chain]:
        """Every arm's tiles outward from the lead tile (see :class:`Chain`): what a picture of the
        layout needs. A non-double lead (a record that breaks the opening rule) has two arms."""
        laid: list[list[tuple[int, int]]] = [[] for _ in self.arms]
        for where in self._where:
            if where is not None and where[0]:
                k, near, far = where
                laid[k - 1].append((near, far))
        return [Chain(k, None, tuple(t)) for k, t in enumerate(laid, 1)]

    # -- updates ---------------------------------------------------------------------------
    def push(self, move: Move) -> None:
        seat = self.turn
        self._log.append(self.arms)
        if move.tile is None:
            self.history.append((move, seat, self.ends, self.passes, None))
            self._where.append(None)
            self.passes += 1
        else:
            hidden_used = self._take(seat, move.tile)
            self.history.append((move, seat, self.ends, self.passes, hidden_used))
            k = self._arm_for(move) if self.arms else 0
            self._where.append((k, self.arms[k - 1].number, move.tile.other(self.arms[k - 1].number))
                               if k else (0, move.tile.low, move.tile.high))
            self.arms = self._attach(move, k)
            self.ends = tuple(a.number for a in self.arms)
            self.passes = 0
        self.turn = (seat + 1) % self.n

    def pop(self) -> Move:
        move = Position.pop(self)
        self.arms = self._log.pop()
        self._where.pop()
        return move

    def _arm_for(self, move: Move) -> int:
        """The arm ``move`` goes on: the one it names, else the first playable arm that takes it."""
        if move.arm is not None:
            return move.arm
        tile = move.tile
        return next((j for j in self.playable_arms() if self.arms[j - 1].accepts(tile)
                     and (move.end is None or self.arms[j - 1].number == move.end)), self.playable_arms()[0])

    def _attach(self, move: Move, k: int) -> tuple[Arm, ...]:
        tile = move.tile
        if not self.arms:
            if tile.is_double:
                return (Arm(tile.low, START),) * 4
            return Arm(tile.low, OPEN), Arm(tile.high, OPEN)
        arms = list(self.arms)
        a = arms[k - 1]
        if a.state == START:
            arms[k - 1] = Arm(tile.other(a.number), CLOSED)
            if all(b.state != START for b in arms):          # every side of the spinner is filled
                after = DOUBLE if self.layout == "french" else OPEN
                arms = [Arm(b.number, after) if b.state == CLOSED else b for b in arms]
        elif a.state == DOUBLE:
            arms[k - 1] = Arm(a.number, OPEN)
        else:
            arms[k - 1] = Arm(tile.other(a.number), OPEN)
        return tuple(arms)

    def __repr__(self) -> str:
        hands = ", ".join(" ".join(map(str, tiles_of(h, self.max_pip))) or "-" for h in self.hands)
        return f"<ArmPosition arms=[{arms_text(self.arms)}] turn={self.turn} hands=[{hands}]>"
