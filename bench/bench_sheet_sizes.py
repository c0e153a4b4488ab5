"""Benchmark a handless sheet's whole ``domino analyze`` at about 100, 1,000 and 10,000 deals (issue 80, item 3).

    python3 bench/bench_sheet_sizes.py                       # --quick: the book's sheet, partnership at ~100 and ~1,000
    python3 bench/bench_sheet_sizes.py --against /work/main  # the same files in another tree too, same run
    python3 bench/bench_sheet_sizes.py --all                 # every family, every size (long: an hour or more)
    python3 bench/bench_sheet_sizes.py --families cuban,draw --sizes 100

Each sheet is a random hand of its family (``analyzer.generate.random_game``, the first seed from ``--seed`` whose
sheet allows a number of deals in the size's band: 30-300, 300-3,000, 3,000-30,000), written with every hand ``?``
and its Result tag; ``book`` is the example deal of INTERNATIONAL DOMINOES (records/seed2.dom, its hands ``?``:
1,128 deals). Each is analysed as a whole process, ``python3 -m analyzer analyze --jobs J FILE`` (the values over
the deals, then the fair verdicts over the hands, as the command does for a record with hands not known), and so
is the same record with its hands written (the baseline: its exact values, no fair analysis), in the tree of this
script and in each ``--against`` tree, one after the other in the same run. The table gives the wall seconds and
the CPU seconds of the process and its workers, and the ratio of each sheet's wall time to its written record's in
the same tree (the machine is shared: ratios are steadier than seconds). A run past ``--timeout`` is shown ``>T``
(the process and its workers killed; their CPU until then counted). ``--keep DIR`` writes the files analysed into DIR (to profile one).

The CPU seconds are those of every process the command started, however it ended: this script makes itself the
"subreaper" of its children (Linux ``PR_SET_CHILD_SUBREAPER``), so a process orphaned by its parent (a fork server
and the workers it forked, left to end after the command has exited) is handed to this script, which waits for
it; the CPU of a process is counted (``RUSAGE_CHILDREN``) only once it has been waited for.
"""
from __future__ import annotations

import argparse
import ctypes
import dataclasses
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from analyzer.generate import random_game  # noqa: E402
from analyzer.inference.sheet import sheet_deals  # noqa: E402
from analyzer.notation import read, write  # noqa: E402
from analyzer.record import Record  # noqa: E402
from analyzer.replay import replay  # noqa: E402

FAMILIES = ("partnership", "block", "jamaican", "cutthroat", "whist", "cuban", "draw", "chiva", "all-fives",
            "all-fives-threes", "hungarian", "french", "cross", "kozel")
BANDS = {100: (30, 300), 1000: (300, 3000), 10000: (3000, 30000)}


def handless(game):
    return dataclasses.replace(game, hands=tuple(dataclasses.replace(h, tiles=None, unknown=0) for h in game.hands))


def find(family: str, size: int, seed: int, tries: int):
    """(complete game, sheet game, deals the sheet allows) of ``family`` in the band of ``size``, or None."""
    if family == "book":
        game = read(HERE / "records" / "seed2.dom").games[0]
        return game, handless(game), 1128
    low, high = BANDS[size]
    for k in range(tries):
        game = random_game(family, seed + k)
        if not replay(game, family).valid:
            continue
        sheet = handless(game)
        rep = replay(sheet, family)
        if not rep.valid:
            continue
        try:
            count = sheet_deals(rep, 1).count
        except Exception:       # (a family whose deals are not listed, or no deal fits: another seed)
            continue
        if low <= count <= high:
            return game, sheet, count
    return None


def adopt_orphans() -> None:
    """Make this process the subreaper of its descendants (Linux): an orphan is handed to it, not to init."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)      # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def reap(group: int, deadline: float) -> None:
    """Wait for every child left (the orphans handed to this process), killing the group ``group`` at ``deadline``."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if time.perf_counter() > deadline:
                try:
                    os.killpg(group, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.02)


def timed(tree: Path, path: Path, jobs: int, timeout: float, extra: tuple[str, ...] = (),
          stdout=subprocess.DEVNULL) -> tuple[float, float, bool]:
    """(wall seconds, CPU seconds of the process and its workers, finished) of ``analyze`` in ``tree`` (``extra``:
    more of its options; ``stdout``: where its output goes)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "analyze", "--jobs", str(jobs), *extra, str(path)],
                            cwd=tree, env=env, stdout=stdout, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        proc.wait(timeout=timeout)
        done = True
    except subprocess.TimeoutExpired:        # (the process and its workers, its own session: none left behind)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        done = False
    wall = time.perf_counter() - start
    reap(proc.pid, start + timeout + 10)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--families", default=None, help="comma-separated (book: the book's sheet)")
    ap.add_argument("--sizes", default=None, help="comma-separated among 100,1000,10000")
    ap.add_argument("--all", action="store_true", help="every family at every size")
    ap.add_argument("--against", action="append", default=[], help="another tree to run the same files in")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tries", type=int, default=300, help="seeds tried for a sheet in a size's band")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--keep", default=None, help="a folder to write the files analysed into (made if missing)")
    args = ap.parse_args()
    adopt_orphans()
    if args.all:
        families, sizes = ["book", *FAMILIES], [100, 1000, 10000]
    else:
        families = args.families.split(",") if args.families else ["book", "partnership"]
        sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else [100, 1000]
    trees = [HERE] + [Path(t).resolve() for t in args.against]
    names = ["this tree"] + [str(t) for t in args.against]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for family in families:
            for size in ([1000] if family == "book" else sizes):
                found = find(family, size, args.seed, args.tries)
                if found is None:
                    rows.append([family, f"~{size:,}", "none found"] + [""] * (2 * len(trees)))
                    continue
                game, sheet, count = found
                folder = Path(args.keep) if args.keep else Path(tmp)
                folder.mkdir(parents=True, exist_ok=True)
                written, blank = folder / f"{family}-{size}.dom", folder / f"{family}-{size}-sheet.dom"
                written.write_text(write(Record([game])), encoding="utf-8")
                blank.write_text(write(Record([sheet])), encoding="utf-8")
                row = [family, f"~{size:,}", f"{count:,}"]
                for tree in trees:
                    base, _, _ = timed(tree, written, args.jobs, args.timeout)
                    wall, cpu, done = timed(tree, blank, args.jobs, args.timeout)
                    shown = f"{wall:.1f}" if done else f">{args.timeout:.0f}"
                    row += [f"{base:.1f}", f"{shown} ({cpu:.1f} CPU) {wall / max(base, 1e-9):.0f}x"]
                rows.append(row)
                print("  ".join(row), file=sys.stderr, flush=True)
    head = ["family", "size", "deals"]
    for name in names:
        head += [f"written s ({name})", f"sheet s, CPU, x written ({name})"]
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    print(f"analyze --jobs {args.jobs}, whole processes (values over the deals, then the fair verdicts over the hands)")
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))


if __name__ == "__main__":
    main()
