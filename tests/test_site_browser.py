"""The static site (``domino site``) in real headless Chromium (Debian's), served by a local HTTP server, the
engine Pyodide from its npm package (never a CDN: every other address is refused): a record link opens at
its move, the board steps, analyses exact and fair in the page, a click enters a move, a reload loses
nothing, a broken link opens nothing and says why, "Copy link" gives a link Python reads back; a link shows its
record before the engine is ready, a link whose move is not in its record opens at the start and says so, a
second visit works with the network cut (the service worker), a new build replaces the old one whole; no
console error; desktop and phone widths (screenshots in test-artifacts/). Slow: each page starts Python in the
browser. Without Pyodide's npm package (`npm install`) the tests skip, except under CI (.ci/run installs it)."""
from __future__ import annotations

import functools
import json
import http.server
import os
import re
import subprocess
import sys
import threading

import pytest

from analyzer.site.build import SiteError, build_site, find_pyodide
from analyzer.notation.link import make_fragment, read_fragment
from analyzer.search.wasm import wasm_path
from conftest import RECORDS, ROOT, SEED_DEAL, wait_until

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
                      ".mjs": "text/javascript", ".js": "text/javascript", ".webmanifest": "application/manifest+json"}
    gate: threading.Event | None = None         # while clear, Pyodide's files are held back
    asked: list | None = None                   # the paths asked for

    def do_GET(self):
        if self.asked is not None:
            self.asked.append(self.path.split("?")[0])
        if self.gate is not None and self.path.startswith("/pyodide/"):
            self.gate.wait(START / 1000)
        super().do_GET()

    def handle(self):
        try:
            super().handle()
        except ConnectionError:        # (a page closed while a file was coming)
            pass

    def log_message(self, *args):
        pass


def _serve(folder, **attributes):
    handler = type("Handler", (_Quiet,), attributes)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    try:
        pyodide = find_pyodide(ROOT)
    except SiteError as exc:
        if os.environ.get("CI"):
            raise          # CI installs it (.ci/run: npm ci): there the site must be tested
        pytest.skip(str(exc))
    return build_site(tmp_path_factory.mktemp("site") / "site", pyodide=pyodide).folder


@pytest.fixture(scope="module")
def site(built):
    server = _serve(built)
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


#: matches whose grading on the match scale reads shipped tables: Whist's compact table, and Hungarian for three,
#: whose race is shipped solved (``.mwc`` and ``.solved``: every kind of XZ stream the tables hold)
SCALED = ("match-whist.dom", "match-hungarian-3.dom")
_SCALE = """
import importlib.util, json
from analyzer.pipeline import Options, analyze_entry, process
from analyzer.notation import reader
out = {"lzma": importlib.util.find_spec("lzma") is not None, "games": [], "saved parser": reader._SAVED != []}
for name, text in json.loads(RECORDS).items():
    result = process(name, text.encode("utf-8"), Options("analyze", None, (), scale="match"))
    out["games"] += [analyze_entry(result["source"], game) for game in result["games"]]
json.dumps(out)
"""


