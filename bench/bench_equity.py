"""Benchmark the match-winning chance: computing a variant's table, and grading on the match scale.

    python3 bench/bench_equity.py                      # partnership: 300 hands a lead mode, 20 records
    python3 bench/bench_equity.py --hands 1000 --records 40
    python3 bench/bench_equity.py --variant jamaican
    python3 bench/bench_equity.py --variant chiva --rule players=3 --baseline players=2 --hands 1000

(a) ``compute_table``: simulate ``--hands`` random deals in each lead mode the match needs (each solved
    exactly and played along its best line) and solve the match by DP over its states; the table
    prints the seconds of each part and the seconds per simulated hand, so that the time of a shipped
    table (its ``seconds`` field, at its own number of hands) can be set beside it. ``--rule K=V`` sets the
    variant's options (individual players: each plays for himself, ``view=AgainstTheRest``); ``--baseline
    K=V,...`` computes in the same run the table of the same variant with those options instead (e.g. Chiva
    for two against Chiva for three) and prints the ratio of the CPU seconds a simulated hand.
(b) grading (the library): ``--records`` random records of the variant (``analyzer.generate.random_game``, seeded),
    each analysed with every hand open (``analyze_replay``), then graded on the match scale
    (``match_scale`` from a mid-match position, the shipped table loaded once before the clock starts,
    as a process grading an archive has it). The ratio (b)/(a-analysis) is the cost of the match scale
    over the points scale, measured in the same run.
(c) the command: the same records written as files (a Score tag each, so every hand has a match position),
    ``domino analyze FOLDER --json`` against the same with ``--scale match``, and the same for the first
    record alone (the worst case for what the match scale costs once a process: its imports, the table's
    load); each the CPU time of the child process (``RUSAGE_CHILDREN``), best of ``--rounds`` alternating
    runs. By default with bytecode files (kept in a folder of the run's own, ``PYTHONPYCACHEPREFIX``), as an
    installed package has them; ``--no-bytecode`` compiles every module in each run.
The machine is shared: read ratios, not seconds.
"""
from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.analysis import AgainstTheRest, analyze_replay, int_solver_plays, searcher_for  # noqa: E402
from analyzer.analysis.match_scale import Before, match_scale  # noqa: E402
from analyzer.analysis.outcomes import needs_results, principal_results  # noqa: E402
from analyzer.equity import MatchPosition, compute_table, load_table, score_step  # noqa: E402
from analyzer.equity.model import HandPlayers  # noqa: E402
from analyzer.generate import random_game  # noqa: E402
from analyzer.notation.writer import write_game  # noqa: E402
from analyzer.replay import replay  # noqa: E402
from analyzer.rules import MatchState, find_variant  # noqa: E402
from analyzer.search import CORE  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="partnership")
    ap.add_argument("--rule", action="append", default=[], metavar="K=V", help="an option of the variant")
    ap.add_argument("--baseline", default=None, metavar="K=V,...",
                    help="(a) also the table of the variant with these options, its s/hand the baseline")
    ap.add_argument("--hands", type=int, default=300, help="hands simulated in each lead mode (a)")
    ap.add_argument("--records", type=int, default=20, help="records graded (b, c)")
    ap.add_argument("--skip-table", action="store_true", help="leave out (a)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating runs of each command (c)")
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent),
                    help="(c) time the command of the checkout in this folder (e.g. another branch's, for a before/after)")
    ap.add_argument("--no-bytecode", dest="bytecode", action="store_false",
                    help="(c) with no bytecode files: every module compiled in each run")
    args = ap.parse_args()
    v = find_variant(args.variant, dict(r.split("=", 1) for r in args.rule) or None)
    print(f"# bench_equity: {v.name} ({v.rules_text or 'defaults'}), search core {CORE}, Python "
          f"{platform.python_version()}")

    shipped = load_table(v)
    if not args.skip_table:
        _tables(args, v)
    if shipped is not None:
        print(f"shipped table: {shipped.meta['hands_per_mode']} hands a mode, {len(shipped.values)} positions, "
              f"{shipped.meta['seconds']}")
    _grading(args, v, shipped)


def _tables(args, v) -> None:
    """(a): the variant's table, and the baseline's in the same run; wall seconds of each part (the table's
    ``seconds``), the whole in CPU seconds, and the ratio of CPU seconds a simulated hand."""
    runs = [v]
    if args.baseline:
        runs.append(find_variant(v.name, dict(r.split("=", 1) for r in args.baseline.split(","))))
    print("\n(a) computing a table")
    print(f"{'rules':<28} {'hands/mode':>10} {'modes':>5} {'positions':>9} {'simulate s':>10} {'CPU s/hand':>10} "
          f"{'DP s':>7} {'CPU s':>8} {'ratio':>6}")
    base = None
    for w in reversed(runs):                       # the baseline first: the ratio is against it
        t0 = time.process_time()
        table = compute_table(w, args.hands, seed=1, players=HandPlayers(view=AgainstTheRest))
        total = time.process_time() - t0
        sim, dp = table.meta["seconds"]["simulation"], table.meta["seconds"]["dp"]
        hands = args.hands * len(table.model.modes)
        per = total * sim / max(sim + dp, 1e-9) / hands           # the simulation's share of the CPU time
        base = base or per
        print(f"{w.rules_text or 'defaults':<28} {args.hands:>10} {len(table.model.modes):>5} {len(table.values):>9} "
              f"{sim:>10.1f} {per:>10.4f} {dp:>7.1f} {total:>8.1f} {per / base:>6.2f}")


