"""The pictures of the README and the guides, made from what the tool itself writes and serves, so they
stay current.

    python3 docs/shots/make_shots.py            # from the repository root

It writes the report of ``records/seed2.dom`` with ``domino report`` (to a temporary folder), opens it
in Debian's Chromium through Playwright and takes ``docs/shots/report.png`` at its critical move; then it starts
``domino serve records/seed2.dom`` on a free port of 127.0.0.1, opens the board on that
record, steps to the critical decision, asks for its analysis and takes
``docs/shots/board.png``. For the transcriber's guide it starts ``domino serve records/``, makes a new
record whose hands are all unknown (``?``, B to lead), enters the first six moves of the book deal's
sheet with one click each and takes ``docs/shots/transcriber.png``; nothing is saved. All at a desktop
width (1280 wide), as a newcomer first sees them.
Needs ``pip install '.[board]' playwright`` and ``/usr/bin/chromium`` (never a downloaded browser).
"""
from __future__ import annotations

import contextlib
import pathlib
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = pathlib.Path(__file__).resolve().parent
RECORD = ROOT / "records" / "seed2.dom"
TOKEN = "readme-screenshot"
VIEWPORT = {"width": 1280, "height": 800}
CHROMIUM = "/usr/bin/chromium"
STEPS = 16                              # the board at move 16 of seed2: B to move, the critical move next
SHEET = ("B [1-1]", "C pass", "D [1-5]@1", "A [1-4]@1", "B pass", "C [4-5]@5")    # seed2's first moves


def _domino(*args: str, **kwargs) -> subprocess.Popen | subprocess.CompletedProcess:
    """``domino ARGS`` of this source tree (``python3 -m analyzer``)."""
    command = [sys.executable, "-m", "analyzer", *args]
    if kwargs.pop("background", False):
        return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True, **kwargs)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(url: str, server: subprocess.Popen, tries: int = 200) -> None:
    """Until the board answers at ``url`` (or the server has stopped: then say why)."""
    for _ in range(tries):
        if server.poll() is not None:
            raise SystemExit(f"domino serve stopped: {server.stdout.read()}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"the board did not answer at {url}")


def report_shot(browser, folder: pathlib.Path) -> pathlib.Path:
    page_path = folder / "seed2.html"
    _domino("report", str(RECORD), "-o", str(page_path))
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(page_path.as_uri())
    page.wait_for_load_state("load")
    page.get_by_role("button", name="Jump to the critical move").first.click()
    page.wait_for_timeout(500)          # (the board and the chart follow the click)
    target = OUT / "report.png"
    page.screenshot(path=str(target))
    page.close()
    return target


@contextlib.contextmanager
def _board(path: pathlib.Path):
    """``domino serve PATH`` on a free port of 127.0.0.1: its address, the token in it; stopped after."""
    port = _free_port()
    server = _domino("serve", str(path), "--port", str(port), "--token", TOKEN, background=True)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_for(f"{base}/?token={TOKEN}", server)
        yield f"{base}/?token={TOKEN}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def board_shot(browser) -> pathlib.Path:
    with _board(RECORD) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 960})     # (room for the values)
        page.goto(f"{address}&path={RECORD}")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(800)      # (the board validates the text and draws the table)
        for _ in range(STEPS):          # to the decision before B's [2-6], the critical move
            page.locator("#next").click()
            page.wait_for_timeout(100)
        page.locator("#analyse").click()
        page.wait_for_timeout(3000)     # (the values of every alternative at the cursor)
        target = OUT / "board.png"
        page.screenshot(path=str(target))
        page.close()
        return target


def transcriber_shot(browser) -> pathlib.Path:
    """A sheet without hands entered by clicks: a new record (every hand ``?``, B leads), six moves."""
    with _board(RECORD.parent) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.goto(address)
        page.wait_for_load_state("networkidle")
        page.locator("#newrecord").click()
        page.locator("#nlead").select_option("B")
        page.locator("#nwrite").click()
        page.wait_for_timeout(800)      # (the server writes the record; the board draws the deal)
        for move in SHEET:              # one click a move: each button is titled with its move
            page.locator(f'#legal button[title="{move}"]').click()
            page.wait_for_timeout(600)
        page.wait_for_timeout(800)
        target = OUT / "transcriber.png"
        page.screenshot(path=str(target))
        page.close()
        return target


def main() -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        try:
            for made in (report_shot(browser, pathlib.Path(tmp)), board_shot(browser), transcriber_shot(browser)):
                print(f"wrote {made.relative_to(ROOT)}")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
