"""Inference: who can hold what, from what one viewer has seen.

At any point of a replayed game (``seen``: the moves seen so far, 0 for the deal only), a viewer (a
seat, or the public) knows his own hand, every tile played so far, every pass (the passer held
nothing that fits the numbers then open), the number of tiles in every hand and among the
sleepers, what the lead shows (:func:`analyzer.rules.lead.reveals`)
and the tiles lying face up (Domino Whist's exposed tiles). A *world* is one placement of every
tile he has not seen into the hands and the sleepers that agrees with all of it. Nothing later in
the record is used, nor that the hand went on after a pass (nobody sees a block).

Counting: each unseen tile may go to some holders (a pass rules a holder out for every tile
carrying an open number) and each holder has a fixed room. The worlds are counted exactly by a
dynamic program. Tiles allowed in the same holders are alike, so the count fills the holders one
at a time from classes of such tiles (its state: how many of each class are left), which gives the
count and the exact probability of every tile in every holder. A program over the tiles one by one
(its state: the room left in each holder) gives exact uniform sampling without rejection (each
tile's holder drawn with the weight of the worlds that complete it) and lists every world when
there are few.

This module knows nothing of the search: a world is plain data (a bit mask per holder) and
:meth:`View.deal` turns it into the hands as dealt, for whoever wants to solve it.
"""
from __future__ import annotations

import dataclasses

from ..i18n import gettext
from ..position import Position, mask_of, tiles_of
from ..rules.mechanics import position_for, turn_up, turned_up
from ..tiles import Tile
from .boneyard import draw_view
from .deals import block_view
from .placements import InferenceUnsupported
from .tabled import table_view
from .worlds import PUBLIC, NoWorld, View, Worlds, describe_step, laid_at_start, whole_hands

__all__ = ["View", "Worlds", "NoWorld", "InferenceUnsupported", "view_at", "worlds_at", "world_position", "holds_table", "holds_of"]


def view_at(rep, seen: int, viewer: int | None = PUBLIC, *, record: bool = False) -> View:
    """What ``viewer`` (a seat, or None for the public) knows after the first ``seen`` moves of the
    replayed game ``rep`` (an :class:`analyzer.replay.Replay`). ``record``: the record's own
    knowledge instead (every hand it shows, fully or partly).

    Raises :class:`NoWorld` when a move before ``seen`` contradicts an earlier pass. In a draw game a
    viewer's worlds are its deals and boneyard orders (:func:`analyzer.inference.boneyard.draw_view`), and so
    are the record's own (``record``: every tile it names drawn known too). A game set up with its table
    known only by counts also lists the tables (:func:`analyzer.inference.tabled.table_view`), over either."""
    by_counts = (getattr(rep, "setup_lacks", None) is not None and rep.initial.ends is not None
                 and not laid_at_start(rep.initial) and bool(rep.initial.pool))
    if rep.variant.drawing is None:
        view = block_view(rep, seen, viewer, record=record)
    else:
        view = dataclasses.replace(draw_view(rep, seen, None if record else viewer, record=record),
                                   whole=whole_hands(rep, seen))
    return table_view(rep, view) if by_counts else view


def worlds_at(rep, seen: int, viewer: int | None = PUBLIC, *, record: bool = False) -> Worlds:
    """The worlds of :func:`view_at`; :class:`NoWorld` (naming the last move seen) when there are none."""
    worlds = view_at(rep, seen, viewer, record=record).worlds()
    if not worlds.count:
        where = gettext("the deal") if seen == 0 else describe_step(rep, rep.steps[seen - 1])
        step = rep.steps[seen - 1] if seen else None
        raise NoWorld(gettext("no deal agrees with the record up to {where}: the tiles left cannot be placed in the "
                              "hands without contradicting a pass or a draw", where=where)
                      if rep.variant.drawing is not None else
                      gettext("no deal agrees with the record up to {where}: the tiles left cannot be placed in the "
                              "hands without contradicting a pass", where=where), None if step is None else step.index,
                      None if step is None else step.entry.pos.line or None)
    return worlds


def world_position(rep, deal: tuple[int, ...], seen: int, order: tuple[Tile, ...] | None = None) -> Position:
    """The position after the first ``seen`` moves of ``rep`` in the world dealt ``deal`` (in a draw
    game, with its boneyard in ``order``: the k-th draw takes ``order[k]``)."""
    variant = rep.variant
    initial = rep.initial
    n = len(rep.players)
    pos = position_for(variant, [tiles_of(deal[s], initial.max_pip) for s in range(n)], initial.turn,
                       max_pip=initial.max_pip)
    pos.pool &= mask_of(variant.dealing.tiles)
    pos.opening = initial.opening
    if getattr(rep, "setup_lacks", None) is not None:
        relay(pos, initial)               # a game set up from a position: its line, its boneyard
    elif (up := turned_up(initial)) is not None:
        turn_up(pos, *up)                 # the line opened by a tile from the boneyard (Starter tag)
    if order is None:
        return dataclasses.replace(rep, initial=pos).position_at(seen)
    pos.pool &= mask_of(order)            # (the rest lies on a table known only by counts: not in the boneyard)
    drawn = 0
    for step in rep.steps[:seen]:
        move = step.move
        if move is None:
            continue
        if move.draw:
            move = dataclasses.replace(move, tile=order[drawn])
            drawn += 1
        pos.turn = step.seat
        pos.push(move)
    if seen < len(rep.steps) and rep.steps[seen].seat is not None and pos.outcome() is None:
        pos.turn = rep.steps[seen].seat
    return pos


def relay(pos: Position, initial: Position) -> None:
    """Lay on ``pos`` (a world's deal at a set-up) the tiles ``initial`` (the set-up's first position) starts
    with, as the set-up laid them (through no hand), and take its boneyard, mover and passes."""
    for move, seat, *_ in initial.history:
        if move.tile is not None:
            pos.pool &= ~move.tile.bit
            pos.hands[seat] |= move.tile.bit
        pos.turn = seat
        pos.push(move)
    if pos.draws:
        pos.stock = initial.stock
        pos.bonus = initial.bonus
    if initial.ends is not None and not initial.history:      # the table by its ends and counts (tiles not named)
        pos.ends = initial.ends
    pos.turn, pos.passes = initial.turn, initial.passes


def holds_table(rep, seen: int, viewer: int | None = PUBLIC) -> tuple[int, dict[str, dict[str, float]]]:
    """The number of worlds after ``seen`` moves for ``viewer`` and, per holder, every tile he may
    hold with its probability (as plain data: holder -> tile text -> probability)."""
    return holds_of(worlds_at(rep, seen, viewer))


def holds_of(worlds: Worlds) -> tuple[int, dict[str, dict[str, float]]]:
    """:func:`holds_table` of worlds already counted (the fair analysis's)."""
    table = {holder: {str(t): float(p) for t, p in sorted(probs.items())}
             for holder, probs in worlds.probabilities().items()}
    return worlds.count, table
