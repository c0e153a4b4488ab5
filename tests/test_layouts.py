"""Layouts with more than two open ends: French domino (002) and cross domino (003), each rule
tested with the seed text's own sentence above it."""
from pathlib import Path

import pytest

from analyzer.match import random_match
from analyzer.notation import parse, write
from analyzer.replay import replay_record
from analyzer.rules import HandFacts, find_variant
from analyzer.rules.ending import position_for
from analyzer.rules.layout import CLOSED, DOUBLE, OPEN, START, Arm, ArmPosition
from analyzer.position import mask_of
from analyzer.tiles import Move, Tile

T = Tile.parse
RECORDS = Path(__file__).resolve().parents[1] / "records"

# French: every tile dealt; A holds [0-0] and no other 0, so the four sides are filled by B, C, D.
FRENCH = {"A": "[0-0] [1-1] [1-2] [1-3] [1-4] [1-5] [1-6]",
          "B": "[0-1] [2-2] [2-3] [2-4] [2-5] [2-6] [3-3]",
          "C": "[0-2] [0-3] [3-4] [3-5] [3-6] [4-4] [4-6]",
          "D": "[0-4] [0-5] [0-6] [4-5] [5-5] [5-6] [6-6]"}
# the four sides of [0-0]: [0-1] on arm 1, [0-2] on arm 2, [0-4] on arm 3, [0-3] on arm 4
FOUR_ZEROS = "1. A [0-0] B [0-1] C [0-2] D [0-4] 2. A pass B pass C [0-3] D pass"

# Cross: the 003 block game, 6 tiles each, sleepers [3-5] [4-5] [4-6] [5-6]; A opens with [6-6].
CROSS = {"A": "[6-6] [0-6] [1-1] [2-2] [0-0] [0-1]",
         "B": "[1-6] [3-3] [0-2] [0-3] [1-2] [1-3]",
         "C": "[2-6] [4-4] [0-4] [1-4] [2-3] [2-4]",
         "D": "[3-6] [5-5] [0-5] [1-5] [2-5] [3-4]"}
SPINNER_FILLED = "1. A [6-6] B [1-6] C [2-6] D [3-6] 2. A [0-6]"


def game(moves: str, variant: str, deal: dict[str, str], tags: str = ""):
    text = f'[Variant "{variant}"]\n{tags}' + "".join(f"{p}: {h}\n" for p, h in deal.items()) + f"\n{moves}\n"
    (rep,) = replay_record(parse(text, "layout.dom"))
    return rep


def codes(rep) -> list[str]:
    return [d.code for d in rep.errors]


def french(moves: str, tags: str = ""):
    return game(moves, "french", FRENCH, tags)


def cross(moves: str, tags: str = ""):
    return game(moves, "cross", CROSS, tags)


# -- French domino (002) ----------------------------------------------------------------------------
# "Es ist ein Viererspiel, und jeder spielt nur für sich (wie bei „Cut Throat“). Jeder Spieler zieht
#  7 Steine und der Besitzer der Doppelnull beginnt das Spiel."
def test_french_is_four_players_each_for_himself_and_the_double_blank_holder_opens():
    v = find_variant("french")
    assert v.players == 4 and v.seating.sides == 4 and v.dealing.hand_size == 7 and v.layout == "french"
    assert french("1. A [0-0]").valid
    wrong = game("1. B [0-1]", "french", FRENCH)
    assert "lead-player" in codes(wrong) and "lead-tile" in codes(wrong)


