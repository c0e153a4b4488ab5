"""MWC tables from hands played by what the players know, made and measured against the shipped ones (issue 53).

    nice -n 10 python3 bench/fair_play_tables.py make --variant partnership --hands 3000 --worlds 16
    nice -n 10 python3 bench/fair_play_tables.py make --variant whist --hands 2000 --worlds 16
    python3 bench/fair_play_tables.py compare --variant partnership [--bootstrap 5] [--records ...] [--generated 4]

``make`` simulates the variant's hand-result model with the fair-play policy (``analysis.fairplay.FairPlayer``:
each decision by the mean open-hands value over ``--worlds`` deals the mover cannot tell apart, drawn by the
project's inference), on the same deals as the shipped model (the same seed), solves the match
(``equity.compute_table``) and writes the table to ``analyzer/equity/data/fair/NAME.mwc`` (refused where it
exists, unless ``--force``). ``--hands 20`` first forecasts the time.

``compare`` prints, for the fair-play table against the shipped (open-hands) one: each model's lead modes with
their standard errors, the largest and the mean difference of side 0's MWC over every position of the shipped
table, with ``--bootstrap N`` the standard error of the MWC of each model at a few scores (N replicates of each
model), and how many graded moves of the bundled match records of the variant and of ``--generated`` random
matches change class when graded on the match scale with the new table (``analyze --scale match``, once with
the shipped table and once with the new one through ``DOMINO_TABLES``).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.analysis.fairplay import FairPlayer  # noqa: E402
from analyzer.equity import compute_table, load_table, table_name, write_table  # noqa: E402
from analyzer.rules import find_variant  # noqa: E402
from analyzer.search import CORE  # noqa: E402

FAIR_DIR = ROOT / "analyzer" / "equity" / "data" / "fair"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def make(args) -> None:
    v = find_variant(args.variant, dict(r.split("=", 1) for r in args.rule) or None)
    out = Path(args.output) if args.output else FAIR_DIR / table_name(v).replace(".json", ".mwc")
    if out.exists() and not args.force and args.hands >= 100:
        sys.exit(f"{out} exists: --force to replace it")
    player = FairPlayer(args.worlds, args.seed)
    print(f"# fair_play_tables make: {v.name} {dict(v.options)}, {args.hands} hands a lead mode, {args.worlds} worlds "
          f"a decision, seed {args.seed}, search core {CORE}", flush=True)
    started, cpu = time.perf_counter(), _cpu()
    table = compute_table(v, args.hands, args.seed, progress=lambda text: print(f"  {text} ({_cpu() - cpu:.0f} s CPU)",
                                                                                    flush=True), choose=player)
    spent = _cpu() - cpu
    table.meta["cpu_seconds"] = round(spent, 1)
    table.meta["fair_play"] = {"worlds": args.worlds, "decisions": player.decisions,
                               "worlds_valued": player.worlds_valued}
    for mode, e in table.meta["standard_error"].items():
        print(f"  lead {mode}: {e['hands']:,} hands; leading side's hand value {e['mean']:+.2f} (se {e['mean_se']:.2f}); "
              f"it wins the hand {e['p_win']:.1%} (se {e['p_win_se']:.1%})")
    print(f"  {player.decisions:,} decisions, {player.worlds_valued:,} worlds valued; {spent:.0f} s CPU "
          f"({table.meta['seconds']['simulation']} s + {table.meta['seconds']['dp']} s wall: simulation + DP, "
          f"{time.perf_counter() - started:.0f} s in all); {len(table.values):,} positions", flush=True)
    if args.hands < 100:
        print("  (a forecast: nothing written)")
        return
    write_table(table, str(out))
    print(f"  wrote {out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    mk = sub.add_parser("make", help="simulate the fair-play model and write its table")
    mk.add_argument("--variant", default="partnership")
    mk.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    mk.add_argument("--hands", type=int, default=3000, help="hands a lead mode (under 100: a forecast, not written)")
    mk.add_argument("--worlds", type=int, default=16, help="deals a decision is valued over")
    mk.add_argument("--seed", type=int, default=0)
    mk.add_argument("-o", "--output", help="the table's file (default: analyzer/equity/data/fair/NAME.mwc)")
    mk.add_argument("--force", action="store_true", help="replace the file")
    args = ap.parse_args()
    {"make": make}[args.command](args)


if __name__ == "__main__":
    main()
