"""The fair analysis's decisions valued exactly under hidden information (issues 53 and 85; docs/hidden.md).

Where a decision of the block game for two (or of a draw game for two with nothing left to draw: docs/hidden.md)
has at most ``hand`` tiles in every hand (:data:`CFR_HAND` by default,
``analyze --exact-hand``), the public-tree CFR+ solver (:mod:`analyzer.hidden.cfr`) values it over every deal the
public record allows, each value a certified bracket; where every bracket closes (to :data:`CFR_SHOWN`, 0.01
points a deal of the mover's hand) within its time budget, its values are the verdict; where they stay wider than
:data:`CFR_SHOWN` but certify the best (:func:`one_best`), its brackets are (the best, each other move's loss against
it with the bracket it certainly lies in, the loss of the move played graded by what its bracket certifies:
:func:`hidden_verdict`). Where a decision of a
two-player game is small enough for the sequence-form LP (:func:`analyzer.hidden.within_bound`: every hand at
most 4 tiles and at most 700 deals the public record allows) and the CFR+ solver did not take or close it, the fair
analysis asks the LP (:mod:`analyzer.hidden`) instead of sampling open hands: each move is valued when both players play
optimally by what they know, and the decision's ``method`` says so (:data:`METHOD`). A move's value is per
deal that gives the mover his actual hand (``HiddenDecision.hand_values``), in the points of the fair means
(the points scored before the decision added), so the gap between two moves is the solver's loss. There is
no interval (the values are exact) and no chance to win (the solver values points, not wins): the move played
is graded by its loss in points alone.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Sequence

from ..hidden import (MAX_DEALS, MAX_HAND, HiddenDecision, HiddenUnavailable, TooLarge, hidden_decision, public_game,
                      public_hands, public_ranges, public_stock_down, stock_down_positions,
                      within_bound)
from ..hidden.cfr import BUDGET, BuildTooLong, TreeTooLarge, cfr_decision, cfr_supported
from ..hidden.ranges import RANGE_MOST, HandTooLarge, disjoint_pairs, hand_key, weighted_ranges
from ..inference import InferenceUnsupported, NoWorld
from ..i18n import decimal, gettext, ngettext, number
from ..replay import Replay
from ..tiles import Move
from . import alternative_text
from .brackets import for_mover, sure_loss, surely_better
from .fairstats import FairThresholds, FairValue
from .readings import points_before

__all__ = ["METHOD", "CFR_HAND", "CFR_DEALS", "CFR_RANGES_DEALS", "CFR_SHOWN", "CFR_LARGE", "CFR_MEMORY",
           "CFR_DRAW_WORLDS", "OPEN_MEAN", "GAME_VALUE", "HiddenVerdict", "surely_worse", "least_loss", "contradicted",
           "told_apart", "open_brackets", "one_best", "exact_deals", "exact_points", "hidden_verdict",
           "hidden_unavailable", "cfr_grace"]

METHOD = "exact-hidden"          # a fair decision valued by the exact solver (else "exact" or "sampled": open hands
#                                  in every world, or in the worlds drawn)
TIED = 1e-6                      # two moves whose values differ by less are equal (the LP's precision is 1e-7)
OPEN_MEAN = "open-hands mean"    # what a sampled or enumerated fair verdict estimates: the mean over the deals of
#                                  each deal's value with every hand open (a perfect-information average), not the game
GAME_VALUE = "game value"        # what an exact-hidden one gives: the value when both play best by what they know
CFR_HAND = 3                     # the CFR+ solver values a block-for-two decision with at most this many tiles a hand,
#                                  within its time budget (cfr_budget) and its brackets' width (hidden.cfr.TOL) ...
CFR_DEALS = 50_000               # ... over its deals listed where there are at most this many; past them (only with
#                                  ``--exact-hand`` above CFR_HAND) over each player's possible hands (hidden.public_ranges: no deal listed, no count bounds it),
#                                  where the deals are the pairs of those hands (not where the record shows facts of
#                                  whole hands: then the decision is sampled)
CFR_RANGES_DEALS = 775_200       # past CFR_DEALS by default (``--exact-hand`` CFR_HAND), the tree over the hands where
#                                  the deals are at most these: every three-tile decision of block for two with the
#                                  double-six set (3 and 3 tiles drawn from 20: 1,140 x 680 hands); docs/hidden.md
CFR_SHOWN = 0.01                 # the precision a CFR+ decision is solved to (points a deal of the mover's hand: the
#                                  values are shown to two decimals), and a decision whose brackets are none wider
#                                  (closed or not) is valued by them; a wider one is left to the sampling (to
#                                  hidden.cfr.TOL, 0.001, until the twenty-first session: 3.5 times the CPU over the
#                                  study's three-tile decisions; docs/hidden.md, "To the precision shown")


CFR_LARGE = 240_000              # a three-tile decision over more deals (3 and 3 tiles drawn from 17 or more) gets
#                                  twice the budget: its iterations cost 25-35 ms, and it needs some 1,000
CFR_DRAW_WORLDS = 50_000         # a draw game's decision with tiles still to draw goes to the CFR+ solver where its deals
#                                  times the orders the tiles still to draw may come in are at most these (its tree of
#                                  draws grows with them: at most 36,000 of them, every such decision of ten generated
#                                  records closed in seconds; from 99,360 on, none was built in 30 s; docs/hidden.md)
CFR_MEMORY = 4 << 30             # the most bytes one decision's tree over the hands and a run of it may take (by
#                                  RangeTree.memory, within some 7% of the process's peak): past it the decision is
#                                  left to the sampling and the note says why, before the machine runs out of memory (a
#                                  four-tile decision of ``--exact-hand 4`` over 22 million deals: 14 million nodes, and
#                                  past 22 GB before the system killed it); docs/hidden.md, "A cap on the tree's memory"


def cfr_budget(most: int, deals: int = 0) -> float:
    """The CPU seconds of one decision's solves (the tree's building too) with at most ``most`` tiles a hand over
    ``deals`` public deals: 20 up to 3 tiles, 40 over more than :data:`CFR_LARGE` deals, 900 (15 minutes) past 3 tiles
    (``--exact-hand 4``: the study's first four-tile decision, 3,312,400 deals, closed in 576 CPU s; with 200 it closed
    none: docs/hidden.md, "Four tiles in minutes")."""
    if most > CFR_HAND:
        return 45 * BUDGET
    return 2 * BUDGET if deals > CFR_LARGE else BUDGET


def cfr_grace(most: int, deals: int = 0) -> float:
    """The more CPU seconds a decision with at most ``most`` tiles a hand over ``deals`` public deals may take where at
    the end of its :func:`cfr_budget` a bracket is still wider than :data:`CFR_SHOWN` (the values shown): as many
    again up to :data:`CFR_HAND` tiles (2 of the 100 three-tile decisions of the study were left sampled at 40 s: both
    within 0.001 by 91 s; docs/hidden.md, "Every three-tile decision, with grace"), none past it (900 s there
    already)."""
    return cfr_budget(most, deals) if most <= CFR_HAND else 0.0


def hidden_unavailable() -> str | None:
    """Why the exact hidden-information solver cannot run here (scipy missing), or None. Asked of the import
    system without importing scipy (some 0.8 s of every ``analyze --fair`` process, most of which judge no decision
    this way): ``analyzer.hidden.lp`` imports it where a decision is solved, and says so there if it cannot."""
    from importlib.util import find_spec

    try:
        found = find_spec("scipy") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        return gettext("the LP's exact values under hidden information need scipy (pip install "
                       "'domino-analyzer[hidden]'); the decisions the CFR+ solver does not take are sampled with "
                       "open hands")
    return None


def exact_deals(rep: Replay, k: int, seat: int, moves: Sequence[Move], hand: int = CFR_HAND):
    """The position of the decision, the public deals with their weights and the solver that takes it ("cfr": the
    block game for two, or a draw game for two (with tiles still to draw, where its deals times the orders they may
    come in are at most :data:`CFR_DRAW_WORLDS`), with at most ``hand`` tiles a hand and
    :data:`CFR_DEALS` deals, each deal its hands' tile masks, weighted in the draw game (its worlds), else no weights;
    "cfr-ranges": past those deals in the block game, each seat's possible hands, with ``hand`` above
    :data:`CFR_HAND`, or at most :data:`CFR_RANGES_DEALS` deals; in the draw game past :data:`CFR_DRAW_WORLDS`, each
    seat's possible hands and their weights, where its deals weigh a product of them and no hand may pass the
    kernel's 8 tiles by the draws to come; "lp": two players within the LP's bound, positions), else None (the legal moves
    must be the position's own)."""
    if len(rep.players) != 2 or rep.variant.seating.sides != 2:
        return None
    pos = rep.position_at(k)
    if pos.n != 2 or pos.turn != seat or list(moves) != pos.legal_moves():
        return None                     # (an opener's choice to add no tile is not the position's move)
    most = max(pos.count(s) for s in range(2))
    cfr = most <= hand and cfr_supported(rep.variant, pos)
    if not cfr and most > MAX_HAND:
        return None
    try:
        if cfr and rep.variant.drawing is not None:
            # a draw game for two: its deals listed, each weighing its worlds; over the deals where they times the
            # orders of the tiles still to draw are few, else over each player's hands (each weighing the ways his
            # draws could have given it: a deal weighs the product); else the LP
            try:
                actual, hands, weights = public_stock_down(rep, k, CFR_DEALS)
                if len(hands) * math.perm(pos.stock, pos.drawable()) <= CFR_DRAW_WORLDS:
                    return actual, hands, weights, "cfr"
                # (a hand there holds at most its tiles now and every tile still to draw: the kernel takes 8)
                found = (weighted_ranges(hands, weights, (0, 1))
                         if hand_key(rep.variant) is not None and most + pos.drawable() <= RANGE_MOST else None)
                if found is None:
                    raise TooLarge("too many orders of the tiles still to draw")
                return actual, found[0], found[1], "cfr-ranges"
            except (TooLarge, ValueError):
                if most > MAX_HAND:
                    return None
                cfr = False
        if cfr:
            # the tree over listed deals where they are few enough (faster there: 1.6 s against 2.9 s at 19,800
            # deals, the same values), else the tree over each player's possible hands, which lists none
            try:
                actual, hands = public_hands(rep, k, CFR_DEALS)
                return actual, hands, None, "cfr"
            except TooLarge:
                try:
                    actual, ranges = public_ranges(rep, k)
                except ValueError:
                    return None
                if hand <= CFR_HAND and disjoint_pairs(*ranges) > CFR_RANGES_DEALS:
                    return None     # (a sheet's early decision, the hands drawn from most of the set: not in 20 s)
                return actual, ranges, None, "cfr-ranges"
        deals, weights = lp_deals(rep, k)
    except (TooLarge, NoWorld, InferenceUnsupported, ValueError):
        return None
    actual = next((d for d in deals if d.hands[seat] == pos.hands[seat]), None)
    if actual is None:
        return None
    return (actual, deals, weights, "lp") if within_bound(actual, len(deals)) else None


def lp_deals(rep: Replay, k: int) -> tuple[list, list[int]]:
    """The public deals of the decision at step ``k`` as the LP takes them (positions, weighted; at most
    :data:`MAX_DEALS`): :func:`public_game`'s, or in a draw game with nothing left to draw whose worlds are too many
    to list, the deals of its placements (:func:`public_stock_down`: the same deals, weighed alike)."""
    try:
        return public_game(rep, k, MAX_DEALS)
    except TooLarge:
        if rep.variant.drawing is None or rep.position_at(k).drawable():
            raise
        actual, hands, weights = public_stock_down(rep, k, MAX_DEALS)
        return stock_down_positions(actual, hands), weights


def exact_points(rep: Replay, points: Sequence[tuple[int, int, list[Move]]], hand: int = CFR_HAND,
                 lp: bool = True, seconds: float | None = None, memory: int | None = None,
                 threads: int = 1, progress=None) -> tuple[dict[tuple[int, int], HiddenDecision], str | None,
                                                          dict[tuple[int, int], HiddenDecision]]:
    """The decision points (step, seat, legal moves) small enough for an exact solver, each solved:
    ``{(step, seat): HiddenDecision}``, a note where a solver failed or left decisions open (those left to the
    sampling), and the CFR+ solver's decisions whose brackets did not close and that are left to the sampling (by
    step and seat: what they do certify still overrules a sampled verdict, :func:`contradicted`; not those the LP
    values). The CFR+ solver takes block-for-two
    decisions, and those of a draw game for two with nothing left to draw, with at most ``hand`` tiles a hand; the
    LP (where ``lp``: scipy is there) the others within its bound, and those the CFR+ solver did not close; the CFR+
    solver within ``seconds`` of CPU a decision (None: :func:`cfr_budget`'s) and, over the players' hands, ``memory``
    bytes (None: :data:`CFR_MEMORY`), to :data:`CFR_SHOWN` points a deal of the mover's hand, its walks over
    ``threads`` threads (the fair run's workers: the decisions are solved before its pool is made; the values are the
    same whatever they are). ``progress(step, number, count, seconds)``: called as the CFR+ solver begins each of its
    ``count`` decisions, with the most CPU seconds it may take."""
    out: dict[tuple[int, int], HiddenDecision] = {}
    unclosed: dict[tuple[int, int], HiddenDecision] = {}
    notes: list[str] = []
    open_ = 0
    found_at = [(k, seat, found) for k, seat, moves in points
                if (found := exact_deals(rep, k, seat, moves, hand)) is not None]
    solving = sum(found[3].startswith("cfr") for _, _, found in found_at)
    begun = 0
    for k, seat, found in found_at:
        actual, deals, weights, solver = found
        if solver.startswith("cfr"):
            count = disjoint_pairs(*deals) if solver == "cfr-ranges" else len(deals)
            most = max(actual.count(0), actual.count(1))
            budget = cfr_budget(most, count) if seconds is None else seconds
            grace = cfr_grace(most, count) if seconds is None else 0.0      # (the user's seconds are the limit)
            begun += 1
            if progress is not None:
                progress(k, begun, solving, budget + grace)
            try:
                # (to the precision shown, CFR_SHOWN: no closer, which cost 3.5 times the CPU for a digit the page
                # does not show)
                if solver == "cfr-ranges":
                    got = cfr_decision(rep.variant, actual, ranges=deals, tol=CFR_SHOWN, budget=budget,
                                       memory=CFR_MEMORY if memory is None else memory, shown=CFR_SHOWN, grace=grace,
                                       hand_weights=weights, threads=threads)
                else:
                    got = cfr_decision(rep.variant, actual, deals, weights, masks=True, tol=CFR_SHOWN, budget=budget,
                                       shown=CFR_SHOWN, grace=grace, threads=threads)
            except TreeTooLarge as exc:
                notes.append(gettext("move {number} not valued exactly under hidden information: its public tree "
                                     "takes more than {size} MB of memory (--exact-memory raises the cap)",
                                     number=k + 1, size=number(exc.cap >> 20)))
                continue
            except MemoryError:
                notes.append(gettext("move {number} not valued exactly under hidden information: out of memory",
                                     number=k + 1))
                continue
            except BuildTooLong:
                open_ += 1
                continue
            except HandTooLarge:      # (more hands than it indexes, a hand past its 8 tiles: sampled)
                notes.append(gettext("move {number} not valued exactly under hidden information: its public tree "
                                     "cannot hold the hands the players may have", number=k + 1))
                continue
            except ValueError:
                if solver != "cfr-ranges" or rep.variant.drawing is None:
                    raise
                continue    # (a draw game the tree over hands cannot take: sampled)
            if got.closed or got.width() <= CFR_SHOWN:
                out[(k, seat)] = got
                continue
            deals = None
            if lp and within_bound(actual, got.deals):
                try:
                    deals, weights = lp_deals(rep, k)      # (the LP takes positions: its values are exact)
                except (TooLarge, NoWorld, InferenceUnsupported):
                    pass                                   # (deals stay None: the brackets, or the sampling)
            if deals is None:
                if one_best(got):       # (open, but its brackets certify the best: they are the verdict)
                    out[(k, seat)] = got
                else:
                    open_ += 1
                    unclosed[(k, seat)] = got
                continue
            left_open = got             # (the LP's values come first; these only where it cannot run)
            actual = next(d for d in deals if d.hands[seat] == actual.hands[seat])
        else:
            left_open = None
        if not lp:
            continue
        try:
            out[(k, seat)] = hidden_decision(rep.variant, actual, deals, weights)
        except HiddenUnavailable as exc:
            if left_open is not None:   # (left to the sampling after all, its brackets to check it)
                open_ += 1
                unclosed[(k, seat)] = left_open
            notes.append(gettext("exact values under hidden information stop: {why}", why=exc))
            break
    if open_:
        notes.insert(0, ngettext("{n} decision not valued exactly under hidden information: the CFR+ solver's "
                                 "brackets did not narrow to {width} points within its time",
                                 "{n} decisions not valued exactly under hidden information: the CFR+ solver's "
                                 "brackets did not narrow to {width} points within its time", open_,
                                 width=decimal(CFR_SHOWN)))
    return out, "; ".join(notes) or None, unclosed


def surely_worse(solved: HiddenDecision) -> dict[str, str]:
    """The moves of a CFR+ decision (``solved``) certified worse than another, each with the move certified better
    than it (the one whose bracket's low end lies highest, for the mover): those whose bracket lies wholly on the
    mover's wrong side of another move's (:func:`.brackets.surely_better`). Empty where there are no brackets."""
    return surely_better(_ends(solved))


def least_loss(solved: HiddenDecision, move: str) -> tuple[float, str] | None:
    """What ``move`` (its text) of a CFR+ decision (``solved``) surely loses, per deal of the mover's hand, rounded
    down: the most by which another move's bracket's low end lies above its high end (the gap of their values is at
    least that), with that other move (:func:`.brackets.sure_loss`); None where no other move's bracket lies wholly
    above its own."""
    lost = sure_loss(_ends(solved), move)
    return None if lost is None else (math.floor(lost[0] / solved.reach * 1e4) / 1e4, lost[1])


def _ends(solved: HiddenDecision) -> dict[str, tuple[float, float]]:
    """Each move's bracket (by its text) of a CFR+ decision, low and high for the mover (side 1's negated); empty
    where there are no brackets."""
    return for_mover(((alternative_text(m), lo, up) for m, lo, up in solved.move_bounds or ()),
                     1 if solved.mover == 0 else -1)


def contradicted(solved: HiddenDecision, best: str) -> str | None:
    """Where the certified brackets of an open CFR+ decision (``solved``) contradict a sampled verdict naming
    ``best`` (a move's text): the move certified better than it (then the sampled verdict does not stand: neither its
    best nor the loss it gives the move played), else None."""
    return surely_worse(solved).get(best)


def told_apart(solved: HiddenDecision, best: Move, sign: int) -> set[Move] | None:
    """The moves of a CFR+ decision (``solved``; ``sign``: the mover's, 1 for side 0) certified worse than ``best``:
    their brackets lie wholly below its bracket (for the mover); the others are not told apart from it, however far
    apart the brackets' midpoints. None where the values are exact (the LP's: then two moves are equal within
    :data:`TIED`)."""
    if solved.method != "cfr" or solved.move_bounds is None:
        return None
    mine = for_mover(solved.move_bounds, sign)
    floor = mine[best][0]
    return {m for m, (_, up) in mine.items() if up < floor}


def open_brackets(solved: HiddenDecision) -> bool:
    """Whether ``solved`` is a CFR+ decision whose brackets did not narrow to :data:`CFR_SHOWN` (the precision its
    values are shown to): such brackets are a verdict only where they certify the best (:func:`one_best`)."""
    return solved.method == "cfr" and not solved.closed and solved.width() > CFR_SHOWN


def one_best(solved: HiddenDecision) -> bool:
    """Whether the brackets of a CFR+ decision certify one move the best: its bracket lies wholly above every other
    move's, for the mover (:func:`told_apart`), however wide they are. An open decision's brackets are then its
    verdict (each other move's loss against the best given with the bracket it certainly lies in, the loss of the
    move played graded by what that bracket certifies: :func:`hidden_verdict`); else it is left to the sampling,
    which they still check (:func:`contradicted`)."""
    if solved.method != "cfr" or solved.move_bounds is None:
        return False
    sign = 1 if solved.mover == 0 else -1
    best = max(solved.moves, key=lambda mv: sign * mv[1])[0]
    return len(told_apart(solved, best, sign)) == len(solved.moves) - 1


def _outward(low: float, high: float) -> tuple[float, float]:
    """A bracket rounded to four decimals outward, so that it still holds what it held."""
    return math.floor(low * 1e4) / 1e4, math.ceil(high * 1e4) / 1e4


@dataclass(frozen=True)
class HiddenVerdict:
    """A decision's fair verdict from the exact solver: each move's value (``values``, by move), the best,
    the loss of the move played and its class and verdict, the moves equal to the best, and the solver's
    own figures (``summary``, for the JSON)."""

    values: dict
    best: str
    loss: float
    cls: str | None
    verdict: str
    tied: tuple[str, ...]
    summary: dict
    loss_bracket: tuple[float, float] | None = None    # open brackets (:func:`open_brackets`): the loss certified


def hidden_verdict(rep: Replay, k: int, seat: int, solved: HiddenDecision, open_cls: str | None,
                   thresholds: FairThresholds) -> HiddenVerdict:
    """The verdict of the decision of ``seat`` at step ``k`` from ``solved`` on the move made there (none where
    the record stops at the decision); ``open_cls``: the move's class with every hand open."""
    played = None if k == len(rep.steps) else rep.steps[k].move
    sign = 1 if rep.variant.seating.teams[seat] == 0 else -1
    offset = points_before(rep, k, seat, False)
    per_hand = {m: v + offset for m, v in solved.hand_values()}
    values = {m: FairValue(round(v, 4), (round(v, 4), round(v, 4)), None) for m, v in per_hand.items()}
    best = max(per_hand, key=lambda m: sign * per_hand[m])
    apart = told_apart(solved, best, sign)
    gaps: dict = {}
    if open_brackets(solved):
        # each move's gap to the best, for the mover, a deal of his hand, and the bracket it certainly lies in (from
        # the two moves' brackets): certified, however far from closed. (Not each move's own value: the level of
        # the values a deal of his hand, ``hand_value``, is the strategies found's, which no bracket holds; with the
        # brackets 2.1 wide, it lay 0.47 from the closed one's: docs/hidden.md)
        mine = {m: sorted((sign * lo, sign * up)) for m, lo, up in solved.move_bounds}
        gaps = {m: _outward(max(0.0, mine[best][0] - mine[m][1]) / solved.reach if m != best else 0.0,
                            (mine[best][1] - mine[m][0]) / solved.reach if m != best else 0.0) for m in per_hand}
        values = {m: replace(values[m], gap=round(sign * (per_hand[best] - per_hand[m]), 4), gap_ci=gaps[m])
                  for m in per_hand}
    order = sorted(per_hand, key=lambda m: -sign * per_hand[m])
    if apart is None:
        tied = tuple(alternative_text(m) for m in order if sign * (per_hand[best] - per_hand[m]) < TIED)
    else:
        tied = tuple(alternative_text(m) for m in order if m not in apart)
    summary = {"deals": solved.deals, "value": round(solved.value + offset, 6), "hand_value": round(
        solved.hand_value + offset, 6), "reach": round(solved.reach, 6), "infosets": list(solved.infosets),
        "moves": {alternative_text(m): round(v + offset, 6) for m, v in solved.moves},
        "strategy": {alternative_text(m): round(p, 6) for m, p in solved.strategy}, "solver": solved.method}
    if solved.method == "cfr":          # every value a certified bracket: where the game value and each move's lie
        summary.update(bounds=[round(b + offset, 6) for b in solved.bounds],
                       move_bounds={alternative_text(m): [round(lo + offset, 6), round(up + offset, 6)]
                                    for m, lo, up in solved.move_bounds},
                       closed=not open_brackets(solved),  # (False: wider than shown; a verdict where one_best)
                       iterations=solved.iterations,     # (not its seconds: the same record, the same JSON)
                       width=round(solved.width(), 6))   # (its widest bracket, points a deal of the mover's hand)
    if played is None:
        return HiddenVerdict(values, alternative_text(best), 0.0, None, "none", tied if len(tied) > 1 else (), summary)
    loss = max(0.0, sign * (per_hand[best] - per_hand[played]))
    grade = lambda x: thresholds.points.classify(Fraction(str(round(x, 6))))    # noqa: E731  (as the thresholds
    #                                                                             are written: a loss of 10 is a mistake)
    cls = grade(loss) if loss >= TIED else None
    verdict = "real" if cls else "hindsight" if open_cls else "none"
    if gaps:        # open brackets: graded by what they certify of the loss, its low end; where only its high end has
        low, high = gaps[played]        # a grade, that grade, uncertain
        cls = grade(low) if low > 0 else None
        verdict = "real" if cls else "uncertain" if grade(high) else "hindsight" if open_cls else "none"
        cls = cls or grade(high)
    return HiddenVerdict(values, alternative_text(best), round(loss, 4), cls, verdict,
                         tied if len(tied) > 1 else (), summary, gaps.get(played) if played != best else None)
