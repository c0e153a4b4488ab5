"""The static site (``domino site``) in real headless Chromium (Debian's), served by a local HTTP server, the
engine Pyodide from its npm package (never a CDN: every other address is refused): a record link opens at
its move, the board steps, analyses exact and fair in the page, a click enters a move, a reload loses
nothing, a broken link opens nothing and says why, "Copy link" gives a link Python reads back; no console
error; desktop and phone widths (screenshots in test-artifacts/). Slow: each page starts Python in the
browser. Without Pyodide's npm package (`npm install`) the tests skip, except under CI (.ci/run installs it)."""
from __future__ import annotations

import functools
import http.server
import os
import re
import threading

import pytest

from analyzer.site.build import SiteError, build_site, find_pyodide
from analyzer.notation.link import make_fragment, read_fragment
from analyzer.search.wasm import wasm_path
from conftest import RECORDS, ROOT, SEED_DEAL

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
START = 240_000            # ms a page may take to start Python (a bound on a loaded machine, not a verdict)
SHOTS = ROOT / "test-artifacts"
SHORT = ("[Event \"entered on the site\"]\n[Variant \"partnership\"]\n[Players \"A, B, C, D\"]\n[Lead \"B\"]\n\n"
         + SEED_DEAL + "\n\n1. B [1-1]\n")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".mjs": "text/javascript", ".js": "text/javascript"}

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    try:
        pyodide = find_pyodide(ROOT)
    except SiteError as exc:
        if os.environ.get("CI"):
            raise          # CI installs it (.ci/run: npm ci): there the site must be tested
        pytest.skip(str(exc))
    folder = build_site(tmp_path_factory.mktemp("site") / "site", pyodide=pyodide).folder
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture
def visit(browser, site):
    contexts = []

    def open_(address: str, viewport=DESKTOP):
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        # nothing but the site itself: Pyodide comes from the site's own folder, never a CDN
        context.route(re.compile(r"^(?!" + re.escape(site) + r")(https?|wss?|ftp)://"), lambda route: route.abort())
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(msg.text) if msg.type in ("error", "warning") else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(site + address)
        expect(page.locator("#siteload")).to_have_class(re.compile(r"\bready\b"), timeout=START)
        return page, errors

    yield open_, site
    for context in contexts:
        context.close()


def _text(page) -> str:
    return page.locator("#text").input_value()


def test_a_record_link_opens_at_its_move_steps_and_analyses_exact_and_fair(visit):
    open_, _site = visit
    record = (RECORDS / "seed1.dom").read_text(encoding="utf-8")
    page, errors = open_("index.html" + make_fragment(record, 1, 10))
    # the page says which search it runs: the block search's WebAssembly module where this tree built it
    said = page.inner_text("#siteload")
    assert ("compiled search (WebAssembly)" in said and "pure-Python" not in said if wasm_path("core") is not None
            else "pure-Python search" in said)
    expect(page.locator("#stepinfo")).to_contain_text("after move 10 of 29", timeout=START)
    assert _text(page) == record
    # the link's record is kept in the browser's storage as a file of its own, listed and chosen
    expect(page.locator("#files")).to_have_value(re.compile(r"^/home/pyodide/records/link-[0-9a-f]+\.dom$"))
    page.click("#next")
    expect(page.locator("#stepinfo")).to_contain_text("after move 11 of 29")
    page.click("#analyse")
    expect(page.locator("#values")).to_be_visible(timeout=START)
    expect(page.locator("#progressbox")).to_be_hidden(timeout=START)
    exact = page.inner_text("#valuesnote")
    assert "best play" in exact
    page.check("#fair")
    page.click("#analyse")
    expect(page.locator("#progressbox")).to_be_hidden(timeout=START)
    expect(page.locator("#valuesnote")).to_contain_text("values for")
    page.screenshot(path=str(SHOTS / "site-desktop.png"), full_page=True)
    # Copy link: the record as it stands and the move shown, read back by Python
    page.click("#copylink")
    expect(page.locator("#sitelink")).to_be_visible()
    copied = read_fragment(page.locator("#sitelink").input_value())
    assert (copied.text, copied.game, copied.step) == (record, 1, 11)
    assert errors == []


def test_a_move_entered_by_click_survives_a_reload(visit):
    open_, _site = visit
    page, errors = open_("index.html" + make_fragment(SHORT, 1, 1), viewport=PHONE)
    expect(page.locator("#stepinfo")).to_contain_text("after move 1 of 1", timeout=START)
    # C holds no 1 ([0-2] [2-4] [2-5] [3-3] [3-6] [4-5] [4-6]) after B's [1-1]: passing is C's only move
    page.wait_for_selector("#legal button.move", timeout=START)
    assert page.locator("#legal button.move").evaluate_all("els => els.map(e => e.dataset.move)") == ["pass"]
    page.click("#legal button[data-move='pass']")
    page.wait_for_selector("#legal button[data-move='[1-5]@1']", timeout=START)
    assert "C pass" in _text(page)
    page.screenshot(path=str(SHOTS / "site-phone.png"), full_page=True)
    edited = _text(page)
    page.reload()
    expect(page.locator("#siteload")).to_have_class(re.compile(r"\bready\b"), timeout=START)
    expect(page.locator("#text")).to_have_value(edited, timeout=START)
    expect(page.locator("#notice")).to_contain_text("restored")
    assert errors == []


def test_a_broken_link_opens_nothing_and_says_why_and_a_file_opens_from_disk(visit):
    open_, _site = visit
    whole = make_fragment((RECORDS / "seed1.dom").read_text(encoding="utf-8"))
    page, errors = open_("index.html" + whole[: len(whole) // 2])
    expect(page.locator("#siteload")).to_contain_text("This link opens nothing", timeout=START)
    expect(page.locator("#siteload")).to_contain_text("cut short")
    assert "INTERNATIONAL DOMINOES" not in _text(page)
    # a file from the reader's disk opens into the editor, and the text downloads as a file
    other = (RECORDS / "seed2.dom").read_text(encoding="utf-8")
    page.set_input_files("#diskfile", str(RECORDS / "seed2.dom"))
    expect(page.locator("#text")).to_have_value(other)
    with page.expect_download() as download:
        page.click("#download")
    assert open(download.value.path(), encoding="utf-8").read() == other
    # (the board's own status line also names the refusal; nothing else went wrong)
    assert [e for e in errors if "opens nothing" not in e] == []
