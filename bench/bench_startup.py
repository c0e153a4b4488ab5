"""Start-up: how long `domino --version`, `domino --help` and `domino validate` of one small record (a
valid one, and one whose slip is searched) take, each a fresh `python3 -m analyzer` process, against
the same commands of another source tree.

    python3 bench/bench_startup.py --before /path/to/other/tree [--runs 15]

Both trees run in the same session, every command of both in each round, in turn (the machine is
shared: its load moves them all alike), on the same records (this tree's records/); each tree's bytecode
is compiled by a first round (not counted) into a folder of its own under the system's temporary folder
(never into the trees), as an installed package has it. Prints the median and worst wall time of each
command in each tree, wall and CPU, the ratios before / after (above 1: this tree starts faster), and
each command's median against `python3 -c "import click, lark"` in the same run (issue 57: at most 2x);
then each command's ratio to that yardstick round by round (the yardstick run just before it, in the
same round): the median and the worst round."""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
RECORDS = HERE / "records"
#: the yardstick of issue 57: a process that only loads the two libraries every command needs
BASELINE = "import click, lark"
COMMANDS = {BASELINE: None, "--version": ["--version"], "--help": ["--help"],
            "validate seed2.dom": ["validate", str(RECORDS / "seed2.dom")],       # valid: reading and replaying
            "validate seed1.dom": ["validate", str(RECORDS / "seed1.dom")],       # invalid: its slip searched too
            "validate seed2-table.txt": ["validate", str(RECORDS / "seed2-table.txt")]}   # a book table (issue 71)


def once(tree: Path, args: list[str], cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user and system, of the child) of one ``python3 -m analyzer args`` (``args`` None:
    ``python3 -c "import click, lark"``)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(tree), PYTHONPYCACHEPREFIX=str(cache))
    command = [sys.executable, "-c", BASELINE] if args is None else [sys.executable, "-m", "analyzer", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1) or (args is not None and not done.stdout):
        raise SystemExit(f"{tree}: {' '.join(command)} failed: {done.stderr.decode()[-500:]}")
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other source tree (its analyzer/)")
    parser.add_argument("--runs", type=int, default=15, help="runs of each command in each tree")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": HERE}
    times: dict = {(name, which): [] for name in COMMANDS for which in trees}
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as folder:
        caches = {which: Path(folder) / which for which in trees}
        for round_ in range(args.runs + 1):     # the first round not counted (bytecode, the disk's caches)
            for name, command in COMMANDS.items():
                for which, tree in trees.items():
                    took = once(tree, command, caches[which])
                    if round_:
                        times[name, which].append(took)
    print(f"start-up of `python3 -m analyzer`, {args.runs} runs each, seconds "
          f"(before: {trees['before']}, after: {trees['after']}); `{BASELINE}`: the same in both")
    for k, what in ((0, "wall"), (1, "CPU (user + system)")):
        print(f"\n{what}")
        print(f"{'command':<24} {'before median':>14} {'worst':>7} {'after median':>13} {'worst':>7} "
              f"{'before/after median':>20} {'worst':>7} {'after / ' + BASELINE:>26}")
        base = statistics.median([t[k] for t in times[BASELINE, "after"]])
        for name in COMMANDS:
            b, a = [t[k] for t in times[name, "before"]], [t[k] for t in times[name, "after"]]
            mb, ma = statistics.median(b), statistics.median(a)
            print(f"{name:<24} {mb:>14.3f} {max(b):>7.3f} {ma:>13.3f} {max(a):>7.3f} {mb / ma:>19.2f}x "
                  f"{max(b) / max(a):>6.2f}x {ma / base:>25.2f}x")
    print(f"\nround by round: each command over `{BASELINE}` of the same round and tree, median and worst")
    print(f"{'command':<24} {'before wall':>12} {'worst':>7} {'after wall':>11} {'worst':>7} "
          f"{'before CPU':>11} {'worst':>7} {'after CPU':>10} {'worst':>7}")
    for name in COMMANDS:
        cells = []
        for k in (0, 1):
            for which in trees:
                ratios = [t[k] / y[k] for t, y in zip(times[name, which], times[BASELINE, which])]
                cells.append(f"{statistics.median(ratios):.2f}x {max(ratios):.2f}x")
        print(f"{name:<24} " + " ".join(f"{c.split()[0]:>{w}} {c.split()[1]:>7}"
                                         for c, w in zip(cells, (12, 11, 11, 10))))

if __name__ == "__main__":
    main()
