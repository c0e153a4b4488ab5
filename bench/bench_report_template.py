"""What the report's template costs a page, in two trees measured in the same run (issue 57 item 3): the CPU
milliseconds of ``render_html`` without the script's data (``game_data`` and ``packed_game``, with ``line_words`` in
a tree from before the lines were packed from the game's, are worked out once, before the clock starts: another part's cost), the median (and the least, steadier on a busy
machine) of ``--repeat`` renderings of the page model of each record (its analysis done once, untimed), and with
``--compare FOLDER`` whether the two trees write the same pages, byte for byte, of many records (the pages of each
tree kept in ``FOLDER/before`` and ``FOLDER/after``).

    python bench/bench_report_template.py                            # this tree against /work/base
    python bench/bench_report_template.py --before /work/main --repeat 50 --rounds 3      # (a busy machine)
    python bench/bench_report_template.py --compare /tmp/pages        # and the pages of records/, tests/data, generated

The records timed: a generated one-hand partnership record (``random_match("partnership", seed=1)``), the book's
hand (``records/seed1.dom``), a cross record and the fair page of ``records/seed2.dom`` (``report --fair``).
The records compared: every record of ``records/`` and ``tests/data`` that makes a page (and the match records'
pages on the match scale, ``records/seed2.dom``'s with ``--fair`` and with a node limit), and one-hand records
generated from seeds 0 to ``--seeds`` - 1 of several variants.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
TIMED = ["generated", "seed1.dom", "variant-cross.dom", "seed2.dom --fair"]
VARIANTS = ["partnership", "whist", "cross", "block", "draw", "all-fives"]


def _options(how: str = ""):
    """The options of ``domino report``, and ``--fair``, ``--scale match`` or ``--max-nodes 2000`` by ``how``."""
    from analyzer.pipeline import Options

    more = {"fair": dict(fair_worlds=200), "match": dict(scale="match", luck_each=True),
            "nodes": dict(max_nodes=2000), "": {}}[how]
    return Options("report", lines=True, fair_hidden=True, **more)


def _record(name: str) -> tuple[str, bytes, str]:
    """The label, text and options (:func:`_options`) of a record timed."""
    from analyzer.match import random_match
    from analyzer.notation import write

    if name == "generated":
        return name, write(random_match("partnership", seed=1, games=1)).encode("utf-8"), ""
    file, _, fair = name.partition(" ")
    return file, (HERE / "records" / file).read_bytes(), "fair" if fair else ""


def _model(label: str, data: bytes, how: str = ""):
    """The page model of a record, as ``domino report`` makes it (None: the record makes no page)."""
    from analyzer.pipeline import read, run_record
    try:
        from analyzer.archive.task import page
    except ImportError:                 # (a tree from before the task left the report: archive/task.py)
        from analyzer.report.task import page

    run = read(label, data, _options(how))
    run_record(run)
    return None if run.problem is not None else page(run)


def _time(tree: str, repeat: int) -> dict:
    """In a child process: this tree's milliseconds of template a page, by record."""
    sys.path.insert(0, tree)
    try:
        from analyzer.render import page as render
    except ImportError:              # (a tree from before the rendering's package: analyzer/report/render.py)
        from analyzer.report import render

    out = {}
    for name in TIMED:
        model = _model(*_record(name))
        words = getattr(render, "line_words", None)     # (a tree before packed_game took the game itself)
        data = {id(g): render.packed_game(render.game_data(g, c), words(g) if words else g)
                for g, c in zip(model.shown, map(render.chart, model.shown))}
        real = render.game_data, render.packed_game, words
        render.game_data, render.packed_game = (lambda g, c: g), (lambda g, said: data[id(g)])
        if words:
            render.line_words = id
        try:
            render.render_html(model)                 # (the templates compiled, the static files read: once)
            times = []
            for _ in range(repeat):
                start = time.process_time()
                render.render_html(model)
                times.append(time.process_time() - start)
        finally:
            render.game_data, render.packed_game = real[:2]
            if words:
                render.line_words = words
        out[name] = [1000 * statistics.median(times), 1000 * min(times)]
    return out


