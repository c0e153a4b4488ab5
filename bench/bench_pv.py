"""Benchmark the match scale's principal variations (where both sides score in a hand) before and after.

    python3 bench/bench_pv.py --before DIR                       # Whist, Hungarian, All Fives; 20 records
    python3 bench/bench_pv.py --before DIR --variants whist --records 40 --rounds 5
    python3 bench/bench_pv.py --fair records/match-whist.dom    # the fair analysis on the match scale

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
``--fair RECORD``: what the match scale costs the fair analysis of RECORD (one process, the default worlds), where
it reads each world's result along each alternative's principal variation (``fair_analyze(..., results=True)``):
the CPU seconds on the points scale, on the match scale with each world's lines from the compiled batch of worlds
that valued it ("batch"), and on the match scale with the batches giving their values without lines ("old": a
new search a world plays each line out afterwards, ``outcomes.played_out``, as before they gave lines), the three alternating, best of ``--rounds``; and whether the two match-scale runs
give every alternative the same results over the worlds.
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
analyses = [analyze_replay(rep, searches={0: s}) for rep, s in zip(reps, solvers)]
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
    position = MatchPosition(state, ("side", v.seating.teams[leader]))
    if "before" in inspect.signature(match_scale).parameters:        # (the hand's place as one value: issue 69)
        from analyzer.analysis.match_scale import Before
        match_scale(a, v, Before(position, leader), results=results)
    else:
        match_scale(a, v, position, leader, results=results)
    digest.update(repr((results.alternatives, results.line)).encode())
grading = time.process_time() - t0
print(json.dumps({"points": points, "grading": grading, "lines": lines, "digest": digest.hexdigest()}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", help="the baseline checkout (its C cores built)")
    ap.add_argument("--fair", metavar="RECORD", help="estimate each world's principal results on RECORD instead")
    ap.add_argument("--variants", default="whist,hungarian,all-fives")
    ap.add_argument("--records", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if args.fair:
        _fair(Path(args.fair), args.rounds)
        return
    if not args.before:
        ap.error("--before DIR is needed (or --fair RECORD)")
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


def _fair(path: Path, rounds: int) -> None:
    """``--fair``: the fair analysis on the points scale against the same on the match scale (each world's results
    read along each alternative's principal variation: ``fair_analyze(..., results=True)``), the lines from the
    compiled batches of worlds ("batch") and, in the same run, without them ("old": a new solver a world plays
    each line out, ``outcomes.played_out``, as before the batches gave lines); best of ``rounds`` each, the three
    alternating."""
    sys.path.insert(0, str(ROOT))
    import time

    from analyzer.analysis import analyze_replay
    from analyzer.analysis import fair
    from bench_fair_process import fair_call
    from analyzer.match import replay_record
    from analyzer.notation import parse

    reps = [r for r in replay_record(parse(path.read_text(encoding="utf-8"), path.name)) if r.deal_ok]
    runs: dict[str, list[float]] = {"points": [], "batch": [], "old": []}
    found: dict[str, list] = {}
    for _ in range(rounds):
        for how in runs:
            bases = [analyze_replay(rep) for rep in reps]       # (outside the clock: the same in all three)
            with _without_batch_lines(how == "old"):
                t0 = time.process_time()
                judged = [fair_call(fair, rep, base, workers=1, results=how != "points") for rep, base in zip(reps,
                                    bases)]
                runs[how].append(time.process_time() - t0)
            found[how] = [[(d.index, a.move, a.fair.results) for d in out.decisions if d.fair is not None
                           for a in d.alternatives] for out in judged]
    best = {how: min(times) for how, times in runs.items()}
    same = "yes" if found["batch"] == found["old"] else "NO"
    print(f"# bench_pv --fair {path.name}: {len(reps)} games, CPU seconds (time.process_time), best of {rounds} "
          "alternating rounds; ratios against the points scale of the same run")
    print(f"{'points s':>9} {'match (batch) s':>16} {'ratio':>6} {'match (old) s':>14} {'ratio':>6} "
          f"{'old/batch':>9} {'same':>5}")
    print(f"{best['points']:>9.3f} {best['batch']:>16.3f} {best['batch'] / best['points']:>6.2f} {best['old']:>14.3f} "
          f"{best['old'] / best['points']:>6.2f} {best['old'] / best['batch']:>9.2f} {same:>5}")
    print("batch: each world's principal variations from the compiled batch of worlds that valued it (its table "
          "warm); old: the batches' values without their lines, each world's lines played out afterwards by a new search "
          "(outcomes.played_out); "
          "same: every alternative's results over the worlds equal")


def _without_batch_lines(refuse: bool):
    """A context in which the compiled batches of worlds give their values but no lines (``refuse``), so that the
    fair analysis plays each world's out afterwards, as it did before they gave them."""
    from contextlib import ExitStack, nullcontext
    from unittest import mock

    if not refuse:
        return nullcontext()
    from analyzer.search.drawworlds import DrawWorlds
    from analyzer.search.worlds import WorldsSolver
    stack = ExitStack()
    stack.enter_context(mock.patch.object(WorldsSolver, "lines", _values_only))
    stack.enter_context(mock.patch.object(DrawWorlds, "lines", lambda self, position, worlds: None))
    return stack


def _values_only(self, position, deals):
    """``WorldsSolver.lines`` as before the batch gave lines: its values, no line."""
    rows = self.values(position, deals)
    return None if rows is None else (rows, [None] * len(rows))


if __name__ == "__main__":
    main()
