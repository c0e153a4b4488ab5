"""The board for a whole match and for review (issue #66), in real headless Chromium against a real server:
every call of the page through its one transport (the static site answers them without a server)."""
from __future__ import annotations

import contextlib
import re
import shutil

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
expect = pytest.importorskip("playwright.sync_api").expect

from conftest import BOARD_DESKTOP, BOARD_TOKEN, RECORDS, board_client, open_board, served_board  # noqa: E402

# the page's calls answered by a transport of its own (as the static site's Web Worker does): it forwards each
# to the real server and counts it; fetch itself refuses any other call
TRANSPORT = """(() => {
  const real = window.fetch.bind(window);
  window.transported = [];
  window.fetch = (url, init) => Promise.reject(new Error("fetch called directly: " + url));
  window.dominoTransport = (route, body, signal) => {
    window.transported.push(route);
    return real("/api/" + route, {method: "POST", body: JSON.stringify(body), signal: signal,
        headers: {"Content-Type": "application/json", "Authorization": "Bearer %s"}})
      .then(r => r.json().then(data => ({status: r.status, data: data})));
  };
})();""" % BOARD_TOKEN


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("review")
    for name in ("seed1.dom", "seed2.dom"):
        shutil.copy(RECORDS / name, folder / name)
    with served_board([str(folder)]) as port:
        yield f"http://127.0.0.1:{port}", folder


@contextlib.contextmanager
def _board(browser, base: str, path, viewport: dict, init: str | None = None, **options):
    """A page of the module's board with the file ``path`` opened, in a context of its own at ``viewport``
    (``init``: a script run in the page before its own); at the end the context is closed, and the page had no
    script error."""
    context = browser.new_context(viewport=viewport, **options)
    if init:
        context.add_init_script(init)
    errors: list[str] = []
    try:
        yield open_board(context, base, errors, f"&path={path}")
    finally:
        context.close()
    assert errors == []


def test_every_call_of_the_page_goes_through_its_one_transport(browser, served):
    base, folder = served
    with _board(browser, base, folder / "seed2.dom", BOARD_DESKTOP, init=TRANSPORT) as page:
        page.wait_for_selector("#legal button, #legal .none, #stepinfo")
        expect(page.locator("#stepinfo")).not_to_be_empty()
        page.click("#newrecord")
        page.wait_for_selector("#nvariant option", state="attached")
        # (the validation waits for the text to rest: 300 ms after the last change)
        wanted = ["files", "open", "validate", "position", "variants"]
        page.wait_for_function("wanted => wanted.every(route => window.transported.includes(route))", arg=wanted)
        assert set(wanted) <= set(page.evaluate("window.transported"))


# ---- a whole match by clicks (#66 item 1) ----------------------------------------------------------------------
# a partnership match of three games (Milo's scoring) as a sheet without hands (the hands' lines "?")
MATCH = re.sub(r"(?m)^(\w+): \[.*$", r"\1: ?", (RECORDS / "match-milo.dom").read_text(encoding="utf-8"))
# game 1's header as a transcriber writes it once: the names, who leads, the hands not known
MATCH_START = ('[Event "a partnership match"]\n[Game "1"]\n[Variant "partnership"]\n'
               '[Rules "system=milo, score=milo, target=5"]\n[Players "A, B, C, D"]\n[Lead "D"]\n\nA: ?\nB: ?\nC: ?\nD: ?\n')


def _sheet_games(text: str) -> list[dict]:
    from analyzer.notation import parse
    from analyzer.server.library import BoardRecord, position_data

    record = parse(text, "sheet")
    return [{"moves": [(m["player"], m["move"]) for m in position_data(BoardRecord(text, "sheet"), k)["moves"]],
             "tags": dict(g.tags)} for k, g in enumerate(record.games)]


def _click_moves(page, moves) -> None:
    """Click each of ``moves`` (player, move) on the board, each once its board is drawn (no key pressed)."""
    for k, (player, move) in enumerate(moves):
        expect(page.locator("#stepinfo")).to_contain_text("the deal" if k == 0 else f"after move {k} of {k}")
        page.click(f"#legal button[data-move='{move}'][data-player='{player}']")
    expect(page.locator("#stepinfo")).to_contain_text(f"after move {len(moves)} of {len(moves)}")


