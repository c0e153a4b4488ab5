"""What the Python walks of both forms of the public tree share (the reference for ``_cfr_kernel.c``'s shared part).

A form (:mod:`.cfr`'s tree over deals, :mod:`.ranges`' over hands) values the terminals at a node its own way and
hands the node's moves to :func:`walk_moves`, which recurses through the form's own walk. Both trees keep the same
arrays for their moves and information sets (``player``, ``child_at``, ``child``, ``iset_at``, ``iset_hand``,
``slot``, ``legal``, ``size``, ``hands``).
"""
from __future__ import annotations

from typing import Callable

__all__ = ["CFR", "BEST", "EVAL", "WalkState", "strategy", "walk_moves"]

#: The walk's modes: CFR (update the walker's regrets and average; the other plays his current strategy), BEST (the
#: walker answers best, the other plays his average) or EVAL (both their averages).
CFR, BEST, EVAL = 0, 1, 2


class WalkState:
    """A run's regrets and averages (a slot per public move of each information set), its forced information set
    and move (``(set, move)``, or None), and each player's count of hands."""

    def __init__(self, t, forced: tuple[int, int] | None):
        self.t = t
        self.regret = [0.0] * t.size
        self.avg = [0.0] * t.size
        self.forced = forced
        self.nh = (len(t.hands[0]), len(t.hands[1]))


def strategy(st: WalkState, i: int, width: int, current: bool) -> list[float]:
    """Information set ``i``'s strategy over its node's ``width`` moves: by regret matching+ (``current``) or its
    average, uniform over its legal moves where either is all zero, its forced move where it is the forced set."""
    t = st.t
    s, legal = t.slot[i], t.legal
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
    vals = []
    for a, c in enumerate(kids):
        reach = [0.0] * st.nh[p]
        for i in sets:
            reach[t.iset_hand[i]] = own[t.iset_hand[i]] * strat[i][a]
        vals.append(walk(st, c, p, reach, opp, mode, it))
    for i in sets:
        h, s = t.iset_hand[i], t.slot[i]
        forced = st.forced is not None and st.forced[0] == i
        if mode == BEST:
            v[h] += vals[st.forced[1]][h] if forced else max(vals[a][h] for a in range(width) if t.legal[s + a])
            continue
        here = sum(strat[i][a] * vals[a][h] for a in range(width) if t.legal[s + a])
        v[h] += here
        if mode == CFR and not forced:
            for a in range(width):
                if t.legal[s + a]:
                    st.regret[s + a] = max(0.0, st.regret[s + a] + vals[a][h] - here)
                    st.avg[s + a] += it * own[h] * strat[i][a]
    return v
