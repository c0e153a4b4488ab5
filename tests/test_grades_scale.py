"""Issue #67 item 4: grade classes on the scale of the game.

Jamaican (002: "Nach einem Spiel bekommt das Team, das gewonnen hat, einen Punkt") is scored by games: a
hand is worth one point to its winners, so on the points scale (3, 10, 25) no move could ever be an
inaccuracy, while a move that turns a won hand into a lost one is the worst a player can make."""

from analyzer.analysis import Thresholds, analyze
from analyzer.analysis.grades import ByGames, by_games, on_scale
from analyzer.notation import read
from analyzer.rules import find_variant
from conftest import RECORDS


def outcome(value: int, side: int) -> int:
    mine = value if side == 0 else -value
    return (mine > 0) - (mine < 0)


def test_games_scored_variants_grade_by_outcome():
    for name in ("jamaican", "chiva", "cutthroat"):
        assert by_games(find_variant(name)), name
        assert isinstance(on_scale(Thresholds(), find_variant(name)), ByGames)
    for name in ("partnership", "all-fives", "hungarian"):
        assert not by_games(find_variant(name)) and on_scale(Thresholds(), find_variant(name)) == Thresholds()
    grades = ByGames()
    assert grades.classify(2, 1, -1, 0) == "blunder"       # a won hand lost
    assert grades.classify(1, 1, 0, 0) == "blunder"        # a won hand let go to a draw: nobody wins it
    assert grades.classify(1, -1, 0, 1) == "blunder"       # the same for the second side (it wants lower)
    assert grades.classify(1, 2, 1, 0) == "inaccuracy"     # still won, a point given up (Milo's call)
    assert grades.classify(0, 1, 1, 0) is None


def test_bundled_jamaican_match_classes_its_critical_moves():
    results = analyze(read(RECORDS / "match-jamaican.dom"))
    criticals = [a.critical for a in results if a.critical is not None]
    assert criticals                               # (before: all six games showed 0 / 0 / 0)
    for a in results:
        for d in a.decisions:
            if d.loss and d.best_value is not None and d.played_value is not None:
                changed = outcome(d.best_value, d.side) != outcome(d.played_value, d.side)
                assert d.cls == ("blunder" if changed else "inaccuracy"), d
            else:
                assert d.cls is None
    for c in criticals:
        assert c.cls == "blunder" and outcome(c.best_value, c.side) != outcome(c.played_value, c.side)


def test_jamaican_page_counts_its_classes_and_says_what_they_mean():
    from analyzer.archive.task import report_model
    model = report_model(read(RECORDS / "match-jamaican.dom"))
    assert dict(model.grading.legend)["blunder"] == "changes who wins the hand"
    counted = [game.classified() for game in model.games]
    assert sum(c["blunder"] for c in counted) >= len([g for g in model.games if g.critical])
    for game in model.games:
        if game.critical:
            assert game.critical_move.cls == "blunder"
    partnership = report_model(read(RECORDS / "seed1.dom"))
    assert dict(partnership.grading.legend)["blunder"] == "loses 25+ points"
