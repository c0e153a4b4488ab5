"""Whole-record analysis against the book's example and an independent minimax."""
import json

import networkx as nx
import pytest
from click.testing import CliRunner

from analyzer.analysis import Thresholds, analyze, analyze_replay
from analyzer.cli import main
from analyzer.generate import random_game
from analyzer.analysis.lines import build_tree, tree_json
from analyzer.notation import parse, read
from analyzer.replay import replay
from analyzer.match import replay_record
from analyzer.search.block import Solver
from analyzer.tiles import Move, Tile
from conftest import RECORDS, SEED_DEAL
from minimax_reference import Reference, from_move
from analyzer.analysis import AnalysisSettings


@pytest.fixture(scope="module")
def seed_one():
    """The seed's first game, the table as the book prints it (invalid from round 7 on)."""
    (rep,) = replay_record(read(RECORDS / "seed1-table.txt"))
    return rep, analyze_replay(rep, AnalysisSettings(lines=True))


def test_the_critical_move_is_the_one_the_book_marks(seed_one):
    rep, result = seed_one
    critical = result.critical
    step = rep.steps[critical.index]
    # "Der kritische Zug (*) war das Spiel von [3-6] statt [4-6]."
    assert (critical.player, critical.round, step.entry.tile) == ("C", 5, Tile(3, 6))
    assert step.entry.annotation == "*"
    best = [a.move for a in critical.alternatives if a.best]
    assert best == ["[4-6]@6"]
    assert critical.loss == max(d.loss for d in result.decisions)
    assert critical.cls == "blunder"


def test_four_six_on_the_six_leads_to_the_block_that_wins_46_for_a_and_c(seed_one):
    rep, result = seed_one
    critical = result.critical
    pos = rep.position_at(critical.index)
    pos.push(Move(Tile(4, 6), 6))
    line = Solver(rep.variant).best_line(pos)
    for move in line:
        pos.push(move)
    outcome = pos.outcome()
    assert outcome.termination == "blocked"
    # "Die Spieler A und C gewinnen 46 Punkte": B and D are left with 46 pips, A and C with fewer
    ac, bd = pos.pips(0) + pos.pips(2), pos.pips(1) + pos.pips(3)
    assert bd == 46 and ac < bd
    assert next(a.value for a in critical.alternatives if a.move == "[4-6]@6") == 46


def _reference_state(ref, rep, upto):
    """The reference minimax's state after the record's first ``upto`` moves."""
    state = ref.start
    for step in rep.steps[:upto]:
        state, done = ref.play(state, from_move(step.move))
        assert done is None
    return state


def test_every_value_of_the_seed_analysis_agrees_with_a_plain_minimax(seed_one):
    rep, result = seed_one
    hands = [[(t.low, t.high) for t in hand.tiles] for hand in rep.game.hands]
    # from round 3 on the plain minimax is quick enough for a default test run
    for decision in [d for d in result.decisions if d.index >= 10]:
        ref = Reference(rep.variant, hands, leader=1)
        state = _reference_state(ref, rep, decision.index)
        expected = {str(m): v for m, v in ref.alternatives(state).items()}
        assert {a.move: a.value for a in decision.alternatives} == expected


# 000: "Einige geben dem Team, von dem ein Spieler einen Stein gespielt hat, der den nächsten Spieler
# zwingt zu passen, einen Bonus von 20 Punkten ..." The values are the hand's whole score: the bonuses
# already paid, those the rest of the hand pays, and its points.
@pytest.mark.parametrize("core", ["compiled", "python"])
def test_the_values_of_a_pass_bonus_record_count_the_bonuses_like_a_plain_minimax(core, monkeypatch):
    import analyzer.search.core as search_core
    if core == "compiled" and search_core.compiled_core() is None:
        pytest.skip("the compiled core was not built")
    monkeypatch.setattr(search_core, "CORE", core)
    (rep,) = replay_record(read(RECORDS / "variant-pass-bonus.dom"))
    # by the rule, move by move: D's [6-6] makes A pass (the first bonus: 20 to B/D); B's [4-5] makes C
    # pass (10 to B/D); A's [4-4] makes B and C pass (10 to A/C: "bekommt nur der erste Spieler die
    # Punkte"); C's [0-5] makes D, A and B pass (10 for each opponent: 20 to A/C); C's [5-5] blocks the
    # hand (20 to A/C). The block: A/C hold [0-0] [2-2] [0-3] [3-3] (13), B/D [0-6] [1-1] [3-6] (17):
    # A/C win 17, rounded down to 10. A/C 10 + 50, B/D 30: the record's Score tag
    assert rep.valid and rep.result.scores == (60, 30)
    result = analyze_replay(rep)
    assert "pass bonuses" in result.note and result.stopped is None
    hands = [[(t.low, t.high) for t in hand.tiles] for hand in rep.game.hands]
    moves = [step.move for step in rep.steps]
    for decision in [d for d in result.decisions if d.index >= 10]:
        ref = Reference(rep.variant, hands, leader=3)
        state, line, paid = ref.replay(moves[:decision.index])
        expected = {str(m): paid + v for m, v in ref.alternatives(state, line).items()}
        assert {a.move: a.value for a in decision.alternatives} == expected
    # from C's last choice (round 7) the hand is forced to its end: the value of the move played
    # there is the record's own score, bonuses and all
    last = result.decisions[-1]
    assert all(len(rep.position_at(i).legal_moves()) == 1 for i in range(last.index + 1, len(rep.steps)))
    assert next(a.value for a in last.alternatives if a.played) == 60 - 30


