"""The bundled records of the games played in Spanish, Portuguese and Russian analysed in their players' language
(issue 83, what it must show): the Cuban and Venezuelan records in Spanish, Brasília's in Brazilian Portuguese,
Kozel's in Russian, as text (``domino --lang CODE analyze``) and as a page (``report``), the page opened in Chromium
at a desk's width (1366 px) and a phone's (390 px).

An English word left on them is found by the catalogue itself: the English words of its messages (the msgids, four
letters or more) that its translations into the language never use and the record's file does not hold (its names,
tags, comments and the notation's ``pass``) are the words a page or a text could only show untranslated
(:func:`english_words`). ``docs/shots/i18n_shots.py`` takes the screenshots of docs/i18n.md from the same pages."""
import re
from functools import cache

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from analyzer.cli import main
from conftest import RECORDS, ROOT, wait_ready

#: the bundled record of each game and the language its players speak
RECORDS_BY_LANGUAGE = [("house-cuban-capicua.dom", "es"), ("match-venezuelan.dom", "es"),
                       ("house-brasilia.dom", "pt_BR"), ("match-kozel.dom", "ru")]
#: the ``<html lang>`` of a page in each language (BCP 47)
HTML_LANG = {"es": "es", "pt_BR": "pt-BR", "ru": "ru"}
#: the elements of a report page that hold the record's own text (as written in every language), a diagnostic's
#: code, and the page's data and styles (as test_i18n_report.RECORD_TEXT)
RECORD_TEXT = ("h1", "title", "nav.games", ".gtitle", ".tags", ".comment", ".remark", ".stated", ".pname", ".side",
               "code", ".sev", "script", "style")
#: English words the translations keep on purpose: the grades' and verdicts' codes a program reads are not shown;
#: these are names (of players' sides, variants, a house) and units the languages write alike
KEPT = {"domino", "capicua", "capicúa", "kozel", "brasília", "brasilia", "cuban", "venezuelan"}


def _catalogue(code: str, domain: str = "analyzer"):
    with open(ROOT / "analyzer" / "locale" / code / "LC_MESSAGES" / f"{domain}.po", "rb") as fh:
        return read_po(fh)


def _words(text: str) -> set[str]:
    """The words of four letters or more of ``text``, as written (a tag's name kept in a translation, ``Game``,
    is not the word ``game``), its placeholders, markup, options (``--move``), a rule option's setting as a user
    types it (``score=game``), codes (``[tiles-kept]``) and JSON keys (``"best"``) left out."""
    return set(re.findall(r"[A-Za-zÀ-ÿ]{4,}", re.sub(r"\{[^}]*\}|<[^>]*>|--?[\w-]+|[\w-]+=[\w-]+|\[[a-z]+(-[a-z]+)*\]|"
                                                    r"\"[a-z_]+\"", " ", text)))


@cache
def english_words(code: str) -> frozenset[str]:
    """The words of the catalogue's English messages (four letters or more, placeholders and markup left out) that
    no translation of ``code`` uses: a page or a text in ``code`` shows them only where a word was left in
    English."""
    english, translated = set(), set()
    for domain in ("analyzer", "board"):
        for message in _catalogue(code, domain):
            if not message.id:
                continue
            for text in (message.id,) if isinstance(message.id, str) else message.id:
                english |= _words(text)
            for text in (message.string,) if isinstance(message.string, str) else message.string:
                translated |= _words(text)
    return frozenset(w for w in english - translated if w.lower() not in KEPT)


