"""What the searches share: infinity, the MTD(f) driver, a child's value folded into a max or min node,
the player who led a position's hand, and the cyclic garbage collector held off while they search."""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Callable, Iterator

from ..position import Position

__all__ = ["INF", "mtdf", "fold_child", "hand_leader", "gc_paused"]

INF = 1 << 30


def mtdf(probe: Callable[[int, int], int], alpha: int, beta: int, guess: int) -> int:
    """MTD(f): a value fail-soft in (alpha, beta) from null-window probes ``probe(b - 1, b)``.

    A window open on one side asks one question first (at least ``beta``? more than ``alpha``?);
    an open window starts at ``guess``. Each probe's fail-soft answer is the next test point.
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
