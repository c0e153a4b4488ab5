"""The fair analysis: every move judged by what its player could know.

At a decision of a seat whose hand is known, each legal alternative is valued as the mean, over
the worlds consistent with what the mover had seen (:mod:`analyzer.inference`), of its exact
open-hands value in that world. All alternatives of one decision are valued on the same worlds,
so the gap between two of them is measured world by world. When a decision has at most
``exact_below`` worlds every one is solved (the values are exact); otherwise ``worlds`` of them are
drawn uniformly, with a 95% confidence interval for each mean, and more (doubling, to ``max_worlds``)
while the fair best is not told apart from another move (:mod:`analyzer.analysis.fairstats`); the moves it
is not told apart from are named on the verdict (``FairDecision.tied``). Every world weighs the same.

The verdicts on a graded move (see :class:`FairThresholds`): *real* when the fair loss reaches a
class and the gap to the best alternative is significant over the shared worlds, *uncertain* when
the fair loss reaches a class but the gap is not significant (the deals drawn do not show that the
move was worse), *hindsight* when only the open-hands loss reaches a class. Losses are compared with
the thresholds exactly (as fractions of whole points over the worlds, never as rounded floats).

Each alternative's value also keeps how it spreads over the worlds (:class:`Spread`: percentiles by
nearest rank), and a real mistake the world where the move played does worst against the best
(:class:`WorstWorld`, with that world's hands at the decision). The verdict keeps the worlds it counted
(``FairDecision.seen``), so the report's view of who holds what does not count them again.

Worlds are independent, so they are solved in a process pool (``workers``).
"""
from __future__ import annotations

import os
import random
from contextlib import ExitStack
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Iterator, Sequence

from ..i18n import gettext, ngettext, number
from ..inference import InferenceUnsupported, NoWorld, worlds_at, world_position
from ..inference.boneyard import hands_after
from ..position import mask_of, tiles_of
from ..replay import Replay
from ..search.core import SearchBudget
from ..search.tree import NO_EXTRA, NODE_LIMIT, SearchLimit, revealed
from ..search.block import SolverError
from ..search.worlds import WorldsSolver
from ..search.draw import plays_runs
from ..search.drawworlds import DrawWorlds
from ..workers import pool_options
from ..rules.mechanics import turned_up
from ..codec import key
from ..tiles import Move, Tile
from .readings import WorldReading, points_before
from .settings import EXACT_BELOW, WORLDS, FairRun, FairSettings  # noqa: F401  (their home; fair's names too)
from .brackets import not_told_apart
from .teamfair import TeamBracket, overruled, team_bracket, team_points
from .hiddenfair import (GAME_VALUE, METHOD as HIDDEN, OPEN_MEAN, HiddenVerdict, contradicted, exact_points,
                         hidden_unavailable, hidden_verdict, least_loss, surely_worse)
from .hiddenwords import contradiction_words
from .fairstats import (EARLY_LOOKS, GROWTH, PERCENTILES, Z95, FairThresholds, FairValue, Spread, early_z, fair_verdict,
                        look_z, looks,
                        paired_gap, percentile, tied_moves, value_summary, worth_more)
from . import (AgainstTheRest, AnalysisSettings, Alternative, Decision, GameAnalysis, GradeOnScale, alternative_text,
               analyze_replay, int_solver_plays, open_decision, renewed, searcher_for, stop_reason, stops_at_decision)

__all__ = ["FairValue", "FairDecision", "FairThresholds", "fair_analyze", "fair_seats", "solve_dealt", "dealt_position", "decision_table",
           "WorldSearch", "world_decision", "world_searcher", "EXACT_BELOW", "WORLDS", "FairSettings", "FairRun",
           "Spread", "WorstWorld", "percentile", "PERCENTILES", "fair_verdict", "Z95", "GROWTH"]


@dataclass(frozen=True)
class WorstWorld:
    """At a real mistake, a world where the move played does worst against the fair best: the gap there
    (from the mover's side, in points), both moves' values in it (in the points of the fair mean), and
    the hands of that world at the decision (each player's, then the tiles nobody holds: the boneyard in
    the order it is drawn in a draw game, else the sleepers)."""

    gap: int
    best_value: int
    played_value: int
    hands: tuple[tuple[str, tuple[Tile, ...]], ...]
    rest: tuple[Tile, ...]
    ordered: bool = False            # ``rest`` is a boneyard in the order it is drawn

    def as_dict(self) -> dict:
        return {"gap": self.gap, "best_value": self.best_value, "played_value": self.played_value,
                "hands": {name: [str(t) for t in tiles] for name, tiles in self.hands},
                "boneyard" if self.ordered else "sleepers": [str(t) for t in self.rest]}


@dataclass(frozen=True)
class FairDecision:
    view: str                 # the mover, whose knowledge the worlds follow
    worlds: int = field(metadata=key("deals", retired="worlds"))   # the deals solved (all of them, or the number
                              # drawn): each a world the mover cannot tell from the one played
    method: str               # "exact" or "sampled" (open hands in every world, or in those drawn), or
                              # "exact-hidden" (the exact solver under hidden information: ``analysis.hiddenfair``)
    best: str = field(metadata=key(none_if="tied"))     # (written None where tied: no best is named)
    loss: float               # from the mover's side, never negative
    cls: str | None = field(metadata=key("class"))
    verdict: str              # "real", "uncertain", "hindsight" or "none" (see the module)
    total: int = field(default=0, metadata=key("total_deals", retired="total_worlds"))   # how many there are in all
    worst: WorstWorld | None = field(default=None, metadata=key("worst_deal", omit_none=True, after="tied",
                                                                retired="worst_world"))
                              # at a real mistake: where the move played does worst against the best
    tied: tuple[str, ...] = field(default=(), metadata=key(after="total"))
                              # the moves not told apart from the best, ``best`` first (empty: it is told apart;
                              # see ``analysis.fairstats``): then ``best`` is the first by the mean, no verdict
    seen: object = field(default=None, repr=False, compare=False, metadata=key(skip=True))   # the
                              # ``inference.Worlds`` the mover could not tell apart, as counted here (not kept when
                              # pickled)
    holds: tuple | None = field(default=None, repr=False, compare=False, metadata=key(skip=True))   # who holds
                              # what in them, for a page: ``inference.holds_of(seen)`` (``pipeline.mover_views``)
    # where the class comes from the chance to win the hand, not from the points: the chances in words
    # (``FairThresholds.cause``; None: the points give it)
    cause: str | None = field(default=None, metadata=key(omit_none=True))
    hidden: dict | None = field(default=None, metadata=key(omit_none=True))   # "exact-hidden": the solver's
                              # figures (``hiddenfair.HiddenVerdict.summary``); a sampled verdict an open CFR+
                              # bracket contradicts: those figures, ``overturned`` (its best, not called best),
                              # ``better`` (the move certified better), ``least_loss`` and ``against`` (what the
                              # move played surely loses, against which) and ``contradicts`` (why, in words)
    team: TeamBracket | None = field(default=None, metadata=key(omit_none=True))   # a partnership block game's
                              # small endgame: each move's certified bracket under hidden information, the best
                              # it certifies, the fair best it overturns (``analysis.teamfair``)
    estimates: str | None = field(default=None, metadata=key(omit_none=True))   # what the values are: the
                              # "open-hands mean" over the deals ("exact", "sampled") or the "game value" under
                              # hidden information ("exact-hidden"); ``hiddenfair.OPEN_MEAN``, ``GAME_VALUE``
    over_hands: object | None = field(default=None, metadata=key(omit_none=True))   # "over-hands" (a sheet
                              # without hands, ``analysis.sheets``): the loss over the hands the mover may have
                              # held (``dealvalues.OverHands``); ``loss`` its mean
    on_scale: GradeOnScale | None = field(default=None, metadata=key(inline=True, omit_none=True))   # its loss
                              # and class on the match scale (``MatchScale.applied``): ``mwc_loss``, ``mwc_class``
    loss_bracket: tuple[float, float] | None = field(default=None, metadata=key(omit_none=True))   # "exact-hidden"
                              # by open brackets that certify the best (``hiddenfair.open_brackets``): where the loss
                              # of the move played certainly lies (its class is the low end's, or the high end's,
                              # "uncertain", where only that has one)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "seen": None}

    def overruled(self, best: str, tied: tuple[str, ...], **brackets) -> FairDecision:
        """This verdict where certified brackets under hidden information overturn its best: ``best`` named instead,
        with ``tied`` (the moves not told apart from it, ``best`` first; empty: told apart), no verdict, no loss, no
        class, no worst deal; ``brackets``: the brackets' figures (``hidden`` or ``team``)."""
        return replace(self, best=best, tied=tied, loss=0.0, cls=None, verdict="none", cause=None, worst=None,
                       **brackets)


