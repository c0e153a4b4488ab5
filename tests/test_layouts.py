"""Layouts with more than two open ends: French domino (002) and cross domino (003), with its sleepers
drawn to fill the spinner and the double-nine cross's tree of arms; each rule tested with the seed
text's own sentence above it."""
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.analysis import analyze
from analyzer.match import random_match
from analyzer.notation import parse, write
from analyzer.match import replay_record
from analyzer.rules import HandFacts, find_variant
from analyzer.rules.mechanics import position_for
from analyzer.rules.layout import CLOSED, DOUBLE, OPEN, START, Arm, ArmPosition, Chain
from analyzer.position import mask_of
from analyzer.tiles import DRAW, PASS, Move, Tile
from analyzer.analysis import AnalysisSettings
from analyzer.search.core import SearchBudget

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
# Cross with drawing: B holds no 6; the sleepers are [3-6] [4-5] [4-6] [5-6].
CROSS_DRAW = {"A": "[6-6] [0-6] [0-0] [1-1] [0-1] [2-2]",
              "B": "[3-3] [0-2] [0-3] [1-2] [1-3] [2-3]",
              "C": "[1-6] [4-4] [0-4] [1-4] [2-4] [3-4]",
              "D": "[2-6] [5-5] [0-5] [1-5] [2-5] [3-5]"}
# B draws [4-5], then [3-6], and fills arm 1
DRAWN_FILL = "1. A [6-6] B draws [4-5] B draws [3-6] B [3-6] C [1-6] D [2-6] 2. A [0-6]"
# the 6s are all dealt (sleepers [3-4] [3-5] [4-5] [5-5]) and B holds none: he draws all four, then passes
NO_SIX_SLEEPERS = {"A": "[6-6] [0-6] [1-6] [0-0] [0-1] [1-1]",
                   "B": "[2-2] [0-2] [1-2] [0-3] [1-3] [2-3]",
                   "C": "[2-6] [3-6] [3-3] [0-4] [1-4] [2-4]",
                   "D": "[4-6] [5-6] [4-4] [0-5] [1-5] [2-5]"}
EXHAUSTED = ("1. A [6-6] B draws [3-4] B draws [3-5] B draws [4-5] B draws [5-5] B pass C [2-6] D [4-6] "
             "2. A [0-6] B pass C [3-6]")
# the deal of records/variant-cross-sleepers-no.dom: D holds no 5 and passes while a side is empty
CROSS_OLD = {"A": "[0-0] [0-2] [0-5] [2-5] [3-6] [5-5]",
             "B": "[1-2] [1-3] [1-5] [2-6] [4-4] [4-5]",
             "C": "[0-4] [1-6] [2-4] [3-4] [3-5] [5-6]",
             "D": "[0-3] [0-6] [1-4] [2-2] [2-3] [3-3]"}

# Double-nine cross: 7 tiles each, 27 sleepers; A opens with [9-9].
NINE = {"A": "[9-9] [0-9] [0-0] [0-1] [0-2] [0-3] [0-4]",
        "B": "[1-9] [1-1] [2-2] [1-2] [1-3] [5-6] [6-6]",
        "C": "[2-9] [1-4] [2-4] [3-4] [4-4] [5-7] [6-7]",
        "D": "[3-9] [1-7] [3-3] [2-3] [5-5] [7-7] [8-8]"}
# the spinner's sides get 1, 2, 3 and 0; then B's [1-1] on arm 1 branches: arms 5 and 6 open with 1
NINE_BRANCH = "1. A [9-9] B [1-9] C [2-9] D [3-9] 2. A [0-9] B [1-1]"


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


def test_french_analysis_is_each_player_against_the_rest():
    v = find_variant("french")
    assert not v.exact_search and "against all the others" in v.search_note and "bad points" in v.search_note


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


# "Kreuzdomino ist eine Variante, die dem traditionellen Format folgt" - the 003 block game: the
# highest double opens. With sleepers=no (not in the text) nobody draws: the sleepers stay out of
# play, a player who cannot fill a side passes, and a spinner nobody can fill blocks the hand.
def test_the_cross_is_a_block_game_and_the_highest_double_opens():
    rep = cross("1. B [3-3]")
    assert "lead-player" in codes(rep)
    no_draw = find_variant("cross", {"sleepers": "no"})
    assert no_draw.drawing is None and find_variant("cross").drawing is not None
    pos = position_for(no_draw, [[T("[6-6]"), T("[0-0]")], [T("[5-5]")], [T("[4-4]")], [T("[3-3]")]])
    assert pos.stock == 0
    pos.push(Move(T("[6-6]")))
    assert not pos.can_anyone_play() and pos.outcome().termination == "blocked" and pos.legal_moves() == []
    assert not find_variant("cross").exact_search
    old = game("1. A [5-5] B [4-5] C [5-6] D pass", "cross", CROSS_OLD, '[Rules "sleepers=no"]\n')
    assert old.valid, old.errors
    drawn = game("1. A [6-6] B draws [4-5]", "cross", CROSS, '[Rules "sleepers=no"]\n')
    assert codes(drawn) == ["no-boneyard"]


