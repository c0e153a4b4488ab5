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
