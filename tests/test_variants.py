"""Each distinctive rule of the rule texts, tested with the texts' own words and examples."""
import dataclasses
import re

import pytest

from analyzer.match import replay_match
from analyzer.notation import parse
from analyzer.match import replay_record
from analyzer.rules import (BadOptionValue, HandFacts, MatchScoring, UnknownOption, UnknownVariant,
                            draw_rank, find_variant, parse_rules)
from analyzer.rules.catalog import catalog
from analyzer.tiles import Tile
from conftest import SEED_DEAL

T = Tile.parse
ALL = sum(t.bit for t in [])


def facts(term, seat, pips, leader=0, counts=None, last=None, ends=None, history=None, hands=None):
    return HandFacts(term, seat, tuple(pips), tuple(counts or [1] * len(pips)), leader, hands,
                     T(last) if last else None, ends, history)


# -- options, catalogue, errors --------------------------------------------------------------------
def test_every_variant_of_the_issue_is_in_the_catalogue_with_its_seed_and_options():
    names = {v["name"]: v for v in catalog()}
    assert set(names) == {"partnership", "whist", "jamaican", "cutthroat", "chiva", "block", "draw", "hungarian",
                          "all-fives", "all-fives-threes", "french", "cross", "cuban", "kozel"}
    assert names["partnership"]["seed"].startswith("000") and names["block"]["seed"].startswith("003")
    # a game no rule text describes names its sources (issue 56)
    assert names["cuban"]["sources"] and not names["partnership"]["sources"]
    assert {"target", "lead", "tie", "divide"} <= {o["key"] for o in names["partnership"]["options"]}


def test_unknown_variant_option_and_value_are_clear_errors_listing_what_exists():
    with pytest.raises(UnknownVariant, match="partnership.*whist.*jamaican.*cutthroat.*chiva.*block"):
        find_variant("mexican-train")
    with pytest.raises(UnknownOption, match="mode=tournament"):
        find_variant("jamaican", {"capicu": "yes"})
    with pytest.raises(BadOptionValue, match="draw, leader, more-tiles"):
        find_variant("partnership", "tie=coin-toss")


def test_a_whole_number_option_refuses_a_sign_it_would_otherwise_drop():
    """A target is a whole number: "-5" is none (it once read as 5, the sign lost with the name's hyphens), and
    neither is "+5"; spaces around a number are no part of it."""
    for value in ("-5", "+5", "5-", "1-0"):
        with pytest.raises(BadOptionValue, match=f"whole number, not '{re.escape(value)}'"):
            find_variant("whist", {"target": value})
    assert find_variant("whist", {"target": " 150 "}).match.target == 150
    assert find_variant("whist", {"target": "007"}).match.target == 7


def test_rules_tag_grammar_and_aliases():
    assert parse_rules("lead=winners, target=200; capicu") == {"lead": "winners", "target": "200", "capicu": "yes"}
    v = find_variant("Doscientos")
    assert v.name == "partnership" and v.match.target == 200 and v.lead.next == "winner-lowest"
    assert find_variant("partnership", {"target": "200"}).match.target == 200


def test_a_rules_tag_that_does_not_fit_is_reported_in_the_record():
    (rep,) = replay_record(parse(f'[Variant "jamaican"]\n[Rules "target=x"]\n{SEED_DEAL}\n1. D [6-6]'))
    assert [d.code for d in rep.errors] == ["bad-rule"]


# -- partnership (000) -------------------------------------------------------------------------
# "Die Gewinner bekommen alle Punkte, die das verlierende Team noch auf seinen noch nicht gespielten
#  Steinen hat" / Variante: "einschließlich der Punkte des Partners ... In einem gesperrten Spiel
#  bekommen dann die Gewinner die Gesamtzahl aller Punkte"
def test_winners_score_losers_pips_or_all_pips():
    f = facts("domino", 0, [0, 10, 5, 7])
    assert find_variant("partnership").hand_result(f).points == 17
    assert find_variant("partnership", "score=all").hand_result(f).points == 22
    b = facts("blocked", 0, [3, 10, 5, 7])
    assert find_variant("partnership", "score=all").hand_result(b).points == 25


