"""What a report page costs against the analysis of the same record, in two trees measured in the same run
(issue 57 item 3): CPU seconds a record for ``report`` (the page, every alternative's best line on it) and for
``analyze`` and ``analyze --lines`` (the analysis with every alternative's best line, as the page shows them; the
median of ``--repeat`` runs, in one process of each tree), the page's size, the page without its lines' steps
(``report`` with the lines off: about what a page that played its lines itself would cost), and the peak
memory of ``domino report`` over archives of generated records (a fresh process each, its maximum RSS), and
with ``--sizes N`` the size of one-hand pages generated from N seeds of several variants (median and largest).

    python bench/bench_report_pages.py                                 # this tree against /work/main
    python bench/bench_report_pages.py --before /work/main --records 100 --repeat 3
    python bench/bench_report_pages.py --no-archive                    # the pages only
    python bench/bench_report_pages.py --records 100,1000 --sizes 8    # two archives; page sizes over 8 seeds a variant

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
    try:
        from analyzer.archive.task import process
    except ImportError:                 # (a tree from before the task left the report: archive/task.py)
        from analyzer.report.task import process

    analyze = Options("analyze")
    lines = Options("analyze", lines=True)
    report = Options("report", lines=True, fair_hidden=True)
    bare = Options("report", lines=False, fair_hidden=True)      # the page without the lines' steps
    out = {}
    first = (Path(folder) / RECORDS[0]).read_bytes()
    for options in (analyze, lines, report, bare):   # start-up: the imports and the search's table, once, untimed
        process(RECORDS[0], first, options)
    for name in RECORDS:
        data = (Path(folder) / name).read_bytes()
        figures = {}
        for label, options in (("analyze", analyze), ("lines", lines), ("report", report), ("bare", bare)):
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


def _write_inputs(folder: Path, sizes: list[int]) -> list[Path]:
    sys.path.insert(0, str(HERE))
    from analyzer.match import random_match
    from analyzer.notation import write

    (folder / "generated").write_text(write(random_match("partnership", seed=1, games=1)), encoding="utf-8")
    for name in RECORDS[1:]:
        (folder / name).write_bytes((HERE / "records" / name).read_bytes())
    archives = []
    for records in sizes:
        archive = folder / f"archive-{records}"
        archive.mkdir()
        for k in range(records):
            (archive / f"{k:04d}.dom").write_text(write(random_match("partnership", seed=k, games=1)), encoding="utf-8")
        archives.append(archive)
    return archives


SIZE_VARIANTS = ["partnership", "whist", "jamaican", "block", "draw", "all-fives", "cross", "french"]


def _sizes(tree: str, seeds: int) -> dict:
    """In a child process: the page size of a one-hand record generated from each seed of each variant."""
    sys.path.insert(0, tree)
    from analyzer.match import random_match
    from analyzer.notation import write
    from analyzer.pipeline import Options
    try:
        from analyzer.archive.task import process
    except ImportError:                 # (a tree from before the task left the report: archive/task.py)
        from analyzer.report.task import process

    options = Options("report", lines=True, fair_hidden=True)
    return {v: [len(process("g", write(random_match(v, seed=s, games=1)).encode("utf-8"), options)["page"]
                    .encode("utf-8")) for s in range(seeds)] for v in SIZE_VARIANTS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="/work/main", help="the tree to compare with (default: /work/main)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--records", default="100", help="generated records in each archive (a list: 100,1000)")
    parser.add_argument("--no-archive", action="store_true")
    parser.add_argument("--sizes", type=int, default=0, metavar="N", help="page sizes over N seeds of each variant")
    parser.add_argument("--one", nargs=2, metavar=("TREE", "FOLDER"), help=argparse.SUPPRESS)
    parser.add_argument("--one-sizes", nargs=2, metavar=("TREE", "SEEDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_one(args.one[0], args.repeat, args.one[1])))
        return
    if args.one_sizes:
        print(json.dumps(_sizes(args.one_sizes[0], int(args.one_sizes[1]))))
        return
    trees = {"before": str(Path(args.before).resolve()), "after": str(HERE)}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sizes = [] if args.no_archive else [int(n) for n in args.records.split(",")]
        archives = _write_inputs(folder, sizes)
        figures = {}
        for which, tree in trees.items():
            done = subprocess.run([sys.executable, __file__, "--one", tree, tmp, "--repeat", str(args.repeat)],
                                  capture_output=True, text=True, cwd=tree)
            if done.returncode:
                raise SystemExit(done.stderr[-3000:])
            figures[which] = json.loads(done.stdout)
        print("CPU seconds a record (median of the repeats): analyze, analyze --lines (every alternative's best line,\n"
              "as the page shows them) and report; the report's cost against each; the page's size; and the page\n"
              "without the lines' steps (report with lines off: what a page that played its lines itself would cost\n"
              "here) against analyze --lines (a tree without the figure: -)")
        print(f"{'record':<20} {'tree':<7} {'analyze s':>9} {'--lines s':>9} {'report s':>9} {'/analyze':>9} "
              f"{'/--lines':>9} {'page KB':>8} {'no lines':>9}")
        for name in RECORDS:
            for which in trees:
                f = figures[which][name]
                bare = f"{f['bare'] / f['lines']:>8.1f}x" if "bare" in f else f"{'-':>9}"
                print(f"{name:<20} {which:<7} {f['analyze']:>9.4f} {f['lines']:>9.4f} {f['report']:>9.4f} "
                      f"{f['report'] / f['analyze']:>8.1f}x {f['report'] / f['lines']:>8.1f}x {f['page'] / 1024:>8.0f} "
                      f"{bare}")
            b, a = figures["before"][name], figures["after"][name]
            print(f"{'':<20} {'ratio':<7} {'':>9} {'':>9} {a['report'] / b['report']:>8.2f}x {'':>9} {'':>9} "
                  f"{a['page'] / b['page']:>7.2f}x")
        if args.sizes:
            _print_sizes(trees, args.sizes)
        if not archives:
            return
        print("\ndomino report of generated one-hand records (--jobs 1), a process each:")
        print(f"{'records':>7} {'tree':<7} {'peak MB':>8} {'CPU s':>7} {'CPU s a record':>15} {'pages MB':>9}")
        peaks = {}
        for records, archive in zip(sizes, archives):
            for which, tree in trees.items():
                out = folder / f"out-{which}-{records}"
                peak, cpu = _archive_peak(tree, archive, out)
                peaks[which, records] = peak
                size = sum(p.stat().st_size for p in out.glob("*.html")) / 2 ** 20
                print(f"{records:>7} {which:<7} {peak:>8.0f} {cpu:>7.1f} {cpu / records:>15.3f} {size:>9.1f}")
        if len(sizes) > 1:
            print(f"peak at {sizes[-1]} records over the peak at {sizes[0]}: "
                  + ", ".join(f"{which} {peaks[which, sizes[-1]] / peaks[which, sizes[0]]:.2f}x" for which in trees))


def _print_sizes(trees: dict, seeds: int) -> None:
    """The page sizes of one-hand records generated from ``seeds`` seeds of each variant, by each tree."""
    got = {}
    for which, tree in trees.items():
        done = subprocess.run([sys.executable, __file__, "--one-sizes", tree, str(seeds)], capture_output=True,
                              text=True, cwd=tree)
        if done.returncode:
            raise SystemExit(done.stderr[-3000:])
        got[which] = json.loads(done.stdout)
    print(f"\none-hand pages generated from {seeds} seeds (KB): median and largest; over 150 KB: how many")
    print(f"{'variant':<12} " + " ".join(f"{w + ' med':>11} {w + ' max':>11} {'>150':>5}" for w in trees))
    for v in SIZE_VARIANTS:
        cells = []
        for which in trees:
            sizes = sorted(got[which][v])
            cells.append(f"{sizes[len(sizes) // 2] / 1024:>11.0f} {sizes[-1] / 1024:>11.0f} "
                         f"{sum(n > 150 * 1024 for n in sizes):>5}")
        print(f"{v:<12} " + " ".join(cells))


if __name__ == "__main__":
    main()
