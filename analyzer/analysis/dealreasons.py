"""Reasons over deals: why a move lost where it is judged over deals rather than in the one deal played: the fair
verdict's (the deals its player could not rule out) and a sheet's (the deals a record without hands allows).

A reason of the open-hands analysis (:mod:`analyzer.analysis.reasons`) is read off the two principal lines of the
deal played. The fair verdict judges a move by the deals its player could not tell apart (the inference's worlds),
and a sheet without hands has no deal of its own, only those it allows (:mod:`analyzer.analysis.sheets`), so their
reasons are read in those deals: in each, the two lines after the move played and after the best move over the deals
(the fair best; a sheet's best on average) are played out with every hand open (:func:`reasons.walk_line`, the
search of that deal), each line's result checked against that deal's values, and the reasons :func:`reasons.explain`
reads off them kept where the move played loses in that deal (nothing where it does not). A code holding in some of
them gets one reason that says in how many (:func:`reasons.over_deals`: "in 14 of the 20 deals Ann could not rule
out, an opponent goes out (Bob in 9, Cy in 5)"; "in 3 of the 4 deals the sheet allows, ..."). The deals read are
every one where there are at most ``deals`` (default :data:`DEALS`), else that many drawn uniformly with a seed
(without repeats where there are at most :data:`LISTED`; the sentence says they are drawn); a deal whose lines do
not give its values (the search past the node limit, a line that does not end the hand, a move not his to play
there) is left out of the count. No reason is read off one deal as if it were the game.

The reasons are added after the decision's open-hands ones (``Decision.reasons``): for every decision the fair
verdict grades (a class of its own: ``FairDecision.cls``), and every graded move of a sheet. A sheet's reasons are
read within a CPU budget (``seconds``: the command line gives them :data:`REASONS_SHARE` of the values' budget), the
moves that lose the most first: a deal past it is not read (each reason's count says over how many deals it was
read), and a move reached past it gets no reason over the deals (a Cuban double-nine deal's lead costs some 1.7 s to
read, so its 20 deals alone would pass the values' whole budget)."""
from __future__ import annotations

import random
import time
from dataclasses import replace

from ..replay import Replay
from ..search.core import SearchBudget
from ..search.tree import NO_EXTRA, SearchLimit
from . import Decision, GameAnalysis, alternative_text, hand_value, int_solver_plays, renewed
from .fair import world_decision, world_searcher
from .outcomes import hand_leader
from .readings import points_before
from .reasons import Reason, explain, mover_sign, over_deals, shown_facts, walk_line

__all__ = ["DEALS", "LISTED", "REASONS_SHARE", "fair_reasons", "sheet_reasons", "deal_reasons"]

DEALS = 20      # the deals a fair verdict's reasons are read in: every one up to this many, else this many drawn
LISTED = 5000   # drawn without repeats from the deals listed where there are at most this many, else each drawn alone
REASONS_SHARE = 0.15    # a sheet's reasons' CPU budget, of its values' (--values-seconds): 3 s of the default 20 s


def fair_reasons(rep: Replay, analysis: GameAnalysis, budget: SearchBudget = SearchBudget(), deals: int = DEALS,
                 seed: int = 0) -> GameAnalysis:
    """``analysis`` (a fair analysis of ``rep``, its verdicts keeping the worlds they counted: ``FairDecision.seen``)
    with the reasons of each move its fair verdict grades, over the deals its player could not rule out (see the
    module), after the open-hands ones; each world searched within ``budget``."""
    new: dict[int, Decision] = {}
    for d in analysis.decisions:
        fair = d.fair
        if fair is None or fair.cls is None or fair.seen is None or not fair.best or d.played == "no extra tile" \
                or d.index >= len(rep.steps):
            continue
        seen = fair.seen
        drawn = seen.count > deals
        rng = random.Random(seed * 1_000_003 + d.index)
        if not drawn:
            worlds = list(seen)
        elif seen.count <= LISTED:          # (drawn without repeats where they are few enough to list)
            worlds = rng.sample(list(seen), deals)
        else:
            worlds = [seen.sample(rng) for _ in range(deals)]
        template, view = rep.position_at(d.index), seen.view
        seat = rep.steps[d.index].seat
        positions = [world_decision(rep, d.index, seat, view.deal(w), view.order(w), template) for w in worlds]
        read = deal_reasons(rep, d, positions, fair.best, budget)
        extra = over_deals(read, seen.count, drawn, "fair", d.player, fair.best, _side(rep, seat))
        if extra:
            new[id(d)] = replace(d, reasons=(*(d.reasons or ()), *extra))
    return _renewed(analysis, new)


