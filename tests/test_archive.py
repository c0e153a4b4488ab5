"""Archives: every input form, the summary, --quiet/--jsonl, --jobs, the cache and resuming, the
Dask cluster, the per-player summary and the archive report (in Chromium)."""
from __future__ import annotations

import codecs
import csv as csv_module
import io
import json
import os
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from analyzer.archive import Execution, Cache, InputError, Options, Summary, decode, expand, load, player_rows, run
from analyzer.archive.cluster import cluster_lost
from analyzer.archive.cluster import ClusterUnavailable
from analyzer.archive.runner import estimate_moves, process
from analyzer.cli import main
from analyzer.notation import read
from analyzer.render.index import page_names
from conftest import HANG_SECONDS, RECORDS, ROOT, wait_until

SEED1 = RECORDS / "seed1-table.txt"      # the book's table: breaks the rules in round 7 (tile-no-match)
SEED2 = RECORDS / "seed2.dom"            # the same deal, legal throughout: A/C win 46


def cli(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def archive(tmp_path):
    """Nested folders with a valid record, an invalid one, a broken one, a binary file, a file that
    cannot be opened, a UTF-16 file and a file that is not a record (by its name)."""
    root = tmp_path / "archive"
    (root / "day1" / "table2").mkdir(parents=True)
    (root / "day2").mkdir()
    shutil.copy(SEED2, root / "day1" / "a-valid.dom")
    shutil.copy(SEED1, root / "day1" / "table2" / "b-invalid.txt")
    (root / "day1" / "table2" / "c-broken.dom").write_text('[Event "x"\nA: [0-5] [1-3\n1. A [0-5] }}\n',
                                                          encoding="utf-8")
    (root / "day2" / "d-binary.dom").write_bytes(bytes(range(256)) * 4)
    os.symlink(root / "nowhere", root / "day2" / "e-unreadable.dom")      # opening it fails
    (root / "day2" / "f-utf16.dom").write_bytes(SEED2.read_text(encoding="utf-8").encode("utf-16"))
    (root / "day2" / "notes.md").write_text("not a record", encoding="utf-8")
    return root


NAMES = ["a-valid.dom", "b-invalid.txt", "c-broken.dom", "d-binary.dom", "e-unreadable.dom", "f-utf16.dom"]


# ---- inputs ----------------------------------------------------------------------------------------

def test_a_folder_is_searched_recursively_for_record_files_in_order(archive):
    found = expand([str(archive)])
    assert [os.path.basename(p) for p in found] == NAMES        # notes.md is not a record file
    # a file named twice (directly and inside its folder) is read once; the order of the inputs holds
    again = expand([str(archive / "day2" / "f-utf16.dom"), str(archive)])
    assert os.path.basename(again[0]) == "f-utf16.dom" and len(again) == len(NAMES)
    with pytest.raises(InputError, match="no/such/thing"):
        expand(["no/such/thing"])


def test_a_link_to_a_file_is_read_and_a_link_to_a_folder_is_not_followed(tmp_path):
    """As docs/archives.md says: so a link looping back to its own folder cannot make the search endless."""
    folder, elsewhere = tmp_path / "archive", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    shutil.copy(SEED2, elsewhere / "game.dom")
    (folder / "linked.dom").symlink_to(elsewhere / "game.dom")
    (folder / "folder-link").symlink_to(elsewhere, target_is_directory=True)
    (folder / "loop").symlink_to(folder, target_is_directory=True)
    assert [os.path.basename(p) for p in expand([str(folder)])] == ["linked.dom"]
    assert [os.path.basename(p) for p in expand([str(folder / "folder-link")])] == ["game.dom"]


def test_bytes_that_are_not_utf8_text_get_one_clear_diagnostic():
    text = SEED2.read_text(encoding="utf-8")
    assert decode(codecs.BOM_UTF8 + text.encode(), "x")[0] == text
    for data, code, words in ((text.encode("utf-16"), "not-utf8", "UTF-16"),
                              (text.encode("utf-16-le"), "not-utf8", "UTF-16"),     # no byte-order mark
                              (bytes(range(256)), "binary", "binary"),
                              ("Spieler Müller\n".encode("latin-1"), "not-utf8", "Latin-1")):
        got, diag = decode(data, "f.dom")
        assert got is None and diag.code == code and words in diag.message and "UTF-8" in diag.message
    _, diag = decode("A: [0-5]\nSpieler Müller\n".encode("latin-1"), "f.dom")
    assert (diag.line, diag.column) == (2, 10)               # the ü


def test_the_library_reader_gives_the_same_diagnostic(tmp_path):
    path = tmp_path / "wide.dom"
    path.write_bytes(SEED2.read_text(encoding="utf-8").encode("utf-16"))
    record = read(path)
    assert record.games == [] and [d.code for d in record.errors] == ["not-utf8"]


def test_standard_input_is_read_for_a_dash():
    res = cli("validate", "-", input=SEED2.read_bytes())
    assert res.exit_code == 0 and "<stdin>: game 1" in res.output
    res = cli("validate", "-", str(SEED1), input=SEED2.read_bytes())
    assert res.exit_code == 1 and res.output.index("<stdin>") < res.output.index(str(SEED1))


def test_a_folder_with_no_record_and_a_missing_path_are_usage_errors(tmp_path):
    assert cli("validate", tmp_path).exit_code == 2
    res = cli("analyze", tmp_path / "missing.dom")
    assert res.exit_code == 2 and "missing.dom" in res.output


# ---- an archive with bad files in the middle ------------------------------------------------------

def test_every_bad_file_is_reported_with_its_path_and_the_rest_is_done(archive):
    res = cli("validate", archive)
    assert res.exit_code == 1
    out = res.output
    for name, code in (("c-broken.dom", "syntax"), ("d-binary.dom", "binary"), ("e-unreadable.dom", "unreadable"),
                       ("f-utf16.dom", "not-utf8")):
        path = next(p for p in expand([str(archive)]) if p.endswith(name))
        assert f"{path}" in out and f"error[{code}]" in out
    assert "a-valid.dom: game 1 (INTERNATIONAL DOMINOES, example deal): valid" in out
    assert "b-invalid.txt: game 1" in out and "tile-no-match" in out
    assert "\x00" not in out and "\ufffd" not in out         # never raw bytes on the terminal
    summary = out.rstrip().splitlines()[-1]
    assert summary.startswith("6 records") and "1 valid, 5 invalid" in summary
    for code in ("binary 1", "unreadable 1", "not-utf8 1", "tile-no-match"):
        assert code in summary


def test_quiet_prints_the_errors_only(archive):
    res = cli("validate", "--quiet", archive)
    lines = res.output.splitlines()
    assert res.exit_code == 1 and lines
    assert not any("valid" in line.split(":")[-1] for line in lines)      # no verdicts, no summary
    errors = [line for line in lines if "error[" in line]
    assert len(errors) >= 5 and not any("info[" in line for line in lines)


def test_jsonl_gives_one_object_per_record_in_input_order(archive):
    res = cli("validate", "--jsonl", archive)
    objects = [json.loads(line) for line in res.stdout.splitlines()]
    assert [os.path.basename(o["source"]) for o in objects] == NAMES
    assert objects[0]["games"][0]["valid"] is True and objects[3]["error"]["code"] == "binary"
    assert objects[3]["games"] == []


def test_analyze_reads_standard_input_once():
    # `cat game.dom | domino analyze -`: the record on standard input is the one analysed
    text = SEED2.read_text(encoding="utf-8")
    piped = cli("analyze", "--json", "-", input=text)
    assert piped.exit_code == 0, piped.output
    games = json.loads(piped.stdout)["games"]
    assert [g["title"] for g in games] == ["INTERNATIONAL DOMINOES, example deal"]
    assert [g["critical"] for g in games] == [g["critical"] for g in json.loads(cli("analyze", "--json", SEED2).stdout)["games"]]
    # a record with unknown hands on standard input gets its fair analysis, as from a file
    partial = RECORDS / "draw-one-view.dom"
    res = cli("analyze", "--json", "--decision-deals", "5", "-", input=partial.read_text(encoding="utf-8"))
    # every player: A in the one hand it shows, B over the hands its deals allow
    assert [g["fair_seats"] for g in json.loads(res.stdout)["games"]] == [["A", "B"]]


def test_the_exit_status_is_the_same_for_every_command(tmp_path):
    for command in ("validate", "replay", "analyze", "stats"):
        assert cli(command, SEED2).exit_code == 0, command
        assert cli(command, SEED1).exit_code == 1, command
        assert cli(command, "--rule", "target=abc", SEED2).exit_code == 2, command
    assert cli("report", SEED2, "-o", tmp_path / "p.html").exit_code == 0
    assert cli("report", SEED1, "-o", tmp_path / "p.html").exit_code == 1


def test_no_command_writes_over_an_input(tmp_path):
    record = tmp_path / "g.dom"
    shutil.copy(SEED1, record)
    before = record.read_bytes()
    for args in (("report", record, "-o", record), ("analyze", "--graph", record, record),
                 ("validate", "--write-repaired", record, record)):
        res = cli(*args)
        assert res.exit_code == 2 and "overwrite" in res.output, args
    assert record.read_bytes() == before


def test_an_output_that_cannot_be_written_is_a_usage_error_before_any_work(tmp_path):
    record = tmp_path / "g.dom"
    shutil.copy(SEED1, record)
    through_a_file = str(record / "out.html")
    for option, command in (("-o", "report"), ("--graph", "analyze"), ("--write-repaired", "validate")):
        for target in ("", through_a_file):
            res = cli(command, option, target, record)
            assert res.exit_code == 2, (option, target, res.output)
            assert option in res.output and "wrote" not in res.output, (option, target)
            assert "INVALID" not in res.output and "tile-no-match" not in res.output, (option, target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.dom"]


def test_missing_folders_of_an_output_are_made(tmp_path):
    graph, repaired = tmp_path / "a" / "tree.json", tmp_path / "b" / "c" / "fixed.dom"
    assert cli("analyze", "--graph", graph, SEED2).exit_code == 0
    assert json.loads(graph.read_text(encoding="utf-8"))
    assert cli("validate", "--write-repaired", repaired, SEED1).exit_code == 1     # the record has errors
    assert cli("validate", repaired).exit_code == 0                                 # its repair has none


# ---- parallel, cache, resume ------------------------------------------------------------------------

def test_jobs_give_the_same_results_in_the_same_order(archive, units_only):
    # (the CPU net kept out of the way here and in forked workers; a worker a fork server starts keeps it, which the
    # broken seed1's search, done in a twentieth of it, stays far from)
    sources = load([str(archive), str(RECORDS / "variant-all-fives.dom")])
    options = Options("analyze")
    assert list(run(sources, options, Execution(jobs=2))) == list(run(sources, options))
    one = cli("validate", "--jsonl", archive).stdout
    assert cli("validate", "--jsonl", "--jobs", "2", archive).stdout == one


def _dies_on_poison(label, data, options, progress=None):
    """The task, except that a record holding POISON kills its worker outright (as the out-of-memory
    killer would)."""
    if b"POISON" in data:
        os._exit(9)
    return process(label, data, options, progress)


def test_a_worker_that_dies_loses_only_its_own_record(tmp_path, monkeypatch, units_only):
    import analyzer.archive.runner as runner
    for k in range(6):
        shutil.copy(SEED2 if k % 2 else SEED1, tmp_path / f"g{k}.dom")
    (tmp_path / "g3-poison.dom").write_text(SEED2.read_text(encoding="utf-8") + "\n{POISON}\n", encoding="utf-8")
    sources = load([str(tmp_path)])
    expected = list(run(sources, Options()))
    monkeypatch.setattr(runner, "process", _dies_on_poison)
    results = list(run(sources, Options(), Execution(jobs=2)))
    assert [r["source"] for r in results] == [s.label for s in sources]
    for want, got in zip(expected, results):
        if "poison" in got["source"]:
            assert got["error"]["code"] == "internal-error" and got["source"] in got["error"]["text"]
        else:
            assert got == want


def _tells_much(label, data, options, progress=None, exact=None):
    """The task, after telling 50,000 exact decisions begun (far more than the pipe they go on holds unread)."""
    for k in range(50_000):
        exact(None, k, 1, 1, 1.0)
    return process(label, data, options, progress, exact=exact)


@pytest.mark.skipif(os.name != "posix", reason="the workers tell on a POSIX pipe (elsewhere they tell nothing)")
def test_a_worker_that_tells_more_than_the_run_reads_is_never_held_up(tmp_path, monkeypatch):
    """A pool's workers tell the exact decisions they begin on a pipe the run reads only between results, and not
    at all once it is given up (it then waits for the records in work to end): where the pipe is full a worker drops
    the line and goes on, so neither a run nor one given up waits on its bar's words."""
    import threading

    import analyzer.archive.runner as runner
    for k in range(4):
        shutil.copy(SEED1, tmp_path / f"g{k}.dom")
    sources = load([str(tmp_path)])
    expected = list(run(sources, Options()))
    monkeypatch.setattr(runner, "process", _tells_much)
    told = []
    results = list(run(sources, Options(), Execution(jobs=2), exact=lambda *args: told.append(args)))
    assert results == expected
    assert 0 < len(told) < 4 * 50_000 and {label for label, *_ in told} <= {s.label for s in sources}
    given_up = run(sources, Options(), Execution(jobs=2), exact=lambda *args: None)
    assert next(given_up) == expected[0]
    closing = threading.Thread(target=given_up.close, daemon=True)     # (waits for the record still in work)
    closing.start()
    closing.join(HANG_SECONDS)
    assert not closing.is_alive()


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return out


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"     # a zombie has stopped
    except OSError:
        return False


def assert_workers_end_when_killed(*args) -> None:
    """Start ``domino ARGS``, kill it outright once two workers run (kill -9, the out-of-memory killer, a
    lost session) and check that no worker is left behind."""
    import signal
    run_ = subprocess.Popen([sys.executable, "-m", "analyzer", *map(str, args)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    def two_workers_or_the_end():
        found = _children(run_.pid)
        return found if len(found) >= 2 else run_.poll() is not None
    try:
        workers = wait_until(two_workers_or_the_end, "two workers to start")
        assert workers is not True, "the run ended before two workers ran"
    finally:
        run_.send_signal(signal.SIGKILL)
        run_.wait()
    try:                         # (each worker sees its parent gone within a second of its own clock)
        wait_until(lambda: not any(_running(w) for w in workers), "the workers to end", every=0.1)
    finally:
        for w in workers:        # clean up before failing
            if _running(w):
                os.kill(w, signal.SIGKILL)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the workers in /proc")
def test_the_workers_stop_when_the_run_is_killed(tmp_path):
    for k in range(300):
        shutil.copy(SEED2, tmp_path / f"g{k:03d}.dom")
    assert_workers_end_when_killed("analyze", "--jobs", "2", tmp_path)


def test_the_cache_key_follows_the_tool_s_code(tmp_path, monkeypatch):
    import analyzer.archive.cache as cache_module
    from analyzer.archive.cache import code_digest
    (tmp_path / "rules.py").write_text("TARGET = 100\n")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "rules.pyc").write_bytes(b"1")
    before = code_digest(tmp_path)
    (tmp_path / "__pycache__" / "rules.pyc").write_bytes(b"2")
    assert code_digest(tmp_path) == before                # bytecode is not the code
    (tmp_path / "rules.py").write_text("TARGET = 500\n")
    assert code_digest(tmp_path) != before
    key = Cache.key(b"[Variant \"partnership\"]", "analyze")
    monkeypatch.setattr(cache_module, "_own_code", lambda: b"other code")
    assert Cache.key(b"[Variant \"partnership\"]", "analyze") != key     # same version, other code: redone


def test_a_second_run_with_the_cache_does_no_work(tmp_path, archive):
    sources = load([str(archive)])
    cache = Cache(tmp_path / "cache")
    options = Options("analyze")
    counts: dict = {}
    first = list(run(sources, options, Execution(cache=cache), counts=counts))
    assert counts == {"computed": 5, "cached": 0, "lost": 0}      # the file that cannot be opened is not cached
    second = list(run(sources, options, Execution(cache=cache), counts=counts))
    assert counts == {"computed": 0, "cached": 5, "lost": 0} and second == first
    # other options, or a changed record, are worked out again
    list(run(sources, Options("analyze", thresholds="2,5,9"), Execution(cache=cache), counts=counts))
    assert counts["computed"] == 5
    with open(archive / "day1" / "a-valid.dom", "a", encoding="utf-8") as fh:
        fh.write("\n{a comment added later}\n")
    list(run(load([str(archive)]), options, Execution(cache=cache), counts=counts))
    assert counts == {"computed": 1, "cached": 4, "lost": 0}


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path, units_only):
    sources = load([str(RECORDS)])
    cache = Cache(tmp_path / "cache")
    done = []

    def interrupt(_moves, result):
        if result is not None:
            done.append(result)
            if len(done) == 5:
                raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        list(run(sources, Options(), Execution(cache=cache), progress=interrupt))
    counts: dict = {}
    resumed = list(run(sources, Options(), Execution(cache=cache), counts=counts))
    assert counts == {"computed": len(sources) - 5, "cached": 5, "lost": 0}
    assert resumed == list(run(sources, Options()))


def test_a_cached_result_names_its_own_file_not_a_copy_s(tmp_path):
    # an archive holds the same record twice (a copy in another folder): every error line must name
    # the file it is in, from the cache as without it
    for folder in ("day1", "day2"):
        (tmp_path / folder).mkdir()
        shutil.copy(SEED1, tmp_path / folder / "table.txt")
    sources = load([str(tmp_path / "day1"), str(tmp_path / "day2")])
    cache = Cache(tmp_path / "cache")
    fresh = list(run(sources, Options(), Execution(cache=cache)))
    again = list(run(sources, Options(), Execution(cache=cache)))
    assert again == fresh
    for source, result in zip(sources, again):
        diagnostics = [d for g in result["games"] for d in g["diagnostics"]]
        assert diagnostics and all(d["text"].startswith(source.label + ":") for d in diagnostics)
    lines = cli("validate", "-q", "--cache", tmp_path / "c", tmp_path / "day1", tmp_path / "day2").output
    assert cli("validate", "-q", "--cache", tmp_path / "c", tmp_path / "day1", tmp_path / "day2").output == lines


def test_a_damaged_cache_entry_is_redone_not_served(tmp_path):
    # entries damaged on disk: cut short, zeroed, or one word changed so that the JSON still parses
    sources = load([str(SEED2)])
    fresh = list(run(sources, Options("analyze")))
    damages = (lambda b: b[: len(b) // 2], lambda b: bytes(len(b)), lambda b: b.replace(b'"games"', b'"gamfs"'),
               lambda b: b"{}", lambda b: b"[1]")
    for k, damage in enumerate(damages):
        cache = Cache(tmp_path / f"cache{k}")
        list(run(sources, Options("analyze"), Execution(cache=cache)))
        (entry,) = (tmp_path / f"cache{k}").rglob("*.json")
        entry.write_bytes(damage(entry.read_bytes()))
        counts: dict = {}
        assert list(run(sources, Options("analyze"), Execution(cache=cache), counts=counts)) == fresh, k
        assert counts == {"computed": 1, "cached": 0, "lost": 0}, k


def test_the_cli_cache_reuses_results(tmp_path):
    first = cli("analyze", "--cache", tmp_path / "c", SEED1, SEED2).output
    assert sum(1 for _ in (tmp_path / "c").rglob("*.json")) == 2
    assert cli("analyze", "--cache", tmp_path / "c", SEED1, SEED2).output == first


def test_analyze_and_stats_keep_their_own_cache_entries_and_reuse_them(tmp_path):
    # stats asks for more than analyze --scale match (each player's deal luck in games of individual players),
    # so each keeps its own entries; a second run of either works nothing out again
    cli("analyze", "--scale", "match", "--cache", tmp_path / "c", SEED2, SEED1)
    cli("stats", "--cache", tmp_path / "c", SEED2, SEED1)
    assert sum(1 for _ in (tmp_path / "c").rglob("*.json")) == 4
    cli("analyze", "--scale", "match", "--table-mb", "128", "--cache", tmp_path / "c", SEED2, SEED1)
    cli("stats", "--cache", tmp_path / "c", SEED2, SEED1)
    assert sum(1 for _ in (tmp_path / "c").rglob("*.json")) == 4


def test_progress_counts_every_move_of_the_records():
    sources = load([str(SEED2), str(SEED1)])
    moves = sum(len(g.moves) for s in sources for g in read(s.label).games)
    seen = []
    list(run(sources, Options("analyze"), progress=lambda n, _result: seen.append(n)))
    assert sum(seen) == moves and len(seen) > len(sources)     # move by move, not record by record
    res = cli("analyze", SEED2)
    assert "analysing" not in res.output                        # no bar when the output is no terminal


def test_the_bar_s_length_is_estimated_from_the_text_alone():
    for source in load([str(RECORDS)]):
        moves = sum(len(g.moves) for g in read(source.label).games)
        assert abs(estimate_moves(source) - moves) <= max(2, moves // 10), source.label


@pytest.mark.slow
def test_a_dask_cluster_gives_the_local_results(archive):
    distributed = pytest.importorskip("distributed")
    sources = load([str(archive)])
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        local = list(run(sources, Options("analyze")))
        assert list(run(sources, Options("analyze"), Execution(scheduler=cluster.scheduler_address))) == local
        res = cli("validate", "--jsonl", "--scheduler", cluster.scheduler_address, archive)
        assert res.stdout == cli("validate", "--jsonl", archive).stdout


@pytest.mark.slow
def test_a_cluster_whose_workers_run_other_code_is_refused(monkeypatch):
    # workers with another install of the analyser (an older version left on a worker machine) would
    # give other results than a local run, unseen, and fill the cache with them
    distributed = pytest.importorskip("distributed")
    import analyzer.archive.cache as cache_module
    with distributed.LocalCluster(n_workers=1, processes=True, threads_per_worker=1, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        sources = load([str(SEED2)])
        assert list(run(sources, Options(), Execution(scheduler=cluster.scheduler_address))) == list(run(sources, Options()))
        monkeypatch.setattr(cache_module, "__version__", "0.0.other")       # this machine's code, not the worker's
        with pytest.raises(ClusterUnavailable, match="other code"):
            list(run(sources, Options(), Execution(scheduler=cluster.scheduler_address)))


def test_an_unreachable_scheduler_is_a_clean_error():
    pytest.importorskip("distributed")
    res = cli("validate", "--scheduler", "tcp://127.0.0.1:9", SEED2)
    assert res.exit_code == 1 and "Dask scheduler" in res.output


def test_an_address_that_is_no_dask_scheduler_is_a_clean_error_in_seconds(tmp_path):
    # a port that accepts the connection but never answers (or answers as a web server: the
    # dashboard's port 8787 given for the scheduler's 8786) must not hang the run
    pytest.importorskip("distributed")
    import socket
    import threading
    for reply in (b"", b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/html\r\n\r\n<html>no</html>"):
        server = socket.create_server(("127.0.0.1", 0))
        held = []

        def serve(server=server, reply=reply, held=held):
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:
                    return
                held.append(conn)
                if reply:
                    conn.recv(1024)
                    conn.sendall(reply)
                    conn.close()
        threading.Thread(target=serve, daemon=True).start()
        address = "tcp://127.0.0.1:%d" % server.getsockname()[1]
        # (without its own bound the greeting waits for good: the run would not end)
        result = subprocess.run([sys.executable, "-m", "analyzer", "validate", "--scheduler", address, str(SEED2)],
                                cwd=ROOT, capture_output=True, text=True, timeout=HANG_SECONDS)
        server.close()
        for conn in held:
            conn.close()
        assert result.returncode == 1, (reply, result.stderr)
        assert "Dask scheduler" in result.stderr and "Traceback" not in result.stderr, reply
        assert reply or "no answer in 10 s" in result.stderr        # it gave up by its own bound, in seconds


# ---- per-player summary ---------------------------------------------------------------------------

def _decision(player, loss, cls, **fair):
    return {"player": player, "loss": loss, "class": cls, **fair}


def test_player_rows_follow_their_definitions():
    games = [
        {"players": ["Ann", "Bo"], "errors_by_player": {"Ann": 1, "Bo": 0},
         "analysis": {"decisions": [_decision("Ann", 0, None), _decision("Ann", 12, "mistake"),
                                    _decision("Bo", 4, "inaccuracy"), _decision("Ann", 30, "blunder")]}},
        {"players": ["Bo", "Ann"], "errors_by_player": {"Ann": 0, "Bo": 3}, "analysis": None},
    ]
    ann, bo = player_rows([{"games": games}])
    assert (ann.player, ann.games, ann.decisions, ann.open_loss) == ("Ann", 2, 3, 14.0)
    assert ann.mistakes_per_100 == 66.7 and ann.accuracy == 33.3 and ann.errors_per_record == 0.5
    assert (bo.decisions, bo.accuracy, bo.mistakes_per_100, bo.errors_per_record) == (1, 0.0, 0.0, 1.5)
    assert ann.fair_loss is None and ann.real_mistakes_per_100 is None      # no fair analysis asked for
    # each decision's ``fair`` member as ``analyze --fair --json`` writes it
    fair = [{"players": ["Ann"], "analysis": {"decisions": [
        _decision("Ann", 12, "mistake", fair={"loss": 11, "class": "mistake", "verdict": "real"}),
        _decision("Ann", 25, "blunder", fair={"loss": 0, "class": None, "verdict": "hindsight"})]}}]
    row, = player_rows([{"games": fair}])
    assert (row.fair_loss, row.real_mistakes_per_100, row.hindsight_mistakes_per_100) == (5.5, 50.0, 50.0)


def test_names_that_differ_only_in_case_or_blanks_are_one_player():
    # one scorer writes "Alice", another "alice" or "ALICE  " (the Players tag as typed): one player
    games = [
        {"players": ["Alice", "Bob"], "errors_by_player": {"Alice": 1, "Bob": 0},
         "analysis": {"decisions": [_decision("Alice", 0, None), _decision("Bob", 12, "mistake")]}},
        {"players": ["alice", "Mary  Ann"], "errors_by_player": {"alice": 0, "Mary  Ann": 2},
         "analysis": {"decisions": [_decision("alice", 30, "blunder"), _decision("Mary  Ann", 0, None)]}},
        {"players": ["ALICE", "mary ann"], "errors_by_player": {}, "analysis": None},
    ]
    alice, bob, mary = player_rows([{"games": games}])
    assert (alice.player, alice.games, alice.decisions, alice.open_loss) == ("Alice", 3, 2, 15.0)
    assert (alice.accuracy, alice.mistakes_per_100, alice.errors_per_record) == (50.0, 50.0, 0.33)
    assert (mary.player, mary.games, mary.decisions, mary.errors_per_record) == ("Mary  Ann", 2, 1, 1.0)
    assert (bob.player, bob.games) == ("Bob", 1)


def test_stats_merges_players_by_name_across_records(tmp_path):
    shutil.copy(SEED2, tmp_path / "one.dom")
    shutil.copy(SEED2, tmp_path / "two.dom")
    rows = json.loads(cli("stats", "--json", tmp_path).stdout)
    assert [r["player"] for r in rows] == ["A", "B", "C", "D"]
    assert all(r["games"] == 2 and {"player", "games", "decisions", "accuracy", "fair_loss"} <= set(r) for r in rows)
    assert all(r["fair_loss"] is None for r in rows)
    csv = cli("stats", "--csv", tmp_path).stdout.splitlines()
    assert csv[0].startswith("player,games,decisions") and len(csv) == 5
    table = cli("stats", tmp_path).stdout
    # the header, a row a player, and the note on the headings' scales after a blank line; then the
    # second table (luck and skill): a blank line, its header, a row a player, a blank line and its note
    assert "accuracy %" in table and table.count("\n") == 15 and "mistake+: mistakes and blunders" in table
    assert "error rate (95%)" in table.split("mistake+: mistakes and blunders")[1]


def test_json_and_csv_stay_parseable_when_a_file_cannot_be_read(tmp_path):
    # a binary file in the archive: its error line goes to standard error, never into the document
    shutil.copy(SEED2, tmp_path / "game.dom")
    (tmp_path / "broken.dom").write_bytes(b"\0\1binary\0")
    for args in (("stats", "--json"), ("analyze", "--json"), ("replay", "--json"),
                 ("analyze", "--json", "--fair", "--decision-deals", "5")):
        res = cli(*args, tmp_path)
        assert res.exit_code == 1, args
        assert json.loads(res.stdout), args
        assert "broken.dom" in res.stderr and "binary" in res.stderr, args
    res = cli("stats", "--csv", tmp_path)
    rows = list(csv_module.DictReader(io.StringIO(res.stdout)))
    assert [r["player"] for r in rows] == ["A", "B", "C", "D"]      # the four seats of seed2, nothing else
    assert "broken.dom" in res.stderr


def test_stats_csv_does_not_hand_a_spreadsheet_a_formula(tmp_path):
    # player names come from the records: a name a spreadsheet would run as a formula (=, +, -, @)
    # is written as text (a leading '), and quotes survive the CSV quoting
    names = ['=HYPERLINK("http://x")', "+1+1", "@SUM(1)", '-2 "q"']
    text = SEED2.read_text(encoding="utf-8").replace(
        '[Players "A, B, C, D"]', '[Players "%s"]' % ", ".join(n.replace('"', '\\"') for n in names))
    (tmp_path / "hostile.dom").write_text(text, encoding="utf-8")
    rows = list(csv_module.DictReader(io.StringIO(cli("stats", "--csv", tmp_path).stdout)))
    assert [r["player"] for r in rows] == ["'" + n for n in names]
    assert [r["player"] for r in json.loads(cli("stats", "--json", tmp_path).stdout)] == names


def test_stats_on_the_book_game_finds_c_s_blunder():
    """In the book's record C's [3-6] in round 5 loses the hand (the move the book marks *)."""
    rows = {r["player"]: r for r in json.loads(cli("stats", "--json", SEED1).stdout)}
    assert rows["C"]["mistakes_per_100"] > 0 and rows["C"]["accuracy"] < 100
    assert rows["A"]["errors_per_record"] >= 1        # the illegal [5-6] in round 7 is A's move


# ---- archive report ----------------------------------------------------------------------------------

@pytest.fixture
def archive_report(tmp_path, archive):
    out = tmp_path / "site"
    res = cli("report", archive, "-o", out)
    assert res.exit_code == 1 and "index.html" in res.output
    return out


def test_the_archive_report_has_a_page_per_record_and_an_index(archive_report):
    pages = sorted(p.name for p in archive_report.iterdir())
    assert "index.html" in pages and len(pages) == 1 + 3        # the three records that could be read
    index = (archive_report / "index.html").read_text(encoding="utf-8")
    assert "C [3-6]@6, move 18: loses" in index          # the critical move of the book's game
    assert "d-binary.dom" in index and "binary" in index


def test_the_index_sorts_and_fits_a_phone_in_chromium(archive_report, open_page):
    page, seen = open_page(archive_report / "index.html")
    rows = page.locator("#games tbody tr")
    assert rows.count() >= 6
    page.click("#games thead th:nth-child(6) button")          # Valid: invalid first
    assert page.locator("#games thead th:nth-child(6)").get_attribute("aria-sort") == "ascending"
    assert "error" in rows.nth(0).inner_text() and "valid" in rows.nth(rows.count() - 1).inner_text()
    page.click("#games thead th:nth-child(6) button")
    assert page.locator("#games thead th:nth-child(6)").get_attribute("aria-sort") == "descending"
    assert rows.nth(0).locator(".ok-badge").count() == 1
    href = page.locator("#games tbody tr a").first.get_attribute("href")
    assert (archive_report / href.split("#")[0]).exists()
    page.set_viewport_size({"width": 375, "height": 740})
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0 and seen.errors == []
    assert seen.requests == [(archive_report / "index.html").as_uri()]


# ---- conventions -----------------------------------------------------------------------------------

def test_python_m_analyzer_runs_the_cli_and_the_package_is_typed():
    out = subprocess.run([sys.executable, "-m", "analyzer", "validate", str(SEED2)], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0 and "valid" in out.stdout
    assert (ROOT / "analyzer" / "py.typed").exists()
    assert "py.typed" in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_the_readme_library_example_runs(monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = readme.split("## As a library", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})


def test_summary_counts():
    s = Summary()
    s.add({"error": None, "games": [{"valid": True, "diagnostics": []}]})
    s.add({"error": {"code": "binary", "severity": "error"}, "games": []})
    assert (s.records, s.valid, s.invalid, dict(s.codes)) == (2, 1, 1, {"binary": 1})
    assert str(s) == "2 records (1 game): 1 valid, 1 invalid; errors: binary 1"
    # a record the lost cluster did not work out (cluster.cluster_lost) is neither valid nor invalid
    s.add(cluster_lost("g.dom", "the Dask scheduler at tcp://h:8786 was lost mid-run"))
    assert (s.records, s.valid, s.invalid, s.incomplete, dict(s.codes)) == (3, 1, 1, 1, {"binary": 1})
    assert str(s) == "3 records (1 game): 1 valid, 1 invalid, 1 not worked out (the cluster was lost: run again); " \
                     "errors: binary 1"
    assert s.as_dict()["incomplete"] == 1


def test_the_index_escapes_what_comes_from_a_record(tmp_path):
    hostile = SEED2.read_text(encoding="utf-8").replace("[Event \"", "[Event \"<script>alert(1)</script>", 1)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "x.dom").write_text(hostile, encoding="utf-8")
    shutil.copy(SEED1, tmp_path / "in" / "y.txt")
    cli("report", tmp_path / "in", "-o", tmp_path / "out")
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)" in index and "<script>alert" not in index


def test_a_record_whose_file_name_is_not_utf8_gets_its_page(tmp_path):
    # an archive copied from an old machine: a file name in Latin-1 (b"caf\xe9.dom") is still a record
    folder = tmp_path / "in"
    folder.mkdir()
    try:
        with open(os.path.join(os.fsencode(folder), b"caf\xe9.dom"), "wb") as fh:
            fh.write(SEED2.read_bytes())
    except OSError:
        pytest.skip("this file system takes UTF-8 names only")
    res = cli("report", folder, "-o", tmp_path / "out")
    assert res.exit_code == 0, res.output
    pages = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert len(pages) == 2 and "index.html" in pages
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    page = next(p for p in pages if p != "index.html")
    assert f'href="{page}"' in index
    assert "INTERNATIONAL DOMINOES" in (tmp_path / "out" / page).read_text(encoding="utf-8")


def test_a_record_named_index_keeps_its_page_beside_the_archive_s_index(tmp_path):
    """Nothing is lost: a record called ``index`` (or ``INDEX``, where case does not count) gets a page of
    its own, and the index links to it."""
    (tmp_path / "in").mkdir()
    shutil.copy(SEED2, tmp_path / "in" / "index")
    shutil.copy(SEED2, tmp_path / "in" / "INDEX.dom")
    shutil.copy(SEED1, tmp_path / "in" / "y.txt")
    assert page_names(["index", "INDEX", "a.dom", "A.dom"]) == ["index-2.html", "INDEX-3.html", "a.dom.html",
                                                                 "A.dom-2.html"]
    cli("report", tmp_path / "in" / "index", tmp_path / "in" / "INDEX.dom", tmp_path / "in" / "y.txt",
        "-o", tmp_path / "out")
    pages = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert len(pages) == 1 + 3 and "index.html" in pages
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    for page in pages:
        if page != "index.html":
            assert f'href="{page}"' in index
            assert "INTERNATIONAL DOMINOES" in (tmp_path / "out" / page).read_text(encoding="utf-8")


def test_stats_with_the_fair_analysis_split_mistakes_into_real_and_hindsight_only():
    """The book's second line of play: every player's decisions judged by what he could know too."""
    path = str(RECORDS / "seed2-table.txt")
    plain = json.loads(CliRunner().invoke(main, ["stats", "--json", path]).stdout)
    assert all(row["fair_loss"] is None and row["real_mistakes_per_100"] is None for row in plain)
    fair = json.loads(CliRunner().invoke(main, ["stats", "--json", "--fair", "20", "--seed", "1", path]).stdout)
    assert {row["player"] for row in fair} == {"A", "B", "C", "D"}
    for row in fair:
        assert row["fair_loss"] is not None and row["fair_loss"] >= 0
        assert 0 <= row["real_mistakes_per_100"] <= 100 and 0 <= row["hindsight_mistakes_per_100"] <= 100


def test_stats_and_the_index_of_a_record_that_hides_a_hand_count_its_fair_decisions_only(tmp_path):
    """A's own log of a draw game (B's hand unseen): no decision has an open-hands value of its own; its
    open columns are the means over the deals the sheet allows, and the fair analysis judges A in his
    one hand and B over the hands he may have held. It once ended in an internal error (a decision's
    loss None summed), and so did the index page of a report with such a record."""
    path = str(RECORDS / "draw-one-view.dom")
    res = CliRunner().invoke(main, ["stats", "--json", "--fair", "20", "--seed", "1", path])
    assert res.exit_code == 0, res.output
    rows = {row["player"]: row for row in json.loads(res.stdout)}
    assert rows["A"]["decisions"] > 0 and rows["A"]["fair_loss"] is not None
    assert rows["A"]["open_loss"] is not None and rows["A"]["accuracy"] is not None
    assert rows["B"]["fair_loss"] is not None      # B's hand is not written: judged over the hands he may have held
    out = tmp_path / "pages"
    res = CliRunner().invoke(main, ["report", "--fair", "--decision-deals", "20", path, str(RECORDS / "variant-draw.dom"),
                                    "-o", str(out)])
    assert res.exit_code == 0 and "internal error" not in res.output, res.output
    assert "draw-one-view" in (out / "index.html").read_text(encoding="utf-8")


def test_the_progress_of_a_fair_analysis_counts_its_worlds_too():
    """With the fair analysis a record's moves count twice on the bar: once as the open-hands values
    are found, once more in step with the worlds solved (a French hand's take minutes), so the bar does
    not stand still at its end while the worlds are solved."""
    block7 = str(RECORDS / "variant-block7.dom")
    (plain,) = list(run(load([block7]), Options("analyze")))
    moves = sum(g["moves"] for g in plain["games"])
    calls = []
    options = Options("analyze", fair_worlds=20, fair_exact_below=10, fair_seats=("A",))
    (result,) = list(run(load([block7]), options, progress=lambda n, done: calls.append((n, done is not None))))
    assert result["games"][0]["analysis"]["fair_seats"] == ["A"]
    assert sum(n for n, _ in calls) == 2 * moves
    assert sum(n for n, done in calls if not done) > moves      # the worlds' share came while they were solved
