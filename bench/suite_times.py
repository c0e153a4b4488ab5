"""A pytest plugin for bench/bench_suite.py: each test's wall time and CPU time, as one JSON line a test
in the file named by DOMINO_TEST_TIMES (nothing is written without it).

    DOMINO_TEST_TIMES=/tmp/times.jsonl PYTHONPATH=bench python3 -m pytest -p suite_times ...

The CPU time is this process's (``time.process_time``) plus that of the child processes the test waited
for (``os.times``: the commands it ran, the workers of a pool it closed), over set-up, call and tear-down.
It is the figure a loaded machine leaves alone; the wall time is what a user waits. A child counts when it
is reaped: the browser a module's tests share (Chromium) counts in the test whose tear-down ends it."""
from __future__ import annotations

import json
import os
import time

import pytest

TIMES_ENV = "DOMINO_TEST_TIMES"


def _children() -> float:
    times = os.times()
    return times.children_user + times.children_system


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    path = os.environ.get(TIMES_ENV)
    if not path:
        yield
        return
    wall, cpu, child = time.perf_counter(), time.process_time(), _children()
    yield
    row = {"test": item.nodeid, "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
           "children": _children() - child, "slow": item.get_closest_marker("slow") is not None}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")