def fair_seats(rep: Replay, chosen: Sequence[str] = ()) -> tuple[list[int], list[str]]:
    """The seats the fair analysis can judge (their whole hand is known) among ``chosen`` (all when
    empty), and a reason for each seat left out."""
    seats, why = [], []
    for s, name in enumerate(rep.players):
        if chosen and name not in chosen:
            why.append(gettext("{player}: not asked for (--seat)", player=name))
        elif rep.initial.hidden[s]:
            why.append(gettext("{player}: the record does not show the whole hand", player=name))
        else:
            seats.append(s)
    why += [gettext("{player}: not a player of this game", player=name) for name in chosen if name not in rep.players]
    return seats, why


# -- solving worlds (in this process or in a pool) ------------------------------------------------
_JOB: dict = {}
_HELD: dict = {}      # this process's search, kept from task to task: never sent to a worker (it cannot be pickled)


def _rules(rep: Replay, seat: int):
    """The rules ``seat``'s worlds are solved under: the variant's, or his against all the others'."""
    return AgainstTheRest(rep.variant, seat) if rep.variant.seating.sides > 2 else rep.variant


def world_searcher(rep: Replay, seat: int, budget: SearchBudget):
    """A search of one world of ``seat``'s decisions (under his rules: :func:`_rules`), within ``budget``."""
    search = searcher_for(_rules(rep, seat), int_solver_plays(rep.variant), budget.node_limit, budget.table_mb,
                          max_deals=1)
    search.bound_past_limit = False     # a world past the node limit drops the fair verdict: no bounds needed
    return search


CHUNK = 25              # worlds a task solves (a pool balances its work by tasks)


