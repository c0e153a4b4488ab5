"""The entries of the pure-Python searches' transposition tables (the general search, the search over
arms and the draw-game search): ``(lower, upper, best move)``, read by :func:`probe_entry` and written by
:func:`narrowed_entry`. (The int solver of blockdeal.py packs its own, inline.)"""
from __future__ import annotations

from .alphabeta import INF

__all__ = ["CACHE_SIZE", "probe_entry", "narrowed_entry"]

#: The entries a cache of the searches' own (a state's moves, fit, leaf value...) may hold before it
#: starts again: the caches' memory is bounded too.
CACHE_SIZE = 400_000


def probe_entry(entry: tuple | None, alpha: int, beta: int, none=None) -> tuple:
    """What a table entry ``(lower, upper, best move)`` says of a search in (alpha, beta):
    ``(value, alpha, beta, best move)``, the value when its bounds settle the search (else None), the
    window narrowed to them and the move to try first (``none`` without an entry)."""
    if entry is None:
        return None, alpha, beta, none
    lower, upper, hint = entry
    if lower >= beta:
        return lower, alpha, beta, hint
    if upper <= alpha:
        return upper, alpha, beta, hint
    return None, max(alpha, lower), min(beta, upper), hint


def narrowed_entry(entry: tuple | None, best: int, move, alpha: int, beta: int) -> tuple:
    """The table entry ``(lower, upper, best move)`` once a search in (alpha, beta) returned ``best``:
    an upper bound when it failed low, a lower bound when it failed high, else the exact value."""
    lower, upper = (entry[0], entry[1]) if entry is not None else (-INF, INF)
    if best <= alpha:
        upper = min(upper, best)
    elif best >= beta:
        lower = max(lower, best)
    else:
        lower = upper = best
    return lower, upper, move
