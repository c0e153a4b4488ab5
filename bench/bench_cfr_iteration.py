"""The range tree's CFR iteration: milliseconds an iteration of this tree's compiled kernel against another tree's, on
the same range tree in one process (issue 85: the iterations are what is left of a full-pool 3-and-3 decision).

The decision is ``bench_cfr_study.py``'s (seed 85, block for two): the ``--which``-th (from 0) first decision with a
choice where the larger hand holds ``--size`` tiles; the default, the third, is the 371,280-deal one (3 tiles in both
hands). Its range tree is built once (by this tree's build) and each kernel's extension (``analyzer/hidden/_cfr`` of
``--before DIR`` and of this tree, loaded side by side) runs its own run of it: ``--rounds`` rounds of ``--iterations``
iterations, the two alternating, CPU seconds. Then both runs' bracket, hand values and average strategy are compared:
bit for bit (the same doubles) or the largest difference.

With ``--threads N ...`` (instead of ``--before``) the runs are this tree's kernel's with one thread and with each N
(``cfr_threads``): the table's times are then wall-clock milliseconds (the threads' CPU seconds add up), and a column
gives each run's CPU milliseconds an iteration.

    nice -n 10 python3 bench/bench_cfr_iteration.py --before DIR [DIR ...] [--which 2] [--iterations 100] [--rounds 3]
    nice -n 10 python3 bench/bench_cfr_iteration.py --threads 2 [4 ...] [--which 2] [--size 3]
"""
from __future__ import annotations

import argparse
import statistics
import importlib.util
import sys
import time
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))


def load(tree: Path, name: str):
    """``tree``'s compiled ``analyzer.hidden._cfr``, its extension file loaded as ``name._cfr``: a name of its own, for
    loaded as ``analyzer.hidden._cfr`` after this tree's ``analyzer.hidden`` was imported (which imports its own) it
    was that one again (until the sixteenth session, so the fifteenth's "before" ran this tree's kernel: see
    docs/hidden.md)."""
    found = sorted((tree / "analyzer" / "hidden").glob("_cfr.*.so"))
    if not found:
        raise SystemExit(f"no compiled _cfr in {tree}")
    spec = importlib.util.spec_from_file_location(f"{name}._cfr", found[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, nargs="+", default=[], help="the other source trees (their cores built)")
    ap.add_argument("--threads", type=int, nargs="+", default=[], help="this kernel over these threads against one")
    ap.add_argument("--which", type=int, default=2, help="the study's decision (from 0)")
    ap.add_argument("--size", type=int, default=3, help="the larger hand's tiles")
    ap.add_argument("--seed", type=int, default=85)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if bool(args.before) == bool(args.threads):
        ap.error("--before DIR ... or --threads N ...")

    from bench_cfr_study import endgame

    from analyzer.hidden import public_ranges
    from analyzer.hidden.ranges import RangeCRun, build_ranges
    from analyzer.rules.variants import find_variant

    kernels = {f"before{j}" if len(args.before) > 1 else "before": load(d.resolve(), f"before{j}")
               for j, d in enumerate(args.before)}
    kernels["this"] = load(HERE, "this")
    threads = {"this": 1}
    if args.threads:
        kernels = {"1 thread": kernels["this"], **{f"{n} threads": kernels["this"] for n in args.threads}}
        threads = {"1 thread": 1, **{f"{n} threads": n for n in args.threads}}
    clock = time.perf_counter if args.threads else time.process_time
    variant = find_variant("block", {"players": "2"})
    found = (e for e in (endgame(variant, args.size, args.seed, g) for g in range(400)) if e is not None)
    rep, k, _ = next(islice(found, args.which, None))
    pos, ranges = public_ranges(rep, k)
    t = build_ranges(variant, pos, pos.turn, (ranges[pos.turn], ranges[1 - pos.turn]))
    runs = {name: RangeCRun(t, None, module) for name, module in kernels.items()}
    split = {name: run.threads(threads.get(name, 1)) for name, run in runs.items()}
    took = {name: [] for name in runs}
    cpu = {name: [] for name in runs}
    best = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            start, spent = clock(), time.process_time()
            run.iterate(args.iterations)
            took[name].append(clock() - start)
            cpu[name].append(time.process_time() - spent)
            start = clock()
            run.bracket()
            best[name].append(clock() - start)
    print(f"block for two, {args.size} tiles, seed {args.seed}, decision {args.which}: {t.deals:,} deals, "
          f"{t.nodes:,} nodes; {args.rounds} rounds of {args.iterations} iterations and a bracket, alternating; "
          + "".join(f"{name} {d}, " for name, d in zip(kernels, args.before)) + f"this tree ({HERE})"
          + (f"; split at depth {max(split.values())}" if args.threads else ""))
    first = next(iter(took))
    unit = "wall ms" if args.threads else "ms"
    print(f"{'kernel':>10} | {unit + ' an iteration (each round)':>34} | {'all':>6} | {'ratio':>6} | {'median':>6} | "
          f"{'bracket ' + unit:>15} | {'CPU ms':>7}")
    for name, secs in took.items():
        each = " ".join(f"{1000 * s / args.iterations:6.2f}" for s in secs)
        ratio = sum(took[first]) / sum(secs)
        median = statistics.median(a / b for a, b in zip(took[first], secs))
        print(f"{name:>10} | {each:>34} | {1000 * sum(secs) / (args.iterations * args.rounds):6.2f} | {ratio:5.3f}x | "
              f"{median:5.3f}x | {1000 * statistics.median(best[name]):15.2f} | "
              f"{1000 * sum(cpu[name]) / (args.iterations * args.rounds):7.2f}")
    print(f"ratio: {first}'s {'wall' if args.threads else 'CPU'} seconds over each one's (all rounds; the median of "
          "the rounds' ratios)")
    got = {name: (run.bracket(), run.hand_values(), run.average()) for name, run in runs.items()}
    for name in kernels:
        if name == "this" or name == first and args.threads:
            continue
        for what, a, b in zip(("bracket", "hand values", "average"), got[name], got[first if args.threads else "this"]):
            diff = max((abs(x - y) for x, y in zip(a, b)), default=0.0)
            same = "the same doubles" if list(a) == list(b) else f"largest difference {diff:.3g}"
            print(f"{name} against {first if args.threads else 'this'}, {what}: {same}")


if __name__ == "__main__":
    main()
