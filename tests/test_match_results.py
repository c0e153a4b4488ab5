"""The match scale where both sides score in one hand (``analysis.outcomes``): Domino Whist's bad points
(001: each side writes its own pips; the match ends at 100 bad points, the side with fewer wins it) and All
Fives' points scored during play. Each alternative is graded by the result of its principal variation, read
as the replayer reads a finished hand.

Facts: the principal variation's result splits the points so that their difference is the open-hands
value of the alternative, exactly (the search's value, counted from the deal); a Whist alternative whose
line takes a side to 100 bad points ends the match, won by the side with fewer; the bundled Whist match is
graded on the match scale, with every alternative's chance the one its result gives and the MWC line
along the line played."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from analyzer.analysis import analyze_replay
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.analysis.match_scale import Before, match_scale, why_not
from analyzer.analysis.outcomes import needs_results, principal_results
from analyzer.cli import main
from analyzer.equity import MatchPosition
from analyzer.generate import random_game
from analyzer.pipeline import Options, analyse, read_text, results_wanted
from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.replay import replay
from analyzer.rules import MatchState, find_variant
from analyzer.search.core import draw_core
from conftest import RECORDS, game_alone


@pytest.mark.parametrize("name", ["whist", "all-fives", "all-fives-threes"])
def test_each_principal_result_splits_exactly_the_alternatives_value(name):
    v = find_variant(name)
    assert needs_results(v)
    checked = 0
    for seed in range(4):
        rep = replay(random_game(v, seed), v)
        analysis = analyze_replay(rep)
        results = principal_results(rep, analysis)
        assert len(results.alternatives) == len(analysis.decisions)
        for d, row in zip(analysis.decisions, results.alternatives):
            for alt, r in zip(d.alternatives, row):
                difference = r.scores[0] - r.scores[1]
                # bad points: the value is the other side's less one's own
                assert alt.value == (-difference if v.match.kind == "bad" else difference), (seed, d.index, alt.move)
                checked += 1
        # the line played: each step's result is the one its running value stands for
        for value, r in zip(analysis.values, results.line):
            assert value == (r.scores[1] - r.scores[0] if v.match.kind == "bad" else r.scores[0] - r.scores[1])
    assert checked > 30


def test_an_individual_players_principal_result_splits_his_value():
    """All Fives for three: each decision is valued for its mover against the two others (his points of the
    hand less theirs together, ``AgainstTheRest``); his line's result gives every player's points apart."""
    v = find_variant("all-fives", {"players": "3"})
    checked = 0
    for seed in range(3):
        rep = replay(random_game(v, seed), v)
        analysis = analyze_replay(rep)
        results = principal_results(rep, analysis)
        for d, row in zip(analysis.decisions, results.alternatives):
            seat = analysis.players.index(d.player)
            for alt, r in zip(d.alternatives, row):
                assert len(r.scores) == 3 and alt.value == 2 * r.scores[seat] - sum(r.scores)
                checked += 1
    assert checked > 20


def test_two_sided_games_that_score_one_side_need_no_results():
    assert not needs_results(find_variant("partnership")) and not needs_results(find_variant("draw"))
    assert why_not(find_variant("whist")) is not None and why_not(find_variant("whist"), results=True) is None


def test_rules_without_a_table_say_the_table_is_missing_not_that_a_value_needs_results(monkeypatch):
    """Whist to 7 bad points has no shipped table, so its results are never read: the match scale names the table to
    make (as for any rules without one), not the bad points a value alone leaves unsaid (the results would give
    them). A hand of which no move was analysed says so."""
    from analyzer.analysis import GameAnalysis
    from analyzer.equity import TABLES_ENV

    monkeypatch.delenv(TABLES_ENV, raising=False)
    v = find_variant("whist", {"target": "7"})
    for results in (False, True):
        assert "no match-winning-chance table is shipped for whist" in why_not(v, results=results)
        assert "domino equity --variant whist --rule target=7" in why_not(v, results=results)
    out = CliRunner().invoke(main, ["analyze", str(RECORDS / "match-whist.dom"), "--scale", "match", "--rule",
                                    "target=7"])
    assert out.exit_code == 0
    assert out.output.count("Match scale: no match-winning-chance table is shipped for whist") == 2
    assert "does not give" not in out.output
    whist = find_variant("whist")
    empty = GameAnalysis("a hand with errors", ["A", "B", "C", "D"], [])
    scale = match_scale(empty, whist, Before(MatchPosition(MatchState((10, 20), (0, 0), 1), ("side", 0)), 0))
    assert not scale.known and scale.note.startswith("no move of this hand was analysed")
    assert "no match-winning-chance table" in match_scale(empty, v, Before(MatchPosition(MatchState((1, 2), (0, 0), 1),
                                                                                   ("side", 0)), 0)).note


def test_a_whist_alternative_that_reaches_100_bad_points_ends_the_match():
    """At 80-85 bad points, an alternative whose line gives side 1 fifteen or more (and side 0 fewer than
    twenty more than side 1 has then) ends the match won by side 0: MWC 1; and the reverse 0."""
    v = find_variant("whist")
    seen = set()
    for seed in range(6):
        rep = replay(random_game(v, seed), v)
        analysis = analyze_replay(rep)
        results = principal_results(rep, analysis)
        leader = rep.initial.turn
        position = MatchPosition(MatchState((80, 85), (0, 0), 3), ("side", v.seating.teams[leader]))
        scale = match_scale(analysis, v, Before(position, leader), results=results)
        assert scale.known and scale.running is not None
        for row, chances in zip(results.alternatives, scale.mwc):
            for r, c in zip(row, chances):
                a, b = 80 + r.scores[0], 85 + r.scores[1]
                if max(a, b) >= 100 and a != b:
                    assert c == (1.0 if a < b else 0.0), (a, b)
                    seen.add(a < b)
                else:
                    assert 0 < c < 1
    assert seen == {True, False}


def test_the_bundled_whist_match_is_graded_on_the_match_scale():
    run = CliRunner().invoke(main, ["analyze", str(RECORDS / "match-whist.dom"), "--json", "--scale", "match"])
    assert run.exit_code == 0, run.output
    games = json.loads(run.output)["games"]
    assert len(games) == 2
    v = find_variant("whist")
    # game 2 starts from game 1's result: B/D went out, each side wrote its own pips
    first = replay(random_game(v, 1), v)
    assert games[1]["match_scale"]["scores"] == list(first.result.scores)
    for game in games:
        ms = game["match_scale"]
        assert ms["known"] and ms["table"] == "whist.json"
        luck = ms["luck"]         # the deal's luck: in points exactly the lead value less the mean; in MWC too
        assert luck["value"] - luck["mean"] == pytest.approx(luck["points"]) and -1 < luck["mwc"] < 1
        for d in game["decisions"]:
            chances = [a["mwc"] for a in d["alternatives"]]
            assert all(0 <= c <= 1 for c in chances)
            best = max(chances) if d["side"] == 0 else min(chances)
            played = next(a["mwc"] for a in d["alternatives"] if a["played"])
            # (each of the three rounded to 6 decimals apart: they may differ by 1.5e-6)
            assert d["mwc_loss"] == pytest.approx(abs(best - played), abs=1.5e-6 + 1e-12)


def test_the_pipeline_plays_the_lines_out_with_the_search_that_valued_the_hand():
    # analyse() on the match scale plays each principal variation out with the analysis's own search (its tables
    # warm): the same results as a search of their own gives, for every game whose grading reads them
    run = analyse(read_text("match-whist.dom", (RECORDS / "match-whist.dom").read_text(encoding="utf-8"),
                            Options(mode="analyze", scale="match")))
    wanted = results_wanted(run.replays)
    assert any(wanted) and [r is not None for r in run.results] == wanted
    for rep, analysis, results in zip(run.replays, run.analyses, run.results):
        if results is not None:     # (analyze prints no MWC line: the line played's result from the deal alone)
            assert results == principal_results(rep, analysis, played=False)
    points = analyse(read_text("match-whist.dom", (RECORDS / "match-whist.dom").read_text(encoding="utf-8"),
                               Options(mode="analyze")))
    assert points.results == [None] * len(points.replays)          # the points scale reads none


@pytest.mark.parametrize("record", ["match-whist.dom", "match-hungarian-4.dom", "match-french.dom"])
def test_without_the_line_played_the_results_are_the_same_and_the_deals_one_is_read(record):
    # what analyze and stats read (no MWC line beside the values): every alternative's result and the deal's, each
    # the one read with the line played; a report reads the line played's result at every step. French's first hand
    # is led by the holder of the double blank, forced: the deal's result is then the one after that lead.
    text = (RECORDS / record).read_text(encoding="utf-8")
    runs = {mode: analyse(read_text(record, text, Options(mode=mode, scale="match"))) for mode in ("analyze", "report")}
    assert any(r is not None for r in runs["report"].results)
    for rep, analysis, short, whole in zip(runs["report"].replays, runs["report"].analyses, runs["analyze"].results,
                                           runs["report"].results):
        assert (short is None) == (whole is None)
        if whole is not None:
            assert len(whole.line) == min(analysis.analysed_steps, len(rep.steps)) + 1 > 1
            assert short.alternatives == whole.alternatives
            assert short.line == whole.line[:1] and short.line[0] is not None


@pytest.mark.parametrize("record", ["match-whist.dom", "match-hungarian-4.dom", "match-all-fives-4.dom"])
def test_a_games_score_tag_alone_gives_the_match_position_its_match_gives(record):
    # a game of a race of points or bad points, of two sides or of individual players, written alone with the
    # match's score after it as its Score tag: the score after the hand less its result is the match before it,
    # as the whole file's replay has it, and every alternative is graded the same
    from analyzer.analysis.match_scale import match_positions
    from analyzer.match import score_text

    text = (RECORDS / record).read_text(encoding="utf-8")
    whole = replay_record(parse(text))
    k = 1                                                   # (the second game: the match no longer at its start)
    rep = whole[k]
    alone = game_alone(text, k + 1, score_text(rep.variant, rep.players, rep.match.state.scores))
    (position, leader, how), = match_positions(replay_record(parse(alone)))
    expected, expected_leader, _ = match_positions(whole)[k]
    assert "Score tag" in how and leader == expected_leader
    assert position.state.scores == expected.state.scores == whole[k - 1].match.state.scores
    assert position.lead == expected.lead and position.state.over == expected.state.over

    def graded(source: str) -> list:
        out = CliRunner().invoke(main, ["analyze", "-", "--json", "--scale", "match"], input=source)
        assert out.exit_code == 0, out.output
        games = json.loads(out.stdout)["games"]
        return [[a["mwc"] for a in d["alternatives"]] for d in games[-1 if source is alone else k]["decisions"]]

    chances = graded(alone)
    assert chances == graded(text) and any(c is not None for d in chances for c in d)


@pytest.mark.parametrize("record, variant", [("match-whist.dom", None), (None, "all-fives")])
def test_each_worlds_result_splits_exactly_that_worlds_value(record, variant):
    # the fair analysis's worlds on the match scale: in each world, an alternative's result (its principal
    # variation played out there) splits the points so that their difference is its value in that world
    if record is not None:
        rep = replay_record(parse((RECORDS / record).read_text(encoding="utf-8"), record))[0]
    else:
        v = find_variant(variant)
        rep = replay(random_game(v, 1), v)
    bad = rep.variant.match.kind == "bad"
    judged = fair_analyze(rep, settings=FairSettings(worlds=12, results=True), run=FairRun(workers=1))
    checked = 0
    for d in judged.decisions:
        for alt in d.alternatives:
            if alt.fair is None:
                continue
            assert alt.fair.results is not None, (d.index, alt.move)
            split = Counter()
            for r, n in alt.fair.results:
                split[(r.scores[1] - r.scores[0]) if bad else (r.scores[0] - r.scores[1])] += n
            assert split == Counter(dict(alt.fair.values)), (d.index, alt.move)
            checked += 1
    assert checked > 10
    plain = fair_analyze(rep, settings=FairSettings(worlds=12),
                         run=FairRun(workers=1))          # not asked: none, and the same values
    assert all(a.fair is None or a.fair.results is None for d in plain.decisions for a in d.alternatives)
    assert [[a.fair for a in d.alternatives] for d in plain.decisions] == \
        [[a.fair for a in d.alternatives] for d in judged.decisions]


@pytest.mark.parametrize("record", ["match-whist.dom", "match-all-fives-4.dom"])
def test_a_match_where_both_sides_score_is_graded_fairly_on_the_match_scale(record):
    # bad points of two sides, and All Fives for four (each player for himself): every fair decision has its MWC loss
    res = CliRunner().invoke(main, ["analyze", "--json", "--fair", "--decision-deals", "20", "--exact-below", "20",
                                    "--scale", "match", str(RECORDS / record)])
    assert res.exit_code == 0, res.output
    graded = [d["fair"]["mwc_loss"] for g in json.loads(res.stdout)["games"] for d in g["decisions"]
              if d.get("fair")]
    assert graded and all(x is not None and 0 <= x <= 1 for x in graded)


@pytest.mark.skipif(draw_core() is None, reason="the compiled search of draw games was not built (no C compiler)")
def test_a_draw_games_line_taken_at_the_analysiss_value_is_the_searched_one_and_a_wrong_value_is_refused(monkeypatch):
    from analyzer.analysis import hand_value, searches_for, start_position
    from analyzer.analysis import outcomes
    from analyzer.analysis.outcomes import hand_leader, played_out

    (rep, *_) = replay_record(parse((RECORDS / "match-hungarian-4.dom").read_text(encoding="utf-8")))
    v = rep.variant
    searches = searches_for(v)
    analysis = analyze_replay(rep, searches=searches)
    # (each line played out, not read off its end: ``outcomes._Ends``, tests/test_results_read_off_ends.py)
    monkeypatch.setattr(outcomes._Ends, "takes", staticmethod(lambda variant, pos: False))
    fast = principal_results(rep, analysis, searches=searches)
    monkeypatch.setattr(outcomes, "_trusted", lambda *args: None)          # every line's value searched
    assert principal_results(rep, analysis, searches=searches_for(v)) == fast
    monkeypatch.undo()
    # a value the line does not have is refused: the line taken at it is not worth it
    pos, _ = start_position(rep, rep.legal_prefix)
    leader, refused, kept = hand_leader(rep), 0, 0
    for k, step in enumerate(rep.steps):
        pos.turn = step.seat
        if k in {d.index for d in analysis.decisions} and pos.ends is not None:
            seat = pos.turn
            for move in pos.legal_moves():
                pos.push(move)
                value = searches[seat].solve(pos) if pos.outcome() is None else None
                if value is not None:
                    for claimed in (value, value + 1, value - 1):
                        got = outcomes._trusted(outcomes.HandRead(v, leader, [0] * v.players), searches[seat], pos,
                                                claimed, claimed)
                        if claimed == value:
                            kept += got is not None
                            assert got is None or got == played_out(outcomes.HandRead(v, leader), searches_for(v)[seat],
                                                                    pos, None, {})
                        else:
                            refused += got is None
                            assert got is None or hand_value(v, got, seat) == claimed
                pos.pop()
        if step.move is not None:
            pos.push(step.move)
    assert kept and refused
