"""What the report's diagrams to save cost (issue 57 item 3): per record, the CPU of drawing every position of
each game (``task.position_diagrams``) and of packing them for the page (``pagedata.packed_diagrams``), and the
page's size, in this tree and in others given (each in its own process, in the same run: the machine may be
shared). CPU milliseconds, the median of ``--repeat`` runs; "cold": the drawing's caches emptied before each run
(a record drawn alone), "warm": kept (a record drawn after others like it).

    python bench/bench_report_diagrams.py --against /work/base
    python bench/bench_report_diagrams.py records/seed1.dom --repeat 20

Without records: a generated one-hand partnership record (``random_match("partnership", seed=1, games=1)``)
and records/variant-cross.dom (a layout with arms).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_ms(work, repeat: int, before=lambda: None) -> float:
    """The median CPU milliseconds of ``work()`` over ``repeat`` runs, ``before()`` run (untimed) before each."""
    times = []
    for _ in range(repeat):
        before()
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def measure(paths: list[str], repeat: int) -> list[dict]:
    """The figures of each record in the tree this process imports."""
    from analyzer.match import replay_record
    from analyzer.notation import read
    try:
        from analyzer.render import diagram, render_html
        from analyzer.render.pagedata import packed_diagrams
    except ImportError:                         # (a tree from before the rendering's package: analyzer/report)
        from analyzer.report import diagram, render_html
        try:
            from analyzer.report.pagedata import packed_diagrams
        except ImportError:                     # (a tree from before report/pagedata.py)
            from analyzer.report.render import packed_diagrams
    try:
        from analyzer.archive.task import position_diagrams, report_model
    except ImportError:                 # (a tree from before the task left the report: archive/task.py)
        from analyzer.report.task import position_diagrams, report_model

    def empty_caches():
        for value in vars(diagram).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()

    rows = []
    for path in paths:
        record = read(path)
        replays = replay_record(record)
        drawn = [position_diagrams(rep) for rep in replays]
        rows.append({"record": Path(path).name,
                     "positions": sum(map(len, drawn)),
                     "cold": cpu_ms(lambda: [position_diagrams(rep) for rep in replays], repeat, empty_caches),
                     "warm": cpu_ms(lambda: [position_diagrams(rep) for rep in replays], repeat),
                     "pack": cpu_ms(lambda: [packed_diagrams(d) for d in drawn], repeat),
                     "packed": sum(len(packed_diagrams(d) or "") for d in drawn),
                     "page": len(render_html(report_model(record)).encode("utf-8"))})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="records (default: a generated partnership hand, variant-cross.dom)")
    parser.add_argument("--against", action="append", default=[], help="another tree to measure in the same run")
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--child", help=argparse.SUPPRESS)           # (a tree's own process: its figures as JSON)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, args.child)
        print(json.dumps(measure(args.paths, args.repeat)))
        return
    paths = args.paths
    if not paths:
        sys.path.insert(0, str(ROOT))
        from analyzer.match import random_match
        from analyzer.notation import write

        generated = Path(tempfile.mkdtemp()) / "partnership-seed1.dom"
        generated.write_text(write(random_match("partnership", seed=1, games=1)), encoding="utf-8")
        paths = [str(generated), str(ROOT / "records" / "variant-cross.dom")]
    print(f"{'tree':<24} {'record':<24} {'positions':>9} {'draw cold':>9} {'warm':>6} {'pack':>6} "
          f"{'cold+pack':>9} {'packed B':>8} {'page B':>8}")
    for tree in [str(ROOT)] + args.against:
        out = subprocess.run([sys.executable, __file__, "--child", tree, "--repeat", str(args.repeat), *paths],
                             capture_output=True, text=True, check=True, cwd=tree).stdout
        for r in json.loads(out):
            print(f"{Path(tree).name:<24} {r['record']:<24} {r['positions']:>9} {r['cold']:>9.2f} {r['warm']:>6.2f} "
                  f"{r['pack']:>6.2f} {r['cold'] + r['pack']:>9.2f} {r['packed']:>8} {r['page']:>8}")
    print("\nms of CPU per record (median); draw: task.position_diagrams, cold with the drawing's caches emptied "
          "before each run; pack: pagedata.packed_diagrams (packed: its characters; a tree since the page deflates each "
          "game's data whole gives the text before that deflate, an older one the drawings deflated alone); page: the "
          "report's HTML in bytes")


if __name__ == "__main__":
    main()
