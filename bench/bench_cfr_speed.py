"""The CFR solver's iterations and CPU seconds to close a decision, against another source tree in the same run
(issue 85: the 3-tile decisions of block for two that did not close within their 20-second budget).

The decisions are ``bench_cfr_study.py``'s (seed 85): of each random game of block for two, the first decision with a
choice where the larger hand holds ``--size`` tiles, ``--decisions`` of them. Each tree values every decision by
``cfr_decision`` (the study's call: each seat's possible hands, ``hiddenfair.cfr_budget`` CPU seconds, every bracket to
0.001 points a deal of the mover's hand) in a process of its own, the trees one after the other. Columns: the deals;
for each tree whether every bracket closed, the iterations of all its solves, the CPU seconds of the decision (the
tree's building too) and the widest bracket a deal of the mover's hand; the ratio of the seconds (before / this) and
whether the two trees' brackets overlap (each holds the exact value: two that do not overlap are a bug).

With ``--min-deals N`` only the decisions with at least ``N`` deals count (the first ``--decisions`` of them): e.g.
247520, the 3-and-3 decisions whose hands are drawn from 17 tiles or more. With ``--deals`` each decision is solved on
the tree over its deals listed (every disjoint pair of the two seats' hands, ``by_deals``) instead of over the hands:
the kernel's other form (keep ``--size`` small: 2 tiles are at most some 20,000 deals).

    nice -n 10 python3 bench/bench_cfr_speed.py --before DIR [--decisions 6] [--size 3] [--min-deals N] [--deals]
"""
from __future__ import annotations

import argparse
import json
import sys
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from in_tree import in_tree  # noqa: E402

HERE = Path(__file__).resolve().parents[1]


def worker(decisions: int, size: int, seed: int, min_deals: int = 0, by_deals: bool = False) -> None:
    """Value each decision with the analyzer on ``sys.path`` (the tree under test); one JSON line each."""
    import analyzer  # noqa: F401  (the tree under test's, before bench_cfr_study puts this one on the path)
    from bench_cfr_study import endgame

    from analyzer.analysis.hiddenfair import cfr_budget
    from analyzer.hidden import public_ranges
    from analyzer.hidden.cfr import BuildTooLong, cfr_decision
    from analyzer.hidden.ranges import disjoint_pairs
    from analyzer.rules.variants import find_variant

    variant = find_variant("block", {"players": "2"})
    found = (e for e in (endgame(variant, size, seed, g) for g in range(400)) if e is not None)
    wanted = ((rep, k, public_ranges(rep, k)) for rep, k, _ in found)
    for rep, k, (pos, ranges) in islice((w for w in wanted if disjoint_pairs(*w[2][1]) >= min_deals), decisions):
        deals = len(ranges[0]) * len(ranges[1])
        try:
            if by_deals:
                listed = [(a, b) for a in ranges[0] for b in ranges[1] if not a & b]
                d = cfr_decision(variant, pos, listed, masks=True, by_deals=True, budget=cfr_budget(size))
            else:
                d = cfr_decision(variant, pos, ranges=ranges, budget=cfr_budget(size))
        except BuildTooLong:
            print(json.dumps({"deals": deals, "closed": False, "iterations": 0, "seconds": None}), flush=True)
            continue
        brackets = [d.bounds, *((lo, up) for _, lo, up in d.move_bounds)]
        print(json.dumps({"deals": d.deals, "closed": d.closed, "iterations": d.iterations, "seconds": d.seconds,
                          "width": max(up - lo for lo, up in brackets) / d.reach,
                          "brackets": [[lo / d.reach, up / d.reach] for lo, up in brackets]}), flush=True)


def run(tree: Path, args) -> list[dict]:
    return in_tree(tree, "bench_cfr_speed",
                   f"worker({args.decisions}, {args.size}, {args.seed}, {args.min_deals}, {args.deals})")


def overlap(a: dict, b: dict) -> bool:
    """Whether every bracket of ``a`` meets the same value's of ``b`` (within rounding)."""
    if "brackets" not in a or "brackets" not in b:
        return True
    return all(lo1 <= up2 + 1e-9 and lo2 <= up1 + 1e-9 for (lo1, up1), (lo2, up2) in zip(a["brackets"], b["brackets"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, required=True, help="the other source tree (its cores built)")
    ap.add_argument("--decisions", type=int, default=6)
    ap.add_argument("--size", type=int, default=3, help="the larger hand's tiles")
    ap.add_argument("--seed", type=int, default=85)
    ap.add_argument("--min-deals", type=int, default=0, help="only decisions with at least this many deals")
    ap.add_argument("--deals", action="store_true", help="the tree over the deals listed, not over the hands")
    args = ap.parse_args()
    before, this = run(args.before.resolve(), args), run(HERE, args)

    def cells(r: dict) -> str:
        if r["seconds"] is None:
            return f"{'build':>6} {'-':>8} {'-':>7} {'-':>9}"
        return (f"{'yes' if r['closed'] else 'no':>6} {r['iterations']:>8,} {r['seconds']:>7.1f} "
                f"{r['width']:>9.5f}")

    print(f"block for two, {args.size} tiles, seed {args.seed}"
          + (f", {args.min_deals:,} deals or more" if args.min_deals else "")
          + (", the tree over the deals listed" if args.deals else "")
          + f": before {args.before} against this tree ({HERE})")
    print(f"{'deals':>9} | {'closed':>6} {'iter':>8} {'s':>7} {'width':>9} | {'closed':>6} {'iter':>8} {'s':>7} "
          f"{'width':>9} | {'s ratio':>7} {'agree':>5}")
    for b, t in zip(before, this):
        ratio = b["seconds"] / t["seconds"] if b["seconds"] and t["seconds"] else float("nan")
        print(f"{t['deals']:>9,} | {cells(b)} | {cells(t)} | {ratio:>6.2f}x {'yes' if overlap(b, t) else 'NO':>5}")
    done = [(b, t) for b, t in zip(before, this) if b["seconds"] and t["seconds"]]
    print(f"total CPU s: before {sum(b['seconds'] for b, _ in done):.1f}, "
          f"this {sum(t['seconds'] for _, t in done):.1f}; "
          f"closed: before {sum(b['closed'] for b in before)}/{len(before)}, this {sum(t['closed'] for t in this)}"
          f"/{len(this)}")


if __name__ == "__main__":
    main()