def _compare_inputs(seeds: int) -> list[tuple[str, bytes, str]]:
    """The label, text and options (:func:`_options`) of each page compared: the records as ``report`` makes them,
    the match records on the match scale too, seed2.dom with ``--fair`` and with a node limit, the generated."""
    from analyzer.match import random_match
    from analyzer.notation import write

    files = sorted(p for folder in ("records", "tests/data") for p in (HERE / folder).iterdir()
                   if p.is_file() and p.suffix in (".dom", ".txt"))
    inputs = [(str(p.relative_to(HERE)), p.read_bytes(), "") for p in files]
    inputs += [(label, data, "match") for label, data, _ in inputs if Path(label).name.startswith("match-")]
    inputs += [("records/seed2.dom", (HERE / "records/seed2.dom").read_bytes(), how) for how in ("fair", "nodes")]
    inputs += [(f"{v}-{s}", write(random_match(v, seed=s, games=1)).encode("utf-8"), "")
               for v in VARIANTS for s in range(seeds)]
    return inputs


def _pages(tree: str, folder: str, seeds: int) -> list[str]:
    """In a child process: this tree's page of each record compared, written in ``folder``; the pages made."""
    sys.path.insert(0, tree)
    try:
        from analyzer.render.page import render_html
    except ImportError:              # (a tree from before the rendering's package)
        from analyzer.report.render import render_html

    made = []
    for label, data, how in _compare_inputs(seeds):
        try:
            model = _model(label, data, how)
        except Exception:               # (a record the pipeline cannot read or analyse: no page, in either tree)
            continue
        if model is not None:
            name = label.replace("/", "_") + (f".{how}" if how else "") + ".html"
            (Path(folder) / name).write_text(render_html(model), encoding="utf-8")
            made.append(name)
    return made


def _child(args: list[str], tree: str) -> object:
    done = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, cwd=tree)
    if done.returncode:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="/work/base", help="the tree to compare with (default: /work/base)")
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=1, help="measure each tree this many times, in turn, and keep "
                        "each record's least median (and least time)")
    parser.add_argument("--compare", metavar="FOLDER", help="also write and compare the pages of many records")
    parser.add_argument("--seeds", type=int, default=4, help="generated records compared, a variant (default: 4)")
    parser.add_argument("--one", metavar="TREE", help=argparse.SUPPRESS)
    parser.add_argument("--one-pages", nargs=2, metavar=("TREE", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_time(args.one, args.repeat)))
        return
    if args.one_pages:
        print(json.dumps(_pages(*args.one_pages, args.seeds)))
        return
    trees = {"before": str(Path(args.before).resolve()), "after": str(HERE)}
    figures: dict = {"before": {}, "after": {}}
    for _ in range(args.rounds):           # (the trees in turn: a busy spell of the machine hits both)
        for which, tree in trees.items():
            for name, (median, least) in _child(["--one", tree, "--repeat", str(args.repeat)], tree).items():
                best = figures[which].get(name, [median, least])
                figures[which][name] = [min(best[0], median), min(best[1], least)]
    print(f"{'record':<20} {'before ms':>9} {'after ms':>9} {'after/before':>12}   (the least of the repeats)")
    for name in TIMED:
        (before, least_before), (after, least_after) = figures["before"][name], figures["after"][name]
        print(f"{name:<20} {before:9.2f} {after:9.2f} {after / before:11.2f}x   ({least_before:.2f} {least_after:.2f}"
              f" {least_after / least_before:.2f}x)")
    if args.compare:
        made = {}
        for which, tree in trees.items():
            folder = Path(args.compare) / which
            folder.mkdir(parents=True, exist_ok=True)
            made[which] = _child(["--one-pages", tree, str(folder), "--seeds", str(args.seeds)], tree)
        if made["before"] != made["after"]:
            print(f"pages made differ: {sorted(set(made['before']) ^ set(made['after']))}")
        same = [n for n in made["after"] if (Path(args.compare) / "before" / n).read_bytes()
                == (Path(args.compare) / "after" / n).read_bytes()]
        print(f"{len(same)} of {len(made['after'])} pages byte-identical")
        for n in sorted(set(made["after"]) - set(same)):
            print(f"  differs: {n}")


if __name__ == "__main__":
    main()
