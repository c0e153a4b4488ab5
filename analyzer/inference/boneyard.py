"""Inference in draw games: who can hold what, and in what order the boneyard lies.

In a draw game a world fixes more than the hands: each tile a player drew came from the boneyard,
and the tiles nobody has drawn yet lie in an order that decides every later draw. A world is the
deal and the whole order of the boneyard; every world that agrees with what the viewer saw weighs
the same (the deal and the order are uniform before play).

What the viewer sees: his own hand, the tiles he drew, every tile played, and that the others drew
(not what). What it proves: before every draw, and at every pass, the mover held no tile that
could be laid then. A tile a player holds was either dealt to him or drawn at one of his draws, so
each unseen tile (and each tile another player played: it may have been dealt or drawn) is placed
in a *slot*: a player's dealt hand, one of his draws, or the part of the boneyard nobody has drawn.
A tile may sit in a slot when none of its player's passes and draws while it was in his hand rules
it out (a dealt tile is held from the deal, a drawn one from its draw; a played one until it was
played). The counting is the same dynamic program as for block games (:class:`analyzer.inference.Worlds`),
over these slots: the draws of one player that no fact tells apart are one holder whose tiles
may lie in any order among them, as may the undrawn tiles, so the worlds are the program's count
times those orders; sampling draws the program's world, then each order uniformly.
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Iterator

from ..i18n import gettext
from ..position import mask_of, tiles_of

from ..tiles import Tile
from .worlds import NoWorld, View, Worlds, describe_step, laid_at_start, lead_revealed, moves_again, moves_seen

__all__ = ["DrawView", "DrawWorlds", "draw_view", "hands_after"]


@dataclass(frozen=True)
class DrawView(View):
    """The view of a draw game (see the module). Its holders are the slots: each seat's dealt hand,
    then groups of draws, then the undrawn boneyard (always last). ``draws[k]``: the holder of the
    k-th draw seen, or -1 when the viewer saw its tile, which is then ``drawn[k]``. ``owner[h]``: the
    index in ``names`` (the players, then ``"boneyard"``) of the hand or the boneyard holder ``h`` fills.
    ``now[i]``: the viewer's tiles in ``names[i]`` after ``seen`` moves; ``gone``: the tiles already
    played, which the program places but nobody holds any more."""

    draws: tuple[int, ...] = ()
    drawn: tuple[Tile | None, ...] = ()
    owner: tuple[int, ...] = ()
    names: tuple[str, ...] = ()
    now: tuple[int, ...] = ()

    def deal(self, world) -> tuple[int, ...]:
        return tuple(world[0][:self.players])

    def order(self, world) -> tuple[Tile, ...]:
        return world[1]

    def worlds(self) -> DrawWorlds:
        return DrawWorlds(self)

    def places(self) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
        return self.names, self.now, self.owner


class DrawWorlds(Worlds):
    """The worlds of a :class:`DrawView`: each is ``(masks, order)``, a mask per slot holder and the
    boneyard's whole order (the tiles drawn so far, in turn, then the undrawn ones)."""

    def __init__(self, view: DrawView):
        super().__init__(view)
        for h, room in enumerate(view.room):        # the orders of the grouped draws and the undrawn tiles
            if h >= view.players:
                self.orders *= math.factorial(room)
        self.count *= self.orders

    def sample(self, rng: random.Random):
        masks = super().sample(rng)
        lists = [tiles_of(m) for m in masks]
        for h in range(self.view.players, len(lists)):
            rng.shuffle(lists[h])
        return masks, self._order(lists)

    def placements(self) -> Iterator:
        """The placements of the tiles (a mask per slot holder), each once: a world of each, whatever its order
        (each stands for :attr:`orders` worlds)."""
        return super().__iter__()

    def __iter__(self) -> Iterator:
        view = self.view
        for masks in self.placements():
            groups = range(view.players, len(masks))
            for lists in itertools.product(*(itertools.permutations(tiles_of(masks[h])) for h in groups)):
                yield masks, self._order(list(masks[:view.players]) + [list(x) for x in lists])

    def _order(self, lists: list[list[Tile]]) -> tuple[Tile, ...]:
        """The boneyard's order from each group's tiles in the order they are drawn."""
        view = self.view
        taken = [0] * len(lists)
        order = []
        for h, tile in zip(view.draws, view.drawn):
            if h >= 0:
                tile = lists[h][taken[h]]
                taken[h] += 1
            order.append(tile)
        return tuple(order) + tuple(lists[-1])


