"""Issue #84 item 6 / "What it must do" 4: a game's grade thresholds stated on its own scale wherever they
are shown (the analysis's ``grading``, the text's ``Grades:`` line, the page's legend), and the draw game's
"no extra tile" said in words.

The draw game (004, "Domino", Grundregel) scores one point a game: a hand is worth 1, so a move that turns a
won hand into a lost one loses 2 and is a blunder (the game is graded by who wins the hand, ``ByGames``),
which the points thresholds (3, 10, 25) never say. Each game must state the grades it was given by, and
every class given must follow from the grades stated."""

from html import unescape

from analyzer.analysis import Grading, Thresholds, AnalysisSettings, analyze
from analyzer.codec import from_data, to_data
from analyzer.analysis import GameAnalysis
from analyzer.match import replay_record
from analyzer.notation import parse, read
from analyzer.render import build_report, render_html
from analyzer.render.text import analysis_text
from analyzer.template import template_text
from conftest import RECORDS

#: 004: "darf, wenn er einen passenden hat, auch diesen anlegen": the opener may add a matching tile
EXTRA = "may at once lay a second tile that matches it"


def _draw_record():
    """The draw game's first record, as ``domino new --variant draw`` writes it (A leads [6-6], adds [5-6])."""
    return parse(template_text("draw"), "new-draw.dom")


def _class_by_points(grading: Grading, loss: int) -> str | None:
    for name in ("blunder", "mistake", "inaccuracy"):
        if loss >= getattr(grading, name):
            return name
    return None


def _won(value: int, side: int) -> int:
    mine = value if side == 0 else -value
    return (mine > 0) - (mine < 0)


def test_a_points_game_states_the_thresholds_it_graded_by():
    record = read(RECORDS / "seed1.dom")
    (game,) = analyze(record, settings=AnalysisSettings(Thresholds(2, 5, 9)))
    assert game.grading == Grading("points", 2, 5, 9)
    graded = [d for d in game.decisions if d.loss is not None]
    assert any(d.cls for d in graded)
    for d in graded:           # every class follows from the thresholds stated
        assert d.cls == _class_by_points(game.grading, d.loss), d
    text = analysis_text(1, game)
    (line,) = [x for x in text.splitlines() if x.startswith("Grades:")]
    assert "inaccuracy loses 2+ points" in line and "mistake loses 5+ points" in line
    assert "blunder loses 9+ points" in line and "25" not in line
    page = unescape(render_html(build_report("seed1.dom", replay_record(record), [game])))
    legend = page[page.index('aria-label="legend"'):page.index("critical</span>")]
    assert "loses 9+ points" in legend and "loses 25+" not in legend


def test_the_draw_game_states_it_grades_by_who_wins_not_by_25_points():
    record = _draw_record()
    (rep,) = replay_record(record)
    assert rep.valid and rep.variant.name == "draw"
    (game,) = analyze(record)
    assert game.grading == Grading("games")
    graded = [d for d in game.decisions if d.loss]
    # a hand worth one point: a won hand lost is a loss of 2, and a blunder, as the grades stated say
    assert any(d.loss == 2 and d.cls == "blunder" for d in graded)
    for d in graded:
        changed = _won(d.best_value, d.side) != _won(d.played_value, d.side)
        assert d.cls == ("blunder" if changed else "inaccuracy"), d
    text = analysis_text(1, game)
    (line,) = [x for x in text.splitlines() if x.startswith("Grades:")]
    assert "blunder changes who wins the hand" in line and "a hand counts as one game won" in line
    assert "25" not in line and "points;" not in line
    page = unescape(render_html(build_report("new-draw.dom", [rep], [game])))
    legend = page[page.index('aria-label="legend"'):page.index("critical</span>")]
    assert "changes who wins the hand" in legend and "loses" not in legend
    assert "a hand counts as one game won" in legend                  # (its scale, stated once: in the legend)
    assert "<b>Grades:</b>" not in page        # (a game's own line only where the page's games were graded apart)
    counts = build_report("new-draw.dom", [rep], [game]).games[0].classified()
    assert set(counts) == {"inaccuracy", "blunder"}        # no mistake on a scale of who wins
    assert "The extra tile:" in page and EXTRA in page


def test_a_page_of_games_on_two_scales_states_each_games_own():
    draw, points = _draw_record(), read(RECORDS / "seed1.dom")
    reps = replay_record(draw) + replay_record(points)
    games = analyze(draw) + analyze(points)
    model = build_report("two.dom", reps, games)
    assert model.grading is None       # no one legend: each game states its own
    assert [g.grading for g in model.games] == [Grading("games"), Grading("points", 3, 10, 25)]
    page = unescape(render_html(model))
    legend = page[page.index('aria-label="legend"'):page.index("critical</span>")]
    assert "by each game's own grades" in legend and "loses" not in legend
    assert page.count("<b>Grades:</b>") == 2 and "loses 25+ points" in page and "changes who wins the hand" in page


def test_the_grading_goes_through_the_json_and_back():
    (game,) = analyze(_draw_record())
    data = to_data(game)
    assert data["grading"] == {"scale": "games", "inaccuracy": None, "mistake": None, "blunder": None}
    assert from_data(GameAnalysis, data).grading == Grading("games")


def test_no_extra_tile_is_said_in_words_where_it_is_offered():
    (game,) = analyze(_draw_record())
    assert any(a.move == "no extra tile" for d in game.decisions for a in d.alternatives)
    text = analysis_text(1, game)
    (line,) = [x for x in text.splitlines() if x.startswith("The extra tile:")]
    assert EXTRA in line and '"no extra tile" is his choice to lay none' in line
    (plain,) = analyze(read(RECORDS / "seed1.dom"))          # (no draw game: no such alternative, no words)
    assert "The extra tile:" not in analysis_text(1, plain)


def test_the_default_grades_are_stated_once_in_the_readme_and_the_legend_not_on_every_game_of_the_text():
    """With the default grades (3, 10, 25 points) the text of ``analyze`` gives no Grades line (the README and
    ``--help`` state them, and the page's legend); with others, it does."""
    from conftest import ROOT
    (game,) = analyze(read(RECORDS / "seed2.dom"))
    assert game.grading == Grading("points", 3, 10, 25) and game.grading.default
    assert not [x for x in analysis_text(1, game).splitlines() if x.startswith("Grades:")]
    assert "a loss of 3, 10 or 25 points" in " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    (other,) = analyze(read(RECORDS / "seed2.dom"), settings=AnalysisSettings(Thresholds(2, 5, 9)))
    assert not other.grading.default and "Grades:" in analysis_text(1, other)
