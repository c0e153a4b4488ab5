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
from analyzer.analysis.luck import LedHand, deal_luck, player_luck
from analyzer.equity import open_model_table
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
    sample = open_model_table(V).model.modes["open"]        # (the hands played with every hand open)
    leading = Fraction(int(sample.total), sample.hands)          # the side that leads gains this on average
    assert leading > 5
    deal_only = Fraction(0)
    for rep, analysis, _ in hands:
        luck = deal_luck(analysis, V, LedHand(rep.initial.turn, played=rep.result))
        side = V.seating.teams[rep.initial.turn]
        assert luck.lead == (leading if side == 0 else -leading)
        assert luck.total == luck.points + luck.lead == luck.value       # equal sides: the mean over leaders is 0
        deal_only += luck.result - luck.points
    # the deal's luck alone (as before) left A/C's extra lead in their adjusted result: one lead's worth
    assert deal_only == leading


def test_the_docs_example_the_books_deal():
    # docs/archives.md: records/seed2.dom, B leading, worth +18 to A/C with every hand open; B/D's lead is worth
    # 11.29 to them on average; A/C won 46 (blocked): luck +18, adjusted +28, B/D's losses 49 less A/C's 21
    from analyzer.match import replay_record
    from analyzer.notation import read

    rep, = replay_record(read("records/seed2.dom"))
    analysis = analyze_replay(rep)
    luck = deal_luck(analysis, V, LedHand(rep.initial.turn, played=rep.result))
    assert rep.players[rep.initial.turn] == "B" and luck.value == 18 and luck.result == 46
    assert round(float(luck.lead), 2) == -11.29 and round(float(luck.points), 2) == 29.29 and luck.total == 18
    lost = {side: sum(d.loss for d in analysis.decisions if d.side == side) for side in (0, 1)}
    assert lost == {0: 21, 1: 49}
    rows = {row.player: row for row in player_luck([(rep, analysis, None)])}
    assert rows["A"].adjusted == 28 == lost[1] - lost[0] and rows["B"].adjusted == -28


def test_the_docs_stats_example_of_the_jamaican_match():
    # docs/equity.md, "Luck": the sentence's figures are those `domino stats --scale match --by pair` gives
    import json
    import re

    from click.testing import CliRunner

    from analyzer.cli import main
    from conftest import ROOT

    text = " ".join((ROOT / "docs" / "equity.md").read_text(encoding="utf-8").split())
    said = re.search(r"A/C result \+(\d+), luck \+(\d+), adjusted \+(\d+), MWC luck (-[\d.]+); error rate ([\d.]+) "
                     r"points a decision \(95% interval ([\d.]+) to ([\d.]+), (\d+) decisions\) against B/D's ([\d.]+) "
                     r"\(([\d.]+) to ([\d.]+), (\d+)\)", text)
    assert said, "the example is not in docs/equity.md"
    out = CliRunner().invoke(main, ["stats", "--scale", "match", "--by", "pair", "records/match-jamaican.dom",
                                    "--json"])
    assert out.exit_code == 0, out.output
    rows = {row["player"]: row for row in json.JSONDecoder().raw_decode(out.output)[0]}
    ac, bd = rows["A/C"], rows["B/D"]
    assert ac["adjusted"] == ac["result"] - ac["luck"] and bd["luck"] == -ac["luck"]
    got = (ac["result"], ac["luck"], ac["adjusted"], ac["mwc_luck"], ac["error_rate"], ac["error_low"],
           ac["error_high"], ac["error_decisions"], bd["error_rate"], bd["error_low"], bd["error_high"],
           bd["error_decisions"])
    assert [float(x) for x in said.groups()] == [float(x) for x in got]
