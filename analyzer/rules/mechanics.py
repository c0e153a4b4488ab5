"""The mechanics a variant's position may have, and the position each combination is played on.

A variant declares its modes (``Variant.end``, ``turns``, ``layout``, ``drawing``, ``play``); from them
:attr:`Variant.mechanics` names what the position must do beyond the plain two-ended line, and
:attr:`Variant.search` which exact search values it. Callers never test a position's class: every
position answers the mechanics contract of :class:`~analyzer.position.Position` (``draws``,
``has_arms``, ``drawn``, ``can_draw``, ``may_add``, ``filling``, ``ends_text``...), and a mechanic's
position overrides what it changes. docs/architecture.md shows how to add one.
"""
from __future__ import annotations

from ..position import Position
from ..tiles import Move, Tile
from .ending import PairOutPosition
from .layout import ArmPosition
from .modes import End, Layout, Mechanic, Turns
from .turns import DrawPosition, RunPosition

__all__ = ["End", "Turns", "Layout", "Mechanic", "position_class", "position_for", "turn_up", "turned_up"]


_POSITIONS: dict[frozenset[Mechanic], type[Position]] = {
    frozenset(): Position,
    frozenset({Mechanic.DRAW}): DrawPosition,
    frozenset({Mechanic.ARMS}): ArmPosition,
    frozenset({Mechanic.ARMS, Mechanic.DRAW}): ArmPosition,
    frozenset({Mechanic.RUNS}): RunPosition,
    frozenset({Mechanic.PAIR_OUT}): PairOutPosition,
}


def position_class(mechanics: frozenset[Mechanic]) -> type[Position]:
    """The position class that plays ``mechanics`` together (points during play need none of their
    own: the replayer and the search score them). A combination no position plays is a ValueError."""
    found = _POSITIONS.get(frozenset(mechanics - {Mechanic.POINTS}))
    if found is None:
        raise ValueError(f"no position plays the mechanics {', '.join(sorted(mechanics))} together")
    return found


def position_for(variant, hands, turn: int = 0, **kw) -> Position:
    """A fresh position for ``variant``: the plain one, or one that ends hands (or takes turns, draws
    from a boneyard, or lays tiles on arms) the variant's way. A layout with arms and drawing (cross
    domino with ``sleepers=draw``) is one position: the sleepers are its stock, drawn only to fill the
    spinner."""
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


def turn_up(pos: Position, tile: Tile, first: int) -> None:
    """Open the line of ``pos`` (a draw game's deal, nobody has played) with ``tile`` turned up from the
    boneyard, ``first`` the player to play first on it. The tile lies as if the player before him had led
    it (so the turn passes to ``first``), but it comes from the boneyard: no hand holds it, the boneyard
    has one tile less, and nobody may add a tile to it (004's extra tile follows a lead from a hand)."""
    seat = (first - 1) % pos.n
    pos.pool &= ~tile.bit
    pos.hands[seat] |= tile.bit           # laid at once: it passes through no hand
    pos.turn = seat
    pos.push(Move(tile))
    pos.stock -= 1
    pos.bonus = -1


def turned_up(initial: Position) -> tuple[Tile, int] | None:
    """The tile a hand's first position (a replay's ``initial``) has turned up from the boneyard to open
    its line, and the player to play first on it (see :func:`turn_up`); None: the line is still empty."""
    if not initial.history:
        return None
    move, seat, *_ = initial.history[0]
    return move.tile, (seat + 1) % initial.n
