"""Every move of a sheet without hands judged on the deals the whole record allows.

A record that does not write every hand (a score sheet, a server's move log) has no open-hands values of its
own. Its deals (:mod:`analyzer.inference.sheet`) each make it a record with every hand written; this module
analyses the sheet over them:

* **Hindsight over the deals.** Each deal is written into the record (its hands, and in a draw game the tile
  of every draw) and analysed as that record is (:func:`analyzer.analysis.analyze_replay`). Each alternative of
  each decision gets its value over the deals in which its player could play it (:class:`OverDeals`: the mean,
  the lowest and the highest; with a 95% interval where the deals are a sample), and the move played its loss
  likewise, counting 0 in a deal where it was his only move. The critical move is the one with the highest
  mean loss. Where the sheet allows one deal, the analysis *is* the analysis of the record with it written.
* **Fair verdicts over the hands a player may have held.** The deals are grouped by the hand the mover held
  (in a draw game, with the tiles he drew): a hand is what he knew, so the fair analysis of one deal of the
  group (:func:`analyzer.analysis.fair.fair_analyze`, his seat only) is the fair analysis of all of them. The
  loss of the move played is averaged over the hands, each weighing the deals it stands for
  (:class:`OverHands`), with its interval where the hands judged are a sample of them. A player whose hand
  the sheet fixes (he went out, or it is written) has one hand: he is judged as if it were written.

The deals are analysed in a process pool (``workers``), a chunk of deals or one hand a task.
"""
from __future__ import annotations

import math
import os
import random
import time
from contextlib import ExitStack
from dataclasses import replace

from ..i18n import gettext, ngettext
from ..inference import InferenceUnsupported, NoWorld
from ..inference.sheet import MAX_DEALS, SheetDeal, SheetDeals, sheet_deals
from ..position import tiles_of
from ..replay import Replay, replay
from ..workers import pool_options
from ..search.core import SearchBudget, exact_node_limit
from ..search.tree import SearchLimit
from . import (Alternative, AnalysisSettings, Decision, GameAnalysis, Thresholds, alternative_text, analyze_replay,
               int_solver_plays, renewed)
from .dealvalues import CPU_BUDGET, DealsResult, DealsSummary, FairCut, OverDeals, OverHands, WorkCut, hands_words
from .fair import (FairDecision, FairRun, FairSettings, WorldSearch, dealt_position, early_looks, fair_analyze,
                   solve_dealt)
from .fairstats import GROWTH, Z95, early_z, look_z, looks, needed, paired_gap, significant, student, value_summary

__all__ = ["METHOD", "OverDeals", "OverHands", "DealsSummary", "sheet_analyze", "sheet_fair", "written_replay",
           "written_game", "HANDS"]

METHOD = "over-hands"   # the method of a fair verdict over the hands a player may have held (``FairDecision.method``)
HANDS = 8               # the hands of a player judged fairly: every one where he may have held at most this many,
#                         else this many drawn by the deals they stand for
HAND_LOOK = 8           # the fewest draws of a player's hands a first look judges (:func:`hand_looks`): never fewer
#                         than the default's verdicts stand on (at 4 of 8 draws, the book's sheet had a decision whose
#                         losses in 4 hands (0 to 1.2) hid those of 3 others (7 to 12.5) and called it none)
CHUNK = 25              # deals a task analyses
LEAST_LOOK = 50         # the fewest deals a look of a sheet's decisions is at (else one look at all of them)
LEAST_SHARED = 10       # the fewest deals two moves could both be played in that tell them apart (else every deal)
SECONDS = 20.0          # the CPU seconds a sheet's values may take (:func:`sheet_analyze`): the looks stop there,
#                         the costliest decisions first; and
FAIR_SECONDS = 20.0     # the CPU seconds its fair verdicts are planned to (:func:`sheet_fair`: hands and worlds cut):
#                         each some 10 s of wall on two cores (issue 80: some 10 s for the values and 10 s for the
#                         fair verdicts), the workers busy some 1.8 cores of 2 (the Cuban double-nine's 904 deals
#                         took 108.5 s of CPU in 61.3 s, bench/timings/sheet-share-80.txt)
LEAST_WORLDS = 20       # the fewest worlds a decision of a hand is judged over where the fair budget cuts them
WORLD_SHARE = 0.25      # what a world of every player's decisions costs the fair analysis, of a deal's values (the
#                         Cuban double-nine sheet of 904 deals: 15.5 s of CPU judging 6 hands a player over 20 worlds
#                         a decision, a deal's values 0.90 s: a seventh; a quarter planned, to be safe)


# -- a deal written into the record --------------------------------------------------------------------------

def written_game(rep: Replay, deal: SheetDeal):
    """The game of ``rep`` with ``deal`` written: every hand, and in a draw game the tile of every draw."""
    seat_of = {name: s for s, name in enumerate(rep.players)}
    max_pip = rep.initial.max_pip
    hands = tuple(replace(h, tiles=tuple(tiles_of(deal.hands[seat_of[h.player]], max_pip)), unknown=0)
                  if h.player in seat_of else h for h in rep.game.hands)
    moves = rep.game.moves
    if deal.order is not None:
        drawn = iter(deal.order)
        moves = [replace(m, tile=next(drawn)) if m.draw else m for m in moves]
    return replace(rep.game, hands=hands, moves=moves)


def written_replay(rep: Replay, deal: SheetDeal) -> Replay:
    """``rep``'s game replayed with ``deal`` written (the lead and the worth its match gave it kept)."""
    out = replay(written_game(rep, deal), rep.variant, rep.source, terms=rep.terms)
    return replace(out, match=rep.match)


# -- the deals analysed, in this process or in a pool ------------------------------------------------------
_JOB: dict = {}


def _analyse_chunk(task: tuple) -> list:
    """Deals ``task[1]`` to ``task[2]`` of the job's (in the order they are drawn) analysed. ``("words", lo, hi)``:
    each deal's result words. ``("batch", lo, hi, k)``: decision ``k`` alone in each deal (:func:`_batch_rows`).
    ``("deal", lo, hi, steps)``: each deal written into the record and analysed, only the steps ``steps`` valued
    (None: every one): per deal its rows ``(index, played, [(move, value)], loss)`` and its result words."""
    rep, deals, settings = _JOB["rep"], _JOB["deals"], _JOB["settings"]
    kind, lo, hi = task[:3]
    if kind == "words":            # (and each deal's legal moves at the leads ``task[3]``: see :func:`_batch_rows`)
        out = []
        for deal in deals[lo:hi]:
            written = written_replay(rep, deal)
            out.append((_result_words(written), {k: _legal(written, k) for k in task[3]}))
        return out
    if kind == "batch":
        return _batch_rows(rep, task[3], deals[lo:hi], settings.budget, task[4], task[5])
    out = []
    for deal in deals[lo:hi]:
        written = written_replay(rep, deal)
        # (searches made for each deal: one kept from deal to deal empties its tables for each, 2.4 times slower)
        got = analyze_replay(written, replace(settings, steps=task[3]))
        rows = [(d.index, d.played, [(a.move, a.value) for a in d.alternatives], d.loss) for d in got.decisions]
        to_move = got.to_move
        if to_move is not None:       # a record that stops at a decision: its moves' values, nothing played
            rows.append((to_move.index, "", [(a.move, a.value) for a in to_move.alternatives], None))
        out.append((rows, _result_words(written)))
    return out


