"""Fuzz the reader: random, mutated and pathological texts; the worst time and memory per KB.

    python bench/bench_fuzz.py                  # 2,000 random and 2,000 mutated texts, the pathological set
    python bench/bench_fuzz.py --texts 200 --seed 3

Random texts are drawn from the notation's own pieces (brackets, braces, tiles, keywords, names,
digits, punctuation, line breaks), up to 4 KB each. Mutated texts are the files of records/, each cut
and spliced with such pieces a few times (as tests/test_notation.py does). The pathological texts are
those of tests/test_reader_limits.py (2,000 "[", 400 tiles without players, 20 KB of '"', 5 MB in
one comment, a 1 MB line, thousands of bad tiles and of moves) and a few more that once made the
reader or its lexer quadratic (stray words before a bracket on one long table row, unclosed braces
and strings on many lines). For each kind it prints how many texts, the largest, and the worst CPU
time and peak memory (``tracemalloc``, in a second run) per KB of input; every text must be read
without an internal error and with at most ``MAX_DIAGNOSTICS`` + 1 diagnostics, else the run fails.
The issue's bound: each pathological input in under a second.
"""
from __future__ import annotations

import argparse
import platform
import random
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from analyzer.notation import parse  # noqa: E402
from analyzer.notation.recovery import MAX_DIAGNOSTICS  # noqa: E402
from test_reader_limits import PATHOLOGICAL  # noqa: E402

PIECES = (list("[]{}()-@:;!?*.,\"\\ \t\n\xa0|0123456789ABCDpasstRunde>+")
          + ["[3-6]", "[6-6]", "pass", "passt", "draws", "muggins 10", "----", "Spieler ", "Runde ",
             '[Event "', '"]', "A:", "B: ?", "1.", "\n", "{", "}", "; remark\n", "Das Spiel ist aus."])

MORE = {
    "stray words before a bracket": "Runde A B\n1 [1-1] " + "ab " * 8000 + "[",
    "stray words and braces": "Runde A B\n1 [1-1] " + "ab } " * 8000 + "[",
    "unclosed brace, bracketed lines": "A: ?\n1. A [1-1] {\n" + "x [\n" * 8000,
    "unclosed strings": '[Event "' * 8000,
    "hands": "A: [1-1]\n" * 8000,
}


def random_texts(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 600))) for _ in range(n)]


def mutated_texts(rng: random.Random, n: int) -> list[str]:
    files = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "records").iterdir()) if p.is_file()]
    out = []
    for _ in range(n):
        text = rng.choice(files)
        for _ in range(rng.randint(1, 6)):
            at, cut = rng.randint(0, len(text)), rng.randint(0, 8)
            text = text[:at] + "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 3))) + text[at + cut:]
        out.append(text)
    return out


def read_checked(text: str) -> None:
    record = parse(text)
    codes = [d.code for d in record.errors]
    if "internal" in codes or "notation" in codes or len(codes) > MAX_DIAGNOSTICS + 1:
        raise SystemExit(f"the reader failed on a text of {len(text)} characters: {record.errors[:3]}")


def measure(texts: list[str]) -> tuple[float, float, float]:
    """The worst CPU seconds per KB, peak bytes per KB, and seconds for any one text."""
    worst_time = worst_memory = worst_seconds = 0.0
    for text in texts:
        kb = max(len(text.encode("utf-8")) / 1024, 1.0)     # a tiny text counts as one KB
        start = time.process_time()
        read_checked(text)
        took = time.process_time() - start
        tracemalloc.start()
        parse(text)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        worst_time, worst_memory = max(worst_time, took / kb), max(worst_memory, peak / kb)
        worst_seconds = max(worst_seconds, took)
    return worst_time, worst_memory, worst_seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--texts", type=int, default=2000, help="random and mutated texts, each")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    parse("")                       # build the parser outside the timing
    kinds = [("random", random_texts(rng, args.texts)), ("mutated records", mutated_texts(rng, args.texts))]
    kinds += [(name, [text]) for name, text in {**PATHOLOGICAL, **MORE}.items()]
    print(f"Python {platform.python_version()}, {platform.machine()}; CPU time, worst text of each kind")
    print(f"{'input':<34}{'texts':>6}{'largest KB':>12}{'ms/KB':>9}{'KB mem/KB':>11}{'worst s':>9}")
    for name, texts in kinds:
        per_kb, memory, seconds = measure(texts)
        largest = max(len(t.encode("utf-8")) for t in texts) / 1024
        print(f"{name:<34}{len(texts):>6}{largest:>12.1f}{per_kb * 1000:>9.2f}{memory / 1024:>11.1f}"
              f"{seconds:>9.3f}")


if __name__ == "__main__":
    main()
