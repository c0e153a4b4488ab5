"""The board's review as a player uses it (issue #86, item 1), in real headless Chromium against a real server at
1366 and 390 px (touch included): the chart's points are the moves, every move in one list with its value and
grade, the grade counts and accuracy of the analysis, the review's buttons within reach on a phone, the best move
drawn on the table, the focus after New..., and the fair words those of ``analyze --fair``."""
from __future__ import annotations

import contextlib
import json
import re
import shutil
import subprocess
import sys
import urllib.parse

import pytest

from conftest import BOARD_DESKTOP, BOARD_PHONE, RECORDS, ROOT, open_board

SEED2 = RECORDS / "seed2.dom"
MATCH = RECORDS / "match-milo.dom"


def _cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.fixture(scope="module")
def seed2_json() -> dict:
    return json.loads(_cli("analyze", "--json", str(SEED2)).stdout)


def _independent_counts(decisions: list[dict]) -> dict:
    """Each player's (decisions judged, classes, accuracy) counted from ``analyze --json``'s decisions by hand."""
    out: dict = {}
    for d in decisions:
        if d["loss"] is None:
            continue
        n, classes, plain = out.get(d["player"], (0, {"inaccuracy": 0, "mistake": 0, "blunder": 0}, 0))
        if d["class"]:
            classes = {**classes, d["class"]: classes[d["class"]] + 1}
        out[d["player"]] = (n + 1, classes, plain + (d["class"] is None))
    return {p: (n, [c["inaccuracy"], c["mistake"], c["blunder"]], round(100 * plain / n, 1)) for p, (n, c, plain)
            in out.items()}


def _rows(counts: list[dict]) -> dict:
    return {c["player"]: (c["decisions"], c["counts"], c["accuracy"]) for c in counts if c["decisions"]}


# ---- the grade counts: the analysis's typed values, checked against an independent count -------------------------
def test_grade_counts_are_those_of_the_analysis_json():
    """A three-game Milo match analysed as the board does: each game's counts per player and the record's, as
    counted by hand from ``analyze --json`` (the record's the sum of its games'); every player listed, and the
    class names those of the grades."""
    from analyzer.server.library import BoardRecord, analyze_document

    games = json.loads(_cli("analyze", "--json", str(MATCH)).stdout)["games"]
    grades = analyze_document(BoardRecord(MATCH.read_text(encoding="utf-8"), "milo"))["explained"]["grades"]
    assert grades["fair"] is False and grades["classes"] == ["inaccuracy", "mistake", "blunder"]
    assert len(grades["games"]) == len(games) == 3
    everyone: list[dict] = []
    for g, counted in zip(games, grades["games"]):
        assert [c["player"] for c in counted] == g["players"] + [None]
        assert _rows(counted[:-1]) == _independent_counts(g["decisions"])
        whole = _independent_counts([{**d, "player": "all"} for d in g["decisions"]])["all"]
        assert (counted[-1]["decisions"], counted[-1]["counts"], counted[-1]["accuracy"]) == whole
        everyone += g["decisions"]
    assert _rows(grades["match"][:-1]) == _independent_counts(everyone)
    assert sum(c["counts"][1] for c in grades["match"][:-1]) == sum(d["class"] == "mistake" for d in everyone)


@pytest.mark.slow
def test_fair_grade_counts_follow_the_fair_verdicts():
    """seed2 with the fair analysis: the counts are the fair ones (B's [2-6]@2, the one real mistake of
    ``analyze --fair``), not the four open-hands mistakes."""
    from analyzer.analysis.gradecounts import grade_counts
    from analyzer.pipeline import Options, judge_fairly, read_text

    run = read_text("seed2", SEED2.read_text(encoding="utf-8"), Options("analyze", fair_worlds=200))
    judge_fairly(run, every_deal=True, workers=1)
    counts = grade_counts(run.analyses)
    real = [(d.player, d.played) for d in run.analyses[0].decisions if d.fair.verdict == "real"]
    assert real == [("B", "[2-6]@2")]
    assert counts.fair and counts.match[-1].counts == (0, 1, 0)
    assert [c.counts for c in counts.games[0] if c.player == "B"] == [(0, 1, 0)]


# ---- the best move drawn on the table ----------------------------------------------------------------------------
def test_the_best_move_is_drawn_on_the_table_by_the_diagrams_drawing(seed2_json):
    """At each decision of seed2 with one best move (``analyze --json``), the board's table asked with it is the
    table after it, its tile marked as the best (once); a move the rules do not allow there is not drawn."""
    from analyzer.server.library import BoardRecord, position_data

    doc = BoardRecord(SEED2.read_text(encoding="utf-8"), "seed2")
    drawn = 0
    for d in seed2_json["games"][0]["decisions"]:
        best = [a["move"] for a in d["alternatives"] if a["best"]]
        if len(best) != 1 or best[0] == "pass":
            continue
        plain = position_data(doc, 0, d["index"])
        marked = position_data(doc, 0, d["index"], best=best[0])
        assert plain["best"] is None and "tile best" not in plain["drawing"]
        assert marked["best"] == best[0] and marked["drawing"].count('class="tile best"') == 1
        assert 'class="tile last"' not in marked["drawing"]
        assert marked["board"] == plain["board"]          # (the hands and the table the record has, unchanged)
        drawn += 1
    assert drawn >= 3
    wrong = position_data(doc, 0, 0, best="[4-4]")        # (B leads: [4-4] is A's)
    assert wrong["best"] is None and "tile best" not in wrong["drawing"]


