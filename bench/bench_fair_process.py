"""The fair analysis as a user runs it: ``domino analyze --fair --json`` of generated records, whole processes,
this tree against another one (``--before``, e.g. the main tree) in the same run, and their verdicts compared.

    python3 bench/bench_fair_process.py --before /work/main                       # 6 partnership records
    python3 bench/bench_fair_process.py --before /work/main --variant draw --records 4
    python3 bench/bench_fair_process.py --before /work/main --records 20 --verdicts-only

Each record is ``analyzer.generate.random_game(VARIANT, seed)`` (seeds ``--seed``, ``--seed`` + 1, ...; those whose
replay is not valid skipped), written to a file and analysed at the commands' defaults (200 deals a decision, to 800
where the best is not told apart, ``--jobs`` 2 on two cores, seed 0) by ``python3 -m analyzer analyze --fair --json``
of each tree in turn (so a busy spell on the shared machine slows both alike), and by ``analyze --json`` (the
open-hands analysis, no ``--fair``) of this tree as a yardstick. Shown: the median and worst wall time and CPU
(user and system, the process's workers' included: ``os.wait4``) a record, and the ratio before / after record by
record. The CPU counts a pool's workers only where they are the analysing process's own children (forked): where
that process runs other threads (the landed tree before issue 71 imported scipy, whose OpenBLAS threads made
forking unsafe), its workers come from a fork server and their CPU is not counted: compare the walls then.

The verdicts of the two trees, decision by decision (the same seed, so the same deals drawn where both draw them):
where the tree before names a best (told apart), whether this tree names the same one; whether this tree ever
names a best outside the moves the tree before did not tell apart (a contradiction); and whether each move's fair
mean lies within the 95% interval the tree before gives it, and its interval overlaps that one.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
RUN_OPTIONS = ("workers", "pool", "progress")


def fair_call(fair, rep, base=None, **options):
    """``fair.fair_analyze(rep, base)`` (``fair``: the ``analysis.fair`` module of whichever tree is on the path)
    with ``options`` given by their old keyword names: as values (``FairSettings``, ``FairRun``, the node limit
    and table size as a ``SearchBudget``) where the tree takes them so, else as keywords (a tree before issue 69),
    so that one bench measures both trees."""
    if not hasattr(fair, "FairSettings"):
        return fair.fair_analyze(rep, base, **options)
    from analyzer.search.core import SearchBudget

    run = {key: options.pop(key) for key in RUN_OPTIONS if key in options}
    limits = {key: options.pop(key) for key in ("node_limit", "table_mb") if key in options}
    if limits:
        options["budget"] = SearchBudget(**limits)
    return fair.fair_analyze(rep, base, settings=fair.FairSettings(**options), run=fair.FairRun(**run))


def write_records(folder: Path, variant: str, seed: int, count: int) -> list[Path]:
    """``count`` valid generated records of ``variant`` written to ``folder``."""
    sys.path.insert(0, str(HERE))
    from analyzer.generate import random_game
    from analyzer.notation.writer import write
    from analyzer.replay import replay

    out, k = [], 0
    while len(out) < count:
        game = random_game(variant, seed + k)
        if replay(game, variant).valid:
            path = folder / f"{variant}-{seed + k}.dom"
            path.write_text(write(game), encoding="utf-8")
            out.append(path)
        k += 1
    return out


def run(tree: Path, args: list[str]) -> tuple[float, float, str]:
    """One whole process of ``tree``'s analyser: (wall seconds, CPU seconds with its children's, standard output)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "analyzer", *args], stdout=out, stderr=subprocess.DEVNULL,
                                cwd=tree, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{tree}: analyze {' '.join(args)} exited {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, text


def verdicts(text: str) -> dict:
    """Per decision (game, index, player): (best, tied moves, {move: (mean, interval)})."""
    out = {}
    for g, game in enumerate(json.loads(text)["games"]):
        for d in game["decisions"] + ([game["to_move"]] if game.get("to_move") else []):
            fair = d.get("fair")
            if not fair or fair.get("method") not in ("sampled", "exact"):
                continue
            means = {a["move"]: (a["fair"]["mean"], tuple(a["fair"]["ci95"])) for a in d["alternatives"] if a.get("fair")}
            out[(g, d["index"], d["player"])] = (fair["best"], tuple(fair["tied"]), fair["method"], means)
    return out


def compare(before: dict, after: dict) -> dict:
    """The verdict agreement of ``after`` with ``before`` (see the module)."""
    tally = dict(decisions=0, separated=0, same=0, tied_after=0, other_best=0, contradicted=0, means=0, within=0,
                 overlap=0, tied_before=0, separated_after=0)
    for key, (best, tied, method, means) in before.items():
        if key not in after:
            continue
        best2, tied2, _, means2 = after[key]
        tally["decisions"] += 1
        if not tied:
            tally["separated"] += 1
            if not tied2 and best2 == best:
                tally["same"] += 1
            elif tied2 and best in tied2:
                tally["tied_after"] += 1
            else:
                tally["other_best"] += 1
        else:
            tally["tied_before"] += 1
            tally["separated_after"] += not tied2
        # a contradiction: a best told apart by one that the other leaves out of its verdict
        if (not tied2 and ((not tied and best2 != best) or (tied and best2 not in tied))) or \
                (not tied and tied2 and best not in tied2):
            tally["contradicted"] += 1
        for move, (mean, (lo, hi)) in means.items():
            if move in means2:
                tally["means"] += 1
                tally["within"] += lo - 1e-6 <= means2[move][0] <= hi + 1e-6
                tally["overlap"] += means2[move][1][0] <= hi + 1e-6 and lo <= means2[move][1][1] + 1e-6
    return tally


def table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(c.rjust(w) for c, w in zip(r, widths)) + " |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="the tree to compare with (e.g. /work/main)")
    ap.add_argument("--variant", default="partnership")
    ap.add_argument("--records", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--verdicts-only", action="store_true", help="compare the verdicts; no open-hands yardstick")
    args = ap.parse_args(argv)
    trees = {"before": args.before.resolve(), "after": HERE}
    times: dict = {"open": [], "before": [], "after": []}
    tally: dict = {}
    with tempfile.TemporaryDirectory() as folder:
        paths = write_records(Path(folder), args.variant, args.seed, args.records)
        for path in paths:
            if not args.verdicts_only:
                times["open"].append(run(HERE, ["analyze", "--json", str(path)])[:2])
            got = {}
            for which, tree in trees.items():
                wall, used, text = run(tree, ["analyze", "--fair", "--json", "--jobs", str(args.jobs), str(path)])
                times[which].append((wall, used))
                got[which] = verdicts(text)
            for k, v in compare(got["before"], got["after"]).items():
                tally[k] = tally.get(k, 0) + v
    print(f"# domino analyze --fair --json, whole processes: {len(paths)} {args.variant} records "
          f"(random_game seeds from {args.seed}), --jobs {args.jobs}, the commands' defaults; before: "
          f"{trees['before']}, after: {HERE}; each record in each tree in turn")
    rows = []
    for which in ("open", "before", "after"):
        if not times[which]:
            continue
        wall, used = [w for w, _ in times[which]], [c for _, c in times[which]]
        rows.append([which if which != "open" else "analyze --json (after)", f"{statistics.median(wall):.2f}",
                     f"{max(wall):.2f}", f"{statistics.median(used):.2f}", f"{max(used):.2f}"])
    table(["process", "median wall s", "worst wall s", "median CPU s", "worst CPU s"], rows)
    ratio = [b[0] / a[0] for b, a in zip(times["before"], times["after"])]
    cpu = [b[1] / a[1] for b, a in zip(times["before"], times["after"])]
    wb, wa = [w for w, _ in times["before"]], [w for w, _ in times["after"]]
    print(f"before / after record by record: wall median {statistics.median(ratio):.2f} (lowest {min(ratio):.2f}), "
          f"CPU median {statistics.median(cpu):.2f} (lowest {min(cpu):.2f}); median of the medians "
          f"{statistics.median(wb) / statistics.median(wa):.2f}, worst over worst {max(wb) / max(wa):.2f}")
    sep = tally.get("separated", 0)
    print(f"verdicts: {tally.get('decisions', 0)} decisions; before told the best apart in {sep}: after names the same "
          f"best in {tally.get('same', 0)} ({100 * tally.get('same', 0) / max(1, sep):.1f}%), leaves it tied with others in "
          f"{tally.get('tied_after', 0)}, names another in {tally.get('other_best', 0)}; before tied in "
          f"{tally.get('tied_before', 0)}, after tells a best apart in {tally.get('separated_after', 0)} of them; "
          f"contradictions {tally.get('contradicted', 0)}; fair means within before's interval "
          f"{tally.get('within', 0)} of {tally.get('means', 0)}, intervals overlapping before's {tally.get('overlap', 0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
