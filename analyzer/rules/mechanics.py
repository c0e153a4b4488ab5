"""The mechanics a variant's position may have, and the position each combination is played on.

A variant declares its modes (``Variant.end``, ``turns``, ``layout``, ``drawing``, ``play``); from them
:attr:`Variant.mechanics` names what the position must do beyond the plain two-ended line, and
:attr:`Variant.search` which exact search values it. Callers never test a position's class: every
position answers the mechanics contract of :class:`~analyzer.position.Position` (``draws``,
``has_arms``, ``drawn``, ``can_draw``, ``may_add``, ``filling``, ``ends_text``...), and a mechanic's
position overrides what it changes. docs/architecture.md shows how to add one.
"""
from __future__ import annotations

from enum import StrEnum
from functools import cache

__all__ = ["End", "Turns", "Layout", "Mechanic", "position_class"]


class End(StrEnum):
    """When a hand is over besides a block: ``one`` player out, or both of a ``pair``."""

    ONE = "one"
    PAIR = "pair"


class Turns(StrEnum):
    """``one`` play a turn, or a ``run``: a player plays as long as he can (Hungarian)."""

    ONE = "one"
    RUN = "run"


class Layout(StrEnum):
    """Two open ends (``line``), or a spinner with arms: ``french``, ``cross``, the double-nine ``tree``."""

    LINE = "line"
    FRENCH = "french"
    CROSS = "cross"
    TREE = "tree"


class Mechanic(StrEnum):
    """What a position does beyond the plain line."""

    DRAW = "draw"            # a boneyard to draw from (rules/turns.py DrawPosition)
    ARMS = "arms"            # a layout with arms; sleepers drawn to fill the spinner (rules/layout.py)
    RUNS = "runs"            # a player plays while he can (rules/turns.py RunPosition)
    PAIR_OUT = "pair-out"    # the hand goes on until both of a pair are out (rules/ending.py)
    POINTS = "points"        # points scored during play (All Fives): the replayer and the search score
                             # them; the position itself is the plain one


@cache
def position_class(mechanics: frozenset[Mechanic]) -> type:
    """The position class that plays ``mechanics`` together (points during play need none of their
    own: the replayer and the search score them). A combination no position plays is a ValueError."""
    from ..position import Position
    from .ending import PairOutPosition
    from .layout import ArmPosition
    from .turns import DrawPosition, RunPosition

    table = {frozenset(): Position,
             frozenset({Mechanic.DRAW}): DrawPosition,
             frozenset({Mechanic.ARMS}): ArmPosition,
             frozenset({Mechanic.ARMS, Mechanic.DRAW}): ArmPosition,
             frozenset({Mechanic.RUNS}): RunPosition,
             frozenset({Mechanic.PAIR_OUT}): PairOutPosition}
    found = table.get(frozenset(mechanics - {Mechanic.POINTS}))
    if found is None:
        raise ValueError(f"no position plays the mechanics {', '.join(sorted(mechanics))} together")
    return found
