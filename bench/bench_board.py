"""Benchmark the analysis board's latency over real HTTP: a keystroke's validation of a 4-game record,
the board at the cursor, and "analyse" of a partnership record, against the same library calls made
in-process (the baseline, measured in the same run), median and worst of ``--repeat`` requests.

    python bench/bench_board.py                 # 20 requests each
    python bench/bench_board.py --repeat 5
    python bench/bench_board.py --browser       # also the page in headless Chromium: a change to its diagnostics

The server is the real one (``analyzer.server.create_app`` under uvicorn on 127.0.0.1, a free port);
requests go through ``urllib``. The 4-game record is a generated partnership match (valid), and the
same with one tile of its second game changed (invalid: validation then also searches the likely
slip). The page adds its own 300 ms pause after the last keystroke before it asks (not counted here).
"Analyse" is ``/api/analyze`` on one generated partnership game: the worker process is already
started (the server keeps one ready), so the figure is the search plus the trip; "fair" is the fair
analysis of records/draw-one-view.dom (a draw game one player logged: every decision of his judged
over the deals he could not tell apart, ``--worlds`` of them).

The editing requests: a move put in before the end of a game (``/api/enter`` with ``step``: the game's
moves from there written anew), a variation written in as a comment (``/api/variation``), a new record
from the form's choices (``/api/new``: written and validated), a poll of an analysis's progress
(``/api/progress``), and the time from a fair analysis's start to its first count of deals solved
(over HTTP: polled every 20 ms; the baseline: the in-process call's first report).
"""
from __future__ import annotations

import argparse
import json
import socket
import statistics
import tempfile
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import uvicorn  # noqa: E402

from analyzer.match import random_match  # noqa: E402
from analyzer.generate import random_game  # noqa: E402
from analyzer.notation import write  # noqa: E402
from analyzer.record import Record  # noqa: E402
from analyzer.server import create_app  # noqa: E402
from analyzer.server.jobs import Workers  # noqa: E402
from analyzer.server.library import (BoardRecord, AnalysisRequest, NewGame, analyze_document, enter_move, new_record, position_data,  # noqa: E402
                                     validate_document, write_variation)


TOKEN = "bench-board-token"     # the access token of the board this bench serves


