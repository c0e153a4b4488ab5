"""Domino Whist §8, exposed tiles, in the legality judge: the position's moves, the searches' values
and the replay's diagnostics all follow the rule (seed 001's rules on seed 000's example deal).

"Wird im Zuge der Aufnahme der Steine oder während des Spiels ein Stein aufgedeckt, so muss dieser
Stein offen auf dem Tisch liegen bleiben und bei der ersten Gelegenheit, bei der er regelgerecht
angelegt werden kann, gespielt werden."
"""
import random

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.analysis import analyze_replay
from analyzer.match import random_match, replay_record
from analyzer.notation import parse, read
from analyzer.position import tiles_of
from analyzer.rules import find_variant
from analyzer.rules.judge import Judge
from analyzer.rules.policies import HandFacts
from analyzer.search import SearchLimit, TreeSearch
from conftest import SEED_DEAL
from test_judge import judged_moves, positions
from analyzer.analysis import AnalysisSettings
from analyzer.search.core import SearchBudget

# the example game to the start of row 4; the open ends are then 1 and 4, A to move
ROWS_1_3 = "1. B [1-1] C pass D [1-5]\n2. A [1-4] B pass C [4-5]@5 D [0-4]\n3. A [0-5] B pass C [2-5] D [1-2]\n"


def whist(tags: str, moves: str):
    (rep,) = replay_record(parse(f'[Variant "whist"]\n[Players "A, B, C, D"]\n[Lead "B"]\n{tags}\n{SEED_DEAL}\n'
                                 f'{moves}'))
    return rep


def minimax(pos, variant, memo: dict) -> int:
    """The value of ``pos`` for A/C by plain minimax over ``legal_moves()`` (memoised, nothing else)."""
    outcome = pos.outcome()
    if outcome is not None:
        last = next(h for h in reversed(pos.history) if h[0].tile is not None)
        leader = next(seat for move, seat, *_ in pos.history if move.tile is not None)
        n = pos.n
        return variant.value(HandFacts(outcome.termination, outcome.seat, tuple(pos.pips(s) for s in range(n)),
                                       tuple(pos.count(s) for s in range(n)), leader, hands=tuple(pos.hands),
                                       last_tile=last[0].tile, ends_before=last[2]))
    key = pos.key()
    if key not in memo:
        values = []
        for move in pos.legal_moves():
            pos.push(move)
            values.append(minimax(pos, variant, memo))
            pos.pop()
        memo[key] = (max if variant.seating.teams[pos.turn] == 0 else min)(values)
    return memo[key]


def move_values(pos, variant, memo: dict) -> list:
    """Every legal move of ``pos`` and its value for A/C by :func:`minimax`, in the order of ``legal_moves()``."""
    out = []
    for move in pos.legal_moves():
        pos.push(move)
        out.append((move, minimax(pos, variant, memo)))
        pos.pop()
    return out


def test_an_exposed_tile_that_fits_is_the_only_legal_play_and_binds_once():
    # C's [4-6] lies open from row 4; in row 4 A [4-4] B [0-1] leave the ends 0 and 4: C must play it
    rep = whist('[Exposed "C [4-6] from 4"]', ROWS_1_3 + "4. A [4-4] B [0-1]")
    pos = rep.position_at(len(rep.steps))
    assert pos.turn == 2 and pos.exposed and pos.due(2) == pos.exposed
    assert {str(m) for m in pos.legal_moves()} == {"[4-6]@4"}
    pos.push(pos.legal_moves()[0])
    assert not pos.exposed
    # at the lead the leader's exposed tile is his only lead (the lead is its first chance)
    rep = whist('[Exposed "B [2-3]"]', "")
    assert [str(m) for m in rep.initial.legal_moves()] == ["[2-3]"]
    # a tile that does not fit waits and leaves its holder free: B's [0-0] on the ends 1 and 4
    rep = whist('[Exposed "B [0-0] from 4"]', ROWS_1_3 + "4. A [4-4]")
    pos = rep.position_at(len(rep.steps))
    assert pos.turn == 1 and pos.exposed == tiles_of(pos.hands[1], 6)[0].bit
    assert len(pos.legal_moves()) == 2


def test_positions_with_exposed_tiles_generate_exactly_the_moves_the_judge_accepts():
    """test_judge's check, on every position of random Domino Whist games with random tiles exposed."""
    rng = random.Random(5)
    variant = find_variant("whist")
    checked = forced = 0
    for rep in replay_record(random_match(variant, 3, games=3)):
        judge = Judge(rep.variant, rep.players)
        for pos in positions(rep):
            held = [t for s in range(pos.n) for t in tiles_of(pos.hands[s], pos.max_pip)]
            pos.reveal = ()
            pos.expose(sum(t.bit for t in rng.sample(held, min(len(held), rng.randint(1, 3)))))
            moves = set(pos.legal_moves())
            assert moves == judged_moves(judge, pos), pos
            checked += 1
            forced += moves != set(pos.plays() or [])
    assert checked > 40 and forced > 5


