"""Kozel's match-winning chance: the two records, each team's fence and the eggs carried (issue 56).

A Kozel match (``rules/kozel.py``, :class:`~analyzer.rules.kozel.KozelMatch`) keeps more than two scores: a team
whose record is 0 keeps its small charges "on the fence", and a fish with equal remainders lays "eggs" that the
next losing team pays. The match position is therefore each team's *level* (its record, or at record 0 its
fence) and the eggs carried, with the side that leads the next hand. Where the match goes after a hand is the
match code's answer (``KozelMatch.apply``, ``KozelMatch.lead``; the next leader from the hand model's lead
tokens, as ``LeadPolicy.requirement`` gave them): it is asked once per team level and charge, since a team's
new level depends on its own level, its charge (the eggs added to a loser's) and whether it won, never on the
other team's (``Transitions``; a test checks that the composed answer is the match code's on random states).
Where both teams reach the limit in one fish (``eggs=no``) the match code is asked about that state itself.

Two caps keep the states finite, each exact where it matters: a fence of ``limit - 13`` or more makes every
charge that opens the record lose the game, so all such fences are one (:func:`fence_cap`; without eggs two
records past the limit at once are then compared as if the fence were at the cap, a position whose chance is
far below any figure shown); eggs of ``limit`` or more lose the game for the next team that loses a hand (their
record reaches the limit), so all such eggs are one.

The equations are the table's (``E(x) = sum of P(r) E(x after r)``, 1 at a game side 0 has won, 0 at one it has
lost, 1/2 at a draw at the limit), solved cell by cell: a *cell* is the two levels, and its unknowns the chance
at every eggs value with either side to lead (the eggs move only within a cell: a fish with equal remainders
leaves the levels). A cell's chances at eggs ``e`` need those at larger eggs only (and, at the eggs cap or for
a fish that lays none, a 2x2 system of the two leading sides, solved exactly); a hand won adds the loser's
charge and the eggs to his level: per winner and next leader, the row of chances by the total charge, summed
against the model's charges (``_gains``). A team's record never comes down, so every cell with a record open
is solved once, in the order of the records (then of the fences); the cells of two fences (both records 0),
where a fence cleared by winning lets the match come back, are swept until no chance moves by ``TOL``. Only the
chances with no eggs are kept (the table); a position with eggs is solved one cell deep when looked up
(:meth:`KozelValues.get`), from the table's chances."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from operator import mul
from typing import Callable

from ..i18n import gettext, ngettext, number
from ..rules import HandResult, MatchState, Variant
from ..rules.kozel import FENCE, KozelMatch
from .model import HandModel, Outcome, mode_of, lead_token

__all__ = ["is_kozel", "fence_cap", "OVER", "Transitions", "solve_kozel", "KozelValues", "kozel_table_values", "TOL"]

TOL = 1e-12
OVER = -1          # (a level past the limit: the match is over)


def is_kozel(variant: Variant) -> bool:
    """Whether ``variant``'s match is Kozel's (records, fences and eggs: this module's DP, not the table's walk)."""
    return isinstance(variant.match, KozelMatch)


def fence_cap(variant: Variant) -> int:
    """The fence from which every charge that opens the record takes it to the limit: all fences past it are one."""
    return max(variant.match.target - FENCE, 0)


@dataclass
class _Groups:
    """One lead mode's outcomes for a given leading side, absolute: ``won[(winner, next side)]`` the chance of each
    loser's charge (a list by charge), ``fish`` (``eggs=no``) ``(p, charge of side 0, of side 1, next side)``,
    ``ties`` (eggs laid) ``(p, eggs, next side)``."""

    won: dict
    fish: list
    ties: list


class Transitions:
    """Each team's new level after a hand, as the match code gives it, and the chances of a Kozel hand by lead mode.

    Levels are indices: a fence ``f`` (record 0) is ``f`` (0 to :func:`fence_cap`), a record ``r`` is
    ``cap + r`` (1 to the limit less one). ``lose(i)[x]``: a team at level ``i`` that loses a hand and is charged
    ``x`` (eggs included); ``fish(i)[x]``: charged ``x`` in a fish nobody wins; ``win[i]``: it wins a hand;
    ``OVER`` where its record reaches the limit."""

    def __init__(self, variant: Variant, model: HandModel):
        m = variant.match
        self.variant, self.model, self.limit, self.cap = variant, model, m.target, fence_cap(variant)
        self.size = self.cap + self.limit
        self.eggs_cap = m.target
        self.modes = {mode: s.probabilities() for mode, s in model.modes.items()}
        charges = [max(o.scores) for s in self.modes.values() for o, _ in s] or [0]
        self.laid = sorted({o.carried for s in self.modes.values() for o, _ in s if o.carried})
        self.eggs = self.eggs_from(0)
        self.top = max(charges) + self.eggs_cap + 1
        self.win = [self._probe(i, HandResult("domino", 0, 1, 0, (0, 1))) for i in range(self.size)]
        self._lose: dict[int, list[int]] = {}         # (each asked for once: a look-up needs a few levels' rows)
        self._fish: dict[int, list[int]] = {}
        self._modes: dict[tuple[int, int], str] = {}
        self._groups: dict = {}

    def lose(self, i: int) -> list[int]:
        """Level ``i``'s new level when its team loses a hand and is charged ``x`` (eggs included), by ``x``."""
        row = self._lose.get(i)
        if row is None:
            row = self._lose[i] = [self._probe(i, HandResult("domino", 1, x, 0, (x, 0))) if x else i
                                   for x in range(self.top + 1)]
        return row

    def fish(self, i: int) -> list[int]:
        """Level ``i``'s new level when its team is charged ``x`` in a fish nobody wins (``eggs=no``), by ``x``."""
        if self.variant.block.eggs:
            return self.lose(i)
        row = self._fish.get(i)
        if row is None:
            row = self._fish[i] = [self._probe(i, HandResult("blocked", None, 0, 0, (x, 0))) if x else i
                                   for x in range(self.top + 1)]
        return row

    def eggs_from(self, eggs: int) -> list[int]:
        """The eggs a cell carrying ``eggs`` may come to: it and every sum of it and the eggs the model's fish lay,
        capped."""
        eggs = min(eggs, self.eggs_cap)
        out, todo = {eggs}, [eggs]
        while todo:
            e = todo.pop()
            for x in self.laid:
                n = min(e + x, self.eggs_cap)
                if n not in out:
                    out.add(n)
                    todo.append(n)
        return sorted(out)

    def record(self, i: int) -> tuple[int, int]:
        """The (record, fence) of level ``i``."""
        return (i - self.cap, 0) if i > self.cap else (0, i)

    def level(self, record: int, fence: int) -> int:
        return self.cap + record if record else min(fence, self.cap)

    def key(self, i: int, j: int) -> tuple:
        """The table's key of levels ``(i, j)`` with no eggs: each team's record, or at record 0 its fence negated,
        in the place of the scores; the rest as every table's (``table.state_key``)."""
        levels = tuple(r or -f for r, f in (self.record(i), self.record(j)))
        return (levels, 0, False, None, None, None)

    def state(self, i: int, j: int, eggs: int = 0) -> MatchState:
        (a, fa), (b, fb) = self.record(i), self.record(j)
        return MatchState((a, b), (0, 0), fence=(fa, fb), eggs=eggs)

    def _probe(self, i: int, result: HandResult) -> int:
        """Side 0's new level at level ``i`` (side 1 at record 0, no fence) after ``result``, the match code's."""
        after = self.variant.match.apply(self.state(i, 0), result)
        if after.over and after.winner != 0:
            return OVER
        return self.level(after.scores[0], (after.fence or (0, 0))[0])

    def mode(self, i: int, j: int) -> str:
        """The lead mode of the hand at levels ``(i, j)``: the [1-1] holder's while the match says so."""
        got = self._modes.get((i, j))
        if got is None:
            req = self.variant.match.lead(self.state(i, j), self.variant.seating)
            got = self._modes[i, j] = "open" if req is None else mode_of(lead_token(req, self.variant, 0))
        return got

    def groups(self, mode: str, side: int) -> _Groups:
        """Lead ``mode``'s outcomes with ``side`` leading, absolute (kept)."""
        got = self._groups.get((mode, side))
        if got is not None:
            return got
        if mode not in self.modes:
            raise KeyError(f"the hand-result model of {self.variant.name} has no hands simulated in lead mode {mode}")
        won, fish, ties = {}, [], []
        for o, p in self.modes[mode]:
            nxt = (side + _next_side(o)) % 2
            if o.winner is not None:
                w = (side + o.winner) % 2
                charge = o.scores[(1 - w - side) % 2]
                if charge <= 0:
                    raise ValueError(f"a hand of {self.variant.name}'s model charges its losers nothing: {o}")
                row = won.setdefault((w, nxt), [])
                row.extend([0.0] * (charge + 1 - len(row)))
                row[charge] += p
            elif o.carried or not any(o.scores):
                ties.append((p, o.carried, nxt))
            else:
                fish.append((p, o.scores[side % 2], o.scores[(1 + side) % 2], nxt))
        got = self._groups[(mode, side)] = _Groups(won, fish, ties)
        return got

    def over_both(self, i: int, j: int, a: int, b: int) -> float:
        """Side 0's chance where a fish takes both teams past the limit: the match code asked on the state itself."""
        after = self.variant.match.apply(self.state(i, j), HandResult("blocked", None, 0, 0, (a, b)))
        return 0.5 if after.drawn or after.winner is None else float(after.winner == 0)


