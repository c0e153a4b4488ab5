"""The lead forms of issue 31 (items 3, 6, 9, 10, 11, 14): who leads and with what where the seats change
hands, where the lead is drawn, where anyone leads any tile, where the opener adds his extra tile unseen,
and where the record does not say which game it is; each quoting its text, on records written for it."""
from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.match import replay_record
from analyzer.notation import parse, read
from analyzer.rules import find_variant
from conftest import RECORDS

DATA = Path(__file__).parent / "data"


def quoted(seed: str, text: str) -> str:
    """``text``, checked to stand verbatim in the rule text ``seed`` (tests/data holds the copies)."""
    (path,) = DATA.glob(f"{seed}_*.txt")
    assert " ".join(text.split()) in " ".join(path.read_text(encoding="utf-8").split())
    return text


def leaders(reps) -> list[str]:
    return [r.players[r.initial.turn] for r in reps]


# -- item 3: Domino Whist for five, the lead goes round the seats ----------------------------------
ROUND = quoted("001", "Das Eröffnen wechselt nach jedem Spiel im Uhrzeiger: Das zweite Spiel eröffnet daher der "
                      "Spieler zur Linken von Vorhand")
PAIR = quoted("001", "Die Zweier-Mannschaft spielt ohne Unterbrechung, während sich die Spieler der "
                     "Dreier-Mannschaft abwechseln.")


def test_five_players_the_seat_at_the_leaders_left_leads_whoever_sits_there_now():
    reps = replay_record(read(RECORDS / "match-whist-five-seats.dom"))
    assert all(r.valid for r in reps), [r.errors for r in reps]
    # game 1: A leads, D at his left; game 2: D pauses, E moved into D's seat, B into E's: E leads
    assert [r.players for r in reps] == [("A", "D", "C", "E"), ("A", "E", "C", "B")]
    assert leaders(reps) == ["A", "E"]
    assert "E, in that seat, leads" in reps[1].match.lead_rule
    # B, who came back, does not lead: he does not sit at A's left
    text = (RECORDS / "match-whist-five-seats.dom").read_text(encoding="utf-8")
    wrong = text.replace('[Lead "E"]', '[Lead "B"]').replace("1. E [3-5] C [3-6] B [1-6]", "1. B [1-6] A [0-6]")
    (err,) = [d for d in replay_record(parse(wrong))[1].errors if d.code == "lead-player"]
    assert err.details["expected"] == "E"


def test_the_seat_the_lead_passes_to_is_found_by_the_pair_who_keep_their_places():
    from analyzer.rules.matchplay import seat_now
    from analyzer.rules.policies import Seating
    seating = Seating.partners()
    last = ("A", "D", "C", "E")              # A and C the pair: they play every game, opposite each other
    assert seat_now(last, ("A", "E", "C", "B"), 1, seating) == 1        # D's seat, now E's
    assert seat_now(last, ("E", "C", "B", "A"), 1, seating) == 0        # the same table written from E
    assert seat_now(last, ("A", "E", "C", "B"), 2, seating) == 2        # C's seat, C's still
    # a table with no partners of the last game still partners (six players): the seats cannot be tied
    assert seat_now(("A", "E", "C", "D"), ("A", "B", "F", "D"), 1, seating) is None


# -- item 6: Doscientos, "der höchste Stein beginnt" ----------------------------------------------
DRAWN = quoted("000", "Oft wird ein Dominostein gezogen, um das Recht des Ausspiels beim ersten Spiel einer Partie zu "
                      "bestimmen, der höchste Stein beginnt. Wird so gespielt, braucht der Spieler, der das Spiel "
                      "beginnt, die [6-6] nicht vorzusetzen.")


