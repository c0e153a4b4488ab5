"""The deals a sheet allows counted by how its hand ends there, without listing them.

A sheet's moves may allow millions of deals (:mod:`analyzer.inference.sheet`), of which a written result keeps
a few thousand. Listing them to score each one's hand is out of reach past some 10^5; counting them is not.
How a deal's hand ends depends on little of it: who went out and who played last are fixed by the moves, so
the result depends only on the tiles each hand still holds at the end, and of those only on

* their pips (per side where the scoring looks at each side's total only, else per player),
* whether a hand holds [0-0] (a blank worth more than its pips; Kozel: [0-0] as the last tile), any double
  (French: a hand holding a double counts twice) or how many pips its doubles count once (004's draw game),
  where the variant's scoring looks at that,
* and, where the moves do not show that the hand is over, whether a hand still holds a tile that could be
  laid (in none: blocked).

That is the *key* of a deal. The same dynamic programme as the worlds' (:mod:`analyzer.inference.placements`:
each unseen tile given to a holder it may go to, each holder filled to its room) runs with the key in its
state, so its last layer counts the deals of every key; one deal of each key, traced back through the layers,
is scored as any listed deal is (:class:`analyzer.inference.sheet` ``_Ending``), and its result stands for all
of them. The rules on whole hands and the player moving again (:class:`analyzer.inference.worlds.Worlds`) are
kept as the worlds keep them: the cases and the placements of the doubles are counted each, the heaviest hand
leading is a condition on the players' pips (in the key), the fact "holds a tile that fits" an alternating sum
of counts. A draw game's worlds are its slots' placements times the orders of its draws (each key alike).

The layers are kept, so the deals of some keys (those giving the written result) are also drawn uniformly
without rejection, or listed, walking back from the last layer: what the analysis of a sheet reads.

:func:`count_deals` counts; :class:`DealCount` is the count, the deals' results, and the draws. Where the moves
do not show the hand over, :func:`may_end` first asks whether any deal leaves no tile that fits in the hands (a
programme whose key is that number alone): where none does, the hand is over in no deal, and the count is not
needed (a record that stops mid-hand, as the repair search's candidates often do). Where the
programme would pass ``STATES`` states (four hands each judged by its own pips, early in a hand)
:class:`CountTooLarge` says so: the caller estimates instead, and says that it does."""
from __future__ import annotations

import bisect
import dataclasses
import itertools
import random
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Iterator

from ..diagnostics import DominoError
from ..i18n import gettext
from ..position import mask_pips, tiles_of
from ..rules.facts import HandFacts, HandResult
from ..rules.kozel import KozelBlock, KozelScoring
from ..rules.lead import heaviest_of
from ..rules.policies import BlockDecider, BlockRule, DifferenceAward, HandScoring, PointScoring
from ..tiles import Tile
from .meter import current_meter
from .placements import Cases, DoublesFirst, HeaviestFirst, InferenceUnsupported
from .worlds import Worlds, fitting_now

__all__ = ["CountTooLarge", "DealCount", "count_deals", "may_end", "deal_key", "STATES"]

STATES = 1_000_000      # the states the programme may fill (some 5 s, 300 MB) before it gives up (CountTooLarge)
BLANK = Tile(0, 0)
LISTED_CHOICE = 4       # a choice of k deals among at most this many times k: all listed, k of them taken at once


class CountTooLarge(DominoError):
    """Counting a sheet's deals by their key would fill more states than :data:`STATES` (the caller estimates)."""


# -- what a deal's result depends on ----------------------------------------------------------------------

@dataclass(frozen=True)
class KeyShape:
    """What of each hand's tiles at the end the key keeps: per side (``team``) or per player, the pips and the
    ``features`` named (``blank``: holds [0-0]; ``alone``: [0-0] is its only tile; ``doubles``: how many doubles;
    ``low``: the low halves of its doubles), and (``fits``) how many tiles that could be laid the hands hold;
    ``pips`` False: not their pips (:func:`may_end` asks only whether a deal may leave no tile that fits)."""

    team: bool
    features: tuple[str, ...]
    fits: bool
    pips: bool = True

    @property
    def width(self) -> int:
        """The numbers the key keeps of each group."""
        return self.pips + len(self.features)


FEATURES = ("blank", "alone", "doubles", "low")