@pytest.mark.slow
def test_a_three_game_match_entered_by_clicks_only(browser, served):
    """A partnership match's first three games, a sheet without hands (83 moves), entered by clicks alone: each
    game's moves, then "Next game", which writes the result the rules reckon and the next game's header with the
    lead the rules name (A, then B: the next player leads, as the sheet has it): the record read back holds the
    sheet's moves, numbers, leads and results."""
    base, folder = served
    (folder / "match-new.dom").write_text(MATCH_START, encoding="utf-8")
    sheet = _sheet_games(MATCH)
    with _board(browser, base, folder / "match-new.dom", BOARD_DESKTOP) as page:
        for k, game in enumerate(sheet):
            _click_moves(page, game["moves"])
            if k < len(sheet) - 1:
                result = game["tags"]["Result"]
                # (a blocked hand's winner hangs on the tiles not shown: the sheet's result among those offered)
                if page.locator(f"#legal button[data-result='{result}']").count():
                    page.click(f"#legal button[data-result='{result}']")
                    expect(page.locator("#legal button[data-result]")).to_have_count(0)
                page.click("#nextgame")
                expect(page.locator("#stepinfo")).to_contain_text(f"game {k + 2} of {k + 2}")
        written = page.input_value("#text")
    got = _sheet_games(written)
    assert [g["moves"] for g in got] == [g["moves"] for g in sheet]
    for mine, theirs in zip(got, sheet):
        assert mine["tags"]["Lead"] == theirs["tags"]["Lead"]
        assert mine["tags"]["Game"] == theirs["tags"]["Game"]
    # the results of the first two games, chosen among those offered or written by "Next game", are the sheet's
    assert [g["tags"].get("Result") for g in got[:2]] == [g["tags"]["Result"] for g in sheet[:2]]


# ---- the next game's header, and no move written into a header (the API, as the page calls it) ------------------
KOZEL = (RECORDS / "sheet-kozel.dom").read_text(encoding="utf-8")
KOZEL_GAMES = KOZEL.split("\n\n[Event")


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    with board_client([str(tmp_path_factory.mktemp("api"))]) as c:
        yield c


def test_a_click_never_writes_a_move_into_a_header(api):
    """A game's header typed without its hands' lines: the move clicked goes after the header, in that game (the
    record still holds three games, the move the third's first), never between its tags."""
    two = KOZEL_GAMES[0] + "\n\n[Event" + KOZEL_GAMES[1]
    typed = two.rstrip("\n") + '\n\n[Game "3"]\n[Variant "kozel"]\n[Players "A, B, C, D"]\n[Lead "D"]\n'
    out = api.post("/api/enter", json={"text": typed, "game": 2, "move": "[2-6]", "player": "D"})
    assert out.status_code == 200, out.text
    text = out.json()["text"]
    assert text.startswith(typed)                      # the header as typed, the move after it
    board = api.post("/api/position", json={"text": text, "game": 2}).json()
    assert board["games"] == 3
    assert [(m["player"], m["move"]) for m in board["moves"]] == [("D", "[2-6]")]


def test_next_game_writes_the_header_the_match_decides(api):
    """After the Kozel sheet's game 2 (D went out): game 3's header, D leading (Kozel: the player who went out
    leads, as the sheet's own Lead tag says), the same players, a ? hand each; the board then stands on its deal
    with D to move. A game not over has no next game yet."""
    two = KOZEL_GAMES[0] + "\n\n[Event" + KOZEL_GAMES[1]
    out = api.post("/api/next", json={"text": two})
    assert out.status_code == 200, out.text
    data = out.json()
    assert (data["number"], data["lead"], data["game"], data["match_over"]) == (3, "D", 2, False)
    added = data["text"][len(two):]
    assert '[Game "3"]' in added and '[Lead "D"]' in added and '[Players "A, B, C, D"]' in added
    assert all(f"{p}: ?" in added for p in "ABCD")
    board = api.post("/api/position", json={"text": data["text"], "game": 2}).json()
    assert (board["games"], board["step"], board["turn"]) == (3, 0, "D")
    cut = two.rstrip("\n").rsplit("\n", 1)[0]          # game 2 without its last row: not over
    refused = api.post("/api/next", json={"text": cut})
    assert refused.status_code == 422 and "not over" in refused.json()["error"]


