"""All Fives and All Fives and Threes (003): points scored during play from the open ends, the
Muggins call, the end-of-hand award and the match to 100; each rule tested with the seed text's
own sentence above it."""
from pathlib import Path

import pytest

from analyzer.match import random_match
from analyzer.notation import parse, write
from analyzer.notation.writer import table_writable
from analyzer.match import replay_record
from analyzer.rules import HandFacts, HandResult, find_variant
from analyzer.rules.policies import DifferenceAward, PlayScoring, Seating
from analyzer.tiles import Tile

T = Tile.parse
RECORD = Path(__file__).resolve().parents[1] / "records" / "variant-all-fives.dom"

# Two players, five tiles each (the 003 draw game); A holds the highest double, [4-4].
A_HAND = "[0-1] [0-4] [1-5] [3-6] [4-4]"
B_HAND = "[0-6] [1-1] [2-3] [2-4] [5-6]"
C_HAND = "[0-2] [0-3] [0-5] [1-2] [1-3]"


def game(moves: str, variant: str = "all-fives", rules: str = "", hands=(A_HAND, B_HAND)):
    tags = f'[Variant "{variant}"]\n' + (f'[Rules "{rules}"]\n' if rules else "")
    deal = "\n".join(f"{n}: {h}" for n, h in zip("ABC", hands))
    (rep,) = replay_record(parse(f"{tags}{deal}\n\n{moves}\n", "fives.dom"))
    return rep


def codes(rep, severity="error") -> list[str]:
    """The codes of one severity, leaving out that a short record ends before the hand is over."""
    return [d.code for d in rep.diagnostics if d.severity == severity and d.code != "incomplete"]


def line(*tiles: str) -> list:
    return [(T(t), False) for t in tiles]


# -- the count of the open ends ---------------------------------------------------------------------
# "Dubletten, quer gespielt, beide Hälften zählen lassen, sodass zum Beispiel ein Doppel-Vier an
#  einem Ende und ein Einfach-Zwei am anderen für zehn zählen."
def test_a_double_four_at_one_end_and_a_two_at_the_other_count_ten():
    assert PlayScoring.ends_total(line("[4-4]", "[2-4]"), (4, 2)) == 10
    ok = game("1. A [4-4] B [2-4] +10")
    assert ok.valid and not codes(ok, "warning"), ok.diagnostics
    assert ok.steps[1].scores == (0, 10) and ok.steps[1].scored == 10 and ok.scores == (0, 10)
    wrong = game("1. A [4-4] B [2-4] +5")
    assert codes(wrong) == ["wrong-score"]
    assert "claims 5, but the open ends count 10, which scores 10" in wrong.errors[0].message
    assert wrong.scores == (0, 10)          # the running score counts what the ends give


# "Nicht-Dubletten die äußere Hälfte ihres Steins als Ende definiert haben"
def test_a_single_tile_counts_its_outer_half_and_a_lone_lead_its_pips():
    assert PlayScoring.ends_total(line("[2-4]", "[4-6]"), (2, 6)) == 8
    assert PlayScoring.ends_total(line("[5-5]"), (5, 5)) == 10          # the lead: its pips, not 20
    assert PlayScoring.ends_total(line("[4-4]", "[4-1]", "[1-1]"), (4, 1)) == 10   # a double at each end
    lead = game("1. B [5-5] +10", hands=("[0-1] [0-4] [1-5] [3-6] [4-4]", "[5-5] [1-1] [2-3] [2-4] [5-6]"))
    assert lead.valid and lead.scores == (0, 10)


# "Wann immer ein Spieler einen Stein an einem Ende legt, sodass die Punkte an beiden Enden eine Summe
#  ergeben, die ein Vielfaches von fünf ist, wird diese Zahl zu seinem Punktestand hinzugefügt"
@pytest.mark.parametrize("total,points", [(5, 5), (10, 10), (15, 15), (20, 20), (4, 0), (6, 0), (12, 0), (0, 0)])
def test_multiples_of_five_score_their_sum(total, points):
    assert find_variant("all-fives").play.points(total) == points