# "So sind z. B. 39 Punkte 3 Punkte wert, und alle Punkte von 1 bis 19 zählen 1 Punkt."
@pytest.mark.parametrize("pips,points", [(39, 3), (1, 1), (19, 1), (20, 2)])
def test_divide_by_ten_rounding_down_but_at_least_one(pips, points):
    v = find_variant("partnership", "divide=10")
    assert v.hand_result(facts("domino", 0, [0, pips, 0, 0])).points == points


# "Einige sagen, dass das Team gewinnt, das dieses Spiel begonnen hat; andere lassen das Team gewinnen,
#  das noch mehr nicht gespielte Steine hat ... Einige sagen, dass das Team verliert, das den letzten
#  Stein gespielt hat. Viele werten das Spiel gar nicht und wiederholen es."
def test_the_rules_for_a_blocked_hand_with_equal_pips():
    tie = facts("blocked", 1, [5, 4, 5, 6], leader=2, counts=[1, 1, 2, 1])
    assert find_variant("partnership").hand_result(tie).winner is None
    assert find_variant("partnership", "tie=leader").hand_result(tie).winner == 0
    assert find_variant("partnership", "tie=more-tiles").hand_result(tie).winner == 0
    assert find_variant("partnership", "tie=last-loses").hand_result(tie).winner == 0
    assert find_variant("partnership", "tie=last").hand_result(tie).winner == 1
    assert find_variant("partnership", "tie=replay").hand_result(tie).void
    # "Einige rechnen jedem Team die Punkte an, die sie noch auf ihren nicht gespielten Steinen haben"
    assert find_variant("partnership", "tie=own-pips").hand_result(tie).scores == (10, 10)


# "die Gewinner sind dann das Team, das insgesamt weniger Punkte hat"
def test_own_pips_both_sides_over_the_target_the_lower_total_wins():
    v = find_variant("partnership", "tie=own-pips")
    state = v.match.start(2)
    state = v.match.apply(state, v.hand_result(facts("domino", 0, [0, 45, 0, 45])))
    state = v.match.apply(state, v.hand_result(facts("domino", 1, [45, 0, 45, 0])))
    state = v.match.apply(state, v.hand_result(facts("blocked", 1, [30, 30, 20, 20])))
    assert state.scores == (140, 140) and not state.over    # "Bei gleicher Punktzahl wird noch ein weiteres Spiel gespielt."
    state = v.match.apply(state, v.hand_result(facts("blocked", 1, [1, 3, 1, 1])))
    assert state.scores == (144, 140) and state.over and state.winner == 1


# The text gives "the lower total wins" for the own-pips tie only, where a side's points are the pips it
# still holds. With pass bonuses both sides score in one hand too, and there the race's higher total wins.
def test_pass_bonuses_take_both_sides_over_the_target_and_the_higher_total_wins():
    from analyzer.rules.policies import HandResult

    v = find_variant("partnership", "pass-bonus=yes")
    state = dataclasses.replace(v.match.start(2), scores=(90, 95))
    won = v.match.apply(state, HandResult("domino", 0, 30, 0, scores=(30, 10)))      # A/C 120, B/D 105
    assert won.over and won.winner == 0 and "higher total" in won.note
    even = v.match.apply(state, HandResult("domino", 0, 15, 0, scores=(15, 10)))     # both at 105
    assert not even.over and "another game" in even.note
    own = find_variant("partnership", "tie=own-pips")
    tied = own.match.apply(dataclasses.replace(own.match.start(2), scores=(90, 95)),
                           HandResult("blocked", None, 0, 0, scores=(30, 10), note="tie:own-pips"))
    assert tied.over and tied.winner == 1 and "lower total" in tied.note           # 105 against 120
    # (and with pass bonuses too, under the own-pips tie the text's rule stands)
    both = find_variant("partnership", "pass-bonus=yes, tie=own-pips").match
    assert both.apply(state, HandResult("domino", 0, 30, 0, scores=(30, 10))).winner == 1


