"""A book of problems written by hand (issue 51, item 4): ``domino report`` of a folder of set-up games,
each with a ``Problem`` tag, writes beside the record pages and the index a book that asks each question
and reveals its answer, the answer being what ``analyze --json`` says of that position (exact where every
hand is shown, else the fair analysis from the mover's view)."""
from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.notation import read
from conftest import settled

PROBLEMS = Path(__file__).resolve().parent.parent / "docs" / "problems"
FILES = sorted(PROBLEMS.glob("*.dom"))


def _run(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.stdout


def _sections(page: str) -> list[dict]:
    out = []
    for body in re.findall(r'<section class="problem".*?</section>', page, re.S):
        rows = re.findall(r"<tr[^>]*><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td>", body)
        out.append({"question": html.unescape(re.search(r'<p class="question">(.*?)</p>', body).group(1)),
                    "best": html.unescape(re.search(r'<strong class="best">(.*?)</strong>', body).group(1)),
                    "moves": {html.unescape(m): float(v) for m, v, _ in rows},
                    "view": html.unescape(re.search(r"<caption>(.*?)</caption>", body).group(1))})
    return out


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    out = tmp_path_factory.mktemp("book")
    _run("report", PROBLEMS, "-o", out / "pages")
    return out / "pages"


def test_the_book_holds_every_problem_with_the_answer_analyze_gives(book):
    assert FILES and {p.name for p in book.iterdir()} >= {"index.html", "book.html"}
    assert re.findall(r'<a href="([^"]+)">The book of problems</a>', (book / "index.html").read_text()) == ["book.html"]
    assert len(list(book.glob("*.dom.html"))) == len(FILES)      # the record pages are still written
    sections = _sections((book / "book.html").read_text())
    assert len(sections) == len(FILES)
    kinds = set()
    for path, section in zip(FILES, sections):
        game = read(str(path)).games[0]
        assert section["question"] == game.tags["Problem"]
        decision = json.loads(_run("analyze", path, "--json"))["games"][0]["to_move"]
        fair = decision.get("fair")
        if fair is None:                        # every hand shown: the exact values
            kinds.add("exact")
            assert [a["move"] for a in decision["alternatives"] if a["best"]] == [section["best"]]
            assert section["moves"] == {a["move"]: a["value"] for a in decision["alternatives"]}
        else:
            kinds.add("fair")
            assert section["best"] == fair["best"]
            assert section["moves"] == pytest.approx({a["move"]: round(a["fair"]["mean"], 2)
                                                      for a in decision["alternatives"]}, abs=0.006)
    assert kinds == {"exact", "fair"}


def test_each_answer_says_whose_values_they_are_and_which_way_the_mover_wants_them(book):
    """Issue 52's point of view on the book's answers: "A/C values: B wants lower" (analyze's words), and the
    best move is the one the mover wants: the highest value where he wants higher, else the lowest."""
    for path, section in zip(FILES, _sections((book / "book.html").read_text())):
        game = json.loads(_run("analyze", path, "--json"))["games"][0]
        mover = game["to_move"]["player"]
        found = re.fullmatch(r"(.+?)(?:'s)? values: (.+) wants (higher|lower)", section["view"])
        assert found and found.group(2) == mover, section["view"]
        side = next(k for k, s in enumerate(game["sides"]) if mover in s.split("/"))
        assert found.group(1) == game["sides"][0] and found.group(3) == ("higher" if side == 0 else "lower")
        values = section["moves"].values()
        want = max(values) if found.group(3) == "higher" else min(values)
        assert section["moves"][section["best"]] == want


def test_a_folder_with_a_record_that_is_no_problem_gets_no_book(tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    shutil.copy(FILES[0], folder / "a.dom")
    shutil.copy(PROBLEMS.parent.parent / "records" / "seed2.dom", folder / "b.dom")
    _run("report", folder, "-o", tmp_path / "pages")
    assert (tmp_path / "pages" / "index.html").exists() and not (tmp_path / "pages" / "book.html").exists()
    assert "book of problems" not in (tmp_path / "pages" / "index.html").read_text()


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_the_book_asks_first_then_reveals_in_chromium(open_page, book, width, height):
    page, seen = open_page(book / "book.html", width=width, height=height)
    first = page.locator("#problem-1")
    assert first.is_visible() and not first.locator(".answer").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert first.locator(".question").inner_text() == read(str(FILES[0])).games[0].tags["Problem"]
    first.locator(".reveal").click()
    settled(page)
    assert first.locator(".answer").is_visible() and first.locator("strong.best").inner_text()
    first.locator(".next").click()
    settled(page)
    assert first.is_hidden() and page.locator("#problem-2").is_visible()
    assert not seen.errors and not seen.dialogs