def _next_side(o: Outcome) -> int:
    """The side (relative to the leader's) that leads the next hand, as the model's lead token says."""
    token = o.next[1] if o.next[0] == "match" else o.next
    if token[0] != "side":
        raise ValueError(f"a Kozel hand led next by {token}: not a side")
    return token[1]


def _cell(t: Transitions, i: int, j: int, value: Callable[[int, int], float], eggs: list[int] | None = None,
          mode: str | None = None) -> dict[int, tuple[float, float]]:
    """Cell ``(i, j)``'s chances (side 0's) at each of ``eggs`` (default: every eggs value from none,
    ``Transitions.eggs_from``) with side 0 and side 1 leading: ``{eggs: (v0, v1)}``, from ``value(side, level pair
    index)``, the chances with no eggs of the cells a hand won leads to (it pays the eggs). ``mode``: the lead mode
    of this hand where it is not the one the match gives (a first hand led by the [1-1] holder)."""
    n, top = t.size, t.top
    mode = mode or t.mode(i, j)
    rows = {}
    for w, nxt in product((0, 1), repeat=2):
        if w == 0:
            here = t.win[i]
            rows[w, nxt] = [1.0 if to == OVER else value(nxt, here * n + to) for to in t.lose(j)]
        else:
            here = t.win[j]
            rows[w, nxt] = [0.0 if to == OVER else value(nxt, to * n + here) for to in t.lose(i)]
    out: dict[int, tuple[float, float]] = {}
    for e in reversed(t.eggs if eggs is None else eggs):
        base, loops = [0.0, 0.0], [[0.0, 0.0], [0.0, 0.0]]
        for s in (0, 1):
            g = t.groups(mode, s)
            acc = 0.0
            for (w, nxt), probs in g.won.items():
                acc += sum(map(mul, probs, rows[w, nxt][e:e + len(probs)]))
            for p, a, b, nxt in g.fish:
                ia, jb = t.fish(i)[min(a, top)], t.fish(j)[min(b, top)]
                if ia == OVER and jb == OVER:
                    acc += p * t.over_both(i, j, a, b)
                elif ia == OVER or jb == OVER:
                    acc += p * (0.0 if ia == OVER else 1.0)
                else:
                    acc += p * value(nxt, ia * n + jb)
            for p, laid, nxt in g.ties:
                to = min(e + laid, t.eggs_cap)
                if to == e:
                    loops[s][nxt] += p
                else:
                    acc += p * out[to][nxt]
            base[s] = acc
        out[e] = _two(base, loops)
    return out