# "Es gibt eine Variante, bei der [0-0] 50 Punkte zählt und nicht null Punkte, die nötige Punktzahl
#  zum Gewinn einer Partie ist dann 101."
def test_great_lakes_double_blank_counts_fifty():
    v = find_variant("great-lakes-101")
    hands = (0, T("[0-0]").bit | T("[1-2]").bit, 0, 0)
    assert v.match.target == 101
    assert v.hand_result(facts("domino", 0, [0, 3, 0, 0], hands=hands)).points == 53


# "Wenn der letzte Stein des Gewinners kein Doppelstein ist und an das eine oder andere Ende der Linie
#  angelegt werden kann, gibt es dafür einen Bonus von 100 Punkten für „capicú“."
def test_quinientos_capicu_dominao_chuchazo_and_no_bonus_on_a_block():
    v = find_variant("quinientos")
    assert v.hand_result(facts("domino", 0, [0, 10, 0, 0], last="[2-5]", ends=(2, 5))).points == 110
    assert v.hand_result(facts("domino", 0, [0, 10, 0, 0], last="[2-5]", ends=(2, 3))).points == 10
    # dominao: a double that fits both ends; "wenn es sich um die Doppelnull handelt, gibt es keine Bonuspunkte"
    assert v.hand_result(facts("domino", 0, [0, 10, 0, 0], last="[4-4]", ends=(4, 4))).points == 110
    # chuchazo: "Es spielt dabei keine Rolle, ob nur ein oder beide Enden eine Null aufweisen."
    assert v.hand_result(facts("domino", 0, [0, 10, 0, 0], last="[0-0]", ends=(0, 3))).points == 110
    assert v.hand_result(facts("domino", 0, [0, 10, 0, 0], last="[0-0]", ends=(0, 0))).points == 110
    # "Manche spielen so, dass man die 100 Punkte für chuchazo nur dann bekommt, wenn sich nur an einem Ende ..."
    one = find_variant("quinientos", "chuchazo=one-end")
    assert one.hand_result(facts("domino", 0, [0, 10, 0, 0], last="[0-0]", ends=(0, 0))).points == 10
    # "Wenn man mit trancado ... gewinnt, dann gibt es niemals Bonuspunkte"
    assert v.hand_result(facts("blocked", 0, [1, 10, 1, 0], last="[2-5]", ends=(2, 5))).points == 12


# "Es gibt einen Bonus von 100 Punkten für die Gewinner des ersten Spiels einer Partie, 75 ..., 50 ...,
#  25 ... Wenn irgendeines der ersten vier Spiele gesperrt ist, dann gibt es keinen entsprechenden Bonus."
def test_quinientos_first_four_wins_bonus():
    v = find_variant("quinientos")
    s = v.match.start(2)
    s = v.match.apply(s, v.hand_result(facts("domino", 0, [0, 10, 0, 0])))
    assert s.scores == (110, 0)
    s = v.match.apply(s, v.hand_result(facts("blocked", 1, [1, 10, 1, 10])))
    assert s.scores == (132, 0)
    s = v.match.apply(s, v.hand_result(facts("domino", 1, [5, 0, 5, 0])))
    assert s.scores == (132, 60)


# "Beim weiteren Fortgang des Spiels bekommt der Spieler, der den folgenden Spieler zum Passen zwingt,
#  10 Punkte ... Wenn zweimal hintereinander gepasst wird, bekommt nur der erste Spieler die Punkte."
def test_pass_bonuses():
    v = find_variant("partnership", "pass-bonus=yes")
    h = ((0, T("[1-1]")), (1, None), (2, T("[1-2]")), (3, T("[2-3]")), (0, None), (1, None), (2, T("[3-4]")),
         (3, T("[4-4]")))
    r = v.hand_result(facts("domino", 3, [10, 9, 8, 0], history=h))
    # A's play made B pass: 20 to A/C; D's play made A (and B) pass: 10 to B/D; 18 rounded down to 10
    assert r.scores == (20, 10 + 10)


