"""Each player's deal luck in games of individual players, and a hand's result in the units of the values.

Facts: a finished hand's result, valued for a side or a player (``analysis.hand_value``), is what the exact search
values that finished position at (the analysis's last running value), points scored during play and bad points
included (All Fives for two, 15 points to 10: +5, not the winner's 10); the hand model's policy for individual
players plays, at each choice, the mover's first best move by plain minimax of his view (he against all the
others); measured from that playout, each seat's deal luck averages zero over random deals, where the luck taken
from the analysis's lead value (all the others against him) leans against every player; a hand's MWC lucks of
all the players add up to 0 (the chances before and after it both add up to 1); ``stats`` tallies each player of
an individual game by his own result and luck."""
from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest
from click.testing import CliRunner

from analyzer.analysis import AgainstTheRest, searches_for, start_position
from analyzer.analysis import hand_value
from analyzer.analysis.outcomes import hand_leader, policy_result
from analyzer.cli import main
from analyzer.equity import load_table
from analyzer.equity.boneyard import play_out
from analyzer.equity.model import dealt_position, searcher
from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.pipeline import Options, read_text, run_record
from analyzer.rules import find_variant
from analyzer.rules.facts import hand_facts
from conftest import RECORDS

INDIVIDUAL = ["variant-cutthroat-3.dom", "variant-hungarian.dom", "match-hungarian-4.dom", "match-all-fives-4.dom",
              "match-all-fives-threes-3.dom"]
# graded on the match scale: the tables of these are shipped or quick to solve when loaded (Hungarian for four and
# All Fives for four: some 15 s each, once a run, and other tests of the suite load them first)
GRADED = ["variant-cutthroat-3.dom", "variant-chiva-3.dom", "match-chiva-3-draw.dom", "match-hungarian-4.dom",
          "match-all-fives-4.dom"]


@pytest.mark.parametrize("name", ["variant-all-fives.dom", "variant-pass-bonus.dom", "variant-pub-fives-threes.dom",
                                  "match-whist.dom", "seed2.dom", *INDIVIDUAL])
def test_a_finished_hand_is_valued_as_the_search_values_its_end(name):
    from analyzer.pipeline import analyse

    run = analyse(read_text(name, (RECORDS / name).read_text(encoding="utf-8"), Options(mode="analyze")))
    checked = 0
    for rep, analysis in zip(run.replays, run.analyses):
        if rep.result is None or analysis.analysed_steps != len(rep.steps) or analysis.values[-1] is None:
            continue
        # the replayer's result (its scores: points in play and at the end, or bad points) against the value the
        # search gives the finished position (its leaf scoring, the points scored during play counted by the analysis)
        assert hand_value(rep.variant, rep.result) == analysis.values[-1]
        checked += 1
    assert checked


def test_a_result_counts_the_points_scored_during_play_for_both_sides():
    (rep,) = replay_record(read(RECORDS / "variant-all-fives.dom"))
    assert rep.result.scores == (15, 10) and rep.result.winner == 0 and rep.result.points == 10
    assert hand_value(rep.variant, rep.result) == 5 and hand_value(rep.variant, rep.result, 1) == 5   # (first side's)
    # stats: the result the luck is taken from, in the same units (the old tally gave A the winner's 10)
    out = CliRunner().invoke(main, ["stats", str(RECORDS / "variant-all-fives.dom"), "--json"])
    rows = {r["player"]: r for r in json.loads(out.stdout)}
    assert (rows["A"]["result"], rows["B"]["result"]) == (5, -5)
    assert rows["A"]["adjusted"] == pytest.approx(rows["A"]["result"] - rows["A"]["luck"], abs=0.011)


def _minimax(pos, view: AgainstTheRest, leader: int, memo: dict) -> int:
    """The value of ``pos`` for ``view.seat`` against all the others, by plain minimax over ``legal_moves()``."""
    end = pos.outcome()
    if end is not None:
        return view.value(hand_facts(pos, end.termination, end.seat, leader))
    key = (pos.key(), pos.turn)
    if key not in memo:
        values = []
        for move in pos.legal_moves():
            pos.push(move)
            values.append(_minimax(pos, view, leader, memo))
            pos.pop()
        memo[key] = max(values) if pos.turn == view.seat else min(values)
    return memo[key]


def test_the_policy_plays_each_movers_first_best_move_by_plain_minimax():
    (rep,) = replay_record(read(RECORDS / "variant-cutthroat-3.dom"))
    v, leader = rep.variant, hand_leader(rep)
    views = [AgainstTheRest(v, seat) for seat in range(v.players)]
    searches = searches_for(v)
    compared = 0
    for k in (len(rep.steps) - 12, len(rep.steps) - 9):          # late enough for plain minimax
        pos = rep.position_at(k)
        policy = play_out(v, pos.copy(), [searches[s] for s in range(v.players)], leader)[0]
        memos = [{} for _ in views]
        brute = pos.copy()
        for seat, move, _ in policy:
            legal = brute.legal_moves()
            if len(legal) > 1:          # the first move whose value for the mover is the highest
                values = []
                for m in legal:
                    brute.push(m)
                    values.append(_minimax(brute, views[seat], leader, memos[seat]))
                    brute.pop()
                assert move == legal[values.index(max(values))]
                compared += 1
            brute.push(move)
    assert compared >= 3


def test_a_records_playout_is_the_models_own_policy():
    for name in ("variant-cutthroat-3.dom", "variant-hungarian.dom", "match-all-fives-threes-3.dom"):
        for rep in replay_record(read(RECORDS / name)):
            v = rep.variant
            # the analysis's searches (the int solver where it plays) against the model's own, made afresh
            mine = policy_result(rep)
            pos, _ = start_position(rep, rep.legal_prefix)
            pos.turn = rep.steps[0].seat
            model = [searcher(v, AgainstTheRest(v, seat), v.players) for seat in range(v.players)]
            _, _, facts, limited = play_out(v, pos, model, hand_leader(rep))
            assert not limited and mine == v.hand_result(facts)


