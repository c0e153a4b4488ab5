"""The extensive form of a two-player endgame under hidden information.

A root chance node deals one of the given *deals* (positions with every hand, and in a draw game the
boneyard's order, filled in), each with its weight. From there the game is played with the position's own
moves (``legal_moves``, ``push``, ``pop``: the rules decide, nothing here). Each player knows his own hand at
the root and sees every move; of the other player's draws he sees only that a tile was drawn. His
*information set* at a decision is keyed by exactly that: his seat, his hand at the root and his
observations since. Two deals that give a player the same hand are therefore the same to him until a move
tells them apart.

The sequence form (Koller, Megiddo and von Stengel): a player's *sequences* are the empty one (0) and, for
each of his information sets and each of its moves, the sequence of his own choices that ends with it. A
finished hand adds ``weight * value`` to the payoff of the pair of sequences that led to it, so the game is
the bilinear form ``x' A y`` over the two players' realisation plans. Decisions with one legal move are no
choice and make no information set. Values are for the *maximiser* (``first``): the seat whose side gains
by the search's value (side 0), or the other seat with the value negated.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..position import Position
from ..rules.facts import HandFacts
from ..search.alphabeta import hand_leader
from ..tiles import Move

__all__ = ["InfoSet", "HiddenGame", "build_game", "side0_value", "leaf_facts"]


@dataclass
class InfoSet:
    """One information set of ``player`` (0: the maximiser, 1: the minimiser)."""

    player: int
    key: tuple
    parent: int                     # the player's sequence leading to it
    moves: list[Move]
    seqs: list[int] = field(default_factory=list)      # the sequence each move ends


@dataclass
class HiddenGame:
    """A built game: the maximiser's seat, the information sets and sequences of both players, and the payoff
    ``payoff[(s1, s2)]`` (summed ``weight * value`` of the finished hands reached by that pair of sequences,
    weights normalised to 1)."""

    first: int                      # the maximiser's seat
    infosets: tuple[list[InfoSet], list[InfoSet]]
    seq_counts: list[int]
    payoff: dict[tuple[int, int], float]
    index: tuple[dict[tuple, int], dict[tuple, int]]     # info set key -> its position in ``infosets[p]``
    nodes: int = 0                  # decisions and finished hands walked
    by_hand: dict[int, dict[tuple[int, int], float]] = field(default_factory=dict)   # ``payoff`` split by the
    #                                 maximiser's hand at the root (a mask): the part of the deals giving him it


def leaf_facts(pos: Position) -> HandFacts:
    """The facts of the finished hand ``pos`` that the scoring looks at."""
    out = pos.outcome()
    n = pos.n
    last = next((h for h in reversed(pos.history) if h[0].tile is not None), None)
    return HandFacts(out.termination, out.seat, tuple(pos.pips(s) for s in range(n)),
                     tuple(pos.count(s) for s in range(n)), hand_leader(pos), hands=tuple(pos.hands),
                     last_tile=last[0].tile if last else None, ends_before=last[2] if last else None)


def side0_value(rules, pos: Position) -> int:
    """The value for side 0 of the finished hand ``pos``: what the exact search gives a leaf."""
    return rules.value(leaf_facts(pos))


def _gain(rules, pos: Position, seat_side0: bool, move: Move) -> int:
    """The points ``move`` (just pushed) scored at once for side 0 (All Fives), else 0."""
    play = getattr(rules, "play", None)
    if play is None or move.tile is None or move.draw:
        return 0
    points = play.points(play.ends_total(pos.line_ends(), pos.ends))
    return points if seat_side0 else -points


class _Builder:
    def __init__(self, rules, first: int) -> None:
        self.rules = rules
        self.first = first
        self.sign = 1 if rules.seating.teams[first] == 0 else -1
        self.side0 = [side == 0 for side in rules.seating.teams]
        self.infosets: tuple[list[InfoSet], list[InfoSet]] = ([], [])
        self.index: tuple[dict, dict] = ({}, {})
        self.seq_counts = [1, 1]
        self.payoff: dict[tuple[int, int], float] = {}
        self.by_hand: dict[int, dict[tuple[int, int], float]] = {}
        self.hand = 0                   # the maximiser's hand in the deal being walked
        self.nodes = 0

    def player(self, seat: int) -> int:
        return 0 if seat == self.first else 1

    def infoset(self, p: int, key: tuple, parent: int, moves: list[Move]) -> InfoSet:
        at = self.index[p].get(key)
        if at is not None:
            found = self.infosets[p][at]
            if found.moves != moves or found.parent != parent:
                raise ValueError("a player's information set has two sets of moves or two pasts: the deals "
                                 "given do not share what both players have seen")
            return found
        found = InfoSet(p, key, parent, moves)
        for _ in moves:
            found.seqs.append(self.seq_counts[p])
            self.seq_counts[p] += 1
        self.index[p][key] = len(self.infosets[p])
        self.infosets[p].append(found)
        return found

    def walk(self, pos: Position, weight: float, seqs: list[int], obs: tuple[list, list], gained: int) -> None:
        self.nodes += 1
        moves = pos.legal_moves()
        if not moves:
            value = self.sign * (gained + side0_value(self.rules, pos))
            pair = (seqs[0], seqs[1])
            self.payoff[pair] = self.payoff.get(pair, 0.0) + weight * value
            part = self.by_hand.setdefault(self.hand, {})
            part[pair] = part.get(pair, 0.0) + weight * value
            return
        seat = pos.turn
        p = self.player(seat)
        node = None
        if len(moves) > 1:
            node = self.infoset(p, (seat, tuple(obs[p])), seqs[p], moves)
        for i, move in enumerate(moves):
            pos.push(move)
            gain = _gain(self.rules, pos, self.side0[seat], move)
            mine = (seat, move)
            theirs = (seat, "draw") if move.draw else mine
            obs[p].append(mine)
            obs[1 - p].append(theirs)
            saved = seqs[p]
            if node is not None:
                seqs[p] = node.seqs[i]
            try:
                self.walk(pos, weight, seqs, obs, gained + gain)
            finally:
                seqs[p] = saved
                obs[0].pop()
                obs[1].pop()
                pos.pop()


def build_game(rules, deals: Sequence[Position], first: int, weights: Sequence[float] | None = None) -> HiddenGame:
    """The game whose root deals one of ``deals`` (each with ``weights``, uniform if None) and whose
    maximiser is seat ``first`` (of two). Every deal must be a position of the same moment of the same
    hand: what is public (the line, whose turn, the counts) alike, only the hands (and a boneyard's order)
    differing."""
    if not deals:
        raise ValueError("no deal to solve")
    if deals[0].n != 2:
        raise ValueError(f"the hidden-information solver plays two players, not {deals[0].n}")
    weights = [1.0] * len(deals) if weights is None else list(weights)
    total = float(sum(weights))
    b = _Builder(rules, first)
    for pos, w in zip(deals, weights):
        pos = pos.copy()
        root = ([("hand", pos.hands[first])], [("hand", pos.hands[1 - first])])
        b.hand = pos.hands[first]
        b.walk(pos, w / total, [0, 0], root, 0)
    return HiddenGame(first, b.infosets, b.seq_counts, b.payoff, b.index, b.nodes, b.by_hand)
