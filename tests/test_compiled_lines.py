"""The principal variation (``TreeSearch.best_line``) played in one compiled call once the position is in a compact
state: a layout with arms nobody draws to any more (``_arms.ArmSearch.line``), a draw game or All Fives with its
lead (``_draw.DrawSearch.line``, the code of the worlds' lines). The line must be the one the walk of the
positions gives (at each choice the FIRST best move in the order of ``legal_moves``), move for move, named as the
position names its moves (the arm a tile goes on, which of two equal ends). The references share nothing with
the compiled line: a plain minimax over ``legal_moves`` (``test_search.reference_values``: every line to its end,
the points scored during play counted), the pure-Python search's walk (core ``"python"``) and the compiled
search walking the line in Python as it did before (``_compiled_line`` switched off); and the node limit stops
the compiled line where it stops the walk."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.rules import find_variant
from analyzer.search import SearchLimit, TreeSearch
from analyzer.search.draw import DrawLine
from analyzer.search.core import arms_core, draw_core
from analyzer.search.draw import plays_runs
from analyzer.tiles import Tile
from conftest import RECORDS
from test_principal_lines import line_by, record_positions
from test_search import reference_values, rules_for, small_deal

built = pytest.mark.skipif(arms_core() is None or draw_core() is None,
                           reason="the compiled searches over arms and of draw games were not built (no C compiler)")

# (variant, options, tiles a seat, lead, boneyard or sleepers): small deals the plain minimax solves at once
ARMS = [
    ("french", {}, 4, Tile(0, 0), 0),                         # one seat against the rest, bad points
    ("cross", {"sleepers": "no"}, 4, Tile(5, 5), 0),
    ("cross", {}, 3, Tile(6, 6), 5),                          # the spinner filled from the sleepers first
    ("cross", {"set": "9", "sleepers": "no"}, 4, Tile(9, 9), 0),   # doubles branch: arms added on the way
]
DRAWS = [
    ("all-fives", {}, 3, Tile(5, 5), 5),                      # points during play, the opener's extra tile
    ("all-fives", {"draw": "no"}, 4, Tile(5, 5), 0),
    ("all-fives-threes", {"draw": "one", "count": "pub"}, 3, Tile(3, 3), 5),
    ("all-fives", {"players": "3"}, 3, Tile(5, 5), 4),
    ("draw", {"players": "2"}, 4, Tile(6, 6), 6),             # nothing scored during play: the ends sorted
    ("draw", {"players": "3", "draw": "one"}, 3, Tile(5, 5), 4),
    ("chiva", {"players": "3"}, 3, Tile(6, 6), 4),
]
# Hungarian: a player plays on while he can, the hand goes on after a player is out (the compact state's ``run``)
RUNS = [
    ("hungarian", {"players": "2"}, 5, Tile(6, 6), 0),
    ("hungarian", {"players": "3"}, 4, Tile(6, 6), 0),
    ("hungarian", {"players": "4"}, 3, Tile(6, 6), 0),
]


def walked(search: TreeSearch) -> TreeSearch:
    """``search`` walking every line in Python, as ``best_line`` did before it called the compiled line."""
    search._compiled_line = lambda pos, value, choice: None
    return search


def positional(rules) -> TreeSearch:
    """The pure-Python search walking the positions themselves, not the compact state of draw games (and runs)."""
    search = TreeSearch(rules, core="python")
    search.draw_state = False
    return search


def compact_position(case, seed: int, plies: int, grow: int = 0):
    """``(rules, position)``: a small deal of ``case`` (``grow`` more tiles a seat) played at random for ``plies``
    moves or more, on to a choice the compiled line takes (the next deal of the seed's where the hand ends first)."""
    name, options, size, lead, sleepers = case
    variant = find_variant(name, options)
    rng = random.Random(seed)
    while True:
        pos = small_deal(variant, rng, size + grow, lead, sleepers)
        rules = rules_for(variant, rng.randrange(variant.players) if variant.seating.sides > 2 else 0)
        search = TreeSearch(rules, core="compiled")
        k = 0
        while moves := pos.legal_moves():
            if k >= plies and len(moves) > 1 and search._compiled_line(pos, search.solve(pos), False) is not None:
                return rules, pos
            pos.push(rng.choice(moves))
            k += 1


def check_line(case, seed: int, plies: int, guess) -> None:
    rules, pos = compact_position(case, seed, plies)
    want = line_by(pos, rules.seating.teams, lambda at: list(reference_values(at, rules).items()))
    compiled = TreeSearch(rules, core="compiled")
    alone = compiled._compiled_line(pos, TreeSearch(rules).solve(pos), False)            # the compiled call alone
    drawn = isinstance(alone, DrawLine)
    assert (list(alone.moves) if drawn else alone) == want
    assert compiled.best_line(pos, guess) == want
    assert TreeSearch(rules, core="python").best_line(pos, guess) == want
    assert walked(TreeSearch(rules, core="compiled")).best_line(pos, guess) == want
    if case in DRAWS + RUNS:
        assert positional(rules).best_line(pos, guess) == want
    history = len(pos.history)
    for move in want:                       # a line of the position's own moves, to the end of the hand
        assert move in pos.legal_moves()
        pos.push(move)
    assert pos.outcome() is not None
    if drawn:               # a draw game's line also gives the ends as they lay before its last tile
        assert alone.ends_before == next(ends for move, _, ends, *_ in reversed(pos.history) if move.tile is not None)
    while len(pos.history) > history:
        pos.pop()


@built
@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(ARMS), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 6),
       guess=st.none() | st.integers(-60, 60))
