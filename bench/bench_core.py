"""Benchmark the compiled search core against the pure-Python one, in the same run.

    python bench/bench_core.py                  # 50 deals, best of 3, about a minute
    python bench/bench_core.py --deals 10 --repeat 1
    python bench/bench_core.py --yardstick-only     # ours against the C yardstick only
    python bench/bench_core.py --yardstick-only --tree /tmp/core-base   # another tree's (main's) against it

For the seeded partnership deals of ``bench_solver.py`` (same seeds, same random lines of play):
the whole-record analysis (``Solver.values`` at every decision along the played line, one solver
for the hand), once with ``Solver(core="compiled")`` and once with ``Solver(core="python")``, the
best of ``--repeat`` runs each, in CPU time of this process (``time.process_time``: the machine is
shared, and CPU time counts only this run's work; ``--wall`` for wall-clock time). Prints the times (median, mean, worst), the ratio python/compiled
per deal (median and worst, i.e. lowest), whether every value agrees, and the memory of each:
the compiled table's slots as allocated (``Table.nbytes``) and the pure-Python search's peak
allocation (tracemalloc, measured in a separate run so that it does not slow the timed ones), and
the states each core searched (the count the node limit bounds: the same in both while neither
table is full). Each run starts from a collected heap, without the other core's tables.

The scorings the core computes from their description (``analyzer/search/scoring.py``, ``_leaf.h``):
Jamaican (a point a game), Quinientos (all pips, capicú and chuchazo) and Whist with good points (the
difference), on the first ``--generic-deals`` deals, each three ways in the same run: the compiled
search with the leaf value computed in C (now), the compiled search asking Python for every finished
hand's value (as before: the variant wrapped in a subclass whose ``value`` the description does not
know), and the pure-Python search; with the ratios of the first two to the compiled one.

Against the C yardstick (``bench/yardstick.c``, its docstring says what it does; compiled here with the
system ``cc -O2``, not part of the package): the whole-record analysis above is run once more with every
call into the compiled core recorded (the deal; the state, the window, the first guess of an MTD(f), or
the moves of a decision valued in one call; the values and the positions searched); the yardstick, a plain stand-alone C solver of the same search with
no Python in the loop, answers the same calls, in its own CPU time; ``--repeat`` rounds, each running the
yardstick over every record, then ours over every record (so a busy spell slows both alike), each record
three times in a row in each round; the best of all kept for each record.
Printed: our time a record (``Solver.values`` at every decision, as ``domino analyze`` drives the core)
over the yardstick's, median and worst, and whether the yardstick found every value and searched
exactly as many positions in every call (it must: the same search).
"""
from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
if "--tree" in sys.argv[:-1]:   # the analyser of another source tree (its cores built), e.g. a checkout of main
    sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--tree") + 1]).resolve()))
    import analyzer  # noqa: E402,F401  (imported first: bench_solver puts this tree ahead again)

from bench_solver import PARTNERSHIP, best_of, deal, ms, played_line, table  # noqa: E402

from analyzer.position import Position  # noqa: E402
from analyzer.rules.variants import Variant, find_variant  # noqa: E402
from analyzer.search.block import Solver  # noqa: E402
from analyzer.search.blockdeal import CoreDeal  # noqa: E402
from analyzer.search.scoring import standard_scoring  # noqa: E402
from analyzer.search.alphabeta import INF  # noqa: E402
from analyzer.search.core import CORE, TABLE_MB, compiled_core  # noqa: E402


#: each deal's hands, leader and line of play, made once: the record a user's analysis reads, not part of it
_RECORDS: dict[int, tuple] = {}


def analyse_record(seed: int, variant, core: str, table_mb: float) -> tuple[list, Solver, int]:
    """Every alternative's value at every decision of deal ``seed``'s line: (values, the solver,
    the states it searched). The deal and its random line are drawn on the first call of a seed only
    (the best of the timed runs is then the analysis alone, as the yardstick's is its calls alone)."""
    if seed not in _RECORDS:
        hands, leader, _ = deal(seed)
        _RECORDS[seed] = (hands, leader, played_line(seed))
    hands, leader, line = _RECORDS[seed]
    solver = Solver(variant, core=core, table_mb=table_mb)
    position = Position(hands, turn=leader)
    out = []
    nodes = 0
    for move in line:
        if len(position.legal_moves()) > 1:
            out.append(solver.values(position))
            nodes += solver.nodes
        position.push(move)
    return out, solver, nodes


