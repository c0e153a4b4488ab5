"""The ends of principal variations found in one compiled call (``DrawSearch.ends``, ``search.block.principal_end``),
and the match scale's results read off them (``analysis.outcomes``), against the lines played out move by move."""
from __future__ import annotations

import pytest

from analyzer.analysis import analyze_replay, hand_value, searches_for, start_position
from analyzer.analysis import outcomes
from analyzer.analysis.outcomes import hand_leader, principal_results
from analyzer.generate import random_game
from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.replay import replay
from analyzer.rules import find_variant
from analyzer.search.block import Solver, principal_end, principal_ends, principal_line
from analyzer.search.core import SearchBudget, compiled_core, draw_core
from analyzer.search.draw import draw_deal, ends_at, last_play
from conftest import RECORDS

needs_draw_core = pytest.mark.skipif(draw_core() is None, reason="the compiled draw search was not built")


def _games(record: str | None, variant: str | None, seed: int = 0) -> list:
    if record is not None:
        return [rep for rep in replay_record(parse((RECORDS / record).read_text(encoding="utf-8")))
                if outcomes.needs_results(rep.variant)]
    v = find_variant(variant)
    return [replay(random_game(v, seed), v)]


def _played_out(monkeypatch, rep, analysis):
    """The reference: every line's value searched and the line played out move by move (``played_out``), the
    line played's result at each step too (none taken from the next step's or from an alternative's), as under a
    node limit (one no line reaches)."""
    with monkeypatch.context() as m:
        m.setattr(outcomes, "_trusted", lambda *args: None)
        return principal_results(rep, analysis, SearchBudget(node_limit=10 ** 12))


@pytest.mark.parametrize("record, variant, seed", [
    ("match-hungarian-4.dom", None, 0), ("match-hungarian-3.dom", None, 0), ("variant-hungarian.dom", None, 0),
    # a forced play whose points the record does not claim (the line from before it claims them): not the next line
    ("match-all-fives-threes-3.dom", None, 0), ("variant-pub-fives-threes.dom", None, 0),
    ("variant-all-fives-equal-ends.dom", None, 0), ("match-whist.dom", None, 0), ("whist-false-play.dom", None, 0),
    ("match-whist-five.dom", None, 0),
    (None, "all-fives", 1), (None, "all-fives", 2), (None, "whist", 1), (None, "hungarian", 3)])
def test_each_result_read_off_a_lines_end_is_the_one_of_the_line_played_out(monkeypatch, record, variant, seed):
    reads = {"draw": 0, "dealt": 0}

    def counted(name, f):
        def spy(*args):
            got = f(*args)
            reads[name] += got is not None and got is not False
            return got
        return spy

    monkeypatch.setattr(outcomes, "ends_at", counted("draw", ends_at))
    monkeypatch.setattr(outcomes, "principal_end", counted("dealt", principal_end))
    games = _games(record, variant, seed)
    assert games
    for rep in games:
        searches = searches_for(rep.variant)
        analysis = analyze_replay(rep, searches=searches)
        fast = principal_results(rep, analysis, searches=searches)
        assert fast == _played_out(monkeypatch, rep, analysis)
        assert all(r is not None for r in fast.line) and all(r is not None for row in fast.alternatives for r in row)
    assert reads["draw"] + reads["dealt"] > 0           # (the ends were read, not only played out)


def _compact_positions(rep):
    """Each position of ``rep``'s line played where its deal is searched in the compact state."""
    pos, _ = start_position(rep, rep.legal_prefix)
    for step in rep.steps[:rep.legal_prefix]:
        if step.seat is not None and pos.outcome() is None:
            pos.turn = step.seat
        if pos.outcome() is None and pos.ends is not None:
            yield pos
        if step.move is not None:
            pos.push(step.move)


def _end_of(pos, line, deal) -> tuple:
    """Where ``line`` (a ``DrawLine`` from ``pos``) ends, as ``DrawSearch.ends`` gives it, read off its steps."""
    hands, points = list(pos.hands), [0] * len(pos.hands)
    seat, bit, before = last_play(pos)
    last = (seat, bit.bit_length() - 1)
    for s, t, end, _, scored in line.steps:
        if t >= 0 and end == -2:
            hands[s] |= 1 << t
        elif t >= 0:
            hands[s] &= ~(1 << t)
            points[s] += scored
            last = (s, t)
    bl, br = line.ends_before if line.ends_before is not None else (-1, -1)
    return (*hands, *last, bl, br, *points)


