"""Which end a tile went to, where the record does not say (a book table prints no ``@N``): the replay tries each
placement and keeps the one the rest of the record agrees with (``_Replayer.choose``, in
``analyzer/replay/placement.py``). A look-ahead first stops at its first error; only the placements whose
first error comes latest are then counted to the end, and a placement found by a look-ahead along the
placements the replay takes is not looked for again (issue 57, item 7: reading tables without ends). The
reference is the look-ahead that never gives up: every placement, every diagnostic and every step equal, on
generated records of several families with every end left out, some broken by a dropped or a swapped move
(their first errors then decide)."""
from __future__ import annotations

import random
from dataclasses import replace
from unittest import mock

import pytest

from analyzer.generate import random_game
from analyzer.notation import parse, write
from analyzer.replay import _Replayer, replay

FAMILIES = ("partnership", "block", "all-fives", "draw", "hungarian", "whist", "french")


def _without_ends(variant: str, seed: int) -> str:
    game = random_game(variant, seed=seed)
    moves = [replace(m, end=None) for m in game.moves]
    rng = random.Random(seed)
    if seed % 2 and len(moves) > 4:          # broken: a move dropped, or two moves' tiles swapped
        k = rng.randrange(len(moves) - 1)
        if rng.random() < 0.5:
            del moves[k]
        else:
            a, b = moves[k], moves[k + 1]
            moves[k], moves[k + 1] = replace(a, tile=b.tile), replace(b, tile=a.tile)
    return write(replace(game, moves=moves))


def _outcome(text: str) -> list:
    rep = replay(parse(text).games[0])
    return [rep.valid, [str(d) for d in rep.errors],
            [(s.index, s.move, s.ends_after, s.arms, [str(d) for d in s.diagnostics]) for s in rep.steps]]


class _Forgetful(dict):
    """A replayer's placements taken, never found again: every undecided placement looked for anew."""

    def get(self, key, default=None):
        return default


@pytest.mark.parametrize("variant", FAMILIES)
def test_a_look_ahead_that_gives_up_places_every_tile_as_the_whole_one(variant):
    whole_run, made = _Replayer.run, _Replayer.__init__

    def never_give_up(self, pos, start, collect, moves=None, give_up=None):
        return whole_run(self, pos, start, collect, moves)

    def forgetful(self, *args):
        made(self, *args)
        self.chosen = _Forgetful()

    broken = 0
    for seed in range(30):
        text = _without_ends(variant, seed)
        fast = _outcome(text)
        with mock.patch.object(_Replayer, "run", never_give_up), mock.patch.object(_Replayer, "__init__", forgetful):
            assert _outcome(text) == fast, (variant, seed, text)
        broken += not fast[0]
    assert broken >= 5        # broken records among them: their first errors decide


def test_a_wrong_placement_is_not_followed_past_its_first_error():
    """A table without ends whose every look-ahead ran to the end of the record before: with the early stop
    the moves the look-aheads replay are fewer, and the placements the same."""
    whole_run = _Replayer.run
    counted = {"give_up": 0, "whole": 0}

    def counting(key):
        def run(self, pos, start, collect, moves=None, give_up=None):
            out = whole_run(self, pos, start, collect, moves, give_up if key == "give_up" else None)
            if not collect:
                counted[key] += 1
            return out
        return run

    texts = [_without_ends("partnership", seed) for seed in range(0, 40, 2)]      # valid records
    outcomes = {}
    for key in counted:
        with mock.patch.object(_Replayer, "run", counting(key)):
            outcomes[key] = [_outcome(t) for t in texts]
    assert outcomes["give_up"] == outcomes["whole"]
    assert 0 < counted["give_up"] < counted["whole"], counted
