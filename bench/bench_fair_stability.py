"""How stable the fair verdicts are from seed to seed, and what a record costs (issue 54).

Hidden-hand decisions: bundled records of several variants with every hand but one player's hidden (``B: ?``),
so each decision of that player is judged by the fair analysis (leads and mid-hand). Each record is analysed
with ``--seeds`` seeds at the commands' defaults (200 deals a decision; in a tree with adaptive sampling, to
``--max-worlds``, 4 times as many, where the best is not told apart). A decision's *verdict* is its best move
where the best is told apart, else the set of moves not told apart; its stability is the share of the seeds
that give its most common verdict. The time is the wall time of one record's fair analysis (the open-hands
analysis, the same before and after, not counted), median and worst over the seeds.

``--before DIR`` runs the same in another source tree (e.g. /work/main) in the same run, each tree in a process
of its own; a tree without ``tied`` verdicts has its best move as its verdict.

    python3 bench/bench_fair_stability.py --before /work/main             # 30 decisions, 20 seeds, --jobs 2
    python3 bench/bench_fair_stability.py --seeds 5 --records seed2.dom:C  # a quick look
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import time
from collections import Counter

HERE = pathlib.Path(__file__).resolve().parent.parent
RECORDS = HERE / "records"
# (record, the player whose hand stays known): 30 decisions of theirs, leads among them
CASES = ["seed1.dom:B", "seed2.dom:C", "seed2.dom:A", "variant-block7.dom:B", "openspiel-block7-1.dom:P0",
         "variant-draw.dom:A", "variant-all-fives.dom:A"]


def hidden(name: str, keep: str) -> str:
    """Record ``name`` with every hand but ``keep``'s hidden."""
    text = (RECORDS / name).read_text(encoding="utf-8")
    return re.sub(r"^(?!%s:)([A-Za-z0-9]+): \[.*$" % re.escape(keep), r"\1: ?", text, flags=re.M)


def work(cases: list[str], seeds: int, jobs: int, max_worlds: int | None = None) -> dict:
    """In the tree on ``sys.path``: each case analysed with each seed: per case, per seed, the time and the
    verdict of each decision."""
    import inspect

    from analyzer.analysis import analyze_replay
    from analyzer.analysis import fair
    from analyzer.match import replay_record
    from analyzer.notation import parse
    from bench_fair_process import fair_call

    options = {}
    if hasattr(fair, "FairSettings") or "max_worlds" in inspect.signature(fair.fair_analyze).parameters:
        options["max_worlds"] = max_worlds or fair.GROWTH * fair.WORLDS          # the commands' default
    out = {}
    for case in cases:
        name, keep = case.split(":")
        (rep,) = replay_record(parse(hidden(name, keep), name))[:1]
        base = analyze_replay(rep)
        rows = []
        for seed in range(seeds):
            analysis = analyze_replay(rep) if seed else base
            start = time.perf_counter()
            analysis = fair_call(fair, rep, analysis, seed=seed, workers=jobs, **options)
            took = time.perf_counter() - start
            verdicts = {}
            for d in list(analysis.decisions) + ([analysis.to_move] if analysis.to_move else []):
                if d is None or d.fair is None:
                    continue
                tied = tuple(sorted(getattr(d.fair, "tied", ()) or ()))
                verdicts[str(d.index)] = {"verdict": " = ".join(tied) if tied else d.fair.best,
                                          "worlds": d.fair.worlds, "method": d.fair.method}
            rows.append({"time": took, "verdicts": verdicts})
        out[case] = rows
    return out


def _contradicted(said: list[str]) -> int:
    """The runs that name a best (told apart) which another run leaves out of its verdict (its best, or the
    moves it does not tell apart): the flips a reader would see as the analysis changing its mind."""
    sets = [set(v.split(" = ")) for v in said]
    return sum(1 for s in sets if len(s) == 1 and any(not (s & other) for other in sets))


def run_tree(tree: pathlib.Path, args) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, str(pathlib.Path(__file__).resolve()), "--worker", "--seeds", str(args.seeds),
           "--jobs", str(args.jobs), "--records", *args.records]
    if args.max_worlds:
        cmd += ["--max-worlds", str(args.max_worlds)]
    done = subprocess.run(cmd, env=env, cwd=str(tree), capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def summary(label: str, data: dict) -> list[dict]:
    """Print one tree's table; return each decision's stability."""
    decisions = []
    print(f"\n{label}")
    print(f"{'record (player)':<28} {'dec':>3} {'stable':>7} {'least':>6} {'deals (median)':>15} "
          f"{'time median':>12} {'worst':>7}")
    for case, rows in data.items():
        times = [r["time"] for r in rows]
        stable, deals = [], []
        for index in rows[0]["verdicts"]:
            said = [r["verdicts"][index]["verdict"] for r in rows if index in r["verdicts"]]
            share = Counter(said).most_common(1)[0][1] / len(said)
            stable.append(share)
            deals += [r["verdicts"][index]["worlds"] for r in rows if index in r["verdicts"]]
            decisions.append({"case": case, "index": index, "share": share, "verdicts": Counter(said),
                              "contradicted": _contradicted(said), "runs": len(said)})
        print(f"{case:<28} {len(stable):>3} {sum(s >= 0.95 for s in stable):>3}/{len(stable):<3} "
              f"{min(stable):>6.0%} {statistics.median(deals):>15,.0f} {statistics.median(times):>11.2f}s "
              f"{max(times):>6.2f}s")
    shares = [d["share"] for d in decisions]
    print(f"{'all':<28} {len(shares):>3} {sum(s >= 0.95 for s in shares):>3}/{len(shares):<3} {min(shares):>6.0%}")
    runs = sum(d["runs"] for d in decisions)
    same = sum(d["share"] * d["runs"] for d in decisions)
    wrong = sum(d["contradicted"] for d in decisions)
    print(f"runs giving their decision's most common verdict: {same / runs:.1%} of {runs}; runs whose verdict "
          f"contradicts another run's (a best the other leaves out of its best or its tied set): {wrong / runs:.1%}")
    for d in decisions:
        if d["share"] < 0.95:
            print(f"  unstable: {d['case']} step {d['index']}: " + "; ".join(f"{v} x{n}" for v, n in
                                                                              d["verdicts"].most_common()))
    return decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--records", nargs="+", default=CASES, metavar="FILE:PLAYER")
    ap.add_argument("--before", type=pathlib.Path, help="another source tree to measure in the same run")
    ap.add_argument("--max-worlds", type=int, help="the budget of a decision (default: the commands')")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(work(args.records, args.seeds, args.jobs, args.max_worlds)))
        return
    after = run_tree(HERE, args)
    before = run_tree(args.before, args) if args.before else None
    if before is not None:
        summary(f"before ({args.before}): {args.seeds} seeds a record, --jobs {args.jobs}", before)
    summary(f"after ({HERE}): {args.seeds} seeds a record, --jobs {args.jobs}", after)
    if before is not None:
        print("\ntime a record, after / before (median over the seeds; worst against worst):")
        for case in after:
            a, b = [r["time"] for r in after[case]], [r["time"] for r in before[case]]
            print(f"  {case:<28} {statistics.median(a) / statistics.median(b):5.2f}x   {max(a) / max(b):5.2f}x")
        total_a = sum(statistics.median([r["time"] for r in rows]) for rows in after.values())
        total_b = sum(statistics.median([r["time"] for r in rows]) for rows in before.values())
        print(f"  {'all (sum of medians)':<28} {total_a / total_b:5.2f}x")


if __name__ == "__main__":
    main()
