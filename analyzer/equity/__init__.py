"""Match-winning chance (MWC): the chance that a side wins the match from a match position.

``model`` measures a variant's hand-result model from simulated hands (best play with all hands
open); ``table`` solves the match by dynamic programming over match states. A table per variant and
rules is computed by ``domino equity --variant NAME --rule target=N`` and shipped for the defaults
(``analyzer/equity/data/``), with the model it rests on, its sample sizes and standard errors, so
that grading needs no simulation.

    >>> from analyzer.equity import mwc, MatchPosition
    >>> from analyzer.rules import find_variant
    >>> v = find_variant("partnership")
    >>> round(mwc(v, MatchPosition(v.match.start(2), ("side", 0))), 3)      # side 0 to lead at 0-0
    0.535
"""
from __future__ import annotations

import hashlib
import logging
import mmap
import json
import os
import time
from array import array
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from ..i18n import ngettext
from ..outputs import clear_damaged, write_atomic
from ..rules import HandResult, MatchScoring, MatchState, Variant, find_variant
from ..rules.variants import find_family
from ..userdirs import CACHE_ENV, cache_folder
from ..rules.modes import LeadNext, LeadTie, MatchKind
from .model import (POLICY, POLICY_EACH, HandModel, HandPlayers, ModeSample, Outcome, lead_token, mode_of,
                    policy_of, simulate_mode)
from .race import (RACE_CORE, RaceValues, dump_values, is_race, led_results, load_values, race_arrays,
                   side_leads_results, solve_race)
from .shipped import SUFFIX, solve_shipped
from .store import PackedValues, pack, unpack
from .kozel import KozelValues, is_kozel, kozel_table_values
from .table import (PENDING_CAP, added_rows, each_step, endless, first_game_roots, first_lead, hand_rows, key_state,
                    known_leader_roots, resolve, rows_reaching, score_grid_roots, score_step, solve, solve_each,
                    state_key, terminal_each)

__all__ = ["MatchPosition", "EquityTable", "mwc", "load_table", "open_model_table", "write_table", "compute_table", "table_name", "DATA_DIR",
           "TABLES_ENV", "CACHE_ENV", "simulation_seconds", "cache_folder", "table_problem", "MAX_SCORES", "MAX_RACE", "lattice", "RACE_CORE", "SOLVED_ON_LOAD", "score_step", "HandModel", "ModeSample", "bootstrap", "Outcome", "POLICY", "POLICY_EACH", "first_lead", "lead_token", "supported",
           "resolve"]

DATA_DIR = os.path.join(os.path.dirname(__file__), "data")
FORMAT = 1

#: Tells of a long wait (a race's table solved on its first use: :func:`_solved_on_load`) as INFO records; the
#: library prints nothing, the command line shows them on standard error.
_log = logging.getLogger(__name__)


#: The most results :meth:`EquityTable.after_each` keeps the chances after (then it starts again).
AFTER_KEPT = 1 << 16


@dataclass(frozen=True)
class MatchPosition:
    """A match before a hand: the running score (``MatchState``) and who leads the hand (a lead token:
    ``("side", s)``, ``("holder", "[6-6]", forced)``, ``("any",)``)."""

    state: MatchState
    lead: tuple


#: The most running scores (each player's, below the target) a match of individual players to a target may
#: have for the MWC's dynamic programming walk (``table.solve_each``: it visits every one, each with
#: thousands of hand results), where the race solver does not take the match.
MAX_SCORES = 10_000
#: The most grid points (every player's running score, 0 to the target in the score step) a race of
#: individual players may have for the race solver (``race.py``: dense arrays of every player's chance at
#: each, some 24 bytes a point and player at its peak, and the match code asked once per new totals).
MAX_RACE = 1_100_000


