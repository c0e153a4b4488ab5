"""Time every command a user would run on every bundled record: where does a user wait?

    python bench/bench_commands.py                        # the quick commands on every record
    python bench/bench_commands.py --fair                 # also analyze/report --fair --decision-deals 20
    python bench/bench_commands.py --only seed1 --commands analyze,report
    python bench/bench_commands.py --timeout 30 --out timings.tsv

Each run is one process, ``python3 -m analyzer ...`` from this checkout, timed by ``/usr/bin/time``
(wall seconds, CPU seconds = user + system, peak resident MB). The machine may be shared: the CPU
seconds are the figure to compare. A run over ``--timeout`` seconds is stopped and shown as ``>T``.
The records folder as a whole is timed too (``records/``). The fair analysis at its default 200
worlds takes minutes on some records and is never run here; ``--fair`` runs it at ``--decision-deals 20``.

    python bench/bench_commands.py --slow-inputs BEFORE [--max-nodes 2000,100000] [FILE ...]

Issue 55: ``stats`` and ``report`` (``--jobs 1``: every world solved in the process timed) on the inputs the
fuzz campaign found slow (default: ``tests/data/fuzz55/*.dom``), at each ``--max-nodes``, in the checkout
``BEFORE`` (e.g. a worktree of main) and in this one, one after the other in the same run: CPU seconds of
each and their ratio (before / after).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.notation import read  # noqa: E402

QUICK = ("validate", "validate-repair", "replay", "replay-view-seat", "replay-view-public",
         "analyze", "analyze-json", "report", "stats")
FAIR = ("analyze-fair", "report-fair")


def first_player(path: Path) -> str | None:
    try:
        record = read(str(path))
    except Exception:  # noqa: BLE001 - a broken record has no seat to view
        return None
    return record.games[0].players[0] if record.games else None


def argv(command: str, path: Path, out: str) -> list[str] | None:
    p = str(path)
    if command == "validate":
        return ["validate", p]
    if command == "validate-repair":
        return ["validate", "--repair", p] if path.is_file() else None
    if command == "replay":
        return ["replay", p]
    if command in ("replay-view-seat", "replay-view-public"):
        if not path.is_file():
            return None
        seat = "public" if command.endswith("public") else first_player(path)
        return ["replay", "--view", seat, "--json", p] if seat else None
    if command == "analyze":
        return ["analyze", p]
    if command == "analyze-json":
        return ["analyze", "--json", p]
    if command == "report":
        return ["report", p, "-o", out]
    if command == "stats":
        return ["stats", p]
    if command == "analyze-fair":
        return ["analyze", "--fair", "--decision-deals", "20", "--jobs", "1", p] if path.is_file() else None
    if command == "report-fair":
        return ["report", "--fair", "--decision-deals", "20", "--jobs", "1", p, "-o", out] if path.is_file() else None
    if command == "tournament":
        return ["tournament", p]
    raise ValueError(command)


def run(args: list[str], timeout: float, tree: Path = ROOT) -> tuple[str, str, str, str]:
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        cmd = ["/usr/bin/time", "-o", t.name, "-f", "%e %U %S %M", sys.executable, "-m", "analyzer", *args]
        try:
            proc = subprocess.run(cmd, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  timeout=timeout, env={**os.environ, "OMP_NUM_THREADS": "1"})
        except subprocess.TimeoutExpired:
            return f">{timeout:.0f}", "-", "-", "-"
        fields = t.read().split()[-4:]
    wall, user, system, kb = fields
    return wall, f"{float(user) + float(system):.2f}", f"{int(kb) / 1024:.0f}", str(proc.returncode)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="substring of the record names to time")
    ap.add_argument("--commands", default="", help="comma-separated commands (default: the quick ones)")
    ap.add_argument("--fair", action="store_true", help="also the fair analysis at --worlds 20")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--out", default="", help="also write the table (tab-separated) here")
    ap.add_argument("--tree", default=str(ROOT), help="the checkout to run (e.g. a copy from before a change)")
    ap.add_argument("--slow-inputs", metavar="BEFORE", default="",
                    help="issue 55: stats and report on the slow inputs, in BEFORE and in this checkout")
    ap.add_argument("--max-nodes", default="2000,100000", help="with --slow-inputs: the node limits, comma-separated")
    ap.add_argument("files", nargs="*", help="with --slow-inputs: the inputs (default: tests/data/fuzz55/*.dom)")
    a = ap.parse_args()
    if a.slow_inputs:
        slow_inputs(Path(a.slow_inputs), [int(n) for n in a.max_nodes.split(",")], a.files, a.timeout)
        return
    commands = a.commands.split(",") if a.commands else list(QUICK) + (list(FAIR) if a.fair else [])
    records = sorted((ROOT / "records").iterdir())
    paths = [r for r in records if r.suffix in (".dom", ".txt") and a.only in r.name]
    tours = [r for r in records if r.suffix == ".tour" and a.only in r.name]
    rows = []
    with tempfile.TemporaryDirectory() as out:
        jobs = [(c, p) for p in paths for c in commands if c != "tournament"]
        if not a.only:
            jobs += [(c, ROOT / "records") for c in commands if c != "tournament"]
        jobs += [("tournament", t) for t in tours if not a.commands or "tournament" in commands]
        print(f"{'command':<20} {'record':<36} {'wall s':>7} {'cpu s':>7} {'peak MB':>7} exit", flush=True)
        for command, path in jobs:
            args = argv(command, path.relative_to(ROOT), out)
            if args is None:
                continue
            row = (command, path.name, *run(args, a.timeout, Path(a.tree)))
            rows.append(row)
            print(f"{row[0]:<20} {row[1]:<36} {row[2]:>7} {row[3]:>7} {row[4]:>7} {row[5]}", flush=True)
    if a.out:
        Path(a.out).write_text("".join("\t".join(r) + "\n" for r in rows))


def slow_inputs(before: Path, limits: list[int], files: list[str], timeout: float) -> None:
    """The table of ``--slow-inputs``: CPU seconds of stats and report before and after, same run."""
    paths = [Path(f).resolve() for f in files] or sorted((ROOT / "tests" / "data" / "fuzz55").glob("*.dom"))
    print(f"{'command':<8} {'input':<40} {'max-nodes':>9} {'before s':>9} {'after s':>8} {'ratio':>6}", flush=True)
    with tempfile.TemporaryDirectory() as out:
        for path in paths:
            for nodes in limits:
                for command in ("stats", "report"):
                    args = [command, "--jobs", "1", "--max-nodes", str(nodes), str(path)]
                    if command == "report":
                        args += ["-o", str(Path(out) / "page.html"), "--force"]
                    cpu = [run(args, timeout, tree)[1] for tree in (before, ROOT)]
                    ratio = f"{float(cpu[0]) / max(float(cpu[1]), 0.01):.2f}" if "-" not in cpu else "-"
                    print(f"{command:<8} {path.name[:40]:<40} {nodes:>9,} {cpu[0]:>9} {cpu[1]:>8} {ratio:>6}",
                          flush=True)


if __name__ == "__main__":
    main()
