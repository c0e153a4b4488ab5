"""The power of the suite's whole-match agreement tests: how far off an MWC table must be for the test to fail.

    python3 bench/bench_power.py [--quick]

Each of these tests plays ``n`` whole matches from a position with the match code and fails when a player's
share of them lies further than ``4 sigma + c`` from the table's chance ``p`` (``sigma`` the binomial error
of ``n`` matches at ``p``). A table that is off by ``x`` at that position fails the test with the probability

    P(x) = Phi((x - tol) / s) + Phi((-x - tol) / s)      (tol = 4 sigma(p + x) + c, s = sigma(p))

(the share normal about the true chance ``p``). For each test the script prints the smallest ``x`` it finds
with P(x) >= 0.95, at the test's ``n`` and at half of it, and the shifts that some defects make at the
tested position, read off the shipped tables and off tables solved with the defect: the first hand led
by the first seat instead of the holder of the highest double (any player alike), a running score one
game or one step off, the target one step off, each hand's result credited to the player after the one
who made it (the model turned by a seat). A defect whose shift is below the smallest ``x`` goes unseen
more often than one time in twenty. ``--quick`` leaves out the two tables solved to another target
(some 25 s of CPU).

The figures are the statistic's; the tests are seeded, so each run draws the same matches."""
from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.equity import MatchPosition, load_table  # noqa: E402
from analyzer.equity.model import ModeSample  # noqa: E402
from analyzer.equity.race import solve_race  # noqa: E402
from analyzer.equity.table import solve_each, state_key  # noqa: E402
from analyzer.rules import MatchState, find_variant  # noqa: E402


def _phi(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def fails(x: float, p: float, n: int, c: float) -> float:
    """The chance that the test fails when the table says ``p + x`` and the matches' true chance is ``p``."""
    q = min(max(p + x, 0.0), 1.0)
    tol = 4 * math.sqrt(q * (1 - q) / n) + c
    s = math.sqrt(p * (1 - p) / n)
    return _phi((x - tol) / s) + _phi((-x - tol) / s)


def smallest(p: float, n: int, c: float, power: float = 0.95) -> float:
    """The smallest shift (either way) the test sees with ``power``."""
    x = 0.0
    while fails(x, p, n, c) < power and fails(-x, p, n, c) < power:
        x += 0.0005
    return x


def turned(model):
    """``model`` with each hand's result credited one seat on from the player who made it."""
    modes = {}
    for mode, sample in model.modes.items():
        out = Counter()
        for o, w in sample.outcomes.items():
            n = len(o.scores)
            out[dataclasses.replace(o, winner=None if o.winner is None else (o.winner + 1) % n,
                                    scores=tuple(o.scores[(s - 1) % n] for s in range(n)))] += w
        modes[mode] = ModeSample(sum(out.values()), out)
    return dataclasses.replace(model, modes=modes)


def report(test: str, p: float, n: int, c: float, defects: list[tuple[str, float]]) -> None:
    print(f"\n{test}\n    p = {p:.4f}, {n} matches, tolerance 4 sigma + {c:g}: fails with probability >= 0.95 "
          f"when the table is off by {smallest(p, n, c):.3f} (at {n // 2} matches: {smallest(p, n // 2, c):.3f})")
    for name, shift in defects:
        print(f"    {name:58s} shift {shift:+.4f}: seen with probability {fails(shift, p, n, c):.2f} "
              f"({fails(shift, p, n // 2, c):.2f} at {n // 2})")


def cut_throat_fresh() -> None:
    v = find_variant("cutthroat", {"players": "3"})
    table = load_table(v)

    def at(scores, lead):
        return table.chances(MatchPosition(MatchState(tuple(scores), (0,) * 3, 1, last=0), ("side", lead)))[0]
    p = at((2, 0, 0), 0)
    key = (state_key(v, MatchState((2, 0, 0), (0,) * 3, 1, last=0)), ("side", 0))
    report("test_equity_individual.py::test_dp_agrees_with_whole_matches_of_freshly_played_hands (cut throat "
           "for three, 2-0-0, the first player to lead)", p, 400, 0.01,
           [("the second player to lead", at((2, 0, 0), 1) - p),
            ("a game less for the first player (1-0-0)", at((1, 0, 0), 0) - p),
            ("a game more for the first player (3-0-0)", at((3, 0, 0), 0) - p),
            ("a game more for the second player (2-1-0)", at((2, 1, 0), 0) - p),
            ("each hand's result credited one seat on (the DP)", solve_each(v, turned(table.model), [key])[key][0] - p)])


def all_fives_for_four(quick: bool) -> None:
    v = find_variant("all-fives", {"players": "4"})
    table = load_table(v)

    def at(scores, lead, variant=v):
        return table.chances(MatchPosition(MatchState(tuple(scores), (0,) * 4, 1), lead))
    for scores in ((0, 0, 0, 0), (80, 55, 70, 60)):
        want = at(scores, ("any",))
        first = at(scores, ("side", 0))
        k = max(range(4), key=lambda s: abs(first[s] - want[s]))
        defects = [(f"the first seat to lead (player {k}, the largest shift)", first[k] - want[k])]
        if scores != (0, 0, 0, 0):
            step = tuple(s + 5 * (i == 0) for i, s in enumerate(scores))
            defects.append(("five points more for player 0", at(step, ("any",))[0] - want[0]))
            if not quick:
                for target in (95, 105):
                    w = find_variant("all-fives", {"players": "4", "target": str(target)})
                    key = (state_key(w, MatchState(tuple(scores), (0,) * 4, 1)), ("any",))
                    got = solve_race(w, table.model, roots=[key])[key]
                    defects.append((f"the target {target} (player 0)", got[0] - want[0]))
        report(f"test_equity_race.py::test_the_shipped_all_fives_for_four_table_agrees_with_whole_matches "
               f"[{'-'.join(map(str, scores))}] (player {k if scores == (0, 0, 0, 0) else 0})",
               want[k if scores == (0, 0, 0, 0) else 0], 2000, 2e-3,
               [(name, shift) for name, shift in defects])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="no table solved to another target")
    options = parser.parse_args()
    cut_throat_fresh()
    all_fives_for_four(options.quick)


if __name__ == "__main__":
    main()
