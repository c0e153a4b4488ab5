"""The match-winning chance of individual players (issue 30): Cut Throat for two, three and four.

Facts from the rules (002, Cut Throat: "wer zuerst 6 Punkte hat, gewinnt, solange noch ein Spieler 0
Punkte hat"; once everybody has won a game all go back to 0): a player who has won the match has 1, the
others 0; one more game won never lowers a player's own chance; the chances of all players add up to 1;
the first game is led by the [6-6] holder, who is any player alike, so the start gives each 1/N; and the
game is the same from every seat, so turning the table (scores and leader) turns the chances. Independent
references: whole matches played out hand by hand with the match code (``MatchScoring.apply`` and
``MatchScoring.lead``, the [6-6] holder drawn among the players), hand results drawn from the table's own
model; and for two players the two-side DP (``table.solve``) on the same model."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from analyzer.analysis import analyze_replay
from analyzer.analysis.match_scale import Before, match_scale, value_chance, why_not
from analyzer.equity import MatchPosition, first_lead, lattice, load_table, supported
from analyzer.equity.model import mode_of
from analyzer.equity.table import solve, solve_each
from analyzer.generate import random_game
from analyzer.replay import replay
from analyzer.rules import HandResult, MatchState, find_variant

PLAYERS = (2, 3, 4)


def variant(n: int):
    return find_variant("cutthroat") if n == 4 else find_variant("cutthroat", {"players": str(n)})


def shipped(n: int):
    t = load_table(variant(n))
    assert t is not None, f"the cut throat table for {n} players is shipped (analyzer/equity/data/)"
    return t


def running(scores: tuple[int, ...], last: int | None = None) -> MatchState:
    return MatchState(tuple(scores), (0,) * len(scores), 1, last=last)


def scores_of(n: int):
    """A running score of a cut throat match to 6 for ``n`` players: every score below 6, someone at 0."""
    return st.lists(st.integers(0, 5), min_size=n, max_size=n).filter(lambda s: 0 in s).map(tuple)


@pytest.mark.parametrize("n", (3, 4))
def test_a_won_match_is_1_and_a_lost_one_0(n):
    v, table = variant(n), shipped(n)
    before = running((5,) + (0,) * (n - 1), last=0)
    won = v.match.apply(before, HandResult("domino", 0, 1, 0, (1,) + (0,) * (n - 1)))
    assert won.over and won.winner == 0
    assert table.chances(MatchPosition(won, ("side", 0))) == tuple(float(s == 0) for s in range(n))
    # from 5 with the others at 0, the hand he wins is the match: his chance after it is 1, theirs 0
    after = table.after_each(MatchPosition(before, ("side", 1)), HandResult("domino", 0, 1, 0, (1,) + (0,) * (n - 1)), 1)
    assert after == tuple(float(s == 0) for s in range(n))


@pytest.mark.parametrize("n", PLAYERS)
def test_the_start_is_even(n):
    v, table = variant(n), shipped(n)
    assert first_lead(v)[0] == "holder"          # the [6-6] holder opens the first game: any player alike
    start = MatchPosition(v.match.start(n), first_lead(v))
    assert table.chances(start) == pytest.approx((1 / n,) * n, abs=1e-6)      # (the file keeps 6 decimals)


@pytest.mark.parametrize("n", (3, 4))
def test_every_position_sums_to_one(n):
    table = shipped(n)
    for chances in table.values.values():
        assert len(chances) == n and all(0 <= p <= 1 for p in chances)
        assert sum(chances) == pytest.approx(1, abs=3e-6)     # (the file keeps 6 decimals)


@pytest.mark.parametrize("n", (3, 4))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_winning_a_game_never_hurts_and_the_table_turns(n, data):
    v, table = variant(n), shipped(n)
    scores = data.draw(scores_of(n))
    lead = data.draw(st.integers(0, n - 1))
    here = table.chances(MatchPosition(running(scores, lead), ("side", lead)))
    assert sum(here) == pytest.approx(1, abs=3e-6)
    # turning the table by one seat turns the chances (the game is the same from every seat)
    k = data.draw(st.integers(1, n - 1))
    turned = tuple(scores[(s - k) % n] for s in range(n))
    there = table.chances(MatchPosition(running(turned, (lead + k) % n), ("side", (lead + k) % n)))
    assert there == pytest.approx(tuple(here[(s - k) % n] for s in range(n)), abs=2e-6)
    # one more game won by player p (the others fixed, still someone at 0, below the target)
    p = data.draw(st.integers(0, n - 1))
    more = tuple(x + (s == p) for s, x in enumerate(scores))
    if 0 in more and max(more) < v.match.target:
        higher = table.chances(MatchPosition(running(more, lead), ("side", lead)))
        assert higher[p] >= here[p] - 1e-6


def _play_match(v, draws: dict, state: MatchState, lead: int | None, rng: random.Random) -> int | None:
    """A whole match from ``state`` (``lead``: the seat to lead, None: the [6-6] holder), each hand's result
    drawn from the model (``draws``: each lead mode's outcomes and weights); the score kept and the next
    leader named by the match code itself."""
    n = v.seating.sides
    mode = "holder:[6-6]:forced" if lead is None else "open"
    while not state.over:
        leader = rng.randrange(n) if lead is None else lead      # the [6-6] lies in any hand alike
        outcomes, weights = draws[mode]
        o = rng.choices(outcomes, weights)[0]
        winner = None if o.winner is None else (o.winner + leader) % n
        scores = tuple(o.scores[(s - leader) % n] for s in range(n))
        state = v.match.apply(state, HandResult(o.termination or "domino", winner, o.points, 0, scores, o.void))
        req = v.match.lead(state, v.seating)           # after a game: the last winner, or at 0 the [6-6] holder
        if req.holder_of is not None:
            lead, mode = None, f"holder:{req.holder_of}:{'forced' if req.tile else 'any'}"
        else:
            lead, mode = min(req.seats), "open"
    return state.winner


@pytest.mark.parametrize("n,scores,lead", [(4, (0, 0, 0, 0), None), (4, (2, 0, 4, 1), 0), (3, (3, 0, 1), 2),
                                           (3, (0, 0, 0), None)])
def test_dp_agrees_with_whole_matches(n, scores, lead):
    v, table = variant(n), shipped(n)
    state = running(scores, lead) if any(scores) else v.match.start(n)
    position = MatchPosition(state, first_lead(v) if lead is None else ("side", lead))
    chances = table.chances(position)
    rng = random.Random(f"{n}{scores}")
    games = 2000
    won = [0] * n
    draws = {m: ([o for o, _ in s.probabilities()], [p for _, p in s.probabilities()])
             for m, s in table.model.modes.items()}
    for _ in range(games):
        won[_play_match(v, draws, state, lead, rng)] += 1
    for p, w in zip(chances, won):
        assert abs(w / games - p) <= 4 * (p * (1 - p) / games) ** 0.5 + 1e-3


def test_two_players_the_n_side_dp_equals_the_two_side_dp():
    v, table = variant(2), shipped(2)
    assert not table.individual                # computed by the two-side route
    two = solve(v, table.model)
    each = solve_each(v, table.model)
    assert set(two) == set(each)
    for pos, p in two.items():
        assert each[pos][0] == pytest.approx(p, abs=1e-9) and each[pos][1] == pytest.approx(1 - p, abs=1e-9)


def test_bad_points_for_many_players_are_races_on_a_lattice_or_exact():
    # (test_equity_race: the race solver, French and Hungarian for four on a lattice of 4)
    assert supported(find_variant("french")) is None and lattice(find_variant("french")) == 4
    assert supported(find_variant("hungarian", {"players": "3"})) is None
    assert lattice(find_variant("hungarian", {"players": "3"})) is None
    assert supported(variant(3)) is None and supported(variant(4)) is None


def _graded(n: int, seed: int, scores: tuple[int, ...]):
    v = variant(n)
    rep = replay(random_game(v, seed), v)
    analysis = analyze_replay(rep)
    leader = rep.initial.turn
    scale = match_scale(analysis, v, Before(MatchPosition(running(scores, leader), ("side", leader)), leader))
    return v, analysis, scale, leader


@pytest.mark.parametrize("n", (3, 4))
def test_at_match_point_a_move_that_wins_the_hand_wins_the_match(n):
    """At 5 with the others at 0, the mover who wins the hand wins the match (MWC 1) and one who does
    not keeps less; each alternative's MWC is the mover's own, his loss the drop from his best."""
    assert why_not(variant(n)) is None
    for seed in range(6):
        v, analysis, scale, leader = _graded(n, seed, (0,) * n)
        assert scale.known and sum(scale.each) == pytest.approx(1, abs=3e-6)
        for d, chances, loss in zip(analysis.decisions, scale.mwc, scale.loss):
            seat = analysis.players.index(d.player)
            at_five = tuple(5 if s == seat else 0 for s in range(n))
            position = MatchPosition(running(at_five, leader), ("side", leader))
            for a in d.alternatives:
                if a.value is not None and a.value > 0:
                    assert value_chance(load_table(v), v, position, leader, a.value, seat) == 1.0
                elif a.value is not None:
                    assert value_chance(load_table(v), v, position, leader, a.value, seat) < 1.0
            known = [c for c in chances if c is not None]
            played = next(c for a, c in zip(d.alternatives, chances) if a.played)
            assert loss == pytest.approx(max(known) - played, abs=1e-12)


@pytest.mark.parametrize("n", (3, 4))
def test_the_mover_s_chance_follows_his_value(n):
    """Each alternative's MWC is the mover's: a hand he wins is worth more to him than one he does not."""
    for seed in range(4):
        v, analysis, scale, leader = _graded(n, seed, (1,) + (0,) * (n - 1))
        for d, chances in zip(analysis.decisions, scale.mwc):
            for a, c in zip(d.alternatives, chances):
                for b, e in zip(d.alternatives, chances):
                    if a.value is not None and b.value is not None and a.value > 0 >= b.value:
                        assert c > e


INDIVIDUAL_SHIPPED = [("cutthroat", {"players": "3"}), ("cutthroat", {}), ("chiva", {"players": "3"}),
                      ("all-fives", {"players": "3"}), ("all-fives", {"players": "4"}),
                      ("all-fives-threes", {"players": "3"}), ("french", {}), ("hungarian", {"players": "3"}),
                      ("hungarian", {"players": "4"})]


@pytest.mark.parametrize("name, options", INDIVIDUAL_SHIPPED)
def test_a_seat_s_mean_from_the_outcomes_is_the_leader_s_own(name, options):
    """The leader's mean hand value is summed as the hands are played (his ``AgainstTheRest`` value, the points
    scored during play with it); read back from the outcomes' scores for the seat of the leader it is the same
    exact fraction, for every shipped table of individual players: a winner's points (Cut Throat, Chiva), the
    points scored during play (All Fives) and each player's bad points (French, Hungarian) alike. In Cut Throat
    every seat's mean lies within one game of 0."""
    import os
    from fractions import Fraction

    from analyzer.analysis import AgainstTheRest
    from analyzer.equity import DATA_DIR, HandModel, table_name
    from analyzer.equity.store import unpack

    v = find_variant(name, options)
    with open(os.path.join(DATA_DIR, f"{os.path.splitext(table_name(v))[0]}.mwc"), "rb") as fh:
        model = HandModel.from_dict(unpack(fh.read())[0]["model"])      # (its model alone: a race is not solved)
    assert v.seating.sides > 2
    bad = AgainstTheRest(v, 0).bad
    for sample in model.modes.values():
        assert sample.seat_mean(0, bad) == Fraction(sample.total, sample.hands)
        if name == "cutthroat":
            assert all(-1 <= sample.seat_mean(r) <= 1 for r in range(v.seating.sides))


