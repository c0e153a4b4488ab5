"""Files written whole or not at all (analyzer.outputs): a failure mid-way leaves the old file as it was,
no partial file beside it, and an error that names the file."""
import errno
import os

import pytest

from analyzer.outputs import OutputError, write_atomic


def test_a_new_file_is_written_with_the_umask_mode(tmp_path):
    target = tmp_path / "page.html"
    write_atomic(target, "<p>ä</p>")
    assert target.read_text(encoding="utf-8") == "<p>ä</p>"
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask
    assert os.listdir(tmp_path) == ["page.html"]


def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "game.dom"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new" and target.stat().st_mode & 0o777 == 0o640


def test_a_failure_mid_way_leaves_the_old_file_and_nothing_else(tmp_path, monkeypatch):
    target = tmp_path / "page.html"
    target.write_text("the good old page")

    def full_disk(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OutputError) as caught:
        write_atomic(target, "x" * 100_000)
    assert str(target) in str(caught.value) and "No space left on device" in str(caught.value)
    assert caught.value.errno == errno.ENOSPC
    assert target.read_text() == "the good old page"
    assert os.listdir(tmp_path) == ["page.html"]


def test_missing_folders_are_made_only_when_asked(tmp_path):
    with pytest.raises(OutputError):
        write_atomic(tmp_path / "site" / "index.html", "x")
    write_atomic(tmp_path / "site" / "index.html", "x", make_folder=True)
    assert (tmp_path / "site" / "index.html").read_text() == "x"
