"""The record parser's built tables are kept in the user's cache folder (``$DOMINO_CACHE``), never in the
shared temporary folder, where another local user could leave a pickle for this one to load; where that
folder cannot be made, nothing is kept and records are read all the same."""
from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT

READ = "from analyzer.notation import parse; print(len(parse(open('records/seed2.dom').read()).games))"


def _read_with(cache: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DOMINO_CACHE": cache, "TMPDIR": os.path.join(cache, "tmp")}
    return subprocess.run([sys.executable, "-c", READ], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_the_parser_is_kept_in_the_users_cache_folder_not_the_temporary_one(tmp_path):
    (tmp_path / "tmp").mkdir()
    done = _read_with(str(tmp_path))
    assert done.returncode == 0 and done.stdout.strip() == "1", done.stderr
    kept = [p.name for p in tmp_path.iterdir() if p.is_file()]
    assert any(name.startswith("parser-py") for name in kept)
    assert list((tmp_path / "tmp").iterdir()) == []         # nothing in the temporary folder
    again = _read_with(str(tmp_path))                       # read back from the kept file
    assert again.returncode == 0 and again.stdout.strip() == "1" and again.stderr == ""


def test_a_cache_folder_that_cannot_be_made_keeps_nothing_and_reads_all_the_same(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    (tmp_path / "file-tmp").mkdir()
    env = {**os.environ, "DOMINO_CACHE": str(blocker / "domino"), "TMPDIR": str(tmp_path / "file-tmp")}
    done = subprocess.run([sys.executable, "-c", READ], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "1" and done.stderr == ""
    assert list((tmp_path / "file-tmp").iterdir()) == []
