"""Benchmark sheets without hands (issue 65): the deals a sheet allows, and what its analysis costs.

    python3 bench/bench_sheets.py                          # 6 sheets of each of five families
    python3 bench/bench_sheets.py --sheets 2 --families partnership,draw     # a quick look
    python3 bench/bench_sheets.py --partial                # one hand written (the others ?)
    python3 bench/bench_sheets.py --families book          # the book's blocked deal, its hands ? (1,128 deals)

Each sheet is a random hand of its family (``analyzer.generate.random_game``, seeded per sheet), written
again with every hand ``?`` (``--partial``: all but the first player's), its Result tag kept. For each
sheet, in the same run and process pool:

(a) the baseline: the open-hands analysis of the complete record (``analyze_replay``), and its fair
    analysis (``fair_analyze``, every seat): what a record with the hands written costs;
(b) the deals the sheet allows (``inference.sheet.sheet_deals``): their number and the time to find them;
(c) the hindsight values over those deals (``analysis.sheets.sheet_analyze``: every deal where there are
    at most ``--max-deals``, else that many drawn), in ``--jobs`` processes;
(d) the fair verdicts over the hands each player may have held (``sheet_fair``, ``--hands`` a player).

The table gives, by family, the deals allowed (median and most), the seconds a sheet of (c) and (d),
median and worst, and the ratio of each to the baseline of the same records in the same run (the machine
is shared: the ratios are steadier than the seconds).
"""
from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.analysis import analyze_replay  # noqa: E402
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze  # noqa: E402
from analyzer.analysis.sheets import sheet_analyze, sheet_fair  # noqa: E402
from analyzer.generate import random_game  # noqa: E402
from analyzer.inference.sheet import sheet_deals  # noqa: E402
from analyzer.replay import replay  # noqa: E402

FAMILIES = ("partnership", "block", "jamaican", "cutthroat", "draw")


def sheets(family: str, count: int, seed: int, partial: bool, result: bool = True):
    """``count`` (complete replay, sheet replay) pairs of ``family`` whose sheet replays without an error;
    ``book``: the example deal of INTERNATIONAL DOMINOES (records/seed2.dom, blocked: 1,128 deals give its
    result), its hands written ``?``."""
    if family == "book":
        from analyzer.notation import read
        game = read(Path(__file__).resolve().parent.parent / "records" / "seed2.dom").games[0]
        hands = tuple(dataclasses.replace(h, tiles=None, unknown=0) for h in game.hands)
        tags = game.tags if result else {k: v for k, v in game.tags.items() if k != "Result"}
        return [(replay(game), replay(dataclasses.replace(game, hands=hands, tags=tags)))]
    out, k = [], 0
    while len(out) < count and k < 50 * count:
        game = random_game(family, seed + k)
        k += 1
        full = replay(game, family)
        if not full.valid:
            continue
        keep = game.players[:1] if partial else ()
        hands = tuple(h if h.player in keep else dataclasses.replace(h, tiles=None, unknown=0) for h in game.hands)
        tags = game.tags if result else {k: v for k, v in game.tags.items() if k != "Result"}
        sheet = replay(dataclasses.replace(game, hands=hands, tags=tags), family)
        if sheet.valid:
            out.append((full, sheet))
    return out


def row(family: str, got: list[dict]) -> list[str]:
    def spread(key: str) -> str:
        values = [g[key] for g in got]
        return f"{statistics.median(values):.2f} / {max(values):.2f}"

    def ratio(key: str, base: str) -> str:
        values = [g[key] / max(g[base], 1e-9) for g in got]
        return f"{statistics.median(values):.1f}x / {max(values):.1f}x"

    deals = [g["deals"] for g in got]
    return [family, str(len(got)), f"{int(statistics.median(deals)):,} / {max(deals):,}",
            spread("find"), spread("hindsight"), ratio("hindsight", "open"), spread("fair"), ratio("fair", "full_fair")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=6)
    parser.add_argument("--seed", type=int, default=6500)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--max-deals", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--partial", action="store_true")
    parser.add_argument("--no-result", action="store_true", help="drop the Result tag (more deals allowed)")
    args = parser.parse_args()
    header = ["family", "sheets", "deals allowed (median / most)", "finding them s", "hindsight s (median / worst)",
              "hindsight / open-hands analysis", "fair s (median / worst)", "fair / fair analysis of the record"]
    rows = []
    for family in args.families.split(","):
        got = []
        for full, sheet in sheets(family, args.sheets, args.seed, args.partial, not args.no_result):
            t0 = time.perf_counter()
            analyze_replay(full)
            t1 = time.perf_counter()
            fair_analyze(full, settings=FairSettings(worlds=args.worlds), run=FairRun(workers=args.jobs))
            t2 = time.perf_counter()
            found = sheet_deals(sheet, args.max_deals)
            t3 = time.perf_counter()
            analysis = sheet_analyze(sheet, max_deals=args.max_deals, run=FairRun(args.jobs))
            t4 = time.perf_counter()
            sheet_fair(sheet, analysis, FairSettings(worlds=args.worlds), FairRun(args.jobs), args.hands)
            t5 = time.perf_counter()
            got.append({"deals": found.count, "open": t1 - t0, "full_fair": t2 - t1, "find": t3 - t2,
                        "hindsight": t4 - t3, "fair": t5 - t4})
            print(f"  {family} seed sheet {len(got)}: {found.count:,} deals, hindsight {t4 - t3:.2f} s, "
                  f"fair {t5 - t4:.2f} s", file=sys.stderr)
        if got:
            rows.append(row(family, got))
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    print(f"sheets {'with the first hand written' if args.partial else 'without hands'}"
          f"{', no Result tag' if args.no_result else ''}, --max-deals "
          f"{args.max_deals}, --hands {args.hands}, --worlds {args.worlds}, --jobs {args.jobs}")
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(c.rjust(w) for c, w in zip(r, widths)) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
