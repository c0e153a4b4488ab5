"""The pictures of docs/site.md: a record link opening on the static site at a phone's width (390 px), before
the engine is ready and after, made from what ``domino site`` builds, so they stay current.

    python3 docs/shots/site_shots.py            # from the repository root

It builds the site (to a temporary folder), serves it on 127.0.0.1 with Pyodide's files held back, opens a link
to ``records/match-kozel.dom`` at game 2, move 12 in Debian's Chromium through Playwright and takes
``docs/shots/site-link-phone-before.png`` once the link's record shows; then lets the files through and takes
``docs/shots/site-link-phone-after.png`` once the board stands at the link's move. Needs ``npm install``
(Pyodide), ``pip install playwright`` and ``/usr/bin/chromium`` (never a downloaded browser).
"""
from __future__ import annotations

import functools
import http.server
import pathlib
import re
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from analyzer.notation.link import make_fragment  # noqa: E402
from analyzer.site.build import build_site, find_pyodide  # noqa: E402

GATE = threading.Event()


class _Held(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript", ".webmanifest": "application/manifest+json"}

    def do_GET(self):
        if self.path.startswith("/pyodide/"):
            GATE.wait(300)
        super().do_GET()

    def log_message(self, *args):
        pass


def main() -> None:
    from playwright.sync_api import expect, sync_playwright

    record = (ROOT / "records" / "match-kozel.dom").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        site = build_site(pathlib.Path(tmp) / "site", pyodide=find_pyodide(ROOT)).folder
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Held, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(f"http://127.0.0.1:{server.server_port}/index.html" + make_fragment(record, 2, 12))
        expect(page.locator("#sitepreview")).to_be_visible(timeout=30_000)
        time.sleep(1.5)              # (the loading line's seconds counting)
        page.screenshot(path=str(OUT / "site-link-phone-before.png"))
        GATE.set()
        expect(page.locator("#siteload")).to_have_class(re.compile(r"\bready\b"), timeout=300_000)
        expect(page.locator("#stepinfo")).to_contain_text("after move 12", timeout=300_000)
        time.sleep(2)
        page.screenshot(path=str(OUT / "site-link-phone-after.png"))
        browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
