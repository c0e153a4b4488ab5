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
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.analysis.match_scale import fair_chance
from analyzer.analysis.outcomes import HandRead, drawn_facts, played_out
from analyzer.analysis.readings import dealt_facts
from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.rules import find_variant
from analyzer.rules.facts import hand_facts
from analyzer.rules.mechanics import position_for
from analyzer.search import Solver
from analyzer.search.core import compiled_core
from analyzer.search.drawworlds import DrawWorlds
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
            facts, depth = dealt_facts(world, move, line, leader), len(world.history)
            world.push(move)
            try:
                assert line.moves == reference_line(world, variant), (family, str(move))
                for m in line.moves:
                    world.push(m)
                end = world.outcome()
                # the facts read off the line are those ``hand_facts`` reads off the position it leaves
                assert facts == hand_facts(world, end.termination, end.seat, leader)
            finally:
                while len(world.history) > depth:
                    world.pop()
            # the result read off the batch's line is the one the path without it plays out and reads
            assert variant.hand_result(dealt_facts(world, move, line, leader)) == \
                variant.hand_result(facts_after(variant, world, [move, *line.moves], leader)) == \
                played_out(HandRead(variant, leader), Solver(variant), world, move, {})


def _fair_results(rep, batch: bool, monkeypatch) -> list:
    """Every judged alternative's results over the worlds (``FairValue.results``) of the fair analysis on the
    match scale, with the batches' lines (``batch``) or with the path without them."""
    with monkeypatch.context() as m:
        if not batch:
            m.setattr(WorldsSolver, "lines", _values_only)
            m.setattr(DrawWorlds, "lines", lambda self, position, worlds, only=None: None)
        out = fair_analyze(rep, analyze_replay(rep), settings=FairSettings(worlds=6, exact_below=30, results=True),
                           run=FairRun(workers=1))
    return [(d.index, a.move, a.fair.results) for d in out.decisions if d.fair is not None for a in d.alternatives]


def _values_only(self, position, deals, only=None):
    """``WorldsSolver.lines`` giving the batch's values and no line: each world's lines played out anew."""
    rows = self.values(position, deals, only)
    return None if rows is None else (rows, [None] * len(rows))


@built
@pytest.mark.parametrize("record,games", [("match-whist.dom", (0, 1)), ("variant-all-fives.dom", (0,)),
                                          ("match-all-fives-4.dom", (0,)), ("variant-hungarian.dom", (0,)),
                                          ("match-hungarian-4.dom", (0,))])
def test_the_fair_results_on_a_record_are_those_of_the_path_without_the_batch(record, games, monkeypatch):
    reps = replay_record(parse((RECORDS / record).read_text(encoding="utf-8"), record))
    for g in games:
        with_batch = _fair_results(reps[g], True, monkeypatch)
        assert with_batch and all(results is not None for *_, results in with_batch)
        assert with_batch == _fair_results(reps[g], False, monkeypatch)


# -- draw games: All Fives (points during play), for two and three, and All Fives and Threes; a draw game without
# points during play (the compiled state searches its ends sorted, its lines play them as they lie) -------------
DRAW_FAMILIES = ["all-fives", "all-fives-3", "all-fives-threes", "draw"]


