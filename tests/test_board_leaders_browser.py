"""The board's page in real headless Chromium on a sheet whose next game may be led by any player (issue 80, item
6): Kozel after a drawn game at nought, the [1-1] holder leads, and the hands are not written. The page names
every player who may lead, offers each his lead, and writes the one clicked; at desktop and phone widths."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
expect = pytest.importorskip("playwright.sync_api").expect

from analyzer.server.library import next_game  # noqa: E402
from conftest import ROOT, open_board, served_board  # noqa: E402

pytestmark = pytest.mark.slow           # (the sheet's first game allows 25,200 deals: the first board lists them)

PLAYERS = ["Анна", "Борис", "Иван", "Дарья"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    example = (ROOT / "tests" / "data" / "import" / "kozel-game.example.dom").read_text(encoding="utf-8")
    first = "[Event" + re.sub(r"^(\S+): \[.*$", r"\1: ?", example, flags=re.M).split("[Event")[1]
    folder = tmp_path_factory.mktemp("leaders")
    (folder / "sheet.dom").write_text(next_game(first, "sheet.dom")["text"], encoding="utf-8")
    with served_board([str(folder)]) as port:
        yield f"http://127.0.0.1:{port}", folder


def _open(browser, served, viewport):
    base, folder = served
    context = browser.new_context(viewport=viewport)
    context.route(re.compile(r"^(?!" + re.escape(base) + r")(https?|wss?|ftp)://"), lambda route: route.abort())
    errors: list[str] = []
    page = open_board(context, base, errors, f"&path={folder / 'sheet.dom'}")
    page.wait_for_selector("#legal button")
    # the cursor at the end of the text: the board of game 2, before its lead
    page.evaluate("""() => { const t = document.getElementById('text'); const n = t.value.length;
        t.focus(); t.setSelectionRange(n, n); t.dispatchEvent(new MouseEvent('click', {bubbles: true})); }""")
    expect(page.locator("#tomove")).to_contain_text("may lead")
    return context, page, errors


@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, {"width": 390, "height": 844}])
def test_each_player_who_may_lead_is_offered_the_lead(browser, served, viewport):
    context, page, errors = _open(browser, served, viewport)
    try:
        expect(page.locator("#tomove")).to_contain_text("Анна, Борис, Иван or Дарья may lead")
        offered = page.eval_on_selector_all("#legal button.move", "els => els.map(e => [e.dataset.player, e.dataset.move])")
        assert offered == [[p, "[1-1]"] for p in PLAYERS]
        assert page.eval_on_selector_all("#legal p.leader", "els => els.map(e => e.textContent)") == \
            [f"{p} leads:" for p in PLAYERS]
        # every button within the page's width
        assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
        assert errors == []
    finally:
        context.close()


def test_the_lead_clicked_is_written_for_that_player(browser, served):
    context, page, errors = _open(browser, served, {"width": 1366, "height": 900})
    try:
        page.click("#legal button[data-player='Дарья'][data-move='[1-1]']")
        expect(page.locator("#tomove")).to_contain_text("Анна to move")
        assert re.search(r"\n1\. Дарья \[1-1\]\n?$", page.input_value("#text"))
        assert errors == []
    finally:
        context.close()
