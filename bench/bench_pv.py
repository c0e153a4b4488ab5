"""Benchmark the match scale's principal variations (where both sides score in a hand) before and after.

    python3 bench/bench_pv.py --before DIR                       # Whist, Hungarian, All Fives; 20 records
    python3 bench/bench_pv.py --before DIR --variants whist --records 40 --rounds 5

``DIR`` is another checkout of the package, its C cores built (``python3 setup.py build_ext --inplace``): the
baseline, e.g. the commit before the principal variations were played out by probes
(``git archive COMMIT | tar -x -C DIR``). For each variant, ``--records`` random records
(``analyzer.generate.random_game``, seeded) are analysed with every hand open (``analyze_replay``, the points
scale) and then graded on the match scale as ``bench/bench_equity.py`` (b) grades them: each alternative's
principal variation played out (``principal_results``) and the match-winning chance of its result
(``match_scale``, from a mid-match position, the shipped table loaded before the clock starts). Each tree runs
in a child process of its own (``PYTHONPATH``), the two alternating, ``--rounds`` times; the table shows the CPU
seconds (``time.process_time``) of the analysis and of the grading, best of the rounds, and their ratio: what
the match scale costs over the points scale, before and after, in the same run; ``of it PVs``: the part of the
grading that plays out the principal variations, and its ratio to the analysis. ``warm``: this tree's grading
given the searches the analysis made (``principal_results(..., searches=)``: their tables hold the analysis's
values), where its caller keeps them. ``same`` says whether the two trees gave the same results (every
alternative's and every step's; the after tree's, warm and cold, against the before tree's).
The machine is shared: read ratios, not seconds.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: What each child runs: analyse the records, then grade them; prints its CPU seconds and a digest of the results.
CHILD = r"""
import hashlib, inspect, json, sys, time
from analyzer.analysis import analyze_replay, int_solver_plays, searcher_for
from analyzer.analysis.match_scale import match_scale
from analyzer.analysis.outcomes import principal_results
from analyzer.equity import MatchPosition, load_table
from analyzer.generate import random_game
from analyzer.replay import replay
from analyzer.rules import MatchState, find_variant

name, records, warm = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "warm"
v = find_variant(name)
load_table(v)
reps = [replay(random_game(v, seed), v) for seed in range(records)]
solvers = [searcher_for(v, int_solver_plays(v), None) for _ in reps]
t0 = time.process_time()
analyses = [analyze_replay(rep, solver=s) for rep, s in zip(reps, solvers)]
points = time.process_time() - t0
if warm and "searches" not in inspect.signature(principal_results).parameters:
    print(json.dumps(None))
    sys.exit()
t0 = time.process_time()
digest, lines = hashlib.sha256(), 0.0
for k, (rep, a, s) in enumerate(zip(reps, analyses, solvers)):
    t1 = time.process_time()
    results = principal_results(rep, a, searches={0: s}) if warm else principal_results(rep, a)
    lines += time.process_time() - t1
    leader = rep.initial.turn
    state = MatchState((10 * (k % 9), 7 * (k % 13)), (0, 0), 1)
    match_scale(a, v, MatchPosition(state, ("side", v.seating.teams[leader])), leader, results=results)
    digest.update(repr((results.alternatives, results.line)).encode())
grading = time.process_time() - t0
print(json.dumps({"points": points, "grading": grading, "lines": lines, "digest": digest.hexdigest()}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="the baseline checkout (its C cores built)")
    ap.add_argument("--variants", default="whist,hungarian,all-fives")
    ap.add_argument("--records", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print(f"# bench_pv: {args.records} random records a variant, best of {args.rounds} alternating rounds; "
          f"before {args.before}, after {ROOT}")
    print(f"{'variant':<10} {'tree':<7} {'points s':>9} {'grading s':>10} {'ratio':>7} {'of it PVs s':>11} "
          f"{'PVs/points':>10} {'same':>5}")
    for name in args.variants.split(","):
        runs = {"before": [], "after": [], "warm": []}
        for _ in range(args.rounds):
            for tree, root, mode in (("before", args.before, "cold"), ("after", str(ROOT), "cold"),
                                     ("warm", str(ROOT), "warm")):
                got = _child(root, name, args.records, mode)
                if got is not None:
                    runs[tree].append(got)
        base = runs["before"][0]["digest"] if runs["before"] else None
        for tree, got in runs.items():
            if not got:
                continue
            points = min(g["points"] for g in got)
            grading = min(g["grading"] for g in got)
            lines = min(g["lines"] for g in got)
            same = "yes" if all(g["digest"] == base for g in got) else "NO"
            print(f"{name:<10} {tree:<7} {points:>9.3f} {grading:>10.3f} {grading / points:>7.3f} {lines:>11.3f} "
                  f"{lines / points:>10.3f} {same:>5}")


def _child(root: str, name: str, records: int, mode: str) -> dict | None:
    """One child process's figures (None: that tree cannot run ``mode``)."""
    env = dict(os.environ, PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", CHILD, name, str(records), mode], cwd=root, env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
