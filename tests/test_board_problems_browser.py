"""Issue 51 on the board's page in headless Chromium, at a laptop's and a phone's width: a position set up from
the form by clicks alone (the line in order, each hand, the passes' voids, who moves), shown valid, and its
values equal to ``domino analyze --json`` of the same text; a problem set opened, answered by a click, the
answer revealed (the file's values and intervals), the next problem; a book problem's answer from the server's
analysis, equal to ``analyze --json``."""
from __future__ import annotations

import json
import re
import shutil

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
expect = pytest.importorskip("playwright.sync_api").expect

from analyzer.notation import parse  # noqa: E402
from analyzer.notation.setup import read_setup  # noqa: E402

from conftest import BOARD_DESKTOP, BOARD_PHONE, ROOT, analyze_to_move, board_page  # noqa: E402

PROBLEMS = ROOT / "docs" / "problems"
TRAIN = ROOT / "tests" / "data" / "train-seed-B.json"
WIDTHS = [("desktop", BOARD_DESKTOP), ("phone", BOARD_PHONE)]


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    folder = tmp_path_factory.mktemp("board")
    shutil.copytree(PROBLEMS, folder / "book")
    shutil.copy(TRAIN, folder / "maria.json")
    return folder



def _said(text: str) -> tuple:
    """What the set-up record ``text`` says: its tags (its Event and Source aside) and each hand's tiles."""
    game = parse(text).games[0]
    return ({k: v for k, v in game.tags.items() if k not in ("Event", "Source")},
            [(h.player, sorted(h.tiles or ()), h.unknown) for h in game.hands])


def _same_fair(shown: str, mean: float, ci95: list[float]) -> None:
    """``shown`` (``fair +22.13 (95%: +18.74 to +25.51)``) is ``mean`` and ``ci95`` to the two places shown."""
    found = re.fullmatch(r"fair ([−+]?[\d.]+) \(95%: ([−+]?[\d.]+) to ([−+]?[\d.]+)\)", shown.strip())
    assert found, shown
    numbers = [float(x.replace("−", "-")) for x in found.groups()]
    assert all(abs(x - y) <= 0.005 + 1e-9 for x, y in zip(numbers, [mean, *ci95])), (shown, mean, ci95)


def _write(page) -> None:
    """Write the set-up, and wait for the page's validation of it (the status said "valid" of the text before)."""
    with page.expect_response(lambda r: r.url.endswith("/api/validate") and "[SetUp" in (r.request.post_data or "")):
        page.click("#swrite")
    expect(page.locator("#serror")).to_be_hidden()
    expect(page.locator("#setupform")).to_be_hidden()


def _set_up(page, text: str, line: bool = True) -> None:
    """Set up the position of the set-up record ``text`` in the form by clicks (and the counts typed); ``line``:
    its line too."""
    game = parse(text).games[0]
    setup = read_setup(game)[0]
    page.click("#setuprecord")
    page.wait_for_selector("#sset button[data-tile='[6-6]']")
    page.fill("#sproblem", game.tags["Problem"])
    if line:
        page.check("#splaces [data-place='line'] input[type=radio]")
        for t in setup.line:
            page.click(f"#sset button[data-tile='{t}']")
        expect(page.locator("#splaces [data-place='line'] .ntiles svg")).to_have_count(len(setup.line))
    voids = dict(setup.lacks)
    for seat, hand in enumerate(game.hands):
        row = f"#splaces [data-place='{seat}']"
        page.check(f"{row} input[name=splace]")
        for t in hand.tiles or ():
            page.click(f"#sset button[data-tile='{t}']")
        hidden = hand.unknown if hand.tiles is not None else 1
        if hidden:
            page.fill(f"{row} input.nunknown", str(hidden))
        for n in voids.get(hand.player, ()):
            page.click(f"{row} button.nlack[data-number='{n}']")
        if hand.player == setup.to_move:
            page.check(f"{row} input[name=stomove]")


