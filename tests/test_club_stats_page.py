"""The pages of a club's statistics (``stats --by month --page FILE``, ``--by head-to-head --page FILE``, issue 86
item 3), in real headless Chromium at 1366 and 390 px: a plot a player, a point a month he has decisions in, each
inside the plot's box with its interval around it; head to head's tables whole; nothing wider than the screen; a
name from a record shown as text, never as markup; no request, no error. Screenshots in /tmp (club-trend-*.png,
club-h2h-*.png)."""
from __future__ import annotations

import json
import pathlib

import pytest
from click.testing import CliRunner

from analyzer.archive.league import head_to_head, period_rows
from analyzer.cli import main
from analyzer.render.trend import render_head_to_head, render_trend

PLAYERS = ("Ana", "Beto", "Carla", "Dario", "Elena", "Fidel", "Gisela", "<b>Hugo</b> & co")
MONTHS = ("2026.01.10", "2026.02.14", "2026.03.07", "2026.04.18", "2026.05.02", "2026.06.21")


def _results() -> list[dict]:
    """The runner's plain results of 48 two-player games, each with 6 decisions a player, some of them mistakes
    (12 points lost), as many as his number and the game's make (so the months differ): the form ``analyze`` gives
    them, written here so that no search runs."""
    out = []
    for k in range(48):
        a, b = PLAYERS[k % 8], PLAYERS[(k * 3 + 1) % 8]
        if a == b:
            b = PLAYERS[(k + 1) % 8]
        decisions = [{"player": p, "loss": 12 if j < (PLAYERS.index(p) + k) % 5 else 0,
                      "class": "mistake" if j < (PLAYERS.index(p) + k) % 5 else None}
                     for j in range(6) for p in (a, b)]
        out.append({"source": f"club/{k}.dom", "error": None, "games": [
            {"title": f"game {k}", "event": "Liga", "players": [a, b], "variant": "draw", "date": MONTHS[k % 6],
             "result": {"winner": [a], "points": 5}, "analysis": {"decisions": decisions}}]})
    return out


@pytest.fixture(scope="module")
def trend_page(tmp_path_factory) -> pathlib.Path:
    path = tmp_path_factory.mktemp("trend") / "trend.html"
    path.write_text(render_trend(period_rows(_results(), "month"), "Club <i>statistics</i>"), encoding="utf-8")
    return path


PLOTS = """() => Array.from(document.querySelectorAll('section.plot')).map(s => {
  const svg = s.querySelector('svg.trend'), box = svg.getBoundingClientRect();
  return {player: s.querySelector('h2').textContent, box: [box.left, box.top, box.right, box.bottom],
          points: Array.from(svg.querySelectorAll('circle')).map(c => {
            const r = c.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }),
          bars: Array.from(svg.querySelectorAll('line.ci')).map(l => [+l.getAttribute('y1'), +l.getAttribute('y2')]),
          dots: Array.from(svg.querySelectorAll('circle')).map(c => +c.getAttribute('cy')),
          labels: Array.from(svg.querySelectorAll('text')).map(t => {
            const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })};
})"""


@pytest.mark.parametrize("width", [1366, 390])
def test_the_trend_page_plots_each_player_inside_the_screen(open_page, trend_page, width):
    page, seen = open_page(trend_page, width=width, height=900)
    plots = page.evaluate(PLOTS)
    rows = period_rows(_results(), "month").rows
    assert [p["player"] for p in plots] == list(dict.fromkeys(r.player for r in rows))
    assert len(plots) == 8 and plots[-1]["player"] == "<b>Hugo</b> & co"        # the name as text
    assert page.locator("section.plot h2 b").count() == 0 and page.locator("h1 i").count() == 0
    for plot in plots:
        mine = [r for r in rows if r.player == plot["player"]]
        assert len(plot["points"]) == len(mine)          # a point a month he played in
        x0, y0, x1, y1 = plot["box"]
        assert all(x0 <= a and c <= x1 and y0 <= b and d <= y1 for a, b, c, d in plot["points"])
        # every label (the months, the scale) whole inside the plot: none cut at its edges
        assert all(x0 - 0.5 <= a and c <= x1 + 0.5 and y0 - 0.5 <= b and d <= y1 + 0.5 for a, b, c, d in plot["labels"])
        # each interval's bar runs through its point (the higher accuracy, the smaller y)
        assert all(high <= y <= low for (low, high), y in zip(plot["bars"], plot["dots"]))
        assert x1 <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.locator("#periods tbody tr").count() == len(rows)
    assert seen.errors == [] and [u for u in seen.requests if not u.startswith("file:")] == []
    page.screenshot(path=f"/tmp/club-trend-{width}.png", full_page=False)


