"""Time one exact hidden-information decision (analyzer.hidden) against the size of the endgame.

Block for two with the double-six set: seat 0 leads, then seat 1 decides with ``h`` tiles in each hand. The
deals are every split of the ``2h + s`` tiles nobody has seen (both hands and ``s`` more tiles out of play)
into the two hands and the rest: C(2h+s, h) * C(h+s, h) of them, no pass to rule any out (the most a
record can leave). For each size, ``--positions`` random positions; the table gives the deals, the
information sets of both players, the median and the worst time of one decision (the game value, the
mover's strategy and each move's forced value: one LP per move and two for the game), and as a baseline the
open-hands exact search of the same deals (the fair analysis's work, every deal solved) in the same run.

    python3 bench/bench_hidden.py [--positions 10] [--sizes 2:0,3:0,4:0,2:2,3:1,3:2]
"""
from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.hidden import hidden_decision  # noqa: E402
from analyzer.rules.mechanics import position_for  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402
from analyzer.search import TreeSearch  # noqa: E402
from analyzer.tiles import Move, tile_set  # noqa: E402

BLOCK = find_variant("block", {"players": "2"})


def deals_of(lead, tiles, h: int, s: int, hands) -> tuple[list, object]:
    """Every deal of ``tiles`` (the unseen ones) into two hands of ``h`` after ``lead``; and the actual one."""
    out, actual = [], None
    for a in itertools.combinations(tiles, h):
        rest = [t for t in tiles if t not in a]
        for b in itertools.combinations(rest, h):
            pos = position_for(BLOCK, [list(a) + [lead], list(b)], 0)
            pos.pool &= sum(t.bit for t in tiles)      # the tiles outside ``tiles`` are known out of play
            pos.push(Move(lead, None))
            out.append(pos)
            if (set(a), set(b)) == (set(hands[0]), set(hands[1])):
                actual = pos
    return out, actual


def one(rng: random.Random, h: int, s: int) -> tuple[int, tuple[int, int], float, float]:
    while True:
        tiles = list(tile_set(6))
        rng.shuffle(tiles)
        lead, hands = tiles[0], [tiles[1:1 + h], tiles[1 + h:1 + 2 * h]]
        unseen = tiles[1:1 + 2 * h + s]
        deals, actual = deals_of(lead, unseen, h, s, hands)
        if len(actual.legal_moves()) > 1:
            break
    start = time.perf_counter()
    got = hidden_decision(BLOCK, actual, deals)
    hidden = time.perf_counter() - start
    start = time.perf_counter()
    search = TreeSearch(BLOCK)
    for d in deals:
        if d.hands[1] == actual.hands[1]:
            search.values(d)
    open_hands = time.perf_counter() - start
    return len(deals), got.infosets, hidden, open_hands


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--sizes", default="2:0,3:0,4:0,2:2,3:1,3:2")
    ap.add_argument("--seed", type=int, default=53)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    one(random.Random(0), 2, 0)         # import scipy and warm up before timing
    print(f"{'hand':>4} {'out':>3} {'deals':>6} {'infosets':>13} {'median s':>9} {'worst s':>8} {'open-hands median s':>20}")
    for size in args.sizes.split(","):
        h, s = map(int, size.split(":"))
        rows = [one(rng, h, s) for _ in range(args.positions)]
        sets = max(r[1] for r in rows)
        times = [r[2] for r in rows]
        print(f"{h:>4} {s:>3} {rows[0][0]:>6} {f'{sets[0]}/{sets[1]}':>13} {statistics.median(times):>9.3f} "
              f"{max(times):>8.3f} {statistics.median(r[3] for r in rows):>20.4f}", flush=True)


if __name__ == "__main__":
    main()
