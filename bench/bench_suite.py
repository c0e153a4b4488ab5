"""The test suite's time: the slowest tests, the slowest files, and what the whole run costs.

    python3 bench/bench_suite.py [--top 60] [--out times.jsonl] [-- PYTEST ARGS]
        runs ``python3 -m pytest -q -p no:randomly PYTEST ARGS`` (the whole suite when none are given, as
        the README's command, its tests spread over every core as the project's settings say: ``-- -n 0``
        for one process; ``-- -m "not slow"`` for the fast run) once, recording each test's wall and CPU time
        (bench/suite_times.py), and prints the tables (the tests' wall times add up to more than the run's
        when they ran side by side)
    python3 bench/bench_suite.py --times times.jsonl [--top 60]
        the tables of a run recorded before (``--out``)
    python3 bench/bench_suite.py --compare /path/to/other/tree [--rounds 3] TEST [TEST ...]
        each TEST (a node id, ``tests/test_x.py::test_name``: every parametrisation of it) run in the
        other tree and in this one, each in one process (``-n 0``), the runs alternated (the machine is
        shared: its load moves both alike); prints the best CPU time of each (the tests' own: pytest's
        start-up left out) and the ratio other / this (above 1: faster here)

CPU time (this process and the children a test waited for) is the figure to compare: on a machine that
other jobs share, the wall time says as much about them as about the tests. Run it under ``nice -n 10``.
The load (``uptime``) before and after a run is printed with it."""
from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SLOW_LIMIT = 60.0           # seconds: a test over this (wall) must be marked slow


def pytest_run(tree: Path, args: list[str], times: Path) -> tuple[int, float, float]:
    """``python3 -m pytest`` in ``tree`` with the timing plugin writing to ``times``; its exit status, wall
    time and CPU time (the whole process and its children)."""
    env = {**os.environ, "DOMINO_TEST_TIMES": str(times),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE / "bench"), os.environ.get("PYTHONPATH")]))}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "suite_times", "-p", "no:randomly", "-q", *args],
                          cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        sys.stderr.write(done.stdout[-3000:])
    else:
        sys.stderr.write("\n".join(done.stdout.strip().splitlines()[-3:]) + "\n")
    return done.returncode, wall, cpu


def read_times(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def tables(rows: list[dict], top: int) -> None:
    """The slowest tests (by wall time), the slowest files, and the totals."""
    for row in rows:
        row["total_cpu"] = row["cpu"] + row["children"]
    wall = sum(r["wall"] for r in rows)
    cpu = sum(r["total_cpu"] for r in rows)
    print(f"{'#':>3} {'wall s':>8} {'CPU s':>8} {'slow':>4}  test")
    for k, row in enumerate(sorted(rows, key=lambda r: -r["wall"])[:top], 1):
        print(f"{k:>3} {row['wall']:8.1f} {row['total_cpu']:8.1f} {'yes' if row.get('slow') else '':>4}  {row['test']}")
    files: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for row in rows:
        entry = files[row["test"].split("::")[0]]
        entry[0] += row["wall"]
        entry[1] += row["total_cpu"]
        entry[2] += 1
    print(f"\n{'wall s':>8} {'CPU s':>8} {'tests':>5}  file (the {min(top, len(files))} slowest)")
    for name, (w, c, n) in sorted(files.items(), key=lambda f: -f[1][0])[:top]:
        print(f"{w:8.1f} {c:8.1f} {n:5d}  {name}")
    slow = [r for r in rows if r.get("slow")]
    over = [r for r in rows if r["wall"] > SLOW_LIMIT and not r.get("slow")]
    print(f"\n{len(rows)} tests: {wall:.0f} s wall ({wall / 60:.1f} min), {cpu:.0f} s CPU ({cpu / 60:.1f} min); "
          f"{len(slow)} marked slow: {sum(r['wall'] for r in slow):.0f} s wall, "
          f"{sum(r['total_cpu'] for r in slow):.0f} s CPU; {len(over)} not marked slow over {SLOW_LIMIT:g} s wall"
          + "".join(f"\n    over: {r['test']} {r['wall']:.1f} s" for r in over))


def compare(other: Path, tests: list[str], rounds: int) -> None:
    """Best-of-``rounds`` CPU time of each test in ``other`` and here, runs alternated."""
    best: dict[tuple[str, str], float] = {}
    with tempfile.TemporaryDirectory() as folder:
        for k in range(rounds):
            for test in tests:
                for name, tree in (("other", other), ("this", HERE)):
                    times = Path(folder) / f"{name}-{k}-{abs(hash(test))}.jsonl"
                    status, _, _ = pytest_run(tree, ["-n", "0", test], times)     # (in one process)
                    rows = read_times(times) if times.exists() else []
                    if status != 0 or not rows:
                        raise SystemExit(f"{tree}: {test} did not pass (exit status {status})")
                    cpu = sum(r["cpu"] + r["children"] for r in rows)
                    best[name, test] = min(best.get((name, test), cpu), cpu)
    print(f"best CPU s of {rounds} alternated runs each (the tests' own time; pytest's start-up left out)")
    print(f"{'other':>8} {'this':>8} {'ratio':>6}  test")
    for test in tests:
        before, after = best["other", test], best["this", test]
        print(f"{before:8.2f} {after:8.2f} {before / after if after else float('inf'):6.2f}  {test}")


def uptime() -> str:
    with open("/proc/loadavg", encoding="ascii") as fh:
        return "load average " + " ".join(fh.read().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=60, help="how many of the slowest tests and files to list")
    parser.add_argument("--out", type=Path, help="keep the run's per-test times in this file (JSON lines)")
    parser.add_argument("--times", type=Path, help="print the tables of a run recorded before, run nothing")
    parser.add_argument("--compare", type=Path, metavar="TREE", help="another source tree to compare tests with")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each test in each tree (--compare)")
    parser.add_argument("args", nargs="*", help="pytest's arguments (after --), or the tests to --compare")
    options = parser.parse_args()
    if options.times:
        tables(read_times(options.times), options.top)
    elif options.compare:
        if not options.args:
            parser.error("--compare needs the tests to run")
        print(uptime())
        compare(options.compare.resolve(), options.args, options.rounds)
        print(uptime())
    else:
        out = options.out or Path(tempfile.mkstemp(suffix=".jsonl", prefix="suite-times-")[1])
        out.write_text("")
        print(f"{uptime()} before; python3 -m pytest -q -p no:randomly {' '.join(options.args)}")
        status, wall, cpu = pytest_run(HERE, options.args, out)
        print(f"{uptime()} after; exit status {status}: {wall:.0f} s wall ({wall / 60:.1f} min), "
              f"{cpu:.0f} s CPU for the whole run (start-up and collection included); per test in {out}\n")
        tables(read_times(out), options.top)


if __name__ == "__main__":
    main()