def test_the_analysis_values_the_moves_the_exposed_tile_leaves_and_the_rule_matters():
    """From the moment C's tile lies open, the analysis gives the values of a plain minimax over the
    position's legal moves, and (for some tiles) other values than without the exposure."""
    variant = find_variant("whist")
    moves = ROWS_1_3 + "4. A [4-4]"
    plain = analyze_replay(whist("", moves))
    changed = 0
    for tag in ('[Exposed "C [4-6] from 4"]', '[Exposed "C [2-4] from 4"]', '[Exposed "B [1-6] from 4"]'):
        rep = whist(tag, moves)
        out = analyze_replay(rep)
        assert rep.valid and out.stopped is None
        memo: dict = {}
        last = len(rep.steps)
        for k in (last - 1, last):          # before A [4-4] (the tile lies open from row 4), and after it
            assert out.values[k] == minimax(rep.position_at(k), variant, memo), (tag, k)
        (decision,) = [d for d in out.decisions if d.index == last - 1]     # A's choice in row 4
        pos = rep.position_at(last - 1)
        for alt, move in zip(decision.alternatives, pos.legal_moves()):
            pos.push(move)
            assert alt.value == minimax(pos, variant, memo), (tag, alt)
            pos.pop()
        # the exposed tiles are part of the transposition key: one search, the same hands and ends
        search = TreeSearch(variant)
        search.solve(whist("", moves).position_at(last))
        assert search.solve(rep.position_at(last)) == out.values[last]
        changed += out.values[last - 1:] != plain.values[last - 1:]
        assert out.values[:last - 1] == plain.values[:last - 1]     # before row 4 nobody knew of it
    assert changed == 3


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6), st.integers(0, 20))
def test_push_and_pop_restore_the_exposed_tiles_exactly(seed, exposed, depth):
    rng = random.Random(seed)
    rep = whist("", "")
    pos = rep.initial.copy()
    held = [t for s in range(pos.n) for t in tiles_of(pos.hands[s], pos.max_pip)]
    pos.reveal = ((rng.randint(1, 8), rng.choice(held).bit),)      # and one exposed during play
    pos.expose(sum(t.bit for t in rng.sample(held, exposed)))
    seen = []
    while len(seen) < depth and pos.legal_moves():
        seen.append((pos.key(), pos.exposed))
        pos.push(rng.choice(pos.legal_moves()))
    while seen:
        pos.pop()
        assert (pos.key(), pos.exposed) == seen.pop()


def test_an_exposed_tile_not_played_at_its_first_chance_is_one_error_at_that_move(tmp_path):
    path = tmp_path / "exposed.dom"
    path.write_text(f'[Variant "whist"]\n[Players "A, B, C, D"]\n[Lead "B"]\n[Exposed "C [4-6] from 4"]\n'
                    f'{SEED_DEAL}\n{ROWS_1_3}4. A [4-4] B [0-1] C [0-2] D pass\n5. A [2-2] B [2-6] C [3-6]\n')
    lines = path.read_text().splitlines()
    line = next(k for k, text in enumerate(lines, 1) if text.startswith("4. "))
    column = lines[line - 1].index("[0-2]") + 1            # C's entry: where the tile is written
    (rep,) = replay_record(read(path))
    (err,) = rep.errors
    assert err.code == "exposed-tile" and (err.line, err.column) == (line, column)
    assert str(err).startswith(f"{path}:{line}:{column}: error[exposed-tile] C's [4-6] is exposed")
    assert "must be played now, not [0-2]" in err.message and "Aufgedeckte Steine" in err.message
    # the replay goes on: in row 5 C's [4-6] (its chance has passed) binds no longer
    assert [s.move is not None for s in rep.steps] == [True] * len(rep.steps)
    # nothing else is wrong (C's [4-6] for his [0-2] would break D's pass): the repair leaves the
    # irregularity as it stands and says why (tests/test_repair_exposed.py)
    from click.testing import CliRunner
    from analyzer.cli import main

    out = CliRunner().invoke(main, ["validate", "--repair", str(path)]).output
    assert "irregularity of play, not as a slip of the pen" in out and "likely slip" not in out
    assert "no edit of the moves or the deal can help" not in out and "Traceback" not in out


def test_the_node_limit_bounds_the_positions_of_a_decision_under_an_exposed_tile():
    """--max-nodes bounds the positions of one decision's values while an exposed tile lies open: the int
    solver searches them (it knows exposed tiles) and counts each one against the limit."""
    from analyzer.analysis import searcher_for

    rep = whist('[Exposed "C [4-6] from 4"]', ROWS_1_3 + "4. A [4-4]")
    pos = rep.position_at(len(rep.steps) - 1)
    assert pos.exposed
    search = searcher_for(rep.variant, True, None)
    values = search.values(pos)
    assert search.nodes > 2
    assert searcher_for(rep.variant, True, search.nodes).values(pos) == values
    with pytest.raises(SearchLimit):
        searcher_for(rep.variant, True, search.nodes - 1).values(pos)
    assert "node limit" in analyze_replay(rep, AnalysisSettings(budget=SearchBudget(search.nodes - 1))).stopped