def _two(base: list[float], loops: list[list[float]]) -> tuple[float, float]:
    """Solve ``v_s = base_s + sum_k loops[s][k] v_k`` for two sides."""
    a, b = 1.0 - loops[0][0], -loops[0][1]
    c, d = -loops[1][0], 1.0 - loops[1][1]
    det = a * d - b * c
    if abs(det) < 1e-300:           # (a fish that leaves everything as it was, for ever: drawn)
        return (0.5, 0.5)
    return ((base[0] * d - b * base[1]) / det, (a * base[1] - c * base[0]) / det)


def solve_kozel(variant: Variant, model: HandModel, progress: Callable[[str], None] | None = None,
                tol: float = TOL) -> tuple[Transitions, list[list[float]]]:
    """Side 0's chance at every cell with no eggs, side 0 and side 1 leading (``values[side][i * size + j]``)."""
    t = Transitions(variant, model)
    n = t.size
    values = [[0.5] * (n * n) for _ in (0, 1)]

    def value(side: int, k: int) -> float:
        return values[side][k]

    def solve_cell(i: int, j: int) -> float:
        k = i * n + j
        change = 0.0
        for _ in range(10_000):         # (a cell a hand may leave as it was, at a fence at the cap: again)
            v0, v1 = _cell(t, i, j, value)[0]
            moved = max(abs(v0 - values[0][k]), abs(v1 - values[1][k]))
            values[0][k], values[1][k] = v0, v1
            change = max(change, moved)
            if moved < tol or not _loops(t, i, j):
                break
        return change

    opened = sorted(((i, j) for i, j in product(range(n), repeat=2) if i > t.cap or j > t.cap),
                    key=lambda c: (-(t.record(c[0])[0] + t.record(c[1])[0]), -(c[0] + c[1])))
    for done, (i, j) in enumerate(opened):
        solve_cell(i, j)
        if progress is not None and done % 5000 == 4999:
            progress(ngettext("{done} of {n} cell solved", "{done} of {n} cells solved", n * n,
                              done=number(done + 1)))
    fences = sorted(product(range(t.cap + 1), repeat=2), key=lambda c: -(c[0] + c[1]))
    for sweep in range(100_000):
        change = max((solve_cell(i, j) for i, j in fences), default=0.0)
        if progress is not None:
            progress(gettext("sweep {number} of the cells of two fences: the largest change {change}",
                             number=number(sweep + 1), change=f"{change:.1e}"))
        if change < tol:
            break
    return t, values


