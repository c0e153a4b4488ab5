"""Benchmark the general exact search (``analyzer.search``) on the games the int solver does not play.

    python bench/bench_search.py                  # 6 deals a game, a few minutes
    python bench/bench_search.py --deals 3 --repeat 1

For each game below, seeded random legal hands come from ``analyzer.match.random_match`` (a random
legal move at every turn, seeded per deal). Measured, best of ``--repeat`` runs per deal (the
machine is shared; the best run is the least disturbed one), each with a fresh search:

(a) ``solve``: the value of the position after the lead, the whole hand ahead;
(b) the whole-record analysis (``analyze_replay``: every alternative's value at every decision,
    the value after every move), as ``domino analyze`` does it;
(c) for the layouts with arms, the baseline of (a): the same search with its compiled state for arms
    switched off, so that every node walks ``ArmPosition`` itself (``push``/``pop``/``legal_moves``).
    The two must give the same value; the table shows the ratio (c)/(a).

A deal whose solve (a) needs more positions than the search's node limit (``NODE_LIMIT``) is
counted in the "over the limit" column and left out of the (a) figures; its analysis (b) still
runs, giving every value that fits under the limit.

Individual games (French, Hungarian for 3) are valued for the first player against the rest.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.analysis import AgainstTheRest, _start, analyze_replay  # noqa: E402
from analyzer.match import random_match  # noqa: E402
from analyzer.match import replay_record  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402
from analyzer.search.tree import NODE_LIMIT, SearchLimit, TreeSearch  # noqa: E402
from bench_solver import best_of  # noqa: E402  (bench/ is this script's own directory)

GAMES = [
    # (label, variant name, options, whether to time the baseline (c))
    ("cross (6 each, sleepers drawn)", "cross", {}, True),
    ("cross, no drawing", "cross", {"sleepers": "no"}, True),
    ("french (4 x 7, each alone)", "french", {}, True),
    # the baseline of the double-nine cross needs minutes and gigabytes a deal: not timed
    ("double-nine cross (tree)", "cross", {"set": "9"}, False),
    ("draw, 2 players", "draw", {"players": "2"}, False),
    ("draw, 4 players", "draw", {"players": "4"}, False),
    ("hungarian, 3 players", "hungarian", {"players": "3"}, False),
    ("all fives, 2 players, draw one", "all-fives", {"players": "2"}, False),
    ("all fives and threes, block", "all-fives-threes", {"players": "2", "draw": "no"}, False),
]


def after_lead(rep):
    pos, _ = _start(rep, rep.legal_prefix)
    pos.push(rep.steps[0].move)
    return pos


def rules_of(variant):
    return variant if variant.seating.sides == 2 else AgainstTheRest(variant, 0)


def ms(x: float) -> str:
    return f"{x * 1000:,.0f} ms" if x < 10 else f"{x:,.1f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--baseline-deals", type=int, default=3, help="deals timed with the baseline (c)")
    args = ap.parse_args()
    print(f"# general search: {args.deals} deals a game, best of {args.repeat}, node limit {NODE_LIMIT:,}; "
          f"Python {platform.python_version()}, {os.cpu_count()} cpus")
    print()
    print("| game | solve after the lead: median | worst | over the limit | whole-record analysis: median "
          "| worst | values given | baseline (c) / (a) |")
    print("|---|---|---|---|---|---|---|---|")
    for label, name, options, baseline in GAMES:
        variant = find_variant(name, options)
        solves, analyses, ratios, over, given, total = [], [], [], 0, 0, 0
        for seed in range(args.deals):
            record = random_match(variant, 1000 + seed, games=1)
            (rep,) = replay_record(record)
            assert rep.valid, rep.errors
            pos = after_lead(rep)
            try:
                t_solve, value = best_of(args.repeat, lambda: TreeSearch(rules_of(variant)).solve(pos))
                solves.append(t_solve)
            except SearchLimit:
                over += 1
                value = None
            t_an, result = best_of(args.repeat, lambda: analyze_replay(rep))
            analyses.append(t_an)
            given += sum(v is not None for v in result.values)
            total += len(result.values)
            if value is not None and baseline and seed < args.baseline_deals:
                plain = TreeSearch(rules_of(variant))
                t0 = time.perf_counter()
                assert _generic_value(plain, pos) == value
                ratios.append((time.perf_counter() - t0) / t_solve)
        ratio = f"{statistics.median(ratios):.1f}x (median of {len(ratios)})" if ratios else "-"
        print(f"| {label} | {ms(statistics.median(solves)) if solves else '-'} | {ms(max(solves)) if solves else '-'} "
              f"| {over} | {ms(statistics.median(analyses))} | {ms(max(analyses))} | {given / total:.0%} | {ratio} |",
              flush=True)


def _generic_value(search: TreeSearch, pos) -> int:
    """The value of ``pos`` by the general search with the compiled path for arms switched off."""
    search.arm_state = False
    try:
        return search.solve(pos)
    finally:
        search.arm_state = True


if __name__ == "__main__":
    main()
