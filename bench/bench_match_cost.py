"""What grading on the match scale costs over points, record by record, as a user runs the command.

    python3 bench/bench_match_cost.py                               # the bundled match records
    python3 bench/bench_match_cost.py --before DIR --rounds 3       # and another checkout, in the same run
    python3 bench/bench_match_cost.py records/match-whist.dom FILE...
    python3 bench/bench_match_cost.py --copies 12                   # each as an archive of 12 copies
    python3 bench/bench_match_cost.py --matches 12                  # an archive of 12 random matches a variant

For each record: ``python3 -m analyzer analyze RECORD --json`` (points) and the same with ``--scale match``, each
the CPU time (user and system) of the child process (``RUSAGE_CHILDREN``), best of ``--rounds`` runs, the two
scales alternating, with bytecode files in a folder of the run's own (as an installed package has them; a first run
writes them). With ``--copies N`` each record is analysed as a folder of N copies of it, in one process: an
archive's cost per game, where the start-up (some 0.1 s: the imports, the table loaded) is paid once, not once a
record. But copies repeat the same match positions, whose look-ups a process keeps after the first copy:
``--matches N`` is an archive of distinct games, each variant of :data:`MATCHES` an archive of N random matches
(``analyzer.match.random_match``, seeds 1 to N, up to 6 games each), written once for the run and read by each tree
alike. With ``--before DIR`` (a checkout with its compiled cores built in place) the same commands run there too,
alternating with this tree's, and the table gives both ratios. The machine is shared: read the ratios, not the
seconds. Each tree keeps the tables it solves when loaded (the races of individual players) in a cache folder of
its own in the run's folder: the first, untimed run of a record solves them (a minute or more for some), as the
first use on a machine does; the timed runs find them there.
"""
from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ["match-quinientos.dom", "match-doscientos-block.dom", "match-jamaican.dom", "match-milo.dom",
           "match-whist.dom", "match-chiva-3-draw.dom", "variant-all-fives.dom", "variant-hungarian.dom",
           "variant-cutthroat-3.dom", "match-all-fives-4.dom", "match-all-fives-threes-3.dom", "match-hungarian-3.dom",
           "match-hungarian-4.dom", "match-french.dom", "match-kozel.dom", "match-kozel-50-no-eggs.dom"]

#: the variants of ``--matches``: (name, options): each family the match scale grades, those whose results are read
MATCHES = [("whist", {}), ("hungarian", {"players": "3"}), ("hungarian", {"players": "4"}), ("french", {}),
           ("all-fives", {}), ("all-fives-threes", {"players": "3"}), ("all-fives", {"players": "4"}),
           ("partnership", {}), ("jamaican", {}), ("cutthroat", {"players": "3"}), ("chiva", {"players": "3"}),
           ("kozel", {})]


def cpu(root: Path, record: str, scale: str, env: dict) -> float:
    """The CPU seconds of ``analyze RECORD --json --scale SCALE`` run in ``root`` (a record with errors exits 1:
    its output is still the analysis of what could be read)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "analyzer", "analyze", record, "--json", "--scale", scale], cwd=root,
                          env=env, capture_output=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{record} in {root}: exit {done.returncode}: {done.stderr.decode()[-500:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def archive(record: str, copies: int, where: Path) -> str:
    """A folder of ``copies`` copies of ``record`` in ``where`` (named after it), for ``analyze`` to read as one
    archive."""
    folder = where / Path(record).stem
    folder.mkdir()
    text = Path(record).read_bytes()
    for k in range(copies):
        (folder / f"{k + 1:03d}.dom").write_bytes(text)
    return str(folder)


def random_matches(name: str, rules: dict, count: int, where: Path) -> str:
    """A folder in ``where`` of ``count`` random matches of the variant ``name`` with ``rules`` (seeds 1 to
    ``count``, up to 6 games each), for ``analyze`` to read as one archive."""
    from analyzer.match import random_match
    from analyzer.notation.writer import write
    from analyzer.rules import find_variant

    variant = find_variant(name, rules)
    folder = where / (name + "".join(f"_{k}={v}" for k, v in rules.items()))
    folder.mkdir()
    for seed in range(1, count + 1):
        (folder / f"{seed:03d}.dom").write_text(write(random_match(variant, seed, games=6)), encoding="utf-8")
    return str(folder)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", nargs="*", help="record files (default: the bundled match records)")
    ap.add_argument("--before", type=Path, default=None, help="another checkout, timed in the same run")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--copies", type=int, default=0, help="analyse each record as a folder of N copies of it")
    ap.add_argument("--matches", type=int, default=0, help="analyse N random matches of each variant, one archive")
    args = ap.parse_args()
    records = [str(Path(r).resolve()) for r in args.records] or [str(ROOT / "records" / r) for r in RECORDS]
    folders = tempfile.TemporaryDirectory() if args.copies or args.matches else None
    if args.matches:
        records = [random_matches(name, rules, args.matches, Path(folders.name)) for name, rules in MATCHES]
    elif folders is not None:
        records = [archive(record, args.copies, Path(folders.name)) for record in records]
    roots = [("now", ROOT)] + ([("before", args.before.resolve())] if args.before else [])
    print(f"# bench_match_cost: Python {platform.python_version()}, best of {args.rounds} CPU runs of each command"
          + (f", each variant an archive of {args.matches} random matches" if args.matches
             else f", each record as an archive of {args.copies} copies" if args.copies else ""))
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        envs = {name: dict(env, DOMINO_CACHE=os.path.join(cache, f"tables-{name}")) for name, _ in roots}
        head = "| record | " + " | ".join(f"{name}: points s | {name}: match s | {name}: ratio" for name, _ in roots)
        print("\n" + head + " |\n|" + "---|" * (1 + 3 * len(roots)))
        for record in records:
            best: dict = {}
            for name, root in roots:            # (a first run of each writes the bytecode, and solves the races)
                cpu(root, record, "match", envs[name])
            for _ in range(args.rounds):
                for name, root in roots:
                    for scale in ("points", "match"):
                        t = cpu(root, record, scale, envs[name])
                        best[name, scale] = min(best.get((name, scale), t), t)
            cells = []
            for name, _ in roots:
                p, m = best[name, "points"], best[name, "match"]
                cells += [f"{p:.3f}", f"{m:.3f}", f"{m / p:.2f}x"]
            print(f"| {Path(record).name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
