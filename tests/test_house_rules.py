"""House rules of the partnership game (issue 67, item 1): capicúa doubling, the opening side's bonus ("la salida
vale 20"), "no caben", Dominican capicúa and the Brasília tournament rules. Each rule is tested on facts with the
sentence it comes from (docs/variants.md names the sources and says it in our words), on its record in records/
(valid with the option, invalid without it, the error naming the option), and the exact search under it against
plain minimax on small deals (both cores)."""
import random
import re

import pytest

from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.rules import HandFacts, HandResult, find_variant
from analyzer.rules.matchplay import MatchState, parse_clock
from analyzer.rules.mechanics import position_for
from analyzer.rules.policies import PASS_DOMINICAN, PassedPlay, PointScoring, capicua
from analyzer.search.block import Solver, core_note
from analyzer.search.scoring import NO_BOUND, describe, pass_bonus_table
from analyzer.tiles import Tile, tile_set
from conftest import RECORDS, ROOT
from minimax_reference import Reference, from_move
from test_scoring_core import _check_random_hands, built

T = Tile.parse


def facts(term, seat, pips, leader=0, last=None, ends=None, history=None):
    return HandFacts(term, seat, tuple(pips), (1,) * len(pips), leader, None, last and T(last), ends, history)


def _replay(text: str, name: str = "house.dom"):
    return replay_record(parse(text, name))


# -- capicúa doubling (Cuban and Venezuelan houses) ---------------------------------------------------------------
def test_a_capicua_doubles_the_points_but_not_a_double_nor_a_block():
    """libreonline.com (Cuba's "modalidad capicúa"): the last tile of a player who goes out, if it could go on either
    end, doubles the points the pair makes in that hand; a double is never a capicúa."""
    v = find_variant("cuban", "capicu=double")
    plain = find_variant("cuban")
    pips = (0, 7, 0, 9)
    got = v.hand_result(facts("domino", 0, pips, last="[2-6]", ends=(2, 6)))
    assert got.points == 2 * plain.hand_result(facts("domino", 0, pips, last="[2-6]", ends=(2, 6))).points == 32
    assert v.hand_result(facts("domino", 0, pips, last="[2-6]", ends=(2, 5))).points == 16      # one end only
    assert v.hand_result(facts("domino", 0, pips, last="[6-6]", ends=(6, 6))).points == 16      # a double
    assert v.hand_result(facts("blocked", 0, (3, 7, 4, 9), last="[2-6]", ends=(2, 6))).points == 16
    assert capicua(T("[3-4]"), (4, 3)) and capicua(T("[3-4]"), (3, 3)) and not capicua(T("[3-3]"), (3, 3))
    assert find_variant("venezuelan", "capicu=double").hand_result(
        facts("domino", 0, (0, 7, 4, 9), last="[2-6]", ends=(6, 2))).points == 40     # every pip left, twice


def test_a_capicua_closed_with_a_double_that_fits_both_ends_is_doubled_with_double_any():
    """The Venezuelan house of the issue (closing with a double that fitted both ends) and teamocuba.com's capicúa,
    which excludes no double: ``capicu=double-any`` doubles a domino made with a double on two equal ends too; a double
    on one end only is none, and ``capicu=double`` still excludes the double (libreonline.com)."""
    v, strict = find_variant("venezuelan", "capicu=double-any"), find_variant("venezuelan", "capicu=double")
    pips = (0, 7, 4, 9)
    assert v.hand_result(facts("domino", 0, pips, last="[2-2]", ends=(2, 2))).points == 40
    assert strict.hand_result(facts("domino", 0, pips, last="[2-2]", ends=(2, 2))).points == 20
    assert v.hand_result(facts("domino", 0, pips, last="[2-2]", ends=(2, 5))).points == 20
    assert v.hand_result(facts("domino", 0, pips, last="[2-6]", ends=(6, 2))).points == 40
    assert capicua(T("[3-3]"), (3, 3), doubles=True) and not capicua(T("[3-3]"), (3, 4), doubles=True)


