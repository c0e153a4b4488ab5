"""The race solver: the MWC of a match of individual players to a target over dense arrays.

A race (``table.by_scores``: a target of points or bad points, no bonus for the first games) moves on by
nothing but the players' new totals and who leads next. Its positions are every player's running score
on a grid (0 to the target in the variant's ``score_step``) and a lead; the walk of :mod:`.table` (a
dict per position, a Python loop per result) takes under a thousand positions a second, and these
matches have up to a million positions with thousands of results each.

How it is solved (the equations of ``table.solve_each``, ``E_k(x) = sum over results r of P(r) E_k(x
after r)`` for every player ``k``):

- **The results** of each lead are the model's (``table.hand_results``: merged to the scores), each as
  every player's points in score steps and the lead of the next hand (``table.resolve``).
- **The match code is the only judge** of where a hand's totals take the match. It is asked once per
  *distinct new totals*, the key ``table._stepper`` keeps its answers by: for every cell of the box of
  totals (each player's grid score plus the most a hand gives him), ``MatchScoring.apply`` on the match's
  start with those totals gives the state, then ``terminal_each`` (over), ``endless`` (drawn) or
  ``state_key`` (the grid point the match goes on at: a tie on top past the target is shifted back, as
  the walk shifts it). The answers are an array; the loop never decides who wins.
- **The positions solved** are the *live* grid points (those where the match code's answer to the
  point's own totals is the point itself: a running score the match can be at) with every lead, and all
  they lead to.
- **The sweeps** (``_race.sweep`` in C, :class:`PySweeps` its pure-Python twin): Gauss-Seidel, highest
  grid point first. A hand that leaves a position's scores alone is solved in place; the positions a hand
  takes the match *back* to (a tie past the target shifted back: found from the answers, ``back``) and all
  they lead to are swept first until no chance moves by more than ``tol``; then one sweep of everything is
  exact, since scores only grow. With one lead the C loop sweeps a row at a time (the results that move
  another player's score summed result by result along the row: runs of neighbouring cells in memory).
- **A coarser lattice** (``lattice``: French and Hungarian for four, 10^8 running scores): each hand's points
  split between the neighbouring lattice points, the mean kept, and a look-up between lattice points
  weighed from its corners (:meth:`RaceValues.get`): a reduced state, an approximation (docs/equity.md). A
  recorded hand's known leader there is one hand from the lattice's positions (:meth:`RaceValues.after_hand`:
  the walk's sums, without the walk).

The solution is a :class:`RaceValues`, the mapping ``{(state_key, lead): chances}`` an ``EquityTable``
holds."""
from __future__ import annotations

import json
import os
import sys
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import product
from typing import Callable

from ..i18n import gettext, number
from ..rules import HandResult, Variant
from ..rules.modes import MatchKind
from ..search.core import PURE_ENV, race_wasm
from .model import HandModel
from .table import (by_scores, endless, first_lead, hand_results, resolve, score_step, state_key,
                    terminal_each)

#: The answer at a cell of the box of totals no grid point reaches (the match code is not asked about it).
UNASKED = -2 ** 31
_ONE = array("d", [1.0])        # (one result of chance 1: a look-up between a lattice's points, ``_race.between``)

try:
    from . import _race
except ImportError:  # pragma: no cover - a machine without a C compiler
    _race = race_wasm()         # (in the site's Pyodide: the same kernel's WebAssembly module, else None)

__all__ = ["KeptResults", "RaceValues", "RaceArrays", "dump_values", "led_results", "load_values", "side_leads_results", "PySweeps", "RACE_CORE", "is_race", "grid_of", "score_step", "race_arrays", "solve_race",
           "sweeps_of", "RaceLoop"]

#: ``"compiled"`` or ``"python"``: the loop the race solver runs on unless told otherwise.
RACE_CORE = "compiled" if _race is not None and os.environ.get(PURE_ENV, "") in ("", "0") else "python"


def is_race(variant: Variant) -> bool:
    """Whether ``variant``'s match is a race the race solver takes: individual players (more than two
    sides; two sides keep the walk and their shipped tables), to a target of points or bad points, moved
    on by the new totals alone (``table.by_scores``)."""
    m = variant.match
    return variant.seating.sides > 2 and bool(m.target) and by_scores(variant) and m.kind in (
        MatchKind.POINTS, MatchKind.BAD)


def grid_of(variant: Variant) -> tuple[int, int]:
    """(score step, grid points a player): every running score 0 to the target in the variant's step."""
    step = score_step(variant)
    return step, variant.match.target // step + 1