# "Bei dieser Variante ist es üblich, den Punktestand mit Pokerchips festzuhalten": a bonus is paid when
# its play is made, so however the hand ends it stands (a tied block that is played again, each side
# scoring its own pips in a tie), and it counts in the hand's value for the search.
def test_pass_bonuses_stand_however_the_hand_ends():
    h = ((0, T("[1-1]")), (1, None), (2, T("[1-2]")), (3, T("[2-3]")), (0, T("[3-3]")))
    tied = facts("blocked", 0, [7, 5, 5, 7], history=h)
    replayed = find_variant("partnership", "pass-bonus=yes, tie=replay")
    r = replayed.hand_result(tied)
    # A's [1-1] made B pass (20); A's [3-3] blocked the hand (10 for each opponent)
    assert r.void and r.scores == (40, 0)
    assert replayed.value(tied) == 40
    s = replayed.match.apply(replayed.match.start(2), r)
    assert s.scores == (40, 0) and "pass bonuses stand" in s.note and not s.over
    own = find_variant("partnership", "pass-bonus=yes, tie=own-pips").hand_result(tied)
    # each side its own 12 pips, rounded down to tens ("alle Punkte zum nächsten Vielfachen von 10
    # abzurunden"), and A/C the bonuses too
    assert own.scores == (10 + 40, 10)
    # without a history (what a search passes) the bonuses are left to the search: nothing here
    assert replayed.value(facts("blocked", 0, [5, 5, 5, 5])) == 0


# "Milo ... Wenn Domino gemacht wird und der letzte Stein dazu führt, dass beide Enden dieselbe Zahl
#  aufweisen, dann bekommt das Team zwei Punkte ... Eine Partie ist mit fünf Punkten gewonnen."
def test_milo_two_points_when_the_last_tile_leaves_both_ends_equal():
    v = find_variant("milo")
    assert v.hand_result(facts("domino", 1, [3, 0, 4, 5], last="[2-5]", ends=(2, 3))).points == 1
    assert v.hand_result(facts("domino", 1, [3, 0, 4, 5], last="[2-5]", ends=(2, 5))).points == 2   # leaves 5 and 5
    assert v.match.target == 5


# "Das Team, das zehn Spiele gewinnt, gewinnt damit die Partie – aber nur dann, wenn das andere Team
#  mindestens fünf Spiele gewonnen hat; sonst ist das Spiel unentschieden."
def test_south_american_match():
    v = find_variant("south-american")
    win0, win1 = (v.hand_result(facts("domino", s, [0 if i == s else 3 for i in range(4)])) for s in (0, 1))
    s = v.match.start(2)
    for _ in range(4):
        s = v.match.apply(s, win1)
    for _ in range(10):
        s = v.match.apply(s, win0)
    assert s.over and s.drawn
    s = v.match.apply(v.match.start(2), win1)
    for r in [win1] * 4 + [win0] * 10:
        s = v.match.apply(s, r)
    assert s.over and s.winner == 0


# "Einige spielen so, dass jedes Spiel mit einem Doppel beginnen muss, es sei denn, dass keiner der
#  Spieler des beginnenden Spiels ein solches hat."
def test_every_hand_opens_with_a_double():
    (rep,) = replay_record(parse(f'[Rules "open=double"]\n{SEED_DEAL}\n1. D [1-5]'))
    assert "lead-tile" in [d.code for d in rep.errors]
    (rep,) = replay_record(parse(f'[Rules "open=double"]\n{SEED_DEAL}\n1. D [5-5]'))
    assert rep.valid


# "... dass ein Spieler, der fünf oder mehr Doppelsteine erhalten hat, diese vorzeigen kann; er kann
#  darauf fordern, dass noch einmal gegeben wird."
def test_redeal_on_five_doubles_is_reported():
    deal = SEED_DEAL.replace("D: [0-3] [0-4]", "D: [3-3] [4-4]").replace("C: [0-2] [2-4] [2-5] [3-3]",
        "C: [0-2] [2-4] [2-5] [0-3]").replace("[3-4] [4-4] [5-6]", "[3-4] [0-4] [5-6]")
    (rep,) = replay_record(parse(f'[Rules "redeal=4"]\n{deal}'))
    assert [d.code for d in rep.diagnostics if d.code == "redeal"] == ["redeal"]