def test_a_claim_the_ends_do_not_give_is_wrong_and_a_missed_one_a_warning():
    rep = game("1. A [4-4] +8 B [2-4] +10 2. A [0-4] +5")
    assert codes(rep) == ["wrong-score", "wrong-score"]
    assert "count 8, which is no multiple of five and scores nothing" in rep.errors[0].message
    missed = game("1. A [4-4] B [2-4]")
    assert missed.valid and codes(missed, "warning") == ["missed-score"]
    assert "the next player, A, may take them with muggins" in missed.diagnostics[0].message
    assert missed.scores == (0, 0)
    on_a_pass = game("1. A [4-4] B [2-4] +10 2. A [0-4] B pass +5")
    assert "wrong-score" in codes(on_a_pass) and "only a play scores" in on_a_pass.errors[-1].message
    elsewhere = replay_record(parse("[Variant \"draw\"]\nA: [6-6] [2-4]\nB: [1-6] [2-2]\n\n1. A [6-6] +10\n"))[0]
    assert [d.message for d in elsewhere.errors if d.code == "wrong-score"] == [
        "A claims 10, but in the draw game nobody scores during play"]


def test_a_claim_decides_which_end_a_tile_went_on():
    # at the end A's [0-1] fits the 0 and the [1-1]: on the 0 the ends count 1 + 2 = 3, on the 1 they
    # count 0; under All Fives and Threes only the first scores, so the claim tells the two apart
    moves = "1. A [4-4] B [2-4] +10 2. A [0-4] B [2-3] 3. A [3-6] B [5-6] 4. A [1-5] B [1-1] 5. A [0-1]"
    plain = game(moves, "all-fives-threes")
    assert plain.valid and "ambiguous-end" in codes(plain, "info")
    for claim, end in (("+3", 0), ("+0", 1)):
        rep = game(moves + " " + claim, "all-fives-threes")
        assert rep.valid and "ambiguous-end" not in codes(rep, "info") and rep.steps[-1].move.end == end


# -- all fives and threes ---------------------------------------------------------------------------
# "Eine weitere Anpassung spielt auf die gleiche Weise, aber mit Bezug auf Vielfache von drei sowie
#  Vielfache von fünf. Diese Variante wird einfach Alle Fünfer und Dreier genannt."
@pytest.mark.parametrize("total,points", [(3, 3), (5, 5), (6, 6), (9, 9), (10, 10), (15, 15), (4, 0), (7, 0)])
def test_multiples_of_three_score_as_well(total, points):
    assert find_variant("all-fives-threes").play.points(total) == points


# The option of British pubs (not in the text): the score is the number of fives plus the number of
# threes, so 15 scores 3 fives + 5 threes = 8.
@pytest.mark.parametrize("total,points", [(15, 8), (3, 1), (5, 1), (6, 2), (9, 3), (10, 2), (12, 4), (20, 4),
                                          (30, 16), (7, 0)])
def test_the_pub_count_is_fives_plus_threes(total, points):
    assert find_variant("fives and threes", {"count": "pub"}).play.points(total) == points


def test_fifteen_scores_eight_in_a_pub_record():
    # [6-6] alone counts 12 (4 threes); [3-6] on it leaves the double's 12 and a 3: 15
    hands = ("[6-6] [0-1] [0-4] [1-5] [4-4]", "[3-6] [1-1] [2-3] [2-4] [5-6]")
    ok = game("1. A [6-6] +4 B [3-6] +8", "all-fives-threes", "count=pub", hands)
    assert ok.valid and not codes(ok, "warning") and ok.scores == (4, 8)
    wrong = game("1. A [6-6] +4 B [3-6] +15", "all-fives-threes", "count=pub", hands)
    assert codes(wrong) == ["wrong-score"]
    assert "the open ends count 15, which scores 8 (3 fives and 5 threes)" in wrong.errors[0].message
    summed = game("1. A [6-6] +12 B [3-6] +15", "all-fives-threes", "", hands)
    assert summed.valid and summed.scores == (12, 15)


# -- muggins --------------------------------------------------------------------------------------
# "Wenn ein Spieler auf diese Weise spielt, aber seine hinzugefügte Punktzahl nicht notiert, kann der
#  unmittelbare nächste Spieler stattdessen die Punkte mit der Erklärung 'Muggins' beanspruchen"
def test_the_next_player_takes_an_unclaimed_score_with_muggins():
    ok = game("1. A [4-4] B [2-4] A muggins 10 2. A [0-4]")
    # the call collected the points: the warning on B's play is withdrawn, a note says who took them
    assert ok.valid and codes(ok, "warning") == [] and codes(ok, "info") == ["missed-score"], ok.diagnostics
    assert "A takes them with muggins" in ok.steps[1].diagnostics[0].message
    assert ok.steps[2].move is None and ok.steps[2].scored == 10 and ok.scores == (10, 0)


