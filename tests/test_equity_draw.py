"""Match-winning-chance tables of games with a boneyard, points scored during play or runs of plays
(issue 30): All Fives and All Fives and Threes (003, to 100), the draw game (004/003, one point a game,
here to 5), Chiva for two (a draw game, four wins in a row), cross domino (003, sleepers drawn to fill
the spinner, to 100) and Hungarian for two (004, the first past 100 bad points loses). Their hand
model (``analyzer.equity.boneyard``) deals a random boneyard order too and plays each hand with all
hands open and that order known.

Facts: a won match is worth 1 and a lost one 0 (the match code says when it is over); a side's MWC
never falls as its score rises (never rises as its bad points do); where the first hand's leader is
whoever holds a tile (the highest double, the heaviest hand) the start is even, and the game is the
same for both sides, so swapping the scores and the leader swaps the chances; the DP agrees with whole
matches played out by the match code (``MatchScoring.apply``), each hand's result drawn from the
model, and with matches of hands freshly dealt and played by the policy. The simulated hands are
legal, complete hands: written as records, the replayer accepts them and reads the same result."""
from __future__ import annotations

import json
import pathlib
import random

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.analysis.match_scale import match_positions
from analyzer.cli import main
from analyzer.equity import MatchPosition, first_lead, lattice, load_table, supported
from analyzer.equity.boneyard import play_hand
from analyzer.equity.model import mode_requirement
from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.record import Game, HandEntry, MoveEntry
from analyzer.replay import replay
from analyzer.rules import HandResult, MatchState, find_variant
from analyzer.rules.modes import MatchKind
from analyzer.search.tree import NO_EXTRA
from conftest import matches_won_by_played_hands
from test_equity import _play_match, shipped

# (name, rules) of each shipped table of this family of games
SHIPPED = [("all-fives", None), ("all-fives-threes", None), ("draw", "target=5"), ("chiva", "players=2"),
           ("cross", None), ("hungarian", None)]
IDS = [f"{n}-{r}" if r else n for n, r in SHIPPED]


@pytest.fixture(scope="module", params=SHIPPED, ids=IDS)
def family(request):
    v = find_variant(*request.param)
    return v, shipped(v)


def _at(a: int, b: int, lead) -> MatchPosition:
    return MatchPosition(MatchState((a, b), (0, 0), 1), lead)


def _leads(table) -> list[tuple]:
    """The leads the table's walk meets (the lead policy's own: ``("any",)`` where the highest double opens)."""
    return sorted({lead for _, lead in table.values})


def _swapped(lead: tuple) -> tuple:
    return ("side", 1 - lead[1]) if lead[0] == "side" else lead


def _scores(v, a_step: int, b_step: int, top: int):
    """Scores ``(a, b)`` below the target to check; in a match of wins in a row only one side has any."""
    for a in range(0, top, a_step):
        for b in range(0, v.match.target, b_step):
            if v.match.kind not in (MatchKind.STRAIGHT, MatchKind.SHUTOUT) or not a or not b:
                yield a, b


