"""The replayer against the rules of "Domino mit Partner" and the book's example deal."""
import random

from analyzer.generate import random_game
from analyzer.notation import parse
from analyzer.replay import replay
from analyzer.match import replay_record
from conftest import RECORDS, SEED_DEAL


def one(text: str):
    record = parse(text, "t.dom")
    assert not record.errors, record.errors
    (rep,) = replay_record(record)
    return rep


def codes(rep):
    return [d.code for d in rep.errors]


BOOK_LINE_1_TO_4 = """1. B [1-1] C pass D [1-5]
2. A [1-4] B pass C [4-5] D [0-4]
3. A [0-5] B pass C [2-5] D [1-2]
4. A [4-4] B [0-1] C [0-2] D pass
"""


def test_seed_game_one_as_printed_fails_first_at_round_seven():
    (rep,) = replay_record(parse((RECORDS / "seed1-table.txt").read_text(), "seed1-table.txt"))
    assert not rep.valid
    first = rep.errors[0]
    step = next(s for s in rep.steps if first in s.diagnostics)
    assert (step.entry.round, step.entry.player, str(step.entry.tile)) == (7, "A", "[5-6]")
    assert first.code == "tile-no-match"
    assert sorted(first.details["open_ends"]) == [0, 4]
    assert first.details["playable"] == []
    assert "0 and 4" in first.message and "A holds nothing that fits" in first.message
    # every later error is still found: C's false pass with [4-6], D's [5-5] fits nowhere,
    # and B cannot have gone out while he still holds [0-0]
    assert any(d.code == "false-pass" and "[4-6]" in d.message for d in rep.errors)
    assert any(d.code == "tile-no-match" and "[5-5]" in d.message for d in rep.errors)
    assert any(d.code == "result-mismatch" and "[0-0]" in d.message for d in rep.errors)


def test_seed_game_two_is_valid_blocked_and_won_by_a_and_c_for_46():
    (rep,) = replay_record(parse((RECORDS / "seed2-table.txt").read_text(), "seed2-table.txt"))
    assert rep.valid, rep.errors
    assert rep.outcome.termination == "blocked"
    assert rep.result_dict()["winner"] == ["A", "C"]
    assert rep.result.points == 46


def test_winners_score_the_pips_left_in_the_losing_hands():
    for seed in range(40):
        rep = replay(random_game(seed=seed))
        r, pos = rep.result, rep.final
        if r.winner is None:
            continue
        losers = [s for s in range(4) if s % 2 != r.winner]
        assert r.points == sum(pos.pips(s) for s in losers)


def test_blocked_hand_with_equal_team_pips_is_a_draw_and_scores_nothing():
    found = 0
    for seed in range(3000):
        rep = replay(random_game(seed=seed))
        pos = rep.final
        if rep.outcome.termination == "blocked" and pos.pips(0) + pos.pips(2) == pos.pips(1) + pos.pips(3):
            assert rep.result.winner is None and rep.result.points == 0
            assert rep.valid
            found += 1
    assert found


def test_blocked_hand_is_won_by_the_side_with_fewer_pips():
    for seed in range(300):
        rep = replay(random_game(seed=seed))
        pos = rep.final
        if rep.outcome.termination == "blocked":
            ac, bd = pos.pips(0) + pos.pips(2), pos.pips(1) + pos.pips(3)
            if ac != bd:
                assert rep.result.winner == (0 if ac < bd else 1)


def test_a_player_must_play_when_he_can():
    rep = one(f"[Result \"*\"]\n{SEED_DEAL}\n1. B [1-1] C pass D [1-5]\n2. A pass")
    (err,) = rep.errors
    assert err.code == "false-pass" and err.details["playable"] == ["[0-5]", "[1-3]", "[1-4]", "[5-6]"]
    assert (err.line, err.column) == (7, 6)   # the "pass" of "2. A pass"


def test_a_legal_pass_proves_the_player_lacks_both_open_numbers():
    rep = one(f"{SEED_DEAL}\n1. B [1-1] C pass")
    assert rep.valid
    assert rep.steps[1].lacks == (1,)
    rep = one(f"{SEED_DEAL}\n{BOOK_LINE_1_TO_4}")
    assert rep.steps[4].lacks == (4, 5)   # B passes on 4 and 5 in round 2


def test_first_game_of_a_match_must_be_opened_by_the_double_six_holder_with_it():
    rep = one(f"[Game \"1\"]\n{SEED_DEAL}\n1. B [1-1]")
    assert "lead-player" in codes(rep)
    rep = one(f"[Game \"1\"]\n{SEED_DEAL}\n1. D [1-5]")
    assert "lead-tile" in codes(rep)
    rep = one(f"[Game \"1\"]\n{SEED_DEAL}\n1. D [6-6]")
    assert rep.valid
    rep = one(f"[Game \"2\"]\n{SEED_DEAL}\n1. B [1-1]")   # later games: any leader, any tile
    assert rep.valid


def test_turn_order_tile_held_and_tile_not_yet_played():
    assert codes(one(f"{SEED_DEAL}\n1. B [1-1] D [1-5]")) == ["turn-order"]
    assert codes(one(f"{SEED_DEAL}\n1. B [1-1] C [1-5]")) == ["tile-not-held"]
    rep = one(f"{SEED_DEAL}\n1. B [1-1] C pass D [1-5]\n2. A [1-4] B [1-1]")
    assert codes(rep) == ["tile-already-played"]