# "Zunächst müssen vier Steine mit einer Null an die vier Seiten von [0-0] gespielt werden, bevor
#  irgendwelche andere Steine gespielt werden dürfen. Es entsteht so eine Auslage mit vier Armen."
def test_four_tiles_with_a_zero_go_on_the_four_sides_before_anything_else():
    rep = french(FOUR_ZEROS)
    assert rep.valid, rep.errors
    assert rep.final.arms == (Arm(1, DOUBLE), Arm(2, DOUBLE), Arm(4, DOUBLE), Arm(3, DOUBLE))
    assert [s.move.arm for s in rep.steps if s.move.is_play][1:] == [1, 2, 3, 4]
    # a pass while the sides are not filled proves no 0, not the numbers of the closed arms
    assert rep.steps[4].lacks == (0,)
    closed = french("1. A [0-0] B [0-1] C [0-2] D [0-4] 2. A [1-1]")
    assert codes(closed) == ["arm-closed"]
    message = closed.errors[0].message
    assert "arm 4 still empty" in message and "arm 1: 1, closed" in message and "arm 4: empty (takes a 0)" in message
    stated = french("1. A [0-0] B [0-1] C [0-2] D [0-4] 2. A [1-1]>1")
    assert codes(stated) == ["arm-closed"]


def test_a_player_who_holds_no_zero_passes_while_a_side_is_empty():
    rep = french("1. A [0-0] B [0-1] C [0-2] D [0-4] 2. A pass B pass")
    assert rep.valid, rep.errors
    wrong = french("1. A [0-0] B [0-1] C pass")
    assert codes(wrong) == ["false-pass"]


# "Der nächste Stein, der an einen der vier Arme gespielt wird, muss der entsprechende Doppelstein sein."
def test_the_next_tile_on_each_arm_is_its_double():
    skipped = french(FOUR_ZEROS + " 3. A [1-2]")
    assert codes(skipped) == ["double-skipped"]
    assert "must take [1-1] before any other tile" in skipped.errors[0].message
    on_arm = french(FOUR_ZEROS + " 3. A [1-3]>4")
    assert codes(on_arm) == ["double-skipped"] and "arm 4 ends in 3 and must take [3-3]" in on_arm.errors[0].message
    nowhere = french(FOUR_ZEROS + " 3. A [1-1] B [2-2] C [4-4] D [5-6]")
    assert codes(nowhere) == ["tile-no-match"]
    message = nowhere.errors[0].message
    assert "arm 1: 1; arm 2: 2; arm 3: 4; arm 4: 3, needs [3-3]" in message and "D could play [4-5]" in message


# "Sobald ein Doppelstein an einem Arm angelegt ist, kann an diesem Arm normal weitergespielt werden.
#  (Es ist nicht notwendig zu warten, bis alle vier Doppel angelegt wurden.)"
def test_after_its_double_an_arm_goes_on_without_waiting_for_the_other_doubles():
    rep = french(FOUR_ZEROS + " 3. A [1-1] B [2-2] C [4-4] D [4-5]")
    assert rep.valid, rep.errors
    assert rep.final.arms == (Arm(1, OPEN), Arm(2, OPEN), Arm(5, OPEN), Arm(3, DOUBLE))
    # [1-5] fits arm 1 (a 1) and arm 3 (a 5): the record says which with >N
    rep = french(FOUR_ZEROS + " 3. A [1-1] B [2-2] C [4-4] D [4-5] 4. A [1-5]>3")
    assert rep.valid and rep.final.arms[2] == Arm(1, OPEN) and rep.steps[-1].move == Move(T("[1-5]"), 5, arm=3)
    assert french(FOUR_ZEROS + " 3. A [1-1] B [2-2] C [4-4] D [4-5] 4. A [1-5]@5").steps[-1].move.arm == 3
    bad = french(FOUR_ZEROS + " 3. A [1-1] B [2-2] C [4-4] D [4-5] 4. A [1-3]>4")
    assert codes(bad) == ["double-skipped"]
    none = french(FOUR_ZEROS + " 3. A [1-1] B [2-2] C [4-4] D [4-5] 4. A [1-5]>7")
    assert codes(none) == ["bad-arm"]


