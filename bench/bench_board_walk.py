"""Benchmark a handless game entered on the board click by click (issue 80 item 6: a sheet's board as fast as a
written record's): a random game of each family (``analyzer.generate.random_game``, seeds 1..``--seeds``), its
hands written ``?`` and its lead named, entered move by move as the board does it: for each move the board
(``server.library.position_data``: the moves it offers), then the move written in (``enter_move``). The same walk
with the hands written is the baseline of each row, same process; ``--before DIR`` measures another tree too
(each tree in a fresh process of its own), same run.

    python bench/bench_board_walk.py                                   # this tree
    python bench/bench_board_walk.py --before /work/base --seeds 3     # and a baseline tree

Seconds of CPU (``time.process_time``) for the whole walk, and the median and worst click (a board and a move);
the ratio is the handless walk's CPU over the written one's.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = ("partnership", "draw", "all-fives", "block")

CHILD = r'''
import json, statistics, sys, time
from analyzer.generate import random_game
from analyzer.match import replay_record
from analyzer.notation import parse, write
from analyzer.record import Record
from analyzer.server.library import BoardRecord, enter_move, position_data

def walk(variant, seed, hidden):
    game = random_game(variant, seed)
    rep = replay_record(parse(write(Record([game], "x", [])), "x"))[0]
    names, lead = ", ".join(rep.players), rep.steps[0].entry.player
    held = {h.player: h.tiles for h in game.hands}
    hands = "".join(f"{n}: ?\n" if hidden else f"{n}: {' '.join(str(t) for t in held[n])}\n" for n in rep.players)
    text = f'[Event "x"]\n[Variant "{variant}"]\n[Players "{names}"]\n[Lead "{lead}"]\n\n' + hands
    clicks = []
    for s in rep.steps:
        if s.move is None:
            continue
        start = time.process_time()
        board = position_data(BoardRecord(text, "x"))
        offered = {m["move"]: m for m in board["legal"] if m["player"] == s.entry.player}
        m = offered[str(s.move)]
        move = m["move"] + (f" +{m['claim']}" if m.get("claim") else "")
        text = enter_move(BoardRecord(text, "x"), 0, move, m["player"])["text"]
        clicks.append(time.process_time() - start)
    return clicks

out = {}
families, seeds = json.loads(sys.argv[1]), int(sys.argv[2])
for variant in families:
    row = {}
    for hidden in (False, True):
        clicks = [c for seed in range(1, seeds + 1) for c in walk(variant, seed, hidden)]
        row["sheet" if hidden else "written"] = [sum(clicks), statistics.median(clicks), max(clicks), len(clicks)]
    out[variant] = row
print(json.dumps(out))
'''


def measure(tree: Path, families: list[str], seeds: int) -> dict:
    done = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(tree)!r})\n" + CHILD,
                           json.dumps(families), str(seeds)], capture_output=True, text=True, cwd=tree)
    if done.returncode:
        raise SystemExit(f"{tree}: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else 'failed'}")
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=2, help="random games a family (default 2)")
    ap.add_argument("--families", default=",".join(FAMILIES), help="comma-separated (default: %(default)s)")
    ap.add_argument("--before", type=Path, help="another tree measured the same way (the baseline)")
    args = ap.parse_args()
    families = args.families.split(",")
    trees = [("this tree", ROOT)] + ([("before", args.before)] if args.before else [])
    print(f"{'tree':10} {'family':12} {'clicks':>6} {'written s':>10} {'sheet s':>9} {'ratio':>6} "
          f"{'median click':>13} {'worst click':>12}")
    for label, tree in trees:
        for variant, row in measure(tree, families, args.seeds).items():
            w, s = row["written"], row["sheet"]
            print(f"{label:10} {variant:12} {s[3]:6d} {w[0]:10.2f} {s[0]:9.2f} {s[0] / w[0]:6.1f} "
                  f"{s[1]:13.3f} {s[2]:12.3f}")


if __name__ == "__main__":
    main()