def early_looks(settings: FairSettings) -> tuple[int, ...]:
    """The worlds of a sampled decision's early looks, where its worlds may grow (``max_worlds`` above ``worlds``): a
    quarter and a half of ``worlds`` (``fairstats.EARLY_LOOKS`` of them, halving from a half; each whole tasks of
    ``CHUNK``, at least two, and the smaller ones left out: 50 and 100 of 200, 50 alone of 100). At each the decision
    stops only where its best is told apart from every other move at ``fairstats.early_z`` of their number (beyond
    doubt: the looks share ``EARLY_ALPHA``); else it goes on to the next and then to ``worlds`` and its looks as before,
    the moves told apart at that ``z`` no longer valued (racing). Empty: no early look."""
    if settings.max_worlds is None or settings.max_worlds <= settings.worlds:
        return ()
    sizes = {settings.worlds // 2 ** (i + 1) // CHUNK * CHUNK for i in range(EARLY_LOOKS)}
    return tuple(sorted(n for n in sizes if n >= 2 * CHUNK))


@dataclass(frozen=True)
class WorldSearch:
    """How the worlds of one decision are searched: each within ``budget``; ``only``: these alternatives valued
    alone (None: every one; the others are neither searched where a compiled batch takes the worlds, nor in the
    rows); with ``reading`` (a ``readings.WorldReading``), each alternative's result in each world is read too."""

    budget: SearchBudget = field(default_factory=SearchBudget)
    only: list[Move] | None = None
    reading: WorldReading | None = None


@dataclass
class _Plan:
    """The worlds of one decision: listed (every one) or drawn in the task that solves them."""

    k: int
    seat: int
    moves: list[Move]
    worlds: object            # the decision's ``inference.Worlds``
    method: str               # "exact" or "sampled"; "exact-hidden": solved by the exact solver (``hidden``)
    listed: list | None       # every world (exact), else None
    size: int                 # how many worlds are solved
    seed: int
    hidden: object = None     # "exact-hidden": the decision's ``hidden.HiddenDecision`` (no world solved)
    contenders: tuple[int, ...] | None = None   # the moves (indices into ``moves``) valued in the worlds drawn from
                              # now on: those still in contention (``_next_round``); None: every move
    valued: dict = field(default_factory=dict)     # part -> the moves its worlds were valued for (as ``contenders``)
    bracket: object = None    # an open CFR+ decision of the same point (``hidden.HiddenDecision``, not closed): its
    #                           certified brackets overrule a sampled verdict they contradict (``_checked``)
    team: object = None       # a partnership decision's bracket (``hidden.TeamDecision``): beside the fair verdict,
    #                           which it overrules where it contradicts its best (``_teamed``)

    def chunk(self, part: int, size: int | None = None) -> list:
        """The worlds of task ``part`` when ``size`` worlds are solved (default ``self.size``; a pool's
        workers are told it with the task, since the plan they were given may have grown since): a slice of
        the listed ones, or drawn with the part's own seed (so a run is the same whatever the number of
        processes)."""
        size = self.size if size is None else size
        if self.listed is not None:
            return self.listed[part * CHUNK:min((part + 1) * CHUNK, size)]
        rng = random.Random((self.seed * 1_000_003 + self.k) * 100_003 + part)
        return [self.worlds.sample(rng) for _ in range(min(CHUNK, size - part * CHUNK))]


def _shared_searcher(rep: Replay, seat: int, budget: SearchBudget):
    """The search of a world. Where the int solver plays, a new one (its tables belong to one deal).
    Elsewhere, one for all the worlds this process solves, kept from task to task: the general search's
    table of positions is emptied for each deal, but a search over arms keeps its table, which is sound
    across deals (see ``TreeSearch._start``) and holds what the worlds have in common. One player
    against the rest has rules of his own: the search of the next seat replaces the last."""
    if int_solver_plays(rep.variant):
        return world_searcher(rep, seat, budget)
    rules = seat if rep.variant.seating.sides > 2 else None
    held = _HELD.get("searcher")
    if held is None or held[0] != rules:
        held = _HELD["searcher"] = None  # (the last one's tables are freed before the next one's grow)
        _HELD["searcher"] = held = (rules, world_searcher(rep, seat, budget))
    return held[1]


def _solve(task: tuple[int, int, int, tuple[int, ...] | None]) -> tuple[list[list[tuple[Move, int]]], list | None] | None:
    """The value of every alternative in each world of part ``task[1]`` of plan ``task[0]`` when it solves
    ``task[2]`` worlds (None: a world needs more positions than the node limit allows), and where the job
    asks for them (``_JOB["results"]``) each alternative's result in each world (:func:`_world_results`).
    ``task[3]``: the alternatives valued (indices into the plan's moves; None: all of them)."""
    rep, plan = _JOB["rep"], _JOB["plans"][task[0]]
    worlds = plan.chunk(task[1], task[2])
    reading = WorldReading.at(rep, plan.k, plan.seat) if _JOB.get("results") else None
    only = None if task[3] is None else [plan.moves[i] for i in task[3]]
    got = _values(rep, plan, worlds, WorldSearch(_JOB["budget"], only, reading))
    if got is None:
        return None
    rows, known = got
    return rows, (_world_results(rep, plan, worlds, rows, known) if reading is not None else None)


def _values(rep: Replay, plan: _Plan, worlds: list,
            search: WorldSearch = WorldSearch()) -> tuple[list[list[tuple[Move, int]]], list] | None:
    """The value of every alternative in each of ``worlds`` of ``plan`` (None: past the node limit), and with
    ``search.reading`` each alternative's result in each world whose search could read them at once, its table warm
    (``known``: the principal variations from a compiled batch of worlds, ``WorldsSolver.lines``, or played out
    by the search that valued the world alone): ``(values, known)``, ``known`` aligned with ``worlds``, None for
    a world whose results are not known yet (:func:`_world_results` plays them out). ``search.only``: these
    alternatives valued alone (the others not searched where a compiled batch takes the worlds; left out of the rows)."""
    k, seat, view = plan.k, plan.seat, plan.worlds.view
    reading = search.reading
    template = rep.position_at(k)
    try:
        if not template.draws:
            return solve_dealt(rep, template, [view.deal(world) for world in worlds], seat, search)
        batch = _solve_drawn(rep, k, seat, [(view.deal(world), view.order(world)) for world in worlds], search)
        if batch is not None:
            return batch
        out, known = [], []
        same: dict[tuple, tuple] = {}          # worlds that differ only in the order of tiles nobody may draw
        for world in worlds:
            deal, order = view.deal(world), view.order(world)
            key = (deal, order[:len(order) - template.keep]) if order is not None else None
            if key not in same:
                pos = _drawn_position(rep, k, seat, deal, order)
                solver = _shared_searcher(rep, seat, search.budget)
                row = _kept(solver.values(pos), search.only)
                found = reading.played(solver, pos, row) if reading is not None and order is not None else None
                if key is None:
                    out.append(row)
                    known.append(found)
                    continue
                same[key] = row, found
            out.append(same[key][0])
            known.append(same[key][1])
        return out, known
    except SearchLimit:
        return None


def _drawn_position(rep: Replay, k: int, seat: int, deal: tuple[int, ...], order):
    """The decision of ``seat`` at step ``k`` of a draw game in the world dealt ``deal`` with its boneyard in
    ``order`` (None: drawn in no known order): the search draws in this order, and right after the lead
    the opener may add a tile."""
    pos = world_position(rep, deal, k, order)
    if order is not None:
        offer = pos.bonus if pos.bonus == seat and pos.may_add(seat) else -1
        pos = revealed(pos, list(order), offer)
        pos.turn = seat
    return pos


def _solve_drawn(rep: Replay, k: int, seat: int, worlds: list[tuple[tuple[int, ...], tuple | None]],
                 search: WorldSearch = WorldSearch()) -> tuple[list[list[tuple[Move, int]]], list] | None:
    """The value of every alternative in each of ``worlds`` (deal, boneyard order) of a draw game, all in one
    call into the compiled draw search (``search.drawworlds``; worlds that differ only in the order of tiles
    nobody may draw are solved once); None where it does not take them (then each world is searched alone).
    With ``search.reading``, each alternative's result in each world along the principal variations the same call
    gave (``DrawWorlds.lines``, where points are scored during play; else not known yet): ``(values, known)``
    (see :func:`_values`); ``search.only``: these alternatives alone."""
    if not worlds or any(order is None for _, order in worlds) or turned_up(rep.initial) is not None:
        return None
    template = _drawn_position(rep, k, seat, *worlds[0])
    events = []                 # (seat, tile bit or None for a draw) of the moves before the decision
    for step in rep.steps[:k]:
        if step.move is not None and (step.move.draw or step.move.tile is not None):
            events.append((step.seat, None if step.move.draw else step.move.tile.bit))
    keep = template.keep
    unique: dict[tuple, int] = {}
    batch = []
    for deal, order in worlds:
        key = (deal, order[:len(order) - keep])
        if key not in unique:
            unique[key] = len(batch)
            batch.append((hands_after(deal, order, events), tuple(t.bit for t in order)))
    if batch[0][0] != tuple(template.hands):
        return None                 # (the record's moves do not give the hands so: let the replay say)
    solver = DrawWorlds(_rules(rep, seat), search.budget.node_limit, search.budget.table_mb)
    reading, only = search.reading, search.only
    got = solver.lines(template, batch, only) if reading is not None else None
    rows, lines = got if got is not None else (solver.values(template, batch, only), None)
    if rows is None:
        return None
    known = [None] * len(batch)
    if lines is not None:
        for at, (hands, _) in enumerate(batch):
            known[at] = reading.lines(template, hands, rows[at], lines[at])
    places = [unique[(deal, order[:len(order) - keep])] for deal, order in worlds]
    return [rows[at] for at in places], [known[at] for at in places]


def solve_dealt(rep: Replay, template, deals: list[tuple[int, ...]], seat: int,
                search: WorldSearch = WorldSearch()) -> tuple[list[list[tuple[Move, int]]], list]:
    """The value of every alternative in each of ``deals`` of a game without drawing, whose table is the same in
    every world (only the hands, and the tiles out of play, change): where the int solver plays (Hungarian: the
    draw games' batch), all in one call into the compiled core (``search.worlds``, ``drawworlds``), each world it
    leaves to Python (a move that ends the hand), and every world where it cannot, searched alone (each within
    ``search.budget``). With ``search.reading``,
    each alternative's result in each world, along the principal variations the compiled batch gave with the
    values (``WorldsSolver.lines``), or played out by the search that valued the world alone: ``(values,
    known)`` (see :func:`_values`). ``search.only``: these alternatives alone (the others neither searched where the
    compiled batch takes the worlds, nor in the rows)."""
    def position(deal: tuple[int, ...]):
        return dealt_position(rep, template, deal)

    reading, only = search.reading, search.only
    rows, lines = [None] * len(deals), [None] * len(deals)
    runs, table = plays_runs(rep.variant), _on_table(template)       # (Hungarian: the draw games' batch)
    if (runs or int_solver_plays(rep.variant)) and deals:
        solver = (DrawWorlds if runs else WorldsSolver)(_rules(rep, seat), search.budget.node_limit,
                                                        search.budget.table_mb)
        batch = [(tuple(d & ~table for d in deal), ()) for deal in deals] if runs else deals
        if reading is None:
            rows = solver.values(position(deals[0]), batch, only) or rows
        else:
            rows, lines = solver.lines(position(deals[0]), batch, only) or (rows, lines)
    out, known = [], []
    reader = None           # (the decision in the first world: the worlds' lines are read off it)
    for row, found, deal in zip(rows, lines, deals):
        if row is not None:
            out.append(row)
            if found is not None and reader is None:
                reader = position(deal)
            known.append(None if found is None else (reading.lines if runs else reading.dealt)(
                reader, tuple(d & ~table for d in deal), row, found))
            continue
        pos = position(deal)
        solver = _shared_searcher(rep, seat, search.budget)
        out.append(_kept(solver.values(pos), only))
        known.append(None if reading is None else reading.played(solver, pos, out[-1]))
    return out, known


def _kept(row: list[tuple[Move, int]], only: list[Move] | None) -> list[tuple[Move, int]]:
    """The values of ``row`` of the alternatives ``only`` (all of them: None)."""
    return row if only is None else [(m, v) for m, v in row if m in only]


def _on_table(pos) -> int:
    """The tiles laid at ``pos``, as a mask (each laid once: their bits add up)."""
    return sum(move.tile.bit for move, *_ in pos.history if move.tile is not None)


def dealt_position(rep: Replay, template, deal: tuple[int, ...]):
    """The decision ``template`` (a position of a game without drawing) in the world dealt ``deal``."""
    table = _on_table(template)
    pos = template.copy()
    pos.hands = [d & ~table for d in deal]
    pos.hidden = [0] * len(deal)
    held = table
    for d in deal:
        held |= d
    pos.pool = mask_of(rep.variant.dealing.tiles) & ~held
    return pos


def _world_results(rep: Replay, plan: _Plan, worlds: list, rows: list[list[tuple[Move, int]]],
                   known: list | None = None) -> list:
    """Each alternative's result in each of ``worlds`` (as ``rows`` lists them): the hand played out along
    its principal variation in that world with every hand open (``outcomes.played_out``, the open-hands
    analysis's reading, here in the world the mover could not tell from the real one), the values of
    ``rows`` its first guess; those ``known`` already (see :func:`_values`) kept. None for a world whose
    boneyard order is unknown or past the node limit."""
    k, seat, view = plan.k, plan.seat, plan.worlds.view
    template = rep.position_at(k)
    reading = WorldReading.at(rep, k, seat)
    out = []
    for world, row, found in zip(worlds, rows, known or [None] * len(rows)):
        if found is not None:
            out.append(found)
            continue
        pos = world_decision(rep, k, seat, view.deal(world), view.order(world), template)
        if pos is None:
            out.append([None] * len(row))
            continue
        out.append(reading.played(_shared_searcher(rep, seat, _JOB["budget"]), pos, row))
    return out


def world_decision(rep: Replay, k: int, seat: int, deal: tuple[int, ...], order, template=None):
    """The decision of ``seat`` before step ``k`` in the world dealt ``deal`` (each seat's dealt hand, a mask) with
    the boneyard in ``order`` (a draw game's; a world's ``view.deal``, ``view.order``, or a sheet's deal), every hand
    open as the fair analysis solves it (``template``: ``rep.position_at(k)``, where the caller has it); None in a
    draw game whose boneyard order is not known."""
    template = rep.position_at(k) if template is None else template
    if not template.draws:
        return dealt_position(rep, template, deal)
    return None if order is None else _drawn_position(rep, k, seat, deal, order)


def _sample(rep: Replay, plans: list[_Plan], budget: list[int], settings: FairSettings,
            run: FairRun) -> tuple[list, list]:
    """Every plan's worlds solved: all of them at once, then, round by round, more worlds for each sampled
    decision whose best is not told apart from another move (``fairstats.tied_moves`` at the ``z`` of
    ``budget``, the numbers of worlds it may be looked at with): its next number of worlds, until it is told
    apart, more worlds would not tell it apart within the budget (``fairstats.worth_more``), or the budget is
    spent; each world searched within ``settings.budget``. One pool of ``run.workers`` processes (made by
    ``run.pool``, at the first round with more than one task)
    serves every round, its searches kept warm; each task carries the number of worlds its plan solves then,
    since a worker holds the plans as they were when it started. A part's worlds are drawn with its own seed,
    so the worlds of a larger number extend those of a smaller, and a run is the same whatever the processes.
    Returns per plan its values in each world (None: past the node limit) and, with ``settings.results``, each
    world's results (see :func:`_solve`). ``run.progress(done, total)``: the worlds solved so far (each counted once) and
    the most there may be in all, the budget: every decision that may still draw more counted at
    ``budget[-1]``, so the total only shrinks, as decisions are settled, and ends equal to ``done``."""
    individual = rep.variant.seating.sides > 2
    workers, progress, results = run.workers or 1, run.progress, settings.results
    early = early_looks(settings)
    z = look_z(len(budget), bool(early))
    got: list[dict] = [{} for _ in plans]
    have: list[dict] = [{} for _ in plans]        # worlds solved per part (a part not full is solved again, whole)
    tasks = [(p, part, None) for p, plan in enumerate(plans) for part in range(-(-plan.size // CHUNK))]
    growing = {p for p, plan in enumerate(plans) if plan.method == "sampled" and budget[-1] > plan.size}
    _JOB.update(rep=rep, budget=settings.budget, plans=plans, results=results)   # a forked worker finds them here
    try:
        with ExitStack() as stack:
            executor = None
            while tasks:
                if individual:      # seat by seat, so that the search of one seat's rules serves all his worlds
                    tasks.sort(key=lambda task: plans[task[0]].seat)
                if executor is None and workers > 1 and len(tasks) > 1:
                    start = pool_options(__name__, "_JOB")     # (forked only with no other thread alive)
                    executor = stack.enter_context(run.pool_maker()(max_workers=workers, **start))
                sized = [(p, part, plans[p].size, only) for p, part, only in tasks]
                for p, part, only in tasks:
                    plans[p].valued[part] = only
                for (p, part, size, _), res in _solved(sized, executor):
                    got[p][part] = res
                    have[p][part] = min(CHUNK, size - part * CHUNK)
                    if progress is not None:
                        progress(sum(sum(h.values()) for h in have),
                                 sum(budget[-1] if q in growing else plan.size for q, plan in enumerate(plans)))
                tasks = _next_round(rep, plans, got, (early, budget), z)
                growing = {p for p, *_ in tasks}        # (the others are settled: their worlds are all solved)
            if progress is not None:       # every decision settled: the total is the worlds solved
                progress(sum(sum(h.values()) for h in have), sum(plan.size for plan in plans))
    finally:
        _JOB.clear()
        _HELD.clear()
    joined = [_joined(got[p], plan) for p, plan in enumerate(plans)]
    return [values for values, _ in joined], [found if results else None for _, found in joined]


def _solved(sized: list[tuple], executor) -> Iterator[tuple[tuple, object]]:
    """Each task of ``sized`` with what :func:`_solve` gives it, in order (in ``executor``'s processes, else here).
    Once a part of a plan is past the node limit (None), its other parts are not solved (cancelled in the pool) and
    give None: the decision is not valued whatever they give, and each would spend the node limit again."""
    futures = [executor.submit(_solve, task) for task in sized] if executor is not None else []
    failed: set[int] = set()
    for i, task in enumerate(sized):
        res = None if task[0] in failed else futures[i].result() if futures else _solve(task)
        if res is None and task[0] not in failed:
            failed.add(task[0])
            for later, waiting in zip(sized[i + 1:], futures[i + 1:]):
                if later[0] == task[0]:
                    waiting.cancel()
        yield task, res


def _next_round(rep: Replay, plans: list[_Plan], got: list[dict], sizes: tuple[tuple[int, ...], list[int]],
                z: float) -> list[tuple[int, int, tuple[int, ...] | None]]:
    """The tasks of the next round: each sampled plan whose best is not told apart, where more worlds may tell
    it apart within the budget, grown to its next number of worlds (its ``size`` set to it). ``sizes``: the early
    looks (:func:`early_looks`) and ``budget``, the looks at ``z``. A plan at an early look (fewer worlds than
    ``budget[0]``) is judged at ``fairstats.early_z`` of their number and its worlds (Student's ``t``) and grows
    wherever its best is not told apart
    at it (no stop for futility there: ``budget[0]`` is where the looks at ``z`` start). The worlds drawn
    from then on value the moves still in contention alone (``contenders``: the best and the moves it is not
    told apart from, at the look's ``z``, and the move played, whose verdict is read over every world; racing, or
    successive elimination): a move told apart from the best
    keeps its values in the worlds it was valued in, which is where it was shown worse; it is not valued again
    (a move once dropped stays dropped, so each move's worlds are the first ones drawn, a prefix)."""
    early, budget = sizes
    tasks = []
    for p, plan in enumerate(plans):
        more = [n for n in (*early, *budget) if n > plan.size]
        per_world = _joined(got[p], plan)[0] if plan.method == "sampled" and more else None
        if per_world is None:
            continue
        sign = _sign(rep, plan.seat)
        table, best = decision_table(rep, plan.k, plan.seat, plan.moves, per_world)
        racing = set(range(len(plan.moves)) if plan.contenders is None else plan.contenders)
        at_early = plan.size < budget[0]
        close = [m for m in tied_moves(table, best, sign, False, early_z(len(early), plan.size) if at_early else z)
                 if plan.moves.index(m) in racing]
        if len(close) > 1 and (at_early or worth_more(table, best, sign, close, z, budget[-1])):
            played = _played(rep, plan)         # (valued in every world: its verdict is read over all of them)
            plan.contenders = tuple(sorted({plan.moves.index(m) for m in close} |
                                           ({plan.moves.index(played)} if played in plan.moves else set())))
            first, plan.size = plan.size // CHUNK, more[0]       # (a part not full is solved again, whole, with
            tasks += [(p, part, plan.valued[part] if part in plan.valued else plan.contenders)
                      for part in range(first, -(-plan.size // CHUNK))]      # the moves it had: each a prefix)
    return tasks


def _played(rep: Replay, plan: _Plan) -> Move | None:
    """The move played at the decision of ``plan`` (no extra tile: ``NO_EXTRA``); None where the record stops there."""
    if plan.k == len(rep.steps):
        return None
    return NO_EXTRA if _declined(rep, plan.k, plan.seat, plan.moves) else rep.steps[plan.k].move


def _joined(parts: dict, plan: _Plan) -> tuple[list | None, list | None]:
    """A plan's values in each world and each world's results (None: not known), from its parts in order."""
    values: list | None = []
    found: list | None = []
    for part in range(-(-plan.size // CHUNK)):
        got = parts[part]
        if got is None:
            return None, None
        values += got[0]
        found = None if found is None or got[1] is None else found + got[1]
    return values, found


# -- the analysis -----------------------------------------------------------------------------------
def fair_analyze(rep: Replay, base: GameAnalysis | None = None, *, settings: FairSettings = FairSettings(),
                 run: FairRun = FairRun()) -> GameAnalysis:
    """The fair analysis of a replayed game, added to its open-hands analysis ``base`` (computed here
    when not given): each decision of an analysed seat gains ``fair`` and each of its alternatives a
    :class:`FairValue`; decisions the open-hands analysis could not value (a hidden hand) are added
    with ``None`` values. ``settings`` (:class:`~analyzer.analysis.settings.FairSettings`) says what is
    computed: the seats judged (default: every one whose hand is known), the worlds drawn, the seed, the
    thresholds, each world's search budget (as it bounds the open-hands analysis), ``results``: also each
    alternative's result in each world along its principal variation there (``FairValue.results``), which the
    match scale reads where both sides may score in a hand (``outcomes.needs_results``). A sampled decision
    whose best is not told apart from another move draws more worlds, doubling from ``worlds`` to ``max_worlds``
    (default ``worlds``: no more; the commands' default is :data:`GROWTH` times ``worlds``): see
    :mod:`analyzer.analysis.fairstats`. ``exact_hidden``: a decision of a two-player game small enough is valued
    exactly under hidden information instead (:mod:`analyzer.analysis.hiddenfair`; without scipy, sampled as the
    others, and the note says so). ``run`` (:class:`~analyzer.analysis.settings.FairRun`) says how, which never
    changes a value: ``run.pool(max_workers=, mp_context=)`` makes the process pool of ``run.workers`` > 1
    (default: 2 where the machine has them); ``run.progress(done, total)`` is called (in this process) as the
    worlds are solved, counted in worlds, and ``run.exact(step, number, count, seconds)`` as each decision valued
    exactly under hidden information begins."""
    budget_ = settings.budget
    if base is None:
        base = analyze_replay(rep, AnalysisSettings(settings.thresholds.points, budget=budget_))
    if any(rep.initial.hidden) and rep.deal_ok:
        stopped = gettext("no open-hands values: the record does not show every hand")
        if stop_reason(rep):
            stopped += f"; {stop_reason(rep)}"
        base = replace(base, stopped=stopped)
    out = replace(base, fair=True)          # (``base`` itself is left as it was given)
    chosen, left_out = fair_seats(rep, settings.seats)
    variant = rep.variant
    individual = variant.seating.sides > 2
    notes = _first_notes(rep, chosen)
    if not rep.deal_ok or len(rep.players) != variant.players:
        return replace(out, fair_note=gettext("no fair analysis: {why}",
                                              why=out.stopped or gettext("the deal has errors")))
    points = _decision_points(rep, chosen)
    if settings.steps is not None:        # (the opener who adds no tile to his lead: judged at his lead's step)
        points = [(k, seat, moves) for k, seat, moves in points
                  if (_lead_index(rep, k) if _declined(rep, k, seat, moves) else k) in settings.steps]
    if run.workers is None:
        run = replace(run, workers=min(2, os.cpu_count() or 1))
    # list the worlds of every decision with few (a sampled one draws them where it is solved),
    # then solve them all in one go
    plans = []
    hidden: dict = {}
    unclosed: dict = {}
    if settings.exact_hidden and not individual:        # (the LP without scipy: sampled; the command says so once)
        hidden, failed, unclosed = exact_points(rep, points, settings.exact_hand, hidden_unavailable() is None,
                                                settings.exact_seconds, settings.exact_memory, run.workers, run.exact)
        notes += [failed] if failed else []
    teams: dict = {}
    if settings.exact_hidden and settings.team and not individual and variant.seating.sides == 2 and variant.players > 2:
        teams, gave_up = team_points(rep, points)
        if gave_up:
            notes.append(ngettext("{n} decision small enough for the partnership bracket under hidden information "
                                  "has none: its search ran past its limits",
                                  "{n} decisions small enough for the partnership bracket under hidden information "
                                  "have none: its search ran past its limits", gave_up))
    try:
        _list_worlds(plans, rep, points, settings, hidden, unclosed, teams)
    except NoWorld as exc:
        out = replace(out, fair_note=gettext("the fair analysis stops: {why}", why=exc), fair_error=str(exc))
    except InferenceUnsupported as exc:
        return replace(out, fair_note=gettext("no fair analysis: {why}", why=exc))
    looked = looks(settings.worlds, settings.worlds if settings.max_worlds is None else settings.max_worlds)
    try:
        sampled = _sample(rep, plans, looked, settings, run)
    except (SolverError, NotImplementedError) as exc:
        return replace(out, fair_note=gettext("no fair analysis: the exact search stops: {why}", why=exc))
    # (by the decision's index: the one where the record stops, ``to_move``, is after the last step)
    too_big = [plan.k for plan, per_world in zip(plans, sampled[0]) if per_world is None]
    if too_big:
        notes.append(ngettext("not valued: {n} decision (the first at move {number}) where a deal needs more than "
                              "{limit} positions (--max-nodes)",
                              "not valued: {n} decisions (the first at move {number}) where a deal needs more than "
                              "{limit} positions (--max-nodes)", len(too_big), number=min(too_big) + 1,
                              limit=number(budget_.node_limit or NODE_LIMIT)))
    out = _grade_plans(out, rep, plans, sampled, settings.thresholds,
                       look_z(len(looked), bool(early_looks(settings))))
    return _last_notes(out, rep, chosen, left_out, notes)


def _first_notes(rep: Replay, chosen: list[int]) -> list[str]:
    """The notes on how the worlds are played, and on the moves of a judged seat left out (after a
    draw the record does not name)."""
    notes = []
    variant = rep.variant
    if variant.seating.sides > 2:
        notes.append(gettext("in each world the mover plays against all the others, who play to minimise the mover's "
                             "score"))
    if variant.drawing is not None:
        notes.append(gettext("in draw games a deal also fixes the order of the boneyard, and the fair values are means "
                             "over both"))
    if not rep.deal_ok or len(rep.players) != variant.players:
        return notes
    for seat in chosen:
        unnamed = next((st for st in rep.steps[:rep.legal_prefix] if st.seat == seat and st.move is not None
                        and st.move.draw and st.move.tile is None), None)
        if unnamed is not None:
            notes.append(gettext("{player}'s moves after move {number} are not judged: the record does not name the "
                                 "tile drawn there, so that hand is no longer known", player=rep.players[seat],
                                 number=unnamed.index + 1))
    return notes


def _list_worlds(plans: list[_Plan], rep: Replay, points: list[tuple[int, int, list[Move]]], settings: FairSettings,
                 hidden: dict, unclosed: dict | None = None, teams: dict | None = None) -> None:
    """The plan of each decision point, added to ``plans``: the exact solver's where ``hidden`` has it (by
    step and seat), else every world listed where there are at most ``settings.exact_below``, else
    ``settings.worlds`` drawn with ``settings.seed`` (a decision without a world raises ``NoWorld``, the plans
    before it kept); ``unclosed``: by step and seat, a CFR+ decision whose brackets did not close, kept with the
    plan (what it certifies checks the sampled verdict); ``teams``: by step and seat, a partnership decision's
    bracket (``hidden.TeamDecision``), kept with the plan."""
    seed = settings.seed
    unclosed = unclosed or {}
    teams = teams or {}
    for k, seat, moves in points:
        every = worlds_at(rep, k, seat)
        if (k, seat) in hidden:
            plans.append(_Plan(k, seat, moves, every, HIDDEN, [], 0, seed, hidden[(k, seat)]))
        elif every.count <= settings.exact_below:
            listed = list(every)
            plans.append(_Plan(k, seat, moves, every, "exact", listed, len(listed), seed,
                               bracket=unclosed.get((k, seat)), team=teams.get((k, seat))))
        else:
            first = (*early_looks(settings), settings.worlds)[0]
            plans.append(_Plan(k, seat, moves, every, "sampled", None, first, seed, bracket=unclosed.get((k, seat)),
                               team=teams.get((k, seat))))


def _grade_plans(base: GameAnalysis, rep: Replay, plans: list[_Plan], sampled: tuple[list, list],
                 thresholds: FairThresholds, z: float = Z95) -> GameAnalysis:
    """``base`` with each decision valued in its worlds graded (added where the open-hands analysis has none) and
    the fair critical move. ``sampled``: per plan its values in each world (None: not valued) and each world's
    results, where asked for (:func:`_sample`); ``z``: the bound a sampled gap is judged at."""
    solved, lines = sampled
    individual = rep.variant.seating.sides > 2
    decisions = list(base.decisions)       # (the new analysis's: each graded one in the place of the one it grades)
    at = {d.index: i for i, d in enumerate(decisions) if d.played != "no extra tile"}
    to_move = base.to_move
    for plan, per_world, results in zip(plans, solved, lines):
        if per_world is None:
            continue
        k, seat, moves = plan.k, plan.seat, plan.moves
        if k == len(rep.steps):           # the decision at the end of a record that stops there
            if to_move is None:
                side = 0 if individual else rep.variant.seating.teams[seat]
                to_move = open_decision(rep, rep.position_at(k), side, [(m, None) for m in moves])
            if plan.hidden is not None:
                to_move = _grade_hidden(to_move, rep, plan, thresholds)
            else:
                to_move = _attach_results(_grade(to_move, rep, plan, per_world, thresholds, z), per_world, results)
            to_move = replace(to_move, fair=replace(to_move.fair, seen=plan.worlds))
            continue
        if _declined(rep, k, seat, moves):
            i = next((i for i, d in enumerate(decisions) if d.played == "no extra tile"
                      and d.player == rep.players[seat]), None)
            decision = _bare_decision(rep, _lead_index(rep, k), seat, moves, NO_EXTRA) if i is None else decisions[i]
        else:
            i = at.get(k)
            decision = _bare_decision(rep, k, seat, moves) if i is None else decisions[i]
        if plan.hidden is not None:
            graded = _grade_hidden(decision, rep, plan, thresholds)
        else:
            graded = _grade(decision, rep, plan, per_world, thresholds, z)
            graded = _mark_worst(_attach_results(graded, per_world, results), rep, plan, per_world)
        if i is None:
            decisions.append(graded)
        else:
            decisions[i] = graded
    new = {id(old): d for old, d in zip(base.decisions, decisions)}
    decisions.sort(key=lambda d: (d.index, d.played != "no extra tile"))
    graded = [d for d in decisions if d.fair is not None and d.fair.loss > 1e-9]
    return replace(base, decisions=tuple(decisions), to_move=to_move, critical=renewed(base.critical, new),
                   fair_critical=max(graded, key=lambda d: (d.fair.loss, -d.index)) if graded else None)


def _last_notes(out: GameAnalysis, rep: Replay, chosen: list[int], left_out: list[str], notes: list[str]) -> GameAnalysis:
    """``out`` with its fair note: whose moves are judged (and who is not), then the notes gathered, then why the
    analysis stops early."""
    names = ", ".join(rep.players[s] for s in chosen)
    text = gettext("the moves of {players}", players=names) if chosen else gettext("no moves judged")
    if left_out:
        text += "; " + gettext("not analysed: {why}", why="; ".join(left_out))
    notes.insert(0, text)
    if stop_reason(rep) and stop_reason(rep) not in (out.stopped or ""):
        notes.append(stop_reason(rep))
    if out.fair_note:
        notes.append(out.fair_note)
    return replace(out, fair_seats=tuple(rep.players[s] for s in chosen), fair_note="; ".join(notes))


def _decision_points(rep: Replay, seats: list[int]) -> list[tuple[int, int, list[Move]]]:
    """Every step of the legal prefix where one of ``seats`` had a choice: (step, seat, legal moves)."""
    pos = rep.initial.copy()
    out = []
    blind = set()                 # seats who drew a tile the record does not name: their hand is no longer known
    for step in rep.steps[:rep.legal_prefix]:
        if step.move is None:
            continue
        if pos.outcome() is not None:
            break
        opener = pos.bonus
        if opener >= 0 and opener != step.seat and opener in seats and opener not in blind and pos.may_add(opener):
            pos.turn = opener         # the opener added no tile to his lead (004): a choice of his as well
            out.append((step.index, opener, pos.legal_moves() + [NO_EXTRA]))
        pos.turn = step.seat
        if step.move.draw and step.move.tile is None:
            blind.add(step.seat)
        if step.seat in seats and step.seat not in blind:
            moves = pos.legal_moves()
            if pos.may_add(step.seat):
                moves = moves + [NO_EXTRA]                # the opener may add a tile to his lead, or not
            if len(moves) > 1 and step.move in moves:     # (a false play that stands is no decision)
                out.append((step.index, step.seat, moves))
        pos.push(step.move)
    # a record that stops at a decision: the choice of the player to move there ("what should he play now?")
    if pos.turn in seats and pos.turn not in blind and stops_at_decision(rep, pos):
        out.append((len(rep.steps), pos.turn, pos.legal_moves()))
    return out


def _bare_decision(rep: Replay, k: int, seat: int, moves: list[Move], played: Move | None = None) -> Decision:
    """A decision the open-hands analysis has no values for (a hand it cannot see): the move of step
    ``k``, or ``played`` by ``seat`` there (the opener of a draw game who adds no tile to his lead at
    ``k``, his lead, as the open-hands analysis places that decision)."""
    step = rep.steps[k]
    played = step.move if played is None else played
    side = 0 if rep.variant.seating.sides > 2 else rep.variant.seating.teams[seat]
    return Decision(k, rep.players[seat], side, step.entry.pos.line or None, step.entry.pos.column or None,
                    step.entry.round, alternative_text(played), None,
                    [Alternative(alternative_text(m), None, False, m == played) for m in moves], None, None, None)


def _declined(rep: Replay, k: int, seat: int, moves: list[Move]) -> bool:
    """Whether the decision of ``seat`` before step ``k`` is the opener's, who added no tile to his lead."""
    return NO_EXTRA in moves and rep.steps[k].seat != seat


def _lead_index(rep: Replay, k: int) -> int:
    """The step of the lead before step ``k``."""
    return next(st.index for st in reversed(rep.steps[:k]) if st.move is not None and st.move.is_play)


def _attach_results(decision: Decision, per_world: list, results: list | None) -> Decision:
    """``decision`` with each alternative's results over the worlds (``FairValue.results``: each result and in
    how many worlds; None where one world's is not known), from ``results`` aligned with ``per_world``."""
    if results is None:
        return decision
    by_move: dict = {}
    for row, found in zip(per_world, results):
        for (move, _), result in zip(row, found):
            by_move.setdefault(alternative_text(move), []).append(result)

    def with_results(alt: Alternative) -> Alternative:
        got = by_move.get(alt.move)
        if alt.fair is not None and got and None not in got:
            return replace(alt, fair=replace(alt.fair, results=tuple(Counter(got).items())))
        return alt
    return replace(decision, alternatives=tuple(map(with_results, decision.alternatives)))


def _grade(decision: Decision, rep: Replay, plan: _Plan, per_world: list, thresholds: FairThresholds,
           z: float = Z95) -> Decision:
    """``decision`` with the fair values of every alternative of ``plan``'s decision, valued ``per_world``, and
    the fair verdict (``z``: the bound a sampled gap is judged at, see ``fairstats.look_z``)."""
    k, seat, moves, method, count = plan.k, plan.seat, plan.moves, plan.method, plan.worlds.count
    sign = 1 if decision.side == 0 else -1
    exact = method == "exact"
    table, best = decision_table(rep, k, seat, moves, per_world)
    stats = {m: replace(value_summary(vs, sign, exact), **dict(zip(("gap", "gap_ci"),
                                                                   paired_gap(table[best], vs, sign, exact, z))),
                        worlds=len(vs) if len(vs) < len(per_world) else None)
             for m, vs in table.items()}
    tied = tuple(alternative_text(m) for m in tied_moves(table, best, sign, exact, z))
    decision = replace(decision, alternatives=tuple(
        replace(alt, fair=stats[next(m for m in moves if alternative_text(m) == alt.move)])
        for alt in decision.alternatives))
    n = len(per_world)
    if k == len(rep.steps):         # nothing played yet (the record stops here): only what is best
        return _teamed(_checked(replace(decision, fair=FairDecision(rep.players[seat], n, method,
                                                                    alternative_text(best), 0.0, None, "none", count,
                                                                    tied=tied, estimates=OPEN_MEAN)),
                                rep, plan, None), rep, plan)
    played = NO_EXTRA if _declined(rep, k, seat, moves) else rep.steps[k].move
    shared = len(table[played])             # (the worlds the move played was valued in: all, or the first ones)
    mine = [sign * v for v in table[best][:shared]], [sign * v for v in table[played]]
    loss, cls, verdict = fair_verdict(*mine, exact, thresholds, decision.cls, z)
    return _teamed(_checked(replace(decision, fair=FairDecision(rep.players[seat], n, method, alternative_text(best),
                                                                round(float(loss), 4), cls, verdict, count, tied=tied,
                                                                cause=thresholds.cause(*mine), estimates=OPEN_MEAN)),
                            rep, plan, played), rep, plan)


def _checked(decision: Decision, rep: Replay, plan: _Plan, played: Move | None) -> Decision:
    """``decision`` as graded by its open-hands mean, unless the certified brackets of an open CFR+ decision of the
    same point (``plan.bracket``) contradict its verdict (:func:`hiddenfair.contradicted`: another move certified
    better than its best). Then its best is not called best: the moves no other is certified better than are named,
    first by the mean, not told apart; there is no verdict (no loss, no class: "none"); and ``hidden`` holds the
    brackets, the move overturned, the move certified better, what the move ``played`` surely loses where its bracket
    lies wholly below another's (``least_loss``, ``against``: :func:`hiddenfair.least_loss`) and why, in words
    (``contradicts``), as :func:`teamfair.overruled` does with a partnership's bracket."""
    solved = plan.bracket
    fair = decision.fair
    if solved is None or fair is None:
        return decision
    better = contradicted(solved, fair.best)
    if better is None:
        return decision
    summary = hidden_verdict(rep, plan.k, plan.seat, solved, decision.cls, FairThresholds()).summary
    means = {alt.move: alt.fair.mean for alt in decision.alternatives if alt.fair is not None}
    alive = not_told_apart(means, surely_worse(solved), 1 if decision.side == 0 else -1)
    lost = None if played is None else least_loss(solved, alternative_text(played))
    why = contradiction_words(better, fair.best, solved.deals, lost=lost)
    hidden = {**summary, "contradicts": why, "overturned": fair.best, "better": better}
    if lost is not None:
        hidden.update(least_loss=lost[0], against=lost[1])
    return replace(decision, fair=fair.overruled(alive[0], alive if len(alive) > 1 else (), hidden=hidden))


def _teamed(decision: Decision, rep: Replay, plan: _Plan) -> Decision:
    """``decision`` with its partnership bracket (``plan.team``) beside its fair verdict, which the bracket overrules
    where another move is surely better than its best (:func:`teamfair.overruled`)."""
    fair = decision.fair
    if plan.team is None or fair is None:
        return decision
    played = None if plan.k == len(rep.steps) else decision.played
    got = team_bracket(rep, plan.k, plan.seat, plan.team, fair.best, played)
    means = {alt.move: alt.fair.mean for alt in decision.alternatives if alt.fair is not None}
    return replace(decision, fair=overruled(fair, got, decision.side, means))


def _grade_hidden(decision: Decision, rep: Replay, plan: _Plan, thresholds: FairThresholds) -> Decision:
    """``decision`` with the exact solver's values of every alternative and its verdict
    (:func:`analysis.hiddenfair.hidden_verdict`), and the worlds its mover could not tell apart."""
    k, seat, solved = plan.k, plan.seat, plan.hidden
    got: HiddenVerdict = hidden_verdict(rep, k, seat, solved, decision.cls, thresholds)
    alts = tuple(replace(alt, fair=got.values[next(m for m in plan.moves if alternative_text(m) == alt.move)])
                 for alt in decision.alternatives)
    return replace(decision, alternatives=alts, fair=FairDecision(
        rep.players[seat], solved.deals, HIDDEN, got.best, got.loss, got.cls, got.verdict, solved.deals, tied=got.tied,
        seen=plan.worlds, hidden=got.summary, estimates=GAME_VALUE, loss_bracket=got.loss_bracket))


def decision_table(rep: Replay, k: int, seat: int, moves: list[Move], per_world: list) -> tuple[dict, Move]:
    """Each move's value in each world (side-0 points, the points scored before the decision added) and the
    fair best for ``seat``: by the exact sums over the shared worlds (every value a whole number of points), then
    by the worlds won. A move dropped from contention (``_next_round``) has values in the first worlds alone (a
    prefix of the others'); the best is one of the moves valued in every world."""
    individual, sign = rep.variant.seating.sides > 2, _sign(rep, seat)
    offset = points_before(rep, k, seat, individual)
    table = {m: [] for m in moves}
    for values in per_world:
        for m, v in values:
            table[m].append(v + offset)
    wins = {m: sum(1 for v in vs if sign * v > 0) for m, vs in table.items()}
    everywhere = [m for m in moves if len(table[m]) == len(per_world)]
    return table, max(everywhere, key=lambda m: (sign * sum(table[m]), wins[m]))


def _sign(rep: Replay, seat: int) -> int:
    """1 where ``seat``'s side is side 0 (or he plays against all the others), else -1: the values are side 0's."""
    return 1 if rep.variant.seating.sides > 2 or rep.variant.seating.teams[seat] == 0 else -1


def _mark_worst(decision: Decision, rep: Replay, plan: _Plan, per_world: list) -> Decision:
    """``decision`` with the worlds the mover could not tell apart kept on its verdict and, at a real mistake, the
    world where the move played does worst against the fair best (the first such world in the order solved)."""
    fair = replace(decision.fair, seen=plan.worlds)
    if fair.verdict != "real":
        return replace(decision, fair=fair)
    sign = 1 if decision.side == 0 else -1
    offset = points_before(rep, plan.k, plan.seat, rep.variant.seating.sides > 2)
    played = rep.steps[plan.k].move
    best = next(m for m in plan.moves if alternative_text(m) == fair.best)
    gaps = []
    for values in per_world:
        by_move = dict(values)
        if played not in by_move:           # (past the worlds it was valued in: dropped from contention)
            break
        gaps.append((sign * (by_move[best] - by_move[played]), by_move[best] + offset, by_move[played] + offset))
    at = max(range(len(gaps)), key=lambda i: (gaps[i][0], -i))
    world = plan.listed[at] if plan.listed is not None else plan.chunk(at // CHUNK)[at % CHUNK]
    view = plan.worlds.view
    order = view.order(world)
    pos = world_position(rep, view.deal(world), plan.k, order)
    held = 0
    for h in pos.hands:
        held |= h
    rest = tuple(order[len(order) - len(tiles_of(pos.pool & ~held)):]) if order is not None \
        else tuple(tiles_of(pos.pool & ~held, pos.max_pip))
    hands = tuple((name, tuple(tiles_of(pos.hands[s], pos.max_pip))) for s, name in enumerate(rep.players))
    return replace(decision, fair=replace(fair, worst=WorstWorld(*gaps[at], hands, rest, order is not None)))
