"""The report page in the language chosen (issue 83): ``domino --lang es report`` writes its page in Spanish with
``<html lang="es">``, its pipeline's words too; the pseudo-language shows that no word of the page is left out of
the catalogue, in the page as written and in the text Chromium shows once its script has run (the words the script
writes come from the page, in its language); and the script's counts take the language's plural forms.

What the page shows of the record itself (its title, tags, comments, the result it states, the players' names)
stays as written, and is left out of the check (:data:`RECORD_TEXT`)."""
import re
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from conftest import RECORDS, wait_ready
from test_i18n import COVERED_CODES, unmarked_words

#: the elements that hold the record's own text (kept as written in every language), and a diagnostic's severity
#: and code, a reason's code (kept in every language, as the command line keeps them: docs/i18n.md)
RECORD_TEXT = ("h1", "title", "nav.games", ".gtitle", ".tags", ".comment", ".remark", ".stated", ".pname", ".side",
               "code", ".sev")
#: what is not in the catalogue yet (docs/i18n.md): the messages of the diagnostics not in test_i18n.COVERED_CODES
#: (left out by :func:`page_text` and in Chromium)


def _page(tmp_path, record: str, code: str) -> str:
    out = tmp_path / f"{record}.{code}.html"
    result = CliRunner().invoke(main, ["--lang", code, "report", str(RECORDS / record), "-o", str(out)],
                                prog_name="domino")
    assert result.exit_code == 0, result.output
    return str(out)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("i18n-report")
    return {(record, code): _page(folder, record, code)
            for record, code in [("house-venezuelan-tranca.dom", "qps"), ("house-brasilia.dom", "qps"),
                                 ("house-venezuelan-tranca.dom", "es"), ("match-kozel.dom", "ru"),
                                 ("house-venezuelan-tranca.dom", "en")]}


class _Text(HTMLParser):
    """The text of a page as written, without its script, style, data and the record's own text."""

    SKIP_CLASSES = {"gtitle", "tags", "comment", "remark", "stated", "pname", "side", "games", "sev"}

    def __init__(self):
        super().__init__()
        self.stack, self.out = [], []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "input", "meta", "use", "circle", "rect", "line", "path", "img", "link"):
            return
        classes = set((dict(attrs).get("class") or "").split())
        inside = bool(self.stack) and self.stack[-1][1]
        skip = tag in ("script", "style", "title", "h1", "code") or bool(classes & self.SKIP_CLASSES)
        self.stack.append((tag, inside or skip, classes))

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if not (self.stack and self.stack[-1][1]):
            self.out.append(data)


_ISSUE = re.compile(r'<li class="issue[^"]*">.*?<code>([a-z-]+)</code>.*?</li>', re.S)


def page_text(html: str) -> str:
    """The words of a page as written (its record's own text, its script and data, and the diagnostics not yet in
    the catalogue left out)."""
    parser = _Text()
    parser.feed(_ISSUE.sub(lambda m: m.group(0) if m.group(1) in COVERED_CODES else "", html))
    return "".join(parser.out)


@pytest.mark.parametrize("record", ["house-venezuelan-tranca.dom", "house-brasilia.dom"])
def test_every_word_of_the_page_is_in_the_catalogue(pages, record):
    html = open(pages[(record, "qps")], encoding="utf-8").read()
    assert '<html lang="en">' in html            # (the pseudo-language's page is English, marked)
    text = page_text(html)
    assert "⟦" in text
    assert unmarked_words(text) == []


def test_the_english_page_is_english_and_the_check_finds_its_words(pages):
    html = open(pages[("house-venezuelan-tranca.dom", "en")], encoding="utf-8").read()
    assert '<html lang="en">' in html and "Before the first move" in html and "⟦" not in html
    assert len(unmarked_words(page_text(html))) > 100            # (the check can fail)


