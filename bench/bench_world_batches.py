"""The fair analysis's solves, replayed: where its CPU goes by the stage of the hand, and a change to the compiled block
search measured on the very worlds the fair analysis solves (issue 71).

    python3 bench/bench_world_batches.py record --first 1001 --last 1007 --out /tmp/batches.pkl
    python3 bench/bench_world_batches.py replay /tmp/batches.pkl                         # this tree, by stage
    python3 bench/bench_world_batches.py replay /tmp/batches.pkl --before /work/main     # two trees, same run
    python3 bench/bench_world_batches.py replay /tmp/batches.pkl --before . --env MTD_MODE=1   # one tree, two settings

``record`` runs the fair analysis of the partnership records ``random_game("partnership", seed)`` for the seeds given,
at the commands' defaults (200 deals, to 800 where the best is not told apart), in this process, and keeps every
batch of worlds it hands to the compiled block core (``_core.BlockDeal.worlds``: the deal's rules, the worlds, the
position and the moves still valued), in the order solved. The batches are the fair analysis's own: the same
early looks, racing and moves.

``replay`` solves the recorded batches again, each tree in a fresh process of its own (so each imports its own
compiled core), ``--rounds`` times in turn (a busy spell on the shared machine slows both alike), and prints, by the
stage of the hand (the lead, then the tiles already on the table in fours), the worlds, the move-worlds (a world
times the moves valued in it), the positions searched, the CPU (``time.process_time``, the best of the rounds) and
its share. With ``--before`` the same for the other tree and the ratio of the two, and whether every value is the
same (the search is exact: a change to it must give every value as before). ``--env NAME=VALUE`` sets a variable
in this tree's process only (the study's patch, ``git show a7348e4:bench/experiments/search71-variants.patch``, reads its switches so; docs/search-experiments.md).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def record(tree: Path, first: int, last: int, out: Path) -> None:
    sys.path.insert(0, str(tree))
    from analyzer.analysis import analyze_replay
    from analyzer.analysis import fair as F
    from analyzer.analysis.fairstats import GROWTH
    from analyzer.generate import random_game
    from analyzer.replay import replay
    from analyzer.search.blockdeal import CoreDeal

    batches = []
    made = CoreDeal.__init__

    def kept(self, variant, dealt, leader, max_pip, table, *more):
        made(self, variant, dealt, leader, max_pip, table, *more)
        self.core = _Recording(self.core, (variant, dealt, leader, max_pip, more), batches)

    CoreDeal.__init__ = kept
    sys.path.insert(0, str(HERE / "bench"))
    from bench_fair_process import fair_call

    for seed in range(first, last):
        rep = replay(random_game("partnership", seed), "partnership")
        if rep.valid:
            fair_call(F, rep, analyze_replay(rep), workers=1, max_worlds=GROWTH * F.WORLDS)
    with open(out, "wb") as fh:
        pickle.dump(batches, fh)
    print(f"{len(batches)} batches of {sum(len(args[0]) for _, args in batches)} worlds, seeds {first}-{last - 1}: {out}")


class _Recording:
    """A compiled deal whose ``worlds`` calls are kept (its other attributes its own)."""

    def __init__(self, core, made: tuple, batches: list) -> None:
        self._core, self._made, self._batches = core, made, batches

    def __getattr__(self, name):
        return getattr(self._core, name)

    def worlds(self, *args):
        self._batches.append((self._made, args))
        return self._core.worlds(*args)


def stage(args: tuple) -> str:
    """The stage of the hand of a batch: its lead, or the tiles on the table, in fours."""
    played, ends = args[1], args[2]
    if ends == -1:
        return "lead"
    n = bin(played).count("1")
    return f"{n // 4 * 4:2d}-{n // 4 * 4 + 3:2d} on the table"


def solve(tree: Path, path: Path) -> dict:
    """Every recorded batch solved in ``tree``'s core, in this process: per stage (worlds, move-worlds, positions,
    CPU s), and a digest of every value."""
    sys.path.insert(0, str(tree))
    from analyzer.search.blockdeal import CoreDeal
    from analyzer.search.core import TABLE_MB, compiled_core

    with open(path, "rb") as fh:
        batches = pickle.load(fh)
    core = compiled_core()
    table = core.Table(int(TABLE_MB * (1 << 20)) // core.ENTRY_BYTES)
    by: dict = defaultdict(lambda: [0, 0, 0, 0.0])
    digest = hashlib.sha1()
    for (variant, dealt, leader, max_pip, more), args in batches:
        deal = CoreDeal(variant, dealt, leader, max_pip, table, *more)
        nodes = deal.core.nodes
        t = time.process_time()
        got = deal.core.worlds(*args)
        cpu = time.process_time() - t
        row = by[stage(args)]
        row[0] += len(args[0])
        row[1] += len(args[0]) * len(args[4])
        row[2] += deal.core.nodes - nodes
        row[3] += cpu
        digest.update(repr(got).encode())
    return {"stages": dict(by), "values": digest.hexdigest()}


def run(tree: Path, path: Path, env: dict) -> dict:
    """:func:`solve` in a fresh process of ``tree`` (with ``env`` added to its environment)."""
    out = subprocess.run([sys.executable, __file__, "solve", str(path), "--tree", str(tree)], capture_output=True,
                         text=True, env={**os.environ, **env}, check=True)
    return json.loads(out.stdout)


def best(runs: list[dict]) -> dict:
    """Per stage, the positions and the least CPU over the rounds (the positions are the same in every round)."""
    stages: dict = {}
    for got in runs:
        for name, (worlds, moves, nodes, cpu) in got["stages"].items():
            if name not in stages or cpu < stages[name][3]:
                stages[name] = [worlds, moves, nodes, cpu]
    return stages


def table(stages: dict, title: str) -> None:
    total = sum(row[3] for row in stages.values()) or 1.0
    print(f"\n{title}")
    print("| stage | worlds | move-worlds | positions | positions a move-world | CPU s | share | us a move-world |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in sorted(stages, key=lambda s: (s != "lead", s)):
        worlds, moves, nodes, cpu = stages[name]
        print(f"| {name} | {worlds:,} | {moves:,} | {nodes:,} | {nodes / max(moves, 1):,.0f} | {cpu:.2f} | "
              f"{100 * cpu / total:.0f}% | {1e6 * cpu / max(moves, 1):.1f} |")
    worlds, moves, nodes, cpu = (sum(row[i] for row in stages.values()) for i in range(4))
    print(f"| all | {worlds:,} | {moves:,} | {nodes:,} | {nodes / max(moves, 1):,.0f} | {cpu:.2f} | 100% | "
          f"{1e6 * cpu / max(moves, 1):.1f} |")


def replay(path: Path, before: Path | None, rounds: int, env: dict) -> None:
    after_runs, before_runs = [], []
    for _ in range(rounds):
        if before is not None:
            before_runs.append(run(before, path, {}))
        after_runs.append(run(HERE, path, env))
    said = f" ({' '.join(f'{k}={v}' for k, v in env.items())})" if env else ""
    after = best(after_runs)
    table(after, f"# this tree {HERE}{said}: the recorded batches of {path}, the best of {rounds} round(s)")
    if before is None:
        return
    earlier = best(before_runs)
    table(earlier, f"# before: {before}")
    print("\n| stage | positions before / after | CPU before / after |")
    print("|---|---:|---:|")
    for name in sorted(after, key=lambda s: (s != "lead", s)):
        b, a = earlier[name], after[name]
        print(f"| {name} | {b[2] / max(a[2], 1):.3f} | {b[3] / max(a[3], 1e-9):.2f} |")
    nodes = [sum(row[2] for row in x.values()) for x in (earlier, after)]
    cpu = [sum(row[3] for row in x.values()) for x in (earlier, after)]
    same = before_runs[0]["values"] == after_runs[0]["values"]
    print(f"| all | {nodes[0] / max(nodes[1], 1):.3f} | {cpu[0] / max(cpu[1], 1e-9):.2f} |")
    print(f"every value the same: {'yes' if same else 'NO'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record")
    r.add_argument("--first", type=int, default=1001)
    r.add_argument("--last", type=int, default=1007)
    r.add_argument("--out", type=Path, required=True)
    p = sub.add_parser("replay")
    p.add_argument("batches", type=Path)
    p.add_argument("--before", type=Path)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--env", action="append", default=[], help="NAME=VALUE for this tree's process")
    s = sub.add_parser("solve")
    s.add_argument("batches", type=Path)
    s.add_argument("--tree", type=Path, required=True)
    args = ap.parse_args()
    if args.command == "record":
        record(HERE, args.first, args.last, args.out)
    elif args.command == "solve":
        print(json.dumps(solve(args.tree, args.batches)))
    else:
        replay(args.batches, args.before, args.rounds, dict(v.split("=", 1) for v in args.env))


if __name__ == "__main__":
    main()
