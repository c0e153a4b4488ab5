"""Peak memory and time of `analyze DIR --json` (and `--jsonl`) over generated archives of growing size, in
this tree against another one (``--before``), as whole processes in the same run.

    python3 bench/bench_json_memory.py --before /work/main                 # 100, 1,000 and 5,000 records
    python3 bench/bench_json_memory.py --before /work/main --sizes 100,1000 --jobs 1

The archives are random legal partnership matches (``analyzer.match.random_match``, one to three hands
each, seeded by their number), written once into a temporary folder. Each command runs under
``/usr/bin/time -v``: its "maximum resident set size" is that of the largest process of the run (the
command itself with ``--jobs 1``; with a pool, the largest of it and its workers). The output of both trees
is checked byte-identical. Prints, per size and tree, the peak RSS in MB and the wall and CPU seconds; then
each tree's peak as a ratio to its own peak at the smallest size (the goal of issue 57: 5,000 records within
1.5x of 100) and after / before at each size."""
from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))


def make_archive(root: Path, records: int) -> None:
    from analyzer.match import random_match
    from analyzer.notation import write

    for k in range(records):
        folder = root / f"event-{k % 4}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{k:05d}.dom").write_text(write(random_match("partnership", seed=k, games=1 + k % 3)),
                                             encoding="utf-8")


def measure(tree: Path, args: list[str], cwd: Path) -> tuple[float, float, float, str]:
    """Peak RSS (MB), wall and CPU seconds, and the digest of standard output of ``python3 -m analyzer args``
    run from ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-m", "analyzer", *args], cwd=cwd, env=env,
                              stdout=out, stderr=err)
        wall = time.perf_counter() - start
        err.seek(0)
        report = err.read().decode(errors="replace")
        if done.returncode not in (0, 1):
            raise SystemExit(f"{tree}: {' '.join(args)} failed: {report[-800:]}")
        out.seek(0)
        digest = hashlib.sha256(out.read()).hexdigest()
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", report).group(1)) / 1024
    cpu = sum(float(re.search(rf"{what} time \(seconds\): ([\d.]+)", report).group(1)) for what in ("User", "System"))
    return rss, wall, cpu, digest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other source tree (its analyzer/)")
    parser.add_argument("--sizes", default="100,1000,5000", help="records in each archive")
    parser.add_argument("--jobs", default=None, help="--jobs of every run (default: each tree's default)")
    parser.add_argument("--form", choices=["json", "jsonl"], default="json")
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",")]
    trees = {"before": args.before.resolve(), "after": HERE}
    jobs = ["--jobs", args.jobs] if args.jobs else []
    rows = {}
    with tempfile.TemporaryDirectory(prefix="bench-json-") as folder:
        for n in sizes:
            root = Path(folder) / f"archive-{n}"
            make_archive(root, n)
            for which, tree in trees.items():    # (run from the archive's folder: no tree is the current one)
                rows[n, which] = measure(tree, ["analyze", ".", f"--{args.form}", *jobs], root)
                print(f"  {n} records, {which}: {rows[n, which][0]:.0f} MB", file=sys.stderr, flush=True)
            if rows[n, "before"][3] != rows[n, "after"][3]:
                print(f"  {n} records: the outputs of the two trees DIFFER", file=sys.stderr)
    print(f"`analyze DIR --{args.form}{' --jobs ' + args.jobs if args.jobs else ''}` over generated archives "
          f"(before: {trees['before']}, after: {trees['after']}); peak RSS by /usr/bin/time -v")
    print(f"{'records':>8} {'tree':<7} {'peak MB':>8} {'wall s':>7} {'CPU s':>7} {'peak / smallest':>16} "
          f"{'after/before peak':>18} {'same output':>12}")
    for n in sizes:
        for which in trees:
            rss, wall, cpu, digest = rows[n, which]
            growth = rss / rows[sizes[0], which][0]
            ratio = f"{rows[n, 'after'][0] / rows[n, 'before'][0]:.2f}x" if which == "after" else ""
            same = ("yes" if digest == rows[n, "before"][3] else "NO") if which == "after" else ""
            print(f"{n:>8} {which:<7} {rss:>8.0f} {wall:>7.1f} {cpu:>7.1f} {growth:>15.2f}x {ratio:>18} {same:>12}")


if __name__ == "__main__":
    main()
