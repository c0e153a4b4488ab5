"""Benchmark the compiled search over layouts with arms against the pure-Python one, in the same run.

    python bench/bench_arms.py                       # 20 French hands (3 also in pure Python), 20 double-nine crosses
    python bench/bench_arms.py --french 5 --python-french 1 --cross 5

Seeded random hands come from ``analyzer.match.random_match`` (a random legal move at every turn; deal
``i`` uses seed ``--seed + i``). Each is analysed as ``domino analyze`` does it (``analyze_replay``:
every alternative's value at every decision, each player valued against the rest in French) at the
default limits (node limit ``NODE_LIMIT`` a value, a ``TABLE_MB`` table) unless told otherwise, in CPU time
of this process (``time.process_time``: the machine is shared; ``--wall`` for wall-clock time).

French: seconds a hand (median, mean, worst) with the compiled search, and for the first
``--python-french`` hands the same analysis with the pure-Python search over arms (the default core
switched for that run), the ratio per hand and whether every value agrees.
The double-nine cross: in how many hands every value is given (none left out past the node limit),
the share of values given, the decisions whole (every move exact), seconds a hand (median, mean, worst),
each hand analysed in turn with the proven bounds past the node limit and without them (the search's
``bound_past_limit`` off: as before bounds, the baseline of the same run); then what the decisions past
the limit give: how many alternatives are exact, bounded (only by the most a hand can still score, or
narrowed by the search's probes, and how wide), and in how many of them a best move is proven.
``--decision SEED:STEP`` (repeatable): the positions and the time the values of one decision of the
double-nine cross need with no node limit (hand ``SEED``, the position before move ``STEP``, counted
from 0), in place of the tables above; the decisions the default limits stop at were
1001:24 1002:31 1003:17 1006:16 1007:22 1008:11 1009:34 1011:18 1013:10 1014:16.
``--hardest`` (with ``--node-limit``, say 500000000): for each double-nine hand, the positions the
hardest decision the analysis valued needed, the tiles held there, and whether a decision needed more
than the limit: how far the default limit is from each hand.
Memory: the peak the analysis of one hand allocates (tracemalloc, which also sees the compiled
table: it is allocated with ``PyMem_Malloc``), measured in separate runs of the first
``--memory-deals`` hands (of the first hand only, in pure Python) so that tracing does not slow the
timed ones.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_solver import table  # noqa: E402

import analyzer.search.core as core  # noqa: E402
from analyzer.analysis import analyze_replay  # noqa: E402
from analyzer.match import random_match, replay_record  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402
from analyzer.search.tree import NODE_LIMIT, SearchLimit, TreeSearch, revealed, revealed_order  # noqa: E402
from analyzer.analysis import AnalysisSettings  # noqa: E402
from analyzer.search.core import SearchBudget  # noqa: E402


@contextmanager
def arms_core(name: str):
    """The search over arms runs on core ``name`` while inside."""
    saved = core.ARMS_CORE
    core.ARMS_CORE = name
    try:
        yield
    finally:
        core.ARMS_CORE = saved


def hand(variant, seed: int):
    (rep,) = replay_record(random_match(variant, seed, games=1))
    assert rep.valid, rep.errors
    return rep


def analyse(rep, args, clock) -> tuple[float, object]:
    t0 = clock()
    result = analyze_replay(rep, AnalysisSettings(budget=SearchBudget(args.node_limit, args.table_mb)))
    return clock() - t0, result


def analyse_with(rep, search, args, clock) -> tuple[float, object]:
    t0 = clock()
    result = analyze_replay(rep, AnalysisSettings(budget=SearchBudget(args.node_limit, args.table_mb)), searches={0: search})
    return clock() - t0, result


def values(result) -> list:
    return [[(a.move, a.value) for a in d.alternatives] for d in result.decisions] + [result.values]


def peak_mb(rep, args) -> float:
    tracemalloc.start()
    try:
        analyse(rep, args, time.process_time)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def secs(xs: list[float]) -> list[str]:
    return [f"{statistics.median(xs):.2f}", f"{statistics.fmean(xs):.2f}", f"{max(xs):.2f}"]


def french(args, clock) -> None:
    variant = find_variant("french")
    reps = [hand(variant, args.seed + i) for i in range(args.french)]
    compiled = [analyse(rep, args, clock) for rep in reps]
    rows = [["compiled (C)", str(len(reps)), *secs([t for t, _ in compiled])]]
    ratios, agree = [], 0
    if args.python_french:
        with arms_core("python"):
            python = [analyse(rep, args, clock) for rep in reps[:args.python_french]]
        rows.append(["pure Python", str(len(python)), *secs([t for t, _ in python])])
        for (tc, rc), (tp, rp) in zip(compiled, python):
            ratios.append(tp / tc)
            agree += values(rc) == values(rp)
    table("French (4 players each against the rest, 7 tiles each): seconds a hand, whole-hand analysis",
          ["search", "hands", "median", "mean", "worst"], rows)
    if ratios:
        print(f"  ratio python/compiled on the same hands: median {statistics.median(ratios):.1f}x, lowest "
              f"{min(ratios):.1f}x; values identical in {agree}/{len(ratios)} hands")
    given = sum(sum(v is not None for v in r.values) for _, r in compiled)
    print(f"  values given: {given}/{sum(len(r.values) for _, r in compiled)}; target: at most 1 s a hand (median)")
    peaks = [peak_mb(rep, args) for rep in reps[:args.memory_deals]]
    with arms_core("python"):
        python_peaks = [peak_mb(rep, args) for rep in reps[:min(1, args.python_french)]]   # (slow when traced)
    if peaks:
        print(f"  memory: compiled peak {max(peaks):.1f} MB a hand (worst of {len(peaks)}, tracemalloc)"
              + (f"; pure Python peak {max(python_peaks):.1f} MB (worst of {len(python_peaks)})" if python_peaks
                 else ""))


class _Unbounded(TreeSearch):
    """The search as it was before bounds: past the node limit, the values found and nothing of the others
    (the baseline of the same run)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.bound_past_limit = False


