"""The general exact search (``analyzer.search``) against a plain minimax, and the analysis of the
games it plays: layouts with arms, draw games, Hungarian runs, All Fives and the strict block game.

The reference below walks the position itself (``legal_moves``/``push``/``pop``/``outcome``, the
rules the replayer checks records with) with no table, no pruning, no move order and no compiled
state; the search keeps its own compiled state for layouts with arms (``_ArmDeal``), so the two
share only the rules of what is legal."""
from __future__ import annotations

import random

import pytest

from analyzer.analysis import AgainstTheRest, analyze_replay
from analyzer.notation import parse, read
from analyzer.position import mask_of
from analyzer.match import replay_record
from analyzer.rules import HandFacts, find_variant
from analyzer.rules.mechanics import position_for
from analyzer.search import NO_EXTRA, SearchLimit, TreeSearch, revealed
from analyzer.search.block import Solver
from analyzer.tiles import Move, Tile, tile_set
from conftest import RECORDS
from analyzer.analysis import AnalysisSettings
from analyzer.search.core import SearchBudget


def reference(pos, rules) -> int:
    """The minimax value of ``pos`` for side 0: every line to its end, points scored in play included."""
    outcome = pos.outcome()
    if outcome is not None:
        n = pos.n
        plays = [(m, s, ends) for m, s, ends, *_ in pos.history if m.tile is not None]
        facts = HandFacts(outcome.termination, outcome.seat, tuple(pos.pips(s) for s in range(n)),
                          tuple(pos.count(s) for s in range(n)), plays[0][1], hands=tuple(pos.hands),
                          last_tile=plays[-1][0].tile, ends_before=plays[-1][2])
        return rules.value(facts)
    values = [gain + rest for gain, rest in _children(pos, rules)]
    return max(values) if rules.seating.teams[pos.turn] == 0 else min(values)


def _children(pos, rules) -> list[tuple[int, int]]:
    """``(points scored at once, value after)`` for every legal move."""
    out = []
    for move in pos.legal_moves():
        seat = pos.turn
        pos.push(move)
        gain = 0
        play = getattr(rules, "play", None)
        if play is not None and move.is_play:
            points = play.points(play.ends_total(pos.line(), pos.ends))
            gain = points if rules.seating.teams[seat] == 0 else -points
        out.append((gain, reference(pos, rules)))
        pos.pop()
    return out


def reference_values(pos, rules) -> dict[Move, int]:
    return {move: gain + rest for move, (gain, rest) in zip(pos.legal_moves(), _children(pos, rules))}


def dealt(variant, rng, size: int, lead: Tile, sleepers: int = 0):
    """``(position, boneyard)``: ``size`` random tiles a seat, seat 0 also holding ``lead``, before the
    lead; ``sleepers`` more tiles form the boneyard, in a random order."""
    tiles = [t for t in tile_set(variant.dealing.max_pip) if t != lead]
    rng.shuffle(tiles)
    n = variant.players
    hands = [tiles[i * size:(i + 1) * size] for i in range(n)]
    hands[0].append(lead)
    pos = position_for(variant, hands, 0, max_pip=variant.dealing.max_pip)
    yard = tiles[n * size:n * size + sleepers]
    pos.pool = mask_of(yard)
    if pos.draws:
        pos.stock = len(yard)
        pos.keep = min(pos.keep, len(yard))
    return pos, yard


def small_deal(variant, rng, size: int, lead: Tile, sleepers: int = 0):
    """A position of ``variant`` with ``size`` random tiles a seat, seat 0 having led ``lead``;
    ``sleepers`` more tiles form the boneyard, drawn in a random order."""
    pos, yard = dealt(variant, rng, size, lead, sleepers)
    if pos.draws:
        pos = revealed(pos, yard)
    pos.push(Move(lead, None))
    return pos


def rules_for(variant, seat: int = 0):
    return variant if variant.seating.sides == 2 else AgainstTheRest(variant, seat)