def test_a_lock_compared_with_the_player_on_the_lockers_left():
    """dominoesonline.com (Dominican "capicua"): the player who locked the game compares his tiles with the person on
    his left, in counter-clockwise play the one who played before him; the lower count wins, a tie goes to the
    locker. ``block=last-or-left``; the Doscientos rule (``last-or-right``) compares with the next player. The winner
    of the lock leads the next hand (``lead=winner-lowest``)."""
    left, right = find_variant("dominican", "block=last-or-left"), find_variant("dominican")
    pips = (4, 8, 9, 9)                        # C (seat 2) locked: B before him holds 8, D after him 9
    assert left.hand_result(facts("blocked", 2, pips)).winner == 1
    assert right.hand_result(facts("blocked", 2, pips)).winner == 0          # C and D equal: the locker's side
    assert left.hand_result(facts("blocked", 2, (4, 9, 9, 8))).winner == 0   # C and B equal: the locker's side
    req = left.lead.requirement(0, left.hand_result(facts("blocked", 2, pips)), facts("blocked", 2, pips),
                                left.seating)
    assert req.seats == frozenset({1})


def test_a_house_sets_its_bonus_values_and_target():
    """Dominican apps pay 30 where dominoesonline.com says 25 (the lead that is no double: 60, twice it) and play to 150:
    ``capicu-points=30``, ``pass-points=30``, ``target=150``."""
    v = find_variant("dominican", "capicu-points=30, pass-points=30, target=150")
    assert v.match.target == 150
    lead_passed = ((0, T("[6-6]")), (1, None), (2, T("[5-6]")))
    got = v.hand_result(facts("domino", 0, (0, 10, 0, 18), last="[3-4]", ends=(3, 4), history=lead_passed))
    assert got.points == 28 + 30 + 30 and ("capicú", 30) in got.bonuses
    single = ((0, T("[5-6]")), (1, None), (2, T("[6-6]")))
    assert v.hand_result(facts("domino", 0, (0, 10, 0, 18), history=single)).points == 28 + 60
    assert find_variant("dominican").hand_result(facts("domino", 0, (0, 10, 0, 18), history=single)).points == 28 + 50


# -- la salida vale 20 ----------------------------------------------------------------------------------------
def _lead(tile, answer):
    """The first two moves of a hand: A (seat 0) leads ``tile``, B answers with ``answer`` (None: a pass)."""
    return ((0, T(tile)), (1, answer and T(answer)))


def test_the_salida_is_a_double_lead_the_next_player_passes_paid_whoever_wins():
    """teamocuba.com (Cuban domino, "salida vale 20"): when the lead is a double and the next player has nothing to
    play on it, the leading pair scores 20 at once, whoever wins the hand. The issue's examples: a [6-6] that B passes,
    then B/D out with 27, is A/C 20 and B/D 27 (every pip left counts in the venezuelan preset); a [6-6] answered at
    once pays nothing; a lead that is no double pays nothing though B passes."""
    v = find_variant("venezuelan", "salida=20")
    got = v.hand_result(facts("domino", 1, (10, 0, 17, 0), history=_lead("[6-6]", None)))
    assert (got.winner, got.scores, got.at_once) == (1, (20, 27), (20, 0)) and ("salida", 20) in got.bonuses
    answered = v.hand_result(facts("domino", 0, (0, 10, 0, 17), history=_lead("[6-6]", "[6-5]")))
    assert answered.scores == (27, 0) and not answered.bonuses
    single = v.hand_result(facts("domino", 0, (0, 10, 0, 17), history=_lead("[6-5]", None)))
    assert single.scores == (27, 0)
    won = v.hand_result(facts("domino", 2, (0, 10, 0, 17), history=_lead("[3-3]", None)))
    assert (won.points, won.scores) == (47, (47, 0))                   # the leading side wins: its 27 and the 20


