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
from contextlib import ExitStack
from dataclasses import replace

from ..inference import InferenceUnsupported, NoWorld
from ..inference.sheet import MAX_DEALS, SheetDeal, SheetDeals, sheet_deals
from ..position import tiles_of
from ..replay import Replay, replay
from ..workers import pool_options
from . import Alternative, AnalysisSettings, Decision, GameAnalysis, Thresholds, analyze_replay, renewed
from .dealvalues import DealsSummary, OverDeals, OverHands
from .fair import FairDecision, FairRun, FairSettings, fair_analyze

__all__ = ["METHOD", "OverDeals", "OverHands", "DealsSummary", "sheet_analyze", "sheet_fair", "written_replay",
           "written_game", "HANDS"]

METHOD = "over-hands"   # the method of a fair verdict over the hands a player may have held (``FairDecision.method``)
HANDS = 8               # the hands of a player judged fairly: every one where he may have held at most this many,
#                         else this many drawn by the deals they stand for
CHUNK = 40              # deals a task analyses


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


def _analyse_chunk(part: int) -> list:
    """The compact analysis of each deal of chunk ``part``: per decision ``(index, played, [(move, value)],
    loss)``, then the deal's result words."""
    rep, deals, settings = _JOB["rep"], _JOB["deals"], _JOB["settings"]
    out = []
    for deal in deals[part * CHUNK:(part + 1) * CHUNK]:
        written = written_replay(rep, deal)
        # (searches made for each deal: one kept from deal to deal empties its tables for each, 2.4 times slower)
        got = analyze_replay(written, settings)
        rows = [(d.index, d.played, [(a.move, a.value) for a in d.alternatives], d.loss) for d in got.decisions]
        to_move = got.to_move
        if to_move is not None:       # a record that stops at a decision: its moves' values, nothing played
            rows.append((to_move.index, "", [(a.move, a.value) for a in to_move.alternatives], None))
        out.append((rows, _result_words(written)))
    return out


def _result_words(written: Replay) -> str:
    from ..replay.result import result_sentence

    if written.outcome is None:
        return "the hand is not over"
    return result_sentence(written.outcome, written.result, written.variant, written.players)


def _run(tasks: list, work, workers: int, run: FairRun, done=None) -> list:
    """``work(task)`` for every task, in a pool of ``workers`` processes (made as ``run`` says) where more than one
    task is asked; ``done(k)`` after the k-th result (in order)."""
    out = []
    with ExitStack() as stack:
        results = map(work, tasks)
        if workers > 1 and len(tasks) > 1:
            executor = stack.enter_context(run.pool_maker()(max_workers=min(workers, len(tasks)),
                                                            **pool_options(__name__, "_JOB")))
            results = executor.map(work, tasks)
        for got in results:
            out.append(got)
            if done is not None:
                done(len(out))
    return out