@pytest.mark.parametrize("width,viewport", WIDTHS)
def test_a_position_set_up_by_clicks_is_valid_and_analysed(browser, root, tmp_path, width, viewport):
    """Problem 1 (every hand shown) set up by clicks: the record written is the problem's (its Event and Source
    aside), valid; the board shows B to move with his two plays; Analyse gives the values of ``analyze``."""
    text = (PROBLEMS / "1-seed1-open.dom").read_text(encoding="utf-8")
    with board_page(browser, root, viewport=viewport) as page:
        _set_up(page, text)
        page.screenshot(path=f"/tmp/board-setup-form-{width}.png", full_page=True)
        _write(page)
        written = page.input_value("#text")
        assert _said(written) == _said(text) and written.startswith('[Event "a position"]\n')
        expect(page.locator("#status")).to_have_text(re.compile(r"^valid"))
        expect(page.locator("#tomove")).to_contain_text("B to move")
        expect(page.locator("#legal button.move")).to_have_count(2)
        page.click("#analyse")
        expect(page.locator("#valuerows tr[data-move]")).to_have_count(2)
        want = {a["move"]: f"+{a['value']}" if a["value"] > 0 else str(a["value"]) for a in analyze_to_move(written, tmp_path)["alternatives"]}
        shown = {r.get_attribute("data-move"): r.locator("td.val").inner_text()
                 for r in page.locator("#valuerows tr[data-move]").all()}
        assert shown == want
        page.screenshot(path=f"/tmp/board-setup-analysed-{width}.png", full_page=True)
        # Undo takes the set-up back as any other change
        page.click("#undo")
        expect(page.locator("#text")).not_to_have_value(written)


def test_a_table_by_counts_with_hidden_hands_fair_values(browser, root, tmp_path):
    """Problem 2 with its table given by its two open ends (clicked) and the counts of each number (typed), the
    others' hands by their counts and the passes' voids: valid, and the fair values with their intervals equal
    ``analyze --json``'s."""
    text = (PROBLEMS / "2-seed2-hidden.dom").read_text(encoding="utf-8")
    line = read_setup(parse(text).games[0])[0].line
    with board_page(browser, root) as page:
        page.click("#setuprecord")
        page.wait_for_selector("#sset button[data-tile='[6-6]']")
        page.check("#scounts")
        _set_up(page, text, line=False)
        page.click("#sends [data-end='0'] button[data-number='2']")
        page.click("#sends [data-end='1'] button[data-number='4']")
        for n in range(7):
            count = sum(1 for t in line if n in (t.low, t.high))
            if count:
                page.fill(f"#scountnumbers input[data-number='{n}']", str(count))
        page.fill("#sontable", str(len(line)))
        page.screenshot(path="/tmp/board-setup-counts-desktop.png", full_page=True)
        _write(page)
        expect(page.locator("#status")).to_have_text(re.compile(r"^valid"))
        written = page.input_value("#text")
        assert '[Ends "2 4"]\n[Counts "0:4 1:5 2:4 4:4 5:4"]\n[OnTable "12"]\n' in written
        page.click("#analyse")
        decision = analyze_to_move(written, tmp_path)
        expect(page.locator("#valuerows tr[data-move]")).to_have_count(len(decision["alternatives"]))
        for a in decision["alternatives"]:
            f = a["fair"]
            _same_fair(page.locator(f"#valuerows tr[data-move='{a['move']}'] td.val").inner_text(),
                       f["mean"], f["ci95"])


