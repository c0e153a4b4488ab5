import dataclasses
import os
import pathlib
import re

import pytest
from hypothesis import HealthCheck, settings

# No verdict by the clock: hypothesis fails an example that takes over 200 ms (its deadline) or whose data
# is slow to draw (the too_slow health check), which a shared, loaded machine turns into a failure of a
# test that is right. Every property test of the suite runs without both (a test's own settings keep these
# unless they name them).
settings.register_profile("domino", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("domino")

# The tables solved when loaded are kept in a cache folder (``equity.cache_folder``): the suite's own, not the
# user's (a run starts from no kept table; the processes it starts inherit it).
if "DOMINO_CACHE" not in os.environ:
    import atexit
    import shutil
    import tempfile
    os.environ["DOMINO_CACHE"] = tempfile.mkdtemp(prefix="domino-test-cache-")
    atexit.register(shutil.rmtree, os.environ["DOMINO_CACHE"], True)

# ``--jobs`` defaults to the cores (``analyzer.workers.cores``): the suite's commands run in one process each
# unless a test asks for more (pytest-xdist runs the tests themselves on the cores; a pool for each would
# oversubscribe them). A test of the default sets or removes the variable itself.
os.environ.setdefault("PYTHON_CPU_COUNT", "1")

# The command line writes in the user's language (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: the first
# set); the suite's expectations are its English, whatever the machine's locale (tests/test_i18n.py sets its own).
os.environ["LANGUAGE"] = "en"

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = ROOT / "tests" / "data"   # verbatim copies of the rule texts the tests quote
RECORDS = ROOT / "records"

# A test waits for events (a server up, a worker gone, a job running), never for a number of seconds. Each
# wait is bounded only so that a run that hangs fails instead of blocking the suite: the bound is far above
# what the event takes on a loaded machine (a second or two), and the behaviour it rules out (waiting for
# good, or for a setting the test makes this long) is further above it still.
HANG_SECONDS = 300


def wait_until(condition, what: str, seconds: float = HANG_SECONDS, every: float = 0.05):
    """Poll ``condition()`` until it gives something true (returned); fail naming ``what`` if it has not
    after ``seconds`` (a hang)."""
    import time

    deadline = time.monotonic() + seconds
    while not (seen := condition()):
        assert time.monotonic() < deadline, f"waited {seconds:g} s for {what}: it hangs"
        time.sleep(every)
    return seen


SEED_HANDS = {
    "A": "[0-5] [1-3] [1-4] [2-2] [3-4] [4-4] [5-6]",
    "B": "[0-0] [0-1] [0-6] [1-1] [1-6] [2-3] [2-6]",
    "C": "[0-2] [2-4] [2-5] [3-3] [3-6] [4-5] [4-6]",
    "D": "[0-3] [0-4] [1-2] [1-5] [3-5] [5-5] [6-6]",
}
SEED_DEAL = "\n".join(f"{p}: {t}" for p, t in SEED_HANDS.items())


def game_alone(text: str, number: int, score: str | None = None) -> str:
    """Game ``number`` of a match file's ``text`` alone: without its Game tag and the Event tags around it, with the
    Score tag ``score`` in place of its own (None: its own kept)."""
    game = text.split('[Game "')[number].split("\n", 1)[1]
    lines = [line for line in game.splitlines() if not line.startswith("[Event ")
             and (score is None or not line.startswith("[Score "))]
    return (f'[Score "{score}"]\n' if score is not None else "") + "\n".join(lines) + "\n"


@pytest.fixture
def units_only(monkeypatch):
    """The safety nets of CPU time that a loaded machine may reach in one run and not in another, kept out of the way:
    the slip search's (``analyzer.repair.triage.RECORD_SECONDS``, and READ_TIMES the record's read) and that of the
    checks of a record's sheets (``analyzer.match.SHEET_SECONDS``); their units of work alone bound them, the same in
    every run. For a test that compares two runs made in this process (or in workers forked from it)."""
    monkeypatch.setattr("analyzer.repair.triage.RECORD_SECONDS", 3600.0)
    monkeypatch.setattr("analyzer.match.SHEET_SECONDS", 3600.0)


@pytest.fixture
def seed_deal() -> str:
    """The example deal of INTERNATIONAL DOMINOES as quoted in the seed text."""
    return SEED_DEAL


# ---- a real headless browser (Debian's Chromium, never a downloaded one) for the report pages ---------
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


EXPECT_SECONDS = 60      # how long expect() waits for what it checks before it fails (a bound, not a verdict)


def settled(page) -> None:
    """Wait until the page has drawn two frames: what a key, click or load set going is on the page (an
    event to wait for, not a number of milliseconds)."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def wait_ready(page, ready: str = "yes") -> None:
    """Wait until a report page has set up every game: its script inflates each game's data, then marks the page
    ``<html data-ready="yes">`` (``"no"``: the browser could not, a note in place of the controls); a page without
    games' data (an archive's index) has nothing to wait for."""
    page.wait_for_load_state("load")
    if not page.locator("script.game-data").count():
        return
    page.wait_for_function("document.documentElement.hasAttribute('data-ready')", timeout=EXPECT_SECONDS * 1000)
    assert page.evaluate("document.documentElement.dataset.ready") == ready


# A game's data as the page's script reads it (pagedata.deflated: JSON, deflated, in base64), by the game's section id.
GAME_DATA = """async (id) => {
    const text = document.querySelector('#' + id + ' script.game-data').textContent;
    const bytes = Uint8Array.from(atob(text), c => c.charCodeAt(0));
    return JSON.parse(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'))).text());
}"""


def page_game_data(page, game: str = "g1") -> dict:
    """The data of the game whose section is ``game`` (``g1``, ``g1r``), unpacked in the page."""
    return page.evaluate(GAME_DATA, game)


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
        # expect() waits for what it checks; its 5 s default is a clock a loaded machine can outrun
        sync_api.expect.set_options(timeout=EXPECT_SECONDS * 1000)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser):
    contexts = []

    def open_(path: pathlib.Path, fragment: str = "", width: int = 1360, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height})
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
        wait_ready(page)
        return page, seen

    yield open_
    for context in contexts:
        context.close()


# ---- the board served for real (uvicorn in a thread on 127.0.0.1) ---------------------------------------
import contextlib  # noqa: E402


BOARD_TOKEN = "board-test-token"      # the access token of the boards the tests serve (docs/board.md)
BOARD_AUTH = {"Authorization": f"Bearer {BOARD_TOKEN}"}     # a request's header that carries it


@contextlib.contextmanager
def board_client(roots: list[str], **more):
    """Starlette's test client of the board's app for ``roots`` (``more``: the client's options, such as
    ``base_url``), every request carrying :data:`BOARD_TOKEN`, a server error answered as the server answers
    it (a 500), not raised in the test."""
    import warnings

    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():      # (Starlette 1.x would rather have httpx2 drive its test client)
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from analyzer.server import create_app

    with TestClient(create_app(roots, token=BOARD_TOKEN), raise_server_exceptions=False, headers=BOARD_AUTH,
                    **more) as client:
        yield client


@pytest.fixture(scope="module")
def client(board_roots):
    """The board's test client (:func:`board_client`) for the roots the module's ``board_roots`` fixture gives."""
    with board_client(board_roots) as c:
        yield c


@contextlib.contextmanager
def served_board(roots: list[str]):
    """The board's app for ``roots`` served by uvicorn on 127.0.0.1 at a free port (yielded), in a thread
    that ends with the block; every request carries :data:`BOARD_TOKEN`."""
    import socket
    import threading

    uvicorn = pytest.importorskip("uvicorn")
    from analyzer.server import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(roots, token=BOARD_TOKEN)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until(lambda: server.started or not thread.is_alive(), "the board's server to start")
    assert server.started
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


BOARD_DESKTOP = {"width": 1366, "height": 900}      # the widths the board is tested at: a laptop's
BOARD_PHONE = {"width": 390, "height": 844}         # and a phone's


def open_board(context, base: str, errors: list, query: str = ""):
    """A new page of ``context`` at the board served at ``base`` (``query``: more of the address, as
    ``&path=...``), loaded; its console errors and uncaught exceptions go to ``errors``."""
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    # (the console says "Failed to load resource: ... 409" without the address: each failed request named)
    page.on("response", lambda r: errors.append(f"{r.status} from {r.url}") if r.status >= 400 else None)
    page.goto(f"{base}/?token={BOARD_TOKEN}{query}")
    page.wait_for_load_state("load")
    return page


@contextlib.contextmanager
def board_page(browser, root: pathlib.Path, opened: str | None = None, viewport: dict | None = None):
    """The board served for the folder ``root`` (:func:`served_board`) and a page of it in Chromium at
    ``viewport`` (default :data:`BOARD_DESKTOP`), the file ``opened`` of ``root`` opened (None: none asked
    for); yields the page. At the end its context is closed, and the page had no script error."""
    with served_board([str(root)]) as port:
        context = browser.new_context(viewport=viewport or BOARD_DESKTOP)
        errors: list[str] = []
        try:
            yield open_board(context, f"http://127.0.0.1:{port}", errors, f"&path={root / opened}" if opened else "")
        finally:
            context.close()
        assert errors == []


def board_at_end(page) -> None:
    """The board of a page just opened (:func:`board_page`) stepped to the end of its game: the End key,
    pressed on the board (not in the text) once the deal is shown."""
    from playwright.sync_api import expect

    expect(page.locator("#stepinfo")).to_contain_text("the deal")
    page.click("h1")
    page.keyboard.press("End")


def matches_won_by_played_hands(variant, start, n: int, view=None) -> float:
    """Side 0's share of ``n`` whole matches from the match position ``start``, every hand freshly dealt and
    played by the hand model's policy (``equity.model.simulate_mode``, one hand a seed, seeds 1, 2, ...; a game
    of individual players with ``view``, each player's game against the rest), the score kept by the match
    code (``MatchScoring.apply``), the next leader as the rules resolve it (a lead any player may take: one of
    them in turn); a drawn match, or one no hand can end (Chiva for three once everybody has a point), counts
    1/N. The reference the equity tables' dynamic programming is checked against."""
    from analyzer.equity import resolve
    from analyzer.equity.model import HandPlayers, mode_of, simulate_mode
    from analyzer.rules import HandResult

    sides = variant.seating.sides
    won, k = 0.0, 0
    for _ in range(n):
        state, lead = start.state, start.lead
        while not state.over:
            if variant.match.kind == "shutout" and all(s >= 1 for s in state.scores):
                break
            k += 1
            side = lead[1] if lead[0] == "side" else k % sides
            (o,) = simulate_mode(variant, mode_of(lead), 1, seed=k, players=HandPlayers(view=view)).outcomes
            winner = None if o.winner is None else (o.winner + side) % sides
            state = variant.match.apply(state, HandResult(o.termination, winner, o.points, 0,
                                                          tuple(o.scores[(s - side) % sides] for s in range(sides)),
                                                          o.void))
            lead = resolve(variant, o.next, side, state)
        won += 1.0 if state.winner == 0 else 1.0 / sides if state.winner is None else 0.0
    return won / n


def analyze_to_move(text: str, folder: pathlib.Path) -> dict:
    """What ``domino analyze --json`` says of the decision where the record ``text`` stops (its ``to_move``),
    the text written to a file in ``folder`` and analysed by the command, as a user would."""
    import json
    import subprocess
    import sys

    path = folder / "position.dom"
    path.write_text(text, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "analyzer", "analyze", "--json", str(path)], capture_output=True,
                         text=True, cwd=ROOT)
    return json.loads(out.stdout)["games"][0]["to_move"]


def require_built(missing: list[str], how: str) -> None:
    """Skip the test, saying what is ``missing`` (modules, Node, packages) and ``how`` it is had; where CI must have
    them all (``DOMINO_REQUIRE_COMPILED=1``, as .ci/run sets it) fail instead. Nothing missing: nothing done."""
    if not missing:
        return
    message = f"{' and '.join(missing)} {how}"
    if os.environ.get("DOMINO_REQUIRE_COMPILED") == "1":
        pytest.fail(message)
    pytest.skip(message)
