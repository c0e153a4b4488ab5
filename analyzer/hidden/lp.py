"""The sequence-form linear programs of a :class:`~analyzer.hidden.game.HiddenGame`, solved by HiGHS.

The maximiser's program (Koller, Megiddo and von Stengel 1996): maximise ``v[0]`` over his realisation plan
``x`` (``E x = e``, ``x >= 0``) and one free value per information set of the minimiser and the root
(``F' v <= A' x``). Its optimum is the game value and ``x`` an optimal strategy; the minimiser's program is
the same with the roles turned round. scipy is an optional dependency (the extra ``hidden``): without it
:class:`HiddenUnavailable` says how to install it.
"""
from __future__ import annotations

from .game import HiddenGame, InfoSet

__all__ = ["HiddenUnavailable", "SolvedGame", "solve_game", "behaviour", "best_response"]


class HiddenUnavailable(RuntimeError):
    """The LP solver is missing (scipy) or failed."""


def _scipy():
    try:
        from scipy.optimize import linprog
        from scipy.sparse import coo_matrix
    except ImportError as exc:          # pragma: no cover - scipy is installed where the tests run
        raise HiddenUnavailable("the exact hidden-information solver needs scipy (HiGHS): "
                                "pip install 'domino-analyzer[hidden]' or pip install scipy") from exc
    return linprog, coo_matrix


def _constraints(infosets: list[InfoSet], count: int) -> list[tuple[int, int, float]]:
    """The entries of a player's ``E`` (rows: the root, then his information sets; columns: his sequences)."""
    out = [(0, 0, 1.0)]
    for r, node in enumerate(infosets, 1):
        out.append((r, node.parent, -1.0))
        out.extend((r, s, 1.0) for s in node.seqs)
    return out


def _program(game: HiddenGame, me: int, fixed: dict[int, float] | None = None):
    """Player ``me``'s program: returns ``(value, plan)``, the value for the maximiser."""
    linprog, coo = _scipy()
    other = 1 - me
    n_me, n_other = game.seq_counts[me], game.seq_counts[other]
    rows_other = len(game.infosets[other]) + 1
    sign = 1.0 if me == 0 else -1.0             # the minimiser maximises the negated payoff
    # variables: my plan (n_me), then the other's values (rows_other); inequality per other sequence:
    #   F'[s, :] v - sign * (A' x)[s] <= 0
    r, c, d = [], [], []
    for row, col, val in _constraints(game.infosets[other], n_other):
        r.append(col)
        c.append(n_me + row)
        d.append(val)
    for (s1, s2), w in game.payoff.items():
        mine, theirs = (s1, s2) if me == 0 else (s2, s1)
        r.append(theirs)
        c.append(mine)
        d.append(-sign * w)
    a_ub = coo((d, (r, c)), shape=(n_other, n_me + rows_other)).tocsr()
    e = _constraints(game.infosets[me], n_me)
    a_eq = coo(([x[2] for x in e], ([x[0] for x in e], [x[1] for x in e])),
               shape=(len(game.infosets[me]) + 1, n_me + rows_other)).tocsr()
    b_eq = [1.0] + [0.0] * len(game.infosets[me])
    cost = [0.0] * (n_me + rows_other)
    cost[n_me] = -1.0
    bounds = [(0, None)] * n_me + [(None, None)] * rows_other
    for s, val in (fixed or {}).items():
        bounds[s] = (val, val)
    res = linprog(cost, A_ub=a_ub, b_ub=[0.0] * n_other, A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs")
    if res.status != 0:
        raise HiddenUnavailable(f"HiGHS did not solve the sequence-form program: {res.message}")
    return sign * -res.fun, list(res.x[:n_me])


class SolvedGame:
    """A game with both players' optimal realisation plans and its value (for the maximiser)."""

    def __init__(self, game: HiddenGame, value: float, plans: tuple[list[float], list[float]], dual: float):
        self.game = game
        self.value = value
        self.plans = plans
        self.dual = dual                # the minimiser's program's value: equal to ``value`` up to the LP's precision


def solve_game(game: HiddenGame) -> SolvedGame:
    """Both programs of ``game``."""
    v1, x = _program(game, 0)
    v2, y = _program(game, 1)
    return SolvedGame(game, v1, (x, y), v2)


def forced_value(game: HiddenGame, node: InfoSet, k: int) -> float:
    """The game value when the maximiser's information set ``node`` (reached with his empty past) plays its
    ``k``-th move."""
    fixed = {s: (1.0 if i == k else 0.0) for i, s in enumerate(node.seqs)}
    return _program(game, 0, fixed)[0]


def behaviour(node: InfoSet, plan: list[float]) -> list[float]:
    """The probability of each move of ``node`` under the realisation ``plan`` (uniform where the plan never
    reaches it)."""
    reach = plan[node.parent]
    if reach <= 1e-12:
        return [1.0 / len(node.seqs)] * len(node.seqs)
    probs = [max(0.0, plan[s]) / reach for s in node.seqs]
    total = sum(probs)
    return [p / total for p in probs]


def best_response(game: HiddenGame, plan: list[float], fixed: int) -> float:
    """The value (for the maximiser) when player ``fixed`` plays ``plan`` and the other answers best: the
    other's information sets are decided from the last to the first (each one's sequences come after its
    parent's), each choosing the move whose continuation is best for him."""
    other = 1 - fixed
    best = max if other == 0 else min
    gains = [0.0] * game.seq_counts[other]
    for (s1, s2), w in game.payoff.items():
        mine, theirs = (s1, s2) if fixed == 0 else (s2, s1)
        gains[theirs] += plan[mine] * w
    for node in reversed(game.infosets[other]):
        gains[node.parent] += best(gains[s] for s in node.seqs)
    return gains[0]
