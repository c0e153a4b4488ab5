"""Benchmark the inference's count of the highest double leading, before the lead is seen.

    python3 bench/bench_inference.py            # the bundled records of games the highest double opens
    python3 bench/bench_inference.py --repeat 3

Before the first tile is led, everybody knows the leader holds the highest double dealt (or that no
hand holds a double). For each record and each view (the public, then every seat) at step 0, in the
same run:

(a) the cases program (``analyzer.inference.placements.Cases``, what the inference uses): one count a
    case, a case being which double is the highest dealt;
(b) the baseline, the general program on doubles (``DoublesFirst``): every placement of the unseen
    doubles, each judged by the rule on the whole hands.

Both must give the same count (checked). The table gives each time (the best of ``--repeat``) and
the ratio (b)/(a).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.inference import view_at  # noqa: E402
from analyzer.inference.placements import Cases, DoublesFirst, Placements  # noqa: E402
from analyzer.inference.worlds import View, highest_cases  # noqa: E402
from analyzer.notation import read  # noqa: E402
from analyzer.replay import replay  # noqa: E402

RECORDS = Path(__file__).resolve().parent.parent / "records"
NAMES = ["variant-block7.dom", "variant-all-fives.dom", "variant-cross.dom", "variant-draw-003.dom",
         "variant-draw.dom"]


def best(run, repeat: int) -> tuple[float, int]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        count = run()
        times.append(time.perf_counter() - start)
    return min(times), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    print(f"{'record':<24} {'view':<7} {'worlds':>24} {'cases s':>9} {'doubles s':>10} {'ratio':>8}")
    for name in NAMES:
        rep = replay(read(str(RECORDS / name)).games[0])
        for viewer in [None] + list(range(len(rep.players))):
            view = view_at(rep, 0, viewer)
            whole = view.whole
            if whole is None or not whole.highest_first:
                continue

            def cases():
                return Cases(view.unseen, highest_cases(view, whole.leader), view.room).count

            def doubles():
                base = Placements(view.unseen, view.allowed, view.room)
                return DoublesFirst(view, lambda world: whole.allows(View.deal(view, world)), base).count

            (fast, a), (slow, b) = best(cases, args.repeat), best(doubles, args.repeat)
            assert a == b, (name, viewer, a, b)
            who = "public" if viewer is None else rep.players[viewer]
            print(f"{name:<24} {who:<7} {a:>24,} {fast:>9.3f} {slow:>10.3f} {slow / max(fast, 1e-9):>7.0f}x")


if __name__ == "__main__":
    main()
