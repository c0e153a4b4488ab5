"""The luck of the lead counts as luck (issue 54): who leads a hand goes by rotation (000: "Bei den folgenden
Spielen beginnt der Spieler rechts vom dem, der das vorherige Spiel begonnen hat"), no choice of the players, and
the side that leads gains on average (the model's mean for the leading side). The luck of a hand is the deal's
(the open-hands value at the lead less the mean for a hand led by that side) and the lead's (that mean less the
mean over every leader, which rotation gives each seat alike), so that perfect play (every move best with every
hand open) has a luck-adjusted result of 0 however many hands are played, and whoever led them."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from analyzer.analysis import analyze_replay
from analyzer.analysis.luck import deal_luck, player_luck
from analyzer.equity import load_table
from analyzer.generate import SEAT_NAMES, random_game
from analyzer.record import MoveEntry
from analyzer.replay import replay
from analyzer.rules import find_variant
from analyzer.search.block import Solver, principal_line

V = find_variant("partnership")
NAMES = SEAT_NAMES[:4]


def perfect_hand(seed: int, leader: int):
    """A generated deal (``analyzer.generate``) as a later game of a match, led by ``leader``, played to its end by
    the principal variation: every move best for its side with every hand open."""
    game = random_game(V, seed)
    game = replace(game, tags={**game.tags, "Game": "2", "Lead": NAMES[leader]}, moves=[])
    game.tags.pop("Result")
    pos = replay(game, V).initial.copy()
    line = principal_line(Solver(V), pos)
    moves = [MoveEntry(NAMES[seat], move.tile, move.end) for seat, move in zip(line.seats, line.moves)]
    rep = replay(replace(game, moves=moves), V)
    assert rep.result is not None and rep.initial.turn == leader
    return rep


@pytest.fixture(scope="module")
def hands():
    # nine hands led in turn A, B, C, D, A... (A/C lead five, B/D four)
    out = []
    for k in range(9):
        rep = perfect_hand(100 + k, k % 4)
        analysis = analyze_replay(rep)
        assert all(d.loss == 0 for d in analysis.decisions)      # perfect play: no move loses a point
        out.append((rep, analysis, None))
    return out


def test_perfect_play_has_an_adjusted_result_of_zero(hands):
    rows = {row.player: row for row in player_luck(hands)}
    assert set(rows) == set(NAMES) and all(row.hands == 9 for row in rows.values())
    for row in rows.values():
        assert row.adjusted == 0 and row.luck == row.result


def test_the_leads_luck_is_the_leading_sides_mean(hands):
    sample = load_table(V).model.modes["open"]
    leading = Fraction(int(sample.total), sample.hands)          # the side that leads gains this on average
    assert leading > 5
    deal_only = Fraction(0)
    for rep, analysis, _ in hands:
        luck = deal_luck(analysis, V, rep.initial.turn, played=rep.result)
        side = V.seating.teams[rep.initial.turn]
        assert luck.lead == (leading if side == 0 else -leading)
        assert luck.total == luck.points + luck.lead == luck.value       # equal sides: the mean over leaders is 0
        deal_only += luck.result - luck.points
    # the deal's luck alone (as before) left A/C's extra lead in their adjusted result: one lead's worth
    assert deal_only == leading
