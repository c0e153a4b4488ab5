"""How many graded moves the reasons explain (issue 82, ``analysis.reasons``), and what they cost.

    python bench/bench_reasons.py                          # the bundled records (records/)
    python bench/bench_reasons.py --generated 200          # and 200 random matches of each family named
    python bench/bench_reasons.py --generated 20 --families partnership,block

For every game analysed with every hand open: the graded moves (inaccuracies; mistakes and blunders), how many of them
have at least one reason other than ``unexplained``, the codes by how often they occur, and the moves left unexplained;
with ``--generated``, the generated games in all and each family apart.
The time of the analysis with the reasons is given against the same analysis without them, in the same run (the
reasons play out two principal lines a graded move, in the searches that valued it).
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.analysis import AnalysisSettings, analyze_replay  # noqa: E402
from analyzer.analysis.reasons import EXPLAINING  # noqa: E402
from analyzer.match import random_match, replay_record  # noqa: E402
from analyzer.notation import read  # noqa: E402


def bundled():
    for path in sorted((ROOT / "records").glob("*.dom")) + sorted((ROOT / "records").glob("*.txt")):
        try:
            yield path.name, read(path)
        except Exception as exc:           # (a bundled record written to fail: records/errors-syntax.dom)
            print(f"  skipped {path.name}: {type(exc).__name__}", file=sys.stderr)


def generated(families: list[str], count: int):
    for family in families:
        for seed in range(count):
            yield f"{family}#{seed}", random_match(family, seed=seed, games=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generated", type=int, default=0, help="random matches of each family (default 0)")
    parser.add_argument("--families", default="partnership,block,draw,all-fives",
                        help="the families of --generated (comma-separated)")
    args = parser.parse_args()
    sources = [("bundled records", list(bundled()))]
    if args.generated:
        sources.append((f"{args.generated} generated a family", list(generated(args.families.split(","),
                                                                                    args.generated))))
    print(f"{'records':<28} {'games':>6} {'inacc.':>7} {'explained':>10} {'mistake+':>9} {'explained':>10} "
          f"{'time':>8} {'x plain':>8}")
    if args.generated:           # each family apart too
        for family in args.families.split(","):
            sources.append((f"  {family}", [(label, r) for label, r in sources[1][1]
                                            if label.split("#")[0] == family]))
    for name, records in sources:
        codes: Counter = Counter()
        games = graded = graded_ok = serious = serious_ok = 0
        unexplained = []
        spent = plain = 0.0
        for label, record in records:
            for title, timed, moves in measured(label, record):
                plain, spent, games = plain + timed[0], spent + timed[1], games + 1
                for d in moves:
                    ok = any(r.code in EXPLAINING for r in d.reasons or ())
                    codes.update(r.code for r in d.reasons or ())
                    if d.cls == "inaccuracy":
                        graded, graded_ok = graded + 1, graded_ok + ok
                    else:
                        serious, serious_ok = serious + 1, serious_ok + ok
                    if not ok:
                        unexplained.append(f"{label} {title}: {d.player} {d.played} ({d.cls}, loss {d.loss})"
                                           + ("" if d.reasons else " - no reasons: the lines did not give the values"))
        share = lambda ok, n: f"{ok}/{n} {ok / n:.0%}" if n else "-"      # noqa: E731
        print(f"{name:<28} {games:>6} {graded:>7} {share(graded_ok, graded):>10} {serious:>9} "
              f"{share(serious_ok, serious):>10} {spent:>7.2f}s {spent / plain if plain else 0:>7.2f}x")
        print("  codes: " + ", ".join(f"{c} {n}" for c, n in codes.most_common()))
        for line in unexplained[:20]:
            print("  unexplained: " + line)
        if len(unexplained) > 20:
            print(f"  ... and {len(unexplained) - 20} more unexplained")


_MEASURED: dict[str, list] = {}


def measured(label: str, record) -> list:
    """Each game of ``record`` analysed with every hand open (its title, the seconds without the reasons and with
    them, its graded moves), once a label (a family's rows and the rows of all share them)."""
    if label not in _MEASURED:
        out = []
        for rep in replay_record(record):
            if not rep.valid or any(rep.initial.hidden):
                continue
            t0 = time.perf_counter()
            analyze_replay(rep, AnalysisSettings())
            t1 = time.perf_counter()
            analysis = analyze_replay(rep, AnalysisSettings(reasons=True))
            t2 = time.perf_counter()
            out.append((rep.title, (t1 - t0, t2 - t1), [d for d in analysis.decisions if d.cls]))
        _MEASURED[label] = out
    return _MEASURED[label]

if __name__ == "__main__":
    main()
