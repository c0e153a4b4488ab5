"""The fair analysis's decisions valued exactly under hidden information (issue 53; docs/hidden.md).

Where a decision of a two-player game is small enough (:func:`analyzer.hidden.within_bound`: every hand at
most 4 tiles and at most 700 deals the public record allows), the fair analysis asks the exact solver
(:mod:`analyzer.hidden`) instead of sampling open hands: each move is valued when both players play
optimally by what they know, and the decision's ``method`` says so (:data:`METHOD`). A move's value is per
deal that gives the mover his actual hand (``HiddenDecision.hand_values``), in the points of the fair means
(the points scored before the decision added), so the gap between two moves is the solver's loss. There is
no interval (the values are exact) and no chance to win (the solver values points, not wins): the move played
is graded by its loss in points alone.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from ..hidden import MAX_HAND, HiddenDecision, HiddenUnavailable, TooLarge, hidden_decision, public_game, within_bound
from ..inference import InferenceUnsupported, NoWorld
from ..replay import Replay
from ..tiles import Move
from . import alternative_text
from .fairstats import FairThresholds, FairValue
from .readings import points_before

__all__ = ["METHOD", "HiddenVerdict", "exact_deals", "exact_points", "hidden_verdict", "hidden_unavailable"]

METHOD = "exact-hidden"          # a fair decision valued by the exact solver (else "exact" or "sampled": open hands
#                                  in every world, or in the worlds drawn)
TIED = 1e-6                      # two moves whose values differ by less are equal (the LP's precision is 1e-7)


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
        return ("no exact values under hidden information: they need scipy (pip install 'domino-analyzer[hidden]'); "
                "every decision is sampled with open hands")
    return None


def exact_deals(rep: Replay, k: int, seat: int, moves: Sequence[Move]):
    """The position of the decision and the public deals with their weights where the solver takes it
    (two players, within the bound, the legal moves the position's own), else None."""
    if len(rep.players) != 2 or rep.variant.seating.sides != 2:
        return None
    pos = rep.position_at(k)
    if pos.n != 2 or pos.turn != seat or any(pos.count(s) > MAX_HAND for s in range(2)) \
            or list(moves) != pos.legal_moves():
        return None                     # (an opener's choice to add no tile is not the position's move)
    try:
        deals, weights = public_game(rep, k)
    except (TooLarge, NoWorld, InferenceUnsupported):
        return None
    actual = next((d for d in deals if d.hands[seat] == pos.hands[seat]), None)
    if actual is None or not within_bound(actual, len(deals)):
        return None
    return actual, deals, weights


def exact_points(rep: Replay, points: Sequence[tuple[int, int, list[Move]]]
                 ) -> tuple[dict[tuple[int, int], HiddenDecision], str | None]:
    """The decision points (step, seat, legal moves) small enough for the exact solver, each solved:
    ``{(step, seat): HiddenDecision}``, and a note where the solver failed (the decisions it failed on
    left to the sampling)."""
    out: dict[tuple[int, int], HiddenDecision] = {}
    for k, seat, moves in points:
        found = exact_deals(rep, k, seat, moves)
        if found is None:
            continue
        actual, deals, weights = found
        try:
            out[(k, seat)] = hidden_decision(rep.variant, actual, deals, weights)
        except HiddenUnavailable as exc:
            return out, f"exact values under hidden information stop: {exc}"
    return out, None


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
    tied = tuple(alternative_text(m) for m in sorted(per_hand, key=lambda m: -sign * per_hand[m])
                 if sign * (per_hand[best] - per_hand[m]) < TIED)
    summary = {"deals": solved.deals, "value": round(solved.value + offset, 6), "hand_value": round(
        solved.hand_value + offset, 6), "reach": round(solved.reach, 6), "infosets": list(solved.infosets),
        "moves": {alternative_text(m): round(v + offset, 6) for m, v in solved.moves},
        "strategy": {alternative_text(m): round(p, 6) for m, p in solved.strategy}}
    if played is None:
        return HiddenVerdict(values, alternative_text(best), 0.0, None, "none", tied if len(tied) > 1 else (), summary)
    loss = max(0.0, sign * (per_hand[best] - per_hand[played]))
    exact = Fraction(str(round(loss, 6)))        # (as the thresholds are written: a loss of 10 is a mistake at 10)
    cls = thresholds.points.classify(exact) if loss >= TIED else None
    verdict = "real" if cls else "hindsight" if open_cls else "none"
    return HiddenVerdict(values, alternative_text(best), round(loss, 4), cls, verdict,
                         tied if len(tied) > 1 else (), summary)
