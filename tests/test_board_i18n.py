"""The board in the reader's language (issue 83): its own catalogue (the domain ``board``: the page's scripts and
HTML, the site's own words) has every message in every language, plural forms and placeholders and all; the page
is given each form's plural category; the server serves the catalogue and makes its own words (diagnostics) in the
request's language; and in real headless Chromium a pseudo-language board shows no English word outside the
catalogue's marks, and a Russian and a Spanish board count in their plural forms, the switch kept over a reload."""
from __future__ import annotations

import re
import shutil

import pytest
from babel import Locale
from babel.messages.checkers import num_plurals

from analyzer import i18n
from conftest import BOARD_DESKTOP, BOARD_PHONE, BOARD_TOKEN, RECORDS, ROOT, board_client, served_board, settled

LANGUAGES = i18n.LANGUAGES
STATIC = ROOT / "analyzer" / "server" / "static"


# ---- the catalogues -------------------------------------------------------------------------------------------

def _extracted() -> set:
    """The messages the page marks, extracted now with babel-board.cfg (as docs/i18n.md says to)."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel-board.cfg") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {"_": None, "N_": None, "ngettext": (1, 2)}
    return {message if isinstance(message, str) else tuple(message) for _file, _line, message, _c, _x in
            extract_from_dir(str(ROOT), method_map, options_map, keywords=keywords)}


def _catalogue(code):
    from babel.messages.pofile import read_po

    with open(ROOT / "analyzer" / "locale" / code / "LC_MESSAGES" / "board.po", "rb") as po:
        return read_po(po, locale=code)


def _fields(text: str) -> set:
    return set(re.findall(r"\{[^{}]*\}", text))


@pytest.fixture(scope="module")
def extracted():
    return _extracted()


def test_the_page_marks_its_words_and_the_extraction_finds_them(extracted):
    # (words of each kind: a script's message, a plural one, the page's HTML text and a title, the site's own)
    assert {"analysing…", ("{n} tile", "{n} tiles"), "Analyse", "Save the text to its file (Ctrl-S)", "Copy link",
            "Loading the engine"} <= extracted


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_board_catalogue_has_every_message_with_its_plural_forms_and_placeholders(code, extracted):
    catalogue = _catalogue(code)
    assert catalogue.num_plurals == 3
    have = {m.id if isinstance(m.id, str) else tuple(m.id) for m in catalogue if m.id}
    assert extracted <= have, sorted(map(str, extracted - have))[:10]
    for message in catalogue:
        if not message.id:
            continue
        assert "fuzzy" not in message.flags, message.id
        forms = message.string if message.pluralizable else (message.string,)
        assert len(forms) == (catalogue.num_plurals if message.pluralizable else 1) and all(forms), (code, message.id)
        if message.pluralizable:
            assert all(_fields(form) <= _fields(message.id[0]) | _fields(message.id[1]) for form in forms), forms
        else:
            assert _fields(message.string) == _fields(message.id), (code, message.id, message.string)
        num_plurals(catalogue, message)         # Babel's own check of the plural forms


# the forms of "{n} tile" each language's grammar asks for (Russian: 1 and 21 кость, 2-4 and 22 кости, 5-20 and
# 11-14 костей; Spanish and Portuguese: the singular for one, the plural else)
TILES = {"ru": {1: "1 кость", 3: "3 кости", 5: "5 костей", 11: "11 костей", 12: "12 костей", 21: "21 кость",
                22: "22 кости", 25: "25 костей", 111: "111 костей"},
         "es": {1: "1 ficha", 2: "2 fichas", 5: "5 fichas", 21: "21 fichas", 1_000_000: "1000000 fichas"},
         "pt_BR": {1: "1 pedra", 2: "2 pedras", 21: "21 pedras", 1_000_000: "1000000 pedras"}}


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_page_is_given_each_forms_plural_category_and_picks_the_grammars_form(code):
    from analyzer.server.catalogue import board_catalogue

    given = board_catalogue(code)
    rule = Locale.parse(code).plural_form       # the browser's Intl.PluralRules: CLDR's categories, as Babel's
    forms = given["messages"]["{n} tile"]
    for n, words in TILES[code].items():
        assert forms[given["plural"].index(rule(n))].replace("{n}", str(n)) == words


def test_the_pages_languages_are_the_catalogues():
    script = (STATIC / "i18n.js").read_text(encoding="utf-8")
    assert re.search(r"export var LANGUAGES = (\[[^\]]*\]);", script).group(1) == str(list(LANGUAGES)).replace("'", '"')


@pytest.mark.slow
def test_the_server_serves_the_catalogue_and_makes_its_words_in_the_requests_language(tmp_path):
    text = (RECORDS / "errors.dom").read_text(encoding="utf-8")
    with board_client([str(tmp_path)]) as client:
        ru = client.get("/static/catalogue/ru.json")
        assert ru.status_code == 200 and ru.json()["plural"] == ["one", "few", "many"]
        assert ru.json()["messages"]["Analyse"] == "Анализ"
        assert client.get("/static/catalogue/qps.json").json() == {"lang": "qps", "pseudo": True}
        assert client.get("/static/catalogue/de.json").status_code == 404
        russian = client.post("/api/validate", json={"text": text, "name": "errors.dom", "lang": "ru"}).json()
        english = client.post("/api/validate", json={"text": text, "name": "errors.dom"}).json()
        spanish = client.post("/api/position", json={"text": text, "lang": "es-CU", "game": 0, "step": 0}).json()
    said = [d["message"] for g in english["games"] for d in g["diagnostics"]]
    told = [d["message"] for g in russian["games"] for d in g["diagnostics"]]
    assert [d["code"] for g in russian["games"] for d in g["diagnostics"]] == \
        [d["code"] for g in english["games"] for d in g["diagnostics"]]
    # tile-no-match and false-pass are in the catalogue: said in Russian (the tiles as they are)
    assert any("не подходит" in m for m in told) and not any("does not fit" in m for m in told)
    assert any("does not fit" in m for m in said)
    assert "error" not in spanish


def test_the_servers_refusal_of_a_malformed_request_is_in_its_language(tmp_path):
    """A request the board refuses (a bug's, never the page's): its message in the request's language, its status
    as before; a body that is not JSON (no "lang" to read) in the browser's, Accept-Language's."""
    with board_client([str(tmp_path)]) as client:
        english = client.post("/api/validate", json={"text": 3})
        russian = client.post("/api/validate", json={"text": 3, "lang": "ru"})
        spanish = client.post("/api/position", json={"text": "", "game": -1, "lang": "es"})
        broken = client.post("/api/validate", content=b"{not json", headers={"Content-Type": "application/json",
                                                                             "Accept-Language": "pt-BR,pt;q=0.9"})
        plain = client.post("/api/validate", content=b"{not json", headers={"Content-Type": "application/json"})
        nowhere = client.get("/api/nothing", headers={"Accept-Language": "es-CU, en;q=0.5"})
    assert english.status_code == russian.status_code == spanish.status_code == broken.status_code == 400
    assert english.json() == {"error": 'give the record as "text", a string'}
    assert russian.json() == {"error": 'передайте запись как "text", строкой'}
    assert spanish.json() == {"error": '"game" es un número entero de al menos 0, o se omite'}
    assert broken.json() == {"error": "o corpo do pedido não é JSON (envie um objeto JSON)"}
    assert plain.json() == {"error": "the request body is not JSON (send a JSON object)"}
    assert nowhere.status_code == 404 and nowhere.json() == {"error": "no existe esa página"}


# ---- in the browser -------------------------------------------------------------------------------------------

#: the visible text and labels of the page outside the pseudo-language's marks (innermost first: a message may
#: hold another in a placeholder), each with the element it is in
UNMARKED = r"""() => {
  const out = [];
  const strip = (text) => { while (/⟦[^⟦⟧]*⟧/.test(text)) { text = text.replace(/⟦[^⟦⟧]*⟧/g, " "); } return text; };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!el || !el.checkVisibility() || ["SCRIPT", "STYLE", "TEXTAREA", "OPTION"].includes(el.tagName)) { continue; }
    out.push([el.id || el.className || el.tagName, strip(node.nodeValue)]);
  }
  for (const el of document.querySelectorAll("[title], [placeholder], [aria-label], [alt]")) {
    if (!el.checkVisibility() || el.id === "lang") { continue; }
    for (const name of ["title", "placeholder", "aria-label", "alt"]) {
      if (el.hasAttribute(name)) { out.push([el.id || el.className.baseVal || el.className || el.tagName, strip(el.getAttribute(name))]); }
    }
  }
  return out;
}"""


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z']*[A-Za-z]", text)}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("board-i18n")
    for name in ("seed2.dom", "match-kozel.dom"):
        shutil.copy(RECORDS / name, folder / name)
    with served_board([str(folder)]) as port:
        yield f"http://127.0.0.1:{port}", folder


def _open(browser, served, name, viewport, lang=None, locale=None, answers=None):
    base, folder = served
    context = browser.new_context(viewport=viewport, **({"locale": locale} if locale else {}))
    context.route(re.compile(r"^(?!" + re.escape(base) + r")(https?|wss?|ftp)://"), lambda route: route.abort())
    if lang:
        context.add_init_script(f"localStorage.setItem('domino-board:lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type in ("error", "warning") else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if answers is not None:          # (the analyses the page is given, as it is given them)
        page.on("response", lambda r: answers.append(r) if r.url.endswith("/api/analyze") else None)
    page.goto(f"{base}/?token={BOARD_TOKEN}&path={folder / name}")
    return context, page, errors


@pytest.mark.slow
def test_a_pseudo_language_board_shows_no_english_word_outside_the_catalogues_marks(browser, served):
    """Every word the board shows, in the pseudo-language: the board, its review and values (a finished record is
    analysed on opening), the new-record and set-up forms and the problem panel; what is left outside a mark is the
    record's own text (names, tags, moves): the analysis's words (its reasons, the values' legend, the table's
    drawing's label) are the pipeline's, made in the page's language, marked too."""
    from playwright.sync_api import expect

    record = (RECORDS / "seed2.dom").read_text(encoding="utf-8")
    answers = []
    context, page, errors = _open(browser, served, "seed2.dom", BOARD_DESKTOP, lang="qps", answers=answers)
    try:
        expect(page.locator("#movelist li").first).to_be_visible(timeout=60_000)
        expect(page.locator("#values")).to_be_visible()
        assert page.evaluate("document.documentElement.lang") == "en"
        assert page.locator("#analyse").inner_text() == "⟦Analyse⟧"
        page.click("#newrecord")
        expect(page.locator("#nplayers .nplayer").first).to_be_visible()
        page.click("#setuprecord")
        expect(page.locator("#splaces .nplayer").first).to_be_visible()
        page.click("#problemsbutton")
        expect(page.locator("#problemerror")).to_be_visible()
        shown = page.evaluate(UNMARKED)
        # the analysis's own words (its reasons, the values' legend) came marked too, in the page's language
        analysis = answers[-1].json()
        assert all(legend.startswith("⟦") for legend in analysis["explained"]["legends"])
        reasons = [r["sentence"] for g in analysis["games"] for d in g["decisions"] for r in d.get("reasons", [])]
        assert reasons and all(r.startswith("⟦") for r in reasons)
        assert page.locator("#valueslegend").inner_text().startswith("⟦Points of the hand")
        kept = _words(record) | {"pass"}
        # (a diagnostic's severity and code, error[tile-no-match], stay as they are in every language)
        left = {(where, word) for where, text in shown if where != "code" for word in _words(text) - kept}
        assert not left, sorted(left)[:20]
        assert len([1 for _where, text in shown if "⟦" in text or text.strip()]) > 100    # (the page was full)
        assert not errors, errors
    finally:
        context.close()


def _counts(page) -> list[str]:
    return page.locator("#hands .count").all_inner_texts()


@pytest.mark.slow
def test_the_board_speaks_the_browsers_language_counts_in_its_forms_and_keeps_the_switch(browser, served):
    from playwright.sync_api import expect

    # a Russian browser: the board in Russian, <html lang> said, each count in the form Russian gives its number
    context, page, errors = _open(browser, served, "match-kozel.dom", BOARD_PHONE, locale="ru-RU")
    try:
        expect(page.locator("#hands .count").first).to_be_visible(timeout=60_000)
        assert page.evaluate("document.documentElement.lang") == "ru"
        assert page.locator("#analyse").inner_text() == "Анализ"
        # the page's negotiation is analyzer.i18n.negotiate's
        tags = ["pt-PT", "es-CU", "ru_RU.UTF-8", "de", "en-GB", "C", "", "fr-CA", "pt-BR"]
        for tag in tags:
            assert page.evaluate("t => import('/static/i18n.js').then(m => m.negotiate([t]))", tag) == \
                i18n.negotiate([tag]), tag
        seen = set()
        for step in range(0, 26, 3):        # through the first game: hands of 7 tiles down to 1
            page.evaluate("s => window.DominoBoard.at(0, s)", step)
            expect(page.locator("#stepinfo")).to_have_text(re.compile(rf"\b{step} из 25\b"), timeout=30_000)
            settled(page)
            for words in _counts(page):
                n, word = re.match(r"(\d+) (\S+?),? ", words + " ").groups()
                n = int(n)
                want = ("кость" if n % 10 == 1 and n % 100 != 11 else
                        "кости" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "костей")
                assert word == want, words
                seen.add(want)
        assert len(seen) >= 2, seen          # (forms told apart, not one for all)
        # the switch: Spanish chosen, kept over a reload
        page.select_option("#lang", "es")
        expect(page.locator("#analyse")).to_have_text("Analizar", timeout=30_000)
        page.reload()
        expect(page.locator("#hands .count").first).to_be_visible(timeout=60_000)
        assert page.evaluate("document.documentElement.lang") == "es"
        assert page.locator("#lang").input_value() == "es"
        page.set_viewport_size(BOARD_DESKTOP)
        page.evaluate("window.DominoBoard.at(0, 24)")
        expect(page.locator("#stepinfo")).to_contain_text("tras la jugada 24 de 25", timeout=30_000)
        for words in _counts(page):
            n, word = re.match(r"(\d+) (\S+?),? ", words + " ").groups()
            assert word == ("ficha" if n == "1" else "fichas"), words
        assert not errors, errors
    finally:
        context.close()
