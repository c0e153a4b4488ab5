"""The range tree's building (``analyzer.hidden.ranges.build_ranges``) on the CFR+ study's decisions, against another
source tree in the same run, or (``--python``) the compiled build against the Python build in the same process (issue
85: the build's seconds come out of a decision's budget).

The decisions are ``bench_cfr_study.py``'s (seed 85): of each random game of block for two, the first decision with a
choice where the larger hand holds ``--size`` tiles, ``--decisions`` of them. Each tree builds every decision's range
tree in a process of its own, ``--rounds`` times alternating with the other (the best CPU seconds of each kept), and
says what it built: its public nodes, its table's entries, and a digest of every array a run reads (each node's table
of values read through ``table_at``, so two trees that store their tables differently but value every node alike have
the same digest). Columns: the deals, the nodes, the table's entries (before/this), the CPU seconds of each and their
ratio, and whether both built the same tree. With ``--python``: the Python build (``compiled=False``, the reference)
against the compiled one (``_ranges_kernel.c``) of this tree, one after the other on each decision.

    nice -n 10 python3 bench/bench_cfr_build.py --before DIR [--decisions 6] [--size 3] [--rounds 2]
    nice -n 10 python3 bench/bench_cfr_build.py --python [--decisions 6] [--size 3] [--rounds 2]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from in_tree import in_tree  # noqa: E402

HERE = Path(__file__).resolve().parents[1]


def worker(decisions: int, size: int, seed: int, python: bool = False, budget: float | None = None) -> None:
    """Build each decision's tree with the analyzer on ``sys.path`` (the tree under test); one JSON line each (with
    ``python``: a line of the Python build's, then one of the compiled build's; the Python build stopped past
    ``budget`` CPU seconds, its line then without a tree)."""
    import time

    from analyzer.analysis.fair import _decision_points
    from analyzer.generate import random_game
    from analyzer.hidden import public_ranges
    from analyzer.hidden.ranges import BuildTooLong, build_ranges
    from analyzer.replay import replay
    from analyzer.rules.variants import find_variant

    variant = find_variant("block", {"players": "2"})
    found = 0
    for g in range(400):
        if found >= decisions:
            break
        rep = replay(random_game(variant, seed * 100_003 + g))
        for k, seat, moves in _decision_points(rep, [0, 1]):
            pos = rep.position_at(k)
            if len(moves) < 2 or moves != pos.legal_moves() or max(pos.count(0), pos.count(1)) != size:
                continue
            pos, ranges = public_ranges(rep, k)
            for compiled in ((False, True) if python else (None,)):
                kw = {} if compiled is None else {"compiled": compiled}
                if compiled is False and budget is not None:
                    kw["budget"] = budget
                start = time.process_time()
                try:
                    t = build_ranges(variant, pos, pos.turn, (ranges[pos.turn], ranges[1 - pos.turn]), **kw)
                except BuildTooLong:
                    print(json.dumps({"seconds": None, "budget": budget}), flush=True)
                    continue
                took = time.process_time() - start
                print(json.dumps(_described(t, took)), flush=True)
            found += 1
            break


def _described(t, took: float) -> dict:
    """A built tree's counts, seconds and digest."""
    import hashlib
    from array import array

    digest = hashlib.sha256()
    for a in (*t.cmasks, t.player, t.child_at, t.child, *t.played, *t.alive_at, *t.alive, *t.term_at,
              *t.term_hand, *t.term_class, t.width, t.iset_at, t.iset_hand, t.slot, t.legal):
        digest.update(a.tobytes())
    for n in range(t.nodes):
        rows = max(t.term_class[0][t.term_at[0][n]:t.term_at[0][n + 1]], default=-1) + 1
        digest.update(array("d", t.table[t.table_at[n]:t.table_at[n] + rows * t.width[n]]).tobytes())
    digest.update(repr((t.weight, t.norm, t.size, t.deals, [list(m) for m in t.moves])).encode())
    return {"deals": t.deals, "nodes": t.nodes, "table": len(t.table), "seconds": took,
            "digest": digest.hexdigest()}