def sheet_analyze(rep: Replay, settings: AnalysisSettings = AnalysisSettings(), *, max_deals: int = MAX_DEALS,
                  seed: int = 0, run: FairRun = FairRun()) -> GameAnalysis:
    """The hindsight analysis of a sheet over the deals its record allows (see the module), each deal analysed
    under ``settings`` (:func:`~analyzer.analysis.analyze_replay`'s; the best lines kept only where the sheet
    allows one deal): a :class:`GameAnalysis` whose ``deals`` says how many (at most ``max_deals``, else drawn
    with ``seed``), each decision's alternatives valued ``over_deals`` and the move played's ``loss_over``. Where
    the record allows no deal, ``stopped`` and ``deals_error`` say why; where the inference does not list this
    family's deals, ``stopped`` says so by name. ``run``: the deals analysed in ``run.workers`` processes (None:
    at most 2) made by ``run.pool``; ``run.progress(done, total)``: the deals analysed so far, and their
    number."""
    thresholds, progress = settings.thresholds, run.progress
    out = GameAnalysis(rep.title, rep.players, [rep.side_name(s) for s in range(rep.variant.seating.sides)])
    if rep.variant.seating.sides > 2:
        out = replace(out, sides=rep.players, perspective=(
            f"each decision is valued for its mover against all the others; the running values are {rep.players[0]}'s"))
    try:
        found = sheet_deals(rep, max_deals, seed)
    except NoWorld as exc:
        return replace(out, stopped=f"no deal fits the sheet: {exc}", deals_error=str(exc))
    except InferenceUnsupported as exc:
        return replace(out, stopped=f"the deals of this sheet are not listed ({rep.variant.name}): {exc}")
    summary = _summary(rep, found, max_deals)
    if found.count == 1 and found.exact:
        written = written_replay(rep, found.deals[0])
        got = analyze_replay(written, settings)
        new = {id(d): _exact_over(d) for d in got.decisions}
        return replace(got, deals=replace(summary, results=((_result_words(written), 1),)), deals_found=found,
                       decisions=tuple(new[id(d)] for d in got.decisions), critical=renewed(got.critical, new),
                       fair_critical=renewed(got.fair_critical, new))
    workers = run.workers if run.workers is not None else min(2, os.cpu_count() or 1)
    _JOB.update(rep=rep, deals=list(found.deals), settings=replace(settings, lines=False))
    try:
        total = len(found.deals)
        parts = _run(list(range(-(-total // CHUNK))), _analyse_chunk, workers, run,
                     None if progress is None else lambda k: progress(min(total, k * CHUNK), total))
    finally:
        _JOB.clear()
    per_deal = [deal for part in parts for deal in part]
    words: dict[str, int] = {}
    for _, said in per_deal:
        words[said] = words.get(said, 0) + 1
    gathered = _gathered(rep, [rows for rows, _ in per_deal], thresholds, found.method == "sampled")
    decisions = tuple(d for d in gathered if d.index < len(rep.steps))
    losses = [d for d in decisions if d.loss_over is not None and d.loss_over.mean > 1e-9]
    return replace(out, deals=replace(summary, results=tuple(sorted(words.items(), key=lambda kv: -kv[1]))),
                   deals_found=found, decisions=decisions,
                   to_move=next((d for d in gathered if d.index == len(rep.steps)), None),
                   critical=max(losses, key=lambda d: (d.loss_over.mean, -d.index)) if losses else None,
                   analysed_steps=0,         # (no running value with every hand open: each deal has its own)
                   note=("values over the deals the sheet allows: each deal's exact values with every hand open, "
                         "then their mean, least and most"))


def _summary(rep: Replay, found: SheetDeals, max_deals: int) -> DealsSummary:
    return DealsSummary(found.count, found.analysed, found.method, found.exact, found.before_result, (),
                        found.count_ci95, max_deals)


def _exact_over(decision: Decision) -> Decision:
    """A decision of the one deal a sheet allows, its values over that deal its values."""
    alts = tuple(alt if alt.value is None else replace(alt, over_deals=OverDeals(float(alt.value), alt.value,
                                                                                  alt.value, 1))
                 for alt in decision.alternatives)
    loss = decision.loss
    return replace(decision, alternatives=alts,
                   loss_over=decision.loss_over if loss is None else OverDeals(float(loss), loss, loss, 1))


def over(values: list[int], sampled: bool) -> OverDeals:
    """The :class:`OverDeals` of ``values`` (one a deal), with the mean's interval when they are a sample."""
    n = len(values)
    mean = sum(values) / n
    ci = None
    if sampled and n > 1:
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
        half = 1.96 * sd / math.sqrt(n)
        ci = (round(mean - half, 4), round(mean + half, 4))
    return OverDeals(round(mean, 4), min(values), max(values), n, ci)


def _gathered(rep: Replay, per_deal: list[list], thresholds: Thresholds, sampled: bool) -> list[Decision]:
    """Each decision of any deal, its alternatives over the deals where they could be played and the loss of
    the move played over every deal (0 where it was the only move; a deal whose search passed the node limit
    there left out)."""
    by_index: dict[int, dict] = {}
    for rows in per_deal:
        for index, played, alts, loss in rows:
            got = by_index.setdefault(index, {"played": played, "alts": {}, "losses": [], "unknown": 0})
            for move, value in alts:
                if value is not None:
                    got["alts"].setdefault(move, []).append(value)
            if loss is not None:
                got["losses"].append(loss)
            else:
                got["unknown"] += 1             # (past the node limit in that deal: not counted)
    out = []
    teams = rep.variant.seating.teams
    for index in sorted(by_index):
        got = by_index[index]
        if index == len(rep.steps):         # the decision the record stops at: nothing played, no loss
            out.append(_to_move_over(rep, got, sampled))
            continue
        step = rep.steps[index]
        losses = got["losses"] + [0] * (len(per_deal) - len(got["losses"]) - got["unknown"])
        if not losses:
            continue
        loss = over(losses, sampled)
        side = 0 if rep.variant.seating.sides > 2 else teams[step.seat]
        alts = _alternatives(got, side, sampled)
        out.append(Decision(index, rep.players[step.seat], side, step.entry.pos.line or None,
                            step.entry.pos.column or None, step.entry.round, got["played"], None, alts, None, None,
                            thresholds.classify(loss.mean), loss_over=loss))
    return out


def _alternatives(got: dict, side: int, sampled: bool) -> list[Alternative]:
    """A decision's alternatives over the deals in which each could be played (``got["alts"]``), best first for
    the mover's ``side``, the best on average marked, the move played (``got["played"]``) too."""
    sign = 1 if side == 0 else -1
    valued = sorted(((move, over(values, sampled)) for move, values in got["alts"].items()),
                    key=lambda mv: -sign * mv[1].mean)
    return [Alternative(move, None, abs(o.mean - valued[0][1].mean) < 1e-9, move == got["played"], over_deals=o)
            for move, o in valued]


def _to_move_over(rep: Replay, got: dict, sampled: bool) -> Decision:
    """The decision a sheet stops at ("what should he play now?"): each move's value over the deals, the best
    on average marked, nothing played."""
    pos = rep.position_at(len(rep.steps))
    side = 0 if rep.variant.seating.sides > 2 else rep.variant.seating.teams[pos.turn]
    alts = _alternatives(got, side, sampled)
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


def _judge_hand(task: tuple[int, int]) -> tuple[dict, frozenset]:
    """The fair analysis of seat ``task[0]`` in deal ``task[1]``: per decision index its fair verdict and each
    move's fair value; and the steps where he had a choice in that deal (a choice without a verdict was not
    valued: past the node limit)."""
    rep, deals, settings = _JOB["rep"], _JOB["deals"], _JOB["settings"]
    seat, at = task
    written = written_replay(rep, deals[at])
    got = fair_analyze(written, settings=replace(settings, seats=(rep.players[seat],)), run=FairRun(workers=1))
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


def sheet_fair(rep: Replay, analysis: GameAnalysis, settings: FairSettings = FairSettings(), run: FairRun = FairRun(),
               hands: int = HANDS) -> GameAnalysis:
    """The fair verdicts of a sheet analysed by :func:`sheet_analyze` (``analysis``, whose deals were analysed
    with the same ``settings.seed`` and ``max_deals``), added to its decisions: for each player (``settings.seats``;
    none: every one), every hand he may have held over those deals where there are at most ``hands``, else
    ``hands`` drawn by the deals they stand for; each judged by :func:`analyzer.analysis.fair.fair_analyze`
    (under ``settings``), and each decision's fair loss averaged over them (:class:`OverHands`, on the decision's
    ``fair``). ``run``: the hands judged in ``run.workers`` processes (None: at most 2) made by ``run.pool``;
    ``run.progress(done, total)``: the hands judged so far, and their number."""
    analysis = replace(analysis, fair=True)         # (the analysis given is left as it was)
    seed, seats, progress = settings.seed, settings.seats, run.progress
    points = settings.thresholds.points
    if analysis.deals is None:
        return replace(analysis, fair_note="no fair analysis: " + (analysis.stopped or "the sheet's deals are not known"))
    found = analysis.deals_found or sheet_deals(rep, analysis.deals.max_deals, seed)    # (read back: found again)
    deals = list(found.deals)
    rng = random.Random(seed * 7919 + 1)
    tasks, weights = [], []            # (seat, a deal of the hand); per task, the deals it stands for
    spread: dict[int, tuple[int, bool]] = {}
    chosen_seats = [s for s, name in enumerate(rep.players) if not seats or name in seats]
    for seat in chosen_seats:
        groups: dict[tuple, list[int]] = {}
        for at, deal in enumerate(deals):
            groups.setdefault(_hand_key(rep, deal, seat), []).append(at)
        if len(groups) <= hands:
            chosen = [(members[0], len(members)) for members in groups.values()]
        else:
            picks: dict[tuple, int] = {}
            for _ in range(hands):
                key = _hand_key(rep, deals[rng.randrange(len(deals))], seat)
                picks[key] = picks.get(key, 0) + 1
            chosen = [(groups[key][0], n) for key, n in picks.items()]
        spread[seat] = (len(groups), len(groups) > hands)
        for at, weight in chosen:
            tasks.append((seat, at))
            weights.append(weight)
    workers = run.workers if run.workers is not None else min(2, os.cpu_count() or 1)
    _JOB.update(rep=rep, deals=deals, settings=settings)
    try:
        verdicts = _run(tasks, _judge_hand, workers, run,
                        None if progress is None else lambda k: progress(k, len(tasks)))
    finally:
        _JOB.clear()
    by_index = {d.index: d for d in analysis.decisions + ((analysis.to_move,) if analysis.to_move else ())}
    new: dict[int, Decision] = {}           # each decision judged, by the id of the one it judges
    for seat in chosen_seats:
        mine = [(w, v, c) for (s, _), w, (v, c) in zip(tasks, weights, verdicts) if s == seat]
        indices = sorted({k for _, v, _ in mine for k in v} | {d.index for d in by_index.values()
                                                               if d.player == rep.players[seat]})
        for k in indices:
            decision = by_index.get(k)
            if decision is None:
                continue
            fair = _over_hands(rep, seat, mine, k, spread[seat], points)
            judged = replace(renewed(decision, new), fair=fair)
            if fair is not None and spread[seat][0] == 1 and k in mine[0][1]:   # his one hand: each move's
                values = mine[0][1][k][1]                                        # fair value too
                judged = replace(judged, alternatives=tuple(replace(alt, fair=values.get(alt.move))
                                                            for alt in judged.alternatives))
            new[id(decision)] = judged
    decisions = tuple(renewed(d, new) for d in analysis.decisions)
    graded = [d for d in decisions if d.fair is not None and d.fair.loss > 1e-9]
    parts = [f"{rep.players[s]}: {n} hand{'s' * (n != 1)}" + (f" ({hands} drawn)" if more else "")
             for s, (n, more) in spread.items()]
    names = ", ".join(rep.players[s] for s in chosen_seats)
    return replace(analysis, decisions=decisions, to_move=renewed(analysis.to_move, new),
                   critical=renewed(analysis.critical, new),
                   fair_critical=max(graded, key=lambda d: (d.fair.loss, -d.index)) if graded else None,
                   fair_seats=tuple(rep.players[s] for s in spread),
                   fair_note=(f"the moves of {names}, each judged by what he could know in every hand he may have "
                              "held over the deals analysed, and averaged over those hands; " + ", ".join(parts)))


def _over_hands(rep: Replay, seat: int, mine: list, k: int, spread: tuple[int, bool], thresholds: Thresholds):
    """The fair verdict of decision ``k`` over the hands judged (``mine``: per hand its weight and verdicts by
    decision): the mean loss classed by the points' ``thresholds``; *real* where the move is a real mistake in
    every hand judged, *uncertain* where the mean reaches a class but not so, else none."""
    losses, weights, real, bests, worlds, total_worlds = [], [], 0, set(), 0, 0
    mine = [(w, v) for w, v, choices in mine if k in v or k not in choices]    # (a choice not valued: left out)
    if not mine:
        return None
    for weight, verdicts in mine:
        fair = verdicts[k][0] if k in verdicts else None
        losses.append(0.0 if fair is None else fair.loss)       # a hand where he had no choice loses nothing
        weights.append(weight)
        if fair is not None:
            real += fair.verdict == "real"
            bests.add(fair.best if not fair.tied else None)
            worlds += fair.worlds
            total_worlds += fair.total
    mean = sum(w * x for w, x in zip(weights, losses)) / sum(weights)
    ci = None
    if spread[1] and len(losses) > 1:          # the hands judged are drawn: the mean's interval over the draws
        draws = [x for w, x in zip(weights, losses) for _ in range(w)]
        n = len(draws)
        half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in draws) / (n - 1)) / math.sqrt(n)
        ci = (round(max(0.0, mean - half), 4), round(mean + half, 4))
    best = next(iter(bests)) if len(bests) == 1 else None
    hands = OverHands(round(mean, 4), ci, min(losses), max(losses), spread[0], len(mine), real, best)
    fairs = [verdicts[k][0] if k in verdicts else None for _, verdicts in mine]
    if spread[0] == 1 and fairs[0] is not None:     # the sheet fixes his hand: judged as if it were written
        return replace(fairs[0], over_hands=hands)
    # the class of the mean loss in points, or the class the move reaches in every hand (by its chance to win too)
    names = (None, "inaccuracy", "mistake", "blunder")
    every = min((names.index(f.cls) if f is not None else 0) for f in fairs)
    cls = names[max(names.index(thresholds.classify(mean)), every)]
    verdict = "real" if cls is not None and real == len(mine) else "uncertain" if cls is not None else "none"
    return FairDecision(rep.players[seat], worlds, METHOD, best or "", round(mean, 4), cls, verdict,
                        total_worlds, over_hands=hands)