def lattice(variant: Variant) -> int | None:
    """The coarser score step a race of individual players is solved on when its running scores are more
    than :data:`MAX_RACE` (French and Hungarian for four: 10^8): the smallest multiple of its step that
    brings them within :data:`MAX_RACE` (4: 26^4 = 456,976 lattice points to 100, 27^4 to 101; a lattice
    reaches the first point at or past the target), each hand's points split
    between the neighbouring lattice points so that the mean is kept (a reduced state, see docs/equity.md);
    None: the race is solved on its own step (or is no race)."""
    if not is_race(variant):
        return None
    step, sides, target = score_step(variant), variant.seating.sides, variant.match.target
    if (target // step + 1) ** sides <= MAX_RACE:
        return None
    coarse = step
    while (-(-target // coarse) + 1) ** sides > MAX_RACE:
        coarse += step
    return coarse


def supported(variant: Variant) -> str | None:
    """Why no MWC table can be made for ``variant`` (None: it can). Individual players (Cut Throat, Chiva
    for three, All Fives for three) are a side each; a match of individual players to a target in points
    or bad points keeps every player's score: a race (``race.is_race``) is covered by the race solver,
    up to :data:`MAX_RACE` grid points on its own score step (Hungarian for three, All Fives for four, All
    Fives and Threes for three, the draw game for three to 100) and beyond on a coarser lattice
    (:func:`lattice`: French and Hungarian for four, the draw game for four), any other match up to
    :data:`MAX_SCORES` running scores (the walk)."""
    sides = variant.seating.sides
    target = variant.match.target
    if type(variant.match).apply is not MatchScoring.apply and not is_kozel(variant):
        return (f"{variant.name}'s match keeps more than the scores, which the MWC's dynamic programming does not "
                "model")
    if sides != 2 and variant.match.kind in (MatchKind.BAD, MatchKind.POINTS) and target and not is_race(variant):
        count = (-(-target // score_step(variant))) ** sides
        if count > MAX_SCORES:
            return (f"{variant.name} is played by {sides} individual players to {target} "
                    f"{'bad points' if variant.match.kind == MatchKind.BAD else 'points'}: the match "
                    f"states (every player's score, some {count:,}) are too many for the MWC's dynamic programming "
                    f"(at most {MAX_SCORES:,})")
    if not target:
        return f"{variant.name} ({variant.rules_text or 'defaults'}) has no match target"
    return None


def table_name(variant: Variant) -> str:
    """The data file's name for ``variant`` and its options, but those at their default value (so that
    ``cutthroat`` with ``players=4`` written out finds the default table, ``cutthroat``)."""
    got = _NAMES.get(id(variant))
    if got is not None and got[0] is variant:
        return got[1]
    family, _ = find_family(variant.name)
    opts = "".join(f"_{k}={v}" for k, v in sorted(variant.options) if v != family.spec(k).default)
    name = f"{variant.name}{opts}.json"
    if len(_NAMES) >= 256:
        _NAMES.clear()
    _NAMES[id(variant)] = (variant, name)
    return name


# each variant's table name, by the variant's identity (a variant is made once a name and options, ``find_variant``;
# the match scale asks for a record's table several times a hand): id -> (the variant, kept so the id stays its, name)
_NAMES: dict[int, tuple[Variant, str]] = {}
_SLOW = object()        # (``EquityTable._between_added``: the rows made one by one instead)


@dataclass
class EquityTable:
    """A solved match: side 0's MWC at every reachable position (individual players: each player's, a
    tuple), and the model it rests on. ``values`` maps ``(state_key, lead)`` to the chance: a dict, or for
    a table read from its compact form a ``store.PackedValues`` that reads its positions when looked up."""

    variant: Variant
    model: HandModel
    values: dict | PackedValues
    meta: dict
    _memo: dict = field(default_factory=dict, repr=False, compare=False)    # (the look-ups off the walk: ``solve``)

    def __post_init__(self):
        if is_kozel(self.variant) and not isinstance(self.values, KozelValues):   # (Kozel's own DP: ``kozel.py``)
            self.values = KozelValues(self.variant, self.model, self.values)

    @property
    def individual(self) -> bool:
        """A table of more than two sides (individual players): each position holds every side's chance."""
        return self.variant.seating.sides != 2

    def chance(self, position: MatchPosition) -> float:
        """Side 0's MWC at ``position`` (1 or 0 at a match won or lost, 1/2 at a drawn one)."""
        if self.individual:
            return self.chances(position)[0]
        s = position.state
        if s.over:
            return 0.5 if s.drawn or s.winner is None else float(s.winner == 0)
        return self._value(position)

    def chances(self, position: MatchPosition) -> tuple[float, ...]:
        """Every side's MWC at ``position``, side 0 first (they add up to 1)."""
        if not self.individual:
            p = self.chance(position)
            return (p, 1.0 - p)
        if position.state.over:
            return terminal_each(position.state)
        if endless(self.variant, position.state):      # no hand can end it (Chiva for three): drawn
            return (1.0 / len(position.state.scores),) * len(position.state.scores)
        return self._value(position)

    def _value(self, position: MatchPosition):
        if isinstance(self.values, KozelValues):        # (records, fences and eggs: ``kozel.py``)
            return self.values.chance(position.state, position.lead)
        key = (state_key(self.variant, position.state), position.lead)
        v = self.values.get(key)
        if v is None and isinstance(self.values, RaceValues):
            v = self._one_hand(key)
        if v is None:                 # off the walk from the start: solve from there, on the shipped values
            solver = solve_each if self.individual else solve
            extra = solver(self.variant, self.model, [key], known=self.values, memo=self._memo)
            self.values.update(extra)
            v = extra[key]
        return v

    def _one_hand(self, key: tuple):
        """A race's position whose leader is known where the race leads every hand ``("any",)`` (a recorded
        hand names its leader): one hand from the race's positions (``RaceValues.one_hand``), not a walk of its
        own (thousands of results, each asked of the match code again: 0.1 s in All Fives for four); on a coarser
        lattice the hand's results weighed from the lattice's corners as the walk weighs them (its sums without
        the walk: some 35 ms a look-up in French and Hungarian for four). None where that does not serve; the
        value is kept."""
        lead = key[1]
        if lead in self.values.arrays.leads or lead[0] != "side":
            return None
        if self.values.arrays.coarse:
            v = self._between_lattice(key)
        else:
            v = self._on_grid(key, lead)
        if v is not None:
            self.values.update({key: v})
        return v

    def _between_lattice(self, key: tuple):
        """On a coarser lattice: the hand's results as the walk reads them (``table.hand_rows``, the match code
        asked once per distinct new totals), weighed by ``RaceValues.after_hand`` (the walk's sums, its 16
        corners a result for four players in C): the walk's answer. None where that does not serve."""
        fast = self._between_added(key)
        if fast is not _SLOW:
            return fast
        try:
            rows = hand_rows(self.variant, self.model, key, self._memo)
        except (ValueError, KeyError):          # (a lead mode the model has not: the walk says so)
            return None
        if any(nxt == key for _, _, nxt in rows):       # (a hand that may leave it where it is: the walk's sweeps)
            return None
        return self.values.after_hand(rows)

    def _between_added(self, key: tuple):
        """:meth:`_between_lattice` in a race of points or bad points (``MatchScoring.open_below``) without the match
        code asked about every result: only about those that take a score to the target (near a match's end), and
        one result of each group that leads next alike (``table.AddedRows``), whose answer must be that the match
        goes on at the scores it adds, led next as the group's others are; the rest go on so, weighed in C from the
        scores they add (``RaceValues.after_added``): the same sums in the same order as :meth:`_between_lattice`'s
        rows. ``_SLOW`` where that does not serve (its rows then made one by one)."""
        variant, values = self.variant, self.values
        bound = variant.match.open_below()
        if bound is None or not values.compiled_between or values.extra_on_leads:
            return _SLOW
        try:
            rows = added_rows(variant, self.model, key[1], self._memo)
        except (ValueError, KeyError):
            return _SLOW
        (scores, *rest), n = key[0], variant.seating.sides
        if rows is None or tuple(rest) != values.arrays.rest or min(scores) < 0:
            return _SLOW
        step, state, index = each_step(variant, self._memo), key_state(variant, key[0]), values.lead_index
        added, fixed = array("i", rows.added), array("d", bytes(8 * n * len(rows.rows)))
        reached = rows_reaching(rows, scores, bound)
        for r in reached:           # (the match code's answer: a finished match, or where it goes on, looked up)
            _, side, o = rows.rows[r]
            over, nxt = step(state, side, o)
            if over is None:
                if (nxt == key or index.get(nxt[1]) is None or tuple(nxt[0][1:]) != values.arrays.rest
                        or min(nxt[0][0]) < 0):
                    return None
                over = values.get(nxt)
                if over is None:
                    return None
            added[r * n] = -1
            fixed[r * n:(r + 1) * n] = array("d", over)
        leads, taken = [], set(reached)
        for members in rows.members:        # (one result of each group asked: it must go on at the scores it adds)
            r = next((r for r in members if r not in taken), None)
            if r is None:
                leads.append(0)
                continue
            _, side, o = rows.rows[r]
            over, nxt = step(state, side, o)
            moved = tuple(x + rows.added[r * n + k] for k, x in enumerate(scores))
            if over is not None or nxt[0] != (moved, *rest) or nxt[1] not in index:
                return _SLOW
            leads.append(index[nxt[1]])
        return values.after_added(scores, added, rows.next_leads(tuple(leads)), rows.probs, fixed)

    def _on_grid(self, key: tuple, lead: tuple):
        """On the race's grid: the lead's results (kept with the race, else :func:`race.led_results`) weighed by
        ``RaceValues.one_hand``."""
        results = self._memo.setdefault("led", {})
        if lead not in results:
            got = self.values.led(lead)         # (as the kept file holds them, where it does)
            if got is None:
                try:
                    got = led_results(self.variant, self.model, self.values.arrays, lead)
                except (ValueError, KeyError):          # (a lead mode the model has not; a result off the race)
                    got = None
            results[lead] = got
        return None if results[lead] is None else self.values.one_hand(key, results[lead])

    def after(self, position: MatchPosition, result: HandResult, leader: int) -> float:
        """Side 0's MWC once the hand led by seat ``leader`` ends with ``result``."""
        return self.chance(self.next_position(position, result, leader))

    def after_each(self, position: MatchPosition, result: HandResult, leader: int) -> tuple[float, ...]:
        """Every side's MWC once the hand led by seat ``leader`` ends with ``result`` (kept: the alternatives of
        a hand often end it alike)."""
        kept = self._memo.setdefault("after", {})
        key = (position, result, leader)
        got = kept.get(key)
        if got is None:
            if len(kept) >= AFTER_KEPT:       # (a process that grades record after record: bounded)
                kept.clear()
            got = kept[key] = self.chances(self.next_position(position, result, leader))
        return got

    def next_position(self, position: MatchPosition, result: HandResult, leader: int) -> MatchPosition:
        """The match position once the hand led by seat ``leader`` ends with ``result`` (the next hand's
        leader as the rules say)."""
        v = self.variant
        state = v.match.apply(position.state, result)
        if state.over:
            return MatchPosition(state, position.lead)
        side = v.seating.teams[leader]
        try:
            req = v.lead.requirement(leader, result, None, v.seating, v.match.lead(state, v.seating))
        except (AttributeError, TypeError):      # a lead rule that weighs the hands left (winner-lowest)
            req = None
        token = lead_token(req, v, leader)
        return MatchPosition(state, resolve(v, token, side, state))

    def as_dict(self) -> dict:
        """Plain data: the positions grouped by everything but the scores, each group a list of scores and
        the MWC at each (6 decimals)."""
        groups: dict = {}
        stored = () if self.meta.get("values") == SOLVED_ON_LOAD else self.values.items()
        for (k, lead), p in sorted(stored, key=lambda kv: repr(kv[0])):
            g = groups.setdefault((k[1:], lead), {"pending": k[1], "playoff": k[2], "last": k[3],
                                                  "wins": None if k[4] is None else list(k[4]), "games": k[5],
                                                  "lead": list(lead), "scores": [], "mwc": []})
            g["scores"].append(list(k[0]))
            g["mwc"].append([round(x, 6) for x in p] if isinstance(p, tuple) else round(p, 6))
        return {"format": FORMAT, **self.meta, "model": self.model.as_dict(), "positions": len(self.values),
                "table": list(groups.values())}

    @classmethod
    def from_dict(cls, variant: Variant, data: dict) -> EquityTable:
        values = {}
        for g in data["table"]:
            rest = (g["pending"], g["playoff"], g["last"], None if g["wins"] is None else tuple(g["wins"]), g["games"])
            lead = tuple(g["lead"])
            for scores, p in zip(g["scores"], g["mwc"]):
                values[((tuple(scores), *rest), lead)] = tuple(p) if isinstance(p, list) else p
        meta = {k: v for k, v in data.items() if k not in ("model", "table", "positions", "format")}
        model = HandModel.from_dict(data["model"])
        source = json.dumps(data["model"], sort_keys=True, default=str).encode()
        return cls(variant, model, _solved_on_load(variant, model, meta, values, source), meta)

    @classmethod
    def from_packed(cls, variant: Variant, raw: bytes, where: str = "table") -> EquityTable:
        """The table of a compact file's bytes (``store``): its positions are read when looked up."""
        header, values = unpack(raw, where)
        meta = {k: v for k, v in header.items() if k not in ("model", "groups", "positions", "format")}
        model = HandModel.from_dict(header["model"])
        source = memoryview(raw)[:len(raw) - sum(g["size"] for g in header["groups"])]     # (all but the blocks)
        return cls(variant, model, _solved_on_load(variant, model, meta, values, source), meta)


def compute_table(variant: Variant, hands: int = 4000, seed: int = 0, players: HandPlayers = HandPlayers(),
                  progress: Callable[[str], None] | None = None,
                  samples: dict[str, ModeSample] | None = None) -> EquityTable:
    """Measure ``variant``'s hand-result model from ``hands`` simulated hands in each lead mode the
    match needs, and solve the match. Raises ``NotImplementedError`` for a variant not covered.
    Individual players (more than two sides) need the ``players``' ``view``, the game as one seat against the
    rest (``analysis.AgainstTheRest``): each mover plays his best move by it (``model.simulate_mode``).
    The ``players``' ``choose``: the hands are played by this policy instead (a block game of two sides; the
    model is named by its ``policy``: ``analysis.fairplay.FairPlayer`` plays by what each player knows).
    ``samples``: lead modes already simulated by the same policy (in other processes), not simulated again."""
    choose = players.choose
    why = supported(variant)
    if why:
        raise NotImplementedError(why)
    started = time.perf_counter()
    sides = variant.seating.sides
    individual = sides != 2
    model = HandModel(variant.name, dict(variant.options), dict(samples or {}),
                      policy_of(variant) if choose is None else choose.policy, seed)
    wanted = [mode_of(first_lead(variant)), "open"]
    while wanted:
        mode = wanted.pop(0)
        if mode in model.modes:
            continue
        if progress:
            progress(ngettext("simulating {n} hand in lead mode {mode}", "simulating {n} hands in lead mode {mode}",
                              hands, mode=mode))
        model.modes[mode] = simulate_mode(variant, mode, hands, seed, players)
        for o in model.modes[mode].outcomes:          # the modes the next hands are led in
            for token in (o.next, o.next[1] if o.next[0] == "match" else o.next):
                if token[0] != "match" and mode_of(token) not in model.modes:
                    wanted.append(mode_of(token))
        if variant.lead.next == LeadNext.MATCH or variant.lead.tie == LeadTie.MATCH:
            start = variant.match.start(sides)
            for state in (start, MatchState((0,) * sides, (0,) * sides, 1)):
                req = variant.match.lead(state, variant.seating)
                if req is not None and mode_of(lead_token(req, variant, 0)) not in model.modes:
                    wanted.append(mode_of(lead_token(req, variant, 0)))
    simulated = time.perf_counter() - started
    while True:
        try:
            if is_kozel(variant):
                values = kozel_table_values(variant, model, progress)
            elif is_race(variant):
                values = solve_race(variant, model, race_arrays(variant, model, progress, lattice=lattice(variant)),
                                    progress=progress)
            else:
                roots = [(state_key(variant, variant.match.start(sides)), first_lead(variant))]
                solver = solve_each if individual else solve
                values = solver(variant, model, roots + first_game_roots(variant, model), progress=progress)
                led = [r for r in known_leader_roots(variant, list(values)) if r not in values]
                led += score_grid_roots(variant, list(values) + led)
                if led:             # (each one hand from the walk's positions, or a walk of a few)
                    values.update(solver(variant, model, led, known=values, progress=progress))
            break
        except KeyError as exc:         # a lead mode the walk found that no hand was simulated in
            mode = str(exc).rsplit(" ", 1)[-1].strip("'\"")
            model.modes[mode] = simulate_mode(variant, mode, hands, seed, players)
    meta = {"variant": variant.name, "rules": dict(variant.options), "target": variant.match.target,
            "kind": variant.match.kind, "hands_per_mode": hands, "pending_cap": PENDING_CAP,
            "seconds": {"simulation": round(simulated, 1), "dp": round(time.perf_counter() - started - simulated, 1)},
            "standard_error": _errors(model)}
    if isinstance(values, RaceValues):
        meta["solver"] = {"name": "race", "core": RACE_CORE, "match_code_answers": values.arrays.asked}
        if values.arrays.coarse:
            meta["lattice"] = values.arrays.step
        meta["values"] = SOLVED_ON_LOAD
    return EquityTable(variant, model, values, meta)


def simulation_seconds(variant: Variant, hands: int = 4000, seed: int = 0, view: Callable | None = None,
                       tried: int = 4) -> float:
    """About how long :func:`compute_table` simulates ``hands`` hands of ``variant`` in each lead mode, in seconds
    of CPU on this machine (the wall time is as long on a quiet machine, longer on a busy one): ``tried`` hands
    simulated in the first hand's lead mode, timed, times the hands of two lead modes (most matches ask for two:
    the first hand's and ``open``; the match's solution not counted, a small part of the whole for every variant
    but Kozel). A command says it before it starts minutes of work."""
    started = time.process_time()
    simulate_mode(variant, mode_of(first_lead(variant)), tried, seed, HandPlayers(view))
    return (time.process_time() - started) / tried * hands * 2


#: A race's table is written as its model only, and solved when it is loaded (``meta["values"]`` is
#: ``SOLVED_ON_LOAD``; kept on disk, :func:`_solved_on_load`): its arrays, the match code's answers among them,
#: serve what its positions alone do not (a recorded hand's known leader, ``EquityTable._one_hand``; the chances
#: between a lattice's points), and a million positions would not fit the ~2 MB a shipped table may take.
SOLVED_ON_LOAD = "solved when loaded"


def _solved_on_load(variant: Variant, model: HandModel, meta: dict, values, source: bytes):
    """A table's values, solved by the race solver where its file holds its model only: kept once solved
    in the cache folder (:func:`cache_folder`), where the next process finds them (the first one waits
    seconds to a minute, each one after it a few milliseconds: the file is mapped, not read). The kept file
    (as solved, 8 bytes a chance: 25 to 75 MB for the shipped races) is named by a digest of the variant,
    the meta and ``source``, the model as the file holds it (a compact table's bytes before its blocks: hashed,
    not parsed): a changed table is solved again. A kept file that cannot be read or written is solved past,
    as if there were none; one kept under the name of earlier versions (:func:`_earlier_name`) is renamed.
    A solve is told before and after, as INFO records of the ``analyzer.equity`` logger."""
    if meta.get("values") != SOLVED_ON_LOAD:
        return values
    if not is_race(variant):
        raise ValueError(f"a table of {variant.name} solved when loaded, but its match is no race")
    digest = hashlib.sha256(json.dumps([variant.name, sorted(variant.options), meta], sort_keys=True,
                                       default=str).encode())
    digest.update(source)
    stem = os.path.join(cache_folder(), os.path.splitext(table_name(variant))[0])
    path = f"{stem}-{digest.hexdigest()[:24]}.race"
    if not os.path.exists(path):
        try:
            os.replace(_earlier_name(stem, variant, model, meta), path)
        except OSError:
            pass
    kept = _read_kept(path)
    if kept is not None:
        return kept
    folder = os.path.dirname(path)
    clear_damaged(path)                     # (a folder or any other thing in the way of the kept file: redone)
    rules = f" ({variant.rules_text})" if variant.rules_text else ""
    with _solving(path, f"{variant.name}{rules}"):
        kept = _read_kept(path)             # (kept by the process this one waited for)
        if kept is not None:
            return kept
        solved = _shipped_solution(variant, model, meta, digest.hexdigest()[:24], rules)
        if solved is None:
            _log.info("solving the MWC table of %s%s on its first use (seconds to a minute; kept in %s for later "
                      "runs)", variant.name, rules, folder)
            started = time.perf_counter()
            solved = solve_race(variant, model, race_arrays(variant, model, lattice=meta.get("lattice")))
            _log.info("solved the table of %s%s in %.0f s", variant.name, rules, time.perf_counter() - started)
        try:                # (whole or not at all, nothing left behind: another process may read it at once)
            write_atomic(path, dump_values(solved, side_leads_results(variant, model, solved.arrays)), make_folder=True)
        except OSError as exc:
            _log.info("could not keep the table of %s%s in %s (%s): the next run solves it again", variant.name,
                      rules, folder, str(exc).removeprefix(path + ": "))
            return solved
    # read back as every later process reads it: with each known leader's merged results, which the values as
    # solved lack (their look-ups some 40% slower for the rest of the process)
    kept = _read_kept(path)
    return solved if kept is None else kept


def _shipped_solution(variant: Variant, model: HandModel, meta: dict, digest: str, rules: str) -> RaceValues | None:
    """The race as shipped solved (``shipped.py``: ``data/NAME.solved``, made for the model whose kept name has
    ``digest``); None where none is shipped for this model, or where the file does not serve (told as an INFO record:
    the race is then solved)."""
    path = os.path.join(DATA_DIR, os.path.splitext(table_name(variant))[0] + SUFFIX)
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
        return solve_shipped(raw, digest, variant, model, meta.get("lattice"))
    except (OSError, LookupError):          # (none shipped, or for another model: a table of one's own)
        return None
    except ValueError as exc:
        _log.info("the shipped solution of %s%s cannot be read (%s): solving it", variant.name, rules, exc)
        return None


@contextmanager
def _solving(path: str, name: str):
    """Held while this process solves the race kept at ``path``: a lock on ``path.lock``, so that processes
    started together (``--jobs``) solve it once, the others waiting (told as an INFO record) and then reading
    what it kept. Where the cache folder cannot hold the lock (or the system has no ``fcntl``), nothing is held:
    each process solves, as before."""
    try:
        import fcntl
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fh = open(f"{path}.lock", "ab")
    except (ImportError, OSError):
        yield
        return
    with fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            _log.info("waiting for the MWC table of %s, which another process is solving", name)
            fcntl.flock(fh, fcntl.LOCK_EX)
        except OSError:         # (a file system that locks no files)
            pass
        try:
            yield
        finally:                # (the lock goes with the file's closing; a process that comes later finds the
            try:                # kept file before it looks for a lock, and one that waited reads it once it has it)
                os.unlink(f"{path}.lock")
            except OSError:
                pass


def _read_kept(path: str):
    """The values a race's kept file holds (:func:`dump_values`), mapped; None where it cannot be read."""
    try:
        with open(path, "rb") as fh:
            try:                    # (read in place: its pages as the look-ups need them)
                kept = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):       # (a file system that maps no files)
                kept = fh.read()
        return load_values(kept)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def _earlier_name(stem: str, variant: Variant, model: HandModel, meta: dict) -> str:
    """The name a kept race had up to version 0.2.0: a digest of the variant, the meta and the model as
    ``HandModel.as_dict`` wrote it then (without each mode's ``score_totals``), so that a user's kept races are found
    again, not solved again."""
    data = model.as_dict()
    for sample in data["modes"].values():
        del sample["score_totals"]
    digest = hashlib.sha256(json.dumps([variant.name, sorted(variant.options), meta, data], sort_keys=True,
                                       default=str).encode()).hexdigest()[:24]
    return f"{stem}-{digest}.race"


def _errors(model: HandModel) -> dict:
    return {mode: {"hands": s.hands, "mean": round(s.mean, 3), "mean_se": round(s.se, 3), "p_win": round(s.p_win, 4),
                   "p_win_se": round(s.p_win_se, 4), **({"play_points": s.play_points()} if s.play else {})}
            for mode, s in sorted(model.modes.items())}


def bootstrap(table: EquityTable, positions: list[MatchPosition], replicates: int = 10, seed: int = 0) -> list[float]:
    """The standard error of side 0's MWC at each of ``positions`` that comes from the model's sampling:
    each replicate draws every lead mode's hands again from its own sample (with replacement, as many as
    it has) and solves the match from ``positions`` anew; the spread of the replicates' chances."""
    import random
    import statistics
    from collections import Counter

    rng = random.Random(seed)
    v = table.variant
    roots = [(state_key(v, p.state), p.lead) for p in positions]
    runs: list[list[float]] = []
    for _ in range(replicates):
        modes = {}
        for mode, sample in table.model.modes.items():
            outcomes = list(sample.outcomes)
            drawn = Counter(rng.choices(outcomes, [sample.outcomes[o] for o in outcomes], k=sample.hands))
            modes[mode] = ModeSample(sample.hands, drawn)
        again = HandModel(table.model.variant, table.model.rules, modes)
        if is_kozel(v):         # (the whole game solved again: a position with eggs one cell deep from it)
            solved = kozel_table_values(v, again)
            runs.append([solved.chance(p.state, p.lead) for p in positions])
            continue
        if is_race(v):          # (a root led by a known player: one hand deep from the race's positions)
            known = solve_race(v, again, race_arrays(v, again, lattice=table.meta.get("lattice")))
            values = {r: known.get(r) or solve_each(v, again, [r], known=known)[r] for r in roots}
        else:
            values = (solve_each if table.individual else solve)(v, again, roots)
        runs.append([values[r][0] if table.individual else values[r] for r in roots])
    return [statistics.stdev(col) if len(col) > 1 else 0.0 for col in zip(*runs)]


PACKED = ".mwc"          # the compact form's suffix (``store``); the tables ship in it


@lru_cache(maxsize=32)
def _load(path: str, variant: Variant) -> EquityTable:
    if path.endswith(PACKED):
        with open(path, "rb") as fh:
            return EquityTable.from_packed(variant, fh.read(), path)
    with open(path, encoding="utf-8") as fh:
        return EquityTable.from_dict(variant, json.load(fh))


@lru_cache(maxsize=64)
def _shipped(variant: Variant) -> str | None:
    """The shipped file of ``variant``'s table: its compact form, else its JSON form; None: none."""
    return _find(DATA_DIR, variant)


OPEN_DIR = os.path.join(DATA_DIR, "open")


def open_model_table(variant: Variant) -> EquityTable | None:
    """The table whose hand model was simulated with every hand open: what the luck of the deal is measured
    against (``analysis.luck``: a deal's open-hands value less the mean of such hands). Where the table in use
    is made from play by what the players know (the shipped partnership and Domino Whist tables, see
    docs/equity.md), the shipped open-hands one (``data/open/``), unless ``$DOMINO_TABLES`` gives the
    variant's table; else :func:`load_table`'s."""
    if _own_table(variant) is None and _find(OPEN_DIR, variant) is not None:
        return load_table(variant, OPEN_DIR)
    return load_table(variant)


def _own_table(variant: Variant) -> str | None:
    """The file of ``variant``'s table in the first folder of ``$DOMINO_TABLES`` that has one; None: none."""
    own = (_find(f, variant) for f in os.environ.get(TABLES_ENV, "").split(os.pathsep) if f)
    return next((p for p in own if p is not None), None)


def _find(folder: str, variant: Variant) -> str | None:
    json_path = os.path.join(folder, table_name(variant))
    for path in (json_path[:-len(".json")] + PACKED, json_path):
        if os.path.exists(path):
            return path
    return None


#: The environment variable naming folders (``os.pathsep`` between them) of the user's own tables, made by
#: ``domino equity ... -o FOLDER/NAME.mwc``: they are looked in before the shipped ones.
TABLES_ENV = "DOMINO_TABLES"


def load_table(variant: Variant, folder: str | None = None) -> EquityTable | None:
    """The table of ``variant`` with its options, from its compact form (``NAME.mwc``) or else its JSON
    form (``NAME.json``, ``table_name``): ``folder``'s, else the first found in the folders of
    ``$DOMINO_TABLES``, else the shipped one; None when there is none, or when its file cannot be read
    (:func:`table_problem` then says why). A file is read once a process while it is unchanged: the same
    table is given again."""
    if folder is not None:
        path = _find(folder, variant)
    else:
        path = _own_table(variant) or _shipped(variant)
    if path is None:
        return None
    try:
        stat = os.stat(path)
        key = (path, stat.st_mtime_ns, stat.st_size)
        last = _LAST.get(id(variant))
        if last is not None and last[0] is variant and last[1] == key:     # (the one asked for last: no hash of it)
            table = last[2]
        else:
            table = _LOADED.get(key + (variant,))
            if table is None:
                table = _load(path, variant)
                if len(_LOADED) >= 16:
                    _LOADED.clear()
                _LOADED[key + (variant,)] = table
            if len(_LAST) >= 64:
                _LAST.clear()
            _LAST[id(variant)] = (variant, key, table)
    except (OSError, ValueError, KeyError, TypeError) as exc:     # a damaged or foreign file: no table, and why
        _UNREADABLE[table_name(variant)] = f"the table {path} cannot be read: {str(exc).removeprefix(path + ': ')}"
        return None
    _UNREADABLE.pop(table_name(variant), None)
    return table


_UNREADABLE: dict[str, str] = {}        # table name -> why its file could not be read, the last time it was
# the tables read by this process, per file as it is now (path, modification time, size, variant): the match
# scale, the luck of the deal and of the draws and the report each ask for a record's table, and a table
# keeps the positions it solved off the shipped walk (so each is solved once a process)
_LOADED: dict[tuple, EquityTable] = {}
# the table last given for each variant, by the variant's identity: id -> (the variant, (path, modification time,
# size), its table), found again without hashing the variant, while its file is as it was
_LAST: dict[int, tuple[Variant, tuple, EquityTable]] = {}


def table_problem(variant: Variant) -> str | None:
    """Why the file of ``variant``'s table could not be read, the last time :func:`load_table` tried (None:
    it could, or there is none): a damaged file, or one of one's own that is no MWC table."""
    return _UNREADABLE.get(table_name(variant))


def write_table(table: EquityTable, path: str) -> None:
    """Write ``table`` to ``path`` whole or not at all (:func:`analyzer.outputs.write_atomic`, its folder made
    when missing): its compact form if the name ends in ``.mwc``, else its JSON form. Raises
    :class:`~analyzer.outputs.OutputError` (an ``OSError`` naming the file) when it cannot be written."""
    data = table.as_dict()
    if path.endswith(PACKED):
        write_atomic(path, pack(data), make_folder=True)
        return
    write_atomic(path, json.dumps(data, separators=(",", ":")) + "\n", make_folder=True)


def mwc(variant: Variant | str, position: MatchPosition | MatchState, lead: tuple | None = None) -> float:
    """Side 0's match-winning chance at a match ``position`` (a ``MatchState`` and ``lead``: who
    leads the next hand, by default side 0), from the shipped table. Raises ``LookupError`` when
    no table is shipped for the variant and its options."""
    variant = variant if isinstance(variant, Variant) else find_variant(variant)
    if isinstance(position, MatchState):
        position = MatchPosition(position, lead or ("side", 0))
    table = load_table(variant)
    if table is None:
        raise LookupError(f"no match-winning-chance table for {variant.name}"
                          f"{' (' + variant.rules_text + ')' if variant.rules_text else ''}; make one with "
                          f"domino equity --variant {variant.name}" + "".join(f" --rule {k}={v}" for k, v in variant.options))
    return table.chance(position)

