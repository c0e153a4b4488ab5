"""The match-winning chance by dynamic programming over match states.

A *match position* is the match score as ``MatchScoring`` keeps it (``MatchState``: the scores, the
drawn games pending, a play-off, the last winner...) and who leads the next hand (a lead token,
resolved: ``("side", s)``, ``("holder", "[6-6]", forced)`` or ``("any",)``). From a position the next
hand's result follows the variant's hand-result model (``model.HandModel``); the match code itself
(``MatchScoring.apply``, ``MatchScoring.lead``) gives the position after it. The chance that side 0
wins the match, ``E``, solves ``E(x) = sum over results r of P(r) E(x after r)``, with ``E`` = 1 at a
match side 0 has won, 0 at one it has lost and 1/2 at a drawn match. The positions reachable from the
start are found by a breadth-first walk and the equations solved by Gauss-Seidel sweeps, latest
positions first, until no value moves by more than 1e-12 (one sweep is nearly exact for the games to a
target, where scores only grow; the sweeps matter for resets and drawn hands).

A match of individual players (Cut Throat for three or four) has a side per player: ``solve_each``
solves the same equations with a chance per side, ``E_k`` = 1 for side ``k`` at a match it has won and 0
for the others (1/N each at a drawn one), so the chances at every position add up to 1. The hand model
is the only input that knows how a hand is played, so any model (a block game's, a draw game's) feeds
both solvers alike.

States are kept finite: counters the match never reads are dropped (``wins`` but for a match of games
won, the points in a match of games won, ``games`` but for the first games' bonuses), and drawn hands pending are capped at
``PENDING_CAP`` (the chance of more in a row is below 1e-20 in every variant modelled)."""
from __future__ import annotations

from array import array
from collections import deque
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from itertools import product
from operator import add
from typing import Callable, Mapping, NamedTuple

from ..i18n import ngettext, number
from ..rules import HandResult, MatchState, Variant
from ..rules.lead import requirement
from ..rules.modes import MatchKind
from ..search.scoring import value_bound
from .model import HandModel, Outcome, lead_token, mode_of

__all__ = ["Key", "state_key", "key_state", "resolve", "solve", "solve_each", "terminal_each", "endless", "first_lead",
           "first_game_roots", "hand_rows", "each_step", "AddedRows", "added_rows", "rows_reaching",
           "known_leader_roots", "score_grid_roots", "score_step", "PENDING_CAP", "hand_results", "by_scores",
           "apply_outcome", "Reach", "TOL"]

PENDING_CAP = 12
#: The walk's sweeps stop once no chance changes by this much in a sweep.
TOL = 1e-12
#: The most answers of the match code, and of looked-up known positions, a walk keeps (then it starts afresh):
#: some 450 bytes each (measured), so that making the largest table (Quinientos) or a long-running server
#: looking up positions off a table's walk stays within about a gigabyte.
KEPT = 1_000_000
TIE_GAP = 1             # (in targets) how far behind two players tied on top past the target a third is kept
Key = tuple


def state_key(variant: Variant, state: MatchState) -> tuple:
    """The part of ``state`` the rest of the match depends on."""
    m = variant.match
    wins = state.wins if m.kind == MatchKind.GAMES else None
    scores = (0,) * len(state.scores) if m.kind == MatchKind.GAMES else tuple(state.scores)     # (games: the wins decide)
    games = min(state.games, len(m.first_wins)) if m.first_wins else None
    last = state.last if m.kind in (MatchKind.CUTTHROAT, MatchKind.SHUTOUT) else None
    if m.target and min(scores) >= m.target and len(set(scores)) == 1:
        scores = (m.target,) * len(scores)     # tied past the target: another hand, each such tie alike
    elif m.target and len(scores) > 2 and m.kind == MatchKind.POINTS and not m.lower_wins:
        scores = _tied_on_top(scores, m.target)
    return (scores, min(state.pending, PENDING_CAP), state.playoff, last, wins, games)


def _tied_on_top(scores: tuple, target: int) -> tuple:
    """Three or more players, two or more tied on top past the target (another hand: the match code ends a
    race only at a single top score): from here only the differences matter (the top is past the target
    whatever comes, and the single top wins), so the scores are shifted to put the top at the target; a
    player more than the target behind counts as the target behind (``TIE_GAP``: a cap, as
    ``PENDING_CAP``, that keeps the states finite)."""
    top = max(scores)
    if top < target or scores.count(top) < 2:
        return scores
    return tuple(max(s - (top - target), target - TIE_GAP * target) for s in scores)