# ---- in Chromium -------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def served(tmp_path_factory):
    pytest.importorskip("uvicorn")
    from conftest import served_board

    folder = tmp_path_factory.mktemp("review86")
    for path in (SEED2, MATCH):
        shutil.copy(path, folder / path.name)
    with served_board([str(folder)]) as port:
        yield f"http://127.0.0.1:{port}", folder


@contextlib.contextmanager
def _board(browser, served, name: str | None, viewport: dict, **options):
    base, folder = served
    context = browser.new_context(viewport=viewport, **options)
    errors: list[str] = []
    try:
        yield open_board(context, base, errors, f"&path={folder / name}" if name else "")
    finally:
        context.close()
    assert errors == []


def _expect():
    return pytest.importorskip("playwright.sync_api").expect


def _chart_point(page, k: int) -> tuple[float, float]:
    """Where point ``k`` of the value chart is on the screen."""
    return page.eval_on_selector(f"#chart circle[data-step='{k}']",
                                 "c => { const r = c.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }")


@pytest.mark.parametrize("viewport", [BOARD_DESKTOP, BOARD_PHONE], ids=["1366", "390"])
def test_the_review_every_move_the_chart_and_the_buttons(browser, served, seed2_json, viewport):
    """seed2 opened for review: every move of the game is listed once, with the value after it (``values``) and
    the grade of ``analyze --json``, "forced" where its player had no choice; a click (a tap on a phone) on a point
    of the value chart shows the board at that position; the buttons go to the next and the previous graded move
    and the critical one; on a phone they stand in the first screen and the review within its first two."""
    expect = _expect()
    g = seed2_json["games"][0]
    phone = viewport is BOARD_PHONE
    graded = [d["index"] for d in g["decisions"] if d["class"]]
    with _board(browser, served, "seed2.dom", viewport, has_touch=phone) as page:
        expect(page.locator("#review")).to_be_visible()
        items = page.locator("#movelist li")
        expect(items).to_have_count(len(g["moves"]))
        texts = page.eval_on_selector_all("#movelist li button", "els => els.map(e => e.textContent)")
        decided = {d["index"]: d for d in g["decisions"]}
        for k, (m, words) in enumerate(zip(g["moves"], texts)):
            value = g["values"][k + 1]
            assert words.startswith(f"{k + 1}.{m['player']} {m['move']}{'+' if value > 0 else ''}{value}")
            d = decided.get(k)
            if d is None:
                assert "forced" in words
            elif d["class"]:
                assert f"{d['class']}, losing {d['loss']} points" in words
        assert page.eval_on_selector_all("#movelist li.grade button", "els => els.map(e => +e.dataset.step)") == graded
        # the chart: a point clicked or tapped shows the board there
        page.locator("#chart").scroll_into_view_if_needed()
        for k in (5, 12):
            x, y = _chart_point(page, k)
            page.mouse.click(x, y) if not phone else page.touchscreen.tap(x, y)
            expect(page.locator("#stepinfo")).to_contain_text(f"after move {k} of 22")
            expect(page.locator("#movelist li.here button")).to_have_attribute("data-step", str(k))
        # the buttons: next and previous graded, the critical move (a tap on a phone)
        if phone:          # (nothing wider than the phone: the page does not scroll sideways)
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            assert page.eval_on_selector("#gradecounts", "e => e.scrollWidth <= e.clientWidth")
            assert page.locator("#reviewbar").evaluate("b => b.getBoundingClientRect().bottom + scrollY") < 844
            assert page.locator("#review").evaluate("b => b.getBoundingClientRect().top + scrollY") < 2 * 844
        press = (lambda sel: page.tap(sel)) if phone else (lambda sel: page.click(sel))
        press("#nextgraded")
        after = min(i for i in graded if i > 12)
        expect(page.locator("#stepinfo")).to_contain_text(f"after move {after} of 22")
        press("#prevgraded")
        expect(page.locator("#stepinfo")).to_contain_text(f"after move {max(i for i in graded if i < after)} of 22")
        press("#critical")
        expect(page.locator("#stepinfo")).to_contain_text(f"after move {g['critical']['index']} of 22")
        # the keys: P the graded move before, N the next
        page.click("h1")
        page.keyboard.press("p")
        before = max(i for i in graded if i < g["critical"]["index"])
        expect(page.locator("#stepinfo")).to_contain_text(f"after move {before} of 22")
        page.keyboard.press("n")
        expect(page.locator("#stepinfo")).to_contain_text(f"after move {g['critical']['index']} of 22")
        # the counts: each player's, as the analysis gives them
        rows = page.eval_on_selector_all("#gradecounts tbody tr", "els => els.map(e => e.textContent)")
        assert rows[0].startswith("A4") and rows[-1].startswith("all13") and rows[-1].endswith("69.2%")
        page.screenshot(path=str(served[1] / f"review-{viewport['width']}.png"))


