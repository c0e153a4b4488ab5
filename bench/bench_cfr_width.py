"""What the CFR+ solver's precision costs (issue 85): each decision valued to 0.001 points a deal of the mover's hand
(``hidden.cfr.TOL``, what the fair analysis asked until the twenty-first session) and to 0.01 (``CFR_SHOWN``: the
values are shown to two decimals), with the same budget, side by side.

The decisions are ``bench_cfr_study.py``'s (seed 85): of each random game of block for two, the first decision with a
choice where the larger hand holds exactly H tiles, taken from that study's saved rows (``--rows``: the games whose
row says "solved" or "open", so that a decision refused by the memory cap costs nothing here), up to ``--decisions``
of them, in the rows' order. Each is valued by ``cfr_decision`` over each player's possible hands with the analysis's
budget (``cfr_budget``; with ``cfr_grace`` where its brackets are still wider than ``CFR_SHOWN`` at its end) and memory
cap, once with ``tol=0.001`` and once with ``tol=0.01``, the order alternating from one decision to the next (the
machine's load falls on both alike).

Columns: the game, the tiles, the deals; for each precision the CPU seconds, the iterations, whether every bracket
closed to it and the widest (points a deal of the mover's hand); the ratio of the seconds; then the verdicts: ``best``
names the move whose bracket lies above every other's (told apart: ``hiddenfair.told_apart``), ``-`` where none does;
``same`` says whether the two name the same best (or both none); ``overlap`` whether each move's two brackets
overlap (both hold its value: they must); ``moved`` the largest gap between a move's two values shown (points a deal
of the mover's hand: his hand's value under the strategies found, an uncertified level, less the move's certified
loss); ``gaps`` the largest change of the gap between two moves' values (the level cancels: what the brackets
certify, each to its width).

``--only 0.01`` values each decision to that width alone (the study's row gives the other); ``--any`` takes the
decisions the study's cap refused too, and ``--memory 0`` lifts the cap.

    nice -n 5 python3 bench/bench_cfr_width.py --rows bench/timings/cfr-study-85-100-shown.jsonl [--size 3]
        [--decisions 20] [--budget SECONDS] [--games G,...] [--only 0.01] [--any] [--memory MB]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from analyzer.analysis.hiddenfair import CFR_MEMORY, CFR_SHOWN, cfr_budget, cfr_grace, told_apart  # noqa: E402
from analyzer.hidden import public_ranges  # noqa: E402
from analyzer.hidden.cfr import TOL, TreeTooLarge, cfr_decision  # noqa: E402
from analyzer.hidden.ranges import BuildTooLong, disjoint_pairs  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402
from bench_cfr_study import endgame, load  # noqa: E402


def verdict(solved, sign: int):
    """The best told apart from every other move (None: none is), and each move's midpoint per deal of his hand."""
    mid = dict(solved.hand_values())
    best = max(mid, key=lambda m: sign * mid[m])
    apart = told_apart(solved, best, sign)
    return (best if apart is not None and len(apart) == len(mid) - 1 else None), mid


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=Path, nargs="+", required=True, help="bench_cfr_study.py's rows")
    ap.add_argument("--size", type=int, default=3, help="the larger hand's tiles")
    ap.add_argument("--decisions", type=int, default=20)
    ap.add_argument("--budget", type=float, default=None, help="CPU seconds a decision (default: the analysis's)")
    ap.add_argument("--skip", type=int, default=0, help="leave out the first this many decisions of the rows")
    ap.add_argument("--games", default=None, help="these games alone (comma-separated), in the rows' order")
    ap.add_argument("--only", type=float, default=None, help="one precision alone (0.01: the open ones' question)")
    ap.add_argument("--memory", type=int, default=CFR_MEMORY >> 20,
                    help="the tree's memory cap, MB (default the analysis's; 0: none)")
    ap.add_argument("--any", action="store_true", help="the rows past the memory cap too")
    args = ap.parse_args()
    variant = find_variant("block", {"players": "2"})
    rows = [r for path in args.rows for r in load(path)
            if r.get("kind") == "decision" and r["size"] == args.size
            and r["status"] in ("solved", "open") + (("too large",) if args.any else ())]
    if args.games is not None:
        rows = [r for r in rows if r["game"] in set(map(int, args.games.split(",")))]
    rows = rows[args.skip:args.skip + args.decisions]
    print(f"block for two, seed 85, {args.size} tiles: each decision to {TOL:g} and to {CFR_SHOWN:g} points a deal "
          f"of the mover's hand, the analysis's budget")
    print(f"{'game':>5} {'tiles':>5} {'deals':>9} | {'s':>7} {'iter':>6} {'closed':>6} {'width':>8} | "
          f"{'s':>7} {'iter':>6} {'closed':>6} {'width':>8} | {'ratio':>6} {'best 0.001':>12} {'best 0.01':>12} "
          f"{'same':>4} {'overlap':>7} {'moved':>7} {'gaps':>7}")
    totals = [0.0, 0.0]
    for j, row in enumerate(rows):
        rep, k, seat = endgame(variant, args.size, row["seed"], row["game"])
        pos, ranges = public_ranges(rep, k)
        most, deals = max(pos.count(0), pos.count(1)), disjoint_pairs(*ranges)
        budget = cfr_budget(most, deals) if args.budget is None else args.budget
        grace = cfr_grace(most, deals) if args.budget is None else 0.0
        sign = 1 if rep.variant.seating.teams[seat] == 0 else -1
        got = {}
        tols = (TOL, CFR_SHOWN) if j % 2 == 0 else (CFR_SHOWN, TOL)
        for tol in tols if args.only is None else (args.only,):
            start = time.process_time()
            try:
                solved = cfr_decision(rep.variant, pos, ranges=ranges, tol=tol, budget=budget,
                                      memory=(args.memory << 20) or None, shown=CFR_SHOWN, grace=grace)
            except (TreeTooLarge, BuildTooLong) as exc:
                print(f"{row['game']:>5} {type(exc).__name__}", flush=True)
                break
            got[tol] = (solved, time.process_time() - start)
        if args.only is not None and got:
            solved, took = got[args.only]
            best, _ = verdict(solved, sign)
            print(f"{row['game']:>5} {'/'.join(map(str, (pos.count(0), pos.count(1)))):>5} {solved.deals:>9,} | "
                  f"{took:>7.1f} {solved.iterations:>6} {'yes' if solved.closed else 'no':>6} {solved.width():>8.5f} "
                  f"| {str(best) if best else '-':>12} (to {args.only:g} alone; the study's row: {row['status']}, "
                  f"{row['time']:.1f} s)", flush=True)
            continue
        if len(got) < 2:
            continue
        (fine, s1), (coarse, s2) = got[TOL], got[CFR_SHOWN]
        totals[0] += s1
        totals[1] += s2
        b1, m1 = verdict(fine, sign)
        b2, m2 = verdict(coarse, sign)
        overlap = all(max(lo1, lo2) <= min(hi1, hi2) + 1e-12 for (_, lo1, hi1), (_, lo2, hi2)
                      in zip(fine.move_bounds, coarse.move_bounds))
        moved = max(abs(m1[m] - m2[m]) for m in m1)
        first = next(iter(m1))          # (the gaps between moves: his hand's value, the strategies' level, cancels)
        gaps = max(abs((m1[m] - m1[first]) - (m2[m] - m2[first])) for m in m1)
        print(f"{row['game']:>5} {'/'.join(map(str, (pos.count(0), pos.count(1)))):>5} {fine.deals:>9,} | "
              f"{s1:>7.1f} {fine.iterations:>6} {'yes' if fine.closed else 'no':>6} {fine.width():>8.5f} | "
              f"{s2:>7.1f} {coarse.iterations:>6} {'yes' if coarse.closed else 'no':>6} {coarse.width():>8.5f} | "
              f"{s1 / max(s2, 1e-9):>5.1f}x {str(b1) if b1 else '-':>12} {str(b2) if b2 else '-':>12} "
              f"{'yes' if b1 == b2 else 'NO':>4} {'yes' if overlap else 'NO':>7} {moved:>7.4f} {gaps:>7.4f}",
              flush=True)
    print(f"CPU s in all: {totals[0]:.1f} to {TOL:g}, {totals[1]:.1f} to {CFR_SHOWN:g} "
          f"({totals[0] / max(totals[1], 1e-9):.2f}x)")


if __name__ == "__main__":
    main()
