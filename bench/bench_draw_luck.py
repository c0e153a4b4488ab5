"""Benchmark the luck of each drawn tile (``analyzer.analysis.drawluck``): what it adds to ``analyze`` and
``stats`` on draw records.

    python3 bench/bench_draw_luck.py                   # the bundled draw records, best of 5
    python3 bench/bench_draw_luck.py --repeat 9 --random 10

Each record is worked out by the pipeline as ``stats`` does it (``analyze`` with ``--scale match``: read,
replay, every hand valued with all hands open, the plain data, the match scale) twice in turn: without the
draws' luck and with it (``pipeline.value_draws``), CPU time (``time.process_time``), best of ``--repeat``
alternating runs; ``--random N`` adds N generated draw hands of each of four draw variants. The table gives
each record's seconds both ways, the draws and the searches the luck took (one a candidate), and the
ratio; under it the median seconds and the median ratio. The machine is shared: read the ratios.
"""
from __future__ import annotations

import argparse
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.generate import random_game  # noqa: E402
from analyzer.notation.writer import write_game  # noqa: E402
from analyzer.pipeline import (Options, analyse, grade_on_match_scale, read_text,  # noqa: E402
                               value_draws)
from analyzer.rules import find_variant  # noqa: E402
from analyzer.search import CORE  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ["variant-draw.dom", "variant-draw-003.dom", "variant-draw-starter.dom", "variant-cutthroat-draw.dom",
           "match-chiva-2-draw.dom", "match-chiva-3-draw.dom", "match-chiva-3-draw-jamaican.dom"]
RANDOM = [("draw", {"players": "2"}), ("draw", {"players": "4"}), ("draw", {"players": "2", "draw": "one"}),
          ("all-fives", {})]


def work(label: str, text: str, draws: bool) -> tuple[float, int, int]:
    """CPU seconds of ``stats``'s work on one record, with or without the draws' luck; the draws valued
    and the candidates searched."""
    options = Options(mode="analyze", scale="match")
    t0 = time.process_time()
    run = read_text(label, text, options)
    analyse(run)
    if draws:
        run.draw_lucks = value_draws(run)
    run.scales, run.draw_lucks = grade_on_match_scale(run)
    run.data()
    seconds = time.process_time() - t0
    lucks = [x for game in (run.draw_lucks or []) if game for x in game if x is not None]
    return seconds, len(lucks), sum(len(x.candidates) for x in lucks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="alternating runs each way; the best counts")
    ap.add_argument("--random", type=int, default=3, help="generated hands of each draw variant")
    args = ap.parse_args()
    print(f"# bench_draw_luck: search core {CORE}, Python {platform.python_version()}, best of {args.repeat} "
          "alternating runs, CPU seconds")
    inputs = [(name, (ROOT / "records" / name).read_text(encoding="utf-8")) for name in RECORDS]
    for name, options in RANDOM:
        variant = find_variant(name, options)
        for seed in range(args.random):
            game = random_game(variant, seed=seed)
            inputs.append((" ".join([name, *(f"{k}={v}" for k, v in options.items()), f"seed {seed}"]), write_game(game)))
    rows = []
    print(f"{'record':<44} {'without':>8} {'with':>8} {'draws':>6} {'searches':>8} {'ratio':>6}")
    for label, text in inputs:
        without, with_ = [], []
        for _ in range(args.repeat):
            without.append(work(label, text, False)[0])
            seconds, draws, searches = work(label, text, True)
            with_.append(seconds)
        a, b = min(without), min(with_)
        rows.append((a, b))
        print(f"{label:<44} {a:8.3f} {b:8.3f} {draws:6d} {searches:8d} {b / a:6.2f}")
    print(f"median seconds a record: without {statistics.median(a for a, _ in rows):.3f}, "
          f"with {statistics.median(b for _, b in rows):.3f}; median ratio "
          f"{statistics.median(b / a for a, b in rows):.2f}, total ratio "
          f"{sum(b for _, b in rows) / sum(a for a, _ in rows):.2f}")
    whole(args.repeat)


LAUNCH = ("import sys; sys.path.insert(0, {root!r}); import analyzer.pipeline as p; "
          "p.value_draws = (lambda run: [None] * len(run.replays)) if {off} else p.value_draws; "
          "from analyzer.cli import main; main(['stats', *sys.argv[1:]])")


def command(off: bool) -> float:
    """CPU seconds of one ``stats`` process over the bundled draw records (``off``: without the draws' luck)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", LAUNCH.format(root=str(ROOT), off=off),
                    *(str(ROOT / "records" / name) for name in RECORDS)], check=False, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def whole(repeat: int) -> None:
    without, with_ = [], []
    for _ in range(repeat):
        without.append(command(True))
        with_.append(command(False))
    a, b = min(without), min(with_)
    print(f"domino stats over the {len(RECORDS)} bundled draw records, one process: without {a:.2f} s, "
          f"with {b:.2f} s, ratio {b / a:.2f}")


if __name__ == "__main__":
    main()
