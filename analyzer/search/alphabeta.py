"""What the searches share: infinity, the MTD(f) driver, a child's value folded into a max or min node,
the player who led a position's hand, the cyclic garbage collector held off while they search, and the
proven bounds of a decision's moves once its exact search met the node limit (:func:`bound_moves`)."""
from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator, Mapping, Sequence

from ..position import Position
from .core import SearchLimit

__all__ = ["INF", "mtdf", "fold_child", "hand_leader", "gc_paused", "within", "pushed", "bound_decision", "bound_moves",
           "proven_best", "Probe", "Proven"]

INF = 1 << 30


def mtdf(probe: Callable[[int, int], int], alpha: int, beta: int, guess: int) -> int:
    """MTD(f): a value fail-soft in (alpha, beta) from null-window probes ``probe(b - 1, b)``.

    A window open on one side asks one question first (at least ``beta``? more than ``alpha``?);
    an open window starts at ``guess``. Each probe's fail-soft answer is the next test point. A
    :class:`SearchLimit` on the way carries in ``window`` the bounds ``(low, high)`` the probes before it
    proved (+-INF: open).
    """
    if beta - alpha <= 1:
        return probe(alpha, beta)
    if beta < INF:
        g = beta
    elif alpha > -INF:
        g = alpha + 1
    else:
        g = guess
    lo, hi = -INF, INF
    try:
        while lo < hi:
            b = g + 1 if g == lo else g
            g = probe(b - 1, b)
            if g < b:
                hi = g
                if hi <= alpha:
                    break
            else:
                lo = g
                if lo >= beta:
                    break
    except SearchLimit as exc:
        exc.window = (lo, hi)       # what the probes before it proved (the outermost MTD(f) sets it last)
        raise
    return g


def fold_child(maximise: bool, x: int, best: int, alpha: int, beta: int) -> tuple[bool, int, int, int]:
    """One child's value ``x`` taken into a max node (``maximise``) or a min node of an alpha-beta
    search over positions: ``(improved, best, alpha, beta)``; the node is cut off once ``alpha >= beta``.
    (The int search inlines its negamax form of this, once per state: a call there would cost.)"""
    if maximise:
        if x > best:
            return True, x, max(alpha, x), beta
    elif x < best:
        return True, x, alpha, min(beta, x)
    return False, best, alpha, beta


def hand_leader(position: Position) -> int:
    for move, seat, *_ in position.history:
        if move.tile is not None:
            return seat
    return position.turn


