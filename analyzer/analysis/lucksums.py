"""The luck of a game's draws summed per side (or per player, in a game of individuals): readings of the values
:mod:`analyzer.analysis.drawluck` computed, from its :class:`~analyzer.analysis.drawluck.DrawLuck` values (each
with its ``side``, ``points`` and ``mwc``; None where a draw's luck is not known) or from each draw's luck as plain
data, with no search: what the page and the text show of them. (It imports nothing: what reads it reaches no
search.)"""
from __future__ import annotations

from fractions import Fraction

__all__ = ["side_totals", "side_rows", "draw_totals"]


def side_totals(lucks: list, sides: int) -> tuple[list[Fraction], list[float | None]]:
    """The draws' luck per side, in points and in MWC (None where a draw has none), over the draws whose
    luck is known. Two sides: a draw counts for the drawer's side and against the other (a hand is
    zero-sum), so the two totals are opposite. A game of individual players (``sides`` of them): each
    player's own draws, each valued for him against all the others."""
    points = [Fraction(0)] * sides
    mwc: list[float | None] = [0.0] * sides
    for x in lucks:
        if x is None:
            continue
        for side in range(sides) if sides == 2 else (x.side,):
            sign = 1 if side == x.side else -1
            points[side] += sign * x.points
            mwc[side] = None if x.mwc is None or mwc[side] is None else mwc[side] + sign * x.mwc
    return points, mwc


def side_rows(rep, lucks: list) -> list[tuple[str, float, float | None, int]]:
    """Per side of ``rep`` (or player, in a game of individuals) its name, the luck of the draws in points
    and in MWC (None off the match scale) and the draws it made and that were valued (:func:`side_totals`);
    empty when no draw was valued."""
    if all(x is None for x in lucks):
        return []
    two = rep.variant.seating.sides == 2
    names = [rep.side_name(s) for s in range(2)] if two else list(rep.players)
    points, mwc = side_totals(lucks, len(names))
    scaled = all(x is None or x.mwc is not None for x in lucks)
    return [(name, float(p), m if scaled else None, sum(1 for x in lucks if x is not None and x.side == s))
            for s, (name, p, m) in enumerate(zip(names, points, mwc))]


def draw_totals(names: list[str], draws: list[tuple[str, dict | None]]) -> list[tuple[str, float, float | None, int]] | None:
    """Per side (or player) its name, the draws' luck in points and in MWC (None off the match scale) and the draws
    it counts, of the draws valued (``draws``: each its player and its luck as data, None where it is
    missing) of an analysis whose sides are ``names``."""
    if not draws:
        return None
    draws = [{"player": player, "draw_luck": luck} for player, luck in draws]
    two = len(names) == 2

    def side_of(player: str) -> int | None:
        return next((k for k, name in enumerate(names) if player in name.split("/")), None)

    scaled = all(m["draw_luck"] is None or m["draw_luck"]["mwc"] is not None for m in draws) \
        and any(m["draw_luck"] is not None for m in draws)
    out = []
    for k, name in enumerate(names):
        points, mwc, count = 0.0, 0.0 if scaled else None, 0
        for m in draws:
            luck, at = m["draw_luck"], side_of(m["player"])
            if luck is None or at is None or (not two and at != k):
                continue
            sign = 1 if at == k else -1
            points += sign * luck["points"]
            mwc = None if mwc is None else mwc + sign * luck["mwc"]
            count += at == k
        out.append((name, points, mwc, count))
    return out
