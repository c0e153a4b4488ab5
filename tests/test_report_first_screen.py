"""The board first and big (issue 32): on a desktop the board and the decision at the current move are in the
first screen, "Jump to the critical move" brings the board and its alternatives into view; on a phone the
line's tiles are as large as the hand tiles, the side badges do not wrap, the fair table keeps each row on one
line, nothing scrolls sideways and the key hints are touch buttons. In real headless Chromium."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from conftest import RECORDS, page_game_data, settled, wait_ready

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def seed_page(tmp_path_factory):
    """The book deal, open-hands analysis: C's [3-6] at move 18 is the critical move."""
    path = tmp_path_factory.mktemp("first") / "seed1.html"
    CliRunner().invoke(main, ["report", str(RECORDS / "seed1.dom"), "-o", str(path)])
    assert path.exists()
    return path


@pytest.fixture(scope="module")
def partial_page(tmp_path_factory):
    """A's log of a draw game (B's hand unseen): fair values only."""
    path = tmp_path_factory.mktemp("first") / "draw-one-view.html"
    CliRunner().invoke(main, ["report", str(RECORDS / "draw-one-view.dom"), "--fair", "--decision-deals", "20",
                              "--exact-below", "20", "-o", str(path)])
    assert path.exists()
    return path


def _open(browser, path, viewport, fragment="", touch=False):
    context = browser.new_context(viewport=viewport, is_mobile=touch, has_touch=touch)
    context.route(re.compile(r"^(https?|wss?|ftp)://"), lambda route: route.abort())
    page = context.new_page()
    page.goto(path.as_uri() + fragment)
    wait_ready(page)
    return context, page


def _no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_on_a_desktop_the_board_and_the_decision_are_in_the_first_screen(browser, seed_page):
    context, page = _open(browser, seed_page, DESKTOP)
    board = page.locator("#g1 .board").bounding_box()
    assert board["y"] >= 0 and board["y"] + board["height"] <= DESKTOP["height"]
    hands = page.locator("#g1 .hands").bounding_box()
    assert hands["y"] + hands["height"] <= DESKTOP["height"]
    shown = page.locator("#g1 section.detail:not([hidden])").bounding_box()
    assert shown["y"] < DESKTOP["height"] - 60          # the decision at the current move starts on screen
    assert _no_sideways_scroll(page)
    context.close()


def test_jump_to_the_critical_move_shows_the_board_and_its_alternatives(browser, seed_page):
    context, page = _open(browser, seed_page, DESKTOP)
    # the link in the summary, below the board: it brings the board back with C's [3-6] on it
    page.locator("#g1 .verdict a.jump-critical").click()
    settled(page)
    assert page.locator("#g1 .controls .counter").inner_text().startswith("18 /")
    board = page.locator("#g1 .board").bounding_box()
    assert board["y"] >= -1 and board["y"] + board["height"] <= DESKTOP["height"]
    alts = page.locator("#g1 section.detail:not([hidden]) table.alts")
    assert "[3-6]" in alts.inner_text()
    box = alts.bounding_box()
    assert box["y"] + box["height"] <= DESKTOP["height"]    # every alternative of C's four in view
    context.close()


