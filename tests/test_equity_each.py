"""The match-winning chance of individual players with a boneyard or points scored during play (issue
30): Chiva for three (002: a draw game of 7 tiles each, "gewinnt man die Partie mit 4 Gewinnpunkten,
vorausgesetzt einer der anderen Spieler hat noch keinen Punkt") and All Fives for three (003, to 100).
Their hands are simulated by ``equity.boneyard`` with each player for himself against the rest, and the
match is solved by the N-side DP (``table.solve_each``).

Facts: a won match is worth 1 to its winner and 0 to the others; every position's chances add up to 1;
the first hand is led by the holder of a tile (Chiva) or by whoever holds the highest double (All
Fives: ``("any",)``), any player alike, so the start gives each player 1/3, and the game is the same from
every seat, so turning the table turns the chances; more points never hurt the player who has them; once
every Chiva player has a point no hand can end the match (the 4 count only while another has none), and
the table counts it drawn. References: whole matches played out by the match code (``MatchScoring.apply``
and ``lead``) with each hand's result drawn from the table's own model, and matches of hands freshly
dealt and played by the policy (``conftest.matches_won_by_played_hands``); simulated hands written as
records are read by the replayer with the same results."""
from __future__ import annotations

import json
import pathlib
import random
from itertools import accumulate

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from analyzer.analysis import AgainstTheRest
from analyzer.cli import main
from analyzer.equity import MatchPosition, first_lead, lattice, load_table, resolve, supported
from analyzer.equity.boneyard import hand_searcher, play_hand
from analyzer.equity.model import mode_of, mode_requirement
from analyzer.equity.table import endless
from analyzer.replay import replay
from analyzer.rules import HandResult, MatchState, find_variant
from conftest import matches_won_by_played_hands
from test_equity_draw import _record

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHIVA = find_variant("chiva", {"players": "3"})
FIVES = find_variant("all-fives", {"players": "3"})


def shipped(v):
    t = load_table(v)
    assert t is not None and t.individual, f"the table of {v.name} ({v.rules_text}) is shipped"
    return t


def running(scores, last=None) -> MatchState:
    return MatchState(tuple(scores), (0,) * len(scores), 1, last=last)


def test_what_is_covered_and_what_is_not():
    for v in (CHIVA, FIVES, find_variant("chiva", {"players": "3", "draw-lead": "six-six"})):
        assert supported(v) is None
    # four players' bad points (French, Hungarian) or a draw game to 100: 10^8 running scores, covered by the
    # race solver on a coarser lattice only (test_equity_race)
    for name, rules in (("draw", {"players": "4", "target": "100"}), ("french", None), ("hungarian", {"players": "4"})):
        assert supported(find_variant(name, rules)) is None and lattice(find_variant(name, rules)) == 4, name


def test_a_won_match_is_1_and_a_lost_one_0():
    table = shipped(CHIVA)
    before = running((3, 0, 0), last=0)             # A has 3, B and C none: the game A wins is the match
    won = HandResult("domino", 0, 1, 0, (1, 0, 0))
    assert table.after_each(MatchPosition(before, ("side", 0)), won, 0) == (1.0, 0.0, 0.0)
    lost = HandResult("domino", 1, 1, 0, (0, 1, 0))
    assert table.after_each(MatchPosition(running((0, 3, 0), 1), ("side", 1)), lost, 1) == (0.0, 1.0, 0.0)
    table = shipped(FIVES)
    at = MatchPosition(running((95, 40, 60)), ("any",))
    assert table.after_each(at, HandResult("domino", 0, 10, 0, (10, 0, 5)), 0) == (1.0, 0.0, 0.0)
    assert table.after_each(at, HandResult("domino", 2, 45, 2, (0, 0, 45)), 0) == (0.0, 0.0, 1.0)


def test_once_everybody_has_a_point_no_chiva_hand_ends_the_match():
    # the match code: from 1-1-1 any number of games won by anyone leaves the match open
    state = running((1, 1, 1), 0)
    rng = random.Random(3)
    for _ in range(50):
        w = rng.randrange(3)
        state = CHIVA.match.apply(state, HandResult("domino", w, 1, w, tuple(int(s == w) for s in range(3))))
        assert not state.over
    assert endless(CHIVA, state)
    assert shipped(CHIVA).chances(MatchPosition(state, ("side", 0))) == (1 / 3,) * 3


@pytest.mark.parametrize("v", [CHIVA, FIVES], ids=["chiva", "all-fives"])
def test_the_start_is_even_and_every_position_sums_to_one(v):
    table = shipped(v)
    start = MatchPosition(v.match.start(3), first_lead(v))
    assert table.chances(start) == pytest.approx((1 / 3,) * 3, abs=2e-6)
    for chances in table.values.values():
        assert all(0 <= p <= 1 for p in chances) and sum(chances) == pytest.approx(1, abs=3e-6)


