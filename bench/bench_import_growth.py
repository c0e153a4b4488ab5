"""How `domino import` grows with the number of games (issue 87 item 6): time and peak memory, 1 to 5,000 games.

    python bench/bench_import_growth.py                 # csv, yard and kozel-video, 1, 10, 100 and 500 games
    python bench/bench_import_growth.py --full          # ... and 1,000, 2,000 and 5,000 games
    python bench/bench_import_growth.py --games 1 50 --formats csv

The sources are made by repeating the bundled samples: tests/data/import/moves.csv (records/seed2.dom's block
played as a move list, 22 moves) as that many games of one CSV (a ``game`` column), and
tests/data/import/yard-hands.txt's share codes as that many lines, and the Kozel video parser's own example
(tests/data/import/kozel-game.example.json, three rounds) as one game log of that many rounds (its rounds again
and again, numbered on, their results left out: a log of rounds not scored). Each size is imported as the command
does it (``stream_log``, each game written, read back alone and checked move by move before the next is read, a
Kozel log's rounds as the games of one match, the command's own ``analyzer.cli.importing._streamed``) in this
process: the CPU time (``time.process_time``), the CPU time a game, and the peak of
the memory Python allocated (``tracemalloc``, in a second run: tracing slows the first). A flat "ms a game" and a
flat peak (only the source's text grows with the games; no record is held) is what the issue asks; the last column
is the peak a game.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.cli.importing import _streamed, _Tally  # noqa: E402
from analyzer.notation.imports import stream_log  # noqa: E402

DATA = ROOT / "tests" / "data" / "import"


def csv_source(games: int) -> str:
    rows = [r for r in (DATA / "moves.csv").read_text(encoding="utf-8").splitlines() if r and not r.startswith("#")]
    out = ["game," + rows[0]]
    for g in range(1, games + 1):
        out += [f"{g},{row}" for row in rows[1:]]
    return "\n".join(out) + "\n"


def yard_source(games: int) -> str:
    codes = [r for r in (DATA / "yard-hands.txt").read_text(encoding="utf-8").splitlines()
             if r.strip() and not r.startswith("#")]
    return "\n".join(codes[g % len(codes)] for g in range(games)) + "\n"


def kozel_source(games: int) -> str:
    import json

    log = json.loads((DATA / "kozel-game.example.json").read_text(encoding="utf-8"))
    rounds = log.pop("rounds")
    log.pop("result", None)
    log["rounds"] = [{**{k: v for k, v in rounds[g % len(rounds)].items() if k != "result"}, "number": g + 1}
                     for g in range(games)]
    return json.dumps(log, ensure_ascii=False, indent=1)


SOURCES = {"csv": csv_source, "yard": yard_source, "kozel-video": kozel_source}


def imported(fmt: str, text: str) -> int:
    """The command's work on ``text``: import, write (to /dev/null), read back and check every game, a game at a
    time as the command does it; the games valid."""
    tally = _Tally()
    with open(os.devnull, "w", encoding="utf-8") as sink:
        for piece in _streamed(stream_log(fmt, text, "bench"), "bench.dom", tally, lambda done, total: None,
                               text.count("\n") + 1):
            sink.write(piece)
    return tally.valid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=None)
    parser.add_argument("--full", action="store_true", help="up to 5,000 games")
    parser.add_argument("--formats", nargs="+", default=list(SOURCES), choices=list(SOURCES))
    args = parser.parse_args()
    sizes = args.games or ([1, 10, 100, 500, 1000, 2000, 5000] if args.full else [1, 10, 100, 500])
    print(f"{'format':11} {'games':>6} {'source KB':>10} {'CPU s':>8} {'ms a game':>10} {'peak MB':>8} {'KB a game':>10}"
          f"  valid")
    for fmt in args.formats:
        for n in sizes:
            text = SOURCES[fmt](n)
            start = time.process_time()
            valid = imported(fmt, text)
            cpu = time.process_time() - start
            tracemalloc.start()
            imported(fmt, text)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"{fmt:11} {n:6d} {len(text) / 1024:10.1f} {cpu:8.2f} {1000 * cpu / n:10.2f} {peak / 2**20:8.1f} "
                  f"{peak / 1024 / n:10.1f}  {valid}/{n}")


if __name__ == "__main__":
    main()