def python_peak(seed: int, variant, table_mb: float) -> int:
    """The peak bytes the pure-Python analysis of one record allocates."""
    tracemalloc.start()
    try:
        analyse_record(seed, variant, "python", table_mb)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def compare(seeds: list[int], variant, repeat: int, table_mb: float, clock) -> dict:
    rows = []
    for seed in seeds:
        # each run starts from a collected heap: the pure-Python tables of the last record (millions of
        # tuples) would otherwise be scanned by a collection during the next record's compiled run
        gc.collect()
        tc, (vc, solver, n_compiled) = best_of(repeat, lambda: analyse_record(seed, variant, "compiled", table_mb),
                                               clock)
        gc.collect()
        tp, (vp, _, n_python) = best_of(repeat, lambda: analyse_record(seed, variant, "python", table_mb), clock)
        del _
        nbytes = solver.table_size()[1]
        rows.append(dict(seed=seed, compiled=tc, python=tp, agree=vc == vp, nbytes=nbytes, nodes=n_compiled,
                         same_nodes=n_compiled == n_python, decisions=len(vc), alternatives=sum(len(v) for v in vc)))
    return dict(rows=rows, peak=max(python_peak(s, variant, table_mb) for s in seeds[:3]))


def report(title: str, out: dict, table_mb: float) -> None:
    rows = out["rows"]

    def line(name, xs):
        return [name, ms(statistics.median(xs)), ms(statistics.fmean(xs)), ms(max(xs)), f"{sum(xs):8.2f}"]

    compiled = [r["compiled"] for r in rows]
    python = [r["python"] for r in rows]
    table(title, ["core", "median", "mean", "worst", "total s"],
          [line("compiled (C)", compiled), line("pure Python", python)])
    ratios = [r["python"] / r["compiled"] for r in rows]
    print(f"  ratio python/compiled per record: median {statistics.median(ratios):.1f}x, lowest "
          f"{min(ratios):.1f}x, highest {max(ratios):.1f}x; medians {statistics.median(python) / statistics.median(compiled):.1f}x")
    print(f"  {statistics.median(r['decisions'] for r in rows):.0f} decisions, "
          f"{statistics.median(r['alternatives'] for r in rows):.0f} alternatives a record (median); "
          f"values identical in {sum(r['agree'] for r in rows)}/{len(rows)} records")
    nodes = [r["nodes"] for r in rows]
    print(f"  states searched a record (the node limit's count): median {statistics.median(nodes):,.0f}, most "
          f"{max(nodes):,}; the same count in both cores in {sum(r['same_nodes'] for r in rows)}/{len(rows)} records")
    print(f"  memory: compiled table {max(r['nbytes'] for r in rows) / 2**20:.2f} MB at most (bound {table_mb} MB, "
          f"{compiled_core().ENTRY_BYTES} bytes a slot); pure Python peak {out['peak'] / 2**20:.2f} MB "
          f"(tracemalloc, worst of the first 3 records)")


class PythonLeaf(Variant):
    """The same rules with a ``value`` of their own: the description does not know it, so the compiled
    search asks Python for every finished hand's value (the core before ``_leaf.h``)."""

    def value(self, facts):
        return Variant.value(self, facts)


def python_leaf(variant: Variant) -> Variant:
    return PythonLeaf(**{f: getattr(variant, f) for f in variant.__dataclass_fields__})


def compare_leaves(seeds: list[int], variant, repeat: int, table_mb: float, clock) -> list[dict]:
    """Per deal: the times of the compiled search (leaf in C), the compiled search with the Python leaf
    and the pure-Python search, whether all three give the same values, the states each searched
    (the C leaf's scoring may prune with a bound the unknown ``value`` does not allow) and whether
    the two searches of the same scoring searched the same states."""
    slow = python_leaf(variant)
    rows = []
    for seed in seeds:
        row = dict(seed=seed)
        values, nodes = [], []
        for name, rules, core in (("c", variant, "compiled"), ("py_leaf", slow, "compiled"), ("python", variant, "python")):
            gc.collect()
            row[name], (v, _, n) = best_of(repeat, lambda: analyse_record(seed, rules, core, table_mb), clock)
            values.append(v)
            nodes.append(n)
        row["agree"] = values[0] == values[1] == values[2]
        row["same_nodes"] = nodes[0] == nodes[2]
        row["nodes"], row["nodes_before"] = nodes[0], nodes[1]
        rows.append(row)
    return rows


