"""What each player's deal luck costs in games of individual players (``Options.luck_each``: ``stats`` and
``report --scale match`` ask for it), over the match scale without it and over points.

    python3 bench/bench_luck_each.py                    # the bundled records of individual players
    python3 bench/bench_luck_each.py --rounds 5 FILE...

For each record, in this process (the tables loaded once, before the timing): ``pipeline.process`` of the
record with the options of ``analyze`` (points), of ``analyze --scale match`` and of ``stats`` (the match
scale with ``luck_each``), each the CPU time of ``--repeat`` runs, best of ``--rounds``, the three
alternating. The machine is shared: read the ratios, not the milliseconds.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from analyzer.pipeline import Options, process

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ["variant-cutthroat-3.dom", "variant-chiva-3.dom", "match-chiva-3-draw.dom", "variant-hungarian.dom",
           "match-hungarian-3.dom", "match-hungarian-4.dom", "match-all-fives-4.dom", "match-all-fives-threes-3.dom",
           "match-french.dom"]
SCALES = {"points": Options(mode="analyze"), "match": Options(mode="analyze", scale="match"),
          "match+each": Options(mode="analyze", scale="match", luck_each=True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="*", help="records (default: the bundled ones of individual players)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    paths = [Path(p) for p in args.records] or [ROOT / "records" / name for name in RECORDS]
    print(f"{'record':32} {'points ms':>10} {'match ms':>10} {'+each ms':>10} {'+each/match':>12} {'+each/points':>13}")
    for path in paths:
        data = path.read_bytes()
        for options in SCALES.values():         # (untimed: the tables loaded, the code warm)
            process(path.name, data, options)
        best = {name: float("inf") for name in SCALES}
        for _ in range(args.rounds):
            for name, options in SCALES.items():
                start = time.process_time()
                for _ in range(args.repeat):
                    process(path.name, data, options)
                best[name] = min(best[name], (time.process_time() - start) / args.repeat)
        p, m, e = best["points"], best["match"], best["match+each"]
        print(f"{path.name:32} {p * 1000:10.1f} {m * 1000:10.1f} {e * 1000:10.1f} {e / m:11.2f}x {e / p:12.2f}x")


if __name__ == "__main__":
    main()
