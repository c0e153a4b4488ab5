"""`domino COMMAND --help` gives, for every command, one example of its most common use (issue 52): a
line of the help that starts with `domino `, naming options the command has, and that runs on the
bundled records (exit 0, or 1 where the example is a record with errors; never 2, a usage error)."""
import os
import shlex
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from analyzer.cli import COMMANDS, main
from conftest import ROOT


def _example(name: str) -> str:
    text = CliRunner().invoke(main, [name, "--help"]).output
    (line,) = [line.strip() for line in text.splitlines() if line.strip().startswith("domino ")]
    return line


@pytest.mark.parametrize("name", COMMANDS)
def test_each_commands_help_has_one_example_of_itself(name):
    words = shlex.split(_example(name))
    assert words[:2] == ["domino", name]
    options = {o for p in main.commands[name].params for o in getattr(p, "opts", [])}
    assert all(w.split("=")[0] in options for w in words[2:] if w.startswith("-")), words
    assert all((ROOT / w).exists() for w in words[2:] if w.startswith("records/")), words


@pytest.mark.slow                   # (a process each, some seconds: equity's table, stats' analyses)
@pytest.mark.parametrize("name", [name for name in COMMANDS if name != "serve"])
def test_each_example_runs_on_the_bundled_records(name, tmp_path):
    shutil.copytree(ROOT / "records", tmp_path / "records")
    words = shlex.split(_example(name))
    done = subprocess.run([sys.executable, "-m", "analyzer", *words[1:]], cwd=tmp_path, capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=600)
    invalid = name == "validate"            # (its example is the book's table with a dropped row)
    assert done.returncode == (1 if invalid else 0), done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr
