"""The benchmarks, listed and run: each script of bench/ with what it measures (its docstring's first line).

    python3 bench/run.py --list                 # every script, a line each: its name and what it measures
    python3 bench/run.py NAME [ARGS...]         # run bench/NAME.py with ARGS (``--help``: its own options)

A benchmark prints a table; its figures are read as ratios against a baseline measured in the same run (the
script's own ``--before`` tree, or the other mode it compares). The tables kept, and the baselines, are indexed in
bench/README.md (bench/timings/ holds them). The scripts are read here, never imported: listing them costs nothing.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: the scripts that make data or help another rather than measure (listed apart)
TOOLS = {"calibrate_bands", "ship_races", "suite_times", "compare_json", "count_shapes", "fair_play_tables"}


def scripts() -> dict[str, str]:
    """Each script of bench/ (its name without ``.py``) and the first line of its docstring."""
    out = {}
    for path in sorted(HERE.glob("*.py")):
        if path.name == "run.py":
            continue
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        out[path.stem] = doc.strip().splitlines()[0] if doc.strip() else "(no docstring)"
    return out


def listing() -> str:
    found = scripts()
    width = max(map(len, found))
    lines = ["benchmarks (python3 bench/run.py NAME [ARGS]):"]
    lines += [f"  {name:{width}}  {purpose}" for name, purpose in found.items() if name not in TOOLS]
    lines += ["", "tools and comparisons (data made, or two trees' outputs compared):"]
    lines += [f"  {name:{width}}  {purpose}" for name, purpose in found.items() if name in TOOLS]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("--list", "-l", "--help", "-h"):
        print(__doc__.strip() + "\n\n" + listing() if argv[:1] in (["--help"], ["-h"]) else listing())
        return 0
    name = argv[0].removesuffix(".py")
    if name not in scripts():
        print(f"no benchmark {name!r} in bench/; python3 bench/run.py --list names them", file=sys.stderr)
        return 2
    return subprocess.call([sys.executable, str(HERE / f"{name}.py"), *argv[1:]])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