def key_state(variant: Variant, key: tuple) -> MatchState:
    scores, pending, playoff, last, wins, games = key
    return MatchState(tuple(scores), tuple(wins) if wins is not None else (0,) * len(scores), games or 0,
                      pending, playoff, last=last)


def resolve(variant: Variant, token: tuple, side: int, after: MatchState) -> tuple:
    """A model's lead token (relative to ``side``, the side that led) as the lead of the next hand."""
    if token[0] == "match":
        req = variant.match.lead(after, variant.seating)
        if req is None:
            return resolve(variant, token[1], side, after)
        token = lead_token(req, variant, 0)
        side = 0
    if token[0] == "side":
        return ("side", (side + token[1]) % variant.seating.sides)
    return token


def first_lead(variant: Variant) -> tuple:
    """Who leads the first hand of a match (the first game's rule: the [6-6] holder with it)."""
    req = requirement(variant.opening, 1)
    return lead_token(req, variant, 0) if (req.seats or req.holder_of) else ("any",)


def hand_results(variant: Variant, model: HandModel, lead: tuple,
                 merged_modes: dict | None = None) -> list[tuple[float, int, Outcome]]:
    """(probability, leading side, outcome) of the next hand from a position with ``lead``. ``merged_modes``: the
    outcomes of each lead mode merged as the match reads them, kept by the caller for the next lead."""
    sides = variant.seating.sides
    mode = mode_of(lead)
    if mode not in model.modes:
        raise KeyError(f"the hand-result model of {variant.name} has no hands simulated in lead mode {mode}")
    leaders = [(lead[1], 1.0)] if lead[0] == "side" else [(s, 1.0 / sides) for s in range(sides)]
    merged = (merged_modes or {}).get(mode)
    if merged is None:
        merged = _merged(variant, model, mode)
        if merged_modes is not None:
            merged_modes[mode] = merged
    return [(q * p, s, o) for s, q in leaders for o, p in merged]


def _merged(variant: Variant, model: HandModel, mode: str) -> list[tuple[Outcome, float]]:
    """The outcomes of lead mode ``mode`` merged as the match reads them: the scores alone (and a void hand's
    replay) where they alone move it on (:func:`by_scores`), else all but the end, unless the first games'
    winners are paid (their end counts)."""
    keep_end = bool(variant.match.first_wins)
    merge = by_scores(variant)
    merged: dict = {}
    for o, p in model.modes[mode].probabilities():
        if merge:
            key = (None, 0, o.scores, "", o.void, o.next)
        elif not keep_end:
            key = (o.winner, o.points, o.scores, "", o.void, o.next)
        else:
            key = (o.winner, o.points, o.scores, o.termination, o.void, o.next)
        merged[key] = merged.get(key, 0.0) + p
    return [(Outcome(*key), p) for key, p in merged.items()]


def apply_outcome(variant: Variant, state: MatchState, side: int, o: Outcome) -> MatchState:
    """The match code's state after the hand led by ``side`` ended with ``o`` (relative to ``side``)."""
    sides = variant.seating.sides
    winner = None if o.winner is None else (o.winner + side) % sides
    scores = tuple(o.scores[(s - side) % sides] for s in range(sides))
    return variant.match.apply(state, HandResult(o.termination or "domino", winner, o.points, 0, scores, o.void))


def by_scores(variant: Variant) -> bool:
    """Whether the match after a hand depends on nothing but the sides' new totals (a race to a
    target of points or bad points, no bonus for the first games), as ``MatchScoring.apply`` says."""
    m = variant.match
    return m.kind in (MatchKind.POINTS, MatchKind.BAD) and not m.first_wins


