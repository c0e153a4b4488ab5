"""The robustness campaign on the project's own fuzzer: the importers, the record and link readers, the board's
routes and set-ups played on in any order (tests/fuzz_inputs.py's generators, as tests/test_fuzz_robustness.py runs them at a bounded
size), and the command line as its own processes.

    python bench/fuzz_campaign.py                     # 200 inputs a kind, 20 command-line runs
    python bench/fuzz_campaign.py --size 20000 --cli 1000 [--minutes 30] [--seed 1]
    python bench/fuzz_campaign.py --size 0 --cli 500 --seed 2     # the command line only (--cli 0: in-process only)
    python bench/fuzz_campaign.py --size 2000 --cli 0 --seed 5 --kinds record --save DIR   # one kind's inputs only

For each kind it prints how many inputs, how they ended (the importers: imported / refused with the format's
error; the board: answered 200 / answered 4xx in words), the internal errors (an exception that is not the
format's error, a diagnostic ``internal-error`` or ``notation``, a 500, "please report it", an error logged), and
the slowest input: its processor seconds (this process's and the command line's children's: the work, not the wait
for a processor on a loaded machine), its wall-clock seconds and size, and the most processor seconds a KB any input
of the kind took. The command-line runs are ``python3 -m analyzer import FORMAT -`` and ``validate -`` on
generated inputs (standard input), checked for a traceback, "internal error", "please report" and an exit status other than 0 or 1.
The run fails (exit 1) when any internal error is found; ``--save DIR`` writes each failing input there, and each
kind's slowest input past 5 s of processor time as soon as it is found. ``--kinds`` runs some kinds only (drawn from the
same seed, a kind run alone is given other inputs than in the whole campaign: hypothesis's draws are not kept apart).
"""
from __future__ import annotations

import argparse
import json
import logging
import resource
import subprocess
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

import fuzz_inputs  # noqa: E402


class Tally:
    save: Path | None = None       # --save: a kind's slowest input past 5 s is written there as soon as it is found

    def __init__(self, kind: str):
        # the slowest input by processor time (this process's and its children's: the command line's runs), with
        # its wall-clock time; the most processor seconds a KB any input took (an input under a KB counts as one)
        self.kind, self.ends, self.failures, self.slowest = kind, Counter(), [], (0.0, None, 0.0)
        self.per_kb = 0.0

    def timed(self, value, work):
        start, cpu = time.perf_counter(), _cpu()
        try:
            self.ends[work()] += 1
        except Exception as exc:  # noqa: BLE001 (each failure is the campaign's finding)
            self.ends["internal"] += 1
            self.failures.append((value, f"{type(exc).__name__}: {str(exc)[:300]}"))
        took, wall = _cpu() - cpu, time.perf_counter() - start
        if took > self.slowest[0]:
            self.slowest = (took, value, wall)
            if self.save and took > 5:
                self.save_slowest()
        self.per_kb = max(self.per_kb, took / max(1.0, _size(value) / 1024))

    def save_slowest(self) -> None:
        self.save.mkdir(parents=True, exist_ok=True)
        (self.save / f"{self.kind.replace(' ', '-')}-slowest.json").write_text(json.dumps(
            {"cpu_seconds": self.slowest[0], "wall_seconds": self.slowest[2], "input": self.slowest[1]},
            ensure_ascii=False, default=str), encoding="utf-8")


def _cpu() -> float:
    """Processor seconds used so far by this process and its children waited for (the command line's runs): a
    campaign on a shared machine, run niced, measures work, not the wait for a processor (a wall-clock slowest
    of 162 s was an input of 2 s of work starved by the machine's load)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _size(value) -> int:
    """An input's size in bytes (UTF-8): a text, or the texts inside a tuple or list (a format and its text, a body)."""
    if isinstance(value, str):
        return len(value.encode("utf-8", "surrogatepass"))
    if isinstance(value, (tuple, list)):
        return sum(_size(part) for part in value)
    return len(json.dumps(value, default=str).encode("utf-8", "surrogatepass"))


def _importer(fmt: str):
    def work(text):
        from analyzer.notation.imports import ImportSourceError, import_log

        try:
            import_log(fmt, text, "fuzz")
        except ImportSourceError:
            fuzz_inputs.check_import(fmt, text)
            return "refused"
        fuzz_inputs.check_import(fmt, text)
        return "imported"
    return work


