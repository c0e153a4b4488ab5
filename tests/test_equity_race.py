"""The race solver (``equity/race.py``, its loop ``equity/_race.c``): the MWC of individual players' races to
a target (Hungarian for three, 000's bad points to 101; All Fives for three or four, 003, to 100 in fives;
All Fives and Threes for three; the draw game for three to a target).

References: the DP walk (``table.solve_each``, which asks the match code hand by hand) at every position it
walks, within 1e-9; the pure-Python twin of the compiled loop; whole matches played out by the match code
(``MatchScoring.apply``) with each hand's result drawn from the same model. Facts from the rules: a won
match is worth 1 to its winner and 0 to the others (000: "Sieger ist der Spieler mit den wenigsten
Punkten" once a player reaches the target); every position's chances add up to 1."""
from __future__ import annotations

import os
import pathlib
import random
from collections import Counter
from itertools import accumulate, product
from unittest import mock

import pytest
from hypothesis import given, settings, strategies as st

from analyzer import equity
from analyzer.equity import (CACHE_ENV, MAX_RACE, SOLVED_ON_LOAD, EquityTable, MatchPosition, lattice, load_table,
                             supported, table_name, write_table)
from analyzer.equity.model import HandModel, ModeSample, Outcome, mode_of
from analyzer.equity.race import (RACE_CORE, dump_values, is_race, led_results, load_values, race_arrays, score_step,
                                  side_leads_results, solve_race, RaceLoop)
from analyzer.equity import race as race_module
from analyzer.equity.table import hand_rows, resolve, solve_each, state_key
from analyzer.rules import HandResult, MatchState, find_variant
from analyzer.rules.modes import MatchKind

#: (variant, options) of the races: bad points (lowest wins), points in fives, points by one, a draw game
RACES = [("hungarian", {"players": "3"}), ("all-fives", {"players": "3"}), ("all-fives", {"players": "4"}),
         ("all-fives-threes", {"players": "3"}), ("draw", {"players": "3", "target": "100"})]


def _race(name: str, rules: dict, target: int):
    """The race to ``target`` (Hungarian's option is its limit: the target is one more, 000)."""
    if name == "hungarian":
        return find_variant(name, {**rules, "limit": str(target - 1)})
    return find_variant(name, {**rules, "target": str(target)})