# "Der anfängliche Doppelstein ... muss an allen vier Seiten je einen Dominostein haben, bevor das Spiel
#  auf die übliche Weise fortgesetzt werden kann. Steine werden bei Bedarf aus dem Schläferstapel
#  gezogen, um dies zu ermöglichen" - a player who holds no tile for the empty side must draw.
def test_a_player_who_cannot_fill_the_spinner_draws_from_the_sleepers_until_he_can():
    rep = game(DRAWN_FILL, "cross", CROSS_DRAW)
    assert rep.valid, rep.errors
    assert [s.boneyard for s in rep.steps] == [4, 3, 2, 2, 2, 2, 2]
    assert rep.final.arms == (Arm(3, OPEN), Arm(1, OPEN), Arm(2, OPEN), Arm(0, OPEN))
    assert rep.final.hands[1] & T("[4-5]").bit and rep.final.stock == 2
    pos = rep.position_at(1)
    assert pos.turn == 1 and pos.legal_moves() == [DRAW] and pos.drawable() == 4
    passed = game("1. A [6-6] B pass", "cross", CROSS_DRAW)
    assert codes(passed) == ["must-draw"]
    message = passed.errors[0].message
    assert "draw from the sleepers (4 tiles)" in message and "arm 1: empty (takes a 6)" in message


# "Steine werden bei Bedarf aus dem Schläferstapel gezogen" - from the sleepers, and from nowhere else.
def test_the_drawn_tile_must_be_a_sleeper():
    rep = game("1. A [6-6] B draws [1-6]", "cross", CROSS_DRAW)
    assert codes(rep) == ["draw-not-in-boneyard"]
    assert "not among the sleepers: it is in C's hand" in rep.errors[0].message
    table = game("1. A [6-6] B draws [6-6]", "cross", CROSS_DRAW)
    assert codes(table) == ["draw-not-in-boneyard"] and "on the table" in table.errors[0].message


# "... bei Bedarf ... um dies zu ermöglichen" - only as many as he needs: he draws until he can play
# and not on, and a player who can fill the side does not draw at all.
def test_drawing_stops_once_he_can_play():
    rep = game("1. A [6-6] B draws [3-6] B draws [4-5]", "cross", CROSS_DRAW)
    assert codes(rep) == ["draw-too-long"] and "B could play [3-6]" in rep.errors[0].message
    rep = game("1. A [6-6] B draws [4-5] B draws [3-6] B [3-6] C draws [4-6]", "cross", CROSS_DRAW)
    assert codes(rep) == ["draw-not-allowed"]
    assert "could play [1-6] on arm 1: 3, closed; arm 2: empty (takes a 6)" in rep.errors[0].message


# When the sleepers are gone he passes: the draw game of 003 ("es sei denn und bis alle Steine
# genommen sind, in welchem Fall sein Zug weitergegeben wird").
def test_when_the_sleepers_are_gone_he_passes():
    rep = game(EXHAUSTED, "cross", NO_SIX_SLEEPERS)
    assert rep.valid, rep.errors
    assert rep.final.stock == 0 and all(a.state == OPEN for a in rep.final.arms)
    assert rep.steps[5].lacks == (6,)
    early = game("1. A [6-6] B draws [3-4] B draws [3-5] B draws [4-5] B pass", "cross", NO_SIX_SLEEPERS)
    assert codes(early) == ["must-draw"] and "(1 tile)" in early.errors[0].message
    empty = game("1. A [6-6] B draws [3-4] B draws [3-5] B draws [4-5] B draws [5-5] B draws ?", "cross",
                 NO_SIX_SLEEPERS)
    assert codes(empty) == ["boneyard-empty"] and "the sleepers are all drawn" in empty.errors[0].message
    # a spinner nobody can fill blocks the hand once the sleepers are gone
    pos = position_for(find_variant("cross"), [[T("[6-6]"), T("[0-0]")], [T("[5-5]")], [T("[4-4]")], [T("[3-3]")]])
    pos.push(Move(T("[6-6]")))
    assert pos.outcome() is None and pos.legal_moves() == [DRAW]
    for tile in ("[0-1]", "[0-2]", "[1-2]", "[1-3]"):
        pos.push(Move(T(tile), None, True))
    assert pos.stock == 0 and pos.outcome().termination == "blocked" and pos.legal_moves() == []