@pytest.mark.parametrize("width,viewport", WIDTHS)
def test_a_problem_set_answered_revealed_and_the_next(browser, root, width, viewport):
    """The train set: the question, B's position on the board; a click on the move he played reveals the answer
    (the best, each value with its interval as the file gives it, his choice marked); Next shows problem 2,
    whose answer the button reveals; Close gives the record back as it was."""
    given = json.loads(TRAIN.read_text())["problems"]
    with board_page(browser, root, viewport=viewport) as page:
        # (the board lists the files, then puts the new record in the editor: read it once it is there)
        expect(page.locator("#text")).not_to_have_value("")
        before = page.input_value("#text")
        page.click("#problemsbutton")
        expect(page.locator("#problemsets option")).to_have_count(2)
        page.select_option("#problemsets", label=page.locator("#problemsets option", has_text="maria.json").inner_text())
        page.click("#problemopen")
        first = given[0]
        expect(page.locator("#question")).to_have_text(first["question"])
        expect(page.locator("#probleminfo")).to_contain_text("Problem 1 of 3")
        expect(page.locator("#tomove")).to_contain_text("B to move: click the move you would play")
        expect(page.locator("#answer")).to_be_hidden()
        page.click(f"#legal button[data-move='{first['played']}']")
        expect(page.locator("#answer")).to_be_visible()
        expect(page.locator("#answerchoice")).to_contain_text(f"You chose {first['played']}")
        expect(page.locator("#answerchoice")).to_contain_text(f"the best is {first['best']}")
        # the deals its verdict was reached over: the set's (written as "worlds" before "deals"; the board's answer
        # gives them as "deals")
        deals = first.get("deals", first.get("worlds"))
        expect(page.locator("#answernote")).to_contain_text(f"By what B could know: {deals} deals ({first['method']})")
        for a in first["alternatives"]:
            row = page.locator(f"#answerrows tr[data-move='{a['move']}']")
            _same_fair(row.locator("td.val").inner_text(), a["fair"], a["ci95"])
            marks = row.locator("td.marks")
            if a["best"]:
                expect(marks).to_contain_text("best")
            if a["played"]:
                expect(marks).to_contain_text("your choice")
                expect(marks).to_contain_text("played in the game")
        page.screenshot(path=f"/tmp/board-problem-answer-{width}.png", full_page=True)
        page.click("#problemnext")
        expect(page.locator("#probleminfo")).to_contain_text("Problem 2 of 3")
        expect(page.locator("#answer")).to_be_hidden()
        page.click("#reveal")
        expect(page.locator("#answerchoice")).to_contain_text(f"The best move: {given[1]['best']}")
        expect(page.locator("#answerrows tr[data-move]")).to_have_count(len(given[1]["alternatives"]))
        page.click("#problemprev")
        expect(page.locator("#probleminfo")).to_contain_text("Problem 1 of 3")
        page.click("#problemclose")
        expect(page.locator("#problem")).to_be_hidden()
        assert page.input_value("#text") == before


def test_a_book_problem_answered_by_the_servers_analysis(browser, root, tmp_path):
    """The book: problem 1 (every hand shown) answered by a click on the best move, the values those of
    ``analyze --json``; the keys: N goes on to problem 2, P back."""
    text = (PROBLEMS / "1-seed1-open.dom").read_text(encoding="utf-8")
    decision = analyze_to_move(text, tmp_path)
    best = next(a["move"] for a in decision["alternatives"] if a["best"])
    with board_page(browser, root, viewport=BOARD_PHONE) as page:
        page.click("#problemsbutton")
        expect(page.locator("#problemsets option")).to_have_count(2)
        page.select_option("#problemsets", label=page.locator("#problemsets option", has_text="book").inner_text())
        page.click("#problemopen")
        expect(page.locator("#question")).to_have_text(parse(text).games[0].tags["Problem"])
        expect(page.locator(f"#legal button[data-move='{best}']")).to_be_visible()
        page.click(f"#legal button[data-move='{best}']")
        expect(page.locator("#answerchoice")).to_have_text(f"You chose {best}: the best move.")
        for a in decision["alternatives"]:
            expect(page.locator(f"#answerrows tr[data-move='{a['move']}'] td.val")).to_have_text(
                f"+{a['value']}" if a["value"] > 0 else str(a["value"]))
        page.screenshot(path="/tmp/board-book-answer-phone.png", full_page=True)
        page.click("h1")
        page.keyboard.press("n")
        expect(page.locator("#probleminfo")).to_contain_text("Problem 2 of 3")
        page.keyboard.press("p")
        expect(page.locator("#probleminfo")).to_contain_text("Problem 1 of 3")