def check(pos, rules, depth: int, rng) -> int:
    """The search's values equal the reference's at ``pos`` and along a random line; the positions checked."""
    checked = 0
    line = []
    for _ in range(depth):
        if pos.outcome() is not None:
            break
        got = dict(TreeSearch(rules).values(pos))
        assert got == reference_values(pos, rules), pos
        assert TreeSearch(rules).solve(pos) == reference(pos, rules)
        checked += 1
        move = rng.choice(pos.legal_moves())
        pos.push(move)
        line.append(move)
    for _ in line:
        pos.pop()
    return checked


CASES = [
    # (variant, options, tiles a seat, lead, sleepers)
    ("french", {}, 3, Tile(0, 0), 0),
    ("cross", {"sleepers": "no"}, 3, Tile(5, 5), 0),
    ("cross", {}, 2, Tile(6, 6), 5),
    ("cross", {"set": "9", "sleepers": "no"}, 3, Tile(9, 9), 0),
    ("cross", {"set": "9"}, 2, Tile(7, 7), 6),
    ("draw", {"players": "2"}, 4, Tile(6, 6), 6),
    ("draw", {"players": "3", "draw": "one"}, 3, Tile(5, 5), 4),
    ("hungarian", {"players": "2"}, 4, Tile(3, 4), 0),
    ("hungarian", {"players": "3"}, 3, Tile(6, 6), 0),
    ("all-fives", {"draw": "no"}, 4, Tile(5, 5), 0),
    ("all-fives-threes", {"draw": "one", "count": "pub"}, 3, Tile(3, 3), 5),
    ("block", {"out": "pair"}, 3, Tile(6, 6), 0),
]


@pytest.mark.parametrize("name,options,size,lead,sleepers", CASES,
                         ids=[f"{c[0]}-{'-'.join(f'{k}={v}' for k, v in c[1].items())}" for c in CASES])
def test_the_search_agrees_with_plain_minimax(name, options, size, lead, sleepers):
    variant = find_variant(name, options)
    rng = random.Random(f"{name}{options}")
    checked = 0
    for deal in range(6):
        for seat in range(variant.players if variant.seating.sides > 2 else 1):
            pos = small_deal(variant, rng, size, lead, sleepers)
            checked += check(pos, rules_for(variant, seat), 3, rng)
    assert checked >= 6


def test_the_general_search_agrees_with_the_int_solver_on_the_block_game():
    variant = find_variant("partnership")
    rng = random.Random(7)
    for _ in range(8):
        pos = small_deal(variant, rng, 4, Tile(rng.randrange(7), 6))
        assert dict(TreeSearch(variant).values(pos)) == dict(Solver(variant).values(pos))


def test_a_draw_takes_the_next_tile_of_the_revealed_order():
    variant = find_variant("draw", {"players": "2"})
    hands = [[Tile(6, 6), Tile(0, 1)], [Tile(2, 3), Tile(2, 4)]]
    pos = position_for(variant, hands, 0)
    yard = [Tile(1, 1), Tile(3, 5), Tile(0, 6), Tile(4, 4), Tile(5, 5)]
    pos.pool, pos.stock = mask_of(yard), len(yard)
    pos = revealed(pos, yard)
    pos.push(Move(Tile(6, 6), None))
    # "darf, wenn er einen passenden hat, auch diesen anlegen": A holds no 6, so no extra tile
    assert pos.turn == 1 and pos.legal_moves() == [Move(Tile(1, 1), None, True)]
    pos.push(pos.legal_moves()[0])
    assert pos.legal_moves() == [Move(Tile(3, 5), None, True)]
    pos.push(pos.legal_moves()[0])
    assert pos.legal_moves() == [Move(Tile(0, 6), None, True)]     # B must draw until he can play
    pos.push(pos.legal_moves()[0])
    assert pos.legal_moves() == [Move(Tile(0, 6), 6)]


