"""How many graded moves the reasons explain (issue 82, ``analysis.reasons``), and what they cost.

    python bench/bench_reasons.py                          # the bundled records (records/)
    python bench/bench_reasons.py --generated 200          # and 200 random matches of each family named
    python bench/bench_reasons.py --generated 20 --families partnership,block
    python bench/bench_reasons.py --over                   # the reasons over deals: fair verdicts' and sheets'

For every game analysed with every hand open: the graded moves (inaccuracies; mistakes and blunders), how many of them
have at least one reason other than ``unexplained``, and how many have one that names a cause (``by cause``: neither
``count`` nor ``pips-left``, which say how the hand ended rather than why: see docs/reasons.md), the codes by how often
they occur, and the moves left unexplained; with ``--generated``, the generated games in all and each family apart.
The time of the analysis with the reasons is given against the same analysis without them, in the same run (the
reasons play out two principal lines a graded move, in the searches that valued it).

``--over``: the reasons over deals (``analysis.dealreasons``) on a few bundled records: the fair analysis's graded
moves (``--fair``, its worlds ``--worlds``) and a sheet's, how many got at least one reason (over the deals; a sheet
that allows one deal: that deal's open-hands reasons), and the
time they took against the analysis they are added to (the fair analysis; the sheet's analysis over its deals).
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

# the codes that name a cause: all but those that say how the hand ended (``count``, ``pips-left``)
CAUSES = EXPLAINING - {"count", "pips-left"}
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
    parser.add_argument("--over", action="store_true", help="the reasons over deals (fair verdicts', sheets')")
    parser.add_argument("--worlds", type=int, default=50, help="--over: the fair analysis's worlds (default 50)")
    args = parser.parse_args()
    if args.over:
        return over(args.worlds)
    sources = [("bundled records", list(bundled()))]
    if args.generated:
        sources.append((f"{args.generated} generated a family", list(generated(args.families.split(","),
                                                                                    args.generated))))
    print(f"{'records':<28} {'games':>6} {'inacc.':>7} {'explained':>11} {'by cause':>11} {'mistake+':>9} "
          f"{'explained':>11} {'by cause':>11} {'time':>8} {'x plain':>8}")
    if args.generated:           # each family apart too
        for family in args.families.split(","):
            sources.append((f"  {family}", [(label, r) for label, r in sources[1][1]
                                            if label.split("#")[0] == family]))
    for name, records in sources:
        codes: Counter = Counter()
        games = graded = graded_ok = serious = serious_ok = graded_cause = serious_cause = 0
        unexplained = []
        spent = plain = 0.0
        for label, record in records:
            for title, timed, moves in measured(label, record):
                plain, spent, games = plain + timed[0], spent + timed[1], games + 1
                for d in moves:
                    ok = any(r.code in EXPLAINING for r in d.reasons or ())
                    cause = any(r.code in CAUSES for r in d.reasons or ())
                    codes.update(r.code for r in d.reasons or ())
                    if d.cls == "inaccuracy":
                        graded, graded_ok, graded_cause = graded + 1, graded_ok + ok, graded_cause + cause
                    else:
                        serious, serious_ok, serious_cause = serious + 1, serious_ok + ok, serious_cause + cause
                    if not ok:
                        unexplained.append(f"{label} {title}: {d.player} {d.played} ({d.cls}, loss {d.loss})"
                                           + ("" if d.reasons else " - no reasons: the lines did not give the values"))
        share = lambda ok, n: f"{ok}/{n} {ok / n:.0%}" if n else "-"      # noqa: E731
        print(f"{name:<28} {games:>6} {graded:>7} {share(graded_ok, graded):>11} {share(graded_cause, graded):>11} "
              f"{serious:>9} {share(serious_ok, serious):>11} {share(serious_cause, serious):>11} {spent:>7.2f}s "
              f"{spent / plain if plain else 0:>7.2f}x")
        print("  codes: " + ", ".join(f"{c} {n}" for c, n in codes.most_common()))
        for line in unexplained[:20]:
            print("  unexplained: " + line)
        if len(unexplained) > 20:
            print(f"  ... and {len(unexplained) - 20} more unexplained")


FAIR_RECORDS = ("seed2.dom", "draw-one-view.dom", "variant-all-fives.dom")
SHEET_RECORDS = ("sheet-partnership.dom", "sheet-draw.dom", "sheet-kozel.dom")


def over(worlds: int) -> None:
    """The reasons over deals on :data:`FAIR_RECORDS` (fair verdicts) and :data:`SHEET_RECORDS` (sheets): per record
    the graded moves, those with a reason over the deals, and the seconds of the analysis and of the reasons."""
    from analyzer.analysis.dealreasons import fair_reasons, sheet_reasons
    from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
    from analyzer.analysis.sheets import sheet_analyze

    print(f"{'record':<28} {'kind':>6} {'graded':>7} {'with reasons':>13} {'analysis':>9} {'reasons':>8} {'x':>6}")
    for name in FAIR_RECORDS + SHEET_RECORDS:
        sheet = name in SHEET_RECORDS
        for rep in replay_record(read(ROOT / "records" / name)):
            if not rep.valid:
                continue
            t0 = time.perf_counter()
            if sheet:
                analysis = sheet_analyze(rep, AnalysisSettings(reasons=True), run=FairRun(workers=1))
            else:
                analysis = fair_analyze(rep, settings=FairSettings(worlds=worlds), run=FairRun(workers=1))
            t1 = time.perf_counter()
            analysis = (sheet_reasons if sheet else fair_reasons)(rep, analysis)
            t2 = time.perf_counter()
            graded = [d for d in analysis.decisions if (d.cls if sheet else d.fair is not None and d.fair.cls)]
            told = sum(any(r.code in EXPLAINING for r in d.reasons or ()) for d in graded)
            print(f"{name[:28]:<28} {'sheet' if sheet else 'fair':>6} {len(graded):>7} {told:>13} {t1 - t0:>8.2f}s "
                  f"{t2 - t1:>7.2f}s {(t2 - t1) / (t1 - t0) if t1 > t0 else 0:>5.2f}x")


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
