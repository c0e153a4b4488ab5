"""The deals a whole record allows: a sheet that does not write every hand.

A score sheet, a server's move log or a game read from a video lists the plays, passes and draws but not
the deal. Yet the record fixes most of it: every tile a player laid was in his hand, a pass rules out
every number then open, every tile of a block game is dealt, and a draw game's named draws came off the
boneyard in that order. The deals it allows are the worlds of the record's own view at its end
(:func:`analyzer.inference.worlds_at` with ``record=True``: what the whole record says, the moves after a
decision included), narrowed by a written result: a deal whose hand ends with another winner or other
points than the Result tag states is not one the sheet allows.

:func:`sheet_deals` counts them (exactly where they can be listed or counted by how their hand ends,
:mod:`analyzer.inference.count`; else estimated from a uniform sample, with its interval), lists them when few
and draws them uniformly when many. :func:`first_contradiction` finds the
move (or the Result tag) that leaves no deal, with what it contradicts. A deal of a draw game comes with its
boneyard order, as the fair analysis treats them (:mod:`analyzer.inference.boneyard`)."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from ..i18n import gettext, ngettext, number
from ..position import mask_of
from ..record import StatedResult
from ..rules.facts import HandFacts, HandResult, hand_facts
from ..tiles import Tile
from . import world_position, worlds_at
from .boneyard import hands_after
from . import count as counting
from .count import CountTooLarge, DealCount, count_deals
from .memo import remembered
from .meter import WORLD_STEPS, current_meter
from .placements import InferenceUnsupported
from .worlds import NoWorld, PUBLIC, Worlds, describe_step, laid_at_start

__all__ = ["SheetDeal", "SheetDeals", "sheet_deals", "first_contradiction", "decided_result", "sheet_result",
           "SheetResult", "listing", "Listing", "is_sheet", "record_worlds", "deal_outcomes", "sampled_result",
           "LIST_LIMIT", "MAX_DEALS"]

LIST_LIMIT = 200_000    # deals listed one by one to be filtered by the written result where they cannot be counted
OUTCOME_DRAWS = 2_000   # deals drawn for the ways the hand ends where the count keeps each side's pips only
COUNT_ABOVE = 2_000     # more deals than this are counted by how their hand ends, not listed (analyzer.inference.count)
MAX_DEALS = 1000        # the deals analysed: every one where there are at most this many, else this many drawn


@dataclass(frozen=True)
class SheetDeal:
    """One deal the record allows: each seat's dealt hand (a mask) and, in a draw game, the boneyard's order
    (the k-th draw takes ``order[k]``; None in a game without draws)."""

    hands: tuple[int, ...]
    order: tuple[Tile, ...] | None = None


@dataclass(frozen=True)
class SheetDeals:
    """The deals a record allows and those to analyse.

    ``count``: how many deals the record allows (those giving its written result, where it writes one);
    ``exact``: whether that count is exact, else estimated from uniform draws among the ``before_result``
    deals the moves allow, with ``count_ci95`` its 95% interval. ``deals``: the deals to
    analyse, every one (``method`` "all") or ``len(deals)`` drawn uniformly ("sampled"). ``results``: each
    hand result the deals analysed give, with in how many of them (winner, points, termination). ``replaced``:
    the deals were drawn one by one with replacement (a deal may come more than once), not chosen without
    replacement among the ``count`` (every one, or a uniform subset of different ones): where they were not, a mean
    over them is the mean over all ``count`` deals as ``len(deals)`` approaches it (the finite-population correction
    of :mod:`analyzer.analysis.sheets`)."""

    count: int
    exact: bool
    method: str
    deals: tuple[SheetDeal, ...]
    before_result: int
    count_ci95: tuple[int, int] | None = None
    replaced: bool = False

    @property
    def population(self) -> int | None:
        """The deals these were chosen among without replacement (the exact count), None where drawn with it."""
        return self.count if self.exact and not self.replaced else None

    @property
    def analysed(self) -> int:
        return len(self.deals)


def is_sheet(rep) -> bool:
    """Whether ``rep`` is a game whose record does not write every hand (a sheet): its deals are to be found."""
    return any(rep.initial.hidden) and rep.setup_lacks is None


class _Ending:
    """The hand's end in each deal: how it ends there and its result, and whether that is what the record
    states (a deal in which the hand is not over, or ends otherwise, does not give a written result)."""

    def __init__(self, rep, worlds: Worlds):
        self.rep, self.view = rep, worlds.view
        self.seen = len(rep.steps)
        self.leader = next((st.seat for st in rep.steps if st.move is not None and st.move.tile is not None), 0)
        self.ends: dict[tuple[int, ...], tuple | None] = {}       # (result, facts) by the hands at the end
        self.seen_ends: dict[tuple, tuple | None] = {}    # ... and by the deal and the tiles drawn
        self.events = [(st.seat, None if st.move.draw else st.move.tile.bit) for st in rep.steps
                       if st.move is not None and st.seat is not None and (st.move.draw or st.move.tile is not None)]
        self.laid = mask_of(st.move.tile for st in rep.steps
                            if st.move is not None and st.move.tile is not None and not st.move.draw)
        self.every = mask_of(rep.variant.dealing.tiles)
        self.draws = sum(1 for _, bit in self.events if bit is None)
        self.stated = None
        tag = rep.game.tags.get("Result")
        if tag is not None and len(rep.players) == rep.variant.players:
            try:
                self.stated = StatedResult.parse(tag)
            except ValueError:
                self.stated = None

    def result(self, world) -> HandResult | None:
        """The hand's result in ``world`` (None: the hand is not over there, or the players are not the game's),
        read off the hands at the end (worlds that differ only in the order of tiles nobody drew end alike)."""
        ended = self.ending(world)
        return None if ended is None else ended[0]

    def ending(self, world) -> tuple[HandResult, HandFacts] | None:
        """The hand's result in ``world`` and the facts it was scored from (None: see :meth:`result`)."""
        rep = self.rep
        if len(rep.players) != rep.variant.players:
            return None
        order = self.view.order(world)
        key = tuple(world[:len(rep.players)]) if order is None else (self.view.deal(world), order[:self.draws])
        if key not in self.seen_ends:
            final = self._final(world)
            if final not in self.ends:
                meter = current_meter()           # (the caller's now: a listing a memo kept outlives its meter)
                if meter is not None:             # (a position laid out and scored: steps of a metered caller's)
                    meter.charge(WORLD_STEPS)
                self.ends[final] = self._ended(world, final)
            self.seen_ends[key] = self.ends[final]
        return self.seen_ends[key]

    def _final(self, world) -> tuple[int, ...]:
        """Every hand at the end of the record in ``world``: in a game without draws the world itself, else the
        deal, each tile drawn given by the boneyard's order, each tile laid taken away."""
        n = len(self.rep.players)
        order = self.view.order(world)
        if order is None:
            return tuple(world[:n])
        return hands_after(tuple(self.view.deal(world)), order, self.events)

    def _ended(self, world, final: tuple[int, ...]) -> tuple[HandResult, HandFacts] | None:
        rep, n = self.rep, len(self.rep.players)
        if rep.final.history and not laid_at_start(rep.initial):
            pos = rep.final.copy()           # (the table at the end, every hand as the world has it)
            held = 0
            for h in final:
                held |= h
            pos.pool = (pos.pool | held) & ~held if not pos.draws else self.every & ~held & ~self.laid
            pos.hands, pos.hidden = list(final), [0] * n
        else:
            pos = world_position(rep, self.view.deal(world), self.seen, self.view.order(world))
        ended = pos.outcome()
        if ended is None:
            return None
        facts = hand_facts(pos, ended.termination, ended.seat, self.leader, rep.scores)
        return rep.variant.hand_result(facts), facts

    def agrees(self, result: HandResult | None) -> bool:
        """Whether a deal whose hand ends with ``result`` gives the written result (any, where none is written)."""
        if self.stated is None:
            return True
        if result is None:
            return False
        from ..replay.result import compare_result        # (the replay's one comparison of a stated result)

        return compare_result(self.stated, result, result, self.rep.variant, self.rep.players,
                              self.rep.worth) is None


