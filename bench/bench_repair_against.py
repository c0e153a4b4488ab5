"""Benchmark this checkout's repair search against another checkout's, in the same run.

    python bench/bench_repair_against.py OTHER          # OTHER: a checkout (e.g. of main), cores built
    python bench/bench_repair_against.py OTHER --repeat 5

The same corrupted records for both (this checkout's ``tests/test_repair.py`` and
``tests/test_repair_variants.py`` make them: 39 full hands with two slips and 7 with three on the lean
path, 24 draw, All Fives and French games with two slips on the position path), each repaired with
``max_edits=2``. The two checkouts run in turn, each in a fresh process (one package name cannot be
imported twice), ``--repeat`` times; the table shows each side's best CPU time (``time.process_time``
of the child: the machine is shared) and candidates tried, and the ratio this/other (below 1: this
checkout is faster). The candidates must agree: the two searches try the same records.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2] + "/tests")
from analyzer.repair import RepairLimits, repair
from test_repair import corrupted_cases
from test_repair_variants import variant_cases
cases = {"lean": [g for _, g, _ in corrupted_cases(2, range(1, 40))] + [g for _, g, _ in corrupted_cases(3, range(1, 8))],
         "position": [g for fam in ("draw", "all-fives", "french") for _, g, _ in variant_cases(fam, 2, range(1, 9))]}
out = {}
for name, games in cases.items():
    start = time.process_time()
    nodes = sum(repair(g, limits=RepairLimits(max_edits=2, limit=5)).searched for g in games)
    out[name] = [time.process_time() - start, len(games), nodes]
print(json.dumps(out))
"""


def run(checkout: Path) -> dict:
    """One timed run of ``checkout``'s repair on the cases this checkout's tests make."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(checkout), str(HERE)], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the checkout to compare with (its C cores built)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    best: dict[str, dict] = {"this": {}, "other": {}}
    for _ in range(args.repeat):
        for side, checkout in (("other", args.other.resolve()), ("this", HERE)):
            for path, (took, games, nodes) in run(checkout).items():
                have = best[side].get(path)
                best[side][path] = (min(took, have[0]) if have else took, games, nodes)
    print(f"{'path':<10} {'records':>7} {'other s':>9} {'this s':>9} {'this/other':>10} {'candidates':>12}")
    for path in best["this"]:
        (mine, games, nodes), (theirs, _, their_nodes) = best["this"][path], best["other"][path]
        agree = nodes if nodes == their_nodes else f"{nodes} != {their_nodes}"
        print(f"{path:<10} {games:>7} {theirs:>9.3f} {mine:>9.3f} {mine / theirs:>10.2f} {agree:>12}")


if __name__ == "__main__":
    main()
