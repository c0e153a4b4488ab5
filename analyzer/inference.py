"""Inference: who can hold what, from what one viewer has seen.

At any point of a replayed game (``seen``: the moves seen so far, 0 for the deal only), a viewer (a
seat, or the public) knows his own hand, every tile played so far, every pass (the passer held
nothing that fits the numbers then open), the number of tiles in every hand and among the
sleepers, what the lead shows (:func:`higher_doubles`, :func:`lead_holder`, :func:`lead_lacks`)
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
import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from .diagnostics import DominoError
from .position import Position, mask_of, tiles_of
from .rules.ending import position_for
from .rules.policies import Dealing, LeadRequirement, Opening
from .tiles import Tile

__all__ = ["View", "Worlds", "NoWorld", "InferenceUnsupported", "view_at", "worlds_at", "world_position", "holds_table"]

PUBLIC = None


class NoWorld(DominoError):
    """The record's facts admit no world: a move contradicts what earlier moves proved."""

    def __init__(self, message: str, step: int | None = None, line: int | None = None):
        super().__init__(message)
        self.step = step
        self.line = line


class InferenceUnsupported(DominoError):
    """A game whose worlds this module does not model (a draw game: drawn tiles change hands)."""


@dataclass(frozen=True)
class View:
    """What one viewer knows after ``seen`` moves.

    ``holders`` names each place a tile can be: the players in seat order, then ``"sleepers"`` (or
    ``"boneyard"``) when tiles are left over. ``fixed[h]``: tiles the viewer knows are in holder ``h``
    now; ``room[h]``: how many more tiles it holds that he has not seen. ``unseen``: those tiles;
    ``allowed[i]``: the holders (a bit per holder index) ``unseen[i]`` may be in. ``played[s]``: the
    tiles seat ``s`` played so far, which together with his tiles now make up his deal."""

    viewer: int | None
    seen: int
    holders: tuple[str, ...]
    fixed: tuple[int, ...]
    room: tuple[int, ...]
    unseen: tuple[Tile, ...]
    allowed: tuple[int, ...]
    played: tuple[int, ...]
    players: int
    gone: int = 0                    # unseen tiles that are no longer held (played: see analyzer.boneyard)
    whole: WholeHands | None = None  # what the rules say of whole hands dealt (None: nothing beyond single tiles)

    def deal(self, world: tuple[int, ...]) -> tuple[int, ...]:
        """The hands as dealt (a mask per seat) in ``world``."""
        return tuple(world[s] | self.played[s] for s in range(self.players))

    def order(self, world) -> tuple[Tile, ...] | None:
        """The boneyard's order in ``world`` (None: a game without draws, where no order is drawn)."""
        return None

    def worlds(self) -> Worlds:
        """Every world of this view."""
        return Worlds(self)

    def places(self) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
        """Where the viewer says a tile is: the names, the tiles he knows are in each, and for each
        holder of the counting the place it fills (here the holders themselves)."""
        return self.holders, self.fixed, tuple(range(len(self.holders)))


@dataclass(frozen=True)
class WholeHands:
    """What the rules say of whole hands dealt: the seat that led is one they let lead
    (:meth:`Opening.dealt_leaders`), and under a forced re-deal no hand played held that many doubles."""

    players: int
    max_pip: int
    leader: int | None = None
    opening: Opening | None = None
    requirement: LeadRequirement | None = None
    redeal: Dealing | None = None

    @property
    def by_doubles(self) -> bool:                  # they look at the doubles dealt only
        return self.leader is None or (not self.opening.heaviest_hand and self.requirement.holder_of.is_double)

    def allows(self, dealt: tuple[int, ...]) -> bool:
        """Whether the hands ``dealt`` (a mask per seat) agree with these rules."""
        hands = [set(tiles_of(mask, self.max_pip)) for mask in dealt[:self.players]]
        if self.redeal is not None and any(self.redeal.redeal_due(hand) for hand in hands):
            return False
        if self.leader is None:
            return True
        seats = self.opening.dealt_leaders(hands, self.requirement)
        return seats is None or self.leader in seats