def _stepper(variant: Variant, terminal: Callable) -> Callable[[MatchState, int, Outcome], tuple]:
    """``step(state, side, o)``: where the result ``o`` of a hand led by ``side`` takes the match at ``state``,
    as ``(value, None)`` (a finished match's ``terminal``; one no hand can end, :func:`endless`, drawn) or
    ``(None, next position)``. The answer is kept: where the match adds a hand's scores to its own (a race to
    a target of points, bad points or games won), per new totals and everything else the match code reads
    (the state but its scores, the winner, the end, the points of a result with no scores), so that the
    positions of a walk share it (All Fives has thousands of results, and Quinientos' positions share most
    of their new totals); else per state and result. Where only the totals matter (:func:`by_scores`), the
    results were merged to them."""
    sides = variant.seating.sides
    additive = variant.match.kind in (MatchKind.POINTS, MatchKind.BAD, MatchKind.GAMES)
    apply = variant.match.apply
    seats = [[(s - side) % sides for s in range(sides)] for side in range(sides)]   # (a result's scores by seat)
    cache: dict = {}

    def step(state: MatchState, side: int, o: Outcome) -> tuple:
        scores = o.scores
        if scores:
            scores = tuple([scores[k] for k in seats[side]])       # (``apply_outcome``'s, made once)
        if not additive or (o.void and not any(scores)):
            key = (state, side, o)
        else:
            key = (tuple(map(add, state.scores, scores)) if scores else None, state.wins, state.games, state.pending,
                   state.playoff, state.last, None if o.winner is None else (o.winner + side) % sides,
                   o.termination, o.void, None if scores else (state.scores, o.points), o.next, side)
        out = cache.get(key)
        if out is None:
            if len(cache) >= KEPT:          # (a bound on the memory: the answers are found again as needed)
                cache.clear()
            winner = None if o.winner is None else (o.winner + side) % sides
            after = apply(state, HandResult(o.termination or "domino", winner, o.points, 0, scores, o.void))
            if after.over:
                out = (terminal(after), None)
            elif endless(variant, after):
                out = (terminal(replace(after, over=True, drawn=True)), None)
            else:
                out = (None, (state_key(variant, after), resolve(variant, o.next, side, after)))
            cache[key] = out
        return out
    return step


def endless(variant: Variant, state: MatchState) -> bool:
    """Whether no hand can end the match from ``state``: Chiva for three (``shutout``) once every player has
    won a game (the target counts only while another player still has no point, 002, and no reset follows).
    The DP counts such a match as drawn (each player alike)."""
    return (variant.match.kind == MatchKind.SHUTOUT and bool(variant.match.target)
            and all(s >= 1 for s in state.scores))


def _terminal(state: MatchState) -> float:
    if state.drawn or state.winner is None:
        return 0.5
    return 1.0 if state.winner == 0 else 0.0


def terminal_each(state: MatchState) -> tuple[float, ...]:
    """Each side's chance at a finished match: 1 to its winner, else each side alike."""
    sides = len(state.scores)
    if state.drawn or state.winner is None:
        return (1.0 / sides,) * sides
    return tuple(float(s == state.winner) for s in range(sides))


def _add(constant, p: float, value):
    if isinstance(value, tuple):
        return tuple(c + p * v for c, v in zip(constant, value))
    return constant + p * value


class Reach(NamedTuple):
    """Where a walk of the match's positions goes: from ``roots`` (``(state_key, lead)`` pairs), stopping at
    the ``known`` positions (already solved: their values taken)."""

    roots: list
    known: Mapping


