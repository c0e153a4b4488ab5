"""What a sheet's CPU budgets cost in verdicts: the decisions settled against those the budget stopped (issue 80).

    python3 bench/bench_sheet_share.py FILE...                          # this tree, its default budgets
    python3 bench/bench_sheet_share.py --against /work/main FILE...     # main's too, same run, one after the other

Each FILE (a sheet without hands; ``bench/bench_sheet_sizes.py --keep DIR`` writes generated ones, one a family and
size) is analysed as a whole process, ``python3 -m analyzer analyze --jobs J --json FILE [--values-seconds V
--fair-seconds F]`` (the values over the deals, then the fair verdicts over the hands), in this tree and in each
``--against`` tree (each with its own default budgets unless ``--values-seconds`` / ``--fair-seconds`` are given).
Per run: the wall seconds and the CPU seconds of the process and its workers (``bench_sheet_sizes.timed``'s way:
orphans reaped), and from the JSON, of the decisions valued over the deals (``loss_over_deals``): how many, how many
the values' budget stopped before they were decided (a value ``stopped``: ``cpu-budget``; in a tree that does not
say it per decision, those valued in exactly the deals the budget stopped the whole look at, ``deals.cut_short``),
how many have their best on average told apart from every other move (each other move's paired gap interval above
0, or valued in every deal), how many are graded (the interval of the move played's mean loss within one class of
the default thresholds, or exact), and the fair verdicts' cut (``fair_cut``: hands a player x deals a decision).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "bench"))

from analyzer.analysis import Thresholds  # noqa: E402
from bench_sheet_sizes import adopt_orphans, timed  # noqa: E402


def run(tree: Path, path: Path, jobs: int, timeout: float, extra: list[str]) -> tuple[float, float, dict | None]:
    """(wall s, CPU s of the process and its workers, the JSON's first game or None) of ``analyze`` in ``tree``."""
    with tempfile.TemporaryFile() as out:
        wall, cpu, done = timed(tree, path, jobs, timeout, ("--json", *extra), out)
        out.seek(0)
        text = out.read()
    try:
        game = json.loads(text)["games"][0] if done else None
    except (ValueError, KeyError, IndexError):
        game = None
    return wall, cpu, game


def verdicts(game: dict) -> dict:
    """The decisions valued over the deals and how many are stopped, told apart, graded; the fair cut."""
    thresholds = Thresholds()
    deals = game.get("deals") or {}
    cut = deals.get("cut_short")
    population = deals.get("count") if deals.get("method") == "all" else None
    rows = [d for d in game.get("decisions", []) if d.get("loss_over_deals")]
    stopped = told = graded = 0
    for d in rows:
        loss = d["loss_over_deals"]
        if "stopped" in loss:
            stopped += 1
        elif cut is not None and "decisions" not in cut and loss.get("looked") == cut["deals"] == deals["analysed"]:
            stopped += 1            # (a tree that stops every decision at once: those valued in the cut's deals)
        others = [a["over_deals"] for a in d["alternatives"]
                  if a.get("over_deals") and a["over_deals"].get("gap_ci") is not None]
        told += all(o["gap_ci"][0] > 1e-9 for o in others)
        ci = loss.get("ci95")
        low, high = ci if ci else (loss["mean"], loss["mean"])
        graded += thresholds.classify(low) == thresholds.classify(high) or loss.get("looked") == population
    fair = game.get("fair_cut")
    return {"decisions": len(rows), "stopped": stopped, "told": told, "graded": graded,
            "analysed": deals.get("analysed"), "count": deals.get("count"),
            "fair": f"{fair['hands']}x{fair['deals']}" if fair else "-"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--against", action="append", default=[], help="another tree to run the same files in")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--values-seconds", default=None)
    ap.add_argument("--fair-seconds", default=None)
    args = ap.parse_args()
    adopt_orphans()
    extra = ([] if args.values_seconds is None else ["--values-seconds", args.values_seconds]) + \
            ([] if args.fair_seconds is None else ["--fair-seconds", args.fair_seconds])
    trees = [HERE] + [Path(t).resolve() for t in args.against]
    names = ["this tree"] + [Path(t).name or str(t) for t in args.against]
    head = ["sheet", "deals"]
    for name in names:
        head += [f"wall s, CPU ({name})", f"analysed ({name})", f"stopped/told/graded of N ({name})",
                 f"fair cut ({name})"]
    rows = []
    for file in args.files:
        path = Path(file).resolve()
        row = [path.stem.replace("-sheet", ""), ""]
        for tree in trees:
            wall, cpu, game = run(tree, path, args.jobs, args.timeout, extra)
            if game is None:
                row += [f">{args.timeout:.0f} ({cpu:.1f})", "", "", ""]
                continue
            v = verdicts(game)
            row[1] = f"{v['count']:,}" if v["count"] is not None else ""
            row += [f"{wall:.1f} ({cpu:.1f})", f"{v['analysed']:,}",
                    f"{v['stopped']}/{v['told']}/{v['graded']} of {v['decisions']}", v["fair"]]
        rows.append(row)
        print("  ".join(row), file=sys.stderr, flush=True)
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    print(f"analyze --jobs {args.jobs} --json {' '.join(extra)}".rstrip() + ", whole processes (values, then fair)")
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))


if __name__ == "__main__":
    main()