# Doscientos: "Normalerweise wird das Spiel von dem Team gewonnen, das weniger Punkte hat, und das
#  Mitglied dieses Teams mit weniger Punkten beginnt das nächste Spiel."
def test_doscientos_lowest_winner_leads_next():
    v = find_variant("doscientos")
    f = facts("blocked", 0, [9, 20, 4, 20])
    req = v.lead.requirement(0, v.hand_result(f), f, v.seating)
    assert req.seats == {2}


# "der Gewinner der Spieler, der den letzten Stein gesetzt hat oder der Spieler zu seiner Rechten,
#  wer auch immer die geringere Punktzahl hat"
def test_doscientos_last_or_right_block():
    v = find_variant("doscientos", "block=last-or-right")
    r = v.hand_result(facts("blocked", 0, [9, 8, 1, 20]))
    assert r.winner == 1 and r.points == 38


# -- whist (001) -------------------------------------------------------------------------------
# "Ziehen zwei Spieler Steine mit derselben Augensumme, z.B. 4-3 und 6-1, so entscheidet die höchste
#  einzelne Zahl, 6-1 gilt also höher als 4-3."
def test_whist_draw_for_seats():
    assert draw_rank(T("[6-1]")) > draw_rank(T("[4-3]"))


# "Am Ende eines Spieles zählen beide Teams die Augen ihrer nicht ausgelegten Steine und notieren diese als
#  Schlechtpunkte ... eine Partie ist beendet, sobald zumindest ein Team 100 oder mehr Schlechtpunkte erreicht."
def test_whist_bad_points_good_points_and_caribbean():
    f = facts("domino", 0, [0, 30, 12, 5])
    bad = find_variant("whist").hand_result(f)
    assert bad.scores == (12, 35) and bad.winner == 0 and bad.points == 23
    assert find_variant("whist", "score=good").hand_result(f).scores == (23, 0)
    assert find_variant("whist", "score=caribbean").hand_result(f).points == 47
    tie = facts("blocked", 1, [5, 5, 5, 5])
    assert find_variant("whist", "score=caribbean").hand_result(tie).void
    v = find_variant("whist")
    s = v.match.apply(v.match.start(2), v.hand_result(facts("domino", 0, [0, 60, 12, 45])))
    assert s.over and s.winner == 0


# "Das Eröffnen wechselt nach jedem Spiel im Uhrzeiger"
def test_whist_lead_rotates():
    v = find_variant("whist")
    r = v.hand_result(facts("domino", 0, [0, 1, 1, 1]))
    assert v.lead.requirement(3, r, None, v.seating).seats == {0}


# -- jamaican (002) ----------------------------------------------------------------------------
# "Nord hat [5-5], Süd hat [1-1], Ost hat [2-2], West hat [5-1] – dann gewinnt Nord-Süd, weil Süd die
#  [1-1] hat; es spielt dabei keine Rolle, dass Nord-Süd zusammen mehr Punkte haben als Ost-West."
def test_jamaican_block_won_by_the_single_lowest_hand():
    v = find_variant("jamaican")
    # play order N, E, S, W: North-South are side 0
    r = v.hand_result(facts("blocked", 0, [10, 4, 2, 6]))
    assert r.winner == 0 and r.points == 1
    # "ein Spieler hat genauso wenige Punkte wie ein Spieler des gegnerischen Teams ... unentschieden"
    assert v.hand_result(facts("blocked", 0, [2, 2, 9, 1 + 8])).winner is None