def _walk(variant: Variant, model: HandModel, reach: Reach, terminal: Callable,
          progress: Callable[[str], None] | None, memo: dict | None = None) -> tuple[list, list]:
    """The positions of the ``reach`` (breadth first) and, per position, its equation: the constant
    (``terminal`` of the matches the next hand ends: side 0's chance, or each side's with
    :func:`terminal_each`; the ``known`` values) and the (index, probability) pairs of the positions the next
    hand leads to."""
    roots, known = reach
    zero = (0.0,) * variant.seating.sides if terminal is terminal_each else 0.0
    index: dict = {}
    order: list = []
    edges: list[tuple] = []          # per position: the chance from over and known positions, the next
    #                                  positions' indices and probabilities, 1 / (1 - its own loop's probability)
    queue = deque(r for r in roots if r not in known)
    memo = {} if memo is None else memo        # kept by the caller: the next walk on the same model reuses it
    cache: dict = memo.setdefault("results", {})
    step = memo.get("step") or memo.setdefault("step", _stepper(variant, terminal))
    found: dict = memo.setdefault("known", {})     # ``known``'s values looked up (a packed table reads slowly)
    for r in queue:
        index[r] = len(order)
        order.append(r)
    while queue:
        pos = queue.popleft()
        key, lead = pos
        state = key_state(variant, key)
        if lead not in cache:
            cache[lead] = hand_results(variant, model, lead, memo.setdefault("merged", {}))
        here, constant, acc = len(edges), zero, {}
        for p, side, o in cache[lead]:
            over, nxt = step(state, side, o)
            if over is not None:
                constant = _add(constant, p, over)
                continue
            value = found.get(nxt)
            if value is None and nxt not in index:
                value = known.get(nxt)
                if value is not None:
                    if len(found) >= KEPT:
                        found.clear()
                    found[nxt] = value
            if value is not None:
                constant = _add(constant, p, value)
                continue
            j = index.get(nxt)
            if j is None:
                j = index[nxt] = len(order)
                order.append(nxt)
                queue.append(nxt)
            acc[j] = acc.get(j, 0.0) + p
        stay = acc.pop(here, 0.0)       # the hand leaves the match where it was (a tie past the target)
        # (compact arrays: millions of edges); a position's own loop is solved in place: v = (rest) / (1 - stay)
        if stay < 1.0:
            edges.append((constant, array("l", acc), array("d", acc.values()), 1.0 / (1.0 - stay)))
        else:                           # a match that can never move on from here: drawn
            edges.append((_drawn(zero), array("l"), array("d"), 1.0))
        if progress is not None and len(edges) % 5000 == 0:
            progress(ngettext("{done} of {n} position expanded", "{done} of {n} positions expanded", len(order),
                              done=number(len(edges))))
    return order, edges


def each_step(variant: Variant, memo: dict) -> Callable[[MatchState, int, Outcome], tuple]:
    """The walk's ``step`` of a match of individual players (each player's chances at a finished match), kept in
    ``memo`` with the match code's answers, as :func:`hand_rows` and :func:`solve_each`'s walk share it."""
    return memo.get("step") or memo.setdefault("step", _stepper(variant, terminal_each))


def hand_rows(variant: Variant, model: HandModel, pos: tuple,
              memo: dict) -> list[tuple[float, tuple | None, tuple | None]]:
    """The results of the hand at ``pos`` (``(state_key, lead)``) as :func:`solve_each`'s walk reads them, in its
    order: ``(p, over, nxt)``, the finished match's chances (each player's) or else the position the match goes on
    at. ``memo``: the walk's (each lead's results and the match code's answers, kept for the next call and walk)."""
    key, lead = pos
    cache: dict = memo.setdefault("results", {})
    step = each_step(variant, memo)
    if lead not in cache:
        cache[lead] = hand_results(variant, model, lead, memo.setdefault("merged", {}))
    state = key_state(variant, key)
    return [(p, *step(state, side, o)) for p, side, o in cache[lead]]


@dataclass(frozen=True)
class AddedRows:
    """A known leader's hand results (:func:`hand_rows`' rows, without a position) in a race of points or bad points
    (``MatchScoring.open_below``): per row what it adds to each seat's score (``added``, ``sides`` numbers a row, in
    the seats' order), its chance (``probs``), and which rows lead next alike (``groups``: a row's group, the same
    side leading and the same lead token; ``members``: each group's rows); ``asked``: the rows the match code is
    always asked about (a hand played again, a result of no scores); ``by_seat[k]``: the rows by what they add to
    seat ``k``, most first, with those amounts negated (``(amounts, rows)``, for :func:`rows_reaching`)."""

    rows: list
    added: array
    probs: array
    groups: array
    members: tuple[tuple[int, ...], ...]
    asked: tuple[int, ...]
    by_seat: tuple[tuple[list[int], list[int]], ...]
    _leads: dict = field(default_factory=dict, compare=False, repr=False)

    def next_leads(self, leads: tuple[int, ...]) -> array:
        """Each row's next lead, its group's of ``leads`` (kept: most positions give their groups the same)."""
        got = self._leads.get(leads)
        if got is None:
            if len(self._leads) >= 64:
                self._leads.clear()
            got = self._leads[leads] = array("i", [leads[g] for g in self.groups])
        return got


