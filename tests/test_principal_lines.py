"""The principal variation (``best_line``), the line the match scale plays each alternative out along where
both sides score in a hand (``analysis.outcomes``) and the hand-result models play their hands by: at every
choice the best move for the side to move with all hands open, among equal best moves the FIRST in the order
of ``legal_moves``.

The searches find it by null-window probes around the value of the hand, searched once (the compiled block
core plays the whole line from the lead on in one call, ``BlockDeal.line``). The references share nothing with
that: a plain minimax over ``legal_moves`` (memoised, nothing else) on small deals, and on real records the
line as it was found before, the first move whose full value (``values``: one exact search a move) is the best.
The int solver's families: partnership (000: the losers' pips, pass bonuses), Domino Whist (001: bad points,
§6 the end of two equal ends a tile goes on, §8 exposed tiles), Chiva, Milo; the general search's: All Fives
and All Fives and Threes (003: points during play), Hungarian for two (bad points), a draw game.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.analysis import (AgainstTheRest, alternative_text, analyze_replay, int_solver_plays, searcher_for,
                               start_position)
from analyzer.analysis.outcomes import Closing, HandRead, finished_result, line_facts, played_out, principal_results
from analyzer.generate import random_game
from analyzer.match import replay_record
from analyzer.replay import replay
from analyzer.notation import parse
from analyzer.rules import find_variant
from analyzer.rules.facts import hand_facts
from analyzer.rules.mechanics import position_for
from analyzer.search import SearchLimit, Solver, TreeSearch
from analyzer.search.block import principal_line
from analyzer.search.core import compiled_core
from conftest import RECORDS
from test_exposed_tiles import move_values
from test_solver import VARIANTS as SOLVER_VARIANTS

CORES = ["python"] + (["compiled"] if compiled_core() is not None else [])

#: The int solver's families, as small deals play them (a few tiles a hand, the rest out of play); pass bonuses
#: are checked on a record against every alternative's value (the reference pays them from the deal only).
BLOCK_FAMILIES = {
    "partnership": find_variant("partnership"),
    "whist": find_variant("whist"),
    "chiva": find_variant("chiva"),
    "milo": find_variant("partnership", {"score": "milo"}),
    "bonus": SOLVER_VARIANTS["bonus"],        # a scoring no description knows: the compiled core asks Python
}


def first_best(values: list, maximise: bool) -> object:
    """The first of ``values`` (``(move, side-0 value)`` in the order of the legal moves) with the best value for
    the side to move (side 0 the most, side 1 the least)."""
    best = (max if maximise else min)(v for _, v in values)
    return next(m for m, v in values if v == best)


def line_by(pos, teams, values_of) -> list:
    """The line of the first best move at each choice, ``values_of(pos)`` giving every legal move's value."""
    line = []
    try:
        while moves := pos.legal_moves():
            choice = moves[0] if len(moves) == 1 else first_best(values_of(pos), teams[pos.turn] == 0)
            pos.push(choice)
            line.append(choice)
    finally:
        for _ in line:
            pos.pop()
    return line


def reference_line(pos, variant) -> list:
    """The principal variation by plain minimax over ``legal_moves`` (``test_exposed_tiles``: memoised, nothing
    else): at each choice every legal move's value, the first best."""
    memo: dict = {}
    return line_by(pos, variant.seating.teams, lambda at: move_values(at, variant, memo))


def small_position(variant, rng: random.Random, size: int):
    """A random deal of ``size`` tiles a hand (the rest out of play) as the variant lays its line (Domino
    Whist §6: the end of two equal ends a tile goes on), some moves already played at random; in Domino Whist
    one to three tiles lie exposed from the deal (§8)."""
    tiles = list(variant.dealing.tiles)
    rng.shuffle(tiles)
    n = variant.players
    pos = position_for(variant, [tiles[i * size:(i + 1) * size] for i in range(n)], rng.randrange(n))
    if variant.name == "whist":
        pos.reveal = ()
        pos.expose(sum(t.bit for t in rng.sample(tiles[:n * size], rng.randint(1, 3))))
    for _ in range(rng.randint(0, 2 * size)):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
    return pos


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), family=st.sampled_from(sorted(BLOCK_FAMILIES)),
       size=st.integers(3, 5), guess=st.none() | st.integers(-80, 80))
