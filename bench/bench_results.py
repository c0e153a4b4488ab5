"""What reading each alternative's hand result costs (``analysis.outcomes.principal_results``), record by record: the
part of grading on the match scale that plays or reads every principal variation (bad points, points during play).

    python3 bench/bench_results.py                          # the bundled records whose results are read
    python3 bench/bench_results.py --before DIR             # and another checkout (its cores built in place)
    python3 bench/bench_results.py --runs 40 FILE...

For each game of each record whose results are read, in one process: the open-hands analysis with the searches the
pipeline keeps (``searches_for``), then ``principal_results`` with them, as ``pipeline.analyse`` does on the match
scale; each the CPU time, the mean over ``--runs`` runs after one untimed run, the best of ``--rounds`` rounds. With
``--before DIR`` the same runs in that tree (a child process importing it), the two trees alternating round by round,
and the table gives both and their ratio. The machine is shared: read the ratios, not the milliseconds.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ["match-hungarian-4.dom", "match-hungarian-3.dom", "variant-hungarian.dom", "match-whist.dom",
           "variant-all-fives.dom", "match-all-fives-threes-3.dom"]


def measure(paths: list[str], runs: int) -> dict[str, tuple[float, float, int]]:
    """``{record: (analysis ms, results ms, lines)}``, a record's games together, each the mean of ``runs``."""
    from analyzer.analysis import analyze_replay, searches_for
    from analyzer.analysis.outcomes import needs_results, principal_results
    from analyzer.match import replay_record
    from analyzer.notation import parse

    out = {}
    for path in paths:
        games = [rep for rep in replay_record(parse(Path(path).read_text(encoding="utf-8")))
                 if needs_results(rep.variant)]
        spent = [0.0, 0.0]
        lines = 0
        for k in range(runs + 1):
            for rep in games:
                t0 = time.process_time()
                searches = searches_for(rep.variant)
                analysis = analyze_replay(rep, searches=searches)
                t1 = time.process_time()
                results = principal_results(rep, analysis, searches=searches)
                t2 = time.process_time()
                if k:           # (the first run untimed: the code warm)
                    spent[0] += t1 - t0
                    spent[1] += t2 - t1
                    lines += len(results.line) + sum(len(row) for row in results.alternatives)
        out[Path(path).name] = (1000 * spent[0] / runs, 1000 * spent[1] / runs, lines // runs)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", nargs="*", help="record files (default: the bundled ones whose results are read)")
    ap.add_argument("--before", type=Path, default=None, help="another checkout, measured in the same run")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3, help="rounds, the trees alternating (each figure the best)")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)     # (the child's answer)
    args = ap.parse_args()
    paths = [str(Path(r).resolve()) for r in args.records] or [str(ROOT / "records" / r) for r in RECORDS]
    if args.json:
        print(json.dumps(measure(paths, args.runs)))
        return
    now: dict = {}
    before: dict | None = {} if args.before is not None else None
    for _ in range(args.rounds):            # (the two trees alternating; each figure the best round's)
        for name, got in measure(paths, args.runs).items():
            now[name] = min(now.get(name, got), got, key=lambda x: x[1])
        if before is not None:
            env = dict(os.environ, PYTHONPATH=str(args.before.resolve()))
            done = subprocess.run([sys.executable, __file__, "--json", "--runs", str(args.runs), *paths], env=env,
                                  cwd=args.before, capture_output=True, text=True, check=True)
            for name, got in json.loads(done.stdout).items():
                before[name] = min(before.get(name, got), got, key=lambda x: x[1])
    print(f"# bench_results: Python {sys.version.split()[0]}, CPU, the mean of {args.runs} runs a record, best of "
          f"{args.rounds} rounds")
    head = "| record | lines | analysis ms | results ms |" + (" before: results ms | faster |" if before else "")
    print("\n" + head)
    print("|" + "---|" * (head.count("|") - 1))
    for name, (analysis, results, lines) in now.items():
        row = f"| {name} | {lines} | {analysis:.2f} | {results:.2f} |"
        if before:
            old = before[name][1]
            row += f" {old:.2f} | {old / results:.1f}x |"
        print(row)


if __name__ == "__main__":
    main()
