"""Benchmark the board's requests on a sheet (issue 80, item 6): records/match-kozel.dom (nine games of Kozel)
with every hand written ``?`` against the same match with its hands written, through the API layer the server
and the static site's worker answer with (``analyzer.server.api.ROUTES``; a check as ``api.check_call`` names
it, in-process under the deals the API layer keeps, as the site's worker runs it and each checks' worker of the
server does), in this tree and, with ``--before DIR``, in another tree, same run; each tree's written match and its handless
one in fresh processes of their own.

    python bench/bench_board_sheet.py                       # this tree
    python bench/bench_board_sheet.py --before /work/main   # and main's, as the baseline
    python bench/bench_board_sheet.py --repeat 5 --clicks 12
    python bench/bench_board_sheet.py --before /work/main --runs 7 --clock cpu   # on a loaded machine

The requests (the board of the last game, game 9):
  position   the board at its end (``/api/position``)
  validate   the check the page asks after each edit (``/api/validate``)
  next       Next game: the header of the game after the last (``/api/next``), then the board of that new game
             (``/api/position``: its deal, before the lead)
  click      a move clicked: ``/api/enter`` writes it into game 9, then ``/api/position`` shows the new board;
             game 9 with its first ``--start`` moves only (its Result and Score taken out), the next
             ``--clicks`` moves clicked in turn (default: from its lead, a transcriber entering the game)
"first" is a request's first answer in the process (nothing kept yet: the page just opened; the process started as
the server starts, ``server.jobs.settle`` included where the tree has it); "again" the median
of ``--repeat`` more of the same request (the text unchanged); a click's "median" and "worst" are over the
clicks, each on a new text of game 9, after one request on the whole match (games 1 to 8 as the page had them).
Seconds of wall time; the machine's other load counts too (take the ratios of one run). ``--runs N``: each tree's
processes run N times over, in turn with the other tree's, and each figure is the median of the N (a first answer
is one sample a process); ``--clock cpu``: the CPU seconds of the measuring process instead of the wall's (the
requests run in it alone, one thread: on a loaded machine the steadier figure).
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# the measuring process, run in a tree (its path first): the texts in a JSON file, the answer as JSON on stdout
CHILD = r'''
import contextlib, json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
clock = time.process_time if sys.argv[3] == "cpu" else time.perf_counter
from analyzer.server import api, library
try:
    from analyzer.inference.memo import remembering
    kept = lambda: remembering(api.DEALS)
except ImportError:                       # (a tree from before the deals were kept)
    kept = contextlib.nullcontext
args = json.loads(open(sys.argv[2], encoding="utf-8").read())
repeat = args["repeat"]

def timed(call):
    t = clock()
    answer = call()
    return clock() - t, answer

def validate(text):
    name, kwargs = api.check_call("validate", {"text": text})
    with kept():
        return getattr(library, name)(**kwargs)

out = {}
api.ROUTES["variants"]({})                # (the imports, before any clock runs)
try:                                      # (then what the server does once it has loaded, where it does it)
    from analyzer.server.jobs import settle
    settle()
except ImportError:
    pass
for kind in sys.argv[4:]:
    text, cut, clicks = args[kind], args[kind + "_cut"], args["clicks"]
    row = {}
    def next_game():
        header = api.ROUTES["next"]({"text": text})
        return api.ROUTES["position"]({"text": header["text"], "game": header["game"]})

    for name, call in (("position", lambda: api.ROUTES["position"]({"text": text, "game": 8})),
                       ("validate", lambda: validate(text)),
                       ("next", next_game)):
        first, _ = timed(call)
        again = [timed(call)[0] for _ in range(repeat)]
        row[name] = {"first": first, "again": statistics.median(again)}
    api.ROUTES["position"]({"text": cut, "game": 8})
    times, now = [], cut
    for player, move in clicks:
        def click():
            entered = api.ROUTES["enter"]({"text": now, "game": 8, "move": move, "player": player})
            api.ROUTES["position"]({"text": entered["text"], "game": 8})
            return entered["text"]
        spent, now = timed(click)
        times.append(spent)
    row["click"] = {"median": statistics.median(times), "worst": max(times)}
    out[kind] = row
print(json.dumps(out))
'''


def texts(clicks: int, start: int = 0) -> dict:
    """The match written and handless, each with game 9 cut to its first ``start`` moves, and the ``clicks``
    moves after them."""
    written = (ROOT / "records" / "match-kozel.dom").read_text(encoding="utf-8")
    handless = re.sub(r"^([A-D]): \[.*$", r"\1: ?", written, flags=re.M)
    out = {"written": written, "handless": handless}
    for kind, text in (("written", written), ("handless", handless)):
        head, last = text.rsplit("[Event", 1)
        last = re.sub(r'\[(Result|Score) "[^"]*"\]\n', "", "[Event" + last)
        tags, moves = last.split("\n1. ", 1)
        tokens = re.findall(r"(\w+) (\[\d-\d\](?:@\d)?|pass)", "1. " + moves)
        if start + clicks > len(tokens):
            raise SystemExit(f"--start, --clicks: game 9 has {len(tokens)} moves")
        kept, clicked = tokens[:start], tokens[start:start + clicks]
        rows = [" ".join(f"{p} {m}" for p, m in kept[k:k + 4]) for k in range(0, len(kept), 4)]
        body = "\n".join(f"{n + 1}. {row}" for n, row in enumerate(rows))
        out[kind + "_cut"] = head + tags + "\n" + (body + "\n" if body else "")
        out["clicks"] = clicked
    return out


def measure(tree: Path, data: dict, clock: str = "wall") -> dict:
    """The figures of ``tree``: the written match and the handless one each in a process of its own (nothing one
    of them kept serves the other), timed by ``clock`` ("wall" or "cpu")."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8", delete=False) as f:
        json.dump(data, f)
    found = {}
    try:
        for kind in ("written", "handless"):
            done = subprocess.run([sys.executable, "-c", CHILD, str(tree), f.name, clock, kind], capture_output=True,
                                  text=True, cwd=tree, timeout=3600)
            if done.returncode:
                raise SystemExit(f"{tree}: {done.stderr[-2000:]}")
            found.update(json.loads(done.stdout.strip().splitlines()[-1]))
    finally:
        Path(f.name).unlink()
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3, help="requests after the first, each (default 3)")
    ap.add_argument("--clicks", type=int, default=8, help="moves of game 9 clicked in (default 8)")
    ap.add_argument("--start", type=int, default=0, help="the moves of game 9 written before the clicks (default 0)")
    ap.add_argument("--before", type=Path, help="another tree measured the same way (the baseline)")
    ap.add_argument("--runs", type=int, default=1, help="each tree's processes run this many times, in turn with "
                    "the other tree's; each figure the median (default 1)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall seconds, or the measuring process's CPU seconds (default wall)")
    args = ap.parse_args()
    data = {**texts(args.clicks, args.start), "repeat": args.repeat}
    trees = [("this tree", ROOT)] + ([("before", args.before.resolve())] if args.before else [])
    runs: dict[str, list[dict]] = {name: [] for name, _ in trees}
    for _ in range(max(1, args.runs)):
        for name, tree in trees:
            runs[name].append(measure(tree, data, args.clock))
    found = {name: {kind: {request: {what: statistics.median(r[kind][request][what] for r in got)
                                     for what in got[0][kind][request]}
                           for request in got[0][kind]}
                    for kind in got[0]}
             for name, got in runs.items()}
    print(f"records/match-kozel.dom, 9 games of Kozel: {args.clock} seconds per request; hands written ? against "
          f"written (first answer; median of {args.repeat} more; {args.clicks} clicks after move {args.start} of "
          f"game 9); each figure the median of {max(1, args.runs)} run{'s' * (args.runs > 1)}")
    print(f"{'request':<18} {'tree':<10} {'written':>9} {'handless':>9} {'ratio':>7}"
          + (f" {'handless vs before':>19}" if args.before else ""))
    for name, what in (("position", "first"), ("position", "again"), ("validate", "first"), ("validate", "again"),
                       ("next", "first"), ("next", "again"), ("click", "median"), ("click", "worst")):
        for tree, _ in trees:
            w, h = found[tree]["written"][name][what], found[tree]["handless"][name][what]
            line = f"{name + ' ' + what:<18} {tree:<10} {w:>9.3f} {h:>9.3f} {h / w:>6.1f}x"
            if args.before and tree == "this tree":
                line += f" {h / found['before']['handless'][name][what]:>18.2f}x"
            print(line)


if __name__ == "__main__":
    main()