def test_best_line_is_the_first_best_move_of_a_plain_minimax_at_every_choice(seed, family, size, guess):
    """Both cores give the plain minimax's principal variation, whatever value the search of the hand's value
    starts from (``guess``: never trusted)."""
    variant = BLOCK_FAMILIES[family]
    pos = small_position(variant, random.Random(seed), size)
    want = reference_line(pos, variant)
    for core in CORES:
        assert Solver(variant, core=core).best_line(pos, guess) == want, (core, [str(m) for m, *_ in pos.history])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), family=st.sampled_from(sorted(BLOCK_FAMILIES)), size=st.integers(3, 5))
def test_the_facts_read_off_a_line_are_those_of_the_position_it_leaves(seed, family, size):
    """``principal_line`` gives the plain minimax's line with each move's player (the seat to move when it is
    pushed) and, where the compiled core laid its last tile, the ends before it: the facts read off the line
    without playing it (``line_facts``) are those ``hand_facts`` reads off the position the line leaves, and
    the result ``played_out`` gives from there (read so) is the one of that position (``finished_result``)."""
    variant = BLOCK_FAMILIES[family]
    pos = small_position(variant, random.Random(seed), size)
    leader = next((seat for m, seat, *_ in pos.history if m.tile is not None), pos.turn)
    want = reference_line(pos, variant)
    for core in CORES:
        line = principal_line(Solver(variant, core=core), pos)
        assert line.moves == want
        depth = len(pos.history)
        try:
            seats = []
            for m in line.moves:
                seats.append(pos.turn)
                pos.push(m)
            assert tuple(seats) == line.seats
            end = pos.outcome()
            if core == "python" or not want:   # (the pure-Python search does not read the ends: the line is pushed)
                assert line.ends_before is None
                continue
            facts = line_facts(pos_at(pos, depth), list(zip(line.seats, (m.tile for m in line.moves))),
                               line.ends_before, Closing(leader))
            assert facts == hand_facts(pos, end.termination, end.seat, leader)
            result = finished_result(variant, pos, leader, [0] * variant.players)
        finally:
            while len(pos.history) > depth:
                pos.pop()
        assert played_out(HandRead(variant, leader), Solver(variant, core=core), pos, None, {}) == result


def pos_at(pos, depth: int):
    """A copy of ``pos`` with its moves after the first ``depth`` taken back."""
    at = pos.copy()
    while len(at.history) > depth:
        at.pop()
    return at


def game_positions(rep):
    """Each position of the line played of a replayed game, as the analysis searches it."""
    pos, _ = start_position(rep, rep.legal_prefix)
    for step in rep.steps[:rep.legal_prefix]:
        if pos.outcome() is not None:
            break
        if step.seat is not None:
            pos.turn = step.seat
        yield pos
        if step.move is None:
            break
        pos.push(step.move)


def record_positions(path, limit: int | None = None):
    """Each position of the line played of the record's games (the first ``limit``), with its game's replay."""
    for rep in replay_record(parse(path.read_text(encoding="utf-8"), path.name)):
        for k, pos in enumerate(game_positions(rep)):
            if limit is not None and k >= limit:
                break
            yield rep, pos


@pytest.mark.parametrize("record", ["match-whist.dom", "whist-equal-ends.dom", "variant-pass-bonus.dom"])
def test_the_int_solvers_line_on_records_is_the_first_best_of_every_alternatives_value(record):
    """Along the line played (the positions the match scale plays out from), the line of each core is the one
    every alternative's full value gives (the pure-Python core from the first eight steps only: it is slow)."""
    for core in CORES:
        solvers: dict = {}
        for rep, pos in record_positions(RECORDS / record, None if core == "compiled" else 8):
            fast = solvers.setdefault(id(rep), Solver(rep.variant, core=core))
            reference = solvers.setdefault((id(rep), "reference"), Solver(rep.variant, core=core))
            assert fast.best_line(pos) == line_by(pos, rep.variant.seating.teams, reference.values), (record, core)


@pytest.mark.parametrize("source", ["variant-all-fives.dom", "variant-all-fives-equal-ends.dom",
                                    "variant-hungarian.dom", "variant-draw.dom", "all-fives", "all-fives-threes",
                                    "hungarian"])
def test_the_general_searchs_line_is_the_first_best_of_every_alternatives_value(source):
    """All Fives' points during play (the value falls by what each move scores), Hungarian's bad points, a
    draw game's boneyard: the line of ``TreeSearch`` (its compiled cores and the pure-Python ones) is the one
    every alternative's full value gives, along the line played of a record (or of two random games of the
    variant)."""
    if source.endswith(".dom"):
        reps = list(replay_record(parse((RECORDS / source).read_text(encoding="utf-8"), source)))
    else:
        v = find_variant(source)
        reps = [replay(random_game(v, seed), v) for seed in range(2)]
    checked = 0
    for rep in reps:
        v = rep.variant
        rules = v if v.seating.sides == 2 else AgainstTheRest(v, 0)     # individuals: the first one's view
        reference = TreeSearch(rules)
        searches = [TreeSearch(rules, core=core) for core in CORES]
        for pos in game_positions(rep):
            want = line_by(pos, rules.seating.teams, reference.values)
            assert all(search.best_line(pos) == want for search in searches), source
            checked += 1
    assert checked >= 5