def whole_hands(rep, seen: int) -> WholeHands | None:
    """The :class:`WholeHands` facts of the first ``seen`` moves of ``rep`` (None: none)."""
    variant, n, dealing = rep.variant, len(rep.players), rep.variant.dealing
    redeal = dealing if dealing.redeal and dealing.forced and "Redeal" not in rep.game.tags else None
    lead, leader, req = _lead(rep, max(seen, 1)), None, None       # who leads is known before he does
    if lead is not None and "LeadFrom" not in rep.game.tags:
        req = variant.opening.requirement(rep.game.number, rep.lead)
        weighed = variant.opening.heaviest_hand or (req.or_highest and not dealing.all_dealt(n))
        leader = lead.seat if weighed else None
    return None if redeal is None and leader is None else WholeHands(n, dealing.max_pip, leader, variant.opening,
                                                                     req, redeal)


class _Tally:
    """The placements of ``unseen`` that fill the room left in each holder exactly.

    The count and each tile's weights are counted a class of alike tiles at a time
    (:class:`_Classes`). ``ways(i, room)``, the placements of ``unseen[i:]`` that fill ``room``, is
    the dynamic program tile by tile that sampling and listing walk; it is built only when they ask
    (for the double-nine cross some 400,000 states a move, where the count by classes fills a
    hundred or so)."""

    def __init__(self, unseen: tuple[Tile, ...], allowed: tuple[int, ...], room: tuple[int, ...]):
        self.unseen, self.allowed, self.room = unseen, allowed, room
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._classes = _Classes(allowed, room)
        self.count = self._classes.count

    def ways(self, i: int, room: tuple[int, ...]) -> int:
        key = (i, room)
        known = self._ways.get(key)
        if known is not None:
            return known
        if i == len(self.unseen):
            ways = int(not any(room))
        elif sum(room) != len(self.unseen) - i:
            ways = 0
        else:
            ways = 0
            for h, after in self.steps(i, room):
                ways += self.ways(i + 1, after)
        self._ways[key] = ways
        return ways

    def steps(self, i: int, room: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...]]]:
        """The holders ``unseen[i]`` may go to, with the room left after it."""
        allowed = self.allowed[i]
        for h, left in enumerate(room):
            if left and allowed >> h & 1:
                yield h, room[:h] + (left - 1,) + room[h + 1:]

    def weights(self) -> list[list[int]]:
        """``weights[i][h]``: the placements with ``unseen[i]`` in holder ``h``."""
        return self._classes.weights()

    def sample(self, rng: random.Random, fixed: tuple[int, ...]) -> tuple[int, ...]:
        world = list(fixed)
        room = self.room
        for i, tile in enumerate(self.unseen):
            pick = rng.randrange(self.ways(i, room))
            for h, after in self.steps(i, room):
                pick -= self.ways(i + 1, after)
                if pick < 0:
                    world[h] |= tile.bit
                    room = after
                    break
        return tuple(world)

    def each(self, fixed: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        world = list(fixed)

        def place(i: int, room: tuple[int, ...]):
            if i == len(self.unseen):
                yield tuple(world)
                return
            bit = self.unseen[i].bit
            for h, after in self.steps(i, room):
                if self.ways(i + 1, after):
                    world[h] |= bit
                    yield from place(i + 1, after)
                    world[h] &= ~bit

        if self.count:
            yield from place(0, self.room)


class _Classes:
    """The placements of tiles into holders of fixed room (``allowed[i]``: the holders tile ``i`` may
    go to, a bit each), counted a class of alike tiles at a time.

    Tiles allowed in the same holders are alike: only how many of them each holder gets matters,
    and ``p`` of ``left`` such tiles can go to a holder in ``comb(left, p)`` ways. So the holders are
    filled one at a time, and the state is how many tiles of each class are left. Once a holder is
    filled, classes that differ only in it are alike for the holders after it and become one (a
    class allowed everywhere but in the holders already filled is the same as one allowed
    everywhere). The holders are filled in the order that leaves the fewest classes, so the states
    stay few (a pass or a draw rules a holder out for some tiles, a played tile was in its player's
    hand or draws); the last holder takes what is left.

    ``rest(t, state)``, the ways to fill the holders from the ``t``-th on, does not depend on how
    the state was reached, so it serves every question: the count, and a tile's weight in holder
    ``h``, the placements of the other tiles with ``h``'s room one less (the tiles of its class but
    one, filled up to ``h``, then ``h`` with one tile less, then ``rest``)."""

    def __init__(self, allowed: tuple[int, ...], room: tuple[int, ...]):
        self.allowed, self.room = tuple(allowed), tuple(room)
        self.live = 0                                   # the holders with room
        for h, r in enumerate(self.room):
            if r:
                self.live |= 1 << h
        classes: dict[int, int] = {}
        for mask in self.allowed:
            classes[mask & self.live] = classes.get(mask & self.live, 0) + 1
        self.keys = sorted(classes)
        self.start = tuple(classes[key] for key in self.keys)
        # per holder filled: (holder, the classes it cannot take with their place after it, the classes
        # it can take as one per place after it (-1: none, so all left go to it), their room after)
        self.steps: list[tuple[int, list[tuple[int, int]], list[tuple[int, list[int]]], list[int]]] = []
        keys, rest = self.keys, self.live
        for h in _filling_order(keys, self.live):
            rest &= ~(1 << h)
            after = sorted({key & rest for key in keys if key & rest})
            place = [after.index(key & rest) if key & rest else -1 for key in keys]
            stay = [(j, place[j]) for j, key in enumerate(keys) if not key >> h & 1]
            merged: dict[int, list[int]] = {}
            for j, key in enumerate(keys):
                if key >> h & 1:
                    merged.setdefault(place[j], []).append(j)
            self.steps.append((h, stay, sorted(merged.items()),
                               [sum(self.room[g] for g in range(len(self.room)) if key >> g & 1) for key in after]))
            keys = after
        self._known: dict[tuple[int, tuple[int, ...], int], list[tuple[int, tuple[int, ...]]]] = {}
        self._rest: list[dict[tuple[int, ...], int]] = [{} for _ in range(len(self.steps) + 1)]
        self._rest[-1][()] = 1
        possible = (0 not in classes and sum(self.room) == len(self.allowed)
                    and all(r >= 0 for r in self.room))
        self.count = self.rest(0, self.start) if possible else 0

    def _moves(self, t: int, state: tuple[int, ...], room: int) -> list[tuple[int, tuple[int, ...]]]:
        """Filling the ``t``-th holder with ``room`` tiles from ``state``: ``(ways, state after)``
        for each choice (kept: the count and every class's weights ask for the same ones)."""
        key = (t, state, room)
        known = self._known.get(key)
        if known is None:
            known = self._known[key] = list(self._choices(t, state, room))
        return known

    def _choices(self, t: int, state: tuple[int, ...], room: int) -> Iterator[tuple[int, tuple[int, ...]]]:
        """The choices of :meth:`_moves`. The classes it may take that are one after it are taken
        from as one (``p`` tiles from classes of ``a`` and ``b`` tiles left: ``comb(a + b, p)`` ways,
        the sum of ``comb(a, i) * comb(b, p - i)``)."""
        _, stay, take, caps = self.steps[t]
        base = [0] * len(caps)
        for j, a in stay:
            base[a] += state[j]
        have = [sum(state[j] for j in js) for _, js in take]
        for ways, left in _fill(have, [a < 0 for a, _ in take], room):
            merged = list(base)
            for (a, _), n in zip(take, left):
                if a >= 0:
                    merged[a] += n
            if all(n <= cap for n, cap in zip(merged, caps)):
                yield ways, tuple(merged)

    def rest(self, t: int, state: tuple[int, ...]) -> int:
        """The ways to fill the holders from the ``t``-th on from ``state``."""
        known = self._rest[t].get(state)
        if known is None:
            known = sum(ways * self.rest(t + 1, after)
                        for ways, after in self._moves(t, state, self.room[self.steps[t][0]]))
            self._rest[t][state] = known
        return known

    def short(self, t: int, state: tuple[int, ...]) -> int:
        """The ways to fill the holders from the ``t``-th on from ``state``, one of them with a tile
        less than its room."""
        known = self._short[t].get(state)
        if known is None:
            known = 0
            if t < len(self.steps):
                room = self.room[self.steps[t][0]]
                known = sum(ways * self.short(t + 1, after) for ways, after in self._moves(t, state, room))
                known += sum(ways * self.rest(t + 1, after) for ways, after in self._moves(t, state, room - 1))
            self._short[t][state] = known
        return known

    def weights(self) -> list[list[int]]:
        """``[i][h]``: the placements with tile ``i`` in holder ``h``."""
        self._short: list[dict[tuple[int, ...], int]] = [{} for _ in range(len(self.steps) + 1)]
        rows = {}
        for j, key in enumerate(self.keys):
            row = [0] * len(self.room)
            if self.count:
                layer = {self.start[:j] + (self.start[j] - 1,) + self.start[j + 1:]: 1}
                for t, (h, *_) in enumerate(self.steps):
                    room = self.room[h]
                    nxt: dict[tuple[int, ...], int] = {}
                    for state, reach in layer.items():
                        if key >> h & 1:
                            row[h] += reach * sum(ways * self.rest(t + 1, after)
                                                  for ways, after in self._moves(t, state, room - 1))
                        for ways, after in self._moves(t, state, room):   # one tile short: h is later
                            if self.short(t + 1, after):
                                nxt[after] = nxt.get(after, 0) + reach * ways
                    layer = nxt
            rows[key] = row
        return [list(rows[mask & self.live]) for mask in self.allowed]


def _filling_order(keys: list[int], live: int) -> list[int]:
    """The holders of ``live`` in the order :class:`_Classes` fills them: each time the one after
    which the fewest classes are left (of ``keys``, the holders each class may go to), then the one
    the fewest classes may go to."""
    order = []
    rest = live
    while rest:
        best = None
        for h in range(rest.bit_length()):
            if rest >> h & 1:
                left = rest & ~(1 << h)
                score = (len({key & left for key in keys if key & left}), sum(1 for key in keys if key >> h & 1), h)
                if best is None or score < best:
                    best = score
        order.append(best[2])
        rest &= ~(1 << best[2])
    return order


def _fill(have: list[int], must: list[bool], room: int):
    """The ways to fill a holder of ``room`` from classes of ``have[i]`` alike tiles each (class ``i``
    ``must`` put all its tiles there when no later holder takes it): ``(ways, tiles left of each
    class)`` for each choice of how many each gives."""
    left = list(have)
    spare = [0] * (len(have) + 1)               # the most the classes from i on can give
    for i in range(len(have) - 1, -1, -1):
        spare[i] = spare[i + 1] + have[i]

    def give(i: int, need: int, ways: int):
        if i == len(have):
            if not need:
                yield ways, tuple(left)
            return
        n = have[i]
        low, high = (n, n) if must[i] else (max(0, need - spare[i + 1]), min(n, need))
        for p in range(low, min(high, need) + 1):
            left[i] = n - p
            yield from give(i + 1, need - p, ways * math.comb(n, p))
        left[i] = n

    if room <= spare[0]:
        yield from give(0, room, 1)


HEAVY_STATES = 100_000  # above, a view leaves the heaviest-hand rule out (4 players early in the hand)


class _Heavy(_Tally):
    """The program tile by tile, heaviest first, under the heaviest-hand lead (Hungarian): a state
    also holds each seat's pips so far, and is decided once the leader is surely beaten (no way) or
    no other seat can still pass him (then the plain count follows, in a state of the room alone)."""

    def __init__(self, view: View, whole: WholeHands):
        order = sorted(range(len(view.unseen)), key=lambda i: -view.unseen[i].pips)
        super().__init__(tuple(view.unseen[i] for i in order), tuple(view.allowed[i] for i in order), view.room)
        self.order, self.k, self.whole = order, len(view.room), whole
        self.sums = [sum(t.pips for t in self.unseen[:i]) for i in range(len(order) + 1)]   # the i heaviest
        self.room += tuple(sum(t.pips for t in tiles_of(view.fixed[s] | view.played[s])) for s in range(view.players))
        self.count = self.ways(0, self.room)

    def ways(self, i: int, state: tuple[int, ...]) -> int:
        if len(state) == self.k or (i, state) in self._ways:
            return super().ways(i, state)
        pips, leader, sums = state[self.k:], self.whole.leader, self.sums
        # the most and the fewest pips a seat with room r can still get: the r heaviest, the r lightest left
        most = [p + sums[min(i + r, len(sums) - 1)] - sums[i] for p, r in zip(pips, state)]
        least = [p + sums[-1] - sums[max(len(sums) - 1 - r, i)] for p, r in zip(pips, state)]
        if i == len(self.unseen):
            ways = int(not any(state[:self.k]) and leader in Opening.heaviest_of(dict(enumerate(pips))))
        elif any(low > most[leader] for low in least):
            ways = 0
        elif all(high <= least[leader] for s, high in enumerate(most) if s != leader):
            ways = super().ways(i, state[:self.k])
        elif len(self._ways) > HEAVY_STATES:
            raise InferenceUnsupported("too many deals to weigh the heaviest hand")
        else:
            ways = sum(self.ways(i + 1, after) for _, after in self.steps(i, state))
        self._ways[(i, state)] = ways
        return ways

    def steps(self, i: int, state: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...]]]:
        pips, tile = state[self.k:], self.unseen[i]
        for h, after in super().steps(i, state[:self.k]):
            yield h, after + (pips[:h] + (pips[h] + tile.pips,) + pips[h + 1:] if h < len(pips) else pips)

    def weights(self) -> list[list[int]]:
        out = [[0] * self.k for _ in self.unseen]
        layer = {self.room: 1}
        for i in range(len(self.unseen)):
            nxt: dict[tuple[int, ...], int] = {}
            for state, reach in layer.items():
                for h, after in self.steps(i, state):
                    if self.ways(i + 1, after):
                        out[i][h] += reach * self.ways(i + 1, after)
                        nxt[after] = nxt.get(after, 0) + reach
            layer = nxt
        return [out[self.order.index(j)] for j in range(len(self.order))]