@dataclass(frozen=True)
class Listing:
    """Every deal a sheet's moves allow, listed once, with how its hand ends in each (``results``, aligned with
    ``worlds``' order; None for one that is not over): what the checks of a sheet's result read
    (:func:`listing`)."""

    worlds: Worlds
    ending: _Ending
    results: tuple
    endings: tuple = ()       # (result, facts) of each world, aligned likewise (None for one that is not over)
    # where the deals were counted, not listed (analyzer.inference.count): ``results`` and ``endings`` hold each
    # way the hand ends once, and ``weights`` in how many deals (``endings`` empty where the count kept the
    # result but not every player's pips; one None in every deal, ``counted`` None, where the hand is over in
    # none of them: analyzer.inference.count.may_end)
    weights: tuple[int, ...] | None = None
    counted: DealCount | None = None     # (the count itself: its deals drawn where ``endings`` is empty)

    def tally(self) -> list[tuple[HandResult | None, int]]:
        """Each deal's result with in how many deals (one each where they were listed)."""
        return list(zip(self.results, self.weights or (1,) * len(self.results)))


def record_worlds(rep) -> Worlds:
    """The deals the whole record of ``rep`` allows (:func:`~analyzer.inference.worlds_at` at its end, the
    record's own view), taken from the memo of an enclosing :func:`~analyzer.inference.memo.remembering` block
    where it holds them. Raises :class:`NoWorld` and :class:`InferenceUnsupported` as ``worlds_at`` does."""
    return remembered(rep, "worlds", lambda: worlds_at(rep, len(rep.steps), PUBLIC, record=True))


