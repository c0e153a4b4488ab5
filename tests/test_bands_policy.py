"""The policies of known strength that calibrate the strength bands (``analyzer.equity.bands``) in the games
with a boneyard, with points scored during play, of individual players, and cross: each decision's loss
is measured exactly as the analyser grades a player's move in that game.

Facts: the analysis of a record (``analysis.analyze_replay``) is the judge of a loss; a policy's hand,
written as a record (every play with its end and arm, every score claimed, every draw with its tile),
gets from the analysis the same losses, decision for decision, as the policy measured while playing it
(the same view, for two sides the side's, for individual players the mover's against the rest; the same
points, those scored during play counted; the same boneyard order, the one the record reveals). A
policy that never errs loses nothing by that judge."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner

from analyzer.analysis import AgainstTheRest, analyze_replay
from analyzer.cli import main
from analyzer.equity.bands import calibration_for, play_policy, play_policy_hand, policy_searches
from analyzer.notation import write
from analyzer.record import Game, HandEntry, MoveEntry
from analyzer.replay import replay
from analyzer.rules import find_variant
from analyzer.search.tree import NO_EXTRA

# one game of each kind: a draw game, Chiva for three (a draw game of individual players), All Fives for
# two and three (points during play), Cut Throat (individual players, no boneyard), Hungarian for three
# (individual players, bad points), cross (sleepers) and French (arms, individual players)
KINDS = [("draw", {"target": "5"}), ("chiva", {"players": "3"}), ("all-fives", None), ("all-fives", {"players": "3"}),
         ("cutthroat", None), ("hungarian", {"players": "3"}), ("cross", None), ("french", None)]


def record_of(v, hand) -> Game:
    """A policy's hand as a record: the deal, every play with the end (and arm) it went on and the points it
    claims, every draw with its tile, every pass; an opener who adds no tile to his lead writes nothing."""
    names = tuple("ABCDEF"[:v.players])
    moves = [MoveEntry(names[seat], move.tile, move.end if move.is_play else None, draw=move.draw,
                       claim=points or None, arm=move.arm if move.is_play else None)
             for seat, move, points in hand.moves if move != NO_EXTRA]
    tags = {"Variant": v.name, "Players": ", ".join(names), "Lead": names[hand.leader]}
    if v.options:
        tags["Rules"] = v.rules_text
    return Game(tags=tags, players=names, hands=tuple(HandEntry(names[s], tuple(hand.hands[s]))
                                                      for s in range(v.players)), moves=moves)


@pytest.mark.parametrize("name,rules", KINDS, ids=[n + "".join(f"-{k}={x}" for k, x in (r or {}).items())
                                                   for n, r in KINDS])
def test_policy_losses_are_the_analysis_s_losses(name, rules):
    v = find_variant(name, rules)
    searches = policy_searches(v, AgainstTheRest)
    rng = random.Random(f"policy-vs-analysis:{name}")
    checked = 0
    for _ in range(3):
        hand = play_policy_hand(v, 0.5, rng, searches)
        rep = replay(record_of(v, hand), v)
        assert rep.valid, [str(e) for e in rep.errors]
        out = analyze_replay(rep)
        assert not out.stopped, out.stopped
        # each player's losses as the analysis grades them and as the policy measured them
        assert len(out.decisions) == len(hand.decisions)
        assert Counter((d.player, d.loss) for d in out.decisions) == \
            Counter(("ABCDEF"[seat], loss) for seat, loss in hand.decisions)
        checked += sum(bool(loss) for _, loss in hand.decisions)
    assert checked, "some decisions lost points (the test can fail)"