@dataclass(frozen=True)
class RaceArrays:
    """A race's equations as arrays (see the module's docstring): ``leads`` (the resolved leads, in
    order), ``grid`` and ``box`` (sizes a player), ``starts`` (each lead's results: ``starts[l]`` to
    ``starts[l + 1]``), ``probs``, ``offsets`` (a result's totals as a step in the box's cells),
    ``next_lead``, ``answers`` (per cell), ``terminals`` (the finished matches' chances, ``sides`` each),
    ``step``, ``rest`` (the state key but its scores, alike at every position), ``asked`` (the match-code
    calls), ``coarse`` (a lattice coarser than the variant's score step: a reduced state)."""

    sides: int
    step: int
    rest: tuple
    leads: tuple
    grid: tuple
    box: tuple
    starts: array
    probs: array
    offsets: array
    next_lead: array
    answers: array
    terminals: array
    asked: int
    coarse: bool = False

    def cell(self, g: int) -> int:
        """The box cell of grid point ``g``'s own totals."""
        c = 0
        for x, size in zip(self.scores(g), self.box):
            c = c * size + x // self.step
        return c

    def point(self, scores: tuple) -> int | None:
        """The grid point of running ``scores`` (None: off the grid)."""
        return _point(scores, self.grid, self.step)

    def scores(self, g: int) -> tuple:
        out = []
        for size in reversed(self.grid):
            g, c = divmod(g, size)
            out.append(c * self.step)
        return tuple(reversed(out))


def _split(points: int, step: int, coarse: bool) -> list[tuple[int, float]]:
    """A hand's ``points`` in score steps, with their weights: exact (one), or on a coarser lattice split
    between the two neighbouring lattice points so that the mean is kept."""
    low, rest = divmod(points, step)
    if not rest:
        return [(low, 1.0)]
    if not coarse:
        raise ValueError(f"a hand's {points} points are not a multiple of the step {step}")
    return [(low, 1.0 - rest / step), (low + 1, rest / step)]


