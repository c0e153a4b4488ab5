"""Benchmark a handless sheet's Analyse on the board (issue 80, item 6) against ``domino analyze`` of the same file.

    python3 bench/bench_board_analyse.py                              # the book's sheet, partnership ~1,000, Cuban ~100
    python3 bench/bench_board_analyse.py --families cuban --sizes 100 --runs 2

Each sheet is made as ``bench_sheet_sizes.py`` makes it (a random hand of its family whose sheet allows a number of
deals in the size's band, every hand ``?``; ``book``: records/seed2.dom's hands ``?``). Its Analyse is the board's
``/api/analyze`` as the page asks it (the default budgets, ``lines`` on), answered by the board's app in a fresh
process of its own (Starlette's test client: the app and its worker processes as ``domino serve`` runs them),
timed from the request to the answer:

  board 1   the board with one core (``PYTHON_CPU_COUNT=1``): the deals solved in its worker alone, as every board
            did before (``analyze_document``'s worlds in one process)
  board N   the board with the machine's cores (the default): its worker solves the deals in a pool of them
  cli       ``python3 -m analyzer analyze --jobs N --lines FILE`` as a whole process (the reference: the same budgets,
            the lines the page asks for too)

Wall seconds and, in brackets, the CPU seconds of the process and every process it started (this script is their
subreaper: a pool's processes orphaned when their worker ends are waited for here), each the median of ``--runs``
(the three taken in turn, run after run); the machine's other load counts too, so read the ratios of one run and
the CPU.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "bench"))

from bench_sheet_sizes import adopt_orphans, find, reap, timed  # noqa: E402
from analyzer.notation import write  # noqa: E402
from analyzer.record import Record  # noqa: E402
from analyzer.workers import cores  # noqa: E402

# the measuring process: the board's app (its workers real processes), one Analyse of the file, its wall seconds
CHILD = r'''
import json, sys, time, warnings
sys.path.insert(0, sys.argv[1])
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from analyzer.server import create_app
text = open(sys.argv[2], encoding="utf-8").read()
with TestClient(create_app([sys.argv[3]], token="t"), headers={"Authorization": "Bearer t"}) as client:
    client.post("/api/validate", json={"text": "[Variant \"block\"]"})      # (the workers warm, as a page opened)
    start = time.perf_counter()
    out = client.post("/api/analyze", json={"text": text, "lines": True, "job": "bench"})
    wall = time.perf_counter() - start
body = out.json()
games = body.get("games") or [{}]
print(json.dumps({"wall": wall, "status": out.status_code, "deals": (games[0].get("deals") or {}).get("analysed"),
                  "error": body.get("error")}))
'''


def board(path: Path, processes: int, folder: str) -> dict:
    """The board's Analyse of ``path`` with ``processes`` cores: its wall seconds (the request's), status and error,
    and ``cpu``, the CPU seconds of the whole process and every process it started (its workers, their pools)."""
    env = {**os.environ, "PYTHON_CPU_COUNT": str(processes)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(HERE), str(path), folder], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    out, _ = proc.communicate()
    reap(proc.pid, time.perf_counter() + 30)      # (the pools' processes, orphaned as their worker was ended)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    got = json.loads(out.strip().splitlines()[-1])
    got["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--families", default="book,partnership,cuban", help="comma-separated (default book,partnership,cuban)")
    ap.add_argument("--sizes", default="1000", help="the sizes of the families other than book and cuban "
                    "(default 1000; Cuban: 100 unless given)")
    ap.add_argument("--runs", type=int, default=1, help="each measure this many times, the median shown (default 1)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    n = cores()
    if n < 2:
        sys.exit("one core: the board has no pool to compare")
    sheets = []
    for family in args.families.split(","):
        sizes = [0] if family == "book" else [100] if family == "cuban" and args.sizes == "1000" else \
            [int(s) for s in args.sizes.split(",")]
        for size in sizes:
            found = find(family, size, args.seed, 400)
            if found is None:
                print(f"{family} ~{size}: no sheet found", file=sys.stderr)
                continue
            _, sheet, count = found
            sheets.append((f"{family}" + (f" ~{size:,}" if size else ""), sheet, count, family))
    adopt_orphans()
    print(f"the board's Analyse of a handless sheet, wall s and (CPU s of every process), median of {args.runs}; "
          f"{n} cores; load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'sheet':<20} {'deals':>6} | {'board 1':>14} {f'board {n}':>14} {f'cli -j {n}':>14} | {'1 / ' + str(n):>6} "
          f"{'board/cli':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for name, sheet, count, family in sheets:
            path = Path(folder) / f"{name.split()[0]}.dom"
            path.write_text(write(Record([sheet])), encoding="utf-8")
            runs = {"one": [], "many": [], "cli": []}
            for _ in range(args.runs):
                for key, processes in (("one", 1), ("many", n)):
                    got = board(path, processes, folder)
                    if got["status"] != 200 or got.get("error"):
                        print(f"{name}: the board answered {got['status']}: {got.get('error')}", file=sys.stderr)
                    runs[key].append((got["wall"], got["cpu"]))
                wall, cpu, _ = timed(HERE, path, n, 3600, ("--lines",))     # (as the page asks: lines on)
                runs["cli"].append((wall, cpu))
            med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in runs.items()}
            cells = " ".join(f"{w:>6.1f} ({c:>5.1f})" for w, c in (med["one"], med["many"], med["cli"]))
            print(f"{name:<20} {count:>6,} | {cells} | {med['one'][0] / med['many'][0]:>5.2f}x "
                  f"{med['many'][0] / med['cli'][0]:>8.2f}x", flush=True)


if __name__ == "__main__":
    main()