def test_the_salida_can_end_the_match_on_the_spot():
    """teamocuba.com: with 20 points to go, a lead the next player cannot answer ends the match at once; the rest of
    the hand is not scored. Under "no caben" a salida that would pass the target is not scored and ends nothing."""
    v = find_variant("venezuelan", "salida=20")
    lost = v.hand_result(facts("domino", 1, (10, 0, 17, 0), history=_lead("[6-6]", None)))   # B/D out with 27
    state = v.match.apply(MatchState((80, 90), (0, 0)), lost)
    assert state.over and state.winner == 0 and state.scores == (100, 90) and "on the spot" in state.note
    assert not v.match.apply(MatchState((70, 50), (0, 0)), lost).over
    skip = find_variant("venezuelan", "salida=20, no-caben=yes").match.apply(MatchState((90, 50), (0, 0)), lost)
    assert not skip.over and skip.scores == (90, 77)


def test_the_issue_67_reading_pays_the_side_that_led_when_it_wins():
    """``salida-pays=lead-wins`` keeps issue 67's reading: the side that led scores 20 more when it wins the hand (by
    going out or on a block), whatever its lead; the other side winning scores its plain points."""
    v = find_variant("venezuelan", "salida=20, salida-pays=lead-wins")
    assert v.hand_result(facts("domino", 0, (0, 7, 4, 9), leader=2)).points == 40
    assert v.hand_result(facts("domino", 1, (5, 0, 4, 9), leader=2)).points == 18
    assert v.hand_result(facts("blocked", 3, (3, 7, 4, 9), leader=0)).points == 23 + 20


# -- no caben ---------------------------------------------------------------------------------------------------
def test_points_that_would_pass_the_target_are_not_scored_and_the_match_goes_on():
    """teamocuba.com ("No caben"): a pair that would pass the points needed to win with a hand's points does not
    score them. The issue's example: A/C at 90 of 100 winning 23 stay at 90 and the match goes on; points that reach
    the target exactly are scored and win."""
    match = find_variant("venezuelan", "no-caben").match
    state = match.apply(MatchState((90, 40), (0, 0)), HandResult("domino", 0, 23, 0, (23, 0)))
    assert state.scores == (90, 40) and not state.over and "no caben" in state.note
    exact = match.apply(MatchState((90, 40), (0, 0)), HandResult("domino", 0, 10, 0, (10, 0)))
    assert exact.scores == (100, 40) and exact.over and exact.winner == 0
    plain = find_variant("venezuelan").match.apply(MatchState((90, 40), (0, 0)), HandResult("domino", 0, 23, 0, (23, 0)))
    assert plain.scores == (113, 40) and plain.over


def test_the_issue_67_reading_stops_a_score_at_the_target():
    """``no-caben=cap`` keeps issue 67's reading: a side's score stops at the target (and it has won)."""
    match = find_variant("venezuelan", "no-caben=cap").match
    state = match.apply(MatchState((99, 40), (0, 0)), HandResult("domino", 0, 64, 0, (64, 0)))
    assert state.scores == (100, 40) and state.over and state.winner == 0 and "no caben" in state.note


# -- Dominican capicúa ------------------------------------------------------------------------------------------
DOMINICAN = find_variant("dominican")


def test_dominican_is_a_partnership_system_to_200_with_its_sources():
    """dominoesonline.com ("capicua", Dominican Republic): two pairs, a game to 200; fichaflow.com: 7 tiles each, no
    boneyard, the [6-6] opens the first hand and the winner leads the next."""
    assert DOMINICAN.name == "partnership" and DOMINICAN.players == 4 and DOMINICAN.dealing.hand_size == 7
    assert DOMINICAN.match.target == 200 and DOMINICAN.lead.next == "winner-lowest"
    assert find_variant("partnership", "system=dominican") == DOMINICAN
    for name in ("dominicano", "domino-dominicano", "capicua"):
        assert find_variant(name) == DOMINICAN
    docs = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    assert "## Dominican capicúa" in docs and "dominoesonline.com" in docs and "fichaflow.com" in docs


