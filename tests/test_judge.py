"""The one judge of legality (``analyzer.rules.judge``) against everything else that generates or checks
moves: the positions' move generators, both searches' alternatives and the repair search's lean
checker, on random legal games of every variant and option."""
import random

import pytest

from analyzer.analysis import AgainstTheRest
from analyzer.match import random_match, replay_record
from analyzer.record import MoveEntry
from analyzer.repair import first_error
from analyzer.replay import replay
from analyzer.rules import find_variant
from analyzer.rules.judge import Judge
from analyzer.search import Solver, TreeSearch
from analyzer.tiles import DRAW, PASS, Move, Tile
from test_conformance import CONFIGS

IDS = [f"{n}-{'-'.join(f'{k}={x}' for k, x in o.items())}" for n, o in CONFIGS]


def judged_moves(judge: Judge, pos) -> set[Move]:
    """Every move the judge accepts from the mover: each tile of the set, a pass, a draw."""
    seat = pos.turn
    out = set()
    for tile in pos.tiles:
        verdict = judge.entry(pos, tile, seat)
        if verdict.legal:
            out.update(verdict.moves)
    if judge.entry(pos, None, seat).legal:
        out.add(PASS)
    if judge.entry(pos, None, seat, draw=True).legal:
        out.add(DRAW)
    return out


def positions(rep):
    """Every position of a replayed game before a move, while the hand is on."""
    pos = rep.initial.copy()
    for step in rep.steps:
        if pos.outcome() is not None:
            return
        if step.move is None:            # a Muggins call: no move on the table
            continue
        if step.seat != pos.turn:        # the opener adding a matching tile out of turn
            pos.turn = step.seat
        else:
            yield pos.copy()
        pos.push(step.move)


@pytest.mark.parametrize("name,options", CONFIGS, ids=IDS)
def test_every_position_generates_exactly_the_moves_the_judge_accepts(name, options):
    variant = find_variant(name, options)
    checked = 0
    for seed in range(2):
        for rep in replay_record(random_match(variant, seed, games=2)):
            assert rep.valid, [str(d) for d in rep.errors]
            judge = Judge(rep.variant, rep.players)
            for pos in positions(rep):
                assert set(pos.legal_moves()) == judged_moves(judge, pos), pos
                checked += 1
    assert checked > 20


def test_the_searches_value_exactly_the_moves_the_judge_accepts():
    """The alternatives the int solver and the general search value at a decision are the judge's."""
    checked = 0
    for name in ("partnership", "whist", "cutthroat", "draw", "french", "hungarian", "all-fives"):
        variant = find_variant(name)
        for rep in replay_record(random_match(variant, 7, games=1)):
            judge = Judge(rep.variant, rep.players)
            late = list(positions(rep))[-6:]      # a few late decisions: cheap to solve exactly
            for pos in late:
                rules = (rep.variant if rep.variant.seating.sides == 2
                         else AgainstTheRest(rep.variant, pos.turn))      # individual players
                if rep.variant.search == "block" and rules is rep.variant:
                    values = Solver(rules).values(pos)
                else:
                    values = TreeSearch(rules).values(pos)
                expected = judged_moves(judge, pos)
                if len(expected) > 1:                # a decision (a forced move is not valued)
                    assert {m for m, _ in values} == expected
                    checked += 1
    assert checked >= 10


def _corrupt(game, rng: random.Random):
    """One move of ``game`` changed: a play to another tile or a pass, a pass to a tile."""
    moves = list(game.moves)
    i = rng.randrange(len(moves))
    m = moves[i]
    tiles = [Tile(a, b) for a in range(7) for b in range(a, 7)]
    new = rng.choice(tiles) if m.tile is None or rng.random() < 0.8 else None
    moves[i] = MoveEntry(m.player, new, None, m.pos, round=m.round)
    game = game.__class__(**{**game.__dict__, "moves": moves})
    return game


@pytest.mark.parametrize("name", ["partnership", "whist", "cutthroat", "draw", "all-fives", "french", "hungarian"])
def test_the_repair_checkers_agree_with_the_judged_replay(name):
    """The repair search checks moves on its own fast path (the lean bit-mask checker for two-ended
    games) or through the judge (every other game); either way a record is broken exactly when the
    replayer, whose every verdict is the judge's, finds an error."""
    rng = random.Random(name)
    variant = find_variant(name)
    broken = 0
    for seed in range(12):
        for game in random_match(variant, seed, games=1).games:
            for g in (game, _corrupt(game, rng)):
                index, _code = first_error(g, variant)
                rep = replay(g, variant)
                assert (index is None) == rep.valid, (seed, [str(d) for d in rep.errors])
                broken += not rep.valid
    assert broken >= 6
