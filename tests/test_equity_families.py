"""Match-winning-chance tables of more partnership systems (issue 30, item 6): Chiva (four wins in a
row), Milo, Great Lakes, Doscientos and Quinientos (to their targets), South American (ten games won). Each table's
model is the one of ``analyzer.equity.model`` (best play with all hands open, 1,500 hands a lead mode).

Facts: the first hand is led by the holder of [6-6], who is on either side alike, so the start of a
match is even (1/2); the game is the same for both sides, so swapping scores and leader swaps the
chances; more points never hurt; and the DP agrees with whole matches played out by the match code,
hand results drawn from the same model."""
from __future__ import annotations

import json
import os
import random

import pytest

from analyzer.equity import DATA_DIR, EquityTable, MatchPosition, first_lead, table_name
from analyzer.equity.table import state_key
from analyzer.rules import HandResult, MatchState, find_variant
from analyzer.tiles import tile_set
from test_equity import _play_match, shipped

FAMILIES = ["chiva", "milo", "great-lakes", "doscientos", "quinientos", "south-american"]


@pytest.fixture(scope="module", params=FAMILIES)
def family(request):
    v = find_variant(request.param)
    return v, shipped(v)


def test_the_start_is_even(family):
    v, table = family
    assert first_lead(v)[0] == "holder"
    assert table.chance(MatchPosition(v.match.start(2), first_lead(v))) == pytest.approx(0.5, abs=1e-6)


