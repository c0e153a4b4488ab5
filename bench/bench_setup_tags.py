"""The set-up tags read in linear time (issue 72, item 5): a set-up record whose Lacks or Points tag holds N
characters that cannot be read (letters with no number: the reader's worst case before, every start tried
again), read and validated (the replay, the triage's slip search) at growing N; the CPU seconds of each, and
the exponent k of time ~ N^k fitted over the sizes (1: linear; the regular expressions' readers gave 2).

    python3 bench/bench_setup_tags.py [--sizes 2000,4000,8000,16000] [--before DIR]

``--before DIR``: the same records through another source tree (a process of its own), side by side."""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time

HEAD = '[Variant "partnership"]\n[Players "A, B, C, D"]\n[SetUp "1"]\n[Line "[3-5] [5-5] [5-6]"]\n[ToMove "D"]\n'
HANDS = ("\nA: [0-5] [1-3] [1-4] [2-2] [3-4] [4-4]\nB: ? ? ? ? ? ?\nC: [0-2] [2-4] [2-5] [3-3] [3-6] [4-5]\n"
         "D: [0-3] [0-4] [1-2] [1-5] [2-6] [4-6] [6-6]\n\n1. D [6-6] A [3-4]\n")


def record(tag: str, n: int) -> str:
    value = "B" * n if tag == "Lacks" else "A/C " + " " * n + "x"
    return HEAD + f'[{tag} "{value}"]\n' + HANDS


def timed(tag: str, sizes: list[int]) -> list[float]:
    """CPU seconds of validate (read, replay, triage) of each size's record, in this process."""
    from analyzer.pipeline import Options, process

    out = []
    for n in sizes:
        text = record(tag, n).encode()
        start = time.process_time()
        result = process(f"{tag}-{n}", text, Options("validate"))
        out.append(time.process_time() - start)
        assert result["error"] is None and any(d["code"] == "bad-setup" for d in result["games"][0]["diagnostics"])
    return out


def exponent(sizes: list[int], seconds: list[float]) -> float:
    """The least-squares slope of log(seconds) on log(size)."""
    xs, ys = [math.log(n) for n in sizes], [math.log(max(s, 1e-6)) for s in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="2000,4000,8000,16000")
    parser.add_argument("--before", metavar="DIR")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)     # (the --before child's answer)
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    got = {tag: timed(tag, sizes) for tag in ("Lacks", "Points")}
    if args.json:
        print(json.dumps(got))
        return
    before = None
    if args.before:
        env = {**os.environ, "PYTHONPATH": args.before}
        done = subprocess.run([sys.executable, __file__, "--sizes", args.sizes, "--json"], env=env,
                              capture_output=True, text=True, check=True)
        before = json.loads(done.stdout)
    for tag, seconds in got.items():
        print(f"{tag}: " + ", ".join(f"N={n:,} {s:.3f} s" for n, s in zip(sizes, seconds))
              + f"; exponent {exponent(sizes, seconds):.2f}")
        if before:
            print("  before: " + ", ".join(f"N={n:,} {s:.3f} s" for n, s in zip(sizes, before[tag]))
                  + f"; exponent {exponent(sizes, before[tag]):.2f}")


if __name__ == "__main__":
    main()