def test_a_blocked_sheets_result_is_offered_among_its_deals(api):
    """A partnership sheet without hands blocked: the winner hangs on the tiles not shown, so the board offers each
    result its deals give (the sheet's among them), writes the one picked and refuses one no deal gives."""
    first = re.sub(r'(?m)^\[(Result|Score) .*\n', "", MATCH.split('\n\n[Game "2"]')[0] + "\n")
    board = api.post("/api/position", json={"text": first, "game": 0}).json()
    assert board["result"] is None and "A/C 1 blocked" in board["results"] and len(board["results"]) > 1
    out = api.post("/api/result", json={"text": first, "game": 0, "result": "A/C 1 blocked"}).json()
    assert '[Result "A/C 1 blocked"]' in out["text"]
    wrong = api.post("/api/result", json={"text": first, "game": 0, "result": "A/C 30 domino"})
    assert wrong.status_code == 422


# ---- review first (#66 items 2, 3, 5) ---------------------------------------------------------------------------
def _cli_json(*args) -> dict:
    import json
    import subprocess
    import sys

    from conftest import ROOT
    out = subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout)


def test_a_finished_record_opens_for_review(browser, served):
    """seed2 (a finished, valid game) opens for review: a click plays a variation, the graded moves are those
    ``analyze --json`` grades (its classes and losses), and C puts the board at its critical move."""
    base, folder = served
    g = _cli_json("analyze", "--json", str(folder / "seed2.dom"))["games"][0]
    graded = [d for d in g["decisions"] if d["class"]]
    with _board(browser, base, folder / "seed2.dom", BOARD_DESKTOP) as page:
        expect(page.locator("#review")).to_be_visible()
        assert page.is_checked("input[name=clickmode][value=variation]")
        items = page.locator("#movelist li.grade button")
        expect(items).to_have_count(len(graded))
        steps = page.eval_on_selector_all("#movelist li.grade button", "els => els.map(e => +e.dataset.step)")
        assert steps == [d["index"] for d in graded]
        for d, words in zip(graded, page.eval_on_selector_all("#movelist li.grade button", "els => els.map(e => e.textContent)")):
            assert f"{d['class']}, losing {d['loss']} points" in words
            assert d["reasons"] and f": {d['reasons'][0]['sentence']}" in words       # why it lost (docs/reasons.md)
        assert page.locator("#chart svg[role=img]").count() == 1
        c = g["critical"]
        expect(page.locator("#reviewnote")).to_contain_text(f"; the critical move: {c['index'] + 1}. {c['player']} "
                                                            f"{c['played']}")
        page.click("h1")
        page.keyboard.press("c")
        critical = g["critical"]["index"]
        expect(page.locator("#stepinfo")).to_contain_text(f"after move {critical} of")
        # a click on a move there plays a variation: the record's text stays as it was
        before = page.input_value("#text")
        page.locator("#legal button.move").first.click()
        expect(page.locator("#back")).to_be_visible()
        assert page.input_value("#text") == before


@pytest.mark.slow
def test_with_fair_the_table_and_the_note_give_one_verdict(browser, served):
    """seed2 analysed with "fair" (every hand written): at B's first move the table shows the fair values with
    their 95% intervals and marks the fair best, the one the note names and ``analyze --fair --json`` gives,
    not the open-hands best ([0-1]) beside it."""
    base, folder = served
    g = _cli_json("analyze", "--fair", "--json", str(folder / "seed2.dom"))["games"][0]
    d = g["decisions"][0]
    open_best = next(a["move"] for a in d["alternatives"] if a["best"])
    assert d["fair"]["best"] != open_best            # (the case of the issue: the two verdicts differ here)
    with _board(browser, base, folder / "seed2.dom", BOARD_DESKTOP) as page:
        expect(page.locator("#review")).to_be_visible()          # (the analysis at opening is done)
        page.check("#fair")
        page.click("#analyse")
        expect(page.locator("#valuehead")).to_have_text("fair value (95% interval)", timeout=240_000)
        page.click("h1")
        page.keyboard.press("Home")
        expect(page.locator("#stepinfo")).to_contain_text("the deal")
        best = page.eval_on_selector_all("#valuerows tr.best", "els => els.map(e => e.dataset.move)")
        assert best == [d["fair"]["best"]]
        assert f"best {d['fair']['best']}" in page.inner_text("#valuesnote")
        cells = page.eval_on_selector_all("#valuerows tr:not(.line) td.val", "els => els.map(e => e.textContent)")
        assert len(cells) == len(d["alternatives"]) and all(" to " in c for c in cells)
        assert "B wants lower" in page.inner_text("#valuesnote")
        assert "95% interval" in page.inner_text("#valueslegend")
        # the review names the verdict by its name (docs/fair.md, "Three names"): the fair critical move
        c = g["fair_critical"]
        expect(page.locator("#reviewnote")).to_contain_text(f"; the fair critical move: {c['index'] + 1}. {c['player']} "
                                                            f"{c['played']}")


