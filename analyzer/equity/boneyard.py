"""The hand-result model of games with a boneyard, points scored during play, or plays in a run: draw
games (004's Grundregel, 003's draw game, Chiva for two or three), All Fives and All Fives and Threes,
cross domino (its sleepers drawn to fill the spinner) and Hungarian.

A simulated hand is a uniformly random deal **and a uniformly random boneyard order** (the tiles
left after the deal, shuffled: the order they would be drawn in), played with **best play with all
hands open and the boneyard order known**: at each real choice the exact search of the general
solver (``TreeSearch`` over the position whose boneyard is drawn in that order, ``search.tree.revealed``)
values every legal move, and the best one is played (among equal best moves, the first in move
order); a player who must draw takes the next tile of the order, one who cannot play or draw passes,
as the rules say (``rules.turns``). The values are the mover's side's points of the hand still to
come, the points a play scores at once included (All Fives), so the policy is the one the exact
analysis measures moves against. Where one decision needs more positions than the search's node
limit (:data:`NODE_LIMIT`), the move with the best proven bound is played instead
(``SearchLimit.bounds``: the highest lower bound for the first side, the lowest upper bound for the
other) and the hand counts in the sample's ``limited`` (9 of the 6,000 hands of Chiva for two did).

**Individual players** (Chiva for three, All Fives for three or four, the draw game for three or four)
play each for himself against the rest (``POLICY_EACH``): the mover's search is that of the game as he
alone against all the others sees it (``view(variant, seat)``, the analysis's ``AgainstTheRest``: the
others play to minimise his points, his own points of the hand to come less theirs), one search a seat,
and he plays the move best for him by it (the first in move order where several are equal); the boneyard
order is known to all, as for two sides.

Every score a play makes is claimed by its player (no Muggins). The hand's result is then read as the
replayer reads a recorded hand (``hand_facts`` with the points each seat scored during play,
``Variant.hand_result``): for All Fives its ``scores`` are each side's points scored during play plus
the award at the end, and the sample keeps the points scored during play by each side apart
(``ModeSample.play``), so that the model states both parts."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from ..i18n import N_
from ..position import mask_of
from ..rules import HandFacts, HandResult, Variant
from ..rules.facts import hand_facts
from ..rules.lead import deal_lead, lead_tiles
from ..rules.mechanics import position_for
from ..search.core import TABLE_MB, SearchLimit
from ..search.tree import TreeSearch, revealed
from ..tiles import Move

__all__ = ["POLICY", "POLICY_EACH", "NODE_LIMIT", "SimulatedHand", "covers", "deal_with_boneyard", "play_hand",
           "play_out", "hand_searcher", "bound_move"]

POLICY = N_("best play with all hands open and the boneyard order known: each random deal and boneyard order "
          "solved exactly (the general search) and played move by move along the best move (the first best move "
          "in move order where several are equal); every score claimed, no Muggins; a decision past the node "
          "limit plays the move with the best proven bound")

POLICY_EACH = N_("each player for himself against the rest, all hands open and the boneyard order known: at each "
               "choice the mover plays his best move when all the others play against him (the exact search of "
               "his own view, his points of the hand to come less theirs; the first best move in move order where "
               "several are equal); every score claimed, no Muggins; a decision past the node limit plays the "
               "move with the best proven bound")

#: The positions one decision's search may visit before the move with the best proven bound is played.
NODE_LIMIT = 2_000_000


def covers(variant: Variant) -> bool:
    """Whether a hand of ``variant`` is simulated here (not by the int solver of plain block games)."""
    return variant.drawing is not None or variant.play is not None or variant.search != "block"


def deal_with_boneyard(variant: Variant, req, rng: random.Random):
    """A random deal, the rest of the set in a random order (the boneyard as it would be drawn), the
    leader (the judge of the lead, ``rules.lead.deal_lead``, for the lead requirement ``req``; among
    several allowed leaders one at random) and the tiles he may lead (a mask, 0: any)."""
    n, size = variant.players, variant.dealing.hand_size
    tiles = list(variant.dealing.tiles)
    while True:
        rng.shuffle(tiles)
        hands = [sorted(tiles[i * size:(i + 1) * size]) for i in range(n)]
        if not variant.dealing.redeal or not any(variant.dealing.redeal_due(set(h)) for h in hands):
            break
    verdict = deal_lead(variant, hands, req)
    leader = verdict.leader if verdict.leader is not None else rng.choice(verdict.leaders)
    return hands, tiles[n * size:], leader, lead_tiles(variant, hands, leader, req)


@dataclass(frozen=True)
class SimulatedHand:
    """One hand played by the model's policy: the deal, the boneyard order, the leader, the moves in
    order (each ``(seat, move, points it scored)``; a draw is a move with ``draw`` set and its tile),
    what each seat scored during play, the finished position's facts and the hand's result, and whether
    a decision's search reached the node limit."""

    hands: tuple
    boneyard: tuple
    leader: int
    moves: tuple
    play_points: tuple[int, ...]
    facts: HandFacts
    result: HandResult
    limited: bool