# "Wenn aber das andere Team ein Spiel gewinnt, dann steht es wieder 0 – 0" ; "Wenn das erste
#  Wiederholungsspiel wieder ein Unentschieden ist, ... 3 Punkte wert"
def test_jamaican_six_love_resets_and_draws():
    v = find_variant("jamaican")
    win0 = v.hand_result(facts("domino", 0, [0, 3, 3, 3]))
    win1 = v.hand_result(facts("domino", 1, [3, 0, 3, 3]))
    draw = v.hand_result(facts("blocked", 0, [2, 2, 3, 3]))
    s = v.match.start(2)
    s = v.match.apply(s, win0)
    s = v.match.apply(s, win0)
    assert s.scores == (2, 0)
    s = v.match.apply(s, win1)
    assert s.scores == (0, 0)
    assert v.match.lead(s, v.seating).holder_of == T("[6-6]")
    s = v.match.apply(v.match.apply(s, draw), draw)
    s = v.match.apply(s, win1)
    assert s.scores == (0, 3)
    for _ in range(3):
        s = v.match.apply(s, win1)
    assert s.over and s.winner == 1
    # "Wenn der Spielstand 1 – 1 ist, ... wird ein Entscheidungsspiel gespielt ... 2 – 0"
    p = find_variant("jamaican", "playoff=yes")
    s = p.match.apply(p.match.apply(p.match.start(2), win0), win1)
    assert s.scores == (1, 1) and s.playoff
    assert p.match.apply(s, win1).scores == (0, 2)


# "Das erste Spiel wird von dem Besitzer der Doppelsechs begonnen. Bei Turnieren muss dieser Spieler die
#  [6-6] vorsetzen. In informeller Runde kann der Besitzer der [6-6] ... einen beliebigen Stein spielen."
def test_jamaican_first_game_lead():
    text = f'[Variant "jamaican"]\n[Game "1"]\n{SEED_DEAL}\n1. D [1-5]'
    assert "lead-tile" in [d.code for d in replay_record(parse(text))[0].errors]
    informal = text.replace('[Game "1"]', '[Game "1"]\n[Rules "mode=informal"]')
    assert replay_record(parse(informal))[0].valid


# -- cut-throat (002) --------------------------------------------------------------------------
# "Bei 3 Spielern bekommt jeder Spieler 9 Steine, und die Doppelnull wird vorher beiseitegelegt."
def test_cutthroat_three_players_without_double_blank():
    v = find_variant("cutthroat", players=3)
    assert v.players == 3 and v.dealing.hand_size == 9 and T("[0-0]") not in v.dealing.tiles
    assert find_variant("cutthroat", "players=2").dealing.hand_size == 14
    text = "A: [0-0] [0-1] [0-2] [0-3] [0-4] [0-5] [0-6] [1-1] [1-2]\nB: ?\nC: ?\n1. A [1-1]"
    (rep,) = replay_record(parse('[Variant "cutthroat"]\n' + text))
    assert rep.variant.players == 3 and "deal-foreign" in [d.code for d in rep.errors]


# "der Spieler, der als erster 6 Punkte hat, ist der Gewinner – vorausgesetzt, dass mindestens ein Spieler
#  einen Punktestand von Null hat. Wenn jeder einmal ein Spiel gewonnen hat, ... wieder ... Null."
def test_cutthroat_match():
    m = MatchScoring(6, "cutthroat")
    v = find_variant("cutthroat", players=3)
    wins = [v.hand_result(facts("domino", s, [0 if i == s else 5 for i in range(3)])) for s in range(3)]
    s = m.start(3)
    for r in [wins[0], wins[1], wins[2]]:
        s = m.apply(s, r)
    assert s.scores == (0, 0, 0)
    for _ in range(6):
        s = m.apply(s, wins[0])
    assert s.over and s.winner == 0


# -- chiva (002) -------------------------------------------------------------------------------
# "man nur 4 Siegpunkte nacheinander erzielen muss ... Der Spieler mit der geringsten Anzahl von Punkten
#  dieses gewinnenden Spiels beginnt das nächste Spiel."
def test_chiva():
    v = find_variant("chiva")
    f = facts("blocked", 0, [10, 4, 2, 9])
    r = v.hand_result(f)
    assert r.winner == 0 and v.match.target == 4
    assert v.lead.requirement(0, r, f, v.seating).seats == {2}