def test_dominican_passes_pay_25_and_50():
    """dominoesonline.com: skipping all three others earns 25; a pass on the first tile earns 25 when it is a double,
    50 when it is not; nothing else (a play that blocks the hand earns nothing)."""
    def pay(passes, first, blocking=False, lead=None):
        return PointScoring.play_bonus(PassedPlay(passes, first, blocking, lead), 4, 2, PASS_DOMINICAN)
    assert pay(1, True, lead=T("[6-6]")) == 25
    assert pay(1, True, lead=T("[5-6]")) == 50
    assert pay(0, True, lead=T("[5-6]")) == 0
    assert [pay(k, True) for k in range(4)] == [0, 0, 0, 25]
    assert pay(3, True, True) == 0
    A, B, C, D = range(4)
    history = ((A, T("[5-6]")), (B, None), (C, T("[4-6]")), (D, None), (A, None), (B, None), (C, T("[4-4]")),
               (D, T("[4-5]")))
    assert PointScoring.pass_bonuses(facts("domino", D, (3, 3, 3, 0), history=history), DOMINICAN.seating,
                                     PASS_DOMINICAN) == [(0, 50), (0, 25)]
    # the table the searches pay from: 25 for a play the three others pass, nothing else (the lead is not in it)
    bonus, blocking, most = pass_bonus_table((0, 1, 0, 1), PASS_DOMINICAN)
    assert all(bonus[s] == [(0, 0), (0, 0), (0, 0), (25, 25)] for s in range(4)) and blocking == [0] * 4 and most == 25


def test_dominican_capicua_pays_25_and_points_are_not_rounded():
    """dominoesonline.com: a last tile that can go on either end earns its pair 25; the pip count stands as it is
    (no rounding to tens, which is the Puerto Rican pass bonuses' chips)."""
    got = DOMINICAN.hand_result(facts("domino", 0, (0, 7, 4, 9), last="[3-4]", ends=(4, 3)))
    assert got.points == 16 + 25 and ("capicú", 25) in got.bonuses
    assert DOMINICAN.hand_result(facts("domino", 0, (0, 7, 4, 9), last="[3-4]", ends=(4, 5))).points == 16


def test_dominican_tranque_is_between_the_player_who_closed_it_and_the_next():
    """dominoesonline.com: on a locked game the player who locked it compares his tiles with one neighbour's, the
    lower count wins, a tie goes to the locker (we take the next player, the one on the right in play order, as in
    000's Doscientos; docs/variants.md says why)."""
    # D (seat 3) closed it with 9 against A's 12: B/D win, though A/C hold fewer in all
    assert DOMINICAN.hand_result(facts("blocked", 3, (12, 30, 1, 9))).winner == 1
    assert DOMINICAN.hand_result(facts("blocked", 3, (9, 30, 1, 9))).winner == 1        # a tie: the locker
    assert DOMINICAN.hand_result(facts("blocked", 3, (8, 30, 1, 9))).winner == 0


# -- Brasília ------------------------------------------------------------------------------------------------------
BRASILIA = find_variant("brasilia")


def test_brasilia_scores_every_pip_left_and_plays_to_150():
    """euamopadrebernardo.com.br (the Federação Brasiliense de Dominó's simplified rules): the side of the player who
    plays all his tiles wins every pip not played, the opponents' and his partner's; a closed hand goes to the side
    with fewer pips, which wins the pips of all four; equal, nobody scores; 150 points."""
    assert BRASILIA.hand_result(facts("domino", 0, (0, 7, 4, 9))).points == 20
    assert BRASILIA.hand_result(facts("blocked", 0, (3, 7, 4, 9))).points == 23
    assert BRASILIA.hand_result(facts("blocked", 0, (3, 7, 9, 5))).winner is None
    assert BRASILIA.match.target == 150 and BRASILIA.match.minutes == 30