def test_loss_is_from_the_movers_side_and_never_negative(seed_one):
    _, result = seed_one
    for d in result.decisions:
        values = [a.value for a in d.alternatives]
        best = max(values) if d.side == 0 else min(values)
        assert d.best_value == best and d.loss >= 0
        assert d.loss == (best - d.played_value if d.side == 0 else d.played_value - best)


def test_the_analysis_of_an_invalid_record_stops_at_its_first_error(seed_one):
    rep, result = seed_one
    assert result.analysed_steps == rep.legal_prefix
    first = rep.steps[rep.legal_prefix]
    assert (first.entry.round, first.entry.player) == (7, "A")
    assert result.stopped and f"line {first.entry.pos.line}" in result.stopped


def test_the_turning_point_is_the_first_change_of_sign(seed_one):
    _, result = seed_one
    i = result.turning_point
    assert i is not None
    v = result.values
    assert all((v[k] > 0) == (v[0] > 0) and v[k] != 0 for k in range(i + 1))
    assert (v[i + 1] > 0) != (v[i] > 0)


def test_values_follow_the_played_line():
    # along a line every move keeps the value, except a decision's played alternative sets it
    rep = replay(random_game(seed=11))
    result = analyze_replay(rep)
    by_index = {d.index: d for d in result.decisions}
    fresh = Solver(rep.variant)
    for i in range(result.analysed_steps):
        # the value after each move is the value of that position, solved from scratch
        assert result.values[i + 1] == Solver(rep.variant).solve(rep.position_at(i + 1)) == \
            fresh.solve(rep.position_at(i + 1))
        if i not in by_index:
            assert result.values[i + 1] == result.values[i]   # a forced move or a pass keeps it
    # and the last value is the hand's own result, seen from A/C
    r = rep.result
    assert result.values[-1] == (0 if r.winner is None else r.points if r.winner == 0 else -r.points)


def test_thresholds_classify_losses():
    t = Thresholds.parse("2,8,20")
    assert [t.classify(x) for x in (0, 1, 2, 8, 19, 20)] == [None, None, "inaccuracy", "mistake", "mistake", "blunder"]
    with pytest.raises(ValueError):
        Thresholds.parse("10,5,20")


def test_the_tree_holds_the_played_line_and_every_alternative(seed_one, tmp_path):
    _, result = seed_one
    g = build_tree(result)
    path = [f"p{i}" for i in range(result.analysed_steps + 1)]
    assert nx.is_path(g, path) and all(g.edges[a, b]["played"] for a, b in zip(path, path[1:]))
    for d in result.decisions:
        out = [g.edges[e] for e in g.out_edges(f"p{d.index}")]
        assert sorted(e["move"] for e in out) == sorted(a.move for a in d.alternatives)
        for alt in d.alternatives:
            edge = next(e for e in out if e["move"] == alt.move)
            assert edge["value"] == alt.value
    assert nx.is_tree(g.to_undirected()) and nx.is_directed_acyclic_graph(g)
    out = tmp_path / "tree.graphml"
    nx.write_graphml(g, out)
    back = nx.read_graphml(out)
    assert back.number_of_edges() == g.number_of_edges()
    data = json.loads(tree_json(g))
    assert len(data["edges"]) == g.number_of_edges()


def test_analyze_json_has_the_documented_shape(tmp_path):
    graph = tmp_path / "t.json"
    res = CliRunner().invoke(main, ["analyze", str(RECORDS / "seed1-table.txt"), "--json", "--graph", str(graph)])
    assert res.exit_code == 1, res.output       # analysed as far as it is legal; the record breaks the rules
    data = json.loads(res.output)
    game = data["games"][0]
    d = game["decisions"][0]
    assert {"index", "player", "line", "column", "played", "alternatives", "best_value", "loss", "class"} <= set(d)
    assert {"move", "value"} <= set(d["alternatives"][0])
    assert game["critical"]["played"] == "[3-6]@6"
    assert json.loads(graph.read_text())["edges"]


def test_analyze_prints_the_critical_move():
    res = CliRunner().invoke(main, ["analyze", str(RECORDS / "seed1-table.txt")])
    assert res.exit_code == 1                   # the record breaks the rules in round 7
    assert "Critical move: C [3-6]@6, move 18 (line" in res.output
    assert "stops before move" in res.output


