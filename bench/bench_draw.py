"""Benchmark the search of draw games (in the revealed boneyard order), All Fives and Hungarian: compiled, pure
Python, and the old walk over positions, in the same run.

    python bench/bench_draw.py        # 10 hands a family (1 also by the position walk), the fair analysis
    python bench/bench_draw.py --hands 3 --walk 1 --no-fair       # a quick look
    python bench/bench_draw.py --family hungarian --walk 10 --no-fair     # Hungarian's runs, every hand walked too

Seeded random hands come from ``analyzer.match.random_match`` (a random legal move at every turn; hand ``i``
of a family uses seed ``--seed + i``). Each is analysed as ``domino analyze`` does it with every hand open
(``analyze_replay``: every alternative's value at every decision; a game of individual players valued for
each mover against the rest) three ways:

* compiled: the compact state in C (``analyzer.search._draw``, the default core);
* pure Python: the same compact state in Python (``analyzer.search.draw._DrawDeal``; ``DOMINO_PURE_PYTHON=1``);
* position walk: the general search over the positions themselves, as before the compact state
  (``TreeSearch.draw_state`` off), for the first ``--walk`` hands of each family.

Seconds a hand (median and worst, CPU time of this process: the machine is shared; ``--wall`` for
wall-clock time), the ratios on the same hands, whether every value both give agrees and how many step
values each leaves out past the node limit (a search whose table is full may need more positions), and
memory: the peak one
hand's analysis allocates (tracemalloc, which sees the compiled table too: ``PyMem_Malloc``), measured
in separate runs of the first hand so that tracing does not slow the timed ones.

Then the fair analysis of ``records/draw-one-view.dom`` (A's view, 200 worlds a decision, ``--jobs``
processes) through the command line, wall-clock seconds, with the default cores and with
``DOMINO_PURE_PYTHON=1``.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_solver import table  # noqa: E402

import analyzer.search.core as core  # noqa: E402
import analyzer.search.tree as tree  # noqa: E402
from analyzer.analysis import analyze_replay  # noqa: E402
from analyzer.match import random_match, replay_record  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402

FAMILIES = [("draw", {}), ("draw", {"draw": "one", "keep": "0"}), ("draw", {"players": "3"}),
            ("cutthroat", {"draw": "yes"}), ("chiva", {"players": "2"}), ("chiva", {"players": "3"}),
            ("all-fives", {}), ("all-fives", {"draw": "no"}), ("all-fives-threes", {}),
            ("hungarian", {"players": "2"}), ("hungarian", {"players": "3"}), ("hungarian", {"players": "4"})]


@contextmanager
def way(name: str):
    """Analyse with the compact state ``compiled`` or in ``python``, or by the ``walk`` over positions."""
    saved, plays = core.DRAW_CORE, tree.plays_draws
    core.DRAW_CORE = "python" if name != "compiled" else "compiled"
    if name == "walk":
        tree.plays_draws = lambda rules: False
    try:
        yield
    finally:
        core.DRAW_CORE, tree.plays_draws = saved, plays


def hand(variant, seed: int):
    (rep,) = replay_record(random_match(variant, seed, games=1))
    assert rep.valid, rep.errors
    return rep


def analyse(rep, clock) -> tuple[float, list]:
    t0 = clock()
    result = analyze_replay(rep)
    took = clock() - t0
    return took, [[(a.move, a.value) for a in d.alternatives] for d in result.decisions] + [result.values]


def peak_mb(rep) -> float:
    tracemalloc.start()
    try:
        analyze_replay(rep)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def same(a: list, b: list) -> bool:
    """Two analyses agree on every value both give (one may leave values out past the node limit)."""
    da, db = a[:-1], b[:-1]             # the decisions, the earliest left out where a search stopped
    k = min(len(da), len(db))
    return da[len(da) - k:] == db[len(db) - k:] and all(x == y or None in (x, y) for x, y in zip(a[-1], b[-1]))


def left_out(values: list) -> int:
    """The values of the steps an analysis leaves out (past the node limit)."""
    return sum(v is None for v in values[-1])


def secs(xs: list[float]) -> str:
    return f"{statistics.median(xs):.3f} / {max(xs):.3f}" if xs else "-"


def ratio(slow: list[float], fast: list[float]) -> str:
    rs = [s / f for s, f in zip(slow, fast) if f > 0]
    return f"{statistics.median(rs):.1f}x" if rs else "-"


def open_hands(args, clock) -> None:
    rows, memory = [], []
    for name, options in FAMILIES:
        if args.family and name not in args.family:
            continue
        variant = find_variant(name, options)
        reps = [hand(variant, args.seed + i) for i in range(args.hands)]
        runs = {}
        for how, count in (("compiled", len(reps)), ("python", len(reps)), ("walk", min(args.walk, len(reps)))):
            with way(how):
                runs[how] = [analyse(rep, clock) for rep in reps[:count]]
        t = {how: [x for x, _ in r] for how, r in runs.items()}
        agree = all(same(runs["compiled"][i][1], runs["python"][i][1]) for i in range(len(reps))) and all(
            same(runs["walk"][i][1], runs["compiled"][i][1]) for i in range(len(runs["walk"])))
        missing = {how: sum(left_out(v) for _, v in r) for how, r in runs.items()}
        label = "-".join([name] + [f"{k}={v}" for k, v in options.items()])
        rows.append([label, str(len(reps)), secs(t["compiled"]), secs(t["python"]), secs(t["walk"]),
                     ratio(t["python"], t["compiled"]), ratio(t["walk"], t["compiled"][:len(t["walk"])]),
                     "yes" if agree else "NO", " / ".join(str(missing[how]) for how in ("compiled", "python"))])
        if args.memory:
            peaks = []
            for how in ("compiled", "python"):
                with way(how):
                    peaks.append(peak_mb(reps[0]))
            memory.append([label, f"{peaks[0]:.1f}", f"{peaks[1]:.1f}"])
    table(f"Open-hands analysis of whole random hands: seconds a hand (median / worst), "
          f"{'wall-clock' if args.wall else 'CPU'} time",
          ["family", "hands", "compiled", "pure Python", "position walk", "python/compiled", "walk/compiled",
           "values equal", "left out (C / Python)"], rows)
    if memory:
        table("Memory: peak of one hand's analysis, MB (tracemalloc, the first hand)",
              ["family", "compiled", "pure Python"], memory)


def fair(args) -> None:
    record = ROOT / "records" / "draw-one-view.dom"
    rows = []
    times = {}
    for label, extra in (("compiled", {}), ("pure Python", {core.PURE_ENV: "1"})):
        env = dict(os.environ, PYTHONPATH=str(ROOT), **extra)
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "analyzer", "analyze", str(record), "--jobs", str(args.jobs)],
                             env=env, cwd=ROOT, capture_output=True, text=True)
        times[label] = time.perf_counter() - t0
        rows.append([label, f"{times[label]:.1f}", str(out.returncode)])
    table(f"Fair analysis of records/draw-one-view.dom (A's view, 200 worlds a decision, --jobs {args.jobs}): "
          "wall-clock seconds", ["core", "seconds", "exit"], rows)
    print(f"  ratio pure Python / compiled: {times['pure Python'] / times['compiled']:.1f}x")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=10, help="random hands a family")
    ap.add_argument("--walk", type=int, default=1, help="of them, also analysed by the position walk")
    ap.add_argument("--seed", type=int, default=4000, help="seed of hand 0 (hand i uses seed + i)")
    ap.add_argument("--jobs", type=int, default=2, help="processes of the fair analysis")
    ap.add_argument("--family", action="append", help="only this family (draw, cutthroat, chiva, all-fives, "
                    "all-fives-threes, hungarian); may be repeated")
    ap.add_argument("--no-fair", action="store_true", help="leave out the fair analysis of the record")
    ap.add_argument("--no-memory", dest="memory", action="store_false", help="leave out the memory runs")
    ap.add_argument("--wall", action="store_true", help="time in wall-clock seconds, not CPU seconds")
    args = ap.parse_args(argv)
    clock = time.perf_counter if args.wall else time.process_time
    if core.draw_core() is None:
        print("the compiled search of draw games is not built (python3 -m pip install -e . builds it in place)")
        return 1
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cpus; cores: "
          f"{core.cores_text()}; seeds from {args.seed}; table {core.TABLE_MB} MB")
    open_hands(args, clock)
    if not args.no_fair:
        fair(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