def test_a_tile_must_match_an_open_end_and_the_replay_goes_on():
    rep = one(f"{SEED_DEAL}\n1. B [1-1] C pass D [3-5]\n2. A [1-4]")
    assert codes(rep) == ["tile-no-match"]
    assert rep.steps[2].move is None and rep.steps[3].move is not None   # A's [1-4] is still replayed


def test_play_after_the_hand_is_over():
    rep = one((RECORDS / "seed2-table.txt").read_text() + "\n7 [1-3]\n")
    # the book's second game blocks after C's [2-4]: A's [1-3] in an extra row comes too late
    assert codes(rep) == ["play-after-end"]
    (late,) = [s for s in rep.steps if not s.ok]
    assert (late.entry.round, late.entry.player, late.move) == (7, "A", None)


def test_deal_checks():
    dup = SEED_DEAL.replace("[5-6]", "[1-1]", 1)
    rep = one(dup)
    assert {"deal-duplicate", "deal-missing"} <= set(codes(rep))
    foreign = SEED_DEAL.replace("[5-6]", "[7-7]", 1)
    assert "deal-foreign" in codes(one(foreign))
    short = SEED_DEAL.replace(" [5-6]", "", 1)
    assert "deal-size" in codes(one(short))


def test_one_unknown_hand_is_the_rest_of_the_set():
    text = SEED_DEAL.replace("C: [0-2] [2-4] [2-5] [3-3] [3-6] [4-5] [4-6]", "C: ?")
    rep = one(text + "\n" + BOOK_LINE_1_TO_4)
    assert rep.valid
    assert any(d.code == "hand-inferred" for d in rep.diagnostics)


def test_a_later_play_exposes_a_false_pass_of_an_unknown_hand():
    text = SEED_DEAL.replace("C: [0-2] [2-4] [2-5] [3-3] [3-6] [4-5] [4-6]", "C: ?")
    text = text.replace("D: [0-3] [0-4] [1-2] [1-5] [3-5] [5-5] [6-6]", "D: ?")
    # C passes on the 1 in round 1, so [1-2] later proves that pass false
    rep = one(text + "\n1. B [1-1] C pass D [1-5]\n2. A [0-5] B [0-6] C [1-2]")
    assert codes(rep) == ["false-pass"]
    assert rep.errors[0].line == 5     # reported at the pass itself, in round 1


def test_stated_result_is_checked():
    text = (RECORDS / "seed2-table.txt").read_text()
    assert one(text).valid
    wrong = text.replace('"A/C 46 blocked"', '"A/C 40 blocked"')
    assert codes(one(wrong)) == ["result-mismatch"]


def test_inferred_placement_is_the_one_that_was_played_whenever_the_record_decides_it():
    decided = 0
    for seed in range(300):
        truth = random_game(seed=seed, ends="all")
        bare = random_game(seed=seed, ends="none")
        rep = replay(bare)
        for step, true in zip(rep.steps, truth.moves):
            undecided = any(d.code == "ambiguous-end" for d in step.diagnostics)
            two_ways = step.ends_before is not None and step.move.tile is not None and \
                len(set(step.ends_before)) == 2 and set(step.ends_before) == {step.move.tile.low, step.move.tile.high}
            if two_ways and not undecided:
                assert step.move.end == true.end
                decided += 1
    assert decided > 20


def test_every_random_legal_game_validates_clean_with_or_without_written_ends():
    for seed in range(200):
        for ends in ("needed", "none", "all"):
            rep = replay(random_game(seed=seed, ends=ends))
            assert rep.valid, (seed, ends, rep.errors)


def test_the_replay_keeps_going_after_every_kind_of_error():
    rng = random.Random(5)
    game = random_game(seed=3)
    i = rng.randrange(4, len(game.moves) - 4)
    move = game.moves[i]
    game.moves[i] = type(move)(move.player, None)     # a false pass
    rep = replay(game)
    assert rep.steps[i].diagnostics and all(s.seat is not None for s in rep.steps)
    assert len(rep.steps) == len(game.moves)


def test_every_error_record_shows_the_error_it_was_written_for():
    seen = set()
    for path in sorted(RECORDS.glob("errors*.dom")):
        for rep in replay_record(parse(path.read_text(), path.name)):
            expect = rep.game.tags["Expect"]
            assert rep.game.tags.get("Source")
            found = [d for d in rep.errors if d.code == expect]
            assert found, (path.name, expect, [str(d) for d in rep.errors])
            assert all(d.line is not None and d.column is not None for d in found)
            seen.add(expect)
    # every kind of error the issue names has its record
    assert {"deal-size", "deal-duplicate", "deal-foreign", "deal-missing", "turn-order", "tile-not-held",
            "tile-already-played", "tile-no-match", "false-pass", "play-after-end", "result-mismatch",
            "lead-player", "lead-tile", "syntax"} <= seen


def test_a_move_out_of_turn_names_what_the_player_on_turn_could_play():
    # seed2.dom with A's [3-4] of round 6 dropped: B's [2-3] comes when it is A's turn, and A (ends 4
    # and 4) could play the [3-4] he holds: what would have been legal there, as for a tile that fits no end
    text = (RECORDS / "seed2.dom").read_text()
    assert "6. A [3-4] B [2-3]" in text
    rep = replay(parse(text.replace("6. A [3-4] B [2-3]", "6. B [2-3]")).games[0])
    first = rep.errors[0]
    assert first.code == "turn-order"
    assert first.message == "it is A's turn, not B's; A could play [3-4] on the open ends 4 and 4 (both ends 4)"
