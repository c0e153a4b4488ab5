"""Benchmark the match scale of individual players (Cut Throat, Chiva for three, All Fives for three):
what grading by the match-winning chance costs over the points scale, in the library and as a whole command.

    python3 bench/bench_individual.py                       # Cut Throat, four players, 6 matches, best of 3
    python3 bench/bench_individual.py --players 3 --matches 10 --runs 5
    python3 bench/bench_individual.py --variant chiva --players 3       # a boneyard: each player for himself
    python3 bench/bench_individual.py --variant all-fives --players 3   # points scored during play

Records: ``--matches`` random matches of the variant (``analyzer.match.random_match``, seeded, up to 8 games
each), written as one file a match, so every game has the match position the games before it give.
(a) the library: each game analysed with every hand open (``analyze_replay``), then graded on the match
    scale (``match_scale`` from the position its match gives, the shipped table loaded once before the
    clock starts): the CPU seconds of each and the ratio.
(b) the command: ``python3 -m analyzer analyze FOLDER --json`` against the same with ``--scale match``,
    alternating, best of ``--runs``, CPU seconds of the child processes (``resource.getrusage``).
The machine is shared: read the ratios, measured in the same run, not the seconds.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.analysis import analyze_replay  # noqa: E402
from analyzer.analysis.match_scale import Before, match_positions, match_scale  # noqa: E402
from analyzer.equity import load_table  # noqa: E402
from analyzer.match import random_match, replay_record  # noqa: E402
from analyzer.notation.writer import write_game  # noqa: E402
from analyzer.rules import find_variant  # noqa: E402


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _command(folder: str, scale: bool) -> float:
    args = [sys.executable, "-m", "analyzer", "analyze", folder, "--json"] + (["--scale", "match"] if scale else [])
    before = _child_cpu()
    subprocess.run(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return _child_cpu() - before


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="cutthroat", choices=("cutthroat", "chiva", "all-fives"))
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--matches", type=int, default=6)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    v = (find_variant(args.variant) if args.variant == "cutthroat" and args.players == 4
         else find_variant(args.variant, {"players": str(args.players)}))
    if load_table(v) is None:
        sys.exit(f"no shipped table for {v.name} ({v.rules_text})")
    with tempfile.TemporaryDirectory() as folder:
        records = []
        for seed in range(args.matches):
            record = random_match(v, seed=seed, games=8)
            (Path(folder) / f"match-{seed}.dom").write_text("\n".join(write_game(g) for g in record.games),
                                                           encoding="utf-8")
            records.append(record)
        games, analysis_s, scale_s = 0, 0.0, 0.0
        for record in records:
            replays = replay_record(record, v)
            for rep, (position, leader, note) in zip(replays, match_positions(replays)):
                t = time.process_time()
                a = analyze_replay(rep)
                analysis_s += time.process_time() - t
                t = time.process_time()
                match_scale(a, v, Before(position, leader, note))
                scale_s += time.process_time() - t
                games += 1
        points, match = [], []
        for _ in range(args.runs):
            points.append(_command(folder, False))
            match.append(_command(folder, True))
    print(f"{v.name} for {args.players}: {args.matches} matches, {games} games; CPU seconds")
    print(f"{'part':<42}{'points':>10}{'match':>10}{'ratio':>9}")
    print(f"{'(a) library: analysis, + match_scale':<42}{analysis_s:>10.3f}{analysis_s + scale_s:>10.3f}"
          f"{(analysis_s + scale_s) / analysis_s:>9.3f}")
    print(f"{'(b) command analyze --json, best of ' + str(args.runs):<42}{min(points):>10.3f}{min(match):>10.3f}"
          f"{min(match) / min(points):>9.3f}")


if __name__ == "__main__":
    main()