# -- block (003) -------------------------------------------------------------------------------
# "Jeder Spieler zieht sechs Steine ... 'Schläfer’-Steine ... Der höchste gehaltene Doppelstein wird von
#  der Person gespielt, die ihn in der Hand hat"
def test_block_highest_double_opens_and_sleepers():
    v = find_variant("block")
    assert v.dealing.hand_size == 6 and v.dealing.sleepers(4) == 4
    deal = ("A: [0-1] [0-2] [0-3] [0-4] [0-5] [0-6]\nB: [1-2] [1-3] [1-4] [1-5] [1-6] [2-3]\n"
            "C: [2-4] [2-5] [2-6] [3-4] [3-5] [3-6]\nD: [4-5] [4-6] [5-6] [4-4] [5-5] [0-0]\n")
    (rep,) = replay_record(parse('[Variant "block"]\n' + deal + "1. D [4-4]"))
    assert "lead-player" not in [d.code for d in rep.errors] and "lead-tile" in [d.code for d in rep.errors]
    (rep,) = replay_record(parse('[Variant "block"]\n' + deal + "1. D [5-5]"))
    assert rep.valid


# "Im Falle eines Patt wird den Gewinnern die Anzahl von Punkten entsprechend der Differenz zwischen den
#  Steinen ihrer Gegner und ihren eigenen Steinen zuerkannt."
def test_block_scoring_systems():
    f = facts("blocked", 0, [3, 10, 4, 12])
    assert find_variant("block", "score=difference").hand_result(f).points == 15
    assert find_variant("block").hand_result(f).points == 22
    assert find_variant("block", "score=game").hand_result(f).points == 1


# "(oder in einem strengeren Format, bis beide Spieler eines Paares ausscheiden)"
def test_block_strict_ending_needs_both_players_of_a_pair_out():
    from analyzer.rules.mechanics import position_for
    v = find_variant("block", "out=pair")
    hands = [[T("[1-1]")], [T("[1-2]"), T("[0-0]")], [T("[2-3]")], [T("[0-6]")]]
    pos = position_for(v, hands, 0)
    pos.push(pos.legal_moves()[0])           # A [1-1]: A is out, C is not
    assert pos.outcome() is None
    pos.push(pos.legal_moves()[0])           # B [1-2]
    pos.push(pos.legal_moves()[0])           # C [2-3]: A and C both out
    assert pos.outcome().termination == "domino"
    assert pos.copy().outcome() == pos.outcome()


# -- matches -----------------------------------------------------------------------------------
def test_a_match_checks_the_lead_and_the_stated_score():
    from analyzer.match import random_match
    from analyzer.notation import write
    record = random_match("partnership", seed=3, games=3)
    record.games[1].tags["Score"] = "A/C 1, B/D 2"
    reps = replay_record(parse(write(record)))
    assert [d.code for d in reps[1].errors] == ["score-mismatch"]
    assert reps[-1].match.score
    record = random_match("partnership", seed=3, games=3)
    record.games[1].tags["Lead"] = "A" if record.games[1].tags["Lead"] != "A" else "B"
    rep = replay_match(parse(write(record)).games)
    assert "lead-player" in [d.code for d in rep.replays[1].errors] or "turn-order" in [d.code for d in rep.replays[1].errors]


def test_the_match_kinds_are_typed():
    """How a match is won is a ``MatchKind`` member in every variant (compared as members, never as
    text), and who leads a Cut Throat match that starts over a ``ResetLead``; a bare string given to
    ``MatchScoring`` becomes its member, and a kind that is none fails."""
    from analyzer.rules.modes import MatchKind, ResetLead
    from analyzer.rules.variants import VARIANTS

    assert all(type(v.match.kind) is MatchKind for v in VARIANTS.values())
    assert find_variant("jamaican").match.kind is MatchKind.STRAIGHT
    assert find_variant("chiva", players=3).match.kind is MatchKind.SHUTOUT
    assert MatchScoring(6, "cutthroat").kind is MatchKind.CUTTHROAT
    assert MatchScoring(6, "cutthroat", reset_lead="six-six").reset_lead is ResetLead.SIX_SIX
    with pytest.raises(ValueError):
        MatchScoring(6, "cut-throat")
