"""The one-sided bound of a partnership decision: the mover's side by its information, the opponents' hands open.

The mover's side (his partner and he) commits to a *joint pure strategy*: a move at each of its players'
information sets, a player's information set keyed by his seat, his own hand and every move since the
decision (all moves are public in a block game). The opponents see every hand and the side's strategy and
answer each deal by minimax. A strategy's value is its mean over the deals the mover cannot tell apart (by
their weights); the bound is the best strategy's value, and a move's bound the best of the strategies that
play it at the decision. The deals all give the mover his actual hand, so the partner's strategy is the best
for that hand (as if the side had planned its play knowing it); he still sees neither opponent's hand.

Since the opponents know more than they would and the side less than with every hand open, the bound is at
most the fair (open-hands) value of each move, and the side can guarantee it against any play of the
opponents, whatever they know (docs/hidden.md, "The one-sided partnership bound").

The search (:class:`StrategySearch`) is a branch and bound over the side's strategies. Every deal's game tree is
built once (``legal_moves``, ``push``, ``pop``: the rules decide) and its nodes' values kept: an opponent's
node the least of its children, a side node the child of its information set's move where one is chosen,
else the best child (the side choosing per deal, with open hands: an upper bound). Choosing a move updates the
values on the paths above the nodes of that information set only, and the mean of the deals' values bounds
every strategy that completes the choices made. The deals that share an open information set (one the choices
made may still lead to) are one part of the problem; parts sharing none are independent, and each is searched
alone (:meth:`StrategySearch.parts`), then the values added. In a part the search chooses the open information set
nearest the decision that the choices made reach, tries each move best bound first, and leaves a branch whose
bound is no better than the best strategy found; where no open information set is left, the bound is that
strategy's exact value.
"""
from __future__ import annotations

import time
from bisect import bisect_right
from dataclasses import dataclass
from typing import Sequence

from ..inference import world_position, worlds_at
from ..position import Position
from ..tiles import Move
from .decision import TooLarge
from .game import side0_value

__all__ = ["OneSidedDecision", "StrategySearch", "check_partnership", "one_sided_decision", "mover_deals", "within_one_sided_bound",
           "ONE_SIDED_HAND", "ONE_SIDED_DEALS", "ONE_SIDED_TRIES"]

#: The size bound (docs/hidden.md): every hand at most this many tiles, and at most ONE_SIDED_DEALS deals the
#: mover cannot tell apart; a decision takes seconds within it
ONE_SIDED_HAND = 2
ONE_SIDED_DEALS = 700
#: The choices the branch and bound may try for one decision before it gives up (:class:`TooLarge`)
ONE_SIDED_TRIES = 10_000
EPS = 1e-9

_LEAF, _SIDE, _OPP = 0, 1, 2


@dataclass(frozen=True)
class OneSidedDecision:
    """The one-sided bound of one decision, all values for side 0 and per deal (the mean over the deals).

    ``value``: the bound (the best move's); ``moves``: each legal move's bound (the best joint strategy of the
    mover's side that plays it here); ``infosets``: the information sets of the mover and of his partner;
    ``nodes``: the deals' tree nodes; ``searched``: the choices the branch and bound tried; ``side``: the
    mover's side (0 or 1)."""

    mover: int
    side: int
    deals: int
    value: float
    moves: tuple[tuple[Move, float], ...]
    infosets: tuple[int, int]
    nodes: int
    searched: int

    def loss(self, move: Move) -> float:
        """What ``move`` costs the mover's side per deal against the best move, by the bound (>= 0)."""
        sign = 1 if self.side == 0 else -1
        best = max(sign * v for _, v in self.moves)
        return best - sign * dict(self.moves)[move]


class _InfoSet:
    __slots__ = ("seat", "depth", "moves", "states", "choice")

    def __init__(self, seat: int, depth: int, moves: list[Move]) -> None:
        self.seat, self.depth, self.moves = seat, depth, moves
        self.states: list[int] = []
        self.choice = -1                # the move chosen (its index), -1 while open