def test_a_match_ends_on_time_after_the_hand_under_way():
    """The same rules: 150 points or 30 minutes, whichever comes first; when the 30 minutes run out during a hand,
    that hand is played to its end. The higher score wins; equal scores are a drawn match (our choice)."""
    match = BRASILIA.match
    state = MatchState((76, 12), (3, 1), 4)
    assert match.timed(state, 29.9) is state
    ended = match.timed(state, parse_clock("31:05"))
    assert ended.over and ended.winner == 0 and "time is up" in ended.note
    assert match.timed(MatchState((40, 40), (1, 1)), 31).drawn
    assert parse_clock("31") == 31 and parse_clock("8:30") == 8.5
    for bad in ("31:5", "x", "12:60", "-3"):
        with pytest.raises(ValueError, match="cannot read the clock"):
            parse_clock(bad)


def test_a_clock_tag_that_cannot_be_read_is_an_error_and_one_without_a_limit_names_the_option():
    text = (RECORDS / "house-brasilia.dom").read_text(encoding="utf-8")
    reps = _replay(text.replace('[Clock "31:05"]', '[Clock "half past"]'))
    assert [d.code for d in reps[2].errors] == ["clock-syntax"]
    assert not reps[2].match.state.over            # read as no time: the match goes on into game 4
    plain = _replay(text.replace('[Variant "brasilia"]', '[Variant "partnership"]\n[Rules "score=all, target=150"]'))
    notes = [d.message for d in plain[0].diagnostics if "Clock" in d.message]
    assert notes and '[Rules "minutes=30"]' in notes[0]


# -- the records: valid with the option, invalid without, the error naming it -----------------------------------------
CASES = [
    # record, what removes the rule, the code of the error without it, the words the hint must have
    ("house-cuban-capicua.dom", ('[Rules "capicu=double"]\n', ""), "result-mismatch", '[Rules "capicu=double"]'),
    ("house-venezuelan-salida.dom", (', salida-pays=lead-wins', ""), "result-mismatch",
     '[Rules "salida-pays=lead-wins"]'),
    ("house-venezuelan-salida-passed.dom", ('[Rules "salida=20"]\n', ""), "score-mismatch", '[Rules "salida=20"]'),
    ("house-venezuelan-salida-ends.dom", ('[Rules "salida=20"]\n', ""), "result-mismatch", '[Rules "salida=20"]'),
    ("house-venezuelan-no-caben-skip.dom", ('[Rules "no-caben"]\n', ""), "score-mismatch", '[Rules "no-caben=yes"]'),
    ("house-venezuelan-tranca.dom", ('[Rules "block=team, score=losers"]\n', ""), "result-mismatch",
     '[Rules "score=losers, block=team"]'),
    ("house-venezuelan-no-caben.dom", ('[Rules "no-caben=cap"]\n', ""), "score-mismatch", '[Rules "no-caben=cap"]'),
    ("house-venezuelan-double-capicua.dom", ('[Rules "capicu=double-any"]\n', ""), "result-mismatch",
     '[Rules "capicu=double-any"]'),
    ("house-dominican-left-lock.dom", ('[Rules "block=last-or-left"]\n', ""), "result-mismatch",
     '[Rules "block=last-or-left"]'),
    ("house-dominican-30.dom", ('[Rules "capicu-points=30, pass-points=30, target=150"]\n', ""), "result-mismatch",
     '[Rules "capicu-points=30, pass-points=30"]'),
    ("house-dominican.dom", ('[Variant "dominican"]', '[Variant "partnership"]'), "result-mismatch",
     '[Rules "capicu=25, pass-bonus=dominican"]'),
    ("house-brasilia.dom", ('[Variant "brasilia"]', '[Variant "partnership"]\n[Rules "score=all, target=150"]'),
     "lead-player", '[Rules "minutes=30"]'),
]