def _step(v) -> int:
    """The points scores move by (All Fives scores in fives)."""
    return 5 if v.play is not None else max(1, v.match.target // 10) if v.match.kind != MatchKind.SHUTOUT else 1


def test_these_variants_are_covered():
    for name, rules in SHIPPED:
        assert supported(find_variant(name, rules)) is None
    assert "no match target" in supported(find_variant("draw"))      # 004's draw game: no match by default
    assert "no match target" in supported(find_variant("draw", "players=3"))
    # individual players to 100: every player's score in the state, a race (test_equity_race): three on their
    # own scores, four on a coarser lattice
    assert supported(find_variant("draw", {"players": "3", "target": "100"})) is None
    assert lattice(find_variant("draw", {"players": "3", "target": "100"})) is None
    assert lattice(find_variant("draw", {"players": "4", "target": "100"})) == 4


def test_won_and_lost_matches(family):
    v, table = family
    lead = ("side", 0)
    for winner in (0, 1):
        if v.match.kind == MatchKind.BAD:      # the first past the limit loses
            scores = (v.match.target - 1, 0) if winner == 1 else (0, v.match.target - 1)
            result = HandResult("domino", None, 0, 0, (5, 0) if winner == 1 else (0, 5))
        elif v.match.kind == MatchKind.SHUTOUT:
            scores = (v.match.target - 1, 0) if winner == 0 else (0, v.match.target - 1)
            result = HandResult("domino", winner, 1, 0, ())
        else:
            scores = (v.match.target - 1, 0) if winner == 0 else (0, v.match.target - 1)
            pts = 5 if v.play is not None else 1
            result = HandResult("domino", winner, pts, 0, (pts, 0) if winner == 0 else (0, pts))
        before = _at(*scores, lead)
        after = v.match.apply(before.state, result)
        assert after.over and after.winner == winner
        assert table.chance(MatchPosition(after, lead)) == (1.0 if winner == 0 else 0.0)
        assert table.after(before, result, 0) == (1.0 if winner == 0 else 0.0)


def test_never_falls_as_a_side_scores(family):
    v, table = family
    target, step = v.match.target, _step(v)
    sign = -1 if v.match.kind == MatchKind.BAD else 1        # bad points: more is worse
    for a, b in _scores(v, step, step * 2, target - step):
        for lead in _leads(table):
            here = table.chance(_at(a, b, lead))
            assert 0 <= here <= 1
            assert sign * (table.chance(_at(a + step, b, lead)) - here) >= -1e-6, (a, b, lead)


def test_even_start_and_swapped_sides(family):
    v, table = family
    start = first_lead(v)
    assert start[0] in ("any", "holder")             # whoever holds the tile: either side alike
    assert table.chance(MatchPosition(v.match.start(2), start)) == pytest.approx(0.5, abs=1e-6)
    step = _step(v)
    for a, b in _scores(v, 2 * step, 3 * step, v.match.target):
        for lead in _leads(table):
            mine = table.chance(_at(a, b, lead))
            theirs = table.chance(_at(b, a, _swapped(lead)))
            assert mine + theirs == pytest.approx(1, abs=2e-6)


def test_dp_agrees_with_whole_matches(family):
    v, table = family
    step = _step(v)
    late = (v.match.target - 4 * step, v.match.target - 2 * step)
    for position in (MatchPosition(v.match.start(2), first_lead(v)), _at(*late, _leads(table)[-1])):
        rng = random.Random(f"{v.name}:{position.state.scores}")
        n = 2000
        won = sum(_play_match(table, position, rng, v) == 0 for _ in range(n))
        p = table.chance(position)
        assert abs(won / n - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 1e-3


@pytest.mark.parametrize("name,rules,scores", [("all-fives", None, (70, 80)),
                                               ("draw", "target=5", (3, 2))])
def test_dp_agrees_with_matches_of_played_hands(name, rules, scores):
    # whole matches from a late score, every hand freshly dealt (and its boneyard shuffled) and played by
    # the model's policy, the score kept by the match code: the table's chance within the sampling error
    v = find_variant(name, rules)
    table = load_table(v)
    start = _at(*scores, _leads(table)[0])
    n = 300
    share = matches_won_by_played_hands(v, start, n)
    p = table.chance(start)
    assert abs(share - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 0.01


def _record(v, hand) -> Game:
    """A simulated hand written as a record: the deal, every play with the open number (and arm) it went
    on and the points it claims, every draw with its tile, every pass."""
    names = tuple("ABCD"[:v.players])
    moves = []
    for seat, move, points in hand.moves:
        if move == NO_EXTRA:
            continue                                   # the opener declines to add a tile: nothing is written
        moves.append(MoveEntry(names[seat], move.tile, move.end if move.is_play else None, draw=move.draw,
                               claim=points or None, arm=move.arm if move.is_play else None))
    tags = {"Variant": v.name, "Players": ", ".join(names), "Lead": names[hand.leader]}
    if v.options:
        tags["Rules"] = v.rules_text
    return Game(tags=tags, players=names, hands=tuple(HandEntry(names[s], tuple(hand.hands[s])) for s in range(v.players)),
                moves=moves)


@pytest.mark.parametrize("name,rules", SHIPPED, ids=IDS)
def test_simulated_hands_are_legal_complete_hands(name, rules):
    v = find_variant(name, rules)
    search = None
    for seed in range(6):
        hand = play_hand(v, mode_requirement(v, "open"), random.Random(seed), search)
        rep = replay(_record(v, hand), v)
        assert rep.valid, (seed, [str(e) for e in rep.errors])
        assert rep.final.outcome() is not None                       # the hand is over
        r = rep.result
        assert (r.winner, r.points, r.scores, r.termination) == \
            (hand.result.winner, hand.result.points, hand.result.scores, hand.result.termination)
        drawn = [m.tile for _, m, _ in hand.moves if m.draw]
        assert drawn == list(hand.boneyard[:len(drawn)])              # drawn in the boneyard's order


def test_all_fives_model_states_the_points_scored_during_play():
    table = shipped(find_variant("all-fives"))
    sample = table.model.modes["open"]
    mine, theirs = sample.play_points()
    assert mine["mean"] > 0 and theirs["mean"] > 0 and mine["se"] > 0
    # the hand value (leading side's points less the other's) counts the points scored during play:
    # the outcomes' scores, each side's play points plus the award, average to it
    mean = sum(c * (o.scores[0] - o.scores[1]) for o, c in sample.outcomes.items()) / sample.hands
    assert mean == pytest.approx(sample.mean, abs=1e-9)
    assert "boneyard order known" in table.model.policy


# -- grading records of these games on the match scale ---------------------------------------------
ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_all_fives_position_counts_the_points_scored_during_play(tmp_path):
    # the record: B claims 10 for [2-4] (+10), A takes 5 by muggins, A goes out and is awarded 10 (Result
    # "A 10 domino"): the hand adds 15 to A and 10 to B. Written with a Score tag of 75-55 after it and no
    # Game tag, the match stood at 60-45 before it (not 65-55, which forgets the points scored in play).
    text = (ROOT / "records/variant-all-fives.dom").read_text(encoding="utf-8")
    text = text.replace('[Game "1"]\n', "").replace('[Score "A 15, B 10"]', '[Score "A 75, B 55"]')
    path = tmp_path / "fives.dom"
    path.write_text(text, encoding="utf-8")
    (position, leader, how), = match_positions(replay_record(read(str(path))))
    assert position.state.scores == (60, 45) and leader == 0 and "Score tag" in how
    out = CliRunner().invoke(main, ["analyze", str(path), "--json", "--scale", "match"])
    assert out.exit_code == 0, out.output
    game = json.loads(out.output)["games"][0]
    assert game["match_scale"]["known"] and game["match_scale"]["scores"] == [60, 45]
    assert game["match_scale"]["table"] == "all-fives.json"
    for d in game["decisions"]:
        assert all(0 <= a["mwc"] <= 1 for a in d["alternatives"]) and d["mwc_loss"] >= 0


@pytest.mark.parametrize("record", ["variant-all-fives.dom", "variant-cross.dom", "match-chiva-2-draw.dom"])
def test_records_are_graded_on_the_match_scale(record):
    out = CliRunner().invoke(main, ["analyze", str(ROOT / "records" / record), "--json", "--scale", "match"])
    assert out.exit_code == 0, out.output
    game = json.loads(out.output)["games"][0]
    scale = game["match_scale"]
    assert scale["known"] and scale["scores"] == [0, 0] and scale["mwc_before"] == pytest.approx(0.5, abs=1e-6)
    for d in game["decisions"]:
        chances = [a["mwc"] for a in d["alternatives"]]
        assert all(0 <= c <= 1 for c in chances)
        # a better value for the first side is never a worse chance for it
        ordered = sorted(zip((a["value"] for a in d["alternatives"]), chances))
        assert all(c1 <= c2 + 1e-9 for (_, c1), (_, c2) in zip(ordered, ordered[1:]))


def test_equity_command_for_a_draw_game():
    out = CliRunner().invoke(main, ["equity", "--variant", "draw", "--rule", "target=5", "--score", "3,2", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["target"] == 5 and "boneyard order known" in data["policy"]
    assert data["score"]["mwc_side0_leading"] > 0.5          # 3-2 ahead in a race to 5
    text = CliRunner().invoke(main, ["equity", "--variant", "all-fives"])
    assert text.exit_code == 0 and "points scored during play" in text.output
    bad = CliRunner().invoke(main, ["equity", "--variant", "draw"])
    assert bad.exit_code == 2 and "no match target" in bad.output


def test_a_draw_match_is_graded_game_by_game():
    # a match of the draw game to 5: each game's position is the match code's score after the games before
    # it (the record's own Score tags say the same), and its moves are graded on the match scale
    from analyzer.analysis import analyze_replay
    from analyzer.analysis.match_scale import Before, match_scale
    from analyzer.match import parse_score, random_match

    v = find_variant("draw", "target=5")
    reps = replay_record(random_match(v, 4, games=3))
    found = match_positions(reps)
    for k, (rep, (position, leader, _)) in enumerate(zip(reps, found)):
        if k:
            said = parse_score(reps[k - 1].game.tags["Score"])
            assert position.state.scores == tuple(said[frozenset({n})] for n in rep.players)
        scale = match_scale(analyze_replay(rep), v, Before(position, leader))
        assert scale.known and all(0 <= c <= 1 for row in scale.mwc for c in row if c is not None)


@settings(max_examples=60, deadline=None)
@given(a=st.integers(0, 15), b=st.integers(0, 15), more=st.integers(1, 4))
def test_all_fives_more_points_never_hurt_and_sides_swap(a, b, more):
    # any two scores of an All Fives match to 100 (points come in fives) and a few fives more, short of 100
    table = shipped(find_variant("all-fives"))
    here = table.chance(_at(5 * a, 5 * b, ("any",)))
    assert table.chance(_at(5 * (a + more), 5 * b, ("any",))) >= here - 1e-9
    assert table.chance(_at(5 * a, 5 * (b + more), ("any",))) <= here + 1e-9
    assert here + table.chance(_at(5 * b, 5 * a, ("any",))) == pytest.approx(1, abs=2e-6)