def _lead_results(variant: Variant, model: HandModel, lead: tuple, step: int, coarse: bool, leads: list) -> dict:
    """The results of a hand led so, merged: {(steps, next lead's index in ``leads``): p} (a lead not yet in
    ``leads`` appended; the next lead resolved at the match's start)."""
    sides = variant.seating.sides
    start = variant.match.start(sides)
    out: dict = {}
    where: dict = {}            # (next token, side) -> the next lead's index in ``leads`` (asked once each)
    for p, side, o in hand_results(variant, model, lead):
        at = where.get((o.next, side))
        if at is None:
            if o.next[0] == "match":
                raise ValueError(f"{variant.name}: a lead the match score decides is not a race")
            nxt = resolve(variant, o.next, side, start)
            if nxt not in leads:
                leads.append(nxt)
            at = where[o.next, side] = leads.index(nxt)
        scores = o.scores
        points = [scores[(s - side) % sides] for s in range(sides)] if scores else [0] * sides
        if min(points) < 0:
            raise ValueError(f"{variant.name}: a hand's scores {points} are not a race's")
        if not any(x % step for x in points):     # (every split exact, of weight one: ``_corners``' one corner)
            key = (tuple(x // step for x in points), at)
            out[key] = out.get(key, 0.0) + p
            continue
        for steps, w in _corners([_split(x, step, coarse) for x in points]):
            key = (steps, at)
            out[key] = out.get(key, 0.0) + p * w
    return out


def _leads_and_results(variant: Variant, model: HandModel, step: int, coarse: bool) -> tuple[list, list]:
    """Every lead reachable from the first, and per lead its results merged: {(steps, next lead index): p}."""
    leads = [first_lead(variant)]
    merged: list[dict] = []
    i = 0
    while i < len(leads):
        merged.append(_lead_results(variant, model, leads[i], step, coarse, leads))
        i += 1
    return leads, merged


def _corners(splits: list) -> list[tuple[tuple, float]]:
    """Every combination of each player's split (``_split``), with the product of its weights."""
    out = [((), 1.0)]
    for options in splits:
        out = [(steps + (q,), w * v) for steps, w in out for q, v in options if v > 0.0]
    return out


def _ask(variant: Variant, grid: tuple, box: tuple, step: int, cells: bytearray,
         progress: Callable[[str], None] | None) -> tuple[array, array]:
    """The match code's answer for every cell of the box of totals ``cells`` marks: a grid point, or ``-1 -
    t`` for the ``t``-th finished match (its chances in the second array); :data:`UNASKED` at the others."""
    sides = len(grid)
    start = variant.match.start(sides)
    rest = state_key(variant, start)[1:]        # (the state beyond the scores: the race's own)
    apply = variant.match.apply          # (``table.apply_outcome`` of the totals as one hand's scores)
    terminals: dict = {}
    finished: dict = {}                  # (winner, drawn) -> the finished match's index in ``terminals``
    answers = array("i", [UNASKED]) * _prod(box)
    for c, totals in enumerate(product(*(range(0, b * step, step) for b in box))):
        if not cells[c]:
            continue
        after = apply(start, HandResult("domino", None, 0, 0, totals, False))
        if after.over or endless(variant, after):
            t = finished.get((after.winner, after.drawn, after.over))
            if t is None:
                chances = terminal_each(after) if after.over else (1.0 / sides,) * sides
                t = finished[(after.winner, after.drawn, after.over)] = terminals.setdefault(chances, len(terminals))
            answers[c] = -1 - t
            continue
        key = state_key(variant, after)
        g = _point(key[0], grid, step)
        if g is None or key[1:] != rest:
            raise ValueError(f"{variant.name}: the match goes on at {key}, off the race's grid")
        answers[c] = g
        if progress is not None and c % 1_000_000 == 0 and c:
            progress(gettext("asked the match code about the new totals up to cell {cell} of {n}", cell=number(c),
                             n=number(len(answers))))
    flat = array("d", [x for chances in terminals for x in chances])
    return answers, flat


def _point(scores: tuple, grid: tuple, step: int) -> int | None:
    g = 0
    for s, size in zip(scores, grid):
        if s % step or not 0 <= s // step < size:
            return None
        g = g * size + s // step
    return g


def _prod(sizes) -> int:
    n = 1
    for s in sizes:
        n *= s
    return n


def race_arrays(variant: Variant, model: HandModel, progress: Callable[[str], None] | None = None,
                core: str | None = None, lattice: int | None = None, answers: Callable | None = None) -> RaceArrays:
    """The arrays of ``variant``'s race under ``model`` (the match code asked once per cell of the box of
    totals that a grid point reaches). ``lattice``: a coarser score step (a reduced state: each hand's
    points split between the neighbouring lattice points, the mean kept). ``answers``: the match code's answers
    asked before (a race shipped solved, ``shipped.py``), given the arrays without them it returns ``(answers,
    terminals, asked)``, and raises ``ValueError`` where they are not this race's. Raises ``ValueError`` for a
    match that is no race on a grid."""
    if not is_race(variant):
        raise ValueError(f"{variant.name}: not a race of individual players to a target")
    sides = variant.seating.sides
    step, size = grid_of(variant)
    coarse = lattice is not None and lattice != step
    if coarse:          # (up to the first lattice point at or past the target: a score below it lies between two)
        step, size = lattice, -(-variant.match.target // lattice) + 1
    start = variant.match.start(sides)
    rest = state_key(variant, start)[1:]
    leads, merged = _leads_and_results(variant, model, step, coarse)
    most = [max((steps[k] for out in merged for steps, _ in out), default=0) for k in range(sides)]
    grid = (size,) * sides
    box = tuple(size + m for m in most)
    strides = [_prod(box[k + 1:]) for k in range(sides)]
    starts, probs, offsets, next_lead = array("q", [0]), array("d"), array("q"), array("i")
    for out in merged:
        for (steps, nxt), p in sorted(out.items()):
            probs.append(p)
            offsets.append(sum(s * st for s, st in zip(steps, strides)))
            next_lead.append(nxt)
        starts.append(len(probs))
    if answers is not None:         # (the cells they answer not marked again: a second of the solve's first steps)
        unasked = RaceArrays(sides, step, rest, tuple(leads), grid, box, starts, probs, offsets, next_lead, array("i"),
                             array("d"), 0, coarse)
        return replace(unasked, **dict(zip(("answers", "terminals", "asked"), answers(unasked))))
    cells = bytearray(_prod(box))
    asked = sweeps_of(core).reached(len(leads), grid, box, starts, offsets, cells)
    answers, terminals = _ask(variant, grid, box, step, cells, progress)
    return RaceArrays(sides, step, rest, tuple(leads), grid, box, starts, probs, offsets, next_lead, answers,
                      terminals, asked, coarse)


class PySweeps:
    """The pure-Python twin of ``_race`` (the same calls, the same arrays, the same order of work).

    Its methods take the race's arrays one by one, not a :class:`RaceArrays`: they are the C module's calls,
    argument for argument (:func:`sweeps_of` hands either to :func:`solve_race`), and the hot loops of the
    race's solver, where each array is a local (issue 69 leaves ``sweep``, ``_update``, ``back`` and ``close``
    over six parameters on purpose)."""

    @staticmethod
    def _bases(grid: tuple, box: tuple) -> list[int]:
        strides = [_prod(box[k + 1:]) for k in range(len(box))]
        return [sum(c * st for c, st in zip(coords, strides)) for coords in product(*(range(g) for g in grid))]

    @classmethod
    def sweep(cls, sides, leads, grid, box, starts, probs, offsets, next_lead, answers, terminals, active, values,
              tol, max_sweeps):
        base = cls._bases(grid, box)
        change, done = 0.0, 0
        for done in range(1, max_sweeps + 1):
            change = 0.0
            for g in range(len(base) - 1, -1, -1):
                for lead in range(leads - 1, -1, -1):
                    p = g * leads + lead
                    if active[p]:
                        change = max(change, cls._update(p, base[g], lead, sides, leads, starts, probs, offsets,
                                                         next_lead, answers, terminals, values))
            if change < tol:
                break
        return done, change

    @staticmethod
    def _update(p, b, lead, sides, leads, starts, probs, offsets, next_lead, answers, terminals, values) -> float:
        acc, stay = [0.0] * sides, 0.0
        for r in range(starts[lead], starts[lead + 1]):
            a = answers[b + offsets[r]]
            if a < 0:
                at = (-1 - a) * sides
                w = terminals[at:at + sides]
            else:
                q = a * leads + next_lead[r]
                if q == p:
                    stay += probs[r]
                    continue
                w = values[q * sides:(q + 1) * sides]
            for s in range(sides):
                acc[s] += probs[r] * w[s]
        new = [x / (1.0 - stay) for x in acc] if stay < 1.0 else [1.0 / sides] * sides
        change = max(abs(x - values[p * sides + s]) for s, x in enumerate(new))
        values[p * sides:(p + 1) * sides] = array("d", new)
        return change

    @classmethod
    def back(cls, leads, grid, box, starts, offsets, next_lead, answers, active, loops):
        marked = outside = 0
        for c, totals in enumerate(product(*(range(b) for b in box))):
            a = answers[c]
            if a < 0:
                continue
            outside += not active[a * leads]
            own = _point(totals, grid, 1)
            for q in range(a * leads, (a + 1) * leads) if a != own else ():
                marked += not loops[q]
                loops[q] = 1
        for lead in range(leads):
            for r in range(starts[lead], starts[lead + 1]):
                if offsets[r] == 0 and next_lead[r] < lead:
                    for q in range(next_lead[r], len(active), leads):
                        if active[q] and not loops[q]:
                            loops[q] = 1
                            marked += 1
        return marked, outside

    @classmethod
    def live(cls, leads, grid, box, answers, active):
        marked = 0
        for g, b in enumerate(cls._bases(grid, box)):
            if answers[b] == g:         # a running score the match can be at
                active[g * leads:(g + 1) * leads] = b"\x01" * leads
                marked += leads
        return marked

    @classmethod
    def reached(cls, leads, grid, box, starts, offsets, cells):
        for b in cls._bases(grid, box):
            cells[b] = 1
            for r in range(starts[leads]):
                cells[b + offsets[r]] = 1
        return sum(cells)

    @classmethod
    def close(cls, leads, grid, box, starts, offsets, next_lead, answers, active):
        base = cls._bases(grid, box)
        queue = [p for p in range(len(active)) if active[p]]
        marked = 0
        while queue:
            p = queue.pop()
            lead = p % leads
            for r in range(starts[lead], starts[lead + 1]):
                a = answers[base[p // leads] + offsets[r]]
                if a >= 0 and not active[a * leads + next_lead[r]]:
                    active[a * leads + next_lead[r]] = 1
                    queue.append(a * leads + next_lead[r])
                    marked += 1
        return marked


def sweeps_of(core: str | None = None):
    """The loop ``core`` names (``"compiled"``, ``"python"``; None: :data:`RACE_CORE`)."""
    core = core or RACE_CORE
    if core == "compiled":
        if _race is None:
            raise ValueError("the compiled race solver was not built (no C compiler at install time)")
        return _race
    if core != "python":
        raise ValueError(f"unknown race core {core!r}: 'compiled' or 'python'")
    return PySweeps


@dataclass(frozen=True)
class KeptResults:
    """A known leader's results (:func:`led_results`) as a kept file holds them (:meth:`RaceValues.led`): each
    one's score steps (``sides`` numbers a result), its next lead's index and its probability, in arrays the
    compiled ``_race.one_hand`` reads in place; iterated, the tuples :func:`led_results` gives."""

    steps: memoryview
    next_lead: memoryview
    probs: memoryview
    sides: int

    def __len__(self) -> int:
        return len(self.next_lead)

    def __iter__(self) -> Iterator[tuple[tuple, int, float]]:
        n, steps = self.sides, self.steps
        for i, (nxt, p) in enumerate(zip(self.next_lead, self.probs)):
            yield tuple(steps[i * n:(i + 1) * n]), nxt, p


class RaceValues(Mapping):
    """Every player's MWC at each solved position of a race, ``{(state_key, lead): chances}`` as
    ``EquityTable.values`` holds them (dense arrays, as solved or mapped from a kept file: :func:`load_values`;
    ``update`` adds positions solved later)."""

    def __init__(self, arrays: RaceArrays, active: bytearray | memoryview, values: array | memoryview,
                 count: int | None = None, led: dict | None = None):
        self.arrays, self._active, self._values = arrays, active, values
        self._count = sum(active) if count is None else count
        self._extra: dict = {}
        self._led = led or {}       # lead -> (steps, next leads, probabilities): :func:`led_results`' as kept
        self.lead_index = {lead: i for i, lead in enumerate(arrays.leads)}
        self.extra_on_leads = False     # a position of the race's own leads among ``update``'s (``after_hand`` asks)

    def led(self, lead: tuple) -> KeptResults | None:
        """:func:`led_results` of ``lead`` as the kept file holds them (:func:`dump_values`), None where it does
        not (solved in this process, a file without them, a lead whose results do not serve)."""
        got = self._led.get(lead)
        return None if got is None else KeptResults(*got, self.arrays.sides)

    def _index(self, pos) -> int | None:
        try:
            key, lead = pos
            if tuple(key[1:]) != self.arrays.rest or lead not in self.arrays.leads:
                return None
            g = self.arrays.point(tuple(key[0]))
        except (TypeError, ValueError):
            return None
        if g is None:
            return None
        p = g * len(self.arrays.leads) + self.arrays.leads.index(lead)
        return p if self._active[p] else None

    def get(self, pos, default=None):
        p = self._index(pos)
        if p is None:
            if self.arrays.coarse and pos not in self._extra:
                return self._between(pos, default)
            return self._extra.get(pos, default)
        n = self.arrays.sides
        return tuple(self._values[p * n:(p + 1) * n])

    def _between(self, pos, default):
        """On a coarser lattice: the chances at running scores between its points, each player's score split
        between the two neighbouring points (the mean kept), the corners weighed (a corner where the match
        is over: the match code's answer there)."""
        a = self.arrays
        try:
            key, lead = pos
            if tuple(key[1:]) != a.rest or lead not in a.leads:
                return default
            if _race is not None and RACE_CORE == "compiled":      # (the same sums in C: 0 + 1 * each corner's)
                scores = array("i", key[0])
                if len(scores) != a.sides or min(scores) < 0:
                    return default
                got = _race.between(a.answers, a.terminals, self._active, self._values, a.grid, a.box, a.step,
                                    len(a.leads), scores, array("i", [a.leads.index(lead)]), _ONE,
                                    array("d", bytes(8 * a.sides)))
                return default if got is None else got
            splits = [_split(x, a.step, True) for x in key[0]]
        except (TypeError, ValueError, OverflowError):
            return default
        out = [0.0] * a.sides
        for steps, w in _corners(splits):
            g = _point(tuple(x * a.step for x in steps), a.grid, a.step)
            if g is None:
                return default
            p = g * len(a.leads) + a.leads.index(lead)
            answer = a.answers[a.cell(g)]
            if self._active[p]:
                chances = self._values[p * a.sides:(p + 1) * a.sides]
            elif answer < 0 and answer != UNASKED:
                chances = a.terminals[(-1 - answer) * a.sides:(-answer) * a.sides]
            else:
                return default
            for k in range(a.sides):
                out[k] += w * chances[k]
        return tuple(out)

    def __getitem__(self, pos):
        v = self.get(pos)
        if v is None:
            raise KeyError(pos)
        return v

    def __contains__(self, pos: object) -> bool:
        return self.get(pos) is not None

    def __len__(self) -> int:
        return self._count + len(self._extra)

    def __iter__(self) -> Iterator[tuple]:
        leads = self.arrays.leads
        for p, on in enumerate(self._active):
            if on:
                yield (self.arrays.scores(p // len(leads)), *self.arrays.rest), leads[p % len(leads)]
        yield from self._extra

    def update(self, extra: dict) -> None:
        self._extra.update(extra)
        leads = self.arrays.leads
        self.extra_on_leads = self.extra_on_leads or any(lead in leads for _, lead in extra)

    @property
    def compiled_between(self) -> bool:
        """Whether :meth:`after_added` serves: a coarser lattice, weighed by the compiled race core."""
        return self.arrays.coarse and _race is not None and RACE_CORE == "compiled"

    def after_added(self, scores: tuple, added: array, next_lead: array, probs: array, fixed: array) -> tuple | None:
        """:meth:`after_hand`'s sums from the running ``scores``, each result given by what it adds to them
        (``added``, ``sides`` numbers a result; a first number -1: the result's chances are ``fixed``'s, a finished
        match's or the position it goes on at looked up), led next by ``next_lead`` (an index of the race's leads), of
        chance ``probs``: the same sums in the same order, in C (:attr:`compiled_between`), without a position's
        rows made one by one (``EquityTable._between_added``). None where that does not serve (:meth:`after_hand`)."""
        a = self.arrays
        return _race.between(a.answers, a.terminals, self._active, self._values, tuple(a.grid), tuple(a.box), a.step,
                             len(a.leads), added, next_lead, probs, fixed, tuple(scores))

    def one_hand(self, pos, results: list[tuple[tuple, int, float]] | KeptResults) -> tuple | None:
        """Every player's chance at ``pos`` (``(state_key, lead)``, a lead that is none of the race's: a
        recorded hand's known leader where the race leads every hand ``("any",)``), one hand from the race's
        positions: ``results`` (:func:`led_results`) weighed by the chances where each leaves the match, as
        the match code answered when the race was solved (a finished match's, or the position's). None where
        that does not serve (a lattice, a position off the grid, a result's totals the match code was never
        asked about)."""
        a = self.arrays
        try:
            key, _ = pos
            if a.coarse or tuple(key[1:]) != a.rest:
                return None
            g = a.point(tuple(key[0]))
        except (TypeError, ValueError):
            return None
        if g is None:
            return None
        base, n, leads = a.cell(g), a.sides, len(a.leads)
        strides = [_prod(a.box[k + 1:]) for k in range(n)]
        coords = [x // a.step for x in a.scores(g)]
        if type(results) is KeptResults and _race is not None and RACE_CORE == "compiled":   # (the same sums in C)
            return _race.one_hand(a.answers, a.terminals, self._active, self._values, tuple(a.box), tuple(coords),
                                  base, leads, results.steps, results.next_lead, results.probs)
        out = [0.0] * n
        for steps, nxt, p in results:
            if any(x + y >= b for x, y, b in zip(coords, steps, a.box)):
                return None
            c = base + sum(x * st for x, st in zip(steps, strides))
            answer = a.answers[c]
            if answer == UNASKED:
                return None
            if answer < 0:
                chances = a.terminals[(-1 - answer) * n:-answer * n]
            else:
                q = answer * leads + nxt
                if not self._active[q]:
                    return None
                chances = self._values[q * n:(q + 1) * n]
            for k in range(n):
                out[k] += p * chances[k]
        return tuple(out)

    def after_hand(self, rows: list[tuple[float, tuple | None, tuple | None]]) -> tuple | None:
        """Every player's chance one hand from a position of a coarser lattice at real running scores (a recorded
        hand's known leader where the race leads every hand ``("any",)``): ``rows`` are its results as the walk
        (``table.solve_each``) reads them, ``(p, over, nxt)`` (``table.hand_rows``): the finished match's chances,
        or else the position ``(state_key, lead)`` the match goes on at, whose chances :meth:`get` gives (between
        the lattice's points, weighed from the corners around it); each weighed by ``p`` and added up in order: the
        walk's sums, without the walk (the compiled race core's ``_race.between``, the same sums in the same
        order). None where that does not serve (no lattice; a position :meth:`get` has not, or one a walk solved:
        the walk decides)."""
        a = self.arrays
        if not a.coarse:
            return None
        n, compiled = a.sides, _race is not None and RACE_CORE == "compiled"
        scores, next_lead, fixed = array("i"), array("i"), array("d")
        rest, extra, index = a.rest, self._extra, {lead: i for i, lead in enumerate(a.leads)}
        out, zero, none = (0.0,) * n, (0.0,) * n, (-1,) * n
        for p, over, nxt in rows:
            if over is None:
                key, lead = nxt
                at = index.get(lead)
                if at is None or tuple(key[1:]) != rest or (extra and nxt in extra) or min(key[0]) < 0:
                    return None
                if compiled:
                    scores.extend(key[0])
                    next_lead.append(at)
                    fixed.extend(zero)
                    continue
                over = self.get(nxt)
                if over is None:
                    return None
            if compiled:
                scores.extend(none)
                next_lead.append(0)
                fixed.extend(over)
            else:
                out = tuple(c + p * v for c, v in zip(out, over))      # (as the walk adds them up)
        if compiled:
            return _race.between(a.answers, a.terminals, self._active, self._values, tuple(a.grid), tuple(a.box),
                                 a.step, len(a.leads), scores, next_lead, array("d", [p for p, _, _ in rows]), fixed)
        return out


def led_results(variant: Variant, model: HandModel, arrays: RaceArrays, lead: tuple) -> list[tuple[tuple, int, float]]:
    """The results of a hand led by ``lead`` (a known side) in ``arrays``' race, as :meth:`RaceValues.one_hand`
    weighs them: each one's score steps, its next lead's index among the race's leads, its probability (merged
    as the race's own). Raises ``ValueError`` where a result leads to a lead the race has not."""
    leads = list(arrays.leads)
    out = _lead_results(variant, model, lead, arrays.step, arrays.coarse, leads)
    if len(leads) != len(arrays.leads):
        raise ValueError(f"{variant.name}: a hand led by {lead} leads to {leads[len(arrays.leads):]}, not the race's")
    return [(steps, nxt, p) for (steps, nxt), p in sorted(out.items())]


@dataclass(frozen=True)
class RaceLoop:
    """How a race's equations are swept: by the ``core`` loop (``"compiled"`` or ``"python"``; None:
    :data:`RACE_CORE`) until no chance changes by ``tol`` or more in a sweep (the values are the same either
    way, to that tolerance)."""

    core: str | None = None
    tol: float = 1e-12


def solve_race(variant: Variant, model: HandModel, arrays: RaceArrays | None = None, roots: list | None = None,
               how: RaceLoop = RaceLoop(), progress: Callable[[str], None] | None = None) -> RaceValues:
    """Every player's MWC at every live position of ``variant``'s race (see the module's docstring), or only
    at those ``roots`` lead to (``(state_key, lead)`` pairs: the positions ``table.solve_each`` walks from
    them), swept ``how`` says. ``arrays``: the race's arrays made before (:func:`race_arrays`, which takes a
    coarser score step, a ``lattice``: a reduced state, the chances between its points weighed from the
    neighbouring ones); by default made here, on the race's own step."""
    loop = sweeps_of(how.core)
    tol = how.tol
    a = arrays or race_arrays(variant, model, progress, how.core)
    leads = len(a.leads)
    active = bytearray(_prod(a.grid) * leads)
    if roots is None:
        loop.live(leads, a.grid, a.box, a.answers, active)
    else:
        for key, lead in roots:
            g = a.point(tuple(key[0]))
            if g is None or tuple(key[1:]) != a.rest or lead not in a.leads:
                raise ValueError(f"{variant.name}: the position {key} led by {lead} is not on the race's grid")
            active[g * leads + a.leads.index(lead)] = 1
        loop.close(leads, a.grid, a.box, a.starts, a.offsets, a.next_lead, a.answers, active)
    # the positions a hand may take the match to from one numbered above them (ties past the target shifted
    # back) and all they lead to: a part closed on itself, solved first by sweeps until it settles; then one
    # sweep from the top is exact for every other position (all it leads to is solved before it)
    loops = bytearray(len(active))
    _, outside = loop.back(leads, a.grid, a.box, a.starts, a.offsets, a.next_lead, a.answers, active, loops)
    if outside:             # (the live points lead only to live points: nothing to add where the match code agrees)
        loop.close(leads, a.grid, a.box, a.starts, a.offsets, a.next_lead, a.answers, active)
        loop.back(leads, a.grid, a.box, a.starts, a.offsets, a.next_lead, a.answers, active, loops)
    loop.close(leads, a.grid, a.box, a.starts, a.offsets, a.next_lead, a.answers, loops)
    values = array("d", [1.0 / a.sides]) * (len(active) * a.sides)
    if progress is not None:
        progress(gettext("solving {positions} positions ({results} results, {answers} answers of the match code; "
                         "{first} of them solved first)", positions=number(sum(active)), results=number(len(a.probs)),
                         answers=number(a.asked), first=number(sum(loops))))
    if any(loops):
        loop.sweep(a.sides, leads, a.grid, a.box, a.starts, a.probs, a.offsets, a.next_lead, a.answers, a.terminals,
                   loops, values, tol, 100_000)
    loop.sweep(a.sides, leads, a.grid, a.box, a.starts, a.probs, a.offsets, a.next_lead, a.answers, a.terminals,
               active, values, tol, 1)
    return RaceValues(a, active, values)


_KEPT = b"DOMINO-RACE 2\n"
_ALIGN = 8


def side_leads_results(variant: Variant, model: HandModel, arrays: RaceArrays) -> dict:
    """:func:`led_results` of each side's lead that is none of the race's (a recorded hand's known leader where
    the race leads every hand ``("any",)``, ``EquityTable._one_hand``), for :func:`dump_values` to keep; a lead
    whose results do not serve (a lattice, a lead mode the model has not, a result off the race) left out."""
    out = {}
    if arrays.coarse:
        return out
    for side in range(arrays.sides):
        lead = ("side", side)
        if lead in arrays.leads:
            continue
        try:
            out[lead] = led_results(variant, model, arrays, lead)
        except (ValueError, KeyError):
            continue
    return out


def dump_values(values: RaceValues, led: dict | None = None) -> bytes:
    """A solved race's values as bytes (a process's cache of a table solved when loaded, on this machine:
    native byte order): what a look-up reads (the positions solved, their chances, and for a lattice the
    match code's answers and the finished matches' chances it weighs with), not the equations. Each array is
    written as it lies in memory, at a multiple of 8 bytes, so that :func:`load_values` reads it in place
    from a mapped file (tens of megabytes unpacked at each start took a quarter to a third of a second).
    ``led``: :func:`side_leads_results`, kept too (each a process's few tens of milliseconds at its first
    recorded leader): :meth:`RaceValues.led` gives them back."""
    a = values.arrays
    parts = {"active": array("B", bytes(values._active)), "values": values._values, "answers": a.answers,
             "terminals": a.terminals}
    kept_led, start = [], 0
    if led:
        rows = [row for results in led.values() for row in results]
        parts.update(led_steps=array("i", [x for steps, _, _ in rows for x in steps]),
                     led_next=array("i", [nxt for _, nxt, _ in rows]), led_p=array("d", [p for _, _, p in rows]))
        for lead, results in led.items():
            kept_led.append([list(lead), start, len(results)])
            start += len(results)
    arrays, body, at = {}, [], 0
    for name, part in parts.items():
        raw = part.tobytes()
        arrays[name] = [part.typecode, len(part), at]
        pad = -len(raw) % _ALIGN
        body += [raw, bytes(pad)]
        at += len(raw) + pad
    header = {"sides": a.sides, "step": a.step, "rest": list(a.rest), "leads": [list(x) for x in a.leads],
              "grid": list(a.grid), "box": list(a.box), "asked": a.asked, "coarse": a.coarse, "count": len(values),
              "size": at, "order": sys.byteorder, "arrays": arrays, **({"led": kept_led} if kept_led else {})}
    head = _KEPT + json.dumps(header).encode()
    head += b" " * (-(len(head) + 1) % _ALIGN) + b"\n"
    return head + b"".join(body)


def load_values(raw) -> RaceValues:
    """The values :func:`dump_values` wrote, read in place from ``raw`` (bytes, or a mapped file: its pages are
    read as the look-ups need them). Raises ``ValueError`` for bytes that are not such values (cut short,
    written on a machine of another byte order or word size)."""
    head = bytes(raw[:len(_KEPT)])
    if head != _KEPT:
        raise ValueError("not a solved race's values")
    view = memoryview(raw)
    end = bytes(raw[:1 << 16]).find(b"\n", len(_KEPT))
    try:
        if end < 0:
            raise ValueError("no header")
        h = json.loads(bytes(view[len(_KEPT):end]))
        body = view[end + 1:]
        if len(body) != h["size"] or (end + 1) % _ALIGN:
            raise ValueError("cut short")
        if h["order"] != sys.byteorder:
            raise ValueError(f"written in {h['order']}-endian order")
        parts = {}
        for name, (code, count, at) in h["arrays"].items():
            size = array(code).itemsize * count
            parts[name] = body[at:at + size].cast(code)
        led, n = {}, h["sides"]
        for lead, start, count in h.get("led", []):
            led[tuple(lead)] = (parts["led_steps"][start * n:(start + count) * n],
                                parts["led_next"][start:start + count], parts["led_p"][start:start + count])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"damaged: {exc}") from None
    rest = tuple(tuple(x) if isinstance(x, list) else x for x in h["rest"])
    arrays = RaceArrays(h["sides"], h["step"], rest, tuple(tuple(x) for x in h["leads"]), tuple(h["grid"]),
                        tuple(h["box"]), array("q"), array("d"), array("q"), array("i"), parts["answers"],
                        parts["terminals"], h["asked"], h["coarse"])
    return RaceValues(arrays, parts["active"], parts["values"], h["count"], led)