@pytest.mark.parametrize("name, remove, code, hint", CASES, ids=[c[0] for c in CASES])
def test_each_house_record_is_valid_with_its_rule_and_invalid_without(name, remove, code, hint):
    text = (RECORDS / name).read_text(encoding="utf-8")
    reps = _replay(text, name)
    assert all(r.valid for r in reps), [(d.code, d.message) for r in reps for d in r.errors]
    assert remove[0] in text
    without = _replay(text.replace(remove[0], remove[1]), name)
    errors = [d for r in without for d in r.errors]
    assert code in [d.code for d in errors], [(d.code, d.message) for d in errors]
    words = [d.message for r in without for d in r.diagnostics]
    assert any(hint in m for m in words), words


def test_the_venezuelan_groups_tranca_names_both_options():
    """Issue 67: a Venezuelan group's rules give a tranca to the pair with fewer pips and a domino only the other
    pair's pips; with the venezuelan defaults A holds the lowest hand (12), so A/C would win all 66 pips, while the
    group writes B/D 35 (31 against 35): the error says the two options that make it right."""
    text = (RECORDS / "house-venezuelan-tranca.dom").read_text(encoding="utf-8").replace(
        '[Rules "block=team, score=losers"]\n', "")
    (rep,) = _replay(text)
    (error,) = rep.errors
    assert "A/C winning 66" in error.message and "block=team" in error.message and "score=losers" in error.message


def test_the_brasilia_match_ends_on_time_and_the_next_one_starts():
    reps = _replay((RECORDS / "house-brasilia.dom").read_text(encoding="utf-8"))
    assert [r.match.state.over for r in reps] == [False, False, True, False]
    assert reps[2].match.state.winner == 0 and reps[2].match.state.scores == (76, 0)
    assert reps[3].match.state.scores == (0, 49)
    assert any(d.code == "match-over" for d in reps[3].diagnostics)


def test_the_no_caben_match_stops_at_100():
    reps = _replay((RECORDS / "house-venezuelan-no-caben.dom").read_text(encoding="utf-8"))
    assert reps[-1].match.state.scores == (100, 0) and reps[-1].match.state.over


def test_the_no_caben_match_goes_on_at_99():
    reps = _replay((RECORDS / "house-venezuelan-no-caben-skip.dom").read_text(encoding="utf-8"))
    assert reps[-1].match.state.scores == (99, 0) and not reps[-1].match.state.over


def test_the_salida_record_ends_its_match_at_the_lead():
    """B/D at 98: D leads [3-3] and A cannot answer it, so the salida takes B/D to 118 and the match is over at the
    lead; the hand's other points (B/D go out with 53) are not scored."""
    reps = _replay((RECORDS / "house-venezuelan-salida-ends.dom").read_text(encoding="utf-8"))
    assert all(r.valid for r in reps)
    state = reps[-1].match.state
    assert state.over and state.winner == 1 and state.scores == (0, 118) and "on the spot" in state.note
    assert reps[-1].result.points == 73 and reps[-2].match.state.scores == (0, 98)


def test_the_salida_record_pays_the_pair_that_led_and_lost():
    (rep,) = _replay((RECORDS / "house-venezuelan-salida-passed.dom").read_text(encoding="utf-8"))
    assert rep.valid and rep.result.winner == 0 and rep.match.state.scores == (29, 20)


# -- the exact search: which core computes what, and both against plain minimax ---------------------------------------
def test_the_compiled_evaluator_knows_the_house_scorings():
    """``_leaf.h`` computes capicúa doubling, the salida and the Dominican capicú of 25 (no rounding to tens), so the
    compiled core values the finished hands itself (no note of Python leaves); the Dominican pass bonuses ride in the
    cores' table. A capicúa's doubled points leave no pip bound to prune with; the salida adds to the bound."""
    won = "salida=20, salida-pays=lead-wins"
    for v in (find_variant("cuban", "capicu=double"), find_variant("venezuelan", won), DOMINICAN):
        assert describe(v) is not None and core_note(v, "compiled") is None
    double, salida = describe(find_variant("cuban", "capicu=double")), describe(find_variant("venezuelan", won))
    assert (double.capicu_double, double.bound) == (1, NO_BOUND)
    assert salida.salida == 20 and salida.most == describe(find_variant("venezuelan")).most + 20
    d = describe(DOMINICAN)
    assert d.capicu == 25 and d.tens == 0 and describe(find_variant("doscientos", "pass-bonus")).tens == 1


