"""The exact search on Cuban double-nine deals (issue 56, item 2): is every decision valued at the defaults?

    python bench/bench_cuban.py                  # 20 deals of each game
    python bench/bench_cuban.py --deals 5

For each seeded deal of the ``cuban`` variant (double-nine, 10 tiles to each of four players, 15 out of play)
a random legal hand is played out (``analyzer.generate.random_game``, seeded) and analysed as a user's record
is (``analyze_replay`` at the defaults: ``analyzer.search.NODE_LIMIT`` positions a decision). Measured:

(a) a decision: the int solver's ``values`` of every alternative at each decision of the hand, one solver for
    the hand as the analysis uses it: the seconds each takes, and the positions a second (``Solver.nodes``);
(b) a hand: ``analyze_replay`` of the whole record (every decision and the running value);
(c) what the analysis gives at each decision: every alternative exact, or proven bounds with a best move
    named, or nothing (a decision left without a value or bounds: the count must be 0).

Baseline, measured in the same run: the partnership game (double-six, 7 each, all 28 dealt) on deals of the
same seeds; the figures for double-nine are also shown as ratios to it (the machine is shared, so only the
ratios of one run compare).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.analysis import analyze_replay  # noqa: E402
from analyzer.generate import random_game  # noqa: E402
from analyzer.replay import replay  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402
from analyzer.search.block import Solver  # noqa: E402
from analyzer.search.core import SearchLimit  # noqa: E402


def measure(variant, seed: int) -> dict:
    game = random_game(variant, seed)
    rep = replay(game, variant)
    assert rep.valid, [d.message for d in rep.errors]
    solver = Solver(variant)
    position = rep.initial.copy()
    times, nodes, limited = [], 0, 0
    for step in rep.steps:
        if len(position.legal_moves()) > 1:
            t0 = time.perf_counter()
            try:
                solver.values(position)
            except SearchLimit:
                limited += 1
            times.append(time.perf_counter() - t0)
            nodes += solver.nodes
        position.push(step.move)
    t0 = time.perf_counter()
    analysis = analyze_replay(rep)
    hand = time.perf_counter() - t0
    exact = bounded = empty = 0
    for d in analysis.decisions:
        if all(a.value is not None for a in d.alternatives):
            exact += 1
        elif all(a.value is not None or a.bounds is not None for a in d.alternatives) and any(a.best for a in
                                                                                               d.alternatives):
            bounded += 1
        else:
            empty += 1
    return dict(times=times, nodes=nodes, search=sum(times), limited=limited, hand=hand, exact=exact,
                bounded=bounded, empty=empty)


def summary(name: str, rows: list[dict]) -> dict:
    times = [t for r in rows for t in r["times"]]
    hands = [r["hand"] for r in rows]
    out = dict(name=name, decisions=len(times), rate=sum(r["nodes"] for r in rows) / max(1e-9, sum(r["search"]
                                                                                                   for r in rows)),
               d_median=statistics.median(times), d_worst=max(times), h_median=statistics.median(hands),
               h_worst=max(hands), exact=sum(r["exact"] for r in rows), bounded=sum(r["bounded"] for r in rows),
               empty=sum(r["empty"] for r in rows), limited=sum(r["limited"] for r in rows))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    games = [("partnership (baseline)", find_variant("partnership")), ("cuban double-nine", find_variant("cuban"))]
    results = []
    for name, variant in games:
        rows = [measure(variant, args.seed + k) for k in range(args.deals)]
        results.append(summary(name, rows))
    base = results[0]
    print(f"{args.deals} random deals each (seeds {args.seed}..{args.seed + args.deals - 1}), defaults "
          "(analyzer.search.NODE_LIMIT positions a decision)")
    print(f"{'game':24} {'decisions':>9} {'positions/s':>12} {'decision median':>16} {'worst':>9} "
          f"{'hand median':>12} {'worst':>9} {'exact':>6} {'bounds':>7} {'none':>5} {'over limit':>10}")
    for r in results:
        print(f"{r['name']:24} {r['decisions']:>9} {r['rate']:>12,.0f} {r['d_median'] * 1e3:>13.2f} ms "
              f"{r['d_worst']:>7.3f} s {r['h_median']:>10.2f} s {r['h_worst']:>7.2f} s {r['exact']:>6} "
              f"{r['bounded']:>7} {r['empty']:>5} {r['limited']:>10}")
    r = results[1]
    print(f"ratios, double-nine / baseline: decision median {r['d_median'] / base['d_median']:.1f}x, worst "
          f"{r['d_worst'] / base['d_worst']:.1f}x; hand median {r['h_median'] / base['h_median']:.1f}x, worst "
          f"{r['h_worst'] / base['h_worst']:.1f}x; positions a second {r['rate'] / base['rate']:.2f}x")


if __name__ == "__main__":
    main()