def test_the_compiled_line_over_arms_is_the_plain_minimax_line_and_the_walks(case, seed, plies, guess):
    check_line(case, seed, plies, guess)


@built
@settings(max_examples=50, deadline=None)
@given(case=st.sampled_from(DRAWS), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 6),
       guess=st.none() | st.integers(-60, 60))
def test_the_compiled_line_of_draw_games_is_the_plain_minimax_line_and_the_walks(case, seed, plies, guess):
    check_line(case, seed, plies, guess)


@built
@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(RUNS), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 8),
       guess=st.none() | st.integers(-60, 60))
def test_the_compiled_line_of_hungarian_is_the_plain_minimax_line_and_the_walks(case, seed, plies, guess):
    """Hungarian's line from a choice after the lead: a player's run goes on at once after each of his tiles that
    leaves him a fitting one, the passes of those who cannot play (a player out among them) are its moves."""
    check_line(case, seed, plies, guess)


def least_limit(make, pos) -> int:
    """The smallest node limit under which ``make(limit).best_line(pos)`` gives its line."""
    lo, hi = 0, 1
    while True:
        try:
            make(hi).best_line(pos)
            break
        except SearchLimit:
            lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        try:
            make(mid).best_line(pos)
            hi = mid
        except SearchLimit:
            lo = mid
    return hi


@built
@pytest.mark.parametrize("case", [DRAWS[0], DRAWS[4], ARMS[0], ARMS[3], RUNS[1]], ids=lambda c: f"{c[0]}-{len(c[1])}")
def test_the_node_limit_stops_the_compiled_line_where_it_stops_the_walk(case):
    """Each choice's probes count against the node limit as the walk counts them (the first choice's with the
    search of the value), so the least limit that lets the line through is the walk's."""
    checked = 0
    for seed in range(6):
        rules, pos = compact_position(case, seed, 1, 2)
        least = least_limit(lambda limit: TreeSearch(rules, node_limit=limit, core="compiled"), pos)
        assert least == least_limit(lambda limit: walked(TreeSearch(rules, node_limit=limit, core="compiled")), pos)
        with pytest.raises(SearchLimit):
            TreeSearch(rules, node_limit=least - 1, core="compiled").best_line(pos)
        checked += least > 1
    assert checked >= 4


@built
@pytest.mark.parametrize("record,slow", [("match-french.dom", 0), ("match-all-fives-4.dom", 10),
                                         ("match-all-fives-threes-3.dom", 10), ("variant-cross.dom", 6),
                                         ("variant-draw.dom", 10), ("match-hungarian-3.dom", 10),
                                         ("variant-hungarian.dom", 10)])
def test_the_records_lines_are_the_same_compiled_walked_and_in_python(record, slow):
    """Along the first positions of the line played of a record's games, from each position and after each of its
    moves, the compiled line is the walk's, and on the first ``slow`` positions (the pure-Python search is slow)
    the pure-Python search's."""
    checked = 0
    searches: dict = {}
    for k, (rep, pos) in enumerate(record_positions(RECORDS / record, 10)):
        v = rep.variant
        rules = rules_for(v, pos.turn if v.seating.sides > 2 else 0)
        key = (id(rep), pos.turn if v.seating.sides > 2 else 0)
        if key not in searches:
            searches[key] = [TreeSearch(rules, core="compiled"), walked(TreeSearch(rules, core="compiled")),
                             TreeSearch(rules, core="python"), positional(rules)]
        fast, walk, python, general = searches[key]
        for move in [None] + pos.legal_moves():
            if move is not None:
                pos.push(move)
            try:
                if pos.outcome() is None:
                    line = fast.best_line(pos)
                    assert line == walk.best_line(pos), (record, [str(m) for m, *_ in pos.history])
                    if k < slow:
                        assert line == python.best_line(pos), (record, [str(m) for m, *_ in pos.history])
                    if k < slow and plays_runs(rules):      # (Hungarian: the walk of the positions is quick)
                        assert line == general.best_line(pos), (record, [str(m) for m, *_ in pos.history])
                    checked += 1
            finally:
                if move is not None:
                    pos.pop()
    assert checked >= 10