def key_shape(variant, shown_over: bool, heaviest: bool = False, facts: bool = False) -> KeyShape:
    """The :class:`KeyShape` a deal's result under ``variant`` depends on (``shown_over``: the moves show that the
    hand is over; ``heaviest``: the heaviest hand dealt leads, a condition on each player's pips; ``facts``: the
    facts of the hand the next game's lead may read too, each player's pips and who holds [0-0], as
    :func:`analyzer.inference.sheet.deal_outcomes` keeps them). A policy this module does not know is keyed by
    everything, per player."""
    feats: set[str] = set()
    team, known = True, True
    block, scoring = variant.block, variant.scoring
    if isinstance(block, BlockRule):
        pass
    elif isinstance(block, BlockDecider):
        team = block.by in ("team", "last")
        if block.blank:
            feats.add("blank")
        if block.doubles_once:
            feats.add("low")
    elif isinstance(block, KozelBlock):
        feats.add("alone")
    else:
        known = False
    if isinstance(scoring, KozelScoring):
        feats.add("alone")
    elif isinstance(scoring, PointScoring):
        if scoring.blank:
            feats.add("blank")
        if scoring.doubled:
            feats.add("doubles")
            team = False
    elif isinstance(scoring, DifferenceAward):
        team = False
    elif not isinstance(scoring, HandScoring):
        known = False
    if not known:
        team, feats = False, set(FEATURES)
    if heaviest or facts:
        team = False
    if facts:
        feats.add("blank")
    return KeyShape(team, tuple(f for f in FEATURES if f in feats), not shown_over)


def deal_key(shape: KeyShape, groups: tuple[int, ...], hands: tuple[int, ...], counts: tuple[int, ...],
             fitting: int) -> tuple[int, ...]:
    """The key of the hands at the end ``hands`` (a mask per seat; ``counts``: each one's number of tiles, known
    from the moves): per group (``groups[s]``: seat ``s``'s, its side or itself) the pips and the features of
    ``shape``, then the number of tiles of ``fitting`` (a mask) the hands hold where ``shape.fits``. What the
    programme's last layer holds (a test checks it against each deal's own)."""
    width = shape.width
    key = [0] * (width * (max(groups) + 1) + shape.fits)
    for s, mask in enumerate(hands):
        for tile in tiles_of(mask):
            for j, v in enumerate(_contribution(shape, tile, counts[s])):
                key[groups[s] * width + j] += v
        if shape.fits:
            key[-1] += (mask & fitting).bit_count()
    return tuple(key)


def _contribution(shape: KeyShape, tile: Tile, count: int) -> tuple[int, ...]:
    out = [tile.pips] if shape.pips else []
    for f in shape.features:
        if f == "blank":
            out.append(int(tile == BLANK))
        elif f == "alone":
            out.append(int(tile == BLANK and count == 1))
        elif f == "doubles":
            out.append(int(tile.is_double))
        else:
            out.append(tile.low if tile.is_double else 0)
    return tuple(out)


# -- the programme ------------------------------------------------------------------------------------------