def test_the_match_scale_reads_the_shipped_tables_in_the_browser_as_the_command_line_does(visit):
    """The equity tables are XZ streams and Pyodide has no ``lzma``: the worker unpacks them on ``_xz.wasm``, each
    table read as a lazy file; a match graded on the match scale in the browser is ``domino analyze --scale match
    --json``'s, every MWC and luck of every game (the records read by the parser the worker loaded from the tables
    the site ships)."""
    if wasm_path("xz") is None:
        pytest.skip("the xz wasm module is not built (setup.py builds it with clang and lld)")
    open_, _ = visit
    page, errors = open_("index.html")
    board = [w for w in page.workers if w.url.endswith("site/worker.js")][0]
    records = {f"records/{name}": (RECORDS / name).read_text(encoding="utf-8") for name in SCALED}
    got = json.loads(board.evaluate("([code, records]) => { pyodide.globals.set('RECORDS', records); "
                                    "return pyodide.runPython(code); }", [_SCALE, json.dumps(records)]))
    command = subprocess.run([sys.executable, "-m", "analyzer", "analyze", "--scale", "match", "--json", *records],
                             cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert command.returncode == 0, command.stderr
    wanted = json.loads(command.stdout)["games"]
    assert not got["lzma"]                      # (the browser's Python has none: the tables went through _xz.wasm)
    assert got["saved parser"]                  # (the parser loaded from the tables the zip carries, not built)
    assert len(got["games"]) == len(wanted) == 4
    assert all(game["match_scale"]["table"] for game in wanted)           # (every game valued from its table)
    assert got["games"] == wanted
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


def test_a_link_shows_its_record_before_the_engine_and_a_second_visit_works_with_the_network_cut(browser, built):
    """One browser profile, its own server: the first visit with Pyodide's files held back (the link's record
    shows, the engine says what it waits for), a link whose move is not in its record (it opens at the start
    and says so), an equity table read as a lazy file; then the server gone and the browser offline, a reload
    with another link: the page, the engine and a position from the service worker's cache alone."""
    gate, asked = threading.Event(), []
    server = _serve(built, gate=gate, asked=asked)
    site = f"http://127.0.0.1:{server.server_port}/"
    context = browser.new_context(viewport=DESKTOP)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda msg: errors.append(msg.text) if msg.type in ("error", "warning") else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        record = (RECORDS / "seed1.dom").read_text(encoding="utf-8")          # one game of 29 moves
        page.goto(site + "index.html" + make_fragment(record, 1, 40))
        # before the engine: the record in the editor (not to be edited yet), its tags, what the board waits for
        expect(page.locator("#text")).to_have_value(record, timeout=30_000)
        assert page.locator("#text").get_attribute("readonly") is not None
        expect(page.locator("#sitepreview")).to_contain_text("INTERNATIONAL DOMINOES, example deal")
        expect(page.locator("#sitepreview")).to_contain_text("drawn once the engine has started")
        expect(page.locator("#stepinfo")).to_have_text("starting the engine…")
        expect(page.locator("#siteload")).to_contain_text("Downloading the engine")
        assert "ready" not in (page.get_attribute("#siteload", "class") or "")
        assert "(new record)" != page.locator("#files option:checked").inner_text()
        page.screenshot(path=str(SHOTS / "site-link-before.png"))
        gate.set()
        expect(page.locator("#siteload")).to_have_class(re.compile(r"\bready\b"), timeout=START)
        # the link's move is past the record's end: the board at the start, and the page says so
        expect(page.locator("#siteload")).to_contain_text("(game 1, move 40) is not in its record (game 1 has 29 moves)",
                                                          timeout=START)
        expect(page.locator("#stepinfo")).to_contain_text("the deal of 29", timeout=START)
        expect(page.locator("#hands .hand")).to_have_count(4)
        assert page.locator("#sitepreview").is_hidden() and page.locator("#text").get_attribute("readonly") is None
        expect(page.locator("#siteload")).to_have_attribute("data-analysis", "ready", timeout=START)
        page.screenshot(path=str(SHOTS / "site-link-after.png"))
        # an equity table, left out of the first download, read where the package has it (a lazy file)
        table = "analyzer/equity/data/kozel.mwc"
        assert f"/python/lazy/{table}" not in asked
        board = [w for w in page.workers if w.url.endswith("site/worker.js")][0]
        read = "pyodide.runPython(\"open('/home/pyodide/lib/" + table + "', 'rb').read().hex()\")"
        assert bytes.fromhex(board.evaluate(read)) == (ROOT / table).read_bytes()
        assert asked.count("/pyodide/pyodide.asm.wasm") == 1 and asked.count("/python/domino.zip") == 1
        # the network cut: the server gone, the browser offline; a reload with another link (a game not in it)
        server.shutdown()
        server.server_close()
        context.set_offline(True)
        page.goto(site + "index.html" + make_fragment(record, 2, 1))
        expect(page.locator("#siteload")).to_have_class(re.compile(r"\bready\b"), timeout=START)
        expect(page.locator("#siteload")).to_contain_text("(game 2, move 1) is not in its record (there is no game 2",
                                                          timeout=START)
        expect(page.locator("#stepinfo")).to_contain_text("the deal of 29", timeout=START)
        page.click("#next")
        expect(page.locator("#stepinfo")).to_contain_text("after move 1 of 29 (B [1-1])", timeout=START)
        board = [w for w in page.workers if w.url.endswith("site/worker.js")][0]
        assert bytes.fromhex(board.evaluate(read)) == (ROOT / table).read_bytes()     # kept when first read
        assert errors == []
    finally:
        gate.set()
        context.close()


def test_a_new_build_replaces_the_old_one_whole_after_the_reload_the_page_offers(browser, built, tmp_path):
    """The site published anew at the same address: the open page keeps its build (its service worker serves the
    old files, never a mix), says a new version is ready and reloads into it on a click; the new version's
    worker then serves its own files and has deleted the old build's cache. (The engine is not waited for.)"""
    import shutil

    folder = tmp_path / "site"
    shutil.copytree(built, folder)
    # (the old build published an hour before: an HTTP server's Last-Modified counts whole seconds, and two builds
    # within one second would have it answer the worker's update check "304 Not Modified", so no update is found)
    for path in folder.rglob("*"):
        os.utime(path, (path.stat().st_atime - 3600, path.stat().st_mtime - 3600))
    newer = build_site(tmp_path / "newer", pyodide=find_pyodide(ROOT), records=("seed2.dom",)).folder
    old_version = json.loads((folder / "site.json").read_text())["version"]
    new_version = json.loads((newer / "site.json").read_text())["version"]
    assert old_version != new_version
    server = _serve(folder)
    site = f"http://127.0.0.1:{server.server_port}/"
    context = browser.new_context(viewport=DESKTOP)
    controlled = "navigator.serviceWorker.controller ? navigator.serviceWorker.controller.scriptURL : null"
    served = "fetch('site.json').then(r => r.json()).then(j => j.version)"
    try:
        page = context.new_page()
        page.goto(site + "index.html")
        # the first version takes over once it has kept every file
        wait_until(lambda: page.evaluate(controlled), "the service worker to take over", START / 1000)
        assert page.evaluate(controlled) == site + "sw.js"
        assert page.evaluate("caches.keys()") == [f"domino-site {site} {old_version}"]
        # the new build published over the old one
        shutil.rmtree(folder)
        shutil.copytree(newer, folder)
        page.reload()
        # the page the old worker serves is the old build's, whole (its site.json too), until the reload
        assert page.evaluate(served) == old_version
        expect(page.locator("#siteupdate")).to_be_visible(timeout=START)
        assert page.evaluate(served) == old_version
        with page.expect_navigation(timeout=START):
            page.click("#siteupdate")
        page.wait_for_load_state()
        # the old version's cache deleted once the new one has taken over
        wait_until(lambda: page.evaluate("caches.keys()") == [f"domino-site {site} {new_version}"],
                   "the old version's cache to go", START / 1000)
        assert page.evaluate("caches.keys()") == [f"domino-site {site} {new_version}"]
        assert page.evaluate(served) == new_version
    finally:
        context.close()
        server.shutdown()
        server.server_close()


#: Links to a game past the first (and the first), each game with tags of its own: a match's later games (fewer
#: tags than the first), a thrown-in deal, a game deep in a long match, two games without a Game tag.
LINKED_GAMES = (("match-milo.dom", 2), ("match-milo.dom", 1), ("house-kozel-fence.dom", 2),
                ("match-south-american-redeal-natural.dom", 2), ("match-whist-progression-five.dom", 17),
                ("seed-both.dom", 2))


def test_a_link_to_a_later_game_shows_that_games_tags_before_the_engine(browser, built):
    """Before the engine is ready (Pyodide's files held back the whole test) the preview beside the board shows the
    tags of the game the link names, as Python's reader gives that game's (``Record.games[k].tags``), never the
    first game's."""
    from analyzer.notation import parse

    gate = threading.Event()
    server = _serve(built, gate=gate)
    site = f"http://127.0.0.1:{server.server_port}/"
    try:
        for name, game in LINKED_GAMES:
            record = (RECORDS / name).read_text(encoding="utf-8")
            want = parse(record).games[game - 1].tags
            context = browser.new_context(viewport=PHONE)
            try:
                page = context.new_page()
                page.goto(site + "index.html" + make_fragment(record, game, 1))
                expect(page.locator("#sitepreview")).to_be_visible(timeout=30_000)
                names = page.locator("#sitepreview .tags dt").all_inner_texts()
                values = page.locator("#sitepreview .tags dd").all_inner_texts()
                assert dict(zip(names, values)) == dict(want), (name, game)
                assert len(names) == len(values) >= 3
                expect(page.locator("#sitepreview")).to_contain_text(f"at game {game}, move 1")
            finally:
                context.close()
    finally:
        gate.set()
        server.shutdown()
        server.server_close()


def test_two_sites_on_one_origin_keep_their_own_caches(browser, built, tmp_path):
    """Two builds published in two folders of one host: each one's service worker keeps its files in a cache named
    by its own scope and version, and taking over deletes only its own older caches, never the other site's."""
    import shutil

    root = tmp_path / "host"
    shutil.copytree(built, root / "a")
    build_site(root / "b", pyodide=find_pyodide(ROOT), records=("seed2.dom",))
    versions = {k: json.loads((root / k / "site.json").read_text())["version"] for k in "ab"}
    assert versions["a"] != versions["b"]
    server = _serve(root)
    host = f"http://127.0.0.1:{server.server_port}/"
    context = browser.new_context(viewport=DESKTOP)
    controlled = "navigator.serviceWorker.controller ? navigator.serviceWorker.controller.scriptURL : null"
    try:
        page = context.new_page()
        for k in "ab":
            page.goto(f"{host}{k}/index.html")
            wait_until(lambda: page.evaluate(controlled) == f"{host}{k}/sw.js", f"site {k}'s worker to take over",
                       START / 1000)
        want = sorted(f"domino-site {host}{k}/ {versions[k]}" for k in "ab")
        wait_until(lambda: sorted(page.evaluate("caches.keys()")) == want, "both caches kept", 30)
        page.goto(f"{host}a/index.html")        # (site a again: its files still answered from its own cache)
        assert page.evaluate("fetch('site.json').then(r => r.json()).then(j => j.version)") == versions["a"]
        assert sorted(page.evaluate("caches.keys()")) == want
    finally:
        context.close()
        server.shutdown()
        server.server_close()
