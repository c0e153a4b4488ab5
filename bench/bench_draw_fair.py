"""Benchmark the fair analysis of draw games (``analyze --fair``) against another source tree, record by record.

    python3 bench/bench_draw_fair.py --before /tmp/drawfair-base            # main's tree against this one
    python3 bench/bench_draw_fair.py --before DIR --seeds 1 --rounds 1       # a quick look
    python3 bench/bench_draw_fair.py --before DIR --only draw-one-view       # the records whose name has it

The records: the draw records of ``records/`` (a game with a boneyard or Chiva's draw game for two or
three: ``draw-one-view.dom`` and ``draw-one-view-extra.dom`` logged by one player, the others with every
hand shown, so every seat is judged), and random draw games logged by player A alone (his hand and his
draws; the other hands and their draws ``?``): ``--seeds`` games of each family (draw for two, three and
four players, draw one tile a turn, Cut Throat's draw game, Chiva for two and three, All Fives for two and
three, All Fives and Threes), ``analyzer.generate.random_game`` with seed ``--seed + i``, written by this
tree once and read by both.

Each record runs as one whole process of each tree in turn (``python3 -m analyzer analyze --fair --json
--seed 7 RECORD``, the fair analysis's own two processes), ``--rounds`` times alternately, the best kept, so
a busy spell on the shared machine slows both alike. Shown: each tree's median and worst seconds a record
(wall clock; the CPU seconds of the process and its workers beside it), the ratio of the two trees' times
record by record (above 1: this tree is faster), the peak resident memory of the largest process, and the
worlds solved a second a core (the worlds valued over the CPU seconds). The two outputs must be
byte-identical; a record whose outputs differ is named.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_solver import table  # noqa: E402

from analyzer.generate import random_game  # noqa: E402
from analyzer.notation.writer import write  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402

RECORDS = ["draw-one-view.dom", "draw-one-view-extra.dom", "variant-draw.dom", "variant-draw-003.dom",
           "variant-draw-starter.dom", "variant-cutthroat-draw.dom", "variant-chiva-3.dom", "match-chiva-2-draw.dom",
           "match-chiva-3-draw.dom", "match-chiva-3-draw-jamaican.dom"]
FAMILIES = [("draw", {}), ("draw", {"players": "3"}), ("draw", {"players": "4"}), ("draw", {"draw": "one", "keep": "0"}),
            ("cutthroat", {"players": "2", "draw": "yes"}), ("chiva", {"players": "2"}), ("chiva", {"players": "3"}),
            ("all-fives", {}), ("all-fives", {"players": "3"}), ("all-fives-threes", {})]
SEAT = re.compile(r"^([A-F]): \[")
DRAWN = re.compile(r"\b([A-F]) draws \[\d-\d\]")


def one_view(text: str, viewer: str = "A") -> str:
    """``text`` (a written record) as ``viewer`` logged it: the other hands and the tiles the others drew ``?``."""
    out = []
    for line in text.splitlines():
        seat = SEAT.match(line)
        if seat and seat.group(1) != viewer:
            line = f"{seat.group(1)}: ?"
        elif not line.startswith("["):
            line = DRAWN.sub(lambda m: m.group(0) if m.group(1) == viewer else f"{m.group(1)} draws ?", line)
        out.append(line)
    return "\n".join(out) + "\n"


def random_records(folder: Path, seeds: int, seed: int) -> list[Path]:
    paths = []
    for name, options in FAMILIES:
        variant = find_variant(name, options)
        for i in range(seeds):
            label = "-".join([name] + [f"{k}={v}" for k, v in options.items()] + [str(seed + i)])
            path = folder / f"{label}.dom"
            path.write_text(one_view(write(random_game(variant, seed + i))))
            paths.append(path)
    return paths


def run(tree: Path, record: Path) -> tuple[float, float, float, bytes]:
    """One whole process of ``tree``: (wall seconds, CPU seconds of it and its workers, peak MB, stdout).
    The peak is that of a grandchild watcher: ``RUSAGE_CHILDREN`` of this process holds the largest
    process ever waited for, so each run is measured in a fresh watcher."""
    probe = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
             "p = subprocess.run(sys.argv[1:], capture_output=True); w = time.perf_counter() - t; "
             "u = resource.getrusage(resource.RUSAGE_CHILDREN); sys.stderr.write(repr((w, u.ru_utime + u.ru_stime, "
             "u.ru_maxrss / 1024, p.returncode)) + chr(10)); sys.stdout.buffer.write(p.stdout)")
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("DOMINO_PURE_PYTHON", None)
    out = subprocess.run([sys.executable, "-c", probe, sys.executable, "-m", "analyzer", "analyze", "--fair", "--json", "--jobs", "2",
                          "--seed", "7", str(record.resolve())], cwd=tree, env=env, capture_output=True)
    wall, cpu, peak, code = eval(out.stderr.decode().strip().splitlines()[-1])  # noqa: S307 (our own probe's repr)
    if code not in (0, 1):
        raise SystemExit(f"{tree}: analyze {record} exited {code}")
    return wall, cpu, peak, out.stdout


def worlds_of(output: bytes) -> int:
    """The worlds the fair analysis valued (every decision's ``fair.worlds``)."""
    games = json.loads(output)["games"]
    return sum((d.get("fair") or {}).get("worlds", 0) for g in games for d in g.get("decisions", []))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="the other source tree (its cores built)")
    ap.add_argument("--seeds", type=int, default=2, help="random games of each family")
    ap.add_argument("--seed", type=int, default=11, help="seed of game 0 (game i uses seed + i)")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each record in each tree, the best kept")
    ap.add_argument("--only", default="", help="only the records whose file name holds this")
    ap.add_argument("--per-record", action="store_true", help="a row for every record")
    ap.add_argument("--no-records", action="store_true", help="the random games only (not those of records/)")
    args = ap.parse_args(argv)
    trees = {"before": args.before.resolve(), "this": HERE}
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cpus; load "
          f"{os.getloadavg()[0]:.1f}; before = {trees['before']}; best of {args.rounds} alternating runs")
    with tempfile.TemporaryDirectory() as tmp:
        records = [] if args.no_records else [HERE / "records" / r for r in RECORDS]
        records += random_records(Path(tmp), args.seeds, args.seed)
        records = [r for r in records if args.only in r.name]
        best: dict[str, dict[Path, tuple]] = {name: {} for name in trees}
        for record in records:
            for _ in range(args.rounds):
                for name, tree in trees.items():
                    got = run(tree, record)
                    if record not in best[name] or got[0] < best[name][record][0]:
                        best[name][record] = got
        report(args, trees, records, best)
    return 0


