"""Benchmark the match scale's principal variations (where both sides score in a hand) before and after.

    python3 bench/bench_pv.py --before DIR                       # Whist, Hungarian, All Fives; 20 records
    python3 bench/bench_pv.py --before DIR --variants whist --records 40 --rounds 5
    python3 bench/bench_pv.py --fair records/match-whist.dom    # what each world's principal result would cost

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
``--fair RECORD``: what the fair analysis would cost if it played each world's principal variation for each
alternative (the match scale would then read each world's result, not only its value): the CPU seconds of
``fair_analyze`` (one process, the default worlds) against, in the same run, those of playing out, for every
decision point it judges and every world it would solve (drawn with its seed and count: ``worlds_at``), each
alternative's principal variation in that world (a new solver a world, as the fair analysis has, its table warmed
by the world's values first, not counted: the fair analysis has them) and reading its result (``hand_facts``, ``Variant.hand_result``).
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
    """``--fair``: the fair analysis against each world's principal variations, best of ``rounds`` each."""
    sys.path.insert(0, str(ROOT))
    import random
    import time

    from analyzer.analysis import analyze_replay, int_solver_plays, searcher_for
    from analyzer.analysis.fair import WORLDS, EXACT_BELOW, fair_analyze, fair_seats
    from analyzer.inference import world_position, worlds_at
    from analyzer.match import replay_record
    from analyzer.notation import parse
    from analyzer.rules.facts import hand_facts

    reps = [r for r in replay_record(parse(path.read_text(encoding="utf-8"), path.name)) if r.deal_ok]
    bases = [analyze_replay(rep) for rep in reps]
    fair_s, lines_s, warm_s, lines = [], [], [], 0
    for _ in range(rounds):
        t0 = time.process_time()
        judged = [fair_analyze(rep, base, workers=1) for rep, base in zip(reps, bases)]
        fair_s.append(time.process_time() - t0)
        t0 = time.process_time()
        lines, warming = 0, 0.0
        for rep, out in zip(reps, judged):
            v = rep.variant
            leader = next(s.seat for s in rep.steps if s.move is not None and s.move.tile is not None)
            for d in out.decisions:
                if d.fair is None:
                    continue
                seat = rep.players.index(d.player)
                every = worlds_at(rep, d.index, seat)
                rng = random.Random(d.index)
                deals = (list(every) if every.count <= EXACT_BELOW else [every.sample(rng) for _ in range(WORLDS)])
                for world in deals:
                    pos = world_position(rep, every.view.deal(world), d.index)
                    solver = searcher_for(v, int_solver_plays(v), None, max_deals=1)
                    t1 = time.process_time()
                    values = solver.values(pos)
                    warming += time.process_time() - t1
                    for move, value in values:
                        pos.push(move)
                        line = solver.best_line(pos, value)
                        for m in line:
                            pos.push(m)
                        end = pos.outcome()
                        v.hand_result(hand_facts(pos, end.termination, end.seat, leader, None))
                        for _ in range(len(line) + 1):
                            pos.pop()
                        lines += 1
        lines_s.append(time.process_time() - t0 - warming)       # (the world's values are the fair analysis's)
        warm_s.append(warming)
    f, extra, warm = min(fair_s), min(lines_s), min(warm_s)
    print(f"# bench_pv --fair {path.name}: {len(reps)} games, best of {rounds}")
    print(f"{'fair analysis s':>15} {'principal lines':>15} {'their s':>8} {'ratio':>6} {'fair with them':>14} "
          f"{'values again s':>14} {'fair with both':>14}")
    print(f"{f:>15.3f} {lines:>15} {extra:>8.3f} {extra / f:>6.2f} {(f + extra) / f:>13.2f}x {warm:>14.3f} "
          f"{(f + extra + warm) / f:>13.2f}x")
    print("(fair with them: the lines played where the world's values leave the table warm, inside the batch of "
          "worlds; with both: a solver of its own a world, its values searched again)")


if __name__ == "__main__":
    main()
