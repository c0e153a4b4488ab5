"""Placements of unseen tiles into holders of fixed room, for :mod:`analyzer.inference`: counted,
weighed tile by tile, drawn and listed exactly.

:class:`Placements` places the tiles a class of alike tiles at a time (:class:`_Classes`). The rules on
whole hands dealt (:class:`analyzer.inference.WholeHands`) are kept exactly by two programs on top of
it: :class:`DoublesFirst` places the unseen doubles first (rules on doubles only: a forced re-deal, the
highest double dealt leading) and :class:`HeaviestFirst` keeps each hand's pips as it places the tiles,
heaviest first (the heaviest hand leads: Hungarian). A ``view`` here is an
:class:`analyzer.inference.View` (only its fields are read).
"""
from __future__ import annotations

import itertools
import math
import random
from typing import Iterator

from ..diagnostics import DominoError
from ..i18n import gettext
from ..position import mask_pips
from ..rules.lead import heaviest_of
from ..tiles import Tile, tile_set
from .meter import WORLD_STEPS, current_meter

__all__ = ["InferenceUnsupported", "HEAVY_STATES", "Placements", "HeaviestFirst", "DoublesFirst", "Cases"]


class InferenceUnsupported(DominoError):
    """A game whose worlds this module does not model (a draw game: drawn tiles change hands)."""


class Placements:
    """The placements of ``unseen`` that fill the room left in each holder exactly.

    The count and each tile's weights are counted a class of alike tiles at a time
    (:class:`_Classes`). ``ways(i, room)``, the placements of ``unseen[i:]`` that fill ``room``, is
    the dynamic program tile by tile that sampling and listing walk; it is built only when they ask
    (for the double-nine cross some 400,000 states a move, where the count by classes fills a
    hundred or so)."""

    def __init__(self, unseen: tuple[Tile, ...], allowed: tuple[int, ...], room: tuple[int, ...]):
        self.unseen, self.allowed, self.room = unseen, allowed, room
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[tuple[int, tuple[int, ...]], tuple] = {}
        self._classes = _Classes(allowed, room)
        self.count = self._classes.count

    def ways(self, i: int, room: tuple[int, ...]) -> int:
        key = (i, room)
        known = self._ways.get(key)
        if known is not None:
            return known
        meter = current_meter()      # (each state filled is a step of a metered caller's, the caller's now: see .meter)
        if meter is not None:
            meter.charge()
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
        choices = self._choices
        for i, tile in enumerate(self.unseen):
            step = choices.get((i, room)) or self._choose(i, room)
            pick = rng.randrange(step[0])
            for h, after, ways in step[1]:
                pick -= ways
                if pick < 0:
                    world[h] |= tile.bit
                    room = after
                    break
        return tuple(world)

    def _choose(self, i: int, room: tuple[int, ...]) -> tuple[int, list[tuple[int, tuple[int, ...], int]]]:
        """``(ways, [(holder, room after, ways after)])`` of ``unseen[i]`` with ``room`` left: the holders
        it may go to that leave a placement, in order (kept: each sample of a decision's worlds walks
        the same few states)."""
        step = self._choices[i, room] = (self.ways(i, room), [(h, after, w) for h, after in self.steps(i, room)
                                                               if (w := self.ways(i + 1, after))])
        return step

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


# Above this many states (about half a second) a view leaves the heaviest-hand rule out: three or four
# hands unseen early in the hand (the public view, four players) need hundreds of thousands, and each
# view that gives up has paid for the states it tried (at 100,000, `replay --view public` of the 3-player
# variant-hungarian.dom took 23 s, 2 s a move); a seat's view of 3 players needs 19,000 at most there.
HEAVY_STATES = 25_000


