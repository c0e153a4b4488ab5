"""Benchmark the archive runner: validate and analyze an archive of generated records, in one
process, in a pool (``--jobs 2``) and on a local Dask cluster (two worker processes).

    python bench/bench_archive.py                         # 1,000 records, analysis of 200 of them
    python bench/bench_archive.py --records 200 --analyze 40 --no-dask

The archive is written to a temporary folder in nested folders (``event-K/day-D/NNNN.dom``): random
legal partnership matches from ``analyzer.match.random_match`` (one to three hands each, seeded by
their number). Every row is timed in this run, best of ``--repeat``; the ratios are against the
one-process run of the same row. Every run's results are checked equal to the one-process results
(the same data, in the same order). The machine's other load shows in the figures: on 2 cores shared
with other work, a pool of 2 cannot reach 2x; the first line measures what it can reach now (a
pure-Python loop in a pool of 1 and of 2).
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.archive import Execution, Options, load, run  # noqa: E402
from analyzer.match import random_match  # noqa: E402
from analyzer.notation import write  # noqa: E402
from bench_solver import best_of as timed  # noqa: E402  (bench/ is this script's own directory)


def make_archive(root: Path, records: int) -> None:
    for k in range(records):
        folder = root / f"event-{k % 4}" / f"day-{k % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        record = random_match("partnership", seed=k, games=1 + k % 3)
        (folder / f"{k:04d}.dom").write_text(write(record), encoding="utf-8")


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def calibrate(repeat: int) -> float:
    """What 2 processes can gain on this machine now: a pure-Python loop, 8 pieces in a pool of 1
    and of 2 (other work on a shared machine takes its share of the cores)."""
    from concurrent.futures import ProcessPoolExecutor

    def pool(n):
        with ProcessPoolExecutor(n) as executor:
            list(executor.map(_burn, [2_000_000] * 8))
    one = timed(repeat, lambda: pool(1))[0]
    two = timed(repeat, lambda: pool(2))[0]
    return one / two


def row(label: str, n: int, seconds: float, base: float | None, same: bool | None) -> str:
    ratio = "" if base is None else f"{base / seconds:5.2f}x"
    check = "" if same is None else ("identical" if same else "DIFFERENT")
    return f"{label:<34} {n:>6} {seconds:9.2f} {n / seconds:10.1f} {ratio:>8}  {check}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--analyze", type=int, default=200, help="records analysed (the first N)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--no-dask", action="store_true")
    args = ap.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, {args.records} records")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        make_archive(root, args.records)
        sources = load([str(root)])
        print(f"generated {len(sources)} records ({sum(len(s.data) for s in sources) // 1024} KiB) "
              f"in {time.perf_counter() - t0:.1f} s\n")
        cluster = None
        if not args.no_dask:
            from distributed import LocalCluster
            t0 = time.perf_counter()
            cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
            print(f"Dask LocalCluster with 2 workers started in {time.perf_counter() - t0:.1f} s\n")
        print(f"the machine now: a CPU-bound loop runs {calibrate(args.repeat):.2f}x faster in 2 processes "
              f"than in 1 (the most --jobs 2 can gain here)\n")
        print(f"{'run':<34} {'records':>6} {'seconds':>9} {'records/s':>10} {'ratio':>8}  results")
        for mode, subset in (("validate", sources), ("analyze", sources[:args.analyze])):
            options = Options(mode)
            base, local = timed(args.repeat, lambda: list(run(subset, options)))
            print(row(f"{mode}, 1 process", len(subset), base, None, None))
            pool_time, pooled = timed(args.repeat, lambda: list(run(subset, options, Execution(jobs=2))))
            print(row(f"{mode}, --jobs 2", len(subset), pool_time, base, pooled == local))
            if cluster is not None:
                address = cluster.scheduler_address
                t, remote = timed(args.repeat, lambda: list(run(subset, options, Execution(scheduler=address))))
                print(row(f"{mode}, Dask (2 workers)", len(subset), t, base, remote == local))
                print(f"{'':<34} Dask overhead against --jobs 2: "
                      f"{(t - pool_time) * 1000 / len(subset):+.1f} ms a record")
            print()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    main()