def post(base: str, route: str, body: dict) -> dict:
    req = urllib.request.Request(f"{base}/api/{route}", data=json.dumps(body).encode("utf-8"),
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"},
                                 method="POST")
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as exc:
        raise SystemExit(f"{route}: {exc.code} {exc.read()[:200]!r}") from None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--worlds", type=int, default=50, help="deals a decision of the fair analysis (default 50)")
    ap.add_argument("--browser", action="store_true",
                    help="also time the page in headless Chromium (/usr/bin/chromium, Playwright): from a change of "
                         "the text to its diagnostics drawn, timed in the page, its 300 ms pause included")
    args = ap.parse_args()

    match = random_match("partnership", seed=7, games=4, stop_at_end=False)
    valid = write(match)
    assert len(match.games) == 4, len(match.games)
    broken = valid.replace(str(match.games[1].moves[5].tile), "[9-9]", 1) if match.games[1].moves[5].tile else valid
    game = write(Record(games=[random_game("partnership", seed=11)]))
    end = valid.count("\n") + 1
    fair = (ROOT / "records" / "draw-one-view.dom").read_text(encoding="utf-8")   # one player's view of a draw game

    workers = Workers()
    workers.warm()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="bench-board-")
    record = Path(folder) / "match.dom"
    record.write_text(valid, encoding="utf-8")
    server = uvicorn.Server(uvicorn.Config(create_app([folder], workers, token=TOKEN), host="127.0.0.1", port=port,
                                           log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"

    rows = []
    here_board = position_data(BoardRecord(valid, "<board>"), 0, 5)
    at = {"step": 5, "move": here_board["legal"][0]["move"], "player": here_board["turn"]}
    line = [f"{at['player']} {at['move']}"]
    hands = [{"tiles": [[0, 0], [1, 1]]}, None, {"tiles": [[2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [0, 6], [1, 6]]}, None]
    cases = [
        ("validate, 4 games, valid", lambda: post(base, "validate", {"text": valid}),
         lambda: validate_document(valid, "<board>")),
        ("validate, 4 games, a slip", lambda: post(base, "validate", {"text": broken}),
         lambda: validate_document(broken, "<board>")),
        ("board at the cursor", lambda: post(base, "position", {"text": valid, "cursor": {"line": end, "column": 1}}),
         lambda: position_data(BoardRecord(valid, "<board>"), cursor=(end, 1))),
        ("analyse, partnership game", lambda: post(base, "analyze", {"text": game}),
         lambda: analyze_document(BoardRecord(game, "<board>"))),
        ("analyse, fair (one view)", lambda: post(base, "analyze", {"text": fair, "worlds": args.worlds}),
         lambda: analyze_document(BoardRecord(fair, "<board>"), AnalysisRequest(worlds=args.worlds))),
        ("enter before the end", lambda: post(base, "enter", {"text": valid, "game": 0, **at}),
         lambda: enter_move(BoardRecord(valid, "<board>"), 0, at["move"], at["player"], step=5)),
        ("variation as a comment", lambda: post(base, "variation", {"text": valid, "step": 5, "line": line}),
         lambda: write_variation(BoardRecord(valid, "<board>"), 0, 5, line)),
        ("new record from the form", lambda: post(base, "new", {"variant": "partnership", "hands": hands}),
         lambda: new_record("partnership", {}, NewGame(None, hands))),
        ("progress poll", lambda: post(base, "progress", {"job": "none"}), lambda: workers.progress("none")),
        ("fair: first deals counted", lambda: _first_count(base, fair, args.worlds),
         lambda: _first_count_here(fair, args.worlds)),
    ]
    try:
        if args.browser:
            page_times = _page(base, record, valid, broken, args.repeat)
        for name, over_http, here in cases:
            over_http()                 # once untimed: the first call fills caches on both sides
            here()
            http, local = [], []
            for _ in range(args.repeat):          # taking turns: a disturbance of the shared machine hits both
                http += _seconds(over_http)
                local += _seconds(here)
            rows.append((name, statistics.median(http), max(http), statistics.median(local), max(local)))
    finally:
        server.should_exit = True
        thread.join(10)
        workers.close()

    print(f"{args.repeat} requests each; seconds; baseline: the same library call in this process")
    print(f"{'request':<28} {'median':>8} {'worst':>8} {'base med':>9} {'base worst':>10} {'ratio':>6}")
    for name, med, worst, bmed, bworst in rows:
        print(f"{name:<28} {med:8.3f} {worst:8.3f} {bmed:9.3f} {bworst:10.3f} {med / bmed:6.2f}")
    if args.browser:
        print(f"{'page: change -> diagnostics':<28} {statistics.median(page_times):8.3f} {max(page_times):8.3f}"
              f"   (in the page, 4 games: its 300 ms pause after typing included; a slip put in and out by turns)")


def _seconds(fn) -> list[float]:
    """The call's time, or the time it reports itself (a number: from its start to what it waits for)."""
    t = time.perf_counter()
    got = fn()
    return [got if isinstance(got, float) else time.perf_counter() - t]


def _first_count(base: str, text: str, worlds: int) -> float:
    """Seconds from a fair analysis's request to the first progress poll that counts deals solved (every
    20 ms); the analysis is then left to finish."""
    job = f"bench-{time.perf_counter_ns()}"
    done = {}
    thread = threading.Thread(target=lambda: done.setdefault("doc", post(base, "analyze", {
        "text": text, "worlds": worlds, "job": job})))
    t = time.perf_counter()
    thread.start()
    seen = None
    while seen is None and thread.is_alive():
        d = post(base, "progress", {"job": job})
        if d["phase"] == "worlds" and d["total"] and d["done"]:
            seen = time.perf_counter() - t
        time.sleep(0.02)
    thread.join()
    return seen if seen is not None else time.perf_counter() - t


def _first_count_here(text: str, worlds: int) -> float:
    first = []
    t = time.perf_counter()

    def told(d):
        if not first and d["phase"] == "worlds" and d["total"] and d["done"]:
            first.append(time.perf_counter() - t)
    analyze_document(BoardRecord(text, "<board>"), AnalysisRequest(worlds=worlds), progress=told)
    return first[0] if first else time.perf_counter() - t


def _page(base: str, record: Path, valid: str, broken: str, repeat: int) -> list[float]:
    """Seconds from a change of the page's text (its ``input`` event) to its diagnostics drawn (the last
    change of the list), timed inside the page (``performance.now``) in headless Chromium: Playwright's
    own steps (typing, waiting) are not counted."""
    from playwright.sync_api import sync_playwright

    out = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                     args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1366, "height": 900})
        page.goto(f"{base}/?token={TOKEN}&path={record}")
        page.wait_for_selector("#status:has-text('valid')")
        page.evaluate("""() => {
            window.benchTimes = {};
            document.getElementById('text').addEventListener('input', () => { window.benchTimes.input = performance.now(); });
            new MutationObserver(() => { window.benchTimes.drawn = performance.now(); })
                .observe(document.getElementById('diagnostics'), {childList: true});
        }""")
        for k in range(repeat):
            page.fill("#text", broken if k % 2 == 0 else valid)
            page.wait_for_selector("#diagnostics li.error", state="attached" if k % 2 == 0 else "detached")
            page.wait_for_timeout(100)          # (the list is drawn in one go: nothing changes after)
            out.append(page.evaluate("() => (window.benchTimes.drawn - window.benchTimes.input) / 1000"))
        browser.close()
    return out


if __name__ == "__main__":
    main()
