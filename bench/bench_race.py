"""Benchmark the race solver (analyzer/equity/race.py and its C loop) against the DP walk (table.solve_each).

    python3 bench/bench_race.py                          # All Fives for three to 100, the shipped model
    python3 bench/bench_race.py --target 50 --runs 3     # a smaller race, best of 3
    python3 bench/bench_race.py --tables --hands 2000    # the time to make each new table (minutes)
    python3 bench/bench_race.py --lattice                # French, Hungarian for four against whole matches
    python3 bench/bench_race.py --first-use              # the first load of each table stored as its model
    python3 bench/bench_race.py --first-use --before DIR # the same as whole processes, against another tree

(a) The same model and target solved by both: the walk (``solve_each``, the Python DP every table was made
    with) and the race solver (``solve_race``: the match code asked once per new totals, then the sweeps in C),
    and the race solver with its pure-Python loop (``--python``). CPU seconds (``time.process_time``), runs
    alternated, best of ``--runs``; the ratio walk / race solver measured in the same run; the largest
    difference of any player's chance at any position the walk solves.
(b) ``--tables`` (instead of (a)): each new table made as ``domino equity`` makes it (``compute_table``: the
    lead modes it needs, the race solver, French and Hungarian for four on their lattice), its phases
    timed: the hands simulated, the match code's answers, the sweeps; the positions and the leader's mean
    hand value (lead mode ``open``) with its standard error.
(c) ``--lattice``: the shipped tables of French and Hungarian for four, solved on a coarser lattice (a
    reduced state), against ``--matches`` whole matches played out by the match code with real scores, each
    hand drawn from the table's own model, at three positions: the largest difference and its standard errors.
(d) ``--first-use``: each shipped table stored as its model only, loaded (solved, or read as shipped solved:
    ``equity/shipped.py``) once, CPU seconds, against reading the stored All Fives for four table in the same run;
    with ``--before DIR``, each table's first use as a whole process in that source tree and this one, alternated,
    each with a cache folder of its own (issue 57: at most 5 s, or shipped solved).
The machine is shared: read the ratios, measured in the same run, not the seconds.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.analysis import AgainstTheRest  # noqa: E402
from analyzer.equity import first_lead, lattice, load_table  # noqa: E402
from analyzer.equity.model import HandModel, HandPlayers, mode_of, policy_of, simulate_mode  # noqa: E402
from analyzer.equity.race import RaceLoop, race_arrays, solve_race  # noqa: E402
from analyzer.equity.table import solve_each  # noqa: E402
from analyzer.rules import find_variant  # noqa: E402

TABLES = [("all-fives", {"players": "4"}), ("all-fives-threes", {"players": "3"}), ("hungarian", {"players": "3"}),
          ("hungarian", {"players": "4"}), ("french", {})]


def _cpu(fn):
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def compare(target: int, runs: int, python: bool) -> None:
    base = find_variant("all-fives", {"players": "3"})
    shipped = load_table(base)
    v = find_variant("all-fives", {"players": "3", "target": str(target)})
    model = HandModel(v.name, dict(v.options), shipped.model.modes, shipped.model.policy, shipped.model.seed)
    print(f"All Fives for three to {target}, the shipped model: "
          f"{sum(s.hands for s in model.modes.values()):,} hands, "
          f"{sum(len(s.outcomes) for s in model.modes.values()):,} distinct results a leader")
    best = {"walk": float("inf"), "race": float("inf"), "answers": float("inf"), "python": float("inf")}
    walked = solved = None
    for _ in range(runs):
        t, walked = _cpu(lambda: solve_each(v, model))
        best["walk"] = min(best["walk"], t)
        t, arrays = _cpu(lambda: race_arrays(v, model))
        best["answers"] = min(best["answers"], t)
        t, solved = _cpu(lambda: solve_race(v, model, arrays=arrays))
        best["race"] = min(best["race"], t + best["answers"])
        if python:
            t, _ = _cpu(lambda: solve_race(v, model, arrays, how=RaceLoop("python")))
            best["python"] = min(best["python"], t + best["answers"])
    diff = max(max(abs(a - b) for a, b in zip(c, solved[pos])) for pos, c in walked.items())
    print(f"\n| solver | positions | CPU s (best of {runs}) | walk / this |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| DP walk (`solve_each`) | {len(walked):,} | {best['walk']:.2f} | 1.00x |")
    print(f"| race solver, compiled loop | {len(solved):,} | {best['race']:.2f} "
          f"(answers {best['answers']:.2f}, {arrays.asked:,} of them) | {best['walk'] / best['race']:.1f}x |")
    if python:
        print(f"| race solver, pure-Python loop | {len(solved):,} | {best['python']:.2f} | "
              f"{best['walk'] / best['python']:.2f}x |")
    print(f"\nlargest difference at the walk's {len(walked):,} positions: {diff:.2e}")


def tables(hands: int) -> None:
    print("\n| table | hands | positions | simulation CPU s | answers of the match code (CPU s) | sweeps CPU s | "
          "leader's hand value (se) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, rules in TABLES:
        v = find_variant(name, rules or None)
        modes = sorted({mode_of(first_lead(v)), "open"})
        model = HandModel(v.name, dict(v.options), {}, policy_of(v), 0)
        simulated = 0.0
        for mode in modes:
            t, model.modes[mode] = _cpu(lambda: simulate_mode(v, mode, hands, 0, HandPlayers(view=AgainstTheRest)))
            simulated += t
        asked, arrays = _cpu(lambda: race_arrays(v, model, lattice=lattice(v)))
        swept, values = _cpu(lambda: solve_race(v, model, arrays=arrays))
        s = model.modes["open"]
        print(f"| {name} {' '.join(f'{k}={x}' for k, x in rules.items())} | {hands:,} | {len(values):,} | "
              f"{simulated:.1f} | {arrays.asked:,} ({asked:.1f}) | {swept:.1f} | {s.mean:+.2f} ({s.se:.2f}) |")


def lattice_check(name: str, rules: dict, matches: int) -> None:
    """The shipped table of a race on a coarser lattice (French, Hungarian for four) against whole matches
    played out by the match code with real scores, each hand drawn from the table's own model."""
    import random
    from collections import Counter
    from itertools import accumulate

    from analyzer.equity import MatchPosition
    from analyzer.equity.table import resolve
    from analyzer.rules import HandResult, MatchState

    v = find_variant(name, rules or None)
    start = time.process_time()
    table = load_table(v)
    loaded = time.process_time() - start
    sides = v.seating.sides
    draws = {m: (list(s.outcomes), list(accumulate(s.outcomes.values()))) for m, s in table.model.modes.items()}

    def play(state, lead, rng):
        while not state.over:
            side = lead[1] if lead[0] == "side" else rng.randrange(sides)
            outcomes, cumulative = draws[mode_of(lead)]
            o = rng.choices(outcomes, cum_weights=cumulative)[0]
            state = v.match.apply(state, HandResult("domino", None, 0, 0, tuple(o.scores[(s - side) % sides]
                                                                                for s in range(sides)), o.void))
            lead = resolve(v, o.next, side, state)
        return state.winner

    print(f"\n{name} {rules or ''}: lattice {table.meta.get('lattice')}, solved when loaded in {loaded:.1f} s of CPU; "
          f"{matches:,} whole matches a position")
    print("| scores, lead | table | whole matches | largest difference (its standard errors) |")
    print("| --- | --- | --- | --- |")
    for scores, lead in [((0,) * sides, first_lead(v)), ((50, 30, 70, 10), ("any",)), ((93, 87, 61, 97), ("any",))]:
        state = MatchState(scores, (0,) * sides, 1)
        chances = table.chances(MatchPosition(state, lead))
        rng = random.Random(repr(scores))
        won = Counter(play(state, lead, rng) for _ in range(matches))
        share = [(won[k] + won[None] / sides) / matches for k in range(sides)]
        k = max(range(sides), key=lambda i: abs(chances[i] - share[i]))
        se = max((share[k] * (1 - share[k]) / matches) ** 0.5, 1e-9)
        print(f"| {'-'.join(map(str, scores))} {lead[0]} | {' '.join(f'{x:.4f}' for x in chances)} | "
              f"{' '.join(f'{x:.4f}' for x in share)} | {abs(chances[k] - share[k]):.4f} "
              f"({abs(chances[k] - share[k]) / se:.1f}) |")