def run(tree: Path, args) -> list[dict]:
    return in_tree(tree, "bench_cfr_build", f"worker({args.decisions}, {args.size}, {args.seed})")


def run_both(args) -> dict[str, list[dict]]:
    """This tree's Python and compiled builds of each decision, in one process."""
    got = in_tree(HERE, "bench_cfr_build",
                  f"worker({args.decisions}, {args.size}, {args.seed}, python=True, budget={args.python_budget})")
    return {"python": got[0::2], "compiled": got[1::2]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="the other source tree (its cores built)")
    ap.add_argument("--python", action="store_true", help="this tree's Python build against its compiled build")
    ap.add_argument("--python-budget", type=float, help="with --python: the Python build stopped past these CPU s")
    ap.add_argument("--decisions", type=int, default=6)
    ap.add_argument("--size", type=int, default=3, help="the larger hand's tiles")
    ap.add_argument("--rounds", type=int, default=2, help="alternating runs of each tree (the best kept)")
    ap.add_argument("--seed", type=int, default=85)
    args = ap.parse_args()
    if args.python:
        print(f"range tree build, block for two, {args.size} tiles a hand, seed {args.seed}, load "
              f"{os.getloadavg()[0]:.1f}; before = this tree's Python build, this = its compiled build "
              f"(_ranges_kernel.c); best of {args.rounds} runs (CPU s)")
    elif args.before is None:
        ap.error("--before DIR or --python")
    else:
        print(f"range tree build, block for two, {args.size} tiles a hand, seed {args.seed}, load "
              f"{os.getloadavg()[0]:.1f}; before = {args.before.resolve()}; best of {args.rounds} alternating runs "
              f"(CPU s)")
    trees = {"both": HERE} if args.python else {"before": args.before.resolve(), "this": HERE}
    best: dict[str, list[dict]] = {}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            runs = ({"before": (b := run_both(args))["python"], "this": b["compiled"]} if args.python
                    else {name: run(tree, args)})
            for name, got in runs.items():
                _keep_best(best, name, got)
    _table(best)


def _keep_best(best: dict, name: str, got: list[dict]) -> None:
    """``got`` (a tree's decisions) into ``best``: each decision's least CPU seconds."""
    if name not in best:
        best[name] = got
    else:
        for old, new in zip(best[name], got):
            old["seconds"] = min(old["seconds"], new["seconds"])


def _table(best: dict) -> None:
    """The table of each decision, before against this (a build stopped past its budget: ``>S`` seconds)."""
    print(f"{'deals':>8} {'nodes':>9} {'table before/this':>20} {'before s':>9} {'this s':>7} {'ratio':>7} same tree")
    for b, t in zip(best["before"], best["this"]):
        if b["seconds"] is None:
            print(f"{t['deals']:>8,} {t['nodes']:>9,} {'-':>10}/{t['table']:<9,} {'>' + format(b['budget'], '.0f'):>9} "
                  f"{t['seconds']:>7.3f} {'>' + format(b['budget'] / max(t['seconds'], 1e-6), '.0f') + 'x':>7} -")
            continue
        print(f"{b['deals']:>8,} {b['nodes']:>9,} {b['table']:>10,}/{t['table']:<9,} {b['seconds']:>9.3f} "
              f"{t['seconds']:>7.3f} {b['seconds'] / max(t['seconds'], 1e-6):>6.1f}x "
              f"{'yes' if b['digest'] == t['digest'] else 'NO'}")
    pairs = [(b, t) for b, t in zip(best["before"], best["this"]) if b["seconds"] is not None]
    if not pairs:
        return
    total = [sum(r["seconds"] for r in side) for side in zip(*pairs)]
    ratios = [b["seconds"] / max(t["seconds"], 1e-6) for b, t in pairs]
    print(f"in all (the {len(pairs)} both built): before {total[0]:.2f} s, this {total[1]:.2f} s "
          f"({total[0] / max(total[1], 1e-6):.1f}x); by decision median {statistics.median(ratios):.1f}x")


if __name__ == "__main__":
    main()