def _timed_chunk(task: tuple) -> tuple[float, list]:
    """:func:`_analyse_chunk` and the CPU seconds it took in its process (the budget of :func:`sheet_analyze`)."""
    start = time.process_time()
    got = _analyse_chunk(task)
    return time.process_time() - start, got


def batched(rep: Replay) -> tuple[bool, frozenset[int]]:
    """Whether a sheet's decisions are valued one at a time over many deals at once (:func:`_batch_rows`): in a
    game of the int solver (two-ended block games: no draws, no points during play), else each deal is written
    into the record and analysed; and its leads (no tile on the table), whose legal moves may hang on the whole
    deal (the highest double dealt opens), which the sheet's position does not know: read off each deal written."""
    if not int_solver_plays(rep.variant) or rep.initial.draws:
        return False, frozenset()
    return True, frozenset(k for k in range(len(rep.steps) + 1) if rep.position_at(k).ends is None)


def _legal(written: Replay, k: int) -> tuple[str, ...]:
    """The legal moves at step ``k`` of a deal written into the sheet (a lead: see :func:`batched`)."""
    if k > written.legal_prefix:
        return ()
    return tuple(sorted(alternative_text(m) for m in written.position_at(k).legal_moves()))


def _batch_rows(rep: Replay, k: int, deals: list[SheetDeal], budget, legal: list | None = None,
                only: frozenset[str] | None = None) -> list:
    """Decision ``k`` (the step's index; the number of steps: the decision the record stops at) in each of
    ``deals``: per deal ``(played, [(move, value)], loss)``, None where the mover had no choice in it, "limit"
    where its search went past the node limit. The deals are grouped by what the mover holds there and, at a
    lead, by its legal moves in each deal written (``legal``, one a deal), each group's moves valued in every deal
    of it by one call (:func:`fair.solve_dealt`: the compiled core's batch of worlds, each deal valued as a search
    made for it alone), from the position of its first deal written where ``legal`` is given. ``only``: these moves
    valued alone (those still in contention), the loss of the move played then not known (None)."""
    template = rep.position_at(k)
    seat = template.turn
    step = rep.steps[k] if k < len(rep.steps) else None
    if step is not None and (step.move is None or step.seat != seat or step.move.open is not None):
        return [None] * len(deals)            # (a Muggins call, or a false play that stands: no choice)
    table = sum(move.tile.bit for move, *_ in template.history if move.tile is not None)
    groups: dict[tuple, list[int]] = {}
    for at, deal in enumerate(deals):
        groups.setdefault((deal.hands[seat] & ~table, legal[at] if legal else ()), []).append(at)
    sign = 1 if rep.variant.seating.sides > 2 or rep.variant.seating.teams[seat] == 0 else -1
    out: list = [None] * len(deals)
    for (_, moves_there), members in groups.items():
        if legal is not None and len(moves_there) < 2:
            continue
        if legal is not None:
            template = written_replay(rep, deals[members[0]]).position_at(k)
        first = dealt_position(rep, template, deals[members[0]].hands)
        moves = first.legal_moves()
        if len(moves) < 2:
            continue
        same = None if step is None else first.canonical(step.move)
        valued = None if only is None else [m for m in moves if alternative_text(m) in only]
        if valued is not None and len(valued) == len(moves):
            valued = None
        if valued == []:
            continue                # (none of the moves in contention is his to play here)
        search = WorldSearch(written_budget(rep, budget), valued)
        rows = _past_limit(rep, template, [deals[at].hands for at in members], seat, search)
        for at, row in zip(members, rows):
            if row is None:
                out[at] = "limit"
                continue
            values = [(alternative_text(m), v) for m, v in row]
            if same is None or only is not None:     # (racing: the loss stands on the deals every move was valued in)
                out[at] = ("" if same is None else alternative_text(same), values, None)
                continue
            best = max(sign * v for _, v in row)
            played = next(v for m, v in row if m == same)
            out[at] = (alternative_text(same), values, best - sign * played)
    return out


def written_budget(rep: Replay, budget: SearchBudget) -> SearchBudget:
    """``budget`` with the node limit of a deal written into the record and analysed (``block.Solver``'s default:
    :func:`~analyzer.search.core.exact_node_limit`, larger for a double-nine deal) where it names none: the batch of
    deals (``WorldsSolver``'s default is the fair worlds' ``NODE_LIMIT``) values each deal as the written record does
    (the Cuban double-nine's free leads, past 2 million positions in most deals, were left out of the sheet's means)."""
    if budget.node_limit is not None:
        return budget
    return replace(budget, node_limit=exact_node_limit(rep.variant))


def _past_limit(rep: Replay, template, hands: list, seat: int, search: WorldSearch) -> list:
    """The rows of :func:`fair.solve_dealt` for each of ``hands`` (deals), None for a deal whose search passes the node
    limit: the deals valued in one call, and where one passes the limit, those before it valued again in one call
    and those after it in the next (the one past it not searched again), where the batch says how many it solved
    (``SearchLimit.solved``); else each deal valued alone."""
    rows: list = []
    rest = list(hands)
    while rest:
        try:
            return rows + solve_dealt(rep, template, rest, seat, search)[0]
        except SearchLimit as exc:
            solved = getattr(exc, "solved", None)
            if solved is None:
                break
        if solved:
            rows += _past_limit(rep, template, rest[:solved], seat, search)
        rows.append(None)
        rest = rest[solved + 1:]
    for deal in rest:       # (one deal past the limit: the others valued alone)
        try:
            rows.append(solve_dealt(rep, template, [deal], seat, search)[0][0])
        except SearchLimit:
            rows.append(None)
    return rows


def _result_words(written: Replay) -> str:
    from ..replay.result import result_sentence

    if written.outcome is None:
        return "the hand is not over"
    return result_sentence(written.outcome, written.result, written.variant, written.players)


def _run(tasks: list, work, workers: int, run: FairRun, done=None, stack: ExitStack | None = None,
         held: list | None = None) -> list:
    """``work(task)`` for every task, in a pool of ``workers`` processes (made as ``run`` says) where more than one
    task is asked; ``done(k)`` after the k-th result (in order). ``stack`` and ``held``: the pool is made once in
    ``stack`` and kept in ``held[0]`` for the calls after (the rounds of :func:`sheet_analyze`)."""
    out = []
    with ExitStack() as own:
        stack = stack or own
        executor = held[0] if held else None
        if executor is None and workers > 1 and len(tasks) > 1:
            executor = stack.enter_context(run.pool_maker()(max_workers=workers, **pool_options(__name__, "_JOB")))
            if held is not None:
                held[:] = [executor]
        results = map(work, tasks) if executor is None else executor.map(work, tasks)
        for got in results:
            out.append(got)
            if done is not None:
                done(len(out))
    return out


def schedule(deals: int) -> tuple[tuple[int, ...], list[int]]:
    """The numbers of deals a sheet's decisions are looked at with, as the fair analysis looks at its worlds
    (:mod:`analyzer.analysis.fairstats`): where there are at least ``4 * LEAST_LOOK`` (listed or drawn) a quarter
    of them first (``fairstats.GROWTH``), doubling to all of them (:func:`fairstats.looks`), with the fair
    analysis's early looks before (:func:`analyzer.analysis.fair.early_looks`: 50 and 125 of 1,000); else one look
    at every deal (fewer than some 200 deals cost little beside the fair verdicts: exact means where listed)."""
    if deals < GROWTH * LEAST_LOOK:
        return (), [deals]
    first = deals // GROWTH
    return early_looks(FairSettings(worlds=first, max_worlds=deals)), looks(first, deals)


