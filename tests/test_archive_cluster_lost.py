"""An archive on a Dask cluster that goes away mid-run: the scheduler's process killed, or every worker
gone. A real scheduler and worker run as processes of their own; the worker (tests/cluster_hold.py)
works out a known number of records and holds the next one, so the cluster is taken away while
records are in flight and others are not sent yet, whatever order the cluster runs them in."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import pytest

from analyzer.archive import Execution, Cache, Options, load, run
from analyzer.archive.cluster import ClusterUnavailable
from analyzer.archive.runner import process
from conftest import HANG_SECONDS, ROOT
from test_archive import SEED1, SEED2

pytest.importorskip("distributed")

RECORDS = 12                # more than one worker thread's window (4): some are never sent
DONE = 3                    # the worker works out this many, then holds every further one


def _until(condition, what: str, seconds: float = HANG_SECONDS) -> None:
    """Wait for ``condition()`` (bounded: a run that never gets there fails the test)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.05)


def _within(seconds: float, work):
    """Start ``work()`` beside the test; the function returned gives its result (or raises its error),
    and fails the test if it is still at work ``seconds`` after the start (a run that hangs)."""
    out = {}

    def target():
        try:
            out["result"] = work()
        except BaseException as exc:        # handed to the test
            out["error"] = exc
    thread = threading.Thread(target=target, daemon=True)
    thread.start()

    def result():
        thread.join(timeout=seconds)
        assert not thread.is_alive(), f"still at work after {seconds} s: it hangs"
        if "error" in out:
            raise out["error"]
        return out["result"]
    return result


def _archive(folder) -> list[str]:
    folder.mkdir()
    for k in range(RECORDS):
        shutil.copy(SEED2 if k % 3 else SEED1, folder / f"g{k:02d}.dom")
    return sorted(str(p) for p in folder.iterdir())


def _start(args, log, env=None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", *args], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


@contextmanager
def cluster(tmp_path, worker: bool = True):
    """A scheduler (and a worker of one thread that holds every record after the first DONE) on this
    machine; yields (address, scheduler, worker), and ends both whatever happened."""
    hold = tmp_path / "hold"
    hold.mkdir()
    info = tmp_path / "scheduler.json"
    log = open(tmp_path / "cluster.log", "wb")
    procs = [_start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(info)], log)]
    try:
        _until(lambda: info.exists() and info.stat().st_size, "the scheduler to start")
        address = json.loads(info.read_text())["address"]
        if worker:
            procs.append(_start(["distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny",
                                 "--no-dashboard", "--death-timeout", "20", "--preload",
                                 str(ROOT / "tests" / "cluster_hold.py")], log,
                                {"HOLD_DIR": str(hold), "HOLD_AFTER": str(DONE)}))
            import distributed
            with distributed.Client(address, timeout=f"{HANG_SECONDS}s") as client:  # joined (tests may wait less)
                client.wait_for_workers(1, timeout=HANG_SECONDS)
        yield address, procs[0], procs[1] if worker else None
    finally:
        (hold / "release").touch()
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        log.close()


def _holding(tmp_path, cache_dir):
    """True once the worker has worked out DONE records, this run holds all DONE results (each is cached
    as soon as it arrives) and the next record is in flight."""
    return lambda: (tmp_path / "hold" / "holding").exists() and cache_dir.exists() \
        and sum(1 for _ in cache_dir.rglob("*.json")) == DONE


def _lost(line: str, address: str, why: str) -> bool:
    return "error[cluster-lost] not worked out" in line and address in line and why in line


