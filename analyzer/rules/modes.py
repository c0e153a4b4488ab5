"""The modes a variant declares, typed: when a hand ends (``End``), how turns go (``Turns``), the
layout (``Layout``), and what a position does beyond the plain line (``Mechanic``). Callers compare
members, never their text; ``rules/mechanics.py`` maps the mechanics to the position that plays them."""
from __future__ import annotations

from enum import StrEnum

__all__ = ["End", "Turns", "Layout", "Mechanic"]


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