def sheet_analyze(rep: Replay, settings: AnalysisSettings = AnalysisSettings(), *, max_deals: int = MAX_DEALS,
                  seed: int = 0, run: FairRun = FairRun(), seconds: float | None = SECONDS) -> GameAnalysis:
    """The hindsight analysis of a sheet over the deals its record allows (see the module), each deal analysed
    under ``settings`` (:func:`~analyzer.analysis.analyze_replay`'s; the best lines kept only where the sheet
    allows one deal): a :class:`GameAnalysis` whose ``deals`` says how many (at most ``max_deals``, else drawn
    with ``seed``), each decision's alternatives valued ``over_deals`` and the move played's ``loss_over``. The
    deals are taken in a random order (``seed``; without replacement), and a decision is valued in the deals of
    each look of :func:`schedule` in turn until it is decided (:func:`_settled`: its best on average told apart
    from every other move, or more deals would not tell them apart, and the class of the move played's mean loss
    decided), so its values stand on as many deals as it needed (``OverDeals.looked``); where the deals are every
    one the sheet allows, or different ones chosen among an exact count, each interval takes the finite-population
    correction (``sqrt(1 - looked / count)``): a decision valued in every deal has its exact means, as where the
    deals are looked at once (fewer than ``4 * LEAST_LOOK``). ``seconds``: the CPU the values may take (None: no
    bound; the first deals analysed alone measure their cost), shared by the decisions where each is valued alone
    (:func:`batched`: each one's CPU a deal measured on every look): where the next look of those still in question
    does not fit what is left, the costliest are stopped where they are (:func:`_share`) and the others go on; where
    not even the cheapest one's fits (or a deal's one task values them all: no decision's own cost is known), the
    look takes the deals there is room for and every decision still in question stops there. A decision stopped
    keeps its values over the deals it was valued in, each saying so (``OverDeals.stopped``), and ``deals.cut`` says
    where the budget first stopped one and how many it stopped (:class:`WorkCut`).
    Where the record allows no deal, ``stopped`` and ``deals_error`` say why; where the inference does not list
    this family's deals, ``stopped`` says so by name. ``run``: the deals analysed in ``run.workers`` processes
    (None: at most 2) made by ``run.pool``; ``run.progress(done, total)``: the deals analysed so far, and the most
    there may be in all (which only shrinks, and ends equal to ``done``)."""
    thresholds, progress = settings.thresholds, run.progress
    out = GameAnalysis(rep.title, rep.players, [rep.side_name(s) for s in range(rep.variant.seating.sides)],
                       grading=thresholds.grading)      # (each deal's mean loss graded by the points' thresholds)
    if rep.variant.seating.sides > 2:
        out = replace(out, sides=rep.players, perspective=(
            f"each decision is valued for its mover against all the others; the running values are {rep.players[0]}'s"))
    try:
        found = sheet_deals(rep, max_deals, seed)
    except NoWorld as exc:
        return replace(out, stopped=f"no deal fits the sheet: {exc}", deals_error=str(exc))
    except InferenceUnsupported as exc:
        return replace(out, stopped=f"the deals of this sheet are not listed ({rep.variant.name}): {exc}")
    if found.count == 1 and found.exact:
        summary = _summary(rep, found, max_deals, 1)
        written = written_replay(rep, found.deals[0])
        got = analyze_replay(written, settings)
        new = {id(d): _exact_over(d) for d in got.decisions}
        return replace(got, deals=replace(summary, results=(DealsResult(_result_words(written), 1),)), deals_found=found,
                       decisions=tuple(new[id(d)] for d in got.decisions), critical=renewed(got.critical, new),
                       fair_critical=renewed(got.fair_critical, new))
    workers = run.workers if run.workers is not None else min(2, os.cpu_count() or 1)
    population = found.population
    order = list(found.deals)     # (in a random order: each look's deals a uniform sample of those allowed)
    random.Random(seed * 7919 + 3).shuffle(order)
    early, budget = schedule(len(order))
    z = look_z(len(budget), bool(early)) if len(budget) > 1 or early else Z95
    # each decision's bound: that of the look it stopped at (``"z"``: the look's test of a gap, Student's t at an
    # early look; ``"level"``: its normal quantile, a mean's interval taking Student's t of its own deals);
    # ``"seen"``: the deals it was valued in, ``"dropped"``: those a move told apart was valued in (racing)
    state = {k: {"played": "", "mark": "", "rows": [], "losses": [], "unknown": 0, "asked": 0, "choices": 0,
                 "contenders": None, "z": z, "level": z, "seen": 0, "dropped": {}}
             for k in range(len(rep.steps) + 1)}
    active = set(state)                    # the decisions still in question
    stopped: set[int] = set()              # those the values' budget stopped (each keeps the deals it was valued in)
    words: dict[str, int] = {}
    done, total = 0, len(order)
    batch, leads = batched(rep)
    planned = [*early, *budget]
    pilot = seconds is not None and planned[0] > workers
    if pilot:                       # (the first deals alone, one a process: what a deal costs)
        planned.insert(0, workers)
    spent, per_deal, cut, whole = 0.0, None, None, None    # (whole: a deal's cost with every decision valued)
    shared, costs = 0.0, {}         # (a deal's cost shared by the decisions, and each one's own: the batched path)
    _JOB.update(rep=rep, deals=order, settings=replace(settings, lines=False, reasons=False))   # (reasons: dealreasons)
    try:
        with ExitStack() as stack:
            held: list = []
            for size in planned:
                if seconds is not None and per_deal is not None and size > done:
                    left = seconds - spent
                    kept = _share(active, costs, shared, left, size - done) if batch else set()
                    if kept and kept != active:         # (the costliest stopped where they are: the others go on)
                        stopped.update(active - kept)
                        cut = cut or WorkCut(CPU_BUDGET, done, seconds, round(per_deal, 4))
                        active = kept
                    room = int(left / max(per_deal, 1e-6))
                    if not kept and room < size - done:    # (not one decision's look fits: all stop, a part taken)
                        cut = cut or WorkCut(CPU_BUDGET, done + max(room, 0), seconds, round(per_deal, 4))
                        size = done + max(room, 0)
                        total = size
                        stopped.update(active)
                        if size <= done:
                            break
                # (a task at most a share of the look a process: a costly sheet's few deals spread over them)
                chunk = 1 if pilot and done == 0 else max(1, min(CHUNK, -(-(size - done) // (2 * workers))))
                spans = [(lo, min(lo + chunk, size)) for lo in range(done, size, chunk)]
                asked = frozenset() if batch else frozenset(active)     # (each deal written and analysed)
                leading = frozenset(k for k in leads if k in active)
                words_tasks = [("words", lo, hi, leading) for lo, hi in spans] if batch else []
                count = len(spans) * (2 + len(active) if batch else 1)     # (the words counted twice)
                finished = [0]

                def step(_: int, before=done, size=size, count=count) -> None:
                    finished[0] += 1
                    progress(before + (size - before) * min(finished[0], count) // count, total)

                each = None if progress is None else step
                legal: dict[int, list] = {k: [] for k in leading}
                cpu, own = 0.0, {}
                for took, got in _run(words_tasks, _timed_chunk, workers, run, each, stack, held):
                    cpu += took
                    for said, moves in got:
                        words[said] = words.get(said, 0) + 1
                        for k, there in moves.items():
                            legal[k].append(there)
                finished[0] += len(words_tasks)
                tasks = [("batch", lo, hi, k, legal[k][lo - done:hi - done] if k in leads else None,
                          state[k]["contenders"]) for k in (sorted(active) if batch else ()) for lo, hi in spans]
                tasks += [("deal", lo, hi, None if len(asked) == len(state) else asked) for lo, hi in spans if asked]
                words_cpu = cpu
                for task, (took, got) in zip(tasks, _run(tasks, _timed_chunk, workers, run, each, stack, held)):
                    cpu += took
                    if task[0] == "batch":
                        own[task[3]] = own.get(task[3], 0.0) + took
                        _gather_one(state[task[3]], got, task[5] is None)
                    else:
                        for rows, said in got:
                            words[said] = words.get(said, 0) + 1
                            _gather(state, rows, asked)
                spent, per_deal = spent + cpu, cpu / (size - done)
                shared = words_cpu / (size - done)
                costs.update((k, took / (size - done)) for k, took in own.items())
                whole = per_deal if whole is None else whole
                done = size
                if size == len(order) or stopped >= active:     # (every deal, or all stopped by the budget)
                    break
                if size not in early and size not in budget:
                    continue                # (the first deals alone: no look)
                at_early = size < budget[0]
                look = early_z(len(early), size) if at_early else z
                level = early_z(len(early)) if at_early else z
                settled = {k for k in active if _settled(state[k], rep, k, look, at_early, budget[-1], batch,
                                                         population, thresholds, level)}
                for k in settled:
                    state[k].update(z=look, level=level)
                active -= settled
                if not active:
                    total = done
                    break
    finally:
        _JOB.clear()
    if batch and costs:     # (a deal with every decision valued: each one's cost a deal over the most deals it was
        whole = shared + sum(costs.values())        # valued in, not the pilot's one deal a process: Cuban's vary 3x)
    if progress is not None:
        progress(done, done)
    gathered = [_budget_stopped(d) if d.index in stopped else d
                for d in _gathered(rep, state, thresholds, population)]
    decisions = tuple(d for d in gathered if d.index < len(rep.steps))
    losses = [d for d in decisions if d.loss_over is not None and d.loss_over.mean > 1e-9]
    if cut is not None:         # (the decisions it stopped that had a choice in some deal)
        cut = replace(cut, decisions=sum(d.index in stopped for d in gathered))
    summary = replace(_summary(rep, found, max_deals, done), cut=cut, seconds_per_deal=whole)
    return replace(out, deals=replace(summary, results=tuple(DealsResult(*kv) for kv in
                                                             sorted(words.items(), key=lambda kv: -kv[1]))),
                   deals_found=found, decisions=decisions,
                   to_move=next((d for d in gathered if d.index == len(rep.steps)), None),
                   critical=max(losses, key=lambda d: (d.loss_over.mean, -d.index)) if losses else None,
                   analysed_steps=0,         # (no running value with every hand open: each deal has its own)
                   note=gettext("values over the deals the sheet allows: each deal's exact values with every hand "
                                "open, then their mean, least and most"))


def _share(active: set, costs: dict, shared: float, left: float, deals: int) -> set:
    """The decisions of ``active`` whose next look of ``deals`` deals fits the CPU seconds ``left``, each decision's
    share of a deal (``costs``, measured on the last look: its batch tasks' CPU a deal) taken cheapest first, with
    the cost a deal of what they share (``shared``: its result words and its leads' legal moves): every one where
    they all fit, else the cheapest that do (none where not even the cheapest does). A decision not measured yet
    (none has been) counts as the costliest measured."""
    worst = max(costs.values(), default=0.0)
    need, kept = shared * deals, set()
    for k in sorted(active, key=lambda k: (costs.get(k, worst), k)):
        need += costs.get(k, worst) * deals
        if need > left:
            break
        kept.add(k)
    return kept


def _budget_stopped(decision: Decision) -> Decision:
    """A decision the values' CPU budget stopped before it was decided: its values over the deals it was valued
    in, each said so (``OverDeals.stopped``)."""
    def cut(o: OverDeals | None) -> OverDeals | None:
        return None if o is None else replace(o, stopped=CPU_BUDGET)
    return replace(decision, loss_over=cut(decision.loss_over),
                   alternatives=tuple(replace(a, over_deals=cut(a.over_deals)) for a in decision.alternatives))


def _gather_one(got: dict, rows: list, full: bool) -> None:
    """The rows of one decision in some deals (:func:`_batch_rows`) added to its ``state``; ``full``: every move
    valued (the move played's loss counted in each deal: 0 where it was no choice)."""
    for row in rows:
        got["asked"] += full
        got["seen"] += 1
        if row is None:
            continue
        if row == "limit":
            got["unknown"] += full
            continue
        mark, values, loss = row
        got["mark"] = mark
        got["rows"].append(dict(values))
        got["choices"] += full
        if loss is not None:
            got["losses"].append(loss)


def _gather(state: dict, rows: list, asked: frozenset | None) -> None:
    """One deal's rows (see :func:`_analyse_chunk`) added to ``state`` (per decision index, made for every step
    first): its move played, each deal's values of the moves (one dict a deal where it was a choice), the losses
    of the move played, the deals it was asked in (``asked``: None, every decision; a deal where it was no choice
    counts a loss of 0) and those past the node limit there."""
    for index, got in state.items():
        if asked is None or index in asked:
            got["asked"] += 1
            got["seen"] += 1
    for index, played, alts, loss in rows:
        got = state.get(index)
        if got is None or (asked is not None and index not in asked):
            continue
        got["played"] = got["mark"] = played
        got["rows"].append({move: value for move, value in alts if value is not None})
        got["choices"] += 1
        if loss is not None:
            got["losses"].append(loss)
        elif played:
            got["unknown"] += 1             # (past the node limit in that deal: not counted)


def _table(got: dict, sign: int) -> tuple[object, dict]:
    """A decision's best move on average for the mover (``sign`` 1: he maximises) and each move's values in the
    deals it could be played in, by the deal's place in ``got["rows"]``."""
    values: dict = {}
    for at, row in enumerate(got["rows"]):
        for move, value in row.items():
            values.setdefault(move, {})[at] = value
    best = max(values, key=lambda m: sign * sum(values[m].values()) / len(values[m]))
    return best, values


def paired(values: dict, best, move, sign: int) -> list[int]:
    """The gaps of ``move`` to ``best`` for the mover, deal by deal, over the deals both could be played in."""
    return [sign * (values[best][at] - v) for at, v in values[move].items() if at in values[best]]


def finite(looked: int, population: int | None) -> float:
    """The finite-population correction of a mean over ``looked`` deals taken without replacement among
    ``population`` (None: drawn with replacement, or from a count not known exactly: 1), ``sqrt(1 - looked /
    population)``, by which the interval of a mean over them shrinks: 0 where every deal was taken (the exact
    mean). (The mean over the deals where a move could be played, a part of those taken, is corrected by the share
    of all the deals taken, as the mean of a domain of a sample without replacement is.)"""
    if population is None:
        return 1.0
    return math.sqrt(max(0.0, 1 - looked / population))


def _loss_values(got: dict) -> list[int]:
    """The losses of a decision's move played in each deal it was valued in with every move (0 where it was no
    choice; a deal past the node limit left out)."""
    return got["losses"] + [0] * (got["asked"] - got["choices"] - got["unknown"])


def _graded(got: dict, thresholds: Thresholds, level: float, budget: int, population: int | None,
            at_early: bool) -> bool:
    """Whether the class of a decision's move played (its mean loss's, by the points' ``thresholds``) needs no more
    deals: the interval of its mean loss at ``level`` (:func:`over`, corrected by :func:`finite`) lies within one
    class, or, past the early looks, more deals would not put it within one within ``budget`` deals (as
    :func:`fairstats.needed` judges a gap: the deals the nearest threshold inside the interval would need at the
    spread seen and a distance one standard error greater than the one seen; taken without replacement among a
    ``population``, never while the deals left may decide it)."""
    losses = _loss_values(got)
    if not losses:
        return True
    o = over(losses, True, level, finite(got["asked"], population))
    low, high = o.ci95 or (o.mean, o.mean)
    if thresholds.classify(low) == thresholds.classify(high) or at_early:
        return thresholds.classify(low) == thresholds.classify(high)
    n = len(losses)
    sd = math.sqrt(sum((x - o.mean) ** 2 for x in losses) / (n - 1)) if n > 1 else 0.0
    inside = [t for t in (thresholds.inaccuracy, thresholds.mistake, thresholds.blunder) if low < t <= high]
    hope = min(abs(o.mean - t) for t in inside) + sd / math.sqrt(n)
    need = (level * sd / hope) ** 2
    if population is not None:
        need = need / (1 + need / population)
    return need > budget


def _settled(got: dict | None, rep: Replay, k: int, z: float, at_early: bool, budget: int,
             racing: bool = False, population: int | None = None, thresholds: Thresholds | None = None,
             level: float = Z95) -> bool:
    """Whether a decision needs no more deals: its best move on average is told apart from every other move
    (the paired gap over the deals both could be played in significant at ``z``: ``fairstats.significant``), or,
    past the early looks (``at_early``), more deals would not tell it apart from any within ``budget`` deals
    (``fairstats.needed``, as the fair analysis stops for futility: in deals both moves could be played in, of
    which the budget holds the share seen so far); and, given the points' ``thresholds``, the class of the move
    played's mean loss decided (its interval at ``level`` within one class). ``population``: the deals were taken
    without replacement among so many (:func:`finite`: each interval narrower, none where every deal was taken, so
    more deals tell any gap but none at all apart, and no gap is given up for futility while the deals left may
    show it). A step no deal has made a choice in yet is not settled. ``racing``: a decision whose class is decided
    but not its best at a later look values from now on only the moves still in contention (``got["contenders"]``:
    the best, those not told apart from it, and the move played), as the fair analysis races its moves; a move told
    apart keeps its values in the deals it was valued in (``got["dropped"]``), and the move played's loss stands on
    the deals in which every move was valued."""
    if got is None or not got["rows"]:
        return False
    if thresholds is not None and got["contenders"] is None and not _graded(got, thresholds, level, budget,
                                                                        population, at_early):
        return False                        # (its grade not decided: every move valued on)
    sign = _mover_sign(rep, k)
    best, values = _table(got, sign)
    gaps = {m: paired(values, best, m, sign) for m in values if m != best}
    seen = got.get("seen", len(got["rows"]))
    dropped = got.get("dropped", {})

    def told(m) -> bool:
        here = z * finite(dropped.get(m, seen), population)
        return len(gaps[m]) >= (1 if here == 0 else LEAST_SHARED) and significant(gaps[m], here == 0, here)
    close = [m for m in gaps if not told(m)]
    if not close:
        return True
    rows = len(got["rows"])      # (a move playable in some deals alone: its shared deals grow at their share)

    def futile(m) -> bool:
        if len(gaps[m]) < LEAST_SHARED:     # (too few deals to tell: futile where the budget holds too few too)
            return budget * len(gaps[m]) / rows < LEAST_SHARED and population is None
        need = needed(gaps[m], z)
        if population is not None and math.isfinite(need):      # (the deals it needs taken without replacement)
            need = need / (1 + need / (population * len(gaps[m]) / rows))
        return need > budget * len(gaps[m]) / rows
    if not at_early and all(futile(m) for m in close):
        return True
    if racing and not at_early:     # (from the first later look: the move played's loss stands on those deals)
        got["contenders"] = frozenset([best, *close] + ([got["mark"]] if got["mark"] else []))
        got.setdefault("dropped", {}).update({m: seen for m in values if m not in got["contenders"]})
    return False


def _mover_sign(rep: Replay, k: int) -> int:
    """1 where the mover of step ``k`` (the one the record stops at: the player to move there) maximises the
    values."""
    if rep.variant.seating.sides > 2:
        return 1
    seat = rep.steps[k].seat if k < len(rep.steps) else rep.position_at(len(rep.steps)).turn
    return 1 if rep.variant.seating.teams[seat] == 0 else -1


def _summary(rep: Replay, found: SheetDeals, max_deals: int, analysed: int) -> DealsSummary:
    return DealsSummary(found.count, analysed, found.method, "exact" if found.exact else "estimated",
                        found.before_result, (),
                        found.count_ci95, max_deals)


def _exact_over(decision: Decision) -> Decision:
    """A decision of the one deal a sheet allows, its values over that deal its values."""
    best = next((a for a in decision.alternatives if a.best and a.value is not None), None)
    sign = 1 if decision.side == 0 else -1

    def one(alt):
        if alt.value is None:
            return alt
        gap = None if best is None or alt is best else float(sign * (best.value - alt.value))
        return replace(alt, over_deals=OverDeals(float(alt.value), alt.value, alt.value, 1, None, gap,
                                                 None if gap is None else (gap, gap), None if gap is None else 1))
    loss = decision.loss
    return replace(decision, alternatives=tuple(one(alt) for alt in decision.alternatives),
                   loss_over=decision.loss_over if loss is None else OverDeals(float(loss), loss, loss, 1))


def over(values: list[int], sampled: bool, level: float = Z95, fpc: float = 1.0,
         looked: int | None = None) -> OverDeals:
    """The :class:`OverDeals` of ``values`` (one a deal), with the mean's interval when they are a sample: at the
    normal quantile ``level`` (the bound of the look its decision stopped at: the 95% interval holds whichever
    look that was), as Student's ``t`` with ``len(values) - 1`` degrees of freedom (the spread is read off these
    deals alone, few where the move could be played in few of them or stopped being valued early), times the
    finite-population correction ``fpc`` (:func:`finite`); ``looked``: the deals it was looked for in."""
    summary = value_summary(values, 1, not sampled)
    if not sampled or len(values) < 2:
        return OverDeals(summary.mean, min(values), max(values), len(values), looked=looked)
    n = len(values)
    half = fpc * student(level, n - 1) * math.sqrt(sum((v - summary.mean) ** 2 for v in values) / (n - 1) / n)
    ci = (round(summary.mean - half, 4), round(summary.mean + half, 4))
    return OverDeals(summary.mean, min(values), max(values), n, ci, looked=looked)


def _gathered(rep: Replay, state: dict, thresholds: Thresholds, population: int | None) -> list[Decision]:
    """Each decision a choice in some deal, its alternatives over the deals where they could be played and the
    loss of the move played over every deal it was valued in (0 where it was the only move; a deal whose search
    passed the node limit there left out); each move's paired gap to the best on average, and each interval, at the
    bound of the look the decision stopped at (``got["z"]``, ``got["level"]``), corrected for the ``population`` the
    deals were taken among (:func:`finite`; exact where a value was looked for in all of them)."""
    out = []
    teams = rep.variant.seating.teams
    for index in sorted(state):
        got = state[index]
        if not got["rows"]:
            continue
        if index == len(rep.steps):         # the decision the record stops at: nothing played, no loss
            out.append(_to_move_over(rep, got, population))
            continue
        step = rep.steps[index]
        losses = _loss_values(got)
        if not losses:
            continue
        loss = over(losses, got["asked"] != population, got["level"], finite(got["asked"], population), got["asked"])
        side = 0 if rep.variant.seating.sides > 2 else teams[step.seat]
        alts = _alternatives(got, side, population)
        out.append(Decision(index, rep.players[step.seat], side, step.entry.pos.line or None,
                            step.entry.pos.column or None, step.entry.round, alternative_text(step.move), None, alts,
                            None, None,
                            thresholds.classify(loss.mean), loss_over=loss))
    return out


def _alternatives(got: dict, side: int, population: int | None) -> list[Alternative]:
    """A decision's alternatives over the deals in which each could be played (``got["rows"]``), best first for
    the mover's ``side``, the best on average marked, the move played (``got["played"]``) too; each other move
    with its paired gap to the best over the deals both could be played in, and its interval at the bound the
    decision's looks tested it at (``got["z"]``; ``fairstats.paired_gap``), corrected for the ``population`` of
    deals (:func:`finite`: exact where the move was looked for in every deal)."""
    sign = 1 if side == 0 else -1
    best, values = _table(got, sign)
    out = []
    for move, by_deal in values.items():
        looked = got["dropped"].get(move, got["seen"])
        fpc = finite(looked, population)
        o = over(list(by_deal.values()), looked != population, got["level"], fpc, looked)
        if move != best:
            gaps = paired(values, best, move, sign)
            if gaps:
                gap, ci = paired_gap(gaps, [0] * len(gaps), 1, looked == population, got["z"] * fpc)
                if looked != population and len(gaps) < LEAST_SHARED:     # (too few to tell them apart)
                    ci = (min(ci[0], 0.0), max(ci[1], 0.0))
                o = replace(o, gap=gap, gap_ci=ci, shared=len(gaps))
        out.append(Alternative(move, None, move == best, move == got["mark"], over_deals=o))
    return sorted(out, key=lambda a: (not a.best, -sign * a.over_deals.mean))


def _to_move_over(rep: Replay, got: dict, population: int | None) -> Decision:
    """The decision a sheet stops at ("what should he play now?"): each move's value over the deals, the best
    on average marked, nothing played."""
    pos = rep.position_at(len(rep.steps))
    side = 0 if rep.variant.seating.sides > 2 else rep.variant.seating.teams[pos.turn]
    alts = _alternatives(got, side, population)
    last = rep.steps[-1].entry if rep.steps else None
    return Decision(len(rep.steps), rep.players[pos.turn], side, last.pos.line or None if last else None, None,
                    last.round if last else None, "", None, alts, None, None, None)


# -- fair verdicts over the hands a player may have held --------------------------------------------------

def _hand_key(rep: Replay, deal: SheetDeal, seat: int) -> tuple:
    """What ``seat`` knew of his own tiles in ``deal``: his hand, and in a draw game the tiles he drew."""
    if deal.order is None:
        return (deal.hands[seat],)
    drawn, k = [], 0
    for step in rep.steps:
        if step.move is not None and step.move.draw:
            if step.seat == seat:
                drawn.append(deal.order[k])
            k += 1
    return deal.hands[seat], tuple(drawn)


def _judge_hand(task: tuple) -> tuple[dict, frozenset]:
    """The fair analysis of seat ``task[0]`` in deal ``task[1]`` (its decisions at the steps ``task[2]`` alone; None:
    every one): per decision index its fair verdict and each move's fair value; and the steps where he had a choice
    in that deal (a choice without a verdict was not valued: past the node limit). The deal's values with every
    hand open are not computed again: the sheet's hindsight is over all its deals (:func:`_over_hands`)."""
    rep, deals, settings = _JOB["rep"], _JOB["deals"], _JOB["settings"]
    seat, at, steps = task
    written = written_replay(rep, deals[at])
    base = GameAnalysis(written.title, written.players,
                        tuple(written.side_name(s) for s in range(written.variant.seating.sides)))
    # (no partnership bracket: a hand drawn for a sheet is one of many, and its verdicts are read over all of them)
    got = fair_analyze(written, base, settings=replace(settings, seats=(rep.players[seat],), steps=steps, team=False),
                       run=FairRun(workers=1))
    decided = [d for d in got.decisions + ((got.to_move,) if got.to_move is not None else ())
               if d.fair is not None and d.player == rep.players[seat]]
    return {d.index: (d.fair, {a.move: a.fair for a in d.alternatives}) for d in decided}, _choices(written, seat)


def _choices(written: Replay, seat: int) -> frozenset:
    """The steps of ``written``'s legal prefix where ``seat`` had more than one legal move."""
    pos, out = written.initial.copy(), set()
    for step in written.steps[:written.legal_prefix]:
        if step.move is None or pos.outcome() is not None:
            continue
        pos.turn = step.seat
        if step.seat == seat and len(pos.legal_moves()) > 1:
            out.add(step.index)
        pos.push(step.move)
    if written.legal_prefix == len(written.steps) and pos.outcome() is None and pos.turn == seat \
            and len(pos.legal_moves()) > 1:
        out.add(len(written.steps))          # (the decision the record stops at)
    return frozenset(out)


def hand_looks(hands: int) -> tuple[int, ...]:
    """The draws of a player's hands his decisions are looked at with, where his hands are drawn (more than
    ``hands`` of them): the first half of the ``hands`` draws (where that is at least :data:`HAND_LOOK`), then all
    of them. A decision whose class the first look settles is judged over those draws alone (:func:`_hands_settled`)."""
    first = hands // 2
    return (first, hands) if first >= HAND_LOOK else (hands,)


def fair_budget(settings: FairSettings, hands: int, per_deal: float | None,
                seconds: float | None = FAIR_SECONDS) -> tuple[FairSettings, int, FairCut | None]:
    """The fair ``settings`` and ``hands`` a player of a sheet is judged with under a CPU budget of ``seconds``
    (None: none), planned from ``per_deal``, the CPU a deal's values cost (every decision valued once; a world of
    each player's decisions costs the fair analysis some :data:`WORLD_SHARE` of it, so judging ``hands`` hands a
    player over ``worlds`` worlds costs some ``hands * worlds * per_deal * WORLD_SHARE``): where that passes it, the worlds a decision first cut to fit it (at
    least :data:`LEAST_WORLDS`, grown no further, solved exactly no more often), then the hands (at least one); and
    the cut as a value (:class:`FairCut`; None where nothing was cut)."""
    if seconds is None or not per_deal or hands * settings.worlds * per_deal * WORLD_SHARE <= seconds:
        return settings, hands, None
    per_deal_fair = per_deal * WORLD_SHARE
    worlds = min(settings.worlds, max(LEAST_WORLDS, int(seconds / (hands * per_deal_fair))))   # (never more than asked)
    cut_hands = max(1, min(hands, int(seconds / (worlds * per_deal_fair))))
    settings = replace(settings, worlds=worlds, max_worlds=None if settings.max_worlds is None else worlds,
                       exact_below=min(settings.exact_below, worlds))
    return settings, cut_hands, FairCut(CPU_BUDGET, seconds, round(per_deal, 4), cut_hands, worlds)


def sheet_fair(rep: Replay, analysis: GameAnalysis, settings: FairSettings = FairSettings(), run: FairRun = FairRun(),
               hands: int = HANDS, seconds: float | None = FAIR_SECONDS) -> GameAnalysis:
    """The fair verdicts of a sheet analysed by :func:`sheet_analyze` (``analysis``, whose deals were analysed
    with the same ``settings.seed`` and ``max_deals``), added to its decisions: for each player (``settings.seats``;
    none: every one), every hand he may have held over those deals where there are at most ``hands``, else
    ``hands`` drawn by the deals they stand for; each judged by :func:`analyzer.analysis.fair.fair_analyze`
    (under ``settings``), and each decision's fair loss averaged over them (:class:`OverHands`, on the decision's
    ``fair``). Drawn hands are judged in the looks of :func:`hand_looks`, as the fair analysis looks at its worlds:
    a decision whose class the first half of the draws settles (:func:`_hands_settled`, at the looks' shared bound)
    is judged over them alone, the others over every draw, the hands drawn after the first look judged for those
    decisions alone. ``run``: the hands judged in ``run.workers`` processes (None: at most 2) made by ``run.pool``;
    ``run.progress(done, total)``: the hands judged so far, and the most there may be (which only shrinks).
    ``seconds``: the CPU the verdicts are planned to (:func:`fair_budget`, from the CPU a deal's values cost: the
    result's ``fair_cut`` says where it cut the hands and worlds); None: no bound."""
    analysis = replace(analysis, fair=True)         # (the analysis given is left as it was)
    seed, seats, progress = settings.seed, settings.seats, run.progress
    points = settings.thresholds.points
    if analysis.deals is None:
        return replace(analysis, fair_note=gettext("no fair analysis: {why}",
                                                   why=analysis.stopped or gettext("the sheet's deals are not known")))
    found = analysis.deals_found or sheet_deals(rep, analysis.deals.max_deals, seed)    # (read back: found again)
    settings, capped = bounded(settings, analysis.deals.max_deals)
    settings, hands, cut = fair_budget(settings, hands, analysis.deals.seconds_per_deal, seconds)
    deals = list(found.deals)
    rng = random.Random(seed * 7919 + 1)
    units: dict[int, list[tuple[int, int]]] = {}      # per seat: (a deal of the hand, the deals it stands for), or
    looks_of: dict[int, tuple[int, ...]] = {}         # one a draw (the looks: how many of them each judges)
    spread: dict[int, tuple[int, bool]] = {}
    chosen_seats = [s for s, name in enumerate(rep.players) if not seats or name in seats]
    for seat in chosen_seats:
        groups: dict[tuple, list[int]] = {}
        for at, deal in enumerate(deals):
            groups.setdefault(_hand_key(rep, deal, seat), []).append(at)
        if len(groups) <= hands:
            units[seat] = [(members[0], len(members)) for members in groups.values()]
            looks_of[seat] = (len(units[seat]),)
        else:
            units[seat] = [(groups[_hand_key(rep, deals[rng.randrange(len(deals))], seat)][0], 1)
                           for _ in range(hands)]
            looks_of[seat] = hand_looks(hands)
        spread[seat] = (len(groups), len(groups) > hands)
    workers = run.workers if run.workers is not None else min(2, os.cpu_count() or 1)
    verdicts: dict[tuple[int, int], tuple[dict, frozenset]] = {}     # (seat, deal) -> what _judge_hand gives
    open_steps: dict[int, frozenset | None] = {seat: None for seat in chosen_seats}    # (None: every decision)
    stopped_at: dict[tuple[int, int], int] = {}      # (seat, decision) -> the draws of the look it stopped at
    most = sum(len({at for at, _ in units[seat]}) for seat in chosen_seats)     # (the most hands to judge)
    done = 0
    _JOB.update(rep=rep, deals=deals, settings=settings)
    try:
        with ExitStack() as stack:
            held: list = []
            for look in range(max((len(v) for v in looks_of.values()), default=0)):
                tasks = []
                for seat in chosen_seats:
                    if look < len(looks_of[seat]) and open_steps[seat] != frozenset():
                        tasks += [(seat, at, open_steps[seat])
                                  for at in dict.fromkeys(at for at, _ in units[seat][:looks_of[seat][look]])
                                  if (seat, at) not in verdicts]
                report = None if progress is None else lambda k, before=done, most=most: progress(before + k, most)
                for task, got in zip(tasks, _run(tasks, _judge_hand, workers, run, report, stack, held)):
                    verdicts[task[:2]] = got
                done += len(tasks)
                for seat in chosen_seats:
                    looks = looks_of[seat]
                    if look + 1 >= len(looks) or open_steps[seat] == frozenset():
                        continue
                    mine = _mine(units[seat][:looks[look]], seat, verdicts)
                    indices = {k for _, v, c in mine for k in (*v, *c)}
                    if open_steps[seat] is not None:
                        indices &= open_steps[seat]
                    settled = {k for k in indices if _hands_settled(mine, k, points, look_z(len(looks)))}
                    stopped_at.update({(seat, k): looks[look] for k in settled})
                    open_steps[seat] = frozenset(indices - settled)
                most = done + sum(len({at for at, _ in units[seat]} - {at for s, at in verdicts if s == seat})
                                  for seat in chosen_seats
                                  if open_steps[seat] != frozenset() and look + 1 < len(looks_of[seat]))
    finally:
        _JOB.clear()
    if progress is not None:
        progress(done, done)
    by_index = {d.index: d for d in analysis.decisions + ((analysis.to_move,) if analysis.to_move else ())}
    new: dict[int, Decision] = {}           # each decision judged, by the id of the one it judges
    early = 0
    for seat in chosen_seats:
        looks = looks_of[seat]
        whole = _mine(units[seat], seat, verdicts)
        indices = sorted({k for _, v, _ in whole for k in v} | {d.index for d in by_index.values()
                                                               if d.player == rep.players[seat]})
        for k in indices:
            decision = by_index.get(k)
            if decision is None:
                continue
            draws = stopped_at.get((seat, k), looks[-1])
            early += draws < looks[-1]
            mine = _mine(units[seat][:draws], seat, verdicts)
            fair = _over_hands(rep, seat, mine, k, spread[seat], points, draws, decision.cls, look_z(len(looks)))
            judged = replace(renewed(decision, new), fair=fair)
            if fair is not None and spread[seat][0] == 1 and k in mine[0][1]:   # his one hand: each move's
                values = mine[0][1][k][1]                                        # fair value too
                judged = replace(judged, alternatives=tuple(replace(alt, fair=values.get(alt.move))
                                                            for alt in judged.alternatives))
            new[id(decision)] = judged
    decisions = tuple(renewed(d, new) for d in analysis.decisions)
    graded = [d for d in decisions if d.fair is not None and d.fair.loss > 1e-9]
    parts = [f"{rep.players[s]}: " + hands_words(n, hands if more else n,
                                                  len({at for at, _ in units[s]}) if more else n)
             for s, (n, more) in spread.items()]
    names = ", ".join(rep.players[s] for s in chosen_seats)
    firsts = sorted({looks_of[s][0] for s in chosen_seats if len(looks_of[s]) > 1})
    stops = ("; " + ngettext("{n} decision judged over the first {draws} draws of their player's hands alone, their "
                             "class settled there (the interval of its mean loss within one class at the bound the "
                             "looks share)",
                             "{n} decisions judged over the first {draws} draws of their player's hands alone, their "
                             "class settled there (the interval of its mean loss within one class at the bound the "
                             "looks share)", early,
                             draws=" or ".join(map(str, firsts)) if len(firsts) < 2 else
                             gettext("{first} or {last}", first=", ".join(map(str, firsts[:-1])), last=firsts[-1]))
             if early else "")
    return replace(analysis, decisions=decisions, to_move=renewed(analysis.to_move, new),
                   critical=renewed(analysis.critical, new),
                   fair_critical=max(graded, key=lambda d: (d.fair.loss, -d.index)) if graded else None,
                   fair_seats=tuple(rep.players[s] for s in spread), fair_cut=cut,
                   fair_note=(gettext("the moves of {players}, each judged by what he could know in every hand he "
                                      "may have held over the deals analysed, and averaged over those hands",
                                      players=names) + "; " + ", ".join(parts)
                              + stops + (f"; {capped}" if capped else "")))


def _mine(units: list[tuple[int, int]], seat: int, verdicts: dict) -> list[tuple[int, dict, frozenset]]:
    """The hands of ``units`` (a deal of each and its weight: one a draw, where they are drawn) as
    :func:`_over_hands` reads them: per hand its weight, its verdicts by decision and its choices, a hand drawn
    more than once counted once with the draws it had."""
    weights: dict[int, int] = {}
    for at, weight in units:
        weights[at] = weights.get(at, 0) + weight
    return [(weight, *verdicts[(seat, at)]) for at, weight in weights.items()]


def _hand_losses(mine: list, k: int) -> tuple[list[int], list[float], list]:
    """Decision ``k``'s fair loss in each hand of ``mine`` where it was judged (0 in a hand where he had no choice
    there; a choice not valued, past the node limit, left out): the weights, the losses and each hand's verdict
    (None: no choice)."""
    weights, losses, fairs = [], [], []
    for weight, verdicts, choices in mine:
        if k not in verdicts and k in choices:
            continue
        fair = verdicts[k][0] if k in verdicts else None
        weights.append(weight)
        losses.append(0.0 if fair is None else fair.loss)
        fairs.append(fair)
    return weights, losses, fairs


def _draws_interval(weights: list[int], losses: list[float], z: float) -> tuple[float, tuple[float, float] | None]:
    """The mean loss over the draws (each hand counted as often as it was drawn) and its interval at the normal
    quantile ``z`` as Student's ``t`` with one less degree of freedom than the draws (None: fewer than two)."""
    draws = [x for w, x in zip(weights, losses) for _ in range(w)]
    n = len(draws)
    mean = sum(draws) / n
    if n < 2:
        return mean, None
    half = student(z, n - 1) * math.sqrt(sum((x - mean) ** 2 for x in draws) / (n - 1) / n)
    return mean, (round(max(0.0, mean - half), 4), round(mean + half, 4))


_CLASSES = (None, "inaccuracy", "mistake", "blunder")


def _hands_settled(mine: list, k: int, thresholds: Thresholds, z: float) -> bool:
    """Whether decision ``k``'s fair verdict over drawn hands needs no more draws: the interval of its mean loss
    over the draws judged (at ``z``, Student's ``t``) lies within one class of the points' ``thresholds``, the
    losses were not all the same (an interval of no width says nothing of the hands not drawn), and no hand's own
    class is above that one (the least class of every hand, which more hands only lower, cannot raise it)."""
    weights, losses, fairs = _hand_losses(mine, k)
    if sum(weights) < 2 or len(set(losses)) < 2:
        return False
    _, (low, high) = _draws_interval(weights, losses, z)
    cls = thresholds.classify(low)
    if cls != thresholds.classify(high):
        return False
    every = min(_CLASSES.index(f.cls) if f is not None else 0 for f in fairs)
    return every <= _CLASSES.index(cls)


def bounded(settings: FairSettings, max_deals: int) -> tuple[FairSettings, str]:
    """The fair ``settings`` of one hand of a sheet, its deals bounded as the sheet's are: at most ``max_deals``
    drawn (``worlds`` and ``max_worlds``) or listed (``exact_below``) for a decision, and the words saying where
    they were cut ("" where they were not)."""
    most = max(2, max_deals)
    if settings.worlds <= most and (settings.max_worlds or 0) <= most and settings.exact_below <= most:
        return settings, ""
    got = replace(settings, worlds=min(settings.worlds, most), exact_below=min(settings.exact_below, most),
                  max_worlds=None if settings.max_worlds is None else min(settings.max_worlds, most))
    return got, f"each decision of each hand valued over at most {most:,} deals (--max-deals)"


def _over_hands(rep: Replay, seat: int, mine: list, k: int, spread: tuple[int, bool], thresholds: Thresholds,
                drawn: int = HANDS, hindsight: str | None = None, z: float = Z95):
    """The fair verdict of decision ``k`` over the hands judged (``mine``: per hand its weight and verdicts by
    decision; ``drawn`` draws where ``spread[1]``, the mean's interval at ``z``: :func:`_draws_interval`): the mean
    loss classed by the points' ``thresholds``; *real* where the move is a real mistake in every hand judged,
    *uncertain* where the mean reaches a class but not so, *hindsight* where it reaches none but the loss over the
    deals with every hand open does (its class ``hindsight``), else none: the one verdict of the move
    (``render.verdicts.verdict_word``). A player the sheet gives one hand is judged as if it were written, but for
    the hindsight, which is the sheet's over its deals."""
    weights, losses, fairs = _hand_losses(mine, k)
    if not losses:
        return None
    mean = sum(w * x for w, x in zip(weights, losses)) / sum(weights)
    ci = _draws_interval(weights, losses, z)[1] if spread[1] and len(losses) > 1 else None
    real = sum(f is not None and f.verdict == "real" for f in fairs)
    bests = {f.best if not f.tied else None for f in fairs if f is not None}
    worlds = sum(f.worlds for f in fairs if f is not None)
    total_worlds = sum(f.total for f in fairs if f is not None)
    best = next(iter(bests)) if len(bests) == 1 else None
    hands = OverHands(round(mean, 4), ci, min(losses), max(losses), spread[0], len(losses), real, best,
                      drawn if spread[1] else None)
    if spread[0] == 1 and fairs[0] is not None:     # the sheet fixes his hand: judged as if it were written
        one = fairs[0]
        if one.verdict in ("none", "hindsight"):
            one = replace(one, verdict="hindsight" if hindsight else "none")
        return replace(one, over_hands=hands)
    # the class of the mean loss in points, or the class the move reaches in every hand (by its chance to win too)
    every = min((_CLASSES.index(f.cls) if f is not None else 0) for f in fairs)
    cls = _CLASSES[max(_CLASSES.index(thresholds.classify(mean)), every)]
    verdict = ("real" if cls is not None and real == len(losses) else "uncertain" if cls is not None
               else "hindsight" if hindsight else "none")
    return FairDecision(rep.players[seat], worlds, METHOD, best or "", round(mean, 4), cls, verdict,
                        total_worlds, over_hands=hands)
