"""A record in a link on the report page (issue 68 item 3): "Copy link" gives the link of the page's record at the
move shown, whose record (read with the site's codec, analyzer/notation/link.py) is the record file byte for byte; the
page opened with ``&m=`` for its own record shows that move; a link of another record, or a broken one, says so
and why. The page's record is carried as data, never as markup. In real headless Chromium."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.notation.link import make_fragment, read_fragment
from conftest import RECORDS

RECORD = RECORDS / "match-further.dom"      # three games, and a German quotation (ö): UTF-8 beyond ASCII


@pytest.fixture(scope="module")
def page_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("link") / "match-further.html"
    result = CliRunner().invoke(main, ["report", str(RECORD), "-o", str(path)])
    assert result.exit_code == 0, result.output
    return path


def _fragment_of(data: bytes, game: int, step: int) -> str:
    return make_fragment(data.decode("utf-8"), game, step)


def test_the_page_carries_its_record_as_data_only(page_path):
    html = page_path.read_text(encoding="utf-8")
    blocks = re.findall(r'<script type="application/json" id="record-link">(.*?)</script>', html, re.S)
    assert len(blocks) == 1
    assert read_fragment("#r=" + json.loads(blocks[0])["r"]).text.encode("utf-8") == RECORD.read_bytes()


def test_copy_link_gives_the_record_byte_for_byte_at_the_move_shown(open_page, page_path):
    page, seen = open_page(page_path, "#g2-m3")
    page.click("#g2 button.next")
    assert page.locator("#g2 .counter").text_content().startswith("4 /")
    page.click("#g2 button.copy-link")
    box = page.locator("#g2 .link-box")
    page.wait_for_function("document.querySelector('#g2 .link-box').value !== ''")
    address = box.input_value()
    assert address.startswith(page_path.as_uri() + "#r=")
    link = read_fragment(address)
    assert link.text.encode("utf-8") == RECORD.read_bytes()
    assert (link.game, link.step) == (2, 4)
    # it says what it did (copied, or: copy from the box), once the clipboard's promise has settled (after the box is
    # filled: on a loaded machine a read at once can come first; CI saw it once)
    page.wait_for_function("document.querySelector('#g2 .link-said').textContent !== ''")
    assert page.locator("#g2 .link-said").text_content()
    assert not seen.errors and all(u.startswith("file:") for u in seen.requests)


def test_a_link_to_its_own_record_opens_at_its_move(open_page, page_path):
    page, seen = open_page(page_path, _fragment_of(RECORD.read_bytes(), 3, 5))
    assert page.locator("#g3 .counter").text_content().startswith("5 /")
    assert page.locator("#g3").get_attribute("data-current") == "5"
    assert page.locator("#g1").get_attribute("data-current") == "0"
    assert page.locator(".link-note").is_hidden()
    assert not seen.errors


def test_a_link_the_browser_made_opens_here_too(open_page, page_path):
    """The site's board makes its links with the browser's CompressionStream, not zlib: the same record all the same."""
    page, _ = open_page(page_path)
    fragment = page.evaluate("t => window.DominoLink.fragment(t, 2, 1)", RECORD.read_text(encoding="utf-8"))
    page, _ = open_page(page_path, fragment)
    assert page.locator("#g2").get_attribute("data-current") == "1"
    assert page.locator(".link-note").is_hidden()


def test_a_link_of_another_record_says_the_page_cannot_analyse_it(open_page, page_path):
    other = (RECORDS / "house-dominican.dom").read_bytes()
    page, _ = open_page(page_path, _fragment_of(other, 1, 2))
    note = page.locator(".link-note")
    assert note.is_visible()
    assert "another record" in note.text_content() and "domino site" in note.text_content()
    assert page.locator("#g1").get_attribute("data-current") == "0"


@pytest.mark.parametrize("cut, why", [(-7, "cut short|damaged"), (None, "base64url never")])
def test_a_broken_link_opens_nothing_and_says_why(open_page, page_path, cut, why):
    fragment = _fragment_of(RECORD.read_bytes(), 2, 3).split("&")[0]
    fragment = fragment[:cut] if cut else fragment[:20] + "!" + fragment[20:]
    page, _ = open_page(page_path, fragment + "&m=g2.3")
    note = page.locator(".link-note")
    assert note.is_visible()
    assert note.text_content().startswith("This link opens nothing:")
    assert re.search(why, note.text_content())
    assert page.locator("#g2").get_attribute("data-current") == "0"


def test_a_link_to_a_move_the_record_lacks_says_so(open_page, page_path):
    page, _ = open_page(page_path, _fragment_of(RECORD.read_bytes(), 9, 1))
    assert "g9.1 is not in this record" in page.locator(".link-note").text_content()


def test_a_hostile_record_is_carried_as_base64url_only(tmp_path):
    """Whatever the record holds (a script's end tag, markup), its block on the page is base64url in a JSON string:
    nothing of it is markup, and it reads back whole."""
    from test_report import HOSTILE_TEXT

    record = tmp_path / "hostile.dom"
    record.write_text(HOSTILE_TEXT, encoding="utf-8")
    out = tmp_path / "hostile.html"
    CliRunner().invoke(main, ["report", str(record), "-o", str(out)])
    html = out.read_text(encoding="utf-8")
    (block,) = re.findall(r'<script type="application/json" id="record-link">(.*?)</script>', html, re.S)
    assert re.fullmatch(r'\{"r":"[A-Za-z0-9_-]+"\}', block)
    assert read_fragment("#r=" + json.loads(block)["r"]).text.encode("utf-8") == record.read_bytes()
    assert "alert(2)</script>" not in html
