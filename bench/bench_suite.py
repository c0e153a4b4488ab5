"""The test suite's time: the slowest tests, the slowest files, and what the whole run costs.

    python3 bench/bench_suite.py [--top 60] [--out times.jsonl] [-- PYTEST ARGS]
        runs ``python3 -m pytest -q -p no:randomly PYTEST ARGS`` (the whole suite when none are given, as
        the README's command, its tests spread over every core as the project's settings say: ``-- -n 0``
        for one process; ``-- -m "not slow"`` for the fast run) once, recording each test's wall and CPU time
        (bench/suite_times.py), and prints the tables (the tests' wall times add up to more than the run's
        when they ran side by side)
    python3 bench/bench_suite.py --times times.jsonl [--top 60]
        the tables of a run recorded before (``--out``)
    python3 bench/bench_suite.py --times times.jsonl --schedule [--workers 2]
        the same, then the run's end as pytest-xdist's ways of dealing the tests out would have it on that many
        quiet cores (each test taking its CPU time, in the order pytest collects them here): when each worker
        ends, for ``--dist load`` (the default), ``loadfile`` and ``worksteal``
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
import heapq
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


def collected(tree: Path) -> list[str]:
    """The node ids pytest collects in ``tree``, in its order (one process, as each xdist worker collects)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:randomly"],
                          cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return [line for line in done.stdout.splitlines() if "::" in line]


def _run_queues(durations: list[float], queues: list[list[int]], refill) -> list[float]:
    """When each worker ends: each runs its queue in order; ``refill(worker, queues, last)`` after each test
    may add to the queues (the scheduler's answer to a finished test)."""
    ends = [0.0] * len(queues)
    running = [(durations[q[0]], k) for k, q in enumerate(queues) if q]
    heapq.heapify(running)
    while running:
        now, k = heapq.heappop(running)
        last = queues[k].pop(0)
        refill(k, queues, durations[last])
        ends[k] = now
        if queues[k]:
            heapq.heappush(running, (now + durations[queues[k][0]], k))
    return ends


def dist_load(durations: list[float], workers: int) -> list[float]:
    """xdist's ``load`` (3.x, scheduler/load.py): a quarter of a worker's share each to start, then each worker
    topped up to half its share of what is left whenever it has fewer than a quarter of it left."""
    pending = list(range(len(durations)))
    chunk = max(len(pending) // workers // 4, 2)
    queues = [pending[k * chunk:(k + 1) * chunk] for k in range(workers)]
    del pending[:chunk * workers]

    def refill(k, queues, duration):
        if pending:
            low, high = max(2, len(pending) // workers // 4), max(2, len(pending) // workers // 2)
            if len(queues[k]) < low and not (duration >= 0.1 and len(queues[k]) >= 2):
                count = high - len(queues[k])
                queues[k] += pending[:count]
                del pending[:count]
    return _run_queues(durations, queues, refill)


def dist_loadfile(durations: list[float], workers: int, files: list[str]) -> list[float]:
    """xdist's ``loadfile`` (scheduler/loadscope.py): whole files, the most tests first, the next file to a
    worker once it has two tests or fewer left."""
    units: dict[str, list[int]] = {}
    for k, name in enumerate(files):
        units.setdefault(name, []).append(k)
    queue = sorted(units.values(), key=lambda u: -len(u))
    queues = [queue.pop(0) if queue else [] for _ in range(workers)]

    def refill(k, queues, duration):
        if queue and len(queues[k]) <= 2:
            queues[k] += queue.pop(0)
    for k in range(workers):
        refill(k, queues, 0.0)
    return _run_queues(durations, queues, refill)


def dist_worksteal(durations: list[float], workers: int) -> list[float]:
    """xdist's ``worksteal``: the tests split in ``workers`` runs of the collection's order; a worker left with
    one test takes the later half of what the worker with the most has left."""
    n = len(durations)
    queues = [list(range(k * n // workers, (k + 1) * n // workers)) for k in range(workers)]

    def refill(k, queues, duration):
        if len(queues[k]) <= 1:
            victim = max((j for j in range(len(queues)) if j != k), key=lambda j: len(queues[j]), default=None)
            if victim is not None and len(queues[victim]) > 2:
                half = (len(queues[victim]) - 1) // 2
                queues[k] += queues[victim][-half:]
                del queues[victim][-half:]
    return _run_queues(durations, queues, refill)


def schedule(rows: list[dict], order: list[str], workers: int) -> None:
    """When each of ``workers`` quiet cores would end the run under each way of dealing the tests out."""
    cpu = {r["test"]: r["cpu"] + r["children"] for r in rows}
    unknown = [t for t in order if t not in cpu]
    durations = [cpu.get(t, 0.0) for t in order]
    total = sum(durations)
    print(f"\n{len(order)} tests collected here, {len(unknown)} without a time in the run (taken as 0 s); "
          f"their CPU over {workers} cores: {total / workers:.0f} s ({total / workers / 60:.1f} min) at best")
    print(f"{'--dist':>10} {'last ends s':>11} {'min':>5}  each worker ends (s)")
    for name, ends in (("load", dist_load(durations, workers)),
                       ("loadfile", dist_loadfile(durations, workers, [t.split("::")[0] for t in order])),
                       ("worksteal", dist_worksteal(durations, workers))):
        print(f"{name:>10} {max(ends):11.0f} {max(ends) / 60:5.1f}  {' '.join(f'{e:.0f}' for e in ends)}")


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
    parser.add_argument("--schedule", action="store_true",
                        help="with --times: the run's end under xdist's load, loadfile and worksteal (simulated)")
    parser.add_argument("--workers", type=int, default=2, help="cores for --schedule")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each test in each tree (--compare)")
    parser.add_argument("args", nargs="*", help="pytest's arguments (after --), or the tests to --compare")
    options = parser.parse_args()
    if options.times:
        tables(read_times(options.times), options.top)
        if options.schedule:
            schedule(read_times(options.times), collected(HERE), options.workers)
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