@st.composite
def small_races(draw):
    """A race with a small target and a small model of hand results drawn at random: each player's points
    in the variant's step (a hand that leaves every score alone too, and a void hand), and who leads next
    (anyone, or a seat counted from the leader)."""
    name, rules = draw(st.sampled_from(RACES))
    step = 5 if name == "all-fives" else 1
    v = _race(name, rules, draw(st.integers(2, 5)) * step)
    target = v.match.target
    sides = v.seating.sides
    outcomes = Counter()
    for _ in range(draw(st.integers(1, 6))):
        scores = tuple(draw(st.integers(0, target // step + 1)) * step for _ in range(sides))
        nxt = draw(st.sampled_from([("any",)] + [("side", r) for r in range(sides)]))
        void = draw(st.booleans()) and not any(scores)
        outcomes[Outcome(None, 0, scores, "" if void else "domino", void, nxt)] += draw(st.integers(1, 4))
    assert is_race(v)
    sample = ModeSample(sum(outcomes.values()), outcomes)
    return v, HandModel(v.name, dict(v.options), {"open": sample})


@settings(max_examples=40, deadline=None)
@given(small_races())
def test_the_race_solver_equals_the_walk_at_every_position(race):
    v, model = race
    walked = solve_each(v, model)
    solved = solve_race(v, model)
    for pos, chances in walked.items():
        assert pos in solved, pos
        assert max(abs(a - b) for a, b in zip(chances, solved[pos])) <= 1e-9, pos
    for chances in solved.values():
        assert abs(sum(chances) - 1.0) <= 1e-9 and min(chances) >= -1e-12


@settings(max_examples=15, deadline=None)
@given(small_races())
def test_the_compiled_loop_and_its_pure_python_twin_agree(race):
    if RACE_CORE != "compiled":
        pytest.skip("the compiled race solver was not built")
    v, model = race
    arrays = race_arrays(v, model)
    # the loops of a race are swept until no chance moves by ``tol``, which leaves each a few ``tol`` off where the
    # sweeps settle, and the compiled loop sweeps a block of rows at a time (a block reads its own chances of the
    # sweep before), so at the default 1e-12 the two stop apart by some 1e-12 (seen: 1.05e-12); swept to 1e-15 both
    # settle where the equations do, and must agree to far less than 1e-12
    compiled = solve_race(v, model, arrays, how=RaceLoop("compiled", 1e-15))
    python = solve_race(v, model, arrays, how=RaceLoop("python", 1e-15))
    assert list(compiled) == list(python)
    for pos in compiled:
        assert max(abs(a - b) for a, b in zip(compiled[pos], python[pos])) <= 1e-12


@settings(max_examples=80, deadline=None)       # (about a quarter of them ask a position of a known leader)
@given(small_races(), st.data())
def test_a_known_leader_one_hand_from_the_race_is_the_walk_from_there(race, data):
    # A recorded hand names its leader; where the race leads every hand ("any",) such a position is none of
    # its own. RaceValues.one_hand weighs the hand's results (race.led_results) with the match code's answers
    # the solve kept: the same chances as the walk from that position on the race's values (solve_each).
    v, model = race
    solved = solve_race(v, model)
    arrays = solved.arrays
    sides = v.seating.sides
    step = arrays.step
    scores = tuple(data.draw(st.integers(0, (v.match.target - 1) // step)) * step for _ in range(sides))
    seat = data.draw(st.integers(0, sides - 1))
    key = ((scores, *arrays.rest), ("side", seat))
    if ("side", seat) in arrays.leads or arrays.point(scores) is None or solved.get((key[0], arrays.leads[0])) is None:
        return
    walked = solve_each(v, model, [key], known=solved)[key]
    one = solved.one_hand(key, led_results(v, model, arrays, ("side", seat)))
    assert one is not None
    assert max(abs(a - b) for a, b in zip(one, walked)) <= 1e-12


def test_the_walk_and_the_race_solver_from_a_root_solve_the_same_positions():
    v = _race("hungarian", {"players": "3"}, 4)
    outcomes = Counter({Outcome(None, 0, (0, 2, 1), "domino", False, ("any",)): 3,
                        Outcome(None, 0, (0, 0, 0), "domino", False, ("any",)): 1,
                        Outcome(None, 0, (0, 5, 0), "domino", False, ("any",)): 1})
    model = HandModel(v.name, dict(v.options), {"open": ModeSample(5, outcomes)})
    root = [(state_key(v, _state((1, 3, 0))), ("any",))]
    walked, solved = solve_each(v, model, root), solve_race(v, model, roots=root)
    assert set(walked) == set(solved)
    # bad points: at 1-3-0 a hand that gives 2 to the second player and 1 to the third ends it (5 >= 4), the
    # third lowest (1) wins; the hand of no points leaves it where it was
    for pos, chances in walked.items():
        assert chances == pytest.approx(solved[pos], abs=1e-12)


def _state(scores):
    from analyzer.rules import MatchState
    return MatchState(tuple(scores), (0,) * len(scores), 1)


def test_a_won_match_is_1_and_a_lost_one_0():
    v = _race("hungarian", {"players": "3"}, 6)
    outcomes = Counter({Outcome(None, 0, (0, 1, 2), "domino", False, ("any",)): 1,
                        Outcome(None, 0, (0, 3, 3), "domino", False, ("any",)): 1})
    model = HandModel(v.name, dict(v.options), {"open": ModeSample(2, outcomes)})
    values = solve_race(v, model)
    # at 0-5-5 every hand takes someone to 6 or more with player 0 lowest: he has won (000: fewest bad points)
    assert values[(state_key(v, _state((0, 5, 5))), ("any",))] == pytest.approx((1.0, 0.0, 0.0), abs=1e-12)
    # at 5-0-5 every hand takes player 0 or 2 to 6 or more, and whoever leads, player 1 ends lowest (at most
    # 3 against 6 or more and 5 or more): he wins every match
    chances = values[(state_key(v, _state((5, 0, 5))), ("any",))]
    assert chances[1] == pytest.approx(1.0, abs=1e-12)


def _draws(model) -> tuple:
    outcomes, weights = zip(*model.modes["open"].outcomes.items())
    return outcomes, list(accumulate(weights))


def _play(v, draws, scores, rng) -> int | None:
    """A whole match from ``scores`` (anyone to lead), each hand drawn from a model's ``draws``, kept by the
    match code."""
    outcomes, cumulative = draws
    state, lead, sides = _state(scores), ("any",), v.seating.sides
    while not state.over:
        side = lead[1] if lead[0] == "side" else rng.randrange(sides)
        o = rng.choices(outcomes, cum_weights=cumulative)[0]
        state = v.match.apply(state, HandResult("domino", None, 0, 0,
                                                tuple(o.scores[(s - side) % sides] for s in range(sides)), o.void))
        lead = resolve(v, o.next, side, state)
        assert mode_of(lead) == "open"
    return state.winner


@pytest.mark.parametrize("name,rules,target,scores", [
    ("hungarian", {"players": "3"}, 40, (10, 25, 0)), ("all-fives", {"players": "4"}, 60, (20, 35, 0, 10)),
    ("all-fives-threes", {"players": "3"}, 50, (30, 30, 10))])
def test_the_race_solver_agrees_with_whole_matches(name, rules, target, scores):
    v = _race(name, rules, target)
    rng = random.Random(f"{name}{target}")
    step = 5 if name == "all-fives" else 1
    outcomes = Counter()
    for _ in range(60):       # a model of hands like the game's: the points of one or two players
        pts = [0] * v.seating.sides
        for k in rng.sample(range(v.seating.sides), rng.choice((1, 2))):
            pts[k] = rng.randrange(0, 30 // step) * step
        outcomes[Outcome(None, 0, tuple(pts), "domino", False, ("any",))] += rng.randrange(1, 5)
    model = HandModel(v.name, dict(v.options), {"open": ModeSample(sum(outcomes.values()), outcomes)})
    chances = solve_race(v, model, roots=[(state_key(v, _state(scores)), ("any",))])[
        (state_key(v, _state(scores)), ("any",))]
    n = 3000
    draws = _draws(model)
    won = Counter(_play(v, draws, scores, rng) for _ in range(n))
    for k, p in enumerate(chances):
        share = (won[k] + won[None] / v.seating.sides) / n
        assert abs(share - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 1e-3, (k, share, p)


@pytest.mark.parametrize("scores", [(0, 0, 0, 0), (80, 55, 70, 60)], ids=["start", "80-55-70-60"])
def test_the_shipped_all_fives_for_four_table_agrees_with_whole_matches(scores):
    """The shipped table (20,000 hands) against whole matches played out by the match code with hands
    drawn from its own model."""
    v = find_variant("all-fives", {"players": "4"})
    table = load_table(v)
    assert table is not None and table.meta["solver"]["name"] == "race"
    chances = table.chances(MatchPosition(_state(scores), ("any",)))
    rng = random.Random(repr(scores))
    n = 2000
    draws = _draws(table.model)
    won = Counter(_play(v, draws, scores, rng) for _ in range(n))
    for k, p in enumerate(chances):
        share = (won[k] + won[None] / 4) / n
        assert abs(share - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 2e-3, (k, share, p)


@pytest.mark.skipif(os.environ.get("DOMINO_REQUIRE_COMPILED") != "1", reason="only where the core must be built (CI)")
def test_the_compiled_race_solver_is_built_and_used():
    assert RACE_CORE == "compiled"


def test_what_the_race_solver_covers_and_on_what_lattice():
    for name, rules in RACES:
        assert supported(find_variant(name, rules)) is None and lattice(find_variant(name, rules)) is None, name
    # four players to 100 by one: 10^8 running scores; on a lattice of 4, 26^4 (at most MAX_RACE)
    for name, rules in (("french", None), ("hungarian", {"players": "4"}), ("draw", {"players": "4", "target": "100"})):
        v = find_variant(name, rules)
        assert supported(v) is None and lattice(v) == 4 and (-(-v.match.target // 4) + 1) ** 4 <= MAX_RACE, name
        assert (-(-v.match.target // 3) + 1) ** 4 > MAX_RACE


def test_a_match_of_all_fives_for_four_is_graded_on_the_match_scale(tmp_path):
    """``records/match-all-fives-4.dom``: two games of a match (the first 0-15-55-5 by its Score tag, the
    second taking C past 100), graded by the shipped table of All Fives for four."""
    import json

    from click.testing import CliRunner

    from analyzer.cli import main

    record = str(pathlib.Path(__file__).resolve().parent.parent / "records" / "match-all-fives-4.dom")
    out = CliRunner().invoke(main, ["analyze", record, "--scale", "match", "--json"])
    assert out.exit_code == 0, out.output
    first, second = json.loads(out.output)["games"]
    # the first hand is led by the holder of the highest double: any player alike, 1/4 each
    assert first["match_scale"]["mwc_each"] == pytest.approx([0.25] * 4, abs=1e-6)
    assert second["match_scale"]["scores"] == [0, 15, 55, 5]         # the first game's Score tag
    assert sum(second["match_scale"]["mwc_each"]) == pytest.approx(1.0, abs=1e-5)
    graded = 0
    for game in (first, second):
        for d in game["decisions"]:
            chances = [a["mwc"] for a in d["alternatives"]]
            assert all(0.0 <= c <= 1.0 for c in chances)
            played = next(a["mwc"] for a in d["alternatives"] if a["played"])
            # (each of the three rounded to 6 decimals apart: they may differ by 1.5e-6)
            assert d["mwc_loss"] == pytest.approx(max(chances) - played, abs=1.5e-6 + 1e-12)
            graded += 1
    assert graded >= 10
    for command in ("stats", "report"):
        args = [command, record, "--scale", "match"] + (["-o", str(tmp_path / "page.html")] if command == "report" else [])
        done = CliRunner().invoke(main, args)
        assert done.exit_code == 0 and "internal-error" not in done.output, done.output


def test_the_bootstrap_of_a_race_solves_each_replicate_and_a_known_leader_one_hand_deep():
    from analyzer.equity import EquityTable, bootstrap

    v = _race("all-fives", {"players": "4"}, 20)
    outcomes = Counter({Outcome(None, 0, (10, 0, 5, 0), "domino", False, ("any",)): 3,
                        Outcome(None, 0, (0, 15, 0, 0), "domino", False, ("any",)): 2,
                        Outcome(None, 0, (0, 0, 0, 25), "domino", False, ("any",)): 1})
    model = HandModel(v.name, dict(v.options), {"open": ModeSample(6, outcomes)})
    table = EquityTable(v, model, solve_race(v, model), {})
    at = _state((10, 5, 0, 15))
    spread = bootstrap(table, [MatchPosition(at, ("any",)), MatchPosition(at, ("side", 3))], replicates=3)
    assert len(spread) == 2 and all(x >= 0.0 for x in spread)
    # a known leader: the hand he leads, then the race's positions (one hand deep, as the walk does it)
    walked = solve_each(v, model, [(state_key(v, at), ("side", 3))])[(state_key(v, at), ("side", 3))]
    assert table.chances(MatchPosition(at, ("side", 3))) == pytest.approx(walked, abs=1e-9)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 60), st.integers(2, 6))
def test_a_hand_split_between_lattice_points_keeps_its_mean(points, step):
    from analyzer.equity.race import _split
    parts = _split(points, step, True)
    assert sum(w for _, w in parts) == pytest.approx(1.0) and all(w > 0 for _, w in parts)
    assert sum(q * step * w for q, w in parts) == pytest.approx(points)
    assert len(parts) == (1 if points % step == 0 else 2)


def test_the_reduced_state_on_a_lattice_stays_near_the_exact_race():
    """Hungarian for three to 61 (62^3 running scores: solved exactly) on a lattice of 4: the chances at real
    running scores, between the lattice points, within 0.03 of the exact race's (the reduced state's stated
    error, docs/equity.md), and the symmetric start exact."""
    v = _race("hungarian", {"players": "3"}, 61)
    rng = random.Random(61)
    outcomes = Counter()
    for _ in range(40):        # the winner of the hand 0, the other two their pips
        outcomes[Outcome(None, 0, (0, rng.randrange(0, 25), rng.randrange(0, 25)), "domino", False, ("any",))] += 1
    model = HandModel(v.name, dict(v.options), {"open": ModeSample(40, outcomes)})
    exact, coarse = solve_race(v, model), solve_race(v, model, race_arrays(v, model, lattice=4))
    assert coarse.arrays.coarse and len(coarse) < len(exact) / 30
    start = (state_key(v, _state((0, 0, 0))), ("any",))
    assert coarse[start] == pytest.approx((1 / 3,) * 3, abs=1e-9)
    worst = 0.0
    for scores in [(5, 13, 2), (41, 19, 37), (59, 58, 3), (21, 23, 50), (1, 2, 3), (30, 31, 33)]:
        pos = (state_key(v, _state(scores)), ("any",))
        assert sum(coarse[pos]) == pytest.approx(1.0, abs=1e-9)
        worst = max(worst, max(abs(a - b) for a, b in zip(coarse[pos], exact[pos])))
    assert worst <= 0.03


def _small_hungarian():
    """Hungarian for three to 31, and a model of 30 random hands: the winner 0, the other two their pips."""
    v = _race("hungarian", {"players": "3"}, 31)
    rng = random.Random(31)
    outcomes = Counter()
    for _ in range(30):
        outcomes[Outcome(None, 0, (0, rng.randrange(0, 15), rng.randrange(0, 15)), "domino", False, ("any",))] += 1
    return v, HandModel(v.name, dict(v.options), {"open": ModeSample(30, outcomes)})



@st.composite
def lattice_races(draw):
    """A race of three players by one point (Hungarian's bad points, the draw game's points) to a small target on
    a lattice of 2 to 4, a model of hands drawn at random (as :func:`small_races`, any points), and a position
    at real running scores (between the lattice's points) with a known leader."""
    name, rules = draw(st.sampled_from([RACES[0], RACES[4]]))
    step = draw(st.integers(2, 4))          # (the draw game's target on the lattice: a tie on top shifted to it)
    v = _race(name, rules, draw(st.integers(5, 14)) if name == "hungarian" else draw(st.integers(2, 4)) * step)
    target, sides = v.match.target, v.seating.sides
    outcomes = Counter()
    mixed = draw(st.integers(0, 3)) == 0        # (a seat led next too: a race whose own leads may hold the known one)
    for _ in range(draw(st.integers(1, 6))):
        scores = tuple(draw(st.integers(0, target + 1)) for _ in range(sides))
        nxt = draw(st.sampled_from([("any",)] * 3 + [("side", r) for r in range(sides)] * mixed))
        void = draw(st.booleans()) and not any(scores)
        outcomes[Outcome(None, 0, scores, "" if void else "domino", void, nxt)] += draw(st.integers(1, 4))
    model = HandModel(v.name, dict(v.options), {"open": ModeSample(sum(outcomes.values()), outcomes)})
    scores = tuple(draw(st.integers(0, target - 1)) for _ in range(sides))
    return v, model, step, (state_key(v, _state(scores)), ("side", draw(st.integers(0, sides - 1))))


@settings(max_examples=80, deadline=None)
@given(lattice_races())
def test_a_known_leader_between_a_lattices_points_is_the_walk_from_there(race):
    # On a coarser lattice a recorded hand's known leader, at real running scores, is one hand from the lattice's
    # positions: RaceValues.after_hand weighs the hand's results (table.hand_rows) from the corners around each, in
    # C and in its pure-Python twin; the walk from that position on the race's values (solve_each) is the reference
    v, model, step, key = race
    solved = solve_race(v, model, race_arrays(v, model, lattice=step))
    if key[1] in solved.arrays.leads:
        return
    walked = solve_each(v, model, [key], known=solved)
    rows = hand_rows(v, model, key, {})
    compiled, between = solved.after_hand(rows), [solved.get(nxt) for _, over, nxt in rows if over is None]
    with mock.patch.object(race_module, "RACE_CORE", "python"):
        python = solved.after_hand(rows)
        assert between == [solved.get(nxt) for _, over, nxt in rows if over is None]   # (a look-up between points)
    assert compiled == python
    if len(walked) == 1 and all(nxt != key for _, _, nxt in rows):    # (the walk went no deeper than one hand)
        assert compiled is not None
    if compiled is not None:
        assert max(abs(a - b) for a, b in zip(compiled, walked[key])) <= 1e-12
        assert abs(sum(compiled) - 1.0) <= 1e-9
    # the same sums with the match code asked only where a score reaches the target (EquityTable._between_added)
    table = EquityTable(v, model, solved, {})
    fast = table._between_added(key)
    if fast is not equity._SLOW:
        assert fast == (None if any(nxt == key for _, _, nxt in rows) else compiled)


@pytest.mark.slow
@pytest.mark.parametrize("record", ["match-french.dom", "match-hungarian-4.dom"])
def test_the_shipped_lattices_known_leaders_are_the_walk_from_there(record):
    # French and Hungarian for four (a lattice of 4): each game's position in the record, its leader known, as the
    # match scale looks it up (EquityTable.chances) and as the walk from there on the table's values gives it
    from analyzer.analysis.match_scale import match_positions
    from analyzer.match import replay_record
    from analyzer.notation import read
    replays = replay_record(read(pathlib.Path(__file__).parent.parent / "records" / record))
    positions = [p for p, _, _ in match_positions(replays) if p is not None]
    v = replays[0].variant
    table = load_table(v)
    assert table.values.arrays.coarse and len(positions) == len(replays)
    off = 0
    for position in positions:
        key = (state_key(v, position.state), position.lead)
        if key in table.values:
            continue
        off += 1
        walked = solve_each(v, table.model, [key], known=table.values)
        assert len(walked) == 1
        got = table.chances(position)
        assert table.values.get(key) == got and sum(got) == pytest.approx(1.0, abs=1e-9)
        assert max(abs(a - b) for a, b in zip(got, walked[key])) <= 1e-12
    assert off


@pytest.mark.slow
@pytest.mark.parametrize("name, rules", [("french", {}), ("hungarian", {"players": "4"})])
def test_a_known_leader_on_a_shipped_lattice_asks_the_match_code_only_near_the_target(name, rules):
    # French and Hungarian for four: a known leader's position at random running scores, some near the target (where
    # results end the match or tie on top), weighed with the match code asked only about the results that take a
    # score to the target: the same numbers as with every result's row made (table.hand_rows, RaceValues.after_hand),
    # and that way at every one of these positions
    v = find_variant(name, rules)
    table, sides, target = load_table(v), v.seating.sides, v.match.target
    rng, memo = random.Random(2026), {}
    for _ in range(20):
        scores = tuple(rng.randrange(target - 25 if rng.random() < 0.4 else 0, target) for _ in range(sides))
        key = (state_key(v, _state(scores)), ("side", rng.randrange(sides)))
        rows = hand_rows(v, table.model, key, memo)
        fast = table._between_added(key)
        assert fast is not equity._SLOW and fast == table.values.after_hand(rows)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["hungarian", "french", "all-fives", "draw"]), st.integers(3, 4), st.data())
def test_below_a_races_target_a_hand_adds_its_scores_and_the_match_goes_on(name, players, data):
    # MatchScoring.open_below, what the match scale's look-ups rely on: in a race to a target of points or bad points
    # (000: the match ends when a player reaches the limit; 003, All Fives: the first to the target), a hand that
    # leaves every score below the target adds its scores, the match goes on, and the match names no next leader
    rules = {} if name == "french" else {"players": str(players), **({"target": "100"} if name == "draw" else {})}
    v = find_variant(name, rules)
    m, sides = v.match, v.seating.sides
    bound = m.open_below()
    assert bound == m.target
    before = tuple(data.draw(st.integers(0, bound - 1)) for _ in range(sides))
    added = tuple(data.draw(st.integers(0, bound - 1 - x)) for x in before)
    winner = data.draw(st.sampled_from([None, *range(sides)]))
    state = m.apply(MatchState(before, (0,) * sides), HandResult("domino", winner, 0, 0, added))
    assert not state.over and state.scores == tuple(a + b for a, b in zip(before, added))
    assert m.lead(state, v.seating) is None
    # past it the match code decides: a player at the target or more ends a match of bad points
    if m.kind == MatchKind.BAD:
        reached = (bound - before[0],) + added[1:]
        assert m.apply(MatchState(before, (0,) * sides), HandResult("domino", winner, 0, 0, reached)).over


@settings(max_examples=15, deadline=None)
@given(small_races() | st.builds(lambda: ("lattice", _small_hungarian())))
def test_a_solved_race_kept_and_read_back_gives_every_chance_again(race):
    # what a process keeps of a table solved when loaded (equity.cache_folder): read back, every position's
    # chances are the same numbers (on a lattice of 4, those between its points too, weighed from the same corners)
    coarse = race[0] == "lattice"
    v, model = race[1] if coarse else race
    solved = solve_race(v, model, race_arrays(v, model, lattice=4 if coarse else None))
    again = load_values(dump_values(solved))
    assert dict(again.items()) == dict(solved.items()) and len(again) == len(solved)
    for scores in product(range(0, v.match.target, score_step(v)), repeat=v.seating.sides):
        for lead in solved.arrays.leads:
            pos = (state_key(v, _state(scores)), lead)
            assert again.get(pos) == solved.get(pos)
    with pytest.raises(ValueError):
        load_values(dump_values(solved)[:-7])


@settings(max_examples=20, deadline=None)
@given(small_races())
def test_a_known_leaders_results_kept_with_the_race_are_those_computed(race):
    # the kept file holds each side's lead's results (race.led_results, what RaceValues.one_hand weighs): read
    # back, the same results in the same order, the same numbers; a lead whose results do not serve is not kept,
    # nor are any in a file kept without them
    v, model = race
    solved = solve_race(v, model)
    kept = side_leads_results(v, model, solved.arrays)
    again = load_values(dump_values(solved, kept))
    for seat in range(v.seating.sides):
        lead = ("side", seat)
        try:
            want = None if lead in solved.arrays.leads else led_results(v, model, solved.arrays, lead)
        except (ValueError, KeyError):
            want = None
        got = again.led(lead)
        assert (None if got is None else list(got)) == want and kept.get(lead) == want
        assert load_values(dump_values(solved)).led(lead) is None
        if got is None:
            continue
        # one hand from each grid point with the kept results: the compiled sums are the pure-Python ones, exactly
        for scores in product(range(0, v.match.target, score_step(v)), repeat=v.seating.sides):
            key = (state_key(v, _state(scores)), lead)
            assert again.one_hand(key, got) == again.one_hand(key, want) == solved.one_hand(key, want)
    assert dict(again.items()) == dict(solved.items())


def test_a_race_kept_under_its_earlier_name_is_found_not_solved_again(tmp_path, monkeypatch):
    # up to 0.2.0 a kept race was named by a digest of the variant's name and options, the table's meta and
    # its model as the file's header held it (no ``score_totals`` then): such a file is taken over at the new
    # name, not solved again, and gives the race's values
    import hashlib
    import json

    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))
    v, model = _small_hungarian()
    solved = solve_race(v, model)
    meta = {"values": SOLVED_ON_LOAD}
    write_table(EquityTable(v, model, solved, meta), str(tmp_path / "t.mwc"))
    earlier = model.as_dict()
    for sample in earlier["modes"].values():
        sample.pop("score_totals")
    digest = hashlib.sha256(json.dumps([v.name, sorted(v.options), meta, earlier], sort_keys=True,
                                       default=str).encode()).hexdigest()[:24]
    cache.mkdir()
    old = cache / f"{os.path.splitext(table_name(v))[0]}-{digest}.race"
    old.write_bytes(dump_values(solved))

    def no_solving(*args, **kwargs):
        raise AssertionError("solved again")
    monkeypatch.setattr(equity, "solve_race", no_solving)
    table = EquityTable.from_packed(v, (tmp_path / "t.mwc").read_bytes())
    positions = [(state_key(v, _state(s)), ("any",)) for s in [(0, 0, 0), (29, 12, 5), (30, 30, 0)]]
    assert [table.values[p] for p in positions] == [solved[p] for p in positions]
    kept = list(cache.iterdir())
    assert len(kept) == 1 and kept[0] != old


def test_the_first_solve_of_a_race_is_told_on_standard_error_but_not_under_quiet(tmp_path, monkeypatch):
    # a race's table solved on its first use keeps a command waiting seconds to a minute: the command says why on
    # standard error, before and after, naming the variant and where the solve is kept (the analysis on standard
    # output, without it); --quiet prints the errors only
    import shutil

    from click.testing import CliRunner

    from analyzer.cli import main
    from analyzer.equity import PACKED, TABLES_ENV
    from analyzer.match import random_match
    from analyzer.notation import write

    v, model = _small_hungarian()
    record = write(random_match(v, 1, games=2))
    for k, quiet in enumerate([True, False]):
        tables, cache = tmp_path / f"tables{k}", tmp_path / f"cache{k}"      # (each a table's first load)
        tables.mkdir()
        write_table(EquityTable(v, model, solve_race(v, model), {"values": SOLVED_ON_LOAD}),
                    str(tables / (os.path.splitext(table_name(v))[0] + PACKED)))
        monkeypatch.setenv(TABLES_ENV, str(tables))
        monkeypatch.setenv(CACHE_ENV, str(cache))
        out = CliRunner().invoke(main, ["analyze", "-", "--scale", "match"] + ["--quiet"] * quiet, input=record)
        assert out.exit_code == 0, out.output
        assert len(list(cache.iterdir())) == 1                              # (solved and kept either way)
        told = [line for line in out.stderr.splitlines() if line.startswith("domino: ")]
        if quiet:
            assert told == []
        else:
            assert len(told) == 2, out.stderr
            assert told[0].startswith("domino: solving the MWC table of hungarian (players=3, limit=30) on its "
                                      "first use") and str(cache) in told[0]
            assert told[1].startswith("domino: solved the table of hungarian (players=3, limit=30) in ")
            assert "MWC" in out.stdout and "domino: " not in out.stdout
    # a cache folder that cannot be made: the analysis is the same, and the notice says the solve was not kept
    (tmp_path / "a-file").write_text("")
    unkept = tmp_path / "a-file" / "cache"
    monkeypatch.setenv(CACHE_ENV, str(unkept))
    shutil.copytree(tmp_path / "tables0", tmp_path / "tables2")           # (another path: a first load again)
    monkeypatch.setenv(TABLES_ENV, str(tmp_path / "tables2"))
    again = CliRunner().invoke(main, ["analyze", "-", "--scale", "match"], input=record)
    assert again.exit_code == 0 and again.stdout == out.stdout
    told = [line for line in again.stderr.splitlines() if line.startswith("domino: ")]
    assert len(told) == 3 and told[2].startswith(f"domino: could not keep the table of hungarian (players=3, "
                                                 f"limit=30) in {unkept} (") and "Traceback" not in again.stderr


def test_a_process_that_finds_the_race_being_solved_waits_and_reads_what_was_kept(tmp_path, monkeypatch):
    # processes started together (--jobs) that each load a race's table on its first use solve it once: one holds
    # the lock beside the kept file while it solves, another says it waits, then reads what the first one kept
    import fcntl
    import logging
    import shutil
    import threading

    v, model = _small_hungarian()
    write_table(EquityTable(v, model, solve_race(v, model), {"values": SOLVED_ON_LOAD}), str(tmp_path / "t.mwc"))
    raw = (tmp_path / "t.mwc").read_bytes()
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "first"))
    first = EquityTable.from_packed(v, raw)
    kept, = (tmp_path / "first").iterdir()

    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv(CACHE_ENV, str(cache))

    def no_solving(*args, **kwargs):
        raise AssertionError("solved again")
    monkeypatch.setattr(equity, "solve_race", no_solving)
    waiting, got = threading.Event(), []

    class Told(logging.Handler):
        def emit(self, record):
            if record.getMessage().startswith("waiting for the MWC table of hungarian (players=3, limit=30)"):
                waiting.set()
    log = logging.getLogger("analyzer.equity")
    told, level = Told(), log.level
    log.addHandler(told)
    log.setLevel(logging.INFO)
    try:
        with open(cache / f"{kept.name}.lock", "ab") as lock:           # (another process, solving)
            fcntl.flock(lock, fcntl.LOCK_EX)
            other = threading.Thread(target=lambda: got.append(EquityTable.from_packed(v, raw)))
            other.start()
            assert waiting.wait(60)
            shutil.copy(kept, cache / kept.name)                        # (what it kept, before it lets go)
        other.join(60)
    finally:
        log.removeHandler(told)
        log.setLevel(level)
    positions = [(state_key(v, _state(s)), ("any",)) for s in [(0, 0, 0), (29, 12, 5), (30, 30, 0)]]
    assert [got[0].values[p] for p in positions] == [first.values[p] for p in positions]
    assert [p.name for p in cache.iterdir()] == [kept.name]             # (the lock gone with it)


def test_a_table_solved_when_loaded_is_kept_for_the_next_process(tmp_path, monkeypatch):
    # a table written as its model only (as the shipped Hungarian for three) is solved when loaded: the first
    # load keeps what it solved in the cache folder, a later one reads it back (not solving again), and a
    # damaged kept file is solved past and kept anew
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    v, model = _small_hungarian()
    write_table(EquityTable(v, model, solve_race(v, model), {"values": SOLVED_ON_LOAD}), str(tmp_path / "t.mwc"))
    raw = (tmp_path / "t.mwc").read_bytes()
    first = EquityTable.from_packed(v, raw)
    kept = list((tmp_path / "cache").iterdir())
    assert len(kept) == 1 and kept[0].name.startswith(os.path.splitext(table_name(v))[0])
    positions = [(state_key(v, _state(s)), ("any",)) for s in [(0, 0, 0), (29, 12, 5), (30, 30, 0)]]
    want = [first.values[p] for p in positions]
    assert want == [solve_race(v, model)[p] for p in positions]
    # the solving process reads what it kept as every later one does: each known leader's results with it (as
    # solved they are not: the look-ups of a recorded hand's leader walk the results again)
    leads = [("side", seat) for seat in range(3)]
    made = [list(led_results(v, model, solve_race(v, model).arrays, lead)) for lead in leads]
    assert [list(first.values.led(lead)) for lead in leads] == made and all(made)

    def no_solving(*args, **kwargs):
        raise AssertionError("solved again")
    monkeypatch.setattr(equity, "solve_race", no_solving)
    later = EquityTable.from_packed(v, raw).values
    assert [later[p] for p in positions] == want
    assert [list(later.led(lead)) for lead in leads] == made
    kept[0].write_bytes(kept[0].read_bytes()[:100])                     # cut short: solved again, kept anew
    monkeypatch.setattr(equity, "solve_race", solve_race)
    assert [EquityTable.from_packed(v, raw).values[p] for p in positions] == want
    assert kept[0].stat().st_size > 100
