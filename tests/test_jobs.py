"""``--jobs``: by default the cores this process may use, ``--jobs 1`` one process, and the same results
whatever the count (records in a pool, the worlds of the fair analysis in one)."""
from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

import analyzer.archive.runner as runner
import analyzer.workers as workers
from analyzer.cli import main
from analyzer.workers import cores
import pinned
from conftest import ROOT

ARCHIVE = pinned.ARCHIVE
EXPECTED = json.loads(pinned.PINNED["analyze"].read_text(encoding="utf-8"))   # its analysis as main wrote it (--jobs 1)


def cli(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_cores_are_those_this_process_may_run_on(monkeypatch):
    monkeypatch.delenv("PYTHON_CPU_COUNT", raising=False)
    allowed = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert cores() == allowed
    monkeypatch.setenv("PYTHON_CPU_COUNT", "3")          # (Python 3.13's own knob, honoured on every version)
    assert cores() == 3
    monkeypatch.setenv("PYTHON_CPU_COUNT", "none of them")
    assert cores() == allowed


@pytest.mark.parametrize("given, expected", [([], 3), (["--jobs", "1"], 1), (["-j", "2"], 2)])
def test_jobs_default_to_the_cores(given, expected, monkeypatch):
    """Every command that runs records in parallel passes the cores (here 3, as PYTHON_CPU_COUNT says) to the
    runner unless told: validate, analyze, report and stats."""
    import analyzer.cli.output as output

    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PYTHON_CPU_COUNT", "3")
    asked = []

    def recording(inputs, options, execution, **kwargs):
        asked.append(execution.jobs)
        return iter(())
    monkeypatch.setattr(output, "run", recording)
    for command in (["validate"], ["analyze"], ["stats"], ["report", "-o", "out-not-written"]):
        cli(*command, "records/seed2.dom", *given)
    assert asked == [expected] * 4


def test_the_fair_analysis_solves_its_worlds_in_the_cores_by_default(monkeypatch):
    """``analyze --fair`` without ``--jobs``: its worlds in a pool of the cores (two here); with ``--jobs 1``
    in this process; the same document either way."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PYTHON_CPU_COUNT", "2")
    pools = []
    real = workers.worker_pool

    def counted(max_workers, **kwargs):
        pools.append(max_workers)
        return real(max_workers, **kwargs)
    monkeypatch.setattr(workers, "worker_pool", counted)
    fair = ["analyze", "records/seed2.dom", "--fair", "--decision-deals", "20", "--seat", "A", "--json"]
    default = cli(*fair)
    assert pools and set(pools) == {2}
    pools.clear()
    one = cli(*fair, "--jobs", "1")
    assert not pools
    assert default.exit_code == one.exit_code == 0
    assert default.stdout == one.stdout


@pytest.mark.parametrize("jobs", [["--jobs", "1"], ["--jobs", "2"], []])
def test_an_archive_is_analysed_alike_whatever_the_jobs(jobs, monkeypatch):
    """The generated archive's document is the one main wrote with ``--jobs 1``, in one process, in two and
    at the default (the cores: two here, as PYTHON_CPU_COUNT says on any machine)."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PYTHON_CPU_COUNT", "2")
    pooled = []
    real = runner._in_pool

    def watched(n, todo, options, exact=None):
        pooled.append(n)
        return real(n, todo, options, exact)
    monkeypatch.setattr(runner, "_in_pool", watched)
    result = cli("analyze", ARCHIVE, "--json", *jobs)
    assert pinned.differences(EXPECTED, json.loads(result.stdout)) == []
    assert pooled == ([] if jobs == ["--jobs", "1"] else [2])


@pytest.mark.slow
def test_the_bundled_records_are_validated_alike_whatever_the_jobs(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("PYTHON_CPU_COUNT", raising=False)      # (the machine's own default)
    one = cli("validate", "records", "--json", "--jobs", "1")
    assert one.exit_code == 1 and one.stdout.count('"file": ') >= len(list((ROOT / "records").iterdir()))
    assert cli("validate", "records", "--json", "--jobs", "2").stdout == one.stdout
    assert cli("validate", "records", "--json").stdout == one.stdout


def test_one_record_is_worked_out_here_whatever_the_jobs(monkeypatch):
    """A pool for a single record would cost its start-up for nothing: it is worked out in this process."""
    monkeypatch.chdir(ROOT)

    def no_pool(*_args):
        raise AssertionError("a pool for one record")
    monkeypatch.setattr(runner, "_in_pool", no_pool)
    result = cli("validate", "records/seed2.dom", "--jobs", "4")
    assert result.exit_code == 0 and "1 record (1 game): 1 valid" in result.output