def test_each_players_luck_averages_zero_where_the_lead_values_lean_against_him():
    v = find_variant("cutthroat", {"players": "3"})
    sample = load_table(v).model.modes["open"]
    searches = [searcher(v, AgainstTheRest(v, seat), v.players) for seat in range(v.players)]
    rng = random.Random("luck-each")
    policy, lead = [[] for _ in range(v.players)], []
    for _ in range(300):
        pos, leader = dealt_position(v, "open", rng)
        lead.append(searches[leader].solve(pos) - sample.seat_mean(0))
        _, _, facts, limited = play_out(v, pos, searches, leader)
        assert not limited
        result = v.hand_result(facts)
        for seat in range(v.players):
            policy[seat].append(hand_value(v, result, seat) - sample.seat_mean((seat - leader) % v.players))

    def mean_and_se(xs):
        m = sum(xs) / len(xs)
        return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))

    for lucks in policy:
        m, se = mean_and_se([float(x) for x in lucks])
        assert abs(m) < 4 * se, (m, se)                 # the model's own mean: the luck is 0 on average
    m, se = mean_and_se([float(x) for x in lead])
    assert m < -4 * se, (m, se)                         # all the others against him: below what the hands give


@pytest.fixture(scope="module")
def graded():
    """The plain results ``stats`` works from (the match scale with ``luck_each``), of records of individual games."""
    out = []
    for name in GRADED:
        run = read_text(name, (RECORDS / name).read_text(encoding="utf-8"),
                        Options(mode="analyze", scale="match", luck_each=True))
        out.append((run, run_record(run)))
    return out


def test_each_player_of_an_individual_game_has_his_own_luck(graded):
    hands = 0
    for run, result in graded:
        for rep, game in zip(run.replays, result["games"]):
            scale = game["analysis"]["match_scale"]
            each = scale["luck_each"]
            assert len(each) == rep.variant.players and scale["luck"] == each[0]
            for seat, luck in enumerate(each):
                assert luck["seat"] == seat and luck["points"] == pytest.approx(luck["value"] - luck["mean"])
                assert luck["result"] == hand_value(rep.variant, rep.result, seat)
            if scale["known"]:          # the chances before and after the hand both add up to 1
                assert sum(luck["mwc"] for luck in each) == pytest.approx(0, abs=1e-5)     # (tables keep 6 decimals)
                hands += 1
    assert hands >= 5


def test_stats_tallies_each_player_of_an_individual_game(graded):
    from analyzer.archive.stats import player_rows

    expected_result, expected_luck, counted = Counter(), Counter(), Counter()
    for run, result in graded:
        for rep, game in zip(run.replays, result["games"]):
            v = rep.variant
            bad = getattr(v.scoring, "count", None) == "bad"
            for seat, name in enumerate(rep.players):
                mine, others = rep.result.scores[seat], [s for k, s in enumerate(rep.result.scores) if k != seat]
                # the rules' result for him against the rest: each other's bad points less his, or his points
                # of the hand less all the others' together
                expected_result[name] += sum(o - mine for o in others) if bad else mine - sum(others)
                luck = game["analysis"]["match_scale"]["luck_each"][seat]
                # his luck: the deal's and the lead's (his seat's mean after the leader less the mean over every
                # seat, which rotation gives each player alike)
                assert luck["total"] == pytest.approx(luck["points"] + luck["lead"])
                expected_luck[name] += luck["total"]
                counted[name] += 1
            # the leads' luck of a hand adds up to 0 over its players: every seat's mean less their mean
            assert sum(x["lead"] for x in game["analysis"]["match_scale"]["luck_each"]) == pytest.approx(0, abs=1e-9)
    rows = {row.player: row for row in player_rows([r for _, r in graded])}
    for name, row in rows.items():
        assert row.luck_hands == counted[name]
        assert row.result == expected_result[name]
        assert row.luck == pytest.approx(expected_luck[name], abs=0.011)
        assert row.adjusted == pytest.approx(row.result - row.luck, abs=0.011)


def test_analyze_leaves_the_individual_luck_to_stats_and_says_so():
    path = str(RECORDS / "variant-cutthroat-3.dom")
    out = CliRunner().invoke(main, ["analyze", path, "--scale", "match", "--json"])
    scale = json.loads(out.stdout)["games"][0]["match_scale"]
    assert scale["luck"] is None and scale["luck_each"] is None
    text = CliRunner().invoke(main, ["analyze", path, "--scale", "match"]).output
    assert "each player's is given by `domino stats`" in text
    rows = json.loads(CliRunner().invoke(main, ["stats", path, "--json"]).stdout)
    assert all(r["luck_hands"] == 1 and r["luck"] is not None for r in rows)


def test_the_report_shows_each_players_luck_of_the_deal(tmp_path):
    import re
    from html import unescape

    out = CliRunner().invoke(main, ["report", str(RECORDS / "variant-cutthroat-3.dom"), "--scale", "match",
                                    "-o", str(tmp_path / "page.html")])
    assert out.exit_code == 0, out.output
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    (luck,) = re.findall(r'<dd class="luck">(.*?)</dd>', page, re.S)
    text = unescape(re.sub(r"<[^>]+>", "", luck))
    for name in ("A", "B", "C"):            # each player his own, not the first player's and its negative
        assert re.search(rf"\b{name} [+-]\d+\.\d points \([+-]\d+\.\d% MWC\)", text), text
    assert "each player for himself" in text
