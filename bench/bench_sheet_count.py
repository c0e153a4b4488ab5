"""A sheet's deals counted by how their hand ends against listed one by one (issue 80, item 2).

    python3 bench/bench_sheet_count.py                       # block7 (two hands, sleepers), block, cuban
    python3 bench/bench_sheet_count.py --families block7 --max-list 1000000

For each family, generated games (:func:`analyzer.generate.random_game`, seeds from 0) written with every hand
``?``, the first whose moves allow 10^3, 10^4, 10^5 and 10^6 deals (to the next power of ten); each one's deals
counted (:func:`analyzer.inference.count.count_deals`, as ``validate`` and ``analyze`` read them past 2,000)
and listed, every deal scored (``ending.result`` over every world, as they are below it), in the same run.
The listing is skipped past ``--max-list`` deals (it takes some 20-60 s a million). The table gives both
times, their ratio, and whether the two agree (each result with as many deals); and the count keeping each
player's pips and who holds [0-0] (what ``validate`` tries first, for the match's outcomes), or "too many"
where it passes its states and ``validate`` keeps each side's.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.generate import random_game  # noqa: E402
from analyzer.inference import worlds_at  # noqa: E402
from analyzer.inference.count import CountTooLarge, count_deals  # noqa: E402
from analyzer.inference.sheet import _Ending  # noqa: E402
from analyzer.replay import replay  # noqa: E402
from analyzer.rules import find_variant  # noqa: E402


def sheets(family: str, seeds: int):
    """(seed, replay, worlds) of the first handless sheet of ``family`` in each decade from 10^3 to 10^6 deals."""
    variant = find_variant(family)
    wanted = {3, 4, 5, 6}
    for seed in range(seeds):
        game = random_game(variant, seed)
        sheet = dataclasses.replace(game, hands=tuple(dataclasses.replace(h, tiles=None, unknown=0)
                                                      for h in game.hands))
        rep = replay(sheet, variant)
        try:
            worlds = worlds_at(rep, len(rep.steps), record=True)
        except Exception:           # (a sheet the inference does not follow: not this bench's)
            continue
        decade = len(str(worlds.count)) - 1
        if decade in wanted:
            wanted.discard(decade)
            yield seed, rep, worlds
        if not wanted:
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--families", default="block7,block,cuban")
    parser.add_argument("--seeds", type=int, default=80, help="seeds tried per family")
    parser.add_argument("--max-list", type=int, default=200_000, help="list the deals only up to this many")
    args = parser.parse_args()
    print(f"{'family':8} {'seed':>4} {'deals':>12} {'with result':>11} {'count s':>8} {'list s':>8} {'ratio':>7}  agree"
          f"  {'per player s':>12}")
    for family in args.families.split(","):
        for seed, rep, worlds in sorted(sheets(family, args.seeds), key=lambda x: x[2].count):
            ending = _Ending(rep, worlds)
            start = time.perf_counter()
            try:
                counted = count_deals(rep, worlds, ending)
            except CountTooLarge:
                print(f"{family:8} {seed:4} {worlds.count:12,} {'':>11} {'too many states':>17}")
                continue
            counting = time.perf_counter() - start
            kept = "" if counted.stated is None else f"{counted.stated:,}"
            start = time.perf_counter()          # (as validate counts first: each player's pips kept)
            try:
                count_deals(rep, worlds, _Ending(rep, worlds), facts=True)
                fine = f"{time.perf_counter() - start:12.2f}"
            except CountTooLarge:
                fine = f"{'too many':>12}"
            if worlds.count > args.max_list:
                print(f"{family:8} {seed:4} {worlds.count:12,} {kept:>11} {counting:8.2f} {'-':>8} {'-':>7}       {fine}")
                continue
            start = time.perf_counter()
            fresh = _Ending(rep, worlds)
            listed = Counter(fresh.result(w) for w in worlds)
            listing = time.perf_counter() - start
            agree = "yes" if dict(counted.results) == dict(listed) else "NO"
            print(f"{family:8} {seed:4} {worlds.count:12,} {kept:>11} {counting:8.2f} {listing:8.2f} "
                  f"{listing / counting:6.1f}x  {agree:5}  {fine}", flush=True)


if __name__ == "__main__":
    main()