def report_leaves(title: str, rows: list[dict]) -> None:
    def line(name, key):
        xs = [r[key] for r in rows]
        return [name, ms(statistics.median(xs)), ms(statistics.fmean(xs)), ms(max(xs)),
                f"{statistics.median(r[key] / r['c'] for r in rows):.1f}x", f"{min(r[key] / r['c'] for r in rows):.1f}x"]

    table(title, ["search", "median", "mean", "worst", "ratio to C leaf (median)", "lowest"],
          [line("compiled, leaf in C", "c"), line("compiled, leaf asked of Python (before)", "py_leaf"),
           line("pure Python", "python")])
    print(f"  the same values in all three in {sum(r['agree'] for r in rows)}/{len(rows)} records; states a record "
          f"(median) {statistics.median(r['nodes'] for r in rows):,.0f} with the scoring's bound, "
          f"{statistics.median(r['nodes_before'] for r in rows):,.0f} without (before); the same states in C "
          f"and pure Python in {sum(r['same_nodes'] for r in rows)}/{len(rows)}")


NONE = 2_000_000_000     # in a trace: no value (the move ends the hand)


class Recorder:
    """A compiled deal's core that writes each call into the trace as it passes it on."""

    def __init__(self, core, calls: list[str]) -> None:
        self.core, self.calls = core, calls

    def __getattr__(self, name):
        return getattr(self.core, name)

    def mtdf(self, hands, pips, K, e, s, alpha, beta, guess, budget):
        before = self.core.nodes
        value = self.core.mtdf(hands, pips, K, e, s, alpha, beta, guess, budget)
        self.calls.append(" ".join(map(str, ("M", K, e, s, *pips, *hands[:len(hands) - 1], max(alpha, -INF),
                                             min(beta, INF), guess, value, self.core.nodes - before))))
        return value

    def plays(self, hands, pips, K, e, s, codes, budget):
        values, used, over = self.core.plays(hands, pips, K, e, s, codes, budget)
        self.calls.append(" ".join(map(str, ("P", K, e, s, *pips, *hands[:len(hands) - 1], len(codes),
                                             *(x for c in codes for x in c),
                                             *(NONE if v is None else v for v in values), used))))
        return values, used, over


def traced_record(seed: int, variant, table_mb: float) -> str:
    """The record of deal ``seed`` as the yardstick reads it: the deal, then every call the whole-record
    analysis makes into the compiled core (``mtdf`` of a state, or ``plays`` of a decision's moves), with
    its values and the positions it searched."""
    calls, deals = [], []
    plain = CoreDeal._build_search

    def build(self, standard):
        plain(self, standard)
        self.core = Recorder(self.core, calls)
        deals.append(self)

    CoreDeal._build_search = build
    try:
        analyse_record(seed, variant, "compiled", table_mb)
    finally:
        CoreDeal._build_search = plain
    assert len(deals) == 1 and deals[0].inline and not deals[0].pass_bonus, "the yardstick plays one inline deal"
    d = deals[0]
    head = [d.n, d.max_pip, standard_scoring(variant)[1], d.bound, d.most, len(calls)]
    head += [x for s in range(d.n) for x in (d.side[s], d.dealt[s])]
    return "\n".join([" ".join(map(str, head)), *calls])


def yardstick(seeds: list[int], variant, repeat: int, table_mb: float, clock) -> dict | None:
    """Per record: our CPU seconds (best of ``repeat``), the yardstick's, the positions, and whether
    the yardstick agrees on every value and count. None without a C compiler."""
    source = Path(__file__).resolve().parent / "yardstick.c"
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "yardstick"
        try:
            subprocess.run(["cc", "-O2", "-o", str(exe), str(source)], check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError):
            return None
        trace = "\n".join([str(len(seeds)), *(traced_record(s, variant, table_mb) for s in seeds)]) + "\n"
        c_times, ours, nodes, same = [None] * len(seeds), [None] * len(seeds), [0] * len(seeds), [True] * len(seeds)
        for _ in range(repeat):         # alternating rounds: a busy spell of the machine slows both alike
            out = subprocess.run([str(exe), "3"], input=trace, capture_output=True, text=True, check=True).stdout
            for i, line in enumerate(out.split("\n")[:len(seeds)]):
                _, t, n, ok = line.split()
                c_times[i] = float(t) if c_times[i] is None else min(c_times[i], float(t))
                nodes[i] = int(n)
                same[i] = same[i] and ok == "1"
            for i, seed in enumerate(seeds):
                gc.collect()
                t, (_, _, n_ours) = best_of(3, lambda: analyse_record(seed, variant, "compiled", table_mb), clock)
                ours[i] = t if ours[i] is None else min(ours[i], t)
                same[i] = same[i] and n_ours == nodes[i]
    rows = [dict(seed=seed, ours=ours[i], c=c_times[i], nodes=nodes[i], same=same[i]) for i, seed in enumerate(seeds)]
    return dict(rows=rows)