HOUSE_SCORINGS = [("cuban", {"capicu": "double"}), ("cuban", {"capicu": "double", "salida": "20", "salida-pays": "lead-wins", "score": "difference"}),
                  ("cuban", {"capicu": "25", "block": "player", "tie": "leader"}),
                  ("venezuelan", {"capicu": "double", "salida": "20", "salida-pays": "lead-wins"}),
                  ("venezuelan", {"salida": "20", "salida-pays": "lead-wins", "tie": "leader"}),
                  ("dominican", {}), ("dominican", {"capicu": "double", "salida": "20", "salida-pays": "lead-wins", "divide": "10"}),
                  ("brasilia", {"capicu": "double"}), ("venezuelan", {"capicu": "double-any"}),
                  ("cuban", {"capicu": "double-any", "score": "difference"}), ("dominican", {"block": "last-or-left"}),
                  ("dominican", {"capicu-points": "30", "block": "last-or-left", "tie": "leader"})]


@built
@pytest.mark.parametrize("name, options", HOUSE_SCORINGS, ids=[f"{n}-{o}" for n, o in HOUSE_SCORINGS])
def test_the_c_evaluation_equals_value_under_the_house_scorings(name, options):
    """Random finished hands (``tests/test_scoring_core.py``'s): the C value is ``Variant.value``, for side 0 and for
    each seat against the rest, and the pip bound the search prunes with holds."""
    rng = random.Random(f"{name}{sorted(options.items())}")
    assert _check_random_hands(find_variant(name, options), rng, 800) >= 800


class DominicanReference(Reference):
    """Plain minimax with the Dominican pass bonuses paid pass by pass, apart from ``PointScoring``: the first pass
    after the lead pays the leader's side 25 (a double) or 50; the pass that completes a round of passes after any
    later play pays that play's side 25; a play after which nobody can play pays nothing."""

    def __init__(self, variant, hands, leader):
        super().__init__(variant, hands, leader)
        self.pays_passes = True
        self.dealt = sum(len(h) for h in hands)

    def passes_paid(self, state, move, line):
        hands, ends, turn, passes, last, _leader = state
        if move[0] is not None or last is None:
            return 0, line
        lead_only = sum(len(h) for h in hands) == self.dealt - 1
        award, unit = 0, self.variant.scoring.pass_points
        if lead_only and passes == 0:
            award = unit if ends[0] == ends[1] else 2 * unit
        elif not lead_only and passes + 1 == self.n - 1:
            award = unit
        return (award if self.variant.seating.teams[last] == 0 else -award), line


def _compare(variant, hands, leader, rng, core, reference=Reference) -> int:
    position = position_for(variant, hands, leader, max_pip=variant.dealing.max_pip)
    ref = reference(variant, [[(t.low, t.high) for t in h] for h in hands], leader)
    state, line, paid = ref.start, Reference.START_LINE, 0      # (paid: the bonuses the line so far has paid)
    solver = Solver(variant, core=core)
    checked = 0
    while position.legal_moves():
        got = solver.values(position)
        want = {m: v + paid for m, v in ref.alternatives(state, line).items()}
        assert dict(got) == want, [str(m) for m, *_ in position.history]
        checked += len(got) > 1
        move = rng.choice(position.legal_moves())
        position.push(move)
        bonus, line = ref.passes_paid(state, from_move(move), line)
        paid += bonus
        state, _ = ref.play(state, from_move(move))
    return checked


