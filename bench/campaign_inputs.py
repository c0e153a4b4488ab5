"""Issue 72's campaign: inputs of its own kinds through the library and the command line, in chunks.

    python bench/campaign_inputs.py plan                                  # the inputs and runs planned
    nice -n 19 python bench/campaign_inputs.py inputs --start 0 --count 20000 --state DIR
    nice -n 19 python bench/campaign_inputs.py cli --start 0 --count 500 --state DIR
    python bench/campaign_inputs.py table --state DIR > bench/timings/campaign-72.txt
    nice -n 19 python bench/campaign_inputs.py growth          # validation against replay on grown records: the exponent
    nice -n 19 python bench/campaign_inputs.py board --count 1000   # the board's API on every typed prefix, set-up inputs

It builds on bench/bench_fuzz.py (its random, mutated, issue-mutated, numbers and generated records) and adds
the kinds the earlier campaigns did not have:

* **typed prefixes**: every prefix, character by character, of every record shown in the docs (the fenced
  blocks of docs/ and README.md that hold a tile or a tag, and docs/problems/*.dom): what the board reads on
  every keystroke of a user typing the example;
* **set-up tags**: set-up records (``[SetUp "1"]``) built from the tags docs/notation.md lists, each tag
  present or not, its value right, mangled or grown (a Lacks or Points tag of up to 4,000 items), hands and
  players present or not;
* **tag orders**: a docs example or bundled record with the lines of its tags in a random order (the docs'
  set-up example in every rotation first);
* **grown**: a bundled record grown (thousands of illegal rows, its games repeated, a Lacks tag of N items),
  for validation against replay on large inputs;
* **option extremes** (command line only): every numeric option of every command at its bounds, one past
  them, 0, -1, 2^63, a float, a word and nothing.

Input ``i`` is made from ``random.Random(f"{seed}:{i}")``, so any chunk can be run (or run again) alone.
Each input in-process: read (no ``internal`` or ``notation`` diagnostic), the pipeline's validation without
and with the slip search (``analyzer.archive.runner.process``, as the command runs it: no ``internal-error``),
the writer's round trip. Validation against replay: the CPU of ``validate`` against that of ``replay``, each
as the command runs it (the process's start-up, measured once per chunk, added to both: a command's CPU);
over 3x is counted, and the in-process ratio (start-up left out) is given too. Command-line runs are
processes (``python3 -m analyzer``), checked for a traceback, an internal error, a status that disagrees
with the output, and timed (CPU of the process and its workers); a run killed at ``--timeout`` is counted
apart (an extreme option that asks for hours of work). The table gives by kind: inputs, runs, tracebacks,
internal errors, over-3x validations and the slowest runs.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

INTERNAL = ("internal-error", "internal", "notation")


# ---- the inputs ----------------------------------------------------------------------------------------------

def docs_examples() -> list[tuple[str, str]]:
    """(where, text) of every record the docs show: fenced blocks with a tile or a tag, and docs/problems."""
    out = []
    for path in sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]:
        for k, (lang, block) in enumerate(re.findall(r"```(\w*)\n(.*?)```", path.read_text(encoding="utf-8"), re.S)):
            if lang in ("", "text") and (re.search(r"\[\d-\d\]", block) or re.search(r'^\[\w+ "', block, re.M)):
                out.append((f"{path.relative_to(ROOT)}#{k}", block))
    out += [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in sorted((ROOT / "docs" / "problems").glob("*.dom"))]
    return out


def bundled() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted((ROOT / "records").iterdir()) if p.suffix in (".dom", ".txt")]


SETUP_DOC = next(text for _, text in docs_examples() if '[SetUp "1"]' in text)
_TAG = re.compile(r'^\[\w+ "[^\n]*\]$')


def split_tags(text: str) -> tuple[list[str], str]:
    lines = text.split("\n")
    k = 0
    while k < len(lines) and _TAG.match(lines[k]):
        k += 1
    return lines[:k], "\n".join(lines[k:])


TILES = [f"[{a}-{b}]" for a in range(7) for b in range(a, 7)]
NAMES = ["A", "B", "C", "D", "Ann", "Bo", "Ziggy", "", "A B", "?"]


def _value(rng: random.Random, right: str, grown) -> str:
    """A tag's value: right, mangled, empty, grown, or a stray piece."""
    pick = rng.random()
    if pick < 0.45:
        return right
    if pick < 0.6:
        return ""
    if pick < 0.75 and right:
        at = rng.randrange(len(right) + 1)
        return right[:at] + rng.choice(["", ",", " ", "?", "9", "[", "]", "-", "/", "x", "\\", ";"]) + right[at + rng.randint(0, 3):]
    if pick < 0.9:
        return grown(rng)
    return rng.choice(["1", "0", "-1", "99999999999999999999", "A", "[6-6]", "*", "; ;", "A/C", "7 7", "5:99"])


def _lacks(rng, n=None):
    n = n if n is not None else rng.choice((1, 3, 50, 2000))
    return ", ".join(f"{rng.choice(NAMES)} {' '.join(str(rng.randrange(8)) for _ in range(rng.randint(0, 3)))}"
                     for _ in range(n))


def _points(rng, n=None):
    n = n if n is not None else rng.choice((1, 2, 50, 2000))
    return ", ".join(f"{rng.choice(['A/C', 'B/D', 'A', 'X/Y', ''])} {rng.randrange(200)}" for _ in range(n))


def _line(rng):
    return " ".join(rng.choice(TILES) for _ in range(rng.choice((0, 1, 3, 8, 28, 60))))


