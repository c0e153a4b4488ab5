"""What `domino validate` costs on a file of many games hiding every hand, against another tree (the record's budget of
its sheets' checks: ``analyzer.match.SheetBudget``).

    python3 bench/bench_sheet_budget.py --before /work/main               # 3, 6 and 12 games, each tree once
    python3 bench/bench_sheet_budget.py --before /work/main --games 3 24 48 --rounds 3
    python3 bench/bench_sheet_budget.py --record records/match-kozel.dom  # another record's games

The games of a bundled record (default records/match-cuban.dom: three hands of Cuban double-nine, each checked over
up to 45 million deals its moves allow) are taken alone (their Game and Score tags left out, so that a copy is no
later game of the same match) with every hand written ``?`` (``analyzer.record.as_sheet``), and written over and
over into one file of N games. Each tree runs ``python3 -m analyzer validate FILE`` on it as its own process, the
trees in turn; the table gives the processor seconds of the whole command (start-up included; the median of the
rounds), their ratio, the games whose check was cut (``deals-check-stopped``) and the games found invalid (none
should be: a cut game keeps no error its deals were to confirm). Without a budget the cost grows with N at some two
seconds a game; with it, it stops growing once the budget is spent, at the cost of a game's replay and its cheaper
check.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.notation import read, write  # noqa: E402
from analyzer.record import as_sheet  # noqa: E402


def games_file(record: Path, games: int, folder: Path) -> Path:
    """``games`` games of ``record``, each alone with every hand ``?``, in turn, written to a file in ``folder``."""
    sheet = as_sheet(read(str(record)))
    text = write(sheet)
    text = re.sub(r'^\[(Game|Score) "[^"]*"\]\n', "", text, flags=re.M)
    parts = ["[Event" + part for part in text.split("[Event")[1:]]
    out = folder / f"{record.stem}-{games}.dom"
    out.write_text("".join((parts[k % len(parts)].rstrip("\n") + "\n\n") for k in range(games)), encoding="utf-8")
    return out


def validate(tree: Path, path: Path) -> tuple[float, int, int]:
    """``validate PATH`` run by ``tree`` as its own process: its processor seconds, the games cut, the invalid."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "analyzer", "validate", str(path)], cwd=tree, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(tree)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1) or "Traceback" in done.stderr:
        raise SystemExit(f"{tree}: validate {path} failed: {done.stderr[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    cut = done.stdout.count("info[deals-check-stopped]")
    invalid = sum(1 for line in done.stdout.splitlines() if re.search(r": game \d+ .*: INVALID", line))
    return cpu, cut, invalid


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="the tree to compare against (default: none, this tree alone)")
    parser.add_argument("--record", type=Path, default=ROOT / "records" / "match-cuban.dom")
    parser.add_argument("--games", type=int, nargs="+", default=[3, 6, 12])
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    trees = [("this", ROOT)] + ([("before", args.before.resolve())] if args.before else [])
    with tempfile.TemporaryDirectory() as tmp:
        print(f"validate of {args.record.name}'s games alone, every hand ?, as commands (CPU s, median of "
              f"{args.rounds})")
        print(f"{'games':>5} " + " ".join(f"{name + ' s':>9} {'cut':>4} {'invalid':>7}" for name, _ in trees)
              + ("   this/before" if len(trees) > 1 else ""))
        for n in args.games:
            path = games_file(args.record, n, Path(tmp))
            seen: dict[str, list] = {name: [] for name, _ in trees}
            for _ in range(args.rounds):
                for name, tree in trees:
                    seen[name].append(validate(tree, path))
            row, medians = f"{n:5d} ", {}
            for name, _ in trees:
                medians[name] = statistics.median(cpu for cpu, _, _ in seen[name])
                _, cut, invalid = seen[name][-1]
                row += f"{medians[name]:9.2f} {cut:4d} {invalid:7d} "
            if len(trees) > 1:
                row += f"  {medians['this'] / medians['before']:11.2f}"
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
