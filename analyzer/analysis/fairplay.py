"""Play by what the players know: the fair analysis as a policy for simulated hands (issue 53).

The hand-result models of the MWC tables are simulated with every hand open (``equity.model``). A
:class:`FairPlayer` plays a simulated hand of a block game of two sides as the fair analysis judges a move:
at each decision with a choice the mover's worlds (the deals he cannot tell apart after the moves seen, by
the project's inference, ``inference.worlds_at``) are drawn, ``worlds`` of them uniformly (all of them where
there are no more), every legal move is valued with all hands open in each of them, and he plays the fair best
(:func:`fair_choice`: the highest sum over the shared worlds for his side, then the most worlds won, then the
first in move order). The hand so far is written as a record and replayed, so the worlds are exactly those the
fair analysis would list for that record. It is handed to ``equity.model.simulate_mode`` (``choose``), which
lies below the analysis in the pipeline."""
from __future__ import annotations

import random
from typing import Callable, Sequence

from ..equity.model import Choice
from ..i18n import N_
from ..inference import Worlds, worlds_at
from ..record import Game, HandEntry, MoveEntry
from ..replay import MatchTerms, Replay, replay
from ..search.core import TABLE_MB, SearchBudget
from ..tiles import Move
from .fair import WorldSearch, decision_table, solve_dealt

__all__ = ["FairPlayer", "fair_choice", "hand_record", "NAMES"]

NAMES = ("A", "B", "C", "D", "E", "F")


def fair_choice(rep: Replay, k: int, seat: int, deals: Sequence[tuple[int, ...]], node_limit: int | None = None,
                table_mb: float = TABLE_MB) -> tuple[Move, dict[Move, list[int]]]:
    """The fair best of ``seat``'s decision at step ``k`` of ``rep`` (a game without drawing) over ``deals`` (the
    worlds he cannot tell apart, each seat's tiles as dealt: ``inference.View.deal``), picked as the fair analysis
    picks it (``fair.decision_table``: the highest sum of the open-hands values over the shared worlds for his
    side, then the most worlds won, then the first in move order), and each legal move's value in each deal
    (side-0 points, the points scored before the decision added; ``fair.solve_dealt`` values them). Raises
    ``SearchLimit`` where a deal needs more than ``node_limit`` positions."""
    template = rep.position_at(k)
    if template.draws:
        raise NotImplementedError("fair_choice takes games without drawing")
    rows = solve_dealt(rep, template, list(deals), seat, WorldSearch(SearchBudget(node_limit, table_mb)))[0]
    table, best = decision_table(rep, k, seat, template.legal_moves(), rows)
    return best, table


def hand_record(choice: Choice) -> Game:
    """The hand of ``choice`` as far as it is played, as a record game (every hand shown, the leader named)."""
    names = NAMES[:len(choice.hands)]
    variant = choice.variant
    tags = {"Variant": variant.name, **({"Rules": variant.rules_text} if variant.options else {}),
            "Players": ", ".join(names), "Lead": names[choice.leader]}
    return Game(tags=tags, players=names, hands=tuple(HandEntry(names[s], tuple(h)) for s, h in enumerate(choice.hands)),
                moves=[MoveEntry(names[s], m.tile, m.end if m.tile is not None else None) for s, m in choice.played])


#: the fair-play policy in words (its ``{n}``: the deals a decision values), marked for the catalogue
FAIR_POLICY = N_("each player plays by what he knows: at each decision with a choice, every legal move valued with "
                 "all hands open in {n} deals he cannot tell apart (drawn uniformly by the fair analysis's inference; "
                 "all of them where there are no more), the move with the highest mean for his side played (then the "
                 "most deals won, then the first in move order, as the fair analysis picks its best)")


class FairPlayer:
    """The fair-play policy (see the module): ``worlds`` deals a decision, drawn with a generator seeded by
    ``seed``, the deal and the moves so far (a decision's worlds do not depend on the hands simulated before
    it). ``deals(choice, worlds, rng)``: the deals to value instead of the drawn ones (tests). ``table_mb`` and
    ``node_limit`` bound each decision's search. ``decisions`` and ``worlds_valued`` count what it did."""

    def __init__(self, worlds: int = 16, seed: int = 0, *, table_mb: float = TABLE_MB / 8,
                 node_limit: int | None = None,
                 deals: Callable[[Choice, Worlds, random.Random], list[tuple[int, ...]]] | None = None) -> None:
        if worlds < 1:
            raise ValueError(f"worlds: {worlds}; a decision needs at least one world")
        self.worlds, self.seed, self.table_mb, self.node_limit = worlds, seed, table_mb, node_limit
        self._deals = deals
        self.decisions = 0
        self.worlds_valued = 0

    @property
    def policy(self) -> str:
        """The policy in words, in English (a table's data: ``policy_words`` says it in the active language)."""
        return FAIR_POLICY.format(n=self.worlds)

    def __call__(self, choice: Choice) -> Move:
        rep = replay(hand_record(choice), choice.variant, terms=MatchTerms(choice.requirement))
        k, seat = len(rep.steps), choice.seat
        if k != len(choice.played) or rep.errors:
            raise ValueError(f"the hand so far does not replay: {[d.message for d in rep.errors][:3]}")
        every = worlds_at(rep, k, seat)
        rng = random.Random(f"{self.seed}:{choice.hands}:{choice.played}")
        if self._deals is not None:
            deals = self._deals(choice, every, rng)
        elif every.count <= self.worlds:
            deals = [every.view.deal(world) for world in every]
        else:
            deals = [every.view.deal(every.sample(rng)) for _ in range(self.worlds)]
        best, _ = fair_choice(rep, k, seat, deals, self.node_limit, self.table_mb)
        self.decisions += 1
        self.worlds_valued += len(deals)
        return best
