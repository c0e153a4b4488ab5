"""Damaged caches of any kind are redone and replaced, and a file that cannot be kept leaves nothing behind (issue 55,
item 7 of what it must do); a record file too large to be one is that record's error, told before it is read
(item 6)."""
from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from analyzer import equity
from analyzer.archive import Execution, Cache, Options, load, run
from analyzer.cli import main
from analyzer.equity import CACHE_ENV, SOLVED_ON_LOAD, EquityTable, table_name, write_table
from analyzer.equity.race import solve_race
from analyzer.equity.table import state_key
from analyzer.notation import MAX_RECORD_BYTES, read
from conftest import HANG_SECONDS, RECORDS, ROOT
from test_equity_race import _small_hungarian, _state
from test_outputs_cli import _small_disk

SEED1, SEED2 = RECORDS / "seed1.dom", RECORDS / "seed2.dom"


# ---- the archive's cache: an entry of any kind in the way ----------------------------------------------------------

def _entry(cache: Cache, source) -> str:
    source = source.read()
    return cache._path(Cache.key(source.data, Options("validate").key(), source.label))


def test_a_cache_entry_of_any_kind_is_redone_and_replaced_and_caching_goes_on(tmp_path):
    archive = tmp_path / "archive"
    archive.mkdir()
    for k in range(4):
        shutil.copy(SEED1 if k % 2 else SEED2, archive / f"g{k}.dom")
    outside = tmp_path / "outside.json"
    outside.write_text('{"not": "an entry"}')
    sources = load([str(archive)])
    plain = list(run(sources, Options("validate")))
    cache = Cache(tmp_path / "cache")
    assert list(run(sources, Options("validate"), Execution(cache=cache))) == plain
    paths = [_entry(cache, s) for s in sources]
    # damage every entry in its own way: a folder (with a file in it), a FIFO (reading it would block), a link to
    # a file outside the cache, and a file where the entry's folder belongs
    for k, path in enumerate(paths):
        os.unlink(path)
    os.makedirs(os.path.join(paths[0], "inside"))
    os.mkfifo(paths[1])
    os.symlink(outside, paths[2])
    folder = os.path.dirname(paths[3])
    shutil.rmtree(folder)
    with open(folder, "w") as fh:
        fh.write("in the way")
    warned, counts = [], {}
    again = Cache(tmp_path / "cache", warn=warned.append)
    assert list(run(sources, Options("validate"), Execution(cache=again), counts=counts)) == plain
    assert counts["computed"] == 4 and counts["cached"] == 0        # none served
    assert again.broken is None and warned == []                   # caching not switched off
    assert all(os.path.isfile(p) and not os.path.islink(p) for p in paths)
    assert outside.read_text() == '{"not": "an entry"}'             # the link's target untouched
    counts = {}
    assert list(run(sources, Options("validate"), Execution(cache=Cache(tmp_path / "cache")), counts=counts)) == plain
    assert counts["cached"] == 4 and counts["computed"] == 0        # each replaced by a whole entry
    assert not list((tmp_path / "cache").rglob("*.tmp"))


# ---- a race's kept table -------------------------------------------------------------------------------------------

def _race_table(tmp_path):
    v, model = _small_hungarian()
    want = solve_race(v, model)
    write_table(EquityTable(v, model, want, {"values": SOLVED_ON_LOAD}), str(tmp_path / "t.mwc"))
    positions = [(state_key(v, _state(s)), ("any",)) for s in [(0, 0, 0), (29, 12, 5), (30, 30, 0)]]
    return v, (tmp_path / "t.mwc").read_bytes(), positions, [want[p] for p in positions]


def test_a_kept_race_that_is_a_folder_is_solved_and_replaced(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))
    v, raw, positions, want = _race_table(tmp_path)
    assert [EquityTable.from_packed(v, raw).values[p] for p in positions] == want
    (kept,) = cache.glob("*.race")
    kept.unlink()
    (kept / "inside").mkdir(parents=True)              # a folder under the kept file's name
    assert [EquityTable.from_packed(v, raw).values[p] for p in positions] == want
    assert kept.is_file() and not list(cache.glob("*.part"))

    def no_solving(*args, **kwargs):
        raise AssertionError("solved again")
    monkeypatch.setattr(equity, "solve_race", no_solving)
    assert [EquityTable.from_packed(v, raw).values[p] for p in positions] == want     # read back, not solved


