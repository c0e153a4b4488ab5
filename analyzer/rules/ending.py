"""What ends a hand: the position of a variant that ends hands its own way (both of a pair out)."""
from __future__ import annotations

from ..position import Outcome, Position

__all__ = ["PairOutPosition"]


class PairOutPosition(Position):
    """A position whose hand ends when both players of a pair are out (the strict block game),
    or when nobody can play; a player who is out passes."""

    __slots__ = ("teams",)

    def copy(self) -> PairOutPosition:
        other = object.__new__(type(self))
        for name in Position.__slots__ + PairOutPosition.__slots__:
            value = getattr(self, name)
            setattr(other, name, list(value) if isinstance(value, list) else value)
        return other

    def outcome(self) -> Outcome | None:
        if not self.history:
            return None
        last_move, last = self.history[-1][0], self.history[-1][1]
        if last_move.tile is not None and self.count(last) == 0:
            side = self.teams[last]
            if all(self.count(s) == 0 for s in range(self.n) if self.teams[s] == side):
                return Outcome("domino", last)
        if self.passes >= self.n or not self.can_anyone_play():
            return self.blocked()
        return None