def test_the_opener_may_add_a_tile_or_not():
    # "Er legt diesen Stein offen aus und darf, wenn er einen passenden hat, auch diesen anlegen."
    variant = find_variant("draw", {"players": "2"})
    hands = [[Tile(6, 6), Tile(1, 6), Tile(0, 0)], [Tile(2, 3), Tile(2, 4), Tile(3, 3)]]
    pos = position_for(variant, hands, 0)
    yard = [Tile(1, 1), Tile(3, 5), Tile(4, 5)]
    pos.pool, pos.stock, pos.keep = mask_of(yard), len(yard), 0
    pos = revealed(pos, yard)
    pos.push(Move(Tile(6, 6), None))
    assert pos.turn == 0 and pos.legal_moves() == [Move(Tile(1, 6), 6), NO_EXTRA]
    values = dict(TreeSearch(variant).values(pos))
    assert values == reference_values(pos, variant)
    pos.push(NO_EXTRA)
    assert pos.turn == 1
    assert pos.pop() == NO_EXTRA and pos.turn == 0 and pos.legal_moves()[-1] == NO_EXTRA


def test_push_and_pop_of_the_revealed_positions_are_exact():
    rng = random.Random(3)
    for name, options, size, lead, sleepers in CASES:
        variant = find_variant(name, options)
        pos = small_deal(variant, rng, size, lead, sleepers)
        start = (pos.key(), repr(pos))
        line = []
        while (moves := pos.legal_moves()):
            move = rng.choice(moves)
            pos.push(move)
            line.append(move)
        for move in reversed(line):
            assert pos.pop() == move
        assert (pos.key(), repr(pos)) == start


def test_the_node_limit_stops_the_search_cleanly():
    (rep,) = replay_record(read(RECORDS / "variant-cross-sleepers-no.dom"))
    search = TreeSearch(rep.variant, node_limit=50)
    with pytest.raises(SearchLimit):
        search.solve(rep.initial.copy())


# -- the analysis of the records ----------------------------------------------------------------------
def late_reference(rep, analysis, rules_of, from_step: int):
    """Check every decision from step ``from_step`` on against the reference."""
    pos = analysis_start(rep)
    checked = 0
    decisions = {d.index: d for d in analysis.decisions}
    for step in rep.steps[:rep.legal_prefix]:
        if pos.outcome() is not None:
            break
        if step.move is None:           # a Muggins call
            continue
        if getattr(pos, "offer", -1) >= 0 and not (step.seat == pos.offer and step.move.is_play):
            pos.push(NO_EXTRA)
        d = decisions.get(step.index)
        if d is not None and step.index >= from_step and d.played != "no extra tile":
            ref = reference_values(pos, rules_of(pos.turn))
            scored = d.played_value - ref[step.move]
            assert {a.move: a.value for a in d.alternatives} == {str(m): v + scored for m, v in ref.items()}
            checked += 1
        pos.push(step.move)
    return checked


def analysis_start(rep):
    from analyzer.analysis import start_position
    return start_position(rep, rep.legal_prefix)[0]


@pytest.mark.parametrize("name,from_step", [("variant-cross.dom", 14), ("variant-cross-sleepers-no.dom", 8),
                                            ("variant-draw.dom", 14), ("variant-hungarian.dom", 8),
                                            ("variant-all-fives.dom", 0), ("variant-draw-003.dom", 4)])
def test_late_decisions_of_the_records_equal_plain_minimax(name, from_step):
    (rep, *_) = replay_record(read(RECORDS / name))
    result = analyze_replay(rep)
    assert result.stopped is None and result.analysed_steps == rep.legal_prefix
    variant = rep.variant

    def rules_of(seat):
        return rules_for(variant, seat)
    assert late_reference(rep, result, rules_of, from_step) >= 1


def test_the_last_value_is_the_result_the_record_states():
    # with the game played out, the value after the last move is what the hand scored (side 0)
    for name in ("variant-cross.dom", "variant-cross-sleepers-no.dom", "variant-draw.dom", "variant-all-fives.dom"):
        (rep, *_) = replay_record(read(RECORDS / name))
        assert rep.valid and rep.variant.seating.sides == 2      # the record's Result tag agrees
        result = analyze_replay(rep)
        assert result.values[-1] == rep.result.scores[0] - rep.result.scores[1], name