def leftovers(text: str, code: str, record: str) -> list[str]:
    """The English words of ``text`` (see :func:`english_words`) that the record's own file does not hold."""
    own = {w.lower() for w in _words((RECORDS / record).read_text(encoding="utf-8"))}
    return sorted(w for w in _words(text) if w in english_words(code) and w.lower() not in own)


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), prog_name="domino")
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Each record's page and text in its language (one analysis each: the text read back from the cache the
    page's analysis filled)."""
    folder = tmp_path_factory.mktemp("i18n-records")
    out = {}
    for record, code in RECORDS_BY_LANGUAGE:
        page = folder / f"{record}.{code}.html"
        cache = str(folder / "cache")
        _run("--lang", code, "report", str(RECORDS / record), "-o", str(page), "--cache", cache)
        out[record] = (page, _run("--lang", code, "analyze", str(RECORDS / record), "--cache", cache))
    return out


def test_the_check_finds_english_words():
    """The check can fail: an English page's words and a line of the analysis in English are found."""
    assert {"move", "played", "best", "game"} <= english_words("es") and "game" in english_words("ru")
    assert leftovers("a game; move 5, B played [3-8]: a mistake, best [6-9]", "es", "house-cuban-capicua.dom") == [
        "best", "game", "mistake", "move", "played"]


@pytest.mark.slow                   # (four records analysed: some 15 s on a loaded machine)
@pytest.mark.parametrize("record, code", RECORDS_BY_LANGUAGE)
def test_the_text_is_in_the_players_language(made, record, code):
    """``analyze``'s text: its head and each decision's line in the language (the catalogue's own words for a game
    and a move, and a grade where the record has a loss), no English word of the catalogue left."""
    text = made[record][1]
    messages = _catalogue(code)
    game = messages.get("Game {number}").string.split("{number}")[0].strip()
    assert re.search(rf"^{re.escape(game)} 1\b", text, re.M), text[:300]
    move = messages.get("move {number}").string.split("{number}")[0].strip()
    assert f"{move} 1, " in text
    grades = [messages.get(g).string.upper() for g in ("inaccuracy", "mistake", "blunder")]
    assert any(g in text for g in grades), grades
    assert leftovers(text, code, record) == []


_SHOWN = """(skip) => {
    for (const e of document.querySelectorAll(skip)) e.remove();
    return document.body.innerText;
}"""


@pytest.mark.slow                   # (Chromium, after the four records' analyses)
@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_the_page_is_in_the_players_language_and_fits(made, open_page, width, height):
    """Each page in Chromium: ``<html lang>`` the language's, its details and tables shown, no English word of the
    catalogue in the text it shows (the record's own text aside), nothing wider than the screen."""
    for record, code in RECORDS_BY_LANGUAGE:
        page, seen = open_page(made[record][0], width=width, height=height)
        assert page.evaluate("document.documentElement.lang") == HTML_LANG[code]
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), record
        page.keyboard.press("ArrowRight")           # (the board at the first move: the words its script writes)
        page.evaluate("() => document.querySelectorAll('section.detail').forEach(d => d.hidden = false)")
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), record
        text = page.evaluate(_SHOWN, ", ".join(RECORD_TEXT))
        assert leftovers(text, code, record) == [], record
        assert seen.errors == [], record
        page.context.close()