def report_yardstick(out: dict | None) -> None:
    if out is None:
        print("  (no C compiler: the yardstick was not measured)")
        return
    rows = out["rows"]
    ratios = [r["ours"] / r["c"] for r in rows]
    table("Whole-record analysis against the C yardstick (the same MTD(f) calls; ms)",
          ["solver", "median", "mean", "worst", "total s"],
          [[name, ms(statistics.median(xs)), ms(statistics.fmean(xs)), ms(max(xs)), f"{sum(xs):8.3f}"]
           for name, xs in (("ours (Solver.values)", [r["ours"] for r in rows]),
                            ("C yardstick", [r["c"] for r in rows]))])
    print(f"  ratio ours/yardstick per record: median {statistics.median(ratios):.2f}x, worst {max(ratios):.2f}x, "
          f"best {min(ratios):.2f}x; totals {sum(r['ours'] for r in rows) / sum(r['c'] for r in rows):.2f}x "
          f"(target: at most 1.2x)")
    print(f"  the yardstick found every value and searched the same positions in every call in "
          f"{sum(r['same'] for r in rows)}/{len(rows)} records ({sum(r['nodes'] for r in rows):,} positions)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=20240601, help="seed of deal 0 (deal i uses seed + i)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement, the best is kept")
    ap.add_argument("--table-mb", type=float, default=TABLE_MB, help="the bound of the transposition table")
    ap.add_argument("--generic-deals", type=int, default=10,
                    help="deals also measured under the jamaican, quinientos, whist and pass-bonus scorings (0: skip)")
    ap.add_argument("--yardstick-only", action="store_true", help="only ours against the C yardstick")
    ap.add_argument("--tree", help="measure the analyser of this source tree (e.g. a checkout of main)")
    ap.add_argument("--wall", action="store_true", help="time in wall-clock seconds, not CPU seconds")
    args = ap.parse_args(argv)
    clock = time.perf_counter if args.wall else time.process_time
    if compiled_core() is None:
        print("the compiled core is not built (python3 -m pip install -e . builds it in place)")
        return 1
    print(f"analyser of {Path(sys.modules['analyzer'].__file__).parent.parent}")
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cpus; default core {CORE}; "
          f"{args.deals} deals from seed {args.seed}, best of {args.repeat} runs, "
          f"{'wall-clock' if args.wall else 'CPU'} time")
    seeds = [args.seed + i for i in range(args.deals)]
    if args.yardstick_only:
        report_yardstick(yardstick(seeds, PARTNERSHIP, args.repeat, args.table_mb, clock))
        return 0
    report("Whole-record analysis, partnership (losers' pips, written inline in the core; ms)",
           compare(seeds, PARTNERSHIP, args.repeat, args.table_mb, clock), args.table_mb)
    print("  target: at least 12x, about 12 ms median a record")
    report_yardstick(yardstick(seeds, PARTNERSHIP, args.repeat, args.table_mb, clock))
    if args.generic_deals:
        for name, options, what in (("jamaican", {}, "a point a game"),
                                    ("quinientos", {}, "all pips, capicú and chuchazo"),
                                    ("whist", {"score": "good"}, "good points: the difference"),
                                    ("partnership", {"pass-bonus": "yes"}, "pass bonuses, paid play by play")):
            variant = find_variant(name, options)
            assert not standard_scoring(variant)[0]
            report_leaves(f"Whole-record analysis, first {args.generic_deals} deals, {name} ({what}; ms)",
                          compare_leaves(seeds[:args.generic_deals], variant, args.repeat, args.table_mb, clock))
    return 0


if __name__ == "__main__":
    sys.exit(main())