def test_a_phone_click_on_a_move_keeps_the_focus_and_the_scroll(browser, served):
    """At 390 px a move clicked (writing mode, a record still being written) is written into the record while the
    focus stays off the text (no keyboard brought up) and the page does not scroll to the text."""
    base, folder = served
    (folder / "phone.dom").write_text(MATCH_START, encoding="utf-8")
    with _board(browser, base, folder / "phone.dom", {"width": 390, "height": 844}) as page:
        first = _sheet_games(MATCH)[0]["moves"]
        for k, (player, move) in enumerate(first[:3]):
            expect(page.locator("#stepinfo")).to_contain_text("the deal" if k == 0 else f"after move {k} of {k}")
            button = page.locator(f"#legal button[data-move='{move}'][data-player='{player}']")
            button.scroll_into_view_if_needed()
            y = page.evaluate("window.scrollY")
            top = button.evaluate("b => b.getBoundingClientRect().top")
            button.click()
            expect(page.locator("#stepinfo")).to_contain_text(f"after move {k + 1} of {k + 1}")
            assert page.evaluate("document.activeElement.id") != "text"
            # (no scroll to the text, which lies far below; Chromium's scroll anchoring may move it by a pixel to
            # keep the moves still where a line above them changes height: seen once in a full run)
            assert abs(page.evaluate("window.scrollY") - y) <= 1
            # the moves stay where they were on screen
            assert abs(page.locator("#legal").evaluate("b => b.getBoundingClientRect().top") - top) < 200
        assert "1. D [6-6]" in page.input_value("#text")


def test_left_and_right_step_the_board_on_the_click_mode_and_through_the_games(browser, served):
    """With "a click plays a variation" chosen (the focus on its radio), left and right step the board and leave
    the choice as it is; right at a game's end goes to the next game's deal, left there back to its end."""
    base, folder = served
    (folder / "three.dom").write_text(MATCH, encoding="utf-8")
    sheet = _sheet_games(MATCH)
    with _board(browser, base, folder / "three.dom", BOARD_DESKTOP) as page:
        expect(page.locator("#stepinfo")).to_contain_text("game 1 of 3")
        page.check("input[name=clickmode][value=variation]")
        page.focus("input[name=clickmode][value=variation]")
        page.keyboard.press("End")
        n = len(sheet[0]["moves"])
        expect(page.locator("#stepinfo")).to_contain_text(f"after move {n} of {n}")
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#stepinfo")).to_contain_text(f"after move {n - 1} of {n}")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        expect(page.locator("#stepinfo")).to_contain_text("game 2 of 3 · the deal")
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#stepinfo")).to_contain_text(f"game 1 of 3 · after move {n} of {n}")
        assert page.is_checked("input[name=clickmode][value=variation]")


# ---- forms and moves (#66 item 7) -------------------------------------------------------------------------------
MUGGINS = ('[Event "all fives"]\n[Variant "all-fives"]\n[Players "A, B"]\n[Lead "A"]\n\n'
           "A: [0-0] [0-2] [0-5] [2-5] [5-5]\nB: [1-2] [1-3] [1-5] [3-6] [4-4]\n\n1. A [5-5]\n")


def test_a_muggins_call_is_entered_on_the_board(browser, served):
    """All Fives: A leads [5-5] (10 points) and does not claim them; B calls Muggins (typed "m10"): the call is
    written into the record as the notation has it, after A's play, and the record is valid (the rules allow it)."""
    base, folder = served
    (folder / "muggins.dom").write_text(MUGGINS, encoding="utf-8")
    with _board(browser, base, folder / "muggins.dom", BOARD_DESKTOP) as page:
        expect(page.locator("#text")).to_have_value(MUGGINS)          # (the file opened: then its end clicked)
        expect(page.locator("#tomove")).to_contain_text("A to move")
        page.evaluate("""() => { const t = document.getElementById('text');
            t.setSelectionRange(t.value.length, t.value.length); t.dispatchEvent(new MouseEvent('click')); }""")
        expect(page.locator("#tomove")).to_contain_text("B to move")
        page.fill("#keymove", "m10")
        page.press("#keymove", "Enter")
        expect(page.locator("#text")).to_have_value(MUGGINS.replace("1. A [5-5]", "1. A [5-5] B muggins 10"))
        expect(page.locator("#status")).to_have_text("valid")


