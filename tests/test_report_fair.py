"""The report of a fair analysis: both values side by side, the verdicts, the mover's view of who
holds what, the fair line of the chart and the key to the next graded move (in headless Chromium)."""
from __future__ import annotations

import re
from html import unescape

import pytest

from analyzer.analysis import analyze_replay
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.match import replay_record
from analyzer.notation import parse, read
from analyzer.pipeline import mover_views
from analyzer.render import build_report, render_html
from conftest import RECORDS, wait_ready

FAIR = FairSettings(worlds=4, exact_below=400, seats=("C",))


def fair_report(record, settings: FairSettings):
    """The report model of ``record`` with the fair analysis of every game (in this process)."""
    reps = replay_record(record)
    analyses = [fair_analyze(rep, analyze_replay(rep), settings=settings, run=FairRun(workers=1)) for rep in reps]
    analyses = mover_views(analyses)     # (who holds what: the pipeline gives it to the page)
    return build_report(record.source, reps, analyses)


@pytest.fixture(scope="module")
def fair_model():
    return fair_report(read(RECORDS / "seed1.dom"), FAIR)


@pytest.fixture(scope="module")
def fair_page(tmp_path_factory, fair_model):
    path = tmp_path_factory.mktemp("fair") / "seed1-fair.html"
    path.write_text(render_html(fair_model), encoding="utf-8")
    return path


def test_the_page_shows_both_values_and_the_verdicts(fair_model):
    game = fair_model.games[0]
    c36 = next(m for m in game.moves if m.player == "C" and m.text.startswith("[3-6]"))
    # C's [3-6]: with every hand open and by what C could know, [4-6] was better
    assert c36.cls is not None and c36.verdict == "real"
    assert c36.holds is not None and c36.holds.holders == ["A", "B", "D"]
    for pair, ps in c36.holds.rows:
        assert sum(ps) == pytest.approx(1.0)
    html = unescape(render_html(fair_model))
    assert "95% interval)" in html and "verdict-real" in html
    assert "Who holds what, as C saw it" in html
    assert 'class="fline"' in html
    # only C was judged by what he could know
    assert all(m.decision.fair is None for m in game.moves if m.decision and m.player != "C")
    assert game.mistakes and c36.number in game.mistakes


def test_a_record_with_hidden_hands_gets_the_fair_analysis_in_the_report():
    text = (RECORDS / "seed1.dom").read_text(encoding="utf-8")
    for name in "ABD":
        text = re.sub(rf"^{name}: .*$", f"{name}: ?", text, flags=re.M)
    model = fair_report(parse(text), FairSettings(worlds=2, exact_below=2))
    game = model.games[0]
    judged = [m for m in game.moves if m.decision is not None]
    assert judged and all(m.player == "C" and m.decision.fair is not None for m in judged)
    assert all(a.value is None for m in judged for a in m.decision.alternatives)
    html = render_html(model)
    assert "the moves of C" in html


def test_the_n_key_jumps_to_the_next_graded_move(open_page, fair_page, fair_model):
    page, seen = open_page(fair_page)
    marks = fair_model.games[0].mistakes
    page.keyboard.press("n")
    assert page.evaluate("location.hash") == f"#g1-m{marks[0]}"
    if len(marks) > 1:
        page.keyboard.press("n")
        assert page.evaluate("location.hash") == f"#g1-m{marks[1]}"
    page.keyboard.press("N")
    assert page.evaluate("location.hash") == f"#g1-m{marks[0]}"
    # at C's [3-6] the fair values stand beside the open-hands ones, with C's view of the hands
    c36 = next(m for m in fair_model.games[0].moves if m.player == "C" and m.text.startswith("[3-6]"))
    page, seen = open_page(fair_page, f"#g1-m{c36.number}")
    shown = page.locator("section.detail:not([hidden])")
    assert shown.locator("table.alts td.fair").count() == len(c36.decision.alternatives)
    assert shown.locator("table.holds-table").count() == 1
    assert seen.errors == []


def test_on_a_phone_the_board_comes_first_and_is_as_wide_as_the_hands(browser, fair_page):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(fair_page.as_uri())
        wait_ready(page)
        board = page.locator("#g1 .board").bounding_box()
        deal = page.locator("#g1 .card.players").bounding_box()
        hand = page.locator("#g1 .hand").first.bounding_box()
        assert board["y"] < deal["y"]
        assert board["width"] >= hand["width"] - 0.5
    finally:
        context.close()


@pytest.fixture(scope="module")
def cli_fair_page(tmp_path_factory):
    """``domino report --fair`` of the book deal, C judged by what he could know."""
    from test_cli import run

    path = tmp_path_factory.mktemp("cli-fair") / "seed1.html"
    result = run("report", str(RECORDS / "seed1.dom"), "--fair", "--seat", "C", "--decision-deals", str(FAIR.worlds),
                 "--exact-below", str(FAIR.exact_below), "-o", str(path))
    assert result.exit_code == 1          # the book's record breaks the rules from round 7 on
    assert f"wrote {path}" in result.output
    return path


