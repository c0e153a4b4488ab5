"""An archive survives its own odd parts: files that are no files (a FIFO would block the run), files
read only when their turn comes, a cache that cannot be written, a worker killed on a cluster or in
the pool of ``analyze --fair --jobs``."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys

import pytest
from click.testing import CliRunner

from analyzer.archive import Execution, Cache, InputError, Options, load, run
from analyzer.cli import main
from conftest import HANG_SECONDS, RECORDS, ROOT
from test_archive import SEED1, SEED2, _dies_on_poison, assert_workers_end_when_killed


def domino(*args, timeout: float = HANG_SECONDS) -> subprocess.CompletedProcess:
    """The command line in a process of its own (bounded: a run that blocks fails the test)."""
    return subprocess.run([sys.executable, "-m", "analyzer", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


# ---- files that are not regular files ------------------------------------------------------------------

def test_a_fifo_a_socket_or_a_device_is_that_file_s_error_and_the_rest_is_done(tmp_path):
    # a FIFO named *.dom used to block the run for good: nobody ever writes into it
    shutil.copy(SEED2, tmp_path / "a-valid.dom")
    os.mkfifo(tmp_path / "b-fifo.dom")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(tmp_path / "c-socket.dom"))
    try:
        for extra in ([], ["--jobs", "2"]):
            res = domino("validate", *extra, tmp_path, tmp_path / "b-fifo.dom", "/dev/null")
            assert res.returncode == 1 and "Traceback" not in res.stderr
            lines = res.stdout.splitlines()
            assert f"{tmp_path / 'b-fifo.dom'}: error[unreadable] cannot read the file: not a regular file " \
                   "but a FIFO (a named pipe)" in lines
            assert f"{tmp_path / 'c-socket.dom'}: error[unreadable] cannot read the file: not a regular file " \
                   "but a socket" in lines
            assert "/dev/null: error[unreadable] cannot read the file: not a regular file but a device" in lines
            assert any(line.startswith(f"{tmp_path / 'a-valid.dom'}: game 1") and line.endswith("valid")
                       for line in lines)
            assert lines[-1].startswith("4 records (1 game): 1 valid, 3 invalid")   # the FIFO named twice: once
    finally:
        listener.close()


# ---- reading when the turn comes ----------------------------------------------------------------------

@pytest.mark.parametrize("jobs", [1, 2])
def test_each_file_is_read_when_its_turn_comes(tmp_path, jobs):
    # an archive of thousands of records must not sit in memory whole before the first result: a file
    # changed or removed after the run began is read as it is when the work reaches it
    for k in range(6):
        shutil.copy(SEED2, tmp_path / f"g{k}.dom")
    sources = load([str(tmp_path)])
    (tmp_path / "g1.dom").unlink()                        # after load(): not read yet

    class ChangesTheLast:
        """The fifth file: when the run reads it, the sixth changes (the run has begun, its turn not come).
        In order, not by the clock: with two workers the results may come in any order."""

        def __init__(self, source):
            self.label, self.source = source.label, source

        def read(self):
            shutil.copy(SEED1, tmp_path / "g5.dom")
            return self.source.read()

    sources[4] = ChangesTheLast(sources[4])
    results = list(run(sources, Options(), Execution(jobs=jobs)))
    assert [r["source"] for r in results] == [str(tmp_path / f"g{k}.dom") for k in range(6)]
    assert results[1]["error"]["code"] == "unreadable" and results[1]["games"] == []
    assert [g["valid"] for r in results[2:5] for g in r["games"]] == [True] * 3
    assert [g["valid"] for g in results[5]["games"]] == [False]          # the book's table breaks the rules


def test_load_leaves_standard_input_read_and_a_missing_path_a_usage_error(tmp_path):
    import io
    (one,) = load(["-"], io.BytesIO(SEED2.read_bytes()))
    assert one.label == "<stdin>" and one.data == SEED2.read_bytes()
    with pytest.raises(InputError, match="no such file"):
        load([str(tmp_path / "nowhere.dom")])


# ---- a cache that cannot be written ------------------------------------------------------------------------

def test_a_cache_folder_that_cannot_be_made_is_a_usage_error_before_any_work(tmp_path):
    (tmp_path / "a-file").write_text("x")
    res = CliRunner().invoke(main, ["validate", "--cache", str(tmp_path / "a-file" / "cache"), str(SEED2)])
    assert res.exit_code == 2 and "--cache" in res.output and "cannot be made or written" in res.output
    assert "game 1" not in res.output and "Traceback" not in res.output


def test_a_cache_write_failing_mid_run_is_one_warning_and_the_run_goes_on(tmp_path, monkeypatch):
    import errno
    import tempfile

    import analyzer.archive.cache as cache_module
    for k in range(4):
        shutil.copy(SEED2 if k % 2 else SEED1, tmp_path / f"g{k}.dom")
    real, calls = tempfile.mkstemp, []

    def full_disk(*args, **kwargs):      # the disk fills after the first entry
        calls.append(args)
        if len(calls) > 2:               # the first call probes the folder, the second writes an entry
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)
    monkeypatch.setattr(cache_module.tempfile, "mkstemp", full_disk)
    cache_dir = tmp_path / "cache"
    res = CliRunner().invoke(main, ["validate", "--jsonl", "--cache", str(cache_dir), str(tmp_path / "g0.dom"),
                                    str(tmp_path / "g1.dom"), str(tmp_path / "g2.dom"), str(tmp_path / "g3.dom")])
    assert res.exit_code == 1 and (res.exception is None or isinstance(res.exception, SystemExit))
    assert [json.loads(line)["source"] for line in res.stdout.splitlines()] == \
        [str(tmp_path / f"g{k}.dom") for k in range(4)]
    warnings = [line for line in res.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "No space left on device" in warnings[0] and "without caching" in warnings[0]
    assert len(calls) == 3                               # no write tried after the failure
    assert not list(cache_dir.rglob("*.tmp"))            # nothing half-written left behind
    # the library: the cache says why, and a later put is a no-op
    monkeypatch.setattr(cache_module.tempfile, "mkstemp", real)
    cache = Cache(tmp_path / "other")
    monkeypatch.setattr(cache_module.tempfile, "mkstemp", full_disk)        # (past its second call: fails)
    cache.put("ab" * 32, {"x": 1})
    assert cache.broken is not None and "No space left" in cache.broken


# ---- a worker killed ------------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_record_that_kills_its_dask_workers_costs_only_itself(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    import dask

    import analyzer.archive.cluster as cluster_module
    for k in range(4):
        shutil.copy(SEED2 if k % 2 else SEED1, tmp_path / f"g{k}.dom")
    (tmp_path / "g2-poison.dom").write_text(SEED2.read_text(encoding="utf-8") + "\n{POISON}\n", encoding="utf-8")
    sources = load([str(tmp_path)])
    expected = list(run(sources, Options()))
    # a task is given up when its worker died (the default tries it four times): the records queued on
    # the worker the poison killed are given up with it, and each is tried again alone
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                     host="127.0.0.1") as cluster:
        monkeypatch.setattr(cluster_module, "process", _dies_on_poison)
        results = list(run(sources, Options(), Execution(scheduler=cluster.scheduler_address)))
    assert [r["source"] for r in results] == [s.label for s in sources]
    for want, got in zip(expected, results):
        if "poison" in got["source"]:
            assert got["error"]["code"] == "internal-error" and got["source"] in got["error"]["text"]
            assert "died" in got["error"]["text"]
        else:
            assert got == want


def _solve_or_die(task):
    """The fair analysis's solving of a part of a decision's worlds, except in a game whose Event
    says POISON: there its worker dies outright."""
    from analyzer.analysis import fair
    if "POISON" in (fair._JOB["rep"].game.tags.get("Event") or ""):
        os._exit(9)
    # (a forked worker inherits the test's _SOLVE; one started by a fork server, where the test process runs
    # threads, imports this module afresh and has the analyser's own)
    return (globals().get("_SOLVE") or fair._solve)(task)


def _poisoned(tmp_path):
    text = SEED2.read_text(encoding="utf-8")
    (tmp_path / "g1.dom").write_text(text, encoding="utf-8")
    (tmp_path / "g2-poison.dom").write_text(text.replace("example deal", "example deal POISON"), encoding="utf-8")
    (tmp_path / "g3.dom").write_text(text, encoding="utf-8")
    # a match whose second game kills the worker, after its first was done
    match = (RECORDS / "match-chiva-2-draw.dom").read_text(encoding="utf-8").split("[Event ")
    assert len(match) == 4
    match[2] = match[2].replace("highest double leads", "highest double leads POISON", 1)
    (tmp_path / "g4-match.dom").write_text("[Event ".join(match), encoding="utf-8")


def test_a_fair_worker_that_dies_costs_only_its_record(tmp_path, monkeypatch):
    global _SOLVE
    from analyzer.analysis import fair
    _poisoned(tmp_path)
    _SOLVE = fair._solve
    monkeypatch.setattr(fair, "_solve", _solve_or_die)    # the workers are given it (forked: they inherit it)
    res = CliRunner().invoke(main, ["analyze", "--fair", "--jobs", "2", "--decision-deals", "4", "--max-decision-deals", "4", "--exact-below", "1",
                                    "--jsonl", str(tmp_path)])
    assert res.exit_code == 1 and (res.exception is None or isinstance(res.exception, SystemExit))
    results = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["source"] for r in results] == [str(tmp_path / n) for n in ("g1.dom", "g2-poison.dom", "g3.dom",
                                                                         "g4-match.dom")]
    for poisoned in (results[1], results[3]):
        assert poisoned["error"]["code"] == "internal-error" and "worker process" in poisoned["error"]["text"] \
            and "died" in poisoned["error"]["text"] and poisoned["source"] in poisoned["error"]["text"]
    for r in (results[0], results[2]):
        analysis = r["games"][0]["analysis"]
        assert r["error"] is None and analysis["fair_seats"] == ["A", "B", "C", "D"]     # every hand is known
        assert analysis["decisions"] and all(d["fair"]["worlds"] == 4 for d in analysis["decisions"])
    # --quiet: each error line once
    quiet = CliRunner().invoke(main, ["analyze", "--fair", "--jobs", "2", "--decision-deals", "4", "--exact-below", "1",
                                      "--quiet", str(tmp_path / "g2-poison.dom"), str(tmp_path / "g3.dom")])
    assert quiet.exit_code == 1 and quiet.stdout.splitlines() == [results[1]["error"]["text"]]


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the workers in /proc")
def test_the_fair_workers_stop_when_the_run_is_killed(tmp_path):
    # analyze --fair --jobs solves its worlds in a pool of its own: killed outright, it leaves none behind
    for k in range(6):
        shutil.copy(SEED2, tmp_path / f"g{k}.dom")
    assert_workers_end_when_killed("analyze", "--fair", "--jobs", "2", "--decision-deals", "200", tmp_path)
