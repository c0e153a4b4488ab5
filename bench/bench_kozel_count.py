"""Kozel's count of deals without a new deal's suit (issue 80, item 2) at 16 to 28 pairs, against another tree.

    nice -n 10 python3 bench/bench_kozel_count.py --before DIR [--repeat 3]

The positions are the public view of records/match-kozel.dom with its hands written ``?`` (every hand unknown) early
in a hand, where a hand may still make six of a number: 28 pairs at the deal and the lead, fewer as tiles are
played. Each tree counts each position's worlds (``worlds_at(...).count``, the best of ``--repeat``, in a process of
its own, one tree after the other) in two modes: as shipped, and with ``SUIT_EVENTS`` raised to 100 (every count by
the cases over every unseen tile at once; in a tree before issue 80's exact count, its exact method). Columns: the
pairs; the count this tree gives as shipped; how many deals in 1,000 the other tree's shipped count has more (a
suit judged on the tiles in view past its SUIT_EVENTS); the seconds of each tree in each mode; the ratios of the
other tree's seconds to this tree's shipped ones. A count that differs between this tree's two modes, or from the
other tree's raised one, is a bug (the script stops).

    nice -n 10 python3 bench/bench_kozel_count.py --before DIR --every

``--every``: no times; each tree as shipped counts every position of every game (the public view and one seat's, each
number of moves seen), and the table gives, by the number of pairs, the positions whose counts are the same in both
trees and those that differ, with the least and the most deals in 1,000 the other tree's count has more."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from in_tree import in_tree  # noqa: E402

HERE = Path(__file__).resolve().parents[1]
# (game, moves seen): 28, 28, 26, 24, 22, 20, 16 and 16 (hand, number) pairs
POSITIONS = ((8, 0), (0, 0), (0, 2), (0, 3), (0, 4), (1, 5), (8, 5), (3, 5))


def worker(repeat: int, raised: bool) -> None:
    """Count each position with the analyzer on ``sys.path`` (the tree under test); one JSON line each."""
    from analyzer.inference import placements, worlds_at
    from analyzer.match import replay_record
    from analyzer.notation import parse

    if raised:
        placements.SUIT_EVENTS = 100
    text = (HERE / "records" / "match-kozel.dom").read_text(encoding="utf-8")
    games = replay_record(parse("\n".join(f"{line[0]}: ?" if line[:3] in ("A: ", "B: ", "C: ", "D: ") and "[" in line
                                          else line for line in text.splitlines())))
    for game, seen in POSITIONS:
        times = []
        for _ in range(repeat):
            start = time.process_time()
            worlds = worlds_at(games[game], seen, None)
            times.append(time.process_time() - start)
        pairs = len(placements._suits(worlds.view, 6))
        print(json.dumps({"game": game, "seen": seen, "pairs": pairs, "count": worlds.count, "seconds": min(times)}),
              flush=True)


def every_worker() -> None:
    """Count every position of every game as shipped (the tree on ``sys.path``); one JSON line each."""
    from analyzer.inference import placements, worlds_at
    from analyzer.match import replay_record
    from analyzer.notation import parse

    text = (HERE / "records" / "match-kozel.dom").read_text(encoding="utf-8")
    games = replay_record(parse("\n".join(f"{line[0]}: ?" if line[:3] in ("A: ", "B: ", "C: ", "D: ") and "[" in line
                                          else line for line in text.splitlines())))
    for game, rep in enumerate(games):
        for seen in range(len(rep.steps) + 1):
            for viewer in (None, seen % 4):
                worlds = worlds_at(rep, seen, viewer)
                pairs = len(placements._suits(worlds.view, 6))
                print(json.dumps({"game": game, "seen": seen, "viewer": viewer, "pairs": pairs, "count": worlds.count}),
                      flush=True)


def every(before: Path) -> None:
    old, new = run(before, 0, False, "every_worker()"), run(HERE, 0, False, "every_worker()")
    rows: dict[int, list] = {}
    for o, n in zip(old, new):
        assert (o["game"], o["seen"], o["viewer"]) == (n["game"], n["seen"], n["viewer"])
        row = rows.setdefault(n["pairs"], [0, 0, None, None])
        if o["count"] == n["count"]:
            row[0] += 1
        else:
            more = (o["count"] - n["count"]) * 1000 / n["count"]
            row[1] += 1
            row[2] = more if row[2] is None else min(row[2], more)
            row[3] = more if row[3] is None else max(row[3], more)
    print(f"{'pairs':>5} {'same':>5} {'differ':>6} {'before: more, least':>20} {'most':>7}")
    for pairs, (same, differ, low, high) in sorted(rows.items()):
        print(f"{pairs:>5} {same:>5} {differ:>6} " + (f"{low:>19.2f}\u2030 {high:>6.2f}\u2030" if differ else ""))


def run(tree: Path, repeat: int, raised: bool, call: str | None = None) -> list[dict]:
    return in_tree(tree, "bench_kozel_count", call or f"worker({repeat}, {raised})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, required=True, help="the other source tree")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--every", action="store_true", help="every position's count in both trees, no times")
    args = ap.parse_args()
    before = args.before.resolve()
    if args.every:
        every(before)
        return
    old, old_raised = run(before, args.repeat, False), run(before, args.repeat, True)
    new, new_raised = run(HERE, args.repeat, False), run(HERE, args.repeat, True)
    print(f"{'game':>4} {'seen':>4} {'pairs':>5} {'count (this tree)':>22} {'before: more':>12} "
          f"{'before s':>9} {'before raised s':>15} {'this s':>7} {'this raised s':>13} "
          f"{'before/this':>11} {'raised/this':>11}")
    for o, oe, n, ne in zip(old, old_raised, new, new_raised):
        if not n["count"] == ne["count"] == oe["count"]:
            raise SystemExit(f"counts differ: {o} {oe} {n} {ne}")
        more = (o["count"] - n["count"]) * 1000 / n["count"]
        print(f"{n['game']:>4} {n['seen']:>4} {n['pairs']:>5} {n['count']:>22,} {more:>10.2f}\u2030 "
              f"{o['seconds']:>9.3f} {oe['seconds']:>15.3f} {n['seconds']:>7.3f} {ne['seconds']:>13.3f} "
              f"{o['seconds'] / max(n['seconds'], 1e-9):>10.2f}x {oe['seconds'] / max(n['seconds'], 1e-9):>10.1f}x")


if __name__ == "__main__":
    main()