@built
@pytest.mark.parametrize("family", DRAW_FAMILIES)
def test_the_draw_batch_gives_each_world_the_line_of_every_alternatives_value_and_the_same_results(family):
    """Each world's line from the batch (``DrawWorlds.lines``) is the first best of every alternative's full value
    at every choice (the pure-Python search's values, one exact search a move), and the result read off it is the
    one the path without the batch plays out (a pure-Python search of the world alone, ``played_out``)."""
    from test_draw_worlds import FAMILIES, decision, decisions, draw_record, rules_of
    from test_principal_lines import line_by

    from analyzer.search import TreeSearch
    from analyzer.search.drawworlds import DrawWorlds

    variant = dict(FAMILIES)[family]
    rng = random.Random(f"fair-lines-{family}")
    checked = draws = records = flipped = 0
    while (checked < 20 or records < 2 or (family == "draw" and flipped < 3)) and records < 30:
        records += 1
        rep = draw_record(variant, rng, draws=1)
        leader = next(st.seat for st in rep.steps if st.move is not None and st.move.tile is not None)
        for k, seat, listed in decisions(rep):
            rules = rules_of(rep, seat)
            first = decision(rep, k, seat, listed[0])[0]
            worlds = [(tuple(decision(rep, k, seat, w)[0].hands), tuple(t.bit for t in w[1])) for w in listed[:6]]
            got = DrawWorlds(rules).lines(first, worlds)
            if got is None:             # (a move that blocks the hand at once: each world is searched alone)
                assert any(_blocks_at_once(first, m) for m in first.legal_moves())
                continue
            rows, lines = got
            assert rows == DrawWorlds(rules).values(first, worlds)
            for world, row, found in zip(listed, rows, lines):
                pos = decision(rep, k, seat, world)[0]
                reference = TreeSearch(rules, core="python")
                for (move, _), line in zip(row, found):
                    pos.push(move)
                    pushed = 1
                    # (the ends as they lie, the higher first: the line plays them so, the search sorts them)
                    flipped += pos.ends is not None and pos.ends[0] > pos.ends[1] and line.ends_before is not None
                    try:
                        assert list(line.moves) == line_by(pos, rules.seating.teams, reference.values), \
                            (family, k, str(move))
                        for m, points in zip(line.moves, line.points):    # what each move scores, as the rules count
                            pos.push(m)
                            pushed += 1
                            play = variant.play
                            assert points == (play.points(play.ends_total(pos.line(), pos.ends))
                                              if m.is_play and play is not None else 0)
                    finally:
                        for _ in range(pushed):
                            pos.pop()
                    assert variant.hand_result(facts_after(variant, pos, [move, *line.moves], leader)) == \
                        played_out(HandRead(variant, leader), TreeSearch(rules, core="python"), pos, move, {})
                    # the facts read off the line, without playing it, are those hand_facts reads once it is played
                    assert drawn_facts(HandRead(variant, leader), pos, tuple(pos.hands), move, line) == \
                        facts_after(variant, pos, [move, *line.moves], leader)
                    checked += 1
                    draws += any(m.draw for m in line.moves)
    assert checked >= 20 and draws and (family != "draw" or flipped >= 3), (checked, draws, flipped)


def _blocks_at_once(pos, move) -> bool:
    """Whether ``move`` ends the hand at ``pos`` blocked, its player still holding tiles."""
    seat = pos.turn
    pos.push(move)
    try:
        return pos.outcome() is not None and bool(pos.hands[seat])
    finally:
        pos.pop()


def facts_after(variant, pos, moves, leader: int):
    """``hand_facts`` of the hand once ``moves`` are played at ``pos`` (left as it was), each play's points during
    play (where the variant scores so) counted as the rules count them off the whole line laid out."""
    play = variant.play
    points = [0] * variant.players
    for m in moves:
        seat = pos.turn
        pos.push(m)
        if play is not None and m.is_play:
            points[seat] += play.points(play.ends_total(pos.line(), pos.ends))
    try:
        end = pos.outcome()
        return hand_facts(pos, end.termination, end.seat, leader, tuple(points) if play is not None else None)
    finally:
        for _ in moves:
            pos.pop()


def _first_line_dropped(lines):
    """``WorldsSolver.lines`` as it is when the first alternative's line in the first world of a batch needed more
    positions than the node limit allows at one of its choices (the batch's values all known)."""
    def dropped(self, position, deals, only=None):
        got = lines(self, position, deals, only)
        if got is None:
            return None
        rows, found = got
        found = list(found)
        first = next((i for i, row in enumerate(found) if row), None)
        if first is not None:
            found[first] = [None] + list(found[first][1:])
        return rows, found
    return dropped


@built
def test_a_world_whose_line_is_past_the_node_limit_leaves_that_alternative_without_a_fair_mwc(monkeypatch):
    """A line the batch could not play to the end (past the node limit at one of its choices) gives that
    alternative no results over the worlds, so no fair MWC (``fair_chance``: the mean needs every world's result),
    though its fair values stand; every other alternative keeps the results it has with every line known."""
    rep = replay_record(parse((RECORDS / "match-whist.dom").read_text(encoding="utf-8"), "match-whist.dom"))[0]
    whole = _fair_results(rep, True, monkeypatch)
    with monkeypatch.context() as m:
        m.setattr(WorldsSolver, "lines", _first_line_dropped(WorldsSolver.lines))
        cut = fair_analyze(rep, analyze_replay(rep), settings=FairSettings(worlds=6, exact_below=30, results=True),
                           run=FairRun(workers=1))
    alternatives = [(d.index, a.move, a.fair) for d in cut.decisions if d.fair is not None for a in d.alternatives]
    assert [(k, move) for k, move, _ in alternatives] == [(k, move) for k, move, _ in whole]
    missing = 0
    for (_, _, fair), (*_, results) in zip(alternatives, whole):
        if fair.results is None:        # (``FairValue.results``: None where one world's result is not known)
            missing += 1
            assert fair.values and fair_chance(fair, None, lambda r: 0.5) is None
        else:
            assert fair.results == results
            assert fair_chance(fair, None, lambda r: 0.5) == pytest.approx(0.5)
    assert missing
