"""Domino Whist §8, exposed tiles, in the repair search.

The checkers ask the rule as the replayer does: the lean checker keeps the live exposed tiles in its
state and asks :func:`analyzer.position.exposed_turn` at every play (the one reading of "bei der ersten
Gelegenheit ... gespielt werden"), the position path asks the judge. Tiles exposed before play lie open
in the state before the lead (the replayer's own, :class:`analyzer.repair.deal.Deal`). Tiles exposed
during play (``[Exposed "C [0-4] from 5"]``) lie open from the first entry of their row on, so where
they come to lie open depends on the row numbers the repaired record gives its moves (an inserted or
deleted row renumbers the rows after it): :func:`reveals` finds those entries on the row numbers the
builder writes, as the replayer finds them in the record it confirms.
"""
from __future__ import annotations

from typing import Iterator

from ..record import HandEntry
from ..rules import Variant
from ..rules.irregularities import exposed_tiles


def exposed_rows(game, variant: Variant, players: tuple[str, ...],
                 hands: tuple[HandEntry, ...] | None = None) -> tuple[tuple[int, int], ...]:
    """The tiles the Exposed tag lays open during play: ``(row, tiles)``; with ``hands``, only tiles
    in the hand their holder was dealt there (the replayer ignores any other: ``bad-exposed``)."""
    if not variant.irregularities or not game.tags.get("Exposed", "").strip():
        return ()
    dealt = {h.player: set(h.tiles or ()) for h in hands or ()}
    rows: dict[int, int] = {}
    for seat, tile, row in exposed_tiles(game, players):
        if row and (hands is None or tile in dealt.get(players[seat], ())):
            rows[row] = rows.get(row, 0) | tile.bit
    return tuple(rows.items())


def reveals(rows: tuple[tuple[int, int], ...], rounds: Iterator[int | None], first: bool = True) -> Iterator[int]:
    """For each entry in turn, of moves with the row numbers ``rounds``, the tiles exposed during play
    that come to lie open at it (0: none): a row's tiles at the first entry of that row or a later one
    (an entry without a number counts as later), as the replayer's ``_Replayer.expose`` lays them open.
    ``first``: the first number is the record's first entry's; else it is the entry before the ones
    asked about (it only tells whether their row began earlier)."""
    bound = [False] * len(rows)
    if not first:
        before = next(rounds, None)
        bound = [before is None or before >= row for row, _ in rows]
    for rnd in rounds:
        tiles = 0
        for k, (row, bits) in enumerate(rows):
            now = rnd is None or rnd >= row
            if now and not bound[k]:
                tiles |= bits
            bound[k] = now
        yield tiles
