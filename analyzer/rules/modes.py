"""The modes a variant declares, typed: when a hand ends (``End``), how turns go (``Turns``), the
layout (``Layout``), what a position does beyond the plain line (``Mechanic``), and how a match is
won (``MatchKind``), who leads the next game (``LeadNext``) and after a drawn one (``LeadTie``), and who leads
when a Cut Throat match starts over (``ResetLead``). Callers compare
members, never their text; ``rules/mechanics.py`` maps the mechanics to the position that plays them."""
from __future__ import annotations

from enum import StrEnum

__all__ = ["End", "Termination", "Turns", "Layout", "Count", "Mechanic", "MatchKind", "ResetLead", "LeadNext",
           "LeadTie"]


class End(StrEnum):
    """When a hand is over besides a block: ``one`` player out, or both of a ``pair``."""

    ONE = "one"
    PAIR = "pair"


class Termination(StrEnum):
    """How a hand ended (``Outcome.termination``, ``HandResult.termination``): a player went ``domino`` (out), or
    the hand was ``blocked``."""

    DOMINO = "domino"
    BLOCKED = "blocked"


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


class Count(StrEnum):
    """What a hand scores (``PointScoring.count``; ``HandScoring`` takes the first two): the ``losers``' pips,
    ``all`` pips, one point a ``game``, ``milo`` (one, two when the last tile leaves both ends equal), ``bad`` points
    (each side its own pips), the ``difference`` of the pips, or ``block-difference`` (the losers' pips, the
    difference on a block). The compiled cores number them in this order (``search.scoring.COUNT``, ``_leaf.h``'s
    ``COUNT_*``: a test checks the three agree); a new mode is added here, at the end, and there."""

    LOSERS = "losers"
    ALL = "all"
    GAME = "game"
    MILO = "milo"
    BAD = "bad"
    DIFFERENCE = "difference"
    BLOCK_DIFFERENCE = "block-difference"


class Mechanic(StrEnum):
    """What a position does beyond the plain line."""

    DRAW = "draw"            # a boneyard to draw from (rules/turns.py DrawPosition)
    ARMS = "arms"            # a layout with arms; sleepers drawn to fill the spinner (rules/layout.py)
    RUNS = "runs"            # a player plays while he can (rules/turns.py RunPosition)
    PAIR_OUT = "pair-out"    # the hand goes on until both of a pair are out (rules/ending.py)
    POINTS = "points"        # points scored during play (All Fives): the replayer and the search score
                             # them; the position itself is the plain one


class MatchKind(StrEnum):
    """How a match is won (``rules/matchplay.py`` ``MatchScoring`` says each in full)."""

    POINTS = "points"          # the first side to reach the target in points
    BAD = "bad"                # bad points: the match ends when a side reaches the target, fewer wins
    GAMES = "games"            # the first side to win the target in games (South American)
    STRAIGHT = "straight"      # the target in wins in a row (Jamaican)
    CUTTHROAT = "cutthroat"    # the target while someone still has 0; all reset once everyone has won
    SHUTOUT = "shutout"        # the same without the reset (Chiva for three)


class ResetLead(StrEnum):
    """Who leads once every score of a Cut Throat match is back to 0: the ``winner`` of the last game,
    or the holder of [6-6] (``six-six``, as at 0-0 in the partner game)."""

    WINNER = "winner"
    SIX_SIX = "six-six"


class LeadNext(StrEnum):
    """Who leads the next game of a match (``LeadPolicy.next``): the next player after the last leader
    (``rotate``), either player of the side that won (``winners``), the player who went out or on a block the
    winning side's player with the fewest pips (``winner-lowest``), the [6-6] holder with it (``six-six``), as the
    match scoring decides (``match``, Jamaican six love), or ``any`` player."""

    ROTATE = "rotate"
    WINNERS = "winners"
    WINNER_LOWEST = "winner-lowest"
    SIX_SIX = "six-six"
    MATCH = "match"
    ANY = "any"


class LeadTie(StrEnum):
    """Who leads after a drawn game (``LeadPolicy.tie``): as after any other (``""``), the [6-6] holder
    (``six-six``), the player who blocked (``blocker``), or as the match score decides (``match``)."""

    NONE = ""
    SIX_SIX = "six-six"
    BLOCKER = "blocker"
    MATCH = "match"
