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
import os
import random
from collections import Counter

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from analyzer.analysis import AgainstTheRest, analyze_replay
from analyzer.cli import main
from analyzer.equity.bands import DATA_DIR, calibration_for, load_calibration, play_policy_hand, policy_searches
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


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), rate=st.sampled_from([0.0, 0.35, 1.0]),
       kind=st.sampled_from([("draw", {"target": "5"}), ("all-fives", {"players": "3"}), ("cross", None)]))
def test_a_policy_plays_with_the_boneyard_order_its_record_reveals(seed, rate, kind):
    # the order it was played with: the tiles it drew, in the order drawn, then the rest ascending; the
    # policy that never errs loses nothing
    v = find_variant(*kind)
    hand = play_policy_hand(v, rate, random.Random(seed), policy_searches(v, AgainstTheRest))
    drawn = [move.tile for _, move, _ in hand.moves if move.draw]
    assert list(hand.boneyard) == drawn + sorted(set(hand.boneyard) - set(drawn))
    assert rate > 0 or all(loss == 0 for _, loss in hand.decisions)


def _stats(folder) -> dict[str, dict]:
    res = CliRunner().invoke(main, ["stats", "--json", str(folder)])
    assert res.exit_code == 0, res.output
    return {r["player"]: r for r in json.loads(res.stdout)}


def _games(folder, v, rate: float, games: int, seed: str) -> dict[str, dict]:
    """``stats`` of ``games`` hands of ``v`` played by the policy of error ``rate``, a record each in ``folder``."""
    folder.mkdir()
    searches, rng = policy_searches(v, AgainstTheRest), random.Random(seed)
    for k in range(games):
        hand = play_policy_hand(v, rate, rng, searches)
        (folder / f"game{k}.dom").write_text(write(record_of(v, hand)), encoding="utf-8")
    return _stats(folder)


def test_stats_gives_the_band_of_a_draw_game(tmp_path):
    # 40 hands of the draw game played by the policy that never errs: by the analysis no decision loses a
    # point, and each player's some 200 decisions are more than the 184 the calibration of the game's own
    # table says a band needs (for a player who errs like its top band's edge): the top band
    v = find_variant("draw", {"target": "5"})
    cal = load_calibration(v)
    assert cal is not None                                  # shipped (bench/calibrate_bands.py)
    for row in _games(tmp_path / "never", v, 0.0, 40, "stats:draw").values():
        assert row["error_rate"] == 0 and row["error_decisions"] >= 184, row
        assert row["band"] == "expert", row
        assert row["band_note"] == f"from {row['error_decisions']} decisions (open hands) in 40 games"


@pytest.mark.parametrize("name,rules", [("draw", {"target": "5"}), ("cutthroat", {"players": "3"})])
def test_stats_says_why_two_games_give_no_band(tmp_path, name, rules):
    # two hands played by the policy that never errs, or by the one that errs wherever it can: the game's
    # calibration is found (its table's), but some 10 to 30 decisions a player are too few for a band
    v = find_variant(name, rules)
    assert load_calibration(v) is not None
    for rate in (0.0, 1.0):
        rows = _games(tmp_path / f"rate{rate:g}", v, rate, 2, f"stats:{name}:{rate}")
        assert sorted(rows) == list("ABCDEF"[:v.players])
        for row in rows.values():
            assert row["band"] is None and "more decisions needed" in row["band_note"], row


def test_every_shipped_table_has_its_bands():
    # stats finds a game's bands by the name of its MWC table: every shipped table has them
    tables = [os.path.splitext(f)[0] for f in os.listdir(DATA_DIR) if f.endswith(".mwc")]
    assert len(tables) >= 30
    assert [t for t in tables if calibration_for(t + ".json") is None] == []
