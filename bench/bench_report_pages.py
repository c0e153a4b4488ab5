"""What a report page costs against the analysis of the same record, in two trees measured in the same run
(issue 57 item 3): CPU seconds a record for ``report`` (the page, every alternative's best line on it) and for
``analyze`` (the median of ``--repeat`` runs, in one process of each tree), the page's size, and the peak
memory of ``domino report`` over an archive of generated records (a fresh process each, its maximum RSS).

    python bench/bench_report_pages.py                                 # this tree against /work/main
    python bench/bench_report_pages.py --before /work/main --records 100 --repeat 3
    python bench/bench_report_pages.py --no-archive                    # the pages only

The records: a generated one-hand partnership record (``random_match("partnership", seed=1)``), the book's hand
(``records/seed1.dom``), a cross and a French record. Every figure of the "after" tree is also given as a ratio
to the "before" tree's.
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
RECORDS = ["generated", "seed1.dom", "variant-cross.dom", "variant-french.dom"]


def _one(tree: str, repeat: int, folder: str) -> dict:
    """In a child process: this tree's figures for the records written in ``folder``."""
    sys.path.insert(0, tree)
    from analyzer.pipeline import Options
    from analyzer.report.task import process

    analyze = Options("analyze")
    report = Options("report", lines=True, fair_hidden=True)
    out = {}
    first = (Path(folder) / RECORDS[0]).read_bytes()
    for options in (analyze, report):          # start-up: the imports and the search's table, once, untimed
        process(RECORDS[0], first, options)
    for name in RECORDS:
        data = (Path(folder) / name).read_bytes()
        figures = {}
        for label, options in (("analyze", analyze), ("report", report)):
            times, result = [], None
            for _ in range(repeat):
                start = time.process_time()
                result = process(name, data, options)
                times.append(time.process_time() - start)
            figures[label] = statistics.median(times)
            if label == "report":
                figures["page"] = len(result["page"].encode("utf-8"))
        out[name] = figures
    return out


def _archive_peak(tree: str, folder: Path, out: Path) -> tuple[float, float]:
    """Peak memory (MB) and CPU seconds of ``domino report FOLDER`` by this tree, in a process of its own."""
    start = resource.getrusage(resource.RUSAGE_CHILDREN)
    code = (f"import resource, sys; sys.path.insert(0, {tree!r}); sys.argv = ['domino', 'report', {str(folder)!r}, "
            f"'-o', {str(out)!r}, '--quiet', '--jobs', '1']\nfrom analyzer.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True, text=True)
    end = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        raise SystemExit(f"report in {tree} failed: {done.stderr[-2000:]}")
    return int(lines[-1]) / 1024, (end.ru_utime + end.ru_stime) - (start.ru_utime + start.ru_stime)


def _write_inputs(folder: Path, records: int) -> Path:
    sys.path.insert(0, str(HERE))
    from analyzer.match import random_match
    from analyzer.notation import write

    (folder / "generated").write_text(write(random_match("partnership", seed=1, games=1)), encoding="utf-8")
    for name in RECORDS[1:]:
        (folder / name).write_bytes((HERE / "records" / name).read_bytes())
    archive = folder / "archive"
    for k in range(records):
        archive.mkdir(exist_ok=True)
        (archive / f"{k:04d}.dom").write_text(write(random_match("partnership", seed=k, games=1)), encoding="utf-8")
    return archive


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="/work/main", help="the tree to compare with (default: /work/main)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--records", type=int, default=100, help="generated records in the archive")
    parser.add_argument("--no-archive", action="store_true")
    parser.add_argument("--one", nargs=2, metavar=("TREE", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_one(args.one[0], args.repeat, args.one[1])))
        return
    trees = {"before": str(Path(args.before).resolve()), "after": str(HERE)}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        archive = _write_inputs(folder, 0 if args.no_archive else args.records)
        figures = {}
        for which, tree in trees.items():
            done = subprocess.run([sys.executable, __file__, "--one", tree, tmp, "--repeat", str(args.repeat)],
                                  capture_output=True, text=True, cwd=tree)
            if done.returncode:
                raise SystemExit(done.stderr[-3000:])
            figures[which] = json.loads(done.stdout)
        print(f"{'record':<20} {'tree':<7} {'analyze s':>9} {'report s':>9} {'report/analyze':>14} {'page KB':>8}")
        for name in RECORDS:
            for which in trees:
                f = figures[which][name]
                print(f"{name:<20} {which:<7} {f['analyze']:>9.3f} {f['report']:>9.3f} "
                      f"{f['report'] / f['analyze']:>13.1f}x {f['page'] / 1024:>8.0f}")
            b, a = figures["before"][name], figures["after"][name]
            print(f"{'':<20} {'ratio':<7} {'':>9} {a['report'] / b['report']:>8.2f}x {'':>14} "
                  f"{a['page'] / b['page']:>7.2f}x")
        if args.no_archive:
            return
        print(f"\ndomino report of {args.records} generated records (--jobs 1), a process each:")
        print(f"{'tree':<7} {'peak MB':>8} {'CPU s':>7} {'CPU s a record':>15} {'pages MB':>9}")
        for which, tree in trees.items():
            out = folder / f"out-{which}"
            peak, cpu = _archive_peak(tree, archive, out)
            size = sum(p.stat().st_size for p in out.glob("*.html")) / 2 ** 20
            print(f"{which:<7} {peak:>8.0f} {cpu:>7.1f} {cpu / args.records:>15.3f} {size:>9.1f}")


if __name__ == "__main__":
    main()
