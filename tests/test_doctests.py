"""The library's doors (reading a record, replaying it, analysing it, writing its results as data) each lead with a
runnable example in their docstrings; the examples run here, as the reader would run them."""
from __future__ import annotations

import doctest
import importlib

import pytest

DOORS = {"analyzer.notation.reader": "parse", "analyzer.match": "replay_record", "analyzer.analysis": "analyze",
         "analyzer.codec": "to_data"}


@pytest.mark.parametrize("module, door", DOORS.items())
def test_each_door_of_the_library_runs_its_example(module, door):
    mod = importlib.import_module(module)
    finder = doctest.DocTestFinder()
    tests = {t.name.rsplit(".", 1)[-1]: t for t in finder.find(mod) if t.examples}
    assert door in tests, f"{module}.{door} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests.values():
        runner.run(test)
    assert runner.failures == 0 and runner.tries >= 3