def listing(rep, limit: int) -> Listing | None:
    """The :class:`Listing` of ``rep``'s deals where its moves allow some: listed where they are at most ``limit``
    and ``COUNT_ABOVE``, else counted (:func:`analyzer.inference.count.count_deals`); None where they are none, or
    a family whose deals are not listed, or too many to count and more than ``limit``. Kept as
    :func:`record_worlds` keeps the deals."""
    return remembered(rep, ("listing", limit), lambda: _listing(rep, limit))


def _listing(rep, limit: int) -> Listing | None:
    if len(rep.players) != rep.variant.players:
        return None
    try:
        worlds = record_worlds(rep)
    except (NoWorld, InferenceUnsupported):
        return None
    ending = _Ending(rep, worlds)
    if worlds.count > min(limit, COUNT_ABOVE):
        if _unfinished(rep, worlds, ending):         # the hand over in none of them: nothing to count by its end
            return Listing(worlds, ending, (None,), (None,), (worlds.count,))
        counted = _counted(rep, worlds, ending)
        if counted is not None:
            return Listing(worlds, ending, tuple(None if e is None else e[0] for e, _ in counted.endings),
                           tuple(e for e, _ in counted.endings) if counted.facts else (),
                           tuple(n for _, n in counted.endings), counted)
        if worlds.count > limit:
            return None
    endings = tuple(ending.ending(w) for w in worlds)
    return Listing(worlds, ending, tuple(None if e is None else e[0] for e in endings), endings)


def _unfinished(rep, worlds: Worlds, ending: _Ending) -> bool:
    """Whether the hand is over in none of the deals of ``worlds`` (:func:`analyzer.inference.count.may_end`;
    False where that is not counted)."""
    try:
        return not counting.may_end(rep, worlds, ending)
    except (CountTooLarge, InferenceUnsupported):
        return False


