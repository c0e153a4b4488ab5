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

Issue 55 adds to the campaign: a sixth kind of input, **numbers** (bundled records with a number made
4,301 digits long, past Python's int-str limit, or 10 to 30 digits: a Game tag, a move or row number,
a claim, a muggins call, a Result, Score or Rules tag); the round trip of every record read
(``parse(write(parse(x))) == parse(x)``, the ``round trip`` column); and ``--cli M``: M runs of the
command line as its own processes (``python3 -m analyzer ...``, ``--cli-jobs`` at a time, beside the
library's work), the commands varied (validate, validate --json, validate --repair, replay, analyze
--max-nodes, report -o, stats, diagram), each checked for a traceback, an internal error and an exit
status that disagrees with the output (1 exactly when an error is printed or a JSON entry is invalid).

    python bench/bench_fuzz.py --campaign 100000 --sample 50 --cli 5000 --cli-jobs 2 --minutes 60
"""
from __future__ import annotations

import argparse
import resource
import traceback
import platform
import random
import statistics
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


_NUMBER_SITES = (r'(\[Game ")(\d+)', r"(\n)(\d+)(\.\s)", r"(\n)(\d+)( \[)", r"( \+)(\d+)", r"(muggins )(\d+)",
                 r'(\[Result "[^"\d]*)(\d+)', r'(\[Score "[^"\d]*)(\d+)', r'(\[Rules "[^"\d]*)(\d+)')


def number_texts(rng: random.Random, n: int, files: list[str]) -> list[str]:
    """Bundled records with a number of a record made too long (4,301 digits, or 10 to 30): issue 55."""
    import re
    out = []
    for _ in range(n):
        text = rng.choice(files)
        for _ in range(rng.randint(1, 3)):
            site = re.compile(_NUMBER_SITES[rng.randrange(len(_NUMBER_SITES))])
            found = list(site.finditer(text))
            if found:
                m = rng.choice(found)
                digits = "9" * rng.choice((4301, rng.randint(10, 30)))
                text = text[:m.start(2)] + digits + text[m.end(2):]
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
        self.inputs = self.tracebacks = self.internal = self.status = self.round_trip = 0
        self.worst, self.which = 0.0, ""


def _failed_output(text: str, status: int) -> bool:
    return "Traceback" in text or "internal" in text or ("error[" in text and status != 1)


# the commands of the CLI runs (as processes), in turn; {out}: a fresh output path
CLI_COMMANDS = (["validate"], ["validate", "--json"], ["replay"], ["analyze", "--max-nodes", "2000"],
                ["validate", "--repair"], ["report", "-o", "{out}.html"], ["stats", "--max-nodes", "2000"],
                ["replay", "--json"], ["analyze", "--max-nodes", "2000", "--json"], ["diagram", "--move", "3", "-o", "{out}.svg"])


def cli_verdict(command: list[str], status: int, out: str, err: str) -> tuple[str, str] | None:
    """(column, why) of a CLI run that failed: a traceback or an internal error (``internal``), or an
    exit status that disagrees with what was printed (``status``); None when the run is sound."""
    both = out + err
    if "Traceback" in both or "internal error" in both or "internal-error" in both or status < 0:
        return "internal", both[-400:]
    if status not in (0, 1, 2):
        return "status", f"exit status {status}"
    if status == 2:             # a usage error: said so on stderr (a diagram of a record with no game, say)
        return None if err.strip() else ("status", "exit status 2 with nothing said")
    if "--json" in command:
        import json
        try:
            data = json.loads(out) if out.strip().startswith(("[", "{")) else [json.loads(line) for line in out.splitlines() if line.strip()]
        except ValueError:
            return "status", "output that is not JSON"
        invalid = _holds_error(data)
        return ("status", f"exit {status} but {'an invalid' if invalid else 'no invalid'} entry") if invalid != (status == 1) else None
    if command[0] in ("validate", "replay", "analyze"):
        shown = "error[" in out or "Error:" in err
        return ("status", f"exit {status} but {'an error' if shown else 'no error'} printed") if shown != (status == 1) else None
    return None


def _holds_error(data) -> bool:
    """Whether JSON output holds an error: an invalid game or a diagnostic of severity error."""
    if isinstance(data, dict):
        if data.get("valid") is False or data.get("severity") == "error":
            return True
        return any(_holds_error(v) for v in data.values())
    return isinstance(data, list) and any(_holds_error(v) for v in data)


def cli_run(path: Path, command: list[str], out: Path, timeout: float) -> tuple[tuple[str, str] | None, float]:
    """One CLI run as its own process: its verdict (:func:`cli_verdict`; a run still going after ``timeout``
    seconds of wall time is killed and counted ``internal``) and the CPU seconds it and the workers it waited
    for took (``os.wait4``: on a loaded machine, the figure that says what the input costs)."""
    import os
    import signal
    import subprocess
    args = [sys.executable, "-m", "analyzer"] + [a.format(out=out) for a in command] + [str(path)]
    with open(f"{out}.stdout", "w+", encoding="utf-8") as so, open(f"{out}.stderr", "w+", encoding="utf-8") as se:
        child = subprocess.Popen(args, stdout=so, stderr=se, stdin=subprocess.DEVNULL, cwd=ROOT,
                                 start_new_session=True)
        deadline, status = time.time() + timeout, None
        while status is None:                   # (reaped here, with its rusage: not by Popen)
            pid, code, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                status = os.waitstatus_to_exitcode(code)
            elif time.time() > deadline:
                os.killpg(child.pid, signal.SIGKILL)
                _, _, usage = os.wait4(child.pid, 0)
                return ("internal", f"no answer in {timeout:.0f} s"), usage.ru_utime + usage.ru_stime
            else:
                time.sleep(0.05)
        child.returncode = status
        so.seek(0)
        se.seek(0)
        return cli_verdict(command, status, so.read(), se.read()), usage.ru_utime + usage.ru_stime


def campaign(args) -> None:
    import tempfile
    from click.testing import CliRunner

    from analyzer.archive.runner import Options, process
    from analyzer.cli import main as cli
    from analyzer.match import replay_record
    from analyzer.notation import write

    rng = random.Random(args.seed)
    files = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "records").iterdir())
             if p.suffix in (".dom", ".txt")]
    share = {"random": 0.2, "mutated records": 0.3, "issue mutations": 0.25, "numbers": 0.1, "generated": 0.15}
    made = {"random": lambda k: random_texts(rng, k), "mutated records": lambda k: mutated_texts(rng, k),
            "issue mutations": lambda k: issue_texts(rng, k, files), "generated": lambda k: generated_texts(rng, k),
            "numbers": lambda k: number_texts(rng, k, files)}
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
    from concurrent.futures import ThreadPoolExecutor
    pool = ThreadPoolExecutor(args.cli_jobs) if args.cli else None      # CLI runs as processes, beside the rest
    every = max(1, args.campaign // args.cli) if args.cli else 0
    runs: list = []

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
        if isinstance(bad, str) and bad.startswith("round trip"):
            row.round_trip += 1
        elif bad:
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
        if parse(write(record)) != record:         # the writer's round trip (the games, not the errors)
            return "round trip: parse(write(parse(x))) != parse(x)"
        return None

    def through(options):
        def work(text: str):
            result = process("fuzz", text.encode("utf-8"), options)
            errors = [result["error"]] if result["error"] else []
            errors += [d for g in result["games"] for d in g["diagnostics"]]
            return next((d["text"] for d in errors if d and d["code"] in ("internal-error", "notation")), None)
        return work

    def batches():
        """The inputs in batches of 50, the kinds in turn (the pathological ones first), so that a run
        stopped by --minutes has met every kind."""
        yield "pathological", [t for _, t in {**PATHOLOGICAL, **MORE}.items()]
        left = {kind: count for kind, count in plan if kind != "pathological"}
        while any(left.values()):
            for kind in left:
                if left[kind] > 0:
                    k = min(left[kind], 50)
                    left[kind] -= k
                    yield kind, made[kind](k)

    for kind, texts in batches():
        if stopped:
            break
        for text in texts:
            done += 1
            name = f"{kind.replace(' ', '-')}-{done}"
            note(kind, "read+validate", name, text, lambda: library(text))
            if done % args.sample == 0 or kind == "pathological":
                note(kind, "validate (slip search)", name, text, lambda: through(validate)(text))
                note(kind, "analyze", name, text, lambda: through(analyze)(text))
            if pool is not None and (done % every == 0 or kind == "pathological" and len(text) < 100_000):
                command = CLI_COMMANDS[len(runs) % len(CLI_COMMANDS)]
                path = tmp / f"{name}.dom"
                path.write_text(text, encoding="utf-8")
                runs.append((kind, command, name, path, pool.submit(cli_run, path, command, tmp / name, args.cli_timeout)))
            elif pool is None and (done % (args.sample * 20) == 0 or kind == "pathological" and len(text) < 100_000):
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
    if pool is not None:                # the CLI runs: wait for each (past --minutes, the ones not begun are dropped)
        from concurrent.futures import wait
        wait([run[-1] for run in runs], timeout=max(0.0, deadline - time.time()) if deadline else None)
        pool.shutdown(wait=True, cancel_futures=True)
        for kind, command, name, path, future in runs:
            if future.cancelled():
                continue
            row = rows.setdefault((kind, "CLI process " + command[0] + (" --json" if "--json" in command else "")
                                   + (" --repair" if "--repair" in command else "")), Row())
            row.inputs += 1
            failed, cpu = future.result()
            if cpu > row.worst:
                row.worst, row.which = cpu, name
            if save and cpu > args.cli_slow:
                (save / f"{name}-cli-slow.txt").write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
                (save / f"{name}-cli-slow.why").write_text(f"{' '.join(command)}\n{cpu:.1f} s of CPU", encoding="utf-8")
            if failed is not None:
                setattr(row, failed[0], getattr(row, failed[0]) + 1)
                if save:
                    (save / f"{name}-cli.txt").write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
                    (save / f"{name}-cli.why").write_text(f"{' '.join(command)}\n{failed[1]}", encoding="utf-8")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Python {platform.python_version()}, {platform.machine()}; {done:,} inputs"
          + (f" (stopped after {args.minutes} minutes of the {args.campaign:,} planned)" if stopped else "")
          + f"; seed {args.seed}; peak memory (max RSS) {peak:.0f} MB")
    print(f"{'kind':<18}{'command':<32}{'inputs':>9}{'tracebacks':>11}{'internal':>9}{'status':>7}{'round trip':>11}"
          f"{'worst s':>9}  worst input")
    for (kind, command), row in sorted(rows.items()):
        print(f"{kind:<18}{command:<32}{row.inputs:>9,}{row.tracebacks:>11}{row.internal:>9}{row.status:>7}{row.round_trip:>11}"
              f"{row.worst:>9.2f}  {row.which}")
    if runs:
        cpus = [f.result()[1] for *_, f in runs if not f.cancelled()]
        print(f"CLI runs: {len(cpus):,}; over {args.cli_slow:.0f} s of CPU: {sum(c > args.cli_slow for c in cpus)}; "
              f"CPU a run: median {statistics.median(cpus) if cpus else 0:.2f} s, worst {max(cpus, default=0):.1f} s")
    every_kind = sum(r.inputs for (_, c), r in rows.items() if c == "read+validate")
    print(f"records read, replayed and round-tripped: {every_kind:,}; through the slip search and the analysis: "
          f"{sum(r.inputs for (_, c), r in rows.items() if c == 'analyze'):,}; CLI processes: "
          f"{sum(r.inputs for (_, c), r in rows.items() if c.startswith('CLI process')):,}")
    total = sum(r.tracebacks + r.internal + r.status + r.round_trip for r in rows.values())
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
    ap.add_argument("--cli", type=int, default=0, metavar="M", help="campaign: M runs of the command line as processes")
    ap.add_argument("--cli-jobs", type=int, default=1, help="campaign: CLI processes at a time")
    ap.add_argument("--cli-timeout", type=float, default=300, metavar="S",
                    help="campaign: a CLI run still going after S seconds of wall time is killed and counted internal")
    ap.add_argument("--cli-slow", type=float, default=60, metavar="S",
                    help="campaign: a CLI run that took more than S seconds of CPU is saved (--save) as slow")
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