def added_rows(variant: Variant, model: HandModel, lead: tuple, memo: dict) -> AddedRows | None:
    """:class:`AddedRows` of ``lead`` (a known leader), kept in ``memo`` (the walk's, as :func:`hand_rows` keeps its
    results); None where the match is no race of points or bad points (:func:`by_scores`, a target) or a result
    takes points away."""
    kept = memo.setdefault("added", {})
    if lead in kept:
        return kept[lead]
    kept[lead] = None
    if variant.match.open_below() is None or not by_scores(variant) or lead[0] != "side":
        return None
    cache: dict = memo.setdefault("results", {})
    if lead not in cache:
        cache[lead] = hand_results(variant, model, lead, memo.setdefault("merged", {}))
    rows, sides = cache[lead], variant.seating.sides
    turned = [tuple(o.scores[(s - side) % sides] for s in range(sides)) if o.scores else (0,) * sides
              for _, side, o in rows]
    if any(x < 0 for scores in turned for x in scores):
        return None
    names: dict = {}
    groups = array("i", [names.setdefault((side, o.next), len(names)) for _, side, o in rows])
    asked = tuple(r for r, (_, _, o) in enumerate(rows) if o.void or not o.scores)
    by_seat = []
    for k in range(sides):
        less = [-scores[k] for scores in turned]
        order = sorted(range(len(rows)), key=less.__getitem__)
        by_seat.append(([less[r] for r in order], order))
    members: list[list[int]] = [[] for _ in names]
    for r, g in enumerate(groups):
        members[g].append(r)
    added = array("i", [x for scores in turned for x in scores])
    probs = array("d", [p for p, _, _ in rows])
    kept[lead] = AddedRows(rows, added, probs, groups, tuple(map(tuple, members)), asked, tuple(by_seat))
    return kept[lead]


def rows_reaching(rows: AddedRows, scores: tuple, bound: int) -> list[int]:
    """The rows of ``rows`` that take some seat from ``scores`` to ``bound`` or past it (the match code decides
    those), with those always asked, in order."""
    out = set(rows.asked)
    for k, (amounts, order) in enumerate(rows.by_seat):
        out.update(order[:bisect_right(amounts, scores[k] - bound)])
    return sorted(out)


def _drawn(zero):
    """The value of a drawn match: 1/2 for side 0 of two, else 1/N to each side."""
    return 0.5 if not isinstance(zero, tuple) else (1.0 / len(zero),) * len(zero)


def first_game_roots(variant: Variant, model: HandModel) -> list:
    """Where the first game may take a match with bonuses for the first games won (Quinientos,
    ``first_wins``), for every score its winner may make, not only those the model's simulated hands
    made: the match state counts those games (:func:`state_key`), so a recorded match whose first game
    scored what no simulated hand did would otherwise leave the walk from the start for its next games
    (each look-up then a walk of its own, off the table). The scores run from 0 to the most a hand can
    score (every pip of the set and the scoring's points beyond the pips, ``scoring.value_bound``; the
    match code adds the game's bonus); each result of the first hand the model has that scores for its
    winner alone (winner, end, who leads next) is taken at each of them and the match code says where it
    leads. Empty for any other match, or a scoring with no bound."""
    if not variant.match.first_wins:
        return []
    bound = value_bound(variant)
    if bound is None:
        return []
    fixed, most = bound
    most += 0 if fixed else sum(t.pips for t in variant.dealing.tiles)
    start = variant.match.start(variant.seating.sides)
    step = _stepper(variant, _terminal)
    first = hand_results(variant, model, first_lead(variant))
    shapes = {(side, replace(o, points=0, scores=())) for _, side, o in first
              if o.winner is not None and all(x == 0 for k, x in enumerate(o.scores) if k != o.winner)}
    roots: dict = {}
    for side, o in sorted(shapes, key=repr):
        for points in range(most + 1):
            scores = tuple(points if k == o.winner else 0 for k in range(variant.seating.sides))
            over, nxt = step(start, side, replace(o, points=points, scores=scores))
            if over is None:
                roots[nxt] = None
    return list(roots)


def known_leader_roots(variant: Variant, positions) -> list:
    """The positions of ``positions`` (a walk's, ``(state_key, lead)``) whose hand's leader is left open
    (``("any",)``: a variant whose next hand any player may lead, as its model deals them), each with every
    side leading instead: a recorded hand knows who led it (``analysis.match_scale.match_positions``), and its
    position is then off a walk that holds ``("any",)`` alone (a walk of its own at each look-up)."""
    sides = variant.seating.sides
    return [(key, ("side", s)) for key, lead in positions if lead == ("any",) for s in range(sides)]


