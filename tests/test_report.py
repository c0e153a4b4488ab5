"""The HTML report: the model it is built from, the page it renders, and the page in a real browser.

The browser tests drive Debian's Chromium (/usr/bin/chromium) headless through Playwright for
Python; they are skipped when either is missing. One browser serves the whole module."""
from __future__ import annotations

import base64
import dataclasses
import json
import pathlib
import re
import struct
import zlib
from html import unescape

import pytest

from analyzer.notation import parse, read
from analyzer.record import Record
from analyzer.archive.task import report_model
from analyzer.render import render_html, write_report
from analyzer.render.page import PIP_LAYOUT, environment, move_rows
from conftest import RECORDS, ROOT, settled
from analyzer.analysis import AnalysisSettings
from analyzer.search.core import SearchBudget

SEED = RECORDS / "seed1-table.txt"
HOSTILE_NAME = "<script>alert(1)</script>"
HOSTILE_COMMENT = "<img src=x onerror=alert(1)>"

HOSTILE_TEXT = r"""[Event "<b>bold</b> & </script><script>alert(2)</script>"]
[Players "<script>alert(1)</script>, B, C, D"]
[Result "<img src=x onerror=alert(3)>"]
{<img src=x onerror=alert(4)>}
A: [0-5] [1-3] [1-4] [2-2] [3-4] [4-4] [5-6]
B: [0-0] [0-1] [0-6] [1-1] [1-6] [2-3] [2-6]
1. B [1-1] {<img src=x onerror=alert(1)>} C pass D [1-5]
"""


# ---- fixtures -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def seed_model():
    return report_model(parse(SEED.read_text(encoding="utf-8"), "records/seed1-table.txt"))


@pytest.fixture(scope="module")
def seed_page(seed_model, tmp_path_factory) -> pathlib.Path:
    path = tmp_path_factory.mktemp("report") / "seed1.html"
    path.write_text(render_html(seed_model), encoding="utf-8")
    return path


def _hostile_record() -> Record:
    """The seed game with player A renamed to a script tag and a comment that is an image tag."""
    record = parse(SEED.read_text(encoding="utf-8"), "hostile.txt")
    game = record.games[0]
    rename = {"A": HOSTILE_NAME}
    game.players = tuple(rename.get(p, p) for p in game.players)
    game.hands = tuple(dataclasses.replace(h, player=rename.get(h.player, h.player)) for h in game.hands)
    game.moves = [dataclasses.replace(m, player=rename.get(m.player, m.player),
                                      comment=HOSTILE_COMMENT if k == 3 else m.comment)
                  for k, m in enumerate(game.moves)]
    game.tags["Event"] = "<i>hostile</i> & </script>"
    return record


LONG_NAMES = {"A": "Bartholomew_Featherstonehaugh_Cholmondeley_Marjoribanks_the_third_of_his_name_and_very_long_indeed",
              "B": "Aleksandra_<u>Wisniewska</u>",
              "C": "Konstantinos_Papadopoulos",
              "D": "\u05e9\u05e8\u05d4_\U0001F600_\u0645\u0631\u062d\u0628\u0627_Christophe_Vandenberghe"}


