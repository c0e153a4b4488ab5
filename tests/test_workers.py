"""Worker processes are started safely in a process that runs threads (issue 55, item 8 of what it must do): forked
only where no other thread is alive, else by a fork server; the results the same either way."""
from __future__ import annotations

import random
import subprocess
import sys
import threading
from concurrent.futures import ProcessPoolExecutor

import pytest

from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.archive import Execution, Options, load, run
from analyzer.archive import runner as runner_module
from analyzer.replay import replay
from analyzer.workers import fork_is_safe, pool_context
from analyzer.codec import to_data
from conftest import HANG_SECONDS, RECORDS, ROOT
from test_inference import random_record, small


@pytest.fixture
def a_thread():
    """Another thread alive in this process while the test runs (as in a program that embeds the library)."""
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, name="another-thread", daemon=True)
    thread.start()
    yield thread
    stop.set()
    thread.join()


def test_workers_are_forked_only_where_no_other_thread_runs(a_thread):
    assert not fork_is_safe() and pool_context().get_start_method() == "forkserver"
    # a process of its own, before and after it starts a thread
    code = ("import threading, time; from analyzer.workers import pool_context as p; a = p().get_start_method(); "
            "e = threading.Event(); t = threading.Thread(target=e.wait); t.start(); b = p().get_start_method(); "
            "e.set(); t.join()\n"
            "while p().get_start_method() != 'fork': time.sleep(0.01)\n"     # (the system's thread ends after join)
            "print(a, b, 'fork')")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=HANG_SECONDS)
    assert done.stdout.split() == ["fork", "forkserver", "fork"], done.stderr


def test_the_fair_analysis_gives_the_same_run_with_a_thread_alive(a_thread):
    variant = small("partnership", 3, 4)
    rep = replay(random_record(variant, random.Random(11)), variant)
    one = to_data(fair_analyze(rep, settings=FairSettings(worlds=20, exact_below=1, seed=3), run=FairRun(workers=1)))
    methods = []

    def pool(**kwargs):
        methods.append(kwargs["mp_context"].get_start_method())
        return ProcessPoolExecutor(**kwargs)
    rep = replay(rep.game, variant)
    two = to_data(fair_analyze(rep, settings=FairSettings(worlds=20, exact_below=1, seed=3),
                       run=FairRun(workers=2, pool=pool)))
    assert methods and set(methods) == {"forkserver"}        # the worlds solved in workers not forked
    assert one == two


def test_an_archive_s_workers_give_the_same_results_with_a_thread_alive(a_thread, monkeypatch):
    sources = load([str(RECORDS / "seed1.dom"), str(RECORDS / "seed2.dom"), str(RECORDS / "errors.dom")])
    here = list(run(sources, Options("analyze")))
    made = []
    real = runner_module.worker_pool

    def watched(*args, **kwargs):
        made.append(pool := real(*args, **kwargs))
        return pool
    monkeypatch.setattr(runner_module, "worker_pool", watched)
    assert list(run(sources, Options("analyze"), Execution(jobs=2))) == here
    assert made and all(p._mp_context.get_start_method() == "forkserver" for p in made)


@pytest.mark.parametrize("worlds", [8, 24])
def test_the_fair_analysis_sends_no_search_to_its_workers(a_thread, worlds):
    """Issue 72: the bundled All Fives problem at ``--decision-deals 8 -j 2`` was internal error "cannot pickle
    DrawSearch": a first round solved here kept its search in the job a fork server's workers are sent."""
    from click.testing import CliRunner

    from analyzer.cli import main

    res = CliRunner().invoke(main, ["analyze", "--fair", "--decision-deals", str(worlds), "-j", "2",
                                    str(ROOT / "docs" / "problems" / "3-all-fives.dom")])
    assert res.exit_code == 0 and "internal" not in res.output and "fair (" in res.output, res.output
    assert "1 record (1 game): 1 valid, 0 invalid" in res.output