@pytest.mark.parametrize("record, code, words", [
    ("house-venezuelan-tranca.dom", "es", ["Antes de la primera jugada", "Jugada crítica", "Resultado (reproducido)",
                                           "tranque"]),
    ("match-kozel.dom", "ru", ["Перед первым ходом", "Критический ход", "Итог (по ходам)", "рыба"]),
])
def test_the_page_is_written_in_the_language_chosen(pages, record, code, words):
    html = open(pages[(record, code)], encoding="utf-8").read()
    assert f'<html lang="{code}">' in html
    for word in words:
        assert word in html, word
    text = page_text(html)
    # no sentence of English left on it (the articles and prepositions of the page's English)
    assert not re.findall(r"\b(the|with|after|before|loses|every|played|lets|leaves)\b", text), text


# ---- in Chromium: the text the page shows once its script has run ---------------------------------------------

SHOWN_TEXT = """([skip, covered]) => {
    for (const e of document.querySelectorAll('li.issue')) {
        if (!covered.includes(e.querySelector('code').textContent)) e.remove();
    }
    for (const e of document.querySelectorAll(skip)) e.remove();
    return document.body.innerText;
}"""


@pytest.mark.parametrize("width", [1366, 390])
@pytest.mark.slow                   # (Chromium)
def test_the_text_chromium_shows_is_all_in_the_catalogue(pages, browser, width):
    """The pseudo-language's page in Chromium: its board at a move and an alternative's line on it (the words
    its script writes), then the moves' details shown; no English word outside a mark."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        page.goto("file://" + pages[("house-venezuelan-tranca.dom", "qps")])
        wait_ready(page)
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        board = page.locator("#g1 .board .ends").inner_text() + page.locator("#g1 .hands").inner_text()
        assert "⟦" in board and unmarked_words(board) == [], board
        page.locator("#g1 section.detail:not([hidden]) button.show-line").first.click()
        line = page.locator("#g1 .line-view").inner_text() + page.locator("#g1 .controls .counter").inner_text()
        assert "⟦" in line and unmarked_words(re.sub(r"\[\d-\d\]", " ", line)) == [], line
        page.evaluate("() => document.querySelectorAll('section.detail').forEach(d => d.hidden = false)")
        text = page.evaluate(SHOWN_TEXT, [", ".join(RECORD_TEXT), sorted(COVERED_CODES)])
        assert unmarked_words(text) == []
    finally:
        page.close()


def _russian_form(n: int) -> int:
    """The Russian plural form of ``n`` (the rule as grammars state it): 0 one (1, 21, 31...), 1 few (2-4, 22-24...),
    2 many (the rest, 11-14 among them)."""
    return 0 if n % 10 == 1 and n % 100 != 11 else 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2


@pytest.mark.slow                   # (Chromium)
def test_the_scripts_counts_take_russian_plural_forms(pages, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    try:
        page.goto("file://" + pages[("match-kozel.dom", "ru")])
        wait_ready(page)
        assert page.evaluate("document.documentElement.lang") == "ru"
        seen = set()
        for _ in range(12):
            for text in page.locator("#g1 .hands .count").all_inner_texts():
                tiles, word, pips, pip_word = re.fullmatch(r"\S+ (\d+) (\S+) · (\d+) (\S+)", text).groups()
                assert word == ("кость", "кости", "костей")[_russian_form(int(tiles))], text
                assert pip_word == ("очко", "очка", "очков")[_russian_form(int(pips))], text
                seen.add(_russian_form(int(pips)))
            page.keyboard.press("ArrowRight")
        assert len(seen) >= 2                   # (more than one form met)
    finally:
        page.close()


# ---- the other pages: the index of several records, the club's pages, the problems (docs/i18n.md) ---------------

def _words(html: str, record: tuple[str, ...] = ()) -> list[str]:
    """The English words of a page as written outside the marks, each cell apart, ``record`` (the record's own
    text on it: names, events, periods, titles, files) taken out first."""
    text = page_text(re.sub(r"(</t[dh]>|<br>)", r" \1", html))
    for kept in sorted(record, key=len, reverse=True):
        text = text.replace(kept, " ")
    return [w for w in unmarked_words(text) if not re.fullmatch(r"[a-z]+(-[a-z]+)+", w)]    # (a code: deal-size)


#: a row of the index: its record, event and players (the record's own text) are the first, third and fourth cells
_ROW = re.compile(r'(<tr class="(?:valid|invalid)">\s*)<td>.*?</td>(\s*<td[^>]*>.*?</td>\s*)<td>.*?</td>\s*'
                  r'<td>.*?</td>', re.S)


@pytest.fixture(scope="module")
def index_page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("i18n-index")
    result = CliRunner().invoke(main, ["--lang", "qps", "report", str(RECORDS / "house-venezuelan-tranca.dom"),
                                       str(RECORDS / "errors.dom"), "-o", str(folder)], prog_name="domino")
    assert result.exit_code in (0, 1), result.output            # (1: errors.dom has errors)
    return (folder / "index.html").read_text(encoding="utf-8")


def test_the_index_of_several_records_is_all_in_the_catalogue(index_page):
    """Each game's record, event and players (the record's own text) left out, every word of the index is marked:
    its headings, legends, the badges, the critical moves, a game without a result."""
    assert '<html lang="en">' in index_page and "⟦valid⟧" in index_page and "⟦no result⟧" in index_page
    assert "⟦A [4-5]@4, move 15: loses 25 (⟦blunder⟧)⟧" in index_page       # (its critical move)
    assert _words(_ROW.sub(r"\1\2", index_page), ("domino-analyzer",)) == []


def _club_results() -> list[dict]:
    from test_club_stats_page import _results           # (48 games of 8 players over 6 months, written out)

    return _results()


def _club_record() -> tuple[str, ...]:
    from test_club_stats_page import MONTHS, PLAYERS

    return PLAYERS + tuple(m[:7].replace(".", "-") for m in MONTHS) + ("Liga", "Club", "co")


def _problems():
    from analyzer.render.text import view_words
    from analyzer.train import Problem

    alternatives = ({"move": "[4-6]@6", "fair": 3.5, "ci95": [2.1, 4.9], "p_win": None, "mwc": None, "best": True,
                     "played": False},
                    {"move": "[3-6]@6", "fair": -16.6, "ci95": [-18.0, -15.2], "p_win": None, "mwc": None,
                     "best": False, "played": True})
    played = Problem("seed1.dom", 1, "Seed", "C", 17, 5, 19, "", "[3-6]@6", "[4-6]@6", 20.11, "blunder", "real",
                     "exact", 375, alternatives, ("C [4-6]@6", "D pass"), "", "", (),
                     view_words("C", 0, ["A/C", "B/D"], False), why=("lets D go out with [2-6]",))
    book = Problem("book.dom", 2, "Book", "B", 3, None, None, "What does B lead?", "", "[6-6]", 0.0, "", "exact",
                   "exact", 1, alternatives, (), "", "", ("[5-5]",), view_words("B", 1, ["A/C", "B/D"], False))
    return [played, book]


def _club_pages(code: str) -> dict:
    from analyzer import i18n
    from analyzer.archive.league import head_to_head, period_rows
    from analyzer.archive.mistakes import Mistake, Mistakes
    from analyzer.render.problems import render_problems
    from analyzer.render.trend import render_head_to_head, render_mistakes, render_trend

    results = _club_results()
    mistakes = Mistakes(None, 3, 0, (Mistake(1, "club/1.dom", 4, 2, 1, "game 1", 3, 2, "Ana", "[3-4]@4", "[1-4]@4",
                                              12.0, "mistake", None, None, "#"),), 1)
    with i18n.use(code):
        return {"trend": render_trend(period_rows(results, "month"), "Club"),
                "event": render_trend(period_rows(results, "event"), "Club"),
                "h2h": render_head_to_head(head_to_head(results), "Club"),
                "mistakes": render_mistakes(mistakes, "Club"),
                "problems": render_problems(_problems(), "C"),
                "book": render_problems(_problems()[1:], "", book="Book")}


@pytest.mark.parametrize("name", ["trend", "event", "h2h", "mistakes", "problems", "book"])
def test_the_club_and_problem_pages_are_all_in_the_catalogue(name):
    """The trend (by month, by event), head-to-head, mistakes and problem pages in the pseudo-language: the
    record's own text (names, periods, the event, titles, a book's question and its set-up record) left out, no
    English word outside a mark."""
    html = _club_pages("qps")[name]
    assert '<html lang="en">' in html and "⟦" in html
    record = _club_record() + ("Seed", "Book", "seed1.dom", "book.dom", "What does B lead?", "club/1.dom:4:2", "game 1")
    assert _words(re.sub(r"<pre>.*?</pre>", "", html, flags=re.S), record) == [], name


def test_the_club_pages_speak_russian():
    pages = _club_pages("ru")
    assert all('<html lang="ru">' in html for html in pages.values())
    assert "Точность по месяцам" in pages["trend"] and "Все турниры" in pages["event"]
    assert "Игрок против игрока" in pages["h2h"] and "<td>ошибка</td>" in pages["mistakes"]
    assert "Ходит C: чем вы сходите?" in pages["problems"] and "1 задача" in pages["book"]
    # the trend's points counted in the three forms (12 decisions a month each: "из 12 решений")
    assert re.search(r"<title>2026-01: [\d,]+% \[[\d,; ]+\] из 12 решений</title>", pages["trend"])


# ---- a report page's fair, match and layout words -----------------------------------------------------------

def _game_data(html: str) -> list[dict]:
    """The data of each game on a page (its script's: deflated JSON in base64)."""
    import base64
    import json
    import zlib

    return [json.loads(zlib.decompress(base64.b64decode(m)))
            for m in re.findall(r'<script type="application/zlib" class="game-data">([^<]*)</script>', html)]


def test_the_match_scale_and_an_arms_labels_are_in_the_catalogue(tmp_path):
    """``report --scale match`` (its lines of the deal, each move and the summary) and a layout with arms (each
    arm's label and its open end as the page's script gets them) in the pseudo-language."""
    match, cross = tmp_path / "match.html", tmp_path / "cross.html"
    for record, out, more in [("match-jamaican.dom", match, ["--scale", "match"]), ("variant-cross.dom", cross, [])]:
        result = CliRunner().invoke(main, ["--lang", "qps", "report", str(RECORDS / record), "-o", str(out), *more],
                                    prog_name="domino")
        assert result.exit_code == 0, result.output
    html = match.read_text(encoding="utf-8")
    assert "⟦Match scale⟧" in html and "⟦Match-winning chance of" in html
    assert '<span class="pname">A/C</span> win the match' in html          # (a side takes the plural form)
    assert _words(html) == []
    labels = [label for game in _game_data(cross.read_text(encoding="utf-8")) for label in game["labels"]]
    assert labels and any("⟦" in label[5] for label in labels)          # (an arm closed, or empty)
    for _x, _y, _anchor, words, where, state in labels:
        assert unmarked_words(f"{words} {where} {state}") == [], (words, where, state)


@pytest.mark.slow                   # (a sheet's fair analysis: some 4 s)
def test_a_sheets_fair_words_are_in_the_catalogue(tmp_path):
    """A sheet without hands, analysed fairly: its fair note, the fair critical move, the verdict words in the list
    of moves, the hands each player may have held, the reasons over its deals, all marked."""
    out = tmp_path / "sheet.html"
    result = CliRunner().invoke(main, ["--lang", "qps", "report", str(RECORDS / "sheet-partnership.dom"), "--fair",
                                       "-o", str(out)], prog_name="domino")
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert "⟦Fair critical move⟧" in html and '<dd class="fair-note">⟦the moves of' in html
    assert re.search(r'<span class="tag [^"]*verdict-(real|hindsight)">⟦', html)
    assert _words(html) == []


def test_the_english_club_pages_are_english_and_the_check_finds_their_words():
    pages = _club_pages("en")
    assert all('<html lang="en">' in html and "⟦" not in html for html in pages.values())
    assert all(len(_words(html, _club_record())) > 10 for html in pages.values())      # (the check can fail)


# ---- the words over deals and the one verdict word, in Russian (three plural forms) ------------------------------

@pytest.mark.parametrize("holds, deals, words", [
    (1, 1, "в 1 из 1 раздачи, которые A не мог исключить"),
    (2, 21, "в 2 из 21 раздачи, которые A не мог исключить"),
    (3, 22, "в 3 из 22 раздач, которые A не мог исключить"),
    (4, 25, "в 4 из 25 раздач, которые A не мог исключить"),
])
def test_a_reason_over_deals_is_said_in_russian(holds, deals, words):
    """``over_deals`` of a code that holds in ``holds`` of the ``deals`` read (B goes out there): the head counts
    the deals in the Russian form of their number (after из: genitive, 21 a singular), the side's verb agrees."""
    from analyzer import i18n
    from analyzer.analysis.reasons import Facts, Reason, over_deals

    out = Reason("opponent-out", Facts(player="B", tiles=("[2-6]",)), "")
    lost = Reason("block-lost", Facts(), "")
    read = [(out, lost)] * holds + [()] * (deals - holds)
    with i18n.use("ru"):
        alone = over_deals(read, deals, False, "fair", "A", "[4-6]@6")
        pair = over_deals(read, deals, False, "fair", "A", "[4-6]@6", ("A", "C"))
    assert alone[0].sentence == f"{words}, соперник выходит (B в {holds})"
    assert alone[1].sentence == f"{words}, выходит рыба, и A проигрывает по счёту"
    assert pair[1].sentence == f"{words}, выходит рыба, и A и C проигрывают по счёту"
    assert alone[0].code == "opponent-out" and alone[0].over.holds == holds       # (the codes stay)


def test_the_one_verdict_word_is_in_the_language_and_the_code_stays():
    from types import SimpleNamespace

    from analyzer import i18n
    from analyzer.render.verdicts import verdict_word

    real = SimpleNamespace(fair=SimpleNamespace(verdict="real", cls="blunder"), cls="mistake")
    hindsight = SimpleNamespace(fair=SimpleNamespace(verdict="hindsight", cls=None), cls="mistake")
    open_only = SimpleNamespace(cls="inaccuracy")
    assert [verdict_word(d) for d in (real, hindsight, open_only)] == ["real blunder", "hindsight only", "inaccuracy"]
    with i18n.use("es"):
        assert [verdict_word(d) for d in (real, hindsight, open_only)] == ["error grave real", "solo a posteriori",
                                                                           "imprecisión"]
    with i18n.use("ru"):
        assert verdict_word(real) == "реальная грубая ошибка"
        assert verdict_word(hindsight) == "только задним числом"
    assert real.fair.verdict == "real" and real.fair.cls == "blunder"


@pytest.mark.parametrize("width", [1366, 390])
@pytest.mark.slow                   # (Chromium)
def test_the_russian_trend_page_fits_the_screen(open_page, tmp_path, width):
    """The trend page in Russian (its longer headings and legend) in Chromium: no wider than the screen at a desk
    and on a phone, each plot inside it; screenshots in /tmp (i18n-trend-ru-*.png)."""
    path = tmp_path / "trend.html"
    path.write_text(_club_pages("ru")["trend"], encoding="utf-8")
    page, seen = open_page(path, width=width, height=900)
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.locator("#periods thead th").first.inner_text() == "Месяц"
    boxes = page.evaluate("() => Array.from(document.querySelectorAll('svg.trend'))"
                          ".map(s => s.getBoundingClientRect().right)")
    assert boxes and max(boxes) <= width
    assert seen.errors == []
    page.screenshot(path=f"/tmp/i18n-trend-ru-{width}.png", full_page=True)