class HeaviestFirst(Placements):
    """The program tile by tile, heaviest first, under the heaviest-hand lead (Hungarian): a state
    also holds each seat's pips so far, and is decided once the leader is surely beaten (no way) or
    no other seat can still pass him (then the plain count follows, in a state of the room alone)."""

    def __init__(self, view, whole):
        order = sorted(range(len(view.unseen)), key=lambda i: -view.unseen[i].pips)
        super().__init__(tuple(view.unseen[i] for i in order), tuple(view.allowed[i] for i in order), view.room)
        self.order, self.k, self.whole = order, len(view.room), whole
        self.sums = [sum(t.pips for t in self.unseen[:i]) for i in range(len(order) + 1)]   # the i heaviest
        self.room += tuple(mask_pips(view.fixed[s] | view.played[s]) for s in range(view.players))
        self.decided: set[tuple[int, tuple[int, ...]]] = set()     # states counted by their room alone
        self.count = self.ways(0, self.room)

    def ways(self, i: int, state: tuple[int, ...]) -> int:
        known = self._ways.get((i, state))
        if known is not None:
            return known
        if len(state) == self.k:
            return super().ways(i, state)
        meter = current_meter()      # (each state filled is a step of a metered caller's, the caller's now: see .meter)
        if meter is not None:
            meter.charge()
        pips, leader, sums = state[self.k:], self.whole.leader, self.sums
        # the most and the fewest pips a seat with room r can still get: the r heaviest, the r lightest left
        most = [p + sums[min(i + r, len(sums) - 1)] - sums[i] for p, r in zip(pips, state)]
        least = [p + sums[-1] - sums[max(len(sums) - 1 - r, i)] for p, r in zip(pips, state)]
        if i == len(self.unseen):
            ways = int(not any(state[:self.k]) and leader in heaviest_of(dict(enumerate(pips))))
        elif any(low > most[leader] for low in least):
            ways = 0
        elif all(high <= least[leader] for s, high in enumerate(most) if s != leader):
            ways = super().ways(i, state[:self.k])
            self.decided.add((i, state))
        elif len(self._ways) > HEAVY_STATES:
            raise InferenceUnsupported(gettext("too many deals to weigh the heaviest hand"))
        else:
            ways = sum(self.ways(i + 1, after) for _, after in self.steps(i, state))
        self._ways[(i, state)] = ways
        return ways

    def steps(self, i: int, state: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...]]]:
        pips, tile = state[self.k:], self.unseen[i]
        for h, after in super().steps(i, state[:self.k]):
            yield h, after + (pips[:h] + (pips[h] + tile.pips,) + pips[h + 1:] if h < len(pips) else pips)

    def weights(self) -> list[list[int]]:
        """Forward over the states the count reached; a state it decided (the leader stays heaviest
        whatever follows) goes on as its room alone, as the count did, so the placements after it are
        walked once a room, not once for every way of reaching it with other pips."""
        out = [[0] * self.k for _ in self.unseen]
        layer = {self.room: 1}
        for i in range(len(self.unseen)):
            nxt: dict[tuple[int, ...], int] = {}
            for state, reach in _merge_decided(layer, i, self.decided, self.k).items():
                for h, after in self.steps(i, state):
                    ways = self.ways(i + 1, after)
                    if ways:
                        out[i][h] += reach * ways
                        nxt[after] = nxt.get(after, 0) + reach
            layer = nxt
        return [out[self.order.index(j)] for j in range(len(self.order))]


def _merge_decided(layer: dict[tuple[int, ...], int], i: int, decided: set, k: int) -> dict[tuple[int, ...], int]:
    """``layer`` (state: ways to reach it) with each decided state (and each state of a room alone)
    replaced by its room, the reaches of one room added."""
    out: dict[tuple[int, ...], int] = {}
    for state, reach in layer.items():
        if len(state) > k and (i, state) in decided:
            state = state[:k]
        out[state] = out.get(state, 0) + reach
    return out


# The most (hand, number) pairs that may still make a new deal's suit for which DoublesFirst makes the suit's cases
# for each placement of the doubles (what draws, weights and the count by how a hand ends walk): past it (the public
# view early in a hand whose hands are all unknown: up to 28 pairs, some 4,000 placements, half a minute of cases) a
# placement's ways are the plain program's. The count itself is exact at any number (:meth:`DoublesFirst._by_cases`:
# records/match-kozel.dom's public view at the deal, 28 pairs, 0.2-0.5 CPU s: bench/timings/kozel-count-80.txt).
SUIT_EVENTS = 14