def sheet_reasons(rep: Replay, analysis: GameAnalysis, budget: SearchBudget = SearchBudget(), deals: int = DEALS,
                  seed: int = 0, seconds: float | None = None) -> GameAnalysis:
    """``analysis`` (a sheet's over the deals its record allows: ``analysis.sheets.sheet_analyze``, its deals in
    ``deals_found``) with the reasons of each graded move over those deals (see the module), against the best move on
    average; each deal searched within ``budget``. A sheet that allows one deal is that deal's record: its reasons are
    the open-hands analysis's already. ``seconds``: the CPU the reading may take (None: no bound), the moves that
    lose the most on average read first; a deal past it is not read, and a move reached past it gets none."""
    found = analysis.deals_found
    if found is None or not found.deals or (found.count == 1 and found.exact):
        return analysis
    listed = list(found.deals)
    deadline = None if seconds is None else time.process_time() + seconds
    new: dict[int, Decision] = {}
    for d in sorted(analysis.decisions, key=lambda d: (-(d.loss_over.mean if d.loss_over is not None else 0.0),
                                                       d.index)):
        best = next((a.move for a in d.alternatives if a.best), None)
        if not d.cls or d.reasons or best is None or best == d.played or d.index >= len(rep.steps) \
                or d.played == "no extra tile":
            continue
        if deadline is not None and time.process_time() >= deadline:
            break
        rng = random.Random(seed * 1_000_003 + d.index)
        picked = listed if len(listed) <= deals else rng.sample(listed, deals)
        template, seat = rep.position_at(d.index), rep.steps[d.index].seat
        positions = [world_decision(rep, d.index, seat, deal.hands, deal.order, template) for deal in picked]
        read = deal_reasons(rep, d, positions, best, budget, deadline)
        drawn = len(read) < found.count           # (a sample, or the budget stopped the reading short)
        extra = over_deals(read, found.count, drawn, "sheet", d.player, best, _side(rep, seat), not found.exact)
        if extra:
            new[id(d)] = replace(d, reasons=extra)
    return _renewed(analysis, new)


def _side(rep: Replay, seat: int) -> list[str]:
    teams = rep.variant.seating.teams
    return [p for s, p in enumerate(rep.players) if teams[s] == teams[seat]]


def _renewed(analysis: GameAnalysis, new: dict[int, Decision]) -> GameAnalysis:
    if not new:
        return analysis
    return replace(analysis, decisions=tuple(new.get(id(d), d) for d in analysis.decisions),
                   critical=renewed(analysis.critical, new), fair_critical=renewed(analysis.fair_critical, new))


def deal_reasons(rep: Replay, d: Decision, positions: list, best: str,
                 budget: SearchBudget = SearchBudget(), deadline: float | None = None) -> list[tuple[Reason, ...] | None]:
    """The open-hands reasons of decision ``d`` (the move of step ``d.index``) in each of ``positions`` (the decision
    in each deal read, every hand open: ``fair.world_decision``; None: not known there), against the move ``best``:
    per deal the reasons :func:`reasons.explain` reads off its two lines, () where the move played loses nothing
    there, None where its lines could not be read (past the node limit; lines that do not give the deal's values; a
    move not his to play there). ``deadline``: the process's CPU time (``time.process_time``) past which no more
    deal is read (those read so far returned)."""
    k = d.index
    seat = rep.steps[k].seat
    variant = rep.variant
    individual = variant.seating.sides > 2
    offset = points_before(rep, k, seat, individual)
    points = next((s.scores for s in reversed(rep.steps[:k]) if s.scores is not None), rep.start_scores) \
        or (0,) * variant.players
    leader, teams, sign = hand_leader(rep), variant.seating.teams, mover_sign(d.side)
    shown = shown_facts([(i, rep.position_at(i), rep.steps[i].move) for i in range(k)])
    shared = None if int_solver_plays(variant) else world_searcher(rep, seat, budget)
    out: list[tuple[Reason, ...] | None] = []
    for pos in positions:
        if deadline is not None and time.process_time() >= deadline:
            break
        if pos is None or NO_EXTRA in pos.legal_moves():
            out.append(None)
            continue
        search = shared or world_searcher(rep, seat, budget)     # (the int solver's tables belong to one deal)
        by_text = {alternative_text(m): m for m in pos.legal_moves()}
        moves = [by_text.get(d.played), by_text.get(best)]
        try:
            values = {alternative_text(m): v + offset for m, v in search.values(pos)} if None not in moves else {}
            if not values:
                out.append(None)
                continue
            walked = [walk_line(pos, m, search, variant, leader, points, rep.players) for m in moves]
        except SearchLimit:
            out.append(None)
            continue
        got = [values.get(alternative_text(m)) for m in moves]
        if any(w.result is None or hand_value(variant, w.result, seat if individual else 0) != v
               for w, v in zip(walked, got)):
            out.append(None)
            continue
        if sign * (got[1] - got[0]) <= 0:
            out.append(())
            continue
        here = replace(d, played_value=got[0], best_value=got[1], loss=sign * (got[1] - got[0]))
        out.append(explain(here, *walked, pos, shown, rep.players, teams))
    return out
