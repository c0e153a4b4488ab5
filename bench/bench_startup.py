"""Start-up: how long `domino --version`, `domino --help` and `domino validate` of one small record (a
valid one, and one whose slip is searched) take, each a fresh `python3 -m analyzer` process, against
the same commands of another source tree.

    python3 bench/bench_startup.py --before /path/to/other/tree [--runs 15]

Both trees run in the same session, their runs interleaved (the machine is shared: its load moves
both alike), on the same records (this tree's records/); each tree's bytecode is compiled by a
first run into a folder of its own under the system's temporary folder (never into the trees),
as an installed package has it. Prints the median and worst wall time of each command in each
tree, and the ratios before / after (above 1: this tree starts faster)."""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
RECORDS = HERE / "records"
COMMANDS = {"--version": ["--version"], "--help": ["--help"],
            "validate seed2.dom": ["validate", str(RECORDS / "seed2.dom")],       # valid: reading and replaying
            "validate seed1.dom": ["validate", str(RECORDS / "seed1.dom")]}       # invalid: its slip searched too


def once(tree: Path, args: list[str], cache: Path) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(tree), PYTHONPYCACHEPREFIX=str(cache))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "analyzer", *args], cwd=tree, env=env, capture_output=True)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1) or not done.stdout:
        raise SystemExit(f"{tree}: python3 -m analyzer {' '.join(args)} failed: {done.stderr.decode()[-500:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other source tree (its analyzer/)")
    parser.add_argument("--runs", type=int, default=15, help="runs of each command in each tree")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": HERE}
    times: dict = {(name, which): [] for name in COMMANDS for which in trees}
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as folder:
        caches = {which: Path(folder) / which for which in trees}
        for name, command in COMMANDS.items():
            for which, tree in trees.items():    # a first run of each, not counted (bytecode, the disk's caches)
                once(tree, command, caches[which])
            for _ in range(args.runs):
                for which, tree in trees.items():
                    times[name, which].append(once(tree, command, caches[which]))
    print(f"start-up of `python3 -m analyzer`, {args.runs} runs each, seconds "
          f"(before: {trees['before']}, after: {trees['after']})")
    print(f"{'command':<20} {'before median':>14} {'worst':>7} {'after median':>13} {'worst':>7} "
          f"{'ratio median':>13} {'ratio worst':>12}")
    for name in COMMANDS:
        b, a = times[name, "before"], times[name, "after"]
        mb, ma = statistics.median(b), statistics.median(a)
        print(f"{name:<20} {mb:>14.3f} {max(b):>7.3f} {ma:>13.3f} {max(a):>7.3f} {mb / ma:>12.2f}x "
              f"{max(b) / max(a):>11.2f}x")


if __name__ == "__main__":
    main()
