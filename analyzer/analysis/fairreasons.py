"""The fair verdict's reasons: why a move the fair analysis grades lost, over the deals its player could not rule out.

A reason of the open-hands analysis (:mod:`analyzer.analysis.reasons`) is read off the two principal lines of the
deal played. The fair verdict judges a move by the deals its player could not tell apart (the inference's worlds), so
its reasons are read in those deals: in each, the two lines after the move played and after the fair best move are
played out with every hand open (:func:`reasons.walk_line`, the search of that world), each line's result checked
against that world's values, and the reasons :func:`reasons.explain` reads off them kept where the move played loses
in that world (nothing where it does not). A code holding in some of them gets one reason that says in how many
(:func:`reasons.over_deals`: "in 14 of the 20 deals Ann could not rule out, an opponent goes out (Bob in 9, Cy in
5)"). The deals read are every one the player could not rule out where there are at most ``deals`` (default
:data:`DEALS`), else that many drawn uniformly with a seed
(without repeats where there are at most :data:`LISTED`; the sentence says they are drawn); a deal whose lines do not give its
values (the search past the node limit, a line that does not end the hand) is left out of the count.

The reasons are added after the decision's open-hands ones (``Decision.reasons``), for every decision the fair
verdict grades (a class of its own: ``FairDecision.cls``)."""
from __future__ import annotations

import random
from dataclasses import replace

from ..replay import Replay
from ..search.core import SearchBudget
from ..search.tree import NO_EXTRA, SearchLimit
from . import Decision, GameAnalysis, alternative_text, hand_value, int_solver_plays, renewed
from .fair import world_decision, world_searcher
from .outcomes import hand_leader
from .readings import points_before
from .reasons import Reason, explain, mover_sign, over_deals, shown_facts, walk_line

__all__ = ["DEALS", "fair_reasons", "world_reasons"]

DEALS = 20      # the deals a fair verdict's reasons are read in: every one up to this many, else this many drawn
LISTED = 5000   # drawn without repeats from the deals listed where there are at most this many, else each drawn alone


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
        read = world_reasons(rep, d, seen.view, worlds, fair.best, budget)
        seat = rep.steps[d.index].seat
        teams = rep.variant.seating.teams
        side = [p for s, p in enumerate(rep.players) if teams[s] == teams[seat]]
        extra = over_deals(read, seen.count, drawn, "fair", d.player, fair.best, side)
        if extra:
            new[id(d)] = replace(d, reasons=(*(d.reasons or ()), *extra))
    if not new:
        return analysis
    return replace(analysis, decisions=tuple(new.get(id(d), d) for d in analysis.decisions),
                   critical=renewed(analysis.critical, new), fair_critical=renewed(analysis.fair_critical, new))


def world_reasons(rep: Replay, d: Decision, view, worlds: list, best: str,
                  budget: SearchBudget = SearchBudget()) -> list[tuple[Reason, ...] | None]:
    """The open-hands reasons of decision ``d`` (the move of step ``d.index``) in each of ``worlds`` (``view``'s),
    against the move ``best``: per world the reasons :func:`reasons.explain` reads off its two lines, () where the
    move played loses nothing there, None where its lines could not be read (past the node limit; a world whose
    lines do not give its values; a draw game's world with no order of the boneyard)."""
    k = d.index
    seat = rep.steps[k].seat
    variant = rep.variant
    individual = variant.seating.sides > 2
    template = rep.position_at(k)
    offset = points_before(rep, k, seat, individual)
    points = next((s.scores for s in reversed(rep.steps[:k]) if s.scores is not None), rep.start_scores) \
        or (0,) * variant.players
    leader, teams, sign = hand_leader(rep), variant.seating.teams, mover_sign(d.side)
    shown = shown_facts([(i, rep.position_at(i), rep.steps[i].move) for i in range(k)])
    shared = None if int_solver_plays(variant) else world_searcher(rep, seat, budget)
    out: list[tuple[Reason, ...] | None] = []
    for world in worlds:
        pos = world_decision(rep, k, seat, view, world, template)
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
