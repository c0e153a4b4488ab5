"""Forms found in real records (issue 16): the two-player block game with 7 tiles each, Fives and
Threes as played in pubs, a Result with a winner and no points, and logs that leave forced passes out."""
import pytest

from analyzer.match import replay_record
from analyzer.notation import parse, read
from analyzer.record import StatedResult
from analyzer.rules import BadOptionValue, find_variant
from analyzer.rules.catalog import catalog
from analyzer.tiles import Tile
from conftest import RECORDS, SEED_DEAL

T = Tile.parse


def codes(rep, severity="error"):
    return [d.code for d in rep.diagnostics if d.severity == severity]


# -- the two-player block game (003) --------------------------------------------------------------
# "Es gibt endlose beliebte Anpassungen dieser Regeln; zum Beispiel existieren beliebige Kombinationen
#  der Anzahl der Spieler und der Anzahl der jedem gegebenen Dominosteine, abhängig von den anwesenden
#  Spielern und verfügbaren Ressourcen."  The common computer form: two players, 7 tiles each, the
#  other 14 out of play, nobody draws.
def test_two_player_block_game_deals_seven_each_and_keeps_fourteen_out_of_play():
    for v in (find_variant("block", "players=2"), find_variant("block7"), find_variant("block", players=2)):
        assert v.players == 2 and v.seating.sides == 2 and v.dealing.hand_size == 7
        assert v.dealing.sleepers(2) == 14 and v.drawing is None and v.search == "block"
    assert find_variant("block").dealing.hand_size == 6 and find_variant("block").players == 4
    assert find_variant("block", "players=2, hand=6").dealing.sleepers(2) == 16
    with pytest.raises(BadOptionValue, match="no tile out of play"):
        find_variant("block", "hand=7")           # four players with 7 each: the partnership game
    block = next(v for v in catalog() if v["name"] == "block")
    assert {"players", "hand"} <= {o["key"] for o in block["options"]} and "block7" in block["aliases"]


def test_the_two_player_block_record_validates_and_the_lower_hand_wins_the_block():
    (rep,) = replay_record(read(RECORDS / "variant-block7.dom"))
    assert rep.valid and rep.variant == find_variant("block7")
    # A is left with [3-4] [3-6] = 16, B with [2-4] = 6: B wins and scores A's pips
    assert rep.outcome.termination == "blocked" and rep.facts.pips == (16, 6)
    assert rep.result.winner == 1 and rep.result.points == 16


def test_the_two_player_block_game_has_no_boneyard_and_the_highest_double_opens():
    text = (RECORDS / "variant-block7.dom").read_text()
    (rep,) = replay_record(parse(text.replace("3. A pass", "3. A draws [1-3]")))
    assert "no-boneyard" in codes(rep)
    (rep,) = replay_record(parse(text.replace('[Lead "A"]', '[Lead "B"]').replace("1. A [6-6] B [4-6]", "1. B [4-6]")))
    assert "lead-player" in codes(rep)


# -- All Fives and Threes as played in pubs -----------------------------------------------------------
# 003: "Eine weitere Anpassung spielt auf die gleiche Weise, aber mit Bezug auf Vielfache von drei sowie
#  Vielfache von fünf."  Pubs deal more tiles (9 each to two players), let anyone lead any tile and give
#  nothing at the end of the hand beyond the points scored during play.
def test_pub_options_hand_size_any_lead_no_award():
    v = find_variant("pub-fives-threes", "hand=9")
    assert v.dealing.hand_size == 9 and v.play.pub and not v.opening.highest_double and v.match.target == 61
    assert not v.scoring.award_hand
    assert find_variant("all-fives").dealing.hand_size == 5 and find_variant("all-fives", "draw=no").dealing.hand_size == 6
    assert find_variant("all-fives", "hand=7, players=4").dealing.hand_size == 7
    with pytest.raises(BadOptionValue, match="cannot each be dealt 9"):
        find_variant("all-fives", "hand=9, players=4")


def test_the_pub_record_validates_any_lead_and_the_winner_gets_only_his_play_points():
    (rep,) = replay_record(read(RECORDS / "variant-pub-fives-threes.dom"))
    assert rep.valid, rep.errors
    assert T("[6-6]") in rep.game.hand_of("B").tiles and rep.steps[0].move.tile == T("[2-5]")
    assert rep.result.winner == 0 and rep.result.points == 0
    assert rep.scores == rep.result.scores == (6, 5)
    # the same deal under the text's rules: the [6-6] holder must open
    (strict,) = replay_record(read(RECORDS / "variant-pub-fives-threes.dom"), "all-fives-threes",
                              rules={"hand": "9", "count": "pub"})
    assert "lead-player" in codes(strict)