def test_only_the_immediately_next_player_may_call_muggins():
    three = (A_HAND, B_HAND, C_HAND)
    # A leads [4-4], B plays [2-4] for ten and does not claim: C is next, not A
    ok = game("1. A [4-4] B [2-4] C muggins 10", hands=three)
    assert ok.valid and ok.scores == (0, 0, 10)
    wrong_player = game("1. A [4-4] B [2-4] A muggins 10", hands=three)
    assert codes(wrong_player) == ["bad-muggins"]
    assert "only the next player, C, may" in wrong_player.errors[0].message and wrong_player.scores == (0, 0, 0)
    too_late = game("1. A [4-4] B [2-4] C [1-2] A muggins 10", hands=three)   # C moved first
    assert "bad-muggins" in codes(too_late)
    claimed = game("1. A [4-4] B [2-4] +10 C muggins 10", hands=three)
    assert codes(claimed) == ["bad-muggins"] and "no scoring play left unclaimed" in claimed.errors[0].message
    wrong_sum = game("1. A [4-4] B [2-4] C muggins 5", hands=three)
    assert codes(wrong_sum) == ["bad-muggins"] and "left 10 unclaimed" in wrong_sum.errors[0].message
    nothing_to_take = game("1. A [4-4] B muggins 5")
    assert codes(nothing_to_take) == ["bad-muggins"]
    elsewhere = replay_record(parse("[Variant \"draw\"]\nA: [6-6] [2-4]\nB: [1-6] [2-2]\n\n1. A [6-6] B muggins 5\n"))[0]
    assert [d.message for d in elsewhere.errors if d.code == "bad-muggins"] == [
        "B calls muggins, but in the draw game nobody scores during play"]


# -- the end of the hand and the match ----------------------------------------------------------------
# "Jeder verlierende Spieler nimmt die Differenz zwischen seiner und der Punktzahl des Gewinners am Ende,
#  rundet sie auf fünf auf und schreibt sie dem Gewinner gut: das heißt, die Schlussfolgerungspunkte sind
#  die Summe der gerundeten Differenzen."
# Read as the pips left in hand ("Punktzahl" of the tiles, as the text counts a hand's "Summe"): the
# winner gets each loser's pips less his own, each difference rounded up to five.
def test_each_losers_difference_is_rounded_up_to_five():
    award = DifferenceAward(5)
    seats = Seating.individual(3)
    out = HandFacts("domino", 0, (0, 6, 11), (0, 2, 3), 0, play_points=(10, 5, 0))
    assert award.award(out, 0, seats) == 10 + 15
    result = award.score(out, 0, "", seats)
    assert result.points == 25 and result.scores == (35, 5, 0)
    blocked = HandFacts("blocked", 1, (7, 3, 12), (2, 1, 3), 0)
    assert award.award(blocked, 1, seats) == 5 + 10          # 4 -> 5 and 9 -> 10
    assert award.award(HandFacts("blocked", 1, (3, 3, 12), (1, 1, 3), 0), None, seats) == 0
    v = find_variant("all-fives", players=3)
    tie = v.hand_result(HandFacts("blocked", 1, (3, 3, 12), (1, 1, 3), 0, play_points=(5, 0, 0)))
    assert tie.winner is None and tie.scores == (5, 0, 0)


def test_the_constructed_record_validates_and_round_trips():
    record = parse(RECORD.read_text(encoding="utf-8"), str(RECORD))
    assert not record.errors and "constructed" in record.games[0].tags["Source"]
    assert parse(write(record)) == record and not table_writable(record.games[0])
    (rep,) = replay_record(record)
    assert rep.valid, rep.errors
    # B's unclaimed 5, taken by A's Muggins call: the warning is withdrawn, a note stays
    assert codes(rep, "warning") == [] and codes(rep, "info") == ["missed-score"]
    assert rep.scores == (5, 10)                                  # A's muggins 5, B's [4-4] and 2
    assert rep.result.winner == 0 and rep.result.points == 10     # B's [0-6] left: 6, rounded up
    assert rep.match.state.scores == (15, 10)


