"""A report page on a phone (390 px), in real headless Chromium (#66 item 9): the cross and French layouts drawn
whole inside their box (no arm cut at its edges), and a decision's alternatives that put the same tile on two
ends told apart by the end each names.

Facts from the records: the last board of records/variant-cross.dom and records/variant-french.dom holds every
tile their moves lay (20 and 24); at move 18 of records/seed1-table.txt (C's [3-6], the book's critical move)
C may lay [4-6] on the 6 or on the 4 (the line of play is open at 6 and 4), two moves with one tile."""
from __future__ import annotations

import pathlib
import re

import pytest

from analyzer.notation import parse, read
from analyzer.render import render_html
from analyzer.archive.task import report_model
from conftest import RECORDS

PHONE = 390


@pytest.fixture(scope="module")
def layout_pages(tmp_path_factory) -> dict[str, pathlib.Path]:
    out = {}
    folder = tmp_path_factory.mktemp("phone-layout")
    for name in ("variant-cross", "variant-french"):
        # the exact search does not model arms: the drawing needs no analysis
        path = folder / f"{name}.html"
        path.write_text(render_html(report_model(read(RECORDS / f"{name}.dom"), analyse=False)), encoding="utf-8")
        out[name] = path
    return out


@pytest.fixture(scope="module")
def seed_page(tmp_path_factory) -> pathlib.Path:
    path = tmp_path_factory.mktemp("phone-alts") / "seed1.html"
    text = (RECORDS / "seed1-table.txt").read_text(encoding="utf-8")
    path.write_text(render_html(report_model(parse(text, "seed1-table.txt"))), encoding="utf-8")
    return path


# every drawn tile and arm label of the board, and the box that shows them (its visible part: the board's view)
DRAWN = """() => {
  const svg = document.querySelector('#g1 .board svg.line');
  const frame = svg.closest('.board-view') || svg;
  const r = frame.getBoundingClientRect();
  const items = Array.from(svg.querySelectorAll('.dt, .arm-label')).filter(e => e.getBBox().width > 0);
  return {box: [r.left, r.top, r.right, r.bottom], page: document.documentElement.scrollWidth,
          tiles: svg.querySelectorAll('.dt').length,
          items: items.map(e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; })};
}"""


@pytest.mark.parametrize("name, laid", [("variant-cross", 20), ("variant-french", 24)])
def test_a_layout_with_arms_lies_whole_inside_its_box_on_a_phone(open_page, layout_pages, name, laid):
    page, seen = open_page(layout_pages[name], width=PHONE, height=900)
    page.locator("#g1 .controls .last").click()
    page.locator("#g1 .board").scroll_into_view_if_needed()
    drawn = page.evaluate(DRAWN)
    assert drawn["tiles"] == laid
    x0, y0, x1, y1 = drawn["box"]
    assert x0 >= 0 and x1 <= PHONE and drawn["page"] <= PHONE
    outside = [b for b in drawn["items"] if b[0] < x0 - 0.5 or b[2] > x1 + 0.5 or b[1] < y0 - 0.5 or b[3] > y1 + 0.5]
    assert outside == [], f"{len(outside)} of {len(drawn['items'])} drawn items cut at the box {drawn['box']}"
    assert seen.errors == []
    page.locator("#g1 .board").screenshot(path=str(pathlib.Path("/tmp") / f"report-{name}-390.png"))


@pytest.mark.parametrize("width", [PHONE, 1366])
def test_alternatives_with_one_tile_on_two_ends_name_the_end(open_page, seed_page, width):
    page, seen = open_page(seed_page, "#g1-m18", width=width, height=900)
    rows = page.locator('#g1 section.detail[data-move="18"] table.alts tbody tr')
    page.locator('#g1 section.detail[data-move="18"]').wait_for(state="visible")
    shown = {}
    for k in range(rows.count()):
        cell = rows.nth(k).locator("td").first
        tile = cell.locator("svg.tile").get_attribute("aria-label")
        shown.setdefault(tile, []).append(cell.inner_text().strip())
    # the two moves of [4-6]: each row says the end it goes on (in words, or as the notation's "@6")
    ends = sorted(re.findall(r"(?:on the |@)(\d)", text) for text in shown["[4-6]"])
    assert ends == [["4"], ["6"]], shown["[4-6]"]
    assert seen.errors == []


def test_the_boards_legend_says_what_a_jamaican_hands_values_are():
    """#66 item 4: the Jamaican "+1 / -1" explained beside the values. A Jamaican hand is worth one point a game
    (002: one point a game, six love to win), so its values only say who wins: the board's legend (library
    ``explained``, what the board shows under its values) carries what the analysis says its values assume, as
    the report's page does; a game whose values are plain points says nothing more."""
    from analyzer.match import replay_record
    from analyzer.server.library import explained

    rep = next(iter(replay_record(read(RECORDS / "match-jamaican.dom"))))
    note = rep.variant.search_note
    assert "only say who wins" in note
    games = [{"sides": ["A/C", "B/D"], "note": note, "decisions": []},
             {"sides": ["A/C", "B/D"], "note": None, "decisions": []}]
    jamaican, plain = explained({"games": games})["explained"]["legends"]
    assert jamaican.endswith("The values assume: " + note)
    assert "assume" not in plain and plain.startswith("Points of the hand")
