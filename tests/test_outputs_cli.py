"""Every file the commands write is written whole or not at all, and an existing file that is not the tool's own
output of the same kind is never replaced without --force (issue 55, items 1 and 2 of what it must do).

A full disk is a real one where this process may mount a small tmpfs (root); elsewhere a writer whose data never
reach the disk (``fsync`` fails with ENOSPC) stands in for it. Either way the file before and after is compared."""
from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import uuid

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.outputs import replaceable
from conftest import HANG_SECONDS, RECORDS, ROOT, wait_until

SEED1, SEED2 = RECORDS / "seed1.dom", RECORDS / "seed2.dom"     # seed1 breaks the rules (a slip); seed2 is valid
NO_SPACE = os.strerror(errno.ENOSPC)


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _whole_page(path) -> bool:
    text = path.read_text(encoding="utf-8")
    return text.rstrip().endswith("</html>") and replaceable(path, "page")


# ---- a file that is not the tool's own output is left as it is --------------------------------------------------

def test_no_command_replaces_a_file_that_is_not_its_own_output_without_force(tmp_path):
    other = tmp_path / "other.dom"
    shutil.copy(SEED2, other)
    page = tmp_path / "notes.html"
    page.write_text("<!doctype html><title>my own notes</title>\n", encoding="utf-8")
    picture = tmp_path / "picture.svg"
    picture.write_text('<svg xmlns="http://www.w3.org/2000/svg"><circle r="3"/></svg>\n', encoding="utf-8")
    data = tmp_path / "data.json"
    data.write_text('{"mine": 1}\n', encoding="utf-8")
    before = {p: p.read_bytes() for p in (other, page, picture, data)}
    refusals = (("analyze", "--graph", other, SEED2),               # the case: a record turned into GraphML
                ("analyze", "--graph", data, SEED2),
                ("validate", "--write-repaired", other, SEED1),
                ("report", SEED2, "-o", page),
                ("report", SEED2, "-o", other),
                ("diagram", SEED2, "-o", picture),
                ("equity", "--variant", "block", "-o", data))
    for args in refusals:
        res = cli(*args)
        assert res.exit_code == 2, (args, res.output)
        assert "exists and is not" in res.output and "--force" in res.output, args
        assert "Traceback" not in res.output and not any(line.startswith("wrote") for line in res.output.splitlines())
    assert {p: p.read_bytes() for p in before} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in before)
    # told to: each is replaced by the tool's output, which a later run may replace without being told
    for args in (("analyze", "--force", "--graph", other, SEED2), ("report", "--force", SEED2, "-o", page),
                 ("diagram", "--force", SEED2, "-o", picture)):
        res = cli(*args)
        assert res.exit_code == 0, (args, res.output)
    assert replaceable(other, "graph") and other.read_bytes().lstrip().startswith(b"<?xml")
    assert replaceable(page, "page") and replaceable(picture, "diagram")
    res = cli("validate", "--force", "--write-repaired", data, SEED1)
    assert res.exit_code == 1 and "wrote" in res.output           # (seed1 is invalid: its repair is written)
    assert b"[5-6]" in data.read_bytes() and not replaceable(data, "record")


def test_the_tool_replaces_its_own_output_of_the_same_kind_only(tmp_path):
    graphml, tree, page, svg = (tmp_path / n for n in ("tree.graphml", "tree.json", "page.html", "d.svg"))
    for _ in range(2):          # the second run replaces the first's files without --force
        assert cli("analyze", "--graph", graphml, SEED2).exit_code == 0
        assert cli("analyze", "--graph", tree, SEED2).exit_code == 0
        assert cli("report", SEED2, "-o", page).exit_code == 0
        assert cli("diagram", SEED2, "-o", svg, "--move", "3").exit_code == 0
    assert replaceable(graphml, "graph") and replaceable(tree, "graph")
    assert replaceable(page, "page") and replaceable(svg, "diagram")
    # an output of another kind is not this kind's: a page is no tree of lines, a tree no page
    for args in (("analyze", "--graph", page, SEED2), ("report", SEED2, "-o", tree), ("diagram", SEED2, "-o", page)):
        before = {p: p.read_bytes() for p in (graphml, tree, page, svg)}
        res = cli(*args)
        assert res.exit_code == 2 and "exists and is not" in res.output, args
        assert {p: p.read_bytes() for p in before} == before
    # an existing record is never the tool's own: a repaired record replaces nothing without --force
    repaired = tmp_path / "fixed.dom"
    assert cli("validate", "--write-repaired", repaired, SEED1).exit_code == 1 and repaired.exists()
    first = repaired.read_bytes()
    res = cli("validate", "--write-repaired", repaired, SEED1)
    assert res.exit_code == 2 and "--force" in res.output and repaired.read_bytes() == first