def score_step(variant: Variant) -> int:
    """The step every score of ``variant`` moves in: 5 in All Fives (a play scores a multiple of five, and
    the award at the end is rounded to one, 003), else 1."""
    play = variant.play
    return 5 if play is not None and not play.threes and not play.pub else 1


def score_grid_roots(variant: Variant, positions) -> list:
    """Where the match moves on by the new totals alone (:func:`by_scores`): every total below the target, in
    the variant's score step, with each side leading (as a recorded hand names its leader:
    ``analysis.match_scale.match_positions``) and everything else of a position of ``positions`` (a walk's,
    ``(state_key, lead)``), that is not already one of them. A real match may stand at any such total, but a
    walk from the start reaches only the sums of the model's simulated results (Domino Whist's table missed 41
    small bad-point totals, 4-2 among them): a recorded hand at one was a walk of its own at each look-up."""
    if not by_scores(variant) or not variant.match.target:
        return []
    have = set(positions)
    sides = variant.seating.sides
    totals = list(product(range(0, variant.match.target, score_step(variant)), repeat=sides))
    return [r for rest in sorted({key[1:] for key, _ in have}, key=repr) for s in range(sides) for scores in totals
            if (r := ((scores, *rest), ("side", s))) not in have]


def _roots(variant: Variant, roots: list | None) -> list:
    if roots is None:
        return [(state_key(variant, variant.match.start(variant.seating.sides)), first_lead(variant))]
    return roots


def solve(variant: Variant, model: HandModel, roots: list[tuple[tuple, tuple]] | None = None,
          known: dict | None = None, progress: Callable[[str], None] | None = None,
          memo: dict | None = None) -> dict:
    """Side 0's match-winning chance at every position reachable from ``roots`` (default: the start
    of a match), as ``{(state_key, lead): chance}``, swept until no chance changes by :data:`TOL`.
    ``known``: positions already solved (a shipped table): the walk stops there and takes their values.
    ``memo``: as for :func:`solve_each`."""
    order, edges = _walk(variant, model, Reach(_roots(variant, roots), known or {}), _terminal, progress, memo)
    tol = TOL
    values = [0.5] * len(order)
    for sweep in range(100_000):
        change = 0.0
        for i in range(len(order) - 1, -1, -1):
            constant, idx, ps, scale = edges[i]
            v = constant
            for j, p in zip(idx, ps):
                v += p * values[j]
            v *= scale
            change = max(change, abs(v - values[i]))
            values[i] = v
        if change < tol:
            break
    return dict(zip(order, values))


def solve_each(variant: Variant, model: HandModel, roots: list[tuple[tuple, tuple]] | None = None,
               known: dict | None = None, progress: Callable[[str], None] | None = None,
               memo: dict | None = None) -> dict:
    """Every side's match-winning chance at every position reachable from ``roots``, as
    ``{(state_key, lead): (chance of side 0, of side 1, ...)}``: the equations of :func:`solve` with a
    chance per side (``terminal_each`` at a finished match), for matches of any number of sides
    (individual players: each his own side). ``known``: positions already solved, each a tuple. ``memo``: a
    dict the caller keeps for the next call on the same model (each lead's results, the match code's
    answers): a shipped table's look-ups off its walk reuse them."""
    sides, tol = variant.seating.sides, TOL
    order, edges = _walk(variant, model, Reach(_roots(variant, roots), known or {}), terminal_each, progress, memo)
    values = [[1.0 / sides] * sides for _ in order]
    for sweep in range(100_000):
        change = 0.0
        for i in range(len(order) - 1, -1, -1):
            constant, idx, ps, scale = edges[i]
            v = list(constant)
            for j, p in zip(idx, ps):
                w = values[j]
                for s in range(sides):
                    v[s] += p * w[s]
            v = [x * scale for x in v]
            change = max(change, max(abs(a - b) for a, b in zip(v, values[i])))
            values[i] = v
        if change < tol:
            break
    return {pos: tuple(v) for pos, v in zip(order, values)}
