"""What the Python walks of both forms of the public tree share (the reference for ``_cfr_kernel.c``'s shared part).

A form (:mod:`.cfr`'s tree over deals, :mod:`.ranges`' over hands) values the terminals at a node its own way and
hands the node's moves to :func:`walk_moves`, which recurses through the form's own walk. Both trees keep the same
arrays for their moves and information sets (``player``, ``child_at``, ``child``, ``iset_at``, ``iset_hand``,
``slot``, ``legal``, ``size``, ``hands``).
"""
from __future__ import annotations

import math
from bisect import bisect_right
from typing import Callable

__all__ = ["CFR", "BEST", "EVAL", "TIE", "WalkState", "ReferenceRun", "discount", "force", "strategy", "walk_moves",
           "legal_bit", "add_legal", "legal_count"]

#: The walk's modes: CFR (update the walker's regrets and average; the other plays his current strategy), BEST (the
#: walker answers best, the other plays his average) or EVAL (both their averages).
CFR, BEST, EVAL = 0, 1, 2

#: A regret's change no larger than this times the most a value at its node can be (the tree's largest terminal value,
#: ``top``, times the other's reach there, which bounds the sum of the value's terms) counts as none, so that a tie is a
#: tie whatever the order the values were summed in: the kernel sums them in other orders than this walk, and a tie
#: broken by a last bit changes the next strategy outright (``CFR_TIE`` of ``_cfr_kernel.h``). The rounding of such a
#: sum is some 1e-13 of that bound at most.
TIE = 1e-10


def legal_bit(legal, j: int) -> int:
    """Slot ``j``'s bit of a tree's ``legal`` (a byte holds eight slots' bits, the first the lowest: the kernel's
    ``CFR_LEGAL``): 1 where the set's hand may make that move."""
    return legal[j >> 3] >> (j & 7) & 1


def add_legal(legal, size: int, width: int, moves) -> None:
    """The bits of a new information set's slots ``size`` to ``size + width`` put in ``legal`` (bytes, grown to hold
    them): 1 at each of ``moves``, the indices of its legal moves among its node's ``width``."""
    need = (size + width + 7) >> 3
    if len(legal) < need:
        legal.extend(bytes(need - len(legal)))
    for a in moves:
        j = size + a
        legal[j >> 3] |= 1 << (j & 7)


def legal_count(legal) -> int:
    """The slots a tree's ``legal`` marks legal: its information sets' legal moves."""
    return int.from_bytes(bytes(legal), "little").bit_count()


#: each byte's eight bits as eight bytes (a byte of ``legal`` unpacked)
_BITS = [bytes(x >> k & 1 for k in range(8)) for x in range(256)]


class WalkState:
    """A run's regrets and averages (a slot per public move of each information set), its forced information set
    and move (``(set, move)``, or None), each player's count of hands, and the tree's ``legal`` a byte a slot (the
    reference walk reads it slot by slot)."""

    def __init__(self, t, forced: tuple[int, int] | None):
        self.t = t
        self.legal = b"".join(_BITS[x] for x in t.legal)[:t.size]
        self.regret = [0.0] * t.size
        self.avg = [0.0] * t.size
        self.forced = forced
        self.nh = (len(t.hands[0]), len(t.hands[1]))
        self.tie = TIE * t.top


def force(st: WalkState, forced: tuple[int, int] | None, keep: bool = False) -> None:
    """``st``'s information set ``forced[0]`` held to its move ``forced[1]`` from now on (None or a set of -1: none),
    its regrets kept (a warm start), its average strategy begun again (``keep``: kept too; the kernel's
    ``cfr_force``); ValueError where the move is not legal there."""
    t = st.t
    if forced is not None and 0 <= forced[0] < len(t.iset_hand):
        i, a = forced
        n = bisect_right(t.iset_at, i) - 1           # (the node of set i)
        if not (0 <= a < t.child_at[n + 1] - t.child_at[n] and st.legal[t.slot[i] + a]):
            raise ValueError("the forced move is not legal in its information set")
    st.forced = forced if forced is not None and forced[0] >= 0 else None
    if not keep:
        st.avg = [0.0] * len(st.avg)


class ReferenceRun:
    """What the Python runs of both forms share: their state and iteration count, and :meth:`force`."""

    def __init__(self, t, forced: tuple[int, int] | None):
        self.st = WalkState(t, forced)
        self.it = 0

    def _root(self, p: int, mode: int) -> list:
        """Player ``p``'s walk from the root (each form's)."""
        raise NotImplementedError

    def iterate(self, count: int) -> None:
        """``count`` iterations (the kernel's ``cfr_iterate``)."""
        for _ in range(count):
            self.it += 1
            for p in (0, 1):
                self._root(p, CFR)
                discount(self.st, p, self.it)

    def force(self, forced_set: int, forced_move: int, keep: bool = False) -> None:
        """Information set ``forced_set`` held to ``forced_move`` from now on (-1: none), the regrets kept, the average
        and the iteration count begun again (``keep``: kept too, the run going on; the kernel's ``force``)."""
        force(self.st, (forced_set, forced_move), keep)
        if not keep:
            self.it = 0

    def threads(self, count: int) -> int:
        """The Python walk takes one thread whatever ``count`` says (the kernel's ``cfr_threads``: the same values): 0,
        the depth it splits at."""
        return 0

    def average(self) -> list[float]:
        """The average strategy's sums by slot (the kernel's ``cfr_average``)."""
        return list(self.st.avg)

    def set_average(self, i: int, width: int) -> list[float]:
        """Information set ``i``'s average strategy's sums by its node's ``width`` moves (the kernel's
        ``cfr_set_average``, with its checks)."""
        t = self.st.t
        if not 0 <= i < len(t.iset_hand) or width < 0:
            raise ValueError("no such information set")
        n = bisect_right(t.iset_at, i) - 1            # (the set's node)
        s, moves = t.slot[i], t.child_at[n + 1] - t.child_at[n]
        legal = self.st.legal
        if any(legal[s + a] for a in range(width, moves)):
            raise ValueError("an information set has more moves than asked for")
        return [self.st.avg[s + a] if a < moves and legal[s + a] else 0.0 for a in range(width)]