def test_the_best_move_is_marked_on_the_boards_table(browser, served, seed2_json):
    """At a decision of seed2 with one best move, the board's table (the server's drawing) shows it laid and
    marked, and says so in words; at the deal (B leads, [1-1] and [0-1] not apart) there is no mark."""
    expect = _expect()
    g = seed2_json["games"][0]
    d = next(d for d in g["decisions"] if d["class"] and sum(a["best"] for a in d["alternatives"]) == 1)
    best = next(a["move"] for a in d["alternatives"] if a["best"])
    with _board(browser, served, "seed2.dom", BOARD_DESKTOP) as page:
        expect(page.locator("#review")).to_be_visible()
        page.click(f"#movelist li button[data-step='{d['index']}']")
        expect(page.locator("#ends")).to_contain_text(f"the best move, {best}")
        svg = urllib.parse.unquote(page.eval_on_selector("#table img", "i => i.src"))
        assert svg.count('class="tile best"') == 1
        assert best in page.eval_on_selector("#table img", "i => i.alt")


@pytest.mark.parametrize("viewport", [BOARD_DESKTOP, BOARD_PHONE], ids=["1366", "390"])
def test_after_new_the_focus_is_on_the_first_move_and_the_board_in_sight(browser, served, viewport):
    """New... written: the focus is on the first move the board offers (not in the text, which opens a phone's
    keyboard), the board's moves in sight; a move tapped keeps them there."""
    expect = _expect()
    phone = viewport is BOARD_PHONE
    with _board(browser, served, "seed2.dom", viewport, has_touch=phone) as page:
        expect(page.locator("#review")).to_be_visible()
        page.click("#newrecord")
        page.wait_for_selector("#nvariant option", state="attached")
        page.click("#nwrite")
        expect(page.locator("#legal button").first).to_be_focused()
        assert page.evaluate("document.activeElement.id") != "text"
        top = page.locator("#legal").evaluate("b => b.getBoundingClientRect().top")
        assert 0 <= top < viewport["height"]
        # a new record opens for writing (seed2, opened before it, was for review): Enter writes the move focused
        assert page.is_checked("input[name=clickmode][value=record]")
        move = page.evaluate("[document.activeElement.dataset.player, document.activeElement.dataset.move]")
        page.keyboard.press("Enter")
        expect(page.locator("#text")).to_have_value(re.compile(rf"1\. {move[0]} {re.escape(move[1])}"))
        expect(page.locator("#legal button").first).to_be_focused()


@pytest.mark.slow
def test_the_boards_fair_words_are_those_of_analyze_fair(browser, served):
    """seed2 analysed with "fair": at B's [2-6]@2 the note opens with the line ``analyze --fair`` prints for it
    (its deals, best, gap and loss and REAL MISTAKE), the move's grade is "real mistake", the open-hands value
    follows as hindsight; at B's first move (a mistake only with every hand open) the word is "hindsight only"."""
    expect = _expect()
    text = _cli("analyze", "--fair", str(SEED2)).stdout
    fair_lines = [line.strip() for line in text.splitlines() if line.strip().startswith("fair (")]
    real = next(line for line in fair_lines if "REAL MISTAKE" in line)
    first = fair_lines[0]
    assert first.endswith("hindsight only")
    with _board(browser, served, "seed2.dom", BOARD_DESKTOP) as page:
        expect(page.locator("#review")).to_be_visible()
        page.check("#fair")
        page.click("#analyse")
        expect(page.locator("#valuehead")).to_have_text("fair value (95% interval)", timeout=240_000)
        page.click("#movelist li button[data-step='16']")
        expect(page.locator("#stepinfo")).to_contain_text("after move 16 of 22")
        note = page.text_content("#valuesnote")
        assert real[1:] in note
        assert note.index(real[1:]) < note.index("With every hand open (hindsight)")
        assert "Value here with best play" not in note
        assert "(real mistake)" in note and "(mistake)" not in note
        assert "real mistake, losing 10.52 points" in page.inner_text("#movelist li.grade")
        page.click("#movelist li button[data-step='0']")
        expect(page.locator("#valuesnote")).to_contain_text(first[1:])
        assert "(hindsight only)" in page.inner_text("#valuesnote")