def test_on_a_phone_the_line_is_as_large_as_the_hands_and_the_badges_do_not_wrap(browser, seed_page):
    context, page = _open(browser, seed_page, PHONE, "#g1-m18", touch=True)
    assert page.locator("#g1 .board svg.line").get_attribute("data-tiles") == "14"
    # a tile lying along the line (twice as wide as high), as drawn, against a tile of a hand
    line_tiles = page.evaluate("""Array.from(document.querySelectorAll('#g1 svg.line .dt .body'))
        .map(r => r.getBoundingClientRect()).filter(b => b.width > b.height).map(b => b.width)""")
    hand_tile = page.locator("#g1 .hand svg.tile").first.bounding_box()["width"]
    assert line_tiles and min(line_tiles) >= hand_tile - 0.5
    for badge in page.locator("#g1 .side").all():          # in the hands and in the deal table
        box = badge.bounding_box()
        assert box["height"] < 1.6 * float(badge.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")), \
            badge.inner_text()
    assert _no_sideways_scroll(page)
    context.close()


def test_on_a_touch_screen_the_key_hints_are_buttons(browser, seed_page, tmp_path):
    context, page = _open(browser, seed_page, PHONE, touch=True)
    nxt = page.locator("#g1 button.next-graded")
    assert nxt.is_visible() and nxt.bounding_box()["height"] >= 40
    nxt.click()
    # the first graded move of the book deal: B's [1-1] lead (move 1, a mistake with every hand open)
    assert page.locator("#g1 .controls .counter").inner_text().startswith("1 /")
    context.close()
    context, page = _open(browser, seed_page, DESKTOP)
    assert not page.locator("#g1 button.next-graded").is_visible()      # a keyboard: the key n
    context.close()


def test_on_a_phone_the_fair_table_keeps_each_row_on_one_line(browser, partial_page):
    context, page = _open(browser, partial_page, PHONE, touch=True)
    judged = page_game_data(page)["mistakes"]
    decisions = page.evaluate("""Array.from(document.querySelectorAll('#g1 section.detail'))
        .filter(s => s.querySelector('table.alts')).map(s => s.dataset.move)""")
    assert decisions and judged
    for k in decisions[:8]:
        page.evaluate(f"location.hash = '#g1-m{k}'")
        table = page.locator("#g1 section.detail:not([hidden]) table.alts")
        head = table.locator("thead").inner_text()
        # whose chance it is; a sheet's decision judged over the hands its player may have held (B's: his hand is
        # not written) has no fair value of each move, its values are over the deals the sheet allows, for A
        assert "A wins" in head or "Over the deals (A:" in head, head
        for row in table.locator("tbody tr").all():
            # at most two lines (the marks "played" and "best" one above the other), never four
            line = float(row.locator("td").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) * 1.45
            assert row.bounding_box()["height"] <= 2.5 * line + 6, row.inner_text()
        assert _no_sideways_scroll(page)
    context.close()


def test_on_a_phone_the_index_shows_its_key_columns_without_scrolling_sideways(browser, tmp_path):
    for name in ("seed1.dom", "variant-cross.dom", "variant-block7.dom"):
        (tmp_path / "games").mkdir(exist_ok=True)
        (tmp_path / "games" / name).write_bytes((RECORDS / name).read_bytes())
    CliRunner().invoke(main, ["report", str(tmp_path / "games"), "-o", str(tmp_path / "site")])
    context, page = _open(browser, tmp_path / "site" / "index.html", PHONE, touch=True)
    for table, key in (("#games", ["Record", "Result", "Valid", "Critical move"]),
                       ("#players", ["Player", "Avg loss (open)", "Avg loss (fair)", "Mistake+ /100 (open)", "Accuracy %"])):
        shown = [h.inner_text().replace("\n", " ") for h in page.locator(f"{table} th").all() if h.is_visible()]
        assert all(k in shown for k in key), shown
        assert page.evaluate(f"(() => {{ const s = document.querySelector('{table}').parentElement;"
                             f" return s.scrollWidth <= s.clientWidth; }})()"), table
    # the book deal's critical move, C's [3-6], on the screen
    assert "C [3-6]" in page.locator("#games").inner_text()
    assert _no_sideways_scroll(page)
    context.close()


def test_on_a_phone_a_layout_with_arms_is_drawn_whole_in_its_board(browser, tmp_path):
    """#66 item 9: at 390 px the cross was drawn at hand-tile size in a board that scrolled sideways, its arms cut
    at the board's edges; now the layout is drawn whole, every tile inside the board (the open ends said in words
    under it), the spinner in the middle of the screen, the page not scrolling sideways."""
    path = tmp_path / "cross.html"
    CliRunner().invoke(main, ["report", str(RECORDS / "variant-cross.dom"), "-o", str(path)])
    context, page = _open(browser, path, PHONE, "#g1-m18", touch=True)
    board = page.locator("#g1 .board svg.line").bounding_box()
    bodies = page.evaluate("""Array.from(document.querySelectorAll('#g1 svg.line .dt .body'))
        .map(r => r.getBoundingClientRect()).map(b => [b.left, b.right])""")
    assert len(bodies) == 16
    assert all(board["x"] - 0.5 <= left and right <= board["x"] + board["width"] + 0.5 for left, right in bodies)
    assert page.locator("#g1 svg.line .arm-label").first.is_visible()
    assert "arm 1 (right)" in page.locator("#g1 .board .ends").inner_text()
    assert _no_sideways_scroll(page)
    spinner = page.locator("#g1 svg.line .dt.lead .body").first.bounding_box()
    assert 0 <= spinner["x"] and spinner["x"] + spinner["width"] <= PHONE["width"]
    context.close()
