"""Positions for variants whose turns work differently: draw games and Hungarian runs.

Both keep the :class:`~analyzer.position.Position` contract (``push``/``pop``/``legal_moves``/
``outcome``/``key``) so the replayer and the random-game generator drive them like any other; the
plain position is left untouched, so the block game and its solver keep their speed.

A draw is a :class:`~analyzer.tiles.Move` with ``draw=True``: it moves a tile from the boneyard into
the mover's hand and leaves the turn with him. Draws are not part of ``history`` (which stays the
plays and passes, as ``line()`` and the scoring read it); a position keeps its own undo log."""
from __future__ import annotations

from ..position import Outcome, Position, tiles_of
from ..tiles import DRAW, PASS, Move

__all__ = ["DrawPosition", "RunPosition", "copy_position"]


def copy_position(pos: Position, slots: tuple[str, ...]) -> Position:
    other = object.__new__(type(pos))
    for name in Position.__slots__ + slots:
        value = getattr(pos, name)
        setattr(other, name, list(value) if isinstance(value, list) else value)
    return other


class DrawPosition(Position):
    """A position with a face-down boneyard of ``stock`` tiles.

    ``rule`` ``until``: a player who cannot play draws until he can; ``one``: he draws one tile a
    turn and passes if it does not fit. ``keep`` tiles stay in the boneyard. ``extra``: right after
    the lead the opener may add a matching tile (``bonus`` is then his seat, else -1). The hand is
    over when a player is out, or when the boneyard is down to ``keep`` and nobody can play.

    ``drawable()`` is the one place that says how many tiles may be drawn now: a subclass whose
    rules allow drawing only at times (the cross layout draws only to fill the spinner, see
    :mod:`analyzer.rules.layout`) overrides it, and the draws, passes and the end of the hand follow."""

    __slots__ = ("stock", "keep", "rule", "extra", "bonus", "_log")
    draws = True

    def setup(self, stock: int, keep: int = 0, rule: str = "until", extra: bool = False) -> DrawPosition:
        self.stock = stock
        self.keep = keep
        self.rule = rule
        self.extra = extra
        self.bonus = -1
        self._log: list[tuple] = []
        return self

    def copy(self) -> DrawPosition:
        return copy_position(self, DrawPosition.__slots__)

    def drawn_before(self, count: int) -> None:
        """A position set up inside a turn: the player to move has drawn ``count`` tiles in it already (they are
        in his hand; what follows counts them, as :meth:`drawn` does, a turn's one draw under ``one``). Never
        undone: they stand before the position."""
        self._log.extend(("draw", self.turn, None, -1) for _ in range(count))

    # -- queries ---------------------------------------------------------------------------
    def drawn(self, seat: int) -> int:
        """How many tiles ``seat`` has drawn in his current turn."""
        k = 0
        for entry in reversed(self._log):
            if entry[0] != "draw" or entry[1] != seat:
                break
            k += 1
        return k

    def drawable(self) -> int:
        """Tiles that may be drawn now (the boneyard less the ones that stay)."""
        return max(0, self.stock - self.keep)

    def can_draw(self, seat: int) -> bool:
        """Whether ``seat``, unable to play, may draw now."""
        return self.drawable() > 0 and (self.rule == "until" or self.drawn(seat) == 0)

    def boneyard(self) -> list:
        """The boneyard's tiles when every hand is known (else the unknown tiles as well)."""
        return sorted(tiles_of(self.pool, self.max_pip))

    def may_add(self, seat: int) -> bool:
        """Whether ``seat`` is the opener who may still add a matching tile to his lead: he holds one, or
        his hand is not shown and one of the tiles nobody is seen to hold fits (a log by another player)."""
        if seat < 0 or self.bonus != seat:
            return False
        if self.playable_mask(seat):
            return True
        a, b = self.ends
        return self.hidden[seat] > 0 and bool(self.pool & (self._match[a] | self._match[b]))

    def legal_moves(self) -> list[Move]:
        if self.outcome() is not None:
            return []
        return self.plays() or ([DRAW] if self.can_draw(self.turn) else [PASS])

    def outcome(self) -> Outcome | None:
        if not self.history:
            return None
        last = self.history[-1][1]
        if self.history[-1][0].tile is not None and self.count(last) == 0:
            return Outcome("domino", last)
        # every seat passed in a row, nothing played since: nobody can play, unless the player to move
        # has drawn since his pass (003, one tile a turn: the last tile he may draw can fit)
        if not self.drawable() and ((self.passes >= self.n and not self.drawn(self.turn))
                                    or not self.can_anyone_play()):
            return self.blocked()
        return None

    def key(self) -> tuple:
        return Position.key(self) + (self.stock, self.bonus, self.drawn(self.turn))

    # -- updates ---------------------------------------------------------------------------
    def push(self, move: Move) -> None:
        seat = self.turn
        if move.draw:
            tile = move.tile
            if tile is None:
                self.hidden[seat] += 1
            else:
                self.pool &= ~tile.bit
                self.hands[seat] |= tile.bit
            self.stock -= 1
            self._log.append(("draw", seat, tile, self.bonus))
            self.bonus = -1
            return
        lead = self.ends is None and move.tile is not None
        self._log.append(("move", self.bonus))
        Position.push(self, move)
        self.bonus = seat if lead and self.extra else -1

    def pop(self) -> Move:
        entry = self._log.pop()
        if entry[0] == "draw":
            _, seat, tile, bonus = entry
            if tile is None:
                self.hidden[seat] -= 1
            else:
                self.hands[seat] &= ~tile.bit
                self.pool |= tile.bit
            self.stock += 1
            self.turn = seat
            self.bonus = bonus
            return Move(tile, None, True)
        move = Position.pop(self)
        self.bonus = entry[1]
        return move


class RunPosition(Position):
    """Hungarian: a player keeps playing as long as he can; then the turn goes to the next player.
    The hand is over when nobody can play (a player who is out no longer plays)."""

    __slots__ = ()

    def copy(self) -> RunPosition:
        return copy_position(self, ())

    def push(self, move: Move) -> None:
        seat = self.turn
        Position.push(self, move)
        if move.tile is not None and self.hands[seat] & self._fit():
            self.turn = seat

    def _fit(self) -> int:
        a, b = self.ends
        return self._match[a] | self._match[b]

    def outcome(self) -> Outcome | None:
        if not self.history:
            return None
        if self.passes >= self.n or not self.can_anyone_play():
            out = [s for s in range(self.n) if self.count(s) == 0]
            if out:
                return Outcome("domino", out[0])
            return self.blocked()
        return None
