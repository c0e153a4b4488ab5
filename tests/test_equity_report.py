"""``report --scale match``: the match-winning chance beside the values, each alternative's chance and
loss, the luck of the deal for each side, and on the index the luck and skill of each player and pair;
in real headless Chromium at desktop (1366x900) and phone (390x844) widths. Without ``--scale`` the
pages are what they were (the match parts appear nowhere)."""
from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.notation import parse
from conftest import wait_ready

HOSTILE = "<b>A</b>"

RECORDS = Path(__file__).resolve().parent.parent / "records"


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    src = tmp_path_factory.mktemp("records")
    shutil.copy(RECORDS / "match-jamaican.dom", src / "match.dom")
    out = tmp_path_factory.mktemp("report")
    res = CliRunner().invoke(main, ["report", "--scale", "match", "-o", str(out), str(src)])
    assert res.exit_code == 0, res.output
    plain = tmp_path_factory.mktemp("plain")
    res = CliRunner().invoke(main, ["report", "-o", str(plain), str(src)])
    assert res.exit_code == 0, res.output
    return out, plain


def test_match_parts_only_with_the_match_scale(pages):
    out, plain = pages
    page = (out / "match.dom.html").read_text(encoding="utf-8")
    assert "Match-winning chance of" in page and "Luck of the deal" in page and "On the match scale" in page
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'id="skill"' in index and "Pairs" in index
    for name in ("match.dom.html", "index.html"):
        text = (plain / name).read_text(encoding="utf-8")
        # (not a bare "mwc": the page's packed diagrams and lines are base64, which may spell it by chance)
        assert "mwc-" not in text and "Match-winning chance" not in text and "match-winning chance" not in text
        assert "Luck of the deal" not in text and 'id="skill"' not in text


def test_names_are_escaped():
    # a hostile player name: every text of a record reaches the match parts and the index escaped
    from analyzer.analysis.luck import LedHand, deal_luck
    from analyzer.analysis.match_scale import Before, match_positions, match_scale
    from analyzer.archive.stats import PlayerRow
    from analyzer.match import replay_record
    from analyzer.pipeline import Options, analyse_game
    from analyzer.render.index import ArchiveIndex, build_index, render_index
    from analyzer.render.model import build_report
    from analyzer.render.matchscale import with_match_views
    from analyzer.render.page import render_html

    record = parse((RECORDS / "match-jamaican.dom").read_text(encoding="utf-8"), "names.dom")
    for game in record.games[:2]:
        rename = {"A": HOSTILE}
        game.players = tuple(rename.get(p, p) for p in game.players)
        game.hands = tuple(dataclasses.replace(h, player=rename.get(h.player, h.player)) for h in game.hands)
        game.moves = [dataclasses.replace(m, player=rename.get(m.player, m.player)) for m in game.moves]
        game.tags.pop("Lead", None)
    record = dataclasses.replace(record, games=record.games[:2])
    replays = replay_record(record)
    analyses = [analyse_game(rep, Options(mode="analyze")) for rep in replays]
    scales = []
    for rep, analysis, (position, leader, note) in zip(replays, analyses, match_positions(replays)):
        scale = match_scale(analysis, rep.variant, Before(position, leader, note))
        scale = dataclasses.replace(scale, luck=deal_luck(analysis, rep.variant,
                                                          LedHand(leader, rep.match.number == 1), position))
        scales.append(scale)
    assert scales[0].known and f"{HOSTILE}/C" in replays[0].side_name(0)
    model = with_match_views(build_report("names.dom", replays, analyses), replays, analyses, scales)
    page = render_html(model)
    assert "Luck of the deal" in page and HOSTILE not in page and "&lt;b&gt;A&lt;/b&gt;/C" in page
    row = PlayerRow(HOSTILE, 1, 1, luck=1.0, result=1, adjusted=0.0, luck_hands=1)
    index = render_index(build_index([], [], ArchiveIndex("Archive", [], [row], "1 record", skill=([row], [row]))))
    assert 'id="skill"' in index and HOSTILE not in index and "&lt;b&gt;A&lt;/b&gt;" in index


def test_the_match_record_s_first_hand_starts_even(pages):
    # the first hand of a Jamaican match (six love): both sides alike before the [6-6] lead, so the
    # first side's chance is 1/2 before the deal is seen (the table's symmetry)
    out, _ = pages
    page = (out / "match.dom.html").read_text(encoding="utf-8")
    assert re.search(r"A/C 0 – B/D 0 before the hand \(game 1 of the match in the file\):\s*"
                     r'<span class="pname">A/C</span> 50\.0% to win the match', page)


@pytest.mark.parametrize("width,height", [(1366, 900), (390, 844)])
def test_in_the_browser(browser, pages, width, height, tmp_path):
    out, _ = pages
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500)
    try:
        page = context.new_page()
        errors = []
        page.on("console", lambda msg: errors.append(msg.text) if msg.type in ("error", "warning") else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto((out / "match.dom.html").as_uri())
        wait_ready(page)
        # the critical move of game 1 (A [0-2], move 14): it loses MWC, shown beside its value line
        page.locator(".jump-critical").first.click()
        detail = page.locator("section.detail:not([hidden])").first
        line = detail.locator(".mwc-line")
        assert line.is_visible() and "Match-winning chance of" in line.inner_text()
        assert "loses" in line.inner_text()
        table = detail.locator("table.mwc-alts")
        assert table.is_visible()
        rows = table.locator("tbody tr")
        assert rows.count() >= 2
        played = table.locator("tr.played")
        assert played.count() == 1 and "%" in played.locator("td.loss").inner_text()
        summary = page.locator(".card.verdict").first
        assert "Luck of the deal" in summary.inner_text() and "Match scale" in summary.inner_text()
        # nothing wider than the screen: the page never scrolls sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
        page.screenshot(path=str(tmp_path / f"match-{width}.png"))
        page.goto((out / "index.html").as_uri())
        skill = page.locator("#skill")
        skill.scroll_into_view_if_needed()
        assert skill.is_visible() and skill.locator("table#skill-players tbody tr").count() == 4
        assert skill.locator("table#skill-pairs tbody tr").count() == 2
        # sortable like the index's other tables: by luck (ascending), the side whose deals were worse first
        skill.locator("table#skill-pairs th button").nth(3).click()
        rows = skill.locator("table#skill-pairs tbody tr")
        lucks = [float(rows.nth(k).locator("td").nth(3).inner_text()) for k in range(2)]
        assert lucks == sorted(lucks) and lucks[0] == -lucks[1]
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
        page.screenshot(path=str(tmp_path / f"index-{width}.png"), full_page=True)
        assert not errors, errors
    finally:
        context.close()