@settings(max_examples=30, deadline=None)
@given(scores=st.lists(st.integers(0, 19), min_size=3, max_size=3), k=st.integers(1, 2), p=st.integers(0, 2),
       more=st.integers(1, 4))
def test_all_fives_more_points_never_hurt_and_the_table_turns(scores, k, p, more):
    table = shipped(FIVES)
    scores = tuple(5 * s for s in scores)
    here = table.chances(MatchPosition(running(scores), ("any",)))
    assert sum(here) == pytest.approx(1, abs=3e-6)
    turned = tuple(scores[(s - k) % 3] for s in range(3))
    there = table.chances(MatchPosition(running(turned), ("any",)))
    assert there == pytest.approx(tuple(here[(s - k) % 3] for s in range(3)), abs=3e-6)
    higher = tuple(x + 5 * more * (s == p) for s, x in enumerate(scores))
    if max(higher) < 100:
        assert table.chances(MatchPosition(running(higher), ("any",)))[p] >= here[p] - 3e-6


@settings(max_examples=30, deadline=None)
@given(scores=st.lists(st.integers(0, 3), min_size=3, max_size=3).filter(lambda s: 0 in s), p=st.integers(0, 2),
       last=st.integers(0, 2))
def test_chiva_a_game_won_never_hurts_its_winner(scores, p, last):
    table = shipped(CHIVA)
    scores = tuple(scores)
    here = table.chances(MatchPosition(running(scores, last), ("side", last)))
    higher = tuple(x + (s == p) for s, x in enumerate(scores))
    if max(higher) < 4:
        assert table.chances(MatchPosition(running(higher, last), ("side", last)))[p] >= here[p] - 3e-6


def _play_match(v, draws: dict, position: MatchPosition, rng: random.Random) -> int | None:
    """A whole match from ``position``, each hand's result drawn from the model (``draws``: each lead mode's
    outcomes and cumulative weights), the score kept by the match code and the next lead as the rules
    resolve it; a match no hand can end is drawn (None)."""
    state, lead = position.state, position.lead
    while not state.over:
        if v.match.kind == "shutout" and all(s >= 1 for s in state.scores):
            return None
        side = lead[1] if lead[0] == "side" else rng.randrange(3)       # (the holder of a tile: anyone alike)
        outcomes, cumulative = draws[mode_of(lead)]
        o = rng.choices(outcomes, cum_weights=cumulative)[0]
        winner = None if o.winner is None else (o.winner + side) % 3
        state = v.match.apply(state, HandResult(o.termination or "domino", winner, o.points, 0,
                                                tuple(o.scores[(s - side) % 3] for s in range(3)), o.void))
        lead = resolve(v, o.next, side, state)
    return state.winner


@pytest.mark.parametrize("v,position", [
    (CHIVA, MatchPosition(CHIVA.match.start(3), first_lead(CHIVA))),
    (CHIVA, MatchPosition(running((2, 0, 1), 2), ("side", 2))),
    (FIVES, MatchPosition(FIVES.match.start(3), ("any",))),
    (FIVES, MatchPosition(running((80, 55, 70)), ("any",)))], ids=["chiva-start", "chiva-2-0-1", "fives-start",
                                                                   "fives-80-55-70"])