#: One process's first use of a table (its first look-up, with a cache folder of its own): the table named by its
#: variant and options, looked up at the start of its match.
_FIRST_USE = """
import sys
from analyzer.equity import MatchPosition, first_lead, load_table
from analyzer.rules import find_variant
v = find_variant(sys.argv[1], dict(x.split("=") for x in sys.argv[2:]) or None)
table = load_table(v)
print(table.chances(MatchPosition(v.match.start(v.seating.sides), first_lead(v))))
"""


def first_use_trees(before: Path) -> None:
    """The CPU of a whole process's first use of each race table (Python started, the table loaded, solved or read,
    kept in a fresh cache folder, one position looked up), in another source tree (``before``) and this one,
    alternated in the same run; against a process that loads a table shipped with its values (All Fives for four
    before it stored only its model: Partnership)."""
    import os
    import resource
    import subprocess
    import tempfile

    def once(tree: Path, name: str, rules: dict) -> float:
        with tempfile.TemporaryDirectory(prefix="bench-race-") as folder:
            env = {**os.environ, "PYTHONPATH": str(tree), "DOMINO_CACHE": folder}
            env.pop("DOMINO_TABLES", None)
            start = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, "-c", _FIRST_USE, name, *(f"{k}={x}" for k, x in rules.items())],
                           cwd=tree, env=env, check=True, capture_output=True)
            end = resource.getrusage(resource.RUSAGE_CHILDREN)
        return end.ru_utime - start.ru_utime + end.ru_stime - start.ru_stime

    trees = {"before": before.resolve(), "after": ROOT}
    print(f"\nfirst use of each race table, a whole process each, CPU s (before: {trees['before']}, after: "
          f"{trees['after']})")
    print("| table | before | after | before / after | after / a table shipped with its values |")
    print("| --- | ---: | ---: | ---: | ---: |")
    base = once(ROOT, "partnership", {})
    for name, rules in [("all-fives", {"players": "3"})] + TABLES:
        got = {which: once(tree, name, rules) for which, tree in trees.items()}
        print(f"| {name} {' '.join(f'{k}={x}' for k, x in rules.items())} | {got['before']:.2f} | {got['after']:.2f} | "
              f"{got['before'] / got['after']:.1f}x | {got['after'] / base:.1f}x |", flush=True)