def test_a_kozel_sheet_written_with_russian_words_validates_in_russian(tmp_path):
    """The bundled Kozel sheet (``sheet-kozel.dom``: no hand known, the deals inferred from the moves) written with
    the Russian ``пас`` for each pass validates in Russian as the English sheet does: every game valid, its deals'
    result checked through the passes (the bundled match written so: test_i18n's
    ``test_a_kozel_sheet_written_with_its_languages_pass_validates_as_in_english``)."""
    from test_i18n import _words_in

    english = (RECORDS / "sheet-kozel.dom").read_text(encoding="utf-8")
    russian = _words_in("sheet-kozel.dom", {"pass": "пас"})
    assert russian.count(" пас") == len(re.findall(r"[A-D] pass\b", english)) > 0 and " pass" not in russian
    outputs = []
    for name, text in (("en.dom", english), ("ru.dom", russian)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        result = CliRunner().invoke(main, ["--lang", "ru", "validate", str(tmp_path / name)], prog_name="domino")
        assert result.exit_code == 0, result.output
        outputs.append(result.output.replace(str(tmp_path / name), "X"))
    assert outputs[1] == outputs[0]
    messages = _catalogue("ru")
    valid = messages.get("valid").string
    assert outputs[1].count(f": {valid}\n") == 3, outputs[1]            # (its three games)


def test_a_strength_band_and_why_none_is_given_are_in_the_language():
    """The luck and skill table of an index: a band's name as the catalogue says it (its code stays in the JSON),
    why none is given in the language (no calibration for the variant, a single game)."""
    from analyzer import i18n
    from analyzer.archive.stats import PlayerRow
    from analyzer.equity.bands import band_names, strength_band
    from analyzer.render.index import ArchiveIndex, build_index, render_index

    messages = _catalogue("ru")
    with i18n.use("ru"):
        given = PlayerRow("Аня", 2, 4, band="expert", band_note="x")
        none = strength_band(1.5, (0.25, 2.75), 30, 3, None)       # (no calibration)
        one = strength_band(None, None, 1, 1, None)                 # (one game)
        index = render_index(build_index([], [], ArchiveIndex("Архив", [], [given], "1", skill=([given], [given]),
                                                              bands=band_names())))
    assert f">{messages.get('expert').string}</td>" in index and ">expert<" not in index
    assert none.why == messages.get("no calibration of the bands for this variant").string and none.name is None
    assert one.why == messages.get("never from one game").string


def test_the_anki_cards_words_are_all_in_the_catalogue():
    """The front and back of a problem's Anki card (``train -o deck.apkg``) in the pseudo-language: every fixed word
    marked (the problem page's own messages); what is left is the record's (its title, moves, file), and in Spanish
    the card says the catalogue's words."""
    from analyzer import i18n
    from analyzer.render.problems import anki_fields
    from test_i18n_report import _problems, _words as page_words

    with i18n.use("qps"):
        front, back = anki_fields(_problems()[0])       # (its view made in the language, as train makes it)
    assert "⟦" in front and "⟦" in back
    assert page_words(front + back, ("Seed", "seed1.dom")) == []
    with i18n.use("es"):
        front, back = anki_fields(_problems()[0])
    messages = _catalogue("es")
    question = messages.get("{player} to play: what do you play?").string.format(player="C")
    assert question in front and messages.get("best").string in back
    record = ("Seed", "lets D go out with [2-6]")         # (the problem's title and its reason, written out in English)
    shown = front + back
    for kept in record:
        shown = shown.replace(kept, " ")
    assert leftovers(shown, "es", "seed1.dom") == []


def test_a_trends_undated_and_eventless_periods_are_in_the_language():
    """A game without a date and one without an Event tag: their periods (``undated``, ``(no event)``: the codes the
    JSON keeps) on the trend page and in ``stats``' text as the catalogue says them, the page's title too."""
    from analyzer import i18n
    from analyzer.archive.league import NO_EVENT, UNDATED, period_names, period_rows, periods_table
    from analyzer.render.trend import render_trend
    from test_club_stats_page import _results

    results = _results()
    results[0]["games"][0]["date"] = "????.??.??"
    results[1]["games"][0].pop("event")
    messages = _catalogue("es")
    with i18n.use("es"):
        months, events = period_rows(results, "month"), period_rows(results, "event")
        assert {UNDATED} <= {r.period for r in months.rows} and {NO_EVENT} <= {r.period for r in events.rows}
        by_month = render_trend(months, messages.get("Club statistics by month").string, period_names())
        by_event = render_trend(events, messages.get("Club statistics by event").string, period_names())
        text = periods_table(events)
    undated, no_event = messages.get("undated").string, messages.get("(no event)").string
    assert f"<td>{undated}</td>" in by_month and ">undated<" not in by_month
    assert f"<td>{no_event}</td>" in by_event and "(no event)" not in by_event
    assert f"<title>{no_event}: " in by_event                        # (a point of the plot named by its period)
    assert no_event in text and "(no event)" not in text