def _grading(args, v, shipped) -> None:
    if shipped is None:
        print("\n(b) no shipped table: no grading on the match scale")
        return
    if v.seating.sides != 2:
        print("\n(b) individual players: their grading is timed by bench/bench_individual.py")
        return
    reps = [replay(random_game(v, seed), v) for seed in range(args.records)]
    points = match = 0.0
    graded = 0
    exact = needs_results(v)        # both sides score in a hand: each alternative's principal variation, timed too
    for k, rep in enumerate(reps):  # (as the pipeline: the search that valued the hand plays its lines out)
        t0 = time.process_time()
        solver = searcher_for(v, int_solver_plays(v), None)
        a = analyze_replay(rep, searches={0: solver})
        t1 = time.process_time()
        leader = rep.initial.turn
        state = MatchState(_scores_before(v, k), (0, 0), 1)
        results = principal_results(rep, a, searches={0: solver}) if exact else None
        scale = match_scale(a, v, Before(MatchPosition(state, ("side", v.seating.teams[leader])), leader), results=results)
        graded += len(scale.loss)
        points += t1 - t0
        match += time.process_time() - t1
    print("\n(b) grading")
    print(f"{'records':>7} {'decisions':>9} {'points s':>9} {'match scale s':>13} {'ratio':>7}")
    print(f"{args.records:>7} {graded:>9} {points:>9.2f} {match:>13.3f} {match / points:>7.3f}"
          + ("  (with each alternative's principal variation: both sides score in a hand)" if exact else ""))
    if v.match.kind == "bad":
        print("\n(c) skipped: a Score tag gives no match position in bad points ((b) times the grading)")
        return
    _command(args, v, reps)


def _scores_before(v, k: int) -> tuple[int, int]:
    """Record ``k``'s match score before its hand: spread over the match, in the variant's score step (All
    Fives scores in fives only: a score between is off the table's walk and solved on demand, which no real
    match asks for)."""
    step = score_step(v)
    return 10 * (k % 9), max(7, step) * (k % 13) // step * step


def _command(args, v, reps) -> None:
    # (c) the command as a user runs it: the same records as files, analyze --json against --scale match
    # (which also imports the match scale, loads the table and grades), alternating runs
    with tempfile.TemporaryDirectory() as folder:
        for seed, rep in enumerate(reps):
            game, r = rep.game, rep.result
            before = _scores_before(v, seed)
            after = [before[side] + (r.points if r.winner == side else 0) for side in (0, 1)]
            game.tags["Score"] = f"{v.side_name(0, rep.players)} {after[0]}, {v.side_name(1, rep.players)} {after[1]}"
            Path(folder, f"r{seed:03d}.dom").write_text(write_game(game), encoding="utf-8")
        env = _child_env(args.bytecode, folder)
        print(f"\n(c) domino analyze ... --json against --scale match ({args.root}): CPU seconds of the child "
              f"process, best of {args.rounds} alternating runs ({'with' if args.bytecode else 'without'} bytecode files)")
        print(f"{'records':>7} {'points s':>9} {'--scale match s':>15} {'ratio':>7}")
        for target, n in ((folder, args.records), (str(Path(folder, "r000.dom")), 1)):
            _command_cpu([target, "--json", "--scale", "match"], env, args.root)     # a first run writes the bytecode
            times: dict = {"points": [], "match": []}
            for _ in range(args.rounds):
                for scale in ("points", "match"):
                    times[scale].append(_command_cpu([target, "--json", "--scale", scale], env, args.root))
            p, m = min(times["points"]), min(times["match"])
            print(f"{n:>7} {p:>9.3f} {m:>15.3f} {m / p:>7.3f}")


def _child_env(bytecode: bool, folder: str) -> dict:
    """The environment of the timed commands: with bytecode written to (and read from) a folder of its
    own, as an installed package has it, or with none (every module compiled in each run)."""
    env = dict(os.environ)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(folder, "pycache"))
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def _command_cpu(args: list[str], env: dict, root: str) -> float:
    """The CPU seconds (user and system) of ``domino analyze ARGS`` run as a child process in ``root``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "analyzer", "analyze", *args], cwd=root, env=env, capture_output=True,
                   check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

if __name__ == "__main__":
    main()