@pytest.mark.parametrize("width", [1360, 390], ids=["desktop", "phone"])
def test_report_fair_on_the_command_line_shows_the_fair_analysis(browser, cli_fair_page, fair_model, width):
    html = unescape(cli_fair_page.read_text(encoding="utf-8"))
    assert "the moves of C" in html and "A: not asked for (--seat)" in html
    c36 = next(m for m in fair_model.games[0].moves if m.player == "C" and m.text.startswith("[3-6]"))
    context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 500)
    errors = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(cli_fair_page.as_uri() + f"#g1-m{c36.number}")
        wait_ready(page)
        shown = page.locator("section.detail:not([hidden])")
        # every alternative of C's [3-6] with its fair value, the verdict mark and C's view of the hands
        assert shown.locator("table.alts td.fair").count() == len(c36.decision.alternatives)
        assert shown.locator(".verdict-real").count() >= 1
        assert shown.locator("table.holds-table").is_visible()
        # nothing wider than the screen (long badges wrap; on a phone each term stands above its text)
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
        if width < 500:
            board = page.locator("#g1 .board").bounding_box()
            deal = page.locator("#g1 .card.players").bounding_box()
            assert board["y"] < deal["y"]
        assert errors == []
    finally:
        context.close()


def test_report_fair_refuses_bad_settings(tmp_path):
    from test_cli import run

    bad = run("report", str(RECORDS / "seed1.dom"), "--fair", "--decision-deals", "1", "-o", str(tmp_path / "p.html"))
    assert bad.exit_code == 2 and "--decision-deals" in bad.output
    plain = run("report", str(RECORDS / "seed1.dom"), "-o", str(tmp_path / "plain.html"))
    assert "Fair value" not in (tmp_path / "plain.html").read_text(encoding="utf-8") and plain.exit_code == 1


@pytest.mark.parametrize("width,height", [(375, 667), (1280, 800)], ids=["phone", "desktop"])
def test_the_fair_table_of_alternatives_fits_its_card(open_page, fair_page, fair_model, width, height):
    page, seen = open_page(fair_page)
    page.set_viewport_size({"width": width, "height": height})
    judged = [m.number for m in fair_model.games[0].moves if m.decision and m.decision.fair]
    assert judged
    for k in judged:
        page.evaluate(f"location.hash = '#g1-m{k}'")
        shown = page.locator("#g1 section.detail:not([hidden])")
        card, table = shown.bounding_box(), shown.locator("table.alts").bounding_box()
        assert table["x"] + table["width"] <= card["x"] + card["width"], k
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), k
    assert seen.errors == []


def test_a_long_name_in_the_table_of_who_holds_what_ends_in_an_ellipsis(open_page, tmp_path):
    long = "Bartholomew_Featherstonehaugh_Cholmondeley_Marjoribanks_the_third_of_his_name_and_very_long"
    text = re.sub(r"\bA\b", long, (RECORDS / "seed1.dom").read_text(encoding="utf-8"))
    model = fair_report(parse(text), FAIR)
    c36 = next(m for m in model.games[0].moves if m.player == "C" and m.text.startswith("[3-6]"))
    assert c36.holds.holders[0] == long
    path = tmp_path / "long-fair.html"
    path.write_text(render_html(model), encoding="utf-8")
    page, seen = open_page(path, f"#g1-m{c36.number}")
    page.set_viewport_size({"width": 375, "height": 667})
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    head = page.locator("#g1 section.detail:not([hidden]) table.holds-table th").nth(1)
    assert head.get_attribute("title") == long
    assert head.evaluate("h => getComputedStyle(h.querySelector('.pname')).textOverflow") == "ellipsis"
    assert seen.errors == []


def test_the_fair_best_move_is_written_as_the_rest_of_the_page_writes_moves(open_page, fair_page, fair_model):
    """"[4-6] on the 6", as the open-hands best move and the move list say it, not "[4-6]@6"."""
    game = fair_model.games[0]
    c36 = next(m for m in game.moves if m.player == "C" and m.text.startswith("[3-6]"))
    best = c36.decision.fair.best
    assert "@" in best                    # the notation, which the page must put in words
    words = best.replace("@", " on the ")
    page, seen = open_page(fair_page, f"#g1-m{c36.number}")
    caption = page.locator("#g1 section.detail:not([hidden]) table.alts caption").inner_text()
    assert f"on average; best: {words}, ahead of " in caption and "@" not in caption     # (and why: the gap)
    critical = game.moves[game.fair_critical - 1].decision.fair.best.replace("@", " on the ")
    term = page.locator("#g1 .verdict dt", has_text="Fair critical move")
    verdict = term.locator("xpath=following-sibling::dd[1]").inner_text()
    assert f"best was {critical}" in verdict and "@" not in verdict
    assert seen.errors == []