def test_dp_agrees_with_whole_matches(v, position):
    table = shipped(v)
    chances = table.chances(position)
    rng = random.Random(repr(position))
    n = 2000
    won = [0.0] * 3
    draws = {m: ([o for o, _ in s.probabilities()], list(accumulate(q for _, q in s.probabilities())))
             for m, s in table.model.modes.items()}
    for _ in range(n):
        w = _play_match(v, draws, position, rng)
        for s in range(3):
            won[s] += (1 / 3 if w is None else float(w == s))
    for p, w in zip(chances, won):
        assert abs(w / n - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 2e-3


@pytest.mark.parametrize("v,scores,last", [(CHIVA, (2, 0, 1), 0), (FIVES, (85, 70, 80), None)], ids=["chiva", "all-fives"])
def test_dp_agrees_with_matches_of_played_hands(v, scores, last):
    table = shipped(v)
    start = MatchPosition(running(scores, last), ("side", last) if last is not None else ("any",))
    n = 200
    share = matches_won_by_played_hands(v, start, n, AgainstTheRest)
    p = table.chances(start)[0]
    assert abs(share - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 0.01


@pytest.mark.parametrize("v", [CHIVA, FIVES], ids=["chiva", "all-fives"])
def test_simulated_hands_are_legal_complete_hands(v):
    search = hand_searcher(v, AgainstTheRest)
    for seed in range(4):
        hand = play_hand(v, mode_requirement(v, "open"), random.Random(seed), search)
        rep = replay(_record(v, hand), v)
        assert rep.valid, (seed, [str(e) for e in rep.errors])
        r = rep.result
        assert (r.winner, r.points, r.scores, r.termination) == \
            (hand.result.winner, hand.result.points, hand.result.scores, hand.result.termination)


def test_all_fives_model_counts_each_player_s_points_during_play():
    sample = shipped(FIVES).model.modes["open"]
    # the leader's hand value: his points (scored during play and the award) less the two others' together
    mean = sum(c * (o.scores[0] - o.scores[1] - o.scores[2]) for o, c in sample.outcomes.items()) / sample.hands
    assert mean == pytest.approx(sample.mean, abs=1e-9)
    assert all(s % 5 == 0 for o in sample.outcomes for s in o.scores)      # (All Fives scores in fives)
    mine, others = sample.play_points()
    assert mine["mean"] > 0 and others["mean"] > mine["mean"]              # two players score against one
    assert "each player for himself" in shipped(FIVES).model.policy


@pytest.mark.parametrize("record", ["match-chiva-3-draw.dom", "match-chiva-3-draw-jamaican.dom"])
def test_chiva_for_three_records_are_graded_on_the_match_scale(record):
    out = CliRunner().invoke(main, ["analyze", str(ROOT / "records" / record), "--json", "--scale", "match"])
    assert out.exit_code == 0, out.output
    games = json.loads(out.stdout)["games"]
    first = games[0]["match_scale"]
    assert first["known"] and first["mwc_each"] == pytest.approx([1 / 3] * 3, abs=2e-6)
    for g in games:
        scale = g["match_scale"]
        assert scale["known"], scale["note"]
        assert sum(scale["mwc_each"]) == pytest.approx(1, abs=3e-6)
        for d in g["decisions"]:
            chances = [a["mwc"] for a in d["alternatives"]]
            assert all(0 <= c <= 1 for c in chances) and d["mwc_loss"] >= 0
            # the mover's own chance: a better value for him is never a worse chance for him
            ordered = sorted(zip((a["value"] for a in d["alternatives"]), chances))
            assert all(c1 <= c2 + 1e-9 for (_, c1), (_, c2) in zip(ordered, ordered[1:]))


def test_all_fives_for_three_is_graded_by_the_mover_s_own_chance():
    from analyzer.analysis import analyze_replay
    from analyzer.analysis.match_scale import Before, match_positions, match_scale, value_chance, why_not
    from analyzer.match import random_match, replay_record

    assert why_not(FIVES) is None
    table = shipped(FIVES)
    at = MatchPosition(running((95, 0, 0)), ("any",))
    assert value_chance(table, FIVES, at, 1, 5, seat=0) == 1.0           # any hand he wins by 5 or more
    assert value_chance(table, FIVES, at, 1, -5, seat=0) < 1.0
    replays = replay_record(random_match(FIVES, seed=2, games=3), FIVES)
    for rep, (position, leader, note) in zip(replays, match_positions(replays)):
        analysis = analyze_replay(rep)
        scale = match_scale(analysis, FIVES, Before(position, leader, note))
        assert scale.known and sum(scale.each) == pytest.approx(1, abs=3e-6)
        for d, chances, loss in zip(analysis.decisions, scale.mwc, scale.loss):
            ordered = sorted(zip((a.value for a in d.alternatives), chances))
            assert all(c1 <= c2 + 1e-9 for (_, c1), (_, c2) in zip(ordered, ordered[1:]))
            played = next(c for a, c in zip(d.alternatives, chances) if a.played)
            assert loss == pytest.approx(max(chances) - played, abs=1e-12)


def test_the_report_shows_chiva_for_three_on_the_match_scale(tmp_path):
    out = tmp_path / "chiva.html"
    res = CliRunner().invoke(main, ["report", "--scale", "match", "-o", str(out),
                                    str(ROOT / "records" / "match-chiva-3-draw-jamaican.dom")])
    assert res.exit_code == 0, res.output
    page = out.read_text(encoding="utf-8")
    assert "Match-winning chance of" in page and "On the match scale" in page
    # the first game: every player alike before the deal is seen
    assert "A 0 – B 0 – C 0 before the hand (game 1 of the match in the file):" in page
    assert "33.3% to win the match" in page


def test_stats_give_each_chiva_player_his_match_scale_error_rate():
    out = CliRunner().invoke(main, ["stats", "--scale", "match", "--json",
                                    str(ROOT / "records" / "match-chiva-3-draw-jamaican.dom")])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout)
    assert sorted(r["player"] for r in rows) == ["A", "B", "C"]
    for r in rows:
        assert r["mwc_error_decisions"] == r["decisions"] > 0
        assert 0 <= r["mwc_error_low"] <= r["mwc_error_rate"] <= r["mwc_error_high"]
