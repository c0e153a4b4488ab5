"""The first hour of a newcomer (issue 70): ``python3 -m analyzer`` run from a clone's root says why its
search is slow and how to run the installed, compiled copy; ``domino serve`` on a port in use is a usage
error naming the port."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys

import pytest

from analyzer.search.core import installed_with_cores
from conftest import ROOT


def _package_copy(target, with_cores: bool) -> None:
    """A copy of the package at ``target`` (a folder named ``analyzer``), its compiled cores kept or left out."""
    keep = () if with_cores else ("*.so", "*.pyd")
    shutil.copytree(ROOT / "analyzer", target, ignore=shutil.ignore_patterns("__pycache__", *keep))


def test_a_tree_without_cores_names_an_installed_copy_that_has_them(tmp_path):
    built, bare = tmp_path / "site" / "analyzer", tmp_path / "clone" / "analyzer"
    _package_copy(bare, with_cores=False)
    _package_copy(built, with_cores=True)
    if not any(name.endswith((".so", ".pyd")) for name in os.listdir(built / "search")):
        pytest.skip("the compiled cores are not built in this tree")
    code = ("import sys; from analyzer.search.core import installed_with_cores as f; "
            f"print(f([{str(built)!r}]), f([{str(bare)!r}]), f([]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path / "clone", capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=""), timeout=120)
    assert out.stdout.split() == [str(built), "None", "None"], out.stderr
    # this tree has its cores (the tests import it): no other copy is named, whatever it holds
    assert installed_with_cores([built]) is None


@pytest.mark.slow           # (a search in pure Python, a few seconds)
def test_python_m_analyzer_from_a_clones_root_says_why_it_is_slow_and_the_fix(tmp_path):
    """As after ``pip install .`` in a clone: the installed copy (a dist-info beside it, as pip writes it) has
    the cores, the clone's tree in the current folder has none; ``python3 -m analyzer`` imports the tree."""
    site, clone = tmp_path / "site", tmp_path / "clone"
    _package_copy(site / "analyzer", with_cores=True)
    if not any(name.endswith((".so", ".pyd")) for name in os.listdir(site / "analyzer" / "search")):
        pytest.skip("the compiled cores are not built in this tree")
    _package_copy(clone / "analyzer", with_cores=False)
    shutil.copytree(ROOT / "grammar", clone / "grammar")
    shutil.copytree(ROOT / "grammar", site / "analyzer" / "grammar", dirs_exist_ok=True)
    info = site / "domino_analyzer-0.2.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: domino-analyzer\nVersion: 0.2.0\n")
    shutil.copy(ROOT / "records" / "seed2.dom", clone / "seed2.dom")
    env = {k: v for k, v in os.environ.items() if k not in ("DOMINO_PURE_PYTHON", "PYTHONPATH")}
    env["PYTHONPATH"] = str(site)

    def run(*flags):
        return subprocess.run([sys.executable, *flags, "-m", "analyzer", "analyze", "seed2.dom"], cwd=clone,
                              env=env, capture_output=True, text=True, timeout=900)
    slow = run()
    assert slow.returncode == 0, slow.stderr[-2000:]
    assert slow.stderr.count("note: the search runs in pure Python") == 1
    assert f"imported the source tree {clone / 'analyzer'}" in slow.stderr
    assert f"the installed package {site / 'analyzer'}, which has them" in slow.stderr
    assert "`python3 -P -m analyzer`" in slow.stderr and "C compiler" not in slow.stderr
    # the fix it names: -P leaves the current folder off the path, and the installed copy runs, compiled
    fast = run("-P")
    assert fast.returncode == 0 and "pure Python" not in fast.stderr, fast.stderr[-2000:]
    assert fast.stdout == slow.stdout


def test_serve_on_a_port_in_use_is_a_usage_error_naming_the_port():
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "analyzer", "serve", "records/", "--port", str(port)], cwd=ROOT,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert f"port {port} on 127.0.0.1 is in use" in done.stderr and "--port" in done.stderr
    assert "Traceback" not in done.stderr and "the board:" not in done.stderr


def _seatings() -> list[tuple[str, int]]:
    from analyzer.template import seating
    return [(name, n) for n in range(2, 7) for name in seating(n)]


@pytest.mark.parametrize("variant,players", _seatings())
def test_domino_new_writes_a_record_that_validates_for_every_variant_and_number_of_players(variant, players):
    from analyzer.match import replay_record
    from analyzer.notation import parse
    from analyzer.template import template_text

    text = template_text(variant, {}, players)
    record = parse(text, "new.dom")
    (rep,) = replay_record(record)
    assert rep.valid, [str(d) for d in rep.diagnostics if d.severity == "error"]
    game = rep.game
    seated = players if variant != "whist" else 4                   # (Domino Whist: four of five or six play a hand)
    assert len(game.players) == seated and len(game.hands) == seated and game.moves
    assert f"for {players} players" in game.comments[0].replace("\n", " ")
    assert game.tags["Event"] == "my game" and "domino validate" in " ".join(game.comments)
    assert "Source" not in game.tags