class _Split:
    """A :class:`_Tally` for rules on the doubles dealt only: the unseen doubles placed every way the
    rules allow, and for each the other tiles by the program in the room it leaves (a world is drawn
    by drawing that placement with the weight of the worlds completing it: exact, no rejection)."""

    def __init__(self, view: View, allows, base: _Tally):
        self.unseen, self.room, self._allowed = view.unseen, view.room, view.allowed
        self.doubles = [i for i, t in enumerate(view.unseen) if t.is_double]
        self.rest = [i for i, t in enumerate(view.unseen) if not t.is_double]
        self._tallies: dict[tuple[int, ...], _Tally] = {}
        self.options: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []    # (placed, room left, ways)

        def place(k: int, room: tuple[int, ...], world: list[int]) -> None:
            if k == len(self.doubles):
                ways = self.tally(room).count if allows(world) else 0
                if ways:
                    self.options.append((tuple(world), room, ways))
                return
            i = self.doubles[k]
            for h, after in base.steps(i, room):
                world[h] |= self.unseen[i].bit
                place(k + 1, after, world)
                world[h] &= ~self.unseen[i].bit

        place(0, view.room, list(view.fixed))
        self.count = sum(ways for *_, ways in self.options)

    def tally(self, room) -> _Tally:             # the program of the other tiles in ``room``
        if room not in self._tallies:
            self._tallies[room] = _Tally(tuple(self.unseen[i] for i in self.rest),
                                         tuple(self._allowed[i] for i in self.rest), room)
        return self._tallies[room]

    def weights(self) -> list[list[int]]:
        weights = [[0] * len(self.room) for _ in self.unseen]
        rooms: dict[tuple[int, ...], int] = {}
        for world, room, ways in self.options:
            for i in self.doubles:
                weights[i][next(h for h, mask in enumerate(world) if mask & self.unseen[i].bit)] += ways
            rooms[room] = rooms.get(room, 0) + 1
        for room, times in rooms.items():
            for j, row in enumerate(self.tally(room).weights()):
                for h, w in enumerate(row):
                    weights[self.rest[j]][h] += times * w
        return weights

    def sample(self, rng: random.Random, fixed=None) -> tuple[int, ...]:
        pick = rng.randrange(self.count)
        for world, room, ways in self.options:
            pick -= ways
            if pick < 0:
                break
        return self.tally(room).sample(rng, world)

    def each(self, fixed=None) -> Iterator[tuple[int, ...]]:
        for world, room, _ in self.options:
            yield from self.tally(room).each(world)