def bounds_rows(runs) -> list[list[str]]:
    """What the decisions past the node limit give: alternatives exact, bounded (only by the most a hand can
    still score, ``lo == -hi`` in the cross; narrowed by the search's probes on one side; on both, with the
    median and widest width of these), open on a side, not bounded at all; decisions with a best move proven."""
    alts = [a for _, r in runs for d in r.decisions if d.unsolved for a in d.alternatives]
    bounded = [d for _, r in runs for d in r.decisions if d.unsolved]
    both = [a.bounds for a in alts if a.bounds and None not in a.bounds]
    trivial = [(lo, hi) for lo, hi in both if lo == -hi]
    narrow = []
    for d in bounded:       # the scoring's bound of a decision: the widest end of its bounds (at most)
        ends = [b for a in d.alternatives if a.bounds and None not in a.bounds for b in a.bounds]
        edge = max(map(abs, ends), default=0)
        narrow += [a.bounds[1] - a.bounds[0] for a in d.alternatives
                   if a.bounds and None not in a.bounds and -a.bounds[0] != edge and a.bounds[1] != edge]
    one = sum(1 for a in alts if a.bounds and None in a.bounds)
    return [[str(len(bounded)), f"{sum(any(a.best for a in d.alternatives) for d in bounded)}",
             str(sum(a.value is not None for a in alts)), str(len(both)), str(len(trivial)),
             str(len(both) - len(trivial)), str(one), str(sum(a.value is None and a.bounds is None for a in alts)),
             f"{statistics.median(narrow):g}" if narrow else "-", f"{max(narrow)}" if narrow else "-"]]


def cross(args, clock) -> None:
    variant = find_variant("cross", {"set": "9"})
    reps = [hand(variant, args.seed + i) for i in range(args.cross)]
    def unbounded():
        return _Unbounded(variant, node_limit=args.node_limit, table_mb=args.table_mb)

    analyse_with(reps[0], unbounded(), args, clock)         # (a warm-up, not timed: the first run pays for more)
    runs, before = [], []
    for rep in reps:            # each hand with and without bounds in turn, so that the load of the machine is shared
        runs.append(analyse(rep, args, clock))
        before.append(analyse_with(rep, unbounded(), args, clock))
    rows = []
    for label, these in (("with bounds", runs), ("no bounds (before)", before)):
        complete = sum(r.stopped is None and None not in r.values for _, r in these)
        given = sum(sum(v is not None for v in r.values) for _, r in these)
        whole = sum(not d.unsolved for _, r in these for d in r.decisions)
        rows.append([label, str(len(reps)), f"{complete}/{len(reps)}",
                     f"{given}/{sum(len(r.values) for _, r in these)}", str(whole), *secs([t for t, _ in these])])
    table("The double-nine cross (two pairs, 7 tiles each, 27 sleepers): whole-hand analysis, compiled",
          ["search", "hands", "every value given", "values given", "decisions whole", "median s", "mean s",
           "worst s"], rows)
    ratios = [t / b for (t, _), (b, _) in zip(runs, before)]
    print(f"  seconds a hand with bounds / without them (the baseline of this run): median "
          f"{statistics.median(ratios):.2f}x, worst {max(ratios):.2f}x")
    missing = [args.seed + i for i, (_, r) in enumerate(runs) if r.stopped is not None or None in r.values]
    print(f"  hands with values left out (seed): {missing or 'none'}")
    table("Decisions past the node limit: their alternatives (bounds from the search's null-window probes)",
          ["decisions", "best proven", "exact", "bounded", "scoring's bound only", "narrowed", "one side open",
           "none", "median width*", "widest*"], bounds_rows(runs))
    print("  * of the bounds narrowed on both sides (neither end the most a hand can still score)")
    peaks = [peak_mb(rep, args) for rep in reps[:args.memory_deals]]
    if peaks:
        print(f"  memory: peak {max(peaks):.1f} MB a hand (worst of {len(peaks)}, tracemalloc)")