# "... danach gibt es vier Enden" - once all four sides are filled nobody draws: a player who cannot
# play passes, as in the block game.
def test_no_draws_after_the_four_sides_are_filled():
    rep = game(DRAWN_FILL + " B draws [4-6]", "cross", CROSS_DRAW)
    assert codes(rep) == ["draw-not-allowed"]
    assert "every side of the spinner has a tile" in rep.errors[0].message
    # after the fill the ends are 1, 2, 3 and 0: B's [5-5] and C's [4-4] fit none, D's [0-5] fits arm 4
    hands = [["[6-6]", "[0-6]", "[4-6]"], ["[1-6]", "[5-5]"], ["[2-6]", "[4-4]"], ["[3-6]", "[0-5]"]]
    pos = position_for(find_variant("cross"), [[T(t) for t in h] for h in hands])
    for m in ("[6-6]", "[1-6]", "[2-6]", "[3-6]", "[0-6]"):
        pos.push(Move(T(m), 6))
    assert pos.turn == 1 and pos.stock == 4
    assert not pos.filling() and pos.drawable() == 0 and not pos.can_draw(1) and pos.legal_moves() == [PASS]
    pos.push(PASS)
    assert pos.legal_moves() == [PASS] and pos.outcome() is None       # nor may C
    pos.push(PASS)
    assert pos.legal_moves() == [Move(T("[0-5]"), 0, arm=4)] and pos.stock == 4


# -- the double-nine cross (003) ------------------------------------------------------------------
# "Mit größeren Sets, zum Beispiel mit Doppel-Neun-Sets, kann dies auf noch größere Bäume erweitert werden,
#  ... Dies ist bekannt als Doppel-Neun-Kreuzdomino" - the set, the deal and the names.
def test_the_double_nine_cross_is_played_with_the_double_nine_set():
    v = find_variant("double-nine-cross")
    assert v is find_variant("cross", {"set": "9"}) is find_variant("Doppel-Neun-Kreuzdomino")
    assert (v.players, v.seating.sides, v.dealing.max_pip, v.dealing.hand_size) == (4, 2, 9, 7)
    assert len(v.dealing.tiles) == 55 and v.dealing.sleepers(4) == 27 and v.layout == "tree"
    assert v.drawing is not None and v.rules_text == "set=9"
    assert find_variant("cross").layout == "cross" and find_variant("cross").dealing.max_pip == 6
    rep = game(NINE_BRANCH, "cross", NINE, '[Rules "set=9"]\n')
    assert rep.valid, rep.errors
    assert rep.final.stock == 27 and rep.steps[0].boneyard == 27
    # the spinner is filled first, as in the double-six cross
    closed = game("1. A [9-9] B [1-9] C [2-9] D [3-9] 2. A [0-2]", "cross", NINE, '[Rules "set=9"]\n')
    assert codes(closed) == ["arm-closed"]


# "... bei denen jede Dublette rechtwinklig platziert wird und sich zwei neue Ketten daraus bilden."
def test_a_double_on_an_arm_opens_two_new_arms_with_its_number():
    rep = game(NINE_BRANCH, "cross", NINE, '[Rules "set=9"]\n')
    pos = rep.final
    assert pos.arms == (Arm(1, OPEN), Arm(2, OPEN), Arm(3, OPEN), Arm(0, OPEN), Arm(1, OPEN), Arm(1, OPEN))
    assert pos.ends == (1, 2, 3, 0, 1, 1) and pos.numbers_open() == (0, 1, 2, 3)
    assert pos.ends_text() == "arm 1: 1; arm 2: 2; arm 3: 3; arm 4: 0; arm 5: 1; arm 6: 1"
    # the arm goes on from the double; the new arms start at its sides
    rep = game(NINE_BRANCH + " C [1-4]>5 D [1-7]>6 3. A [0-1]", "cross", NINE, '[Rules "set=9"]\n')
    assert rep.valid, rep.errors
    pos = rep.final
    assert pos.ends == (0, 2, 3, 0, 4, 7) and pos.lead_tile() == T("[9-9]")
    assert pos.chains() == [Chain(1, None, ((9, 1), (1, 1), (1, 0))), Chain(2, None, ((9, 2),)),
                            Chain(3, None, ((9, 3),)), Chain(4, None, ((9, 0),)),
                            Chain(5, (1, 1), ((1, 4),)), Chain(6, (1, 1), ((1, 7),))]
    # every double branches: B's [2-2] on arm 2 opens arms 7 and 8, and C's [4-4] on arm 5, itself a
    # branch, opens arms 9 and 10
    rep = game(NINE_BRANCH + " C [1-4]>5 D [1-7]>6 3. A [0-1]>1 B [2-2] C [4-4]", "cross", NINE,
               '[Rules "set=9"]\n')
    assert rep.valid, rep.errors
    chains = rep.final.chains()
    assert [c.origin for c in chains] == [None] * 4 + [(1, 1), (1, 1), (2, 1), (2, 1), (5, 1), (5, 1)]
    assert chains[4].tiles == ((1, 4), (4, 4)) and chains[8].tiles == chains[9].tiles == ()
    assert rep.final.ends == (0, 2, 3, 0, 4, 7, 2, 2, 4, 4)


