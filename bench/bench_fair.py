"""Benchmark the fair analysis of whole partnership records against the open-hands analysis.

    python3 bench/bench_fair.py                         # 20 records, 200 worlds a decision: long in pure Python
    python3 bench/bench_fair.py --deals 3 --worlds 20   # a quick look
    python3 bench/bench_fair.py --variant draw --deals 3 --worlds 20   # draw games (the general search)
    python3 bench/bench_fair.py --variant french --deals 3 --worlds 50 --jobs 1 --per-world
    python3 bench/bench_fair.py --before /path/to/other/tree --deals 10    # that tree against this one

Each record is a random partnership deal (28 tiles, 7 each) played out by random legal moves
(``analyzer.generate.random_game``, seeded per deal). For each record, in the same run:

(a) the open-hands analysis (``analyze_replay``: every alternative of every decision, all hands open);
(b) the fair analysis of every seat on top of it (``fair_analyze``): at every decision, ``--worlds``
    deals drawn from those the mover could not tell apart (every one of them when there are at
    most ``--exact-below``), each solved exactly, in ``--jobs`` processes.

The table gives the median and the worst time over the records and the ratio of (b) to (a)
(the fair analysis includes its open-hands base, so (b) is the time a user waits for
``domino analyze --fair``), how many worlds were solved, and the peak resident memory of this
process and of its largest worker (the peak must not grow with the worlds solved; ``--variant french
--jobs 1`` shows it best, its compiled tables being the largest).

``--per-world`` also times, record by record in the same run, (c) the fair analysis as it was before
one search served all the worlds of a decision in a process: a search made for every world (so no
table kept from world to world), and checks that (b) and (c) give every alternative the same values.

``--before DIR`` compares another source tree (e.g. the main branch, its cores built) with this one in
the same run: each record's fair analysis (b) runs in a fresh process of each tree in turn (``--rounds``
times), so a busy spell on the shared machine slows both alike. Shown for each tree: the median and
worst time a record, the CPU seconds (user and system, the workers' included), the worlds solved per
second per core (worlds over CPU seconds), the peak resident memory of the process and of its largest
worker; and, record by record, the ratio of the two trees' times (above 1: this tree is faster), median
and worst. The trees' verdicts are compared decision by decision (``bench_fair_process.compare``): the same best where
the tree before tells it apart, no contradiction, each fair mean within the interval before (a tree that values the
moves out of contention in fewer worlds, issue 71, gives those moves other means).

``--max-worlds`` (default: the commands', 4 times ``--worlds``): where the best is not told apart, more worlds
are drawn, to this many (``--max-worlds`` equal to ``--worlds``: one round, as this bench ran before issue 71).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
# ``--tree DIR`` (a process of ``--before``): the analyser of that tree, not of this one
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]) if "--tree" in sys.argv[:-1] else HERE
sys.path.insert(0, str(TREE))

from analyzer.analysis import analyze_replay  # noqa: E402
from analyzer.analysis import fair as fair_module  # noqa: E402
from analyzer.analysis.fair import EXACT_BELOW  # noqa: E402
from analyzer.analysis.fairstats import GROWTH  # noqa: E402
from analyzer.generate import random_game  # noqa: E402
from analyzer.replay import replay  # noqa: E402
from bench_fair_process import compare as agreement, fair_call, table  # noqa: E402


def records(count: int, seed: int, variant: str = "partnership"):
    """``count`` valid random records of ``variant`` (seeds that give an invalid lead are skipped)."""
    out, k = [], 0
    while len(out) < count:
        game = random_game(variant, seed + k)
        k += 1
        rep = replay(game, variant)
        if rep.valid:
            out.append(rep)
    return out


def measure(rep, worlds: int, exact_below: int, jobs: int, per_world: bool = False, max_worlds: int | None = None) -> dict:
    t0 = time.perf_counter()
    base = analyze_replay(rep)
    c1, t1 = cpu(), time.perf_counter()
    fair = fair_call(fair_module, rep, analyze_replay(rep), worlds=worlds, exact_below=exact_below, workers=jobs,
                     max_worlds=max_worlds)
    c2, t2 = cpu(), time.perf_counter()
    judged = [d for d in fair.decisions if d.fair is not None]
    out = {"open": t1 - t0, "fair": t2 - t1, "fair_cpu": c2 - c1, "decisions": len(base.decisions),
           "worlds": sum(d.fair.worlds for d in judged), "exact": sum(d.fair.method == "exact" for d in judged)}
    if per_world:
        shared = fair_module._shared_searcher
        fair_module._shared_searcher = fair_module._searcher
        try:
            c3, t3 = cpu(), time.perf_counter()
            fresh = fair_call(fair_module, rep, analyze_replay(rep), worlds=worlds, exact_below=exact_below,
                              workers=jobs,
                              max_worlds=max_worlds)
            out["per_world"], out["per_world_cpu"] = time.perf_counter() - t3, cpu() - c3
        finally:
            fair_module._shared_searcher = shared
        if fair_values(fresh) != fair_values(fair):
            raise SystemExit("a search per world and one search for all the worlds disagree")
    return out


def cpu() -> float:
    """The CPU seconds (user and system) of this process and of its finished workers so far: on a shared
    machine a steadier measure than the clock (a fair analysis's pool has ended when it returns)."""
    return sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for f in ("ru_utime", "ru_stime"))