class Worlds:
    """Every world of a :class:`View`: counted, weighed tile by tile, sampled or listed.

    Most facts are per tile (passes, the lead, the sizes of hands), so the worlds are the dynamic
    program's. A pass does not show that the hand was not blocked before it: players cannot see a
    block, they pass until every one has passed (000: "ein gesperrtes Spiel - das ist ein Spiel, bei
    dem vier Spieler nacheinander passen"), so a deal in which the hand was already blocked is one the
    passer and the others cannot yet tell apart (the replay takes such passes as the block's).

    Rules on whole hands (:class:`WholeHands`) are no per-tile fact: where they look at the doubles
    only (a forced re-deal, the highest double dealt leading), :class:`_Split` counts, weighs, draws
    and lists the worlds; the heaviest hand leading (Hungarian), :class:`_Heavy`. Both are exact.
    """

    def __init__(self, view: View):
        self.view = view
        self._base = _Tally(view.unseen, view.allowed, view.room)
        self.orders = 1                  # the worlds each placement of the program stands for
        self.count = self._base.count
        whole = view.whole
        if whole is not None:
            try:
                self._base = _Split(view, self._allows, self._base) if whole.by_doubles else _Heavy(view, whole)
            except InferenceUnsupported:
                self.view = dataclasses.replace(view, whole=None)
            self.count = self._base.count

    def _allows(self, world: tuple[int, ...]) -> bool:
        return self.view.whole.allows(View.deal(self.view, world))      # (the masks, also of a draw game)

    def probabilities(self) -> dict[str, dict[Tile, Fraction]]:
        """The exact probability of every tile being in every holder (tiles the viewer saw there: 1)."""
        view = self.view
        names, known, owner = view.places()
        out: dict[str, dict[Tile, Fraction]] = {name: {} for name in names}
        for h, name in enumerate(names):
            for t in tiles_of(known[h]):
                out[name][t] = Fraction(1)
        if not self.count:
            return out
        count = self.count // self.orders
        weights = self._base.weights()
        for i, tile in enumerate(view.unseen):
            if tile.bit & view.gone:
                continue
            for h, w in enumerate(weights[i]):
                if w:
                    name = names[owner[h]]
                    out[name][tile] = out[name].get(tile, 0) + Fraction(w, count)
        return out

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """One world drawn uniformly (a mask per holder)."""
        if not self.count:
            raise NoWorld("no world fits what the viewer has seen")
        return self._base.sample(rng, self.view.fixed)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        """Every world, each once."""
        if self.count:
            yield from self._base.each(self.view.fixed)


