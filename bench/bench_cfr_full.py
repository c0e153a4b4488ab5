"""The CFR solver on the study's full-pool three-tile decisions of block for two (issue 85): each valued by
``cfr_decision`` with ``--budget`` CPU seconds, whether its brackets closed (0.001 points a deal of the mover's
hand), its iterations, CPU seconds, widest bracket (the game's and each move's) a deal of the mover's hand, moves
and the run's memory.

The decisions are ``bench_cfr_study.py``'s (seed 85): of each random game, the first decision with a choice where the
larger hand holds 3 tiles, those with at least ``--min-deals`` public deals (247,520: 3 and 3 tiles drawn from 17 or
more), the first ``--decisions`` of them. One line a decision, then the total.

    nice -n 10 python3 bench/bench_cfr_full.py [--budget 20] [--decisions 8] [--min-deals 247520]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=20.0)
    ap.add_argument("--decisions", type=int, default=8)
    ap.add_argument("--min-deals", type=int, default=247_520)
    ap.add_argument("--seed", type=int, default=85)
    args = ap.parse_args()

    from bench_cfr_study import endgame

    from analyzer.hidden import public_ranges
    from analyzer.hidden.cfr import cfr_decision
    from analyzer.hidden.ranges import disjoint_pairs
    from analyzer.rules.variants import find_variant

    variant = find_variant("block", {"players": "2"})
    print(f"block for two, 3 tiles, seed {args.seed}, {args.min_deals:,} deals or more, {args.budget:g} CPU s each")
    print(f"{'deals':>8} | {'closed':>6} | {'iter':>5} | {'CPU s':>5} | {'widest':>7} | {'moves':>5} | {'MB':>4}")
    done, total = 0, 0.0
    for game in range(20_000):
        found = endgame(variant, 3, args.seed, game)
        if found is None:
            continue
        rep, k, _ = found
        pos, ranges = public_ranges(rep, k)
        if disjoint_pairs(ranges[pos.turn], ranges[1 - pos.turn]) < args.min_deals:
            continue
        start = time.process_time()
        d = cfr_decision(variant, pos, ranges=ranges, budget=args.budget)
        took = time.process_time() - start
        total += took
        widest = d.width()
        print(f"{d.deals:>8,} | {'yes' if d.closed else 'no':>6} | {d.iterations:>5} | {took:5.1f} | {widest:7.5f} | "
              f"{len(d.moves):>5} | {d.memory / 1e6:4.0f}", flush=True)
        done += 1
        if done == args.decisions:
            break
    print(f"total {total:.1f} CPU s")


if __name__ == "__main__":
    main()