def first_use() -> None:
    """The CPU a process spends the first time it loads each shipped table stored as its model only (the
    race solved then), against reading the shipped All Fives for four table (stored whole) in the same run."""
    import glob
    import os
    import tempfile

    from analyzer.equity import DATA_DIR, SOLVED_ON_LOAD, EquityTable
    from analyzer.equity.store import unpack

    os.environ["DOMINO_CACHE"] = tempfile.mkdtemp(prefix="bench-race-")      # (a first use: nothing kept yet)
    print("\n| table | positions | first load CPU s | against reading a stored table |")
    print("| --- | ---: | ---: | ---: |")
    base = None
    for path in sorted(glob.glob(os.path.join(DATA_DIR, "*.mwc")), key=lambda p: "all-fives_players=4" not in p):
        with open(path, "rb") as fh:
            raw = fh.read()
        header, _ = unpack(raw, path)
        if header.get("values") != SOLVED_ON_LOAD and "all-fives_players=4" not in path:
            continue
        v = find_variant(header["variant"], header["rules"] or None)
        t, table = _cpu(lambda: EquityTable.from_packed(v, raw, path))
        base = base or max(t, 1e-6)
        print(f"| {os.path.basename(path)} | {len(table.values):,} | {t:.2f} | {t / base:.0f}x |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", type=int, default=100)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--python", action="store_true", help="time the pure-Python loop too (slow)")
    ap.add_argument("--tables", action="store_true", help="time the making of each new table")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--lattice", action="store_true",
                    help="check the shipped tables on a coarser lattice (French, Hungarian for four) against "
                         "whole matches")
    ap.add_argument("--matches", type=int, default=4000)
    ap.add_argument("--first-use", action="store_true",
                    help="time the first load of each table stored as its model (solved when loaded)")
    ap.add_argument("--before", type=Path, help="with --first-use: another source tree, its first uses alongside")
    args = ap.parse_args()
    if args.first_use:
        if args.before is not None:
            first_use_trees(args.before)
        else:
            first_use()
        return
    if args.lattice:
        for name, rules in (("hungarian", {"players": "4"}), ("french", {})):
            lattice_check(name, rules, args.matches)
        return
    if args.tables:
        tables(args.hands)
        return
    compare(args.target, args.runs, args.python)


if __name__ == "__main__":
    main()