def strategy(st: WalkState, i: int, width: int, current: bool) -> list[float]:
    """Information set ``i``'s strategy over its node's ``width`` moves: by regret matching (``current``: the positive
    regrets) or its average, uniform over its legal moves where either is all zero, its forced move where it is the
    forced set."""
    t = st.t
    s, legal = t.slot[i], st.legal
    if st.forced is not None and st.forced[0] == i:
        return [1.0 if a == st.forced[1] else 0.0 for a in range(width)]
    if current:
        xs = [st.regret[s + a] if legal[s + a] and st.regret[s + a] > 0 else 0.0 for a in range(width)]
    else:
        xs = st.avg[s:s + width]
    total = sum(xs)
    if total > 0:
        return [x / total for x in xs]
    count = sum(legal[s:s + width])
    return [1.0 / count if legal[s + a] else 0.0 for a in range(width)]


Walk = Callable[[WalkState, int, int, list, list, int, int], list]


def walk_moves(st: WalkState, n: int, p: int, own: list[float], opp: list[float], v: list[float], mode: int, it: int,
               walk: Walk) -> list[float]:
    """Node ``n``'s moves in ``p``'s walk (its terminal values already in ``v``, returned): each child walked by the
    form's ``walk`` with the reach its move leaves, its values summed into ``v`` by the other's strategy or by ``p``'s
    own, his best move (``BEST``), and in ``CFR`` his regrets and average updated."""
    t = st.t
    mover = t.player[n]
    if mover < 0:
        return v
    kids = t.child[t.child_at[n]:t.child_at[n + 1]]
    width = len(kids)
    sets = range(t.iset_at[n], t.iset_at[n + 1])
    if mover != p:
        q = 1 - p
        for a, c in enumerate(kids):
            reach = [0.0] * st.nh[q]
            for i in sets:
                h = t.iset_hand[i]
                reach[h] = opp[h] * strategy(st, i, width, mode == CFR)[a]
            sub = walk(st, c, p, own, reach, mode, it)
            for h in range(len(v)):
                v[h] += sub[h]
        return v
    strat = {i: strategy(st, i, width, mode == CFR) for i in sets}
    tie = 0.0
    if mode == CFR:
        alive = t.alive[1 - p]
        for k in range(t.alive_at[1 - p][n], t.alive_at[1 - p][n + 1]):
            tie += opp[alive[k]]
        tie *= st.tie
    vals = []
    for a, c in enumerate(kids):
        reach = [0.0] * st.nh[p]
        for i in sets:
            reach[t.iset_hand[i]] = own[t.iset_hand[i]] * strat[i][a]
        vals.append(walk(st, c, p, reach, opp, mode, it))
    legal = st.legal
    for i in sets:
        h, s = t.iset_hand[i], t.slot[i]
        forced = st.forced is not None and st.forced[0] == i
        if mode == BEST:
            v[h] += vals[st.forced[1]][h] if forced else max(vals[a][h] for a in range(width) if legal[s + a])
            continue
        here = sum(strat[i][a] * vals[a][h] for a in range(width) if legal[s + a])
        v[h] += here
        if mode == CFR and not forced:
            for a in range(width):
                if legal[s + a]:
                    d = vals[a][h] - here
                    if d > tie or d < -tie:
                        st.regret[s + a] += d
                    st.avg[s + a] += it * it * it * own[h] * strat[i][a]
    return v


def discount(st: WalkState, p: int, it: int) -> None:
    """Player ``p``'s regrets discounted at the end of his walk of iteration ``it`` (Discounted CFR, alpha 1.5, beta 0:
    a positive one kept by it^1.5 / (it^1.5 + 1), a negative one halved), every set of his (the kernel's
    ``discount``)."""
    t, legal = st.t, st.legal
    a = it * math.sqrt(it)
    keep = a / (a + 1.0)
    for n, mover in enumerate(t.player):
        if mover == p:
            width = t.child_at[n + 1] - t.child_at[n]
            for i in range(t.iset_at[n], t.iset_at[n + 1]):
                for j in range(t.slot[i], t.slot[i] + width):
                    if legal[j]:
                        st.regret[j] *= keep if st.regret[j] > 0 else 0.5