# -- a Result with a winner and no points ------------------------------------------------------------
def test_a_result_naming_only_the_winner_is_read_and_checked_for_the_winner():
    stated = StatedResult.parse("A/C domino")
    assert stated.side == ("A", "C") and stated.points is None and stated.termination == "domino"
    assert str(stated) == "A/C domino" and stated.agrees(46)
    assert StatedResult.parse("B/D 10 domino").points == 10 and not StatedResult.parse("B/D 10").agrees(11)
    moves = """1. B [1-1] C pass D [1-5]
2. A [1-4] B pass C [4-5]@5 D [0-4]
3. A [0-5] B pass C [2-5] D [1-2]
4. A [4-4] B [0-1] C [0-2] D pass
5. A [2-2] B [2-6] C [4-6]@6 D pass
6. A [3-4] B [2-3] C [2-4]"""
    for result, ok in (("A/C blocked", True), ("A/C", True), ("C/A blocked", True), ("B/D blocked", False),
                       ("A/C domino", False), ("A/C 45 blocked", False)):
        (rep,) = replay_record(parse(f'[Result "{result}"]\n{SEED_DEAL}\n{moves}'))
        assert ("result-mismatch" not in codes(rep)) == ok, result


# -- logs that leave forced passes out -------------------------------------------------------------
def test_omitted_forced_passes_are_inserted_and_reported_where():
    (rep,) = replay_record(read(RECORDS / "passes-omitted.dom"))
    assert rep.valid, rep.errors
    inserted = [d for d in rep.diagnostics if d.code == "pass-inserted"]
    # the book's second line of play has five passes: C in round 1, B in rounds 2 and 3, D in 4 and 5
    assert [(d.line, d.message.split()[0]) for d in inserted] == [(14, "C"), (15, "B"), (16, "B"), (18, "D"),
                                                                   (19, "D")]
    assert all(d.severity == "info" for d in inserted)
    assert sum(m.is_pass for m in rep.game.moves) == 5 and rep.result.points == 46
    full = read(RECORDS / "seed2.dom").games[0].moves
    assert [(m.player, m.tile) for m in rep.game.moves] == [(m.player, m.tile) for m in full]


def test_without_the_option_an_omitted_pass_is_a_turn_error_and_a_pass_is_never_invented_for_a_player_who_can_play():
    text = (RECORDS / "passes-omitted.dom").read_text()
    (rep,) = replay_record(parse(text.replace('[Passes "omitted"]\n', "")))
    assert "turn-order" in codes(rep)
    (rep,) = replay_record(parse(text.replace('[Passes "omitted"]\n', "")), insert_passes=True)
    assert rep.valid
    # in round 4 B could play [0-1] on the 1: leaving B out is no forced pass
    (rep,) = replay_record(parse(text.replace("4. A [4-4] B [0-1] C [0-2]", "4. A [4-4] C [0-2]")))
    assert "turn-order" in codes(rep)
    assert not [d for d in rep.diagnostics if d.code == "pass-inserted" and d.line == 17]


def test_in_a_draw_game_a_player_who_cannot_play_must_draw_so_no_pass_is_inserted():
    text = """[Variant "draw"]
[Rules "extra=no"]
[Passes "omitted"]
[Players "A, B"]
A: [0-0] [0-6] [1-1] [2-2] [3-3] [4-4] [5-5] [6-6]
B: [0-2] [0-3] [0-4] [0-5] [1-2] [1-3] [1-4] [2-3]
1. A [6-6] A [0-6]"""
    (rep,) = replay_record(parse(text))
    assert "pass-inserted" not in codes(rep, "info") and "turn-order" in codes(rep)


def test_the_command_line_inserts_omitted_passes_on_request_and_lists_the_new_options(tmp_path):
    from click.testing import CliRunner
    from analyzer.cli import main
    log = tmp_path / "log.dom"
    log.write_text((RECORDS / "passes-omitted.dom").read_text().replace('[Passes "omitted"]\n', ""))
    plain = CliRunner().invoke(main, ["validate", str(log)])
    assert plain.exit_code == 1 and "turn-order" in plain.output
    inserted = CliRunner().invoke(main, ["validate", "--insert-passes", str(log)])
    assert inserted.exit_code == 0 and inserted.output.count("pass-inserted") == 5
    replayed = CliRunner().invoke(main, ["replay", "--insert-passes", str(log)])
    assert replayed.exit_code == 0 and "pass-inserted" in replayed.output
    listing = CliRunner().invoke(main, ["variants"]).output
    for option in ("--rule hand=", "--rule award=yes|no", "--rule blank-count=everywhere|score", "--rule hand-over=",
                   "--rule must-redeal=", "--rule draw-worth=", "--rule reset-lead=six-six|winner",
                   "--rule draw-lead=jamaican|six-six", "--rule seat-lead=highest|after-highest"):
        assert option in listing, option
