"""``WorldsSolver``: all the worlds of one decision solved in one call into the compiled core give every
alternative exactly the value a new solver's ``values`` gives it in each world alone (and plain minimax
on small hands); the fair analysis that uses it gives the same fair values as a search a world."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.analysis import AgainstTheRest, analyze_replay
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.position import Position
from analyzer.rules import find_variant
from analyzer.search import CORE, SearchLimit, Solver
from analyzer.search.core import compiled_core
from analyzer.search.worlds import WorldsSolver
from analyzer.tiles import tile_set
from conftest import RECORDS
from test_exposed_tiles import minimax

built = pytest.mark.skipif(compiled_core() is None, reason="the compiled core was not built (no C compiler)")
# the fair analysis takes the core in use (DOMINO_PURE_PYTHON=1: the pure-Python one, which leaves every world to values)
in_use = pytest.mark.skipif(CORE != "compiled", reason="the compiled core is not the one in use")

# the scorings the core computes itself (inline, or from a description), two sides and one against the rest
VARIANTS = [("partnership", {}), ("partnership", {"score": "all"}), ("partnership", {"blank": "50"}),
            ("partnership", {"tie": "own-pips"}), ("block", {}), ("cutthroat", {"players": "3"}), ("whist", {})]


def _game(name: str, options: dict, seed: int, size: int, plies: int):
    """A random deal of ``size`` tiles a hand played ``plies`` moves on (stopping at a decision), the
    position there and its rules (the mover against the rest where there are more than two sides)."""
    variant = find_variant(name, options)
    rng = random.Random(seed)
    tiles = list(variant.dealing.tiles)
    rng.shuffle(tiles)
    n = variant.players
    dealt = [sum(t.bit for t in tiles[i * size:(i + 1) * size]) for i in range(n)]
    leader = rng.randrange(n)
    pos = Position([list(_tiles(h, tiles)) for h in dealt], leader, max_pip=variant.dealing.max_pip)
    history = []
    while len(history) < plies and (moves := pos.legal_moves()) and not pos.outcome():
        move = rng.choice(moves)
        pos.push(move)
        history.append(move)
    while len(pos.legal_moves()) == 1 and pos.outcome() is None:     # on to a decision
        history.append(pos.legal_moves()[0])
        pos.push(history[-1])
    rules = AgainstTheRest(variant, pos.turn) if variant.seating.sides > 2 else variant
    return rules, dealt, leader, history, pos, rng


def _tiles(mask: int, tiles):
    return [t for t in tiles if t.bit & mask]


def _worlds(dealt, leader, history, pos, rng, count: int, max_pip: int):
    """``count`` deals the mover cannot tell from the real one (the other hands' tiles not yet played
    dealt again among them, each keeping its number), each with its position after ``history``."""
    mover = pos.turn
    played = [0] * len(dealt)
    for move, seat, *_ in pos.history:
        if move.tile is not None:
            played[seat] |= move.tile.bit
    others = [s for s in range(len(dealt)) if s != mover]
    deals, positions = [], []
    for _ in range(count):
        hidden = [t for s in others for t in range(64) if (pos.hands[s] >> t) & 1]
        rng.shuffle(hidden)
        deal = list(dealt)
        for s in others:
            size = pos.hands[s].bit_count()
            deal[s] = played[s] | sum(1 << t for t in hidden[:size])
            hidden = hidden[size:]
        world = Position([_tiles(h, tile_set(max_pip)) for h in deal], leader, max_pip=max_pip)
        for move in history:
            world.push(move)
        deals.append(tuple(deal))
        positions.append(world)
    return deals, positions


@built
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6), size=st.integers(3, 5), plies=st.integers(0, 9))
def test_worlds_in_one_call_give_each_world_the_values_of_a_solver_of_its_own(case, seed, size, plies):
    name, options = case
    rules, dealt, leader, history, pos, rng = _game(name, options, seed, size, plies)
    if pos.outcome() is not None:
        return
    deals, positions = _worlds(dealt, leader, history, pos, rng, 6, pos.max_pip)
    got = WorldsSolver(rules, core="compiled").values(positions[0], deals)
    assert got is not None                  # these scorings, no pass bonus: the core takes every decision
    for row, world in zip(got, positions):
        alone = Solver(rules).values(world)
        if row is None:                     # a move ends the hand: left to ``values``
            assert any(_ends(world, move) for move, _ in alone)
        else:
            assert row == alone


@built
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6), size=st.integers(3, 5), plies=st.integers(0, 9),
       pick=st.integers(1, 2**7 - 1))
def test_only_some_moves_valued_give_those_moves_the_values_of_a_solver_of_its_own(case, seed, size, plies, pick):
    """Racing (issue 71): the worlds value only the moves still in contention (``only``), each its value as a
    solver of its own gives it (``Solver.values``), the others not in the rows."""
    name, options = case
    rules, dealt, leader, history, pos, rng = _game(name, options, seed, size, plies)
    if pos.outcome() is not None:
        return
    moves = pos.legal_moves()
    only = [m for i, m in enumerate(moves) if pick >> i & 1] or moves[:1]
    deals, positions = _worlds(dealt, leader, history, pos, rng, 4, pos.max_pip)
    got = WorldsSolver(rules, core="compiled").values(positions[0], deals, only)
    assert got is not None
    for row, world in zip(got, positions):
        if row is not None:
            assert [m for m, _ in row] == only
            assert row == [(m, v) for m, v in Solver(rules).values(world) if m in only]


@built
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), plies=st.integers(1, 6))
def test_each_world_searches_the_positions_of_a_solver_of_its_own(seed, plies):
    # whole hands, so that a world's search grows the table past its starting size: the one table, made
    # ready for each world without a pass over it, searches exactly the positions a new solver searches
    rules, dealt, leader, history, pos, rng = _game("partnership", {}, seed, 7, plies)
    deals, positions = _worlds(dealt, leader, history, pos, rng, 5, pos.max_pip)
    worlds = WorldsSolver(rules, core="compiled")
    got = worlds.values(positions[0], deals)
    if any(row is None for row in got):     # a move ends the hand: that world is left to ``values``
        return
    counts = []
    for row, world in zip(got, positions):
        alone = Solver(rules, core="compiled")
        assert row == alone.values(world)
        counts.append(alone.nodes)
    assert worlds.nodes == sum(counts)


def _ends(pos, move) -> bool:
    pos.push(move)
    try:
        return pos.outcome() is not None
    finally:
        pos.pop()


@built
@pytest.mark.parametrize("seed", range(4))
def test_worlds_agree_with_plain_minimax(seed):
    variant = find_variant("partnership")
    rules, dealt, leader, history, pos, rng = _game("partnership", {}, seed, 3, seed % 3)
    deals, positions = _worlds(dealt, leader, history, pos, rng, 4, pos.max_pip)
    got = WorldsSolver(rules, core="compiled").values(positions[0], deals)
    assert any(row is not None for row in got)
    for row, world in zip(got, positions):
        expected = []
        for move in world.legal_moves():
            world.push(move)
            expected.append((move, minimax(world, variant, {})))
            world.pop()
        assert row is None or row == expected


@built
def test_the_lead_is_solved_in_the_core_too():
    rules, dealt, leader, history, pos, rng = _game("partnership", {}, 3, 4, 0)
    assert not pos.history and len(pos.legal_moves()) == 4
    deals, positions = _worlds(dealt, leader, history, pos, rng, 3, pos.max_pip)
    got = WorldsSolver(rules, core="compiled").values(positions[0], deals)
    assert got == [Solver(rules).values(world) for world in positions]


@built
def test_a_world_past_the_node_limit_stops_them_all():
    rules, dealt, leader, history, pos, rng = _game("partnership", {}, 5, 7, 0)
    deals, positions = _worlds(dealt, leader, history, pos, rng, 2, pos.max_pip)
    with pytest.raises(SearchLimit):
        Solver(rules, node_limit=50).values(positions[1])
    with pytest.raises(SearchLimit):
        WorldsSolver(rules, node_limit=50, core="compiled").values(positions[0], deals)


@built
def test_what_the_core_does_not_take_this_way_is_left_to_values():
    rules, dealt, leader, history, pos, rng = _game("partnership", {"pass-bonus": "yes"}, 1, 4, 2)
    deals, positions = _worlds(dealt, leader, history, pos, rng, 2, pos.max_pip)
    assert WorldsSolver(rules, core="compiled").values(positions[0], deals) is None            # pass bonuses
    plain, dealt, leader, history, pos, rng = _game("partnership", {}, 1, 4, 2)
    deals, positions = _worlds(dealt, leader, history, pos, rng, 2, pos.max_pip)
    assert WorldsSolver(plain, core="python").values(positions[0], deals) is None


@in_use
@pytest.mark.parametrize("record", ["seed1.dom", "seed2.dom"])
def test_the_fair_analysis_gives_the_values_of_a_search_a_world(record, monkeypatch):
    rep = next(r for r in replay_record(read(str(RECORDS / record))) if r.deal_ok)
    batches, real = [], WorldsSolver.values

    def counted(self, position, deals, only=None):
        batches.append(real(self, position, deals, only))
        return batches[-1]

    monkeypatch.setattr(WorldsSolver, "values", counted)
    batched = fair_analyze(rep, analyze_replay(rep), settings=FairSettings(worlds=12, exact_below=12, seed=3),
                           run=FairRun(workers=1))
    assert batches and all(b is not None for b in batches)
    monkeypatch.setattr(WorldsSolver, "values", lambda self, position, deals, only=None: None)  # every world alone
    alone = fair_analyze(rep, analyze_replay(rep), settings=FairSettings(worlds=12, exact_below=12, seed=3),
                         run=FairRun(workers=1))
    values = [[(d.index, [(a.move, a.fair) for a in d.alternatives]) for d in x.decisions if d.fair is not None]
              for x in (batched, alone)]
    assert len(values[0]) >= 5 and values[0] == values[1]
