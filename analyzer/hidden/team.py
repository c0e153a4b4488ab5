"""A certified bracket of a partnership decision's value under hidden information, for small block endgames.

A partnership game (four seats, two sides, partners who cannot tell each other what they hold) is no two-player
game of perfect recall: a side's two players act on different information, so the two-player solvers' guarantees
do not carry over. Over the deals the public record allows (:func:`analyzer.hidden.public_deals`: each hand hidden
from the other three), with the side's plans *decentralised* (each player's move a function of his own hand and
the public moves: all moves are public in a block game), this module brackets the side's value:

- ``L``, the side's **maxmin over its pure plans against open hands**: the best joint pure plan of the side, each
  deal answered by the opponents' minimax with every hand open (and the plan known);
- ``U``, the opponents' side's **minmax over its pure plans against open hands**: the best joint pure plan of the
  opponents, each deal answered by the side with every hand open.

Opponents with open hands are at least as strong as real ones, a pure plan is one of the mixed ones, and a maxmin
is at most a minmax, so ``L <= (the side's maxmin with its real information, pure or mixed) <= (the minmax) <= U``:
whatever the side's value is taken to be (its plans mixed by a coin agreed before the deal, or each player mixing
alone), it lies in ``[L, U]``. Each bound is the one-sided search (:class:`.onesided.StrategySearch`) over the
public deals, run for the side and for the opponents. A move's bracket holds the mover's decision (his seat, his
actual hand, no move since) to it in both searches (docs/hidden.md, "The partnership bracket").
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from ..position import Position
from ..tiles import Move
from .decision import TooLarge, public_deals
from .onesided import ONE_SIDED_TRIES, StrategySearch, check_partnership

__all__ = ["TeamDecision", "team_decision", "team_deals", "team_supported", "within_team_bound", "TEAM_DEALS", "TEAM_HAND",
           "TEAM_TRIES"]

#: The size bound (docs/hidden.md): at most TEAM_DEALS public deals and every hand at most TEAM_HAND tiles
TEAM_DEALS = 2_000
TEAM_HAND = 3
#: The choices each search (the side's, the opponents') may try for one decision before it gives up (TooLarge)
TEAM_TRIES = ONE_SIDED_TRIES
EPS = 1e-9


@dataclass(frozen=True)
class TeamDecision:
    """The certified bracket of a partnership decision, every value for side 0 on the game's scale (the mean over
    the public deals by their weights).

    ``bounds``: the decision's ``(lower, upper)``; ``moves``: each legal move's ``(move, lower, upper)`` (the game
    with the mover's actual hand held to the move); ``reach``: the weight of the public deals that give the mover his
    actual hand (what :meth:`loss` divides by: a loss is per deal of his hand, as the two-player solvers' are);
    ``infosets``: the information sets with a choice of the mover's side and of the opponents'; ``nodes``: the
    deals' tree nodes (one tree a side); ``searched``: the choices both searches tried; ``side``: the mover's side;
    ``rest``: the part of the mean (side 0's) of the public deals that do not give the mover his hand, each valued with
    every hand open (what :meth:`hand_moves` takes off)."""

    mover: int
    side: int
    deals: int
    reach: float
    bounds: tuple[float, float]
    moves: tuple[tuple[Move, float, float], ...]
    infosets: tuple[int, int]
    nodes: int
    searched: int
    rest: float = 0.0

    def hand_moves(self) -> tuple[tuple[Move, float, float], ...]:
        """Each move's bracket on the scale of the fair values (per deal of the mover's hand, side 0's): the whole
        game's ``(lower, upper)`` less :attr:`rest`, divided by :attr:`reach`. The same map for every move, so two
        moves' brackets compare as the whole game's do; and the mean open-hands value of the move over the deals of
        his hand (the fair value with every such deal solved) lies in it, since the whole game's open-hands mean
        lies in the whole game's bracket (docs/hidden.md, "The partnership bracket")."""
        return tuple((m, (lo - self.rest) / self.reach, (up - self.rest) / self.reach) for m, lo, up in self.moves)

    def _mine(self) -> dict[Move, tuple[float, float]]:
        """Each move's bracket for the mover's side (lower, upper)."""
        if self.side == 0:
            return {m: (lo, up) for m, lo, up in self.moves}
        return {m: (-up, -lo) for m, lo, up in self.moves}

    def best(self) -> Move | None:
        """The move whose bracket lies wholly above every other's for the mover's side (told apart), else None."""
        mine = self._mine()
        for m, (lo, _) in mine.items():
            if all(lo > up + EPS for other, (_, up) in mine.items() if other != m):
                return m
        return None

    def worse(self, move: Move, other: Move) -> bool:
        """Whether ``move`` is certified worse than ``other`` for the mover's side (its bracket wholly below)."""
        mine = self._mine()
        return mine[move][1] < mine[other][0] - EPS

    def loss(self, move: Move) -> tuple[float, float]:
        """What holding the mover's hand to ``move`` costs his side against its value, per deal of his hand: a
        bracket ``(at least, at most)``, both >= 0."""
        lo, up = self.bounds if self.side == 0 else (-self.bounds[1], -self.bounds[0])
        m_lo, m_up = self._mine()[move]
        return max(0.0, lo - m_up) / self.reach, max(0.0, up - m_lo) / self.reach


def team_decision(rules, pos: Position, deals: Sequence[Position], weights: Sequence[float] | None = None,
                  limit: int = TEAM_TRIES, seconds: float | None = None) -> TeamDecision:
    """The bracket of the decision of the player to move in ``pos`` (a partnership block game) over ``deals``: every
    deal the public record allows (positions of the same moment, every hand filled in, each of ``weights``, uniform
    if None; the mover's actual hand in some). :class:`TooLarge` where either search tries more than ``limit``
    choices, or where the decision takes more than ``seconds`` of CPU time (None: no bound; the trees are built
    before the first look at the clock, at most :data:`TEAM_DEALS` deals' in the fair analysis)."""
    mover = pos.turn
    check_partnership(rules, pos, deals, "the partnership bracket")
    if any(d.turn != mover for d in deals):
        raise ValueError("every deal must have the mover to move")
    weights = list(weights) if weights is not None else [1.0] * len(deals)
    hand = pos.hands[mover]
    held = [d for d, deal in enumerate(deals) if deal.hands[mover] == hand]
    if not held:
        raise ValueError("no deal gives the mover his hand")
    moves = pos.legal_moves()
    if not moves:
        raise ValueError("the hand is over: there is no decision to value")
    teams = rules.seating.teams
    opponent = next(s for s in range(pos.n) if teams[s] != teams[mover])
    deadline = None if seconds is None else time.process_time() + seconds
    ours = StrategySearch(rules, deals, weights, mover, limit)        # the side's plan, open-handed opponents: L
    ours.deadline = deadline
    if deadline is not None and time.process_time() > deadline:
        raise TooLarge(f"the partnership bracket's trees took more than its {seconds:g} CPU s")
    theirs = StrategySearch(rules, deals, weights, opponent, limit)   # the opponents' plan, the side open-handed: U
    theirs.deadline = deadline
    # (before any choice each root's value is its deal's open-hands value: the part of the deals without his hand)
    kept = set(held)
    rest = ours.sign * sum(ours.weights[d] * ours.value[r] for d, r in enumerate(ours.roots) if d not in kept)
    # (each search's best is for its own side; its sign turns it into side 0's)
    try:
        lows = [ours.sign * ours.best_held(held, k) for k in range(len(moves))]
        ups = [theirs.sign * theirs.best_held(held, k) for k in range(len(moves))]
        whole = theirs.sign * theirs.best(range(len(deals)))
    except RecursionError:      # (the branch and bound recurses once a choice: a part with too many sets open)
        raise TooLarge("the partnership bracket's search went deeper than Python allows: too many information sets "
                       "open at once") from None
    best_low = max(lows) if ours.sign == 1 else min(lows)       # (the side's best pure plan plays some move)
    bounds = (best_low, whole) if ours.sign == 1 else (whole, best_low)
    out = tuple((m, lo, up) if ours.sign == 1 else (m, up, lo) for m, lo, up in zip(moves, lows, ups))
    total = float(sum(weights))
    reach = sum(weights[d] for d in held) / total
    return TeamDecision(mover, teams[mover], len(deals), reach, bounds, out, (len(ours.sets), len(theirs.sets)),
                        len(ours.kind) + len(theirs.kind), ours.tried + theirs.tried, rest)


def team_deals(rep, seen: int, limit: int = TEAM_DEALS) -> list[Position]:
    """The positions after the first ``seen`` moves of the replayed partnership block game ``rep``, one for every deal
    the public record allows (:func:`analyzer.hidden.public_deals`). :class:`TooLarge` past ``limit``."""
    if rep.variant.drawing is not None:
        raise ValueError("the partnership bracket is for block games (no boneyard)")
    return public_deals(rep, seen, limit)


def team_supported(rules, pos: Position) -> bool:
    """Whether the bracket takes a decision of ``pos`` under ``rules`` at all (:func:`.onesided.check_partnership`'s
    games: two sides, a partner beside the mover, no points scored during play; a block game), whatever its size."""
    return (rules.drawing is None and rules.seating.sides == 2 and pos.n >= 3
            and getattr(rules, "play", None) is None)


def within_team_bound(pos: Position, deals: int) -> bool:
    """Whether a decision of ``pos`` with ``deals`` public deals is within the bracket's size bound (every hand at
    most :data:`TEAM_HAND` tiles, at most :data:`TEAM_DEALS` deals)."""
    return deals <= TEAM_DEALS and all(pos.count(s) <= TEAM_HAND for s in range(pos.n))
