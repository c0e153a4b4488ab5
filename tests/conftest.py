import dataclasses
import os
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = ROOT / "tests" / "data"   # verbatim copies of the rule texts the tests quote
RECORDS = ROOT / "records"

SEED_HANDS = {
    "A": "[0-5] [1-3] [1-4] [2-2] [3-4] [4-4] [5-6]",
    "B": "[0-0] [0-1] [0-6] [1-1] [1-6] [2-3] [2-6]",
    "C": "[0-2] [2-4] [2-5] [3-3] [3-6] [4-5] [4-6]",
    "D": "[0-3] [0-4] [1-2] [1-5] [3-5] [5-5] [6-6]",
}
SEED_DEAL = "\n".join(f"{p}: {t}" for p, t in SEED_HANDS.items())


@pytest.fixture
def seed_deal() -> str:
    """The example deal of INTERNATIONAL DOMINOES as quoted in the seed text."""
    return SEED_DEAL


# ---- a real headless browser (Debian's Chromium, never a downloaded one) for the report pages ---------
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@dataclasses.dataclass
class Seen:
    """What a page did: the requests it made, its console errors and warnings, the dialogs it opened."""

    requests: list = dataclasses.field(default_factory=list)
    errors: list = dataclasses.field(default_factory=list)
    dialogs: list = dataclasses.field(default_factory=list)


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="the playwright Python package is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser):
    contexts = []

    def open_(path: pathlib.Path, fragment: str = ""):
        context = browser.new_context(viewport={"width": 1360, "height": 900})
        contexts.append(context)
        context.route(re.compile(r"^(https?|wss?|ftp)://"), lambda route: route.abort())
        page = context.new_page()
        seen = Seen()
        page.on("request", lambda request: seen.requests.append(request.url))
        page.on("console", lambda msg: seen.errors.append(msg.text) if msg.type in ("error", "warning") else None)
        page.on("pageerror", lambda exc: seen.errors.append(str(exc)))

        def dialog(d):
            seen.dialogs.append(d.message)
            d.dismiss()
        page.on("dialog", dialog)
        page.goto(path.as_uri() + fragment)
        page.wait_for_load_state("load")
        return page, seen

    yield open_
    for context in contexts:
        context.close()


# ---- the board served for real (uvicorn in a thread on 127.0.0.1) ---------------------------------------
import contextlib  # noqa: E402


@contextlib.contextmanager
def served_board(roots: list[str]):
    """The board's app for ``roots`` served by uvicorn on 127.0.0.1 at a free port (yielded), in a thread
    that ends with the block."""
    import socket
    import threading
    import time

    uvicorn = pytest.importorskip("uvicorn")
    from analyzer.server import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(roots), host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