def view_at(rep, seen: int, viewer: int | None = PUBLIC, *, record: bool = False) -> View:
    """What ``viewer`` (a seat, or None for the public) knows after the first ``seen`` moves of the
    replayed game ``rep`` (an :class:`analyzer.replay.Replay`). ``record``: the record's own
    knowledge instead (every hand it shows, fully or partly).

    Raises :class:`NoWorld` when a move before ``seen`` contradicts an earlier pass. In a draw game a
    viewer's worlds are its deals and boneyard orders (:func:`analyzer.boneyard.draw_view`); the
    record's own (``record``) are not listed there: :class:`InferenceUnsupported`."""
    variant = rep.variant
    if variant.drawing is not None:
        if record:
            raise InferenceUnsupported("the record's own worlds are not listed for draw games")
        from .boneyard import draw_view
        return dataclasses.replace(draw_view(rep, seen, viewer), whole=whole_hands(rep, seen))
    n = len(rep.players)
    initial: Position = rep.initial
    every = mask_of(variant.dealing.tiles)
    played = [0] * n
    counts = [initial.count(s) for s in range(n)]
    lacks = [0] * n                      # a mask per seat of the tiles his passes rule out
    passes: list[tuple[int, int, str]] = []      # (seat, tiles ruled out, what proved it)
    runs = variant.turns == "run"
    last = None                          # the move before: a run ends when the turn passes after a play

    def run_ended(step, fit: int) -> None:
        # Hungarian (004): a player plays as many tiles as he can, so when the turn passes after his
        # play he held no tile that could be laid then
        if runs and last is not None and last.seat != step.seat and last.move.is_play and fit:
            passes.append((last.seat, fit, f"the end of his run before {_describe(rep, step)}"))
            lacks[last.seat] |= fit

    for j, step, _pos, fit in _moves_seen(rep, seen):
        move, seat = step.move, step.seat
        run_ended(step, fit)
        if move.tile is not None:
            if lacks[seat] & move.tile.bit:
                proof = next(what for s_, mask, what in passes if s_ == seat and mask & move.tile.bit)
                raise NoWorld(f"{rep.players[seat]} plays {move.tile} at {_describe(rep, step)}, but {proof} proved he "
                              "held no tile that could be played then: no deal agrees with the record", step.index,
                              step.entry.pos.line or None)
            played[seat] |= move.tile.bit
            counts[seat] -= 1
        elif fit:
            passes.append((seat, fit, f"his pass at {_describe(rep, step)}"))
            lacks[seat] |= fit
        last = step
    if runs and last is not None and seen < len(rep.steps) and rep.steps[seen].move is not None:
        after = rep.position_at(seen)    # the player to move now: the turn has passed to him
        run_ended(rep.steps[seen], _fitting(after, variant) if after.ends is not None else 0)
    on_table = 0
    for mask in played:
        on_table |= mask
    higher = higher_doubles(rep, seen)
    no_double = lead_lacks(rep, seen)
    for s in range(n):
        lacks[s] |= higher | no_double.get(s, 0)
    stock = len(variant.dealing.tiles) - sum(initial.count(s) for s in range(n))
    holders = list(rep.players)
    if stock > 0:
        holders.append("boneyard" if variant.drawing is not None else "sleepers")
    fixed = [0] * len(holders)
    for s in range(n):
        if record or s == viewer:
            fixed[s] = initial.hands[s] & ~played[s]
    holder = lead_holder(rep, seen)
    if holder is not None and not holder[1] & on_table:
        fixed[holder[0]] |= holder[1]         # the leader announced it (or handed the lead for it)
    for s, bit in _exposed(rep, seen):
        if not bit & on_table and not any(bit & fixed[h] for h in range(n) if h != s):
            fixed[s] |= bit                   # it lies face up on the table (Domino Whist §8)
    room = [counts[s] - fixed[s].bit_count() for s in range(n)] + ([stock] if stock > 0 else [])
    known = on_table
    for mask in fixed:
        known |= mask
    unseen = tuple(tiles_of(every & ~known, initial.max_pip))
    allowed = []
    for tile in unseen:
        bits = 0
        for h in range(len(holders)):
            if room[h] > 0 and not (h < n and lacks[h] & tile.bit):
                bits |= 1 << h
        allowed.append(bits)
    return View(viewer, seen, tuple(holders), tuple(fixed), tuple(room), unseen, tuple(allowed),
                tuple(played), n, whole=whole_hands(rep, seen))