SETUP_TAGS = {  # tag -> (a right value, a grown one)
    "Event": ("x", lambda r: "e" * 5000),
    "Variant": ("partnership", lambda r: r.choice(["all-fives", "draw", "block", "french", "cuban", "whist", "nope"])),
    "Players": ("A, B, C, D", lambda r: ", ".join(r.choice(NAMES) for _ in range(r.choice((1, 3, 5, 50))))),
    "SetUp": ("1", lambda r: r.choice(["0", "2", "yes"])),
    "Line": ("[3-5] [5-5] [5-6]", _line),
    "Ends": ("3 6", lambda r: " ".join(str(r.randrange(9)) for _ in range(r.choice((1, 3, 40))))),
    "Arms": ("[0-0]; [0-6] [6-6]; [0-5]", lambda r: "; ".join(_line(r) for _ in range(r.choice((1, 4, 9))))),
    "Counts": ("5:4 6:3", lambda r: " ".join(f"{r.randrange(9)}:{r.randrange(30)}" for _ in range(r.choice((1, 7, 500))))),
    "OnTable": ("3", lambda r: str(r.choice((0, 28, 29, 10 ** 30)))),
    "Boneyard": ("[0-1] [1-1]", _line),
    "ToMove": ("D", lambda r: r.choice(NAMES)),
    "Lacks": ("B 4", _lacks),
    "Points": ("A/C 10, B/D 5", _points),
    "MatchScore": ("A/C 40, B/D 25", _points),
    "Lead": ("A", lambda r: r.choice(NAMES)),
    "Result": ("*", lambda r: r.choice(["A/C 10", "B/D 7 domino", "draw", "1-0", "A/C 10 blocked"])),
    "Score": ("A/C 0, B/D 0", _points),
}
HANDS = ["A: [0-5] [1-3] [1-4] [2-2] [3-4] [4-4]", "B: ? ? ? ? ? ?",
         "C: [0-2] [2-4] [2-5] [3-3] [3-6] [4-5]", "D: [0-3] [0-4] [1-2] [1-5] [2-6] [4-6] [6-6]"]


def setup_text(rng: random.Random) -> str:
    tags = [t for t in SETUP_TAGS if rng.random() < (0.9 if t in ("SetUp", "Line", "Players", "Variant") else 0.35)]
    rng.shuffle(tags)
    lines = [f'[{t} "{_value(rng, SETUP_TAGS[t][0], SETUP_TAGS[t][1])}"]' for t in tags]
    if rng.random() < 0.1:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(lines) if lines else '[SetUp "1"]')     # a tag twice
    hands = [h for h in HANDS if rng.random() < 0.75]
    if rng.random() < 0.2:
        hands = [h.replace(rng.choice(TILES), rng.choice(TILES)) for h in hands]
    moves = rng.choice(["", "1. D [6-6] A [3-4]", "1. D [6-6]", "1. A pass B [1-1]", "1. D [6-6] A [3-4] B pass C [2-2]"])
    return "\n".join(lines) + "\n\n" + "\n".join(hands) + ("\n\n" + moves if moves else "") + "\n"


def tag_order_text(rng: random.Random, i: int, sources: list[str]) -> str:
    tags, body = split_tags(SETUP_DOC)
    if i < len(tags):                       # the docs' set-up in every rotation of its tags first
        return "\n".join(tags[i:] + tags[:i]) + "\n" + body
    text = rng.choice(sources)
    tags, body = split_tags(text)
    rng.shuffle(tags)
    return "\n".join(tags) + ("\n" if tags else "") + body