class DoublesFirst:
    """A :class:`Placements` for rules on the doubles dealt only: the unseen doubles placed every way the
    rules allow, and for each the other tiles by the program in the room it leaves (a world is drawn
    by drawing that placement with the weight of the worlds completing it).

    Where the rule looks at how many doubles each hand holds and nothing else (a forced new deal for so many
    doubles, no leader to place: Kozel), the count is counted, not listed: the doubles placed one by one into
    the rooms left (:meth:`_by_rooms`: the ways of reaching each room, whichever doubles went where), each room
    the rule allows times the other tiles' ways in it, as the listing sums them placement by placement. The
    placements themselves (``options``) are listed where weights, draws or a listing ask.

    A new deal's suit (Kozel: six tiles or more of one number in a hand) is judged on the whole hand: a hand
    that may still reach it (:func:`_suits`: its tiles of the number shown, played and placed, and the unseen
    ones it may hold, within its room) is a case the other tiles' ways leave out, by inclusion and exclusion
    over those cases (:meth:`completions`: signed programs, each with the tiles of the number that hand holds
    fixed); where no hand may reach one, the plain program, at the rooms method's speed. The count itself makes
    those cases over every unseen tile at once (:meth:`_by_cases`: the doubles for a new deal a case of their own,
    alike tiles counted as one); the placements listed (draws, weights, the count by how a hand ends) make them
    over the other tiles of each placement of the doubles. A world is drawn from
    the plain program of its placement, drawn again while a hand holds a suit (uniform over the rest); listed,
    such a world is left out.

    The count is exact at any number of such (hand, number) pairs (``exact``: counted whole). Past
    :data:`SUIT_EVENTS` of them (``placed_whole`` False: the public view early in a hand whose hands are all
    unknown, where every hand may reach a suit of every number) the cases made for each placement are too many,
    so a placement's ways (``options``) are the plain program's, a suit judged on the tiles in view: a draw picks
    a placement by them and is drawn again, placement and all, while a hand holds a suit (uniform over the rest);
    the listing leaves such worlds out; each tile's weights are those of the worlds with the suit judged in view
    (a few in 1,000 more than :attr:`count`), and the count by how the hand ends (:mod:`.count`) gives way."""

    def __init__(self, view, allows, base: Placements):
        self.unseen, self.room, self._allowed = view.unseen, view.room, view.allowed
        self.doubles = [i for i, t in enumerate(view.unseen) if t.is_double]
        self.rest = [i for i, t in enumerate(view.unseen) if not t.is_double]
        self._tallies: dict[tuple, Placements] = {}
        self._view, self._judge, self._base = view, allows, base
        self._options: list[tuple[tuple[int, ...], tuple[int, ...], int]] | None = None
        self._total: int | None = None              # (the options' ways summed: what a draw picks among)
        whole = view.whole
        dealing = whole.redeal if whole is not None else None
        self.suit = dealing.suit if dealing is not None else 0
        self._events = _suits(view, self.suit) if self.suit else []
        # past SUIT_EVENTS hands and numbers that may make a suit (hands not known early in the hand) the cases made
        # for each placement of the doubles are too many: there a placement's ways are the plain program's, the
        # count is made over every unseen tile at once (_by_cases) and a draw is drawn again while it holds a suit
        self.placed_whole = len(self._events) <= SUIT_EVENTS
        self._placing = self._events if self.placed_whole else []
        self._masks = dealing.number_masks if self._events else ()
        self._plain = tuple(self._allowed[i] for i in self.rest)
        self._kept: dict[tuple, list[tuple[int, tuple[int, ...]]]] = {}
        self._ways: dict[tuple, int] = {}
        self._counts: dict[tuple, int] = {}
        self._size = max((view.fixed[h] | view.played[h]).bit_count() + view.room[h] for h in range(view.players))
        self._can = {(h, n): tuple(j for j, i in enumerate(self.rest) if self.unseen[i].matches(n)
                                   and self._allowed[i] >> h & 1) for h, n in self._placing}
        counted = self._by_rooms()
        # (exact: counted whole, by the rooms, or summed over placements each judged whole)
        self.exact = counted is not None or self.placed_whole
        self.count = counted if counted is not None else sum(ways for *_, ways in self.options)

    @property
    def options(self) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
        """Each placement of the unseen doubles the rule allows: (the holders' masks with it, the room left, the
        worlds completing it; where not :attr:`placed_whole`, the plain program's ways, a suit judged on the tiles
        in view only)."""
        if self._options is None:
            self._options = self._placed()
        return self._options

    def _placed(self) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
        options: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        meter, allows, base = current_meter(), self._judge, self._base

        def place(k: int, room: tuple[int, ...], world: list[int]) -> None:
            if k == len(self.doubles):
                if meter is not None:           # (the hands judged whole: a deal's worth of steps)
                    meter.charge(WORLD_STEPS)
                ways = self.ways(room, world) if self.tally(room).count and allows(world) else 0
                if ways:
                    options.append((tuple(world), room, ways))
                return
            i = self.doubles[k]
            for h, after in base.steps(i, room):
                world[h] |= self.unseen[i].bit
                place(k + 1, after, world)
                world[h] &= ~self.unseen[i].bit

        place(0, self.room, list(self._view.fixed))
        return options

    def _by_rooms(self) -> int | None:
        """The count where the rule on whole hands judges a placement of the doubles by how many each hand then
        holds alone (see the class), else None: a forced new deal (``redeal`` doubles or more in a hand) and no
        leader. The same sum as the listing's, grouped by the room each placement leaves and by where the
        doubles of the numbers a hand may hold a suit of went (:meth:`ways`)."""
        view = self._view
        whole = view.whole
        if whole is None or whole.leader is not None or whole.redeal is None:
            return None
        dealing, tiles = whole.redeal, tile_set(whole.max_pip)
        most = dealing.redeal - 1 if dealing.redeal else None      # (the most doubles a hand may hold)
        held = []                                   # the doubles each hand holds before any is placed
        for h in range(view.players):
            shown = view.fixed[h] | view.played[h]
            held.append(sum(1 for t in tiles if t.is_double and t.bit & shown))
        if self._events and (most is None or (2 * (most + 1) > whole.max_pip + 1
                                              and most + self.suit > self._size)):
            return self._by_cases(most, held)
        if not self.placed_whole:
            return None                             # (the placements' ways would leave suits out of hand: not exact)
        numbers = {n for _, n in self._placing}     # (the doubles whose holder a suit's judgment asks)
        meter, base = current_meter(), self._base
        layer: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {(self.room, ()): 1}
        for i in self.doubles:
            mark = self.unseen[i].high in numbers
            after: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
            for (room, where), ways in layer.items():
                if meter is not None:
                    meter.charge()
                for h, left in base.steps(i, room):
                    key = (left, where + (h,) if mark else where)
                    after[key] = after.get(key, 0) + ways
            layer = after
        marked = [self.unseen[i] for i in self.doubles if self.unseen[i].high in numbers]
        count = 0
        for (room, where), ways in layer.items():
            if most is not None and any(held[h] + self.room[h] - room[h] > most for h in range(view.players)):
                continue                            # (a hand dealt enough doubles for a new deal)
            if meter is not None:
                meter.charge(WORLD_STEPS)
            world = list(view.fixed)
            for tile, h in zip(marked, where):
                world[h] |= tile.bit
            count += ways * self.ways(room, world)
        return count

    def _by_cases(self, most: int | None, held: list[int]) -> int:
        """The count of :meth:`_by_rooms` where a hand may reach a suit, by inclusion and exclusion over every
        unseen tile at once, the doubles among them: every placement, less those in which a hand holds a suit or
        ``most + 1`` doubles, plus those in which two hands do, and so on (:func:`_alike_cases`); a hand holds one
        of them at most and two hands never hold the doubles for a new deal both (the caller checks the rule's
        numbers), so the cases are few, and each is the plain program's count."""
        view, unseen, allowed, room = self._view, self.unseen, self._allowed, self.room
        needs = []                                  # (hand, number, tiles still needed, tiles it may hold)
        if most is not None:                        # (the doubles, as a number of their own past the last)
            for h in range(view.players):
                can = tuple(i for i in self.doubles if allowed[i] >> h & 1)
                need = most + 1 - held[h]
                if need <= 0:
                    return 0
                if len(can) >= need and room[h] >= need:
                    needs.append((h, view.whole.max_pip + 1, need, can))
        for h, n in self._events:
            need = self.suit - ((view.fixed[h] | view.played[h]) & self._masks[n]).bit_count()
            if need <= 0:
                return 0
            can = tuple(i for i, t in enumerate(unseen) if t.bit & self._masks[n] and allowed[i] >> h & 1)
            if len(can) >= need and room[h] >= need:
                needs.append((h, n, need, can))
        meter, count = current_meter(), 0
        for mix, sign in _alike_cases(tuple(allowed), room, tuple(needs)).items():
            if sign:
                if meter is not None:
                    meter.charge(WORLD_STEPS)
                count += sign * self._counted(mix)
        return count

    def tally(self, room) -> Placements:             # the program of the other tiles in ``room``
        return self._program(room, self._plain)

    def _program(self, room, allowed) -> Placements:
        key = (room, allowed)
        if key not in self._tallies:
            self._tallies[key] = Placements(tuple(self.unseen[i] for i in self.rest), allowed, room)
        return self._tallies[key]

    def _needs(self, room, world) -> tuple | None:
        """The cases of :meth:`completions` once the doubles are placed: (hand, number, tiles of it still needed,
        the other tiles of it the hand may hold) for each hand that may still reach a suit; None: a hand holds one
        in view already."""
        view, needs = self._view, []
        for h, n in self._placing:
            need = self.suit - ((world[h] | view.played[h]) & self._masks[n]).bit_count()
            if need <= 0:
                return None
            can = self._can[h, n]
            if len(can) >= need and room[h] >= need:
                needs.append((h, n, need, can))
        return tuple(needs)

    def completions(self, room, world) -> list[tuple[int, tuple[int, ...]]]:
        """The other tiles' ways into ``room`` once the doubles are placed (``world``: the masks with them) that
        leave no hand a new deal's suit, as signed programs (sign, the holders each of those tiles may go to):
        every way, less those in which one hand reaches a suit, plus those in which two do, and so on (by
        inclusion and exclusion over the hands that may reach one, :func:`_suits`). A hand reaching ``suit``
        tiles of a number holds exactly some set of its unseen tiles of that number, ``suit`` less its tiles of
        the number in view or more: one program for each set, those tiles put in the hand and the number's other
        tiles kept out of it."""
        if not self._placing:
            return [(1, self._plain)]
        needs = self._needs(room, world)
        if needs is None:
            return []                               # (a hand already holds a suit in view: no way at all)
        key = (room, needs)
        known = self._kept.get(key)
        if known is None:
            terms = _cases(self._plain, room, needs)
            known = self._kept[key] = [(sign, allowed) for allowed, sign in terms.items()
                                       if sign and self._count(room, allowed)]
        return known

    def ways(self, room, world) -> int:
        """The worlds completing the placement of the doubles ``world`` that leaves ``room``."""
        if not self._placing:
            return self.tally(room).count
        needs = self._needs(room, world)
        if needs is None:
            return 0
        key = (room, needs)
        known = self._ways.get(key)
        if known is None:
            known = 0
            for mix, sign in _alike_cases(self._plain, room, needs).items():
                if sign:
                    known += sign * self._counted(mix)
            self._ways[key] = known
        return known

    def _count(self, room, allowed) -> int:
        return self._counted(_alike(room, allowed))

    def _counted(self, mix) -> int:
        if mix is None:
            return 0
        known = self._counts.get(mix)
        if known is None:
            known = self._counts[mix] = _Classes(mix[1], mix[0]).count
        return known

    def _suited(self, world) -> bool:
        """Whether a hand of ``world`` (a whole world: every tile placed) holds a new deal's suit."""
        view = self._view
        for h, n in self._events:
            if ((world[h] | view.played[h]) & self._masks[n]).bit_count() >= self.suit:
                return True
        return False

    def weights(self) -> list[list[int]]:
        """Each tile's worlds in each holder: exact where :attr:`placed_whole`; past it, over the worlds whose suits
        are judged on the tiles in view only (a few in 1,000 more than :attr:`count`: divide by a tile's row)."""
        weights = [[0] * len(self.room) for _ in self.unseen]
        rooms: dict[tuple, int] = {}
        for world, room, ways in self.options:
            for i in self.doubles:
                weights[i][next(h for h, mask in enumerate(world) if mask & self.unseen[i].bit)] += ways
            for sign, allowed in self.completions(room, world):
                rooms[room, allowed] = rooms.get((room, allowed), 0) + sign
        for (room, allowed), times in rooms.items():
            if not times:
                continue
            for j, row in enumerate(self._program(room, allowed).weights()):
                for h, w in enumerate(row):
                    weights[self.rest[j]][h] += times * w
        return weights

    def sample(self, rng: random.Random, fixed=None) -> tuple[int, ...]:
        options = self.options
        if self._total is None:
            self._total = sum(ways for *_, ways in options)
        total = self._total
        while True:
            pick = rng.randrange(total)
            for world, room, ways in options:
                pick -= ways
                if pick < 0:
                    break
            while True:                             # (a world with a suit drawn again: uniform over the rest)
                drawn = self.tally(room).sample(rng, world)
                if not self._events or not self._suited(drawn):
                    return drawn
                if not self.placed_whole:           # (the placement drawn again too: its ways held such worlds)
                    break

    def each(self, fixed=None) -> Iterator[tuple[int, ...]]:
        for world, room, _ in self.options:
            for drawn in self.tally(room).each(world):
                if not self._events or not self._suited(drawn):
                    yield drawn


