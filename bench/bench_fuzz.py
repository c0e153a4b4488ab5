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

    python bench/bench_fuzz.py --campaign 100000 [--minutes 40] [--save DIR]

The campaign (issue 34) goes past the reader: every input is read and validated (the library's
replay of every game, ``replay_record``); one in ``--sample`` (200) also goes through the validator's
slip search (``validate``: the bounded repair search behind every error's mark) and the analysis
(``analyze`` with ``--max-nodes``), and one in 20 of those through the command line (``CliRunner``:
validate, replay, analyze, report, stats in turn). The inputs are of five kinds: random texts,
mutated records (as above), records mutated as the issue's example was (a Result tag whose quote runs
into a comment, rows naming players with no tiles, ``>2`` arms, wrong Result and Score tags, a
miscopied tile), generated games (every variant, decorated as tests/test_robustness.py does) and the
pathological texts. It prints, by kind and command: inputs, tracebacks, internal errors (the
``internal-error`` and ``notation`` diagnostics, an exception, an exit status that is not 1 when an
error was printed), the worst CPU seconds for one input and which input it was, and the peak memory
(the process's maximum resident set). ``--save DIR`` writes every failing and the slowest inputs there.
``--minutes`` stops early (the table says how many inputs were done).
"""
from __future__ import annotations

import argparse
import resource
import traceback
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


# ---- the campaign: every stage, every command ------------------------------------------------------------

def issue_texts(rng: random.Random, n: int, files: list[str]) -> list[str]:
    from test_robustness import issue_mutation
    return [issue_mutation(rng, rng.choice(files)) for _ in range(n)]


def generated_texts(rng: random.Random, n: int) -> list[str]:
    from analyzer.notation import write
    from analyzer.record import Record
    from test_robustness import VARIANTS, decorated_game
    return [write(Record([decorated_game(rng.choice(VARIANTS), rng.randrange(10 ** 6))
                          for _ in range(rng.randint(1, 3))])) for _ in range(n)]


class Row:
    """One line of the campaign's table: a kind of input through one command."""

    def __init__(self) -> None:
        self.inputs = self.tracebacks = self.internal = 0
        self.worst, self.which = 0.0, ""


def _failed_output(text: str, status: int) -> bool:
    return "Traceback" in text or "internal" in text or ("error[" in text and status != 1)


def campaign(args) -> None:
    import tempfile
    from click.testing import CliRunner

    from analyzer.archive.runner import Options, process
    from analyzer.cli import main as cli
    from analyzer.match import replay_record

    rng = random.Random(args.seed)
    files = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "records").iterdir())
             if p.suffix in (".dom", ".txt")]
    share = {"random": 0.2, "mutated records": 0.35, "issue mutations": 0.3, "generated": 0.15}
    made = {"random": lambda k: random_texts(rng, k), "mutated records": lambda k: mutated_texts(rng, k),
            "issue mutations": lambda k: issue_texts(rng, k, files), "generated": lambda k: generated_texts(rng, k)}
    plan = [(kind, int(args.campaign * f)) for kind, f in share.items()]
    plan.append(("pathological", len(PATHOLOGICAL) + len(MORE)))
    rows: dict[tuple[str, str], Row] = {}
    save = Path(args.save) if args.save else None
    if save:
        save.mkdir(parents=True, exist_ok=True)
    deadline = time.time() + args.minutes * 60 if args.minutes else None
    commands = (["validate"], ["replay"], ["analyze", "--max-nodes", "20000"], ["report", "-o", "{out}"],
                ["stats", "--max-nodes", "20000"])
    tmp = Path(tempfile.mkdtemp(prefix="bench_fuzz_"))
    validate, analyze = Options("validate"), Options("analyze", max_nodes=20_000)
    done, stopped = 0, False

    def note(kind: str, command: str, name: str, text: str, work) -> None:
        row = rows.setdefault((kind, command), Row())
        row.inputs += 1
        start = time.process_time()
        try:
            bad = work()
        except Exception:
            row.tracebacks += 1
            bad = traceback.format_exc(limit=3)
        took = time.process_time() - start
        if bad:
            row.internal += 1
        if took > row.worst:
            row.worst, row.which = took, name
        if save and (bad or took > 5):
            (save / f"{name}-{command}.txt").write_text(text, encoding="utf-8")
            if bad:
                (save / f"{name}-{command}.why").write_text(str(bad), encoding="utf-8")

    def library(text: str):
        record = parse(text)
        codes = [d.code for d in record.errors]
        if "internal" in codes or "notation" in codes or len(codes) > MAX_DIAGNOSTICS + 1:
            return f"reader: {record.errors[:3]}"
        for rep in replay_record(record):
            if any(d.code in ("internal-error", "notation") for d in rep.diagnostics):
                return "replay: internal diagnostic"
        return None

    def through(options):
        def work(text: str):
            result = process("fuzz", text.encode("utf-8"), options)
            errors = [result["error"]] if result["error"] else []
            errors += [d for g in result["games"] for d in g["diagnostics"]]
            return next((d["text"] for d in errors if d and d["code"] in ("internal-error", "notation")), None)
        return work

    for kind, count in plan:
        if stopped:
            break
        texts = [t for _, t in {**PATHOLOGICAL, **MORE}.items()] if kind == "pathological" else []
        left = count
        while (left > 0 or texts) and not stopped:
            if kind != "pathological":
                texts = made[kind](min(left, 500))
                left -= len(texts)
            for text in texts:
                done += 1
                name = f"{kind.replace(' ', '-')}-{done}"
                note(kind, "read+validate", name, text, lambda: library(text))
                if done % args.sample == 0 or kind == "pathological":
                    note(kind, "validate (slip search)", name, text, lambda: through(validate)(text))
                    note(kind, "analyze", name, text, lambda: through(analyze)(text))
                if done % (args.sample * 20) == 0 or kind == "pathological" and len(text) < 100_000:
                    command = commands[(done // (args.sample * 20)) % len(commands)]
                    path = tmp / "input.dom"
                    path.write_text(text, encoding="utf-8")

                    def run_cli(command=command, path=path):
                        args_ = [a.format(out=tmp / "page.html") for a in command] + [str(path)]
                        r = CliRunner().invoke(cli, args_)
                        if r.exception is not None and not isinstance(r.exception, SystemExit):
                            return repr(r.exception)
                        return "bad output or status" if _failed_output(r.output, r.exit_code) else None
                    note(kind, f"CLI {command[0]}", name, text, run_cli)
                if deadline and time.time() > deadline:
                    stopped = True
                    break
            texts = []
            if kind == "pathological":
                break
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Python {platform.python_version()}, {platform.machine()}; {done:,} inputs"
          + (f" (stopped after {args.minutes} minutes of the {args.campaign:,} planned)" if stopped else "")
          + f"; seed {args.seed}; peak memory (max RSS) {peak:.0f} MB")
    print(f"{'kind':<18}{'command':<24}{'inputs':>9}{'tracebacks':>11}{'internal':>9}{'worst s':>9}  worst input")
    for (kind, command), row in rows.items():
        print(f"{kind:<18}{command:<24}{row.inputs:>9,}{row.tracebacks:>11}{row.internal:>9}{row.worst:>9.2f}  {row.which}")
    total = sum(r.tracebacks + r.internal for r in rows.values())
    if total:
        raise SystemExit(f"{total} failures")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--texts", type=int, default=2000, help="random and mutated texts, each")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--campaign", type=int, default=0, metavar="N", help="the campaign over N inputs (see above)")
    ap.add_argument("--sample", type=int, default=200, help="campaign: one input in this many through every stage")
    ap.add_argument("--minutes", type=float, default=0, help="campaign: stop after this long")
    ap.add_argument("--save", metavar="DIR", help="campaign: write failing and slow inputs here")
    args = ap.parse_args()
    if args.campaign:
        campaign(args)
        return
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
