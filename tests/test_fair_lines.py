"""Each world's principal variations from the compiled batch of worlds: the fair analysis on the match scale
reads, in every world it solves, each alternative's result along its principal variation (the best moves for
both sides with every hand open, at each choice the FIRST best in the order of ``legal_moves``). The batch
(``WorldsSolver.lines``: ``_core.BlockDeal.worlds`` with ``after``) plays those lines from the table its values
left warm. The references share nothing with it: a plain minimax over ``legal_moves`` (memoised, nothing else)
on small deals, and the path without the batch (a new solver a world, ``outcomes.played_out``), whose results
the fair analysis gave before, on random positions and on the records."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.analysis import analyze_replay
from analyzer.analysis import fair as fair_module
from analyzer.analysis.fair import fair_analyze
from analyzer.analysis.outcomes import played_out
from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.rules import find_variant
from analyzer.rules.mechanics import position_for
from analyzer.search import Solver
from analyzer.search.core import compiled_core
from analyzer.search.worlds import WorldsSolver
from conftest import RECORDS
from test_principal_lines import reference_line

built = pytest.mark.skipif(compiled_core() is None, reason="the compiled core was not built (no C compiler)")

#: Two sides whose hand both may score (Domino Whist's bad points, §6 the end of two equal ends a tile goes
#: on, its double lead lengthwise too), and the losers' pips and every pip left of the partnership game.
VARIANTS = {"whist": find_variant("whist"), "whist-lengthwise": find_variant("whist", {"double-lead": "lengthwise"}),
            "partnership": find_variant("partnership"), "all-pips": find_variant("partnership", {"score": "all"})}


def small_worlds(variant, rng: random.Random, size: int, plies: int, count: int):
    """A random deal of ``size`` tiles a hand (the rest out of play) laid as the variant lays its line, ``plies``
    random moves played and on to a decision; then ``count`` deals its mover cannot tell from it (the tiles the
    others have not played dealt again among them, each keeping his number): ``(deals, positions)``, each deal's
    hands as dealt (bit masks) and its position at the decision (the first: the real one)."""
    tiles = list(variant.dealing.tiles)
    rng.shuffle(tiles)
    n = variant.players
    hands = [tiles[i * size:(i + 1) * size] for i in range(n)]
    leader = rng.randrange(n)
    pos = position_for(variant, hands, leader)
    history = []
    while pos.outcome() is None and (len(history) < plies or len(pos.legal_moves()) == 1):
        history.append(rng.choice(pos.legal_moves()))
        pos.push(history[-1])
    if pos.outcome() is not None:
        return [], []
    mover = pos.turn
    played = [{m.tile for m, seat, *_ in pos.history if seat == s and m.tile is not None} for s in range(n)]
    deals, positions = [], []
    for k in range(count):
        left = [t for s in range(n) if s != mover for t in hands[s] if t not in played[s]]
        if k:
            rng.shuffle(left)
        dealt = []
        for s in range(n):
            if s == mover:
                dealt.append(list(hands[s]))
                continue
            keep = len(hands[s]) - len(played[s])
            dealt.append(sorted(played[s], key=lambda t: t.index) + left[:keep])
            left = left[keep:]
        world = position_for(variant, dealt, leader)
        for move in history:
            world.push(move)
        deals.append(tuple(sum(t.bit for t in h) for h in dealt))
        positions.append(world)
    return deals, positions


@built
@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), family=st.sampled_from(sorted(VARIANTS)), size=st.integers(3, 4),
       plies=st.integers(0, 6))
def test_the_batch_gives_each_world_the_plain_minimax_line_and_the_result_of_the_path_without_it(seed, family,
                                                                                                 size, plies):
    variant = VARIANTS[family]
    deals, positions = small_worlds(variant, random.Random(seed), size, plies, 4)
    if not deals:
        return
    got = WorldsSolver(variant, core="compiled").lines(positions[0], deals)
    assert got is not None                  # these scorings, no pass bonus, no exposed tile: the core takes them
    rows, lines = got
    assert rows == WorldsSolver(variant, core="compiled").values(positions[0], deals)
    leader = next(seat for move, seat, *_ in positions[0].history if move.tile is not None) \
        if positions[0].ends is not None else positions[0].turn
    for row, found, world in zip(rows, lines, positions):
        if row is None:                     # a move ends the hand: that world is left to the path without the batch
            assert found is None
            continue
        for (move, _), line in zip(row, found):
            world.push(move)
            try:
                assert line == reference_line(world, variant), (family, str(move))
            finally:
                world.pop()
            # the result read off the batch's line is the one the path without it plays out and reads
            assert fair_module._line_result(variant, world, move, line, leader, None) == \
                played_out(variant, Solver(variant), world, move, leader, None, {})


def _fair_results(rep, batch: bool, monkeypatch) -> list:
    """Every judged alternative's results over the worlds (``FairValue.results``) of the fair analysis on the
    match scale, with the batch's lines (``batch``) or with the path without them."""
    with monkeypatch.context() as m:
        if not batch:
            m.setattr(WorldsSolver, "lines", lambda self, position, deals: None)
        out = fair_analyze(rep, analyze_replay(rep), workers=1, worlds=6, exact_below=30, results=True)
    return [(d.index, a.move, a.fair.results) for d in out.decisions if d.fair is not None for a in d.alternatives]


@built
@pytest.mark.parametrize("record,games", [("match-whist.dom", (0, 1))])
def test_the_fair_results_on_a_record_are_those_of_the_path_without_the_batch(record, games, monkeypatch):
    reps = replay_record(parse((RECORDS / record).read_text(encoding="utf-8"), record))
    for g in games:
        with_batch = _fair_results(reps[g], True, monkeypatch)
        assert with_batch and all(results is not None for *_, results in with_batch)
        assert with_batch == _fair_results(reps[g], False, monkeypatch)