def fair_values(analysis) -> list:
    """Every alternative's fair value of every judged decision."""
    return [(d.index, [(a.move, a.fair) for a in d.alternatives]) for d in analysis.decisions if d.fair is not None]


def one_record(args) -> int:
    """A process of ``--before``: the fair analysis of record ``args.record`` in this process's tree, as
    one JSON line (its times, worlds, peak memory and a digest of its fair values)."""
    rep = records(args.record + 1, args.seed, args.variant)[args.record]
    base = analyze_replay(rep)
    c0, t0 = cpu(), time.perf_counter()
    fair = fair_call(fair_module, rep, base, worlds=args.worlds, exact_below=args.exact_below, workers=args.jobs,
                     max_worlds=args.max_worlds)
    took, used = time.perf_counter() - t0, cpu() - c0
    judged = [d for d in fair.decisions if d.fair is not None]
    digest = hashlib.sha256(repr(fair_values(fair)).encode()).hexdigest()
    said = [[d.index, d.player, d.fair.best, list(d.fair.tied), d.fair.method,
             {a.move: [a.fair.mean, list(a.fair.ci95)] for a in d.alternatives if a.fair is not None}] for d in judged]
    print(json.dumps({"fair": took, "cpu": used, "worlds": sum(d.fair.worlds for d in judged), "values": digest,
                      "peak": peak_mb(resource.RUSAGE_SELF), "worker": peak_mb(resource.RUSAGE_CHILDREN),
                      "verdicts": said}))
    return 0