# "Das Spiel gewinnt der Spieler, der als erster alle seine Steine angelegt hat."
# "Am Ende eines Spieles wird die Anzahl der Punkte auf den Steinen, die ein Spieler noch auf der Hand
#  hat, fortlaufend addiert. Wenn ein Spieler noch einen Doppelstein in seiner Hand hat, wird seine
#  Punktzahl verdoppelt."
def test_each_players_pips_are_added_to_his_total_doubled_when_he_holds_a_double():
    v = find_variant("french")
    hands = tuple(mask_of(T(t) for t in h) for h in (["[1-2]"], [], ["[3-3]", "[1-4]"], ["[5-6]"]))
    facts = HandFacts("domino", 1, (3, 0, 11, 11), (1, 0, 2, 1), 0, hands)
    result = v.hand_result(facts)
    assert result.winner == 1 and result.scores == (3, 0, 22, 11)
    state = v.match.apply(v.match.start(4), result)
    assert state.scores == (3, 0, 22, 11) and not state.over


# "Eine Partie ist zu Ende, wenn ein Spieler 100 Punkte erreicht; das ist der Verlierer. Der Spieler,
#  der zu diesem Zeitpunkt die geringste Anzahl an Punkten hat, ist der Gewinner."
def test_the_match_ends_when_someone_reaches_100_and_the_lowest_total_wins():
    v = find_variant("french")
    hands = (0, 0, 0, 0)
    state = v.match.start(4)
    state = v.match.apply(state, v.hand_result(HandFacts("domino", 0, (0, 40, 60, 99), (0, 3, 4, 5), 0, hands)))
    assert not state.over
    state = v.match.apply(state, v.hand_result(HandFacts("domino", 1, (10, 0, 40, 5), (1, 0, 4, 1), 0, hands)))
    assert state.over and state.scores == (10, 40, 100, 104) and state.winner == 0


# The text does not say how a blocked hand ends; we read it as nobody going out: every player's pips
# count as above, and the hand's nominal winner is the single lowest hand (none on a tie).
def test_a_blocked_french_hand_scores_every_hand_and_the_lowest_wins_it():
    v = find_variant("french")
    hands = tuple(mask_of(T(t) for t in h) for h in (["[1-2]"], ["[2-2]"], ["[1-4]"], ["[5-6]"]))
    result = v.hand_result(HandFacts("blocked", 3, (3, 4, 5, 11), (1, 1, 1, 1), 0, hands))
    assert result.termination == "blocked" and result.winner == 0 and result.scores == (3, 8, 5, 11)


def test_french_analysis_is_not_searched():
    v = find_variant("french")
    assert not v.exact_search and "four arms" in v.search_note


# -- cross domino (003) -----------------------------------------------------------------------------
# "Der anfängliche Doppelstein, der zunächst wie im normalen Spiel gespielt wird, muss an allen vier
#  Seiten je einen Dominostein haben, bevor das Spiel auf die übliche Weise fortgesetzt werden kann."
def test_the_spinner_takes_a_tile_on_all_four_sides_before_play_goes_on():
    v = find_variant("cross")
    assert v.players == 4 and v.seating.sides == 2 and v.dealing.hand_size == 6 and v.layout == "cross"
    rep = cross(SPINNER_FILLED)
    assert rep.valid, rep.errors
    assert rep.final.arms == (Arm(1, OPEN), Arm(2, OPEN), Arm(3, OPEN), Arm(0, OPEN))
    closed = cross("1. A [6-6] B [1-6] C [1-4]")
    assert codes(closed) == ["arm-closed"] and "arms 2 and 3 and 4 still empty" in closed.errors[0].message
    mid = cross("1. A [6-6] B [1-6] C [2-6]")
    assert mid.valid and mid.final.arms == (Arm(1, CLOSED), Arm(2, CLOSED), Arm(6, START), Arm(6, START))