def test_doscientos_with_a_drawn_lead_checks_the_tiles_drawn():
    reps = replay_record(read(RECORDS / "match-doscientos-drawn-lead.dom"))
    assert all(r.valid for r in reps), [r.errors for r in reps]
    assert leaders(reps) == ["D", "D"]           # D drew [4-6], the highest; he won game 1 and leads game 2
    assert reps[0].game.moves[0].tile != find_variant("partnership").opening.first_game_tile
    text = (RECORDS / "match-doscientos-drawn-lead.dom").read_text(encoding="utf-8")
    # C draws the highest tile instead: C must lead, not D
    other = replay_record(parse(text.replace("C [0-5], D [4-6]", "C [4-6], D [0-5]")))
    (err,) = [d for d in other[0].errors if d.code == "lead-player"]
    assert err.details["expected"] == "C" and "höchste Stein beginnt" in err.message
    assert other[1].valid                        # the later games go by the winner, as before
    # a drawn lead needs no seats: the tag names the players only for the lead (no Whist partnership check)
    assert not [d for r in reps for d in r.diagnostics if d.code in ("seat-draw", "sit-out")]
    # without first=draw, the [6-6] holder (B) must lead the first game with it, whatever was drawn
    six = replay_record(parse(text.replace('[Rules "first=draw"]', "")))
    assert {d.code for d in six[0].errors} >= {"lead-player"}


def test_a_seat_draw_for_someone_not_playing_is_an_error():
    text = (RECORDS / "match-doscientos-drawn-lead.dom").read_text(encoding="utf-8")
    reps = replay_record(parse(text.replace("D [4-6]", "Z [4-6]")))
    assert "bad-seat-draw" in [d.code for d in reps[0].errors]


# -- item 9: the two-player block game with a free lead --------------------------------------------
BLOCK = quoted("003", "Der höchste gehaltene Doppelstein wird von der Person gespielt, die ihn in der Hand hat")
OPENSPIEL = sorted(RECORDS.glob("openspiel-block7-*.dom"))


def test_six_openspiel_style_logs_validate_and_are_analysed():
    from analyzer.analysis import analyze_replay
    assert len(OPENSPIEL) == 6
    not_highest = 0
    for path in OPENSPIEL:
        record = read(path)
        (game,) = record.games
        assert game.tags["Passes"] == "omitted" and not any(m.is_pass for m in game.moves)
        (rep,) = replay_record(record)
        assert rep.valid, (path.name, rep.errors)
        assert rep.variant == find_variant("block7", {"lead": "any"})
        doubles = [t for hand in rep.initial.hands for t in _tiles(hand) if t.is_double]
        not_highest += game.moves[0].tile != max(doubles)
        result = analyze_replay(rep)
        assert result.decisions and result.values[0] is not None and result.stopped is None
        # the lead is a free choice: every tile of the leader's hand is one of the first move's alternatives
        first = result.decisions[0]
        assert first.index == 0 and len(first.alternatives) == 7
    assert not_highest == 6
    # under the text's rule (the default) the same logs lead the wrong tile
    (rep,) = replay_record(read(OPENSPIEL[0]), rules={"lead": "double"})
    assert {d.code for d in rep.errors} & {"lead-player", "lead-tile"}


def _tiles(mask: int):
    from analyzer.position import tiles_of
    return tiles_of(mask, 6)


def test_block7_lead_options():
    double, free, drawn = (find_variant("block7", {"lead": k}) for k in ("double", "any", "draw"))
    assert double.opening == find_variant("block7").opening
    assert double.opening.highest_double and not free.opening.highest_double and drawn.opening.drawn
    reps = replay_record(read(RECORDS / "variant-block7-drawn-lead.dom"))
    assert all(r.valid for r in reps) and leaders(reps) == ["Ben"]
    text = (RECORDS / "variant-block7-drawn-lead.dom").read_text(encoding="utf-8")
    (rep,) = replay_record(parse(text.replace("Ben [2-5]", "Ben [0-1]")))
    (err,) = [d for d in rep.errors if d.code == "lead-player"]
    assert err.details["expected"] == "Anna"