# "Dieses Spiel wird am häufigsten bis zu 100 gespielt."
def test_the_match_is_played_to_100():
    v = find_variant("all-fives")
    assert v.match.target == 100 and find_variant("all-fives-threes").match.target == 100
    state = v.match.apply(v.match.start(2), HandResult("domino", 0, 20, 0, (95, 30)))
    assert not state.over
    state = v.match.apply(state, HandResult("domino", 1, 10, 1, (5, 10)))
    assert state.over and state.winner == 0 and state.scores == (100, 40)
    record = random_match(v, 5, games=40)
    reps = replay_record(parse(write(record)))
    assert all(r.valid for r in reps) and reps[-1].match.state.over
    assert max(reps[-1].match.state.scores) >= 100 > max(reps[-2].match.state.scores)


# -- players, drawing, notation and analysis ----------------------------------------------------------
# "Wenn ein Spieler nicht fortfahren kann, zieht er einen Stein aus dem verdeckten Stapel in der Mitte,
#  es sei denn und bis alle Steine genommen sind, in welchem Fall sein Zug weitergegeben wird."
def test_the_003_draw_game_by_default_and_the_block_game_as_an_option():
    v = find_variant("alle Fünfer".replace("ü", "ue"), players=3)
    assert v.players == 3 and v.dealing.hand_size == 5 and v.drawing.rule == "one" and v.drawing.keep == 0
    assert find_variant("all-fives", {"draw": "until"}).drawing.rule == "until"
    block = find_variant("all-fives", {"draw": "no", "players": "4"})
    assert block.drawing is None and block.dealing.hand_size == 6 and block.dealing.sleepers(4) == 4
    rep = game("1. A [4-4] B [2-4] +10 2. A [0-4] B [2-3] 3. A [3-6] B [5-6] +5 4. A [1-5] B draws [1-2] B pass")
    assert codes(rep) == ["draw-not-allowed", "false-pass"]    # B holds [1-1] for the 1


def test_notation_of_claims_and_muggins_round_trips():
    text = "[Variant \"all-fives\"]\nA: ?\nB: ?\n\n1. A [4-4] B [2-4]@4! +10 {ten} A muggins 5 B muggins 10\n"
    record = parse(text)
    assert not record.errors
    moves = record.games[0].moves
    assert moves[1].claim == 10 and moves[1].annotation == "!" and moves[1].end == 4 and moves[1].comment == "ten"
    assert moves[2].muggins == 5 and moves[2].tile is None and not moves[2].is_pass and moves[2].is_muggins
    back = write(record)
    assert "B [2-4]@4! +10 {ten} A muggins 5" in back and parse(back) == record


def test_the_analysis_counts_the_points_scored_during_play():
    for name in ("all-fives", "all-fives-threes"):
        v = find_variant(name, {"draw": "no"})
        assert v.exact_search and "points scored during play" in v.search_note
        assert not find_variant(name).exact_search       # the draw game: the boneyard order is assumed


@pytest.mark.parametrize("moves, count", [
    ("1. Ann draws ? Ann pass Bob [0-1]@1 Ann [0-2]@0 Bob [1-2]@2", 5),      # two tiles on one end, one on it
    ("1. Ann [3-4]@4 Bob [0-1]@1", 3),                                       # one on each end: 0 and 3
])
def test_a_set_up_given_by_its_ends_counts_them_after_plays_on_one_side(moves, count):
    """A set-up whose table is given by its ``Ends`` alone (no ``Line``: the end tiles unnamed, taken as no
    doubles): after plays on one side only, the other end is still the set-up's; "the points at both ends" add up
    the two open numbers (once an internal error: the line's far end was looked for among the record's moves)."""
    text = ('[Variant "all-fives"] [Players "Ann, Bob"] [SetUp "1"] [Ends "1 4"] [OnTable "8"] [ToMove "Ann"]\n'
            "Ann: [0-2] [3-3] [5-6] [3-4]\nBob: [0-1] [1-2] [2-6]\n" + moves + "\n")
    (rep,) = replay_record(parse(text, "setup.dom"))
    assert all(d.code != "internal-error" for d in rep.diagnostics)
    last = rep.steps[-1]
    left, right = last.ends_after
    assert left + right == count
    missed = [d for d in rep.diagnostics if d.code == "missed-score"]
    assert bool(missed) == (count % 5 == 0)