def decisions(args, clock) -> None:
    variant = find_variant("cross", {"set": "9"})
    rows = []
    for seed, step in args.decision:
        spec = f"{seed}:{step}"
        rep = hand(variant, seed)
        drawn = [s.move.tile for s in rep.steps if s.move is not None and s.move.draw]
        pos = revealed(rep.initial.copy(), revealed_order(rep.initial, drawn))
        for s in rep.steps[:step]:
            if s.move is not None:
                pos.push(s.move)
        search = TreeSearch(variant, node_limit=10**12, table_mb=args.table_mb)
        t0 = clock()
        values = search.values(pos)
        rows.append([spec, " ".join(str(pos.count(t)) for t in range(pos.n)), str(len(values)),
                     f"{search.nodes:,}", f"{clock() - t0:.2f}"])
    table("The double-nine cross: the values of one decision with no node limit",
          ["seed:step", "tiles held", "moves", "positions", "seconds"], rows)


class _Counted(TreeSearch):
    """A search that keeps the positions each call needed, with the tiles held where it was asked; after
    the first call past the node limit it refuses the rest at once (the hand's hardest decision is then
    known to need more: its earlier ones need not be tried at the limit each)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.calls: list[tuple[int, str]] = []
        self.over: str | None = None        # the tiles held where a call first ran past the limit
        self.bound_past_limit = False       # (what a decision needs is measured, not its bounds)

    def _counted(self, search, pos):
        if self.over is not None:
            raise SearchLimit("refused after the first call past the limit")
        held = " ".join(str(pos.count(t)) for t in range(pos.n))
        try:
            out = search(pos)
        except SearchLimit:
            self.over = held
            raise
        self.calls.append((self.nodes, held))
        return out

    def values(self, pos):
        return self._counted(super().values, pos)

    def solve(self, pos):
        return self._counted(super().solve, pos)


def hardest(args, clock) -> None:
    variant = find_variant("cross", {"set": "9"})
    limit = args.node_limit or NODE_LIMIT
    rows, fits = [], 0
    for i in range(args.cross):
        rep = hand(variant, args.seed + i)
        search = _Counted(variant, node_limit=limit, table_mb=args.table_mb)
        t0 = clock()
        analyze_replay(rep, AnalysisSettings(budget=SearchBudget(limit, args.table_mb)), searches={0: search})
        took = clock() - t0
        most, held = max(search.calls) if search.calls else (0, "-")
        if search.over is not None:
            most_text, held = f"more than {limit:,}", search.over
        else:
            fits += 1
            most_text = f"{most:,}"
        rows.append([str(args.seed + i), held, most_text, f"{took:.1f}"])
    table(f"The double-nine cross: positions the hardest decision of each hand needs (limit {limit:,})",
          ["seed", "tiles held there", "positions", "seconds"], rows)
    print(f"  hands whose every decision fits in {limit:,} positions: {fits}/{args.cross}")


def seed_step(text: str) -> tuple[int, int]:
    """``SEED:STEP`` as two ints (argparse reports anything else as a usage error)."""
    seed, sep, step = text.partition(":")
    if not (sep and seed.strip().isdigit() and step.strip().isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not SEED:STEP (two whole numbers, such as 1001:24)")
    return int(seed), int(step)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--french", type=int, default=20, help="French hands")
    ap.add_argument("--python-french", type=int, default=3, help="of them, also analysed in pure Python")
    ap.add_argument("--cross", type=int, default=20, help="double-nine cross hands")
    ap.add_argument("--memory-deals", type=int, default=3, help="hands measured again for memory")
    ap.add_argument("--seed", type=int, default=1000, help="seed of hand 0 (hand i uses seed + i)")
    ap.add_argument("--node-limit", type=int, default=None, help=f"positions a value (default {NODE_LIMIT:,})")
    ap.add_argument("--table-mb", type=float, default=core.TABLE_MB, help="the bound of the transposition table")
    ap.add_argument("--wall", action="store_true", help="time in wall-clock seconds, not CPU seconds")
    ap.add_argument("--decision", action="append", default=[], metavar="SEED:STEP", type=seed_step,
                    help="the positions one decision of the double-nine cross needs (repeatable)")
    ap.add_argument("--hardest", action="store_true",
                    help="the positions the hardest decision of each double-nine hand needs, up to --node-limit")
    args = ap.parse_args(argv)
    clock = time.perf_counter if args.wall else time.process_time
    if core.arms_core() is None:
        print("the compiled search over arms is not built (python3 -m pip install -e . builds it in place)")
        return 1
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cpus; cores: {core.cores_text()}; "
          f"seeds from {args.seed}; {'wall-clock' if args.wall else 'CPU'} time; table {args.table_mb} MB")
    if args.decision:
        decisions(args, clock)
        return 0
    if args.hardest:
        hardest(args, clock)
        return 0
    if args.french:
        french(args, clock)
    if args.cross:
        cross(args, clock)
    return 0


if __name__ == "__main__":
    sys.exit(main())
