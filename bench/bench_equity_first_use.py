"""The first use of every MWC table (issue 71, item 2: no table that takes minutes): each shipped table
(``analyzer/equity/data/*.mwc``, a variant and its options by the file's name), and variants with no table shipped,
asked of ``python3 -m analyzer equity --variant V [--rule K=V ...] --json`` in a fresh process with an empty cache
folder (``$DOMINO_CACHE``: a race's table is solved on its first use and kept there), then again with the cache
kept (a later use). Shown: wall and CPU seconds of each, and what the command did (a table shown, or the question
it asks before simulating one: exit 2).

    python3 bench/bench_equity_first_use.py                 # every shipped table, and cuban / venezuelan
    python3 bench/bench_equity_first_use.py --only kozel    # those whose name holds "kozel"
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
DATA = HERE / "analyzer" / "equity" / "data"
UNSHIPPED = ["cuban", "venezuelan"]


def command(stem: str) -> list[str]:
    """The ``equity`` command of a table named ``stem`` (``variant_key=value_...``)."""
    variant, *options = stem.split("_")
    args = ["equity", "--variant", variant, "--json"]
    for option in options:
        args += ["--rule", option]
    return args


def run(args: list[str], cache: str) -> tuple[float, float, int]:
    env = {**os.environ, "PYTHONPATH": str(HERE), "DOMINO_CACHE": cache}
    env.pop("DOMINO_TABLES", None)
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", *args], cwd=HERE, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="the tables whose name holds this")
    args = ap.parse_args()
    stems = sorted(p.stem for p in DATA.glob("*.mwc")) + UNSHIPPED
    print("# domino equity --json, a fresh process each: the first use (empty cache) and a later one; seconds")
    print("| table | first wall | first CPU | later wall | later CPU | exit | what |")
    print("|---|---|---|---|---|---|---|")
    for stem in stems:
        if args.only not in stem:
            continue
        with tempfile.TemporaryDirectory(prefix="bench-equity-") as cache:
            first = run(command(stem), cache)
            later = run(command(stem), cache)
        what = "shown" if first[2] == 0 else "asks for --yes or --hands (no table shipped)" if first[2] == 2 else "failed"
        print(f"| {stem} | {first[0]:.2f} | {first[1]:.2f} | {later[0]:.2f} | {later[1]:.2f} | {first[2]} | {what} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