def test_a_race_that_cannot_be_kept_leaves_no_part_file(tmp_path, monkeypatch):
    v, raw, positions, want = _race_table(tmp_path)
    with _small_disk(tmp_path / "disk", 64) as disk:       # a real full disk where a tmpfs can be mounted
        if disk is None:                             # elsewhere: the table's data never reach the disk
            disk = tmp_path / "disk"

            def full(fd):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            monkeypatch.setattr(os, "fsync", full)
        monkeypatch.setenv(CACHE_ENV, str(disk / "cache"))
        assert [EquityTable.from_packed(v, raw).values[p] for p in positions] == want
        left = sorted(p.name for p in (disk / "cache").iterdir())
        assert left == [], left                      # no .part, no half a table, no lock


# ---- a record file too large to be one ----------------------------------------------------------------------------

def test_a_3_gb_sparse_record_is_called_too_large_at_once_and_the_rest_is_done(tmp_path):
    # a 3 GB file read whole took 41 s and 3.2 GB of memory to be called binary: its size says enough
    huge = tmp_path / "huge.dom"
    with open(huge, "wb") as fh:
        fh.truncate(3 * 2**30)
    dump = tmp_path / "dump.txt"
    dump.write_bytes((b"x" * 79 + b"\n") * (MAX_RECORD_BYTES // 80 + 1))     # text, just over 4 MB
    shutil.copy(SEED2, tmp_path / "valid.dom")
    done = subprocess.run([sys.executable, "-c", "import resource, runpy, sys; "
                           "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "      # 1 GB: no 3 GB read
                           "sys.argv = ['domino', 'validate', sys.argv[1]]; runpy.run_module('analyzer', "
                           "run_name='__main__')", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=HANG_SECONDS)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    lines = done.stdout.splitlines()
    assert f"{huge}: error[unreadable] cannot read the file: the file is 3.0 GB, more than the 4.0 MB a record " \
           "file may have" in lines
    assert any(line.startswith(f"{dump}: error[unreadable] cannot read the file: the file is 4.0 MB")
               for line in lines), lines
    assert any(line.startswith(f"{tmp_path / 'valid.dom'}: game 1") and line.endswith("valid") for line in lines)
    assert lines[-1].startswith("3 records (1 game): 1 valid, 2 invalid")
    # --max-size raises the limit: the dump is read (and is no record)
    res = CliRunner().invoke(main, ["validate", "--max-size", "5", str(dump)])
    assert res.exit_code == 1 and "unreadable" not in res.output and "more than" not in res.output
    # the library's reader and standard input keep the same limit
    (problem,) = read(huge).errors
    assert problem.code == "unreadable" and "3.0 GB" in problem.message
    res = CliRunner().invoke(main, ["validate", "-"], input=dump.read_bytes())
    assert res.exit_code == 1 and "<stdin>: error[unreadable] cannot read the file: the file holds more than the " \
                                  "4.0 MB a record file may have" in res.output


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_large_dump_in_an_archive_folder_is_its_own_error(tmp_path, jobs):
    (tmp_path / "a.dom").write_bytes(SEED2.read_bytes())
    with open(tmp_path / "b-dump.txt", "wb") as fh:
        fh.truncate(50 * 2**20)
    (tmp_path / "c.dom").write_bytes(SEED2.read_bytes())
    res = CliRunner().invoke(main, ["validate", "--jsonl", "--jobs", jobs, str(tmp_path)])
    import json
    results = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["source"] for r in results] == [str(tmp_path / n) for n in ("a.dom", "b-dump.txt", "c.dom")]
    assert results[1]["error"]["code"] == "unreadable" and "50.0 MB" in results[1]["error"]["text"]
    assert [g["valid"] for r in (results[0], results[2]) for g in r["games"]] == [True, True]
