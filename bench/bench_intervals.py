"""The coverage of the error rate's 95% interval (``domino stats``): players who err at the bands' rates, archives
of 1, 2, 4 and 8 matches (36 decisions a match), the interval ``stats`` gives (a score interval, the size of an
error the variant's calibration says) against the normal approximation it replaced (mean +- 1.96 sd / sqrt(n)).

    python3 bench/bench_intervals.py                       # the partnership's size of an error, 4000 archives
    python3 bench/bench_intervals.py --archives 10000 --variant whist

Each cell: the share of archives whose interval holds the true rate, and (after /) the share that understate it
(the interval below the true rate). Seeded: the same arguments print the same table (``tests/erring_players.py``)."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))   # the simulated players

from analyzer.equity.bands import EDGE_RATES, calibration_for  # noqa: E402
from erring_players import MODELS, coverage, mean_error  # noqa: E402

MATCH = 36


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archives", type=int, default=4000)
    parser.add_argument("--variant", default="partnership", help="the calibration whose size of an error is used")
    parser.add_argument("--matches", default="1,2,4,8")
    args = parser.parse_args()
    size = calibration_for(f"{args.variant}.json").error_size
    matches = [int(m) for m in args.matches.split(",")]
    print(f"size of an error ({args.variant}'s calibration): {size:.1f} points; {args.archives} archives a cell")
    start = time.process_time()
    for model in MODELS:
        print(f"\nerrors' losses: {model} (mean {mean_error(model, size):.1f} points)")
        print(f"{'rate':>5} {'matches':>7} {'decisions':>9}  {'score (stats)':>15}  {'normal (before)':>15}")
        for rate in EDGE_RATES:
            for m in matches:
                cells = []
                for method in ("score", "normal"):
                    c = coverage(rate, MATCH * m, args.archives, size, model=model, method=method)
                    cells.append(f"{c.covered:.3f} / {c.under / c.archives:.3f}")
                print(f"{rate:>5} {m:>7} {MATCH * m:>9}  {cells[0]:>15}  {cells[1]:>15}")
    print(f"\n{time.process_time() - start:.1f} s CPU")


if __name__ == "__main__":
    main()