def test_the_equity_command_gives_every_player_s_chance():
    import json
    from click.testing import CliRunner
    from analyzer.cli import main

    out = CliRunner().invoke(main, ["equity", "--variant", "cutthroat", "--score", "2,0,1,0", "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)["score"]["mwc_each_leading"]
    assert len(rows) == 4 and all(sum(r) == pytest.approx(1, abs=3e-6) for r in rows)
    for bad in ("1,1,1,1", "6,0,0,0", "1,0"):       # everybody has a game (a reset), a won match, too few scores
        assert CliRunner().invoke(main, ["equity", "--variant", "cutthroat", "--score", bad]).exit_code == 2


def test_analyze_scale_match_json_of_a_cut_throat_match(tmp_path):
    import json
    from click.testing import CliRunner
    from analyzer.cli import main
    from analyzer.match import random_match
    from analyzer.notation.writer import write_game

    path = tmp_path / "ct.dom"
    path.write_text("\n".join(write_game(g) for g in random_match(variant(4), seed=5, games=4).games), encoding="utf-8")
    out = CliRunner().invoke(main, ["analyze", str(path), "--scale", "match", "--json"])
    assert out.exit_code == 0, out.output
    games = json.loads(out.output)["games"]
    assert games[0]["match_scale"]["mwc_each"] == pytest.approx([0.25] * 4, abs=1e-6)   # the start: even
    for g in games:
        scale = g["match_scale"]
        assert scale["known"] and sum(scale["mwc_each"]) == pytest.approx(1, abs=3e-6)
        assert scale["mwc_before"] == scale["mwc_each"][0]           # the first player's, as the running values
        for d in g["decisions"]:
            chances = [a["mwc"] for a in d["alternatives"]]
            assert all(0 <= c <= 1 for c in chances) and d["mwc_loss"] >= 0
            played = next(a["mwc"] for a in d["alternatives"] if a["played"])
            assert d["mwc_loss"] == pytest.approx(max(chances) - played, abs=2e-6)


@pytest.mark.slow
def test_dp_agrees_with_whole_matches_of_freshly_played_hands():
    """Whole matches for three from 2-0-0 (player 1 to lead), every hand a fresh random deal played by the
    model's policy (``simulate_mode``, seeds the table's sample never used), the score and the next leader
    kept by the match code: the first player's share of the matches lies within the error of the sampling
    and of the model's own sample (its bootstrap standard error, about 0.002 here, is far below this one)."""
    from analyzer.analysis import AgainstTheRest
    from analyzer.equity.model import HandPlayers, simulate_mode

    v, table = variant(3), shipped(3)
    start = MatchPosition(running((2, 0, 0), 0), ("side", 0))
    p = table.chances(start)[0]
    matches, won, seed = 200, 0, 1000
    for _ in range(matches):
        state, leader, mode = start.state, 0, "open"
        while not state.over:
            seed += 1
            (o,) = simulate_mode(v, mode, 1, seed=seed, players=HandPlayers(view=AgainstTheRest)).outcomes
            if mode != "open":                          # the holder of [6-6]: any player alike
                leader = random.Random(seed).randrange(3)
            winner = None if o.winner is None else (o.winner + leader) % 3
            scores = tuple(o.scores[(s - leader) % 3] for s in range(3))
            state = v.match.apply(state, HandResult(o.termination or "domino", winner, o.points, 0, scores, o.void))
            req = v.match.lead(state, v.seating)
            if req.holder_of is not None:
                mode = f"holder:{req.holder_of}:{'forced' if req.tile else 'any'}"
            else:
                leader, mode = min(req.seats), "open"
        won += state.winner == 0
    assert abs(won / matches - p) <= 4 * (p * (1 - p) / matches) ** 0.5 + 0.01


def test_the_informal_match_starts_even_and_differs_from_the_tournament():
    """Informal mode: the [6-6] holder leads the first game with any tile (002); still any player alike."""
    informal = find_variant("cutthroat", {"mode": "informal"})
    table = load_table(informal)
    assert table is not None and first_lead(informal) == ("holder", "[6-6]", False)
    start = MatchPosition(informal.match.start(4), first_lead(informal))
    assert table.chances(start) == pytest.approx((0.25,) * 4, abs=1e-6)
    # the same samples as the tournament table (the same seeds), the first game led otherwise
    assert table.model.modes["open"].outcomes == shipped(4).model.modes["open"].outcomes
    assert mode_of(first_lead(informal)) == "holder:[6-6]:any" != mode_of(first_lead(variant(4)))


def test_reset_lead_winner_starts_even_and_the_reset_winner_leads():
    """reset-lead=winner: once everybody has won a game and all go back to 0, the winner of that game leads
    the next (not the [6-6] holder): the table's position after such a reset is led by him."""
    v = find_variant("cutthroat", {"reset-lead": "winner"})
    table = load_table(v)
    assert table is not None
    assert table.chances(MatchPosition(v.match.start(4), first_lead(v))) == pytest.approx((0.25,) * 4, abs=1e-6)
    before = running((1, 1, 0, 1), last=1)
    reset = table.next_position(MatchPosition(before, ("side", 1)), HandResult("domino", 2, 1, 2, (0, 0, 1, 0)), 1)
    assert reset.state.scores == (0, 0, 0, 0) and reset.lead == ("side", 2)
    assert sum(table.chances(reset)) == pytest.approx(1, abs=3e-6)
