"""What ends a hand: the position the replayer uses when a variant ends hands its own way."""
from __future__ import annotations

from ..position import Outcome, Position

__all__ = ["PairOutPosition", "position_for"]


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


def position_for(variant, hands, turn: int = 0, **kw) -> Position:
    """A fresh position for ``variant``: the plain one, or one that ends hands (or takes turns, draws
    from a boneyard, or lays tiles on arms) the variant's way. A layout with arms and drawing (cross
    domino with ``sleepers=draw``) is one position: the sleepers are its stock, drawn only to fill the
    spinner."""
    from .mechanics import Mechanic, position_class

    mechanics = variant.mechanics
    pos = position_class(mechanics)(hands, turn, **kw)
    pos.equal_side = {"crosswise": 1, "lengthwise": 2}.get(variant.equal_ends, 0)     # Domino Whist §6
    pos.crosswise = Mechanic.POINTS in mechanics        # All Fives: which of two equal ends counts (two_equal_ends)
    drawing = variant.drawing
    if Mechanic.ARMS in mechanics:
        if drawing is None:
            return pos.setup(variant.layout)
        return pos.setup(variant.layout, variant.dealing.sleepers(len(hands)), drawing.keep, drawing.rule)
    if Mechanic.DRAW in mechanics:
        return pos.setup(variant.dealing.sleepers(len(hands)), drawing.keep, drawing.rule, variant.opening.extra)
    if Mechanic.PAIR_OUT in mechanics:
        pos.teams = variant.seating.teams
    return pos