def test_the_pages_of_an_archive_are_checked_before_any_work(tmp_path):
    archive, site = tmp_path / "archive", tmp_path / "site"
    archive.mkdir()
    site.mkdir()
    shutil.copy(SEED1, archive / "a.dom")
    shutil.copy(SEED2, archive / "b.dom")
    (site / "b.dom.html").write_text("my page\n")
    res = cli("report", archive, "-o", site)
    assert res.exit_code == 2 and "b.dom.html" in res.output and "exists and is not" in res.output
    assert sorted(p.name for p in site.iterdir()) == ["b.dom.html"]         # no page, no index written
    assert (site / "b.dom.html").read_text() == "my page\n"
    assert cli("report", "--force", archive, "-o", site).exit_code == 1      # (a.dom is invalid)
    assert sorted(p.name for p in site.iterdir()) == ["a.dom.html", "b.dom.html", "index.html"]
    assert all(_whole_page(p) for p in site.iterdir())
    assert cli("report", archive, "-o", site).exit_code == 1                 # its own pages: replaced


# ---- a full disk -------------------------------------------------------------------------------------------------

@contextlib.contextmanager
def _small_disk(folder, size_kb: int):
    """A tmpfs of ``size_kb`` at ``folder`` (None: it cannot be mounted here)."""
    folder.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(folder)],
                              capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        done = None
    if done is None or done.returncode != 0:
        yield None
        return
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, timeout=30)


def _fill(folder, leave: int = 0) -> None:
    """Fill the disk of ``folder`` but ``leave`` bytes (its blocks counted as the file system does)."""
    stats = os.statvfs(folder)
    free = stats.f_bavail * stats.f_frsize
    with open(folder / ".filler", "wb") as fh:
        with contextlib.suppress(OSError):
            fh.write(b"\0" * max(0, free - leave))


@pytest.fixture
def disk(tmp_path, monkeypatch):
    """``(folder, fill)``: a folder whose disk ``fill(leave=N)`` fills but N bytes; where no tmpfs can be mounted,
    a folder where every write after ``fill`` fails as on a full disk once N bytes went (``fsync`` of the Nth and
    later files fails with ENOSPC: their data never reach the disk)."""
    with _small_disk(tmp_path / f"disk-{uuid.uuid4().hex[:6]}", 4096) as mounted:
        if mounted is not None:
            yield mounted, lambda leave=0: _fill(mounted, leave)
            return
        folder = tmp_path / "disk"
        folder.mkdir()
        real, room = os.fsync, [None]

        def fsync(fd):
            if room[0] is not None:
                size = os.fstat(fd).st_size
                if size > room[0]:
                    raise OSError(errno.ENOSPC, NO_SPACE)
                room[0] -= size
            return real(fd)

        def fill(leave=0):
            room[0] = leave
        monkeypatch.setattr(os, "fsync", fsync)
        yield folder, fill


def _others(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name != ".filler")


def test_a_full_disk_leaves_the_old_page_and_says_which_file(disk):
    folder, fill = disk
    page = folder / "page.html"
    assert cli("report", SEED2, "-o", page).exit_code == 0
    good = page.read_bytes()
    fill(leave=8192)            # (a page is some hundreds of KB)
    res = cli("report", SEED1, "-o", page)
    assert res.exit_code == 1, res.output
    assert f"error[unwritable] the page was not written: {page}: cannot be written ({NO_SPACE})" in res.output
    assert "Traceback" not in res.output and "internal" not in res.output
    assert page.read_bytes() == good and _others(folder) == ["page.html"]