def test_dp_agrees_with_whole_matches_from_the_start(family):
    v, table = family
    position = MatchPosition(v.match.start(2), first_lead(v))
    rng = random.Random(v.rules_text)
    n = 2000
    winners = [_play_match(table, position, rng, v) for _ in range(n)]
    won = winners.count(0) + winners.count(None) / 2          # a drawn match (South American 10-4) is worth 1/2
    p = table.chance(position)
    assert abs(won / n - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 1e-3       # (a score in [0, 1]: variance <= p(1-p))


@pytest.mark.parametrize("name", [n for n in FAMILIES if find_variant(n).match.kind == "points"])
def test_points_never_hurt_and_sides_swap(name):
    v = find_variant(name)
    table = shipped(v)
    target = v.match.target
    step = max(1, target // 12)
    # (Quinientos: past the first four games, whose bonuses put most scores after one game off the table's
    # walk; those would be solved on demand, minutes each)
    games = max(1, len(v.match.first_wins))
    for a in range(0, target, step):
        for b in range(0, target, step):
            for lead in (("side", 0), ("side", 1)):
                here = table.chance(MatchPosition(MatchState((a, b), (0, 0), games), lead))
                assert 0 <= here <= 1
                if a + 1 < target:
                    assert table.chance(MatchPosition(MatchState((a + 1, b), (0, 0), games), lead)) >= here - 1e-6
            swapped = table.chance(MatchPosition(MatchState((b, a), (0, 0), games), ("side", 1)))
            assert table.chance(MatchPosition(MatchState((a, b), (0, 0), games), ("side", 0))) + swapped == \
                pytest.approx(1, abs=2e-6)


def _games(a: int, b: int) -> MatchState:
    """A South American match at ``a`` games to ``b`` (the points it keeps do not count)."""
    return MatchState((0, 0), (a, b), a + b)


def test_south_american_ten_games_and_five_for_the_other():
    # 000: "Das Team, das zehn Spiele gewinnt, gewinnt damit die Partie - aber nur dann, wenn das andere Team
    # mindestens fünf Spiele gewonnen hat; sonst ist das Spiel unentschieden."
    v = find_variant("south-american")
    table = shipped(v)
    won = HandResult("domino", 0, 17, 0, (17, 0))
    assert table.after(MatchPosition(_games(9, 5), ("side", 0)), won, 0) == 1.0
    assert table.after(MatchPosition(_games(9, 4), ("side", 0)), won, 0) == 0.5          # 10-4: drawn
    assert table.after(MatchPosition(_games(5, 9), ("side", 1)), HandResult("domino", 1, 3, 1, (0, 3)), 1) == 0.0
    # the points of the games do not count: the same chance at any points with the same games
    at = MatchPosition(MatchState((140, 3), (6, 2), 8), ("side", 1))
    assert table.chance(at) == table.chance(MatchPosition(_games(6, 2), ("side", 1)))


def test_south_american_sides_swap():
    # (a game more does not always help here: at 4-9 the other side's tenth game only draws the match)
    v = find_variant("south-american")
    table = shipped(v)
    for a in range(10):
        for b in range(10):
            for lead in (("side", 0), ("side", 1)):
                assert 0 <= table.chance(MatchPosition(_games(a, b), lead)) <= 1
            swapped = table.chance(MatchPosition(_games(b, a), ("side", 1)))
            assert table.chance(MatchPosition(_games(a, b), ("side", 0))) + swapped == pytest.approx(1, abs=2e-6)


def test_south_american_records_graded_on_the_match_scale():
    # each hand of the bundled South American matches is graded from the games won before it, as its
    # Result tags count them (the test counts them itself); the first game's [6-6] lead is even
    from click.testing import CliRunner

    from analyzer.cli import main

    v = find_variant("south-american")
    table = shipped(v)
    path = "records/match-south-american-redeal-natural.dom"
    run = CliRunner().invoke(main, ["analyze", path, "--json", "--scale", "match"])
    assert run.exit_code == 0, run.output
    games = json.loads(run.output)["games"]
    text = open(path, encoding="utf-8").read()
    blocks = [b for b in text.split("[Game ")[1:] if "[Result " in b]         # the deals played (not the redeals)
    played = [g for g in games if g["decisions"]]
    assert len(played) == len(blocks) == 3
    wins = [0, 0]
    for game, block in zip(played, blocks):
        ms = game["match_scale"]
        assert ms["known"] and ms["table"].endswith("system=south-american_target=10.json")
        lead = ("A", "B", "C", "D").index(block.split('[Lead "')[1][0]) % 2
        first = not any(wins)
        want = 0.5 if first else table.chance(MatchPosition(_games(*wins), ("side", lead)))
        assert ms["mwc_before"] == pytest.approx(want, abs=1e-6)
        assert all(0 <= a["mwc"] <= 1 for d in game["decisions"] for a in d["alternatives"])
        wins["B/D" in block.split('[Result "')[1].split('"')[0]] += 1
    assert wins == [2, 1]


def test_quinientos_every_first_game_leaves_the_match_on_the_shipped_table():
    # 000, Quinientos: the winners of the first four games get 100, 75, 50 and 25 points more, so the match
    # state counts the games played; a first game whatever its score (every pip of the set and the 100 of
    # a capicú or chuchazo at most) must lead to a position the shipped table holds, not one solved on
    # demand (a walk of hundreds of positions, seconds a record).
    v = find_variant("quinientos")
    with open(os.path.join(DATA_DIR, table_name(v).replace(".json", ".mwc")), "rb") as fh:
        table = EquityTable.from_packed(v, fh.read())          # (its own copy: nothing solved on demand added)
    start = MatchPosition(v.match.start(2), first_lead(v))
    most = sum(t.pips for t in tile_set(6)) + 100
    for winner in (0, 1):
        for end in ("domino", "blocked"):
            for points in range(most + 1):
                scores = (points, 0) if winner == 0 else (0, points)
                after = table.next_position(start, HandResult(end, winner, points, winner, scores), winner)
                assert not after.state.over
                assert (state_key(v, after.state), after.lead) in table.values, (winner, end, points)


@pytest.mark.parametrize("name", ["all-fives", "block", "hungarian", "cross"])
def test_a_hand_whose_leader_is_known_is_on_the_table_and_any_leader_is_their_mean(name):
    # These variants let any player lead the next hand (the model draws him at random): the table's walk holds
    # ("any",) positions, but a recorded hand knows its leader. Each position is there with each side leading,
    # and "any" is the mean of them (each side leads half the time), within the 6-decimal rounding.
    v = find_variant(name)
    with open(os.path.join(DATA_DIR, table_name(v).replace(".json", ".mwc")), "rb") as fh:
        table = EquityTable.from_packed(v, fh.read())          # (its own copy: nothing solved on demand added)
    anys = [key for key, lead in table.values if lead == ("any",)]
    assert anys
    for key in anys[:: max(1, len(anys) // 400)]:
        led = [table.values.get((key, ("side", s))) for s in (0, 1)]
        assert None not in led, key
        assert table.values[(key, ("any",))] == pytest.approx(sum(led) / 2, abs=2e-6)


@pytest.mark.parametrize("name", ["whist", "partnership", "great-lakes", "doscientos", "all-fives-threes", "block",
                                  "hungarian", "all-fives"])
def test_every_total_below_the_target_with_either_side_leading_is_on_the_table(name):
    # In a race to a target of points or bad points a match may stand at any totals below the target (Domino
    # Whist's bad points are each side's pips: 4-2 after a blocked hand is a real score, met in
    # records/match-whist.dom), and a recorded hand names its leader. Each such position is in the shipped file,
    # on the variant's score step (All Fives scores in fives), so that no look-up of a record is a walk.
    v = find_variant(name)
    with open(os.path.join(DATA_DIR, table_name(v).replace(".json", ".mwc")), "rb") as fh:
        table = EquityTable.from_packed(v, fh.read())          # (its own copy: nothing solved on demand added)
    step = 5 if name == "all-fives" else 1                      # (003: every play scores a multiple of five)
    rest = state_key(v, v.match.start(2))[1:]
    missing = [(a, b, s) for a in range(0, v.match.target, step) for b in range(0, v.match.target, step)
               for s in (0, 1) if (((a, b), *rest), ("side", s)) not in table.values]
    assert not missing, missing[:5]