# We read "sich zwei neue Ketten daraus bilden" as two new ends to play on, not as a second spinner:
# only the first double must have all its sides filled before play goes on.
def test_the_new_arms_need_not_be_filled_before_play_goes_on():
    rep = game(NINE_BRANCH + " C [2-4]>2 D [3-3]>3", "cross", NINE, '[Rules "set=9"]\n')
    assert rep.valid, rep.errors
    assert len(rep.final.arms) == 8 and rep.final.arms[4:6] == (Arm(1, OPEN), Arm(1, OPEN))
    assert rep.final.arms[6:] == (Arm(3, OPEN), Arm(3, OPEN))
    # the double-six cross does not branch: its later doubles are played like any tile
    six = cross(SPINNER_FILLED + " B [3-3]>3")
    assert six.valid and len(six.final.arms) == 4 and six.final.chains()[2].tiles == ((6, 3), (3, 3))


def test_a_tile_on_an_arm_that_does_not_exist_is_a_bad_arm():
    rep = game(NINE_BRANCH + " C [1-4]>7", "cross", NINE, '[Rules "set=9"]\n')
    assert codes(rep) == ["bad-arm"]
    message = rep.errors[0].message
    assert "there is no arm 7; the layout has arms 1 to 6" in message
    assert "arm 1: 1; arm 2: 2; arm 3: 3; arm 4: 0; arm 5: 1; arm 6: 1" in message
    nowhere = game(NINE_BRANCH + " C [5-7]", "cross", NINE, '[Rules "set=9"]\n')
    assert codes(nowhere) == ["tile-no-match"]
    assert ("does not fit the open ends: arm 1: 1; arm 2: 2; arm 3: 3; arm 4: 0; arm 5: 1; arm 6: 1; "
            "C could play [1-4] [2-4] [3-4]") in nowhere.errors[0].message
    # a tile that fits alike arms goes on the first of them unless >N says otherwise
    first = game(NINE_BRANCH + " C [1-4]", "cross", NINE, '[Rules "set=9"]\n')
    assert first.valid and first.steps[-1].move.arm == 1 and first.final.chains()[4].tiles == ()


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


def _state(pos: ArmPosition) -> tuple:
    """Every slot of the position, lists as tuples: what push followed by pop must restore exactly."""
    slots = [name for klass in type(pos).__mro__ for name in getattr(klass, "__slots__", ())]
    return tuple((name, tuple(v) if isinstance(v := getattr(pos, name), list) else v) for name in slots)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(["cross", "double-nine-cross", "french"]), seed=st.integers(0, 2**32 - 1))
def test_every_legal_move_pushes_and_pops_exactly_in_random_hands(name, seed):
    """Through a random hand (draws from the sleepers in a random order, branching doubles): every
    legal move, pushed and popped, restores every slot; the key follows the copy."""
    rng = random.Random(seed)
    v = find_variant(name)
    tiles = list(v.dealing.tiles)
    rng.shuffle(tiles)
    size = v.dealing.hand_size
    hands = [sorted(tiles[i * size:(i + 1) * size]) for i in range(v.players)]
    sleepers = tiles[v.players * size:]
    pos = position_for(v, hands, 0, max_pip=v.dealing.max_pip)
    pos.pool &= mask_of(v.dealing.tiles)
    start, pushed = _state(pos), []
    while (legal := pos.legal_moves()):
        before, key = _state(pos), pos.key()
        moves = [Move(sleepers[-1], None, True) if m.draw else m for m in legal]
        for move in moves:
            pos.push(move)
            assert pos.copy().key() == pos.key() and _state(pos.copy()) == _state(pos)
            assert pos.key() != key
            assert pos.pop() == move and _state(pos) == before and pos.key() == key
        move = rng.choice(moves)
        if move.draw:
            assert pos.filling() and v.drawing is not None
            sleepers.pop()
        pos.push(move)
        pushed.append(move)
    assert pos.outcome() is not None
    for move in reversed(pushed):
        assert pos.pop() == move
    assert _state(pos) == start


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