def report(args, trees: dict, records: list[Path], best: dict) -> None:
    rows, per = [], []
    for name in trees:
        got = [best[name][r] for r in records]
        walls, cpus = [g[0] for g in got], [g[1] for g in got]
        worlds = sum(worlds_of(g[3]) for g in got)
        rows.append([name, str(len(records)), f"{statistics.median(walls):.2f}", f"{max(walls):.2f}",
                     f"{statistics.median(cpus):.2f}", f"{max(cpus):.2f}", f"{max(g[2] for g in got):.0f}",
                     str(worlds), f"{worlds / sum(cpus):,.0f}"])
    ratios = [best["before"][r][0] / best["this"][r][0] for r in records]
    table("Fair analysis of draw records (analyze --fair --json --seed 7, whole process): seconds a record",
          ["tree", "records", "median s", "worst s", "median CPU s", "worst CPU s", "peak MB", "worlds",
           "worlds/s/core"], rows)
    print(f"  before/this, record by record: median {statistics.median(ratios):.2f}x, least {min(ratios):.2f}x, "
          f"most {max(ratios):.2f}x")
    differ = [r.name for r in records if best["before"][r][3] != best["this"][r][3]]
    print(f"  outputs byte-identical: {len(records) - len(differ)} of {len(records)}"
          + (f"; differ: {', '.join(differ)}" if differ else ""))
    if args.per_record:
        for r in records:
            b, t = best["before"][r], best["this"][r]
            per.append([r.name, f"{b[0]:.2f}", f"{t[0]:.2f}", f"{b[1]:.2f}", f"{t[1]:.2f}", str(worlds_of(t[3])),
                        "yes" if b[3] == t[3] else "NO"])
        table("Each record: wall and CPU seconds", ["record", "before s", "this s", "before CPU", "this CPU",
                                                     "worlds", "same"], per)


if __name__ == "__main__":
    sys.exit(main())
