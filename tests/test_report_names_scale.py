"""The report of a game of two players names each player once (not "A A": his side is himself), and the value chart
is on the game's own scale (a game whose hand is worth one point runs -1..+1, not -10..+10) (issue #86, item 2)."""
from __future__ import annotations

import re
from html import unescape

import pytest

from analyzer.notation import parse
from analyzer.render import render_html
from analyzer.render.page import chart, chart_peak
from analyzer.archive.task import report_model
from conftest import RECORDS


def _model(name: str, games: int | None = None):
    text = (RECORDS / name).read_text(encoding="utf-8")
    if games is not None:
        text = '\n\n[Event'.join(text.split('\n\n[Event')[:games])
    return report_model(parse(text, name))


def _ticks(page: str) -> list[str]:
    return [unescape(t) for t in re.findall(r'<text class="tick"[^>]*text-anchor="end">([^<]*)</text>', page)]


@pytest.mark.parametrize("largest, peak", [(0, 1), (1, 1), (2, 2), (3, 4), (5, 6), (9, 10), (10, 10), (11, 20),
                                           (46, 50), (0.4, 1), (2.5, 4)])
def test_the_charts_top_is_the_games_own_scale(largest, peak):
    """The chart's top for the largest value shown: a whole number at least as large, whose half is whole (the
    ticks), no larger than the scale needs (1 for a one-point hand, tens from 10 up)."""
    assert chart_peak(largest) == peak
    assert chart_peak(largest) >= largest and (peak <= 2 or peak % 2 == 0)


def test_a_one_point_games_chart_runs_from_minus_one_to_plus_one():
    """Jamaican (a hand is one point, the values say who wins: +1, 0 or -1): the chart's ticks are +1, 0 and -1, and
    every point of the curve lies within the drawn area (top to bottom)."""
    model = _model("match-jamaican.dom", games=1)
    game = model.shown[0]
    values = {v for v in game.values if v is not None}
    assert values <= {-1, 0, 1} and values != {0}
    ch = chart(game)
    assert [label for _, label in ch.yticks] == ["+1", "0", "-1"]
    assert all(ch.top <= p.y <= ch.bottom for p in ch.points)
    assert _ticks(render_html(model)) == ["+1", "0", "-1"]


def test_a_two_player_games_report_names_each_player_once():
    """The two-player block game: the deal's table and the hands' heads name A and B once each (their side is
    themselves); a partnership game still names each player's side (A with A/C)."""
    page = render_html(_model("variant-block7.dom"))
    text = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<(style|script)\b.*?</\1>", "", page))))
    assert not re.search(r"\b(A A|B B)\b", text)
    assert 'class="sidecell"' not in page
    partnership = render_html(_model("seed1.dom"))
    assert partnership.count('<td class="sidecell">') % 4 == 0 and 'sidecell' in partnership
    assert re.search(r'<span class="pname">A</span></th><td class="sidecell"><span class="side s0" title="A/C">A/C</span>',
                     partnership)