def _cases(plain: tuple[int, ...], room: tuple[int, ...], needs: tuple) -> dict[tuple[int, ...], int]:
    """The signed programs of :meth:`DoublesFirst.completions` (the holders each tile may go to: the sign its
    program's ways are added with), from ``needs`` (:meth:`DoublesFirst._needs`)."""
    terms: dict[tuple[int, ...], int] = {plain: 1}

    def add(k: int, allowed: list[int], hands: int, numbers: int, sign: int) -> None:
        for e in range(k, len(needs)):
            h, n, need, can = needs[e]
            if hands >> h & 1 or numbers >> n & 1:
                continue                            # (one hand, one suit; one number, one hand: see _suits)
            for size in range(need, min(len(can), room[h]) + 1):
                for chosen in itertools.combinations(can, size):
                    case = list(allowed)
                    for j in can:
                        case[j] = case[j] & (1 << h) if j in chosen else case[j] & ~(1 << h)
                    if any(case[j] == 0 for j in can):
                        continue                    # (a tile two cases put in two hands)
                    terms[tuple(case)] = terms.get(tuple(case), 0) - sign
                    add(e + 1, case, hands | 1 << h, numbers | 1 << n, -sign)

    add(0, list(plain), 0, 0, 1)
    return terms


def _alike(room, allowed) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """What the plain program's count asks of tiles ``allowed`` into ``room``: the room left once each tile that
    one holder alone may take is in it, and how many of the others each set of holders may take (sorted); None:
    those tiles overfill a holder."""
    left, mix = list(room), []
    for mask in allowed:
        if mask and not mask & (mask - 1):
            left[mask.bit_length() - 1] -= 1
        else:
            mix.append(mask)
    return None if min(left, default=0) < 0 else (tuple(left), tuple(sorted(mix)))