def test_names_as_the_sheet_spells_them_are_written_as_the_notation_names_players(api):
    """"Mohammed>." and a name with a blank are taken, written as the notation's words for them (as the importers
    write names), the lead given in the sheet's spelling; the record is valid and says who was renamed."""
    out = api.post("/api/new", json={"variant": "partnership", "players": ["Mohammed>.", "Ана Петрова", "C", "D"],
                                     "lead": "Mohammed>."})
    assert out.status_code == 200, out.text
    data = out.json()
    assert '[Players "Mohammed, Ана_Петрова, C, D"]' in data["text"] and '[Lead "Mohammed"]' in data["text"]
    assert data["renamed"] == {"Mohammed>.": "Mohammed", "Ана Петрова": "Ана_Петрова"}
    assert data["validation"]["summary"]["valid"] == 1


def test_a_draw_games_starter_tile_is_written_by_the_new_form(api):
    """The draw game's tile turned up from the boneyard (the Starter tag, variants.md) chosen in New...: written,
    and refused where a hand holds it or the variant has no boneyard."""
    out = api.post("/api/new", json={"variant": "draw", "players": ["Anna", "Ben"], "lead": "Anna",
                                     "starter": [5, 4]}).json()
    assert '[Starter "[4-5]"]' in out["text"] and out["validation"]["summary"]["valid"] == 1
    held = api.post("/api/new", json={"variant": "draw", "players": ["Anna", "Ben"], "starter": [4, 5],
                                      "hands": [{"tiles": [[4, 5]]}, None]})
    assert held.status_code == 422 and "Anna's hand" in held.json()["error"]
    none = api.post("/api/new", json={"variant": "partnership", "starter": [4, 5]})
    assert none.status_code == 422 and "no boneyard" in none.json()["error"]


# ---- accessibility (#66 item 8): axe-core, installed from the npm registry into tests/axe (never a CDN) ----------
AXE = RECORDS.parent / "tests" / "axe" / "node_modules" / "axe-core" / "axe.min.js"


def _axe(page) -> list[dict]:
    """The critical and serious violations axe-core finds on ``page`` (its rules for WCAG A and AA)."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
        return r.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}));
    }""")
    return [v for v in found if v["impact"] in ("critical", "serious")]


@pytest.fixture(scope="module")
def axe_ready():
    if not AXE.exists():
        pytest.skip("axe-core is not installed: cd tests/axe && npm install")


def test_axe_finds_no_serious_violation_on_the_board(browser, served, axe_ready):
    """The board in review (seed2 analysed: the graded moves, the chart, the values) and the New... form: no
    critical or serious violation, at 1366 and at 390 px."""
    base, folder = served
    for viewport in (BOARD_DESKTOP, {"width": 390, "height": 844}):
        # (bypass_csp: the check's script is put in the page)
        with _board(browser, base, folder / "seed2.dom", viewport, bypass_csp=True) as page:
            expect(page.locator("#movelist li.grade").first).to_be_attached()
            page.click("#movelist li.grade button >> nth=0")
            assert _axe(page) == []
            page.click("#newrecord")
            page.wait_for_selector("#nvariant option", state="attached")
            assert _axe(page) == []


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """``domino report`` of two records: their pages and the index."""
    import subprocess
    import sys

    from conftest import ROOT
    folder = tmp_path_factory.mktemp("reports")
    for name in ("seed2.dom", "variant-french.dom"):
        shutil.copy(RECORDS / name, folder / name)
    out = folder / "out"
    subprocess.run([sys.executable, "-m", "analyzer", "report", str(folder / "seed2.dom"),
                    str(folder / "variant-french.dom"), "-o", str(out), "--quiet"], cwd=ROOT, capture_output=True)
    return out


def _axe_file(browser, path) -> list[dict]:
    context = browser.new_context(viewport=BOARD_DESKTOP, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        return _axe(page)
    finally:
        context.close()


def test_axe_finds_no_serious_violation_on_the_reports_index(browser, reports, axe_ready):
    assert _axe_file(browser, reports / "index.html") == []


def test_axe_finds_no_serious_violation_on_a_report_page(browser, reports, axe_ready):
    assert _axe_file(browser, reports / "seed2.dom.html") == []