def test_the_analysis_says_what_it_assumes_for_a_draw_game():
    (rep,) = replay_record(read(RECORDS / "variant-draw.dom"))
    result = analyze_replay(rep)
    drawn = sum(1 for s in rep.steps if s.move is not None and s.move.draw)
    assert "order the record reveals" in result.note
    assert f"reveals {drawn} of the {rep.initial.stock} tiles" in result.note


def test_a_draw_the_record_does_not_name_stops_the_analysis():
    text = (RECORDS / "variant-draw.dom").read_text()
    first = text.index("draws [")
    end = text.index("]", first)
    (rep,) = replay_record(parse(text[:first] + "draws ?" + text[end + 1:], "x.dom"))
    result = analyze_replay(rep)
    assert not result.decisions and "does not name every tile drawn" in result.stopped


def test_the_command_stops_at_the_node_limit_and_says_so():
    from click.testing import CliRunner

    from analyzer.cli import main
    res = CliRunner().invoke(main, ["analyze", str(RECORDS / "variant-french.dom"), "--max-nodes", "1000"])
    assert res.exit_code == 0, res.output
    assert res.output.count("more than 1,000 positions") == 3        # three games, each stopped at the deal
    res = CliRunner().invoke(main, ["analyze", str(RECORDS / "variant-french.dom"), "--max-nodes", "0"])
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_the_report_says_what_the_values_assume():
    from analyzer.archive.task import report_model
    model = report_model(read(RECORDS / "variant-draw.dom"))
    (game,) = model.games
    assert "order the record reveals" in game.assumption
    model = report_model(read(RECORDS / "variant-hungarian.dom"))
    assert "against all the others" in model.games[0].assumption


def test_past_the_node_limit_the_later_values_are_still_given_and_exact():
    (rep,) = replay_record(read(RECORDS / "variant-cross.dom"))
    full = analyze_replay(rep)
    part = analyze_replay(rep, AnalysisSettings(budget=SearchBudget(3000)))
    assert part.values[0] is None and "node limit" in part.stopped and "the others are given" in part.stopped
    assert part.values[-1] == full.values[-1] and part.analysed_steps == full.analysed_steps
    # what is missing is at the start of the hand, where the searches are largest; every value given is exact
    assert all(v == full.values[k] for k, v in enumerate(part.values) if v is not None)
    first = next(k for k, v in enumerate(part.values) if v is not None)
    assert all(v is None for v in part.values[:first]) and all(v is not None for v in part.values[first:])
    given = {d.index: d for d in part.decisions if not d.unsolved}   # (the others: the moves valued, tested in test_core)
    assert 0 < len(given) < len(full.decisions)
    for d in full.decisions:
        if d.index in given:
            assert given[d.index] == d
    assert all(v is None or v == w for v, w in zip(part.values, full.values))


def test_the_openers_extra_tile_is_a_decision_valued_like_any_other():
    # 004: "Er legt diesen Stein offen aus und darf, wenn er einen passenden hat, auch diesen anlegen."
    from analyzer.match import random_match
    variant = find_variant("draw", {"players": "2"})
    seen = set()
    for seed in range(12):
        (rep,) = replay_record(random_match(variant, seed, games=1))
        pos = analysis_start(rep)
        pos.push(rep.steps[0].move)
        if pos.offer < 0:
            continue                     # the opener holds no tile for his double
        added = rep.steps[1].seat == pos.offer
        (decision,) = [d for d in analyze_replay(rep).decisions if d.index == (1 if added else 0)]
        # (the search itself is checked against the reference on small deals above)
        expected = {_text(m): v for m, v in TreeSearch(variant).values(pos)}
        assert {a.move: a.value for a in decision.alternatives} == expected
        assert decision.played == (str(rep.steps[1].move) if added else "no extra tile")
        seen.add(added)
        if len(seen) == 2:
            break
    assert seen == {True, False}


def _text(move: Move) -> str:
    return "no extra tile" if move == NO_EXTRA else str(move)