@contextmanager
def gc_paused() -> Iterator[None]:
    """Hold the cyclic garbage collector off during a search (it only allocates acyclic tuples)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


#: ``probe(move, alpha, beta, budget)``: the side-0 value of playing ``move``, fail-soft in the null window
#: (alpha, beta), and the positions it took; the value None when it needed more than ``budget``.
Probe = Callable[[object, int, int, int], "tuple[int | None, int]"]


def within(search, budget: int, run: Callable[[], int]) -> tuple[int | None, int]:
    """``run()`` (a search of ``search``, which counts its ``nodes`` against its ``node_limit``) allowed
    ``budget`` positions more: ``(value, positions)``, the value None where it needed more."""
    limit, start = search.node_limit, search.nodes
    search.node_limit = start + budget
    try:
        return run(), search.nodes - start
    except SearchLimit:
        return None, search.nodes - start
    finally:
        search.node_limit = limit


def pushed(position: Position, move, run: Callable[[], int]) -> int:
    """``run()`` with ``move`` played on ``position`` (taken back after)."""
    position.push(move)
    try:
        return run()
    finally:
        position.pop()


@dataclass(frozen=True)
class Proven:
    """What is known of a decision's moves before the probes of :func:`bound_moves` (side 0): ``known``, the
    exact values already found; ``started``, bounds ``(low, high)`` (+-INF open) already proven of other moves
    (by the probes of a search the node limit stopped); ``most``, the most a value can be either way
    (:func:`~analyzer.search.scoring.hand_bound`; None: not known), where every interval starts; ``guess``, where
    the first probe tests."""

    known: Mapping = field(default_factory=dict)
    started: Mapping = field(default_factory=dict)
    most: int | None = None
    guess: int = 0


def bound_decision(search, moves: Sequence, after: Callable[[object, int, int], int], maximise: bool,
                   proven: Proven) -> list:
    """:func:`bound_moves` for a search (``search.nodes`` counted against ``search.node_limit``) whose
    exact values of ``moves`` stopped at its node limit after ``proven.known``: ``after(move, alpha, beta)`` is
    the side-0 value of playing ``move``, fail-soft, and the probes get as many positions again as the limit;
    the first probe tests at the best value known, if any."""
    if proven.known:
        proven = Proven(proven.known, proven.started, proven.most, (max if maximise else min)(proven.known.values()))
    return bound_moves(moves, lambda move, alpha, beta, budget:
                       within(search, budget, lambda: after(move, alpha, beta)), maximise, search.node_limit, proven)


def bound_moves(moves: Sequence, probe: Probe, maximise: bool, budget: int,
                proven: Proven = Proven()) -> list[tuple[object, int | None, int | None]]:
    """Proven bounds ``(move, low, high)`` (side 0; None: open on that side) of every move of a decision
    whose exact search met the node limit, found with null-window probes within ``budget`` positions,
    starting from what is already ``proven`` of them (exact values, bounds, the most a value can be).

    Each probe asks whether a move is worth at least some test point ``b`` for the mover and answers
    fail-soft, as a probe of MTD(f) does: a value ``g >= b`` proves the move worth at least ``g``, one below
    ``b`` proves it worth at most ``g``. The probes first try to prove one move best (its lower bound at least every other's upper bound,
    for the mover): once the move with the highest lower bound has one proven, whether it reaches the
    highest rival's upper bound, and whether each rival passes it (until then, at the last value found);
    then they narrow the widest interval left, from the last value found or halving it, until every
    value is exact or the budget is spent. A probe gets an equal share of the budget left
    among the moves not yet exact; one that needs more proves nothing, and its move is probed again
    only once a share is twice as large."""
    known, started, guess = proven.known, proven.started, proven.guess
    sign = 1 if maximise else -1
    floor = -INF if proven.most is None else -proven.most
    lo = {m: sign * known[m] if m in known else floor for m in moves}      # the mover's point of view
    hi = {m: sign * known[m] if m in known else -floor for m in moves}
    for m, (low, high) in (started or {}).items():
        low, high = _for_mover(None if low <= -INF else low, None if high >= INF else high, maximise)
        lo[m], hi[m] = max(lo[m], low), min(hi[m], high)
    failed: dict = {}           # the budget a probe of a move ran out of (it is tried again with twice that)
    left = budget
    first = sign * guess
    while left > 0:
        live = [m for m in moves if lo[m] < hi[m]]
        share = left // max(1, len(live)) + 1
        ready = [m for m in live if 2 * failed.get(m, 0) <= share]
        if not ready:
            break
        top = max(moves, key=lambda m: lo[m])
        rivals = [m for m in moves if m is not top and hi[m] > lo[top]]
        ask = [m for m in (top, *rivals) if m in ready] if rivals else []
        if ask:
            ceiling = max(hi[m] for m in rivals)
            ranges = [(m, max(lo[m], lo[top]), min(hi[m], ceiling if m is top else hi[m])) for m in ask]
        else:
            ranges = [(m, lo[m], hi[m]) for m in ready]
        move, p, q = max(ranges, key=lambda r: r[2] - r[1])
        if ask and lo[top] > floor:     # the top's bound is proven: can it reach the rivals? can they pass it?
            b = q if move is top and q < INF else p + 1
        else:
            b = _test_point(p, q, first)
        value, used = probe(move, b - 1, b, share) if maximise else probe(move, -b, 1 - b, share)
        left -= used
        if value is None:
            failed[move] = share
            continue
        g = sign * value
        if g >= b:
            lo[move] = max(lo[move], g)
        else:
            hi[move] = min(hi[move], g)
        first = g
    out = []
    for m in moves:
        low = None if lo[m] <= -INF else lo[m]
        high = None if hi[m] >= INF else hi[m]
        if not maximise:
            low, high = (None if high is None else -high), (None if low is None else -low)
        out.append((m, low, high))
    return out


def _test_point(p: int, q: int, guess: int) -> int:
    """A test point ``b`` with ``p < b <= q`` (ends at +-INF are open): ``guess`` where it lies there, else
    the next step past the one bound, or the middle."""
    if p < guess <= q:
        return guess
    if p <= -INF:
        return q
    if q >= INF:
        return p + 1
    return (p + q + 1) // 2


def proven_best(bounds: Sequence[tuple[object, int | None, int | None]], maximise: bool) -> list:
    """The moves of ``bounds`` (``(move, low, high)``, side 0; None: open) proven best: for the mover,
    a lower bound at least every other move's upper bound (where every value is exact: the best ones)."""
    mover = [_for_mover(low, high, maximise) for _, low, high in bounds]
    return [m for i, (m, _, _) in enumerate(bounds)
            if all(mover[i][0] >= high for j, (_, high) in enumerate(mover) if j != i)]


def _for_mover(low: int | None, high: int | None, maximise: bool) -> tuple[int, int]:
    """Side-0 bounds (None: open) as the mover's ``(low, high)``, open ends at +-INF."""
    low = -INF if low is None else low
    high = INF if high is None else high
    return (low, high) if maximise else (-high, -low)