@pytest.fixture(scope="module")
def long_names_page(tmp_path_factory) -> pathlib.Path:
    """The seed game with long player names without a space: 100 characters, 25, and right-to-left
    letters with an emoji; one holds a tag, which must stay text."""
    record = parse(SEED.read_text(encoding="utf-8"), "long-names.txt")
    game = record.games[0]
    game.players = tuple(LONG_NAMES.get(p, p) for p in game.players)
    game.hands = tuple(dataclasses.replace(h, player=LONG_NAMES.get(h.player, h.player)) for h in game.hands)
    game.moves = [dataclasses.replace(m, player=LONG_NAMES.get(m.player, m.player)) for m in game.moves]
    path = tmp_path_factory.mktemp("report") / "long-names.html"
    path.write_text(render_html(report_model(record)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def hostile_html() -> str:
    return render_html(report_model(_hostile_record()))


@pytest.fixture(scope="module")
def hostile_page(hostile_html, tmp_path_factory) -> pathlib.Path:
    path = tmp_path_factory.mktemp("report") / "hostile.html"
    path.write_text(hostile_html, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def hostile_text_page(tmp_path_factory) -> pathlib.Path:
    path = tmp_path_factory.mktemp("report") / "hostile-text.html"
    path.write_text(render_html(report_model(parse(HOSTILE_TEXT, "hostile-text.txt"))), encoding="utf-8")
    return path


# ---- the model ------------------------------------------------------------------------------------

def test_the_seed_game_has_decisions_with_every_alternative_valued(seed_model):
    (game,) = seed_model.games
    assert [p.name for p in game.players] == ["A", "B", "C", "D"]
    assert game.sides == ["A/C", "B/D"]
    decided = [m for m in game.moves if m.decision]
    assert len(decided) >= 10
    c36 = game.moves[17]
    assert (c36.round, c36.player, c36.tile, c36.annotation) == (5, "C", (3, 6), "*")
    d = c36.decision
    values = {a.move: a.value for a in d.alternatives}
    assert values["[4-6]@6"] == d.best_value > 0 > d.played_value == values["[3-6]@6"]
    assert d.alternatives[0].best and d.best == ["[4-6] on the 6"]
    assert d.loss == d.best_value - d.played_value and d.cls == "blunder"
    assert game.critical == 18 and c36.critical
    assert game.values[0] is not None and game.values[18] == c36.value_after


def test_an_invalid_game_keeps_every_move_with_its_errors(seed_model):
    (game,) = seed_model.games
    assert not game.valid and len(game.moves) == 29
    assert game.analysed == 23 and "move 24" in game.stopped
    a56 = game.moves[23]
    assert (a56.player, a56.tile, a56.applied) == ("A", (5, 6), False)
    assert [i.code for i in a56.issues] == ["tile-no-match"] and "0 and 4" in a56.issues[0].message
    assert a56.value_after is None and not a56.analysed
    assert a56.board.line == game.moves[22].board.line          # an unplayable move changes nothing
    assert any(i.code == "result-mismatch" for i in game.issues)
    assert game.moves[4].proves == "B has no 4 and no 5"
    assert game.moves[22].board.voids[3] == [0, 2, 4]           # D passed on 2/4 and on 0/4


def test_the_board_follows_the_line_of_play(seed_model):
    (game,) = seed_model.games
    lead = game.moves[0].board
    assert lead.line == [(1, 1)] and lead.lead == 0 and lead.counts == [7, 6, 7, 7]
    after = game.moves[17].board                                  # after C's [3-6]
    line = after.line
    assert all(a[1] == b[0] for a, b in zip(line, line[1:])), line
    assert after.ends == (line[0][0], line[-1][1]) or after.ends == (line[-1][1], line[0][0])
    assert after.last == (3, 6) and (3, 6) not in after.hands[2]


def test_the_move_table_is_the_books_table(seed_model):
    rows = move_rows(seed_model.games[0])
    assert [r.label for r in rows] == [str(k) for k in range(1, 9)]
    assert rows[0].cells[0] is None and rows[0].cells[1].text == "[1-1] leads"
    assert [m.player for m in rows[4].cells] == ["A", "B", "C", "D"]


def test_a_record_that_cannot_be_read_still_gets_a_page():
    model = report_model(parse("this is no record at all [7-x]", "junk.txt"))
    html = render_html(model)
    assert model.games and model.games[0].issues
    assert "Problems with the record" in html and "junk.txt" in html


def test_every_number_up_to_nine_has_its_pips():
    assert all(len(PIP_LAYOUT[n]) == n for n in range(10))


# ---- the page as text -----------------------------------------------------------------------------

def test_the_page_is_self_contained(seed_model):
    html = render_html(seed_model)
    markup = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", html, flags=re.S)
    links = re.findall(r"""\s(?:src|href|xlink:href|action|poster|data|srcset)\s*=\s*["']?([^"'\s>]*)""", markup, re.I)
    assert links and all(link.startswith("#") for link in links), [x for x in links if not x.startswith("#")]
    assert not re.search(r"<(link|iframe|object|embed|img|audio|video|base)\b", markup, re.I)
    script = re.search(r'<script type="module">(.*?)</script>', html, re.S).group(1)
    # the one "url(" allowed: a download of the page's own bytes (a blob: address made and let go)
    own = html.replace("URL.createObjectURL(", "").replace("URL.revokeObjectURL(", "")
    assert not re.search(r"@import|(?<![\w$])url\(", own, re.I)       # (a CSS url(), not link.js's b64url())
    for call in ("fetch(", "XMLHttpRequest", "import(", "WebSocket", "EventSource", "sendBeacon", "innerHTML"):
        assert call not in script
    # an image's address is set only to a drawing of the page's own, as a data: address
    assert all(value.startswith('"data:') for value in re.findall(r"\.src\s*=\s*(\S+)", script)), script
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html).group(1)
    assert unescape(policy).startswith("default-src 'none'; img-src data:;")


_GAME_DATA = re.compile(r'<script type="application/zlib" class="game-data">(.*?)</script>', re.S)


def _page_data(html: str) -> list[dict]:
    """Each game's data of a page, unpacked as its script unpacks it (base64, deflated JSON)."""
    return [json.loads(zlib.decompress(base64.b64decode(block, validate=True)).decode("utf-8"))
            for block in _GAME_DATA.findall(html)]


def test_the_css_and_script_are_our_packaged_files_inlined(seed_model):
    html = render_html(seed_model)
    assert html.count("<style>") == 1 and html.count("<script type=\"module\">") == 1
    assert "function Game(section, data)" in html
    data = _page_data(html)
    # the record's game, then its repaired copy (the book's record breaks from round 7)
    assert len(data) == 2 and data[0]["critical"] == 18


def test_the_pages_game_data_is_the_packed_game_deflated(seed_model):
    """Each game's block on the page is :func:`pagedata.packed_game` of its :func:`pagedata.game_data` (the packed
    drawings to save in it, as their text), as JSON, deflated once and in base64: nothing in it to escape."""
    from analyzer.render.pagedata import game_data, packed_diagrams, packed_game
    from analyzer.render.page import chart

    html = render_html(seed_model)
    blocks = _GAME_DATA.findall(html)
    assert all(re.fullmatch(r"[A-Za-z0-9+/]+=*", block) for block in blocks)
    want = [packed_game(game_data(g, chart(g)), g) for g in seed_model.shown]
    assert _page_data(html) == json.loads(json.dumps(want)) and len(want) == 2
    assert all(d["diagrams"] == packed_diagrams(g.diagrams) and len(d["diagrams"]["lines"]) > 100
               for d, g in zip(_page_data(html), seed_model.shown))
    assert sum(map(len, blocks)) < len(json.dumps(want)) / 3       # (the JSON is some four times larger)


def test_hostile_text_is_escaped(hostile_html, hostile_text_page):
    for html in (hostile_html, hostile_text_page.read_text(encoding="utf-8")):
        assert HOSTILE_NAME not in html
        assert "<img" not in html and "alert(2)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        # our script and the game data (the record's game and its repaired copy), nothing else
        assert html.count("<script") == 1 + html.count('<script type="application/zlib" class="game-data">') >= 2
        for block in _GAME_DATA.findall(html):
            assert re.fullmatch(r"[A-Za-z0-9+/]+=*", block)
        assert all(HOSTILE_NAME not in json.dumps(d, ensure_ascii=False) for d in _page_data(html))
    assert "&lt;img src=x onerror=alert(1)&gt;" in hostile_html


def test_templates_escape_and_refuse_undefined_names():
    env = environment()
    assert env.autoescape is True
    with pytest.raises(Exception, match="no_such_name"):
        env.from_string("{{ no_such_name }}").render()


def test_the_pieces_written_in_python_escape_what_they_are_given():
    """The tiles, moves, values and line buttons the page repeats are filters of page.py, not macros: they
    escape their text as the template would."""
    from types import SimpleNamespace

    from analyzer.render.page import line_button, move_tile, tile, value

    assert move_tile("[4-6]@<b>") == ('<svg class="tile small" viewBox="0 0 21 11" role="img" aria-label="[4-6]">'
                                      '<use href="#tb"/><use href="#pl4"/><use href="#pr6"/></svg> '
                                      '<span class="mt">[4-6]</span> <span class="on">on the &lt;b&gt;</span>'
                                      '<span class="at">@&lt;b&gt;</span>')
    assert move_tile("<i>") == '<span class="mt">&lt;i&gt;</span>'
    assert 'data-t="&lt;-1"' in tile(("<", 1)) and "<<" not in tile(("<", 1))
    assert value(-3) == '<span class="val neg">-3</span>' and value(None) == '<span class="val none">–</span>'
    button = line_button(SimpleNamespace(value=5, text='"><script>'), 7, 2, "A/C <win> 5")
    assert button == ('<button class="show-line" data-at="7" data-alt="2" data-value="+5" '
                      'data-move="&#34;&gt;&lt;script&gt;" data-words="A/C &lt;win&gt; 5">line ▸</button>')


def test_tight_squeezes_the_white_space_between_tags_only():
    """A run of white space with a line break, or of two spaces, between two tags becomes one line break; one space
    stays, and so do the text of a tag, the inlined style and script, every character, and what lies between them."""
    from analyzer.render.page import tight

    style = "<style>a {\n  b: c }</style>"
    script = '<script>if (a < b) {\n   x = "<p>\n  </p>";\n}</script>'
    data = '<script type="application/json" class="game-data">{"a":  "b"}</script>'
    html = f"<p>\n   <b>a  b</b>  <i>x</i> <u>y</u>\t\n</p>{style}\n  {script}{data}\n"
    assert tight(html) == f"<p>\n<b>a  b</b>\n<i>x</i> <u>y</u>\n</p>{style}\n  {script}{data}\n"


def test_jinja2_is_imported_only_by_the_rendering():
    users = [p.relative_to(ROOT) for p in (ROOT / "analyzer").rglob("*.py")
             if re.search(r"^\s*(from|import)\s+jinja2", p.read_text(encoding="utf-8"), re.M)]
    assert users and all(p.parts[:2] == ("analyzer", "render") for p in users), users


def test_write_report_writes_the_page_into_a_new_folder(tmp_path):
    out = tmp_path / "deep" / "seed.html"
    model = report_model(read(SEED))
    write_report(model, out)
    assert model.games[0].critical == 18
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_the_report_command_writes_the_page(tmp_path):
    from click.testing import CliRunner

    from analyzer.cli import main

    if "report" not in main.commands:
        pytest.skip("the CLI has no report command yet")
    out = tmp_path / "seed1.html"
    result = CliRunner().invoke(main, ["report", str(SEED), "-o", str(out), "--thresholds", "2,5,9"])
    assert result.exit_code == 1, result.output     # written, and the record breaks the rules in round 7
    assert str(out) in result.output and "1 game" in result.output
    assert "loses 9+" in out.read_text(encoding="utf-8")
    bad = CliRunner().invoke(main, ["report", str(SEED), "-o", str(out), "--thresholds", "9"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_the_committed_example_is_the_seed_game():
    example = ROOT / "reports" / "example.html"
    html = example.read_text(encoding="utf-8")
    assert "INTERNATIONAL DOMINOES" in html and 'data-move="18"' in html
    assert 'class="mv cls-blunder critical' in html
    assert not re.search(r"""\b(?:src|href)\s*=\s*["']?https?:""", html, re.I)


# ---- the page in a browser ------------------------------------------------------------------------

# the browser and open_page fixtures are in conftest.py


def current(page, game: int = 1) -> int:
    return int(page.locator(f"#g{game}").get_attribute("data-current"))


def tiles_on_line(page, game: int = 1) -> int:
    return page.locator(f"#g{game} svg.line g.dt").count()


def shown_detail(page, game: int = 1) -> str:
    return page.locator(f"#g{game} .detail:not([hidden])").inner_text()


# the page is no wider than the window: nothing makes it scroll sideways
FITS = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def open_all_details(page):
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")


def test_the_page_loads_without_errors_or_requests(open_page, seed_page):
    page, seen = open_page(seed_page)
    settled(page)
    assert seen.errors == []
    assert seen.requests == [seed_page.as_uri()]
    assert current(page) == 0 and tiles_on_line(page) == 0
    assert page.locator("#g1 .controls .counter").inner_text() == "0 / 29"


def test_stepping_with_buttons_and_keys_changes_the_board(open_page, seed_page, seed_model):
    page, seen = open_page(seed_page)
    lines = [0] + [len(m.board.line) for m in seed_model.games[0].moves]
    page.click("#g1 .controls .next")
    assert current(page) == 1 and tiles_on_line(page) == lines[1] == 1
    assert "[1-1]" in shown_detail(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert current(page) == 3 and tiles_on_line(page) == lines[3] == 2
    assert "C" in shown_detail(page) or "D" in shown_detail(page)
    page.keyboard.press("ArrowLeft")
    assert current(page) == 2 and "passes" in shown_detail(page)
    assert "C has no 1" in shown_detail(page)
    page.click("#g1 .controls .prev")
    assert current(page) == 1
    page.keyboard.press("End")
    assert current(page) == 29 and tiles_on_line(page) == lines[29]
    assert page.locator("#g1 .controls .next").is_disabled()
    page.keyboard.press("Home")
    assert current(page) == 0 and tiles_on_line(page) == 0
    page.click("#g1 .controls .last")
    assert current(page) == 29
    page.click("#g1 .controls .first")
    assert current(page) == 0
    assert seen.errors == []


def test_the_fragment_follows_the_move_and_opens_it(open_page, seed_page, seed_model):
    page, _ = open_page(seed_page)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#g1-m3"
    page, seen = open_page(seed_page, "#g1-m12")
    assert current(page) == 12
    assert tiles_on_line(page) == len(seed_model.games[0].moves[11].board.line)
    assert page.locator('#g1 .mv.current').get_attribute("data-move") == "12"
    assert "Move 12" in shown_detail(page)
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#g1-m13" and seen.errors == []


def test_the_critical_move_is_marked_and_one_click_away(open_page, seed_page):
    page, _ = open_page(seed_page)
    marked = page.locator("#g1 .mv.critical")
    assert marked.count() == 1 and marked.get_attribute("data-move") == "18"
    assert "[3-6]" in marked.inner_text() and "*" in marked.inner_text()
    assert "CRITICAL" in marked.inner_text().upper()
    page.click("#g1 .controls button.jump-critical")
    assert current(page) == 18 and page.evaluate("location.hash") == "#g1-m18"
    detail = shown_detail(page)
    assert "critical move" in detail and "[3-6] on the 6" in detail and "[4-6] on the 6" in detail
    page.keyboard.press("Home")
    page.click("#g1 .verdict a.jump-critical")
    assert current(page) == 18


def test_a_chart_point_jumps_to_its_move(open_page, seed_page):
    page, _ = open_page(seed_page)
    page.locator('#g1 svg.chart a.pt-link[data-move="12"]').click()
    assert current(page) == 12 and page.evaluate("location.hash") == "#g1-m12"
    page.locator('#g1 svg.chart a.pt-link[data-move="18"]').click()
    assert current(page) == 18
    assert page.locator('#g1 svg.chart .pt.current').count() == 1


CHART_CLICKS = """(svg) => {
    // where on the screen each chart point is, and a place 40% of the way to the next move's point
    const m = svg.getScreenCTM(), xs = [...svg.querySelectorAll(".pt")].map(c => c.cx.baseVal.value);
    const dx = xs[1] - xs[0];
    return [...svg.querySelectorAll("a.pt-link")].map(a => {
        const c = a.querySelector(".pt"), x = c.cx.baseVal.value, y = c.cy.baseVal.value;
        const at = (px, py) => { const p = svg.createSVGPoint(); p.x = px; p.y = py; return p.matrixTransform(m); };
        const near = at(x + 0.4 * dx, y), centre = at(x, y);
        return {move: +a.dataset.move, near: [near.x, near.y], centre: [centre.x, centre.y]};
    });
}"""


@pytest.fixture(scope="module")
def long_game_page(tmp_path_factory) -> pathlib.Path:
    """A hand of 40 moves (Cut Throat for three with drawing): the chart's points stand 12 units apart."""
    path = tmp_path_factory.mktemp("report") / "long-game.html"
    record = parse((RECORDS / "variant-cutthroat-draw.dom").read_text(encoding="utf-8"), "variant-cutthroat-draw.dom")
    assert len(record.games[0].moves) == 40
    path.write_text(render_html(report_model(record)), encoding="utf-8")
    return path


@pytest.mark.parametrize("width", [1280, 375])
def test_a_click_beside_a_chart_point_jumps_to_that_move_not_a_neighbour(open_page, long_game_page, width):
    """With many moves the points stand closer than a finger: a click nearer one point than the next
    goes to its move (the click areas are columns that do not overlap)."""
    page, seen = open_page(long_game_page)
    page.set_viewport_size({"width": width, "height": 900})
    points = page.locator("#g1 svg.chart").evaluate(CHART_CLICKS)
    assert len(points) == 41                                     # the deal and every move, each valued
    for point in points[:-1]:
        for where in ("centre", "near"):
            page.locator("#g1 svg.chart").scroll_into_view_if_needed()
            points_now = page.locator("#g1 svg.chart").evaluate(CHART_CLICKS)
            x, y = next(p for p in points_now if p["move"] == point["move"])[where]
            page.mouse.click(x, y)
            assert current(page) == point["move"], (width, where, point["move"])
    assert seen.errors == []


CHART_SIZES = """(svg) => {
    const box = svg.getBoundingClientRect(), k = box.width / svg.viewBox.baseVal.width;
    const px = sel => parseFloat(getComputedStyle(svg.querySelector(sel)).fontSize) * k;
    const outside = [...svg.querySelectorAll("text")].filter(t => {
        const r = t.getBoundingClientRect();
        return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
    }).map(t => t.textContent);
    return {tick: px(".tick"), label: px(".crit-label"), outside,
            point: Math.min(...[...svg.querySelectorAll(".pt")].map(c => c.getBoundingClientRect().width))};
}"""


def test_on_a_phone_the_value_chart_is_readable_and_its_points_still_jump(open_page, seed_page):
    """At 375px the chart is drawn at about half its size: its words stay 9px or more, its points 5px."""
    page, seen = open_page(seed_page)
    page.set_viewport_size({"width": 375, "height": 667})
    sizes = page.locator("#g1 svg.chart").evaluate(CHART_SIZES)
    assert sizes["tick"] >= 9 and sizes["label"] >= 8 and sizes["point"] >= 5, sizes
    assert sizes["outside"] == []
    page.locator('#g1 svg.chart a.pt-link[data-move="12"]').click()
    assert current(page) == 12 and page.evaluate("location.hash") == "#g1-m12"
    page.locator('#g1 svg.chart a.pt-link[data-move="18"]').click()
    assert current(page) == 18 and page.locator('#g1 svg.chart .pt.current').count() == 1
    assert page.evaluate(FITS) and seen.errors == []


def test_a_move_of_the_list_jumps_to_it_and_shows_its_errors(open_page, seed_page):
    page, _ = open_page(seed_page)
    page.click('#g1 .mv[data-move="24"]')
    assert current(page) == 24
    detail = shown_detail(page)
    assert "tile-no-match" in detail and "[5-6] does not fit the open ends 0 and 4" in detail
    assert "Not played" in detail
    assert "result-mismatch" in page.locator("#g1 .errors-box").inner_text()


def test_the_keys_step_the_game_navigated_or_scrolled_to(open_page, tmp_path):
    """On a page of several games the arrow keys step the game the reader went to: the one named by
    the list of games (#g2) or, after scrolling, the one in view, not game 1 off the screen."""
    path = tmp_path / "match.html"
    path.write_text(render_html(report_model(read(RECORDS / "match-further.dom"), analyse=False)),
                    encoding="utf-8")
    page, seen = open_page(path)
    # the link sets the hash at once, but the page learns of it from the hashchange event that follows (queued,
    # its own handler first): wait for that event, or the keys may come first (a reader presses them long after)
    page.evaluate("() => { window.followed = new Promise(done => addEventListener('hashchange', done, "
                  "{once: true})); }")
    page.locator("nav.games a", has_text="2.").click()
    page.evaluate("window.followed.then(() => true)")
    assert page.evaluate("location.hash") == "#g2"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert (current(page, 1), current(page, 2)) == (0, 2)
    assert page.evaluate("location.hash") == "#g2-m2"
    page.evaluate("document.getElementById('g3').scrollIntoView()")
    # the page learns of a scroll from its event, which the browser sends before the next frames are
    # drawn (a reader presses a key long after): wait for two frames, or the key may come first
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.keyboard.press("ArrowRight")
    assert (current(page, 1), current(page, 2), current(page, 3)) == (0, 2, 1)
    page.click("#g2 .controls .counter")            # a click in a game makes it the one the keys step
    page.keyboard.press("End")
    assert current(page, 2) == page.locator("#g2 .mv").count() and current(page, 3) == 1
    page, _ = open_page(path, "#g3")                # opened at a game: the keys step that game
    page.keyboard.press("ArrowRight")
    assert (current(page, 1), current(page, 3)) == (0, 1)
    assert seen.errors == []


@pytest.mark.parametrize("which", ["hostile_page", "hostile_text_page"])
def test_hostile_names_and_comments_stay_text(open_page, request, which):
    path = request.getfixturevalue(which)
    page, seen = open_page(path)
    page.keyboard.press("End")
    for k in range(4):
        page.keyboard.press("Home")
        for _ in range(k + 1):
            page.keyboard.press("ArrowRight")
    settled(page)
    assert seen.dialogs == []
    assert page.locator("img").count() == 0
    body = page.locator("body").inner_text()
    assert HOSTILE_NAME in body
    assert HOSTILE_COMMENT in body
    assert seen.requests == [path.as_uri()]


LAYOUT_PROBLEMS = """() => {
    const problems = [];
    for (const svg of document.querySelectorAll("svg.line")) {
        const game = svg.closest("section.game").id;
        const tiles = [...svg.querySelectorAll("g.dt")].map(g => {
            const m = /translate\\(([-\\d.e]+) ([-\\d.e]+)\\)/.exec(g.getAttribute("transform"));
            const x = +m[1], y = +m[2], rect = g.querySelector("rect");
            const halves = [...g.querySelectorAll("g.face")].map(u => ({
                n: u.dataset.n, x: x + u.transform.baseVal.consolidate().matrix.e + 5,
                y: y + u.transform.baseVal.consolidate().matrix.f + 5}));
            return {x, y, w: +rect.getAttribute("width"), h: +rect.getAttribute("height"), halves};
        });
        tiles.forEach((a, i) => {
            tiles.slice(i + 1).forEach((b, k) => {
                const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
                const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
                if (dx > 0.01 && dy > 0.01) problems.push(`${game}: tiles ${i} and ${i + k + 1} overlap`);
            });
            const b = tiles[i + 1];
            if (!b) return;
            let best = null;
            for (const p of a.halves) for (const q of b.halves) {
                const d = Math.hypot(p.x - q.x, p.y - q.y);
                if (!best || d < best.d) best = {d, p, q};
            }
            if (best.d > 12.5 || best.p.n !== best.q.n)
                problems.push(`${game}: tiles ${i} and ${i + 1} do not join (${best.p.n} / ${best.q.n}, ${best.d})`);
        });
    }
    return problems;
}"""


def test_the_line_joins_matching_halves_and_turns_without_overlap(open_page, seed_page, tmp_path):
    from analyzer.generate import random_game

    games = [random_game(seed=s) for s in (23, 28, 31, 32, 35)]
    path = tmp_path / "long.html"
    path.write_text(render_html(report_model(Record(games=games, source="random"), analyse=False)),
                    encoding="utf-8")
    for page_path, count, longest in ((path, len(games), 25), (seed_page, 1, 20)):
        page, seen = open_page(page_path)
        for k in range(1, count + 1):
            page.click(f"#g{k} .controls .last")
        assert max(tiles_on_line(page, k) for k in range(1, count + 1)) == longest
        assert page.evaluate(LAYOUT_PROBLEMS) == []
        assert seen.errors == []


def test_a_screenshot_of_the_example_is_not_blank(open_page, seed_page):
    page, _ = open_page(seed_page, "#g1-m18")
    out = ROOT / "test-artifacts" / "example-report.png"
    out.parent.mkdir(exist_ok=True)
    png = page.screenshot(path=str(out), full_page=True)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    assert width >= 1000 and height >= 900
    # decode the PNG in a blank page and look at its pixels
    page.goto("about:blank")
    stats = page.evaluate("""async (b64) => {
        const img = new Image();
        img.src = "data:image/png;base64," + b64;
        await img.decode();
        const c = document.createElement("canvas");
        c.width = img.width; c.height = img.height;
        const g = c.getContext("2d");
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data;
        const colours = new Set();
        let felt = 0, ivory = 0;
        for (let i = 0; i < d.length; i += 4) {
            colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
            if (d[i] < 50 && d[i + 1] > 60 && d[i + 1] < 110 && d[i + 2] > 45 && d[i + 2] < 85) felt++;
            if (d[i] > 250 && d[i + 1] > 248 && d[i + 2] > 235 && d[i + 2] < 250) ivory++;
        }
        return {width: c.width, colours: colours.size, felt: felt, ivory: ivory, pixels: d.length / 4};
    }""", base64.b64encode(png).decode("ascii"))
    assert stats["width"] == width
    assert stats["colours"] > 200, stats              # text, tiles, chart: far from a blank page
    assert stats["felt"] > 0.01 * stats["pixels"], stats   # the green table is drawn
    assert stats["ivory"] > 2000, stats                # and tiles lie on it


@pytest.mark.parametrize("width,height", [(375, 667), (1280, 800)])
def test_long_player_names_wrap_or_are_shortened_and_never_widen_the_page(open_page, long_names_page,
                                                                           width, height):
    page, seen = open_page(long_names_page)
    page.set_viewport_size({"width": width, "height": height})
    open_all_details(page)
    for k in range(30):                    # every move, so every player's name heads a move's detail
        page.evaluate(f"location.hash = '#g1-m{k}'")
        assert page.evaluate(FITS), (k, page.evaluate("document.documentElement.scrollWidth"))
    # the Moves table: a name too long for its column ends in an ellipsis, whole in the title
    heads = page.locator("#g1 table.moves th[title]")
    assert heads.evaluate_all("hs => hs.map(h => h.title)") == list(LONG_NAMES.values())
    spilled = heads.evaluate_all("""hs => hs.filter(h => h.scrollWidth > h.clientWidth
        && getComputedStyle(h).textOverflow !== "ellipsis").map(h => h.title)""")
    assert spilled == []
    # the deal table keeps its tiles column inside its card
    card = page.locator("#g1 .card.players").bounding_box()
    for cell in page.locator("#g1 table.deal td:last-child").all():
        box = cell.bounding_box()
        assert box["x"] + box["width"] <= card["x"] + card["width"]
    assert page.locator("u").count() == 0 and LONG_NAMES["B"] in page.locator("#g1 table.deal").inner_text()
    assert seen.errors == [] and seen.dialogs == []


def test_the_slip_is_shown_at_its_error_with_the_repaired_record_to_switch_to(open_page, seed_page, seed_model):
    """The book's record breaks from round 7: the page marks the first error as the slip, with the
    likely repair (the dropped row), the later errors as following from it, and links to the repaired
    record's own analysis."""
    (game,), (repaired,) = seed_model.games, seed_model.repaired
    assert repaired.repair_of == "g1" and repaired.valid and repaired.anchor == "g1r"
    slips = [i for m in game.moves for i in m.issues if i.slip]
    assert len(slips) == 1 and "insert the missing row A pass, B [0-0], C [4-6], D [6-6]" in slips[0].slip
    follows = [i for m in game.moves for i in m.issues if i.follows] + [i for i in game.issues if i.follows]
    assert len(follows) == len([i for m in game.moves for i in m.issues if i.severity == "error"]) + len(
        [i for i in game.issues if i.severity == "error"]) - 1
    page, seen = open_page(seed_page, "#g1-m24")
    hint = page.locator("#g1 .repair-hint")
    assert "likely slip" in hint.inner_text()
    page.click("#g1 .repair-hint a.to-repaired")
    assert page.evaluate("location.hash") == "#g1r"
    page.click("#g1r .controls .last")
    assert "B goes out" in page.locator("#g1r").inner_text()
    assert seen.errors == []


def test_stepping_the_repaired_copy_writes_its_own_fragment(open_page, seed_page):
    """The repaired copy of game 1 is section g1r: its moves are #g1r-mN, so a reload opens that copy."""
    page, _ = open_page(seed_page)
    for _ in range(3):
        page.click("#g1r .controls .next")
    assert page.evaluate("location.hash") == "#g1r-m3"
    assert current(page, "1r") == 3 and current(page) == 0
    page, seen = open_page(seed_page, "#g1r-m3")
    assert current(page, "1r") == 3 and current(page) == 0
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#g1r-m4" and current(page) == 0
    assert seen.errors == []


@pytest.mark.parametrize("width,height", [(375, 667), (1280, 800)])
def test_the_repair_hint_and_its_link_fit_the_page(open_page, seed_page, width, height):
    page, seen = open_page(seed_page, "#g1-m24")
    page.set_viewport_size({"width": width, "height": height})
    link = page.locator("#g1 .detail:not([hidden]) .repair-hint a.to-repaired")
    assert link.is_visible()
    box = link.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate(FITS), page.evaluate("document.documentElement.scrollWidth")
    assert seen.errors == []


@pytest.mark.parametrize("width,height", [(375, 667), (1280, 800)])
def test_long_header_tag_values_wrap_in_their_card(open_page, seed_page, width, height):
    """The seed's Source tag ends in a long path without a space."""
    page, seen = open_page(seed_page)
    page.set_viewport_size({"width": width, "height": height})
    page.click("#g1 details.tags summary")
    source = page.locator("#g1 details.tags tr", has_text="Source").locator("td")
    assert source.is_visible() and "000_3c92c1f714ce882e.txt" in source.inner_text()
    card = page.locator("#g1 .card.players").bounding_box()
    box = source.bounding_box()
    assert box["x"] + box["width"] <= card["x"] + card["width"]
    assert page.evaluate(FITS), page.evaluate("document.documentElement.scrollWidth")
    assert seen.errors == []


def test_the_value_line_breaks_where_a_move_has_no_value():
    """A decision past the node limit leaves a hole in the values (the later and earlier ones are still
    given): the chart's line is not drawn across it."""
    from analyzer.analysis import analyze_replay
    from analyzer.archive.task import page_model
    from analyzer.match import replay_record
    from analyzer.render.page import chart

    replays = replay_record(read(RECORDS / "seed2.dom"))
    analyses = [analyze_replay(rep, AnalysisSettings(budget=SearchBudget(2000))) for rep in replays]
    (game,) = page_model("seed2.dom", replays, analyses).games
    known = [k for k, v in enumerate(game.values) if v is not None]
    assert any(b != a + 1 for a, b in zip(known, known[1:]))        # a hole between two known values
    ch = chart(game)
    commands = re.findall(r"([ML])([\d.]+),([\d.]+)", ch.path)
    assert [float(x) for _, x, _ in commands] == [p.x for p in ch.points]
    for (cmd, _, _), before, point in zip(commands[1:], ch.points, ch.points[1:]):
        assert (cmd == "L") == (point.move == before.move + 1)
    assert commands[0][0] == "M"


def test_a_decision_past_the_node_limit_shows_the_moves_it_valued():
    """Its caption says how many moves were not valued exactly, and the page shows the values of the others
    and the proven bounds of those (marked as bounds), best first by what the mover is sure of."""
    from analyzer.analysis import analyze_replay
    from analyzer.archive.task import page_model
    from analyzer.match import replay_record
    from analyzer.render.verdicts import sure_value

    replays = replay_record(read(RECORDS / "seed2.dom"))
    analyses = [analyze_replay(rep, AnalysisSettings(budget=SearchBudget(2000))) for rep in replays]
    model = page_model("seed2.dom", replays, analyses)
    page = unescape(render_html(model))
    partial = [d for d in analyses[0].decisions if d.unsolved]
    assert partial
    for d in partial:
        assert (f"{d.unsolved} of them need more positions than the node limit allows (not valued exactly: shown "
                "within the bounds the search proved)" in page)
    views = [m.decision for m in model.games[0].moves if m.decision is not None and m.decision.unsolved]
    assert len(views) == len(partial)
    for view in views:
        bounded = [a for a in view.alternatives if a.value is None]
        assert len(bounded) == view.unsolved and all(a.bounds for a in bounded)
        for a in bounded:
            assert f'<span class="val bounds" title="proven bounds: the search stopped at the node limit">' \
                   f'{a.bounds_text}</span>' in page
        sure = [sure_value(a, view.side) for a in view.alternatives]
        assert sure == sorted(sure, reverse=view.side == 0)