def grown_text(rng: random.Random, sources: list[str]) -> tuple[str, str]:
    size = rng.choice((10, 100, 300, 1000, 2000))
    how = rng.choice(("rows", "games", "lacks", "points", "mutated games"))
    seed2 = (ROOT / "records" / "seed2.dom").read_text(encoding="utf-8").rstrip("\n") + "\n"
    if how == "rows":
        return f"rows {size}", seed2 + "".join(f"{9 + k}. A [0-0] B [1-1] C [2-2] D [3-3]\n" for k in range(size))
    if how in ("games", "mutated games"):
        from test_robustness import issue_mutation
        text = rng.choice(sources)
        games = [issue_mutation(rng, text) if how == "mutated games" else text for _ in range(max(1, size // 20))]
        return f"{how} x{len(games)}", "\n".join(games)
    tags, body = split_tags(SETUP_DOC)
    tag = "Lacks" if how == "lacks" else "Points"
    tags = [t for t in tags if not t.startswith(f"[{tag} ")] + [f'[{tag} "{(_lacks if how == "lacks" else _points)(rng, size)}"]']
    return f"{how} {size}", "\n".join(tags) + "\n" + body


class Inputs:
    """The campaign's in-process inputs, input ``i`` by ``make(i)``: (kind, text)."""

    SHARES = (("set-up tags", 0.2), ("tag orders", 0.12), ("grown", 0.0015), ("mutated records", 0.2),
              ("issue mutations", 0.15), ("numbers", 0.05), ("generated", 0.06), ("random", 0.05))

    def __init__(self, total: int, seed: int):
        self.seed = seed
        self.examples = docs_examples()
        self.prefixes = [(k, n) for k, (_, text) in enumerate(self.examples) for n in range(len(text) + 1)]
        self.sources = [text for _, text in self.examples] + bundled()
        self.files = bundled()
        rest = max(0, total - len(self.prefixes))
        weights = sum(f for _, f in self.SHARES)
        self.plan = [("typed prefixes", len(self.prefixes))]
        self.plan += [(kind, int(rest * f / weights)) for kind, f in self.SHARES]
        self.plan[-1] = (self.plan[-1][0], self.plan[-1][1] + total - sum(n for _, n in self.plan))

    def kind_of(self, i: int) -> tuple[str, int]:
        for kind, n in self.plan:
            if i < n:
                return kind, i
            i -= n
        raise IndexError(i)

    def make(self, i: int) -> tuple[str, str, str]:
        """(kind, detail, text) of input ``i``."""
        import bench_fuzz as bf
        kind, j = self.kind_of(i)
        rng = random.Random(f"{self.seed}:{i}")
        if kind == "typed prefixes":
            k, n = self.prefixes[j]
            return kind, f"{self.examples[k][0]}[:{n}]", self.examples[k][1][:n]
        if kind == "set-up tags":
            return kind, "", setup_text(rng)
        if kind == "tag orders":
            return kind, "", tag_order_text(rng, j, self.sources)
        if kind == "grown":
            detail, text = grown_text(rng, self.files)
            return kind, detail, text
        if kind == "mutated records":
            return kind, "", bf.mutated_texts(rng, 1)[0]
        if kind == "issue mutations":
            return kind, "", bf.issue_texts(rng, 1, self.files)[0]
        if kind == "numbers":
            return kind, "", bf.number_texts(rng, 1, self.files)[0]
        if kind == "generated":
            return kind, "", bf.generated_texts(rng, 1)[0]
        return kind, "", bf.random_texts(rng, 1)[0]


# ---- the command-line runs ---------------------------------------------------------------------------------

RECORD_COMMANDS = (["validate"], ["replay"], ["validate", "--json"], ["analyze", "--max-nodes", "2000"],
                   ["validate", "--repair"], ["report", "-o", "{out}.html"], ["stats", "--max-nodes", "2000"],
                   ["replay", "--json"], ["analyze", "--max-nodes", "2000", "--json"],
                   ["diagram", "--move", "3", "-o", "{out}.svg"], ["analyze", "--fair", "--worlds", "4", "--max-nodes", "2000"])


def option_extremes() -> list[list[str]]:
    """Every numeric option of every command at its extremes (click's own types and ranges): a command line each,
    without the record (added by the run)."""
    import click
    from analyzer.cli import main
    out = []
    for name, command in sorted(main.commands.items()):
        if name in ("serve", "board"):      # (a server on a port another engineer's tests may want: left out)
            continue
        for p in command.params:
            if not isinstance(p, click.Option) or p.is_flag or not p.opts[-1].startswith("--"):
                continue
            t = p.type
            numeric = isinstance(t, (click.types.IntParamType, click.types.FloatParamType))
            if not numeric:
                continue
            lo, hi = getattr(t, "min", None), getattr(t, "max", None)
            values = {"0", "-1", str(2 ** 63), str(2 ** 64 + 1), "1e400", "nan", "abc", "", "-" + "9" * 30, "0.5"}
            for bound in (lo, hi):
                if bound is not None:
                    values |= {str(bound), str(bound + 1), str(bound - 1)}
            out += [[name, p.opts[-1], v] for v in sorted(values)]
    return out


def cli_plan(total: int) -> list[tuple[str, list[str]]]:
    """(kind, command) of each CLI run: the option extremes first (each once, on a small record), then the
    record commands over the campaign's inputs; a ``validate`` run is followed by ``replay`` of the same input
    (the command-line ratio)."""
    runs = [("option extremes", c) for c in option_extremes()]
    runs += [("outputs", [HOSTILE[k % len(HOSTILE)], WRITERS[(k // len(HOSTILE)) % len(WRITERS)][0]])
             for k in range(OUTPUT_RUNS)]
    k = 0
    while len(runs) < total:
        command = RECORD_COMMANDS[k % len(RECORD_COMMANDS)]
        runs.append(("records", command))
        if command == ["validate"]:
            runs.append(("records", ["replay"]))
        k += 1
    return runs[:total]


HOSTILE = ("kill -9", "full disk", "ulimit -f", "read-only folder")
OUTPUT_RUNS = 600
# every writer: (name, command with {rec} the record, {dir} a folder of records, {out} the output; what it writes)
WRITERS = (("report", ["report", "{rec}", "-o", "{out}.html"], "html"),
           ("report of a folder", ["report", "{dir}", "-o", "{out}"], "pages"),
           ("diagram", ["diagram", "{rec}", "--move", "3", "-o", "{out}.svg"], "svg"),
           ("validate --write-repaired", ["validate", "--write-repaired", "{out}.dom", "{rec}"], "dom"),
           ("analyze --graph", ["analyze", "--max-nodes", "2000", "--graph", "{out}.graphml", "{rec}"], "graphml"),
           ("train -o .json", ["train", "--player", "A", "--worlds", "4", "--max-nodes", "2000", "-o", "{out}.json", "{rec}"], "json"),
           ("train -o", ["train", "--player", "A", "--worlds", "4", "--max-nodes", "2000", "-o", "{out}.apkg", "{rec}"], "zip"),
           ("equity -o", ["equity", "-o", "{out}.json"], "json"),
           ("new -o", ["new", "-o", "{out}.dom"], "dom"),
           ("analyze --cache", ["analyze", "--max-nodes", "2000", "--cache", "{out}", "{rec}"], "cache"),
           ("report --cache", ["report", "{dir}", "-o", "{out}.site", "--cache", "{out}"], "cache"))


def cpu_run(args: list[str], timeout: float, stdin=None, fsize: int | None = None) -> tuple[int | None, str, str, float]:
    """Run ``args`` as a process (its own session); (status or None when killed at ``timeout`` s of wall time,
    stdout, stderr, CPU seconds of it and its workers). ``fsize``: the largest file it may write (``ulimit -f``;
    its output then read through pipes, which the limit does not touch)."""
    import signal
    import subprocess
    import threading
    with tempfile.TemporaryFile("w+") as so, tempfile.TemporaryFile("w+") as se:
        piped = fsize is not None
        child = subprocess.Popen(args, stdout=subprocess.PIPE if piped else so, stderr=subprocess.PIPE if piped else se,
                                 stdin=stdin or subprocess.DEVNULL, cwd=ROOT,
                                 start_new_session=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                                 preexec_fn=None if fsize is None else (lambda: _limit_files(fsize)))
        readers = []
        if piped:
            for stream, sink in ((child.stdout, so), (child.stderr, se)):
                def read(stream=stream, sink=sink):
                    sink.write(stream.read().decode("utf-8", "replace"))
                readers.append(threading.Thread(target=read, daemon=True))
                readers[-1].start()
        deadline, status = time.time() + timeout, None
        while status is None:
            pid, code, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                status = os.waitstatus_to_exitcode(code)
                break
            if time.time() > deadline:
                os.killpg(child.pid, signal.SIGKILL)
                _, _, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.02)
        child.returncode = status if status is not None else -9
        for t in readers:
            t.join(5)
        so.seek(0)
        se.seek(0)
        return status, so.read(), se.read(), usage.ru_utime + usage.ru_stime


def _limit_files(size: int) -> None:
    import resource
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def _whole(path: Path, what: str) -> bool:
    """Whether ``path`` holds a whole output of its kind (a page ends its html, a JSON file reads, ...)."""
    import zipfile
    if what == "zip":
        return zipfile.is_zipfile(path)
    data = path.read_bytes()
    if what == "json":
        try:
            json.loads(data)
            return True
        except ValueError:
            return False
    ends = {"html": b"</html>", "svg": b"</svg>", "graphml": b"</graphml>", "dom": b"\n"}[what]
    return data.rstrip(b"\n" if what != "dom" else b"").endswith(ends)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".filler"}


def hostile_run(r: int, spec: list[str], inputs: "Inputs", args, tmp: Path) -> dict:
    """A writer under a hostile condition (``HOSTILE``): killed with SIGKILL at a random moment, its disk full (a
    small tmpfs filled to a few bytes), its file size limited (``ulimit -f``) or its folder read-only (a read-only
    bind mount). Before it, the same command wrote its own output there (most runs): that file must stay whole, as
    it was or as the new run wrote it whole; nothing else may be left but a hidden ``.part`` of a killed run; a run
    that could not write says which file, with no traceback and no internal error, and exit status 1 (0 only when
    its output is there whole); after a kill, the same command again (the cache it left) must be sound."""
    import shutil
    import subprocess
    condition, writer = spec
    name, command, what = next(w for w in WRITERS if w[0] == writer)
    rng = random.Random(f"outputs:{args.seed}:{r}")
    work = tmp / f"h{r}"
    work.mkdir()
    records = work / "records"
    records.mkdir()
    seed1, seed2 = ROOT / "records" / "seed1.dom", ROOT / "records" / "seed2.dom"
    if rng.random() < 0.5:
        rec, detail = seed1, "seed1"
    else:
        i = rng.randrange(args.inputs)
        ikind, idetail, text = inputs.make(i)
        rec, detail = records / f"input-{i}.dom", f"{ikind} #{i} {idetail}".strip()
        rec.write_text(text, encoding="utf-8")
    folder = work / "records-dir"
    folder.mkdir()
    for k, src in enumerate((seed1, rec, seed2)):
        shutil.copy(src, folder / f"r{k}.dom")
    old_dir = work / "old-dir"
    old_dir.mkdir()
    shutil.copy(seed2, old_dir / "r0.dom")
    out_folder = work / "out"
    out_folder.mkdir()
    mounted = []
    row = {"r": r, "kind": "outputs", "command": f"{condition}: {name}", "detail": detail, "status": None, "cpu": 0.0,
           "killed": False}
    problems = []

    def argv(record: Path, folder_: Path) -> list[str]:
        return [sys.executable, "-m", "analyzer"] + [a.format(rec=record, dir=folder_, out=out_folder / "out") for a in command]
    try:
        if condition == "full disk":
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(out_folder)], check=True)
            mounted.append(out_folder)
        had_old = rng.random() < 0.6
        if had_old:
            status, so, se, cpu = cpu_run(argv(seed2, old_dir), 60)
            row["cpu"] += cpu
        before = _snapshot(out_folder)
        if condition == "full disk":
            free = os.statvfs(out_folder)
            leave = rng.choice((0, 512, 4096, 20000))
            with open(out_folder / ".filler", "wb") as fh:
                try:
                    fh.write(b"\0" * max(0, free.f_bavail * free.f_frsize - leave))
                except OSError:
                    pass
        if condition == "read-only folder":
            subprocess.run(["mount", "--bind", "-o", "ro", str(out_folder), str(out_folder)], check=True)
            mounted.append(out_folder)
        timeout, fsize = 60.0, None
        if condition == "kill -9":
            timeout = rng.choice((0.3, 0.6, 1.0, 1.5, 2.5))
        if condition == "ulimit -f":
            fsize = rng.choice((0, 1024, 8192, 65536))
        status, so, se, cpu = cpu_run(argv(rec, folder), timeout, fsize=fsize)
        row["cpu"] += cpu
        row["status"] = status
        killed = status is None
        row["killed"] = killed
        if killed and condition != "kill -9":
            problems.append(f"no answer in {timeout:.0f} s")
        both = so + se
        if "Traceback" in both or "internal error" in both or "internal-error" in both:
            problems.append("internal: " + both[-300:])
        elif not killed and status not in (0, 1, 2):
            problems.append(f"exit status {status}")
        after = _snapshot(out_folder)
        outputs = {k for k in set(before) | set(after) if not k.rsplit("/", 1)[-1].startswith(".")}
        parts = [k for k in after if k.rsplit("/", 1)[-1].startswith(".")]
        if parts and not killed:
            problems.append(f"left behind: {parts[:3]}")
        if killed and len(parts) > 1:
            problems.append(f"a kill left several: {parts[:3]}")
        if what != "cache":
            for k in sorted(outputs):
                path = out_folder / k
                if k not in after:
                    problems.append(f"{k}: the old output lost")
                elif before.get(k) != after[k] and not _whole(path, "html" if what == "pages" else what):
                    problems.append(f"{k}: not whole")
            changed = any(before.get(k) != after.get(k) for k in outputs)
            if not killed and status == 0 and condition in ("full disk", "read-only folder") and not changed and before:
                problems.append("exit 0 but nothing written")
            if not killed and status != 0 and condition in ("full disk", "read-only folder", "ulimit -f") and not changed \
                    and "cannot be written" not in both and "error[" not in both and "Error:" not in both:
                problems.append(f"exit {status} and no file named: {both[-200:]}")
        if condition == "kill -9" and not problems:
            status2, so2, se2, cpu2 = cpu_run(argv(rec, folder), 60)      # the same again: what the kill left is sound
            row["cpu"] += cpu2
            both2 = so2 + se2
            if status2 is None or "Traceback" in both2 or "internal" in both2 or status2 not in (0, 1, 2):
                problems.append(f"after a kill, again: {status2} {both2[-300:]}")
    except Exception:
        problems.append("campaign: " + traceback.format_exc(limit=4)[-600:])
    finally:
        for m in reversed(mounted):
            subprocess.run(["umount", "-l", str(m)], check=False)
        shutil.rmtree(work, ignore_errors=True)
    row["cpu"] = round(row["cpu"], 3)
    if problems:
        row["internal"] = " | ".join(problems)[:1500]
    return row


def cli_verdict(command: list[str], status: int | None, out: str, err: str) -> str | None:
    """Why a run failed (a traceback, an internal error, a status that disagrees), or None."""
    import bench_fuzz as bf
    if status is None:
        return None
    both = out + err
    if "Traceback" in both:
        return "traceback: " + both[-300:]
    got = bf.cli_verdict(command, status, out, err)
    return None if got is None else f"{got[0]}: {got[1][-300:]}"


# ---- the work ----------------------------------------------------------------------------------------------

def startup_cpu() -> float:
    """The CPU of ``domino replay`` of an empty record: what every command costs before its work (the least of 3)."""
    empty = Path(tempfile.mkdtemp(prefix="campaign72_")) / "empty.dom"
    empty.write_text("", encoding="utf-8")
    return min(cpu_run([sys.executable, "-m", "analyzer", "replay", str(empty)], 60)[3] for _ in range(3))


def _rows(path: Path) -> list[dict]:
    """The rows of a state file; a last line cut short by a kill is left out."""
    rows = []
    for line in path.open(encoding="utf-8"):
        try:
            rows.append(json.loads(line))
        except ValueError:
            pass
    return rows


def _done(path: Path, key: str) -> set[int]:
    return {r[key] for r in _rows(path)} if path.exists() else set()


def run_inputs(args) -> None:
    from analyzer.archive.runner import Options, process
    from analyzer.notation import parse, write
    parse("")
    start_up = startup_cpu()
    inputs = Inputs(args.inputs, args.seed)
    replay_options, validate_options = Options("validate", triage=False), Options("validate")
    state = Path(args.state)
    state.mkdir(parents=True, exist_ok=True)
    name = state / (f"inputs-{args.start:07d}.jsonl" if args.stride == 1 else f"inputs-s{args.stride}-{args.start:07d}.jsonl")
    done = _done(name, "i")                  # (a chunk run again goes on where it stopped: a partial run counts)
    out = open(name, "a", encoding="utf-8")
    deadline = time.time() + args.minutes * 60 if args.minutes else None
    for i in range(args.start, min(args.start + args.count * args.stride, args.inputs), args.stride):
        if i in done:
            continue
        kind, detail, text = inputs.make(i)
        row = {"i": i, "kind": kind, "detail": detail, "kb": round(len(text.encode("utf-8")) / 1024, 2),
               "startup": start_up}
        problems = []
        try:
            record = parse(text)
            if any(d.code in INTERNAL for d in record.errors):
                problems.append(f"reader: {[str(d) for d in record.errors if d.code in INTERNAL][:2]}")
            data = text.encode("utf-8")
            t0 = time.process_time()
            replayed = process("campaign.dom", data, replay_options)
            t1 = time.process_time()
            row["replay"] = round(t1 - t0, 4)
            validated = None
            if kind in ("typed prefixes", "grown") or i % args.sample == 0:     # (the slip search: a sample)
                validated = process("campaign.dom", data, validate_options)
                row["validate"] = round(time.process_time() - t1, 4)
            for result in (replayed, validated or replayed):
                errors = ([result["error"]] if result["error"] else []) + [d for g in result["games"] for d in g["diagnostics"]]
                problems += [d["text"][:300] for d in errors if d and d["code"] in INTERNAL]
            row["stopped"] = validated is not None and any(
                d["code"] == "slip-search-stopped" for g in validated["games"] for d in g["diagnostics"])
            if parse(write(record)) != record:
                problems.append("round trip: parse(write(parse(x))) != parse(x)")
        except Exception:
            row["traceback"] = traceback.format_exc(limit=6)[-1500:]
        if problems:
            row["internal"] = problems[:3]
        if problems or "traceback" in row or row.get("validate", 0) > 2 * (row["replay"] + start_up):
            (state / "found").mkdir(exist_ok=True)
            (state / "found" / f"input-{i}.dom").write_text(text, encoding="utf-8")
        out.write(json.dumps(row) + "\n")
        out.flush()
        if deadline and time.time() > deadline:
            break
    out.close()


def run_cli(args) -> None:
    inputs = Inputs(args.inputs, args.seed)
    plan = cli_plan(args.cli)
    state = Path(args.state)
    state.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="campaign72_cli_"))
    small = ROOT / "records" / "seed1.dom"
    name = state / f"cli-{args.start:07d}.jsonl"
    done = _done(name, "r")                  # (a chunk run again goes on where it stopped)
    out = open(name, "a", encoding="utf-8")
    deadline = time.time() + args.minutes * 60 if args.minutes else None
    for r in range(args.start, min(args.start + args.count, len(plan))):
        kind, command = plan[r]
        if r in done:
            continue
        if kind == "outputs":
            row = hostile_run(r, command, inputs, args, tmp)
            if row.get("internal"):
                (state / "found").mkdir(exist_ok=True)
                (state / "found" / f"cli-{r}.txt").write_text(json.dumps(row), encoding="utf-8")
            out.write(json.dumps(row) + "\n")
            out.flush()
            continue
        if kind == "option extremes":
            path, detail = small, " ".join(command)
        else:
            # the inputs spread over every kind (a prime stride); ``replay`` after ``validate`` takes its input
            pick = r - 1 if command == ["replay"] and plan[r - 1][1] == ["validate"] else r
            i = (pick * 7919 + 13) % args.inputs
            ikind, detail, text = inputs.make(i)
            path = tmp / f"input-{i}.dom"
            path.write_text(text, encoding="utf-8")
            detail = f"{ikind} #{i} {detail}".strip()
        argv = [a.format(out=tmp / f"out-{r}") for a in command]
        if command[0] in ("equity", "serve", "board", "train", "new", "tournament"):
            argv += ["-o", str(tmp / f"out-{r}.x")] if command[0] in ("equity", "train") else []
        if False:
            pass
        else:
            status, so, se, cpu = cpu_run([sys.executable, "-m", "analyzer"] + argv + ([str(path)] if command[0] not in ("equity", "new") else []),
                                          args.timeout if kind == "records" else min(args.timeout, 20))
            why = cli_verdict(command, status, so, se)
        row = {"r": r, "kind": kind, "command": " ".join(command), "detail": detail, "status": status,
               "cpu": round(cpu, 3), "killed": status is None}
        if why:
            row["internal"] = why
            (state / "found").mkdir(exist_ok=True)
            (state / "found" / f"cli-{r}.txt").write_text(f"{' '.join(argv)}\n{path}\n{why}\n", encoding="utf-8")
        out.write(json.dumps(row) + "\n")
        out.flush()
        for p in tmp.iterdir():
            if p.name.startswith("out-"):
                p.unlink() if p.is_file() else None
        if deadline and time.time() > deadline:
            break
    out.close()


def rerun(args) -> None:
    """Run the command-line runs ``--runs`` again (a run the harness misjudged, mended since): their rows go to
    cli-rerun.jsonl, which the table reads last (a run's last row counts)."""
    inputs = Inputs(args.inputs, args.seed)
    plan = cli_plan(args.cli)
    tmp = Path(tempfile.mkdtemp(prefix="campaign72_cli_"))
    with open(Path(args.state) / "cli-rerun.jsonl", "a", encoding="utf-8") as out:
        for r in (int(x) for x in args.runs.split(",")):
            kind, command = plan[r]
            assert kind == "outputs", "only the writers' runs are run again"
            out.write(json.dumps(hostile_run(r, command, inputs, args, tmp)) + "\n")
            out.flush()


def table(args) -> None:
    state = Path(args.state)
    rows = [r for p in sorted(state.glob("inputs-*.jsonl")) for r in _rows(p)]
    runs = [r for p in sorted(state.glob("cli-*.jsonl")) for r in _rows(p)]
    seen = {}
    for row in rows:
        seen[row["i"]] = row                # (a chunk run again: its last row)
    rows = list(seen.values())
    runs = list({r["r"]: r for r in runs}.values())
    start_up = statistics.median([r["startup"] for r in rows]) if rows else 0.0
    print(f"issue 72 campaign: {len(rows):,} inputs in-process, {len(runs):,} command-line runs "
          f"(processes); a command's start-up CPU {start_up:.2f} s (median of the chunks)")
    print(f"{'kind':<18}{'inputs':>8}{'tracebacks':>11}{'internal':>9}{'over 3x':>8}{'stopped':>8}"
          f"{'ratio med':>10}{'p90':>7}{'worst':>7}{'in-proc p90':>12}  slowest validate (s, input)")
    kinds = sorted({r["kind"] for r in rows})
    for kind in kinds + ["all"]:
        got = [r for r in rows if kind in ("all", r["kind"])]
        timed = [r for r in got if "validate" in r]
        ratios = sorted((r["validate"] + r["startup"]) / (r["replay"] + r["startup"]) for r in timed)
        inproc = sorted(r["validate"] / max(r["replay"], 1e-3) for r in timed)
        over = sum((r["validate"] + r["startup"]) > 3 * (r["replay"] + r["startup"]) for r in timed)
        worst = max(timed, key=lambda r: r["validate"], default=None)
        q = (lambda xs, f: xs[min(len(xs) - 1, int(f * len(xs)))] if xs else 0.0)
        print(f"{kind:<18}{len(got):>8,}{sum('traceback' in r for r in got):>11}{sum('internal' in r for r in got):>9}"
              f"{over:>8}{sum(bool(r.get('stopped')) for r in got):>8}{q(ratios, 0.5):>10.2f}{q(ratios, 0.9):>7.2f}"
              f"{(ratios[-1] if ratios else 0):>7.2f}{q(inproc, 0.9):>12.1f}  "
              + (f"{worst['validate']:.2f} #{worst['i']} {worst['detail']}" if worst else ""))
    grown = [r for r in rows if r["kind"] == "grown" and "validate" in r and r["kb"] > 0]
    if len(grown) > 3:
        import math
        xs = [math.log(r["kb"]) for r in grown]
        for name in ("validate", "replay"):
            ys = [math.log(max(r[name], 1e-4)) for r in grown]
            mx, my = statistics.mean(xs), statistics.mean(ys)
            slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
            print(f"grown inputs ({len(grown)}, {min(r['kb'] for r in grown):.1f} to {max(r['kb'] for r in grown):.0f} KB): "
                  f"{name} CPU ~ size^{slope:.2f} (least squares on logs, in-process)")
    print()
    print(f"{'command-line runs':<40}{'runs':>6}{'tracebacks':>11}{'internal':>9}{'killed':>7}{'median s':>9}{'worst s':>8}  worst run")
    groups = {}
    for r in runs:
        what = r["command"] if r["kind"] == "records" else r["command"].split(":")[0] if r["kind"] == "outputs" \
            else r["command"].split()[0]
        groups.setdefault((r["kind"], what), []).append(r)
    for (kind, command), got in sorted(groups.items()):
        worst = max(got, key=lambda r: r["cpu"])
        print(f"{(kind + ': ' + command)[:40]:<40}{len(got):>6}{sum('traceback' in str(r.get('internal', '')).lower() for r in got):>11}"
              f"{sum('internal' in r for r in got):>9}{sum(r['killed'] for r in got):>7}"
              f"{statistics.median(r['cpu'] for r in got):>9.2f}{worst['cpu']:>8.2f}  {worst['detail'][:60]}")
    pairs = [(a, b) for a, b in zip(runs, runs[1:]) if a["command"] == "validate" and b["command"] == "replay"
             and a["kind"] == b["kind"] == "records" and b["r"] == a["r"] + 1 and not a["killed"] and not b["killed"]]
    if pairs:
        ratios = sorted(a["cpu"] / max(b["cpu"], 1e-3) for a, b in pairs)
        print(f"validate against replay, each a process on the same input: {len(pairs)} pairs, over 3x "
              f"{sum(x > 3 for x in ratios)}, median {statistics.median(ratios):.2f}, worst {ratios[-1]:.2f}")
    slow = sorted(runs, key=lambda r: -r["cpu"])[:8]
    print("slowest runs: " + "; ".join(f"{r['command']} {r['detail'][:40]} {r['cpu']:.1f} s" + (" (killed)" if r["killed"] else "")
                                       for r in slow))
    failures = [r for r in rows if "internal" in r or "traceback" in r] + [r for r in runs if "internal" in r]
    for r in failures[:20]:
        print("FAILED", json.dumps(r)[:400])


def _slope(xs: list[float], ys: list[float]) -> float:
    import math
    lx, ly = [math.log(x) for x in xs], [math.log(max(y, 1e-4)) for y in ys]
    mx, my = statistics.mean(lx), statistics.mean(ly)
    return sum((x - mx) * (y - my) for x, y in zip(lx, ly)) / sum((x - mx) ** 2 for x in lx)


def growth(args) -> None:
    """Validation against replay on grown records, series by series: in-process CPU of each (the parser built),
    the ratio as the commands have it (the start-up added to both), and the exponent of each against the size."""
    from analyzer.archive.runner import Options, process
    from analyzer.notation import parse
    from test_robustness import issue_mutation
    parse("")
    if args.no_time:            # the slip search bounded by its work's units alone (no bound of time)
        import analyzer.repair.triage as triage_module
        triage_module.RECORD_SECONDS = 1e9
    start_up = startup_cpu()
    seed2 = (ROOT / "records" / "seed2.dom").read_text(encoding="utf-8").rstrip("\n") + "\n"
    tags, body = split_tags(SETUP_DOC)
    rng = random.Random(args.seed)
    files = bundled()
    broken = [issue_mutation(random.Random(k), rng.choice(files)) for k in range(400)]
    kozel = (ROOT / "tests" / "data" / "issue72" / "sheet-slip-deal-trials.dom").read_text(encoding="utf-8")
    series = {
        "illegal rows": lambda n: seed2 + "".join(f"{9 + k}. A [0-0] B [1-1] C [2-2] D [3-3]\n" for k in range(n)),
        "Lacks items": lambda n: "\n".join([t for t in tags if not t.startswith("[Lacks ")]
                                           + [f'[Lacks "{_lacks(random.Random(n), n)}"]']) + "\n" + body,
        "broken records": lambda n: "\n".join(broken[:n]),
        "broken sheets": lambda n: "\n".join([kozel] * n),
    }
    sizes = {"illegal rows": (250, 500, 1000, 2000, 4000), "Lacks items": (1000, 2000, 4000, 8000, 16000),
             "broken records": (5, 10, 20, 40, 80), "broken sheets": (1, 2, 4, 8, 16)}
    print(f"validation against replay on grown records: CPU s in-process (parser built); 'as commands' adds the "
          f"start-up ({start_up:.2f} s, domino replay of an empty file) to both"
          + ("; the slip search bounded by its units of work alone (--no-time)" if args.no_time else ""))
    print(f"{'series':<16}{'size':>7}{'KB':>8}{'replay':>8}{'validate':>9}{'in-proc':>8}{'as commands':>12}{'stopped':>8}")
    for name, make in series.items():
        kbs, rs, vs = [], [], []
        for n in sizes[name]:
            data = make(n).encode("utf-8")
            t0 = time.process_time()
            process("grown.dom", data, Options("validate", triage=False))
            t1 = time.process_time()
            result = process("grown.dom", data, Options("validate"))
            t2 = time.process_time()
            stopped = sum(d["code"] == "slip-search-stopped" for g in result["games"] for d in g["diagnostics"])
            kbs.append(len(data) / 1024)
            rs.append(t1 - t0)
            vs.append(t2 - t1)
            print(f"{name:<16}{n:>7}{kbs[-1]:>8.1f}{rs[-1]:>8.2f}{vs[-1]:>9.2f}{vs[-1] / max(rs[-1], 1e-3):>8.1f}"
                  f"{(vs[-1] + start_up) / (rs[-1] + start_up):>12.2f}{stopped:>8}", flush=True)
        print(f"{name:<16} exponent against size: validate {_slope(kbs, vs):.2f}, replay {_slope(kbs, rs):.2f}; "
              f"the largest two: validate {_slope(kbs[-2:], vs[-2:]):.2f}")


def bound(args) -> None:
    """The slip search's bound of time against its bound of work alone, on the campaign's heaviest inputs (the
    ``--count`` slowest validations of the state, and every input whose search stopped) and the grown series:
    each validated with the time bound (RECORD_SECONDS + READ_TIMES x the read's CPU, as ``validate`` runs) and
    without it (the work's units alone: the same answer on any machine); CPU in-process, the ratio as commands
    (the start-up added to both), and whether the two give the same diagnostics."""
    import analyzer.repair.triage as triage_module
    from analyzer.archive.runner import Options, process
    from analyzer.notation import parse
    parse("")
    start_up = startup_cpu()
    rows = {r["i"]: r for p in sorted(Path(args.state).glob("inputs-*.jsonl")) for r in _rows(p)}
    timed = [r for r in rows.values() if "validate" in r]
    picked = sorted(timed, key=lambda r: -r["validate"])[:args.count]
    picked += [r for r in timed if r.get("stopped") and r not in picked]
    inputs = Inputs(args.inputs, args.seed)
    seconds = triage_module.RECORD_SECONDS

    def diagnostics(result) -> list:
        return [(d["code"], d["line"], d["column"], d["text"]) for g in result["games"] for d in g["diagnostics"]
                if d["code"] != "slip-search-stopped"]
    print(f"the slip search with its bound of time and with the work's units alone, on {len(picked)} campaign inputs "
          f"(the {args.count} slowest validations and every one whose search stopped); CPU s in-process, ratio as "
          f"commands (start-up {start_up:.2f} s added to both)")
    print(f"{'input':<34}{'KB':>7}{'replay':>8}{'timed':>8}{'work':>8}{'ratio t':>8}{'ratio w':>8}{'stop t':>7}{'stop w':>7}  same")
    worst, over, differ = 0.0, 0, 0
    for r in sorted(picked, key=lambda r: r["i"]):
        kind, detail, text = inputs.make(r["i"])
        data = text.encode("utf-8")
        t0 = time.process_time()
        process("campaign.dom", data, Options("validate", triage=False))
        t1 = time.process_time()
        timed_result = process("campaign.dom", data, Options("validate"))
        t2 = time.process_time()
        triage_module.RECORD_SECONDS = 1e9          # no bound of time: the units alone
        try:
            work_result = process("campaign.dom", data, Options("validate"))
        finally:
            triage_module.RECORD_SECONDS = seconds
        t3 = time.process_time()
        replay, v_timed, v_work = t1 - t0, t2 - t1, t3 - t2
        ratio_w = (v_work + start_up) / (replay + start_up)
        worst = max(worst, ratio_w)
        over += ratio_w > 3
        stops = [sum(d["code"] == "slip-search-stopped" for g in res["games"] for d in g["diagnostics"])
                 for res in (timed_result, work_result)]
        same = diagnostics(timed_result) == diagnostics(work_result)
        differ += not same
        print(f"{kind[:12] + ' #' + str(r['i']):<34}{len(data) / 1024:>7.1f}{replay:>8.2f}{v_timed:>8.2f}{v_work:>8.2f}"
              f"{(v_timed + start_up) / (replay + start_up):>8.2f}{ratio_w:>8.2f}{stops[0]:>7}{stops[1]:>7}  "
              f"{'yes' if same else 'NO'}", flush=True)
    print(f"work units alone: worst ratio as commands {worst:.2f}, over 3x {over} of {len(picked)}; diagnostics "
          f"differing from the timed search's {differ}")


def board(args) -> None:
    """The board's API (Starlette's test client, in-process: no socket) on every typed prefix of the docs' examples
    (what the board is sent on each keystroke of a user typing one) and on ``--count`` set-up inputs: position and
    result on each, tags, enter, a later position and validate on one in ten; a 5xx answer or a 4xx that says the
    board failed (an internal error turned into 422) is counted."""
    from conftest import board_client
    inputs = Inputs(args.inputs, args.seed)
    texts = [("typed prefixes", inputs.make(i)[2]) for i in range(len(inputs.prefixes))]
    first = dict(inputs.plan)["typed prefixes"]
    texts += [("set-up tags", inputs.make(first + k)[2]) for k in range(args.count)]
    calls = (("position", {"game": 0}), ("result", {}))
    others = (("tags", {}), ("enter", {"move": "pass"}), ("position", {"game": 0, "step": 2}), ("validate", {}))
    counts: dict[str, list[int]] = {}
    failed = []
    folder = tempfile.mkdtemp(prefix="campaign72_board_")
    start = time.process_time()
    deadline = time.time() + args.minutes * 60 if args.minutes else None
    done = 0
    with board_client([folder]) as client:
        for k, (kind, text) in enumerate(texts):
            if deadline and time.time() > deadline:
                break
            done += 1
            todo = list(calls) + (list(others) if k % 10 == 0 else [])
            for route, fields in todo:
                res = client.post(f"/api/{route}", json={"text": text, **fields})
                bad = res.status_code >= 500 or "failed on this record" in res.text or "internal" in res.text.lower()
                row = counts.setdefault(f"{kind}: {route}", [0, 0, 0])
                row[0] += 1
                row[1] += res.status_code >= 400
                row[2] += bad
                if bad:
                    failed.append((route, res.status_code, res.text[:200], text))
    print(f"the board's API on {done:,} of {len(texts):,} texts ({time.process_time() - start:.0f} s of CPU): requests, 4xx "
          f"answers (a problem named), failures (5xx or an internal error)")
    for name, (n, four, bad) in sorted(counts.items()):
        print(f"  {name:<30}{n:>8,}{four:>8,}{bad:>6}")
    for route, status, text, record in failed[:10]:
        print("FAILED", route, status, text, repr(record[:200]))
    Path(args.state).mkdir(parents=True, exist_ok=True)
    (Path(args.state) / "board.txt").write_text(json.dumps({"counts": counts, "failed": failed[:50]}), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("plan", "inputs", "cli", "table", "growth", "board", "bound", "rerun"))
    ap.add_argument("--inputs", type=int, default=100_000, help="the in-process inputs of the whole campaign")
    ap.add_argument("--cli", type=int, default=5_000, help="the command-line runs of the whole campaign")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=1_000)
    ap.add_argument("--stride", type=int, default=1, help="a chunk takes every stride-th input from --start (a chunk "
                    "spread over every kind)")
    ap.add_argument("--seed", type=int, default=72)
    ap.add_argument("--state", default="/tmp/campaign72")
    ap.add_argument("--minutes", type=float, default=0, help="stop the chunk after this long")
    ap.add_argument("--sample", type=int, default=4, help="one input in this many through the slip search too (every "
                    "typed prefix and grown input)")
    ap.add_argument("--runs", default="", help="rerun: the command-line runs to run again (comma-separated)")
    ap.add_argument("--no-time", action="store_true", help="growth: the slip search without its bound of time "
                    "(its units of work alone)")
    ap.add_argument("--timeout", type=float, default=60, help="a CLI run is killed after this many seconds of wall time")
    args = ap.parse_args()
    if args.what == "plan":
        inputs = Inputs(args.inputs, args.seed)
        print(inputs.plan)
        plan = cli_plan(args.cli)
        print(len(plan), "CLI runs;", sum(k == "option extremes" for k, _ in plan), "of them option extremes")
    elif args.what == "inputs":
        run_inputs(args)
    elif args.what == "cli":
        run_cli(args)
    elif args.what == "growth":
        growth(args)
    elif args.what == "board":
        board(args)
    elif args.what == "bound":
        bound(args)
    elif args.what == "rerun":
        rerun(args)
    else:
        table(args)


if __name__ == "__main__":
    main()