class StrategySearch:
    """The deals' trees as flat arrays of nodes, their values (for the side of seat ``mover``: the side that commits to
    a joint pure strategy, the other side answering each deal with open hands) and the branch and bound; ``sign`` turns
    its values into side 0's. (:mod:`.team` runs it for either side of a partnership, over the public deals.)"""

    def __init__(self, rules, deals: Sequence[Position], weights: Sequence[float], mover: int, limit: int) -> None:
        teams = rules.seating.teams
        self.side = [teams[s] == teams[mover] for s in range(len(teams))]
        self.sign = 1 if teams[mover] == 0 else -1
        self.rules = rules
        self.kind: list[int] = []
        self.value: list[float] = []
        self.parent: list[int] = []
        self.children: list[list[int]] = []
        self.infoset: list[int] = []            # a side node's information set, else -1
        self.sets: list[_InfoSet] = []
        self.index: dict[tuple, int] = {}
        total = float(sum(weights))
        self.weights = [w / total for w in weights]
        self.roots = [self._build(d.copy(), d.hands, (), -1) for d in deals]
        self._starts = tuple(self.roots)        # (each deal's nodes from its root on, in the order built)
        self.log: list[tuple[int, float] | int] = []     # what to undo: (node, old value), or a set's index
        self.tried = 0
        self.limit = limit
        self.deadline: float | None = None      # a CPU time (``time.process_time``) past which it gives up (TooLarge)
        self._inner_kids: list[list[int]] | None = None
        # each deal's last walk for :meth:`parts` (its root then, and the open sets it met, each with whether the
        # choices made reach it), dropped when a set of its tree is chosen or undone: ``_deals_with[at]``
        self._walks: list[tuple[int, list[tuple[int, bool]]] | None] = [None] * len(self.roots)
        self._deals_with: list[list[int]] | None = None

    # -- the trees ---------------------------------------------------------------------------------
    def _build(self, pos: Position, dealt: list[int], history: tuple, parent: int) -> int:
        node = len(self.kind)
        self.parent.append(parent)
        self.children.append([])
        self.infoset.append(-1)
        moves = pos.legal_moves()
        if not moves:
            self.kind.append(_LEAF)
            self.value.append(float(self.sign * side0_value(self.rules, pos)))
            return node
        seat = pos.turn
        side = self.side[seat] and len(moves) > 1           # (one legal move is no choice: as an opponent's)
        self.kind.append(_SIDE if side else _OPP)
        self.value.append(0.0)
        if side:
            key = (seat, dealt[seat], history)
            at = self.index.get(key)
            if at is None:
                at = self.index[key] = len(self.sets)
                self.sets.append(_InfoSet(seat, len(history), moves))
            elif self.sets[at].moves != moves:
                raise ValueError("an information set of the mover's side has two sets of moves: the deals given "
                                 "are not of the same moment")
            self.sets[at].states.append(node)
            self.infoset[node] = at
        for move in moves:
            pos.push(move)
            try:
                self.children[node].append(self._build(pos, dealt, history + (move,), node))
            finally:
                pos.pop()
        self.value[node] = self._eval(node)
        return node

    def _walk(self, root: int) -> list[tuple[int, bool]]:
        """The open information sets of the tree below ``root`` that the choices made may still lead to, each with
        whether the choices made reach it (no open set above it): the nodes the choices lead to, then those below an
        open set; leaves never pushed. (:meth:`parts` joins the deals by them; its parts and their order do not
        depend on the order they come in: they are the components, in the order of their first deal.)"""
        kind, infoset, sets, children, inner = self.kind, self.infoset, self.sets, self.children, self._inner()
        out: list[tuple[int, bool]] = []
        path, below = [root], []
        for stack, chosen in ((path, True), (below, False)):
            while stack:
                node = stack.pop()
                if kind[node] == _SIDE:
                    at = infoset[node]
                    k = sets[at].choice
                    if k >= 0:
                        child = children[node][k]
                        if kind[child] != _LEAF:
                            stack.append(child)
                        continue
                    out.append((at, chosen))
                    below.extend(inner[node])
                    continue
                stack.extend(inner[node])
        return out

    def _inner(self) -> list[list[int]]:
        """Each node's children that are not leaves (the trees are fixed once built: made once)."""
        if self._inner_kids is None:
            kind = self.kind
            self._inner_kids = [[c for c in kids if kind[c] != _LEAF] for kids in self.children]
        return self._inner_kids

    def _eval(self, node: int) -> float:
        kids = self.children[node]
        if self.kind[node] == _OPP:
            return min(self.value[c] for c in kids)
        choice = self.sets[self.infoset[node]].choice
        return self.value[kids[choice]] if choice >= 0 else max(self.value[c] for c in kids)

    # -- choosing and undoing ----------------------------------------------------------------------
    def choose(self, at: int, k: int) -> int:
        """Choose move ``k`` at information set ``at``; returns the mark to undo it to."""
        mark = len(self.log)
        self.sets[at].choice = k
        self._forget(at)
        self.log.append(at)
        for node in self.sets[at].states:
            while node >= 0:
                new, old = self._eval(node), self.value[node]
                if new == old:
                    break
                self.value[node] = new
                self.log.append((node, old))
                node = self.parent[node]
        return mark

    def undo(self, mark: int) -> None:
        while len(self.log) > mark:
            entry = self.log.pop()
            if isinstance(entry, tuple):
                self.value[entry[0]] = entry[1]
            else:
                self.sets[entry].choice = -1
                self._forget(entry)

    def _forget(self, at: int) -> None:
        """Drop the walks of the deals whose trees hold information set ``at`` (its choice changed)."""
        if self._deals_with is None:
            starts = self._starts           # (not ``roots``: :meth:`best_held` moves those to their children)
            self._deals_with = [sorted({bisect_right(starts, n) - 1 for n in info.states}) for info in self.sets]
        walks = self._walks
        for d in self._deals_with[at]:
            walks[d] = None

    # -- the branch and bound ----------------------------------------------------------------------
    def best_held(self, held: Sequence[int], k: int) -> float:
        """:meth:`best` over every deal, the first move of each deal in ``held`` held to its ``k``th legal move
        (those deals' roots replaced by their ``k``th child: a move of either side, whoever is to move there)."""
        roots, keep = self.roots, set(held)
        self.roots = [self.children[r][k] if d in keep else r for d, r in enumerate(roots)]
        try:
            return self.best(range(len(roots)))
        finally:
            self.roots = roots

    def mean(self, scope: Sequence[int]) -> float:
        """The deals ``scope``'s part of the mean (each deal's root value by its weight)."""
        return sum(self.weights[d] * self.value[self.roots[d]] for d in scope)

    def parts(self, scope: Sequence[int]) -> list[tuple[list[int], int]]:
        """The independent parts of what is left open in the deals ``scope``: the deals that share an open
        information set the choices made may still lead to, joined; each part with the open set nearest the
        decision that the choices made reach."""
        joined: dict[int, int] = {}                 # a deal -> another of its part (union-find)

        def find(d: int) -> int:
            while joined.setdefault(d, d) != d:
                joined[d] = joined[joined[d]]
                d = joined[d]
            return d

        first: dict[int, int] = {}                  # an open set -> the first deal found in it
        reached: list[int] = []                     # the open sets the choices made reach
        walks, roots = self._walks, self.roots
        for d in scope:
            walk = walks[d]
            if walk is None or walk[0] != roots[d]:
                walk = walks[d] = (roots[d], self._walk(roots[d]))
            for at, chosen in walk[1]:
                if at in first:
                    joined[find(d)] = find(first[at])
                else:
                    first[at] = d
                    find(d)
                if chosen:
                    reached.append(at)
        parts: dict[int, tuple[list[int], list[int]]] = {}
        for d in joined:
            parts.setdefault(find(d), ([], []))[0].append(d)
        for at in reached:
            parts[find(first[at])][1].append(at)
        return [(deals, min(sets, key=lambda at: (self.sets[at].depth, at))) for deals, sets in parts.values()]

    def best(self, scope: Sequence[int], floor: float = float("-inf")) -> float:
        """The best part of the mean over the deals ``scope`` of a strategy completing the choices made (or
        ``floor`` if none beats it): each independent part searched alone, against what it must reach for the
        whole to beat ``floor`` given the others' bounds."""
        parts = self.parts(scope)
        bounds = [self.mean(deals) for deals, _ in parts]
        got = self.mean(scope) - sum(bounds)       # the deals nothing open touches
        left = sum(bounds)                          # the bound of the parts not searched yet
        for (deals, at), bound in zip(parts, bounds):
            left -= bound
            part_floor = floor - got - left         # (what the part must beat for the whole to beat floor)
            value = self._best_part(deals, at, part_floor)
            if value <= part_floor + EPS:
                return floor
            got += value
        return max(floor, got)

    def _best_part(self, deals: list[int], at: int, floor: float) -> float:
        """One part: each move of its open set ``at``, the one of the best bound first, while it may beat
        ``floor``."""
        branches = []
        for k in range(len(self.sets[at].moves)):
            mark = self.choose(at, k)
            branches.append((self.mean(deals), k))
            self.undo(mark)
        for bound, k in sorted(branches, reverse=True):
            if bound <= floor + EPS:
                break
            self.tried += 1
            if self.tried > self.limit:
                raise TooLarge(f"the one-sided bound tried {self.limit:,} choices of the mover's side and gave up")
            if self.deadline is not None and time.process_time() > self.deadline:
                raise TooLarge("the one-sided search ran past its CPU time and gave up")
            mark = self.choose(at, k)
            floor = max(floor, self.best(deals, floor))
            self.undo(mark)
        return floor