def _moves_seen(rep, seen: int) -> Iterator[tuple[int, object, Position, int]]:
    """Each move of the first ``seen`` steps: ``(j, step, position before it, tiles that could be
    laid then)``; the position goes on past the move once the caller has looked."""
    pos = rep.initial.copy()
    for j, step in enumerate(rep.steps[:seen]):
        if step.move is None or step.seat is None:
            continue
        pos.turn = step.seat
        yield j, step, pos, _fitting(pos, rep.variant) if pos.ends is not None else 0
        pos.push(step.move)


def higher_doubles(rep, seen: int) -> int:
    """The doubles no hand was dealt: those above a double led (in the first ``seen`` moves) as the
    highest one dealt."""
    lead = next((st for st in rep.steps[:seen] if st.move is not None and st.move.is_play), None)
    op = rep.variant.opening
    if lead is None or not lead.move.tile.is_double or not (
            op.highest_double or (op.first_highest and rep.game.number == 1 and rep.lead is None)):
        return 0
    return mask_of(t for t in rep.variant.dealing.tiles if t.is_double and t > lead.move.tile)


def _exposed(rep, seen: int) -> list[tuple[int, int]]:
    """The tiles lying face up by the time of move ``seen`` (Domino Whist §8, the ``Exposed`` tag:
    "so muss dieser Stein offen auf dem Tisch liegen bleiben"): (holder, tile bit) each."""
    if not rep.variant.irregularities or "Exposed" not in rep.game.tags:
        return []
    from .rules.irregularities import exposed_tiles

    rounds = [st.entry.round for st in rep.steps[:seen + 1] if st.entry.round is not None]
    initial = rep.initial
    return [(s, tile.bit) for s, tile, row in exposed_tiles(rep.game, rep.players)
            if (not row or any(r >= row for r in rounds))
            and (initial.hidden[s] or initial.hands[s] & tile.bit)]     # (else the tag is wrong: reported)