def compare(args) -> int:
    """``--before``: each record in a process of each tree in turn, the trees' figures side by side."""
    trees = {"before": args.before.resolve(), "after": HERE}
    runs: dict = {which: [[] for _ in range(args.deals)] for which in trees}
    for _ in range(args.rounds):
        for k in range(args.deals):
            for which, tree in trees.items():
                argv = [sys.executable, str(Path(__file__).resolve()), "--tree", str(tree), "--record", str(k),
                        "--worlds", str(args.worlds), "--exact-below", str(args.exact_below), "--jobs",
                        str(args.jobs), "--seed", str(args.seed), "--variant", args.variant,
                        "--max-worlds", str(args.max_worlds)]
                done = subprocess.run(argv, capture_output=True, text=True, cwd=tree)
                if done.returncode:
                    raise SystemExit(f"{which} record {k} failed: {done.stderr[-800:]}")
                runs[which][k].append(json.loads(done.stdout.strip().splitlines()[-1]))
    same = sum(len({r["values"] for which in trees for r in runs[which][k]}) == 1 for k in range(args.deals))
    tally: dict = {}
    for k in range(args.deals):
        verdicts = {which: {(i, player): (best, tuple(tied), method, {m: (mean, tuple(ci)) for m, (mean, ci) in means.items()})
                            for i, player, best, tied, method, means in runs[which][k][0]["verdicts"]}
                    for which in trees}
        for key, n in agreement(verdicts["before"], verdicts["after"]).items():
            tally[key] = tally.get(key, 0) + n
    print(f"# fair analysis, before ({trees['before']}) and after ({HERE}): {args.deals} {args.variant} records, "
          f"{args.worlds} worlds a decision (all of them up to {args.exact_below}; to {args.max_worlds} where the best "
          f"is not told apart), {args.jobs} process(es), {args.rounds} round(s), each record a fresh process of each "
          f"tree in turn; Python {platform.python_version()}, {os.cpu_count()} cores; every fair value the same in "
          f"{same} of {args.deals} records")
    best = {which: [min(rs, key=lambda r: r["fair"]) for rs in runs[which]] for which in trees}
    rows = []
    for which in trees:
        fair = [r["fair"] for r in best[which]]
        rate = sum(r["worlds"] for r in best[which]) / sum(r["cpu"] for r in best[which])
        rows.append([which, f"{statistics.median(fair):.2f}", f"{max(fair):.2f}",
                     f"{statistics.median(r['cpu'] for r in best[which]):.2f}", f"{rate:.0f}",
                     f"{max(r['peak'] for r in best[which]):.0f}", f"{max(r['worker'] for r in best[which]):.0f}"])
    table(["tree", "median s", "worst s", "median CPU s", "worlds/s per core", "peak MB", "worker peak MB"], rows)
    sep = tally.get("separated", 0)
    print(f"verdicts: {tally.get('decisions', 0)} decisions; before told the best apart in {sep}: after the same best "
          f"in {tally.get('same', 0)} ({100 * tally.get('same', 0) / max(1, sep):.1f}%), tied with it in "
          f"{tally.get('tied_after', 0)}, another in {tally.get('other_best', 0)}; contradictions "
          f"{tally.get('contradicted', 0)}; fair means within before's interval {tally.get('within', 0)} of "
          f"{tally.get('means', 0)}")
    ratios = [b["fair"] / a["fair"] for b, a in zip(best["before"], best["after"])]
    cpus = [b["cpu"] / a["cpu"] for b, a in zip(best["before"], best["after"])]
    print(f"before / after, record by record (each tree's best of its rounds): time median {statistics.median(ratios):.2f}, "
          f"lowest {min(ratios):.2f}, highest {max(ratios):.2f}; CPU median {statistics.median(cpus):.2f}, "
          f"lowest {min(cpus):.2f}, highest {max(cpus):.2f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--exact-below", type=int, default=EXACT_BELOW)
    ap.add_argument("--max-worlds", type=int, default=None,
                    help="the most worlds a decision whose best is not told apart draws (default: the commands', "
                         f"{GROWTH} times --worlds; --max-worlds equal to --worlds: no more rounds)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--seed", type=int, default=20240601, help="seed of record 0 (record i uses seed + i)")
    ap.add_argument("--per-deal", action="store_true", help="print every record")
    ap.add_argument("--variant", default="partnership", help="the variant of the records (default partnership)")
    ap.add_argument("--per-world", action="store_true",
                    help="also time (c), a search made for every world, and check its values")
    ap.add_argument("--before", type=Path, help="another source tree to compare with this one, in the same run")
    ap.add_argument("--rounds", type=int, default=1, help="with --before: the runs of each record in each tree")
    ap.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--record", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.max_worlds is None:
        args.max_worlds = GROWTH * args.worlds
    if args.record is not None:
        return one_record(args)
    if args.before is not None:
        return compare(args)
    reps = records(args.deals, args.seed, args.variant)
    print(f"# fair analysis: {args.deals} {args.variant} records, {args.worlds} worlds a decision (all of them "
          f"up to {args.exact_below}), {args.jobs} process(es); Python {platform.python_version()}, "
          f"{os.cpu_count()} cores")
    results = []
    for k, rep in enumerate(reps):
        r = measure(rep, args.worlds, args.exact_below, args.jobs, args.per_world, args.max_worlds)
        results.append(r)
        if args.per_deal:
            fresh = f", per world {r['per_world']:.2f} s" if args.per_world else ""
            print(f"  record {k}: open {r['open']:.2f} s, fair {r['fair']:.2f} s{fresh}, {r['decisions']} decisions, "
                  f"{r['worlds']} worlds ({r['exact']} decisions exact)", flush=True)
    opened = [r["open"] for r in results]
    fair = [r["fair"] for r in results]
    ratios = [f / o for f, o in zip(fair, opened)]
    rows = [
        ["open-hands analysis (a)", f"{statistics.median(opened):.2f}", f"{max(opened):.2f}", "1"],
        ["fair analysis (b)", f"{statistics.median(fair):.2f}", f"{max(fair):.2f}",
         f"{statistics.median(ratios):.0f}"],
    ]
    if args.per_world:
        fresh = [r["per_world"] for r in results]
        rows.append(["(c) a search per world", f"{statistics.median(fresh):.2f}", f"{max(fresh):.2f}",
                     f"{statistics.median(f / o for f, o in zip(fresh, opened)):.0f}"])
    table(["per record", "median s", "worst s", "median ratio to (a)"], rows)
    if args.per_world:
        share = [f / c for f, c in zip(fair, fresh)]
        cpus = [r["fair_cpu"] / r["per_world_cpu"] for r in results]
        print(f"(b) / (c), record by record: median {statistics.median(share):.2f}, worst {max(share):.2f} in time; "
              f"median {statistics.median(cpus):.2f}, worst {max(cpus):.2f} in CPU (user and system); the values agree")
    print(f"worlds solved per record: median {statistics.median(r['worlds'] for r in results):.0f}; "
          f"decisions per record: median {statistics.median(r['decisions'] for r in results):.0f}")
    # a search per world: its tables must be freed as it is dropped, or the peak grows with the worlds solved
    print(f"peak resident memory: {peak_mb(resource.RUSAGE_SELF):.0f} MB in this process, "
          f"{peak_mb(resource.RUSAGE_CHILDREN):.0f} MB in the largest worker")
    return 0


def peak_mb(who: int) -> float:
    """The peak resident memory of this process (or of its largest finished child), in MB (Linux: KB)."""
    return resource.getrusage(who).ru_maxrss / 1024


if __name__ == "__main__":
    sys.exit(main())