def hand_searcher(variant: Variant, view: Callable | None = None) -> TreeSearch | list[TreeSearch]:
    """The search the policy asks (one per simulation: its tables carry over from hand to hand); for
    individual players one a seat, of ``view(variant, seat)`` (his game against the rest), sharing the
    default table memory."""
    if variant.seating.sides == 2:
        return TreeSearch(variant, NODE_LIMIT)
    if view is None:
        raise NotImplementedError(f"{variant.name} is played by {variant.seating.sides} individual players: its "
                                  f"hands are played with each player's view against the rest (view=...)")
    return [TreeSearch(view(variant, seat), NODE_LIMIT, TABLE_MB / variant.players) for seat in range(variant.players)]


def bound_move(exc: SearchLimit, moves: list[Move], first: bool) -> Move:
    """Where the search of a decision among ``moves`` met the node limit (``exc``): the move with the best
    proven bound for the mover (``first``: side 0, the highest lower bound; else the lowest upper bound),
    the first move where nothing is proven."""
    if not exc.bounds:
        return moves[0]
    inf = float("inf")
    if first:
        return max(exc.bounds, key=lambda b: -inf if b[1] is None else b[1])[0]
    return min(exc.bounds, key=lambda b: inf if b[2] is None else b[2])[0]


def _choose(search: TreeSearch, pos, moves: list[Move]) -> tuple[Move, bool]:
    """The policy's move among ``moves`` (two or more), and whether the node limit cut its search."""
    rules = getattr(search, "rules", None) or search.variant      # (the int solver values for side 0 too)
    first = rules.seating.teams[pos.turn] == 0
    try:
        values = search.values(pos)
    except SearchLimit as exc:
        return bound_move(exc, moves, first), True
    return (max if first else min)(values, key=lambda mv: mv[1])[0], False


def play_hand(variant: Variant, req, rng: random.Random, search: TreeSearch | list[TreeSearch] | None = None,
              view: Callable | None = None) -> SimulatedHand:
    """Deal a hand of ``variant`` led as the lead requirement ``req`` asks and play it to its end by the
    model's policy (see the module's note); individual players need ``search`` (one a seat,
    :func:`hand_searcher`) or ``view``."""
    search = search or hand_searcher(variant, view)
    each = search if isinstance(search, list) else [search] * variant.players
    hands, boneyard, leader, opening = deal_with_boneyard(variant, req, rng)
    pos = position_for(variant, hands, leader, max_pip=variant.dealing.max_pip)
    pos.pool &= mask_of(variant.dealing.tiles)
    pos.opening = opening
    if variant.drawing is not None or (pos.has_arms and boneyard):
        pos = revealed(pos, boneyard)
    moves, points, facts, limited = play_out(variant, pos, each, leader)
    return SimulatedHand(tuple(map(tuple, hands)), tuple(boneyard), leader, tuple(moves), tuple(points), facts,
                         variant.hand_result(facts), limited)


def play_out(variant: Variant, pos, each: list, leader: int) -> tuple[list[tuple[int, Move, int]], list[int],
                                                                      HandFacts, bool]:
    """Play ``pos`` (a hand of ``variant`` led by seat ``leader``) to its end by the model's policy, each seat's
    move chosen by its search (``each``, one a seat: the same one for two sides): the moves played (seat, move,
    points it scored), each seat's points scored during play, the finished hand's facts, and whether a node
    limit cut a choice. ``pos`` is left at the hand's end."""
    play = variant.play
    points = [0] * variant.players
    moves: list[tuple[int, Move, int]] = []
    limited = False
    while (legal := pos.legal_moves()):
        seat = pos.turn
        move, cut = _choose(each[seat], pos, legal) if len(legal) > 1 else (legal[0], False)
        limited |= cut
        pos.push(move)
        gained = play.points(play.ends_total(pos.line_ends(), pos.ends)) if play and move.is_play else 0
        points[seat] += gained
        moves.append((seat, move, gained))
    end = pos.outcome()
    return moves, points, hand_facts(pos, end.termination, end.seat, leader, tuple(points) if play else None), limited