LAYOUT_RECORDS = ["variant-french.dom", "variant-cross.dom", "variant-cross-sleepers-no.dom", "variant-cross-9.dom",
                  "variant-cross-alike-arms.dom"]


@pytest.mark.parametrize("name", LAYOUT_RECORDS)
def test_the_layout_records_validate_clean_and_round_trip(name):
    record = parse((RECORDS / name).read_text(), name)
    assert not record.errors and parse(write(record)) == record
    for rep in replay_record(record):
        assert rep.valid, rep.errors
        assert rep.outcome is not None
        assert any(s.move is not None and s.move.arm is not None for s in rep.steps)


def test_the_cross_records_show_sleeper_draws_and_a_tree_of_arms():
    (drawn,) = replay_record(parse((RECORDS / "variant-cross.dom").read_text()))
    draws = [s for s in drawn.steps if s.move.draw]
    assert {s.entry.player for s in draws} == {"B", "C"}
    assert all(s.arms is not None and any(a.state == START for a in s.arms) for s in draws)
    (plain,) = replay_record(parse((RECORDS / "variant-cross-sleepers-no.dom").read_text()))
    assert plain.variant.drawing is None and plain.steps[3].entry.is_pass and plain.steps[3].lacks == (5,)
    (nine,) = replay_record(parse((RECORDS / "variant-cross-9.dom").read_text()))
    assert nine.variant is find_variant("double-nine-cross") and any(s.move.draw for s in nine.steps)
    chains = nine.final.chains()
    branches = [c for c in chains if c.origin is not None]
    assert len(branches) >= 4 and any(chains[c.origin[0] - 1].origin is not None for c in branches)
    for c in branches:              # each branch arm starts at a double of its parent arm
        parent, index = c.origin
        near, far = chains[parent - 1].tiles[index]
        assert near == far and (not c.tiles or c.tiles[0][0] == near)


@pytest.mark.parametrize("name,options", [("french", {}), ("cross", {}), ("cross", {"sleepers": "no"}),
                                          ("double-nine-cross", {}), ("cross", {"set": "9", "sleepers": "no"})])
def test_random_layout_matches_validate_clean(name, options):
    variant = find_variant(name, options)
    draws = branches = 0
    for seed in range(10):
        record = random_match(variant, seed, games=3)
        for rep in replay_record(parse(write(record))):
            assert rep.valid, (seed, rep.errors)
            draws += sum(s.move.draw for s in rep.steps if s.move is not None)
            branches += sum(c.origin is not None for c in rep.final.chains())
            # a draw only while a side of the spinner is empty
            assert all(any(a.state == START for a in s.arms) for s in rep.steps if s.move is not None and s.move.draw)
    assert (draws > 0) == (variant.drawing is not None)
    assert (branches > 0) == (variant.layout == "tree")


def test_a_tile_on_a_later_alike_arm_is_analysed_as_the_same_move():
    """records/variant-cross-alike-arms.dom: C's [3-4]>3 in round 3 goes on arm 3 while arm 1 is
    alike (both open, both ending in 3). The search lists one move per class of alike arms, so the
    played move is that one (the positions after either are the same); analysing the record used to
    fail with StopIteration."""
    record = parse((RECORDS / "variant-cross-alike-arms.dom").read_text())
    (rep,) = replay_record(record)
    assert rep.valid, rep.errors
    later = [(n, s) for n, s in enumerate(rep.steps) if s.move is not None and s.move.arm is not None
             and rep.position_at(n).canonical(s.move) != s.move]
    assert later and later[0][1].entry.round == 3 and later[0][1].move.arm == 3
    for n, step in later:
        pos = rep.position_at(n)
        same = pos.canonical(step.move)
        assert same in pos.legal_moves() and same.arm < step.move.arm and same.tile == step.move.tile
        one, other = pos.copy(), pos.copy()
        one.push(step.move)
        other.push(same)
        assert one.key() == other.key()
    (analysis,) = analyze(record, settings=AnalysisSettings(budget=SearchBudget(2000)))
    decided = {d.index: d for d in analysis.decisions}
    assert any(step.index in decided for _, step in later)
    for _, step in later:
        if step.index in decided:
            d = decided[step.index]
            (played,) = [a for a in d.alternatives if a.played]
            assert played.value == d.played_value
