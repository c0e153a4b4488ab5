"""Make the shipped solutions of the race tables (``analyzer/equity/data/NAME.solved``, ``analyzer/equity/shipped.py``).

    nice -n 10 python3 bench/ship_races.py                  # every shipped table stored as its model (minutes)
    nice -n 10 python3 bench/ship_races.py french.mwc       # one

Each table stored as its model only (``"values": "solved when loaded"``) is loaded as a first process loads it, in a
cache folder of its own and with its old ``.solved`` file removed: the race solver solves it from the table's model
(nothing random: the model, in the ``.mwc``, is all it rests on) and keeps it under the name its digest gives. That
kept solution is packed: the match code's answers, and the chances rounded to millionths but for a race on a
coarser lattice (French, Hungarian for four: theirs would take 1.5 to 3 MB, and their sweeps take seconds),
whose first use sweeps the shipped answers. The packed file is read back and checked against the solution before it
is written: the answers equal, every live position's chances within half a millionth (the last player's within
the others' together). Prints each table's size and its first use read from the file (CPU). A table in an earlier
layout of the compact form (``store.repack``) is written in the current one first (every table, not the races alone:
a race's shipped solution is made for its table's bytes, its digest names them)."""
from __future__ import annotations

import glob
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.equity import CACHE_ENV, DATA_DIR, SOLVED_ON_LOAD, EquityTable  # noqa: E402
from analyzer.equity.race import load_values  # noqa: E402
from analyzer.equity.shipped import QUANTUM, SUFFIX, pack_solved, solve_shipped  # noqa: E402
from analyzer.equity.store import MAGIC, repack, unpack  # noqa: E402
from analyzer.rules import find_variant  # noqa: E402


def check(shipped, solved) -> float:
    """The largest difference of a live position's chance between the shipped and the solved race (the answers must
    be equal)."""
    a, b = shipped.arrays, solved.arrays
    if a.answers != b.answers or a.terminals != b.terminals or bytes(shipped._active) != bytes(solved._active):
        raise SystemExit("the shipped answers differ from the solved ones")
    n, worst = a.sides, 0.0
    for p, on in enumerate(solved._active):
        if on:
            for k in range(n):
                worst = max(worst, abs(shipped._values[p * n + k] - solved._values[p * n + k]))
    if worst > (n - 1) * 0.5 / QUANTUM + 1e-12:
        raise SystemExit(f"the shipped chances differ from the solved ones by {worst}")
    return worst


def ship(path: str) -> None:
    name = os.path.basename(path)
    with open(path, "rb") as fh:
        raw = fh.read()
    if not raw.startswith(MAGIC):           # (an earlier layout: the table rewritten in the current one first)
        raw = repack(raw, path)
        with open(path, "wb") as fh:
            fh.write(raw)
    header, _ = unpack(raw, path)
    if header.get("values") != SOLVED_ON_LOAD:
        return
    target = path[:-len(".mwc")] + SUFFIX
    if os.path.exists(target):
        os.remove(target)
    variant = find_variant(header["variant"], header["rules"] or None)
    with tempfile.TemporaryDirectory(prefix="ship-races-") as folder:
        os.environ[CACHE_ENV] = folder
        start = time.process_time()
        table = EquityTable.from_packed(variant, raw, path)
        took = time.process_time() - start
        kept = glob.glob(os.path.join(folder, name[:-len(".mwc")] + "-*.race"))
        if len(kept) != 1:
            raise SystemExit(f"{name}: no kept solution in {folder}")
        digest = kept[0].rsplit("-", 1)[1][:-len(".race")]
        with open(kept[0], "rb") as fh:
            solved = load_values(fh.read())
        packed = pack_solved(solved, digest, with_values=not solved.arrays.coarse)
        start = time.process_time()
        shipped = solve_shipped(packed, digest, variant, table.model, header.get("lattice"))
        first = time.process_time() - start
        worst = check(shipped, solved)
    with open(target, "wb") as fh:
        fh.write(packed)
    print(f"| {name} | {len(solved):,} | {'answers' if solved.arrays.coarse else 'answers and chances'} | "
          f"{len(packed) / 1e6:.2f} MB | {took:.1f} | {first:.2f} | {worst:.1e} |", flush=True)


def main() -> None:
    names = sys.argv[1:]
    print("| table | positions | shipped | file | solved (CPU s) | first use from the file (CPU s) | "
          "largest difference |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for path in sorted(glob.glob(os.path.join(DATA_DIR, "*.mwc"))):
        if not names or os.path.basename(path) in names:
            ship(path)


if __name__ == "__main__":
    main()