def test_the_command_writes_the_page_and_never_over_a_file_it_did_not_write(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    stranger = tmp_path / "notes.html"
    stranger.write_text("<p>my notes</p>", encoding="utf-8")
    result = CliRunner().invoke(main, ["stats", "--by", "month", "--page", str(stranger), str(folder)])
    assert result.exit_code == 2 and stranger.read_text(encoding="utf-8") == "<p>my notes</p>"
    for args in (["--by", "player"], ["--by", "month", "--counts"]):
        result = CliRunner().invoke(main, ["stats", *args, "--page", str(tmp_path / "p.html"), str(folder)])
        assert result.exit_code == 2 and "--page" in result.output


def test_a_record_analysed_gives_its_page(tmp_path):
    """The whole way: two small games analysed by the command, the page written with their months."""
    from analyzer.generate import random_hand
    from analyzer.notation.writer import write
    from analyzer.record import Record
    from analyzer.rules import find_variant
    import random

    rng = random.Random(3)
    for k, date in enumerate(("2026.01.05", "2026.02.09")):
        game, _, _ = random_hand(find_variant("draw"), rng, None, ("Ana", "Beto"))
        game.tags["Date"] = date
        (tmp_path / f"g{k}.dom").write_text(write(Record(source="g", games=[game])), encoding="utf-8")
    page = tmp_path / "out" / "trend.html"
    result = CliRunner().invoke(main, ["stats", "--jobs", "1", "--by", "month", "--json", "--page", str(page),
                                       str(tmp_path)])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    html = page.read_text(encoding="utf-8")
    assert html.count("<section class=\"card plot\">") == len({r["player"] for r in rows if r["decisions"]}) == 2
    assert all(f"{r['period']}: {r['accuracy']:g}%" in html for r in rows if r["decisions"])


def test_games_without_a_month_are_said_undated_not_unvalued():
    """Every game undated (no Date tag, or ``????.??.??``), every player with decisions valued: the month page has
    no month to plot and says so (with ``--by event`` as the way to plot them), not that nothing was valued; the
    table still holds each player's row. In English and in Spanish."""
    from analyzer import i18n
    from analyzer.archive.league import UNDATED
    from analyzer.render import trend

    assert trend.UNDATED == UNDATED
    results = _results()
    for k, result in enumerate(results):
        game = result["games"][0]
        if k % 2:
            game["date"] = "????.??.??"
        else:
            game.pop("date")
    periods = period_rows(results, "month")
    assert {r.period for r in periods.rows} == {UNDATED}
    english = render_trend(periods, "Club")
    assert "None of these games is dated" in english and "--by event" in english
    assert "no accuracy to plot" not in english and "<section class=\"card plot\">" not in english
    assert all(f"<td>{p}</td>" in english for p in PLAYERS[:7])
    with i18n.use("es"):
        spanish = render_trend(periods, "Club")
    assert "Ninguna de estas partidas tiene fecha" in spanish and "None of these" not in spanish
    dated = render_trend(period_rows(_results(), "month"), "Club")
    assert "None of these games is dated" not in dated


def _partnership_results() -> list[dict]:
    """Plain results of partnership games among the 8 players (seats 1+3 against 2+4), as the runner gives them."""
    out = []
    for k in range(24):
        seated = [PLAYERS[(k + j * 3) % 8] for j in range(4)]
        out.append({"source": f"club/p{k}.dom", "error": None, "games": [
            {"title": "g", "event": None, "players": seated, "variant": "partnership", "date": None,
             "analysis": None, "result": {"winner": seated[k % 2::2], "points": 10 + k}}]})
    return out


@pytest.mark.parametrize("width", [1366, 390])
def test_the_head_to_head_page_shows_its_three_tables_inside_the_screen(open_page, tmp_path, width):
    h2h = head_to_head(_partnership_results())
    path = tmp_path / "h2h.html"
    path.write_text(render_head_to_head(h2h, "Head to head"), encoding="utf-8")
    page, seen = open_page(path, width=width, height=900)
    assert page.locator("#players tbody tr").count() == len(h2h.players)
    assert page.locator("#pairs tbody tr").count() == len(h2h.pairs) > 0
    assert page.locator("#partners tbody tr").count() == len(h2h.partners) > 0
    assert page.locator("td b").count() == 0
    assert page.get_by_text("<b>Hugo</b> & co", exact=True).first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # a phone keeps games, won and lost of each match-up on the screen
    for heading in ("Games", "Won", "Lost"):
        box = page.locator("#players thead th", has_text=heading).first.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width
    assert seen.errors == [] and [u for u in seen.requests if not u.startswith("file:")] == []
    page.screenshot(path=f"/tmp/club-h2h-{width}.png", full_page=False)
