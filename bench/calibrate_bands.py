"""Calibrate the strength bands of a variant by simulation, and ship the result as data.

    python3 bench/calibrate_bands.py                                  # partnership, 3,000 deals a policy
    python3 bench/calibrate_bands.py --variant block --rule hand=7 --rule players=2 --deals 3000
    python3 bench/calibrate_bands.py --deals 200 --no-write           # a quick look, nothing written

Each policy (``analyzer.equity.bands``: a best move with every hand open, except that with probability
``rate`` a move that is not best; in a game of individual players each mover by his own view against the
rest, ``analysis.AgainstTheRest``; in a draw game with the boneyard order its record reveals) plays
``--deals`` random deals; the table prints each policy's error
rate (mean loss per decision with a choice, points, every hand open) with its standard error and
the spread of one decision's loss, then the calibration table: the half-width of the 95% interval of
each policy's error rate over N decisions, and whether a band is given there. Unless ``--no-write``, the
calibration is written to ``analyzer/equity/data/bands_NAME.json``, where ``domino stats`` reads it.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.analysis import AgainstTheRest  # noqa: E402
from analyzer.equity.bands import BANDS, DATA_DIR, calibrate, calibration_name  # noqa: E402
from analyzer.rules import find_variant  # noqa: E402
from analyzer.search import CORE  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="partnership")
    ap.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--deals", type=int, default=3000, help="random deals a policy plays")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-write", action="store_true", help="print the tables, write no data file")
    args = ap.parse_args()
    v = find_variant(args.variant, dict(r.split("=", 1) for r in args.rule) or None)
    print(f"# calibrate_bands: {v.name} {dict(v.options)}, {args.deals} deals a policy, search core {CORE}, "
          f"Python {platform.python_version()}")

    def shown(s):
        print(f"  rate {s.rate:<5g} {s.games} games, {s.decisions} decisions: {s.mean:.3f} points a decision "
              f"(se {s.sd / max(1, s.decisions) ** 0.5:.3f}, sd of one decision {s.sd:.2f})"
              + (f"; {s.limited} decisions past the node limit left out" if s.limited else ""), flush=True)

    cal = calibrate(v, args.deals, args.seed, progress=shown, view=AgainstTheRest)
    print(f"\nband edges (points a decision): " + ", ".join(f"{a} < {e:.3f}" for a, e in zip(BANDS, cal.edges))
          + f" <= {BANDS[-1]}; a band is given when the 95% half-interval is at most {cal.max_half:.3f} "
          f"and the decisions come from two games or more; {cal.seconds:.0f} s, {cal.cpu:.0f} s of CPU")
    rows = cal.interval_table()
    cols = list(rows[0])
    print("\n| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))
    for row in rows:
        print("| " + " | ".join(("yes" if x else "no") if isinstance(x, bool) else f"{x:,}" if isinstance(x, int)
                                else f"±{x}" for x in row.values()) + " |")
    if not args.no_write:
        path = os.path.join(DATA_DIR, calibration_name(v) + ".json")
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(cal.as_dict(), fh, indent=1)
            fh.write("\n")
        print(f"\nwritten: {os.path.relpath(path)}")


if __name__ == "__main__":
    main()
