"""Layouts with more than two open ends: French domino (002) and cross domino (003), and the
double-nine cross, a tree of arms (003).

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

Layouts (``Variant.layout``): ``french``; ``cross``; ``tree``, the double-nine cross ("bei denen
jede Dublette rechtwinklig platziert wird und sich zwei neue Ketten daraus bilden"): a double laid
on an open arm lies crosswise, the arm goes on from its far side, and two new arms, numbered next in
the order they are made (5 and 6 for the first), open with the double's number on its two sides.
They need not be filled before play goes on (the text asks that only of the first double).

**Drawing** (cross, ``sleepers=draw``: "Steine werden bei Bedarf aus dem Schläferstapel gezogen, um
dies zu ermöglichen"): :class:`ArmPosition` is a :class:`~analyzer.rules.turns.DrawPosition` whose
``stock`` holds the sleepers and whose :meth:`~ArmPosition.drawable` allows drawing only while a side
of the spinner is empty: a player who cannot fill it draws until he can (or passes once the sleepers
are gone); once the four sides are filled nobody draws. A layout without drawing has ``stock`` 0.

:class:`ArmPosition` keeps the :class:`~analyzer.position.Position` contract (``push``/``pop``/
``legal_moves``/``outcome``/``key``); ``ends`` holds every arm's open number in arm order and a
:class:`~analyzer.tiles.Move` names its arm (``Move.arm``)."""
from __future__ import annotations

from typing import NamedTuple

from ..i18n import N_, gettext, ngettext
from ..position import Position, tiles_of
from ..tiles import Move, Tile
from .turns import DrawPosition, copy_position
from .codes import Code
from .modes import Layout

__all__ = ["Arm", "ArmPosition", "Chain", "START", "CLOSED", "DOUBLE", "OPEN", "LAYOUTS", "arms_text"]

START, CLOSED, DOUBLE, OPEN = "start", "closed", "double", "open"
LAYOUTS = ("french", "cross", "tree")      # the values of Variant.layout other than "line"


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
            return gettext("arm {arm}: empty (takes a {number})", arm=k, number=self.number)
        if self.state == CLOSED:
            return gettext("arm {arm}: {number}, closed", arm=k, number=self.number)
        if self.state == DOUBLE:
            return gettext("arm {arm}: {number}, needs {tile}", arm=k, number=self.number,
                           tile=f"[{self.number}-{self.number}]")
        return gettext("arm {arm}: {number}", arm=k, number=self.number)


class Chain(NamedTuple):
    """The tiles laid on one arm, outward from where it starts, each as ``(near, far)`` halves (the
    near half touches the tile before it). ``origin``: ``None`` for an arm that starts at the lead
    tile, else ``(arm, index)``: the double in ``chains()[arm - 1].tiles[index]`` it branches from."""

    arm: int
    origin: tuple[int, int] | None
    tiles: tuple[tuple[int, int], ...]


def arms_text(arms: tuple[Arm, ...]) -> str:
    """``"arm 1: 3, arm 2: 5, needs [5-5], arm 3: empty (takes a 0), ..."``."""
    return "; ".join(a.describe(k) for k, a in enumerate(arms, 1)) or gettext("none (nothing played yet)")