def test_a_scheduler_killed_mid_run_keeps_what_was_done_and_names_each_record_not_done(tmp_path):
    paths = _archive(tmp_path / "archive")
    local = subprocess.run([sys.executable, "-m", "analyzer", "validate", "--jsonl", *paths], cwd=ROOT,
                           capture_output=True, text=True, timeout=HANG_SECONDS).stdout.splitlines()
    cache_dir = tmp_path / "cache"
    # it does not wait for the scheduler to come back: its waits are set longer than the test waits (a run
    # that ends by one fails as a hang), and each record not done says the scheduler was lost (below)
    wait = {"DOMINO_WORKER_WAIT": str(2 * HANG_SECONDS)}
    with cluster(tmp_path) as (address, scheduler, _worker):
        domino = subprocess.Popen([sys.executable, "-m", "analyzer", "validate", "--jsonl", "--cache",
                                   str(cache_dir), "--scheduler", address, *paths], cwd=ROOT, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **wait})
        try:
            _until(_holding(tmp_path, cache_dir), "the worker to hold a record")
            scheduler.send_signal(signal.SIGKILL)             # the scheduler dies with records in flight
            out, err = domino.communicate(timeout=HANG_SECONDS)
        finally:
            if domino.poll() is None:
                domino.kill()
                domino.wait()
    assert domino.returncode == 3, err                       # incomplete: not 0 (all valid) nor 1 (invalid)
    assert "Traceback" not in err and "internal error" not in err and "ERROR" not in err, err
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["source"] for r in results] == paths           # every record, in input order
    kept = [line for line, r in zip(out.splitlines(), results) if r["error"] is None]
    lost = [r for r in results if r["error"] is not None]
    assert len(kept) == DONE and set(kept) <= set(local)     # what was done before the loss, as a local run
    assert len(lost) == RECORDS - DONE
    for r in lost:                                           # in flight and never sent alike: each its own line
        assert r["games"] == [] and _lost(r["error"]["text"], address, "was lost mid-run")
        assert r["error"]["text"].startswith(r["source"] + ": ")
    valid = sum(all(g["valid"] for g in r["games"]) for r in results if r["error"] is None)   # seed1 breaks a rule
    assert err.splitlines()[-1].startswith(f"{RECORDS} records ({DONE} games): {valid} valid, {DONE - valid} invalid, "
                                           f"{RECORDS - DONE} not worked out (the cluster was lost: run again)")
    # the cache holds what was done, not the losses: a re-run (here, without the cluster) finishes the rest
    assert sum(1 for _ in cache_dir.rglob("*.json")) == DONE
    counts = {}
    again = list(run(load(paths), Options(), Execution(cache=Cache(cache_dir)), counts=counts))
    assert counts == {"cached": DONE, "computed": RECORDS - DONE, "lost": 0}
    assert [json.dumps(r) for r in again] == local


@pytest.mark.parametrize("gone", ["every worker", pytest.param("the scheduler frozen", marks=pytest.mark.slow)])
def test_a_cluster_without_workers_or_answers_mid_run_ends_the_run_in_bounded_time(tmp_path, monkeypatch, gone):
    # the scheduler stays, but no worker is left (none restarts it, or none can reach it); or the
    # scheduler's process stops answering (frozen, its machine swapping): its connection stays open
    import analyzer.archive.cluster as cluster_module
    monkeypatch.setattr(cluster_module, "WORKER_WAIT", 3.0)
    paths = _archive(tmp_path / "archive")
    cache_dir = tmp_path / "cache"
    counts = {}
    with cluster(tmp_path) as (address, scheduler, worker):
        work = _within(HANG_SECONDS, lambda: list(run(load(paths), Options(), Execution(scheduler=address, cache=Cache(cache_dir)), counts=counts)))
        _until(_holding(tmp_path, cache_dir), "the worker to hold a record")
        if gone == "every worker":
            worker.send_signal(signal.SIGKILL)
        else:
            scheduler.send_signal(signal.SIGSTOP)
        results = work()
    assert [r["source"] for r in results] == paths
    assert counts == {"cached": 0, "computed": DONE, "lost": RECORDS - DONE}
    expected = {r["source"]: r for r in run(load(paths), Options())}
    for r in results:
        assert r == expected[r["source"]] or _lost(r["error"]["text"], address, "has had no worker for 3 s"
                                                   if gone == "every worker" else "has not answered for 3 s")


def test_a_scheduler_without_workers_is_a_clean_error_in_bounded_time(tmp_path, monkeypatch):
    import analyzer.archive.cluster as cluster_module
    from click.testing import CliRunner

    from analyzer.cli import main
    monkeypatch.setenv(cluster_module.WAIT_ENV, "2")         # (as a user sets it)
    with cluster(tmp_path, worker=False) as (address, _scheduler, _worker):
        with pytest.raises(ClusterUnavailable, match=r"has no worker \(none joined in 2 s\)"):   # its bound, not ours
            _within(HANG_SECONDS, lambda: list(run(load([str(SEED2)]), Options(), Execution(scheduler=address))))()
        res = CliRunner().invoke(main, ["validate", "--scheduler", address, str(SEED2)])
    assert res.exit_code == 1 and f"the Dask scheduler at {address} has no worker (none joined in 2 s)" in res.output
    assert "Traceback" not in res.output and "game 1" not in res.output