@needs_draw_core
@pytest.mark.parametrize("record", ["match-hungarian-4.dom", "match-all-fives-threes-3.dom", "variant-all-fives.dom"])
def test_the_compiled_end_of_a_line_is_where_its_steps_lead(record):
    """``DrawSearch.ends`` against ``DrawSearch.line`` (itself checked against the Python search): from every
    position of the record, and after every move of it, each at its searched value; a value one off finds no
    line or one whose end the caller then refuses."""
    rep = _games(record, None)[0]
    v = rep.variant
    searches = searches_for(v)
    checked = refused = 0
    for pos in _compact_positions(rep):
        search = searches[0 if v.seating.sides == 2 else pos.turn]
        deal = draw_deal(search, pos)
        value = search.solve(pos)
        assert deal.ends(pos, value, None) == _end_of(pos, deal.line(pos, value, 0), deal)
        legal = pos.legal_moves()
        if any(m.tile is None or m.draw for m in legal):
            continue                # (a draw or a pass to come: no choice of the core's)
        values, wanted = [], []
        for move in legal:
            seat, own = pos.turn, 0
            pos.push(move)
            if v.play is not None and move.is_play:
                own = v.play.points(v.play.ends_total(pos.line_ends(), pos.ends))
            signed = own if search.rules.seating.teams[seat] == 0 else -own
            if pos.outcome() is None and pos.ends is not None:
                after = search.solve(pos)
                end = list(_end_of(pos, deal.line(pos, after, 0), deal))
                end[v.players + 4 + seat] += own      # (the move's own points are its player's)
                values.append(after + signed)
                wanted.append(tuple(end))
            else:
                values.append(None)
                wanted.append(None)
            pos.pop()
        assert deal.ends(pos, 0, values) == wanted
        checked += 1
        ends = outcomes._Ends(v, hand_leader(rep), pos)
        for claimed in (value + 1, value - 1):
            got = ends.line(search, pos, claimed, None)
            refused += got is None
            assert got is None or hand_value(v, got, getattr(search.rules, "seat", 0)) == claimed
        with pytest.raises(ValueError):
            deal.ends(pos, 0, values + [0])         # one value a move the position offers
    assert checked > 5 and refused


def _line_end(v, pos) -> tuple:
    """Where ``principal_line`` from ``pos`` (a solver of its own: the value searched) ends, as ``principal_end``
    gives it: each seat's tiles, the last tile's player and index, the ends before it."""
    line = principal_line(Solver(v), pos)
    hands = list(pos.hands)
    for m, s in zip(line.moves, line.seats):
        if m.tile is not None:
            hands[s] &= ~m.tile.bit
    last = next((s, m.tile.index) for m, s in zip(reversed(line.moves), reversed(line.seats)) if m.tile is not None)
    return (tuple(hands), *last, line.ends_before)


@pytest.mark.skipif(compiled_core() is None, reason="the compiled block search was not built")
def test_a_dealt_games_compiled_end_is_where_its_principal_variation_leads():
    """``principal_end`` (the line in one compiled call at the value given) against ``principal_line`` (its value
    searched first): the same last tile, ends before it and hands, from every position of a Whist match where the
    mover can play; ``principal_ends`` (after every move at once, a pass to come or not) as ``principal_line``
    from each position a move leaves; a value one off is refused by the results read off it."""
    rep = _games("match-whist.dom", None)[0]
    v = rep.variant
    solver = Solver(v)
    leader = hand_leader(rep)
    checked = refused = batched = 0
    for pos in _compact_positions(rep):
        if not pos.playable_mask(pos.turn):
            continue
        value = solver.solve(pos)
        assert principal_end(solver, pos, value) == _line_end(v, pos)
        checked += 1
        values, wanted = [], []
        for move in pos.legal_moves():
            pos.push(move)
            over = pos.outcome() is not None
            values.append(None if over else solver.solve(pos))
            wanted.append(None if over else _line_end(v, pos))
            pos.pop()
        assert principal_ends(solver, pos, values) == wanted
        batched += len(values) > 1
        ends = outcomes._Ends(v, leader, pos)
        assert ends.line(solver, pos, value, None) is not None
        for claimed in (value + 1, value - 1):
            got = ends.line(solver, pos, claimed, None)
            refused += got is None
            assert got is None or hand_value(v, got, 0) == claimed
    assert checked > 10 and refused and batched > 5