class ArmPosition(DrawPosition):
    """A position whose layout has arms (see the module). ``layout``: ``french`` (once the spinner's
    four sides are filled, each arm must take its double next), ``cross`` (the arms open) or ``tree``
    (as cross, and every later double branches into two new arms). ``stock``: the sleepers that may
    be drawn to fill the spinner (0: no drawing)."""

    __slots__ = ("layout", "arms", "_where")
    has_arms = True
    stock_words = (N_("sleepers"), N_("among the sleepers"), N_("the sleepers are all drawn"))

    def setup(self, layout: str, stock: int = 0, keep: int = 0, rule: str = "until") -> ArmPosition:
        if layout not in LAYOUTS:
            raise ValueError(f"unknown layout {layout!r}; the layouts with arms are {', '.join(LAYOUTS)}")
        DrawPosition.setup(self, stock, keep, rule)
        self.layout = layout
        self.arms: tuple[Arm, ...] = ()
        # per play or pass: (arm, near, far, new arms) for a tile (arm 0: the lead), None for a pass
        self._where: list[tuple[int, int, int, tuple[int, ...]] | None] = []
        return self

    def copy(self) -> ArmPosition:
        return copy_position(self, DrawPosition.__slots__ + ArmPosition.__slots__)

    # -- queries ---------------------------------------------------------------------------
    def filling(self) -> bool:
        """Whether a side of the spinner is still empty (then only that side may be played on)."""
        return any(a.state == START for a in self.arms)

    def drawable(self) -> int:
        """Sleepers that may be drawn now: only while a side of the spinner is empty."""
        return DrawPosition.drawable(self) if self.filling() else 0

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

    def canonical(self, move: Move) -> Move:
        """The move of :meth:`placements` that ``move`` is the same as: a tile on an arm alike to an
        earlier one (``>3`` where arms 1 and 3 have the same number and state) is the move on the
        first of them, the one placements lists (the positions after either are the same)."""
        if self.ends is None or move.tile is None or move.draw or move.arm is None \
                or not 1 <= move.arm <= len(self.arms):
            return move
        arm = self.arms[move.arm - 1]
        return next((m for m in self.placements(move.tile) if self.arms[m.arm - 1] == arm), move)

    def arm_problem(self, k: int, tile: Tile) -> tuple[str, str] | None:
        """Why ``tile`` cannot go on arm ``k`` now, as (code, reason); None when it can."""
        if not 1 <= k <= len(self.arms):
            return Code.BAD_ARM, gettext("there is no arm {arm}; the layout has arms 1 to {last}", arm=k,
                                         last=len(self.arms))
        a = self.arms[k - 1]
        if a.state == DOUBLE:
            if a.accepts(tile):
                return None
            if tile.matches(a.number):
                return Code.DOUBLE_SKIPPED, gettext("arm {arm} ends in {number} and must take {double} before any "
                                                    "other tile", arm=k, number=a.number,
                                                    double=f"[{a.number}-{a.number}]")
            return Code.TILE_NO_MATCH, gettext("arm {arm} ends in {number} (and needs {double})", arm=k,
                                               number=a.number, double=f"[{a.number}-{a.number}]")
        if not tile.matches(a.number):
            return Code.TILE_NO_MATCH, gettext("arm {arm} ends in {number}", arm=k, number=a.number)
        empty = [j for j, b in enumerate(self.arms, 1) if b.state == START]
        if a.state == CLOSED:
            return Code.ARM_CLOSED, ngettext(
                "arm {arm} is not open yet: every side of the spinner must have a tile first (arm {empty} still "
                "empty)", "arm {arm} is not open yet: every side of the spinner must have a tile first (arms {empty} "
                "still empty)", len(empty), arm=k, empty=gettext(" and ").join(map(str, empty)))
        if a.state == START and k != empty[0]:
            return Code.BAD_ARM, gettext("the sides of the spinner are numbered in the order they are filled: the "
                                         "next one is arm {arm}", arm=empty[0])
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
        """The hands, the arms (in any order: alike arms are interchangeable), the turn, the passes,
        the sleepers left and how many the mover has drawn this turn."""
        return (tuple(self.hands), tuple(sorted(self.arms)) if self.ends is not None else None, self.turn,
                self.passes, self.stock, self.drawn(self.turn))

    def line(self) -> list[tuple[Tile, bool]]:
        """The tiles in the order they were laid (a layout with arms is no single line)."""
        return [(move.tile, False) for move, *_ in self.history if move.tile is not None]

    def lead_tile(self) -> Tile | None:
        """The tile the layout started from."""
        return next((move.tile for move, *_ in self.history if move.tile is not None), None)

    def chains(self) -> list[Chain]:
        """Every arm's tiles outward from where it starts (see :class:`Chain`): what a picture of the
        layout needs. The spinner's arms start at the lead tile; a branch arm of the double-nine cross
        starts at the double it comes from (``Chain.origin``). A non-double lead (a record that breaks
        the opening rule) has two arms."""
        laid: list[list[tuple[int, int]]] = [[] for _ in self.arms]
        origin: list[tuple[int, int] | None] = [None] * len(self.arms)
        for where in self._where:
            if where is not None and where[0]:
                k, near, far, new = where
                laid[k - 1].append((near, far))
                for j in new:
                    origin[j - 1] = (k, len(laid[k - 1]) - 1)
        return [Chain(k, origin[k - 1], tuple(t)) for k, t in enumerate(laid, 1)]

    # -- updates ---------------------------------------------------------------------------
    def push(self, move: Move) -> None:
        if move.draw:                     # a sleeper into the mover's hand; the turn stays with him
            DrawPosition.push(self, move)
            return
        seat = self.turn
        self._log.append(("move", self.arms))
        if move.tile is None:
            self.history.append((move, seat, self.ends, self.passes, None))
            self._where.append(None)
            self.passes += 1
        else:
            hidden_used = self._take(seat, move.tile)
            self.history.append((move, seat, self.ends, self.passes, hidden_used))
            if self.arms:
                k = self._arm_for(move)
                near = self.arms[k - 1].number
                self.arms, new = self._attach(move, k)
                self._where.append((k, near, move.tile.other(near), new))
            else:
                self.arms, _ = self._attach(move, 0)
                self._where.append((0, move.tile.low, move.tile.high, ()))
            self.ends = tuple(a.number for a in self.arms)
            self.passes = 0
        self.turn = (seat + 1) % self.n

    def pop(self) -> Move:
        if self._log[-1][0] == "draw":
            return DrawPosition.pop(self)
        self.arms = self._log.pop()[1]
        self._where.pop()
        return Position.pop(self)

    def _arm_for(self, move: Move) -> int:
        """The arm ``move`` goes on: the one it names, else the first playable arm that takes it."""
        if move.arm is not None:
            return move.arm
        tile = move.tile
        return next((j for j in self.playable_arms() if self.arms[j - 1].accepts(tile)
                     and (move.end is None or self.arms[j - 1].number == move.end)), self.playable_arms()[0])

    def _attach(self, move: Move, k: int) -> tuple[tuple[Arm, ...], tuple[int, ...]]:
        """The arms after ``move`` goes on arm ``k`` (0: the lead), and the arms it opens."""
        tile = move.tile
        if not self.arms:
            if tile.is_double:
                return (Arm(tile.low, START),) * 4, ()
            return (Arm(tile.low, OPEN), Arm(tile.high, OPEN)), ()
        arms = list(self.arms)
        a = arms[k - 1]
        if a.state == START:
            arms[k - 1] = Arm(tile.other(a.number), CLOSED)
            if all(b.state != START for b in arms):          # every side of the spinner is filled
                after = DOUBLE if self.layout == Layout.FRENCH else OPEN
                arms = [Arm(b.number, after) if b.state == CLOSED else b for b in arms]
            return tuple(arms), ()
        if a.state == DOUBLE:
            arms[k - 1] = Arm(a.number, OPEN)
            return tuple(arms), ()
        arms[k - 1] = Arm(tile.other(a.number), OPEN)
        if self.layout == Layout.TREE and tile.is_double:     # crosswise: two new arms from its sides
            arms += (Arm(a.number, OPEN), Arm(a.number, OPEN))
            return tuple(arms), (len(arms) - 1, len(arms))
        return tuple(arms), ()

    def __repr__(self) -> str:
        hands = ", ".join(" ".join(map(str, tiles_of(h, self.max_pip))) or "-" for h in self.hands)
        return f"<ArmPosition arms=[{arms_text(self.arms)}] turn={self.turn} hands=[{hands}]>"