def test_an_unknown_hand_is_not_analysed_and_says_why():
    text = SEED_DEAL.replace("C: [0-2] [2-4] [2-5] [3-3] [3-6] [4-5] [4-6]", "C: ?").replace(
        "D: [0-3] [0-4] [1-2] [1-5] [3-5] [5-5] [6-6]", "D: ?")
    (result,) = analyze(parse(text + "\n1. B [1-1]"))
    assert not result.decisions and "not fully known" in result.stopped


def test_a_broken_deal_names_its_first_error_and_line():
    text = (RECORDS / "seed1.dom").read_text()
    broken = text.replace("[0-5]", "[0-0]", 1)          # A is dealt B's [0-0]: dealt twice
    (rep,) = replay_record(parse(broken, "x.dom"))
    first = next(d for d in rep.deal_diagnostics if d.severity == "error")
    result = analyze_replay(rep)
    assert not result.decisions
    assert f"(line {first.line}): {first.code}" in result.stopped and first.code.startswith("deal-")


def test_table_mb_bounds_every_search_of_the_fair_analysis_too(tmp_path, monkeypatch):
    """``--table-mb`` states the memory of one analysis: the fair analysis (the open-hands values and
    the search of every world) must keep to it as the plain analysis does."""
    import analyzer.analysis as analysis
    import analyzer.analysis.fair as fair

    asked = []

    def spy(made):
        def searcher(rules, fast, node_limit, table_mb=None, **kwargs):
            asked.append(table_mb)
            return made(rules, fast, node_limit, table_mb, **kwargs)
        return searcher

    def worlds_spy(made):      # the compiled core's one call for all the worlds of a decision
        def solver(rules, node_limit=None, table_mb=None, **kwargs):
            asked.append(table_mb)
            return made(rules, node_limit, table_mb, **kwargs)
        return solver

    monkeypatch.setattr(analysis, "searcher_for", spy(analysis.searcher_for))
    monkeypatch.setattr(fair, "searcher_for", spy(fair.searcher_for))
    monkeypatch.setattr(fair, "WorldsSolver", worlds_spy(fair.WorldsSolver))
    block7 = str(RECORDS / "variant-block7.dom")
    settings = ("--fair", "--seat", "A", "--decision-deals", "2", "--exact-below", "1", "--table-mb", "3")
    for command in (("analyze", block7), ("report", block7, "-o", str(tmp_path / "page.html"))):
        asked.clear()
        res = CliRunner().invoke(main, [*command, *settings])
        assert res.exit_code == 0, res.output
        assert len(asked) > 2 and set(asked) == {3.0}, (command, asked)


@pytest.mark.parametrize("workers", [1, 2])
def test_the_fair_analysis_tells_its_progress_in_deals(workers, monkeypatch):
    """A French hand's fair analysis solves thousands of worlds (minutes): ``progress(done, total)``
    counts them as they are solved, and ``analyze --fair`` shows it as a bar on a terminal."""
    import analyzer.cli.output as cli
    from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze

    (rep,) = replay_record(read(RECORDS / "variant-block7.dom"))
    calls = []
    out = fair_analyze(rep, settings=FairSettings(seats=["A"], worlds=30, exact_below=10),
                       run=FairRun(workers=workers, progress=lambda done, total: calls.append((done, total))))
    solved = sum(d.fair.worlds for d in out.decisions if d.fair is not None)
    assert solved > 30 and calls[-1] == (solved, solved)
    # (the total is the most deals there may still be: it only shrinks as decisions are told apart or settle)
    assert all(a[0] <= b[0] and a[1] >= b[1] for a, b in zip(calls, calls[1:]))
    monkeypatch.setattr(cli, "_terminal", lambda: True)
    res = CliRunner().invoke(main, ["analyze", "--fair", "--seat", "A", "--decision-deals", "30", "--exact-below", "10",
                                    str(RECORDS / "variant-block7.dom")])
    # (click draws no bar into a file that is not a terminal, as here: its label shows it was made)
    assert res.exit_code == 0 and "deals of " in res.stderr and "deals of " not in res.stdout


def test_one_drawn_deal_proves_no_real_mistake():
    """A verdict "real" needs the mean loss over the drawn deals above zero by its 95% interval, which
    one deal cannot give; the library refuses to draw fewer than two, as the command line does."""
    from analyzer.analysis.fair import FairSettings, fair_analyze
    from analyzer.analysis.fairstats import significant as _significant

    assert not _significant([12.0], exact=False) and _significant([12.0], exact=True)
    assert _significant([12.0, 11.0, 13.0], exact=False)
    (rep,) = replay_record(read(RECORDS / "variant-block7.dom"))
    with pytest.raises(ValueError, match="at least 2"):
        fair_analyze(rep, settings=FairSettings(worlds=1))
