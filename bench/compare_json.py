"""The JSON the tool prints, in two trees, compared byte for byte in one run (issue 69 item 1: typed results, one
JSON writer; the output must not change but where a documented, versioned change says so).

    python bench/compare_json.py                       # this tree against /work/main
    python bench/compare_json.py --before /work/main --archive 30 --keep /tmp/json-out

The inputs: the bundled records (``records/``, copied to a temporary folder so that both trees read the same files
under the same names) and an archive of ``--archive`` generated records (``analyzer.match.random_match``, seeded by
their number, one to three hands each). The commands: ``analyze --json`` (plain, ``--lines``, ``--scale match``,
``--fair`` with few deals, ``--jsonl``), ``validate --json`` and ``stats --json``, each with ``--jobs 1``; and the
board's ``analyze_document`` (``analyzer.server.library``) of two records, plain and fair. Prints a table: each
command, its output's size in each tree, and whether they are the same bytes (else the first differing line).
Where the bytes differ, the outputs are read as JSON and compared again with the documented, versioned changes
undone in the "after" tree's (``--undo``, by default those of schema version 2: a tied fair verdict's ``best`` was
the first of ``tied``, and no alternative had ``gap``/``gap_ci``): "same data" says the rest is the same. Exit
status 1 when any differs beyond them.
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

COMMANDS = {
    "analyze records": ["analyze", "--json", "-j", "1", "records"],
    "analyze --lines": ["analyze", "--json", "--lines", "-j", "1", "records/seed1.dom", "records/variant-draw.dom",
                        "records/variant-cross.dom"],
    "analyze --scale match": ["analyze", "--json", "--scale", "match", "-j", "1", "records/match-french.dom",
                              "records/match-all-fives-4.dom", "records/match-jamaican.dom", "records/match-kozel.dom",
                              "records/match-whist.dom", "records/seed1.dom", "records/variant-draw.dom"],
    "analyze --fair": ["analyze", "--json", "--fair", "--worlds", "12", "-j", "1", "records/seed1.dom",
                       "records/variant-draw-003.dom", "records/draw-one-view.dom"],
    "analyze --fair --scale match": ["analyze", "--json", "--fair", "--worlds", "12", "--scale", "match", "-j", "1",
                                     "records/match-french.dom"],
    "validate records": ["validate", "--json", "-j", "1", "records"],
    "analyze archive": ["analyze", "--json", "-j", "1", "archive"],
    "analyze --jsonl archive": ["analyze", "--jsonl", "-j", "1", "archive"],
    "stats archive": ["stats", "--json", "-j", "1", "archive"],
}

BOARD = [("records/seed1.dom", False), ("records/variant-draw-003.dom", False), ("records/seed1.dom", True)]


def _board(tree: str, folder: str) -> None:
    """In a child process: the board's ``analyze_document`` of :data:`BOARD`, one JSON document a line."""
    sys.path.insert(0, tree)
    from analyzer.server import library

    for name, fair in BOARD:
        text = (Path(folder) / name).read_text(encoding="utf-8")
        if hasattr(library, "BoardRecord"):     # (the board's record and request as values: issue 69 item 2)
            doc = library.analyze_document(library.BoardRecord(text, name),
                                           library.AnalysisRequest(fair=fair, decision_deals=12))
        else:
            doc = library.analyze_document(text, name, fair=fair, worlds=12)
        print(json.dumps(doc, sort_keys=True))


def undo_v2(data):
    """``data`` (an output read as JSON) as schema version 1 wrote it: each fair verdict's ``best`` the first of its
    ``tied`` where it names none, and no alternative's ``gap`` and ``gap_ci``."""
    if isinstance(data, list):
        return [undo_v2(x) for x in data]
    if not isinstance(data, dict):
        return data
    value = "mean" in data and "ci95" in data          # (an alternative's fair value; a worst world has its own gap)
    out = {k: undo_v2(v) for k, v in data.items() if not (value and k in ("gap", "gap_ci"))}
    if out.get("best", "") is None and out.get("tied") and "verdict" in out:
        out["best"] = out["tied"][0]
    return out


def as_json(raw: bytes):
    """An output read as JSON: one document, or a document a line (``--jsonl``, the board's)."""
    text = raw.decode()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def make_archive(root: Path, records: int) -> None:
    sys.path.insert(0, str(HERE))
    from analyzer.match import random_match
    from analyzer.notation import write

    for k in range(records):
        folder = root / f"event-{k % 2}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{k:04d}.dom").write_text(write(random_match("partnership", seed=k, games=1 + k % 3)),
                                             encoding="utf-8")


def run_tree(tree: str, folder: Path, out: Path) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONPATH": tree}
    outputs = {}
    for name, args in COMMANDS.items():
        done = subprocess.run([sys.executable, "-m", "analyzer", *args], cwd=folder, env=env, capture_output=True)
        outputs[name] = done.stdout
        (out / (name.replace(" ", "_").replace("-", "") + ".json")).write_bytes(done.stdout)
    done = subprocess.run([sys.executable, __file__, "--board", tree, str(folder)], cwd=folder, env=env,
                          capture_output=True)
    if done.returncode:
        raise SystemExit(done.stderr.decode()[-3000:])
    outputs["board analyze_document"] = done.stdout
    (out / "board.json").write_bytes(done.stdout)
    return outputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="/work/main", help="the tree to compare with (default: /work/main)")
    parser.add_argument("--archive", type=int, default=30, help="generated records in the archive")
    parser.add_argument("--keep", type=Path, help="keep each tree's outputs in this folder")
    parser.add_argument("--no-undo", action="store_true", help="compare the bytes only (no versioned change undone)")
    parser.add_argument("--board", nargs=2, metavar=("TREE", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.board:
        _board(*args.board)
        return
    trees = {"before": str(Path(args.before).resolve()), "after": str(HERE)}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "inputs"
        shutil.copytree(HERE / "records", folder / "records")
        make_archive(folder / "archive", args.archive)
        keep = args.keep or Path(tmp) / "outputs"
        outputs = {}
        for which, tree in trees.items():
            (keep / which).mkdir(parents=True, exist_ok=True)
            outputs[which] = run_tree(tree, folder, keep / which)
        differ = 0
        print(f"{'output':<30} {'before KB':>10} {'after KB':>10}  same bytes  same data (v2 undone)")
        for name in outputs["before"]:
            b, a = outputs["before"][name], outputs["after"][name]
            same = a == b
            data = same or (not args.no_undo and undo_v2(as_json(a)) == as_json(b))
            differ += not data
            print(f"{name:<30} {len(b) / 1024:>10.1f} {len(a) / 1024:>10.1f}  {'yes' if same else 'no':<10}  "
                  f"{'yes' if data else 'NO'}")
            if not data:
                diff = difflib.unified_diff(b.decode().splitlines(), a.decode().splitlines(), "before", "after",
                                            lineterm="", n=1)
                print("    " + "\n    ".join(line[:300] for line in list(diff)[:12]))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
