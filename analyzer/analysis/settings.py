"""The settings of a fair analysis, as values: what to compute (:class:`FairSettings`, which shapes the result)
and how to run it (:class:`FairRun`: processes and progress, which never change a value).

One frozen value each travels from the command line (or the board, or the archive runner) down to the
solvers, in place of the dozen parameters each step took before (issue 69).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..search.core import SearchBudget
from .fairstats import FairThresholds

__all__ = ["EXACT_BELOW", "WORLDS", "FairSettings", "FairRun"]

EXACT_BELOW = 1000      # enumerate every world when there are at most this many
WORLDS = 200            # else draw this many to start with (more where the best is not told apart: ``max_worlds``)


@dataclass(frozen=True)
class FairSettings:
    """What a fair analysis computes. ``worlds``: the deals drawn first for a decision with more than
    ``exact_below`` deals (every deal is solved below); a decision whose best is not told apart draws more,
    doubling up to ``max_worlds`` (None: ``worlds``, no more). ``seed``: the draws' seed (the same seed, the same
    deals). ``seats``: the players judged (empty: every one whose hand is known). ``thresholds``: when a move is
    graded. ``budget``: each world's search. ``results``: also each alternative's result in each world (the match
    scale reads them). ``exact_hidden``: a small decision of a two-player game valued exactly under hidden
    information (:mod:`analyzer.analysis.hiddenfair`); ``exact_hand``: the block game for two's by the CFR+ solver
    where no hand has more tiles, ``exact_seconds`` its CPU seconds a decision (None: ``hiddenfair.cfr_budget``'s by
    the tiles and the deals) and ``exact_memory`` the bytes its tree over the hands may take (None:
    ``hiddenfair.CFR_MEMORY``); ``team``: with ``exact_hidden``, a small endgame of a partnership block game gets
    its bracket under hidden information beside the fair verdict (:mod:`analyzer.analysis.teamfair`). ``steps``: the decisions judged, by the index of their step (None: every one; a
    sheet's hands judged again for the decisions still in question, ``analysis.sheets``)."""

    worlds: int = WORLDS
    max_worlds: int | None = None
    exact_below: int = EXACT_BELOW
    seed: int = 0
    seats: tuple[str, ...] = ()
    thresholds: FairThresholds = field(default_factory=FairThresholds)
    budget: SearchBudget = field(default_factory=SearchBudget)
    results: bool = False
    exact_hidden: bool = False
    exact_hand: int = 3
    exact_seconds: float | None = None
    exact_memory: int | None = None
    team: bool = True
    steps: frozenset[int] | None = None

    def __post_init__(self):
        if self.worlds < 2:
            raise ValueError(f"worlds: {self.worlds} deals drawn give no interval; draw at least 2")
        if self.exact_seconds is not None and not self.exact_seconds > 0:
            raise ValueError(f"exact_seconds: {self.exact_seconds} leaves the solver no time; give more than 0")
        if self.exact_memory is not None and self.exact_memory < 1:
            raise ValueError(f"exact_memory: {self.exact_memory} bytes leave the solver no room; give at least 1")
        if self.max_worlds is not None and self.max_worlds < self.worlds:
            raise ValueError(f"max_worlds: {self.max_worlds} is fewer than the {self.worlds} deals drawn first")
        object.__setattr__(self, "seats", tuple(self.seats))


@dataclass(frozen=True)
class FairRun:
    """How a fair analysis runs, which never changes its values: ``workers`` processes (None or 1: this one),
    made by ``pool(max_workers=, mp_context=)`` (None: ``concurrent.futures.ProcessPoolExecutor``, imported only
    when a pool is made: a single record loads no pool; the command line's ends its workers when it is killed);
    ``progress(done, total)`` called in this process as the worlds are solved; ``exact(step, number, count, seconds)``
    as each decision valued exactly under hidden information begins (the ``number``-th of ``count``, at most
    ``seconds`` of CPU: a four-tile one takes up to 15 minutes, before any world is solved)."""

    workers: int | None = None
    pool: Callable | None = None
    progress: Callable[[int, int], None] | None = None
    exact: Callable[[int, int, int, float], None] | None = None

    def pool_maker(self) -> Callable:
        """What makes the pool: ``pool``, else the standard library's process pool (imported only now)."""
        if self.pool is not None:
            return self.pool
        from concurrent.futures import ProcessPoolExecutor

        return ProcessPoolExecutor
