"""The memory of the CFR+ study's four-tile trees against the analysis's cap (issue 85): which decisions the cap lets
the solver take, and how far past it the others are.

The decisions are ``bench_cfr_study.py``'s (seed 85, block for two: of random game ``g``, the first decision with a
choice where the larger hand holds ``--size`` tiles), the games given (``--games 2,8,14``) or every game whose row in
the study's ``--rows`` files says "too large". Each is built in a process of its own, as ``cfr_decision`` builds it
(``build_ranges`` over each player's possible hands, by the compiled kernel), and checked as it checks it:

- ``build``: the build stopped by its cap (``max_bytes``: the analysis's ``CFR_MEMORY``; with ``--before DIR``, that
  tree's too, built with half of it, as its ``cfr_decision`` did before the twenty-third session), or with
  ``--uncapped`` none;
- ``memory()``: the bytes the tree and a run of it take (``RangeTree.memory``), against the cap;
- the process's peak resident memory (``ru_maxrss``: the build, its copies and Python's own), and the build's CPU s.

Columns: the game, each side's possible hands, the deals, the nodes, the tree's arrays (GB), a run's slots by legal
move (GB), ``memory()`` (GB), the whole average strategy read out as the solver read it until the twenty-third
session (8 bytes a slot, GB: ``memory()`` was that much more then), the verdict against the cap (``fits``, ``past``:
built, its ``memory()`` past the cap; ``stopped``: the build passed the cap), the build's CPU s and the peak RSS (GB).

    nice -n 10 python3 bench/bench_cfr_memory.py --rows bench/timings/cfr-study-85-4tiles-0.jsonl ... [--uncapped]
    nice -n 10 python3 bench/bench_cfr_memory.py --games 2,34 [--size 4] [--seed 85] [--out FILE.jsonl]
    nice -n 10 python3 bench/bench_cfr_memory.py --games 2,34 --before DIR    (DIR: a tree before the 23rd session)
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from in_tree import in_tree  # noqa: E402

HERE = Path(__file__).resolve().parents[1]


def worker(game: int, size: int, seed: int, uncapped: bool, share: float = 1.0) -> None:
    """One decision's tree, built as ``cfr_decision`` builds it (its build's cap ``share`` of the decision's): one JSON
    line of its figures."""
    import resource
    import time

    from analyzer.analysis.hiddenfair import CFR_MEMORY
    from analyzer.hidden import public_ranges
    from analyzer.hidden.ranges import TreeTooLarge, build_ranges, disjoint_pairs, run_slots
    from analyzer.rules.variants import find_variant
    from bench_cfr_study import endgame

    variant = find_variant("block", {"players": "2"})
    found = endgame(variant, size, seed, game)
    if found is None:
        print(json.dumps({"game": game, "verdict": "none"}))
        return
    rep, k, _ = found
    pos, ranges = public_ranges(rep, k)
    mover = pos.turn
    row = {"game": game, "hands": [len(ranges[mover]), len(ranges[1 - mover])],
           "deals": disjoint_pairs(ranges[mover], ranges[1 - mover]), "cap": CFR_MEMORY}
    start = time.process_time()
    try:
        t = build_ranges(variant, pos, mover, (ranges[mover], ranges[1 - mover]),
                         max_bytes=None if uncapped else int(CFR_MEMORY * share))
    except TreeTooLarge:
        row["verdict"] = "stopped"
    else:
        memory = t.memory()
        row.update(nodes=t.nodes, arrays=t.array_bytes(), slots=run_slots(t), memory=memory, average=8 * t.size,
                   verdict="fits" if memory <= CFR_MEMORY else "past")
    row["build_s"] = round(time.process_time() - start, 2)
    row["rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps(row), flush=True)


def study_games(paths: list[Path]) -> list[int]:
    """The games whose last row in ``paths`` (read in order) says "too large"."""
    last: dict[int, str] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if row.get("kind") == "decision":         # (not a size's count of the games tried)
                last[row["game"]] = row.get("status", "")
    return sorted(g for g, status in last.items() if status == "too large")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=Path, nargs="*", default=[], help="the study's row files: their 'too large' games")
    ap.add_argument("--games", help="the games, comma-separated (instead of --rows)")
    ap.add_argument("--size", type=int, default=4)
    ap.add_argument("--seed", type=int, default=85)
    ap.add_argument("--uncapped", action="store_true", help="build every tree whole (how far past the cap)")
    ap.add_argument("--out", type=Path, help="each decision's row appended to this JSON-lines file")
    ap.add_argument("--before", type=Path, help="another source tree (its cores built): each decision built there too")
    args = ap.parse_args()
    games = [int(g) for g in args.games.split(",")] if args.games else study_games(args.rows)
    print(f"range trees of {args.size} tiles, block for two, seed {args.seed}, {len(games)} decisions, load "
          f"{os.getloadavg()[0]:.1f}; built {'whole' if args.uncapped else 'with the analysis cap'}")
    print(f"{'tree':>6} {'game':>5} {'hands':>11} {'deals':>10} {'nodes':>10} {'arrays':>7} {'slots':>6} "
          f"{'memory()':>8} {'average':>7} {'verdict':>8} {'build s':>7} {'peak RSS':>8}")
    rows = []
    trees = [("this", HERE, 1.0)] + ([("before", args.before.resolve(), 0.5)] if args.before else [])
    for g in games:
        for name, tree, share in trees:
            call = f"worker({g}, {args.size}, {args.seed}, {args.uncapped}, {share})"
            (row,) = in_tree(tree, "bench_cfr_memory", call)
            row["tree"] = name
            _show(row, args.out)
            if name == "this":
                rows.append(row)
    counts = {v: sum(r["verdict"] == v for r in rows) for v in ("fits", "past", "stopped")}
    print(f"of {len(rows)} (this tree): {counts['fits']} fit the cap ({rows[0]['cap'] / 2**30:.0f} GiB), "
          f"{counts['past']} built and past it, {counts['stopped']} stopped in their build" if rows else "no decision")


def _show(row: dict, out: Path | None) -> None:
    """A decision's line of the table (and its row appended to ``out``)."""
    if out:
        with out.open("a") as f:
            f.write(json.dumps(row) + "\n")
    if row["verdict"] != "none":
        g = row["game"]
        gb = (lambda key: f"{row[key] / 1e9:.2f}" if key in row else "-")
        print(f"{row['tree']:>6} {g:>5} {row['hands'][0]:>5}/{row['hands'][1]:<5} {row['deals']:>10,} "
              f"{row.get('nodes', 0):>10,} {gb('arrays'):>7} {gb('slots'):>6} {gb('memory'):>8} {gb('average'):>7} "
              f"{row['verdict']:>8} {row['build_s']:>7.1f} {gb('rss'):>8}", flush=True)


if __name__ == "__main__":
    main()
