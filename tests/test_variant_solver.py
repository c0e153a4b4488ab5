"""The solver under every variant's hand scoring, checked against the plain minimax on small deals.

Two-sided variants are searched as they are; games of individual players are searched for one
player against all the others (``AgainstTheRest``), and the plain minimax is given the same view."""
import random

import pytest

from analyzer.analysis import AgainstTheRest
from analyzer.position import Position
from analyzer.rules import find_variant
from analyzer.search.block import Solver
from minimax_reference import Reference

CASES = [
    ("partnership", {}), ("partnership", {"score": "all"}), ("partnership", {"divide": "10"}),
    ("partnership", {"blank": "50"}), ("partnership", {"system": "milo"}),
    ("partnership", {"capicu": "yes", "chuchazo": "any", "score": "all"}),
    ("partnership", {"chuchazo": "one-end"}),
    *[("partnership", {"tie": tie}) for tie in ("leader", "more-tiles", "last", "last-loses", "replay", "own-pips")],
    ("partnership", {"block": "last-or-right"}), ("partnership", {"system": "doscientos"}),
    ("partnership", {"system": "great-lakes-101"}), ("partnership", {"pass-bonus": "yes", "tie": "own-pips"}),
    ("partnership", {"pass-bonus": "yes"}), ("partnership", {"pass-bonus": "yes", "tie": "replay"}),
    ("partnership", {"pass-bonus": "yes", "system": "quinientos"}),
    ("partnership", {"divide": "10", "tie": "more-tiles"}), ("block", {"score": "difference"}),
    ("whist", {}), ("whist", {"score": "good"}), ("whist", {"score": "caribbean"}),
    ("jamaican", {}), ("chiva", {}), ("block", {}),
    ("cutthroat", {"players": "2"}), ("cutthroat", {"players": "3"}), ("cutthroat", {"players": "4"}),
]


def _deals(variant, rng, count):
    tiles = list(variant.dealing.tiles)
    for _ in range(count):
        rng.shuffle(tiles)
        size = rng.randint(3, 4)
        n = variant.players
        yield [sorted(tiles[i * size:(i + 1) * size]) for i in range(n)], rng.randrange(n)


@pytest.mark.parametrize("name,options", CASES, ids=lambda c: c if isinstance(c, str) else
                         ",".join(f"{k}={v}" for k, v in c.items()) or "default")
def test_solver_agrees_with_plain_minimax_under_the_variant(name, options):
    variant = find_variant(name, options)
    rng = random.Random(f"{name}{sorted(options.items())}")
    checked = 0
    for hands, leader in _deals(variant, rng, 25):
        views = ([variant] if variant.seating.sides == 2
                 else [AgainstTheRest(variant, seat) for seat in range(variant.players)])
        for view in views:
            checked += line_agrees_with_minimax(Solver(view), view, hands, leader, rng)
    assert checked > 50


def line_agrees_with_minimax(solver, view, hands, leader: int, rng) -> int:
    """Along a random line of the deal, ``solver`` gives every alternative the plain minimax's value
    under ``view`` (with the pass bonuses paid on the way to it); the decisions checked."""
    ref = Reference(view, [[(t.low, t.high) for t in h] for h in hands], leader)
    max_pip = getattr(view, "variant", view).dealing.max_pip          # (AgainstTheRest: its variant's set)
    pos, line = Position(hands, leader, max_pip=max_pip), []
    checked = 0
    while (moves := pos.legal_moves()):
        state, path, paid = ref.replay(line)
        want = {move: paid + value for move, value in ref.alternatives(state, path).items()}
        assert dict(solver.values(pos)) == want, (hands, leader, pos.history)
        assert solver.solve(pos) == paid + ref.value(state, path), (hands, leader, pos.history)
        checked += 1
        move = rng.choice(moves)
        pos.push(move)
        line.append(move)
        if pos.outcome() is not None:
            break
    return checked