class _Programme:
    """The placements of ``unseen`` (``allowed[i]``: the holders tile ``i`` may go to) filling ``room``, from the
    key ``start``; ``delta[i][h]``: what tile ``i`` in holder ``h`` adds to the key. ``layers[i]``: state (room,
    then key) -> the ways to reach it having placed the first ``i`` tiles. ``filled``: the states it filled (a
    step each of a metered caller's, :mod:`analyzer.inference.meter`, charged as they are filled: past the
    meter's limit it stops at the state that passes it, as the worlds' programmes do); ``spent[0]``: the states
    filled by the programmes of one count, at most ``states`` (else :class:`CountTooLarge`)."""

    def __init__(self, unseen, allowed, room, start, delta, spent: list[int], states: int):
        self.unseen, self.allowed, self.delta = unseen, allowed, delta
        self.k = len(room)
        self.filled = 0
        holders = len(room)
        # how many of the tiles from i on may go to each holder: a state whose room they cannot fill is dropped
        supply = [[0] * holders for _ in range(len(unseen) + 1)]
        for i in range(len(unseen) - 1, -1, -1):
            for h in range(holders):
                supply[i][h] = supply[i + 1][h] + (allowed[i] >> h & 1)
        meter = current_meter()
        layer: dict[tuple[int, ...], int] = {}
        if all(r <= supply[0][h] for h, r in enumerate(room)) and sum(room) == len(unseen):
            layer[tuple(room) + tuple(start)] = 1
        self.layers = [layer]
        for i in range(len(unseen)):
            nxt: dict[tuple[int, ...], int] = {}
            moves = [(h, delta[i][h]) for h in range(holders) if allowed[i] >> h & 1]
            left = supply[i + 1]
            # the states this layer may fill: within the count's states, and within the meter's room
            cap = states - spent[0]
            if meter is not None and meter.limit - meter.spent < cap:
                cap = int(meter.limit - meter.spent)
            for state, ways in layer.items():
                for h, add in moves:
                    if not state[h]:
                        continue
                    s = list(state)
                    s[h] -= 1
                    if s[h] > left[h]:
                        continue
                    for j, v in add:
                        s[j] += v
                    s = tuple(s)
                    got = nxt.get(s)
                    if got is None:
                        if len(nxt) >= cap:
                            self._stop(len(nxt) + 1, spent, states, meter)      # (raises)
                        nxt[s] = ways
                    else:
                        nxt[s] = got + ways
            self._charge(len(nxt), spent, meter)
            layer = nxt
            self.layers.append(layer)

    def _charge(self, filled: int, spent: list[int], meter) -> None:
        self.filled += filled
        spent[0] += filled
        if meter is not None:
            meter.charge(filled)

    def _stop(self, filled: int, spent: list[int], states: int, meter) -> None:
        """The state that passes the meter's limit or the count's states: the layer so far charged (past the
        meter's limit it raises :class:`~analyzer.inference.meter.StepsSpent`), then :class:`CountTooLarge`."""
        self._charge(filled, spent, meter)
        raise CountTooLarge(f"counting the deals by how their hand ends would take more than {states:,} states")

    def finals(self) -> dict[tuple[int, ...], int]:
        """key -> deals (every holder filled)."""
        return {state[self.k:]: ways for state, ways in self.layers[-1].items()}

    def _back(self, i: int, state: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], int]]:
        """The ways the ``i``-th tile leads to ``state``: (holder, state before, ways to reach it)."""
        out = []
        for h in range(self.k):
            if not self.allowed[i] >> h & 1:
                continue
            s = list(state)
            s[h] += 1
            for j, v in self.delta[i][h]:
                s[j] -= v
            ways = self.layers[i].get(tuple(s), 0)
            if ways:
                out.append((h, tuple(s), ways))
        return out

    def trace(self, key: tuple[int, ...], base: tuple[int, ...], rng: random.Random | None = None) -> tuple[int, ...]:
        """One placement ending with ``key`` (drawn uniformly with ``rng``, else the first), its tiles added to
        ``base`` (a mask per holder)."""
        world = list(base)
        state = (0,) * self.k + key
        for i in range(len(self.unseen) - 1, -1, -1):
            options = self._back(i, state)
            pick = rng.randrange(sum(w for *_, w in options)) if rng is not None else 0
            for h, before, ways in options:
                pick -= ways
                if pick < 0:
                    break
            world[h] |= self.unseen[i].bit
            state = before
        return tuple(world)

    def each(self, key: tuple[int, ...], base: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Every placement ending with ``key``, its tiles added to ``base``."""
        world = list(base)

        def walk(i: int, state):
            if i < 0:
                yield tuple(world)
                return
            bit = self.unseen[i].bit
            for h, before, _ in self._back(i, state):
                world[h] |= bit
                yield from walk(i - 1, before)
                world[h] &= ~bit

        yield from walk(len(self.unseen) - 1, (0,) * self.k + key)


@dataclass
class _Part:
    """One signed term of the count: a programme from the masks ``base`` (the tiles known, or placed by a case),
    whose keys are kept where ``keep`` says (None: all)."""

    sign: int
    programme: _Programme
    base: tuple[int, ...]
    keep: Callable[[tuple[int, ...]], bool] | None = None

    def finals(self) -> dict[tuple[int, ...], int]:
        got = self.programme.finals()
        return got if self.keep is None else {k: w for k, w in got.items() if self.keep(k)}


# -- the count --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DealCount:
    """The deals a sheet's moves allow, counted by how the hand ends in them.

    ``total``: the deals the moves allow (the worlds' count); ``results``: each way the hand ends in them (a
    :class:`HandResult`, None where it is not over) with in how many deals, most first; ``stated``: how many give
    the written result (None: the record writes none). ``endings``: each key's result and the facts it was scored
    from (one deal's: ``facts`` says whether every player's pips and who holds [0-0] are kept in the key, so that
    they are those of every deal of the key), with its number of deals. :meth:`draw` and :meth:`each` give the deals that give
    it (every deal where none is written), as the worlds of the record's view
    (:class:`analyzer.inference.worlds.Worlds`)."""

    total: int
    results: tuple[tuple[HandResult | None, int], ...]
    stated: int | None
    endings: tuple[tuple[tuple[HandResult, HandFacts] | None, int], ...]
    facts: bool
    worlds: Worlds = dataclasses.field(repr=False, compare=False)
    _parts: tuple = dataclasses.field(repr=False, compare=False, default=())
    _agrees: frozenset = dataclasses.field(repr=False, compare=False, default=frozenset())
    _make: Callable = dataclasses.field(repr=False, compare=False, default=None)

    @property
    def kept(self) -> int:
        """The deals giving the written result (all of them where none is written)."""
        return self.total if self.stated is None else self.stated

    def _kept_parts(self):
        for part in self._parts:
            if part.sign < 0:
                continue
            finals = {k: w for k, w in part.finals().items() if k in self._agrees}
            if finals:
                yield part, finals

    @cached_property
    def _weighted(self) -> tuple[list, list[int]]:
        """Each key of a programme whose deals give the written result, with its number of deals, and the running
        sums of those numbers (made once: a draw picks among them by bisection, in steps logarithmic in the keys,
        not a walk over thousands of keys for each of the thousands of deals drawn)."""
        weighted = [(part, key, w) for part, finals in self._kept_parts() for key, w in finals.items()]
        return weighted, list(itertools.accumulate(w for *_, w in weighted))

    def each(self) -> Iterator:
        """Every world (of :attr:`worlds`) whose deal gives the written result, each once."""
        worlds = self.worlds
        for part, finals in self._kept_parts():
            for key in finals:
                for masks in part.programme.each(key, part.base):
                    if worlds._kept(masks):
                        yield from self._make(masks, "all")

    def choose(self, rng: random.Random, k: int) -> list | None:
        """Every world whose deal gives the written result where there are at most ``k``, else ``k`` different ones
        drawn uniformly (None: the draws kept falling on deals ruled out, see :meth:`draw`): where there are at
        most ``LISTED_CHOICE`` times ``k``, ``k`` of them all listed (:meth:`each`) chosen at once, in the order
        listed; else drawn one by one until ``k`` differ."""
        if self.kept <= k:
            return list(self.each())
        if self.kept <= LISTED_CHOICE * k:
            every = list(self.each())
            if len(every) >= k:
                return [every[i] for i in sorted(rng.sample(range(len(every)), k))]
        chosen: dict = {}
        for _ in range(50 * k):
            world = self.draw(rng)
            if world is None:
                return None
            chosen.setdefault(world, None)
            if len(chosen) == k:
                return list(chosen)
        return None

    def draw(self, rng: random.Random, tries: int = 200) -> tuple | None:
        """One world whose deal gives the written result, drawn uniformly (None: ``tries`` draws all fell on deals
        the fact "he held a tile that fits" rules out)."""
        weighted, sums = self._weighted
        if not sums or not sums[-1] or not self.kept:
            return None
        for _ in range(tries):
            part, key, _ = weighted[picked(sums, rng.randrange(sums[-1]))]
            masks = part.programme.trace(key, part.base, rng)
            if self.worlds._kept(masks):
                return self._make(masks, rng)[0]
        return None


def picked(sums: list[int], pick: int) -> int:
    """The index of the weight that ``pick`` (0 <= pick < the weights' sum) falls in, given the weights' running
    ``sums``: the one a walk subtracting each weight from the pick in turn stops at, found by bisection."""
    return bisect.bisect_right(sums, pick)


class _Build:
    """What the programmes of one count of ``worlds`` share: each holder's player, the tiles laid, each hand's
    size at the end and the tiles its draws named (a draw game), and whether the heaviest hand dealt leads."""

    def __init__(self, rep, worlds: Worlds, ending):
        view = worlds.view
        n = len(rep.players)
        if n != rep.variant.players or not worlds.count:
            raise InferenceUnsupported(gettext("the deals are not counted here"))
        self.rep, self.worlds, self.view, self.n = rep, worlds, view, n
        _, _, owner = view.places()
        self.seat_of = tuple(o if o < n else -1 for o in owner)      # each holder's player (-1: sleepers, boneyard)
        sample = worlds.sample(random.Random(0))
        masks = sample[0] if isinstance(sample[0], tuple) else sample
        final = ending._final(sample)
        held = [0] * n
        for h, s in enumerate(self.seat_of):
            if s >= 0:
                held[s] |= masks[h]
        self.laid = ending.laid
        self.extra = tuple(final[s] & ~held[s] for s in range(n))        # (a draw game: the tiles drawn it names)
        self.counts = tuple(f.bit_count() for f in final)
        self.heavy = isinstance(worlds._base, HeaviestFirst) or any(isinstance(w._base, HeaviestFirst)
                                                                    for _, w in worlds._without)
        self.fitting = fitting_now(rep, len(rep.steps)) & ~self.laid

    def parts(self, shape: KeyShape, states: int, whole: bool = True) -> list[_Part]:
        """The signed programmes whose last layers, summed, count the deals of each key of ``shape`` (``whole``
        False: those of the moves' deals before the facts the worlds take away, and before the heaviest hand's
        lead: a superset of the deals)."""
        view, n, seat_of, laid = self.view, self.n, self.seat_of, self.laid
        groups = tuple(self.rep.variant.seating.teams) if shape.team else tuple(range(n))
        fitting = self.fitting if shape.fits else 0
        width = shape.width
        spent = [0]
        parts: list[_Part] = []
        programmes: dict = {}

        def key_of(base: tuple[int, ...]) -> tuple[int, ...]:
            hands = [self.extra[s] for s in range(n)]
            for h, s in enumerate(seat_of):
                if s >= 0:
                    hands[s] |= base[h]
            return deal_key(shape, groups, tuple(m & ~laid for m in hands), self.counts, fitting)

        def deltas(unseen) -> list[list[tuple[tuple[int, int], ...]]]:
            out = []
            for tile in unseen:
                row = []
                for h, s in enumerate(seat_of):
                    add: list[tuple[int, int]] = []
                    if s >= 0 and not tile.bit & laid:
                        for j, v in enumerate(_contribution(shape, tile, self.counts[s])):
                            if v:
                                add.append((len(view.room) + groups[s] * width + j, v))
                        if shape.fits and tile.bit & fitting:
                            add.append((len(view.room) + width * (max(groups) + 1), 1))
                    row.append(tuple(add))
                out.append(row)
            return out

        def programme(unseen, allowed, room, base) -> _Programme:
            start = key_of(base)
            which = (tuple(t.bit for t in unseen), tuple(allowed), tuple(room), start)
            got = programmes.get(which)
            if got is None:
                got = programmes[which] = _Programme(unseen, allowed, room, start, deltas(unseen), spent, states)
            return got

        def add(sign: int, w: Worlds) -> None:
            base, v = w._base, w.view
            if isinstance(base, Cases):
                for part in base.parts:
                    parts.append(_Part(sign, programme(v.unseen, part.allowed, v.room, v.fixed), v.fixed))
            elif isinstance(base, DoublesFirst):         # (whole: less the deals with a suit, by its signed cases)
                if whole and not base.placed_whole:
                    # (past SUIT_EVENTS pairs a placement's signed cases are too many: the caller estimates)
                    raise CountTooLarge(f"{len(base._events)} (hand, number) pairs may still make a new deal's suit: "
                                        "too many to count the deals by how their hand ends")
                for placed, room, _ in base.options:
                    tally = base.tally(room)
                    for case, allowed in (base.completions(room, placed) if whole else [(1, tally.allowed)]):
                        parts.append(_Part(sign * case, programme(tally.unseen, allowed, room, placed), placed))
            elif isinstance(base, HeaviestFirst):
                keep = None
                if whole:
                    played = tuple(mask_pips(v.played[s]) for s in range(n))
                    leader = v.whole.leader

                    def keep(key, played=played, leader=leader):
                        return leader in heaviest_of({s: key[s * width] + played[s] for s in range(n)})
                parts.append(_Part(sign, programme(v.unseen, v.allowed, v.room, v.fixed), v.fixed, keep))
            else:
                parts.append(_Part(sign, programme(base.unseen, base.allowed, base.room, v.fixed), v.fixed))

        add(1, self.worlds)
        if whole:
            for sign, sub in self.worlds._without:
                add(sign, sub)
        return parts

    def make(self, masks, rng) -> list:
        """The world of the worlds with these masks (a draw game: with an order of its draws, drawn with ``rng``,
        else the first; ``rng`` "all": with every order of its draws no fact tells apart)."""
        worlds, view = self.worlds, self.view
        if not hasattr(worlds, "_order"):
            return [masks]
        lists = [list(tiles_of(m)) for m in masks]
        if rng == "all":
            groups = range(view.players, len(masks))
            return [(masks, worlds._order(list(lists[:view.players]) + [list(x) for x in orders]))
                    for orders in itertools.product(*(itertools.permutations(lists[h]) for h in groups))]
        if rng is not None:
            for h in range(view.players, len(lists)):
                rng.shuffle(lists[h])
        return [(masks, worlds._order(lists))]

    def ended(self, parts: list[_Part], keys, ending) -> dict[tuple[int, ...], tuple | None]:
        """How the hand ends (``ending.ending``) in one deal of each of ``keys``, traced back from a part that
        reaches it: what every deal of the key gives."""
        out: dict[tuple[int, ...], tuple | None] = {}
        for key in keys:
            for part in parts:
                if (0,) * len(self.view.room) + key in part.programme.layers[-1]:
                    out[key] = ending.ending(self.make(part.programme.trace(key, part.base), None)[0])
                    break
        return out


def count_deals(rep, worlds: Worlds, ending, *, facts: bool = False, states: int | None = None) -> DealCount:
    """The :class:`DealCount` of the deals ``worlds`` (the record's own view at its end: see
    :func:`analyzer.inference.sheet.listing`) allows, each scored by ``ending`` (how the hand ends in a world, and
    whether that gives the written result); ``facts``: keyed so that each key's facts are its every deal's
    (:meth:`key_shape`); ``states``: the most states the programme may fill (None: :data:`STATES`). Raises
    :class:`CountTooLarge` past them (and past Kozel's ``placements.SUIT_EVENTS``: hands all unknown early in a
    hand, where a placement's cases of a new deal's suit are too many) and :class:`InferenceUnsupported` where the worlds are none or the players
    are not the game's."""
    build = _Build(rep, worlds, ending)
    shape = key_shape(rep.variant, rep.outcome is not None, build.heavy, facts)
    parts = build.parts(shape, STATES if states is None else states)
    by_key: dict[tuple[int, ...], int] = {}
    for part in parts:
        for key, ways in part.finals().items():
            by_key[key] = by_key.get(key, 0) + part.sign * ways * worlds.orders
    by_key = {k: w for k, w in by_key.items() if w}
    ended = build.ended(parts, by_key, ending)
    result_of = {k: None if e is None else e[0] for k, e in ended.items()}
    tally: dict = {}
    for key, ways in by_key.items():
        r = result_of[key]
        tally[r] = tally.get(r, 0) + ways
    agrees = frozenset(k for k in by_key if ending.agrees(result_of[k]))
    stated = None if ending.stated is None else sum(by_key[k] for k in agrees)
    results = tuple(sorted(tally.items(), key=lambda rw: -rw[1]))
    endings = tuple((ended[k], w) for k, w in sorted(by_key.items(), key=lambda kw: -kw[1]))
    return DealCount(worlds.count, results, stated, endings, facts, worlds, tuple(parts), agrees, build.make)


def may_end(rep, worlds: Worlds, ending) -> bool:
    """Whether the hand may be over at the end of the record in some deal of ``worlds``, where its moves do not show
    it over: only where no hand holds a tile that fits (else someone could still lay one). Counted by a programme
    whose key is the number of such tiles the hands hold, over a superset of the deals (before the facts the
    worlds take away and the heaviest hand's lead); one deal of each number is scored, so that a rule that ends a
    hand otherwise is not missed. False: in no deal is the hand over (each one's result is None), and the count
    by how the hand ends need not be made. Raises as :func:`count_deals`."""
    if rep.outcome is not None:
        return True
    build = _Build(rep, worlds, ending)
    shape = KeyShape(team=True, features=(), fits=True, pips=False)
    parts = build.parts(shape, STATES, whole=False)
    keys = {key for part in parts for key in part.finals()}
    if any(key[-1] == 0 for key in keys):
        return True
    return any(e is not None for e in build.ended(parts, keys, ending).values())
