"""Venezuelan partnership (issue 56, item 3): a preset of the partnership family, each rule tested with the
sentence it comes from (the sources' words in ours; docs/variants.md names them and says what we chose where
they differ), on facts and on the record written for the docs, records/match-venezuelan.dom."""
import re

import pytest

from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.rules import HandFacts, find_variant
from analyzer.rules.catalog import catalog
from analyzer.tiles import Tile
from conftest import RECORDS, ROOT

T = Tile.parse
VENEZUELAN = find_variant("venezuelan")
RECORD = RECORDS / "match-venezuelan.dom"


def facts(term, seat, pips, leader=0):
    return HandFacts(term, seat, tuple(pips), (1,) * len(pips), leader, None, None, None, None)


def _replay(text: str):
    return replay_record(parse(text, "venezuelan.dom"))


def _games(text: str) -> list[str]:
    """The record's games, each its own text (a game begins at its Event tag)."""
    starts = [m.start() for m in re.finditer(r"^\[Event ", text, re.M)]
    return [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]


# -- the preset ---------------------------------------------------------------------------------------------
def test_the_preset_is_the_partnership_game_with_its_own_options_and_names_its_sources():
    """A preset of the partnership family (four players, partners opposite, all 28 tiles dealt, 7 each: que-es.net,
    "each person takes 7 tiles"), under each of its names, with its sources in the catalogue and the docs."""
    assert VENEZUELAN.name == "partnership" and VENEZUELAN.dealing.hand_size == 7 and VENEZUELAN.players == 4
    assert VENEZUELAN.seating.teams == (0, 1, 0, 1)
    for name in ("venezolano", "domino-venezolano"):
        assert find_variant(name) is VENEZUELAN
    by_system = find_variant("partnership", "system=venezuelan")
    assert dict(by_system.options) == dict(VENEZUELAN.options)
    assert (by_system.block, by_system.scoring, by_system.match, by_system.lead, by_system.opening) == (
        VENEZUELAN.block, VENEZUELAN.scoring, VENEZUELAN.match, VENEZUELAN.lead, VENEZUELAN.opening)
    (partnership,) = [v for v in catalog() if v["name"] == "partnership"]
    assert partnership["presets"]["venezuelan"] == {"score": "all", "block": "player", "target": "100"}
    assert any("tiosabiasque.com" in s for s in partnership["preset_sources"]["venezuelan"])
    docs = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    assert "## Venezuelan partnership" in docs and "tiosabiasque.com" in docs and "que-es.net" in docs


# -- the lead ------------------------------------------------------------------------------------------------
def test_the_double_six_opens_the_first_hand():
    """que-es.net: the game usually begins with the player holding the [6-6], the tile of the most points: the first
    hand of the record is opened with it by its holder (D), and a first hand opened with another tile is an error."""
    text = RECORD.read_text()
    first = _games(text)[0]
    (rep,) = _replay(first)
    assert rep.valid and rep.steps[0].move.tile == T("[6-6]") and rep.steps[0].entry.player == "D"
    wrong = first.replace("1. D [6-6]\n2. A [1-6]", "1. D [0-0]\n2. A [0-2]").replace("D [0-0]\n3.", "D [6-6]\n3.")
    (bad,) = _replay(wrong)
    assert {"lead-tile", "lead-player"} & {d.code for d in bad.errors}, [d.message for d in bad.errors]


def test_the_lead_passes_to_the_right_each_hand():
    """que-es.net: the next hand is led by the player on the right of the one who led (play goes counter-clockwise,
    so the next in play order), whoever won: D, then A, B, C; a later hand led by another player is an error."""
    reps = _replay(RECORD.read_text())
    assert [r.steps[0].entry.player for r in reps] == ["D", "A", "B", "C"]
    assert all(r.valid for r in reps)
    text = RECORD.read_text()
    games = _games(text)
    second = games[1].replace('[Lead "A"]', '[Lead "B"]').replace("1. A [2-6] B [2-5] C [0-5] D [0-6]@0\n2. A",
                                                                 "1. B [2-5] C [0-5] D [0-6]@0\n2. A [2-6]\nA")
    reps = _replay(games[0] + second)
    assert "lead-player" in [d.code for d in reps[1].errors], [d.message for d in reps[1].errors]


# -- the tranque ---------------------------------------------------------------------------------------------
def test_a_tranque_goes_to_the_side_of_the_single_player_with_the_fewest_pips():
    """tiosabiasque.com: the player who closes the game wins if he or his partner holds the fewest points: the pips are
    compared player by player, not side by side. A/C hold 13 + 32 = 45 and B/D 19 + 14 = 33, but A's 13 is the lowest
    hand, so A/C win (the record's first hand)."""
    result = VENEZUELAN.hand_result(facts("blocked", 0, [13, 19, 32, 14], leader=3))
    assert result.winner == 0
    assert find_variant("partnership", "score=all").hand_result(facts("blocked", 0, [13, 19, 32, 14])).winner == 1
    (first, *_) = _replay(RECORD.read_text())
    assert first.valid and first.result.winner == 0
    stated = _games(RECORD.read_text())[0].replace('"A/C 78 blocked"', '"B/D 78 blocked"')
    (wrong,) = _replay(stated)
    assert "result-mismatch" in [d.code for d in wrong.errors]


def test_a_tranque_with_the_lowest_hands_equal_on_both_sides_has_no_winner():
    """es.wikipedia.org (Dominó): on equal counts the international rule gives no winner, and the next hand is led by the
    next player in turn. B and C hold 9 each (the record's third hand): nobody scores, and D, on B's right, leads next."""
    assert VENEZUELAN.hand_result(facts("blocked", 3, [15, 9, 9, 11], leader=1)).winner is None
    reps = _replay(RECORD.read_text())
    assert reps[2].result.winner is None and reps[2].result.points == 0
    assert reps[3].steps[0].entry.player == "C"


# -- the scoring ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("term, seat, pips", [("domino", 0, [0, 19, 7, 22]), ("blocked", 1, [19, 7, 8, 22])])
def test_the_winners_score_every_pip_left_their_partners_too(term, seat, pips):
    """tiosabiasque.com: the hand's score is the sum of all the points of all the players left unplayed: after a
    domino the partner's pips count for the winners as well, and after a tranque all four hands."""
    result = VENEZUELAN.hand_result(facts(term, seat, pips))
    assert result.points == sum(pips)
    rep = _replay(RECORD.read_text())[1]                  # A goes out; B, C and D hold 21 pips between them
    assert rep.result.points == 21 and rep.result.winner == 0


# -- the target ----------------------------------------------------------------------------------------------
def test_the_match_is_won_by_the_first_side_to_reach_100():
    """ksmith7 (sportstalksocial.com): the pairs play hand after hand until one reaches 100 points. A/C stand at 99
    after two hands (78 + 21): not over; the fourth hand takes them past 100 and ends the match, B/D still at 0 (a
    zapato, as the AFP report has it)."""
    assert VENEZUELAN.match.target == 100
    reps = _replay(RECORD.read_text())
    ends = [k for k, r in enumerate(reps, 1) if "match-end" in [d.code for d in r.diagnostics]]
    assert ends == [4]
    assert reps[1].match.score == "A/C 99, B/D 0" and reps[3].match.score == "A/C 163, B/D 0"
