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
  cli       ``python3 -m analyzer analyze --jobs N FILE`` as a whole process (the reference: the same budgets)

Wall seconds, each the median of ``--runs`` (the three taken in turn, run after run); the machine's other load
counts too, so read the ratios of one run.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "bench"))

from bench_sheet_sizes import find  # noqa: E402
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
    env = {**os.environ, "PYTHON_CPU_COUNT": str(processes)}
    out = subprocess.run([sys.executable, "-c", CHILD, str(HERE), str(path), folder], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def cli(path: Path, processes: int) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "analyzer", "analyze", "--jobs", str(processes), str(path)], cwd=HERE,
                   env={**os.environ, "PYTHONPATH": str(HERE)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


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
    print(f"the board's Analyse of a handless sheet, wall s (median of {args.runs}); {n} cores; load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'sheet':<22} {'deals':>7} | {'board 1':>8} {f'board {n}':>8} {f'cli -j {n}':>8} | {'1 / ' + str(n):>6} "
          f"{'board/cli':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for name, sheet, count, family in sheets:
            path = Path(folder) / f"{name.split()[0]}.dom"
            path.write_text(write(Record([sheet])), encoding="utf-8")
            one, many, ref = [], [], []
            for _ in range(args.runs):
                a, b = board(path, 1, folder), board(path, n, folder)
                if a["status"] != 200 or b["status"] != 200:
                    print(f"{name}: the board answered {a['status']} / {b['status']}: {a['error']} {b['error']}",
                          file=sys.stderr)
                one.append(a["wall"])
                many.append(b["wall"])
                ref.append(cli(path, n))
            o, m, r = statistics.median(one), statistics.median(many), statistics.median(ref)
            print(f"{name:<22} {count:>7,} | {o:>8.1f} {m:>8.1f} {r:>8.1f} | {o / m:>5.2f}x {m / r:>8.2f}x")


if __name__ == "__main__":
    main()