def _alike_cases(plain: tuple[int, ...], room: tuple[int, ...], needs: tuple) -> dict:
    """:func:`_cases` summed as counts ask them (:func:`_alike`: the signed number of programs of each), made a
    class of alike tiles at a time: the tiles of a case's number that have the same holders in the program so far
    and are of the same later cases' numbers are alike, and ``k`` of ``g`` such tiles in the hand are
    ``comb(g, k)`` programs of one count."""
    out: dict = {}
    later = [set(can) for *_, can in needs]
    # each case's tiles with the later cases' numbers they are of (alike only where those are the same)
    marks = [{j: tuple(j in later[f] for f in range(e + 1, len(needs))) for j in needs[e][3]} for e in range(len(needs))]

    def add(k: int, allowed: list[int], hands: int, numbers: int, weight: int) -> None:
        mix = _alike(room, allowed)
        if mix is None:
            return                                  # (and so every program it is a part of)
        out[mix] = out.get(mix, 0) + weight
        for e in range(k, len(needs)):
            h, n, need, can = needs[e]
            if hands >> h & 1 or numbers >> n & 1:
                continue
            bit = 1 << h
            if sum(allowed[j] & bit for j in can) < need << h:
                continue                            # (the cases before put too many of its tiles in other hands)
            groups: dict[tuple, list[int]] = {}
            mark = marks[e]
            for j in can:
                groups.setdefault((allowed[j], mark[j]), []).append(j)
            # a group of tiles the program so far keeps out of the hand gives none, one it puts there gives all
            bounds = [(len(g) if mask == bit else 0, len(g) if mask & bit else 0) for (mask, _), g in groups.items()]
            for counts, ways in _between(bounds, need, room[h]):
                case = list(allowed)
                for group, c in zip(groups.values(), counts):
                    for x, j in enumerate(group):
                        case[j] = case[j] & bit if x < c else case[j] & ~bit
                add(e + 1, case, hands | bit, numbers | 1 << n, -weight * ways)

    add(0, list(plain), 0, 0, 1)
    return out


