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
decision it judged and every world it would solve (drawn as it draws them: ``worlds_at``), each alternative's
principal variation in that world and reading its result (``hand_facts``, ``Variant.hand_result``): ``warm``
with the world's solver after its values (as a batch of worlds could play them where its table is warm), ``both``
adding those values searched again (a solver of its own a world), ``cold`` with a new solver a world whose search
of the line's value starts from the world's value. The two kinds of line are checked to give the same results.
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
    import time

    from analyzer.analysis import analyze_replay
    from analyzer.analysis.fair import fair_analyze
    from analyzer.match import replay_record
    from analyzer.notation import parse

    reps = [r for r in replay_record(parse(path.read_text(encoding="utf-8"), path.name)) if r.deal_ok]
    bases = [analyze_replay(rep) for rep in reps]
    runs = []
    for _ in range(rounds):
        t0 = time.process_time()
        judged = [fair_analyze(rep, base, workers=1) for rep, base in zip(reps, bases)]
        fair = time.process_time() - t0
        runs.append((fair, *_world_lines(reps, judged)))
    f = min(r[0] for r in runs)
    lines = runs[0][1]
    again, warm, cold = (min(r[k] for r in runs) for k in (2, 3, 4))
    print(f"# bench_pv --fair {path.name}: {len(reps)} games, best of {rounds}; CPU seconds")
    print(f"{'fair analysis':>13} {'lines':>6} {'warm lines':>10} {'fair+warm':>9} {'values again':>12} "
          f"{'fair+both':>9} {'cold lines':>10} {'fair+cold':>9}")
    print(f"{f:>13.3f} {lines:>6} {warm:>10.3f} {(f + warm) / f:>8.2f}x {again:>12.3f} {(f + warm + again) / f:>8.2f}x "
          f"{cold:>10.3f} {(f + cold) / f:>8.2f}x")
    print("warm: each world's lines where its values left the table warm (inside the batch of worlds, as the fair "
          "analysis's compiled batch would play them); both: a solver of its own a world, its values searched "
          "again first; cold: a new solver for each world's lines, its value searched from the fair analysis's")


def _world_lines(reps, judged) -> tuple[int, float, float, float]:
    """For every world the fair analysis judged ``judged`` by (drawn as it draws them), each alternative's principal
    variation played out and its result read: ``(lines, values s, warm lines s, cold lines s)``."""
    import random
    import time

    from analyzer.analysis import int_solver_plays, searcher_for
    from analyzer.analysis.fair import EXACT_BELOW, WORLDS
    from analyzer.inference import world_position, worlds_at
    from analyzer.rules.facts import hand_facts

    count, clock = 0, {"values": 0.0, "warm": 0.0, "cold": 0.0}

    def timed(what: str, work):
        t0 = time.process_time()
        out = work()
        clock[what] += time.process_time() - t0
        return out

    def result(v, pos, search, move, value, leader):
        pos.push(move)
        line = search.best_line(pos, value)
        for m in line:
            pos.push(m)
        end = pos.outcome()
        out = v.hand_result(hand_facts(pos, end.termination, end.seat, leader, None))
        for _ in range(len(line) + 1):
            pos.pop()
        return out

    for rep, out in zip(reps, judged):
        v = rep.variant
        leader = next(s.seat for s in rep.steps if s.move is not None and s.move.tile is not None)
        for d in out.decisions:
            if d.fair is None:
                continue
            every = worlds_at(rep, d.index, rep.players.index(d.player))
            rng = random.Random(d.index)
            deals = list(every) if every.count <= EXACT_BELOW else [every.sample(rng) for _ in range(WORLDS)]
            for world in deals:
                pos = world_position(rep, every.view.deal(world), d.index)
                solver = searcher_for(v, int_solver_plays(v), None, max_deals=1)
                values = timed("values", lambda: solver.values(pos))
                warm = timed("warm", lambda: [result(v, pos, solver, m, x, leader) for m, x in values])
                cold = searcher_for(v, int_solver_plays(v), None, max_deals=1)
                assert timed("cold", lambda: [result(v, pos, cold, m, x, leader) for m, x in values]) == warm
                count += len(values)
    return count, clock["values"], clock["warm"], clock["cold"]


if __name__ == "__main__":
    main()
