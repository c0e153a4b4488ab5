"""Validation against replay: what the likely-slip search costs on records of growing length and corruption.

    python bench/bench_triage.py                        # this tree
    python bench/bench_triage.py --before /work/main    # and another source tree, in the same run
    python bench/bench_triage.py --rows 1000,4000,16000 --timeout 300

Each record is read and replayed (``validate`` without the triage: what ``replay`` does) and then
validated (the replay and the bounded search for each broken game's likely slip), both through the
pipeline's ``process`` as the command line runs it, in a fresh process per tree (CPU seconds of that
process, the parser already built). The records:

* **lone**: the tags of a bundled record and a lone ``A`` (a game with no deal and no move, whose
  stated result no line reaches: the search runs to its bound); and 40 such games in one file (the
  games of a file share one budget);
* **rows N**: ``records/seed2.dom`` followed by N rows of illegal moves (the search's candidates look
  along the whole record: it once grew as the square of N);
* **mutated K**: bundled records with K slips of the kinds the fuzzer makes (tests/test_robustness.py);
* **match G**: a generated match of G games with one tile miscopied in each.

It prints each record's replay and validation seconds and their ratio, for this tree and the
``--before`` tree, then the median and the worst ratio, and the worst excess of validation over
three times the replay (the issue's bound: validation at most a small multiple of the replay plus a
fixed bound). A record past ``--timeout`` seconds is shown as ``>T``.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from analyzer.archive.runner import Options, process
from analyzer.notation import parse
parse("")                                   # build the parser outside the timing
path = sys.argv[2]
data = open(path, "rb").read()
out = {}
for name, options in (("replay", Options("validate", triage=False)), ("validate", Options("validate"))):
    start = time.process_time()
    result = process(path, data, options)
    out[name] = time.process_time() - start
    out["internal"] = out.get("internal", False) or any(
        d["code"] in ("internal-error", "notation") for g in result["games"] for d in g["diagnostics"]) or bool(
        result["error"] and result["error"]["code"] == "internal-error")
print(json.dumps(out))
"""


def _tags_of(text: str) -> list[str]:
    tags = []
    for line in text.splitlines():
        if line.startswith("["):
            tags.append(line)
        elif tags and not line.startswith("{"):
            break
    return tags


def records(folder: Path, rows: list[int], seed: int) -> list[tuple[str, Path]]:
    """The records of the bench, written to ``folder``: (kind, path)."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from test_robustness import issue_mutation           # noqa: E402 (the fuzzer's own slips)

    from analyzer.generate import random_game            # noqa: E402
    from analyzer.notation import write                  # noqa: E402
    from analyzer.record import Record                   # noqa: E402
    out = []

    def keep(kind: str, text: str) -> None:
        path = folder / f"{len(out):03d}.dom"
        path.write_text(text, encoding="utf-8")
        out.append((kind, path))

    bundled = ROOT / "records"
    for name in ("seed2.dom", "match-whist.dom", "match-chiva-draw.dom", "variant-draw.dom", "variant-cross-9.dom"):
        keep(f"lone ({name})", "\n".join(_tags_of((bundled / name).read_text(encoding="utf-8"))) + "\nA\n")
    whist = "\n".join(_tags_of((bundled / "match-whist.dom").read_text(encoding="utf-8"))) + "\nA\n"
    keep("lone x 40 (one file)", "\n".join([whist] * 40))
    seed2 = (bundled / "seed2.dom").read_text(encoding="utf-8").rstrip("\n") + "\n"
    for n in rows:
        keep(f"rows {n}", seed2 + "".join(f"{9 + k}. A [0-0] B [1-1] C [2-2] D [3-3]\n" for k in range(n)))
    rng = random.Random(seed)
    files = [p.read_text(encoding="utf-8") for p in sorted(bundled.glob("*.dom"))]
    for k in (1, 3, 6):
        for _ in range(3):
            text = rng.choice(files)
            for _ in range(k):
                text = issue_mutation(rng, text)
            keep(f"mutated {k}", text)
    for games in (5, 20):
        made = []
        for g in range(games):
            game = random_game("partnership", seed=seed * 100 + g)
            moves = [m for m in game.moves if m.tile is not None]
            if moves:                                   # one tile miscopied: the first play's, one half off
                m = rng.choice(moves)
                text = write(Record([game]))
                wrong = f"[{m.tile.low}-{(m.tile.high + 1) % 7}]" if m.tile.high < 6 else f"[{m.tile.low}-0]"
                text = text.replace(f"{m.player} {m.tile}", f"{m.player} {wrong}", 1)
                made.append(text)
        keep(f"match {games}", "\n".join(made))
    return out


def run(tree: Path, path: Path, timeout: float) -> dict | None:
    try:
        r = subprocess.run([sys.executable, "-c", WORKER, str(tree), str(path)], capture_output=True, text=True,
                           timeout=timeout, cwd=tree)
    except subprocess.TimeoutExpired:
        return None
    if r.returncode != 0:
        return {"failed": (r.stderr or r.stdout)[-300:]}
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", metavar="DIR", help="another source tree to measure in the same run")
    ap.add_argument("--rows", default="10,100,1000,4000", help="the numbers of illegal rows (comma-separated)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds for one record in one tree")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    trees = [("after", ROOT)] + ([("before", Path(args.before).resolve())] if args.before else [])
    folder = Path(tempfile.mkdtemp(prefix="bench_triage_"))
    made = records(folder, [int(n) for n in args.rows.split(",") if n], args.seed)
    print(f"Python {sys.version.split()[0]}; CPU seconds of one process per record and tree (the parser built); "
          f"ratio = validate / replay")
    head = f"{'record':<30}{'KB':>8}"
    for name, _ in trees:
        head += f"  {name + ' replay':>13}{'validate':>10}{'ratio':>8}"
    print(head)
    ratios: dict[str, list[float]] = {name: [] for name, _ in trees}
    excess: dict[str, float] = {name: 0.0 for name, _ in trees}
    for kind, path in made:
        line = f"{kind:<30}{path.stat().st_size / 1024:>8.1f}"
        for name, tree in trees:
            got = run(tree, path, args.timeout)
            if got is None:
                line += f"  {'':>13}{'>' + format(args.timeout, '.0f'):>10}{'':>8}"
                excess[name] = float("inf")
                ratios[name].append(float("inf"))
                continue
            if "failed" in got:
                line += f"  failed: {got['failed'][-60:]!r}"
                continue
            ratio = got["validate"] / max(got["replay"], 1e-3)
            ratios[name].append(ratio)
            excess[name] = max(excess[name], got["validate"] - 3 * got["replay"])
            line += f"  {got['replay']:>13.2f}{got['validate']:>10.2f}{ratio:>8.1f}" + (" INTERNAL" if got["internal"] else "")
        print(line, flush=True)
    for name, _ in trees:
        r = ratios[name]
        if r:
            print(f"{name}: ratio median {statistics.median(r):.1f}, worst {max(r):.1f}; worst validate - 3 x replay "
                  f"{excess[name]:.2f} s")


if __name__ == "__main__":
    main()