def test_a_line_past_the_node_limit_raises_in_both_cores():
    rep = next(iter(replay_record(parse((RECORDS / "match-whist.dom").read_text(encoding="utf-8")))))
    pos, _ = start_position(rep, rep.legal_prefix)
    pos.push(rep.steps[0].move)
    for core in CORES:
        with pytest.raises(SearchLimit):
            Solver(rep.variant, core=core, node_limit=50).best_line(pos)


def test_principal_results_are_the_same_with_the_analysiss_searches():
    """The searches that made the analysis (their tables hold its values) give the same results as new ones."""
    for rep in replay_record(parse((RECORDS / "match-whist.dom").read_text(encoding="utf-8"))):
        solver = searcher_for(rep.variant, int_solver_plays(rep.variant), None)
        analysis = analyze_replay(rep, searches={0: solver})
        assert principal_results(rep, analysis, searches={0: solver}) == principal_results(rep, analysis)


@pytest.mark.parametrize("name, players", [("all-fives", None), ("whist", None), ("hungarian", "3"), ("hungarian", "4"),
                                           ("all-fives", "3")])
def test_each_result_is_that_of_its_own_line_played_out_alone(name, players):
    """``principal_results`` shares the result of every position its lines go through (the line played, its
    alternatives): each alternative's result is still the one its own principal variation, played out alone from
    the decision in a fresh search, gives (All Fives: with the opener's choice to add no tile to his lead), and so
    is each step's of the line played. In a game of individual players the running values are the first player's
    (each against all the others), so each step's result is that of the first player's principal variation, and a
    decision is valued for its mover, so each alternative's is that of the mover's (Hungarian for three and four: a
    player plays on while he can, and the hand goes on past a player out; All Fives for three: points during
    play)."""
    v = find_variant(name, {"players": players} if players else {})
    individual = v.seating.sides > 2
    checked = 0
    for seed in range(3):
        rep = replay(random_game(v, seed), v)
        analysis = analyze_replay(rep)
        results = principal_results(rep, analysis)
        leader = next(s.seat for s in rep.steps if s.move is not None and s.move.tile is not None)
        pos, _ = start_position(rep, rep.legal_prefix)
        decisions = {d.index: (d, row) for d, row in zip(analysis.decisions, results.alternatives)}
        for k, step in enumerate(rep.steps[:analysis.analysed_steps]):
            if step.seat is not None and pos.outcome() is None:
                pos.turn = step.seat
            first = AgainstTheRest(v, 0) if individual else v
            assert results.line[k] == alone(v, pos, None, leader, step_points(rep, k), first), (seed, k)
            if k in decisions:
                d, row = decisions[k]
                moves = {alternative_text(m): m for m in pos.legal_moves()}
                mover = AgainstTheRest(v, pos.turn) if individual else v
                for alt, got in zip(d.alternatives, row):
                    assert got == alone(v, pos, moves[alt.move], leader, step_points(rep, k), mover), (seed, k, alt.move)
                    checked += 1
            if step.move is None:
                break
            pos.push(step.move)
    assert checked > 10


def step_points(rep, k: int) -> list[int]:
    """Each seat's points scored during play before step ``k``, as the record counts them."""
    before = rep.steps[k - 1].scores if k and rep.steps[k - 1].scores else None
    return list(before) if before else [0] * rep.variant.players


def alone(v, pos, move, leader: int, points: list[int], rules=None):
    """The hand's result once ``move`` (None: no move) and then a fresh search's principal variation are played
    from ``pos`` (``rules``: the search's, default ``v``: a game of individual players names a view)."""
    search = searcher_for(rules or v, int_solver_plays(v), None)
    if move is None:
        line = search.best_line(pos)
    else:
        pos.push(move)
        line = [move] + search.best_line(pos)
        pos.pop()
    for m in line:
        seat = pos.turn
        pos.push(m)
        if v.play is not None and m.is_play:
            points[seat] += v.play.points(v.play.ends_total(pos.line(), pos.ends))
    end = pos.outcome()
    result = v.hand_result(hand_facts(pos, end.termination, end.seat, leader,
                                      tuple(points) if v.play is not None else None))
    for _ in line:
        pos.pop()
    return result