def test_domino_new_never_writes_over_a_file_and_names_the_variants_that_seat_a_count(tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import main

    target = tmp_path / "my.dom"
    done = CliRunner().invoke(main, ["new", "--variant", "kozel", "-o", str(target)])
    assert done.exit_code == 0 and target.read_text(encoding="utf-8").startswith('[Event "my game"]')
    target.write_text("my own game", encoding="utf-8")
    again = CliRunner().invoke(main, ["new", "--variant", "kozel", "-o", str(target)])
    assert again.exit_code == 2 and "--force" in again.output
    assert target.read_text(encoding="utf-8") == "my own game"                 # left as it was
    forced = CliRunner().invoke(main, ["new", "--variant", "cutthroat", "--players", "3", "-o", str(target), "--force"])
    assert forced.exit_code == 0 and '[Players "A, B, C"]' in target.read_text(encoding="utf-8")
    wrong = CliRunner().invoke(main, ["new", "--variant", "partnership", "--players", "3"])
    assert wrong.exit_code == 2 and "partnership seats 4 players, not 3" in wrong.output
    assert "cutthroat" in wrong.output and "Traceback" not in wrong.output
    assert CliRunner().invoke(main, ["new", "--variant", "nosuch"]).exit_code == 2


# ---- the README: one's own game, and every term it uses defined where it is first used, or linked ----

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _readme_record() -> str:
    own = README.split("## Your own game", 1)[1].split("\n## ", 1)[0]
    return own.split("```text\n", 1)[1].split("```", 1)[0]


def test_the_readmes_record_is_ten_lines_bundled_and_its_slip_is_found_where_the_readme_says():
    import re

    from analyzer.match import replay_record
    from analyzer.notation import parse

    text = _readme_record()
    assert len(text.splitlines()) == 10
    assert (ROOT / "records" / "my-game.dom").read_text(encoding="utf-8") == text      # the one validate reads
    said = README.split("## Your own game", 1)[1].split("\n## ", 1)[0]
    line, column = map(int, re.search(r"error at line (\d+), column\s+(\d+)", said).groups())
    old, new = re.search(r"`change Bob's (\[\d-\d\]) to (\[\d-\d\])`", said).groups()
    (rep,) = replay_record(parse(text, "my-game.dom"))
    errors = [d for d in rep.diagnostics if d.severity == "error"]
    assert not rep.valid and (errors[0].line, errors[0].column) == (line, column)
    assert errors[0].code == "tile-not-held" and old in errors[0].message
    assert text.splitlines()[line - 1][column - 1:].startswith(old)             # the place names the tile
    from click.testing import CliRunner

    from analyzer.cli import main
    out = CliRunner().invoke(main, ["validate", str(ROOT / "records" / "my-game.dom")]).output
    assert f"likely slip: change Bob's {old} to {new} (round 4, line {line}, column {column})" in out
    # the slip corrected as named: the record is valid, and ends as its Result tag says
    (fixed,) = replay_record(parse(text.replace(f"Bob {old}", f"Bob {new}"), "my-game.dom"))
    assert fixed.valid and not [d for d in fixed.diagnostics if d.severity == "error"]


def test_the_notations_quick_reference_record_is_the_readmes_corrected():
    import re

    from analyzer.match import replay_record
    from analyzer.notation import parse

    notation = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    assert notation.index("## Quick reference") < notation.index("## Tiles") < notation.index("## Errors")
    quick = notation.split("## Quick reference", 1)[1].split("\n## ", 1)[0]
    block = quick.split("```\n", 1)[1].split("```", 1)[0]
    (rep,) = replay_record(parse(block, "quick.dom"))
    assert rep.valid, [str(d) for d in rep.diagnostics]
    bare = "".join(re.sub(r"\s*\{[^}]*\}", "", line) + "\n" for line in block.splitlines())   # (its comments)
    assert bare == _readme_record().replace("Bob [1-4]", "Bob [1-3]")
    assert len(quick.splitlines()) <= 60                                   # one page


def _paragraphs(text: str) -> list[str]:
    """The README cut at blank lines outside code blocks (a code block is one paragraph)."""
    out, current, fenced = [], [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not line.strip() and not fenced:
            if current:
                out.append("\n".join(current))
            current = []
        else:
            current.append(line)
    return out + (["\n".join(current)] if current else [])


#: each term the README uses that a newcomer cannot know, and what must explain it: in the paragraph of its
#: first use or the prose paragraph right after it (a term first met in an output block is explained below it),
#: words of the README itself, or a link to the doc that defines it (the doc must hold the words)
TERMS = {
    "@2": ("README", r"`\[2-6\]@2` is \[2-6\] laid on the\s+open\s+end showing 2"),
    "line 16": ("README", r"`line 16` and `line 20, column 9` are places in the record file"),
    "critical move": ("README", r"critical move lost the most"),
    "14 variants": ("README", r"14 variants\s+\(partnership, the four-player block game, by default: "
                              r"\[the list\]\(docs/variants\.md\)\)"),
    "MISTAKE": ("README", r"Grades are on the game's scale: here a loss of 3, 10 or 25 points is an inaccuracy, a\s+"
                          r"mistake or a blunder"),
    "A/C": ("README", r"A and C are partners"),
    "likely slip": ("README", r"the likely slip \(the one edit that makes it valid\)"),
    "--fair": ("README", r"by what its player could know \(`--fair`"),
    "quick-reference": ("docs/notation.md", r"## Quick reference"),
    ".venv": ("README", r"makes a virtual environment, `\.venv`"),
}


@pytest.mark.parametrize("term", TERMS)
def test_each_term_of_the_readme_is_defined_where_first_used_or_linked(term):
    import re

    where, explained = TERMS[term]
    paragraphs = _paragraphs(README)
    first = next(k for k, p in enumerate(paragraphs) if term in p)
    near = paragraphs[first:first + 1] + [p for p in paragraphs[first + 1:first + 3] if not p.startswith("```")][:1]
    if where == "README":
        assert any(re.search(explained, p) for p in near), (term, near)
    else:
        assert any(f"]({where})" in p or f"]({where}#" in p for p in near), (term, "no link to", where, near)
        assert re.search(explained, (ROOT / where).read_text(encoding="utf-8")), (term, where)


def test_the_terms_are_the_readmes():
    """The list above is checked against the README: each term is in it (a term dropped is dropped here)."""
    assert all(term in README for term in TERMS)
