"""What certified brackets say about a decision's moves, read for the mover: which moves another move is surely
better than, by how much at least, and which moves are left that no other is surely better than.

A move's bracket holds its exact value under hidden information: the exact solver's best responses certify it. A
move whose bracket lies wholly below another's is worse than that move whatever the brackets' widths; two moves whose
brackets overlap are not told apart. One reading serves both solvers' brackets: the two-player CFR+ decision's
(:mod:`.hiddenfair`, on the game's scale) and the partnership's (:mod:`.teamfair`, per deal of the mover's hand). Each
gives its brackets as ``{move: (low, high)}`` for the mover (higher is better for him) and rounds what it reads its
own way."""

from __future__ import annotations

from typing import Hashable, Mapping, TypeVar

__all__ = ["for_mover", "surely_better", "sure_loss", "not_told_apart"]

M = TypeVar("M", bound=Hashable)


def for_mover(bounds, sign: int) -> dict:
    """``{move: (low, high)}`` for the mover from ``bounds`` (``(move, low, high)`` each, side 0's values; ``sign``: 1
    where the mover is side 0, -1 where he is side 1, whose brackets are then negated and turned over)."""
    return {m: tuple(sorted((sign * lo, sign * up))) for m, lo, up in bounds}


def surely_better(ends: Mapping[M, tuple[float, float]], eps: float = 0.0) -> dict[M, M]:
    """Each move whose bracket lies wholly below another's (by more than ``eps``), with the move whose low end lies
    highest (the first such in ``ends``' order), which is then surely better than it. Empty where ``ends`` is."""
    if not ends:
        return {}
    top = max(ends, key=lambda m: ends[m][0])
    return {m: top for m, (_, up) in ends.items() if ends[top][0] > up + eps}


def sure_loss(ends: Mapping[M, tuple[float, float]], move: M, eps: float = 0.0) -> tuple[float, M] | None:
    """What ``move`` surely loses against the best, unrounded: the most by which another move's low end lies above its
    high end (the best is worth at least that low end, ``move`` at most its high end), with that other move; None
    where no other move's bracket lies wholly above its own (by more than ``eps``)."""
    better = surely_better(ends, eps).get(move)
    return None if better is None else (ends[better][0] - ends[move][1], better)


def not_told_apart(means: Mapping[M, float], worse, sign: int) -> tuple[M, ...]:
    """The moves of ``means`` (each move's open-hands mean, side 0's) that no other move is surely better than (not in
    ``worse``), the first by the mean for the mover (``sign``: 1 for side 0, -1 for side 1)."""
    return tuple(sorted((m for m in means if m not in worse), key=lambda m: -sign * means[m]))