def _run(strategy, size: int, seed_value: int, deadline: float, tally: Tally, work) -> None:
    if size <= 0:
        return
    @seed(seed_value)
    @settings(max_examples=size, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(strategy)
    def each(value):
        if time.monotonic() > deadline:
            return
        tally.timed(value, lambda: work(value))
    each()


KINDS = ("kozel-video", "yard", "csv", "record", "link", "board", "sequences")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200, help="inputs a kind (default 200)")
    parser.add_argument("--cli", type=int, default=20, help="command-line runs (default 20)")
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=87)
    parser.add_argument("--save", type=Path,
                        help="write each failing input, and each kind's slowest input past 5 s of CPU, here")
    parser.add_argument("--kinds", type=lambda text: set(text.split(",")), default=set(KINDS),
                        help="the kinds to run, comma-separated, of: " + ", ".join(KINDS) + " (default all); "
                        "a kind run alone draws other inputs than in the whole run")
    args = parser.parse_args()
    if args.kinds - set(KINDS):
        parser.error(f"no kind {', '.join(sorted(args.kinds - set(KINDS)))}; the kinds: {', '.join(KINDS)}")
    size = {kind: (args.size if kind in args.kinds else 0) for kind in KINDS}
    deadline = time.monotonic() + 60 * args.minutes
    Tally.save = args.save
    tallies = []
    for fmt, strategy in (("kozel-video", fuzz_inputs.kozel_texts()), ("yard", fuzz_inputs.yard_texts()),
                          ("csv", fuzz_inputs.csv_texts())):
        tally = Tally(f"import {fmt}")
        _run(strategy, size[fmt], args.seed, deadline, tally, _importer(fmt))
        tallies.append(tally)
    records = Tally("read record (.dom)")
    _run(fuzz_inputs.record_texts(), size["record"], args.seed, deadline, records,
         lambda text: (fuzz_inputs.check_record(text), "read")[1])
    tallies.append(records)
    links = Tally("read link")
    _run(fuzz_inputs.link_texts(), size["link"], args.seed, deadline, links, fuzz_inputs.check_link)
    tallies.append(links)

    from conftest import BOARD_AUTH, BOARD_TOKEN  # noqa: F401 (the token the test client carries)
    from starlette.testclient import TestClient

    from analyzer.server import create_app

    logged = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = logged.append
    logging.getLogger("analyzer.server").addHandler(handler)
    folder = Path(__import__("tempfile").mkdtemp(prefix="fuzz-board-"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client_cm = TestClient(create_app([str(folder)], token=BOARD_TOKEN), raise_server_exceptions=False,
                               headers=BOARD_AUTH)
    with client_cm as client:
        def post(route, body):
            before = len(logged)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                response = client.post(f"/api/{route}", content=json.dumps(body),
                                       headers={"content-type": "application/json"})
            data = response.json()
            error = data.get("error") if isinstance(data, dict) else None
            if response.status_code >= 500 or (isinstance(error, str) and "please report" in error) \
                    or len(logged) > before:
                raise AssertionError(f"/api/{route}: {response.status_code} {str(error)[:200]}")
            return data

        board = Tally("board routes")
        def answered(call):
            data = post(*call)
            return "answered 4xx" if isinstance(data, dict) and "error" in data else "answered 200"
        _run(fuzz_inputs.board_bodies(), size["board"], args.seed, deadline, board, answered)
        tallies.append(board)
        sequences = Tally("set-ups in any order")
        _run(fuzz_inputs.route_sequences(), size["sequences"] // 4, args.seed, deadline, sequences,
             lambda seq: (fuzz_inputs.run_sequence(seq, post), "played")[1])
        tallies.append(sequences)

    cli = Tally("command line (import, validate)")
    if args.cli:
        texts = []

        @seed(args.seed)
        @settings(max_examples=args.cli, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(fuzz_inputs.kozel_texts() | fuzz_inputs.yard_texts().map(lambda t: ("yard", t))
               | fuzz_inputs.csv_texts().map(lambda t: ("csv", t))
               | fuzz_inputs.record_texts().map(lambda t: ("record", t)))
        def gather(value):
            texts.append(value if isinstance(value, tuple) else ("kozel-video", value))
        gather()
        for fmt, text in texts[:args.cli]:
            if time.monotonic() > deadline:
                break

            def once(fmt=fmt, text=text):
                command = ["validate", "-"] if fmt == "record" else ["import", fmt, "-"]
                done = subprocess.run([sys.executable, "-m", "analyzer", *command], input=text,
                                      capture_output=True, text=True, cwd=ROOT, timeout=120)
                said = done.stdout + done.stderr
                if done.returncode not in (0, 1) or "Traceback" in said or "internal error" in said \
                        or "please report" in said:
                    raise AssertionError(f"exit {done.returncode}: {said[-300:]}")
                return f"exit {done.returncode}"
            cli.timed((fmt, text), once)
    tallies.append(cli)

    tallies = [tally for tally in tallies if tally.ends]
    print(f"{'kind':32} {'inputs':>7} {'internal':>8} {'slowest':>8} {'its wall':>8} {'its KB':>7} {'most':>6}  "
          "how they ended\n"
          f"{'':32} {'':>7} {'':>8} {'CPU s':>8} {'s':>8} {'':>7} {'s/KB':>6}")
    failed = 0
    for tally in tallies:
        total = sum(tally.ends.values())
        failed += tally.ends["internal"]
        ends = ", ".join(f"{name} {n}" for name, n in sorted(tally.ends.items()) if name != "internal")
        print(f"{tally.kind:32} {total:7d} {tally.ends['internal']:8d} {tally.slowest[0]:8.2f} {tally.slowest[2]:8.2f} "
              f"{_size(tally.slowest[1]) / 1024:7.1f} {tally.per_kb:6.2f}  {ends}")
        for value, why in tally.failures[:3]:
            print(f"    {why}\n      input: {str(value)[:200]!r}")
        if tally.slowest[0] > 5:           # (every run bounded: a slow input is a finding too)
            print(f"    slowest input ({tally.slowest[0]:.1f} s of CPU): {str(tally.slowest[1])[:200]!r}")
    inside = sum(sum(t.ends.values()) for t in tallies if t is not cli)
    print(f"in-process inputs {inside}, command-line runs {sum(cli.ends.values())}, internal errors {failed}")
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
        for tally in tallies:
            if tally.slowest[0] > 5:
                tally.save_slowest()
            for k, (value, why) in enumerate(tally.failures):
                (args.save / f"{tally.kind.replace(' ', '-')}-{k}.json").write_text(
                    json.dumps({"why": why, "input": value}, ensure_ascii=False, default=str), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