def draw_view(rep, seen: int, viewer: int | None, *, record: bool = False) -> DrawView:
    """What ``viewer`` (a seat, or None for the public) knows after ``seen`` moves of a draw game. ``record``:
    the record's own knowledge instead: every hand it shows (wholly or partly) and every tile it names drawn
    (a sheet that writes no hand: the deals the whole record allows, :mod:`analyzer.inference.sheet`)."""
    variant = rep.variant
    initial = rep.initial
    n = len(rep.players)
    events: list[list[tuple[int, int]]] = [[] for _ in range(n)]   # (step, tiles that fit): held none of them
    plays: dict[Tile, tuple[int, int]] = {}                         # tile -> (seat, step)
    draws: list[tuple[int, int, Tile | None]] = []                  # (step, seat, the tile if the viewer saw it)
    for j, step, pos, fit in moves_seen(rep, seen):
        move, seat = step.move, step.seat
        if move.draw:
            events[seat].append((j, fit))
            draws.append((j, seat, move.tile if seat == viewer or record else None))
        elif move.tile is not None:
            plays[move.tile] = (seat, j)
        elif fit:
            events[seat].append((j, fit))
    shown = lead_revealed(rep, seen)
    higher = shown.absent
    known = initial.hands[viewer] if viewer is not None else 0
    if record:
        viewer = None
        for s in range(n):
            known |= initial.hands[s]
    for _, _, tile in draws:
        if tile is not None:
            known |= tile.bit
    opened = laid_at_start(initial)     # a tile turned up from the boneyard (Starter tag), a set-up's line
    items = tuple(tiles_of(mask_of(variant.dealing.tiles) & ~known & ~opened, initial.max_pip))

    def clear(seat: int, start: int, end: int, bit: int) -> bool:
        """Whether no pass or draw of ``seat`` strictly between steps ``start`` and ``end`` rules out ``bit``."""
        return not any(start < e < end and fit & bit for e, fit in events[seat])

    # each unseen draw's column: may item i lie there?
    slots = [(k, j, seat) for k, (j, seat, tile) in enumerate(draws) if tile is None]
    columns = {}
    for k, j, seat in slots:
        column = []
        for tile in items:
            by, at = plays.get(tile, (seat, seen))
            column.append(by == seat and j < at and clear(seat, j, at, tile.bit))
        columns[k] = (seat, tuple(column))
    groups: list[tuple[int, tuple[bool, ...]]] = sorted(set(columns.values()))
    holders = list(rep.players) + [f"{rep.players[seat]}'s draws" for seat, _ in groups] + ["boneyard"]
    bone = len(holders) - 1
    room = [initial.count(s) - (initial.hands[s].bit_count() if s == viewer or record else 0) for s in range(n)]
    room += [sum(1 for c in columns.values() if c == g) for g in groups] + [initial.stock - len(draws)]
    fixed = [known & initial.hands[s] if s == viewer or record else 0 for s in range(n)] + [0] * (len(groups) + 1)
    allowed = []
    for i, tile in enumerate(items):
        bits = 0
        by, at = plays.get(tile, (None, seen))
        for s in range(n):
            if (room[s] and (by is None or by == s) and not tile.bit & (higher | shown.lacks.get(s, 0))
                    and clear(s, -1, at, tile.bit)):
                bits |= 1 << s
        for g, (_, column) in enumerate(groups):
            if column[i]:
                bits |= 1 << (n + g)
        if by is None:
            bits |= 1 << bone
        if shown.holder is not None and shown.holder[1] == tile.bit:
            bits &= 1 << shown.holder[0]       # dealt to him: he leads as its holder
        elif not bits:
            raise _unplayable(rep, tile, by, at, events[by])
        allowed.append(bits)
    gone = mask_of(plays)
    owner = tuple(list(range(n)) + [seat for seat, _ in groups] + [n])
    again = moves_again(rep, seen)       # (his own slots: what he was dealt and every draw of his)
    must = None if again is None else (sum(1 << h for h, s in enumerate(owner) if s == again[0]), again[1], 0)
    now = [0] * (n + 1)
    if viewer is not None:
        now[viewer] = known & ~gone
    elif record:
        for s in range(n):
            now[s] = initial.hands[s] & ~gone
    return DrawView(viewer, seen, tuple(holders), tuple(fixed), tuple(room), items, tuple(allowed), (0,) * n, n, gone,
                    draws=tuple(-1 if tile is not None else n + groups.index(columns[k])
                                for k, (_, _, tile) in enumerate(draws)),
                    drawn=tuple(tile for _, _, tile in draws),
                    owner=owner, names=tuple(rep.players) + ("boneyard",), now=tuple(now), must=must)


def hands_after(deal: tuple[int, ...], order, events) -> tuple[int, ...]:
    """Every hand (a mask per seat) of ``deal`` after ``events``: ``(seat, bit)`` a play of that tile, ``(seat,
    None)`` a draw of the next tile of the boneyard's ``order``."""
    hands = list(deal)
    drawn = 0
    for seat, bit in events:
        if bit is None:
            hands[seat] |= order[drawn].bit
            drawn += 1
        else:
            hands[seat] &= ~bit
    return tuple(hands)


def _unplayable(rep, tile: Tile, seat: int, at: int, events: list[tuple[int, int]]) -> NoWorld:
    """The error for a tile played by a player who, by his passes and draws, cannot have held it."""
    step = rep.steps[at]
    proof = max((e for e, fit in events if e < at and fit & tile.bit), default=None)
    words = {"player": rep.players[seat], "tile": tile, "move": describe_step(rep, step)}
    if proof is None:
        text = gettext("{player} plays {tile} at {move}: no deal agrees with the record", **words)
    elif rep.steps[proof].move.draw:
        text = gettext("{player} plays {tile} at {move}, but {player}'s draw at {proof} proved that hand held no tile "
                       "that could be laid then, and no later draw of it can have brought it: no deal agrees with the "
                       "record", proof=describe_step(rep, rep.steps[proof]), **words)
    else:
        text = gettext("{player} plays {tile} at {move}, but {player}'s pass at {proof} proved that hand held no tile "
                       "that could be laid then, and no later draw of it can have brought it: no deal agrees with the "
                       "record", proof=describe_step(rep, rep.steps[proof]), **words)
    return NoWorld(text, step.index, step.entry.pos.line or None)