# "... danach gibt es vier Enden, an die Dominosteine gelegt werden können."
def test_then_there_are_four_ends():
    rep = cross(SPINNER_FILLED + " B [0-3]>4 C [1-4]>1 D [2-5]")
    assert rep.valid, rep.errors
    assert rep.final.ends == (4, 5, 3, 3)
    ambiguous = cross(SPINNER_FILLED + " B [0-3]")
    (warning,) = [d for d in ambiguous.diagnostics if d.severity == "warning" and d.code != "incomplete"]
    assert warning.code == "ambiguous-end" and "fits arms 3 and 4" in warning.message
    nowhere = cross(SPINNER_FILLED + " B [3-3]>1")
    assert codes(nowhere) == ["tile-no-match"] and "arm 1 ends in 1" in nowhere.errors[0].message


# "Steine werden bei Bedarf aus dem Schläferstapel gezogen, um dies zu ermöglichen" - we play the
# cross as the 003 block game it builds on: the sleepers stay out of play, a player who cannot fill
# a side passes, and a spinner nobody can fill blocks the hand.
def test_the_cross_is_a_block_game_and_the_highest_double_opens():
    rep = cross("1. B [3-3]")
    assert "lead-player" in codes(rep)
    pos = position_for(find_variant("cross"), [[T("[6-6]"), T("[0-0]")], [T("[5-5]")], [T("[4-4]")], [T("[3-3]")]])
    pos.push(Move(T("[6-6]")))
    assert not pos.can_anyone_play() and pos.outcome().termination == "blocked" and pos.legal_moves() == []
    assert not find_variant("cross").exact_search


# -- the position ----------------------------------------------------------------------------------
def test_push_pop_restore_the_arms_and_the_key_ignores_the_order_of_alike_arms():
    v = find_variant("cross")
    hands = [[T(t) for t in h.replace("] [", "]|[").split("|")] for h in CROSS.values()]
    pos = position_for(v, hands)
    assert isinstance(pos, ArmPosition)
    key = pos.key()
    moves = [Move(T("[6-6]")), Move(T("[1-6]"), 6, arm=1), Move(T("[2-6]"), 6, arm=2)]
    keys = []
    for m in moves:
        pos.push(m)
        keys.append(pos.key())
        assert pos.copy().key() == pos.key()
    assert [m.tile for m in pos.legal_moves()] == [T("[3-6]")]
    for m in reversed(moves):
        assert pos.pop() == m
    assert pos.key() == key and pos.arms == () and pos.ends is None


# -- notation ---------------------------------------------------------------------------------------
def test_the_arm_is_written_after_the_tile_and_reads_back():
    text = '[Variant "cross"]\n\n1. A [6-6] B [1-6]>1 C [2-6]@6>2! D [3-6] > 3\n'
    record = parse(text)
    assert not record.errors
    assert [m.arm for m in record.games[0].moves] == [None, 1, 2, 3]
    assert "[2-6]@6>2!" in write(record) and parse(write(record)) == record
    assert str(Move(T("[2-6]"), 6, arm=2)) == "[2-6]@6>2"
    bad = parse("1. A [6-6] B [1-6]>0\n")
    assert [d.code for d in bad.errors] == ["bad-arm"]
    table = parse("Runde A B\n1 [6-6] [1-6]>1\n")
    assert not table.errors and table.games[0].moves[1].arm == 1


@pytest.mark.parametrize("name", ["variant-french.dom", "variant-cross.dom"])
def test_the_layout_records_validate_clean_and_round_trip(name):
    record = parse((RECORDS / name).read_text(), name)
    assert not record.errors and parse(write(record)) == record
    for rep in replay_record(record):
        assert rep.valid, rep.errors
        assert rep.outcome is not None
        assert any(s.move is not None and s.move.arm is not None for s in rep.steps)


@pytest.mark.parametrize("name", ["french", "cross"])
def test_random_layout_matches_validate_clean(name):
    for seed in range(10):
        record = random_match(name, seed, games=3)
        for rep in replay_record(parse(write(record))):
            assert rep.valid, (seed, rep.errors)
