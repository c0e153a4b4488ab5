"""What the report's line view and diagrams cost: every alternative's best line (``analyze_replay(...,
lines=True)``, which ``domino report`` now asks for) against the analysis without them, and the
diagram of every position, measured in the same run (CPU seconds, the median of ``--repeat`` runs:
the machine may be shared), with the page's size before and after.

    python bench/bench_report_lines.py                       # a few bundled records
    python bench/bench_report_lines.py records/variant-french.dom --repeat 5
    python bench/bench_report_lines.py --fair records/seed1.dom     # the page model of a fair analysis

``--fair``: the page model of a fair analysis (``--worlds`` deals a decision, every seat whose hand is known),
its who-holds-what taken from the worlds the fair analysis counted against counting them again (the
analysis read back from data has no worlds), in the same run.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.analysis import analyze_replay  # noqa: E402
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze  # noqa: E402
from analyzer.match import replay_record  # noqa: E402
from analyzer.notation import read  # noqa: E402
from analyzer.render import build_report, render_html  # noqa: E402
from analyzer.archive.task import position_diagrams  # noqa: E402
from analyzer.analysis import AnalysisSettings  # noqa: E402

RECORDS = ["seed1.dom", "seed2.dom", "variant-cross.dom", "variant-draw.dom", "variant-all-fives.dom"]


def cpu(work, repeat: int):
    """The median CPU seconds of ``work()`` over ``repeat`` runs, and its last result."""
    times, out = [], None
    for _ in range(repeat):
        start = time.process_time()
        out = work()
        times.append(time.process_time() - start)
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="records (default: a few bundled ones)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fair", action="store_true", help="time the page model of a fair analysis instead")
    parser.add_argument("--worlds", type=int, default=50)
    args = parser.parse_args()
    paths = args.paths or [str(ROOT / "records" / name) for name in RECORDS]
    if args.fair:
        fair_models(paths, args.worlds, args.repeat)
        return
    print(f"{'record':<24} {'analyse s':>9} {'+lines':>7} {'diagrams s':>10} {'page KB':>8} {'with both':>9}")
    for path in paths:
        record = read(path)
        replays = replay_record(record)
        plain_s, plain = cpu(lambda: [analyze_replay(rep) for rep in replays], args.repeat)
        lines_s, lined = cpu(lambda: [analyze_replay(rep, AnalysisSettings(lines=True)) for rep in replays], args.repeat)
        diagrams_s, diagrams = cpu(lambda: [position_diagrams(rep) for rep in replays], args.repeat)
        before = render_html(build_report(record.source, replays, plain))
        model = build_report(record.source, replays, lined)
        for game, drawn in zip(model.games, diagrams):
            game.diagrams = drawn
        after = render_html(model)
        print(f"{Path(path).name:<24} {plain_s:>9.2f} {lines_s / plain_s if plain_s else 0:>6.2f}x "
              f"{diagrams_s:>10.3f} {len(before.encode()) / 1024:>8.0f} {len(after.encode()) / len(before.encode()):>8.2f}x")
    print("\n+lines: the analysis with every alternative's best line over the one without (same run); "
          "with both: the page with the lines and the packed diagrams over the page without them")


def fair_models(paths: list[str], worlds: int, repeat: int) -> None:
    print(f"{'record':<24} {'decisions':>9} {'model s':>8} {'recounting s':>12} {'ratio':>6}")
    for path in paths:
        record = read(path)
        replays = replay_record(record)
        analyses = [fair_analyze(rep, analyze_replay(rep), settings=FairSettings(worlds=worlds), run=FairRun(workers=1))
                    for rep in replays]
        judged = [d for a in analyses for d in a.decisions if d.fair is not None]
        kept = [d.fair.seen for d in judged]
        taken_s, _ = cpu(lambda: build_report(record.source, replays, analyses), repeat)
        for d in judged:
            d.fair.seen = None
        again_s, _ = cpu(lambda: build_report(record.source, replays, analyses), repeat)
        for d, seen in zip(judged, kept):
            d.fair.seen = seen
        print(f"{Path(path).name:<24} {len(judged):>9} {taken_s:>8.3f} {again_s:>12.3f} "
              f"{taken_s / again_s if again_s else 0:>5.2f}x")
    print("\nmodel: who-holds-what from the fair analysis's worlds; recounting: the worlds counted again per decision")


if __name__ == "__main__":
    main()