def check_partnership(rules, pos: Position, deals: Sequence[Position], what: str) -> None:
    """Refuse (``ValueError``, naming ``what``) a position that no partnership search here takes: a game without two
    sides and a partner beside the mover, points scored during play, or no deal."""
    if rules.seating.sides != 2 or pos.n < 3:
        raise ValueError(f"{what} is for partnership games: two sides, a partner beside the mover")
    if getattr(rules, "play", None) is not None:
        raise ValueError(f"{what} values finished hands only, not points scored during play")
    if not deals:
        raise ValueError("no deal to solve")


def one_sided_decision(rules, pos: Position, deals: Sequence[Position], weights: Sequence[float] | None = None,
                       limit: int = ONE_SIDED_TRIES) -> OneSidedDecision:
    """The one-sided bound of the decision of the player to move in ``pos`` (a partnership game: two sides),
    over ``deals``: positions of the same moment, each with every hand filled in and all giving the mover his
    hand in ``pos`` (the deals he cannot tell apart, each of ``weights``, uniform if None). :class:`TooLarge`
    where the search tries more than ``limit`` choices."""
    mover = pos.turn
    check_partnership(rules, pos, deals, "the one-sided bound")
    if any(d.hands[mover] != pos.hands[mover] or d.turn != mover for d in deals):
        raise ValueError("every deal must give the mover his hand, with him to move")
    moves = pos.legal_moves()
    if not moves:
        raise ValueError("the hand is over: there is no decision to value")
    search = StrategySearch(rules, deals, weights or [1.0] * len(deals), mover, limit)
    root = search.index.get((mover, pos.hands[mover], ()))
    every = range(len(deals))
    if root is None:                    # one legal move: no choice
        values = [search.best(every)] * len(moves)
    else:
        values = []
        for k in range(len(moves)):
            mark = search.choose(root, k)
            values.append(search.best(every))
            search.undo(mark)
    sign = search.sign
    mine = sum(1 for s in search.sets if s.seat == mover)
    return OneSidedDecision(mover, rules.seating.teams[mover], len(deals), sign * max(values),
                            tuple((m, sign * v) for m, v in zip(moves, values)), (mine, len(search.sets) - mine),
                            len(search.kind), search.tried)


def mover_deals(rep, seen: int, limit: int = ONE_SIDED_DEALS) -> list[Position]:
    """The positions after the first ``seen`` moves of the replayed block game ``rep``, one for every deal
    the player to move cannot tell apart (:func:`analyzer.inference.worlds_at` with his view: the fair
    analysis's worlds). :class:`TooLarge` past ``limit``."""
    if rep.variant.drawing is not None:
        raise ValueError("the one-sided bound is for block games (no boneyard)")
    seat = rep.position_at(seen).turn
    worlds = worlds_at(rep, seen, seat)
    if worlds.count > limit:
        raise TooLarge(f"{worlds.count:,} deals agree with what the mover has seen; the one-sided bound takes "
                       f"at most {limit:,}")
    return [world_position(rep, worlds.view.deal(w), seen) for w in worlds]


def within_one_sided_bound(pos: Position, deals: int) -> bool:
    """Whether the one-sided bound of a decision of ``pos`` with ``deals`` deals is within the size bound
    (every hand at most :data:`ONE_SIDED_HAND` tiles, at most :data:`ONE_SIDED_DEALS` deals)."""
    return deals <= ONE_SIDED_DEALS and all(pos.count(s) <= ONE_SIDED_HAND for s in range(pos.n))
