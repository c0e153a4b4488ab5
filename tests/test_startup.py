"""Start-up: a command loads what its work needs, not the code of other commands (each module a process loads
costs its start-up; bench/bench_startup.py measures the whole against `python3 -c "import click, lark"`)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import RECORDS, ROOT

# run a command as `domino` runs it, then list the modules the process loaded
PROBE = """
import json, sys
from analyzer.cli import main
try:
    main(sys.argv[1:], prog_name="domino")
except SystemExit:
    pass
print("\\nMODULES " + json.dumps(sorted(sys.modules)))
"""

# what validate and analyze of one record never need: the cluster, the pool (a single record is worked out
# in the process), the per-player summary, a table's rewrite, the reports' templates
NOT_FOR_ONE_RECORD = ("analyzer.archive.cluster", "analyzer.archive.stats", "concurrent.futures", "difflib",
                      "jinja2", "multiprocessing")


def loaded(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True, text=True)
    assert "Traceback" not in done.stderr, done.stderr
    return set(json.loads(done.stdout.rsplit("\nMODULES ", 1)[1]))


@pytest.mark.parametrize("command", [["validate"], ["analyze", "--jobs", "2"]])
def test_one_record_loads_no_cluster_pool_or_summary(command):
    modules = loaded(*command, str(RECORDS / "seed2.dom"))
    assert "analyzer.pipeline" in modules           # (the probe ran the command)
    assert not {m for m in modules if m in NOT_FOR_ONE_RECORD}


def test_version_loads_none_of_the_work():
    modules = loaded("--version")
    assert not {m for m in modules if m.startswith(("analyzer.pipeline", "analyzer.notation", "lark"))}
