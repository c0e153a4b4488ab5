"""``Position.line_ends``: the first and last tiles of the line, found from the last moves back, are those of the
whole line laid out (``Position.line``), at every step of every bundled record (false plays that stand, Domino
Whist §8, among them) and of random hands of the line games, where the count of the ends decides the points
(All Fives: a double at an end counts both halves, 003) and the end a tile goes on (Domino Whist §6)."""
from __future__ import annotations

import glob
import os
import random

from hypothesis import given, settings, strategies as st

from analyzer.generate import random_deal
from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.rules import find_variant
from analyzer.rules.mechanics import position_for

RECORDS = os.path.join(os.path.dirname(__file__), "..", "records")


def _ends(line: list) -> list:
    return line[:1] if len(line) == 1 else [line[0], line[-1]] if line else []


def _check(pos) -> None:
    assert pos.line_ends() == _ends(pos.line()), pos.history


def test_every_step_of_the_bundled_line_records():
    checked = 0
    for path in sorted(glob.glob(os.path.join(RECORDS, "*.dom"))):
        with open(path, encoding="utf-8") as fh:
            record = parse(fh.read())
        for rep in replay_record(record):
            if not hasattr(rep.initial, "line") or rep.initial.__class__.__name__.startswith("Arm"):
                continue
            pos = rep.initial.copy()
            for step in rep.steps:
                if step.move is not None:
                    pos.turn = step.seat
                    pos.push(step.move)
                    _check(pos)
                    checked += 1
    assert checked > 1000


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([("all-fives", {"players": "2"}), ("whist", {}), ("partnership", {}), ("block", {}),
                        ("all-fives-threes", {"players": "2"})]), st.integers(0, 10 ** 6))
def test_random_hands_of_the_line_games(game, seed):
    name, rules = game
    variant = find_variant(name, rules or None)
    rng = random.Random(seed)
    hands = random_deal(variant, rng)
    pos = position_for(variant, hands, rng.randrange(variant.players), max_pip=variant.dealing.max_pip)
    _check(pos)
    while (moves := [m for m in pos.legal_moves() if not m.draw]):
        pos.push(rng.choice(moves))
        _check(pos)