@pytest.mark.parametrize("setting", ["soon", "0", "-5", "inf", "nan"])
def test_a_bad_worker_wait_setting_is_an_error_before_any_work(monkeypatch, setting):
    from click.testing import CliRunner

    from analyzer.archive.cluster import WAIT_ENV
    from analyzer.cli import main
    monkeypatch.setenv(WAIT_ENV, setting)
    res = CliRunner().invoke(main, ["validate", "--scheduler", "tcp://127.0.0.1:9", str(SEED2)])
    assert res.exit_code == 1 and f"{WAIT_ENV}='{setting}'" in res.output and "a number above 0" in res.output
    assert "Traceback" not in res.output and "game 1" not in res.output


class _Frozen:
    """A client whose scheduler never answers: each call gives up after the ``callback_timeout`` it is
    given (as Dask's calls do), and one without a bound would wait for good (here: fails the test)."""

    def __init__(self):
        self.bounds = []

    def _call(self, callback_timeout=None):
        assert callback_timeout is not None, "a call to a frozen scheduler without a time limit waits for good"
        self.bounds.append(callback_timeout)
        raise TimeoutError

    def run(self, function, callback_timeout=None):
        self._call(callback_timeout)

    def nthreads(self, callback_timeout=None):
        self._call(callback_timeout)


def test_the_start_up_calls_to_a_frozen_scheduler_are_bounded_too(monkeypatch):
    import analyzer.archive.cluster as cluster_module
    monkeypatch.setenv(cluster_module.WAIT_ENV, "2")
    client = _Frozen()
    with pytest.raises(ClusterUnavailable, match="tcp://h:8786 has not answered for 2 s"):
        cluster_module._same_code(client, "tcp://h:8786")           # the workers' code checked
    with pytest.raises(ClusterUnavailable, match="tcp://h:8786 has not answered for 2 s"):
        next(cluster_module._on_client(client, "tcp://h:8786", None, iter(()), None, 4))   # the window sized
    assert client.bounds == [2.0, 2.0]


def _fails_on_poison(label, data, options, progress=None):
    """The task, except that it fails outright (outside the analyser's own guard) on a record holding POISON."""
    if b"POISON" in data:
        raise RuntimeError("cannot carry this record")
    return process(label, data, options, progress)


def test_a_task_that_fails_on_its_worker_costs_only_its_record_not_the_cluster(tmp_path, monkeypatch):
    # a task's own failure is not a lost cluster: that record's internal-error, and every other is done
    import distributed

    import analyzer.archive.cluster as cluster_module
    paths = _archive(tmp_path / "archive")
    poison = tmp_path / "archive" / "g05-poison.dom"
    poison.write_text(SEED2.read_text(encoding="utf-8") + "\n{POISON}\n", encoding="utf-8")
    sources = load([str(tmp_path / "archive")])
    expected = list(run(sources, Options()))
    monkeypatch.setattr(cluster_module, "process", _fails_on_poison)
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1, dashboard_address=None,
                                  protocol="tcp://", host="127.0.0.1") as local:
        counts = {}
        results = _within(HANG_SECONDS, lambda: list(run(sources, Options(), Execution(scheduler=local.scheduler_address), counts=counts)))()
    assert [r["source"] for r in results] == sorted([*paths, str(poison)])
    for want, got in zip(expected, results):
        if got["source"] == str(poison):
            assert got["error"]["code"] == "internal-error" and "cannot carry this record" in got["error"]["text"]
            assert got["error"]["text"].startswith(f"{poison}: ") and "Dask worker" in got["error"]["text"]
        else:
            assert got == want
    assert counts["lost"] == 0


def test_a_scheduler_lost_before_any_work_is_said_so_not_taken_for_other_code(monkeypatch):
    # the scheduler going away while the run checks the workers' code is not "the workers run other code"
    import distributed
    from distributed.comm import CommClosedError

    def lost(*_args, **_kwargs):
        raise CommClosedError("in <TCP (closed) ConnectionPool.broadcast>: Stream is closed")
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1, dashboard_address=None,
                                  protocol="tcp://", host="127.0.0.1") as local:
        monkeypatch.setattr(distributed.Client, "run", lost)
        with pytest.raises(ClusterUnavailable) as error:
            list(run(load([str(SEED2)]), Options(), Execution(scheduler=local.scheduler_address)))
    assert str(error.value) == f"lost the Dask scheduler at {local.scheduler_address} before any work: " \
                               "CommClosedError: in <TCP (closed) ConnectionPool.broadcast>: Stream is closed"