def _counted(rep, worlds: Worlds, ending: _Ending) -> DealCount | None:
    """The deals of ``worlds`` counted by how their hand ends, each player's pips kept where that takes at most a
    quarter of :data:`~analyzer.inference.count.STATES`, else each side's (None: too many states either way)."""
    for facts, states in ((True, counting.STATES // 4), (False, counting.STATES)):
        try:
            return count_deals(rep, worlds, ending, facts=facts, states=states)
        except CountTooLarge:
            continue
        except InferenceUnsupported:
            return None
    return None


def decided_result(rep, limit: int = 1000, listed: Listing | None = None) -> HandResult | None:
    """The result of a finished hand whose record hides tiles still held at the end, when every deal
    the record allows (at most ``limit`` of them) gives the same winner and points; else None. ``listed``: its
    deals listed already (:func:`listing`)."""
    if rep.outcome is None or len(rep.players) != rep.variant.players:
        return None
    listed = listed or listing(rep, limit)
    if listed is None:
        return None
    found = None
    for result in listed.results:
        if result is None:
            return None
        if found is not None and (result.winner, result.points) != (found.winner, found.points):
            return None
        found = result
    return found


@dataclass(frozen=True)
class SheetResult:
    """The result of a sheet's hand from its deals: ``result`` where every deal it allows gives the same winner
    and points (else None, and ``spans`` the results they give in words); ``kept`` of the ``total`` deals its
    moves allow give the written result (all of them where none is written). ``outcomes``: every way those deals
    end the hand (:class:`~analyzer.replay.result.DealOutcome`), the most frequent first: where the deals agree
    on the winner and points but not on what each side scores (Hungarian, French, All Fives...) there are
    several, and the match counts each; ``drawn``: where not 0, the outcomes are those of this many deals drawn
    uniformly among those (counted by each side's pips, not each player's: others may end the hand otherwise)."""

    result: HandResult | None
    spans: tuple[str, ...]
    kept: int
    total: int
    outcomes: tuple = ()
    drawn: int = 0


def sheet_result(rep, limit: int = 1000, listed: Listing | None = None) -> SheetResult | None:
    """The result of a finished hand whose record hides tiles still held at the end, from the deals the sheet
    allows (those giving its written result, where it writes one), where its moves allow at most ``limit``
    deals; None where that is not known. (A sheet whose moves do not show that its hand is over, the hands not
    shown perhaps holding a tile that fits, is over in each deal that gives its written result.) ``listed``: its
    deals listed already (:func:`listing`)."""
    if rep.outcome is None and "Result" not in rep.game.tags:
        return None
    return remembered(rep, ("sheet_result", limit), lambda: _sheet_result(rep, limit, listed))


def _sheet_result(rep, limit: int, listed: Listing | None) -> SheetResult | None:
    listed = listed or listing(rep, limit)
    if listed is None:
        return None
    ending = listed.ending
    kept = [(r, n) for r, n in listed.tally() if r is not None and ending.agrees(r)]
    ways, results = sum(n for _, n in kept), [r for r, _ in kept]
    weights = listed.weights or (1,) * len(listed.endings)
    endings = [(e, n) for e, n in zip(listed.endings, weights) if e is not None and ending.agrees(e[0])]
    total = listed.worlds.count
    outcomes = deal_outcomes([e for e, _ in endings], [n for _, n in endings])
    drawn = 0
    if listed.counted is not None and not listed.endings and ways:
        # counted by each side's pips: the ways the hand ends (each player's pips) are those of deals drawn
        rng = random.Random(0)
        worlds = [listed.counted.draw(rng) for _ in range(OUTCOME_DRAWS)]
        ends = [ending.ending(w) for w in worlds if w is not None]
        ends = [e for e in ends if e is not None and ending.agrees(e[0])]
        outcomes, drawn = deal_outcomes(ends), len(worlds)
    if kept and len({(r.winner, r.points) for r in results}) == 1:
        return SheetResult(results[0], (), ways, total, outcomes, drawn)
    return SheetResult(None, _spans(rep, results), ways, total, outcomes, drawn)


_BLANK = Tile(0, 0).bit


def deal_outcomes(endings, weights=None) -> tuple:
    """The :class:`~analyzer.replay.result.DealOutcome` of ``endings`` ((result, facts) of each deal; ``weights``:
    of how many deals each, one where None), the most frequent first: deals with the same result and the same facts
    but for the tiles left (their pips and counts kept, and which hand holds [0-0], which a lead rule may count)
    are one."""
    from ..replay.result import DealOutcome

    found: dict[tuple, list] = {}
    for (result, facts), n in zip(endings, weights or (1,) * len(endings)):
        key = (result, replace(facts, hands=None if facts.hands is None else tuple(h & _BLANK for h in facts.hands)))
        if key in found:
            found[key][1] += n
        else:
            found[key] = [facts, n]
    ranked = sorted(found.items(), key=lambda item: -item[1][1])
    return tuple(DealOutcome(key[0], facts, n) for key, (facts, n) in ranked)


def sampled_result(rep, draws: int = 2000, seed: int = 0) -> SheetResult | None:
    """:func:`sheet_result` from ``draws`` deals drawn uniformly among those the moves of ``rep`` allow, for a sheet
    whose deals are too many to list: ``kept`` of the ``draws`` give the written result, and ``outcomes`` are the
    ways those end the hand (some deal the sheet allows gives each, but others may end it otherwise). None where
    its deals are not drawn (none allowed, or a family the inference does not follow)."""
    if len(rep.players) != rep.variant.players or (rep.outcome is None and "Result" not in rep.game.tags):
        return None
    return remembered(rep, ("sampled_result", draws, seed), lambda: _sampled_result(rep, draws, seed))


def _sampled_result(rep, draws: int, seed: int) -> SheetResult | None:
    try:
        worlds = record_worlds(rep)
    except (NoWorld, InferenceUnsupported):
        return None
    ending = _Ending(rep, worlds)
    rng = random.Random(seed)
    endings = [ending.ending(worlds.sample(rng)) for _ in range(draws)]
    endings = [e for e in endings if e is not None and ending.agrees(e[0])]
    kept = [r for r, _ in endings]
    one = kept and len({(r.winner, r.points) for r in kept}) == 1
    return SheetResult(kept[0] if one else None, () if one else _spans(rep, kept), len(kept), draws,
                       deal_outcomes(endings))


def _spans(rep, results: list[HandResult]) -> tuple[str, ...]:
    """``results`` in words, by winner and ending, their points from least to most."""
    from ..replay.result import results_words

    return results_words(results, rep.variant, rep.players)


def _deal(view, world) -> SheetDeal:
    return SheetDeal(tuple(view.deal(world)), view.order(world))


def sheet_deals(rep, max_deals: int = MAX_DEALS, seed: int = 0, list_limit: int = LIST_LIMIT) -> SheetDeals:
    """The deals the whole record of ``rep`` allows (see the module), and ``max_deals`` of them drawn
    uniformly (with ``seed``) where there are more. Raises :class:`NoWorld` where none is allowed (the
    moves, or the written result: see :func:`first_contradiction` for where) and
    :class:`InferenceUnsupported` where the inference does not list this family's deals."""
    if max_deals < 1:
        raise ValueError(f"max_deals: at least one deal is analysed, not {max_deals}")
    worlds = worlds_at(rep, len(rep.steps), PUBLIC, record=True)
    ending = _Ending(rep, worlds)
    total = worlds.count
    rng = random.Random(seed)
    if ending.stated is None:
        if total <= max_deals:
            listed = [_deal(worlds.view, w) for w in worlds]
            return SheetDeals(total, True, "all", tuple(listed), total)
        drawn = [worlds.sample(rng) for _ in range(max_deals)]
        return SheetDeals(total, True, "sampled", tuple(_deal(worlds.view, w) for w in drawn), total, replaced=True)
    counted = None
    if total > min(list_limit, COUNT_ABOVE):
        if _unfinished(rep, worlds, ending):
            listed = Listing(worlds, ending, (None,), (None,), (total,))
            raise NoWorld(_no_result(rep, listed.results, listed), None, _result_line(rep))
        counted = _counted(rep, worlds, ending)
    if counted is not None:         # counted by how the hand ends: exact, and those giving the result drawn
        if not counted.stated:
            listed = Listing(worlds, ending, tuple(r for r, _ in counted.results), (),
                             tuple(n for _, n in counted.results))
            raise NoWorld(_no_result(rep, listed.results, listed), None, _result_line(rep))
        chosen = counted.choose(rng, max_deals)
        if chosen is not None:
            return SheetDeals(counted.stated, True, "all" if len(chosen) == counted.stated else "sampled",
                              tuple(_deal(worlds.view, w) for w in chosen), total)
    if total <= list_limit:
        every = list(worlds)
        results = [ending.result(w) for w in every]
        kept = [w for w, r in zip(every, results) if ending.agrees(r)]
        if not kept:
            raise NoWorld(_no_result(rep, results, Listing(worlds, ending, tuple(results))), None, _result_line(rep))
        count, method = len(kept), "all"
        if count > max_deals:
            kept, method = [kept[i] for i in sorted(rng.sample(range(count), max_deals))], "sampled"
        return SheetDeals(count, True, method, tuple(_deal(worlds.view, w) for w in kept), total)
    # too many to list: a uniform sample of the moves' deals, kept where they give the written result
    tries, kept = 0, []
    while len(kept) < max_deals and tries < 20 * max_deals:
        world = worlds.sample(rng)
        tries += 1
        if ending.agrees(ending.result(world)):
            kept.append(world)
    if not kept:
        raise NoWorld(gettext("the record states \"{stated}\" but none of the {n} deals drawn from the {total} its "
                              "moves allow gives it", stated=ending.stated, n=number(tries), total=number(total)),
                      None, _result_line(rep))
    share = len(kept) / tries
    half = 1.96 * math.sqrt(share * (1 - share) / tries)
    interval = (max(1, int(total * max(0.0, share - half))), min(total, math.ceil(total * (share + half))))
    return SheetDeals(round(total * share), False, "sampled", tuple(_deal(worlds.view, w) for w in kept), total,
                      interval, replaced=True)


def _result_line(rep) -> int | None:
    where = rep.game.tag_pos.get("Result")
    return where.line if where is not None and where.line else None


def _no_result(rep, results, listed: Listing) -> str:
    """Why the written result fits no deal: the results the deals give, by winner and ending, their points
    from least to most."""
    words = _spans(rep, [r for r in results if r is not None])
    count, stated = listed.worlds.count, listed.ending.stated
    if not words:
        return ngettext("the record states \"{stated}\" but no deal the sheet allows gives it: the {n} deal its moves "
                        "allow leaves the hand unfinished", "the record states \"{stated}\" but no deal the sheet "
                        "allows gives it: the {n} deals its moves allow leave the hand unfinished", count,
                        stated=stated)
    return ngettext("the record states \"{stated}\" but no deal the sheet allows gives it: the {n} deal its moves "
                    "allow ends {results}", "the record states \"{stated}\" but no deal the sheet allows gives it: "
                    "the {n} deals its moves allow end {results}", count, stated=stated,
                    results=gettext("; or ").join(words))


def first_contradiction(rep, list_limit: int = LIST_LIMIT, listed: Listing | None = None) -> NoWorld | None:
    """Where the record of ``rep`` (a sheet: see :func:`is_sheet`) allows no deal: the first move after which
    none is left (``NoWorld.step`` its index), with what it contradicts, or its Result tag (``step`` None) where
    the moves allow deals but none gives the written result (looked at where they are counted, or listed where
    at most ``list_limit``: :func:`listing`); None where some deal fits, or where that is not known. ``listed``: its deals listed
    already (:func:`listing`). Raises :class:`InferenceUnsupported` where the inference does not list this
    family's deals."""
    try:
        worlds = record_worlds(rep)
    except NoWorld as exc:
        return exc if exc.step is not None and exc.step < len(rep.steps) - 1 else _first_without(rep)
    if "Result" not in rep.game.tags:
        return None
    listed = listed or listing(rep, list_limit)
    if listed is None or listed.ending.stated is None:
        return None
    results = listed.results
    if any(listed.ending.agrees(r) for r in results) or len({None if r is None else (r.winner, r.points)
                                                              for r in results}) == 1:
        return None             # (one result whatever the deal: the match's check of a decided result says it)
    return NoWorld(_no_result(rep, results, listed), None, _result_line(rep))


def _first_without(rep) -> NoWorld:
    """The first move after which no deal agrees with the record (there is none after the last)."""
    low, high = 0, len(rep.steps)            # deals after ``low`` moves, none after ``high``
    if not high:
        return NoWorld(gettext("no deal agrees with the record's deal and lead"), None, None)
    while high - low > 1:
        mid = (low + high) // 2
        try:
            worlds_at(rep, mid, PUBLIC, record=True)
            low = mid
        except NoWorld as exc:
            if exc.step is not None and exc.step < mid - 1:
                return exc                   # a play a pass ruled out: named by the view itself
            high = mid
    step = rep.steps[high - 1]
    return NoWorld(_contradiction(rep, low, step), step.index, step.entry.pos.line or None)


def _contradiction(rep, before: int, step) -> str:
    """What the move ``step`` (after ``before`` moves with deals left) contradicts, in words."""
    seat = step.seat
    name = rep.players[seat] if seat is not None else gettext("the player")
    where = describe_step(rep, step)
    try:
        worlds = worlds_at(rep, before, PUBLIC, record=True)
    except (NoWorld, InferenceUnsupported):
        worlds = None
    if worlds is None or seat is None:
        return gettext("no deal agrees with the record once {move} is played", move=where)
    probs = worlds.probabilities().get(rep.players[seat], {})
    pos = rep.position_at(before)
    move = step.move
    if move is not None and move.tile is not None and not move.draw:
        holders = [h for h, held in worlds.probabilities().items() if held.get(move.tile, 0) > 0 and h != name]
        places = gettext(" or ").join(gettext("{player}'s hand", player=h) if h in rep.players else
                                      gettext("the boneyard") if h == "boneyard" else gettext("the sleepers")
                                      if h == "sleepers" else h for h in holders)
        return gettext("{player} plays {tile} at {move}, but every deal the sheet allows up to then puts it in "
                       "{places}", player=name, tile=move.tile, move=where, places=places or gettext("another hand"))
    fit = [t for t in rep.variant.dealing.tiles if pos.ends is not None and pos.placements(t)]
    sure = [t for t in fit if probs.get(t, 0) == 1]
    words = {"player": name, "numbers": gettext(" and ").join(str(n) for n in sorted(set(pos.ends or ()))),
             "move": where}
    draws = move is not None and move.draw
    if sure:
        tiles = ", ".join(str(t) for t in sure)
        return (gettext("{player} draws on {numbers} at {move}, but every deal the sheet allows up to then gives him "
                        "{tiles}", tiles=tiles, **words) if draws else
                gettext("{player} passes on {numbers} at {move}, but every deal the sheet allows up to then gives him "
                        "{tiles}", tiles=tiles, **words))
    tiles = ", ".join(str(t) for t in fit if probs.get(t, 0) > 0) or gettext("the tiles that fit")
    return (gettext("{player} draws on {numbers} at {move}, but every deal the sheet allows up to then gives him one "
                    "of {tiles}: the tiles left cannot be placed otherwise", tiles=tiles, **words) if draws else
            gettext("{player} passes on {numbers} at {move}, but every deal the sheet allows up to then gives him one "
                    "of {tiles}: the tiles left cannot be placed otherwise", tiles=tiles, **words))