class SalidaReference(DominicanReference):
    """Plain minimax with the salida paid apart from ``PointScoring``: a double lead that the next player passes pays
    the leader's side 20 (teamocuba.com); nothing else is paid as played."""

    def passes_paid(self, state, move, line):
        hands, ends, turn, passes, last, _leader = state
        if move[0] is not None or last is None or passes or sum(len(h) for h in hands) != self.dealt - 1:
            return 0, line
        award = 20 if ends[0] == ends[1] else 0
        return (award if self.variant.seating.teams[last] == 0 else -award), line


SEARCHED = [("cuban", "capicu=double", Reference),
            ("cuban", "capicu=double, salida=20, salida-pays=lead-wins, score=difference", Reference),
            ("venezuelan", "capicu=double, salida=20, salida-pays=lead-wins", Reference),
            ("venezuelan", "salida=20", SalidaReference), ("dominican", "", DominicanReference),
            ("venezuelan", "capicu=double-any", Reference), ("dominican", "block=last-or-left", DominicanReference),
            ("dominican", "capicu-points=30, pass-points=30", DominicanReference),
            ("dominican", "capicu=double, salida=20, salida-pays=lead-wins", DominicanReference)]


@pytest.mark.parametrize("core", ["compiled", "python"])
@pytest.mark.parametrize("name, options, reference", SEARCHED, ids=[f"{n}-{o}" for n, o, _ in SEARCHED])
def test_the_solver_agrees_with_minimax_under_the_house_rules(name, options, reference, core):
    """Small deals (3 or 4 tiles a hand) of the variant's own set, every decision of a random line compared with
    plain minimax; the Dominican pass bonuses by a reference that pays them itself."""
    variant = find_variant(name, options)
    rng = random.Random(67)
    checked = 0
    for _ in range(25):
        pool = list(tile_set(variant.dealing.max_pip))
        rng.shuffle(pool)
        hands = [pool[4 * k:4 * k + rng.randint(3, 4)] for k in range(4)]
        checked += _compare(variant, hands, rng.randrange(4), rng, core, reference)
    assert checked > 40


def test_the_dominican_reference_pays_what_the_record_shows():
    """The reference's own pass rule agrees with the record of docs/variants.md: B passes A's [6-6] lead (25)."""
    text = (RECORDS / "house-dominican.dom").read_text(encoding="utf-8")
    (rep,) = _replay(text)
    assert rep.valid and ("pass bonus 0", 25) in rep.result.bonuses and ("capicú", 25) in rep.result.bonuses
    assert re.search(r'\[Result "A/C 78 domino"\]', text)


# -- a lead another lead option allows -------------------------------------------------------------------------------
def test_a_cuban_lead_of_the_winning_side_names_lead_winners():
    """The Cuban options of the later leads (docs/variants.md: rotate, the winners, the winner, the highest double): a
    match played with the winning side leading, read with the default (the next player), is a ``lead-player`` error
    whose message names the option under which that leader is right, as the variant built with it decides."""
    from analyzer.match import random_match
    from analyzer.notation import write
    record = random_match(find_variant("cuban", "lead=winners"), 2, games=2)
    text = write(record)
    assert all(r.valid for r in _replay(text))
    reps = _replay(text.replace('[Rules "lead=winners"]\n', ""))
    (error,) = reps[1].errors
    assert error.code == "lead-player" and '[Rules "lead=winners"]' in error.message, error.message


def test_capicu_and_pass_bonus_still_take_yes_and_no_in_every_form():
    """``capicu`` and ``pass-bonus`` were yes/no options and now take more values; a record's ``capicu=true``,
    ``pass-bonus=on`` or a bare ``capicu`` still reads as before (Quinientos' 100, the 000 pass bonuses)."""
    old = find_variant("partnership", "capicu=true, pass-bonus=on").scoring
    assert (old.capicu, old.capicu_double, old.pass_bonus, old.pass_rule) == (100, False, True, "")
    assert find_variant("partnership", "capicu").scoring.capicu == 100
    assert find_variant("partnership", "capicu=off").scoring == find_variant("partnership").scoring