@pytest.mark.parametrize("args, name", [(("validate", "--write-repaired", "{out}", SEED1), "new.dom"),
                                        (("analyze", "--graph", "{out}", SEED2), "tree.graphml"),
                                        (("diagram", SEED2, "-o", "{out}"), "d.svg")])
def test_a_full_disk_leaves_no_file_where_there_was_none(disk, args, name):
    folder, fill = disk
    fill(leave=0)
    out = folder / name
    res = cli(*[str(out) if a == "{out}" else a for a in args])
    assert res.exit_code == 1, res.output
    assert f"{out}: cannot be written ({NO_SPACE})" in res.output and "Traceback" not in res.output
    assert _others(folder) == []            # no 0-byte file, no temporary file


def test_a_full_disk_mid_archive_leaves_each_page_whole_or_absent(disk, tmp_path):
    folder, fill = disk
    archive = tmp_path / "archive"
    archive.mkdir()
    for name, record in (("a.dom", SEED2), ("b.dom", SEED1), ("c.dom", SEED2)):
        shutil.copy(record, archive / name)
    whole = tmp_path / "whole"            # the pages as a run with room writes them
    assert cli("report", archive, "-o", whole).exit_code == 1
    sizes = {p.name: p.stat().st_size for p in whole.iterdir()}
    site = folder / "site"
    site.mkdir()
    fill(leave=sizes["a.dom.html"] + sizes["b.dom.html"] + 8192)         # room for two pages, not for the third
    res = cli("report", archive, "-o", site)
    assert res.exit_code == 1, res.output
    assert f"error[unwritable] the page was not written: {site / 'c.dom.html'}: cannot be written ({NO_SPACE})" \
        in res.output and "Traceback" not in res.output
    # the third page absent, no .part; the index whole (listing the third record's error) or, the disk full, absent
    assert _others(site) in (["a.dom.html", "b.dom.html"], ["a.dom.html", "b.dom.html", "index.html"])
    for name in ("a.dom.html", "b.dom.html"):
        assert (site / name).read_bytes() == (whole / name).read_bytes()