def _lead(rep, seen: int):
    return next((st for st in rep.steps[:seen] if st.move is not None and st.move.is_play), None)


def lead_holder(rep, seen: int) -> tuple[int, int] | None:
    """The seat the lead (in the first ``seen`` moves) shows holds a tile he did not lead, and that
    tile (a bit): where the rules have the holder of a tile lead with any tile (002: "In informeller
    Runde kann der Besitzer der [6-6] ansagen, dass er die Doppelsechs hat und dann einen beliebigen
    Stein spielen"; a match's game led by the [6-6] holder), everybody knows the leader holds it, or,
    when he handed the lead to his partner (``LeadFrom``), the one who handed it. None when the lead
    shows nothing more than the tile led."""
    lead = _lead(rep, seen)
    req = rep.variant.opening.requirement(rep.game.number, rep.lead)
    if lead is None or req.holder_of is None or req.tile is not None:
        return None
    if req.or_highest and not rep.variant.dealing.all_dealt(len(rep.players)):
        return None                      # it may lie in the boneyard: then the highest double dealt leads
    seat = lead.seat
    giver = rep.game.tags.get("LeadFrom")
    if giver is not None:
        if giver.strip() not in rep.players:
            return None
        seat = rep.players.index(giver.strip())
    return seat, req.holder_of.bit