def _loops(t: Transitions, i: int, j: int) -> bool:
    """Whether a hand won may leave cell ``(i, j)`` as it was (a fence at the cap charged again, the winner's
    level unchanged)."""
    return (t.win[i] == i and j in t.lose(j)[1:]) or (t.win[j] == j and i in t.lose(i)[1:])


class KozelValues:
    """A Kozel table's chances: side 0's at each cell with no eggs (``stored``: ``{(kozel_key, ("side", s)):
    chance}``, a dict or a shipped table's lazy mapping), and a position with eggs, or led by the [1-1] holder,
    solved one cell deep from them when looked up (kept)."""

    def __init__(self, variant: Variant, model: HandModel, stored):
        self.variant, self.model, self.stored = variant, model, stored
        self._t: Transitions | None = None
        self._kept: dict = {}

    @property
    def transitions(self) -> Transitions:
        if self._t is None:
            self._t = Transitions(self.variant, self.model)
        return self._t

    def chance(self, state: MatchState, lead: tuple) -> float:
        """Side 0's chance at ``state`` (not over) with ``lead`` (a side, or the [1-1] holder: either side alike, as
        the model's hands in its lead mode are dealt)."""
        t = self.transitions
        i, j = (t.level(r, f) for r, f in zip(state.scores, state.fence or (0, 0)))
        if max(i, j) >= t.size:
            raise ValueError(f"a Kozel record at the limit or past it ({state.scores}) in a match not over")
        mode = None if lead[0] == "side" or mode_of(lead) == t.mode(i, j) else mode_of(lead)
        eggs = min(state.eggs, t.eggs_cap)
        if not eggs and mode is None:
            pair = [self._stored_value(s, i * t.size + j) for s in (0, 1)]
        else:
            key = (i, j, eggs, mode)
            pair = self._kept.get(key)
            if pair is None:
                if len(self._kept) >= 1 << 14:
                    self._kept.clear()
                pair = self._kept[key] = _cell(t, i, j, self._stored_value, t.eggs_from(eggs), mode)[eggs]
        return pair[lead[1]] if lead[0] == "side" else (pair[0] + pair[1]) / 2

    def _stored_value(self, side: int, k: int) -> float:
        key = self.transitions.key(*divmod(k, self.transitions.size))
        got = self.stored.get((key, ("side", side)))
        if got is None:
            raise KeyError(f"the Kozel table has no chance at {key[0]} with side {side} to lead")
        return got

    # the mapping the table's file is written from and looked up in (``EquityTable.as_dict``, ``_value``)
    def get(self, key, default=None):
        return self.stored.get(key, default)

    def items(self):
        return self.stored.items()

    def keys(self):
        return self.stored.keys()

    def __getitem__(self, key):
        return self.stored[key]

    def __iter__(self):
        return iter(self.stored)

    def update(self, extra: dict) -> None:
        self.stored.update(extra)

    def __len__(self) -> int:
        return len(self.stored)


def kozel_table_values(variant: Variant, model: HandModel,
                       progress: Callable[[str], None] | None = None) -> KozelValues:
    """Solve ``variant``'s Kozel match on ``model`` (:func:`solve_kozel`): its table's chances."""
    t, values = solve_kozel(variant, model, progress)
    n, stored = t.size, {}
    for i, j in product(range(n), repeat=2):
        for side in (0, 1):
            stored[(t.key(i, j), ("side", side))] = values[side][i * n + j]
    out = KozelValues(variant, model, stored)
    out._t = t
    return out
