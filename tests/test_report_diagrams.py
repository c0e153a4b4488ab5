"""Diagrams saved from the report, in headless Chromium: the SVG a reader saves at a position is a valid
standalone SVG of that position, the very drawing ``domino diagram`` makes; the PNG is that drawing
rasterised by the browser. Desktop and phone widths; a line of play and a layout with arms."""
from __future__ import annotations

import json
import struct
import xml.etree.ElementTree as ET

import pytest

from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.render.diagram import game_diagram
from analyzer.render.pagedata import line_delta, packed_diagrams
from analyzer.archive.task import position_diagrams
from conftest import RECORDS, wait_ready
from test_cli import run

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("diagrams")
    out = {}
    for name in ("seed1.dom", "variant-cross.dom"):
        path = folder / (name + ".html")
        run("report", str(RECORDS / name), "-o", str(path))
        out[name] = path
    return out


def _save(page, kind: str) -> tuple[str, bytes]:
    with page.expect_download() as download:
        page.locator(f"#g1 .save-diagram .save-{kind}").click()
    return download.value.suggested_filename, open(download.value.path(), "rb").read()


def _tiles_drawn(svg: str) -> int:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert not [e for e in root.iter() if any(k.endswith("href") for k in e.attrib)]     # standalone: no references
    return sum(1 for e in root.iter(SVG + "rect") if "tile" in e.get("class", "").split())


@pytest.mark.slow
@pytest.mark.parametrize("width,height", [(1366, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_saved_svg_is_domino_diagram_of_that_position(browser, pages, width, height):
    (rep,) = replay_record(read(RECORDS / "seed1.dom"))
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500,
                                  accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(pages["seed1.dom"].as_uri() + "#g1-m18")
        wait_ready(page)
        assert page.locator("#g1 .save-diagram").is_visible()
        # the deal, the book's critical move, and a move after the record breaks the rules (move 25)
        for k in (0, 18, len(rep.steps)):
            page.evaluate(f"location.hash = '#g1-m{k}'")
            name, data = _save(page, "svg")
            svg = data.decode("utf-8")
            assert name == f"game1-move{k}.svg"
            assert svg == game_diagram(rep, k)
            pos = rep.position_at(min(k, rep.legal_prefix))
            # every tile on the table and in the four hands, each drawn once
            assert _tiles_drawn(svg) == len(pos.line()) + sum(pos.count(s) for s in range(4))
        assert "the record breaks the rules at move" in svg
        name, png = _save(page, "png")
        assert name == f"game1-move{len(rep.steps)}.png" and png[:8] == b"\x89PNG\r\n\x1a\n"
        w, h = struct.unpack(">II", png[16:24])
        root = ET.fromstring(svg)
        assert (w, h) == (pytest.approx(2 * float(root.get("width")), abs=1),
                          pytest.approx(2 * float(root.get("height")), abs=1))
        # the board shows a line: no diagram to save until the reader is back in the game
        page.evaluate("location.hash = '#g1-m18'")
        page.locator('#g1 button.show-line[data-at="18"]').first.click()
        assert not page.locator("#g1 .save-diagram").is_visible()
        page.keyboard.press("Escape")
        assert page.locator("#g1 .save-diagram").is_visible()
    finally:
        context.close()


@pytest.mark.slow
def test_a_layout_with_arms_saves_its_diagram(browser, pages):
    (rep,) = replay_record(read(RECORDS / "variant-cross.dom"))
    context = browser.new_context(viewport={"width": 1366, "height": 900}, accept_downloads=True)
    try:
        page = context.new_page()
        k = len(rep.steps) // 2
        page.goto(pages["variant-cross.dom"].as_uri() + f"#g1-m{k}")
        wait_ready(page)
        name, data = _save(page, "svg")
        assert data.decode("utf-8") == game_diagram(rep, k)
        assert _tiles_drawn(data.decode("utf-8")) > 0
    finally:
        context.close()


def test_the_packed_drawings_hold_nothing_of_the_record_as_markup():
    from test_report import HOSTILE_NAME, _hostile_record
    from analyzer.render import render_html
    from analyzer.archive.task import report_model

    html = render_html(report_model(_hostile_record()))
    assert HOSTILE_NAME not in html and "save-diagram" in html


def _unpacked(packed: dict) -> list[str]:
    """The drawings of :func:`packed_diagrams`, unpacked as the page's script unpacks them."""
    return _replayed(packed["plans"], packed["lines"])


def _replayed(plans: list[list[int]], fresh: list[str]) -> list[str]:
    """The drawings of :func:`line_delta`'s ``plans``, ``fresh`` their new lines."""
    before, out, taken = [], [], 0
    for plan in plans:
        lines = []
        for first, count in zip(plan[::2], plan[1::2]):
            lines += fresh[taken:taken + count] if first < 0 else before[first:first + count]
            taken += count if first < 0 else 0
        out.append("\n".join(lines))
        before = lines
    return out


@pytest.mark.parametrize("name,game", [("seed1.dom", 0), ("variant-cross.dom", 0), ("variant-french.dom", 2)],
                         ids=["line", "cross", "french-arms"])
def test_the_packed_drawings_are_domino_diagram_of_every_position(name, game):
    rep = replay_record(read(RECORDS / name))[game]
    drawn = position_diagrams(rep)
    assert len(drawn) == len(rep.steps) + 1
    assert _unpacked(packed_diagrams(drawn)) == [game_diagram(rep, k) for k in range(len(rep.steps) + 1)]


def test_a_line_delta_gives_the_lines_back():
    before = ["<g>", "a", "</g>", "<g>", "b", "</g>", "c"]
    for lines in (["<g>", "b", "</g>", "c"], ["x", "<g>", "a", "</g>", "</g>", "c", "y", "z"], [], before, ["c", "c"]):
        fresh = []
        plans = [line_delta([], before, fresh), line_delta(before, lines, fresh)]
        assert _replayed(plans, fresh) == ["\n".join(before), "\n".join(lines)]
        assert not set(fresh[len(before):]) & set(before)         # a line held before is never sent again
    assert line_delta(before, ["b", "</g>", "c", "y", "z"], []) == [4, 3, -1, 2]     # lines in a row: one run