def _between(bounds: list[tuple[int, int]], low: int, high: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """How many tiles each group of alike tiles gives (``bounds``: the fewest and the most of each, the most its
    size or none) so that they give ``low`` to ``high`` in all: ``(counts, ways)``, ``ways`` the product of
    ``comb(size, count)``. Made by the tiles each group keeps back from its most, few where ``low`` is near what
    the groups can give (a suit: six of a number's seven), never past what the groups after can still keep."""
    most = [b for _, b in bounds]
    free = [b - a for a, b in bounds]               # the tiles a group may keep back
    spare = [0] * (len(bounds) + 1)                 # ... the groups from i on
    for i in range(len(bounds) - 1, -1, -1):
        spare[i] = spare[i + 1] + free[i]
    total = sum(most)
    counts = list(most)

    def keep(i: int, fewest: int, fullest: int, ways: int):
        # ``fewest`` to ``fullest`` tiles still to keep back from the groups from i on
        if not fullest or i == len(bounds):
            if fewest <= 0:
                yield tuple(counts), ways
            return
        for d in range(max(0, fewest - spare[i + 1]), min(free[i], fullest) + 1):
            counts[i] = most[i] - d
            yield from keep(i + 1, fewest - d, fullest - d, ways * math.comb(most[i], d))
        counts[i] = most[i]

    if total >= low and total - spare[0] <= high:
        yield from keep(0, max(0, total - high), total - low, 1)


def _suits(view, suit: int) -> list[tuple[int, int]]:
    """The (hand, number) pairs where the hand may hold ``suit`` tiles of the number once dealt whole: its tiles
    of the number in view (held or played) and the unseen ones it may hold, within its room, reach ``suit``
    (none: the suit cannot bite, and the count is the plain one). A hand holds one suit at most and a number
    makes one at most where ``2 * suit`` passes the hand's size plus one and the number's tiles (Kozel: 6 of 7
    tiles a hand, of the 7 tiles of a number): :meth:`DoublesFirst.completions` counts on it, so other rules
    raise :class:`InferenceUnsupported`."""
    whole = view.whole
    masks = whole.redeal.number_masks
    size = max((view.fixed[h] | view.played[h]).bit_count() + view.room[h] for h in range(view.players))
    out = []
    for h in range(view.players):
        shown = view.fixed[h] | view.played[h]
        may = 0                                     # the unseen tiles it may hold
        for t, a in zip(view.unseen, view.allowed):
            if a >> h & 1:
                may |= t.bit
        for n, mask in enumerate(masks):
            if (shown & mask).bit_count() + min((may & mask).bit_count(), view.room[h]) >= suit:
                out.append((h, n))
    if out and (2 * suit <= size + 1 or 2 * suit <= whole.max_pip + 1):
        raise InferenceUnsupported("a new deal's suit that a hand may hold twice")
    return out


class Cases:
    """The placements of a rule that splits into disjoint cases, each a rule on single tiles
    (``cases``: each case's holders allowed per tile): counted, weighed, drawn and listed as the sum
    of one :class:`Placements` a case (the highest double dealt leading: which double is the highest,
    see :func:`analyzer.inference.worlds.highest_cases`)."""

    def __init__(self, unseen: tuple[Tile, ...], cases: list[tuple[int, ...]], room: tuple[int, ...]):
        self.parts = [Placements(unseen, allowed, room) for allowed in cases]
        self.parts = [part for part in self.parts if part.count]
        self.count = sum(part.count for part in self.parts)
        self.room = room

    def weights(self) -> list[list[int]]:
        out = [[0] * len(self.room) for _ in self.parts[0].unseen] if self.parts else []
        for part in self.parts:
            for row, more in zip(out, part.weights()):
                for h, w in enumerate(more):
                    row[h] += w
        return out

    def sample(self, rng: random.Random, fixed: tuple[int, ...]) -> tuple[int, ...]:
        pick = rng.randrange(self.count)
        for part in self.parts:
            pick -= part.count
            if pick < 0:
                return part.sample(rng, fixed)
        raise AssertionError("a draw past the count")

    def each(self, fixed: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for part in self.parts:
            yield from part.each(fixed)