def test_a_page_that_cannot_be_written_is_that_record_s_error_and_every_other_is_written(tmp_path, monkeypatch):
    """Issue 72 item 1: a page's write failure ended the run there (the pages after it never written, no index);
    now it is that record's ``unwritable`` error, and every other page and the index are written."""
    import analyzer.render.page as render
    from analyzer.outputs import OutputError
    archive, site = tmp_path / "archive", tmp_path / "site"
    archive.mkdir()
    for name, record in (("a.dom", SEED2), ("b.dom", SEED2), ("c.dom", SEED1)):
        shutil.copy(record, archive / name)
    real = render.write_page

    def write_page(html, path):
        if os.path.basename(path) == "b.dom.html":
            raise OutputError(errno.EROFS, f"{path}: cannot be written ({os.strerror(errno.EROFS)})")
        return real(html, path)
    monkeypatch.setattr(render, "write_page", write_page)
    res = cli("report", archive, "-o", site, "--jsonl")
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output and "internal" not in res.output
    assert sorted(p.name for p in site.iterdir()) == ["a.dom.html", "c.dom.html", "index.html"]
    assert all(_whole_page(site / n) for n in ("a.dom.html", "c.dom.html", "index.html"))
    lines = [json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")]
    errors = {r["source"].rsplit("/", 1)[-1]: r["error"] for r in lines}
    assert errors["a.dom"] is None and errors["c.dom"] is None
    assert errors["b.dom"]["code"] == "unwritable" and str(site / "b.dom.html") in errors["b.dom"]["message"]
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="a.dom.html"' in index and 'href="c.dom.html"' in index and 'href="b.dom.html"' not in index


# ---- a run killed outright -------------------------------------------------------------------------------------

def test_kill_9_during_a_report_of_an_archive_leaves_each_page_whole_or_absent(tmp_path):
    archive, site = tmp_path / "archive", tmp_path / "site"
    archive.mkdir()
    for k in range(12):
        shutil.copy(SEED2 if k % 2 else SEED1, archive / f"g{k:02}.dom")
    run = subprocess.Popen([sys.executable, "-m", "analyzer", "report", str(archive), "-o", str(site)], cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_until(lambda: (site / "g00.dom.html").exists() or run.poll() is not None, "the first page")
        os.killpg(run.pid, signal.SIGKILL)
        run.wait(timeout=HANG_SECONDS)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == -signal.SIGKILL, "the run ended before it was killed: give it more records"
    pages = sorted(site.glob("*.html"))
    assert pages and (site / "g00.dom.html") in pages and (site / "index.html") not in pages
    assert all(_whole_page(p) for p in pages)
    # what a kill may leave besides: the hidden temporary file of the one page being written then
    left = [p.name for p in site.iterdir() if p not in pages]
    assert len(left) <= 1 and all(n.startswith(".g") and ".dom.html." in n and n.endswith(".part") for n in left), left


def test_an_mwc_table_is_known_as_the_tool_s_own_in_both_forms(tmp_path):
    from analyzer.equity import load_table, write_table
    from analyzer.rules import find_variant

    table = load_table(find_variant("partnership"))
    for name in ("t.json", "t.mwc"):
        write_table(table, str(tmp_path / "made" / name))           # (its folder made; written whole)
        assert replaceable(tmp_path / "made" / name, "table")
        assert not replaceable(tmp_path / "made" / name, "page") and not replaceable(tmp_path / "made" / name, "graph")
    assert sorted(p.name for p in (tmp_path / "made").iterdir()) == ["t.json", "t.mwc"]
    # equity -o checks before its simulation (minutes): a table may be replaced, a page may not
    page = tmp_path / "page.html"
    assert cli("report", SEED2, "-o", page).exit_code == 0
    res = cli("equity", "--simulate", "50", "-o", page)
    assert res.exit_code == 2 and "exists and is not an MWC table" in res.output and "simulating" not in res.output


# ---- issue 72, item 3: train writes through the same guarded, atomic writer ---------------------------------------

TRAIN = ("train", SEED2, "--player", "B", "--decision-deals", "5")


def test_train_replaces_no_file_that_is_not_its_own_and_follows_no_link(tmp_path):
    pytest.importorskip("genanki")
    record = tmp_path / "mine.dom"
    shutil.copy(SEED2, record)
    link = tmp_path / "deck.apkg"
    link.symlink_to(record)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    deck, problems = tmp_path / "own.apkg", tmp_path / "own.json"
    other = tmp_path / "other.json"
    other.write_text('{"mine": true}\n', encoding="utf-8")
    for args in (("-o", other), ("-o", link), ("-o", fifo)):
        res = cli(*TRAIN, *args)
        assert res.exit_code == 2 and "exists and is not" in res.output and "--force" in res.output, (args, res.output)
    res = cli(*TRAIN, "-o", record)     # (-o writes by the file's ending: a record's is none of them)
    assert res.exit_code == 2 and "name a file ending in .json" in res.output, res.output
    assert other.read_text(encoding="utf-8") == '{"mine": true}\n'
    assert record.read_bytes() == SEED2.read_bytes() and link.is_symlink()
    for _ in range(2):          # its own deck and problem set: the second run replaces the first's
        res = cli(*TRAIN, "-o", problems, "-o", deck)
        assert res.exit_code == 0, res.output
    assert replaceable(deck, "deck") and replaceable(problems, "problems")
    assert not replaceable(deck, "problems") and not replaceable(problems, "deck") and not replaceable(problems, "graph")
    res = cli(*TRAIN, "--force", "-o", link)        # told to: the link is replaced, never the record it points to
    assert res.exit_code == 0 and not link.is_symlink() and record.read_bytes() == SEED2.read_bytes()


def test_a_full_disk_leaves_the_old_deck_and_problem_set_and_says_which_file(disk):
    pytest.importorskip("genanki")
    folder, fill = disk
    deck, problems = folder / "deck.apkg", folder / "p.json"
    assert cli(*TRAIN, "-o", problems, "-o", deck).exit_code == 0
    before = {p: p.read_bytes() for p in (deck, problems)}
    fill(leave=0)
    for args, out in ((("-o", deck), deck), (("-o", problems), problems)):
        res = cli(*TRAIN, *args)
        assert res.exit_code == 1 and f"{out}: cannot be written ({NO_SPACE})" in res.output, res.output
        assert "Traceback" not in res.output
    assert {p: p.read_bytes() for p in before} == before and _others(folder) == ["deck.apkg", "p.json"]
