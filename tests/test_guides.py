"""Every command the README and the guides (docs/guides/) show is run on the bundled records, and the
output they show is what it prints.

The convention of those pages: a ```sh block holds commands, one a line (``# exit N`` after one says
the exit status it ends with; none: 0); the ```text block that comes next (before any other block) is
the output of its last command, lines the output holds in that order (``...`` alone: lines left out; a line ending in `` ...``:
a line that starts so). ``pip`` steps are the set-up's (tests/test_setup.py); ``domino serve`` is
started, its address read and stopped."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys

import pytest

from conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "guides").glob("*.md"))]
FENCE = re.compile(r"```(\w*)\n(.*?)```", re.S)


def _blocks(path) -> list[tuple[str, list[str], list[str] | None]]:
    """``(where, commands, shown)`` for each ```sh block of ``path`` that runs ``domino``: its
    commands and the output shown after it (None: none shown)."""
    text = path.read_text(encoding="utf-8")
    fences = list(FENCE.finditer(text))
    out = []
    for k, fence in enumerate(fences):
        if fence.group(1) != "sh":
            continue
        commands = [line.strip() for line in fence.group(2).splitlines() if "domino " in line]
        if not commands:
            continue
        shown = None
        nxt = fences[k + 1] if k + 1 < len(fences) else None
        if nxt is not None and nxt.group(1) == "text":
            shown = nxt.group(2).splitlines()
        line = text.count("\n", 0, fence.start()) + 1
        out.append((f"{path.relative_to(ROOT)}:{line}", commands, shown))
    return out


BLOCKS = [block for page in PAGES for block in _blocks(page)]


def _command(line: str) -> tuple[list[str], int]:
    """The ``domino`` words of a shown line (after a ``pip`` step) and the exit status it claims."""
    status = 0
    if "#" in line:
        line, comment = line.split("#", 1)
        found = re.search(r"exit (\d)", comment)
        status = int(found.group(1)) if found else 0
    words = shlex.split(line.split("&&")[-1])
    assert words[0] == "domino", line
    return words[1:], status


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")


def _serve(args: list[str], cwd) -> str:
    """Start ``domino serve ARGS`` on a free port, return the line it prints first, stop it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", *args, "--port", str(port)], cwd=cwd,
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    return first


def matches(shown: list[str], output: str) -> list[str]:
    """What differs between the lines shown and the output (empty: none): each shown line the output does
    not hold where the page puts it, and each line of the output the page neither shows nor leaves out with
    a ``...`` line. A ``...`` line stands for any number of lines (none too); a shown line ending in `` ...``
    is a line that starts so; blank lines are not compared (standard output comes before standard error)."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    at, differs, skipping = 0, [], False
    for want in (w.rstrip() for w in shown if w.strip()):
        if want == "...":
            skipping = True
            continue
        prefix = want[:-4] if want.endswith(" ...") else None

        def holds(line: str) -> bool:
            return line.startswith(prefix) if prefix is not None else line == want
        found = next((k for k in range(at, len(lines)) if holds(lines[k])), None)
        if found is None:
            differs.append(want)
            continue
        if not skipping:
            differs += [f"(not shown: {line})" for line in lines[at:found]]
        at, skipping = found + 1, False
    if not skipping:
        differs += [f"(not shown: {line})" for line in lines[at:]]
    return differs


@pytest.fixture
def workdir(tmp_path):
    """A folder holding a copy of the bundled records and problems (docs/problems), as a clone has them."""
    shutil.copytree(ROOT / "records", tmp_path / "records")
    shutil.copytree(ROOT / "docs" / "problems", tmp_path / "docs" / "problems")
    return tmp_path


def test_the_pages_show_commands_and_their_output():
    assert PAGES[0].name == "README.md"
    assert {p.stem for p in PAGES[1:]} >= {"transcriber", "player", "author", "tournament-director"}
    for page in PAGES:
        assert _blocks(page), f"{page}: no command shown"
    assert sum(shown is not None for _, _, shown in BLOCKS) >= 15


def test_every_command_a_page_shows_is_run_here_or_is_the_set_up():
    """No line of a page's ```sh blocks goes unchecked: each runs ``domino`` (run below; a ``pip``/venv step
    before it on the line is the README's set-up, run by tests/test_setup.py) or is the README's test command
    (tests/test_setup.py: what CI runs)."""
    setup = re.search(r"```sh\n(.*?)```", PAGES[0].read_text(encoding="utf-8"), re.S).group(1).splitlines()
    for page in PAGES:
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            for line in filter(str.strip, block.splitlines()):
                assert "domino " in line.split("#", 1)[0] or (page == PAGES[0] and line in setup), (page.name, line)


def test_the_guides_pictures_are_the_screenshot_scripts():
    """A picture a guide shows is a PNG in docs/shots/ that docs/shots/make_shots.py makes."""
    script = (ROOT / "docs" / "shots" / "make_shots.py").read_text(encoding="utf-8")
    pictures = [(page, picture) for page in PAGES[1:]
                for picture in re.findall(r"!\[[^\]]+\]\(([^)]+)\)", page.read_text(encoding="utf-8"))]
    assert pictures, "no guide shows a picture"
    for page, picture in pictures:
        path = (page.parent / picture).resolve()
        assert path.parent == ROOT / "docs" / "shots", (page.name, picture)
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", (page.name, picture)
        assert f'"{path.name}"' in script, (page.name, picture)         # the script makes it


@pytest.mark.slow                   # (a page's commands take up to a minute: the README's --fair run, the guides)
@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_each_command_shown_runs_and_prints_what_the_page_shows(page, workdir):
    """The page's blocks in order, in one folder (a later block may read what an earlier one wrote)."""
    for where, commands, shown in _blocks(page):
        output = ""
        for line in commands:
            args, status = _command(line)
            if args[0] == "serve":
                output = _serve(args[1:], workdir)
                assert output.startswith("the board: http://127.0.0.1:"), (where, line, output)
                continue
            done = subprocess.run([sys.executable, "-m", "analyzer", *args], cwd=workdir, env=_env(),
                                  capture_output=True, text=True, timeout=900)
            output = done.stdout + done.stderr
            assert done.returncode == status, (where, line, done.returncode, output[-2000:])
            assert "Traceback" not in output, (where, line)
        if shown is not None:
            missing = matches(shown, output)
            assert not missing, (where, commands[-1], missing, output[-3000:])


def test_the_matching_reads_the_pages_convention():
    out = "a line\nsecond line, long\n\nthird\n"
    assert matches(["a line", "second line, long", "third"], out) == []
    assert matches(["a line", "...", "third"], out) == []
    assert matches(["...", "second ...", "third"], out) == []
    assert matches(["...", "third"], out) == []
    assert matches(["a line", "..."], out) == []
    assert matches(["...", "third", "a line"], out) == ["a line"]                        # in order
    assert matches(["...", "second", "..."], out) == ["second"]          # a whole line unless it ends in ' ...'
    # every line of the output is shown or left out by a '...'
    assert matches(["a line", "third"], out) == ["(not shown: second line, long)"]
    assert matches(["second line, long", "third"], out) == ["(not shown: a line)"]
    assert matches(["a line", "second line, long"], out) == ["(not shown: third)"]