def lead_lacks(rep, seen: int) -> dict[int, int]:
    """The tiles the lead (in the first ``seen`` moves) shows a seat was not dealt: where every hand
    opens with a double unless the leading side holds none (000: "dass jedes Spiel mit einem Doppel
    beginnen muss, es sei denn, dass keiner der Spieler des beginnenden Spiels ein solches hat"), a
    lead that is no double shows that neither the leader nor his partner holds one."""
    lead = _lead(rep, seen)
    if (lead is None or not rep.variant.opening.double or lead.move.tile.is_double
            or "LeadFrom" in rep.game.tags or rep.variant.opening.requirement(rep.game.number, rep.lead).tile is not None):
        return {}
    doubles = mask_of(t for t in rep.variant.dealing.tiles if t.is_double)
    teams = rep.variant.seating.teams
    return {s: doubles for s in range(len(rep.players)) if teams[s] == teams[lead.seat]}


def _fitting(pos: Position, variant) -> int:
    """The tiles of the set that could be laid on ``pos`` now (whoever held them)."""
    return mask_of(t for t in variant.dealing.tiles if pos.placements(t))


def worlds_at(rep, seen: int, viewer: int | None = PUBLIC, *, record: bool = False) -> Worlds:
    """The worlds of :func:`view_at`; :class:`NoWorld` (naming the last move seen) when there are none."""
    worlds = view_at(rep, seen, viewer, record=record).worlds()
    if not worlds.count:
        where = "the deal" if seen == 0 else _describe(rep, rep.steps[seen - 1])
        step = rep.steps[seen - 1] if seen else None
        proofs = "a pass or a draw" if rep.variant.drawing is not None else "a pass"
        raise NoWorld(f"no deal agrees with the record up to {where}: the tiles left cannot be placed in the "
                      f"hands without contradicting {proofs}", None if step is None else step.index,
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
    if order is None:
        return dataclasses.replace(rep, initial=pos).position_at(seen)
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


def _line(step) -> str:
    return f" (line {step.entry.pos.line})" if step.entry.pos.line else ""


def _describe(rep, step) -> str:
    return f"move {step.index + 1} ({step.entry.player} {step.entry.text}{_line(step)})"


def holds_table(rep, seen: int, viewer: int | None = PUBLIC) -> tuple[int, dict[str, dict[str, float]]]:
    """The number of worlds after ``seen`` moves for ``viewer`` and, per holder, every tile he may
    hold with its probability (as plain data: holder -> tile text -> probability)."""
    worlds = worlds_at(rep, seen, viewer)
    table = {holder: {str(t): float(p) for t, p in sorted(probs.items())}
             for holder, probs in worlds.probabilities().items()}
    return worlds.count, table


def decided_result(rep, limit: int = 1000):
    """The result of a finished hand whose record hides tiles still held at the end, when every deal
    the record allows (at most ``limit`` of them) gives the same winner and points; else None."""
    from .replay import hand_facts

    if rep.outcome is None or len(rep.players) != rep.variant.players:
        return None
    seen = len(rep.steps)
    try:
        worlds = worlds_at(rep, seen, record=True)
    except (NoWorld, InferenceUnsupported):
        return None
    if worlds.count > limit:
        return None
    leader = next((st.seat for st in rep.steps if st.move is not None and st.move.tile is not None), 0)
    found = None
    for world in worlds:
        pos = world_position(rep, worlds.view.deal(world), seen)
        result = rep.variant.hand_result(hand_facts(pos, rep.outcome.termination, rep.outcome.seat, leader,
                                                    rep.scores))
        if found is not None and (result.winner, result.points) != (found.winner, found.points):
            return None
        found = result
    return found
